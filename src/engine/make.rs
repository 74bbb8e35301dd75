//! Making and unmaking moves: the board, piece lists, hands, castling marks, en passant,
//! explosions and the hash, updated in place and restored from the undo stack.

use std::sync::Arc;

use super::mv::{Move, MoveKind};
use super::outcome::Stuck;
use super::position::{stack_mark, EnPassant, Piece, Position, Undo, WALL};
use super::zobrist::hand_key;
use crate::model::KING_STEPS;
use crate::model::{Elimination, Immunity, PathFlags, Route, Side, Square, Tables};

/// The squares whose piece a move takes away or moves, whose "unmoved" mark it clears.
#[inline]
pub(super) fn touched(t: &Tables, m: &Move) -> Option<(Square, Square)> {
    match m.kind {
        MoveKind::Normal
        | MoveKind::Passing(_)
        | MoveKind::Gate(_)
        | MoveKind::Promote
        | MoveKind::Double(_) => Some((m.from, m.to)),
        MoveKind::CaptureAt(victim) => Some((m.from, victim)),
        MoveKind::Shot => Some((m.to, m.to)),
        MoveKind::Drop | MoveKind::Pass => None,
        MoveKind::Castle(id) | MoveKind::CastleGate(id, ..) => {
            let r = &t.castling(id).rule;
            Some((r.king_from, r.partner_from))
        }
    }
}

/// Where a gating move places its piece from hand.
#[inline]
pub(super) fn gate_square(t: &Tables, m: &Move) -> Square {
    match m.kind {
        MoveKind::CastleGate(id, _, false) => t.castling(id).rule.king_from,
        MoveKind::CastleGate(id, _, true) => t.castling(id).rule.partner_from,
        _ => m.from,
    }
}

impl Position {
    /// Lifts the moving piece off its square and puts it, promoted if the move says so, where
    /// the move ends.
    #[inline]
    fn carry(&mut self, m: Move) {
        let c = self.lift(m.from.raw());
        let c = match m.promotion {
            Some(k) => self.cell(Piece {
                side: self.stm,
                kind: k,
            }),
            None => c,
        };
        self.place(m.to.raw(), c);
    }

    /// Takes the piece on `sq` off the board for good, into its captor's hand where the rules
    /// say so.
    #[inline]
    fn capture(&mut self, sq: u16) {
        let c = self.lift(sq);
        self.removed.push((sq, c));
        let t = &self.sh.t;
        let kind = self.cell_kind(c);
        if t.rules().captures_to_hand && !t.royal(kind) {
            let base = t.demoted(kind);
            self.hand_change(self.stm, base, false);
        }
    }

