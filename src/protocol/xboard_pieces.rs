//! How a definition's pieces are told to XBoard, which knows pieces as a fixed list of types
//! (Pawn, Knight, ... King), each with a FEN letter the `setup` command assigns and moves the
//! `piece` command gives in Betza. With every piece described, XBoard can test the legality
//! of moves, as it does for the games it knows.
//!
//! Each piece kind gets a type, by what XBoard does with it:
//! - the single royal kind goes to the King type, on which XBoard tests check;
//! - a kind with one promoted form, reached from it alone, gets a type among the first eleven
//!   and its promoted form the type eleven further, written `+` in the table: XBoard then
//!   takes the promotion as `e5e6+` wherever it happens (and writes that form `+P` in FEN);
//! - a kind promoting by choice gets the Pawn or Lance type: the only ones XBoard lets promote
//!   to a piece named after the move (on the last rank);
//! - a kind whose moves Betza cannot cover (bent paths, shots, teleports) gets the Falcon or
//!   Cobra type and no `piece` command: XBoard takes any move of those;
//! - any other the type of its own letter when free, else a free one.

use crate::engine::{notation, Move, MoveKind, Position};
use crate::model::betza::{write_as, Dialect};
use crate::model::{PieceKind, Tables};

/// XBoard's piece types in order, by their default letters.
const TYPES: &str = "PNBRQFEACWMOHIJGDVLSUK";
/// How many types have a promoted partner (the type `PARTNERS` further on).
const PARTNERS: usize = 11;
const PAWN: usize = 0;
const LANCE: usize = 18;
/// The wildcard types, whose moves XBoard does not check.
const WILDCARDS: [usize; 2] = [17, 19];
const KING: usize = TYPES.len() - 1;

/// The definition's pieces in XBoard's terms.
pub(super) struct PieceMap {
    /// Each kind's FEN token in XBoard (`Q`, `+P`), uppercase; empty when it has none.
    tokens: Vec<String>,
    /// The letter of each type (`.` unused, `+` a promoted partner).
    table: Vec<char>,
    /// `piece` commands.
    commands: Vec<String>,
    /// Holdings XBoard should show: enough for every type that can be in hand.
    holdings: usize,
}

