//! Rulebook: a data-driven interpreter for chess variants written in a text DSL.
//!
//! The pipeline runs one way: text is parsed ([`syntax`]), checked into a validated
//! [`model::Variant`] ([`check`]), compiled into move tables ([`model::Tables`]) and
//! interpreted by the [`engine`]; [`render`] draws.
//!
//! ```
//! let text = r#"
//! variant "Tiny"
//! board 3 x 3
//! sides white north, black south
//! piece King K royal
//!   move step any
//! rules
//!   checkmate
//! setup
//!   ..k
//!   ...
//!   K..
//! "#;
//! let variant = rulebook::load("tiny.variant", text).unwrap();
//! let tables = rulebook::model::Tables::compile(&variant, &[]).unwrap();
//! let mut pos = rulebook::engine::Position::new(tables);
//! // a2 and b1: b2 is next to the black king.
//! assert_eq!(rulebook::engine::perft(&mut pos, 1), 2);
//! ```
#![warn(missing_debug_implementations)]

pub mod check;
pub mod diagnostics;
pub mod engine;
pub mod interop;
#[cfg(feature = "cli")]
pub mod lsp;
pub mod model;
pub mod protocol;
pub mod render;
pub mod syntax;

pub use check::{check_source, check_source_with, load, load_with, CheckReport};
pub use diagnostics::{DefinitionError, Diagnostics};