    /// Plays `m`, which must be pseudo-legal in this position.
    pub(crate) fn make(&mut self, m: Move) {
        if m.wall.is_some() {
            return self.make_walled(m);
        }
        if m.gated().is_some() {
            return self.make_gated(m);
        }
        let sh = Arc::clone(&self.sh);
        let t = &sh.t;
        let mut undo = Undo {
            mv: m,
            removed: stack_mark(self.removed.len()),
            ep: self.ep,
            ep_targets: stack_mark(self.ep_targets.len()),
            unmoved_lost: 0,
            halfmove: self.halfmove,
            hash: self.hash,
            checked: false,
            blast: u32::MAX,
            marks_saved: false,
            mover: self.stm,
            out: self.out,
            cleared: u32::MAX,
            wall: u16::MAX,
            struck: self.struck,
        };
        // Drops and promotions cannot be undone, so no earlier position can come back.
        let mut reset = t.resets_clock(m.piece) || m.promotion.is_some() || m.is_drop();
        match m.kind {
            MoveKind::Drop => {
                if !t.variant().piece(m.piece).drops.unlimited {
                    self.hand_change(self.stm, m.piece, true);
                }
                let c = self.cell(Piece {
                    side: self.stm,
                    kind: m.placed(),
                });
                self.place(m.to.raw(), c);
                if t.variant().piece(m.piece).drops.unmoved && self.mark_dropped(m.to) {
                    undo.marks_saved = true;
                }
            }
            MoveKind::Castle(id) | MoveKind::CastleGate(id, ..) => {
                let r = &t.castling(id).rule;
                let k = self.lift(r.king_from.raw());
                let p = self.lift(r.partner_from.raw());
                self.place(r.king_to.raw(), k);
                self.place(r.partner_to.raw(), p);
            }
            MoveKind::Pass => {}
            MoveKind::Promote => {
                self.lift(m.from.raw());
                let c = self.cell(Piece {
                    side: self.stm,
                    kind: m.placed(),
                });
                self.place(m.to.raw(), c);
            }
            MoveKind::Double(via) => {
                if self.board[via.index()] != 0 {
                    self.capture(via.raw());
                    reset = true;
                }
                if m.to != m.from && self.board[m.to.index()] != 0 {
                    self.capture(m.to.raw());
                    reset = true;
                }
                self.carry(m);
            }
            MoveKind::Shot => {
                self.capture(m.to.raw());
                reset = true;
                if t.rules().explosions {
                    undo.blast = self.explode(m.to);
                }
            }
            MoveKind::Normal
            | MoveKind::Passing(_)
            | MoveKind::CaptureAt(_)
            | MoveKind::Gate(_) => {
                let victim = m.capture_square().expect("these moves may capture");
                let captured = self.board[victim.index()] != 0;
                if captured {
                    self.capture(victim.raw());
                    reset = true;
                }
                self.carry(m);
                if captured && t.rules().explosions {
                    undo.blast = self.explode(m.to);
                } else if captured && t.rules().petrify.contains(m.placed()) {
                    undo.blast = self.petrify(m.to);
                    undo.wall = m.to.raw();
                }
            }
        }
        if t.rules().leave_walls {
            undo.wall = self.leave_wall(&m);
        }
        if t.rules().flip.is_some() && !m.is_pass() {
            self.flip_enemies(m.landing(), m.is_drop());
        }
        if let Some((targets, _)) = self.en_passant() {
            let key = targets.iter().fold(0, |h, s| h ^ sh.keys.ep[s.index()]);
            self.hash ^= key;
        }
        self.ep = None;
        if let MoveKind::Passing(route) = m.kind {
            self.set_en_passant(route, m.to);
        }
        if let Some((a, b)) = touched(t, &m) {
            (undo.unmoved_lost, undo.marks_saved) = self.clear_unmoved(a, b);
        }
        // The piece taken on the way loses its mark too.
        if let MoveKind::Double(via) = m.kind {
            if self.unmoved.contains(via) && self.drop_marks(&[via], undo.marks_saved) {
                undo.marks_saved = true;
            }
        }
        if t.aims(m.piece) && self.lose_to_aim(m, undo.marks_saved) {
            undo.marks_saved = true;
        }
        if t.rules().opposite_castling {
            if let Some(id) = m.castling() {
                if self.bar_same_wing(id, undo.marks_saved) {
                    undo.marks_saved = true;
                }
            }
        }
        // Any move may end a castling right that kept a closed gate's mark.
        if t.rules().gating.is_some() && self.close_gates(undo.marks_saved) {
            undo.marks_saved = true;
        }
        if !t.rules().counter_strike.is_empty() {
            self.strike(&m, undo.removed);
        }
        self.halfmove = if reset { 0 } else { self.halfmove + 1 };
        let mover = self.stm;
        let next = self.next_side(mover);
        self.hash ^= sh.keys.side[mover.index()] ^ sh.keys.side[next.index()];
        if next.index() == 0 {
            self.fullmove += 1;
        }
        self.stm = next;
        if t.rules().checks.is_some() && self.in_check() {
            let base = sh.keys.checks[mover.index()];
            let n = &mut self.checks[mover.index()];
            self.hash ^= hand_key(base, *n as u16) ^ hand_key(base, *n as u16 + 1);
            *n += 1;
            undo.checked = true;
        }
        self.undo.push(undo);
    }

    /// Under `counter-strike`: notes whether `m` (whose captures lie above `removed` on the
    /// removal stack) took such a piece with a piece of another kind.
    #[cold]
    fn strike(&mut self, m: &Move, removed: u32) {
        let listed = self.sh.t.rules().counter_strike;
        let struck = if listed.contains(m.piece) {
            None
        } else {
            self.removed[removed as usize..]
                .iter()
                .find(|&&(_, c)| listed.contains(self.cell_kind(c)))
                .map(|&(sq, _)| Square::at(sq))
        };
        if struck.is_some() != self.struck.is_some() {
            self.hash ^= self.sh.keys.struck;
        }
        self.struck = struck;
    }

