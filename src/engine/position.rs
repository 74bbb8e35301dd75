//! The position: a mailbox board with piece lists, hands, piece state, hash and undo stack.

use std::sync::Arc;

use super::mv::{Move, MoveKind};
use super::zobrist::{hand_key, Keys};
use crate::model::{
    Condition, Immunity, PathFlags, PieceKind, Route, RoyalGuard, Side, Square, SquareSet, Tables,
    Way,
};

use super::movegen::KING_STEPS;

/// A piece of a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose.
    pub side: Side,
    /// What.
    pub kind: PieceKind,
}

/// The most pieces a position's hands may hold in all. Hands only grow by captures from the
/// board, so counts stay far below what they are stored in.
pub const MAX_IN_HANDS: usize = 1000;

/// Tables and keys shared by every position of one compiled variant.
pub(crate) struct Shared {
    pub(crate) t: Tables,
    pub(crate) keys: Keys,
    pub(crate) cell_kind: Vec<u8>,
    pub(crate) cell_side: Vec<u8>,
}

/// The en-passant targets a move left: a run of [`Position::ep_targets`] and the piece that
/// passed them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EnPassant {
    start: u32,
    len: u16,
    pub(crate) victim: Square,
}

#[derive(Clone, Debug)]
pub(crate) struct Undo {
    pub(crate) mv: Move,
    /// Length of [`Position::removed`] before the move: what lies above was taken by it.
    removed: u32,
    ep: Option<EnPassant>,
    /// Length of [`Position::ep_targets`] before the move.
    ep_targets: u32,
    /// Which of the move's [`touched`] squares lost their unmoved mark (bit 0, bit 1).
    unmoved_lost: u8,
    halfmove: u32,
    pub(crate) hash: u64,
    /// Whether the move gave check, under a `checks` rule.
    checked: bool,
    /// Length of [`Position::removed`] when the move's explosion began (`u32::MAX`: none).
    blast: u32,
    /// Whether the move dropped castling marks beyond its own squares, saved on
    /// [`Position::saved_marks`].
    marks_saved: bool,
}

/// A game position of a compiled variant.
#[derive(Clone)]
pub struct Position {
    pub(crate) sh: Arc<Shared>,
    pub(crate) board: Vec<u8>,
    pub(crate) plist: Vec<Vec<u16>>,
    pub(crate) pidx: Vec<u16>,
    pub(crate) royals: Vec<Vec<u16>>,
    /// Pieces in hand per (side, kind).
    hands: Vec<u16>,
    pub(crate) stm: Side,
    pub(crate) ep: Option<EnPassant>,
    /// En-passant target squares, a stack: the current ones are the run [`EnPassant`] names.
    ep_targets: Vec<Square>,
    /// Tracked squares whose piece has not moved since the start position.
    pub(crate) unmoved: SquareSet,
    /// Pieces taken off the board by the moves played, with their squares, a stack.
    removed: Vec<(u16, u8)>,
    /// The unmoved marks before each explosion still on the undo stack.
    blast_unmoved: Vec<SquareSet>,
    /// The unmoved marks before each move that dropped marks of other squares (a right that
    /// died with its king's first move), still on the undo stack.
    saved_marks: Vec<SquareSet>,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
    pub(crate) undo: Vec<Undo>,
    /// Whether the side that made each move gave check with it (for perpetual-check rules).
    pub(crate) gave_check: Vec<bool>,
    /// Checks given per side, under a `checks` rule.
    pub(crate) checks: Vec<u8>,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Position")
            .field("variant", &self.sh.t.variant().name())
            .field("fen", &self.fen())
            .field("ply", &self.undo.len())
            .finish()
    }
}

/// The squares whose piece a move takes away or moves, whose "unmoved" mark it clears.
#[inline]
fn touched(t: &Tables, m: &Move) -> Option<(Square, Square)> {
    match m.kind {
        MoveKind::Normal | MoveKind::Passing(_) => Some((m.from, m.to)),
        MoveKind::CaptureAt(victim) => Some((m.from, victim)),
        MoveKind::Shot => Some((m.to, m.to)),
        MoveKind::Drop => None,
        MoveKind::Castle(id) => {
            let r = &t.castling(id).rule;
            Some((r.king_from, r.partner_from))
        }
    }
}

