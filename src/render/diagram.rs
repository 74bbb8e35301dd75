//! Board maps and move diagrams.

use std::fmt::Write;

use super::text::{last_move_style, piece_cell, zone_style, Cell, Layout, TextStyle};
use crate::engine::fen::piece_letter;
use crate::engine::{Piece, Position};
use crate::model::{Geometry, Reach, Square};

/// What a piece can do on a marked square, or why the square matters to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Marker {
    /// Move there or capture there: `*`.
    Both,
    /// Only move there (the square must be empty): `m`.
    MoveOnly,
    /// Only capture there: `x`.
    CaptureOnly,
    /// Move there directly, capture there only over a screen (a cannon): `c`.
    MoveOrHopCapture,
    /// Capture there only over a screen: `h`.
    HopCapture,
    /// Move or capture there, but only over a screen (a grasshopper): `j`.
    Hop,
    /// Move there only over a screen: `v`.
    HopMove,
    /// Capture there without moving (a shot): `s`.
    Shot,
    /// Go there by teleport: `t`.
    Teleport,
    /// Must be empty for a move to go past (a lame leg), never ended on: `!`.
    Blocking,
}

impl Marker {
    /// Every marker, in the order legends list them.
    pub const ALL: [Marker; 10] = [
        Marker::Both,
        Marker::MoveOnly,
        Marker::CaptureOnly,
        Marker::MoveOrHopCapture,
        Marker::HopCapture,
        Marker::Hop,
        Marker::HopMove,
        Marker::Shot,
        Marker::Teleport,
        Marker::Blocking,
    ];

    /// Its character in text diagrams.
    pub fn glyph(self) -> char {
        match self {
            Marker::Both => '*',
            Marker::MoveOnly => 'm',
            Marker::CaptureOnly => 'x',
            Marker::MoveOrHopCapture => 'c',
            Marker::HopCapture => 'h',
            Marker::Hop => 'j',
            Marker::HopMove => 'v',
            Marker::Shot => 's',
            Marker::Teleport => 't',
            Marker::Blocking => '!',
        }
    }

    /// The word `diagram --format json` uses.
    pub fn name(self) -> &'static str {
        match self {
            Marker::Both => "both",
            Marker::MoveOnly => "move",
            Marker::CaptureOnly => "capture",
            Marker::MoveOrHopCapture => "move-or-hop-capture",
            Marker::HopCapture => "hop-capture",
            Marker::Hop => "hop",
            Marker::HopMove => "hop-move",
            Marker::Shot => "shot",
            Marker::Teleport => "teleport",
            Marker::Blocking => "blocking",
        }
    }

    /// What it means, for legends; `mode` decides how plain targets read (in a position they
    /// are the legal moves).
    pub fn meaning(self, mode: DiagramMode) -> &'static str {
        match (self, mode) {
            (Marker::Both, DiagramMode::Alone) => "move or capture",
            (Marker::Both, DiagramMode::InPosition) => "move",
            (Marker::MoveOnly, _) => "move only",
            (Marker::CaptureOnly, DiagramMode::Alone) => "capture only",
            (Marker::CaptureOnly, DiagramMode::InPosition) => "capture",
            (Marker::MoveOrHopCapture, _) => "move, or capture over a screen",
            (Marker::HopCapture, _) => "capture over a screen only",
            (Marker::Hop, _) => "move or capture over a screen only",
            (Marker::HopMove, _) => "move over a screen only",
            (Marker::Shot, _) => "capture without moving",
            (Marker::Teleport, _) => "teleport",
            (Marker::Blocking, _) => "must be empty (blocks the move)",
        }
    }

    /// Whether the piece can end a move there (all but [`Marker::Blocking`]).
    pub fn is_target(self) -> bool {
        self != Marker::Blocking
    }
}

/// Everything known about one square while a diagram is computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Ways {
    move_direct: bool,
    move_hop: bool,
    capture_direct: bool,
    capture_hop: bool,
    shot: bool,
    teleport: bool,
    blocking: bool,
}

