//! A resolved Fairy-Stockfish variant ([`Config`]) written as a Rulebook definition.
//!
//! Every setting is either written as the construct that plays the same moves, written with
//! a named approximation where only a game's result may differ (Makruk's counting rules,
//! extinction counted without pieces in hand), or refused with the key, its value and why.
//! The text is loaded by the checker before it is returned, so what is written is always a
//! valid definition.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::betza::{self, Canon, Vector};
use super::model::*;

/// A key whose value the language cannot express, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The key (or keys) concerned.
    pub key: String,
    /// Its value, as Fairy-Stockfish holds it.
    pub value: String,
    /// Why it cannot be written, in one line.
    pub reason: String,
    /// The construct the language lacks for it, in a few words (for tallies).
    pub construct: &'static str,
}

/// A section written as a definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The definition's text.
    pub text: String,
    /// Approximations taken: only results differ, never moves.
    pub approximations: Vec<String>,
}

/// Where a section came from, for the header comment.
#[derive(Clone, Debug, Default)]
pub struct Source {
    /// The INI file's name.
    pub file: String,
    /// The section's name.
    pub name: String,
    /// Its template, if any.
    pub template: Option<String>,
    /// The line of its header.
    pub line: usize,
    /// The comment lines above its header.
    pub comments: Vec<String>,
}

/// Writes `cfg` as a definition, or gives every reason it cannot be written.
///
/// # Errors
/// The keys whose values the language cannot express.
pub fn write(cfg: &Config, source: &Source) -> Result<Written, Vec<Refusal>> {
    let mut w = Writer::new(cfg);
    w.run();
    if !w.refusals.is_empty() {
        w.refusals.dedup();
        return Err(w.refusals);
    }
    Ok(w.finish(source))
}

/// One kind of piece of the definition.
#[derive(Clone, Debug)]
struct Kind {
    /// Fairy-Stockfish's piece type it stands for.
    pt: PieceType,
    name: String,
    letter: String,
    royal: bool,
    value: f32,
    /// Its clauses, each a line (without indentation).
    clauses: Vec<String>,
    /// A comment after the declaration.
    note: Option<String>,
}

struct Writer<'a> {
    cfg: &'a Config,
    files: usize,
    ranks: usize,
    refusals: Vec<Refusal>,
    approximations: Vec<String>,
    /// Zones: name, white squares, black squares.
    zones: Vec<(String, Bb, Bb)>,
    kinds: Vec<Kind>,
    castlings: Vec<String>,
    rules: Vec<String>,
    setup: String,
    holes: Bb,
    /// Name of each piece type's kind.
    names: BTreeMap<PieceType, String>,
    /// Kinds for shogi-style promoted pieces (`+X`), by the type they come from.
    plus_kinds: BTreeMap<PieceType, String>,
    /// Kinds for promoted pawns written `Y~`, by the type they become.
    tilde_kinds: BTreeMap<PieceType, String>,
    /// The side to move first in the start position, the castling field, the check counts.
    start_side: char,
    castling_field: String,
    check_counts: Option<(u32, u32)>,
}

fn file_char(f: usize) -> char {
    (b'a' + f as u8) as char
}

fn square_name(f: usize, r: usize) -> String {
    format!("{}{}", file_char(f), r + 1)
}

