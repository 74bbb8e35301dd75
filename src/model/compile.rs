//! Compiles a [`Variant`] and a choice of options into the tables move generation walks.
//!
//! Zones are static, so the geometry of every path a piece can take is fixed per
//! (piece, side, square). Everything is expanded here once: a path is a list of squares that
//! must be empty (the legs before the last) and a ray (the last leg's squares, walked until
//! blocked). The engine only checks occupancy along these lists.

use super::square::{Geometry, Square};
use super::square_set::SquareSet;
use super::variant::{
    Castling, Dirs, LegKind, OptionGuard, PieceKind, RepetitionRule, Side, Variant, Verdict,
};

/// Set on a ray entry whose square can be passed but not stopped on (confinement).
pub const NO_STOP: u16 = 0x8000;

/// Path flag: may end on an empty square.
pub const CAN_MOVE: u8 = 1;
/// Path flag: may capture an enemy piece.
pub const CAN_CAPTURE: u8 = 2;
/// Path flag: the ray must pass exactly one occupied square before it may end.
pub const HOP: u8 = 4;
/// Path flag: the squares passed become en-passant targets.
pub const CREATES_EP: u8 = 8;
/// Path flag: may capture en passant.
pub const TAKES_EP: u8 = 16;

/// One compiled path from one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Path {
    /// Start of the must-be-empty squares in [`Tables::pool`].
    pub pre_start: u32,
    /// How many must-be-empty squares.
    pub pre_len: u16,
    /// How many ray entries.
    pub ray_len: u16,
    /// Start of the ray entries in [`Tables::pool`] (square, or'ed with [`NO_STOP`]).
    pub ray_start: u32,
    /// `CAN_MOVE`, `CAN_CAPTURE`, `HOP`, `CREATES_EP`, `TAKES_EP`.
    pub flags: u8,
}

/// One way a piece on one square attacks another square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Way {
    /// Start of the must-be-empty squares in [`Tables::pool`].
    pub pre_start: u32,
    /// How many of them.
    pub pre_len: u16,
    /// How many ray squares lie between the path's start and the target.
    pub between_len: u16,
    /// Start of those ray squares in [`Tables::pool`] (may carry [`NO_STOP`]).
    pub between_start: u32,
    /// The between squares must hold exactly one piece (else: none).
    pub hop: bool,
    /// The flags of the path it comes from (`CAN_CAPTURE` for an attack).
    pub flags: u8,
}

/// Promotion as it applies to one piece kind and side.
#[derive(Clone, Debug, PartialEq)]
pub struct PromotionTable {
    /// Where a move must end (or start, with `from_too`) to promote.
    pub zone: SquareSet,
    /// Starting in the zone counts too.
    pub from_too: bool,
    /// Promotion is compulsory.
    pub forced: bool,
    /// What the piece may become.
    pub choices: Vec<PieceKind>,
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
    /// The castling-rights bit this rule needs.
    pub right: u8,
    /// The king-like piece could also step from its square to its destination, so the move is
    /// written king-to-partner (`c1a1`) instead of king-to-destination.
    pub written_to_partner: bool,
}

/// The rules with options applied.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleTable {
    /// Royals may not be left attacked; no move while attacked loses.
    pub checkmate: bool,
    /// A side without royals loses.
    pub extinction: bool,
    /// Result for the stalemated side.
    pub stalemate: Verdict,
    /// Board vectors along which opposing royals may not face, per side.
    pub facing: Vec<Vec<(i32, i32)>>,
    /// Repetition.
    pub repetition: Option<RepetitionRule>,
    /// Ply limit.
    pub move_limit: Option<u32>,
    /// Captured pieces go to hand.
    pub drops: bool,
    /// Castling moves in force.
    pub castlings: Vec<CastlingTable>,
    /// Castling rights: the side and the square whose piece must not have moved, per bit.
    pub rights: Vec<(Side, Square)>,
}

