//! Pieces: names and letters, movement patterns, `like` resolution and the other clauses.

use std::collections::HashSet;

use crate::{
    diagnostics::DefinitionError,
    model::{
        Arm, Capturable, Confinement, Dirs, DropRules, EntryCondition, Holding, Immunity,
        KindFilter, Leg, LegKind, Letter, Mode, Owner, Pattern, PieceDef, PieceKind, Promotion,
        Rules, Screens, Teleport, Within, ZoneGuard,
    },
    syntax::ast::{self, Span},
};

use super::{geometry::parse_i8, geometry::parse_u32, geometry::parse_u8, Ctx};

/// The most piece kinds a variant may have: letters of both sides must fit a signed byte.
pub(crate) const MAX_PIECES: usize = 127;
/// The most patterns one piece may have once `like` is expanded.
pub(crate) const MAX_PATTERNS: usize = 1024;
/// The longest coordinate of a vector: the widest board minus one.
const MAX_COORD: i8 = 25;
/// The longest slide or hop.
const MAX_REPEAT: u8 = 26;

const ORTHOGONAL: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

/// A pattern, or a reference to another piece's patterns still to be copied.
enum Slot {
    Pattern(Box<Pattern>),
    /// The piece referred to (if it resolved) and where.
    Like(Option<usize>, Span),
}

/// The vectors a direction word stands for, in the side's own frame.
fn named_vectors(d: ast::NamedDir) -> Vec<(i8, i8)> {
    match d {
        ast::NamedDir::Orthogonal => ORTHOGONAL.to_vec(),
        ast::NamedDir::Diagonal => DIAGONAL.to_vec(),
        ast::NamedDir::Any => ORTHOGONAL.iter().chain(DIAGONAL.iter()).copied().collect(),
        ast::NamedDir::Forward => vec![(0, 1)],
        ast::NamedDir::Backward => vec![(0, -1)],
        ast::NamedDir::Left => vec![(-1, 0)],
        ast::NamedDir::Right => vec![(1, 0)],
        ast::NamedDir::Sideways => vec![(-1, 0), (1, 0)],
        ast::NamedDir::ForwardDiagonal => vec![(-1, 1), (1, 1)],
        ast::NamedDir::BackwardDiagonal => vec![(-1, -1), (1, -1)],
        ast::NamedDir::Same | ast::NamedDir::Outward | ast::NamedDir::Reverse => Vec::new(),
    }
}

/// Every turn and reflection of the leap `(a, b)`.
fn symmetric(a: i8, b: i8) -> Vec<(i8, i8)> {
    [(a, b), (b, a)]
        .iter()
        .flat_map(|&(x, y)| [(x, y), (x, -y), (-x, -y), (-x, y)])
        .collect()
}

fn covering(spans: impl Iterator<Item = Span>) -> Option<Span> {
    spans.reduce(Span::to)
}

/// The error for pieces whose `like` patterns copy each other in a loop.
fn like_cycle(
    decls: &[&ast::PieceDecl],
    cycle: &[usize],
    target: usize,
    span: Span,
) -> DefinitionError {
    let path: Vec<String> = cycle
        .iter()
        .chain(std::iter::once(&target))
        .map(|p| format!("`{}`", decls[*p].name.node))
        .collect();
    let help = if path.len() == 2 {
        format!(
            "`{}` is defined by its own moves; write its patterns out",
            decls[target].name.node
        )
    } else {
        format!(
            "these pieces copy each other's moves in a loop: {}; write the patterns out in one of them",
            path.join(" -> ")
        )
    };
    DefinitionError::LikeCycle {
        name: decls[target].name.node.clone(),
        at: span.into(),
        help,
    }
}

/// What a pattern's guards say, for each pattern written under them.
struct PatternGuards {
    zones: Vec<ZoneGuard>,
    options: Vec<crate::model::OptionGuard>,
    unmoved: Option<bool>,
    in_check: Option<bool>,
}

impl PatternGuards {
    /// A pattern of `legs` under these guards, without modifiers.
    fn pattern(&self, legs: Vec<Leg>, mode: Mode) -> Pattern {
        Pattern {
            zones: self.zones.clone(),
            options: self.options.clone(),
            legs,
            mode,
            creates_en_passant: false,
            takes_en_passant: false,
            en_passant_unpromoted: false,
            unmoved: self.unmoved,
            in_check: self.in_check,
            shot: false,
            capturing: None,
            enemies_only: false,
            into: Vec::new(),
            holding: None,
            crossing: Vec::new(),
            continuing: None,
            along: None,
            avoiding: Vec::new(),
            screens: None,
            on_the_way: None,
            not_protected: None,
        }
    }
}

/// The letter a piece is declared with, as the model keeps it: the grammar reads nothing
/// else in its place, so a declaration always has one.
fn declared_letter(d: &ast::PieceDecl) -> Letter {
    Letter::parse(&d.letter.node).expect("the grammar reads only piece letters")
}

/// The clauses of a piece that may be given once, where they were first given.
#[derive(Default)]
struct ClausesSeen {
    demote: Option<Span>,
    drop_max: Option<Span>,
}

