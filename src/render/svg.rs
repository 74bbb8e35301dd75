//! Board maps and move diagrams as SVG, for web pages: the same content as the text diagrams,
//! drawn in the board's own style (checkered squares, a ruled grid, or points on lines with
//! rivers and palace diagonals), zones that have a glyph tinted per side, lines between
//! squares as walls, pieces as drawn figures (the six chess pieces, by name) or lettered
//! discs, markers by kind, and a legend under the board naming every marker, zone and line
//! shown. Everything is drawn in the file itself: no font or image is fetched.

use std::fmt::Write;

use super::diagram::{diagram_marks, markers_present, DiagramMode, Marker};
use crate::engine::fen::piece_letter;
use crate::engine::{Piece, Position};
use crate::model::{BoardStyle, Geometry, Mark, Square, SquareSet};

const CELL: i32 = 40;
const MARGIN: i32 = 24;
/// Height of one legend row.
const ROW: i32 = 20;
/// The narrowest picture, so that a small board still has room for its legend.
const MIN_WIDTH: i32 = 320;
/// Tints for the zones that have a glyph, in declaration order: the first side's copy, then
/// the second side's where the copies differ.
const ZONE_TINTS: [(&str, &str); 6] = [
    ("#6baed6", "#fd8d3c"),
    ("#74c476", "#9e9ac8"),
    ("#fdae6b", "#6baed6"),
    ("#bcbddc", "#a1d99b"),
    ("#fc9272", "#9ecae1"),
    ("#bdbdbd", "#fdd0a2"),
];
const MOVE_INK: &str = "#1a7f37";
const CAPTURE_INK: &str = "#c62828";
const HOP_INK: &str = "#6a3d9a";
const TELEPORT_INK: &str = "#1565c0";
const WALL_INK: &str = "#5b3a1a";

/// How a side is painted: its pieces' fill and ink, and the tint of its own zones.
#[derive(Clone, Copy)]
struct Paint {
    fill: &'static str,
    ink: &'static str,
    tint: &'static str,
}

/// The paint of a side: the colour its name says (`red`, `blue`, `white`), else white,
/// black, red and blue by turn order.
fn side_paint(pos: &Position, side: crate::model::Side) -> Paint {
    const WHITE: Paint = Paint {
        fill: "#ffffff",
        ink: "#000000",
        tint: "#d9d9d9",
    };
    const BLACK: Paint = Paint {
        fill: "#2b2b2b",
        ink: "#ffffff",
        tint: "#a0a0a0",
    };
    const RED: Paint = Paint {
        fill: "#c62828",
        ink: "#ffffff",
        tint: "#ef9a9a",
    };
    const BLUE: Paint = Paint {
        fill: "#1565c0",
        ink: "#ffffff",
        tint: "#90caf9",
    };
    const GREEN: Paint = Paint {
        fill: "#2e7d32",
        ink: "#ffffff",
        tint: "#a5d6a7",
    };
    const YELLOW: Paint = Paint {
        fill: "#f9c825",
        ink: "#000000",
        tint: "#fff59d",
    };
    match pos
        .tables()
        .variant()
        .side(side)
        .name
        .to_ascii_lowercase()
        .as_str()
    {
        "white" => WHITE,
        "black" => BLACK,
        "red" => RED,
        "blue" => BLUE,
        "green" => GREEN,
        "yellow" | "gold" => YELLOW,
        _ => [WHITE, BLACK, RED, BLUE][side.index() % 4],
    }
}

/// The colour `side`'s pieces are drawn in.
pub(super) fn side_colour(pos: &Position, side: crate::model::Side) -> &'static str {
    side_paint(pos, side).fill
}

/// `text` made safe inside SVG and HTML text and attributes.
pub(super) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The top-left corner of a square's cell.
fn corner(g: Geometry, sq: Square) -> (i32, i32) {
    let x = MARGIN + g.file(sq) * CELL;
    let y = MARGIN + (i32::from(g.height) - 1 - g.rank(sq)) * CELL;
    (x, y)
}

