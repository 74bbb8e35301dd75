//! What can be wrong with a definition, as `miette` diagnostics.
//!
//! Each [`DefinitionError`] variant is one problem and carries only spans; a [`Diagnostics`]
//! bundles all problems of one file with its text, so that they render together. Codes read
//! `rulebook::<stage>::<what>`; `docs/diagnostics.md` documents every one of them.

use std::{fmt, sync::Arc};

use miette::{
    Diagnostic, LabeledSpan, MietteError, MietteSpanContents, Severity, SourceCode, SourceSpan,
    SpanContents,
};
use thiserror::Error;

/// A problem found while reading or checking a variant definition.
///
/// Variants whose severity is a warning never make loading fail.
#[derive(Debug, Error, Diagnostic)]
#[non_exhaustive]
pub enum DefinitionError {
    // ---- syntax ----
    /// The text does not follow the grammar at some token.
    #[error("expected {expected}, found {found}")]
    #[diagnostic(code(rulebook::syntax::unexpected))]
    Unexpected {
        /// What the grammar allowed, in words.
        expected: String,
        /// The token found, in words.
        found: String,
        /// The token found.
        #[label("unexpected {found}")]
        at: SourceSpan,
        /// A likely fix.
        #[help]
        help: String,
    },

    /// The text ends in the middle of a declaration.
    #[error("unexpected end of file, expected {expected}")]
    #[diagnostic(
        code(rulebook::syntax::unexpected_end),
        help("the last declaration is incomplete")
    )]
    UnexpectedEnd {
        /// What the grammar allowed, in words.
        expected: String,
        /// The end of the text.
        #[label("the file ends after this")]
        at: SourceSpan,
    },

    /// A string has no closing quote on its line.
    #[error("unterminated string")]
    #[diagnostic(
        code(rulebook::syntax::unterminated_string),
        help("close the string with `\"` before the end of the line")
    )]
    UnterminatedString {
        /// The opening quote.
        #[label("this string is never closed")]
        at: SourceSpan,
    },

    /// Parentheses nest deeper than the checker allows.
    #[error("parentheses nest too deeply")]
    #[diagnostic(
        code(rulebook::syntax::too_deep),
        help("at most {limit} levels of parentheses are allowed; simplify the expression or split it into named zones")
    )]
    TooDeep {
        /// The deepest allowed nesting.
        limit: usize,
        /// The first parenthesis too deep.
        #[label("one level too deep")]
        at: SourceSpan,
    },

    /// `rulebook fmt` would lay the text out so that it reads differently: a fault of the
    /// formatter, which then writes nothing.
    #[error("the canonical layout of this file would change what it means")]
    #[diagnostic(
        code(rulebook::fmt::changes_meaning),
        help("the file is left as it is: this is a fault of `rulebook fmt`; please report it with the file")
    )]
    FormatChangesMeaning {
        /// The first token read differently.
        #[label("read differently from here")]
        at: SourceSpan,
    },

    /// A line longer than any definition needs.
    #[error("line longer than {limit} characters")]
    #[diagnostic(
        code(rulebook::file::line_too_long),
        help("break the line; a definition's lines are at most {limit} characters long")
    )]
    LineTooLong {
        /// The longest line allowed.
        limit: usize,
        /// The first character past the limit.
        #[label("the line goes on past here")]
        at: SourceSpan,
    },

    /// A name or other word longer than any definition needs.
    #[error("word longer than {limit} characters")]
    #[diagnostic(
        code(rulebook::file::word_too_long),
        help("names, letters and setup rows are at most {limit} characters long; shorten it")
    )]
    WordTooLong {
        /// The longest word allowed.
        limit: usize,
        /// The word's first characters.
        #[label("this word is too long")]
        at: SourceSpan,
    },

    /// More problems than are worth listing.
    #[error("{omitted} more problems not shown")]
    #[diagnostic(
        code(rulebook::file::too_many_problems),
        help("fix the problems above first; many of the others probably follow from them")
    )]
    TooManyProblems {
        /// How many were left out.
        omitted: usize,
    },

    // ---- file ----
    /// A required declaration is missing.
    #[error("no `{item}` declaration")]
    #[diagnostic(code(rulebook::file::missing_item))]
    MissingItem {
        /// The keyword of the missing declaration.
        item: &'static str,
        /// An example of it.
        #[help]
        help: String,
    },

    /// A declaration that may appear only once appears again.
    #[error("`{item}` is declared more than once")]
    #[diagnostic(
        code(rulebook::file::duplicate_item),
        help("keep one `{item}` declaration")
    )]
    DuplicateItem {
        /// The keyword of the declaration.
        item: &'static str,
        /// The second one.
        #[label(primary, "declared again here")]
        again: SourceSpan,
        /// The first one.
        #[label("first declared here")]
        first: SourceSpan,
    },

    // ---- the first edition ----
    /// A form of the language's first edition, still read for a release.
    #[error("{what}")]
    #[diagnostic(
        code(rulebook::syntax::old_form),
        severity(Warning),
        help("write `{new}`; `rulebook fmt --upgrade` rewrites every such form in a file")
    )]
    OldForm {
        /// What changed.
        what: &'static str,
        /// The second edition's text.
        new: String,
        /// The old text.
        #[label("first edition")]
        at: SourceSpan,
    },

    /// A zone, state or check guard before something that is not a way of moving.
    #[error("only options can guard {guarded}")]
    #[diagnostic(
        code(rulebook::syntax::guard_not_here),
        help("zone, state and check guards say where a piece stands or how the game stands as it moves, so they guard a pattern (`move in palace: step orthogonal`); here write `if OPTION:` or `unless OPTION:`")
    )]
    GuardNotHere {
        /// What the guard stands before.
        guarded: &'static str,
        /// The guard.
        #[label("not an option")]
        at: SourceSpan,
    },

    // ---- bases ----
    /// The base a `from` clause names cannot be read.
    #[error("cannot read the base `{path}`: {reason}")]
    #[diagnostic(
        code(rulebook::base::unreadable),
        help("`from` takes a path from this file's folder, for example `variant \"Capablanca\" from \"../chess.variant\"`")
    )]
    BaseUnreadable {
        /// The path as written.
        path: String,
        /// Why it cannot be read.
        reason: String,
        /// The path.
        #[label("no definition to read here")]
        at: SourceSpan,
    },

    /// Bases that lead back to a definition already being read.
    #[error("the bases go round in a circle: {chain}")]
    #[diagnostic(
        code(rulebook::base::cycle),
        help("a definition cannot be built on itself, even through other files: take out one of these `from` clauses")
    )]
    BaseCycle {
        /// The files in the circle, in order.
        chain: String,
        /// The `from` that closes the circle.
        #[label("this base is already being read")]
        at: SourceSpan,
    },

    /// More bases in a chain than any definition needs.
    #[error("more than {limit} bases in a row")]
    #[diagnostic(
        code(rulebook::base::too_deep),
        help("build on a base nearer the game, or copy what this chain adds into fewer files")
    )]
    BaseTooDeep {
        /// The most bases.
        limit: usize,
        /// The `from` one too far.
        #[label("one base too many")]
        at: SourceSpan,
    },

    /// `without` in a definition that is built on nothing.
    #[error("`without` needs a base to leave things out of")]
    #[diagnostic(
        code(rulebook::base::without_base),
        help("name the base in the `variant` declaration, for example `variant \"Antichess\" from \"../chess.variant\"`, or take this declaration out")
    )]
    WithoutBase {
        /// The declaration.
        #[label("no `from` in this file")]
        at: SourceSpan,
    },

    /// `without` names something its base does not declare.
    #[error("the base declares no {what}")]
    #[diagnostic(code(rulebook::base::without_unknown))]
    WithoutUnknown {
        /// What is missing: ``piece `Queen` ``, `castling`...
        what: String,
        /// The name.
        #[label("not in the base")]
        at: SourceSpan,
        /// A suggestion.
        #[help]
        help: String,
    },

    // ---- variant ----
    /// A name for a protocol that its GUIs could not carry.
    #[error("`{name}` cannot name the game in {protocol}")]
    #[diagnostic(
        code(rulebook::variant::bad_protocol_name),
        help("write one word of letters, digits, `-` and `_`, as {protocol} names games: `known as \"normal\" in xboard`")
    )]
    BadProtocolName {
        /// The name as written.
        name: String,
        /// `xboard` or `uci`.
        protocol: &'static str,
        /// The name.
        #[label("not one word of letters, digits, `-` and `_`")]
        at: SourceSpan,
    },

    /// A protocol is given a second name for the game.
    #[error("the game has two names for {protocol}")]
    #[diagnostic(
        code(rulebook::variant::protocol_named_twice),
        help("keep one `known as ... in {protocol}`")
    )]
    ProtocolNamedTwice {
        /// `xboard` or `uci`.
        protocol: &'static str,
        /// The second clause.
        #[label(primary, "named again here")]
        again: SourceSpan,
        /// The first one.
        #[label("first named here")]
        first: SourceSpan,
    },

    // ---- board ----
    /// The board is wider or taller than supported.
    #[error("a board with {size} {dimension} is too large")]
    #[diagnostic(
        code(rulebook::board::too_large),
        help("boards may have at most {max} files and {max} ranks")
    )]
    BoardTooLarge {
        /// `files` or `ranks`.
        dimension: &'static str,
        /// The size as written.
        size: String,
        /// The largest size.
        max: u8,
        /// The number.
        #[label("more than {max}")]
        at: SourceSpan,
    },

    /// The board has no files or no ranks.
    #[error("a board needs at least one file and one rank")]
    #[diagnostic(
        code(rulebook::board::zero_size),
        help("write `board W x H` with W and H from 1 to 26")
    )]
    BoardZero {
        /// The zero.
        #[label("no {dimension}")]
        at: SourceSpan,
        /// `files` or `ranks`.
        dimension: &'static str,
    },

    // ---- geometry ----
    /// A square lies outside the board.
    #[error("square `{name}` is not on the board")]
    #[diagnostic(
        code(rulebook::geometry::off_board),
        help("this board has files `a` to `{last_file}` and ranks 1 to {ranks}")
    )]
    OffBoard {
        /// The square as written.
        name: String,
        /// The last file letter.
        last_file: char,
        /// The number of ranks.
        ranks: u8,
        /// The square.
        #[label("not on this board")]
        at: SourceSpan,
    },

    /// A rank number lies outside the board.
    #[error("rank {rank} is not on the board")]
    #[diagnostic(
        code(rulebook::geometry::rank_off_board),
        help("this board has ranks 1 to {ranks}")
    )]
    RankOffBoard {
        /// The rank as written.
        rank: String,
        /// The number of ranks.
        ranks: u8,
        /// The number.
        #[label("not on this board")]
        at: SourceSpan,
    },

    /// A file letter lies outside the board.
    #[error("file `{file}` is not on the board")]
    #[diagnostic(
        code(rulebook::geometry::file_off_board),
        help("this board has files `a` to `{last_file}`")
    )]
    FileOffBoard {
        /// The file letter.
        file: char,
        /// The last file letter.
        last_file: char,
        /// The letter.
        #[label("not on this board")]
        at: SourceSpan,
    },

    // ---- sides ----
    /// More than four sides are declared.
    #[error("a game has at most four sides")]
    #[diagnostic(
        code(rulebook::sides::too_many),
        help("a game is played by two, three or four sides; remove the extra ones")
    )]
    TooManySides {
        /// The first side too many.
        #[label("a fifth side")]
        at: SourceSpan,
    },

    /// Two sides of a game with more than two share an initial.
    #[error("sides `{name}` and `{other}` have the same initial")]
    #[diagnostic(
        code(rulebook::sides::initial),
        help("with more than two sides, a side's initial marks its pieces in setups and FEN (`rK` is a king of the side whose name starts with `r`): name the sides so that their initials differ")
    )]
    SideInitialClash {
        /// The later side.
        name: String,
        /// The earlier side with the same initial.
        other: String,
        /// The later side's name.
        #[label(primary, "same initial as `{other}`")]
        at: SourceSpan,
        /// The earlier side's name.
        #[label("declared here")]
        first: SourceSpan,
    },

    /// A zone, castling or line turned a quarter for a side facing east or west on a board
    /// that is not square.
    #[error("a copy turned a quarter of the way round needs a square board")]
    #[diagnostic(
        code(rulebook::sides::quarter_turn),
        help("the sides face {from} and {to}: a {width} x {height} board turned a quarter does not cover itself; make the board square, or write this side's copy out instead of `, mirrored` or `, rotated`")
    )]
    QuarterTurn {
        /// The first side's facing.
        from: String,
        /// The other side's facing.
        to: String,
        /// Files.
        width: u8,
        /// Ranks.
        height: u8,
        /// The symmetry word.
        #[label("turned for the side facing {to}")]
        at: SourceSpan,
    },

    /// Fewer than two sides are declared.
    #[error("a game needs two sides")]
    #[diagnostic(
        code(rulebook::sides::too_few),
        help("declare both players, for example `sides white north, black south`")
    )]
    TooFewSides {
        /// The declaration.
        #[label("only one side")]
        at: SourceSpan,
    },

    /// A `teams` declaration names a side that is not declared.
    #[error("`{name}` is not a side")]
    #[diagnostic(
        code(rulebook::teams::unknown_side),
        help("a team is made of the sides `sides` declares: {sides}")
    )]
    UnknownTeamSide {
        /// The name.
        name: String,
        /// The sides declared.
        sides: String,
        /// Where.
        #[label("no side has this name")]
        at: SourceSpan,
    },

    /// A side in two teams of one `teams` declaration.
    #[error("side `{name}` is in more than one team")]
    #[diagnostic(
        code(rulebook::teams::twice),
        help("put each side in one team; a side left out plays for itself")
    )]
    TeamTwice {
        /// The name.
        name: String,
        /// Where it is named again.
        #[label("already in a team")]
        at: SourceSpan,
    },

    /// Two sides have the same name.
    #[error("side `{name}` is declared more than once")]
    #[diagnostic(code(rulebook::sides::duplicate), help("give each side its own name"))]
    DuplicateSide {
        /// The name.
        name: String,
        /// The second one.
        #[label(primary, "declared again here")]
        again: SourceSpan,
        /// The first one.
        #[label("first declared here")]
        first: SourceSpan,
    },

    /// A side whose name starts with the letter FEN uses for another side.
    #[error("side `{name}` could be mistaken for the {other} side in FEN")]
    #[diagnostic(
        code(rulebook::sides::fen_letter),
        severity(Warning),
        help("in FEN the side to move is `w` for the first side and `b` for the second (then `c`, `d`), whatever the sides are called: `{letter}` means the {other} side here; name the sides so that their initials agree, or keep that in mind when writing FEN")
    )]
    SideLetterClash {
        /// The side's name.
        name: String,
        /// The side FEN writes with the name's initial: `first`, `second`, ...
        other: String,
        /// The letter.
        letter: char,
        /// The name.
        #[label("in FEN, `{letter}` is the {other} side")]
        at: SourceSpan,
    },

    // ---- names ----
    /// A zone name that no `zone` declares.
    #[error("cannot find zone `{name}`")]
    #[diagnostic(code(rulebook::names::unknown_zone))]
    UnknownZone {
        /// The name.
        name: String,
        /// The name as used.
        #[label("no zone with this name")]
        at: SourceSpan,
        /// A suggestion.
        #[help]
        help: String,
    },

    /// A piece name or letter that no `piece` declares.
    #[error("cannot find piece `{name}`")]
    #[diagnostic(code(rulebook::names::unknown_piece))]
    UnknownPiece {
        /// The name.
        name: String,
        /// The name as used.
        #[label("no piece with this name or letter")]
        at: SourceSpan,
        /// A suggestion.
        #[help]
        help: String,
    },

    /// An option name that no `option` declares.
    #[error("cannot find option `{name}`")]
    #[diagnostic(code(rulebook::names::unknown_option))]
    UnknownOption {
        /// The name.
        name: String,
        /// The name as used.
        #[label("no option with this name")]
        at: SourceSpan,
        /// A suggestion.
        #[help]
        help: String,
    },

    // ---- options ----
    /// Two options have the same name.
    #[error("option `{name}` is declared more than once")]
    #[diagnostic(
        code(rulebook::option::duplicate),
        help("give each option its own name")
    )]
    DuplicateOption {
        /// The name.
        name: String,
        /// The second one.
        #[label(primary, "declared again here")]
        again: SourceSpan,
        /// The first one.
        #[label("first declared here")]
        first: SourceSpan,
    },

    /// An option nothing depends on.
    #[error("option `{name}` is never used")]
    #[diagnostic(
        code(rulebook::option::unused),
        severity(Warning),
        help("guard a pattern, clause or rule with `if {name}` or `unless {name}`, or remove the option")
    )]
    UnusedOption {
        /// The name.
        name: String,
        /// The declaration's name.
        #[label("declared here but never used")]
        at: SourceSpan,
    },

    /// An option whose flip compiles to the same game.
    #[error("option `{name}` changes nothing")]
    #[diagnostic(
        code(rulebook::option::no_effect),
        severity(Warning),
        help("every clause it guards is the same with the option on and off; guard something that differs, or remove the option")
    )]
    OptionWithoutEffect {
        /// The name.
        name: String,
        /// The declaration's name.
        #[label("on or off, the game is the same")]
        at: SourceSpan,
    },

    /// A piece that no setup places and no promotion or drop brings onto the board.
    #[error("piece `{name}` never stands on the board")]
    #[diagnostic(
        code(rulebook::piece::never_on_board),
        severity(Warning),
        help("place it in the setup, name it in another piece's `promote to`, or remove it; a piece meant to come only from a FEN says so with `only from fen`")
    )]
    PieceNeverOnBoard {
        /// The name.
        name: String,
        /// The declaration's name.
        #[label("not in any setup, promotion or drop")]
        at: SourceSpan,
    },

    /// A piece with no move from any square.
    #[error("piece `{name}` cannot move from any square")]
    #[diagnostic(
        code(rulebook::piece::no_moves),
        severity(Warning),
        help("give it a `move` clause, or check its `stay in` and `never enter` zones: together they leave it nowhere to go; a piece meant to stand still has no `move` clause and `drop even where stuck`")
    )]
    PieceWithoutMoves {
        /// The name.
        name: String,
        /// The declaration's name.
        #[label("no square it could move to")]
        at: SourceSpan,
    },

    /// A promotion zone the piece can never walk into from where it starts.
    #[error("`{piece}` can never reach its promotion zone `{zone}`")]
    #[diagnostic(
        code(rulebook::piece::promotion_out_of_reach),
        severity(Warning),
        help("from its start squares no side's piece ever enters `{zone}` (read for its own side): check the piece's directions and the zone's squares")
    )]
    PromotionOutOfReach {
        /// The piece.
        piece: String,
        /// The zone.
        zone: String,
        /// The zone in the `promote` clause.
        #[label("never reached")]
        at: SourceSpan,
    },

    /// A zone with a copy per side that only one side's pieces read.
    #[error("zone `{name}` has a copy for each side, but only {side}'s pieces read it")]
    #[diagnostic(
        code(rulebook::zone::one_side_only),
        severity(Warning),
        help("the other side's copy is never used: drop `, mirrored` or `, rotated` if the zone is meant for {side} alone")
    )]
    ZoneForOneSide {
        /// The name.
        name: String,
        /// The only side that reads it.
        side: String,
        /// The declaration's name.
        #[label("read by {side} only")]
        at: SourceSpan,
    },

    // ---- partitions ----
    /// Two partitions have the same name.
    #[error("partition `{name}` is declared more than once")]
    #[diagnostic(
        code(rulebook::partition::duplicate),
        help("give each partition its own name")
    )]
    DuplicatePartition {
        /// The name.
        name: String,
        /// The second one.
        #[label(primary, "declared again here")]
        again: SourceSpan,
        /// The first one.
        #[label("first declared here")]
        first: SourceSpan,
    },

    /// Two parts of a partition share a square.
    #[error("the parts of partition `{name}` overlap at {square}")]
    #[diagnostic(
        code(rulebook::partition::overlap),
        help("each square must be in exactly one part; remove {square} from one of them")
    )]
    PartitionOverlap {
        /// The partition.
        name: String,
        /// A square in two parts.
        square: String,
        /// The later part.
        #[label("{square} is in an earlier part too")]
        at: SourceSpan,
    },

    /// A square in no part of a partition.
    #[error("partition `{name}` leaves {square} out")]
    #[diagnostic(
        code(rulebook::partition::gap),
        help("the parts must cover the board; add a part for the squares left out")
    )]
    PartitionGap {
        /// The partition.
        name: String,
        /// A square in no part.
        square: String,
        /// The partition's name.
        #[label("{square} is in no part")]
        at: SourceSpan,
    },

    /// Two lines have the same name.
    #[error("line `{name}` is declared more than once")]
    #[diagnostic(code(rulebook::line::duplicate), help("give each line its own name"))]
    DuplicateLine {
        /// The name.
        name: String,
        /// The second one.
        #[label(primary, "declared again here")]
        again: SourceSpan,
        /// The first one.
        #[label("first declared here")]
        first: SourceSpan,
    },

    /// A line name that no `line` declares.
    #[error("cannot find line `{name}`")]
    #[diagnostic(code(rulebook::names::unknown_line))]
    UnknownLine {
        /// The name.
        name: String,
        /// The name as used.
        #[label("no line with this name")]
        at: SourceSpan,
        /// A suggestion.
        #[help]
        help: String,
    },

    /// A check count out of range.
    #[error("`{text}` is not a check count")]
    #[diagnostic(
        code(rulebook::rules::bad_check_count),
        help("write a whole number from 1 to 99: `checks 3 wins`")
    )]
    BadCheckCount {
        /// The text.
        text: String,
        /// Where.
        #[label("expected 1 to 99")]
        at: SourceSpan,
    },

    /// A zone's own set given twice for one side.
    #[error("zone set for side `{name}` is given twice")]
    #[diagnostic(
        code(rulebook::zone::side_twice),
        help("keep one `, for {name} ...` part: a side has one set of each zone")
    )]
    ZoneSideTwice {
        /// The side.
        name: String,
        /// The second one.
        #[label(primary, "given again here")]
        again: SourceSpan,
        /// The first one.
        #[label("first given here")]
        first: SourceSpan,
    },

    /// A side name that `sides` does not declare.
    #[error("cannot find side `{name}`")]
    #[diagnostic(code(rulebook::names::unknown_side))]
    UnknownSide {
        /// The name.
        name: String,
        /// The name as used.
        #[label("no side with this name")]
        at: SourceSpan,
        /// The sides there are.
        #[help]
        help: String,
    },

    /// A partition name that no `partition` declares.
    #[error("cannot find partition `{name}`")]
    #[diagnostic(code(rulebook::names::unknown_partition))]
    UnknownPartition {
        /// The name.
        name: String,
        /// The name as used.
        #[label("no partition with this name")]
        at: SourceSpan,
        /// A suggestion.
        #[help]
        help: String,
    },

    // ---- zones ----
    /// Two zones have the same name.
    #[error("zone `{name}` is declared more than once")]
    #[diagnostic(code(rulebook::zone::duplicate), help("give each zone its own name"))]
    DuplicateZone {
        /// The name.
        name: String,
        /// The second one.
        #[label(primary, "declared again here")]
        again: SourceSpan,
        /// The first one.
        #[label("first declared here")]
        first: SourceSpan,
    },

    /// A zone is defined in terms of itself.
    #[error("zone `{name}` is defined in terms of itself")]
    #[diagnostic(code(rulebook::zone::cycle))]
    ZoneCycle {
        /// The zone.
        name: String,
        /// The reference that closes the cycle.
        #[label("this refers back to `{name}`")]
        at: SourceSpan,
        /// The cycle, spelled out.
        #[help]
        help: String,
    },

    /// A mask has the wrong number of rows.
    #[error("mask has {rows} rows but the board has {height} ranks")]
    #[diagnostic(
        code(rulebook::zone::mask_height),
        help("draw one row per rank, top rank first")
    )]
    MaskHeight {
        /// Rows drawn.
        rows: usize,
        /// Ranks on the board.
        height: u8,
        /// The mask.
        #[label("{rows} rows")]
        at: SourceSpan,
    },

    /// A mask row has the wrong number of cells.
    #[error("mask row has {cells} cells but the board has {width} files")]
    #[diagnostic(
        code(rulebook::zone::mask_width),
        help("draw one cell per file: `x` for a square in the zone, `.` for one outside")
    )]
    MaskWidth {
        /// Cells drawn.
        cells: usize,
        /// Files on the board.
        width: u8,
        /// The row.
        #[label("{cells} cells")]
        at: SourceSpan,
    },

    /// A mask cell is not one of the allowed characters.
    #[error("`{ch}` is not a mask cell")]
    #[diagnostic(
        code(rulebook::zone::mask_cell),
        help(
            "use `x`, `X`, `#` or `*` for squares in the zone and `.` or `-` for squares outside"
        )
    )]
    MaskCell {
        /// The character.
        ch: char,
        /// The cell.
        #[label("not a mask cell")]
        at: SourceSpan,
    },

    /// A zone has no squares for some side.
    #[error("zone `{name}` has no squares")]
    #[diagnostic(
        code(rulebook::zone::empty),
        severity(Warning),
        help("a pattern or rule that needs this zone can never apply; check the expression")
    )]
    EmptyZone {
        /// The zone.
        name: String,
        /// The zone's expression.
        #[label("empty for {whom}")]
        at: SourceSpan,
        /// Which sides it is empty for.
        whom: String,
    },

    /// A zone nothing refers to.
    #[error("zone `{name}` is never used")]
    #[diagnostic(
        code(rulebook::zone::unused),
        severity(Warning),
        help("use it in a pattern, clause or another zone, or remove it")
    )]
    UnusedZone {
        /// The name.
        name: String,
        /// The declaration's name.
        #[label("declared here but never used")]
        at: SourceSpan,
    },

    // ---- pieces ----
    /// Two pieces have the same name.
    #[error("piece `{name}` is declared more than once")]
    #[diagnostic(
        code(rulebook::piece::duplicate_name),
        help("give each piece its own name (names are compared ignoring case)")
    )]
    DuplicatePieceName {
        /// The name.
        name: String,
        /// The second one.
        #[label(primary, "declared again here")]
        again: SourceSpan,
        /// The first one.
        #[label("first declared here")]
        first: SourceSpan,
    },

    /// Two pieces have the same letter.
    #[error("letter `{letter}` is used by two pieces")]
    #[diagnostic(
        code(rulebook::piece::duplicate_letter),
        help(
            "give each piece its own letter; a `+` prefix makes a different letter (`P` and `+P`)"
        )
    )]
    DuplicateLetter {
        /// The letter.
        letter: String,
        /// The second one.
        #[label(primary, "used again here")]
        again: SourceSpan,
        /// The first one.
        #[label("first used here")]
        first: SourceSpan,
    },

    /// A piece letter is written in lowercase.
    #[error("piece letter `{letter}` is lowercase")]
    #[diagnostic(
        code(rulebook::piece::lowercase_letter),
        help("write piece letters in uppercase (`{upper}`); setups use the lowercase letter for the second side's pieces")
    )]
    LowercaseLetter {
        /// The letter as written.
        letter: String,
        /// The letter in uppercase.
        upper: String,
        /// The letter.
        #[label("lowercase")]
        at: SourceSpan,
    },

    /// A zone's `drawn` text is not one character diagrams can show.
    #[error("zone glyph `{text}` is not a single punctuation character")]
    #[diagnostic(
        code(rulebook::zone::bad_glyph),
        help("write one printable character that is neither a letter nor a digit, for example `drawn \"=\"`; letters and `*` are kept for pieces and move marks")
    )]
    BadGlyph {
        /// The text as written.
        text: String,
        /// The text.
        #[label("not one punctuation character")]
        at: SourceSpan,
    },

    /// A zone glyph that is also part of a piece's letter.
    #[error("zone `{zone}` is drawn `{glyph}`, which is also part of the letter `{letter}`")]
    #[diagnostic(
        code(rulebook::zone::glyph_like_letter),
        severity(Warning),
        help("boards drawn as text would show `{glyph}` both on the zone's empty squares and in `{letter}`; choose another glyph, such as `:` or `#`")
    )]
    GlyphLikeLetter {
        /// The zone.
        zone: String,
        /// The glyph.
        glyph: char,
        /// The piece letter.
        letter: String,
        /// The glyph as written.
        #[label("also part of `{letter}`")]
        at: SourceSpan,
    },

    /// A piece value is not a number.
    #[error("piece value `{text}` is not a number")]
    #[diagnostic(
        code(rulebook::piece::bad_value),
        help("write the value in pawns as a decimal number, for example `value 3` or `value 4.5`")
    )]
    BadValue {
        /// The value as written.
        text: String,
        /// The value.
        #[label("not a number")]
        at: SourceSpan,
    },

    /// More piece kinds than supported.
    #[error("too many kinds of piece")]
    #[diagnostic(
        code(rulebook::piece::too_many),
        help("a variant may declare at most {max} kinds of piece (127 with two sides, 85 with three, 63 with four)")
    )]
    TooManyPieces {
        /// The limit.
        max: usize,
        /// The first piece too many.
        #[label("one kind too many")]
        at: SourceSpan,
    },

    /// A piece promotes to itself.
    #[error("piece `{name}` promotes to itself")]
    #[diagnostic(
        code(rulebook::piece::promotes_to_itself),
        help("list only the pieces it may become; staying unpromoted is allowed unless the promotion is `forced`")
    )]
    PromotesToItself {
        /// The piece.
        name: String,
        /// The choice.
        #[label("this is `{name}` itself")]
        at: SourceSpan,
    },

    /// A promotion made in place says how a move promotes too.
    #[error("a promotion `in place` is a move of its own: `{word}` does not apply to it")]
    #[diagnostic(
        code(rulebook::piece::in_place_conflict),
        help("a piece promoting in place chooses to; write the move-related conditions in a separate `promote to` clause without `, in place`")
    )]
    InPlaceConflict {
        /// What was written.
        word: String,
        /// Where.
        #[label("not with `, in place`")]
        at: SourceSpan,
    },

    /// A piece is dropped as itself.
    #[error("piece `{name}` is dropped as itself")]
    #[diagnostic(
        code(rulebook::piece::drops_as_itself),
        help("list only other pieces after `drop also as`: the piece is always dropped as itself")
    )]
    DropsAsItself {
        /// The piece.
        name: String,
        /// The listed piece.
        #[label("this is `{name}` itself")]
        at: SourceSpan,
    },

    /// A piece demotes to itself.
    #[error("piece `{name}` demotes to itself")]
    #[diagnostic(
        code(rulebook::piece::demotes_to_itself),
        help("a piece that stays the same in hand needs no `demote to` clause")
    )]
    DemotesToItself {
        /// The piece.
        name: String,
        /// The target.
        #[label("this is `{name}` itself")]
        at: SourceSpan,
    },

    /// A clause that may appear once per piece appears again.
    #[error("piece `{name}` has more than one `{clause}` clause")]
    #[diagnostic(
        code(rulebook::piece::repeated_clause),
        help("keep one `{clause}` clause")
    )]
    RepeatedClause {
        /// The piece.
        name: String,
        /// The clause keyword.
        clause: &'static str,
        /// The second one.
        #[label(primary, "given again here")]
        again: SourceSpan,
        /// The first one.
        #[label("first given here")]
        first: SourceSpan,
    },

    /// `move like` references form a cycle.
    #[error("piece `{name}` moves like itself")]
    #[diagnostic(code(rulebook::piece::like_cycle))]
    LikeCycle {
        /// The piece.
        name: String,
        /// The reference that closes the cycle.
        #[label("this leads back to `{name}`")]
        at: SourceSpan,
        /// The cycle, spelled out.
        #[help]
        help: String,
    },

    /// `drop max N per file` with N out of range.
    #[error("drop limit `{text}` is out of range")]
    #[diagnostic(
        code(rulebook::piece::bad_drop_limit),
        help("write a number of pieces from 1 to 26")
    )]
    BadDropLimit {
        /// The number as written.
        text: String,
        /// The number.
        #[label("must be from 1 to 26")]
        at: SourceSpan,
    },

    /// `, at most N` with N out of range.
    #[error("`at most {text}` is out of range")]
    #[diagnostic(
        code(rulebook::piece::promotion_limit),
        help("write how many pieces of each choice a side may have on the board, from 1 to 999")
    )]
    BadPromotionLimit {
        /// The number as written.
        text: String,
        /// The number.
        #[label("must be from 1 to 999")]
        at: SourceSpan,
    },

    /// A piece has drop restrictions but the rules have no drops.
    #[error("piece `{name}` has drop rules but pieces are never dropped")]
    #[diagnostic(
        code(rulebook::piece::drops_unused),
        severity(Warning),
        help("add `drops` to the `rules` block, or remove the `drop` clauses")
    )]
    DropsUnused {
        /// The piece.
        name: String,
        /// The clause.
        #[label("has no effect")]
        at: SourceSpan,
    },

    /// A piece has more patterns than supported once `like` is expanded.
    #[error("piece `{name}` has more than {max} move patterns")]
    #[diagnostic(
        code(rulebook::piece::too_many_patterns),
        help("`like` copies every pattern of the piece it names; copy fewer pieces or merge patterns")
    )]
    TooManyPatterns {
        /// The piece.
        name: String,
        /// The limit.
        max: usize,
        /// The piece's name.
        #[label("too many patterns")]
        at: SourceSpan,
    },

    // ---- patterns ----
    /// `same` or `outward` on a first leg.
    #[error("`{word}` on the first leg of a path")]
    #[diagnostic(
        code(rulebook::pattern::relative_first_leg),
        help("`{word}` is relative to the previous leg; use it after `then`, for example `step orthogonal then step {word}`")
    )]
    RelativeFirstLeg {
        /// `same` or `outward`.
        word: &'static str,
        /// The word.
        #[label("there is no previous leg")]
        at: SourceSpan,
    },

    /// A Betza string that cannot be read.
    #[error("cannot read this Betza notation: {why}")]
    #[diagnostic(
        code(rulebook::pattern::betza),
        help("atoms `W F D N A H C Z G K R B Q`, doubled for riders (`NN`) or with a range (`R4`); before them `m c p n` and directions `f b l r s v`; or write the legs with `step`, `slide` and `then`")
    )]
    Betza {
        /// What is wrong.
        why: String,
        /// Where.
        #[label("here")]
        at: SourceSpan,
    },

    /// A pattern that would expand to too many paths from one square.
    #[error("this path branches into up to {bound} paths from one square")]
    #[diagnostic(
        code(rulebook::pattern::too_many_paths),
        help("at most {limit} are supported; limit the slides before the last leg with `up to N`, or use fewer directions")
    )]
    TooManyPaths {
        /// The bound computed.
        bound: u64,
        /// The limit.
        limit: u64,
        /// The legs.
        #[label("too many ways to go")]
        at: SourceSpan,
    },

    /// A `hop` leg that is not the last of its path.
    #[error("a `hop` must be the last leg of its path")]
    #[diagnostic(
        code(rulebook::pattern::hop_not_last),
        help("the legs before the last pass only empty squares, so a screen can only be jumped on the last leg; reorder the legs or split the pattern")
    )]
    HopNotLast {
        /// The `hop` word.
        #[label("followed by another leg")]
        at: SourceSpan,
    },

    /// `same` or `outward` together with other directions.
    #[error("`{word}` must be a leg's only direction")]
    #[diagnostic(
        code(rulebook::pattern::relative_mixed),
        help("write `{word}` alone, or use another pattern for the other directions")
    )]
    RelativeMixed {
        /// `same` or `outward`.
        word: &'static str,
        /// The word.
        #[label(primary, "`{word}` here")]
        at: SourceSpan,
        /// Another direction of the leg.
        #[label("together with this")]
        other: SourceSpan,
    },

    /// A vector that goes nowhere.
    #[error("the vector {text} does not move")]
    #[diagnostic(
        code(rulebook::pattern::null_vector),
        help("a leap needs at least one non-zero coordinate, for example `(1,2)`")
    )]
    NullVector {
        /// The vector as written.
        text: String,
        /// The vector.
        #[label("zero in both directions")]
        at: SourceSpan,
    },

    /// A vector longer than any board.
    #[error("the vector {text} is too long")]
    #[diagnostic(
        code(rulebook::pattern::vector_too_long),
        help("each coordinate must be between -25 and 25")
    )]
    VectorTooLong {
        /// The vector as written.
        text: String,
        /// The vector.
        #[label("longer than any board")]
        at: SourceSpan,
    },

    /// `up to N` with N out of range.
    #[error("`up to {text}` is out of range")]
    #[diagnostic(
        code(rulebook::pattern::bad_limit),
        help("a slide or hop goes from 1 to 26 squares; leave out `up to` for no limit")
    )]
    BadLimit {
        /// The number as written.
        text: String,
        /// The number.
        #[label("must be from 1 to 26")]
        at: SourceSpan,
    },

    /// `capturing on the way` on a pattern that is not two steps.
    #[error("`capturing on the way` needs a pattern of two steps")]
    #[diagnostic(
        code(rulebook::pattern::on_the_way),
        help("write it after two `step` (or `leap`) legs joined by `then`, as a lion's double move: `step any then step any, capturing on the way`; a shot does not move, so it has no way to capture on")
    )]
    OnTheWayLegs {
        /// The modifier.
        #[label("on a pattern that is not two steps")]
        at: SourceSpan,
    },

    /// `continuing after crossing` on something other than one plain slide.
    #[error("`continuing after crossing` needs a pattern of one slide")]
    #[diagnostic(
        code(rulebook::pattern::continuing_leg),
        help("write it after a single `slide` leg (not `bent`, no `then`)")
    )]
    ContinuingLeg {
        /// The modifier.
        #[label("on a pattern that is not one slide")]
        at: SourceSpan,
    },

    /// `move-only along LINE` on a pattern that does not continue after crossing that line.
    #[error("`move-only along {line}` needs `continuing after crossing {line}`")]
    #[diagnostic(
        code(rulebook::pattern::along_without_continuing),
        help("it limits the continuation after crossing the line: add `, continuing after crossing {line}` to the pattern, or remove it")
    )]
    AlongWithoutContinuing {
        /// The line named.
        line: String,
        /// The modifier.
        #[label("no continuation after crossing this line")]
        at: SourceSpan,
    },

    /// `crossing LINE up to N` with N out of range.
    #[error("`crossing ... up to {text}` is out of range")]
    #[diagnostic(
        code(rulebook::pattern::bad_crossing_limit),
        help("a move crosses a line from 0 to 26 times; `not crossing LINE` means 0")
    )]
    BadCrossingLimit {
        /// The number as written.
        text: String,
        /// The number.
        #[label("must be from 0 to 26")]
        at: SourceSpan,
    },

    /// `up to N` on a step or a leap.
    #[error("`up to` on a `{word}`")]
    #[diagnostic(
        code(rulebook::pattern::limit_on_step),
        help("only `slide` and `hop` travel more than once; use `slide ... up to N` instead")
    )]
    LimitOnStep {
        /// `step` or `leap`.
        word: &'static str,
        /// The `up to` phrase.
        #[label("a `{word}` moves once")]
        at: SourceSpan,
    },

    /// Both `move-only` and `capture-only`.
    #[error("a pattern cannot be both `move-only` and `capture-only`")]
    #[diagnostic(
        code(rulebook::pattern::conflicting_modes),
        help(
            "split it into two patterns, or leave out both for a pattern that moves and captures"
        )
    )]
    ConflictingModes {
        /// The second modifier.
        #[label(primary, "contradicts the earlier modifier")]
        again: SourceSpan,
        /// The first modifier.
        #[label("given here")]
        first: SourceSpan,
    },

    /// Two `unmoved`/`moved` guards on one pattern.
    #[error("a pattern may ask only once whether the piece has moved")]
    #[diagnostic(
        code(rulebook::pattern::state_twice),
        help("keep one of `unmoved` and `moved`; for both cases write two patterns, or none")
    )]
    StateTwice {
        /// The second guard.
        #[label(primary, "asked again here")]
        again: SourceSpan,
        /// The first guard.
        #[label("first asked here")]
        first: SourceSpan,
    },

    /// `bent` where it cannot apply.
    #[error("{why}")]
    #[diagnostic(
        code(rulebook::pattern::bent_leg),
        help("`bent slide` and `bent hop` make a pattern of one leg: `move bent slide orthogonal in castle, diagonal in road`")
    )]
    BentLeg {
        /// What is wrong.
        why: &'static str,
        /// The `bent`.
        #[label("here")]
        at: SourceSpan,
    },

    /// `just beyond` where it cannot apply.
    #[error("{why}")]
    #[diagnostic(
        code(rulebook::pattern::just_beyond),
        help("`just beyond` ends a plain hop on the square right after its screen: `move hop any just beyond` (a grasshopper)")
    )]
    JustBeyond {
        /// What is wrong.
        why: &'static str,
        /// The `just beyond`.
        #[label("here")]
        at: SourceSpan,
    },

    /// `over` or `not over` on a pattern that does not hop.
    #[error("only a hop has a screen to limit")]
    #[diagnostic(
        code(rulebook::pattern::over_without_hop),
        help("`over PIECE...` and `not over PIECE...` say what a hop's screen may be: `move hop orthogonal, not over Cannon`")
    )]
    OverWithoutHop {
        /// The `over` modifier.
        #[label("this pattern's last leg is not a hop")]
        at: SourceSpan,
    },

    /// Directions without a zone before directions with one.
    #[error("directions without a zone must be the only ones of their leg")]
    #[diagnostic(
        code(rulebook::pattern::arm_without_zone),
        help("name a zone for each set of directions (`outward in castle, same in road`); the first that holds the square applies")
    )]
    ArmWithoutZone {
        /// The directions without a zone.
        #[label("no `in ZONE` here")]
        at: SourceSpan,
    },

    /// Guards or modifiers on `like`.
    #[error("`like` cannot be combined with {what}")]
    #[diagnostic(
        code(rulebook::pattern::guarded_like),
        help("`like PIECE` copies every pattern of that piece as it is; write the patterns out to change them")
    )]
    GuardedLike {
        /// `guards` or `modifiers`.
        what: &'static str,
        /// The guards or modifiers.
        #[label("not allowed with `like`")]
        at: SourceSpan,
    },

    /// The same modifier twice.
    #[error("modifier given twice")]
    #[diagnostic(
        code(rulebook::pattern::repeated_modifier),
        severity(Warning),
        help("remove one of them")
    )]
    RepeatedModifier {
        /// The second one.
        #[label(primary, "given again here")]
        again: SourceSpan,
        /// The first one.
        #[label("first given here")]
        first: SourceSpan,
    },

    // ---- castling ----
    /// Two squares of a castling that must differ are the same.
    #[error("castling uses square `{square}` twice")]
    #[diagnostic(
        code(rulebook::castling::same_square),
        help("the two pieces must start on different squares, end on different squares, and the king-like piece must move")
    )]
    CastlingSameSquare {
        /// The square.
        square: String,
        /// The second use.
        #[label(primary, "used again here")]
        again: SourceSpan,
        /// The first use.
        #[label("first used here")]
        first: SourceSpan,
    },

    /// A castling that leaves a start square out cannot be played from every start.
    #[error("castling from any start {problem}")]
    #[diagnostic(
        code(rulebook::castling::any_start),
        help("write both start squares, or leave both out and end both pieces on one rank (`castling King to g1 with Rook to f1`)")
    )]
    CastlingAnyStart {
        /// What is wrong.
        problem: String,
        /// What the label says.
        what: String,
        /// Where.
        #[label("{what}")]
        at: SourceSpan,
    },

    /// A castling piece does not start where the castling says.
    #[error("castling needs `{piece}` of `{side}` on {square} at the start")]
    #[diagnostic(code(rulebook::castling::piece_not_there), help("{help}"))]
    CastlingPieceMissing {
        /// The piece.
        piece: String,
        /// The side.
        side: String,
        /// The square, for that side.
        square: String,
        /// What is there instead.
        help: String,
        /// The square as written.
        #[label("the setup has no `{piece}` here")]
        at: SourceSpan,
    },

    // ---- rules ----
    /// Neither `checkmate` nor `extinction`.
    #[error("no way to win")]
    #[diagnostic(
        code(rulebook::rules::no_way_to_win),
        help("add `checkmate` (royal pieces may not be left attacked), `extinction` (a side with no royal piece left loses), a `when` rule (`when 0 King loses`) or `stalemate loses` (a side that cannot move loses) to the `rules` block")
    )]
    NoWayToWin {
        /// The rules block, if any.
        #[label("neither `checkmate`, `extinction`, `when` nor a decisive `stalemate` here")]
        at: Option<SourceSpan>,
    },

    /// A rule about royal pieces without any.
    #[error("`{rule}` needs a royal piece")]
    #[diagnostic(
        code(rulebook::rules::no_royal),
        help("mark the king-like piece `royal`, for example `piece King K royal`")
    )]
    NoRoyal {
        /// The rule.
        rule: &'static str,
        /// The rule.
        #[label("no piece is `royal`")]
        at: SourceSpan,
    },

    /// A piece the setup places outside the zone its moves must end in.
    #[error("`{name}` starts on {squares}, outside `{zone}`, where its moves must end")]
    #[diagnostic(
        code(rulebook::setup::outside_stay_in),
        severity(Warning),
        help("a piece that must `stay in {zone}` can move only where a move happens to end inside it, often nowhere; place it inside `{zone}`, or check the zone")
    )]
    PlacedOutsideConfinement {
        /// The piece.
        name: String,
        /// The zone.
        zone: String,
        /// Where the setup places it outside.
        squares: String,
        /// The clause.
        #[label("`{name}` must stay in `{zone}`")]
        at: SourceSpan,
    },

    /// The same rule given twice with different settings.
    #[error("`{rule}` is given twice with different settings")]
    #[diagnostic(
        code(rulebook::rules::conflict),
        help("keep the one that is meant and remove the other")
    )]
    ConflictingRules {
        /// The rule keyword.
        rule: &'static str,
        /// The second one.
        #[label(primary, "contradicts the earlier one")]
        again: SourceSpan,
        /// The first one.
        #[label("given here first")]
        first: SourceSpan,
    },

    /// `eliminated pieces ...` in a game of two sides, where the first side out ends it.
    #[error("`eliminated` has no effect with two sides")]
    #[diagnostic(
        code(rulebook::rules::eliminated_two_sides),
        severity(Warning),
        help(
            "with two sides the game ends when one is out of the running; the rule is for games of three or four sides, where the others play on"
        )
    )]
    EliminatedTwoSides {
        /// The rule.
        #[label("nobody plays on after a side is out")]
        at: SourceSpan,
    },

    /// The same rule given twice alike.
    #[error("`{rule}` is given twice")]
    #[diagnostic(
        code(rulebook::rules::repeated),
        severity(Warning),
        help("remove one of them")
    )]
    RepeatedRule {
        /// The rule keyword.
        rule: &'static str,
        /// The second one.
        #[label(primary, "given again here")]
        again: SourceSpan,
        /// The first one.
        #[label("first given here")]
        first: SourceSpan,
    },

    /// An option guard on a rule that cannot depend on options yet.
    #[error("`{rule}` cannot depend on an option yet")]
    #[diagnostic(
        code(rulebook::rules::unsupported_guard),
        help("only `drops` and `facing` rules and castlings may be guarded by `if`/`unless` in this version")
    )]
    UnsupportedGuard {
        /// The rule keyword.
        rule: &'static str,
        /// The guard.
        #[label("not supported on `{rule}`")]
        at: SourceSpan,
    },

    /// `repetition N` with N out of range.
    #[error("repetition count `{text}` is out of range")]
    #[diagnostic(
        code(rulebook::rules::bad_repetition),
        help("write the occurrence that ends the game, from 2 to 10 (3 for threefold repetition)")
    )]
    BadRepetition {
        /// The number as written.
        text: String,
        /// The number.
        #[label("must be from 2 to 10")]
        at: SourceSpan,
    },

    /// A count in a `when` rule out of range.
    #[error("count `{text}` is out of range")]
    #[diagnostic(
        code(rulebook::rules::bad_count),
        help(
            "a `when` rule counts pieces: write a number from 0 to the number of squares ({limit})"
        )
    )]
    BadCount {
        /// The number as written.
        text: String,
        /// The board's number of squares.
        limit: u32,
        /// The number.
        #[label("not a count of pieces on this board")]
        at: SourceSpan,
    },

    /// `move-limit N` with N out of range.
    #[error("move limit `{text}` is out of range")]
    #[diagnostic(
        code(rulebook::rules::bad_move_limit),
        help("write a number of plies from 1 to 1000000 (100 for chess's fifty-move rule)")
    )]
    BadMoveLimit {
        /// The number as written.
        text: String,
        /// The number.
        #[label("must be from 1 to 1000000")]
        at: SourceSpan,
    },

    /// `connect N` with N out of range.
    #[error("`connect {text}` is out of range")]
    #[diagnostic(
        code(rulebook::rules::connect_count),
        help("a row counts at least 2 pieces and at most as many as the board is long ({most})")
    )]
    BadConnect {
        /// The number as written.
        text: String,
        /// The longest row the board holds.
        most: u32,
        /// The number.
        #[label("must be from 2 to {most}")]
        at: SourceSpan,
    },

    // ---- setup ----
    /// A setup has the wrong number of rows.
    #[error("setup has {rows} rows but the board has {height} ranks")]
    #[diagnostic(
        code(rulebook::setup::row_count),
        help("write one row per rank, top rank first; use `.` or a number for empty squares")
    )]
    SetupRowCount {
        /// Rows written.
        rows: usize,
        /// Ranks on the board.
        height: u8,
        /// The setup.
        #[label("{rows} rows")]
        at: SourceSpan,
    },

    /// A setup row has the wrong number of squares.
    #[error("setup row has {squares} squares but the board has {width} files")]
    #[diagnostic(
        code(rulebook::setup::row_width),
        help("each row needs one cell per file; a number stands for that many empty squares")
    )]
    SetupRowWidth {
        /// Squares written, in words.
        squares: String,
        /// Files on the board.
        width: u8,
        /// The row.
        #[label("{squares} squares")]
        at: SourceSpan,
    },

    /// A setup cell of a game with more than two sides that does not start with a side's
    /// initial, or an initial with no piece after it.
    #[error("`{cell}` does not say whose piece it is")]
    #[diagnostic(
        code(rulebook::setup::side_initial),
        help("with more than two sides a piece is written with its side's initial, then its letter in uppercase ({tags}), as in `{example}`")
    )]
    SetupSideInitial {
        /// The cell as written.
        cell: String,
        /// The sides' initials.
        tags: String,
        /// A piece written right.
        example: String,
        /// The cell.
        #[label("a side's initial and a piece letter expected")]
        at: SourceSpan,
    },

    /// A setup letter no piece has.
    #[error("no piece has letter `{letter}`")]
    #[diagnostic(code(rulebook::setup::unknown_letter))]
    SetupUnknownLetter {
        /// The letter as written.
        letter: String,
        /// The cell.
        #[label("unknown piece letter")]
        at: SourceSpan,
        /// The letters there are.
        #[help]
        help: String,
    },

    /// A setup cell that is neither a piece nor empty.
    #[error("`{ch}` is not a setup cell")]
    #[diagnostic(
        code(rulebook::setup::bad_cell),
        help("a cell is a piece letter (uppercase for the first side, lowercase for the second, `+` for promoted), `.`, `-`, `=`, `_`, a number of empty squares, or `*` for a hole")
    )]
    SetupBadCell {
        /// The character.
        ch: char,
        /// The cell.
        #[label("not a piece or an empty square")]
        at: SourceSpan,
    },

    /// A piece on a hole, or `*` on a square of the board.
    #[error("{why}")]
    #[diagnostic(
        code(rulebook::setup::hole),
        help("`*` marks a square of the `holes` declaration, where no piece may stand; draw the board's other squares with pieces or `.`")
    )]
    SetupHole {
        /// What is wrong.
        why: String,
        /// The cell.
        #[label("here")]
        at: SourceSpan,
    },

    /// More pieces in hand at the start than a position holds.
    #[error("{count} pieces in hand, more than {limit}")]
    #[diagnostic(
        code(rulebook::setup::hand_too_large),
        help("a position holds at most {limit} pieces in hand")
    )]
    SetupHandTooLarge {
        /// How many.
        count: usize,
        /// The limit.
        limit: usize,
        /// The hand.
        #[label("too many pieces")]
        at: SourceSpan,
    },

    /// A side starts without a royal piece in a game about royals.
    #[error("side `{side}` has no royal piece at the start")]
    #[diagnostic(
        code(rulebook::setup::no_royal),
        severity(Warning),
        help("`checkmate` and `extinction` are about royal pieces; place one for each side")
    )]
    SetupNoRoyal {
        /// The side.
        side: String,
        /// The setup.
        #[label("no royal piece of `{side}`")]
        at: SourceSpan,
    },
}

