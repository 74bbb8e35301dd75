//! The `rules` block and castlings.

use crate::{
    diagnostics::DefinitionError,
    model::{
        Castling, Connect, CountTerm, Elimination, FacingRule, Flip, Geometry, PieceDef, PieceKind,
        Placement, RepetitionRule, RoyalGuard, Rules, Side, SideDef, Square, Verdict, WallPlacing,
        WhenRule,
    },
    syntax::ast::{self, Span},
};

use super::{default_rules, geometry::parse_u32, geometry::parse_u8, verdict, Ctx};

/// The longest move limit, in plies.
const MAX_MOVE_LIMIT: u32 = 1_000_000;

/// A rule given earlier, for spotting repetitions and contradictions.
struct Earlier<T> {
    value: T,
    span: Span,
}

/// The rules met so far in a `rules` declaration, to report one given twice.
#[derive(Default)]
struct SeenRules {
    checkmate: Option<Earlier<(Verdict, ast::RoyalGuard)>>,
    must_capture: Option<Earlier<()>>,
    must_drop: Option<Earlier<()>>,
    checks: Option<Earlier<(u8, Verdict)>>,
    checks_forbidden: Option<Earlier<()>>,
    extinction: Option<Earlier<()>>,
    /// The verdict, or `None` for `stalemate passes`.
    stalemate: Option<Earlier<Option<Verdict>>>,
    eliminated: Option<Earlier<Elimination>>,
    shared_victory: Option<Earlier<()>>,
    explosions: Option<Earlier<()>>,
    leave_walls: Option<Earlier<()>>,
    passing: Option<Earlier<()>>,
    gating: Option<Earlier<()>>,
    petrify: Option<Earlier<()>>,
    wall_placing: Option<Earlier<()>>,
    flip: Option<Earlier<()>>,
    full_board: Option<Earlier<()>>,
    counter_strike: Option<Earlier<()>>,
    first_side: Option<Earlier<()>>,
    opposite_castling: Option<Earlier<()>>,
    /// A `connect` rule that wins or loses was written (counted even where its number is
    /// refused, so that no second error says there is no way to win).
    connect_decides: bool,
    counting: Option<Earlier<()>>,
    mating_drops_lose: Option<Earlier<()>>,
    repetition: Option<Earlier<(u8, Verdict, bool)>>,
    move_limit: Option<Earlier<u32>>,
    drops: Option<Earlier<()>>,
    /// A `when` rule refused for a bad count is still a way to win: one report is enough.
    when: bool,
}

/// The royals a checkmate rule protects.
fn royal_guard(guard: ast::RoyalGuard) -> RoyalGuard {
    match guard {
        ast::RoyalGuard::Every => RoyalGuard::Every,
        ast::RoyalGuard::Last => RoyalGuard::Last,
        ast::RoyalGuard::All => RoyalGuard::All,
    }
}

/// The directions a `facing` rule looks along, each once.
fn facing_vectors(lines: &[crate::syntax::span::Spanned<ast::FacingLine>]) -> Vec<(i8, i8)> {
    let mut vectors: Vec<(i8, i8)> = Vec::new();
    for l in lines {
        let new: &[(i8, i8)] = match l.node {
            ast::FacingLine::Files => &[(0, 1), (0, -1)],
            ast::FacingLine::Ranks => &[(1, 0), (-1, 0)],
            ast::FacingLine::Diagonals => &[(1, 1), (1, -1), (-1, -1), (-1, 1)],
        };
        for v in new {
            if !vectors.contains(v) {
                vectors.push(*v);
            }
        }
    }
    vectors
}

impl Ctx {
    /// Reports a rule given again: a warning when it says the same, an error otherwise.
    fn again<T: PartialEq>(
        &mut self,
        earlier: &mut Option<Earlier<T>>,
        value: T,
        span: Span,
        rule: &'static str,
    ) -> bool {
        match earlier {
            Some(first) if first.value == value => {
                self.report(DefinitionError::RepeatedRule {
                    rule,
                    again: span.into(),
                    first: first.span.into(),
                });
                false
            }
            Some(first) => {
                self.report(DefinitionError::ConflictingRules {
                    rule,
                    again: span.into(),
                    first: first.span.into(),
                });
                false
            }
            None => {
                *earlier = Some(Earlier { value, span });
                true
            }
        }
    }

