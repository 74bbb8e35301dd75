//! The tables move generation walks, compiled from a [`Variant`] and a choice of options.
//!
//! Zones are static, so the geometry of every path a piece can take is fixed per
//! (piece, side, square). Everything is expanded once ([`build`]): a path is a run of squares
//! that must be empty (the legs before the last) and a ray (the last leg's squares, walked
//! until blocked). The engine only checks occupancy along these runs, through the typed
//! interface of this module ([`Tables::walk`], [`Way::open`], [`Tables::reach`]), which is also what
//! the diagram renderer reads: the walk rules are written once, in [`walk`].

mod build;
mod walk;

use super::square::{Geometry, Square};
use super::square_set::SquareSet;
use super::variant::KindSet;
use super::variant::{
    Asks, Bound, Castling, Elimination, Flip, Immunity, OptionGuard, PartitionId, PieceKind,
    RepetitionRule, RoyalGuard, Side, Variant, Verdict, WallPlacing, ZoneId, MAX_SIDES,
};

pub(crate) use walk::WALL;
pub use walk::{Reach, Target};

/// One square of a compiled path, and whether a move may end there.
///
/// A square a piece may pass but not stop on (it must stay in a zone, say) is still part of
/// the ray: it blocks and screens like any other.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Entry(u16);

/// Marks an entry that can be passed but not stopped on; squares are far below it.
const PASS_ONLY: u16 = 0x8000;

impl Entry {
    fn new(square: Square, can_stop: bool) -> Entry {
        Entry(if can_stop {
            square.raw()
        } else {
            square.raw() | PASS_ONLY
        })
    }

    /// The square.
    #[inline]
    pub(crate) fn square(self) -> Square {
        Square::at(self.0 & !PASS_ONLY)
    }

    /// Its index, for board lookups.
    #[inline]
    pub(crate) fn index(self) -> usize {
        (self.0 & !PASS_ONLY) as usize
    }

    /// Whether a move may end here.
    #[inline]
    pub(crate) fn can_stop(self) -> bool {
        self.0 & PASS_ONLY == 0
    }
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}{}",
            self.square().raw(),
            if self.can_stop() { "" } else { "!" }
        )
    }
}

/// What a path allows: its modes and its special roles.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct PathFlags(u16);

impl PathFlags {
    /// May end on an empty square.
    pub(crate) const MOVE: PathFlags = PathFlags(1);
    /// May end by capturing an enemy piece.
    pub(crate) const CAPTURE: PathFlags = PathFlags(2);
    /// The ray must pass exactly one occupied square (the screen) before it may end.
    pub(crate) const HOP: PathFlags = PathFlags(4);
    /// The squares passed become en-passant targets.
    pub(crate) const CREATES_EP: PathFlags = PathFlags(8);
    /// May capture en passant on an empty square.
    pub(crate) const TAKES_EP: PathFlags = PathFlags(16);
    /// Its en-passant captures never promote.
    pub(crate) const EP_UNPROMOTED: PathFlags = PathFlags(32768);
    /// Captures without moving.
    pub(crate) const SHOT: PathFlags = PathFlags(32);
    /// A move only while the side is in check (attacks ignore it).
    pub(crate) const IN_CHECK: PathFlags = PathFlags(64);
    /// A move only while the side is not in check (attacks ignore it).
    pub(crate) const NOT_IN_CHECK: PathFlags = PathFlags(128);
    /// May capture only the one enemy piece giving check.
    pub(crate) const TAKES_CHECKER: PathFlags = PathFlags(256);
    /// Its ends are ways of the attack tables: it may capture, or a lender's move may be lent.
    pub(crate) const WAYS: PathFlags = PathFlags(512);
    /// Its [`Condition`]: kept among the flags, as a compiled path is one of many thousands.
    const UNMOVED: PathFlags = PathFlags(1024);
    const MOVED: PathFlags = PathFlags(2048);
    /// A hop whose screen must be of certain kinds (its target rule says which).
    pub(crate) const SCREENED: PathFlags = PathFlags(4096);
    /// Two steps whose first must end on an enemy piece, captured on the way
    /// (`capturing on the way`); its target rule says which kinds.
    pub(crate) const BRIDGE: PathFlags = PathFlags(8192);
    /// Ends on the square it started from (a step there and back: a lion's pass or igui).
    pub(crate) const RETURNS: PathFlags = PathFlags(16384);
    /// Either of the two: the move generator walks such a path apart.
    pub(crate) const LION: PathFlags = PathFlags(8192 | 16384);
    /// Both modes.
    pub(crate) const MODES: PathFlags = PathFlags(1 | 2);
    /// None.
    pub(crate) const NONE: PathFlags = PathFlags(0);

    /// Whether every flag of `other` is set.
    #[inline]
    pub(crate) const fn has(self, other: PathFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether any flag of `other` is set.
    #[inline]
    pub(crate) const fn any(self, other: PathFlags) -> bool {
        self.0 & other.0 != 0
    }

    /// These flags and those of `other`.
    #[inline]
    pub(crate) const fn with(self, other: PathFlags) -> PathFlags {
        PathFlags(self.0 | other.0)
    }

    /// The flags of `self` that `other` also has.
    #[inline]
    pub(crate) const fn and(self, other: PathFlags) -> PathFlags {
        PathFlags(self.0 & other.0)
    }

    /// These flags without those of `other`.
    #[inline]
    pub(crate) const fn without(self, other: PathFlags) -> PathFlags {
        PathFlags(self.0 & !other.0)
    }

    /// Whether no flag is set.
    #[inline]
    pub(crate) const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl std::fmt::Debug for PathFlags {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names = [
            (PathFlags::MOVE, "move"),
            (PathFlags::CAPTURE, "capture"),
            (PathFlags::HOP, "hop"),
            (PathFlags::CREATES_EP, "creates-ep"),
            (PathFlags::TAKES_EP, "takes-ep"),
            (PathFlags::SHOT, "shot"),
        ];
        let set: Vec<&str> = names
            .iter()
            .filter(|(flag, _)| self.has(*flag))
            .map(|(_, n)| *n)
            .collect();
        write!(f, "[{}]", set.join(" "))
    }
}

/// What must hold in the position, beyond the squares of a path, for the path to be taken.
///
/// Geometry is compiled away; a condition is what only the game state can answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum Condition {
    /// Nothing more.
    #[default]
    Always,
    /// The piece has not moved since the start position.
    Unmoved,
    /// The piece has moved.
    Moved,
}

