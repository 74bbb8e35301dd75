//! A definition in words: readable names for its identifiers, a sentence or two for each
//! piece (how it moves, where its zones change that, what it promotes to, how it is dropped)
//! and the game's rules (board, sides, how it ends, promotions, drops, options), all generated
//! from the compiled [`Tables`], so that they say what the rules in force say.
//!
//! Inline code (Betza, square names in brackets) is written between backticks; the gallery
//! page turns it into `<code>`.

use crate::model::{
    betza, Arm, Asks, Bound, Capturable, CountTerm, Dirs, Facing, Geometry, KindSet, Leg, LegKind,
    Mode, Owner, Pattern, PieceKind, Side, SquareSet, Tables, Verdict, WhenRule, ZoneGuard, ZoneId,
};

/// The words of an identifier: split at `-`, `_`, blanks and where lower case turns to upper
/// case (`HeavyCavalry`, `own-quadrants`, `XMLParser`); each word lower case unless it is an
/// acronym (two or more capitals, `HQ`) or holds a digit (`P2`).
pub fn words(ident: &str) -> Vec<String> {
    let chars: Vec<char> = ident.chars().collect();
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c == '-' || c == '_' || c.is_whitespace() {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        let boundary = c.is_uppercase()
            && prev.is_some_and(|p| {
                p.is_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_uppercase() && next.is_some_and(char::is_lowercase))
            });
        if boundary && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        word.push(c);
    }
    if !word.is_empty() {
        out.push(word);
    }
    out.into_iter()
        .map(|w| {
            let capitals = w.chars().filter(|c| c.is_uppercase()).count();
            if capitals >= 2 && !w.chars().any(char::is_lowercase)
                || w.chars().any(|c| c.is_ascii_digit())
            {
                w
            } else {
                w.to_lowercase()
            }
        })
        .collect()
}

/// A heading's name for an identifier: its words, the first one capitalised
/// (`HeavyCavalry` is "Heavy cavalry", `crossed-pawn` "Crossed pawn").
pub fn display_name(ident: &str) -> String {
    capitalise(&words(ident).join(" "))
}

/// The name of an identifier in running text: its words (`HeavyCavalry` is "heavy cavalry").
pub fn running_name(ident: &str) -> String {
    words(ident).join(" ")
}

/// `text` with its first letter in upper case.
pub fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A zone's name as a noun phrase: "the castle", "its own castles" (a name that starts with
/// "own"), "the crossed zone" (a name that is an adjective, ending in "-ed" or "-ing").
pub fn zone_phrase(name: &str) -> String {
    let w = words(name);
    let mut text = w.join(" ");
    if w.last()
        .is_some_and(|l| l.ends_with("ed") || l.ends_with("ing"))
    {
        text.push_str(" zone");
    }
    if w.first().is_some_and(|f| f == "own") {
        format!("its {text}")
    } else {
        format!("the {text}")
    }
}

/// "a" or "an" before `word`, by its first letter.
fn article(word: &str) -> &'static str {
    match word.chars().next() {
        Some(c) if "aeiouAEIOU".contains(c) => "an",
        _ => "a",
    }
}

/// `word` with its article: "a rook", "an elephant".
fn with_article(word: &str) -> String {
    format!("{} {word}", article(word))
}

/// Pieces as a list with one article: "a queen, rook, bishop or knight".
fn pieces_list(t: &Tables, kinds: &[PieceKind]) -> String {
    let names: Vec<String> = kinds.iter().map(|&k| piece(t, k)).collect();
    with_article(&list(&names, "or"))
}

/// Per kind: whether the first side ever has one on the board under the rules in force.
fn in_play(t: &Tables) -> Vec<bool> {
    super::gallery::standing_squares(t, Side::FIRST)
        .iter()
        .map(|set| !set.is_empty())
        .collect()
}

/// The plural of a name in running text (of its last word): "galas", "bodyguards",
/// "heavy cavalries", "marshes".
pub fn plural(name: &str) -> String {
    let (head, last) = match name.rfind(' ') {
        Some(i) => (&name[..=i], &name[i + 1..]),
        None => ("", name),
    };
    let lower = last.to_lowercase();
    let acronym = last.chars().any(char::is_uppercase) && !last.chars().any(char::is_lowercase);
    let tail = if acronym {
        format!("{last}s")
    } else if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|e| lower.ends_with(e))
    {
        format!("{last}es")
    } else if lower.ends_with('y')
        && !lower
            .chars()
            .rev()
            .nth(1)
            .is_some_and(|c| "aeiou".contains(c))
    {
        format!("{}ies", &last[..last.len() - 1])
    } else {
        format!("{last}s")
    };
    format!("{head}{tail}")
}

/// Items joined as a list: "a", "a or b", "a, b or c".
fn list(items: &[String], conjunction: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {conjunction} {last}", rest.join(", ")),
    }
}

/// A count in words: "one" to "twelve", then digits.
fn number(n: u32) -> String {
    const WORDS: [&str; 13] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    WORDS
        .get(n as usize)
        .map_or_else(|| n.to_string(), |w| w.to_string())
}

/// An ordinal in words: "second", "third", then "11th".
fn ordinal(n: u32) -> String {
    const WORDS: [&str; 11] = [
        "zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
        "ninth", "tenth",
    ];
    match WORDS.get(n as usize) {
        Some(w) => w.to_string(),
        None => {
            let suffix = match (n % 10, n % 100) {
                (_, 11..=13) => "th",
                (1, _) => "st",
                (2, _) => "nd",
                (3, _) => "rd",
                _ => "th",
            };
            format!("{n}{suffix}")
        }
    }
}

/// A value written without a needless fraction: `5`, `4.5`.
fn value_text(v: f32) -> String {
    // `{}` writes a whole float without a fraction; adding zero makes -0 plain 0.
    format!("{}", v + 0.0)
}

/// A piece's name in running text.
fn piece(t: &Tables, kind: PieceKind) -> String {
    running_name(&t.variant().piece(kind).name)
}

/// A zone's phrase by id.
fn zone(t: &Tables, z: ZoneId) -> String {
    zone_phrase(&t.variant().zones()[z.index()].name)
}

// ---------------------------------------------------------------------------------------
// Squares in words.

/// A rectangle of squares as the language writes it: `e5`, `d1-f3`.
fn rectangle(g: Geometry, (f0, r0, f1, r1): (i32, i32, i32, i32)) -> String {
    let a = g
        .square(f0, r0)
        .map(|s| g.name(s).to_string())
        .unwrap_or_default();
    if (f0, r0) == (f1, r1) {
        return a;
    }
    let b = g
        .square(f1, r1)
        .map(|s| g.name(s).to_string())
        .unwrap_or_default();
    format!("{a}-{b}")
}

/// Runs of consecutive numbers as `N` or `N-M`, each with its label (`rank 9`, `ranks 7-9`).
fn runs(values: &[i32], one: &str, many: &str, name: impl Fn(i32) -> String) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < values.len() {
        let mut j = i;
        while j + 1 < values.len() && values[j + 1] == values[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            format!("{one} {}", name(values[i]))
        } else {
            format!("{many} {}-{}", name(values[i]), name(values[j]))
        });
        i = j + 1;
    }
    out
}

/// The parts of a set: its whole files, its whole ranks, then rectangles of the rest (each
/// the widest run of a rank, grown upward while the ranks above hold the same run).
fn set_parts(g: Geometry, set: &SquareSet) -> Vec<String> {
    let (w, h) = (i32::from(g.width), i32::from(g.height));
    let at = |f: i32, r: i32| {
        g.square(f, r)
            .is_some_and(|s| set.contains(s) || g.is_hole(s))
    };
    let files: Vec<i32> = (0..w).filter(|&f| (0..h).all(|r| at(f, r))).collect();
    let ranks: Vec<i32> = (0..h).filter(|&r| (0..w).all(|f| at(f, r))).collect();
    // Whole files and ranks only where they say something: not the whole board.
    let (files, ranks) =
        if files.len() == usize::from(g.width) || ranks.len() == usize::from(g.height) {
            (Vec::new(), Vec::new())
        } else {
            (files, ranks)
        };
    let mut parts = runs(&files, "file", "files", |f| {
        Geometry::file_char(f).to_string()
    });
    parts.extend(runs(&ranks, "rank", "ranks", |r| (r + 1).to_string()));
    let mut covered = SquareSet::EMPTY;
    for sq in g.squares() {
        if files.contains(&g.file(sq)) || ranks.contains(&g.rank(sq)) {
            covered.insert(sq);
        }
    }
    let free = |f: i32, r: i32, covered: &SquareSet| {
        g.square(f, r)
            .is_some_and(|s| set.contains(s) && !covered.contains(s))
    };
    for r0 in 0..h {
        for f0 in 0..w {
            if !free(f0, r0, &covered) {
                continue;
            }
            let mut f1 = f0;
            while free(f1 + 1, r0, &covered) {
                f1 += 1;
            }
            let mut r1 = r0;
            while (f0..=f1).all(|f| free(f, r1 + 1, &covered)) {
                r1 += 1;
            }
            for f in f0..=f1 {
                for r in r0..=r1 {
                    if let Some(s) = g.square(f, r) {
                        covered.insert(s);
                    }
                }
            }
            parts.push(rectangle(g, (f0, r0, f1, r1)));
        }
    }
    parts
}

