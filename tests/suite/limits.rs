//! What the engine holds, whatever a definition or a FEN asks: any number of castlings, large
//! hands, several promotion clauses per piece; and one-line refusals beyond its limits.

use crate::common;
use common::{start, start_of};
use rulebook::engine::{perft, MoveKind, Position};
use rulebook::model::Tables;

/// A 26x8 board with 39 castlings per side (78 in all): each is a swap of a Stone and the
/// Tower beside it, on ranks 1-3 for white and 6-8 for black. Stones and towers only capture
/// one step forward, so nothing but the kings and the castlings moves.
fn many_castlings() -> Position {
    let files: Vec<char> = ('a'..='z').collect();
    let mut text = String::from(
        "variant \"Many castlings\"\nboard 26 x 8\nsides white north, black south\n\
         piece King K royal\n  move step any\n\
         piece Stone S\n  move step forward, capture-only\n\
         piece Tower T\n  move step forward, capture-only\n",
    );
    let mut rows = vec![vec!['.'; 26]; 8];
    for rank in 0..3 {
        for pair in 0..13 {
            let (a, b) = (2 * pair, 2 * pair + 1);
            rows[rank][a] = 'S';
            rows[rank][b] = 'T';
            rows[7 - rank][a] = 's';
            rows[7 - rank][b] = 't';
            let (fa, fb, r) = (files[a], files[b], rank + 1);
            text.push_str(&format!(
                "castling Stone {fa}{r} to {fb}{r} with Tower {fb}{r} to {fa}{r}, mirrored\n"
            ));
        }
    }
    rows[3][25] = 'K';
    rows[4][0] = 'k';
    text.push_str("rules\n  checkmate\nsetup\n");
    for row in rows.iter().rev() {
        text.push_str("  ");
        text.extend(row.iter());
        text.push('\n');
    }
    let variant =
        rulebook::load("many.variant", &text).expect("78 castlings are a valid definition");
    Position::new(Tables::compile(&variant, &[]).unwrap())
}

#[test]
fn seventy_eight_castlings_are_played_and_counted() {
    let mut pos = many_castlings();
    let castles = |p: &Position| {
        p.legal_moves()
            .iter()
            .filter(|m| matches!(m.kind, MoveKind::Castle(_)))
            .count()
    };
    assert_eq!(castles(&pos), 39);
    // White: 39 castlings and the king's one safe step (z4-y4; y5, z5 are attacked by the black
    // pieces on rank 6). Black alike: 39 castlings and a5-b5.
    assert_eq!(perft(&mut pos, 1), 40);
    assert_eq!(perft(&mut pos, 2), 40 * 40);
    // After a castling that pair cannot castle again: 38 castlings and the king step remain.
    // After z4-y4 the king has two safe steps (x4, z4) and all 39 castlings remain.
    assert_eq!(perft(&mut pos, 3), 39 * 40 * 39 + 40 * 41);
    // The last castling declared, far past any 64-bit mask, is played and spent.
    let last = pos
        .legal_moves()
        .into_iter()
        .rfind(|m| matches!(m.kind, MoveKind::Castle(_)));
    let last = last.expect("castlings at the start");
    pos.play(last);
    pos.play(pos.legal_moves()[0]);
    assert_eq!(castles(&pos), 38);
    assert!(!pos.legal_moves().contains(&last));
    assert!(pos.fen().contains(" w "), "{}", pos.fen());
}

#[test]
fn a_hand_of_255_pieces_takes_a_capture() {
    let shogi = start("shogi.variant");
    // White's e-pawn can take the black pawn in front of it; the a-file is free for drops.
    let board = "lnsgkgsnl/1r5b1/pppp1pppp/9/4p4/4P4/1PPP1PPPP/1B5R1/LNSGKGSNL";
    // White's third ply only asks whether a pawn is left in hand, so 2 and 255 count alike.
    let count = |pawns: usize| {
        let fen = format!("{board}[{}] w 0 1", "P".repeat(pawns));
        perft(&mut shogi.with_fen(&fen).unwrap(), 3)
    };
    assert_eq!(count(255), count(2));
    // After the capture the hand holds 256 pawns.
    let mut pos = shogi
        .with_fen(&format!("{board}[{}] w 0 1", "P".repeat(255)))
        .unwrap();
    let take = rulebook::engine::notation::parse_move(&pos, "e4e5").unwrap();
    pos.play(take);
    assert_eq!(pos.in_hand(rulebook::model::Side::FIRST, take.piece), 256);
}

#[test]
fn hands_beyond_the_engine_limit_are_refused_in_one_line() {
    let shogi = start("shogi.variant");
    let fen = format!(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[{}] w 0 1",
        "p".repeat(1001)
    );
    let e = shogi.with_fen(&fen).unwrap_err().to_string();
    assert_eq!(
        e,
        "invalid fen: the hands hold more than 1000 pieces in all"
    );
}

#[test]
fn promotion_clauses_combine() {
    let pos = start_of("tests/fixtures/valid/pieces/promotion_clauses.variant");
    let coords = |p: &Position| -> Vec<String> {
        p.legal_moves()
            .iter()
            .map(|m| rulebook::engine::notation::coord(p, m))
            .collect()
    };
    // White on rank 4: both `top` clauses apply; Queen once, Knight from the second, and the
    // second is forced, so no unpromoted move.
    let white = coords(&pos);
    assert!(white.contains(&"a3a4q".to_string()), "{white:?}");
    assert!(white.contains(&"a3a4n".to_string()), "{white:?}");
    assert_eq!(white.iter().filter(|m| m.starts_with("a3a4")).count(), 2);
    // Black into rank 2: only the `bottom` clause applies, optional there.
    let black = coords(&pos.with_fen("3k/P1p1/4/K3 b - - 0 1").unwrap());
    assert!(black.contains(&"c3c2n".to_string()), "{black:?}");
    assert!(black.contains(&"c3c2".to_string()), "{black:?}");
    assert_eq!(black.iter().filter(|m| m.starts_with("c3c2")).count(), 2);
}

#[test]
fn a_setup_hand_is_limited() {
    let text = |n: usize| {
        format!(
            "variant \"Hand\"\nboard 3 x 3\nsides white north, black south\n\
             piece King K royal\n  move step any\npiece Pawn P\n  move step forward\n\
             rules\n  checkmate\n  drops\nsetup \"k2/3/2K[{}]\"\n",
            "P".repeat(n)
        )
    };
    let ok = rulebook::load("hand.variant", &text(rulebook::engine::MAX_IN_HANDS)).unwrap();
    let pos = Position::new(Tables::compile(&ok, &[]).unwrap());
    assert_eq!(
        pos.in_hand(
            rulebook::model::Side::FIRST,
            rulebook::model::PieceKind::from_index(1).unwrap()
        ) as usize,
        rulebook::engine::MAX_IN_HANDS
    );
    let err =
        rulebook::load("hand.variant", &text(rulebook::engine::MAX_IN_HANDS + 1)).unwrap_err();
    assert!(format!("{err:?}").contains("SetupHandTooLarge"), "{err:?}");
}
