//! Hand-checked positions for the movement constructs of the shipped games: every target
//! list below was worked out by hand from the rules, square by square.

use crate::common;
use common::{sorted, start, start_of, targets};
use rulebook::engine::{notation, Position};

#[test]
fn middle_xiangqi_elephant_is_blocked_on_each_path_square() {
    let p = start("middle-xiangqi.variant");
    // Generals on different files so the elephant is free to leave the g-file.
    let open = p
        .with_fen("7g5/13/13/13/13/6E6/13/13/13/5G7 w 0 1")
        .unwrap();
    assert_eq!(
        targets(&open, "g5"),
        sorted(&["i8", "e8", "i2", "e2", "j7", "j3", "d7", "d3"])
    );
    // The first (orthogonal) point blocks both paths through it.
    let first = p
        .with_fen("7g5/13/13/13/6p6/6E6/13/13/13/5G7 w 0 1")
        .unwrap();
    assert_eq!(
        targets(&first, "g5"),
        sorted(&["i2", "e2", "j7", "j3", "d7", "d3"])
    );
    // The second (diagonal) point blocks only its own path.
    let second = p
        .with_fen("7g5/13/13/7p5/13/6E6/13/13/13/5G7 w 0 1")
        .unwrap();
    assert_eq!(
        targets(&second, "g5"),
        sorted(&["e8", "i2", "e2", "j7", "j3", "d7", "d3"])
    );
    // The destination may hold an enemy: it is captured.
    let capture = p
        .with_fen("7g5/13/8p4/13/13/6E6/13/13/13/5G7 w 0 1")
        .unwrap();
    assert!(targets(&capture, "g5").contains(&"i8".to_string()));
}

#[test]
fn middle_xiangqi_rhino_is_blocked_on_each_path_square() {
    let p = start("middle-xiangqi.variant");
    let open = p
        .with_fen("7g5/13/13/13/13/6I6/13/13/13/5G7 w 0 1")
        .unwrap();
    assert_eq!(
        targets(&open, "g5"),
        sorted(&["h8", "f8", "h2", "f2", "j6", "j4", "d6", "d4"])
    );
    for blocker in ["6p6/13", "13/6p6"] {
        // A piece on g6 or g7 blocks both northern targets.
        let fen = format!("7g5/13/13/{blocker}/6I6/13/13/13/5G7 w 0 1");
        let blocked = p.with_fen(&fen).unwrap();
        assert_eq!(
            targets(&blocked, "g5"),
            sorted(&["h2", "f2", "j6", "j4", "d6", "d4"]),
            "{fen}"
        );
    }
}

#[test]
fn middle_xiangqi_horse_and_ox() {
    let p = start("middle-xiangqi.variant");
    let horse = p
        .with_fen("7g5/13/13/13/6p6/6H6/13/13/13/5G7 w 0 1")
        .unwrap();
    assert_eq!(
        targets(&horse, "g5"),
        sorted(&["f3", "h3", "i6", "i4", "e6", "e4"])
    );
    // The ox never enters the enemy camp: from g4 only the backward jumps remain.
    let ox = p
        .with_fen("7g5/13/13/13/13/13/6O6/13/13/5G7 w 0 1")
        .unwrap();
    assert_eq!(targets(&ox, "g4"), sorted(&["e2", "i2"]));
    let ox3 = p
        .with_fen("7g5/13/13/13/13/13/13/6O6/13/5G7 w 0 1")
        .unwrap();
    assert_eq!(targets(&ox3, "g3"), sorted(&["e5", "i5", "e1", "i1"]));
    let blocked = p
        .with_fen("7g5/13/13/13/13/13/7p5/6O6/13/5G7 w 0 1")
        .unwrap();
    assert_eq!(targets(&blocked, "g3"), sorted(&["e5", "e1", "i1"]));
    // A black ox at the river: its enemy camp is ranks 1-5.
    let black = p
        .with_fen("7g5/13/13/13/6o6/13/13/13/13/5G7 b 0 1")
        .unwrap();
    assert_eq!(targets(&black, "g6"), sorted(&["e8", "i8"]));
}

#[test]
fn middle_xiangqi_pawn_crosses_and_promotes() {
    let p = start("middle-xiangqi.variant");
    let pos = p
        .with_fen("7g5/13/13/13/13/4P8/13/13/13/5G7 w 0 1")
        .unwrap();
    let moves = pos.legal_moves();
    let from = pos.tables().geometry().parse("e5").unwrap();
    let m: Vec<String> = moves
        .iter()
        .filter(|m| m.from == from)
        .map(|m| notation::san(&pos, m))
        .collect();
    assert_eq!(m, vec!["e6=Q"]);
    let crossed = p
        .with_fen("7g5/13/13/13/4Q8/13/13/13/13/5G7 w 0 1")
        .unwrap();
    assert_eq!(targets(&crossed, "e6"), sorted(&["d6", "f6", "e7"]));
}

#[test]
fn delegating_chess_borrowed_knight_jump() {
    let p = start("delegating-chess.variant");
    // The knight on a2 reaches c3, so the rook there also jumps like a knight.
    let pos = p.with_fen("6k/7/7/7/7/7/7/7/7/2R4/N6/6K w 0 1").unwrap();
    let rook = targets(&pos, "c3");
    for sq in ["a4", "b5", "d5", "e4", "e2", "d1", "b1"] {
        assert!(
            rook.contains(&sq.to_string()),
            "rook lacks borrowed {sq}: {rook:?}"
        );
    }
    for sq in ["c12", "c1", "a3", "g3"] {
        assert!(rook.contains(&sq.to_string()), "rook lacks its own {sq}");
    }
    assert_eq!(rook.len(), 11 + 6 + 7, "{rook:?}");
    // Without the lender, only the rook's own moves remain.
    let alone = p.with_fen("6k/7/7/7/7/7/7/7/7/2R4/7/6K w 0 1").unwrap();
    assert_eq!(targets(&alone, "c3").len(), 11 + 6);
}

#[test]
fn delegating_chess_pawn_lends_capture_and_step_separately() {
    let p = start("delegating-chess.variant");
    // Pawn d3: the knight on e4 (a square the pawn attacks) borrows the diagonal capture,
    // the bishop on d4 (in front of the pawn) borrows the forward step.
    let pos = p
        .with_fen("6k/7/7/7/7/7/7/5p1/3BN2/3P3/7/K6 w 0 1")
        .unwrap();
    let knight = targets(&pos, "e4");
    assert!(
        knight.contains(&"f5".to_string()),
        "borrowed pawn capture: {knight:?}"
    );
    assert!(
        !knight.contains(&"e5".to_string()),
        "the step is not lent to e4: {knight:?}"
    );
    let bishop = targets(&pos, "d4");
    assert!(
        bishop.contains(&"d5".to_string()),
        "borrowed pawn step: {bishop:?}"
    );
    // The lent step cannot capture.
    let blocked = p
        .with_fen("6k/7/7/7/7/7/7/3p3/3BN2/3P3/7/K6 w 0 1")
        .unwrap();
    assert!(!targets(&blocked, "d4").contains(&"d5".to_string()));
    assert!(targets(&blocked, "e4").contains(&"d5".to_string()));
}

#[test]
fn delegating_chess_discovered_delegated_check() {
    let p = start("delegating-chess.variant");
    // The knight on b3 stands between the rook a3 and the bishop c3. When it leaves, the rook
    // lends its file move to the bishop, which then checks the king on c12.
    let pos = p.with_fen("2k4/7/7/7/7/7/7/7/7/RNB4/7/6K w 0 1").unwrap();
    let m = notation::parse_move(&pos, "b3a5").unwrap();
    assert_eq!(notation::san(&pos, &m), "Na5+");
    let mut after = pos.clone();
    after.play(m);
    assert!(after.in_check());
    // The king may not stay on the c-file.
    let king = targets(&after, "c12");
    assert!(!king.iter().any(|s| s.starts_with('c')), "{king:?}");
    // The king lends but never borrows: next to the rook's lines it still only steps.
    let k = p.with_fen("6k/7/7/7/7/7/7/7/7/7/R6/K6 w 0 1").unwrap();
    assert_eq!(targets(&k, "a1"), sorted(&["b1", "b2"]));
}

