//! Reading an INI file as Fairy-Stockfish reads its `variants.ini`, keeping where each thing
//! was written so that problems point into the file.
//!
//! What is read, as Fairy-Stockfish reads it: lines before the first `[` are skipped; a line
//! that starts with `[` opens a section, `[name]` or `[name:template]` (the template is
//! everything after the first `:`); in a section, a line that starts with `#` or `;` is a
//! comment, and any other line is `key = value`: the key is what stands before the first `=`,
//! the value what follows it, without the blanks at either end. A key given twice in one
//! section keeps its last value.
//!
//! Where this reader is stricter: a line in a section that is neither blank, a comment nor a
//! `key = value` pair, a line with a key before the first section, and a header without its
//! `]` are reported (`rulebook::ini::malformed_line`), where Fairy-Stockfish skips them.

use crate::syntax::{Span, Spanned};

use super::diagnostics::IniError;

/// One `key = value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The key, without blanks.
    pub key: Spanned<String>,
    /// The value, without blanks at either end (it may be empty).
    pub value: Spanned<String>,
}

/// One `[name:template]` section and its lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The variant's name.
    pub name: Spanned<String>,
    /// The variant it inherits from, if any.
    pub template: Option<Spanned<String>>,
    /// Its `key = value` lines in the order written (a repeated key appears each time).
    pub entries: Vec<Entry>,
    /// The comment lines just above the header (without their `#`), which usually say what
    /// the variant is and where it comes from.
    pub comments: Vec<String>,
    /// The 1-based line of the header.
    pub line: usize,
    /// How many of its lines could not be read (each reported).
    pub unreadable: usize,
}

impl Section {
    /// The value a key is given last in this section.
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().rev().find(|e| e.key.node == key)
    }
}

/// A whole INI file: its sections in order, and the lines that could not be read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IniFile {
    /// The sections, in the order written.
    pub sections: Vec<Section>,
}

/// Reads `text`; lines that cannot be read are reported and skipped.
pub fn parse(text: &str) -> (IniFile, Vec<IniError>) {
    let mut file = IniFile::default();
    let mut problems = Vec::new();
    let mut offset = 0;
    let mut pending_comments: Vec<String> = Vec::new();
    for (index, raw) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let trimmed = line.trim();
        let lead = line.len() - line.trim_start().len();
        let at = |from: usize, to: usize| Span::new(start + from, start + to);
        if line.starts_with('[') {
            let Some(close) = line.find(']') else {
                problems.push(IniError::MalformedLine {
                    why: "a section header without its closing `]`".into(),
                    at: at(0, line.len()).into(),
                    help: "write the header as `[name]` or `[name:template]`".into(),
                });
                continue;
            };
            let inner = &line[1..close];
            let (name, template) = match inner.find(':') {
                Some(colon) => (
                    Spanned::new(inner[..colon].to_string(), at(1, 1 + colon)),
                    Some(Spanned::new(
                        inner[colon + 1..].to_string(),
                        at(2 + colon, close),
                    )),
                ),
                None => (Spanned::new(inner.to_string(), at(1, close)), None),
            };
            file.sections.push(Section {
                name,
                template,
                entries: Vec::new(),
                comments: std::mem::take(&mut pending_comments),
                line: index + 1,
                unreadable: 0,
            });
            continue;
        }
        if trimmed.is_empty() {
            pending_comments.clear();
            continue;
        }
        if line.starts_with('#') || line.starts_with(';') {
            pending_comments.push(line[1..].trim().to_string());
            continue;
        }
        pending_comments.clear();
        let Some(section) = file.sections.last_mut() else {
            problems.push(IniError::MalformedLine {
                why: "a line before the first section".into(),
                at: at(lead, line.len()).into(),
                help: "keys belong to a section: put `[name]` above them".into(),
            });
            continue;
        };
        let Some(eq) = line.find('=') else {
            section.unreadable += 1;
            problems.push(IniError::MalformedLine {
                why: "a line that is neither `key = value`, a comment nor a section".into(),
                at: at(lead, line.len()).into(),
                help: "write `key = value`, or start a comment with `#`".into(),
            });
            continue;
        };
        let key_text = &line[..eq];
        let key = key_text.trim();
        if key.is_empty() {
            section.unreadable += 1;
            problems.push(IniError::MalformedLine {
                why: "a value without a key".into(),
                at: at(lead, line.len()).into(),
                help: "write `key = value`".into(),
            });
            continue;
        }
        let key_start = key_text.len() - key_text.trim_start().len();
        let value_text = &line[eq + 1..];
        let value = value_text.trim();
        let value_start = eq + 1 + (value_text.len() - value_text.trim_start().len());
        section.entries.push(Entry {
            key: Spanned::new(key.to_string(), at(key_start, key_start + key.len())),
            value: Spanned::new(
                value.to_string(),
                at(value_start, value_start + value.len()),
            ),
        });
    }
    (file, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_keys_and_spans() {
        let text = "# header\n[a]\nmaxRank = 6\n\n# the b game\n[b:chess]\n; note\nking = k:KN \n";
        let (file, problems) = parse(text);
        assert!(problems.is_empty());
        assert_eq!(file.sections.len(), 2);
        let a = &file.sections[0];
        assert_eq!(a.name.node, "a");
        assert!(a.template.is_none());
        assert_eq!(a.entries[0].key.node, "maxRank");
        assert_eq!(
            &text[a.entries[0].value.span.start..a.entries[0].value.span.end],
            "6"
        );
        let b = &file.sections[1];
        assert_eq!(b.template.as_ref().unwrap().node, "chess");
        assert_eq!(
            &text[b.template.as_ref().unwrap().span.start..][..5],
            "chess"
        );
        assert_eq!(b.comments, vec!["the b game".to_string()]);
        assert_eq!(b.get("king").unwrap().value.node, "k:KN");
        assert_eq!(b.line, 6);
    }

    #[test]
    fn lines_it_cannot_read_are_reported() {
        let (file, problems) = parse("x = 1\n[a\n[b]\nnonsense\n=3\n");
        assert_eq!(file.sections.len(), 1);
        assert_eq!(problems.len(), 4);
    }
}
