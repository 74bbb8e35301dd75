//! A Rulebook definition written as a Fairy-Stockfish INI section.
//!
//! The section stands on its own (no template): every piece is declared, Fairy-Stockfish's
//! predefined piece where one moves the same, else a custom piece in Betza written so that
//! Fairy-Stockfish reads it back to the same moves (checked with [`super::betza`]). Only what
//! Fairy-Stockfish plays the same way is written; anything else is refused, each construct
//! named: zone-dependent moves, bent paths, shots, teleports, borrowed moves, lines, options
//! that change moves, promotion zones that differ by piece, and so on. Options are read at
//! their default settings.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::betza::{self, Canon, Vector};
use super::model::{Bb, CUSTOM_COUNT, PREDEFINED};
use crate::engine::Position;
use crate::model::{
    Dirs, Facing, Immunity, LegKind, Mode, OptionGuard, Pattern, PieceDef, PieceKind, Promotion,
    RoyalGuard, Side, Tables, Variant, Verdict,
};

/// The definition as an INI section, or what Fairy-Stockfish lacks to play it.
///
/// # Errors
/// Each construct of the definition Fairy-Stockfish has no setting for, in a line.
pub fn export(variant: &Variant) -> Result<String, Vec<String>> {
    export_with(variant, &[])
}

/// [`export`] with options set (the others at their defaults).
///
/// # Errors
/// As [`export`]; an option the definition does not declare is a lack too.
pub fn export_with(variant: &Variant, options: &[(String, bool)]) -> Result<String, Vec<String>> {
    let mut e = Exporter::new(variant);
    for (name, on) in options {
        match variant.option_by_name(name) {
            Some(id) => e.options[id.index()] = *on,
            None => e.lack(format!("no option `{name}`")),
        }
    }
    e.run();
    if e.lacks.is_empty() {
        Ok(e.text())
    } else {
        e.lacks.dedup();
        Err(e.lacks)
    }
}

/// A piece's moves: quiet and capture moves as plain moves, and the first-move ones.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Moves {
    quiet: BTreeSet<Canon>,
    capture: BTreeSet<Canon>,
    /// The double step of a pawn, with the zone it is made from.
    double_step: Option<crate::model::ZoneId>,
    creates_ep: bool,
    takes_ep: bool,
    /// Its en-passant captures never promote (`takes en-passant without promotion`).
    ep_unpromoted: bool,
}

struct Exporter<'a> {
    v: &'a Variant,
    options: Vec<bool>,
    lacks: Vec<String>,
    /// INI lines, in order.
    lines: Vec<String>,
    /// Each kind's Fairy-Stockfish letter (lowercase) and whether it is the pawn.
    letters: BTreeMap<PieceKind, char>,
    files: usize,
    ranks: usize,
    /// The kind that is Fairy-Stockfish's pawn.
    pawn: Option<PieceKind>,
    /// Each kind's Fairy-Stockfish piece key (`knight`, `customPiece2`).
    type_of: BTreeMap<PieceKind, String>,
    /// Each kind's moves.
    moves_of: BTreeMap<PieceKind, Moves>,
    /// `checks N wins`: the count in the start position.
    checks: Option<u8>,
    /// `mating drops lose` holds.
    mating_drops_lose: bool,
}

fn square_text(f: usize, r: usize) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