impl DefinitionError {
    /// The edit that fixes the problem, where one is certain: the text to put at a span.
    pub fn fix(&self) -> Option<(SourceSpan, &str)> {
        match self {
            DefinitionError::OldForm { new, at, .. } => Some((*at, new)),
            _ => None,
        }
    }

    /// Whether this is only a warning.
    pub fn is_warning(&self) -> bool {
        self.severity() == Some(Severity::Warning)
    }

    /// The byte offset of the primary label, for ordering problems by position.
    pub fn offset(&self) -> usize {
        let labels: Vec<LabeledSpan> = self.labels().map(|l| l.collect()).unwrap_or_default();
        labels
            .iter()
            .find(|l| l.primary())
            .or_else(|| labels.first())
            .map_or(usize::MAX, |l| l.offset())
    }
}

/// The files a definition was read from: itself, then the bases its `from` clauses name.
///
/// All share one space of byte offsets, each file starting one byte past the end of the one
/// before, so that a span says by itself which file it is in.
#[derive(Clone, Debug)]
pub struct Sources {
    files: Vec<SourceFile>,
}

#[derive(Clone, Debug)]
struct SourceFile {
    name: String,
    text: Arc<str>,
    offset: usize,
}

impl Sources {
    /// A definition on its own.
    pub fn new(name: &str, text: &str) -> Sources {
        Sources {
            files: vec![SourceFile {
                name: name.to_string(),
                text: Arc::from(text),
                offset: 0,
            }],
        }
    }

