//! Moves.

use crate::model::{PieceKind, Square};

/// What kind of move a [`Move`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A piece moves (and captures whatever enemy piece stands on `to`).
    Normal,
    /// A piece moves along a path whose passed squares become en-passant targets.
    DoubleStep,
    /// A capture en passant: the captured piece stands on `aux`.
    EnPassant,
    /// A piece from hand is placed on `to`.
    Drop,
    /// Castling rule number `aux` of the compiled rules.
    Castle,
}

/// A move, small and `Copy`; its meaning depends on the position it was generated in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece starts (for a drop: equal to `to`).
    pub from: Square,
    /// Where it ends.
    pub to: Square,
    /// The moving (or dropped) piece.
    pub piece: PieceKind,
    /// What it becomes, if it promotes.
    pub promotion: Option<PieceKind>,
    /// Special handling.
    pub kind: MoveKind,
    /// For `EnPassant`: the captured piece's square; for `DoubleStep`: the passed square;
    /// for `Castle`: the index of the castling rule.
    pub aux: u16,
}

impl Move {
    /// Whether this move places a piece from hand.
    pub fn is_drop(&self) -> bool {
        self.kind == MoveKind::Drop
    }
}
