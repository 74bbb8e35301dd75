//! FEN for boards of any size, exchangeable with Fairy-Stockfish.
//!
//! **Written** as Fairy-Stockfish writes it for the same position, six fields always:
//! `<board>[<hand>] <side> <castling> <en passant> <halfmove> <fullmove>`. Ranks run top to
//! bottom separated by `/`; runs of empty squares are decimal numbers of any length (`10`);
//! uppercase is the first side; promoted pieces are `+` and their letter. The hand part is
//! written only when the variant has drops (`[]` when empty, pieces in the definition's
//! order). Castling is `KQkq`-style, or the partner's file letter where `K`/`Q` would be
//! ambiguous, `-` when there is none (also in variants without castling). En passant lists
//! every target square the side to move could capture on, concatenated (`e3`, or `e3e4` after
//! a triple step), else `-`; after a double step that did not go straight (Berolina's
//! diagonal one) the square of the piece that made it comes first (`e4f3`). Under a `checks` rule the checks each side still needs follow the
//! en-passant field (`3+3`); the lichess form (`+2+0`, checks given, last) is read too. A
//! hole of the board is `*`, as Fairy-Stockfish writes its walls.
//!
//! **Read** leniently, so that every FEN Fairy-Stockfish writes or lists as a start position is
//! accepted: the hand in brackets (`[Qn]`, `[-]`, `[]`) or as an extra rank after the board
//! (`.../RNBQKBNR/Qn w ...`); the castling, en-passant and clock fields may be left out, and a
//! `-` may stand for a field the variant does not have (`w - - 0 1` in Xiangqi, `[-] w 0 1` in
//! Shogi); castling as `KQkq` or file letters (Shredder- and X-FEN); en passant as one square or
//! several; `~` after a piece letter (Fairy-Stockfish's promoted-piece mark) is read and
//! dropped; the side may be `w`/`b` or the side's name or initial. Limits: at most
//! [`MAX_IN_HANDS`] pieces in hand; every refusal is one line.

use std::fmt::Write;