impl Ctx {
    /// Records every piece's name and letter, reporting duplicates and bad letters.
    pub(super) fn declare_pieces(&mut self, decls: &[&ast::PieceDecl]) {
        // A board cell holds a kind of a side, nothing or a wall (255), in a byte.
        let max = MAX_PIECES.min(254 / self.side_count());
        for (i, d) in decls.iter().enumerate() {
            if i == max {
                self.report(DefinitionError::TooManyPieces {
                    max,
                    at: d.name.span.into(),
                });
            }
            if let Err(first) = self
                .pieces
                .names
                .declare(d.name.node.to_lowercase(), &d.name)
            {
                self.report(DefinitionError::DuplicatePieceName {
                    name: d.name.node.clone(),
                    again: d.name.span.into(),
                    first: first.into(),
                });
            }
            let letter = declared_letter(d);
            let upper = letter.to_string();
            if upper != d.letter.node {
                self.report(DefinitionError::LowercaseLetter {
                    letter: d.letter.node.clone(),
                    upper: upper.clone(),
                    at: d.letter.span.into(),
                });
            }
            match self.pieces.letters.get(&letter) {
                Some(&first) => self.report(DefinitionError::DuplicateLetter {
                    letter: upper,
                    again: d.letter.span.into(),
                    first: decls[first].letter.span.into(),
                }),
                None => {
                    self.pieces.letters.insert(letter, i);
                }
            }
        }
    }

    /// Checks every piece's clauses and expands `like`.
    pub(super) fn pieces(&mut self, decls: &[&ast::PieceDecl]) -> Vec<PieceDef> {
        let mut slots = Vec::with_capacity(decls.len());
        let mut pieces = Vec::with_capacity(decls.len());
        for (i, d) in decls.iter().enumerate() {
            let (def, piece_slots) = self.piece(i, d);
            pieces.push(def);
            slots.push(piece_slots);
        }
        let expanded = self.expand_likes(decls, slots);
        for (piece, patterns) in pieces.iter_mut().zip(expanded) {
            piece.patterns = patterns;
        }
        pieces
    }

    fn piece(&mut self, index: usize, d: &ast::PieceDecl) -> (PieceDef, Vec<Slot>) {
        let mut def = PieceDef {
            name: d.name.node.clone(),
            letter: declared_letter(d),
            value: self.piece_value(d),
            value_given: d.value.is_some(),
            royal: d.royal.is_some(),
            patterns: Vec::new(),
            confinements: Vec::new(),
            within: Vec::new(),
            promotions: Vec::new(),
            demotes_to: None,
            drops: DropRules::default(),
            resets_clock: false,
            unmoved_in_fen: false,
            only_from_fen: false,
            unmoved_lost_to: Vec::new(),
            immunity: Immunity::None,
            borrows: false,
            teleports: Vec::new(),
            entries: Vec::new(),
        };
        let mut slots = Vec::new();
        let mut seen = ClausesSeen::default();
        for clause in &d.clauses {
            self.piece_clause(index, d, clause, &mut def, &mut slots, &mut seen);
        }
        (def, slots)
    }

    /// The piece's value for the engine: as written, else 0 for a royal and 1 otherwise.
    fn piece_value(&mut self, d: &ast::PieceDecl) -> f32 {
        match &d.value {
            None if d.royal.is_some() => 0.0,
            None => 1.0,
            Some(v) => match v.node.parse::<f32>() {
                Ok(x) if x.is_finite() => x,
                _ => {
                    self.report(DefinitionError::BadValue {
                        text: v.node.clone(),
                        at: v.span.into(),
                    });
                    0.0
                }
            },
        }
    }

    /// One clause of the declaration `d` of piece `index`, into `def` (and its move patterns
    /// into `slots`).
    fn piece_clause(
        &mut self,
        index: usize,
        d: &ast::PieceDecl,
        clause: &ast::PieceClause,
        def: &mut PieceDef,
        slots: &mut Vec<Slot>,
        seen: &mut ClausesSeen,
    ) {
        match clause {
            ast::PieceClause::Move(m) => {
                for p in &m.patterns {
                    slots.extend(self.pattern(p));
                }
            }
            ast::PieceClause::Confine(c) => {
                let zone = self.zone_ref(&c.zone);
                let options = self.option_guards(&c.guards);
                if let Some(zone) = zone {
                    def.confinements.push(Confinement {
                        zone,
                        inside: c.inside,
                        options,
                    });
                }
            }
            ast::PieceClause::Within {
                partition, guards, ..
            } => {
                let partition = self.partition_ref(partition);
                let options = self.option_guards(guards);
                if let Some(partition) = partition {
                    def.within.push(Within { partition, options });
                }
            }
            ast::PieceClause::Promote(p) => {
                if let Some(promotion) = self.promotion(index, d, p) {
                    def.promotions.push(promotion);
                }
            }
            ast::PieceClause::Demote { target, span } => {
                self.demote_clause(index, d, target, *span, def, seen);
            }
            ast::PieceClause::Drop(drop) => self.drop_clause(index, d, drop, def, seen),
            ast::PieceClause::ResetsClock(_) => def.resets_clock = true,
            ast::PieceClause::UnmovedInFen(_) => def.unmoved_in_fen = true,
            ast::PieceClause::OnlyFromFen(_) => def.only_from_fen = true,
            ast::PieceClause::UnmovedLostWhenAimed(aimers, _) => {
                for r in aimers {
                    if let Some(kind) = self.piece_ref(r) {
                        if !def.unmoved_lost_to.contains(&kind) {
                            def.unmoved_lost_to.push(kind);
                        }
                    }
                }
            }
            ast::PieceClause::Immune(nearby, _) => {
                def.immunity = if *nearby {
                    Immunity::Nearby
                } else {
                    Immunity::Full
                };
            }
            ast::PieceClause::Borrow(_) => def.borrows = true,
            ast::PieceClause::Teleport { .. } => def.teleports.extend(self.teleport(clause)),
            ast::PieceClause::Enter { .. } => def.entries.extend(self.entry_condition(clause)),
        }
    }

