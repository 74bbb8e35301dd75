//! The name table of zones, partitions, lines and options (a namespace each), the pieces'
//! names and letters, and the resolution of references to them.
//!
//! A name that fails to resolve is reported once; later references to the same unknown name
//! stay silent, so one misspelling yields one error.

use crate::syntax::similar;
use std::collections::{HashMap, HashSet};

use crate::{
    diagnostics::DefinitionError,
    model::{Letter, LineId, OptionId, PartitionId, PieceKind, ZoneId},
    syntax::ast::{self, Span},
};

use super::Ctx;

/// Declared names of one kind, first declaration wins.
#[derive(Debug, Default)]
pub(super) struct Names {
    /// Every declaration's name and span, in declaration order.
    pub(super) decls: Vec<(String, Span)>,
    /// Name to first declaration.
    index: HashMap<String, usize>,
    /// Whether each declaration is referred to.
    pub(super) used: Vec<bool>,
}

impl Names {
    /// Adds a declaration; on a duplicate returns the first one's span.
    pub(super) fn declare(&mut self, key: String, name: &ast::Ident) -> Result<(), Span> {
        let i = self.decls.len();
        self.decls.push((name.node.clone(), name.span));
        self.used.push(false);
        match self.index.get(&key) {
            Some(&first) => Err(self.decls[first].1),
            None => {
                self.index.insert(key, i);
                Ok(())
            }
        }
    }

    /// The first declaration with this key.
    pub(super) fn get(&self, key: &str) -> Option<usize> {
        self.index.get(key).copied()
    }

    fn names(&self) -> impl Iterator<Item = &str> + Clone {
        self.decls.iter().map(|(n, _)| n.as_str())
    }
}

/// What a name is declared as: each kind has a namespace of its own, so a zone and a line
/// may share a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Space {
    Zone,
    Partition,
    Line,
    Option,
}

impl Space {
    const ALL: [Space; 4] = [Space::Zone, Space::Partition, Space::Line, Space::Option];

    /// The word the help uses for it.
    fn what(self) -> &'static str {
        match self {
            Space::Zone => "zone",
            Space::Partition => "partition",
            Space::Line => "line",
            Space::Option => "option",
        }
    }

    /// How to declare one named `name`.
    fn declaration(self, name: &str) -> String {
        match self {
            Space::Zone => format!("zone {name} = ..."),
            Space::Partition => format!("partition {name} = ... | ..."),
            Space::Line => format!("line {name} = ... | ..."),
            Space::Option => format!("option {name} on \"...\""),
        }
    }

    fn unknown(self, name: String, at: Span, help: String) -> DefinitionError {
        let at = at.into();
        match self {
            Space::Zone => DefinitionError::UnknownZone { name, at, help },
            Space::Partition => DefinitionError::UnknownPartition { name, at, help },
            Space::Line => DefinitionError::UnknownLine { name, at, help },
            Space::Option => DefinitionError::UnknownOption { name, at, help },
        }
    }

    fn duplicate(self, name: String, again: Span, first: Span) -> DefinitionError {
        let (again, first) = (again.into(), first.into());
        match self {
            Space::Zone => DefinitionError::DuplicateZone { name, again, first },
            Space::Partition => DefinitionError::DuplicatePartition { name, again, first },
            Space::Line => DefinitionError::DuplicateLine { name, again, first },
            Space::Option => DefinitionError::DuplicateOption { name, again, first },
        }
    }

    /// The warning for a declaration nothing refers to, where the language gives one.
    fn unused(self, name: String, at: Span) -> Option<DefinitionError> {
        let at = at.into();
        match self {
            Space::Zone => Some(DefinitionError::UnusedZone { name, at }),
            Space::Option => Some(DefinitionError::UnusedOption { name, at }),
            Space::Partition | Space::Line => None,
        }
    }

    fn reported(self) -> Kind {
        match self {
            Space::Zone => Kind::Zone,
            Space::Partition => Kind::Partition,
            Space::Line => Kind::Line,
            Space::Option => Kind::Option,
        }
    }
}

/// The declared zones, partitions, lines and options.
#[derive(Debug, Default)]
pub(super) struct NameTable([Names; 4]);

