//! FEN for boards of any size, in the form Fairy-Stockfish writes.
//!
//! Written form: `<board>[<hand>] <side> <castling> <en passant> <halfmove> <fullmove>`.
//! Ranks run top to bottom separated by `/`; runs of empty squares are decimal numbers of any
//! length (`10`); promoted pieces are `+` and their letter; uppercase is the first side.
//! The hand part (`[PPn]`, `[-]` when empty) is written only when the variant has drops; the
//! castling and en-passant fields only when it has castling and en-passant captures (`-`
//! when empty), so Shogi positions read `...[-] w 0 1` as Fairy-Stockfish writes them.
//!
//! Reading is lenient: the hand part, the castling, en-passant and clock fields may be left out,
//! and `-` fields a variant does not have are skipped (`w - - 0 1` reads for Xiangqi);
//! a `~` after a piece (Fairy-Stockfish's promoted-piece mark) is ignored; the side may be
//! given as `w`/`b` or by the initial of the side's name; castling may use `KQkq` or file
//! letters (the partner's file, uppercase for the first side).

use std::fmt::{self, Write};

use super::position::{Piece, Position};
use crate::model::{Geometry, PieceKind, Side, Square};

/// Why a FEN was refused; the message is one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid fen: {0}")]
pub struct ParseFenError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, ParseFenError> {
    Err(ParseFenError(msg.into()))
}