impl<'a> Exporter<'a> {
    fn new(v: &'a Variant) -> Exporter<'a> {
        let g = v.geometry();
        Exporter {
            v,
            options: v.options().iter().map(|o| o.default).collect(),
            lacks: Vec::new(),
            lines: Vec::new(),
            letters: BTreeMap::new(),
            files: usize::from(g.width),
            ranks: usize::from(g.height),
            pawn: None,
            type_of: BTreeMap::new(),
            moves_of: BTreeMap::new(),
            checks: None,
            mating_drops_lose: false,
        }
    }

    fn lack(&mut self, what: impl Into<String>) {
        let what = what.into();
        if !self.lacks.contains(&what) {
            self.lacks.push(what);
        }
    }

    fn holds(&self, guards: &[OptionGuard]) -> bool {
        guards
            .iter()
            .all(|g| self.options[g.option.index()] == g.when_on)
    }

    /// The option settings, as the compiler takes them.
    fn settings(&self) -> Vec<(String, bool)> {
        self.v
            .options()
            .iter()
            .zip(&self.options)
            .map(|(o, &on)| (o.name.clone(), on))
            .collect()
    }

    fn set(&mut self, key: &str, value: impl std::fmt::Display) {
        self.lines.push(format!("{key} = {value}"));
    }

    /// A zone's squares for a side, as Fairy-Stockfish's bitboard.
    fn zone_bb(&self, zone: crate::model::ZoneId, side: Side) -> Bb {
        let g = self.v.geometry();
        let set = &self.v.zones()[zone.index()].squares[side.index()];
        set.iter().fold(Bb::EMPTY, |b, sq| {
            b | Bb::square(g.file(sq) as usize, g.rank(sq) as usize)
        })
    }

    fn bb_text(&self, b: Bb) -> String {
        let b = b.on_board(self.files, self.ranks);
        if b.is_empty() {
            return "-".into();
        }
        // Whole ranks as `*N`.
        let mut parts = Vec::new();
        for r in 0..self.ranks {
            if (0..self.files).all(|f| b.has(f, r)) {
                parts.push(format!("*{}", r + 1));
            } else {
                parts.extend(
                    (0..self.files)
                        .filter(|&f| b.has(f, r))
                        .map(|f| square_text(f, r)),
                );
            }
        }
        parts.join(" ")
    }

    fn run(&mut self) {
        let v = self.v;
        let g = v.geometry();
        if v.sides().len() != 2 {
            self.lack("more than two sides");
            return;
        }
        if v.sides()[0].facing != Facing::North || v.sides()[1].facing != Facing::South {
            self.lack("sides facing other ways than north and south");
        }
        if g.width > 12 || g.height > 10 {
            self.lack(format!(
                "a board of {} x {} (Fairy-Stockfish's largest is 12 x 10)",
                g.width, g.height
            ));
            return;
        }
        if !v.lines().is_empty() {
            self.lack("lines between squares");
        }
        if !v.partitions().is_empty() {
            self.lack("partitions (moves that must stay within a part, or end where a part holds a piece)");
        }
        if v.teams_for(&self.options)
            .iter()
            .collect::<BTreeSet<_>>()
            .len()
            < 2
        {
            self.lack("partnerships");
        }
        self.set("maxFile", g.width);
        self.set("maxRank", g.height);
        self.pieces();
        if !self.lacks.is_empty() {
            return;
        }
        self.rules();
        self.start();
    }

    /// The moves of a piece as plain moves, or why they have none.
    fn moves(&mut self, p: &PieceDef) -> Moves {
        let mut m = Moves::default();
        let name = &p.name;
        let patterns: Vec<&Pattern> = p
            .patterns
            .iter()
            .filter(|pat| self.holds(&pat.options))
            .collect();
        for pat in patterns {
            if pat.shot {
                self.lack(format!("`{name}`: shots (a capture without moving)"));
                continue;
            }
            if pat.legs.iter().any(|l| l.bent) {
                self.lack(format!("`{name}`: bent paths"));
                continue;
            }
            if pat.unmoved.is_some() || pat.in_check.is_some() {
                self.lack(format!(
                    "`{name}`: moves that depend on the piece having moved or on check"
                ));
                continue;
            }
            if pat.capturing.is_some() || pat.enemies_only {
                self.lack(format!("`{name}`: captures limited to some pieces"));
                continue;
            }
            if !pat.into.is_empty() || pat.holding.is_some() || !pat.avoiding.is_empty() {
                self.lack(format!("`{name}`: moves limited to or away from a zone"));
                continue;
            }
            if !pat.crossing.is_empty() || pat.continuing.is_some() || pat.along.is_some() {
                self.lack(format!("`{name}`: moves across lines"));
                continue;
            }
            if pat.screens.is_some() {
                self.lack(format!("`{name}`: hops over some pieces only"));
                continue;
            }
            if pat.on_the_way.is_some() {
                self.lack(format!("`{name}`: moves that capture on the way"));
                continue;
            }
            if pat.not_protected.is_some() {
                self.lack(format!("`{name}`: captures refused on protected pieces"));
                continue;
            }
            // A pawn's double step from its zone is the one zone-dependent move written.
            if !pat.zones.is_empty() {
                let double = pat.zones.len() == 1
                    && pat.zones[0].inside
                    && pat.mode == Mode::MoveOnly
                    && canon_of(pat).is_some_and(|c| c == vec![Canon::Lame(vec![(0, 1)], (0, 2))]);
                if double && m.double_step.is_none() {
                    m.double_step = Some(pat.zones[0].zone);
                    m.creates_ep |= pat.creates_en_passant;
                } else {
                    self.lack(format!(
                        "`{name}`: moves that depend on the zone the piece stands in"
                    ));
                }
                continue;
            }
            if pat.creates_en_passant {
                self.lack(format!(
                    "`{name}`: en passant after moves other than a pawn's double step"
                ));
            }
            m.takes_ep |= pat.takes_en_passant;
            m.ep_unpromoted |= pat.en_passant_unpromoted;
            let Some(canons) = canon_of(pat) else {
                self.lack(format!(
                    "`{name}`: a path Betza cannot write (legs that are not a lame leap)"
                ));
                continue;
            };
            for c in canons {
                if pat.mode.can_move() {
                    m.quiet.insert(c.clone());
                }
                if pat.mode.can_capture() {
                    m.capture.insert(c);
                }
            }
        }
        if p.borrows {
            self.lack(format!("`{name}`: borrowed moves"));
        }
        if p.teleports.iter().any(|t| self.holds(&t.options)) {
            self.lack(format!("`{name}`: teleports"));
        }
        if !p.entries.is_empty() {
            self.lack(format!(
                "`{name}`: zones it enters only when they hold some pieces"
            ));
        }
        if !p.within.is_empty() {
            self.lack(format!(
                "`{name}`: moves that must stay within a part of the board"
            ));
        }
        if !p.unmoved_lost_to.is_empty() || p.unmoved_in_fen {
            self.lack(format!("`{name}`: first-move rights"));
        }
        m
    }

    fn pieces(&mut self) {
        let v = self.v;
        let kinds: Vec<PieceKind> = PieceKind::all(v.pieces().len()).collect();
        let royals: Vec<PieceKind> = kinds
            .iter()
            .copied()
            .filter(|&k| v.piece(k).royal)
            .collect();
        if royals.len() > 1 {
            self.lack("more than one kind of royal piece");
        }
        // Letters: `+X` and `X~` kinds are the promoted forms of other letters.
        let mut used: BTreeSet<char> = kinds
            .iter()
            .filter(|&&k| v.piece(k).letter.mark() == crate::model::Mark::None)
            .map(|&k| v.piece(k).letter.base().to_ascii_lowercase())
            .collect();
        let moves: BTreeMap<PieceKind, Moves> =
            kinds.iter().map(|&k| (k, self.moves(v.piece(k)))).collect();
        // The pawn: Fairy-Stockfish's own pawn moves.
        let pawn_moves = |m: &Moves| {
            m.quiet == [Canon::Leap((0, 1))].into_iter().collect()
                && m.capture
                    == [Canon::Leap((-1, 1)), Canon::Leap((1, 1))]
                        .into_iter()
                        .collect()
        };
        let mut pawn: Option<PieceKind> = None;
        let mut customs = 0usize;
        let mut type_of: BTreeMap<PieceKind, String> = BTreeMap::new();
        let mut taken_types: BTreeSet<String> = BTreeSet::new();
        let mut piece_lines: Vec<String> = Vec::new();
        for &k in &kinds {
            let p = v.piece(k);
            let m = &moves[&k];
            match p.letter.mark() {
                crate::model::Mark::Tilde => {
                    // A promoted pawn's piece: the same Fairy-Stockfish type as its letter.
                    continue;
                }
                crate::model::Mark::Plus => continue,
                crate::model::Mark::None => {}
            }
            let letter = p.letter.base().to_ascii_lowercase();
            self.letters.insert(k, letter);
            if p.royal {
                if m.double_step.is_some() || m.takes_ep {
                    self.lack(format!("`{}`: a royal piece with a pawn's moves", p.name));
                }
                let king_moves = {
                    let t = betza::read("K");
                    betza::effective(&t, false, 0).ok().as_ref() == Some(&m.quiet)
                        && betza::effective(&t, false, 1).ok().as_ref() == Some(&m.capture)
                };
                let betza = if king_moves {
                    "K".to_string()
                } else {
                    self.write_betza(&p.name, m)
                };
                if betza == "K" {
                    piece_lines.push(format!("king = {letter}"));
                } else {
                    piece_lines.push(format!("king = {letter}:{betza}"));
                }
                type_of.insert(k, "king".into());
                continue;
            }
            if pawn.is_none() && pawn_moves(m) && (m.takes_ep || m.double_step.is_none()) {
                pawn = Some(k);
                piece_lines.push(format!("pawn = {letter}"));
                type_of.insert(k, "pawn".into());
                taken_types.insert("pawn".into());
                continue;
            }
            if m.double_step.is_some() || m.takes_ep {
                self.lack(format!(
                    "`{}`: a pawn's double step or en passant on a piece that is not a chess pawn",
                    p.name
                ));
                continue;
            }
            // A predefined piece that moves the same (not the soldier, cannons or others with
            // rules of their own), else a custom piece.
            let special = [
                "pawn",
                "soldier",
                "janggiCannon",
                "janggiElephant",
                "horse",
                "elephant",
                "banner",
                "cannon",
            ];
            let same = PREDEFINED.iter().find(|d| {
                !special.contains(&d.1) && !taken_types.contains(d.1) && {
                    let t = betza::read(d.2);
                    betza::effective(&t, false, 0).ok().as_ref() == Some(&m.quiet)
                        && betza::effective(&t, false, 1).ok().as_ref() == Some(&m.capture)
                }
            });
            if let Some(d) = same {
                piece_lines.push(format!("{} = {letter}", d.1));
                type_of.insert(k, d.1.to_string());
                taken_types.insert(d.1.to_string());
                continue;
            }
            customs += 1;
            if customs > CUSTOM_COUNT {
                self.lack("more than 25 kinds of piece Fairy-Stockfish does not predefine");
                continue;
            }
            let betza = self.write_betza(&p.name, m);
            let key = format!("customPiece{customs}");
            piece_lines.push(format!("{key} = {letter}:{betza}"));
            type_of.insert(k, key);
        }
        // Promoted kinds: `X~` must move as X; `+X` is the type of a kind that moves as it.
        let mut promoted: Vec<String> = Vec::new();
        for &k in &kinds {
            let p = v.piece(k);
            match p.letter.mark() {
                crate::model::Mark::Tilde => {
                    let base = v.piece_by_letter(&p.letter.base().to_string());
                    match base {
                        Some(b) if moves[&b].quiet == moves[&k].quiet && moves[&b].capture == moves[&k].capture => {
                            self.letters.insert(k, self.letters.get(&b).copied().unwrap_or('?'));
                            type_of.insert(k, type_of.get(&b).cloned().unwrap_or_default());
                        }
                        _ => self.lack(format!("`{}`: a promoted piece marked `~` that does not move as its letter's piece", p.name)),
                    }
                }
                crate::model::Mark::Plus => {
                    // The kind whose moves it has.
                    let like = kinds.iter().copied().find(|&o| {
                        o != k
                            && v.piece(o).letter.mark() == crate::model::Mark::None
                            && !v.piece(o).royal
                            && moves[&o] == moves[&k]
                    });
                    match like {
                        Some(o) => {
                            self.letters
                                .insert(k, self.letters.get(&o).copied().unwrap_or('?'));
                            type_of.insert(k, type_of.get(&o).cloned().unwrap_or_default());
                        }
                        None => {
                            // A type of its own, with a letter no other piece has.
                            let free = ('a'..='z').find(|c| !used.contains(c));
                            customs += 1;
                            match free {
                                Some(c) if customs <= CUSTOM_COUNT => {
                                    used.insert(c);
                                    let m = moves[&k].clone();
                                    let betza = self.write_betza(&p.name, &m);
                                    let key = format!("customPiece{customs}");
                                    promoted.push(format!("{key} = {c}:{betza}"));
                                    self.letters.insert(k, c);
                                    type_of.insert(k, key);
                                }
                                _ => self.lack("more than 25 kinds of piece Fairy-Stockfish does not predefine"),
                            }
                        }
                    }
                }
                crate::model::Mark::None => {}
            }
        }
        for l in piece_lines.into_iter().chain(promoted) {
            self.lines.push(l);
        }
        self.pawn = pawn;
        self.type_of = type_of;
        self.moves_of = moves;
    }
}

/// What a pattern's path does, as plain moves, if it is plain: one leg, or steps through
/// empty squares.
fn canon_of(p: &Pattern) -> Option<Vec<Canon>> {
    let mut out = Vec::new();
    if p.legs.len() == 1 {
        let leg = &p.legs[0];
        if leg.arms.len() != 1 || leg.arms[0].zone.is_some() || leg.arms[0].inward {
            return None;
        }
        let Dirs::Vectors(vs) = &leg.arms[0].dirs else {
            return None;
        };
        for &v in vs {
            out.push(match leg.kind {
                LegKind::Step | LegKind::Slide { max: Some(1) } => Canon::Leap(v),
                LegKind::Slide { max } => Canon::Slide(v, max),
                LegKind::Hop { max, just_beyond } => Canon::Hop(v, max, just_beyond),
            });
        }
        return Some(out);
    }
    for leg in &p.legs {
        if leg.kind != LegKind::Step
            || leg.arms.len() != 1
            || leg.arms[0].zone.is_some()
            || leg.arms[0].inward
        {
            return None;
        }
    }
    out.extend(betza::step_chain(p.legs.iter().map(|l| &l.arms[0].dirs))?);
    Some(out)
}

impl Exporter<'_> {
    /// Betza that Fairy-Stockfish reads as exactly these moves, or a lack named.
    fn write_betza(&mut self, name: &str, m: &Moves) -> String {
        let both: BTreeSet<Canon> = m.quiet.intersection(&m.capture).cloned().collect();
        let only_q: BTreeSet<Canon> = m.quiet.difference(&m.capture).cloned().collect();
        let only_c: BTreeSet<Canon> = m.capture.difference(&m.quiet).cloned().collect();
        let mut text = String::new();
        for (set, mode) in [(&both, ""), (&only_q, "m"), (&only_c, "c")] {
            match atoms_for(set) {
                Ok(atoms) => {
                    for a in atoms {
                        text.push_str(mode);
                        text.push_str(&a);
                    }
                }
                Err(why) => {
                    self.lack(format!("`{name}`: {why}"));
                    return String::new();
                }
            }
        }
        // Read back as Fairy-Stockfish reads it: it must be the same moves.
        let t = betza::read(&text);
        let back = (
            betza::effective(&t, false, 0),
            betza::effective(&t, false, 1),
        );
        match back {
            (Ok(q), Ok(c)) if q == m.quiet && c == m.capture => text,
            _ => {
                self.lack(format!(
                    "`{name}`: moves that Fairy-Stockfish's Betza cannot say alone (it would read `{text}` otherwise)"
                ));
                text
            }
        }
    }