impl Ways {
    /// The one marker that sums the ways up: a direct way hides the same way over a screen,
    /// and shots, teleports and blocking squares show only where nothing else does.
    fn marker(self) -> Option<Marker> {
        #[derive(PartialEq)]
        enum W {
            No,
            Direct,
            Hop,
        }
        let way = |direct: bool, hop: bool| {
            if direct {
                W::Direct
            } else if hop {
                W::Hop
            } else {
                W::No
            }
        };
        let mv = way(self.move_direct, self.move_hop);
        let cap = way(self.capture_direct, self.capture_hop);
        Some(match (mv, cap) {
            (W::Direct, W::Direct) | (W::Hop, W::Direct) => Marker::Both,
            (W::Direct, W::No) => Marker::MoveOnly,
            (W::No, W::Direct) => Marker::CaptureOnly,
            (W::Direct, W::Hop) => Marker::MoveOrHopCapture,
            (W::No, W::Hop) => Marker::HopCapture,
            (W::Hop, W::Hop) => Marker::Hop,
            (W::Hop, W::No) => Marker::HopMove,
            (W::No, W::No) if self.shot => Marker::Shot,
            (W::No, W::No) if self.teleport => Marker::Teleport,
            (W::No, W::No) if self.blocking => Marker::Blocking,
            (W::No, W::No) => return None,
        })
    }
}

/// How a move diagram is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagramMode {
    /// The piece alone on the board: everything its paths allow, as move diagrams in rule
    /// books show it (hoppers mark the squares they could reach over a screen).
    Alone,
    /// The piece in a position: its legal moves there (quiet moves `*`, captures `x`).
    InPosition,
}

/// The glyphs of the zones that have one, every side's copy drawn.
fn zone_background(pos: &Position) -> Vec<char> {
    let t = pos.tables();
    let mut bg = vec!['.'; t.geometry().len()];
    for z in t.variant().zones() {
        if let Some(glyph) = z.glyph {
            for set in &z.squares {
                for sq in set.iter() {
                    bg[sq.index()] = glyph;
                }
            }
        }
    }
    // Wall squares as the FEN writes them.
    for sq in t.geometry().squares().filter(|&sq| pos.is_wall(sq)) {
        bg[sq.index()] = '*';
    }
    bg
}

/// The grid without coordinates.
fn bare_grid(g: Geometry, cell: impl Fn(Square) -> char) -> String {
    let mut out = String::new();
    for rank in (0..g.height as i32).rev() {
        for file in 0..g.width as i32 {
            out.push(cell(g.square(file, rank).expect("on the board")));
        }
        out.push('\n');
    }
    out
}

/// A piece in one character, for the plain pictures of rule books (`+B` is drawn `B`).
fn piece_char(pos: &Position, p: Piece) -> char {
    let l = piece_letter(pos, p);
    l.chars().rfind(|c| c.is_ascii_alphabetic()).unwrap_or('?')
}

/// The zone map and the position: one grid per zone (per side where they differ), then the
/// position drawn over the zone glyphs.
pub fn board_map(pos: &Position) -> String {
    let t = pos.tables();
    let g = t.geometry();
    let v = &t.variant();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {} x {} board, {} to move",
        v.name,
        g.width,
        g.height,
        v.sides[pos.side_to_move().index()].name
    );
    let players = players(pos);
    if !players.is_empty() {
        let names: Vec<String> = players.iter().map(|p| p.label()).collect();
        let _ = writeln!(out, "players in turn order: {}", names.join("; "));
    }
    for z in &v.zones {
        let same = z.squares.windows(2).all(|w| w[0] == w[1]);
        for (s, set) in z.squares.iter().enumerate() {
            if same && s > 0 {
                break;
            }
            let whose = if same {
                String::new()
            } else {
                format!(" ({})", v.sides[s].name)
            };
            let glyph = z
                .glyph
                .map(|c| format!(", drawn `{c}`"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "\nzone {}{}{}: {} squares",
                z.name,
                whose,
                glyph,
                set.len()
            );
            out.push_str(&Layout::bare(g).draw(TextStyle::default(), |sq| {
                Cell::plain(if set.contains(sq) { 'x' } else { '.' })
            }));
        }
    }
    for l in v.lines() {
        let edges = (l.north[0], l.east[0]);
        let count = edges.0.len() + edges.1.len();
        let _ = writeln!(out, "\nline {}: {} edges", l.name, count);
        out.push_str(&Layout::walls(g, edges).draw(TextStyle::default(), |_| Cell::plain('.')));
    }
    let _ = writeln!(
        out,
        "\npieces, moves in Betza (`~`: not exactly, Betza has no words for some of their rules):"
    );
    let width = v.pieces().iter().map(|d| d.name.len()).max().unwrap_or(0);
    for (i, d) in v.pieces().iter().enumerate() {
        let w = crate::model::betza::write(t, crate::model::PieceKind::nth(i));
        let text = if w.text.is_empty() { "-" } else { &w.text };
        let mark = if w.exact { "" } else { " ~" };
        let _ = writeln!(out, "{:>3} {:<width$}  {text}{mark}", d.letter, d.name);
    }
    let _ = writeln!(out, "\nposition: {}", pos.fen());
    out.push_str(&position_diagram(pos));
    out
}

