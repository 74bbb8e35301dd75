//! Gala Xiang-Qi for four players (`definitions/gala-xiangqi-four.variant`): cut-throat, and
//! the two team games. Each test quotes the sentence of the seed page (seed 000), or of the
//! rulings where the page is silent, that it proves. Perft counts are in the perft suite
//! (`tests/perft/gala-xiangqi-four*.toml`).

use crate::common::{play, side};
use rulebook::engine::{notation, Position};
use rulebook::model::{Side, Tables, Verdict};

const PATH: &str = "definitions/gala-xiangqi-four.variant";

/// The three games: cut-throat, `teams` (partners across), `teams` + `shared-border`.
#[derive(Clone, Copy)]
enum Mode {
    CutThroat,
    Teams,
    SharedBorder,
}

fn start(mode: Mode) -> Position {
    let full = format!("{}/{PATH}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(full).unwrap();
    let variant = rulebook::load(PATH, &text).unwrap();
    let (teams, shared) = match mode {
        Mode::CutThroat => (false, false),
        Mode::Teams => (true, false),
        Mode::SharedBorder => (true, true),
    };
    let options = [
        ("teams".to_string(), teams),
        ("shared-border".to_string(), shared),
    ];
    Position::new(Tables::compile(&variant, &options).unwrap())
}

/// A position with these pieces (`("a1", "rK")`) and `to_move` (an initial) to move.
fn position(mode: Mode, pieces: &[(&str, &str)], to_move: &str) -> Position {
    let mut rows = vec![vec![String::new(); 16]; 16];
    for (sq, piece) in pieces {
        let file = usize::from(sq.as_bytes()[0] - b'a');
        let rank: usize = sq[1..].parse().unwrap();
        rows[16 - rank][file] = (*piece).to_string();
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
    let fen = format!("{} {to_move} - - 0 1", board.join("/"));
    start(mode).with_fen(&fen).unwrap()
}

/// The four kings in their corners, which every test below adds to.
const KINGS: [(&str, &str); 4] = [("a1", "rK"), ("a16", "bK"), ("p16", "yK"), ("p1", "gK")];

fn with_kings<'a>(more: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut all = KINGS.to_vec();
    all.extend_from_slice(more);
    all
}

/// The legal moves from `from`, in coordinates, sorted.
fn moves_from(pos: &Position, from: &str) -> Vec<String> {
    let mut out: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| notation::coord(pos, m))
        .filter(|m| {
            m.starts_with(from) && !m[from.len()..].starts_with(|c: char| c.is_ascii_digit())
        })
        .collect();
    out.sort();
    out
}

fn name(pos: &Position, s: Side) -> String {
    pos.tables().variant().side(s).name.clone()
}

/// The winners of a finished game, by name.
fn winners(pos: &Position) -> Vec<String> {
    let o = pos.outcome().expect("the game is over");
    ["red", "blue", "yellow", "green"]
        .iter()
        .filter(|n| o.result(side(pos, n)) == Verdict::Win)
        .map(|n| (*n).to_string())
        .collect()
}

/// "Note, that in cut-throat four-player game all Castles, expect for home one, are hostile":
/// a red pawn in the north-east Castle steps any orthogonal way in cut-throat; in the team
/// game that Castle is its partner's, friendly, where a pawn only steps onto the Road.
#[test]
fn in_cut_throat_every_castle_but_home_is_hostile_to_pawns_and_soldiers() {
    let pieces = with_kings(&[("j12", "rP"), ("j13", "rS")]);
    let cut = position(Mode::CutThroat, &pieces, "r");
    assert_eq!(moves_from(&cut, "j12"), ["j12i12", "j12j11", "j12k12"]);
    assert_eq!(
        moves_from(&cut, "j13"),
        ["j13i12", "j13i14", "j13k12", "j13k14"]
    );
    let teams = position(Mode::Teams, &pieces, "r");
    assert_eq!(moves_from(&teams, "j12"), ["j12i12"]);
    assert_eq!(moves_from(&teams, "j13"), ["j13i12"]);
}

