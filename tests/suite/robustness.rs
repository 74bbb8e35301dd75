//! No input may make checking or formatting panic or hang: the shipped definitions are fed
//! truncated at many points and with many pseudo-random edits.

use std::path::Path;

/// A small deterministic generator, so that a failure can be replayed.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Fragments likely to reach unusual paths: keywords, limits, picture characters, nesting.
const FRAGMENTS: &[&str] = &[
    " ",
    "\n",
    "\n  ",
    "\t",
    "\r\n",
    "#",
    "\"",
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    "|",
    "-",
    "+",
    "=",
    "0",
    "1",
    "26",
    "27",
    "99999999999999999999",
    "-99999999999",
    "z26",
    "a0",
    "a1-z99",
    "x",
    ".",
    "mask\n  x.\n",
    "setup\n  k\n",
    "like King",
    "like Pawn",
    " then step same",
    " up to 0",
    " up to 99999999999",
    "(0,0)",
    "[25,-25]",
    "(26,1)",
    "not not ",
    " and ",
    " except ",
    "zone ",
    "piece ",
    "move ",
    "royal",
    "value ",
    "rules\n  ",
    "checkmate",
    "stalemate loses",
    "repetition 1 draws",
    "castling ",
    ", mirrored",
    ", rotated",
    "if drops:",
    "unless x:",
    "promote to ",
    " in or from ",
    "demote to ",
    "drop max 0 per file",
    "sides a north, b south, c east",
    "board 0 x 0",
    "board 26 x 26",
    "é",
    "\u{0}",
    "bent ",
    " bent slide orthogonal in a, diagonal in b",
    ", shot",
    ", capturing royal",
    ", capturing King",
    ", into ",
    ", not into ",
    " holding King",
    "teleport next to King",
    ", not attacking",
    "partition p = a1 | not a1\n",
    "stay within ",
    " inward",
    " outward in castle, same in road",
    "if shared-border: setup\n  k\n",
];

fn definitions() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("definitions");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("definitions/ exists") {
        let path = entry.expect("readable entry").path();
        if path.extension().is_some_and(|e| e == "variant") {
            let text = std::fs::read_to_string(&path).expect("readable definition");
            out.push((path.display().to_string(), text));
        }
    }
    assert!(!out.is_empty());
    out
}

/// Checks `text` and exercises what it defines. The work is bounded by steps, not timed: the
/// checker is linear in the text but for the similar-name search, whose bounds a unit test in
/// `check::names` pins, and the exercise is a depth-2 perft and one diagram per piece.
fn check(name: &str, text: &str) {
    let report = rulebook::check_source(name, text);
    // Rendering walks every span against the text, so bad spans would show here.
    if let Some(d) = &report.diagnostics {
        let mut out = String::new();
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_width(80)
            .render_report(&mut out, d)
            .expect("writing to a String cannot fail");
    }
    if let Some(variant) = &report.variant {
        exercise(variant);
    }
    format(name, text, &report);
}

/// `rulebook fmt` on the same text: a layout or the checker's syntax errors, and a layout
/// that stays as it is when laid out again and is the same game.
fn format(name: &str, text: &str, report: &rulebook::CheckReport) {
    let Ok(formatted) = rulebook::syntax::format::format(text) else {
        return;
    };
    if formatted != text {
        let twice = rulebook::syntax::format::format(&formatted)
            .unwrap_or_else(|e| panic!("{name}: the layout does not format: {e:?}\n{text}"));
        assert_eq!(twice, formatted, "{name}: formatting twice:\n{text}");
        let again = rulebook::load(name, &formatted).ok();
        assert!(
            again == report.variant,
            "{name}: the layout changed the game:\n{text}"
        );
    }
}

/// Whatever the checker accepts, the engine and the renderer must handle: compile it, list the
/// moves, count two plies, round-trip the FEN and draw every piece's diagram.
fn exercise(variant: &rulebook::model::Variant) {
    let Ok(tables) = rulebook::model::Tables::compile(variant, &[]) else {
        return;
    };
    let mut pos = rulebook::engine::Position::new(tables);
    let fen = pos.fen();
    assert_eq!(pos.with_fen(&fen).map(|p| p.fen()), Ok(fen.clone()));
    rulebook::engine::perft(&mut pos, 2);
    let _ = pos.outcome();
    let _ = rulebook::render::board_map(&pos);
    let g = variant.geometry();
    let centre = g
        .square(g.width as i32 / 2, g.height as i32 / 2)
        .expect("on the board");
    for k in 0..variant.pieces().len() {
        let piece = rulebook::engine::Piece {
            side: rulebook::model::Side::FIRST,
            kind: rulebook::model::PieceKind::from_index(k).unwrap(),
        };
        let alone = pos.alone(centre, piece);
        let _ =
            rulebook::render::move_diagram(&alone, &[centre], rulebook::render::DiagramMode::Alone);
        let _ = alone.legal_moves();
    }
}

