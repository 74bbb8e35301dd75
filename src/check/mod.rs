//! Syntax tree to validated [`Variant`]: every name resolved, every rule checked.
//!
//! Checking never stops at the first problem: each concern reports into one list and the
//! result is refused at the end if any of them is an error. Values that failed a check are
//! replaced by harmless stand-ins so that later checks can go on without repeating the
//! complaint.

mod betza;
mod geometry;
mod inherit;
mod lints;
mod names;
mod pieces;
mod rules;
mod setup;
mod zones;

use crate::{
    diagnostics::{DefinitionError, Diagnostics, Sources},
    model::{
        side_initial, Facing, Geometry, Protocol, RoyalGuard, Rules, Side, SideDef, Square,
        Variant, Verdict, MAX_SIDES,
    },
    syntax::{self, ast, Span},
};

pub use inherit::{joined, Base, Bases, Files, MAX_BASES};
use names::{NameTable, PieceNames, Reported, Space};

/// The outcome of checking a definition, warnings included.
#[derive(Debug)]
pub struct CheckReport {
    /// The variant, when there was no error.
    pub variant: Option<Variant>,
    /// Every problem found, errors and warnings, or `None` when there was none.
    pub diagnostics: Option<Diagnostics>,
    /// Whether any problem is an error.
    pub has_errors: bool,
}

/// Reads and checks a definition, keeping warnings.
///
/// `name` is what diagnostics call the text (usually its file name).
///
/// # Examples
/// ```
/// let text = "variant \"Tiny\"\nboard 3 x 3\nsides white north, black south\n\
///             zone spare = a2\n\
///             piece King K royal\n  move step any\n\
///             rules\n  checkmate\nsetup\n  ..k\n  ...\n  K..\n";
/// let report = rulebook::check_source("tiny.variant", text);
/// assert!(!report.has_errors);
/// assert!(report.variant.is_some());
/// // The zone is never used: a warning, not an error.
/// assert_eq!(report.diagnostics.unwrap().warnings().count(), 1);
/// ```
///
/// The bases that `from` clauses name are read as files, from the folder of `name`.
pub fn check_source(name: &str, text: &str) -> CheckReport {
    report(name, text, &Files, true)
}

/// [`check_source`], reading bases from `bases`.
pub fn check_source_with(name: &str, text: &str, bases: &dyn Bases) -> CheckReport {
    report(name, text, bases, true)
}

/// What the parser read but the language refuses or replaces: old forms and misplaced guards.
fn form_problems(file: &syntax::ast::File) -> Vec<DefinitionError> {
    let old = file.old_forms.iter().map(|f| DefinitionError::OldForm {
        what: f.what,
        new: f.new.clone(),
        at: f.span.into(),
    });
    old.chain(guard_problems(file)).collect()
}

/// The zone, state and check guards a file writes where only options guard.
pub(crate) fn guard_problems(
    file: &syntax::ast::File,
) -> impl Iterator<Item = DefinitionError> + '_ {
    file.misplaced_guards
        .iter()
        .map(|g| DefinitionError::GuardNotHere {
            guarded: g.guarded,
            at: g.span.into(),
        })
}

/// [`check_source`], with or without the lints (warnings that need the compiled tables).
fn report(name: &str, text: &str, bases: &dyn Bases, lints: bool) -> CheckReport {
    let mut sources = Sources::new(name, text);
    let mut problems = Vec::new();
    let file = match syntax::parse(text) {
        Ok(file) => {
            problems.extend(form_problems(&file));
            inherit::resolve(file, &mut sources, bases, &mut problems)
        }
        Err(errors) => {
            problems = errors;
            None
        }
    };
    let variant = file.and_then(|file| {
        let (variant, found) = check_with(&file, lints);
        problems.extend(found);
        variant
    });
    let diagnostics = (!problems.is_empty()).then(|| Diagnostics::in_sources(sources, problems));
    let has_errors = diagnostics.as_ref().is_some_and(Diagnostics::has_errors);
    CheckReport {
        variant: if has_errors { None } else { variant },
        diagnostics,
        has_errors,
    }
}

/// Reads and checks a definition; warnings are dropped.
///
/// # Errors
/// Every error found, bundled with the text so that it renders with source snippets.
///
/// # Examples
/// ```
/// let text = std::fs::read_to_string("definitions/chess.variant").unwrap();
/// let chess = rulebook::load("chess.variant", &text).unwrap();
/// assert_eq!(chess.pieces().len(), 6);
/// ```
pub fn load(name: &str, text: &str) -> Result<Variant, Diagnostics> {
    load_with(name, text, &Files)
}