impl Position {
    /// A position of the same variant as `self`, read from `fen`.
    ///
    /// # Errors
    /// If the text is not a FEN of this variant's board and pieces.
    pub fn with_fen(&self, fen: &str) -> Result<Position, ParseFenError> {
        let t = self.tables();
        let g = t.geometry;
        let mut pos = Position::empty(std::sync::Arc::clone(&self.sh));
        let fen = fen.trim();
        let mut fields = fen.split_whitespace();
        let Some(board_part) = fields.next() else {
            return err("empty text");
        };
        let (board, hand) = match board_part.find('[') {
            Some(i) => {
                let Some(rest) = board_part[i + 1..].strip_suffix(']') else {
                    return err("hand part has no closing `]`");
                };
                (&board_part[..i], Some(rest))
            }
            None => (board_part, None),
        };
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != g.height as usize {
            return err(format!(
                "board has {} ranks, this variant has {}",
                ranks.len(),
                g.height
            ));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = g.height as i32 - 1 - i as i32;
            let mut file: i32 = 0;
            let mut chars = rank_text.chars().peekable();
            while let Some(c) = chars.next() {
                if c.is_ascii_digit() {
                    let mut n = c.to_digit(10).unwrap_or(0) as i32;
                    while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                        n = n.saturating_mul(10).saturating_add(d as i32);
                        chars.next();
                    }
                    file = file.saturating_add(n);
                    continue;
                }
                if c == '~' {
                    continue;
                }
                let letter = if c == '+' {
                    match chars.next() {
                        Some(l) if l.is_ascii_alphabetic() => format!("+{l}"),
                        _ => {
                            return err(format!("`+` without a piece letter in rank {}", rank + 1))
                        }
                    }
                } else {
                    c.to_string()
                };
                let piece = piece_from_letter(self, &letter)
                    .ok_or_else(|| ParseFenError(format!("unknown piece letter `{letter}`")))?;
                let Some(sq) = g.square(file, rank) else {
                    return err(format!(
                        "rank {} is longer than {} files",
                        rank + 1,
                        g.width
                    ));
                };
                pos.put(sq, piece);
                file += 1;
            }
            if file != g.width as i32 {
                return err(format!(
                    "rank {} has {} squares, the board has {} files",
                    rank + 1,
                    file,
                    g.width
                ));
            }
        }
        if let Some(hand) = hand {
            for c in hand.chars().filter(|c| *c != '-') {
                let piece = piece_from_letter(self, &c.to_string())
                    .ok_or_else(|| ParseFenError(format!("unknown piece letter `{c}` in hand")))?;
                let n = pos.in_hand(piece.side, piece.kind);
                if n == u8::MAX {
                    return err("too many pieces in hand");
                }
                pos.set_hand(piece.side, piece.kind, n + 1);
            }
        }
        let rest: Vec<&str> = fields.collect();
        let mut rest = rest.into_iter().peekable();
        if let Some(s) = rest.next() {
            pos.stm = parse_side(self, s)?;
        }
        let mut numbers = Vec::new();
        let mut castling_done = t.rules.rights.is_empty();
        let mut ep_done = false;
        for field in rest {
            if field.bytes().all(|b| b.is_ascii_digit()) {
                numbers.push(
                    field
                        .parse::<u32>()
                        .map_err(|_| ParseFenError(format!("number `{field}` too large")))?,
                );
            } else if !castling_done
                && (field == "-" || field.bytes().all(|b| b.is_ascii_alphabetic()))
            {
                castling_done = true;
                pos.rights = parse_castling(&pos, field)?;
            } else if !ep_done {
                ep_done = true;
                if field != "-" {
                    pos.ep = parse_ep(&pos, g, field)?;
                }
            } else if field != "-" {
                return err(format!("unexpected field `{field}`"));
            }
        }
        match numbers.as_slice() {
            [] => {}
            [h] => pos.halfmove = *h,
            [h, f] => {
                pos.halfmove = *h;
                pos.fullmove = (*f).max(1);
            }
            _ => return err("too many number fields"),
        }
        pos.rehash();
        Ok(pos)
    }

    /// This position as FEN.
    pub fn fen(&self) -> String {
        let t = self.tables();
        let g = t.geometry;
        let mut out = String::new();
        for rank in (0..g.height as i32).rev() {
            let mut empty = 0;
            for file in 0..g.width as i32 {
                let sq = g.square(file, rank).expect("on the board");
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            let _ = write!(out, "{empty}");
                            empty = 0;
                        }
                        out.push_str(&piece_letter(self, p));
                    }
                }
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
            if rank > 0 {
                out.push('/');
            }
        }
        if t.rules.drops {
            out.push('[');
            let mut any = false;
            for s in 0..t.sides {
                for k in 0..t.kinds {
                    let p = Piece {
                        side: Side(s as u8),
                        kind: PieceKind(k as u8),
                    };
                    for _ in 0..self.in_hand(p.side, p.kind) {
                        out.push_str(&piece_letter(self, p));
                        any = true;
                    }
                }
            }
            if !any {
                out.push('-');
            }
            out.push(']');
        }
        let _ = write!(out, " {}", side_letter(self.side_to_move()));
        if !t.rules.rights.is_empty() {
            let _ = write!(out, " {}", castling_text(self));
        }
        if t.has_en_passant {
            match self.ep {
                Some((sq, _)) => {
                    let _ = write!(out, " {}", g.name(Square(sq)));
                }
                None => out.push_str(" -"),
            }
        }
        let _ = write!(out, " {} {}", self.halfmove_clock(), self.fullmove_number());
        out
    }
}

/// The FEN letter of a side: `w` for the first, `b` for the second, then the alphabet.
pub fn side_letter(side: Side) -> char {
    match side.0 {
        0 => 'w',
        1 => 'b',
        n => (b'c' + n - 2) as char,
    }
}

fn parse_side(pos: &Position, s: &str) -> Result<Side, ParseFenError> {
    let t = pos.tables();
    for i in 0..t.sides {
        let side = Side(i as u8);
        let name = &t.variant.sides[i].name;
        if s.len() == 1 && (s.starts_with(side_letter(side)) || name.starts_with(s)) || s == name {
            return Ok(side);
        }
    }
    err(format!("unknown side to move `{s}`"))
}

/// The piece written as `letter` (case gives the side), if the variant has it.
pub fn piece_from_letter(pos: &Position, letter: &str) -> Option<Piece> {
    let t = pos.tables();
    let upper = letter.chars().any(|c| c.is_ascii_uppercase());
    let lower = letter.chars().any(|c| c.is_ascii_lowercase());
    if upper == lower {
        return None;
    }
    let kind = t.variant.piece_by_letter(letter)?;
    Some(Piece {
        side: Side(if upper { 0 } else { 1 }),
        kind,
    })
}

