//! Game results and the rules around them, on hand-built positions.

use crate::common;
use common::start;
use rulebook::engine::record::replay;
use rulebook::engine::{notation, Outcome, Position, Reason};
use rulebook::model::{Side, Tables};

fn moves(pos: &Position) -> Vec<String> {
    pos.legal_moves()
        .iter()
        .map(|m| notation::coord(pos, m))
        .collect()
}

const RED: Side = Side::FIRST;
const BLACK: Side = Side::SECOND;

#[test]
fn stalemate_verdicts_follow_the_rules() {
    let chess = start("chess.variant")
        .with_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
        .unwrap();
    assert_eq!(chess.outcome(), Some(Outcome::draw(2, Reason::Stalemate)));
    // Xiangqi: the stalemated side loses.
    let xq = start("xiangqi.variant")
        .with_fen("3k5/R8/9/9/9/9/9/9/9/4RK3 b - - 0 1")
        .unwrap();
    assert!(!xq.in_check());
    assert_eq!(xq.outcome(), Some(Outcome::win(RED, 2, Reason::Stalemate)));
}

#[test]
fn threefold_repetition_draws_chess() {
    let r = replay(
        &start("chess.variant"),
        "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1",
    )
    .unwrap();
    assert_eq!(r.outcome, None);
    let r = replay(
        &start("chess.variant"),
        "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8",
    )
    .unwrap();
    assert_eq!(r.outcome, Some(Outcome::draw(2, Reason::Repetition)));
}

#[test]
fn perpetual_check_loses_in_xiangqi() {
    let pos = start("xiangqi.variant")
        .with_fen("4k4/9/9/9/9/5P3/9/9/9/R4K3 w - - 0 1")
        .unwrap();
    // The position after 1. Ra10+ comes back a third time after 5. Ra10+: red, who checked
    // with every move of the cycle, loses.
    let game = "1. Ra10+ Ke9 2. Ra9+ Ke10 3. Ra10+ Ke9 4. Ra9+ Ke10 5. Ra10+";
    let r = replay(&pos, game).unwrap();
    assert_eq!(
        r.outcome,
        Some(Outcome::win(BLACK, 2, Reason::PerpetualCheck))
    );
    let r = replay(&pos, "1. Ra10+ Ke9 2. Ra9+ Ke10 3. Ra10+ Ke9 4. Ra9+ Ke10").unwrap();
    assert_eq!(r.outcome, None);
}

#[test]
fn the_move_limit_draws() {
    let pos = start("chess.variant")
        .with_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 60")
        .unwrap();
    let r = replay(&pos, "Ra2").unwrap();
    assert_eq!(r.outcome, Some(Outcome::draw(2, Reason::MoveLimit)));
    // A pawn move resets the count.
    let pos = start("chess.variant")
        .with_fen("4k3/8/8/8/8/8/P7/4K3 w - - 99 60")
        .unwrap();
    let r = replay(&pos, "a3").unwrap();
    assert_eq!(r.outcome, None);
    assert_eq!(r.position.halfmove_clock(), 0);
}

#[test]
fn extinction_ends_the_game_when_the_last_royal_falls() {
    let text = r#"
variant "Two kings"
board 4 x 4
sides white north, black south
piece King K royal
  move step any
piece Rook R value 5
  move slide orthogonal
rules
  extinction
  stalemate loses
setup
  k..k
  ....
  ....
  R..K
"#;
    let variant = rulebook::load("two-kings.variant", text).unwrap();
    let pos = Position::new(Tables::compile(&variant, &[]).unwrap());
    // No check: a king may stay attacked, and capturing one of two royals does not end it.
    let r = replay(&pos, "1. Rxa4 Kc4").unwrap();
    assert_eq!(r.outcome, None);
    let r = replay(&pos, "1. Rxa4 Kc4 2. Rxc4").unwrap();
    assert_eq!(
        r.outcome,
        Some(Outcome::win(Side::FIRST, 2, Reason::Extinction))
    );
    assert!(r.position.legal_moves().is_empty());
}

