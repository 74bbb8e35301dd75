//! Building the tables: paths per (piece, side, square), the attack index, promotions, drops,
//! the rules with their castlings, and the squares the legality test must watch.

use super::{
    guards_hold, CastlingRight, CastlingTable, CompileError, Condition, ConnectTable, CountTable,
    Entry, EntryRule, HoldingRule, Motion, Path, PathFlags, PieceTable, PromotionTable, RuleTable,
    Start, Tables, TargetRule, TeleportRule, Watch, WhenTable, MAX_POOL, SEVERAL,
};
use crate::model::square::{Geometry, Square};
use crate::model::square_set::SquareSet;
use crate::model::variant::{
    Arm, Capturable, Dirs, Facing, KindSet, Leg, LegKind, LineId, Owner, Pattern, PieceKind, Side,
    Variant, ZoneId, MAX_SIDES,
};

/// Compiles `variant` under `options` (one value per option of the variant): each part of
/// the tables is built whole, the motion first, as the others read it.
pub(super) fn build(variant: Variant, options: Vec<bool>) -> Result<Tables, CompileError> {
    let moves = Builder::new(&variant, &options).moves()?;
    let g = variant.geometry();
    let (sides, kinds) = (variant.sides().len(), variant.pieces().len());
    let motion = moves.motion;
    let pieces = piece_table(&variant, &options, moves.dead);
    let start = start(&variant, &options);
    let mut rules = rules(&variant, &options);
    let compiled = Compiled {
        g,
        sides,
        motion: &motion,
    };
    compiled.mark_castlings_written_to_partner(&mut rules);
    let watch = watch(&variant, &options, &compiled, &rules, &start);
    Ok(Tables {
        geometry: g,
        sides,
        kinds,
        options,
        motion,
        pieces,
        rules,
        watch,
        start,
        variant,
    })
}

/// What each kind is besides its moves; `dead` are the squares where it would have none.
fn piece_table(variant: &Variant, options: &[bool], dead: Vec<SquareSet>) -> PieceTable {
    let (promotions, promotion_index) = promotion_tables(variant, options, false);
    let (in_place, in_place_index) = promotion_tables(variant, options, true);
    let drop_squares = drop_squares(variant, &dead);
    let pieces = variant.pieces();
    let borrows: Vec<bool> = pieces.iter().map(|p| p.borrows).collect();
    let bridges: Vec<bool> = pieces
        .iter()
        .map(|p| {
            p.patterns
                .iter()
                .any(|pat| pat.on_the_way.is_some() && guards_hold(options, &pat.options))
        })
        .collect();
    let teleports = teleports(variant, options);
    PieceTable {
        promotes_on_capture: promotions.iter().any(|p| p.when_capturing),
        promotions,
        promotion_index,
        any_in_place: !in_place.is_empty(),
        in_place,
        in_place_index,
        dead,
        drop_squares,
        royal: pieces.iter().map(|p| p.royal).collect(),
        demoted: (0..pieces.len())
            .map(|k| pieces[k].demotes_to.unwrap_or(PieceKind::nth(k)))
            .collect(),
        resets_clock: pieces.iter().map(|p| p.resets_clock).collect(),
        immunity: pieces.iter().map(|p| p.immunity).collect(),
        has_borrowing: borrows.iter().any(|b| *b),
        special_attacks: borrows
            .iter()
            .zip(&bridges)
            .map(|(a, b)| *a || *b)
            .collect(),
        borrows,
        bridges,
        any_teleports: teleports.iter().any(|t| !t.is_empty()),
        teleports,
        aimers: (0..pieces.len())
            .map(|k| {
                pieces
                    .iter()
                    .any(|p| p.unmoved_lost_to.contains(&PieceKind::nth(k)))
            })
            .collect(),
        counted_as: pieces
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let plain = p.letter.without_tilde();
                pieces
                    .iter()
                    .position(|o| o.letter == plain)
                    .map_or(PieceKind::nth(k), PieceKind::nth)
            })
            .collect(),
        compulsory_drops: (0..pieces.len())
            .map(PieceKind::nth)
            .filter(|&k| variant.piece(k).drops.compulsory)
            .collect(),
        colour_bound: (0..pieces.len())
            .map(PieceKind::nth)
            .filter(|&k| variant.piece(k).drops.both_colours)
            .collect(),
    }
}

/// The start of the game under the options in force.
fn start(variant: &Variant, options: &[bool]) -> Start {
    let pieces = variant.pieces();
    let setup = variant.setup_for(options).to_vec();
    let sides = variant.sides().len();
    let mut setup_counts = vec![0u16; pieces.len() * sides];
    for p in &setup {
        setup_counts[p.piece.index() * sides + p.side.index()] += 1;
    }
    // Pieces in hand at the start are the side's too (Sittuyin's met, dropped first).
    for &(side, kind) in variant.hand_for(options) {
        setup_counts[kind.index() * sides + side.index()] += 1;
    }
    let mut teams = [0; MAX_SIDES];
    for (slot, team) in teams.iter_mut().zip(variant.teams_for(options)) {
        *slot = team;
    }
    Start {
        royal_at_start: setup.iter().any(|p| pieces[p.piece.index()].royal),
        setup_counts,
        setup_hand: variant.hand_for(options).to_vec(),
        teams,
        setup,
    }
}

/// What the legality test and the pieces' state watch, from the compiled moves and rules.
fn watch(
    variant: &Variant,
    options: &[bool],
    compiled: &Compiled<'_>,
    rules: &RuleTable,
    start: &Start,
) -> Watch {
    let kinds = variant.pieces().len();
    let has_en_passant = compiled
        .motion
        .paths
        .iter()
        .any(|p| p.flags.has(PathFlags::CREATES_EP));
    let (from_sensitive, to_sensitive) = compiled.sensitivity(kinds, rules);
    let mut first_move = first_move_squares(variant, options, &start.setup);
    // Under `gating in ZONE` the pieces that start in the zone carry the gating right while
    // unmoved, and the FEN notes it.
    let gates: Vec<Square> = match rules.gating {
        Some(z) => start
            .setup
            .iter()
            .filter(|p| variant.zones()[z.index()].squares[p.side.index()].contains(p.square))
            .map(|p| p.square)
            .collect(),
        None => Vec::new(),
    };
    let mut fen_noted: SquareSet = start
        .setup
        .iter()
        .filter(|p| variant.piece(p.piece).unmoved_in_fen)
        .map(|p| p.square)
        .collect();
    for &sq in &gates {
        first_move.insert(sq);
        fen_noted.insert(sq);
    }
    let mut tracked = first_move;
    for r in &rules.rights {
        tracked.insert(r.king);
        tracked.insert(r.partner);
    }
    Watch {
        from_sensitive,
        to_sensitive,
        tracked,
        first_move,
        fen_noted,
        ep_sources: compiled.ep_sources(kinds, has_en_passant),
        has_en_passant,
    }
}

