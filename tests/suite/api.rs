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

/// `try_play` plays a legal move and refuses, leaving the position alone, a move that is not
/// legal or comes after the end of the game.
#[test]
fn try_play_refuses_what_play_would_trust() {
    use rulebook::engine::PlayError;
    let mut pos = crate::common::start("chess.variant");
    let e4 = notation::parse_move(&pos, "e4").unwrap();
    assert_eq!(pos.try_play(e4), Ok(()));
    let before = pos.fen();
    // White's move again, with Black to move.
    assert_eq!(pos.try_play(e4), Err(PlayError::Illegal("e2e4".into())));
    assert_eq!(pos.fen(), before);
    let mut mated = crate::common::start("chess.variant");
    for text in ["f3", "e5", "g4", "Qh4"] {
        let m = notation::parse_move(&mated, text).unwrap();
        mated.try_play(m).unwrap();
    }
    let fen = mated.fen();
    let a3 = notation::parse_move(&crate::common::start("chess.variant"), "a3").unwrap();
    assert_eq!(
        mated.try_play(a3),
        Err(PlayError::GameOver(rulebook::engine::Reason::Checkmate))
    );
    assert_eq!(mated.fen(), fen);
}
