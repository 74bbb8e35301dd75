//! What XBoard 4.9 knows, as data: its piece types with the picture each is drawn with, and
//! its own games with the names it reads and the piece letters it writes. Nothing here names
//! a definition of Rulebook's: [`super::xboard_pieces`] matches a definition's pieces against
//! these by their moves, names and promotions.

use std::collections::BTreeSet;

use crate::model::betza::{all_vectors, groups, leap, selected};

/// One of XBoard's piece types.
pub(super) struct Type {
    /// Its number in XBoard (the place of its letter in a `setup` table).
    pub slot: usize,
    /// The moves its picture stands for, in XBoard's Betza (empty: none in particular).
    pub betza: &'static str,
    /// Piece names its picture shows, lowercase, words apart (the picture's own name first).
    pub names: &'static [&'static str],
    /// The types whose promoted form its picture shows (a tokin for the Pawn).
    pub promotes: &'static [usize],
}

/// The Pawn type: XBoard moves it as a pawn (promotion on the last rank, en passant by any
/// sideways move to an empty square).
pub(super) const PAWN: usize = 0;
/// The Lance type, which XBoard treats as a pawn in most games.
pub(super) const LANCE: usize = 18;
/// The wildcard types, whose moves XBoard does not check when it is told none.
pub(super) const WILDCARDS: [usize; 2] = [17, 19];
/// The King type, on which XBoard tests check.
pub(super) const KING: usize = 65;
/// A shogi-style promotion (`+`) is taken only for types below this.
pub(super) const PROMOTABLE: usize = 11;
/// The first type a `/` in a `setup` table jumps to.
pub(super) const JUMP: usize = 46;

/// XBoard's types that a game it does not know can use, with the pictures of its default
/// theme (`themes/default/*.svg`). Left out: the Lion (XBoard applies Chu's lion-capture
/// rules to it), the Amazon (drawn as a lance), the wheels and the half crown (drawn as a
/// disc or not at all) and the Mother and Kylin (drawn as a queen and a lion).
pub(super) const TYPES: &[Type] = &[
    t(
        0,
        "fmWfcFifmnD",
        &["pawn", "soldier", "peasant", "foot soldier"],
        &[],
    ),
    t(1, "N", &["knight", "horse", "cavalry"], &[]),
    t(2, "B", &["bishop"], &[]),
    t(3, "R", &["rook", "chariot"], &[]),
    t(4, "Q", &["queen", "minister"], &[]),
    t(
        5,
        "F",
        &["advisor", "ferz", "fers", "mandarin", "counsellor", "met"],
        &[],
    ),
    t(6, "A", &["elephant", "alfil"], &[]),
    t(
        7,
        "BN",
        &["archbishop", "cardinal", "princess", "janus"],
        &[],
    ),
    t(8, "RN", &["marshall", "marshal", "empress"], &[]),
    t(9, "WfF", &["gold", "gold general", "general", "wazir"], &[]),
    t(
        10,
        "K",
        &["commoner", "man", "mann", "guard", "bodyguard"],
        &[],
    ),
    t(11, "mRcpR", &["cannon", "canon", "catapult"], &[]),
    t(12, "N0", &["nightrider", "rider"], &[]),
    t(
        13,
        "BW",
        &["crowned bishop", "dragon horse", "horse", "promoted bishop"],
        &[2],
    ),
    t(
        14,
        "RF",
        &["crowned rook", "dragon king", "dragon", "promoted rook"],
        &[3],
    ),
    t(15, "", &["crown", "princess"], &[]),
    t(16, "RN", &["chancellor"], &[]),
    t(17, "", &["hawk", "falcon", "eagle", "bird"], &[]),
    t(18, "fR", &["lance", "spear", "pike"], &[]),
    t(19, "", &["cobra", "snake", "serpent"], &[]),
    t(20, "", &["unicorn"], &[]),
    t(22, "", &["sword", "swordsman"], &[]),
    t(23, "Z", &["zebra"], &[]),
    t(24, "C", &["camel"], &[]),
    t(25, "R", &["tower", "castle", "fortress"], &[]),
    t(26, "", &["wolf", "fox", "dog", "jackal"], &[]),
    t(27, "", &["hat"], &[]),
    t(28, "", &["duck", "goose"], &[]),
    t(30, "", &["dragon", "wyvern"], &[]),
    t(
        31,
        "",
        &["gnu", "ox", "bull", "buffalo", "bison", "wildebeest"],
        &[],
    ),
    t(32, "", &["cub", "lion"], &[]),
    t(33, "", &["shield"], &[]),
    t(34, "", &["pegasus", "winged horse", "flying horse"], &[]),
    t(35, "", &["wizard", "magician", "mage", "sorcerer"], &[]),
    t(
        36,
        "",
        &["helmet", "warrior", "hoplite", "soldier", "footman"],
        &[],
    ),
    t(
        37,
        "",
        &["iron", "pawn", "sergeant", "lieutenant", "captain"],
        &[],
    ),
    t(38, "", &["viking", "berserker", "warlord"], &[]),
    t(39, "", &["flag", "banner", "standard"], &[]),
    t(40, "", &["axe", "axeman"], &[]),
    t(41, "", &["dolphin"], &[]),
    t(42, "", &["leopard", "cat", "tiger", "panther"], &[]),
    t(43, "", &["claw"], &[]),
    t(45, "", &["butterfly"], &[]),
    t(46, "", &["promoted bishop"], &[2]),
    t(47, "", &["promoted rook"], &[3]),
    t(49, "", &["shield"], &[]),
    t(50, "", &["king", "monarch", "prince", "emperor"], &[]),
    t(
        53,
        "",
        &["drunk elephant", "drunken elephant", "elephant"],
        &[],
    ),
    t(55, "WfF", &["tokin", "promoted pawn"], &[0]),
    t(56, "WfF", &["promoted knight"], &[1]),
    t(57, "", &["promoted horse"], &[13]),
    t(58, "", &["promoted dragon"], &[14]),
    t(59, "WfF", &["promoted lance"], &[18]),
    t(60, "WfF", &["promoted silver"], &[5, 16]),
    t(61, "", &["dagger"], &[]),
    t(62, "", &["sword"], &[]),
    t(64, "", &["crown", "princess"], &[]),
];

