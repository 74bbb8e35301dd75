//! Move notation: coordinate moves (`e2e4`, `e7e8q`, `a10a9`, `P@e5`) and SAN-like moves
//! (`Nf3`, `exd5`, `e8=Q`, `Hhi3`, `P*e5`, `O-O`), written and read.
//!
//! Reading SAN is lenient about what records write: move numbers (`1.`, `1...`) are stripped by
//! the caller; captures may be marked `x` or `:` (and must then be captures); a `-` between the
//! squares of a long-algebraic move is allowed; check marks `+`/`#` and annotations `!?` are
//! accepted here and verified by tools that care; promotion may be `=Q`, `Q` or `(Q)`; a
//! move without a piece letter is a move of a piece lettered `P`, unless it names its
//! starting square (`b3-d4`), in which case any piece there may move.

use super::mv::{Move, MoveKind};
use super::position::{Piece, Position};
use crate::model::{Geometry, Mark, Square};

/// Why a move text was refused; the message is one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// The text is not a move in any notation we read.
    #[error("`{0}` is not a move in coordinate or algebraic notation")]
    Unreadable(String),
    /// No legal move matches.
    #[error("`{text}` is not a legal move here{why}")]
    Illegal {
        /// The text.
        text: String,
        /// More detail, starting with `: ` when present.
        why: String,
    },
    /// Several legal moves match.
    #[error("`{text}` is ambiguous: it could be {options}")]
    Ambiguous {
        /// The text.
        text: String,
        /// The candidates in coordinate notation.
        options: String,
    },
}

fn promo_suffix(pos: &Position, m: &Move) -> String {
    match m.promotion {
        None => String::new(),
        Some(k) => {
            let l = pos.tables().variant().piece(k).letter;
            let base = pos.tables().variant().piece(m.piece).letter;
            if l.mark() == Mark::Plus && l.unmarked() == base {
                "+".into()
            } else if base.mark() == Mark::Plus && base.unmarked() == l {
                // Back from the `+` form (`c3c4-`), as Kyoto Shogi's pieces turn over.
                "-".into()
            } else {
                // A `~` letter promotes as the letter it marks (`e7e8q` to `Q~`).
                l.without_tilde().lowercase().to_string()
            }
        }
    }
}

/// A move in coordinate notation: `e2e4`, `e7e8q`, `h7h8+` (promotion to the `+` form),
/// `h7h8-` (back from it), `P@e5` (drop), `+P@e5` (a drop as the `+` form). Castling is the king's move (`e1g1`), or king-to-partner (`c1a1`) where the
/// king could also step to its destination. A shot (a capture without moving) is written as
/// a locust capture that lands where it started: from, victim, from (`e5e9e5`). A pass is the
/// square of the side's first royal twice (`e2e2`), as Fairy-Stockfish writes it; `pass`,
/// `0000` and `@@@@` are read too. A move that builds a wall ends with a comma, the square it
/// reached and the wall's square (`e2e4,e4e5`), as Fairy-Stockfish writes it.
pub fn coord(pos: &Position, m: &Move) -> String {
    match m.wall {
        Some(w) => {
            let g = pos.tables().geometry();
            let base = coord_unwalled(pos, &Move { wall: None, ..*m });
            format!("{base},{}{}", g.name(written_to(pos, m)), g.name(w))
        }
        None => coord_unwalled(pos, m),
    }
}

/// The last square coordinate notation writes for `m`: where the move is said to go.
pub fn written_to(pos: &Position, m: &Move) -> Square {
    let t = pos.tables();
    match m.kind {
        MoveKind::Castle(id) if t.castling(id).written_to_partner => {
            t.castling(id).rule.partner_from
        }
        MoveKind::CastleGate(id, _, true) => t.castling(id).rule.king_from,
        MoveKind::Shot | MoveKind::Pass => m.from,
        _ => m.to,
    }
}