/// A set of squares in words, as short as it comes: "ranks 7-9", "a1-c3 and g1-i3",
/// "every square except files h-i and ranks 8-9", "40 squares".
pub fn squares_words(g: Geometry, set: &SquareSet) -> String {
    let all = g.playable();
    let set = set.intersection(&all);
    if set.is_empty() {
        return "no square".into();
    }
    if set == all {
        return "every square".into();
    }
    let say = |parts: Vec<String>| {
        if parts.len() > 8 {
            None
        } else {
            Some(list(&parts, "and"))
        }
    };
    let direct = say(set_parts(g, &set));
    let other =
        say(set_parts(g, &all.difference(&set))).map(|text| format!("every square except {text}"));
    match (direct, other) {
        (Some(a), Some(b)) => {
            if b.len() < a.len() {
                b
            } else {
                a
            }
        }
        (Some(a), None) => a,
        (None, Some(b)) => b,
        (None, None) => format!("{} squares", set.len()),
    }
}

/// A zone's squares in words, per side where the sides' copies differ.
pub fn zone_squares(t: &Tables, z: ZoneId) -> String {
    let v = t.variant();
    let g = t.geometry();
    let sets = &v.zones()[z.index()].squares;
    if sets.windows(2).all(|w| w[0] == w[1]) {
        return squares_words(g, &sets[0]);
    }
    let items: Vec<String> = sets
        .iter()
        .enumerate()
        .map(|(s, set)| format!("{} for {}", squares_words(g, set), v.sides()[s].name))
        .collect();
    items.join("; ")
}

// ---------------------------------------------------------------------------------------
// Directions and paths.

/// A vector in the side's own frame, or the leap it is a turn of.
type Leap = (i8, i8);

/// Vectors in the side's own frame in words: "in any direction", "orthogonally", "forward or
/// diagonally forward", "(1,2) in any direction", `[1,2]` or `[-1,2]`.
pub fn directions(vs: &[(i8, i8)]) -> String {
    let has = |v: (i8, i8)| vs.contains(&v);
    let orth = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let diag = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
    let mut parts: Vec<String> = Vec::new();
    let all_orth = orth.iter().all(|&v| has(v));
    let all_diag = diag.iter().all(|&v| has(v));
    if all_orth && all_diag {
        parts.push("in any direction".into());
    } else {
        if all_orth {
            parts.push("orthogonally".into());
        } else {
            if has((0, 1)) {
                parts.push("forward".into());
            }
            if has((0, -1)) {
                parts.push("backward".into());
            }
            match (has((-1, 0)), has((1, 0))) {
                (true, true) => parts.push("sideways".into()),
                (true, false) => parts.push("to the left".into()),
                (false, true) => parts.push("to the right".into()),
                (false, false) => {}
            }
        }
        if all_diag {
            parts.push("diagonally".into());
        } else {
            let (fl, fr, bl, br) = (has((-1, 1)), has((1, 1)), has((-1, -1)), has((1, -1)));
            match (fl, fr) {
                (true, true) => parts.push("diagonally forward".into()),
                (true, false) => parts.push("diagonally forward to the left".into()),
                (false, true) => parts.push("diagonally forward to the right".into()),
                _ => {}
            }
            match (bl, br) {
                (true, true) => parts.push("diagonally backward".into()),
                (true, false) => parts.push("diagonally backward to the left".into()),
                (false, true) => parts.push("diagonally backward to the right".into()),
                _ => {}
            }
        }
    }
    // Longer vectors, by the leap they are turns of.
    let mut leaps: Vec<(Leap, Vec<Leap>)> = Vec::new();
    for &(x, y) in vs {
        if x.abs() <= 1 && y.abs() <= 1 {
            continue;
        }
        let base = (x.abs().max(y.abs()), x.abs().min(y.abs()));
        match leaps.iter_mut().find(|(b, _)| *b == base) {
            Some((_, list)) => list.push((x, y)),
            None => leaps.push((base, vec![(x, y)])),
        }
    }
    for ((a, b), chosen) in leaps {
        let every = betza::all_vectors((a, b));
        let half = |keep: &dyn Fn((i8, i8)) -> bool| {
            let part: Vec<(i8, i8)> = every.iter().copied().filter(|&v| keep(v)).collect();
            part.len() == chosen.len() && part.iter().all(|v| chosen.contains(v))
        };
        if every.iter().all(|v| chosen.contains(v)) {
            parts.push(format!("({b},{a}) in any direction"));
        } else if half(&|(_, y)| y > 0) {
            parts.push(format!("({b},{a}) forward"));
        } else if half(&|(_, y)| y < 0) {
            parts.push(format!("({b},{a}) backward"));
        } else {
            let named: Vec<String> = chosen.iter().map(|(x, y)| format!("`[{x},{y}]`")).collect();
            parts.push(format!("to {}", list(&named, "or")));
        }
    }
    list(&parts, "or")
}

/// Whether every vector is one square long.
fn unit(vs: &[(i8, i8)]) -> bool {
    vs.iter().all(|(x, y)| x.abs() <= 1 && y.abs() <= 1)
}

/// The directions of one arm in words.
fn arm_words(arm: &Arm) -> String {
    let dirs = match &arm.dirs {
        Dirs::Vectors(vs) => directions(vs),
        Dirs::Same => "the same way".into(),
        Dirs::Outward => "outward (45° off the step before)".into(),
        Dirs::Reverse => "back the way it came".into(),
    };
    if arm.inward {
        format!("{dirs} toward the centre")
    } else {
        dirs
    }
}

/// A leg's directions in words, with each arm's zone.
fn leg_directions(t: &Tables, leg: &Leg) -> String {
    let items: Vec<String> = leg
        .arms
        .iter()
        .map(|a| match a.zone {
            Some(z) => format!("{} in {}", arm_words(a), zone(t, z)),
            None => arm_words(a),
        })
        .collect();
    list(&items, if leg.bent { "and" } else { "or" })
}

/// Whether a leg jumps (a step by vectors longer than one square).
fn leaps(leg: &Leg) -> bool {
    leg.arms
        .iter()
        .any(|a| matches!(&a.dirs, Dirs::Vectors(vs) if !unit(vs)))
}

/// A leg as (verb, gerund, the rest): ("steps", "stepping", "one square orthogonally").
fn leg_words(t: &Tables, leg: &Leg) -> (&'static str, &'static str, String) {
    let dirs = leg_directions(t, leg);
    let range = |max: Option<u8>| match max {
        Some(1) => "up to one square".to_string(),
        Some(n) => format!("up to {n} squares"),
        None => "any distance".to_string(),
    };
    match leg.kind {
        LegKind::Step if leaps(leg) => ("leaps", "leaping", dirs),
        LegKind::Step => ("steps", "stepping", format!("one square {dirs}")),
        LegKind::Slide { max } if leg.bent => (
            "slides",
            "sliding",
            format!(
                "{} {dirs}, turning where the zones meet (a bent slide)",
                range(max)
            ),
        ),
        LegKind::Slide { max } => ("slides", "sliding", format!("{} {dirs}", range(max))),
        LegKind::Hop { max, just_beyond } => {
            let within = match max {
                Some(n) => format!(" within {n} squares"),
                None => String::new(),
            };
            let bent = if leg.bent {
                ", along a bent path that turns where the zones meet"
            } else {
                ""
            };
            let rest = if just_beyond {
                format!(
                    "over one piece at any distance {dirs}{within}{bent}, landing just beyond it"
                )
            } else {
                format!("over exactly one piece {dirs}{within}{bent}, to a square beyond it")
            };
            ("hops", "hopping", rest)
        }
    }
}

/// The guard of a pattern as a phrase ("outside the crossed zone, on its first move"), empty
/// without one.
fn guard_words(t: &Tables, p: &Pattern) -> String {
    let mut items: Vec<String> = p
        .zones
        .iter()
        .map(|g| {
            format!(
                "{} {}",
                if g.inside { "in" } else { "outside" },
                zone(t, g.zone)
            )
        })
        .collect();
    match p.unmoved {
        Some(true) => items.push("on its first move".into()),
        Some(false) => items.push("after its first move".into()),
        None => {}
    }
    match p.in_check {
        Some(true) => items.push("while its side is in check".into()),
        Some(false) => items.push("while its side is not in check".into()),
        None => {}
    }
    list(&items, "and")
}