    /// Adds a base; returns where its offsets start.
    pub(crate) fn push(&mut self, name: &str, text: &str) -> usize {
        let offset = self.files.last().map_or(0, |f| f.offset + f.text.len() + 1);
        self.files.push(SourceFile {
            name: name.to_string(),
            text: Arc::from(text),
            offset,
        });
        offset
    }

    /// The file that holds `offset`: its name, its text and the offset within it.
    pub fn locate(&self, offset: usize) -> (&str, &str, usize) {
        let file = self
            .files
            .iter()
            .rev()
            .find(|f| f.offset <= offset)
            .unwrap_or(&self.files[0]);
        (&file.name, &file.text, offset - file.offset)
    }

    /// The name of the definition itself.
    pub fn name(&self) -> &str {
        &self.files[0].name
    }

    /// Whether `offset` is in a base rather than in the definition itself.
    pub fn in_base(&self, offset: usize) -> bool {
        self.files.len() > 1 && offset > self.files[0].text.len()
    }
}

impl SourceCode for Sources {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let (name, text, local) = self.locate(span.offset());
        let base = span.offset() - local;
        let inner = text.read_span(
            &SourceSpan::new(local.into(), span.len()),
            context_lines_before,
            context_lines_after,
        )?;
        // The contents keep the shared offsets: labels are placed by them.
        let shown = SourceSpan::new((inner.span().offset() + base).into(), inner.span().len());
        Ok(Box::new(MietteSpanContents::new_named(
            name.to_string(),
            inner.data(),
            shown,
            inner.line(),
            inner.column(),
            inner.line_count(),
        )))
    }
}

