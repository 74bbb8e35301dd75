//! Compiles a [`Variant`](super::Variant) and a choice of options into move tables.
