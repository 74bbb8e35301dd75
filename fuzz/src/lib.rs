//! What the fuzz targets share: every shipped definition, loaded once; how an input picks
//! one; the invariants every position must keep; and the rewriting that keeps protocol
//! inputs from searching for long.
//!
//! Inputs of `fen`, `moves`, `record`, `uci` and `xboard` are one byte that picks a game
//! ([`games`], modulo their count) followed by text (read lossily as UTF-8). `moves` and
//! `record` may start from another position: a first line `[FEN "..."]` (as in PGN) sets it.

use std::sync::OnceLock;

use rulebook::engine::{notation, Move, MoveKind, Position};
use rulebook::model::{PieceKind, Side, Tables, Variant};

include!(concat!(env!("OUT_DIR"), "/definitions.rs"));

/// A shipped definition compiled with one set of options.
#[derive(Debug)]
pub struct Game {
    /// The definition's path from the repository root, and the options set, if any.
    pub label: String,
    /// The checked definition.
    pub variant: Variant,
    /// The options set (empty: the defaults).
    pub options: Vec<(String, bool)>,
    /// The start position, compiled on first use ([`Game::start`]).
    start: OnceLock<Position>,
}

impl Game {
    /// The start position. Tables are compiled on first use only: a fuzzing process (and
    /// each job of `-fork`) then compiles just the games its inputs pick.
    pub fn start(&self) -> &Position {
        self.start.get_or_init(|| {
            let tables = Tables::compile(&self.variant, &self.options)
                .unwrap_or_else(|e| panic!("{} does not compile: {e}", self.label));
            Position::new(tables)
        })
    }
}

/// Every shipped definition with its default options, each followed by the same with one
/// option flipped; in the order of [`DEFINITIONS`].
pub fn games() -> &'static [Game] {
    static GAMES: OnceLock<Vec<Game>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let mut out = Vec::new();
        for (name, text) in DEFINITIONS {
            let variant = rulebook::load(name, text)
                .unwrap_or_else(|d| panic!("{name} does not load: {:?}", miette::Report::new(d)));
            let mut sets = vec![Vec::new()];
            for o in variant.options() {
                sets.push(vec![(o.name.clone(), !o.default)]);
            }
            for options in sets {
                let label = match options.first() {
                    None => name.to_string(),
                    Some((o, on)) => format!("{name} with {o}={}", if *on { "on" } else { "off" }),
                };
                out.push(Game {
                    label,
                    variant: variant.clone(),
                    options,
                    start: OnceLock::new(),
                });
            }
        }
        out
    })
}

/// The game an input's first byte picks, and the rest of the input as text.
pub fn pick(data: &[u8]) -> Option<(&'static Game, String)> {
    let (&first, rest) = data.split_first()?;
    let all = games();
    Some((
        &all[first as usize % all.len()],
        String::from_utf8_lossy(rest).into_owned(),
    ))
}

/// The byte that picks `games()[index]`.
pub fn selector(index: usize) -> u8 {
    u8::try_from(index).expect("at most 256 games")
}

/// Splits off a first line `[FEN "..."]`: the position it sets (the start position if it
/// does not read) and the rest of the text.
pub fn start_and_rest<'a>(game: &Game, text: &'a str) -> (Position, &'a str) {
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let fen = first
        .trim()
        .strip_prefix("[FEN \"")
        .and_then(|f| f.strip_suffix("\"]"));
    match fen {
        Some(fen) => match game.start().with_fen(fen) {
            Ok(pos) => (pos, rest),
            Err(e) => {
                assert!(
                    !e.to_string().contains('\n'),
                    "a FEN refusal is one line: {e}"
                );
                (game.start().clone(), rest)
            }
        },
        None => (game.start().clone(), text),
    }
}