/// The position alone: pieces over the zone glyphs, walls and rivers, and the pieces in hand.
pub fn position_diagram(pos: &Position) -> String {
    position_text(pos, TextStyle::default())
}

/// [`position_diagram`], coloured for a terminal when `style` says so: the sides' pieces in
/// their colours, zone glyphs dimmed, the last move's squares shaded.
pub fn position_text(pos: &Position, style: TextStyle) -> String {
    let bg = zone_background(pos);
    let last = pos.last_move();
    let mut out = Layout::of(pos).draw(style, |sq| {
        let mut cell = match pos.piece_at(sq) {
            Some(p) => piece_cell(pos, p),
            None => Cell {
                text: bg[sq.index()].to_string(),
                style: zone_style(),
            },
        };
        if last.is_some_and(|m| (m.from == sq && !m.is_drop()) || m.to == sq) {
            cell.style = last_move_style(cell.style);
        }
        cell
    });
    out.push_str(&hands(pos));
    out
}

/// One line per side with what it holds in hand, where the game keeps pieces in hand.
pub fn hands(pos: &Position) -> String {
    let t = pos.tables();
    let v = t.variant();
    if !t.rules().hands {
        return String::new();
    }
    let mut out = String::new();
    for (s, side) in v.sides().iter().enumerate() {
        let side_id = crate::model::Side::nth(s);
        let held: Vec<String> = v
            .pieces()
            .iter()
            .enumerate()
            .filter_map(|(k, def)| {
                let n = pos.in_hand(side_id, crate::model::PieceKind::nth(k));
                let letter = piece_letter(
                    pos,
                    Piece {
                        side: side_id,
                        kind: crate::model::PieceKind::nth(k),
                    },
                );
                match n {
                    0 => None,
                    1 => Some(format!("{} ({letter})", def.name)),
                    n => Some(format!("{} ({letter}) x{n}", def.name)),
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "{} in hand: {}",
            side.name,
            if held.is_empty() {
                "none".to_string()
            } else {
                held.join(", ")
            }
        );
    }
    out
}

/// The squares the pieces on `pieces` can go to, with what they can do there, and (alone)
/// the squares their lame legs need empty: the first of [`diagram_marks`] on each square.
pub fn diagram_markers(
    pos: &Position,
    pieces: &[Square],
    mode: DiagramMode,
) -> Vec<Option<Marker>> {
    diagram_marks(pos, pieces, mode)
        .into_iter()
        .map(|m| m.first().copied())
        .collect()
}

/// Every marker of every square: what each piece on `pieces` can do there, targets before
/// blocking squares, each marker once. In [`DiagramMode::Alone`] each piece's movement is its
/// own, whatever else stands on the board (a rule book's diagram of several pieces shows each
/// as if alone), so one piece's blocking square may be another's target; what depends on
/// other pieces (a teleport next to a friendly piece, a move into a part holding one) is read
/// from the pieces on the board, drawn or not (a piece alone on the board moves as its paths
/// go). Squares where a piece stands are never marked alone: the piece is drawn there.
pub fn diagram_marks(pos: &Position, pieces: &[Square], mode: DiagramMode) -> Vec<Vec<Marker>> {
    let n = pos.tables().geometry().len();
    let mut marks: Vec<Vec<Marker>> = vec![Vec::new(); n];
    for &at in pieces {
        let Some(piece) = pos.piece_at(at) else {
            continue;
        };
        let ways = match mode {
            DiagramMode::Alone => ways_alone(pos, at, piece),
            DiagramMode::InPosition => ways_in_position(pos, at, piece),
        };
        for (sq, w) in ways.iter().enumerate() {
            if let Some(m) = w.marker() {
                if !marks[sq].contains(&m) {
                    marks[sq].push(m);
                }
            }
        }
    }
    for (sq, m) in marks.iter_mut().enumerate() {
        let occupied = pos.piece_at(Square::nth(sq)).is_some();
        if mode == DiagramMode::Alone && occupied {
            m.clear();
        }
        m.sort();
    }
    marks
}

/// What one piece alone can do on each square: its paths from the compiled tables, its lame
/// legs' squares, and what move generation says about the parts that depend on other pieces.
fn ways_alone(pos: &Position, at: Square, piece: Piece) -> Vec<Ways> {
    let t = pos.tables();
    let mut ways: Vec<Ways> = vec![Ways::default(); t.geometry().len()];
    for target in t.reach(piece.kind, piece.side, at) {
        let w = &mut ways[target.square.index()];
        let hop = target.reach == Reach::OverScreen;
        if target.can_move {
            if hop {
                w.move_hop = true;
            } else {
                w.move_direct = true;
            }
        }
        if target.can_capture {
            if hop {
                w.capture_hop = true;
            } else {
                w.capture_direct = true;
            }
        }
    }
    for sq in t.blocking(piece.kind, piece.side, at) {
        if pos.piece_at(sq).is_none() {
            ways[sq.index()].blocking = true;
        }
    }
    let teleports = t.teleports(piece.kind);
    // A teleport to a zone needs only empty squares: alone, every square of it.
    for rule in teleports {
        let Some(zone) = rule.to else { continue };
        if rule
            .from
            .is_some_and(|z| !t.zone(z, piece.side).contains(at))
        {
            continue;
        }
        for sq in t.zone(zone, piece.side).iter() {
            if sq != at && rule.allowed[piece.side.index()].contains(sq) {
                ways[sq.index()].teleport = true;
            }
        }
    }
    let next_to_a_piece = teleports.iter().any(|r| r.to.is_none());
    // Alone on the board, a move that must end near other pieces is drawn as its path goes,
    // as rule books draw it; with other pieces placed, as those pieces allow.
    let others = t
        .geometry()
        .squares()
        .any(|sq| sq != at && pos.piece_at(sq).is_some());
    let holding = others
        && t.variant()
            .piece(piece.kind)
            .patterns
            .iter()
            .any(|p| p.holding.is_some() && t.guards_hold(&p.options));
    if next_to_a_piece || holding {
        let p = pos.with_side_to_move(piece.side);
        let mut moves = Vec::new();
        p.pseudo_moves(&mut moves);
        moves.retain(|m| m.from == at && !m.is_drop() && !m.is_shot());
        let quiet: Vec<Square> = moves
            .iter()
            .filter(|m| p.piece_at(m.to).is_none())
            .map(|m| m.to)
            .collect();
        for (i, w) in ways.iter_mut().enumerate() {
            let sq = Square::nth(i);
            let empty = p.piece_at(sq).is_none();
            // Where the pieces on the board decide whether a step may end, an empty square
            // no move reaches is no target.
            if holding && empty && (w.move_direct || w.capture_direct) && !quiet.contains(&sq) {
                w.move_direct = false;
                w.capture_direct = false;
            }
            if next_to_a_piece && empty && !w.move_direct && !w.move_hop && quiet.contains(&sq) {
                w.teleport = true;
            }
        }
    }
    ways
}

/// What one piece can do on each square in the position: its legal moves there.
fn ways_in_position(pos: &Position, at: Square, piece: Piece) -> Vec<Ways> {
    let t = pos.tables();
    let mut ways: Vec<Ways> = vec![Ways::default(); t.geometry().len()];
    let mut p = pos.clone();
    if p.side_to_move() != piece.side {
        p = p.with_side_to_move(piece.side);
    }
    // A quiet move to a square its paths cannot reach is a teleport.
    let teleports = !t.teleports(piece.kind).is_empty();
    let walked: Vec<Square> = if teleports {
        t.reach(piece.kind, piece.side, at)
            .iter()
            .map(|r| r.square)
            .collect()
    } else {
        Vec::new()
    };
    for m in p.legal_moves() {
        if m.from != at || m.is_drop() {
            continue;
        }
        let w = &mut ways[m.to.index()];
        if teleports
            && m.kind == crate::engine::MoveKind::Normal
            && !walked.contains(&m.to)
            && !crate::engine::notation::is_capture(&p, &m)
        {
            w.teleport = true;
        } else if m.is_shot() {
            w.shot = true;
        } else if crate::engine::notation::is_capture(&p, &m) {
            w.capture_direct = true;
        } else {
            w.move_direct = true;
            w.capture_direct = true;
        }
    }
    ways
}

/// The markers present in `marks`, in legend order.
pub fn markers_present(marks: &[Vec<Marker>]) -> Vec<Marker> {
    Marker::ALL
        .into_iter()
        .filter(|m| marks.iter().any(|s| s.contains(m)))
        .collect()
}

/// The legend line of a text diagram: each marker present and its meaning.
fn legend(marks: &[Vec<Marker>], mode: DiagramMode) -> String {
    let present = markers_present(marks);
    if present.is_empty() {
        return "no moves\n".to_string();
    }
    let items: Vec<String> = present
        .iter()
        .map(|m| format!("{} {}", m.glyph(), m.meaning(mode)))
        .collect();
    format!("{}\n", items.join("; "))
}

/// What a diagram square shows: a piece drawn there, else its marker, else its zone glyph.
fn diagram_cell(
    pos: &Position,
    marks: &[Option<Marker>],
    bg: &[char],
    pieces: &[Square],
    sq: Square,
    glyph: impl Fn(Marker) -> char,
) -> char {
    match (pos.piece_at(sq), marks[sq.index()]) {
        (Some(p), None) => piece_char(pos, p),
        (Some(p), Some(_)) if pieces.contains(&sq) => piece_char(pos, p),
        (_, Some(m)) => glyph(m),
        (None, None) => bg[sq.index()],
    }
}

/// A move diagram: the board with its zones, the pieces on `pieces` and their targets.
pub fn move_diagram(pos: &Position, pieces: &[Square], mode: DiagramMode) -> String {
    let all = diagram_marks(pos, pieces, mode);
    let marks: Vec<Option<Marker>> = all.iter().map(|m| m.first().copied()).collect();
    let bg = zone_background(pos);
    let mut out = Layout::of(pos).draw(TextStyle::default(), |sq| {
        match (pos.piece_at(sq), marks[sq.index()]) {
            (Some(p), None) => piece_cell(pos, p),
            (Some(p), Some(_)) if pieces.contains(&sq) => piece_cell(pos, p),
            (_, Some(m)) => Cell::plain(m.glyph()),
            (None, None) => Cell::plain(bg[sq.index()]),
        }
    });
    // One character per square: a square marked twice (one piece's target, another's
    // blocking square) shows the first; the others are listed.
    let g = pos.tables().geometry();
    let twice: Vec<String> = g
        .squares()
        .filter(|sq| all[sq.index()].len() > 1)
        .map(|sq| {
            let rest: String = all[sq.index()][1..].iter().map(|m| m.glyph()).collect();
            format!("{} also {rest}", g.name(sq))
        })
        .collect();
    out.push_str(&legend(&all, mode));
    if !twice.is_empty() {
        let _ = writeln!(out, "{}", twice.join("; "));
    }
    out
}

/// A move diagram as rule books print it: one character per square and nothing else, the
/// pieces by letter, every target `*`, other squares by their zone glyph (`.` without one).
pub fn plain_diagram(pos: &Position, pieces: &[Square], mode: DiagramMode) -> String {
    let marks = diagram_markers(pos, pieces, mode);
    let bg = zone_background(pos);
    // Rule books mark only the targets.
    let marks: Vec<Option<Marker>> = marks
        .into_iter()
        .map(|m| m.filter(|m| m.is_target()))
        .collect();
    bare_grid(pos.tables().geometry(), |sq| {
        diagram_cell(pos, &marks, &bg, pieces, sq, |_| '*')
    })
}

/// The position alone as [`plain_diagram`] draws it.
pub fn plain_position(pos: &Position) -> String {
    let bg = zone_background(pos);
    bare_grid(pos.tables().geometry(), |sq| match pos.piece_at(sq) {
        Some(p) => piece_char(pos, p),
        None => bg[sq.index()],
    })
}

/// A move diagram described for machines (`diagram --format json`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DiagramInfo {
    /// The variant's name.
    pub variant: String,
    /// The (first) piece's name.
    pub piece: String,
    /// Its side's name.
    pub side: String,
    /// Where it stands.
    pub square: String,
    /// Every piece drawn, the first one included.
    pub pieces: Vec<PlacedInfo>,
    /// Every marked square, in square order; a square marked twice (one piece's target and
    /// another's blocking square) is listed once for each marker.
    pub targets: Vec<TargetInfo>,
    /// The markers used, each with its text glyph and meaning.
    pub legend: Vec<LegendInfo>,
    /// With more than two sides, every player in turn order (left out with two).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<PlayerInfo>,
}

/// One player of a game of more than two sides, as pictures name it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PlayerInfo {
    /// The side's name.
    pub name: String,
    /// The initial its pieces are written with (`r` for `rK`).
    pub initial: char,
    /// The colour its pieces are drawn in (`#c62828`).
    pub colour: &'static str,
    /// Its turn to move.
    pub to_move: bool,
    /// Out of the running.
    pub out: bool,
    /// Its partners, by name (none without `teams`).
    pub partners: Vec<String>,
}

