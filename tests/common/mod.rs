//! Helpers shared by the integration tests.

use rulebook::engine::Position;
use rulebook::model::Tables;

/// The start position of a definition file, relative to the crate root, default options.
pub fn start_of(path: &str) -> Position {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    let variant = rulebook::load(path, &text).unwrap_or_else(|e| panic!("{path}: {e:?}"));
    Position::new(Tables::compile(&variant, &[]).unwrap())
}

/// The start position of a shipped definition (`definitions/FILE`).
#[allow(dead_code)]
pub fn start(file: &str) -> Position {
    start_of(&format!("definitions/{file}"))
}