/// What a pattern may capture, as a clause, empty for anything.
fn victims(t: &Tables, p: &Pattern) -> String {
    match &p.capturing {
        None => String::new(),
        Some(Capturable::Royal) => "only a royal piece".into(),
        Some(Capturable::Checker) => "only the piece giving check".into(),
        Some(Capturable::Kinds(kinds)) => {
            let names: Vec<String> = kinds.iter().map(|&k| with_article(&piece(t, k))).collect();
            format!("only {}", list(&names, "or"))
        }
        Some(Capturable::AllBut(kinds)) => {
            let names: Vec<String> = kinds.iter().map(|&k| with_article(&piece(t, k))).collect();
            format!("any piece but {}", list(&names, "or"))
        }
    }
}

/// A list of pieces by owner: "a friendly bodyguard or warrior", "an enemy kampa".
fn owned(t: &Tables, kinds: &[(PieceKind, Owner)]) -> String {
    let mut groups: Vec<(Owner, Vec<String>)> = Vec::new();
    for &(k, o) in kinds {
        match groups.last_mut() {
            Some((last, names)) if *last == o => names.push(piece(t, k)),
            _ => groups.push((o, vec![piece(t, k)])),
        }
    }
    let items: Vec<String> = groups
        .iter()
        .map(|(o, names)| match o {
            Owner::Friendly => format!("a friendly {}", list(names, "or")),
            Owner::Enemy => format!("an enemy {}", list(names, "or")),
            Owner::Any => format!("{} of either side", with_article(&list(names, "or"))),
        })
        .collect();
    list(&items, "or")
}

/// The modifiers of a pattern, each a clause.
fn modifiers(t: &Tables, p: &Pattern) -> Vec<String> {
    let v = t.variant();
    let line = |l: crate::model::LineId| running_name(&v.lines()[l.index()].name);
    let mut out = Vec::new();
    for g in &p.into {
        out.push(if g.inside {
            format!("ending in {}", zone(t, g.zone))
        } else {
            format!("never ending in {}", zone(t, g.zone))
        });
    }
    for &z in &p.avoiding {
        out.push(format!("never entering or passing {}", zone(t, z)));
    }
    if let Some(f) = &p.on_the_way {
        let names: Vec<String> = f.kinds.iter().map(|&k| piece(t, k)).collect();
        out.push(match (f.except, names.is_empty()) {
            (true, true) => "capturing an enemy piece on its first step and going on".into(),
            (true, false) => format!(
                "capturing an enemy piece other than {} on its first step and going on",
                with_article(&list(&names, "or"))
            ),
            (false, _) => format!(
                "capturing an enemy {} on its first step and going on",
                list(&names, "or")
            ),
        });
    }
    if let Some(np) = &p.not_protected {
        let (kinds, afar) = &**np;
        let names: Vec<String> = kinds.iter().map(|&k| piece(t, k)).collect();
        out.push(format!(
            "never capturing {} that could be captured back{}",
            with_article(&list(&names, "or")),
            if *afar {
                ", unless it stood next to it"
            } else {
                ""
            }
        ));
    }
    for &(l, least, most) in &p.crossing {
        let name = line(l);
        out.push(match (least, most) {
            (_, 0) => format!("without crossing the {name}"),
            (1, m) if m >= 26 => format!("only across the {name}"),
            (0, 1) => format!("crossing the {name} at most once"),
            (0, m) => format!("crossing the {name} at most {m} times"),
            (l, m) => format!("crossing the {name} {l} to {m} times"),
        });
    }
    if let Some(l) = p.continuing {
        out.push(format!(
            "stopping on the first square beyond the {}, where the move may end or go on in the \
             directions of that square (sliding on if it crossed on its first step, else one \
             more step), never crossing again",
            line(l)
        ));
    }
    if let Some((l, ahead)) = p.along {
        out.push(format!(
            "after crossing the {} inward, not capturing along it{}",
            line(l),
            if ahead {
                " (but capturing the way its step was heading)"
            } else {
                ""
            }
        ));
    }
    if let Some(h) = &p.holding {
        let part = running_name(&v.partitions()[h.partition.index()].name);
        out.push(format!(
            "{} in a part of the {part} holding {}",
            if h.inside {
                "ending only"
            } else {
                "never ending"
            },
            owned(t, &h.kinds)
        ));
    }
    if let Some(sc) = &p.screens {
        let names: Vec<String> = sc
            .kinds
            .iter()
            .map(|&k| with_article(&piece(t, k)))
            .collect();
        out.push(if sc.allowed {
            format!("only over {}", list(&names, "or"))
        } else {
            format!("never over {}", list(&names, "or"))
        });
    }
    if p.creates_en_passant {
        out.push("and may be taken en passant on the squares it passes".into());
    }
    if p.takes_en_passant {
        out.push(if p.en_passant_unpromoted {
            "also capturing en passant, without promoting".into()
        } else {
            "also capturing en passant".into()
        });
    }
    out
}

/// One pattern as a verb phrase ("steps one square forward, without capturing").
fn pattern_words(t: &Tables, p: &Pattern) -> String {
    let mut text = String::new();
    let n = p.legs.len();
    for (i, leg) in p.legs.iter().enumerate() {
        let (verb, gerund, rest) = leg_words(t, leg);
        let to_empty = match (i + 1 < n, &p.on_the_way) {
            (false, _) => "",
            (true, None) => " to an empty square",
            (true, Some(_)) => " onto an enemy piece",
        };
        if i == 0 {
            let first = if p.shot {
                let whom = match victims(t, p) {
                    w if w.is_empty() => "any piece".to_string(),
                    w => w.replacen("only ", "", 1),
                };
                format!("captures without moving (a shot) {whom} it could reach by {gerund} {rest}")
            } else {
                match p.mode {
                    Mode::CaptureOnly if verb == "steps" && n == 1 => format!("captures {rest}"),
                    Mode::CaptureOnly => format!("captures by {gerund} {rest}"),
                    _ => format!("{verb} {rest}"),
                }
            };
            text.push_str(&first);
        } else if verb == "steps" {
            text.push_str(&format!(", then {rest}"));
        } else {
            text.push_str(&format!(", then {verb} {rest}"));
        }
        text.push_str(to_empty);
    }
    let mut clauses = Vec::new();
    if !p.shot {
        if p.mode == Mode::MoveOnly {
            clauses.push("without capturing".into());
        }
        let whom = victims(t, p);
        if !whom.is_empty() {
            clauses.push(format!("capturing {whom}"));
        }
    }
    clauses.extend(modifiers(t, p));
    for c in clauses {
        text.push_str(", ");
        text.push_str(&c);
    }
    text
}

/// The patterns in force of a piece, those of one vector set united where nothing else tells
/// them apart (`fF` and `vW` make one step).
fn merged_patterns(t: &Tables, kind: PieceKind) -> Vec<Pattern> {
    let mut out: Vec<Pattern> = Vec::new();
    let plain = |p: &Pattern| {
        p.legs.len() == 1
            && p.legs[0].arms.len() == 1
            && p.legs[0].arms[0].zone.is_none()
            && !p.legs[0].bent
            && matches!(p.legs[0].arms[0].dirs, Dirs::Vectors(_))
    };
    let without_dirs = |p: &Pattern| {
        let mut q = p.clone();
        q.options.clear();
        q.legs[0].arms[0].dirs = Dirs::Vectors(Vec::new());
        q
    };
    for p in t
        .variant()
        .piece(kind)
        .patterns
        .iter()
        .filter(|p| t.guards_hold(&p.options))
    {
        if plain(p) {
            let key = without_dirs(p);
            let long = leaps(&p.legs[0]);
            if let Some(q) = out
                .iter_mut()
                .find(|q| plain(q) && without_dirs(q) == key && leaps(&q.legs[0]) == long)
            {
                if let (Dirs::Vectors(into), Dirs::Vectors(from)) =
                    (&mut q.legs[0].arms[0].dirs, &p.legs[0].arms[0].dirs)
                {
                    for v in from {
                        if !into.contains(v) {
                            into.push(*v);
                        }
                    }
                }
                continue;
            }
        }
        let mut q = p.clone();
        q.options.clear();
        out.push(q);
    }
    out
}

/// A pattern's guard, for grouping: its zones, first-move and check conditions.
type Guard = (Vec<ZoneGuard>, Option<bool>, Option<bool>);

fn guard_of(p: &Pattern) -> Guard {
    (p.zones.clone(), p.unmoved, p.in_check)
}

/// How a piece moves, one sentence per guard: "It steps ...", "Outside the crossed zone it
/// steps ...".
fn movement(t: &Tables, kind: PieceKind) -> Vec<String> {
    let patterns = merged_patterns(t, kind);
    let mut groups: Vec<(Guard, Vec<String>, String)> = Vec::new();
    for p in &patterns {
        let words = pattern_words(t, p);
        let g = guard_of(p);
        match groups.iter_mut().find(|(k, _, _)| *k == g) {
            Some((_, list, _)) => {
                if !list.contains(&words) {
                    list.push(words)
                }
            }
            None => groups.push((g, vec![words], guard_words(t, p))),
        }
    }
    groups
        .into_iter()
        .map(|(_, phrases, guard)| {
            let body = phrases.join("; or it ");
            if guard.is_empty() {
                format!("It {body}.")
            } else {
                format!("{}, it {body}.", capitalise(&guard))
            }
        })
        .collect()
}

