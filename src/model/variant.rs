//! The validated rule model of a variant: what a definition says, with every name resolved.
//!
//! A [`Variant`] is produced only by the checker (`crate::check`); the engine trusts its
//! invariants (every index in range, every zone sized to the board) and never sees the syntax.
//! Options are still unresolved here: [`crate::model::Tables::compile`] fixes them.

use super::letter::Letter;
use super::square::{Geometry, Square};
use super::square_set::SquareSet;

/// The most pieces a position's hands may hold in all. Hands only grow by captures from the
/// board, so counts stay far below what they are stored in.
pub const MAX_IN_HANDS: usize = 1000;

/// Index of a side (player) in [`Variant::sides`]; side 0 moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Side(u8);

/// The most sides a game may have.
pub const MAX_SIDES: usize = 4;

impl Side {
    /// The side that moves first.
    pub const FIRST: Side = Side(0);
    /// The side that moves second.
    pub const SECOND: Side = Side(1);

    /// The side at `index` in turn order, if a game can have that many sides.
    pub const fn from_index(index: usize) -> Option<Side> {
        if index < MAX_SIDES {
            Some(Side::nth(index))
        } else {
            None
        }
    }

    /// The side at `index`, an index the engine took from a side of the same game: checked in
    /// debug builds only.
    ///
    /// The one narrowing of a side's index: below [`MAX_SIDES`] it fits the byte.
    #[inline]
    pub(crate) const fn nth(index: usize) -> Side {
        debug_assert!(index < MAX_SIDES);
        Side(index as u8)
    }

    /// The index as the engine's compact tables store it.
    #[inline]
    pub(crate) const fn raw(self) -> u8 {
        self.0
    }

    /// The inverse of [`Side::raw`], for the engine's compact tables.
    #[inline]
    pub(crate) const fn from_raw(raw: u8) -> Side {
        Side(raw)
    }

    /// The `count` sides of a game, in turn order.
    pub fn all(count: usize) -> impl Iterator<Item = Side> {
        (0..count.min(MAX_SIDES)).map(Side::nth)
    }

    /// The index, for table lookups.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The side's letter in FEN's side-to-move field, by turn order whatever the side is
    /// called: `w` for the first side, `b` for the second, then `c`, `d`.
    pub const fn fen_letter(self) -> char {
        match self.0 {
            0 => 'w',
            1 => 'b',
            n => (b'c' + n - 2) as char,
        }
    }
}

/// Index of a piece kind in [`Variant::pieces`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceKind(u8);

/// The most piece kinds a game may have (a kind is a byte, and kind sets are 128 bits wide).
pub const MAX_KINDS: usize = 128;

impl PieceKind {
    /// The kind at `index` in [`Variant::pieces`], if a game can have that many kinds.
    pub const fn from_index(index: usize) -> Option<PieceKind> {
        if index < MAX_KINDS {
            Some(PieceKind::nth(index))
        } else {
            None
        }
    }

    /// The first `count` kinds of a game, in declaration order.
    pub fn all(count: usize) -> impl Iterator<Item = PieceKind> {
        (0..count.min(MAX_KINDS)).map(PieceKind::nth)
    }

    /// The kind at `index`, an index the engine took from a kind of the same game: checked in
    /// debug builds only.
    ///
    /// The one narrowing of a kind's index: below [`MAX_KINDS`] it fits the byte.
    #[inline]
    pub(crate) const fn nth(index: usize) -> PieceKind {
        debug_assert!(index < MAX_KINDS);
        PieceKind(index as u8)
    }

    /// The index as the engine's compact tables store it.
    #[inline]
    pub(crate) const fn raw(self) -> u8 {
        self.0
    }

    /// The inverse of [`PieceKind::raw`], for the engine's compact tables.
    #[inline]
    pub(crate) const fn from_raw(raw: u8) -> PieceKind {
        PieceKind(raw)
    }

    /// The index, for table lookups.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A set of piece kinds (of one game), such as the victims a move may take or the pieces a
/// `holding` list names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KindSet(u128);

impl KindSet {
    /// No kind.
    pub const EMPTY: KindSet = KindSet(0);
    /// Every kind.
    pub const ALL: KindSet = KindSet(u128::MAX);

    /// Whether `kind` is in the set.
    #[inline]
    pub const fn contains(self, kind: PieceKind) -> bool {
        self.0 >> kind.0 & 1 != 0
    }

    /// The set with `kind` added.
    #[inline]
    pub const fn with(self, kind: PieceKind) -> KindSet {
        KindSet(self.0 | 1 << kind.0)
    }

    /// The set without `kind`.
    #[inline]
    pub const fn without(self, kind: PieceKind) -> KindSet {
        KindSet(self.0 & !(1 << kind.0))
    }

    /// Whether the set holds no kind.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kinds of the set, in declaration order.
    pub fn iter(self) -> impl Iterator<Item = PieceKind> {
        PieceKind::all(MAX_KINDS).filter(move |&k| self.contains(k))
    }
}

impl FromIterator<PieceKind> for KindSet {
    fn from_iter<I: IntoIterator<Item = PieceKind>>(kinds: I) -> Self {
        kinds.into_iter().fold(KindSet::EMPTY, KindSet::with)
    }
}

impl std::ops::BitOr for KindSet {
    type Output = KindSet;
    fn bitor(self, other: KindSet) -> KindSet {
        KindSet(self.0 | other.0)
    }
}

/// Index of a zone in [`Variant::zones`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ZoneId(pub u16);

/// Index of a partition in [`Variant::partitions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PartitionId(pub u16);

/// Index of a line in [`Variant::lines`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LineId(pub u16);

/// Index of an option in [`Variant::options`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OptionId(pub u16);

/// The conversions of the declaration indices above, which are `u16`s.
macro_rules! declaration_index {
    ($($id:ident: $what:literal),*) => {$(
        impl $id {
            #[doc = concat!("The ", $what, " at `index` in declaration order, if the index fits the `u16` it is kept in.")]
            pub fn from_index(index: usize) -> Option<$id> {
                u16::try_from(index).ok().map($id)
            }

            /// The index, for lookups.
            #[inline]
            pub fn index(self) -> usize {
                usize::from(self.0)
            }
        }
    )*};
}

declaration_index!(ZoneId: "zone", PartitionId: "partition", LineId: "line", OptionId: "option");

/// The compass direction a side's "forward" points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Facing {
    /// Toward higher ranks.
    North,
    /// Toward lower ranks.
    South,
    /// Toward higher files.
    East,
    /// Toward lower files.
    West,
}