    /// Under `moves leave walls`: a wall on the square the moving piece left, if it is empty
    /// now (a castling partner may have come to it); the square, or `u16::MAX`.
    #[cold]
    fn leave_wall(&mut self, m: &Move) -> u16 {
        let left = match m.kind {
            MoveKind::Normal
            | MoveKind::Passing(_)
            | MoveKind::CaptureAt(_)
            | MoveKind::Gate(_)
            | MoveKind::Promote
            | MoveKind::Double(_) => m.from,
            MoveKind::Castle(id) | MoveKind::CastleGate(id, ..) => {
                self.sh.t.castling(id).rule.king_from
            }
            MoveKind::Drop | MoveKind::Shot | MoveKind::Pass => return u16::MAX,
        };
        if self.board[left.index()] != 0 {
            return u16::MAX;
        }
        self.build_wall(left.raw());
        left.raw()
    }

    /// Plays `m` as a turn of the game: [`Position::make`], then, where turns can end
    /// otherwise than with the next side to move, [`Position::settle_turn`]. Legality tests
    /// make moves without it: what follows the move does not change whether it was legal.
    #[inline(always)]
    pub(crate) fn make_turn(&mut self, m: Move) {
        self.make(m);
        if self.sh.t.rules().turns_settle {
            self.settle_turn(true);
        }
    }

    /// Settles whose turn it is after a move (or in a position just set up; `recorded` says
    /// whether a move's undo entry takes what changes). With more than two sides, a side left
    /// holding no royal is out of the running. Then a side with no legal move on its turn is
    /// passed over (no ply is spent) where the rules say so; with more than two sides, one
    /// that loses so (checkmated, or stalemated under `stalemate loses`) is out and passed
    /// over too. A win or a draw on its turn ends the game there ([`Position::outcome`]).
    /// When no side has a move, the turn stays with the side after the mover, and the game
    /// is drawn.
    #[cold]
    #[inline(never)]
    pub(super) fn settle_turn(&mut self, recorded: bool) {
        let sh = Arc::clone(&self.sh);
        let t = &sh.t;
        let sides = t.sides();
        if sides > 2 && t.royal_at_start() {
            for s in Side::all(sides) {
                if self.royals[s.index()].is_empty() && !self.marked_out(s) {
                    self.eliminate(s, recorded);
                }
            }
        }
        if !t.rules().turns_settle {
            return;
        }
        let (first, fullmove) = (self.stm, self.fullmove);
        let mut moves = Vec::new();
        for _ in 0..sides {
            if self.decided().is_some() {
                return;
            }
            self.legal_moves_into(&mut moves);
            if !moves.is_empty() {
                return;
            }
            match self.stuck().0 {
                Stuck::Ends(_) => return,
                Stuck::Passes => {}
                Stuck::Out => self.eliminate(self.stm, recorded),
            }
            let next = self.next_side(self.stm);
            self.hash ^= sh.keys.side[self.stm.index()] ^ sh.keys.side[next.index()];
            if next.index() == 0 {
                self.fullmove += 1;
            }
            self.stm = next;
        }
        if self.decided().is_some() {
            return;
        }
        // Nobody can move: the turn round undone, back to the side after the mover.
        self.hash ^= sh.keys.side[self.stm.index()] ^ sh.keys.side[first.index()];
        self.stm = first;
        self.fullmove = fullmove;
    }