const fn t(
    slot: usize,
    betza: &'static str,
    names: &'static [&'static str],
    promotes: &'static [usize],
) -> Type {
    Type {
        slot,
        betza,
        names,
        promotes,
    }
}

/// One of XBoard's own games: its name, and its piece letters by type as XBoard sets them
/// (`backend.c`, `InitPosition`), white's half then black's, each ending with the King type.
/// XBoard plays these by its own rules and draws them with its own pieces.
pub(super) struct Game {
    pub name: &'static str,
    pub table: &'static str,
}

/// The table of the games XBoard gives no table of their own.
const CHESS: &str = "PNBRQ...........Kpnbrq...........k";

/// XBoard's games, in the order of its `VARIANT_NAMES` (its name matching depends on it).
pub(super) const GAMES: &[Game] = &[
    g("normal", CHESS),
    g("wildcastle", CHESS),
    g("nocastle", CHESS),
    g("fischerandom", CHESS),
    g("bughouse", "PNBRQ.......~~~~Kpnbrq.......~~~~k"),
    g("crazyhouse", "PNBRQ.......~~~~Kpnbrq.......~~~~k"),
    g("losers", CHESS),
    g("suicide", CHESS),
    g("giveaway", CHESS),
    g("twokings", CHESS),
    g("kriegspiel", CHESS),
    g("atomic", CHESS),
    g("3check", CHESS),
    g("shatranj", "PN.R.QB...Kpn.r.qb...k"),
    g("wild29", CHESS),
    g("wild30", CHESS),
    g("wild31", CHESS),
    g("wild32", CHESS),
    g("wild33", CHESS),
    g("wild34", CHESS),
    g("wild35", CHESS),
    g("wild36", CHESS),
    g("shogi", "PNBRLS...G.++++++Kpnbrls...g.++++++k"),
    g("chu", ""),
    g("courier", "PNBR.FE..WMKpnbr.fe..wmk"),
    g("gothic", "PNBRQ..ACKpnbrq..ack"),
    g("capablanca", "PNBRQ..ACKpnbrq..ack"),
    g("knightmate", "P.BRQ.....M.........K.p.brq.....m.........k."),
    g("fairy", "PNBRQFEACWMOHIJGDVLSUKpnbrqfeacwmohijgdvlsuk"),
    g("cylinder", CHESS),
    g("falcon", "PNBRQ............FKpnbrq............fk"),
    g("caparandom", "PNBRQ..ACKpnbrq..ack"),
    g("berolina", CHESS),
    g("janus", "PNBRQ..JKpnbrq..jk"),
    g("super", "PNBRQ..SE.......V.AKpnbrq..se.......v.ak"),
    g("great", "PN....E...S..HWGMKpn....e...s..hwgmk"),
    g("twilight", ""),
    g("makruk", "PN.R.M....SKpn.r.m....sk"),
    g("seirawan", "PNBRQ..HEKpnbrq..hek"),
    g("grand", "PNBRQ..ACKpnbrq..ack"),
    g(
        "spartan",
        "PNBRQ.....................K......lw......g...h......ck",
    ),
    g("xiangqi", "PH.R.AE..K.C.ph.r.ae..k.c."),
    g("asean", "PN.R.Q....BKpn.r.q....bk"),
    g("lion", "PNBRQ................LKpnbrq................lk"),
    g("elven", "PNBRQ.....M.+++......LKpnbrq.....m.+++......lk"),
];