impl Position {
    /// The start position of a compiled variant.
    pub fn new(tables: Tables) -> Position {
        let mut p = Position::empty(Arc::new(Shared::new(tables)));
        let setup = p.sh.t.setup().to_vec();
        for pl in setup {
            p.put(
                pl.square,
                Piece {
                    side: pl.side,
                    kind: pl.piece,
                },
            );
        }
        for (side, kind) in p.sh.t.setup_hand().to_vec() {
            let i = p.hand_slot(side, kind);
            p.hands[i] += 1;
        }
        // Every tracked piece is unmoved at the start; castling squares keep the mark where a
        // right uses it.
        for sq in p.sh.t.tracked_squares().iter() {
            if p.board[sq.index()] != 0 {
                p.unmoved.insert(sq);
            }
        }
        p.settle_castling_marks();
        p.rehash();
        p
    }

    pub(crate) fn empty(sh: Arc<Shared>) -> Position {
        let n = sh.t.geometry().len();
        let sides = sh.t.sides();
        let kinds = sh.t.kinds();
        Position {
            board: vec![0; n],
            plist: vec![Vec::with_capacity(64); sides],
            pidx: vec![0; n],
            royals: vec![Vec::new(); sides],
            hands: vec![0; sides * kinds],
            stm: Side::FIRST,
            ep: None,
            ep_targets: Vec::new(),
            unmoved: SquareSet::EMPTY,
            removed: Vec::new(),
            blast_unmoved: Vec::new(),
            saved_marks: Vec::new(),
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            undo: Vec::with_capacity(256),
            gave_check: Vec::new(),
            checks: vec![0; sides],
            sh,
        }
    }

    /// The compiled tables.
    pub fn tables(&self) -> &Tables {
        &self.sh.t
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.stm
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let c = self.board[sq.index()];
        (c != 0).then(|| self.decode(c))
    }

    #[inline]
    pub(crate) fn decode(&self, c: u8) -> Piece {
        Piece {
            side: Side::from_raw(self.sh.cell_side[c as usize]),
            kind: PieceKind::from_raw(self.sh.cell_kind[c as usize]),
        }
    }

    #[inline]
    pub(crate) fn cell(&self, p: Piece) -> u8 {
        (1 + p.kind.index() * self.sh.t.sides() + p.side.index()) as u8
    }

    /// The kind of the piece in cell `c` (not empty).
    #[inline]
    pub(crate) fn cell_kind(&self, c: u8) -> PieceKind {
        PieceKind::from_raw(self.sh.cell_kind[c as usize])
    }

    /// The side of the piece in cell `c` (not empty).
    #[inline]
    pub(crate) fn cell_side(&self, c: u8) -> Side {
        Side::from_raw(self.sh.cell_side[c as usize])
    }

    /// How many pieces of `kind` `side` holds in hand.
    pub fn in_hand(&self, side: Side, kind: PieceKind) -> u16 {
        self.hands[side.index() * self.sh.t.kinds() + kind.index()]
    }