impl Facing {
    /// Quarter turns clockwise from north.
    pub const fn quarter(self) -> u8 {
        match self {
            Facing::North => 0,
            Facing::East => 1,
            Facing::South => 2,
            Facing::West => 3,
        }
    }

    /// Turns a vector given in the side's own frame (`dy > 0` is forward, `dx > 0` is to the
    /// side's right) into a board vector.
    pub fn to_board(self, dx: i32, dy: i32) -> (i32, i32) {
        match self {
            Facing::North => (dx, dy),
            Facing::South => (-dx, -dy),
            Facing::East => (dy, -dx),
            Facing::West => (-dy, dx),
        }
    }
}

/// A player.
#[derive(Clone, Debug, PartialEq)]
pub struct SideDef {
    /// Its name in the definition (`white`, `red`).
    pub name: String,
    /// Where its forward points.
    pub facing: Facing,
}

/// A side's initial, lowercase: what marks its pieces (`rK`) in a game of more than two
/// sides.
pub(crate) fn side_initial(name: &str) -> char {
    name.chars().next().map_or('?', |c| c.to_ascii_lowercase())
}

/// A named square set, one set per side (equal sets when the zone is not mirrored).
#[derive(Clone, Debug, PartialEq)]
pub struct Zone {
    /// Its name in the definition.
    pub name: String,
    /// The squares for each side, indexed by [`Side::index`].
    pub squares: Vec<SquareSet>,
    /// The character drawn for its empty squares in diagrams, if any.
    pub glyph: Option<char>,
}

/// How pictures draw the board's squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BoardStyle {
    /// Squares in two shades, as chess boards are.
    #[default]
    Checkered,
    /// Squares of one shade, ruled apart, as shogi boards are.
    Grid,
    /// Points where lines cross, as xiangqi boards are: pieces stand on the points.
    Points,
}

/// How pictures draw the board (`drawing`): it changes no rule.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawing {
    /// The style of the squares.
    pub style: BoardStyle,
    /// Ranks (from 0) after which a river runs across the board.
    pub rivers: Vec<i32>,
    /// Zones whose parts get their corner-to-corner diagonals drawn.
    pub diagonals: Vec<ZoneId>,
}

/// `moves flip ... enemies`: the enemy pieces a move turns to its side, from the square it
/// reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flip {
    /// On each line of the eight directions, the unbroken run of enemy pieces up to a friendly
    /// piece (Othello).
    Enclosed,
    /// Every enemy piece a king step away (Ataxx).
    Adjacent,
}

/// `each move places a wall [in ZONE] [within reach]` (or `moves the wall`): where the wall
/// that ends every move may stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WallPlacing {
    /// `moves the wall`: the walls standing before the move are taken away (Duck chess).
    pub moving: bool,
    /// Only on this zone's squares (of the moving side).
    pub zone: Option<ZoneId>,
    /// Only where the piece just moved could move next (Amazons' arrows).
    pub reach: bool,
}

/// A line between squares (a wall, a mound): the orthogonal steps that cross it, per side.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// Its name in the definition.
    pub name: String,
    /// For each side: the squares whose edge to the square north of them is on the line.
    pub north: Vec<SquareSet>,
    /// For each side: the squares whose edge to the square east of them is on the line.
    pub east: Vec<SquareSet>,
    /// For each side: the line's first set; a crossing out of it is inward.
    pub first: Vec<SquareSet>,
}

impl Line {
    /// Whether the edge between `a` and the orthogonally adjacent `b` is on the line.
    fn edge(&self, g: Geometry, side: Side, a: Square, b: Square) -> bool {
        let (fa, ra, fb, rb) = (g.file(a), g.rank(a), g.file(b), g.rank(b));
        let s = side.index();
        if fa == fb {
            self.north[s].contains(if ra < rb { a } else { b })
        } else {
            self.east[s].contains(if fa < fb { a } else { b })
        }
    }

    /// How many times a step by the unit vector `v` from `from` crosses the line: 0 or 1 for
    /// an orthogonal step; for a diagonal one, the fewer of its two orthogonal detours (so a
    /// step across the corner where two walls meet crosses one, and one slipping past that
    /// corner outside crosses none). Longer leaps do not cross lines.
    pub fn crossings(&self, g: Geometry, side: Side, from: Square, v: (i32, i32)) -> u32 {
        let Some(to) = g.offset(from, v.0, v.1) else {
            return 0;
        };
        match (v.0.abs(), v.1.abs()) {
            (0, 1) | (1, 0) => self.edge(g, side, from, to) as u32,
            (1, 1) => {
                let count = |mid: Option<Square>| {
                    mid.map_or(u32::MAX, |m| {
                        self.edge(g, side, from, m) as u32 + self.edge(g, side, m, to) as u32
                    })
                };
                count(g.offset(from, v.0, 0)).min(count(g.offset(from, 0, v.1)))
            }
            _ => 0,
        }
    }