/// Ruling "Between strip": red and green own h1-i7, "binding only the owning pair's pawns and
/// soldiers": there a red pawn takes the two forward diagonals, and cannot enter the strip
/// from other Road squares; for blue the strip is ordinary hostile Road.
#[test]
fn the_between_strip_binds_only_its_owners_pawns_in_the_shared_border_game() {
    let red = position(
        Mode::SharedBorder,
        &with_kings(&[("h5", "rP"), ("g8", "rP")]),
        "r",
    );
    assert_eq!(moves_from(&red, "h5"), ["h5g6", "h5i6"]);
    assert_eq!(moves_from(&red, "g8"), ["g8f9", "g8h9"]);
    let blue = position(Mode::SharedBorder, &with_kings(&[("h5", "bP")]), "b");
    assert_eq!(moves_from(&blue, "h5"), ["h5g4", "h5g6", "h5i4", "h5i6"]);
    // Partners across (no strip): the same red pawn on h5 steps as on any friendly Road.
    let teams = position(Mode::Teams, &with_kings(&[("h5", "rP")]), "r");
    assert_eq!(moves_from(&teams, "h5"), ["h5i4", "h5i6"]);
}

/// "They can capture opponent's royal pieces distantly": in cut-throat every other player's
/// royal is an opponent's; in the team game the partner's is not, and it still blocks.
#[test]
fn shots_take_only_opponents_royals() {
    let shots = |pos: &Position| -> Vec<String> {
        moves_from(pos, "a1")
            .into_iter()
            .filter(|m| m.ends_with("a1"))
            .collect()
    };
    let cut = position(Mode::CutThroat, &KINGS, "r");
    assert_eq!(shots(&cut), ["a1a16a1", "a1p16a1", "a1p1a1"]);
    let teams = position(Mode::Teams, &KINGS, "r");
    assert_eq!(shots(&teams), ["a1a16a1", "a1p1a1"]);
    // A partner's piece on the line blocks the shot at blue.
    let blocked = position(Mode::Teams, &with_kings(&[("a8", "yR")]), "r");
    assert_eq!(shots(&blocked), ["a1p1a1"]);
}

/// "It's allowed to capture partner's pieces."
#[test]
fn a_partners_piece_may_be_captured() {
    let pos = position(Mode::Teams, &with_kings(&[("c3", "rR"), ("c5", "yP")]), "r");
    assert!(moves_from(&pos, "c3").contains(&"c3c5".to_string()));
}

/// "In four-sided game, player with no royal pieces left, still may move his pieces (untill
/// they all got captured). Even in cut-throat game", and (ruling) a player with no legal move
/// on its turn is skipped.
#[test]
fn a_player_without_royals_moves_on_and_a_player_without_moves_is_skipped() {
    let pieces = [
        ("a1", "rK"),
        ("d4", "rR"),
        ("d6", "bR"),
        ("p16", "yK"),
        ("p1", "gK"),
    ];
    let mut pos = position(Mode::CutThroat, &pieces, "r");
    play(&mut pos, "a1b1");
    assert_eq!(name(&pos, pos.side_to_move()), "blue");
    assert!(pos.is_out(side(&pos, "blue")));
    assert!(!moves_from(&pos, "d6").is_empty());
    // Blue's rook taken: blue has nothing to move, and its turn is passed over.
    let mut pos = position(Mode::CutThroat, &pieces, "r");
    play(&mut pos, "d4d6");
    assert_eq!(name(&pos, pos.side_to_move()), "yellow");
    play(&mut pos, "p16o16 p1o1");
    assert_eq!(name(&pos, pos.side_to_move()), "red");
}