use super::position::{Piece, Position};
use crate::model::MAX_IN_HANDS;
use crate::model::{Geometry, PieceKind, Placement, Side, Square};

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
    /// If the text is not a FEN of this variant's board and pieces, or holds more pieces in
    /// hand than the engine keeps.
    pub fn with_fen(&self, fen: &str) -> Result<Position, ParseFenError> {
        let t = self.tables();
        let g = t.geometry();
        let mut pos = Position::empty(std::sync::Arc::clone(&self.sh));
        let mut fields = fen.split_whitespace();
        let Some(board_part) = fields.next() else {
            return err("empty text");
        };
        let (ranks, hand) = split_board(board_part, g)?;
        for (rank, rank_text) in (0..i32::from(g.height)).rev().zip(&ranks) {
            read_rank(&mut pos, rank, rank_text)?;
        }
        if let Some(hand) = hand {
            read_hand(&mut pos, hand)?;
        }
        if let Some(s) = fields.next() {
            pos.stm = parse_side(self, s)?;
        }
        read_state(&mut pos, fields)?;
        pos.rehash();
        pos.settle_turn(false);
        Ok(pos)
    }

    /// This position as FEN, with the fields Fairy-Stockfish writes.
    pub fn fen(&self) -> String {
        let t = self.tables();
        let g = t.geometry();
        let mut out = String::new();
        for rank in (0..g.height as i32).rev() {
            let mut empty = 0;
            for file in 0..g.width as i32 {
                let sq = g.square(file, rank).expect("on the board");
                if g.is_hole(sq) {
                    if empty > 0 {
                        let _ = write!(out, "{empty}");
                        empty = 0;
                    }
                    out.push('*');
                    continue;
                }
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
        if t.rules().drops {
            out.push('[');
            for s in 0..t.sides() {
                for k in 0..t.kinds() {
                    let p = Piece {
                        side: Side::nth(s),
                        kind: PieceKind::nth(k),
                    };
                    for _ in 0..self.in_hand(p.side, p.kind) {
                        out.push_str(&piece_letter(self, p));
                    }
                }
            }
            out.push(']');
        }
        // With more than two sides, the side to move is its initial.
        let to_move = match t.variant().tags_sides() {
            true => t.variant().side_tag(self.side_to_move()),
            false => self.side_to_move().fen_letter(),
        };
        let _ = write!(out, " {to_move} {} ", castling_text(self));
        match self.en_passant() {
            Some((targets, victim)) => {
                // A piece that did not pass straight forward (a diagonal double step) is named
                // first, as Fairy-Stockfish names a double step's destination: the reader
                // would otherwise look for it straight ahead of the targets.
                let mover = self.last_mover();
                if straight_beyond(self, targets, mover) != Some(victim) {
                    let _ = write!(out, "{}", g.name(victim));
                }
                for sq in targets {
                    let _ = write!(out, "{}", g.name(*sq));
                }
            }
            None => out.push('-'),
        }
        if let Some((n, _)) = t.rules().checks {
            let left: Vec<String> = (0..t.sides())
                .map(|s| (n - self.checks_given(Side::nth(s)).min(n)).to_string())
                .collect();
            let _ = write!(out, " {}", left.join("+"));
        }
        let _ = write!(out, " {} {}", self.halfmove_clock(), self.fullmove_number());
        // A piece back on its start square after moving looks unmoved on the board: the
        // field says otherwise, for the pieces whose moves depend on it.
        let moved: Vec<String> = t
            .setup()
            .iter()
            .filter(|p| {
                t.first_move_squares().contains(p.square)
                    && !t.fen_noted_squares().contains(p.square)
                    && !self.unmoved.contains(p.square)
                    && in_start_place(self, p)
            })
            .map(|p| g.name(p.square).to_string())
            .collect();
        if !moved.is_empty() {
            let _ = write!(out, " moved:{}", moved.join(","));
        }
        // Sides out of the running that the board does not show so (a side that lost on its
        // turn still holding royals).
        let out_sides: Vec<String> = Side::all(t.sides())
            .filter(|&s| self.out >> s.index() & 1 != 0)
            .filter(|&s| !(t.royal_at_start() && self.royals[s.index()].is_empty()))
            .map(|s| t.variant().side_tag(s).to_string())
            .collect();
        if !out_sides.is_empty() {
            let _ = write!(out, " out:{}", out_sides.join(","));
        }
        out
    }
}

/// The ranks of the board part, top first, and the hand if one is given (in brackets, or as
/// one rank too many).
fn split_board(board_part: &str, g: Geometry) -> Result<(Vec<&str>, Option<&str>), ParseFenError> {
    let (board, bracketed) = match board_part.find('[') {
        Some(i) => {
            let Some(rest) = board_part[i + 1..].strip_suffix(']') else {
                return err("hand part has no closing `]`");
            };
            (&board_part[..i], Some(rest))
        }
        None => (board_part, None),
    };
    let mut ranks: Vec<&str> = board.split('/').collect();
    let mut hand = bracketed;
    if hand.is_none()
        && ranks.len() == g.height as usize + 1
        && ranks
            .last()
            .is_some_and(|r| r.chars().all(|c| c.is_ascii_alphabetic() || c == '-'))
    {
        hand = ranks.pop();
    }
    if ranks.len() != g.height as usize {
        return err(format!(
            "board has {} ranks, this variant has {}",
            ranks.len(),
            g.height
        ));
    }
    Ok((ranks, hand))
}

/// Places the pieces of one rank.
fn read_rank(pos: &mut Position, rank: i32, text: &str) -> Result<(), ParseFenError> {
    let g = pos.tables().geometry();
    let mut file: i32 = 0;
    let mut chars = text.chars().peekable();
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
        // A hole; Fairy-Stockfish's walls are written the same way. A count of empty squares
        // may also run over holes.
        if c == '*' {
            if g.square(file, rank).is_some_and(|sq| !g.is_hole(sq)) {
                return err(format!(
                    "`*` on {}, which is not a hole of this board",
                    g.name(g.square(file, rank).expect("just checked"))
                ));
            }
            file = file.saturating_add(1);
            continue;
        }
        // With more than two sides a piece is its side's initial, then its letter (`rK`).
        let (tag, c) = if pos.tables().variant().tags_sides() {
            if pos.tables().variant().side_by_tag(c).is_none() {
                return err(format!(
                    "`{c}` in rank {} is not the initial of a side: with more than two sides a \
                     piece is written with its side's initial, as in `{}K`",
                    rank + 1,
                    pos.tables().variant().side_tag(Side::FIRST)
                ));
            }
            match chars.next() {
                Some(l) => (Some(c), l),
                None => return err(format!("`{c}` without a piece letter in rank {}", rank + 1)),
            }
        } else {
            (None, c)
        };
        let mut letter = if c == '+' {
            match chars.next() {
                Some(l) if l.is_ascii_alphabetic() => format!("+{l}"),
                _ => return err(format!("`+` without a piece letter in rank {}", rank + 1)),
            }
        } else {
            c.to_string()
        };
        if let Some(tag) = tag {
            letter.insert(0, tag);
        }
        // `Q~` is the variant's piece with that letter if it has one, else the `~` (a mark of
        // promotion the variant does not tell apart) is dropped.
        if chars.peek() == Some(&'~') {
            chars.next();
            let marked = format!("{letter}~");
            if piece_from_letter(pos, &marked).is_some() {
                letter = marked;
            }
        }
        let piece = piece_from_letter(pos, &letter)
            .ok_or_else(|| ParseFenError(format!("unknown piece letter `{letter}`")))?;
        let Some(sq) = g.square(file, rank) else {
            return err(format!(
                "rank {} is longer than {} files",
                rank + 1,
                g.width
            ));
        };
        if g.is_hole(sq) {
            return err(format!("a piece on {}, a hole of this board", g.name(sq)));
        }
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
    Ok(())
}

/// Fills the hands.
fn read_hand(pos: &mut Position, hand: &str) -> Result<(), ParseFenError> {
    let mut total = 0usize;
    let keeps_hands = pos.tables().rules().drops;
    let tags = pos.tables().variant().tags_sides();
    let mut chars = hand.chars().filter(|c| *c != '-' && *c != '~');
    while let Some(c) = chars.next() {
        if !keeps_hands {
            return err("this game keeps no pieces in hand");
        }
        // With more than two sides a piece in hand is its side's initial and its letter.
        let token: String = if tags {
            match chars.next() {
                Some(l) => [c, l].into_iter().collect(),
                None => return err(format!("`{c}` in hand without a piece letter")),
            }
        } else {
            c.to_string()
        };
        let piece = piece_from_letter(pos, &token)
            .ok_or_else(|| ParseFenError(format!("unknown piece letter `{token}` in hand")))?;
        total += 1;
        if total > MAX_IN_HANDS {
            return err(format!(
                "the hands hold more than {MAX_IN_HANDS} pieces in all"
            ));
        }
        let n = pos.in_hand(piece.side, piece.kind);
        pos.set_hand(piece.side, piece.kind, n + 1);
    }
    Ok(())
}

/// The numbers of a check-count field, `1+3` or `+2+0`; `None` for other fields.
fn check_counts(field: &str) -> Option<Vec<u32>> {
    let body = field.strip_prefix('+').unwrap_or(field);
    if !body.contains('+') {
        return None;
    }
    body.split('+')
        .map(|n| {
            (!n.is_empty() && n.len() <= 3 && n.bytes().all(|b| b.is_ascii_digit()))
                .then(|| n.parse().ok())
                .flatten()
        })
        .collect()
}

/// Reads the castling, en-passant and clock fields, each optional.
/// `out:b,g`: sides out of the running, by initial (more than two sides).
fn read_out(pos: &mut Position, field: &str, list: &str) -> Result<(), ParseFenError> {
    let t = std::sync::Arc::clone(&pos.sh);
    let t = &t.t;
    if t.sides() < 3 {
        return err(format!(
            "`{field}`: only a game of more than two sides has sides out"
        ));
    }
    for tag in list.split(',') {
        let mut chars = tag.chars();
        let tag_char = match (chars.next(), chars.next()) {
            (Some(c), None) => Some(c),
            _ => None,
        };
        let side = tag_char
            .and_then(|c| t.variant().side_by_tag(c))
            .ok_or_else(|| {
                ParseFenError(format!("`{tag}` in `{field}` is not the initial of a side"))
            })?;
        pos.out |= 1 << side.index();
        if t.rules().eliminated != crate::model::Elimination::PlayOn {
            pos.benched |= 1 << side.index();
        }
    }
    Ok(())
}

fn read_state<'a>(
    pos: &mut Position,
    fields: impl Iterator<Item = &'a str>,
) -> Result<(), ParseFenError> {
    let mut numbers = Vec::new();
    let mut castling_done = false;
    let mut ep_done = false;
    let mut moved = Vec::new();
    for field in fields {
        if let Some(counts) = check_counts(field) {
            let Some((n, _)) = pos.tables().rules().checks else {
                return err(format!(
                    "`{field}` counts checks, which this variant does not"
                ));
            };
            // `+2+0` (checks given, as lichess writes it) or `1+3` (checks left, as
            // Fairy-Stockfish writes it).
            let given = field.starts_with('+');
            if counts.len() != pos.checks.len() {
                return err(format!("`{field}` needs one count per side"));
            }
            for (s, c) in counts.into_iter().enumerate() {
                let c = u8::try_from(c).map_or(n, |c| c.min(n));
                pos.checks[s] = if given { c } else { n - c };
            }
        } else if let Some(list) = field.strip_prefix("out:") {
            read_out(pos, field, list)?;
        } else if let Some(list) = field.strip_prefix("moved:") {
            let g = pos.tables().geometry();
            for name in list.split(',') {
                let sq = g.parse(name).ok_or_else(|| {
                    ParseFenError(format!("`{name}` in `{field}` is not a square"))
                })?;
                moved.push(sq);
            }
        } else if field.bytes().all(|b| b.is_ascii_digit()) {
            numbers.push(
                field
                    .parse::<u32>()
                    .map_err(|_| ParseFenError(format!("number `{field}` too large")))?,
            );
        } else if !castling_done && (field == "-" || field.bytes().all(|b| b.is_ascii_alphabetic()))
        {
            castling_done = true;
            read_castling(pos, field)?;
        } else if !ep_done {
            // A lone `-` after a castling field the variant lacks is the en-passant field.
            castling_done = true;
            ep_done = true;
            if field != "-" {
                read_en_passant(pos, field)?;
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
        // A number where the en-passant square goes means none, as Fairy-Stockfish reads it
        // (its suite writes Cambodian positions so: `b DEe 0 0 5`).
        [_, h, f] if !ep_done => {
            pos.halfmove = *h;
            pos.fullmove = (*f).max(1);
        }
        _ => return err("too many number fields"),
    }
    mark_first_move_pieces(pos);
    for sq in moved {
        pos.unmoved.remove(sq);
    }
    Ok(())
}

/// A FEN says nothing of first moves, except in the castling field for `unmoved noted in fen`
/// pieces: a piece whose patterns ask counts as unmoved where the start position puts a piece
/// like it.
fn mark_first_move_pieces(pos: &mut Position) {
    let sh = std::sync::Arc::clone(&pos.sh);
    let t = &sh.t;
    for p in t.setup() {
        if t.first_move_squares().contains(p.square)
            && !t.fen_noted_squares().contains(p.square)
            && in_start_place(pos, p)
        {
            pos.unmoved.insert(p.square);
        }
    }
}

/// The side to move: `w`, `b` (then `c`, `d`) by turn order, whatever the sides are called;
/// else a side's whole name, or the initial of exactly one side's name where that initial is
/// no side's letter.
fn parse_side(pos: &Position, s: &str) -> Result<Side, ParseFenError> {
    let sides = pos.tables().variant().sides();
    let all = || (0..sides.len()).map(Side::nth);
    if let Some(side) = all().find(|&side| s.len() == 1 && s.starts_with(side.fen_letter())) {
        return Ok(side);
    }
    if let Some(side) = all().find(|side| sides[side.index()].name == s) {
        return Ok(side);
    }
    let initial = |side: Side| sides[side.index()].name.chars().next();
    let mut named = all().filter(|&side| s.len() == 1 && initial(side) == s.chars().next());
    match (named.next(), named.next()) {
        (Some(side), None) => Ok(side),
        _ => err(format!("unknown side to move `{s}`")),
    }
}

/// The piece written as `letter` (case gives the side, or with more than two sides the
/// side's initial before it: `rK`), if the variant has it.
pub fn piece_from_letter(pos: &Position, letter: &str) -> Option<Piece> {
    let (side, kind) = pos.tables().variant().read_piece_token(letter)?;
    Some(Piece { side, kind })
}

/// The FEN letters of a piece: uppercase for the first side, lowercase for the second; with
/// more sides, the side's initial and the uppercase letter (`rK`).
pub fn piece_letter(pos: &Position, p: Piece) -> String {
    pos.tables().variant().piece_token(p.side, p.kind)
}

/// For each castling right: its FEN character.
fn right_chars(pos: &Position) -> Vec<char> {
    let t = pos.tables();
    let g = t.geometry();
    let rights = &t.rules().rights;
    rights
        .iter()
        .map(|r| {
            let east = g.file(r.partner) > g.file(r.king);
            // K and Q name the outermost partner on each wing (whatever the king's square, when
            // castling starts anywhere); others use their file letter.
            let outermost = rights.iter().all(|o| {
                o == r
                    || o.side != r.side
                    || (g.file(o.partner) > g.file(o.king)) != east
                    || if east {
                        g.file(o.partner) <= g.file(r.partner)
                    } else {
                        g.file(o.partner) >= g.file(r.partner)
                    }
            });
            let c = match (outermost, east) {
                (true, true) => 'K',
                (true, false) => 'Q',
                (false, _) => Geometry::file_char(g.file(r.partner)).to_ascii_uppercase(),
            };
            if r.side.raw() == 0 || t.variant().tags_sides() {
                c
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

fn castling_text(pos: &Position) -> String {
    let chars = right_chars(pos);
    let rights = &pos.tables().rules().rights;
    // A side with two castling kings on the board (a promotion to king, Atomic) has no
    // letter that could say whose right it is: none is written, as none is read.
    let mut live: Vec<usize> = (0..rights.len())
        .filter(|&i| pos.right_in_place(i) && pos.is_unmoved(rights[i].king))
        .filter(|&i| pos.is_unmoved(rights[i].partner))
        .filter(|&i| castling_kings(pos, rights[i].side.raw()) <= 1)
        .collect();
    live.sort_by_key(|&i| {
        (
            rights[i].side,
            !chars[i].eq_ignore_ascii_case(&'K'),
            !chars[i].eq_ignore_ascii_case(&'Q'),
        )
    });
    // Each side's castling letters, then the files of its unmoved pieces the FEN notes
    // (Fairy-Stockfish's gating flags: Cambodian `DEde`).
    let t = pos.tables();
    let g = t.geometry();
    let mut out = String::new();
    for s in 0..t.sides() {
        let side = Side::nth(s);
        let mut letters: Vec<char> = live
            .iter()
            .filter(|&&i| rights[i].side == side)
            .map(|&i| chars[i])
            .collect();
        let mut noted: Vec<(i32, char)> = t
            .setup()
            .iter()
            .filter(|p| {
                p.side == side
                    && t.fen_noted_squares().contains(p.square)
                    && pos.is_unmoved(p.square)
                    && in_start_place(pos, p)
            })
            .map(|p| {
                let c = Geometry::file_char(g.file(p.square));
                (
                    g.file(p.square),
                    if s == 0 || t.variant().tags_sides() {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    },
                )
            })
            .collect();
        noted.sort();
        for (_, c) in noted {
            if !letters.contains(&c) {
                letters.push(c);
            }
        }
        // With more than two sides each letter follows its side's initial (`rKrQyK`).
        for c in letters {
            if t.variant().tags_sides() {
                out.push(t.variant().side_tag(side));
            }
            out.push(c);
        }
    }
    if out.is_empty() {
        "-".into()
    } else {
        out
    }
}

/// The start placement of an `unmoved noted in fen` piece of `side` on file letter `c`.
fn noted_start(pos: &Position, side: usize, c: char) -> Option<Placement> {
    let t = pos.tables();
    let g = t.geometry();
    t.setup().iter().copied().find(|p| {
        p.side.index() == side
            && t.fen_noted_squares().contains(p.square)
            && Geometry::file_char(g.file(p.square)) == c.to_ascii_lowercase()
    })
}

/// Whether the piece the start position puts on a square stands there now.
fn in_start_place(pos: &Position, p: &Placement) -> bool {
    pos.piece_at(p.square)
        == Some(Piece {
            side: p.side,
            kind: p.piece,
        })
}

/// How many pieces of `side` that castle as the king stand on the board.
fn castling_kings(pos: &Position, side: u8) -> usize {
    let t = pos.tables();
    let kings: Vec<_> = t
        .variant()
        .rules()
        .castlings
        .iter()
        .filter(|c| c.side.raw() == side)
        .map(|c| c.king)
        .collect();
    t.geometry()
        .squares()
        .filter(|&sq| {
            pos.piece_at(sq)
                .is_some_and(|p| p.side.raw() == side && kings.contains(&p.kind))
        })
        .count()
}

/// Marks the pieces of each castling right the field names as unmoved, where they stand.
fn read_castling(pos: &mut Position, field: &str) -> Result<(), ParseFenError> {
    if field == "-" {
        return Ok(());
    }
    let chars = right_chars(pos);
    let sh = std::sync::Arc::clone(&pos.sh);
    let t = &sh.t;
    let g = t.geometry();
    let mut letters = field.chars();
    while let Some(mut c) = letters.next() {
        // A file letter names the partner's file, also where the right has K or Q. With more
        // than two sides the side's initial comes first (`rK`).
        let side = match t.variant().tags_sides() {
            false if c.is_ascii_uppercase() => 0,
            false => 1,
            true => {
                let Some(side) = t.variant().side_by_tag(c) else {
                    return err(format!("castling right `{c}`: not the initial of a side"));
                };
                c = match letters.next() {
                    Some(l) => l.to_ascii_uppercase(),
                    None => return err(format!("castling right `{c}` without a letter")),
                };
                side.raw()
            }
        };
        let named = |i: usize| {
            let r = &t.rules().rights[i];
            (chars[i] == c && r.side.raw() == side)
                || (r.side.raw() == side
                    && Geometry::file_char(g.file(r.partner)) == c.to_ascii_lowercase())
        };
        let rights = 0..t.rules().rights.len();
        // With two castling kings on the board (Atomic allows it) a letter cannot say whose
        // right it is, and no FEN written says it (see `castling_text`): the right is dropped.
        if castling_kings(pos, side) > 1 && noted_start(pos, side as usize, c).is_none() {
            continue;
        }
        // A noted piece's file: unmoved if it stands on its start square.
        if let Some(start) = noted_start(pos, side as usize, c) {
            if in_start_place(pos, &start) {
                pos.unmoved.insert(start.square);
            }
            continue;
        }
        // Of the rights so named (one per king square when castling starts anywhere), the one
        // whose pieces stand in place. `K` and `Q` name the outermost partner in place on
        // their wing (X-FEN), where the partner the variant's own `K` names is not there. A
        // right whose pieces are not in place is dropped, as Fairy-Stockfish does.
        let wing = |i: usize| {
            let r = &t.rules().rights[i];
            let east = g.file(r.partner) > g.file(r.king);
            r.side.raw() == side
                && ((c.eq_ignore_ascii_case(&'K') && east)
                    || (c.eq_ignore_ascii_case(&'Q') && !east))
        };
        if !rights.clone().any(|i| named(i) || wing(i)) {
            return err(format!(
                "castling right `{c}` does not exist in this variant"
            ));
        }
        let outermost = |i: &usize| {
            let r = &t.rules().rights[*i];
            (g.file(r.partner) - g.file(r.king)).abs()
        };
        let chosen = rights
            .clone()
            .filter(|&i| named(i))
            .find(|&i| pos.right_in_place(i))
            .or_else(|| {
                rights
                    .filter(|&i| wing(i) && pos.right_in_place(i))
                    .max_by_key(outermost)
            });
        if let Some(i) = chosen {
            let r = t.rules().rights[i];
            pos.unmoved.insert(r.king);
            pos.unmoved.insert(r.partner);
        }
    }
    Ok(())
}

/// Reads one or more target squares (`e3`, `e3e4`, `c10`) and finds the piece that passed them:
/// the one just beyond the farthest, in its side's forward direction. Targets nobody can use
/// are dropped, as in positions reached by play.
fn read_en_passant(pos: &mut Position, field: &str) -> Result<(), ParseFenError> {
    let g = pos.tables().geometry();
    let mut targets = Vec::new();
    let mut rest = field;
    while !rest.is_empty() {
        let Some((sq, n)) = g.parse_prefix(rest) else {
            return err(format!("en-passant square `{rest}` is not on the board"));
        };
        targets.push(sq);
        rest = &rest[n..];
    }
    let mover = pos.previous_side(pos.stm);
    // Fairy-Stockfish lists the destination of some double steps too (`g5g6` after g7-g5):
    // a listed square holding the mover's piece is the piece that passed.
    let listed_victim = targets
        .iter()
        .copied()
        .find(|&sq| pos.piece_at(sq).is_some_and(|p| p.side == mover));
    targets.retain(|&sq| Some(sq) != listed_victim);
    if targets.is_empty() {
        return Ok(());
    }
    let Some(victim) = listed_victim.or_else(|| straight_beyond(pos, &targets, mover)) else {
        return Ok(());
    };
    if pos.piece_at(victim).is_none_or(|p| p.side != mover) {
        return Ok(());
    }
    let usable: Vec<Square> = targets
        .into_iter()
        .filter(|&sq| pos.piece_at(sq).is_none() && pos.en_passant_possible(sq, mover))
        .collect();
    pos.set_en_passant_targets(&usable, victim);
    Ok(())
}

/// The square just beyond the farthest of `targets` in `mover`'s forward direction: where a
/// piece that passed them straight ahead stands.
fn straight_beyond(pos: &Position, targets: &[Square], mover: Side) -> Option<Square> {
    let g = pos.tables().geometry();
    let (dx, dy) = pos.tables().variant().side(mover).facing.to_board(0, 1);
    let ahead = |sq: Square| g.file(sq) * dx + g.rank(sq) * dy;
    let farthest = targets.iter().copied().max_by_key(|&s| ahead(s))?;
    g.offset(farthest, dx, dy)
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.fen())
    }
}