/// The FEN letters of a piece: uppercase for the first side, lowercase otherwise.
pub fn piece_letter(pos: &Position, p: Piece) -> String {
    let l = &pos.tables().variant.pieces[p.kind.index()].letter;
    if p.side.0 == 0 {
        l.to_ascii_uppercase()
    } else {
        l.to_ascii_lowercase()
    }
}

/// For each castling-rights bit: its FEN character.
fn right_chars(pos: &Position) -> Vec<char> {
    let t = pos.tables();
    let g = t.geometry;
    let rights = &t.rules.rights;
    let king_file = |bit: usize| {
        t.rules
            .castlings
            .iter()
            .find(|c| c.right as usize == bit)
            .map(|c| g.file(c.rule.king_from))
            .unwrap_or(0)
    };
    (0..rights.len())
        .map(|bit| {
            let (side, sq) = rights[bit];
            let kf = king_file(bit);
            let east = g.file(sq) > kf;
            // K and Q name the outermost partner on each wing; others use their file letter.
            let outermost = rights.iter().enumerate().all(|(j, &(s2, sq2))| {
                j == bit
                    || s2 != side
                    || (g.file(sq2) > king_file(j)) != east
                    || if east {
                        g.file(sq2) < g.file(sq)
                    } else {
                        g.file(sq2) > g.file(sq)
                    }
            });
            let c = if outermost {
                if east {
                    'K'
                } else {
                    'Q'
                }
            } else {
                Geometry::file_char(g.file(sq)).to_ascii_uppercase()
            };
            if side.0 == 0 {
                c
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

fn castling_text(pos: &Position) -> String {
    let chars = right_chars(pos);
    let t = pos.tables();
    let mut bits: Vec<usize> = (0..chars.len())
        .filter(|b| pos.rights >> b & 1 != 0)
        .collect();
    bits.sort_by_key(|&b| {
        (
            t.rules.rights[b].0,
            !chars[b].eq_ignore_ascii_case(&'K'),
            !chars[b].eq_ignore_ascii_case(&'Q'),
        )
    });
    if bits.is_empty() {
        "-".into()
    } else {
        bits.iter().map(|&b| chars[b]).collect()
    }
}

fn parse_castling(pos: &Position, field: &str) -> Result<u64, ParseFenError> {
    if field == "-" {
        return Ok(0);
    }
    let chars = right_chars(pos);
    let t = pos.tables();
    let g = t.geometry;
    let mut rights = 0;
    for c in field.chars() {
        let bit = chars.iter().position(|&rc| rc == c).or_else(|| {
            // A file letter for a partner that also has K/Q.
            let side = if c.is_ascii_uppercase() { 0 } else { 1 };
            t.rules.rights.iter().position(|&(s, sq)| {
                s.0 == side && Geometry::file_char(g.file(sq)) == c.to_ascii_lowercase()
            })
        });
        match bit {
            Some(b) => rights |= 1 << b,
            None => {
                return err(format!(
                    "castling right `{c}` does not exist in this variant"
                ))
            }
        }
    }
    Ok(rights)
}

fn parse_ep(pos: &Position, g: Geometry, field: &str) -> Result<Option<(u16, u16)>, ParseFenError> {
    let Some(sq) = g.parse(field) else {
        return err(format!("en-passant square `{field}` is not on the board"));
    };
    let t = pos.tables();
    let mover = Side(((pos.stm.index() + t.sides - 1) % t.sides) as u8);
    let (dx, dy) = t.variant.sides[mover.index()].facing.to_board(0, 1);
    // The piece that passed the target stands one step further in its forward direction.
    Ok(g.offset(sq, dx, dy).and_then(|victim| {
        let p = pos.piece_at(victim)?;
        (p.side == mover).then_some((sq.0, victim.0))
    }))
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}