impl PieceMap {
    pub(super) fn new(t: &Tables) -> Self {
        let pieces = t.variant().pieces();
        let n = pieces.len();
        let mut slot: Vec<Option<usize>> = vec![None; n];
        let mut table = vec!['.'; TYPES.len()];
        let single = |k: usize| {
            let l = &pieces[k].letter;
            (l.len() == 1 && l.as_bytes()[0].is_ascii_alphabetic())
                .then(|| l.as_bytes()[0].to_ascii_uppercase() as char)
        };
        let targets = |k: usize| -> Vec<usize> {
            let mut out: Vec<usize> = Vec::new();
            for p in &pieces[k].promotions {
                if t.guards_hold(&p.options) {
                    for c in &p.choices {
                        if !out.contains(&c.index()) {
                            out.push(c.index());
                        }
                    }
                }
            }
            out
        };
        let all_targets: Vec<Vec<usize>> = (0..n).map(targets).collect();
        let take = |k: usize, s: usize, table: &mut [char], slot: &mut [Option<usize>]| {
            table[s] = single(k).unwrap_or('.');
            slot[k] = Some(s);
        };

        let royals: Vec<usize> = (0..n).filter(|&k| pieces[k].royal).collect();
        if let [k] = royals.as_slice() {
            if single(*k).is_some() {
                take(*k, KING, &mut table, &mut slot);
            }
        }
        // Promoted partners: a kind whose only promotion is to a kind no other reaches.
        // Those whose own letter names a type with a partner go first, to keep it.
        let mut partner: Vec<Option<usize>> = vec![None; n];
        for own_letter in [true, false] {
            for k in 0..n {
                let [p] = all_targets[k].as_slice() else {
                    continue;
                };
                let sources = all_targets.iter().filter(|ts| ts.contains(p)).count();
                if sources != 1 || *p == k || slot[k].is_some() || slot[*p].is_some() {
                    continue;
                }
                let Some(letter) = single(k) else { continue };
                let free = |i: &usize| table[*i] == '.' && table[*i + PARTNERS] == '.';
                let own = TYPES.find(letter).filter(|&i| i < PARTNERS && free(&i));
                let s = if own_letter {
                    own
                } else {
                    (0..PARTNERS).find(free)
                };
                if let Some(s) = s {
                    take(k, s, &mut table, &mut slot);
                    table[s + PARTNERS] = '+';
                    slot[*p] = Some(s + PARTNERS);
                    partner[*p] = Some(k);
                }
            }
        }
        let written: Vec<_> = (0..n)
            .map(|k| write_as(t, PieceKind(k as u8), Dialect::XBoard))
            .collect();
        for k in 0..n {
            if slot[k].is_some() || single(k).is_none() {
                continue;
            }
            let want: &[usize] = if !written[k].covers {
                &WILDCARDS
            } else if all_targets[k].is_empty() {
                &[]
            } else {
                &[PAWN, LANCE]
            };
            if let Some(&s) = want.iter().find(|&&s| table[s] == '.') {
                take(k, s, &mut table, &mut slot);
            }
        }
        for k in 0..n {
            let Some(letter) = single(k) else { continue };
            if slot[k].is_some() {
                continue;
            }
            let own = TYPES.find(letter).filter(|&i| i != KING && table[i] == '.');
            // Free types, those with moves XBoard would check first.
            let free = (0..KING)
                .filter(|i| !WILDCARDS.contains(i))
                .chain(WILDCARDS)
                .find(|&i| table[i] == '.');
            if let Some(s) = own.or(free) {
                take(k, s, &mut table, &mut slot);
            }
        }

        let mut tokens = vec![String::new(); n];
        let mut commands = Vec::new();
        for k in 0..n {
            let Some(s) = slot[k] else { continue };
            let token = match partner[k] {
                Some(base) => format!("+{}", table[slot[base].expect("placed")]),
                None => table[s].to_string(),
            };
            let w = &written[k];
            let wildcard = WILDCARDS.contains(&s) && !w.covers;
            if !wildcard && !w.text.is_empty() {
                commands.push(format!("piece {token}& {}", w.text));
            }
            tokens[k] = token;
        }
        let holdings = if t.rules().drops {
            table[..KING]
                .iter()
                .filter(|&&c| c != '.' && c != '+')
                .count()
        } else {
            0
        };
        PieceMap {
            tokens,
            table,
            commands,
            holdings,
        }
    }

    /// `setup (TABLE) WxH+HOLDINGS_fairy FEN`, then a `piece` command for each piece.
    pub(super) fn setup(&self, start: &Position) -> Vec<String> {
        let g = start.tables().geometry();
        let white: String = self.table.iter().collect();
        let black = white.to_ascii_lowercase();
        let mut lines = vec![format!(
            "setup ({white}{black}) {}x{}+{}_fairy {}",
            g.width,
            g.height,
            self.holdings,
            self.fen_out(start.tables(), &start.fen())
        )];
        lines.extend(self.commands.iter().cloned());
        lines
    }

    /// A FEN of Rulebook's with XBoard's piece letters.
    pub(super) fn fen_out(&self, t: &Tables, fen: &str) -> String {
        translate(fen, &letters(t), &self.tokens)
    }

    /// XBoard's FEN with Rulebook's piece letters.
    pub(super) fn fen_in(&self, t: &Tables, fen: &str) -> String {
        translate(fen, &self.tokens, &letters(t))
    }