/// Every problem of one definition, reported together against its text.
///
/// Renders as a header followed by each problem with its source snippet.
#[derive(Debug)]
pub struct Diagnostics {
    source: Sources,
    problems: Vec<DefinitionError>,
    /// Errors found, listed or not.
    error_count: usize,
    /// Warnings found, listed or not.
    warning_count: usize,
}

impl Diagnostics {
    /// The report as miette's JSON, every span with its `line` and `column` (from 1, columns
    /// in characters) next to its byte `offset`: what `check --format json` prints and what an
    /// editor underlines. A span in a base also says its `file`, and its offset is into that
    /// file.
    ///
    /// # Errors
    /// If the report cannot be rendered.
    pub fn to_json(&self) -> Result<serde_json::Value, std::fmt::Error> {
        let mut rendered = String::new();
        miette::JSONReportHandler::new().render_report(&mut rendered, self)?;
        // miette escapes only some control characters; the rest (a NUL in the file, say) would
        // make the JSON invalid, and outside strings it writes none.
        let escaped: String = rendered
            .chars()
            .map(|c| match c {
                '\u{0}'..='\u{1f}' => format!("\\u{:04x}", u32::from(c)),
                c => c.to_string(),
            })
            .collect();
        let mut value = serde_json::from_str(&escaped).map_err(|_| std::fmt::Error)?;
        with_lines_and_columns(&mut value, &self.source);
        Ok(value)
    }
}

