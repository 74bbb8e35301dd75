//! Board maps and move diagrams.

use std::fmt::Write;

use crate::engine::fen::piece_letter;
use crate::engine::{Piece, Position};
use crate::model::{Geometry, Square};

/// What a piece can do on a marked square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    /// Move there or capture there: `*`.
    Both,
    /// Only move there (the square must be empty): `m`.
    MoveOnly,
    /// Only capture there: `x`.
    CaptureOnly,
}

impl Marker {
    fn glyph(self) -> char {
        match self {
            Marker::Both => '*',
            Marker::MoveOnly => 'm',
            Marker::CaptureOnly => 'x',
        }
    }

    fn add(self, other: Marker) -> Marker {
        if self == other {
            self
        } else {
            Marker::Both
        }
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
    bg
}

fn grid(g: Geometry, cell: impl Fn(Square) -> char) -> String {
    let mut out = String::new();
    let label_width = g.height.to_string().len();
    for rank in (0..g.height as i32).rev() {
        let _ = write!(out, "{:>w$} ", rank + 1, w = label_width);
        for file in 0..g.width as i32 {
            out.push(cell(g.square(file, rank).expect("on the board")));
        }
        out.push('\n');
    }
    let _ = write!(out, "{:w$} ", "", w = label_width);
    for file in 0..g.width as i32 {
        out.push(Geometry::file_char(file));
    }
    out.push('\n');
    out
}

fn piece_char(pos: &Position, p: Piece) -> char {
    let l = piece_letter(pos, p);
    l.chars().last().unwrap_or('?')
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
            out.push_str(&grid(g, |sq| if set.contains(sq) { 'x' } else { '.' }));
        }
    }
    let _ = writeln!(out, "\nposition: {}", pos.fen());
    out.push_str(&position_diagram(pos));
    out
}

/// The position alone: pieces over the zone glyphs.
pub fn position_diagram(pos: &Position) -> String {
    let bg = zone_background(pos);
    grid(pos.tables().geometry(), |sq| match pos.piece_at(sq) {
        Some(p) => piece_char(pos, p),
        None => bg[sq.index()],
    })
}

/// The squares a piece on `at` can go to, with what it can do there.
pub fn diagram_markers(pos: &Position, at: Square, mode: DiagramMode) -> Vec<Option<Marker>> {
    let t = pos.tables();
    let mut marks: Vec<Option<Marker>> = vec![None; t.geometry().len()];
    let Some(piece) = pos.piece_at(at) else {
        return marks;
    };
    let mut set = |sq: Square, m: Marker| {
        let cur = &mut marks[sq.index()];
        *cur = Some(cur.map_or(m, |c| c.add(m)));
    };
    match mode {
        DiagramMode::Alone => {
            for target in t.reach(piece.kind, piece.side, at) {
                let m = match (target.can_move, target.can_capture) {
                    (true, true) => Marker::Both,
                    (true, false) => Marker::MoveOnly,
                    (false, true) => Marker::CaptureOnly,
                    (false, false) => continue,
                };
                set(target.square, m);
            }
        }
        DiagramMode::InPosition => {
            let mut p = pos.clone();
            if p.side_to_move() != piece.side {
                p = p.with_side_to_move(piece.side);
            }
            for m in p.legal_moves() {
                if m.from != at || m.is_drop() {
                    continue;
                }
                let capture = crate::engine::notation::is_capture(&p, &m);
                set(
                    m.to,
                    if capture {
                        Marker::CaptureOnly
                    } else {
                        Marker::Both
                    },
                );
            }
        }
    }
    marks
}

/// A move diagram: the board with its zones, the piece on `at` and its targets.
pub fn move_diagram(pos: &Position, at: Square, mode: DiagramMode) -> String {
    let t = pos.tables();
    let g = t.geometry();
    let marks = diagram_markers(pos, at, mode);
    let bg = zone_background(pos);
    let mut out = grid(g, |sq| match (pos.piece_at(sq), marks[sq.index()]) {
        (Some(p), None) => piece_char(pos, p),
        (Some(_), Some(_)) if sq == at => piece_char(pos, pos.piece_at(sq).expect("checked")),
        (_, Some(m)) => m.glyph(),
        (None, None) => bg[sq.index()],
    });
    out.push_str(match mode {
        DiagramMode::Alone => "* move or capture, m move only, x capture only\n",
        DiagramMode::InPosition => "* move, x capture\n",
    });
    out
}

/// A move diagram described for machines (`diagram --format json`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DiagramInfo {
    /// The variant's name.
    pub variant: String,
    /// The piece's name.
    pub piece: String,
    /// Its side's name.
    pub side: String,
    /// Where it stands.
    pub square: String,
    /// Every marked square, in square order.
    pub targets: Vec<TargetInfo>,
}

/// One marked square of a [`DiagramInfo`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TargetInfo {
    /// The square.
    pub square: String,
    /// `both`, `move` or `capture`.
    pub marker: &'static str,
}

/// The content of a move diagram, for machines.
pub fn diagram_info(pos: &Position, at: Square, mode: DiagramMode) -> DiagramInfo {
    let t = pos.tables();
    let g = t.geometry();
    let marks = diagram_markers(pos, at, mode);
    let piece = pos.piece_at(at);
    DiagramInfo {
        variant: t.variant().name().to_string(),
        piece: piece
            .map(|p| t.variant().piece(p.kind).name.clone())
            .unwrap_or_default(),
        side: piece
            .map(|p| t.variant().side(p.side).name.clone())
            .unwrap_or_default(),
        square: g.name(at).to_string(),
        targets: g
            .squares()
            .filter_map(|sq| {
                marks[sq.index()].map(|m| TargetInfo {
                    square: g.name(sq).to_string(),
                    marker: match m {
                        Marker::Both => "both",
                        Marker::MoveOnly => "move",
                        Marker::CaptureOnly => "capture",
                    },
                })
            })
            .collect(),
    }
}
