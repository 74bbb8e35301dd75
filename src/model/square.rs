//! Squares and board geometry for rectangular boards of any size up to [`MAX_FILES`] x [`MAX_RANKS`].

use std::fmt;

use super::SquareSet;

/// The widest board a definition may declare.
pub const MAX_FILES: u8 = 26;
/// The tallest board a definition may declare.
pub const MAX_RANKS: u8 = 26;
/// Enough bits for every square of the largest board.
pub const MAX_SQUARES: usize = MAX_FILES as usize * MAX_RANKS as usize;

/// The eight neighbours of a square, clockwise from the one ahead (also where an explosion
/// reaches, and the turns of a path of steps).
pub const KING_STEPS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// A square, as an index `rank * width + file` into the board it belongs to.
///
/// A `Square` only makes sense together with the [`Geometry`] that produced it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u16);

impl Square {
    /// The square at `index` (`rank * width + file`), if a board can have that many squares.
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < MAX_SQUARES {
            Some(Square::nth(index))
        } else {
            None
        }
    }

    /// The square at `index`, an index the engine took from a square of the same board (its
    /// compiled tables and piece lists keep squares as `u16`): checked in debug builds only,
    /// as move generation reads them in its inner loops.
    #[inline]
    pub(crate) const fn at(index: u16) -> Square {
        debug_assert!((index as usize) < MAX_SQUARES);
        Square(index)
    }

    /// [`Square::at`] for an index held as `usize` (a position in a per-square array).
    ///
    /// The one narrowing of a square's index: below [`MAX_SQUARES`] it fits the `u16`, which
    /// debug builds check and release builds trust (a compare here would cost move
    /// generation, which reads squares in its inner loops).
    #[inline]
    pub(crate) const fn nth(index: usize) -> Square {
        debug_assert!(index < MAX_SQUARES);
        Square(index as u16)
    }

    /// The index as the compiled tables store it.
    #[inline]
    pub(crate) const fn raw(self) -> u16 {
        self.0
    }

    /// The index of this square, for table lookups.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The size of a board, its holes and the arithmetic on its squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Number of files (columns), `a` upward.
    pub width: u8,
    /// Number of ranks (rows), `1` upward from the first player's side.
    pub height: u8,
    /// Squares of the rectangle that are not part of the board: nothing stands on them,
    /// and no step or slide enters them (a leap passes over them).
    holes: SquareSet,
}

impl Geometry {
    /// A board of `width` files and `height` ranks.
    ///
    /// # Panics
    /// If either dimension is 0 or above the maximum; the checker refuses such boards first.
    pub fn new(width: u8, height: u8) -> Geometry {
        assert!((1..=MAX_FILES).contains(&width) && (1..=MAX_RANKS).contains(&height));
        Geometry {
            width,
            height,
            holes: SquareSet::EMPTY,
        }
    }

    /// The same board without the squares of `holes`.
    pub fn with_holes(self, holes: SquareSet) -> Geometry {
        Geometry { holes, ..self }
    }

    /// Whether `sq` is a hole: a square of the rectangle that is not on the board.
    #[inline]
    pub fn is_hole(&self, sq: Square) -> bool {
        self.holes.contains(sq)
    }

    /// Whether the board has holes.
    pub fn has_holes(&self) -> bool {
        !self.holes.is_empty()
    }

    /// Every square of the board, holes left out.
    pub fn playable(&self) -> SquareSet {
        self.holes.complement(self.len())
    }