    fn rules(&mut self) {
        let v = self.v;
        let r = v.rules();
        let options = self.options.clone();
        // Checkmate needs the king.
        let king = self
            .type_of
            .iter()
            .find(|(_, t)| *t == "king")
            .map(|(k, _)| *k);
        if r.checkmate {
            if king.is_none() {
                self.lack("checkmate without a royal piece");
            }
            if r.royal_guard != RoyalGuard::Every {
                self.lack(
                    "checkmate rules for several royals (`last royal`, `all royals attacked`)",
                );
            }
            match r.checkmated {
                Verdict::Loss => {}
                Verdict::Win => self.set("checkmateValue", "win"),
                Verdict::Draw => self.set("checkmateValue", "draw"),
            }
        } else if king.is_some() {
            self.lack("a royal piece without checkmate");
        }
        if r.stalemate_passes {
            self.lack("a stalemated side passing its turn");
        }
        let stalemate = match r.stalemate {
            Verdict::Win => "win",
            Verdict::Loss => "loss",
            Verdict::Draw => "draw",
        };
        self.set("stalemateValue", stalemate);
        if r.stalemate_by_count {
            self.set("stalematePieceCount", "true");
        }
        match &r.repetition {
            None => self.set("nFoldRule", 0),
            Some(rep) => {
                self.set("nFoldRule", rep.count);
                let (value, absolute) = match (rep.verdict, rep.side) {
                    (Verdict::Draw, _) => ("draw", false),
                    (Verdict::Win, None) => ("loss", false),
                    (Verdict::Loss, None) => ("win", false),
                    (Verdict::Win, Some(s)) if s == Side::FIRST => ("win", true),
                    (Verdict::Loss, Some(s)) if s == Side::FIRST => ("loss", true),
                    (Verdict::Win, Some(_)) => ("loss", true),
                    (Verdict::Loss, Some(_)) => ("win", true),
                };
                self.set("nFoldValue", value);
                if absolute {
                    self.set("nFoldValueAbsolute", "true");
                }
                if rep.perpetual_check_loses {
                    self.set("perpetualCheckIllegal", "true");
                }
            }
        }
        match r.move_limit {
            None => self.set("nMoveRule", 0),
            Some(n) if n % 2 == 0 => self.set("nMoveRule", n / 2),
            Some(n) => self.lack(format!(
                "a move limit of {n} plies (Fairy-Stockfish counts moves of both sides)"
            )),
        }
        let resetting: String = self
            .type_of
            .iter()
            .filter(|(k, _)| v.piece(**k).resets_clock)
            .filter_map(|(k, _)| self.letters.get(k))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        self.set(
            "nMoveRuleTypes",
            if resetting.is_empty() {
                "-".into()
            } else {
                resetting
            },
        );
        // The pawn's double step: from its zone, or none.
        match self.pawn.map(|k| self.moves_of[&k].clone()) {
            Some(Moves {
                double_step: Some(z),
                creates_ep,
                ..
            }) => {
                let (w, b) = (self.zone_bb(z, Side::FIRST), self.zone_bb(z, Side::SECOND));
                self.set("doubleStepRegionWhite", self.bb_text(w));
                self.set("doubleStepRegionBlack", self.bb_text(b));
                if !creates_ep {
                    self.set("enPassantRegion", "-");
                }
            }
            _ => self.set("doubleStep", "false"),
        }
        if r.must_capture {
            self.set("mustCapture", "true");
        }
        if r.checks_forbidden {
            self.set("checking", "false");
        }
        if let Some((n, verdict)) = r.checks {
            if verdict != Verdict::Win {
                self.lack("checks that lose or draw");
            }
            self.set("checkCounting", "true");
            self.checks = Some(n);
        }
        if r.explosions {
            self.set("blastOnCapture", "true");
            let mut immune = String::new();
            let kinds: Vec<PieceKind> = self.type_of.keys().copied().collect();
            for k in kinds {
                let p = v.piece(k);
                let is_pawn = Some(k) == self.pawn;
                match p.immunity {
                    Immunity::Full => immune.push(self.letters[&k]),
                    Immunity::Nearby if !is_pawn => self.lack(format!(
                        "`{}`: immune to explosions next to it only",
                        p.name
                    )),
                    Immunity::None if is_pawn => self.lack(format!(
                        "`{}`: a pawn that explosions next to it remove",
                        p.name
                    )),
                    _ => {}
                }
            }
            if !immune.is_empty() {
                self.set("blastImmuneTypes", immune);
            }
        }
        if !r.petrify.is_empty() {
            let letters: String = r
                .petrify
                .iter()
                .filter_map(|k| self.letters.get(k))
                .collect();
            self.set("petrifyOnCaptureTypes", letters);
        }
        if r.leave_walls {
            self.set("wallingRule", "past");
        }
        if let Some(w) = r.wall_placing {
            let rule = match (w.moving, w.reach) {
                (true, false) => "duck",
                (false, true) => "arrow",
                (false, false) => "static",
                (true, true) => {
                    self.lack("a wall moved within the piece's reach");
                    "duck"
                }
            };
            self.set("wallingRule", rule);
            if let Some(z) = w.zone {
                let (wb, bb) = (self.zone_bb(z, Side::FIRST), self.zone_bb(z, Side::SECOND));
                self.set("wallingRegionWhite", self.bb_text(wb));
                self.set("wallingRegionBlack", self.bb_text(bb));
            }
        }
        if r.passing {
            if r.passing_when_stuck {
                self.set("passOnStalemate", "true");
            } else {
                self.set("pass", "true");
            }
        }
        if let Some(f) = r.flip {
            use crate::model::Flip;
            let near = r.flip_drops_near_friends;
            let rule = match (f, near) {
                (Flip::Enclosed, false) => "reversi",
                (Flip::Adjacent, false) => "ataxx",
                (Flip::Adjacent, true) => "quadwrangle",
                (Flip::Enclosed, true) => {
                    self.lack("enclosed pieces flipped by drops only next to own pieces");
                    "reversi"
                }
            };
            self.set("flipEnclosedPieces", rule);
        }
        if r.full_board_draws {
            self.set("adjudicateFullBoard", "true");
        }
        if r.counting.is_some() {
            self.lack("drawn games decided by piece values");
        }
        if let Some((side, verdict)) = r.draw_odds {
            let white = side == Side::FIRST;
            match (white, verdict) {
                (true, Verdict::Win) | (false, Verdict::Loss) => {
                    self.set("materialCounting", "whitedrawodds")
                }
                (false, Verdict::Win) | (true, Verdict::Loss) => {
                    self.set("materialCounting", "blackdrawodds")
                }
                _ => {}
            }
        }
        if r.gating.is_some() {
            self.lack("gating");
        }
        if !r.counter_strike.is_empty() {
            self.lack("counter-strike (a rule on the move after a capture)");
        }
        if r.must_drop {
            self.set("mustDrop", "true");
        }
        if r.opposite_castling {
            self.set("oppositeCastling", "true");
        }
        if let Some(first) = r.connect.first() {
            // Fairy-Stockfish's three shapes share their pieces, lines and value.
            let mut seen = (false, false, false);
            for c in &r.connect {
                let line_shape = c.block.is_none();
                if c.kinds != first.kinds
                    || c.verdict != first.verdict
                    || (line_shape && c.lines != first.lines && first.block.is_none())
                {
                    self.lack("`connect` rules that differ in pieces, lines or verdict");
                }
                let slot = match (c.block, c.gaps) {
                    (Some(h), _) if h == c.count => {
                        self.set("connectNxN", c.count);
                        &mut seen.2
                    }
                    (Some(_), _) => {
                        self.lack("`connect N by M` with a block that is not square");
                        continue;
                    }
                    (None, true) => {
                        self.set("collinearN", c.count);
                        &mut seen.1
                    }
                    (None, false) => {
                        self.set("connectN", c.count);
                        &mut seen.0
                    }
                };
                if std::mem::replace(slot, true) {
                    self.lack("two `connect` rules of one shape");
                }
            }
            let c = r
                .connect
                .iter()
                .find(|c| c.block.is_none())
                .unwrap_or(first);
            if !c.kinds.is_empty() {
                let letters: String = c
                    .kinds
                    .iter()
                    .filter_map(|k| self.letters.get(k))
                    .map(|l| l.to_ascii_lowercase())
                    .collect();
                self.set("connectPieceTypes", letters);
            }
            let has = |v: (i8, i8)| c.lines.contains(&v);
            if !has((1, 0)) {
                self.set("connectHorizontal", "false");
            }
            if !has((0, 1)) {
                self.set("connectVertical", "false");
            }
            if !has((1, 1)) {
                self.set("connectDiagonal", "false");
            }
            self.set(
                "connectValue",
                match c.verdict {
                    Verdict::Win => "win",
                    Verdict::Loss => "loss",
                    Verdict::Draw => "draw",
                },
            );
        }
        if r.mating_drops_lose.as_ref().is_some_and(|g| self.holds(g)) {
            self.mating_drops_lose = true;
        }
        if r.eliminated != crate::model::Elimination::PlayOn || r.shared_victory {
            self.lack("rules for more than two sides");
        }
        for f in &r.facing {
            if !self.holds(&f.options) {
                continue;
            }
            if f.vectors.iter().all(|v| v.0 == 0) && !f.draws {
                self.set("flyingGeneral", "true");
            } else {
                self.lack("royals facing along ranks or diagonals, or facing that draws");
            }
        }
        // Drops.
        if r.drops && self.holds(&r.drops_options) {
            self.set("pieceDrops", "true");
            self.set("capturesToHand", r.captures_to_hand);
            self.drops();
        } else {
            if !v.hand_for(&options).is_empty() {
                self.lack("pieces in hand without drops");
            }
        }
        self.when_rules();
        self.promotions();
        self.castling();
    }

