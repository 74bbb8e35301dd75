//! The evaluation, derived from the definition alone: material from the pieces' values, square
//! tables from each piece's reach on an empty board (a square of reach counting for more the
//! fewer squares the piece reaches on average), its mobility in the position (the squares
//! its compiled paths reach past the pieces in the way), the way to promotion and to the goal
//! zones of `when` rules, measured in the piece's own moves, the enemy pieces a rider or hopper
//! attacks that are worth more than itself, royal pieces kept on sheltered squares while much
//! material is left, drawn to open ones in an ending, and in the middle game the danger to a
//! lone royal from the enemy pieces that reach its zone and the kinds the enemy holds in hand,
//! which a drop can bring there; to these, square
//! tables learned from self-play for the game, where it has them ([`crate::engine::tune`]).
//! Nothing here knows a game by name.

use crate::engine::position::{CellTerms, TERMS};
use crate::engine::{Piece, Position};
use crate::model::{side_frames, PathFlags, PieceKind, Side, Square, Verdict, MAX_SIDES, WALL};

/// Centipawns per square of reach above the piece's average, for a royal.
const REACH_WEIGHT: i32 = 4;
/// Other pieces: a square of reach above the piece's average on an empty board is worth
/// `REACH_SCALE` centipawns divided by that average (a knight's square more than a queen's,
/// as going from the rim to the centre means more to it), at most `REACH_MOST`.
const REACH_SCALE: i32 = 60;
const REACH_MOST: i32 = 12;
/// Centipawns per square of reach a royal gives up, preferring sheltered squares.
const ROYAL_REACH_WEIGHT: i32 = 2;
/// The most a goal zone adds for a piece standing in it.
const GOAL_BONUS: i32 = 300;
/// Centipawns per square a piece can move to or capture on in the position, beyond what its
/// square table already credits for an empty board: blocked riders lose, open files gain.
const MOBILITY_WEIGHT: i32 = 2;
/// Centipawns per enemy piece a rider or hopper attacks that is worth more than itself.
const THREAT_WEIGHT: i32 = 15;

/// Royal safety, for a side with a single royal in a game won by checkmate: the danger to it
/// grows with the enemy pieces that reach its zone (the royal's square and where it could step)
/// and the kinds the enemy holds in hand, times their number, and with the zone squares the
/// pieces reach; the middle-game penalty is the danger squared over `DANGER_SCALE`, at most
/// `DANGER_CAP`. Under two attackers there is none.
const ATTACKER_WEIGHT: i32 = 40;
const ZONE_HIT_WEIGHT: i32 = 60;
const DANGER_SCALE: i32 = 4096;
const DANGER_CAP: i32 = 800;

/// The share of the start's material (in 256ths) at and above which royals keep to shelter,
/// and at and below which they are fully drawn to the open squares of an ending.
const MIDDLE_GAME: i32 = 205;
const END_GAME: i32 = 77;

/// What taking a royal that has no value counts for (in exchanges, capture order and
/// quiescence): taking one ends the game, so none is given up in an exchange.
const ROYAL_CAPTURE: i32 = 100_000;

/// The bits of a piece's key that make its term of the structure key: sums of at most a few
/// hundred such terms stay far within an `i32`.
const STRUCTURE_TERM_MASK: u64 = (1 << 20) - 1;

/// Random boards per piece when values must be estimated ([`crate::engine::values`]).
const ESTIMATE_SAMPLES: usize = 600;

/// The tables of the evaluation, built once per compiled definition.
#[derive(Clone, Debug)]
pub struct Evaluator {
    kinds: usize,
    /// Per kind: its value in centipawns on the board (royal pieces: none, their loss ends the
    /// game) and in hand.
    value: Vec<i32>,
    hand_value: Vec<i32>,
    /// Whether pieces can be in hand at all (else the hands are not counted).
    hands: bool,
    /// Per kind: whether its mobility in the position counts (for riders and hoppers, not for
    /// royal pieces, whose freedom is exposure: their square table keeps them sheltered).
    mobile: Vec<bool>,
    /// The material of the start position, all sides together.
    start_material: i32,
    /// Per (cell, square), what [`Evaluator::score`] adds up over the pieces: value and
    /// square table (the positional term), the ending term (what the square gains in an
    /// ending: for royal kinds, where few pieces can threaten them and an active royal helps,
    /// the squares of wide reach; for any kind, what learned tables add there over their
    /// middle-game term), value alone. A position the search plays on
    /// keeps their sums as it goes ([`Position::track`]).
    cell_terms: CellTerms,
    /// Per kind: whether it is royal.
    royal: Vec<bool>,
    /// Whether any kind counts its mobility (else the pieces need not be visited at all).
    any_mobile: bool,
    /// The royals' zones, where checkmate decides the game.
    safety: Option<Safety>,
}

/// What royal safety needs: each royal's zone from every square, and how far pieces reach.
#[derive(Clone, Debug)]
struct Safety {
    /// Words of a zone's bit set (one bit per square).
    words: usize,
    /// Per kind: its index among the royal kinds, if royal.
    royal_index: Vec<Option<usize>>,
    royal_kinds: usize,
    /// Per (side, royal kind, square): the zone of that royal standing there, `words` words.
    zones: Vec<u64>,
    /// Per (side, kind): the furthest file or rank distance of a square it moves to on an
    /// empty board (a stepper further than this from a zone cannot reach it).
    span: Vec<i32>,
    /// Per square: file and rank.
    coords: Vec<(i32, i32)>,
}