    /// Puts `side` out of the running, and its pieces off the board or out of play where the
    /// rules say so. Pieces taken off go on [`Position::removed`], for the move's undo when
    /// `recorded`.
    fn eliminate(&mut self, side: Side, recorded: bool) {
        let sh = Arc::clone(&self.sh);
        let bit = 1 << side.index();
        self.out |= bit;
        self.hash ^= sh.keys.out[side.index()];
        let rule = sh.t.rules().eliminated;
        if rule == Elimination::PlayOn {
            return;
        }
        self.benched |= bit;
        if rule != Elimination::Removed {
            return;
        }
        let before = self.state_key();
        if recorded {
            let start = stack_mark(self.removed.len());
            if let Some(u) = self.undo.last_mut() {
                if u.cleared == u32::MAX {
                    u.cleared = start;
                    self.blast_unmoved.push(self.unmoved);
                }
            }
        }
        while let Some(&sq) = self.plist[side.index()].last() {
            let c = self.lift(sq);
            self.unmoved.remove(Square::at(sq));
            if recorded {
                self.removed.push((sq, c));
            }
        }
        self.settle_castling_marks();
        self.hash ^= before ^ self.state_key();
    }

    /// The explosion of a capture on `at`: removes the piece on `at` and every piece one king
    /// step away, except what their immunity spares; the removed pieces leave the game (no
    /// hand). Returns the length of [`Position::removed`] before it, for the undo.
    /// Under `captures petrify`: the piece that just captured on `at` becomes a wall. Kept
    /// on the removal stack as an explosion's pieces are; returns where its entry starts.
    #[cold]
    fn petrify(&mut self, at: Square) -> u32 {
        let start = stack_mark(self.removed.len());
        let before = self.state_key();
        self.blast_unmoved.push(self.unmoved);
        let c = self.lift(at.raw());
        self.removed.push((at.raw(), c));
        self.unmoved.remove(at);
        self.settle_castling_marks();
        self.hash ^= before ^ self.state_key();
        self.build_wall(at.raw());
        start
    }

    fn explode(&mut self, at: Square) -> u32 {
        let sh = Arc::clone(&self.sh);
        let t = &sh.t;
        let g = t.geometry();
        let start = stack_mark(self.removed.len());
        let before = self.state_key();
        self.blast_unmoved.push(self.unmoved);
        let around = KING_STEPS
            .iter()
            .filter_map(|&(dx, dy)| g.offset(at, dx, dy));
        for sq in around.chain(std::iter::once(at)) {
            let c = self.board[sq.index()];
            // Walls stand through explosions.
            if c == 0 || c == WALL {
                continue;
            }
            let spared = match t.immunity(self.cell_kind(c)) {
                Immunity::None => false,
                Immunity::Nearby => sq != at,
                Immunity::Full => true,
            };
            if !spared {
                let c = self.lift(sq.raw());
                self.removed.push((sq.raw(), c));
                self.unmoved.remove(sq);
            }
        }
        self.settle_castling_marks();
        self.hash ^= before ^ self.state_key();
        start
    }

    /// Takes the unmoved marks off `a` and `b`; returns which of them had one, and whether
    /// marks of other squares went too (saved on [`Position::saved_marks`]).
    #[inline]
    fn clear_unmoved(&mut self, a: Square, b: Square) -> (u8, bool) {
        let lost = self.unmoved.contains(a) as u8 | (self.unmoved.contains(b) as u8) << 1;
        let mut saved = false;
        if lost != 0 {
            let before = self.state_key();
            let previous = self.unmoved;
            self.unmoved.remove(a);
            self.unmoved.remove(b);
            if self.settle_castling_marks() {
                self.saved_marks.push(previous);
                saved = true;
            }
            self.hash ^= before ^ self.state_key();
        }
        (lost, saved)
    }

    /// Takes the first-move state from the enemy pieces that `m`'s piece now aims at on an empty
    /// board, where their kind loses it so (`unmoved lost when aimed by`). Saves the marks for
    /// the undo unless the move saved them already; returns whether any went.
    fn lose_to_aim(&mut self, m: Move, already_saved: bool) -> bool {
        let sh = Arc::clone(&self.sh);
        let t = &sh.t;
        if !matches!(
            m.kind,
            MoveKind::Normal | MoveKind::Passing(_) | MoveKind::CaptureAt(_) | MoveKind::Drop
        ) {
            return false;
        }
        let me = self.stm;
        let aimed: Vec<Square> = self
            .unmoved
            .iter()
            .filter(|&sq| {
                let c = self.board[sq.index()];
                if c == 0 || c == WALL {
                    return false;
                }
                let p = self.decode(c);
                p.side != me
                    && t.variant().piece(p.kind).unmoved_lost_to.contains(&m.piece)
                    && t.ways(m.piece, me, m.to, sq)
                        .any(|w| w.flags().has(PathFlags::CAPTURE))
            })
            .collect();
        self.drop_marks(&aimed, already_saved)
    }

