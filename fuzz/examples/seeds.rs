//! Seed corpora for the fuzz targets, made from what the repository ships, and a reader of
//! fuzz inputs. Not a fuzz target (an example): run it with plain cargo from the repository root.
//!
//! ```text
//! cargo run --manifest-path fuzz/Cargo.toml --example seeds -- corpus fuzz/corpus
//! cargo run --manifest-path fuzz/Cargo.toml --example seeds -- describe fen fuzz/artifacts/fen/crash-...
//! cargo run --manifest-path fuzz/Cargo.toml --example seeds -- list
//! ```
//!
//! `corpus DIR` writes `DIR/<target>/seed-*` (existing files are kept): for `definition`
//! every shipped definition and every test fixture; for the others, for every game of
//! [`rulebook_fuzz::games`], its start position, FENs of the perft suites, a short
//! deterministic random game in coordinate notation and as a numbered SAN record, the game
//! records and protocol transcripts of `tests/`, and a generic protocol session.
//! `describe TARGET FILE` prints which game an input picks and its text, escaped.

use std::collections::hash_map::DefaultHasher;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rulebook::engine::{notation, Position};
use rulebook_fuzz::{games, selector, Game};

const TARGETS: &[&str] = &["definition", "fen", "moves", "record", "uci", "xboard"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A short random game: each position and the move played there.
fn random_game(
    start: &Position,
    plies: usize,
    seed: u64,
) -> Vec<(Position, rulebook::engine::Move)> {
    let mut rng = Rng(seed | 1);
    let mut pos = start.clone();
    let mut out = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.outcome().is_some() {
            break;
        }
        let m = moves[(rng.next() % moves.len() as u64) as usize];
        out.push((pos.clone(), m));
        pos.play(m);
    }
    out
}

struct Writer {
    dir: PathBuf,
    count: usize,
}

impl Writer {
    fn new(base: &Path, target: &str) -> Writer {
        let dir = base.join(target);
        fs::create_dir_all(&dir).unwrap();
        Writer { dir, count: 0 }
    }

    fn raw(&mut self, bytes: &[u8]) {
        let mut h = DefaultHasher::new();
        bytes.hash(&mut h);
        fs::write(self.dir.join(format!("seed-{:016x}", h.finish())), bytes).unwrap();
        self.count += 1;
    }

    /// An input of a target that picks a game by its first byte.
    fn game(&mut self, index: usize, text: &str) {
        let mut bytes = vec![selector(index)];
        bytes.extend_from_slice(text.as_bytes());
        self.raw(&bytes);
    }
}

/// The index of the game of `definition` (a path under `definitions/`) with `options` on
/// (none: the defaults).
fn game_index(definition: &str, options: &[String]) -> Option<usize> {
    let all = games();
    let path = format!("definitions/{definition}");
    let same = |g: &Game| g.label.split(' ').next() == Some(path.as_str());
    all.iter()
        .position(|g| {
            same(g)
                && g.options.len() == options.len()
                && g.options
                    .iter()
                    .zip(options)
                    .all(|((n, v), o)| n == o && *v)
        })
        .or_else(|| all.iter().position(same))
}

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            files(&p, ext, out);
        } else if p.extension().is_some_and(|e| e == ext) {
            out.push(p);
        }
    }
}

