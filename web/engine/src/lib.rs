//! Rulebook for a web page: every request is a JSON object and every answer one, so that the
//! page's JavaScript needs no binding generator.
//!
//! Over WebAssembly's memory: the page asks `rb_alloc(n)` for `n` bytes, writes the request
//! there in UTF-8, and calls `rb_call(ptr, n)`, which frees the request and returns the
//! address of the answer: four bytes of length (little-endian), then the UTF-8 text. The page
//! reads it and hands it back with `rb_free(ptr, 4 + length)`. The module imports one
//! function, `env.rulebook_now_ms` (the page's `performance.now`), the engine's clock.
//!
//! Every request that carries a `definition` may also name its `file`, the path of a shipped
//! definition under `definitions/` (`library/capablanca.variant`): a `from` clause finds its
//! base from there among the shipped definitions, which the module carries. Without `file`,
//! bases are named from `definitions/` itself (`from "chess.variant"`).
//!
//! Requests (`op` and its fields):
//! - `check` `{definition}`: `{valid, report, options}`, the report as `rulebook check
//!   --format json` writes it (each problem in `report.related`), every span with its line
//!   and column, and the names of the definition's options when it is valid.
//! - `position` `{definition, options?, fen?, moves?}`: `{fen, to_move, legal, outcome,
//!   svg, squares}`: the position after the moves (coordinate or algebraic), its legal moves
//!   (each as `rulebook moves --format json` describes it), the result if the game is over,
//!   the board drawn, where each square is in the picture (`[name, x, y, size]`), the
//!   players in turn order, and the definition's options (`[{name, description, on}]`, `on`
//!   as in force).
//! - `perft` `{definition, options?, fen?, moves?, depth}`: `{nodes}`.
//! - `best` `{definition, options?, fen?, moves?, millis}`: `{move, depth, nodes}`, the
//!   engine's move within that time (`move` is null when there is none).
//! - `pieces` `{definition, options?}`: the piece table, `[{name, letter, betza, moves,
//!   facts, declaration}]`, in the words `rulebook describe` uses, with the piece's
//!   declaration as written (`{text, offset, length}`, in bytes of the definition).
//! - `diagram` `{definition, options?, fen?, moves?, square, alone?}`: `{svg}`, the move
//!   diagram of the piece on that square as `rulebook diagram` draws it: its legal moves in
//!   the position, or with `alone` everything it could do on an empty board.
//!
//! A failure of any kind is `{error}`, one line; nothing panics across the boundary.

use rulebook::engine::{notation, perft, record, search, Position};
use rulebook::model::Tables;
use rulebook::render::DiagramMode;
use rulebook::syntax::ast::Item;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// One request from the page.
#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
enum Request {
    Check {
        definition: String,
        file: Option<String>,
    },
    Position {
        #[serde(flatten)]
        game: Game,
    },
    Perft {
        #[serde(flatten)]
        game: Game,
        depth: u32,
    },
    Best {
        #[serde(flatten)]
        game: Game,
        millis: u64,
    },
    Pieces {
        #[serde(flatten)]
        game: Game,
    },
    Diagram {
        #[serde(flatten)]
        game: Game,
        square: String,
        #[serde(default)]
        alone: bool,
    },
}

/// A game: the definition, its options, and the position in it.
#[derive(Deserialize)]
struct Game {
    definition: String,
    file: Option<String>,
    #[serde(default)]
    options: Vec<(String, bool)>,
    fen: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
}

mod shipped {
    include!(concat!(env!("OUT_DIR"), "/shipped.rs"));
}

/// The shipped definitions, as bases for `from`.
fn bases() -> &'static BTreeMap<String, String> {
    static BASES: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    BASES.get_or_init(|| {
        shipped::SHIPPED
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect()
    })
}

/// The name a definition is read under: its shipped path, if the page gave one.
fn name(file: Option<&str>) -> &str {
    file.unwrap_or("definition")
}

/// Deeper perft than this would keep the page busy for minutes; the page asks again.
const MAX_PERFT_DEPTH: u32 = 8;

impl Game {
    fn position(&self) -> Result<Position, String> {
        let name = name(self.file.as_deref());
        let variant = rulebook::load_with(name, &self.definition, bases()).map_err(|d| {
            format!(
                "the definition has {} error(s): check it",
                d.errors().count()
            )
        })?;
        let tables = Tables::compile(&variant, &self.options).map_err(|e| e.to_string())?;
        let start = Position::new(tables);
        let mut pos = match &self.fen {
            Some(fen) => start.with_fen(fen).map_err(|e| e.to_string())?,
            None => start,
        };
        notation::play_line(&mut pos, self.moves.iter().map(String::as_str))
            .map_err(|e| e.to_string())?;
        Ok(pos)
    }
}