    fn refuse_guards(&mut self, line: &ast::RuleLine, rule: &'static str) {
        if let (Some(first), Some(last)) = (line.guards.first(), line.guards.last()) {
            // Resolve the names anyway, so that a misspelt option is reported too.
            self.option_guards(&line.guards);
            self.report(DefinitionError::UnsupportedGuard {
                rule,
                at: first.span.to(last.span).into(),
            });
        }
    }

    /// Checks the rules block.
    pub(super) fn rules(
        &mut self,
        decl: Option<&ast::RulesDecl>,
        pieces: &[PieceDef],
        sides: &[SideDef],
    ) -> Rules {
        let mut rules = default_rules();
        let mut seen = SeenRules::default();
        for line in decl.map_or(&[][..], |d| &d.lines[..]) {
            self.rule(line, &mut rules, &mut seen, sides);
        }
        // With more sides a side left without a move is passed over unless a rule says more.
        if seen.stalemate.is_none() && self.side_count() > 2 {
            rules.stalemate_passes = true;
        }
        self.way_to_win(decl, &rules, &seen, pieces);
        rules
    }

    /// One line of `rules`, into `rules`; `seen` remembers what came before, to report a rule
    /// given twice.
    fn rule(
        &mut self,
        line: &ast::RuleLine,
        rules: &mut Rules,
        seen: &mut SeenRules,
        sides: &[SideDef],
    ) {
        let span = line.rule_span;
        match &line.rule {
            ast::Rule::Checkmate(v, guard) => {
                self.refuse_guards(line, "checkmate");
                let v = v.as_ref().map_or(Verdict::Loss, |v| verdict(v.node));
                if self.again(&mut seen.checkmate, (v, *guard), span, "checkmate") {
                    rules.checkmate = true;
                    rules.checkmated = v;
                    rules.royal_guard = royal_guard(*guard);
                }
            }
            ast::Rule::Checks(n, v) => {
                self.refuse_guards(line, "checks");
                self.checks_rule(n, verdict(v.node), span, rules, seen);
            }
            ast::Rule::ChecksForbidden => {
                rules.checks_forbidden |=
                    self.flag_rule(line, &mut seen.checks_forbidden, "checks forbidden");
            }
            ast::Rule::Explosions => {
                rules.explosions |= self.flag_rule(line, &mut seen.explosions, "captures explode");
            }
            ast::Rule::MatingDropsLose => {
                let options = self.option_guards(&line.guards);
                if self.again(&mut seen.mating_drops_lose, (), span, "mating drops lose") {
                    rules.mating_drops_lose = Some(options);
                }
            }
            ast::Rule::Petrify(pieces) => {
                let kinds: Vec<_> = pieces.iter().filter_map(|p| self.piece_ref(p)).collect();
                if self.flag_rule(line, &mut seen.petrify, "captures petrify") {
                    rules.petrify = kinds;
                }
            }
            ast::Rule::PlaceWalls {
                moving,
                zone,
                reach,
            } => {
                let zone = zone.as_ref().and_then(|z| self.zone_ref(z));
                if self.flag_rule(line, &mut seen.wall_placing, "each move places a wall") {
                    rules.wall_placing = Some(WallPlacing {
                        moving: *moving,
                        zone,
                        reach: *reach,
                    });
                }
            }
            ast::Rule::Gating(zone) => {
                let zone = self.zone_ref(zone);
                if self.flag_rule(line, &mut seen.gating, "gating") {
                    rules.gating = zone;
                }
            }
            ast::Rule::Passing(when_stuck) => {
                if self.flag_rule(line, &mut seen.passing, "passing allowed") {
                    rules.passing = true;
                    rules.passing_when_stuck = *when_stuck;
                }
            }
            ast::Rule::Flip(adjacent, drops_near) => {
                if self.flag_rule(line, &mut seen.flip, "moves flip") {
                    rules.flip_drops_near_friends = *drops_near;
                    rules.flip = Some(if *adjacent {
                        Flip::Adjacent
                    } else {
                        Flip::Enclosed
                    });
                }
            }
            ast::Rule::Connect {
                count,
                block,
                gaps,
                pieces,
                lines,
                verdict: v,
            } => {
                seen.connect_decides |= verdict(v.node) != Verdict::Draw;
                let most = self
                    .geometry
                    .map_or(26, |g| u32::from(g.width.max(g.height)));
                let (w, h) = self
                    .geometry
                    .map_or((26, 26), |g| (u32::from(g.width), u32::from(g.height)));
                let mut in_range = |number: &crate::syntax::span::Spanned<String>, most: u32| {
                    let n = parse_u32(&number.node).filter(|n| (2..=most).contains(n));
                    if n.is_none() {
                        self.report(DefinitionError::BadConnect {
                            text: number.node.clone(),
                            most,
                            at: number.span.into(),
                        });
                    }
                    n
                };
                let (n, block) = match block {
                    // A block is as wide and as high as the board at most.
                    Some(b) => (in_range(count, w), in_range(b, h).map(Some)),
                    None => (in_range(count, most), Some(None)),
                };
                let (Some(n), Some(block)) = (n, block) else {
                    return;
                };
                let mut vectors: Vec<(i8, i8)> = Vec::new();
                for l in lines {
                    let new: &[(i8, i8)] = match l.node {
                        ast::FacingLine::Files => &[(0, 1)],
                        ast::FacingLine::Ranks => &[(1, 0)],
                        ast::FacingLine::Diagonals => &[(1, 1), (1, -1)],
                    };
                    for v in new {
                        if !vectors.contains(v) {
                            vectors.push(*v);
                        }
                    }
                }
                if vectors.is_empty() {
                    vectors = vec![(1, 0), (0, 1), (1, 1), (1, -1)];
                }
                self.refuse_guards(line, "connect");
                {
                    rules.connect.push(Connect {
                        count: u8::try_from(n).expect("at most the board's size"),
                        block: block.map(|b| u8::try_from(b).expect("at most the board's size")),
                        gaps: *gaps,
                        kinds: pieces.iter().filter_map(|p| self.piece_ref(p)).collect(),
                        lines: vectors,
                        verdict: verdict(v.node),
                    });
                }
            }
            ast::Rule::OppositeCastling => {
                rules.opposite_castling |=
                    self.flag_rule(line, &mut seen.opposite_castling, "opposite castling");
            }
            ast::Rule::FirstSide(name) => {
                if self.flag_rule(line, &mut seen.first_side, "moves first") {
                    let names: Vec<&str> = sides.iter().map(|s| s.name.as_str()).collect();
                    if let Some(side) = self.side_named(name, &names) {
                        rules.first_side = side;
                    }
                }
            }
            ast::Rule::CounterStrike(list) => {
                if self.flag_rule(line, &mut seen.counter_strike, "counter-strike") {
                    rules.counter_strike = list.iter().filter_map(|p| self.piece_ref(p)).collect();
                }
            }
            ast::Rule::FullBoard => {
                rules.full_board_draws |=
                    self.flag_rule(line, &mut seen.full_board, "full board draws");
            }
            ast::Rule::DrawOdds(win, name) => {
                if self.flag_rule(line, &mut seen.counting, "draws counted by value") {
                    let names: Vec<&str> = sides.iter().map(|s| s.name.as_str()).collect();
                    let v = if *win { Verdict::Win } else { Verdict::Loss };
                    rules.draw_odds = self.side_named(name, &names).map(|s| (s, v));
                }
            }
            ast::Rule::Counting(bonus) => {
                if self.flag_rule(line, &mut seen.counting, "draws counted by value") {
                    rules.counting = Some(self.counting_rule(bonus.as_ref(), sides));
                }
            }
            ast::Rule::LeaveWalls => {
                rules.leave_walls |=
                    self.flag_rule(line, &mut seen.leave_walls, "moves leave walls");
            }
            ast::Rule::MustDrop => {
                rules.must_drop |= self.flag_rule(line, &mut seen.must_drop, "must drop");
            }
            ast::Rule::MustCapture => {
                rules.must_capture |= self.flag_rule(line, &mut seen.must_capture, "must capture");
            }
            ast::Rule::Extinction => {
                rules.extinction |= self.flag_rule(line, &mut seen.extinction, "extinction");
            }
            ast::Rule::Stalemate(v, by_count) => {
                self.stalemate_rule(line, Some(verdict(v.node)), rules, seen);
                rules.stalemate_by_count |= *by_count;
            }
            ast::Rule::StalematePasses => self.stalemate_rule(line, None, rules, seen),
            ast::Rule::Eliminated(e) => self.eliminated_rule(line, *e, rules, seen),
            ast::Rule::SharedVictory => {
                rules.shared_victory |=
                    self.flag_rule(line, &mut seen.shared_victory, "shared victory");
            }
            ast::Rule::Facing(lines, draws) => {
                let options = self.option_guards(&line.guards);
                rules.facing.push(FacingRule {
                    vectors: facing_vectors(lines),
                    draws: *draws,
                    options,
                });
            }
            ast::Rule::Repetition {
                count,
                verdict: v,
                perpetual_check_loses,
                side,
            } => {
                self.refuse_guards(line, "repetition");
                let value = (verdict(v.node), perpetual_check_loses.is_some());
                self.repetition_rule(count, value, span, rules, seen);
                if let (Some(name), Some(rep)) = (side, rules.repetition.as_mut()) {
                    let names: Vec<&str> = sides.iter().map(|s| s.name.as_str()).collect();
                    rep.side = self.side_named(name, &names);
                }
            }
            ast::Rule::MoveLimit(count) => {
                self.refuse_guards(line, "move-limit");
                self.move_limit_rule(count, span, rules, seen);
            }
            ast::Rule::Drops { without_captures } => {
                rules.captures_to_hand = !without_captures;
                let options = self.option_guards(&line.guards);
                if self.again(&mut seen.drops, (), span, "drops") {
                    rules.drops = true;
                    rules.drops_options = options;
                }
            }
            ast::Rule::When { .. } => {
                seen.when = true;
                rules.conditions.extend(self.when_rule(line));
            }
        }
    }