/// One compiled path from one square.
///
/// Its squares that must be empty (`pre`) come right before its ray in the pool, so the squares
/// a move along it passes are one run (see [`Route`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Path {
    ray_start: u32,
    pre_len: u16,
    ray_len: u16,
    /// Also its condition (see [`Path::condition`]).
    flags: PathFlags,
    /// Index of its rule on what it may capture and where it may end in
    /// [`Tables::target_rules`]; 0: any enemy piece, anywhere.
    target: u16,
}

// Paths number tens of thousands on large boards (88,800 in four-player Gala Xiang-Qi).
const _: () = assert!(std::mem::size_of::<Path>() == 12);

impl Path {
    /// A path of `flags` whose ray starts at `ray_start` in the pool, its `pre_len` squares
    /// that must be empty right before it.
    fn new(
        ray_start: u32,
        pre_len: u16,
        ray_len: u16,
        flags: PathFlags,
        condition: Condition,
        target: u16,
    ) -> Path {
        let condition = match condition {
            Condition::Always => PathFlags::NONE,
            Condition::Unmoved => PathFlags::UNMOVED,
            Condition::Moved => PathFlags::MOVED,
        };
        Path {
            ray_start,
            pre_len,
            ray_len,
            flags: flags.with(condition),
            target,
        }
    }

    /// Where its must-be-empty squares start in the pool.
    #[inline]
    fn pre_start(&self) -> u32 {
        self.ray_start - u32::from(self.pre_len)
    }

    /// The way along it to the square after `between` squares of its ray.
    #[inline]
    fn way(&self, between: u16) -> Way {
        Way {
            pre_start: self.pre_start(),
            pre_len: self.pre_len,
            between_start: self.ray_start,
            between_len: between,
            flags: self.flags,
            condition: self.condition(),
            target: self.target,
        }
    }

    /// What the path allows.
    #[inline]
    pub(crate) fn flags(&self) -> PathFlags {
        self.flags
    }

    /// What the position must satisfy.
    #[inline]
    pub(crate) fn condition(&self) -> Condition {
        if self.flags.has(PathFlags::UNMOVED) {
            Condition::Unmoved
        } else if self.flags.has(PathFlags::MOVED) {
            Condition::Moved
        } else {
            Condition::Always
        }
    }

    /// Which kinds it may capture (see [`Tables::may_capture`]).
    #[inline]
    pub(crate) fn target(&self) -> u16 {
        self.target
    }
}

/// In [`Motion::reached_by`]: several paths reach the square, so all are looked at.
const SEVERAL: u16 = u16::MAX;

/// The ways one piece on one square reaches another square, in path order (see
/// [`Tables::ways`]): the paths that may reach it, looked at in turn.
pub(crate) struct Ways<'a> {
    pool: &'a [Entry],
    paths: &'a [Path],
    to: u16,
}

impl Iterator for Ways<'_> {
    type Item = Way;

    #[inline]
    fn next(&mut self) -> Option<Way> {
        while let Some((path, rest)) = self.paths.split_first() {
            self.paths = rest;
            if !path.flags.has(PathFlags::WAYS) {
                continue;
            }
            let ray = &self.pool[path.ray_start as usize..][..path.ray_len as usize];
            // An entry a move may not end on carries a mark, so it never equals `to`.
            if let Some(i) = ray.iter().position(|e| e.0 == self.to) {
                // Shorter than a u16 (see `Path::ray_len`).
                return Some(path.way(i as u16));
            }
        }
        None
    }
}

/// One way a piece on one square reaches another square: the attack tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Way {
    pre_start: u32,
    between_start: u32,
    pre_len: u16,
    between_len: u16,
    flags: PathFlags,
    condition: Condition,
    target: u16,
}

impl Way {
    /// What the path it comes from allows.
    #[inline]
    pub(crate) fn flags(&self) -> PathFlags {
        self.flags
    }

    /// Which kinds it may capture (see [`Tables::may_capture`]).
    #[inline]
    pub(crate) fn target(&self) -> u16 {
        self.target
    }

    /// What the position must satisfy.
    #[inline]
    pub(crate) fn condition(&self) -> Condition {
        self.condition
    }
}

/// The squares a move passed on its way, as a reference into the compiled paths.
///
/// They run from the start of the path's must-be-empty squares up to the move's destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Route(u32);

/// What a path may capture and where its moves may end, beyond its squares and modes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TargetRule {
    /// The kinds it may capture, as a bit set.
    pub(crate) victims: KindSet,
    /// Only pieces of sides not on the mover's team (`capturing enemy ...`).
    pub(crate) enemies_only: bool,
    /// A condition on the part of a partition the move ends in.
    pub(crate) holding: Option<HoldingRule>,
    /// Zones the move may end in only when they hold certain pieces.
    pub(crate) entries: Vec<EntryRule>,
    /// The kinds a hop's screen may be (with [`PathFlags::SCREENED`]).
    pub(crate) screens: KindSet,
    /// Whether a wall may be a hop's screen.
    pub(crate) wall_screens: bool,
    /// The kinds a `capturing on the way` path may capture on the way.
    pub(crate) way_victims: KindSet,
    /// The kinds it may not capture where the opponents could capture back
    /// (`not capturing protected`), and whether only from afar.
    pub(crate) protected: KindSet,
    pub(crate) protected_afar: bool,
}

/// `enter ZONE only when holding PIECE...`, compiled for moves from outside the zone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EntryRule {
    pub(crate) zone: ZoneId,
    /// The moving side's kinds that count, as a bit set.
    pub(crate) friendly: KindSet,
    /// The opponents' kinds that count, as a bit set.
    pub(crate) enemy: KindSet,
}

/// `teleport next to PIECE...`, compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TeleportRule {
    /// The friendly kinds it lands next to, as a bit set.
    pub(crate) anchors: KindSet,
    /// Only from this zone.
    pub(crate) from: Option<ZoneId>,
    /// To the empty squares of this zone (instead of next to anchors).
    pub(crate) to: Option<ZoneId>,
    /// Only where its own moves could not capture on the anchor's square.
    pub(crate) not_attacking: bool,
    /// Per side: where the piece may stand (its confinements).
    pub(crate) allowed: Vec<SquareSet>,
}

