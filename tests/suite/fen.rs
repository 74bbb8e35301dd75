//! FEN exchanged with Fairy-Stockfish: every expected string below is what
//! `pyffish.get_fen(variant, start, moves)` (pyffish 0.0.90) wrote for the same moves, and every
//! FEN read below is one it reads or lists.

use crate::common;
use common::{start, start_of};
use rulebook::engine::{notation, perft, Position};

/// The FEN after playing `moves` (coordinate notation) from `pos`.
fn after(pos: &Position, moves: &[&str]) -> String {
    let mut p = pos.clone();
    for text in moves {
        let m = notation::parse_coord(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        p.play(m);
    }
    p.fen()
}

#[test]
fn written_as_fairy_stockfish_writes() {
    let chess = start("chess.variant");
    let cases: &[(&Position, &[&str], &str)] = &[
        (
            &chess,
            &[],
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ),
        // No black pawn can take on e3, so no en-passant square is written.
        (
            &chess,
            &["e2e4"],
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        ),
        (
            &chess,
            &["e2e4", "a7a6", "e4e5", "d7d5"],
            "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
        ),
        (
            &chess,
            &["e2e4", "a7a6", "e4e5", "d7d5", "e5d6"],
            "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3",
        ),
        (
            &chess,
            &["g1f3", "g8f6", "h1g1"],
            "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKBR1 b Qkq - 3 2",
        ),
    ];
    for (pos, moves, want) in cases {
        assert_eq!(after(pos, moves), *want, "{moves:?}");
    }
    let xiangqi = start("xiangqi.variant");
    assert_eq!(
        after(&xiangqi, &[]),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    );
    assert_eq!(
        after(&xiangqi, &["h3e3", "h10g8", "e3e7"]),
        "rnbakab1r/9/1c4nc1/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2"
    );
    let shogi = start("shogi.variant");
    assert_eq!(
        after(&shogi, &[]),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1"
    );
    assert_eq!(
        after(&shogi, &["c3c4", "g7g6", "b2h8+"]),
        "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL[B] b - - 0 2"
    );
    assert_eq!(
        after(&shogi, &["c3c4", "g7g6", "b2h8+", "g9h8"]),
        "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL[Bb] w - - 0 3"
    );
    // The clock counts plies since the last irreversible move: a drop is one.
    let moves = ["c3c4", "g7g6", "b2h8+", "g9h8", "h2i2", "b8a8"];
    assert_eq!(
        after(&shogi, &moves),
        "lnsgkg1nl/r6s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/8R/LNSGKGSNL[Bb] w - - 2 4"
    );
    let mut with_drop = moves.to_vec();
    with_drop.push("B@e5");
    assert_eq!(
        after(&shogi, &with_drop),
        "lnsgkg1nl/r6s1/pppppp1pp/6p2/4B4/2P6/PP1PPPPPP/8R/LNSGKGSNL[b] b - - 0 4"
    );
}

#[test]
fn read_in_every_form_fairy_stockfish_uses() {
    let shogi = start("shogi.variant");
    let written = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[Pp] w - - 0 1";
    for form in [
        written,
        // The hand as an extra rank.
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL/Pp w - - 0 1",
        // Fairy-Stockfish's start-position form: no castling or en-passant field.
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[Pp] w 0 1",
    ] {
        assert_eq!(shogi.with_fen(form).unwrap().fen(), written, "{form}");
    }
    assert_eq!(
        shogi
            .with_fen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1")
            .unwrap()
            .fen(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1"
    );
    let chess = start("chess.variant");
    // Shredder-FEN castling letters; `~` marks a promoted piece.
    assert_eq!(
        chess
            .with_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1")
            .unwrap()
            .fen(),
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    );
    assert_eq!(
        chess
            .with_fen("rnbqkbQ~1/pppppp2/8/8/8/8/PPPPPPP1/RNBQKBNR b KQq - 0 1")
            .unwrap()
            .fen(),
        "rnbqkbQ1/pppppp2/8/8/8/8/PPPPPPP1/RNBQKBNR b KQq - 0 1"
    );
    // A `-` castling field in a variant without castling.
    let xiangqi = start("xiangqi.variant");
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    assert_eq!(xiangqi.with_fen(fen).unwrap().fen(), fen);
    // An en-passant square nobody can use is dropped, as in positions reached by play.
    let e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    assert_eq!(
        chess.with_fen(e4).unwrap().fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
}

/// Pawns that may step three squares from their first rank leave two en-passant squares.
#[test]
fn a_pawn_passing_two_squares_leaves_two_targets() {
    let pos = start_of("tests/fixtures/valid/pieces/triple_step.variant");
    // White's e-pawn runs e2-e5 past d4's and f3's reach: both passed squares are targets.
    let fen = after(&pos, &["e2e5"]);
    assert!(fen.ends_with(" b - e3e4 1 1"), "{fen}");
    // Read back, the same position with the same moves: both captures en passant.
    let back = pos.with_fen(&fen).unwrap();
    assert_eq!(back.fen(), fen);
    let moves: Vec<String> = back
        .legal_moves()
        .iter()
        .map(|m| notation::coord(&back, m))
        .collect();
    assert!(moves.contains(&"d4e3".to_string()), "{moves:?}");
    assert!(moves.contains(&"f5e4".to_string()), "{moves:?}");
    let mut p = back.clone();
    let ep = notation::parse_coord(&p, "d4e3").unwrap();
    p.play(ep);
    assert!(p
        .piece_at(p.tables().geometry().parse("e5").unwrap())
        .is_none());
    // Hash and perft agree between the played and the read position.
    let mut played = pos.clone();
    played.play(notation::parse_coord(&played, "e2e5").unwrap());
    assert_eq!(played.hash(), back.hash());
    assert_eq!(perft(&mut played.clone(), 2), perft(&mut back.clone(), 2));
}

#[test]
fn check_counts_are_in_the_fen_and_the_hash() {
    let pos = start_of("definitions/library/3check.variant");
    // As pyffish.get_fen("3check", start, moves) writes them.
    assert_eq!(
        pos.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1"
    );
    assert_eq!(
        after(&pos, &["e2e4", "f7f6", "d1h5"]),
        "rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 2+3 1 2"
    );
    let twice = after(&pos, &["e2e4", "f7f6", "d1h5", "g7g6", "h5g6", "h7g6"]);
    assert_eq!(
        twice,
        "rnbqkbnr/ppppp3/5pp1/8/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 1+3 0 4"
    );
    // Both notations of the counts read the same position, and the counts change the hash.
    let fsf = pos.with_fen(&twice).unwrap();
    let lichess = pos
        .with_fen("rnbqkbnr/ppppp3/5pp1/8/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 4 +2+0")
        .unwrap();
    assert_eq!(fsf.fen(), lichess.fen());
    assert_eq!(fsf.hash(), lichess.hash());
    let fresh = pos
        .with_fen("rnbqkbnr/ppppp3/5pp1/8/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 3+3 0 4")
        .unwrap();
    assert_ne!(fsf.hash(), fresh.hash());
    // The third check ends the game.
    let end = "4k3/8/8/8/8/8/8/4K2R w - - 1+3 0 1";
    let mut p = pos.with_fen(end).unwrap();
    let hash = p.hash();
    let m = notation::parse_coord(&p, "h1h8").unwrap();
    p.play(m);
    assert_eq!(p.checks_given(rulebook::model::Side::FIRST), 3);
    assert!(p
        .outcome()
        .is_some_and(|o| o.winner() == Some(rulebook::model::Side::FIRST)));
    assert!(p.legal_moves().is_empty());
    p.undo_move();
    assert_eq!(p.fen(), end);
    assert_eq!(p.hash(), hash);
    // A count field where no checks are counted is refused.
    assert!(start("chess.variant")
        .with_fen("8/8/8/8/8/8/8/K6k w - - 3+3 0 1")
        .is_err());
}

#[test]
fn promoted_pieces_marked_with_a_tilde() {
    let zh = start_of("definitions/library/crazyhouse.variant");
    // As pyffish.get_fen("crazyhouse", start, moves) writes them.
    let pos = zh.with_fen("k7/2P5/8/8/8/8/8/4K3[] w - - 0 1").unwrap();
    assert_eq!(after(&pos, &["c7c8q"]), "k1Q~5/8/8/8/8/8/8/4K3[] b - - 0 1");
    assert_eq!(
        after(&pos, &["c7c8n", "a8b7", "c8d6", "b7c7"]),
        "8/2k5/3N~4/8/8/8/8/4K3[] w - - 3 3"
    );
    // Captured, the promoted piece goes to hand as a pawn.
    let pos = zh.with_fen("k7/2P5/1q6/8/8/8/8/4K3[] w - - 0 1").unwrap();
    assert_eq!(
        after(&pos, &["c7c8n", "b6c6", "e1e2", "c6c8"]),
        "k1q5/8/8/8/8/8/4K3/8[p] w - - 0 3"
    );
    // Read back, `Q~` is the promoted queen: it moves as a queen.
    let read = zh.with_fen("k1Q~5/8/8/8/8/8/8/4K3[] b - - 0 1").unwrap();
    assert_eq!(read.fen(), "k1Q~5/8/8/8/8/8/8/4K3[] b - - 0 1");
    assert_eq!(
        read.legal_moves()
            .iter()
            .map(|m| notation::coord(&read, m))
            .collect::<Vec<_>>(),
        ["a8a7"]
    );
    // In a variant without `~` pieces the mark is read and dropped.
    let chess = start("chess.variant");
    let plain = chess.with_fen("k1Q~5/8/8/8/8/8/8/4K3 b - - 0 1").unwrap();
    assert_eq!(plain.fen(), "k1Q5/8/8/8/8/8/8/4K3 b - - 0 1");
}

#[test]
fn a_listed_destination_names_the_piece_that_passed() {
    // Fairy-Stockfish writes `g5g6` after g7-g5 of a Betza-defined pawn: g5 holds the pawn
    // that passed g6, which the pawn on f5 may take en passant.
    let pos = start_of("definitions/library/pawnsideways.variant")
        .with_fen("rnbqkbnr/pp2p2p/8/2pp1Pp1/8/N7/PPPPBPPP/1RBQK1NR w Kkq g5g6 0 6")
        .unwrap();
    assert!(pos
        .legal_moves()
        .iter()
        .any(|m| notation::coord(&pos, m) == "f5g6"));
    assert_eq!(
        pos.fen(),
        "rnbqkbnr/pp2p2p/8/2pp1Pp1/8/N7/PPPPBPPP/1RBQK1NR w Kkq g6 0 6"
    );
}

/// `w` and `b` name the first and second side by turn order, whatever the sides are called:
/// with `sides black north, white south`, `b` is white (the second side), not black.
#[test]
fn side_to_move_letters_follow_turn_order_not_names() {
    let pos = start_of("tests/fixtures/warnings/side_letter.variant");
    let black_first = pos.with_fen("2k1r/5/5/5/R1K2 b - - 0 1").unwrap();
    assert_eq!(black_first.side_to_move().index(), 1);
    assert_eq!(black_first.fen(), "2k1r/5/5/5/R1K2 b - - 0 1");
    let w = pos.with_fen("2k1r/5/5/5/R1K2 w - - 0 1").unwrap();
    assert_eq!(w.side_to_move().index(), 0);
    // Whole names still work.
    let named = pos.with_fen("2k1r/5/5/5/R1K2 white - - 0 1").unwrap();
    assert_eq!(named.side_to_move().index(), 1);
    assert!(pos.with_fen("2k1r/5/5/5/R1K2 x - - 0 1").is_err());
}
