//! What the search must find despite its pruning, on positions whose answers are known: a
//! mate that needs a quiet first move, and the classic zugzwang test where a null move, which
//! assumes passing never helps, would hide the only winning plan. Limited by depth and nodes,
//! so the answers do not depend on the machine.

use rulebook::engine::notation;
use rulebook::engine::search::{Engine, Limits, Score};

fn best(fen: &str, limits: Limits) -> (String, Score) {
    let pos = crate::common::start_of("definitions/chess.variant")
        .with_fen(fen)
        .unwrap();
    let mut engine = Engine::new(&pos, 16);
    let (m, report) = engine.search(&pos, &limits, &mut |_| {});
    (notation::coord(&pos, &m.unwrap()), report.score)
}

#[test]
fn a_quiet_king_move_mates_in_two() {
    let (m, score) = best(
        "k7/8/2K5/8/8/8/8/7R w - - 0 1",
        Limits {
            depth: Some(6),
            ..Default::default()
        },
    );
    assert_eq!(m, "c6b6");
    assert_eq!(score, Score::Mate(2));
}

#[test]
fn null_moves_do_not_hide_a_zugzwang() {
    // White must give up the rook's check duty: only Rf1 wins (the published answer).
    let (m, _) = best(
        "8/8/p1p5/1p5p/1P5p/8/PPP2K1p/4R1rk w - - 0 1",
        Limits {
            nodes: Some(1_000_000),
            ..Default::default()
        },
    );
    assert_eq!(m, "e1f1");
}

#[test]
fn a_mate_keeps_its_distance_as_the_search_goes_deeper() {
    // Two rooks mate in four (Fairy-Stockfish agrees); deeper iterations, whose windows the
    // known mate narrows, must neither lose it nor shift its distance.
    for depth in [9, 11, 13] {
        let (_, score) = best(
            "8/8/8/8/8/4k3/8/R3K2R w - - 0 1",
            Limits {
                depth: Some(depth),
                ..Default::default()
            },
        );
        assert_eq!(score, Score::Mate(4), "at depth {depth}");
    }
}