/// `into PARTITION holding PIECE...`, compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct HoldingRule {
    pub(crate) partition: PartitionId,
    /// The moving side's kinds that count, as a bit set.
    pub(crate) friendly: KindSet,
    /// The opponents' kinds that count, as a bit set.
    pub(crate) enemy: KindSet,
    /// The part must hold one (`true`) or none (`false`).
    pub(crate) inside: bool,
}

/// Index of a castling move of the compiled rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CastlingId(u16);

impl CastlingId {
    /// The index, for table lookups.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl PromotionTable {
    /// Whether its choices are open only while the side has fewer of them than a limit.
    pub fn limited(&self) -> bool {
        self.only_captured || self.at_most.is_some()
    }
}

/// One `promote to` clause as it applies to one piece kind and side.
#[derive(Clone, Debug, PartialEq)]
pub struct PromotionTable {
    /// Where a move must end (or start, with `from_too`) to promote.
    pub zone: SquareSet,
    /// Starting in the zone counts too.
    pub from_too: bool,
    /// Promotion is compulsory.
    pub forced: bool,
    /// Only a capture promotes.
    pub when_capturing: bool,
    /// A choice is open only while the side has fewer of it than the setup gives it.
    pub only_captured: bool,
    /// A choice is open only while the side has fewer of it than this on the board.
    pub at_most: Option<u16>,
    /// Only a move entering the zone from outside (with `when_capturing`: or a capture that
    /// starts or ends there).
    pub when_entering: bool,
    /// Optional even where the unpromoted piece would have no move left.
    pub never_forced: bool,
    /// Made in place: the new piece may not attack an enemy piece, nor the move give check.
    pub not_attacking: bool,
    /// Made in place: the side's last piece of the kind promotes outside the zone too.
    pub anywhere_when_last: bool,
    /// What the piece may become.
    pub choices: Vec<PieceKind>,
}

impl PromotionTable {
    /// Whether a move from `from` to `to` (a capture if `captures`) may promote under this
    /// clause.
    #[inline]
    pub fn applies(&self, from: Square, to: Square, captures: bool) -> bool {
        let (ends, starts) = (self.zone.contains(to), self.zone.contains(from));
        let place = ends || (self.from_too && starts);
        match (self.when_capturing, self.when_entering) {
            (false, false) => place,
            (true, false) => place && captures,
            (false, true) => ends && !starts,
            (true, true) => (ends && !starts) || (place && captures),
        }
    }
}

/// What a move from one square to another may promote to: every clause that applies, united.
#[derive(Clone, Copy, Debug)]
pub struct PromotionChoice<'a> {
    clauses: &'a [PromotionTable],
    from: Square,
    to: Square,
    captures: bool,
    /// The piece must promote.
    pub forced: bool,
}

impl<'a> PromotionChoice<'a> {
    /// The pieces it may become, in clause order, each once.
    pub fn choices(&self) -> impl Iterator<Item = PieceKind> + 'a {
        let (clauses, from, to, captures) = (self.clauses, self.from, self.to, self.captures);
        clauses
            .iter()
            .enumerate()
            .filter(move |(_, c)| c.applies(from, to, captures))
            .flat_map(move |(i, c)| {
                c.choices.iter().copied().filter(move |k| {
                    !clauses[..i]
                        .iter()
                        .any(|e| e.applies(from, to, captures) && e.choices.contains(k))
                })
            })
    }

    /// The clauses in force that offer `kind`: a limited choice is open when one of them
    /// leaves it open.
    pub fn offering(&self, kind: PieceKind) -> impl Iterator<Item = &'a PromotionTable> + '_ {
        self.clauses.iter().filter(move |c| {
            c.applies(self.from, self.to, self.captures) && c.choices.contains(&kind)
        })
    }

    /// Whether any clause limits its choices (`only to captured`, `at most N`).
    pub fn any_limited(&self) -> bool {
        self.clauses.iter().any(PromotionTable::limited)
    }
}

/// A castling move with its precomputed square lists.
#[derive(Clone, Debug, PartialEq)]
pub struct CastlingTable {
    /// The rule.
    pub rule: Castling,
    /// Squares that must be empty (apart from the two pieces themselves).
    pub empty: Vec<Square>,
    /// Squares the king-like piece stands on or crosses, which may not be attacked.
    pub safe: Vec<Square>,
    /// The right (king and partner squares) this castling needs, an index of
    /// [`RuleTable::rights`].
    pub right: usize,
    /// The king-like piece could also step from its square to its destination, so the move is
    /// written king-to-partner (`c1a1`) instead of king-to-destination.
    pub written_to_partner: bool,
}

/// A castling right: castlings from these squares are possible while both pieces are unmoved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastlingRight {
    /// Whose.
    pub side: Side,
    /// Where the king-like piece starts.
    pub king: Square,
    /// Where the partner starts.
    pub partner: Square,
}

/// `connect N [PIECE...] [along ...] VERDICT`, compiled.
#[derive(Clone, Debug, PartialEq)]
pub struct ConnectTable {
    /// How many in a row (with `block`, how many files the block spans).
    pub count: u8,
    /// A block of `count` files by this many ranks.
    pub block: Option<u8>,
    /// `count` on one line, wherever they stand on it.
    pub gaps: bool,
    /// The kinds that count (all when none is named).
    pub kinds: KindSet,
    /// One vector per line direction walked (a row is walked from its first piece).
    pub lines: Vec<(i32, i32)>,
    /// What the side with the row gets.
    pub verdict: Verdict,
}

