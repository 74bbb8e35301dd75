//! Reading a FEN: the board, the hands, the side to move and the state fields, into a
//! position.

use super::{
    castling_kings, err, in_start_place, noted_start, piece_of_token, right_chars, straight_beyond,
    ParseFenError,
};
use crate::engine::position::Position;
use crate::engine::setup::{Setup, SetupError};
use crate::model::{Geometry, Side, Square};

impl From<SetupError> for ParseFenError {
    fn from(e: SetupError) -> ParseFenError {
        ParseFenError(e.to_string())
    }
}

/// The ranks of the board part, top first, and the hand if one is given (in brackets, or as
/// one rank too many).
pub(super) fn split_board(
    board_part: &str,
    g: Geometry,
) -> Result<(Vec<&str>, Option<&str>), ParseFenError> {
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
pub(super) fn read_rank(setup: &mut Setup, rank: i32, text: &str) -> Result<(), ParseFenError> {
    let g = setup.tables().geometry();
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
        // A hole, or a wall where the rules make walls (Fairy-Stockfish writes both so). A
        // count of empty squares may also run over holes.
        if c == '*' {
            if let Some(sq) = g.square(file, rank).filter(|&sq| !g.is_hole(sq)) {
                if !setup.tables().rules().walls {
                    return err(format!(
                        "`*` on {}, which is not a hole of this board",
                        g.name(sq)
                    ));
                }
                setup.put_wall(sq)?;
            }
            file = file.saturating_add(1);
            continue;
        }
        // With more than two sides a piece is its side's initial, then its letter (`rK`).
        let (tag, c) = if setup.tables().variant().tags_sides() {
            if setup.tables().variant().side_by_tag(c).is_none() {
                return err(format!(
                    "`{c}` in rank {} is not the initial of a side: with more than two sides a \
                     piece is written with its side's initial, as in `{}K`",
                    rank + 1,
                    setup.tables().variant().side_tag(Side::FIRST)
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
            if piece_of_token(setup.tables(), &marked).is_some() {
                letter = marked;
            }
        }
        let piece = piece_of_token(setup.tables(), &letter)
            .ok_or_else(|| ParseFenError(format!("unknown piece letter `{letter}`")))?;
        let Some(sq) = g.square(file, rank) else {
            return err(format!(
                "rank {} is longer than {} files",
                rank + 1,
                g.width
            ));
        };
        setup.put(sq, piece)?;
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
pub(super) fn read_hand(setup: &mut Setup, hand: &str) -> Result<(), ParseFenError> {
    let tags = setup.tables().variant().tags_sides();
    let mut chars = hand.chars().filter(|c| *c != '-' && *c != '~');
    while let Some(c) = chars.next() {
        // With more than two sides a piece in hand is its side's initial and its letter.
        let token: String = if tags {
            match chars.next() {
                Some(l) => [c, l].into_iter().collect(),
                None => return err(format!("`{c}` in hand without a piece letter")),
            }
        } else {
            c.to_string()
        };
        let piece = piece_of_token(setup.tables(), &token);
        // A game without hands says so before any letter is looked up.
        let piece = match setup.tables().rules().hands {
            false => return Err(SetupError::NoHands.into()),
            true => piece
                .ok_or_else(|| ParseFenError(format!("unknown piece letter `{token}` in hand")))?,
        };
        setup.add_to_hand(piece)?;
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

/// `out:b,g`: sides out of the running, by initial (more than two sides).
fn read_out(setup: &mut Setup, field: &str, list: &str) -> Result<(), ParseFenError> {
    for tag in list.split(',') {
        let mut chars = tag.chars();
        let tag_char = match (chars.next(), chars.next()) {
            (Some(c), None) => Some(c),
            _ => None,
        };
        let side = tag_char
            .and_then(|c| setup.tables().variant().side_by_tag(c))
            .filter(|_| setup.tables().sides() > 2)
            .ok_or_else(|| {
                ParseFenError(format!("`{tag}` in `{field}` is not the initial of a side"))
            })?;
        setup
            .set_out(side)
            .map_err(|e| ParseFenError(format!("`{field}`: {e}")))?;
    }
    Ok(())
}

/// Reads the castling, en-passant and clock fields, each optional, asking `board` (the pieces
/// read so far) where a field depends on them.
pub(super) fn read_state<'a>(
    setup: &mut Setup,
    board: &Position,
    fields: impl Iterator<Item = &'a str>,
) -> Result<(), ParseFenError> {
    let mut numbers = Vec::new();
    let mut castling_done = false;
    let mut ep_done = false;
    let mut moved = Vec::new();
    for field in fields {
        if let Some(counts) = check_counts(field) {
            let Some((n, _)) = board.tables().rules().checks else {
                return err(format!(
                    "`{field}` counts checks, which this variant does not"
                ));
            };
            // `+2+0` (checks given, as lichess writes it) or `1+3` (checks left, as
            // Fairy-Stockfish writes it).
            let given = field.starts_with('+');
            if counts.len() != board.tables().sides() {
                return err(format!("`{field}` needs one count per side"));
            }
            for (side, c) in Side::all(counts.len()).zip(counts) {
                let c = u8::try_from(c).map_or(n, |c| c.min(n));
                setup.set_checks_given(side, if given { c } else { n - c });
            }
        } else if let Some(name) = field.strip_prefix("counter-strike:") {
            if board.tables().rules().counter_strike.is_empty() {
                return err(format!(
                    "`{field}` notes a counter-strike, which this variant does not have"
                ));
            }
            let sq =
                board.tables().geometry().parse(name).ok_or_else(|| {
                    ParseFenError(format!("`{name}` in `{field}` is not a square"))
                })?;
            setup.set_struck(sq);
        } else if let Some(list) = field.strip_prefix("out:") {
            read_out(setup, field, list)?;
        } else if let Some(list) = field.strip_prefix("moved:") {
            let g = board.tables().geometry();
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
            read_castling(setup, board, field)?;
        } else if !ep_done {
            // A lone `-` after a castling field the variant lacks is the en-passant field.
            castling_done = true;
            ep_done = true;
            if field != "-" {
                read_en_passant(setup, board, field)?;
            }
        } else if field != "-" {
            return err(format!("unexpected field `{field}`"));
        }
    }
    match numbers.as_slice() {
        [] => {}
        [h] => setup.set_clocks(*h, None),
        [h, f] => setup.set_clocks(*h, Some(*f)),
        // A number where the en-passant square goes means none, as Fairy-Stockfish reads it
        // (its suite writes Cambodian positions so: `b DEe 0 0 5`).
        [_, h, f] if !ep_done => setup.set_clocks(*h, Some(*f)),
        _ => return err("too many number fields"),
    }
    mark_first_move_pieces(setup, board);
    for sq in moved {
        setup.mark_moved(sq);
    }
    Ok(())
}

/// A FEN says nothing of first moves, except in the castling field for `unmoved noted in fen`
/// pieces: a piece whose patterns ask counts as unmoved where the start position puts a piece
/// like it.
fn mark_first_move_pieces(setup: &mut Setup, board: &Position) {
    let t = board.tables();
    for p in t.setup() {
        if t.first_move_squares().contains(p.square)
            && !t.fen_noted_squares().contains(p.square)
            && in_start_place(board, p)
        {
            setup.mark_unmoved(p.square);
        }
    }
}

/// The side to move: `w`, `b` (then `c`, `d`) by turn order, whatever the sides are called;
/// else a side's whole name, or the initial of exactly one side's name where that initial is
/// no side's letter.
pub(super) fn parse_side(pos: &Position, s: &str) -> Result<Side, ParseFenError> {
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

/// Marks the pieces of each castling right the field names as unmoved, where they stand.
fn read_castling(setup: &mut Setup, board: &Position, field: &str) -> Result<(), ParseFenError> {
    if field == "-" {
        return Ok(());
    }
    let chars = right_chars(board);
    let t = board.tables();
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
        if castling_kings(board, side) > 1 && noted_start(board, side as usize, c).is_none() {
            continue;
        }
        // Under gating, a file letter names the side's piece on that file in the gating zone,
        // whatever it is (Chess960 starts): unmoved, with its gating right.
        let castling_letter = c.eq_ignore_ascii_case(&'K') || c.eq_ignore_ascii_case(&'Q');
        if !castling_letter || t.rules().rights.is_empty() {
            if let Some(sq) = gate_on_file(board, side, c) {
                setup.mark_unmoved(sq);
                continue;
            }
        }
        // A noted piece's file: unmoved if it stands on its start square.
        if let Some(start) = noted_start(board, side as usize, c) {
            if in_start_place(board, &start) {
                setup.mark_unmoved(start.square);
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
            .find(|&i| board.right_in_place(i))
            .or_else(|| {
                rights
                    .filter(|&i| wing(i) && board.right_in_place(i))
                    .max_by_key(outermost)
            });
        if let Some(i) = chosen {
            let r = t.rules().rights[i];
            setup.mark_unmoved(r.king);
            setup.mark_unmoved(r.partner);
        }
    }
    Ok(())
}

/// Under `gating in ZONE`: the square of `side`'s piece on the file of letter `c` in the
/// gating zone, if there is one.
fn gate_on_file(board: &Position, side: u8, c: char) -> Option<crate::model::Square> {
    let t = board.tables();
    let zone = t.rules().gating?;
    let g = t.geometry();
    let side = Side::from_raw(side);
    t.zone(zone, side).iter().find(|&sq| {
        Geometry::file_char(g.file(sq)) == c.to_ascii_lowercase()
            && board.piece_at(sq).is_some_and(|p| p.side == side)
    })
}

/// Reads one or more target squares (`e3`, `e3e4`, `c10`) and finds the piece that passed them:
/// the one just beyond the farthest, in its side's forward direction. Targets nobody can use
/// are dropped, as in positions reached by play.
fn read_en_passant(setup: &mut Setup, board: &Position, field: &str) -> Result<(), ParseFenError> {
    let g = board.tables().geometry();
    let mut targets = Vec::new();
    let mut rest = field;
    while !rest.is_empty() {
        let Some((sq, n)) = g.parse_prefix(rest) else {
            return err(format!("en-passant square `{rest}` is not on the board"));
        };
        targets.push(sq);
        rest = &rest[n..];
    }
    let mover = board.previous_side(board.side_to_move());
    // Fairy-Stockfish lists the destination of some double steps too (`g5g6` after g7-g5):
    // a listed square holding the mover's piece is the piece that passed.
    let listed_victim = targets
        .iter()
        .copied()
        .find(|&sq| board.piece_at(sq).is_some_and(|p| p.side == mover));
    targets.retain(|&sq| Some(sq) != listed_victim);
    if targets.is_empty() {
        return Ok(());
    }
    let Some(victim) = listed_victim.or_else(|| straight_beyond(board, &targets, mover)) else {
        return Ok(());
    };
    if board.piece_at(victim).is_none_or(|p| p.side != mover) {
        return Ok(());
    }
    let usable: Vec<Square> = targets
        .into_iter()
        .filter(|&sq| board.piece_at(sq).is_none() && board.en_passant_possible(sq, mover))
        .collect();
    setup.set_en_passant(usable, victim);
    Ok(())
}