/// The teleports of each kind under the options in force, with where each side's may land.
fn teleports(variant: &Variant, options: &[bool]) -> Vec<Vec<TeleportRule>> {
    let builder = Builder::new(variant, options);
    variant
        .pieces()
        .iter()
        .enumerate()
        .map(|(k, piece)| {
            piece
                .teleports
                .iter()
                .filter(|t| guards_hold(options, &t.options))
                .map(|t| TeleportRule {
                    anchors: t.anchors.iter().copied().collect(),
                    from: t.from,
                    to: t.to,
                    not_attacking: t.not_attacking,
                    allowed: (0..variant.sides().len())
                        .map(|s| builder.allowed(k, Side::nth(s)))
                        .collect(),
                })
                .collect()
        })
        .collect()
}

/// A `holding` list as bit sets of kinds: `(friendly, enemy)`.
fn owners(list: &[(PieceKind, Owner)]) -> (KindSet, KindSet) {
    list.iter().fold(
        (KindSet::EMPTY, KindSet::EMPTY),
        |(f, e), &(k, owner)| match owner {
            Owner::Friendly => (f.with(k), e),
            Owner::Enemy => (f, e.with(k)),
            Owner::Any => (f.with(k), e.with(k)),
        },
    )
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

/// A path being expanded: squares that must be empty, then the ray.
struct RawPath {
    pre: Vec<Square>,
    ray: Vec<Entry>,
    flags: PathFlags,
    condition: Condition,
    /// The index of its target rule in [`Builder::target_rules`].
    target: usize,
}

/// Where a leg starts: its square, the previous leg's vector, the squares passed before it
/// and the lines crossed so far (per `crossing` limit).
#[derive(Clone, Copy)]
struct LegStart<'p> {
    at: Square,
    prev: (i32, i32),
    pre: &'p [Square],
    crossed: &'p [u32],
}

/// A slide that stopped just beyond the line of its `continuing after crossing`.
struct Continuation<'p> {
    line: LineId,
    /// The piece's square.
    origin: Square,
    /// The slide's vector.
    v: (i32, i32),
    /// The squares it passed, the one beyond the line last.
    squares: &'p [Square],
    /// The line was crossed on the first step: the continuation may slide.
    first_step: bool,
    /// The lines crossed so far, per `crossing` limit.
    crossed: &'p [u32],
    /// The slide's length limit.
    max: usize,
}

/// A bent ray being followed.
struct BentWalk {
    /// The piece's square.
    origin: Square,
    /// The square the ray goes on from.
    at: Square,
    /// The step it takes now.
    dir: (i32, i32),
    /// The arm of the zone it is in.
    arm: usize,
    /// The step taken in each arm's zone so far.
    chosen: Vec<Option<(i32, i32)>>,
    /// The squares passed from the piece's square on.
    squares: Vec<Square>,
    /// The lines crossed so far, per `crossing` limit.
    crossed: Vec<u32>,
    /// The lines crossed on reaching each square of `squares`.
    counts: Vec<Vec<u32>>,
}

impl Expansion<'_> {
    /// A finished path of this pattern.
    fn raw(&self, pre: Vec<Square>, ray: Vec<Entry>, hop: bool) -> RawPath {
        let mut flags = self.flags;
        if hop {
            flags = flags.with(PathFlags::HOP);
        }
        if ray.last().is_some_and(|e| e.square() == self.origin) {
            flags = flags.with(PathFlags::RETURNS);
        }
        RawPath {
            pre,
            ray,
            flags,
            condition: self.condition,
            target: self.target,
        }
    }
}

/// The movement tables of every (kind, side, square), and where each piece has no move.
struct Moves {
    motion: Motion,
    dead: Vec<SquareSet>,
}

/// Expands patterns into paths.
struct Builder<'a> {
    variant: &'a Variant,
    options: &'a [bool],
    g: Geometry,
    pool: Vec<Entry>,
    /// The kinds a capture may take, as bit sets; entry 0 is every kind.
    target_rules: Vec<TargetRule>,
}

/// What one pattern is being expanded for.
struct Expansion<'a> {
    pattern: &'a Pattern,
    side: Side,
    flags: PathFlags,
    condition: Condition,
    target: usize,
    /// The square the piece stands on.
    origin: Square,
    facing: Facing,
    /// Where its moves may end.
    allowed: SquareSet,
}

