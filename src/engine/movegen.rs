//! Move generation: walks the compiled paths of every piece, then filters for legality.

use super::mv::{Move, MoveKind};
use super::position::{Piece, Position, WALL};
use crate::model::{
    CastlingId, Condition, Flip, Path, PathFlags, PieceKind, PromotionTable, Side, Square,
    SquareSet, WallPlacing, KING_STEPS,
};

/// The four rook steps: north, east, south, west.
const ROOK_STEPS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

impl Position {
    /// Adds a move to `out`, expanded into its promotion choices.
    #[inline]
    fn push_move(
        &self,
        out: &mut Vec<Move>,
        from: Square,
        to: Square,
        piece: PieceKind,
        kind: MoveKind,
    ) {
        let m = Move {
            piece,
            from,
            to,
            promotion: None,
            kind,
            wall: None,
        };
        // A shot leaves its piece where it stands, so it never promotes.
        if kind != MoveKind::Shot && self.sh.t.may_promote(piece, self.stm) {
            self.push_promotions(out, m);
        } else {
            out.push(m);
        }
    }

    /// Adds `m` for each piece it may promote to, and unpromoted unless promotion is forced.
    fn push_promotions(&self, out: &mut Vec<Move>, m: Move) {
        let t = &self.sh.t;
        // Only `when capturing` clauses ask, so other games skip the board lookup.
        let captures = t.promotes_on_capture()
            && m.capture_square()
                .is_some_and(|sq| self.board[sq.index()] != 0);
        if let Some(p) = t.promotion(m.piece, self.stm, m.from, m.to, captures) {
            let limited = p.any_limited();
            for c in p.choices() {
                if limited && !p.offering(c).any(|clause| self.may_gain(c, clause)) {
                    continue;
                }
                out.push(Move {
                    promotion: Some(c),
                    ..m
                });
            }
            if p.forced {
                return;
            }
        }
        out.push(m);
    }

    /// Whether `clause` lets the side to move promote to `kind`: it has fewer pieces of that
    /// kind on the board than the clause's limit (`at most N`) or than the setup gives it
    /// (`only to captured`). Look-alike kinds (`Q~`) count with the kind they look like.
    fn may_gain(&self, kind: PieceKind, clause: &PromotionTable) -> bool {
        let t = &self.sh.t;
        let counted = t.counted_as(kind);
        let limit = match clause.at_most {
            Some(n) => usize::from(n),
            None if clause.only_captured => (0..t.variant().pieces().len())
                .map(PieceKind::nth)
                .filter(|&k| t.counted_as(k) == counted)
                .map(|k| t.setup_count(k, self.stm))
                .sum(),
            None => return true,
        };
        let on_board = self.plist[self.stm.index()]
            .iter()
            .filter(|&&s| t.counted_as(self.cell_kind(self.board[s as usize])) == counted)
            .count();
        on_board < limit
    }