    /// A rule that is only on or off, without option guards: whether it is given here for the
    /// first time (a repeat is reported).
    /// `stalemate VERDICT` (`None`: `stalemate passes`), given once.
    fn stalemate_rule(
        &mut self,
        line: &ast::RuleLine,
        v: Option<Verdict>,
        rules: &mut Rules,
        seen: &mut SeenRules,
    ) {
        self.refuse_guards(line, "stalemate");
        if self.again(&mut seen.stalemate, v, line.rule_span, "stalemate") {
            match v {
                Some(v) => rules.stalemate = v,
                None => rules.stalemate_passes = true,
            }
        }
    }

    /// `eliminated pieces ...`: given once, and of use only where a side can be out while
    /// others play on.
    fn eliminated_rule(
        &mut self,
        line: &ast::RuleLine,
        e: Elimination,
        rules: &mut Rules,
        seen: &mut SeenRules,
    ) {
        self.refuse_guards(line, "eliminated");
        if self.again(&mut seen.eliminated, e, line.rule_span, "eliminated") {
            rules.eliminated = e;
            if self.side_count() == 2 {
                self.report(DefinitionError::EliminatedTwoSides {
                    at: line.rule_span.into(),
                });
            }
        }
    }

    fn flag_rule(
        &mut self,
        line: &ast::RuleLine,
        earlier: &mut Option<Earlier<()>>,
        name: &'static str,
    ) -> bool {
        self.refuse_guards(line, name);
        self.again(earlier, (), line.rule_span, name)
    }