fn coord_unwalled(pos: &Position, m: &Move) -> String {
    let t = pos.tables();
    let g = t.geometry();
    if let Some(k) = m.gated() {
        // Fairy-Stockfish's gating: the gated piece's letter after the move (`b1c3h`); on a
        // castling partner's square, the partner's square first (`h1e1h`).
        let letter = t.variant().piece(k).letter.to_string().to_ascii_lowercase();
        return match m.kind {
            MoveKind::CastleGate(id, _, true) => {
                let r = &t.castling(id).rule;
                format!("{}{}{letter}", g.name(r.partner_from), g.name(r.king_from))
            }
            _ => format!("{}{letter}", coord(pos, &m.ungated())),
        };
    }
    match m.kind {
        MoveKind::Drop => {
            let letter = t.variant().piece(m.placed()).letter;
            return format!("{letter}@{}", g.name(m.to));
        }
        MoveKind::Castle(id) => {
            let c = t.castling(id);
            if c.written_to_partner {
                return format!(
                    "{}{}",
                    g.name(c.rule.king_from),
                    g.name(c.rule.partner_from)
                );
            }
        }
        MoveKind::Shot => {
            return format!("{}{}{}", g.name(m.from), g.name(m.to), g.name(m.from));
        }
        MoveKind::Pass => return format!("{}{}", g.name(m.from), g.name(m.from)),
        MoveKind::Double(via) => {
            // The three squares in order, as Chu Shogi's engines write a lion's double move.
            return format!(
                "{}{}{}{}",
                g.name(m.from),
                g.name(via),
                g.name(m.to),
                promo_suffix(pos, m)
            );
        }
        _ => {}
    }
    format!("{}{}{}", g.name(m.from), g.name(m.to), promo_suffix(pos, m))
}

/// Reads a coordinate move and finds it among the legal moves.
///
/// # Errors
/// If the text matches no legal move.
pub fn parse_coord(pos: &Position, text: &str) -> Result<Move, ParseMoveError> {
    coord_among(pos, text, &pos.legal_moves())
}

