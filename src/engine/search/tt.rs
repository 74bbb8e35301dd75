//! The transposition table: buckets of two entries, a new position taking the place of the
//! one less worth keeping (shallower, or left from an earlier search); mate scores kept
//! relative to the node.

use super::{plies, Engine, MATE_BOUND};
use crate::engine::mv::Move;

#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub(super) key: u64,
    pub(super) mv: Option<Move>,
    pub(super) score: i32,
    pub(super) depth: i16,
    pub(super) bound: Bound,
    /// The search that stored it ([`Engine::generation`] then).
    pub(super) age: u8,
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
    age: 0,
};

/// Entries per bucket: a position's slot is its bucket's, and it may lie in either entry.
const BUCKET: usize = 2;

impl Engine {
    /// The first slot of `key`'s bucket: the key's low bits, the table's length being a
    /// power of two.
    #[inline]
    pub(super) fn slot(&self, key: u64) -> usize {
        let mask = u64::try_from(self.tt.len() - BUCKET).expect("a length fits in u64");
        usize::try_from(key & mask).expect("the mask keeps the slot below the length")
    }

    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        let i = self.slot(key);
        self.tt[i..i + BUCKET]
            .iter()
            .find(|e| e.key == key && e.depth >= 0)
            .copied()
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
        let first = self.slot(key);
        let generation = self.generation;
        // The position's own entry if it has one, else the one least worth keeping: each
        // search since it was stored counts as much as four plies of depth.
        let i = (first..first + BUCKET)
            .find(|&i| self.tt[i].key == key)
            .unwrap_or_else(|| {
                (first..first + BUCKET)
                    .min_by_key(|&i| {
                        let e = &self.tt[i];
                        i32::from(e.depth) - 4 * i32::from(generation.wrapping_sub(e.age))
                    })
                    .expect("a bucket is not empty")
            });
        let old = self.tt[i];
        // A deeper search's bound stays, unless an exact score from a main search replaces
        // it (quiescence, depth 0, never does).
        if old.key == key && i32::from(old.depth) > depth && (bound != Bound::Exact || depth == 0) {
            return;
        }
        self.tt[i] = Entry {
            key,
            mv: mv.or(if old.key == key { old.mv } else { None }),
            score: to_tt(score, ply),
            depth: i16::try_from(depth.max(0)).unwrap_or(i16::MAX),
            bound,
            age: generation,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::shipped_position;

    fn engine() -> Engine {
        let pos = shipped_position(
            "chess.variant",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        );
        Engine::new(&pos, 1)
    }

    /// Keys that share a bucket: the same low bits.
    fn keys(e: &Engine) -> [u64; 3] {
        let stride = e.tt.len() as u64;
        [5 * 2, 5 * 2 + stride, 5 * 2 + 2 * stride].map(|k| k | 1 << 40)
    }

    #[test]
    fn two_positions_share_a_bucket_and_the_shallower_gives_way() {
        let mut e = engine();
        let [a, b, c] = keys(&e);
        assert_eq!(e.slot(a), e.slot(b));
        e.store(a, None, 10, 6, Bound::Exact, 0);
        e.store(b, None, 20, 2, Bound::Lower, 0);
        assert_eq!(e.probe(a).map(|x| x.score), Some(10));
        assert_eq!(e.probe(b).map(|x| x.score), Some(20));
        e.store(c, None, 30, 3, Bound::Upper, 0);
        assert_eq!(e.probe(a).map(|x| x.score), Some(10));
        assert!(e.probe(b).is_none());
        assert_eq!(e.probe(c).map(|x| x.score), Some(30));
    }

    #[test]
    fn an_old_entry_gives_way_before_a_shallow_new_one() {
        let mut e = engine();
        let [a, b, c] = keys(&e);
        e.store(a, None, 10, 6, Bound::Exact, 0);
        // Two searches later, six plies count for less than the fresh entry's one.
        e.generation = e.generation.wrapping_add(2);
        e.store(b, None, 20, 1, Bound::Lower, 0);
        e.store(c, None, 30, 1, Bound::Lower, 0);
        assert!(e.probe(a).is_none());
        assert!(e.probe(b).is_some() && e.probe(c).is_some());
    }

    #[test]
    fn quiescence_never_replaces_a_deeper_bound_of_its_position() {
        let mut e = engine();
        let [a, ..] = keys(&e);
        e.store(a, None, 10, 5, Bound::Lower, 0);
        e.store(a, None, 40, 0, Bound::Exact, 0);
        assert_eq!(e.probe(a).map(|x| (x.score, x.depth)), Some((10, 5)));
        // A main search's exact score does.
        e.store(a, None, 50, 3, Bound::Exact, 0);
        assert_eq!(e.probe(a).map(|x| (x.score, x.depth)), Some((50, 3)));
    }
}
