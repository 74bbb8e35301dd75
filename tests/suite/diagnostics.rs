//! Every invalid fixture is refused with the diagnostic its first line names, and every
//! warning fixture loads but warns; the rendered reports are pinned as snapshots.

use std::path::Path;

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};

fn render(diag: &dyn Diagnostic) -> String {
    let mut out = String::new();
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(80)
        .with_links(false)
        .render_report(&mut out, diag)
        .expect("writing to a String cannot fail");
    out
}

/// The fixture's text with CRLF normalised, and its name relative to `tests/fixtures`.
fn fixture(path: &Path) -> (String, String) {
    let text = std::fs::read_to_string(path)
        .expect("fixture is readable")
        .replace("\r\n", "\n");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let name = path
        .strip_prefix(&root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/");
    (text, name)
}

/// The codes named by the `# expect:` lines at the top of a fixture.
fn expected_codes(text: &str) -> Vec<String> {
    text.lines()
        .map_while(|l| l.strip_prefix("# expect: "))
        .map(|c| c.trim().to_string())
        .collect()
}

/// Bases read from `tests/fixtures`, named from there as the fixtures are.
struct FixtureBases;

impl rulebook::check::Bases for FixtureBases {
    fn read(&self, path: &str, from: &str) -> Result<rulebook::check::Base, String> {
        let mut base = rulebook::check::Files.read(path, &format!("tests/fixtures/{from}"))?;
        if let Some(name) = base.name.strip_prefix("tests/fixtures/") {
            base.name = name.to_string();
        }
        Ok(base)
    }

    fn key(&self, name: &str) -> String {
        rulebook::check::Files.key(&format!("tests/fixtures/{name}"))
    }
}

fn codes(diag: &rulebook::Diagnostics) -> Vec<String> {
    diag.problems()
        .iter()
        .filter_map(|p| p.code().map(|c| c.to_string()))
        .collect()
}

#[test]
fn invalid_fixtures_are_refused() {
    insta::with_settings!({
        snapshot_path => "../../snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::glob!("..", "fixtures/invalid/**/*.variant", |path| {
            let (text, name) = fixture(path);
            let expected = expected_codes(&text);
            assert!(!expected.is_empty(), "{name}: first line must be `# expect: CODE`");
            let err = match rulebook::load_with(&name, &text, &FixtureBases) {
                Ok(_) => panic!("{name}: fixtures in invalid/ must be refused"),
                Err(e) => e,
            };
            let found = codes(&err);
            for code in &expected {
                assert!(found.contains(code), "{name}: expected `{code}`, found {found:?}");
            }
            if name.starts_with("invalid/multi/") {
                assert!(found.len() >= 2, "{name}: expected several problems, found {found:?}");
            }
            insta::assert_snapshot!(render(&err));
        });
    });
}

#[test]
fn warning_fixtures_load_with_warnings() {
    insta::with_settings!({
        snapshot_path => "../../snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::glob!("..", "fixtures/warnings/**/*.variant", |path| {
            let (text, name) = fixture(path);
            let expected = expected_codes(&text);
            assert!(!expected.is_empty(), "{name}: first line must be `# expect: CODE`");
            if let Err(e) = rulebook::load(&name, &text) {
                panic!("{name}: warnings must not refuse a definition:\n{}", render(&e));
            }
            let report = rulebook::check_source(&name, &text);
            assert!(!report.has_errors && report.variant.is_some(), "{name}");
            let diag = report.diagnostics.expect("a warning fixture warns");
            let found = codes(&diag);
            for code in &expected {
                assert!(found.contains(code), "{name}: expected `{code}`, found {found:?}");
            }
            insta::assert_snapshot!(render(&diag));
        });
    });
}

#[test]
fn every_code_is_documented_and_demonstrated() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(root.join("src/diagnostics.rs")).expect("readable");
    let docs = std::fs::read_to_string(root.join("docs/diagnostics.md")).expect("readable");
    let mut fixtures = String::new();
    for dir in ["invalid", "warnings"] {
        for entry in glob_variants(&root.join("tests/fixtures").join(dir)) {
            fixtures.push_str(&std::fs::read_to_string(entry).expect("readable"));
        }
    }
    // Limits that need very large inputs are covered by unit tests in `check`,
    // tests/suite/limits.rs and tests/suite/robustness.rs.
    let large = [
        "rulebook::file::too_many_problems",
        "rulebook::file::line_too_long",
        "rulebook::piece::too_many",
        "rulebook::piece::too_many_patterns",
        "rulebook::setup::hand_too_large",
        "rulebook::base::too_deep",
        // A guard against a fault of the formatter, which no file should make fire; a unit
        // test in `syntax::format` makes it fire on a layout no file gets.
        "rulebook::fmt::changes_meaning",
    ];
    let codes: Vec<&str> = source
        .split("code(")
        .skip(1)
        .filter_map(|s| s.split(')').next())
        .filter(|c| c.starts_with("rulebook::"))
        .collect();
    assert!(codes.len() > 50, "found only {codes:?}");
    for code in codes {
        assert!(
            docs.contains(&format!("### `{code}`")),
            "`{code}` is not in docs/diagnostics.md"
        );
        assert!(
            large.contains(&code) || fixtures.contains(&format!("# expect: {code}\n")),
            "no fixture expects `{code}`"
        );
    }
}

fn glob_variants(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("fixture directory") {
            let path = entry.expect("readable entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "variant") {
                out.push(path);
            }
        }
    }
    out
}

#[test]
fn upgrading_an_old_form_leaves_a_clean_definition_that_plays_the_same() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixtures = glob_variants(&root.join("tests/fixtures/warnings/old"));
    assert!(fixtures.len() >= 9, "one fixture per old form");
    for path in fixtures {
        let (text, name) = fixture(&path);
        let upgraded = rulebook::syntax::upgrade(&text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_ne!(upgraded, text, "{name}: nothing was upgraded");
        let report = rulebook::check_source(&name, &upgraded);
        if let Some(d) = &report.diagnostics {
            assert!(
                d.problems().is_empty(),
                "{name} upgraded still warns:\n{}\n{upgraded}",
                render(d)
            );
        }
        // Comments survive, and the rewrite is done once for all.
        assert_eq!(upgraded.matches('#').count(), text.matches('#').count());
        assert_eq!(rulebook::syntax::upgrade(&upgraded).unwrap(), upgraded);
        let perft = |t: &str| {
            let v = rulebook::load(&name, t).unwrap();
            let mut pos =
                rulebook::engine::Position::new(rulebook::model::Tables::compile(&v, &[]).unwrap());
            (1..=3)
                .map(|d| rulebook::engine::perft(&mut pos, d))
                .collect::<Vec<_>>()
        };
        assert_eq!(perft(&upgraded), perft(&text), "{name}");
    }
}
