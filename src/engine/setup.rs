//! The checked way into a position: a FEN, a definition's setup or a diagram's piece list is
//! first written into a [`Setup`], whose setters refuse what the variant cannot hold, and only
//! then becomes a [`Position`]. So a position's board, piece lists, hash and turn are always
//! derived in one place, however it was described.

use std::sync::Arc;

use super::position::{Piece, Position, Shared, WALL};
use crate::model::{Side, Square, SquareSet, Tables, MAX_IN_HANDS};

/// Why a setup was refused; the message is one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The square is a hole of the board.
    #[error("a piece on {0}, a hole of this board")]
    Hole(String),
    /// The square already holds a piece.
    #[error("two pieces on {0}")]
    Occupied(String),
    /// More pieces in hand than the engine keeps.
    #[error("the hands hold more than {MAX_IN_HANDS} pieces in all")]
    HandsFull,
    /// A piece in hand in a game without drops.
    #[error("this game keeps no pieces in hand")]
    NoHands,
    /// Sides out of the running in a game of two sides.
    #[error("only a game of more than two sides has sides out")]
    OutWithTwoSides,
    /// A wall in a game whose rules make none.
    #[error("a wall on {0}, in a game without walls")]
    NoWalls(String),
}

/// A position described piece by piece, before it becomes a [`Position`].
#[derive(Clone, Debug)]
pub(crate) struct Setup {
    sh: Arc<Shared>,
    board: Vec<Option<Piece>>,
    /// The occupied squares in the order their pieces were put: the piece lists keep it, and
    /// move generation, so a search's move order with it.
    order: Vec<Square>,
    /// Pieces in hand per (side, kind), by `side * kinds + kind`.
    hands: Vec<u16>,
    in_hands: usize,
    side_to_move: Side,
    unmoved: SquareSet,
    en_passant: Option<(Vec<Square>, Square)>,
    halfmove: u32,
    fullmove: u32,
    /// Checks given per side, under a `checks` rule.
    checks: Vec<u8>,
    out: u8,
    walls: SquareSet,
    /// Under `counter-strike`: where such a piece was just captured by another kind.
    struck: Option<Square>,
}

impl Setup {
    /// An empty board of the variant, the first side to move.
    pub(crate) fn empty(sh: Arc<Shared>) -> Setup {
        let t = &sh.t;
        Setup {
            board: vec![None; t.geometry().len()],
            order: Vec::new(),
            hands: vec![0; t.sides() * t.kinds()],
            in_hands: 0,
            side_to_move: Side::FIRST,
            unmoved: SquareSet::EMPTY,
            en_passant: None,
            halfmove: 0,
            fullmove: 1,
            checks: vec![0; t.sides()],
            out: 0,
            walls: SquareSet::EMPTY,
            struck: None,
            sh,
        }
    }

    /// The variant's start position: its setup and hands, every tracked piece unmoved.
    pub(crate) fn start(tables: Tables) -> Setup {
        let mut s = Setup::empty(Arc::new(Shared::new(tables)));
        let sh = Arc::clone(&s.sh);
        for p in sh.t.setup() {
            let piece = Piece {
                side: p.side,
                kind: p.piece,
            };
            let put = s.put(p.square, piece);
            debug_assert!(
                put.is_ok(),
                "the checker places a start position once per square"
            );
        }
        for &(side, kind) in sh.t.setup_hand() {
            s.hands[side.index() * sh.t.kinds() + kind.index()] += 1;
        }
        s.side_to_move = sh.t.variant().rules().first_side;
        s.mark_tracked_unmoved();
        s
    }

    pub(crate) fn tables(&self) -> &Tables {
        &self.sh.t
    }