/// [`load`], reading bases from `bases`.
///
/// # Errors
/// As [`load`].
pub fn load_with(name: &str, text: &str, bases: &dyn Bases) -> Result<Variant, Diagnostics> {
    // Warnings are dropped, so the lints, which compile the variant, are not run.
    let report = report(name, text, bases, false);
    match (report.variant, report.diagnostics) {
        (Some(v), _) => Ok(v),
        (None, Some(d)) => Err(d.without_warnings()),
        (None, None) => unreachable!("a definition without a variant has a diagnostic"),
    }
}

/// The patterns Betza text stands for, as a `betza "..."` clause reads it (for the importer,
/// which writes such a clause only where this reading is Fairy-Stockfish's).
///
/// # Errors
/// Why the text is not Betza this reader takes.
pub(crate) fn betza_patterns(
    text: &str,
) -> Result<Vec<(Vec<crate::model::Leg>, crate::model::Mode)>, String> {
    let atoms = crate::syntax::read_betza(text, crate::syntax::Span::new(0, text.len()))
        .map_err(|e| e.why)?;
    betza::patterns(&atoms).map_err(|(_, why)| why)
}

/// Checks a parsed definition: the variant if it is valid, and every problem found.
pub fn check(file: &ast::File) -> (Option<Variant>, Vec<DefinitionError>) {
    check_with(file, true)
}

fn check_with(file: &ast::File, lints: bool) -> (Option<Variant>, Vec<DefinitionError>) {
    let mut ctx = Ctx {
        lints,
        ..Ctx::default()
    };
    let items = Items::collect(file, &mut ctx);
    let variant = ctx.run(&items);
    let has_errors = ctx.problems.iter().any(|p| !p.is_warning());
    (variant.filter(|_| !has_errors), ctx.problems)
}

/// What every check shares: the problems found so far and the tables built so far.
#[derive(Debug, Default)]
pub(crate) struct Ctx {
    problems: Vec<DefinitionError>,
    /// The board, unless it is missing or invalid (square checks are then skipped).
    geometry: Option<Geometry>,
    /// Where each side faces, in turn order (north and south until `sides` says otherwise).
    facings: Vec<Facing>,
    /// Each side's initial, lowercase, once `sides` is read.
    side_tags: Vec<char>,
    /// Each side's name, once `sides` is read.
    side_names: Vec<String>,
    /// Where a quarter turn on a board that is not square was reported already.
    quarter_turns: std::collections::HashSet<usize>,
    names: NameTable,
    pieces: PieceNames,
    reported: Reported,
    /// Whether to run the lints once the variant is valid.
    lints: bool,
}

impl Ctx {
    fn report(&mut self, problem: DefinitionError) {
        self.problems.push(problem);
    }

    fn error_count(&self) -> usize {
        self.problems.iter().filter(|p| !p.is_warning()).count()
    }

    /// How many sides the game has (two where `sides` is missing or invalid, reported).
    fn side_count(&self) -> usize {
        self.facings.len().max(2)
    }

    /// The side called `name` among `names` (in turn order); an unknown name is reported,
    /// with a similar name or the list of sides.
    fn side_named(&mut self, name: &ast::Ident, names: &[&str]) -> Option<Side> {
        if let Some(i) = names.iter().position(|s| *s == name.node) {
            return Some(Side::nth(i));
        }
        let help = match crate::syntax::similar(&name.node, names.iter().copied()) {
            Some(s) => format!("a side with a similar name exists: `{s}`"),
            None => format!(
                "the sides are {}",
                names
                    .iter()
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
        };
        self.report(DefinitionError::UnknownSide {
            name: name.node.clone(),
            at: name.span.into(),
            help,
        });
        None
    }

    /// Whether pieces are written with their side's initial (`rK`): more than two sides.
    fn tags_sides(&self) -> bool {
        self.side_tags.len() > 2
    }

    /// Where side `side` faces: as declared, or north and south where `sides` is missing or
    /// invalid.
    fn facing(&self, side: usize) -> Facing {
        match self.facings.get(side) {
            Some(&f) => f,
            None if side == 0 => Facing::North,
            None => Facing::South,
        }
    }

    /// `sq` as the side `side` has it, copied from `from`'s by `sym`; a quarter turn on a
    /// board that is not square is reported (at `at`, once) and gives `None`.
    fn turned_square(
        &mut self,
        g: Geometry,
        sq: Square,
        (from, side): (usize, usize),
        sym: ast::Symmetry,
        at: crate::syntax::Span,
    ) -> Option<Square> {
        let (from, to) = (self.facing(from), self.facing(side));
        let turned = g.turned(sq, from, to, sym == ast::Symmetry::Mirrored);
        if turned.is_none() && self.quarter_turns.insert(at.start) {
            self.report(DefinitionError::QuarterTurn {
                from: facing_word(from).into(),
                to: facing_word(to).into(),
                width: g.width,
                height: g.height,
                at: at.into(),
            });
        }
        turned
    }
}

/// The compass word of a facing.
fn facing_word(f: Facing) -> &'static str {
    match f {
        Facing::North => "north",
        Facing::South => "south",
        Facing::East => "east",
        Facing::West => "west",
    }
}