const fn g(name: &'static str, table: &'static str) -> Game {
    Game { name, table }
}

/// Where XBoard's first game whose name needs not start the name read (`normal` to
/// `wild36`) ends in [`GAMES`]: from `shogi` on, the name must start with it.
const ANYWHERE: usize = 22;

/// The game of its own that XBoard plays when told `-variant NAME`, if any, as its
/// `StringToVariant` reads names: a board-size prefix `10x8+0_` is skipped; the games up to
/// `wild36` are found anywhere in the name (`nocheckatomic` is `atomic`), the later ones only
/// at its start and not followed by a letter (`xiangqi-x` is `xiangqi`, `gala-xiangqi` is
/// none); then Fischer random's and ICC's `wild` names. A name XBoard reads as `normal` but
/// that is not `normal` is a game XBoard learns from its engine.
pub(super) fn xboard_game(name: &str) -> Option<&'static Game> {
    let lower = name.to_ascii_lowercase();
    let mut e = lower.as_str();
    if let Some((prefix, rest)) = e.split_once('_') {
        let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let size = prefix.split_once('x').is_some_and(|(w, h)| {
            let (h, n) = h.split_once('+').unwrap_or((h, "0"));
            number(w) && number(h) && number(n)
        });
        if size && !rest.is_empty() {
            e = rest;
        }
    }
    if e.contains("misc/") {
        return None;
    }
    let found = GAMES.iter().enumerate().find_map(|(i, g)| {
        let at = e.find(g.name)?;
        let after = e[at + g.name.len()..].chars().next();
        if i >= ANYWHERE && (at != 0 || after.is_some_and(|c| c.is_ascii_alphabetic())) {
            return None;
        }
        Some(g)
    });
    let found = match found {
        Some(g) => Some(g),
        None if (e.contains("fischer") && e.contains("random"))
            || e.contains("wild/fr")
            || e.contains("frc")
            || e.contains("960") =>
        {
            game("fischerandom")
        }
        None => wild(e),
    };
    found.filter(|g| g.name != "normal" || e == "normal")
}

/// ICC's `wild N` (or `wN`) names, as XBoard maps them.
fn wild(e: &str) -> Option<&'static Game> {
    let at = e
        .find("wild")
        .map(|i| i + 4)
        .or_else(|| e.find('w').map(|i| i + 1))?;
    let rest = e[at..].trim_start_matches([' ', '(', '/']);
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    let n: u32 = digits.parse().ok()?;
    let name = match n {
        0 | 1 => "wildcastle",
        2..=4 => "nocastle",
        9 => "twokings",
        16 => "kriegspiel",
        17 => "losers",
        22 => "fischerandom",
        23 => "crazyhouse",
        24 => "bughouse",
        25 => "3check",
        26 => "giveaway",
        27 => "atomic",
        28 => "shatranj",
        29..=36 => return GAMES.iter().find(|g| g.name == format!("wild{n}")),
        37 => "shogi",
        38 => "xiangqi",
        39 => "courier",
        40 => "gothic",
        41 => "capablanca",
        42 => "knightmate",
        43 => "fairy",
        44 => "cylinder",
        45 => "falcon",
        46 => "caparandom",
        47 => "berolina",
        48 => "janus",
        49 => "super",
        50 => "great",
        _ => "normal",
    };
    game(name)
}

fn game(name: &str) -> Option<&'static Game> {
    GAMES.iter().find(|g| g.name == name)
}

/// A type's place in a table written for XBoard: every letter is one type, `/` jumps to
/// [`JUMP`], the last letter of each half is the King. Returns each half's letters by type
/// (`.` none, `+` or `~` the promoted partner of the type eleven before).
pub(super) fn read_table(table: &str) -> Option<[Vec<(usize, char)>; 2]> {
    let chars: Vec<char> = table.chars().collect();
    let letters = chars.iter().filter(|&&c| c != '/').count();
    if letters < 2 || letters % 2 != 0 {
        return None;
    }
    let mut halves: [Vec<(usize, char)>; 2] = [Vec::new(), Vec::new()];
    let mut i = 0;
    for half in &mut halves {
        let mut slot = 0;
        let mut count = 0;
        while count < letters / 2 {
            if chars[i] == '/' {
                slot = JUMP;
                i += 1;
                continue;
            }
            count += 1;
            let s = if count == letters / 2 { KING } else { slot };
            half.push((s, chars[i]));
            slot += 1;
            i += 1;
        }
    }
    Some(halves)
}