    /// Puts `piece` on `sq`.
    ///
    /// # Errors
    /// If `sq` is a hole, or already holds a piece.
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) -> Result<(), SetupError> {
        let g = self.sh.t.geometry();
        if g.is_hole(sq) {
            return Err(SetupError::Hole(g.name(sq).to_string()));
        }
        let cell = &mut self.board[sq.index()];
        if cell.is_some() || self.walls.contains(sq) {
            return Err(SetupError::Occupied(g.name(sq).to_string()));
        }
        *cell = Some(piece);
        self.order.push(sq);
        Ok(())
    }

    /// Builds a wall on `sq`.
    ///
    /// # Errors
    /// If the rules make no walls, or `sq` is a hole or holds a piece or a wall.
    pub(crate) fn put_wall(&mut self, sq: Square) -> Result<(), SetupError> {
        let g = self.sh.t.geometry();
        let name = || g.name(sq).to_string();
        if !self.sh.t.rules().walls {
            return Err(SetupError::NoWalls(name()));
        }
        if g.is_hole(sq) {
            return Err(SetupError::Hole(name()));
        }
        if self.board[sq.index()].is_some() || self.walls.contains(sq) {
            return Err(SetupError::Occupied(name()));
        }
        self.walls.insert(sq);
        Ok(())
    }

    /// Puts `piece` on `sq`, replacing what stood there (a wall too).
    pub(crate) fn replace(&mut self, sq: Square, piece: Piece) -> Result<(), SetupError> {
        if self.board[sq.index()].take().is_some() {
            self.order.retain(|&o| o != sq);
        }
        self.walls.remove(sq);
        self.put(sq, piece)
    }

    /// Adds one `piece` to its side's hand.
    ///
    /// # Errors
    /// If the game keeps no hands, or the hands are full.
    pub(crate) fn add_to_hand(&mut self, piece: Piece) -> Result<(), SetupError> {
        if !self.sh.t.rules().hands {
            return Err(SetupError::NoHands);
        }
        if self.in_hands >= MAX_IN_HANDS {
            return Err(SetupError::HandsFull);
        }
        self.in_hands += 1;
        self.hands[piece.side.index() * self.sh.t.kinds() + piece.kind.index()] += 1;
        Ok(())
    }

    pub(crate) fn set_side_to_move(&mut self, side: Side) {
        self.side_to_move = side;
    }

    /// Marks every piece on a square the variant tracks as not yet moved.
    pub(crate) fn mark_tracked_unmoved(&mut self) {
        for sq in self.sh.t.tracked_squares().iter() {
            if self.board[sq.index()].is_some() {
                self.unmoved.insert(sq);
            }
        }
    }

    pub(crate) fn mark_unmoved(&mut self, sq: Square) {
        self.unmoved.insert(sq);
    }

    pub(crate) fn mark_moved(&mut self, sq: Square) {
        self.unmoved.remove(sq);
    }

    /// The en-passant targets the last move left, and the piece that passed them; the caller
    /// keeps only targets a side could use, as play does.
    pub(crate) fn set_en_passant(&mut self, targets: Vec<Square>, victim: Square) {
        self.en_passant = (!targets.is_empty()).then_some((targets, victim));
    }

    /// The halfmove clock and, if given, the fullmove number (at least 1).
    pub(crate) fn set_clocks(&mut self, halfmove: u32, fullmove: Option<u32>) {
        self.halfmove = halfmove;
        if let Some(f) = fullmove {
            self.fullmove = f.max(1);
        }
    }

    /// Checks given by `side`, at most the rule's count.
    /// Under `counter-strike`: the square where such a piece was just captured by another
    /// kind, so that the next move may not take one but with one.
    pub(crate) fn set_struck(&mut self, sq: Square) {
        self.struck = Some(sq);
    }

    pub(crate) fn set_checks_given(&mut self, side: Side, given: u8) {
        let most = self.sh.t.rules().checks.map_or(0, |(n, _)| n);
        self.checks[side.index()] = given.min(most);
    }

    /// Puts `side` out of the running.
    ///
    /// # Errors
    /// In a game of two sides.
    pub(crate) fn set_out(&mut self, side: Side) -> Result<(), SetupError> {
        if self.sh.t.sides() < 3 {
            return Err(SetupError::OutWithTwoSides);
        }
        self.out |= 1 << side.index();
        Ok(())
    }
}

impl Position {
    /// The position a setup describes, as it stands: a side that cannot move is not passed
    /// over (diagrams show any side to move).
    pub(crate) fn placed(s: Setup) -> Position {
        let mut p = Position::empty(Arc::clone(&s.sh));
        for &sq in &s.order {
            if let Some(piece) = s.board[sq.index()] {
                p.put(sq, piece);
            }
        }
        for sq in s.walls.iter() {
            p.board[sq.index()] = WALL;
        }
        p.hands = s.hands;
        p.stm = s.side_to_move;
        p.unmoved = s.unmoved;
        p.halfmove = s.halfmove;
        p.fullmove = s.fullmove;
        p.checks = s.checks;
        p.out = s.out;
        p.struck = s.struck;
        if p.sh.t.rules().eliminated != crate::model::Elimination::PlayOn {
            p.benched = s.out;
        }
        if let Some((targets, victim)) = &s.en_passant {
            p.set_en_passant_targets(targets, *victim);
        }
        p.rehash();
        p
    }