impl PlayerInfo {
    /// `red, to move, with yellow` / `blue, out`: the player in words.
    pub fn label(&self) -> String {
        let mut text = self.name.clone();
        if self.to_move {
            text.push_str(", to move");
        }
        if self.out {
            text.push_str(", out");
        }
        if !self.partners.is_empty() {
            text.push_str(", with ");
            text.push_str(&self.partners.join(" and "));
        }
        text
    }
}

/// The players of a game of more than two sides, in turn order; none with two, whose
/// pictures need no legend for them.
pub fn players(pos: &Position) -> Vec<PlayerInfo> {
    let t = pos.tables();
    let v = t.variant();
    if t.sides() < 3 {
        return Vec::new();
    }
    crate::model::Side::all(t.sides())
        .map(|side| PlayerInfo {
            name: v.side(side).name.clone(),
            initial: v.side_tag(side),
            colour: super::svg::side_colour(pos, side),
            to_move: pos.side_to_move() == side && pos.outcome().is_none(),
            out: pos.is_out(side),
            partners: crate::model::Side::all(t.sides())
                .filter(|&o| o != side && t.partners(o, side))
                .map(|o| v.side(o).name.clone())
                .collect(),
        })
        .collect()
}

/// One marker of a diagram's legend.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LegendInfo {
    /// The marker's name, as [`TargetInfo::marker`] writes it.
    pub marker: &'static str,
    /// Its character in text diagrams.
    pub glyph: char,
    /// What it means.
    pub meaning: &'static str,
}