impl std::ops::Index<Space> for NameTable {
    type Output = Names;

    fn index(&self, space: Space) -> &Names {
        &self.0[space as usize]
    }
}

impl std::ops::IndexMut<Space> for NameTable {
    fn index_mut(&mut self, space: Space) -> &mut Names {
        &mut self.0[space as usize]
    }
}

/// The pieces' names and letters.
#[derive(Debug, Default)]
pub(super) struct PieceNames {
    /// Names, keyed in lowercase.
    pub(super) names: Names,
    /// Letters, to the first piece with that letter.
    pub(super) letters: HashMap<Letter, usize>,
}

/// Which table an unknown name was looked up in.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    Zone,
    Partition,
    Line,
    Option,
    Piece,
}

/// Unknown names already reported.
#[derive(Debug, Default)]
pub(super) struct Reported(HashSet<(u8, String)>);

impl Reported {
    /// How many unknown names get a search for a similar one: beyond that the report is
    /// summarised anyway, and a file of thousands of unknown names would take minutes.
    const SEARCHED: usize = 200;

    fn first_time(&mut self, kind: Kind, name: &str) -> bool {
        self.0.insert((kind as u8, name.to_string()))
    }

    fn searchable(&self) -> bool {
        self.0.len() <= Self::SEARCHED
    }
}

/// The help for an unknown name: a similar declared name when `search` allows looking for
/// one, else how to declare it.
fn suggestion<'a>(
    search: bool,
    what: &str,
    name: &str,
    candidates: impl Iterator<Item = &'a str> + Clone,
    declare: String,
) -> String {
    let article = if what.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    if let Some(s) = search.then(|| similar(name, candidates.clone())).flatten() {
        return format!("{article} {what} with a similar name exists: `{s}`");
    }
    let all: Vec<String> = candidates.take(8).map(|c| format!("`{c}`")).collect();
    if all.is_empty() {
        format!("no {what} is declared; declare it with `{declare}`")
    } else {
        format!(
            "declare it with `{declare}`, or use one of the declared {what}s: {}",
            all.join(", ")
        )
    }
}

/// How to declare the piece a reference names: a reference that looks like a letter (`+A`,
/// `Q~`, `N`) is the letter after a name, anything else the name before a letter.
fn piece_declaration(reference: &str) -> String {
    let letter = reference.trim_start_matches('+').trim_end_matches('~');
    let looks_like_a_letter = letter.len() == 1 && letter.chars().all(|c| c.is_ascii_alphabetic());
    if looks_like_a_letter {
        format!("piece NAME {reference} ...")
    } else {
        format!("piece {reference} X ...")
    }
}

impl Ctx {
    /// Records a declaration of `name` in `space`, reporting a duplicate.
    pub(super) fn declare(&mut self, space: Space, name: &ast::Ident) {
        if let Err(first) = self.names[space].declare(name.node.clone(), name) {
            self.report(space.duplicate(name.node.clone(), name.span, first));
        }
    }

    /// Resolves a reference to a name of `space` into its id, marking the declaration used,
    /// or reports it (once per name) with a similar declared name or how to declare it. A
    /// declaration past the last id the model has (`id` gives none) counts as unknown.
    fn resolve<T>(
        &mut self,
        space: Space,
        name: &ast::Ident,
        id: impl Fn(usize) -> Option<T>,
    ) -> Option<T> {
        let names = &mut self.names[space];
        if let Some((i, id)) = names.get(&name.node).and_then(|i| Some((i, id(i)?))) {
            names.used[i] = true;
            return Some(id);
        }
        if self.reported.first_time(space.reported(), &name.node) {
            let help = suggestion(
                self.reported.searchable(),
                space.what(),
                &name.node,
                self.names[space].names(),
                space.declaration(&name.node),
            );
            self.report(space.unknown(name.node.clone(), name.span, help));
        }
        None
    }

    pub(super) fn zone_ref(&mut self, name: &ast::Ident) -> Option<ZoneId> {
        self.resolve(Space::Zone, name, ZoneId::from_index)
    }