impl Safety {
    fn new(pos: &Position, graphs: &[Vec<Graph>]) -> Option<Safety> {
        let t = pos.tables();
        if !t.rules().checkmate {
            return None;
        }
        let kinds = t.kinds();
        let g = t.geometry();
        let squares = g.len();
        let mut royal_index = vec![None; kinds];
        let mut royal_kinds = 0;
        for (k, r) in royal_index.iter_mut().enumerate() {
            if t.royal(PieceKind::nth(k)) {
                *r = Some(royal_kinds);
                royal_kinds += 1;
            }
        }
        if royal_kinds == 0 {
            return None;
        }
        let coords: Vec<(i32, i32)> = g.squares().map(|q| (g.file(q), g.rank(q))).collect();
        let words = squares.div_ceil(64);
        let sides = t.sides();
        let mut zones = vec![0; sides * royal_kinds * squares * words];
        let mut span = vec![0; sides * kinds];
        for (s, side_graphs) in graphs.iter().enumerate() {
            for (k, graph) in side_graphs.iter().enumerate() {
                for (from, targets) in graph.targets.iter().enumerate() {
                    let (f, r) = coords[from];
                    for &to in targets {
                        let (tf, tr) = coords[to as usize];
                        span[s * kinds + k] =
                            span[s * kinds + k].max((tf - f).abs()).max((tr - r).abs());
                    }
                    let Some(ri) = royal_index[k] else { continue };
                    let base = ((s * royal_kinds + ri) * squares + from) * words;
                    for sq in targets.iter().map(|&q| q as usize).chain([from]) {
                        zones[base + sq / 64] |= 1 << (sq % 64);
                    }
                }
            }
        }
        Some(Safety {
            words,
            royal_index,
            royal_kinds,
            zones,
            span,
            coords,
        })
    }

    /// Whether a piece of `cell` (side and kind) on `sq` stands within its furthest step of
    /// `zone`'s royal's: a stepper further off cannot reach the zone.
    fn near(&self, cell: usize, sq: usize, zone: &Zone) -> bool {
        let (f, r) = self.coords[sq];
        let (zf, zr) = self.coords[zone.at];
        let reach = self.span[cell] + zone.span;
        (f - zf).abs() <= reach && (r - zr).abs() <= reach
    }

    /// The zone of `side`'s royal of `kind` on `sq`.
    fn zone(&self, side: usize, kind: usize, sq: usize) -> &[u64] {
        let ri = self.royal_index[kind].expect("a royal kind");
        let start = ((side * self.royal_kinds + ri) * self.coords.len() + sq) * self.words;
        &self.zones[start..start + self.words]
    }
}

/// An enemy royal's zone as a piece's walk meets it.
#[derive(Clone, Copy)]
struct Zone<'a> {
    /// The royal's side.
    side: usize,
    bits: &'a [u64],
    /// The royal's square and how far its own steps go.
    at: usize,
    span: i32,
}

