//! The typed syntax tree of a definition: its shape only, nothing resolved or range-checked.
//!
//! Numbers and square names are kept as written (with their spans) so that the checker can
//! report values that do not fit instead of the parser failing on them.

pub use super::span::{Span, Spanned};

/// A name as written.
pub type Ident = Spanned<String>;

/// A whole definition: its declarations in source order.
#[derive(Clone, Debug, PartialEq)]
pub struct File {
    /// The declarations.
    pub items: Vec<Item>,
    /// The first edition's forms found in it, each with its second-edition text.
    pub old_forms: Vec<OldForm>,
    /// Guards other than options written where only options guard.
    pub misplaced_guards: Vec<MisplacedGuard>,
    /// The whole text.
    pub span: Span,
}

/// A form of the language's first edition, still read.
#[derive(Clone, Debug, PartialEq)]
pub struct OldForm {
    /// The text to replace.
    pub span: Span,
    /// That text.
    pub old: String,
    /// What the second edition writes instead.
    pub new: String,
    /// What changed, in a sentence.
    pub what: &'static str,
}

/// A zone, state or check guard before a clause, castling, rule, teams or setup: those are
/// the game's, not a move's, so only options can guard them.
#[derive(Clone, Debug, PartialEq)]
pub struct MisplacedGuard {
    /// The guard.
    pub span: Span,
    /// What it stands before, as the message names it.
    pub guarded: &'static str,
}

/// A top-level declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// `variant "Name"`.
    Variant(VariantDecl),
    /// `board W x H`.
    Board(BoardDecl),
    /// `sides ...`.
    Sides(SidesDecl),
    /// `option ...`.
    Option(OptionDecl),
    /// `zone ...`.
    Zone(ZoneDecl),
    /// `partition ...`.
    Partition(PartitionDecl),
    /// `line NAME = EXPR | EXPR` (the two sides of the line, as a partition's parts).
    Line(PartitionDecl),
    /// `holes EXPR`.
    Holes(HolesDecl),
    /// `piece ...`.
    Piece(PieceDecl),
    /// `castling ...`.
    Castling(CastlingDecl),
    /// `rules ...`.
    Rules(RulesDecl),
    /// `setup ...`.
    Setup(SetupDecl),
    /// `drawing ...`.
    Drawing(DrawingDecl),
    /// `teams ...`.
    Teams(TeamsDecl),
    /// `without ...`.
    Without(WithoutDecl),
}

impl Item {
    /// Where the whole declaration was written.
    pub fn span(&self) -> Span {
        match self {
            Item::Variant(d) => d.span,
            Item::Board(d) => d.span,
            Item::Sides(d) => d.span,
            Item::Option(d) => d.span,
            Item::Zone(d) => d.span,
            Item::Partition(d) | Item::Line(d) => d.span,
            Item::Holes(d) => d.span,
            Item::Piece(d) => d.span,
            Item::Castling(d) => d.span,
            Item::Rules(d) => d.span,
            Item::Setup(d) => d.span,
            Item::Drawing(d) => d.span,
            Item::Teams(d) => d.span,
            Item::Without(d) => d.span,
        }
    }
}

/// A number as written (digits, perhaps a sign or a decimal point).
pub type Number = Spanned<String>;

/// `variant "Name" [known as "NAME" in PROTOCOL]...`.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantDecl {
    /// The keyword.
    pub keyword: Span,
    /// The name, without quotes.
    pub name: Spanned<String>,
    /// `from "FILE"`: the definition this one is built on, as written.
    pub base: Option<Spanned<String>>,
    /// The names protocols know the game by, in order.
    pub known_as: Vec<KnownAs>,
    /// The whole declaration.
    pub span: Span,
}

/// `without PART, ...`: what a definition leaves out of its base.
#[derive(Clone, Debug, PartialEq)]
pub struct WithoutDecl {
    /// The keyword.
    pub keyword: Span,
    /// What is left out, in order.
    pub parts: Vec<Spanned<WithoutPart>>,
    /// The whole declaration.
    pub span: Span,
}

