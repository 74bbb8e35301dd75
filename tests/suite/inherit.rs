//! Definitions built on others: `variant "X" from "FILE"` takes the base whole, the rest of the
//! file adds or replaces by name, and `without` leaves things out.

use std::collections::BTreeMap;

use rulebook::engine::{perft, Position};
use rulebook::model::{Tables, Verdict};

const BASE: &str = r#"variant "Mini"
board 5 x 5
sides white north, black south
zone last-rank = rank 5, mirrored
piece King K royal
  move step any
piece Queen Q value 9
  move slide any
piece Pawn P value 1
  move step forward, move-only
  move step forward-diagonal, capture-only
  promote to Queen in last-rank, forced
castling King c1 to e1 with Queen a1 to d1, mirrored
rules
  checkmate
  stalemate draws
setup
  q.k..
  ppppp
  .....
  PPPPP
  Q.K..
"#;

/// The in-memory files a test's definitions are built on.
fn files(list: &[(&str, &str)]) -> BTreeMap<String, String> {
    list.iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect()
}

fn load(text: &str, bases: &BTreeMap<String, String>) -> rulebook::model::Variant {
    rulebook::load_with("top.variant", text, bases).unwrap_or_else(|d| {
        panic!("{:?}", miette::Report::new(d));
    })
}

fn counts(variant: &rulebook::model::Variant, depth: u32) -> Vec<u64> {
    let mut pos = Position::new(Tables::compile(variant, &[]).unwrap());
    (1..=depth).map(|d| perft(&mut pos, d)).collect()
}

#[test]
fn a_definition_with_only_a_name_plays_as_its_base() {
    let bases = files(&[("mini.variant", BASE)]);
    let base = load(BASE, &bases);
    let top = load("variant \"Mini again\" from \"mini.variant\"\n", &bases);
    assert_eq!(top.name(), "Mini again");
    assert_eq!(counts(&top, 4), counts(&base, 4));
    assert!(counts(&base, 4).iter().all(|&n| n > 0));
}

#[test]
fn a_piece_of_the_same_name_replaces_the_base_s_in_its_place() {
    let bases = files(&[("mini.variant", BASE)]);
    let top = load(
        "variant \"Mini\" from \"mini.variant\"\npiece Queen Q value 5\n  move slide orthogonal\npiece Knight N value 3\n  move leap (1,2)\n",
        &bases,
    );
    let names: Vec<&str> = top.pieces().iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["King", "Queen", "Pawn", "Knight"]);
    // The white queen on a1 now moves as a rook: a rook's moves from a1 on this setup are
    // b1 only (a2 holds a pawn), where a queen had b1 and nothing diagonal (b2 is a pawn).
    let mut pos = Position::new(Tables::compile(&top, &[]).unwrap());
    assert_eq!(perft(&mut pos, 1), counts(&load(BASE, &bases), 1)[0]);
}

#[test]
fn rules_replace_their_namesakes_and_without_takes_rules_out() {
    let bases = files(&[("mini.variant", BASE)]);
    let top = load(
        "variant \"Mini\" from \"mini.variant\"\nwithout rule checkmate\npiece King K\n  move step any\nrules\n  stalemate wins\n  when 0 King loses\n",
        &bases,
    );
    let rules = top.rules();
    assert!(!rules.checkmate);
    assert_eq!(rules.stalemate, Verdict::Win);
}

#[test]
fn castlings_in_the_derived_file_replace_all_of_the_base_s() {
    let bases = files(&[("mini.variant", BASE)]);
    let base = load(BASE, &bases);
    assert_eq!(base.rules().castlings.len(), 2);
    let none = load(
        "variant \"Mini\" from \"mini.variant\"\nwithout castling\n",
        &bases,
    );
    assert!(none.rules().castlings.is_empty());
    let one = load(
        "variant \"Mini\" from \"mini.variant\"\ncastling King c1 to a1 with Queen a1 to b1\n",
        &bases,
    );
    assert_eq!(one.rules().castlings.len(), 1);
}