/// The rules with options applied.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleTable {
    /// Royals may not be left attacked; no move while attacked loses.
    pub checkmate: bool,
    /// Result for the checkmated side.
    pub checkmated: Verdict,
    /// Which royals are guarded: every one, only a side's last, or not all at once.
    pub royal_guard: RoyalGuard,
    /// A side that can capture must.
    pub must_capture: bool,
    /// A side that can drop must.
    pub must_drop: bool,
    /// Captures explode.
    pub explosions: bool,
    /// The square a piece moves from becomes a wall; a position may hold walls.
    pub leave_walls: bool,
    /// `passing allowed`.
    pub passing: bool,
    /// `gating in ZONE`.
    pub gating: Option<ZoneId>,
    /// Sides keep pieces in hand: under `drops`, or for gating.
    pub hands: bool,
    /// `captures petrify PIECE...`: the kinds that turn into a wall when they capture.
    pub petrify: KindSet,
    /// Walls may stand on the board (`moves leave walls`, `captures petrify`, `each move
    /// places a wall`).
    pub walls: bool,
    /// `each move places a wall ...`.
    pub wall_placing: Option<WallPlacing>,
    /// `passing allowed when stuck`.
    pub passing_when_stuck: bool,
    /// `moves flip ... enemies`.
    pub flip: Option<Flip>,
    /// A drop flips only next to a friendly piece.
    pub flip_drops_near_friends: bool,
    /// `full board draws`.
    pub full_board_draws: bool,
    /// `draws counted by value`: what each side adds to its pieces' values.
    pub counting: Option<Vec<f32>>,
    /// `counter-strike PIECE...`.
    pub counter_strike: KindSet,
    /// `opposite castling`.
    pub opposite_castling: bool,
    /// Some castling in force wins (`castling ..., wins`).
    pub castling_wins: bool,
    /// `connect N ...`.
    pub connect: Vec<ConnectTable>,
    /// `draws win|lose for SIDE`.
    pub draw_odds: Option<(Side, Verdict)>,
    /// `facing ... draws`: royals may face; the side to move must end it or pass, and a pass
    /// while they face draws.
    pub facing_draws: bool,
    /// A facing rule forbids royals to face (some side has facing lines, not under `draws`).
    pub facing_forbidden: bool,
    /// Whether a move is legal exactly when it leaves no royal of the mover attacked or
    /// facing: no explosions, `checks forbidden`, `facing ... draws` or gating to weigh.
    /// Drops are tested apart.
    pub plain_legality: bool,
    /// The stalemate verdict goes by piece count: to the side stuck with fewer pieces.
    pub stalemate_by_count: bool,
    /// A drop that `may not mate` may mate after all, and loses.
    pub mating_drops_lose: bool,
    /// The side giving its N-th check gets the verdict.
    pub checks: Option<(u8, Verdict)>,
    /// No move may give check.
    pub checks_forbidden: bool,
    /// A side without royals loses.
    pub extinction: bool,
    /// Result for the stalemated side.
    pub stalemate: Verdict,
    /// A side with no legal move, not in check, is passed over instead.
    pub stalemate_passes: bool,
    /// What becomes of the pieces of a side out of the running.
    pub eliminated: Elimination,
    /// The last two players in the running may agree to share the victory.
    pub shared_victory: bool,
    /// Whether a turn may end other than with the next side to move: sides passed over, or
    /// sides put out of the running (more than two sides, or `stalemate passes`).
    pub turns_settle: bool,
    /// Board vectors along which opposing royals may not face, per side.
    pub facing: Vec<Vec<(i32, i32)>>,
    /// Repetition.
    pub repetition: Option<RepetitionRule>,
    /// Ply limit.
    pub move_limit: Option<u32>,
    /// Pieces in hand may be dropped.
    pub drops: bool,
    /// Captured pieces go to hand.
    pub captures_to_hand: bool,
    /// Castling moves in force.
    pub castlings: Vec<CastlingTable>,
    /// The distinct (king, partner) square pairs of the castlings, which FEN lists.
    pub rights: Vec<CastlingRight>,
    /// Per right: the kinds of its king-like piece and its partner.
    pub right_pieces: Vec<(PieceKind, PieceKind)>,
    /// The `when` rules in force: their index among the definition's, and the rule.
    pub conditions: Vec<(u16, WhenTable)>,
}

/// A `when` rule, compiled.
#[derive(Clone, Debug, PartialEq)]
pub struct WhenTable {
    /// The counts, all of which must hold.
    pub terms: Vec<CountTable>,
    /// The result for the side the terms hold for.
    pub verdict: Verdict,
    /// Which sides it asks about.
    pub asks: Asks,
    /// `, unless answered`.
    pub answerable: bool,
}

/// One count of a `when` rule, compiled.
#[derive(Clone, Debug, PartialEq)]
pub struct CountTable {
    /// How `count` bounds the number of pieces.
    pub bound: Bound,
    /// The number.
    pub count: u32,
    /// Whether it counts the opponents' pieces.
    pub enemy: bool,
    /// Only pieces no opponent of their owner attacks.
    pub safe: bool,
    /// The kinds, as a bit set of kind indices.
    pub kinds: KindSet,
    /// Only pieces in this zone (per side), if any.
    pub zone: Option<Vec<SquareSet>>,
    /// Pieces in hand count too.
    pub hand: bool,
}

impl RuleTable {
    /// Whether a royal's safety limits the moves: checks or facing rules.
    #[inline]
    pub fn guards_royals(&self) -> bool {
        self.checkmate || self.checks_forbidden || self.facing.iter().any(|f| !f.is_empty())
    }
}

/// Everything the engine needs, compiled from a variant and a choice of options, in parts
/// each built whole before the tables are put together.
pub struct Tables {
    variant: Variant,
    options: Vec<bool>,
    geometry: Geometry,
    sides: usize,
    kinds: usize,
    motion: Motion,
    pieces: PieceTable,
    rules: RuleTable,
    watch: Watch,
    start: Start,
}

/// How the pieces move: the paths from every square, the ways between two squares, and what
/// their captures may take.
#[derive(PartialEq)]
pub(super) struct Motion {
    /// Square runs shared by paths and ways.
    pool: Vec<Entry>,
    /// All paths, grouped by (kind, side, square).
    paths: Vec<Path>,
    path_index: Vec<(u32, u32)>,
    /// Whether two paths from a (kind, side, square) can produce the same move.
    may_repeat: Vec<bool>,
    /// Per (kind, side, from): a bit for every square some way from there reaches,
    /// `reach_words` words each, so that a square out of reach costs one load. Sparse: on a
    /// 16x16 board with four sides, a (from, to) index would take megabytes for the few
    /// pairs a piece can reach.
    reach: Vec<u64>,
    reach_words: usize,
    /// Per (kind, side, from), and one past the last: where its squares reached start in
    /// `reached_by`.
    reach_start: Vec<u32>,
    /// Per square reached, in square order: the one path (among its square's) that reaches
    /// it, or [`SEVERAL`] when more than one does.
    reached_by: Vec<u16>,
    /// The kinds each capture predicate allows, as bit sets; entry 0 allows every kind.
    target_rules: Vec<TargetRule>,
}