/// Everything the engine needs, compiled from a variant and a choice of options.
pub struct Tables {
    /// The variant the tables were compiled from.
    pub variant: Variant,
    /// The option values in force, by [`OptionId`](super::OptionId).
    pub options: Vec<bool>,
    /// The board.
    pub geometry: Geometry,
    /// Number of sides.
    pub sides: usize,
    /// Number of piece kinds.
    pub kinds: usize,
    /// Square lists shared by paths and ways.
    pub pool: Vec<u16>,
    /// All paths, grouped by (kind, side, square).
    pub paths: Vec<Path>,
    path_index: Vec<(u32, u32)>,
    /// Whether two paths from a (kind, side, square) can produce the same move.
    may_repeat: Vec<bool>,
    /// All ways, grouped by (kind, side, from, to).
    pub ways: Vec<Way>,
    way_offsets: Vec<Vec<u32>>,
    /// Promotion per (kind, side).
    pub promotions: Vec<Option<PromotionTable>>,
    /// Squares where the piece would have no move, per (kind, side).
    pub dead: Vec<SquareSet>,
    /// Squares a piece may be dropped on, per (kind, side), before per-file and mate rules.
    pub drop_squares: Vec<SquareSet>,
    /// Royal flag per kind.
    pub royal: Vec<bool>,
    /// The kind a captured piece becomes in hand.
    pub demoted: Vec<PieceKind>,
    /// Whether a move by this kind resets the move-limit clock.
    pub resets_clock: Vec<bool>,
    /// The rules.
    pub rules: RuleTable,
    /// Squares whose vacating may expose a royal on a square, per (side, royal square).
    pub from_sensitive: Vec<SquareSet>,
    /// Squares whose filling may expose a royal (a new cannon screen), per (side, royal square).
    pub to_sensitive: Vec<SquareSet>,
    /// Whether any pattern creates en-passant targets.
    pub has_en_passant: bool,
    /// Whether a piece kind borrows the movement of friendly pieces.
    pub borrows: Vec<bool>,
    /// Whether any piece kind borrows.
    pub has_borrowing: bool,
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
            .field("variant", &self.variant.name)
            .field("options", &self.options)
            .field("paths", &self.paths.len())
            .field("ways", &self.ways.len())
            .field("pool", &self.pool.len())
            .finish_non_exhaustive()
    }
}

