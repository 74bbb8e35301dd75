//! The first engine: negamax with alpha-beta pruning over the legal moves, material from the
//! definition's piece values (and hands), mate scores, and a node budget that keeps large
//! variants responsive. Kept as a weaker opponent and as the yardstick of the full search.

use crate::engine::clock::Instant;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::mv::Move;
use crate::engine::notation::is_capture;
use crate::engine::position::Position;
use crate::model::Verdict;

const MATE: i32 = 1_000_000;

/// What the search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// The best move, `None` when there is no legal move.
    pub best: Option<Move>,
    /// Its score for the side to move, in hundredths of a pawn (mates are near ±1,000,000).
    pub score: i32,
    /// Positions visited.
    pub nodes: u64,
}

struct Search<'a> {
    nodes: u64,
    budget: u64,
    deadline: Option<Instant>,
    stop: Option<&'a AtomicBool>,
    stopped: bool,
}

/// Material balance for the side to move, in hundredths of a pawn.
pub fn evaluate(pos: &Position) -> i32 {
    let t = pos.tables();
    let me = pos.side_to_move();
    // Truncated toward zero, as this engine always has (the full evaluation rounds).
    let value = |kind| (t.variant().piece(kind).value * 100.0) as i32;
    let mut score = 0;
    for sq in t.geometry().squares() {
        if let Some(p) = pos.piece_at(sq) {
            let v = value(p.kind);
            score += if p.side == me { v } else { -v };
        }
    }
    for side in crate::model::Side::all(t.sides()) {
        for kind in crate::model::PieceKind::all(t.kinds()) {
            let v = value(kind) * i32::from(pos.in_hand(side, kind));
            score += if side == me { v } else { -v };
        }
    }
    score
}

/// Searches `depth` plies from `pos` (at most `budget` positions) and returns the best move.
pub fn best_move(pos: &Position, depth: u32, budget: u64) -> Found {
    let mut p = pos.clone();
    let mut s = Search {
        nodes: 0,
        budget,
        deadline: None,
        stop: None,
        stopped: false,
    };
    s.root(&mut p, depth)
}

/// The same search, abandoned (`None`) when `deadline` passes, `stop` is set or `nodes`
/// positions have been visited.
pub(crate) fn search_until(
    pos: &mut Position,
    depth: u32,
    deadline: Option<Instant>,
    stop: &AtomicBool,
    nodes: u64,
) -> Option<Found> {
    let mut s = Search {
        nodes: 0,
        budget: u64::MAX,
        deadline,
        stop: Some(stop),
        stopped: false,
    };
    let found = s.root(pos, depth);
    (!s.stopped && s.nodes < nodes).then_some(found)
}

impl Search<'_> {
    fn root(&mut self, p: &mut Position, depth: u32) -> Found {
        let mut moves = Vec::new();
        p.legal_moves_into(&mut moves);
        order(p, &mut moves);
        let mut best = None;
        let mut alpha = -MATE - 1;
        for m in moves {
            p.make_turn(m);
            let score = -self.negamax(p, depth.saturating_sub(1), -MATE - 1, -alpha, 1);
            p.unmake();
            if self.stopped {
                break;
            }
            if best.is_none() || score > alpha {
                alpha = score;
                best = Some(m);
            }
        }
        let score = if best.is_none() {
            terminal_score(p, 0)
        } else {
            alpha
        };
        Found {
            best,
            score,
            nodes: self.nodes,
        }
    }
}

/// Captures first, so that alpha-beta cuts early.
fn order(pos: &Position, moves: &mut [Move]) {
    moves.sort_by_key(|m| !(is_capture(pos, m) || m.promotion.is_some()));
}

/// The score of a position with no legal move, for the side to move.
fn terminal_score(pos: &Position, ply: i32) -> i32 {
    match pos.outcome().map(|o| o.result(pos.side_to_move())) {
        Some(Verdict::Win) => MATE - ply,
        Some(Verdict::Loss) => -(MATE - ply),
        _ => 0,
    }
}

impl Search<'_> {
    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024)
            && (self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let mut moves = Vec::new();
        pos.legal_moves_into(&mut moves);
        if moves.is_empty() {
            return terminal_score(pos, ply);
        }
        if depth == 0 || self.nodes >= self.budget {
            return evaluate(pos);
        }
        order(pos, &mut moves);
        for m in moves {
            pos.make_turn(m);
            let score = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1);
            pos.unmake();
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }
}
