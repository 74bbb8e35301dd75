//! Rulebook: a data-driven interpreter for chess variants written in a text DSL.
//!
//! The pipeline runs one way: text is parsed ([`syntax`]), checked into a validated
//! [`model::Variant`] ([`check`]), compiled into move tables ([`model::Tables`]) and
//! interpreted by the [`engine`].
#![warn(missing_debug_implementations)]

pub mod check;
pub mod diagnostics;
pub mod model;
pub mod syntax;

pub use check::{check_source, load, CheckReport};
pub use diagnostics::{DefinitionError, Diagnostics};