impl Evaluator {
    /// Builds the tables for `pos`'s definition (the position itself does not matter).
    pub fn new(pos: &Position) -> Evaluator {
        let t = pos.tables();
        let kinds = t.kinds();
        let g = t.geometry();
        let squares = g.len();
        let sides = t.sides();
        // Values the definition leaves out are estimated from the pieces' mobility.
        let estimated = t
            .variant()
            .pieces()
            .iter()
            .any(|p| !p.royal && !p.value_given)
            .then(|| crate::engine::values::estimate(pos, ESTIMATE_SAMPLES, 1));
        let written = |k: usize| -> i32 {
            let def = &t.variant().pieces()[k];
            match &estimated {
                Some(e) if !def.value_given && !def.royal => {
                    (e.pieces[k].value * 100.0).round() as i32
                }
                _ => def.centipawns(),
            }
        };
        let value: Vec<i32> = (0..kinds)
            .map(|k| {
                let kind = PieceKind::nth(k);
                if t.royal(kind) && t.rules().checkmate {
                    0
                } else {
                    written(k)
                }
            })
            .collect();
        let hand_value: Vec<i32> = (0..kinds).map(written).collect();
        let mut table = vec![0; sides * kinds * squares];
        let mut ending_terms = vec![0; sides * kinds * squares];
        let mut mobile = vec![false; kinds];
        let graphs: Vec<Vec<Graph>> = (0..sides)
            .map(|s| {
                (0..kinds)
                    .map(|k| reach_graph(pos, Side::nth(s), PieceKind::nth(k)))
                    .collect()
            })
            .collect();
        for s in 0..sides {
            let side = Side::nth(s);
            for k in 0..kinds {
                let kind = PieceKind::nth(k);
                let graph = &graphs[s][k];
                let base = (s * kinds + k) * squares;
                // Counts of squares, which a board has at most MAX_SQUARES of.
                let count = |n: usize| i32::try_from(n).expect("at most MAX_SQUARES");
                let reach: Vec<i32> = graph.targets.iter().map(|v| count(v.len())).collect();
                // The average reach over the squares it moves from is `total` over
                // `squares_on`, kept apart where no rounding of it may shift a whole table.
                let total: i32 = reach.iter().sum();
                let squares_on = count(reach.iter().filter(|&&r| r > 0).count());
                let mean = if squares_on == 0 {
                    0
                } else {
                    total / squares_on
                };
                let royal = t.royal(kind) && t.rules().checkmate;
                // Steppers' mobility hardly changes and costs a walk at every leaf: only
                // pieces whose paths run on past their first square count it.
                mobile[k] |= !royal
                    && g.squares()
                        .any(|sq| t.reach(kind, side, sq).len() > t.paths(kind, side, sq).len());
                for sq in 0..squares {
                    table[base + sq] += if royal {
                        ending_terms[base + sq] =
                            (REACH_WEIGHT + ROYAL_REACH_WEIGHT) * (reach[sq] - mean);
                        -ROYAL_REACH_WEIGHT * (reach[sq] - mean)
                    } else {
                        REACH_SCALE * (reach[sq] * squares_on - total)
                            / total.max(REACH_SCALE / REACH_MOST * squares_on).max(1)
                    };
                }
                // The way to promotion: what it gains, shared out over the moves still needed.
                let gain = graph
                    .promotions
                    .iter()
                    .map(|&p| value[p.index()] - value[k])
                    .max()
                    .unwrap_or(0);
                if gain > 0 {
                    let promoting: Vec<usize> =
                        (0..squares).filter(|&sq| graph.promotes[sq]).collect();
                    let dist = distances_to(graph, &promoting);
                    for sq in 0..squares {
                        if let Some(d) = dist[sq] {
                            table[base + sq] += gain / (8 * (i32::from(d) + 1));
                        }
                    }
                }
                // Goal zones of `when ... wins` rules that count the side's own pieces.
                for (_, rule) in &t.rules().conditions {
                    if rule.verdict != Verdict::Win {
                        continue;
                    }
                    for term in &rule.terms {
                        let Some(zone) = &term.zone else { continue };
                        if term.enemy || !term.kinds.contains(PieceKind::nth(k)) {
                            continue;
                        }
                        let goal: Vec<usize> = zone[s].iter().map(|q| q.index()).collect();
                        let dist = distances_to(graph, &goal);
                        for sq in 0..squares {
                            if let Some(d) = dist[sq] {
                                table[base + sq] += GOAL_BONUS / (i32::from(d) + 1);
                            }
                        }
                    }
                }
            }
        }
        // Learned tables, read through each side's frame.
        let learned = t
            .variant()
            .square_tables()
            .and_then(|l| Some((l, side_frames(t)?)));
        if let Some((learned, frames)) = learned {
            for (s, frame) in frames.iter().enumerate() {
                for k in 0..kinds {
                    let Some((middle, ending)) = learned.get(PieceKind::nth(k)) else {
                        continue;
                    };
                    let base = (s * kinds + k) * squares;
                    for (sq, at) in frame.iter().enumerate() {
                        table[base + sq] += middle[at.index()];
                        ending_terms[base + sq] += ending[at.index()] - middle[at.index()];
                    }
                }
            }
        }
        let hands = t.rules().captures_to_hand || !t.setup_hand().is_empty();
        let mut start_material = pos
            .plist
            .iter()
            .flatten()
            .map(|&sq| value[pos.cell_kind(pos.board[sq as usize]).index()])
            .sum();
        if hands {
            for s in 0..sides {
                start_material += hand_material(pos, Side::nth(s), &hand_value);
            }
        }
        let cheapest = (0..kinds)
            .filter(|&k| !t.royal(PieceKind::nth(k)) && value[k] > 0)
            .map(|k| value[k])
            .min();
        let structural: Vec<bool> = (0..kinds)
            .map(|k| !t.royal(PieceKind::nth(k)) && Some(value[k]) == cheapest)
            .collect();
        let mut cell_terms = vec![[0; TERMS]; (1 + sides * kinds) * squares];
        for s in 0..sides {
            for (k, &v) in value.iter().enumerate() {
                let cell = usize::from(pos.cell(Piece {
                    side: Side::nth(s),
                    kind: PieceKind::nth(k),
                }));
                for sq in 0..squares {
                    let i = (s * kinds + k) * squares + sq;
                    let key = if structural[k] {
                        i32::try_from(pos.cell_key(cell, sq) & STRUCTURE_TERM_MASK)
                            .expect("masked to fit")
                    } else {
                        0
                    };
                    cell_terms[cell * squares + sq] = [v + table[i], ending_terms[i], v, key];
                }
            }
        }
        Evaluator {
            safety: Safety::new(pos, &graphs),
            kinds,
            value,
            hand_value,
            hands,
            any_mobile: mobile.contains(&true),
            royal: (0..kinds).map(|k| t.royal(PieceKind::nth(k))).collect(),
            mobile,
            start_material,
            cell_terms: cell_terms.into(),
        }
    }

    /// The terms a position should track for this evaluation to read their sums instead of
    /// adding them up (see [`Position::track`]).
    pub fn cell_terms(&self) -> CellTerms {
        CellTerms::clone(&self.cell_terms)
    }

    /// The value of a piece of `kind` on the board, in centipawns.
    #[inline]
    pub fn value(&self, kind: PieceKind) -> i32 {
        self.value[kind.index()]
    }

    /// What taking a piece of `kind` wins, in centipawns: its value, or for a royal whose loss
    /// ends the game (and so has none), more than any exchange can give back.
    #[inline]
    pub fn capture_value(&self, kind: PieceKind) -> i32 {
        match self.value[kind.index()] {
            0 if self.royal[kind.index()] => ROYAL_CAPTURE,
            v => v,
        }
    }

    /// The value of a piece of `kind` as written in the definition, or estimated where it gives
    /// none, in centipawns (royal pieces too: what one in hand is worth).
    #[inline]
    pub fn written_value(&self, kind: PieceKind) -> i32 {
        self.hand_value[kind.index()]
    }

    /// The key of the places of the cheapest pieces (the pawn structure of chess): positions
    /// that share it tend to share the errors of the static score. Each side's pieces of those
    /// kinds add up random terms, which a position the search plays on keeps summed as it goes.
    pub fn structure_key(&self, pos: &Position) -> u64 {
        let mut key = 0;
        for s in 0..pos.plist.len() {
            let sum = self.side_terms(pos, s)[3];
            let sum = u64::try_from(sum).expect("terms are not negative");
            let turn = u32::try_from(17 * s).expect("at most MAX_SIDES sides");
            key ^= sum.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(turn);
        }
        key
    }