    /// A `teleport` clause, if its zones and pieces resolve (what does not is reported).
    fn teleport(&mut self, clause: &ast::PieceClause) -> Option<Teleport> {
        let ast::PieceClause::Teleport {
            anchors,
            from,
            to,
            not_attacking,
            guards,
            ..
        } = clause
        else {
            return None;
        };
        let anchors: Vec<PieceKind> = anchors.iter().filter_map(|a| self.piece_ref(a)).collect();
        let from_zone = from.as_ref().map(|z| self.zone_ref(z));
        let to_zone = to.as_ref().map(|z| self.zone_ref(z));
        let options = self.option_guards(guards);
        let resolved = match (to_zone, from_zone) {
            (Some(None), _) | (_, Some(None)) => false,
            (Some(Some(_)), _) => true,
            (None, _) => !anchors.is_empty(),
        };
        resolved.then(|| Teleport {
            anchors,
            from: from_zone.flatten(),
            to: to_zone.flatten(),
            not_attacking: not_attacking.is_some(),
            options,
        })
    }

    /// An `enter ZONE only when holding ...` clause, if its zone and pieces resolve.
    fn entry_condition(&mut self, clause: &ast::PieceClause) -> Option<EntryCondition> {
        let ast::PieceClause::Enter {
            zone,
            holding,
            guards,
            ..
        } = clause
        else {
            return None;
        };
        let zone = self.zone_ref(zone);
        let kinds = self.holding_refs(holding);
        let options = self.option_guards(guards);
        match (zone, kinds.is_empty()) {
            (Some(zone), false) => Some(EntryCondition {
                zone,
                kinds,
                options,
            }),
            _ => None,
        }
    }

    /// `demote to PIECE`: once per piece, and not to itself.
    fn demote_clause(
        &mut self,
        index: usize,
        d: &ast::PieceDecl,
        target: &ast::PieceRef,
        span: Span,
        def: &mut PieceDef,
        seen: &mut ClausesSeen,
    ) {
        if let Some(first) = seen.demote {
            self.report(DefinitionError::RepeatedClause {
                name: d.name.node.clone(),
                clause: "demote to",
                again: span.into(),
                first: first.into(),
            });
            return;
        }
        seen.demote = Some(span);
        let Some(kind) = self.piece_ref(target) else {
            return;
        };
        if kind.index() == index {
            self.report(DefinitionError::DemotesToItself {
                name: d.name.node.clone(),
                at: target.span.into(),
            });
        }
        def.demotes_to = Some(kind);
    }

    /// A `drop ...` clause: where and how the piece may be dropped.
    fn drop_clause(
        &mut self,
        index: usize,
        d: &ast::PieceDecl,
        drop: &ast::DropClause,
        def: &mut PieceDef,
        seen: &mut ClausesSeen,
    ) {
        match &drop.kind {
            ast::DropKind::In(z) => def.drops.only_in.extend(self.zone_ref(z)),
            ast::DropKind::Outside(z) => def.drops.never_in.extend(self.zone_ref(z)),
            ast::DropKind::NoMate => def.drops.no_mate = true,
            ast::DropKind::NoCheck => def.drops.no_check = true,
            ast::DropKind::EvenWhereStuck => def.drops.even_where_stuck = true,
            ast::DropKind::Compulsory => def.drops.compulsory = true,
            ast::DropKind::Flipping => def.drops.only_flipping = true,
            ast::DropKind::NextToOwn => def.drops.only_next_to_own = true,
            ast::DropKind::Unlimited => def.drops.unlimited = true,
            ast::DropKind::BothColours => def.drops.both_colours = true,
            ast::DropKind::Unmoved => def.drops.unmoved = true,
            ast::DropKind::OnTop => def.drops.on_top = true,
            ast::DropKind::Apart => def.drops.apart = true,
            ast::DropKind::FromEdge => def.drops.from_edge = true,
            ast::DropKind::FirstIn(z) => def.drops.first_in = self.zone_ref(z),
            ast::DropKind::AlsoAs(kinds) => {
                for r in kinds {
                    let Some(kind) = self.piece_ref(r) else {
                        continue;
                    };
                    if kind.index() == index {
                        self.report(DefinitionError::DropsAsItself {
                            name: d.name.node.clone(),
                            at: r.span.into(),
                        });
                    } else if !def.drops.also_as.contains(&kind) {
                        def.drops.also_as.push(kind);
                    }
                }
            }
            ast::DropKind::MaxPerFile(n) => {
                if let Some(first) = seen.drop_max {
                    self.report(DefinitionError::RepeatedClause {
                        name: d.name.node.clone(),
                        clause: "drop max",
                        again: drop.span.into(),
                        first: first.into(),
                    });
                    return;
                }
                seen.drop_max = Some(drop.span);
                match parse_u8(&n.node) {
                    Some(v) if (1..=MAX_REPEAT).contains(&v) => {
                        def.drops.max_per_file = Some(v);
                    }
                    _ => self.report(DefinitionError::BadDropLimit {
                        text: n.node.clone(),
                        at: n.span.into(),
                    }),
                }
            }
        }
    }