    pub(super) fn partition_ref(&mut self, name: &ast::Ident) -> Option<PartitionId> {
        self.resolve(Space::Partition, name, PartitionId::from_index)
    }

    pub(super) fn line_ref(&mut self, name: &ast::Ident) -> Option<LineId> {
        self.resolve(Space::Line, name, LineId::from_index)
    }

    pub(super) fn option_ref(&mut self, name: &ast::Ident) -> Option<OptionId> {
        self.resolve(Space::Option, name, OptionId::from_index)
    }

    /// Warnings for declarations nothing refers to, in spaces without an unknown reference
    /// (a misspelt reference would make its target look unused).
    pub(super) fn unused_names(&mut self) {
        let mut warnings = Vec::new();
        for space in Space::ALL {
            let misspelt = self
                .reported
                .0
                .iter()
                .any(|(k, _)| *k == space.reported() as u8);
            let names = &self.names[space];
            for (i, (name, span)) in names.decls.iter().enumerate() {
                if !misspelt && !names.used[i] && names.get(name) == Some(i) {
                    warnings.extend(space.unused(name.clone(), *span));
                }
            }
        }
        self.problems.extend(warnings);
    }

    /// The piece with this name or letter, without reporting.
    pub(super) fn find_piece(&self, name: &str) -> Option<usize> {
        self.pieces
            .names
            .get(&name.to_lowercase())
            .or_else(|| self.piece_by_letter(name))
    }

    /// The first piece with the letter `text` spells in either case.
    pub(super) fn piece_by_letter(&self, text: &str) -> Option<usize> {
        Letter::parse(text).and_then(|l| self.pieces.letters.get(&l).copied())
    }

    /// Resolves a piece reference by name, then by letter.
    pub(super) fn piece_ref(&mut self, name: &ast::PieceRef) -> Option<PieceKind> {
        if let Some(i) = self.find_piece(&name.node) {
            return Some(PieceKind::nth(i));
        }
        if self.reported.first_time(Kind::Piece, &name.node) {
            let help = suggestion(
                self.reported.searchable(),
                "piece",
                &name.node,
                self.pieces.names.names(),
                piece_declaration(&name.node),
            );
            self.report(DefinitionError::UnknownPiece {
                name: name.node.clone(),
                at: name.span.into(),
                help,
            });
        }
        None
    }

    /// Resolves option guards, dropping the ones that fail.
    pub(super) fn option_guards(
        &mut self,
        guards: &[ast::OptionGuard],
    ) -> Vec<crate::model::OptionGuard> {
        guards
            .iter()
            .filter_map(|g| {
                self.option_ref(&g.option)
                    .map(|option| crate::model::OptionGuard {
                        option,
                        when_on: g.when_on,
                    })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn similar_names_are_found() {
        let names = ["palace", "own-half", "camp"];
        assert_eq!(similar("palce", names.iter().copied()), Some("palace"));
        assert_eq!(similar("Camp", names.iter().copied()), Some("camp"));
        assert_eq!(similar("river", names.iter().copied()), None);
        assert_eq!(
            similar("peice", ["piece", "zone"].into_iter()),
            Some("piece")
        );
    }

    #[test]
    fn an_unknown_letter_is_declared_after_a_name() {
        assert_eq!(piece_declaration("+A"), "piece NAME +A ...");
        assert_eq!(piece_declaration("Q~"), "piece NAME Q~ ...");
        assert_eq!(piece_declaration("N"), "piece NAME N ...");
        assert_eq!(piece_declaration("Dragon"), "piece Dragon X ...");
    }

    #[test]
    fn the_search_for_similar_names_is_bounded() {
        // Only so many unknown names get a search, each among so many candidates.
        let mut reported = Reported::default();
        for i in 0..Reported::SEARCHED {
            assert!(reported.first_time(Kind::Zone, &format!("z{i}")));
            assert!(reported.searchable());
        }
        reported.first_time(Kind::Zone, "one more");
        assert!(!reported.searchable());
        let mut many = vec!["xxxxxx"; 5_000];
        many.push("target");
        assert_eq!(similar("targte", many.iter().copied()), None);
        assert_eq!(
            similar("targte", many[4_000..].iter().copied()),
            Some("target")
        );
    }
}
