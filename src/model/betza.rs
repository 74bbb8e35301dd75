//! Betza's notation for piece moves, both ways: the vocabulary the definition reader uses
//! (`check::betza` turns atoms into legs) and a writer that turns a compiled piece back into
//! Betza, for GUIs that take a piece's moves in it (XBoard's `piece` command) and for people.
//!
//! The writer puts down what Betza can say: leapers, riders with a range, hoppers (`p`, `g`),
//! lame leapers (`nN`, `nA`, `nD`), modes (`m`, `c`), directions, a first move (`i`), en
//! passant (`e`) and castling (`O` with the king's distance); the last three are XBoard's
//! extensions, which the definition reader does not take, as are XBoard's legs (`mafsmafW`:
//! a step to an empty square, then one turned from it, and so on), in which the XBoard
//! dialect writes a path of steps that `n` cannot say. Conditions Betza has no word for
//! (zones, checks, lines, which pieces may be taken) are left out, so that what is written
//! allows at least the piece's moves; moves it cannot write at all (bent paths, shots,
//! teleports, borrowed moves) are left out, and the result says it does not cover them. It
//! writes the reader's dialect or XBoard's, which orders modifiers differently.

use super::{Dirs, LegKind, Mode, Pattern, PieceKind, Tables};

/// The leap an atom letter stands for, `(long, short)`.
pub(crate) fn leap(atom: char) -> Option<(i8, i8)> {
    Some(match atom {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

/// Every turn and reflection of a leap, in the side's own frame.
pub(crate) fn all_vectors((a, b): (i8, i8)) -> Vec<(i8, i8)> {
    let mut out = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let v = (x * sx, y * sy);
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// Whether vector `(x, y)` is selected by one direction group (`f`, `fl`, `ff`, `fs`, ...).
pub(crate) fn selected(group: &str, (x, y): (i8, i8), oblique: bool) -> bool {
    let (ax, ay) = (x.abs(), y.abs());
    match group {
        "f" => y > 0,
        "b" => y < 0,
        "l" => x < 0,
        "r" => x > 0,
        "s" => x != 0 && (!oblique || ax > ay || y == 0),
        "v" => y != 0 && (!oblique || ay > ax || x == 0),
        "ff" => y > 0 && ay > ax,
        "bb" => y < 0 && ay > ax,
        "ll" => x < 0 && ax > ay,
        "rr" => x > 0 && ax > ay,
        "fs" | "sf" => y > 0 && ax > ay,
        "bs" | "sb" => y < 0 && ax > ay,
        "fl" | "lf" => y > 0 && x < 0,
        "fr" | "rf" => y > 0 && x > 0,
        "bl" | "lb" => y < 0 && x < 0,
        "br" | "rb" => y < 0 && x > 0,
        _ => false,
    }
}

/// Splits direction letters into groups: pairs that name one direction on this kind of atom,
/// single letters otherwise.
pub(crate) fn groups(dirs: &str, diagonal: bool, oblique: bool) -> Vec<String> {
    let chars: Vec<char> = dirs.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if i + 1 < chars.len() {
            let pair: String = chars[i..i + 2].iter().collect();
            let vertical = |c: char| c == 'f' || c == 'b';
            let horizontal = |c: char| c == 'l' || c == 'r';
            let is_pair = (diagonal || oblique)
                && ((vertical(chars[i]) && horizontal(chars[i + 1]))
                    || (horizontal(chars[i]) && vertical(chars[i + 1])))
                || oblique && (chars[i] == chars[i + 1] || pair == "fs" || pair == "bs");
            if is_pair {
                out.push(pair);
                i += 2;
                continue;
            }
        }
        out.push(chars[i].to_string());
        i += 1;
    }
    out
}

/// A piece's moves in Betza.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The notation (empty for a piece with no move Betza can write).
    pub text: String,
    /// Whether it says exactly how the piece moves; otherwise it allows more, or leaves out
    /// moves it has no word for.
    pub exact: bool,
    /// Whether every move the piece has is among those written (it may allow more): false
    /// when moves Betza has no word for are left out.
    pub covers: bool,
}

/// Whose Betza to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// What the definition reader takes: modes before directions (`mfW`), a rider doubled
    /// (`NN`).
    Rulebook,
    /// XBoard's: directions before modes (`fmW`, `ifmnD`, `fceF`), a range after the atom
    /// with `0` for no limit (`N0`).
    XBoard,
}

/// A displacement in the side's own frame: files, ranks.
type Vector = (i8, i8);

/// Vectors with what they are a turn of, or the atom they belong to.
type Grouped<T> = Vec<(T, Vec<Vector>)>;

/// What an atom is, apart from its mode and directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Kind {
    /// Only as the piece's first move (`i`).
    initial: bool,
    /// `e`: also captures en passant.
    en_passant: bool,
    /// `p` or `g` (a hopper), or neither.
    hop: Option<char>,
    /// `n`: lame, through the squares between.
    lame: bool,
    /// A rider (the leap repeated).
    rider: bool,
    /// The leap, `(long, short)`.
    base: (i8, i8),
    /// The most repetitions of a rider.
    range: Option<u8>,
    /// XBoard's multi-leg form (`mafsW`): after a first step of `base` (`W` or `F`), each
    /// further step, to an empty square but for the last, turned from the step before.
    turns: Option<Turns>,
}