    fn promotion(
        &mut self,
        index: usize,
        d: &ast::PieceDecl,
        p: &ast::PromoteClause,
    ) -> Option<Promotion> {
        let mut choices: Vec<PieceKind> = Vec::new();
        for choice in &p.choices {
            let Some(kind) = self.piece_ref(choice) else {
                continue;
            };
            if kind.index() == index {
                self.report(DefinitionError::PromotesToItself {
                    name: d.name.node.clone(),
                    at: choice.span.into(),
                });
            } else if !choices.contains(&kind) {
                choices.push(kind);
            }
        }
        let zone = self.zone_ref(&p.zone);
        let options = self.option_guards(&p.guards);
        let at_most = p.at_most.as_ref().and_then(|n| {
            let v = parse_u32(&n.node).filter(|v| (1..=999).contains(v));
            if v.is_none() {
                self.report(DefinitionError::BadPromotionLimit {
                    text: n.node.clone(),
                    at: n.span.into(),
                });
            }
            v.and_then(|v| u16::try_from(v).ok())
        });
        if p.in_place.is_some() {
            for (word, at) in [
                ("or from", p.or_from),
                (", forced", p.forced),
                (", never forced", p.never_forced),
                (", when entering", p.when_entering),
                (", when capturing", p.when_capturing),
            ] {
                if let Some(at) = at {
                    self.report(DefinitionError::InPlaceConflict {
                        word: word.into(),
                        at: at.into(),
                    });
                }
            }
        }
        Some(Promotion {
            choices,
            zone: zone?,
            from_zone_too: p.or_from.is_some(),
            forced: p.forced.is_some(),
            when_capturing: p.when_capturing.is_some(),
            only_captured: p.only_captured.is_some(),
            at_most,
            never_forced: p.never_forced.is_some(),
            when_entering: p.when_entering.is_some(),
            in_place: p.in_place.is_some(),
            not_attacking: p.not_attacking.is_some(),
            anywhere_when_last: p.when_last.is_some(),
            options,
        })
    }

    fn pattern(&mut self, p: &ast::Pattern) -> Vec<Slot> {
        let guards = self.pattern_guards(&p.guards);
        let legs = match &p.body {
            ast::PatternBody::Like(target) => return self.like_slot(p, target),
            ast::PatternBody::Betza(betza) => return self.betza_slots(p, betza, &guards),
            ast::PatternBody::Path(legs) => self.path_legs(legs),
        };
        let mut pattern = guards.pattern(legs, Mode::Both);
        self.modifiers(&p.modifiers, &mut pattern);
        self.continuing_and_along(p, &mut pattern);
        vec![Slot::Pattern(Box::new(pattern))]
    }

    /// A pattern's guards: zones, options, and the unmoved and check states (each at most
    /// once).
    fn pattern_guards(&mut self, guards: &[ast::Guard]) -> PatternGuards {
        let mut zones = Vec::new();
        let mut option_guards = Vec::new();
        let mut state: Option<(bool, Span)> = None;
        let mut check: Option<(bool, Span)> = None;
        for guard in guards {
            match guard {
                ast::Guard::Zone { inside, zone, .. } => {
                    if let Some(zone) = self.zone_ref(zone) {
                        zones.push(ZoneGuard {
                            zone,
                            inside: *inside,
                        });
                    }
                }
                ast::Guard::Option(g) => option_guards.push(g.clone()),
                ast::Guard::State { unmoved, span } => match state {
                    Some((_, first)) => self.report(DefinitionError::StateTwice {
                        again: (*span).into(),
                        first: first.into(),
                    }),
                    None => state = Some((*unmoved, *span)),
                },
                ast::Guard::Check { in_check, span } => match check {
                    Some((_, first)) => self.report(DefinitionError::StateTwice {
                        again: (*span).into(),
                        first: first.into(),
                    }),
                    None => check = Some((*in_check, *span)),
                },
            }
        }
        PatternGuards {
            zones,
            options: self.option_guards(&option_guards),
            unmoved: state.map(|(u, _)| u),
            in_check: check.map(|(c, _)| c),
        }
    }

    /// `like PIECE`: the piece's moves, resolved later; guards and modifiers are refused.
    fn like_slot(&mut self, p: &ast::Pattern, target: &ast::PieceRef) -> Vec<Slot> {
        let guard_span = covering(p.guards.iter().map(|g| match g {
            ast::Guard::Zone { span, .. }
            | ast::Guard::State { span, .. }
            | ast::Guard::Check { span, .. } => *span,
            ast::Guard::Option(o) => o.span,
        }));
        if let Some(at) = guard_span {
            self.report(DefinitionError::GuardedLike {
                what: "guards",
                at: at.into(),
            });
        }
        if let Some(at) = covering(p.modifiers.iter().map(|m| m.span)) {
            self.report(DefinitionError::GuardedLike {
                what: "modifiers",
                at: at.into(),
            });
        }
        let kind = self.piece_ref(target).map(PieceKind::index);
        vec![Slot::Like(kind, target.span)]
    }

