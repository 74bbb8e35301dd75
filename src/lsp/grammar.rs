//! What the language's words mean, read from the grammar's `///` comments and from the
//! tables and headings of `docs/language.md`: both are compiled in, so the explanations are
//! those of the grammar the server parses with and never fall out of step with it.

use std::collections::HashMap;
use std::sync::OnceLock;

const GRAMMAR: &str = include_str!("../../grammar/variant.pest");
const MANUAL: &str = include_str!("../../docs/language.md");

/// A rule of the grammar.
#[derive(Debug)]
struct RuleText {
    /// Its `///` comment, lines joined.
    doc: String,
    /// What it matches, as written.
    body: String,
}

/// The grammar's rules and words, and the manual's explanations.
#[derive(Debug)]
pub struct Grammar {
    rules: HashMap<String, RuleText>,
    /// Rule names in the order the grammar writes them.
    order: Vec<String>,
    /// Each word of a `kw_*` rule, with the rule, in the grammar's order.
    keywords: Vec<(String, String)>,
    /// Table rows of the manual: the first cell and the rest in words.
    rows: Vec<(String, String)>,
    /// Headings of the manual that name a construct (`` `piece` — a kind of piece``).
    headings: Vec<String>,
}

/// The grammar, read once.
pub fn grammar() -> &'static Grammar {
    static GRAMMAR_TEXT: OnceLock<Grammar> = OnceLock::new();
    GRAMMAR_TEXT.get_or_init(|| Grammar::read(GRAMMAR, MANUAL))
}

/// The texts between backticks in `text`.
fn code_spans(text: &str) -> impl Iterator<Item = &str> {
    text.split('`').skip(1).step_by(2)
}

/// Whether `word` is one of the words of `code` (`to` in `promote to PIECE`).
fn has_word(code: &str, word: &str) -> bool {
    code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .any(|w| w == word)
}

/// Whether `code` starts with the word `word`.
fn starts_with_word(code: &str, word: &str) -> bool {
    code.strip_prefix(word).is_some_and(|rest| {
        !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || "-_".contains(c))
    })
}

impl Grammar {
    fn read(grammar: &str, manual: &str) -> Grammar {
        let mut rules = HashMap::new();
        let mut order = Vec::new();
        let mut doc: Vec<&str> = Vec::new();
        // Whether the comment lines read so far are still being added to.
        let mut in_doc = false;
        let mut current: Option<String> = None;
        for line in grammar.lines() {
            if let Some(text) = line.strip_prefix("///") {
                if !in_doc {
                    doc.clear();
                }
                in_doc = true;
                doc.push(text.trim());
                current = None;
                continue;
            }
            in_doc = false;
            let head = line.split_once(" = ").filter(|(name, _)| {
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            });
            if let Some((name, body)) = head {
                // A rule right after another one shares its comment (`kw_xboard`, `kw_uci`).
                rules.insert(
                    name.to_string(),
                    RuleText {
                        doc: doc.join(" "),
                        body: body.to_string(),
                    },
                );
                order.push(name.to_string());
                current = Some(name.to_string());
            } else if line.starts_with([' ', '}']) {
                if let Some(rule) = current.as_ref().and_then(|c| rules.get_mut(c)) {
                    rule.body.push(' ');
                    rule.body.push_str(line.trim());
                }
            } else {
                doc.clear();
                current = None;
            }
        }
        let keywords = order
            .iter()
            .filter(|name| name.starts_with("kw_"))
            .filter_map(|name| {
                let body = &rules[name].body;
                let word = body.split('"').nth(1)?;
                Some((word.to_string(), name.clone()))
            })
            .collect();
        let (rows, headings) = read_manual(manual);
        Grammar {
            rules,
            order,
            keywords,
            rows,
            headings,
        }
    }

    /// Every word of the language, keywords and the words read only in one construct, each
    /// once, in the grammar's order.
    pub fn keywords(&self) -> impl Iterator<Item = &str> {
        let mut seen = std::collections::HashSet::new();
        self.keywords
            .iter()
            .map(|(w, _)| w.as_str())
            .filter(move |w| seen.insert(*w))
    }

    /// Whether `word` is a word of the language.
    pub fn is_keyword(&self, word: &str) -> bool {
        self.keywords.iter().any(|(w, _)| w == word)
    }

    /// The comment of rule `rule`, if it has one.
    pub fn doc(&self, rule: &str) -> Option<&str> {
        self.rules
            .get(rule)
            .map(|r| r.doc.as_str())
            .filter(|d| !d.is_empty())
    }

    /// What keyword `word` means where it stands: `ancestors` are the rules around it,
    /// innermost first (its own `kw_*` rule included). The comment of the nearest construct
    /// that shows the word, then the manual's row and section for it.
    pub fn explain_in(&self, word: &str, ancestors: &[&str]) -> Option<String> {
        let construct = ancestors
            .iter()
            .filter(|r| !r.starts_with("kw_"))
            .filter_map(|r| self.doc(r))
            .find(|doc| code_spans(doc).any(|c| has_word(c, word)));
        match construct {
            Some(doc) => Some(self.compose(word, &[doc])),
            None => self.explain(word),
        }
    }