/// The piece's Betza: per zone guard where zones change its moves, else the whole piece;
/// "approximately" where Betza cannot say it all.
fn betza_sentence(t: &Tables, kind: PieceKind) -> Option<String> {
    let def = t.variant().piece(kind);
    let in_force: Vec<&Pattern> = def
        .patterns
        .iter()
        .filter(|p| t.guards_hold(&p.options))
        .collect();
    let mut zone_groups: Vec<Vec<ZoneGuard>> = Vec::new();
    for p in &in_force {
        if !zone_groups.contains(&p.zones) {
            zone_groups.push(p.zones.clone());
        }
    }
    let whole = betza::write(t, kind);
    let mark = |w: &betza::Written, text: String| {
        if w.exact {
            format!("Betza: {text}.")
        } else {
            format!("Betza (approximate: it has no words for some of its rules): {text}.")
        }
    };
    if zone_groups.len() > 1 {
        let mut items = Vec::new();
        let mut exact = true;
        for zs in &zone_groups {
            let w = betza::write_patterns(t, kind, &|p| p.zones == *zs);
            if w.text.is_empty() {
                // A part Betza cannot write: the whole piece, as far as it goes.
                return (!whole.text.is_empty()).then(|| mark(&whole, format!("`{}`", whole.text)));
            }
            exact &= w.exact;
            let where_ = list(
                &zs.iter()
                    .map(|g| {
                        format!(
                            "{} {}",
                            if g.inside { "in" } else { "outside" },
                            zone(t, g.zone)
                        )
                    })
                    .collect::<Vec<_>>(),
                "and",
            );
            items.push(if where_.is_empty() {
                format!("`{}` anywhere", w.text)
            } else {
                format!("`{}` {where_}", w.text)
            });
        }
        let w = betza::Written {
            text: String::new(),
            exact: exact && whole.covers,
            covers: whole.covers,
        };
        return Some(mark(&w, list(&items, "and")));
    }
    if whole.text.is_empty() {
        return None;
    }
    Some(mark(&whole, format!("`{}`", whole.text)))
}

/// Whether `kind` of the first side ever stands in a hand: the setup puts one there, or
/// captures go to hand and some piece demotes to it.
fn can_be_in_hand(t: &Tables, kind: PieceKind) -> bool {
    let r = t.rules();
    if !r.drops {
        return false;
    }
    if t.setup_hand().iter().any(|&(_, k)| k == kind) {
        return true;
    }
    r.captures_to_hand
        && (0..t.kinds()).any(|i| {
            let k = PieceKind::nth(i);
            // A royal piece is never captured where checkmate guards it.
            t.demoted(k) == kind && !(t.royal(k) && r.checkmate)
        })
}

/// The kinds in play that promote to `kind` under the rules in force.
fn promoted_from(t: &Tables, kind: PieceKind, in_play: &[bool]) -> Vec<PieceKind> {
    (0..t.kinds())
        .map(PieceKind::nth)
        .filter(|&k| in_play[k.index()])
        .filter(|&k| {
            t.promotions(k, Side::FIRST)
                .iter()
                .chain(t.in_place_promotions(k, Side::FIRST))
                .any(|c| c.choices.contains(&kind))
        })
        .collect()
}

/// What a promotion clause needs, as a phrase: "on a move into, within or out of the
/// promotion zone".
fn promotion_where(t: &Tables, zone_id: ZoneId, from_too: bool, in_place: bool) -> String {
    if in_place {
        format!("by a move of its own, standing in {}", zone(t, zone_id))
    } else if from_too {
        format!("on a move that ends in or starts from {}", zone(t, zone_id))
    } else {
        format!("on a move that ends in {}", zone(t, zone_id))
    }
}

/// A piece in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceProse {
    /// How it moves: per guard, then teleports, borrowed moves, confinements and entries.
    pub moves: Vec<String>,
    /// Royalty, value, promotion, what it is promoted from and becomes in hand, drops.
    pub facts: Vec<String>,
    /// Its moves in Betza, marked where they are approximate.
    pub betza: Option<String>,
}

impl PieceProse {
    /// Every sentence, in order.
    pub fn sentences(&self) -> Vec<String> {
        let mut out = self.moves.clone();
        out.extend(self.facts.iter().cloned());
        out.extend(self.betza.iter().cloned());
        out
    }
}

/// A sentence or two for each thing the definition says of a piece: how it moves (per zone
/// where zones change it), its teleports, borrowed moves and confinements, royalty and value,
/// promotion, what it is promoted from and becomes in hand, drops, and its Betza.
pub fn piece_prose(t: &Tables, kind: PieceKind) -> PieceProse {
    piece_prose_in(t, kind, &in_play(t))
}

/// [`piece_prose`], `in_play` telling which kinds ever come onto the board.
pub(super) fn piece_prose_in(t: &Tables, kind: PieceKind, in_play: &[bool]) -> PieceProse {
    let v = t.variant();
    let def = v.piece(kind);
    let mut out = movement(t, kind);
    if out.is_empty() && def.teleports.is_empty() && !def.borrows {
        out.push("It has no move of its own.".into());
    }
    for tp in def.teleports.iter().filter(|tp| t.guards_hold(&tp.options)) {
        if let Some(to) = tp.to {
            let from = match tp.from {
                Some(z) => format!("From {}, it", zone(t, z)),
                None => "It".into(),
            };
            out.push(format!(
                "{from} may also jump, without capturing, to any empty square of {} (a teleport).",
                zone(t, to)
            ));
        } else {
            let anchors: Vec<String> = tp.anchors.iter().map(|&k| piece(t, k)).collect();
            let anchors = list(&anchors, "or");
            let not_attacking = if tp.not_attacking {
                format!(
                    " from which its own moves, as they would be there, could not reach the {anchors}"
                )
            } else {
                String::new()
            };
            out.push(format!(
                "Instead of moving, it may jump, without capturing, to any empty square next to \
                 its {anchors}{not_attacking} (a teleport)."
            ));
        }
    }
    if def.borrows {
        out.push(
            "It also moves as every friendly piece that could move to its square, and captures \
             as every one that could capture there (borrowed moves, not passed on)."
                .into(),
        );
    }
    for c in def
        .confinements
        .iter()
        .filter(|c| t.guards_hold(&c.options))
    {
        out.push(if c.inside {
            format!("It never leaves {}.", zone(t, c.zone))
        } else {
            format!("It never enters {}.", zone(t, c.zone))
        });
    }
    for w in def.within.iter().filter(|w| t.guards_hold(&w.options)) {
        let part = &v.partitions()[w.partition.index()];
        out.push(format!(
            "It never leaves its part of the {} ({}).",
            running_name(&part.name),
            partition_words(t, w.partition.index())
        ));
    }
    for e in def.entries.iter().filter(|e| t.guards_hold(&e.options)) {
        out.push(format!(
            "It enters {} from outside only when {} holds {}, as the pieces stand before the move.",
            zone(t, e.zone),
            zone(t, e.zone).replacen("its ", "", 1),
            owned(t, &e.kinds)
        ));
    }
    let moves = std::mem::take(&mut out);
    let g = t.geometry();
    let castles: Vec<&crate::model::Castling> = v
        .rules()
        .castlings
        .iter()
        .filter(|c| c.side == Side::FIRST && c.king == kind && t.guards_hold(&c.options))
        .collect();
    if !castles.is_empty() {
        let mut partners: Vec<PieceKind> = castles.iter().map(|c| c.partner).collect();
        partners.dedup();
        let items: Vec<String> = castles
            .iter()
            .map(|c| format!("`{}`", g.name(c.king_to)))
            .collect();
        out.push(format!(
            "It castles with {}, from `{}` to {} (see the rules).",
            pieces_list(t, &partners),
            g.name(castles[0].king_from),
            list(&items, "or")
        ));
    }
    if !in_play[kind.index()] {
        out.push("It does not come into play with these settings.".into());
    }
    let mut facts = Vec::new();
    if t.royal(kind) {
        facts.push("It is royal".to_string());
    }
    if !(t.royal(kind) && def.value == 0.0) {
        facts.push(format!(
            "{} value is {}",
            if t.royal(kind) { "its" } else { "Its" },
            value_text(def.value)
        ));
    }
    out.push(format!("{}.", facts.join("; ")));
    for pr in def.promotions.iter().filter(|p| t.guards_hold(&p.options)) {
        let mut text = format!(
            "It {} to {} {}",
            if pr.forced {
                "must promote"
            } else {
                "may promote"
            },
            pieces_list(t, &pr.choices),
            promotion_where(t, pr.zone, pr.from_zone_too, pr.in_place)
        );
        if pr.anywhere_when_last {
            text.push_str(" (anywhere when it is its side's last)");
        }
        if pr.in_place {
            text.push_str(
                ": it turns where it stands, or goes as the new piece to an empty square that \
                 piece could move to",
            );
        }
        if pr.not_attacking {
            text.push_str(", where the new piece attacks no enemy piece and gives no check");
        }
        match (pr.when_entering, pr.when_capturing) {
            (true, true) => text.push_str(", when it enters the zone or captures"),
            (true, false) => text.push_str(", when it enters the zone"),
            (false, true) => text.push_str(", when it captures"),
            (false, false) => {}
        }
        if pr.never_forced {
            text.push_str(" (never forced)");
        }
        if pr.only_captured {
            text.push_str(", each only while its side has fewer of it than at the start");
        }
        if let Some(n) = pr.at_most {
            text.push_str(&format!(
                ", each only while its side has fewer than {n} of it"
            ));
        }
        let zone_set = t.variant().zones()[pr.zone.index()].squares[0];
        if !pr.forced
            && !pr.in_place
            && !pr.never_forced
            && !t
                .dead_squares(kind, Side::FIRST)
                .intersection(&zone_set)
                .is_empty()
        {
            text.push_str(" (it must where it would have no move left)");
        }
        text.push('.');
        out.push(text);
    }
    let from = promoted_from(t, kind, in_play);
    if !from.is_empty() {
        out.push(format!("It is what {} promotes to.", pieces_list(t, &from)));
    }
    let r = t.rules();
    if r.drops && r.captures_to_hand {
        if let Some(d) = def.demotes_to {
            out.push(format!(
                "Captured, it goes to the captor's hand as {}.",
                with_article(&piece(t, d))
            ));
        }
    }
    if can_be_in_hand(t, kind) {
        out.push(drop_sentence(t, kind));
    }
    PieceProse {
        moves,
        facts: out,
        betza: Some(
            betza_sentence(t, kind)
                .unwrap_or_else(|| "Betza has no notation for its moves.".to_string()),
        ),
    }
}