    /// The sums of the cell terms over side `s`'s pieces: kept by `pos` as it goes, where
    /// it tracks them, else added up.
    #[inline]
    fn side_terms(&self, pos: &Position, s: usize) -> [i32; TERMS] {
        match pos.tracked(&self.cell_terms) {
            Some(sums) => sums[s],
            None => pos.add_up(&self.cell_terms, s),
        }
    }

    /// How far `material` (all sides' together) has come from the middle game towards the
    /// ending, from 0 (the middle game) to `MIDDLE_GAME - END_GAME` (the ending).
    fn ending_weight(&self, material: i32) -> i32 {
        if self.start_material > 0 {
            let share = (256 * material / self.start_material).clamp(END_GAME, MIDDLE_GAME);
            MIDDLE_GAME - share
        } else {
            0
        }
    }

    /// How far `pos` has come from the middle game (0) to the ending (1): the share of the
    /// ending terms in its score.
    pub fn ending_share(&self, pos: &Position) -> f64 {
        let material: i32 = (0..pos.plist.len())
            .map(|s| self.side_terms(pos, s)[2] + self.in_hand(pos, Side::nth(s)))
            .sum();
        f64::from(self.ending_weight(material)) / f64::from(MIDDLE_GAME - END_GAME)
    }

    /// The value of what `side` holds in hand.
    fn in_hand(&self, pos: &Position, side: Side) -> i32 {
        if self.hands {
            hand_material(pos, side, &self.hand_value)
        } else {
            0
        }
    }

    /// The score of `pos` for the side to move, in centipawns.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.score(pos, |s| s == pos.side_to_move())
    }

    /// The score of `pos` for the coalition of `root` and its partners against every other
    /// side (the paranoid search's view of a game of more than two sides), from the point of
    /// view of the side to move's coalition.
    pub fn evaluate_coalition(&self, pos: &Position, root: Side) -> i32 {
        let t = pos.tables();
        let ours = t.partners(pos.side_to_move(), root);
        self.score(pos, |s| t.partners(s, root) == ours)
    }

    /// Material, tables, mobility and royal safety of the sides `mine` picks less those of the
    /// others (with more than two sides, scaled as one side's).
    fn score(&self, pos: &Position, mine: impl Fn(Side) -> bool) -> i32 {
        let t = pos.tables();
        let sides = pos.plist.len();
        let mut material = 0;
        let mut side_scores = [0; MAX_SIDES];
        let mut side_endings = [0; MAX_SIDES];
        // Per side: the danger to its royal, as enemy pieces reaching its zone count and the
        // zone squares they reach.
        let mut attackers = [0; MAX_SIDES];
        let mut hits = [0; MAX_SIDES];
        // Per side: the kinds it holds in hand (royals apart).
        let mut held = [0; MAX_SIDES];
        let mut zones: [Option<Zone>; MAX_SIDES] = [const { None }; MAX_SIDES];
        if let Some(safety) = &self.safety {
            for (s, zone) in zones.iter_mut().enumerate().take(sides) {
                let royals = &pos.royals[s];
                // With several royals the loss of one is not the end: no single one is
                // guarded.
                if let [at] = royals[..] {
                    let at = usize::from(at);
                    let kind = pos.cell_kind(pos.board[at]).index();
                    *zone = Some(Zone {
                        side: s,
                        bits: safety.zone(s, kind, at),
                        at,
                        span: safety.span[s * self.kinds + kind],
                    });
                }
            }
        }
        let none = Zone {
            side: 0,
            bits: &[],
            at: 0,
            span: 0,
        };
        let mut enemy_zones = [none; MAX_SIDES];
        for (s, list) in pos.plist.iter().enumerate() {
            let side = Side::nth(s);
            let [mut side_score, side_ending, side_material, _] = self.side_terms(pos, s);
            material += side_material;
            let mut n = 0;
            for z in zones.iter().flatten() {
                if !t.partners(side, Side::nth(z.side)) {
                    enemy_zones[n] = *z;
                    n += 1;
                }
            }
            let enemy_zones = &enemy_zones[..n];
            if self.any_mobile || n > 0 {
                for &sq in list {
                    let kind = pos.cell_kind(pos.board[sq as usize]);
                    let k = kind.index();
                    let mobile = self.mobile[k];
                    // Steppers too far from every enemy zone are not walked.
                    let near = |z: &Zone| {
                        let safety = self.safety.as_ref().expect("zones come from it");
                        safety.near(s * self.kinds + k, sq as usize, z)
                    };
                    let attacking = !self.royal[k] && (mobile || enemy_zones.iter().any(near));
                    if !mobile && !attacking {
                        continue;
                    }
                    let zones = if attacking { enemy_zones } else { &[] };
                    let reach = reach(pos, side, kind, Square::at(sq), &self.value, zones);
                    if mobile {
                        side_score +=
                            MOBILITY_WEIGHT * reach.squares + THREAT_WEIGHT * reach.threats;
                    }
                    for (z, &n) in zones.iter().zip(&reach.zone_hits) {
                        if n > 0 {
                            attackers[z.side] += 1;
                            hits[z.side] += n;
                        }
                    }
                }
            }
            if self.hands {
                // Pieces in hand are still in play: their value is material, and what keeps a
                // game of drops in its middle game.
                let hand = self.in_hand(pos, side);
                side_score += hand;
                material += hand;
                for k in (0..self.kinds).filter(|&k| !self.royal[k]) {
                    held[s] += i32::from(pos.in_hand(side, PieceKind::nth(k)) > 0);
                }
            }
            side_scores[s] = side_score;
            side_endings[s] = side_ending;
        }
        // A kind in an enemy hand can be dropped next to the royal: it counts as an attacker.
        for z in zones.iter().flatten() {
            for (e, &n) in held.iter().enumerate().take(sides) {
                if !t.partners(Side::nth(e), Side::nth(z.side)) {
                    attackers[z.side] += n;
                }
            }
        }
        let ending_weight = self.ending_weight(material);
        let taper = MIDDLE_GAME - END_GAME;
        let mut score = 0;
        for s in 0..sides {
            let mut side_score = side_scores[s];
            if attackers[s] >= 2 {
                let danger =
                    attackers[s] * attackers[s] * ATTACKER_WEIGHT + hits[s] * ZONE_HIT_WEIGHT;
                let penalty = (danger * danger / DANGER_SCALE).min(DANGER_CAP);
                side_score -= penalty * (taper - ending_weight) / taper;
            }
            // From the middle game to the ending as material comes off, the royals' square
            // terms turn from shelter to activity, and learned tables to their ending terms.
            side_score += side_endings[s] * ending_weight / taper;
            if mine(Side::nth(s)) {
                score += side_score;
            } else {
                score -= side_score;
            }
        }
        if t.sides() > 2 {
            score /= i32::try_from(t.sides() - 1).expect("at most MAX_SIDES sides");
        }
        score
    }
}

