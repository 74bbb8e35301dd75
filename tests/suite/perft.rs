//! Perft suites: published reference counts kept as TOML data, driven by one test.
//!
//! Cases marked `deep = true` run only with `cargo test --release -- --ignored`. Cases named
//! `..., Chess960` are Fairy-Stockfish's Chess960 positions (castling from wherever king and
//! rook stand): their definitions declare such castlings (`castling King to g1 with Rook to
//! f1`). A case may start after `moves` played from the start (or its FEN).

use std::path::Path;

use rulebook::engine::{perft, Position};
use rulebook::model::Tables;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Suite {
    definition: String,
    #[serde(default)]
    options: Vec<String>,
    case: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    fen: Option<String>,
    /// Moves played first, from the FEN or the start, in any notation.
    moves: Option<String>,
    depth: u32,
    nodes: u64,
    #[serde(default)]
    deep: bool,
}

/// Upper bound on nodes a non-deep case may count, so the default suite stays fast.
const NODE_BUDGET: u64 = 2_000_000;

fn run_suites(deep: bool) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut ran = 0;
    let mut wrong = Vec::new();
    // The shipped games' suites, then the library's (Fairy-Stockfish's own cases).
    let mut entries: Vec<_> = ["tests/perft", "tests/perft/library"]
        .iter()
        .flat_map(|d| std::fs::read_dir(dir.join(d)).unwrap())
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let suite: Suite = toml::from_str(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let file = dir.join("definitions").join(&suite.definition);
        let text = std::fs::read_to_string(&file).unwrap();
        // By its path, so that a base it names is found beside it.
        let variant =
            rulebook::load(&file.display().to_string(), &text).expect("shipped definitions load");
        let options: Vec<(String, bool)> = suite
            .options
            .iter()
            .map(|o| match o.split_once('=') {
                Some((n, v)) => (n.to_string(), v == "on"),
                None => (o.clone(), true),
            })
            .collect();
        let start = Position::new(Tables::compile(&variant, &options).unwrap());
        for case in suite.case.iter().filter(|c| c.deep == deep) {
            if !deep {
                assert!(
                    case.nodes <= NODE_BUDGET,
                    "{}: `{}` is over the node budget; mark it deep",
                    path.display(),
                    case.name
                );
            }
            let mut pos = match &case.fen {
                Some(f) => start.with_fen(f).unwrap(),
                None => start.clone(),
            };
            for text in case.moves.iter().flat_map(|m| m.split_whitespace()) {
                let m = rulebook::engine::notation::parse_move(&pos, text)
                    .unwrap_or_else(|e| panic!("{}: `{}`: {text}: {e}", path.display(), case.name));
                pos.play(m);
            }
            let got = perft(&mut pos, case.depth);
            if got != case.nodes {
                wrong.push(format!(
                    "{} `{}` depth {}: {got} nodes, published {}",
                    suite.definition, case.name, case.depth, case.nodes
                ));
            }
            ran += 1;
        }
    }
    assert!(ran > 0, "no perft case ran");
    // Every mismatch at once: one wrong rule usually shows in several suites.
    assert!(
        wrong.is_empty(),
        "{} of {ran} perft cases differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn perft_suites() {
    run_suites(false);
}

#[test]
#[ignore = "deep perft: run with `cargo test --release -- --ignored`"]
fn perft_suites_deep() {
    run_suites(true);
}