/// Fairy-Stockfish's piece name as a Rulebook name: `shogiPawn` is `ShogiPawn`.
fn title(name: &str) -> String {
    let mut c = name.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

fn fmt_value(v: f32) -> String {
    let r = (v * 100.0).round() / 100.0;
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

/// A direction set in the language's words where there are some, else as vectors.
fn dirs_text(vs: &BTreeSet<Vector>) -> String {
    let set = |list: &[Vector]| -> BTreeSet<Vector> { list.iter().copied().collect() };
    let named: &[(&str, &[Vector])] = &[
        (
            "any",
            &[
                (0, 1),
                (1, 0),
                (0, -1),
                (-1, 0),
                (1, 1),
                (1, -1),
                (-1, -1),
                (-1, 1),
            ],
        ),
        ("orthogonal", &[(0, 1), (1, 0), (0, -1), (-1, 0)]),
        ("diagonal", &[(1, 1), (1, -1), (-1, -1), (-1, 1)]),
        ("forward-diagonal", &[(-1, 1), (1, 1)]),
        ("backward-diagonal", &[(-1, -1), (1, -1)]),
        ("sideways", &[(-1, 0), (1, 0)]),
        ("forward", &[(0, 1)]),
        ("backward", &[(0, -1)]),
        ("left", &[(-1, 0)]),
        ("right", &[(1, 0)]),
    ];
    let mut left = vs.clone();
    let mut words: Vec<String> = Vec::new();
    for (word, list) in named {
        let s = set(list);
        if s.is_subset(&left) {
            left.retain(|v| !s.contains(v));
            words.push((*word).to_string());
        }
    }
    // Whole leaps of longer vectors: `(1,2)`.
    let mut classes: BTreeSet<(i8, i8)> = BTreeSet::new();
    for v in &left {
        let (a, b) = (v.0.unsigned_abs() as i8, v.1.unsigned_abs() as i8);
        classes.insert((a.min(b), a.max(b)));
    }
    for (a, b) in classes {
        let all: BTreeSet<Vector> = crate::model::betza::all_vectors((a, b))
            .into_iter()
            .collect();
        if all.is_subset(&left) {
            left.retain(|v| !all.contains(v));
            words.push(format!("({a},{b})"));
        }
    }
    for v in &left {
        words.push(format!("[{},{}]", v.0, v.1));
    }
    words.join(" ")
}

/// The squares a zone expression names: full ranks as `ranks`, a rectangle as `a1-c3`, the
/// rest square by square.
fn zone_expr(b: Bb, files: usize, ranks: usize) -> String {
    let b = b.on_board(files, ranks);
    if b.is_empty() {
        return "none".into();
    }
    let all = Bb::ALL.on_board(files, ranks);
    if b == all {
        return "all".into();
    }
    let mut parts: Vec<String> = Vec::new();
    let full: Vec<usize> = (0..ranks)
        .filter(|&r| (0..files).all(|f| b.has(f, r)))
        .collect();
    let mut i = 0;
    while i < full.len() {
        let mut j = i;
        while j + 1 < full.len() && full[j + 1] == full[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            format!("rank {}", full[i] + 1)
        } else {
            format!("ranks {}-{}", full[i] + 1, full[j] + 1)
        });
        i = j + 1;
    }
    let rest: Vec<(usize, usize)> = b.squares().filter(|(_, r)| !full.contains(r)).collect();
    if !rest.is_empty() {
        let (f0, f1) = (
            rest.iter().map(|s| s.0).min().unwrap_or(0),
            rest.iter().map(|s| s.0).max().unwrap_or(0),
        );
        let (r0, r1) = (
            rest.iter().map(|s| s.1).min().unwrap_or(0),
            rest.iter().map(|s| s.1).max().unwrap_or(0),
        );
        let area = (f1 - f0 + 1) * (r1 - r0 + 1);
        if area == rest.len() && rest.len() > 2 {
            parts.push(format!("{}-{}", square_name(f0, r0), square_name(f1, r1)));
        } else {
            parts.extend(rest.iter().map(|&(f, r)| square_name(f, r)));
        }
    }
    parts.join(" ")
}

/// Letters of a piece set, for messages.
fn set_text(cfg: &Config, set: PieceSet) -> String {
    if set & 1 != 0 {
        return "*".into();
    }
    cfg.piece_types()
        .filter(|&pt| set & bit(pt) != 0)
        .filter_map(|pt| cfg.letters[pt as usize])
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

fn value_text(v: Value) -> &'static str {
    match v {
        Value::Win => "win",
        Value::Loss => "loss",
        Value::Draw => "draw",
        Value::None => "none",
    }
}

fn bb_text(b: Bb, files: usize, ranks: usize) -> String {
    let b = b.on_board(files, ranks);
    if b.is_empty() {
        return "-".into();
    }
    b.squares()
        .map(|(f, r)| square_name(f, r))
        .collect::<Vec<_>>()
        .join(" ")
}

impl<'a> Writer<'a> {
    fn new(cfg: &'a Config) -> Writer<'a> {
        Writer {
            cfg,
            files: cfg.max_file,
            ranks: cfg.max_rank,
            refusals: Vec::new(),
            approximations: Vec::new(),
            zones: Vec::new(),
            kinds: Vec::new(),
            castlings: Vec::new(),
            rules: Vec::new(),
            setup: String::new(),
            holes: Bb::EMPTY,
            names: BTreeMap::new(),
            plus_kinds: BTreeMap::new(),
            tilde_kinds: BTreeMap::new(),
            start_side: 'w',
            castling_field: "-".into(),
            check_counts: None,
        }
    }

    fn refuse(
        &mut self,
        key: &str,
        value: impl Into<String>,
        reason: &str,
        construct: &'static str,
    ) {
        self.refusals.push(Refusal {
            key: key.into(),
            value: value.into(),
            reason: reason.into(),
            construct,
        });
    }

    fn approximate(&mut self, what: impl Into<String>) {
        let what = what.into();
        if !self.approximations.contains(&what) {
            self.approximations.push(what);
        }
    }

    /// The name of a zone with these squares for white and black, declared once.
    fn zone(&mut self, name: &str, white: Bb, black: Bb) -> String {
        let (white, black) = (
            white.on_board(self.files, self.ranks),
            black.on_board(self.files, self.ranks),
        );
        // The same squares under the same name are one zone; zones for other purposes keep
        // their own names even when they hold the same squares.
        let same_name = |z: &str| {
            z == name
                || z.strip_prefix(name).is_some_and(|r| {
                    r.starts_with('-') && r[1..].chars().all(|c| c.is_ascii_digit())
                })
        };
        if let Some(z) = self
            .zones
            .iter()
            .find(|z| z.1 == white && z.2 == black && same_name(&z.0))
        {
            return z.0.clone();
        }
        let mut unique = name.to_string();
        let mut n = 2;
        while self.zones.iter().any(|z| z.0 == unique) {
            unique = format!("{name}-{n}");
            n += 1;
        }
        self.zones.push((unique.clone(), white, black));
        unique
    }

    /// A zone holding the same squares for both sides.
    fn zone_both(&mut self, name: &str, b: Bb) -> String {
        self.zone(name, b, b)
    }

    fn run(&mut self) {
        let cfg = self.cfg;
        if cfg.max_file > 26 || cfg.max_rank > 26 {
            self.refuse(
                "maxFile",
                cfg.max_file.to_string(),
                "board too large",
                "large boards",
            );
        }
        self.unsupported_keys();
        self.read_fen();
        self.name_pieces();
        self.pieces();
        self.castling();
        self.rules();
        self.holes_check();
    }

    /// Walls in the start position are holes, which hoppers may not use as screens and
    /// Othello's flipping does not reach across, as Fairy-Stockfish's walls are and do.
    fn holes_check(&mut self) {
        let cfg = self.cfg;
        if self.holes.is_empty() {
            return;
        }
        let holes = bb_text(self.holes, self.files, self.ranks);
        let hoppers = cfg.piece_types().any(|pt| {
            let t = betza::read(cfg.betza(pt));
            (0..2).any(|m| {
                betza::effective(&t, false, m)
                    .is_ok_and(|set| set.iter().any(|c| matches!(c, Canon::Hop(..))))
            })
        });
        if hoppers {
            self.refuse(
                "startFen",
                holes.clone(),
                "walls in the start position that hoppers may use as screens",
                "walls as screens",
            );
        }
        if cfg.enclosing_drop == "reversi" || cfg.flip_enclosed_pieces == "reversi" {
            self.refuse(
                "startFen",
                holes,
                "walls in the start position that Othello's enclosing lines pass over",
                "flipping across holes",
            );
        }
    }

    /// Settings the language has no construct for.
    fn unsupported_keys(&mut self) {
        let c = self.cfg;
        let (f, r) = (self.files, self.ranks);
        if c.chess960 {
            self.refuse(
                "chess960",
                "true",
                "castling from any start with Fairy-Stockfish's Chess960 rules is not imported",
                "Chess960 import",
            );
        }
        if c.two_boards {
            self.refuse(
                "twoBoards",
                "true",
                "pieces in hand from a second board",
                "two boards",
            );
        }
        if c.sittuyin_promotion {
            self.refuse(
                "sittuyinPromotion",
                "true",
                "promotion in place, as Sittuyin's",
                "promotion in place",
            );
        }
        if c.sittuyin_rook_drop {
            self.refuse(
                "sittuyinRookDrop",
                "true",
                "rooks dropped only on the first rank during the setup phase",
                "placement phase",
            );
        }
        if c.duple_check {
            self.refuse(
                "dupleCheck",
                "true",
                "pseudo-royal duple check",
                "duple check",
            );
        }
        if c.cambodian_moves {
            self.refuse(
                "cambodianMoves",
                "true",
                "Cambodian first moves with rights in the FEN",
                "Cambodian first moves",
            );
        }
        if c.makpong_rule {
            self.refuse(
                "makpongRule",
                "true",
                "a king in check that may not move away",
                "Makpong's king",
            );
        }
        if c.gating || c.seirawan_gating {
            self.refuse(
                "gating",
                "true",
                "gating from hand is not imported",
                "gating import",
            );
        }
        let short_side = i64::try_from(self.files.min(self.ranks)).unwrap_or(26);
        if c.connect_nxn != 0 && !(2..=short_side).contains(&c.connect_nxn) {
            self.refuse(
                "connectNxN",
                c.connect_nxn.to_string(),
                "a block larger than the board (or smaller than two by two)",
                "connect-n goals",
            );
        }
        if c.collinear_n != 0
            && !(2..=i64::try_from(self.files.max(self.ranks)).unwrap_or(26))
                .contains(&c.collinear_n)
        {
            self.refuse(
                "collinearN",
                c.collinear_n.to_string(),
                "a line longer than the board (or shorter than two pieces)",
                "connect-n goals",
            );
        }
        if c.connect_n > 0 && c.connect_value == Value::None {
            self.refuse(
                "connectValue",
                "none",
                "a row of pieces that does not end the game",
                "connect-n goals",
            );
        }
        if c.connect_n > 0
            && !(2..=i64::try_from(self.files.max(self.ranks)).unwrap_or(26)).contains(&c.connect_n)
        {
            self.refuse(
                "connectN",
                c.connect_n.to_string(),
                "a row longer than the board (or shorter than two pieces)",
                "connect-n goals",
            );
        }
        if !c.connect_region1[0].on_board(f, r).is_empty()
            || !c.connect_region1[1].on_board(f, r).is_empty()
        {
            self.refuse(
                "connectRegion1White",
                bb_text(c.connect_region1[0], f, r),
                "a win by a chain of pieces joining two regions (Fairy-Stockfish follows the chain only east and north)",
                "connect-n goals",
            );
        }
        if !matches!(
            c.enclosing_drop.as_str(),
            "none" | "reversi" | "ataxx" | "top" | "snort"
        ) {
            self.refuse(
                "enclosingDrop",
                c.enclosing_drop.clone(),
                if c.enclosing_drop == "anyside" {
                    // Its drops from the north and east edges stop at the lowest (leftmost) gap
                    // of the file (rank), which may lie beyond a piece in the way.
                    "drops from any edge as Fairy-Stockfish plays them: from the north and east edges they stop at the file's (rank's) first gap from the south (west), past pieces in the way; the language's `drop from any edge` stops before the first piece"
                } else {
                    "this drop rule"
                },
                "drop rules by neighbourhood",
            );
        }
        if !matches!(
            c.flip_enclosed_pieces.as_str(),
            "none" | "reversi" | "ataxx" | "quadwrangle"
        ) {
            self.refuse(
                "flipEnclosedPieces",
                c.flip_enclosed_pieces.clone(),
                "this flipping rule",
                "flipping rules",
            );
        }
        if c.walling_rule == "edge" {
            self.refuse(
                "wallingRule",
                "edge",
                "walls built only next to the board's edge or other walls",
                "walls at the edge",
            );
        }
        if c.walling_rule == "duck" && c.blast_on_capture {
            self.refuse(
                "wallingRule",
                "duck",
                "a duck that may not land where a capture exploded",
                "walls and explosions",
            );
        }
        if c.wall_or_move {
            self.refuse(
                "wallOrMove",
                "true",
                "a wall built instead of a move",
                "wall instead of a move",
            );
        }
        if c.shatar_mate_rule {
            self.approximate("shatarMateRule: Shatar's rules on which checkmates count are not modelled (results only)");
        }
        if c.counting_rule != "none" {
            self.approximate(format!("countingRule = {}: the counting of moves in endgames is not modelled (results only)", c.counting_rule));
        }
        if c.chasing_rule != "none" {
            self.approximate(format!("chasingRule = {}: the rules against perpetual chasing are not modelled (results only)", c.chasing_rule));
        }
        if c.move_repetition_illegal {
            self.approximate("moveRepetitionIllegal: the rule against moving back and forth is not modelled (results only)");
        }
        if c.extinction_claim {
            self.refuse(
                "extinctionClaim",
                "true",
                "an extinction win that must be claimed on the side's own turn",
                "extinction claims",
            );
        }
        if c.pass[0] != c.pass[1] {
            self.refuse(
                "passWhite",
                format!("{}", c.pass[0]),
                "passing for one side only",
                "passing for one side",
            );
        }
        if c.pass_on_stalemate[0] != c.pass_on_stalemate[1] {
            self.refuse(
                "passOnStalemateWhite",
                format!("{}", c.pass_on_stalemate[0]),
                "passing when stuck for one side only",
                "passing for one side",
            );
        }
        if !c.diagonal_lines.on_board(f, r).is_empty() {
            self.refuse(
                "diagonalLines",
                bb_text(c.diagonal_lines, f, r),
                "Janggi's palace diagonals for the pieces that use them",
                "Janggi palace moves",
            );
        }
        if c.material_counting == "janggi" {
            self.refuse(
                "materialCounting",
                "janggi",
                "Janggi's point count needs Janggi's piece values",
                "Janggi counting",
            );
        }
        if c.petrify_blast_pieces {
            self.refuse(
                "petrifyBlastPieces",
                "true",
                "pieces blown up by an explosion turning to stone",
                "petrified explosions",
            );
        }
    }

    /// The start FEN: board, hand, side to move, castling field, check counts.
    fn read_fen(&mut self) {
        let fen = self.cfg.start_fen.trim().to_string();
        let mut fields = fen.split_whitespace();
        let board = fields.next().unwrap_or("");
        let rest: Vec<&str> = fields.collect();
        // The hand, in brackets or as an extra rank.
        let (placement, hand) = match board.find('[') {
            Some(i) => (
                &board[..i],
                board[i + 1..].trim_end_matches(']').to_string(),
            ),
            None => {
                let rows: Vec<&str> = board.split('/').collect();
                if rows.len() == self.ranks + 1 {
                    let i = board.rfind('/').unwrap_or(board.len());
                    (&board[..i], board[i + 1..].to_string())
                } else {
                    (board, String::new())
                }
            }
        };
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != self.ranks {
            self.refuse(
                "startFen",
                fen.clone(),
                "the start position does not have one row per rank",
                "start position",
            );
            return;
        }
        let mut out_rows: Vec<String> = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let rank = self.ranks - 1 - i;
            let mut file = 0;
            let mut out = String::new();
            let chars: Vec<char> = row.chars().collect();
            let mut k = 0;
            while k < chars.len() {
                let c = chars[k];
                if c.is_ascii_digit() {
                    let mut n = 0usize;
                    while k < chars.len() && chars[k].is_ascii_digit() {
                        n = n * 10 + chars[k].to_digit(10).unwrap_or(0) as usize;
                        k += 1;
                    }
                    file += n;
                    out.push_str(&n.to_string());
                    continue;
                }
                if c == '*' {
                    self.holes = self.holes | Bb::square(file, rank);
                    out.push('*');
                    file += 1;
                } else if c == '+' {
                    out.push('+');
                } else if c == '~' {
                    out.push('~');
                } else if c.is_ascii_alphabetic() {
                    if self.cfg.piece_with_letter(c).is_none() {
                        self.refuse(
                            "startFen",
                            fen.clone(),
                            &format!(
                                "the start position holds `{c}`, which is no piece of the variant"
                            ),
                            "start position",
                        );
                    }
                    out.push(c);
                    file += 1;
                } else {
                    self.refuse(
                        "startFen",
                        fen.clone(),
                        &format!("the start position holds `{c}`"),
                        "start position",
                    );
                }
                k += 1;
            }
            if file != self.files {
                self.refuse(
                    "startFen",
                    fen.clone(),
                    &format!(
                        "rank {} of the start position has {file} squares, not {}",
                        rank + 1,
                        self.files
                    ),
                    "start position",
                );
            }
            out_rows.push(out);
        }
        let hand: String = hand.chars().filter(|c| *c != '-').collect();
        for c in hand.chars() {
            if !c.is_ascii_alphabetic() || self.cfg.piece_with_letter(c).is_none() {
                self.refuse(
                    "startFen",
                    fen.clone(),
                    &format!("the hand holds `{c}`, which is no piece of the variant"),
                    "start position",
                );
            }
        }
        self.setup = out_rows.join("/");
        if !hand.is_empty() {
            self.setup.push('[');
            self.setup.push_str(&hand);
            self.setup.push(']');
        }
        // The other fields, which Fairy-Stockfish reads leniently.
        let mut side = None;
        for f in &rest {
            if side.is_none() && (*f == "w" || *f == "b") {
                side = f.chars().next();
                continue;
            }
            if let Some((a, b)) = f.split_once('+') {
                if let (Ok(a), Ok(b)) = (a.parse::<u32>(), b.parse::<u32>()) {
                    self.check_counts = Some((a, b));
                    continue;
                }
            }
            if side.is_some()
                && self.castling_field == "-"
                && f.chars().all(|c| c.is_ascii_alphabetic())
                && !f.chars().all(|c| c.is_ascii_digit())
            {
                self.castling_field = f.to_string();
            }
        }
        self.start_side = side.unwrap_or('w');
    }

    fn name_pieces(&mut self) {
        let cfg = self.cfg;
        let mut used: BTreeSet<String> = BTreeSet::new();
        for pt in cfg.piece_types() {
            let mut name = title(&piece_key(pt));
            if (CUSTOM_1..KING).contains(&pt) {
                name = format!("Custom{}", pt - CUSTOM_1 + 1);
            }
            used.insert(name.to_lowercase());
            self.names.insert(pt, name);
        }
        // Promoted forms, Shogi style (`+X`), for pieces that promote so.
        for pt in cfg.piece_types() {
            let target = cfg.promoted_piece_type[pt as usize];
            if target != 0 && pt != target {
                let mut name = format!("Promoted{}", self.names[&pt]);
                while used.contains(&name.to_lowercase()) {
                    name.push('2');
                }
                used.insert(name.to_lowercase());
                self.plus_kinds.insert(pt, name);
            }
        }
        // Promoted pawns marked `~`, which return to hand as pawns.
        if cfg.captures_to_hand && !cfg.drop_loop && cfg.piece_drops {
            let pawns = cfg.promotion_pawn_types[0] | cfg.promotion_pawn_types[1];
            if cfg.piece_types().any(|pt| pawns & bit(pt) != 0) {
                for pt in cfg.piece_types() {
                    let choices = cfg.promotion_piece_types[0] | cfg.promotion_piece_types[1];
                    if choices & bit(pt) != 0 {
                        let mut name = format!("Promoted{}", self.names[&pt]);
                        while used.contains(&name.to_lowercase()) {
                            name.push('2');
                        }
                        used.insert(name.to_lowercase());
                        self.tilde_kinds.insert(pt, name);
                    }
                }
            }
        }
    }

    /// The letter of a piece type as a kind's letter.
    fn letter(&self, pt: PieceType) -> char {
        self.cfg.letters[pt as usize].unwrap_or('?')
    }

    /// The moves of a piece type (for its own kind and the kinds that move as it does).
    fn piece_moves(&mut self, pt: PieceType) -> Vec<String> {
        let cfg = self.cfg;
        let mut clauses = Vec::new();
        let key = piece_key(pt);
        if pt == PAWN {
            clauses.push("move step forward, move-only".to_string());
            let ds = [cfg.double_step_region[0], cfg.double_step_region[1]];
            let double = cfg.double_step
                && !(ds[0].on_board(self.files, self.ranks).is_empty()
                    && ds[1].on_board(self.files, self.ranks).is_empty());
            let creates = self.creates_en_passant();
            if double {
                let z = self.zone("double-step-region", ds[0], ds[1]);
                clauses.push(format!(
                    "move in {z}: step forward then step forward, move-only{creates}"
                ));
            }
            let ts = [cfg.triple_step_region[0], cfg.triple_step_region[1]];
            if !(ts[0].on_board(self.files, self.ranks).is_empty()
                && ts[1].on_board(self.files, self.ranks).is_empty())
            {
                let z = self.zone("triple-step-region", ts[0], ts[1]);
                clauses.push(format!(
                    "move in {z}: step forward then step forward then step forward, move-only{creates}"
                ));
            }
            let takes = self.takes_en_passant();
            clauses.push(format!("move step forward-diagonal, capture-only{takes}"));
            return clauses;
        }
        let text = cfg.betza(pt).to_string();
        let tables = betza::read(&text);
        let quiet = betza::effective(&tables, false, 0);
        let capture = betza::effective(&tables, false, 1);
        let initial = betza::effective(&tables, true, 0);
        let (quiet, capture, initial) = match (quiet, capture, initial) {
            (Ok(q), Ok(c), Ok(i)) => (q, c, i),
            (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
                self.refuse(
                    &key,
                    text,
                    &format!("Fairy-Stockfish reads this Betza as {e}"),
                    "irregular hoppers",
                );
                return clauses;
            }
        };
        let ep_types = cfg.en_passant_types;
        if (ep_types[0] & bit(pt) != 0) != (ep_types[1] & bit(pt) != 0) {
            self.refuse(
                "enPassantTypes",
                set_text(cfg, ep_types[0]),
                "en passant for one side's piece only",
                "en passant for one side",
            );
        }
        let takes_ep = ep_types[0] & bit(pt) != 0;
        // Soldiers move only forward until they reach the soldiers' promotion rank.
        if pt == SOLDIER && cfg.soldier_promotion_rank > 0 {
            let zone_w =
                (cfg.soldier_promotion_rank..self.ranks).fold(Bb::EMPTY, |b, r| b | Bb::rank(r));
            let z = self.zone(
                "soldier-promotion-zone",
                zone_w,
                zone_w.mirrored(self.files, self.ranks),
            );
            let forward: BTreeSet<Canon> = quiet
                .iter()
                .filter(|c| matches!(c, Canon::Leap((0, _)) | Canon::Slide((0, _), _)))
                .cloned()
                .collect();
            let others_q: BTreeSet<Canon> = quiet.difference(&forward).cloned().collect();
            let forward_c: BTreeSet<Canon> = capture
                .iter()
                .filter(|c| matches!(c, Canon::Leap((0, _)) | Canon::Slide((0, _), _)))
                .cloned()
                .collect();
            let others_c: BTreeSet<Canon> = capture.difference(&forward_c).cloned().collect();
            clauses.extend(canon_clauses(&forward, &forward_c, "", false));
            clauses.extend(canon_clauses(
                &others_q,
                &others_c,
                &format!("in {z}: "),
                false,
            ));
            return clauses;
        }
        // Betza as written, where the language reads it the same.
        let plain: String = strip_initial(&text);
        let custom = (CUSTOM_1..KING).contains(&pt) || (pt == KING && cfg.custom_king);
        let same = custom
            && !plain.is_empty()
            && dsl_canon(&plain).is_some_and(|(q, c)| q == quiet && c == capture)
            && !(takes_ep && capture.iter().any(|c| !quiet.contains(c)));
        if same {
            clauses.push(format!("move betza \"{plain}\""));
        } else {
            let ep = if takes_ep {
                self.takes_en_passant()
            } else {
                ""
            };
            clauses.extend(canon_clauses_ep(&quiet, &capture, ep));
        }
        if !initial.is_empty() {
            let ds = [cfg.double_step_region[0], cfg.double_step_region[1]];
            let region = if cfg.double_step {
                ds
            } else {
                [Bb::EMPTY, Bb::EMPTY]
            };
            if !(region[0].on_board(self.files, self.ranks).is_empty()
                && region[1].on_board(self.files, self.ranks).is_empty())
            {
                let z = self.zone("double-step-region", region[0], region[1]);
                // Moves only a first move has make en-passant targets of the squares passed.
                let creates = self.creates_en_passant();
                let only_initial: BTreeSet<Canon> = initial
                    .iter()
                    .filter(|c| !quiet.contains(c))
                    .cloned()
                    .collect();
                for line in
                    canon_clauses(&only_initial, &BTreeSet::new(), &format!("in {z}: "), false)
                {
                    clauses.push(format!("{line}{creates}"));
                }
            }
        }
        clauses
    }

    /// `, takes en-passant`, with `without promotion` where an en-passant capture can end in
    /// a promotion zone: Fairy-Stockfish never promotes on one.
    fn takes_en_passant(&self) -> &'static str {
        let cfg = self.cfg;
        let (f, r) = (self.files, self.ranks);
        let into_zone = (0..2).any(|c| {
            let shift = |b: Bb, up: i32| b.shifted_ranks(up, f, r);
            let dir = if c == 0 { 1 } else { -1 };
            let passed = shift(cfg.double_step_region[c], dir)
                | shift(cfg.triple_step_region[c], dir)
                | shift(cfg.triple_step_region[c], 2 * dir);
            cfg.double_step
                && !(passed & cfg.promotion_region[1 - c] & cfg.en_passant_region[1 - c]).is_empty()
        });
        if into_zone {
            ", takes en-passant without promotion"
        } else {
            ", takes en-passant"
        }
    }

    /// `, creates en-passant` where double steps make en-passant targets.
    fn creates_en_passant(&mut self) -> String {
        let cfg = self.cfg;
        let (f, r) = (self.files, self.ranks);
        let region = [
            cfg.en_passant_region[0].on_board(f, r),
            cfg.en_passant_region[1].on_board(f, r),
        ];
        let all = Bb::ALL.on_board(f, r);
        if region[0] == all && region[1] == all {
            ", creates en-passant".into()
        } else if region[0].is_empty() && region[1].is_empty() {
            String::new()
        } else {
            self.refuse(
                "enPassantRegion",
                bb_text(region[0], f, r),
                "en passant on some squares only",
                "en passant regions",
            );
            String::new()
        }
    }

    fn pieces(&mut self) {
        let cfg = self.cfg;
        let (f, r) = (self.files, self.ranks);
        let pseudo_royal = cfg.extinction_pseudo_royal;
        for pt in cfg.piece_types().collect::<Vec<_>>() {
            let name = self.names[&pt].clone();
            let letter = self.letter(pt);
            let mut clauses = self.piece_moves(pt);
            let royal = self.is_royal_type(pt);
            let _ = pseudo_royal;
            // Pieces that may not take their own kind.
            if cfg.mutually_immune_types & bit(pt) != 0 {
                for c in clauses.iter_mut() {
                    if c.starts_with("move ") && !c.contains("move-only") {
                        c.push_str(&format!(", not capturing {name}"));
                    }
                }
            }
            if pt == JANGGI_CANNON_PT {
                for c in clauses.iter_mut() {
                    if c.starts_with("move ") {
                        c.push_str(&format!(", not over {name}, not capturing {name}"));
                    }
                }
            }
            self.region_clauses(pt, &mut clauses);
            self.promotions(pt, &mut clauses);
            self.immobility(pt, &mut clauses);
            self.drop_rules(pt, &mut clauses);
            if cfg.n_move_rule_types[0] & bit(pt) != 0 {
                clauses.push("resets clock".into());
            }
            if cfg.blast_on_capture {
                if cfg.blast_immune_types & bit(pt) != 0 {
                    clauses.push("immune to explosions".into());
                } else if pt == PAWN {
                    clauses.push("immune to nearby explosions".into());
                }
            }
            let value = self.value_of(pt);
            let note =
                ((CUSTOM_1..KING).contains(&pt) || (pt == KING && cfg.custom_king)).then(|| {
                    format!(
                        "Fairy-Stockfish: {} = {}:{}",
                        piece_key(pt),
                        letter.to_ascii_lowercase(),
                        cfg.betza(pt)
                    )
                });
            self.kinds.push(Kind {
                pt,
                name,
                letter: letter.to_string(),
                royal,
                value,
                clauses,
                note,
            });
        }
        // Shogi-style promoted kinds.
        for (pt, kind_name) in self.plus_kinds.clone() {
            let target = cfg.promoted_piece_type[pt as usize];
            let mut clauses = Vec::new();
            match self.names.get(&target) {
                Some(t) => clauses.push(format!("move like {t}")),
                None => clauses.extend(self.piece_moves(target)),
            }
            self.region_clauses(target, &mut clauses);
            let base = self.names[&pt].clone();
            if !cfg.drop_loop {
                clauses.push(format!("demote to {base}"));
            } else if let Some(t) = self.names.get(&target) {
                clauses.push(format!("demote to {t}"));
            }
            if cfg.piece_demotion {
                let z = self.promotion_zone();
                let forced = if cfg.mandatory_piece_promotion {
                    ", forced"
                } else {
                    ""
                };
                let capturing = if cfg.piece_promotion_on_capture {
                    ", when capturing"
                } else {
                    ""
                };
                clauses.push(format!(
                    "promote to {base} in or from {z}{forced}{capturing}"
                ));
            }
            if cfg.n_move_rule_types[0] & bit(target) != 0 {
                clauses.push("resets clock".into());
            }
            let value = self.value_of(target);
            self.kinds.push(Kind {
                pt: target,
                name: kind_name,
                letter: format!("+{}", self.letter(pt)),
                royal: self.is_royal_type(target),
                value,
                clauses,
                note: None,
            });
        }
        // Promoted pawns marked `~`.
        for (pt, kind_name) in self.tilde_kinds.clone() {
            let base_name = self.names[&pt].clone();
            let pawn = cfg.main_promotion_pawn_type[0];
            let mut clauses = vec![format!("move like {base_name}")];
            self.region_clauses(pt, &mut clauses);
            if let Some(p) = self.names.get(&pawn) {
                clauses.push(format!("demote to {p}"));
            }
            if pt == KING {
                self.refuse(
                    "promotionPieceTypes",
                    set_text(cfg, cfg.promotion_piece_types[0]),
                    "a pawn promoting to a royal king",
                    "promotion to royals",
                );
            }
            let value = self.value_of(pt);
            self.kinds.push(Kind {
                pt,
                name: kind_name,
                letter: format!("{}~", self.letter(pt)),
                royal: false,
                value,
                clauses,
                note: None,
            });
        }
        let _ = (f, r);
    }

    /// Whether pieces of this type are royal: the king, and under `extinctionPseudoRoyal` the
    /// extinction types.
    fn is_royal_type(&self, pt: PieceType) -> bool {
        pt == KING || (self.cfg.extinction_pseudo_royal && self.extinction_types().contains(&pt))
    }

    /// The most pieces of a type a side may ever hold: the start position's, and every piece
    /// that may turn into one.
    fn max_count(&self, pt: PieceType) -> u32 {
        let cfg = self.cfg;
        let start = self.count_in_setup(pt);
        let hand = self.count_in_hand(pt);
        let mut most = (start[0] + hand[0]).max(start[1] + hand[1]);
        for other in cfg.piece_types() {
            if other == pt {
                continue;
            }
            let counts = self.count_in_setup(other);
            let n = counts[0].max(counts[1])
                + self.count_in_hand(other)[0].max(self.count_in_hand(other)[1]);
            let pawn =
                (cfg.promotion_pawn_types[0] | cfg.promotion_pawn_types[1]) & bit(other) != 0;
            let to_pt = pawn
                && (cfg.promotion_piece_types[0] | cfg.promotion_piece_types[1]) & bit(pt) != 0
                || cfg.promoted_piece_type[other as usize] == pt;
            if to_pt {
                most += n;
            }
        }
        most
    }

    /// Pieces of a type in each side's hand at the start.
    fn count_in_hand(&self, pt: PieceType) -> [u32; 2] {
        let letter = self.letter(pt);
        let hand = self.setup.split('[').nth(1).unwrap_or("");
        let mut counts = [0, 0];
        for c in hand.chars() {
            if c.to_ascii_uppercase() == letter {
                counts[usize::from(c.is_ascii_lowercase())] += 1;
            }
        }
        counts
    }

    /// Under `extinctionPseudoRoyal` the last pieces of each extinction type may not be left
    /// attacked: every royal is guarded when a side can never hold more of a type than the
    /// rule guards; with one type guarded only when it is the last, `checkmate, last royal`.
    fn pseudo_royal_guard(&mut self, rules: &mut [String]) {
        let cfg = self.cfg;
        let limit = (cfg.extinction_piece_count + 1).max(1) as u32;
        let types = self.extinction_types();
        if types.iter().all(|&pt| self.max_count(pt) <= limit) {
            return;
        }
        // With one type per side guarded only when it is the last of its kind, the language's
        // `last royal` (a side's royals guarded only when one is left) is the same rule.
        if cfg.extinction_piece_count == 0 {
            let per_side_single = (0..2).all(|side| {
                let mut held: Vec<PieceType> = types
                    .iter()
                    .copied()
                    .filter(|&pt| {
                        self.count_in_setup(pt)[side] + self.count_in_hand(pt)[side] > 0
                            || self.max_count(pt)
                                > self.count_in_setup(pt).iter().copied().max().unwrap_or(0)
                    })
                    .collect();
                if cfg.letters[KING as usize].is_some()
                    && !types.contains(&KING)
                    && self.count_in_setup(KING)[side] > 0
                {
                    held.push(KING);
                }
                held.len() <= 1
            });
            // A piece that turns into one of them by promotion Shogi style is not counted
            // until after the move's check in Fairy-Stockfish, unlike the language's count.
            let promoted_into = cfg.piece_types().any(|p| {
                p != cfg.promoted_piece_type[p as usize]
                    && types.contains(&cfg.promoted_piece_type[p as usize])
            });
            if per_side_single && !promoted_into {
                if let Some(first) = rules.first_mut() {
                    first.push_str(", last royal");
                }
                return;
            }
        }
        self.refuse(
            "extinctionPseudoRoyal",
            "true",
            "pseudo-royal pieces of a kind a side may hold more of than the rule guards",
            "pseudo-royal counts",
        );
    }

    /// The squares where a piece type of a side has no move on an empty board: without a
    /// quiet move (Fairy-Stockfish's test for `immobilityIllegal`), and without any move (the
    /// language's test for forcing promotion and refusing drops).
    fn dead_squares(&self, pt: PieceType) -> ([Bb; 2], [Bb; 2]) {
        let cfg = self.cfg;
        let (files, ranks) = (self.files as i32, self.ranks as i32);
        let sets: [BTreeSet<Canon>; 3] = if pt == PAWN {
            [
                [Canon::Leap((0, 1))].into_iter().collect(),
                [Canon::Leap((-1, 1)), Canon::Leap((1, 1))]
                    .into_iter()
                    .collect(),
                [Canon::Lame(vec![(0, 1)], (0, 2))].into_iter().collect(),
            ]
        } else {
            let t = betza::read(cfg.betza(pt));
            [
                betza::effective(&t, false, 0).unwrap_or_default(),
                betza::effective(&t, false, 1).unwrap_or_default(),
                betza::effective(&t, true, 0).unwrap_or_default(),
            ]
        };
        let lands = |c: &Canon, f: i32, r: i32, sign: i32| -> bool {
            let on = |v: Vector| {
                let (x, y) = (f + sign * i32::from(v.0), r + sign * i32::from(v.1));
                x >= 0 && y >= 0 && x < files && y < ranks
            };
            match c {
                Canon::Leap(v) | Canon::Slide(v, _) => on(*v),
                Canon::Lame(p, t) => p.iter().all(|v| on(*v)) && on(*t),
                Canon::Hop(v, _, _) => on(*v) && on((v.0 * 2, v.1 * 2)),
            }
        };
        let mut quiet_dead = [Bb::EMPTY, Bb::EMPTY];
        let mut all_dead = [Bb::EMPTY, Bb::EMPTY];
        for side in 0..2 {
            let sign = if side == 0 { 1 } else { -1 };
            let region = if cfg.double_step {
                cfg.double_step_region[side]
            } else {
                Bb::EMPTY
            };
            for r in 0..ranks {
                for f in 0..files {
                    let initial = region.has(f as usize, r as usize);
                    let quiet = sets[0].iter().any(|c| lands(c, f, r, sign));
                    let any = quiet
                        || sets[1].iter().any(|c| lands(c, f, r, sign))
                        || initial && sets[2].iter().any(|c| lands(c, f, r, sign));
                    let sq = Bb::square(f as usize, r as usize);
                    if !quiet {
                        quiet_dead[side] = quiet_dead[side] | sq;
                    }
                    if !any {
                        all_dead[side] = all_dead[side] | sq;
                    }
                }
            }
        }
        (quiet_dead, all_dead)
    }

    /// Where pieces may be left without moves: Fairy-Stockfish allows it unless
    /// `immobilityIllegal`, which forbids ending a plain move or a drop on a square without a
    /// quiet move; the language forces promotion where a promoting piece would have no move
    /// at all, and otherwise lets pieces stand anywhere.
    fn immobility(&mut self, pt: PieceType, clauses: &mut Vec<String>) {
        let cfg = self.cfg;
        let (quiet_dead, all_dead) = self.dead_squares(pt);
        let zone = [cfg.promotion_region[0], cfg.promotion_region[1]];
        let pawn_promotes = (0..2).any(|c| {
            cfg.promotion_pawn_types[c] & bit(pt) != 0
                && (cfg.promotion_piece_types[c] != 0 || cfg.promoted_piece_type[pt as usize] != 0)
        });
        let shogi_promotes = cfg.promoted_piece_type[pt as usize] != 0 && pt != PAWN;
        let promotes = pawn_promotes || shogi_promotes;
        let optional = (pawn_promotes && !cfg.mandatory_pawn_promotion)
            || (shogi_promotes && !cfg.mandatory_piece_promotion);
        let (files, ranks) = (self.files, self.ranks);
        let on_board = |b: Bb| b.on_board(files, ranks);
        let key = piece_key(pt);
        if !cfg.immobility_illegal {
            if promotes && optional && (0..2).any(|c| !on_board(all_dead[c] & zone[c]).is_empty()) {
                // The piece may stay unpromoted where it has no move left.
                for line in clauses.iter_mut() {
                    if line.starts_with("promote to ") && !line.contains(", forced") {
                        let at = line.find(", ").unwrap_or(line.len());
                        line.insert_str(at, ", never forced");
                    }
                }
            }
            return;
        }
        if promotes
            && (0..2).any(|c| on_board((quiet_dead[c] ^ all_dead[c]) & zone[c]) != Bb::EMPTY)
        {
            self.refuse(
                "immobilityIllegal",
                "true",
                &format!("`{key}` has captures but no quiet moves on some promotion squares"),
                "optional promotion onto dead squares",
            );
        }
        // Plain moves may not end where the piece has no quiet move.
        let banned = [
            on_board(if promotes {
                quiet_dead[0] & !zone[0]
            } else {
                quiet_dead[0]
            }),
            on_board(if promotes {
                quiet_dead[1] & !zone[1]
            } else {
                quiet_dead[1]
            }),
        ];
        if !(banned[0].is_empty() && banned[1].is_empty()) {
            let name = self
                .names
                .get(&pt)
                .map_or_else(|| "piece".to_string(), |n| n.to_lowercase());
            let z = self.zone(&format!("{name}-dead-squares"), banned[0], banned[1]);
            clauses.push(format!("not into {z}"));
        }
        if cfg.piece_drops && (0..2).any(|c| on_board(quiet_dead[c] & !all_dead[c]) != Bb::EMPTY) {
            let name = self
                .names
                .get(&pt)
                .map_or_else(|| "piece".to_string(), |n| n.to_lowercase());
            let z = self.zone(
                &format!("{name}-no-drop"),
                on_board(quiet_dead[0]),
                on_board(quiet_dead[1]),
            );
            clauses.push(format!("drop not into {z}"));
        }
    }

    /// `stay in` (and `drop in`) for a type's mobility region; a side without a region stands
    /// anywhere.
    fn region_clauses(&mut self, pt: PieceType, clauses: &mut Vec<String>) {
        let cfg = self.cfg;
        let regions = [
            cfg.mobility_region[0][pt as usize],
            cfg.mobility_region[1][pt as usize],
        ];
        if regions[0].is_some() || regions[1].is_some() {
            let w = regions[0].unwrap_or(Bb::ALL);
            let b = regions[1].unwrap_or(Bb::ALL);
            let name = self
                .names
                .get(&pt)
                .map_or_else(|| title(&piece_key(pt)), Clone::clone);
            let z = self.zone(&format!("{}-region", name.to_lowercase()), w, b);
            clauses.push(format!("into {z}"));
            if cfg.piece_drops {
                clauses.push(format!("drop into {z}"));
            }
        }
    }

    fn value_of(&self, pt: PieceType) -> f32 {
        if let Some(&(_, v)) = self.cfg.piece_values.iter().find(|(p, _)| *p == pt) {
            return v as f32 / 126.0;
        }
        if pt == KING {
            return 0.0;
        }
        if let Some(d) = PREDEFINED.iter().find(|d| d.0 == pt) {
            return d.3;
        }
        // A custom piece: by how many squares it reaches from the middle of an empty board.
        let t = betza::read(self.cfg.betza(pt));
        let mut reach = 0.0f32;
        for m in 0..2 {
            if let Ok(set) = betza::effective(&t, false, m) {
                for c in set {
                    reach += match c {
                        Canon::Leap(_) | Canon::Lame(..) => 1.0,
                        Canon::Slide(_, max) => f32::from(max.unwrap_or(4).min(4)),
                        Canon::Hop(..) => 1.5,
                    };
                }
            }
        }
        (reach * 0.2).max(0.5)
    }

    /// The types whose loss the extinction rule counts.
    fn extinction_types(&self) -> Vec<PieceType> {
        let set = self.cfg.extinction_piece_types;
        if set & 1 != 0 {
            return self.cfg.piece_types().collect();
        }
        self.cfg
            .piece_types()
            .filter(|&pt| set & bit(pt) != 0)
            .collect()
    }

    fn promotion_zone(&mut self) -> String {
        let c = self.cfg;
        self.zone(
            "promotion-zone",
            c.promotion_region[0],
            c.promotion_region[1],
        )
    }

    /// Promotion clauses of a piece type.
    fn promotions(&mut self, pt: PieceType, clauses: &mut Vec<String>) {
        let cfg = self.cfg;
        let pawn_style = [
            cfg.promotion_pawn_types[0] & bit(pt) != 0,
            cfg.promotion_pawn_types[1] & bit(pt) != 0,
        ];
        let target = cfg.promoted_piece_type[pt as usize];
        let plus = self.plus_kinds.get(&pt).cloned();
        if pawn_style[0] || pawn_style[1] {
            // Pawn-style promotion on moves that end in the zone: to the side's choices, and
            // for the pawn also to its promoted form (Shogi style).
            let plus_for_pawn = if pt == PAWN { plus.clone() } else { None };
            let choices: Vec<Option<PieceSet>> = (0..2)
                .map(|c| pawn_style[c].then_some(cfg.promotion_piece_types[c]))
                .collect();
            let clause = |w: &mut Self, set: PieceSet, z: &str| -> Vec<String> {
                let lines = w.pawn_promotion_clauses(set, pt, plus_for_pawn.as_deref(), z);
                if !lines.is_empty() {
                    lines
                } else if cfg.mandatory_pawn_promotion {
                    // No choice at all: the piece may not enter the zone. Fairy-Stockfish
                    // still counts its captures there as attacks, which a royal must heed.
                    if cfg.letters[KING as usize].is_some() || cfg.extinction_pseudo_royal {
                        w.refuse(
                            "promotionPieceTypes",
                            "-",
                            "pawns that may not enter the promotion zone yet attack it (a king may not go there)",
                            "attacks a piece may not make",
                        );
                    }
                    vec![format!("not into {z}")]
                } else {
                    Vec::new()
                }
            };
            if choices[0] == choices[1] {
                let z = self.promotion_zone();
                let lines = clause(self, choices[0].unwrap_or(0), &z);
                clauses.extend(lines);
            } else {
                // Each side its own clause, in a zone only that side has.
                for c in 0..2 {
                    let Some(set) = choices[c] else { continue };
                    let mut region = [Bb::EMPTY, Bb::EMPTY];
                    region[c] = cfg.promotion_region[c];
                    let z = self.zone(
                        &format!("{}-promotion-zone", ["white", "black"][c]),
                        region[0],
                        region[1],
                    );
                    let lines = clause(self, set, &z);
                    clauses.extend(lines);
                }
            }
            if pt == PAWN {
                if cfg.piece_promotion_on_capture && plus.is_some() {
                    self.refuse(
                        "piecePromotionOnCapture",
                        "true",
                        "pawns that promote only when capturing",
                        "pawn promotion on capture",
                    );
                }
                return;
            }
        }
        if let Some(p) = plus {
            if target != 0 {
                let limit = cfg.promotion_limit[target as usize];
                // Fairy-Stockfish counts every piece of the promoted type; the language counts
                // the `+` kind, which is the same where no plain piece of the type can appear.
                if limit != 0 && self.plain_type_appears(target) {
                    self.refuse(
                        "promotionLimit",
                        format!("{}:{limit}", self.letter(target).to_ascii_lowercase()),
                        "a limit on promotions Shogi style to a type also played unpromoted",
                        "promotion limits",
                    );
                }
                let at_most = if limit == 0 {
                    String::new()
                } else {
                    format!(", at most {limit}")
                };
                let z = self.promotion_zone();
                let forced = if cfg.mandatory_piece_promotion {
                    ", forced"
                } else {
                    ""
                };
                let capturing = if cfg.piece_promotion_on_capture {
                    ", when capturing"
                } else {
                    ""
                };
                clauses.push(format!(
                    "promote to {p} in or from {z}{forced}{capturing}{at_most}"
                ));
                if pawn_style[0] || pawn_style[1] {
                    self.refuse(
                        "promotedPieceType",
                        "",
                        "a piece promoting both as a pawn and Shogi style",
                        "two kinds of promotion",
                    );
                }
            }
        }
    }

    /// The pawn-style promotion clauses to `choices` (with the pawn's `+` form, written
    /// `plus`): one clause per distinct `promotionLimit`, the choices most valuable first as
    /// Fairy-Stockfish lists them, in their `~` forms where promoted pawns go back to hand as
    /// pawns. None when there is no choice.
    fn pawn_promotion_clauses(
        &mut self,
        choices: PieceSet,
        pawn: PieceType,
        plus: Option<&str>,
        zone: &str,
    ) -> Vec<String> {
        let cfg = self.cfg;
        let forced = if cfg.mandatory_pawn_promotion {
            ", forced"
        } else {
            ""
        };
        let mut groups: Vec<(u32, Vec<String>)> = Vec::new();
        let mut add = |limit: u32, name: String| match groups.iter_mut().find(|g| g.0 == limit) {
            Some(g) => g.1.push(name),
            None => groups.push((limit, vec![name])),
        };
        for pt in cfg.piece_types().collect::<Vec<_>>().into_iter().rev() {
            if choices & bit(pt) == 0 || pt == pawn {
                continue;
            }
            let name = self
                .tilde_kinds
                .get(&pt)
                .or_else(|| self.names.get(&pt))
                .cloned();
            if let Some(n) = name {
                add(cfg.promotion_limit[pt as usize], n);
            }
        }
        if let Some(p) = plus {
            let target = cfg.promoted_piece_type[pawn as usize];
            add(cfg.promotion_limit[target as usize], p.to_string());
        }
        groups
            .into_iter()
            .map(|(limit, names)| {
                let names = names.join(" ");
                let at_most = if limit == 0 {
                    String::new()
                } else {
                    format!(", at most {limit}")
                };
                format!("promote to {names} in {zone}{forced}{at_most}")
            })
            .collect()
    }

    /// Whether pieces of a type can stand on the board unpromoted: in the start position, in
    /// hand, or as a pawn's promotion choice.
    fn plain_type_appears(&self, pt: PieceType) -> bool {
        let cfg = self.cfg;
        let letter = self.letter(pt);
        let start = self.setup.chars().collect::<Vec<_>>();
        let in_start = start
            .iter()
            .enumerate()
            .any(|(i, c)| c.to_ascii_uppercase() == letter && !(i > 0 && start[i - 1] == '+'));
        in_start || (cfg.promotion_piece_types[0] | cfg.promotion_piece_types[1]) & bit(pt) != 0
    }

    /// How many pieces of a type each side has at the start.
    fn count_in_setup(&self, pt: PieceType) -> [u32; 2] {
        let letter = self.letter(pt);
        let board = self.setup.split('[').next().unwrap_or("");
        let mut counts = [0, 0];
        let chars: Vec<char> = board.chars().collect();
        for (i, &c) in chars.iter().enumerate() {
            if c.to_ascii_uppercase() == letter && !(i > 0 && chars[i - 1] == '+') {
                counts[usize::from(c.is_ascii_lowercase())] += 1;
            }
        }
        counts
    }

    /// Drop clauses of a piece type.
    fn drop_rules(&mut self, pt: PieceType, clauses: &mut Vec<String>) {
        let cfg = self.cfg;
        // A royal piece is never captured, so never in hand (unless the start puts it there).
        let in_start_hand = self.count_in_hand(pt) != [0, 0];
        if !cfg.piece_drops || (self.is_royal_type(pt) && !in_start_hand) {
            return;
        }
        let (f, r) = (self.files, self.ranks);
        let all = Bb::ALL.on_board(f, r);
        let region = [
            cfg.drop_region[0].on_board(f, r),
            cfg.drop_region[1].on_board(f, r),
        ];
        if region != [all, all] {
            let z = self.zone("drop-region", region[0], region[1]);
            clauses.push(format!("drop into {z}"));
        }
        if pt == PAWN {
            if !cfg.promotion_zone_pawn_drops {
                let z = self.promotion_zone();
                clauses.push(format!("drop not into {z}"));
            }
            if !cfg.first_rank_pawn_drops {
                let z = self.zone("first-rank", Bb::rank(0), Bb::rank(self.ranks - 1));
                clauses.push(format!("drop not into {z}"));
            }
        }
        if cfg.drop_no_doubled == pt && pt != 0 {
            match cfg.drop_no_doubled_count {
                n if n <= 0 => {
                    let z = self.zone_both("nowhere", Bb::EMPTY);
                    clauses.push(format!("drop into {z}"));
                }
                n => clauses.push(format!("drop max {} per file", n.min(26))),
            }
        }
        // Fairy-Stockfish sees a check only against its king piece, never a pseudo-royal one.
        if !cfg.drop_checks && cfg.letters[KING as usize].is_some() {
            clauses.push("drop may not check".into());
        }
        if cfg.shogi_pawn_drop_mate_illegal && pt == SHOGI_PAWN {
            clauses.push("drop may not mate".into());
        }
        if !cfg.immobility_illegal {
            clauses.push("drop even where stuck".into());
        }
        if cfg.drop_promoted {
            if let Some(p) = self.plus_kinds.get(&pt) {
                clauses.push(format!("drop also as {p}"));
            }
        }
        if cfg.must_drop && cfg.must_drop_type == pt {
            clauses.push("drop compulsory".into());
        }
        match cfg.enclosing_drop.as_str() {
            "reversi" => clauses.push("drop only where it flips".into()),
            "ataxx" => clauses.push("drop only next to own pieces".into()),
            "top" => clauses.push("drop on top".into()),
            "snort" => clauses.push("drop not orthogonally next to enemy pieces".into()),
            _ => {}
        }
        if !cfg.enclosing_drop_start.on_board(f, r).is_empty() && cfg.enclosing_drop != "none" {
            let z = self.zone_both("centre", cfg.enclosing_drop_start);
            clauses.push(format!("drop first in {z}"));
        }
        if cfg.free_drops {
            clauses.push("drop unlimited".into());
        }
        if cfg.drop_opposite_colored_bishop && pt == BISHOP {
            clauses.push("drop on both colours".into());
        }
        if cfg.castling_dropped_piece
            && (cfg.castling_king_piece.contains(&pt)
                || cfg
                    .castling_rook_pieces
                    .iter()
                    .any(|&set| set & bit(pt) != 0))
        {
            clauses.push("drop counts as unmoved".into());
        }
    }

    fn castling(&mut self) {
        let cfg = self.cfg;
        if cfg.castling && cfg.castling_dropped_piece && cfg.piece_drops {
            self.castling_of_dropped_pieces();
            return;
        }
        if !cfg.castling || self.castling_field == "-" || self.castling_field.is_empty() {
            return;
        }
        let field = self.castling_field.clone();
        // The start position's pieces, square by square.
        let board = self.setup_board();
        let mut per_side: [Vec<(String, bool)>; 2] = [Vec::new(), Vec::new()];
        let mut found: Vec<char> = Vec::new();
        for token in field.chars() {
            let c = usize::from(token.is_ascii_lowercase());
            let rank = if c == 0 {
                cfg.castling_rank
            } else {
                self.ranks - 1 - cfg.castling_rank
            };
            let king_pt = cfg.castling_king_piece[c];
            // The king: the castling king piece on the castling rank (on its file if several).
            let kings: Vec<usize> = (0..self.files)
                .filter(|&f| {
                    board
                        .get(&(f, rank))
                        .is_some_and(|&(side, p, plus)| side == c && p == king_pt && !plus)
                })
                .collect();
            let king_file = match kings.as_slice() {
                [] => continue,
                [one] => *one,
                _ if kings.contains(&cfg.castling_king_file) => cfg.castling_king_file,
                _ => continue,
            };
            let is_rook = |f: usize| {
                board.get(&(f, rank)).is_some_and(|&(side, p, plus)| {
                    side == c && !plus && cfg.castling_rook_pieces[c] & bit(p) != 0
                })
            };
            let up = token.to_ascii_uppercase();
            let rook_file = match up {
                'K' => (king_file + 1..self.files).rev().find(|&f| is_rook(f)),
                'Q' => (0..king_file).find(|&f| is_rook(f)),
                f @ 'A'..='L' => {
                    let f = f as usize - 'A' as usize;
                    is_rook(f).then_some(f)
                }
                _ => None,
            };
            let Some(rook_file) = rook_file else { continue };
            let kingside = rook_file > king_file;
            let king_to = if kingside {
                cfg.castling_kingside_file
            } else {
                cfg.castling_queenside_file
            };
            let rook_to = if kingside { king_to - 1 } else { king_to + 1 };
            let rook_pt = board[&(rook_file, rank)].1;
            let (kn, rn) = (self.names[&king_pt].clone(), self.names[&rook_pt].clone());
            let right = match (c, kingside) {
                (0, true) => 'K',
                (0, false) => 'Q',
                (_, true) => 'k',
                (_, false) => 'q',
            };
            per_side[c].push((
                format!(
                    "castling {kn} {} to {} with {rn} {} to {}",
                    square_name(king_file, rank),
                    square_name(king_to, rank),
                    square_name(rook_file, rank),
                    square_name(rook_to, rank)
                ),
                cfg.castling_wins.contains(right),
            ));
            found.push(right);
        }
        // A winning castling the start position does not have loses at once.
        for right in cfg.castling_wins.chars() {
            if !found.contains(&right) {
                self.refuse(
                    "castlingWins",
                    cfg.castling_wins.clone(),
                    "a winning castling the start position does not have",
                    "castling goals",
                );
            }
        }
        self.push_castlings(&per_side);
    }

    /// Under `castlingDroppedPiece`: the castlings of a king dropped on its file of the
    /// castling rank with a rook dropped in a corner, which the pieces' `drop counts as
    /// unmoved` clauses make available.
    fn castling_of_dropped_pieces(&mut self) {
        let cfg = self.cfg;
        let mut per_side: [Vec<String>; 2] = [Vec::new(), Vec::new()];
        for (c, lines) in per_side.iter_mut().enumerate() {
            let rank = if c == 0 {
                cfg.castling_rank
            } else {
                self.ranks - 1 - cfg.castling_rank
            };
            let king_file = cfg.castling_king_file;
            let (Some(kn), Some(rook_pt)) = (
                self.names.get(&cfg.castling_king_piece[c]).cloned(),
                cfg.piece_types()
                    .find(|&pt| cfg.castling_rook_pieces[c] & bit(pt) != 0),
            ) else {
                continue;
            };
            let rn = self.names[&rook_pt].clone();
            for rook_file in [self.files - 1, 0] {
                let kingside = rook_file > king_file;
                let king_to = if kingside {
                    cfg.castling_kingside_file
                } else {
                    cfg.castling_queenside_file
                };
                let rook_to = if kingside { king_to - 1 } else { king_to + 1 };
                lines.push(format!(
                    "castling {kn} {} to {} with {rn} {} to {}",
                    square_name(king_file, rank),
                    square_name(king_to, rank),
                    square_name(rook_file, rank),
                    square_name(rook_to, rank)
                ));
            }
        }
        let per_side =
            per_side.map(|lines| lines.into_iter().map(|l| (l, false)).collect::<Vec<_>>());
        self.push_castlings(&per_side);
    }

    /// Castling declarations of both sides, Black's written as White's mirrored where they are.
    fn push_castlings(&mut self, per_side: &[Vec<(String, bool)>; 2]) {
        let mirror = |line: &str| -> String {
            let mut out = String::new();
            for word in line.split(' ') {
                let b = word.as_bytes();
                if b.len() >= 2
                    && b[0].is_ascii_lowercase()
                    && word[1..].chars().all(|c| c.is_ascii_digit())
                {
                    let r: usize = word[1..].parse().unwrap_or(1);
                    out.push_str(&format!("{}{}", b[0] as char, self.ranks + 1 - r));
                } else {
                    out.push_str(word);
                }
                out.push(' ');
            }
            out.trim_end().to_string()
        };
        let wins = |w: bool| if w { ", wins" } else { "" };
        let mirrored_white: Vec<(String, bool)> =
            per_side[0].iter().map(|(l, w)| (mirror(l), *w)).collect();
        for (l, w) in &per_side[0] {
            if per_side[1].contains(&(mirror(l), *w)) {
                self.castlings.push(format!("{l}, mirrored{}", wins(*w)));
            } else {
                self.castlings.push(format!("{l}, for white{}", wins(*w)));
            }
        }
        for (l, w) in &per_side[1] {
            if !mirrored_white.contains(&(l.clone(), *w)) {
                self.castlings.push(format!("{l}, for black{}", wins(*w)));
            }
        }
    }

    /// The start position's pieces: square to (side, piece type, promoted).
    fn setup_board(&self) -> BTreeMap<(usize, usize), (usize, PieceType, bool)> {
        let mut out = BTreeMap::new();
        let board = self.setup.split('[').next().unwrap_or("");
        for (i, row) in board.split('/').enumerate() {
            let rank = self.ranks - 1 - i;
            let mut file = 0;
            let mut plus = false;
            let chars: Vec<char> = row.chars().collect();
            let mut k = 0;
            while k < chars.len() {
                let c = chars[k];
                if c.is_ascii_digit() {
                    let mut n = 0;
                    while k < chars.len() && chars[k].is_ascii_digit() {
                        n = n * 10 + chars[k].to_digit(10).unwrap_or(0) as usize;
                        k += 1;
                    }
                    file += n;
                    continue;
                }
                match c {
                    '+' => plus = true,
                    '*' => file += 1,
                    '~' => {}
                    c => {
                        if let Some(pt) = self.cfg.piece_with_letter(c) {
                            out.insert(
                                (file, rank),
                                (usize::from(c.is_ascii_lowercase()), pt, plus),
                            );
                        }
                        plus = false;
                        file += 1;
                    }
                }
                k += 1;
            }
        }
        out
    }

    fn rules(&mut self) {
        let cfg = self.cfg;
        let (f, r) = (self.files, self.ranks);
        let has_royal = self.kinds.iter().any(|k| k.royal);
        let pseudo = cfg.extinction_pseudo_royal;
        let mut rules: Vec<String> = Vec::new();
        if self.start_side == 'b' {
            rules.push("black moves first".into());
        }
        if cfg.opposite_castling && cfg.castling {
            rules.push("opposite castling".into());
        }
        if has_royal {
            rules.push(match cfg.checkmate_value {
                Value::Loss => "checkmate".into(),
                Value::Win => "checkmate wins".into(),
                Value::Draw => "checkmate draws".into(),
                Value::None => {
                    self.refuse(
                        "checkmateValue",
                        "none",
                        "a checkmate that does not end the game",
                        "checkmate without result",
                    );
                    "checkmate".into()
                }
            });
            if pseudo && !cfg.blast_on_capture {
                self.pseudo_royal_guard(&mut rules);
            }
        }
        // Extinction.
        if cfg.extinction_value != Value::None && (!pseudo || cfg.blast_on_capture) {
            let verdict = match cfg.extinction_value {
                Value::Win => "wins",
                Value::Loss => "loses",
                _ => "draws",
            };
            let kinds_of = |w: &Writer, pt: PieceType| w.kinds_of_type(pt);
            let hands = cfg.piece_drops && (cfg.captures_to_hand || self.setup.contains('['));
            // Fairy-Stockfish counts the pieces in hand too.
            let where_ = if hands { " on board or in hand" } else { "" };
            let groups: Vec<Vec<String>> = if cfg.extinction_piece_types & 1 != 0 {
                vec![self.kinds_all_names()]
            } else {
                self.extinction_types()
                    .iter()
                    .map(|&pt| kinds_of(self, pt))
                    .collect()
            };
            let n = cfg.extinction_piece_count.max(0);
            let opp = cfg.extinction_opponent_piece_count.max(0);
            for g in groups {
                let list = g.join(" ");
                let count = if n == 0 {
                    "0".to_string()
                } else {
                    format!("at most {n}")
                };
                let mut line = format!("when {count} {list}{where_}");
                if opp > 0 {
                    line.push_str(&format!(" and at least {opp} enemy {list}{where_}"));
                }
                line.push_str(&format!(" {verdict}"));
                rules.push(line);
            }
        }
        if cfg.blast_on_capture {
            rules.push("captures explode".into());
        }
        if cfg.petrify_on_capture_types != 0 {
            let names: Vec<String> = cfg
                .piece_types()
                .filter(|&pt| cfg.petrify_on_capture_types & bit(pt) != 0)
                .map(|pt| self.names[&pt].clone())
                .collect();
            rules.push(format!("captures petrify {}", names.join(" ")));
        }
        if cfg.check_counting {
            match self.check_counts {
                Some((a, b)) if a == b && (1..=99).contains(&a) => {
                    rules.push(format!("checks {a} wins"))
                }
                _ => self.refuse(
                    "checkCounting",
                    "true",
                    "checks counted without equal counts for both sides in the start position",
                    "check counts",
                ),
            }
        }
        if !cfg.checking && cfg.letters[KING as usize].is_some() {
            rules.push("checks forbidden".into());
        }
        if cfg.must_capture {
            rules.push("must capture".into());
        }
        if cfg.piece_drops {
            rules.push(if cfg.captures_to_hand {
                "drops".into()
            } else {
                "drops without captures".into()
            });
            if cfg.shogi_pawn_drop_mate_illegal && cfg.letters[SHOGI_PAWN as usize].is_some() {
                rules.push("mating drops lose".into());
            }
        } else if cfg.captures_to_hand {
            self.refuse(
                "capturesToHand",
                "true",
                "captured pieces going to a hand they are never dropped from",
                "hands without drops",
            );
        }
        // Goals.
        self.flag_rules(&mut rules);
        if cfg.flying_general {
            rules.push("facing files".into());
        }
        if cfg.bikjang_rule {
            rules.push("facing files draws".into());
        }
        match cfg.walling_rule.as_str() {
            "arrow" | "duck" | "static" => {
                let (w, b) = (
                    cfg.walling_region[0].on_board(f, r),
                    cfg.walling_region[1].on_board(f, r),
                );
                let all = Bb::ALL.on_board(f, r);
                let verb = if cfg.walling_rule == "duck" {
                    "moves the wall"
                } else {
                    "places a wall"
                };
                let mut line = format!("each move {verb}");
                if (w, b) != (all, all) {
                    let z = self.zone("walling-region", w, b);
                    line.push_str(&format!(" in {z}"));
                }
                if cfg.walling_rule == "arrow" {
                    line.push_str(" within reach");
                }
                rules.push(line);
            }
            "past" => rules.push("moves leave walls".into()),
            _ => {}
        }
        match cfg.flip_enclosed_pieces.as_str() {
            "reversi" => rules.push("moves flip enclosed enemies".into()),
            "ataxx" => rules.push("moves flip adjacent enemies".into()),
            // Quadwrangle: a move always flips, a drop only beside a friendly piece.
            "quadwrangle" => {
                rules.push("moves flip adjacent enemies, drops only next to own pieces".into());
            }
            _ => {}
        }
        if cfg.must_drop && cfg.must_drop_type == 0 && cfg.piece_drops {
            rules.push("must drop".into());
        }
        if cfg.connect_value != Value::None {
            let mut kinds = String::new();
            let all_types = cfg
                .piece_types()
                .all(|pt| cfg.connect_piece_types & bit(pt) != 0);
            if !all_types {
                for pt in cfg.piece_types() {
                    if cfg.connect_piece_types & bit(pt) != 0 {
                        for k in self.kinds_of_type(pt) {
                            kinds.push(' ');
                            kinds.push_str(&k);
                        }
                    }
                }
            }
            let lines = [
                (cfg.connect_vertical, "files"),
                (cfg.connect_horizontal, "ranks"),
                (cfg.connect_diagonal, "diagonals"),
            ];
            let mut along = String::new();
            if lines.iter().any(|(on, _)| !on) {
                along.push_str(" along");
                for (on, name) in lines {
                    if on {
                        along.push(' ');
                        along.push_str(name);
                    }
                }
            }
            // The side that made the row gets the value.
            let verdict = match cfg.connect_value {
                Value::Loss => "loses",
                Value::Draw => "draws",
                _ => "wins",
            };
            if cfg.connect_n > 0 {
                rules.push(format!("connect {}{kinds}{along} {verdict}", cfg.connect_n));
            }
            if cfg.connect_nxn > 0 {
                let n = cfg.connect_nxn;
                rules.push(format!("connect {n} by {n}{kinds} {verdict}"));
            }
            if cfg.collinear_n > 0 {
                rules.push(format!(
                    "connect {}{kinds}{along}, with gaps {verdict}",
                    cfg.collinear_n
                ));
            }
        }
        if cfg.pass[0] {
            rules.push("passing allowed".into());
        } else if cfg.pass_on_stalemate[0] {
            rules.push("passing allowed when stuck".into());
        }
        if cfg.adjudicate_full_board {
            rules.push("full board draws".into());
        }
        match cfg.material_counting.as_str() {
            "unweighted" => {
                rules.push("draws counted by value".into());
                for k in self.kinds.iter_mut() {
                    k.value = 1.0;
                }
            }
            "whitedrawodds" => rules.push("draws win for white".into()),
            "blackdrawodds" => rules.push("draws win for black".into()),
            _ => {}
        }
        // Stalemate.
        let by_count = if cfg.stalemate_piece_count {
            ", by piece count"
        } else {
            ""
        };
        rules.push(match cfg.stalemate_value {
            Value::Win => format!("stalemate wins{by_count}"),
            Value::Loss => format!("stalemate loses{by_count}"),
            _ => "stalemate draws".into(),
        });
        // Repetition and the move limit.
        if cfg.n_fold_rule >= 2 {
            let n = cfg.n_fold_rule.min(10);
            let verdict = match (cfg.n_fold_value, cfg.n_fold_value_absolute) {
                (Value::Draw | Value::None, _) => "draws".to_string(),
                (Value::Loss, true) => "loses for white".into(),
                (Value::Win, true) => "wins for white".into(),
                // The value is the side to move's: the side that repeated gets the opposite.
                (Value::Loss, false) => "wins".into(),
                (Value::Win, false) => "loses".into(),
            };
            let perpetual = if cfg.perpetual_check_illegal {
                ", perpetual check loses"
            } else {
                ""
            };
            rules.push(format!("repetition {n} {verdict}{perpetual}"));
        } else if cfg.n_fold_rule == 1 {
            self.refuse(
                "nFoldRule",
                "1",
                "a position may not occur twice",
                "repetition on first occurrence",
            );
        }
        if cfg.n_move_rule > 0 {
            rules.push(format!(
                "move-limit {} draws",
                (cfg.n_move_rule * 2).min(1_000_000)
            ));
        }
        // (Only where nothing else is refused: a refused goal leaves none, as with connect-n.)
        if !has_royal
            && self.refusals.is_empty()
            && !rules.iter().any(|l| {
                l.starts_with("when ")
                    || (l.starts_with("connect ") && !l.ends_with(" draws"))
                    || l.starts_with("stalemate wins")
                    || l.starts_with("stalemate loses")
                    || l.starts_with("draws win for")
            })
        {
            self.refuse(
                "extinctionValue",
                value_text(cfg.extinction_value),
                "a game nobody can win: no royal piece, goal or extinction rule",
                "no way to win",
            );
        }
        self.rules = rules;
    }

    /// Every kind's name, for rules about all pieces.
    /// The kinds that are Fairy-Stockfish's pieces of a type: its own, its pawn-promoted
    /// `~` form, and the `+` forms of pieces that promote to it.
    fn kinds_of_type(&self, pt: PieceType) -> Vec<String> {
        let mut v: Vec<String> = self.names.get(&pt).cloned().into_iter().collect();
        if let Some(t) = self.tilde_kinds.get(&pt) {
            v.push(t.clone());
        }
        for (from, name) in &self.plus_kinds {
            if self.cfg.promoted_piece_type[*from as usize] == pt {
                v.push(name.clone());
            }
        }
        v
    }

    fn kinds_all_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.names.values().cloned().collect();
        v.extend(self.plus_kinds.values().cloned());
        v.extend(self.tilde_kinds.values().cloned());
        v
    }

    /// Capture-the-flag rules.
    fn flag_rules(&mut self, rules: &mut Vec<String>) {
        let cfg = self.cfg;
        let (f, r) = (self.files, self.ranks);
        let region = [
            cfg.flag_region[0].on_board(f, r),
            cfg.flag_region[1].on_board(f, r),
        ];
        if region[0].is_empty() && region[1].is_empty() {
            return;
        }
        if region[0].is_empty() != region[1].is_empty() {
            // One side only: a zone empty for the other.
        }
        if cfg.flag_piece[0] != cfg.flag_piece[1] {
            self.refuse(
                "flagPieceWhite",
                "",
                "goal pieces that differ by side",
                "goals by side",
            );
            return;
        }
        let pt = cfg.flag_piece[0];
        let kinds: Vec<String> = if pt == 0 {
            self.kinds_all_names()
        } else {
            self.kinds_of_type(pt)
        };
        let z = self.zone("goal", region[0], region[1]);
        let n = cfg.flag_piece_count.max(1);
        let count = if n == 1 {
            "at least 1".to_string()
        } else {
            format!("at least {n}")
        };
        let safe = if cfg.flag_piece_safe { "safe " } else { "" };
        let list = kinds.join(" ");
        if cfg.flag_move {
            if pt == KING && !cfg.flag_piece_safe && n == 1 {
                rules.push(format!(
                    "when {count} {list} in {z} and {count} enemy {list} in {z} draws"
                ));
                rules.push(format!("when {count} {list} in {z} wins, unless answered"));
            } else if cfg.flag_piece_safe && !cfg.flag_piece_blocked_win {
                // Safe goal pieces win at once; goal pieces left attacked give the opponent
                // one move, and win if any still stand there after it. More goal pieces than
                // needed win whether attacked or not.
                rules.push(format!("when {count} {list} in {z} wins, to move"));
                rules.push(format!(
                    "when at least {} {list} in {z} wins, just moved",
                    n + 1
                ));
                rules.push(format!("when {count} safe {list} in {z} wins, just moved"));
            } else {
                self.refuse(
                    "flagMove",
                    "true",
                    "a goal the opponent may answer, for pieces other than a lone king",
                    "answerable goals",
                );
            }
            return;
        }
        if cfg.flag_piece_blocked_win && (cfg.flag_piece_safe || cfg.flag_move) {
            self.refuse(
                "flagPieceBlockedWin",
                "true",
                "a goal filled by any pieces that must also be safe or answered",
                "goal filled by any pieces",
            );
            return;
        }
        if cfg.flag_piece_safe {
            rules.push(format!("when {count} {safe}{list} in {z} wins"));
            return;
        }
        rules.push(format!("when {count} {list} in {z} wins, just moved"));
        if cfg.flag_piece_blocked_win {
            // Also won with fewer goal pieces when the goal squares are all occupied: each
            // split of the squares between the side's goal pieces and the enemy's pieces.
            let all = self.kinds_all_names();
            let size = [
                region[0].0.count_ones() as usize,
                region[1].0.count_ones() as usize,
            ];
            let every_kind_counts = all.iter().all(|k| kinds.contains(k));
            if size[0] != size[1] || !every_kind_counts {
                self.refuse(
                    "flagPieceBlockedWin",
                    "true",
                    "a goal filled by any pieces where not every piece is a goal piece, or goals of different sizes",
                    "goal filled by any pieces",
                );
                return;
            }
            let enemies = all.join(" ");
            for own in 1..(n as usize).min(size[0] + 1) {
                rules.push(format!(
                    "when {own} {list} in {z} and {} enemy {enemies} in {z} wins, just moved",
                    size[0] - own
                ));
            }
        }
    }

    fn finish(mut self, source: &Source) -> Written {
        let cfg = self.cfg;
        let (f, r) = (self.files, self.ranks);
        let mut out = String::new();
        let template = source
            .template
            .as_ref()
            .map(|t| format!(":{t}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "# Imported from Fairy-Stockfish's INI format: {}, section [{}{}] (line {}).",
            source.file, source.name, template, source.line
        );
        for c in &source.comments {
            if !c.is_empty() {
                let _ = writeln!(out, "# {c}");
            }
        }
        if !self.approximations.is_empty() {
            let _ = writeln!(
                out,
                "# Approximations (the moves are Fairy-Stockfish's; only results may differ):"
            );
            for a in &self.approximations {
                let _ = writeln!(out, "#   {a}");
            }
        }
        let _ = writeln!(out, "variant \"{}\"", source.name);
        let lower = source.name.to_lowercase();
        let default_uci: String = lower.split_whitespace().collect::<Vec<_>>().join("-");
        if default_uci != source.name {
            let _ = writeln!(out, "  known as \"{}\" in uci", source.name);
        }
        let _ = writeln!(out, "board {f} x {r}");
        let _ = writeln!(out, "sides white north, black south");
        if !self.holes.is_empty() {
            let _ = writeln!(out, "holes {}", zone_expr(self.holes, f, r));
        }
        if !self.zones.is_empty() {
            out.push('\n');
        }
        for (name, w, b) in &self.zones {
            let text = if *w == *b {
                zone_expr(*w, f, r)
            } else if *b == w.mirrored(f, r) && !w.is_empty() {
                format!("{}, mirrored", zone_expr(*w, f, r))
            } else {
                format!("{}, for black {}", zone_expr(*w, f, r), zone_expr(*b, f, r))
            };
            let _ = writeln!(out, "zone {name} = {text}");
        }
        for k in &self.kinds {
            out.push('\n');
            let royal = if k.royal { " royal" } else { "" };
            let value = if k.royal {
                String::new()
            } else {
                format!(" value {}", fmt_value(k.value))
            };
            let note = k
                .note
                .as_ref()
                .map(|n| format!("  # {n}"))
                .unwrap_or_default();
            let _ = writeln!(out, "piece {} {}{royal}{value}{note}", k.name, k.letter);
            if !k.clauses.iter().any(|c| c.starts_with("move "))
                && !k.clauses.iter().any(|c| c.starts_with("drop even"))
                && cfg.piece_drops
            {
                // A piece with no move that is only dropped.
            }
            for c in &k.clauses {
                let _ = writeln!(out, "  {c}");
            }
            let _ = k.pt;
        }
        if !self.castlings.is_empty() {
            out.push('\n');
            for c in &self.castlings {
                let _ = writeln!(out, "{c}");
            }
        }
        out.push_str("\nrules\n");
        for l in &self.rules {
            let _ = writeln!(out, "  {l}");
        }
        let _ = writeln!(out, "\nsetup \"{}\"", self.setup);
        Written {
            text: out,
            approximations: std::mem::take(&mut self.approximations),
        }
    }
}