    /// Which way the line runs where a step by the unit vector `v` from `from` crosses it:
    /// `(along_files, along_ranks)`, the line running north-south (between files) and the line
    /// running east-west (between ranks). Across the corner where two walls meet, both.
    pub fn crossed_runs(
        &self,
        g: Geometry,
        side: Side,
        from: Square,
        v: (i32, i32),
    ) -> (bool, bool) {
        let Some(to) = g.offset(from, v.0, v.1) else {
            return (false, false);
        };
        let edge = |a: Option<Square>, b: Option<Square>| match (a, b) {
            (Some(a), Some(b)) => self.edge(g, side, a, b),
            _ => false,
        };
        match (v.0.abs(), v.1.abs()) {
            (1, 0) => (self.edge(g, side, from, to), false),
            (0, 1) => (false, self.edge(g, side, from, to)),
            (1, 1) => {
                let min = self.crossings(g, side, from, v);
                if min == 0 {
                    return (false, false);
                }
                // Each detour: a step along the rank (crossing a north-south line), then along the
                // file (crossing an east-west one), or the other way round.
                let x = g.offset(from, v.0, 0);
                let y = g.offset(from, 0, v.1);
                let a = (edge(Some(from), x), edge(x, Some(to)));
                let b = (edge(y, Some(to)), edge(Some(from), y));
                let mut runs = (false, false);
                for (files, ranks) in [a, b] {
                    if files as u32 + ranks as u32 == min {
                        runs.0 |= files;
                        runs.1 |= ranks;
                    }
                }
                runs
            }
            _ => (false, false),
        }
    }
}

/// The board cut into parts, per side.
#[derive(Clone, Debug, PartialEq)]
pub struct Partition {
    /// Its name in the definition.
    pub name: String,
    /// For each side, by [`Side::index`]: the part index of every square.
    pub part_of: Vec<Vec<u16>>,
}

/// A switch declared by the definition that can change its rules.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionDef {
    /// Its name (`drops`, `korean-cannons`).
    pub name: String,
    /// Whether it is on unless the user says otherwise.
    pub default: bool,
    /// What it does, for `--help`-like listings.
    pub description: String,
}

/// A condition on an option: the guarded item exists only when the option has the given value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionGuard {
    /// The option tested.
    pub option: OptionId,
    /// `true` for `if`, `false` for `unless`.
    pub when_on: bool,
}

/// Which squares a pattern or rule applies from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZoneGuard {
    /// The zone, read for the moving piece's side.
    pub zone: ZoneId,
    /// `true` for `in`, `false` for `outside`.
    pub inside: bool,
}

/// What a pattern may do at its destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Move to an empty square or capture.
    Both,
    /// Only move to an empty square.
    MoveOnly,
    /// Only capture.
    CaptureOnly,
}

impl Mode {
    /// Whether the mode allows ending on an empty square.
    pub fn can_move(self) -> bool {
        self != Mode::CaptureOnly
    }
    /// Whether the mode allows ending on an enemy piece.
    pub fn can_capture(self) -> bool {
        self != Mode::MoveOnly
    }
}

/// The directions of one leg.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dirs {
    /// Vectors in the side's own frame (`(0, 1)` is one square forward).
    Vectors(Vec<(i8, i8)>),
    /// The same vector as the previous leg.
    Same,
    /// The vectors 45 degrees off the previous leg's direction: for an orthogonal step the two
    /// diagonals that contain it, for a diagonal step its two orthogonal components.
    Outward,
    /// The previous leg's vector turned back.
    Reverse,
}

/// How a leg travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegKind {
    /// One displacement by one of the vectors (a step or a leap).
    Step,
    /// Repeats the vector over empty squares, up to `max` times (`None`: to the edge).
    Slide {
        /// The most repetitions, or no limit.
        max: Option<u8>,
    },
    /// Like a slide, but must pass exactly one occupied square (the screen) first;
    /// it may end on any square beyond the screen that the pattern's mode allows.
    Hop {
        /// The most repetitions, or no limit.
        max: Option<u8>,
        /// Lands only on the square right after the screen (a grasshopper).
        just_beyond: bool,
    },
}

/// One leg of a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leg {
    /// How it travels.
    pub kind: LegKind,
    /// Which way: the first arm whose zone holds the square the leg starts from (an arm with
    /// no zone holds every square). At least one.
    pub arms: Vec<Arm>,
    /// A bent slide or hop: each square passed picks its arm again, and the leg turns where
    /// the arm changes (see [`Leg::bent`]'s rule in `docs/language.md`).
    pub bent: bool,
}

impl Leg {
    /// A leg with one set of directions for every square.
    pub fn new(kind: LegKind, dirs: Dirs) -> Leg {
        Leg {
            kind,
            arms: vec![Arm {
                dirs,
                inward: false,
                zone: None,
            }],
            bent: false,
        }
    }
}

/// Directions of a leg for the squares of a zone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arm {
    /// The directions.
    pub dirs: Dirs,
    /// Only those pointing toward the centre of the board, from the square they start at.
    pub inward: bool,
    /// The zone (read for the moving side) whose squares use these directions; `None`: all.
    pub zone: Option<ZoneId>,
}