impl Motion {
    /// The paths from one (kind, side, square), by its index.
    #[inline]
    fn paths(&self, i: usize) -> &[Path] {
        let (a, b) = self.path_index[i];
        &self.paths[a as usize..b as usize]
    }

    /// The squares that must be empty for `path`, then its ray.
    #[inline]
    fn path_runs(&self, path: &Path) -> (&[Entry], &[Entry]) {
        let run = |start: u32, len: u16| &self.pool[start as usize..][..len as usize];
        (
            run(path.pre_start(), path.pre_len),
            run(path.ray_start, path.ray_len),
        )
    }

    /// The squares that must be empty for `way`, then those its ray passes before its end.
    #[inline]
    fn way_runs(&self, way: &Way) -> (&[Entry], &[Entry]) {
        (
            &self.pool[way.pre_start as usize..][..way.pre_len as usize],
            &self.pool[way.between_start as usize..][..way.between_len as usize],
        )
    }

    /// The ways from one (kind, side, square), by its index, to `to`.
    // Always inlined: the attack test asks this for every enemy piece, and most answers are
    // the one load and bit test of a square out of reach.
    #[inline(always)]
    fn ways(&self, i: usize, to: Square) -> Ways<'_> {
        let (word, bit) = (to.index() / 64, to.index() % 64);
        let words = &self.reach[i * self.reach_words..];
        let paths = if words[word] >> bit & 1 == 0 {
            &[]
        } else {
            self.reaching(i, words, word, bit)
        };
        Ways {
            pool: &self.pool,
            paths,
            to: to.raw(),
        }
    }

    /// The paths that may reach the square at `bit` of `word`, known to be in reach.
    #[inline]
    fn reaching(&self, i: usize, words: &[u64], word: usize, bit: usize) -> &[Path] {
        let rank = words[..word].iter().map(|w| w.count_ones()).sum::<u32>()
            + (words[word] & ((1u64 << bit) - 1)).count_ones();
        let paths = self.paths(i);
        match self.reached_by[self.reach_start[i] as usize + rank as usize] {
            SEVERAL => paths,
            by => &paths[by as usize..][..1],
        }
    }

    /// Every way from one (kind, side, square), by its index, with the square it reaches.
    fn ways_from(&self, i: usize) -> impl Iterator<Item = (Square, Way)> + '_ {
        self.paths(i)
            .iter()
            .filter(|p| p.flags.has(PathFlags::WAYS))
            .flat_map(|p| {
                let ray = &self.pool[p.ray_start as usize..][..p.ray_len as usize];
                (0..)
                    .zip(ray)
                    .filter(|(_, e)| e.can_stop())
                    .map(|(i, e)| (e.square(), p.way(i)))
            })
    }
}

/// What each kind of piece is, besides its moves: promotions, drops, royalty, teleports.
#[derive(PartialEq)]
pub(super) struct PieceTable {
    /// `promote to` clauses, grouped by (kind, side).
    promotions: Vec<PromotionTable>,
    promotion_index: Vec<(u32, u32)>,
    /// The clauses whose promotion is a move of its own (`, in place`), as `promotions`.
    in_place: Vec<PromotionTable>,
    in_place_index: Vec<(u32, u32)>,
    any_in_place: bool,
    /// Squares where the piece would have no move, per (kind, side).
    dead: Vec<SquareSet>,
    /// Squares a piece may be dropped on, per (kind, side), before per-file and mate rules.
    drop_squares: Vec<SquareSet>,
    royal: Vec<bool>,
    demoted: Vec<PieceKind>,
    resets_clock: Vec<bool>,
    immunity: Vec<Immunity>,
    borrows: Vec<bool>,
    has_borrowing: bool,
    /// Per kind: whether it captures on the way (`capturing on the way`).
    bridges: Vec<bool>,
    /// Per kind: whether it attacks otherwise than along its ways (borrowing or bridges).
    special_attacks: Vec<bool>,
    /// Per kind: its teleports under the options in force.
    teleports: Vec<Vec<TeleportRule>>,
    any_teleports: bool,
    /// Per kind: whether it takes some enemy kind's first-move state by aiming at it.
    aimers: Vec<bool>,
    /// Kinds whose drop is compulsory while one is in hand.
    compulsory_drops: Vec<PieceKind>,
    /// Kinds whose pieces must end on squares of both colours (`drop on both colours`).
    colour_bound: Vec<PieceKind>,
    /// Whether some promotion clause asks whether the move captures.
    promotes_on_capture: bool,
    /// Per kind: the kind it is counted as, the piece it looks like for a `~` kind whose
    /// letter without the mark is a kind too (a crazyhouse `Q~` counts as a queen).
    counted_as: Vec<PieceKind>,
}

/// What the legality test and the pieces' state watch: squares whose change may expose a
/// royal, squares whose first move counts, where en passant may be taken from.
#[derive(PartialEq)]
pub(super) struct Watch {
    /// Squares whose vacating may expose a royal on a square, per (side, royal square).
    from_sensitive: Vec<SquareSet>,
    /// Squares whose filling may expose a royal (a new cannon screen), per (side, royal square).
    to_sensitive: Vec<SquareSet>,
    /// Squares whose piece's "has it moved" state some rule reads.
    tracked: SquareSet,
    /// The tracked squares whose pieces' own patterns ask (the others are castling squares).
    first_move: SquareSet,
    /// The start squares whose first-move state the FEN's castling field notes.
    fen_noted: SquareSet,
    /// Per (capturing side, target square): the kinds and squares that could capture en
    /// passant there.
    ep_sources: Vec<Vec<(PieceKind, Square)>>,
    has_en_passant: bool,
}