/// One thing a `without` declaration leaves out.
#[derive(Clone, Debug, PartialEq)]
pub enum WithoutPart {
    /// `piece NAME...`.
    Pieces(Vec<Ident>),
    /// `zone NAME...`.
    Zones(Vec<Ident>),
    /// `option NAME...`.
    Options(Vec<Ident>),
    /// `line NAME...`.
    Lines(Vec<Ident>),
    /// `partition NAME...`.
    Partitions(Vec<Ident>),
    /// `castling`: every castling.
    Castling,
    /// `holes`.
    Holes,
    /// `rule NAME`: every rule with these leading words.
    Rule(Ident),
}

/// An engine protocol a definition can name itself for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// XBoard's CECP.
    XBoard,
    /// UCI.
    Uci,
}

/// `known as "NAME" in PROTOCOL`.
#[derive(Clone, Debug, PartialEq)]
pub struct KnownAs {
    /// The name, without quotes.
    pub name: Spanned<String>,
    /// The protocol.
    pub protocol: Spanned<Protocol>,
    /// The whole clause.
    pub span: Span,
}

/// `board W x H`.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardDecl {
    /// The keyword.
    pub keyword: Span,
    /// Number of files.
    pub width: Number,
    /// Number of ranks.
    pub height: Number,
    /// The whole declaration.
    pub span: Span,
}

/// How pictures draw the board's squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardStyle {
    /// Squares in two shades, as chess boards are.
    Checkered,
    /// Squares of one shade, ruled apart, as shogi boards are.
    Grid,
    /// Points where lines cross, as xiangqi boards are.
    Points,
}

/// `drawing STYLE [, river after rank N] [, diagonals in ZONE]...`.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawingDecl {
    /// The keyword.
    pub keyword: Span,
    /// The style.
    pub style: Spanned<BoardStyle>,
    /// `river after rank N`: the rank the river follows.
    pub rivers: Vec<Number>,
    /// `diagonals in ZONE`.
    pub diagonals: Vec<Ident>,
    /// The whole declaration.
    pub span: Span,
}

/// A compass direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compass {
    /// `north`.
    North,
    /// `south`.
    South,
    /// `east`.
    East,
    /// `west`.
    West,
}

/// One side in `sides`.
#[derive(Clone, Debug, PartialEq)]
pub struct SideDecl {
    /// Its name.
    pub name: Ident,
    /// Where its forward points.
    pub facing: Spanned<Compass>,
    /// The whole side.
    pub span: Span,
}

/// `sides NAME DIR, NAME DIR`.
#[derive(Clone, Debug, PartialEq)]
pub struct SidesDecl {
    /// The keyword.
    pub keyword: Span,
    /// The sides in turn order.
    pub sides: Vec<SideDecl>,
    /// The whole declaration.
    pub span: Span,
}

/// `teams NAME NAME, NAME NAME`.
#[derive(Clone, Debug, PartialEq)]
pub struct TeamsDecl {
    /// `if OPTION:` prefixes: the partnerships hold only under these settings.
    pub guards: Vec<OptionGuard>,
    /// The keyword.
    pub keyword: Span,
    /// Each team's sides.
    pub teams: Vec<Vec<Ident>>,
    /// The whole declaration.
    pub span: Span,
}

/// `option NAME on|off "description"`.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionDecl {
    /// Its name.
    pub name: Ident,
    /// On unless the user says otherwise.
    pub default: Spanned<bool>,
    /// What it does.
    pub description: Option<Spanned<String>>,
    /// The whole declaration.
    pub span: Span,
}

/// How a zone's second-side copy is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// Reflected across the middle rank.
    Mirrored,
    /// Turned half way round.
    Rotated,
}

/// `zone NAME = EXPR [, mirrored | , rotated]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneDecl {
    /// Its name.
    pub name: Ident,
    /// Its squares.
    pub expr: ZoneExpr,
    /// How the second side's copy is made, if it is a copy.
    pub symmetry: Option<Spanned<Symmetry>>,
    /// `, for SIDE EXPR`: sides whose set is written apart, each with its expression.
    pub side_sets: Vec<(Ident, ZoneExpr)>,
    /// The text of `drawn "..."`, if given.
    pub drawn: Option<Spanned<String>>,
    /// The whole declaration.
    pub span: Span,
}

/// `partition NAME = EXPR | EXPR | ...`.
#[derive(Clone, Debug, PartialEq)]
pub struct PartitionDecl {
    /// Its name.
    pub name: Ident,
    /// Its parts, each a set of squares.
    pub parts: Vec<ZoneExpr>,
    /// The whole declaration.
    pub span: Span,
}

