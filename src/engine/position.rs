//! The position: a mailbox board with piece lists, hands, piece state, hash and undo stack.

use std::sync::Arc;

use super::mv::Move;
use super::setup::Setup;
use super::zobrist::{hand_key, Keys};
use crate::model::{Condition, KindSet, PieceKind, Side, Square, SquareSet, Tables, Way};

/// A piece of a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose.
    pub side: Side,
    /// What.
    pub kind: PieceKind,
}

/// Tables and keys shared by every position of one compiled variant.
pub(crate) struct Shared {
    pub(crate) t: Tables,
    pub(crate) keys: Keys,
    pub(crate) cell_kind: Vec<u8>,
    pub(crate) cell_side: Vec<u8>,
    /// The cell of each (kind, side), by `kind * sides + side`.
    pub(crate) cell_of: Vec<u8>,
}

/// The en-passant targets a move left: a run of [`Position::ep_targets`] and the piece that
/// passed them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EnPassant {
    pub(super) start: u32,
    pub(super) len: u16,
    pub(crate) victim: Square,
}

/// The length of an undo stack, as the undo entries keep it: a game would need billions of
/// plies to outgrow it.
#[inline]
pub(crate) fn stack_mark(len: usize) -> u32 {
    u32::try_from(len).expect("an undo stack holds fewer than 2^32 entries")
}

#[derive(Clone, Debug)]
pub(crate) struct Undo {
    pub(crate) mv: Move,
    /// Length of [`Position::removed`] before the move: what lies above was taken by it.
    pub(super) removed: u32,
    pub(super) ep: Option<EnPassant>,
    /// Length of [`Position::ep_targets`] before the move.
    pub(super) ep_targets: u32,
    /// Which of the move's [`touched`] squares lost their unmoved mark (bit 0, bit 1).
    pub(super) unmoved_lost: u8,
    pub(super) halfmove: u32,
    pub(crate) hash: u64,
    /// Whether the move gave check, under a `checks` rule.
    pub(super) checked: bool,
    /// Length of [`Position::removed`] when the move's explosion began (`u32::MAX`: none).
    pub(super) blast: u32,
    /// Whether the move dropped castling marks beyond its own squares, saved on
    /// [`Position::saved_marks`].
    pub(super) marks_saved: bool,
    /// The side that made the move.
    pub(super) mover: Side,
    /// [`Position::out`] before the move.
    pub(super) out: u8,
    /// Length of [`Position::removed`] when the pieces of sides put out by the turn were
    /// taken off (`u32::MAX`: none were).
    pub(super) cleared: u32,
    /// The square the move left a wall on (`u16::MAX`: none).
    pub(super) wall: u16,
    /// [`Position::struck`] before the move.
    pub(super) struck: Option<Square>,
}

pub(crate) use crate::model::WALL;

/// A game position of a compiled variant.
#[derive(Clone)]
pub struct Position {
    pub(super) sh: Arc<Shared>,
    pub(super) board: Vec<u8>,
    pub(super) plist: Vec<Vec<u16>>,
    pub(super) pidx: Vec<usize>,
    pub(super) royals: Vec<Vec<u16>>,
    /// Pieces in hand per (side, kind).
    pub(super) hands: Vec<u16>,
    pub(super) stm: Side,
    /// The last answer of [`Position::in_check`], with the hash it was for: the search asks
    /// it of the same position several times (parent and child, move generation).
    pub(super) check_memo: std::cell::Cell<(u64, bool)>,
    pub(super) ep: Option<EnPassant>,
    /// En-passant target squares, a stack: the current ones are the run [`EnPassant`] names.
    pub(super) ep_targets: Vec<Square>,
    /// Tracked squares whose piece has not moved since the start position.
    pub(super) unmoved: SquareSet,
    /// Pieces taken off the board by the moves played, with their squares, a stack.
    pub(super) removed: Vec<(u16, u8)>,
    /// The unmoved marks before each explosion still on the undo stack.
    pub(super) blast_unmoved: Vec<SquareSet>,
    /// The unmoved marks before each move that dropped marks of other squares (a right that
    /// died with its king's first move), still on the undo stack.
    pub(super) saved_marks: Vec<SquareSet>,
    /// Under `each move moves the wall`: the walls each move took away, then their count, a
    /// stack.
    pub(super) lifted_walls: Vec<u16>,
    /// Under `moves flip ... enemies`: the pieces each move flipped, as they were, then their
    /// count (`u16::MAX` and the count), a stack.
    pub(super) flipped: Vec<(u16, u8)>,
    pub(super) halfmove: u32,
    pub(super) fullmove: u32,
    pub(super) hash: u64,
    pub(super) undo: Vec<Undo>,
    /// Whether the side that made each move gave check with it (for perpetual-check rules).
    pub(super) gave_check: Vec<bool>,
    /// Checks given per side, under a `checks` rule.
    pub(super) checks: Vec<u8>,
    /// The sides out of the running, a bit per side (more than two sides).
    pub(super) out: u8,
    /// The sides out of the running whose pieces neither move nor attack: `out` under
    /// `eliminated pieces removed` or `frozen`, else nothing.
    pub(super) benched: u8,
    /// Under `counter-strike`: where the last move captured such a piece with a piece of
    /// another kind; the side to move may then take one only with one.
    pub(super) struck: Option<Square>,
    /// Terms per (cell, square) whose sums over each side's pieces are kept as pieces come
    /// and go ([`Position::track`]), and those sums per side.
    pub(super) terms: Option<CellTerms>,
    pub(super) term_sums: Vec<[i32; TERMS]>,
}

