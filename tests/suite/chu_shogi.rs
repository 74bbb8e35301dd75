//! Chu Shogi (`definitions/library/chushogi.variant`): every case of the Lion's rules, the
//! Horned Falcon's and Soaring Eagle's lion moves, the Lion-trading rules and Chu's
//! promotion. Each test quotes the rule it proves (Wikipedia, "Chu shogi"; H. G. Muller, "The
//! Chu Shogi promotion rule"). Counts from the start and from positions of random games are
//! in the perft suite (`tests/perft/library/chushogi.toml`).

use crate::common::start_of;
use rulebook::engine::{notation, Position};

const PATH: &str = "definitions/library/chushogi.variant";

/// A position with these pieces (`("f6", "N")`, uppercase for sente), the kings on l1 and
/// a12 unless given, `to_move` (`w` for sente, `b` for gote) to move, and `extra` fields.
fn position(pieces: &[(&str, &str)], to_move: &str, extra: &str) -> Position {
    let mut rows = vec![vec![String::new(); 12]; 12];
    let mut all = vec![("l1", "K"), ("a12", "k")];
    all.extend_from_slice(pieces);
    for (sq, piece) in all {
        let file = usize::from(sq.as_bytes()[0] - b'a');
        let rank: usize = sq[1..].parse().unwrap();
        rows[12 - rank][file] = piece.to_string();
    }
    let board: Vec<String> = rows
        .iter()
        .map(|row| {
            let mut out = String::new();
            let mut empty = 0;
            for cell in row {
                if cell.is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push_str(cell);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    let fen = format!("{} {to_move} - - 0 1 {extra}", board.join("/"));
    start_of(PATH)
        .with_fen(fen.trim())
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal moves of the piece on `from`, in coordinate notation, sorted.
fn moves_from(pos: &Position, from: &str) -> Vec<String> {
    let g = pos.tables().geometry();
    let sq = g.parse(from).unwrap();
    let mut out: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.from == sq)
        .map(|m| notation::coord(pos, m))
        .collect();
    out.sort();
    out
}

fn has(pos: &Position, from: &str, m: &str) -> bool {
    moves_from(pos, from).iter().any(|x| x == m)
}

#[test]
fn a_lone_lion_steps_jumps_and_passes() {
    // "The lion ... may move as a king twice per turn ... or jump to any square two away."
    // Alone, its double moves reach only what a step or a jump reaches: 8 + 16 squares, and
    // one pass (out to an empty neighbour and back), one move whichever neighbour it uses.
    let pos = position(&[("f6", "N")], "w", "");
    let moves = moves_from(&pos, "f6");
    assert_eq!(moves.len(), 25, "{moves:?}");
    assert!(moves.contains(&"f6f7f6".to_string()), "{moves:?}");
    // The pass may be written with any empty neighbour.
    let pass = notation::parse_move(&pos, "f6e5f6").unwrap();
    assert_eq!(notation::coord(&pos, &pass), "f6f7f6");
}

#[test]
fn igui_captures_a_neighbour_without_moving() {
    // "Igui: capturing an adjacent piece and stepping back, capturing without moving."
    let pos = position(&[("f6", "N"), ("g7", "s")], "w", "");
    assert!(has(&pos, "f6", "f6g7f6"));
    let mut after = pos.clone();
    after.play(notation::parse_move(&after, "f6g7f6").unwrap());
    let g = after.tables().geometry();
    assert!(after.piece_at(g.parse("g7").unwrap()).is_none());
    assert!(after.piece_at(g.parse("f6").unwrap()).is_some());
    // Algebraic notation names every square.
    let m = notation::parse_move(&pos, "f6g7f6").unwrap();
    assert_eq!(notation::san(&pos, &m), "Nf6xg7-f6");
    after.undo_move();
    assert_eq!((after.fen(), after.hash()), (pos.fen(), pos.hash()));
}

#[test]
fn a_double_move_captures_twice_or_captures_and_steps_on() {
    // "Capturing two pieces; capturing one and moving on to an empty square."
    let pos = position(&[("f6", "N"), ("g7", "s"), ("h8", "g")], "w", "");
    assert!(has(&pos, "f6", "f6g7h8"), "two captures");
    assert!(has(&pos, "f6", "f6g7g8"), "a capture, then a step");
    assert!(
        has(&pos, "f6", "f6g7f7"),
        "a capture, then a step next to the start"
    );
    let mut after = pos.clone();
    after.play(notation::parse_move(&after, "Nf6xg7xh8").unwrap());
    assert_eq!(after.fen(), position(&[("h8", "N")], "b", "").fen());
    after.undo_move();
    assert_eq!(after.fen(), pos.fen());
}

#[test]
fn a_pass_needs_an_empty_neighbour() {
    // "Jitto (a pass) is only allowed if at least one adjacent square is vacant."
    let ring = [
        ("e5", "P"),
        ("f5", "P"),
        ("g5", "P"),
        ("e6", "P"),
        ("g6", "P"),
        ("e7", "P"),
        ("f7", "P"),
        ("g7", "P"),
    ];
    let full = position(&[&[("f6", "N")][..], &ring].concat(), "w", "");
    assert!(!moves_from(&full, "f6")
        .iter()
        .any(|m| m.len() == 6 && m.ends_with("f6")));
    // Enemy neighbours give igui, not a pass.
    let enemies: Vec<(&str, &str)> = ring.iter().map(|&(s, _)| (s, "p")).collect();
    let caught = position(&[&[("f6", "N")][..], &enemies].concat(), "w", "");
    let stays: Vec<String> = moves_from(&caught, "f6")
        .into_iter()
        .filter(|m| m.len() == 6 && m.ends_with("f6"))
        .collect();
    assert_eq!(stays.len(), 8, "one igui per neighbour: {stays:?}");
}

#[test]
fn a_lion_may_not_take_a_protected_lion_from_afar() {
    // "A lion cannot capture a non-adjacent other lion when it could then be recaptured."
    let guarded = position(&[("f6", "N"), ("h8", "n"), ("h9", "g")], "w", "");
    assert!(!has(&guarded, "f6", "f6h8"));
    let unguarded = position(&[("f6", "N"), ("h8", "n")], "w", "");
    assert!(has(&unguarded, "f6", "f6h8"));
    // A slider behind the lion counts once the lion has left its square.
    let xray = position(&[("f6", "N"), ("f8", "n"), ("f2", "r")], "w", "");
    assert!(!has(&xray, "f6", "f6f8"));
    // A promoted kirin is a lion.
    let kirin = position(&[("f6", "N"), ("h8", "+o"), ("h9", "g")], "w", "");
    assert!(!has(&kirin, "f6", "f6h8"));
}

#[test]
fn an_adjacent_lion_may_always_be_taken() {
    // "An adjacent lion may be captured whether protected or not."
    let pos = position(&[("f6", "N"), ("g7", "n"), ("g8", "g")], "w", "");
    assert!(has(&pos, "f6", "f6g7"));
}

#[test]
fn a_bridge_of_substance_lets_a_lion_take_a_protected_lion() {
    // "... unless it captures something substantial (other than a pawn or go-between)
    // together with the lion in a double capture."
    let silver = position(
        &[("f6", "N"), ("g7", "s"), ("h8", "n"), ("h9", "g")],
        "w",
        "",
    );
    assert!(has(&silver, "f6", "f6g7h8"));
    let pawn = position(
        &[("f6", "N"), ("g7", "p"), ("h8", "n"), ("h9", "g")],
        "w",
        "",
    );
    assert!(!has(&pawn, "f6", "f6g7h8"));
    let go_between = position(
        &[("f6", "N"), ("g7", "i"), ("h8", "n"), ("h9", "g")],
        "w",
        "",
    );
    assert!(!has(&go_between, "f6", "f6g7h8"));
    // A promoted pawn (a tokin) is of substance.
    let tokin = position(
        &[("f6", "N"), ("g7", "+p"), ("h8", "n"), ("h9", "g")],
        "w",
        "",
    );
    assert!(has(&tokin, "f6", "f6g7h8"));
}

#[test]
fn after_a_lion_falls_to_another_piece_only_a_lion_may_take_a_lion() {
    // "After a lion is captured by a non-lion, the opponent may not capture a lion on the
    // next move except with a lion."
    let pos = position(
        &[
            ("f5", "R"),
            ("f9", "n"),
            ("g5", "N"),
            ("c9", "b"),
            ("h6", "n"),
        ],
        "w",
        "",
    );
    // Before, the bishop could take the lion on g5.
    let mut quiet = pos.clone();
    quiet.play(notation::parse_move(&quiet, "l1l2").unwrap());
    assert!(has(&quiet, "c9", "c9g5"));
    let mut taken = pos.clone();
    taken.play(notation::parse_move(&taken, "f5f9").unwrap());
    assert!(
        taken.fen().ends_with("counter-strike:f9"),
        "{}",
        taken.fen()
    );
    // Now it may not; the lion on h6 may, and the rook that struck may be taken.
    assert!(!has(&taken, "c9", "c9g5"));
    assert!(has(&taken, "c9", "c9d8"));
    assert!(has(&taken, "h6", "h6g5"));
    // The FEN keeps the ban, and the ban lasts one move.
    let again = taken.with_fen(&taken.fen()).unwrap();
    assert_eq!((again.fen(), again.hash()), (taken.fen(), taken.hash()));
    let mut later = taken.clone();
    later.play(notation::parse_move(&later, "c9d8").unwrap());
    assert!(!later.fen().contains("counter-strike"));
    // A lion that takes a lion starts no ban.
    let mut by_lion = pos.clone();
    by_lion.play(notation::parse_move(&by_lion, "g5h6").unwrap());
    assert!(
        !by_lion.fen().contains("counter-strike"),
        "{}",
        by_lion.fen()
    );
    taken.undo_move();
    assert_eq!((taken.fen(), taken.hash()), (pos.fen(), pos.hash()));
}

#[test]
fn the_horned_falcon_and_soaring_eagle_have_lion_powers_ahead() {
    // "The horned falcon ... has the power of the lion straight forward; the soaring eagle
    // along the two forward diagonals."
    let falcon = position(&[("f6", "+H"), ("f7", "s"), ("f8", "g")], "w", "");
    let moves = moves_from(&falcon, "f6");
    for m in ["f6f7f6", "f6f7f8", "f6f7"] {
        assert!(moves.contains(&m.to_string()), "{m}: {moves:?}");
    }
    // No lion power sideways: a capture beside it and back is no move of its.
    let side = position(&[("f6", "+H"), ("g6", "s")], "w", "");
    assert!(!has(&side, "f6", "f6g6f6"));
    // A pass only through the empty square ahead.
    let open = position(&[("f6", "+H")], "w", "");
    assert!(has(&open, "f6", "f6f7f6"));
    let blocked = position(&[("f6", "+H"), ("f7", "S")], "w", "");
    assert!(!moves_from(&blocked, "f6").iter().any(|m| m.len() == 6));
    let eagle = position(
        &[("f6", "+D"), ("g7", "s"), ("h8", "g"), ("e7", "p")],
        "w",
        "",
    );
    let moves = moves_from(&eagle, "f6");
    for m in ["f6g7f6", "f6g7h8", "f6e7f6", "f6e7d8"] {
        assert!(moves.contains(&m.to_string()), "{m}: {moves:?}");
    }
    // Gote's falcon looks down the board.
    let down = position(&[("f6", "+h"), ("f5", "S"), ("f4", "G")], "b", "");
    assert!(has(&down, "f6", "f6f5f4"));
}

#[test]
fn promotion_on_entering_or_capturing_in_the_zone_never_forced() {
    // "Captures that in any way touch the promotion zone can always promote. But ...
    // non-captures can only promote a piece when they enter the zone."
    let enter = position(&[("e8", "S")], "w", "");
    assert!(has(&enter, "e8", "e8e9+") && has(&enter, "e8", "e8e9"));
    let inside = position(&[("e9", "S")], "w", "");
    assert!(!has(&inside, "e9", "e9e10+"));
    let capture = position(&[("e9", "S"), ("e10", "p")], "w", "");
    assert!(has(&capture, "e9", "e9e10+"));
    let leaving = position(&[("e9", "S"), ("d8", "p")], "w", "");
    assert!(has(&leaving, "e9", "e9d8+"));
    // "Pawns can always promote on the 12th rank", and may stay there unpromoted.
    let pawn = position(&[("e11", "P")], "w", "");
    assert_eq!(moves_from(&pawn, "e11"), ["e11e12", "e11e12+"]);
    let stuck = position(&[("e12", "P")], "w", "");
    assert!(moves_from(&stuck, "e12").is_empty());
}

#[test]
fn losing_the_king_and_prince_loses() {
    // "The game is lost when a player is left without its king and prince." There is no
    // check: a king may be left attacked.
    let pos = position(&[("k2", "r")], "w", "");
    assert!(has(&pos, "l1", "l1l2"));
}