    /// The position's hash key.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Plies since the last capture or clock-resetting move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The move number, starting at 1 and increasing after the last side moves.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Squares of `side`'s royal pieces.
    pub fn royal_squares(&self, side: Side) -> impl Iterator<Item = Square> + '_ {
        self.royals[side.index()].iter().map(|&s| Square::at(s))
    }

    /// Whether the piece on `sq` has stood there since the start position, as far as a rule of
    /// the variant asks (castling squares, start squares of pieces with first-move patterns);
    /// `false` on any other square.
    pub fn is_unmoved(&self, sq: Square) -> bool {
        self.unmoved.contains(sq)
    }

    /// The en-passant target squares, in square order, and the square of the piece that
    /// passed them.
    pub fn en_passant(&self) -> Option<(&[Square], Square)> {
        self.ep.map(|ep| {
            (
                &self.ep_targets[ep.start as usize..ep.start as usize + ep.len as usize],
                ep.victim,
            )
        })
    }

    /// The side after `side` in turn order.
    #[inline]
    pub fn next_side(&self, side: Side) -> Side {
        let next = side.index() + 1;
        Side::nth(if next == self.sh.t.sides() { 0 } else { next })
    }

    /// The side before `side` in turn order.
    #[inline]
    pub fn previous_side(&self, side: Side) -> Side {
        Side::nth(match side.index() {
            0 => self.sh.t.sides() - 1,
            s => s - 1,
        })
    }

    /// Places a piece (replacing nothing: the square must be empty).
    pub(crate) fn put(&mut self, sq: Square, p: Piece) {
        let c = self.cell(p);
        self.place(sq.raw(), c);
    }

    #[inline]
    pub(crate) fn place(&mut self, sq: u16, c: u8) {
        debug_assert_eq!(self.board[sq as usize], 0);
        self.board[sq as usize] = c;
        let side = self.sh.cell_side[c as usize] as usize;
        let kind = self.cell_kind(c);
        self.pidx[sq as usize] = self.plist[side].len() as u16;
        self.plist[side].push(sq);
        if self.sh.t.royal(kind) {
            self.royals[side].push(sq);
        }
        self.hash ^= self.sh.keys.piece[c as usize * self.board.len() + sq as usize];
    }

    #[inline]
    pub(crate) fn lift(&mut self, sq: u16) -> u8 {
        let c = self.board[sq as usize];
        debug_assert_ne!(c, 0);
        self.board[sq as usize] = 0;
        let side = self.sh.cell_side[c as usize] as usize;
        let kind = self.cell_kind(c);
        let i = self.pidx[sq as usize] as usize;
        let list = &mut self.plist[side];
        let last = list.pop().expect("piece list holds the lifted piece");
        if last != sq {
            list[i] = last;
            self.pidx[last as usize] = i as u16;
        }
        if self.sh.t.royal(kind) {
            let r = &mut self.royals[side];
            let j = r
                .iter()
                .position(|&s| s == sq)
                .expect("royal list holds the royal");
            r.swap_remove(j);
        }
        self.hash ^= self.sh.keys.piece[c as usize * self.board.len() + sq as usize];
        c
    }

    #[inline]
    fn hand_slot(&self, side: Side, kind: PieceKind) -> usize {
        side.index() * self.sh.t.kinds() + kind.index()
    }

    /// Adds one piece to (or, with `take`, removes one from) a hand, keeping the hash.
    #[inline]
    fn hand_change(&mut self, side: Side, kind: PieceKind, take: bool) {
        let i = self.hand_slot(side, kind);
        let old = self.hands[i];
        let new = if take { old - 1 } else { old + 1 };
        self.hash ^= hand_key(self.sh.keys.hand[i], old) ^ hand_key(self.sh.keys.hand[i], new);
        self.hands[i] = new;
    }

    pub(crate) fn set_hand(&mut self, side: Side, kind: PieceKind, count: u16) {
        let i = self.hand_slot(side, kind);
        self.hands[i] = count;
    }

    /// The part of the hash that depends on which tracked pieces are unmoved: one key per live
    /// castling right (so positions with equal rights are equal, whatever else is unmoved) and
    /// one per unmoved piece whose own patterns ask.
    fn state_key(&self) -> u64 {
        let t = &self.sh.t;
        let mut h = 0;
        for (i, r) in t.rules().rights.iter().enumerate() {
            if self.unmoved.contains(r.king) && self.unmoved.contains(r.partner) {
                h ^= self.sh.keys.castle[i];
            }
        }
        for sq in t.first_move_squares().iter() {
            if self.unmoved.contains(sq) {
                h ^= self.sh.keys.unmoved[sq.index()];
            }
        }
        h
    }

    /// Recomputes the hash from scratch.
    pub(crate) fn rehash(&mut self) {
        let n = self.board.len();
        let mut h = self.sh.keys.side[self.stm.index()];
        for (sq, &c) in self.board.iter().enumerate() {
            if c != 0 {
                h ^= self.sh.keys.piece[c as usize * n + sq];
            }
        }
        for (i, &count) in self.hands.iter().enumerate() {
            h ^= hand_key(self.sh.keys.hand[i], count);
        }
        for (i, &count) in self.checks.iter().enumerate() {
            h ^= hand_key(self.sh.keys.checks[i], count as u16);
        }
        h ^= self.state_key();
        if let Some((targets, _)) = self.en_passant() {
            for t in targets {
                h ^= self.sh.keys.ep[t.index()];
            }
        }
        self.hash = h;
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
        let sh = Arc::clone(&self.sh);
        let t = &sh.t;
        let mut undo = Undo {
            mv: m,
            removed: self.removed.len() as u32,
            ep: self.ep,
            ep_targets: self.ep_targets.len() as u32,
            unmoved_lost: 0,
            halfmove: self.halfmove,
            hash: self.hash,
            checked: false,
            blast: u32::MAX,
            marks_saved: false,
        };
        // Drops and promotions cannot be undone, so no earlier position can come back.
        let mut reset = t.resets_clock(m.piece) || m.promotion.is_some() || m.is_drop();
        match m.kind {
            MoveKind::Drop => {
                self.hand_change(self.stm, m.piece, true);
                let c = self.cell(Piece {
                    side: self.stm,
                    kind: m.placed(),
                });
                self.place(m.to.raw(), c);
            }
            MoveKind::Castle(id) => {
                let r = &t.castling(id).rule;
                let k = self.lift(r.king_from.raw());
                let p = self.lift(r.partner_from.raw());
                self.place(r.king_to.raw(), k);
                self.place(r.partner_to.raw(), p);
            }
            MoveKind::Shot => {
                self.capture(m.to.raw());
                reset = true;
                if t.rules().explosions {
                    undo.blast = self.explode(m.to);
                }
            }
            MoveKind::Normal | MoveKind::Passing(_) | MoveKind::CaptureAt(_) => {
                let victim = m.capture_square().expect("these moves may capture");
                let captured = self.board[victim.index()] != 0;
                if captured {
                    self.capture(victim.raw());
                    reset = true;
                }
                let c = self.lift(m.from.raw());
                let c = match m.promotion {
                    Some(k) => self.cell(Piece {
                        side: self.stm,
                        kind: k,
                    }),
                    None => c,
                };
                self.place(m.to.raw(), c);
                if captured && t.rules().explosions {
                    undo.blast = self.explode(m.to);
                }
            }
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
        if t.aims(m.piece) && self.lose_to_aim(m, undo.marks_saved) {
            undo.marks_saved = true;
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

    /// The explosion of a capture on `at`: removes the piece on `at` and every piece one king
    /// step away, except what their immunity spares; the removed pieces leave the game (no
    /// hand). Returns the length of [`Position::removed`] before it, for the undo.
    fn explode(&mut self, at: Square) -> u32 {
        let sh = Arc::clone(&self.sh);
        let t = &sh.t;
        let g = t.geometry();
        let start = self.removed.len() as u32;
        let before = self.state_key();
        self.blast_unmoved.push(self.unmoved);
        let around = KING_STEPS
            .iter()
            .filter_map(|&(dx, dy)| g.offset(at, dx, dy));
        for sq in around.chain(std::iter::once(at)) {
            let c = self.board[sq.index()];
            if c == 0 {
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
                if c == 0 {
                    return false;
                }
                let p = self.decode(c);
                p.side != me
                    && t.variant().piece(p.kind).unmoved_lost_to.contains(&m.piece)
                    && t.ways(m.piece, me, m.to, sq)
                        .iter()
                        .any(|w| w.flags().has(PathFlags::CAPTURE))
            })
            .collect();
        if aimed.is_empty() {
            return false;
        }
        let before = self.state_key();
        if !already_saved {
            self.saved_marks.push(self.unmoved);
        }
        for sq in aimed {
            self.unmoved.remove(sq);
        }
        self.hash ^= before ^ self.state_key();
        true
    }

    /// Keeps the marks of castling squares only where a right is alive (both its pieces in
    /// place and unmoved), so that positions with equal rights have equal marks whichever way
    /// they were reached (a FEN marks only the squares of its rights). Marks of pieces whose
    /// own patterns ask stay. Returns whether any mark went.
    fn settle_castling_marks(&mut self) -> bool {
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
                start: start as u32,
                len: (self.ep_targets.len() - start) as u16,
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
                        && t.ways(kind, s, from, target)
                            .iter()
                            .any(|w| w.flags().has(PathFlags::TAKES_EP) && self.way_usable(w, from))
                })
            })
    }

    /// Takes back the last move made with [`Position::make`].
    pub(crate) fn unmake(&mut self) {
        let u = self.undo.pop().expect("unmake follows make");
        let m = u.mv;
        if self.stm.index() == 0 {
            self.fullmove -= 1;
        }
        self.stm = self.previous_side(self.stm);
        let sh = Arc::clone(&self.sh);
        let t = &sh.t;
        if u.marks_saved {
            self.unmoved = self.saved_marks.pop().expect("the move saved its marks");
        }
        // The explosion first: it came last, and it may have removed the mover itself.
        if u.blast != u32::MAX {
            while self.removed.len() > u.blast as usize {
                let (sq, c) = self.removed.pop().expect("checked above");
                self.place(sq, c);
            }
            self.unmoved = self
                .blast_unmoved
                .pop()
                .expect("an explosion saved its marks");
        }
        match m.kind {
            MoveKind::Drop => {
                self.lift(m.to.raw());
                let i = self.hand_slot(self.stm, m.piece);
                self.hands[i] += 1;
            }
            MoveKind::Castle(id) => {
                let r = &t.castling(id).rule;
                let k = self.lift(r.king_to.raw());
                let p = self.lift(r.partner_to.raw());
                self.place(r.king_from.raw(), k);
                self.place(r.partner_from.raw(), p);
            }
            MoveKind::Shot => {}
            MoveKind::Normal | MoveKind::Passing(_) | MoveKind::CaptureAt(_) => {
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
        if u.checked {
            self.checks[self.stm.index()] -= 1;
        }
    }

    /// The checks `side` has given, under a `checks` rule (0 otherwise).
    pub fn checks_given(&self, side: Side) -> u8 {
        self.checks[side.index()]
    }

    /// Whether the piece on `from` may take a path with `condition` now.
    #[inline]
    pub(crate) fn condition_holds(&self, condition: Condition, from: Square) -> bool {
        match condition {
            Condition::Always => true,
            Condition::Unmoved => self.unmoved.contains(from),
            Condition::Moved => !self.unmoved.contains(from),
        }
    }

    /// Whether the piece on `from` can use `way` now: its condition holds and it is open.
    #[inline]
    pub(crate) fn way_usable(&self, way: &Way, from: Square) -> bool {
        (way.condition() == Condition::Always || self.condition_holds(way.condition(), from))
            && self.sh.t.way_open(way, &self.board)
    }

    /// Whether a move of `side` with target rule `target` may end on `to` as the pieces stand:
    /// its part must hold (or hold none of) the pieces an `into ... holding` names, and a zone
    /// with an entry condition must hold one of its pieces.
    #[inline]
    pub(crate) fn may_end_on(&self, target: u16, side: Side, to: Square) -> bool {
        let t = &self.sh.t;
        let counts = |c: u8, friendly: u128, enemy: u128| {
            let mask = if self.cell_side(c) == side {
                friendly
            } else {
                enemy
            };
            mask >> self.cell_kind(c).index() & 1 != 0
        };
        if let Some(h) = t.holding(target) {
            let part = t.part_of(h.partition, side, to);
            // A friendly-only list (king zones) needs only the side's own pieces.
            let lists = if h.enemy == 0 {
                &self.plist[side.index()..=side.index()]
            } else {
                &self.plist[..]
            };
            let held = lists.iter().flatten().any(|&s| {
                counts(self.board[s as usize], h.friendly, h.enemy)
                    && t.part_of(h.partition, side, Square::at(s)) == part
            });
            if held != h.inside {
                return false;
            }
        }
        t.entries(target).iter().all(|e| {
            let zone = t.zone(e.zone, side);
            !zone.contains(to)
                || zone.iter().any(|s| {
                    let c = self.board[s.index()];
                    c != 0 && counts(c, e.friendly, e.enemy)
                })
        })
    }

    /// Whether the piece on `from` could capture on `target` along `way` now: a capturing way,
    /// open, and allowed to take what stands there (an empty square counts as takeable, for
    /// the "would a royal be attacked there" question).
    #[inline]
    fn captures_along(&self, way: &Way, by: Side, from: Square, target: Square) -> bool {
        let t = &self.sh.t;
        way.flags().has(PathFlags::CAPTURE)
            && (way.target() == 0 || {
                let c = self.board[target.index()];
                (c == 0 || t.may_capture(way.target(), self.cell_kind(c)))
                    && self.may_end_on(way.target(), by, target)
            })
            && self.way_usable(way, from)
    }

    /// Whether `target` is attacked by any piece of `by`.
    pub fn attacked_by(&self, target: Square, by: Side) -> bool {
        self.plist[by.index()]
            .iter()
            .any(|&f| self.attacks_from(Square::at(f), by, target))
    }

    /// Whether the piece of `by` on `from` attacks `target`, with its own or borrowed powers.
    // Always inlined: `attacked_by` runs it for every piece on the legality test's hot path,
    // and measured about 10% slower on chess perft when it was a call.
    #[inline(always)]
    pub(crate) fn attacks_from(&self, from: Square, by: Side, target: Square) -> bool {
        let t = &self.sh.t;
        let kind = self.cell_kind(self.board[from.index()]);
        t.ways(kind, by, from, target)
            .iter()
            .any(|w| self.captures_along(w, by, from, target))
            || (t.borrows(kind) && self.borrowed_attack(from, by, target))
    }

    /// Whether a side other than `owner` attacks `sq`.
    pub(crate) fn attacked_by_others(&self, sq: Square, owner: Side) -> bool {
        (0..self.sh.t.sides()).any(|by| by != owner.index() && self.attacked_by(sq, Side::nth(by)))
    }

    /// The powers friendly pieces lend to the piece of `side` on `at`: for each lender kind,
    /// `MOVE` if one could move there and `CAPTURE` if one could capture there (as if `at`
    /// were empty, or held an enemy).
    pub(crate) fn lent_powers(&self, at: Square, side: Side) -> Vec<(PieceKind, PathFlags)> {
        let t = &self.sh.t;
        let mut lent: Vec<(PieceKind, PathFlags)> = Vec::new();
        for &g in &self.plist[side.index()] {
            if g == at.raw() {
                continue;
            }
            let from = Square::at(g);
            let kind = self.cell_kind(self.board[g as usize]);
            let mut mask = PathFlags::NONE;
            for w in t.ways(kind, side, from, at) {
                let m = w.flags().and(PathFlags::MODES);
                if !m.without(mask).is_empty() && self.way_usable(w, from) {
                    mask = mask.with(m);
                }
            }
            if !mask.is_empty() {
                match lent.iter_mut().find(|(k, _)| *k == kind) {
                    Some((_, m)) => *m = m.with(mask),
                    None => lent.push((kind, mask)),
                }
            }
        }
        lent
    }

    fn borrowed_attack(&self, at: Square, by: Side, target: Square) -> bool {
        let t = &self.sh.t;
        // First the cheap geometric question (could a lender's kind, standing on `at`, capture
        // on `target`?), then whether such a lender really lends its capture to `at`.
        (0..t.kinds()).any(|k| {
            let kind = PieceKind::nth(k);
            t.ways(kind, by, at, target)
                .iter()
                .any(|w| self.captures_along(w, by, at, target))
                && self.plist[by.index()].iter().any(|&g| {
                    g != at.raw()
                        && self.cell_kind(self.board[g as usize]) == kind
                        && t.ways(kind, by, Square::at(g), at).iter().any(|w| {
                            w.flags().has(PathFlags::CAPTURE) && self.way_usable(w, Square::at(g))
                        })
                })
        })
    }

    /// Whether a royal of `side` is attacked by another side. When captures explode, a royal
    /// next to an enemy royal is not: capturing it would blow up the captor's own.
    /// Under `, all royals attacked`, only when every one of them is.
    pub fn royal_attacked(&self, side: Side) -> bool {
        let explosions = self.sh.t.rules().explosions;
        let attacked = |&r: &u16| {
            !(explosions && self.next_to_enemy_royal(Square::at(r), side))
                && self.attacked_by_others(Square::at(r), side)
        };
        let royals = &self.royals[side.index()];
        if self.sh.t.rules().royal_guard == RoyalGuard::All {
            !royals.is_empty() && royals.iter().all(attacked)
        } else {
            royals.iter().any(attacked)
        }
    }

    /// Whether an enemy royal of `side` stands one king step from `sq`.
    pub(crate) fn next_to_enemy_royal(&self, sq: Square, side: Side) -> bool {
        let g = self.sh.t.geometry();
        (0..self.royals.len())
            .filter(|&s| s != side.index())
            .flat_map(|s| &self.royals[s])
            .any(|&r| {
                let r = Square::at(r);
                r != sq
                    && (g.file(r) - g.file(sq)).abs() <= 1
                    && (g.rank(r) - g.rank(sq)).abs() <= 1
            })
    }

    /// Whether a royal of `side` sees an enemy royal along a line of a facing rule.
    pub fn royals_facing(&self, side: Side) -> bool {
        let t = &self.sh.t;
        let g = t.geometry();
        let lines = &t.rules().facing[side.index()];
        self.royals[side.index()].iter().any(|&r| {
            lines.iter().any(|&(dx, dy)| {
                let mut cur = Square::at(r);
                while let Some(next) = g.offset(cur, dx, dy) {
                    let c = self.board[next.index()];
                    if c != 0 {
                        let p = self.decode(c);
                        return p.side != side && t.royal(p.kind);
                    }
                    cur = next;
                }
                false
            })
        })
    }

    /// Whether a royal of `side` standing on `sq` would see an enemy royal along a line of a
    /// facing rule, the square `vacated` counted as empty (the royal has left it).
    pub(crate) fn would_face(&self, sq: Square, side: Side, vacated: Square) -> bool {
        let t = &self.sh.t;
        let g = t.geometry();
        t.rules().facing[side.index()].iter().any(|&(dx, dy)| {
            let mut cur = sq;
            while let Some(next) = g.offset(cur, dx, dy) {
                let c = self.board[next.index()];
                if c != 0 && next != vacated {
                    let p = self.decode(c);
                    return p.side != side && t.royal(p.kind);
                }
                cur = next;
            }
            false
        })
    }

    /// Whether the rules forbid `side`'s royals to stand as they do: attacked under a
    /// checkmate rule, or facing an enemy royal under a facing rule.
    pub fn royal_exposed(&self, side: Side) -> bool {
        (self.royals_guarded(side) && self.royal_attacked(side)) || self.royals_facing(side)
    }

    /// Whether the side to move is in check (a royal attacked), under a checkmate rule.
    pub fn in_check(&self) -> bool {
        self.royals_guarded(self.stm) && self.royal_attacked(self.stm)
    }

    /// Whether `side`'s royals may not be left attacked: under a checkmate rule, and with
    /// `, last royal` only while it has one left.
    #[inline]
    pub(crate) fn royals_guarded(&self, side: Side) -> bool {
        let r = self.sh.t.rules();
        r.checkmate && (r.royal_guard != RoyalGuard::Last || self.royals[side.index()].len() == 1)
    }

    /// The same placement with `side` to move (no en-passant target), for diagrams.
    pub fn with_side_to_move(&self, side: Side) -> Position {
        let mut p = self.clone();
        p.stm = side;
        p.ep = None;
        p.undo.clear();
        p.gave_check.clear();
        p.rehash();
        p
    }

    /// An empty board of the same variant with only `piece` on `sq`, its side to move. The
    /// piece counts as unmoved where the variant tracks it.
    pub fn alone(&self, sq: Square, piece: Piece) -> Position {
        self.only(&[(sq, piece)])
    }

    /// These pieces on an otherwise empty board, none moved yet, the first one's side to move
    /// (a later piece on the same square replaces an earlier one).
    pub fn only(&self, pieces: &[(Square, Piece)]) -> Position {
        let mut p = Position::empty(Arc::clone(&self.sh));
        for &(sq, piece) in pieces {
            if p.piece_at(sq).is_some() {
                p.lift(sq.raw());
            }
            p.put(sq, piece);
            if p.sh.t.tracked_squares().contains(sq) {
                p.unmoved.insert(sq);
            }
        }
        if let Some(&(_, first)) = pieces.first() {
            p.stm = first.side;
        }
        p.rehash();
        p
    }

    /// The move that led here, if one was played since the position was set up.
    pub fn last_move(&self) -> Option<Move> {
        self.undo.last().map(|u| u.mv)
    }

    /// Number of plies played from the position this one was set up from.
    pub fn ply(&self) -> usize {
        self.undo.len()
    }

    /// Sets the en-passant targets read from a FEN (the caller checked them).
    pub(crate) fn set_en_passant_targets(&mut self, targets: &[Square], victim: Square) {
        self.ep_targets.clear();
        self.ep_targets.extend_from_slice(targets);
        self.ep_targets.sort();
        self.ep = (!targets.is_empty()).then_some(EnPassant {
            start: 0,
            len: targets.len() as u16,
            victim,
        });
    }
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.t.fmt(f)
    }
}

