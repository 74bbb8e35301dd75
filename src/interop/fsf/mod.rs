//! Fairy-Stockfish's `variants.ini`, both ways.
//!
//! [`import`] reads an INI file as Fairy-Stockfish does ([`ini`]: sections, `[name:template]`
//! inheritance from built-in variants ([`builtin`]) and earlier sections, every key checked
//! ([`keys`]), custom pieces in Betza as Fairy-Stockfish reads it ([`betza`])) and writes each
//! section as a Rulebook definition ([`import::write`]), checked by loading it; a section the language
//! cannot express is refused with the key, its value and why. [`export`] writes a definition
//! as an INI section where Fairy-Stockfish can play it, or names what it lacks.

pub mod betza;
pub mod builtin;
pub mod diagnostics;
pub mod export;
pub mod import;
pub mod ini;
pub mod keys;
pub mod model;

pub use diagnostics::{IniDiagnostics, IniError};
pub use import::{Refusal, Source, Written};

use model::Config;

/// What became of one section.
#[derive(Debug)]
pub enum Outcome {
    /// Written as a definition (which loads), with the approximations taken.
    Imported(Written),
    /// Not written: the settings the language cannot express.
    Refused(Vec<Refusal>),
    /// Not read: the section has errors (reported in the diagnostics), or its template has.
    Invalid(String),
}

/// One section's result.
#[derive(Debug)]
pub struct SectionResult {
    /// The variant's name.
    pub name: String,
    /// Its template, if any.
    pub template: Option<String>,
    /// What became of it.
    pub outcome: Outcome,
}

/// A whole file's results: every section in order, and the problems found reading it.
#[derive(Debug)]
pub struct Import {
    /// Each section, in file order (only those selected, when a selection was given).
    pub sections: Vec<SectionResult>,
    /// Problems found in the file (errors and warnings), pointing into it.
    pub diagnostics: IniDiagnostics,
}

/// Reads INI `text` (named `file_name`) and writes each section (or only those named in
/// `selected`, when it is not empty) as a definition.
pub fn import(file_name: &str, text: &str, selected: &[String]) -> Import {
    let (file, mut problems) = ini::parse(text);
    let mut resolved: Vec<(String, Option<Config>)> = Vec::new();
    let mut sections = Vec::new();
    for section in &file.sections {
        let name = section.name.node.clone();
        let before = problems.iter().filter(|p| !p.is_warning()).count();
        let mut invalid: Option<String> = None;
        // The name must be new.
        if builtin::is_builtin_name(&name) {
            problems.push(IniError::BuiltinName {
                name: name.clone(),
                at: section.name.span.into(),
            });
        } else if let Some(first) = file
            .sections
            .iter()
            .take_while(|s| !std::ptr::eq(*s, section))
            .find(|s| s.name.node == name)
        {
            problems.push(IniError::DuplicateSection {
                name: name.clone(),
                again: section.name.span.into(),
                first: Some(first.name.span.into()),
            });
        }
        // The template: an earlier section or a built-in variant.
        let mut cfg = match &section.template {
            None => {
                let mut c = Config::default();
                c.reset_pieces();
                Some(c)
            }
            Some(t) => {
                if let Some((_, earlier)) = resolved.iter().rev().find(|(n, _)| *n == t.node) {
                    if earlier.is_none() {
                        invalid = Some(format!("its template `{}` could not be read", t.node));
                    }
                    earlier.clone()
                } else if let Some(c) = builtin::config(&t.node) {
                    Some(c)
                } else {
                    let known: Vec<&str> = builtin::BUILTINS
                        .iter()
                        .map(|b| b.name)
                        .chain(resolved.iter().map(|(n, _)| n.as_str()))
                        .collect();
                    let help = if builtin::is_builtin_name(&t.node) {
                        format!(
                            "`{}` is a built-in variant of Fairy-Stockfish whose settings this importer does not know; the templates it knows are {}",
                            t.node,
                            builtin::BUILTINS.iter().map(|b| b.name).collect::<Vec<_>>().join(", ")
                        )
                    } else {
                        match crate::syntax::similar(&t.node, known.iter().copied()) {
                            Some(s) => format!("did you mean `{s}`?"),
                            None => "a template is a built-in variant or a section above this one"
                                .into(),
                        }
                    };
                    problems.push(IniError::UnknownTemplate {
                        template: t.node.clone(),
                        at: t.span.into(),
                        help,
                    });
                    None
                }
            }
        };
        if let Some(c) = cfg.as_mut() {
            keys::apply(c, section, &mut problems);
        }
        let errors =
            problems.iter().filter(|p| !p.is_warning()).count() > before || section.unreadable > 0;
        if errors && invalid.is_none() {
            invalid = Some("the section has errors".into());
        }
        let keep = if invalid.is_some() { None } else { cfg.clone() };
        resolved.push((name.clone(), keep.clone()));
        if !selected.is_empty() && !selected.contains(&name) {
            continue;
        }
        let outcome = match (invalid, keep) {
            (Some(why), _) => Outcome::Invalid(why),
            (None, None) => Outcome::Invalid("the section could not be read".into()),
            (None, Some(c)) => {
                let source = Source {
                    file: file_name.to_string(),
                    name: name.clone(),
                    template: section.template.as_ref().map(|t| t.node.clone()),
                    line: section.line,
                    comments: section.comments.clone(),
                };
                match import::write(&c, &source) {
                    Ok(w) => match crate::load(&format!("{name}.variant"), &w.text) {
                        Ok(_) => Outcome::Imported(w),
                        Err(d) => Outcome::Refused(vec![Refusal {
                            key: "(definition)".into(),
                            value: String::new(),
                            reason: format!(
                                "the written definition does not load: {}",
                                d.problems()
                                    .iter()
                                    .filter(|p| !p.is_warning())
                                    .map(|p| p.to_string())
                                    .collect::<Vec<_>>()
                                    .join("; ")
                            ),
                            construct: "importer limits",
                        }]),
                    },
                    Err(r) => Outcome::Refused(r),
                }
            }
        };
        sections.push(SectionResult {
            name,
            template: section.template.as_ref().map(|t| t.node.clone()),
            outcome,
        });
    }
    Import {
        sections,
        diagnostics: IniDiagnostics::new(file_name, text, problems),
    }
}