#[test]
fn shogi_drops_obey_their_restrictions() {
    let shogi = start("shogi.variant");
    // A pawn dropped on a8 would mate the king on a9: forbidden.
    let mate = shogi.with_fen("k8/2G6/1S7/9/9/9/9/9/4K4[P] w 0 1").unwrap();
    let m = moves(&mate);
    assert!(!m.contains(&"P@a8".to_string()), "{m:?}");
    assert!(m.contains(&"P@b6".to_string()));
    // Without the gold the king escapes, so the same drop is only a check.
    let check = shogi.with_fen("k8/9/1S7/9/9/9/9/9/4K4[P] w 0 1").unwrap();
    assert!(moves(&check).contains(&"P@a8".to_string()));
    // Never two unpromoted pawns on a file; a tokin does not count.
    let nifu = shogi.with_fen("k8/9/9/9/4P4/9/9/9/4K4[P] w 0 1").unwrap();
    assert!(!moves(&nifu).iter().any(|m| m.starts_with("P@e")));
    let tokin = shogi.with_fen("k8/9/9/9/4+P4/9/9/9/4K4[P] w 0 1").unwrap();
    assert!(moves(&tokin).iter().any(|m| m == "P@e4"));
    // No drop where the piece could never move again.
    let dead = shogi.with_fen("k8/9/9/9/9/9/9/9/4K4[PNL] w 0 1").unwrap();
    let m = moves(&dead);
    for bad in ["P@b9", "L@b9", "N@b9", "N@b8"] {
        assert!(!m.contains(&bad.to_string()), "{bad}");
    }
    assert!(m.contains(&"N@b7".to_string()) && m.contains(&"L@b8".to_string()));
}

#[test]
fn shogi_promotion_is_forced_where_a_piece_would_be_stuck() {
    let shogi = start("shogi.variant");
    let pawn = shogi.with_fen("4k4/P8/9/9/9/9/9/9/4K4[-] w 0 1").unwrap();
    let m: Vec<String> = moves(&pawn)
        .into_iter()
        .filter(|m| m.starts_with("a8"))
        .collect();
    assert_eq!(m, vec!["a8a9+"]);
    let knight = shogi.with_fen("4k4/9/9/1N7/9/9/9/9/4K4[-] w 0 1").unwrap();
    let mut m: Vec<String> = moves(&knight)
        .into_iter()
        .filter(|m| m.starts_with("b6"))
        .collect();
    m.sort();
    assert_eq!(m, vec!["b6a8+", "b6c8+"]);
    // Entering the camp with a silver: promotion is optional.
    let silver = shogi.with_fen("4k4/9/9/4S4/9/9/9/9/4K4[-] w 0 1").unwrap();
    let m: Vec<String> = moves(&silver)
        .into_iter()
        .filter(|m| m.starts_with("e6e7"))
        .collect();
    assert_eq!(m.len(), 2, "{m:?}");
    // Captured pieces go to the hand demoted.
    let capture = shogi
        .with_fen("4k4/9/9/4+r4/4R4/9/9/9/4K4[-] w 0 1")
        .unwrap();
    let r = replay(&capture, "e5e6").unwrap();
    assert_eq!(
        r.position.in_hand(
            Side::FIRST,
            r.position.tables().variant().piece_by_letter("R").unwrap()
        ),
        1
    );
    assert!(
        r.position.fen().starts_with("4k4/9/9/4R4/9/9/9/9/4K4[R] b"),
        "{}",
        r.position.fen()
    );
}

#[test]
fn chess_special_moves() {
    let chess = start("chess.variant");
    // Castling both ways; not through an attacked square; not out of check.
    let pos = chess
        .with_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
        .unwrap();
    let m = moves(&pos);
    assert!(m.contains(&"e1g1".to_string()) && m.contains(&"e1c1".to_string()));
    let through = chess
        .with_fen("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1")
        .unwrap();
    assert!(!moves(&through).contains(&"e1g1".to_string()));
    // After the rook moves, that right is gone.
    let r = replay(&pos, "1. Rh2 Rh7 2. Rh1 Rh8").unwrap();
    assert!(!moves(&r.position).contains(&"e1g1".to_string()));
    assert!(r.position.fen().contains(" Qq "), "{}", r.position.fen());
    // En passant, and the FEN field it leaves.
    let r = replay(
        &chess.with_fen("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1").unwrap(),
        "d5",
    )
    .unwrap();
    assert!(r.position.fen().contains(" d6 "), "{}", r.position.fen());
    let ep = replay(&r.position, "exd6").unwrap();
    assert_eq!(ep.position.fen(), "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2");
}