/// `holes EXPR`: squares that are not on the board.
#[derive(Clone, Debug, PartialEq)]
pub struct HolesDecl {
    /// The keyword.
    pub keyword: Span,
    /// The squares.
    pub expr: ZoneExpr,
    /// The whole declaration.
    pub span: Span,
}

/// A set operator between unions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZoneOp {
    /// `and`: squares in both.
    And,
    /// `except`: squares of the left not in the right.
    Except,
}

/// A zone expression: unions combined left to right.
///
/// Kept flat rather than as nested binary nodes so that long chains cannot deepen the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneExpr {
    /// The first union.
    pub first: ZoneUnion,
    /// The following operators and unions, applied left to right.
    pub rest: Vec<(Spanned<ZoneOp>, ZoneUnion)>,
    /// The whole expression.
    pub span: Span,
}

/// Terms written next to each other.
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneUnion {
    /// The terms.
    pub factors: Vec<ZoneFactor>,
    /// The whole union.
    pub span: Span,
}

/// A term, perhaps complemented.
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneFactor {
    /// An odd number of `not` before the term.
    pub negated: bool,
    /// The term.
    pub term: ZoneTerm,
    /// The whole factor, `not`s included.
    pub span: Span,
}

/// One set of squares.
#[derive(Clone, Debug, PartialEq)]
pub enum ZoneTerm {
    /// `( EXPR )`.
    Group(Box<ZoneExpr>),
    /// A square name.
    Square(Spanned<String>),
    /// `d1-f3`.
    Range {
        /// One corner.
        from: Spanned<String>,
        /// The opposite corner.
        to: Spanned<String>,
    },
    /// `rank N`.
    Rank(Number),
    /// `ranks N-M`.
    Ranks(Number, Number),
    /// `file x`.
    File(Spanned<char>),
    /// `files x-y`.
    Files(Spanned<char>, Spanned<char>),
    /// `all`.
    All(Span),
    /// `none`.
    None(Span),
    /// Another zone.
    Name(Ident),
    /// A picture.
    Mask(Mask),
}

/// A `mask` picture.
#[derive(Clone, Debug, PartialEq)]
pub struct Mask {
    /// The keyword.
    pub keyword: Span,
    /// The rows, top rank first.
    pub rows: Vec<PictureRow<char>>,
    /// The keyword and the picture.
    pub span: Span,
}

/// A row of a picture.
#[derive(Clone, Debug, PartialEq)]
pub struct PictureRow<C> {
    /// The cells, left to right.
    pub cells: Vec<Spanned<C>>,
    /// The row without its indentation.
    pub span: Span,
}

/// `piece NAME LETTER [royal] [value N]` and its clauses.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceDecl {
    /// Its name.
    pub name: Ident,
    /// Its letter as written, `+` included.
    pub letter: Spanned<String>,
    /// Where `royal` was written, if it was.
    pub royal: Option<Span>,
    /// Its value as written.
    pub value: Option<Number>,
    /// Its clauses in order.
    pub clauses: Vec<PieceClause>,
    /// The whole declaration.
    pub span: Span,
}

/// A reference to a piece by name or by letter.
pub type PieceRef = Spanned<String>;