/// The perft suites' FENs: (game index, FEN).
fn perft_fens() -> Vec<(usize, String)> {
    let mut paths = Vec::new();
    files(&root().join("tests/perft"), "toml", &mut paths);
    let mut out = Vec::new();
    for p in paths {
        let text = fs::read_to_string(&p).unwrap();
        let Ok(value) = text.parse::<toml::Table>() else {
            continue;
        };
        let Some(def) = value.get("definition").and_then(|d| d.as_str()) else {
            continue;
        };
        let options: Vec<String> = value
            .get("options")
            .and_then(|o| o.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        let Some(index) = game_index(def, &options) else {
            continue;
        };
        let cases = value
            .get("case")
            .and_then(|c| c.as_array())
            .cloned()
            .unwrap_or_default();
        let mut seen = std::collections::HashSet::new();
        for c in cases {
            if let Some(fen) = c.get("fen").and_then(|f| f.as_str()) {
                if seen.insert(fen.to_string()) {
                    out.push((index, fen.to_string()));
                }
            }
        }
    }
    out
}

/// The `> ` lines of `tests/protocols/<protocol>-*.txt`: (game index, input).
fn transcripts(protocol: &str) -> Vec<(usize, String)> {
    let mut paths = Vec::new();
    files(&root().join("tests/protocols"), "txt", &mut paths);
    let mut out = Vec::new();
    for p in paths {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with(&format!("{protocol}-")) {
            continue;
        }
        let text = fs::read_to_string(&p).unwrap();
        let mut index = None;
        let mut input = String::new();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("run ") {
                let def = rest.split_whitespace().nth(1).unwrap_or("");
                index = game_index(def, &[]);
            } else if let Some(cmd) = line.strip_prefix("> ") {
                input.push_str(cmd);
                input.push('\n');
            }
        }
        if let Some(i) = index {
            out.push((i, input));
        }
    }
    out
}

fn corpus(base: &Path) {
    let all = games();
    // definition
    let mut w = Writer::new(base, "definition");
    let mut paths = Vec::new();
    files(&root().join("definitions"), "variant", &mut paths);
    files(&root().join("tests/fixtures"), "variant", &mut paths);
    // `large/` holds definitions slow by design (tables too large to build: seconds of
    // work each under the fuzzer's instrumentation); they would only be timeouts.
    paths.retain(|p| !p.components().any(|c| c.as_os_str() == "large"));
    for p in &paths {
        w.raw(&fs::read(p).unwrap());
    }
    println!("definition: {} seeds", w.count);

    let perft = perft_fens();
    let games_played: Vec<Vec<(Position, rulebook::engine::Move)>> = all
        .iter()
        .enumerate()
        .map(|(i, g)| random_game(g.start(), 24, 0x9e37_79b9_7f4a_7c15 ^ i as u64))
        .collect();

    // fen
    let mut w = Writer::new(base, "fen");
    for (i, g) in all.iter().enumerate() {
        w.game(i, &g.start().fen());
        for (pos, _) in games_played[i].iter().skip(6).step_by(6) {
            w.game(i, &pos.fen());
        }
    }
    for (i, fen) in &perft {
        w.game(*i, fen);
    }
    println!("fen: {} seeds", w.count);

    // moves: coordinate and SAN, from the start and from perft positions.
    let mut w = Writer::new(base, "moves");
    for (i, game) in games_played.iter().enumerate() {
        let coord: Vec<String> = game
            .iter()
            .take(12)
            .map(|(p, m)| notation::coord(p, m))
            .collect();
        w.game(i, &coord.join(" "));
        let san: Vec<String> = game
            .iter()
            .take(12)
            .map(|(p, m)| notation::san(p, m))
            .collect();
        w.game(i, &san.join(" "));
    }
    for (n, (i, fen)) in perft.iter().enumerate().filter(|(n, _)| n % 3 == 0) {
        let Ok(pos) = all[*i].start().with_fen(fen) else {
            continue;
        };
        let game = random_game(&pos, 6, n as u64 + 7);
        let san: Vec<String> = game.iter().map(|(p, m)| notation::san(p, m)).collect();
        w.game(*i, &format!("[FEN \"{fen}\"]\n{}", san.join(" ")));
    }
    println!("moves: {} seeds", w.count);

    // record: the records of tests/records, and each random game as a numbered record.
    let mut w = Writer::new(base, "record");
    let mut paths = Vec::new();
    files(&root().join("tests/records"), "txt", &mut paths);
    for p in &paths {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let def = ["delegating-chess", "middle-xiangqi", "gala-xiangqi"]
            .into_iter()
            .find(|d| name.starts_with(d));
        if let Some(i) = def.and_then(|d| game_index(&format!("{d}.variant"), &[])) {
            w.game(i, &fs::read_to_string(p).unwrap());
        }
    }
    for (i, game) in games_played.iter().enumerate() {
        let mut text = String::new();
        for (n, (p, m)) in game.iter().enumerate() {
            if n % 2 == 0 {
                text.push_str(&format!("{}. ", n / 2 + 1));
            }
            text.push_str(&notation::san(p, m));
            text.push(' ');
        }
        text.push_str("*\n");
        w.game(i, &text);
    }
    println!("record: {} seeds", w.count);

    // uci
    let mut w = Writer::new(base, "uci");
    for (i, input) in transcripts("uci") {
        w.game(i, &input);
    }
    for (i, game) in games_played.iter().enumerate() {
        let coord: Vec<String> = game
            .iter()
            .take(6)
            .map(|(p, m)| notation::coord(p, m))
            .collect();
        let fen = game
            .get(6)
            .map_or_else(|| all[i].start().fen(), |(p, _)| p.fen());
        let mut input = String::from("uci\nisready\nucinewgame\n");
        for o in all[i].variant.options() {
            input.push_str(&format!("setoption name {} value {}\n", o.name, !o.default));
        }
        input.push_str(&format!(
            "position startpos moves {}\ngo depth 1\nd\nposition fen {fen}\ngo wtime 1000 btime 1000 winc 10 binc 10 movestogo 5\nstop\ngo perft 1\nquit\n",
            coord.join(" ")
        ));
        w.game(i, &input);
    }
    println!("uci: {} seeds", w.count);

    // xboard
    let mut w = Writer::new(base, "xboard");
    for (i, input) in transcripts("xboard") {
        w.game(i, &input);
    }
    for (i, game) in games_played.iter().enumerate() {
        let g = all[i].start().tables().geometry();
        let moves: Vec<String> = game
            .iter()
            .take(6)
            .map(|(p, m)| rulebook::protocol::xboard::to_xboard(g, &notation::coord(p, m)))
            .collect();
        let fen = game
            .get(6)
            .map_or_else(|| all[i].start().fen(), |(p, _)| p.fen());
        let mut input = String::from("xboard\nprotover 2\nnew\nforce\n");
        for m in &moves {
            input.push_str(&format!("usermove {m}\n"));
        }
        input.push_str(&format!(
            "ping 1\nundo\nremove\npost\nlevel 40 5 0\ntime 3000\notim 3000\ngo\nping 2\nforce\nsetboard {fen}\nst 1\nsd 1\nplayother\n{}\nresult 1-0 {{done}}\nquit\n",
            moves.first().cloned().unwrap_or_default()
        ));
        w.game(i, &input);
    }
    println!("xboard: {} seeds", w.count);
}