    /// `repetition N ...`: the count checked, the rule given once.
    fn repetition_rule(
        &mut self,
        count: &crate::syntax::span::Spanned<String>,
        (v, perpetual): (Verdict, bool),
        span: Span,
        rules: &mut Rules,
        seen: &mut SeenRules,
    ) {
        let Some(n) = parse_u8(&count.node).filter(|n| (2..=10).contains(n)) else {
            self.report(DefinitionError::BadRepetition {
                text: count.node.clone(),
                at: count.span.into(),
            });
            return;
        };
        if self.again(&mut seen.repetition, (n, v, perpetual), span, "repetition") {
            rules.repetition = Some(RepetitionRule {
                count: n,
                verdict: v,
                perpetual_check_loses: perpetual,
                side: None,
            });
        }
    }

    /// `move-limit N ...`: the count checked, the rule given once.
    fn move_limit_rule(
        &mut self,
        count: &crate::syntax::span::Spanned<String>,
        span: Span,
        rules: &mut Rules,
        seen: &mut SeenRules,
    ) {
        let n = parse_u32(&count.node).filter(|n| (1..=MAX_MOVE_LIMIT).contains(n));
        let Some(n) = n else {
            self.report(DefinitionError::BadMoveLimit {
                text: count.node.clone(),
                at: count.span.into(),
            });
            return;
        };
        if self.again(&mut seen.move_limit, n, span, "move-limit") {
            rules.move_limit = Some(n);
        }
    }