impl Shared {
    pub(crate) fn new(t: Tables) -> Shared {
        let sides = t.sides();
        let cells = 1 + t.kinds() * sides;
        debug_assert!(cells <= 256, "the checker bounds kinds times sides");
        let mut cell_kind = vec![0u8; cells];
        let mut cell_side = vec![0u8; cells];
        for k in 0..t.kinds() {
            for s in 0..sides {
                cell_kind[1 + k * sides + s] = k as u8;
                cell_side[1 + k * sides + s] = s as u8;
            }
        }
        let keys = Keys::new(
            cells,
            t.geometry().len(),
            sides,
            t.kinds(),
            t.rules().rights.len(),
        );
        Shared {
            t,
            keys,
            cell_kind,
            cell_side,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess(fen: &str) -> Position {
        crate::engine::shipped_position("chess.variant", fen)
    }

    /// No definition makes shots yet; the move kind is played and taken back all the same.
    #[test]
    fn a_shot_captures_without_moving_and_is_taken_back() {
        let mut pos = chess("4k3/p7/8/8/8/8/8/R3K3 w - - 0 1");
        let before = (pos.fen(), pos.hash());
        let g = pos.tables().geometry();
        let (a1, a7) = (g.parse("a1").unwrap(), g.parse("a7").unwrap());
        let rook = pos.piece_at(a1).unwrap();
        pos.make(Move {
            piece: rook.kind,
            from: a1,
            to: a7,
            promotion: None,
            kind: MoveKind::Shot,
        });
        assert_eq!(pos.piece_at(a1), Some(rook));
        assert_eq!(pos.piece_at(a7), None);
        assert_eq!(pos.halfmove_clock(), 0);
        let incremental = pos.hash();
        pos.rehash();
        assert_eq!(pos.hash(), incremental);
        pos.unmake();
        assert_eq!((pos.fen(), pos.hash()), before);
    }

    /// Castling rights live in the unmoved squares; moving a rook away and back loses them.
    #[test]
    fn unmoved_marks_follow_the_pieces() {
        let mut pos = chess("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let g = pos.tables().geometry();
        let h1 = g.parse("h1").unwrap();
        assert!(pos.is_unmoved(h1));
        for text in ["h1h2", "a8a7", "h2h1", "a7a8"] {
            let m = crate::engine::notation::parse_coord(&pos, text).unwrap();
            pos.play(m);
        }
        assert!(!pos.is_unmoved(h1));
        assert!(pos.fen().contains(" w Qk - "), "{}", pos.fen());
        let incremental = pos.hash();
        pos.rehash();
        assert_eq!(pos.hash(), incremental);
        for _ in 0..4 {
            pos.undo_move();
        }
        assert!(pos.is_unmoved(h1));
        assert!(pos.fen().contains(" w KQkq - "), "{}", pos.fen());
    }
}
