//! Hash keys for positions.

/// A deterministic xorshift generator, so hashes are the same on every run.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    pub(crate) fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Random keys for every feature of a position.
#[derive(Debug)]
pub(crate) struct Keys {
    /// Per (cell, square).
    pub(crate) piece: Vec<u64>,
    /// Per side to move.
    pub(crate) side: Vec<u64>,
    /// Per castling-rights bit.
    pub(crate) castle: Vec<u64>,
    /// Per en-passant square.
    pub(crate) ep: Vec<u64>,
    /// Per (side, kind, count) for hands; counts above the table share the last key.
    pub(crate) hand: Vec<u64>,
    pub(crate) hand_depth: usize,
}

impl Keys {
    pub(crate) fn new(
        cells: usize,
        squares: usize,
        sides: usize,
        kinds: usize,
        rights: usize,
    ) -> Keys {
        let mut rng = Rng::new(0x5EED_0FC0_FFEE);
        let hand_depth = 20;
        Keys {
            piece: (0..cells * squares).map(|_| rng.next()).collect(),
            side: (0..sides).map(|_| rng.next()).collect(),
            castle: (0..rights).map(|_| rng.next()).collect(),
            ep: (0..squares).map(|_| rng.next()).collect(),
            hand: (0..sides * kinds * hand_depth)
                .map(|_| rng.next())
                .collect(),
            hand_depth,
        }
    }
}