/// The turns of a path of steps after its first, each one of [`TURNS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Turns {
    len: u8,
    turn: [u8; MAX_TURNS],
}

/// The most steps after the first a path written with XBoard's legs may have.
const MAX_TURNS: usize = 7;

/// XBoard's directions for a leg relative to the leg before, clockwise from straight on by
/// eighths of a turn, then the pairs that turn either way (`fs`, `s`, `bs`).
const TURNS: [&str; 11] = ["f", "fr", "r", "br", "b", "bl", "l", "fl", "fs", "s", "bs"];

/// The vectors one kind of atom takes, in each mode: `[both, move only, capture only]`.
type Modes = [Vec<(i8, i8)>; 3];

/// The piece `kind`'s moves under the options `tables` was compiled with, in the Betza the
/// definition reader takes.
pub fn write(tables: &Tables, kind: PieceKind) -> Written {
    write_as(tables, kind, Dialect::Rulebook)
}

/// The piece `kind`'s moves under the options `tables` was compiled with, in `dialect`.
pub fn write_as(tables: &Tables, kind: PieceKind, dialect: Dialect) -> Written {
    write_selected(tables, kind, dialect, None, false)
}

/// The moves of the patterns of `kind` in force that `keep` selects, in the Betza the
/// definition reader takes: a part of a piece (its moves in one zone, say). The caller states
/// the patterns' zone guards in its own words, so they do not make it inexact; the piece's
/// rules that are not patterns (teleports, confinements, castling) are not written.
pub fn write_patterns(
    tables: &Tables,
    kind: PieceKind,
    keep: &dyn Fn(&Pattern) -> bool,
) -> Written {
    write_selected(tables, kind, Dialect::Rulebook, Some(keep), false)
}

/// Like [`write_as`], but a piece that borrows movement (`borrow`) is written with every move
/// it could borrow as well: its own moves and every kind's own moves, in the side's own
/// frame, without first-move and en-passant marks (those are the lender's). What is written
/// then allows more than the piece can play in a given position, and covers its moves: what a
/// GUI that checks moves by Betza (XBoard's `piece` command) needs.
pub fn write_covering(tables: &Tables, kind: PieceKind, dialect: Dialect) -> Written {
    write_selected(tables, kind, dialect, None, true)
}

