//! Definitions built on others: `variant "X" from "FILE"` and `without ...`.
//!
//! Bases are merged as syntax trees, before any checking, so a derived definition is checked
//! exactly as if it had been written out whole; each base is parsed at its own offsets (see
//! [`Sources`]) so that a problem in a base is reported in that file.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use crate::diagnostics::{DefinitionError, Sources};
use crate::syntax::{self, ast, similar, Spanned};

/// The most bases in a chain; far beyond a real library's two or three, and a bound on the
/// work a machine-made chain can ask for.
pub const MAX_BASES: usize = 16;

/// A base definition, as a [`Bases`] reads it.
#[derive(Clone, Debug)]
pub struct Base {
    /// The name it is reported under.
    pub name: String,
    /// The same for the same file however it is named, to find circles.
    pub key: String,
    /// Its text.
    pub text: String,
}

/// Where the bases that `from` clauses name are read.
pub trait Bases {
    /// The base that `path` (as written after `from`) names, in the definition named `from`.
    ///
    /// # Errors
    /// Why it cannot be read, as a short phrase.
    fn read(&self, path: &str, from: &str) -> Result<Base, String>;

    /// The key of the definition named `name`, as [`Base::key`].
    fn key(&self, name: &str) -> String {
        name.to_string()
    }
}

/// `path` seen from the folder of the file named `from`, with `.` and `..` resolved in the
/// text, so that the same file gets the same name however it is reached.
pub fn joined(path: &str, from: &str) -> String {
    let mut out = PathBuf::new();
    let folder = Path::new(from).parent().unwrap_or(Path::new(""));
    for part in folder.join(path).components() {
        match part {
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out.to_string_lossy().replace('\\', "/")
}

/// Bases read from files, each path taken from the folder of the file that names it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Files;

impl Bases for Files {
    fn read(&self, path: &str, from: &str) -> Result<Base, String> {
        let name = joined(path, from);
        let text = std::fs::read_to_string(&name).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => "no such file".to_string(),
            _ => e.to_string(),
        })?;
        Ok(Base {
            key: self.key(&name),
            name,
            text,
        })
    }

    fn key(&self, name: &str) -> String {
        std::fs::canonicalize(name).map_or_else(|_| name.to_string(), |p| p.display().to_string())
    }
}

/// Bases held in memory, by their path (as [`joined`] writes it): a web page's shipped
/// definitions.
impl Bases for BTreeMap<String, String> {
    fn read(&self, path: &str, from: &str) -> Result<Base, String> {
        let name = joined(path, from);
        match self.get(&name) {
            Some(text) => Ok(Base {
                key: name.clone(),
                name,
                text: text.clone(),
            }),
            None => Err("no such definition".into()),
        }
    }
}

/// `file` with its bases merged in, or `None` when a base is missing or broken (its problems
/// are reported, and checking the rest would only repeat them).
pub(crate) fn resolve(
    file: ast::File,
    sources: &mut Sources,
    bases: &dyn Bases,
    problems: &mut Vec<DefinitionError>,
) -> Option<ast::File> {
    let root = bases.key(sources.name());
    let name = sources.name().to_string();
    resolve_in(
        file,
        &name,
        sources,
        bases,
        &mut vec![(root, name.clone())],
        problems,
    )
}

fn resolve_in(
    mut file: ast::File,
    name: &str,
    sources: &mut Sources,
    bases: &dyn Bases,
    chain: &mut Vec<(String, String)>,
    problems: &mut Vec<DefinitionError>,
) -> Option<ast::File> {
    let withouts: Vec<ast::WithoutDecl> = file
        .items
        .iter()
        .filter_map(|i| match i {
            ast::Item::Without(w) => Some(w.clone()),
            _ => None,
        })
        .collect();
    file.items.retain(|i| !matches!(i, ast::Item::Without(_)));
    let from = file.items.iter().find_map(|i| match i {
        ast::Item::Variant(v) => v.base.clone(),
        _ => None,
    });
    let Some(from) = from else {
        problems.extend(withouts.iter().map(|w| DefinitionError::WithoutBase {
            at: w.keyword.into(),
        }));
        return Some(file);
    };
    if chain.len() > MAX_BASES {
        problems.push(DefinitionError::BaseTooDeep {
            limit: MAX_BASES,
            at: from.span.into(),
        });
        return None;
    }
    let base = match bases.read(&from.node, name) {
        Ok(base) => base,
        Err(reason) => {
            problems.push(DefinitionError::BaseUnreadable {
                path: from.node.clone(),
                reason,
                at: from.span.into(),
            });
            return None;
        }
    };
    if let Some(at) = chain.iter().position(|(key, _)| *key == base.key) {
        let mut names: Vec<&str> = chain[at..].iter().map(|(_, n)| n.as_str()).collect();
        names.push(&base.name);
        problems.push(DefinitionError::BaseCycle {
            chain: names.join(" -> "),
            at: from.span.into(),
        });
        return None;
    }
    let offset = sources.push(&base.name, &base.text);
    let base_file = match syntax::parse_at(&base.text, offset) {
        Ok(f) => {
            // A base's old forms are its author's to upgrade; its refused guards would
            // otherwise change what the derived game plays.
            problems.extend(super::guard_problems(&f));
            f
        }
        Err(errors) => {
            problems.extend(errors);
            return None;
        }
    };
    chain.push((base.key, base.name.clone()));
    let base_file = resolve_in(base_file, &base.name, sources, bases, chain, problems)?;
    chain.pop();
    Some(merge(base_file, file, &withouts, problems))
}