    /// A legal move as XBoard writes it, in Rulebook's squares: promotions as the promoted
    /// type's letter, or `+` to a promoted partner.
    pub(super) fn move_text(&self, pos: &Position, m: &Move) -> String {
        let g = pos.tables().geometry();
        match (m.kind, m.promotion) {
            (MoveKind::Drop, _) if !self.tokens[m.placed().index()].is_empty() => {
                format!("{}@{}", self.tokens[m.placed().index()], g.name(m.to))
            }
            (MoveKind::Drop | MoveKind::Castle(_) | MoveKind::Shot, _) | (_, None) => {
                notation::coord(pos, m)
            }
            (_, Some(k)) => {
                let to = &self.tokens[k.index()];
                let from = &self.tokens[m.piece.index()];
                let suffix = if to.is_empty() || from.is_empty() {
                    return notation::coord(pos, m);
                } else if *to == format!("+{from}") {
                    "+".to_string()
                } else if *from == format!("+{to}") {
                    "-".to_string()
                } else {
                    to.to_ascii_lowercase()
                };
                format!("{}{}{suffix}", g.name(m.from), g.name(m.to))
            }
        }
    }

    /// The legal move XBoard's `text` (in Rulebook's squares) names. A promotion suffix is
    /// read in every form XBoard writes or reads: a letter in either case, `=Q`, `(Q)`, `+`,
    /// `=+`, and a bare `=` for a promotion declined (Shogi's `h8b2=`).
    pub(super) fn parse(&self, pos: &Position, text: &str) -> Option<Move> {
        let text = &plain_suffix(text);
        let legal = pos.legal_moves();
        let found = legal.iter().find(|m| {
            let ours = self.move_text(pos, m);
            ours.eq_ignore_ascii_case(text)
        });
        match found {
            Some(m) => Some(*m),
            // Castling written king to rook, and the like.
            None => notation::parse_coord(pos, text)
                .ok()
                .filter(|m| legal.contains(m)),
        }
    }
}

/// A move with its promotion suffix in the one form [`PieceMap::move_text`] writes: `=` and
/// brackets dropped (`h8b2=` is `h8b2`, `e7e8=Q` and `e7e8(Q)` are `e7e8Q`, `=+` is `+`).
fn plain_suffix(text: &str) -> String {
    let mut out = text.replace('=', "");
    let b = out.as_bytes();
    let n = b.len();
    if n >= 3 && b[n - 1] == b')' && b[n - 3] == b'(' {
        let letter = b[n - 2] as char;
        out.truncate(n - 3);
        out.push(letter);
    }
    out
}

/// Rulebook's FEN letter of each kind, uppercase.
fn letters(t: &Tables) -> Vec<String> {
    t.variant()
        .pieces()
        .iter()
        .map(|p| p.letter.to_ascii_uppercase())
        .collect()
}

/// Rewrites the piece letters of a FEN's first field from `from` tokens to `to` tokens (both
/// uppercase, by kind), keeping each one's case; the longest token that fits wins.
fn translate(fen: &str, from: &[String], to: &[String]) -> String {
    let (board, rest) = fen.split_once(' ').unwrap_or((fen, ""));
    let mut out = String::new();
    let mut i = 0;
    while i < board.len() {
        let here = &board[i..];
        let best = (0..from.len())
            .filter(|&k| {
                !from[k].is_empty()
                    && !to[k].is_empty()
                    && here.len() >= from[k].len()
                    && here.is_char_boundary(from[k].len())
                    && here[..from[k].len()].eq_ignore_ascii_case(&from[k])
                    && here[..from[k].len()]
                        .chars()
                        .any(|c| c.is_ascii_alphabetic())
            })
            .max_by_key(|&k| from[k].len());
        match best {
            Some(k) => {
                let lower = here[..from[k].len()]
                    .chars()
                    .any(|c| c.is_ascii_lowercase());
                if lower {
                    out.push_str(&to[k].to_ascii_lowercase());
                } else {
                    out.push_str(&to[k]);
                }
                i += from[k].len();
            }
            None => {
                let c = here.chars().next().expect("not at the end");
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    if rest.is_empty() {
        out
    } else {
        format!("{out} {rest}")
    }
}
