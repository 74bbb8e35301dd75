//! How a definition's pieces are told to XBoard, which knows pieces as a fixed list of types
//! (Pawn, Knight, ... King), each drawn with its own picture, with a FEN letter the `setup`
//! command assigns and moves the `piece` command gives in Betza. With every piece described,
//! XBoard can test the legality of moves, as it does for the games it knows.
//!
//! In a game XBoard knows ([`xboard_game`]: the definition is `known as` one of its games, or
//! its name is one), XBoard sets up its own board and pieces and plays by its own rules, and
//! nothing is sent: each piece takes the type of its letter in XBoard's table for that game,
//! or, where its letter is not there, the free type that resembles it most (Xiangqi's horse,
//! `N` here, is XBoard's `H`).
//!
//! Otherwise each piece kind gets a type, first by what XBoard does with it:
//! - the single royal kind goes to the King type, on which XBoard tests check;
//! - a kind with one promoted form, reached from it alone and not on the board at the start,
//!   gets one of the first eleven types
//!   (the only ones XBoard lets promote by `+`) and its promoted form any type, marked its
//!   partner in the table (`+`, or `^P` away from the type eleven further): XBoard then takes
//!   the promotion as `e5e6+` wherever it happens (and writes that form `+P` in FEN);
//! - a kind promoting by choice gets the Pawn or Lance type: the only ones XBoard lets promote
//!   to a piece named after the move (on the last rank);
//! - kinds whose moves Betza cannot cover (bent paths, shots, teleports), when there are at
//!   most two of them, get the Falcon and Cobra types and no `piece` command: XBoard takes any
//!   move of those (with more, XBoard cannot check moves at all and needs `-testLegality
//!   false`);
//! - the Pawn and Lance types, which XBoard moves as pawns (a sideways move to an empty square
//!   is en passant to it, and a move on the last rank a promotion, for which XBoard adds its
//!   Queen's letter when the move names none, legality testing or not), only for kinds that
//!   promote and never move sideways to an empty square.
//!
//! and then by resemblance ([`TYPES`]): the type whose picture's names match the piece's name
//! (a whole name over a word of it), whose picture shows the promoted form of the type its
//! unpromoted form has (a tokin for a pawn's promotion), and whose moves are closest to the
//! piece's own on an empty board. A kind that borrows movement is written with every move it
//! could borrow, which covers its moves ([`write_covering`]).

use std::collections::BTreeSet;

use super::xboard_types::{
    footprint, read_table, xboard_game, Game, Type, JUMP, KING, LANCE, PAWN, PROMOTABLE, TYPES,
    WILDCARDS,
};
use crate::engine::{notation, Move, MoveKind, Position};
use crate::model::betza::{write_covering, Dialect, Written};
use crate::model::{Facing, Mark, PieceKind, Side, Tables};

/// The definition's pieces in XBoard's terms.
pub(super) struct PieceMap {
    /// Each kind's FEN token in XBoard (`Q`, `+P`), uppercase; empty when it has none.
    tokens: Vec<String>,
    /// Each kind's type, in a game XBoard learns from `setup`.
    #[cfg_attr(not(test), allow(dead_code))]
    types: Vec<Option<usize>>,
    /// XBoard's own game of the name it is told, if it has one.
    game: Option<&'static Game>,
    /// White's half of the table `setup` sends (`.` unused, `+`/`^P` a promoted partner,
    /// `/` a jump to [`JUMP`]), the King's letter last.
    table: String,
    /// `piece` commands.
    commands: Vec<String>,
    /// Holdings XBoard should show: enough for every type that can be in hand.
    holdings: usize,
}

/// What the placement of one kind needs to know.
struct Piece {
    /// Its letter when it is one letter (uppercase).
    letter: Option<char>,
    /// Its name's words, lowercase.
    words: Vec<String>,
    royal: bool,
    /// The kinds it may promote to.
    targets: Vec<usize>,
    written: Written,
    /// Where it goes from its best square of the empty board (its own frame).
    reach: BTreeSet<(i8, i8)>,
    /// Whether it has a move to an empty square on another file.
    sideways: bool,
    /// Whether it stands on the board at the start.
    at_start: bool,
}