/// One way a piece moves: a path of legs and what it may do at the end.
///
/// Every leg but the last must end on an empty square (the piece is blocked there otherwise,
/// as a Xiangqi horse is); only the last leg may capture.
#[derive(Clone, Debug, PartialEq)]
pub struct Pattern {
    /// Applies only when the piece stands in (or outside) these zones.
    pub zones: Vec<ZoneGuard>,
    /// Applies only under these option settings.
    pub options: Vec<OptionGuard>,
    /// The legs, at least one.
    pub legs: Vec<Leg>,
    /// What it may do at the destination.
    pub mode: Mode,
    /// The squares passed by a move of this pattern become en-passant targets.
    pub creates_en_passant: bool,
    /// May capture a piece that just passed its destination with a `creates_en_passant` move.
    pub takes_en_passant: bool,
    /// An en-passant capture never promotes (`takes en-passant without promotion`).
    pub en_passant_unpromoted: bool,
    /// Applies only while the piece has not moved (`Some(true)`) or only once it has
    /// (`Some(false)`).
    pub unmoved: Option<bool>,
    /// Applies only while the moving side is in check (`Some(true)`) or is not
    /// (`Some(false)`); attacks ignore it.
    pub in_check: Option<bool>,
    /// Captures without moving: the piece stays and the target is removed.
    pub shot: bool,
    /// What it may capture; `None`: any piece of another side.
    pub capturing: Option<Capturable>,
    /// `capturing enemy ...`: only pieces of sides not on the mover's team.
    pub enemies_only: bool,
    /// Its moves must end in (or outside) these zones, read for the moving side.
    pub into: Vec<ZoneGuard>,
    /// Its moves must end in a part that holds (or holds no) friendly piece of some kinds.
    pub holding: Option<Holding>,
    /// How many times a move may cross each of these lines: `(line, least, most)`.
    pub crossing: Vec<(LineId, u32, u32)>,
    /// `move-only along LINE [except ahead]`: a continuation after an inward crossing of the
    /// line does not capture along it (except ahead, when the flag is set).
    pub along: Option<(LineId, bool)>,
    /// The slide stops on the first square beyond this line, where the move may end or go on
    /// (a slide again if the crossing was its first step, else one step).
    pub continuing: Option<LineId>,
    /// Its paths never enter these zones (read for the moving side), not even passing.
    pub avoiding: Vec<ZoneId>,
    /// `over PIECE...` / `not over PIECE...`: the kinds a hop's screen may be, and whether a
    /// wall may be one; `None`: any piece or wall.
    pub screens: Option<Box<Screens>>,
    /// `capturing on the way ...`: (two legs) the first must end on an enemy piece of these
    /// kinds, captured on the way.
    pub on_the_way: Option<Box<KindFilter>>,
    /// `not capturing protected PIECE... [from afar]`: these kinds may not be captured where
    /// an opponent could capture back after the move (with `true`: only from a square not a
    /// king step away).
    pub not_protected: Option<Box<(Vec<PieceKind>, bool)>>,
}

/// `connect N [PIECE...] [along LINES] VERDICT`.
#[derive(Clone, Debug, PartialEq)]
pub struct Connect {
    /// How many in an unbroken row (with `block`, how many files the block spans).
    pub count: u8,
    /// `by M`: a block of `count` files by this many ranks, every square held.
    pub block: Option<u8>,
    /// `, with gaps`: `count` on one line, wherever they stand on it.
    pub gaps: bool,
    /// The kinds that count; empty: every kind.
    pub kinds: Vec<PieceKind>,
    /// The board vectors of the lines, one per line (`(1, 0)` along ranks).
    pub lines: Vec<(i8, i8)>,
    /// What the side with such a row gets.
    pub verdict: Verdict,
}

/// Some kinds of piece: these, or every kind but these.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindFilter {
    /// The kinds named.
    pub kinds: Vec<PieceKind>,
    /// Every kind but these, rather than only these.
    pub except: bool,
}

/// The pieces a hop may use as its screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Screens {
    /// The kinds named.
    pub kinds: Vec<PieceKind>,
    /// `over` (only these) rather than `not over` (all but these).
    pub allowed: bool,
}

/// `into PARTITION holding PIECE...`: where a move may end depends on what stands where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holding {
    /// The partition whose part the destination lies in.
    pub partition: PartitionId,
    /// The pieces the part must hold (before the move).
    pub kinds: Vec<(PieceKind, Owner)>,
    /// `into` (`true`) or `not into` (`false`).
    pub inside: bool,
}

/// Whose piece a `holding` list names, from the moving side's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// The moving side's.
    Friendly,
    /// An opponent's.
    Enemy,
    /// Either side's.
    Any,
}

/// `enter ZONE only when holding PIECE...`: a move from outside the zone may end in it only
/// when the zone already holds one of the pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryCondition {
    /// The zone, read for the moving side.
    pub zone: ZoneId,
    /// The pieces, one of which it must hold (before the move).
    pub kinds: Vec<(PieceKind, Owner)>,
    /// Applies only under these option settings.
    pub options: Vec<OptionGuard>,
}

/// Which sides a `when` rule asks about after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Asks {
    /// The side that just moved, then the others.
    Both,
    /// Only the side to move: its counts held through the opponents' reply.
    ToMove,
    /// Only the side that just moved.
    JustMoved,
}

/// How a count term's number bounds the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// Exactly N.
    Exactly,
    /// N or more.
    AtLeast,
    /// N or fewer.
    AtMost,
}

impl Bound {
    /// Whether `n` satisfies the bound `count`.
    #[inline]
    pub fn holds(self, n: u32, count: u32) -> bool {
        match self {
            Bound::Exactly => n == count,
            Bound::AtLeast => n >= count,
            Bound::AtMost => n <= count,
        }
    }
}

/// `teleport next to PIECE...`: a move to an empty square next to a friendly piece; or
/// `teleport [from ZONE] to ZONE`: a move to any empty square of a zone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Teleport {
    /// The friendly pieces it may land next to (none for a teleport to a zone).
    pub anchors: Vec<PieceKind>,
    /// Only from the squares of this zone (read for the moving side).
    pub from: Option<ZoneId>,
    /// To the empty squares of this zone (read for the moving side).
    pub to: Option<ZoneId>,
    /// Only squares from which the piece's own moves could not capture on the anchor's square.
    pub not_attacking: bool,
    /// Applies only under these option settings.
    pub options: Vec<OptionGuard>,
}

/// The pieces a pattern may capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Capturable {
    /// Royal pieces.
    Royal,
    /// The one enemy piece that gives check (none under a double check).
    Checker,
    /// Pieces of these kinds.
    Kinds(Vec<PieceKind>),
    /// Pieces of every kind but these.
    AllBut(Vec<PieceKind>),
}

/// A restriction on where a piece's moves may end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Confinement {
    /// The zone, read for the piece's side.
    pub zone: ZoneId,
    /// `true`: moves must end inside (`stay in`); `false`: may never end inside (`never enter`).
    pub inside: bool,
    /// Applies only under these option settings.
    pub options: Vec<OptionGuard>,
}