    /// Under `drop counts as unmoved`: the piece just dropped on `sq`, where a castling of its
    /// side starts such a piece, counts as never moved, and so does the piece of a kind
    /// dropped so that stands on the castling's other square (a rook placed before its king,
    /// or set up by a FEN, which notes no right without the king). The mark stays even where
    /// the castling's other piece is still to come: a king dropped later completes the right.
    /// Returns whether any mark was set; the marks before then go on
    /// [`Position::saved_marks`] for the undo.
    #[cold]
    fn mark_dropped(&mut self, sq: Square) -> bool {
        let sh = Arc::clone(&self.sh);
        let t = &sh.t;
        let me = self.stm;
        let at = |p: &Self, s: Square, kind| p.piece_at(s) == Some(Piece { side: me, kind });
        let mut marks = self.unmoved;
        for (r, &(king, partner)) in t.rules().rights.iter().zip(&t.rules().right_pieces) {
            if r.side != me {
                continue;
            }
            let other = if r.king == sq && at(self, sq, king) {
                (r.partner, partner)
            } else if r.partner == sq && at(self, sq, partner) {
                (r.king, king)
            } else {
                continue;
            };
            marks.insert(sq);
            if t.variant().piece(other.1).drops.unmoved && at(self, other.0, other.1) {
                marks.insert(other.0);
            }
        }
        if marks == self.unmoved {
            return false;
        }
        let before = self.state_key();
        self.saved_marks.push(self.unmoved);
        self.unmoved = marks;
        self.hash ^= before ^ self.state_key();
        true
    }

    /// Under `opposite castling`, after castling `id`: the opponents' partners for castlings
    /// toward the same edge of the board lose their marks, and with them those castlings.
    /// Returns whether any mark went.
    fn bar_same_wing(&mut self, id: crate::model::CastlingId, already_saved: bool) -> bool {
        let t = &self.sh.t;
        let g = t.geometry();
        let wing = |c: &crate::model::Castling| (g.file(c.king_to) - g.file(c.partner_to)).signum();
        let played = &t.castling(id).rule;
        let squares: Vec<Square> = t
            .castlings()
            .map(|(_, c)| &c.rule)
            .filter(|c| c.side != played.side && wing(c) == wing(played))
            .map(|c| (c.partner_from, c.partner, c.side))
            .filter(|&(sq, kind, side)| {
                let cell = self.board[sq.index()];
                self.unmoved.contains(sq)
                    && cell != 0
                    && cell != WALL
                    && self.cell_kind(cell) == kind
                    && self.cell_side(cell) == side
            })
            .map(|(sq, _, _)| sq)
            .collect();
        self.drop_marks(&squares, already_saved)
    }

    /// Takes the first-move marks off `squares`, saving the marks for the undo unless the
    /// move saved them already; returns whether any went.
    fn drop_marks(&mut self, squares: &[Square], already_saved: bool) -> bool {
        if squares.is_empty() {
            return false;
        }
        let before = self.state_key();
        if !already_saved {
            self.saved_marks.push(self.unmoved);
        }
        for &sq in squares {
            self.unmoved.remove(sq);
        }
        self.hash ^= before ^ self.state_key();
        true
    }

    /// Plays a gating move: its move, then the piece from hand on its square; under gating
    /// without captures to hand, the gating rights of a side left with an empty hand go.
    /// Kept apart so that other moves do not pay for it.
    #[cold]
    #[inline(never)]
    fn make_gated(&mut self, m: Move) {
        let k = m.gated().expect("a gating move");
        let mover = self.stm;
        self.make(m.ungated());
        let sq = gate_square(&self.sh.t, &m);
        let c = self.cell(Piece {
            side: mover,
            kind: k,
        });
        self.hand_change(mover, k, true);
        self.place(sq.raw(), c);
        let saved = self.undo.last().is_some_and(|u| u.marks_saved);
        let closed = self.close_gates(saved);
        let u = self.undo.last_mut().expect("make pushed it");
        u.mv = m;
        u.marks_saved |= closed;
    }