/// The squares a piece moving by the Betza `text` reaches from the middle of an empty board,
/// as displacements in its own frame (forward is `+y`), riders up to seven steps; hoppers are
/// read as riders and lame leapers as leapers, what matters here being where a piece goes.
pub(super) fn footprint(text: &str) -> BTreeSet<(i8, i8)> {
    let mut out = BTreeSet::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut dirs = String::new();
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if c.is_ascii_lowercase() {
            if "fblrsv".contains(c) {
                dirs.push(c);
            }
            continue;
        }
        let mut digits = String::new();
        while i < chars.len() && chars[i].is_ascii_digit() {
            digits.push(chars[i]);
            i += 1;
        }
        let range: Option<i8> = if digits.is_empty() {
            None
        } else {
            Some(digits.parse::<i8>().unwrap_or(0))
        };
        let (atoms, rider): (Vec<char>, bool) = match c {
            'K' => (vec!['W', 'F'], false),
            'R' => (vec!['W'], true),
            'B' => (vec!['F'], true),
            'Q' => (vec!['W', 'F'], true),
            'O' => (Vec::new(), false),
            l => (vec![l], range.is_some()),
        };
        let steps = match (rider, range) {
            (false, _) => 1,
            (true, None | Some(0)) => 7,
            (true, Some(n)) => n.min(7),
        };
        for atom in atoms {
            let Some(base) = leap(atom) else { continue };
            let diagonal = base.0 == base.1;
            let oblique = base.0 != base.1 && base.1 != 0;
            let gs = groups(&dirs, diagonal, oblique);
            for v in all_vectors(base) {
                if !gs.is_empty() && !gs.iter().any(|g| selected(g, v, oblique)) {
                    continue;
                }
                for n in 1..=steps {
                    out.insert((v.0 * n, v.1 * n));
                }
            }
        }
        dirs.clear();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_as_xboard_reads_them() {
        let name = |n: &str| xboard_game(n).map(|g| g.name);
        assert_eq!(name("normal"), Some("normal"));
        assert_eq!(name("chess"), None);
        assert_eq!(name("normal-ish"), None);
        assert_eq!(name("shogi"), Some("shogi"));
        assert_eq!(name("xiangqi"), Some("xiangqi"));
        assert_eq!(name("middle-xiangqi"), None);
        assert_eq!(name("xiangqi-x"), Some("xiangqi"));
        assert_eq!(name("gala-xiang-qi"), None);
        assert_eq!(name("nocheckatomic"), Some("atomic"));
        assert_eq!(name("atomic-chess"), Some("atomic"));
        assert_eq!(name("berolina-chess"), Some("berolina"));
        assert_eq!(name("spartan-chess"), Some("spartan"));
        assert_eq!(name("three-check"), None);
        assert_eq!(name("3check"), Some("3check"));
        assert_eq!(name("10x8+0_capablanca"), Some("capablanca"));
        assert_eq!(name("chess960"), Some("fischerandom"));
        assert_eq!(name("new-zealand"), None);
        assert_eq!(name("delegating-chess"), None);
    }

    #[test]
    fn tables_are_read_by_type() {
        let [white, black] = read_table("PH.R.AE..K.C.ph.r.ae..k.c.").unwrap();
        assert_eq!(white[1], (1, 'H'));
        assert_eq!(white[9], (9, 'K'));
        assert_eq!(white.last(), Some(&(KING, '.')));
        assert_eq!(black[11], (11, 'c'));
        let [white, black] = read_table("PQ/TKpq/tk").unwrap();
        assert_eq!(white, vec![(0, 'P'), (1, 'Q'), (JUMP, 'T'), (KING, 'K')]);
        assert_eq!(black[2], (JUMP, 't'));
    }

    #[test]
    fn footprints_are_where_a_piece_goes() {
        let n = footprint("N");
        assert_eq!(n.len(), 8);
        assert_eq!(footprint("nN"), n);
        assert_eq!(footprint("fmWfcFifmnD").len(), 4);
        assert!(footprint("fsW").contains(&(-1, 0)));
        assert!(!footprint("fsW").contains(&(0, -1)));
        assert_eq!(footprint("mRcpR"), footprint("R"));
        assert_eq!(footprint("R").len(), 28);
        assert_eq!(footprint("KO2").len(), 8);
    }
}