/// "Capture all opposing royal pieces to win"; (ruling) cut-throat: the last player holding a
/// royal wins; teams: when both players of a team hold none, the other team wins, even when a
/// player takes its partner's last royal itself.
#[test]
fn the_game_ends_when_one_player_or_one_team_holds_royals() {
    let last = position(
        Mode::CutThroat,
        &[
            ("a1", "rK"),
            ("c12", "bR"),
            ("n14", "yP"),
            ("c3", "rR"),
            ("c5", "gK"),
        ],
        "r",
    );
    let mut last = last;
    play(&mut last, "c3c5");
    assert_eq!(winners(&last), ["red"]);
    assert!(last.legal_moves().is_empty());
    // Red, without royals, takes yellow's last one: red and yellow are both out.
    let mut own_goal = position(
        Mode::Teams,
        &[("c3", "rR"), ("c5", "yK"), ("a16", "bK"), ("p1", "gK")],
        "r",
    );
    play(&mut own_goal, "c3c5");
    assert_eq!(winners(&own_goal), ["blue", "green"]);
}

/// Ruling: "If no player can move while the game is undecided, it is drawn": every king
/// walled in its corner by its own soldiers, which cannot leave their home Castle.
#[test]
fn nobody_able_to_move_draws() {
    let mut pieces = Vec::new();
    for (k, walls, tag) in [
        ("a1", ["a2", "b1", "b2"], "r"),
        ("a16", ["a15", "b16", "b15"], "b"),
        ("p16", ["p15", "o16", "o15"], "y"),
        ("p1", ["p2", "o1", "o2"], "g"),
    ] {
        pieces.push((k, format!("{tag}K")));
        for w in walls {
            pieces.push((w, format!("{tag}P")));
        }
    }
    let refs: Vec<(&str, &str)> = pieces.iter().map(|(s, p)| (*s, p.as_str())).collect();
    let pos = position(Mode::CutThroat, &refs, "r");
    assert!(pos.legal_moves().is_empty());
    assert!(pos.outcome().unwrap().is_draw());
}

/// Ruling: "The third occurrence of a position ... draws", the start counted as the first.
#[test]
fn the_third_occurrence_of_a_position_draws() {
    let mut pos = start(Mode::CutThroat);
    let cycle = "a5a4 a12a13 p12p13 p5p4 a4a5 a13a12 p13p12 p4p5";
    play(&mut pos, cycle);
    assert!(pos.outcome().is_none());
    play(&mut pos, cycle);
    let o = pos.outcome().unwrap();
    assert!(o.is_draw());
    assert_eq!(o.reason.to_string(), "repetition");
    // Ruling: "A finished position has no moves (perft counts it as a leaf)". One ply short
    // of the third occurrence the last move still counts, and leads to the finished position.
    assert!(pos.repeated_to_end());
    assert_eq!(rulebook::engine::perft(&mut pos, 1), 0);
    assert_eq!(rulebook::engine::perft(&mut pos, 2), 0);
    pos.undo_move();
    assert!(!pos.repeated_to_end());
    let replies = pos.legal_moves().len() as u64;
    assert!(replies > 1);
    assert_eq!(rulebook::engine::perft(&mut pos, 1), replies);
    // Every reply but the one that repeats has replies of its own.
    let after: u64 = rulebook::engine::perft(&mut pos, 2);
    let repeat = rulebook::engine::notation::parse_move(&pos, "p4p5").unwrap();
    pos.play(repeat);
    assert_eq!(rulebook::engine::perft(&mut pos, 1), 0);
    pos.undo_move();
    let mut others = 0;
    for m in pos.legal_moves().into_iter().filter(|&m| m != repeat) {
        pos.play(m);
        others += rulebook::engine::perft(&mut pos, 1);
        pos.undo_move();
    }
    assert_eq!(after, others);
}

/// Issue: "a four-colour board SVG of each mode": every player's pieces in its colour, and a
/// legend naming the players in turn order with their partners (checked in Chromium).
#[test]
fn the_board_of_each_mode_is_drawn_in_four_colours_with_the_players_named() {
    for (mode, name) in [
        (Mode::CutThroat, "gala_xiangqi_four_board_svg"),
        (Mode::Teams, "gala_xiangqi_four_teams_board_svg"),
        (
            Mode::SharedBorder,
            "gala_xiangqi_four_shared_border_board_svg",
        ),
    ] {
        let svg = rulebook::render::board_svg(&start(mode));
        for colour in ["#c62828", "#1565c0", "#f9c825", "#2e7d32"] {
            assert!(svg.matches(colour).count() >= 24, "{name}: {colour}");
        }
        insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!(name, svg);
        });
    }
}

