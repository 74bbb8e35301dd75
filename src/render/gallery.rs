//! A diagram gallery: a web page that presents a variant, its rules in words, its board map
//! and every piece with a description and its move diagrams, ready to upload with its SVG
//! files.
//!
//! A piece is drawn from one square of each region where its rules differ (the zones its
//! patterns, arms, teleports and entry conditions read where it stands), always on a square
//! it can stand on: where it starts, where its own moves take it, where it is dropped or
//! created by promotion. Where its moves depend on another piece (a teleport next to it, a
//! move into a part holding it), that piece is placed too and named in the caption. A
//! diagram that shows the movement of one already drawn, moved or mirrored, is left out.

use std::fmt::Write;

use super::describe::{self, GameProse, PieceProse};
use super::diagram::{diagram_markers, DiagramMode, Marker};
use super::svg::{board_svg, escape, move_diagram_svg};
use crate::engine::{Piece, Position};
use crate::model::{Geometry, Letter, Owner, PieceKind, Side, Square, SquareSet, Tables, ZoneId};

/// The most diagrams drawn for one piece.
pub const MAX_PER_PIECE: usize = 6;

/// How many squares of one region are tried before the region is given up.
const TRIES_PER_REGION: usize = 16;

/// How many squares of one region where the piece moves are weighed against each other.
const CANDIDATES_PER_REGION: usize = 6;

/// How many squares are tried for a companion piece.
const TRIES_PER_COMPANION: usize = 40;

/// One diagram of a gallery.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GalleryDiagram {
    /// The file name it is written to (`heavy-cavalry-e4.svg`).
    pub file: String,
    /// The square the piece stands on.
    pub square: String,
    /// The pieces drawn: the piece itself first, then the piece its moves depend on, if any.
    pub pieces: Vec<(Square, Piece)>,
    /// What it shows: "Bodyguard on e4, outside the crossed zone, with its king on e1".
    pub caption: String,
    /// The SVG picture.
    pub svg: String,
}

/// One piece of a gallery and its diagrams.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GalleryPiece {
    /// Its name in the definition (`HeavyCavalry`).
    pub name: String,
    /// Its name for readers (`Heavy cavalry`).
    pub display_name: String,
    /// Its letter.
    pub letter: Letter,
    /// Its declaration as written in the definition.
    pub declaration: String,
    /// It in words.
    pub prose: PieceProse,
    /// Its diagrams.
    pub diagrams: Vec<GalleryDiagram>,
}

/// A whole gallery: the board map, the rules in words, every piece's diagrams and the page
/// that shows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gallery {
    /// The board map with the start position (`board.svg`).
    pub board_svg: String,
    /// The game's rules in words.
    pub game: GameProse,
    /// The pieces, in declaration order.
    pub pieces: Vec<GalleryPiece>,
    /// The page (`index.html`).
    pub index_html: String,
}

/// The key that orders squares from the board's centre outward (ties: the lowest rank, then
/// file): twice the distance squared, to stay in whole numbers on boards of even size.
fn centrality(g: Geometry, sq: Square) -> (i32, i32, i32) {
    let (cf, cr) = (g.width as i32 - 1, g.height as i32 - 1);
    let (df, dr) = (2 * g.file(sq) - cf, 2 * g.rank(sq) - cr);
    (df * df + dr * dr, g.rank(sq), g.file(sq))
}

/// The key that orders squares by their distance from `from`: nearest first (king steps,
/// then straight-line distance), then the lowest rank and file.
fn nearness(g: Geometry, from: Square, sq: Square) -> (i32, i32, i32, i32) {
    let (df, dr) = (g.file(sq) - g.file(from), g.rank(sq) - g.rank(from));
    (
        df.abs().max(dr.abs()),
        df * df + dr * dr,
        g.rank(sq),
        g.file(sq),
    )
}

/// The squares next to `sq` (one king step away).
fn neighbours(g: Geometry, sq: Square) -> impl Iterator<Item = Square> {
    (-1..=1)
        .flat_map(move |df| (-1..=1).map(move |dr| (df, dr)))
        .filter(|&d| d != (0, 0))
        .filter_map(move |(df, dr)| g.offset(sq, df, dr))
}

