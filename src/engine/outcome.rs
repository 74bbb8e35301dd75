//! How a game ends.

use std::fmt;

use super::position::Position;
use crate::model::{Side, Verdict};

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
        })
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `winner` won.
    Win {
        /// Who won.
        winner: Side,
        /// Why.
        reason: Reason,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: Reason,
    },
}

impl Position {
    fn verdict_for(&self, side: Side, v: Verdict, reason: Reason) -> Outcome {
        let other = self.next_side(side);
        match v {
            Verdict::Win => Outcome::Win {
                winner: side,
                reason,
            },
            Verdict::Loss => Outcome::Win {
                winner: other,
                reason,
            },
            Verdict::Draw => Outcome::Draw { reason },
        }
    }

    /// The outcome if the game is over in this position, `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        let t = self.tables();
        let me = self.side_to_move();
        if t.rules.extinction {
            for s in 0..t.sides {
                if self.royals[s].is_empty() {
                    let loser = Side(s as u8);
                    return Some(Outcome::Win {
                        winner: self.next_side(loser),
                        reason: Reason::Extinction,
                    });
                }
            }
        }
        if self.legal_moves().is_empty() {
            return Some(if self.in_check() {
                Outcome::Win {
                    winner: self.next_side(me),
                    reason: Reason::Checkmate,
                }
            } else {
                self.verdict_for(me, t.rules.stalemate, Reason::Stalemate)
            });
        }
        if let Some(rep) = &t.rules.repetition {
            let earlier: Vec<usize> = (0..self.undo.len())
                .filter(|&i| self.undo[i].hash == self.hash)
                .collect();
            if earlier.len() + 1 >= rep.count as usize {
                let n = self.undo.len();
                let repeater = Side(((me.index() + t.sides - 1) % t.sides) as u8);
                if rep.perpetual_check_loses && self.gave_check.len() == n {
                    let first = earlier[earlier.len() + 1 - rep.count as usize];
                    // Plies of the cycle made by each side: the repeater made the last one.
                    let checks_by = |offset: usize| {
                        (first..n)
                            .rev()
                            .skip(offset)
                            .step_by(t.sides)
                            .all(|i| self.gave_check[i])
                    };
                    if checks_by(0) {
                        return Some(Outcome::Win {
                            winner: self.next_side(repeater),
                            reason: Reason::PerpetualCheck,
                        });
                    }
                    if checks_by(1) {
                        return Some(Outcome::Win {
                            winner: repeater,
                            reason: Reason::PerpetualCheck,
                        });
                    }
                }
                return Some(self.verdict_for(repeater, rep.verdict, Reason::Repetition));
            }
        }
        if let Some(limit) = t.rules.move_limit {
            if self.halfmove_clock() >= limit {
                return Some(Outcome::Draw {
                    reason: Reason::MoveLimit,
                });
            }
        }
        None
    }
}