/// The value of what `side` holds in hand in `pos`, at `hand_value` per kind.
fn hand_material(pos: &Position, side: Side, hand_value: &[i32]) -> i32 {
    hand_value
        .iter()
        .enumerate()
        .map(|(k, v)| i32::from(pos.in_hand(side, PieceKind::nth(k))) * v)
        .sum()
}

/// What a piece reaches in the position: see [`reach`].
struct Reach {
    /// Squares it can move to or capture on.
    squares: i32,
    /// Enemy pieces it can capture that are worth more than itself.
    threats: i32,
    /// Per zone given: the squares of it the piece could capture on (empty, or held by an enemy).
    zone_hits: [i32; MAX_SIDES],
}

/// How many squares the piece of `kind` of `side` on `from` reaches in `pos`.
#[cfg(test)]
fn mobility(pos: &Position, side: Side, kind: PieceKind, from: Square) -> i32 {
    reach(pos, side, kind, from, &vec![0; pos.tables().kinds()], &[]).squares
}

/// How many squares the piece of `kind` of `side` on `from` reaches in `pos` along its own
/// paths, moving to empty squares or capturing enemy pieces, whoever is to move, how many
/// of the enemy pieces it could capture are worth more than itself by `values` (per kind), and
/// how many squares of each of `zones` it could move to or capture on along its capturing
/// paths. Counted, not generated: no promotion choices, no target rules,
/// no borrowed powers, no teleports.
fn reach(
    pos: &Position,
    side: Side,
    kind: PieceKind,
    from: Square,
    values: &[i32],
    zones: &[Zone],
) -> Reach {
    let t = pos.tables();
    let own = values[kind.index()];
    let mut n = 0;
    let mut threats = 0;
    let mut zone_hits = [0; MAX_SIDES];
    for path in t.paths(kind, side, from) {
        if !pos.condition_holds(path.condition(), from) {
            continue;
        }
        let flags = path.flags();
        let moves = flags.has(PathFlags::MOVE);
        let captures = flags.has(PathFlags::CAPTURE);
        let mut count = |to: Square, occupant: u8| {
            if occupant == 0 {
                n += i32::from(moves);
            } else if captures && occupant != WALL && pos.cell_side(occupant) != side {
                n += 1;
                threats += i32::from(values[pos.cell_kind(occupant).index()] > own);
            }
            // Squares held by its own pieces are left out: it could neither move there nor
            // take there (counting them cost Shogi, where castles are crowded, and Chess too).
            if captures && (occupant == 0 || occupant != WALL && pos.cell_side(occupant) != side) {
                let i = to.index();
                for (z, hit) in zones.iter().zip(&mut zone_hits) {
                    *hit += i32::from(z.bits[i / 64] >> (i % 64) & 1 != 0);
                }
            }
        };
        if flags.has(PathFlags::HOP) {
            t.walk::<true>(path, &pos.board, &mut count);
        } else {
            t.walk::<false>(path, &pos.board, &mut count);
        }
    }
    Reach {
        squares: n,
        threats,
        zone_hits,
    }
}

/// Where a piece of `kind` of `side` moves from each square of an empty board.
struct Graph {
    /// Per square: the distinct destination squares.
    targets: Vec<Vec<u16>>,
    /// Per square: whether some move from it promotes.
    promotes: Vec<bool>,
    /// The kinds it may promote to.
    promotions: Vec<PieceKind>,
}

fn reach_graph(pos: &Position, side: Side, kind: PieceKind) -> Graph {
    let g = pos.tables().geometry();
    let n = g.len();
    let mut targets = vec![Vec::new(); n];
    let mut promotes = vec![false; n];
    let mut promotions = Vec::new();
    let mut moves = Vec::new();
    for sq in g.squares() {
        let alone = pos.only(&[(sq, Piece { side, kind })]);
        moves.clear();
        alone.pseudo_moves(&mut moves);
        let list = &mut targets[sq.index()];
        for m in moves.iter().filter(|m| !m.is_drop() && m.from == sq) {
            if !list.contains(&m.to.raw()) {
                list.push(m.to.raw());
            }
            if let Some(p) = m.promotion {
                promotes[sq.index()] = true;
                if !promotions.contains(&p) {
                    promotions.push(p);
                }
            }
        }
    }
    Graph {
        targets,
        promotes,
        promotions,
    }
}

