//! docs/language.md against the grammar it describes.

use std::collections::BTreeSet;

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).expect("readable")
}

/// The words of the docs' list that starts with `lead` and ends at the next "`.".
fn listed(docs: &str, lead: &str) -> BTreeSet<String> {
    // The docs wrap their lines anywhere.
    let docs = &docs.split_whitespace().collect::<Vec<_>>().join(" ");
    let start = docs
        .find(lead)
        .unwrap_or_else(|| panic!("no `{lead}` in the docs"))
        + lead.len();
    let end = start + docs[start..].find("`.").expect("the list ends with \"`.\"");
    docs[start..end]
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

#[test]
fn the_keyword_lists_are_the_grammar_s() {
    let grammar = read("grammar/variant.pest");
    let docs = read("docs/language.md");
    // `kw_name = @{ "word" ...`: every keyword rule and its word.
    let words: Vec<(String, String)> = grammar
        .lines()
        .filter_map(|l| {
            let (name, rest) = l.split_once(" = @{ \"")?;
            name.starts_with("kw_").then(|| {
                (
                    name.to_string(),
                    rest.split('"').next().unwrap_or("").to_string(),
                )
            })
        })
        .collect();
    let reserved_rule = grammar
        .split("\nreserved = _{")
        .nth(1)
        .and_then(|r| r.split("\n}").next())
        .expect("the grammar has a `reserved` rule");
    let reserved_names: BTreeSet<&str> = reserved_rule
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with("kw_"))
        .collect();
    let reserved: BTreeSet<String> = words
        .iter()
        .filter(|(n, _)| reserved_names.contains(n.as_str()))
        .map(|(_, w)| w.clone())
        .collect();
    let contextual: BTreeSet<String> = words
        .iter()
        .map(|(_, w)| w.clone())
        .filter(|w| !reserved.contains(w))
        .collect();
    assert!(reserved.len() > 100 && contextual.len() > 50);
    assert_eq!(
        listed(&docs, "**Keywords** are reserved and cannot be names: `"),
        reserved
    );
    assert_eq!(
        listed(&docs, "stay free as names elsewhere: `"),
        contextual,
        "docs/language.md's contextual words"
    );
}
