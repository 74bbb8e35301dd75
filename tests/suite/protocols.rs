//! The engine protocols, driven through the binary: transcripts kept as data in
//! `tests/protocols/` (lines sent and replies expected), and whole games played through UCI
//! and XBoard, every move checked against the library's legal moves.
//!
//! A transcript's first line that is not a comment is `run PROTOCOL DEFINITION`; then `> LINE`
//! is sent and `< PATTERN` is expected, in order, where `*` matches any text. Search output
//! (UCI `info` lines, XBoard thinking lines) is passed over unless a pattern asks for it;
//! `< ...` passes over any lines until the next pattern matches. Lines are sent up to the next
//! expected reply, as a GUI waits for one; `pause MS` waits before sending on; `ends within MS`
//! asserts the process has ended, input still open, within that many milliseconds.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::common::rulebook_with_input;
use rulebook::engine::{notation, Position};
use rulebook::protocol::xboard::from_xboard;

fn definitions() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("definitions")
}

/// Whether `text` matches `pattern`, where `*` stands for any text.
fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || !text[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    true
}

/// Search output a pattern may pass over.
fn is_thinking(line: &str) -> bool {
    line.starts_with("info ") || line.chars().next().is_some_and(|c| c.is_ascii_digit())
}

/// Plays the transcript at `path` as a GUI would: lines are sent up to the next expected reply,
/// which is waited for (at most a minute) before more is sent.
fn run_transcript(path: &Path) {
    let name = path.display();
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let run = lines.next().expect("a `run` line");
    let words: Vec<&str> = run.split_whitespace().collect();
    assert!(
        words.len() == 3 && words[0] == "run",
        "{name}: bad `run` line"
    );
    let mut child = spawn(words[1], words[2]);
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut said = String::new();
    let mut skip = false;
    for l in lines {
        if let Some(line) = l.strip_prefix("> ") {
            writeln!(stdin, "{line}").unwrap();
        } else if let Some(ms) = l.strip_prefix("ends within ") {
            let ms: u64 = ms.parse().expect("`ends within MS`");
            let until = std::time::Instant::now() + Duration::from_millis(ms);
            while child.try_wait().unwrap().is_none() {
                assert!(
                    std::time::Instant::now() < until,
                    "{name}: still running {ms} ms later:\n{said}"
                );
                std::thread::sleep(Duration::from_millis(10));
            }
            return;
        } else if let Some(ms) = l.strip_prefix("pause ") {
            std::thread::sleep(Duration::from_millis(ms.trim().parse().unwrap()));
        } else if let Some(p) = l.strip_prefix('<') {
            let pattern = p.strip_prefix(' ').unwrap_or(p);
            if pattern == "..." {
                skip = true;
                continue;
            }
            loop {
                let Ok(line) = rx.recv_timeout(Duration::from_secs(60)) else {
                    panic!("{name}: expected `{pattern}`, the engine said no more:\n{said}");
                };
                said.push_str(&line);
                said.push('\n');
                if glob(pattern, &line) {
                    skip = false;
                    break;
                }
                assert!(
                    skip || is_thinking(&line) && !is_thinking(pattern),
                    "{name}: expected `{pattern}`, got `{line}`:\n{said}"
                );
            }
        } else {
            panic!("{name}: line `{l}` is neither `>`, `<` nor `pause`");
        }
    }
    drop(stdin);
    child.wait().unwrap();
}

#[test]
fn protocol_transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/protocols");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 3);
    for f in files {
        run_transcript(&f);
    }
}