    /// `when` rules Fairy-Stockfish has: a goal zone (its flag), the loss of every piece of a
    /// kind (its extinction).
    fn when_rules(&mut self) {
        let v = self.v;
        let mut extinction: Option<(Verdict, String, u32, u32)> = None;
        let mut flag: Option<(String, Bb, Bb, u32)> = None;
        for w in &v.rules().conditions {
            if !self.holds(&w.options) {
                continue;
            }
            if w.answerable || w.asks == crate::model::Asks::ToMove {
                self.lack("goals the opponent may answer");
                continue;
            }
            match w.terms.as_slice() {
                [t] if t.zone.is_some() && !t.enemy && w.verdict == Verdict::Win => {
                    // A goal: pieces of a kind in a zone.
                    if t.safe {
                        self.lack("goals reached only by unattacked pieces");
                    }
                    let all = t.kinds.len() == v.pieces().len();
                    let letter = if all {
                        "*".to_string()
                    } else {
                        let ls: BTreeSet<char> = t
                            .kinds
                            .iter()
                            .filter_map(|k| self.letters.get(k).copied())
                            .collect();
                        if ls.len() != 1 {
                            self.lack("goals counting pieces of several kinds");
                            continue;
                        }
                        ls.into_iter().collect()
                    };
                    let n = match t.bound {
                        crate::model::Bound::AtLeast | crate::model::Bound::Exactly
                            if t.count >= 1 =>
                        {
                            t.count
                        }
                        _ => {
                            self.lack("goals counting pieces otherwise than at least some");
                            continue;
                        }
                    };
                    let z = t.zone.expect("matched above");
                    let region = (self.zone_bb(z, Side::FIRST), self.zone_bb(z, Side::SECOND));
                    if flag.is_some() {
                        self.lack("several goals");
                    }
                    flag = Some((letter, region.0, region.1, n));
                }
                [t] if t.zone.is_none() && !t.enemy && t.count == 0
                    || ([t].len() == 1
                        && t.zone.is_none()
                        && !t.enemy
                        && t.bound == crate::model::Bound::AtMost) =>
                {
                    // Fairy-Stockfish counts the pieces in hand too.
                    let hands = v.rules().drops && self.holds(&v.rules().drops_options);
                    if hands && !t.hand {
                        self.lack(
                            "losing every piece of a kind on the board while some are in hand",
                        );
                        continue;
                    }
                    let all = t.kinds.len() == v.pieces().len();
                    let letters: BTreeSet<char> = t
                        .kinds
                        .iter()
                        .filter_map(|k| self.letters.get(k).copied())
                        .collect();
                    if !all && letters.len() != 1 {
                        self.lack("losing every piece of several kinds together");
                        continue;
                    }
                    let key = if all {
                        "*".to_string()
                    } else {
                        letters.into_iter().collect()
                    };
                    match &mut extinction {
                        None => extinction = Some((w.verdict, key, t.count, 0)),
                        Some((verdict, types, count, _))
                            if *verdict == w.verdict
                                && *count == t.count
                                && types != "*"
                                && key != "*" =>
                        {
                            types.push_str(&key);
                        }
                        Some(_) => self.lack("extinction rules with different results or counts"),
                    }
                }
                _ => self.lack("`when` rules other than a goal zone or the loss of a kind"),
            }
        }
        if let Some((letter, w, b, n)) = flag {
            self.set("flagPiece", letter);
            self.set("flagRegionWhite", self.bb_text(w));
            self.set("flagRegionBlack", self.bb_text(b));
            if n != 1 {
                self.set("flagPieceCount", n);
            }
        }
        if let Some((verdict, types, count, _)) = extinction {
            self.set(
                "extinctionValue",
                match verdict {
                    Verdict::Win => "win",
                    Verdict::Loss => "loss",
                    Verdict::Draw => "draw",
                },
            );
            self.set("extinctionPieceTypes", types);
            if count != 0 {
                self.set("extinctionPieceCount", count);
            }
        }
        if self.v.rules().extinction {
            self.lack(
                "extinction of royal pieces (Fairy-Stockfish's royal king is never captured)",
            );
        }
    }