/// The start of the game under the options in force: the pieces, the hands and the teams.
#[derive(PartialEq)]
pub(super) struct Start {
    /// The start position under the options in force.
    setup: Vec<super::variant::Placement>,
    /// Per (kind, side): how many the start position puts on the board.
    setup_counts: Vec<u16>,
    /// Pieces in hand at the start (side, kind).
    setup_hand: Vec<(Side, PieceKind)>,
    /// Whether the start position has a royal piece.
    royal_at_start: bool,
    /// Each side's team under the options in force.
    teams: [u8; MAX_SIDES],
}

/// Most square entries the compiled paths may hold (two bytes each).
pub const MAX_POOL: usize = 32 << 20;

/// Why a variant could not be compiled with a choice of options.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// The paths would not fit in memory.
    #[error("the move tables grow past {MAX_POOL} entries at `{piece}`; limit multi-leg slides with `up to N`")]
    TooLarge {
        /// The piece whose paths overflowed.
        piece: String,
    },
    /// The name is not an option of the variant.
    #[error("unknown option `{name}` (this variant has: {known})")]
    Unknown {
        /// The name given.
        name: String,
        /// The names it has.
        known: String,
    },
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The tables run to megabytes; a summary is what a reader of a debug dump wants.
        f.debug_struct("Tables")
            .field("variant", &self.variant.name())
            .field("options", &self.options)
            .field("paths", &self.motion.paths.len())
            .field("reached", &self.motion.reached_by.len())
            .field("pool", &self.motion.pool.len())
            .field("bytes", &self.table_bytes())
            .finish_non_exhaustive()
    }
}

fn guards_hold(options: &[bool], guards: &[OptionGuard]) -> bool {
    guards
        .iter()
        .all(|g| options[g.option.0 as usize] == g.when_on)
}

impl Tables {
    /// The bytes the parts that grow with the board and the pieces take: the paths, the
    /// index of the squares each piece reaches, and the squares the legality test watches.
    pub fn table_bytes(&self) -> usize {
        fn bytes<T>(v: &[T]) -> usize {
            std::mem::size_of_val(v)
        }
        let m = &self.motion;
        let w = &self.watch;
        bytes(&m.pool)
            + bytes(&m.paths)
            + bytes(&m.path_index)
            + bytes(&m.may_repeat)
            + bytes(&m.reach)
            + bytes(&m.reach_start)
            + bytes(&m.reached_by)
            + bytes(&w.from_sensitive)
            + bytes(&w.to_sensitive)
            + w.ep_sources.iter().map(|v| bytes(v)).sum::<usize>()
    }

    /// Compiles `variant` with its default options, changed by `set` (`name`, `value`) pairs.
    ///
    /// # Errors
    /// If a name in `set` is not an option of the variant, or the tables grow too large.
    pub fn compile(variant: &Variant, set: &[(String, bool)]) -> Result<Tables, CompileError> {
        let mut options: Vec<bool> = variant.options().iter().map(|o| o.default).collect();
        for (name, value) in set {
            match variant.option_by_name(name) {
                Some(id) => options[id.0 as usize] = *value,
                None => {
                    let known: Vec<&str> =
                        variant.options().iter().map(|o| o.name.as_str()).collect();
                    return Err(CompileError::Unknown {
                        name: name.clone(),
                        known: if known.is_empty() {
                            "no options".into()
                        } else {
                            known.join(", ")
                        },
                    });
                }
            }
        }
        build::build(variant.clone(), options)
    }

    /// Whether `other` compiles the same game: every table that decides play is equal, the
    /// option values themselves aside.
    pub fn same_game(&self, other: &Tables) -> bool {
        // Every part is built from the variant and the options alone, so equal parts play
        // the same game; the options themselves may differ.
        self.motion == other.motion
            && self.pieces == other.pieces
            && self.rules == other.rules
            && self.watch == other.watch
            && self.start == other.start
    }

    /// The variant the tables were compiled from.
    #[inline]
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The option values in force, by [`OptionId`](super::OptionId).
    pub fn options(&self) -> &[bool] {
        &self.options
    }

    /// The board.
    #[inline]
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Number of sides.
    #[inline]
    pub fn sides(&self) -> usize {
        self.sides
    }

    /// Number of piece kinds.
    #[inline]
    pub fn kinds(&self) -> usize {
        self.kinds
    }

    /// The rules in force.
    #[inline]
    pub fn rules(&self) -> &RuleTable {
        &self.rules
    }

    /// A castling of the rules in force.
    #[inline]
    pub fn castling(&self, id: CastlingId) -> &CastlingTable {
        &self.rules.castlings[id.index()]
    }

    /// The castlings in force with their ids.
    pub fn castlings(&self) -> impl Iterator<Item = (CastlingId, &CastlingTable)> {
        self.rules.castlings.iter().enumerate().map(|(i, c)| {
            let id = u16::try_from(i).expect("the checker bounds the castlings");
            (CastlingId(id), c)
        })
    }

    /// `side`'s team under the options in force (its own index when it plays for itself).
    #[inline]
    pub fn team(&self, side: Side) -> u8 {
        self.start.teams[side.index()]
    }

    /// Whether `a` and `b` play on one team (a side is its own partner).
    #[inline]
    pub fn partners(&self, a: Side, b: Side) -> bool {
        self.team(a) == self.team(b)
    }

    /// The start position under the options in force.
    pub fn setup(&self) -> &[super::variant::Placement] {
        &self.start.setup
    }

    /// How many pieces of `kind` the setup puts on the board for `side`.
    #[inline]
    pub fn setup_count(&self, kind: PieceKind, side: Side) -> usize {
        self.start.setup_counts[self.ks(kind, side)] as usize
    }

    /// Whether some promotion clause in force applies only to captures (`when capturing`).
    #[inline]
    pub fn promotes_on_capture(&self) -> bool {
        self.pieces.promotes_on_capture
    }

    /// The pieces in hand at the start under the options in force.
    pub fn setup_hand(&self) -> &[(Side, PieceKind)] {
        &self.start.setup_hand
    }

    /// Whether a path or way with target rule `target`, of side `by`, may capture a piece of
    /// `kind` of side `owner`.
    #[inline]
    pub(crate) fn may_capture(&self, target: u16, kind: PieceKind, by: Side, owner: Side) -> bool {
        target == 0 || self.target_allows(target, kind, by, owner)
    }

