//! How a game ends.

use std::fmt;

use super::position::Position;
use crate::model::{
    Asks, KindSet, PieceKind, RepetitionRule, Side, Square, Verdict, WhenTable, WALL,
};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// No legal move while in check.
    Checkmate,
    /// No legal move while not in check.
    Stalemate,
    /// A side has no royal piece left.
    Extinction,
    /// A position occurred the set number of times.
    Repetition,
    /// A repetition in which one side gave check with every move.
    PerpetualCheck,
    /// Too many plies without a capture or a clock-resetting move.
    MoveLimit,
    /// The counts of a `when` rule held: its index among the definition's `when` rules.
    Condition(u16),
    /// A side gave the number of checks the `checks` rule counts.
    Checks,
    /// Checkmate by the drop of a piece that may not mate, which loses (`mating drops lose`).
    MatingDrop,
    /// The last two players in the running agreed to share the victory.
    SharedVictory,
    /// Both sides passed in a row (`passing allowed`).
    Passes,
    /// A side passed while the royals faced each other (`facing ... draws`).
    Facing,
    /// No square is empty (`full board draws`).
    FullBoard,
    /// A side has its pieces in a row (`connect N ...`).
    Connect,
    /// A drawn game decided by the values of the pieces on the board
    /// (`draws counted by value`).
    Counted,
    /// A drawn game that the rules give to one side (`draws win for SIDE`).
    DrawOdds,
    /// A side made a winning castling, or can no longer make any (`castling ..., wins`).
    Castling,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::Extinction => "no royal piece left",
            Reason::Repetition => "repetition",
            Reason::PerpetualCheck => "perpetual check",
            Reason::MoveLimit => "move limit",
            Reason::Condition(_) => "position reached",
            Reason::Checks => "checks given",
            Reason::MatingDrop => "checkmate by a drop that may not mate",
            Reason::SharedVictory => "shared victory",
            Reason::Passes => "both sides passed",
            Reason::Facing => "pass while the royals face each other",
            Reason::FullBoard => "the board is full",
            Reason::Connect => "pieces in a row",
            Reason::Counted => "draw decided by counting piece values",
            Reason::DrawOdds => "draw, which the rules score for one side",
            Reason::Castling => "castling, or the right to it lost",
        })
    }
}

/// The result of a finished game: why, and what it means for each side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Why the game ended.
    pub reason: Reason,
    /// Each side's result, by [`Side::index`].
    results: Vec<Verdict>,
}

impl Outcome {
    /// `winner` wins and every other side of `sides` loses.
    pub fn win(winner: Side, sides: usize, reason: Reason) -> Outcome {
        Outcome {
            reason,
            results: (0..sides)
                .map(|s| {
                    if s == winner.index() {
                        Verdict::Win
                    } else {
                        Verdict::Loss
                    }
                })
                .collect(),
        }
    }

    /// `loser` loses and every other side of `sides` wins.
    pub fn loss(loser: Side, sides: usize, reason: Reason) -> Outcome {
        Outcome {
            reason,
            results: (0..sides)
                .map(|s| {
                    if s == loser.index() {
                        Verdict::Loss
                    } else {
                        Verdict::Win
                    }
                })
                .collect(),
        }
    }

    /// `a` and `b` win together (by agreement), every other side of `sides` loses.
    pub fn shared(a: Side, b: Side, sides: usize) -> Outcome {
        Outcome {
            reason: Reason::SharedVictory,
            results: (0..sides)
                .map(|s| {
                    if s == a.index() || s == b.index() {
                        Verdict::Win
                    } else {
                        Verdict::Loss
                    }
                })
                .collect(),
        }
    }

    /// Nobody of `sides` wins.
    pub fn draw(sides: usize, reason: Reason) -> Outcome {
        Outcome {
            reason,
            results: vec![Verdict::Draw; sides],
        }
    }

    /// `side`'s result.
    pub fn result(&self, side: Side) -> Verdict {
        self.results[side.index()]
    }

    /// Every side's result, by [`Side::index`].
    pub fn results(&self) -> &[Verdict] {
        &self.results
    }

    /// The side that won, when exactly one did.
    pub fn winner(&self) -> Option<Side> {
        let mut winners = (0..self.results.len()).filter(|&s| self.results[s] == Verdict::Win);
        match (winners.next(), winners.next()) {
            (Some(s), None) => Some(Side::nth(s)),
            _ => None,
        }
    }

    /// Whether nobody won.
    pub fn is_draw(&self) -> bool {
        self.results.iter().all(|v| *v == Verdict::Draw)
    }
}