/// One piece of a [`DiagramInfo`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PlacedInfo {
    /// The piece's name.
    pub piece: String,
    /// Its side's name.
    pub side: String,
    /// Where it stands.
    pub square: String,
}

/// One marked square of a [`DiagramInfo`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TargetInfo {
    /// The square.
    pub square: String,
    /// `both`, `move`, `capture`, `move-or-hop-capture`, `hop-capture`, `hop`, `hop-move`,
    /// `shot`, `teleport` or `blocking`.
    pub marker: &'static str,
}

/// The content of a move diagram, for machines.
pub fn diagram_info(pos: &Position, pieces: &[Square], mode: DiagramMode) -> DiagramInfo {
    let t = pos.tables();
    let g = t.geometry();
    let marks = diagram_marks(pos, pieces, mode);
    let placed: Vec<PlacedInfo> = pieces
        .iter()
        .map(|&sq| {
            let p = pos.piece_at(sq);
            PlacedInfo {
                piece: p
                    .map(|p| t.variant().piece(p.kind).name.clone())
                    .unwrap_or_default(),
                side: p
                    .map(|p| t.variant().side(p.side).name.clone())
                    .unwrap_or_default(),
                square: g.name(sq).to_string(),
            }
        })
        .collect();
    let first = placed.first().cloned().unwrap_or(PlacedInfo {
        piece: String::new(),
        side: String::new(),
        square: String::new(),
    });
    DiagramInfo {
        variant: t.variant().name().to_string(),
        piece: first.piece,
        side: first.side,
        square: first.square,
        pieces: placed,
        targets: g
            .squares()
            .flat_map(|sq| {
                marks[sq.index()].iter().map(move |m| TargetInfo {
                    square: g.name(sq).to_string(),
                    marker: m.name(),
                })
            })
            .collect(),
        legend: markers_present(&marks)
            .into_iter()
            .map(|m| LegendInfo {
                marker: m.name(),
                glyph: m.glyph(),
                meaning: m.meaning(mode),
            })
            .collect(),
        players: players(pos),
    }
}