/// A clause of a piece declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum PieceClause {
    /// `move PATTERN | ...`.
    Move(MoveClause),
    /// `stay in` / `never enter`.
    Confine(ConfineClause),
    /// `stay within PARTITION`.
    Within {
        /// The partition.
        partition: Ident,
        /// Trailing option guards.
        guards: Vec<OptionGuard>,
        /// The whole clause.
        span: Span,
    },
    /// `promote to ...`.
    Promote(PromoteClause),
    /// `demote to PIECE`.
    Demote {
        /// The piece it becomes.
        target: PieceRef,
        /// The whole clause.
        span: Span,
    },
    /// `drop ...`.
    Drop(DropClause),
    /// `resets clock`.
    ResetsClock(Span),
    /// `unmoved noted in fen`.
    UnmovedInFen(Span),
    /// `only from fen`.
    OnlyFromFen(Span),
    /// `unmoved lost when aimed by PIECE...`.
    UnmovedLostWhenAimed(Vec<PieceRef>, Span),
    /// `immune to [nearby] explosions`: whether only to nearby ones.
    Immune(bool, Span),
    /// `borrow`.
    Borrow(Span),
    /// `enter ZONE only when holding PIECE... [if|unless OPTION]`.
    Enter {
        /// The zone.
        zone: Ident,
        /// What it must hold.
        holding: Vec<HoldingRef>,
        /// Trailing option guards.
        guards: Vec<OptionGuard>,
        /// The whole clause.
        span: Span,
    },
    /// `teleport next to PIECE... [, not attacking] [if|unless OPTION]`, or `teleport [from
    /// ZONE] to ZONE [if|unless OPTION]`.
    Teleport {
        /// The pieces it lands next to (none for a teleport to a zone).
        anchors: Vec<PieceRef>,
        /// `from ZONE`.
        from: Option<Ident>,
        /// `to ZONE`.
        to: Option<Ident>,
        /// `, not attacking`, with its span.
        not_attacking: Option<Span>,
        /// Trailing option guards.
        guards: Vec<OptionGuard>,
        /// The whole clause.
        span: Span,
    },
}

/// `move PATTERN | PATTERN ...`.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveClause {
    /// The patterns.
    pub patterns: Vec<Pattern>,
    /// The whole clause.
    pub span: Span,
}

/// One pattern.
#[derive(Clone, Debug, PartialEq)]
pub struct Pattern {
    /// Conditions written before `:`.
    pub guards: Vec<Guard>,
    /// The path, or `like PIECE`.
    pub body: PatternBody,
    /// Modifiers written after the path.
    pub modifiers: Vec<Spanned<Modifier>>,
    /// The whole pattern.
    pub span: Span,
}

/// A condition of a pattern.
#[derive(Clone, Debug, PartialEq)]
pub enum Guard {
    /// `in ZONE` (`inside`) or `outside ZONE`.
    Zone {
        /// `in` rather than `outside`.
        inside: bool,
        /// The zone.
        zone: Ident,
        /// The whole guard.
        span: Span,
    },
    /// `if OPTION` or `unless OPTION`.
    Option(OptionGuard),
    /// `unmoved` (`unmoved` true) or `moved`: whether the piece has moved since the start.
    State {
        /// `unmoved` rather than `moved`.
        unmoved: bool,
        /// The word.
        span: Span,
    },
    /// `in check` / `not in check`.
    Check {
        /// `in check` rather than `not in check`.
        in_check: bool,
        /// The words.
        span: Span,
    },
}

/// `if OPTION` (`when_on`) or `unless OPTION`.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionGuard {
    /// `if` rather than `unless`.
    pub when_on: bool,
    /// The option.
    pub option: Ident,
    /// The whole guard.
    pub span: Span,
}

/// What a pattern does.
#[derive(Clone, Debug, PartialEq)]
pub enum PatternBody {
    /// Legs joined by `then`.
    Path(Vec<Leg>),
    /// `like PIECE`.
    Like(PieceRef),
    /// `betza "..."`.
    Betza(Betza),
}

/// `betza "..."`: moves in Betza's notation, read into atoms.
#[derive(Clone, Debug, PartialEq)]
pub struct Betza {
    /// The text between the quotes.
    pub text: Spanned<String>,
    /// Its atoms in order, or the first thing in it that could not be read (reported by the
    /// checker, with every other problem of the file).
    pub atoms: Result<Vec<BetzaAtom>, BetzaError>,
}

/// One Betza atom with the letters written before and after it (`fmW`, `cpR`, `nN`, `R4`).
#[derive(Clone, Debug, PartialEq)]
pub struct BetzaAtom {
    /// `m` (move only, `true`) or `c` (capture only), if written.
    pub move_only: Option<Spanned<bool>>,
    /// `p`: hop over a screen.
    pub hop: Option<Span>,
    /// `g`: hop over a screen and land right after it (a grasshopper).
    pub just_beyond: bool,
    /// `n`: lame, blocked on the way.
    pub lame: Option<Span>,
    /// The direction letters (`f b l r s v`), in the order written.
    pub dirs: String,
    /// The atom letter (`W`, `N`, `R`, ...).
    pub letter: Spanned<char>,
    /// Written twice (`NN`): its rider.
    pub doubled: bool,
    /// The digits of a range after it (`R4`), as written.
    pub range: Option<Spanned<String>>,
    /// The atom with its prefixes and suffixes.
    pub span: Span,
}