/// [`write_as`] for the whole piece (`part` is `None`), or for the patterns `part` selects;
/// with `lent`, a borrowing piece's lenders' moves too ([`write_covering`]).
fn write_selected(
    tables: &Tables,
    kind: PieceKind,
    dialect: Dialect,
    part: Option<&dyn Fn(&Pattern) -> bool>,
    lent: bool,
) -> Written {
    let def = &tables.variant().pieces()[kind.index()];
    let whole = part.is_none();
    let lenders = lent && whole && def.borrows;
    let mut covers = !whole || (def.teleports.is_empty() && (!def.borrows || lenders));
    let mut exact = !whole
        || (covers
            && !lenders
            && def.confinements.is_empty()
            && def.within.is_empty()
            && def.entries.is_empty());
    let mut found: Vec<(Kind, Modes)> = Vec::new();
    let own = def.patterns.iter().map(|p| (p, false));
    let borrowed = tables
        .variant()
        .pieces()
        .iter()
        .filter(|_| lenders)
        .flat_map(|other| other.patterns.iter().map(|p| (p, true)));
    for (p, borrowed) in own.chain(borrowed).filter(|(p, borrowed)| {
        tables.guards_hold(&p.options) && (*borrowed || part.is_none_or(|keep| keep(p)))
    }) {
        let unzoned;
        let p = if whole {
            p
        } else {
            unzoned = Pattern {
                zones: Vec::new(),
                ..p.clone()
            };
            &unzoned
        };
        let Some((mut atoms, all)) = pattern_atoms(p, dialect) else {
            exact = false;
            covers = false;
            continue;
        };
        if borrowed {
            for (k, _) in &mut atoms {
                k.initial = false;
                k.en_passant = false;
            }
        }
        exact &= all;
        let mode = match p.mode {
            Mode::Both => 0,
            Mode::MoveOnly => 1,
            Mode::CaptureOnly => 2,
        };
        for (k, vs) in atoms {
            let i = match found.iter().position(|(f, _)| *f == k) {
                Some(i) => i,
                None => {
                    found.push((k, Default::default()));
                    found.len() - 1
                }
            };
            for v in vs {
                if !found[i].1[mode].contains(&v) {
                    found[i].1[mode].push(v);
                }
            }
        }
    }
    let mut atoms: Vec<(String, String, (i8, i8), Kind)> = Vec::new();
    for (k, mut modes) in found {
        // A move that both moves and captures needs no `m` or `c`.
        let both: Vec<(i8, i8)> = modes[1]
            .iter()
            .copied()
            .filter(|v| modes[2].contains(v))
            .collect();
        modes[0].extend(both);
        let [b, m, c] = &mut modes;
        m.retain(|v| !b.contains(v));
        c.retain(|v| !b.contains(v));
        for (vs, mode) in [(&modes[0], ""), (&modes[1], "m"), (&modes[2], "c")] {
            if vs.is_empty() {
                continue;
            }
            let dirs = directions(k.base, vs);
            let mut modes = String::from(mode);
            if k.en_passant {
                modes.push('e');
            }
            modes.extend(k.hop);
            match (k.lame, dialect) {
                (false, _) => {}
                (true, Dialect::Rulebook) => modes.push('n'),
                (true, Dialect::XBoard) => match xboard_lame(k.base) {
                    Some(alone) => {
                        modes.push('n');
                        exact &= alone;
                    }
                    // Free, the leap allows more, but never less.
                    None => exact = false,
                },
            }
            atoms.push((modes, dirs, k.base, k));
        }
    }
    let mut text = String::new();
    let mut done = vec![false; atoms.len()];
    for i in 0..atoms.len() {
        if done[i] {
            continue;
        }
        let (modes, dirs, base, k) = &atoms[i];
        let mut letter = letter_of(*base).unwrap_or('?');
        // `WF` is `K`, `RB` is `Q`: joined when nothing else tells them apart.
        if dirs.is_empty() && !k.lame && k.turns.is_none() && (*base == (1, 0) || *base == (1, 1)) {
            let other = if *base == (1, 0) { (1, 1) } else { (1, 0) };
            if let Some(j) = (i + 1..atoms.len()).find(|&j| {
                let (p2, d2, b2, k2) = &atoms[j];
                !done[j]
                    && p2 == modes
                    && d2.is_empty()
                    && *b2 == other
                    && Kind { base: other, ..*k } == *k2
            }) {
                done[j] = true;
                letter = 'K';
            }
        }
        let range = k.range.map(|r| r.to_string()).unwrap_or_default();
        let word = match (k.rider, letter, dialect) {
            (false, l, _) => l.to_string(),
            (true, 'W', _) => format!("R{range}"),
            (true, 'F', _) => format!("B{range}"),
            (true, 'K', _) => format!("Q{range}"),
            (true, l, Dialect::Rulebook) => format!("{l}{l}{range}"),
            (true, l, Dialect::XBoard) if range.is_empty() => format!("{l}0"),
            (true, l, Dialect::XBoard) => format!("{l}{range}"),
        };
        let initial = if k.initial { "i" } else { "" };
        text.push_str(&match (dialect, k.turns) {
            (Dialect::Rulebook, _) => format!("{initial}{modes}{dirs}{word}"),
            (Dialect::XBoard, None) => format!("{initial}{dirs}{modes}{word}"),
            (Dialect::XBoard, Some(t)) => {
                let mut legs = format!("{initial}{dirs}");
                for (i, &turn) in t.turn[..usize::from(t.len)].iter().enumerate() {
                    legs.push_str("ma");
                    legs.push_str(TURNS[usize::from(turn)]);
                    if i + 1 == usize::from(t.len) {
                        legs.push_str(modes);
                    }
                }
                format!("{legs}{word}")
            }
        });
    }
    let g = tables.geometry();
    let mut castles: Vec<i32> = Vec::new();
    for c in tables.variant().rules().castlings.iter() {
        if whole && c.king == kind && tables.guards_hold(&c.options) && c.side.raw() == 0 {
            let d = (g.file(c.king_to) - g.file(c.king_from)).abs();
            if g.rank(c.king_to) != g.rank(c.king_from) || d < 2 {
                exact = false;
                covers = false;
            } else if !castles.contains(&d) {
                castles.push(d);
            }
        }
    }
    for d in castles {
        text.push_str(&format!("O{d}"));
    }
    Written {
        text,
        exact,
        covers,
    }
}