#[test]
fn a_base_can_have_a_base() {
    let middle = "variant \"Middle\" from \"../mini.variant\"\npiece Knight N value 3\n  move leap (1,2)\nsetup\n  qnk..\n  ppppp\n  .....\n  PPPPP\n  QNK..\n";
    let bases = files(&[("mini.variant", BASE), ("lib/middle.variant", middle)]);
    let top = load(
        "variant \"Top\" from \"lib/middle.variant\"\nwithout castling\n",
        &bases,
    );
    let names: Vec<&str> = top.pieces().iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["King", "Queen", "Pawn", "Knight"]);
    assert!(top.rules().castlings.is_empty());
    // `lib/middle.variant` names its base from its own folder.
    let missing = rulebook::load_with(
        "top.variant",
        "variant \"Top\" from \"lib/middle.variant\"\n",
        &files(&[
            ("mini.variant", BASE),
            ("lib/middle.variant", &middle.replace("../mini", "mini")),
        ]),
    );
    assert!(missing.is_err());
}

#[test]
fn a_chain_longer_than_the_limit_is_refused() {
    let limit = rulebook::check::MAX_BASES;
    let mut list = vec![("b0.variant".to_string(), BASE.to_string())];
    for i in 1..=limit + 1 {
        list.push((
            format!("b{i}.variant"),
            format!("variant \"B{i}\" from \"b{}.variant\"\n", i - 1),
        ));
    }
    let bases: BTreeMap<String, String> = list.into_iter().collect();
    let top = format!("variant \"Top\" from \"b{}.variant\"\n", limit + 1);
    let err = rulebook::load_with("top.variant", &top, &bases).unwrap_err();
    let codes: Vec<String> = err
        .problems()
        .iter()
        .filter_map(|p| miette::Diagnostic::code(p).map(|c| c.to_string()))
        .collect();
    assert_eq!(codes, ["rulebook::base::too_deep"]);
    // One base fewer is fine.
    let top = format!("variant \"Top\" from \"b{}.variant\"\n", limit - 1);
    assert!(rulebook::load_with("top.variant", &top, &bases).is_ok());
}

#[test]
fn a_problem_in_a_base_is_reported_in_that_file_in_json() {
    let bases = files(&[("mini.variant", BASE)]);
    let report = rulebook::check_source_with(
        "top.variant",
        "variant \"Mini\" from \"mini.variant\"\nwithout piece Queen\n",
        &bases,
    );
    let json = report.diagnostics.unwrap().to_json().unwrap();
    let label = &json["related"][0]["labels"][0]["span"];
    assert_eq!(label["file"], "mini.variant");
    assert_eq!(label["line"], 12);
    assert_eq!(label["column"], 14);
    let offset = usize::try_from(label["offset"].as_u64().unwrap()).unwrap();
    assert_eq!(&BASE[offset..offset + 5], "Queen");
}

#[test]
fn a_guard_a_base_writes_where_only_options_guard_is_refused_in_the_base() {
    let base = BASE.replace(
        "  promote to Queen in last-rank, forced",
        "  unmoved: promote to Queen in last-rank, forced",
    );
    let bases = files(&[("mini.variant", &base)]);
    let report = rulebook::check_source_with(
        "top.variant",
        "variant \"Top\" from \"mini.variant\"\n",
        &bases,
    );
    assert!(report.has_errors);
    let json = report.diagnostics.unwrap().to_json().unwrap();
    let problem = &json["related"][0];
    assert_eq!(problem["code"], "rulebook::syntax::guard_not_here");
    assert_eq!(problem["message"], "only options can guard a promotion");
    let span = &problem["labels"][0]["span"];
    assert_eq!(span["file"], "mini.variant");
    let offset = usize::try_from(span["offset"].as_u64().unwrap()).unwrap();
    assert_eq!(&base[offset..offset + 7], "unmoved");
}

#[test]
fn shipped_definitions_built_on_others_play_their_published_counts() {
    // Chess's own counts, through a file that only renames it.
    let dir = std::env::temp_dir().join(format!("rulebook-inherit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chess = std::fs::canonicalize("definitions/chess.variant").unwrap();
    let path = dir.join("renamed.variant");
    std::fs::write(
        &path,
        format!("variant \"Renamed\" from \"{}\"\n", chess.display()),
    )
    .unwrap();
    let name = path.display().to_string();
    let text = std::fs::read_to_string(&path).unwrap();
    let variant = rulebook::load(&name, &text).unwrap();
    assert_eq!(counts(&variant, 3), [20, 400, 8902]);
    std::fs::remove_dir_all(&dir).unwrap();
}