/// Adds `line` and `column` to every span of a JSON report, next to miette's byte `offset`.
fn with_lines_and_columns(value: &mut serde_json::Value, sources: &Sources) {
    match value {
        serde_json::Value::Object(map) => {
            if let Some(offset) = map.get("offset").and_then(serde_json::Value::as_u64) {
                let offset = usize::try_from(offset).unwrap_or(usize::MAX);
                let (name, text, local) = sources.locate(offset);
                let local = local.min(text.len());
                let before = &text[..text.floor_char_boundary(local)];
                let line = before.matches('\n').count() + 1;
                let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
                map.insert("line".into(), line.into());
                map.insert("column".into(), column.into());
                if sources.in_base(offset) {
                    map.insert("offset".into(), local.into());
                    map.insert("file".into(), name.into());
                }
            }
            for v in map.values_mut() {
                with_lines_and_columns(v, sources);
            }
        }
        serde_json::Value::Array(items) => {
            for v in items {
                with_lines_and_columns(v, sources);
            }
        }
        _ => {}
    }
}

impl Diagnostics {
    /// The most problems listed; a garbled file could otherwise produce thousands.
    pub const MAX_LISTED: usize = 100;

    /// Bundles `problems` found in `text` (named `name`), ordered by position; beyond
    /// [`Self::MAX_LISTED`] they are summarised by one [`DefinitionError::TooManyProblems`].
    pub fn new(name: &str, text: &str, problems: Vec<DefinitionError>) -> Diagnostics {
        Diagnostics::in_sources(Sources::new(name, text), problems)
    }