/// The name of a rule: its leading words, as `without rule` names it.
pub(crate) fn rule_name(rule: &ast::Rule) -> &'static str {
    use ast::Rule as R;
    match rule {
        R::Checkmate(..) => "checkmate",
        R::MustCapture => "must capture",
        R::MustDrop => "must drop",
        R::Explosions => "captures explode",
        R::LeaveWalls => "moves leave walls",
        R::Passing(_) => "passing allowed",
        R::Flip(..) => "moves flip",
        R::FullBoard => "full board draws",
        R::CounterStrike(_) => "counter-strike",
        R::Connect { .. } => "connect",
        R::Gating(_) => "gating",
        R::Petrify(_) => "captures petrify",
        R::PlaceWalls { .. } => "each move",
        R::Counting(_) | R::DrawOdds(..) => "draws",
        R::MatingDropsLose => "mating drops lose",
        R::Checks(..) => "checks",
        R::ChecksForbidden => "checks forbidden",
        R::Extinction => "extinction",
        R::Stalemate(..) | R::StalematePasses => "stalemate",
        R::SharedVictory => "shared victory",
        R::Eliminated(_) => "eliminated pieces",
        R::Facing(..) => "facing",
        R::Repetition { .. } => "repetition",
        R::MoveLimit(_) => "move-limit",
        R::OppositeCastling => "opposite castling",
        R::FirstSide(_) => "moves first",
        R::Drops { .. } => "drops",
        R::When { .. } => "when",
    }
}

/// The words every rule name is made of, for suggestions.
const RULE_NAMES: [&str; 28] = [
    "checkmate",
    "must capture",
    "must drop",
    "captures explode",
    "moves leave walls",
    "passing allowed",
    "moves flip",
    "full board draws",
    "counter-strike",
    "connect",
    "gating",
    "captures petrify",
    "each move",
    "draws",
    "mating drops lose",
    "checks",
    "checks forbidden",
    "extinction",
    "stalemate",
    "shared victory",
    "eliminated pieces",
    "facing",
    "repetition",
    "move-limit",
    "opposite castling",
    "moves first",
    "drops",
    "when",
];

/// The option names of guards, in order: declarations under different guards are different
/// declarations.
fn guards_key(guards: &[ast::OptionGuard]) -> String {
    guards
        .iter()
        .map(|g| {
            format!(
                "{}{} ",
                if g.when_on { "if " } else { "unless " },
                g.option.node
            )
        })
        .collect()
}

/// What a derived declaration replaces in its base, if anything: declarations with the same
/// key. `None`: it only adds.
fn key(item: &ast::Item) -> Option<String> {
    use ast::Item as I;
    Some(match item {
        I::Variant(_) => "variant".into(),
        I::Board(_) => "board".into(),
        I::Sides(_) => "sides".into(),
        I::Holes(_) => "holes".into(),
        I::Drawing(_) => "drawing".into(),
        I::Setup(s) => format!("setup {}", guards_key(&s.guards)),
        I::Teams(t) => format!("teams {}", guards_key(&t.guards)),
        I::Option(o) => format!("option {}", o.name.node),
        I::Zone(z) => format!("zone {}", z.name.node),
        I::Partition(p) => format!("partition {}", p.name.node),
        I::Line(l) => format!("line {}", l.name.node),
        I::Piece(p) => format!("piece {}", p.name.node),
        I::Castling(_) | I::Rules(_) | I::Without(_) => return None,
    })
}

/// The key of a rule line; rules that may be written several times (`when`, `connect`) only
/// add.
fn rule_key(line: &ast::RuleLine) -> Option<String> {
    match line.rule {
        ast::Rule::When { .. } | ast::Rule::Connect { .. } => None,
        ref rule => Some(format!("{}{}", guards_key(&line.guards), rule_name(rule))),
    }
}