    /// Under `moves flip ... enemies`: turns the enemy pieces the move flips, from `to`, to the
    /// mover's side; what they were goes on [`Position::flipped`], then their count.
    #[cold]
    #[inline(never)]
    fn flip_enemies(&mut self, to: Square, drop: bool) {
        let me = self.stm;
        let squares = self.flips(to, me, drop);
        for &sq in &squares {
            let c = self.lift(sq.raw());
            self.flipped.push((sq.raw(), c));
            let kind = self.cell_kind(c);
            let mine = self.cell(Piece { side: me, kind });
            self.place(sq.raw(), mine);
        }
        let n = u8::try_from(squares.len()).expect("at most eight lines of fewer than 256");
        self.flipped.push((u16::MAX, n));
    }

    /// Turns back the pieces the move being taken back flipped.
    #[cold]
    #[inline(never)]
    fn unflip(&mut self) {
        let (_, n) = self.flipped.pop().expect("flip_enemies counted them");
        for _ in 0..n {
            let (sq, c) = self.flipped.pop().expect("flip_enemies pushed them");
            self.lift(sq);
            self.place(sq, c);
        }
    }

    /// Plays a move that ends with a wall built (`each move places a wall`): under `moves the
    /// wall` the walls standing go first, then the move, then the new wall.
    #[cold]
    #[inline(never)]
    fn make_walled(&mut self, m: Move) {
        let w = m.wall.expect("a walled move");
        let moving = self.sh.t.rules().wall_placing.is_some_and(|r| r.moving);
        if moving {
            let mut lifted = 0u16;
            for sq in 0..self.board.len() {
                if self.board[sq] == WALL {
                    self.board[sq] = 0;
                    self.hash ^= self.sh.keys.wall[sq];
                    self.lifted_walls.push(sq as u16);
                    lifted += 1;
                }
            }
            self.lifted_walls.push(lifted);
        }
        self.make(Move { wall: None, ..m });
        self.build_wall(w.raw());
        // A wall on a square the move passed leaves nothing to take en passant there.
        if let Some(ep) = self.ep {
            let run = ep.start as usize..ep.start as usize + ep.len as usize;
            if let Some(i) = self.ep_targets[run.clone()].iter().position(|&s| s == w) {
                self.ep_targets.remove(run.start + i);
                self.hash ^= self.sh.keys.ep[w.index()];
                self.ep = (ep.len > 1).then_some(EnPassant {
                    len: ep.len - 1,
                    ..ep
                });
            }
        }
        self.undo.last_mut().expect("make pushed it").mv = m;
    }

    /// Takes back a move made by [`Position::make_walled`].
    #[cold]
    #[inline(never)]
    fn unmake_walled(&mut self) {
        let u = self.undo.last_mut().expect("checked by the caller");
        let m = u.mv;
        u.mv = Move { wall: None, ..m };
        // The wall may stand where the piece came from: it goes before the piece comes back.
        self.board[m.wall.expect("a walled move").index()] = 0;
        self.unmake();
        if self.sh.t.rules().wall_placing.is_some_and(|r| r.moving) {
            let lifted = self.lifted_walls.pop().expect("make_walled counted them");
            for _ in 0..lifted {
                let sq = self.lifted_walls.pop().expect("make_walled pushed them");
                self.board[sq as usize] = WALL;
                self.hash ^= self.sh.keys.wall[sq as usize];
            }
        }
    }

    /// Takes back a gating move made by [`Position::make_gated`].
    #[cold]
    #[inline(never)]
    fn unmake_gated(&mut self) {
        let u = self.undo.last_mut().expect("checked by the caller");
        let m = u.mv;
        u.mv = m.ungated();
        let mover = u.mover;
        let k = m.gated().expect("a gating move");
        let sq = gate_square(&self.sh.t, &m);
        self.lift(sq.raw());
        let i = self.hand_slot(mover, k);
        self.hands[i] += 1;
        self.unmake();
    }