/// Where each kind of piece of `side` can ever stand, under the rules in force: the squares
/// the setup puts it on, those it is dropped on (if it can be in hand), and every square
/// reached from those by its own moves (as drawn alone, so as not to miss one that needs
/// another piece), its teleports, borrowed moves and castlings, a kind made by promotion
/// standing where the promoting move ends. A move that must promote leaves no unpromoted
/// piece where it ends. Indexed by kind.
pub fn standing_squares(t: &Tables, side: Side) -> Vec<SquareSet> {
    let g = t.geometry();
    let kinds = t.kinds();
    let mut can = vec![SquareSet::EMPTY; kinds];
    let mut starts = vec![SquareSet::EMPTY; kinds];
    for p in t.setup().iter().filter(|p| p.side == side) {
        can[p.piece.index()].insert(p.square);
        starts[p.piece.index()].insert(p.square);
    }
    let r = t.rules();
    if r.drops {
        let mut hand = vec![false; kinds];
        for &(s, k) in t.setup_hand() {
            if s == side {
                hand[k.index()] = true;
            }
        }
        if r.captures_to_hand {
            for i in 0..kinds {
                let k = PieceKind::nth(i);
                if !(t.royal(k) && r.checkmate) {
                    hand[t.demoted(k).index()] = true;
                }
            }
        }
        for i in 0..kinds {
            if !hand[i] {
                continue;
            }
            let k = PieceKind::nth(i);
            can[i] = can[i].union(t.drop_squares(k, side));
            for &a in &t.variant().piece(k).drops.also_as {
                can[a.index()] = can[a.index()].union(t.drop_squares(a, side));
            }
        }
    }
    let mut done = vec![SquareSet::EMPTY; kinds];
    loop {
        let mut found: Vec<(usize, Square)> = Vec::new();
        // A move of `k` from `from` to `to`: the piece stays there unless it must promote,
        // and every piece it may promote to stands there.
        let land = |found: &mut Vec<(usize, Square)>, k: PieceKind, from: Square, to: Square| {
            let mut stays = false;
            for captures in [false, true] {
                match t.promotion(k, side, from, to, captures) {
                    None => stays = true,
                    Some(choice) => {
                        stays |= !choice.forced;
                        found.extend(choice.choices().map(|c| (c.index(), to)));
                    }
                }
            }
            if stays {
                found.push((k.index(), to));
            }
        };
        for i in 0..kinds {
            let k = PieceKind::nth(i);
            let fresh = can[i].difference(&done[i]);
            done[i] = can[i];
            for from in fresh.iter() {
                for target in t.reach(k, side, from) {
                    // A first-move path moves only a piece that has not moved.
                    if target.unmoved == Some(true) && !starts[i].contains(from) {
                        continue;
                    }
                    land(&mut found, k, from, target.square);
                }
                if t.borrows(k) {
                    for j in 0..kinds {
                        for target in t.reach(PieceKind::nth(j), side, from) {
                            land(&mut found, k, from, target.square);
                        }
                    }
                }
                for rule in t.teleports(k) {
                    let Some(to) = rule.to else { continue };
                    if rule.from.is_some_and(|z| !t.zone(z, side).contains(from)) {
                        continue;
                    }
                    for sq in t.zone(to, side).iter() {
                        if rule.allowed[side.index()].contains(sq) {
                            land(&mut found, k, from, sq);
                        }
                    }
                }
            }
            // Next to a friendly piece: wherever that piece can stand, from anywhere.
            if let Some(from) = can[i].iter().next() {
                for rule in t.teleports(k).iter().filter(|r| r.to.is_none()) {
                    for a in rule
                        .anchors
                        .iter()
                        .map(PieceKind::index)
                        .filter(|&a| a < kinds)
                    {
                        for anchor in can[a].iter() {
                            for sq in neighbours(g, anchor) {
                                if rule.allowed[side.index()].contains(sq) && !can[i].contains(sq) {
                                    land(&mut found, k, from, sq);
                                }
                            }
                        }
                    }
                }
            }
        }
        for (_, c) in t.castlings() {
            let c = &c.rule;
            if c.side == side
                && can[c.king.index()].contains(c.king_from)
                && can[c.partner.index()].contains(c.partner_from)
            {
                found.push((c.king.index(), c.king_to));
                found.push((c.partner.index(), c.partner_to));
            }
        }
        let mut changed = false;
        for (i, sq) in found {
            if !g.is_hole(sq) && !can[i].contains(sq) {
                can[i].insert(sq);
                changed = true;
            }
        }
        if !changed && (0..kinds).all(|i| done[i] == can[i]) {
            return can;
        }
    }
}

/// A zone that changes how a piece moves from where it stands, and whether the definition
/// speaks of the piece being outside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Region {
    zone: ZoneId,
    said_outside: bool,
}