    /// The `promotionLimit` entries of a clause's choices: `at most N`, or for `only to
    /// captured` the count the start position gives (Fairy-Stockfish counts a type's pieces
    /// on the board, look-alike `~` forms included, as the language does).
    fn promotion_limits(&mut self, pr: &Promotion, limits: &mut BTreeMap<char, usize>) {
        if !pr.only_captured && pr.at_most.is_none() {
            return;
        }
        let start = self.v.setup_for(&self.options);
        for &c in &pr.choices {
            let Some(&letter) = self.letters.get(&c) else {
                continue;
            };
            let n = pr.at_most.map_or_else(
                || {
                    start
                        .iter()
                        .filter(|pl| {
                            pl.side == Side::FIRST && self.letters.get(&pl.piece) == Some(&letter)
                        })
                        .count()
                },
                usize::from,
            );
            if limits.insert(letter, n).is_some_and(|old| old != n) {
                self.lack("two promotion limits for one piece");
            }
        }
    }

    /// Fairy-Stockfish never promotes on an en-passant capture: the language must not either
    /// where one can end in the promotion zone (the square a double step passes).
    fn en_passant_into_zone(&mut self, region: (Bb, Bb)) {
        let Some(m) = self.pawn.map(|k| self.moves_of[&k].clone()) else {
            return;
        };
        let Some(zone) = m.double_step.filter(|_| m.takes_ep && !m.ep_unpromoted) else {
            return;
        };
        let passed = |side: Side, up: i32| -> Bb {
            self.zone_bb(zone, side)
                .shifted_ranks(up, self.files, self.ranks)
        };
        if !(passed(Side::FIRST, 1) & region.1).is_empty()
            || !(passed(Side::SECOND, -1) & region.0).is_empty()
        {
            self.lack(
                "en-passant captures that promote (write `takes en-passant without promotion`)",
            );
        }
    }