/// The declarations of a file, sorted by kind.
struct Items<'a> {
    variant: Option<&'a ast::VariantDecl>,
    board: Option<&'a ast::BoardDecl>,
    sides: Option<&'a ast::SidesDecl>,
    options: Vec<&'a ast::OptionDecl>,
    zones: Vec<&'a ast::ZoneDecl>,
    partitions: Vec<&'a ast::PartitionDecl>,
    lines: Vec<&'a ast::PartitionDecl>,
    holes: Option<&'a ast::HolesDecl>,
    pieces: Vec<&'a ast::PieceDecl>,
    castlings: Vec<&'a ast::CastlingDecl>,
    rules: Option<&'a ast::RulesDecl>,
    setup: Option<&'a ast::SetupDecl>,
    teams: Vec<&'a ast::TeamsDecl>,
    /// Setups for some option settings (`if OPTION: setup`).
    other_setups: Vec<&'a ast::SetupDecl>,
    drawing: Option<&'a ast::DrawingDecl>,
}

/// Keeps the first of a declaration that may appear once, reporting the others.
fn once<'a, T>(
    slot: &mut Option<&'a T>,
    decl: &'a T,
    span: impl Fn(&T) -> Span,
    item: &'static str,
    ctx: &mut Ctx,
) {
    match slot {
        Some(first) => ctx.report(DefinitionError::DuplicateItem {
            item,
            again: span(decl).into(),
            first: span(first).into(),
        }),
        None => *slot = Some(decl),
    }
}

