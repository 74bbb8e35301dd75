//! The interpreter: positions, move generation, legality, game outcome, perft and notation.

mod attack;
pub mod clock;
pub mod deep;
pub mod fen;
pub mod learn;
mod make;
mod movegen;
mod mv;
pub mod notation;
mod outcome;
mod perft;
mod position;
pub mod record;
pub mod search;
mod setup;
pub mod tune;
pub mod values;
mod zobrist;

pub use crate::model::MAX_IN_HANDS;
pub use movegen::PlayError;
pub use mv::{Move, MoveKind};
pub use outcome::{Outcome, Reason};
pub use perft::{perft, perft_divide, perft_divide_each};
pub use position::{Piece, Position};
pub use setup::SetupError;

/// A position of a shipped definition (`definitions/FILE`), from a FEN, for unit tests.
#[cfg(test)]
pub(crate) fn shipped_position(file: &str, fen: &str) -> Position {
    let text = std::fs::read_to_string(format!("definitions/{file}")).unwrap();
    let variant = crate::load(file, &text).unwrap();
    Position::new(crate::model::Tables::compile(&variant, &[]).unwrap())
        .with_fen(fen)
        .unwrap()
}