    /// Generates the moves of the piece on `from` (which belongs to the side to move).
    pub(crate) fn piece_moves(&self, from: Square, out: &mut Vec<Move>) {
        let t = &self.sh.t;
        let kind = self.cell_kind(self.board[from.index()]);
        let me = self.stm;
        let start = out.len();
        for path in t.paths(kind, me, from) {
            self.walk_path(from, kind, path, path.flags(), out);
        }
        let mut repeat = t.may_repeat(kind, me, from);
        if !t.teleports(kind).is_empty() {
            self.teleport_moves(from, kind, out);
            // A teleport may land where a step lands, and two anchors may share a neighbour.
            repeat = true;
        }
        if t.borrows(kind) {
            for (lender, mask) in self.lent_powers(from, me) {
                for path in t.paths(lender, me, from) {
                    let flags = path
                        .flags()
                        .without(PathFlags::MODES)
                        .with(path.flags().and(mask));
                    if flags.any(PathFlags::MODES) {
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
            self.one_pass_per_piece(start, out);
        }
    }

    /// A piece that may pass by stepping to an empty square and back has one such move,
    /// whichever square it steps to: written with the first of them in the order north,
    /// north-east, east, ... of the board (toward higher ranks first).
    fn one_pass_per_piece(&self, start: usize, out: &mut Vec<Move>) {
        let g = self.sh.t.geometry();
        let pass = |m: &Move| match m.kind {
            MoveKind::Double(via)
                if m.to == m.from && m.promotion.is_none() && self.board[via.index()] == 0 =>
            {
                let d = (g.file(via) - g.file(m.from), g.rank(via) - g.rank(m.from));
                Some(KING_STEPS.iter().position(|&o| o == d).unwrap_or(8))
            }
            _ => None,
        };
        let best = out[start..].iter().filter_map(pass).min();
        if let Some(best) = best {
            let mut kept = false;
            let mut i = start;
            while i < out.len() {
                match pass(&out[i]) {
                    Some(k) if k == best && !kept => {
                        kept = true;
                        i += 1;
                    }
                    Some(_) => {
                        out.remove(i);
                    }
                    None => i += 1,
                }
            }
        }
    }

    /// Generates the teleports of the piece of kind `kind` on `from`: to every empty square
    /// next to a friendly anchor, where it may stand, and (if the rule says so) from where
    /// it could not capture on the anchor's square.
    fn teleport_moves(&self, from: Square, kind: PieceKind, out: &mut Vec<Move>) {
        let t = &self.sh.t;
        let g = t.geometry();
        let me = self.stm;
        for rule in t.teleports(kind) {
            if rule.from.is_some_and(|z| !t.zone(z, me).contains(from)) {
                continue;
            }
            if let Some(zone) = rule.to {
                for to in t.zone(zone, me).iter() {
                    if to != from
                        && self.board[to.index()] == 0
                        && rule.allowed[me.index()].contains(to)
                    {
                        self.push_move(out, from, to, kind, MoveKind::Normal);
                    }
                }
                continue;
            }
            for &a in &self.plist[me.index()] {
                let anchor = Square::at(a);
                if !rule
                    .anchors
                    .contains(self.cell_kind(self.board[a as usize]))
                {
                    continue;
                }
                for (dx, dy) in KING_STEPS {
                    let Some(to) = g.offset(anchor, dx, dy) else {
                        continue;
                    };
                    if self.board[to.index()] != 0 || !rule.allowed[me.index()].contains(to) {
                        continue;
                    }
                    if rule.not_attacking
                        && t.ways(kind, me, to, anchor)
                            .any(|w| w.flags().has(PathFlags::CAPTURE) && self.way_usable(&w, to))
                    {
                        continue;
                    }
                    self.push_move(out, from, to, kind, MoveKind::Normal);
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
        flags: PathFlags,
        out: &mut Vec<Move>,
    ) {
        if path.condition() != Condition::Always && !self.condition_holds(path.condition(), from) {
            return;
        }
        if flags.any(PathFlags::IN_CHECK.with(PathFlags::NOT_IN_CHECK))
            && flags.has(PathFlags::IN_CHECK) != self.in_check()
        {
            return;
        }
        if flags.any(PathFlags::LION) {
            return self.walk_lion(from, kind, path, flags, out);
        }
        // Most paths have no target rule and no screen: their loop goes without the
        // per-square test and the screen's state. Written out, so that it does not depend on
        // the optimiser's choice to split the loop (which it once stopped making).
        match (path.target() == 0, path.flags().has(PathFlags::HOP)) {
            (true, false) => self.walk_targets::<false, false>(from, kind, path, flags, out),
            (true, true) => self.walk_targets::<false, true>(from, kind, path, flags, out),
            (false, false) => self.walk_targets::<true, false>(from, kind, path, flags, out),
            (false, true) => self.walk_targets::<true, true>(from, kind, path, flags, out),
        }
    }

    /// The moves of [`Position::walk_path`], testing each destination against the path's
    /// target rule when `RULED`, over a screen when `HOP`.
    #[inline]
    fn walk_targets<const RULED: bool, const HOP: bool>(
        &self,
        from: Square,
        kind: PieceKind,
        path: &Path,
        flags: PathFlags,
        out: &mut Vec<Move>,
    ) {
        let t = &self.sh.t;
        let target = path.target();
        // What a stop on an empty square and a capture make, settled once for the path.
        let quiet = match (flags.has(PathFlags::MOVE), flags.has(PathFlags::CREATES_EP)) {
            (false, _) => None,
            (true, false) => Some(MoveKind::Normal),
            (true, true) => Some(MoveKind::Passing(t.route(path))),
        };
        let takes_ep = flags.has(PathFlags::TAKES_EP);
        let captures = flags.has(PathFlags::CAPTURE);
        let checker_only = flags.has(PathFlags::TAKES_CHECKER);
        let capture = if flags.has(PathFlags::SHOT) {
            MoveKind::Shot
        } else {
            MoveKind::Normal
        };
        t.walk::<HOP>(path, &self.board, |to, occupant| {
            if RULED && !self.may_end_on(target, self.stm, to) {
                return;
            }
            if occupant == 0 {
                if let Some(mk) = quiet {
                    self.push_move(out, from, to, kind, mk);
                } else if takes_ep {
                    if let Some(victim) = self.en_passant_victim(to) {
                        let ep = MoveKind::CaptureAt(victim);
                        if flags.has(PathFlags::EP_UNPROMOTED) {
                            out.push(Move {
                                piece: kind,
                                from,
                                to,
                                promotion: None,
                                kind: ep,
                                wall: None,
                            });
                        } else {
                            self.push_move(out, from, to, kind, ep);
                        }
                    }
                }
            } else if captures
                && occupant != WALL
                && self.cell_side(occupant) != self.stm
                && t.may_capture(
                    target,
                    self.cell_kind(occupant),
                    self.stm,
                    self.cell_side(occupant),
                )
                && (!checker_only || self.sole_checker(to))
                && !(RULED
                    && self.protected_capture(
                        target,
                        &Move {
                            piece: kind,
                            from,
                            to,
                            promotion: None,
                            kind: capture,
                            wall: None,
                        },
                    ))
            {
                self.push_move(out, from, to, kind, capture);
            }
        });
    }

    /// The moves along a path that captures on the way or comes back to its start (a lion's
    /// double move, igui and pass): the first leg's square must hold an enemy piece it may
    /// capture on the way (`capturing on the way`) or be empty; the piece's own square
    /// counts as empty.
    #[cold]
    #[inline(never)]
    fn walk_lion(
        &self,
        from: Square,
        kind: PieceKind,
        path: &Path,
        flags: PathFlags,
        out: &mut Vec<Move>,
    ) {
        let t = &self.sh.t;
        let me = self.stm;
        let target = path.target();
        let (pre, ray) = t.path_runs(path);
        let Some(mid) = pre.last().map(|e| e.square()) else {
            return;
        };
        if flags.has(PathFlags::BRIDGE) {
            let c = self.board[mid.index()];
            if c == 0
                || c == WALL
                || !t.may_capture_on_way(target, self.cell_kind(c), me, self.cell_side(c))
            {
                return;
            }
            if pre[..pre.len() - 1]
                .iter()
                .any(|e| self.board[e.index()] != 0)
            {
                return;
            }
        } else if pre.iter().any(|e| self.board[e.index()] != 0) {
            return;
        }
        for e in ray {
            let to = e.square();
            let occupant = if to == from {
                0
            } else {
                self.board[to.index()]
            };
            if e.can_stop() && (target == 0 || self.may_end_on(target, me, to)) {
                let m = Move {
                    piece: kind,
                    from,
                    to,
                    promotion: None,
                    kind: MoveKind::Double(mid),
                    wall: None,
                };
                if occupant == 0 {
                    if flags.has(PathFlags::MOVE) {
                        self.push_move(out, from, to, kind, m.kind);
                    }
                } else if flags.has(PathFlags::CAPTURE)
                    && occupant != WALL
                    && self.cell_side(occupant) != me
                    && t.may_capture(
                        target,
                        self.cell_kind(occupant),
                        me,
                        self.cell_side(occupant),
                    )
                    && !self.protected_capture(target, &m)
                {
                    self.push_move(out, from, to, kind, m.kind);
                }
            }
            if occupant != 0 {
                return;
            }
        }
    }

    /// Under `not capturing protected`: whether `m`, which captures on its destination, takes a
    /// piece of a kind the path's target rule protects where an opponent could capture back
    /// after the move (with `from afar`, only a piece that was not a king step away).
    fn protected_capture(&self, target: u16, m: &Move) -> bool {
        let t = &self.sh.t;
        if target == 0 {
            return false;
        }
        let (kinds, afar) = t.protected_victims(target);
        let c = self.board[m.to.index()];
        if kinds.is_empty() || c == 0 || c == WALL || !kinds.contains(self.cell_kind(c)) {
            return false;
        }
        let g = t.geometry();
        let near = (g.file(m.from) - g.file(m.to)).abs() <= 1
            && (g.rank(m.from) - g.rank(m.to)).abs() <= 1;
        if afar && near {
            return false;
        }
        let me = self.stm;
        let mut after = self.clone();
        after.make(*m);
        after.attacked_by_others(m.to, me)
    }

    /// Whether the enemy piece on `sq` is the one piece giving check to the side to move.
    fn sole_checker(&self, sq: Square) -> bool {
        let me = self.stm;
        let mut checkers = 0;
        let mut found = false;
        for &r in &self.royals[me.index()] {
            for by in (0..self.sh.t.sides()).filter(|&s| s != me.index()) {
                let by = Side::nth(by);
                for &f in &self.plist[by.index()] {
                    if self.attacks_from(Square::at(f), by, Square::at(r)) {
                        checkers += 1;
                        found |= f == sq.raw();
                    }
                }
            }
        }
        found && checkers == 1
    }

    /// The square of the enemy piece an en-passant capture on `to` would take, if `to` is an
    /// en-passant target now.
    #[inline]
    fn en_passant_victim(&self, to: Square) -> Option<Square> {
        let (targets, victim) = self.en_passant()?;
        let c = self.board[victim.index()];
        (targets.contains(&to) && c != 0 && c != WALL && self.cell_side(c) != self.stm)
            .then_some(victim)
    }

    /// Generates pseudo-legal moves: every move the pieces can make, ignoring royal safety.
    pub(crate) fn pseudo_moves(&self, out: &mut Vec<Move>) {
        let me = self.stm;
        let start = out.len();
        for &sq in &self.plist[me.index()] {
            self.piece_moves(Square::at(sq), out);
        }
        self.castling_moves(out);
        if self.sh.t.rules().gating.is_some() {
            self.gating_moves(start, out);
        }
        if self.sh.t.rules().drops {
            self.drop_moves(out);
        }
        if self.sh.t.any_in_place() {
            self.in_place_promotions(out);
        }
        let r = self.sh.t.rules();
        if (r.passing && !r.passing_when_stuck) || (r.facing_draws && self.royals_facing(me)) {
            out.push(self.pass_move());
        }
    }

    /// Under `gating in ZONE`: for each move in `out[start..]` that leaves an unmoved piece's
    /// square in the zone (a castling: the king's or the partner's square), the same move
    /// with each kind in hand placed there, where that kind may be dropped.
    #[cold]
    fn gating_moves(&self, start: usize, out: &mut Vec<Move>) {
        let t = &self.sh.t;
        let me = self.stm;
        let Some(zone) = t.rules().gating else {
            return;
        };
        let gates = t.zone(zone, me);
        let kinds: Vec<PieceKind> = (0..t.kinds())
            .map(PieceKind::nth)
            .filter(|&k| self.in_hand(me, k) > 0)
            .collect();
        if kinds.is_empty() {
            return;
        }
        let open = |sq: Square| gates.contains(sq) && self.unmoved.contains(sq);
        for i in start..out.len() {
            let m = out[i];
            let squares: [(Square, Option<bool>); 2] = match m.kind {
                MoveKind::Normal if m.promotion.is_none() => [(m.from, None), (m.from, None)],
                MoveKind::Castle(id) => {
                    let r = &t.castling(id).rule;
                    [(r.king_from, Some(false)), (r.partner_from, Some(true))]
                }
                _ => continue,
            };
            let n = if squares[1].1.is_some() { 2 } else { 1 };
            for &(sq, partner) in &squares[..n] {
                // A castling may end on its own start squares (Chess960): no gate there.
                let refilled = m.castling().is_some_and(|id| {
                    let r = &t.castling(id).rule;
                    sq == r.king_to || sq == r.partner_to
                });
                if !open(sq) || refilled {
                    continue;
                }
                for &k in &kinds {
                    if !t.drop_squares(k, me).contains(sq) {
                        continue;
                    }
                    let kind = match (m.kind, partner) {
                        (MoveKind::Castle(id), Some(p)) => MoveKind::CastleGate(id, k, p),
                        _ => MoveKind::Gate(k),
                    };
                    out.push(Move { kind, ..m });
                }
            }
        }
    }

    /// Under `promote ..., in place`: each piece of the side to move that stands where such a
    /// clause lets it promote (in the zone, or anywhere as the last of its kind under
    /// `anywhere when last`) may turn into each choice where it stands, or go as that choice
    /// to an empty square the choice could move to from there.
    #[cold]
    #[inline(never)]
    fn in_place_promotions(&self, out: &mut Vec<Move>) {
        let t = &self.sh.t;
        let me = self.stm;
        let mut reach = Vec::new();
        for &s in &self.plist[me.index()] {
            let from = Square::at(s);
            let kind = self.cell_kind(self.board[s as usize]);
            let clauses = t.in_place_promotions(kind, me);
            if clauses.is_empty() {
                continue;
            }
            let last = || {
                self.plist[me.index()]
                    .iter()
                    .filter(|&&o| self.cell_kind(self.board[o as usize]) == kind)
                    .count()
                    == 1
            };
            let first = out.len();
            for c in clauses {
                if !(c.zone.contains(from) || (c.anywhere_when_last && last())) {
                    continue;
                }
                for &choice in &c.choices {
                    if c.limited() && !self.may_gain(choice, c) {
                        continue;
                    }
                    reach.clear();
                    self.moves_as(from, choice, &mut reach);
                    let targets = std::iter::once(from).chain(
                        reach
                            .iter()
                            .filter(|r| {
                                matches!(r.kind, MoveKind::Normal | MoveKind::Passing(_))
                                    && self.board[r.to.index()] == 0
                            })
                            .map(|r| r.to),
                    );
                    for to in targets {
                        let m = Move {
                            piece: kind,
                            from,
                            to,
                            promotion: Some(choice),
                            kind: MoveKind::Promote,
                            wall: None,
                        };
                        if !out[first..].contains(&m) {
                            out.push(m);
                        }
                    }
                }
            }
        }
    }

    /// The moves a piece of `kind` of the side to move would have on `from`, where another
    /// of its pieces stands.
    fn moves_as(&self, from: Square, kind: PieceKind, out: &mut Vec<Move>) {
        let t = &self.sh.t;
        for path in t.paths(kind, self.stm, from) {
            self.walk_path(from, kind, path, path.flags(), out);
        }
    }

    /// The side to move's pass, written on its first royal's square (without royals, on the
    /// first square that holds one of its pieces, as Fairy-Stockfish writes it).
    pub(crate) fn pass_move(&self) -> Move {
        let me = self.stm.index();
        let on = self.royals[me]
            .first()
            .or_else(|| self.plist[me].iter().min())
            .copied();
        let (piece, sq) = match on {
            Some(r) => (self.cell_kind(self.board[r as usize]), Square::at(r)),
            None => (PieceKind::nth(0), Square::at(0)),
        };
        Move {
            piece,
            from: sq,
            to: sq,
            promotion: None,
            kind: MoveKind::Pass,
            wall: None,
        }
    }

    fn castling_moves(&self, out: &mut Vec<Move>) {
        let t = &self.sh.t;
        let me = self.stm;
        for (id, c) in t.castlings() {
            let r = &c.rule;
            // Unmoved marks are only on occupied squares, and only the first pieces have them.
            if r.side != me
                || !self.unmoved.contains(r.king_from)
                || !self.unmoved.contains(r.partner_from)
            {
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
            // Only a royal king is kept from castling through attacked squares (when captures
            // explode, a square next to an enemy royal is not attacked).
            let explosions = t.rules().explosions;
            if self.royals_guarded(me)
                && t.royal(r.king)
                && c.safe.iter().any(|&s| {
                    !(explosions && self.next_to_enemy_royal(s, me))
                        && self.attacked_by_others(s, me)
                })
            {
                continue;
            }
            // Nor may the king pass a square where it would face an enemy royal.
            if !t.rules().facing[me.index()].is_empty()
                && !t.rules().facing_draws
                && c.safe.iter().any(|&s| self.would_face(s, me, r.king_from))
            {
                continue;
            }
            out.push(Move {
                piece: r.king,
                from: r.king_from,
                to: r.king_to,
                promotion: None,
                kind: MoveKind::Castle(id),
                wall: None,
            });
        }
    }

    fn drop_moves(&self, out: &mut Vec<Move>) {
        let t = &self.sh.t;
        let me = self.stm;
        let g = t.geometry();
        for k in 0..t.kinds() {
            let kind = PieceKind::nth(k);
            let rules = &t.variant().piece(kind).drops;
            if self.in_hand(me, kind) == 0 && !rules.unlimited {
                continue;
            }
            let limited = rules.only_flipping
                || rules.on_top
                || rules.apart
                || rules.from_edge
                || rules.only_next_to_own
                || rules.first_in.is_some()
                || !t.colour_bound().is_empty();
            let limit = t.variant().piece(kind).drops.max_per_file;
            let mut full_files = vec![false; g.width as usize];
            if let Some(max) = limit {
                let mut counts = vec![0u16; g.width as usize];
                for &s in &self.plist[me.index()] {
                    if self.cell_kind(self.board[s as usize]) == kind {
                        counts[g.file(Square::at(s)) as usize] += 1;
                    }
                }
                for (f, n) in counts.iter().enumerate() {
                    full_files[f] = *n >= max as u16;
                }
            }
            let faces = std::iter::once(None).chain(
                t.variant()
                    .piece(kind)
                    .drops
                    .also_as
                    .iter()
                    .map(|&k| Some(k)),
            );
            for face in faces {
                for sq in t.drop_squares(face.unwrap_or(kind), me).iter() {
                    if self.board[sq.index()] == 0
                        && !full_files[g.file(sq) as usize]
                        && (!limited || self.drop_allowed(kind, sq))
                    {
                        out.push(Move {
                            piece: kind,
                            from: sq,
                            to: sq,
                            promotion: face,
                            kind: MoveKind::Drop,
                            wall: None,
                        });
                    }
                }
            }
        }
    }

    /// Under `drop only where it flips`, `only next to own pieces`, `first in ZONE` or a kind
    /// `on both colours`: whether `kind` may be dropped on the empty square `sq`.
    #[cold]
    fn drop_allowed(&self, kind: PieceKind, sq: Square) -> bool {
        let t = &self.sh.t;
        let g = t.geometry();
        let me = self.stm;
        let rules = &t.variant().piece(kind).drops;
        if !t
            .colour_bound()
            .iter()
            .all(|&bound| self.colours_stay_open(bound, kind, sq))
        {
            return false;
        }
        if let Some(z) = rules.first_in {
            let zone = t.zone(z, me);
            if zone.iter().any(|s| self.board[s.index()] == 0) {
                return zone.contains(sq);
            }
        }
        if rules.on_top
            && g.rank(sq) > 0
            && g.offset(sq, 0, -1)
                .is_some_and(|below| self.board[below.index()] == 0)
        {
            return false;
        }
        if rules.apart && self.next_to(sq, &ROOK_STEPS, me, false) {
            return false;
        }
        // From an edge: every square behind it (back to the edge) empty, and the next one ahead
        // taken or off the board, for one of the four directions of travel.
        if rules.from_edge
            && !ROOK_STEPS.iter().any(|&(dx, dy)| {
                let ahead_blocked = g
                    .offset(sq, dx, dy)
                    .is_none_or(|s| self.board[s.index()] != 0);
                let mut behind = g.offset(sq, -dx, -dy);
                let mut clear = true;
                while let Some(s) = behind {
                    if self.board[s.index()] != 0 {
                        clear = false;
                        break;
                    }
                    behind = g.offset(s, -dx, -dy);
                }
                ahead_blocked && clear
            })
        {
            return false;
        }
        if rules.only_next_to_own && !self.next_to(sq, &KING_STEPS, me, true) {
            return false;
        }
        !rules.only_flipping || !self.flips(sq, me, true).is_empty()
    }

    /// Whether a piece of `side` (with `own`; of another side without) stands one of `steps`
    /// from `sq`.
    fn next_to(&self, sq: Square, steps: &[(i32, i32)], side: Side, own: bool) -> bool {
        let g = self.sh.t.geometry();
        steps
            .iter()
            .filter_map(|&(dx, dy)| g.offset(sq, dx, dy))
            .any(|s| {
                let c = self.board[s.index()];
                c != 0 && c != WALL && (self.cell_side(c) == side) == own
            })
    }

    /// Under `drop on both colours` for `bound`: whether a drop of `kind` on `sq` still lets
    /// the side's pieces of kind `bound` (on the board and in hand) stand half on each colour
    /// of square. A piece of that kind may not make one colour hold more than half of them
    /// (rounded up); another piece may not take a square that those still in hand need.
    fn colours_stay_open(&self, bound: PieceKind, kind: PieceKind, sq: Square) -> bool {
        let t = &self.sh.t;
        let g = t.geometry();
        let me = self.stm;
        let colour = |s: Square| (g.file(s) + g.rank(s)) % 2;
        let mut placed = [0usize; 2];
        for &s in &self.plist[me.index()] {
            if self.cell_kind(self.board[s as usize]) == bound {
                placed[colour(Square::at(s)) as usize] += 1;
            }
        }
        let total = placed[0] + placed[1] + usize::from(self.in_hand(me, bound));
        if kind == bound {
            return placed[colour(sq) as usize] < total.div_ceil(2);
        }
        let mut open = placed;
        for s in t.drop_squares(bound, me).iter() {
            if s != sq && self.board[s.index()] == 0 {
                open[colour(s) as usize] += 1;
            }
        }
        open.iter().all(|&n| n >= total / 2)
    }

    /// The enemy pieces a move of `side` that reaches `to` turns to its side under `moves flip
    /// ... enemies`.
    pub(crate) fn flips(&self, to: Square, side: Side, drop: bool) -> Vec<Square> {
        let t = &self.sh.t;
        let g = t.geometry();
        let enemy = |s: Square| {
            let c = self.board[s.index()];
            c != 0 && c != WALL && self.cell_side(c) != side
        };
        let mut out = Vec::new();
        if drop && t.rules().flip_drops_near_friends && !self.next_to(to, &KING_STEPS, side, true) {
            return out;
        }
        match t.rules().flip {
            None => {}
            Some(Flip::Adjacent) => out.extend(
                KING_STEPS
                    .iter()
                    .filter_map(|&(dx, dy)| g.offset(to, dx, dy))
                    .filter(|&s| enemy(s)),
            ),
            Some(Flip::Enclosed) => {
                for &(dx, dy) in &KING_STEPS {
                    let start = out.len();
                    let mut at = g.offset(to, dx, dy);
                    while let Some(s) = at.filter(|&s| enemy(s)) {
                        out.push(s);
                        at = g.offset(s, dx, dy);
                    }
                    // The run counts only when a friendly piece closes it.
                    let closed = at.is_some_and(|s| {
                        let c = self.board[s.index()];
                        c != 0 && c != WALL && self.cell_side(c) == side
                    });
                    if !closed {
                        out.truncate(start);
                    }
                }
            }
        }
        out
    }

    /// Whether a castling king could cross its path were it lifted from its square: under
    /// explosions a royal may stand attacked next to the enemy royal, and an attack through its
    /// square then reaches the squares behind it.
    fn castling_path_clear_behind(&mut self, id: CastlingId) -> bool {
        let sh = std::sync::Arc::clone(&self.sh);
        let c = sh.t.castling(id);
        let (me, from, to) = (self.stm, c.rule.king_from, c.rule.king_to);
        if !self.royals_guarded(me) || !sh.t.royal(c.rule.king) {
            return true;
        }
        // The destination is judged after the move, where the partner may shield it.
        let king = self.lift(from.raw());
        let clear = c.safe.iter().all(|&s| {
            s == from
                || s == to
                || self.next_to_enemy_royal(s, me)
                || !self.attacked_by_others(s, me)
        });
        self.place(from.raw(), king);
        clear
    }

    /// Whether a pseudo-legal move is legal.
    #[inline]
    pub(crate) fn is_legal_pseudo(&mut self, m: Move) -> bool {
        if m.kind == MoveKind::Promote && self.in_place_refused(m) {
            return false;
        }
        let r = self.sh.t.rules();
        if r.plain_legality && m.kind != MoveKind::Drop {
            if !r.guards_royals() {
                return true;
            }
            let me = self.stm;
            self.make(m);
            let ok = !self.royal_exposed(me);
            self.unmake();
            return ok;
        }
        self.is_legal_ruled(m)
    }

    /// Under `counter-strike`, after such a piece was taken by another kind: no piece of
    /// another kind may take one now, on its destination or on its way.
    #[cold]
    #[inline(never)]
    fn keep_counter_strikes(&self, out: &mut Vec<Move>) {
        let listed = self.sh.t.rules().counter_strike;
        let takes = |sq: Square| {
            let c = self.board[sq.index()];
            c != 0 && c != WALL && listed.contains(self.cell_kind(c))
        };
        out.retain(|m| {
            if listed.contains(m.piece) {
                return true;
            }
            let on_way = matches!(m.kind, MoveKind::Double(via) if takes(via));
            let at_end = m.to != m.from
                && matches!(
                    m.kind,
                    MoveKind::Normal
                        | MoveKind::Passing(_)
                        | MoveKind::Gate(_)
                        | MoveKind::Double(_)
                        | MoveKind::Shot
                )
                && takes(m.to);
            let en_passant = matches!(m.kind, MoveKind::CaptureAt(v) if takes(v));
            !(on_way || at_end || en_passant)
        });
    }

    /// Whether a promotion made in place is refused by `not attacking`: the new piece attacks
    /// an enemy piece where it ends, or the move leaves an enemy royal attacked.
    #[cold]
    #[inline(never)]
    fn in_place_refused(&mut self, m: Move) -> bool {
        let sh = std::sync::Arc::clone(&self.sh);
        let t = &sh.t;
        let me = self.stm;
        let quiet = t
            .in_place_promotions(m.piece, me)
            .iter()
            .any(|c| c.not_attacking && m.promotion.is_some_and(|k| c.choices.contains(&k)));
        if !quiet {
            return false;
        }
        self.make(m);
        let enemies: Vec<Side> = Side::all(t.sides())
            .filter(|&s| s != me && !t.partners(s, me))
            .collect();
        let refused = enemies.iter().any(|&s| {
            self.royal_attacked(s)
                || self.plist[s.index()]
                    .iter()
                    .any(|&e| self.attacks_from(m.to, me, Square::at(e)))
        });
        self.unmake();
        refused
    }

    /// [`Position::is_legal_pseudo`] where more than the royals' safety decides.
    #[inline(never)]
    fn is_legal_ruled(&mut self, m: Move) -> bool {
        // A gated piece comes after the move, which must be legal on its own: it does not
        // shield the king its piece uncovered (Fairy-Stockfish's reading).
        let m = m.ungated();
        // The rules read after the move, copied out: no shared handle is taken on this path,
        // which runs once per move tried.
        let r = self.sh.t.rules();
        // A royal that captures under `captures petrify` would turn itself to stone: no
        // move may do that, as no move may blow up its own royal.
        if r.petrify.contains(m.piece) && self.sh.t.royal(m.piece) && self.captures(&m) {
            return false;
        }
        let (explosions, checks_forbidden, facing_draws) =
            (r.explosions, r.checks_forbidden, r.facing_draws);
        if !r.guards_royals() {
            return !(explosions
                && m.castling()
                    .is_some_and(|id| !self.castling_path_clear_behind(id)));
        }
        if explosions
            && m.castling()
                .is_some_and(|id| !self.castling_path_clear_behind(id))
        {
            return false;
        }
        let sides = self.sh.t.sides();
        let drop_no_check =
            m.kind == MoveKind::Drop && self.sh.t.variant().piece(m.placed()).drops.no_check;
        let me = self.stm;
        // Royals facing under `facing ... draws`: a pass accepts the draw, even in check;
        // any other move must end the facing.
        let facing_now = facing_draws && self.royals_facing(me);
        if facing_now && m.kind == MoveKind::Pass {
            return true;
        }
        let royal_counts = |p: &Self| -> Vec<usize> { p.royals.iter().map(Vec::len).collect() };
        let before = if explosions {
            royal_counts(self)
        } else {
            Vec::new()
        };
        self.make(m);
        let ok = if explosions {
            // A move may not blow up its own royal; one that blows up an enemy royal wins,
            // whatever it leaves attacked.
            let after = royal_counts(self);
            after[me.index()] == before[me.index()]
                && ((0..after.len()).any(|s| s != me.index() && after[s] < before[s])
                    || !self.royal_exposed(me))
        } else {
            !self.royal_exposed(me)
        };
        let ok = ok && !(facing_now && self.royals_facing(me));
        // Under `checks forbidden` no move may leave an enemy royal attacked.
        let ok = ok
            && !(checks_forbidden
                && (0..sides).any(|s| s != me.index() && self.royal_attacked(Side::nth(s))));
        let ok = ok
            && !(m.kind == MoveKind::Drop
                && ((self.drop_may_not_mate(m) && self.is_checkmate_now())
                    || (drop_no_check && self.in_check())));
        self.unmake();
        ok
    }

    /// Whether the drop `m` is refused when it mates: its piece `may not mate`, and the rules
    /// do not let such a drop mate (and lose) instead.
    #[inline]
    fn drop_may_not_mate(&self, m: Move) -> bool {
        let t = &self.sh.t;
        t.variant().piece(m.placed()).drops.no_mate && !t.rules().mating_drops_lose
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

    /// Generates the legal moves into `out` (which is cleared first). A game already decided
    /// ([`Position::decided`]) has none; under `must capture`, only the captures when there
    /// are any.
    // Inlined into every caller: left to the optimiser, one caller more (the turn passing of
    // games of more than two sides) made it compile the move generator a tenth slower for
    // every game (Gala Xiang-Qi's perft 4; chess 4%).
    #[inline(always)]
    pub fn legal_moves_into(&mut self, out: &mut Vec<Move>) {
        self.unforced_moves_into(out);
        self.keep_compulsory_drops(out);
        if self.tables().rules().must_drop && out.iter().any(Move::is_drop) {
            out.retain(Move::is_drop);
        }
        if self.tables().rules().must_capture && out.iter().any(|m| self.captures(m)) {
            out.retain(|m| self.captures(m));
        }
        if let Some(rule) = self.tables().rules().wall_placing {
            self.add_walls(rule, out);
        }
        if self.tables().rules().passing_when_stuck && out.is_empty() {
            self.pass_when_stuck(out);
        }
    }

    /// Under `passing allowed when stuck`: the pass of a side that has pieces, is not in check
    /// and has no other move, while the game goes on.
    #[cold]
    #[inline(never)]
    fn pass_when_stuck(&mut self, out: &mut Vec<Move>) {
        if !self.plist[self.stm.index()].is_empty()
            && !self.in_check()
            && !self.benched(self.stm)
            && self.decided().is_none()
        {
            out.push(self.pass_move());
        }
    }

    /// Under `each move places a wall`: each move in `out`, once for every square its wall
    /// may go to (an empty square after the move, of the zone, within the moved piece's
    /// reach); a move with nowhere to put its wall is not played. The move must be legal
    /// without its wall, as a gating move must be without its piece.
    #[cold]
    #[inline(never)]
    fn add_walls(&mut self, rule: WallPlacing, out: &mut Vec<Move>) {
        let sh = std::sync::Arc::clone(&self.sh);
        let t = &sh.t;
        let me = self.stm;
        let g = t.geometry();
        let zone = rule.zone.map(|z| t.zone(z, me));
        let moves = std::mem::take(out);
        let mut reach = Vec::new();
        let mut reachable = SquareSet::EMPTY;
        for m in moves {
            self.make(m);
            if rule.reach {
                // The moved piece's moves from where it stands now, as if it moved again.
                reach.clear();
                let next = self.stm;
                self.stm = me;
                let at = match m.castling() {
                    Some(id) => t.castling(id).rule.king_to,
                    None => m.landing(),
                };
                if self.board[at.index()] != 0 && self.board[at.index()] != WALL {
                    self.piece_moves(at, &mut reach);
                }
                self.stm = next;
                reachable = SquareSet::EMPTY;
                for r in &reach {
                    if self.board[r.to.index()] == 0 {
                        reachable.insert(r.to);
                    }
                }
            }
            for sq in g.squares() {
                if self.board[sq.index()] == 0
                    && !g.is_hole(sq)
                    && zone.is_none_or(|z| z.contains(sq))
                    && (!rule.reach || reachable.contains(sq))
                {
                    out.push(Move {
                        wall: Some(sq),
                        ..m
                    });
                }
            }
            self.unmake();
        }
    }

    /// Under `drop compulsory`, while such a piece is in the mover's hand: no other kind is
    /// dropped, and if one of them can be dropped, nothing else is played.
    fn keep_compulsory_drops(&self, out: &mut Vec<Move>) {
        let kinds = self.sh.t.compulsory_drops();
        if kinds.is_empty() || !kinds.iter().any(|&k| self.in_hand(self.stm, k) > 0) {
            return;
        }
        let compulsory = |m: &Move| {
            m.is_drop() && self.in_hand(self.stm, m.piece) > 0 && kinds.contains(&m.piece)
        };
        if out.iter().any(compulsory) {
            out.retain(compulsory);
        } else {
            out.retain(|m| !m.is_drop());
        }
    }

    /// Whether a move of this position takes a piece.
    fn captures(&self, m: &Move) -> bool {
        match m.kind {
            MoveKind::CaptureAt(_) | MoveKind::Shot => true,
            MoveKind::Normal | MoveKind::Passing(_) | MoveKind::Gate(_) => {
                self.board[m.to.raw() as usize] != 0
            }
            MoveKind::Double(via) => {
                self.board[via.raw() as usize] != 0
                    || (m.to != m.from && self.board[m.to.raw() as usize] != 0)
            }
            MoveKind::Drop
            | MoveKind::Castle(_)
            | MoveKind::CastleGate(..)
            | MoveKind::Pass
            | MoveKind::Promote => false,
        }
    }

    /// The legal moves before a capture obligation.
    fn unforced_moves_into(&mut self, out: &mut Vec<Move>) {
        out.clear();
        if self.decided().is_some() || self.benched(self.stm) {
            return;
        }
        self.pseudo_kept(out);
        let sh = std::sync::Arc::clone(&self.sh);
        let t = &sh.t;
        if !t.rules().guards_royals() {
            return;
        }
        let me = self.stm;
        let royals = &self.royals[me.index()];
        if royals.is_empty() {
            // A royal dropped from hand must not land attacked.
            if t.rules().hands {
                let mut i = 0;
                while i < out.len() {
                    let m = out[i];
                    if m.kind != MoveKind::Drop || !t.royal(m.placed()) || self.is_legal_pseudo(m) {
                        i += 1;
                    } else {
                        out.swap_remove(i);
                    }
                }
            }
            return;
        }
        let pending = self.pending_test();
        let mut i = 0;
        while i < out.len() {
            if self.legal_given(&pending, out[i]) {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }

    /// What is left to test of a pseudo-legal move of the side to move, which has royals under
    /// guard: whether the shortcut holds (one royal, not in check, no rule that makes a
    /// move's effect reach farther than its squares), and where the royal stands.
    fn pending_test(&self) -> PendingTest {
        let t = &self.sh.t;
        let me = self.stm;
        let royals = &self.royals[me.index()];
        // An explosion removes more than the mover and its victim: no shortcut.
        let fast = royals.len() == 1
            && !t.rules().explosions
            && !t.has_borrowing()
            && !t.rules().checks_forbidden
            // `royal_exposed` as the side to move's check, which the search has usually
            // asked of this position already.
            && !self.in_check()
            // Royals facing where a rule forbids it, or under `facing ... draws` where they
            // must be parted: every move is tested.
            && !((t.rules().facing_forbidden || t.rules().facing_draws) && self.royals_facing(me));
        let royal = Square::at(royals.first().copied().unwrap_or(0));
        let (vacate, fill) = if fast {
            self.exposing_squares(royal)
        } else {
            (SquareSet::EMPTY, SquareSet::EMPTY)
        };
        PendingTest { fast, vacate, fill }
    }

    /// The squares whose vacating, and those whose filling, may expose the side to move's
    /// royal on `royal`, which is not attacked now: a way of an enemy piece to it that one
    /// piece alone blocks (a pin), every square of a hopper's way (its screen may change),
    /// and the one piece between it and an enemy royal on a facing line. Far fewer than
    /// every square some piece could attack through, so most moves need no trial.
    fn exposing_squares(&self, royal: Square) -> (SquareSet, SquareSet) {
        let t = &self.sh.t;
        let me = self.stm;
        let mut vacate = SquareSet::EMPTY;
        let mut fill = SquareSet::EMPTY;
        for s in Side::all(t.sides()).filter(|&s| s != me) {
            for &f in &self.plist[s.index()] {
                let from = Square::at(f);
                let kind = self.cell_kind(self.board[f as usize]);
                if t.special_attacks(kind) {
                    // Attacks beyond the ways (a capture on the way): what any piece could
                    // attack through.
                    return (*t.vacate_sensitive(me, royal), *t.fill_sensitive(me, royal));
                }
                for w in t.ways(kind, s, from, royal) {
                    if !w.flags().has(PathFlags::CAPTURE) {
                        continue;
                    }
                    let (pre, between) = t.way_runs(&w);
                    if w.flags().has(PathFlags::HOP) {
                        for e in pre.iter().chain(between) {
                            vacate.insert(e.square());
                        }
                        for e in between {
                            fill.insert(e.square());
                        }
                        continue;
                    }
                    // A rider's way opens when its one blocker leaves; with two or more
                    // blockers no single move opens it, and filling never does.
                    let mut blockers = pre
                        .iter()
                        .chain(between)
                        .filter(|e| self.board[e.index()] != 0);
                    if let (Some(only), None) = (blockers.next(), blockers.next()) {
                        vacate.insert(only.square());
                    }
                }
            }
        }
        // A facing line opens when the one piece between the royals leaves it.
        let g = t.geometry();
        for &(dx, dy) in &t.rules().facing[me.index()] {
            let mut cur = royal;
            let mut between = None;
            while let Some(next) = g.offset(cur, dx, dy) {
                let c = self.board[next.index()];
                if c == WALL {
                    break;
                }
                if c != 0 {
                    if let Some(b) = between {
                        let p = self.decode(c);
                        if p.side != me && t.royal(p.kind) {
                            vacate.insert(b);
                        }
                        break;
                    }
                    between = Some(next);
                }
                cur = next;
            }
        }
        (vacate, fill)
    }

    /// Whether the pseudo-legal move `m` is legal, `pending` being this position's
    /// [`Position::pending_test`] (as [`Position::search_moves_into`] returns it).
    #[inline]
    pub(crate) fn legal_given(&mut self, pending: &PendingTest, m: Move) -> bool {
        let t = &self.sh.t;
        // A move off the lines to the royal, onto no square that could screen an attack,
        // cannot expose it.
        let safe = pending.fast
            && match m.kind {
                MoveKind::Normal | MoveKind::Passing(_) => {
                    !t.royal(m.piece)
                        && !pending.vacate.contains(m.from)
                        && !pending.fill.contains(m.to)
                }
                MoveKind::Drop => {
                    !t.royal(m.placed())
                        && !pending.fill.contains(m.to)
                        && !self.drop_may_not_mate(m)
                        && !t.variant().piece(m.placed()).drops.no_check
                }
                _ => false,
            };
        safe || self.is_legal_pseudo(m)
    }

    /// Whether the rules leave only the royal's safety to test of a pseudo-legal move: no move
    /// is compulsory, none is added when the side is stuck, and the side to move has one
    /// royal to guard.
    fn royal_test_alone(&self) -> bool {
        let r = self.tables().rules();
        !r.must_drop
            && !r.must_capture
            && r.wall_placing.is_none()
            && !r.passing_when_stuck
            && r.guards_royals()
            && self.sh.t.compulsory_drops().is_empty()
            && self.royals[self.stm.index()].len() == 1
    }

    /// Whether `m`, the move the transposition table keeps for this position's hash (so
    /// perhaps another position's), is a legal move here that a search may try before it
    /// generates the others: a move of a piece of the side to move along its own paths, where
    /// [`Position::search_moves_into`] would test only the royal's safety and no rule adds to
    /// or takes from the moves walked. Any other move answers false and waits for the rest.
    /// `scratch` is left holding the moving piece's moves.
    pub(crate) fn stageable(&mut self, m: Move, scratch: &mut Vec<Move>) -> bool {
        let t = &self.sh.t;
        if m.is_drop()
            || t.rules().gating.is_some()
            || t.any_in_place()
            || self.struck.is_some()
            || !self.royal_test_alone()
            || self.decided().is_some()
            || self.benched(self.stm)
            || self.piece_at(m.from).is_none_or(|p| p.side != self.stm)
        {
            return false;
        }
        scratch.clear();
        self.piece_moves(m.from, scratch);
        scratch.contains(&m) && self.is_legal_pseudo(m)
    }

    /// The moves for a search, which tries few of them: where the rules leave only the
    /// royal's safety to test, the pseudo-legal moves and the test ([`Position::legal_given`]
    /// before a move is made), else the legal moves and no test.
    pub(crate) fn search_moves_into(&mut self, out: &mut Vec<Move>) -> Option<PendingTest> {
        self.search_moves_into_with(out, Self::pseudo_moves)
    }

    /// [`Position::search_moves_into`] with `generate` for the pseudo-legal moves.
    #[inline(always)]
    fn search_moves_into_with(
        &mut self,
        out: &mut Vec<Move>,
        generate: fn(&Self, &mut Vec<Move>),
    ) -> Option<PendingTest> {
        if !self.royal_test_alone() {
            self.legal_moves_into(out);
            return None;
        }
        out.clear();
        if self.decided().is_some() || self.benched(self.stm) {
            return None;
        }
        generate(self, out);
        self.keep_unrefused(out);
        Some(self.pending_test())
    }

    /// The captures and promotions of [`Position::search_moves_into`], what quiescence
    /// plays, with the same test; or, where the rules want every move known first, `None`
    /// and all the legal moves. Other moves may come too (of pieces whose moves are not
    /// walked path by path): the caller keeps what it wants.
    pub(crate) fn search_captures_into(&mut self, out: &mut Vec<Move>) -> Option<PendingTest> {
        let t = &self.sh.t;
        // Gating adds to board moves after they are made, and in-place promotions are no walks.
        if t.rules().gating.is_some() || t.any_in_place() {
            return self.search_moves_into(out);
        }
        self.search_moves_into_with(out, Self::capture_moves)
    }

    /// The pseudo-legal moves that capture or may promote: every path walked without its
    /// quiet stops, unless its piece may promote there or it is not a plain walk.
    fn capture_moves(&self, out: &mut Vec<Move>) {
        let t = &self.sh.t;
        let me = self.stm;
        for &sq in &self.plist[me.index()] {
            let from = Square::at(sq);
            let kind = self.cell_kind(self.board[sq as usize]);
            if t.may_repeat(kind, me, from) || !t.teleports(kind).is_empty() || t.borrows(kind) {
                self.piece_moves(from, out);
                continue;
            }
            let promotes = t.may_promote(kind, me);
            for path in t.paths(kind, me, from) {
                let flags = path.flags();
                if promotes || flags.any(PathFlags::LION) {
                    self.walk_path(from, kind, path, flags, out);
                } else if flags.any(PathFlags::CAPTURE.with(PathFlags::TAKES_EP)) {
                    self.walk_path(from, kind, path, flags.without(PathFlags::MOVE), out);
                }
            }
        }
    }

    /// The pseudo-legal moves less those the rules refuse whatever the royals' safety.
    #[inline(always)]
    fn pseudo_kept(&mut self, out: &mut Vec<Move>) {
        self.pseudo_moves(out);
        self.keep_unrefused(out);
    }

    /// Removes from pseudo-legal moves those the rules refuse whatever the royals' safety:
    /// captures barred by a counter-strike, in-place promotions that would attack.
    #[inline(always)]
    fn keep_unrefused(&mut self, out: &mut Vec<Move>) {
        if self.struck.is_some() {
            self.keep_counter_strikes(out);
        }
        if self.sh.t.any_in_place() {
            self.drop_refused_in_place(out);
        }
    }

    /// Removes the in-place promotions `not attacking` refuses.
    fn drop_refused_in_place(&mut self, out: &mut Vec<Move>) {
        let mut i = 0;
        while i < out.len() {
            if out[i].kind == MoveKind::Promote && self.in_place_refused(out[i]) {
                out.remove(i);
            } else {
                i += 1;
            }
        }
    }

    /// The legal moves, in a stable order: board moves by squares, then drops.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut p = self.clone();
        let mut out = Vec::new();
        p.legal_moves_into(&mut out);
        out.sort_by_key(|m| (m.is_drop(), m.from, m.to, m.promotion.map(|k| k.raw())));
        out
    }

    /// Plays a legal move, recording whether it gave check (for repetition rules).
    ///
    /// The move must come from [`Position::legal_moves`] of this position.
    pub fn play(&mut self, m: Move) {
        self.make_turn(m);
        let check = self.in_check();
        self.gave_check.push(check);
    }

    /// Plays `m` if it is legal here; otherwise says why not and leaves the position as it
    /// was. For moves from outside (a GUI, a file, a script) that [`Position::legal_moves`]
    /// did not produce.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] once the rules have ended the game, [`PlayError::Illegal`] for a
    /// move not among the legal ones.
    pub fn try_play(&mut self, m: Move) -> Result<(), PlayError> {
        if let Some(o) = self.outcome() {
            return Err(PlayError::GameOver(o.reason));
        }
        if !self.legal_moves().contains(&m) {
            return Err(PlayError::Illegal(super::notation::coord(self, &m)));
        }
        self.play(m);
        Ok(())
    }

    /// Takes back the last move made with [`Position::play`].
    pub fn undo_move(&mut self) {
        self.unmake();
        self.gave_check.pop();
    }
}

/// Why [`Position::try_play`] refused a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game is over.
    #[error("the game is over ({0})")]
    GameOver(super::outcome::Reason),
    /// The move, in coordinate notation, is not legal here.
    #[error("`{0}` is not a legal move here")]
    Illegal(String),
}

/// What [`Position::search_moves_into`] leaves to test before a move is made.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PendingTest {
    fast: bool,
    /// Squares whose vacating may expose the royal.
    vacate: SquareSet,
    /// Squares whose filling may expose the royal.
    fill: SquareSet,
}