    /// [`Tables::may_capture`] for a path with a target rule: kept out of line, as most paths
    /// have none and the attack test runs on every legality check.
    #[inline(never)]
    fn target_allows(&self, target: u16, kind: PieceKind, by: Side, owner: Side) -> bool {
        let rule = &self.motion.target_rules[target as usize];
        rule.victims.contains(kind) && !(rule.enemies_only && self.partners(by, owner))
    }

    /// Whether board cell `cell` (a piece or a wall) may be the screen of a hop with target
    /// rule `target` and [`PathFlags::SCREENED`]. Cells number pieces as the position does:
    /// `kind * sides + side + 1`.
    #[inline(never)]
    pub(crate) fn screen_allowed(&self, target: u16, cell: u8) -> bool {
        let rule = &self.motion.target_rules[target as usize];
        if cell == WALL {
            return rule.wall_screens;
        }
        let kind = (usize::from(cell) - 1) / self.sides;
        rule.screens.contains(PieceKind::nth(kind))
    }

    /// The rule of a path or way with target rule `target` on the part its move ends in.
    #[inline]
    /// Whether a `capturing on the way` path with target rule `target`, of side `by`, may
    /// capture a piece of `kind` of side `owner` on its way.
    pub(crate) fn may_capture_on_way(
        &self,
        target: u16,
        kind: PieceKind,
        by: Side,
        owner: Side,
    ) -> bool {
        let rule = &self.motion.target_rules[target as usize];
        owner != by
            && rule.way_victims.contains(kind)
            && !(rule.enemies_only && self.partners(by, owner))
    }

    /// Under `not capturing protected`: the kinds a path with target rule `target` may not
    /// capture where they are protected, and whether only from afar.
    pub(crate) fn protected_victims(&self, target: u16) -> (KindSet, bool) {
        let rule = &self.motion.target_rules[target as usize];
        (rule.protected, rule.protected_afar)
    }

    pub(crate) fn holding(&self, target: u16) -> Option<&HoldingRule> {
        self.motion.target_rules[target as usize].holding.as_ref()
    }

    /// The squares of zone `zone` for `side`.
    #[inline]
    pub(crate) fn zone(&self, zone: ZoneId, side: Side) -> &SquareSet {
        &self.variant.zones()[zone.0 as usize].squares[side.index()]
    }

    /// The entry conditions of a path or way with target rule `target`.
    #[inline]
    pub(crate) fn entries(&self, target: u16) -> &[EntryRule] {
        &self.motion.target_rules[target as usize].entries
    }

    /// The part of partition `partition` that `sq` lies in, for `side`.
    #[inline]
    pub(crate) fn part_of(&self, partition: PartitionId, side: Side, sq: Square) -> u16 {
        self.variant.partitions()[partition.0 as usize].part_of[side.index()][sq.index()]
    }

    /// Whether every guard holds under the options in force.
    pub fn guards_hold(&self, guards: &[OptionGuard]) -> bool {
        guards_hold(&self.options, guards)
    }

    /// Whether the start position under the options in force has a royal piece.
    #[inline]
    pub fn royal_at_start(&self) -> bool {
        self.start.royal_at_start
    }

    /// Whether pieces of `kind` are royal.
    #[inline]
    pub fn royal(&self, kind: PieceKind) -> bool {
        self.pieces.royal[kind.index()]
    }

    /// What a captured piece of `kind` becomes in its captor's hand.
    #[inline]
    pub fn demoted(&self, kind: PieceKind) -> PieceKind {
        self.pieces.demoted[kind.index()]
    }

    /// Whether a move of `kind` resets the move-limit clock.
    #[inline]
    pub fn resets_clock(&self, kind: PieceKind) -> bool {
        self.pieces.resets_clock[kind.index()]
    }

    /// What explosions spare of `kind`.
    #[inline]
    pub fn immunity(&self, kind: PieceKind) -> Immunity {
        self.pieces.immunity[kind.index()]
    }

    /// Whether `kind` borrows the movement of friendly pieces.
    #[inline]
    pub fn borrows(&self, kind: PieceKind) -> bool {
        self.pieces.borrows[kind.index()]
    }

    /// The teleports of `kind` (none for most variants: the test is one branch).
    #[inline]
    pub(crate) fn teleports(&self, kind: PieceKind) -> &[TeleportRule] {
        if self.pieces.any_teleports {
            &self.pieces.teleports[kind.index()]
        } else {
            &[]
        }
    }

    /// Whether `kind` captures on the way (`capturing on the way`).
    #[inline]
    pub fn bridges(&self, kind: PieceKind) -> bool {
        self.pieces.bridges[kind.index()]
    }

    /// Whether `kind` attacks otherwise than along its ways: by borrowed powers, or over a
    /// piece it captures on the way.
    #[inline]
    pub fn special_attacks(&self, kind: PieceKind) -> bool {
        self.pieces.special_attacks[kind.index()]
    }

    /// Whether any kind borrows.
    #[inline]
    pub fn has_borrowing(&self) -> bool {
        self.pieces.has_borrowing
    }

    /// The start squares whose first-move state the FEN's castling field notes
    /// (`unmoved noted in fen`).
    #[inline]
    pub fn fen_noted_squares(&self) -> &SquareSet {
        &self.watch.fen_noted
    }

    /// Whether a move of `kind` may take an enemy's first-move state by aiming at it
    /// (`unmoved lost when aimed by`).
    #[inline]
    pub fn aims(&self, kind: PieceKind) -> bool {
        self.pieces.aimers[kind.index()]
    }

    /// The kind `kind` is counted as by promotion limits (`Q~` as `Q`).
    #[inline]
    pub fn counted_as(&self, kind: PieceKind) -> PieceKind {
        self.pieces.counted_as[kind.index()]
    }

    /// The kinds whose drop is compulsory while one is in hand (`drop compulsory`).
    #[inline]
    pub fn compulsory_drops(&self) -> &[PieceKind] {
        &self.pieces.compulsory_drops
    }

    /// The kinds whose pieces must end on squares of both colours (`drop on both colours`).
    #[inline]
    pub fn colour_bound(&self) -> &[PieceKind] {
        &self.pieces.colour_bound
    }