impl PieceMap {
    /// The pieces of the game that starts at `start`, for XBoard told the variant `name`.
    pub(super) fn new(start: &Position, name: &str) -> Self {
        let t = start.tables();
        let mut pieces = pieces(t);
        let g = t.geometry();
        for sq in g.squares() {
            if let Some(p) = start.piece_at(sq) {
                pieces[p.kind.index()].at_start = true;
            }
        }
        match xboard_game(name) {
            Some(game) if !game.table.is_empty() && game.name != "fairy" => {
                Self::known(t, &pieces, game)
            }
            _ => Self::unknown(t, &pieces),
        }
    }

    /// The name of XBoard's own game being played, if it is one.
    pub(super) fn game(&self) -> Option<&'static str> {
        self.game.map(|g| g.name)
    }

    /// A game XBoard knows: its letters, and the most resembling free type where a letter is
    /// not in its table.
    fn known(t: &Tables, pieces: &[Piece], game: &'static Game) -> Self {
        let variant = t.variant();
        let halves = read_table(game.table).unwrap_or_default();
        let letters: Vec<(usize, char)> = halves
            .iter()
            .flatten()
            .filter(|(_, c)| c.is_ascii_alphabetic())
            .map(|&(s, c)| (s, c.to_ascii_uppercase()))
            .collect();
        let n = pieces.len();
        let mut tokens = vec![String::new(); n];
        let mut taken: BTreeSet<char> = BTreeSet::new();
        for (k, p) in pieces.iter().enumerate() {
            if let Some(l) = p.letter.filter(|l| letters.iter().any(|(_, c)| c == l)) {
                tokens[k] = l.to_string();
                taken.insert(l);
            }
        }
        // Kinds whose letter XBoard does not have take a free type, by resemblance.
        let mut free: Vec<(usize, char)> = Vec::new();
        for &(s, c) in &letters {
            if !taken.contains(&c) && !free.iter().any(|&(_, f)| f == c) {
                free.push((s, c));
            }
        }
        loop {
            let best = (0..n)
                .filter(|&k| tokens[k].is_empty() && pieces[k].letter.is_some())
                .flat_map(|k| free.iter().map(move |&(s, c)| (k, s, c)))
                .map(|(k, s, c)| (resemblance(&pieces[k], s, None), k, s, c))
                .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
            let Some((_, k, _, c)) = best else { break };
            tokens[k] = c.to_string();
            free.retain(|&(_, f)| f != c);
        }
        // Promoted forms (`+P`, `Q~`) follow their base's letter.
        for (k, def) in variant.pieces().iter().enumerate() {
            if !tokens[k].is_empty() {
                continue;
            }
            let plus = match def.letter.mark() {
                Mark::Plus => true,
                Mark::Tilde => false,
                Mark::None => continue,
            };
            let base = def.letter.unmarked();
            let Some(b) = variant.pieces().iter().position(|p| p.letter == base) else {
                continue;
            };
            if !tokens[b].is_empty() {
                tokens[k] = if plus {
                    format!("+{}", tokens[b])
                } else {
                    format!("{}~", tokens[b])
                };
            }
        }
        PieceMap {
            tokens,
            types: vec![None; n],
            game: Some(game),
            table: String::new(),
            commands: Vec::new(),
            holdings: 0,
        }
    }

    /// A game XBoard learns from `setup` and `piece`.
    fn unknown(t: &Tables, pieces: &[Piece]) -> Self {
        let n = pieces.len();
        let mut slot: Vec<Option<usize>> = vec![None; n];
        let mut used: BTreeSet<usize> = BTreeSet::new();
        let royals: Vec<usize> = (0..n).filter(|&k| pieces[k].royal).collect();
        if let [k] = royals.as_slice() {
            slot[*k] = Some(KING);
            used.insert(KING);
        }
        // One-way promotions: a kind whose only promotion is to a kind no other reaches.
        let mut partner_of: Vec<Option<usize>> = vec![None; n];
        let mut base_of: Vec<Option<usize>> = vec![None; n];
        for k in 0..n {
            let [p] = pieces[k].targets.as_slice() else {
                continue;
            };
            let sources = pieces.iter().filter(|x| x.targets.contains(p)).count();
            let free =
                |x: usize| slot[x].is_none() && partner_of[x].is_none() && base_of[x].is_none();
            // A promoted form does not stand on the board at the start.
            if sources == 1 && *p != k && free(k) && free(*p) && !pieces[*p].at_start {
                partner_of[k] = Some(*p);
                base_of[*p] = Some(k);
            }
        }
        let uncovered: Vec<usize> = (0..n).filter(|&k| !pieces[k].written.covers).collect();
        let checkable = uncovered.len() <= WILDCARDS.len();

        let allowed = |k: usize, s: usize, used: &BTreeSet<usize>| -> bool {
            if used.contains(&s) || s == KING {
                return false;
            }
            if partner_of[k].is_some() && s >= PROMOTABLE {
                return false;
            }
            if s == PAWN || s == LANCE {
                let promotes = !pieces[k].targets.is_empty();
                return promotes && !pieces[k].sideways;
            }
            true
        };
        let greedy = |kinds: &[usize],
                      types: &[usize],
                      slot: &mut Vec<Option<usize>>,
                      used: &mut BTreeSet<usize>,
                      strict: bool| {
            loop {
                let mut best: Option<(f64, usize, usize)> = None;
                for &k in kinds {
                    if slot[k].is_some() {
                        continue;
                    }
                    let base = base_of[k].and_then(|b| slot[b]);
                    for (order, &s) in types.iter().enumerate() {
                        if strict && !allowed(k, s, used) || used.contains(&s) || s == KING {
                            continue;
                        }
                        let score = resemblance(&pieces[k], s, base) - order as f64 * 1e-6;
                        if best.is_none_or(|(b, _, _)| score > b) {
                            best = Some((score, k, s));
                        }
                    }
                }
                let Some((_, k, s)) = best else { break };
                slot[k] = Some(s);
                used.insert(s);
            }
        };
        let all_types: Vec<usize> = TYPES.iter().map(|t| t.slot).collect();
        let choosers: Vec<usize> = (0..n)
            .filter(|&k| !pieces[k].targets.is_empty() && partner_of[k].is_none())
            .collect();
        greedy(&choosers, &[PAWN, LANCE], &mut slot, &mut used, false);
        if checkable {
            greedy(&uncovered, &WILDCARDS, &mut slot, &mut used, false);
        }
        let bases: Vec<usize> = (0..n).filter(|&k| base_of[k].is_none()).collect();
        greedy(&bases, &all_types, &mut slot, &mut used, true);
        let partners: Vec<usize> = (0..n).filter(|&k| base_of[k].is_some()).collect();
        greedy(&partners, &all_types, &mut slot, &mut used, true);
        let everyone: Vec<usize> = (0..n).collect();
        greedy(&everyone, &all_types, &mut slot, &mut used, false);

        // Letters: a kind's own, else one no kind has.
        let mut spare = ('A'..='Z').filter(|c| !pieces.iter().any(|p| p.letter == Some(*c)));
        let mut letter: Vec<Option<char>> = vec![None; n];
        for k in 0..n {
            if slot[k].is_some() && base_of[k].is_none() {
                letter[k] = pieces[k].letter.or_else(|| spare.next());
            }
        }
        let mut cells: Vec<(usize, String)> = Vec::new();
        let mut tokens = vec![String::new(); n];
        for k in 0..n {
            let Some(s) = slot[k] else { continue };
            match base_of[k] {
                Some(b) => {
                    let (Some(bs), Some(bl)) = (slot[b], letter[b]) else {
                        continue;
                    };
                    let cell = if s == bs + PROMOTABLE {
                        "+".to_string()
                    } else {
                        format!("^{bl}")
                    };
                    cells.push((s, cell));
                    tokens[k] = format!("+{bl}");
                }
                None => {
                    let Some(l) = letter[k] else { continue };
                    cells.push((s, l.to_string()));
                    tokens[k] = l.to_string();
                }
            }
        }
        let table = write_table(&cells);

        let mut commands = Vec::new();
        for k in 0..n {
            let Some(s) = slot[k] else { continue };
            let w = &pieces[k].written;
            let wildcard = WILDCARDS.contains(&s) && !w.covers;
            if !wildcard && !w.text.is_empty() && !tokens[k].is_empty() {
                commands.push(format!("piece {}& {}", tokens[k], w.text));
            }
        }
        let holdings = if t.rules().hands {
            cells
                .iter()
                .filter(|(s, c)| *s != KING && !c.starts_with(['+', '^']))
                .count()
        } else {
            0
        };
        PieceMap {
            tokens,
            types: slot,
            game: None,
            table,
            commands,
            holdings,
        }
    }

    /// What XBoard is told on `new`: for a game it does not know, `setup (TABLE)
    /// WxH+HOLDINGS_fairy FEN`, then a `piece` command for each piece; nothing for a game it
    /// knows.
    pub(super) fn setup(&self, start: &Position) -> Vec<String> {
        if self.game.is_some() {
            return Vec::new();
        }
        let g = start.tables().geometry();
        let white = &self.table;
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
    /// type's letter, or `+` to a promoted partner; a shot as XBoard's two legs, out to the
    /// victim and back (`c3c10,c10c3`).
    pub(super) fn move_text(&self, pos: &Position, m: &Move) -> String {
        let g = pos.tables().geometry();
        if let Some(w) = m.wall {
            // XBoard's second leg, before any promotion suffix (`e7e8,e8d5q`).
            let base = self.move_text(pos, &Move { wall: None, ..*m });
            let to = g.name(notation::written_to(pos, m)).to_string();
            let leg = format!(",{to}{}", g.name(w));
            let split = base.rfind(&to).map_or(base.len(), |i| i + to.len());
            return format!("{}{leg}{}", &base[..split], &base[split..]);
        }
        match (m.kind, m.promotion) {
            (MoveKind::Drop, _) if !self.tokens[m.placed().index()].is_empty() => {
                let token = self.tokens[m.placed().index()].trim_end_matches('~');
                format!("{token}@{}", g.name(m.to))
            }
            // XBoard's null move.
            (MoveKind::Pass, _) => "@@@@".into(),
            (MoveKind::Shot, _) => {
                let (from, to) = (g.name(m.from), g.name(m.to));
                format!("{from}{to},{to}{from}")
            }
            (MoveKind::Drop | MoveKind::Castle(_), _) | (_, None) => notation::coord(pos, m),
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
                    to.trim_end_matches('~').to_ascii_lowercase()
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

/// White's half of a `setup` table from each used type's cell: the types below [`JUMP`] in
/// order (at least the 21 of XBoard's fairy table), then `/` and those from [`JUMP`] on, then
/// the King's letter.
fn write_table(cells: &[(usize, String)]) -> String {
    let cell = |s: usize| {
        cells
            .iter()
            .find(|(c, _)| *c == s)
            .map_or(".".to_string(), |(_, text)| text.clone())
    };
    let low = cells
        .iter()
        .map(|(s, _)| *s)
        .filter(|&s| s < JUMP)
        .max()
        .unwrap_or(0)
        .max(20);
    let mut out: String = (0..=low).map(cell).collect();
    if let Some(high) = cells
        .iter()
        .map(|(s, _)| *s)
        .filter(|&s| s >= JUMP && s != KING)
        .max()
    {
        out.push('/');
        out.extend((JUMP..=high).map(cell));
    }
    out.push_str(&cell(KING));
    out
}

/// Each kind's facts for placing it, under the options `t` was compiled with.
fn pieces(t: &Tables) -> Vec<Piece> {
    let variant = t.variant();
    let defs = variant.pieces();
    let g = t.geometry();
    let facing = variant.side(Side::FIRST).facing;
    (0..defs.len())
        .map(|k| {
            let def = &defs[k];
            let letter = (def.letter.mark() == Mark::None).then(|| def.letter.base());
            let mut targets: Vec<usize> = Vec::new();
            for p in &def.promotions {
                if t.guards_hold(&p.options) {
                    for c in &p.choices {
                        if !targets.contains(&c.index()) {
                            targets.push(c.index());
                        }
                    }
                }
            }
            let kind = PieceKind::nth(k);
            let mut reach = BTreeSet::new();
            let mut sideways = false;
            for from in g.squares() {
                let mut here = BTreeSet::new();
                for target in t.reach(kind, Side::FIRST, from) {
                    let dx = g.file(target.square) - g.file(from);
                    let dy = g.rank(target.square) - g.rank(from);
                    let (x, y) = own_frame(facing, dx, dy);
                    if target.can_move && x != 0 {
                        sideways = true;
                    }
                    let near = |v: i32| i8::try_from(v).ok().filter(|v| (-7..=7).contains(v));
                    if let (Some(x), Some(y)) = (near(x), near(y)) {
                        here.insert((x, y));
                    }
                }
                if here.len() > reach.len() {
                    reach = here;
                }
            }
            Piece {
                letter,
                words: words(&def.name),
                royal: def.royal,
                targets,
                written: write_covering(t, kind, Dialect::XBoard),
                reach,
                sideways,
                at_start: false,
            }
        })
        .collect()
}

/// A board vector in the frame of a side facing `facing`.
fn own_frame(facing: Facing, dx: i32, dy: i32) -> (i32, i32) {
    match facing {
        Facing::North => (dx, dy),
        Facing::South => (-dx, -dy),
        Facing::East => (-dy, dx),
        Facing::West => (dy, -dx),
    }
}

/// A name's words, lowercase: split at blanks, `-`, `_` and where a capital follows a small
/// letter (`CrossedPawn` is `crossed pawn`).
fn words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        let boundary = !c.is_ascii_alphanumeric() || (c.is_ascii_uppercase() && prev_lower);
        if boundary && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if c.is_ascii_alphanumeric() {
            word.push(c.to_ascii_lowercase());
        }
        prev_lower = c.is_ascii_lowercase();
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// How well type `slot` pictures `piece`: its picture's names against the piece's name (the
/// whole name 30, a run of its words 20, 2 more for the picture's own name), the promoted form of the type its unpromoted form
/// `base` has (25), and the moves its picture stands for against the piece's on an empty
/// board (up to 10, by the share of squares in common).
fn resemblance(piece: &Piece, slot: usize, base: Option<usize>) -> f64 {
    let Some(ty) = TYPES.iter().find(|t| t.slot == slot) else {
        return 0.0;
    };
    name_score(piece, ty)
        + if base.is_some_and(|b| ty.promotes.contains(&b)) {
            25.0
        } else {
            0.0
        }
        + 10.0 * jaccard(&piece.reach, &footprint(ty.betza))
}

/// The picture's own name (the first) counts a little more than the names it also shows.
fn name_score(piece: &Piece, ty: &Type) -> f64 {
    let mut best: f64 = 0.0;
    let have: Vec<&str> = piece.words.iter().map(String::as_str).collect();
    for (i, name) in ty.names.iter().enumerate() {
        let want: Vec<&str> = name.split(' ').collect();
        let own = if i == 0 { 2.0 } else { 0.0 };
        if have == want {
            best = best.max(30.0 + own);
        } else if have.windows(want.len()).any(|w| w == want.as_slice()) {
            best = best.max(20.0 + own);
        }
    }
    best
}

/// The share of the squares either piece reaches that both reach.
fn jaccard(a: &BTreeSet<(i8, i8)>, b: &BTreeSet<(i8, i8)>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        return 0.0;
    }
    a.intersection(b).count() as f64 / union as f64
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
        .map(|p| p.letter.to_string())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::variant_name;

    /// The pieces of a shipped definition (`definitions/FILE`) as XBoard is told them.
    fn map(file: &str) -> (Position, PieceMap) {
        let text = std::fs::read_to_string(format!("definitions/{file}")).unwrap();
        let variant = crate::load(file, &text).unwrap();
        let name = variant_name(&variant, crate::model::Protocol::XBoard);
        let start = Position::new(Tables::compile(&variant, &[]).unwrap());
        let map = PieceMap::new(&start, &name);
        (start, map)
    }

    fn kind(pos: &Position, name: &str) -> usize {
        pos.tables().variant().piece_by_name(name).unwrap().index()
    }

    #[test]
    fn a_game_xboard_knows_keeps_its_letters_and_is_not_set_up() {
        let (pos, m) = map("chess.variant");
        assert_eq!(m.game(), Some("normal"));
        assert!(m.setup(&pos).is_empty());
        assert_eq!(m.fen_out(pos.tables(), &pos.fen()), pos.fen());
        let (pos, m) = map("xiangqi.variant");
        assert_eq!(m.game(), Some("xiangqi"));
        // XBoard's Xiangqi letters its horse H and its elephant E.
        assert_eq!(m.tokens[kind(&pos, "Horse")], "H");
        assert_eq!(m.tokens[kind(&pos, "Elephant")], "E");
        assert_eq!(
            m.fen_out(pos.tables(), &pos.fen()),
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1"
        );
        let (pos, m) = map("shogi.variant");
        assert_eq!(m.tokens[kind(&pos, "Tokin")], "+P");
        assert_eq!(m.fen_out(pos.tables(), &pos.fen()), pos.fen());
    }

    #[test]
    fn pieces_take_the_types_that_picture_them() {
        let (pos, m) = map("middle-xiangqi.variant");
        assert_eq!(m.game(), None);
        let at = |name: &str| m.types[kind(&pos, name)].unwrap();
        assert_eq!(at("General"), KING);
        assert_eq!(at("Pawn"), PAWN);
        assert_eq!(at("Horse"), 1, "a knight");
        assert_eq!(at("Advisor"), 5, "an advisor");
        assert_eq!(at("Elephant"), 6, "an elephant");
        assert_eq!(at("Cannon"), 11, "a cannon");
        assert_eq!(at("Ox"), 31, "a gnu");
        assert_eq!(at("Rhino"), 24, "moves as a camel");
        assert_eq!(at("CrossedPawn"), 55, "the pawn's promotion: a tokin");
        assert_eq!(m.tokens[kind(&pos, "CrossedPawn")], "+P");
        assert!(m.table.ends_with("/.........^PG"), "{}", m.table);

        let (pos, m) = map("gala-xiangqi.variant");
        let at = |name: &str| m.types[kind(&pos, name)].unwrap();
        // Neither promotes: XBoard would promote a Pawn on the last rank.
        assert_eq!(at("Pawn"), 37, "a round helmet");
        assert_eq!(at("Soldier"), 36, "a crested helmet");
        assert_eq!(at("Horse"), 1);
        assert_eq!(at("Elephant"), 6);
        assert_eq!(at("King"), 50, "drawn as a king, without XBoard's royalty");

        let (pos, m) = map("delegating-chess.variant");
        let at = |name: &str| m.types[kind(&pos, name)].unwrap();
        assert_eq!(at("Queen"), 4, "a queen, not a wildcard");
        // Its own moves and all it could borrow.
        assert!(
            m.commands.contains(&"piece Q& QKN".to_string()),
            "{:?}",
            m.commands
        );
    }
}
