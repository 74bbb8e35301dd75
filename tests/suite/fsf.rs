//! Fairy-Stockfish's `variants.ini`: the importer's diagnostics (pinned as snapshots), sections
//! imported and checked by perft against pyffish's counts, the whole of Fairy-Stockfish's own
//! file imported or refused with reasons, and definitions exported with the keys expected.

use std::path::Path;

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};
use rulebook::engine::{perft, Position};
use rulebook::interop::fsf::{self, Outcome};
use rulebook::model::Tables;

fn render(diag: &dyn Diagnostic) -> String {
    let mut out = String::new();
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(80)
        .with_links(false)
        .render_report(&mut out, diag)
        .expect("writing to a String cannot fail");
    out
}

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/fsf")
        .join(name);
    std::fs::read_to_string(path)
        .expect("fixture is readable")
        .replace("\r\n", "\n")
}

#[test]
fn ini_problems_are_reported_with_their_place() {
    insta::with_settings!({
        snapshot_path => "../../snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::glob!("..", "fixtures/fsf/invalid/*.ini", |path| {
            let text = std::fs::read_to_string(path).unwrap().replace("\r\n", "\n");
            let name = format!(
                "fsf/invalid/{}",
                path.file_name().unwrap().to_string_lossy()
            );
            let code = text
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("# expect: "))
                .expect("first line names the expected code")
                .trim()
                .to_string();
            let result = fsf::import(&name, &text, &[]);
            let codes: Vec<String> = result
                .diagnostics
                .problems()
                .iter()
                .filter_map(|p| p.code().map(|c| c.to_string()))
                .collect();
            assert!(codes.contains(&code), "{name}: expected `{code}`, found {codes:?}");
            // A section with an error is not imported; a warning stops nothing.
            let invalid = result
                .sections
                .iter()
                .any(|s| matches!(s.outcome, Outcome::Invalid(_)));
            assert_eq!(
                invalid,
                result.diagnostics.has_errors(),
                "{name}: a section with errors must not be imported, and only those"
            );
            insta::assert_snapshot!(render(&result.diagnostics));
        });
    });
}

/// The definition imported from a section of Fairy-Stockfish's file.
fn imported(section: &str) -> rulebook::model::Variant {
    let text = fixture("variants.ini");
    let result = fsf::import("variants.ini", &text, &[section.to_string()]);
    let s = result
        .sections
        .iter()
        .find(|s| s.name == section)
        .expect("section exists");
    let Outcome::Imported(w) = &s.outcome else {
        panic!("{section}: {:?}", s.outcome);
    };
    rulebook::load(section, &w.text).expect("imported definitions load")
}

#[test]
fn imported_sections_count_as_pyffish_does() {
    // pyffish 0.0.90 with Fairy-Stockfish's variants.ini: its legal moves counted from the
    // start position to depths 1, 2 and 3.
    let cases: &[(&str, [u64; 3])] = &[
        ("hexapawn", [3, 10, 28]),
        ("tuktuk", [24, 516, 11124]),
        ("4x5chess", [6, 35, 227]),
        ("minihouse", [15, 220, 3493]),
        ("chennis", [10, 100, 1371]),
        ("allwayspawns", [20, 400, 10422]),
        ("dragonfly", [11, 121, 1604]),
        ("gorogoroplus", [39, 1438, 44436]),
        ("caught-in-a-snag", [13, 152, 1949]),
        ("cannonshogi", [60, 3447, 216600]),
    ];
    for (section, counts) in cases {
        let variant = imported(section);
        let start = Position::new(Tables::compile(&variant, &[]).unwrap());
        for (depth, &nodes) in counts.iter().enumerate() {
            let mut pos = start.clone();
            assert_eq!(
                perft(&mut pos, depth as u32 + 1),
                nodes,
                "{section}: perft {}",
                depth + 1
            );
        }
    }
}

/// How many of the file's sections are imported (exactly or with approximations): the
/// count may grow as the language does, never fall.
const IMPORTED_AT_LEAST: usize = 133;

#[test]
fn every_section_of_fairy_stockfish_s_file_is_imported_or_refused_with_reasons() {
    let text = fixture("variants.ini");
    let result = fsf::import("variants.ini", &text, &[]);
    assert!(
        !result.diagnostics.has_errors(),
        "{}",
        render(&result.diagnostics)
    );
    assert_eq!(result.sections.len(), 143);
    let mut imported = 0;
    for s in &result.sections {
        match &s.outcome {
            Outcome::Imported(w) => {
                imported += 1;
                assert!(rulebook::load(&s.name, &w.text).is_ok(), "{}", s.name);
                assert!(w
                    .text
                    .starts_with("# Imported from Fairy-Stockfish's INI format"));
                for a in &w.approximations {
                    assert!(
                        w.text.contains(a.as_str()),
                        "{}: header names `{a}`",
                        s.name
                    );
                }
            }
            Outcome::Refused(reasons) => {
                assert!(!reasons.is_empty(), "{}", s.name);
                for r in reasons {
                    assert!(
                        !r.key.is_empty() && !r.reason.is_empty(),
                        "{}: {r:?}",
                        s.name
                    );
                }
            }
            Outcome::Invalid(why) => panic!("{}: not read: {why}", s.name),
        }
    }
    assert!(
        imported >= IMPORTED_AT_LEAST,
        "{imported} sections imported, fewer than {IMPORTED_AT_LEAST}"
    );
}

#[test]
fn inheritance_reads_templates_from_built_ins_and_earlier_sections() {
    let text = "[base:crazyhouse]\nmaxFile = 6\nmaxRank = 6\nstartFen = 2bnrk/5p/6/6/P5/KRNB2[] w - - 0 1\npromotionRegionWhite = *6\ndoubleStep = false\n\n[derived:base]\nmustCapture = true\n";
    let result = fsf::import("inherit.ini", text, &[]);
    assert!(!result.diagnostics.has_errors());
    let Outcome::Imported(w) = &result.sections[1].outcome else {
        panic!("{:?}", result.sections[1].outcome);
    };
    assert!(w.text.contains("board 6 x 6"));
    assert!(w.text.contains("must capture"));
    assert!(w.text.contains("  drops\n"));
}

#[test]
fn refusals_name_the_key_and_why() {
    let text = "[bridge]\nmaxRank = 3\nmaxFile = 3\nimmobile = p\nstartFen = 3/3/3[PPPPPpppp] w - - 0 1\npieceDrops = true\nconnectRegion1White = a*\nconnectRegion2White = c*\nconnectRegion1Black = *1\nconnectRegion2Black = *3\n";
    let result = fsf::import("bridge.ini", text, &[]);
    let s = &result.sections[0];
    let Outcome::Refused(reasons) = &s.outcome else {
        panic!("{:?}", s.outcome);
    };
    assert!(reasons
        .iter()
        .any(|r| r.key == "connectRegion1White" && r.value == "a1 a2 a3"));
}

#[test]
fn blocks_and_lines_with_gaps_are_imported() {
    let text = "[block]\nmaxRank = 3\nmaxFile = 3\nimmobile = p\nstartFen = 3/3/3[PPPPPpppp] w - - 0 1\npieceDrops = true\nconnectNxN = 2\ncollinearN = 3\nconnectDiagonal = false\n";
    let result = fsf::import("block.ini", text, &[]);
    let Outcome::Imported(w) = &result.sections[0].outcome else {
        panic!("{:?}", result.sections[0].outcome);
    };
    assert!(w.text.contains("  connect 2 by 2 wins\n"), "{}", w.text);
    assert!(
        w.text
            .contains("  connect 3 along files ranks, with gaps wins\n"),
        "{}",
        w.text
    );
}

#[test]
fn rows_falling_discs_and_placement_phases_are_imported() {
    let text = "[row]\nmaxRank = 6\nmaxFile = 7\nimmobile = p\nstartFen = 7/7/7/7/7/7[PPPPPPPPPPPPPPPPPPPPPppppppppppppppppppppp] w - - 0 1\npieceDrops = true\nenclosingDrop = top\nconnectN = 4\nconnectDiagonal = false\nconnectValue = loss\nmustDrop = true\n";
    let result = fsf::import("row.ini", text, &[]);
    let Outcome::Imported(w) = &result.sections[0].outcome else {
        panic!("{:?}", result.sections[0].outcome);
    };
    for line in [
        "  drop on top\n",
        "  connect 4 along files ranks loses\n",
        "  must drop\n",
    ] {
        assert!(w.text.contains(line), "`{line}` in:\n{}", w.text);
    }
    assert!(rulebook::load("row.variant", &w.text).is_ok());
}

fn library(name: &str) -> rulebook::model::Variant {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    rulebook::load(name, &text).unwrap()
}

#[test]
fn export_writes_the_keys_fairy_stockfish_needs() {
    let chess = fsf::export::export(&library("definitions/library/normal.variant")).unwrap();
    for key in [
        "[chess-rulebook]",
        "maxFile = 8",
        "pawn = p",
        "knight = n",
        "king = k",
        "castlingKingsideFile = g",
        "startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ] {
        assert!(chess.contains(key), "`{key}` in:\n{chess}");
    }
    let house = fsf::export::export(&library("definitions/library/crazyhouse.variant")).unwrap();
    for key in [
        "pieceDrops = true",
        "capturesToHand = true",
        "firstRankPawnDrops = false",
    ] {
        assert!(house.contains(key), "`{key}` in:\n{house}");
    }
    let hill = fsf::export::export(&library("definitions/library/kingofthehill.variant")).unwrap();
    assert!(hill.contains("flagRegionWhite = d4 e4 d5 e5"), "{hill}");
    let shogi = fsf::export::export_with(
        &library("definitions/library/minishogi.variant"),
        &[("mating-drops-lose".into(), true)],
    )
    .unwrap();
    for key in [
        "promotedPieceType",
        "shogiPawnDropMateIllegal = true",
        "dropNoDoubled = p",
    ] {
        assert!(shogi.contains(key), "`{key}` in:\n{shogi}");
    }
}

#[test]
fn export_names_what_fairy_stockfish_lacks() {
    let gala = fsf::export::export(&library("definitions/gala.variant")).unwrap_err();
    assert!(
        gala.iter().any(|l| l.contains("lines between squares")),
        "{gala:?}"
    );
    let xiangqi = fsf::export::export(&library("definitions/xiangqi.variant")).unwrap_err();
    assert!(
        xiangqi
            .iter()
            .any(|l| l.contains("zone the piece stands in")),
        "{xiangqi:?}"
    );
}