/// A Betza text that could not be read: why, and where in the definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    /// What is wrong.
    pub why: String,
    /// The offending character.
    pub at: Span,
}

/// How a leg travels, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegWord {
    /// `step`.
    Step,
    /// `leap`.
    Leap,
    /// `slide`.
    Slide,
    /// `hop`.
    Hop,
}

/// One leg.
#[derive(Clone, Debug, PartialEq)]
pub struct Leg {
    /// `bent`: directions follow the zone of each square passed.
    pub bent: Option<Span>,
    /// How it travels.
    pub word: Spanned<LegWord>,
    /// Its directions: one arm, or one per zone (`outward in castle, same in road`).
    pub arms: Vec<Arm>,
    /// `up to N`, with the span of the whole phrase.
    pub up_to: Option<(Number, Span)>,
    /// `just beyond`: the hop lands right after its screen.
    pub just_beyond: Option<Span>,
    /// The whole leg.
    pub span: Span,
}

/// Directions of a leg, for the squares of a zone if one is named.
#[derive(Clone, Debug, PartialEq)]
pub struct Arm {
    /// `inward` before the directions.
    pub inward: Option<Span>,
    /// The directions (none after a lone `inward`).
    pub dirs: Vec<Dir>,
    /// `in ZONE`.
    pub zone: Option<Ident>,
    /// The directions and the zone.
    pub span: Span,
}

/// A direction word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedDir {
    /// `orthogonal`.
    Orthogonal,
    /// `diagonal`.
    Diagonal,
    /// `any`.
    Any,
    /// `forward`.
    Forward,
    /// `backward`.
    Backward,
    /// `left`.
    Left,
    /// `right`.
    Right,
    /// `sideways`.
    Sideways,
    /// `forward-diagonal`.
    ForwardDiagonal,
    /// `backward-diagonal`.
    BackwardDiagonal,
    /// `same`.
    Same,
    /// `outward`.
    Outward,
    /// `reverse`.
    Reverse,
}

/// One direction of a leg.
#[derive(Clone, Debug, PartialEq)]
pub enum Dir {
    /// A direction word.
    Named(Spanned<NamedDir>),
    /// `(a,b)`.
    Symmetric {
        /// First coordinate as written.
        a: Number,
        /// Second coordinate as written.
        b: Number,
        /// The whole vector.
        span: Span,
    },
    /// `[x,y]`.
    Exact {
        /// Rightward coordinate as written.
        x: Number,
        /// Forward coordinate as written.
        y: Number,
        /// The whole vector.
        span: Span,
    },
}

impl Dir {
    /// Where it was written.
    pub fn span(&self) -> Span {
        match self {
            Dir::Named(n) => n.span,
            Dir::Symmetric { span, .. } | Dir::Exact { span, .. } => *span,
        }
    }
}

/// Whose piece a `holding` list names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// The moving side's (no word).
    Friendly,
    /// `enemy`: an opponent's.
    Enemy,
    /// `any`: either side's.
    Any,
}

/// A piece in a `holding` list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoldingRef {
    /// Whose.
    pub owner: Owner,
    /// Which.
    pub piece: PieceRef,
}

/// How often a `crossing` modifier lets a move cross its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CrossingLimit {
    /// `not crossing LINE`.
    Never,
    /// `crossing LINE`: at least once.
    AtLeastOnce,
    /// `crossing LINE up to N`: the number, with the phrase's span.
    UpTo(Number, Span),
}