impl<'a> Items<'a> {
    fn collect(file: &'a ast::File, ctx: &mut Ctx) -> Items<'a> {
        let mut items = Items {
            variant: None,
            board: None,
            sides: None,
            options: Vec::new(),
            zones: Vec::new(),
            partitions: Vec::new(),
            lines: Vec::new(),
            holes: None,
            pieces: Vec::new(),
            castlings: Vec::new(),
            rules: None,
            setup: None,
            other_setups: Vec::new(),
            drawing: None,
            teams: Vec::new(),
        };
        for item in &file.items {
            match item {
                ast::Item::Variant(d) => once(&mut items.variant, d, |d| d.keyword, "variant", ctx),
                ast::Item::Board(d) => once(&mut items.board, d, |d| d.keyword, "board", ctx),
                ast::Item::Sides(d) => once(&mut items.sides, d, |d| d.keyword, "sides", ctx),
                ast::Item::Rules(d) => once(&mut items.rules, d, |d| d.keyword, "rules", ctx),
                ast::Item::Setup(d) if !d.guards.is_empty() => items.other_setups.push(d),
                ast::Item::Setup(d) => once(&mut items.setup, d, |d| d.keyword, "setup", ctx),
                ast::Item::Option(d) => items.options.push(d),
                ast::Item::Zone(d) => items.zones.push(d),
                ast::Item::Partition(d) => items.partitions.push(d),
                ast::Item::Line(d) => items.lines.push(d),
                ast::Item::Holes(d) => once(&mut items.holes, d, |d| d.keyword, "holes", ctx),
                ast::Item::Piece(d) => items.pieces.push(d),
                ast::Item::Castling(d) => items.castlings.push(d),
                ast::Item::Drawing(d) => once(&mut items.drawing, d, |d| d.keyword, "drawing", ctx),
                ast::Item::Teams(d) => items.teams.push(d),
                // Merged into the items by `inherit` before checking.
                ast::Item::Without(_) => {}
            }
        }
        let missing = [
            (items.variant.is_none(), "variant", "name the game, for example `variant \"My Chess\"`"),
            (items.board.is_none(), "board", "give the board's size, for example `board 8 x 8`"),
            (items.sides.is_none(), "sides", "name the two players and where their forward points, for example `sides white north, black south`"),
            (items.setup.is_none(), "setup", "draw the start position under `setup`, one indented row per rank, top rank first"),
        ];
        for (is_missing, item, help) in missing {
            if is_missing {
                ctx.report(DefinitionError::MissingItem {
                    item,
                    help: help.to_string(),
                });
            }
        }
        items
    }
}

impl Ctx {
    fn run(&mut self, items: &Items<'_>) -> Option<Variant> {
        let name = items
            .variant
            .map(|v| v.name.node.clone())
            .unwrap_or_default();
        let known_as = items
            .variant
            .map(|v| self.known_as(&v.known_as))
            .unwrap_or_default();
        self.geometry = items.board.and_then(|b| self.board(b));
        let sides = items.sides.map(|s| self.sides(s)).unwrap_or_default();
        let options = self.declare_options(&items.options);
        self.declare_zones(&items.zones);
        self.declare_partitions(&items.partitions);
        self.declare_lines(&items.lines);
        self.declare_pieces(&items.pieces);
        let (zones, partitions, lines, holes) = self.zones(
            &items.zones,
            &items.partitions,
            &items.lines,
            items.holes.map(|h| &h.expr),
        );
        // Holes are known only now: zones may name them, and they name zones.
        self.geometry = self.geometry.map(|g| g.with_holes(holes));
        let pieces = self.pieces(&items.pieces);
        let (setup, hand, setup_ok) = match items.setup {
            Some(s) => self.setup(s),
            None => (Vec::new(), Vec::new(), false),
        };
        let mut rules = self.rules(items.rules, &pieces, &sides);
        // A piece dropped as unmoved may take its castling square after the start.
        let dropped_unmoved: Vec<bool> = pieces.iter().map(|p| p.drops.unmoved).collect();
        rules.castlings =
            self.castlings(&items.castlings, &setup, setup_ok, &sides, &dropped_unmoved);
        if setup_ok {
            self.royals_placed(&rules, &pieces, &setup, &hand, &sides, items.setup);
        }
        let mut other_setups = Vec::new();
        let mut other_hands = Vec::new();
        for decl in &items.other_setups {
            let guards = self.option_guards(&decl.guards);
            let (placements, hand, ok) = self.setup(decl);
            if ok {
                self.royals_placed(&rules, &pieces, &placements, &hand, &sides, Some(decl));
            }
            other_setups.push((guards, placements));
            other_hands.push(hand);
        }
        self.drops_used(&rules, &items.pieces);
        let drawing = items.drawing.map(|d| self.drawing(d)).unwrap_or_default();
        let teams = items
            .teams
            .iter()
            .map(|d| (self.option_guards(&d.guards), self.teams(d, &sides)))
            .collect();
        self.unused_names();
        let geometry = self.geometry?;
        let variant = Variant {
            name,
            known_as,
            geometry,
            sides,
            zones,
            partitions,
            lines,
            options,
            pieces,
            rules,
            setup,
            other_setups,
            hand,
            other_hands,
            drawing,
            teams,
            square_tables: None,
        };
        if self.lints && self.error_count() == 0 {
            self.lint(&variant, items);
        }
        Some(variant)
    }

    /// `known as "NAME" in PROTOCOL`: one word a GUI can carry, one name per protocol.
    fn known_as(&mut self, clauses: &[ast::KnownAs]) -> Vec<(Protocol, String)> {
        let mut out: Vec<(Protocol, String)> = Vec::new();
        let mut first: Vec<(ast::Protocol, Span)> = Vec::new();
        for c in clauses {
            let (protocol, word) = match c.protocol.node {
                ast::Protocol::XBoard => (Protocol::XBoard, "xboard"),
                ast::Protocol::Uci => (Protocol::Uci, "uci"),
            };
            let name = &c.name.node;
            if name.is_empty()
                || !name
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_')
            {
                self.report(DefinitionError::BadProtocolName {
                    name: name.clone(),
                    protocol: word,
                    at: c.name.span.into(),
                });
                continue;
            }
            if let Some((_, at)) = first.iter().find(|(p, _)| *p == c.protocol.node) {
                self.report(DefinitionError::ProtocolNamedTwice {
                    protocol: word,
                    again: c.span.into(),
                    first: (*at).into(),
                });
                continue;
            }
            first.push((c.protocol.node, c.span));
            out.push((protocol, name.clone()));
        }
        out
    }