/// The zones whose squares change a piece's moves where it stands, under the rules in
/// force: its patterns' zone guards, its legs' per-zone directions, its teleports' starting
/// zones and the zones it enters only under conditions. Zones that only limit where moves
/// end (`into`, `stay in`) are no such zone: they do not depend on where the piece stands.
fn regions(t: &Tables, kind: PieceKind) -> Vec<Region> {
    let def = t.variant().piece(kind);
    let mut out: Vec<Region> = Vec::new();
    let mut add = |zone: ZoneId, outside: bool| match out.iter_mut().find(|r| r.zone == zone) {
        Some(r) => r.said_outside |= outside,
        None => out.push(Region {
            zone,
            said_outside: outside,
        }),
    };
    for p in def.patterns.iter().filter(|p| t.guards_hold(&p.options)) {
        for g in &p.zones {
            add(g.zone, !g.inside);
        }
        for leg in &p.legs {
            for arm in &leg.arms {
                if let Some(z) = arm.zone {
                    add(z, false);
                }
            }
        }
    }
    for tp in def.teleports.iter().filter(|tp| t.guards_hold(&tp.options)) {
        if let Some(z) = tp.from {
            add(z, false);
        }
    }
    for e in def.entries.iter().filter(|e| t.guards_hold(&e.options)) {
        add(e.zone, false);
    }
    out
}

/// The order of a region among a piece's diagrams: the first of its patterns (in the order
/// written) that applies there, then the first arm of its first leg that does.
fn region_order(t: &Tables, kind: PieceKind, side: Side, sq: Square) -> (usize, usize) {
    let def = t.variant().piece(kind);
    let holds = |z: ZoneId| t.zone(z, side).contains(sq);
    def.patterns
        .iter()
        .enumerate()
        .filter(|(_, p)| t.guards_hold(&p.options))
        .find(|(_, p)| p.zones.iter().all(|g| holds(g.zone) == g.inside))
        .map_or((usize::MAX, usize::MAX), |(i, p)| {
            let arm = p.legs[0]
                .arms
                .iter()
                .position(|a| a.zone.is_none_or(holds))
                .unwrap_or(usize::MAX);
            (i, arm)
        })
}

/// What a diagram shows on a square: a piece or a marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Piece(Piece),
    Mark(Marker),
}

/// A diagram's content: each square's piece or marker.
fn cells(pos: &Position, marks: &[Option<Marker>]) -> Vec<Option<Cell>> {
    marks
        .iter()
        .enumerate()
        .map(|(i, m)| match pos.piece_at(Square::nth(i)) {
            Some(p) => Some(Cell::Piece(p)),
            None => m.map(Cell::Mark),
        })
        .collect()
}

/// Where the zones that change a piece's moves lie: for each square, the piece's regions
/// that hold it (a bit set), and for each region the one that is its mirror image left to
/// right for the same side (itself for a symmetric zone; the east castle for the west one).
struct Layout {
    bits: Vec<u64>,
    mirror: Vec<Option<usize>>,
}

impl Layout {
    fn new(t: &Tables, side: Side, regions: &[Region]) -> Layout {
        let g = t.geometry();
        // More regions than bits read as one: a layout is only a finer test of sameness.
        let bit = |i: usize| 1u64 << i.min(63);
        let bits = g
            .squares()
            .map(|sq| {
                regions
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| t.zone(r.zone, side).contains(sq))
                    .fold(0, |acc, (i, _)| acc | bit(i))
            })
            .collect();
        let flip = |set: &SquareSet| {
            let mut out = SquareSet::EMPTY;
            for sq in set.iter() {
                if let Some(m) = g.square(g.width as i32 - 1 - g.file(sq), g.rank(sq)) {
                    out.insert(m);
                }
            }
            out
        };
        let mirror = regions
            .iter()
            .map(|r| {
                let image = flip(t.zone(r.zone, side));
                regions.iter().position(|o| *t.zone(o.zone, side) == image)
            })
            .collect();
        Layout { bits, mirror }
    }

    /// A square's regions seen in the mirror, `None` where one has no mirror image.
    fn mirrored(&self, bits: u64) -> Option<u64> {
        let mut out = 0;
        for (i, image) in self.mirror.iter().enumerate() {
            if bits >> i.min(63) & 1 == 1 {
                out |= 1u64 << (*image)?.min(63);
            }
        }
        Some(out)
    }
}

