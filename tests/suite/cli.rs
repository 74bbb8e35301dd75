//! The command line as a user sees it: output pinned with insta snapshots.

use crate::common;

use std::process::Command;

use crate::common::rulebook_with_input;

fn rulebook(args: &[&str]) -> (String, String, i32) {
    rulebook_with_input(args, "")
}

macro_rules! snap {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

#[test]
fn help_lists_every_command() {
    let (out, _, code) = rulebook(&["--help"]);
    assert_eq!(code, 0);
    snap!("cli_help", out);
    for cmd in [
        "check", "fmt", "perft", "moves", "diagram", "board", "replay", "play", "lsp", "values",
        "tune",
    ] {
        let (out, _, code) = rulebook(&[cmd, "--help"]);
        assert_eq!(code, 0);
        snap!(format!("cli_help_{cmd}"), out);
    }
    for cmd in ["import", "export"] {
        let (out, _, code) = rulebook(&[cmd, "fsf", "--help"]);
        assert_eq!(code, 0);
        snap!(format!("cli_help_{cmd}_fsf"), out);
    }
}

#[test]
fn check_accepts_every_shipped_definition_without_a_warning() {
    let root = env!("CARGO_MANIFEST_DIR");
    let files: Vec<String> = common::definition_paths()
        .iter()
        .map(|p| p.strip_prefix(root).unwrap().display().to_string())
        .collect();
    let mut args = vec!["check"];
    args.extend(files.iter().map(String::as_str));
    let (out, err, code) = rulebook(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), files.len());
    assert!(out.lines().all(|l| l.ends_with(": ok")), "{out}");
    // Not a warning either: every shipped definition is written in the second edition.
    assert!(err.is_empty(), "{err}");
}

#[test]
fn values_prints_an_estimate_per_piece() {
    let (out, err, code) = rulebook(&["values", "definitions/chess.variant", "--samples", "1000"]);
    assert_eq!(code, 0, "{err}");
    snap!("cli_values_chess", out);
    let (_, err, code) = rulebook(&["values", "definitions/chess.variant", "--samples", "0"]);
    assert_eq!(code, 2);
    assert_eq!(err.trim(), "error: --samples must be at least 1");
}

