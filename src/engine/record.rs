//! Game records: reading a list of moves as players write them and replaying it.
//!
//! A record is whitespace-separated moves in any notation [`notation::parse_move`] reads.
//! Move numbers (`1.`, `1...`, `12.e4`), results (`1-0`, `0-1`, `1/2-1/2`, `*`), lone dashes and
//! comments in braces or parentheses standing apart from a move are skipped; so are lines
//! starting with `#`. Check marks are verified:
//! a move marked `+` must give check and one marked `#` must checkmate.

use super::mv::{Move, MoveKind};
use super::notation::{self, ParseMoveError};
use super::outcome::Outcome;
use super::position::Position;

/// One replayed ply.
#[derive(Clone, Debug)]
pub struct Ply {
    /// The text as the record wrote it.
    pub text: String,
    /// The move.
    pub mv: Move,
    /// In SAN-like notation, with check marks.
    pub san: String,
    /// In coordinate notation.
    pub coord: String,
}

/// A record that replayed to its end.
#[derive(Clone, Debug)]
pub struct Replay {
    /// Each ply in order.
    pub plies: Vec<Ply>,
    /// The position after the last ply.
    pub position: Position,
    /// The result, if the game is over there.
    pub outcome: Option<Outcome>,
}

/// Why a record stopped: the ply (from 1), its text and the reason, as one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply} `{text}`: {reason}")]
pub struct ReplayError {
    /// The ply number, from 1.
    pub ply: usize,
    /// The move text.
    pub text: String,
    /// Why it was refused.
    pub reason: String,
}

/// Splits a record into move texts.
pub fn tokens(record: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth_brace = 0;
    let mut depth_paren = 0;
    let words = record
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(str::split_whitespace);
    for raw in words {
        let mut word = raw;
        if depth_brace > 0 || word.starts_with('{') {
            depth_brace += word.matches('{').count();
            depth_brace -= word.matches('}').count().min(depth_brace);
            continue;
        }
        if depth_paren > 0 || word.starts_with('(') {
            depth_paren += word.matches('(').count();
            depth_paren -= word.matches(')').count().min(depth_paren);
            continue;
        }
        // A move number, possibly glued to the move: `12.`, `12...`, `12.e4`.
        let digits = word.bytes().take_while(|b| b.is_ascii_digit()).count();
        if digits > 0 && word[digits..].starts_with('.') {
            word = word[digits..].trim_start_matches('.');
        }
        // A lone dash is a list bullet, as records copied from web pages often start with.
        if word.is_empty() || matches!(word, "-" | "1-0" | "0-1" | "1/2-1/2" | "*" | "½-½") {
            continue;
        }
        out.push(word.to_string());
    }
    out
}

/// Why `m`, a pseudo-legal move, is not legal: names the royal it leaves attacked.
fn why_illegal(pos: &Position, m: Move) -> String {
    let mut after = pos.clone();
    let me = pos.side_to_move();
    after.make(m);
    let t = pos.tables();
    let g = t.geometry();
    for r in after.royal_squares(me) {
        let other = after.next_side(me);
        if after.attacked_by(r, other) {
            let name = after
                .piece_at(r)
                .map(|p| t.variant().piece(p.kind).name.clone())
                .unwrap_or_default();
            return format!(
                "leaves the {} on {} in check",
                name.to_lowercase(),
                g.name(r)
            );
        }
    }
    if after.royal_exposed(me) {
        return "leaves the royal pieces facing each other".into();
    }
    if m.kind == MoveKind::Drop {
        return "this drop may not give checkmate".into();
    }
    "is not legal here".into()
}