impl Tables {
    /// Compiles `variant` with its default options, changed by `set` (`name`, `value`) pairs.
    ///
    /// # Errors
    /// If a name in `set` is not an option of the variant.
    pub fn compile(variant: &Variant, set: &[(String, bool)]) -> Result<Tables, CompileError> {
        let mut options: Vec<bool> = variant.options.iter().map(|o| o.default).collect();
        for (name, value) in set {
            match variant.option_by_name(name) {
                Some(id) => options[id.0 as usize] = *value,
                None => {
                    let known: Vec<&str> =
                        variant.options.iter().map(|o| o.name.as_str()).collect();
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
        Builder::new(variant.clone(), options).build()
    }

    /// The paths of `kind` for `side` from `sq`.
    #[inline]
    pub fn paths(&self, kind: PieceKind, side: Side, sq: Square) -> &[Path] {
        let (a, b) = self.path_index[self.pss(kind, side, sq)];
        &self.paths[a as usize..b as usize]
    }

    /// Whether the paths of `kind` for `side` from `sq` may yield one move twice.
    #[inline]
    pub fn may_repeat(&self, kind: PieceKind, side: Side, sq: Square) -> bool {
        self.may_repeat[self.pss(kind, side, sq)]
    }

    /// The ways `kind` of `side` on `from` attacks `to`.
    #[inline]
    pub fn ways(&self, kind: PieceKind, side: Side, from: Square, to: Square) -> &[Way] {
        let offsets = &self.way_offsets[kind.index() * self.sides + side.index()];
        if offsets.is_empty() {
            return &[];
        }
        let i = from.index() * self.geometry.len() + to.index();
        &self.ways[offsets[i] as usize..offsets[i + 1] as usize]
    }

    /// The squares of a pool range.
    #[inline]
    pub fn squares(&self, start: u32, len: u16) -> &[u16] {
        &self.pool[start as usize..start as usize + len as usize]
    }

    /// Index for per-(kind, side) tables.
    #[inline]
    pub fn ks(&self, kind: PieceKind, side: Side) -> usize {
        kind.index() * self.sides + side.index()
    }

    #[inline]
    fn pss(&self, kind: PieceKind, side: Side, sq: Square) -> usize {
        (kind.index() * self.sides + side.index()) * self.geometry.len() + sq.index()
    }

    /// Whether every guard holds under the options in force.
    pub fn guards_hold(&self, guards: &[OptionGuard]) -> bool {
        guards_hold(&self.options, guards)
    }
}

fn guards_hold(options: &[bool], guards: &[OptionGuard]) -> bool {
    guards
        .iter()
        .all(|g| options[g.option.0 as usize] == g.when_on)
}

/// The two directions 45 degrees off `v`, as unit steps.
fn outward(v: (i32, i32)) -> [(i32, i32); 2] {
    let (sx, sy) = (v.0.signum(), v.1.signum());
    if sx == 0 {
        [(1, sy), (-1, sy)]
    } else if sy == 0 {
        [(sx, 1), (sx, -1)]
    } else {
        [(sx, 0), (0, sy)]
    }
}

struct RawPath {
    pre: Vec<Square>,
    ray: Vec<u16>,
    flags: u8,
}

struct Builder {
    variant: Variant,
    options: Vec<bool>,
    g: Geometry,
    pool: Vec<u16>,
}

impl Builder {
    fn new(variant: Variant, options: Vec<bool>) -> Builder {
        let g = variant.geometry;
        Builder {
            variant,
            options,
            g,
            pool: Vec::new(),
        }
    }

    fn zone(&self, id: super::ZoneId, side: Side) -> &SquareSet {
        &self.variant.zones[id.0 as usize].squares[side.index()]
    }

    /// Squares where moves of `kind` for `side` may end.
    fn allowed(&self, kind: usize, side: Side) -> SquareSet {
        let all = SquareSet::EMPTY.complement(self.g.len());
        let mut allowed = all;
        for c in &self.variant.pieces[kind].confinements {
            if !guards_hold(&self.options, &c.options) {
                continue;
            }
            let z = self.zone(c.zone, side);
            allowed = if c.inside {
                allowed.intersection(z)
            } else {
                allowed.difference(z)
            };
        }
        allowed
    }

    fn raw_paths(&self, kind: usize, side: Side, sq: Square, allowed: &SquareSet) -> Vec<RawPath> {
        let piece = &self.variant.pieces[kind];
        let facing = self.variant.sides[side.index()].facing;
        let mut out = Vec::new();
        for pat in &piece.patterns {
            if !guards_hold(&self.options, &pat.options) {
                continue;
            }
            if !pat
                .zones
                .iter()
                .all(|z| self.zone(z.zone, side).contains(sq) == z.inside)
            {
                continue;
            }
            let mut flags = 0;
            if pat.mode.can_move() {
                flags |= CAN_MOVE;
            }
            if pat.mode.can_capture() {
                flags |= CAN_CAPTURE;
            }
            if pat.creates_en_passant {
                flags |= CREATES_EP;
            }
            if pat.takes_en_passant {
                flags |= TAKES_EP;
            }
            self.expand(
                pat,
                0,
                sq,
                (0, 0),
                Vec::new(),
                flags,
                facing,
                allowed,
                &mut out,
            );
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn expand(
        &self,
        pat: &super::Pattern,
        leg_index: usize,
        at: Square,
        prev: (i32, i32),
        pre: Vec<Square>,
        flags: u8,
        facing: super::Facing,
        allowed: &SquareSet,
        out: &mut Vec<RawPath>,
    ) {
        let leg = &pat.legs[leg_index];
        let vectors: Vec<(i32, i32)> = match &leg.dirs {
            Dirs::Vectors(v) => v
                .iter()
                .map(|&(x, y)| facing.to_board(x as i32, y as i32))
                .collect(),
            Dirs::Same => vec![prev],
            Dirs::Outward => outward(prev).to_vec(),
        };
        let last = leg_index + 1 == pat.legs.len();
        for v in vectors {
            if v == (0, 0) {
                continue;
            }
            let (max, hop) = match leg.kind {
                LegKind::Step => (1usize, false),
                LegKind::Slide { max } => (max.map_or(usize::MAX, |m| m as usize), false),
                LegKind::Hop { max } => (max.map_or(usize::MAX, |m| m as usize), true),
            };
            let mut squares = Vec::new();
            let mut cur = at;
            while squares.len() < max {
                match self.g.offset(cur, v.0, v.1) {
                    Some(next) if !pre.contains(&next) && next != at => {
                        squares.push(next);
                        cur = next;
                    }
                    _ => break,
                }
            }
            if last {
                let mut ray: Vec<u16> = squares
                    .iter()
                    .map(|s| {
                        if allowed.contains(*s) {
                            s.0
                        } else {
                            s.0 | NO_STOP
                        }
                    })
                    .collect();
                // Squares past the last stop can never be a destination.
                while ray.last().is_some_and(|e| e & NO_STOP != 0) {
                    ray.pop();
                }
                if !ray.is_empty() {
                    out.push(RawPath {
                        pre: pre.clone(),
                        ray,
                        flags: flags | if hop { HOP } else { 0 },
                    });
                }
            } else if !hop {
                let mut pre = pre.clone();
                for s in squares {
                    pre.push(s);
                    self.expand(
                        pat,
                        leg_index + 1,
                        s,
                        v,
                        pre.clone(),
                        flags,
                        facing,
                        allowed,
                        out,
                    );
                }
            }
        }
    }

    fn push_pool(&mut self, squares: impl IntoIterator<Item = u16>) -> (u32, u16) {
        let start = self.pool.len() as u32;
        self.pool.extend(squares);
        (start, (self.pool.len() as u32 - start) as u16)
    }

    fn build(mut self) -> Result<Tables, CompileError> {
        let g = self.g;
        let n = g.len();
        let sides = self.variant.sides.len();
        let kinds = self.variant.pieces.len();
        let mut paths = Vec::new();
        let mut path_index = Vec::with_capacity(kinds * sides * n);
        let mut may_repeat = Vec::with_capacity(kinds * sides * n);
        let mut dead = Vec::new();
        let lending = self.variant.pieces.iter().any(|p| p.borrows);
        // (kind, side, from) -> list of (to, way)
        let mut ways_by_from: Vec<Vec<Vec<(u16, Way)>>> = Vec::new();
        for kind in 0..kinds {
            for s in 0..sides {
                let side = Side(s as u8);
                let allowed = self.allowed(kind, side);
                let mut dead_here = SquareSet::EMPTY;
                let mut from_ways = Vec::with_capacity(n);
                for sq in g.squares() {
                    if self.pool.len() > MAX_POOL {
                        return Err(CompileError::TooLarge {
                            piece: self.variant.pieces[kind].name.clone(),
                        });
                    }
                    let raw = self.raw_paths(kind, side, sq, &allowed);
                    if raw.is_empty() {
                        dead_here.insert(sq);
                    }
                    let start = paths.len() as u32;
                    let mut seen_move = SquareSet::EMPTY;
                    let mut seen_capture = SquareSet::EMPTY;
                    let mut repeat = false;
                    let mut ways = Vec::new();
                    for rp in raw {
                        for &e in &rp.ray {
                            if e & NO_STOP != 0 {
                                continue;
                            }
                            let t = Square(e);
                            if rp.flags & CAN_MOVE != 0 {
                                repeat |= seen_move.contains(t);
                                seen_move.insert(t);
                            }
                            if rp.flags & CAN_CAPTURE != 0 {
                                repeat |= seen_capture.contains(t);
                                seen_capture.insert(t);
                            }
                        }
                        let (pre_start, pre_len) = self.push_pool(rp.pre.iter().map(|s| s.0));
                        let (ray_start, ray_len) = self.push_pool(rp.ray.iter().copied());
                        // Move-only ways matter only to lenders; attack tests skip them.
                        let keep = rp.flags & CAN_CAPTURE != 0 || lending;
                        for (i, &e) in rp.ray.iter().enumerate() {
                            if keep && e & NO_STOP == 0 {
                                ways.push((
                                    e,
                                    Way {
                                        pre_start,
                                        pre_len,
                                        between_start: ray_start,
                                        between_len: i as u16,
                                        hop: rp.flags & HOP != 0,
                                        flags: rp.flags,
                                    },
                                ));
                            }
                        }
                        paths.push(Path {
                            pre_start,
                            pre_len,
                            ray_start,
                            ray_len,
                            flags: rp.flags,
                        });
                    }
                    path_index.push((start, paths.len() as u32));
                    may_repeat.push(repeat);
                    from_ways.push(ways);
                }
                dead.push(dead_here);
                ways_by_from.push(from_ways);
            }
        }

        // Dense (from, to) offsets per (kind, side), only for kinds that can capture at all.
        let mut ways = Vec::new();
        let mut way_offsets = Vec::with_capacity(kinds * sides);
        for per_from in ways_by_from.iter_mut() {
            if per_from.iter().all(|w| w.is_empty()) {
                way_offsets.push(Vec::new());
                continue;
            }
            let mut offsets = Vec::with_capacity(n * n + 1);
            for list in per_from.iter_mut() {
                list.sort_by_key(|(to, _)| *to);
                let mut it = list.iter().peekable();
                for to in 0..n as u16 {
                    offsets.push(ways.len() as u32);
                    while let Some((t, w)) = it.peek() {
                        if *t != to {
                            break;
                        }
                        ways.push(*w);
                        it.next();
                    }
                }
            }
            offsets.push(ways.len() as u32);
            way_offsets.push(offsets);
        }

        let variant = &self.variant;
        let options = &self.options;
        let mut promotions = Vec::with_capacity(kinds * sides);
        let mut drop_squares = Vec::with_capacity(kinds * sides);
        let all = SquareSet::EMPTY.complement(n);
        for (kind, piece) in variant.pieces.iter().enumerate() {
            for s in 0..sides {
                let zone = |id: super::ZoneId| variant.zones[id.0 as usize].squares[s];
                promotions.push(
                    piece
                        .promotions
                        .iter()
                        .find(|p| guards_hold(options, &p.options))
                        .map(|p| PromotionTable {
                            zone: zone(p.zone),
                            from_too: p.from_zone_too,
                            forced: p.forced,
                            choices: p.choices.clone(),
                        }),
                );
                let mut ds = all.difference(&dead[kind * sides + s]);
                for z in &piece.drops.only_in {
                    ds = ds.intersection(&zone(*z));
                }
                for z in &piece.drops.never_in {
                    ds = ds.difference(&zone(*z));
                }
                drop_squares.push(ds);
            }
        }

        let rules = &variant.rules;
        let facing_vectors: Vec<(i32, i32)> = rules
            .facing
            .iter()
            .filter(|f| guards_hold(options, &f.options))
            .flat_map(|f| f.vectors.iter().map(|&(x, y)| (x as i32, y as i32)))
            .collect();
        let facing = (0..sides).map(|_| facing_vectors.clone()).collect();
        let mut rights: Vec<(Side, Square)> = Vec::new();
        let mut castlings = Vec::new();
        for c in rules
            .castlings
            .iter()
            .filter(|c| guards_hold(options, &c.options))
        {
            let right = match rights.iter().position(|r| *r == (c.side, c.partner_from)) {
                Some(i) => i,
                None => {
                    rights.push((c.side, c.partner_from));
                    rights.len() - 1
                }
            };
            let segment = |a: Square, b: Square| -> Vec<Square> {
                let (fa, ra, fb, rb) = (g.file(a), g.rank(a), g.file(b), g.rank(b));
                let (dx, dy) = ((fb - fa).signum(), (rb - ra).signum());
                let mut out = vec![a];
                let mut cur = a;
                while cur != b {
                    match g.offset(cur, dx, dy) {
                        Some(nx) => {
                            out.push(nx);
                            cur = nx;
                        }
                        None => break,
                    }
                }
                out
            };
            let king_path = segment(c.king_from, c.king_to);
            let partner_path = segment(c.partner_from, c.partner_to);
            let mut empty: Vec<Square> = Vec::new();
            for sq in king_path.iter().chain(partner_path.iter()) {
                if *sq != c.king_from && *sq != c.partner_from && !empty.contains(sq) {
                    empty.push(*sq);
                }
            }
            castlings.push(CastlingTable {
                rule: c.clone(),
                empty,
                safe: king_path,
                right: right as u8,
                written_to_partner: false,
            });
        }
        let rule_table = RuleTable {
            checkmate: rules.checkmate,
            extinction: rules.extinction,
            stalemate: rules.stalemate,
            facing,
            repetition: rules.repetition.clone(),
            move_limit: rules.move_limit,
            drops: rules.drops && guards_hold(options, &rules.drops_options),
            castlings,
            rights,
        };
        let royal = variant.pieces.iter().map(|p| p.royal).collect();
        let demoted = (0..kinds)
            .map(|k| variant.pieces[k].demotes_to.unwrap_or(PieceKind(k as u8)))
            .collect();
        let resets_clock = variant.pieces.iter().map(|p| p.resets_clock).collect();
        let has_en_passant = paths.iter().any(|p| p.flags & CREATES_EP != 0);
        let borrows: Vec<bool> = variant.pieces.iter().map(|p| p.borrows).collect();
        let has_borrowing = borrows.iter().any(|b| *b);

        let mut tables = Tables {
            variant: self.variant.clone(),
            options: self.options.clone(),
            geometry: g,
            sides,
            kinds,
            pool: std::mem::take(&mut self.pool),
            paths,
            path_index,
            may_repeat,
            ways,
            way_offsets,
            promotions,
            dead,
            drop_squares,
            royal,
            demoted,
            resets_clock,
            rules: rule_table,
            from_sensitive: Vec::new(),
            to_sensitive: Vec::new(),
            has_en_passant,
            borrows,
            has_borrowing,
        };
        tables.compute_sensitivity();
        for i in 0..tables.rules.castlings.len() {
            let r = tables.rules.castlings[i].rule.clone();
            tables.rules.castlings[i].written_to_partner =
                tables.paths(r.king, r.side, r.king_from).iter().any(|p| {
                    tables
                        .squares(p.ray_start, p.ray_len)
                        .iter()
                        .any(|&e| e & !NO_STOP == r.king_to.0)
                });
        }
        Ok(tables)
    }
}

impl Tables {
    /// For every (side, royal square): which squares, when vacated or filled, can change
    /// whether an enemy piece attacks that royal. Moves elsewhere need no legality test.
    fn compute_sensitivity(&mut self) {
        let g = self.geometry;
        let n = g.len();
        let mut from_s = vec![SquareSet::EMPTY; self.sides * n];
        let mut to_s = vec![SquareSet::EMPTY; self.sides * n];
        for kind in 0..self.kinds {
            for side in 0..self.sides {
                let offsets = &self.way_offsets[kind * self.sides + side];
                if offsets.is_empty() {
                    continue;
                }
                for from in 0..n {
                    for to in 0..n {
                        let i = from * n + to;
                        for w in &self.ways[offsets[i] as usize..offsets[i + 1] as usize] {
                            if w.flags & CAN_CAPTURE == 0 {
                                continue;
                            }
                            for defender in (0..self.sides).filter(|d| *d != side) {
                                let fs = &mut from_s[defender * n + to];
                                for &e in self.squares(w.pre_start, w.pre_len) {
                                    fs.insert(Square(e & !NO_STOP));
                                }
                                for &e in self.squares(w.between_start, w.between_len) {
                                    fs.insert(Square(e & !NO_STOP));
                                }
                                if w.hop {
                                    let ts = &mut to_s[defender * n + to];
                                    for &e in self.squares(w.between_start, w.between_len) {
                                        ts.insert(Square(e & !NO_STOP));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        for side in 0..self.sides {
            for sq in g.squares() {
                for &(dx, dy) in &self.rules.facing[side] {
                    let mut cur = sq;
                    while let Some(next) = g.offset(cur, dx, dy) {
                        from_s[side * n + sq.index()].insert(next);
                        cur = next;
                    }
                }
            }
        }
        self.from_sensitive = from_s;
        self.to_sensitive = to_s;
    }
}
