//! A fixed-size bit set of squares, big enough for the largest board.

use std::fmt;

use super::square::{Square, MAX_SQUARES};

const WORDS: usize = MAX_SQUARES.div_ceil(64);

/// A set of squares of one board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SquareSet([u64; WORDS]);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet([0; WORDS]);

    /// Whether `sq` is in the set.
    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        let i = sq.index();
        self.0[i / 64] >> (i % 64) & 1 != 0
    }

    /// Adds `sq`.
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        let i = sq.index();
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// Removes `sq`.
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        let i = sq.index();
        self.0[i / 64] &= !(1 << (i % 64));
    }

    /// The squares in either set.
    pub fn union(&self, other: &SquareSet) -> SquareSet {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0.iter()) {
            *a |= b;
        }
        out
    }

    /// The squares in both sets.
    pub fn intersection(&self, other: &SquareSet) -> SquareSet {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0.iter()) {
            *a &= b;
        }
        out
    }

    /// The squares of `self` not in `other`.
    pub fn difference(&self, other: &SquareSet) -> SquareSet {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0.iter()) {
            *a &= !b;
        }
        out
    }

    /// The squares of the first `len` squares of a board not in `self`.
    pub fn complement(&self, len: usize) -> SquareSet {
        let mut all = SquareSet::EMPTY;
        for i in 0..len {
            all.insert(Square::nth(i));
        }
        all.difference(self)
    }

    /// Whether the set has no squares.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    /// How many squares the set has.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The squares in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        self.0.iter().enumerate().flat_map(|(w, bits)| {
            let mut bits = *bits;
            std::iter::from_fn(move || {
                if bits == 0 {
                    None
                } else {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    Some(Square::nth(w * 64 + b as usize))
                }
            })
        })
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut s = SquareSet::EMPTY;
        for sq in iter {
            s.insert(sq);
        }
        s
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|s| s.raw())).finish()
    }
}