/// `stay within PARTITION`: moves end in the part of the partition they start in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Within {
    /// The partition.
    pub partition: PartitionId,
    /// Applies only under these option settings.
    pub options: Vec<OptionGuard>,
}

/// How a piece promotes.
#[derive(Clone, Debug, PartialEq)]
pub struct Promotion {
    /// What it may become (at least one).
    pub choices: Vec<PieceKind>,
    /// The promotion zone, read for the piece's side.
    pub zone: ZoneId,
    /// Also promote when the move starts in the zone (Shogi), not only when it ends there.
    pub from_zone_too: bool,
    /// The piece must promote when it can; otherwise promotion is optional, except where the
    /// unpromoted piece would have no move left, where it is always forced.
    pub forced: bool,
    /// Only a move that captures promotes (Micro Shogi).
    pub when_capturing: bool,
    /// A choice is open only while the side has fewer of that piece on the board than the
    /// setup gives it, on the board and in hand (Grand Chess: promotion to captured pieces).
    pub only_captured: bool,
    /// A choice is open only while the side has fewer than this many of it on the board
    /// (Fairy-Stockfish's `promotionLimit`).
    pub at_most: Option<u16>,
    /// Promotion is a move of its own, made standing in the zone (Sittuyin): the piece turns
    /// where it stands, or goes as the new kind to an empty square it could move to. Moves
    /// into the zone do not promote under such a clause.
    pub in_place: bool,
    /// Optional even where the unpromoted piece would have no move left (Chu Shogi's pawns
    /// and lances on the last rank).
    pub never_forced: bool,
    /// Only a move from outside the zone into it promotes (with `when_capturing`, also a
    /// capture that starts or ends in the zone).
    pub when_entering: bool,
    /// With `in_place`: the new piece may not attack an enemy piece where it ends, nor the
    /// move give check.
    pub not_attacking: bool,
    /// With `in_place`: the side's last piece of the kind promotes outside the zone too.
    pub anywhere_when_last: bool,
    /// Applies only under these option settings.
    pub options: Vec<OptionGuard>,
}

/// Where and how a piece in hand may be dropped.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct DropRules {
    /// Zones the drop square must be in (read for the dropping side).
    pub only_in: Vec<ZoneId>,
    /// Zones the drop square must not be in.
    pub never_in: Vec<ZoneId>,
    /// At most this many of the side's pieces of this kind on one file after the drop.
    pub max_per_file: Option<u8>,
    /// A drop of this piece may not checkmate.
    pub no_mate: bool,
    /// A drop of this piece may not give check.
    pub no_check: bool,
    /// It may be dropped where it would have no move.
    pub even_where_stuck: bool,
    /// Kinds it may enter the board as instead (Kyoto Shogi drops a piece either side up).
    pub also_as: Vec<PieceKind>,
    /// While one is in hand, no other kind may be dropped, and no move made while it can be.
    pub compulsory: bool,
    /// Only where the rules' flipping turns at least one enemy piece.
    pub only_flipping: bool,
    /// Only a king step from one of the side's pieces.
    pub only_next_to_own: bool,
    /// While a square of this zone (read for the dropping side) is empty, only there.
    pub first_in: Option<ZoneId>,
    /// From a supply that never runs out: a drop takes nothing from the hand.
    pub unlimited: bool,
    /// The side's pieces of this kind end on squares of both colours: no drop puts more than
    /// half of them (rounded up) on one colour, nor leaves too few empty drop squares of a
    /// colour for those still in hand.
    pub both_colours: bool,
    /// A dropped piece counts as never moved, for castling and first-move patterns.
    pub unmoved: bool,
    /// Only on the first rank or right above a piece (Connect Four's gravity).
    pub on_top: bool,
    /// Never a rook step from an enemy piece (Snort).
    pub apart: bool,
    /// Coming in from an edge along a rank or file, stopping before the first piece in its way
    /// or at the far edge.
    pub from_edge: bool,
}

/// A kind of piece.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceDef {
    /// Its name (`Knight`).
    pub name: String,
    /// Its letter (`N`, `+P`, `Q~`); [`Variant::piece_token`] writes it for a side.
    pub letter: Letter,
    /// Its value in pawns, for engines and tie-breaks.
    pub value: f32,
    /// Whether the definition wrote the value (else the engine estimates one).
    pub value_given: bool,
    /// A royal piece: checks and royal-capture wins are about these.
    pub royal: bool,
    /// How it moves.
    pub patterns: Vec<Pattern>,
    /// Where its moves may end.
    pub confinements: Vec<Confinement>,
    /// Partitions whose part a move must end in, the part it started in.
    pub within: Vec<Within>,
    /// How it promotes.
    pub promotions: Vec<Promotion>,
    /// What it becomes when captured into a hand.
    pub demotes_to: Option<PieceKind>,
    /// How it may be dropped.
    pub drops: DropRules,
    /// A move of this piece resets the move-limit counter (like a pawn move in chess).
    pub resets_clock: bool,
    /// `unmoved noted in fen`: the FEN's castling field names its file while it is unmoved.
    pub unmoved_in_fen: bool,
    /// `only from fen`: meant to reach the board only from a FEN (no warning that it never
    /// stands on it).
    pub only_from_fen: bool,
    /// `unmoved lost when aimed by`: enemy kinds that take its first-move state away by ending
    /// a move where they would attack it on an empty board.
    pub unmoved_lost_to: Vec<PieceKind>,
    /// What explosions (`captures explode`) spare of this piece.
    pub immunity: Immunity,
    /// Besides its own patterns, the piece moves as every friendly piece that could move to
    /// the square it stands on, and captures as every one that could capture there (the
    /// lender's own patterns only: borrowing is not passed on).
    pub borrows: bool,
    /// Moves to squares next to friendly pieces or anywhere in a zone.
    pub teleports: Vec<Teleport>,
    /// Zones it enters only when they hold certain pieces.
    pub entries: Vec<EntryCondition>,
}