/// Why `text`, read as a move but matching no legal move, cannot be played: the rule it breaks
/// when it names a pseudo-legal move, else what stands in its way. `why` is the parser's own
/// hint, if any.
pub fn why_not_legal(pos: &Position, text: &str, why: &str) -> String {
    let mut pseudo = Vec::new();
    pos.pseudo_moves(&mut pseudo);
    let core = text.trim_end_matches(['+', '#', '!', '?']);
    match notation::parse_move_among(pos, core, &pseudo) {
        Ok(m) => why_illegal(pos, m),
        Err(_) if !why.is_empty() => format!("not a legal move{why}"),
        Err(_) => notation::explain(pos, core).unwrap_or_else(|| "matches no legal move".into()),
    }
}

/// Replays `record` from `start`.
///
/// # Errors
/// At the first move that cannot be read, matches no legal move or several, or whose check
/// mark is wrong.
pub fn replay(start: &Position, record: &str) -> Result<Replay, ReplayError> {
    let mut pos = start.clone();
    let mut plies = Vec::new();
    for (i, text) in tokens(record).into_iter().enumerate() {
        let fail = |reason: String| ReplayError {
            ply: i + 1,
            text: text.clone(),
            reason,
        };
        if let Some(o) = pos.outcome() {
            return Err(fail(format!(
                "the game is already over ({})",
                describe(&pos, &o)
            )));
        }
        let mv = match notation::parse_move(&pos, &text) {
            Ok(m) => m,
            Err(ParseMoveError::Illegal { why, .. }) => {
                return Err(fail(why_not_legal(&pos, &text, &why)))
            }
            Err(e @ ParseMoveError::Ambiguous { .. }) => return Err(fail(e.to_string())),
            Err(ParseMoveError::Unreadable(_)) => {
                return Err(fail("is not a move in any notation this tool reads".into()))
            }
        };
        let san = notation::san(&pos, &mv);
        let coord = notation::coord(&pos, &mv);
        // Marks are what follows the move itself; a `+` right after `=` or ending a
        // coordinate move is a promotion, not a check mark.
        let marks: String = if text
            .to_ascii_lowercase()
            .starts_with(&coord.to_ascii_lowercase())
        {
            text[coord.len()..].to_string()
        } else {
            let body = text.replace("=+", "=");
            let mut m: Vec<char> = body
                .chars()
                .rev()
                .take_while(|c| "+#!?".contains(*c))
                .collect();
            m.reverse();
            m.into_iter().collect()
        };
        let marked_mate = marks.contains('#');
        let marked_check = marks.contains('+');
        let gives_mate = san.ends_with('#');
        let gives_check = san.ends_with('+') || gives_mate;
        if marked_mate && !gives_mate {
            return Err(fail(format!(
                "is marked as checkmate, but it {}",
                if gives_check {
                    "only gives check"
                } else {
                    "does not give check"
                }
            )));
        }
        if marked_check && !gives_check {
            return Err(fail(
                "is marked as check, but it does not give check".into(),
            ));
        }
        pos.play(mv);
        plies.push(Ply {
            text,
            mv,
            san,
            coord,
        });
    }
    let outcome = pos.outcome();
    Ok(Replay {
        plies,
        position: pos,
        outcome,
    })
}

/// A result in words: `checkmate, white wins`.
pub fn describe(pos: &Position, o: &Outcome) -> String {
    let v = pos.tables().variant();
    // A named `when` rule speaks for itself: `great victory, white wins`.
    let named = match o.reason {
        super::outcome::Reason::Condition(i) => v
            .rules()
            .conditions
            .get(i as usize)
            .and_then(|c| c.name.clone()),
        _ => None,
    };
    let reason = named.unwrap_or_else(|| o.reason.to_string());
    match o.winner() {
        Some(winner) => format!("{}, {} wins", reason, v.side(winner).name),
        None if o.is_draw() => format!("{}, draw", reason),
        None => {
            let winners: Vec<&str> = (0..v.sides().len())
                .filter(|&s| o.results()[s] == crate::model::Verdict::Win)
                .map(|s| v.sides()[s].name.as_str())
                .collect();
            format!("{}, {} win", reason, winners.join(" and "))
        }
    }
}