#[test]
fn values_from_self_play_print_a_row_per_piece_and_refuse_what_they_cannot_do() {
    let chess = "definitions/chess.variant";
    let (out, err, code) = rulebook(&["values", chess, "--self-play", "4", "--depth", "1"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("Chess: piece values from 4 games of self-play at depth 1 ("),
        "{out}"
    );
    assert_eq!(lines.len(), 3 + 6, "{out}");
    assert!(
        lines[3].starts_with("King ") && lines[3].contains("royal"),
        "{out}"
    );
    for (row, name) in lines[4..]
        .iter()
        .zip(["Queen", "Rook", "Bishop", "Knight", "Pawn"])
    {
        assert!(row.starts_with(name), "{out}");
    }
    let (_, err, code) = rulebook(&["values", chess, "--self-play", "0"]);
    let games = "error: --self-play must be between 1 and 1000000 games";
    assert_eq!((code, err.trim()), (2, games));
    let (_, err, code) = rulebook(&["values", chess, "--self-play", "99999999999"]);
    assert_eq!((code, err.trim()), (2, games));
    let depth = "error: --depth must be between 1 and 20";
    for d in ["0", "21"] {
        let (_, err, code) = rulebook(&["values", chess, "--self-play", "1", "--depth", d]);
        assert_eq!((code, err.trim()), (2, depth));
    }
    let four = "definitions/gala-xiangqi-four.variant";
    let (_, err, code) = rulebook(&["values", four, "--self-play", "1"]);
    assert_eq!(
        (code, err.trim()),
        (
            2,
            "error: values from self-play need a game of two sides; this one has 4"
        )
    );
}

#[test]
fn perft_prints_nodes_searched_last() {
    let (out, err, code) = rulebook(&["perft", "definitions/xiangqi.variant", "2"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().last(), Some("Nodes searched: 1920"));
    assert!(err.contains("nodes/s"), "{err}");
    let (out, _, code) = rulebook(&["perft", "definitions/chess.variant", "1", "--divide"]);
    assert_eq!(code, 0);
    snap!("cli_perft_divide_chess", out);
}

#[test]
fn moves_lists_coordinate_moves() {
    let (out, err, code) = rulebook(&[
        "moves",
        "definitions/shogi.variant",
        "--fen",
        "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL[Bb] w 0 1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().any(|l| l == "B@e5"), "{out}");
    assert!(out.lines().all(|l| !l.is_empty()));
    let (out, _, code) = rulebook(&[
        "moves",
        "definitions/chess.variant",
        "--fen",
        "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
    ]);
    assert_eq!(code, 0);
    snap!("cli_moves_promotion", out);
}

#[test]
fn diagrams_and_board_maps() {
    let (out, err, code) = rulebook(&[
        "diagram",
        "definitions/xiangqi.variant",
        "--piece",
        "N",
        "--at",
        "e5",
    ]);
    assert_eq!(code, 0, "{err}");
    snap!("cli_diagram_xiangqi_horse_e5", out);
    let (out, _, code) = rulebook(&[
        "diagram",
        "definitions/xiangqi.variant",
        "--piece",
        "C",
        "--at",
        "b3",
    ]);
    assert_eq!(code, 0);
    snap!("cli_diagram_xiangqi_cannon_b3", out);
    let (out, _, code) = rulebook(&[
        "diagram",
        "definitions/xiangqi.variant",
        "--piece",
        "C",
        "--at",
        "b3",
        "--fen",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ]);
    assert_eq!(code, 0);
    snap!("cli_diagram_xiangqi_cannon_b3_start", out);
    let (out, _, code) = rulebook(&["board", "definitions/xiangqi.variant"]);
    assert_eq!(code, 0);
    snap!("cli_board_xiangqi", out);
}

#[test]
fn machine_readable_output() {
    let (out, err, code) = rulebook(&[
        "moves",
        "definitions/chess.variant",
        "--fen",
        "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let moves: serde_json::Value = serde_json::from_str(&out).unwrap();
    let list = moves.as_array().unwrap();
    assert_eq!(list.len(), 9);
    let queen = list.iter().find(|m| m["coord"] == "b7b8q").unwrap();
    assert_eq!(queen["san"], "b8=Q+");
    assert_eq!(queen["promotion"], "Queen");
    snap!("cli_moves_json", out);
    let (out, _, code) = rulebook(&[
        "diagram",
        "definitions/xiangqi.variant",
        "--piece",
        "N",
        "--at",
        "e5",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let d: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(d["piece"], "Horse");
    let count = |marker: &str| {
        d["targets"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["marker"] == marker)
            .count()
    };
    // Eight knight-like targets and the four squares that must be empty on the way.
    assert_eq!((count("both"), count("blocking")), (8, 4));
    let legend: Vec<&str> = d["legend"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["glyph"].as_str().unwrap())
        .collect();
    assert_eq!(legend, ["*", "!"]);
}

#[test]
fn diagrams_as_svg() {
    let (out, err, code) = rulebook(&[
        "diagram",
        "definitions/xiangqi.variant",
        "--piece",
        "A",
        "--at",
        "e2",
        "--format",
        "svg",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("<svg") && out.trim_end().ends_with("</svg>"));
    // Four diagonal targets; each side's palace tinted and named in the legend.
    assert_eq!(out.matches(r#"class="marker both""#).count(), 4);
    assert_eq!(out.matches("<title>palace (red)</title>").count(), 1);
    assert!(out.contains(">zone palace (black)</text>"), "{out}");
    assert!(out.contains(">move or capture</text>"), "{out}");
    snap!("cli_diagram_xiangqi_advisor_svg", out);
    let (out, _, code) = rulebook(&["board", "definitions/shogi.variant", "--format", "svg"]);
    assert_eq!(code, 0);
    assert_eq!(out.matches("<circle").count(), 40);
}

#[test]
fn bad_input_gets_one_line_and_a_nonzero_exit() {
    let cases: &[&[&str]] = &[
        &[
            "perft",
            "definitions/chess.variant",
            "2",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        ],
        &[
            "perft",
            "definitions/chess.variant",
            "2",
            "--fen",
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ],
        &[
            "moves",
            "definitions/chess.variant",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1",
        ],
        &["moves", "definitions/chess.variant", "--option", "drops"],
        &[
            "diagram",
            "definitions/chess.variant",
            "--piece",
            "X",
            "--at",
            "e4",
        ],
        &[
            "diagram",
            "definitions/chess.variant",
            "--piece",
            "N",
            "--at",
            "i9",
        ],
        &[
            "diagram",
            "definitions/chess.variant",
            "--piece",
            "N",
            "--piece",
            "B",
            "--at",
            "e4",
        ],
        &[
            "diagram",
            "definitions/chess.variant",
            "--piece",
            "N",
            "--at",
            "e4",
            "--piece",
            "B",
            "--at",
            "e4",
        ],
        &["perft", "definitions/no-such.variant", "1"],
        &["perft", "tests/fixtures/large/huge-tables.variant", "1"],
        &["perft", "definitions/chess.variant"],
        &["perft", "definitions/chess.variant", "x"],
        &["frobnicate"],
        &["play", "definitions/chess.variant", "--computer", "green"],
    ];
    let mut report = String::new();
    for args in cases {
        let (out, err, code) = rulebook(args);
        assert_ne!(code, 0, "{args:?}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        report.push_str(&format!("$ rulebook {}\n{err}\n", args.join(" ")));
    }
    snap!("cli_bad_input", report);
}

#[test]
fn replay_prints_each_ply_and_the_result() {
    let (out, err, code) = rulebook(&[
        "replay",
        "definitions/middle-xiangqi.variant",
        "tests/records/middle-xiangqi.txt",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 138);
    assert_eq!(out.lines().last(), Some("result: checkmate, red wins"));
    snap!("cli_replay_middle_xiangqi", out);
    let (out, err, code) = rulebook(&[
        "replay",
        "definitions/delegating-chess.variant",
        "tests/records/delegating-chess-misprint.txt",
        "--fen",
        "Qc1k3/p6/2n2b1/7/5q1/6N/7/7/6p/1P5/7/R1CK2Q w",
    ]);
    assert_ne!(code, 0);
    assert!(out.is_empty());
    assert!(err.starts_with("error: ply 1 `b3-e5+`"), "{err}");
}

#[test]
fn play_against_the_engine_until_mate() {
    // After 1. f3 e5 2. g4 the engine, playing black, mates at once.
    let (out, err, code) = rulebook_with_input(
        &[
            "play",
            "definitions/chess.variant",
            "--computer",
            "black",
            "--depth",
            "2",
            "--fen",
            "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("2... black plays Qh4#"), "{out}");
    assert!(
        out.trim_end().ends_with("result: checkmate, black wins"),
        "{out}"
    );
    // Two people, a bad move, undo and the FEN.
    let (out, _, code) = rulebook_with_input(
        &["play", "definitions/xiangqi.variant", "--computer", "none"],
        "Zz9\nh3e3\nundo\nfen\nquit\n",
    );
    assert_eq!(code, 0);
    assert!(
        out.contains("`Zz9` is not a move in coordinate or algebraic notation"),
        "{out}"
    );
    assert!(
        out.contains("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
        "{out}"
    );
}

#[test]
fn side_arguments_take_aliases() {
    // Xiangqi's sides are red and black; `second` and `black` name the same side.
    let diagram = |side: &str| {
        rulebook(&[
            "diagram",
            "definitions/xiangqi.variant",
            "--piece",
            "P",
            "--at",
            "e5",
            "--side",
            side,
        ])
    };
    let (by_name, _, code) = diagram("black");
    assert_eq!(code, 0);
    assert_eq!(diagram("second").0, by_name);
    assert_ne!(diagram("first").0, by_name);
    assert_eq!(diagram("red").0, diagram("first").0);
}

#[test]
fn shots_are_listed_and_drawn_as_their_own_kind_of_move() {
    let fen = "16/16/16/16/16/16/2k13/16/16/16/16/16/16/2K13/16/16 w - - 0 1";
    let file = "definitions/gala-xiangqi.variant";
    let (out, _, code) = rulebook(&["moves", file, "--fen", fen, "--san"]);
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l == "c3c10c3 K@xc10"), "{out}");
    let (out, _, code) = rulebook(&["diagram", file, "--fen", fen, "--piece", "K", "--at", "c3"]);
    assert_eq!(code, 0);
    let c10 = out.lines().find(|l| l.starts_with("10 ")).unwrap();
    assert_eq!(c10, "10 --s----==-------", "{out}");
    assert!(out.contains("s capture without moving"), "{out}");
    let (out, _, _) = rulebook(&[
        "diagram", file, "--fen", fen, "--piece", "K", "--at", "c3", "--format", "json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let shot: Vec<_> = json["targets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["marker"] == "shot")
        .map(|t| t["square"].as_str().unwrap())
        .collect();
    assert_eq!(shot, ["c10"]);
    let (out, err, code) = rulebook_with_input(&["replay", file, "--fen", fen, "-"], "1. K@xc10\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("c3c10c3"), "{out}");
}

#[test]
fn a_closed_output_ends_the_program_quietly() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "board",
            "definitions/gala-xiangqi.variant",
            "--format",
            "svg",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is gone: further output goes nowhere.
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn play_says_why_a_move_cannot_be_played() {
    let (out, _, code) = rulebook_with_input(
        &["play", "definitions/chess.variant", "--computer", "none"],
        "e2e5\nzz\nquit\n",
    );
    assert_eq!(code, 0);
    assert!(
        out.contains("`e2e5` cannot be played: the pawn on e2 cannot go to e5"),
        "{out}"
    );
    assert!(out.contains("`zz` is not a move"), "{out}");
}

#[test]
fn json_output_stays_json_when_something_fails() {
    // A missing file among others: one JSON object each, the others still checked.
    let (out, _, code) = rulebook(&[
        "check",
        "--format",
        "json",
        "definitions/chess.variant",
        "no-such-file.variant",
    ]);
    assert_eq!(code, 1);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["valid"], true);
    assert_eq!(lines[1]["valid"], false);
    assert!(lines[1]["error"].as_str().unwrap().contains("cannot read"));
    // Spans carry their line and column.
    let (out, _, _) = rulebook(&[
        "check",
        "--format",
        "json",
        "tests/fixtures/invalid/multi/three_syntax_errors.variant",
    ]);
    let report: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let spans: Vec<(u64, u64)> = report["report"]["related"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let span = &d["labels"][0]["span"];
            (
                span["line"].as_u64().unwrap(),
                span["column"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(spans, [(6, 1), (12, 13), (14, 1)]);
    // Commands with --format json answer failures in JSON on stdout.
    let (out, _, code) = rulebook(&["moves", "missing.variant", "--format", "json"]);
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v["error"].as_str().unwrap().contains("cannot read"));
    let (out, _, code) = rulebook(&[
        "diagram",
        "tests/fixtures/invalid/multi/three_syntax_errors.variant",
        "--piece",
        "K",
        "--at",
        "a1",
        "--format",
        "json",
    ]);
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["report"]["related"].as_array().unwrap().len(), 3);
}

#[test]
fn diagram_all_writes_a_gallery() {
    let dir = std::env::temp_dir().join(format!("rulebook-gallery-{}", std::process::id()));
    let (out, err, code) = rulebook(&[
        "diagram",
        "definitions/xiangqi.variant",
        "--all",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("8 diagrams of 7 pieces"), "{out}");
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    for file in ["board.svg", "cannon-e5.svg", "soldier-e6.svg"] {
        assert!(index.contains(file), "{file}");
        assert!(dir.join(file).exists(), "{file}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_json_escapes_control_characters() {
    // A NUL byte in the file once made the report invalid JSON.
    let dir = std::env::temp_dir().join(format!("rulebook-nul-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("nul.variant");
    std::fs::write(&file, "variant \"X\u{0}\u{1}\"\n\u{0}board 8 x 8\n").unwrap();
    let (out, _, code) = rulebook(&["check", "--format", "json", file.to_str().unwrap()]);
    assert_eq!(code, 1);
    let value: serde_json::Value = serde_json::from_str(out.trim()).expect("valid JSON");
    assert_eq!(value["valid"], false);
    let related = value["report"]["related"].as_array().unwrap();
    assert!(related[0]["labels"][0]["label"]
        .as_str()
        .unwrap()
        .contains('\u{0}'));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_deep_reports_an_endless_game_as_a_warning() {
    // Gala has no rule that ends a long game: a warning with its code, and success, since
    // only faults of the interpreter are errors.
    let (out, err, code) = rulebook(&[
        "check",
        "--deep",
        "--games",
        "3",
        "--plies",
        "60",
        "definitions/gala.variant",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(": 1 warning\n"), "{out}");
    assert!(
        out.contains("warning[rulebook::deep::endless]: a game reached the ply limit"),
        "{out}"
    );
    assert!(
        out.contains("  help: add a rule that ends long games"),
        "{out}"
    );
    let moves_line = out.lines().find(|l| l.contains("last 12 moves")).unwrap();
    assert_eq!(
        moves_line.split(": ").nth(1).unwrap().split(' ').count(),
        12
    );
}

#[test]
fn play_suggests_this_games_moves_and_wraps_long_lists() {
    let (out, _, code) = rulebook_with_input(
        &[
            "play",
            "definitions/gala-xiangqi.variant",
            "--computer",
            "none",
        ],
        "moves\nzz\nquit\n",
    );
    assert_eq!(code, 0);
    let first = out.lines().next().unwrap();
    assert_eq!(
        first,
        "commands: a move (c1d2, Ad2), `moves`, `undo`, `fen`, `quit`"
    );
    // 116 moves, in lines of at most 80 columns, none broken.
    let list: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Ad2 "))
        .take_while(|l| !l.starts_with(|c: char| c == ' ' || c.is_ascii_digit()))
        .collect();
    assert!(
        list.len() > 5 && list.iter().all(|l| l.len() <= 80),
        "{list:?}"
    );
    assert_eq!(
        list.iter().map(|l| l.split(' ').count()).sum::<usize>(),
        116
    );
    assert!(
        out.contains(
            "`zz` is not a move in coordinate or algebraic notation (try `moves`: c1d2, Ad2)"
        ),
        "{out}"
    );
    // Piped, the board has no colour codes.
    assert!(!out.contains('\u{1b}'));
    let (out, _, _) = rulebook_with_input(
        &[
            "play",
            "definitions/shogi.variant",
            "--computer",
            "none",
            "--fen",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[N] w - - 0 1",
        ],
        "quit\n",
    );
    assert!(
        out.starts_with("commands: a move (a1a2, La2, N@a2), "),
        "{out}"
    );
    assert!(
        out.contains("sente in hand: Knight (N)\ngote in hand: none\n"),
        "{out}"
    );
}

/// `--moves` plays a move list first, in any notation, for `moves`, `perft` and `board`; the
/// counts after it are those of the FEN it reaches (Kiwipete's published perft after two
/// plies), and a move it cannot play is named with its ply.
#[test]
fn moves_played_first_with_moves() {
    let (list, _, code) = rulebook(&["moves", "definitions/chess.variant", "--moves", "e4 e5 Nf3"]);
    assert_eq!(code, 0);
    let (same, _, _) = rulebook(&[
        "moves",
        "definitions/chess.variant",
        "--fen",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
    ]);
    assert_eq!(list, same);
    assert_eq!(list.lines().count(), 29);

    // From a FEN, coordinate and SAN mixed: Kiwipete after White castles and Black's bishop
    // takes on e2 is the FEN the board names, and perft agrees with perft from that FEN.
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (perft, _, code) = rulebook(&[
        "perft",
        "definitions/chess.variant",
        "2",
        "--fen",
        kiwipete,
        "--moves",
        "e1g1 Bxe2",
    ]);
    assert_eq!(code, 0);
    let (board, _, _) = rulebook(&[
        "board",
        "definitions/chess.variant",
        "--fen",
        kiwipete,
        "--moves",
        "e1g1 Bxe2",
    ]);
    let fen = board
        .lines()
        .find_map(|l| l.strip_prefix("position: "))
        .expect("the board names its FEN");
    assert_eq!(
        fen,
        "r3k2r/p1ppqpb1/1n2pnp1/3PN3/1p2P3/2N2Q1p/PPPBbPPP/R4RK1 w kq - 0 2"
    );
    let (direct, _, _) = rulebook(&["perft", "definitions/chess.variant", "2", "--fen", fen]);
    assert_eq!(perft.lines().last(), direct.lines().last());

    let (_, err, code) = rulebook(&["moves", "definitions/chess.variant", "--moves", "e4 e5 Ke3"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: --moves, ply 3 `Ke3`: `Ke3` is not a legal move here\n"
    );
    let (_, err, _) = rulebook(&[
        "moves",
        "definitions/chess.variant",
        "--moves",
        "f3 e5 g4 Qh4 a3",
    ]);
    assert_eq!(
        err,
        "error: --moves, ply 5 `a3`: the game is over (checkmate)\n"
    );
}

/// A position where the repetition rule ends the game has no moves, for `moves` as for
/// `perft`; one ply earlier it has its moves, and a move past the end is refused.
#[test]
fn a_position_drawn_by_repetition_has_no_moves() {
    let cycle = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8";
    let chess = "definitions/chess.variant";
    let (list, _, code) = rulebook(&["moves", chess, "--moves", cycle]);
    assert_eq!((list.as_str(), code), ("", 0));
    let (perft, _, _) = rulebook(&["perft", chess, "1", "--moves", cycle]);
    assert_eq!(perft.lines().last(), Some("Nodes searched: 0"));
    let (list, _, _) = rulebook(&["moves", chess, "--moves", &cycle[..cycle.len() - 4]]);
    assert_eq!(list.lines().count(), 22);
    let (_, err, _) = rulebook(&["moves", chess, "--moves", &format!("{cycle} e4")]);
    assert_eq!(
        err,
        "error: --moves, ply 9 `e4`: the game is over (repetition)\n"
    );
}

/// `rulebook tune` writes tables that, saved beside the definition, are read with it and
/// change the engine's search; a broken tables file is refused in one line.
#[test]
fn tuned_tables_beside_a_definition_are_read_with_it() {
    let dir = std::env::temp_dir().join(format!("rulebook-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let variant = dir.join("chess.variant");
    std::fs::copy("definitions/chess.variant", &variant).unwrap();
    let variant = variant.to_str().unwrap();
    let (tables, err, code) = rulebook(&["tune", variant, "--games", "4", "--depth", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("4 games of self-play at depth 1"), "{err}");
    assert!(tables.contains("[pieces."), "{tables}");
    // The depth-5 line of a search from the start, without its timing.
    let search = || {
        use std::io::{BufRead, Write};
        let mut child = Command::new(env!("CARGO_BIN_EXE_rulebook"))
            .args(["uci", variant])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "uci\nposition startpos\ngo depth 5").unwrap();
        let mut found = String::new();
        for line in std::io::BufReader::new(child.stdout.take().unwrap()).lines() {
            let line = line.unwrap();
            if line.starts_with("info depth 5 ") {
                found = line.split(" nodes").next().unwrap().to_string();
                found += line.split(" pv").nth(1).unwrap_or_default();
            }
            if line.starts_with("bestmove") {
                break;
            }
        }
        writeln!(stdin, "quit").unwrap();
        assert!(child.wait().unwrap().success());
        found
    };
    let plain = search();
    // A term far larger than any learned makes a knight on a3 the engine's first choice.
    let mut grid = vec![vec![0; 8]; 8];
    grid[5][0] = 2000;
    let rows: Vec<String> = grid.iter().map(|r| format!("{r:?}")).collect();
    let big = format!(
        "[pieces.Knight]\nmiddle = [{0}]\nending = [{0}]\n",
        rows.join(", ")
    );
    std::fs::write(dir.join("chess.tables"), &big).unwrap();
    let (out, err, code) = rulebook(&["check", variant]);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with(": ok\n"), "{out}");
    let tabled = search();
    assert_ne!(plain, tabled);
    assert!(tabled.contains(" b1a3"), "{tabled}");
    std::fs::write(dir.join("chess.tables"), big.replace("Knight", "Horse")).unwrap();
    let (_, err, code) = rulebook(&["check", variant]);
    assert_ne!(code, 0);
    assert!(
        err.contains("chess.tables`: `Horse` is not a piece of Chess"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
