//! Move generation: walks the compiled paths of every piece, then filters for legality.

use super::mv::{Move, MoveKind};
use super::position::{Piece, Position};
use crate::model::{
    Path, PieceKind, Side, Square, CAN_CAPTURE, CAN_MOVE, CREATES_EP, HOP, NO_STOP, TAKES_EP,
};

impl Position {
    /// Adds a move to `out`, expanded into its promotion choices.
    #[inline]
    fn push_move(
        &self,
        out: &mut Vec<Move>,
        from: Square,
        to: Square,
        kind: PieceKind,
        mk: MoveKind,
        aux: u16,
    ) {
        let t = &self.sh.t;
        let ks = t.ks(kind, self.stm);
        if let Some(p) = &t.promotions[ks] {
            if p.zone.contains(to) || (p.from_too && p.zone.contains(from)) {
                for &c in &p.choices {
                    out.push(Move {
                        from,
                        to,
                        piece: kind,
                        promotion: Some(c),
                        kind: mk,
                        aux,
                    });
                }
                if p.forced || t.dead[ks].contains(to) {
                    return;
                }
            }
        }
        out.push(Move {
            from,
            to,
            piece: kind,
            promotion: None,
            kind: mk,
            aux,
        });
    }

    /// Generates the moves of the piece on `from` (which belongs to the side to move).
    pub(crate) fn piece_moves(&self, from: Square, out: &mut Vec<Move>) {
        let t = &self.sh.t;
        let c = self.board[from.index()];
        let kind = PieceKind(self.sh.cell_kind[c as usize]);
        let me = self.stm;
        let start = out.len();
        for path in t.paths(kind, me, from) {
            self.walk_path(from, kind, path, path.flags, out);
        }
        let mut repeat = t.may_repeat(kind, me, from);
        if t.borrows[kind.index()] {
            for (lender, mask) in self.lent_powers(from, me) {
                for path in t.paths(lender, me, from) {
                    let flags = path.flags & !(CAN_MOVE | CAN_CAPTURE) | (path.flags & mask);
                    if flags & (CAN_MOVE | CAN_CAPTURE) != 0 {
                        self.walk_path(from, kind, path, flags, out);
                        repeat = true;
                    }
                }
            }
        }
        if repeat {
            let mut i = start;
            while i < out.len() {
                if out[start..i].contains(&out[i]) {
                    out.remove(i);
                } else {
                    i += 1;
                }
            }
        }
    }

    /// Generates the moves along one path (with `flags` in place of its own) for a piece of
    /// kind `kind` on `from`.
    #[inline]
    fn walk_path(
        &self,
        from: Square,
        kind: PieceKind,
        path: &Path,
        flags: u8,
        out: &mut Vec<Move>,
    ) {
        let t = &self.sh.t;
        let me = self.stm;
        for &s in t.squares(path.pre_start, path.pre_len) {
            if self.board[s as usize] != 0 {
                return;
            }
        }
        let ray = t.squares(path.ray_start, path.ray_len);
        let mut screened = flags & HOP == 0;
        for &e in ray {
            let sq = e & !NO_STOP;
            let occ = self.board[sq as usize];
            if occ == 0 {
                if screened && e & NO_STOP == 0 {
                    if flags & CAN_MOVE != 0 {
                        let mk = if flags & CREATES_EP != 0 {
                            MoveKind::DoubleStep
                        } else {
                            MoveKind::Normal
                        };
                        let aux = if mk == MoveKind::DoubleStep {
                            t.squares(path.pre_start, path.pre_len)
                                .last()
                                .copied()
                                .unwrap_or(sq)
                        } else {
                            0
                        };
                        self.push_move(out, from, Square(sq), kind, mk, aux);
                    } else if flags & TAKES_EP != 0 {
                        if let Some((target, victim)) = self.ep {
                            if target == sq
                                && self.sh.cell_side[self.board[victim as usize] as usize] != me.0
                            {
                                self.push_move(
                                    out,
                                    from,
                                    Square(sq),
                                    kind,
                                    MoveKind::EnPassant,
                                    victim,
                                );
                            }
                        }
                    }
                }
                continue;
            }
            if !screened {
                screened = true;
                continue;
            }
            if flags & CAN_CAPTURE != 0
                && e & NO_STOP == 0
                && self.sh.cell_side[occ as usize] != me.0
            {
                self.push_move(out, from, Square(sq), kind, MoveKind::Normal, 0);
            }
            return;
        }
    }

    /// Generates pseudo-legal moves: every move the pieces can make, ignoring royal safety.
    pub(crate) fn pseudo_moves(&self, out: &mut Vec<Move>) {
        let me = self.stm;
        for &sq in &self.plist[me.index()] {
            self.piece_moves(Square(sq), out);
        }
        self.castling_moves(out);
        if self.sh.t.rules.drops {
            self.drop_moves(out);
        }
    }

