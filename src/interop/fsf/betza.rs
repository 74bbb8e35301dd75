//! Betza as Fairy-Stockfish reads it, and what its pieces then do.
//!
//! Fairy-Stockfish reads a piece's Betza into three tables per modality (quiet, capture) and
//! per first-move flag (`i`): leaps, rides and hops, each a direction with a distance (a lame
//! leap is a leap with distance -1, a grasshopper a hop with distance 1). Its move generator
//! then does not walk each entry: it unites the unblockable leaps with a few precomputed
//! riders (rook files and ranks, bishop diagonals, the nightrider, the cannons and
//! grasshoppers of those lines, four lame leapers) that any entry of their directions turns
//! on, and keeps of what they reach only the squares some entry reaches on an empty board.
//! [`effective`] computes that result as plain moves ([`Canon`]), which is what the importer
//! writes: for ordinary Betza it is the union of the atoms, and where the riders' masks make
//! it differ it is still what Fairy-Stockfish plays.

use crate::model::Dirs;
use std::collections::{BTreeMap, BTreeSet};

/// A board vector, `(files, ranks)` from the mover's side (forward is `+ranks`).
pub type Vector = (i8, i8);

/// The tables of one piece: `[initial][modality]` (modality 0 quiet, 1 capture), each from
/// direction to distance.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tables {
    /// Leaps (distance 0), lame leaps (distance -1).
    pub steps: [[BTreeMap<Vector, i32>; 2]; 2],
    /// Rides (distance 0 for no limit).
    pub slides: [[BTreeMap<Vector, i32>; 2]; 2],
    /// Hops (distance 1 for a grasshopper, 0 for no limit).
    pub hops: [[BTreeMap<Vector, i32>; 2]; 2],
}

const LEAPERS: &[(char, (i8, i8))] = &[
    ('W', (1, 0)),
    ('F', (1, 1)),
    ('D', (2, 0)),
    ('N', (2, 1)),
    ('A', (2, 2)),
    ('H', (3, 0)),
    ('L', (3, 1)),
    ('C', (3, 1)),
    ('J', (3, 2)),
    ('Z', (3, 2)),
    ('G', (3, 3)),
];

fn atom_leaps(c: char) -> Option<(Vec<(i8, i8)>, bool)> {
    match c {
        'K' => Some((vec![(1, 0), (1, 1)], false)),
        'R' => Some((vec![(1, 0)], true)),
        'B' => Some((vec![(1, 1)], true)),
        'Q' => Some((vec![(1, 0), (1, 1)], true)),
        _ => LEAPERS
            .iter()
            .find(|l| l.0 == c)
            .map(|l| (vec![l.1], false)),
    }
}

const VERTICALS: &str = "fbvh";
const HORIZONTALS: &str = "rlsh";

/// The eight vectors of a leap `(a, b)` (a along the ranks' direction, as Fairy-Stockfish
/// writes atoms), each with the direction groups that select it.
fn oriented(a: i8, b: i8) -> [(Vector, &'static [&'static str]); 8] {
    [
        ((b, a), &["ff", "vv", "rf", "rv", "fh", "rh", "hr"]),
        ((-b, -a), &["bb", "vv", "lb", "lv", "bh", "lh", "hr"]),
        ((a, -b), &["rr", "ss", "br", "bs", "bh", "rh", "hr"]),
        ((-a, b), &["ll", "ss", "fl", "fs", "fh", "lh", "hr"]),
        ((a, b), &["rr", "ss", "fr", "fs", "fh", "rh", "hl"]),
        ((-a, -b), &["ll", "ss", "bl", "bs", "bh", "lh", "hl"]),
        ((b, -a), &["bb", "vv", "rb", "rv", "bh", "rh", "hl"]),
        ((-b, a), &["ff", "vv", "lf", "lv", "fh", "lh", "hl"]),
    ]
}

