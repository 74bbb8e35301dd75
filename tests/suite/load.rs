//! Every valid fixture and every shipped definition loads without errors or warnings; the
//! valid fixtures' checked models are pinned as readable summaries.

use crate::common;

use std::{fmt::Write, path::Path};

use rulebook::model::{Dirs, Geometry, LegKind, Mode, OptionGuard, Protocol, Variant};

fn load_clean(path: &Path) -> Variant {
    let text = std::fs::read_to_string(path)
        .expect("definition is readable")
        .replace("\r\n", "\n");
    // By its path, so that a base it names is found beside it.
    let report = rulebook::check_source(&path.display().to_string(), &text);
    if let Some(d) = &report.diagnostics {
        let mut out = String::new();
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_width(80)
            .with_links(false)
            .render_report(&mut out, d)
            .expect("writing to a String cannot fail");
        panic!("{} must load cleanly:\n{out}", path.display());
    }
    report.variant.expect("no diagnostics means a variant")
}

fn squares(g: Geometry, set: &rulebook::model::SquareSet) -> String {
    let names: Vec<String> = set.iter().map(|s| g.name(s).to_string()).collect();
    if names.is_empty() {
        "(none)".to_string()
    } else {
        names.join(" ")
    }
}

fn guards(v: &Variant, options: &[OptionGuard]) -> String {
    options
        .iter()
        .map(|g| {
            let word = if g.when_on { "if" } else { "unless" };
            format!("{word} {} ", v.options()[g.option.index()].name)
        })
        .collect()
}

