//! `check --deep`: random games that look for what reading a definition cannot show: a side
//! left with nothing to move, a game that may never end, and internal errors (a panic, a FEN
//! that does not read back, a move that does not undo), each with the moves that lead there.

use super::clock::Instant;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use super::{notation, Position};

/// How much `check --deep` plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeepLimits {
    /// Games to play.
    pub games: u32,
    /// Most plies of one game.
    pub plies: u32,
    /// Most time for all games together.
    pub time: Duration,
    /// Seed of the move choices: the same seed plays the same games.
    pub seed: u64,
}

impl Default for DeepLimits {
    fn default() -> Self {
        DeepLimits {
            games: 200,
            plies: 400,
            time: Duration::from_secs(10),
            seed: 1,
        }
    }
}

/// What went wrong in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FindingKind {
    /// The side to move has no move at all, not even one its rules forbid, so the game ends
    /// only because of the stalemate rule.
    NothingToMove {
        /// How the rules end it.
        result: String,
    },
    /// The game reached the ply limit and no rule (move limit, repetition) could have ended
    /// it.
    Endless,
    /// A panic inside move generation, a move or an undo.
    Panic {
        /// The panic's message.
        message: String,
    },
    /// The position's FEN does not read back to the same position.
    FenRoundTrip {
        /// What it read back as.
        read_back: String,
    },
    /// A move and its undo do not restore the position.
    UndoMismatch {
        /// The move.
        mv: String,
        /// The position after the undo.
        after_undo: String,
    },
}

/// A problem found, with the moves from the start that reproduce it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// What went wrong.
    pub kind: FindingKind,
    /// The moves from the start position, in coordinate notation.
    pub moves: Vec<String>,
    /// The position where it happened.
    pub fen: String,
}

/// What `check --deep` found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeepReport {
    /// Games played.
    pub games: u32,
    /// Plies played in all.
    pub plies: u64,
    /// Games that ended by a rule.
    pub decided: u32,
    /// Problems, at most one of each kind.
    pub findings: Vec<Finding>,
}

/// A small, fast generator (xorshift64*): the games need variety, not quality.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