    fn promotions(&mut self) {
        let v = self.v;
        let mut pawn_region: Option<(Bb, Bb)> = None;
        let mut shogi_region: Option<(Bb, Bb)> = None;
        let mut pawn_forced = None;
        let mut piece_forced = None;
        let mut choices: BTreeSet<char> = BTreeSet::new();
        let mut promoted: Vec<String> = Vec::new();
        let mut on_capture = None;
        // Per promoted letter: how many a side may have on the board before promoting to it.
        let mut limits: BTreeMap<char, usize> = BTreeMap::new();
        for k in self.type_of.clone().into_keys() {
            let p = v.piece(k);
            if p.letter.mark() != crate::model::Mark::None {
                continue;
            }
            let clauses: Vec<_> = p
                .promotions
                .iter()
                .filter(|pr| self.holds(&pr.options))
                .collect();
            for pr in clauses {
                if pr.in_place || pr.never_forced || pr.when_entering {
                    self.lack(format!(
                        "`{}`: promotion in place, on entering the zone or never forced",
                        p.name
                    ));
                }
                let region = (
                    self.zone_bb(pr.zone, Side::FIRST),
                    self.zone_bb(pr.zone, Side::SECOND),
                );
                if Some(k) == self.pawn && !pr.from_zone_too {
                    if pawn_region.is_some_and(|r| r != region) {
                        self.lack("promotion zones that differ by piece");
                    }
                    pawn_region = Some(region);
                    pawn_forced = Some(pr.forced);
                    self.promotion_limits(pr, &mut limits);
                    if pr.when_capturing {
                        self.lack("a pawn that promotes only when capturing");
                    }
                    for &c in &pr.choices {
                        match self.letters.get(&c) {
                            Some(&l) => {
                                choices.insert(l);
                            }
                            None => self.lack(format!(
                                "`{}`: promotion to a piece Fairy-Stockfish has no type for",
                                p.name
                            )),
                        }
                    }
                } else if pr.from_zone_too && pr.choices.len() == 1 && !pr.only_captured {
                    self.promotion_limits(pr, &mut limits);
                    let to = pr.choices[0];
                    if v.piece(to).letter.mark() != crate::model::Mark::Plus
                        || v.piece(to).demotes_to != Some(k)
                    {
                        self.lack(format!("`{}`: Shogi-style promotion to a piece that is not its `+` form demoting to it", p.name));
                        continue;
                    }
                    if shogi_region.is_some_and(|r| r != region) {
                        self.lack("promotion zones that differ by piece");
                    }
                    shogi_region = Some(region);
                    if piece_forced.is_some_and(|f| f != pr.forced)
                        || on_capture.is_some_and(|c| c != pr.when_capturing)
                    {
                        self.lack("Shogi-style promotions forced for some pieces only");
                    }
                    piece_forced = Some(pr.forced);
                    on_capture = Some(pr.when_capturing);
                    promoted.push(format!(
                        "{}:{}",
                        self.letters[&k],
                        self.letters.get(&to).copied().unwrap_or('?')
                    ));
                } else {
                    self.lack(format!("`{}`: this promotion (several choices from the zone, or to captured pieces only Shogi style)", p.name));
                }
            }
        }
        // Promoted `+` kinds that turn back (Kyoto Shogi) or promote otherwise.
        for k in PieceKind::all(v.pieces().len()) {
            let p = v.piece(k);
            if p.letter.mark() == crate::model::Mark::Plus
                && p.promotions.iter().any(|pr| self.holds(&pr.options))
            {
                self.lack(format!(
                    "`{}`: a promoted piece that promotes again or turns back",
                    p.name
                ));
            }
        }
        if let (Some(a), Some(b)) = (pawn_region, shogi_region) {
            if a != b {
                self.lack("promotion zones that differ by piece");
            }
        }
        let region = pawn_region
            .or(shogi_region)
            .unwrap_or((Bb::EMPTY, Bb::EMPTY));
        self.en_passant_into_zone(region);
        self.set("promotionRegionWhite", self.bb_text(region.0));
        self.set("promotionRegionBlack", self.bb_text(region.1));
        let choices: String = choices.into_iter().collect();
        self.set(
            "promotionPieceTypes",
            if choices.is_empty() {
                "-".to_string()
            } else {
                choices.clone()
            },
        );
        if let Some(f) = pawn_forced {
            self.set("mandatoryPawnPromotion", f);
        }
        if !promoted.is_empty() {
            self.set("promotedPieceType", promoted.join(" "));
            self.set("mandatoryPiecePromotion", piece_forced.unwrap_or(false));
            if on_capture == Some(true) {
                self.set("piecePromotionOnCapture", "true");
            }
        }
        if !limits.is_empty() {
            let text: Vec<String> = limits.iter().map(|(c, n)| format!("{c}:{n}")).collect();
            self.set("promotionLimit", text.join(" "));
        }
        self.immobility();
    }