/// The atoms of one pattern with the vectors each takes, and whether they say all of it;
/// `None` when Betza cannot write its path.
fn pattern_atoms(p: &Pattern, dialect: Dialect) -> Option<(Grouped<Kind>, bool)> {
    // Betza's leg notation for a lion's double move is not written here.
    let back = p
        .legs
        .iter()
        .any(|l| l.arms.iter().any(|a| a.dirs == Dirs::Reverse));
    if p.shot || p.continuing.is_some() || p.on_the_way.is_some() || back {
        return None;
    }
    let mut all = p.zones.is_empty()
        && p.unmoved != Some(false)
        && p.in_check.is_none()
        && p.capturing.is_none()
        && p.into.is_empty()
        && p.holding.is_none()
        && p.crossing.is_empty()
        && p.along.is_none()
        && p.avoiding.is_empty()
        && p.screens.is_none()
        && p.not_protected.is_none();
    let plain = |leg: &super::Leg| {
        leg.arms.len() == 1 && leg.arms[0].zone.is_none() && !leg.arms[0].inward && !leg.bent
    };
    if !p.legs.iter().all(plain) {
        return None;
    }
    let kind = |base, rider, hop, lame, range| Kind {
        initial: p.unmoved == Some(true),
        en_passant: p.takes_en_passant,
        hop,
        lame,
        rider,
        base,
        range,
        turns: None,
    };
    let Dirs::Vectors(first) = &p.legs[0].arms[0].dirs else {
        return None;
    };
    let atoms = match p.legs.as_slice() {
        [leg] => {
            let (hop, rider, range) = match leg.kind {
                LegKind::Step => (None, false, None),
                LegKind::Slide { max } => (None, true, max),
                LegKind::Hop { max, just_beyond } => {
                    (Some(if just_beyond { 'g' } else { 'p' }), true, max)
                }
            };
            let mut atoms = Vec::new();
            for (base, vs) in by_leap(first)? {
                letter_of(base)?;
                atoms.push((kind(base, rider, hop, false, range), vs));
            }
            atoms
        }
        legs if legs.len() >= 2 && legs.iter().all(|l| l.kind == LegKind::Step) => {
            // Each way through: the steps one after the other.
            let mut ways: Vec<Vec<Vector>> = first.iter().map(|&u| vec![u]).collect();
            for leg in &legs[1..] {
                let mut longer = Vec::new();
                for way in &ways {
                    let u = *way.last().expect("a way has a step");
                    let nexts = match &leg.arms[0].dirs {
                        Dirs::Vectors(vs) => vs.clone(),
                        Dirs::Same => vec![u],
                        Dirs::Outward if u.0 == 0 || u.1 == 0 => {
                            let (px, py) = (u.1, u.0);
                            vec![(u.0 + px, u.1 + py), (u.0 - px, u.1 - py)]
                        }
                        Dirs::Outward => vec![(u.0, 0), (0, u.1)],
                        Dirs::Reverse => vec![(-u.0, -u.1)],
                    };
                    for w in nexts {
                        let mut way = way.clone();
                        way.push(w);
                        longer.push(way);
                    }
                }
                ways = longer;
            }
            let lame = lame_atoms(&ways, &kind);
            // XBoard's `n` tests one square; where that is not the path, its legs say it.
            let told = |(atoms, exact): &(Grouped<Kind>, bool)| {
                *exact
                    && atoms
                        .iter()
                        .all(|(k, _)| !k.lame || xboard_lame(k.base) == Some(true))
            };
            let (atoms, exact) = match (dialect, lame) {
                (Dialect::XBoard, lame) if !lame.as_ref().is_some_and(told) => {
                    match xboard_legs(&ways, &kind) {
                        Some(atoms) => (atoms, true),
                        None => lame?,
                    }
                }
                (_, lame) => lame?,
            };
            all &= exact;
            atoms
        }
        _ => return None,
    };
    Some((atoms, all))
}

