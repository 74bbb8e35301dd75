//! The names a definition declares and every place it writes them, read from the grammar's
//! parse tree: which rule a name stands in says what it names.
//!
//! This reads the tree rather than the checked model so that it works on a text with errors
//! too (the tree leaves out only the declarations that do not parse), and resolves names as
//! the checker does: piece names ignoring case, then letters; the first declaration wins.

use crate::model::Letter;
use crate::syntax::tree::Tree;
use crate::syntax::Span;

/// What a name names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A piece (by name or letter).
    Piece,
    /// A zone.
    Zone,
    /// A partition.
    Partition,
    /// A line.
    Line,
    /// An option.
    Option,
    /// A side.
    Side,
}

impl Kind {
    /// The word for it.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Piece => "piece",
            Kind::Zone => "zone",
            Kind::Partition => "partition",
            Kind::Line => "line",
            Kind::Option => "option",
            Kind::Side => "side",
        }
    }
}

/// A declared name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declaration {
    /// What it names.
    pub kind: Kind,
    /// The name as written.
    pub name: String,
    /// Where the name is written in the declaration.
    pub span: Span,
    /// A piece's letter and where it is written.
    pub letter: Option<(String, Span)>,
    /// The whole declaration (for a side, its part of `sides`).
    pub item: Span,
}

/// A place where a name is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    /// Where.
    pub span: Span,
    /// The declaration it names (an index into [`Symbols::declarations`]), if one does.
    pub target: Option<usize>,
    /// Whether it is written in the declaration itself.
    pub declaration: bool,
}

/// Every declared name and every place a name is written.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    /// The declarations in the order written.
    pub declarations: Vec<Declaration>,
    /// The places names are written, in the order written.
    pub occurrences: Vec<Occurrence>,
}

/// The rules that declare a name, with what they declare.
const DECLARING: [(&str, Kind); 6] = [
    ("piece_decl", Kind::Piece),
    ("zone_decl", Kind::Zone),
    ("partition_decl", Kind::Partition),
    ("line_decl", Kind::Line),
    ("option_decl", Kind::Option),
    ("side", Kind::Side),
];

/// Where a name is looked up, from the rule it stands in. A rule not listed (a construct
/// newer than this table) looks the name up in every table, zones first: a name is rarely
/// declared twice as different things.
fn lookup(parent: &str, has_holding: bool) -> &'static [Kind] {
    const ANY: &[Kind] = &[
        Kind::Zone,
        Kind::Partition,
        Kind::Line,
        Kind::Side,
        Kind::Piece,
        Kind::Option,
    ];
    match parent {
        "piece_ref" => &[Kind::Piece],
        "option_prefix" | "option_guard" => &[Kind::Option],
        "team" | "side_set" | "castling_side" | "first_rule" | "counting_rule" | "for_side" => {
            &[Kind::Side]
        }
        "within_clause" => &[Kind::Partition],
        "into" if has_holding => &[Kind::Partition],
        "along" | "continuing" | "crossing" => &[Kind::Line],
        "zone_term" | "diagonals_mark" | "zone_guard" | "arm_zone" | "avoiding" | "into"
        | "stay_clause" | "never_clause" | "promote_clause" | "drop_in" | "drop_outside"
        | "drop_first_in" | "teleport_clause" | "teleport_from" | "enter_clause"
        | "wall_placing_rule" | "gating_rule" | "count_term" => &[Kind::Zone],
        _ => ANY,
    }
}

impl Symbols {
    /// The names of the definition `text`, whose parse tree is `tree`.
    pub fn of(text: &str, tree: &Tree) -> Symbols {
        let mut symbols = Symbols::default();
        let word = |i: usize| &text[tree.nodes[i].span.start..tree.nodes[i].span.end];
        let mut named = vec![false; tree.nodes.len()];
        for (i, node) in tree.nodes.iter().enumerate() {
            let Some(&(_, kind)) = DECLARING.iter().find(|(r, _)| *r == node.rule) else {
                continue;
            };
            let mut parts = tree.children(i);
            let Some(name) =
                parts.find(|&c| matches!(&*tree.nodes[c].rule, "ident" | "option_name"))
            else {
                continue;
            };
            named[name] = true;
            let letter = tree
                .children(i)
                .find(|&c| tree.nodes[c].rule == "piece_letter")
                .inspect(|&c| named[c] = true)
                .map(|c| (word(c).to_string(), tree.nodes[c].span));
            symbols.declarations.push(Declaration {
                kind,
                name: word(name).to_string(),
                span: tree.nodes[name].span,
                letter,
                item: node.span,
            });
        }
        let sides = symbols
            .declarations
            .iter()
            .filter(|d| d.kind == Kind::Side)
            .count();
        for (i, node) in tree.nodes.iter().enumerate() {
            match node.rule.as_str() {
                "ident" | "option_name" | "promoted_letter" | "piece_letter" => {}
                // With more than two sides a setup cell is a side's initial and a letter; the
                // letters are left out there rather than read wrong.
                "setup_cells" if sides <= 2 => {
                    for (span, letter) in setup_letters(word(i), node.span.start) {
                        let target = symbols.piece_letter(letter);
                        symbols.occurrences.push(Occurrence {
                            span,
                            target,
                            declaration: false,
                        });
                    }
                    continue;
                }
                _ => continue,
            }
            let target = if named[i] {
                symbols
                    .declarations
                    .iter()
                    .position(|d| {
                        d.span == node.span || d.letter.as_ref().is_some_and(|l| l.1 == node.span)
                    })
                    .and_then(|d| {
                        symbols
                            .first_of(symbols.declarations[d].kind, &symbols.declarations[d].name)
                    })
            } else {
                let parent = node.parent.map_or("", |p| tree.nodes[p].rule.as_str());
                let has_holding = node.parent.is_some_and(|p| {
                    tree.children(p)
                        .any(|c| tree.nodes[c].rule == "holding_ref")
                });
                lookup(parent, has_holding)
                    .iter()
                    .find_map(|&kind| symbols.first_of(kind, word(i)))
            };
            symbols.occurrences.push(Occurrence {
                span: node.span,
                target,
                declaration: named[i],
            });
        }
        symbols.occurrences.sort_by_key(|o| o.span.start);
        symbols
    }

