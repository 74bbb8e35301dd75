//! The walk rules, written once: how a compiled path is travelled on a board.
//!
//! Every square before the ray must be empty. Along the ray, a piece stops on empty squares it
//! may end on and at the first piece it meets, which ends the path (captured, if the mode and
//! the side allow). A hopping path first passes exactly one piece, the screen, and only then
//! behaves as above. Squares marked pass-only are passed, block and screen, but never ended on.
//! Move generation walks paths with [`Walk`], attack tests check [`Tables::way_open`], and move
//! diagrams list [`Tables::reach`]: three readings of the same rules.

use super::{Condition, Path, PathFlags, Tables, Way};

/// The board cell of a wall: no piece stands there, none may enter, pass or capture it; it
/// blocks and screens as a piece does. (Piece cells are 1 to 254: the checker bounds kinds
/// times sides.)
pub(crate) const WALL: u8 = u8::MAX;
use crate::model::{PieceKind, Side, Square};

/// How a piece alone on the board reaches a square of its move diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Along a path with nothing in the way.
    Direct,
    /// Only over a screen standing somewhere before it on the path.
    OverScreen,
}

/// A square a piece could end a move on, as its move diagram shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// The square.
    pub square: Square,
    /// How it is reached.
    pub reach: Reach,
    /// A move may end there on an empty square.
    pub can_move: bool,
    /// A move may capture there.
    pub can_capture: bool,
    /// Only while the piece has not moved (`Some(true)`), only after (`Some(false)`), or always.
    pub unmoved: Option<bool>,
}

impl Tables {
    /// Walks `path` on `board` (one cell per square, 0 for empty), calling `stop` for each
    /// square it may end on, in order: every empty square the piece may stop on, then the
    /// first piece met after the screen (if it may stop there), with the occupant (0 for an
    /// empty square, [`WALL`] for a wall, which no move may end on). `HOP` must say whether the path hops: written as two loops, the common
    /// one without a screen to track.
    #[inline(always)]
    pub(crate) fn walk<const HOP: bool>(
        &self,
        path: &Path,
        board: &[u8],
        mut stop: impl FnMut(Square, u8),
    ) {
        debug_assert_eq!(HOP, path.flags().has(PathFlags::HOP));
        let (pre, ray) = self.path_runs(path);
        if pre.iter().any(|e| board[e.index()] != 0) {
            return;
        }
        let mut ray = ray.iter();
        if HOP {
            // Up to the screen nothing is a destination.
            loop {
                match ray.next() {
                    None => return,
                    Some(e) if board[e.index()] != 0 => {
                        if path.flags().has(PathFlags::SCREENED)
                            && !self.screen_allowed(path.target(), board[e.index()])
                        {
                            return;
                        }
                        break;
                    }
                    Some(_) => {}
                }
            }
        }
        for &e in ray {
            let occupant = board[e.index()];
            if e.can_stop() {
                stop(e.square(), occupant);
            }
            if occupant != 0 {
                return;
            }
        }
    }

    /// Whether `way` is open on `board`: the squares before its ray are empty, and the ray up
    /// to its target holds no piece (exactly one, the screen, for a hopping way).
    #[inline]
    pub(crate) fn way_open(&self, way: &Way, board: &[u8]) -> bool {
        let (pre, between) = self.motion.way_runs(way);
        if pre.iter().any(|e| board[e.index()] != 0) {
            return false;
        }
        let hop = way.flags().has(PathFlags::HOP);
        let mut screens = 0;
        for e in between {
            if board[e.index()] != 0 {
                screens += 1;
                if !hop
                    || screens > 1
                    || (way.flags().has(PathFlags::SCREENED)
                        && !self.screen_allowed(way.target(), board[e.index()]))
                {
                    return false;
                }
            }
        }
        !hop || screens == 1
    }

    /// Every square `kind` of `side` on `from` could end a move on with the board otherwise
    /// empty, path by path (a square reached by several paths comes several times): its move
    /// diagram. A hopping path reaches the squares that leave room for a screen before them.
    pub fn reach(&self, kind: PieceKind, side: Side, from: Square) -> Vec<Target> {
        let mut out = Vec::new();
        for path in self.paths(kind, side, from) {
            let flags = path.flags();
            // A shot needs a target, and a piece alone has none; nor has a capture on the way,
            // and a step there and back ends where the piece stands.
            if flags.has(PathFlags::SHOT) || flags.any(PathFlags::LION) {
                continue;
            }
            let hop = flags.has(PathFlags::HOP);
            let (_, ray) = self.path_runs(path);
            for (i, e) in ray.iter().enumerate() {
                if !e.can_stop() || (hop && i == 0) {
                    continue;
                }
                out.push(Target {
                    square: e.square(),
                    reach: if hop {
                        Reach::OverScreen
                    } else {
                        Reach::Direct
                    },
                    can_move: flags.has(PathFlags::MOVE),
                    can_capture: flags.has(PathFlags::CAPTURE),
                    unmoved: match path.condition() {
                        Condition::Always => None,
                        Condition::Unmoved => Some(true),
                        Condition::Moved => Some(false),
                    },
                });
            }
        }
        out
    }

    /// The squares that must be empty for `kind` of `side` on `from` to go along some path
    /// and that the path cannot end on: the legs before its ray (a lame piece's blocking
    /// squares, drawn `!` in move diagrams). A square where another path's screen may stand
    /// is not one of them: a grasshopper's neighbours block one landing and enable another.
    pub fn blocking(&self, kind: PieceKind, side: Side, from: Square) -> Vec<Square> {
        let paths = || {
            self.paths(kind, side, from)
                .iter()
                .filter(|p| !p.flags().has(PathFlags::SHOT) && !p.flags().any(PathFlags::LION))
        };
        let screens: Vec<Square> = paths()
            .filter(|p| p.flags().has(PathFlags::HOP))
            .flat_map(|p| self.path_runs(p).1.iter().map(|e| e.square()))
            .collect();
        paths()
            .flat_map(|p| self.path_runs(p).0.iter().map(|e| e.square()))
            .filter(|sq| !screens.contains(sq))
            .collect()
    }
}
