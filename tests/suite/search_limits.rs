//! Every limit a protocol offers ends the search on every shipped definition, the library
//! included: depth 1 and 2 and a node budget each bring back a legal move after a bounded
//! number of positions (counted, not timed). What bounds quiescence where captures are
//! plentiful (cannons, bent sliders, shots): at most eight plies of captures, past the first
//! two only captures that win material outright or take back on the square just taken on,
//! and only those that could lift the score to alpha.
//!
//! The same limits are then asked for through the protocols, as a GUI asks: XBoard `sd 1`,
//! `sd 2`, `st 0.05` and a one-second clock (`level`, `time`, `otim`), UCI `go depth 1`,
//! `depth 2`, `nodes 1000`, `movetime 50` and a clock (`wtime`, `btime`), each answered with a
//! legal move (the wait for it is a guard against hangs, two minutes, not a measure).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::common;
use rulebook::engine::notation;
use rulebook::engine::search::{Engine, Limits};
use rulebook::engine::Position;
use rulebook::protocol::xboard;

#[test]
fn depth_and_node_limits_end_the_search_everywhere() {
    let root = env!("CARGO_MANIFEST_DIR");
    for path in common::definition_paths() {
        let rel = path.strip_prefix(root).unwrap().display().to_string();
        let pos = common::start_of(&rel);
        for (limits, most) in [
            (
                Limits {
                    depth: Some(1),
                    ..Default::default()
                },
                50_000,
            ),
            (
                Limits {
                    depth: Some(2),
                    ..Default::default()
                },
                500_000,
            ),
            (
                Limits {
                    nodes: Some(1000),
                    ..Default::default()
                },
                1_100,
            ),
        ] {
            let mut engine = Engine::new(&pos, 1);
            let (best, last) = engine.search(&pos, &limits, &mut |_| {});
            let best = best.unwrap_or_else(|| panic!("{rel}: no move under {limits:?}"));
            assert!(pos.legal_moves().contains(&best), "{rel}: {best:?}");
            assert!(
                last.nodes <= most,
                "{rel}: {} positions under {limits:?}",
                last.nodes
            );
        }
    }
}

/// The lines the binary speaking `protocol` on `path` writes after each of `asks` (sent one
/// at a time, each once the line before it answered), the answer being the first line that
/// starts with `wait`; then `quit`, which must end the process.
fn answers(protocol: &str, path: &str, setup: &str, asks: &[&str], wait: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args([protocol, path])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    writeln!(stdin, "{setup}").unwrap();
    let mut said = Vec::new();
    for ask in asks {
        writeln!(stdin, "{ask}").unwrap();
        let line = loop {
            let line = rx
                .recv_timeout(Duration::from_secs(120))
                .unwrap_or_else(|_| panic!("{path}: no answer to `{ask}`"));
            if line.starts_with(wait) {
                break line;
            }
        };
        said.push(line[wait.len()..].trim().to_string());
    }
    writeln!(stdin, "quit").unwrap();
    child.wait().unwrap();
    said
}

fn assert_legal(pos: &Position, rel: &str, ask: &str, text: &str) {
    let m = notation::parse_coord(pos, text)
        .unwrap_or_else(|e| panic!("{rel}: `{ask}` answered {text}: {e}"));
    assert!(
        pos.legal_moves().contains(&m),
        "{rel}: `{ask}` answered {text}"
    );
}

#[test]
fn depth_and_node_limits_through_the_protocols() {
    let root = env!("CARGO_MANIFEST_DIR");
    for path in common::definition_paths() {
        let rel = path.strip_prefix(root).unwrap().display().to_string();
        let full = path.to_str().unwrap();
        let pos = common::start_of(&rel);
        if pos.outcome().is_some() || pos.legal_moves().is_empty() {
            continue;
        }
        let asks = [
            "new\nforce\nsd 1\ngo",
            "force\nnew\nforce\nsd 2\ngo",
            "force\nnew\nforce\nsd 99\nst 0.05\ngo",
            "force\nnew\nforce\nlevel 0 0:01 0\ntime 100\notim 100\ngo",
        ];
        for (ask, text) in asks.iter().zip(answers(
            "xboard",
            full,
            "xboard\nprotover 2",
            &asks,
            "move ",
        )) {
            assert!(
                xboard::read_move(&pos, &pos, &text).is_some(),
                "{rel}: `{ask}` answered {text}"
            );
        }
        let asks = [
            "go depth 1",
            "go depth 2",
            "go nodes 1000",
            "go movetime 50",
            "go wtime 100 btime 100 winc 0 binc 0",
        ];
        for (ask, text) in asks.iter().zip(answers(
            "uci",
            full,
            "uci\nposition startpos",
            &asks,
            "bestmove ",
        )) {
            assert_legal(&pos, &rel, ask, &text);
        }
    }
}