    /// Under gating without captures to hand: once a side's hand is empty its gating rights
    /// are gone for good, as Fairy-Stockfish has it, so the marks of its gating squares go,
    /// but for those of a castling right still alive. Saves the marks for the undo unless the
    /// move saved them already; returns whether any went.
    #[cold]
    fn close_gates(&mut self, already_saved: bool) -> bool {
        let sh = Arc::clone(&self.sh);
        let t = &sh.t;
        let r = t.rules();
        let (Some(zone), false) = (r.gating, r.captures_to_hand) else {
            return false;
        };
        let mut gone: Vec<Square> = Vec::new();
        for side in Side::all(t.sides()) {
            if (0..t.kinds()).any(|k| self.in_hand(side, crate::model::PieceKind::nth(k)) > 0) {
                continue;
            }
            let alive = |sq: Square| {
                r.rights.iter().enumerate().any(|(i, c)| {
                    c.side == side
                        && (c.king == sq || c.partner == sq)
                        && self.unmoved.contains(c.king)
                        && self.unmoved.contains(c.partner)
                        && self.right_in_place(i)
                })
            };
            gone.extend(
                t.zone(zone, side)
                    .iter()
                    .filter(|&sq| self.unmoved.contains(sq) && !alive(sq)),
            );
        }
        self.drop_marks(&gone, already_saved)
    }

    /// Keeps the marks of castling squares only where a right is alive (both its pieces in
    /// place and unmoved), so that positions with equal rights have equal marks whichever way
    /// they were reached (a FEN marks only the squares of its rights). Marks of pieces whose
    /// own patterns ask stay. Returns whether any mark went.
    pub(super) fn settle_castling_marks(&mut self) -> bool {
        let sh = Arc::clone(&self.sh);
        let t = &sh.t;
        let rights = &t.rules().rights;
        if rights.is_empty() {
            return false;
        }
        let mut keep = self.unmoved.intersection(t.first_move_squares());
        for (i, r) in rights.iter().enumerate() {
            if self.unmoved.contains(r.king)
                && self.unmoved.contains(r.partner)
                && self.right_in_place(i)
            {
                keep.insert(r.king);
                keep.insert(r.partner);
            }
        }
        let changed = keep != self.unmoved;
        self.unmoved = keep;
        changed
    }

    /// Whether the pieces of castling right `i` stand on its squares.
    pub(crate) fn right_in_place(&self, i: usize) -> bool {
        let t = &self.sh.t;
        let r = t.rules().rights[i];
        let (king, partner) = t.rules().right_pieces[i];
        self.piece_at(r.king)
            == Some(Piece {
                side: r.side,
                kind: king,
            })
            && self.piece_at(r.partner)
                == Some(Piece {
                    side: r.side,
                    kind: partner,
                })
    }

    /// Makes the squares passed along `route` en-passant targets, where the other sides could
    /// capture en passant: a target nobody can use does not change the position.
    fn set_en_passant(&mut self, route: Route, victim: Square) {
        let sh = Arc::clone(&self.sh);
        let start = self.ep_targets.len();
        for sq in sh.t.passed(route, victim) {
            if self.en_passant_possible(sq, self.stm) {
                self.ep_targets.push(sq);
                self.hash ^= sh.keys.ep[sq.index()];
            }
        }
        if self.ep_targets.len() > start {
            self.ep_targets[start..].sort();
            self.ep = Some(EnPassant {
                start: stack_mark(start),
                len: u16::try_from(self.ep_targets.len() - start)
                    .expect("a move passes fewer squares than its board has"),
                victim,
            });
        }
    }

    /// Whether a side other than `mover` could capture en passant on `target` now.
    pub(crate) fn en_passant_possible(&self, target: Square, mover: Side) -> bool {
        let t = &self.sh.t;
        // A borrower may take en passant with a lent capture: too rare to index, always kept.
        if t.has_borrowing() {
            return true;
        }
        (0..t.sides())
            .map(Side::nth)
            .filter(|&s| s != mover)
            .any(|s| {
                t.ep_sources(s, target).iter().any(|&(kind, from)| {
                    self.board[from.index()] == self.cell(Piece { side: s, kind })
                        && t.ways(kind, s, from, target).any(|w| {
                            w.flags().has(PathFlags::TAKES_EP) && self.way_usable(&w, from)
                        })
                })
            })
    }

