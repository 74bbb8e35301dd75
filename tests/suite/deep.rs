//! `check --deep`: random games find what reading a definition cannot.

use rulebook::engine::deep::{deep_check, DeepLimits, FindingKind};
use rulebook::engine::Position;
use rulebook::model::Tables;

fn start(text: &str) -> Position {
    let variant = rulebook::load("deep.variant", text).unwrap();
    Position::new(Tables::compile(&variant, &[]).unwrap())
}

fn limits(games: u32, plies: u32) -> DeepLimits {
    DeepLimits {
        games,
        plies,
        ..DeepLimits::default()
    }
}

/// Two kings that may only step sideways on their ranks, and nothing ends the game.
const SHUFFLE: &str = r#"
variant "Shuffle"
board 4 x 4
sides white north, black south
piece King K royal
  move step sideways
rules
  checkmate
setup
  ..k.
  ....
  ....
  .K..
"#;

#[test]
fn a_game_no_rule_can_end_is_found_with_its_moves() {
    let r = deep_check(&start(SHUFFLE), limits(3, 50));
    assert_eq!(r.games, 3);
    assert_eq!(r.decided, 0);
    let endless: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.kind == FindingKind::Endless)
        .collect();
    assert_eq!(endless.len(), 1);
    assert_eq!(endless[0].moves.len(), 50);
    // The moves replay from the start to the reported position.
    let mut pos = start(SHUFFLE);
    for m in &endless[0].moves {
        let mv = rulebook::engine::notation::parse_move(&pos, m).unwrap();
        pos.play(mv);
    }
    assert_eq!(pos.fen(), endless[0].fen);
}

#[test]
fn a_repetition_rule_lets_long_games_end() {
    let text = SHUFFLE.replace("  checkmate\n", "  checkmate\n  repetition 3 draws\n");
    let r = deep_check(&start(&text), limits(5, 200));
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(r.decided, 5);
}

#[test]
fn a_side_with_nothing_to_move_is_found() {
    // Black's king is walled in by its own Walls, which never move: unless White takes a
    // wall first, Black's turn comes with nothing at all to move.
    let text = r#"
variant "Walls"
board 3 x 3
sides white north, black south
zone everywhere = all
piece King K royal
  move step any
piece Wall W value 1
  never enter everywhere
rules
  checkmate
  stalemate loses
setup
  .wk
  .ww
  K..
"#;
    let r = deep_check(&start(text), limits(10, 20));
    let found: Vec<_> = r
        .findings
        .iter()
        .filter(|f| matches!(f.kind, FindingKind::NothingToMove { .. }))
        .collect();
    assert_eq!(found.len(), 1, "{:?}", r.findings);
    assert!(found[0].kind.to_string().contains("nothing it could move"));
    assert!(!found[0].kind.is_internal());
}

#[test]
fn shipped_definitions_play_without_internal_errors() {
    for file in [
        "chess",
        "xiangqi",
        "shogi",
        "gala",
        "gi-qi-game",
        "gala-xiangqi",
    ] {
        let pos = rulebook_start(file);
        let r = deep_check(&pos, limits(10, 150));
        assert!(
            r.findings.iter().all(|f| !f.kind.is_internal()),
            "{file}: {:?}",
            r.findings
        );
    }
}

fn rulebook_start(file: &str) -> Position {
    let path = format!("{}/definitions/{file}.variant", env!("CARGO_MANIFEST_DIR"));
    start(&std::fs::read_to_string(path).unwrap())
}
