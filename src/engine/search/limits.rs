//! What a search is asked and what it answers: limits and clocks, scores and reports, and
//! the time a move may take.

use std::time::Duration;

use super::{MATE, MATE_BOUND};
use crate::engine::Move;

/// A score as protocols report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for the side to move.
    Centipawns(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl Score {
    /// The protocol form of an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s > MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s < -MATE_BOUND {
            Score::Mate(-(MATE + s + 1) / 2)
        } else {
            Score::Centipawns(s)
        }
    }
}

/// A game clock for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub time: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// When the search stops (the first limit reached); none at all means until stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Plies of full-width search.
    pub depth: Option<u32>,
    /// Positions visited.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// The clock of the side to move, from which a time for this move is taken.
    pub clock: Option<Clock>,
}

/// What one finished iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The depth searched.
    pub depth: u32,
    /// The score for the side to move.
    pub score: Score,
    /// Positions visited so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation, best move first.
    pub pv: Vec<Move>,
}

impl Report {
    /// Positions per second.
    pub fn nps(&self) -> u64 {
        let ms = u64::try_from(self.elapsed.as_millis().max(1)).unwrap_or(u64::MAX);
        self.nodes * 1000 / ms
    }
}

/// Which search plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Style {
    /// This module's search.
    #[default]
    Full,
    /// The first engine: material only, every move to a fixed depth, deepened while time
    /// lasts.
    Basic,
}

/// The time this move should take (after which no new iteration starts) and the most it may
/// take.
pub(super) fn time_for_move(limits: &Limits) -> (Option<Duration>, Option<Duration>) {
    if let Some(t) = limits.movetime {
        return (None, Some(t));
    }
    let Some(c) = limits.clock else {
        return (None, None);
    };
    // Keep a reserve for the protocol's own delays.
    let left = c.time.saturating_sub(Duration::from_millis(50));
    let moves = c.moves_to_go.unwrap_or(30).clamp(1, 50);
    let soft = left / moves + c.increment * 3 / 4;
    let soft = soft.min(left / 2);
    let hard = (soft * 3).min(left * 2 / 5).max(soft);
    (Some(soft), Some(hard))
}