    /// The position a setup describes, reached in play: a side that could not move has been
    /// passed over (or put out) as the game would.
    pub(crate) fn from_setup(s: Setup) -> Position {
        let mut p = Position::placed(s);
        p.settle_turn(false);
        p
    }

    /// An empty setup of this position's variant.
    pub(crate) fn empty_setup(&self) -> Setup {
        Setup::empty(Arc::clone(&self.sh))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::shipped_position;
    use crate::model::PieceKind;

    fn start(file: &str) -> Position {
        // By its path, so that a base it names is found beside it.
        let path = format!("definitions/{file}");
        let text = std::fs::read_to_string(&path).unwrap();
        let variant = crate::load(&path, &text).unwrap();
        Position::new(Tables::compile(&variant, &[]).unwrap())
    }

    fn piece(side: usize, kind: usize) -> Piece {
        Piece {
            side: Side::nth(side),
            kind: PieceKind::nth(kind),
        }
    }

    #[test]
    fn a_setup_refuses_what_the_board_cannot_hold() {
        let chess = start("chess.variant");
        let g = chess.tables().geometry();
        let mut s = chess.empty_setup();
        let e4 = g.parse("e4").unwrap();
        s.put(e4, piece(0, 0)).unwrap();
        assert_eq!(
            s.put(e4, piece(1, 0)),
            Err(SetupError::Occupied("e4".into()))
        );
        s.replace(e4, piece(1, 0)).unwrap();
        assert_eq!(s.add_to_hand(piece(0, 0)), Err(SetupError::NoHands));
        assert_eq!(s.set_out(Side::nth(1)), Err(SetupError::OutWithTwoSides));
        assert_eq!(Position::placed(s).piece_at(e4), Some(piece(1, 0)));

        let omicron = start("library/omicron.variant");
        let g = omicron.tables().geometry();
        let hole = g.squares().find(|&sq| g.is_hole(sq)).unwrap();
        let mut s = omicron.empty_setup();
        assert_eq!(
            s.put(hole, piece(0, 0)),
            Err(SetupError::Hole(g.name(hole).to_string()))
        );
    }

    #[test]
    fn walls_only_where_the_rules_make_them() {
        let chess = start("chess.variant");
        let e4 = chess.tables().geometry().parse("e4").unwrap();
        let mut s = chess.empty_setup();
        assert_eq!(s.put_wall(e4), Err(SetupError::NoWalls("e4".into())));

        let joust = start("library/joust.variant");
        let mut s = joust.empty_setup();
        s.put_wall(e4).unwrap();
        assert_eq!(
            s.put(e4, piece(0, 0)),
            Err(SetupError::Occupied("e4".into()))
        );
        assert_eq!(s.put_wall(e4), Err(SetupError::Occupied("e4".into())));
        assert!(Position::placed(s.clone()).is_wall(e4));
        // A piece put in its place takes the wall away.
        s.replace(e4, piece(0, 0)).unwrap();
        let p = Position::placed(s);
        assert!(!p.is_wall(e4));
        assert_eq!(p.piece_at(e4), Some(piece(0, 0)));
    }

    #[test]
    fn the_hands_hold_a_bounded_number_of_pieces() {
        let shogi = start("shogi.variant");
        let mut s = shogi.empty_setup();
        for _ in 0..MAX_IN_HANDS {
            s.add_to_hand(piece(0, 0)).unwrap();
        }
        assert_eq!(s.add_to_hand(piece(1, 0)), Err(SetupError::HandsFull));
    }

    #[test]
    fn a_position_read_from_fen_is_the_position_played_to() {
        // The same position reached by moves and described by its FEN: equal FEN and hash.
        let mut played = start("chess.variant");
        for m in ["e2e4", "c7c5", "e4e5", "d7d5"] {
            let m = crate::engine::notation::parse_move(&played, m).unwrap();
            played.try_play(m).unwrap();
        }
        let read = shipped_position("chess.variant", &played.fen());
        assert_eq!(read.fen(), played.fen());
        assert_eq!(read.hash(), played.hash());
    }
}