/// "Once only two player left in cut-throat game, they may choose to share victory or
/// continue playing": `share` in `play`, answered `accept`, names both winners; declined, the
/// game goes on; in the team game there is nobody to share with.
#[test]
fn the_last_two_cut_throat_players_may_share_the_victory_in_play() {
    use crate::common::rulebook_with_input;
    let fen = "15yK/16/16/16/16/16/16/16/16/16/16/16/16/16/1bR14/rK15 r - - 0 1";
    let args = ["play", PATH, "--computer", "none", "--fen", fen];
    let (out, _, code) = rulebook_with_input(&args, "share\naccept\n");
    assert_eq!(code, 0);
    assert!(
        out.contains("players: red, to move; blue, out; yellow; green, out"),
        "{out}"
    );
    assert!(
        out.contains("result: shared victory, red and yellow win"),
        "{out}"
    );
    let (out, _, _) = rulebook_with_input(&args, "share\nno\nquit\n");
    assert!(out.contains("yellow plays on"), "{out}");
    assert!(!out.contains("result:"), "{out}");
    let args = ["play", PATH, "--computer", "none", "--option", "teams"];
    let (out, _, _) = rulebook_with_input(&args, "share\nquit\n");
    assert!(out.contains("no offer to share the victory"), "{out}");
}

/// Random games of a second move generator written from the seed and the rulings alone, in
/// each mode (`gala_xiangqi_four_games.txt`): the same player to move (skips included) or the
/// same winners, and the same perft 1 and 2, at a legal shot, half way and at the end.
#[test]
fn random_games_agree_with_a_second_generator_on_turns_results_and_perft() {
    let file = format!(
        "{}/tests/fixtures/valid/sides/gala_xiangqi_four_games.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(file).unwrap();
    let mut checked = 0;
    let mut over = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        let mode = match parts[0] {
            "cut" => Mode::CutThroat,
            "teams" => Mode::Teams,
            _ => Mode::SharedBorder,
        };
        let mut pos = start(mode);
        play(&mut pos, parts[1]);
        let status = match pos.outcome() {
            Some(_) => {
                over += 1;
                format!("over {}", winners(&pos).join(" "))
            }
            None => name(&pos, pos.side_to_move()),
        };
        assert_eq!(status, parts[2], "{line}");
        let counts: Vec<u64> = (1..=2)
            .map(|d| rulebook::engine::perft(&mut pos, d))
            .collect();
        let want: Vec<u64> = parts[3].split(' ').map(|n| n.parse().unwrap()).collect();
        assert_eq!(counts, want, "{}: {}", parts[0], parts[2]);
        checked += 1;
    }
    assert_eq!((checked, over), (15, 6));
}

/// `replay` follows a whole four-player game of the second generator, skips and players
/// without royals included, to its result.
#[test]
fn replay_follows_a_four_player_game_to_its_result() {
    let file = format!(
        "{}/tests/fixtures/valid/sides/gala_xiangqi_four_games.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(file).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("cut |") && l.contains("| over "))
        .unwrap();
    let parts: Vec<&str> = line.split('|').map(str::trim).collect();
    let winner = parts[2].trim_start_matches("over ");
    let (out, _, code) = crate::common::rulebook_with_input(&["replay", PATH, "-"], parts[1]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.trim_end()
            .ends_with(&format!("result: no royal piece left, {winner} wins")),
        "{}",
        out.lines().last().unwrap_or_default()
    );
}

#[test]
fn the_compiled_tables_stay_small_on_the_sixteen_square_board() {
    // A four-side game on 16x16 compiles 44 (kind, side) tables; an index by (from, to) pair
    // took 17 MB of them. Measured at 3.2 MB (the whole perft run: 9.3 MB resident).
    for mode in [Mode::CutThroat, Mode::Teams, Mode::SharedBorder] {
        let bytes = start(mode).tables().table_bytes();
        assert!(bytes < 4_000_000, "{bytes} bytes");
    }
}
