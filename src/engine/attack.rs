//! Attack detection: whether a square is attacked, by whom and along which ways, royals in
//! check or facing each other, and the borrowed powers that count as attacks.

use super::position::{Position, WALL};
use crate::model::{PathFlags, PieceKind, RoyalGuard, Side, Square, Way};

impl Position {
    /// Whether the piece on `from` could capture on `target` along `way` now: a capturing way,
    /// open, and allowed to take what stands there (an empty square counts as takeable, for
    /// the "would a royal be attacked there" question).
    #[inline]
    fn captures_along(&self, way: &Way, by: Side, from: Square, target: Square) -> bool {
        let t = &self.sh.t;
        way.flags().has(PathFlags::CAPTURE)
            && (way.target() == 0 || {
                let c = self.board[target.index()];
                (c == 0
                    || c != WALL
                        && t.may_capture(way.target(), self.cell_kind(c), by, self.cell_side(c)))
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
            .any(|w| self.captures_along(&w, by, from, target))
            || (t.special_attacks(kind) && self.special_attack(kind, from, by, target))
    }

    /// The attacks of [`Position::attacks_from`] that its ways do not hold: borrowed powers,
    /// and captures after a capture on the way.
    #[cold]
    #[inline(never)]
    fn special_attack(&self, kind: PieceKind, from: Square, by: Side, target: Square) -> bool {
        let t = &self.sh.t;
        (t.borrows(kind) && self.borrowed_attack(from, by, target))
            || (t.bridges(kind) && self.bridge_attack(kind, from, by, target))
    }

    /// Whether the piece of `kind` of `by` on `from` could capture on `target` after capturing
    /// on its way (`capturing on the way`); a square next to it that holds a piece it may take
    /// on the way opens the second step.
    fn bridge_attack(&self, kind: PieceKind, from: Square, by: Side, target: Square) -> bool {
        let t = &self.sh.t;
        t.paths(kind, by, from).iter().any(|path| {
            let flags = path.flags();
            if !flags.has(PathFlags::BRIDGE)
                || !flags.has(PathFlags::CAPTURE)
                || flags.has(PathFlags::RETURNS)
                || !self.condition_holds(path.condition(), from)
            {
                return false;
            }
            let (pre, ray) = t.path_runs(path);
            let (Some(mid), Some(end)) = (pre.last(), ray.last()) else {
                return false;
            };
            if end.square() != target || !end.can_stop() {
                return false;
            }
            let c = self.board[mid.index()];
            let tc = self.board[target.index()];
            c != 0
                && c != WALL
                && t.may_capture_on_way(path.target(), self.cell_kind(c), by, self.cell_side(c))
                && (tc == 0
                    || (tc != WALL
                        && t.may_capture(
                            path.target(),
                            self.cell_kind(tc),
                            by,
                            self.cell_side(tc),
                        )))
        })
    }

    /// Whether a side other than `owner` attacks `sq` (pieces of a side benched out of the
    /// running attack nothing).
    pub(crate) fn attacked_by_others(&self, sq: Square, owner: Side) -> bool {
        (0..self.sh.t.sides()).any(|by| {
            by != owner.index()
                && !self.benched(Side::nth(by))
                && self.attacked_by(sq, Side::nth(by))
        })
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
                if !m.without(mask).is_empty() && self.way_usable(&w, from) {
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
                .any(|w| self.captures_along(&w, by, at, target))
                && self.plist[by.index()].iter().any(|&g| {
                    g != at.raw()
                        && self.cell_kind(self.board[g as usize]) == kind
                        && t.ways(kind, by, Square::at(g), at).any(|w| {
                            w.flags().has(PathFlags::CAPTURE) && self.way_usable(&w, Square::at(g))
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
                    if c == WALL {
                        return false;
                    }
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
                if c == WALL {
                    return false;
                }
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
        (self.royals_guarded(side) && self.royal_attacked(side))
            || (self.sh.t.rules().facing_forbidden && self.royals_facing(side))
    }

    /// Whether the side to move is in check (a royal attacked), under a checkmate rule.
    pub fn in_check(&self) -> bool {
        // The hash covers the board, the walls, the unmoved marks and the side to move:
        // everything an attack depends on.
        let (hash, check) = self.check_memo.get();
        if hash == self.hash {
            return check;
        }
        let check = self.royals_guarded(self.stm) && self.royal_attacked(self.stm);
        self.check_memo.set((self.hash, check));
        check
    }

    /// Whether `side`'s royals may not be left attacked: under a checkmate rule, and with
    /// `, last royal` only while it has one left.
    #[inline]
    pub(crate) fn royals_guarded(&self, side: Side) -> bool {
        let r = self.sh.t.rules();
        r.checkmate && (r.royal_guard != RoyalGuard::Last || self.royals[side.index()].len() == 1)
    }
}
