//! The validated model of a variant and the tables compiled from it.

mod compile;
mod square;
mod square_set;
mod variant;

#[allow(unused_imports)]
pub use compile::*;
pub use square::*;
pub use square_set::SquareSet;
pub use variant::*;