/// The binary speaking `protocol` for the shipped definition `file`, its input and output piped.
fn spawn(protocol: &str, file: &str) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args([protocol, definitions().join(file).to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap()
}

fn start(file: &str) -> Position {
    let path = definitions().join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let variant = rulebook::load(file, &text).unwrap();
    Position::new(rulebook::model::Tables::compile(&variant, &[]).unwrap())
}

/// A game the engine plays against itself through UCI, one `position ... moves` and `go`
/// per ply, until the rules end it.
#[test]
fn a_whole_game_through_uci() {
    let mut pos = start("chess.variant");
    let mut child = spawn("uci", "chess.variant");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut moves: Vec<String> = Vec::new();
    writeln!(stdin, "uci\nucinewgame").unwrap();
    while pos.outcome().is_none() {
        assert!(moves.len() < 1000, "the game should end by the rules");
        writeln!(
            stdin,
            "position startpos moves {}\ngo depth 2",
            moves.join(" ")
        )
        .unwrap();
        let best = loop {
            let mut line = String::new();
            assert!(stdout.read_line(&mut line).unwrap() > 0, "engine ended");
            if let Some(m) = line.trim().strip_prefix("bestmove ") {
                break m.to_string();
            }
        };
        let m = notation::parse_coord(&pos, &best).unwrap();
        assert!(
            pos.legal_moves().contains(&m),
            "illegal {best} after {moves:?}"
        );
        pos.play(m);
        moves.push(best);
    }
    writeln!(stdin, "quit").unwrap();
    child.wait().unwrap();
}

/// A Xiangqi game the engine plays against itself through XBoard (`go` for each side in
/// turn), its moves in XBoard's squares, until it announces the result. The definition adds
/// a move limit to Xiangqi's rules: without one, a side that cannot mate at this depth and
/// shuns repetition plays on for ever.
#[test]
fn a_whole_game_through_xboard() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/valid/protocol/xiangqi_move_limit.variant"
    );
    let mut pos = start(file);
    let mut child = spawn("xboard", file);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, "xboard\nprotover 2\nnew\nsd 3\nforce").unwrap();
    let mut result = None;
    let mut plies = 0;
    while result.is_none() {
        assert!(
            plies < 1000,
            "the game should end by the rules: {}",
            pos.fen()
        );
        // `force` stops a search and drops its move: it is sent once the move is in.
        writeln!(stdin, "go").unwrap();
        loop {
            let mut line = String::new();
            assert!(stdout.read_line(&mut line).unwrap() > 0, "engine ended");
            let line = line.trim();
            if let Some(text) = line.strip_prefix("move ") {
                // XBoard numbers a ten-rank board's ranks from 0.
                let ours = from_xboard(pos.tables().geometry(), text);
                let m = notation::parse_coord(&pos, &ours).unwrap();
                assert!(pos.legal_moves().contains(&m), "illegal {text}");
                pos.play(m);
                plies += 1;
                writeln!(stdin, "force").unwrap();
                if pos.outcome().is_none() {
                    break;
                }
            } else if line.starts_with("1-0") || line.starts_with("0-1") || line.starts_with("1/2")
            {
                result = Some(line.to_string());
                break;
            }
        }
    }
    let o = pos.outcome().expect("the engine announced a result");
    let expected = if o.is_draw() {
        "1/2-1/2"
    } else if o.winner() == Some(rulebook::model::Side::FIRST) {
        "1-0"
    } else {
        "0-1"
    };
    assert!(result.unwrap().starts_with(expected));
    writeln!(stdin, "quit").unwrap();
    child.wait().unwrap();
}

/// The first lines the binary answers to `input`, speaking `protocol` for the file at `path`
/// (relative to the crate).
fn answers(protocol: &str, path: &str, input: &str) -> String {
    rulebook_with_input(&[protocol, path], input).0
}

/// A definition's `known as` names are what each protocol announces and accepts.
#[test]
fn protocols_use_the_names_a_definition_gives() {
    let fixture = "tests/fixtures/valid/variant/known_as.variant";
    let xboard = answers(
        "xboard",
        fixture,
        "xboard\nprotover 2\nvariant mini\nquit\n",
    );
    assert!(xboard.contains("variants=\"minichess\""), "{xboard}");
    assert!(xboard.contains("Error (unknown variant): mini"), "{xboard}");
    let uci = answers("uci", fixture, "uci\nquit\n");
    assert!(
        uci.contains("option name UCI_Variant type combo default mini-chess var mini-chess"),
        "{uci}"
    );
}