impl<'a> Builder<'a> {
    fn new(variant: &'a Variant, options: &'a [bool]) -> Builder<'a> {
        Builder {
            variant,
            options,
            g: variant.geometry(),
            pool: Vec::new(),
            target_rules: vec![TargetRule {
                victims: KindSet::ALL,
                enemies_only: false,
                holding: None,
                entries: Vec::new(),
                screens: KindSet::ALL,
                wall_screens: true,
                way_victims: KindSet::ALL,
                protected: KindSet::EMPTY,
                protected_afar: false,
            }],
        }
    }

    fn zone(&self, id: ZoneId, side: Side) -> &'a SquareSet {
        &self.variant.zones()[id.index()].squares[side.index()]
    }

    /// Squares where moves of `kind` for `side` may end.
    fn allowed(&self, kind: usize, side: Side) -> SquareSet {
        let mut allowed = self.g.playable();
        for c in &self.variant.pieces()[kind].confinements {
            if !guards_hold(self.options, &c.options) {
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

    /// The squares in the same part as `sq` of every partition `kind` must stay within.
    fn within(&self, kind: usize, side: Side, sq: Square) -> SquareSet {
        let mut out = SquareSet::EMPTY.complement(self.g.len());
        for w in &self.variant.pieces()[kind].within {
            if !guards_hold(self.options, &w.options) {
                continue;
            }
            let part_of = &self.variant.partitions()[w.partition.index()].part_of[side.index()];
            let part = part_of[sq.index()];
            out = out.intersection(
                &self
                    .g
                    .squares()
                    .filter(|s| part_of[s.index()] == part)
                    .collect(),
            );
        }
        out
    }

    /// The index of a pattern's target rule from `sq`, adding it if new.
    fn target_rule(&mut self, pattern: &Pattern, kind: usize, side: Side, sq: Square) -> usize {
        let victims = match &pattern.capturing {
            // Which piece gives check depends on the position: the move generator asks.
            None | Some(Capturable::Checker) => KindSet::ALL,
            Some(Capturable::Royal) => self
                .variant
                .pieces()
                .iter()
                .enumerate()
                .filter(|(_, p)| p.royal)
                .map(|(k, _)| PieceKind::nth(k))
                .collect(),
            Some(Capturable::Kinds(list)) => list.iter().copied().collect(),
            Some(Capturable::AllBut(list)) => list.iter().fold(KindSet::ALL, |s, &k| s.without(k)),
        };
        let (screens, wall_screens) = match &pattern.screens {
            None => (KindSet::ALL, true),
            Some(s) if s.allowed => (s.kinds.iter().copied().collect(), false),
            Some(s) => (
                s.kinds.iter().fold(KindSet::ALL, |set, &k| set.without(k)),
                true,
            ),
        };
        // Entry conditions bind moves from outside their zone only.
        let entries = self.variant.pieces()[kind]
            .entries
            .iter()
            .filter(|c| guards_hold(self.options, &c.options))
            .filter(|c| !self.zone(c.zone, side).contains(sq))
            .map(|c| {
                let (friendly, enemy) = owners(&c.kinds);
                EntryRule {
                    zone: c.zone,
                    friendly,
                    enemy,
                }
            })
            .collect();
        let rule = TargetRule {
            victims,
            enemies_only: pattern.enemies_only,
            holding: pattern.holding.as_ref().map(|h| {
                let (friendly, enemy) = owners(&h.kinds);
                HoldingRule {
                    partition: h.partition,
                    friendly,
                    enemy,
                    inside: h.inside,
                }
            }),
            entries,
            screens,
            wall_screens,
            way_victims: match &pattern.on_the_way {
                None => KindSet::ALL,
                Some(f) if f.except => f.kinds.iter().fold(KindSet::ALL, |s, &k| s.without(k)),
                Some(f) => f.kinds.iter().copied().collect(),
            },
            protected: pattern
                .not_protected
                .as_ref()
                .map_or(KindSet::EMPTY, |np| np.0.iter().copied().collect()),
            protected_afar: pattern.not_protected.as_ref().is_some_and(|p| p.1),
        };
        match self.target_rules.iter().position(|r| *r == rule) {
            Some(i) => i,
            None => {
                self.target_rules.push(rule);
                self.target_rules.len() - 1
            }
        }
    }

    /// Expands every (kind, side, square).
    fn moves(mut self) -> Result<Moves, CompileError> {
        let n = self.g.len();
        let sides = self.variant.sides().len();
        let kinds = self.variant.pieces().len();
        let lending = self.variant.pieces().iter().any(|p| p.borrows);
        let reach_words = n.div_ceil(64);
        let mut m = Motion {
            pool: Vec::new(),
            paths: Vec::new(),
            path_index: Vec::with_capacity(kinds * sides * n),
            may_repeat: Vec::with_capacity(kinds * sides * n),
            reach: Vec::with_capacity(kinds * sides * n * reach_words),
            reach_words,
            reach_start: Vec::with_capacity(kinds * sides * n + 1),
            reached_by: Vec::new(),
            target_rules: Vec::new(),
        };
        let mut all_dead = Vec::with_capacity(kinds * sides);
        let mut ways = Vec::new();
        for kind in 0..kinds {
            let too_large = || CompileError::TooLarge {
                piece: self.variant.pieces()[kind].name.clone(),
            };
            for s in 0..sides {
                let side = Side::nth(s);
                let allowed = self.allowed(kind, side);
                let mut dead = SquareSet::EMPTY;
                for sq in self.g.squares() {
                    if self.pool.len() > MAX_POOL {
                        return Err(too_large());
                    }
                    let here = allowed.intersection(&self.within(kind, side, sq));
                    let raw = self.raw_paths(kind, side, sq, &here);
                    if raw.is_empty() {
                        dead.insert(sq);
                    }
                    // Every path has a square in the pool, so their count fits as the pool's.
                    let start = u32::try_from(m.paths.len()).map_err(|_| too_large())?;
                    m.may_repeat.push(may_repeat(&raw));
                    ways.clear();
                    for (i, mut rp) in raw.into_iter().enumerate() {
                        // A lion's double step is tested apart (`Position::bridge_attack`), and
                        // a path back to its start attacks nothing.
                        let lion = rp.flags.any(PathFlags::LION);
                        if !lion
                            && (rp.flags.any(PathFlags::CAPTURE.with(PathFlags::TAKES_EP))
                                || lending)
                        {
                            // Move-only ways matter only to lenders; attack tests skip them.
                            rp.flags = rp.flags.with(PathFlags::WAYS);
                            let path = u16::try_from(i)
                                .ok()
                                .filter(|&p| p != SEVERAL)
                                .ok_or_else(too_large)?;
                            let ends = rp.ray.iter().filter(|e| e.can_stop());
                            ways.extend(ends.map(|e| (e.square(), path)));
                        }
                        m.paths.push(self.store(&rp).ok_or_else(too_large)?);
                    }
                    let end = u32::try_from(m.paths.len()).map_err(|_| too_large())?;
                    m.path_index.push((start, end));
                    m.reach_start.push(reached_count(&m.reached_by));
                    m.reach.resize(m.reach.len() + reach_words, 0);
                    let words = m.reach.len() - reach_words;
                    ways.sort_by_key(|&(to, _)| to);
                    for (k, &(to, path)) in ways.iter().enumerate() {
                        if k > 0 && ways[k - 1].0 == to {
                            *m.reached_by.last_mut().expect("pushed before") = SEVERAL;
                        } else {
                            m.reach[words + to.index() / 64] |= 1 << (to.index() % 64);
                            m.reached_by.push(path);
                        }
                    }
                }
                all_dead.push(dead);
            }
        }
        m.reach_start.push(reached_count(&m.reached_by));
        m.pool = self.pool;
        m.target_rules = self.target_rules;
        Ok(Moves {
            motion: m,
            dead: all_dead,
        })
    }

    /// Puts a path's squares in the pool, the must-be-empty ones right before the ray; `None`
    /// when the pool or the target rules outgrow the compiled tables' `u32` and `u16` indices.
    fn store(&mut self, rp: &RawPath) -> Option<Path> {
        self.pool
            .extend(rp.pre.iter().map(|&s| Entry::new(s, true)));
        let ray_start = u32::try_from(self.pool.len()).ok()?;
        self.pool.extend(rp.ray.iter().copied());
        // A path never comes back to a square, so it passes fewer squares than a board has.
        let length = |n: usize| u16::try_from(n).expect("a path is shorter than MAX_SQUARES");
        Some(Path::new(
            ray_start,
            length(rp.pre.len()),
            length(rp.ray.len()),
            rp.flags,
            rp.condition,
            u16::try_from(rp.target).ok()?,
        ))
    }

    fn raw_paths(
        &mut self,
        kind: usize,
        side: Side,
        sq: Square,
        allowed: &SquareSet,
    ) -> Vec<RawPath> {
        let variant = self.variant;
        let piece = &variant.pieces()[kind];
        let facing = variant.sides()[side.index()].facing;
        let all = SquareSet::EMPTY.complement(self.g.len());
        let mut out = Vec::new();
        // A royal that would turn to stone by capturing (`captures petrify`) may never
        // capture: it neither takes nor threatens (Fairy-Stockfish's reading: kings may stand
        // side by side in Petrified).
        let stone = piece.royal && variant.rules().petrify.contains(&PieceKind::nth(kind));
        for pattern in &piece.patterns {
            let applies = guards_hold(self.options, &pattern.options)
                && pattern
                    .zones
                    .iter()
                    .all(|z| self.zone(z.zone, side).contains(sq) == z.inside);
            if !applies {
                continue;
            }
            let mut flags = PathFlags::NONE;
            for (on, flag) in [
                (pattern.mode.can_move(), PathFlags::MOVE),
                (pattern.mode.can_capture() && !stone, PathFlags::CAPTURE),
                (pattern.creates_en_passant, PathFlags::CREATES_EP),
                (pattern.takes_en_passant, PathFlags::TAKES_EP),
                (pattern.en_passant_unpromoted, PathFlags::EP_UNPROMOTED),
                (pattern.shot, PathFlags::SHOT),
                (pattern.in_check == Some(true), PathFlags::IN_CHECK),
                (pattern.in_check == Some(false), PathFlags::NOT_IN_CHECK),
                (
                    pattern.capturing == Some(Capturable::Checker),
                    PathFlags::TAKES_CHECKER,
                ),
                (pattern.screens.is_some(), PathFlags::SCREENED),
                (pattern.on_the_way.is_some(), PathFlags::BRIDGE),
            ] {
                if on {
                    flags = flags.with(flag);
                }
            }
            // A shot does not move the piece, so where it may stand does not limit it.
            let mut ends = if pattern.shot { all } else { *allowed };
            for z in &pattern.into {
                let zone = self.zone(z.zone, side);
                ends = if z.inside {
                    ends.intersection(zone)
                } else {
                    ends.difference(zone)
                };
            }
            let expansion = Expansion {
                pattern,
                side,
                flags,
                condition: match pattern.unmoved {
                    None => Condition::Always,
                    Some(true) => Condition::Unmoved,
                    Some(false) => Condition::Moved,
                },
                target: self.target_rule(pattern, kind, side, sq),
                origin: sq,
                facing,
                allowed: ends,
            };
            if pattern.legs[0].bent {
                self.expand_bent(&expansion, sq, &mut out);
            } else {
                let crossed = vec![0; pattern.crossing.len()];
                let start = LegStart {
                    at: sq,
                    prev: (0, 0),
                    pre: &[],
                    crossed: &crossed,
                };
                self.expand(&expansion, 0, start, &mut out);
            }
        }
        out
    }

    /// The arm of `leg` for a leg that starts on `at`: the first whose zone holds it.
    fn arm(&self, leg: &'a Leg, side: Side, at: Square) -> Option<(usize, &'a Arm)> {
        leg.arms
            .iter()
            .enumerate()
            .find(|(_, a)| a.zone.is_none_or(|z| self.zone(z, side).contains(at)))
    }

    /// The board vectors of `arm` for a leg starting on `at` after a leg that moved by `prev`.
    fn arm_vectors(
        &self,
        e: &Expansion<'_>,
        arm: &Arm,
        at: Square,
        prev: (i32, i32),
    ) -> Vec<(i32, i32)> {
        let mut vectors: Vec<(i32, i32)> = match &arm.dirs {
            Dirs::Vectors(v) => v
                .iter()
                .map(|&(x, y)| e.facing.to_board(i32::from(x), i32::from(y)))
                .collect(),
            Dirs::Same => vec![prev],
            Dirs::Outward => outward(prev).to_vec(),
            Dirs::Reverse => vec![(-prev.0, -prev.1)],
        };
        if arm.inward {
            vectors.retain(|&v| self.inward(at, v));
        }
        vectors
    }

    /// Whether `v` points toward the centre of the board from `at`: every component it has
    /// leads toward the centre line of its axis.
    fn inward(&self, at: Square, v: (i32, i32)) -> bool {
        let toward = |coord: i32, size: u8, d: i32| {
            // Doubled, so that the centre line of an even board is a whole number.
            let centre = i32::from(size) - 1;
            d == 0 || (centre - 2 * coord).signum() == d.signum()
        };
        v != (0, 0)
            && toward(self.g.file(at), self.g.width, v.0)
            && toward(self.g.rank(at), self.g.height, v.1)
    }

    /// A ray's entries: may end where the expansion allows and, by `crossed` (the lines
    /// crossed on reaching each square), where every `crossing` minimum is met; the last
    /// stops trimmed.
    fn ray(
        e: &Expansion<'_>,
        squares: &[Square],
        pass_only: usize,
        crossed: &[Vec<u32>],
    ) -> Vec<Entry> {
        let mut ray: Vec<Entry> = squares
            .iter()
            .enumerate()
            .map(|(i, &s)| {
                let enough = crossed.get(i).is_none_or(|c| Self::enough(e, c));
                Entry::new(s, i >= pass_only && e.allowed.contains(s) && enough)
            })
            .collect();
        // Squares past the last stop can never be a destination.
        while ray.last().is_some_and(|x| !x.can_stop()) {
            ray.pop();
        }
        ray
    }

    /// Expands leg `leg_index` of a pattern from where the previous legs left it.
    fn expand(
        &self,
        e: &Expansion<'_>,
        leg_index: usize,
        from: LegStart<'_>,
        out: &mut Vec<RawPath>,
    ) {
        let LegStart {
            at,
            prev,
            pre,
            crossed,
        } = from;
        let leg = &e.pattern.legs[leg_index];
        let Some((_, arm)) = self.arm(leg, e.side, at) else {
            return;
        };
        let last = leg_index + 1 == e.pattern.legs.len();
        let (max, hop) = match leg.kind {
            LegKind::Step => (1usize, false),
            LegKind::Slide { max } => (max.map_or(usize::MAX, usize::from), false),
            LegKind::Hop { max, .. } => (max.map_or(usize::MAX, usize::from), true),
        };
        let just_beyond = matches!(
            leg.kind,
            LegKind::Hop {
                just_beyond: true,
                ..
            }
        );
        for v in self.arm_vectors(e, arm, at, prev) {
            if v == (0, 0) {
                continue;
            }
            // A path never comes back to a square it passed or started from.
            let mut squares = Vec::new();
            let mut counts = Vec::new();
            let mut count = crossed.to_vec();
            let mut cur = at;
            // With `continuing after crossing`, the step (1-based) that crossed the line.
            let mut crossed_at = None;
            while squares.len() < max {
                match self.g.offset(cur, v.0, v.1) {
                    Some(next) if !pre.contains(&next) && next != at => {
                        if self.avoided(e, next) || !self.cross(e, cur, v, &mut count) {
                            break;
                        }
                        squares.push(next);
                        counts.push(count.clone());
                        if self.crosses_continuing(e, cur, v) {
                            crossed_at = Some(squares.len());
                            break;
                        }
                        cur = next;
                    }
                    _ => break,
                }
            }
            if let (Some(k), Some(line)) = (crossed_at, e.pattern.continuing) {
                let so_far = counts.last().cloned().unwrap_or_default();
                let ray = Continuation {
                    line,
                    origin: at,
                    v,
                    squares: &squares,
                    first_step: k == 1,
                    crossed: &so_far,
                    max,
                };
                self.continuation(e, leg, &ray, out);
            }
            if last && just_beyond {
                // One path per screen square: the squares before it must be empty, and the
                // ray is the screen and the one landing square after it.
                for k in 0..squares.len().saturating_sub(1) {
                    let ray = Self::ray(e, &squares[k..k + 2], 1, &counts[k..k + 2]);
                    if !ray.is_empty() {
                        let mut before = pre.to_vec();
                        before.extend_from_slice(&squares[..k]);
                        out.push(e.raw(before, ray, true));
                    }
                }
            } else if last {
                let ray = Self::ray(e, &squares, 0, &counts);
                if !ray.is_empty() {
                    out.push(e.raw(pre.to_vec(), ray, hop));
                }
            } else if !hop {
                let mut passed = pre.to_vec();
                for (s, count) in squares.into_iter().zip(&counts) {
                    passed.push(s);
                    let next = LegStart {
                        at: s,
                        prev: v,
                        pre: &passed,
                        crossed: count,
                    };
                    self.expand(e, leg_index + 1, next, out);
                }
            }
        }
    }

    /// Whether the pattern's paths may not enter `sq` (`avoiding`).
    fn avoided(&self, e: &Expansion<'_>, sq: Square) -> bool {
        e.pattern
            .avoiding
            .iter()
            .any(|&z| self.zone(z, e.side).contains(sq))
    }

    /// Whether a step by `v` from `from` crosses the pattern's `continuing after crossing`
    /// line.
    fn crosses_continuing(&self, e: &Expansion<'_>, from: Square, v: (i32, i32)) -> bool {
        e.pattern.continuing.is_some_and(|line| {
            self.variant.lines()[line.index()].crossings(self.g, e.side, from, v) > 0
        })
    }

    /// The optional further legs of a slide that stopped just beyond its line: in the
    /// directions of the square reached, a slide if the crossing was the first step, else one
    /// step, never crossing the line again.
    fn continuation(
        &self,
        e: &Expansion<'_>,
        leg: &Leg,
        c: &Continuation<'_>,
        out: &mut Vec<RawPath>,
    ) {
        let Some(&x) = c.squares.last() else { return };
        let Some((_, arm)) = self.arm(leg, e.side, x) else {
            return;
        };
        let wall = &self.variant.lines()[c.line.index()];
        let reach = if c.first_step { c.max } else { 1 };
        // `move-only along`: after an inward crossing, the runs of the line crossed and the
        // way the crossing step was heading along them.
        let before = match c.squares.len() {
            0 | 1 => c.origin,
            n => c.squares[n - 2],
        };
        let along = e.pattern.along.filter(|&(l, _)| {
            l == c.line && self.variant.lines()[l.index()].first[e.side.index()].contains(before)
        });
        let runs = along.map(|_| wall.crossed_runs(self.g, e.side, before, c.v));
        for w in self.arm_vectors(e, arm, x, c.v) {
            let mut count = c.crossed.to_vec();
            let mut more = Vec::new();
            let mut counts = Vec::new();
            let mut cur = x;
            while more.len() < reach {
                let Some(next) = self.g.offset(cur, w.0, w.1) else {
                    break;
                };
                if next == c.origin
                    || c.squares.contains(&next)
                    || more.contains(&next)
                    || self.avoided(e, next)
                {
                    break;
                }
                if wall.crossings(self.g, e.side, cur, w) > 0 || !self.cross(e, cur, w, &mut count)
                {
                    break;
                }
                more.push(next);
                counts.push(count.clone());
                cur = next;
            }
            let mut flags = e.flags;
            if let (Some((_, ahead)), Some((files, ranks))) = (along, runs) {
                // Along a north-south line is along the file; the step was heading along it
                // by its file component, and the same for an east-west line.
                let sideways = (files && w.0 == 0 && !(ahead && w.1 == c.v.1))
                    || (ranks && w.1 == 0 && !(ahead && w.0 == c.v.0));
                if sideways {
                    flags = flags.without(PathFlags::CAPTURE);
                }
            }
            if !flags.has(PathFlags::MOVE) && !flags.has(PathFlags::CAPTURE) {
                continue;
            }
            let ray = Self::ray(e, &more, 0, &counts);
            if !ray.is_empty() {
                let mut raw = e.raw(c.squares.to_vec(), ray, false);
                raw.flags = flags;
                out.push(raw);
            }
        }
    }

    /// Counts the lines a step by `v` from `from` crosses into `count` (one entry per
    /// `crossing` limit of the pattern); false if that goes over a limit.
    fn cross(&self, e: &Expansion<'_>, from: Square, v: (i32, i32), count: &mut [u32]) -> bool {
        for (c, &(line, _, most)) in count.iter_mut().zip(&e.pattern.crossing) {
            *c += self.variant.lines()[line.index()].crossings(self.g, e.side, from, v);
            if *c > most {
                return false;
            }
        }
        true
    }

    /// Whether lines crossed `count` times meet every `crossing` minimum of the pattern.
    fn enough(e: &Expansion<'_>, count: &[u32]) -> bool {
        count
            .iter()
            .zip(&e.pattern.crossing)
            .all(|(&c, &(_, least, _))| c >= least)
    }

    /// Expands a bent slide or hop from `at`: each square takes its arm's step type; where
    /// the arm changes, the square is entered by the old step and the ray turns. The first
    /// time it enters an arm's zone it may turn either way outward (a branch of its own); every
    /// later time it reuses the direction it took there before.
    fn expand_bent(&self, e: &Expansion<'_>, at: Square, out: &mut Vec<RawPath>) {
        let leg = &e.pattern.legs[0];
        let Some((start_arm, arm)) = self.arm(leg, e.side, at) else {
            return;
        };
        for v in self.arm_vectors(e, arm, at, (0, 0)) {
            let mut chosen = vec![None; leg.arms.len()];
            chosen[start_arm] = Some(v);
            let walk = BentWalk {
                origin: at,
                at,
                dir: v,
                arm: start_arm,
                chosen,
                squares: Vec::new(),
                crossed: vec![0; e.pattern.crossing.len()],
                counts: Vec::new(),
            };
            self.bent_ray(e, leg, walk, out);
        }
    }

    /// Follows one bent ray to its end, starting further branches where it first turns.
    fn bent_ray(&self, e: &Expansion<'_>, leg: &Leg, mut w: BentWalk, out: &mut Vec<RawPath>) {
        let (max, hop) = match leg.kind {
            LegKind::Slide { max } => (max.map_or(usize::MAX, usize::from), false),
            LegKind::Hop { max, .. } => (max.map_or(usize::MAX, usize::from), true),
            LegKind::Step => (1, false),
        };
        // Squares before this branch's own are shared with the ray it split from: they block
        // and screen here too, but only that ray may end on them.
        let shared = w.squares.len();
        let mut cur = w.at;
        while w.squares.len() < max {
            let Some(next) = self.g.offset(cur, w.dir.0, w.dir.1) else {
                break;
            };
            if next == w.origin || w.squares.contains(&next) {
                break;
            }
            let Some((next_arm, arm)) = self.arm(leg, e.side, next) else {
                break;
            };
            if self.avoided(e, next) || !self.cross(e, cur, w.dir, &mut w.crossed) {
                break;
            }
            w.squares.push(next);
            w.counts.push(w.crossed.clone());
            cur = next;
            if next_arm == w.arm {
                continue;
            }
            w.arm = next_arm;
            if let Some(d) = w.chosen[next_arm] {
                w.dir = d;
                continue;
            }
            // The first entry: either outward direction the new zone allows.
            let allowed_dirs = self.arm_vectors(e, arm, next, w.dir);
            let turns: Vec<(i32, i32)> = outward(w.dir)
                .into_iter()
                .filter(|t| {
                    matches!(arm.dirs, Dirs::Same | Dirs::Outward | Dirs::Reverse)
                        || allowed_dirs.contains(t)
                })
                .collect();
            let Some((&first, rest)) = turns.split_first() else {
                break;
            };
            for &t in rest {
                let mut chosen = w.chosen.clone();
                chosen[next_arm] = Some(t);
                let branch = BentWalk {
                    origin: w.origin,
                    at: next,
                    dir: t,
                    arm: next_arm,
                    chosen,
                    squares: w.squares.clone(),
                    crossed: w.crossed.clone(),
                    counts: w.counts.clone(),
                };
                self.bent_ray(e, leg, branch, out);
            }
            w.chosen[next_arm] = Some(first);
            w.dir = first;
        }
        let ray = Self::ray(e, &w.squares, shared, &w.counts);
        if !ray.is_empty() {
            out.push(e.raw(Vec::new(), ray, hop));
        }
    }
}

/// Whether two of these paths can end on one square in one mode, so that generation must drop
/// repeated moves.
fn may_repeat(raw: &[RawPath]) -> bool {
    let mut seen_move = SquareSet::EMPTY;
    let mut seen_capture = SquareSet::EMPTY;
    let mut repeat = false;
    for rp in raw {
        for e in rp.ray.iter().filter(|e| e.can_stop()) {
            let t = e.square();
            if rp.flags.has(PathFlags::MOVE) {
                repeat |= seen_move.contains(t);
                seen_move.insert(t);
            }
            if rp.flags.has(PathFlags::CAPTURE) {
                repeat |= seen_capture.contains(t);
                seen_capture.insert(t);
            }
        }
    }
    repeat
}

/// How many squares reached are stored: each is a square of a stored path, so there are no
/// more than pool entries, whose positions fit a u32 (else the paths were refused).
fn reached_count(reached: &[u16]) -> u32 {
    u32::try_from(reached.len()).expect("fewer squares reached than pool entries")
}

/// The `promote to` clauses in force, grouped by (kind, side): those made in place, or the
/// others.
fn promotion_tables(
    variant: &Variant,
    options: &[bool],
    in_place: bool,
) -> (Vec<PromotionTable>, Vec<(u32, u32)>) {
    let sides = variant.sides().len();
    let mut tables = Vec::new();
    let mut index = Vec::with_capacity(variant.pieces().len() * sides);
    // A table per clause, per side: far fewer than a u32 counts.
    let count = |tables: &Vec<PromotionTable>| {
        u32::try_from(tables.len()).expect("fewer promotion tables than u32::MAX")
    };
    for piece in variant.pieces() {
        for s in 0..sides {
            let start = count(&tables);
            for p in piece
                .promotions
                .iter()
                .filter(|p| guards_hold(options, &p.options) && p.in_place == in_place)
            {
                tables.push(PromotionTable {
                    zone: variant.zones()[p.zone.index()].squares[s],
                    from_too: p.from_zone_too,
                    forced: p.forced,
                    when_capturing: p.when_capturing,
                    only_captured: p.only_captured,
                    at_most: p.at_most,
                    when_entering: p.when_entering,
                    never_forced: p.never_forced,
                    not_attacking: p.not_attacking,
                    anywhere_when_last: p.anywhere_when_last,
                    choices: p.choices.clone(),
                });
            }
            index.push((start, count(&tables)));
        }
    }
    (tables, index)
}

/// Squares each (kind, side) may be dropped on: where it has a move, within its drop zones.
fn drop_squares(variant: &Variant, dead: &[SquareSet]) -> Vec<SquareSet> {
    let sides = variant.sides().len();
    let all = variant.geometry().playable();
    let mut out = Vec::with_capacity(dead.len());
    for (kind, piece) in variant.pieces().iter().enumerate() {
        for s in 0..sides {
            let zone = |id: ZoneId| variant.zones()[id.index()].squares[s];
            let mut ds = if piece.drops.even_where_stuck {
                all
            } else {
                all.difference(&dead[kind * sides + s])
            };
            for z in &piece.drops.only_in {
                ds = ds.intersection(&zone(*z));
            }
            for z in &piece.drops.never_in {
                ds = ds.difference(&zone(*z));
            }
            out.push(ds);
        }
    }
    out
}

/// The squares from `a` to `b` along their line, both included.
fn segment(g: Geometry, a: Square, b: Square) -> Vec<Square> {
    let (dx, dy) = (
        (g.file(b) - g.file(a)).signum(),
        (g.rank(b) - g.rank(a)).signum(),
    );
    let mut out = vec![a];
    let mut cur = a;
    while cur != b {
        match g.offset(cur, dx, dy) {
            Some(next) => {
                out.push(next);
                cur = next;
            }
            None => break,
        }
    }
    out
}

/// The rules in force, with each castling's square lists and its right.
fn rules(variant: &Variant, options: &[bool]) -> RuleTable {
    let g = variant.geometry();
    let rules = variant.rules();
    let facing_vectors: Vec<(i32, i32)> = rules
        .facing
        .iter()
        .filter(|f| guards_hold(options, &f.options))
        .flat_map(|f| f.vectors.iter().map(|&(x, y)| (i32::from(x), i32::from(y))))
        .collect();
    let facing_draws = rules
        .facing
        .iter()
        .any(|f| f.draws && guards_hold(options, &f.options));
    let mut rights: Vec<CastlingRight> = Vec::new();
    let mut right_pieces = Vec::new();
    let mut castlings = Vec::new();
    for c in rules
        .castlings
        .iter()
        .filter(|c| guards_hold(options, &c.options))
    {
        let right = CastlingRight {
            side: c.side,
            king: c.king_from,
            partner: c.partner_from,
        };
        let index = match rights.iter().position(|r| *r == right) {
            Some(i) => i,
            None => {
                rights.push(right);
                right_pieces.push((c.king, c.partner));
                rights.len() - 1
            }
        };
        let king_path = segment(g, c.king_from, c.king_to);
        let partner_path = segment(g, c.partner_from, c.partner_to);
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
            right: index,
            written_to_partner: false,
        });
    }
    RuleTable {
        checkmate: rules.checkmate,
        checkmated: rules.checkmated,
        royal_guard: rules.royal_guard,
        must_capture: rules.must_capture,
        must_drop: rules.must_drop,
        explosions: rules.explosions,
        leave_walls: rules.leave_walls,
        passing: rules.passing,
        gating: rules.gating,
        petrify: rules.petrify.iter().copied().collect(),
        walls: rules.leave_walls || !rules.petrify.is_empty() || rules.wall_placing.is_some(),
        wall_placing: rules.wall_placing,
        passing_when_stuck: rules.passing_when_stuck,
        flip: rules.flip,
        flip_drops_near_friends: rules.flip_drops_near_friends,
        full_board_draws: rules.full_board_draws,
        hands: (rules.drops && guards_hold(options, &rules.drops_options))
            || rules.gating.is_some(),
        counting: rules.counting.clone(),
        counter_strike: rules.counter_strike.iter().copied().collect(),
        opposite_castling: rules.opposite_castling,
        castling_wins: castlings.iter().any(|c| c.rule.wins),
        connect: rules
            .connect
            .iter()
            .map(|c| {
                let kinds = if c.kinds.is_empty() {
                    KindSet::ALL
                } else {
                    c.kinds.iter().copied().collect()
                };
                let lines = c
                    .lines
                    .iter()
                    .map(|&(x, y)| (i32::from(x), i32::from(y)))
                    .collect();
                ConnectTable {
                    count: c.count,
                    block: c.block,
                    gaps: c.gaps,
                    kinds,
                    lines,
                    verdict: c.verdict,
                }
            })
            .collect(),
        draw_odds: rules.draw_odds,
        facing_draws,
        facing_forbidden: !facing_draws && !facing_vectors.is_empty(),
        plain_legality: rules.petrify.is_empty()
            && !rules.explosions
            && !rules.checks_forbidden
            && !facing_draws
            && rules.gating.is_none(),
        stalemate_by_count: rules.stalemate_by_count,
        mating_drops_lose: rules
            .mating_drops_lose
            .as_ref()
            .is_some_and(|g| guards_hold(options, g)),
        checks: rules.checks,
        checks_forbidden: rules.checks_forbidden,
        extinction: rules.extinction,
        stalemate: rules.stalemate,
        stalemate_passes: rules.stalemate_passes,
        eliminated: rules.eliminated,
        shared_victory: rules.shared_victory,
        turns_settle: rules.stalemate_passes || variant.sides().len() > 2,
        facing: (0..variant.sides().len())
            .map(|_| facing_vectors.clone())
            .collect(),
        repetition: rules.repetition.clone(),
        move_limit: rules.move_limit,
        drops: rules.drops && guards_hold(options, &rules.drops_options),
        captures_to_hand: rules.drops
            && rules.captures_to_hand
            && guards_hold(options, &rules.drops_options),
        castlings,
        rights,
        right_pieces,
        conditions: rules
            .conditions
            .iter()
            .enumerate()
            .filter(|(_, w)| guards_hold(options, &w.options))
            .map(|(i, w)| {
                let terms = w
                    .terms
                    .iter()
                    .map(|t| {
                        let kinds = t.kinds.iter().copied().collect();
                        let zone = t.zone.map(|z| variant.zones()[z.index()].squares.clone());
                        CountTable {
                            bound: t.bound,
                            count: t.count,
                            enemy: t.enemy,
                            safe: t.safe,
                            kinds,
                            zone,
                            hand: t.hand,
                        }
                    })
                    .collect();
                (
                    // Outcomes name a rule by a u16: past 65,535 rules the last ones share it.
                    u16::try_from(i).unwrap_or(u16::MAX),
                    WhenTable {
                        terms,
                        verdict: w.verdict,
                        asks: w.asks,
                        answerable: w.answerable,
                    },
                )
            })
            .collect(),
    }
}