/// The answer to one request text.
pub fn answer(request: &str) -> Value {
    let request: Request = match serde_json::from_str(request) {
        Ok(r) => r,
        Err(e) => return json!({ "error": format!("bad request: {e}") }),
    };
    match respond(request) {
        Ok(v) => v,
        Err(e) => json!({ "error": e }),
    }
}

fn respond(request: Request) -> Result<Value, String> {
    match request {
        Request::Check { definition, file } => {
            let report = rulebook::check_source_with(name(file.as_deref()), &definition, bases());
            let diagnostics = match &report.diagnostics {
                Some(d) => d.to_json().map_err(|e| e.to_string())?,
                None => json!({ "related": [] }),
            };
            let options: Vec<&str> = report
                .variant
                .iter()
                .flat_map(|v| v.options())
                .map(|o| o.name.as_str())
                .collect();
            Ok(json!({ "valid": !report.has_errors, "report": diagnostics, "options": options }))
        }
        Request::Position { game } => {
            let pos = game.position()?;
            let ended = pos.repeated_to_end();
            let legal: Vec<notation::MoveInfo> = match ended {
                true => Vec::new(),
                false => pos
                    .legal_moves()
                    .iter()
                    .map(|m| notation::move_info(&pos, m))
                    .collect(),
            };
            let g = pos.tables().geometry();
            let squares: Vec<Value> = g
                .squares()
                .filter(|&sq| !g.is_hole(sq))
                .map(|sq| {
                    let (x, y, size) = rulebook::render::square_box(g, sq);
                    json!([g.name(sq).to_string(), x, y, size])
                })
                .collect();
            let outcome = pos.outcome().map(|o| record::describe(&pos, &o));
            let to_move = pos.tables().variant().side(pos.side_to_move()).name.clone();
            Ok(json!({
                "fen": pos.fen(),
                "to_move": to_move,
                "legal": legal,
                "outcome": outcome,
                "svg": rulebook::render::board_svg(&pos),
                "squares": squares,
                "sides": pos.tables().sides(),
                "players": pos.tables().variant().sides().iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
                "options": options(pos.tables()),
            }))
        }
        Request::Perft { game, depth } => {
            if depth > MAX_PERFT_DEPTH {
                return Err(format!("perft depth {depth}: at most {MAX_PERFT_DEPTH}"));
            }
            let mut pos = game.position()?;
            Ok(json!({ "nodes": perft(&mut pos, depth) }))
        }
        Request::Pieces { game } => {
            let pos = game.position()?;
            let t = pos.tables();
            let file = rulebook::syntax::parse(&game.definition).map_err(|_| "not valid")?;
            let pieces: Vec<Value> = rulebook::model::PieceKind::all(t.kinds())
                .map(|kind| {
                    let def = t.variant().piece(kind);
                    let prose = rulebook::render::piece_prose(t, kind);
                    let declaration = file.items.iter().find_map(|item| match item {
                        Item::Piece(d) if d.name.node == def.name => {
                            let text = game.definition[d.span.start..d.span.end].trim_end();
                            Some(json!({ "text": text, "offset": d.span.start, "length": text.len() }))
                        }
                        _ => None,
                    });
                    json!({
                        "name": def.name,
                        "letter": def.letter.to_string(),
                        "betza": prose.betza,
                        "moves": prose.moves,
                        "facts": prose.facts,
                        "declaration": declaration,
                    })
                })
                .collect();
            Ok(json!(pieces))
        }
        Request::Diagram {
            game,
            square,
            alone,
        } => {
            let pos = game.position()?;
            let g = pos.tables().geometry();
            let sq = g
                .parse(&square)
                .filter(|&sq| !g.is_hole(sq))
                .ok_or_else(|| format!("`{square}` is not a square of this board"))?;
            let piece = pos
                .piece_at(sq)
                .ok_or_else(|| format!("no piece on {square}"))?;
            let (shown, mode) = match alone {
                true => (pos.alone(sq, piece), DiagramMode::Alone),
                false => (pos.clone(), DiagramMode::InPosition),
            };
            Ok(json!({ "svg": rulebook::render::move_diagram_svg(&shown, &[sq], mode) }))
        }
        Request::Best { game, millis } => {
            let pos = game.position()?;
            let mut engine = search::Engine::new(&pos, 16);
            let limits = search::Limits {
                movetime: Some(std::time::Duration::from_millis(millis.clamp(1, 600_000))),
                ..Default::default()
            };
            let (best, report) = engine.search(&pos, &limits, &mut |_| {});
            Ok(json!({
                "move": best.map(|m| notation::move_info(&pos, &m)),
                "depth": report.depth,
                "nodes": report.nodes,
            }))
        }
    }
}