/// Where a square is drawn in [`board_svg`]'s picture: its cell's left and top edges and its
/// size, in the picture's units, for a page that turns clicks into squares.
pub fn square_box(g: Geometry, sq: Square) -> (i32, i32, i32) {
    let (x, y) = corner(g, sq);
    (x, y, CELL)
}

/// The centre of a square's cell.
fn centre(g: Geometry, sq: Square) -> (i32, i32) {
    let (x, y) = corner(g, sq);
    (x + CELL / 2, y + CELL / 2)
}

/// A zone drawn on the board: its name, the squares of one side's copy (or of both, when
/// they are the same) and its tint.
struct Tinted {
    label: String,
    squares: SquareSet,
    tint: &'static str,
}

/// The zones that have a glyph, one entry per side where the sides' copies differ. The first
/// zone with a copy per side is tinted in each side's own colour (red's palace reddish);
/// other zones take tints of their own.
fn tinted_zones(pos: &Position) -> Vec<Tinted> {
    let v = pos.tables().variant();
    let mut out = Vec::new();
    let mut side_tints_used = false;
    for (i, z) in v.zones().iter().filter(|z| z.glyph.is_some()).enumerate() {
        let tints = ZONE_TINTS[i % ZONE_TINTS.len()];
        let same = z.squares.windows(2).all(|w| w[0] == w[1]);
        if same {
            out.push(Tinted {
                label: z.name.clone(),
                squares: z.squares[0],
                tint: tints.0,
            });
            continue;
        }
        let own = !side_tints_used;
        side_tints_used = true;
        for (s, set) in z.squares.iter().enumerate() {
            let tint = if own {
                side_paint(pos, crate::model::Side::nth(s)).tint
            } else if s == 0 {
                tints.0
            } else {
                tints.1
            };
            out.push(Tinted {
                label: format!("{} ({})", z.name, v.sides()[s].name),
                squares: *set,
                tint,
            });
        }
    }
    out
}

/// The bounding boxes (first and last file, first and last rank) of the 8-connected parts of
/// `set`.
fn parts(g: Geometry, set: SquareSet) -> Vec<(i32, i32, i32, i32)> {
    let mut seen = SquareSet::EMPTY;
    let mut out = Vec::new();
    for start in set.iter() {
        if seen.contains(start) {
            continue;
        }
        let mut stack = vec![start];
        seen.insert(start);
        let (mut f0, mut f1, mut r0, mut r1) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
        while let Some(sq) = stack.pop() {
            let (f, r) = (g.file(sq), g.rank(sq));
            (f0, f1, r0, r1) = (f0.min(f), f1.max(f), r0.min(r), r1.max(r));
            for df in -1..=1 {
                for dr in -1..=1 {
                    if let Some(n) = g.square(f + df, r + dr) {
                        if set.contains(n) && !seen.contains(n) {
                            seen.insert(n);
                            stack.push(n);
                        }
                    }
                }
            }
        }
        out.push((f0, f1, r0, r1));
    }
    out
}

/// How strongly zones are tinted, on the board and in the legend alike.
const TINT_OPACITY: &str = "0.45";

/// The box tinted for one square of a zone: its cell; on a board of points, the part of the
/// cell inside the lines that join the zone's points, so that a palace's tint stops at the
/// palace lines (a point with no neighbour in the zone along an axis keeps a narrow band).
fn tint_box(g: Geometry, style: BoardStyle, set: &SquareSet, sq: Square) -> (i32, i32, i32, i32) {
    let (x, y) = corner(g, sq);
    if style != BoardStyle::Points {
        return (x, y, CELL, CELL);
    }
    let (f, r) = (g.file(sq), g.rank(sq));
    let has = |df: i32, dr: i32| g.square(f + df, r + dr).is_some_and(|n| set.contains(n));
    let half = CELL / 2;
    let band = CELL / 5;
    let span = |low: bool, high: bool, start: i32| match (low, high) {
        (false, false) => (start + half - band, 2 * band),
        (true, false) => (start, half),
        (false, true) => (start + half, half),
        (true, true) => (start, CELL),
    };
    let (x0, w) = span(has(-1, 0), has(1, 0), x);
    // Screen y grows downwards: the rank above is the box's top half.
    let (y0, h) = span(has(0, 1), has(0, -1), y);
    (x0, y0, w, h)
}