    /// `drawing`: the style, the rivers' ranks checked against the board, the zones resolved.
    fn drawing(&mut self, decl: &ast::DrawingDecl) -> crate::model::Drawing {
        use crate::model::BoardStyle;
        let style = match decl.style.node {
            ast::BoardStyle::Checkered => BoardStyle::Checkered,
            ast::BoardStyle::Grid => BoardStyle::Grid,
            ast::BoardStyle::Points => BoardStyle::Points,
        };
        let mut rivers = Vec::new();
        for rank in &decl.rivers {
            let height = self.geometry.map_or(u32::MAX, |g| u32::from(g.height));
            match rank.node.parse::<u32>() {
                Ok(r) if r >= 1 && r < height => rivers.push(r as i32 - 1),
                _ => self.report(DefinitionError::RankOffBoard {
                    rank: rank.node.clone(),
                    ranks: self.geometry.map_or(0, |g| g.height),
                    at: rank.span.into(),
                }),
            }
        }
        let diagonals = decl
            .diagonals
            .iter()
            .filter_map(|z| self.zone_ref(z))
            .collect();
        crate::model::Drawing {
            style,
            rivers,
            diagonals,
        }
    }

    fn declare_options(&mut self, decls: &[&ast::OptionDecl]) -> Vec<crate::model::OptionDef> {
        let mut out = Vec::new();
        for d in decls {
            self.declare(Space::Option, &d.name);
            out.push(crate::model::OptionDef {
                name: d.name.node.clone(),
                default: d.default.node,
                description: d
                    .description
                    .as_ref()
                    .map(|s| s.node.clone())
                    .unwrap_or_default(),
            });
        }
        out
    }

    /// Each side's team under one `teams` declaration: the index of its partnership, or a
    /// team of its own for a side it leaves out.
    fn teams(&mut self, decl: &ast::TeamsDecl, sides: &[SideDef]) -> Vec<u8> {
        let mut team: Vec<Option<usize>> = vec![None; sides.len()];
        for (i, members) in decl.teams.iter().enumerate() {
            for name in members {
                match sides.iter().position(|s| s.name == name.node) {
                    Some(s) if team[s].is_some() => self.report(DefinitionError::TeamTwice {
                        name: name.node.clone(),
                        at: name.span.into(),
                    }),
                    Some(s) => team[s] = Some(i),
                    None => self.report(DefinitionError::UnknownTeamSide {
                        name: name.node.clone(),
                        sides: sides
                            .iter()
                            .map(|s| format!("`{}`", s.name))
                            .collect::<Vec<_>>()
                            .join(", "),
                        at: name.span.into(),
                    }),
                }
            }
        }
        let named = decl.teams.len();
        team.iter()
            .enumerate()
            .map(|(s, t)| {
                // Every team names a side and a side joins one team (else reported above), so
                // a checked game has at most MAX_SIDES teams; a refused one may have any.
                u8::try_from(t.unwrap_or(named + s)).unwrap_or(u8::MAX)
            })
            .collect()
    }