/// Where a piece in hand may be dropped, as a sentence.
fn drop_sentence(t: &Tables, kind: PieceKind) -> String {
    let d = &t.variant().piece(kind).drops;
    let mut where_: Vec<String> = Vec::new();
    for &z in &d.only_in {
        where_.push(format!("in {}", zone(t, z)));
    }
    for &z in &d.never_in {
        where_.push(format!("outside {}", zone(t, z)));
    }
    let mut text = format!(
        "From the hand it may be dropped on any empty square{}",
        if where_.is_empty() {
            String::new()
        } else {
            format!(" {}", list(&where_, "and"))
        }
    );
    let dead = t.dead_squares(kind, Side::FIRST);
    if !d.even_where_stuck && !dead.is_empty() {
        text.push_str(" where it has a move");
    }
    if let Some(n) = d.max_per_file {
        text.push_str(&format!(
            ", with at most {} of its side's {} on a file",
            number(u32::from(n)),
            plural(&piece(t, kind))
        ));
    }
    if d.no_check {
        text.push_str(", but not to give check");
    } else if d.no_mate {
        text.push_str(", but not to give checkmate");
    }
    if !d.also_as.is_empty() {
        let names: Vec<String> = d
            .also_as
            .iter()
            .map(|&k| with_article(&piece(t, k)))
            .collect();
        text.push_str(&format!(", or as {}", list(&names, "or")));
    }
    text.push('.');
    if d.compulsory {
        text.push_str(" While one is in hand, it must be dropped before anything else moves.");
    }
    let mut limits = Vec::new();
    if d.unlimited {
        limits.push("Its supply never runs out.".to_string());
    }
    if let Some(z) = d.first_in {
        limits.push(format!(
            "While a square of {} is empty, it goes there.",
            zone(t, z)
        ));
    }
    if d.only_next_to_own {
        limits.push("It is dropped only next to one of its side's pieces.".into());
    }
    if d.only_flipping {
        limits.push("It is dropped only where it turns an enemy piece over.".into());
    }
    if d.apart {
        limits.push("It is never dropped a rook step from an enemy piece.".into());
    }
    if d.from_edge {
        limits.push(
            "It comes in from an edge along a rank or file and stops before the first piece in \
             its way, or at the far edge."
                .into(),
        );
    }
    if d.on_top {
        limits.push(
            "It falls: it is dropped on the first rank or on the square right above a piece."
                .into(),
        );
    }
    if d.both_colours {
        limits.push(format!(
            "Its side's {} end on squares of both colours.",
            plural(&piece(t, kind))
        ));
    }
    if d.unmoved {
        limits.push("Dropped, it counts as never moved (for castling).".into());
    }
    for l in limits {
        text.push(' ');
        text.push_str(&l);
    }
    text
}

/// The parts of a partition in words, as the first side reads them.
fn partition_words(t: &Tables, p: usize) -> String {
    let g = t.geometry();
    let part_of = &t.variant().partitions()[p].part_of[0];
    let count = part_of.iter().copied().max().map_or(0, |m| m as usize + 1);
    let parts: Vec<String> = (0..count)
        .map(|i| {
            let mut set = SquareSet::EMPTY;
            for sq in g.squares() {
                if part_of[sq.index()] as usize == i {
                    set.insert(sq);
                }
            }
            squares_words(g, &set)
        })
        .collect();
    list(&parts, "and")
}

// ---------------------------------------------------------------------------------------
// The game.

/// An option of the game, for the page's table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionText {
    /// Its name.
    pub name: String,
    /// Its setting in the rules described: `on` or `off`.
    pub setting: &'static str,
    /// Whether that is its default.
    pub default: bool,
    /// What it does, as the definition says.
    pub description: String,
}

/// A zone, partition or line and where it lies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaceText {
    /// Its name, for a heading ("Own quadrants").
    pub name: String,
    /// Its squares in words.
    pub squares: String,
}

/// The game's rules in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameProse {
    /// The board, the sides and the start.
    pub overview: Vec<String>,
    /// How the game is won, lost and drawn.
    pub ending: Vec<String>,
    /// Other rules of play: facing, castling, captures.
    pub play: Vec<String>,
    /// Promotions, one sentence per zone.
    pub promotions: Vec<String>,
    /// Drops.
    pub drops: Vec<String>,
    /// The options and their settings.
    pub options: Vec<OptionText>,
    /// The zones, partitions and lines the rules in force use.
    pub places: Vec<PlaceText>,
}

/// Where a side starts and which way it plays.
fn facing_words(f: Facing) -> &'static str {
    match f {
        Facing::North => "starts at the bottom and plays up the board",
        Facing::South => "starts at the top and plays down the board",
        Facing::East => "starts on the left and plays to the right",
        Facing::West => "starts on the right and plays to the left",
    }
}

/// A verdict for the side a rule is about, as a verb.
fn verdict_verb(v: Verdict) -> &'static str {
    match v {
        Verdict::Win => "wins",
        Verdict::Loss => "loses",
        Verdict::Draw => "draws",
    }
}

/// One count of a `when` rule: "exactly two galas in the centre".
fn count_words(t: &Tables, c: &CountTerm) -> String {
    let safe = if c.safe { "unattacked " } else { "" };
    let names: Vec<String> = c.kinds.iter().map(|&k| piece(t, k)).collect();
    let many = |names: &[String]| -> Vec<String> { names.iter().map(|n| plural(n)).collect() };
    let noun = |n: u32| {
        if n == 1 {
            list(&names, "or")
        } else {
            list(&many(&names), "or")
        }
    };
    let count = match (c.bound, c.count) {
        (Bound::Exactly, 0) | (Bound::AtMost, 0) => format!("no {safe}{}", list(&names, "or")),
        (Bound::Exactly, n) => format!("exactly {} {safe}{}", number(n), noun(n)),
        (Bound::AtLeast, n) => format!("at least {} {safe}{}", number(n), noun(n)),
        (Bound::AtMost, n) => format!("at most {} {safe}{}", number(n), noun(n)),
    };
    match c.zone {
        Some(z) => format!("{count} in {}", zone(t, z).replacen("its ", "", 1)),
        None if c.hand => format!("{count} on the board or in hand"),
        None => format!("{count} on the board"),
    }
}

/// A `when` rule as a sentence.
fn when_words(t: &Tables, w: &WhenRule) -> String {
    let own: Vec<String> = w
        .terms
        .iter()
        .filter(|c| !c.enemy)
        .map(|c| count_words(t, c))
        .collect();
    let enemy: Vec<String> = w
        .terms
        .iter()
        .filter(|c| c.enemy)
        .map(|c| count_words(t, c))
        .collect();
    let mut text = match (own.is_empty(), enemy.is_empty()) {
        (false, true) => format!("A side with {}", list(&own, "and")),
        (true, false) => format!("A side whose opponent has {}", list(&enemy, "and")),
        _ => format!(
            "A side with {}, while its opponent has {},",
            list(&own, "and"),
            list(&enemy, "and")
        ),
    };
    text.push(' ');
    text.push_str(verdict_verb(w.verdict));
    if let Some(name) = &w.name {
        text.push_str(&format!(" (“{name}”)"));
    }
    match w.asks {
        Asks::Both => {}
        Asks::ToMove => text.push_str(", counted when it is that side's turn to move"),
        Asks::JustMoved => text.push_str(", counted right after that side's own move"),
    }
    if w.answerable {
        text.push_str(", unless the side to move can at once do the same");
    }
    text.push('.');
    text
}