/// `unmoved:` and `moved:` guards read the piece's own history, not its square.
#[test]
fn first_move_patterns_follow_the_piece() {
    let start = common::start_of("tests/fixtures/valid/pieces/first_move.variant");
    let play = |pos: &Position, moves: &[&str]| {
        let mut p = pos.clone();
        for text in moves {
            let m = notation::parse_coord(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            p.play(m);
        }
        p
    };
    // Pawns on their start squares may step twice (black's e-pawn does); one that has moved
    // steps once (d3-d4, and takes on e4; d5 is not reached).
    assert!(targets(&start, "d2").contains(&"d4".to_string()));
    // Black's double step e5-e3 passes e4, which d3 may take en passant.
    let p = play(&start, &["d2d3", "e5e3"]);
    assert_eq!(targets(&p, "d3"), sorted(&["d4", "e4"]));
    let p = play(&start, &["d2d3", "e5e4"]);
    assert_eq!(targets(&p, "d3"), sorted(&["d4", "e4"]));
    // The unmoved scout steps one square diagonally, though the diagonal is open further.
    assert_eq!(targets(&p, "c1"), sorted(&["d2"]));
    // Once it has moved it slides, even back on its start square.
    let moved = play(&p, &["c1d2", "f6e6", "d2c1", "e6f6"]);
    assert_eq!(targets(&moved, "c1"), sorted(&["d2", "e3", "f4"]));
    // Same placement, different history: a different position for repetition.
    let placement = |pos: &Position| pos.fen().split(' ').take(4).collect::<Vec<_>>().join(" ");
    assert_eq!(placement(&moved), placement(&p));
    assert_ne!(moved.hash(), p.hash());
    // The FEN's `moved:` field says it: the scout back on c1 reads as moved.
    assert!(moved.fen().ends_with(" moved:c1"), "{}", moved.fen());
    let read = start.with_fen(&moved.fen()).unwrap();
    assert_eq!(targets(&read, "c1"), sorted(&["d2", "e3", "f4"]));
    assert_eq!(read.hash(), moved.hash());
    // Without the field a scout on a scout's start square reads as unmoved.
    let plain = moved.fen().replace(" moved:c1", "");
    let read = start.with_fen(&plain).unwrap();
    assert_eq!(targets(&read, "c1"), sorted(&["d2"]));
    assert_eq!(read.hash(), p.hash());
}

#[test]
fn a_hop_just_beyond_lands_right_after_its_screen() {
    let p = start_of("definitions/library/grasshopper.variant");
    // The grasshopper on d4: over c3 to b2, over e5 to f6, over f4 (two squares on) to g4,
    // over d6 onto d7's enemy pawn; the other four lines have no screen.
    let pos = p
        .with_fen("4k3/3p4/3p4/4P3/3G1P2/2P5/8/4K3 w - - 0 1")
        .unwrap();
    assert_eq!(targets(&pos, "d4"), sorted(&["b2", "d7", "f6", "g4"]));
    // A screen with a friendly piece right after it leaves no landing.
    let blocked = p.with_fen("4k3/8/8/8/3GPP2/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(targets(&blocked, "d4"), Vec::<String>::new());
    // It attacks the square right after its screen only: the king on g7 is in check over
    // f6, the one on h8 would not be.
    let check = p.with_fen("8/6k1/5P2/8/3G4/8/8/4K3 b - - 0 1").unwrap();
    assert!(check.in_check());
    let no_check = p.with_fen("7k/8/5P2/8/3G4/8/8/4K3 b - - 0 1").unwrap();
    assert!(!no_check.in_check());
}

/// A 4x4 board whose b2 and c3 are holes, with a rook, a knight and kings; pieces drop.
fn holed() -> Position {
    let text = r#"
variant "Holes"
board 4 x 4
sides white north, black south
holes b2 c3
piece King K royal
  move step any
piece Rook R
  move slide orthogonal
piece Knight N
  move leap (1,2)
rules
  checkmate
  drops
setup
  ...k
  .R*.
  .*..
  N..K
"#;
    let variant = rulebook::load("holes.variant", text).unwrap();
    Position::new(rulebook::model::Tables::compile(&variant, &[]).unwrap())
}

#[test]
fn holes_stop_slides_and_landings_but_not_leaps() {
    let pos = holed();
    // The rook on b3 goes up and left; the holes c3 and b2 stop it right and down.
    assert_eq!(targets(&pos, "b3"), sorted(&["a3", "b4"]));
    // The knight on a1 leaps past the hole b2 to c2 (b3 holds its own rook).
    assert_eq!(targets(&pos, "a1"), sorted(&["c2"]));
    // With a knight in hand, no drop lands on a hole, nor on a4, where both of a knight's
    // leaps would land on holes (a piece is not dropped where it could never move).
    let with_hand = pos.with_fen("3k/1R*1/1*2/N2K[N] w - - 0 1").unwrap();
    let drops: Vec<String> = with_hand
        .legal_moves()
        .iter()
        .filter(|m| m.is_drop())
        .map(|m| notation::coord(&with_hand, m))
        .collect();
    assert_eq!(drops.len(), 16 - 2 - 4 - 1);
    assert!(drops.contains(&"N@c2".to_string()), "{drops:?}");
    assert!(drops
        .iter()
        .all(|d| d != "N@b2" && d != "N@c3" && d != "N@a4"));
}

#[test]
fn holes_in_fen() {
    let pos = holed();
    assert!(
        pos.fen().starts_with("3k/1R*1/1*2/N2K[] w"),
        "{}",
        pos.fen()
    );
    // Read back as written; a count of empty squares may run over a hole too.
    let back = pos.with_fen(&pos.fen()).unwrap();
    assert_eq!(back.fen(), pos.fen());
    assert_eq!(
        pos.with_fen("3k/1R2/4/N2K w - - 0 1").unwrap().fen(),
        pos.fen()
    );
    // A piece on a hole, or `*` on a square, is refused with one line.
    let on_hole = pos.with_fen("3k/1RN1/4/N2K w - - 0 1").unwrap_err();
    assert_eq!(
        on_hole.to_string(),
        "invalid fen: a piece on c3, a hole of this board"
    );
    let star = pos.with_fen("3k/1R*1/4/*2K w - - 0 1").unwrap_err();
    assert_eq!(
        star.to_string(),
        "invalid fen: `*` on a1, which is not a hole of this board"
    );
}

fn compiled(text: &str) -> Position {
    let variant = rulebook::load("test.variant", text).unwrap();
    Position::new(rulebook::model::Tables::compile(&variant, &[]).unwrap())
}

/// `pos` set to `fen` with `mv` played (coordinate or algebraic notation).
fn played(pos: &Position, fen: &str, mv: &str) -> Position {
    let mut p = pos.with_fen(fen).unwrap();
    p.play(notation::parse_move(&p, mv).unwrap());
    p
}

/// The moves of the piece on `from`, in coordinate notation, sorted.
fn coords_from(pos: &Position, from: &str) -> Vec<String> {
    let sq = pos.tables().geometry().parse(from).unwrap();
    let mut out: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.from == sq && !m.is_drop())
        .map(|m| notation::coord(pos, m))
        .collect();
    out.sort();
    out
}

#[test]
fn promotion_only_to_captured_pieces() {
    let pos = compiled(
        r#"
variant "Limits"
board 5 x 5
sides white north, black south
zone far = ranks 4-5, mirrored
piece King K royal
  move step any
piece Rook R
  move slide orthogonal
piece Knight N
  move leap (1,2)
piece Pawn P
  move step forward, move-only
  promote to Rook Knight in far, only to captured
rules
  checkmate
setup
  k....
  .....
  .....
  P....
  RN..K
"#,
    );
    // Nothing lost: the pawn enters the fourth rank unpromoted and may not enter the last,
    // where it would have no move.
    assert_eq!(coords_from(&pos, "a2"), sorted(&["a2a3"]));
    let fourth = pos.with_fen("k4/5/P4/5/RN2K w - - 0 1").unwrap();
    assert_eq!(coords_from(&fourth, "a3"), sorted(&["a3a4"]));
    let fifth = pos.with_fen("4k/P4/5/5/RN2K w - - 0 1").unwrap();
    assert_eq!(coords_from(&fifth, "a4"), Vec::<String>::new());
    // The knight lost: only it is offered, optional on the fourth rank, forced on the last.
    let no_knight = pos.with_fen("k4/5/P4/5/R3K w - - 0 1").unwrap();
    assert_eq!(coords_from(&no_knight, "a3"), sorted(&["a3a4", "a3a4n"]));
    let last = pos.with_fen("4k/P4/5/5/R3K w - - 0 1").unwrap();
    assert_eq!(coords_from(&last, "a4"), sorted(&["a4a5n"]));
    // Both lost, both are offered; a rook made by an earlier promotion counts like the first.
    let both = pos.with_fen("4k/P4/5/5/4K w - - 0 1").unwrap();
    assert_eq!(coords_from(&both, "a4"), sorted(&["a4a5n", "a4a5r"]));
    let promoted = pos.with_fen("4k/P4/5/5/R3K w - - 0 1").unwrap();
    assert_eq!(coords_from(&promoted, "a4"), sorted(&["a4a5n"]));
}

#[test]
fn promotion_at_most_n_of_each_choice_counting_look_alikes() {
    let pos = compiled(
        r#"
variant "At most"
board 5 x 5
sides white north, black south
zone far = rank 5, mirrored
piece King K royal
  move step any
piece Queen Q
  move slide any
piece PromotedQueen Q~
  move slide any
  demote to Pawn
piece Knight N
  move leap (1,2)
piece Pawn P
  move step forward, move-only
  promote to PromotedQueen in far, at most 1
  promote to Knight in far, at most 2
rules
  checkmate
setup
  k....
  .....
  .....
  P....
  ....K
"#,
    );
    let cases: [(&str, &[&str]); 4] = [
        // Neither choice is at its limit: both are offered.
        ("2k2/P4/5/5/4K w - - 0 1", &["a4a5n", "a4a5q"]),
        // A queen on the board counts against the look-alike `Q~`: only the knight is left,
        ("2k2/P4/5/5/Q3K w - - 0 1", &["a4a5n"]),
        // and two knights close that too, so the pawn may not enter the last rank at all.
        ("2k2/P4/5/5/QNN1K w - - 0 1", &[]),
        // The other side's pieces do not count.
        ("2k2/P4/5/5/qnn1K w - - 0 1", &["a4a5n", "a4a5q"]),
    ];
    for (fen, expected) in cases {
        let at = pos.with_fen(fen).unwrap();
        assert_eq!(coords_from(&at, "a4"), sorted(expected), "{fen}");
    }
}

#[test]
fn en_passant_without_promotion_stays_a_pawn_in_the_zone() {
    let text = |modifier: &str| {
        format!(
            r#"
variant "Short"
board 5 x 5
sides white north, black south
zone far = ranks 3-5, mirrored
zone second = rank 2, mirrored
piece King K royal
  move step any
piece Knight N
  move leap (1,2)
piece Pawn P
  move step forward, move-only
  move in second: step forward then step forward, move-only, creates en-passant
  move step forward-diagonal, capture-only, takes en-passant{modifier}
  promote to Knight in far
rules
  checkmate
setup
  k....
  .....
  .....
  .....
  ....K
"#
        )
    };
    // Black's double step passes b3, inside White's zone: the pawn on a2 takes there.
    let fen = "k4/1p3/5/P4/4K b - - 0 1";
    for (modifier, expected) in [
        ("", vec!["a2b3", "a2b3n"]),
        (" without promotion", vec!["a2b3"]),
    ] {
        let mut pos = compiled(&text(modifier)).with_fen(fen).unwrap();
        pos.play(notation::parse_move(&pos, "b4b2").unwrap());
        let ep: Vec<String> = coords_from(&pos, "a2")
            .into_iter()
            .filter(|m| m.starts_with("a2b"))
            .collect();
        assert_eq!(ep, sorted(&expected), "modifier {modifier:?}");
    }
}

#[test]
fn a_side_named_in_moves_first_opens_the_game() {
    let pos = compiled(
        r#"
variant "Black first"
board 4 x 4
sides white north, black south
piece King K royal
  move step any
rules
  black moves first
  checkmate
setup "3k/4/4/K3"
"#,
    );
    assert!(pos.fen().contains(" b "), "{}", pos.fen());
    assert_eq!(all_coords(&pos), sorted(&["d4c3", "d4c4", "d4d3"]));
    let mut after = pos.clone();
    after.play(notation::parse_move(&after, "d4c4").unwrap());
    assert!(after.fen().ends_with(" w - - 1 2"), "{}", after.fen());
}

#[test]
fn promotion_when_capturing_and_drops_of_either_face() {
    let pos = compiled(
        r#"
variant "Faces"
board 4 x 4
sides white north, black south
zone everywhere = all
piece King K royal
  move step any
piece Rook R
  move slide orthogonal
  promote to +R in everywhere, forced, when capturing
  drop also as +R
piece Gold +R
  move step orthogonal forward-diagonal
  promote to Rook in everywhere, forced, when capturing
  demote to Rook
piece Pawn P
  move step forward
rules
  checkmate
  drops
setup
  ...k
  ....
  .p..
  R..K
"#,
    );
    // Quiet moves keep the face; the capture on b2 must turn the rook over.
    assert_eq!(
        coords_from(&pos, "a1"),
        sorted(&["a1a2", "a1a3", "a1a4", "a1b1", "a1c1"])
    );
    let rook_takes = pos.with_fen("3k/4/1p2/1R1K w - - 0 1").unwrap();
    assert_eq!(
        coords_from(&rook_takes, "b1"),
        sorted(&["b1a1", "b1b2+", "b1c1"])
    );
    // The gold turns back when it captures; a quiet step leaves it gold.
    let gold = pos.with_fen("3k/4/1p2/1+R1K w - - 0 1").unwrap();
    assert_eq!(
        coords_from(&gold, "b1"),
        sorted(&["b1a1", "b1a2", "b1b2-", "b1c1", "b1c2"])
    );
    // A rook in hand enters as either face: each empty square twice, written `R@` and `+R@`.
    let hand = pos.with_fen("3k/4/4/3K[R] w - - 0 1").unwrap();
    let drops: Vec<String> = hand
        .legal_moves()
        .iter()
        .filter(|m| m.is_drop() && m.to == hand.tables().geometry().parse("a1").unwrap())
        .map(|m| notation::coord(&hand, m))
        .collect();
    assert_eq!(drops, ["R@a1", "+R@a1"]);
    let m = notation::parse_coord(&hand, "+R@a1").unwrap();
    let mut after = hand.clone();
    after.play(m);
    assert!(
        after.fen().starts_with("3k/4/4/+R2K[] b"),
        "{}",
        after.fen()
    );
}

#[test]
fn castling_from_any_start() {
    let pos = compiled(
        r#"
variant "Anywhere"
board 8 x 3
sides white north, black south
piece King K royal
  move step any
piece Rook R
  move slide orthogonal
castling King to g1 with Rook to f1
castling King to c1 with Rook to d1
rules
  checkmate
setup
  ....k...
  ........
  .R....KR
"#,
    );
    // The king on g1 castles with the rook on h1 without moving (written king to rook), and
    // with the rook on b1 to c1 (b1's rook goes to d1).
    let castles = |p: &Position| -> Vec<String> {
        let mut v: Vec<String> = p
            .legal_moves()
            .iter()
            .filter(|m| matches!(m.kind, rulebook::engine::MoveKind::Castle(_)))
            .map(|m| notation::coord(p, m))
            .collect();
        v.sort();
        v
    };
    assert_eq!(castles(&pos), sorted(&["g1c1", "g1h1"]));
    let mut after = pos.clone();
    after.play(notation::parse_coord(&pos, "g1h1").unwrap());
    assert!(after.fen().starts_with("4k3/8/1R3RK1 b"), "{}", after.fen());
    // X-FEN's `Q` is the outermost rook in place on the queen's wing (b1, the a-file is
    // empty); a file letter names the rook; a rook aimed through the king's path stops it.
    let q = pos.with_fen("4k3/8/1R4KR w Q - 0 1").unwrap();
    assert_eq!(castles(&q), sorted(&["g1c1"]));
    assert_eq!(
        q.fen(),
        pos.with_fen("4k3/8/1R4KR w B - 0 1").unwrap().fen()
    );
    // Chess960's king-to-rook form reads as the same castling.
    assert_eq!(
        notation::parse_coord(&q, "g1b1").unwrap(),
        notation::parse_coord(&q, "g1c1").unwrap()
    );
    let through = pos.with_fen("3rk3/8/1R4KR w BH - 0 1").unwrap();
    assert_eq!(castles(&through), sorted(&["g1h1"]));
}

#[test]
fn all_royals_attacked_is_the_only_check() {
    let pos = compiled(
        r#"
variant "Two kings"
board 5 x 5
sides white north, black south
piece King K royal
  move step any
piece Rook R
  move slide orthogonal
rules
  checkmate, all royals attacked
setup
  k....
  .....
  ..k..
  .....
  R...K
"#,
    )
    .with_fen("k4/5/2k2/5/R3K b - - 0 1")
    .unwrap();
    // One king attacked is no check: it may stay attacked or step to another attacked
    // square (a4), while the other king may not join it under attack (d2, next to White's).
    assert!(!pos.in_check());
    assert_eq!(coords_from(&pos, "a5"), sorted(&["a5a4", "a5b4", "a5b5"]));
    assert_eq!(
        coords_from(&pos, "c3"),
        sorted(&["c3b2", "c3b3", "c3b4", "c3c2", "c3c4", "c3d3", "c3d4"])
    );
    // Both attacked is check: every move must leave one of them safe.
    let both = pos.with_fen("k4/5/2k1R/5/R3K b - - 0 1").unwrap();
    assert!(both.in_check());
    assert_eq!(coords_from(&both, "a5"), sorted(&["a5b4", "a5b5"]));
    assert_eq!(
        coords_from(&both, "c3"),
        sorted(&["c3b2", "c3b4", "c3c2", "c3c4", "c3d4"])
    );
    // A lone king is an ordinary royal.
    let alone = pos.with_fen("k4/5/5/5/R3K b - - 0 1").unwrap();
    assert!(alone.in_check());
    assert_eq!(coords_from(&alone, "a5"), sorted(&["a5b4", "a5b5"]));
}

#[test]
fn a_compulsory_drop_comes_first_while_it_can_be_played() {
    let pos = compiled(
        r#"
variant "Compulsory"
board 3 x 3
sides white north, black south
zone home = rank 1, mirrored
piece King K
  move step any
  drop in home
  drop compulsory
piece Rook R
  move slide orthogonal
rules
  drops without captures
  stalemate loses
setup "r2/3/RR1[KRk]"
"#,
    );
    let all = |p: &Position| {
        let mut v: Vec<String> = p
            .legal_moves()
            .iter()
            .map(|m| notation::coord(p, m))
            .collect();
        v.sort();
        v
    };
    // A king in hand that can be dropped must be: no rook drop, no move.
    assert_eq!(all(&pos), sorted(&["K@c1"]));
    // Where it cannot be dropped the board moves are played, but still no other drop.
    let full = pos.with_fen("r2/3/RRR[KRk] w - - 0 1").unwrap();
    assert_eq!(
        all(&full),
        sorted(&["a1a2", "a1a3", "b1b2", "b1b3", "c1c2", "c1c3"])
    );
    let black = pos.with_fen("r2/3/RRR[KRk] b - - 0 1").unwrap();
    assert_eq!(all(&black), sorted(&["K@b3", "K@c3"]));
    // With the king on the board, other drops come back.
    let placed = pos.with_fen("r2/3/RRK[Rk] w - - 0 1").unwrap();
    assert!(all(&placed).contains(&"R@b2".to_string()));
}

#[test]
fn first_moves_noted_in_the_fen_and_lost_to_an_aim() {
    let start = compiled(
        r#"
variant "First moves"
board 5 x 5
sides white north, black south
piece King K royal
  move step any
  move unmoved: leap [2,1] [-2,1], move-only
  unmoved noted in fen
  unmoved lost when aimed by Rook
piece Rook R
  move slide orthogonal
piece Pawn P
  move step forward, move-only
rules
  checkmate
setup
  r...k
  .....
  ..P..
  .....
  ..K..
"#,
    );
    // The castling field lists the files of the unmoved kings.
    assert!(start.fen().contains(" w Ce "), "{}", start.fen());
    let leaps = |p: &Position| {
        coords_from(p, "c1")
            .into_iter()
            .filter(|m| m == "c1a2" || m == "c1e2")
            .collect::<Vec<_>>()
    };
    let black = start.with_fen("r3k/5/2P2/5/2K2 b Ce - 0 1").unwrap();
    // A rook ending its move on the king's file takes the leap, though a pawn blocks its line.
    let mut pos = black.clone();
    let aim = notation::parse_coord(&pos, "a5c5").unwrap();
    pos.play(aim);
    assert!(pos.fen().contains(" w e "), "{}", pos.fen());
    assert_eq!(leaps(&pos), Vec::<String>::new());
    // Read back from its FEN, the position is the same one.
    let read = pos.with_fen(&pos.fen()).unwrap();
    assert_eq!(read.hash(), pos.hash());
    // Taking the move back gives the leap back.
    pos.undo_move();
    assert_eq!(pos.hash(), black.hash());
    assert_eq!(pos.fen(), black.fen());
    // A rook move elsewhere leaves it.
    let mut other = black.clone();
    other.play(notation::parse_coord(&other, "a5b5").unwrap());
    assert_eq!(leaps(&other), sorted(&["c1a2", "c1e2"]));
    // A FEN without the file: the king counts as moved, though on its start square.
    let moved = start.with_fen("r3k/5/2P2/5/2K2 w e - 0 1").unwrap();
    assert_eq!(leaps(&moved), Vec::<String>::new());
}

#[test]
fn moves_leave_walls_that_block_screen_and_stand() {
    // `moves leave walls`: the square a piece leaves becomes a wall for the rest of the game.
    let start = compiled(
        r#"
variant "Trails"
board 5 x 5
sides white north, black south
piece King K royal
  move step any
piece Rook R
  move slide orthogonal
piece Cannon C
  move slide orthogonal, move-only
  move hop orthogonal, capture-only
rules
  checkmate
  moves leave walls
setup
  ....k
  .....
  .....
  .....
  R.C.K
"#,
    );
    let mut pos = start.clone();
    pos.play(notation::parse_coord(&pos, "a1a3").unwrap());
    assert!(pos.is_wall(pos.tables().geometry().parse("a1").unwrap()));
    assert_eq!(pos.fen(), "4k/5/R4/5/*1C1K b - - 1 1");
    // Read back from its FEN, the wall is there, and the position is the same one.
    let read = start.with_fen(&pos.fen()).unwrap();
    assert_eq!(read.fen(), pos.fen());
    assert_eq!(read.hash(), pos.hash());
    pos.play(notation::parse_coord(&pos, "e5d5").unwrap());
    // The rook may not go back through or onto its wall.
    assert!(!coords_from(&pos, "a3").contains(&"a3a1".to_string()));
    assert!(coords_from(&pos, "a3").contains(&"a3a2".to_string()));
    // A wall screens a cannon as a piece does, and no capture takes it.
    let moves_at = |fen: &str, from: &str| coords_from(&start.with_fen(fen).unwrap(), from);
    assert_eq!(
        moves_at("4k/5/5/5/*1C1K w - - 0 1", "c1"),
        sorted(&["c1b1", "c1c2", "c1c3", "c1c4", "c1c5", "c1d1"])
    );
    let rank = sorted(&["a1b1", "a1c1", "a1d1"]);
    assert_eq!(moves_at("4k/5/5/*4/C3K w - - 0 1", "a1"), rank);
    let over = moves_at("4k/5/r4/*4/C3K w - - 0 1", "a1");
    assert_eq!(over, sorted(&["a1a3", "a1b1", "a1c1", "a1d1"]));
    // Taking the move back takes the wall away.
    let mut back = start.clone();
    back.play(notation::parse_coord(&back, "a1a3").unwrap());
    back.undo_move();
    assert_eq!(back.fen(), start.fen());
    assert_eq!(back.hash(), start.hash());
    // In a game without walls a `*` on a square is still refused.
    let chess = start_of("definitions/chess.variant");
    let err = chess
        .with_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/*NBQKBNR w - - 0 1")
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid fen: `*` on a1, which is not a hole of this board"
    );
}

#[test]
fn mating_drops_lose_plays_fairy_stockfish_s_reading_of_the_pawn_drop_mate() {
    // Shogi forbids a pawn drop that mates (`drop may not mate`); Fairy-Stockfish plays it and
    // scores the mate as the dropper's loss, which `mating drops lose` says under an option.
    let path = "definitions/library/minishogi.variant";
    let text = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let variant = rulebook::load(path, &text).unwrap();
    let with = |on: bool| {
        let options = [("mating-drops-lose".to_string(), on)];
        let start = Position::new(rulebook::model::Tables::compile(&variant, &options).unwrap());
        start.with_fen("kr3/1s3/1G3/5/4K[P] w - - 0 1").unwrap()
    };
    let drops = |pos: &Position| {
        pos.legal_moves()
            .iter()
            .filter(|m| m.is_drop())
            .map(|m| notation::coord(pos, m))
            .filter(|c| c == "P@a4")
            .count()
    };
    assert_eq!(drops(&with(false)), 0);
    let mut pos = with(true);
    assert_eq!(drops(&pos), 1);
    pos.play(notation::parse_move(&pos, "P@a4").unwrap());
    let outcome = pos.outcome().expect("checkmate");
    assert_eq!(outcome.reason, rulebook::engine::Reason::MatingDrop);
    // The side mated wins.
    assert_eq!(
        outcome.result(rulebook::model::Side::SECOND),
        rulebook::model::Verdict::Win
    );
    assert_eq!(
        outcome.result(rulebook::model::Side::FIRST),
        rulebook::model::Verdict::Loss
    );
}

#[test]
fn a_stalemate_by_piece_count_goes_to_the_side_with_fewer_pieces() {
    // Suicide chess (`stalemate wins, by piece count`): a side with no move wins with fewer
    // pieces than its opponent, loses with more, draws with as many (Fairy-Stockfish's
    // `stalematePieceCount`; pyffish gives +32000, -32000 and 0 for these three).
    use rulebook::model::{Side, Verdict};
    let start = start_of("definitions/library/suicide.variant");
    let result = |fen: &str| {
        let pos = start.with_fen(fen).unwrap();
        assert!(pos.legal_moves().is_empty(), "{fen}");
        pos.outcome().expect("stalemate").result(Side::FIRST)
    };
    assert_eq!(result("8/7p/8/8/8/p7/P7/8 w - - 0 1"), Verdict::Win);
    assert_eq!(result("8/8/8/8/p7/P7/P7/8 w - - 0 1"), Verdict::Loss);
    assert_eq!(result("8/8/8/8/8/p7/P7/8 w - - 0 1"), Verdict::Draw);
    // Antichess, with the same moves, gives the side with no move the win whatever the count.
    let anti = start_of("definitions/library/antichess.variant");
    let pos = anti.with_fen("8/8/8/8/p7/P7/P7/8 w - - 0 1").unwrap();
    assert_eq!(pos.outcome().unwrap().result(Side::FIRST), Verdict::Win);
}

#[test]
fn a_hop_may_be_barred_from_certain_screens_and_victims() {
    // `not over Cannon, not capturing Cannon`: the Janggi cannon's rule, on a small board.
    let start = compiled(
        r#"
variant "Screens"
board 5 x 6
sides white north, black south
piece King K royal
  move step any
piece Cannon C
  move hop orthogonal, not over Cannon, not capturing Cannon
piece Jumper J
  move hop orthogonal, over King, capture-only
piece Pawn P
  move step forward
rules
  checkmate
setup
  ....k
  .....
  .....
  .....
  .....
  K....
"#,
    );
    let moves_at = |fen: &str, from: &str| coords_from(&start.with_fen(fen).unwrap(), from);
    // Over a pawn: every square beyond it up to the first piece, which it takes.
    assert_eq!(
        moves_at("4k/2p2/5/2P2/5/K1C2 w - - 0 1", "c1"),
        sorted(&["c1c4", "c1c5"])
    );
    // A cannon is no screen: over it, nothing.
    assert_eq!(moves_at("4k/2p2/5/2C2/5/K1C2 w - - 0 1", "c1"), sorted(&[]));
    // Nor is a cannon a victim, though it ends the hop.
    assert_eq!(
        moves_at("4k/2c2/5/2P2/5/K1C2 w - - 0 1", "c1"),
        sorted(&["c1c4"])
    );
    // Attacks obey the same rule: a cannon behind a cannon gives no check.
    let behind = start.with_fen("2k2/5/2C2/5/5/K1C2 b - - 0 1").unwrap();
    assert!(!behind.in_check());
    let over_pawn = start.with_fen("2k2/5/2P2/5/5/K1C2 b - - 0 1").unwrap();
    assert!(over_pawn.in_check());
    // `over King`: only a king screens the jumper.
    assert_eq!(
        moves_at("2p1k/5/2K2/5/5/2J2 w - - 0 1", "c1"),
        sorted(&["c1c6"])
    );
    assert_eq!(moves_at("2p1k/5/2P2/5/5/K1J2 w - - 0 1", "c1"), sorted(&[]));
}

#[test]
fn passing_is_a_move_except_in_check_and_two_passes_draw() {
    use rulebook::engine::Reason;
    use rulebook::model::Verdict;
    let start = compiled(PASSING);
    let mut pos = start.clone();
    let pass = notation::parse_coord(&pos, "a1a1").unwrap();
    assert!(pass.is_pass());
    assert_eq!(notation::san(&pos, &pass), "pass");
    assert_eq!(notation::parse_move(&pos, "pass").unwrap(), pass);
    // Two king steps, five rook moves and the pass.
    assert_eq!(pos.legal_moves().len(), 8);
    pos.play(pass);
    // Nothing moved; the other side is to move, and the clock counts the pass.
    assert_eq!(pos.fen(), "3k/4/4/KR2 b - - 1 1");
    assert!(pos.outcome().is_none());
    let answer = notation::parse_coord(&pos, "d4d4").unwrap();
    pos.play(answer);
    let o = pos.outcome().expect("two passes end the game");
    assert_eq!((o.reason, o.is_draw()), (Reason::Passes, true));
    assert!(pos.legal_moves().is_empty());
    pos.undo_move();
    pos.undo_move();
    assert_eq!(pos.fen(), start.fen());
    // In check, no pass.
    let checked = start.with_fen("1R1k/4/4/K3 b - - 0 1").unwrap();
    assert!(checked.in_check());
    assert!(checked.legal_moves().iter().all(|m| !m.is_pass()));
    // Under `draws counted by value`, the same two passes go to the side with the rook.
    let counted = compiled(&start_text_with(
        "  passing allowed\n",
        "  passing allowed\n  draws counted by value\n",
    ));
    let mut pos = counted.clone();
    pos.play(notation::parse_move(&pos, "pass").unwrap());
    pos.play(notation::parse_move(&pos, "pass").unwrap());
    let o = pos.outcome().expect("counted");
    assert_eq!(o.reason, Reason::Counted);
    assert_eq!(o.result(rulebook::model::Side::FIRST), Verdict::Win);
}

/// The small passing game's text with one rules line replaced.
fn start_text_with(old: &str, new: &str) -> String {
    PASSING.replace(old, new)
}

/// A small game with `passing allowed`.
const PASSING: &str = r#"
variant "Passing"
board 4 x 4
sides white north, black south
piece King K royal
  move step any
piece Rook R value 5
  move slide orthogonal
rules
  checkmate
  passing allowed
setup
  ...k
  ....
  ....
  KR..
"#;

#[test]
fn facing_that_draws_must_be_parted_or_accepted_by_a_pass() {
    use rulebook::engine::Reason;
    use rulebook::model::{Side, Verdict};
    // `facing files draws` (Janggi's bikjang): royals may face each other; the side to move
    // then parts them or passes, and a pass ends the game, here counted by value with the
    // second side adding 1.5.
    let start = compiled(
        r#"
variant "Bikjang"
board 4 x 5
sides white north, black south
piece King K royal
  move step orthogonal
piece Rook R value 1
  move slide orthogonal
rules
  checkmate
  facing files draws
  draws counted by value, black adds 1.5
setup
  ..k.
  ....
  ....
  R...
  .K..
"#,
    );
    let mut pos = start.clone();
    // No pass while the kings do not face, and walking into the face is allowed.
    assert!(pos.legal_moves().iter().all(|m| !m.is_pass()));
    pos.play(notation::parse_coord(&pos, "b1c1").unwrap());
    assert!(pos.royals_facing(Side::SECOND));
    // Black must part the kings or pass: c5c4 keeps them facing and is refused.
    assert_eq!(coords_from(&pos, "c5"), sorted(&["c5b5", "c5c5", "c5d5"]));
    pos.play(notation::parse_move(&pos, "pass").unwrap());
    let o = pos.outcome().expect("a pass while facing ends the game");
    assert_eq!(o.reason, Reason::Counted);
    // White's rook is worth 1, Black adds 1.5: Black wins the count.
    assert_eq!(o.result(Side::SECOND), Verdict::Win);
    assert!(pos.legal_moves().is_empty());
    // A pass is allowed while facing even in check.
    let checked = start.with_fen("R1k1/4/4/4/2K1 b - - 0 1").unwrap();
    assert!(checked.in_check());
    assert!(checked.legal_moves().iter().any(|m| m.is_pass()));
}

#[test]
fn draw_odds_give_every_draw_to_one_side() {
    use rulebook::engine::Reason;
    use rulebook::model::{Side, Verdict};
    // Armageddon (`draws win for black`): a stalemate of either side is Black's win.
    let start = start_of("definitions/library/armageddon.variant");
    for fen in [
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "k7/8/8/8/8/1q6/8/K7 w - - 0 1",
    ] {
        let pos = start.with_fen(fen).unwrap();
        let o = pos.outcome().expect("stalemate");
        assert_eq!(o.reason, Reason::DrawOdds, "{fen}");
        assert_eq!(o.result(Side::SECOND), Verdict::Win, "{fen}");
        assert_eq!(o.result(Side::FIRST), Verdict::Loss, "{fen}");
    }
    // In plain chess the same positions are draws.
    let chess = start_of("definitions/chess.variant");
    let pos = chess.with_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert!(pos.outcome().unwrap().is_draw());
}

#[test]
fn a_repetition_verdict_may_belong_to_one_side_whoever_repeats() {
    use rulebook::engine::Reason;
    use rulebook::model::{Side, Verdict};
    // Minishogi (`repetition 4 loses for sente`): the fourth occurrence loses for sente even
    // when gote's move completes it.
    let mut pos = start_of("definitions/library/minishogi.variant");
    for _ in 0..3 {
        common::play(&mut pos, "b1b2 d5d4 b2b1 d4d5");
    }
    let o = pos.outcome().expect("fourth occurrence");
    assert_eq!(o.reason, Reason::Repetition);
    assert_eq!(pos.side_to_move(), Side::FIRST);
    assert_eq!(o.result(Side::FIRST), Verdict::Loss);
    assert_eq!(o.result(Side::SECOND), Verdict::Win);
}

#[test]
fn a_drop_may_be_barred_from_giving_check() {
    // `drop may not check`: the rook in hand goes anywhere but where it would attack the king.
    let start = compiled(
        r#"
variant "Quiet drops"
board 4 x 4
sides white north, black south
piece King K royal
  move step any
piece Rook R
  move slide orthogonal
  drop may not check
rules
  checkmate
  drops without captures
setup
  ...k
  ....
  ....
  K...
"#,
    );
    let pos = start.with_fen("3k/4/4/K3[R] w - - 0 1").unwrap();
    let mut drops: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.is_drop())
        .map(|m| notation::coord(&pos, m))
        .collect();
    drops.sort();
    // Of the 14 empty squares, the six on the d-file and the fourth rank would check.
    assert_eq!(
        drops,
        sorted(&["R@a2", "R@a3", "R@b1", "R@b2", "R@b3", "R@c1", "R@c2", "R@c3"])
    );
}

#[test]
fn gating_puts_a_piece_from_hand_where_a_first_move_leaves() {
    // `gating in ZONE`: a piece leaving its start square in the zone for the first time may
    // leave a piece from hand there; a castling may gate on the king's or the rook's square.
    let start = compiled(
        r#"
variant "Gates"
board 5 x 4
sides white north, black south
zone home = rank 1, mirrored
piece King K royal
  move step any
piece Rook R
  move slide orthogonal
piece Knight N
  move leap (1,2)
piece Wazir W
  move step orthogonal
rules
  checkmate
  gating in home
setup
  ...k.
  .....
  .....
  K.N.R
  [Ww]
"#,
    );
    let mut pos = start.clone();
    let moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| notation::coord(&pos, m))
        .collect();
    // Every first move from rank 1 comes plain and with the wazir left behind.
    assert!(moves.contains(&"c1a2".to_string()) && moves.contains(&"c1a2w".to_string()));
    assert!(moves.contains(&"a1b1".to_string()) && moves.contains(&"a1b1w".to_string()));
    assert_eq!(pos.fen(), "3k1/5/5/K1N1R[Ww] w ACEd - 0 1");
    let gate = notation::parse_coord(&pos, "c1a2w").unwrap();
    assert_eq!(notation::san(&pos, &gate), "Na2/W");
    pos.play(gate);
    // White's hand is empty: its gating rights are no longer written, as Fairy-Stockfish does.
    assert_eq!(pos.fen(), "3k1/5/N4/K1W1R[w] b d - 1 1");
    // The wazir placed there has no gating right, and the knight lost its own.
    pos.play(notation::parse_coord(&pos, "d4c4").unwrap());
    assert!(!pos
        .legal_moves()
        .iter()
        .any(|m| m.gated().is_some() && m.from == pos.tables().geometry().parse("c1").unwrap()));
    // With the hand empty, no move gates.
    assert!(pos.legal_moves().iter().all(|m| m.gated().is_none()));
    pos.undo_move();
    pos.undo_move();
    assert_eq!(pos.fen(), start.fen());
    assert_eq!(pos.hash(), start.hash());
    // Seirawan chess: castling gates on the king's square or the rook's.
    let seirawan = start_of("definitions/library/seirawan.variant");
    let castle = seirawan
        .with_fen("r3k2r/8/8/8/8/8/8/R3K2R[HEhe] w KQkq - 0 1")
        .unwrap();
    let c: Vec<String> = castle
        .legal_moves()
        .iter()
        .filter(|m| m.castling().is_some())
        .map(|m| notation::coord(&castle, m))
        .collect();
    assert_eq!(
        sorted(&c.iter().map(String::as_str).collect::<Vec<_>>()),
        sorted(&[
            "e1g1", "e1g1h", "e1g1e", "h1e1h", "h1e1e", "e1c1", "e1c1h", "e1c1e", "a1e1h", "a1e1e"
        ])
    );
    let mut after = castle.clone();
    after.play(notation::parse_coord(&after, "h1e1h").unwrap());
    // A gated piece does not shield the king its piece uncovered: the pinned bishop on f1
    // has no move, gated or not (Fairy-Stockfish's reading; compare-pyffish found it).
    let pinned = start_of("definitions/library/shouse.variant")
        .with_fen(
            "rnbq1R~nr/p1pkrp2/1p5p/3p1nE1/4P3/PP2hP2/P1PP2pP/1RBQKBeH[Bn] w CDFabcdgh - 0 21",
        )
        .unwrap();
    assert!(coords_from(&pinned, "f1").is_empty());
    // The a1 rook keeps its gating right, as in pyffish's `R4RKH[Eeh] b Akq - 1 1`.
    assert_eq!(after.fen(), "r3k2r/8/8/8/8/8/8/R4RKH[Ehe] b Akq - 1 1");
}

#[test]
fn a_piece_that_captures_may_turn_to_stone() {
    // `captures petrify Rook`: the rook that captures becomes a wall; the pawn does not; a
    // royal that would turn to stone may not capture.
    let start = compiled(
        r#"
variant "Stone"
board 4 x 4
sides white north, black south
piece King K royal
  move step any
piece Rook R
  move slide orthogonal
piece Pawn P
  move step forward
  move step forward-diagonal, capture-only
rules
  checkmate
  extinction
  captures petrify King Rook
setup
  r..k
  ....
  .p..
  RP.K
"#,
    );
    let mut pos = start.clone();
    pos.play(notation::parse_coord(&pos, "a1a4").unwrap());
    assert_eq!(pos.fen(), "*2k/4/1p2/1P1K b - - 0 1");
    pos.undo_move();
    assert_eq!(pos.fen(), start.fen());
    assert_eq!(pos.hash(), start.hash());
    // The pawn captures and stays a pawn.
    let mut pawn = start.with_fen("3k/1r2/P3/3K w - - 0 1").unwrap();
    pawn.play(notation::parse_coord(&pawn, "a2b3").unwrap());
    assert_eq!(pawn.fen(), "3k/1P2/4/3K b - - 0 1");
    // A king next to an enemy piece may not take it.
    // The king on a1 could only take the rook on b2 (its other squares are the rook's).
    let king = start.with_fen("3k/4/1r2/K3 w - - 0 1").unwrap();
    assert_eq!(coords_from(&king, "a1"), Vec::<String>::new());
    // Nor does it threaten: the kings may stand side by side.
    let kings = start.with_fen("4/4/k3/2K1 b - - 0 1").unwrap();
    assert_eq!(
        coords_from(&kings, "a2"),
        ["a2a1", "a2a3", "a2b1", "a2b2", "a2b3"]
    );
}

/// A small game in which every move builds a wall; `PLACING` stands for the rule's words.
const WALLED: &str = r#"
variant "Walled"
board 4 x 4
sides white north, black south
zone low = ranks 1-2, mirrored
piece Rook R
  move slide orthogonal, move-only
piece Pawn P
  move step forward, move-only
  move step forward then step forward, move-only, creates en-passant
  move step forward-diagonal, capture-only, takes en-passant
rules
  PLACING
  stalemate loses
setup
  ...r
  ..p.
  ....
  R...
"#;

#[test]
fn each_move_may_build_a_wall_where_the_rule_allows() {
    let walled = |rule: &str| compiled(&WALLED.replace("PLACING", rule));
    // Anywhere empty: the rook's 6 moves, each with the 13 squares empty after it (the one
    // it left among them).
    let start = walled("each move places a wall");
    let moves = coords_from(&start, "a1");
    assert_eq!(moves.len(), 6 * 13);
    assert!(moves.contains(&"a1a2,a2a1".to_string()));
    assert!(!moves.contains(&"a1a2,a2a2".to_string()));
    // Played in either notation; the wall stands in the FEN, and undoing takes it away.
    let mut pos = start.clone();
    pos.play(notation::parse_move(&pos, "Ra3,c1").unwrap());
    assert_eq!(pos.fen(), "3r/R1p1/4/2*1 b - - 1 1");
    pos.undo_move();
    assert_eq!((pos.fen(), pos.hash()), (start.fen(), start.hash()));
    let bare = notation::parse_move(&pos, "a1a3").unwrap_err().to_string();
    assert!(bare.contains("builds a wall"), "{bare}");
    // Only in the zone: ranks 1 and 2 of the mover.
    let low = walled("each move places a wall in low");
    let walls: Vec<String> = coords_from(&low, "a1")
        .into_iter()
        .filter(|m| m.starts_with("a1a4"))
        .collect();
    assert_eq!(
        walls,
        [
            "a1a4,a4a1",
            "a1a4,a4a2",
            "a1a4,a4b1",
            "a1a4,a4b2",
            "a1a4,a4c1",
            "a1a4,a4c2",
            "a1a4,a4d1",
            "a1a4,a4d2"
        ]
    );
    // Within reach: where the rook could go next from its new square (an arrow), the square
    // it left included and the black pawn on c3 in the way.
    let arrows = walled("each move places a wall within reach");
    let from_a3: Vec<String> = coords_from(&arrows, "a1")
        .into_iter()
        .filter(|m| m.starts_with("a1a3"))
        .collect();
    assert_eq!(
        from_a3,
        ["a1a3,a3a1", "a1a3,a3a2", "a1a3,a3a4", "a1a3,a3b3"]
    );
}

#[test]
fn the_wall_that_moves_leaves_its_square_and_comes_back_on_undo() {
    let start = compiled(&WALLED.replace("PLACING", "each move moves the wall"));
    let duck = start.with_fen("3r/2p1/1*2/R3 w - - 0 1").unwrap();
    let mut pos = duck.clone();
    // The wall may not stay where it stands: it moves.
    assert!(notation::parse_move(&pos, "a1a2,a2b2").is_err());
    pos.play(notation::parse_move(&pos, "a1a2,a2c2").unwrap());
    assert_eq!(pos.fen(), "3r/2p1/R1*1/4 b - - 1 1");
    pos.undo_move();
    assert_eq!((pos.fen(), pos.hash()), (duck.fen(), duck.hash()));
    // A wall on the square a double step passed leaves nothing to take en passant.
    let ep = start.with_fen("3r/2p1/4/1P1R w - - 0 1").unwrap();
    let mut passed = ep.clone();
    passed.play(notation::parse_move(&passed, "b1b3,b3b2").unwrap());
    assert_eq!(passed.fen(), "3r/1Pp1/1*2/3R b - - 1 1");
    let mut open = ep.clone();
    open.play(notation::parse_move(&open, "b1b3,b3a1").unwrap());
    assert_eq!(open.fen(), "3r/1Pp1/4/*2R b - b2 1 1");
}

/// A small Othello.
const DISCS: &str = r#"
variant "Discs"
board 4 x 4
sides white north, black south
zone centre = b2 c2 b3 c3
piece Disc P value 1
  drop first in centre
  drop only where it flips
  drop even where stuck
rules
  drops without captures
  moves flip enclosed enemies
  passing allowed when stuck
  stalemate loses, by piece count
  full board draws
  draws counted by value
setup "4/4/4/4[PPPPPPPPpppppppp]"
"#;

/// The drops of a position, in coordinate notation, sorted.
fn all_coords(pos: &Position) -> Vec<String> {
    let mut out: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| notation::coord(pos, m))
        .collect();
    out.sort();
    out
}

#[test]
fn a_lone_drop_flips_nothing_where_drops_flip_only_next_to_own_pieces() {
    let pos = compiled(
        r#"
variant "Wrangle"
board 4 x 4
sides white north, black south
piece Stone P
  move slide any, move-only
  drop even where stuck
rules
  drops without captures
  moves flip adjacent enemies, drops only next to own pieces
  stalemate draws
  when 0 enemy Stone wins
setup "4/4/4/4[PPPPpppp]"
"#,
    );
    // Dropped on b1 beside the black stone on a1 but no white stone: nothing turns.
    let lone = played(&pos, "4/2P1/4/p3[PPPppp] w - - 0 1", "P@b1");
    assert!(lone.fen().starts_with("4/2P1/4/pP2"), "{}", lone.fen());
    // Dropped on b2, next to the white stone on c3: the black stone on a1 turns.
    let near = played(&pos, "4/2P1/4/p3[PPPppp] w - - 0 1", "P@b2");
    assert!(near.fen().starts_with("4/2P1/1P2/P3"), "{}", near.fen());
    // A move flips wherever it lands.
    let moved = played(&pos, "4/4/4/p2P[PPPppp] w - - 0 1", "d1b1");
    assert!(moved.fen().starts_with("4/4/4/PP2"), "{}", moved.fen());
}

#[test]
fn discs_go_where_they_flip_and_a_side_without_one_passes() {
    use rulebook::engine::Reason;
    use rulebook::model::{Side, Verdict};
    let start = compiled(DISCS);
    // The centre first.
    assert_eq!(all_coords(&start), ["P@b2", "P@b3", "P@c2", "P@c3"]);
    // Then only where a line of enemy discs is closed by a friendly one; it turns over.
    let centre = start
        .with_fen("4/1pP1/1Pp1/4[PPPPPPpppppp] w - - 0 1")
        .unwrap();
    assert_eq!(all_coords(&centre), ["P@a3", "P@b4", "P@c1", "P@d2"]);
    let mut pos = centre.clone();
    pos.play(notation::parse_move(&pos, "P@d2").unwrap());
    assert!(
        pos.fen().starts_with("4/1pP1/1PPP/4[PPPPPpppppp] b"),
        "{}",
        pos.fen()
    );
    pos.undo_move();
    assert_eq!((pos.fen(), pos.hash()), (centre.fen(), centre.hash()));
    // Two runs at once, along a diagonal and a rank.
    let two = start.with_fen("P3/1p2/Pp2/3p[Pp] w - - 0 1").unwrap();
    let mut both = two.clone();
    both.play(notation::parse_move(&both, "P@c2").unwrap());
    assert!(both.fen().starts_with("P3/1P2/PPP1/3p["), "{}", both.fen());
    // White cannot enclose the black disc in the corner: it passes, written on its first
    // square in the order a1, b1, ..., a2, ...
    let stuck = start.with_fen("p3/1PP1/1PP1/4[Pp] w - - 0 1").unwrap();
    assert_eq!(all_coords(&stuck), ["b2b2"]);
    // The board filled ends the game, which the discs decide.
    let mut full = start.with_fen("pPPP/PPPP/PPPP/PPP1[Pp] w - - 0 1").unwrap();
    assert_eq!(all_coords(&full), ["a1a1"]);
    full.play(notation::parse_move(&full, "a1a1").unwrap());
    full.play(notation::parse_move(&full, "P@d1").unwrap());
    let o = full.outcome().expect("the board is full");
    assert_eq!(o.reason, Reason::Counted);
    assert_eq!(o.result(Side::FIRST), Verdict::Win);
}

#[test]
fn clones_grow_next_to_their_own_and_turn_their_neighbours() {
    // Ataxx's rules on a small board: a drop from an endless supply next to a friendly stone,
    // or a jump two squares away; the enemy stones next to the landing square turn over.
    let start = compiled(
        r#"
variant "Clones"
board 4 x 4
sides white north, black south
piece Stone P value 1
  move leap (2,0), move-only
  drop only next to own pieces
  drop unlimited
  drop even where stuck
rules
  drops without captures
  moves flip adjacent enemies
  stalemate loses
setup
  ...p
  ..p.
  ....
  P...
"#,
    );
    assert_eq!(all_coords(&start), ["P@a2", "P@b1", "P@b2", "a1a3", "a1c1"]);
    let mut pos = start.clone();
    pos.play(notation::parse_move(&pos, "P@b2").unwrap());
    // The hand stays empty: the supply never runs out. The black stone on c3 turned.
    assert_eq!(pos.fen(), "3p/2P1/1P2/P3[] b - - 0 1");
    pos.undo_move();
    assert_eq!((pos.fen(), pos.hash()), (start.fen(), start.hash()));
}

/// A small placement game: pieces placed on the home rank before play, bishops on both
/// colours, a king and rook placed on their squares may castle.
const PLACING: &str = r#"
variant "Placing"
board 6 x 3
sides white north, black south
zone home = rank 1, mirrored
piece King K royal
  move step any
  drop in home
  drop counts as unmoved
piece Bishop B value 3
  move slide diagonal
  drop in home
  drop on both colours
piece Rook R value 5
  move slide orthogonal
  drop in home
  drop counts as unmoved
piece Pawn P value 1
  move step forward, move-only
castling King c1 to e1 with Rook f1 to d1, mirrored
rules
  checkmate
  drops without captures
  must drop
setup "6/6/1P4[KBBRkbbr]"
"#;

#[test]
fn a_side_that_can_drop_must_and_bishops_end_on_both_colours() {
    let start = compiled(PLACING);
    // The pawn waits while a piece can be placed.
    let moves = all_coords(&start);
    assert!(moves.iter().all(|m| m.contains('@')), "{moves:?}");
    assert!(moves.contains(&"B@a1".to_string()) && moves.contains(&"R@f1".to_string()));
    // With the home rank full, the piece in hand waits and the others move.
    let full = start.with_fen("2k3/1P4/KRRRRR[B] w - - 0 1").unwrap();
    let moves = all_coords(&full);
    assert!(!moves.iter().any(|m| m.contains('@')), "{moves:?}");
    assert!(moves.contains(&"b2b3".to_string()), "{moves:?}");
    // A bishop on a1 (dark): the second goes on a light square only.
    let one = start.with_fen("6/1P4/B5[BKRk] w - - 0 1").unwrap();
    let bishops: Vec<String> = all_coords(&one)
        .into_iter()
        .filter(|m| m.starts_with("B@"))
        .collect();
    assert_eq!(bishops, ["B@b1", "B@d1", "B@f1"]);
    // Two bishops in hand and one dark square left (e1): no other piece may take it.
    let tight = start.with_fen("6/6/KRR3[BBRk] w - - 0 1").unwrap();
    let rooks: Vec<String> = all_coords(&tight)
        .into_iter()
        .filter(|m| m.starts_with("R@"))
        .collect();
    assert_eq!(rooks, ["R@d1", "R@f1"]);
}

#[test]
fn a_king_placed_on_its_square_castles_with_a_rook_already_there() {
    let start = compiled(PLACING);
    let before = start.with_fen("2k3/6/5R[K] w - - 0 1").unwrap();
    let mut pos = before.clone();
    pos.play(notation::parse_move(&pos, "K@c1").unwrap());
    pos.play(notation::parse_move(&pos, "c3b3").unwrap());
    assert!(
        coords_from(&pos, "c1").contains(&"c1e1".to_string()),
        "{}",
        pos.fen()
    );
    pos.undo_move();
    pos.undo_move();
    assert_eq!((pos.fen(), pos.hash()), (before.fen(), before.hash()));
    // Placed elsewhere, it has no castling.
    let mut off = before.clone();
    off.play(notation::parse_move(&off, "K@b1").unwrap());
    off.play(notation::parse_move(&off, "c3b3").unwrap());
    assert!(!coords_from(&off, "b1").iter().any(|m| m == "b1d1"));
}

/// Pawns that promote by a move of their own, standing on the far rank, or anywhere as the
/// last pawn: in place or one step as the general, which may attack nothing.
const STANDING: &str = r#"
variant "Standing"
board 5 x 5
sides white north, black south
zone far = rank 4 rank 5, mirrored
piece King K royal
  move step any
piece General F value 1.5
  move step diagonal
piece Rook R value 5
  move slide orthogonal
piece Pawn P value 1
  move step forward, move-only
  promote to General in far, only to captured, in place, not attacking, anywhere when last
rules
  checkmate
setup "k4/5/5/P1P2/K3F"
"#;

/// The in-place promotions of a position, in coordinate notation, sorted.
fn promotions_in_place(pos: &Position) -> Vec<String> {
    let mut out: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.kind == rulebook::engine::MoveKind::Promote)
        .map(|m| notation::coord(pos, m))
        .collect();
    out.sort();
    out
}

#[test]
fn a_pawn_promotes_standing_only_while_its_general_is_lost() {
    let start = compiled(STANDING);
    // The general stands: no promotion.
    assert!(promotions_in_place(&start).is_empty());
    // Lost: a pawn on the far ranks turns where it stands or steps diagonally to an empty
    // square; the one on the first rank may not, while it has a partner.
    let lost = start.with_fen("k4/P4/5/5/K1P2 w - - 0 1").unwrap();
    assert_eq!(promotions_in_place(&lost), ["a4a4f", "a4b3f", "a4b5f"]);
    // Moving into the zone promotes nothing.
    assert_eq!(coords_from(&lost, "c1"), ["c1c2"]);
    // The last pawn promotes anywhere.
    let alone = start.with_fen("k4/5/5/5/K1P2 w - - 0 1").unwrap();
    assert_eq!(promotions_in_place(&alone), ["c1b2f", "c1c1f", "c1d2f"]);
    // The general may not attack an enemy piece where it ends, nor give check: from d4 it
    // would attack the rook on e3, from b4 the king on a5.
    let near = start.with_fen("k1P2/P4/4r/5/K4 w - - 0 1").unwrap();
    assert_eq!(
        promotions_in_place(&near),
        ["a4a4f", "a4b3f", "a4b5f", "c5c5f"]
    );
    // The notation: `c5=F` in place, `a4b3=F` with a step; both read back.
    let stay = notation::parse_move(&near, "c5=F").unwrap();
    assert_eq!(notation::san(&near, &stay), "c5=F");
    let mut pos = near.clone();
    let m = notation::parse_move(&pos, "a4b3=F").unwrap();
    assert_eq!(notation::san(&pos, &m), "a4b3=F");
    pos.play(m);
    assert!(pos.fen().starts_with("k1P2/5/1F2r/5/K4 b"), "{}", pos.fen());
    pos.undo_move();
    assert_eq!((pos.fen(), pos.hash()), (near.fen(), near.hash()));
}

#[test]
fn discs_fall_to_the_lowest_empty_square_and_three_in_a_row_wins() {
    use rulebook::engine::Reason;
    use rulebook::model::{Side, Verdict};
    let start = compiled(
        r#"
variant "Small Connect"
board 4 x 4
sides white north, black south
piece Disc P
  drop on top
  drop even where stuck
rules
  drops without captures
  connect 3 wins
  stalemate draws
setup "4/4/4/4[PPPPPPPPpppppppp]"
"#,
    );
    // Only the bottom rank at first; then above a disc, never over a gap.
    assert_eq!(all_coords(&start), ["P@a1", "P@b1", "P@c1", "P@d1"]);
    let pos = start
        .with_fen("4/4/p3/P1p1[PPPPPPPpppppp] w - - 0 1")
        .unwrap();
    assert_eq!(all_coords(&pos), ["P@a3", "P@b1", "P@c2", "P@d1"]);
    // Three in a row along a diagonal wins for the side that made it, at once.
    let mut diag = start
        .with_fen("4/4/1Pp1/Ppp1[PPPPPPppppp] w - - 0 1")
        .unwrap();
    assert!(diag.outcome().is_none());
    diag.play(notation::parse_move(&diag, "P@c3").unwrap());
    let o = diag.outcome().expect("a1, b2, c3 are in a row");
    assert_eq!(o.reason, Reason::Connect);
    assert_eq!(o.result(Side::FIRST), Verdict::Win);
    assert!(diag.legal_moves().is_empty());
    // Two in a row and a gap are not three.
    let gap = start
        .with_fen("4/4/4/P1PP[PPPPPpppppppp] b - - 0 1")
        .unwrap();
    assert!(gap.outcome().is_none());
}

/// Kings and rooks on their chess squares with these castlings and a rule besides checkmate.
fn kings_and_rooks(castlings: &str, rule: &str) -> Position {
    compiled(&format!(
        r#"
variant "Castlings"
board 8 x 8
sides white north, black south
piece King K royal
  move step any
piece Rook R
  move slide orthogonal
{castlings}
rules
  checkmate
  {rule}
setup "r3k2r/8/8/8/8/8/8/R3K2R"
"#
    ))
}

#[test]
fn opposite_castling_takes_the_same_wing_from_the_opponent() {
    let pos = kings_and_rooks(
        "castling King e1 to g1 with Rook h1 to f1, mirrored\n\
         castling King e1 to c1 with Rook a1 to d1, mirrored",
        "opposite castling",
    );
    let mut after = pos.clone();
    after.play(notation::parse_move(&after, "e1g1").unwrap());
    // Black keeps only the other wing.
    assert!(after.fen().contains(" b q "), "{}", after.fen());
    assert_eq!(
        coords_from(&after, "e8")
            .into_iter()
            .filter(|m| m == "e8g8" || m == "e8c8")
            .collect::<Vec<_>>(),
        ["e8c8"]
    );
    // Taken back, the right returns.
    let before = pos.fen();
    let mut undone = after.clone();
    undone.undo_move();
    assert_eq!(undone.fen(), before);
}

#[test]
fn a_winning_castling_wins_and_losing_its_right_loses() {
    use rulebook::engine::Reason;
    use rulebook::model::{Side, Verdict};
    let pos = kings_and_rooks(
        "castling King e1 to g1 with Rook h1 to f1, mirrored\n\
         castling King e1 to c1 with Rook a1 to d1, for white\n\
         castling King e8 to c8 with Rook a8 to d8, for black, wins",
        "stalemate draws",
    );
    assert!(pos.outcome().is_none());
    // Black castling long wins; castling short does not.
    let long = played(&pos, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8");
    let o = long.outcome().expect("the winning castling");
    assert_eq!(o.reason, Reason::Castling);
    assert_eq!(o.result(Side::SECOND), Verdict::Win);
    let short = played(&pos, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8");
    let o = short
        .outcome()
        .expect("short castling gives up the long one");
    assert_eq!(o.result(Side::SECOND), Verdict::Loss);
    // White's rook taking a8 takes Black's right with it: Black loses.
    let taken = played(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "a1a8");
    let o = taken.outcome().expect("the right is gone");
    assert_eq!(o.result(Side::FIRST), Verdict::Win);
    // White's own castlings decide nothing.
    let white = played(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1");
    assert!(white.outcome().is_none());
}

#[test]
fn drops_apart_from_enemies_and_drops_from_an_edge() {
    let text = |clause: &str| {
        format!(
            r#"
variant "Edges"
board 4 x 4
sides white north, black south
piece Stone P
  drop even where stuck
  drop {clause}
rules
  drops without captures
  stalemate loses
setup "4/4/4/4[PPPPpppp]"
"#
        )
    };
    // Not a rook step from the black stone on b2; a diagonal step is fine.
    let apart = compiled(&text("not orthogonally next to enemy pieces"))
        .with_fen("4/4/1p2/4[PPPPppp] w - - 0 1")
        .unwrap();
    let drops = all_coords(&apart);
    for banned in ["P@a2", "P@b1", "P@b3", "P@c2"] {
        assert!(
            !drops.contains(&banned.to_string()),
            "{banned} in {drops:?}"
        );
    }
    for open in ["P@a1", "P@c3", "P@d4"] {
        assert!(drops.contains(&open.to_string()), "{open} not in {drops:?}");
    }
    assert_eq!(drops.len(), 16 - 1 - 4);
    // From an edge: a piece slides across an empty board to the far edge, so only the edge
    // squares are reached.
    let edge = compiled(&text("from any edge"));
    assert_eq!(
        all_coords(&edge),
        sorted(&[
            "P@a1", "P@a2", "P@a3", "P@a4", "P@b1", "P@b4", "P@c1", "P@c4", "P@d1", "P@d2", "P@d3",
            "P@d4"
        ])
    );
    // A stone on b2 stops pieces coming in toward it: a2 (from the west), b1 (from the south),
    // c2 (from the east) and b3 (from the north) become reachable.
    let blocked = edge.with_fen("4/4/1p2/4[PPPPppp] w - - 0 1").unwrap();
    let drops = all_coords(&blocked);
    for reached in ["P@b3", "P@c2"] {
        assert!(
            drops.contains(&reached.to_string()),
            "{reached} not in {drops:?}"
        );
    }
    assert!(!drops.contains(&"P@c3".to_string()), "{drops:?}");
}

#[test]
fn a_block_or_a_line_with_gaps_connects_too() {
    use rulebook::engine::Reason;
    use rulebook::model::{Side, Verdict};
    let start = compiled(
        r#"
variant "Shapes"
board 5 x 5
sides white north, black south
piece Stone P
  drop even where stuck
rules
  drops without captures
  connect 4 wins
  connect 2 by 2 wins
  connect 3 along ranks, with gaps loses
  stalemate draws
setup "5/5/5/5/5[PPPPPPPPpppppppp]"
"#,
    );
    // Two by two wins at once; an L of three does not.
    let mut square = start
        .with_fen("5/5/5/2pp1/PP3[PPPPPPpppppp] w - - 0 1")
        .unwrap();
    assert!(square.outcome().is_none());
    square.play(notation::parse_move(&square, "P@a2").unwrap());
    assert!(square.outcome().is_none(), "a1, b1, a2 are only three");
    square.play(notation::parse_move(&square, "P@d3").unwrap());
    square.play(notation::parse_move(&square, "P@b2").unwrap());
    let o = square.outcome().expect("a1, b1, a2, b2 fill a block");
    assert_eq!(o.reason, Reason::Connect);
    assert_eq!(o.result(Side::FIRST), Verdict::Win);
    // Three on one rank with gaps between them lose for their side; on a file they do not.
    let gaps = played(&start, "5/5/5/5/P1P2[PPPPPPpppppp] w - - 0 1", "P@e1");
    let o = gaps.outcome().expect("a1, c1, e1 share a rank");
    assert_eq!(o.reason, Reason::Connect);
    assert_eq!(o.result(Side::FIRST), Verdict::Loss);
    let file = played(&start, "5/5/5/5/P1P2[PPPPPPpppppp] w - - 0 1", "P@a3");
    assert!(file.outcome().is_none(), "a1, a3 and c1 share no rank");
}

#[test]
fn a_row_counts_only_the_named_kinds_along_the_named_lines() {
    use rulebook::engine::Reason;
    use rulebook::model::{Side, Verdict};
    // Three men along a rank lose for their side; kings and files do not count.
    let start = compiled(
        r#"
variant "Rows that lose"
board 4 x 4
sides white north, black south
piece Man P
  drop even where stuck
piece Chief K
  drop even where stuck
rules
  drops without captures
  connect 3 Man along ranks loses
  stalemate draws
setup "4/4/4/4[PPPPKppppk]"
"#,
    );
    let file = start.with_fen("4/P3/P3/P3[PKppppk] b - - 0 1").unwrap();
    assert!(file.outcome().is_none(), "a file is not a rank here");
    let kings = start.with_fen("4/4/4/PPK1[PPKppppk] b - - 0 1").unwrap();
    assert!(kings.outcome().is_none(), "a Chief is not a Man");
    let rank = start.with_fen("4/4/4/PPP1[PKppppk] b - - 0 1").unwrap();
    let o = rank.outcome().expect("three men on a rank");
    assert_eq!(o.reason, Reason::Connect);
    assert_eq!(o.result(Side::FIRST), Verdict::Loss);
    assert_eq!(o.result(Side::SECOND), Verdict::Win);
}

#[test]
fn a_royal_dropped_from_hand_may_not_land_attacked() {
    // Before its king is on the board a side may drop it, but not where an enemy attacks it.
    let start = compiled(
        r#"
variant "Kings from hand"
board 3 x 3
sides white north, black south
piece King K royal
  move step any
  drop even where stuck
piece Rook R
  move slide orthogonal
  drop even where stuck
rules
  checkmate
  drops without captures
  must drop
setup "3/3/r2[Kk]"
"#,
    );
    // The rook on a1 attacks a2, a3, b1 and c1.
    assert_eq!(all_coords(&start), ["K@b2", "K@b3", "K@c2", "K@c3"]);
}

#[test]
fn a_count_on_board_or_in_hand_counts_the_hand_too() {
    use rulebook::engine::Reason;
    use rulebook::model::{Side, Verdict};
    // Losing every piece wins, but a piece in hand is not lost yet.
    let text = |term: &str| {
        format!(
            r#"
variant "Give away with drops"
board 3 x 3
sides white north, black south
piece Man M
  move step any
rules
  drops
  when 0 Man{term} wins
  stalemate wins
setup "m2/3/2M"
"#
        )
    };
    let board_only = compiled(&text(""));
    let with_hand = compiled(&text(" on board or in hand"));
    let fen = "m2/3/3[M] b - - 0 1";
    let o = board_only
        .with_fen(fen)
        .unwrap()
        .outcome()
        .expect("no man on White's board");
    assert_eq!(
        (o.reason, o.result(Side::FIRST)),
        (Reason::Condition(0), Verdict::Win)
    );
    assert!(with_hand.with_fen(fen).unwrap().outcome().is_none());
    let o = with_hand
        .with_fen("m2/3/3[m] b - - 0 1")
        .unwrap()
        .outcome()
        .expect("White has none anywhere");
    assert_eq!(o.result(Side::FIRST), Verdict::Win);
}