    /// `betza "..."`: a pattern per atom, each with the guards and modifiers written.
    fn betza_slots(
        &mut self,
        p: &ast::Pattern,
        betza: &ast::Betza,
        guards: &PatternGuards,
    ) -> Vec<Slot> {
        let read = match &betza.atoms {
            Ok(atoms) => super::betza::patterns(atoms),
            Err(e) => Err((e.at, e.why.clone())),
        };
        match read {
            Ok(read) => read
                .into_iter()
                .map(|(legs, mode)| {
                    let mut pattern = guards.pattern(legs, mode);
                    self.modifiers(&p.modifiers, &mut pattern);
                    Slot::Pattern(Box::new(pattern))
                })
                .collect(),
            Err((at, why)) => {
                self.report(DefinitionError::Betza { why, at: at.into() });
                Vec::new()
            }
        }
    }

    /// The legs of a written path, with the checks that need them all: a hop last, a bent leg
    /// alone, and the number of paths from a square bounded.
    fn path_legs(&mut self, legs: &[ast::Leg]) -> Vec<Leg> {
        // A hop's screen must be on the last leg: the first legs only pass empty squares.
        for leg in &legs[..legs.len().saturating_sub(1)] {
            if leg.word.node == ast::LegWord::Hop {
                self.report(DefinitionError::HopNotLast {
                    at: leg.word.span.into(),
                });
            }
        }
        if legs.len() > 1 {
            if let Some(at) = legs.iter().find_map(|l| l.bent) {
                self.report(DefinitionError::BentLeg {
                    why: "a bent leg must be the pattern's only leg",
                    at: at.into(),
                });
            }
        }
        let compiled: Vec<Leg> = legs
            .iter()
            .enumerate()
            .map(|(i, leg)| self.leg(i, leg))
            .collect();
        if let (Some(g), Some(first), Some(last)) = (self.geometry, legs.first(), legs.last()) {
            let bound = path_bound(&compiled, g.width.max(g.height) as u64);
            if bound > MAX_PATHS_PER_SQUARE {
                self.report(DefinitionError::TooManyPaths {
                    bound,
                    limit: MAX_PATHS_PER_SQUARE,
                    at: Span {
                        start: first.span.start,
                        end: last.span.end,
                    }
                    .into(),
                });
            }
        }
        compiled
    }

    /// `continuing after crossing` needs one straight slide, and `along` needs `continuing`
    /// over the same line: otherwise each is reported and dropped.
    fn continuing_and_along(&mut self, p: &ast::Pattern, pattern: &mut Pattern) {
        if pattern.continuing.is_some() {
            let one_ray = matches!(
                pattern.legs.as_slice(),
                [leg] if !leg.bent && matches!(leg.kind, LegKind::Slide { .. })
            );
            if !one_ray {
                if let Some(m) = p
                    .modifiers
                    .iter()
                    .find(|m| matches!(m.node, ast::Modifier::Continuing(_)))
                {
                    self.report(DefinitionError::ContinuingLeg { at: m.span.into() });
                }
                pattern.continuing = None;
            }
        }
        if let Some((line, _)) = pattern.along {
            if pattern.continuing != Some(line) {
                let written = p.modifiers.iter().find_map(|m| match &m.node {
                    ast::Modifier::Along { line, .. } => Some((line.node.clone(), m.span)),
                    _ => None,
                });
                if let Some((line, at)) = written {
                    self.report(DefinitionError::AlongWithoutContinuing {
                        line,
                        at: at.into(),
                    });
                }
                pattern.along = None;
            }
        }
    }

    /// Resolves a `holding` list, dropping the pieces that are not declared (reported).
    fn holding_refs(&mut self, refs: &[ast::HoldingRef]) -> Vec<(PieceKind, Owner)> {
        refs.iter()
            .filter_map(|r| {
                let owner = match r.owner {
                    ast::Owner::Friendly => Owner::Friendly,
                    ast::Owner::Enemy => Owner::Enemy,
                    ast::Owner::Any => Owner::Any,
                };
                self.piece_ref(&r.piece).map(|k| (k, owner))
            })
            .collect()
    }

