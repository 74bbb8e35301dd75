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
//! hole of the board is `*`, as Fairy-Stockfish writes its walls. Under `counter-strike`, a
//! last field `counter-strike:f6` says that the last move took such a piece (on f6) with a
//! piece of another kind.
//!
//! **Read** leniently, so that every FEN Fairy-Stockfish writes or lists as a start position is
//! accepted: the hand in brackets (`[Qn]`, `[-]`, `[]`) or as an extra rank after the board
//! (`.../RNBQKBNR/Qn w ...`); the castling, en-passant and clock fields may be left out, and a
//! `-` may stand for a field the variant does not have (`w - - 0 1` in Xiangqi, `[-] w 0 1` in
//! Shogi); castling as `KQkq` or file letters (Shredder- and X-FEN); en passant as one square or
//! several; `~` after a piece letter (Fairy-Stockfish's promoted-piece mark) is read and
//! dropped; the side may be `w`/`b` or the side's name or initial. Limits: at most
//! [`MAX_IN_HANDS`] pieces in hand; every refusal is one line.

mod read;

use read::{parse_side, read_hand, read_rank, read_state, split_board};

use std::fmt::Write;

use super::position::{Piece, Position};
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
        let mut setup = self.empty_setup();
        let mut fields = fen.split_whitespace();
        let Some(board_part) = fields.next() else {
            return err("empty text");
        };
        let (ranks, hand) = split_board(board_part, g)?;
        for (rank, rank_text) in (0..i32::from(g.height)).rev().zip(&ranks) {
            read_rank(&mut setup, rank, rank_text)?;
        }
        if let Some(hand) = hand {
            read_hand(&mut setup, hand)?;
        }
        if let Some(s) = fields.next() {
            setup.set_side_to_move(parse_side(self, s)?);
        }
        // The castling and en-passant fields are read against the pieces as they stand.
        let board = Position::placed(setup.clone());
        read_state(&mut setup, &board, fields)?;
        Ok(Position::from_setup(setup))
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
                if g.is_hole(sq) || self.is_wall(sq) {
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
        if t.rules().hands {
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
            .filter(|&s| self.marked_out(s))
            .filter(|&s| !(t.royal_at_start() && self.royals[s.index()].is_empty()))
            .map(|s| t.variant().side_tag(s).to_string())
            .collect();
        if !out_sides.is_empty() {
            let _ = write!(out, " out:{}", out_sides.join(","));
        }
        if let Some(sq) = self.struck() {
            let _ = write!(out, " counter-strike:{}", g.name(sq));
        }
        out
    }
}

/// The piece written as `letter` (case gives the side, or with more than two sides the
/// side's initial before it: `rK`), if the variant has it.
pub fn piece_from_letter(pos: &Position, letter: &str) -> Option<Piece> {
    piece_of_token(pos.tables(), letter)
}

/// [`piece_from_letter`] for the variant of `t`.
fn piece_of_token(t: &crate::model::Tables, token: &str) -> Option<Piece> {
    let (side, kind) = t.variant().read_piece_token(token)?;
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
        // A live castling right written `K` or `Q` already says its pieces are unmoved (one
        // written by the partner's file leaves the king's file to say). Gating rights go with
        // the pieces in hand: a side with none left (and no captures to refill it) has none,
        // as Fairy-Stockfish writes it.
        let in_castling = |sq| {
            live.iter().any(|&i| {
                rights[i].side == side
                    && matches!(chars[i].to_ascii_uppercase(), 'K' | 'Q')
                    && (rights[i].king == sq || rights[i].partner == sq)
            })
        };
        let r = t.rules();
        let gates_closed = r.gating.is_some()
            && !r.captures_to_hand
            && (0..t.kinds()).all(|k| pos.in_hand(side, PieceKind::nth(k)) == 0);
        let mut noted: Vec<(i32, char)> = t
            .setup()
            .iter()
            .filter(|p| {
                p.side == side
                    && !gates_closed
                    && t.fen_noted_squares().contains(p.square)
                    && !in_castling(p.square)
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
        // Gating rights of pieces that stand where the setup has another (Chess960 starts).
        if let Some(zone) = r.gating.filter(|_| !gates_closed) {
            for sq in t.zone(zone, side).iter() {
                if pos.is_unmoved(sq)
                    && !in_castling(sq)
                    && pos.piece_at(sq).is_some_and(|p| p.side == side)
                    && !noted.iter().any(|&(f, _)| f == g.file(sq))
                {
                    let c = Geometry::file_char(g.file(sq));
                    let c = if s == 0 || t.variant().tags_sides() {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    };
                    noted.push((g.file(sq), c));
                }
            }
        }
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