/// Checks that every character of `text` means something to Fairy-Stockfish, which skips
/// the others without a word.
///
/// # Errors
/// The offset of the first character it would skip, or of modifiers left without an atom,
/// with why and a help line.
pub fn check(text: &str) -> Result<(), (usize, String, String)> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut pending: Option<usize> = None;
    let mut i = 0;
    while i < chars.len() {
        let (offset, c) = chars[i];
        if "mcpgnie".contains(c) || VERTICALS.contains(c) || HORIZONTALS.contains(c) {
            if c != 'e' {
                pending.get_or_insert(offset);
            }
            i += 1;
            continue;
        }
        if atom_leaps(c).is_some() {
            pending = None;
            if let Some(&(_, next)) = chars.get(i + 1) {
                if next.is_ascii_digit() || next == c {
                    i += 1;
                    if let Some(&(o2, d)) = chars.get(i + 1) {
                        if d.is_ascii_digit() {
                            return Err((
                                o2,
                                format!(
                                    "Fairy-Stockfish reads one digit of a range and skips `{d}`"
                                ),
                                "ranges are one digit, 1 to 9 (0: no limit)".into(),
                            ));
                        }
                    }
                }
            }
            i += 1;
            continue;
        }
        let (why, help) = if c.is_ascii_digit() {
            (
                format!("`{c}` does not follow an atom"),
                "a range comes right after its atom: `R4`".to_string(),
            )
        } else if c.is_whitespace() {
            (
                "a blank inside Betza".to_string(),
                "write the moves without blanks".to_string(),
            )
        } else {
            (
                format!("`{c}` is not Betza that Fairy-Stockfish reads"),
                "Fairy-Stockfish reads the atoms W F D N A H L C J Z G K R B Q, the modifiers m c p g n i e and the directions f b v l r s h; it skips anything else".to_string(),
            )
        };
        return Err((offset, why, help));
    }
    if let Some(offset) = pending {
        return Err((
            offset,
            "modifiers without an atom after them".into(),
            "Fairy-Stockfish skips modifiers at the end; end with an atom such as `W`".into(),
        ));
    }
    Ok(())
}

/// The atoms of `text`, each with the byte range it covers (modifiers included), in order.
pub fn atoms(text: &str) -> Vec<std::ops::Range<usize>> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i].1;
        if atom_leaps(c).is_some() {
            if let Some(&(_, next)) = chars.get(i + 1) {
                if next.is_ascii_digit() || next == c {
                    i += 1;
                }
            }
            let end = chars.get(i + 1).map_or(text.len(), |c| c.0);
            out.push(start..end);
            start = end;
        }
        i += 1;
    }
    out
}

/// Reads Betza as Fairy-Stockfish does (characters it does not know are skipped).
pub fn read(text: &str) -> Tables {
    let mut t = Tables::default();
    let chars: Vec<char> = text.chars().collect();
    let mut modes: Vec<usize> = Vec::new();
    let (mut hopper, mut rider, mut lame, mut initial) = (false, false, false, false);
    let mut distance = 0i32;
    let mut groups: Vec<String> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == 'm' || c == 'c' {
            modes.push(usize::from(c == 'c'));
        } else if c == 'p' || c == 'g' {
            hopper = true;
            if c == 'g' {
                distance = 1;
            }
        } else if c == 'n' {
            lame = true;
        } else if c == 'i' {
            initial = true;
        } else if VERTICALS.contains(c) || HORIZONTALS.contains(c) {
            if let Some(&c2) = chars.get(i + 1) {
                if c2 == c
                    || (VERTICALS.contains(c) && HORIZONTALS.contains(c2))
                    || (HORIZONTALS.contains(c) && VERTICALS.contains(c2))
                {
                    groups.push(format!("{c}{c2}"));
                    i += 2;
                    continue;
                }
            }
            groups.push(format!("{c}{c}"));
        } else if let Some((leaps, is_rider)) = atom_leaps(c) {
            rider |= is_rider;
            if let Some(&next) = chars.get(i + 1) {
                if next.is_ascii_digit() || next == c {
                    rider = true;
                    if let Some(d) = next.to_digit(10) {
                        distance = d as i32;
                    }
                    i += 1;
                }
            }
            if !rider && lame {
                distance = -1;
            }
            if modes.is_empty() {
                modes = vec![0, 1];
            }
            for &(a, b) in &leaps {
                let mut dirs: Vec<String> = Vec::new();
                for g in &groups {
                    let g: Vec<char> = g.chars().collect();
                    if leaps.len() == 1 && b == 0 && g[0] != g[1] {
                        dirs.push(format!("{}{}", g[0], g[0]));
                        dirs.push(format!("{}{}", g[1], g[1]));
                    } else {
                        dirs.push(g.iter().collect());
                    }
                }
                for &m in &modes {
                    let table = if hopper {
                        &mut t.hops[usize::from(initial)][m]
                    } else if rider {
                        &mut t.slides[usize::from(initial)][m]
                    } else {
                        &mut t.steps[usize::from(initial)][m]
                    };
                    for (v, selectors) in oriented(a, b) {
                        if dirs.is_empty() || dirs.iter().any(|d| selectors.contains(&d.as_str())) {
                            table.insert(v, distance);
                        }
                    }
                }
            }
            modes.clear();
            groups.clear();
            hopper = false;
            rider = false;
            lame = false;
            initial = false;
            distance = 0;
        }
        i += 1;
    }
    t
}