    fn modifiers(&mut self, modifiers: &[ast::Spanned<ast::Modifier>], pattern: &mut Pattern) {
        // The first modifier that fixes the mode: `move-only`, or one that needs a capture.
        let mut mode_span: Option<(Mode, Span)> = None;
        let mut seen: Vec<(&ast::Modifier, Span)> = Vec::new();
        for m in modifiers {
            if let Some(&(_, first)) = seen.iter().find(|(k, _)| **k == m.node) {
                self.report(DefinitionError::RepeatedModifier {
                    again: m.span.into(),
                    first: first.into(),
                });
                continue;
            }
            let holding_before = seen
                .iter()
                .find(|(k, _)| {
                    matches!(k, ast::Modifier::Into { holding, .. } if !holding.is_empty())
                })
                .map(|&(_, span)| span);
            seen.push((&m.node, m.span));
            let Some(mode) = self.modifier(m, holding_before, pattern) else {
                continue;
            };
            match mode_span {
                Some((first_mode, first)) if first_mode != mode => {
                    self.report(DefinitionError::ConflictingModes {
                        again: m.span.into(),
                        first: first.into(),
                    });
                }
                Some(_) => {}
                None => {
                    mode_span = Some((mode, m.span));
                    pattern.mode = mode;
                }
            }
        }
        if pattern.capturing.is_some() && pattern.mode == Mode::MoveOnly {
            if let (Some((_, first)), Some(m)) = (
                mode_span,
                modifiers
                    .iter()
                    .find(|m| matches!(m.node, ast::Modifier::Capturing(..))),
            ) {
                self.report(DefinitionError::ConflictingModes {
                    again: m.span.into(),
                    first: first.into(),
                });
            }
        }
    }

    /// One modifier, into `pattern`; the mode it fixes, if it fixes one. `holding_before` is
    /// where an earlier `into ... holding` was written, if one was.
    fn modifier(
        &mut self,
        m: &ast::Spanned<ast::Modifier>,
        holding_before: Option<Span>,
        pattern: &mut Pattern,
    ) -> Option<Mode> {
        match &m.node {
            ast::Modifier::MoveOnly => return Some(Mode::MoveOnly),
            ast::Modifier::CaptureOnly => return Some(Mode::CaptureOnly),
            ast::Modifier::Shot => {
                pattern.shot = true;
                return Some(Mode::CaptureOnly);
            }
            ast::Modifier::Capturing(c, enemy) => {
                pattern.enemies_only = *enemy;
                pattern.capturing = Some(match c {
                    ast::Capturing::Royal => Capturable::Royal,
                    ast::Capturing::Checker => Capturable::Checker,
                    ast::Capturing::Pieces(list) => {
                        Capturable::Kinds(list.iter().filter_map(|p| self.piece_ref(p)).collect())
                    }
                    ast::Capturing::AllBut(list) => {
                        Capturable::AllBut(list.iter().filter_map(|p| self.piece_ref(p)).collect())
                    }
                });
            }
            ast::Modifier::Into {
                inside,
                zone,
                holding,
            } if !holding.is_empty() => {
                let partition = self.partition_ref(zone);
                let kinds = self.holding_refs(holding);
                if let Some(first) = holding_before {
                    self.report(DefinitionError::RepeatedModifier {
                        again: m.span.into(),
                        first: first.into(),
                    });
                } else if let Some(partition) = partition {
                    pattern.holding = Some(Holding {
                        partition,
                        kinds,
                        inside: *inside,
                    });
                }
            }
            ast::Modifier::Avoiding(zone) => pattern.avoiding.extend(self.zone_ref(zone)),
            ast::Modifier::OnTheWay { except, pieces } => {
                let two_steps = matches!(
                    pattern.legs.as_slice(),
                    [a, b] if [a, b].iter().all(|l| !l.bent && l.kind == LegKind::Step)
                );
                if !two_steps || pattern.shot {
                    self.report(DefinitionError::OnTheWayLegs { at: m.span.into() });
                } else {
                    let kinds: Vec<PieceKind> =
                        pieces.iter().filter_map(|p| self.piece_ref(p)).collect();
                    pattern.on_the_way = Some(Box::new(KindFilter {
                        // A bare `capturing on the way` takes any piece.
                        except: *except || pieces.is_empty(),
                        kinds,
                    }));
                }
            }
            ast::Modifier::NotProtected { pieces, afar } => {
                let kinds = pieces.iter().filter_map(|p| self.piece_ref(p)).collect();
                pattern.not_protected = Some(Box::new((kinds, *afar)));
            }
            ast::Modifier::Screens { allowed, pieces } => {
                if !matches!(pattern.legs.last(), Some(leg) if matches!(leg.kind, LegKind::Hop { .. }))
                {
                    self.report(DefinitionError::OverWithoutHop { at: m.span.into() });
                }
                pattern.screens = Some(Box::new(Screens {
                    kinds: pieces.iter().filter_map(|p| self.piece_ref(p)).collect(),
                    allowed: *allowed,
                }));
            }
            ast::Modifier::Continuing(line) => pattern.continuing = self.line_ref(line),
            ast::Modifier::Crossing { line, limit } => {
                let range = self.crossing_range(limit);
                if let (Some(line), Some((least, most))) = (self.line_ref(line), range) {
                    pattern.crossing.push((line, least, most));
                }
            }
            ast::Modifier::Along { line, ahead } => {
                pattern.along = self.line_ref(line).map(|l| (l, *ahead));
            }
            ast::Modifier::Into { inside, zone, .. } => {
                if let Some(zone) = self.zone_ref(zone) {
                    pattern.into.push(ZoneGuard {
                        zone,
                        inside: *inside,
                    });
                }
            }
            ast::Modifier::CreatesEnPassant => pattern.creates_en_passant = true,
            ast::Modifier::TakesEnPassant { unpromoted } => {
                pattern.takes_en_passant = true;
                pattern.en_passant_unpromoted = *unpromoted;
            }
        }
        None
    }

