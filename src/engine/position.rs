//! The position: a mailbox board with piece lists, hands, hash and undo stack.

use std::sync::Arc;

use super::mv::{Move, MoveKind};
use super::zobrist::Keys;
use crate::model::{PieceKind, Side, Square, Tables, CAN_CAPTURE, CAN_MOVE, NO_STOP};

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
    /// Castling rights lost when a move starts or ends on a square.
    pub(crate) rights_clear: Vec<u64>,
}

#[derive(Clone, Debug)]
pub(crate) struct Undo {
    pub(crate) mv: Move,
    pub(crate) captured: u8,
    pub(crate) ep: Option<(u16, u16)>,
    pub(crate) rights: u64,
    pub(crate) halfmove: u32,
    pub(crate) hash: u64,
}

/// A game position of a compiled variant.
#[derive(Clone)]
pub struct Position {
    pub(crate) sh: Arc<Shared>,
    pub(crate) board: Vec<u8>,
    pub(crate) plist: Vec<Vec<u16>>,
    pub(crate) pidx: Vec<u16>,
    pub(crate) royals: Vec<Vec<u16>>,
    pub(crate) hands: Vec<Vec<u8>>,
    pub(crate) stm: Side,
    /// En-passant target square and the square of the piece that may be taken there.
    pub(crate) ep: Option<(u16, u16)>,
    pub(crate) rights: u64,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
    pub(crate) undo: Vec<Undo>,
    /// Whether the side that made each move gave check with it (for perpetual-check rules).
    pub(crate) gave_check: Vec<bool>,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Position")
            .field("variant", &self.sh.t.variant.name)
            .field("fen", &self.fen())
            .field("ply", &self.undo.len())
            .finish()
    }
}

impl Position {
    /// The start position of a compiled variant.
    pub fn new(tables: Tables) -> Position {
        let mut p = Position::empty(Arc::new(Shared::new(tables)));
        let setup = p.sh.t.variant.setup.clone();
        for pl in setup {
            p.put(
                pl.square,
                Piece {
                    side: pl.side,
                    kind: pl.piece,
                },
            );
        }
        // Every castling whose pieces stand on their squares is available at the start.
        for (bit, &(side, sq)) in p.sh.t.rules.rights.clone().iter().enumerate() {
            if p.piece_at(sq).is_some_and(|pc| pc.side == side) {
                p.rights |= 1 << bit;
            }
        }
        p.rehash();
        p
    }

    pub(crate) fn empty(sh: Arc<Shared>) -> Position {
        let n = sh.t.geometry.len();
        let sides = sh.t.sides;
        let kinds = sh.t.kinds;
        Position {
            board: vec![0; n],
            plist: vec![Vec::with_capacity(64); sides],
            pidx: vec![0; n],
            royals: vec![Vec::new(); sides],
            hands: vec![vec![0; kinds]; sides],
            stm: Side(0),
            ep: None,
            rights: 0,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            undo: Vec::with_capacity(256),
            gave_check: Vec::new(),
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
            side: Side(self.sh.cell_side[c as usize]),
            kind: PieceKind(self.sh.cell_kind[c as usize]),
        }
    }

    #[inline]
    pub(crate) fn cell(&self, p: Piece) -> u8 {
        (1 + p.kind.index() * self.sh.t.sides + p.side.index()) as u8
    }

    /// How many pieces of `kind` `side` holds in hand.
    pub fn in_hand(&self, side: Side, kind: PieceKind) -> u8 {
        self.hands[side.index()][kind.index()]
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
        self.royals[side.index()].iter().map(|&s| Square(s))
    }

    /// The side after `side` in turn order.
    #[inline]
    pub fn next_side(&self, side: Side) -> Side {
        Side(((side.index() + 1) % self.sh.t.sides) as u8)
    }

    /// Places a piece (replacing nothing: the square must be empty).
    pub(crate) fn put(&mut self, sq: Square, p: Piece) {
        let c = self.cell(p);
        self.place(sq.0, c);
    }

    #[inline]
    fn place(&mut self, sq: u16, c: u8) {
        debug_assert_eq!(self.board[sq as usize], 0);
        self.board[sq as usize] = c;
        let side = self.sh.cell_side[c as usize] as usize;
        let kind = self.sh.cell_kind[c as usize] as usize;
        self.pidx[sq as usize] = self.plist[side].len() as u16;
        self.plist[side].push(sq);
        if self.sh.t.royal[kind] {
            self.royals[side].push(sq);
        }
        self.hash ^= self.sh.keys.piece[c as usize * self.board.len() + sq as usize];
    }