/// Whether a known finding, named by `tag`, is to be let pass rather than reported, so that
/// a long run can go on past it: `RULEBOOK_FUZZ_KNOWN` holds the tags, comma-separated
/// (`tools/fuzz.sh --known TAGS` sets it). Tags:
/// - `fen-hidden-hand`: a FEN with pieces in hand is accepted for a variant without drops;
///   the hand is not written back but counts in the hash (`4k3/8/8/8/8/8/8/4K3[Q] w` in
///   Chess).
/// - `uci-setoption-while-infinite`: `setoption` of `Hash`, `Engine` or a variant option
///   after `go infinite` (and no `stop`) hangs: it waits for the search, which waits for
///   `stop`. With this tag [`uci_input`] sends `stop` before every `setoption`.
/// - `san-castle-twin`: the SAN of a king's step reads back as ambiguous when a castling
///   moves the same king to the same square (`Kb1` matches the step c1b1 and the castling
///   c1a1, whose own SAN is `O-O-O`).
pub fn known(tag: &str) -> bool {
    static TAGS: OnceLock<Vec<String>> = OnceLock::new();
    TAGS.get_or_init(|| {
        std::env::var("RULEBOOK_FUZZ_KNOWN")
            .unwrap_or_default()
            .split(',')
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect()
    })
    .iter()
    .any(|t| t == tag)
}

/// Whether `pos` holds pieces in hand that its FEN (`fen`) does not show.
fn hidden_hand(pos: &Position, fen: &str) -> bool {
    let t = pos.tables();
    let held =
        Side::all(t.sides()).any(|s| PieceKind::all(t.kinds()).any(|k| pos.in_hand(s, k) > 0));
    held && !fen.contains('[')
}

/// At most this many moves of one position are checked one by one.
const MOVES_CHECKED: usize = 400;

/// Checks what the project's invariant tests check for every position: the FEN reads back
/// to the same FEN and hash, every legal move prints and reads back in coordinate and SAN
/// notation, and playing then undoing a move restores the FEN and hash. Renders the
/// position's text and SVG pictures and each move's description too (for panics).
pub fn check_position(pos: &Position) {
    check_position_with(pos, true);
}

/// [`check_position`], the per-move notation round trips left out when `notations` is false
/// (they cost a move generation each; the `fen` target does them).
pub fn check_position_with(pos: &Position, notations: bool) {
    let fen = pos.fen();
    let again = pos
        .with_fen(&fen)
        .unwrap_or_else(|e| panic!("invariant: the FEN written does not read back: {fen}: {e}"));
    assert_eq!(again.fen(), fen, "invariant: FEN round trip");
    if again.hash() != pos.hash() && !(known("fen-hidden-hand") && hidden_hand(pos, &fen)) {
        panic!("invariant: hash after a FEN round trip differs ({fen})");
    }
    let _ = pos.outcome();
    let _ = pos.in_check();
    let moves = pos.legal_moves();
    let mut p = pos.clone();
    for m in moves.iter().take(MOVES_CHECKED) {
        let c = notation::coord(pos, m);
        if !notations {
            play_and_undo(&mut p, *m, &c, &fen);
            continue;
        }
        assert_eq!(
            notation::parse_move(pos, &c).as_ref(),
            Ok(m),
            "invariant: coordinate move {c} reads back ({fen})"
        );
        let s = notation::san(pos, m);
        let read = notation::parse_move(pos, &s);
        let castle_twin = || {
            moves.iter().any(|o| {
                matches!(o.kind, MoveKind::Castle(_))
                    && o != m
                    && o.piece == m.piece
                    && o.to == m.to
            })
        };
        if read.as_ref() != Ok(m) && !(known("san-castle-twin") && castle_twin()) {
            panic!("invariant: SAN move {s} ({c}) reads back as {read:?} ({fen})");
        }
        let _ = notation::move_info(pos, m);
        play_and_undo(&mut p, *m, &c, &fen);
    }
}

/// Draws the position the ways the CLI does (`board`, `diagram`).
pub fn render_position(pos: &Position) {
    let _ = rulebook::render::board_map(pos);
    let _ = rulebook::render::plain_position(pos);
    let _ = rulebook::render::position_diagram(pos);
    let _ = rulebook::render::board_svg(pos);
}

