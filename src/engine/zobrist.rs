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
    /// Per castling right.
    pub(crate) castle: Vec<u64>,
    /// Per square, for an unmoved piece whose own patterns ask whether it moved.
    pub(crate) unmoved: Vec<u64>,
    /// Per en-passant target square.
    pub(crate) ep: Vec<u64>,
    /// Per (side, kind) in hand: the base that [`hand_key`] turns into a key per count.
    pub(crate) hand: Vec<u64>,
    /// Per side, the base of its checks-given count (turned into keys as hands are).
    pub(crate) checks: Vec<u64>,
    /// Per side, for a side out of the running.
    pub(crate) out: Vec<u64>,
    /// Per square, for a wall on it.
    pub(crate) wall: Vec<u64>,
    /// Under `counter-strike`: while the next move may not take such a piece but with one.
    pub(crate) struck: u64,
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
        let mut keys = |n: usize| (0..n).map(|_| rng.next()).collect::<Vec<u64>>();
        Keys {
            piece: keys(cells * squares),
            side: keys(sides),
            castle: keys(rights),
            ep: keys(squares),
            hand: keys(sides * kinds),
            unmoved: keys(squares),
            checks: keys(sides),
            // Drawn last, so that the keys before them stay as they were.
            out: keys(sides),
            wall: keys(squares),
            struck: keys(1)[0],
        }
    }
}

/// The key of `count` pieces of one kind in one hand: every count has its own, with no table
/// to outgrow, and an empty hand adds nothing.
#[inline]
pub(crate) fn hand_key(base: u64, count: u16) -> u64 {
    if count == 0 {
        return 0;
    }
    // splitmix64's finaliser: distinct counts give unrelated keys.
    let mut z = base ^ (count as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