    /// How many times a `crossing` modifier allows crossing its line: `(least, most)`.
    fn crossing_range(&mut self, limit: &ast::CrossingLimit) -> Option<(u32, u32)> {
        match limit {
            ast::CrossingLimit::Never => Some((0, 0)),
            ast::CrossingLimit::AtLeastOnce => Some((1, u32::MAX)),
            ast::CrossingLimit::UpTo(n, phrase) => match parse_u32(&n.node) {
                Some(v) if v <= u32::from(MAX_REPEAT) => Some((0, v)),
                _ => {
                    self.report(DefinitionError::BadCrossingLimit {
                        text: n.node.clone(),
                        at: (*phrase).into(),
                    });
                    None
                }
            },
        }
    }

    fn leg(&mut self, index: usize, leg: &ast::Leg) -> Leg {
        let max = match &leg.up_to {
            None => None,
            Some((n, phrase)) => match leg.word.node {
                ast::LegWord::Step | ast::LegWord::Leap => {
                    let word = if leg.word.node == ast::LegWord::Step {
                        "step"
                    } else {
                        "leap"
                    };
                    self.report(DefinitionError::LimitOnStep {
                        word,
                        at: (*phrase).into(),
                    });
                    None
                }
                ast::LegWord::Slide | ast::LegWord::Hop => match parse_u8(&n.node) {
                    Some(v) if (1..=MAX_REPEAT).contains(&v) => Some(v),
                    _ => {
                        self.report(DefinitionError::BadLimit {
                            text: n.node.clone(),
                            at: n.span.into(),
                        });
                        None
                    }
                },
            },
        };
        let kind = match leg.word.node {
            ast::LegWord::Step | ast::LegWord::Leap => LegKind::Step,
            ast::LegWord::Slide => LegKind::Slide { max },
            ast::LegWord::Hop => LegKind::Hop {
                max,
                just_beyond: leg.just_beyond.is_some(),
            },
        };
        if let Some(at) = leg.just_beyond {
            let why = if leg.word.node != ast::LegWord::Hop {
                Some("only a hop lands beyond a screen")
            } else if leg.bent.is_some() {
                Some("a bent hop cannot land just beyond its screen")
            } else {
                None
            };
            if let Some(why) = why {
                self.report(DefinitionError::JustBeyond { why, at: at.into() });
            }
        }
        if let Some(at) = leg.bent {
            if matches!(leg.word.node, ast::LegWord::Step | ast::LegWord::Leap) {
                self.report(DefinitionError::BentLeg {
                    why: "only a slide or a hop can be bent",
                    at: at.into(),
                });
            }
        }
        if leg.arms.len() > 1 && leg.arms[0].zone.is_none() {
            self.report(DefinitionError::ArmWithoutZone {
                at: leg.arms[0].span.into(),
            });
        }
        let arms = leg.arms.iter().map(|a| self.arm(index, a)).collect();
        Leg {
            kind,
            arms,
            bent: leg.bent.is_some(),
        }
    }

    fn arm(&mut self, leg_index: usize, arm: &ast::Arm) -> Arm {
        let dirs = if arm.dirs.is_empty() {
            // A lone `inward`: every direction toward the centre.
            Dirs::Vectors(named_vectors(ast::NamedDir::Any))
        } else {
            self.dirs(leg_index, &arm.dirs)
        };
        if let (Some(inward), Dirs::Same | Dirs::Outward | Dirs::Reverse) = (arm.inward, &dirs) {
            self.report(DefinitionError::RelativeMixed {
                word: match dirs {
                    Dirs::Same => "same",
                    Dirs::Reverse => "reverse",
                    _ => "outward",
                },
                at: arm.dirs[0].span().into(),
                other: inward.into(),
            });
        }
        Arm {
            dirs,
            inward: arm.inward.is_some(),
            zone: arm.zone.as_ref().and_then(|z| self.zone_ref(z)),
        }
    }

    fn dirs(&mut self, leg_index: usize, dirs: &[ast::Dir]) -> Dirs {
        let relative = dirs.iter().find_map(|d| match d {
            ast::Dir::Named(n) if n.node == ast::NamedDir::Same => Some(("same", n.span)),
            ast::Dir::Named(n) if n.node == ast::NamedDir::Outward => Some(("outward", n.span)),
            ast::Dir::Named(n) if n.node == ast::NamedDir::Reverse => Some(("reverse", n.span)),
            _ => None,
        });
        if let Some((word, at)) = relative {
            if leg_index == 0 {
                self.report(DefinitionError::RelativeFirstLeg {
                    word,
                    at: at.into(),
                });
            } else if let Some(other) = dirs.iter().map(ast::Dir::span).find(|s| *s != at) {
                self.report(DefinitionError::RelativeMixed {
                    word,
                    at: at.into(),
                    other: other.into(),
                });
            }
            return match word {
                "same" => Dirs::Same,
                "reverse" => Dirs::Reverse,
                _ => Dirs::Outward,
            };
        }
        let mut vectors: Vec<(i8, i8)> = Vec::new();
        for d in dirs {
            let new = match d {
                ast::Dir::Named(n) => named_vectors(n.node),
                ast::Dir::Symmetric { a, b, span } => self
                    .vector(a, b, *span, '(', ')')
                    .map(|(a, b)| symmetric(a, b))
                    .unwrap_or_default(),
                ast::Dir::Exact { x, y, span } => {
                    self.vector(x, y, *span, '[', ']').into_iter().collect()
                }
            };
            for v in new {
                if !vectors.contains(&v) {
                    vectors.push(v);
                }
            }
        }
        Dirs::Vectors(vectors)
    }