/// The longest search depth, perft depth, node count and move time a protocol input may ask
/// for: the protocol targets look for panics in reading commands, not in searching.
pub const MAX_DEPTH: u64 = 2;
/// See [`MAX_DEPTH`].
pub const MAX_NODES: u64 = 1_000;
/// The most `setoption` lines of one UCI input that are passed on (each may compile the
/// variant again, the dearest thing a protocol input can ask for).
pub const MAX_SETOPTIONS: usize = 3;
/// The deepest `go perft` a UCI input may ask for.
pub const MAX_PERFT: u64 = 1;
/// See [`MAX_DEPTH`] (milliseconds).
pub const MAX_MOVETIME_MS: u64 = 20;
/// The largest hash table (MB) a protocol input may ask for (4096 would allocate 4 GB).
pub const MAX_HASH_MB: u64 = 16;

/// Whether `RULEBOOK_FUZZ_RAW` is set: the protocol targets then pass their input on as it
/// is, to replay a finding exactly as a GUI would send it (searches may then be long).
pub fn raw() -> bool {
    static RAW: OnceLock<bool> = OnceLock::new();
    *RAW.get_or_init(|| std::env::var_os("RULEBOOK_FUZZ_RAW").is_some())
}

fn cap(word: &str, max: u64) -> Option<String> {
    match word.parse::<u64>() {
        Ok(n) if n > max => Some(max.to_string()),
        _ => None,
    }
}

