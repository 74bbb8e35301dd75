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
    /// A normal move, then a piece of this kind from the mover's hand placed on `from`
    /// (`gating in ZONE`: Seirawan chess).
    Gate(PieceKind),
    /// A castling, then a piece of this kind from hand placed on the king's start square
    /// (`false`) or the partner's (`true`).
    CastleGate(CastlingId, PieceKind, bool),
    /// The piece steps onto `via`, capturing the enemy piece there (when it is empty, the
    /// move is a lion's pass), and goes on to `to`, capturing there too; `to` may be `from`
    /// (igui: a capture without moving, or the pass). `capturing on the way`.
    Double(Square),
    /// The piece becomes `promotion` and goes to the empty square `to`, or stays where it is
    /// (`to == from`): a promotion that is a move of its own (`promote ..., in place`).
    Promote,
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
    /// Where the move builds a wall after it is made (`each move places a wall`).
    pub wall: Option<Square>,
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

    /// The castling a move makes, gated or not.
    pub fn castling(&self) -> Option<CastlingId> {
        match self.kind {
            MoveKind::Castle(id) | MoveKind::CastleGate(id, ..) => Some(id),
            _ => None,
        }
    }

    /// The kind a gating move places from hand, if it gates.
    pub fn gated(&self) -> Option<PieceKind> {
        match self.kind {
            MoveKind::Gate(k) | MoveKind::CastleGate(_, k, _) => Some(k),
            _ => None,
        }
    }

    /// The move without its gating: what it does on the board apart from the piece placed.
    pub fn ungated(&self) -> Move {
        let kind = match self.kind {
            MoveKind::Gate(_) => MoveKind::Normal,
            MoveKind::CastleGate(id, ..) => MoveKind::Castle(id),
            k => k,
        };
        Move { kind, ..*self }
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
            MoveKind::Normal | MoveKind::Passing(_) | MoveKind::Shot | MoveKind::Gate(_) => {
                Some(self.to)
            }
            MoveKind::CaptureAt(sq) => Some(sq),
            // The piece met on the way, where the move ends where it began.
            MoveKind::Double(via) if self.to == self.from => Some(via),
            MoveKind::Double(_) => Some(self.to),
            MoveKind::Drop
            | MoveKind::Castle(_)
            | MoveKind::CastleGate(..)
            | MoveKind::Pass
            | MoveKind::Promote => None,
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
