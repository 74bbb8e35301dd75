//! The engine's search: iterative deepening under time, node and depth limits, aspiration
//! windows from the fifth iteration, alpha-beta with principal-variation windows, a
//! transposition table on the position's Zobrist hash (read and written by quiescence too),
//! quiescence on captures and promotions
//! (at most eight plies, generated apart from quiet moves; no capture the static exchange
//! says loses; past the first two only captures that win material outright or take back, so
//! that it stays small where nearly every move captures, as with cannons, shots and Clobber),
//! check and singular extensions (not both for one move), mate distance pruning, reverse
//! futility pruning, null-move
//! pruning (only for a side holding a piece worth at least two and a half of the cheapest, or
//! a piece in hand, and
//! verified by a reduced search from depth 10: what keeps zugzwang from fooling it), internal
//! iterative reductions, late-move pruning of quiet moves at shallow nodes, and futility
//! pruning, pruning by continuation history and exchange pruning (a quiet move or capture the
//! static exchange on its square says loses more than the depth could win back) by the depth
//! a quiet move would have once reduced, so that they reach further up the tree for late
//! moves,
//! logarithmic late-move reductions (less for moves with a good history; one ply for a
//! capture the static exchange says loses, away from the principal line), all of them bolder
//! where the side to move stands no better than at its last move, and move ordering by the
//! hash move (searched before the other moves are generated, where it can be checked alone),
//! captures by victim and attacker value (those that lose in the static exchange
//! last), killers, the refutation of the move before, and history (raised for the quiet move
//! that cuts off, lowered for those tried before it), both a move's own and its continuation
//! history after each of the two moves before it. Static scores are corrected by what
//! searches found in positions of the same structure (the places of the cheapest pieces) and
//! side to move. A position met again on the path scores as the definition's repetition rule
//! would end the game (perpetual check losing where it says so). The evaluation
//! ([`Evaluator`]) comes from the definition alone.
//!
//! [`basic`] keeps the first engine (material only, fixed depth), as a weaker opponent and
//! a yardstick.

pub mod basic;
mod eval;
mod limits;
mod pick;
mod see;
mod tt;

use crate::engine::clock::Instant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub use basic::{best_move, evaluate, Found};
pub use eval::Evaluator;
use limits::time_for_move;
pub use limits::{Clock, Limits, Report, Score, Style};
use tt::{from_tt, Bound, Entry, EMPTY};

use super::mv::{Move, MoveKind};
use super::position::Position;
use crate::model::{PieceKind, Side, Verdict};

/// The score of a mate now; a mate `n` plies away scores `MATE - n`.
pub const MATE: i32 = 1_000_000;
/// Scores beyond this are mates.
const MATE_BOUND: i32 = MATE - 10_000;
/// The deepest iteration of the search, [`MAX_PLY`] less room for quiescence.
const MAX_DEPTH: u32 = 120;
/// The deepest ply the search reaches (quiescence included).
const MAX_PLY: usize = MAX_DEPTH as usize + 8;
/// Positions between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;
/// Plies of captures quiescence plays beyond the search's depth, out of check.
const QUIESCENCE_PLIES: u32 = 8;
/// How much more than a capture's victim a position may still be worth after it (a capture
/// that cannot lift the score to alpha by this margin is not tried in quiescence).
const DELTA_MARGIN: i32 = 200;
/// Reverse futility: how far above beta the static score must stand, per ply of depth left,
/// for a node to be cut without searching it.
const RFP_MARGIN: i32 = 90;
/// The deepest node reverse futility applies to.
const RFP_DEPTH: i32 = 6;
/// Futility: a quiet move whose reduced depth is `d` (at most `FUTILITY_DEPTH`) is not tried
/// when the static score plus this base and `FUTILITY_STEP * d` still falls short of alpha.
const FUTILITY_BASE: i32 = 100;
const FUTILITY_STEP: i32 = 110;
/// The deepest node late-move pruning applies to.
const LMP_DEPTH: i32 = 8;
/// The deepest a quiet move would be searched to once reduced ([`Engine::negamax`]'s
/// `lmr_depth`) for futility to leave it out.
const FUTILITY_DEPTH: i32 = 6;
/// Below this reduced depth, a quiet move both continuation histories count against is left
/// out.
const CONTINUATION_PRUNE_DEPTH: i32 = 3;
/// Half the width of the first aspiration window, in centipawns.
const ASPIRATION: i32 = 30;
/// The depth from which a null move's cut-off is verified by a reduced search without one.
const NULL_VERIFY_DEPTH: i32 = 10;
/// The static score of a node in check, which has none.
const NO_EVAL: i32 = -MATE - 1;
/// The least depth at which the hash move is tested for being singular.
const SINGULAR_DEPTH: i32 = 8;
/// The bound of a history score: each update moves it part of the way there, so that old
/// lessons fade and no score runs away.
const HISTORY_MAX: i32 = 16_384;
/// Exchange pruning: at most this deep, a quiet move whose exchange loses more than the
/// quiet margin times its reduced depth squared, or a capture more than the capture margin
/// times the depth, is left out.
const SEE_PRUNE_DEPTH: i32 = 8;
const SEE_QUIET_MARGIN: i32 = 30;
const SEE_CAPTURE_MARGIN: i32 = 150;
/// The most entries the continuation history may hold (16 MB): past it, on wide boards with
/// many kinds, the search goes without.
const CONTINUATION_MAX: usize = 1 << 23;
/// Slots of the evaluation cache, a power of two.
const EVAL_CACHE: usize = 1 << 16;
/// Correction history: entries per side, the most one holds, and how many of its units make a
/// centipawn (an entry at the limit moves a static score by about 85 cp).
const CORRECTION_SIZE: usize = 1 << 14;
const CORRECTION_LIMIT: i32 = 1024;
const CORRECTION_GRAIN: i32 = 12;

/// The lists a node fills, kept at its ply for the next node there.
#[derive(Default)]
struct Lists {
    moves: Vec<Move>,
    keyed: Vec<(i64, Move, bool)>,
    quiets: Vec<Move>,
}