/// Whether the diagram of a piece on `a` shows the movement the one of a piece on `b` does,
/// moved (and mirrored left to right, with `mirror`): the two agree on every square that is
/// on the board from both, and every square marked lies in the same regions of the piece (in
/// their mirror images, mirrored). Diagrams that differ only where one of them runs off the
/// board's edge show the same movement.
fn same_movement(
    g: Geometry,
    layout: &Layout,
    (a, cells_a): (Square, &[Option<Cell>]),
    (b, cells_b): (Square, &[Option<Cell>]),
    mirror: bool,
) -> bool {
    let (fa, ra, fb, rb) = (g.file(a), g.rank(a), g.file(b), g.rank(b));
    let flip = if mirror { -1 } else { 1 };
    g.squares().all(|sq| {
        let (df, dr) = (g.file(sq) - fa, g.rank(sq) - ra);
        let Some(other) = g.square(fb + flip * df, rb + dr) else {
            return true;
        };
        if cells_a[sq.index()] != cells_b[other.index()] {
            return false;
        }
        if !matches!(cells_a[sq.index()], Some(Cell::Mark(_))) {
            return true;
        }
        let here = layout.bits[sq.index()];
        let seen = if mirror {
            layout.mirrored(here)
        } else {
            Some(here)
        };
        seen == Some(layout.bits[other.index()])
    })
}

/// The declaration of the piece called `name` in `source`: its `piece` line and the indented
/// lines under it.
fn declaration(source: &str, name: &str) -> String {
    let mut out = Vec::new();
    let mut inside = false;
    for line in source.lines() {
        let unindented = !line.starts_with([' ', '\t']) && !line.trim().is_empty();
        if unindented {
            let mut words = line.split_whitespace();
            inside = words.next() == Some("piece") && words.next() == Some(name);
        }
        if inside {
            out.push(line.trim_end());
        }
    }
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
    }
    out.join("\n")
}

/// A name for files and anchors: its words joined by `-`, lower case ASCII.
fn file_stem(name: &str) -> String {
    describe::words(name)
        .join("-")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

/// A piece another piece's moves depend on, and how to place it.
#[derive(Clone, Debug)]
enum Needs {
    /// Nothing: the piece is drawn alone.
    Nothing,
    /// A friendly piece of one of these kinds, next to which it teleports.
    Anchor(Vec<PieceKind>),
    /// A piece of this kind and owner in the part its moves end in.
    Holding(PieceKind, Owner),
}

/// The first `into PARTITION holding` rule of a piece's patterns in force.
fn holding(t: &Tables, kind: PieceKind) -> Option<&crate::model::Holding> {
    t.variant()
        .piece(kind)
        .patterns
        .iter()
        .filter(|p| t.guards_hold(&p.options))
        .find_map(|p| p.holding.as_ref())
}

fn needs(t: &Tables, kind: PieceKind) -> Needs {
    let def = t.variant().piece(kind);
    if let Some(h) = holding(t, kind) {
        if let Some(&(k, o)) = h.kinds.first() {
            return Needs::Holding(k, o);
        }
    }
    let anchors: Vec<PieceKind> = def
        .teleports
        .iter()
        .filter(|tp| t.guards_hold(&tp.options) && tp.to.is_none())
        .flat_map(|tp| tp.anchors.iter().copied())
        .collect();
    if anchors.is_empty() {
        Needs::Nothing
    } else {
        Needs::Anchor(anchors)
    }
}

/// The pieces of a diagram: the piece drawn, then the one its moves depend on.
type Placed = Vec<(Square, Piece)>;

/// One diagram as drawn: the position, the markers and what they show.
struct Drawn {
    pos: Position,
    marks: Vec<Option<Marker>>,
}

impl Drawn {
    fn new(base: &Position, pieces: &[(Square, Piece)]) -> Drawn {
        let pos = base.only(pieces);
        let marks = diagram_markers(&pos, &[pieces[0].0], DiagramMode::Alone);
        Drawn { pos, marks }
    }

    fn count(&self, m: impl Fn(Marker) -> bool) -> usize {
        self.marks.iter().flatten().filter(|&&x| m(x)).count()
    }

    fn targets(&self) -> usize {
        self.count(Marker::is_target)
    }
}

/// Everything needed to draw the pieces of one side.
struct Context<'a> {
    pos: &'a Position,
    side: Side,
    /// Per side, per kind: where it can stand.
    standing: Vec<Vec<SquareSet>>,
}

