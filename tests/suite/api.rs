//! The README's library example, run as written.

use rulebook::engine::{notation, perft, Position};
use rulebook::model::Tables;

#[test]
fn the_readme_library_example_runs() -> Result<(), Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string("definitions/xiangqi.variant")?;
    let variant = rulebook::load("xiangqi.variant", &text)?;
    let tables = Tables::compile(&variant, &[])?;
    let mut pos = Position::new(tables)
        .with_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")?;
    assert_eq!(perft(&mut pos, 2), 1920);
    let m = notation::parse_move(&pos, "h3e3")?;
    assert_eq!(notation::san(&pos, &m), "Che3");
    pos.play(m);
    assert_eq!(
        pos.fen(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    );
    assert_eq!(pos.legal_moves().len(), 45);
    Ok(())
}