/// A modifier after a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Modifier {
    /// `move-only`.
    MoveOnly,
    /// `capture-only`.
    CaptureOnly,
    /// `creates en-passant`.
    CreatesEnPassant,
    /// `takes en-passant [without promotion]`.
    TakesEnPassant {
        /// `without promotion`: the capture never promotes.
        unpromoted: bool,
    },
    /// `shot`: captures without moving.
    Shot,
    /// `capturing [enemy] royal` or `capturing [enemy] PIECE...`; `true` with `enemy`: only
    /// pieces of sides not on the mover's team.
    Capturing(Capturing, bool),
    /// `avoiding ZONE`.
    Avoiding(Ident),
    /// `capturing on the way [[except] PIECE...]`.
    OnTheWay {
        /// `except`: any piece but these.
        except: bool,
        /// The pieces (none: any).
        pieces: Vec<PieceRef>,
    },
    /// `not capturing protected PIECE... [from afar]`.
    NotProtected {
        /// The pieces.
        pieces: Vec<PieceRef>,
        /// `from afar`.
        afar: bool,
    },
    /// `over PIECE...` (`allowed`) or `not over PIECE...`: what a hop's screen may be.
    Screens {
        /// `over` rather than `not over`.
        allowed: bool,
        /// The pieces.
        pieces: Vec<PieceRef>,
    },
    /// `continuing after crossing LINE`.
    Continuing(Ident),
    /// `crossing LINE up to N`, `crossing LINE` or `not crossing LINE`.
    Crossing {
        /// The line.
        line: Ident,
        /// How often.
        limit: CrossingLimit,
    },
    /// `move-only along LINE [except ahead]`.
    Along {
        /// The line.
        line: Ident,
        /// `except ahead`.
        ahead: bool,
    },
    /// `into ZONE` (`inside`) or `not into ZONE`.
    Into {
        /// `into` rather than `not into`.
        inside: bool,
        /// The zone, or with `holding` the partition.
        zone: Ident,
        /// `holding PIECE...`: the part must hold one of these pieces.
        holding: Vec<HoldingRef>,
    },
}

/// What a pattern may capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Capturing {
    /// `capturing royal`: royal pieces.
    Royal,
    /// `capturing checker`: the one enemy piece giving check.
    Checker,
    /// `capturing PIECE...`.
    Pieces(Vec<PieceRef>),
    /// `not capturing PIECE...`: every piece but these.
    AllBut(Vec<PieceRef>),
}

/// `stay in ZONE` (`inside`) or `never enter ZONE`.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfineClause {
    /// `stay in` rather than `never enter`.
    pub inside: bool,
    /// The zone.
    pub zone: Ident,
    /// Trailing option guards.
    pub guards: Vec<OptionGuard>,
    /// The whole clause.
    pub span: Span,
}

/// `promote to PIECE... in [or from] ZONE [, forced]`.
#[derive(Clone, Debug, PartialEq)]
pub struct PromoteClause {
    /// What it may become.
    pub choices: Vec<PieceRef>,
    /// Where `or from` was written, if it was.
    pub or_from: Option<Span>,
    /// The zone.
    pub zone: Ident,
    /// Where `, forced` was written, if it was.
    pub forced: Option<Span>,
    /// Where `, when capturing` was written, if it was.
    pub when_capturing: Option<Span>,
    /// Where `, only to captured` was written, if it was.
    pub only_captured: Option<Span>,
    /// The number of `, at most N`, if it was written.
    pub at_most: Option<Spanned<String>>,
    /// Where `, never forced` was written, if it was.
    pub never_forced: Option<Span>,
    /// Where `, when entering` was written, if it was (with `or capturing`,
    /// `when_capturing` is set too).
    pub when_entering: Option<Span>,
    /// Where `, in place` was written, if it was.
    pub in_place: Option<Span>,
    /// Where `, not attacking` was written, if it was.
    pub not_attacking: Option<Span>,
    /// Where `, anywhere when last` was written, if it was.
    pub when_last: Option<Span>,
    /// Trailing option guards.
    pub guards: Vec<OptionGuard>,
    /// The whole clause.
    pub span: Span,
}

/// A `drop` restriction.
#[derive(Clone, Debug, PartialEq)]
pub enum DropKind {
    /// `drop in ZONE`.
    In(Ident),
    /// `drop outside ZONE`.
    Outside(Ident),
    /// `drop max N per file`.
    MaxPerFile(Number),
    /// `drop may not mate`.
    NoMate,
    /// `may not check`.
    NoCheck,
    /// `drop even where stuck`.
    EvenWhereStuck,
    /// `drop compulsory`.
    Compulsory,
    /// `drop also as PIECE...`.
    AlsoAs(Vec<PieceRef>),
    /// `drop only where it flips`.
    Flipping,
    /// `drop only next to own pieces`.
    NextToOwn,
    /// `drop first in ZONE`.
    FirstIn(Ident),
    /// `drop unlimited`.
    Unlimited,
    /// `drop on both colours`.
    BothColours,
    /// `drop counts as unmoved`.
    Unmoved,
    /// `drop on top`.
    OnTop,
    /// `drop not orthogonally next to enemy pieces`.
    Apart,
    /// `drop from any edge`.
    FromEdge,
}