/// One plain way of moving, as Rulebook writes moves: what Fairy-Stockfish's tables amount to.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Canon {
    /// A leap to the vector, over anything.
    Leap(Vector),
    /// Steps to the vector through the squares listed (each must be empty), as a lame leaper.
    Lame(Vec<Vector>, Vector),
    /// A slide along the vector, at most `max` times (`None`: to the edge).
    Slide(Vector, Option<u8>),
    /// A hop over one screen along the vector, ending at most `max` squares away; with
    /// `just_beyond` only right after the screen.
    Hop(Vector, Option<u8>, bool),
}

/// Every concrete path of a chain of single steps taken in these directions, as the squares
/// it passes (relative to the start, the last one reached), each as a lame leap: `None` where
/// a step's direction depends on nothing before it (`same` or `outward` first) or goes back
/// (`reverse`, a pass), which Betza cannot write.
pub fn step_chain<'a>(legs: impl IntoIterator<Item = &'a Dirs>) -> Option<Vec<Canon>> {
    let mut paths: Vec<Vec<Vector>> = vec![Vec::new()];
    for dirs in legs {
        let mut next = Vec::new();
        for path in &paths {
            let last = path.last().copied().unwrap_or((0, 0));
            let step = match path.len() {
                0 => None,
                1 => Some(path[0]),
                n => Some((path[n - 1].0 - path[n - 2].0, path[n - 1].1 - path[n - 2].1)),
            };
            let ways: Vec<Vector> = match dirs {
                Dirs::Vectors(vs) => vs.clone(),
                Dirs::Same => vec![step?],
                Dirs::Reverse => return None,
                Dirs::Outward => {
                    let (x, y) = step?;
                    if x == 0 {
                        vec![(1, y), (-1, y)]
                    } else if y == 0 {
                        vec![(x, 1), (x, -1)]
                    } else {
                        vec![(x, 0), (0, y)]
                    }
                }
            };
            for d in ways {
                let mut longer = path.clone();
                longer.push((last.0 + d.0, last.1 + d.1));
                next.push(longer);
            }
        }
        paths = next;
    }
    paths
        .into_iter()
        .map(|path| {
            let (to, through) = path.split_last()?;
            Some(Canon::Lame(through.to_vec(), *to))
        })
        .collect()
}

/// The lame leapers' directions Fairy-Stockfish precomputes: (2,0), (2,1), (2,2), (3,2).
fn lame_class(v: Vector) -> Option<u8> {
    let (a, b) = (v.0.unsigned_abs(), v.1.unsigned_abs());
    match (a.max(b), a.min(b)) {
        (2, 0) => Some(0),
        (2, 1) => Some(1),
        (2, 2) => Some(2),
        (3, 2) => Some(3),
        _ => None,
    }
}

/// Every vector of a lame class.
fn lame_vectors(class: u8) -> Vec<Vector> {
    let base = [(2, 0), (2, 1), (2, 2), (3, 2)][class as usize];
    crate::model::betza::all_vectors(base)
}

/// The squares a lame leap passes, as Fairy-Stockfish walks them: a diagonal step while the
/// distances left are equal, else a step along the longer one.
pub fn lame_path(v: Vector) -> Vec<Vector> {
    let (mut x, mut y) = (0i8, 0i8);
    let mut out = Vec::new();
    while (x, y) != v {
        let (dx, dy) = (v.0 - x, v.1 - y);
        let diff = dx.abs() - dy.abs();
        if diff > 0 {
            x += dx.signum();
        } else if diff < 0 {
            y += dy.signum();
        } else {
            x += dx.signum();
            y += dy.signum();
        }
        if (x, y) != v {
            out.push((x, y));
        }
    }
    out
}

/// The rider lines Fairy-Stockfish precomputes: rook ranks, rook files, bishop diagonals,
/// the nightrider.
fn ride_class(v: Vector) -> Option<u8> {
    match v {
        (1, 0) | (-1, 0) => Some(0),
        (0, 1) | (0, -1) => Some(1),
        (x, y) if x.abs() == 1 && y.abs() == 1 => Some(2),
        (x, y) if (x.abs(), y.abs()) == (1, 2) || (x.abs(), y.abs()) == (2, 1) => Some(3),
        _ => None,
    }
}