    fn vector(
        &mut self,
        a: &ast::Number,
        b: &ast::Number,
        span: Span,
        open: char,
        close: char,
    ) -> Option<(i8, i8)> {
        let text = format!("`{open}{},{}{close}`", a.node, b.node);
        let coord =
            |n: &ast::Number| parse_i8(&n.node).filter(|v| (-MAX_COORD..=MAX_COORD).contains(v));
        match (coord(a), coord(b)) {
            (Some(0), Some(0)) => {
                self.report(DefinitionError::NullVector {
                    text,
                    at: span.into(),
                });
                None
            }
            (Some(x), Some(y)) => Some((x, y)),
            _ => {
                self.report(DefinitionError::VectorTooLong {
                    text,
                    at: span.into(),
                });
                None
            }
        }
    }

    /// Replaces every `like` by the patterns it names, reporting cycles.
    fn expand_likes(
        &mut self,
        decls: &[&ast::PieceDecl],
        slots: Vec<Vec<Slot>>,
    ) -> Vec<Vec<Pattern>> {
        let n = slots.len();
        let edges: Vec<Vec<(usize, Span)>> = slots
            .iter()
            .map(|s| {
                s.iter()
                    .filter_map(|slot| match slot {
                        Slot::Like(Some(t), span) => Some((*t, *span)),
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        let mut cycles = Vec::new();
        let order = super::dependency_order(&edges, |cycle, target, span| {
            cycles.push(like_cycle(decls, cycle, target, span));
        });
        for c in cycles {
            self.report(c);
        }
        let mut expanded: Vec<Vec<Pattern>> = vec![Vec::new(); n];
        if n > MAX_PIECES {
            // Refused anyway; copying patterns among thousands of pieces would only cost time.
            return expanded;
        }
        let mut slots: Vec<Option<Vec<Slot>>> = slots.into_iter().map(Some).collect();
        for i in order {
            let mut out: Vec<Pattern> = Vec::new();
            let mut seen: HashSet<String> = HashSet::new();
            let mut overflow = false;
            let mut push = |p: &Pattern, out: &mut Vec<Pattern>| {
                if seen.insert(format!("{p:?}")) {
                    if out.len() < MAX_PATTERNS {
                        out.push(p.clone());
                    } else {
                        overflow = true;
                    }
                }
            };
            for slot in slots[i].take().unwrap_or_default() {
                match slot {
                    Slot::Pattern(p) => push(&p, &mut out),
                    Slot::Like(Some(t), _) if t != i => {
                        for p in &expanded[t] {
                            push(p, &mut out);
                        }
                    }
                    Slot::Like(..) => {}
                }
            }
            if overflow {
                self.report(DefinitionError::TooManyPatterns {
                    name: decls[i].name.node.clone(),
                    max: MAX_PATTERNS,
                    at: decls[i].name.span.into(),
                });
            }
            expanded[i] = out;
        }
        expanded
    }

    /// Warns about drop restrictions in a game without drops.
    pub(super) fn drops_used(&mut self, rules: &Rules, decls: &[&ast::PieceDecl]) {
        if rules.drops || !rules.drops_options.is_empty() {
            return;
        }
        for d in decls {
            let first = d.clauses.iter().find_map(|c| match c {
                ast::PieceClause::Drop(drop) => Some(drop.span),
                _ => None,
            });
            if let Some(at) = first {
                self.report(DefinitionError::DropsUnused {
                    name: d.name.node.clone(),
                    at: at.into(),
                });
            }
        }
    }
}

/// The most paths one square's worth of a pattern may expand to; beyond it the compiled tables
/// would take too long to build and too much memory to hold.
pub(crate) const MAX_PATHS_PER_SQUARE: u64 = 4_096;

/// An upper bound on the paths a pattern expands to from one square: every leg but the last
/// branches once per vector and per distance; the last leg is one ray per vector.
fn path_bound(legs: &[Leg], longest: u64) -> u64 {
    let mut bound: u64 = 1;
    for (i, leg) in legs.iter().enumerate() {
        let arm_vectors = |a: &Arm| match &a.dirs {
            Dirs::Vectors(v) => v.len() as u64,
            Dirs::Same | Dirs::Reverse => 1,
            Dirs::Outward => 2,
        };
        let mut vectors = leg.arms.iter().map(arm_vectors).max().unwrap_or(1);
        if leg.bent {
            // A bent ray may turn two ways the first time it enters each further arm's zone.
            vectors = vectors.saturating_mul(1 << (leg.arms.len().min(16) - 1));
        }
        let distances = match leg.kind {
            LegKind::Step => 1,
            LegKind::Slide { max } | LegKind::Hop { max, .. } => max.map_or(longest, |m| m as u64),
        };
        let branches = if i + 1 == legs.len() {
            vectors
        } else {
            vectors * distances
        };
        bound = bound.saturating_mul(branches.max(1));
    }
    bound
}
