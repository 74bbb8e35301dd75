//! Piece values estimated from the definition alone, against the values chess players have
//! long agreed on, and the engine's use of them where a definition gives none.

use rulebook::engine::learn::learn;
use rulebook::engine::search::Engine;
use rulebook::engine::values::estimate;
use rulebook::engine::Position;
use rulebook::model::{PieceKind, Tables};

fn start(text: &str) -> Position {
    let variant = rulebook::load("test.variant", text).unwrap();
    Position::new(Tables::compile(&variant, &[]).unwrap())
}

fn shipped(file: &str) -> Position {
    let path = format!("{}/definitions/{file}", env!("CARGO_MANIFEST_DIR"));
    start(&std::fs::read_to_string(path).unwrap())
}

/// The entry of `entries` for the piece called `name`.
fn named<'a, T>(
    pos: &Position,
    entries: &'a [T],
    kind: impl Fn(&T) -> PieceKind,
    name: &str,
) -> &'a T {
    let v = pos.tables().variant();
    entries
        .iter()
        .find(|e| v.piece(kind(e)).name == name)
        .unwrap_or_else(|| panic!("no piece called {name}"))
}

#[test]
fn chess_estimates_come_near_the_classical_values() {
    let pos = shipped("chess.variant");
    let found = estimate(&pos, 4000, 7);
    let value = |name: &str| {
        let e = named(&pos, &found.pieces, |e| e.kind, name);
        assert!(e.margin < 0.2, "{name}: {e:?}");
        e.value
    };
    // Queen 9, rook 5, bishop and knight 3, pawn 1: within a pawn for the pieces; mobility
    // is known to undervalue the pawn, which cannot go back.
    for (name, classical) in [
        ("Queen", 9.0),
        ("Rook", 5.0),
        ("Bishop", 3.0),
        ("Knight", 3.0),
    ] {
        let v = value(name);
        assert!((v - classical).abs() < 1.0, "{name}: {v}");
    }
    let pawn = value("Pawn");
    assert!((0.5..1.2).contains(&pawn), "{pawn}");
    assert!(value("Queen") > value("Rook") && value("Rook") > value("Bishop"));
    assert!(value("Bishop") >= value("Knight") && value("Knight") > pawn);
    assert!(found.pieces[0].royal);
    // The same seed gives the same figures.
    assert_eq!(found, estimate(&pos, 4000, 7));
}

#[test]
fn a_rider_is_worth_more_on_a_bigger_board_and_a_leaper_the_same() {
    let fen = |size: u32| {
        let mut rows = vec![format!("rnk{}", empty(size - 3))];
        rows.extend((0..size - 2).map(|_| empty(size)));
        rows.push(format!("RNK{}", empty(size - 3)));
        rows.join("/")
    };
    let game = |size: u32| {
        format!(
            "variant \"Sized\"\nboard {size} x {size}\nsides white north, black south\n\
             piece King K royal\n  move step any\n\
             piece Rook R\n  move slide orthogonal\n\
             piece Knight N\n  move step (1,2)\n\
             rules\n  checkmate\n\
             setup \"{}\"\n",
            fen(size)
        )
    };
    let value =
        |size: u32, letter: usize| estimate(&start(&game(size)), 3000, 3).pieces[letter].value;
    assert!(value(12, 1) > value(8, 1) + 1.0);
    assert!((value(12, 2) - 3.0).abs() < 0.3);
    assert!((value(8, 2) - 3.0).abs() < 0.3);
}

fn empty(n: u32) -> String {
    if n == 0 {
        String::new()
    } else {
        n.to_string()
    }
}

#[test]
fn the_engine_values_pieces_the_definition_leaves_unvalued() {
    let text = "variant \"Unvalued\"\nboard 8 x 8\nsides white north, black south\n\
                piece King K royal\n  move step any\n\
                piece Queen Q\n  move slide any\n\
                piece Pawn P\n  move step forward\n\
                rules\n  checkmate\n\
                setup \"4k3/p7/8/8/8/8/8/3QK3\"\n";
    let pos = start(text);
    let engine = Engine::new(&pos, 1);
    // A queen against a pawn: far more than the one pawn both would be worth unvalued.
    let score = engine.evaluate(&pos);
    assert!(score > 500, "{score}");
}

/// Values learned from self-play: chess with one of each side's knights renamed to an
/// identical piece of another kind. The twins must come out alike, and the pieces in the order
/// chess players have long agreed on where it is clear (a queen above a rook, every piece above
/// a pawn).
#[test]
fn self_play_values_order_the_pieces_and_agree_on_twins() {
    let path = format!("{}/definitions/chess.variant", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path)
        .unwrap()
        .replace(
            "piece Pawn P",
            "piece Horse H value 3\n  move step (1,2)\n\npiece Pawn P",
        )
        .replace("  rnbqkbnr", "  rhbqkbnr")
        .replace("  RNBQKBNR", "  RHBQKBNR");
    let pos = start(&text);
    let found = learn(&pos, 300, 3, 5, 2).unwrap();
    let value = |name: &str| {
        let e = named(&pos, &found.pieces, |e| e.kind, name);
        assert!(e.margin.is_finite() && e.margin > 0.0, "{name}: {e:?}");
        (e.value.unwrap(), e.margin)
    };
    let (queen, rook, pawn) = (value("Queen").0, value("Rook").0, value("Pawn").0);
    let ((knight, kn), (horse, hm)) = (value("Knight"), value("Horse"));
    assert!(
        (knight - horse).abs() < kn + hm,
        "twins differ: {knight} ± {kn}, {horse} ± {hm}"
    );
    assert!(queen > rook && rook > pawn, "{found:?}");
    assert!(
        knight > pawn && horse > pawn && value("Bishop").0 > pawn,
        "{found:?}"
    );
    assert!(found.pieces[0].royal && found.pieces[0].value.is_none());
    assert_eq!(found.games, 300);
    assert_eq!(found.results.iter().sum::<usize>(), 300);
    assert!(found.positions > 10_000, "{}", found.positions);
}

#[test]
fn self_play_values_need_two_sides() {
    let err = learn(&shipped("gala-xiangqi-four.variant"), 2, 1, 1, 1).unwrap_err();
    assert!(err.contains("two sides"), "{err}");
}