fn ride_vectors(class: u8) -> Vec<Vector> {
    match class {
        0 => vec![(1, 0), (-1, 0)],
        1 => vec![(0, 1), (0, -1)],
        2 => vec![(1, 1), (1, -1), (-1, 1), (-1, -1)],
        _ => crate::model::betza::all_vectors((2, 1)),
    }
}

/// How far a ride or hop reaches on an empty board (`None`: no limit).
fn reach(distance: i32, hop: bool) -> Option<u32> {
    match distance {
        0 => None,
        1 if hop => None,
        d => Some(d.max(0) as u32),
    }
}

/// What the tables of one modality let a piece do, as plain moves.
///
/// # Errors
/// A description of a combination whose result has no plain form (a hop whose reach is
/// not a run of squares from its start).
pub fn effective(t: &Tables, initial: bool, modality: usize) -> Result<BTreeSet<Canon>, String> {
    let i = usize::from(initial);
    let (steps, slides, hops) = (
        &t.steps[i][modality],
        &t.slides[i][modality],
        &t.hops[i][modality],
    );
    // The squares some entry reaches on an empty board, as vectors; rays as (dir, reach).
    let points: BTreeSet<Vector> = steps.keys().copied().collect();
    let mut rays: Vec<(Vector, Option<u32>)> = Vec::new();
    for (&v, &d) in slides {
        rays.push((v, reach(d, false)));
    }
    for (&v, &d) in hops {
        rays.push((v, reach(d, true)));
    }
    // Whether k times v is reached on an empty board.
    let reached = |v: Vector, k: u32| -> bool {
        let target = (v.0 as i32 * k as i32, v.1 as i32 * k as i32);
        if let (Ok(x), Ok(y)) = (i8::try_from(target.0), i8::try_from(target.1)) {
            if points.contains(&(x, y)) {
                return true;
            }
        }
        rays.iter().any(|&(r, limit)| {
            // Is the target on the ray, within its reach?
            (1..=limit.unwrap_or(26))
                .any(|j| (r.0 as i32 * j as i32, r.1 as i32 * j as i32) == target)
        })
    };
    let mut out = BTreeSet::new();
    // Unblockable leaps.
    for (&v, &d) in steps {
        if d == 0 {
            out.insert(Canon::Leap(v));
        }
    }
    // Lame leapers, each class whole, kept where some entry reaches.
    let lame_classes: BTreeSet<u8> = steps
        .iter()
        .filter(|(_, &d)| d != 0)
        .filter_map(|(&v, _)| lame_class(v))
        .collect();
    for class in lame_classes {
        for v in lame_vectors(class) {
            if points.contains(&v) || reached(v, 1) {
                let path = lame_path(v);
                out.insert(if path.is_empty() {
                    Canon::Leap(v)
                } else {
                    Canon::Lame(path, v)
                });
            }
        }
    }
    // Riders: each class whole, cut to the distances some entry reaches.
    let ride_classes: BTreeSet<u8> = slides.keys().filter_map(|&v| ride_class(v)).collect();
    for class in ride_classes {
        for v in ride_vectors(class) {
            let ks: Vec<u32> = (1..=26).filter(|&k| reached(v, k)).collect();
            push_run(&mut out, v, &ks, Canon::Slide);
        }
    }
    // Cannons and grasshoppers of the rook and bishop lines.
    let mut hop_classes: BTreeSet<(u8, bool)> = BTreeSet::new();
    for (&v, &d) in hops {
        if let Some(class) = ride_class(v).filter(|&c| c < 3) {
            hop_classes.insert((class, d == 1));
        }
    }
    for (class, grasshopper) in hop_classes {
        for v in ride_vectors(class) {
            let ks: Vec<u32> = (2..=26).filter(|&k| reached(v, k)).collect();
            if ks.is_empty() {
                continue;
            }
            let max = ks[ks.len() - 1];
            if ks.len() as u32 != max - 1 {
                return Err(format!(
                    "a hop along ({},{}) that lands only at some distances",
                    v.0, v.1
                ));
            }
            let limit = (max < 26).then_some(max as u8);
            out.insert(Canon::Hop(v, limit, grasshopper));
        }
    }
    Ok(out)
}

