//! Helpers shared by the integration tests.

use rulebook::engine::Position;
use rulebook::model::Tables;

/// The start position of a definition file, relative to the crate root, default options.
pub fn start_of(path: &str) -> Position {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    let variant = rulebook::load(path, &text).unwrap_or_else(|e| panic!("{path}: {e:?}"));
    Position::new(Tables::compile(&variant, &[]).unwrap())
}

/// The start position of a shipped definition (`definitions/FILE`).
#[allow(dead_code)]
pub fn start(file: &str) -> Position {
    start_of(&format!("definitions/{file}"))
}

/// The destinations of the legal board moves from `from`, sorted, each once.
#[allow(dead_code)]
pub fn targets(pos: &Position, from: &str) -> Vec<String> {
    let g = pos.tables().geometry();
    let sq = g.parse(from).unwrap();
    let mut out: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.from == sq && !m.is_drop())
        .map(|m| g.name(m.to).to_string())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The squares, as owned strings, sorted.
#[allow(dead_code)]
pub fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Every definition file shipped: the games in `definitions/` and the library in
/// `definitions/library/`, sorted.
#[allow(dead_code)]
pub fn definition_paths() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths: Vec<_> = ["definitions", "definitions/library"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).expect("definition directories exist"))
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "variant"))
        .collect();
    paths.sort();
    paths
}

/// What the binary writes on standard output and error, and its exit code, run with `args`
/// in the crate root and `input` on standard input.
#[allow(dead_code)]
pub fn rulebook_with_input(args: &[&str], input: &str) -> (String, String, i32) {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(input.as_bytes())
        .expect("input is taken");
    let out = child.wait_with_output().expect("the binary ends");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

/// Plays these moves (any notation, separated by spaces), each as a turn of the game.
#[allow(dead_code)]
pub fn play(pos: &mut Position, moves: &str) {
    for text in moves.split_whitespace() {
        let m = rulebook::engine::notation::parse_move(pos, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.play(m);
    }
}

/// The side named `name`.
#[allow(dead_code)]
pub fn side(pos: &Position, name: &str) -> rulebook::model::Side {
    let sides = pos.tables().variant().sides();
    let i = sides.iter().position(|s| s.name == name).unwrap();
    rulebook::model::Side::from_index(i).unwrap()
}