    /// Puts back the pieces an explosion or an elimination took off (those above `mark` on
    /// [`Position::removed`]), and the unmoved marks it saved.
    fn put_back_removed(&mut self, mark: u32) {
        while self.removed.len() > mark as usize {
            let (sq, c) = self.removed.pop().expect("checked above");
            self.place(sq, c);
        }
        self.unmoved = self
            .blast_unmoved
            .pop()
            .expect("the removal saved its marks");
    }

    /// Takes back the last move made with [`Position::make`].
    pub(crate) fn unmake(&mut self) {
        if let Some(u) = self.undo.last() {
            if u.mv.wall.is_some() {
                return self.unmake_walled();
            }
            if u.mv.gated().is_some() {
                return self.unmake_gated();
            }
        }
        let u = self.undo.pop().expect("unmake follows make");
        let m = u.mv;
        // The turn went round past the first side (skips included) when it came back to a
        // side no later in the order than the mover.
        if self.stm.index() <= u.mover.index() {
            self.fullmove -= 1;
        }
        self.stm = u.mover;
        let sh = Arc::clone(&self.sh);
        let t = &sh.t;
        self.out = u.out;
        self.benched &= u.out;
        // Pieces of sides put out came off last.
        if u.cleared != u32::MAX {
            self.put_back_removed(u.cleared);
        }
        if u.marks_saved {
            self.unmoved = self.saved_marks.pop().expect("the move saved its marks");
        }
        if t.rules().flip.is_some() && !m.is_pass() {
            self.unflip();
        }
        if u.wall != u16::MAX {
            self.board[u.wall as usize] = 0;
        }
        // The explosion first: it came last, and it may have removed the mover itself.
        if u.blast != u32::MAX {
            self.put_back_removed(u.blast);
        }
        match m.kind {
            MoveKind::Drop => {
                self.lift(m.to.raw());
                if !t.variant().piece(m.piece).drops.unlimited {
                    let i = self.hand_slot(self.stm, m.piece);
                    self.hands[i] += 1;
                }
            }
            MoveKind::Castle(id) | MoveKind::CastleGate(id, ..) => {
                let r = &t.castling(id).rule;
                let k = self.lift(r.king_to.raw());
                let p = self.lift(r.partner_to.raw());
                self.place(r.king_from.raw(), k);
                self.place(r.partner_from.raw(), p);
            }
            MoveKind::Shot | MoveKind::Pass => {}
            MoveKind::Promote => {
                self.lift(m.to.raw());
                let c = self.cell(Piece {
                    side: self.stm,
                    kind: m.piece,
                });
                self.place(m.from.raw(), c);
            }
            MoveKind::Normal
            | MoveKind::Passing(_)
            | MoveKind::CaptureAt(_)
            | MoveKind::Gate(_)
            | MoveKind::Double(_) => {
                let c = self.lift(m.to.raw());
                let c = if m.promotion.is_some() {
                    self.cell(Piece {
                        side: self.stm,
                        kind: m.piece,
                    })
                } else {
                    c
                };
                self.place(m.from.raw(), c);
            }
        }
        while self.removed.len() > u.removed as usize {
            let (sq, c) = self.removed.pop().expect("checked above");
            self.place(sq, c);
            let kind = self.cell_kind(c);
            if t.rules().captures_to_hand && !t.royal(kind) {
                let i = self.hand_slot(self.stm, t.demoted(kind));
                self.hands[i] -= 1;
            }
        }
        self.ep_targets.truncate(u.ep_targets as usize);
        self.ep = u.ep;
        if u.unmoved_lost != 0 {
            let (a, b) = touched(t, &m).expect("only moves that touch squares clear marks");
            if u.unmoved_lost & 1 != 0 {
                self.unmoved.insert(a);
            }
            if u.unmoved_lost & 2 != 0 {
                self.unmoved.insert(b);
            }
        }
        self.halfmove = u.halfmove;
        self.hash = u.hash;
        self.struck = u.struck;
        if u.checked {
            self.checks[self.stm.index()] -= 1;
        }
    }
}
