//! The transposition table: one entry per slot, replaced unless a deeper bound of the same
//! position holds it; mate scores kept relative to the node.

use super::{plies, Engine, MATE_BOUND};
use crate::engine::mv::Move;

#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub(super) key: u64,
    pub(super) mv: Option<Move>,
    pub(super) score: i32,
    pub(super) depth: i16,
    pub(super) bound: Bound,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    Exact,
    Lower,
    Upper,
}

impl Bound {
    /// Whether a stored `score` with this bound settles a search in the window (`alpha`,
    /// `beta`).
    pub(super) fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }

    /// What a search's `score` in the window (`alpha`, `beta`) says of the true score.
    pub(super) fn of(score: i32, alpha: i32, beta: i32) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

pub(super) const EMPTY: Entry = Entry {
    key: 0,
    mv: None,
    score: 0,
    depth: -1,
    bound: Bound::Upper,
};

impl Engine {
    /// The transposition table's slot for `key`: its low bits, the table's length being a
    /// power of two.
    #[inline]
    pub(super) fn slot(&self, key: u64) -> usize {
        let mask = u64::try_from(self.tt.len() - 1).expect("a length fits in u64");
        usize::try_from(key & mask).expect("the mask keeps the slot below the length")
    }

    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.tt[self.slot(key)];
        (e.key == key && e.depth >= 0).then_some(e)
    }

    pub(super) fn store(
        &mut self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let i = self.slot(key);
        let old = self.tt[i];
        if old.key == key && i32::from(old.depth) > depth && bound != Bound::Exact {
            return;
        }
        self.tt[i] = Entry {
            key,
            mv: mv.or(if old.key == key { old.mv } else { None }),
            score: to_tt(score, ply),
            depth: i16::try_from(depth.max(0)).unwrap_or(i16::MAX),
            bound,
        };
    }
}

/// Mate scores are stored relative to the node, read back relative to the root.
pub(super) fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + plies(ply)
    } else if score < -MATE_BOUND {
        score - plies(ply)
    } else {
        score
    }
}

pub(super) fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - plies(ply)
    } else if score < -MATE_BOUND {
        score + plies(ply)
    } else {
        score
    }
}