impl Context<'_> {
    fn tables(&self) -> &Tables {
        self.pos.tables()
    }

    /// The diagram of `piece` on `sq` with the piece its moves depend on placed, if one shows
    /// the rule; `None` when none does and the rule is what the diagram must show.
    fn with_companion(
        &self,
        piece: Piece,
        sq: Square,
        need: &Needs,
    ) -> Option<Vec<(Square, Piece)>> {
        let t = self.tables();
        let g = t.geometry();
        let alone = vec![(sq, piece)];
        match need {
            Needs::Nothing => Some(alone),
            Needs::Anchor(kinds) => {
                // Where the anchor starts, nearest first; then anywhere it can stand, two
                // squares away or more so that the teleport reads apart from the steps.
                for &kind in kinds {
                    let companion = Piece {
                        side: self.side,
                        kind,
                    };
                    let can = self.standing[self.side.index()][kind.index()];
                    let mut starts: Vec<Square> = t
                        .setup()
                        .iter()
                        .filter(|p| p.side == self.side && p.piece == kind)
                        .map(|p| p.square)
                        .collect();
                    starts.sort_by_key(|&s| nearness(g, sq, s));
                    let mut others: Vec<Square> = can.iter().collect();
                    others.sort_by_key(|&s| nearness(g, sq, s));
                    let far = |s: &Square| nearness(g, sq, *s).0 >= 2;
                    let tries = starts
                        .into_iter()
                        .filter(far)
                        .chain(others.into_iter().filter(far))
                        .take(TRIES_PER_COMPANION);
                    for c in tries {
                        let pieces = vec![(sq, piece), (c, companion)];
                        if Drawn::new(self.pos, &pieces).count(|m| m == Marker::Teleport) > 0 {
                            return Some(pieces);
                        }
                    }
                }
                Some(alone)
            }
            Needs::Holding(kind, owner) => {
                let side = match owner {
                    Owner::Enemy => self.pos.next_side(self.side),
                    _ => self.side,
                };
                let companion = Piece { side, kind: *kind };
                let plain = Drawn::new(self.pos, &alone);
                let mut squares: Vec<Square> = self.standing[side.index()][kind.index()]
                    .iter()
                    .filter(|&c| c != sq)
                    .collect();
                // Two squares away first: next to the piece, the companion hides a target.
                squares.sort_by_key(|&c| {
                    let n = nearness(g, sq, c);
                    (n.0 < 2, n)
                });
                for c in squares.into_iter().take(TRIES_PER_COMPANION) {
                    let pieces = vec![(sq, piece), (c, companion)];
                    let with = Drawn::new(self.pos, &pieces);
                    let hidden = usize::from(plain.marks[c.index()].is_some_and(Marker::is_target));
                    let shown = with.targets();
                    if shown > 0 && shown + hidden < plain.targets() {
                        return Some(pieces);
                    }
                }
                None
            }
        }
    }

    /// The diagrams of `kind` for the side: one from each region where its rules differ, on
    /// the most central square of the region where it can stand and move, with the piece its
    /// moves depend on; none that shows what one already drawn shows.
    fn piece_diagrams(&self, kind: PieceKind) -> Vec<GalleryDiagram> {
        let t = self.tables();
        let g = t.geometry();
        let v = t.variant();
        let side = self.side;
        let piece = Piece { side, kind };
        // A piece the rules in force never bring into play is not drawn.
        let can = self.standing[side.index()][kind.index()];
        let regions = regions(t, kind);
        let layout = Layout::new(t, side, &regions);
        // The squares by region: which of the zones hold them.
        let mut groups: Vec<(Vec<bool>, Vec<Square>)> = Vec::new();
        for sq in can.iter() {
            let key: Vec<bool> = regions
                .iter()
                .map(|r| t.zone(r.zone, side).contains(sq))
                .collect();
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, list)) => list.push(sq),
                None => groups.push((key, vec![sq])),
            }
        }
        for (_, list) in &mut groups {
            list.sort_by_key(|&sq| centrality(g, sq));
        }
        groups.sort_by_key(|(_, list)| {
            let first = list[0];
            (region_order(t, kind, side, first), centrality(g, first))
        });
        let need = needs(t, kind);
        let display = describe::display_name(&v.piece(kind).name);
        let stem = file_stem(&v.piece(kind).name);
        let mut drawn: Vec<(Square, Vec<Option<Cell>>)> = Vec::new();
        let mut out = Vec::new();
        for (key, squares) in groups {
            if out.len() == MAX_PER_PIECE {
                break;
            }
            // Of the most central squares where it moves, the one that shows most.
            let mut best: Option<(usize, Placed, Drawn)> = None;
            let mut shown = 0;
            for &sq in squares.iter().take(TRIES_PER_REGION) {
                let Some(pieces) = self.with_companion(piece, sq, &need) else {
                    continue;
                };
                let d = Drawn::new(self.pos, &pieces);
                let targets = d.targets();
                if targets == 0 {
                    continue;
                }
                if best.as_ref().is_none_or(|b| targets > b.0) {
                    best = Some((targets, pieces, d));
                }
                shown += 1;
                if shown == CANDIDATES_PER_REGION {
                    break;
                }
            }
            let Some((_, pieces, d)) = best else {
                continue;
            };
            let sq = pieces[0].0;
            // A region whose diagram shows the movement one already drawn shows, moved or
            // mirrored (the other castle of a side), adds nothing.
            let seen = cells(&d.pos, &d.marks);
            if drawn.iter().any(|(s, c)| {
                same_movement(g, &layout, (sq, &seen), (*s, c), false)
                    || same_movement(g, &layout, (sq, &seen), (*s, c), true)
            }) {
                continue;
            }
            drawn.push((sq, seen));
            let name = g.name(sq).to_string();
            let mut caption = format!("{display} on {name}");
            for (r, inside) in regions.iter().zip(&key) {
                let zone = &v.zones()[r.zone.index()].name;
                if *inside {
                    let _ = write!(caption, ", in {}", describe::zone_phrase(zone));
                } else if r.said_outside {
                    let _ = write!(caption, ", outside {}", describe::zone_phrase(zone));
                }
            }
            for &(c, p) in &pieces[1..] {
                let whose = if p.side == side { "its" } else { "an enemy" };
                let name = describe::running_name(&v.piece(p.kind).name);
                let _ = write!(caption, ", with {whose} {name} on {}", g.name(c));
                if let Some(h) = holding(t, kind) {
                    // The part it holds, which the board does not draw.
                    let parts = &v.partitions()[h.partition.index()];
                    let of = &parts.part_of[side.index()];
                    let mut part = SquareSet::EMPTY;
                    for sq in g.squares().filter(|sq| of[sq.index()] == of[c.index()]) {
                        part.insert(sq);
                    }
                    let _ = write!(
                        caption,
                        ": {} {}, the part of the {} that holds it",
                        if h.inside {
                            "its moves end only in"
                        } else {
                            "its moves never end in"
                        },
                        describe::squares_words(g, &part),
                        describe::running_name(&parts.name)
                    );
                }
            }
            out.push(GalleryDiagram {
                file: format!("{stem}-{name}.svg"),
                square: name,
                pieces,
                caption,
                svg: move_diagram_svg(&d.pos, &[sq], DiagramMode::Alone),
            });
        }
        if out.is_empty() {
            // No region shows its rule with a companion: the piece alone, nearest the centre.
            if let Some(sq) = can.iter().min_by_key(|&sq| centrality(g, sq)) {
                let d = Drawn::new(self.pos, &[(sq, piece)]);
                let name = g.name(sq).to_string();
                out.push(GalleryDiagram {
                    file: format!("{stem}-{name}.svg"),
                    square: name.clone(),
                    pieces: vec![(sq, piece)],
                    caption: format!("{display} on {name}"),
                    svg: move_diagram_svg(&d.pos, &[sq], DiagramMode::Alone),
                });
            }
        }
        out
    }
}