    /// The squares where a kind (of a side) has no quiet move on an empty board, or no move at
    /// all.
    fn dead(&self, m: &Moves, side: Side, quiet_only: bool) -> Bb {
        let (files, ranks) = (self.files as i32, self.ranks as i32);
        let sign = if side == Side::FIRST { 1 } else { -1 };
        let lands = |c: &Canon, f: i32, r: i32| -> bool {
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
        let mut out = Bb::EMPTY;
        for r in 0..ranks {
            for f in 0..files {
                let any = m.quiet.iter().any(|c| lands(c, f, r))
                    || !quiet_only && m.capture.iter().any(|c| lands(c, f, r));
                if !any {
                    out = out | Bb::square(f as usize, r as usize);
                }
            }
        }
        out
    }

    /// `immobilityIllegal`: Fairy-Stockfish then forbids plain moves and drops onto squares
    /// where a piece has no quiet move; without it, it allows both. The language forces
    /// promotion where a promoting piece would have no move, keeps drops off such squares
    /// (unless `even where stuck`), and lets other pieces go anywhere.
    fn immobility(&mut self) {
        let v = self.v;
        let mut need_true = false;
        let mut need_false = false;
        let drops = v.rules().drops && self.holds(&v.rules().drops_options);
        let kinds: Vec<PieceKind> = self.type_of.keys().copied().collect();
        for k in kinds {
            let p = v.piece(k);
            let m = self.moves_of[&k].clone();
            let promotions: Vec<_> = p
                .promotions
                .iter()
                .filter(|pr| self.holds(&pr.options))
                .collect();
            for side in [Side::FIRST, Side::SECOND] {
                let quiet_dead = self.dead(&m, side, true).on_board(self.files, self.ranks);
                let all_dead = self.dead(&m, side, false).on_board(self.files, self.ranks);
                let mut zone = Bb::EMPTY;
                for pr in &promotions {
                    let z = self.zone_bb(pr.zone, side);
                    zone = zone | z;
                    if !pr.forced && !(all_dead & z).is_empty() {
                        need_true = true;
                    }
                }
                if !(quiet_dead & !zone)
                    .on_board(self.files, self.ranks)
                    .is_empty()
                    && !p.royal
                {
                    need_false = true;
                }
                if drops && !all_dead.is_empty() {
                    if p.drops.even_where_stuck {
                        need_false = true;
                    } else {
                        need_true = true;
                    }
                }
                if quiet_dead != all_dead && (need_true || drops) {
                    need_false = true;
                }
            }
        }
        if need_true && need_false {
            self.lack("pieces that may go where they have no move beside pieces that must promote there or may not be dropped there");
        }
        self.set("immobilityIllegal", need_true);
    }

    fn drops(&mut self) {
        let v = self.v;
        let t = match Tables::compile(v, &self.settings()) {
            Ok(t) => t,
            Err(e) => {
                self.lack(format!("the definition does not compile: {e}"));
                return;
            }
        };
        let g = v.geometry();
        let mut regions = [Bb::EMPTY, Bb::EMPTY];
        let mut no_doubled: Option<(char, u8)> = None;
        for k in self.type_of.clone().into_keys() {
            let p = v.piece(k);
            let d = &p.drops;
            if d.no_check {
                self.set("dropChecks", "false");
            }
            if d.no_mate {
                if !self.mating_drops_lose
                    || self.type_of.get(&k).map(String::as_str) != Some("shogiPawn")
                {
                    self.lack(format!("`{}`: a drop that may not mate (Fairy-Stockfish lets a shogi pawn's mate stand and lose)", p.name));
                } else {
                    self.set("shogiPawnDropMateIllegal", "true");
                }
            }
            if let Some(n) = d.max_per_file {
                if no_doubled.is_some() {
                    self.lack("several pieces limited per file");
                }
                no_doubled = Some((self.letters[&k], n));
            }
            if d.both_colours || d.unmoved {
                self.lack(format!(
                    "`{}`: drops on both colours or counted as unmoved",
                    p.name
                ));
            }
            if d.compulsory
                || d.only_flipping
                || d.only_next_to_own
                || d.on_top
                || d.apart
                || d.from_edge
                || d.first_in.is_some()
                || d.unlimited
                || !d.also_as.is_empty()
            {
                if d.only_flipping {
                    self.set("enclosingDrop", "reversi");
                } else if d.on_top {
                    self.set("enclosingDrop", "top");
                } else if d.apart {
                    self.set("enclosingDrop", "snort");
                } else if d.from_edge {
                    // Fairy-Stockfish's `anyside` lets drops from the north and east edges pass
                    // pieces in their way.
                    self.lack(format!(
                        "`{}`: drops from any edge (Fairy-Stockfish's `anyside` differs from the north and east)",
                        p.name
                    ));
                } else if d.only_next_to_own {
                    self.set("enclosingDrop", "ataxx");
                } else {
                    self.lack(format!("`{}`: this drop rule", p.name));
                }
            }
            for side in [Side::FIRST, Side::SECOND] {
                let squares = t.drop_squares(k, side);
                let b = squares.iter().fold(Bb::EMPTY, |b, sq| {
                    b | Bb::square(g.file(sq) as usize, g.rank(sq) as usize)
                });
                regions[side.index()] = regions[side.index()] | b;
            }
        }
        if let Some((l, n)) = no_doubled {
            self.set("dropNoDoubled", l);
            if n != 1 {
                self.set("dropNoDoubledCount", n);
            }
        }
        self.set("dropRegionWhite", self.bb_text(regions[0]));
        self.set("dropRegionBlack", self.bb_text(regions[1]));
        // Fairy-Stockfish keeps pawns off the first rank and the promotion zone unless told
        // otherwise: the flags that give the pawn the language's squares.
        let region_of = |side: Side| -> Bb { regions[side.index()] };
        let to_bb = |set: &crate::model::SquareSet| {
            set.iter().fold(Bb::EMPTY, |b, sq| {
                b | Bb::square(g.file(sq) as usize, g.rank(sq) as usize)
            })
        };
        let promotion = self.promotion_region();
        let mut first_rank = true;
        let mut zone_drops = true;
        let mut matched = true;
        let kinds: Vec<PieceKind> = self.type_of.keys().copied().collect();
        for k in kinds {
            if self.v.piece(k).drops.max_per_file.is_some() {
                continue;
            }
            let is_pawn = Some(k) == self.pawn;
            let own = [
                to_bb(t.drop_squares(k, Side::FIRST)),
                to_bb(t.drop_squares(k, Side::SECOND)),
            ];
            // Dropped even where stuck: Fairy-Stockfish's `immobilityIllegal = false` gives
            // every square of the region.
            let dead = if self.v.piece(k).drops.even_where_stuck {
                [Bb::EMPTY, Bb::EMPTY]
            } else {
                [
                    to_bb(t.dead_squares(k, Side::FIRST)),
                    to_bb(t.dead_squares(k, Side::SECOND)),
                ]
            };
            let expected = |first: bool, zone: bool| -> [Bb; 2] {
                let mut e = [
                    region_of(Side::FIRST) & !dead[0],
                    region_of(Side::SECOND) & !dead[1],
                ];
                if is_pawn {
                    if !first {
                        e[0] = e[0] & !Bb::rank(0);
                        e[1] = e[1] & !Bb::rank(self.ranks - 1);
                    }
                    if !zone {
                        e[0] = e[0] & !promotion.0;
                        e[1] = e[1] & !promotion.1;
                    }
                }
                [
                    e[0].on_board(self.files, self.ranks),
                    e[1].on_board(self.files, self.ranks),
                ]
            };
            if is_pawn {
                let found = [(true, true), (false, true), (true, false), (false, false)]
                    .into_iter()
                    .find(|&(f, z)| expected(f, z) == own);
                match found {
                    Some((f, z)) => {
                        first_rank = f;
                        zone_drops = z;
                    }
                    None => matched = false,
                }
            } else if expected(true, true) != own {
                matched = false;
                self.lack(format!("`{}`: drop squares of its own", v.piece(k).name));
            }
        }
        if !matched && self.pawn.is_some() {
            self.lack("pawn drops on squares Fairy-Stockfish's rules for pawn drops do not give");
        }
        self.set("firstRankPawnDrops", first_rank);
        self.set("promotionZonePawnDrops", zone_drops);
    }

    /// The pawn's promotion zone, for each side.
    fn promotion_region(&self) -> (Bb, Bb) {
        let Some(pawn) = self.pawn else {
            return (Bb::EMPTY, Bb::EMPTY);
        };
        let p = self.v.piece(pawn);
        p.promotions
            .iter()
            .find(|pr| self.holds(&pr.options))
            .map_or((Bb::EMPTY, Bb::EMPTY), |pr| {
                (
                    self.zone_bb(pr.zone, Side::FIRST),
                    self.zone_bb(pr.zone, Side::SECOND),
                )
            })
    }

    fn castling(&mut self) {
        let v = self.v;
        let g = v.geometry();
        let castlings: Vec<_> = v
            .rules()
            .castlings
            .iter()
            .filter(|c| self.holds(&c.options))
            .collect();
        if castlings.is_empty() {
            self.set("castling", "false");
            return;
        }
        let mut kingside = None;
        let mut queenside = None;
        let mut rank = None;
        let mut rook_kinds = BTreeSet::new();
        let mut king_kind = None;
        let mut wins = BTreeSet::new();
        for c in &castlings {
            if c.wins {
                let east = g.file(c.partner_from) > g.file(c.king_from);
                wins.insert(match (c.side == Side::FIRST, east) {
                    (true, true) => 'K',
                    (true, false) => 'Q',
                    (false, true) => 'k',
                    (false, false) => 'q',
                });
            }
            let (kf, kt, rf, rt) = (
                g.file(c.king_from),
                g.file(c.king_to),
                g.file(c.partner_from),
                g.file(c.partner_to),
            );
            let r = if c.side == Side::FIRST {
                g.rank(c.king_from)
            } else {
                i32::from(g.height) - 1 - g.rank(c.king_from)
            };
            if rank.is_some_and(|x| x != r) || g.rank(c.king_from) != g.rank(c.partner_from) {
                self.lack("castling on several ranks");
            }
            rank = Some(r);
            let (wing, rook_to) = if rf > kf {
                (&mut kingside, kt - 1)
            } else {
                (&mut queenside, kt + 1)
            };
            if rt != rook_to {
                self.lack("castling whose partner does not land next to the king, on its far side");
            }
            if wing.is_some_and(|x| x != kt) {
                self.lack("several castlings on one wing");
            }
            *wing = Some(kt);
            rook_kinds.insert(self.letters.get(&c.partner).copied().unwrap_or('?'));
            if king_kind.is_some_and(|k| k != c.king) {
                self.lack("castling by several kinds of king");
            }
            king_kind = Some(c.king);
        }
        let file = |f: i32| (b'a' + f as u8) as char;
        if let Some(k) = kingside {
            self.set("castlingKingsideFile", file(k));
        }
        if let Some(q) = queenside {
            self.set("castlingQueensideFile", file(q));
        }
        if let Some(r) = rank {
            if r != 0 {
                self.set("castlingRank", r + 1);
            }
        }
        if let Some(k) = king_kind {
            if let Some(&l) = self.letters.get(&k) {
                self.set("castlingKingPiece", l);
            }
        }
        self.set(
            "castlingRookPieces",
            rook_kinds.into_iter().collect::<String>(),
        );
        if !wins.is_empty() {
            // Fairy-Stockfish's `KQkq` order.
            let order = |c: &char| "KQkq".find(*c);
            let mut wins: Vec<char> = wins.into_iter().collect();
            wins.sort_by_key(order);
            self.set("castlingWins", wins.into_iter().collect::<String>());
        }
    }

    /// The start position, as Rulebook writes it (Fairy-Stockfish's FEN).
    fn start(&mut self) {
        let tables = match Tables::compile(self.v, &self.settings()) {
            Ok(t) => t,
            Err(e) => {
                self.lack(format!("the definition does not compile: {e}"));
                return;
            }
        };
        let pos = Position::new(tables);
        let mut fen = pos.fen();
        if let Some(n) = self.checks {
            // The checks each side still needs, after the en-passant field.
            let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
            if fields.len() >= 4 && !fields[4.min(fields.len() - 1)].contains('+') {
                fields.insert(4, format!("{n}+{n}"));
            }
            fen = fields.join(" ");
        }
        self.set("startFen", fen);
    }

    fn text(&self) -> String {
        let mut out = String::new();
        let name: String = self
            .v
            .name()
            .to_lowercase()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join("-");
        let _ = writeln!(
            out,
            "# {}, exported by Rulebook from its definition.",
            self.v.name()
        );
        let name = if super::builtin::is_builtin_name(&name) {
            // Fairy-Stockfish skips a section named as one of its own variants.
            let _ = writeln!(
                out,
                "# Renamed: Fairy-Stockfish has a built-in variant `{name}`."
            );
            format!("{name}-rulebook")
        } else {
            name
        };
        let _ = writeln!(out, "[{name}]");
        for l in &self.lines {
            let _ = writeln!(out, "{l}");
        }
        out
    }
}

/// Betza atoms for plain moves of one mode, in Fairy-Stockfish's reading.
fn atoms_for(set: &BTreeSet<Canon>) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    // Leaps and slides grouped by atom, with the direction selectors of their vectors.
    let mut groups: BTreeMap<(String, String), Vec<Vector>> = BTreeMap::new();
    for c in set {
        let (prefix, atom, v): (String, String, Vector) = match c {
            Canon::Leap(v) => (String::new(), leaper(*v)?, *v),
            Canon::Slide(v, max) => {
                let base = rider(*v)?;
                let atom = match max {
                    None if base == "N" => "NN".to_string(),
                    None => base,
                    Some(m) if *m <= 9 => format!("{base}{m}"),
                    Some(m) => return Err(format!("a slide of at most {m} squares")),
                };
                (String::new(), atom, *v)
            }
            Canon::Hop(v, max, just) => {
                let base = rider(*v)?;
                if base == "N" {
                    return Err("hops along knight lines".into());
                }
                let atom = match (max, just) {
                    (None, _) => base,
                    (Some(m), false) if *m <= 9 => format!("{base}{m}"),
                    _ => {
                        return Err(
                            "a hop limited in distance that lands just beyond its screen".into(),
                        )
                    }
                };
                ((if *just { "g" } else { "p" }).to_string(), atom, *v)
            }
            Canon::Lame(path, to) => {
                if *path != betza::lame_path(*to) {
                    return Err("a path Betza's `n` does not take".into());
                }
                ("n".to_string(), leaper(*to)?, *to)
            }
        };
        groups.entry((prefix, atom)).or_default().push(v);
    }
    for ((prefix, atom), vs) in groups {
        let letter = atom.chars().next().unwrap_or('W');
        let (a, b) = match letter {
            'R' | 'W' => (1, 0),
            'B' | 'F' => (1, 1),
            _ => crate::model::betza::leap(letter).ok_or("no atom")?,
        };
        let all = crate::model::betza::all_vectors((a, b));
        if all.iter().all(|v| vs.contains(v)) {
            out.push(format!("{prefix}{atom}"));
            continue;
        }
        let mut dirs = String::new();
        for v in &vs {
            dirs.push_str(&selector((a, b), *v).ok_or("a direction Betza cannot select")?);
        }
        out.push(format!("{prefix}{dirs}{atom}"));
    }
    Ok(out)
}