/// A path of steps as lame atoms, and whether they say it exactly: `nD`, `nH`, `nA`, `nG` (a
/// step repeated the same way), `nN` and `nZ` (every orthogonal step, then one or two steps
/// along the same outward diagonal: the Xiangqi horse and the Janggi elephant). Any other path
/// is written as the leaps to where it ends, which allows more (the squares passed are not
/// checked); `None` when an end is no leap Betza has a letter for.
fn lame_atoms(
    ways: &[Vec<Vector>],
    kind: &dyn Fn(Vector, bool, Option<char>, bool, Option<u8>) -> Kind,
) -> Option<(Grouped<Kind>, bool)> {
    let unit = |(x, y): (i8, i8)| x.abs() <= 1 && y.abs() <= 1 && (x, y) != (0, 0);
    let end = |way: &[Vector]| -> Vector {
        way.iter()
            .fold((0, 0), |(x, y), &(dx, dy)| (x + dx, y + dy))
    };
    let length = ways.first()?.len();
    let mut out: Grouped<Kind> = Vec::new();
    let mut add = |k: Kind, v: Vector| match out.iter_mut().find(|(o, _)| *o == k) {
        Some((_, vs)) => {
            if !vs.contains(&v) {
                vs.push(v);
            }
        }
        None => out.push((k, vec![v])),
    };
    // A path of more steps than a leap's coordinate holds is neither: its leaps say it.
    if let Ok(steps) = i8::try_from(length) {
        if ways
            .iter()
            .all(|w| unit(w[0]) && w.iter().all(|&s| s == w[0]))
        {
            for w in ways {
                let u = w[0];
                let base = if u.0 == 0 || u.1 == 0 {
                    (steps, 0)
                } else {
                    (steps, steps)
                };
                letter_of(base)?;
                add(kind(base, false, None, true, None), end(w));
            }
            return Some((out, true));
        }
        // Every orthogonal step, then `steps - 1` steps along each outward diagonal.
        let mut horse: Vec<Vec<Vector>> = Vec::new();
        for u in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
            let (px, py) = (u.1, u.0);
            for w in [(u.0 + px, u.1 + py), (u.0 - px, u.1 - py)] {
                let mut way = vec![u];
                way.extend(std::iter::repeat_n(w, length - 1));
                horse.push(way);
            }
        }
        let base = (steps, steps - 1);
        if ways.len() == horse.len()
            && horse.iter().all(|h| ways.contains(h))
            && letter_of(base).is_some()
        {
            for h in &horse {
                add(kind(base, false, None, true, None), end(h));
            }
            return Some((out, true));
        }
    }
    for w in ways {
        let v = end(w);
        let (a, b) = (v.0.abs().max(v.1.abs()), v.0.abs().min(v.1.abs()));
        letter_of((a, b))?;
        add(kind((a, b), false, None, false, None), v);
    }
    Some((out, false))
}