    fn sides(&mut self, decl: &ast::SidesDecl) -> Vec<SideDef> {
        let mut out: Vec<SideDef> = Vec::new();
        for (i, side) in decl.sides.iter().enumerate() {
            if let Some(first) = decl.sides[..i]
                .iter()
                .find(|s| s.name.node == side.name.node)
            {
                self.report(DefinitionError::DuplicateSide {
                    name: side.name.node.clone(),
                    again: side.name.span.into(),
                    first: first.name.span.into(),
                });
            }
            out.push(SideDef {
                name: side.name.node.clone(),
                facing: geometry::facing(side.facing.node),
            });
        }
        const ORDINALS: [&str; 4] = ["first", "second", "third", "fourth"];
        let many = decl.sides.len() > 2;
        for (i, side) in decl.sides.iter().enumerate() {
            let initial = side_initial(&side.name.node);
            let same = decl.sides[..i]
                .iter()
                .find(|s| s.name.node != side.name.node && side_initial(&s.name.node) == initial);
            if let (true, Some(first)) = (many, same) {
                self.report(DefinitionError::SideInitialClash {
                    name: side.name.node.clone(),
                    other: first.name.node.clone(),
                    at: side.name.span.into(),
                    first: first.name.span.into(),
                });
            }
        }
        // With more than two sides FEN names the side to move by its initial.
        for (i, side) in decl.sides.iter().enumerate().filter(|_| !many) {
            let initial = side.name.node.chars().next();
            let clash = (0..decl.sides.len().min(ORDINALS.len()))
                .find(|&j| j != i && initial == Some(Side::nth(j).fen_letter()));
            if let (Some(j), Some(letter)) = (clash, initial) {
                self.report(DefinitionError::SideLetterClash {
                    name: side.name.node.clone(),
                    other: ORDINALS[j].into(),
                    letter,
                    at: side.name.span.into(),
                });
            }
        }
        match decl.sides.len() {
            0 | 1 => self.report(DefinitionError::TooFewSides {
                at: decl.span.into(),
            }),
            2..=MAX_SIDES => {
                self.facings = out.iter().map(|s| s.facing).collect();
                self.side_tags = out.iter().map(|s| side_initial(&s.name)).collect();
                self.side_names = out.iter().map(|s| s.name.clone()).collect();
            }
            _ => self.report(DefinitionError::TooManySides {
                at: decl.sides[MAX_SIDES].span.into(),
            }),
        }
        out
    }
}

/// The verdict of a syntax-level verdict.
fn verdict(v: ast::Verdict) -> Verdict {
    match v {
        ast::Verdict::Wins => Verdict::Win,
        ast::Verdict::Loses => Verdict::Loss,
        ast::Verdict::Draws => Verdict::Draw,
    }
}

/// Rules with every default.
fn default_rules() -> Rules {
    Rules {
        checkmate: false,
        checkmated: Verdict::Loss,
        royal_guard: RoyalGuard::Every,
        must_capture: false,
        must_drop: false,
        explosions: false,
        leave_walls: false,
        passing: false,
        gating: None,
        petrify: Vec::new(),
        wall_placing: None,
        passing_when_stuck: false,
        flip: None,
        flip_drops_near_friends: false,
        full_board_draws: false,
        counter_strike: Vec::new(),
        first_side: Side::FIRST,
        opposite_castling: false,
        connect: Vec::new(),
        counting: None,
        draw_odds: None,
        stalemate_by_count: false,
        mating_drops_lose: None,
        checks: None,
        checks_forbidden: false,
        extinction: false,
        stalemate: Verdict::Draw,
        stalemate_passes: false,
        eliminated: crate::model::Elimination::PlayOn,
        shared_victory: false,
        facing: Vec::new(),
        repetition: None,
        move_limit: None,
        drops: false,
        captures_to_hand: true,
        drops_options: Vec::new(),
        castlings: Vec::new(),
        conditions: Vec::new(),
    }
}

#[cfg(test)]
mod tests;

/// Orders the nodes of a graph so that each comes after the nodes its edges point to, and calls
/// `on_cycle(cycle, target, span)` for every edge that closes a loop: `cycle` lists the nodes
/// on it, starting with `target`, the node the edge (written at `span`) points back to.
///
/// Iterative, so that long chains of references cannot exhaust the stack.
pub(crate) fn dependency_order(
    edges: &[Vec<(usize, crate::syntax::Span)>],
    mut on_cycle: impl FnMut(&[usize], usize, crate::syntax::Span),
) -> Vec<usize> {
    // 0: not visited, 1: on the stack, 2: done.
    let n = edges.len();
    let mut state = vec![0u8; n];
    let mut order = Vec::with_capacity(n);
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        let mut stack = vec![(root, 0usize)];
        while let Some((node, k)) = stack.last_mut() {
            let node = *node;
            if let Some(&(target, span)) = edges[node].get(*k) {
                *k += 1;
                match state[target] {
                    0 => {
                        state[target] = 1;
                        stack.push((target, 0));
                    }
                    1 => {
                        let from = stack.iter().position(|(p, _)| *p == target).unwrap_or(0);
                        let cycle: Vec<usize> = stack[from..].iter().map(|(p, _)| *p).collect();
                        on_cycle(&cycle, target, span);
                    }
                    _ => {}
                }
            } else {
                state[node] = 2;
                order.push(node);
                stack.pop();
            }
        }
    }
    order
}