impl PieceDef {
    /// Its value in hundredths of a pawn, the evaluation's unit: rounded to the nearest, and
    /// held at `i32::MIN` or `i32::MAX` past them (the checker lets any finite value through).
    pub fn centipawns(&self) -> i32 {
        (self.value * 100.0).round() as i32
    }
}

/// The result a rule gives the side it concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// That side wins.
    Win,
    /// That side loses.
    Loss,
    /// Nobody wins.
    Draw,
}

/// What explosions spare of a piece.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Immunity {
    /// Nothing: an explosion removes it wherever it stands.
    #[default]
    None,
    /// An explosion removes it only when it captures or is captured (Atomic's pawns).
    Nearby,
    /// No explosion removes it (Atomar's kings).
    Full,
}

/// What a repetition of positions means.
#[derive(Clone, Debug, PartialEq)]
pub struct RepetitionRule {
    /// The occurrence that ends the game (3 for the third time).
    pub count: u8,
    /// The result for the side that made the repeating move.
    pub verdict: Verdict,
    /// A side whose every move in the repeated cycle gave check loses instead.
    pub perpetual_check_loses: bool,
    /// `for SIDE`: the verdict is this side's, whoever made the repeating move.
    pub side: Option<Side>,
}

/// A castling-like compound move: the king-like piece and its partner move at once.
#[derive(Clone, Debug, PartialEq)]
pub struct Castling {
    /// The side it belongs to.
    pub side: Side,
    /// The piece that moves like the king.
    pub king: PieceKind,
    /// Where it starts and ends.
    pub king_from: Square,
    /// Where it ends.
    pub king_to: Square,
    /// The partner piece.
    pub partner: PieceKind,
    /// Where the partner starts.
    pub partner_from: Square,
    /// Where it ends.
    pub partner_to: Square,
    /// Making it wins; losing the right to every such castling of the side loses (`, wins`).
    pub wins: bool,
    /// Applies only under these option settings.
    pub options: Vec<OptionGuard>,
}

/// Royal pieces of opposite sides may not see each other along these lines.
#[derive(Clone, Debug, PartialEq)]
pub struct FacingRule {
    /// Board vectors (in the first side's frame) along which facing is forbidden.
    pub vectors: Vec<(i8, i8)>,
    /// `draws`: facing is allowed, must be ended by the side to move, and a pass while
    /// facing draws.
    pub draws: bool,
    /// Applies only under these option settings.
    pub options: Vec<OptionGuard>,
}

/// Which of a side's royals the checkmate rule keeps from being left attacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RoyalGuard {
    /// Every royal: none may be left attacked.
    #[default]
    Every,
    /// Only a side's last royal; while it has several, any may be captured.
    Last,
    /// All of them at once: a side is in check only while all its royals are attacked, and
    /// may leave some of them attacked (Spartan's duple check).
    All,
}

/// What becomes of the pieces of a side that is out of the running (more than two sides).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Elimination {
    /// They stay and their side goes on moving them.
    #[default]
    PlayOn,
    /// They leave the board at once.
    Removed,
    /// They stay as dead pieces: they neither move nor attack, and any side may capture them.
    Frozen,
}

/// The game's rules beyond piece movement.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    /// Royals may not be left attacked, and a side with no legal move while attacked is
    /// checkmated (loses).
    pub checkmate: bool,
    /// The result for a checkmated side (`checkmate wins` in Losers).
    pub checkmated: Verdict,
    /// Which royals may not be left attacked (`, last royal`, `, all royals attacked`).
    pub royal_guard: RoyalGuard,
    /// A side that can capture must capture.
    pub must_capture: bool,
    /// `must drop`: a side that holds pieces in hand and can drop one must drop.
    pub must_drop: bool,
    /// `captures explode`: a capture also removes the capturing piece and the pieces one king
    /// step around the capture square.
    pub explosions: bool,
    /// `moves leave walls`: the square a piece moves from becomes a wall.
    pub leave_walls: bool,
    /// `passing allowed`: a side may pass instead of moving, except while in check.
    pub passing: bool,
    /// `gating in ZONE`: a piece leaving its start square in the zone for the first time may
    /// leave a piece from hand in its place.
    pub gating: Option<ZoneId>,
    /// `captures petrify PIECE...`: a piece of these kinds that captures becomes a wall.
    pub petrify: Vec<PieceKind>,
    /// `each move places a wall ...`: every move ends with a wall built.
    pub wall_placing: Option<WallPlacing>,
    /// `passing allowed when stuck`: a pass only when no other move is legal.
    pub passing_when_stuck: bool,
    /// `moves flip ... enemies`: which enemy pieces a move turns to the mover's side.
    pub flip: Option<Flip>,
    /// A drop flips only with a friendly piece a king step away
    /// (`moves flip ..., drops only next to own pieces`).
    pub flip_drops_near_friends: bool,
    /// `full board draws`.
    pub full_board_draws: bool,
    /// `connect N ...`: N of a side's pieces in a row decide the game.
    pub connect: Vec<Connect>,
    /// `counter-strike PIECE...`: after one of these is captured by a piece of another kind,
    /// the next move may capture one of them only with one of them.
    pub counter_strike: Vec<PieceKind>,
    /// A side that castles takes the opponents' castlings toward the same edge
    /// (`opposite castling`).
    pub opposite_castling: bool,
    /// The side to move in the start position (`SIDE moves first`).
    pub first_side: Side,
    /// `draws counted by value`: a drawn game goes to the side whose pieces are worth more,
    /// with what each side adds to its total, by side.
    pub counting: Option<Vec<f32>>,
    /// `draws win for SIDE` / `draws lose for SIDE`: a drawn game goes to or against a side.
    pub draw_odds: Option<(Side, Verdict)>,
    /// `stalemate VERDICT, by piece count`.
    pub stalemate_by_count: bool,
    /// `mating drops lose`, under these options: a mating drop of a piece that `may not mate`
    /// is legal, and loses.
    pub mating_drops_lose: Option<Vec<OptionGuard>>,
    /// `checks N VERDICT`: the side giving its N-th check gets the verdict.
    pub checks: Option<(u8, Verdict)>,
    /// `checks forbidden`: no move may leave an enemy royal attacked.
    pub checks_forbidden: bool,
    /// A side with no royal left loses.
    pub extinction: bool,
    /// The result for the side to move when it has no legal move and is not in check.
    pub stalemate: Verdict,
    /// A side with no legal move that is not in check is passed over instead (`stalemate
    /// passes`, and the default with more than two sides).
    pub stalemate_passes: bool,
    /// What becomes of the pieces of a side out of the running (more than two sides).
    pub eliminated: Elimination,
    /// The last two players in the running may agree to share the victory.
    pub shared_victory: bool,
    /// Facing rules.
    pub facing: Vec<FacingRule>,
    /// Repetition.
    pub repetition: Option<RepetitionRule>,
    /// After this many plies without a capture or a clock-resetting move, the game is drawn.
    pub move_limit: Option<u32>,
    /// Captured pieces go to the captor's hand (demoted) and can be dropped.
    pub drops: bool,
    /// With `drops`: captured pieces go to the captor's hand (not under `without captures`).
    pub captures_to_hand: bool,
    /// Options under which `drops` holds (all must match).
    pub drops_options: Vec<OptionGuard>,
    /// Castling moves.
    pub castlings: Vec<Castling>,
    /// `when` rules, in the order written.
    pub conditions: Vec<WhenRule>,
}