#[test]
fn facing_rules_hold_without_check() {
    let text = r#"
variant "Facing"
board 3 x 4
sides white north, black south
piece King K royal
  move step orthogonal
piece Wall W value 1
  move step sideways
rules
  extinction
  facing files
  stalemate loses
setup
  .k.
  ...
  .W.
  .K.
"#;
    let variant = rulebook::load("facing.variant", text).unwrap();
    let pos = Position::new(Tables::compile(&variant, &[]).unwrap());
    // The wall may not leave the file: the kings would face each other.
    let m = moves(&pos);
    assert!(!m.iter().any(|m| m.starts_with("b2")), "{m:?}");
    assert!(m.contains(&"b1a1".to_string()));
}

#[test]
fn castling_onto_a_square_the_king_could_step_to_is_written_king_to_partner() {
    let path = format!(
        "{}/tests/fixtures/valid/options/guards.variant",
        env!("CARGO_MANIFEST_DIR")
    );
    let variant =
        rulebook::load("guards.variant", &std::fs::read_to_string(path).unwrap()).unwrap();
    let pos = Position::new(Tables::compile(&variant, &[]).unwrap());
    let m = moves(&pos);
    // The king's step to b1 and the castling that also ends there are two moves.
    assert_eq!(m.iter().filter(|s| *s == "c1b1").count(), 1, "{m:?}");
    let castle = notation::parse_move(&pos, "c1a1").unwrap();
    assert!(matches!(castle.kind, rulebook::engine::MoveKind::Castle(_)));
    // The rook lands on c1, on the black king's file.
    assert_eq!(notation::san(&pos, &castle), "O-O-O+");
    // Without the option the castling does not exist.
    let off = Position::new(Tables::compile(&variant, &[("long-range".into(), false)]).unwrap());
    assert!(!moves(&off).contains(&"c1a1".to_string()));
}

