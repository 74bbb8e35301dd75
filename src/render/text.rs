//! The text board every text picture is drawn on: ranks from the top with their numbers, files
//! lettered below, cells as wide as the longest piece token (`+B` in Shogi), walls between
//! squares (`|` and `-`), rivers across the board (`~`), and on a terminal colours for the
//! sides, the zones and the last move.

use std::fmt::Write;

use anstyle::{AnsiColor, Color, Style};

use crate::engine::fen::piece_letter;
use crate::engine::{Piece, Position};
use crate::model::{Geometry, Side, Square, SquareSet};

/// What one square shows, and how it is coloured on a terminal.
#[derive(Clone, Debug, Default)]
pub(super) struct Cell {
    pub text: String,
    pub style: Style,
}

impl Cell {
    pub fn plain(c: char) -> Cell {
        Cell {
            text: c.to_string(),
            style: Style::new(),
        }
    }
}

/// How text pictures are drawn: with colour (ANSI escapes, for a terminal) or without.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TextStyle {
    /// Colour the sides' pieces, the zones and the last move.
    pub colour: bool,
}

/// The walls and rivers of a board, and the width of its cells.
pub(super) struct Layout {
    g: Geometry,
    width: usize,
    /// Squares with a wall on their north and east sides.
    walls: Option<(SquareSet, SquareSet)>,
    /// Ranks (from 0) after which a river runs.
    rivers: Vec<i32>,
}

impl Layout {
    /// The board of `pos`: cells wide enough for every piece token, its walls and rivers.
    pub fn of(pos: &Position) -> Layout {
        let t = pos.tables();
        let width = t
            .variant()
            .pieces()
            .iter()
            .map(|p| p.letter.width())
            .max()
            .unwrap_or(1)
            .clamp(1, 3)
            // A side's initial before each piece, with more than two sides.
            + usize::from(t.variant().tags_sides());
        Layout {
            g: t.geometry(),
            width,
            walls: line_edges(pos),
            rivers: t.variant().drawing().rivers.clone(),
        }
    }

    /// The same board with one-character cells and no walls or rivers (zone maps).
    pub fn bare(g: Geometry) -> Layout {
        Layout {
            g,
            width: 1,
            walls: None,
            rivers: Vec::new(),
        }
    }

    /// The board with walls on these edges only, one-character cells (line maps).
    pub fn walls(g: Geometry, edges: (SquareSet, SquareSet)) -> Layout {
        Layout {
            g,
            width: 1,
            walls: Some(edges),
            rivers: Vec::new(),
        }
    }

    /// The picture: `cell` gives each square (holes are left blank).
    pub fn draw(&self, style: TextStyle, cell: impl Fn(Square) -> Cell) -> String {
        let g = self.g;
        let mut out = String::new();
        let label = g.height.to_string().len();
        let spaced = self.width > 1 || self.walls.is_some();
        let at = |file: i32, rank: i32| g.square(file, rank).expect("on the board");
        let paint = |out: &mut String, text: &str, s: Style| {
            if style.colour && s != Style::new() {
                let _ = write!(out, "{}{text}{}", s.render(), s.render_reset());
            } else {
                out.push_str(text);
            }
        };
        for rank in (0..g.height as i32).rev() {
            let _ = write!(out, "{:>label$} ", rank + 1);
            for file in 0..g.width as i32 {
                let sq = at(file, rank);
                let c = if g.is_hole(sq) {
                    Cell::plain(' ')
                } else {
                    cell(sq)
                };
                let pad = self.width.saturating_sub(c.text.chars().count());
                out.push_str(&" ".repeat(pad));
                paint(&mut out, &c.text, c.style);
                if spaced && file + 1 < g.width as i32 {
                    let wall = self
                        .walls
                        .as_ref()
                        .is_some_and(|(_, east)| east.contains(sq));
                    out.push(if wall { '|' } else { ' ' });
                }
            }
            out.push('\n');
            if rank == 0 {
                continue;
            }
            if let Some((north, _)) = &self.walls {
                let mut row = " ".repeat(label + 1);
                for file in 0..g.width as i32 {
                    let below = at(file, rank - 1);
                    let mark = if north.contains(below) { '-' } else { ' ' };
                    row.push_str(&mark.to_string().repeat(self.width));
                    if file + 1 < g.width as i32 {
                        row.push(' ');
                    }
                }
                // Only rows that show a wall: the board stays compact.
                if row.contains('-') {
                    out.push_str(row.trim_end());
                    out.push('\n');
                }
            }
            if self.rivers.contains(&(rank - 1)) {
                let cells =
                    self.width * g.width as usize + usize::from(spaced) * (g.width as usize - 1);
                let river = "~".repeat(cells);
                let _ = write!(out, "{} ", " ".repeat(label));
                paint(
                    &mut out,
                    &river,
                    Style::new().fg_color(Some(AnsiColor::Blue.into())),
                );
                out.push('\n');
            }
        }
        let _ = write!(out, "{:label$} ", "");
        for file in 0..g.width as i32 {
            let _ = write!(out, "{:>w$}", Geometry::file_char(file), w = self.width);
            if spaced && file + 1 < g.width as i32 {
                out.push(' ');
            }
        }
        out.push('\n');
        out
    }
}

/// The edges on any line of the variant (as the first side reads them): north and east.
fn line_edges(pos: &Position) -> Option<(SquareSet, SquareSet)> {
    let lines = pos.tables().variant().lines();
    if lines.is_empty() {
        return None;
    }
    let mut north = SquareSet::EMPTY;
    let mut east = SquareSet::EMPTY;
    for l in lines {
        north = north.union(&l.north[0]);
        east = east.union(&l.east[0]);
    }
    Some((north, east))
}

/// The terminal colour of a side: the colour its name says (`red`, `blue`), else one by turn
/// order. White is the terminal's own ink, which reads on dark and light backgrounds alike.
pub(super) fn side_colour(pos: &Position, side: Side) -> Option<Color> {
    let name = pos.tables().variant().side(side).name.to_ascii_lowercase();
    let named = match name.as_str() {
        "white" => return None,
        "black" => AnsiColor::Cyan,
        "red" => AnsiColor::Red,
        "blue" => AnsiColor::Blue,
        "green" => AnsiColor::Green,
        "yellow" | "gold" => AnsiColor::Yellow,
        "purple" | "violet" => AnsiColor::Magenta,
        _ => match side.index() {
            0 => return None,
            1 => AnsiColor::Cyan,
            2 => AnsiColor::Yellow,
            _ => AnsiColor::Green,
        },
    };
    Some(named.into())
}

/// A piece's cell: its FEN token (`+B`, `p`), bold in its side's colour.
pub(super) fn piece_cell(pos: &Position, p: Piece) -> Cell {
    Cell {
        text: piece_letter(pos, p),
        style: Style::new().bold().fg_color(side_colour(pos, p.side)),
    }
}

/// A zone glyph's style: dimmed, so that pieces stand out.
pub(super) fn zone_style() -> Style {
    Style::new().dimmed()
}

/// The style of the last move's squares.
pub(super) fn last_move_style(s: Style) -> Style {
    s.bg_color(Some(AnsiColor::BrightBlack.into()))
}