/// The colour of the board under the squares.
fn paper(style: BoardStyle) -> &'static str {
    match style {
        BoardStyle::Checkered => "#f3e4c8",
        BoardStyle::Grid => "#f2d89b",
        BoardStyle::Points => "#f4dcab",
    }
}

/// The squares, in the board's style, with tinted zones, rivers and diagonals.
fn draw_board(out: &mut String, pos: &Position, zones: &[Tinted]) {
    let t = pos.tables();
    let g = t.geometry();
    let drawing = t.variant().drawing();
    let (bw, bh) = (i32::from(g.width) * CELL, i32::from(g.height) * CELL);
    let style = drawing.style;
    let paper = paper(style);
    let _ = writeln!(
        out,
        r##"<rect x="{MARGIN}" y="{MARGIN}" width="{bw}" height="{bh}" fill="{paper}"/>"##
    );
    if style == BoardStyle::Checkered {
        for sq in g.squares() {
            if (g.file(sq) + g.rank(sq)) % 2 == 0 {
                let (x, y) = corner(g, sq);
                let _ = writeln!(
                    out,
                    r##"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#d6b98c"/>"##
                );
            }
        }
    }
    for z in zones {
        let _ = write!(
            out,
            r#"<g fill="{}" fill-opacity="{TINT_OPACITY}">"#,
            z.tint
        );
        let _ = write!(out, "<title>{}</title>", escape(&z.label));
        for sq in z.squares.iter() {
            let (x, y, w, h) = tint_box(g, style, &z.squares, sq);
            let _ = write!(out, r#"<rect x="{x}" y="{y}" width="{w}" height="{h}"/>"#);
        }
        out.push_str("</g>\n");
    }
    let ink = r##"stroke="#3b2a14" stroke-width="1.2" fill="none""##;
    match style {
        BoardStyle::Checkered => {}
        BoardStyle::Grid => {
            let mut d = String::new();
            for f in 0..=i32::from(g.width) {
                let x = MARGIN + f * CELL;
                let _ = write!(d, "M{x} {MARGIN}V{}", MARGIN + bh);
            }
            for r in 0..=i32::from(g.height) {
                let y = MARGIN + r * CELL;
                let _ = write!(d, "M{MARGIN} {y}H{}", MARGIN + bw);
            }
            let _ = writeln!(out, r#"<path d="{d}" {ink}/>"#);
        }
        BoardStyle::Points => {
            let half = CELL / 2;
            let (left, right) = (MARGIN + half, MARGIN + bw - half);
            let y_of = |rank: i32| MARGIN + (i32::from(g.height) - 1 - rank) * CELL + half;
            let mut d = String::new();
            for r in 0..i32::from(g.height) {
                let _ = write!(d, "M{left} {}H{right}", y_of(r));
            }
            for f in 0..i32::from(g.width) {
                let x = MARGIN + f * CELL + half;
                let edge = f == 0 || f == i32::from(g.width) - 1;
                // Inner files stop at the river; the edge files run through.
                let mut from = 0;
                for &river in &drawing.rivers {
                    if !edge {
                        let _ = write!(d, "M{x} {}V{}", y_of(from), y_of(river));
                        from = river + 1;
                    }
                }
                let _ = write!(d, "M{x} {}V{}", y_of(from), y_of(i32::from(g.height) - 1));
            }
            let _ = writeln!(out, r#"<path d="{d}" {ink}/>"#);
        }
    }
    for &river in &drawing.rivers {
        // Between the rank's row and the next one up.
        let y = MARGIN + (i32::from(g.height) - 1 - river) * CELL;
        match style {
            BoardStyle::Points => {
                let _ = writeln!(
                    out,
                    r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#9ecae1" fill-opacity="0.5"><title>river</title></rect>"##,
                    MARGIN + CELL / 2,
                    y - CELL / 2 + 2,
                    bw - CELL,
                    CELL - 4
                );
            }
            _ => {
                let _ = writeln!(
                    out,
                    r##"<line x1="{MARGIN}" y1="{y}" x2="{}" y2="{y}" stroke="#3182bd" stroke-width="4"><title>river</title></line>"##,
                    MARGIN + bw
                );
            }
        }
    }
    for &zone in &drawing.diagonals {
        let mut all = SquareSet::EMPTY;
        for s in 0..t.variant().sides().len() {
            all = all.union(t.zone(zone, crate::model::Side::nth(s)));
        }
        let mut d = String::new();
        for (f0, f1, r0, r1) in parts(g, all) {
            // Points style joins the corner points; squares join the outer corners.
            let inset = if style == BoardStyle::Points {
                CELL / 2
            } else {
                0
            };
            let x0 = MARGIN + f0 * CELL + inset;
            let x1 = MARGIN + (f1 + 1) * CELL - inset;
            let y0 = MARGIN + (i32::from(g.height) - 1 - r1) * CELL + inset;
            let y1 = MARGIN + (i32::from(g.height) - r0) * CELL - inset;
            let _ = write!(d, "M{x0} {y0}L{x1} {y1}M{x1} {y0}L{x0} {y1}");
        }
        let _ = writeln!(out, r#"<path d="{d}" {ink}/>"#);
    }
    // Holes are cut out of the board in the page's colour, over the zones and lines.
    if g.has_holes() {
        let _ = write!(
            out,
            r##"<g class="hole" fill="#ffffff"><title>hole</title>"##
        );
        for sq in g.squares().filter(|&sq| g.is_hole(sq)) {
            let (x, y) = corner(g, sq);
            let _ = write!(
                out,
                r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}"/>"#
            );
        }
        out.push_str("</g>\n");
    }
    // Frame.
    let _ = writeln!(
        out,
        r##"<rect x="{MARGIN}" y="{MARGIN}" width="{bw}" height="{bh}" fill="none" stroke="#3b2a14" stroke-width="2"/>"##
    );
}

/// Squares walled off in play (`moves leave walls`): dark blocks, crossed.
fn draw_wall_squares(out: &mut String, pos: &Position) {
    let g = pos.tables().geometry();
    let walls: Vec<Square> = g.squares().filter(|&sq| pos.is_wall(sq)).collect();
    if walls.is_empty() {
        return;
    }
    out.push_str(r##"<g class="wall-square" fill="#3b2a14" stroke="#8a7a60" stroke-width="2"><title>wall</title>"##);
    for sq in walls {
        let (x, y) = corner(g, sq);
        let (a, b) = (x + CELL, y + CELL);
        let _ = write!(
            out,
            r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}"/><path d="M{x} {y}L{a} {b}M{a} {y}L{x} {b}"/>"#
        );
    }
    out.push_str(
        "</g>
",
    );
}

/// Lines between squares, as walls on the cell borders.
fn draw_walls(out: &mut String, pos: &Position) {
    let t = pos.tables();
    let g = t.geometry();
    for l in t.variant().lines() {
        let _ = write!(
            out,
            r#"<g class="wall" stroke="{WALL_INK}" stroke-width="5" stroke-linecap="round"><title>{}</title>"#,
            escape(&l.name)
        );
        for sq in l.north[0].iter() {
            let (x, y) = corner(g, sq);
            let _ = write!(
                out,
                r#"<line x1="{x}" y1="{y}" x2="{}" y2="{y}"/>"#,
                x + CELL
            );
        }
        for sq in l.east[0].iter() {
            let (x, y) = corner(g, sq);
            let _ = write!(
                out,
                r#"<line x1="{}" y1="{y}" x2="{}" y2="{}"/>"#,
                x + CELL,
                x + CELL,
                y + CELL
            );
        }
        out.push_str("</g>\n");
    }
}

fn draw_coordinates(out: &mut String, g: Geometry) {
    let h = 2 * MARGIN + i32::from(g.height) * CELL;
    for file in 0..i32::from(g.width) {
        let x = MARGIN + file * CELL + CELL / 2;
        let _ = writeln!(
            out,
            r#"<text x="{x}" y="{}" font-size="12" text-anchor="middle">{}</text>"#,
            h - MARGIN / 3,
            Geometry::file_char(file)
        );
    }
    for rank in 0..i32::from(g.height) {
        let y = MARGIN + (i32::from(g.height) - 1 - rank) * CELL + CELL / 2 + 4;
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{y}" font-size="12" text-anchor="middle">{}</text>"#,
            MARGIN / 2,
            rank + 1
        );
    }
}

/// The drawn figure of a chess piece, by its usual English name, as paths in a 40x40 box
/// centred on (20, 20): `(outline, details)`. Other pieces get a lettered disc. The name
/// only chooses a picture, never a rule.
fn figure(name: &str) -> Option<(&'static str, &'static str)> {
    Some(match name.to_ascii_lowercase().as_str() {
        "pawn" => (
            "M20 7a5 5 0 0 1 3.2 8.8C26 17.5 27 21 25 25l5 7H10l5-7c-2-4-1-7.5 1.8-9.2A5 5 0 0 1 20 7z",
            "",
        ),
        "rook" => (
            "M10 7h4v3h4V7h4v3h4V7h4v7l-3 3v10l3 3v3H10v-3l3-3V17l-3-3z",
            "M13 17h14M13 27h14",
        ),
        "bishop" => (
            "M20 5a2.5 2.5 0 1 1 0 5a2.5 2.5 0 1 1 0-5zM20 10c5 4 8 8 5 14l2 4H13l2-4c-3-6 0-10 5-14zM10 31h20v3H10z",
            "M20 14v7M16.5 17.5h7",
        ),
        "knight" => (
            "M14 33c0-6 2-9 6-12c-3 0-5 1-7 3l-3-2c1-5 5-9 8-12l1-3l2 3c6 1 10 7 10 14v9z",
            "M17 13.5a1 1 0 1 0 0.1 0",
        ),
        "queen" => (
            "M8 12l5 13l3-14l4 13l4-13l3 14l5-13l-2 18H10zM10 31h20v3H10z",
            "M8 10.5a1.8 1.8 0 1 0 0.1 0M16 9.5a1.8 1.8 0 1 0 0.1 0M24 9.5a1.8 1.8 0 1 0 0.1 0M32 10.5a1.8 1.8 0 1 0 0.1 0",
        ),
        "king" => (
            "M18.5 4h3v3h3v3h-3v4c5-2 11 0 10 6c-1 4-4 6-4 10H12c0-4-3-6-4-10c-1-6 5-8 10-6v-4h-3V7h3z",
            "M12 26h16",
        ),
        _ => return None,
    })
}

fn draw_piece(out: &mut String, pos: &Position, sq: Square, p: Piece) {
    let t = pos.tables();
    let g = t.geometry();
    let (x, y) = corner(g, sq);
    let (cx, cy) = centre(g, sq);
    let def = t.variant().piece(p.kind);
    let name = &def.name;
    let Paint { fill, ink, .. } = side_paint(pos, p.side);
    let title = format!(
        "{} {} on {}",
        t.variant().side(p.side).name,
        name,
        g.name(sq)
    );
    // With more than two sides the colour names the side: the disc shows the letter without
    // its side's initial (`A` for `rA`).
    let letter = if t.variant().tags_sides() {
        def.letter.to_string()
    } else {
        piece_letter(pos, p)
    };
    let promoted = def.letter.mark() == Mark::Plus;
    // Figures belong to chess-like boards; games drawn on grids or points use lettered discs,
    // as their own sets use characters.
    let figure = match t.variant().drawing().style {
        BoardStyle::Checkered => figure(name),
        _ => None,
    };
    match figure {
        Some((outline, details)) if !promoted => {
            let _ = writeln!(
                out,
                r##"<g transform="translate({x} {y})"><title>{}</title><path d="{outline}" fill="{fill}" stroke="#000000" stroke-width="1.5" stroke-linejoin="round"/><path d="{details}" fill="none" stroke="{}" stroke-width="1.3"/></g>"##,
                escape(&title),
                ink
            );
        }
        _ => {
            // A promoted piece is marked by a red ring around its disc.
            let ring = if promoted { "#c62828" } else { "#000000" };
            let _ = writeln!(
                out,
                r##"<g><title>{}</title><circle cx="{cx}" cy="{cy}" r="{}" fill="{fill}" stroke="{ring}" stroke-width="{}"/><text x="{cx}" y="{}" font-size="{}" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text></g>"##,
                escape(&title),
                CELL * 2 / 5,
                if promoted { "3" } else { "1.5" },
                cy + 6,
                if letter.len() > 1 { 14 } else { 18 },
                escape(&letter)
            );
        }
    }
}

/// A marker's shape centred on (cx, cy), `r` its radius.
fn marker_shape(m: Marker, cx: i32, cy: i32, r: i32) -> String {
    let ring = |ink: &str, width: i32| {
        format!(
            r#"<circle cx="{cx}" cy="{cy}" r="{r}" fill="none" stroke="{ink}" stroke-width="{width}"/>"#
        )
    };
    let dot = |ink: &str| format!(r#"<circle cx="{cx}" cy="{cy}" r="{r}" fill="{ink}"/>"#);
    let cross = |ink: &str, d: i32| {
        format!(
            r#"<path d="M{} {} L{} {} M{} {} L{} {}" stroke="{ink}" stroke-width="{}" stroke-linecap="round"/>"#,
            cx - d,
            cy - d,
            cx + d,
            cy + d,
            cx + d,
            cy - d,
            cx - d,
            cy + d,
            (r / 2).max(2)
        )
    };
    match m {
        Marker::Both => dot(MOVE_INK),
        Marker::MoveOnly => ring(MOVE_INK, (r / 2).max(2)),
        Marker::CaptureOnly => cross(CAPTURE_INK, r),
        Marker::MoveOrHopCapture => ring(MOVE_INK, (r / 3).max(1)) + &cross(HOP_INK, r * 2 / 3),
        Marker::HopCapture => cross(HOP_INK, r),
        Marker::Hop => dot(HOP_INK),
        Marker::HopMove => ring(HOP_INK, (r / 2).max(2)),
        Marker::Shot => format!(
            r#"<circle cx="{cx}" cy="{cy}" r="{r}" fill="none" stroke="{CAPTURE_INK}" stroke-width="{}" stroke-dasharray="{} {}"/><circle cx="{cx}" cy="{cy}" r="{}" fill="{CAPTURE_INK}"/>"#,
            (r / 4).max(1),
            r,
            r / 2,
            (r / 4).max(1)
        ),
        Marker::Teleport => format!(
            r#"<path d="M{cx} {} L{} {cy} L{cx} {} L{} {cy}z" fill="{TELEPORT_INK}" fill-opacity="0.85"/>"#,
            cy - r,
            cx + r,
            cy + r,
            cx - r
        ),
        Marker::Blocking => format!(
            r##"<rect x="{}" y="{}" width="{}" height="{}" rx="2" fill="#ffffff" stroke="#555555"/><path d="M{cx} {}V{}" stroke="#333333" stroke-width="{}" stroke-linecap="round"/><circle cx="{cx}" cy="{}" r="{}" fill="#333333"/>"##,
            cx - r,
            cy - r,
            2 * r,
            2 * r,
            cy - r * 2 / 3,
            cy + r / 5,
            (r / 3).max(1),
            cy + r * 3 / 5,
            (r / 5).max(1)
        ),
    }
}

/// Draws the markers: on an empty square in the middle, on an occupied one in the cell's
/// corner with the cell framed, so that no marker hides a piece; a second marker of the same
/// square (another piece's blocking square, say) small in the lower corner.
fn draw_markers(out: &mut String, pos: &Position, marks: &[Vec<Marker>]) {
    let g = pos.tables().geometry();
    for sq in g.squares() {
        let Some((&m, rest)) = marks[sq.index()].split_first() else {
            continue;
        };
        let (x, y) = corner(g, sq);
        let (cx, cy) = centre(g, sq);
        let _ = write!(out, r#"<g class="marker {}">"#, m.name());
        if pos.piece_at(sq).is_some() {
            let ink = match m {
                Marker::Both | Marker::MoveOnly => MOVE_INK,
                Marker::CaptureOnly | Marker::Shot => CAPTURE_INK,
                Marker::Teleport => TELEPORT_INK,
                Marker::Blocking => "#555555",
                _ => HOP_INK,
            };
            let _ = write!(
                out,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{ink}" stroke-width="3"/>"#,
                x + 2,
                y + 2,
                CELL - 4,
                CELL - 4
            );
            out.push_str(&marker_shape(m, x + CELL - 8, y + 8, 5));
        } else {
            out.push_str(&marker_shape(m, cx, cy, 7));
        }
        out.push_str("</g>\n");
        for (i, &also) in (0..).zip(rest) {
            let _ = write!(out, r#"<g class="marker {}">"#, also.name());
            out.push_str(&marker_shape(also, x + 8 + 12 * i, y + CELL - 8, 5));
            out.push_str("</g>\n");
        }
    }
}

/// Height of the row of one side's pieces in hand.
const HAND_ROW: i32 = 34;

/// Each side's pieces in hand, a row each from `top`: the side's name, then each kind held as
/// a disc with its letter and, above one, how many.
fn draw_hands(out: &mut String, pos: &Position, top: i32) {
    let t = pos.tables();
    let v = t.variant();
    let sides = crate::model::Side::all(v.sides().len()).zip(v.sides());
    for ((side_id, side), row) in sides.zip(0..) {
        let y = top + row * HAND_ROW + HAND_ROW / 2;
        let _ = write!(
            out,
            r#"<g class="hand"><title>{} in hand</title><text x="{MARGIN}" y="{}" font-size="12">{} in hand:</text>"#,
            escape(&side.name),
            y + 4,
            escape(&side.name)
        );
        let Paint { fill, ink, .. } = side_paint(pos, side_id);
        let letters = i32::try_from(side.name.chars().count()).expect("a name is one word");
        let mut x = MARGIN + 12 + 7 * (letters + 9);
        let mut any = false;
        for (k, def) in v.pieces().iter().enumerate() {
            let kind = crate::model::PieceKind::nth(k);
            let n = pos.in_hand(side_id, kind);
            if n == 0 {
                continue;
            }
            any = true;
            let letter = piece_letter(
                pos,
                Piece {
                    side: side_id,
                    kind,
                },
            );
            let _ = write!(
                out,
                r##"<g><title>{} x{n}</title><circle cx="{x}" cy="{y}" r="13" fill="{fill}" stroke="#000000" stroke-width="1.2"/><text x="{x}" y="{}" font-size="{}" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"##,
                escape(&def.name),
                y + 5,
                if letter.len() > 1 { 11 } else { 14 },
                escape(&letter)
            );
            if n > 1 {
                let _ = write!(
                    out,
                    r#"<text x="{}" y="{}" font-size="11">x{n}</text>"#,
                    x + 15,
                    y + 4
                );
            }
            out.push_str("</g>");
            x += if n > 1 { 50 } else { 34 };
        }
        if !any {
            let _ = write!(
                out,
                r##"<text x="{x}" y="{}" font-size="12" fill="#777777">none</text>"##,
                y + 4
            );
        }
        out.push_str("</g>\n");
    }
}

/// One legend row: a symbol drawn by `symbol` at (x, y) centre, and its text.
fn legend_row(out: &mut String, y: i32, symbol: &str, text: &str) {
    let _ = writeln!(
        out,
        r#"<g class="legend">{symbol}<text x="{}" y="{}" font-size="12">{}</text></g>"#,
        MARGIN + 22,
        y + 4,
        escape(text)
    );
}

fn render(pos: &Position, marks: Option<(&[Vec<Marker>], DiagramMode)>, title: &str) -> String {
    let t = pos.tables();
    let g = t.geometry();
    let zones = tinted_zones(pos);
    let present = marks.map(|(m, _)| markers_present(m)).unwrap_or_default();
    let rivers = t.variant().drawing().rivers.len().min(1);
    // Pieces in hand and whose turn it is belong to positions; a piece's movement alone has
    // neither.
    let position = marks.is_none_or(|(_, mode)| mode == DiagramMode::InPosition);
    let players = if position {
        super::diagram::players(pos)
    } else {
        Vec::new()
    };
    let rows = players.len() + present.len() + zones.len() + t.variant().lines().len() + rivers;
    let hands = if position && t.rules().hands {
        i32::try_from(t.variant().sides().len()).expect("at most MAX_SIDES sides")
    } else {
        0
    };
    let board_h = 2 * MARGIN + i32::from(g.height) * CELL + hands * HAND_ROW;
    let w = (2 * MARGIN + i32::from(g.width) * CELL).max(MIN_WIDTH);
    let rows = i32::try_from(rows).expect("a legend row per marker, zone and line");
    let h = board_h + if rows > 0 { rows * ROW + 8 } else { 0 };
    let mut out = String::new();
    let _ = writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"##
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    let _ = writeln!(out, r##"<rect width="{w}" height="{h}" fill="#ffffff"/>"##);
    draw_board(&mut out, pos, &zones);
    draw_walls(&mut out, pos);
    draw_coordinates(&mut out, g);
    draw_wall_squares(&mut out, pos);
    for sq in g.squares() {
        if let Some(p) = pos.piece_at(sq) {
            draw_piece(&mut out, pos, sq, p);
        }
    }
    if let Some((m, _)) = marks {
        draw_markers(&mut out, pos, m);
    }
    if hands > 0 {
        draw_hands(&mut out, pos, 2 * MARGIN + i32::from(g.height) * CELL);
    }
    // The legend: players, markers, then zones, lines and the river.
    let mut y = board_h + ROW / 2;
    let sx = MARGIN + 8;
    for p in &players {
        let ring = if p.to_move { "#000000" } else { "#777777" };
        let width = if p.to_move { 2 } else { 1 };
        let swatch = format!(
            r#"<circle cx="{sx}" cy="{y}" r="7" fill="{}" fill-opacity="{}" stroke="{ring}" stroke-width="{width}"/>"#,
            p.colour,
            if p.out { "0.35" } else { "1" },
        );
        legend_row(&mut out, y, &swatch, &p.label());
        y += ROW;
    }
    if let Some((_, mode)) = marks {
        for m in &present {
            legend_row(&mut out, y, &marker_shape(*m, sx, y, 6), m.meaning(mode));
            y += ROW;
        }
    }
    for z in &zones {
        // The swatch is the board's tint over the board's own paper, so the colours match.
        let swatch = format!(
            r##"<rect x="{x}" y="{y0}" width="14" height="14" fill="{paper}"/><rect x="{x}" y="{y0}" width="14" height="14" fill="{}" fill-opacity="{TINT_OPACITY}" stroke="#777777"/>"##,
            z.tint,
            x = sx - 7,
            y0 = y - 7,
            paper = paper(t.variant().drawing().style),
        );
        legend_row(&mut out, y, &swatch, &format!("zone {}", z.label));
        y += ROW;
    }
    for l in t.variant().lines() {
        let swatch = format!(
            r#"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="{WALL_INK}" stroke-width="5" stroke-linecap="round"/>"#,
            sx - 7,
            sx + 7
        );
        legend_row(&mut out, y, &swatch, &format!("line {}", l.name));
        y += ROW;
    }
    if rivers > 0 {
        let swatch = format!(
            r##"<rect x="{}" y="{}" width="14" height="8" fill="#9ecae1" stroke="#3182bd"/>"##,
            sx - 7,
            y - 4
        );
        legend_row(&mut out, y, &swatch, "river");
    }
    out.push_str("</svg>\n");
    out
}

/// A move diagram as SVG: the pieces on `pieces` and the squares they can reach.
pub fn move_diagram_svg(pos: &Position, pieces: &[Square], mode: DiagramMode) -> String {
    let marks = diagram_marks(pos, pieces, mode);
    let t = pos.tables();
    let drawn: Vec<String> = pieces
        .iter()
        .filter_map(|&at| {
            pos.piece_at(at).map(|p| {
                format!(
                    "{} on {}",
                    t.variant().piece(p.kind).name,
                    t.geometry().name(at)
                )
            })
        })
        .collect();
    let title = if drawn.is_empty() {
        t.variant().name().to_string()
    } else {
        format!("{}: {}", t.variant().name(), drawn.join(", "))
    };
    render(pos, Some((&marks, mode)), &title)
}

/// The position as SVG, in the board's style, zones with a glyph tinted.
pub fn board_svg(pos: &Position) -> String {
    render(pos, None, pos.tables().variant().name())
}