/// A plain-text account of a checked variant: what the checker resolved each line into.
fn summary(v: &Variant) -> String {
    let g = v.geometry();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## Variant\n{:?}, {} x {}",
        v.name(),
        g.width,
        g.height
    );
    for (protocol, word) in [(Protocol::XBoard, "xboard"), (Protocol::Uci, "uci")] {
        if let Some(name) = v.known_as(protocol) {
            let _ = writeln!(out, "known as {name:?} in {word}");
        }
    }
    for s in v.sides() {
        let _ = writeln!(out, "side {} faces {:?}", s.name, s.facing);
    }
    let _ = writeln!(out, "\n## Options");
    for o in v.options() {
        let _ = writeln!(out, "{} (default {}): {}", o.name, o.default, o.description);
    }
    let _ = writeln!(out, "\n## Zones");
    for z in v.zones() {
        for (side, set) in z.squares.iter().enumerate() {
            let _ = writeln!(
                out,
                "{} for {}: {}",
                z.name,
                v.sides()[side].name,
                squares(g, set)
            );
        }
    }
    let _ = writeln!(out, "\n## Pieces");
    for p in v.pieces() {
        let royal = if p.royal { " royal" } else { "" };
        let _ = writeln!(out, "{} {} value {}{royal}", p.letter, p.name, p.value);
        for pat in &p.patterns {
            let mut line = String::from("  move ");
            for z in &pat.zones {
                let word = if z.inside { "in" } else { "outside" };
                let _ = write!(line, "{word} {} ", v.zones()[z.zone.index()].name);
            }
            line.push_str(&guards(v, &pat.options));
            line.push_str(match pat.unmoved {
                Some(true) => "unmoved ",
                Some(false) => "moved ",
                None => "",
            });
            let legs: Vec<String> = pat
                .legs
                .iter()
                .map(|leg| {
                    let kind = match leg.kind {
                        LegKind::Step => "step".to_string(),
                        LegKind::Slide { max: None } => "slide".to_string(),
                        LegKind::Slide { max: Some(n) } => format!("slide<={n}"),
                        LegKind::Hop {
                            max: None,
                            just_beyond,
                        } => {
                            format!("hop{}", if just_beyond { "+1" } else { "" })
                        }
                        LegKind::Hop {
                            max: Some(n),
                            just_beyond,
                        } => format!("hop<={n}{}", if just_beyond { "+1" } else { "" }),
                    };
                    let arms: Vec<String> = leg
                        .arms
                        .iter()
                        .map(|arm| {
                            let dirs = match &arm.dirs {
                                Dirs::Vectors(vs) => vs
                                    .iter()
                                    .map(|(x, y)| format!("{x},{y}"))
                                    .collect::<Vec<_>>()
                                    .join(" "),
                                Dirs::Same => "same".to_string(),
                                Dirs::Outward => "outward".to_string(),
                                Dirs::Reverse => "reverse".to_string(),
                            };
                            let inward = if arm.inward { "inward " } else { "" };
                            let zone = arm
                                .zone
                                .map(|z| format!(" in {}", v.zones()[z.index()].name))
                                .unwrap_or_default();
                            format!("{inward}[{dirs}]{zone}")
                        })
                        .collect();
                    let bent = if leg.bent { "bent " } else { "" };
                    format!("{bent}{kind} {}", arms.join(", "))
                })
                .collect();
            line.push_str(&legs.join(" then "));
            match pat.mode {
                Mode::Both => {}
                Mode::MoveOnly => line.push_str(", move-only"),
                Mode::CaptureOnly => line.push_str(", capture-only"),
            }
            if pat.creates_en_passant {
                line.push_str(", creates en-passant");
            }
            if pat.takes_en_passant {
                line.push_str(", takes en-passant");
            }
            if pat.shot {
                line.push_str(", shot");
            }
            match &pat.capturing {
                None => {}
                Some(rulebook::model::Capturable::Royal) => line.push_str(", capturing royal"),
                Some(rulebook::model::Capturable::Checker) => line.push_str(", capturing checker"),
                Some(rulebook::model::Capturable::Kinds(kinds)) => {
                    let names: Vec<&str> = kinds
                        .iter()
                        .map(|k| v.pieces()[k.index()].name.as_str())
                        .collect();
                    let _ = write!(line, ", capturing {}", names.join(" "));
                }
                Some(rulebook::model::Capturable::AllBut(kinds)) => {
                    let names: Vec<&str> = kinds
                        .iter()
                        .map(|k| v.pieces()[k.index()].name.as_str())
                        .collect();
                    let _ = write!(line, ", not capturing {}", names.join(" "));
                }
            }
            if let Some(s) = &pat.screens {
                let names: Vec<&str> = s
                    .kinds
                    .iter()
                    .map(|k| v.pieces()[k.index()].name.as_str())
                    .collect();
                let not = if s.allowed { "" } else { "not " };
                let _ = write!(line, ", {not}over {}", names.join(" "));
            }
            for z in &pat.into {
                let not = if z.inside { "" } else { "not " };
                let _ = write!(line, ", {not}into {}", v.zones()[z.zone.index()].name);
            }
            let _ = writeln!(out, "{line}");
        }
        for w in &p.within {
            let name = &v.partitions()[w.partition.index()].name;
            let _ = writeln!(out, "  {}stay within {name}", guards(v, &w.options));
        }
        for c in &p.confinements {
            let word = if c.inside { "stay in" } else { "never enter" };
            let zone = &v.zones()[c.zone.index()].name;
            let _ = writeln!(out, "  {}{word} {zone}", guards(v, &c.options));
        }
        for pr in &p.promotions {
            let choices: Vec<&str> = pr
                .choices
                .iter()
                .map(|k| v.pieces()[k.index()].name.as_str())
                .collect();
            let _ = writeln!(
                out,
                "  {}promote to {} in {}{}{}",
                guards(v, &pr.options),
                choices.join(" "),
                if pr.from_zone_too { "or from " } else { "" },
                v.zones()[pr.zone.index()].name,
                if pr.forced { ", forced" } else { "" }
            );
        }
        if let Some(d) = p.demotes_to {
            let _ = writeln!(out, "  demote to {}", v.pieces()[d.index()].name);
        }
        if p.drops != Default::default() {
            let _ = writeln!(out, "  drops {:?}", p.drops);
        }
        if p.resets_clock {
            let _ = writeln!(out, "  resets clock");
        }
    }
    let r = &v.rules();
    let _ = writeln!(out, "\n## Rules");
    let _ = writeln!(
        out,
        "checkmate {}, extinction {}, stalemate {:?}",
        r.checkmate, r.extinction, r.stalemate
    );
    for f in &r.facing {
        let _ = writeln!(out, "{}facing {:?}", guards(v, &f.options), f.vectors);
    }
    if let Some(rep) = &r.repetition {
        let _ = writeln!(out, "repetition {rep:?}");
    }
    if let Some(n) = r.move_limit {
        let _ = writeln!(out, "move limit {n}");
    }
    if r.drops {
        let _ = writeln!(out, "{}drops", guards(v, &r.drops_options));
    }
    for c in &r.castlings {
        let _ = writeln!(
            out,
            "{}castling for {}: {} {}-{} with {} {}-{}",
            guards(v, &c.options),
            v.sides()[c.side.index()].name,
            v.pieces()[c.king.index()].name,
            g.name(c.king_from),
            g.name(c.king_to),
            v.pieces()[c.partner.index()].name,
            g.name(c.partner_from),
            g.name(c.partner_to)
        );
    }
    let _ = writeln!(out, "\n## Setup");
    for rank in (0..i32::from(g.height)).rev() {
        let row: String = (0..i32::from(g.width))
            .map(|file| {
                let sq = g.square(file, rank).expect("on the board");
                match v.setup().iter().find(|p| p.square == sq) {
                    None => ".".to_string(),
                    Some(p) => v.piece_token(p.side, p.piece),
                }
            })
            .collect();
        let _ = writeln!(out, "{row}");
    }
    out
}

#[test]
fn valid_fixtures_load() {
    insta::with_settings!({
        snapshot_path => "../../snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::glob!("..", "fixtures/valid/**/*.variant", |path| {
            insta::assert_snapshot!(summary(&load_clean(path)));
        });
    });
}

#[test]
fn shipped_definitions_load() {
    let mut count = 0;
    for path in common::definition_paths() {
        load_clean(&path);
        count += 1;
    }
    assert!(
        count >= 3,
        "expected the shipped definitions, found {count}"
    );
}

#[test]
fn the_tutorial_shows_its_definition_whole() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let fixture = std::fs::read_to_string(format!(
        "{dir}/tests/fixtures/valid/tutorial/little-generals.variant"
    ))
    .unwrap();
    let tutorial = std::fs::read_to_string(format!("{dir}/docs/tutorial.md")).unwrap();
    assert!(
        tutorial.contains(&fixture),
        "docs/tutorial.md must end with the fixture, verbatim"
    );
}