/// `drop ...`.
#[derive(Clone, Debug, PartialEq)]
pub struct DropClause {
    /// The restriction.
    pub kind: DropKind,
    /// The whole clause.
    pub span: Span,
}

/// `castling KING SQ to SQ with PARTNER SQ to SQ`.
#[derive(Clone, Debug, PartialEq)]
pub struct CastlingDecl {
    /// `if OPTION:` prefixes.
    pub guards: Vec<OptionGuard>,
    /// The king-like piece.
    pub king: PieceRef,
    /// Where it starts; `None` when it may start anywhere on its rank (with the partner's).
    pub king_from: Option<Spanned<String>>,
    /// Where it ends.
    pub king_to: Spanned<String>,
    /// The partner.
    pub partner: PieceRef,
    /// Where the partner starts; `None` when it may start anywhere on its rank.
    pub partner_from: Option<Spanned<String>>,
    /// Where the partner ends.
    pub partner_to: Spanned<String>,
    /// How the second side's castling is made, if it has one.
    pub symmetry: Option<Spanned<Symmetry>>,
    /// `, for SIDE`: the side it belongs to (default: the first).
    pub side: Option<Spanned<String>>,
    /// `, wins`: castling so wins, losing the right to loses.
    pub wins: bool,
    /// The whole declaration.
    pub span: Span,
}

/// The result a rule gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// `wins`.
    Wins,
    /// `loses`.
    Loses,
    /// `draws`.
    Draws,
}

/// A line of the facing rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FacingLine {
    /// `files`.
    Files,
    /// `ranks`.
    Ranks,
    /// `diagonals`.
    Diagonals,
}

/// Which royals a checkmate rule guards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RoyalGuard {
    /// None of a side's royals may be left attacked.
    #[default]
    Every,
    /// `, last royal`: only a side's last royal is guarded.
    Last,
    /// `, all royals attacked`: a side is in check only while all its royals are attacked.
    All,
}

/// A rule.
#[derive(Clone, Debug, PartialEq)]
pub enum Rule {
    /// `checkmate [VERDICT] [, last royal | , all royals attacked]`: the verdict for the
    /// checkmated side, and which of a side's royals are guarded.
    Checkmate(Option<Spanned<Verdict>>, RoyalGuard),
    /// `must capture`.
    MustCapture,
    /// `must drop`.
    MustDrop,
    /// `captures explode`.
    Explosions,
    /// `moves leave walls`.
    LeaveWalls,
    /// `passing allowed [when stuck]` (`true`: when stuck).
    Passing(bool),
    /// `moves flip enclosed enemies` (`false`) or `moves flip adjacent enemies` (`true`).
    Flip(bool, bool),
    /// `full board draws`.
    FullBoard,
    /// `counter-strike PIECE...`.
    CounterStrike(Vec<PieceRef>),
    /// `connect N [PIECE...] [along LINES] VERDICT`.
    Connect {
        /// How many in a row, as written.
        count: Spanned<String>,
        /// `by M`: a block M ranks high, as written.
        block: Option<Spanned<String>>,
        /// `, with gaps`: on one line, not necessarily next to each other.
        gaps: bool,
        /// The kinds that count (none: every kind).
        pieces: Vec<PieceRef>,
        /// The lines (none: files, ranks and diagonals).
        lines: Vec<Spanned<FacingLine>>,
        /// The verdict for the side that has them.
        verdict: Spanned<Verdict>,
    },
    /// `gating in ZONE`.
    Gating(Ident),
    /// `captures petrify PIECE...`.
    Petrify(Vec<PieceRef>),
    /// `each move places a wall [in ZONE] [within reach]`, or `moves the wall`.
    PlaceWalls {
        /// `moves the wall`: the walls standing before are taken away.
        moving: bool,
        /// `in ZONE`.
        zone: Option<Ident>,
        /// `within reach`: only where the piece just moved could move next.
        reach: bool,
    },
    /// `draws counted by value [, SIDE adds N]`.
    Counting(Option<(Ident, Number)>),
    /// `draws win for SIDE` (`true`) or `draws lose for SIDE`.
    DrawOdds(bool, Ident),
    /// `mating drops lose`.
    MatingDropsLose,
    /// `checks N VERDICT`.
    Checks(Number, Spanned<Verdict>),
    /// `checks forbidden`.
    ChecksForbidden,
    /// `extinction`.
    Extinction,
    /// `stalemate VERDICT`.
    /// With `, by piece count`.
    Stalemate(Spanned<Verdict>, bool),
    /// `stalemate passes`.
    StalematePasses,
    /// `shared victory`.
    SharedVictory,
    /// `eliminated pieces play on|removed|frozen`.
    Eliminated(crate::model::Elimination),
    /// `facing LINES [draws]`; `true` with `draws`.
    Facing(Vec<Spanned<FacingLine>>, bool),
    /// `repetition N VERDICT [, perpetual check loses]`.
    Repetition {
        /// The occurrence that ends the game.
        count: Number,
        /// The result for the repeating side.
        verdict: Spanned<Verdict>,
        /// Where `, perpetual check loses` was written, if it was.
        perpetual_check_loses: Option<Span>,
        /// `for SIDE`: the side whose verdict it is, whoever repeats.
        side: Option<Ident>,
    },
    /// `move-limit N draws`.
    MoveLimit(Number),
    /// `opposite castling`.
    OppositeCastling,
    /// `SIDE moves first`.
    FirstSide(Ident),
    /// `drops`.
    Drops {
        /// `without captures`: captured pieces do not go to hand.
        without_captures: bool,
    },
    /// `when COUNT [and COUNT]... VERDICT ["NAME"] [, to move | , just moved]`.
    When {
        /// The counts, all of which must hold.
        terms: Vec<CountTerm>,
        /// The result for the side they hold for.
        verdict: Spanned<Verdict>,
        /// The result's name.
        name: Option<Spanned<String>>,
        /// Which sides the rule asks about.
        asks: crate::model::Asks,
        /// `, unless answered`.
        answerable: bool,
    },
}

