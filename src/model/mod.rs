//! The validated model of a variant and the tables compiled from it.

pub mod betza;
mod letter;
mod square;
mod square_set;
mod square_tables;
mod tables;
mod variant;

pub use letter::{Letter, Lowercase, Mark};
pub use square::*;
pub use square_set::SquareSet;
pub use square_tables::{side_frames, SquareTables, MAX_TERM};
pub use tables::{
    CastlingId, CastlingRight, CastlingTable, CompileError, CountTable, PromotionChoice,
    PromotionTable, Reach, Route, RuleTable, Tables, Target, WhenTable, MAX_POOL,
};
pub(crate) use tables::{Condition, Path, PathFlags, Way, WALL};
pub use variant::*;
