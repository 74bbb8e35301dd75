//! Games of more than two sides, on their own: Four Winds
//! (`tests/fixtures/valid/sides/four_winds.variant`), four sides at the edges of a 6x6 board,
//! kings that may be taken, cut-throat or (`--option teams`) two against two. Its figures
//! come from a second move generator written from the game's rules alone
//! (`four_winds_games.txt`).

use crate::common::rulebook_with_input;
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

fn play(pos: &mut Position, moves: &str) {
    for text in moves.split_whitespace() {
        let m = notation::parse_move(pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.play(m);
    }
}

fn side(pos: &Position, name: &str) -> Side {
    let sides = pos.tables().variant().sides();
    Side::from_index(sides.iter().position(|s| s.name == name).unwrap()).unwrap()
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
    let greens_turn = pos.with_fen(&fen.replace(" y ", " g ")).unwrap();
    assert!(greens_turn.legal_moves().is_empty());
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