/// Adds the ride along `v` to the distances `ks`: a slide over the run from 1, and a lame
/// path to each distance past a gap.
fn push_run(
    out: &mut BTreeSet<Canon>,
    v: Vector,
    ks: &[u32],
    slide: fn(Vector, Option<u8>) -> Canon,
) {
    let mut run = 0;
    while ks.get(run) == Some(&(run as u32 + 1)) {
        run += 1;
    }
    if run > 0 {
        let max = run as u32;
        out.insert(if max >= 26 {
            slide(v, None)
        } else if max == 1 {
            Canon::Leap(v)
        } else {
            slide(v, Some(max as u8))
        });
    }
    for &k in &ks[run..] {
        let path: Vec<Vector> = (1..k).map(|j| (v.0 * j as i8, v.1 * j as i8)).collect();
        out.insert(Canon::Lame(path, (v.0 * k as i8, v.1 * k as i8)));
    }
}

/// Whether a ride or path of the canon stays on the board from a square: used by nothing
/// but documents the vector convention. The vectors of every [`Canon`] are in the mover's
/// own frame (forward is `+y`), as Rulebook's `[x,y]` directions are.
pub const FRAME: &str = "mover";

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(text: &str, modality: usize) -> BTreeSet<Canon> {
        effective(&read(text), false, modality).unwrap()
    }

    #[test]
    fn the_pawn_and_the_knight() {
        let quiet = canon("fmWfceF", 0);
        assert_eq!(quiet, [Canon::Leap((0, 1))].into_iter().collect());
        let capture = canon("fmWfceF", 1);
        assert_eq!(
            capture,
            [Canon::Leap((-1, 1)), Canon::Leap((1, 1))]
                .into_iter()
                .collect()
        );
        assert_eq!(canon("N", 0).len(), 8);
    }

    #[test]
    fn directions_as_fairy_stockfish_pairs_them() {
        // `fs` on the wazir is split: forward and sideways.
        assert_eq!(canon("fsW", 0).len(), 3);
        // `hl` picks a chiral half of the knight.
        let half: BTreeSet<Canon> = [(2, 1), (-2, -1), (1, -2), (-1, 2)]
            .into_iter()
            .map(Canon::Leap)
            .collect();
        assert_eq!(canon("hlN", 0), half);
        // `fsK`: on the king the pair is not split, and selects only sideways wazir steps.
        let fs_k = canon("fsK", 0);
        assert!(!fs_k.contains(&Canon::Leap((0, 1))));
    }

    #[test]
    fn riders_hoppers_and_lame_leapers() {
        assert_eq!(
            canon("R4", 0),
            [(1, 0), (-1, 0), (0, 1), (0, -1)]
                .into_iter()
                .map(|v| Canon::Slide(v, Some(4)))
                .collect()
        );
        assert!(canon("mRcpR", 1).contains(&Canon::Hop((1, 0), None, false)));
        assert!(canon("gB", 0).contains(&Canon::Hop((1, 1), None, true)));
        assert!(canon("nN", 0).contains(&Canon::Lame(vec![(0, 1)], (1, 2))));
        assert!(canon("nZ", 0).contains(&Canon::Lame(vec![(0, 1), (1, 2)], (2, 3))));
        // A lame leap Fairy-Stockfish has no rider for does nothing.
        assert!(canon("nC", 0).is_empty());
        // A dabbaba rider is not one of its riders either.
        assert!(canon("DD", 0).is_empty());
        assert_eq!(canon("NN", 0).len(), 8);
    }

    #[test]
    fn initial_moves_are_apart() {
        let t = read("mWfceFifmnD");
        let first = effective(&t, true, 0).unwrap();
        assert_eq!(
            first,
            [Canon::Lame(vec![(0, 1)], (0, 2))].into_iter().collect()
        );
    }

    #[test]
    fn checks_characters() {
        assert!(check("mWfceFifmnD").is_ok());
        assert_eq!(check("mX").unwrap_err().0, 1);
        assert_eq!(check("fmW ").unwrap_err().0, 3);
        assert_eq!(check("Wfm").unwrap_err().0, 1);
        assert_eq!(check("R12").unwrap_err().0, 2);
    }

    #[test]
    fn atoms_cover_their_modifiers() {
        let text = "fmWfceFifmnD";
        let ranges = atoms(text);
        let parts: Vec<&str> = ranges.iter().map(|r| &text[r.clone()]).collect();
        assert_eq!(parts, vec!["fmW", "fceF", "ifmnD"]);
    }
}