    /// The first declaration of `kind` that `name` names: a piece by name ignoring case, then
    /// by letter.
    fn first_of(&self, kind: Kind, name: &str) -> Option<usize> {
        let of_kind = || {
            self.declarations
                .iter()
                .enumerate()
                .filter(move |(_, d)| d.kind == kind)
        };
        if kind != Kind::Piece {
            return of_kind().find(|(_, d)| d.name == name).map(|(i, _)| i);
        }
        of_kind()
            .find(|(_, d)| d.name.eq_ignore_ascii_case(name))
            .map(|(i, _)| i)
            .or_else(|| self.piece_letter(name))
    }

    /// The first piece written with `letter` (in either case).
    fn piece_letter(&self, letter: &str) -> Option<usize> {
        let letter = Letter::parse(letter)?;
        self.declarations.iter().position(|d| {
            d.kind == Kind::Piece
                && d.letter
                    .as_ref()
                    .is_some_and(|(l, _)| Letter::parse(l) == Some(letter))
        })
    }

    /// The place a name is written at `offset` (or just before it).
    pub fn at(&self, offset: usize) -> Option<&Occurrence> {
        self.occurrences
            .iter()
            .rfind(|o| o.span.start <= offset && offset <= o.span.end)
    }

    /// Every place declaration `target` is written, its own included.
    pub fn references(&self, target: usize) -> impl Iterator<Item = &Occurrence> {
        self.occurrences
            .iter()
            .filter(move |o| o.target == Some(target))
    }
}

/// The piece letters of a setup row (`+p`, `Q~`, `n`) with their spans, `start` being where
/// the row starts in the text.
fn setup_letters(row: &str, start: usize) -> Vec<(Span, &str)> {
    let bytes = row.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let from = i;
        if bytes[i] == b'+' && bytes.get(i + 1).is_some_and(u8::is_ascii_alphabetic) {
            i += 2;
        } else if bytes[i].is_ascii_alphabetic() {
            i += 1;
            if bytes.get(i) == Some(&b'~') {
                i += 1;
            }
        } else {
            i += 1;
            continue;
        }
        out.push((Span::new(start + from, start + i), &row[from..i]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "\
sides white north, black south
option fast on
zone camp = ranks 1-2, mirrored
partition halves = ranks 1-4 | ranks 5-8
piece King K royal
  move step any, into halves holding Rook
piece Rook R
  move if fast in camp: slide orthogonal
  promote to K in camp
rules
  black moves first
setup
  k..
  .R.
  K..
";

    fn named<'a>(symbols: &'a Symbols, word: &str, nth: usize) -> Option<&'a Declaration> {
        let at = TEXT.match_indices(word).nth(nth).unwrap().0;
        let o = symbols.at(at).unwrap();
        o.target.map(|t| &symbols.declarations[t])
    }

    #[test]
    fn every_name_finds_its_declaration() {
        let tree = Tree::of(TEXT);
        let symbols = Symbols::of(TEXT, &tree);
        let kinds: Vec<(Kind, &str)> = symbols
            .declarations
            .iter()
            .map(|d| (d.kind, d.name.as_str()))
            .collect();
        assert_eq!(
            kinds,
            [
                (Kind::Side, "white"),
                (Kind::Side, "black"),
                (Kind::Option, "fast"),
                (Kind::Zone, "camp"),
                (Kind::Partition, "halves"),
                (Kind::Piece, "King"),
                (Kind::Piece, "Rook"),
            ]
        );
        assert_eq!(named(&symbols, "halves", 1).unwrap().kind, Kind::Partition);
        assert_eq!(named(&symbols, "Rook", 0).unwrap().name, "Rook");
        assert_eq!(named(&symbols, "fast", 1).unwrap().kind, Kind::Option);
        assert_eq!(named(&symbols, "camp", 2).unwrap().kind, Kind::Zone);
        assert_eq!(named(&symbols, "black", 1).unwrap().kind, Kind::Side);
        // `K` in `promote to K` and in the setup, both cases.
        assert_eq!(named(&symbols, "K ", 1).unwrap().name, "King");
        assert_eq!(named(&symbols, "k..", 0).unwrap().name, "King");
        let rook = symbols
            .declarations
            .iter()
            .position(|d| d.name == "Rook")
            .unwrap();
        // The name, the letter, `holding Rook` and the setup's `R`.
        assert_eq!(symbols.references(rook).count(), 4);
    }

    #[test]
    fn an_unknown_name_is_a_place_without_a_declaration() {
        let text = "zone camp = rank 1\npiece P P\n  move in cmap: step forward\n";
        let symbols = Symbols::of(text, &Tree::of(text));
        let at = text.find("cmap").unwrap();
        assert_eq!(symbols.at(at).unwrap().target, None);
    }
}
