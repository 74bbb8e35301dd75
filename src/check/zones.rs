//! Zones: their names, the order they depend on each other, and their squares per side.

use crate::{
    diagnostics::DefinitionError,
    model::{Line, Partition, SquareSet, Zone},
    syntax::ast::{self, Span},
};

use super::{Ctx, Space};

/// Cells of a mask that are in the zone.
const IN_CELLS: [char; 4] = ['x', 'X', '#', '*'];
/// Cells of a mask that are outside the zone.
const OUT_CELLS: [char; 2] = ['.', '-'];

/// What evaluation has computed so far.
struct Evaluated {
    /// Each zone's squares per side, once evaluated.
    values: Vec<Vec<SquareSet>>,
    /// Zones whose value cannot be trusted (a cycle, or a dependency on one).
    poisoned: Vec<bool>,
}

/// Every zone name an expression refers to, with where.
fn references(expr: &ast::ZoneExpr, out: &mut Vec<(String, Span)>) {
    let unions = std::iter::once(&expr.first).chain(expr.rest.iter().map(|(_, u)| u));
    for union in unions {
        for factor in &union.factors {
            match &factor.term {
                ast::ZoneTerm::Name(n) => out.push((n.node.clone(), n.span)),
                ast::ZoneTerm::Group(inner) => references(inner, out),
                _ => {}
            }
        }
    }
}

impl Ctx {
    /// Records every zone name, reporting duplicates.
    pub(super) fn declare_zones(&mut self, decls: &[&ast::ZoneDecl]) {
        for d in decls {
            self.declare(Space::Zone, &d.name);
        }
    }

    /// Records every partition name, reporting duplicates (partitions and zones are apart).
    pub(super) fn declare_partitions(&mut self, decls: &[&ast::PartitionDecl]) {
        for d in decls {
            self.declare(Space::Partition, &d.name);
        }
    }

    /// Records every line name, reporting duplicates (lines have names of their own).
    pub(super) fn declare_lines(&mut self, decls: &[&ast::PartitionDecl]) {
        for d in decls {
            self.declare(Space::Line, &d.name);
        }
    }

    /// Evaluates every zone for every side, dependencies first, then the partitions and the
    /// lines, whose parts may name zones.
    pub(super) fn zones(
        &mut self,
        decls: &[&ast::ZoneDecl],
        partitions: &[&ast::PartitionDecl],
        lines: &[&ast::PartitionDecl],
        holes: Option<&ast::ZoneExpr>,
    ) -> (Vec<Zone>, Vec<Partition>, Vec<Line>, SquareSet) {
        let n = decls.len();
        let sides = self.side_count();
        let mut poisoned = vec![false; n];
        let order = self.zone_order(decls, &mut poisoned);
        let mut ev = Evaluated {
            values: vec![vec![SquareSet::EMPTY; sides]; n],
            poisoned,
        };
        for i in order {
            self.evaluate_zone(decls[i], i, &mut ev);
        }
        let partitions = partitions.iter().map(|d| self.partition(d, &ev)).collect();
        let lines = lines.iter().map(|d| self.line(d, &ev)).collect();
        let holes = holes.map_or(SquareSet::EMPTY, |e| self.eval_expr(e, 0, &ev, &mut false));
        let zones = decls
            .iter()
            .zip(ev.values)
            .map(|(d, squares)| Zone {
                name: d.name.node.clone(),
                squares,
                glyph: d.drawn.as_ref().and_then(|t| self.glyph(t)),
            })
            .collect();
        (zones, partitions, lines, holes)
    }

    /// A line's edges per side: every orthogonal step between a square of its first set and
    /// one of its second.
    fn line(&mut self, decl: &ast::PartitionDecl, ev: &Evaluated) -> Line {
        let sides = self.side_count();
        let mut north = vec![SquareSet::EMPTY; sides];
        let mut east = vec![SquareSet::EMPTY; sides];
        let mut first = vec![SquareSet::EMPTY; sides];
        let mut tainted = false;
        for side in 0..sides {
            let mark = self.problems.len();
            let sets: Vec<SquareSet> = decl
                .parts
                .iter()
                .map(|e| self.eval_expr(e, side, ev, &mut tainted))
                .collect();
            if side > 0 {
                self.problems.truncate(mark);
            }
            let (Some(g), [a, b]) = (self.geometry, sets.as_slice()) else {
                continue;
            };
            first[side] = *a;
            for sq in g.squares() {
                for (dx, dy, edges) in [(0, 1, &mut north[side]), (1, 0, &mut east[side])] {
                    if let Some(next) = g.offset(sq, dx, dy) {
                        let across = (a.contains(sq) && b.contains(next))
                            || (b.contains(sq) && a.contains(next));
                        if across {
                            edges.insert(sq);
                        }
                    }
                }
            }
        }
        Line {
            name: decl.name.node.clone(),
            north,
            east,
            first,
        }
    }