    /// `checks N ...`: the count checked, the rule given once.
    fn checks_rule(
        &mut self,
        n: &crate::syntax::span::Spanned<String>,
        v: Verdict,
        span: Span,
        rules: &mut Rules,
        seen: &mut SeenRules,
    ) {
        let Some(n) = parse_u8(&n.node).filter(|n| (1..=99).contains(n)) else {
            self.report(DefinitionError::BadCheckCount {
                text: n.node.clone(),
                at: n.span.into(),
            });
            return;
        };
        let value = (n, v);
        if self.again(&mut seen.checks, value, span, "checks") {
            rules.checks = Some(value);
        }
    }

    /// A `when` rule, if its terms are valid (each bad one reported).
    fn when_rule(&mut self, line: &ast::RuleLine) -> Option<WhenRule> {
        let ast::Rule::When {
            terms,
            verdict: v,
            name,
            asks,
            answerable,
        } = &line.rule
        else {
            return None;
        };
        let options = self.option_guards(&line.guards);
        let terms = self.count_terms(terms)?;
        Some(WhenRule {
            terms,
            verdict: verdict(v.node),
            name: name.as_ref().map(|n| n.node.clone()),
            options,
            asks: *asks,
            answerable: *answerable,
        })
    }

    /// The terms of a `when` rule, if every count, piece and zone in them is valid (each bad
    /// one reported).
    fn count_terms(&mut self, terms: &[ast::CountTerm]) -> Option<Vec<CountTerm>> {
        let limit = self
            .geometry
            .map_or(u32::MAX, |g| u32::from(g.width) * u32::from(g.height));
        let mut ok = true;
        let mut out = Vec::new();
        for term in terms {
            let count = parse_u32(&term.count.node).filter(|&n| n <= limit);
            if count.is_none() {
                self.report(DefinitionError::BadCount {
                    text: term.count.node.clone(),
                    limit,
                    at: term.count.span.into(),
                });
            }
            let kinds: Vec<PieceKind> = term
                .pieces
                .iter()
                .filter_map(|p| self.piece_ref(p))
                .collect();
            let zone = term.zone.as_ref().map(|z| self.zone_ref(z));
            match (count, zone) {
                (Some(count), None | Some(Some(_))) if kinds.len() == term.pieces.len() => {
                    out.push(CountTerm {
                        bound: term.bound,
                        count,
                        enemy: term.enemy,
                        safe: term.safe,
                        kinds,
                        zone: zone.flatten(),
                        hand: term.hand,
                    });
                }
                _ => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// Reports rules that give no way to win, and rules about royals in a game without them.
    fn way_to_win(
        &mut self,
        decl: Option<&ast::RulesDecl>,
        rules: &Rules,
        seen: &SeenRules,
        pieces: &[PieceDef],
    ) {
        // A side left without a move can be the whole game (Clobber: the last to move wins).
        let stalemate_decides = rules.stalemate != Verdict::Draw && !rules.stalemate_passes;
        let connect_decides = seen.connect_decides;
        // Draw odds turn every drawn end into a win (Capture the Queen, which nothing else
        // ends).
        let odds_decide = rules.draw_odds.is_some();
        if !rules.checkmate
            && !odds_decide
            && !rules.extinction
            && !seen.when
            && !stalemate_decides
            && !connect_decides
        {
            self.report(DefinitionError::NoWayToWin {
                at: decl.map(|d| d.keyword.into()),
            });
        } else if !pieces.iter().any(|p| p.royal) && !pieces.is_empty() {
            // Only `checkmate` and `extinction` are about royals; `when` rules count any piece.
            let royal_rule = match (&seen.checkmate, &seen.extinction) {
                (Some(c), _) => Some(("checkmate", c.span)),
                (None, Some(e)) => Some(("extinction", e.span)),
                (None, None) => None,
            };
            if let Some((rule, at)) = royal_rule {
                self.report(DefinitionError::NoRoyal {
                    rule,
                    at: at.into(),
                });
            }
        }
    }

    /// Checks castlings against the board and the start position.
    pub(super) fn castlings(
        &mut self,
        decls: &[&ast::CastlingDecl],
        setup: &[Placement],
        setup_ok: bool,
        sides: &[SideDef],
        dropped_unmoved: &[bool],
    ) -> Vec<Castling> {
        let mut out = Vec::new();
        for d in decls {
            out.extend(self.castling(d, setup, setup_ok, sides, dropped_unmoved));
        }
        out
    }

    /// The castlings one declaration makes (its copy for the second side included), or none
    /// where it is invalid (reported).
    fn castling(
        &mut self,
        d: &ast::CastlingDecl,
        setup: &[Placement],
        setup_ok: bool,
        sides: &[SideDef],
        dropped_unmoved: &[bool],
    ) -> Vec<Castling> {
        let options = self.option_guards(&d.guards);
        let king = self.piece_ref(&d.king);
        let partner = self.piece_ref(&d.partner);
        let king_to = self.square(&d.king_to);
        let partner_to = self.square(&d.partner_to);
        let Some(starts) = self.castling_starts(d) else {
            return Vec::new();
        };
        let (Some(king_to), Some(partner_to)) = (king_to, partner_to) else {
            return Vec::new();
        };
        let distinct = self.castling_squares_distinct(d, starts, king_to, partner_to);
        let (Some(king), Some(partner), Some(g)) = (king, partner, self.geometry) else {
            return Vec::new();
        };
        if !distinct {
            return Vec::new();
        }
        if starts.is_none() && g.rank(king_to) != g.rank(partner_to) {
            self.report(DefinitionError::CastlingAnyStart {
                problem: "ends its two pieces on different ranks".into(),
                what: "not on the rank of the king's destination".into(),
                at: d.partner_to.span.into(),
            });
            return Vec::new();
        }
        let Some(side) = self.castling_side(d, sides) else {
            return Vec::new();
        };
        let template = Castling {
            side,
            king,
            king_from: king_to,
            king_to,
            partner,
            partner_from: partner_to,
            partner_to,
            wins: d.wins,
            options,
        };
        let mut all = match starts {
            Some((king_from, partner_from)) => vec![Castling {
                king_from,
                partner_from,
                ..template
            }],
            None => any_start(g, &template),
        };
        if let Some(sym) = &d.symmetry {
            let copies = self.castling_copies(g, sym, &all);
            all.extend(copies);
        }
        if setup_ok && starts.is_some() {
            for c in &all {
                self.castling_pieces_placed(c, d, setup, sides, dropped_unmoved);
            }
        }
        all
    }

    /// Every other side's copies of castlings written for one, each turned to that side's
    /// facing (a copy a board that is not square cannot hold is left out, reported).
    fn castling_copies(
        &mut self,
        g: Geometry,
        sym: &crate::syntax::Spanned<ast::Symmetry>,
        all: &[Castling],
    ) -> Vec<Castling> {
        let mut out = Vec::new();
        for c in all {
            let from = c.side.index();
            for side in (0..self.side_count()).filter(|&s| s != from) {
                let mut turn = |sq| self.turned_square(g, sq, (from, side), sym.node, sym.span);
                let (Some(king_from), Some(king_to), Some(partner_from), Some(partner_to)) = (
                    turn(c.king_from),
                    turn(c.king_to),
                    turn(c.partner_from),
                    turn(c.partner_to),
                ) else {
                    continue;
                };
                out.push(Castling {
                    side: Side::nth(side),
                    king_from,
                    king_to,
                    partner_from,
                    partner_to,
                    ..c.clone()
                });
            }
        }
        out
    }

    /// The start squares as written, `Some(None)` for a castling from any start, or `None`
    /// where they are invalid (reported).
    fn castling_starts(&mut self, d: &ast::CastlingDecl) -> Option<Option<(Square, Square)>> {
        match (&d.king_from, &d.partner_from) {
            (Some(k), Some(p)) => match (self.square(k), self.square(p)) {
                (Some(k), Some(p)) => Some(Some((k, p))),
                _ => None,
            },
            (None, None) => Some(None),
            (Some(w), None) | (None, Some(w)) => {
                self.report(DefinitionError::CastlingAnyStart {
                    problem: "leaves out only one start square".into(),
                    what: "the other piece's start is left out".into(),
                    at: w.span.into(),
                });
                None
            }
        }
    }

    /// Whether the castling's squares that must differ do (each clash reported).
    fn castling_squares_distinct(
        &mut self,
        d: &ast::CastlingDecl,
        starts: Option<(Square, Square)>,
        king_to: Square,
        partner_to: Square,
    ) -> bool {
        let mut distinct = true;
        let mut pairs = vec![(king_to, partner_to, &d.king_to, &d.partner_to)];
        if let (Some((king_from, partner_from)), Some(kf), Some(pf)) =
            (starts, &d.king_from, &d.partner_from)
        {
            pairs.push((king_from, king_to, kf, &d.king_to));
            pairs.push((king_from, partner_from, kf, pf));
        }
        for (a, b, first, again) in pairs {
            if a == b {
                self.report(DefinitionError::CastlingSameSquare {
                    square: again.node.clone(),
                    again: again.span.into(),
                    first: first.span.into(),
                });
                distinct = false;
            }
        }
        distinct
    }

    /// `draws counted by value [, SIDE adds N]`: what each side adds to its total.
    fn counting_rule(
        &mut self,
        bonus: Option<&(ast::Ident, ast::Number)>,
        sides: &[SideDef],
    ) -> Vec<f32> {
        let mut adds = vec![0.0; sides.len().max(2)];
        if let Some((name, n)) = bonus {
            let names: Vec<&str> = sides.iter().map(|s| s.name.as_str()).collect();
            let side = self.side_named(name, &names);
            let value = match n.node.parse::<f32>() {
                Ok(x) if x.is_finite() => Some(x),
                _ => {
                    self.report(DefinitionError::BadValue {
                        text: n.node.clone(),
                        at: n.span.into(),
                    });
                    None
                }
            };
            if let (Some(side), Some(value)) = (side, value) {
                adds[side.index()] = value;
            }
        }
        adds
    }

    /// The side a castling is written for: the first unless it names one.
    fn castling_side(&mut self, d: &ast::CastlingDecl, sides: &[SideDef]) -> Option<Side> {
        let Some(name) = &d.side else {
            return Some(Side::FIRST);
        };
        let names: Vec<&str> = sides.iter().map(|s| s.name.as_str()).collect();
        self.side_named(name, &names)
    }

    fn castling_pieces_placed(
        &mut self,
        c: &Castling,
        d: &ast::CastlingDecl,
        setup: &[Placement],
        sides: &[SideDef],
        dropped_unmoved: &[bool],
    ) {
        let Some(g) = self.geometry else {
            return;
        };
        let side_name = sides
            .get(c.side.index())
            .map_or_else(|| format!("side {}", c.side.raw() + 1), |s| s.name.clone());
        let side_of = |side: Side| {
            sides
                .get(side.index())
                .map_or_else(|| format!("side {}", side.raw() + 1), |s| s.name.clone())
        };
        for (piece, square, written) in [
            (c.king, c.king_from, &d.king_from),
            (c.partner, c.partner_from, &d.partner_from),
        ] {
            let found = setup.iter().find(|p| p.square == square);
            if found.is_some_and(|p| p.piece == piece && p.side == c.side) {
                continue;
            }
            if found.is_none() && dropped_unmoved.get(piece.index()).copied() == Some(true) {
                continue;
            }
            let help = match found {
                None => format!("{} is empty at the start", g.name(square)),
                Some(p) => {
                    let name = self
                        .pieces
                        .names
                        .decls
                        .get(p.piece.index())
                        .map_or("?", |n| n.0.as_str());
                    format!(
                        "{} holds `{name}` of `{}` at the start",
                        g.name(square),
                        side_of(p.side)
                    )
                }
            };
            let piece_name = self
                .pieces
                .names
                .decls
                .get(piece.index())
                .map_or_else(String::new, |n| n.0.clone());
            self.report(DefinitionError::CastlingPieceMissing {
                piece: piece_name,
                side: side_name.clone(),
                square: g.name(square).to_string(),
                help,
                at: written.as_ref().map_or(d.span, |w| w.span).into(),
            });
        }
    }

    /// Warns when a game about royals starts without a royal of some side.
    pub(super) fn royals_placed(
        &mut self,
        rules: &Rules,
        pieces: &[PieceDef],
        setup: &[Placement],
        hand: &[(Side, PieceKind)],
        sides: &[SideDef],
        decl: Option<&ast::SetupDecl>,
    ) {
        let Some(decl) = decl else {
            return;
        };
        // A `when` rule gives a side without royals a way to lose (Horde's pawns).
        if !(rules.checkmate || rules.extinction)
            || !pieces.iter().any(|p| p.royal)
            || !rules.conditions.is_empty()
        {
            return;
        }
        for (i, side) in sides.iter().enumerate().take(2) {
            let royal = |kind: PieceKind| pieces.get(kind.index()).is_some_and(|d| d.royal);
            // A royal in hand is placed before play (Sittuyin's king).
            let has_royal = setup.iter().any(|p| p.side.index() == i && royal(p.piece))
                || hand.iter().any(|&(s, k)| s.index() == i && royal(k));
            if !has_royal {
                self.report(DefinitionError::SetupNoRoyal {
                    side: side.name.clone(),
                    at: decl.keyword.into(),
                });
            }
        }
    }
}

/// Every castling like `template` from any start on the rank it ends on (Chess960): the king
/// on any square, the partner on any square on the side of the king that the king's
/// destination lies on, seen from the partner's (so `King to g1 with Rook to f1` takes a rook
/// east of the king).
fn any_start(g: Geometry, template: &Castling) -> Vec<Castling> {
    let rank = g.rank(template.king_to);
    let east = g.file(template.king_to) > g.file(template.partner_to);
    let squares: Vec<Square> = (0..g.width as i32)
        .filter_map(|f| g.square(f, rank))
        .filter(|&s| !g.is_hole(s))
        .collect();
    let mut out = Vec::new();
    for &king_from in &squares {
        for &partner_from in &squares {
            if (g.file(partner_from) > g.file(king_from)) == east && partner_from != king_from {
                out.push(Castling {
                    king_from,
                    partner_from,
                    ..template.clone()
                });
            }
        }
    }
    out
}