    fn castling_moves(&self, out: &mut Vec<Move>) {
        let t = &self.sh.t;
        if self.rights == 0 {
            return;
        }
        let me = self.stm;
        for (i, c) in t.rules.castlings.iter().enumerate() {
            let r = &c.rule;
            if r.side != me || self.rights >> c.right & 1 == 0 {
                continue;
            }
            if self.piece_at(r.king_from)
                != Some(Piece {
                    side: me,
                    kind: r.king,
                })
                || self.piece_at(r.partner_from)
                    != Some(Piece {
                        side: me,
                        kind: r.partner,
                    })
            {
                continue;
            }
            if c.empty.iter().any(|s| self.board[s.index()] != 0) {
                continue;
            }
            if t.rules.checkmate
                && c.safe.iter().any(|&s| {
                    (0..t.sides).any(|by| by != me.index() && self.attacked_by(s, Side(by as u8)))
                })
            {
                continue;
            }
            out.push(Move {
                from: r.king_from,
                to: r.king_to,
                piece: r.king,
                promotion: None,
                kind: MoveKind::Castle,
                aux: i as u16,
            });
        }
    }

    fn drop_moves(&self, out: &mut Vec<Move>) {
        let t = &self.sh.t;
        let me = self.stm;
        let g = t.geometry;
        for k in 0..t.kinds {
            if self.hands[me.index()][k] == 0 {
                continue;
            }
            let kind = PieceKind(k as u8);
            let limit = t.variant.pieces[k].drops.max_per_file;
            let mut full_files = vec![false; g.width as usize];
            if let Some(max) = limit {
                let mut counts = vec![0u8; g.width as usize];
                for &s in &self.plist[me.index()] {
                    if self.sh.cell_kind[self.board[s as usize] as usize] as usize == k {
                        counts[g.file(Square(s)) as usize] += 1;
                    }
                }
                for (f, n) in counts.iter().enumerate() {
                    full_files[f] = *n >= max;
                }
            }
            for sq in t.drop_squares[t.ks(kind, me)].iter() {
                if self.board[sq.index()] == 0 && !full_files[g.file(sq) as usize] {
                    out.push(Move {
                        from: sq,
                        to: sq,
                        piece: kind,
                        promotion: None,
                        kind: MoveKind::Drop,
                        aux: 0,
                    });
                }
            }
        }
    }

    /// Whether a pseudo-legal move is legal.
    pub(crate) fn is_legal_pseudo(&mut self, m: Move) -> bool {
        let sh = std::sync::Arc::clone(&self.sh);
        let t = &sh.t;
        if !t.rules.checkmate && t.rules.facing.iter().all(Vec::is_empty) {
            return true;
        }
        let me = self.stm;
        self.make(m);
        let ok = !self.royal_exposed(me);
        let ok = ok
            && !(m.kind == MoveKind::Drop
                && t.variant.pieces[m.piece.index()].drops.no_mate
                && self.is_checkmate_now());
        self.unmake();
        ok
    }

    /// Whether the side to move is checkmated (in check with no legal move).
    fn is_checkmate_now(&mut self) -> bool {
        if !self.in_check() {
            return false;
        }
        let mut moves = Vec::new();
        self.legal_moves_into(&mut moves);
        moves.is_empty()
    }

    /// Generates the legal moves into `out` (which is cleared first).
    pub fn legal_moves_into(&mut self, out: &mut Vec<Move>) {
        out.clear();
        if self.game_decided_by_material() {
            return;
        }
        self.pseudo_moves(out);
        let t = &self.sh.t;
        if !t.rules.checkmate && t.rules.facing.iter().all(Vec::is_empty) {
            return;
        }
        let me = self.stm;
        let royals = &self.royals[me.index()];
        if royals.is_empty() {
            return;
        }
        let sh = std::sync::Arc::clone(&self.sh);
        let t = &sh.t;
        let fast = royals.len() == 1 && !t.has_borrowing && !self.royal_exposed(me);
        let n = t.geometry.len();
        let ksq = royals[0] as usize;
        let from_s = &t.from_sensitive[me.index() * n + ksq];
        let to_s = &t.to_sensitive[me.index() * n + ksq];
        let mut i = 0;
        while i < out.len() {
            let m = out[i];
            let safe = fast
                && match m.kind {
                    MoveKind::Normal | MoveKind::DoubleStep => {
                        !t.royal[m.piece.index()]
                            && !from_s.contains(m.from)
                            && !to_s.contains(m.to)
                    }
                    MoveKind::Drop => {
                        !to_s.contains(m.to) && !t.variant.pieces[m.piece.index()].drops.no_mate
                    }
                    _ => false,
                };
            if safe || self.is_legal_pseudo(m) {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }

    /// The legal moves, in generation order.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut p = self.clone();
        let mut out = Vec::new();
        p.legal_moves_into(&mut out);
        out.sort_by_key(|m| {
            (
                m.kind == MoveKind::Drop,
                m.from,
                m.to,
                m.promotion.map(|k| k.0),
            )
        });
        out
    }

    /// Under an extinction rule, a side with no royal left has lost and may not move.
    pub(crate) fn game_decided_by_material(&self) -> bool {
        self.sh.t.rules.extinction && (0..self.sh.t.sides).any(|s| self.royals[s].is_empty())
    }

    /// Plays a legal move, recording whether it gave check (for repetition rules).
    ///
    /// The move must come from [`Position::legal_moves`] of this position.
    pub fn play(&mut self, m: Move) {
        self.make(m);
        let check = self.in_check();
        self.gave_check.push(check);
    }

    /// Takes back the last move made with [`Position::play`].
    pub fn undo_move(&mut self) {
        self.unmake();
        self.gave_check.pop();
    }
}
