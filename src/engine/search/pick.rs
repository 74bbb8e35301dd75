//! Moves handed out best first, one at a time: most nodes cut off after a move or two, so the
//! rest are never sorted, and a capture's static exchange is worked out only when it comes up.

use super::{see, Engine};
use crate::engine::mv::Move;
use crate::engine::position::Position;

/// A capture's key below this is a winning one's; the exchange moves a losing one behind all
/// the quiet moves.
const LOSING_SHIFT: i64 = 2_000_000;

/// A node's moves with their ordering keys (lower first), handed out by [`Picker::next`].
pub(super) struct Picker {
    /// Key, move, and whether the move's exchange is still to be worked out.
    pub(super) keyed: Vec<(i64, Move, bool)>,
    next: usize,
    /// The node's continuation histories ([`Engine::continuations`]), which its late-move
    /// reductions read too.
    pub(super) continuations: [Option<usize>; 2],
    /// Whether the move [`Picker::next`] last handed out is a capture the exchange says
    /// loses, which late-move reductions reduce too.
    pub(super) last_losing: bool,
}

impl Picker {
    /// The move to try next, or `None` when all have been; captures the static exchange says
    /// lose come after the quiet moves, or, with `drop_losing`, not at all.
    pub(super) fn next(
        &mut self,
        engine: &Engine,
        p: &mut Position,
        drop_losing: bool,
    ) -> Option<Move> {
        loop {
            let rest = self.keyed.get(self.next..)?;
            let (best, _) = rest.iter().enumerate().min_by_key(|(_, k)| k.0)?;
            self.keyed.swap(self.next, self.next + best);
            let (key, m, unchecked) = self.keyed[self.next];
            if unchecked && see::see(&engine.eval, p, &m) < 0 {
                if drop_losing {
                    self.keyed.swap_remove(self.next);
                } else {
                    self.keyed[self.next] = (key + LOSING_SHIFT, m, false);
                }
                continue;
            }
            self.next += 1;
            self.last_losing = key >= LOSING_SHIFT / 4;
            return Some(m);
        }
    }
}

impl Engine {
    /// The picker of `moves`: the hash move, captures that do not lose material (by victim,
    /// then attacker), promotions, killers, the refutation of the move before, quiet moves by
    /// history, and last the captures the static exchange says lose.
    pub(super) fn picker(
        &mut self,
        p: &Position,
        moves: &[Move],
        tt_move: Option<Move>,
        ply: usize,
    ) -> Picker {
        let side = p.side_to_move();
        let counter = self.counter_index(p).and_then(|c| self.counters[c]);
        let continuations = self.continuations(p);
        // The list an earlier node at this ply gave back (a new one if it did not).
        let mut keyed = std::mem::take(&mut self.lists[ply].keyed);
        keyed.clear();
        keyed.extend(moves.iter().map(|&m| {
            if Some(m) == tt_move {
                return (i64::MIN, m, false);
            }
            let mut s = 0i64;
            let mut unchecked = false;
            let victim = self.victim(p, &m);
            if let Some(v) = victim {
                // A capture that takes no less than it risks never loses the exchange.
                let attacker = self.eval.value(m.piece);
                unchecked = v < attacker;
                s += 1_000_000 + i64::from(v) * 16 - i64::from(attacker) / 16;
            }
            if let Some(k) = m.promotion {
                if !m.is_drop() {
                    s += 500_000 + i64::from(self.eval.value(k));
                }
            }
            if victim.is_none() && s == 0 {
                s = if self.killers[ply][0] == Some(m) {
                    400_000
                } else if self.killers[ply][1] == Some(m) {
                    399_000
                } else if counter == Some(m) {
                    398_000
                } else {
                    i64::from(self.quiet_score(p, side, &m, &continuations))
                };
            }
            (-s, m, unchecked)
        }));
        Picker {
            keyed,
            next: 0,
            continuations,
            last_losing: false,
        }
    }

    /// Sorts `moves` in the picker's order, every exchange worked out.
    pub(super) fn order(
        &mut self,
        p: &mut Position,
        moves: &mut [Move],
        tt_move: Option<Move>,
        ply: usize,
    ) {
        let mut picker = self.picker(p, moves, tt_move, ply);
        let mut i = 0;
        while let Some(m) = picker.next(self, p, false) {
            moves[i] = m;
            i += 1;
        }
    }
}
