//! A definition's text, checked as `rulebook check` and loaded as every other command does;
//! the diagnostics rendered as the CLI renders them (graphical, and JSON with `--format
//! json`); a definition that loads is compiled with its default options and each option
//! flipped, and its start position checked ([`rulebook_fuzz::check_position`]), drawn, its
//! legal moves counted two plies deep (when there are few enough) and a short random game
//! played by `check --deep`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use miette::{GraphicalReportHandler, GraphicalTheme, NarratableReportHandler};
use rulebook::engine::{deep, perft, Position};
use rulebook::model::Tables;

const NAME: &str = "fuzz.variant";

fn render(d: &rulebook::Diagnostics, text: &str) {
    let mut s = String::new();
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .render_report(&mut s, d)
        .expect("graphical report renders");
    s.clear();
    NarratableReportHandler::new()
        .render_report(&mut s, d)
        .expect("narratable report renders");
    // `check --format json`: miette's JSON read back with lines and columns added.
    if let Err(e) = d.to_json(text) {
        panic!("the JSON report is not JSON ({e})");
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // `rulebook check`: every problem, warnings included.
    let report = rulebook::check_source(NAME, &text);
    if let Some(d) = &report.diagnostics {
        render(d, &text);
        let _ = d.to_string();
    }
    // Every other command: errors only, printed with `{:?}` of a miette report.
    let variant = match rulebook::load(NAME, &text) {
        Ok(v) => v,
        Err(d) => {
            assert!(report.has_errors, "load refuses what check accepts");
            let _ = format!("{:?}", miette::Report::new(d));
            return;
        }
    };
    assert!(!report.has_errors, "load accepts what check refuses");
    let mut sets = vec![Vec::new()];
    for o in variant.options().iter().take(4) {
        sets.push(vec![(o.name.clone(), !o.default)]);
    }
    for options in sets {
        // Tables may legitimately be refused as too large.
        let Ok(tables) = Tables::compile(&variant, &options) else {
            continue;
        };
        let mut pos = Position::new(tables);
        rulebook_fuzz::check_position(&pos);
        rulebook_fuzz::render_position(&pos);
        let moves = pos.legal_moves().len();
        let _ = perft(&mut pos, if moves <= 40 { 2 } else { 1 });
        let found = deep::deep_check(
            &pos,
            deep::DeepLimits {
                games: 1,
                plies: 24,
                time: std::time::Duration::from_millis(30),
                seed: 1,
            },
        );
        for f in &found.findings {
            assert!(
                !f.kind.is_internal(),
                "check --deep: {} after {:?} at {}",
                f.kind,
                f.moves,
                f.fen
            );
        }
    }
});