/// `when COUNT [and COUNT]... VERDICT ["NAME"]`: the game ends when the counts hold for a side.
#[derive(Clone, Debug, PartialEq)]
pub struct WhenRule {
    /// The counts, all of which must hold.
    pub terms: Vec<CountTerm>,
    /// The result for the side they hold for.
    pub verdict: Verdict,
    /// The result's name (`great victory`).
    pub name: Option<String>,
    /// Applies only under these option settings.
    pub options: Vec<OptionGuard>,
    /// Which sides it asks about.
    pub asks: Asks,
    /// `, unless answered`.
    pub answerable: bool,
}

/// `N [enemy] PIECE... [in ZONE]`: exactly `count` pieces of these kinds.
#[derive(Clone, Debug, PartialEq)]
pub struct CountTerm {
    /// How the number bounds the count.
    pub bound: Bound,
    /// The number.
    pub count: u32,
    /// The opponents' pieces rather than the side's own.
    pub enemy: bool,
    /// Only pieces no opponent of their owner attacks.
    pub safe: bool,
    /// The kinds counted together.
    pub kinds: Vec<PieceKind>,
    /// Only those in this zone, read for the side the rule asks about.
    pub zone: Option<ZoneId>,
    /// Pieces in hand count too (`on board or in hand`).
    pub hand: bool,
}

/// A piece on a square at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Where.
    pub square: Square,
    /// Whose.
    pub side: Side,
    /// What.
    pub piece: PieceKind,
}

/// An engine protocol, for the names its GUIs know a game by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// XBoard's CECP.
    XBoard,
    /// UCI.
    Uci,
}

/// The last of `entries` whose option guards hold under `options` (one value per option).
fn last_holding<'a, T>(
    entries: &'a [(Vec<OptionGuard>, T)],
    options: &[bool],
) -> Option<&'a (Vec<OptionGuard>, T)> {
    entries.iter().rev().find(|(guards, _)| {
        guards
            .iter()
            .all(|g| options[g.option.index()] == g.when_on)
    })
}

/// A checked variant definition.
///
/// Only the checker builds one (its fields are private to the crate), so the engine can rely on
/// what the checker proved: every index in range, every zone sized to the board.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    pub(crate) name: String,
    /// The names protocols know the game by (`known as "normal" in xboard`), each protocol
    /// once.
    pub(crate) known_as: Vec<(Protocol, String)>,
    pub(crate) geometry: Geometry,
    pub(crate) sides: Vec<SideDef>,
    pub(crate) zones: Vec<Zone>,
    pub(crate) partitions: Vec<Partition>,
    pub(crate) lines: Vec<Line>,
    pub(crate) options: Vec<OptionDef>,
    pub(crate) pieces: Vec<PieceDef>,
    pub(crate) rules: Rules,
    pub(crate) setup: Vec<Placement>,
    /// Pieces in hand at the start (side, kind), for `setup`.
    pub(crate) hand: Vec<(Side, PieceKind)>,
    /// Pieces in hand at the start for each of `other_setups`, in order.
    pub(crate) other_hands: Vec<Vec<(Side, PieceKind)>>,
    /// Start positions for some option settings, replacing `setup` when their guards hold
    /// (the last that holds wins).
    pub(crate) other_setups: Vec<(Vec<OptionGuard>, Vec<Placement>)>,
    /// How pictures draw the board.
    pub(crate) drawing: Drawing,
    /// Partnerships (`teams`), each with the option settings it holds under: each side's
    /// team. The last that holds wins; without one, every side is a team of its own.
    pub(crate) teams: Vec<(Vec<OptionGuard>, Vec<u8>)>,
    /// Square tables learned for the game, from a file beside the definition.
    pub(crate) square_tables: Option<std::sync::Arc<super::SquareTables>>,
}

impl Variant {
    /// The same variant with learned square tables for its evaluation.
    pub fn with_square_tables(mut self, tables: super::SquareTables) -> Variant {
        self.square_tables = Some(std::sync::Arc::new(tables));
        self
    }

    /// The square tables learned for the game, if any were given.
    pub fn square_tables(&self) -> Option<&super::SquareTables> {
        self.square_tables.as_deref()
    }

    /// The variant's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The name `protocol`'s GUIs know the game by, when the definition gives one.
    pub fn known_as(&self, protocol: Protocol) -> Option<&str> {
        self.known_as
            .iter()
            .find(|(p, _)| *p == protocol)
            .map(|(_, n)| n.as_str())
    }