    /// Bundles `problems` found in a definition and its bases.
    pub fn in_sources(source: Sources, mut problems: Vec<DefinitionError>) -> Diagnostics {
        let warning_count = problems.iter().filter(|p| p.is_warning()).count();
        let error_count = problems.len() - warning_count;
        problems.sort_by_key(|p| p.offset());
        if problems.len() > Self::MAX_LISTED {
            let omitted = problems.len() - Self::MAX_LISTED;
            problems.truncate(Self::MAX_LISTED);
            problems.push(DefinitionError::TooManyProblems { omitted });
        }
        Diagnostics {
            source,
            problems,
            error_count,
            warning_count,
        }
    }

    /// Every problem, errors and warnings, in source order.
    pub fn problems(&self) -> &[DefinitionError] {
        &self.problems
    }

    /// The errors.
    pub fn errors(&self) -> impl Iterator<Item = &DefinitionError> {
        self.problems.iter().filter(|p| !p.is_warning())
    }

    /// The warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &DefinitionError> {
        self.problems.iter().filter(|p| p.is_warning())
    }

    /// Whether any problem is an error.
    pub fn has_errors(&self) -> bool {
        self.error_count > 0
    }

    /// The name of the definition.
    pub fn name(&self) -> &str {
        self.source.name()
    }

    /// The definition's text and its bases', whose offsets the problems' spans are.
    pub fn sources(&self) -> &Sources {
        &self.source
    }

    /// Keeps only the errors.
    pub(crate) fn without_warnings(mut self) -> Diagnostics {
        self.problems.retain(|p| !p.is_warning());
        self.warning_count = 0;
        self
    }
}

fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let errors = self.error_count;
        let warnings = self.warning_count;
        let name = self.source.name();
        match (errors, warnings) {
            (0, w) => write!(f, "`{name}` has {}", count(w, "warning")),
            (e, 0) => write!(
                f,
                "`{name}` is not a valid definition: {}",
                count(e, "error")
            ),
            (e, w) => write!(
                f,
                "`{name}` is not a valid definition: {} and {}",
                count(e, "error"),
                count(w, "warning")
            ),
        }
    }
}

impl std::error::Error for Diagnostics {}

impl Diagnostic for Diagnostics {
    fn severity(&self) -> Option<Severity> {
        Some(if self.has_errors() {
            Severity::Error
        } else {
            Severity::Warning
        })
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        Some(Box::new(self.problems.iter().map(|p| p as &dyn Diagnostic)))
    }
}