/// The royal kinds, in running text ("king, general or advisor").
fn royal_names(t: &Tables) -> Vec<String> {
    (0..t.kinds())
        .map(PieceKind::nth)
        .filter(|&k| t.royal(k))
        .map(|k| piece(t, k))
        .collect()
}

/// The zones the rules in force read: guards, arms, destinations, confinements, promotions,
/// drops, teleports, entries, `when` counts, and the zones drawn with a glyph.
pub fn used_zones(t: &Tables) -> Vec<ZoneId> {
    let v = t.variant();
    let mut used = vec![false; v.zones().len()];
    let mut mark = |z: ZoneId| used[z.index()] = true;
    for p in v.pieces() {
        for pat in p.patterns.iter().filter(|p| t.guards_hold(&p.options)) {
            pat.zones.iter().for_each(|g| mark(g.zone));
            pat.into.iter().for_each(|g| mark(g.zone));
            pat.avoiding.iter().for_each(|&z| mark(z));
            for leg in &pat.legs {
                leg.arms.iter().filter_map(|a| a.zone).for_each(&mut mark);
            }
        }
        for c in p.confinements.iter().filter(|c| t.guards_hold(&c.options)) {
            mark(c.zone);
        }
        for pr in p.promotions.iter().filter(|c| t.guards_hold(&c.options)) {
            mark(pr.zone);
        }
        if t.rules().drops {
            p.drops.only_in.iter().for_each(|&z| mark(z));
            p.drops.never_in.iter().for_each(|&z| mark(z));
        }
        for tp in p.teleports.iter().filter(|c| t.guards_hold(&c.options)) {
            tp.from.into_iter().chain(tp.to).for_each(&mut mark);
        }
        for e in p.entries.iter().filter(|c| t.guards_hold(&c.options)) {
            mark(e.zone);
        }
    }
    for w in v
        .rules()
        .conditions
        .iter()
        .filter(|w| t.guards_hold(&w.options))
    {
        w.terms.iter().filter_map(|c| c.zone).for_each(&mut mark);
    }
    for (i, z) in v.zones().iter().enumerate() {
        if z.glyph.is_some() {
            used[i] = true;
        }
    }
    (0..used.len())
        .filter(|&i| used[i])
        .filter_map(ZoneId::from_index)
        .collect()
}

/// Where a promotion clause applies: its zone, whether starting there counts, whether it is
/// forced, whether it is made in place, and which moves promote (entering, capturing).
type PromotionPlace = (ZoneId, bool, bool, bool, (bool, bool));

/// The game's rules in words, as the tables compiled them (the options in force).
pub fn game_prose(t: &Tables) -> GameProse {
    game_prose_in(t, &in_play(t))
}