#[test]
fn truncated_definitions_do_not_panic() {
    for (name, text) in definitions() {
        let mut cut = 0;
        while cut < text.len() {
            if text.is_char_boundary(cut) {
                check(&name, &text[..cut]);
            }
            cut += 5;
        }
    }
}

#[test]
fn edited_definitions_do_not_panic() {
    // `RULEBOOK_FUZZ_ROUNDS` runs longer searches on demand.
    let rounds: usize = std::env::var("RULEBOOK_FUZZ_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1000);
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for (name, text) in definitions() {
        for _ in 0..rounds {
            let mut bytes = text.clone().into_bytes();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(bytes.len() + 1).min(bytes.len());
                match rng.below(4) {
                    0 => {
                        let len = rng.below(12).min(bytes.len() - at);
                        bytes.drain(at..at + len);
                    }
                    1 => {
                        let fragment = FRAGMENTS[rng.below(FRAGMENTS.len())];
                        bytes.splice(at..at, fragment.bytes());
                    }
                    2 if at < bytes.len() => bytes[at] = (rng.next() & 0x7f) as u8,
                    _ => {
                        // Duplicate a slice elsewhere: repeated declarations and clauses.
                        let from = rng.below(bytes.len());
                        let len = rng.below(80).min(bytes.len() - from);
                        let copy: Vec<u8> = bytes[from..from + len].to_vec();
                        bytes.splice(at..at, copy);
                    }
                }
            }
            let edited = String::from_utf8_lossy(&bytes).into_owned();
            check(&name, &edited);
        }
    }
}

#[test]
fn pathological_inputs_do_not_panic() {
    let deep = format!("zone z = {}a1{}", "(".repeat(10_000), ")".repeat(10_000));
    check("deep", &deep);
    let nots = format!("zone z = {}a1", "not ".repeat(10_000));
    check("nots", &nots);
    let chain: String = (0..3_000)
        .map(|i| format!("zone zz{i} = zz{}\n", i + 1))
        .collect();
    check("chain", &format!("board 8 x 8\n{chain}zone zz3000 = zz0\n"));
    let ands = format!("zone z = a1{}", " and a1".repeat(10_000));
    check("ands", &ands);
    let likes: String = (0..3_000)
        .map(|i| {
            format!(
                "piece P{i} A\n  move like P{} | like P{} | leap [{},{}]\n",
                i + 1,
                i + 1,
                i % 25,
                i / 25 % 25 + 1
            )
        })
        .collect();
    check("likes", &likes);
    let long_line = "x".repeat(100_000);
    check("long", &long_line);
}

/// Inputs that once made a command panic or take minutes, each a reproducer.
#[test]
fn reported_panics_and_slow_inputs_stay_fixed() {
    // An en-passant field where no piece takes en passant is read as Fairy-Stockfish reads
    // it: ignored.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (file, fen) in [
        (
            "xiangqi",
            "rnbakabnr/9/1c5c1/p1p1P1p1p/9/9/P1P3P1P/1C5C1/9/RNBAKABNR b - e6 0 1",
        ),
        (
            "shogi",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/4P4/PPPP1PPPP/1B5R1/LNSGKGSNL[] b - e6 0 1",
        ),
        (
            "gala-xiangqi",
            "kga1r1p2P1R1AGK/gbe2c4C2EBG/aeb3s2S3BEA/4hv4VH4/r2h2p2P2H2R/1c1v8V1C1/p1s1p1s2S1P1S1P/16/16/P1S1P1S2s1p1s1p/1C1V8v1c1/R2H2P2p2h2r/4HV4vh4/AEB3S2s3bea/GBE2C4c2ebg/KGA1R1P2p1r1agk w - e6 0 1",
        ),
    ] {
        let text = std::fs::read_to_string(root.join(format!("definitions/{file}.variant"))).unwrap();
        let variant = rulebook::load(file, &text).unwrap();
        let tables = rulebook::model::Tables::compile(&variant, &[]).unwrap();
        let pos = rulebook::engine::Position::new(tables)
            .with_fen(fen)
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(!pos.legal_moves().is_empty(), "{file}");
        assert!(!pos.fen().contains("e6"), "{file}: {}", pos.fen());
    }

    // A diagnostic at a very wide column, and a name as long as that, are refused before any
    // formatter is asked for such a width.
    let wide = format!(
        "variant \"X\"\nboard 8 x 8\nsides white north, black south\n{}zonk a = a1\n",
        " ".repeat(70_000)
    );
    check("wide", &wide);
    let report = rulebook::check_source("wide", &wide);
    assert_eq!(codes(&report), ["rulebook::file::line_too_long"]);
    let chess = std::fs::read_to_string(root.join("definitions/chess.variant")).unwrap();
    let long_name = format!("K{}", "i".repeat(70_000));
    let renamed = chess.replace("King", &long_name);
    check("long name", &renamed);
    assert_eq!(
        codes(&rulebook::check_source("long name", &renamed)),
        ["rulebook::file::line_too_long"]
    );
    let name_of_200 = format!("K{}", "i".repeat(199));
    let renamed = chess.replace("King", &name_of_200);
    check("name of 200", &renamed);
    assert!(codes(&rulebook::check_source("name of 200", &renamed))
        .iter()
        .all(|c| c == "rulebook::file::word_too_long"));

    // 15,000 unknown names, each looked up among 15,000 declared ones: the search for a
    // similar name is bounded (a unit test in `check::names` pins the bound).
    let many: String = (0..15_000)
        .map(|i| format!("zone zone{i} = yone{i}\n"))
        .collect();
    let text = format!("variant \"X\"\nboard 8 x 8\nsides white north, black south\n{many}");
    let report = rulebook::check_source("many", &text);
    let d = report.diagnostics.expect("unknown zones are reported");
    assert_eq!(d.problems().len(), rulebook::Diagnostics::MAX_LISTED + 1);
}