/// How XBoard reads the lame atom of `base` (a leap `(long, short)` made by [`lame_atoms`]: a
/// step repeated, or an orthogonal step and then diagonal ones): it tests one square only,
/// half the leap rounded toward zero, which need not be one the path passes (for `nZ`,
/// the Janggi elephant, it is not). `Some(alone)` when that square is on the path, so that
/// XBoard allows at least the moves, `alone` when it is the only square passed; `None` when
/// XBoard's `n` would refuse moves the path allows.
fn xboard_lame((long, short): (i8, i8)) -> Option<bool> {
    let path: Vec<Vector> = if short == 0 || short == long {
        (1..long).map(|k| (k, k * short / long)).collect()
    } else {
        (1..long).map(|k| (k, k - 1)).collect()
    };
    path.contains(&(long / 2, short / 2))
        .then_some(path.len() == 1)
}

/// A path of steps in XBoard's legs (`mafsW`, `mafmafW`): one atom for each first step
/// (`W` or `F`) and turns after it, the turns that mirror each other joined where only one
/// leg turns (`fs`, `s`, `bs`); `None` when a path is too long or a step is not to a
/// neighbour.
fn xboard_legs(
    ways: &[Vec<Vector>],
    kind: &dyn Fn(Vector, bool, Option<char>, bool, Option<u8>) -> Kind,
) -> Option<Grouped<Kind>> {
    let eighth = |(x, y): Vector| {
        super::KING_STEPS
            .iter()
            .position(|&r| r == (i32::from(x), i32::from(y)))
    };
    let mut out: Grouped<Kind> = Vec::new();
    for way in ways {
        let (&first, rest) = way.split_first()?;
        if rest.len() > MAX_TURNS || rest.is_empty() {
            return None;
        }
        let mut turns = Turns {
            len: u8::try_from(rest.len()).ok()?,
            turn: [0; MAX_TURNS],
        };
        let mut before = eighth(first)?;
        for (i, &step) in rest.iter().enumerate() {
            let now = eighth(step)?;
            turns.turn[i] = u8::try_from((now + 8 - before) % 8).ok()?;
            before = now;
        }
        let base = if first.0 == 0 || first.1 == 0 {
            (1, 0)
        } else {
            (1, 1)
        };
        let k = Kind {
            turns: Some(turns),
            ..kind(base, false, None, false, None)
        };
        match out.iter_mut().find(|(o, _)| *o == k) {
            Some((_, vs)) => {
                if !vs.contains(&first) {
                    vs.push(first);
                }
            }
            None => out.push((k, vec![first])),
        }
    }
    // A path and its mirror image from the same first steps, turning at one leg only: the
    // pair of turns in one word.
    let mut joined: Grouped<Kind> = Vec::new();
    let mut used = vec![false; out.len()];
    for i in 0..out.len() {
        if used[i] {
            continue;
        }
        used[i] = true;
        let (k, vs) = &out[i];
        let t = k.turns.expect("every atom here has legs");
        let bends: Vec<usize> = (0..usize::from(t.len))
            .filter(|&l| t.turn[l] % 4 != 0)
            .collect();
        let same =
            |a: &[Vector], b: &[Vector]| a.len() == b.len() && a.iter().all(|v| b.contains(v));
        if let [l] = bends[..] {
            let mut mirror = t;
            mirror.turn[l] = 8 - t.turn[l];
            let twin = (0..out.len()).find(|&j| {
                !used[j]
                    && out[j].0
                        == Kind {
                            turns: Some(mirror),
                            ..*k
                        }
                    && same(&out[j].1, vs)
            });
            if let Some(j) = twin {
                used[j] = true;
                let mut both = t;
                both.turn[l] = 7 + t.turn[l].min(mirror.turn[l]);
                joined.push((
                    Kind {
                        turns: Some(both),
                        ..*k
                    },
                    vs.clone(),
                ));
                continue;
            }
        }
        joined.push((*k, vs.clone()));
    }
    Some(joined)
}