    /// A partition's parts per side (the last part wins a square two share, after the report).
    fn partition(&mut self, decl: &ast::PartitionDecl, ev: &Evaluated) -> Partition {
        let n = self.geometry.map_or(0, |g| g.len());
        let mut part_of = vec![vec![0u16; n]; self.side_count()];
        let mut tainted = false;
        for (side, parts) in part_of.iter_mut().enumerate() {
            let mark = self.problems.len();
            let errors_before = self.error_count();
            let sets: Vec<SquareSet> = decl
                .parts
                .iter()
                .map(|e| self.eval_expr(e, side, ev, &mut tainted))
                .collect();
            if side > 0 {
                // Problems in the expressions were reported for the first side already.
                self.problems.truncate(mark);
            } else if !tainted && self.error_count() == errors_before {
                self.check_partition(decl, &sets);
            }
            for (i, set) in sets.iter().enumerate() {
                // Parts are numbered in a u16: past 65,535 parts (all but a board's worth of
                // them empty) the last ones share the last number.
                let part = u16::try_from(i).unwrap_or(u16::MAX);
                for sq in set.iter() {
                    parts[sq.index()] = part;
                }
            }
        }
        Partition {
            name: decl.name.node.clone(),
            part_of,
        }
    }

    /// Every square in exactly one part.
    fn check_partition(&mut self, decl: &ast::PartitionDecl, sets: &[SquareSet]) {
        let Some(g) = self.geometry else { return };
        let mut seen = SquareSet::EMPTY;
        for (i, set) in sets.iter().enumerate() {
            if let Some(sq) = set.intersection(&seen).iter().next() {
                self.report(DefinitionError::PartitionOverlap {
                    name: decl.name.node.clone(),
                    square: g.name(sq).to_string(),
                    at: decl.parts[i].span.into(),
                });
                return;
            }
            seen = seen.union(set);
        }
        if let Some(sq) = seen.complement(g.len()).iter().next() {
            self.report(DefinitionError::PartitionGap {
                name: decl.name.node.clone(),
                square: g.name(sq).to_string(),
                at: decl.name.span.into(),
            });
        }
    }

    /// Orders zones so that each comes after the zones it refers to, reporting cycles and
    /// poisoning the zones on them.
    fn zone_order(&mut self, decls: &[&ast::ZoneDecl], poisoned: &mut [bool]) -> Vec<usize> {
        let edges: Vec<Vec<(usize, Span)>> = decls
            .iter()
            .map(|d| {
                let mut refs = Vec::new();
                references(&d.expr, &mut refs);
                for (_, expr) in &d.side_sets {
                    references(expr, &mut refs);
                }
                refs.into_iter()
                    .filter_map(|(name, span)| {
                        self.names[Space::Zone].get(&name).map(|t| (t, span))
                    })
                    .collect()
            })
            .collect();
        let mut cycles = Vec::new();
        let order = super::dependency_order(&edges, |cycle, target, span| {
            for z in cycle {
                poisoned[*z] = true;
            }
            let name = decls[target].name.node.clone();
            let help = if cycle.len() == 1 {
                format!("`{name}` refers to itself; define it from squares and other zones only")
            } else {
                let path: Vec<String> = cycle
                    .iter()
                    .chain(std::iter::once(&target))
                    .map(|z| format!("`{}`", decls[*z].name.node))
                    .collect();
                format!(
                    "these zones refer to each other in a loop: {}; define one of them without the others",
                    path.join(" -> ")
                )
            };
            cycles.push(DefinitionError::ZoneCycle {
                name,
                at: span.into(),
                help,
            });
        });
        for c in cycles {
            self.report(c);
        }
        order
    }