#[test]
fn the_engine_finds_a_mate_in_one() {
    let pos = start("chess.variant")
        .with_fen("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
        .unwrap();
    let found = rulebook::engine::search::best_move(&pos, 2, 100_000);
    let m = found.best.unwrap();
    assert_eq!(notation::san(&pos, &m), "Ra8#");
    assert!(found.score > 900_000);
}

/// White's win by the `when` rule of this index.
fn white_wins(rule: u16) -> Option<Outcome> {
    Some(Outcome::win(Side::FIRST, 2, Reason::Condition(rule)))
}

fn compile(name: &str, text: &str) -> Position {
    let variant = rulebook::load(name, text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    Position::new(Tables::compile(&variant, &[]).unwrap())
}

/// Two knights each on a small board, a goal square, and a rule header to vary.
fn goal_game(rule: &str) -> Position {
    compile(
        "goal.variant",
        &format!(
            r#"
variant "Goal"
board 5 x 5
sides white north, black south
zone goal = b3
piece Knight N
  move leap (1,2)
rules
  {rule}
setup
  n...n
  .....
  .....
  .....
  N...N
"#
        ),
    )
}

#[test]
fn a_to_move_goal_waits_for_the_reply() {
    let pos = goal_game("when at least 1 Knight in goal wins, to move");
    // White reaches the goal: Black may reply (and could take it back off), so the game goes on.
    let r = replay(&pos, "1. Nb3").unwrap();
    assert_eq!(r.outcome, None);
    assert!(!r.position.legal_moves().is_empty());
    let r = replay(&pos, "1. Nb3 Nxb3").unwrap();
    assert_eq!(r.outcome, None);
    // Black's reply does not touch the knight: White, to move, wins.
    let r = replay(&pos, "1. Nb3 Nd3").unwrap();
    assert_eq!(r.outcome, white_wins(0));
    assert!(r.position.legal_moves().is_empty());
    // The same rule asked of both sides ends the game at once.
    let r = replay(&goal_game("when at least 1 Knight in goal wins"), "1. Nb3").unwrap();
    assert_eq!(r.outcome, white_wins(0));
}

#[test]
fn count_bounds_and_just_moved() {
    // At most one knight left loses, but only for the side that just moved.
    let pos = compile(
        "bare.variant",
        r#"
variant "Bare"
board 5 x 5
sides white north, black south
piece Knight N
  move leap (1,2)
rules
  when at most 1 Knight loses, just moved
  stalemate loses
setup
  ....n
  ..n..
  .....
  .N...
  N....
"#,
    );
    assert_eq!(pos.outcome(), None);
    // White takes one of Black's two knights: Black has one, but White moved last.
    let r = replay(&pos, "1. Nxc4").unwrap();
    assert_eq!(r.outcome, None);
    // Black moves its lone knight: now it is the side that just moved, with at most one.
    let r = replay(&pos, "1. Nxc4 Nd3").unwrap();
    assert_eq!(r.outcome, white_wins(0));
    // `at least`: three or more knights on the board win.
    let pos = goal_game("when at least 2 Knight wins");
    assert!(pos.outcome().is_some());
    let pos = goal_game("when at least 3 Knight wins");
    assert_eq!(pos.outcome(), None);
}

#[test]
fn castling_for_one_side() {
    let pos = compile(
        "horde-like.variant",
        r#"
variant "One castles"
board 5 x 5
sides white north, black south
piece King K royal
  move step any
piece Rook R
  move slide orthogonal
piece Pawn P
  move step forward
rules
  checkmate
  when 4 Pawn wins
castling King c5 to d5 with Rook e5 to c5, for black
setup
  ..k.r
  .....
  .....
  .....
  PPP..
"#,
    );
    let mut pos = pos.with_fen("2k1r/5/5/5/PPP2 b k - 0 1").unwrap();
    assert!(
        moves(&pos).iter().any(|m| m == "c5e5" || m == "c5d5"),
        "{:?}",
        moves(&pos)
    );
    assert_eq!(pos.fen().split(' ').nth(2), Some("k"));
    pos = pos.with_fen("2k1r/5/5/5/PPP2 w - - 0 1").unwrap();
    assert_eq!(pos.fen().split(' ').nth(2), Some("-"));
}

#[test]
fn must_capture_keeps_only_captures() {
    let text = r#"
variant "Takers"
board 4 x 4
sides white north, black south
piece Rook R
  move slide orthogonal
rules
  must capture
  when 0 Rook wins
  stalemate wins
setup
  ...r
  ....
  ....
  R..R
"#;
    let pos = compile("takers.variant", text);
    // The rook on d1 can take on d4; nothing else may be played.
    assert_eq!(moves(&pos), ["d1d4"]);
    // With nothing to take every move is open.
    let r = replay(&pos, "1. Rxd4").unwrap();
    assert!(r.position.legal_moves().is_empty());
    assert_eq!(
        r.outcome,
        Some(Outcome::win(Side::SECOND, 2, Reason::Condition(0)))
    );
    let quiet = pos.with_fen("3r/4/4/R3 w - - 0 1").unwrap();
    assert_eq!(quiet.legal_moves().len(), 6);
}

#[test]
fn checkmate_may_win_for_the_mated_side() {
    let text = r#"
variant "Losing mate"
board 4 x 4
sides white north, black south
piece King K royal
  move step any
piece Rook R
  move slide orthogonal
rules
  checkmate wins
setup
  k...
  .R..
  ..K.
  ...R
"#;
    let pos = compile("losing-mate.variant", text);
    let r = replay(&pos, "1. Rd4").unwrap();
    assert!(r.position.in_check());
    assert_eq!(
        r.outcome,
        Some(Outcome::win(Side::SECOND, 2, Reason::Checkmate))
    );
}

#[test]
fn only_the_last_royal_is_guarded() {
    let pos = common::start_of("definitions/library/shoshogi.variant");
    let sorted_moves = |fen: &str| {
        let p = pos.with_fen(fen).unwrap();
        let mut m = moves(&p);
        m.sort();
        m
    };
    // As pyffish.legal_moves("shoshogi", fen, []) lists them: with king and prince, the king
    // may step onto the rook's rank and the prince may stay on it; with the king alone, not.
    assert_eq!(
        sorted_moves("4k4/9/9/9/9/9/9/r3+E4/4K4 w - - 0 1"),
        ["e1d1", "e1d2", "e1f1", "e1f2", "e2d1", "e2d2", "e2d3", "e2e3", "e2f1", "e2f2", "e2f3"]
    );
    assert_eq!(
        sorted_moves("4k4/9/9/9/9/9/9/r8/4K4 w - - 0 1"),
        ["e1d1", "e1f1"]
    );
    // Losing both royals loses.
    let r = replay(
        &pos.with_fen("4k4/9/9/9/9/9/9/9/r3K4 b - - 0 1").unwrap(),
        "1... Rxe1",
    )
    .unwrap();
    assert_eq!(
        r.outcome,
        Some(Outcome::win(Side::SECOND, 2, Reason::Extinction))
    );
}

#[test]
fn safe_counts_skip_attacked_pieces() {
    // White's knight reaches b3; Black's knight on a5 attacks b3, the one on e5 does not.
    let r = replay(&goal_game("when 1 safe Knight in goal wins"), "1. Nb3").unwrap();
    assert_eq!(r.outcome, None);
    // Once Black moves the attacker away without taking, the knight on b3 is safe.
    let r = replay(&goal_game("when 1 safe Knight in goal wins"), "1. Nb3 Nac4").unwrap();
    assert_eq!(r.outcome, white_wins(0));
}

#[test]
fn drops_even_where_stuck() {
    let text = |clause: &str| {
        format!(
            r#"
variant "Stuck drops"
board 3 x 3
sides white north, black south
piece King K royal
  move step any
piece Pawn P
  move step forward
  {clause}
rules
  checkmate
  drops
setup "k2/3/2K"
"#
        )
    };
    let count_drops = |clause: &str| {
        let pos = compile("stuck.variant", &text(clause))
            .with_fen("k2/3/2K[P] w - - 0 1")
            .unwrap();
        pos.legal_moves().iter().filter(|m| m.is_drop()).count()
    };
    // Seven empty squares, two of them on the last rank, where a pawn could never move: it
    // may not be dropped there unless the clause says it may.
    assert_eq!(count_drops(""), 5);
    assert_eq!(count_drops("drop even where stuck"), 7);
}

#[test]
fn patterns_guarded_by_check() {
    let text = r#"
variant "Check guards"
board 5 x 5
sides white north, black south
piece King K royal
  move not in check: step any
  move in check: leap (2,2)
piece Rook R
  move slide orthogonal
rules
  checkmate
setup
  .k...
  .....
  .....
  .....
  K...r
"#;
    let pos = compile("check-guards.variant", text);
    // In check from the rook on e1: only the guarded leap is open to the king.
    assert!(pos.in_check());
    assert_eq!(moves(&pos), ["a1c3"]);
    // Out of check, the steps and not the leap (the rook on e2 guards a2 and b2).
    let calm = pos.with_fen("1k3/5/5/4r/K4 w - - 0 1").unwrap();
    let mut m = moves(&calm);
    m.sort();
    assert_eq!(m, ["a1b1"]);
    // Attacks ignore the guard: Black's king, not in check, still attacks with its leap.
    let attacked = pos.with_fen("4k/5/5/5/K3r w - - 0 1").unwrap();
    assert!(moves(&attacked).is_empty());
}

#[test]
fn hands_at_the_start_and_drops_without_captures() {
    let text = |rule: &str| {
        format!(
            r#"
variant "Pockets"
board 4 x 4
sides white north, black south
piece King K royal
  move step any
piece Knight N
  move leap (1,2)
piece Rook R
  move slide orthogonal
rules
  checkmate
  {rule}
setup
  r..k
  ....
  ....
  R.K.
  [Nn]
"#
        )
    };
    let pos = compile("pockets.variant", &text("drops without captures"));
    assert_eq!(pos.fen(), "r2k/4/4/R1K1[Nn] w - - 0 1");
    // The knight in hand may be dropped on any empty square.
    assert_eq!(pos.legal_moves().iter().filter(|m| m.is_drop()).count(), 12);
    // A capture does not fill the hand.
    let r = replay(&pos, "1. Rxa4").unwrap();
    assert_eq!(r.position.fen(), "R2k/4/4/2K1[Nn] b - - 0 1");
    // With plain `drops` the captured rook goes to White's hand.
    let r = replay(&compile("pockets.variant", &text("drops")), "1. Rxa4").unwrap();
    assert_eq!(r.position.fen(), "R2k/4/4/2K1[NRn] b - - 0 1");
}

/// Two kings racing to the top rank of a 4x4 board, with a rook each that may not check.
fn race(fen: &str) -> Position {
    compile(
        "race.variant",
        r#"
variant "Race"
board 4 x 4
sides white north, black south
zone goal = rank 4
piece King K royal
  move step any
piece Rook R
  move slide orthogonal
rules
  checkmate
  checks forbidden
  when 1 King in goal and 1 enemy King in goal draws
  when 1 King in goal wins, unless answered
setup "4/4/R2r/K2k"
"#,
    )
    .with_fen(fen)
    .unwrap()
}

#[test]
fn checks_forbidden_removes_checking_moves() {
    let pos = race("4/4/R2r/K2k w - - 0 1");
    // Taking the rook on d2 would attack Black's king on d1: forbidden. Every other move
    // stays (b2 is the black rook's, so the king has only b1).
    let mut m = moves(&pos);
    m.sort();
    assert_eq!(m, ["a1b1", "a2a3", "a2a4", "a2b2", "a2c2"]);
    // Without the rule the capture is legal.
    let free = pos.fen();
    let plain = compile(
        "race.variant",
        r#"
variant "Race"
board 4 x 4
sides white north, black south
piece King K royal
  move step any
piece Rook R
  move slide orthogonal
rules
  checkmate
setup "4/4/R2r/K2k"
"#,
    )
    .with_fen(&free)
    .unwrap();
    assert!(moves(&plain).iter().any(|m| m == "a2d2"));
}

#[test]
fn a_goal_reached_first_may_be_answered() {
    // White reaches the top rank; Black's king can reach it too, so the game goes on.
    let pos = race("4/1K1k/4/R2r w - - 0 1");
    let r = replay(&pos, "1. Kb4").unwrap();
    assert_eq!(r.outcome, None);
    // Black answers: both kings home, a draw.
    let both = replay(&pos, "1. Kb4 Kd4").unwrap();
    assert_eq!(both.outcome, Some(Outcome::draw(2, Reason::Condition(0))));
    // Black does not answer: White wins.
    let late = replay(&pos, "1. Kb4 Kc2").unwrap();
    assert_eq!(late.outcome, white_wins(1));
    // Black cannot answer (its king is two ranks away): White wins at once.
    let far = race("4/1K2/3k/R2r w - - 0 1");
    let r = replay(&far, "1. Kb4").unwrap();
    assert_eq!(r.outcome, white_wins(1));
    // Black, second to move, reaching first wins at once: White had its move.
    let black = race("4/1K1k/4/R2r b - - 0 1");
    let r = replay(&black, "1... Kd4").unwrap();
    assert_eq!(
        r.outcome,
        Some(Outcome::win(Side::SECOND, 2, Reason::Condition(1)))
    );
}

#[test]
fn capturing_the_checker_only() {
    let text = r#"
variant "Checker"
board 4 x 4
sides white north, black south
piece King K royal
  move not in check: step any
  move in check: step any, capture-only, capturing checker
piece Rook R
  move slide orthogonal
rules
  checkmate
setup "k3/4/1r2/K1r1"
"#;
    // White's king on a1 is checked by the rook on c1 (out of its reach); it may not step
    // away, nor take the rook on b2, which does not give check: no move at all.
    let pos = compile("checker.variant", text);
    assert!(pos.in_check());
    assert!(moves(&pos).is_empty());
    // With the checker on b1, next to the king, taking it is the one move.
    let near = pos.with_fen("k3/4/4/Kr2 w - - 0 1").unwrap();
    assert_eq!(moves(&near), ["a1b1"]);
    // Under a double check no capture is allowed.
    let double = pos.with_fen("k3/4/r3/Kr2 w - - 0 1").unwrap();
    assert!(moves(&double).is_empty());
}

#[test]
fn a_decisive_stalemate_is_a_way_to_win() {
    // Stones that only capture orthogonally: White's capture leaves Black without a move.
    let pos = compile(
        "stones.variant",
        r#"
variant "Stones"
board 3 x 1
sides white north, black south
piece Stone P
  move step orthogonal, capture-only
rules
  stalemate loses
setup
  Pp.
"#,
    );
    assert_eq!(moves(&pos), ["a1b1"]);
    let r = replay(&pos, "1. a1b1").unwrap();
    assert_eq!(r.outcome, Some(Outcome::win(RED, 2, Reason::Stalemate)));
    // A draw on stalemate alone decides nothing: still refused.
    let drawn = "variant \"D\"\nboard 3 x 1\nsides white north, black south\npiece Stone P\n  move step orthogonal\nrules\n  stalemate draws\nsetup\n  Pp.\n";
    assert!(rulebook::load("d.variant", drawn).is_err());
}

#[test]
fn captures_explode() {
    let atomic = common::start_of("definitions/library/atomic.variant");
    // Nxd7 explodes on d7: the knight, the bishop on d7 and the queen on e8 go; the pawns on
    // c7 and e7 stay (pawns are spared by explosions next to them).
    let pos = atomic
        .with_fen("k3q3/2pbp3/8/4N3/8/8/8/4K3 w - - 0 1")
        .unwrap();
    let r = replay(&pos, "1. e5d7").unwrap();
    assert_eq!(
        r.position.fen(),
        "k7/2p1p3/8/8/8/8/8/4K3 b - - 0 1",
        "the knight, the bishop and the queen are gone, the pawns stay"
    );
    // A capture next to one's own king would blow it up: not a legal move. Here the rook on
    // d1 may not take d2, next to its king on e1.
    let own = atomic.with_fen("k7/8/8/8/8/8/q2n4/3RK3 w - - 0 1").unwrap();
    let listed = moves(&own);
    assert!(listed.contains(&"d1c1".to_string()), "{listed:?}");
    assert!(!listed.contains(&"d1d2".to_string()), "{listed:?}");
    // A king next to the enemy king is not in check: the rook on a1 attacks e1, but taking
    // the king there would blow up the black king on d2 too.
    let touching = atomic.with_fen("8/8/8/8/8/8/3k4/r3K3 w - - 0 1").unwrap();
    assert!(!touching.in_check());
    // Blowing up the enemy king wins at once.
    let win = atomic.with_fen("4k3/4p3/8/8/8/8/8/4RK2 w - - 0 1").unwrap();
    let r = replay(&win, "1. e1e7").unwrap();
    assert_eq!(r.outcome.map(|o| o.reason), Some(Reason::Extinction));
    // Atomar: an explosion never removes a king, and a king captures (surviving) anything but
    // the other king.
    let atomar = common::start_of("definitions/library/atomar.variant");
    let pos = atomar.with_fen("8/8/8/8/8/3k4/3p4/3K4 w - - 0 1").unwrap();
    let r = replay(&pos, "1. d1d2").unwrap();
    assert_eq!(r.position.fen(), "8/8/8/8/8/3k4/3K4/8 b - - 0 1");
    let kings = atomar.with_fen("8/8/8/8/8/8/3k4/3K4 w - - 0 1").unwrap();
    assert!(!moves(&kings).contains(&"d1d2".to_string()));
}