    /// How pictures draw the board.
    pub fn drawing(&self) -> &Drawing {
        &self.drawing
    }

    /// The board.
    #[inline]
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The players, in turn order.
    pub fn sides(&self) -> &[SideDef] {
        &self.sides
    }

    /// Whether pieces are written with their side's initial (`rK`): in games of more than
    /// two sides, where letter case cannot tell the sides apart.
    pub fn tags_sides(&self) -> bool {
        self.sides.len() > 2
    }

    /// The side's initial, which marks its pieces (`rK`) and names it to move in FEN in a
    /// game of more than two sides: lowercase, one per side (the checker sees to that).
    pub fn side_tag(&self, side: Side) -> char {
        side_initial(&self.sides[side.index()].name)
    }

    /// The side whose initial is `tag`, in a game of more than two sides.
    pub fn side_by_tag(&self, tag: char) -> Option<Side> {
        Side::all(self.sides.len()).find(|&s| self.tags_sides() && self.side_tag(s) == tag)
    }

    /// How a piece is written in setups, FEN and text pictures: its letter, uppercase for the
    /// first of two sides and lowercase for the second (`K`, `k`, `+P`); with more sides,
    /// uppercase after the side's initial (`rK`, `y+P`).
    pub fn piece_token(&self, side: Side, kind: PieceKind) -> String {
        let letter = self.piece(kind).letter;
        match (self.tags_sides(), side.index()) {
            (true, _) => format!("{}{letter}", self.side_tag(side)),
            (false, 0) => letter.to_string(),
            (false, _) => letter.lowercase().to_string(),
        }
    }

    /// The side and kind [`Variant::piece_token`] writes as `token`, if any.
    pub fn read_piece_token(&self, token: &str) -> Option<(Side, PieceKind)> {
        if self.tags_sides() {
            let mut chars = token.chars();
            let side = self.side_by_tag(chars.next()?)?;
            let letter = chars.as_str();
            if letter.chars().any(|c| c.is_ascii_lowercase()) {
                return None;
            }
            return Some((side, self.piece_by_letter(letter)?));
        }
        let upper = token.chars().any(|c| c.is_ascii_uppercase());
        let lower = token.chars().any(|c| c.is_ascii_lowercase());
        if upper == lower {
            return None;
        }
        let side = if upper { Side::FIRST } else { Side::SECOND };
        Some((side, self.piece_by_letter(token)?))
    }

    /// One player.
    pub fn side(&self, side: Side) -> &SideDef {
        &self.sides[side.index()]
    }

    /// Named square sets.
    pub fn zones(&self) -> &[Zone] {
        &self.zones
    }

    /// Lines between squares.
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// Partitions of the board.
    pub fn partitions(&self) -> &[Partition] {
        &self.partitions
    }

    /// Switches.
    pub fn options(&self) -> &[OptionDef] {
        &self.options
    }

    /// Kinds of piece.
    pub fn pieces(&self) -> &[PieceDef] {
        &self.pieces
    }

    /// One kind of piece.
    #[inline]
    pub fn piece(&self, kind: PieceKind) -> &PieceDef {
        &self.pieces[kind.index()]
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The start position under the default options.
    pub fn setup(&self) -> &[Placement] {
        &self.setup
    }

    /// Every placement of every setup, whatever the options.
    pub fn all_placements(&self) -> impl Iterator<Item = &Placement> {
        self.setup
            .iter()
            .chain(self.other_setups.iter().flat_map(|(_, p)| p))
    }

    /// The pieces in hand at the start of every setup, options aside.
    pub fn all_hand_pieces(&self) -> impl Iterator<Item = &(Side, PieceKind)> {
        self.hand.iter().chain(self.other_hands.iter().flatten())
    }

    /// The pieces in hand at the start under `options` (one value per option): those of the
    /// setup [`Variant::setup_for`] picks.
    pub fn hand_for(&self, options: &[bool]) -> &[(Side, PieceKind)] {
        self.other_setups
            .iter()
            .zip(&self.other_hands)
            .rev()
            .find(|((guards, _), _)| {
                guards
                    .iter()
                    .all(|g| options[g.option.index()] == g.when_on)
            })
            .map_or(&self.hand, |(_, hand)| hand)
    }

    /// Each side's team under `options` (one value per option): the last `teams` that holds,
    /// else every side a team of its own.
    pub fn teams_for(&self, options: &[bool]) -> Vec<u8> {
        last_holding(&self.teams, options).map_or_else(
            || Side::all(self.sides.len()).map(Side::raw).collect(),
            |(_, teams)| teams.clone(),
        )
    }

    /// The start position under `options` (one value per option).
    pub fn setup_for(&self, options: &[bool]) -> &[Placement] {
        last_holding(&self.other_setups, options).map_or(&self.setup, |(_, placements)| placements)
    }

    /// The piece kind with this letter (in either case, its mark included), if any.
    pub fn piece_by_letter(&self, letter: &str) -> Option<PieceKind> {
        let letter = Letter::parse(letter)?;
        self.pieces
            .iter()
            .position(|p| p.letter == letter)
            .map(PieceKind::nth)
    }

    /// The piece kind with this name or letter, if any.
    pub fn piece_by_name(&self, name: &str) -> Option<PieceKind> {
        self.pieces
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(name))
            .map(PieceKind::nth)
            .or_else(|| self.piece_by_letter(name))
    }

    /// The zone with this name, if any.
    pub fn zone_by_name(&self, name: &str) -> Option<ZoneId> {
        self.zones
            .iter()
            .position(|z| z.name == name)
            .and_then(ZoneId::from_index)
    }

    /// The option with this name, if any.
    pub fn option_by_name(&self, name: &str) -> Option<OptionId> {
        self.options
            .iter()
            .position(|o| o.name == name)
            .and_then(OptionId::from_index)
    }
}