    #[inline]
    fn lift(&mut self, sq: u16) -> u8 {
        let c = self.board[sq as usize];
        debug_assert_ne!(c, 0);
        self.board[sq as usize] = 0;
        let side = self.sh.cell_side[c as usize] as usize;
        let kind = self.sh.cell_kind[c as usize] as usize;
        let i = self.pidx[sq as usize] as usize;
        let list = &mut self.plist[side];
        let last = list.pop().expect("piece list holds the lifted piece");
        if last != sq {
            list[i] = last;
            self.pidx[last as usize] = i as u16;
        }
        if self.sh.t.royal[kind] {
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

    fn hand_key(&self, side: usize, kind: usize, count: u8) -> u64 {
        let d = self.sh.keys.hand_depth;
        let c = (count as usize).min(d - 1);
        self.sh.keys.hand[(side * self.sh.t.kinds + kind) * d + c]
    }

    #[inline]
    fn hand_add(&mut self, side: usize, kind: usize, delta: i8) {
        let old = self.hands[side][kind];
        let new = (old as i16 + delta as i16) as u8;
        self.hash ^= self.hand_key(side, kind, old) ^ self.hand_key(side, kind, new);
        self.hands[side][kind] = new;
    }

    pub(crate) fn set_hand(&mut self, side: Side, kind: PieceKind, count: u8) {
        self.hands[side.index()][kind.index()] = count;
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
        for s in 0..self.sh.t.sides {
            for k in 0..self.sh.t.kinds {
                h ^= self.hand_key(s, k, self.hands[s][k]);
            }
        }
        for bit in 0..self.sh.t.rules.rights.len() {
            if self.rights >> bit & 1 != 0 {
                h ^= self.sh.keys.castle[bit];
            }
        }
        if let Some((t, _)) = self.ep {
            h ^= self.sh.keys.ep[t as usize];
        }
        self.hash = h;
    }

    /// Plays `m`, which must be pseudo-legal in this position.
    pub(crate) fn make(&mut self, m: Move) {
        let side = self.stm.index();
        let t = &self.sh.t;
        let drops = t.rules.drops;
        let mut captured = 0u8;
        let mut reset = t.resets_clock[m.piece.index()];
        let prev_ep = self.ep;
        self.undo.push(Undo {
            mv: m,
            captured: 0,
            ep: prev_ep,
            rights: self.rights,
            halfmove: self.halfmove,
            hash: self.hash,
        });
        let sh = Arc::clone(&self.sh);
        match m.kind {
            MoveKind::Drop => {
                self.hand_add(side, m.piece.index(), -1);
                let c = self.cell(Piece {
                    side: self.stm,
                    kind: m.piece,
                });
                self.place(m.to.0, c);
            }
            MoveKind::Castle => {
                let r = &sh.t.rules.castlings[m.aux as usize].rule;
                let k = self.lift(r.king_from.0);
                let p = self.lift(r.partner_from.0);
                self.place(r.king_to.0, k);
                self.place(r.partner_to.0, p);
            }
            _ => {
                let victim_sq = if m.kind == MoveKind::EnPassant {
                    m.aux
                } else {
                    m.to.0
                };
                if self.board[victim_sq as usize] != 0 {
                    captured = self.lift(victim_sq);
                    reset = true;
                    if drops {
                        let kind = sh.cell_kind[captured as usize] as usize;
                        if !sh.t.royal[kind] {
                            let base = sh.t.demoted[kind].index();
                            self.hand_add(side, base, 1);
                        }
                    }
                }
                let c = self.lift(m.from.0);
                let c = match m.promotion {
                    Some(k) => self.cell(Piece {
                        side: self.stm,
                        kind: k,
                    }),
                    None => c,
                };
                self.place(m.to.0, c);
            }
        }
        self.undo.last_mut().expect("just pushed").captured = captured;
        if let Some((tsq, _)) = prev_ep {
            self.hash ^= sh.keys.ep[tsq as usize];
        }
        self.ep = None;
        if m.kind == MoveKind::DoubleStep {
            self.ep = Some((m.aux, m.to.0));
            self.hash ^= sh.keys.ep[m.aux as usize];
        }
        if self.rights != 0 {
            let clear = match m.kind {
                MoveKind::Drop => 0,
                MoveKind::Castle => {
                    let r = &sh.t.rules.castlings[m.aux as usize].rule;
                    sh.rights_clear[r.king_from.index()] | sh.rights_clear[r.partner_from.index()]
                }
                _ => sh.rights_clear[m.from.index()] | sh.rights_clear[m.to.index()],
            };
            let lost = self.rights & clear;
            if lost != 0 {
                for bit in 0..sh.t.rules.rights.len() {
                    if lost >> bit & 1 != 0 {
                        self.hash ^= sh.keys.castle[bit];
                    }
                }
                self.rights &= !clear;
            }
        }
        self.halfmove = if reset { 0 } else { self.halfmove + 1 };
        let next = self.next_side(self.stm);
        self.hash ^= sh.keys.side[self.stm.index()] ^ sh.keys.side[next.index()];
        if next.index() == 0 {
            self.fullmove += 1;
        }
        self.stm = next;
    }

    /// Takes back the last move made with [`Position::make`].
    pub(crate) fn unmake(&mut self) {
        let u = self.undo.pop().expect("unmake follows make");
        let m = u.mv;
        if self.stm.index() == 0 {
            self.fullmove -= 1;
        }
        self.stm = Side(((self.stm.index() + self.sh.t.sides - 1) % self.sh.t.sides) as u8);
        let side = self.stm.index();
        let sh = Arc::clone(&self.sh);
        match m.kind {
            MoveKind::Drop => {
                self.lift(m.to.0);
                self.hands[side][m.piece.index()] += 1;
            }
            MoveKind::Castle => {
                let r = &sh.t.rules.castlings[m.aux as usize].rule;
                let k = self.lift(r.king_to.0);
                let p = self.lift(r.partner_to.0);
                self.place(r.king_from.0, k);
                self.place(r.partner_from.0, p);
            }
            _ => {
                let c = self.lift(m.to.0);
                let c = if m.promotion.is_some() {
                    self.cell(Piece {
                        side: self.stm,
                        kind: m.piece,
                    })
                } else {
                    c
                };
                self.place(m.from.0, c);
                if u.captured != 0 {
                    let victim_sq = if m.kind == MoveKind::EnPassant {
                        m.aux
                    } else {
                        m.to.0
                    };
                    self.place(victim_sq, u.captured);
                    if sh.t.rules.drops {
                        let kind = sh.cell_kind[u.captured as usize] as usize;
                        if !sh.t.royal[kind] {
                            self.hands[side][sh.t.demoted[kind].index()] -= 1;
                        }
                    }
                }
            }
        }
        self.ep = u.ep;
        self.rights = u.rights;
        self.halfmove = u.halfmove;
        self.hash = u.hash;
    }

    /// Whether `target` is attacked by any piece of `by`.
    pub fn attacked_by(&self, target: Square, by: Side) -> bool {
        let t = &self.sh.t;
        for &f in &self.plist[by.index()] {
            let kind = PieceKind(self.sh.cell_kind[self.board[f as usize] as usize]);
            for w in t.ways(kind, by, Square(f), target) {
                if w.flags & CAN_CAPTURE != 0 && self.way_open(w) {
                    return true;
                }
            }
            if t.borrows[kind.index()] && self.borrowed_attack(Square(f), by, target) {
                return true;
            }
        }
        false
    }

    /// The powers friendly pieces lend to the piece of `side` on `at`: for each lender kind,
    /// `CAN_MOVE` if one could move there and `CAN_CAPTURE` if one could capture there
    /// (as if `at` were empty, or held an enemy).
    pub(crate) fn lent_powers(&self, at: Square, side: Side) -> Vec<(PieceKind, u8)> {
        let t = &self.sh.t;
        let mut lent: Vec<(PieceKind, u8)> = Vec::new();
        for &g in &self.plist[side.index()] {
            if g == at.0 {
                continue;
            }
            let kind = PieceKind(self.sh.cell_kind[self.board[g as usize] as usize]);
            let mut mask = 0;
            for w in t.ways(kind, side, Square(g), at) {
                let m = w.flags & (CAN_MOVE | CAN_CAPTURE);
                if m & !mask != 0 && self.way_open(w) {
                    mask |= m;
                }
            }
            if mask != 0 {
                match lent.iter_mut().find(|(k, _)| *k == kind) {
                    Some((_, m)) => *m |= mask,
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
        (0..t.kinds).any(|k| {
            let kind = PieceKind(k as u8);
            t.ways(kind, by, at, target)
                .iter()
                .any(|w| w.flags & CAN_CAPTURE != 0 && self.way_open(w))
                && self.plist[by.index()].iter().any(|&g| {
                    g != at.0
                        && self.sh.cell_kind[self.board[g as usize] as usize] as usize == k
                        && t.ways(kind, by, Square(g), at)
                            .iter()
                            .any(|w| w.flags & CAN_CAPTURE != 0 && self.way_open(w))
                })
        })
    }

    #[inline]
    pub(crate) fn way_open(&self, w: &crate::model::Way) -> bool {
        let t = &self.sh.t;
        for &s in t.squares(w.pre_start, w.pre_len) {
            if self.board[s as usize] != 0 {
                return false;
            }
        }
        let mut screens = 0;
        for &e in t.squares(w.between_start, w.between_len) {
            if self.board[(e & !NO_STOP) as usize] != 0 {
                screens += 1;
                if !w.hop || screens > 1 {
                    return false;
                }
            }
        }
        !w.hop || screens == 1
    }

    /// Whether a royal of `side` is attacked by another side.
    pub fn royal_attacked(&self, side: Side) -> bool {
        let t = &self.sh.t;
        self.royals[side.index()].iter().any(|&r| {
            (0..t.sides).any(|by| by != side.index() && self.attacked_by(Square(r), Side(by as u8)))
        })
    }

    /// Whether a royal of `side` sees an enemy royal along a line of a facing rule.
    pub fn royals_facing(&self, side: Side) -> bool {
        let t = &self.sh.t;
        let g = t.geometry;
        let lines = &t.rules.facing[side.index()];
        self.royals[side.index()].iter().any(|&r| {
            lines.iter().any(|&(dx, dy)| {
                let mut cur = Square(r);
                while let Some(next) = g.offset(cur, dx, dy) {
                    let c = self.board[next.index()];
                    if c != 0 {
                        let p = self.decode(c);
                        return p.side != side && t.royal[p.kind.index()];
                    }
                    cur = next;
                }
                false
            })
        })
    }

    /// Whether the rules forbid `side`'s royals to stand as they do: attacked under a
    /// checkmate rule, or facing an enemy royal under a facing rule.
    pub fn royal_exposed(&self, side: Side) -> bool {
        (self.sh.t.rules.checkmate && self.royal_attacked(side)) || self.royals_facing(side)
    }

    /// Whether the side to move is in check (a royal attacked), under a checkmate rule.
    pub fn in_check(&self) -> bool {
        self.sh.t.rules.checkmate && self.royal_attacked(self.stm)
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

    /// An empty board of the same variant with only `piece` on `sq`, its side to move.
    pub fn alone(&self, sq: Square, piece: Piece) -> Position {
        let mut p = Position::empty(Arc::clone(&self.sh));
        p.put(sq, piece);
        p.stm = piece.side;
        p.rehash();
        p
    }

    /// Number of plies played from the position this one was set up from.
    pub fn ply(&self) -> usize {
        self.undo.len()
    }
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.t.fmt(f)
    }
}

impl Shared {
    pub(crate) fn new(t: Tables) -> Shared {
        let sides = t.sides;
        let cells = 1 + t.kinds * sides;
        let mut cell_kind = vec![0u8; cells];
        let mut cell_side = vec![0u8; cells];
        for k in 0..t.kinds {
            for s in 0..sides {
                cell_kind[1 + k * sides + s] = k as u8;
                cell_side[1 + k * sides + s] = s as u8;
            }
        }
        let n = t.geometry.len();
        let mut rights_clear = vec![0u64; n];
        for (bit, (_, sq)) in t.rules.rights.iter().enumerate() {
            rights_clear[sq.index()] |= 1 << bit;
        }
        for c in &t.rules.castlings {
            rights_clear[c.rule.king_from.index()] |= 1 << c.right;
        }
        let keys = Keys::new(cells, n, sides, t.kinds, t.rules.rights.len());
        Shared {
            t,
            keys,
            cell_kind,
            cell_side,
            rights_clear,
        }
    }
}
