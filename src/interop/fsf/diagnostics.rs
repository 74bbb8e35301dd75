//! What can be wrong with a Fairy-Stockfish INI file, as `miette` diagnostics pointing into
//! it. Codes read `rulebook::ini::<what>`; `docs/diagnostics.md` documents each.

use std::{fmt, sync::Arc};

use miette::{Diagnostic, LabeledSpan, NamedSource, Severity, SourceCode, SourceSpan};
use thiserror::Error;

/// A problem found while reading a Fairy-Stockfish INI file.
#[derive(Debug, Error, Diagnostic)]
#[non_exhaustive]
pub enum IniError {
    /// A line that is not a section header, a comment or a `key = value` pair.
    #[error("cannot read this line: {why}")]
    #[diagnostic(code(rulebook::ini::malformed_line))]
    MalformedLine {
        /// What is wrong with it.
        why: String,
        /// The line.
        #[label("here")]
        at: SourceSpan,
        /// How to write it.
        #[help]
        help: String,
    },

    /// A key Fairy-Stockfish does not know.
    #[error("unknown key `{key}`")]
    #[diagnostic(code(rulebook::ini::unknown_key))]
    UnknownKey {
        /// The key as written.
        key: String,
        /// The key.
        #[label("not a Fairy-Stockfish key")]
        at: SourceSpan,
        /// A likely fix.
        #[help]
        help: String,
    },

    /// A value of the wrong type for its key.
    #[error("`{key}` cannot be `{value}`")]
    #[diagnostic(code(rulebook::ini::bad_value))]
    BadValue {
        /// The key.
        key: String,
        /// The value as written.
        value: String,
        /// The value.
        #[label("expected {expected}")]
        at: SourceSpan,
        /// What the key takes, in words.
        expected: String,
        /// A likely fix.
        #[help]
        help: Option<String>,
    },

    /// A piece letter the variant does not define.
    #[error("no piece has the letter `{letter}`")]
    #[diagnostic(code(rulebook::ini::unknown_piece))]
    UnknownPiece {
        /// The letter.
        letter: char,
        /// Where it is written.
        #[label("in `{key}`")]
        at: SourceSpan,
        /// The key it is written in.
        key: String,
        /// The letters defined.
        #[help]
        help: String,
    },

    /// Betza notation Fairy-Stockfish would not read as written.
    #[error("{why}")]
    #[diagnostic(code(rulebook::ini::bad_betza))]
    BadBetza {
        /// What is wrong.
        why: String,
        /// The offending character.
        #[label("here")]
        at: SourceSpan,
        /// A likely fix.
        #[help]
        help: String,
    },

    /// A template that is neither a built-in variant nor an earlier section.
    #[error("unknown template `{template}`")]
    #[diagnostic(code(rulebook::ini::unknown_template))]
    UnknownTemplate {
        /// The template as written.
        template: String,
        /// The template.
        #[label("no variant of this name")]
        at: SourceSpan,
        /// A likely fix.
        #[help]
        help: String,
    },

    /// A section whose name is already taken.
    #[error("variant `{name}` is defined twice")]
    #[diagnostic(
        code(rulebook::ini::duplicate_section),
        help("Fairy-Stockfish keeps the first variant of a name and skips the others; rename one")
    )]
    DuplicateSection {
        /// The name.
        name: String,
        /// The second header.
        #[label(primary, "defined again here")]
        again: SourceSpan,
        /// The first header, if in this file.
        #[label("first defined here")]
        first: Option<SourceSpan>,
    },

    /// A section that takes the name of a built-in variant.
    #[error("variant `{name}` is one of Fairy-Stockfish's built-in variants")]
    #[diagnostic(
        code(rulebook::ini::builtin_name),
        help("Fairy-Stockfish skips a section named as a built-in variant; rename it")
    )]
    BuiltinName {
        /// The name.
        name: String,
        /// The header's name.
        #[label("a built-in name")]
        at: SourceSpan,
    },

    /// A key given twice in one section: the last value counts.
    #[error("`{key}` is given twice in this section")]
    #[diagnostic(
        code(rulebook::ini::repeated_key),
        severity(Warning),
        help("Fairy-Stockfish keeps the last value; remove the other line")
    )]
    RepeatedKey {
        /// The key.
        key: String,
        /// The last line giving it.
        #[label(primary, "this value counts")]
        again: SourceSpan,
        /// An earlier line.
        #[label("this one is overridden")]
        first: SourceSpan,
    },
}

impl IniError {
    /// Whether this problem is only a warning.
    pub fn is_warning(&self) -> bool {
        self.severity() == Some(Severity::Warning)
    }

    /// The byte offset of the primary label, for ordering problems by position.
    pub fn offset(&self) -> usize {
        let labels: Vec<LabeledSpan> = self.labels().map(|l| l.collect()).unwrap_or_default();
        labels
            .iter()
            .find(|l| l.primary())
            .or_else(|| labels.first())
            .map_or(usize::MAX, |l| l.offset())
    }
}

/// Every problem found in one INI file, reported together against its text.
#[derive(Debug)]
pub struct IniDiagnostics {
    source: NamedSource<Arc<str>>,
    problems: Vec<IniError>,
}

impl IniDiagnostics {
    /// Bundles `problems` found in `text` (named `name`), ordered by position.
    pub fn new(name: &str, text: &str, mut problems: Vec<IniError>) -> IniDiagnostics {
        problems.sort_by_key(IniError::offset);
        IniDiagnostics {
            source: NamedSource::new(name, Arc::from(text)),
            problems,
        }
    }

    /// The problems, in file order.
    pub fn problems(&self) -> &[IniError] {
        &self.problems
    }

    /// Whether any problem is an error.
    pub fn has_errors(&self) -> bool {
        self.problems.iter().any(|p| !p.is_warning())
    }
}

impl fmt::Display for IniDiagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let errors = self.problems.iter().filter(|p| !p.is_warning()).count();
        let warnings = self.problems.len() - errors;
        let plural = |n: usize, w: &str| {
            if n == 1 {
                format!("1 {w}")
            } else {
                format!("{n} {w}s")
            }
        };
        match (errors, warnings) {
            (0, w) => write!(f, "`{}` has {}", self.source.name(), plural(w, "warning")),
            (e, 0) => write!(f, "`{}` has {}", self.source.name(), plural(e, "error")),
            (e, w) => write!(
                f,
                "`{}` has {} and {}",
                self.source.name(),
                plural(e, "error"),
                plural(w, "warning")
            ),
        }
    }
}

impl std::error::Error for IniDiagnostics {}

impl Diagnostic for IniDiagnostics {
    fn severity(&self) -> Option<Severity> {
        Some(if self.has_errors() {
            Severity::Error
        } else {
            Severity::Warning
        })
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        Some(Box::new(self.problems.iter().map(|p| p as &dyn Diagnostic)))
    }
}