const JANGGI_CANNON_PT: PieceType = JANGGI_CANNON;

/// The Betza text without its first-move atoms and en-passant marks (which the language
/// writes as guarded patterns), or empty where nothing is left.
fn strip_initial(text: &str) -> String {
    betza::atoms(text)
        .into_iter()
        .map(|r| &text[r])
        .filter(|a| !a.contains('i'))
        .map(|a| a.replace('e', ""))
        .collect()
}

/// What the language's own reading of Betza does, as quiet and capture moves, if it reads
/// the text at all and every pattern has a plain form.
fn dsl_canon(text: &str) -> Option<(BTreeSet<Canon>, BTreeSet<Canon>)> {
    use crate::model::{Dirs, LegKind, Mode};
    let patterns = crate::check::betza_patterns(text).ok()?;
    let mut q = BTreeSet::new();
    let mut c = BTreeSet::new();
    for (legs, mode) in patterns {
        let mut canons = Vec::new();
        if legs.len() == 1 {
            let leg = &legs[0];
            let Dirs::Vectors(vs) = &leg.arms.first()?.dirs else {
                return None;
            };
            for &v in vs {
                canons.push(match leg.kind {
                    LegKind::Step => Canon::Leap(v),
                    LegKind::Slide { max: Some(1) } => Canon::Leap(v),
                    LegKind::Slide { max } => Canon::Slide(v, max),
                    LegKind::Hop { max, just_beyond } => Canon::Hop(v, max, just_beyond),
                });
            }
        } else {
            // Steps through empty squares: every concrete path.
            if legs.iter().any(|l| l.kind != LegKind::Step) {
                return None;
            }
            let dirs: Vec<&Dirs> = legs
                .iter()
                .map(|l| l.arms.first().map(|a| &a.dirs))
                .collect::<Option<_>>()?;
            canons.extend(betza::step_chain(dirs)?);
        }
        for canon in canons {
            if mode != Mode::CaptureOnly {
                q.insert(canon.clone());
            }
            if mode != Mode::MoveOnly {
                c.insert(canon);
            }
        }
    }
    Some((q, c))
}