/// Per square: how many moves of the piece lie between it and a square of `from_set`, where it
/// counts as already there (0).
fn distances_to(graph: &Graph, from_set: &[usize]) -> Vec<Option<u16>> {
    let n = graph.targets.len();
    let mut dist = vec![None; n];
    let mut queue = std::collections::VecDeque::new();
    for &s in from_set {
        dist[s] = Some(0);
        queue.push_back(s);
    }
    // Walk backwards: a square is one move further than any square it moves to.
    let mut sources = vec![Vec::new(); n];
    for (from, list) in graph.targets.iter().enumerate() {
        for &to in list {
            sources[to as usize].push(from);
        }
    }
    while let Some(s) = queue.pop_front() {
        let d = dist[s].expect("queued squares have a distance");
        for &f in &sources[s] {
            if dist[f].is_none() {
                dist[f] = Some(d + 1);
                queue.push_back(f);
            }
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::shipped_position as position;

    /// The counted mobility of a piece is the number of squares move generation sends it to,
    /// for pieces whose moves depend on nothing but the board: riders, lame leapers, hoppers.
    #[test]
    fn mobility_counts_the_squares_move_generation_reaches() {
        let cases = [
            (
                "chess.variant",
                "r3k2r/pp3ppp/2n1bn2/2b1p3/4P3/2NB1N2/PPP2PPP/R1BQ1RK1 w kq - 0 1",
            ),
            ("chess.variant", "4k3/8/8/3q4/8/1N6/8/R3K2B w - - 0 1"),
            (
                "xiangqi.variant",
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            ),
            (
                "xiangqi.variant",
                "4k4/9/4c4/9/2n6/9/4R4/2N1C4/9/4K4 w - - 0 1",
            ),
        ];
        let mut checked = 0;
        for (file, fen) in cases {
            let pos = position(file, fen);
            let t = pos.tables();
            let me = pos.side_to_move();
            for &sq in &pos.plist[me.index()] {
                let from = Square::at(sq);
                let kind = pos.cell_kind(pos.board[sq as usize]);
                let letter = t.variant().piece(kind).letter;
                if !["R", "B", "Q", "N", "C"].iter().any(|l| letter.matches(l)) {
                    continue;
                }
                let mut moves = Vec::new();
                pos.piece_moves(from, &mut moves);
                let mut targets: Vec<_> = moves.iter().map(|m| m.to).collect();
                targets.sort_by_key(|s| s.raw());
                targets.dedup();
                assert_eq!(
                    mobility(&pos, me, kind, from),
                    targets.len() as i32,
                    "{letter} on {} in {fen}",
                    t.geometry().name(from)
                );
                checked += 1;
            }
        }
        assert!(checked >= 16, "only {checked} pieces checked");
    }

    /// With most material on the board a king keeps to its corner; in an ending it goes to
    /// the centre.
    #[test]
    fn a_king_shelters_in_the_middle_game_and_centralises_in_the_ending() {
        let castled = position(
            "chess.variant",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1RK1 w kq - 0 1",
        );
        let central = position(
            "chess.variant",
            "rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1R2 w kq - 0 1",
        );
        let eval = Evaluator::new(&castled);
        assert!(eval.evaluate(&castled) > eval.evaluate(&central));
        let corner = position("chess.variant", "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1");
        let active = position("chess.variant", "6k1/5ppp/8/8/8/4K3/5PPP/8 w - - 0 1");
        assert!(eval.evaluate(&active) > eval.evaluate(&corner));
    }

    /// A square of reach is worth more to a piece that reaches few: from the corner to the
    /// centre a knight and a queen each gain six squares on an empty board, and the knight
    /// gains more for them (the queen's gain includes its mobility in the position too).
    #[test]
    fn a_square_of_reach_counts_more_for_a_knight_than_for_a_queen() {
        let gain = |corner: &str, centre: &str| {
            let a = position("chess.variant", corner);
            let b = position("chess.variant", centre);
            let eval = Evaluator::new(&a);
            eval.evaluate(&b) - eval.evaluate(&a)
        };
        let knight = gain(
            "7k/8/8/8/8/8/8/N6K w - - 0 1",
            "7k/8/8/8/3N4/8/8/7K w - - 0 1",
        );
        let queen = gain(
            "7k/8/8/8/8/8/8/Q6K w - - 0 1",
            "7k/8/8/8/3Q4/8/8/7K w - - 0 1",
        );
        assert!(queen > 0, "{queen}");
        assert!(knight > 2 * queen, "knight {knight}, queen {queen}");
    }

    /// The sums a tracked position keeps as moves are made and taken back are those added
    /// up afresh, in games that capture to hand and drop, explode, petrify, flip, build walls
    /// and promote, of two sides and of four.
    #[test]
    fn tracked_sums_follow_every_move_and_its_undo() {
        let files = [
            "chess.variant",
            "shogi.variant",
            "gala-xiangqi-four.variant",
            "library/crazyhouse.variant",
            "library/atomic.variant",
            "library/petrified.variant",
            "library/flipello.variant",
            "library/duck.variant",
            "library/amazons.variant",
        ];
        for file in files {
            let path = format!("definitions/{file}");
            let text = std::fs::read_to_string(&path).unwrap();
            let variant = crate::load(&path, &text).unwrap();
            let start = Position::new(crate::model::Tables::compile(&variant, &[]).unwrap());
            let eval = Evaluator::new(&start);
            let mut pos = start.clone();
            pos.track(eval.cell_terms());
            let check = |pos: &Position, ply: usize| {
                let sums = pos.tracked(&eval.cell_terms).expect("tracked");
                for (s, &sum) in sums.iter().enumerate() {
                    assert_eq!(
                        sum,
                        pos.add_up(&eval.cell_terms, s),
                        "{file}, side {s}, ply {ply}"
                    );
                }
            };
            let mut rng = crate::engine::zobrist::Rng::new(5);
            let mut moves = Vec::new();
            let mut played = 0;
            while played < 80 && pos.outcome().is_none() {
                moves.clear();
                pos.legal_moves_into(&mut moves);
                let Some(&m) = moves.get((rng.next() % moves.len().max(1) as u64) as usize) else {
                    break;
                };
                pos.play(m);
                played += 1;
                check(&pos, played);
            }
            assert!(played >= 10, "{file}: only {played} plies");
            for ply in (0..played).rev() {
                pos.unmake();
                check(&pos, ply);
            }
            assert_eq!(eval.evaluate(&pos), eval.evaluate(&start), "{file}");
        }
    }

    /// A rook attacking a queen threatens it; the queen attacking the rook does not count.
    #[test]
    fn a_rider_threatens_only_pieces_worth_more() {
        let pos = position("chess.variant", "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1");
        let eval = Evaluator::new(&pos);
        let g = pos.tables().geometry();
        let at = |name| {
            let sq = g.parse(name).unwrap();
            let piece = pos.piece_at(sq).unwrap();
            reach(&pos, piece.side, piece.kind, sq, &eval.value, &[])
        };
        assert_eq!(at("d1").threats, 1);
        assert_eq!(at("d5").threats, 0);
        assert_eq!(at("d5").squares, 27);
    }

    /// The zone of the first side's royal on `square` of `pos`, as the evaluation sees it.
    fn royal_zone<'a>(eval: &'a Evaluator, pos: &Position, square: &str) -> Zone<'a> {
        let safety = eval.safety.as_ref().expect("a game won by checkmate");
        let king = pos.tables().geometry().parse(square).unwrap();
        let kind = pos.piece_at(king).unwrap().kind;
        Zone {
            side: 0,
            bits: safety.zone(0, kind.index(), king.index()),
            at: king.index(),
            span: 1,
        }
    }

    /// Royal safety: enemy pieces reaching a lone royal's zone (its square and where it could
    /// step) cost its side, in the middle game, the danger squared over the scale; a rider
    /// counts the zone squares along its lines, a stepper those it jumps to.
    #[test]
    fn enemy_pieces_reaching_a_royal_zone_cost_its_side() {
        let pos = position(
            "chess.variant",
            "r1b3k1/pp3r1p/2n3p1/8/7n/3q4/PP3PPP/RNBQR1K1 w - - 0 1",
        );
        let eval = Evaluator::new(&pos);
        let g = pos.tables().geometry();
        let zone = royal_zone(&eval, &pos, "g1");
        let hits = |name| {
            let sq = g.parse(name).unwrap();
            let piece = pos.piece_at(sq).unwrap();
            reach(&pos, piece.side, piece.kind, sq, &eval.value, &[zone]).zone_hits[0]
        };
        // The rook down to f2, the queen's diagonal to f1, the knight's leap to g2.
        assert_eq!(
            [hits("f7"), hits("d3"), hits("h4"), hits("c6")],
            [1, 1, 1, 0]
        );
        let mut plain = eval.clone();
        plain.safety = None;
        let penalty = |pos: &Position, attackers: i32, hits: i32| {
            let material: i32 = (0..2).map(|s| pos.add_up(&eval.cell_terms, s)[2]).sum();
            let span = MIDDLE_GAME - END_GAME;
            let middle = span - eval.ending_weight(material);
            assert!(middle > 0, "a middle-game position");
            let danger = attackers * attackers * ATTACKER_WEIGHT + hits * ZONE_HIT_WEIGHT;
            danger * danger / DANGER_SCALE * middle / span
        };
        // White's pieces reach none of Black's zone; Black's reach White's with the rook, the
        // queen and the knight (one square each), without the knight, or with the rook alone,
        // which counts for nothing.
        let cases = [
            ("r1b3k1/pp3r1p/2n3p1/8/7n/3q4/PP3PPP/RNBQR1K1 w - - 0 1", 3),
            ("r1b3k1/pp3r1p/2n3p1/8/8/3q4/PP3PPP/RNBQR1K1 w - - 0 1", 2),
            ("r1b3k1/pp3r1p/2n3p1/8/8/2q5/PP3PPP/RNBQR1K1 w - - 0 1", 1),
        ];
        let mut last = i32::MAX;
        for (fen, attackers) in cases {
            let pos = position("chess.variant", fen);
            let expected = if attackers >= 2 {
                penalty(&pos, attackers, attackers)
            } else {
                0
            };
            assert!(expected < last, "{fen}: less danger with fewer attackers");
            last = expected;
            assert_eq!(
                eval.evaluate(&pos),
                plain.evaluate(&pos) - expected,
                "{fen}"
            );
        }
        // A side with two royals loses neither alone: none of them is guarded.
        let pair = position(
            "chess.variant",
            "r1b3k1/pp3r1p/2n3p1/8/7n/3q4/PP3PPP/RNBQRKK1 w - - 0 1",
        );
        assert_eq!(eval.evaluate(&pair), plain.evaluate(&pair));
    }

    /// In a game with drops every kind an enemy holds in hand counts as one more attacker of
    /// the royal's zone (a second piece of a kind adds nothing); one's own hand does not.
    #[test]
    fn kinds_in_an_enemy_hand_attack_a_royal() {
        let fen = |hand: &str| format!("4k4/9/9/9/4r4/9/9/9/4K4[{hand}] w 0 1");
        let pos = position("shogi.variant", &fen(""));
        let eval = Evaluator::new(&pos);
        let g = pos.tables().geometry();
        let zone = royal_zone(&eval, &pos, "e1");
        let rook = g.parse("e5").unwrap();
        let piece = pos.piece_at(rook).unwrap();
        // Down the file to e2 and the king's own square.
        let hits = reach(&pos, piece.side, piece.kind, rook, &eval.value, &[zone]).zone_hits[0];
        assert_eq!(hits, 2);
        let mut plain = eval.clone();
        plain.safety = None;
        // Per hand: the attackers of the first side's royal (the rook and the second side's
        // kinds in hand) and of the second side's (the first side's kinds in hand only).
        let cases = [
            ("", 1, 0),
            ("g", 2, 0),
            ("gg", 2, 0),
            ("gs", 3, 0),
            ("GS", 1, 2),
            ("gsP", 3, 1),
        ];
        let mut costs = Vec::new();
        for (hand, first, second) in cases {
            let pos = position("shogi.variant", &fen(hand));
            let material: i32 = (0..2).map(|s| pos.add_up(&eval.cell_terms, s)[2]).sum();
            let span = MIDDLE_GAME - END_GAME;
            let middle = span - eval.ending_weight(material);
            let penalty = |attackers: i32, hits: i32| {
                if attackers < 2 {
                    return 0;
                }
                let danger = attackers * attackers * ATTACKER_WEIGHT + hits * ZONE_HIT_WEIGHT;
                (danger * danger / DANGER_SCALE).min(DANGER_CAP) * middle / span
            };
            let expected = penalty(first, hits) - penalty(second, 0);
            assert_eq!(
                eval.evaluate(&pos),
                plain.evaluate(&pos) - expected,
                "hand {hand}"
            );
            costs.push(expected);
        }
        // No danger from the rook alone, more from each further kind.
        assert!(costs[0] == 0 && 0 < costs[1] && costs[1] == costs[2] && costs[2] < costs[3]);
    }

    /// Captured pieces that go to hand stay in play: a drop game with its rooks and bishops in
    /// hand is still in its middle game, though the same board without them is not.
    #[test]
    fn pieces_in_hand_keep_a_drop_game_in_its_middle_game() {
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w 0 1";
        let eval = Evaluator::new(&position("shogi.variant", start));
        let board = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL";
        let held = position("shogi.variant", &format!("{board}[RBrb] w 0 1"));
        let gone = position("shogi.variant", &format!("{board}[] w 0 1"));
        assert_eq!(eval.ending_share(&held), 0.0);
        assert!(eval.ending_share(&gone) > 0.0);
    }

    /// A rook shut in by its own pawns is worth less than the same rook on an open file.
    #[test]
    fn an_open_file_scores_above_a_closed_one() {
        let open = position("chess.variant", "4k3/8/8/8/8/8/1P6/R3K3 w - - 0 1");
        let shut = position("chess.variant", "4k3/8/8/8/8/8/P7/R3K3 w - - 0 1");
        let eval = Evaluator::new(&open);
        let g = open.tables().geometry();
        let a1 = g.parse("a1").unwrap();
        let rook = open.piece_at(a1).unwrap();
        assert_eq!(mobility(&open, rook.side, rook.kind, a1), 10);
        assert_eq!(mobility(&shut, rook.side, rook.kind, a1), 3);
        assert!(eval.evaluate(&open) > eval.evaluate(&shut));
    }

    /// Positions share a structure key when their pawns stand alike, whatever the other
    /// pieces do; a pawn's step, or a pawn of the other side in its place, changes it.
    #[test]
    fn the_structure_key_follows_the_pawns_alone() {
        let key = |fen: &str| {
            let pos = position("chess.variant", fen);
            Evaluator::new(&pos).structure_key(&pos)
        };
        let start = key("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let developed = key("r1bqkb1r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 4 3");
        assert_eq!(start, developed);
        let pushed = key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        let theirs = key("rnbqkbnr/pppp1ppp/8/8/4p3/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert!(pushed != start && theirs != start && pushed != theirs);
    }

    /// A learned table moves the score by its term, for the first side as written and for
    /// the second through the mirror of its setup; the ending term takes over as material
    /// comes off.
    #[test]
    fn learned_tables_add_their_terms_for_every_side() {
        let text = std::fs::read_to_string("definitions/chess.variant").unwrap();
        let variant = crate::load("chess.variant", &text).unwrap();
        let knight = variant.piece_by_name("Knight").unwrap();
        let f3 = 2 * 8 + 5;
        let mut learned = crate::model::SquareTables::new(variant.pieces().len(), String::new());
        let (mut middle, mut ending) = (vec![0; 64], vec![0; 64]);
        middle[f3] = 40;
        ending[f3] = -100;
        learned.set(knight, middle, ending);
        let with = |v: &crate::model::Variant, fen: &str| {
            let start = Position::new(crate::model::Tables::compile(v, &[]).unwrap());
            let pos = start.with_fen(fen).unwrap();
            Evaluator::new(&start).evaluate(&pos)
        };
        let tabled = variant.clone().with_square_tables(learned);
        // After 1. Nf3 black is to move: 40 cp worse for it; after 1... Nf6 even again.
        for (fen, gain) in [
            (
                "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1",
                -40,
            ),
            (
                "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2",
                0,
            ),
            (
                "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2 2",
                -40,
            ),
        ] {
            assert_eq!(with(&tabled, fen) - with(&variant, fen), gain, "{fen}");
        }
        // In a bare ending the knight on f3 counts its ending term.
        let ending_fen = "4k3/8/8/8/8/5N2/8/4K3 w - - 0 1";
        assert_eq!(with(&tabled, ending_fen) - with(&variant, ending_fen), -100);
    }
}
