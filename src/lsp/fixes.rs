//! Quick fixes: the edit a diagnostic proposes, where it proposes one.
//!
//! A diagnostic says what to change in its help (`a piece with a similar name exists:
//! `Knight``) or in its fields (the uppercase letter of a lowercase one). [`fix`] turns either
//! into edits of the text; a diagnostic that gains a fix adds an arm here.

use miette::Diagnostic;

use crate::diagnostics::DefinitionError;
use crate::syntax::Span;

/// The edits that fix a problem, and what the editor calls them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// What the fix does, as the editor's menu shows it.
    pub title: String,
    /// Each span of the text and what replaces it.
    pub edits: Vec<(Span, String)>,
}

/// Where a diagnostic points: its primary label, else its first.
pub fn primary_span(error: &DefinitionError) -> Option<Span> {
    let labels: Vec<miette::LabeledSpan> = error.labels()?.collect();
    let label = labels
        .iter()
        .find(|l| l.primary())
        .or_else(|| labels.first())?;
    Some(Span::new(label.offset(), label.offset() + label.len()))
}

/// The text between the backticks that follow `lead` in `help`.
fn quoted_after<'a>(help: &'a str, lead: &str) -> Option<&'a str> {
    let rest = &help[help.find(lead)? + lead.len()..];
    let rest = rest.strip_prefix('`')?;
    Some(&rest[..rest.find('`')?])
}

/// The fix `error` proposes for `text`, if it proposes one.
pub fn fix(error: &DefinitionError, text: &str) -> Option<Fix> {
    let at = primary_span(error)?;
    let written = text.get(at.start..at.end)?;
    if let Some((_, by)) = error.fix() {
        return Some(Fix {
            title: format!("Write `{by}`"),
            edits: vec![(at, by.to_string())],
        });
    }
    if let DefinitionError::LowercaseLetter { upper, .. } = error {
        return Some(replace(at, written, upper));
    }
    let help = error.help()?.to_string();
    let similar = ["with a similar name exists: ", "with a similar name: "]
        .iter()
        .find_map(|lead| quoted_after(&help, lead));
    if let Some(name) = similar {
        return Some(replace(at, written, name));
    }
    if quoted_after(&help, "put a `,` before ").is_some() {
        // Right after the word before, so that `b1 mirrored` becomes `b1, mirrored`.
        let end = text[..at.start].trim_end().len();
        return Some(Fix {
            title: format!("Put a `,` before `{written}`"),
            edits: vec![(Span::new(end, end), ",".into())],
        });
    }
    None
}

fn replace(at: Span, written: &str, by: &str) -> Fix {
    Fix {
        title: format!("Replace `{written}` with `{by}`"),
        edits: vec![(at, by.to_string())],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixes(text: &str) -> Vec<(Fix, String)> {
        let report = crate::check_source("test.variant", text);
        let problems = report.diagnostics.expect("problems");
        problems
            .problems()
            .iter()
            .filter_map(|p| fix(p, text))
            .map(|f| {
                let mut fixed = text.to_string();
                for (span, by) in f.edits.iter().rev() {
                    fixed.replace_range(span.start..span.end, by);
                }
                (f, fixed)
            })
            .collect()
    }

    const BASE: &str = "variant \"T\"\nboard 3 x 3\nsides white north, black south\n\
                        piece King K royal\n  move step any\nrules\n  checkmate\n";

    #[test]
    fn a_misspelt_name_is_replaced_by_the_similar_one() {
        let text = format!("{BASE}zone camp = a1\npiece Pawn P\n  move in cmap: step forward\nsetup\n  k..\n  ...\n  K.P\n");
        let found = fixes(&text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0.title, "Replace `cmap` with `camp`");
        assert!(found[0].1.contains("move in camp: step"));
    }

    #[test]
    fn a_misspelt_keyword_is_replaced() {
        let text = format!("{BASE}piece Pawn P\n  move step forwad\nsetup\n  k..\n  ...\n  K.P\n");
        let found = fixes(&text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].1.contains("move step forward"), "{}", found[0].1);
    }

    #[test]
    fn a_missing_comma_is_put_after_the_word_before() {
        let text = format!("{BASE}zone camp = a1 mirrored\npiece Pawn P\n  move in camp: step forward\nsetup\n  k..\n  ...\n  K.P\n");
        let found = fixes(&text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].1.contains("zone camp = a1, mirrored"),
            "{}",
            found[0].1
        );
    }

    #[test]
    fn a_lowercase_letter_is_written_in_uppercase() {
        let text = format!("{BASE}piece Pawn p\n  move step forward\nsetup\n  k..\n  ...\n  K.P\n");
        let found = fixes(&text);
        assert!(
            found
                .iter()
                .any(|(f, t)| f.title == "Replace `p` with `P`" && t.contains("piece Pawn P\n")),
            "{found:?}"
        );
    }
}
