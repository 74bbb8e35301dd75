//! The grammar's own parse tree, every rule by its name in `grammar/variant.pest`: for tools
//! that need to know which construct a word of the text belongs to (the language server's
//! hovers, names and references) rather than what it means.
//!
//! Unlike [`super::parse`], a syntax error does not leave the caller with nothing: the broken
//! declarations are left out, as the parser's recovery skips them, and the tree holds the rest.

use pest::{error::InputLocation, Parser};

use super::{parser::Rule, parser::VariantParser, Span};

/// One node: a grammar rule that matched, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The rule's name as the grammar spells it (`piece_decl`, `kw_move`, `ident`).
    pub rule: String,
    /// What it matched.
    pub span: Span,
    /// The node it is part of (`None` for the whole file).
    pub parent: Option<usize>,
}

/// The parse tree of a definition, nodes in document order (a node before its parts).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    /// Every node; a node's parent comes before it.
    pub nodes: Vec<Node>,
    /// The spans of the declarations left out because they do not parse.
    pub skipped: Vec<Span>,
}

impl Tree {
    /// The parse tree of `text`, without the declarations that do not parse; empty, the whole
    /// text skipped, when the text is refused before parsing (an unclosed string, a line or
    /// word too long, nesting too deep).
    pub fn of(text: &str) -> Tree {
        let unread = Tree {
            nodes: Vec::new(),
            skipped: vec![Span::new(0, text.len())],
        };
        if super::prescan(text).is_err() {
            return unread;
        }
        let mut work = text.to_string();
        let mut skipped = Vec::new();
        for _ in 0..=super::MAX_SYNTAX_ERRORS {
            let error = match VariantParser::parse(Rule::file, &work) {
                Ok(pairs) => {
                    let mut tree = Tree {
                        nodes: Vec::new(),
                        skipped,
                    };
                    tree.add(pairs, None);
                    return tree;
                }
                Err(e) => e,
            };
            let at = match error.location {
                InputLocation::Pos(p) => p,
                InputLocation::Span((start, _)) => start,
            };
            let before = work.clone();
            if super::skip_declaration(&mut work, at).is_none() {
                // The text ends inside a declaration (the one being typed): leave it out.
                let (starts, _) = super::declaration_starts(&work);
                let end = work.len();
                let last = starts.into_iter().rfind(|&s| s < at.min(end));
                if !last.is_some_and(|from| super::blank(&mut work, from, end)) {
                    break;
                }
            }
            if let Some(span) = changed(&before, &work) {
                skipped.push(span);
            }
        }
        unread
    }

    /// Adds `pairs` and everything in them under `parent`, without recursion: the depth of a
    /// tree is the text's to choose.
    fn add(&mut self, pairs: pest::iterators::Pairs<'_, Rule>, parent: Option<usize>) {
        let mut stack: Vec<(pest::iterators::Pair<'_, Rule>, Option<usize>)> =
            pairs.rev().map(|p| (p, parent)).collect();
        while let Some((pair, parent)) = stack.pop() {
            let index = self.nodes.len();
            let span = pair.as_span();
            self.nodes.push(Node {
                rule: format!("{:?}", pair.as_rule()),
                span: Span::new(span.start(), span.end()),
                parent,
            });
            let inner: Vec<_> = pair.into_inner().collect();
            stack.extend(inner.into_iter().rev().map(|p| (p, Some(index))));
        }
    }

    /// The nodes whose span holds `offset` (its end included, where a cursor after a word
    /// still points at it), innermost first: the innermost one and each node it is part of.
    pub fn path_at(&self, offset: usize) -> Vec<usize> {
        let innermost = self
            .nodes
            .iter()
            .enumerate()
            // Document order puts a part after its whole, so the last match is the deepest
            // (a later sibling that starts where this one ends wins, as an editor's word does).
            .rfind(|(_, n)| n.span.start <= offset && offset <= n.span.end)
            .map(|(i, _)| i);
        let mut path = Vec::new();
        let mut at = innermost;
        while let Some(i) = at {
            path.push(i);
            at = self.nodes[i].parent;
        }
        path
    }

    /// The nodes directly part of node `index`.
    pub fn children(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        // A node's parts follow it in document order, before anything after it; the first
        // node past them is part of a node before it.
        self.nodes
            .iter()
            .enumerate()
            .skip(index + 1)
            .take_while(move |(_, n)| n.parent.is_some_and(|p| p >= index))
            .filter(move |(_, n)| n.parent == Some(index))
            .map(|(i, _)| i)
    }
}

/// The bytes `after` blanked in `before`, as one span (both are the same length).
fn changed(before: &str, after: &str) -> Option<Span> {
    let (b, a) = (before.as_bytes(), after.as_bytes());
    let start = b.iter().zip(a).position(|(x, y)| x != y)?;
    let end = b.len()
        - b.iter()
            .rev()
            .zip(a.iter().rev())
            .position(|(x, y)| x != y)?;
    Some(Span::new(start, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules_at(tree: &Tree, text: &str, word: &str) -> Vec<String> {
        let at = text.find(word).unwrap() + 1;
        tree.path_at(at)
            .into_iter()
            .map(|i| tree.nodes[i].rule.clone())
            .collect()
    }

    #[test]
    fn a_word_knows_the_constructs_around_it() {
        let text = "board 8 x 8\npiece Knight N\n  move leap (1,2)\n";
        let tree = Tree::of(text);
        assert!(tree.skipped.is_empty());
        assert_eq!(
            rules_at(&tree, text, "leap"),
            [
                "kw_leap",
                "leg_kind",
                "leg",
                "path",
                "pattern",
                "move_clause",
                "piece_decl",
                "file"
            ]
        );
        let piece = tree
            .nodes
            .iter()
            .position(|n| n.rule == "piece_decl")
            .unwrap();
        let parts: Vec<&str> = tree
            .children(piece)
            .map(|i| tree.nodes[i].rule.as_str())
            .collect();
        assert_eq!(parts, ["kw_piece", "ident", "piece_letter", "move_clause"]);
    }

    #[test]
    fn a_broken_declaration_is_left_out_and_the_rest_kept() {
        let text = "board 8 x 8\npiece Knight N\n  move leap (1,2\nzone camp = rank 1\n";
        let tree = Tree::of(text);
        assert_eq!(tree.skipped.len(), 1);
        assert!(text[tree.skipped[0].start..tree.skipped[0].end].contains("Knight"));
        assert_eq!(rules_at(&tree, text, "camp")[..2], ["ident", "zone_decl"]);
        assert!(rules_at(&tree, text, "Knight").len() <= 1);
    }

    #[test]
    fn a_declaration_cut_short_by_the_end_is_left_out() {
        let text = "board 8 x 8\nzone camp = rank 1\npiece Knight N value";
        let tree = Tree::of(text);
        assert_eq!(tree.skipped, [Span::new(31, text.len())]);
        assert_eq!(rules_at(&tree, text, "camp")[..2], ["ident", "zone_decl"]);
    }

    #[test]
    fn text_refused_before_parsing_gives_an_empty_tree() {
        let tree = Tree::of("variant \"unclosed\n");
        assert!(tree.nodes.is_empty());
        assert_eq!(tree.skipped, [Span::new(0, 18)]);
    }
}