/// [`game_prose`], `in_play` telling which kinds ever come onto the board.
pub(super) fn game_prose_in(t: &Tables, in_play: &[bool]) -> GameProse {
    let v = t.variant();
    let g = t.geometry();
    let r = t.rules();
    let rules = v.rules();
    let sides = v.sides();
    let names: Vec<String> = sides.iter().map(|s| s.name.clone()).collect();

    let mut overview = vec![format!(
        "{} is played by {} sides, {}, on a board of {} files and {} ranks{}.",
        v.name(),
        number(u32::try_from(sides.len()).expect("at most MAX_SIDES sides")),
        list(&names, "and"),
        g.width,
        g.height,
        if g.has_holes() {
            format!(
                " with {} holes ({})",
                g.len() - g.playable().len(),
                squares_words(g, &g.playable().complement(g.len()))
            )
        } else {
            String::new()
        }
    )];
    for (i, s) in sides.iter().enumerate() {
        let letters = match i {
            0 => " (uppercase letters)",
            1 => " (lowercase letters)",
            _ => "",
        };
        let first = if Side::nth(i) == rules.first_side {
            ", and moves first"
        } else {
            ""
        };
        overview.push(format!(
            "{}{letters} {}{first}.",
            capitalise(&s.name),
            facing_words(s.facing)
        ));
    }
    let counts: Vec<usize> = (0..sides.len())
        .map(|s| t.setup().iter().filter(|p| p.side.index() == s).count())
        .collect();
    if counts.windows(2).all(|w| w[0] == w[1]) {
        overview.push(format!(
            "Each side starts with {} pieces on the board.",
            counts[0]
        ));
    } else {
        let items: Vec<String> = counts
            .iter()
            .zip(&names)
            .map(|(c, n)| format!("{n} with {c}"))
            .collect();
        overview.push(format!(
            "The sides start with pieces on the board: {}.",
            list(&items, "and")
        ));
    }
    if !t.setup_hand().is_empty() {
        overview.push(format!(
            "At the start {} pieces are in hand.",
            t.setup_hand().len()
        ));
    }

    let mut ending = Vec::new();
    let royals = royal_names(t);
    let royal_list = list(&royals, "or");
    if r.checkmate {
        ending.push(format!(
            "A side whose royal piece ({royal_list}) is attacked is in check, and no move may \
             leave its own royal pieces in check. A side in check that has no legal move is \
             checkmated and {}.",
            verdict_verb(r.checkmated)
        ));
        match r.royal_guard {
            crate::model::RoyalGuard::Every => {}
            crate::model::RoyalGuard::Last => ending.push(
                "Only a side's last royal piece is guarded so: while it has several, any of them \
                 may be left attacked and captured."
                    .into(),
            ),
            crate::model::RoyalGuard::All => ending.push(
                "A side is in check only while every one of its royal pieces is attacked.".into(),
            ),
        }
    } else if !royals.is_empty() {
        ending.push(format!(
            "There is no check: a royal piece ({royal_list}) may be left attacked and captured."
        ));
    }
    if r.extinction {
        ending.push(format!(
            "A side that has lost all its royal pieces ({}) loses.",
            list(&royals.iter().map(|n| plural(n)).collect::<Vec<_>>(), "and")
        ));
    }
    ending.push(match (r.checkmate, r.stalemate) {
        (true, Verdict::Draw) => {
            "A side that is not in check but has no legal move is stalemated: the game is drawn."
                .into()
        }
        (true, v) => format!(
            "A side that is not in check but has no legal move is stalemated and {}.",
            verdict_verb(v)
        ),
        (false, Verdict::Draw) => "A side that has no legal move draws the game.".into(),
        (false, v) => format!("A side that has no legal move {}.", verdict_verb(v)),
    });
    if r.stalemate_by_count && r.stalemate != Verdict::Draw {
        ending.push(
            "That goes by piece count: only for a side with fewer pieces on the board than its \
             opponent; with more, the opposite; with as many, the game is drawn."
                .into(),
        );
    }
    if let Some((n, v)) = r.checks {
        ending.push(format!(
            "The side that gives check for the {} time {}.",
            ordinal(u32::from(n)),
            verdict_verb(v)
        ));
    }
    for (i, w) in &r.conditions {
        let _ = w;
        ending.push(when_words(t, &rules.conditions[*i as usize]));
    }
    if let Some(rep) = &r.repetition {
        let mut text = if rep.count == 2 {
            format!(
                "A move that recreates a position that occurred before {} for the side that made it",
                verdict_verb(rep.verdict)
            )
        } else {
            format!(
                "The {} occurrence of the same position {} for the side that made it",
                ordinal(u32::from(rep.count)),
                verdict_verb(rep.verdict)
            )
        };
        if rep.verdict == Verdict::Draw {
            text = format!(
                "The {} occurrence of the same position draws the game",
                ordinal(u32::from(rep.count))
            );
        }
        if rep.perpetual_check_loses {
            text.push_str(", but a side whose every move in the cycle gave check loses");
        }
        text.push('.');
        ending.push(text);
    }
    if let Some(n) = r.move_limit {
        let resetting: Vec<String> = (0..t.kinds())
            .map(PieceKind::nth)
            .filter(|&k| t.resets_clock(k))
            .map(|k| piece(t, k))
            .collect();
        let moves = if resetting.is_empty() {
            String::new()
        } else {
            format!(" or {} move", list(&resetting, "or"))
        };
        ending.push(format!(
            "After {n} plies in a row without a capture, drop, promotion{moves}, the game is drawn."
        ));
    }
    let winning: Vec<String> = t
        .castlings()
        .map(|(_, c)| &c.rule)
        .filter(|c| c.wins)
        .map(|c| {
            format!(
                "{}'s castling from `{}` to `{}`",
                capitalise(&v.sides()[c.side.index()].name),
                g.name(c.king_from),
                g.name(c.king_to)
            )
        })
        .collect();
    if !winning.is_empty() {
        ending.push(format!(
            "Making {} wins the game; a side that can no longer make any of its winning castlings \
             (its king or the partner moved or taken) loses.",
            list(&winning, "or")
        ));
    }
    if r.opposite_castling {
        ending.push(
            "A side that castles takes from its opponents their castlings toward the same edge \
             of the board."
                .into(),
        );
    }
    for c in &r.connect {
        let what = if c.kinds == KindSet::ALL {
            "pieces".to_string()
        } else {
            let names: Vec<String> = (0..t.kinds())
                .map(PieceKind::nth)
                .filter(|&k| c.kinds.contains(k))
                .map(|k| plural(&piece(t, k)))
                .collect();
            list(&names, "or")
        };
        let mut along = Vec::new();
        for (v, name) in [((0, 1), "file"), ((1, 0), "rank"), ((1, 1), "diagonal")] {
            if c.lines.contains(&v) {
                along.push(name.to_string());
            }
        }
        let verb = verdict_verb(c.verdict);
        ending.push(match (c.block, c.gaps) {
            (Some(high), _) => format!(
                "A side whose {what} fill a block {} files wide and {high} ranks high {verb} the game.",
                c.count
            ),
            (None, true) => format!(
                "A side with {} of its {what} on one {}, gaps allowed, {verb} the game.",
                c.count,
                list(&along, "or")
            ),
            (None, false) => format!(
                "A side with {} of its {what} in an unbroken row along a {} {verb} the game.",
                c.count,
                list(&along, "or")
            ),
        });
    }
    if r.full_board_draws {
        ending.push("The game is drawn when the board is full.".into());
    }
    if let Some(adds) = &r.counting {
        let mut text = "A game the rules end drawn is won by the side whose pieces on the board \
                        are worth more"
            .to_string();
        let bonus: Vec<String> = adds
            .iter()
            .enumerate()
            .filter(|(_, &a)| a != 0.0)
            .map(|(s, a)| format!("{} adds {a}", v.sides()[s].name))
            .collect();
        if !bonus.is_empty() {
            text.push_str(&format!(" ({})", list(&bonus, "and")));
        }
        text.push_str("; equal totals draw.");
        ending.push(text);
    }
    if let Some((side, verdict)) = r.draw_odds {
        ending.push(format!(
            "A game the rules end drawn {} for {}.",
            verdict_verb(verdict),
            v.sides()[side.index()].name
        ));
    }
    if r.mating_drops_lose {
        ending.push(
            "A drop that may not give checkmate may still do so, and its side then loses.".into(),
        );
    }

    let mut play = Vec::new();
    for f in rules.facing.iter().filter(|f| t.guards_hold(&f.options)) {
        let mut lines = Vec::new();
        if f.vectors.iter().any(|&(x, y)| x == 0 && y != 0) {
            lines.push("file".to_string());
        }
        if f.vectors.iter().any(|&(x, y)| y == 0 && x != 0) {
            lines.push("rank".to_string());
        }
        if f.vectors.iter().any(|&(x, y)| x != 0 && y != 0) {
            lines.push("diagonal".to_string());
        }
        play.push(format!(
            "The royal pieces of the two sides may not face each other along a {} with no piece between.",
            list(&lines, "or")
        ));
    }
    if r.checks_forbidden {
        play.push("No move may give check.".into());
    }
    if r.must_capture {
        play.push("A side that can capture must capture.".into());
    }
    if !r.counter_strike.is_empty() {
        let kinds: Vec<String> = (0..t.kinds())
            .map(PieceKind::nth)
            .filter(|&k| r.counter_strike.contains(k))
            .map(|k| piece(t, k))
            .collect();
        let named = list(&kinds, "or");
        play.push(format!(
            "After {} is captured by another piece, the next move may capture {} only with one.",
            with_article(&named),
            with_article(&named)
        ));
    }
    if r.must_drop {
        play.push("A side that holds pieces in hand and can drop one must drop.".into());
    }
    match r.flip {
        Some(crate::model::Flip::Enclosed) => play.push(
            "After a move, the enemy pieces enclosed in a line between the square it reached and \
             one of the mover's pieces turn to the mover's side."
                .into(),
        ),
        Some(crate::model::Flip::Adjacent) => play.push(
            "After a move, the enemy pieces next to the square it reached turn to the mover's \
             side."
                .into(),
        ),
        None => {}
    }
    if r.passing {
        play.push(if r.passing_when_stuck {
            "A side with no other move passes; two passes in a row draw the game.".into()
        } else {
            "A side not in check may pass instead of moving; two passes in a row draw the game."
                .into()
        });
    }
    if r.leave_walls {
        play.push(
            "The square a piece moves from becomes a wall for the rest of the game: no piece \
             may stop on it or pass it."
                .into(),
        );
    }
    if !r.petrify.is_empty() {
        let kinds: Vec<String> = (0..t.kinds())
            .map(PieceKind::nth)
            .filter(|&k| r.petrify.contains(k))
            .map(|k| piece(t, k))
            .collect();
        play.push(format!(
            "A {} that captures turns to stone: its square becomes a wall.",
            list(&kinds, "or")
        ));
    }
    if let Some(w) = r.wall_placing {
        let mut text = if w.moving {
            "Every move ends with the wall moved to an empty square".to_string()
        } else {
            "Every move ends with a wall built on an empty square".to_string()
        };
        if let Some(z) = w.zone {
            text.push_str(&format!(" of {}", zone(t, z)));
        }
        if w.reach {
            text.push_str(" that the piece just moved could move to");
        }
        text.push('.');
        play.push(text);
    }
    if let Some(z) = r.gating {
        play.push(format!(
            "A piece leaving its start square in {} for the first time may leave a piece from \
             its side's hand there.",
            zone(t, z)
        ));
    }
    if r.explosions {
        play.push(
            "Every capture is an explosion: the capturing piece and every piece one step around \
             the capture square are removed too, unless they are immune."
                .into(),
        );
    }
    let castlings: Vec<&crate::model::Castling> = rules
        .castlings
        .iter()
        .filter(|c| c.side == Side::FIRST && t.guards_hold(&c.options))
        .collect();
    if !castlings.is_empty() {
        let items: Vec<String> = castlings
            .iter()
            .map(|c| {
                format!(
                    "the {} from `{}` to `{}` with the {} from `{}` to `{}`",
                    piece(t, c.king),
                    g.name(c.king_from),
                    g.name(c.king_to),
                    piece(t, c.partner),
                    g.name(c.partner_from),
                    g.name(c.partner_to)
                )
            })
            .collect();
        let whose = if rules.first_side == Side::FIRST {
            "the side that moves first".to_string()
        } else {
            capitalise(&v.sides()[0].name)
        };
        play.push(format!(
            "Castling moves two pieces at once: {} (for {whose}; the other \
             side's are alike). Both pieces must be unmoved and the squares between them empty, \
             and the {} may not be in check, nor pass or land on an attacked square.",
            list(&items, "or"),
            piece(t, castlings[0].king)
        ));
    }

    // Promotions, grouped by where they happen.
    let mut promotions: Vec<String> = Vec::new();
    let mut by_place: Vec<(PromotionPlace, Vec<String>, bool)> = Vec::new();
    for (i, p) in v.pieces().iter().enumerate() {
        let kind = PieceKind::nth(i);
        if !in_play[i] {
            continue;
        }
        for pr in p.promotions.iter().filter(|c| t.guards_hold(&c.options)) {
            let choices: Vec<String> = pr.choices.iter().map(|&k| piece(t, k)).collect();
            let item = format!("{} to {}", piece(t, kind), list(&choices, "or"));
            let zone_set = v.zones()[pr.zone.index()].squares[0];
            let stuck = !pr.in_place
                && !pr.never_forced
                && !t
                    .dead_squares(kind, Side::FIRST)
                    .intersection(&zone_set)
                    .is_empty();
            let key = (
                pr.zone,
                pr.from_zone_too,
                pr.forced,
                pr.in_place,
                (pr.when_entering, pr.when_capturing),
            );
            match by_place.iter_mut().find(|(k, _, _)| *k == key) {
                Some((_, items, any_stuck)) => {
                    items.push(item);
                    *any_stuck |= stuck;
                }
                None => by_place.push((key, vec![item], stuck)),
            }
        }
    }
    for ((z, from_too, forced, in_place, which), items, stuck) in by_place {
        let moves = match which {
            (true, true) => ", when it enters the zone or captures",
            (true, false) => ", when it enters the zone",
            (false, true) => ", when it captures",
            (false, false) => "",
        };
        promotions.push(format!(
            "{} ({}){moves}, {}: {}.",
            capitalise(&promotion_where(t, z, from_too, in_place)),
            zone_squares(t, z),
            match (forced, stuck) {
                (true, _) => "a piece must promote",
                (false, true) => "a piece may promote (it must where it would have no move left)",
                (false, false) => "a piece may promote",
            },
            list(&items, "and")
        ));
    }

    let mut drops = Vec::new();
    if r.drops {
        drops.push(if r.captures_to_hand {
            "A captured piece goes to the captor's hand, as the piece it demotes to, and instead \
             of moving a side may drop a piece from its hand on an empty square."
                .into()
        } else {
            "Captured pieces leave the game; the pieces the setup puts in hand may be dropped on \
             an empty square instead of a move."
                .into()
        });
        for (i, p) in v.pieces().iter().enumerate() {
            let kind = PieceKind::nth(i);
            let d = &p.drops;
            if !can_be_in_hand(t, kind) || !in_play[i] {
                continue;
            }
            let mut limits: Vec<String> = Vec::new();
            for &z in &d.only_in {
                limits.push(format!("only in {}", zone(t, z)));
            }
            for &z in &d.never_in {
                limits.push(format!("not in {}", zone(t, z)));
            }
            if let Some(n) = d.max_per_file {
                limits.push(format!("at most {} per file", number(u32::from(n))));
            }
            if d.no_check {
                limits.push("not to give check".into());
            } else if d.no_mate {
                limits.push("not to give checkmate".into());
            }
            if !limits.is_empty() {
                drops.push(format!(
                    "{}: {}.",
                    capitalise(&plural(&piece(t, kind))),
                    list(&limits, "and")
                ));
            }
        }
    }

    let options = v
        .options()
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let on = t.options()[i];
            OptionText {
                name: o.name.clone(),
                setting: if on { "on" } else { "off" },
                default: on == o.default,
                description: o.description.clone(),
            }
        })
        .collect();

    let mut places: Vec<PlaceText> = used_zones(t)
        .into_iter()
        .map(|z| PlaceText {
            name: display_name(&v.zones()[z.index()].name),
            squares: zone_squares(t, z),
        })
        .collect();
    let mut partitions_used = vec![false; v.partitions().len()];
    for p in v.pieces() {
        for w in p.within.iter().filter(|w| t.guards_hold(&w.options)) {
            partitions_used[w.partition.index()] = true;
        }
        for pat in p.patterns.iter().filter(|p| t.guards_hold(&p.options)) {
            if let Some(h) = &pat.holding {
                partitions_used[h.partition.index()] = true;
            }
        }
    }
    for (i, p) in v.partitions().iter().enumerate() {
        if partitions_used[i] {
            places.push(PlaceText {
                name: display_name(&p.name),
                squares: format!("parts {}", partition_words(t, i)),
            });
        }
    }
    for l in v.lines() {
        let edges = l.north[0].len() + l.east[0].len();
        places.push(PlaceText {
            name: display_name(&l.name),
            squares: format!("a line along {edges} square edges, drawn as walls"),
        });
    }

    GameProse {
        overview,
        ending,
        play,
        promotions,
        drops,
        options,
        places,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(file: &str) -> crate::engine::Position {
        let text = std::fs::read_to_string(format!("definitions/{file}")).unwrap();
        let variant = crate::load(file, &text).unwrap();
        crate::engine::Position::new(Tables::compile(&variant, &[]).unwrap())
    }

    fn kind(t: &Tables, name: &str) -> PieceKind {
        t.variant().piece_by_name(name).unwrap()
    }

    #[test]
    fn names_read_as_words() {
        assert_eq!(display_name("HeavyCavalry"), "Heavy cavalry");
        assert_eq!(display_name("crossed-pawn"), "Crossed pawn");
        assert_eq!(display_name("Promoted_Silver"), "Promoted silver");
        assert_eq!(display_name("own-quadrants"), "Own quadrants");
        assert_eq!(display_name("XMLParser"), "XML parser");
        assert_eq!(display_name("P2"), "P2");
        assert_eq!(display_name("King"), "King");
        assert_eq!(running_name("FootSoldier"), "foot soldier");
    }

    #[test]
    fn zones_read_as_noun_phrases() {
        assert_eq!(zone_phrase("castle"), "the castle");
        assert_eq!(zone_phrase("own-castles"), "its own castles");
        assert_eq!(zone_phrase("crossed"), "the crossed zone");
        assert_eq!(zone_phrase("promotion-zone"), "the promotion zone");
    }

    #[test]
    fn plurals_and_articles() {
        assert_eq!(plural("gala"), "galas");
        assert_eq!(plural("heavy cavalry"), "heavy cavalries");
        assert_eq!(plural("ferz"), "ferzes");
        assert_eq!(plural("bodyguard"), "bodyguards");
        assert_eq!(with_article("elephant"), "an elephant");
        assert_eq!(with_article("rook"), "a rook");
        assert_eq!(
            list(&["a".into(), "b".into(), "c".into()], "or"),
            "a, b or c"
        );
    }

    #[test]
    fn directions_read_as_words() {
        assert_eq!(
            directions(&[
                (0, 1),
                (1, 0),
                (0, -1),
                (-1, 0),
                (1, 1),
                (1, -1),
                (-1, -1),
                (-1, 1)
            ]),
            "in any direction"
        );
        assert_eq!(
            directions(&[(1, 1), (-1, 1), (0, 1), (0, -1)]),
            "forward, backward or diagonally forward"
        );
        assert_eq!(
            directions(&[(0, 1), (-1, 0), (1, 0)]),
            "forward or sideways"
        );
        assert_eq!(
            directions(&betza::all_vectors((2, 1))),
            "(1,2) in any direction"
        );
        assert_eq!(directions(&[(-1, 2), (1, 2)]), "to `[-1,2]` or `[1,2]`");
    }

    #[test]
    fn squares_read_as_ranges() {
        let g = Geometry::new(9, 9);
        let mut set = SquareSet::EMPTY;
        for sq in g.squares().filter(|&s| g.rank(s) >= 6) {
            set.insert(sq);
        }
        assert_eq!(squares_words(g, &set), "ranks 7-9");
        let mut block = SquareSet::EMPTY;
        for f in 3..6 {
            for r in 0..3 {
                block.insert(g.square(f, r).unwrap());
            }
        }
        assert_eq!(squares_words(g, &block), "d1-f3");
        assert_eq!(
            squares_words(g, &block.complement(g.len())),
            "every square except d1-f3"
        );
    }

    #[test]
    fn a_piece_is_described_from_its_declaration() {
        let pos = start("gi-qi-game.variant");
        let t = pos.tables();
        let bodyguard = piece_prose(t, kind(t, "Bodyguard")).sentences().join(" ");
        assert!(bodyguard.contains("Outside the crossed zone, it steps one square forward, backward or diagonally forward."), "{bodyguard}");
        assert!(
            bodyguard.contains("next to its king from which its own moves"),
            "{bodyguard}"
        );
        assert!(
            bodyguard.contains(
                "may promote to a warrior on a move that ends in or starts from the promotion zone"
            ),
            "{bodyguard}"
        );
        assert!(
            bodyguard.contains("`fFvW` outside the crossed zone"),
            "{bodyguard}"
        );
        let cavalry = piece_prose(t, kind(t, "HeavyCavalry"))
            .sentences()
            .join(" ");
        assert!(cavalry.contains("steps one square orthogonally to an empty square, then slides up to 2 squares outward"), "{cavalry}");
        assert!(
            cavalry.contains("It is what a horse promotes to."),
            "{cavalry}"
        );
        let king = piece_prose(t, kind(t, "King")).sentences().join(" ");
        assert!(
            king.contains(
                "ending only in a part of the blocks holding a friendly bodyguard or warrior"
            ),
            "{king}"
        );
        assert!(king.contains("It is royal"), "{king}");
        let elephant = piece_prose(t, kind(t, "Elephant")).sentences().join(" ");
        assert!(
            elephant.contains("dropped on any empty square outside the last rank"),
            "{elephant}"
        );
        assert!(elephant.contains("Betza: `fB`."), "{elephant}");
    }

    #[test]
    fn the_game_is_described_from_its_rules() {
        let pos = start("gi-qi-game.variant");
        let game = game_prose(pos.tables());
        let all = [
            game.overview,
            game.ending,
            game.play,
            game.promotions,
            game.drops,
        ]
        .concat()
        .join(" ");
        assert!(all.contains("board of 9 files and 9 ranks"), "{all}");
        assert!(all.contains("checkmated and loses"), "{all}");
        assert!(all.contains("stalemated and loses"), "{all}");
        assert!(
            all.contains("recreates a position that occurred before loses"),
            "{all}"
        );
        assert!(all.contains("along a file, rank or diagonal"), "{all}");
        assert!(all.contains("drop a piece from its hand"), "{all}");
        assert!(all.contains("bodyguard to warrior"), "{all}");
        assert_eq!(game.options.len(), 3);
        let pos = start("gala.variant");
        let game = game_prose(pos.tables());
        let all = game.ending.join(" ");
        assert!(
            all.contains("A side with exactly two galas in the centre wins (“great victory”)."),
            "{all}"
        );
        assert!(
            all.contains("There is no check") || !all.contains("check"),
            "{all}"
        );
    }
}