/// Splits vectors by the leap they are turns of, in order of first appearance.
fn by_leap(vs: &[Vector]) -> Option<Grouped<Vector>> {
    let mut out: Grouped<Vector> = Vec::new();
    for &(x, y) in vs {
        let (a, b) = (
            x.unsigned_abs().max(y.unsigned_abs()),
            x.unsigned_abs().min(y.unsigned_abs()),
        );
        let base = (i8::try_from(a).ok()?, i8::try_from(b).ok()?);
        match out.iter_mut().find(|(l, _)| *l == base) {
            Some((_, chosen)) => chosen.push((x, y)),
            None => out.push((base, vec![(x, y)])),
        }
    }
    Some(out)
}

/// The atom letter of a leap.
fn letter_of(base: (i8, i8)) -> Option<char> {
    "WFDNAHCZG".chars().find(|&c| leap(c) == Some(base))
}

/// The shortest direction letters that select exactly `chosen` among the turns of `base`;
/// none when they are all of them, or when no letters select exactly them (then all are
/// written, which allows more).
fn directions(base: (i8, i8), chosen: &[(i8, i8)]) -> String {
    let every = all_vectors(base);
    let mut want: Vec<(i8, i8)> = every
        .iter()
        .copied()
        .filter(|v| chosen.contains(v))
        .collect();
    want.sort_unstable();
    if want.len() == every.len() {
        return String::new();
    }
    let diagonal = base.0 == base.1;
    let oblique = base.0 != base.1 && base.1 != 0;
    let mut candidates = vec!["f", "b", "l", "r", "s", "v"];
    if diagonal || oblique {
        candidates.extend(["fl", "fr", "bl", "br"]);
    }
    if oblique {
        candidates.extend(["ff", "bb", "ll", "rr", "fs", "bs"]);
    }
    let reads = |text: &str| -> Vec<(i8, i8)> {
        let gs = groups(text, diagonal, oblique);
        let mut got: Vec<(i8, i8)> = every
            .iter()
            .copied()
            .filter(|v| gs.iter().any(|g| selected(g, *v, oblique)))
            .collect();
        got.sort_unstable();
        got
    };
    let mut best: Option<String> = None;
    let n = candidates.len();
    // Up to four groups, in the order listed: few enough to try them all.
    for mask in 1u32..(1 << n) {
        if mask.count_ones() > 4 {
            continue;
        }
        let text: String = (0..n)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| candidates[i])
            .collect();
        if best.as_ref().is_some_and(|b| b.len() <= text.len()) {
            continue;
        }
        if reads(&text) == want {
            best = Some(text);
        }
    }
    best.unwrap_or_default()
}