/// The compiled paths and ways, read before the tables are put together: what the tables
/// derive from them is computed here, so that no field is filled in after construction.
struct Compiled<'a> {
    g: Geometry,
    sides: usize,
    motion: &'a Motion,
}

impl Compiled<'_> {
    /// For every (side, royal square): which squares, when vacated or filled, can change
    /// whether an enemy piece attacks that royal. Moves elsewhere need no legality test.
    fn sensitivity(&self, kinds: usize, rules: &RuleTable) -> (Vec<SquareSet>, Vec<SquareSet>) {
        let g = self.g;
        let n = g.len();
        let mut from_s = vec![SquareSet::EMPTY; self.sides * n];
        let mut to_s = vec![SquareSet::EMPTY; self.sides * n];
        for kind in 0..kinds {
            for side in 0..self.sides {
                for from in 0..n {
                    let i = (kind * self.sides + side) * n + from;
                    for (to, w) in self.motion.ways_from(i) {
                        let to = to.index();
                        if !w.flags.has(PathFlags::CAPTURE) {
                            continue;
                        }
                        let (pre, between) = self.motion.way_runs(&w);
                        for defender in (0..self.sides).filter(|d| *d != side) {
                            let fs = &mut from_s[defender * n + to];
                            for e in pre.iter().chain(between) {
                                fs.insert(e.square());
                            }
                            if w.flags.has(PathFlags::HOP) {
                                let ts = &mut to_s[defender * n + to];
                                for e in between {
                                    ts.insert(e.square());
                                }
                            }
                        }
                    }
                }
            }
        }
        for side in 0..self.sides {
            for sq in g.squares() {
                for &(dx, dy) in &rules.facing[side] {
                    let mut cur = sq;
                    while let Some(next) = g.offset(cur, dx, dy) {
                        from_s[side * n + sq.index()].insert(next);
                        cur = next;
                    }
                }
            }
        }
        (from_s, to_s)
    }

    /// A castling is written king-to-partner where the king could also step to its destination,
    /// or does not move.
    fn mark_castlings_written_to_partner(&self, rules: &mut RuleTable) {
        for i in 0..rules.castlings.len() {
            let r = &rules.castlings[i].rule;
            // A king that castles without moving (Chess960) can only be written so.
            let written = r.king_from == r.king_to
                || self.paths(r.king, r.side, r.king_from).iter().any(|p| {
                    let (_, ray) = self.path_runs(p);
                    ray.iter().any(|e| e.square() == r.king_to)
                });
            rules.castlings[i].written_to_partner = written;
        }
    }

    /// Per (capturing side, target): who could capture en passant there.
    fn ep_sources(&self, kinds: usize, has_en_passant: bool) -> Vec<Vec<(PieceKind, Square)>> {
        let n = self.g.len();
        let mut out = vec![Vec::new(); if has_en_passant { self.sides * n } else { 0 }];
        if !has_en_passant {
            return out;
        }
        for k in 0..kinds {
            let kind = PieceKind::nth(k);
            for s in 0..self.sides {
                let side = Side::nth(s);
                for from in self.g.squares() {
                    for path in self.paths(kind, side, from) {
                        if !path.flags.has(PathFlags::TAKES_EP) {
                            continue;
                        }
                        let (_, ray) = self.path_runs(path);
                        for e in ray.iter().filter(|e| e.can_stop()) {
                            let list = &mut out[s * n + e.index()];
                            if !list.contains(&(kind, from)) {
                                list.push((kind, from));
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// The paths of `kind` for `side` from `sq`.
    fn paths(&self, kind: PieceKind, side: Side, sq: Square) -> &[Path] {
        let i = (kind.index() * self.sides + side.index()) * self.g.len() + sq.index();
        self.motion.paths(i)
    }

    /// The squares that must be empty for `path`, then its ray.
    fn path_runs(&self, path: &Path) -> (&[Entry], &[Entry]) {
        self.motion.path_runs(path)
    }
}

/// The start squares of pieces whose patterns ask whether they moved, or whose first-move
/// state the FEN notes.
fn first_move_squares(
    variant: &Variant,
    options: &[bool],
    setup: &[crate::model::Placement],
) -> SquareSet {
    let asks: Vec<bool> = variant
        .pieces()
        .iter()
        .map(|piece| {
            piece.unmoved_in_fen
                || piece
                    .patterns
                    .iter()
                    .any(|p| p.unmoved.is_some() && guards_hold(options, &p.options))
        })
        .collect();
    setup
        .iter()
        .filter(|p| asks[p.piece.index()])
        .map(|p| p.square)
        .collect()
}
