//! What the server knows of one open document: its text, the checker's report on it, its
//! parse tree and names, and the last variant it defined without errors.

use crate::check::CheckReport;
use crate::diagnostics::DefinitionError;
use crate::model::Variant;
use crate::syntax::tree::Tree;

use super::symbols::Symbols;
use super::text::Text;

/// One open document, read and checked.
#[derive(Debug)]
pub struct Document {
    /// Its text.
    pub text: Text,
    /// The checker's report on the text.
    pub report: CheckReport,
    /// The text's parse tree, broken declarations left out.
    pub tree: Tree,
    /// The names the text declares and where it writes them.
    pub symbols: Symbols,
    /// The variant of the latest version that had no error: what hovers describe while the
    /// author is halfway through an edit.
    pub last_valid: Option<Variant>,
}

impl Document {
    /// Reads and checks `text`; `name` is what diagnostics call it, `before` the document's
    /// previous version, if any.
    pub fn new(name: &str, text: String, before: Option<Document>) -> Document {
        let report = crate::check_source(name, &text);
        let tree = Tree::of(&text);
        let symbols = Symbols::of(&text, &tree);
        let last_valid = match &report.variant {
            Some(v) => Some(v.clone()),
            None => before.and_then(|b| b.last_valid),
        };
        Document {
            text: Text::new(text),
            report,
            tree,
            symbols,
            last_valid,
        }
    }

    /// Every problem the checker found, in the order of the text.
    pub fn problems(&self) -> &[DefinitionError] {
        self.report
            .diagnostics
            .as_ref()
            .map_or(&[], |d| d.problems())
    }

    /// The variant to describe: the text's own, or failing that the last valid one, with
    /// whether it is the text's own.
    pub fn variant(&self) -> Option<(&Variant, bool)> {
        match &self.report.variant {
            Some(v) => Some((v, true)),
            None => self.last_valid.as_ref().map(|v| (v, false)),
        }
    }
}
