//! `rulebook fmt` and `rulebook::syntax::format`: one canonical layout, which keeps what a
//! definition means and every comment in it.

use std::path::{Path, PathBuf};

use rulebook::syntax::format::format;

use crate::common::{self, rulebook_with_input};

macro_rules! snap {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

fn rulebook(args: &[&str]) -> (String, String, i32) {
    rulebook_with_input(args, "")
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn messy() -> String {
    std::fs::read_to_string(root().join("tests/fixtures/fmt/messy.variant"))
        .expect("the messy fixture is readable")
}

/// The comments of a definition, in order, each from its `#` to the end of its line without
/// trailing blanks (the files compared here have no `#` in strings or pictures).
fn comments(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| l.find('#').map(|i| l[i..].trim_end()))
        .collect()
}

/// Lays `text` out and checks what the layout must keep: the layout itself when laid out
/// again, the checked game, every comment.
fn format_keeping(name: &str, text: &str) -> String {
    let formatted = format(text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let twice = format(&formatted).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    assert_eq!(twice, formatted, "{name}: formatting twice");
    let before = rulebook::load(name, text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let after = rulebook::load(name, &formatted).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    assert!(before == after, "{name}: the game changed");
    assert_eq!(comments(text), comments(&formatted), "{name}: comments");
    assert_eq!(
        text.matches('#').count(),
        formatted.matches('#').count(),
        "{name}"
    );
    formatted
}

/// `text` with its blanks made untidy (no word changes): indentation by tabs, trailing
/// blanks, blank lines doubled, Windows line ends.
fn untidy(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let line = match line.strip_prefix("  ") {
            Some(rest) => format!("\t{rest}"),
            None => line.to_string(),
        };
        out.push_str(&line);
        out.push_str(" \t\r\n");
        if line.is_empty() {
            out.push_str("\r\n");
        }
    }
    out
}

#[test]
fn shipped_definitions_keep_their_game_and_comments() {
    for path in common::definition_paths() {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path)
            .expect("readable definition")
            .replace("\r\n", "\n");
        let formatted = format_keeping(&name, &text);
        let messed = untidy(&text);
        assert_eq!(
            format_keeping(&name, &messed),
            formatted,
            "{name}: untidied, then formatted"
        );
    }
}

#[test]
fn a_messy_definition_is_laid_out() {
    let formatted = format_keeping("messy.variant", &messy());
    snap!("fmt_messy", formatted);
}

/// A directory of its own for a test that writes files, emptied first.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rulebook-fmt-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

fn modified(path: &Path) -> std::time::SystemTime {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .expect("a modification time")
}

#[test]
fn fmt_rewrites_files_that_change_and_check_lists_them() {
    let dir = scratch("in-place");
    let (messy_path, chess_path) = (dir.join("messy.variant"), dir.join("chess.variant"));
    std::fs::write(&messy_path, messy()).unwrap();
    std::fs::copy(root().join("definitions/chess.variant"), &chess_path).unwrap();
    let (messy_arg, chess_arg) = (messy_path.to_str().unwrap(), chess_path.to_str().unwrap());

    let (out, err, code) = rulebook(&["fmt", "--check", messy_arg, chess_arg]);
    assert_eq!((out, err.as_str(), code), (format!("{messy_arg}\n"), "", 1));
    assert_eq!(std::fs::read_to_string(&messy_path).unwrap(), messy());

    let chess_time = modified(&chess_path);
    let (out, err, code) = rulebook(&["fmt", messy_arg, chess_arg]);
    assert_eq!((out.as_str(), err.as_str(), code), ("", "", 0));
    assert_eq!(
        std::fs::read_to_string(&messy_path).unwrap(),
        format(&messy()).unwrap()
    );
    assert_eq!(
        modified(&chess_path),
        chess_time,
        "an unchanged file is not written"
    );

    let (out, err, code) = rulebook(&["fmt", "--check", messy_arg, chess_arg]);
    assert_eq!((out.as_str(), err.as_str(), code), ("", "", 0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fmt_reads_standard_input() {
    let formatted = format(&messy()).unwrap();
    let (out, err, code) = rulebook_with_input(&["fmt", "-"], &messy());
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (formatted.as_str(), "", 0)
    );
    let (out, err, code) = rulebook_with_input(&["fmt", "--check", "-"], &messy());
    assert_eq!((out.as_str(), err.as_str(), code), ("<stdin>\n", "", 1));
    let (out, err, code) = rulebook_with_input(&["fmt", "--check", "-"], &formatted);
    assert_eq!((out.as_str(), err.as_str(), code), ("", "", 0));
}

#[test]
fn fmt_reports_what_does_not_parse_as_check_does_and_goes_on() {
    let dir = scratch("errors");
    let broken = dir.join("broken.variant");
    let chess = std::fs::read_to_string(root().join("definitions/chess.variant")).unwrap();
    let broken_text = chess.replace("move slide diagonal", "move slide diagonall");
    std::fs::write(&broken, &broken_text).unwrap();
    let messy_path = dir.join("messy.variant");
    std::fs::write(&messy_path, messy()).unwrap();
    let missing = dir.join("missing.variant");
    let args = [
        broken.to_str().unwrap(),
        missing.to_str().unwrap(),
        messy_path.to_str().unwrap(),
    ];

    let (out, err, code) = rulebook(&["fmt", args[0], args[1], args[2]]);
    assert_eq!((out.as_str(), code), ("", 1));
    let (_, check_err, _) = rulebook(&["check", args[0]]);
    assert!(
        check_err.contains("rulebook::syntax::unexpected"),
        "{check_err}"
    );
    assert!(err.starts_with(&check_err), "{err}");
    assert!(
        err[check_err.len()..].starts_with("error: cannot read `"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), broken_text);
    assert_eq!(
        std::fs::read_to_string(&messy_path).unwrap(),
        format(&messy()).unwrap(),
        "the other files are still laid out"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_shipped_definition_is_laid_out() {
    let root_str = root().to_str().expect("a UTF-8 path");
    let paths: Vec<String> = common::definition_paths()
        .iter()
        .map(|p| p.strip_prefix(root_str).unwrap().display().to_string())
        .collect();
    let unformatted: Vec<&String> = paths
        .iter()
        .filter(|p| {
            let text = std::fs::read_to_string(root().join(p))
                .expect("readable definition")
                .replace("\r\n", "\n");
            !matches!(rulebook::syntax::format::is_formatted(&text), Ok(true))
        })
        .collect();
    assert!(
        unformatted.is_empty(),
        "run `rulebook fmt` on {unformatted:?}"
    );
    let mut args = vec!["fmt", "--check"];
    args.extend(paths.iter().map(String::as_str));
    let (out, err, code) = rulebook(&args);
    assert_eq!((out.as_str(), err.as_str(), code), ("", "", 0));
}