fn describe(target: &str, file: &Path) -> ExitCode {
    let bytes = match fs::read(file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("cannot read {}: {e}", file.display());
            return ExitCode::FAILURE;
        }
    };
    println!("target: {target}");
    println!("file: {} ({} bytes)", file.display(), bytes.len());
    if target == "definition" {
        println!("text: {:?}", String::from_utf8_lossy(&bytes));
        return ExitCode::SUCCESS;
    }
    let Some((game, text)) = rulebook_fuzz::pick(&bytes) else {
        println!("empty input: nothing is run");
        return ExitCode::SUCCESS;
    };
    println!("first byte: {} -> game {}", bytes[0], game.label);
    println!("text: {text:?}");
    match target {
        "uci" => println!("as run (rewritten): {:?}", rulebook_fuzz::uci_input(&text)),
        "xboard" => println!(
            "as run (rewritten): {:?}",
            rulebook_fuzz::xboard_input(&text)
        ),
        _ => {}
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["corpus", dir] => {
            corpus(Path::new(dir));
            ExitCode::SUCCESS
        }
        ["describe", target, file] if TARGETS.contains(target) => describe(target, Path::new(file)),
        ["list"] => {
            for (i, g) in games().iter().enumerate() {
                println!("{i:3} (byte 0x{:02x}): {}", selector(i), g.label);
            }
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!(
                "usage: seeds corpus DIR | seeds describe {{{}}} FILE | seeds list",
                TARGETS.join(",")
            );
            ExitCode::FAILURE
        }
    }
}