/// `N [enemy] PIECE... [in ZONE]` in a `when` rule.
#[derive(Clone, Debug, PartialEq)]
pub struct CountTerm {
    /// How the number bounds the count.
    pub bound: crate::model::Bound,
    /// The number.
    pub count: Number,
    /// `enemy`: the opponents' pieces.
    pub enemy: bool,
    /// `safe`: only pieces no opponent attacks.
    pub safe: bool,
    /// The kinds counted together.
    pub pieces: Vec<PieceRef>,
    /// `in ZONE`.
    pub zone: Option<Ident>,
    /// `on board or in hand`.
    pub hand: bool,
    /// The whole term.
    pub span: Span,
}

/// One rule line.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleLine {
    /// `if OPTION:` prefixes.
    pub guards: Vec<OptionGuard>,
    /// The rule.
    pub rule: Rule,
    /// The rule without its prefixes.
    pub rule_span: Span,
    /// The whole line.
    pub span: Span,
}

/// `rules` and its lines.
#[derive(Clone, Debug, PartialEq)]
pub struct RulesDecl {
    /// The keyword.
    pub keyword: Span,
    /// The rules.
    pub lines: Vec<RuleLine>,
    /// The whole declaration.
    pub span: Span,
}

/// A cell of a setup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupCell {
    /// A piece letter, `+` included; uppercase for the first side.
    Piece(String),
    /// Empty squares; `None` when the number is too big to count.
    Empty(Option<u32>),
    /// `*`: a hole, a square that is not on the board.
    Hole,
    /// Something that is neither.
    Bad(char),
}

/// How a setup was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupForm {
    /// Indented rows.
    Picture,
    /// A FEN board string.
    Fen,
}

/// `setup` and its rows.
#[derive(Clone, Debug, PartialEq)]
pub struct SetupDecl {
    /// `if OPTION:` prefixes: the setup is used only under these settings.
    pub guards: Vec<OptionGuard>,
    /// The keyword.
    pub keyword: Span,
    /// How it was written.
    pub form: SetupForm,
    /// The rows, top rank first.
    pub rows: Vec<PictureRow<SetupCell>>,
    /// The pieces in hand at the start, as written between brackets (`Nn`).
    pub hand: Option<Spanned<String>>,
    /// The whole declaration.
    pub span: Span,
}