fn codes(report: &rulebook::CheckReport) -> Vec<String> {
    report
        .diagnostics
        .iter()
        .flat_map(|d| d.problems())
        .filter_map(|p| miette::Diagnostic::code(p).map(|c| c.to_string()))
        .collect()
}

/// What the fuzz targets in `fuzz/` found (their reproducers are in `fuzz/regressions/`).
#[test]
fn fuzz_findings_stay_fixed() {
    let chess = common_start("definitions/chess.variant");
    // A long run of empty squares followed by a hole mark: a one-line refusal.
    assert!(chess
        .with_fen("99999999999*/8/8/8/8/8/8/8 w - - 0 1")
        .is_err());
    // A hand where the game keeps none is refused, not silently dropped.
    let e = chess
        .with_fen("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1")
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid fen: this game keeps no pieces in hand"
    );
    let gala = common_start("definitions/gala.variant");
    assert!(gala
        .with_fen("gkh2+ppkhg/khp4pkh/hp7k/p6p1p/10/10/P8P/KP6PH/HKP2P1khg/khp4pkh/hG w 4")
        .is_err());
    // A king's step and a castling with the same squares: `Kb1` is the step.
    let twin = common_start("fuzz/regressions/definition/san-castle-twin.variant");
    let m = rulebook::engine::notation::parse_move(&twin, "Kb1").unwrap();
    assert_eq!(m.kind, rulebook::engine::MoveKind::Normal);
    let r = rulebook::engine::record::replay(&twin, "Kb1").unwrap();
    assert_eq!(r.plies.len(), 1);
    let castle = rulebook::engine::notation::parse_move(&twin, "O-O-O").unwrap();
    assert!(matches!(castle.kind, rulebook::engine::MoveKind::Castle(_)));
}

fn common_start(path: &str) -> rulebook::engine::Position {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(path)).unwrap();
    let variant = rulebook::load(path, &text).unwrap();
    rulebook::engine::Position::new(rulebook::model::Tables::compile(&variant, &[]).unwrap())
}

/// Atomic allows two kings of a side; a castling letter then cannot say whose right it is,
/// and the right is dropped, so the FEN written reads back to the same position.
#[test]
fn castling_rights_with_two_kings_are_dropped() {
    let atomic = common_start("definitions/library/atomic.variant");
    let pos = atomic.with_fen("kr5k/8/8/8/8/8/8/4K3 w q - 0 1").unwrap();
    assert_eq!(pos.fen(), "kr5k/8/8/8/8/8/8/4K3 w - - 0 1");
    let back = atomic.with_fen(&pos.fen()).unwrap();
    assert_eq!(back.hash(), pos.hash());
}

/// A second castling king made by a promotion (Kinglet Chess with its promotion rank moved to
/// the fourth): the FEN names no castling right for that side, since no letter could say
/// whose it is, and it reads back to itself (it used to write `KQkq` and read back `kq`).
#[test]
fn a_second_castling_king_leaves_its_rights_out_of_the_fen() {
    // Kinglet is built on chess: a zone of the same name replaces chess's promotion zone.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("definitions/library/kinglet.variant");
    let text = std::fs::read_to_string(&path).unwrap() + "\nzone last-rank = rank 4, mirrored\n";
    let variant = rulebook::load(&path.display().to_string(), &text).unwrap();
    let mut pos =
        rulebook::engine::Position::new(rulebook::model::Tables::compile(&variant, &[]).unwrap());
    let m = rulebook::engine::notation::parse_coord(&pos, "g2g4k").unwrap();
    pos.play(m);
    let fen = pos.fen();
    assert_eq!(
        fen,
        "rnbqkbnr/pppppppp/8/8/6K1/8/PPPPPP1P/RNBQKBNR b kq - 0 1"
    );
    assert_eq!(pos.with_fen(&fen).unwrap().fen(), fen);
}