    /// Whether any path creates en-passant targets.
    #[inline]
    pub fn has_en_passant(&self) -> bool {
        self.watch.has_en_passant
    }

    /// Squares where `kind` of `side` would have no move at all.
    #[inline]
    pub fn dead_squares(&self, kind: PieceKind, side: Side) -> &SquareSet {
        &self.pieces.dead[self.ks(kind, side)]
    }

    /// Squares `kind` of `side` may be dropped on, before per-file and mate rules.
    #[inline]
    pub fn drop_squares(&self, kind: PieceKind, side: Side) -> &SquareSet {
        &self.pieces.drop_squares[self.ks(kind, side)]
    }

    /// Squares whose piece's "has it moved" state a rule reads (castling squares, the start
    /// squares of pieces with first-move patterns).
    #[inline]
    pub fn tracked_squares(&self) -> &SquareSet {
        &self.watch.tracked
    }

    /// The start squares of pieces whose own patterns ask whether they moved.
    #[inline]
    pub fn first_move_squares(&self) -> &SquareSet {
        &self.watch.first_move
    }

    /// The `promote to` clauses of `kind` for `side`.
    #[inline]
    pub fn promotions(&self, kind: PieceKind, side: Side) -> &[PromotionTable] {
        let (a, b) = self.pieces.promotion_index[self.ks(kind, side)];
        &self.pieces.promotions[a as usize..b as usize]
    }

    /// Whether `kind` of `side` has any promotion clause in force.
    #[inline]
    pub fn may_promote(&self, kind: PieceKind, side: Side) -> bool {
        let (a, b) = self.pieces.promotion_index[self.ks(kind, side)];
        a != b
    }

    /// Whether some piece promotes by a move of its own (`, in place`).
    #[inline]
    pub fn any_in_place(&self) -> bool {
        self.pieces.any_in_place
    }

    /// The `, in place` promotion clauses of `kind` for `side`.
    pub fn in_place_promotions(&self, kind: PieceKind, side: Side) -> &[PromotionTable] {
        let (a, b) = self.pieces.in_place_index[self.ks(kind, side)];
        &self.pieces.in_place[a as usize..b as usize]
    }

    /// What a move of `kind` for `side` from `from` to `to` (a capture if `captures`) may
    /// promote to, if anything.
    #[inline]
    pub fn promotion(
        &self,
        kind: PieceKind,
        side: Side,
        from: Square,
        to: Square,
        captures: bool,
    ) -> Option<PromotionChoice<'_>> {
        let ks = self.ks(kind, side);
        let (a, b) = self.pieces.promotion_index[ks];
        if a == b {
            return None;
        }
        let clauses = &self.pieces.promotions[a as usize..b as usize];
        let mut applies = false;
        let mut forced = false;
        let mut optional = false;
        for c in clauses {
            if c.applies(from, to, captures) {
                applies = true;
                forced |= c.forced;
                optional |= c.never_forced;
            }
        }
        applies.then(|| PromotionChoice {
            clauses,
            from,
            to,
            captures,
            forced: forced || (!optional && self.pieces.dead[ks].contains(to)),
        })
    }

    /// The paths of `kind` for `side` from `sq`.
    #[inline]
    pub(crate) fn paths(&self, kind: PieceKind, side: Side, sq: Square) -> &[Path] {
        self.motion.paths(self.pss(kind, side, sq))
    }

    /// Whether the paths of `kind` for `side` from `sq` may yield one move twice.
    #[inline]
    pub(crate) fn may_repeat(&self, kind: PieceKind, side: Side, sq: Square) -> bool {
        self.motion.may_repeat[self.pss(kind, side, sq)]
    }

    /// The ways `kind` of `side` on `from` reaches `to`.
    #[inline(always)]
    pub(crate) fn ways(&self, kind: PieceKind, side: Side, from: Square, to: Square) -> Ways<'_> {
        self.motion.ways(self.pss(kind, side, from), to)
    }

    /// The squares that must be empty for `way`, then those its ray passes before its end.
    #[inline]
    pub(crate) fn way_runs(&self, way: &Way) -> (&[Entry], &[Entry]) {
        self.motion.way_runs(way)
    }

    /// The squares that must be empty for `path`, then its ray.
    #[inline]
    pub(crate) fn path_runs(&self, path: &Path) -> (&[Entry], &[Entry]) {
        self.motion.path_runs(path)
    }

    /// The route of a move along `path`: the squares it passes on the way to its end.
    #[inline]
    pub(crate) fn route(&self, path: &Path) -> Route {
        Route(path.pre_start())
    }

    /// The squares a move along `route` passed before reaching `to`, in order.
    pub fn passed(&self, route: Route, to: Square) -> impl Iterator<Item = Square> + '_ {
        self.motion.pool[route.0 as usize..]
            .iter()
            .map(|e| e.square())
            .take_while(move |s| *s != to)
    }

    /// Per (capturing side, target): the pieces that could capture en passant there.
    #[inline]
    pub(crate) fn ep_sources(&self, side: Side, target: Square) -> &[(PieceKind, Square)] {
        // Empty where no piece takes en passant: a FEN may still name a square.
        self.watch
            .ep_sources
            .get(side.index() * self.geometry.len() + target.index())
            .map_or(&[], Vec::as_slice)
    }

    /// Squares whose vacating may expose a royal of `side` standing on `royal`.
    #[inline]
    pub(crate) fn vacate_sensitive(&self, side: Side, royal: Square) -> &SquareSet {
        &self.watch.from_sensitive[side.index() * self.geometry.len() + royal.index()]
    }

    /// Squares whose filling may expose a royal of `side` standing on `royal`.
    #[inline]
    pub(crate) fn fill_sensitive(&self, side: Side, royal: Square) -> &SquareSet {
        &self.watch.to_sensitive[side.index() * self.geometry.len() + royal.index()]
    }

    #[inline]
    fn ks(&self, kind: PieceKind, side: Side) -> usize {
        kind.index() * self.sides + side.index()
    }

    #[inline]
    fn pss(&self, kind: PieceKind, side: Side, sq: Square) -> usize {
        self.ks(kind, side) * self.geometry.len() + sq.index()
    }
}
