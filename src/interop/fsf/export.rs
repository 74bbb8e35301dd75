//! A Rulebook definition written as a Fairy-Stockfish INI section.

use crate::model::Variant;

/// The definition as an INI section, or what Fairy-Stockfish lacks to play it.
///
/// # Errors
/// Each construct of the definition Fairy-Stockfish has no setting for, in a line.
pub fn export(variant: &Variant) -> Result<String, Vec<String>> {
    let _ = variant;
    Err(vec!["not written yet".into()])
}