/// The size an SVG picture declares (`width`, `height`), in pixels.
fn svg_size(svg: &str) -> (u32, u32) {
    let attr = |name: &str| -> u32 {
        svg.split_once(&format!(" {name}=\""))
            .and_then(|(_, rest)| rest.split_once('"'))
            .and_then(|(n, _)| n.parse().ok())
            .unwrap_or(0)
    };
    (attr("width"), attr("height"))
}

/// Text for the page: escaped, with `code` between backticks set as code.
fn inline(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in escape(text).split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{part}</code>");
        } else {
            out.push_str(part);
        }
    }
    out
}

/// The page's style: light and dark, diagrams in a grid whose columns are at least as wide
/// as a diagram is drawn (one to a row for a large board) and show it up to a quarter larger.
fn style(diagram_width: u32, board_width: u32) -> String {
    // Cells are drawn 40 px wide: as drawn on a wide page, at most 50 px; a page narrower
    // than a diagram shows it at its width.
    let min = diagram_width;
    let max = diagram_width * 5 / 4;
    let board_max = board_width * 5 / 4;
    format!(
        r#":root {{ color-scheme: light dark; --bg: #fbfaf6; --fg: #1d1d1f; --muted: #55554f;
  --rule: #d9d5ca; --card: #ffffff; --code: #efece3; --accent: #7a4510; }}
@media (prefers-color-scheme: dark) {{
  :root {{ --bg: #151515; --fg: #e8e6e1; --muted: #aaa69c; --rule: #3a3833; --card: #222120;
    --code: #2b2a27; --accent: #e3b06b; }}
}}
* {{ box-sizing: border-box; }}
body {{ margin: 0; background: var(--bg); color: var(--fg);
  font: 17px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }}
main {{ max-width: 1120px; margin: 0 auto; padding: 1.5rem 1.5rem 3rem; }}
h1 {{ font-size: 2.2rem; margin: 0.5rem 0 0.25rem; }}
h2 {{ font-size: 1.5rem; margin: 2.2rem 0 0.6rem; padding-bottom: 0.2rem; border-bottom: 2px solid var(--rule); }}
h3 {{ font-size: 1.2rem; margin: 1.4rem 0 0.4rem; }}
a {{ color: var(--accent); }}
.lede {{ font-size: 1.1rem; max-width: 48em; }}
nav {{ font-size: 0.95rem; color: var(--muted); }}
nav a {{ text-decoration: none; }}
p, li {{ max-width: 52em; }}
code {{ background: var(--code); padding: 0.05em 0.3em; border-radius: 3px; font-size: 0.92em; }}
pre {{ background: var(--code); padding: 0.8em; border-radius: 6px; overflow-x: auto; font-size: 0.9em; }}
table {{ border-collapse: collapse; margin: 0.5em 0; }}
th, td {{ text-align: left; padding: 0.3em 0.8em 0.3em 0; border-bottom: 1px solid var(--rule); vertical-align: top; }}
dl.places {{ display: grid; grid-template-columns: max-content 1fr; gap: 0.2em 1em; }}
dl.places dt {{ font-weight: 600; }}
dl.places dd {{ margin: 0; }}
.piece {{ border-top: 1px solid var(--rule); margin-top: 1.8rem; }}
.piece h3 {{ font-size: 1.35rem; }}
.letter {{ display: inline-block; min-width: 1.6em; text-align: center; font-size: 0.8em;
  border: 1px solid var(--rule); border-radius: 1em; padding: 0 0.4em; margin-left: 0.4em;
  color: var(--muted); vertical-align: middle; }}
.facts, .betza {{ color: var(--muted); }}
figure {{ margin: 0; }}
.diagrams {{ display: grid; gap: 1rem; margin: 1rem 0;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, {min}px), 1fr)); }}
.diagrams figure, .board figure {{ background: var(--card); border: 1px solid var(--rule);
  border-radius: 8px; padding: 0.5rem; }}
.diagrams img {{ display: block; width: 100%; max-width: {max}px; height: auto; margin: 0 auto; }}
.board img {{ display: block; width: 100%; max-width: {board_max}px; height: auto; margin: 0 auto; }}
figcaption {{ text-align: center; font-size: 0.95rem; color: var(--muted); margin-top: 0.4rem; }}
details {{ margin: 0.5rem 0 1rem; }}
summary {{ cursor: pointer; color: var(--muted); }}
footer {{ margin-top: 3rem; font-size: 0.85rem; color: var(--muted); }}
"#
    )
}