fn panic_message(e: &(dyn std::any::Any + Send)) -> String {
    e.downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| e.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

/// Plays random games from `start` within `limits`.
pub fn deep_check(start: &Position, limits: DeepLimits) -> DeepReport {
    deep_check_with(start, limits, |_| {})
}

/// [`deep_check`], telling `after_game` the report so far after each game (for progress).
pub fn deep_check_with(
    start: &Position,
    limits: DeepLimits,
    mut after_game: impl FnMut(&DeepReport),
) -> DeepReport {
    let began = Instant::now();
    let mut rng = Rng(limits.seed.max(1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut report = DeepReport::default();
    let rules = start.tables().rules();
    let can_end_long_games = rules.move_limit.is_some() || rules.repetition.is_some();
    let add = |report: &mut DeepReport, finding: Finding| {
        let same =
            |f: &Finding| std::mem::discriminant(&f.kind) == std::mem::discriminant(&finding.kind);
        if !report.findings.iter().any(same) {
            report.findings.push(finding);
        }
    };
    for _ in 0..limits.games {
        if began.elapsed() >= limits.time {
            break;
        }
        report.games += 1;
        let mut pos = start.clone();
        let mut moves: Vec<String> = Vec::new();
        let mut ended = false;
        for _ in 0..limits.plies {
            let step = catch_unwind(AssertUnwindSafe(|| {
                let outcome = pos.outcome();
                let legal = pos.legal_moves();
                (outcome, legal)
            }));
            let (outcome, legal) = match step {
                Ok(x) => x,
                Err(e) => {
                    add(
                        &mut report,
                        Finding {
                            kind: FindingKind::Panic {
                                message: panic_message(&*e),
                            },
                            moves: moves.clone(),
                            fen: pos.fen(),
                        },
                    );
                    ended = true;
                    break;
                }
            };
            let fen = pos.fen();
            match pos.with_fen(&fen).map(|p| p.fen()) {
                Ok(back) if back == fen => {}
                Ok(back) => add(
                    &mut report,
                    Finding {
                        kind: FindingKind::FenRoundTrip { read_back: back },
                        moves: moves.clone(),
                        fen: fen.clone(),
                    },
                ),
                Err(e) => add(
                    &mut report,
                    Finding {
                        kind: FindingKind::FenRoundTrip {
                            read_back: e.to_string(),
                        },
                        moves: moves.clone(),
                        fen: fen.clone(),
                    },
                ),
            }
            if let Some(o) = outcome {
                if legal.is_empty() && !pos.in_check() && pos.decided().is_none() {
                    let mut pseudo = Vec::new();
                    pos.pseudo_moves(&mut pseudo);
                    if pseudo.is_empty() {
                        add(
                            &mut report,
                            Finding {
                                kind: FindingKind::NothingToMove {
                                    result: super::record::describe(&pos, &o),
                                },
                                moves: moves.clone(),
                                fen: fen.clone(),
                            },
                        );
                    }
                }
                report.decided += 1;
                ended = true;
                break;
            }
            let m = legal[rng.below(legal.len())];
            let text = notation::coord(&pos, &m);
            let played = catch_unwind(AssertUnwindSafe(|| {
                pos.play(m);
                pos.undo_move();
                let back = pos.fen();
                pos.play(m);
                back
            }));
            report.plies += 1;
            match played {
                Ok(back) if back == fen => moves.push(text),
                Ok(back) => {
                    add(
                        &mut report,
                        Finding {
                            kind: FindingKind::UndoMismatch {
                                mv: text,
                                after_undo: back,
                            },
                            moves: moves.clone(),
                            fen,
                        },
                    );
                    ended = true;
                    break;
                }
                Err(e) => {
                    add(
                        &mut report,
                        Finding {
                            kind: FindingKind::Panic {
                                message: format!("playing {text}: {}", panic_message(&*e)),
                            },
                            moves: moves.clone(),
                            fen,
                        },
                    );
                    ended = true;
                    break;
                }
            }
        }
        if !ended && !can_end_long_games {
            add(
                &mut report,
                Finding {
                    kind: FindingKind::Endless,
                    moves: moves.clone(),
                    fen: pos.fen(),
                },
            );
        }
        after_game(&report);
    }
    report
}

impl FindingKind {
    /// The finding's code, documented in `docs/diagnostics.md` beside the checker's.
    pub fn code(&self) -> &'static str {
        match self {
            FindingKind::NothingToMove { .. } => "rulebook::deep::nothing_to_move",
            FindingKind::Endless => "rulebook::deep::endless",
            FindingKind::Panic { .. } => "rulebook::deep::panic",
            FindingKind::FenRoundTrip { .. } => "rulebook::deep::fen_round_trip",
            FindingKind::UndoMismatch { .. } => "rulebook::deep::undo_mismatch",
        }
    }

    /// How to act on it.
    pub fn help(&self) -> &'static str {
        match self {
            FindingKind::NothingToMove { .. } => {
                "a side with no pieces that can move is probably not what the game intends; if it is, make sure the stalemate rule says how it ends"
            }
            FindingKind::Endless => {
                "add a rule that ends long games, such as `repetition 3 draws` or a move limit, unless the game really may go on for ever"
            }
            FindingKind::Panic { .. }
            | FindingKind::FenRoundTrip { .. }
            | FindingKind::UndoMismatch { .. } => {
                "this is a fault of Rulebook, not of the definition: please report it with the definition and the moves"
            }
        }
    }

    /// Whether this is a fault of the interpreter rather than a property of the definition.
    pub fn is_internal(&self) -> bool {
        matches!(
            self,
            FindingKind::Panic { .. }
                | FindingKind::FenRoundTrip { .. }
                | FindingKind::UndoMismatch { .. }
        )
    }
}

impl std::fmt::Display for FindingKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FindingKind::NothingToMove { result } => write!(
                f,
                "the side to move has nothing it could move, not even into check; the rules end the game as: {result}"
            ),
            FindingKind::Endless => write!(
                f,
                "a game reached the ply limit without a result, and no move-limit or repetition rule could end it"
            ),
            FindingKind::Panic { message } => write!(f, "internal error: {message}"),
            FindingKind::FenRoundTrip { read_back } => {
                write!(f, "internal error: the FEN reads back as {read_back}")
            }
            FindingKind::UndoMismatch { mv, after_undo } => write!(
                f,
                "internal error: {mv} and its undo leave {after_undo}"
            ),
        }
    }
}