    /// The one printable character of `drawn "c"`.
    fn glyph(&mut self, text: &crate::syntax::Spanned<String>) -> Option<char> {
        let mut chars = text.node.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_graphic() && !c.is_ascii_alphanumeric() && c != '*' => {
                Some(c)
            }
            _ => {
                self.report(DefinitionError::BadGlyph {
                    text: text.node.clone(),
                    at: text.span.into(),
                });
                None
            }
        }
    }

    fn evaluate_zone(&mut self, decl: &ast::ZoneDecl, i: usize, ev: &mut Evaluated) {
        let errors_before = self.error_count();
        let mut tainted = ev.poisoned[i];
        let first = self.eval_expr(&decl.expr, 0, ev, &mut tainted);
        let mut squares = vec![first; self.side_count()];
        match (decl.symmetry.as_ref(), self.geometry) {
            (Some(sym), Some(g)) => {
                // Every other side's copy, turned to its facing.
                for (side, slot) in squares.iter_mut().enumerate().skip(1) {
                    *slot = first
                        .iter()
                        .filter_map(|sq| self.turned_square(g, sq, (0, side), sym.node, sym.span))
                        .collect();
                }
            }
            (Some(_), None) => {}
            (None, _) => {
                // Each side reads the expression with its own copies of the zones it names;
                // problems in it were reported for the first side already.
                let mark = self.problems.len();
                for (side, slot) in squares.iter_mut().enumerate().skip(1) {
                    *slot = self.eval_expr(&decl.expr, side, ev, &mut tainted);
                }
                self.problems.truncate(mark);
                self.side_sets(decl, &mut squares, ev, &mut tainted);
            }
        }
        if tainted {
            ev.poisoned[i] = true;
        }
        let clean = !tainted && self.error_count() == errors_before && self.geometry.is_some();
        if clean && squares.iter().any(SquareSet::is_empty) {
            let whom = if squares.iter().all(SquareSet::is_empty) {
                "every side".to_string()
            } else {
                "one side".to_string()
            };
            self.report(DefinitionError::EmptyZone {
                name: decl.name.node.clone(),
                at: decl.expr.span.into(),
                whom,
            });
        }
        ev.values[i] = squares;
    }

    /// `, for SIDE EXPR`: each named side's set read from its own expression.
    fn side_sets(
        &mut self,
        decl: &ast::ZoneDecl,
        squares: &mut [SquareSet],
        ev: &Evaluated,
        tainted: &mut bool,
    ) {
        let mut given: Vec<(usize, Span)> = Vec::new();
        for (name, expr) in &decl.side_sets {
            let value =
                |ctx: &mut Ctx, side, tainted: &mut bool| ctx.eval_expr(expr, side, ev, tainted);
            let names = self.side_names.clone();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let Some(side) = self.side_named(name, &names).map(crate::model::Side::index) else {
                value(self, 0, tainted);
                continue;
            };
            if let Some(&(_, first)) = given.iter().find(|(s, _)| *s == side) {
                self.report(DefinitionError::ZoneSideTwice {
                    name: name.node.clone(),
                    again: name.span.into(),
                    first: first.into(),
                });
            }
            given.push((side, name.span));
            squares[side] = value(self, side, tainted);
        }
    }

    fn eval_expr(
        &mut self,
        expr: &ast::ZoneExpr,
        side: usize,
        ev: &Evaluated,
        tainted: &mut bool,
    ) -> SquareSet {
        let mut acc = self.eval_union(&expr.first, side, ev, tainted);
        for (op, union) in &expr.rest {
            let rhs = self.eval_union(union, side, ev, tainted);
            acc = match op.node {
                ast::ZoneOp::And => acc.intersection(&rhs),
                ast::ZoneOp::Except => acc.difference(&rhs),
            };
        }
        acc
    }

    fn eval_union(
        &mut self,
        union: &ast::ZoneUnion,
        side: usize,
        ev: &Evaluated,
        tainted: &mut bool,
    ) -> SquareSet {
        let len = self.geometry.map_or(0, |g| g.len());
        let mut acc = SquareSet::EMPTY;
        for factor in &union.factors {
            let mut set = self.eval_term(&factor.term, side, ev, tainted);
            if factor.negated {
                set = set.complement(len);
            }
            acc = acc.union(&set);
        }
        acc
    }

    fn eval_term(
        &mut self,
        term: &ast::ZoneTerm,
        side: usize,
        ev: &Evaluated,
        tainted: &mut bool,
    ) -> SquareSet {
        match term {
            ast::ZoneTerm::Group(inner) => self.eval_expr(inner, side, ev, tainted),
            ast::ZoneTerm::Name(name) => match self.zone_ref(name) {
                Some(id) => {
                    let i = id.index();
                    if ev.poisoned[i] {
                        *tainted = true;
                    }
                    ev.values[i][side]
                }
                None => {
                    *tainted = true;
                    SquareSet::EMPTY
                }
            },
            ast::ZoneTerm::Square(s) => self.square(s).into_iter().collect(),
            ast::ZoneTerm::Range { from, to } => {
                let a = self.square(from);
                let b = self.square(to);
                match (a, b, self.geometry) {
                    (Some(a), Some(b), Some(g)) => {
                        self.rectangle((g.file(a), g.file(b)), (g.rank(a), g.rank(b)))
                    }
                    _ => SquareSet::EMPTY,
                }
            }
            ast::ZoneTerm::Rank(r) => match (self.rank(r), self.geometry) {
                (Some(r), Some(g)) => self.rectangle((0, i32::from(g.width) - 1), (r, r)),
                _ => SquareSet::EMPTY,
            },
            ast::ZoneTerm::Ranks(a, b) => {
                let a = self.rank(a);
                let b = self.rank(b);
                match (a, b, self.geometry) {
                    (Some(a), Some(b), Some(g)) => {
                        self.rectangle((0, i32::from(g.width) - 1), (a, b))
                    }
                    _ => SquareSet::EMPTY,
                }
            }
            ast::ZoneTerm::File(f) => match (self.file(f), self.geometry) {
                (Some(f), Some(g)) => self.rectangle((f, f), (0, i32::from(g.height) - 1)),
                _ => SquareSet::EMPTY,
            },
            ast::ZoneTerm::Files(a, b) => {
                let a = self.file(a);
                let b = self.file(b);
                match (a, b, self.geometry) {
                    (Some(a), Some(b), Some(g)) => {
                        self.rectangle((a, b), (0, i32::from(g.height) - 1))
                    }
                    _ => SquareSet::EMPTY,
                }
            }
            ast::ZoneTerm::All(_) => self
                .geometry
                .map_or(SquareSet::EMPTY, |g| g.squares().collect()),
            ast::ZoneTerm::None(_) => SquareSet::EMPTY,
            ast::ZoneTerm::Mask(mask) => self.mask(mask),
        }
    }

    /// The squares between two files and two ranks, in either order.
    fn rectangle(&self, files: (i32, i32), ranks: (i32, i32)) -> SquareSet {
        let Some(g) = self.geometry else {
            return SquareSet::EMPTY;
        };
        let mut set = SquareSet::EMPTY;
        for rank in ranks.0.min(ranks.1)..=ranks.0.max(ranks.1) {
            for file in files.0.min(files.1)..=files.0.max(files.1) {
                if let Some(sq) = g.square(file, rank) {
                    set.insert(sq);
                }
            }
        }
        set
    }

    fn mask(&mut self, mask: &ast::Mask) -> SquareSet {
        let mut ok = true;
        if let Some(cell) = mask
            .rows
            .iter()
            .flat_map(|r| r.cells.iter())
            .find(|c| !IN_CELLS.contains(&c.node) && !OUT_CELLS.contains(&c.node))
        {
            self.report(DefinitionError::MaskCell {
                ch: cell.node,
                at: cell.span.into(),
            });
            ok = false;
        }
        let Some(g) = self.geometry else {
            return SquareSet::EMPTY;
        };
        if mask.rows.len() != usize::from(g.height) {
            self.report(DefinitionError::MaskHeight {
                rows: mask.rows.len(),
                height: g.height,
                at: mask.keyword.into(),
            });
            ok = false;
        }
        if let Some(row) = mask
            .rows
            .iter()
            .find(|r| r.cells.len() != usize::from(g.width))
        {
            self.report(DefinitionError::MaskWidth {
                cells: row.cells.len(),
                width: g.width,
                at: row.span.into(),
            });
            ok = false;
        }
        if !ok {
            return SquareSet::EMPTY;
        }
        let mut set = SquareSet::EMPTY;
        // One row per rank, the top one first, one cell per file (checked above).
        for (rank, row) in (0..i32::from(g.height)).rev().zip(&mask.rows) {
            for (file, cell) in (0..).zip(&row.cells) {
                if IN_CELLS.contains(&cell.node) {
                    if let Some(sq) = g.square(file, rank) {
                        set.insert(sq);
                    }
                }
            }
        }
        set
    }
}