/// The leaper atom of a vector.
fn leaper(v: Vector) -> Result<String, String> {
    let (x, y) = (v.0.unsigned_abs(), v.1.unsigned_abs());
    let key = (x.max(y), x.min(y));
    let atom = match key {
        (1, 0) => 'W',
        (1, 1) => 'F',
        (2, 0) => 'D',
        (2, 1) => 'N',
        (2, 2) => 'A',
        (3, 0) => 'H',
        (3, 1) => 'C',
        (3, 2) => 'Z',
        (3, 3) => 'G',
        _ => {
            return Err(format!(
                "a leap to ({},{}), which has no Betza atom",
                v.0, v.1
            ))
        }
    };
    Ok(atom.to_string())
}

/// The rider atom of a vector: `R`, `B` or the nightrider's `N`.
fn rider(v: Vector) -> Result<String, String> {
    let (x, y) = (v.0.unsigned_abs(), v.1.unsigned_abs());
    match (x.max(y), x.min(y)) {
        (1, 0) => Ok("R".into()),
        (1, 1) => Ok("B".into()),
        (2, 1) => Ok("N".into()),
        _ => Err(format!(
            "a slide along ({},{}), which Fairy-Stockfish has no rider for",
            v.0, v.1
        )),
    }
}

/// Direction letters that select exactly one vector of an atom, as Fairy-Stockfish pairs
/// them: single letters on orthogonal atoms, an ordered pair (`rf`, `fr`) on the others.
fn selector(atom: (i8, i8), v: Vector) -> Option<String> {
    if atom.1 == 0 {
        return Some(
            match (v.0.signum(), v.1.signum()) {
                (0, 1) => "f",
                (0, -1) => "b",
                (1, 0) => "r",
                (-1, 0) => "l",
                _ => return None,
            }
            .to_string(),
        );
    }
    // The eight orientations of the atom, each with a pair only it answers to.
    let (a, b) = (atom.0, atom.1);
    let oriented = [
        ((b, a), "rf"),
        ((-b, -a), "lb"),
        ((a, -b), "br"),
        ((-a, b), "fl"),
        ((a, b), "fr"),
        ((-a, -b), "bl"),
        ((b, -a), "rb"),
        ((-b, a), "lf"),
    ];
    oriented
        .iter()
        .find(|(o, _)| *o == v)
        .map(|(_, s)| s.to_string())
}