    /// What keyword `word` means wherever it stands: the comments of the constructs it starts
    /// (or its own, or those of the constructs it is part of), then the manual's row and
    /// section for it.
    pub fn explain(&self, word: &str) -> Option<String> {
        let rule = &self.keywords.iter().find(|(w, _)| w == word)?.1;
        let uses = |starting: bool| -> Vec<&str> {
            self.order
                .iter()
                .filter(|r| !r.starts_with("kw_"))
                .filter(|r| {
                    let body = self.rules[*r]
                        .body
                        .trim_start_matches(['{', '$', '@', '_', ' ']);
                    let body = body.trim_start_matches("option_prefix* ~ ");
                    if starting {
                        starts_with_word(body, rule)
                            || starts_with_word(body.trim_start_matches("(("), rule)
                    } else {
                        has_word(body, rule)
                    }
                })
                .filter_map(|r| self.doc(r))
                .take(2)
                .collect()
        };
        let own = self.doc(rule).filter(|d| !d.starts_with("Keyword `"));
        let mut docs = uses(true);
        if docs.is_empty() {
            docs.extend(own);
        }
        if docs.is_empty() {
            docs = uses(false);
        }
        (!docs.is_empty()).then(|| self.compose(word, &docs))
    }

    /// The hover text: the word, the comments, and where the manual says more.
    fn compose(&self, word: &str, docs: &[&str]) -> String {
        let mut out = format!("**`{word}`** (keyword)");
        for doc in docs {
            out.push_str("\n\n");
            out.push_str(doc);
        }
        for (cell, rest) in self
            .rows
            .iter()
            .filter(|(cell, _)| code_spans(cell).any(|c| starts_with_word(c, word)))
        {
            out.push_str(&format!("\n\n{cell}: {rest}"));
        }
        // The construct's own section: the hovered word's, else that of the word the
        // construct starts with (`promote` for the `to` of `promote to`).
        let lead = docs
            .iter()
            .filter_map(|d| code_spans(d).next())
            .filter_map(|c| c.split_whitespace().next());
        let heading = std::iter::once(word).chain(lead).find_map(|w| {
            self.headings
                .iter()
                .find(|h| code_spans(h).next().is_some_and(|c| starts_with_word(c, w)))
        });
        if let Some(h) = heading {
            out.push_str(&format!("\n\n*docs/language.md*: {h}"));
        }
        out
    }
}

/// The manual's table rows (first cell, the others joined) and its headings that name a
/// construct in backticks.
fn read_manual(manual: &str) -> (Vec<(String, String)>, Vec<String>) {
    let mut rows = Vec::new();
    let mut headings = Vec::new();
    let mut header: Vec<String> = Vec::new();
    for line in manual.lines() {
        let line = line.trim();
        if let Some(title) = line.strip_prefix('#') {
            let title = title.trim_start_matches('#').trim();
            if title.starts_with('`') {
                headings.push(title.to_string());
            }
            continue;
        }
        let Some(inner) = line.strip_prefix('|').and_then(|l| l.strip_suffix('|')) else {
            header.clear();
            continue;
        };
        // Pipes inside code (`\|`) are not cell borders.
        let cells: Vec<String> = inner
            .replace("\\|", "\u{1}")
            .split('|')
            .map(|c| c.trim().replace('\u{1}', "|"))
            .collect();
        if header.is_empty() {
            header = cells;
            continue;
        }
        if cells
            .iter()
            .all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
        {
            continue;
        }
        if !cells[0].starts_with('`') {
            continue;
        }
        let rest: Vec<String> = cells
            .iter()
            .enumerate()
            .skip(1)
            .map(|(i, c)| match header.get(i).map(String::as_str) {
                Some("default") => format!("(default: {c})"),
                _ => c.clone(),
            })
            .collect();
        rows.push((cells[0].clone(), rest.join(" ")));
    }
    (rows, headings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_are_the_grammar_words() {
        let words: Vec<&str> = grammar().keywords().collect();
        for w in [
            "variant",
            "piece",
            "move",
            "x",
            "forward-diagonal",
            "teams",
            "uci",
            "reverse",
        ] {
            assert!(words.contains(&w), "{w}");
        }
        // Every `kw_*` rule of the grammar is one word of the list.
        let rules = GRAMMAR
            .lines()
            .filter(|l| l.starts_with("kw_") && l.contains(" = "))
            .count();
        assert_eq!(grammar().keywords.len(), rules);
        assert!(!words.contains(&"ident"));
    }

    #[test]
    fn every_keyword_is_explained() {
        let g = grammar();
        for word in g.keywords() {
            let text = g
                .explain(word)
                .unwrap_or_else(|| panic!("`{word}` unexplained"));
            assert!(
                text.len() > format!("**`{word}`** (keyword)").len() + 10,
                "{word}: {text}"
            );
        }
    }

    #[test]
    fn a_keyword_is_explained_by_the_construct_it_stands_in() {
        let g = grammar();
        let text = g
            .explain_in("in", &["kw_in", "zone_guard", "guard", "guards", "pattern"])
            .unwrap();
        assert!(text.contains("where the piece stands"), "{text}");
        let text = g
            .explain_in("to", &["kw_to", "promote_clause", "piece_decl", "file"])
            .unwrap();
        assert!(text.contains("`promote to PIECE..."), "{text}");
        assert!(
            text.contains("*docs/language.md*: `promote to` — promotion"),
            "{text}"
        );
        let text = g
            .explain_in(
                "orthogonal",
                &["kw_orthogonal", "named_dir", "dir", "dirs", "arm", "leg"],
            )
            .unwrap();
        assert!(
            text.contains("`orthogonal`: (0,1) (1,0) (0,-1) (-1,0)"),
            "{text}"
        );
    }

    #[test]
    fn manual_rows_keep_pipes_in_code() {
        let (rows, _) = read_manual(
            "| modifier | meaning | default |\n| --- | --- | --- |\n| `a \\| b` | c | d |\n",
        );
        assert_eq!(
            rows,
            [("`a | b`".to_string(), "c (default: d)".to_string())]
        );
    }
}
