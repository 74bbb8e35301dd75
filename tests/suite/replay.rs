//! Game records from the seeds replay move by move; broken records stop at the right ply.

use crate::common;
use common::start;
use rulebook::engine::record::{replay, ReplayError};
use rulebook::engine::{Outcome, Reason};
use rulebook::model::Side;

fn record(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/records/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

const DELEGATING_SAMPLE: &str = "Qc1k3/p6/2n2b1/7/5q1/6N/7/7/6p/1P5/7/R1CK2Q w";

#[test]
fn middle_xiangqi_record_replays_to_checkmate() {
    let r = replay(
        &start("middle-xiangqi.variant"),
        &record("middle-xiangqi.txt"),
    )
    .unwrap();
    assert_eq!(r.plies.len(), 137);
    assert_eq!(r.plies.last().unwrap().text, "Hi7");
    assert_eq!(r.plies.last().unwrap().san, "Hi7#");
    assert_eq!(
        r.outcome,
        Some(Outcome::win(Side::FIRST, 2, Reason::Checkmate))
    );
    // The two `=Q` plies are the compulsory promotions of pawns entering the enemy camp.
    let promotions: Vec<usize> = r
        .plies
        .iter()
        .enumerate()
        .filter(|(_, p)| p.mv.promotion.is_some())
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(promotions, vec![30, 96]);
}

#[test]
fn delegating_chess_sample_replays_with_its_check_marks() {
    let pos = start("delegating-chess.variant")
        .with_fen(DELEGATING_SAMPLE)
        .unwrap();
    let r = replay(&pos, &record("delegating-chess.txt")).unwrap();
    let sans: Vec<&str> = r.plies.iter().map(|p| p.san.as_str()).collect();
    assert_eq!(
        sans,
        ["d4+", "Nd8", "Kd2", "Qxg7", "dxg4", "Qe9+", "d4", "Cxa12", "Cc2"]
    );
    // Every check the record marks is a check, and no other ply gives one.
    for p in &r.plies {
        assert_eq!(p.text.ends_with('+'), p.san.ends_with('+'), "{}", p.text);
    }
    assert_eq!(r.outcome, None);
}

#[test]
fn the_misprinted_delegating_sample_stops_at_ply_one() {
    let pos = start("delegating-chess.variant")
        .with_fen(DELEGATING_SAMPLE)
        .unwrap();
    let err = replay(&pos, &record("delegating-chess-misprint.txt")).unwrap_err();
    assert_eq!(
        err,
        ReplayError {
            ply: 1,
            text: "b3-e5+".into(),
            reason: "the pawn on b3 cannot go to e5".into()
        }
    );
}

#[test]
fn the_second_delegating_typo_leaves_the_king_in_check() {
    let pos = start("delegating-chess.variant")
        .with_fen(DELEGATING_SAMPLE)
        .unwrap();
    let err = replay(
        &pos,
        "1. b3-d4+ Nc10-d8 2. Kd2 Q:g7 3. d4:g4 Qe9+ 4. g4-e4 C:a12",
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "ply 7 `g4-e4`: leaves the king on d2 in check"
    );
}

#[test]
fn replay_explains_what_is_wrong() {
    let chess = start("chess.variant");
    let cases = [
        ("1. e4 f5 2. Qh5+ f4", 4, "leaves the king on e8 in check"),
        (
            "1. e4 e5 2. Nf3+",
            3,
            "is marked as check, but it does not give check",
        ),
        (
            "1. f3 e5 2. g4 Qh4+ 3. a3",
            5,
            "the game is already over (checkmate, black wins)",
        ),
        (
            "1. Nf3 Nf6 2. Nc3 Nc6 3. Nd4 Nd5 4. Nb5",
            7,
            "`Nb5` is ambiguous: it could be c3b5, d4b5",
        ),
        (
            "1. e4 e5 2. Zz9",
            3,
            "is not a move in any notation this tool reads",
        ),
        (
            "1. e4 e5 2. Bb6",
            3,
            "no bishop of white's can go to b6 (they stand on c1, f1)",
        ),
        (
            "1. e4 e5 2. Ng5",
            3,
            "no knight of white's can go to g5 (they stand on b1, g1)",
        ),
        ("1. e4 e5 2. Ke3", 3, "the king on e1 cannot go to e3"),
        (
            "1. e4 e5 2. Qe2 Qe7 3. Qe4",
            5,
            "e4 holds a piece of white's own",
        ),
        ("1. e4 e5 2. P@e3", 3, "this game has no drops"),
    ];
    for (text, ply, reason) in cases {
        let e = replay(&chess, text).unwrap_err();
        assert_eq!((e.ply, e.reason.as_str()), (ply, reason), "{text}");
    }
    let e = replay(&chess, "1. e4 e5 2. Ke2 Ke7 3. e2-e4").unwrap_err();
    assert_eq!(
        e.to_string(),
        "ply 5 `e2-e4`: the king on e2 cannot go to e4"
    );
    let e = replay(&chess, "1. e4 e5 2. e3-e4").unwrap_err();
    assert_eq!(e.to_string(), "ply 3 `e3-e4`: no piece stands on e3");
    let e = replay(&chess, "1. e4 e5 2. e5-e4").unwrap_err();
    assert_eq!(
        e.to_string(),
        "ply 3 `e5-e4`: the piece on e5 belongs to black"
    );
    let mate = replay(&chess, "1. f3 e5 2. g4 Qh4#").unwrap();
    assert_eq!(
        mate.outcome,
        Some(Outcome::win(Side::SECOND, 2, Reason::Checkmate))
    );
}