/// The definition's options, each with its value in force.
fn options(t: &Tables) -> Vec<Value> {
    t.variant()
        .options()
        .iter()
        .zip(t.options())
        .map(|(o, &on)| json!({ "name": o.name, "description": o.description, "on": on }))
        .collect()
}

/// Room for `len` bytes, for the page to write a request into.
#[no_mangle]
pub extern "C" fn rb_alloc(len: usize) -> *mut u8 {
    // A boxed slice is exactly as long as asked, so its length is all `rb_free` needs.
    Box::into_raw(vec![0u8; len.max(1)].into_boxed_slice()).cast()
}

/// Gives back `len` bytes from [`rb_alloc`] or an answer of [`rb_call`].
///
/// # Safety
/// `ptr` and `len` must be those of one allocation made here, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn rb_free(ptr: *mut u8, len: usize) {
    let slice = std::ptr::slice_from_raw_parts_mut(ptr, len.max(1));
    // SAFETY: the caller gives back a boxed slice of this module, whole.
    drop(unsafe { Box::from_raw(slice) });
}

/// Answers the request of `len` bytes at `ptr` (which it frees): the answer's address, a
/// four-byte little-endian length before its text.
///
/// # Safety
/// `ptr` and `len` must be an allocation of [`rb_alloc`] holding the request.
#[no_mangle]
pub unsafe extern "C" fn rb_call(ptr: *mut u8, len: usize) -> *mut u8 {
    let slice = std::ptr::slice_from_raw_parts_mut(ptr, len.max(1));
    // SAFETY: the page wrote the request into an allocation of `rb_alloc` of this length.
    let bytes = unsafe { Box::from_raw(slice) };
    let answer = match std::str::from_utf8(&bytes[..len]) {
        Ok(text) => answer(text),
        Err(_) => json!({ "error": "the request is not UTF-8" }),
    };
    drop(bytes);
    let text = answer.to_string();
    let length = u32::try_from(text.len()).unwrap_or(u32::MAX).to_le_bytes();
    let mut out = Vec::with_capacity(4 + text.len());
    out.extend_from_slice(&length);
    out.extend_from_slice(text.as_bytes());
    Box::into_raw(out.into_boxed_slice()).cast()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess() -> String {
        std::fs::read_to_string("../../definitions/chess.variant").unwrap()
    }

    #[test]
    fn perft_and_positions_answer_as_the_command_line_does() {
        let a = answer(&json!({"op": "perft", "definition": chess(), "depth": 3}).to_string());
        assert_eq!(a["nodes"], 8902);
        let a = answer(
            &json!({"op": "position", "definition": chess(), "moves": ["e4", "e7e5"]}).to_string(),
        );
        assert_eq!(
            a["fen"],
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        assert_eq!(a["legal"].as_array().unwrap().len(), 29);
        assert_eq!(a["legal"][0]["from"], "b1");
        assert!(a["svg"].as_str().unwrap().starts_with("<svg"));
        assert_eq!(a["squares"].as_array().unwrap().len(), 64);
        assert_eq!(a["squares"][0], json!(["a1", 24, 304, 40]));
        assert_eq!(a["players"], json!(["white", "black"]));
        let a = answer(
            &json!({"op": "best", "definition": chess(), "moves": ["f3", "e5", "g4"], "millis": 200})
                .to_string(),
        );
        assert_eq!(a["move"]["san"], "Qh4#");
        let a = answer(&json!({"op": "pieces", "definition": chess()}).to_string());
        let rook = &a[2]["declaration"];
        assert_eq!(
            rook["text"],
            "piece Rook R value 5\n  move slide orthogonal"
        );
        let at = rook["offset"].as_u64().unwrap() as usize;
        assert!(chess()[at..].starts_with("piece Rook"));
        let knight = a
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "Knight")
            .unwrap();
        assert_eq!(knight["letter"], "N");
        assert!(knight["betza"].as_str().unwrap().contains('N'));
        let a =
            answer(&json!({"op": "diagram", "definition": chess(), "square": "g1"}).to_string());
        assert!(a["svg"].as_str().unwrap().contains("<svg"));
        let a =
            answer(&json!({"op": "diagram", "definition": chess(), "square": "e4"}).to_string());
        assert_eq!(a["error"], "no piece on e4");
    }

    #[test]
    fn options_are_listed_and_change_the_game() {
        let four = std::fs::read_to_string("../../definitions/gala-xiangqi-four.variant").unwrap();
        let a = answer(&json!({"op": "check", "definition": four}).to_string());
        assert_eq!(
            a["options"],
            json!(["teams", "shared-border", "korean-cannons"])
        );
        let request = |options: Value| {
            json!({"op": "position", "definition": four, "options": options}).to_string()
        };
        let a = answer(&request(json!([])));
        assert_eq!(a["options"][0]["name"], "teams");
        assert_eq!(a["options"][0]["on"], false);
        let a = answer(&request(json!([["teams", true], ["shared-border", true]])));
        assert_eq!(a["options"][0]["on"], true);
        assert_eq!(a["options"][1]["on"], true);
        let perft = |options: Value| {
            let r = json!({"op": "perft", "definition": four, "options": options, "depth": 2});
            answer(&r.to_string())["nodes"].clone()
        };
        // As `rulebook perft` counts them, with and without `--option korean-cannons`.
        assert_eq!(perft(json!([])), 3607);
        assert_eq!(perft(json!([["korean-cannons", true]])), 10273);
        let a = answer(&request(json!([["no-such", true]])));
        assert!(a["error"]
            .as_str()
            .unwrap()
            .contains("unknown option `no-such`"));
    }

    #[test]
    fn a_definition_finds_its_base_among_the_shipped_ones() {
        let top = "variant \"Renamed\" from \"chess.variant\"\n";
        let a = answer(&json!({"op": "perft", "definition": top, "depth": 3}).to_string());
        assert_eq!(a["nodes"], 8902, "{a}");
        // Named as a library file, the path is taken from `library/`.
        let a = answer(
            &json!({"op": "perft", "definition": top.replace("\"chess", "\"../chess"),
                    "file": "library/renamed.variant", "depth": 2})
            .to_string(),
        );
        assert_eq!(a["nodes"], 400, "{a}");
        let a = answer(
            &json!({"op": "check", "definition": "variant \"X\" from \"nope.variant\"\n"})
                .to_string(),
        );
        assert_eq!(a["valid"], false);
        assert_eq!(
            a["report"]["related"][0]["code"],
            "rulebook::base::unreadable"
        );
    }

    #[test]
    fn a_bad_definition_is_reported_with_lines_and_columns() {
        let text = chess().replacen("in last-rank", "in last-rnk", 1);
        let a = answer(&json!({"op": "check", "definition": text}).to_string());
        assert_eq!(a["valid"], false);
        let first = &a["report"]["related"][0];
        assert_eq!(first["code"], "rulebook::names::unknown_zone");
        assert_eq!(first["labels"][0]["span"]["line"], 30);
        assert_eq!(first["labels"][0]["span"]["column"], 42);
    }

    #[test]
    fn requests_cross_the_memory_boundary_and_are_freed() {
        let request = json!({"op": "perft", "definition": chess(), "depth": 1}).to_string();
        let at = rb_alloc(request.len());
        // SAFETY: `at` holds `request.len()` bytes from `rb_alloc`; the answer is read by its
        // length prefix and freed with it, as the page does.
        let text = unsafe {
            std::ptr::copy_nonoverlapping(request.as_ptr(), at, request.len());
            let answer = rb_call(at, request.len());
            let mut length = [0u8; 4];
            std::ptr::copy_nonoverlapping(answer, length.as_mut_ptr(), 4);
            let n = u32::from_le_bytes(length) as usize;
            let text = String::from_utf8(std::slice::from_raw_parts(answer.add(4), n).to_vec());
            rb_free(answer, 4 + n);
            text.unwrap()
        };
        assert_eq!(text, r#"{"nodes":20}"#);
    }

    #[test]
    fn bad_requests_are_one_line_errors() {
        for request in ["", "{}", r#"{"op":"perft","definition":"x","depth":1}"#] {
            let a = answer(request);
            let e = a["error"].as_str().unwrap();
            assert!(!e.contains('\n'), "{e}");
        }
        let a = answer(&json!({"op": "perft", "definition": chess(), "depth": 99}).to_string());
        assert!(a["error"].as_str().unwrap().contains("at most"));
    }
}