    /// How many squares the board has.
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.width) * usize::from(self.height)
    }

    /// Whether the board has no squares (never true for a checked variant).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The square on `file` and `rank`, both counted from 0.
    #[inline]
    pub fn square(&self, file: i32, rank: i32) -> Option<Square> {
        let (width, height) = (i32::from(self.width), i32::from(self.height));
        if (0..width).contains(&file) && (0..height).contains(&rank) {
            // Below 255 x 255, so the conversion cannot fail.
            u16::try_from(rank * width + file).ok().map(Square)
        } else {
            None
        }
    }

    /// The file and rank of `sq`, both counted from 0.
    #[inline]
    fn coordinates(&self, sq: Square) -> (u16, u16) {
        let width = u16::from(self.width);
        (sq.0 % width, sq.0 / width)
    }

    /// The file of `sq`, counted from 0.
    #[inline]
    pub fn file(&self, sq: Square) -> i32 {
        i32::from(self.coordinates(sq).0)
    }

    /// The rank of `sq`, counted from 0.
    #[inline]
    pub fn rank(&self, sq: Square) -> i32 {
        i32::from(self.coordinates(sq).1)
    }

    /// The square `(dx, dy)` away from `sq`, if it is on the board and not a hole.
    #[inline]
    pub fn offset(&self, sq: Square, dx: i32, dy: i32) -> Option<Square> {
        self.square(self.file(sq) + dx, self.rank(sq) + dy)
            .filter(|&to| !self.holes.contains(to))
    }

    /// Every square, a1 first, rank by rank.
    pub fn squares(&self) -> impl Iterator<Item = Square> {
        (0..u16::from(self.width) * u16::from(self.height)).map(Square)
    }

    /// The square reflected across the middle rank (a1 <-> a8 on 8x8).
    pub fn flip_ranks(&self, sq: Square) -> Square {
        self.square(self.file(sq), i32::from(self.height) - 1 - self.rank(sq))
            .expect("reflection stays on the board")
    }

    /// Where a side facing `to` has what a side facing `from` has on `sq`: the board turned
    /// about its centre by the angle between the facings and, with `mirror`, reflected
    /// across the new forward axis (what `, mirrored` copies: a north side's a1 is a south
    /// side's a8). `None` when a quarter turn is asked of a board that is not square.
    pub fn turned(
        &self,
        sq: Square,
        from: super::Facing,
        to: super::Facing,
        mirror: bool,
    ) -> Option<Square> {
        let (w, h) = (i32::from(self.width), i32::from(self.height));
        let quarters = (to.quarter() + 4 - from.quarter()) % 4;
        if quarters % 2 == 1 && w != h {
            return None;
        }
        let (x, y) = (self.file(sq), self.rank(sq));
        let (x, y) = match quarters {
            0 => (x, y),
            1 => (y, w - 1 - x),
            2 => (w - 1 - x, h - 1 - y),
            _ => (h - 1 - y, x),
        };
        let (x, y) = match (mirror, to) {
            (false, _) => (x, y),
            (true, super::Facing::North | super::Facing::South) => (w - 1 - x, y),
            (true, super::Facing::East | super::Facing::West) => (x, h - 1 - y),
        };
        self.square(x, y)
    }

    /// The square turned half way round the centre (a1 <-> h8 on 8x8).
    pub fn rotate(&self, sq: Square) -> Square {
        self.square(
            i32::from(self.width) - 1 - self.file(sq),
            i32::from(self.height) - 1 - self.rank(sq),
        )
        .expect("rotation stays on the board")
    }

    /// The name of `sq`: file letter then rank number from 1 (`a1`, `p16`).
    pub fn name(&self, sq: Square) -> SquareName {
        let (file, rank) = self.coordinates(sq);
        SquareName {
            file: Geometry::file_char(i32::from(file)),
            rank,
        }
    }

    /// Parses a square name such as `e4` or `d10`, `None` if malformed or off this board.
    pub fn parse(&self, text: &str) -> Option<Square> {
        let (file, rank) = parse_square_name(text)?;
        self.square(file, rank)
    }

    /// Parses a square name at the start of `text`, returning it and the number of bytes used.
    ///
    /// Ranks are read greedily but never past this board's height, so `a10a9` on a
    /// 10-rank board reads `a10` and on a 9-rank board fails.
    pub fn parse_prefix(&self, text: &str) -> Option<(Square, usize)> {
        let bytes = text.as_bytes();
        let f = *bytes.first()?;
        if !f.is_ascii_lowercase() {
            return None;
        }
        let mut best = None;
        let mut rank: i32 = 0;
        for (i, b) in bytes.iter().enumerate().skip(1) {
            if !b.is_ascii_digit() || (i == 1 && *b == b'0') || i > 3 {
                break;
            }
            rank = rank * 10 + i32::from(*b - b'0');
            if let Some(sq) = self.square(i32::from(f - b'a'), rank - 1) {
                best = Some((sq, i + 1));
            }
        }
        best
    }

    /// The letter of file `file` (counted from 0), `?` for a file no board has.
    pub fn file_char(file: i32) -> char {
        u8::try_from(file)
            .ok()
            .filter(|&f| f < MAX_FILES)
            .map_or('?', |f| char::from(b'a' + f))
    }
}

/// Splits a square name into 0-based file and rank without checking a board.
pub fn parse_square_name(text: &str) -> Option<(i32, i32)> {
    let mut chars = text.chars();
    let f = chars.next()?;
    if !f.is_ascii_lowercase() {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty()
        || digits.len() > 3
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || digits.starts_with('0')
    {
        return None;
    }
    let rank: i32 = digits.parse().ok()?;
    Some((f as i32 - 'a' as i32, rank - 1))
}

/// A printable square name, from [`Geometry::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareName {
    /// The file's letter.
    file: char,
    /// The rank, counted from 0.
    rank: u16,
}

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file, u32::from(self.rank) + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_on_large_boards() {
        let g = Geometry::new(26, 26);
        for sq in g.squares() {
            let name = g.name(sq).to_string();
            assert_eq!(g.parse(&name), Some(sq), "{name}");
        }
        assert_eq!(g.name(Square(675)).to_string(), "z26");
    }

    #[test]
    fn prefix_parsing_is_greedy_within_the_board() {
        let g = Geometry::new(9, 10);
        assert_eq!(g.parse_prefix("a10a9"), Some((g.parse("a10").unwrap(), 3)));
        assert_eq!(g.parse_prefix("a1a2"), Some((g.parse("a1").unwrap(), 2)));
        let small = Geometry::new(9, 9);
        assert_eq!(
            small.parse_prefix("a10"),
            Some((small.parse("a1").unwrap(), 2))
        );
        assert_eq!(g.parse("a0"), None);
        assert_eq!(g.parse("j1"), None);
    }
}
