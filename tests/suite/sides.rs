//! Games of more than two sides, on their own: Four Winds
//! (`tests/fixtures/valid/sides/four_winds.variant`), four sides at the edges of a 6x6 board,
//! kings that may be taken, cut-throat or (`--option teams`) two against two. Its figures
//! come from a second move generator written from the game's rules alone
//! (`four_winds_games.txt`).

use crate::common::rulebook_with_input;
use crate::common::{play, side};
use rulebook::engine::search::{Engine, Limits};
use rulebook::engine::{notation, perft, Position};
use rulebook::model::{Side, Tables, Verdict};

const PATH: &str = "tests/fixtures/valid/sides/four_winds.variant";

fn start(teams: bool) -> Position {
    let full = format!("{}/{PATH}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(full).unwrap();
    let variant = rulebook::load(PATH, &text).unwrap();
    let options = [("teams".to_string(), teams)];
    Position::new(Tables::compile(&variant, &options).unwrap())
}

/// Four Winds with more rule lines.
fn with_rules(rules: &str, teams: bool) -> Position {
    let full = format!("{}/{PATH}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(full).unwrap().replace(
        "rules\n  extinction\n",
        &format!("rules\n  extinction\n  {rules}\n"),
    );
    let variant = rulebook::load(PATH, &text).unwrap();
    let options = [("teams".to_string(), teams)];
    Position::new(Tables::compile(&variant, &options).unwrap())
}

fn name(pos: &Position, side: Side) -> &str {
    &pos.tables().variant().side(side).name
}

#[test]
fn perft_from_the_start_agrees_with_a_second_generator_in_both_modes() {
    for teams in [false, true] {
        let mut pos = start(teams);
        let counts: Vec<u64> = (1..=5).map(|d| perft(&mut pos, d)).collect();
        assert_eq!(counts, [8, 63, 495, 3747, 39362], "teams {teams}");
    }
}

/// Each recorded game: who is to move at its end (the skips on the way agree), or who won,
/// and perft 1 to 3 there.
#[test]
fn random_games_agree_with_a_second_generator_on_turns_results_and_perft() {
    let file = format!(
        "{}/tests/fixtures/valid/sides/four_winds_games.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(file).unwrap();
    let mut games = 0;
    let mut skips = 0;
    let mut over = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        let [moves, who, counts] = parts[..] else {
            panic!("{line}");
        };
        let mut pos = start(false);
        for text in moves.split_whitespace() {
            let before = pos.side_to_move();
            let m = notation::parse_move(&pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            pos.play(m);
            if pos.outcome().is_none() && pos.side_to_move() != pos.next_side(before) {
                skips += 1;
            }
        }
        match who.strip_prefix("over ") {
            Some(winner) => {
                let o = pos.outcome().unwrap_or_else(|| panic!("{moves}: not over"));
                assert_eq!(o.winner().map(|s| name(&pos, s)), Some(winner), "{moves}");
                over += 1;
            }
            None => {
                assert!(pos.outcome().is_none(), "{moves}");
                assert_eq!(name(&pos, pos.side_to_move()), who, "{moves}");
            }
        }
        let want: Vec<u64> = counts.split(' ').map(|n| n.parse().unwrap()).collect();
        let got: Vec<u64> = (1..=3).map(|d| perft(&mut pos, d)).collect();
        assert_eq!(got, want, "{moves}");
        games += 1;
    }
    assert_eq!(games, 20);
    assert!(skips > 0 && over > 0, "{skips} skips, {over} games over");
}

#[test]
fn sides_move_in_the_order_written_and_zones_turn_to_each_facing() {
    let mut pos = start(false);
    let order: Vec<String> = (0..5)
        .map(|_| {
            let who = name(&pos, pos.side_to_move()).to_string();
            let m = pos.legal_moves()[0];
            pos.play(m);
            who
        })
        .collect();
    assert_eq!(order, ["red", "blue", "yellow", "green", "red"]);
    // `zone goal = rank 6, rotated`, written for red facing north: each side's far edge.
    let t = pos.tables();
    let g = t.geometry();
    let goal = t.variant().zone_by_name("goal").unwrap();
    let squares = |s: &str| -> Vec<String> {
        let set = t.variant().zones()[goal.index()].squares[side(&pos, s).index()];
        set.iter().map(|sq| g.name(sq).to_string()).collect()
    };
    assert_eq!(squares("red"), ["a6", "b6", "c6", "d6", "e6", "f6"]);
    assert_eq!(squares("blue"), ["f1", "f2", "f3", "f4", "f5", "f6"]);
    assert_eq!(squares("yellow"), ["a1", "b1", "c1", "d1", "e1", "f1"]);
    assert_eq!(squares("green"), ["a1", "a2", "a3", "a4", "a5", "a6"]);
}

#[test]
fn fen_tags_each_piece_with_its_side_and_reads_back() {
    let mut pos = start(false);
    assert_eq!(
        pos.fen(),
        "2yRyK2/2yPyP2/bKbP2gPgR/bRbP2gPgK/2rPrP2/2rKrR2 r - - 0 1"
    );
    play(&mut pos, "d2d3 b3c3 d5d4");
    let fen = pos.fen();
    // Pawn moves do not reset the clock here: no `resets clock` in this game.
    assert_eq!(
        fen,
        "2yRyK2/2yP3/bKbP1yPgPgR/bR1bPrPgPgK/2rP3/2rKrR2 g - - 3 1"
    );
    let again = pos.with_fen(&fen).unwrap();
    assert_eq!(again.fen(), fen);
    assert_eq!(again.legal_moves(), pos.legal_moves());
    // Case says nothing here: a piece without its side's initial is refused.
    let err = pos.with_fen("2YRYK2/6/6/6/6/2rKrR2 r - - 0 1").unwrap_err();
    assert!(err.to_string().contains("initial"), "{err}");
}

#[test]
fn a_side_without_a_king_is_out_but_plays_on_and_a_stuck_side_is_passed_over() {
    let pos = start(false);
    // Blue has lost its king: it is out of the running, and still moves its rook.
    let out = pos
        .with_fen("2yRyK2/2yPyP2/1bP2gPgR/bR4gK/2rPrP2/2rKrR2 b - - 0 1")
        .unwrap();
    assert!(out.outcome().is_none());
    let moves: Vec<String> = out
        .legal_moves()
        .iter()
        .map(|m| notation::coord(&out, m))
        .collect();
    assert!(moves.contains(&"a3a1".to_string()), "{moves:?}");
    // Green's king is walled in by its own pawns, which cannot move (a pawn facing west on
    // the a-file, pawns blocked by their own pieces); blue has no piece at all. After
    // yellow's move the turn passes over green (and blue) to red.
    let fen = "5yK/6/6/5rK/gPgP4/gKgP4 y - - 0 1";
    let mut stuck = pos.with_fen(fen).unwrap();
    let green = side(&stuck, "green");
    // A position set up with green to move hands the turn on at once.
    let greens_turn = pos.with_fen(&fen.replace(" y ", " g ")).unwrap();
    assert_eq!(name(&greens_turn, greens_turn.side_to_move()), "red");
    play(&mut stuck, "f6e6");
    assert_ne!(stuck.side_to_move(), green);
    assert_eq!(name(&stuck, stuck.side_to_move()), "red");
    assert!(stuck.outcome().is_none());
    assert_eq!(stuck.fullmove_number(), 2);
}

#[test]
fn the_last_side_or_team_holding_a_king_wins() {
    // Cut-throat: only red keeps its king.
    let pos = start(false);
    let over = pos
        .with_fen("2yR3/6/bP5/5gR/2rPrP2/2rKrR2 y - - 0 1")
        .unwrap();
    let o = over.outcome().unwrap();
    assert_eq!(o.winner(), Some(side(&over, "red")));
    assert!(over.legal_moves().is_empty());
    // Teams: red and yellow hold kings, blue and green none: red and yellow both win.
    let teams = start(true);
    let fen = "2yRyK2/6/bP5/5gR/2rPrP2/2rKrR2 g - - 0 1";
    let o = teams.with_fen(fen).unwrap().outcome().unwrap();
    let results: Vec<Verdict> = ["red", "blue", "yellow", "green"]
        .iter()
        .map(|s| o.result(side(&teams, s)))
        .collect();
    assert_eq!(
        results,
        [Verdict::Win, Verdict::Loss, Verdict::Win, Verdict::Loss]
    );
    // Cut-throat, the same position is not over: red and yellow play on against each other.
    assert!(pos.with_fen(fen).unwrap().outcome().is_none());
}

/// The paranoid search returns a legal move for whichever side is to move, and takes a king
/// it can take when that ends the game.
#[test]
fn the_search_plays_for_every_side() {
    let mut pos = start(false);
    let mut engine = Engine::new(&pos, 1);
    let limits = Limits {
        depth: Some(3),
        ..Default::default()
    };
    for _ in 0..8 {
        let (best, _) = engine.search(&pos, &limits, &mut |_| {});
        let best = best.unwrap();
        assert!(pos.legal_moves().contains(&best));
        pos.play(best);
    }
    // Yellow to move can take red's king, the last one but its own: it wins at once.
    let end = start(false)
        .with_fen("2yRyK2/6/bP5/5gR/2rP3/2rKyR2 y - - 0 1")
        .unwrap();
    let (best, _) = Engine::new(&end, 1).search(&end, &limits, &mut |_| {});
    assert_eq!(notation::coord(&end, &best.unwrap()), "d1c1");
}

/// `play --computer` takes several sides: after the person's move the engine answers for
/// each of them in turn, and `undo` takes back its replies with the move.
#[test]
fn play_lets_the_engine_take_any_set_of_sides() {
    let (text, _, _) = rulebook_with_input(
        &[
            "play",
            PATH,
            "--computer",
            "blue,yellow,green",
            "--depth",
            "1",
        ],
        "c2c3\nundo\nfen\nquit\n",
    );
    for line in [
        "1... blue plays",
        "1... yellow plays",
        "1... green plays",
        "2. red to move",
    ] {
        assert!(text.contains(line), "{line}:\n{text}");
    }
    assert!(
        text.contains("2yRyK2/2yPyP2/bKbP2gPgR/bRbP2gPgK/2rPrP2/2rKrR2 r - - 0 1"),
        "{text}"
    );
}

/// `replay` reads a record of a game of four sides, with its skips, to its result.
#[test]
fn replay_follows_a_four_side_game_to_its_result() {
    let file = format!(
        "{}/tests/fixtures/valid/sides/four_winds_games.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(file).unwrap();
    let game = text
        .lines()
        .find(|l| l.contains("| over red |"))
        .and_then(|l| l.split('|').next())
        .unwrap();
    let (text, _, _) = rulebook_with_input(&["replay", PATH, "-"], game);
    assert!(
        text.ends_with("result: no royal piece left, red wins\n"),
        "{text}"
    );
}

/// The pieces of a side that loses its king leave the board with `eliminated pieces
/// removed`, and come back when the move is taken back.
#[test]
fn eliminated_pieces_removed_leave_the_board_and_come_back_on_undo() {
    let pos = with_rules("eliminated pieces removed", false);
    let mut p = pos.with_fen("5yK/6/bK5/1bR4/6/rR1rK2gK r - - 0 1").unwrap();
    let before = (p.fen(), p.hash());
    play(&mut p, "a1a4");
    assert_eq!(p.fen(), "5yK/6/rR5/6/6/2rK2gK y - - 0 1");
    assert!(p.is_out(side(&p, "blue")));
    let incremental = p.hash();
    assert_eq!(p.with_fen(&p.fen()).unwrap().hash(), incremental);
    p.undo_move();
    assert_eq!((p.fen(), p.hash()), before);
    // Without the rule the rook stays, and blue, out of the running, plays it on.
    let mut on = with_rules("eliminated pieces play on", false)
        .with_fen("5yK/6/bK5/1bR4/6/rR1rK2gK r - - 0 1")
        .unwrap();
    play(&mut on, "a1a4");
    assert_eq!(name(&on, on.side_to_move()), "blue");
    assert!(on.is_out(side(&on, "blue")));
}

/// Frozen pieces stay as obstacles that neither move nor attack, and may be taken.
#[test]
fn eliminated_pieces_frozen_neither_move_nor_attack() {
    let fen = "5yK/6/6/1bR4/6/2rK2gK r - - 0 1";
    let moves = |rule: &str| -> Vec<String> {
        let p = with_rules(&format!("checkmate\n  {rule}"), false)
            .with_fen(fen)
            .unwrap();
        p.legal_moves()
            .iter()
            .map(|m| notation::coord(&p, m))
            .collect()
    };
    // Blue, without its king, is out: its rook on b3 guards b1 and b2 only while it plays on.
    let frozen = moves("eliminated pieces frozen");
    assert!(frozen.contains(&"c1b2".to_string()), "{frozen:?}");
    let playing = moves("eliminated pieces play on");
    assert!(!playing.contains(&"c1b2".to_string()), "{playing:?}");
    // Blue's turn is passed over: after red, yellow moves; the rook may be taken.
    let mut p = with_rules("eliminated pieces frozen", false)
        .with_fen("5yK/6/6/1bR4/6/1rR2gKrK r - - 0 1")
        .unwrap();
    play(&mut p, "b1b3");
    assert_eq!(name(&p, p.side_to_move()), "yellow");
    assert_eq!(p.fen(), "5yK/6/6/1rR4/6/4gKrK y - - 0 1");
}

/// `stalemate loses` with more sides: a side with no move on its turn is out, and the others
/// play on; `stalemate draws` ends the game there.
#[test]
fn a_stuck_side_is_out_or_draws_the_game_as_the_stalemate_rule_says() {
    let fen = "5yK/6/6/5rK/gPgP4/gKgP4 y - - 0 1";
    let mut p = with_rules("stalemate loses", false).with_fen(fen).unwrap();
    let before = p.fen();
    play(&mut p, "f6e6");
    assert!(p.is_out(side(&p, "green")));
    assert_eq!(name(&p, p.side_to_move()), "red");
    assert!(p.outcome().is_none());
    assert_eq!(p.fen(), "4yK1/6/6/5rK/gPgP4/gKgP4 r - - 1 2 out:g");
    assert_eq!(p.with_fen(&p.fen()).unwrap().fen(), p.fen());
    p.undo_move();
    assert_eq!(p.fen(), before);
    assert!(!p.is_out(side(&p, "green")));
    // With teams, green's partner blue is out already: red and yellow win.
    let mut t = with_rules("stalemate loses", true).with_fen(fen).unwrap();
    play(&mut t, "f6e6");
    let o = t.outcome().unwrap();
    let winners: Vec<&str> = ["red", "blue", "yellow", "green"]
        .into_iter()
        .filter(|n| o.result(side(&t, n)) == Verdict::Win)
        .collect();
    assert_eq!(winners, ["red", "yellow"]);
    // `stalemate draws`: green's turn, no move, the game is drawn.
    let mut d = with_rules("stalemate draws", false).with_fen(fen).unwrap();
    play(&mut d, "f6e6");
    assert_eq!(name(&d, d.side_to_move()), "green");
    assert!(d.outcome().unwrap().is_draw());
    assert!(d.legal_moves().is_empty());
}

/// Pictures of a game of more sides name the players: in the text board, as a legend under
/// the SVG board, and in the JSON of a diagram, each with its colour and state.
#[test]
fn pictures_name_the_players_their_turn_their_partners_and_who_is_out() {
    let (text, _, code) = rulebook_with_input(&["board", PATH, "--option", "teams"], "");
    assert_eq!(code, 0);
    assert!(
        text.contains(
            "players in turn order: red, to move, with yellow; blue, with green; \
             yellow, with red; green, with blue"
        ),
        "{text}"
    );
    let fen = "5yK/6/bK5/1bR4/6/rR1rK2gK r - - 0 1";
    let args = [
        "board", PATH, "--fen", fen, "--moves", "a1a4", "--format", "svg",
    ];
    let (svg, _, _) = rulebook_with_input(&args, "");
    assert!(svg.contains(">blue, to move, out</text>"), "{svg}");
    assert!(svg.contains(">red</text>"), "{svg}");
    let args = [
        "diagram", PATH, "--piece", "Rook", "--at", "a1", "--fen", fen, "--format", "json",
    ];
    let (json, _, _) = rulebook_with_input(&args, "");
    let info: serde_json::Value = serde_json::from_str(&json).unwrap();
    let players = info["players"].as_array().unwrap();
    let names: Vec<&str> = players
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["red", "blue", "yellow", "green"]);
    assert_eq!(players[0]["colour"], "#c62828");
    assert_eq!(players[0]["to_move"], true);
    // A two-side diagram has no players field: its JSON stays as it was.
    let args = [
        "diagram",
        "definitions/chess.variant",
        "--piece",
        "Rook",
        "--at",
        "d4",
        "--format",
        "json",
    ];
    let (json, _, _) = rulebook_with_input(&args, "");
    assert!(!json.contains("players"), "{json}");
}
