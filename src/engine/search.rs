//! A small game-tree search, so that `play` has an opponent: negamax with alpha-beta pruning
//! over the legal moves, material from the definition's piece values (and hands), mate scores,
//! and a node budget that keeps large variants responsive.

use super::mv::Move;
use super::notation::is_capture;
use super::position::Position;
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

struct Search {
    nodes: u64,
    budget: u64,
}

/// Material balance for the side to move, in hundredths of a pawn.
pub fn evaluate(pos: &Position) -> i32 {
    let t = pos.tables();
    let me = pos.side_to_move();
    let mut score = 0;
    for sq in t.geometry().squares() {
        if let Some(p) = pos.piece_at(sq) {
            let v = (t.variant().piece(p.kind).value * 100.0) as i32;
            score += if p.side == me { v } else { -v };
        }
    }
    for s in 0..t.sides() {
        for k in 0..t.kinds() {
            let side = crate::model::Side(s as u8);
            let kind = crate::model::PieceKind(k as u8);
            let v = (t.variant().pieces()[k].value * 100.0) as i32 * pos.in_hand(side, kind) as i32;
            score += if side == me { v } else { -v };
        }
    }
    score
}

/// Searches `depth` plies from `pos` (at most `budget` positions) and returns the best move.
pub fn best_move(pos: &Position, depth: u32, budget: u64) -> Found {
    let mut p = pos.clone();
    let mut s = Search { nodes: 0, budget };
    let mut moves = Vec::new();
    p.legal_moves_into(&mut moves);
    order(&p, &mut moves);
    let mut best = None;
    let mut alpha = -MATE - 1;
    for m in moves {
        p.make(m);
        let score = -s.negamax(&mut p, depth.saturating_sub(1), -MATE - 1, -alpha, 1);
        p.unmake();
        if best.is_none() || score > alpha {
            alpha = score;
            best = Some(m);
        }
    }
    let score = if best.is_none() {
        terminal_score(&p, 0)
    } else {
        alpha
    };
    Found {
        best,
        score,
        nodes: s.nodes,
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

impl Search {
    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        self.nodes += 1;
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
            pos.make(m);
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