/// A search engine for one compiled definition: its evaluation tables, its transposition
/// table and move-ordering memory, kept between moves of a game.
pub struct Engine {
    eval: Evaluator,
    tt: Vec<Entry>,
    killers: Vec<[Option<Move>; 2]>,
    /// Per side, moving kind and destination: how often a quiet move of that shape cut off
    /// lately, less how often it was tried and did not (kept within `HISTORY_MAX`).
    history: Vec<i32>,
    /// Per kind and destination of the move before: the quiet move that last refuted it.
    counters: Vec<Option<Move>>,
    /// Per shape of a move (side, kind, destination) and the shape of a quiet move of the
    /// next side (kind, destination): how often the second cut off when played one or two
    /// plies after the first. Empty where the board and the kinds make it too large.
    continuation: Vec<i16>,
    stop: Arc<AtomicBool>,
    /// Which search plays.
    pub style: Style,
    // Per search:
    nodes: u64,
    start: Instant,
    hard: Option<Instant>,
    node_limit: u64,
    stopped: bool,
    /// The positions since the game's start, the game's and then the search's: each one's key
    /// and whether its side to move stood in check (which repetition rules may ask).
    path: Vec<(u64, bool)>,
    pv: Vec<Vec<Move>>,
    /// With more than two sides, the side the search plays for: the paranoid search scores
    /// every position for the coalition of it and its partners against all the others.
    root: Option<Side>,
    /// Late-move reductions by depth and move number.
    reductions: Vec<[i32; 64]>,
    /// While a null move's cut-off is verified, no further null move is tried.
    verifying: bool,
    /// Per ply: the static score of the node there (`NO_EVAL` in check), for telling whether
    /// the side to move is doing better than two plies before.
    evals: Vec<i32>,
    /// The root move that last raised alpha in the running iteration: the best move so far
    /// when time runs out in the middle of it.
    root_move: Option<Move>,
    /// Per ply: whether the move that led there was extended as singular (it is then not
    /// extended again for giving check).
    extended: Vec<bool>,
    /// Per ply: the move a singular-extension search leaves out there.
    excluded: Vec<Option<Move>>,
    /// Per ply: the lists its nodes fill (moves, keyed moves, quiet moves tried), kept from
    /// node to node so that a node does not allocate them anew.
    lists: Vec<Lists>,
    /// Per kind: whether holding one makes zugzwang unlikely enough to try a null move.
    null_material: Vec<bool>,
    /// Static scores by position key, a slot per key's low bits: iterations and transpositions
    /// meet the same positions again, and the mobility walk is the evaluation's cost.
    eval_cache: Vec<(u64, i32)>,
    /// Counts the searches, so that the transposition table can tell an old entry.
    generation: u8,
    /// Per side to move and key of the cheapest pieces' places (by its low bits): how far
    /// searches found the static score of such positions off, to correct it by.
    correction: Vec<i16>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("style", &self.style)
            .field("tt_entries", &self.tt.len())
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// An engine for `pos`'s definition with a transposition table of about `hash_mb` MB.
    pub fn new(pos: &Position, hash_mb: usize) -> Engine {
        let t = pos.tables();
        let mut e = Engine {
            eval: Evaluator::new(pos),
            tt: Vec::new(),
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; t.sides() * t.kinds() * t.geometry().len()],
            counters: vec![None; t.kinds() * t.geometry().len()],
            continuation: {
                let shapes = t.kinds() * t.geometry().len();
                let len = t.sides() * shapes * shapes;
                if len <= CONTINUATION_MAX {
                    vec![0; len]
                } else {
                    Vec::new()
                }
            },
            stop: Arc::new(AtomicBool::new(false)),
            style: Style::Full,
            nodes: 0,
            start: Instant::now(),
            hard: None,
            node_limit: u64::MAX,
            stopped: false,
            path: Vec::new(),
            pv: vec![Vec::new(); MAX_PLY + 1],
            root: None,
            reductions: reductions(),
            verifying: false,
            evals: vec![NO_EVAL; MAX_PLY + 1],
            excluded: vec![None; MAX_PLY + 1],
            lists: (0..=MAX_PLY).map(|_| Lists::default()).collect(),
            root_move: None,
            extended: vec![false; MAX_PLY + 2],
            null_material: Vec::new(),
            eval_cache: vec![(0, 0); EVAL_CACHE],
            generation: 0,
            correction: vec![0; t.sides() * CORRECTION_SIZE],
        };
        e.null_material = e.null_material_of(pos);
        e.set_hash(hash_mb);
        e
    }

    /// Resizes the transposition table (which clears it).
    pub fn set_hash(&mut self, mb: usize) {
        let entries = (mb.clamp(1, 4096) << 20) / std::mem::size_of::<Entry>();
        let size = entries.next_power_of_two() / 2;
        self.tt = vec![EMPTY; size.max(1024)];
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.fill(EMPTY);
        self.killers.fill([None; 2]);
        self.history.fill(0);
        self.counters.fill(None);
        self.continuation.fill(0);
        self.eval_cache.fill((0, 0));
        self.correction.fill(0);
    }

    /// The flag that stops a running search when set (from another thread).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// The value the evaluation gives a piece of `kind`, in centipawns: the definition's, or
    /// estimated where it gives none.
    pub fn piece_value(&self, kind: PieceKind) -> i32 {
        self.eval.written_value(kind)
    }

    /// The static evaluation of `pos` for the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.eval.evaluate(pos)
    }

    /// Searches `pos` within `limits`, calling `report` after each finished iteration, and
    /// returns the best move found with its last report (`None` without a legal move).
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        report: &mut dyn FnMut(&Report),
    ) -> (Option<Move>, Report) {
        self.start = Instant::now();
        self.nodes = 0;
        self.generation = self.generation.wrapping_add(1);
        self.stopped = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        let (soft, hard) = time_for_move(limits);
        self.hard = hard.map(|h| self.start + h);
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut p = pos.clone();
        p.track(self.eval.cell_terms());
        if p.tables().sides() > 2 {
            // Scores depend on whose coalition they are for: those of another side's search
            // would mislead.
            if self.root != Some(p.side_to_move()) {
                self.clear();
            }
            self.root = Some(p.side_to_move());
        }
        self.start_path(&p);
        let mut moves = Vec::new();
        p.legal_moves_into(&mut moves);
        let mut last = Report {
            depth: 0,
            score: Score::Centipawns(0),
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
        };
        if moves.is_empty() {
            last.score = Score::from_internal(self.terminal(&p, 0));
            return (None, last);
        }
        let mut best = moves[0];
        if self.style == Style::Basic {
            return self.basic(&mut p, max_depth, soft, report);
        }
        let mut guess = 0;
        for depth in 1..=max_depth {
            self.root_move = None;
            let score = self.aspirate(&mut p, &mut moves, depth as i32, best, guess);
            // An iteration cut short says nothing sure of the score, but a move that beat
            // the others already searched at the greater depth is the better choice.
            if self.stopped && (depth > 1 || self.pv[0].is_empty()) {
                best = self.root_move.unwrap_or(best);
                break;
            }
            best = self.pv[0].first().copied().unwrap_or(best);
            guess = score;
            last = Report {
                depth,
                score: Score::from_internal(score),
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
                pv: self.pv[0].clone(),
            };
            report(&last);
            if self.stopped
                || moves.len() == 1 && limits.depth.is_none()
                || soft.is_some_and(|s| self.start.elapsed() > s / 2)
                || score.abs() > MATE_BOUND && (MATE - score.abs()) < depth as i32
            {
                break;
            }
        }
        last.nodes = self.nodes;
        last.elapsed = self.start.elapsed();
        self.stop.store(false, Ordering::Relaxed);
        (Some(best), last)
    }

    /// Starts the search's path with the positions of the game before `p`.
    fn start_path(&mut self, p: &Position) {
        // The side to move stood in check after a move that gave check.
        let checked = |i: usize| i > 0 && p.gave_check.get(i - 1).copied().unwrap_or(false);
        self.path = p
            .undo
            .iter()
            .enumerate()
            .map(|(i, u)| (u.hash, checked(i)))
            .collect();
    }

    /// The first engine, deepened one ply at a time while time lasts.
    fn basic(
        &mut self,
        p: &mut Position,
        max_depth: u32,
        soft: Option<Duration>,
        report: &mut dyn FnMut(&Report),
    ) -> (Option<Move>, Report) {
        let mut best = None;
        let mut last = None;
        for depth in 1..=max_depth {
            let found = basic::search_until(p, depth, self.hard, &self.stop, self.node_limit);
            let Some(found) = found else { break };
            self.nodes += found.nodes;
            best = found.best;
            let r = Report {
                depth,
                score: Score::from_internal(found.score),
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
                pv: found.best.into_iter().collect(),
            };
            report(&r);
            last = Some(r);
            if soft.is_some_and(|s| self.start.elapsed() > s / 2) {
                break;
            }
        }
        self.stop.store(false, Ordering::Relaxed);
        let fallback = p.legal_moves().first().copied();
        let last = last.unwrap_or(Report {
            depth: 0,
            score: Score::Centipawns(0),
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
            pv: Vec::new(),
        });
        (best.or(fallback), last)
    }

    /// One iteration at the root within the window `(alpha, beta)`: a score at or below
    /// `alpha` or at or above `beta` is only a bound.
    fn root(
        &mut self,
        p: &mut Position,
        moves: &mut [Move],
        depth: i32,
        best: Move,
        (mut alpha, beta): (i32, i32),
    ) -> i32 {
        self.order(p, moves, Some(best), 0);
        self.extended[1] = false;
        let original_alpha = alpha;
        let mut best_score = -MATE - 1;
        let mut line: Vec<Move> = Vec::new();
        let mover = p.side_to_move();
        let in_check = p.in_check();
        for (i, &m) in moves.iter().enumerate() {
            self.path.push((p.hash(), in_check));
            p.make_turn(m);
            let mut score;
            if i == 0 {
                score = self.child(p, mover, depth - 1, (alpha, beta), 1);
            } else {
                score = self.child(p, mover, depth - 1, (alpha, alpha + 1), 1);
                if score > alpha && score < beta && !self.stopped {
                    score = self.child(p, mover, depth - 1, (alpha, beta), 1);
                }
            }
            p.unmake();
            self.path.pop();
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
                if score > alpha || i == 0 {
                    line = vec![m];
                    line.extend_from_slice(&self.pv[1]);
                }
            }
            if score > alpha {
                alpha = score;
                self.root_move = Some(m);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.pv[0] = line;
        if !self.stopped {
            let bound = Bound::of(best_score, original_alpha, beta);
            self.store(
                p.hash(),
                self.pv[0].first().copied(),
                best_score,
                depth,
                bound,
                0,
            );
        }
        best_score
    }

    /// The root iteration at `depth`, in a narrow window around `guess` widened until the
    /// score falls inside it.
    fn aspirate(
        &mut self,
        p: &mut Position,
        moves: &mut [Move],
        depth: i32,
        best: Move,
        guess: i32,
    ) -> i32 {
        if depth < 5 || guess.abs() > MATE_BOUND {
            return self.root(p, moves, depth, best, (-MATE - 1, MATE + 1));
        }
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = (guess - delta, guess + delta);
        let mut best = best;
        loop {
            let score = self.root(p, moves, depth, best, (alpha, beta));
            if self.stopped {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-MATE - 1);
            } else if score >= beta {
                best = self.pv[0].first().copied().unwrap_or(best);
                beta = (score + delta).min(MATE + 1);
            } else {
                return score;
            }
            delta += delta / 2;
            if delta > 1000 {
                alpha = -MATE - 1;
                beta = MATE + 1;
            }
        }
    }

    fn negamax(
        &mut self,
        p: &mut Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv[ply].clear();
        if self.out_of_time() {
            return 0;
        }
        if let Some(score) = self.repetition(p, ply) {
            return score;
        }
        // Mate distance: no game's end reached from here scores beyond one reached here, so a
        // window wider than that is narrowed, and where a nearer end is already known the
        // node is not searched.
        alpha = alpha.max(-(MATE - plies(ply)));
        beta = beta.min(MATE - plies(ply));
        if alpha >= beta {
            return alpha;
        }
        if ply >= MAX_PLY - 8 {
            return self.static_eval(p);
        }
        let in_check = p.in_check();
        // A check is searched a ply deeper, unless the move that gave it already was.
        let mut depth = if in_check && !self.extended[ply] {
            depth + 1
        } else {
            depth
        };
        if depth <= 0 {
            return self.quiesce(p, alpha, beta, ply, 0);
        }
        self.nodes += 1;
        let pv_node = beta - alpha > 1;
        let key = p.hash();
        let excluded = self.excluded[ply];
        // A search without one move must not take or leave a score for the whole node.
        let entry = if excluded.is_some() {
            None
        } else {
            self.probe(key)
        };
        let mut tt_move = None;
        if let Some(e) = entry {
            tt_move = e.mv;
            if i32::from(e.depth) >= depth && !pv_node {
                let s = from_tt(e.score, ply);
                if e.bound.settles(s, alpha, beta) {
                    return s;
                }
            }
        }
        if let Some(limit) = p.tables().rules().move_limit {
            if p.halfmove_clock() >= limit && p.decided().is_none() {
                let mut moves = Vec::new();
                p.legal_moves_into(&mut moves);
                if moves.is_empty() {
                    return self.terminal(p, ply);
                }
                return self.draw_score(p, ply);
            }
        }
        let (eval, correction_slot) = if in_check {
            (NO_EVAL, 0)
        } else {
            let slot = self.correction_slot(p);
            (self.corrected_eval(p, slot), slot)
        };
        self.evals[ply] = eval;
        let two_sides = self.root.is_none();
        // Whether the side to move stands better than at its last move: if not, moves here
        // are pruned and reduced more readily. With more sides two plies back is another
        // side's turn, and nothing is assumed.
        let improving = !two_sides
            || ply < 2
            || self.evals[ply - 2] == NO_EVAL
            || eval != NO_EVAL && eval > self.evals[ply - 2];
        if !pv_node && !in_check && excluded.is_none() && beta.abs() < MATE_BOUND {
            // Reverse futility: far enough above beta that no quiet reply is likely to bring
            // the score back below it.
            if depth <= RFP_DEPTH && eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta {
                return eval;
            }
            // Null move: if passing still holds beta, a real move would too, unless the side
            // to move is in zugzwang, which its material makes unlikely (and which a reduced
            // search verifies at depth).
            if depth >= 3
                && two_sides
                && !self.verifying
                && eval >= beta
                && !p.last_move().is_some_and(|m| m.kind == MoveKind::Pass)
                && self.null_is_safe(p)
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                let null = p.pass_move();
                self.extended[ply + 1] = false;
                self.path.push((key, false));
                p.make_turn(null);
                let score = -self.negamax(p, depth - 1 - r, -beta, -beta + 1, ply + 1);
                p.unmake();
                self.path.pop();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    let score = if score > MATE_BOUND { beta } else { score };
                    if depth < NULL_VERIFY_DEPTH {
                        return score;
                    }
                    self.verifying = true;
                    let verified = self.negamax(p, depth - r, beta - 1, beta, ply);
                    self.verifying = false;
                    if verified >= beta {
                        return score;
                    }
                }
            }
        }
        // Without a hash move a deep node is likely new: search it a ply shallower first,
        // which finds one for the next iteration cheaply.
        if tt_move.is_none() && depth >= 4 {
            depth -= 1;
        }
        let mut moves = std::mem::take(&mut self.lists[ply].moves);
        moves.clear();
        // The hash move, where it can be checked alone, is tried before the others are
        // generated: it cuts off most nodes it is tried at, and then they never are. (A search
        // without one move reads no entry, so has no hash move to stage.)
        let staged = tt_move.filter(|&m| p.stageable(m, &mut moves));
        // Legality is tested as each move comes to be tried: after a cut-off most never do.
        let mut pending = None;
        let mut picker = None;
        if staged.is_none() {
            pending = p.search_moves_into(&mut moves);
            if moves.is_empty() {
                return self.terminal(p, ply);
            }
            picker = Some(self.picker(p, &moves, tt_move, ply));
        }
        // Singular extension: when the hash move, a lower bound from nearly as deep, beats
        // every other move by a margin in a shallower search, it alone holds the node and is
        // searched a ply deeper; when others too beat beta by that margin, the node is cut.
        let mut singular = None;
        if let (Some(e), Some(tm)) = (entry, tt_move) {
            let s = from_tt(e.score, ply);
            if depth >= SINGULAR_DEPTH
                && e.bound != Bound::Upper
                && i32::from(e.depth) >= depth - 3
                && s.abs() < MATE_BOUND
                && pending.is_none_or(|t| p.legal_given(&t, tm))
            {
                let singular_beta = s - 2 * depth;
                self.excluded[ply] = Some(tm);
                let score = self.negamax(p, (depth - 1) / 2, singular_beta - 1, singular_beta, ply);
                self.excluded[ply] = None;
                if self.stopped {
                    return 0;
                }
                if score < singular_beta {
                    singular = Some(tm);
                } else if singular_beta >= beta {
                    return singular_beta;
                }
            }
        }
        let original_alpha = alpha;
        let mut best = None;
        let mut best_score = -MATE - 1;
        let mover = p.side_to_move();
        let mut quiets_tried = 0;
        // The quiet moves searched before a cut-off: their history is lowered.
        let mut quiets_searched = std::mem::take(&mut self.lists[ply].quiets);
        quiets_searched.clear();
        let continuations = match &picker {
            Some(picker) => picker.continuations,
            None => self.continuations(p),
        };
        // Legal moves met so far: the index late-move reductions and pruning count by.
        let mut i = 0;
        let mut next_staged = staged;
        loop {
            let mut losing = false;
            let m = match next_staged.take() {
                Some(m) => m,
                None => {
                    if picker.is_none() {
                        pending = p.search_moves_into(&mut moves);
                        picker = Some(self.picker(p, &moves, tt_move, ply));
                    }
                    let Some(m) = picker.as_mut().and_then(|k| k.next(self, p, false)) else {
                        break;
                    };
                    losing = picker.as_ref().is_some_and(|k| k.last_losing);
                    if Some(m) == staged {
                        continue;
                    }
                    m
                }
            };
            if Some(m) == excluded || pending.is_some_and(|t| !p.legal_given(&t, m)) {
                continue;
            }
            let quiet = !self.is_tactical(p, &m);
            let killer = self.killers[ply].contains(&Some(m));
            let prunable = quiet && !pv_node && !in_check && !killer && best_score > -MATE_BOUND;
            // The depth a late quiet move would be searched to once reduced (any other move:
            // the node's depth): what futility and exchange pruning go by, so that they reach
            // as far up the tree as the reductions would bring the move near the leaves.
            let lmr_depth = if prunable && i > 0 {
                (depth - 1 - self.reductions[depth.min(63) as usize][i.min(63)]).max(0)
            } else {
                depth
            };
            // Late-move pruning: after enough quiet moves at a shallow node, the rest are
            // unlikely to matter.
            if prunable
                && depth <= LMP_DEPTH
                && quiets_tried >= (3 + depth * depth) / (2 - i32::from(improving))
            {
                i += 1;
                continue;
            }
            // A late quiet move that cut off seldom after either of the two moves before,
            // this near the leaves, is left out.
            if prunable && i > 0 && lmr_depth < CONTINUATION_PRUNE_DEPTH && {
                let shape = Self::shape(p, &m);
                continuations
                    .iter()
                    .all(|c| c.is_some_and(|c| self.continuation[c + shape] < 0))
            } {
                quiets_tried += 1;
                i += 1;
                continue;
            }
            // Exchange pruning: a move that loses more in the exchange on its square than the
            // depth could win back is left out.
            if !pv_node
                && !in_check
                && i > 0
                && lmr_depth <= SEE_PRUNE_DEPTH
                && best_score > -MATE_BOUND
                && !killer
                // A capture that takes no less than it risks never loses the exchange.
                && (quiet || self.victim(p, &m).is_some_and(|v| v < self.eval.value(m.piece)))
            {
                let margin = if quiet {
                    SEE_QUIET_MARGIN * lmr_depth * lmr_depth
                } else {
                    SEE_CAPTURE_MARGIN * lmr_depth
                };
                if see::loses_more_than(&self.eval, p, &m, margin) {
                    if quiet {
                        quiets_tried += 1;
                    }
                    i += 1;
                    continue;
                }
            }
            self.path.push((key, in_check));
            p.make_turn(m);
            let futile = prunable
                && i > 0
                && lmr_depth <= FUTILITY_DEPTH
                && eval + FUTILITY_BASE + FUTILITY_STEP * lmr_depth <= alpha;
            let may_reduce = depth >= 3 && quiet && !in_check && i > 0;
            // The check test costs an attack scan: made only where a decision reads it.
            let gives_check = (futile || may_reduce) && p.in_check();
            // Futility: a quiet move that gives no check cannot lift a hopeless score.
            if futile && !gives_check {
                p.unmake();
                self.path.pop();
                quiets_tried += 1;
                i += 1;
                continue;
            }
            if quiet {
                quiets_tried += 1;
            }
            let extension = i32::from(singular == Some(m));
            self.extended[ply + 1] = extension > 0;
            let mut score;
            if i == 0 {
                score = self.child(p, mover, depth - 1 + extension, (alpha, beta), ply + 1);
            } else {
                // Late quiet moves are searched shallower first; a surprise is searched again.
                let reduce = if may_reduce && !gives_check {
                    let mut r = self.reductions[depth.min(63) as usize][i.min(63)];
                    if pv_node {
                        r -= 1;
                    }
                    if killer {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    // Moves that often cut off elsewhere are reduced less, those that
                    // seldom do more.
                    r -= self.quiet_score(p, mover, &m, &continuations) / (HISTORY_MAX * 2 / 3);
                    r.clamp(0, depth - 2)
                } else if losing && depth >= 3 && !in_check && !pv_node {
                    // A capture the exchange says loses is looked at one ply shallower
                    // first: it seldom holds, and a surprise is searched again.
                    1
                } else {
                    0
                };
                let null = (alpha, alpha + 1);
                score = self.child(p, mover, depth - 1 - reduce, null, ply + 1);
                if score > alpha && reduce > 0 && !self.stopped {
                    score = self.child(p, mover, depth - 1, null, ply + 1);
                }
                if score > alpha && score < beta && !self.stopped {
                    score = self.child(p, mover, depth - 1, (alpha, beta), ply + 1);
                }
            }
            p.unmake();
            self.path.pop();
            i += 1;
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best = Some(m);
            }
            if score > alpha {
                alpha = score;
                let (line, rest) = self.pv.split_at_mut(ply + 1);
                line[ply].clear();
                line[ply].push(m);
                line[ply].extend_from_slice(&rest[0]);
                if alpha >= beta {
                    if quiet {
                        self.remember_cutoff(p, mover, m, ply, depth, &quiets_searched);
                    }
                    break;
                }
            }
            if quiet {
                quiets_searched.push(m);
            }
        }
        self.give_back(ply, moves, picker);
        self.lists[ply].quiets = quiets_searched;
        if excluded.is_some() {
            // Without the hash move nothing may be left: that says only that the others are
            // no better than alpha.
            return if i == 0 { alpha } else { best_score };
        }
        if i == 0 {
            // Not one of the pseudo-legal moves was legal.
            return self.terminal(p, ply);
        }
        let bound = Bound::of(best_score, original_alpha, beta);
        self.store(key, best, best_score, depth, bound, ply);
        // Where a quiet move (or none) settled the node, how far the search found the static
        // score off is learnt for positions of the same structure; a bound that does not say
        // which way it was off teaches nothing.
        if eval != NO_EVAL
            && best_score.abs() < MATE_BOUND
            && best.is_none_or(|m| !self.is_tactical(p, &m))
            && !(bound == Bound::Lower && best_score <= eval)
            && !(bound == Bound::Upper && best_score >= eval)
        {
            self.learn_correction(correction_slot, best_score - eval, depth);
        }
        best_score
    }

    /// Moves the correction at `slot` towards `error`, the search's score less the static
    /// one, by more after a deeper search; older lessons fade as new ones come.
    fn learn_correction(&mut self, slot: usize, error: i32, depth: i32) {
        let bonus = (error * depth / 8).clamp(-CORRECTION_LIMIT / 4, CORRECTION_LIMIT / 4);
        let entry = &mut self.correction[slot];
        let mut h = i32::from(*entry);
        h += bonus - h * bonus.abs() / CORRECTION_LIMIT;
        *entry = i16::try_from(h.clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT))
            .expect("within the correction limit");
    }

    /// The correction history's slot for `p`.
    fn correction_slot(&self, p: &Position) -> usize {
        let key = self.eval.structure_key(p);
        p.side_to_move().index() * CORRECTION_SIZE + (key as usize & (CORRECTION_SIZE - 1))
    }

    /// The static score of `p` corrected by what searches of positions of its structure
    /// found (`slot` from [`Engine::correction_slot`]).
    fn corrected_eval(&mut self, p: &Position, slot: usize) -> i32 {
        let raw = self.static_eval(p);
        (raw + i32::from(self.correction[slot]) / CORRECTION_GRAIN)
            .clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Whether the side to move holds a piece (or a piece in hand) that makes zugzwang
    /// unlikely, so that a null move may be tried.
    fn null_is_safe(&self, p: &Position) -> bool {
        let me = p.side_to_move();
        p.plist[me.index()]
            .iter()
            .any(|&sq| self.null_material[p.cell_kind(p.board[sq as usize]).index()])
            || (0..self.null_material.len()).any(|k| p.in_hand(me, PieceKind::nth(k)) > 0)
    }

    /// Per kind: whether it counts toward [`Engine::null_is_safe`]: a piece that is not royal
    /// and worth at least two and a half of the cheapest piece (pawns and their like, the
    /// pieces of zugzwang, do not count).
    fn null_material_of(&self, pos: &Position) -> Vec<bool> {
        let t = pos.tables();
        let values: Vec<i32> = (0..t.kinds())
            .map(|k| {
                let kind = PieceKind::nth(k);
                if t.royal(kind) {
                    0
                } else {
                    self.eval.value(kind)
                }
            })
            .collect();
        let cheapest = values.iter().copied().filter(|&v| v > 0).min().unwrap_or(0);
        values
            .iter()
            .map(|&v| v > 0 && 2 * v >= 5 * cheapest)
            .collect()
    }

    fn quiesce(
        &mut self,
        p: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: u32,
    ) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        let key = p.hash();
        let entry = self.probe(key);
        if let Some(e) = entry {
            let s = from_tt(e.score, ply);
            if beta - alpha == 1 && e.bound.settles(s, alpha, beta) {
                return s;
            }
        }
        let original_alpha = alpha;
        let in_check = p.in_check();
        // Standing pat comes before the moves are generated: on a wide board with cannons
        // and shots most quiescence nodes end here.
        let stand = if in_check {
            None
        } else {
            let slot = self.correction_slot(p);
            let stand = self.corrected_eval(p, slot);
            if stand >= beta || qdepth >= QUIESCENCE_PLIES || ply >= MAX_PLY - 2 {
                return stand;
            }
            alpha = alpha.max(stand);
            Some(stand)
        };
        let mut moves = std::mem::take(&mut self.lists[ply].moves);
        moves.clear();
        // Out of check only captures and promotions are played: only they are generated,
        // where the rules allow (a stalemate then goes unseen until the main search).
        let pending = if in_check {
            p.search_moves_into(&mut moves)
        } else {
            p.search_captures_into(&mut moves)
        };
        // Whether there is a legal move at all: the first one found (most often the first
        // tried, off the royal's lines) answers it.
        let none_legal = match pending {
            Some(t) => in_check && !moves.iter().any(|&m| p.legal_given(&t, m)),
            None => moves.is_empty(),
        };
        if none_legal {
            return self.terminal(p, ply);
        }
        if in_check && (qdepth > 6 || ply >= MAX_PLY - 2) {
            return self.static_eval(p);
        }
        if let Some(stand) = stand {
            // Captures only, and past the first plies only those that win material outright
            // or take back on the square just taken on, and only where the gain could lift
            // the score to alpha: what bounds the search where captures are plentiful.
            let last = p.last_move().and_then(|m| m.capture_square());
            moves.retain(|m| {
                if m.promotion.is_some() && !m.is_drop() {
                    return true;
                }
                let Some(gain) = self.victim(p, m) else {
                    return false;
                };
                let worth =
                    qdepth < 2 || gain > self.eval.value(m.piece) || m.capture_square() == last;
                worth && stand + gain + DELTA_MARGIN > alpha
            });
        }
        // Out of check, a capture the static exchange says loses is left out as it comes up.
        let mut picker = self.picker(p, &moves, entry.and_then(|e| e.mv), ply);
        let mover = p.side_to_move();
        let mut best = None;
        while let Some(m) = picker.next(self, p, stand.is_some()) {
            if pending.is_some_and(|t| !p.legal_given(&t, m)) {
                continue;
            }
            p.make_turn(m);
            let score = if self.flips(p, mover) {
                -self.quiesce(p, -beta, -alpha, ply + 1, qdepth + 1)
            } else {
                self.quiesce(p, alpha, beta, ply + 1, qdepth + 1)
            };
            p.unmake();
            if self.stopped {
                return 0;
            }
            if score > alpha {
                alpha = score;
                best = Some(m);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.give_back(ply, moves, Some(picker));
        let bound = Bound::of(alpha, original_alpha, beta);
        self.store(key, best, alpha, 0, bound, ply);
        alpha
    }

    /// Keeps a node's move lists at its ply for the next node there.
    fn give_back(&mut self, ply: usize, moves: Vec<Move>, picker: Option<pick::Picker>) {
        let lists = &mut self.lists[ply];
        lists.moves = moves;
        if let Some(picker) = picker {
            lists.keyed = picker.keyed;
        }
    }

    /// Whether a score turns over between `mover` and the side to move in `p`, the position
    /// after its move: always with two sides (negamax); with more, when the two are of
    /// different coalitions (the paranoid search: the root side's and everyone else's).
    #[inline]
    fn flips(&self, p: &Position, mover: Side) -> bool {
        match self.root {
            None => true,
            Some(root) => {
                let t = p.tables();
                t.partners(mover, root) != t.partners(p.side_to_move(), root)
            }
        }
    }

    /// The score of `p`, the position after `mover`'s move, for `mover`, searched within the
    /// window `(alpha, beta)` given for `mover`.
    #[inline]
    fn child(
        &mut self,
        p: &mut Position,
        mover: Side,
        depth: i32,
        (alpha, beta): (i32, i32),
        ply: usize,
    ) -> i32 {
        if self.flips(p, mover) {
            -self.negamax(p, depth, -beta, -alpha, ply)
        } else {
            self.negamax(p, depth, alpha, beta, ply)
        }
    }

    /// The static score of `p` for the side to move, or with more than two sides for its
    /// coalition.
    #[inline]
    fn static_eval(&mut self, p: &Position) -> i32 {
        let key = p.hash();
        // Key 0 marks an empty slot: a position hashing to it is evaluated every time.
        let slot = key as usize & (EVAL_CACHE - 1);
        let (cached, score) = self.eval_cache[slot];
        if cached == key && key != 0 {
            return score;
        }
        let score = match self.root {
            None => self.eval.evaluate(p),
            Some(root) => self.eval.evaluate_coalition(p, root),
        };
        self.eval_cache[slot] = (key, score);
        score
    }

    /// Whether the search must stop now (time, nodes, or the stop flag).
    fn out_of_time(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.stopped = self.nodes >= self.node_limit
            || self.nodes.is_multiple_of(CHECK_EVERY)
                && (self.stop.load(Ordering::Relaxed)
                    || self.hard.is_some_and(|h| Instant::now() >= h));
        self.stopped
    }

    /// The score for the side to move of a position that occurred before, in the game or on
    /// the search path, since the last irreversible move; `None` for a new one. A first
    /// recurrence is scored as the rules' repetition would end the game (a draw where they
    /// have none): the cycle would only repeat, and the side it does not suit would break it
    /// sooner. So the search neither goes round in circles nor gives perpetual check where
    /// that loses.
    fn repetition(&self, p: &Position, ply: usize) -> Option<i32> {
        let h = p.hash();
        let n = self.path.len();
        let back = (p.halfmove_clock() as usize).min(n);
        let first = (n - back..n).rev().find(|&i| self.path[i].0 == h)?;
        let Some(rep) = &p.tables().rules().repetition else {
            return Some(self.draw_score(p, ply));
        };
        // Move `i` gave check if the side to move stood in check after it: the check test
        // for the position here is made only if a perpetual-check rule asks.
        let last_checked = rep.perpetual_check_loses && p.in_check();
        let gave_check = |i: usize| match self.path.get(i + 1) {
            Some(&(_, checked)) => checked,
            None => last_checked,
        };
        let outcome = p.repetition_end(rep, first, gave_check);
        Some(if outcome.is_draw() {
            self.draw_score(p, ply)
        } else {
            self.outcome_score(p, ply, &outcome)
        })
    }

    /// The score of a position without a legal move, for the side to move.
    fn terminal(&self, p: &Position, ply: usize) -> i32 {
        if self.root.is_some() {
            return match p.outcome() {
                Some(o) => self.outcome_score(p, ply, &o),
                None => 0,
            };
        }
        let verdict = match p.decided() {
            Some(o) => o.result(p.side_to_move()),
            None if p.in_check() => p.checkmated().0,
            None => p.stalemated(),
        };
        self.verdict_score(p, ply, verdict)
    }

    /// The score of a game's end for the side to move, or with more than two sides for its
    /// coalition: the root side's result, turned to the coalition to move.
    fn outcome_score(&self, p: &Position, ply: usize, o: &crate::engine::Outcome) -> i32 {
        let Some(root) = self.root else {
            return self.verdict_score(p, ply, o.result(p.side_to_move()));
        };
        let score = match o.result(root) {
            Verdict::Win => MATE - plies(ply),
            Verdict::Loss => -(MATE - plies(ply)),
            Verdict::Draw => 0,
        };
        let ours = p.tables().partners(p.side_to_move(), root);
        if ours {
            score
        } else {
            -score
        }
    }

    /// The score of `verdict` for the side to move, with two sides.
    fn verdict_score(&self, p: &Position, ply: usize, verdict: Verdict) -> i32 {
        match verdict {
            Verdict::Win => MATE - plies(ply),
            Verdict::Loss => -(MATE - plies(ply)),
            Verdict::Draw => self.draw_score(p, ply),
        }
    }

    /// The score of a drawn position for the side to move: 0, or what counting makes of it
    /// (`draws counted by value`).
    fn draw_score(&self, p: &Position, ply: usize) -> i32 {
        match p.drawn_verdict(p.side_to_move()) {
            Verdict::Win => MATE - plies(ply),
            Verdict::Loss => -(MATE - plies(ply)),
            Verdict::Draw => 0,
        }
    }

    /// Captures and promotions: what quiescence plays.
    fn is_tactical(&self, p: &Position, m: &Move) -> bool {
        m.promotion.is_some() && !m.is_drop() || self.victim(p, m).is_some()
    }

    /// The value of what `m` takes, if it takes something (a royal counts high).
    fn victim(&self, p: &Position, m: &Move) -> Option<i32> {
        let sq = m.capture_square()?;
        let c = p.board[sq.index()];
        if c == 0 || c == crate::engine::position::WALL {
            return None;
        }
        Some(self.eval.capture_value(p.cell_kind(c)))
    }

    /// Where the history of `side`'s move `m` is kept.
    #[inline]
    fn history_index(&self, p: &Position, side: Side, m: &Move) -> usize {
        let t = p.tables();
        (side.index() * t.kinds() + m.piece.index()) * t.geometry().len() + m.to.index()
    }

    /// Where the continuation histories after the moves one and two plies before `p` begin,
    /// for those that were played and were not passes: a move's entry lies at that start
    /// plus its [`Engine::shape`].
    #[inline]
    fn continuations(&self, p: &Position) -> [Option<usize>; 2] {
        if self.continuation.is_empty() {
            return [None, None];
        }
        let t = p.tables();
        let squares = t.geometry().len();
        [0, 1].map(|back| {
            let (side, m) = p.earlier_move(back)?;
            (m.kind != MoveKind::Pass).then(|| {
                ((side.index() * t.kinds() + m.piece.index()) * squares + m.to.index())
                    * t.kinds()
                    * squares
            })
        })
    }

    /// A move's place within a continuation history.
    #[inline]
    fn shape(p: &Position, m: &Move) -> usize {
        m.piece.index() * p.tables().geometry().len() + m.to.index()
    }

    /// What the histories say of `side`'s quiet move `m`: its own and its continuations'.
    #[inline]
    fn quiet_score(
        &self,
        p: &Position,
        side: Side,
        m: &Move,
        continuations: &[Option<usize>; 2],
    ) -> i32 {
        let shape = Self::shape(p, m);
        self.history[self.history_index(p, side, m)]
            + continuations
                .iter()
                .flatten()
                .map(|&c| i32::from(self.continuation[c + shape]))
                .sum::<i32>()
    }

    /// Where the refutation of the move that led to `p` is kept, if a move led to it.
    #[inline]
    fn counter_index(&self, p: &Position) -> Option<usize> {
        let last = p.last_move()?;
        Some(last.piece.index() * p.tables().geometry().len() + last.to.index())
    }

    /// Learns from the quiet move `m` that cut off at `ply`: a killer there, the refutation
    /// of the move before, a better history, and a worse one for the quiet moves `tried`
    /// before it in vain.
    fn remember_cutoff(
        &mut self,
        p: &Position,
        side: Side,
        m: Move,
        ply: usize,
        depth: i32,
        tried: &[Move],
    ) {
        if self.killers[ply][0] != Some(m) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(m);
        }
        if let Some(c) = self.counter_index(p) {
            self.counters[c] = Some(m);
        }
        let bonus = (depth * depth).min(HISTORY_MAX / 8);
        let continuations = self.continuations(p);
        for (q, bonus) in std::iter::once((&m, bonus)).chain(tried.iter().map(|q| (q, -bonus))) {
            let i = self.history_index(p, side, q);
            nudge(&mut self.history[i], bonus);
            let shape = Self::shape(p, q);
            for &c in continuations.iter().flatten() {
                let mut h = i32::from(self.continuation[c + shape]);
                nudge(&mut h, bonus);
                self.continuation[c + shape] =
                    i16::try_from(h).expect("a history stays within its bound");
            }
        }
    }
}