/// Reads a coordinate move and finds it among `legal`.
fn coord_among(pos: &Position, text: &str, legal: &[Move]) -> Result<Move, ParseMoveError> {
    let wanted = text.trim();
    if ["pass", "0000", "@@@@"].contains(&wanted) {
        if let Some(m) = legal.iter().find(|m| m.is_pass()) {
            return Ok(*m);
        }
    }
    // Squares are lowercase, so `B3c5` (a bishop from rank 3) is never read as `b3c5`; only
    // a drop's piece letter and a promotion letter may be in either case.
    let readable = wanted.contains('@') || wanted.starts_with(|c: char| c.is_ascii_lowercase());
    let found: Vec<&Move> = legal
        .iter()
        .filter(|m| {
            readable && {
                let c = coord(pos, m);
                if m.kind == MoveKind::Drop {
                    c.split_once('@').map(|x| x.1) == wanted.split_once('@').map(|x| x.1)
                        && drop_letter_matches(pos, m, wanted)
                } else {
                    c.eq_ignore_ascii_case(wanted)
                }
            }
        })
        .collect();
    // A pass by stepping out and back is one move, whichever empty square it steps to.
    let found = if found.is_empty() {
        legal
            .iter()
            .filter(|m| match m.kind {
                MoveKind::Double(via) if m.to == m.from && pos.piece_at(via).is_none() => {
                    let g = pos.tables().geometry();
                    let (a, b) = (g.name(m.from).to_string(), wanted.to_ascii_lowercase());
                    b.len() > 2 * a.len()
                        && b.starts_with(&a)
                        && b.ends_with(&a)
                        && g.parse(&b[a.len()..b.len() - a.len()]).is_some_and(|v| {
                            pos.piece_at(v).is_none()
                                && (g.file(v) - g.file(m.from)).abs() <= 1
                                && (g.rank(v) - g.rank(m.from)).abs() <= 1
                        })
                }
                _ => false,
            })
            .collect()
    } else {
        found
    };
    // Chess960 writes every castling king to rook (`e1h1`): read that too, where no move is
    // written so.
    let found = if found.is_empty() {
        let g = pos.tables().geometry();
        legal
            .iter()
            .filter(|m| match m.kind {
                MoveKind::Castle(id) => {
                    let r = &pos.tables().castling(id).rule;
                    format!("{}{}", g.name(r.king_from), g.name(r.partner_from))
                        .eq_ignore_ascii_case(wanted)
                }
                _ => false,
            })
            .collect()
    } else {
        found
    };
    match found.as_slice() {
        [m] => Ok(**m),
        [] => {
            if looks_like_coord(pos.tables().geometry(), wanted) {
                Err(ParseMoveError::Illegal {
                    text: wanted.into(),
                    why: String::new(),
                })
            } else {
                Err(ParseMoveError::Unreadable(wanted.into()))
            }
        }
        many => Err(ParseMoveError::Ambiguous {
            text: wanted.into(),
            options: many
                .iter()
                .map(|m| coord(pos, m))
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}

fn drop_letter_matches(pos: &Position, m: &Move, text: &str) -> bool {
    let letter = pos.tables().variant().piece(m.placed()).letter;
    text.split('@').next().is_some_and(|l| letter.matches(l))
}

fn looks_like_coord(g: Geometry, text: &str) -> bool {
    g.parse_prefix(text)
        .and_then(|(_, n)| g.parse_prefix(&text[n..]))
        .is_some()
}

/// Whether a move captures.
pub fn is_capture(pos: &Position, m: &Move) -> bool {
    if let MoveKind::Double(via) = m.kind {
        return pos.piece_at(via).is_some() || (m.to != m.from && pos.piece_at(m.to).is_some());
    }
    m.capture_square()
        .is_some_and(|sq| pos.piece_at(sq).is_some())
}

fn is_pawn_letter(pos: &Position, m: &Move) -> bool {
    pos.tables().variant().piece(m.piece).letter.matches("P")
}

/// A move in SAN-like notation, with `+`/`#` when it gives check or mate.
pub fn san(pos: &Position, m: &Move) -> String {
    let mut s = san_plain(pos, m);
    let mut after = pos.clone();
    after.make(*m);
    if after.in_check() {
        let mut moves = Vec::new();
        after.legal_moves_into(&mut moves);
        s.push(if moves.is_empty() { '#' } else { '+' });
    }
    s
}

fn san_plain(pos: &Position, m: &Move) -> String {
    let t = pos.tables();
    let g = t.geometry();
    if let Some(w) = m.wall {
        let base = san_plain(pos, &Move { wall: None, ..*m });
        return format!("{base},{}", g.name(w));
    }
    if let Some(k) = m.gated() {
        let letter = t.variant().piece(k).letter;
        let base = san_plain(pos, &m.ungated());
        return match m.kind {
            MoveKind::CastleGate(id, _, true) => {
                format!(
                    "{base}/{letter}{}",
                    g.name(t.castling(id).rule.partner_from)
                )
            }
            _ => format!("{base}/{letter}"),
        };
    }
    let letter = t.variant().piece(m.piece).letter.to_string();
    match m.kind {
        MoveKind::Pass => return "pass".into(),
        MoveKind::Drop => {
            let placed = t.variant().piece(m.placed()).letter;
            return format!("{placed}*{}", g.name(m.to));
        }
        MoveKind::Castle(id) => {
            let r = &t.castling(id).rule;
            let wing = |c: &crate::model::CastlingTable| {
                g.file(c.rule.partner_from) > g.file(c.rule.king_from)
            };
            let east = wing(t.castling(id));
            let unique = t
                .rules()
                .castlings
                .iter()
                .filter(|c| c.rule.side == r.side && wing(c) == east)
                .count()
                == 1;
            if unique {
                return if east { "O-O".into() } else { "O-O-O".into() };
            }
        }
        _ => {}
    }
    let capture = is_capture(pos, m);
    let mut s = String::new();
    let legal = pos.legal_moves();
    if m.kind == MoveKind::Shot {
        // The shooter stays: its letter, its square when another could shoot there too, `@x`.
        s.push_str(&letter);
        if legal
            .iter()
            .any(|o| o.kind == MoveKind::Shot && o.to == m.to && o.from != m.from)
        {
            s.push_str(&g.name(m.from).to_string());
        }
        s.push_str("@x");
        s.push_str(&g.name(m.to).to_string());
        return s;
    }
    let pawn = is_pawn_letter(pos, m);
    if !pawn {
        s.push_str(&letter);
    }
    if let MoveKind::Double(via) = m.kind {
        // Every square, with `x` before each one captured on: `Nf6xg7xh8`, `Nf6xg7-f6`
        // (igui), `Nf6-f7-f6` (a pass).
        let mark = |sq: Square| {
            if pos.piece_at(sq).is_some() && sq != m.from {
                'x'
            } else {
                '-'
            }
        };
        s.push_str(&format!(
            "{}{}{}{}{}",
            g.name(m.from),
            mark(via),
            g.name(via),
            mark(m.to),
            g.name(m.to)
        ));
        if let Some(k) = m.promotion {
            s.push('=');
            s.push_str(&t.variant().piece(k).letter.without_tilde().to_string());
        }
        return s;
    }
    if m.kind == MoveKind::Promote {
        // Where it stands, then where it goes if it moves (`g7=F`, `g7f6=F`).
        s.push_str(&g.name(m.from).to_string());
        if m.to != m.from {
            s.push_str(&g.name(m.to).to_string());
        }
        if let Some(k) = m.promotion {
            s.push('=');
            s.push_str(&t.variant().piece(k).letter.without_tilde().to_string());
        }
        return s;
    }
    let rivals: Vec<&Move> = legal
        .iter()
        .filter(|o| {
            o.piece == m.piece
                && o.to == m.to
                && o.from != m.from
                && !matches!(o.kind, MoveKind::Drop | MoveKind::Shot)
        })
        .collect();
    if !rivals.is_empty() || (pawn && capture) {
        let same_file = rivals.iter().any(|o| g.file(o.from) == g.file(m.from));
        let same_rank = rivals.iter().any(|o| g.rank(o.from) == g.rank(m.from));
        if !same_file {
            s.push(Geometry::file_char(g.file(m.from)));
        } else if !same_rank && !pawn {
            s.push_str(&(g.rank(m.from) + 1).to_string());
        } else {
            s.push_str(&g.name(m.from).to_string());
        }
    }
    if capture {
        s.push('x');
    }
    s.push_str(&g.name(m.to).to_string());
    if let Some(k) = m.promotion {
        s.push('=');
        s.push_str(&t.variant().piece(k).letter.without_tilde().to_string());
    }
    s
}

/// What a SAN-like text says about a move.
#[derive(Debug, Default)]
struct SanParts {
    letter: Option<String>,
    from_file: Option<i32>,
    from_rank: Option<i32>,
    to: Option<Square>,
    capture: bool,
    promotion: Option<String>,
    drop: bool,
    shot: bool,
    castle: Option<bool>,
}

fn split_san(g: Geometry, text: &str) -> Option<SanParts> {
    let mut p = SanParts::default();
    let core = text.trim_end_matches(['+', '#', '!', '?']);
    if core == "O-O" || core == "0-0" {
        p.castle = Some(true);
        return Some(p);
    }
    if core == "O-O-O" || core == "0-0-0" {
        p.castle = Some(false);
        return Some(p);
    }
    let mut rest = core;
    // Promotion at the end: `=Q`, `(Q)`, `=+`, or a trailing uppercase letter after a square.
    if let Some(i) = rest.rfind('=') {
        p.promotion = Some(rest[i + 1..].to_string());
        rest = &rest[..i];
    } else if rest.ends_with(')') {
        let i = rest.rfind('(')?;
        p.promotion = Some(rest[i + 1..rest.len() - 1].to_string());
        rest = &rest[..i];
    }
    let b = rest.as_bytes();
    let mut i = 0;
    if i < b.len() && b[i] == b'+' {
        i += 1;
    }
    if i < b.len() && b[i].is_ascii_uppercase() {
        // A `~` after the letter belongs to it (`N~xf6`, a promoted knight).
        if i > 0 || b.get(i + 1) != Some(&b'~') {
            p.letter = Some(rest[..=i].to_string());
            i += 1;
        } else {
            p.letter = Some(rest[..=i + 1].to_string());
            i += 2;
        }
    } else if i > 0 {
        return None;
    }
    let body = &rest[i..];
    // A shot: `K@xe9`, or with the shooter's square `Ke5@xe9`.
    if let Some((from, victim)) = body.split_once("@x") {
        p.shot = true;
        p.capture = true;
        p.to = Some(g.parse(victim)?);
        if !from.is_empty() {
            let sq = g.parse(from)?;
            p.from_file = Some(g.file(sq));
            p.from_rank = Some(g.rank(sq));
        }
        return Some(p);
    }
    if let Some(sq) = body.strip_prefix(['*', '@']) {
        p.drop = true;
        p.to = Some(g.parse(sq)?);
        return Some(p);
    }
    // Collect squares / partial coordinates with separators.
    let mut tokens: Vec<(Option<i32>, Option<i32>)> = Vec::new();
    let mut j = 0;
    let bb = body.as_bytes();
    while j < bb.len() {
        let c = bb[j];
        if c == b'x' || c == b':' {
            p.capture = true;
            j += 1;
        } else if c == b'-' {
            j += 1;
        } else if c.is_ascii_lowercase() {
            let mut k = j + 1;
            while k < bb.len() && bb[k].is_ascii_digit() {
                k += 1;
            }
            let file = (c - b'a') as i32;
            let rank = if k > j + 1 {
                Some(body[j + 1..k].parse::<i32>().ok()? - 1)
            } else {
                None
            };
            tokens.push((Some(file), rank));
            j = k;
        } else if c.is_ascii_digit() {
            let mut k = j;
            while k < bb.len() && bb[k].is_ascii_digit() {
                k += 1;
            }
            tokens.push((None, Some(body[j..k].parse::<i32>().ok()? - 1)));
            j = k;
        } else if c.is_ascii_uppercase() && p.promotion.is_none() && j + 1 == bb.len() {
            p.promotion = Some((c as char).to_string());
            j += 1;
        } else if c == b'+' && p.promotion.is_none() && j + 1 == bb.len() {
            p.promotion = Some("+".into());
            j += 1;
        } else {
            return None;
        }
    }
    let (to_file, to_rank) = tokens.pop()?;
    p.to = Some(g.square(to_file?, to_rank?)?);
    match tokens.as_slice() {
        [] => {}
        [(f, r)] => {
            p.from_file = *f;
            p.from_rank = *r;
        }
        _ => return None,
    }
    Some(p)
}

/// Why a move of a list could not be played: its ply (from 1), its text and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply} `{text}`: {reason}")]
pub struct LineError {
    /// Which move of the list, from 1.
    pub ply: usize,
    /// The move as written.
    pub text: String,
    /// Why it was refused: the game was over, or the move is not legal or not readable.
    pub reason: String,
}

/// Plays a list of moves, each in any notation [`parse_move`] reads.
///
/// # Errors
/// At the first move after the game has ended, or that is not a legal move here.
pub fn play_line<'a>(
    pos: &mut Position,
    texts: impl IntoIterator<Item = &'a str>,
) -> Result<(), LineError> {
    for (i, text) in texts.into_iter().enumerate() {
        let refuse = |reason: String| LineError {
            ply: i + 1,
            text: text.to_string(),
            reason,
        };
        if let Some(o) = pos.outcome() {
            return Err(refuse(format!("the game is over ({})", o.reason)));
        }
        let m = parse_move(pos, text).map_err(|e| refuse(e.to_string()))?;
        pos.play(m);
    }
    Ok(())
}

/// Reads a move in SAN-like, long algebraic or coordinate notation.
///
/// # Errors
/// If the text is unreadable, matches no legal move, or matches several.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, ParseMoveError> {
    let text = text.trim();
    let legal = pos.legal_moves();
    if let Ok(m) = coord_among(pos, text, &legal) {
        return Ok(m);
    }
    // A double move in algebraic notation names its squares as it is written.
    let plain = text.trim_end_matches(['+', '#', '!', '?']);
    if let Some(m) = legal
        .iter()
        .find(|m| matches!(m.kind, MoveKind::Double(_)) && san_plain(pos, m) == plain)
    {
        return Ok(*m);
    }
    parse_move_among(pos, text, &legal)
}

/// Reads a move in SAN-like or long algebraic notation, matching it against `candidates`.
///
/// # Errors
/// If the text is unreadable, matches no candidate, or matches several.
pub fn parse_move_among(
    pos: &Position,
    text: &str,
    candidates: &[Move],
) -> Result<Move, ParseMoveError> {
    // A move that builds a wall is its move, a comma and the wall's square, alone (`e4,e5`)
    // or after the square the move reached (`e2e4,e4e5`): the move is read among those that
    // build that wall.
    if candidates.iter().any(|m| m.wall.is_some()) {
        let g = pos.tables().geometry();
        let (base, wall) = match text.rsplit_once(',') {
            _ if candidates.iter().any(|m| m.wall.is_none()) => (text, None),
            Some((b, w)) => {
                let w = w.trim_end_matches(['+', '#', '!', '?']);
                let last = w
                    .char_indices()
                    .filter(|(_, c)| c.is_ascii_lowercase())
                    .map(|(i, _)| i)
                    .rfind(|&i| g.parse(&w[i..]).is_some());
                match last.and_then(|i| g.parse(&w[i..])) {
                    Some(sq) => (b, Some(sq)),
                    None => return Err(ParseMoveError::Unreadable(text.into())),
                }
            }
            None => {
                return Err(ParseMoveError::Illegal {
                    text: text.into(),
                    why: format!(
                        ": every move here builds a wall; add its square (`{text},{}`)",
                        g.name(candidates[0].wall.expect("checked above"))
                    ),
                })
            }
        };
        let chosen: Vec<Move> = candidates
            .iter()
            .copied()
            .filter(|m| m.wall == wall)
            .collect();
        let plain: Vec<Move> = chosen.iter().map(|m| Move { wall: None, ..*m }).collect();
        let m = parse_move_among(pos, base, &plain)?;
        let i = plain
            .iter()
            .position(|p| *p == m)
            .expect("found among them");
        return Ok(chosen[i]);
    }
    // A gating move is its move and `/` with what it gates (`Nc3/H`, `O-O/Hh1`): the move is
    // read among the moves that gate so, without their gating.
    if candidates.iter().any(|m| m.gated().is_some()) {
        let (base, suffix) = match text.rsplit_once('/') {
            Some((b, s)) => (b, Some(s.trim_end_matches(['+', '#', '!', '?']))),
            None => (text, None),
        };
        let t = pos.tables();
        let gating_text = |m: &Move| -> Option<String> {
            let k = m.gated()?;
            let letter = t.variant().piece(k).letter.to_string();
            Some(match m.kind {
                MoveKind::CastleGate(id, _, true) => {
                    format!(
                        "{letter}{}",
                        t.geometry().name(t.castling(id).rule.partner_from)
                    )
                }
                _ => letter,
            })
        };
        let chosen: Vec<Move> = candidates
            .iter()
            .copied()
            .filter(|m| match (suffix, gating_text(m)) {
                (None, None) => true,
                (Some(s), Some(g)) => s.eq_ignore_ascii_case(&g),
                _ => false,
            })
            .collect();
        let plain: Vec<Move> = chosen.iter().map(Move::ungated).collect();
        let m = parse_plain_among(pos, base, &plain)?;
        let i = plain
            .iter()
            .position(|p| *p == m)
            .expect("found among them");
        return Ok(chosen[i]);
    }
    parse_plain_among(pos, text, candidates)
}

/// [`parse_move_among`] for moves without gating.
fn parse_plain_among(
    pos: &Position,
    text: &str,
    candidates: &[Move],
) -> Result<Move, ParseMoveError> {
    let legal = candidates;
    let t = pos.tables();
    let g = t.geometry();
    let Some(parts) = split_san(g, text) else {
        return Err(ParseMoveError::Unreadable(text.into()));
    };
    let me = pos.side_to_move();
    let kind_of = |l: &str| t.variant().piece_by_letter(l);
    if let Some(east) = parts.castle {
        let found: Vec<&Move> = legal
            .iter()
            .filter(|m| {
                if let MoveKind::Castle(id) = m.kind {
                    let r = &t.castling(id).rule;
                    (g.file(r.partner_from) > g.file(r.king_from)) == east
                } else {
                    false
                }
            })
            .collect();
        return pick(pos, text, found, "no castling is legal here");
    }
    let letter_kind = match &parts.letter {
        Some(l) => Some(kind_of(l).ok_or_else(|| ParseMoveError::Illegal {
            text: text.into(),
            why: format!(": this variant has no piece `{l}`"),
        })?),
        None => None,
    };
    let to = parts.to.expect("split_san sets a destination");
    let from_square = match (parts.from_file, parts.from_rank) {
        (Some(f), Some(r)) => g.square(f, r),
        _ => None,
    };
    let found: Vec<&Move> = legal
        .iter()
        .filter(|m| {
            // A double move is read by its every square (`Nh7xh8-g7`), never as `Ng7`.
            if m.to != to
                || (m.kind == MoveKind::Drop) != parts.drop
                || (m.kind == MoveKind::Shot) != parts.shot
                || matches!(m.kind, MoveKind::Double(_))
            {
                return false;
            }
            if m.kind == MoveKind::Drop {
                // A drop is named by the kind it places (`+P*c3`), which is its whole choice.
                let named = match letter_kind {
                    Some(k) => m.placed() == k,
                    None => is_pawn_letter(pos, m),
                };
                return named && parts.promotion.is_none();
            }
            match letter_kind {
                Some(k) => {
                    if m.piece != k {
                        return false;
                    }
                }
                None => {
                    if from_square.is_none() && !is_pawn_letter(pos, m) {
                        return false;
                    }
                }
            }
            if parts.from_file.is_some_and(|f| g.file(m.from) != f)
                || parts.from_rank.is_some_and(|r| g.rank(m.from) != r)
            {
                return false;
            }
            if parts.capture && !is_capture(pos, m) {
                return false;
            }
            match (&parts.promotion, m.promotion) {
                (None, None) => true,
                (None, Some(_)) => {
                    // A record may leave out a compulsory promotion with a single choice.
                    t.promotion(m.piece, me, m.from, m.to, is_capture(pos, m))
                        .is_some_and(|p| p.forced && p.choices().count() == 1)
                }
                (Some(_), None) => false,
                (Some(p), Some(k)) => {
                    let l = t.variant().piece(k).letter;
                    l.without_tilde().matches(p)
                        || (p == "+" && l.mark() == Mark::Plus)
                        || t.variant().piece(k).name.eq_ignore_ascii_case(p)
                        || t.promotion(m.piece, me, m.from, m.to, is_capture(pos, m))
                            .is_some_and(|pr| pr.choices().count() == 1)
                }
            }
        })
        .collect();
    // A castling is written `O-O`: where a piece's own move has the same squares, `Kb1` is
    // that move.
    let found: Vec<&Move> = if found.iter().any(|m| !matches!(m.kind, MoveKind::Castle(_))) {
        found
            .into_iter()
            .filter(|m| !matches!(m.kind, MoveKind::Castle(_)))
            .collect()
    } else {
        found
    };
    let why = if parts.capture && legal.iter().any(|m| m.to == to && !is_capture(pos, m)) {
        "it is marked as a capture, but nothing stands there to capture"
    } else {
        ""
    };
    pick(pos, text, found, why)
}

fn pick(pos: &Position, text: &str, found: Vec<&Move>, why: &str) -> Result<Move, ParseMoveError> {
    match found.as_slice() {
        [m] => Ok(**m),
        [] => Err(ParseMoveError::Illegal {
            text: text.into(),
            why: if why.is_empty() {
                String::new()
            } else {
                format!(": {why}")
            },
        }),
        many => {
            // Promotion choices of one move count as one when the text names none.
            if many
                .iter()
                .all(|m| m.from == many[0].from && m.to == many[0].to && m.kind == many[0].kind)
            {
                if let Some(m) = many.iter().find(|m| m.promotion.is_none()) {
                    return Ok(**m);
                }
            }
            Err(ParseMoveError::Ambiguous {
                text: text.into(),
                options: many
                    .iter()
                    .map(|m| coord(pos, m))
                    .collect::<Vec<_>>()
                    .join(", "),
            })
        }
    }
}

/// Why a move naming its starting square (`b3-e5`) is not legal, in words, when that is the
/// reason: nothing there, not the mover's piece, or a square it cannot reach.
pub fn explain_from_square(pos: &Position, text: &str) -> Option<String> {
    let t = pos.tables();
    let g = t.geometry();
    let parts = split_san(g, text.trim())?;
    let from = g.square(parts.from_file?, parts.from_rank?)?;
    let to = parts.to?;
    Some(match pos.piece_at(from) {
        None => format!("no piece stands on {}", g.name(from)),
        Some(p) if p.side != pos.side_to_move() => {
            format!(
                "the piece on {} belongs to {}",
                g.name(from),
                t.variant().side(p.side).name
            )
        }
        Some(p) => format!(
            "the {} on {} cannot go to {}",
            t.variant().piece(p.kind).name.to_lowercase(),
            g.name(from),
            g.name(to)
        ),
    })
}

/// Why a move written in algebraic notation or as a drop names no legal move, as far as the
/// text tells: the side has no such piece, none of its pieces of that kind goes there, it has
/// none in hand, the square is taken. `None` when the text says too little.
pub fn explain(pos: &Position, text: &str) -> Option<String> {
    if let Some(why) = explain_from_square(pos, text) {
        return Some(why);
    }
    let t = pos.tables();
    let g = t.geometry();
    let v = t.variant();
    let parts = split_san(g, text.trim())?;
    let me = pos.side_to_move();
    let side = &v.side(me).name;
    let to = parts.to?;
    let target = g.name(to);
    let kind = match &parts.letter {
        Some(l) => Some(v.piece_by_letter(l)?),
        None => v.piece_by_letter("P"),
    };
    if parts.drop {
        let kind = kind?;
        let name = v.piece(kind).name.to_lowercase();
        return Some(if !t.rules().drops {
            "this game has no drops".to_string()
        } else if pos.in_hand(me, kind) == 0 {
            format!("{side} has no {name} in hand")
        } else if pos.piece_at(to).is_some() {
            format!("{target} is not empty")
        } else {
            format!("a {name} may not be dropped on {target} here")
        });
    }
    let kind = kind?;
    let name = v.piece(kind).name.to_lowercase();
    let mine: Vec<Square> = g
        .squares()
        .filter(|&sq| pos.piece_at(sq) == Some(Piece { side: me, kind }))
        .collect();
    Some(match mine.as_slice() {
        [] => format!("{side} has no {name} on the board"),
        _ if pos.piece_at(to).is_some_and(|p| p.side == me) => {
            format!("{target} holds a piece of {side}'s own")
        }
        [one] => format!("the {name} on {} cannot go to {target}", g.name(*one)),
        many => format!(
            "no {name} of {side}'s can go to {target} (they stand on {})",
            many.iter()
                .map(|&sq| g.name(sq).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    })
}

/// A move described for machines (`moves --format json`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MoveInfo {
    /// Coordinate notation.
    pub coord: String,
    /// SAN-like notation, with check marks.
    pub san: String,
    /// The moving or dropped piece's name.
    pub piece: String,
    /// Where it starts (`None` for a drop).
    pub from: Option<String>,
    /// Where it ends.
    pub to: String,
    /// What it promotes to.
    pub promotion: Option<String>,
    /// Whether it captures.
    pub capture: bool,
    /// `normal`, `double-step` (its passed squares become en-passant targets), `en-passant`,
    /// `shot` (a capture without moving), `drop` or `castling`.
    pub kind: &'static str,
    /// Where it builds a wall (`each move places a wall`); left out of the JSON where none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall: Option<String>,
}

/// Describes a move of this position.
pub fn move_info(pos: &Position, m: &Move) -> MoveInfo {
    let t = pos.tables();
    let g = t.geometry();
    MoveInfo {
        coord: coord(pos, m),
        san: san(pos, m),
        piece: t.variant().piece(m.piece).name.clone(),
        from: (!m.is_drop()).then(|| g.name(m.from).to_string()),
        to: g.name(m.to).to_string(),
        promotion: m.promotion.map(|k| t.variant().piece(k).name.clone()),
        capture: is_capture(pos, m),
        kind: match m.kind {
            MoveKind::Normal => "normal",
            MoveKind::Passing(_) => "double-step",
            MoveKind::CaptureAt(_) => "en-passant",
            MoveKind::Shot => "shot",
            MoveKind::Drop => "drop",
            MoveKind::Castle(_) => "castling",
            MoveKind::Gate(_) => "gating",
            MoveKind::CastleGate(..) => "castling with gating",
            MoveKind::Pass => "pass",
            MoveKind::Promote => "promotion in place",
            MoveKind::Double(_) => "double move",
        },
        wall: m.wall.map(|w| g.name(w).to_string()),
    }
}