/// How many terms a [`CellTerms`] table holds per cell and square.
pub(crate) const TERMS: usize = 4;

/// Terms per (cell, square), at `cell * squares + square`: what a piece of that cell standing
/// there adds to its side's sums (the evaluation's material and square tables, and the terms
/// of its structure key).
pub(crate) type CellTerms = Arc<[[i32; TERMS]]>;

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Position")
            .field("variant", &self.sh.t.variant().name())
            .field("fen", &self.fen())
            .field("ply", &self.undo.len())
            .finish()
    }
}

impl Position {
    /// The start position of a compiled variant.
    pub fn new(tables: Tables) -> Position {
        let mut p = Position::placed(Setup::start(tables));
        // Castling squares keep the mark only where a right uses it.
        p.settle_castling_marks();
        p.rehash();
        p.settle_turn(false);
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
            check_memo: std::cell::Cell::new((u64::MAX, false)),
            ep: None,
            ep_targets: Vec::new(),
            unmoved: SquareSet::EMPTY,
            removed: Vec::new(),
            blast_unmoved: Vec::new(),
            saved_marks: Vec::new(),
            lifted_walls: Vec::new(),
            flipped: Vec::new(),
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            undo: Vec::with_capacity(256),
            gave_check: Vec::new(),
            checks: vec![0; sides],
            out: 0,
            benched: 0,
            struck: None,
            terms: None,
            term_sums: Vec::new(),
            sh,
        }
    }

    /// From now on keeps, per side, the sums of `terms` over its pieces on the board, updated
    /// as each piece is placed or lifted (so that an evaluation need not add them up at every
    /// node). `terms` holds an entry per cell and square.
    pub(crate) fn track(&mut self, terms: CellTerms) {
        assert_eq!(
            terms.len(),
            self.sh.cell_side.len() * self.board.len(),
            "an entry per cell and square"
        );
        self.term_sums = (0..self.sh.t.sides())
            .map(|side| self.add_up(&terms, side))
            .collect();
        self.terms = Some(terms);
    }

    /// The sums of `terms` (an entry per cell and square) over `side`'s pieces on the board,
    /// added up afresh.
    pub(crate) fn add_up(&self, terms: &[[i32; TERMS]], side: usize) -> [i32; TERMS] {
        let n = self.board.len();
        let mut sums = [0; TERMS];
        for &sq in &self.plist[side] {
            let entry = terms[usize::from(self.board[sq as usize]) * n + sq as usize];
            for (sum, x) in sums.iter_mut().zip(entry) {
                *sum += x;
            }
        }
        sums
    }

    /// The per-side sums of `terms`, if this position tracks that very table.
    #[inline]
    pub(crate) fn tracked(&self, terms: &CellTerms) -> Option<&[[i32; TERMS]]> {
        self.terms
            .as_ref()
            .is_some_and(|t| Arc::ptr_eq(t, terms))
            .then_some(&self.term_sums[..])
    }

    /// Adds (or with `sign` -1 takes away) the tracked terms of cell `c` on `sq`.
    #[inline]
    fn count_terms(&mut self, side: usize, sq: u16, c: u8, sign: i32) {
        if let Some(terms) = &self.terms {
            let entry = terms[c as usize * self.board.len() + sq as usize];
            for (sum, x) in self.term_sums[side].iter_mut().zip(entry) {
                *sum += sign * x;
            }
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
        (c != 0 && c != WALL).then(|| self.decode(c))
    }

    /// Whether a wall stands on `sq`.
    #[inline]
    pub fn is_wall(&self, sq: Square) -> bool {
        self.board[sq.index()] == WALL
    }

    /// Builds a wall on the empty square `sq`.
    pub(super) fn build_wall(&mut self, sq: u16) {
        debug_assert_eq!(self.board[sq as usize], 0);
        self.board[sq as usize] = WALL;
        self.hash ^= self.sh.keys.wall[sq as usize];
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
        self.sh.cell_of[p.kind.index() * self.sh.t.sides() + p.side.index()]
    }

    /// The kind of the piece in cell `c` (not empty).
    #[inline]
    pub(crate) fn cell_kind(&self, c: u8) -> PieceKind {
        PieceKind::from_raw(self.sh.cell_kind[c as usize])
    }

    /// The Zobrist key of a piece of cell `c` standing on `sq`.
    pub(crate) fn cell_key(&self, c: usize, sq: usize) -> u64 {
        self.sh.keys.piece[c * self.board.len() + sq]
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

    /// Whether `side` is out of the running: with more than two sides, it holds no royal
    /// piece (where the start gave it one) or lost on its turn, and the others play on.
    pub fn is_out(&self, side: Side) -> bool {
        self.marked_out(side)
            || (self.sh.t.sides() > 2
                && self.sh.t.royal_at_start()
                && self.royals[side.index()].is_empty())
    }

    /// Whether `side` is in the out set (not counting a side without royals that no turn has
    /// settled yet).
    #[inline]
    pub(super) fn marked_out(&self, side: Side) -> bool {
        self.out >> side.index() & 1 != 0
    }

    /// Whether `side`'s pieces neither move nor attack: out, under `eliminated pieces removed`
    /// or `frozen`.
    #[inline]
    pub(super) fn benched(&self, side: Side) -> bool {
        self.benched >> side.index() & 1 != 0
    }

    /// The sides still in the running, in turn order.
    pub(super) fn running(&self) -> Vec<Side> {
        Side::all(self.sh.t.sides())
            .filter(|&s| !self.is_out(s))
            .collect()
    }

    /// The side after `side` in turn order.
    #[inline]
    pub fn next_side(&self, side: Side) -> Side {
        let next = side.index() + 1;
        Side::nth(if next == self.sh.t.sides() { 0 } else { next })
    }

    /// The side that made the last move: the one before the side to move in turn order,
    /// unless sides were passed over since (more than two sides).
    #[inline]
    pub fn last_mover(&self) -> Side {
        match self.undo.last() {
            Some(u) if self.sh.t.sides() > 2 => u.mover,
            _ => self.previous_side(self.stm),
        }
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
    pub(super) fn put(&mut self, sq: Square, p: Piece) {
        let c = self.cell(p);
        self.place(sq.raw(), c);
    }

    #[inline]
    pub(crate) fn place(&mut self, sq: u16, c: u8) {
        debug_assert_eq!(self.board[sq as usize], 0);
        self.board[sq as usize] = c;
        let side = self.sh.cell_side[c as usize] as usize;
        let kind = self.cell_kind(c);
        self.pidx[sq as usize] = self.plist[side].len();
        self.plist[side].push(sq);
        if self.sh.t.royal(kind) {
            self.royals[side].push(sq);
        }
        self.hash ^= self.sh.keys.piece[c as usize * self.board.len() + sq as usize];
        self.count_terms(side, sq, c, 1);
    }

    #[inline]
    pub(crate) fn lift(&mut self, sq: u16) -> u8 {
        let c = self.board[sq as usize];
        debug_assert_ne!(c, 0);
        self.board[sq as usize] = 0;
        let side = self.sh.cell_side[c as usize] as usize;
        let kind = self.cell_kind(c);
        let i = self.pidx[sq as usize];
        let list = &mut self.plist[side];
        let last = list.pop().expect("piece list holds the lifted piece");
        if last != sq {
            list[i] = last;
            self.pidx[last as usize] = i;
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
        self.count_terms(side, sq, c, -1);
        c
    }

    #[inline]
    pub(super) fn hand_slot(&self, side: Side, kind: PieceKind) -> usize {
        side.index() * self.sh.t.kinds() + kind.index()
    }

    /// Adds one piece to (or, with `take`, removes one from) a hand, keeping the hash.
    #[inline]
    pub(super) fn hand_change(&mut self, side: Side, kind: PieceKind, take: bool) {
        let i = self.hand_slot(side, kind);
        let old = self.hands[i];
        let new = if take { old - 1 } else { old + 1 };
        self.hash ^= hand_key(self.sh.keys.hand[i], old) ^ hand_key(self.sh.keys.hand[i], new);
        self.hands[i] = new;
    }

    /// The part of the hash that depends on which tracked pieces are unmoved: one key per live
    /// castling right (so positions with equal rights are equal, whatever else is unmoved) and
    /// one per unmoved piece whose own patterns ask.
    pub(super) fn state_key(&self) -> u64 {
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
            if c == WALL {
                h ^= self.sh.keys.wall[sq];
            } else if c != 0 {
                h ^= self.sh.keys.piece[c as usize * n + sq];
            }
        }
        for (i, &count) in self.hands.iter().enumerate() {
            h ^= hand_key(self.sh.keys.hand[i], count);
        }
        for (i, &count) in self.checks.iter().enumerate() {
            h ^= hand_key(self.sh.keys.checks[i], count as u16);
        }
        for (side, &key) in Side::all(self.sh.t.sides()).zip(&self.sh.keys.out) {
            if self.marked_out(side) {
                h ^= key;
            }
        }
        h ^= self.state_key();
        if self.struck.is_some() {
            h ^= self.sh.keys.struck;
        }
        if let Some((targets, _)) = self.en_passant() {
            for t in targets {
                h ^= self.sh.keys.ep[t.index()];
            }
        }
        self.hash = h;
    }

    /// Under `counter-strike`: the square where the last move captured such a piece with a
    /// piece of another kind (the side to move may take one only with one), if it did.
    pub fn struck(&self) -> Option<Square> {
        self.struck
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
        let counts = |c: u8, friendly: KindSet, enemy: KindSet| {
            let kinds = if self.cell_side(c) == side {
                friendly
            } else {
                enemy
            };
            kinds.contains(self.cell_kind(c))
        };
        if let Some(h) = t.holding(target) {
            let part = t.part_of(h.partition, side, to);
            // A friendly-only list (king zones) needs only the side's own pieces.
            let lists = if h.enemy.is_empty() {
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
                    c != 0 && c != WALL && counts(c, e.friendly, e.enemy)
                })
        })
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
    /// (a later piece on the same square replaces an earlier one, and a hole stays empty).
    pub fn only(&self, pieces: &[(Square, Piece)]) -> Position {
        let mut s = self.empty_setup();
        for &(sq, piece) in pieces {
            // A hole is the one square refused: it stays empty, as on the board.
            let _ = s.replace(sq, piece);
        }
        s.mark_tracked_unmoved();
        if let Some(&(_, first)) = pieces.first() {
            s.set_side_to_move(first.side);
        }
        Position::placed(s)
    }

    /// The move that led here, if one was played since the position was set up.
    pub fn last_move(&self) -> Option<Move> {
        self.earlier_move(0).map(|(_, m)| m)
    }

    /// The move played `back` plies before the last one (0: the last), with the side that
    /// made it, if that many were played since the position was set up.
    pub fn earlier_move(&self, back: usize) -> Option<(Side, Move)> {
        let u = self.undo.iter().rev().nth(back)?;
        Some((u.mover, u.mv))
    }

    /// Number of plies played from the position this one was set up from.
    pub fn ply(&self) -> usize {
        self.undo.len()
    }

    /// Sets the en-passant targets a setup names (the caller checked them).
    pub(super) fn set_en_passant_targets(&mut self, targets: &[Square], victim: Square) {
        self.ep_targets.clear();
        self.ep_targets.extend_from_slice(targets);
        self.ep_targets.sort();
        self.ep = (!targets.is_empty()).then_some(EnPassant {
            start: 0,
            len: u16::try_from(targets.len()).expect("fewer targets than squares"),
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
        let cell_of = (1..cells)
            .map(|c| u8::try_from(c).expect("the checker bounds kinds times sides"))
            .collect();
        for k in 0..t.kinds() {
            for s in 0..sides {
                cell_kind[1 + k * sides + s] = PieceKind::nth(k).raw();
                cell_side[1 + k * sides + s] = Side::nth(s).raw();
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
            cell_of,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::MoveKind;

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
            wall: None,
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

    /// The continuation history reads the moves before the last one by how far back they were.
    #[test]
    fn earlier_moves_come_back_with_their_movers() {
        let mut pos = chess("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let mut played = Vec::new();
        for text in ["a1a5", "e8d7", "a5a6"] {
            let m = crate::engine::notation::parse_coord(&pos, text).unwrap();
            played.push((pos.side_to_move(), m));
            pos.play(m);
        }
        for back in 0..3 {
            assert_eq!(pos.earlier_move(back), Some(played[2 - back]));
        }
        assert_eq!(pos.earlier_move(3), None);
        assert_ne!(played[0].0, played[1].0);
        pos.undo_move();
        assert_eq!(pos.earlier_move(0), Some(played[1]));
    }
}