/// Rewrites UCI input so that nothing searches for long:
/// - `go`: `perft N`, `depth N`, `nodes N` and `movetime N` are capped (at [`MAX_PERFT`],
///   [`MAX_DEPTH`], [`MAX_NODES`], [`MAX_MOVETIME_MS`]); a `go` without `perft` gets
///   `depth 2 nodes 1000`
///   appended (they come last, so they win). Clock words (`wtime`, `winc`, `movestogo`, ...)
///   and `infinite` are left alone: with a depth and a node limit the search ends anyway
///   (the node limit is needed: quiescence alone can run for minutes on big boards), and
///   `infinite` then waits for `stop` as the protocol says.
/// - `setoption name Hash value N`: N is capped at [`MAX_HASH_MB`]; `setoption` lines after
///   the first [`MAX_SETOPTIONS`] are dropped.
///
/// Everything else is passed on unchanged (words are re-joined by single spaces only on the
/// lines rewritten).
pub fn uci_input(text: &str) -> String {
    if raw() {
        return text.to_string();
    }
    let mut out = String::new();
    let mut setoptions = 0;
    for line in text.lines() {
        let mut words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        match words.first().map(String::as_str) {
            Some("go") => {
                let mut perft = false;
                for i in 1..words.len() {
                    let max = match words[i].as_str() {
                        "perft" => {
                            perft = true;
                            MAX_PERFT
                        }
                        "depth" => MAX_DEPTH,
                        "nodes" => MAX_NODES,
                        "movetime" => MAX_MOVETIME_MS,
                        _ => continue,
                    };
                    if let Some(next) = words.get(i + 1).and_then(|w| cap(w, max)) {
                        words[i + 1] = next;
                    }
                }
                if !perft {
                    words.push("depth".into());
                    words.push(MAX_DEPTH.to_string());
                    words.push("nodes".into());
                    words.push(MAX_NODES.to_string());
                }
                out.push_str(&words.join(" "));
            }
            Some("setoption") if setoptions >= MAX_SETOPTIONS => continue,
            Some("setoption") => {
                setoptions += 1;
                if known("uci-setoption-while-infinite") {
                    // A search told `go infinite` waits for `stop`; `setoption` (Hash, Engine,
                    // a variant option) waits for the search: without this they wait forever.
                    out.push_str("stop\n");
                }
                // As uci.rs reads it: the words after `setoption`, joined by spaces.
                let joined = words[1..].join(" ");
                let hash = joined.strip_prefix("name ").and_then(|rest| {
                    let (name, value) = rest.split_once(" value ")?;
                    (name.trim() == "Hash").then(|| cap(value.trim(), MAX_HASH_MB))?
                });
                match hash {
                    Some(v) => out.push_str(&format!("setoption name Hash value {v}")),
                    None => out.push_str(line),
                }
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// The fixed time per move every XBoard search gets (`st`, seconds): XBoard has no node
/// limit, and a depth alone does not bound a search (quiescence can run for minutes on big
/// boards). The engine aims 30 ms short of it, with 10 ms at least.
pub const XBOARD_ST: &str = "0.04";

/// Rewrites XBoard input so that nothing searches for long: it starts with `sd 2` and
/// `st 0.04`; `sd N` is capped at [`MAX_DEPTH`] and an `sd` whose depth does not read
/// becomes `sd 2`; `sd 2` follows every `new` (which forgets the depth), and `st 0.04`
/// every `st` and `level` (which set or forget the time per move, after their own values are
/// read: their parsing is fuzzed). `time` and `otim` are left alone; a fixed time per move
/// wins over the clock, so the clock arithmetic of the search is fuzzed by `uci` only.
pub fn xboard_input(text: &str) -> String {
    if raw() {
        return text.to_string();
    }
    let depth = format!("sd {MAX_DEPTH}\n");
    let time = format!("st {XBOARD_ST}\n");
    let mut out = format!("{depth}{time}");
    for line in text.lines() {
        // As xboard.rs reads it: the trimmed line, the command up to the first space.
        let trimmed = line.trim();
        let (cmd, rest) = trimmed.split_once(' ').unwrap_or((trimmed, ""));
        match cmd {
            "sd" => match rest.trim().parse::<u32>() {
                Ok(n) if u64::from(n) <= MAX_DEPTH => out.push_str(line),
                _ => out.push_str(depth.trim_end()),
            },
            _ => out.push_str(line),
        }
        out.push('\n');
        match cmd {
            "new" => out.push_str(&depth),
            "st" | "level" => out.push_str(&time),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_rewrites() {
        assert_eq!(uci_input("go"), "go depth 2 nodes 1000\n");
        assert_eq!(uci_input("go perft 5"), "go perft 1\n");
        assert_eq!(uci_input("go infinite"), "go infinite depth 2 nodes 1000\n");
        assert_eq!(
            uci_input("go depth 9 nodes 99999"),
            "go depth 2 nodes 1000 depth 2 nodes 1000\n"
        );
        assert_eq!(
            uci_input("setoption name A\n".repeat(5).as_str()),
            "setoption name A\n".repeat(3)
        );
        assert_eq!(
            uci_input("setoption name Hash value 4096"),
            "setoption name Hash value 16\n"
        );
        assert_eq!(
            uci_input("setoption name Hash value 0"),
            "setoption name Hash value 0\n"
        );
        assert_eq!(uci_input("position startpos"), "position startpos\n");
    }

    #[test]
    fn xboard_rewrites() {
        assert_eq!(xboard_input("new\ngo"), "sd 2\nst 0.04\nnew\nsd 2\ngo\n");
        assert_eq!(
            xboard_input("sd 9\nsd x\nsd 1"),
            "sd 2\nst 0.04\nsd 2\nsd 2\nsd 1\n"
        );
        assert_eq!(
            xboard_input("st 100\nlevel 40 5 0"),
            "sd 2\nst 0.04\nst 100\nst 0.04\nlevel 40 5 0\nst 0.04\n"
        );
    }
}

/// Plays `m` (named `c`) in `p`, writes the FEN it reaches, takes it back, and asserts the
/// position at `fen` and its hash are restored.
fn play_and_undo(p: &mut Position, m: Move, c: &str, fen: &str) {
    let hash = p.hash();
    p.play(m);
    let _ = p.fen();
    p.undo_move();
    assert_eq!(p.fen(), fen, "invariant: undo of {c} restores the FEN");
    assert_eq!(
        p.hash(),
        hash,
        "invariant: undo of {c} restores the hash ({fen})"
    );
}