/// What becomes of a side with no legal move on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stuck {
    /// The game ends there with this verdict for it.
    Ends(Verdict),
    /// Its turn is passed over.
    Passes,
    /// It is out of the running (more than two sides), and its turn passed over.
    Out,
}

impl Position {
    /// The rule for the side to move, which has no legal move: what that does to it, and
    /// whether it is checkmate or stalemate.
    pub(crate) fn stuck(&self) -> (Stuck, Reason) {
        let r = self.tables().rules();
        let (verdict, passes, reason) = if self.in_check() {
            let (verdict, reason) = self.checkmated();
            (verdict, false, reason)
        } else {
            (self.stalemated(), r.stalemate_passes, Reason::Stalemate)
        };
        let stuck = if passes || self.benched(self.side_to_move()) {
            Stuck::Passes
        } else if self.tables().sides() > 2 && verdict == Verdict::Loss {
            Stuck::Out
        } else {
            Stuck::Ends(verdict)
        };
        (stuck, reason)
    }

    /// The result of being stalemated now: the rule's verdict, or under `, by piece count` that
    /// verdict with fewer pieces than the others, the opposite with more, a draw with as many.
    pub(crate) fn stalemated(&self) -> Verdict {
        let r = self.tables().rules();
        if !r.stalemate_by_count {
            return r.stalemate;
        }
        let me = self.side_to_move().index();
        let mine = self.plist[me].len();
        let theirs: usize = (0..self.plist.len())
            .filter(|&s| s != me)
            .map(|s| self.plist[s].len())
            .sum();
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Equal => Verdict::Draw,
            std::cmp::Ordering::Less => r.stalemate,
            std::cmp::Ordering::Greater => match r.stalemate {
                Verdict::Win => Verdict::Loss,
                Verdict::Loss => Verdict::Win,
                Verdict::Draw => Verdict::Draw,
            },
        }
    }

    /// The result of being checkmated now, and why: under `mating drops lose`, a mate by the
    /// drop of a piece that may not mate wins for the side mated.
    pub(crate) fn checkmated(&self) -> (Verdict, Reason) {
        let t = self.tables();
        let by_drop = t.rules().mating_drops_lose
            && self
                .last_move()
                .is_some_and(|m| m.is_drop() && t.variant().piece(m.placed()).drops.no_mate);
        if by_drop {
            (Verdict::Win, Reason::MatingDrop)
        } else {
            (t.rules().checkmated, Reason::Checkmate)
        }
    }

    /// The outcome a rule gives: `v` for `side` and its partners, the opposite for the others.
    fn verdict_for(&self, side: Side, v: Verdict, reason: Reason) -> Outcome {
        let t = self.tables();
        let sides = t.sides();
        if v == Verdict::Draw {
            return Outcome::draw(sides, reason);
        }
        let other = if v == Verdict::Win {
            Verdict::Loss
        } else {
            Verdict::Win
        };
        Outcome {
            reason,
            results: Side::all(sides)
                .map(|s| if t.team(s) == t.team(side) { v } else { other })
                .collect(),
        }
    }

    /// The game-over test that needs no move generation: a rule that ends the game whatever the
    /// side to move could do (a side without royals under an extinction rule). Move generation
    /// yields nothing once it holds, so perft and search stop there, and [`Position::outcome`]
    /// reports it first.
    pub fn decided(&self) -> Option<Outcome> {
        let t = self.tables();
        if t.sides() > 2 {
            if let Some(o) = self.last_team_standing() {
                return Some(o);
            }
        }
        if t.rules().extinction && t.sides() == 2 {
            let sides = t.sides();
            if (0..sides).any(|s| self.royals[s].is_empty()) {
                let results = (0..sides)
                    .map(|s| {
                        if self.royals[s].is_empty() {
                            Verdict::Loss
                        } else {
                            Verdict::Win
                        }
                    })
                    .collect();
                return Some(Outcome {
                    reason: Reason::Extinction,
                    results,
                });
            }
        }
        if let Some(reason) = self.ended_by_pass() {
            return Some(Outcome::draw(t.sides(), reason));
        }
        if t.rules().castling_wins {
            if let Some(o) = self.castling_outcome() {
                return Some(o);
            }
        }
        for c in &t.rules().connect {
            for side in self.sides_from_mover() {
                let made = match c.block {
                    Some(high) => self.block_held(side, c.count, high, c.kinds),
                    None => self.in_line(side, c.count, c.kinds, &c.lines, c.gaps),
                };
                if made {
                    return Some(self.verdict_for(side, c.verdict, Reason::Connect));
                }
            }
        }
        if t.rules().full_board_draws && self.board_full() {
            return Some(Outcome::draw(t.sides(), Reason::FullBoard));
        }
        if let Some((n, verdict)) = t.rules().checks {
            for side in self.sides_from_mover() {
                if self.checks_given(side) >= n {
                    return Some(self.verdict_for(side, verdict, Reason::Checks));
                }
            }
        }
        let conditions = &t.rules().conditions;
        if !conditions.is_empty() {
            let mover = self.last_mover();
            for (index, rule) in conditions {
                for side in self.sides_from_mover() {
                    let asked = match rule.asks {
                        Asks::Both => true,
                        Asks::JustMoved => side == mover,
                        Asks::ToMove => side == self.side_to_move(),
                    };
                    if !asked {
                        continue;
                    }
                    if self.counts_hold(rule, side) && !self.answered(rule, side) {
                        return Some(self.verdict_for(
                            side,
                            rule.verdict,
                            Reason::Condition(*index),
                        ));
                    }
                }
            }
        }
        None
    }

    /// With more than two sides: once the sides still in the running ([`Position::is_out`])
    /// are of one team, that team wins and every other side loses (a draw if none is left).
    fn last_team_standing(&self) -> Option<Outcome> {
        let t = self.tables();
        if !t.royal_at_start() && self.out == 0 {
            return None;
        }
        let sides = t.sides();
        let running = self.running();
        let team = running.first().map(|&s| t.team(s));
        if running.iter().any(|&s| Some(t.team(s)) != team) {
            return None;
        }
        Some(match team {
            None => Outcome::draw(sides, Reason::Extinction),
            Some(team) => Outcome {
                reason: Reason::Extinction,
                results: Side::all(sides)
                    .map(|s| {
                        if t.team(s) == team {
                            Verdict::Win
                        } else {
                            Verdict::Loss
                        }
                    })
                    .collect(),
            },
        })
    }

    /// Every side, the one that just moved first, then in turn order: the order in which
    /// game-ending rules ask.
    fn sides_from_mover(&self) -> impl Iterator<Item = Side> {
        let sides = self.tables().sides();
        let mover = self.last_mover().index();
        (0..sides).map(move |k| Side::nth((mover + k) % sides))
    }

    /// Under `, unless answered`: whether the side to move, which has had one move fewer
    /// than `side` (the side that just moved, earlier in the round), can make the counts
    /// hold for itself with its reply, so that the game goes on for that reply.
    fn answered(&self, rule: &WhenTable, side: Side) -> bool {
        let stm = self.side_to_move();
        if !rule.answerable || side != self.previous_side(stm) || side.index() >= stm.index() {
            return false;
        }
        let mut p = self.clone();
        let mut moves = Vec::new();
        p.pseudo_moves(&mut moves);
        moves.into_iter().any(|m| {
            if !p.is_legal_pseudo(m) {
                return false;
            }
            p.make(m);
            let holds = p.counts_hold(rule, stm);
            p.unmake();
            holds
        })
    }

    /// Whether every count of a `when` rule holds for `side`.
    fn counts_hold(&self, rule: &WhenTable, side: Side) -> bool {
        rule.terms.iter().all(|term| {
            let mut n = 0;
            for (s, list) in self.plist.iter().enumerate() {
                if (s == side.index()) == term.enemy {
                    continue;
                }
                for &sq in list {
                    let kind = self.cell_kind(self.board[sq as usize]);
                    if term.kinds.contains(kind)
                        && term
                            .zone
                            .as_ref()
                            .is_none_or(|z| z[side.index()].contains(Square::at(sq)))
                        && !(term.safe && self.attacked_by_others(Square::at(sq), Side::nth(s)))
                    {
                        n += 1;
                    }
                }
                if term.hand {
                    for kind in (0..self.tables().kinds()).map(PieceKind::nth) {
                        if term.kinds.contains(kind) {
                            n += u32::from(self.in_hand(Side::nth(s), kind));
                        }
                    }
                }
            }
            term.bound.holds(n, term.count)
        })
    }

    /// Under `shared victory`: the two players who may agree to share it now, when exactly
    /// two players, not partners, are still in the running.
    pub fn may_share_victory(&self) -> Option<(Side, Side)> {
        let t = self.tables();
        if !t.rules().shared_victory || t.sides() < 3 || self.outcome().is_some() {
            return None;
        }
        match self.running()[..] {
            [a, b] if !t.partners(a, b) => Some((a, b)),
            _ => None,
        }
    }

    /// Whether the game ends here by the repetition rule: the position (the side to move
    /// included, after any sides passed over) occurs for the rule's count-th time. Perft and
    /// the listing of moves treat such a position as finished, without moves.
    pub fn repeated_to_end(&self) -> bool {
        let Some(rep) = &self.tables().rules().repetition else {
            return false;
        };
        let needed = usize::from(rep.count).saturating_sub(1);
        needed <= self.undo.len()
            && self.undo.iter().filter(|u| u.hash == self.hash).count() >= needed
    }

    /// Whether `sq` holds one of `side`'s pieces of `kinds`.
    fn connects(&self, side: Side, kinds: KindSet, sq: Square) -> bool {
        let c = self.board[sq.index()];
        c != 0 && c != WALL && self.cell_side(c) == side && kinds.contains(self.cell_kind(c))
    }

    /// Under `connect N ...`: whether `side` has `n` of its pieces of `kinds` along one of
    /// `lines`, in an unbroken row or, with `gaps`, anywhere on one line.
    fn in_line(&self, side: Side, n: u8, kinds: KindSet, lines: &[(i32, i32)], gaps: bool) -> bool {
        let g = self.tables().geometry();
        self.plist[side.index()].iter().any(|&s| {
            let start = Square::at(s);
            self.connects(side, kinds, start)
                && lines.iter().any(|&(dx, dy)| {
                    // Only from the first piece of a row (or line), so each is walked once.
                    let mut back = g.offset(start, -dx, -dy);
                    while let Some(sq) = back {
                        if self.connects(side, kinds, sq) {
                            return false;
                        }
                        back = g.offset(sq, -dx, -dy).filter(|_| gaps);
                    }
                    let mut len = 1;
                    let mut at = g.offset(start, dx, dy);
                    while let Some(sq) = at {
                        if self.connects(side, kinds, sq) {
                            len += 1;
                        } else if !gaps {
                            break;
                        }
                        at = g.offset(sq, dx, dy);
                    }
                    len >= usize::from(n)
                })
        })
    }

    /// Under `connect N by M ...`: whether `side` holds every square of a block `wide` files by
    /// `high` ranks with its pieces of `kinds`.
    fn block_held(&self, side: Side, wide: u8, high: u8, kinds: KindSet) -> bool {
        let g = self.tables().geometry();
        // Each piece is tried as the block's lower left corner.
        self.plist[side.index()].iter().any(|&s| {
            let corner = Square::at(s);
            (0..i32::from(wide)).all(|dx| {
                (0..i32::from(high)).all(|dy| {
                    g.offset(corner, dx, dy)
                        .is_some_and(|sq| self.connects(side, kinds, sq))
                })
            })
        })
    }

    /// Under castlings that win: the side that just made one wins; else a side that can no
    /// longer make any of its winning castlings loses (the side that moved asked first).
    fn castling_outcome(&self) -> Option<Outcome> {
        let t = self.tables();
        if let Some(id) = self.undo.last().and_then(|u| u.mv.castling()) {
            if t.castling(id).rule.wins {
                return Some(self.verdict_for(self.last_mover(), Verdict::Win, Reason::Castling));
            }
        }
        for side in self.sides_from_mover() {
            let mut winning = t
                .castlings()
                .map(|(_, c)| c)
                .filter(|c| c.rule.wins && c.rule.side == side)
                .peekable();
            if winning.peek().is_none() {
                continue;
            }
            let open = winning.any(|c| {
                let right = t.rules().rights[c.right];
                self.unmoved.contains(right.king) && self.unmoved.contains(right.partner)
            });
            if !open {
                return Some(self.verdict_for(side, Verdict::Loss, Reason::Castling));
            }
        }
        None
    }

    /// Whether no square of the board is empty.
    fn board_full(&self) -> bool {
        let g = self.tables().geometry();
        g.squares()
            .all(|sq| self.board[sq.index()] != 0 || g.is_hole(sq))
    }

    /// Under `passing allowed` or `facing ... draws`: whether the last move drew the game, a
    /// pass answering a pass or a pass while the royals face each other, and why.
    pub fn ended_by_pass(&self) -> Option<Reason> {
        let r = self.tables().rules();
        if !(r.passing || r.facing_draws) {
            return None;
        }
        let n = self.undo.len();
        if !self.undo.last()?.mv.is_pass() {
            return None;
        }
        if r.facing_draws && self.royals_facing(self.side_to_move()) {
            return Some(Reason::Facing);
        }
        (n >= 2 && self.undo[n - 2].mv.is_pass()).then_some(Reason::Passes)
    }

    /// What a draw is for `side` now: a draw, or under `draws counted by value` (two sides)
    /// a win for the side whose pieces on the board, with what the rule adds, are worth more.
    pub fn drawn_verdict(&self, side: Side) -> Verdict {
        let t = self.tables();
        if t.sides() != 2 {
            return Verdict::Draw;
        }
        if let Some((odds, v)) = t.rules().draw_odds {
            return match (odds == side, v) {
                (true, v) => v,
                (false, Verdict::Win) => Verdict::Loss,
                (false, _) => Verdict::Win,
            };
        }
        let Some(adds) = &t.rules().counting else {
            return Verdict::Draw;
        };
        if t.sides() != 2 {
            return Verdict::Draw;
        }
        let total = |s: usize| -> f32 {
            adds[s]
                + self.plist[s]
                    .iter()
                    .map(|&sq| {
                        t.variant()
                            .piece(self.cell_kind(self.board[sq as usize]))
                            .value
                    })
                    .sum::<f32>()
        };
        let (mine, theirs) = (total(side.index()), total(1 - side.index()));
        if (mine - theirs).abs() < 1e-4 {
            Verdict::Draw
        } else if mine > theirs {
            Verdict::Win
        } else {
            Verdict::Loss
        }
    }

    /// `o`, a draw decided by counting where the rules say so.
    fn counted(&self, o: Outcome) -> Outcome {
        if !o.is_draw() || self.tables().sides() != 2 {
            return o;
        }
        let reason = if self.tables().rules().draw_odds.is_some() {
            Reason::DrawOdds
        } else {
            Reason::Counted
        };
        match self.drawn_verdict(Side::FIRST) {
            Verdict::Draw => o,
            Verdict::Win => Outcome::win(Side::FIRST, 2, reason),
            Verdict::Loss => Outcome::loss(Side::FIRST, 2, reason),
        }
    }

    /// The outcome if the game is over in this position, `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        let o = self.outcome_as_written()?;
        Some(self.counted(o))
    }

    /// How a repetition under `rep` ends the game here, the position having stood as it does
    /// now before move `first` (an index of the moves made), `gave_check(i)` saying whether move
    /// `i` gave check. Shared by the game's referee and the search, which meets repetitions
    /// on its own path.
    pub(crate) fn repetition_end(
        &self,
        rep: &RepetitionRule,
        first: usize,
        gave_check: impl Fn(usize) -> bool,
    ) -> Outcome {
        let sides = self.tables().sides();
        let n = self.undo.len();
        let repeater = self.last_mover();
        if rep.perpetual_check_loses {
            // Plies of the cycle made by each side: the repeater made the last one.
            let checks_by = |offset: usize| {
                (first..n)
                    .rev()
                    .skip(offset)
                    .step_by(sides)
                    .all(&gave_check)
            };
            if checks_by(0) {
                return Outcome::loss(repeater, sides, Reason::PerpetualCheck);
            }
            if checks_by(1) {
                return Outcome::win(repeater, sides, Reason::PerpetualCheck);
            }
        }
        let whose = rep.side.unwrap_or(repeater);
        self.verdict_for(whose, rep.verdict, Reason::Repetition)
    }

    /// [`Position::outcome`] before draws are counted.
    fn outcome_as_written(&self) -> Option<Outcome> {
        if let Some(o) = self.decided() {
            return Some(o);
        }

        let t = self.tables();
        let me = self.side_to_move();
        let sides = t.sides();
        if self.legal_moves().is_empty() {
            return Some(match self.stuck() {
                (Stuck::Ends(verdict), reason) => self.verdict_for(me, verdict, reason),
                // A side passed over, or put out, here would have handed the turn on: nobody
                // has a move ([`Position::settle_turn`]).
                (Stuck::Passes | Stuck::Out, reason) => Outcome::draw(sides, reason),
            });
        }
        if let Some(rep) = t
            .rules()
            .repetition
            .as_ref()
            .filter(|_| self.repeated_to_end())
        {
            let earlier: Vec<usize> = (0..self.undo.len())
                .filter(|&i| self.undo[i].hash == self.hash)
                .collect();
            let n = self.undo.len();
            let first = earlier[earlier.len() + 1 - rep.count as usize];
            let known = self.gave_check.len() == n;
            return Some(self.repetition_end(rep, first, |i| known && self.gave_check[i]));
        }
        if let Some(limit) = t.rules().move_limit {
            if self.halfmove_clock() >= limit {
                return Some(Outcome::draw(sides, Reason::MoveLimit));
            }
        }
        None
    }
}