/// `derived` over `base`: what `derived` declares replaces the base's declaration of the same
/// name (a piece, a zone, an option, a line, a partition; the board, the sides, the setup...);
/// its castlings replace all of the base's; its rules replace the base's rules of the same
/// name and add the others; `withouts` take things out of the base first.
fn merge(
    base: ast::File,
    derived: ast::File,
    withouts: &[ast::WithoutDecl],
    problems: &mut Vec<DefinitionError>,
) -> ast::File {
    let mut items = base.items;
    for part in withouts.iter().flat_map(|w| &w.parts) {
        leave_out(&mut items, part, problems);
    }
    let mut castlings_replaced = false;
    for item in derived.items {
        match item {
            ast::Item::Castling(_) => {
                if !castlings_replaced {
                    items.retain(|i| !matches!(i, ast::Item::Castling(_)));
                    castlings_replaced = true;
                }
                items.push(item);
            }
            ast::Item::Rules(rules) => match items.iter_mut().find_map(|i| match i {
                ast::Item::Rules(r) => Some(r),
                _ => None,
            }) {
                Some(old) => {
                    let replaced: Vec<String> = rules.lines.iter().filter_map(rule_key).collect();
                    old.lines
                        .retain(|l| rule_key(l).is_none_or(|k| !replaced.contains(&k)));
                    old.lines.extend(rules.lines);
                    old.keyword = rules.keyword;
                    old.span = rules.span;
                }
                None => items.push(ast::Item::Rules(rules)),
            },
            item => {
                let k = key(&item);
                match items.iter().position(|i| k.is_some() && key(i) == k) {
                    Some(at) => items[at] = item,
                    None => items.push(item),
                }
            }
        }
    }
    ast::File {
        items,
        old_forms: derived.old_forms,
        misplaced_guards: derived.misplaced_guards,
        span: derived.span,
    }
}

/// Takes `part` out of the base's `items`, or says that the base has no such thing.
fn leave_out(
    items: &mut Vec<ast::Item>,
    part: &Spanned<ast::WithoutPart>,
    problems: &mut Vec<DefinitionError>,
) {
    use ast::WithoutPart as W;
    let named = |kind: &'static str,
                 names: &[ast::Ident],
                 items: &mut Vec<ast::Item>,
                 problems: &mut Vec<DefinitionError>| {
        for name in names {
            let k = format!("{kind} {}", name.node);
            let before = items.len();
            items.retain(|i| key(i).as_deref() != Some(&k));
            if items.len() == before {
                let declared: Vec<String> = items
                    .iter()
                    .filter_map(key)
                    .filter_map(|k| k.strip_prefix(&format!("{kind} ")).map(str::to_string))
                    .collect();
                problems.push(unknown(kind, name, declared.iter().map(String::as_str)));
            }
        }
    };
    match &part.node {
        W::Pieces(names) => named("piece", names, items, problems),
        W::Zones(names) => named("zone", names, items, problems),
        W::Options(names) => named("option", names, items, problems),
        W::Lines(names) => named("line", names, items, problems),
        W::Partitions(names) => named("partition", names, items, problems),
        W::Castling | W::Holes => {
            let (kind, castling) = match part.node {
                W::Castling => ("castling", true),
                _ => ("holes", false),
            };
            let before = items.len();
            items.retain(|i| match i {
                ast::Item::Castling(_) => !castling,
                ast::Item::Holes(_) => castling,
                _ => true,
            });
            if items.len() == before {
                let at = Spanned::new(String::new(), part.span);
                problems.push(unknown(kind, &at, [].into_iter()));
            }
        }
        W::Rule(name) => {
            let wanted = name.node.split_whitespace().collect::<Vec<_>>().join(" ");
            let mut found = false;
            for item in items.iter_mut() {
                if let ast::Item::Rules(rules) = item {
                    let before = rules.lines.len();
                    rules.lines.retain(|l| rule_name(&l.rule) != wanted);
                    found |= rules.lines.len() != before;
                }
            }
            if !found {
                problems.push(unknown("rule", name, RULE_NAMES.into_iter()));
            }
        }
    }
}

fn unknown<'a>(
    kind: &'static str,
    name: &ast::Ident,
    declared: impl Iterator<Item = &'a str>,
) -> DefinitionError {
    let help = match similar(&name.node, declared) {
        Some(s) => format!("did you mean `{s}`?"),
        None if kind == "rule" => format!(
            "name a rule of the base by its leading words: {}",
            RULE_NAMES.map(|n| format!("`{n}`")).join(", ")
        ),
        None => format!("`without` takes out only what the base declares; take `{kind}` out of this declaration"),
    };
    DefinitionError::WithoutUnknown {
        what: if name.node.is_empty() {
            kind.to_string()
        } else {
            format!("{kind} `{}`", name.node)
        },
        at: name.span.into(),
        help,
    }
}

#[cfg(test)]
mod tests {
    use super::{joined, RULE_NAMES};

    /// The suggestions list each rule once.
    #[test]
    fn rule_names_are_listed_once() {
        let mut names = RULE_NAMES.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), RULE_NAMES.len());
    }

    #[test]
    fn paths_are_joined_from_the_naming_file_s_folder() {
        assert_eq!(
            joined("../chess.variant", "definitions/library/x.variant"),
            "definitions/chess.variant"
        );
        assert_eq!(joined("./a.variant", "b.variant"), "a.variant");
        assert_eq!(joined("../a.variant", "b.variant"), "../a.variant");
    }
}