/// A family of lame leaps the language has words for: the words, a test of membership and
/// how many members make it whole.
type Family = (&'static str, fn(&(Vec<Vector>, Vector)) -> bool, usize);

/// Clauses for plain moves: one `move` line per kind of travel and mode.
fn canon_clauses(
    quiet: &BTreeSet<Canon>,
    capture: &BTreeSet<Canon>,
    guard: &str,
    _ep: bool,
) -> Vec<String> {
    canon_lines(quiet, capture, guard, "")
}

fn canon_clauses_ep(quiet: &BTreeSet<Canon>, capture: &BTreeSet<Canon>, ep: &str) -> Vec<String> {
    canon_lines(quiet, capture, "", ep)
}

fn canon_lines(
    quiet: &BTreeSet<Canon>,
    capture: &BTreeSet<Canon>,
    guard: &str,
    ep: &str,
) -> Vec<String> {
    let both: BTreeSet<Canon> = quiet.intersection(capture).cloned().collect();
    let only_q: BTreeSet<Canon> = quiet.difference(capture).cloned().collect();
    let only_c: BTreeSet<Canon> = capture.difference(quiet).cloned().collect();
    let mut out = Vec::new();
    for (set, mode) in [
        (&both, ""),
        (&only_q, ", move-only"),
        (&only_c, ", capture-only"),
    ] {
        let ep = if mode == ", capture-only" { ep } else { "" };
        // Group by travel.
        let mut leaps: BTreeSet<Vector> = BTreeSet::new();
        let mut slides: BTreeMap<Option<u8>, BTreeSet<Vector>> = BTreeMap::new();
        let mut hops: BTreeMap<(Option<u8>, bool), BTreeSet<Vector>> = BTreeMap::new();
        let mut lames: Vec<(Vec<Vector>, Vector)> = Vec::new();
        for c in set.iter() {
            match c {
                Canon::Leap(v) => {
                    leaps.insert(*v);
                }
                Canon::Slide(v, m) => {
                    slides.entry(*m).or_default().insert(*v);
                }
                Canon::Hop(v, m, j) => {
                    hops.entry((*m, *j)).or_default().insert(*v);
                }
                Canon::Lame(p, t) => lames.push((p.clone(), *t)),
            }
        }
        if !leaps.is_empty() {
            let units: BTreeSet<Vector> = leaps
                .iter()
                .filter(|v| v.0.abs() <= 1 && v.1.abs() <= 1)
                .copied()
                .collect();
            let longer: BTreeSet<Vector> = leaps.difference(&units).copied().collect();
            if !units.is_empty() {
                out.push(format!("move {guard}step {}{mode}{ep}", dirs_text(&units)));
            }
            if !longer.is_empty() {
                out.push(format!("move {guard}step {}{mode}{ep}", dirs_text(&longer)));
            }
        }
        for (max, vs) in slides {
            let up = max.map(|m| format!(" up to {m}")).unwrap_or_default();
            out.push(format!(
                "move {guard}slide {}{up}{mode}{ep}",
                dirs_text(&vs)
            ));
        }
        for ((max, just), vs) in hops {
            let up = max.map(|m| format!(" up to {m}")).unwrap_or_default();
            let jb = if just { " just beyond" } else { "" };
            out.push(format!(
                "move {guard}hop {}{up}{jb}{mode}{ep}",
                dirs_text(&vs)
            ));
        }
        // Lame leaps: in the language's words where a whole family is there.
        let families: &[Family] = &[
            (
                "step orthogonal then step outward",
                |(p, t)| {
                    p.len() == 1
                        && (p[0].0 == 0 || p[0].1 == 0)
                        && (t.0.abs(), t.1.abs()) != (2, 0)
                        && (t.0.abs(), t.1.abs()) != (0, 2)
                        && t.0.abs().max(t.1.abs()) == 2
                        && t.0.abs().min(t.1.abs()) == 1
                },
                8,
            ),
            (
                "step diagonal then step same",
                |(p, t)| p.len() == 1 && t.0.abs() == 2 && t.1.abs() == 2,
                4,
            ),
            (
                "step orthogonal then step same",
                |(p, t)| p.len() == 1 && (t.0 == 0 || t.1 == 0) && t.0.abs().max(t.1.abs()) == 2,
                4,
            ),
            (
                "step orthogonal then step outward then step same",
                |(p, t)| {
                    p.len() == 2 && t.0.abs().max(t.1.abs()) == 3 && t.0.abs().min(t.1.abs()) == 2
                },
                8,
            ),
        ];
        let mut rest = lames.clone();
        for (words, test, n) in families {
            let members: Vec<(Vec<Vector>, Vector)> =
                rest.iter().filter(|l| test(l)).cloned().collect();
            if members.len() == *n {
                rest.retain(|l| !test(l));
                out.push(format!("move {guard}{words}{mode}{ep}"));
            }
        }
        // Straight lame steps (`step forward then step forward`), grouped by length.
        let mut straight: BTreeMap<usize, BTreeSet<Vector>> = BTreeMap::new();
        let mut other = Vec::new();
        for (p, t) in rest {
            let unit = (t.0.signum(), t.1.signum());
            let k = t.0.abs().max(t.1.abs()) as usize;
            let is_straight = (t.0 == 0 || t.1 == 0 || t.0.abs() == t.1.abs())
                && p.len() + 1 == k
                && p.iter()
                    .enumerate()
                    .all(|(j, s)| *s == (unit.0 * (j as i8 + 1), unit.1 * (j as i8 + 1)));
            if is_straight {
                straight.entry(k).or_default().insert(unit);
            } else {
                other.push((p, t));
            }
        }
        for (k, units) in straight {
            let mut legs = format!("step {}", dirs_text(&units));
            for _ in 1..k {
                legs.push_str(" then step same");
            }
            out.push(format!("move {guard}{legs}{mode}{ep}"));
        }
        for (p, t) in other {
            let mut prev = (0i8, 0i8);
            let mut legs = Vec::new();
            for s in p.iter().chain(std::iter::once(&t)) {
                legs.push(format!("step [{},{}]", s.0 - prev.0, s.1 - prev.1));
                prev = *s;
            }
            out.push(format!("move {guard}{}{mode}{ep}", legs.join(" then ")));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_in_words() {
        let s = |v: &[Vector]| v.iter().copied().collect::<BTreeSet<_>>();
        assert_eq!(
            dirs_text(&s(&[(0, 1), (1, 0), (0, -1), (-1, 0)])),
            "orthogonal"
        );
        assert_eq!(
            dirs_text(&s(&[(0, 1), (-1, 0), (1, 0)])),
            "sideways forward"
        );
        assert_eq!(
            dirs_text(
                &crate::model::betza::all_vectors((1, 2))
                    .into_iter()
                    .collect()
            ),
            "(1,2)"
        );
        assert_eq!(dirs_text(&s(&[(1, 2)])), "[1,2]");
    }

    #[test]
    fn zones_in_words() {
        assert_eq!(zone_expr(Bb::rank(7), 8, 8), "rank 8");
        assert_eq!(zone_expr(Bb::rank(0) | Bb::rank(1), 8, 8), "ranks 1-2");
        assert_eq!(
            zone_expr(
                Bb::square(3, 3) | Bb::square(4, 3) | Bb::square(3, 4) | Bb::square(4, 4),
                8,
                8
            ),
            "d4-e5"
        );
        assert_eq!(zone_expr(Bb::EMPTY, 8, 8), "none");
    }

    #[test]
    fn the_language_reads_plain_betza_as_fairy_stockfish_does() {
        for text in [
            "fmWfcF", "N", "mRcpR", "nN", "fsW", "gQ", "R4", "FfW", "WfF", "mQcN",
        ] {
            let t = betza::read(text);
            let q = betza::effective(&t, false, 0).unwrap();
            let c = betza::effective(&t, false, 1).unwrap();
            assert_eq!(dsl_canon(text), Some((q, c)), "{text}");
        }
    }
}
