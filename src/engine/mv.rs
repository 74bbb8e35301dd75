//! Moves.

use crate::model::{CastlingId, PieceKind, Route, Square};

/// What a move does beyond taking its piece from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// The piece moves from `from` to `to` and captures the enemy piece standing there, if any.
    Normal,
    /// A normal move whose passed squares matter: they become en-passant targets. The route
    /// lists them ([`Tables::passed`](crate::model::Tables::passed)).
    Passing(Route),
    /// The piece moves to the empty square `to` and captures the piece standing on another
    /// square (en passant).
    CaptureAt(Square),
    /// The piece stays on `from` and captures the piece on `to`: a capture without moving.
    Shot,
    /// A piece from hand is placed on `to`.
    Drop,
    /// The king-like piece goes from `from` to `to` and its partner as the castling says.
    Castle(CastlingId),
    /// Nothing moves: the side passes its turn (`passing allowed`). `from` and `to` are the
    /// square of its first royal (the first square without one), as Fairy-Stockfish writes a
    /// pass (`e2e2`).
    Pass,
}

/// A move, small and `Copy`; its meaning depends on the position it was generated in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The moving (or dropped) piece.
    pub piece: PieceKind,
    /// Where the piece starts (for a drop: equal to `to`).
    pub from: Square,
    /// Where it ends; for a shot, the square it captures on.
    pub to: Square,
    /// What it becomes, if it promotes.
    pub promotion: Option<PieceKind>,
    /// What else it does.
    pub kind: MoveKind,
}

impl Move {
    /// Whether this move places a piece from hand.
    pub fn is_drop(&self) -> bool {
        self.kind == MoveKind::Drop
    }

    /// The kind of piece that stands on the destination after the move: the promotion if any
    /// (a drop may place its piece as another kind), else the moving piece.
    pub fn placed(&self) -> PieceKind {
        self.promotion.unwrap_or(self.piece)
    }

    /// Whether this move is a pass.
    pub fn is_pass(&self) -> bool {
        self.kind == MoveKind::Pass
    }

    /// Whether this move captures without moving.
    pub fn is_shot(&self) -> bool {
        self.kind == MoveKind::Shot
    }

    /// The square of the piece a capturing move takes, if it captures: `to`, or another square
    /// for en passant. The position decides whether anything stands there.
    pub fn capture_square(&self) -> Option<Square> {
        match self.kind {
            MoveKind::Normal | MoveKind::Passing(_) | MoveKind::Shot => Some(self.to),
            MoveKind::CaptureAt(sq) => Some(sq),
            MoveKind::Drop | MoveKind::Castle(_) | MoveKind::Pass => None,
        }
    }

    /// Where the moving piece ends: `to`, or `from` for a shot.
    pub fn landing(&self) -> Square {
        if self.kind == MoveKind::Shot {
            self.from
        } else {
            self.to
        }
    }
}