/// Late-move reductions by depth and move number: deeper nodes and later moves are reduced
/// more, as the logarithms of both.
fn reductions() -> Vec<[i32; 64]> {
    (0..64)
        .map(|d| {
            let mut row = [0; 64];
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                if d > 0 {
                    let x = 0.75 + (f64::from(d)).ln() * ((i as f64).ln()) / 2.25;
                    *r = x as i32;
                }
            }
            row
        })
        .collect()
}

/// Moves a history score by `bonus`, the less the nearer it stands to the bound on that side.
fn nudge(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// A distance of `ply` plies in score units (mates nearer the root score higher).
fn plies(ply: usize) -> i32 {
    i32::try_from(ply).expect("the search stays within MAX_PLY plies")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::shipped_position;

    /// A hash move is tried before the others are generated only when it is a legal move of
    /// the position (the table may hold another position's): along random games, every move
    /// of the position before and of the position itself is staged only if legal; in chess
    /// every legal move but castling is.
    #[test]
    fn only_legal_moves_are_staged() {
        for file in [
            "chess.variant",
            "xiangqi.variant",
            "shogi.variant",
            "library/atomic.variant",
            "library/crazyhouse.variant",
        ] {
            let path = format!("definitions/{file}");
            let text = std::fs::read_to_string(&path).unwrap();
            let variant = crate::load(&path, &text).unwrap();
            let mut pos = Position::new(crate::model::Tables::compile(&variant, &[]).unwrap());
            let mut rng = crate::engine::zobrist::Rng::new(9);
            let mut scratch = Vec::new();
            let mut before: Vec<Move> = Vec::new();
            let mut staged = 0;
            for _ in 0..60 {
                let legal = pos.legal_moves();
                if legal.is_empty() || pos.outcome().is_some() {
                    break;
                }
                for &m in legal.iter().chain(&before) {
                    if pos.stageable(m, &mut scratch) {
                        assert!(legal.contains(&m), "{file}: {m:?} in {}", pos.fen());
                        staged += 1;
                    } else if file == "chess.variant" && legal.contains(&m) {
                        assert!(matches!(m.kind, MoveKind::Castle(_)), "{file}: {m:?}");
                    }
                }
                let m = legal[(rng.next() % legal.len() as u64) as usize];
                pos.play(m);
                before = legal;
            }
            assert!(staged > 100, "{file}: {staged} staged");
        }
    }

    /// A repetition is scored as the rules end the game: in Xiangqi, where perpetual check
    /// loses, a chariot checking from f10 and f9 in turn loses when its position comes round
    /// again, and the checked side that repeats wins; in chess a repetition is a draw.
    #[test]
    fn repetitions_are_scored_by_the_rules() {
        let mut pos = shipped_position(
            "xiangqi.variant",
            "2baka3/9/2n1b3r/p3p3C/6p2/9/P1P1P1P1P/4B4/9/2BA1K1R1 w - - 3 16",
        );
        let mut e = Engine::new(&pos, 1);
        let play = |pos: &mut Position, line: &str| {
            for text in line.split_whitespace() {
                let m = crate::engine::notation::parse_coord(pos, text).unwrap();
                pos.play(m);
            }
        };
        play(&mut pos, "h1h10 i8i7 h10f10 e10e9 f10f9 e9e10");
        e.start_path(&pos);
        assert_eq!(e.repetition(&pos, 3), None);
        // Red, to move, gave its cannon for an advisor: it is behind, and the perpetual that
        // a draw would make of it loses.
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let (best, report) = e.search(&pos, &limits, &mut |_| {});
        assert_ne!(
            best,
            crate::engine::notation::parse_coord(&pos, "f9f10").ok()
        );
        assert!(
            matches!(report.score, Score::Centipawns(s) if s < 0),
            "{:?}",
            report.score
        );
        play(&mut pos, "f9f10");
        e.start_path(&pos);
        assert_eq!(e.repetition(&pos, 3), Some(MATE - 3));
        play(&mut pos, "e10e9");
        e.start_path(&pos);
        assert_eq!(e.repetition(&pos, 3), Some(-(MATE - 3)));

        let mut pos = shipped_position(
            "chess.variant",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        );
        let mut e = Engine::new(&pos, 1);
        play(&mut pos, "g1f3 g8f6 f3g1 f6g8");
        e.start_path(&pos);
        assert_eq!(e.repetition(&pos, 3), Some(0));
    }

    /// The correction history keys on the cheapest pieces alone: moving a knight keeps a
    /// position's slot, moving a pawn does not; what a search teaches lifts (or lowers) the
    /// static score of every position of that structure, for the side to move only.
    #[test]
    fn corrections_follow_the_structure_of_the_cheapest_pieces() {
        let fen = |s: &str| shipped_position("chess.variant", s);
        let start = fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let knight = fen("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1");
        let pawn = fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
        let black = fen("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 0 1");
        let mut e = Engine::new(&start, 1);
        let slot = e.correction_slot(&start);
        assert_eq!(e.correction_slot(&knight), slot);
        assert_ne!(e.correction_slot(&pawn), slot);
        assert_ne!(e.correction_slot(&black), slot);
        let before = [&knight, &pawn, &black].map(|p| e.corrected_eval(p, e.correction_slot(p)));
        for _ in 0..20 {
            e.learn_correction(slot, 200, 8);
        }
        let after = [&knight, &pawn, &black].map(|p| e.corrected_eval(p, e.correction_slot(p)));
        assert!(after[0] > before[0] + 40, "{before:?} {after:?}");
        assert_eq!(after[1..], before[1..]);
        // Lessons the other way bring it back down, and it never passes its limit.
        for _ in 0..200 {
            e.learn_correction(slot, -100_000, 100);
        }
        let low = e.corrected_eval(&knight, slot);
        assert!(low < before[0], "{low} {before:?}");
        assert!(low >= before[0] - CORRECTION_LIMIT / CORRECTION_GRAIN);
    }
}