/// A list of sentences as an HTML list, under a heading; nothing when there are none.
fn list_section(html: &mut String, heading: &str, items: &[String]) {
    if items.is_empty() {
        return;
    }
    let _ = writeln!(html, "<h3>{heading}</h3>\n<ul>");
    for item in items {
        let _ = writeln!(html, "<li>{}</li>", inline(item));
    }
    html.push_str("</ul>\n");
}

/// The page.
fn page(t: &Tables, game: &GameProse, pieces: &[GalleryPiece], board: &str) -> String {
    let v = t.variant();
    let title = escape(v.name());
    let diagram_width = pieces
        .iter()
        .flat_map(|p| &p.diagrams)
        .map(|d| svg_size(&d.svg).0)
        .max()
        .unwrap_or(320);
    let (board_w, board_h) = svg_size(board);
    let mut html = String::new();
    let _ = write!(
        html,
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}: rules and pieces</title>
<style>
{}</style>
</head>
<body>
<main>
<header>
<h1>{title}</h1>
<p class="lede">{}</p>
"#,
        style(diagram_width, board_w),
        inline(&game.overview.join(" "))
    );
    html.push_str("<nav><a href=\"#rules\">Rules</a> · <a href=\"#board\">Board</a> · <a href=\"#pieces\">Pieces</a>:");
    for (i, p) in pieces.iter().enumerate() {
        let _ = write!(
            html,
            "{} <a href=\"#piece-{}\">{}</a>",
            if i == 0 { "" } else { "," },
            file_stem(&p.name),
            escape(&p.display_name)
        );
    }
    html.push_str("</nav>\n</header>\n");

    html.push_str("<section id=\"rules\">\n<h2>Rules</h2>\n");
    list_section(&mut html, "How the game ends", &game.ending);
    list_section(&mut html, "Play", &game.play);
    list_section(&mut html, "Promotion", &game.promotions);
    list_section(&mut html, "Drops", &game.drops);
    if !game.options.is_empty() {
        html.push_str(
            "<h3>Options</h3>\n<p>This page describes the game with these settings.</p>\n\
             <table>\n<tr><th>Option</th><th>Setting</th><th>What it does</th></tr>\n",
        );
        for o in &game.options {
            let _ = writeln!(
                html,
                "<tr><td><code>{}</code></td><td>{}{}</td><td>{}</td></tr>",
                escape(&o.name),
                o.setting,
                if o.default { " (default)" } else { "" },
                inline(&o.description)
            );
        }
        html.push_str("</table>\n");
    }
    html.push_str("</section>\n");

    let _ = write!(
        html,
        "<section id=\"board\" class=\"board\">\n<h2>Board and start position</h2>\n\
         <figure><img src=\"board.svg\" width=\"{board_w}\" height=\"{board_h}\" \
         alt=\"{title}: the board, its zones and the start position\"></figure>\n"
    );
    if !game.places.is_empty() {
        html.push_str("<dl class=\"places\">\n");
        for p in &game.places {
            let _ = writeln!(
                html,
                "<dt>{}</dt><dd>{}</dd>",
                escape(&p.name),
                inline(&p.squares)
            );
        }
        html.push_str("</dl>\n");
    }
    html.push_str("</section>\n");

    let first = &v.sides()[0].name;
    // The pieces drawn are the first side's, which need not be the side that opens the game.
    let which = if v.rules().first_side == Side::FIRST {
        "side that moves first"
    } else {
        "side written first"
    };
    let _ = write!(
        html,
        "<section id=\"pieces\">\n<h2>Pieces</h2>\n<p>Each diagram shows a piece of the \
         {which} ({}, uppercase letters) with the board otherwise empty, or \
         with the one piece its moves depend on; the legend under each diagram names its \
         marks.</p>\n",
        escape(first)
    );
    for p in pieces {
        let stem = file_stem(&p.name);
        let _ = writeln!(
            html,
            "<article class=\"piece\" id=\"piece-{stem}\">\n<h3>{}<span class=\"letter\">{}</span></h3>",
            escape(&p.display_name),
            escape(&p.letter.to_string())
        );
        let _ = writeln!(html, "<p>{}</p>", inline(&p.prose.moves.join(" ")));
        let _ = writeln!(
            html,
            "<p class=\"facts\">{}</p>",
            inline(&p.prose.facts.join(" "))
        );
        if let Some(b) = &p.prose.betza {
            let _ = writeln!(html, "<p class=\"betza\">{}</p>", inline(b));
        }
        if !p.diagrams.is_empty() {
            html.push_str("<div class=\"diagrams\">\n");
        }
        for d in &p.diagrams {
            let (w, h) = svg_size(&d.svg);
            let _ = writeln!(
                html,
                "<figure><img src=\"{}\" width=\"{w}\" height=\"{h}\" loading=\"lazy\" alt=\"{}\"><figcaption>{}</figcaption></figure>",
                d.file,
                escape(&d.caption),
                escape(&d.caption)
            );
        }
        if !p.diagrams.is_empty() {
            html.push_str("</div>\n");
        }
        let _ = writeln!(
            html,
            "<details><summary>Definition</summary>\n<pre>{}</pre>\n</details>\n</article>",
            escape(&p.declaration)
        );
    }
    html.push_str("</section>\n");
    let _ = write!(
        html,
        "<footer>Generated by Rulebook from the definition of {title}: the rules in words, the \
         board and every diagram come from the definition itself.</footer>\n</main>\n</body>\n</html>\n"
    );
    html
}

/// The gallery of the variant of `pos` (its start position drawn in the board map);
/// `source` is the definition's text, quoted for each piece.
pub fn gallery(pos: &Position, source: &str) -> Gallery {
    let t = pos.tables();
    let v = t.variant();
    let context = Context {
        pos,
        side: Side::FIRST,
        standing: (0..t.sides())
            .map(|s| standing_squares(t, Side::nth(s)))
            .collect(),
    };
    let in_play: Vec<bool> = context.standing[0].iter().map(|s| !s.is_empty()).collect();
    let pieces: Vec<GalleryPiece> = (0..v.pieces().len())
        .map(|i| {
            let kind = PieceKind::nth(i);
            let def = v.piece(kind);
            GalleryPiece {
                name: def.name.clone(),
                display_name: describe::display_name(&def.name),
                letter: def.letter,
                declaration: declaration(source, &def.name),
                prose: describe::piece_prose_in(t, kind, &in_play),
                diagrams: context.piece_diagrams(kind),
            }
        })
        .collect();
    let game = describe::game_prose_in(t, &in_play);
    let board = board_svg(pos);
    let index_html = page(t, &game, &pieces, &board);
    Gallery {
        board_svg: board,
        game,
        pieces,
        index_html,
    }
}
