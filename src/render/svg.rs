//! Board maps and move diagrams as SVG, for web pages: the same content as the text diagrams,
//! with squares checkered, zones that have a glyph tinted, pieces as lettered discs and move
//! markers as a dot (move or capture), a ring (move only), a cross (capture only) or a red
//! target (capture without moving).

use std::fmt::Write;

use super::diagram::{diagram_markers, DiagramMode, Marker};
use crate::engine::fen::piece_letter;
use crate::engine::Position;
use crate::model::{Geometry, Square};

const CELL: i32 = 40;
const MARGIN: i32 = 24;
/// Tints for the zones that have a glyph, in declaration order.
const ZONE_TINTS: [&str; 6] = [
    "#9ecae1", "#a1d99b", "#fdae6b", "#bcbddc", "#fc9272", "#d9d9d9",
];

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The top-left corner of a square's cell.
fn corner(g: Geometry, sq: Square) -> (i32, i32) {
    let x = MARGIN + g.file(sq) * CELL;
    let y = MARGIN + (g.height as i32 - 1 - g.rank(sq)) * CELL;
    (x, y)
}

fn render(pos: &Position, marks: Option<&[Option<Marker>]>, title: &str) -> String {
    let t = pos.tables();
    let g = t.geometry();
    let w = 2 * MARGIN + g.width as i32 * CELL;
    let h = 2 * MARGIN + g.height as i32 * CELL;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    for sq in g.squares() {
        let (x, y) = corner(g, sq);
        let dark = (g.file(sq) + g.rank(sq)) % 2 == 0;
        let fill = if dark { "#d6b98c" } else { "#f3e4c8" };
        let _ = writeln!(
            out,
            r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>"#
        );
    }
    for (i, z) in t
        .variant()
        .zones()
        .iter()
        .filter(|z| z.glyph.is_some())
        .enumerate()
    {
        let tint = ZONE_TINTS[i % ZONE_TINTS.len()];
        for set in &z.squares {
            for sq in set.iter() {
                let (x, y) = corner(g, sq);
                let _ = writeln!(
                    out,
                    r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{tint}" fill-opacity="0.45"><title>{}</title></rect>"#,
                    escape(&z.name)
                );
            }
        }
    }
    // Lines between squares, as walls on the cell borders.
    for l in t.variant().lines() {
        for sq in l.north[0].iter() {
            let (x, y) = corner(g, sq);
            let _ = writeln!(
                out,
                r##"<line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="#5b3a1a" stroke-width="5" stroke-linecap="round"><title>{}</title></line>"##,
                x + CELL,
                escape(&l.name)
            );
        }
        for sq in l.east[0].iter() {
            let (x, y) = corner(g, sq);
            let _ = writeln!(
                out,
                r##"<line x1="{}" y1="{y}" x2="{}" y2="{}" stroke="#5b3a1a" stroke-width="5" stroke-linecap="round"><title>{}</title></line>"##,
                x + CELL,
                x + CELL,
                y + CELL,
                escape(&l.name)
            );
        }
    }
    for file in 0..g.width as i32 {
        let x = MARGIN + file * CELL + CELL / 2;
        let _ = writeln!(
            out,
            r#"<text x="{x}" y="{}" font-size="12" text-anchor="middle">{}</text>"#,
            h - MARGIN / 3,
            Geometry::file_char(file)
        );
    }
    for rank in 0..g.height as i32 {
        let y = MARGIN + (g.height as i32 - 1 - rank) * CELL + CELL / 2 + 4;
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{y}" font-size="12" text-anchor="middle">{}</text>"#,
            MARGIN / 2,
            rank + 1
        );
    }
    for sq in g.squares() {
        let (x, y) = corner(g, sq);
        let (cx, cy) = (x + CELL / 2, y + CELL / 2);
        if let Some(p) = pos.piece_at(sq) {
            let (fill, ink) = if p.side.0 == 0 {
                ("#ffffff", "#000000")
            } else {
                ("#222222", "#ffffff")
            };
            let letter = piece_letter(pos, p);
            let name = &t.variant().piece(p.kind).name;
            let _ = writeln!(
                out,
                r##"<g><title>{} {}</title><circle cx="{cx}" cy="{cy}" r="{}" fill="{fill}" stroke="#000000" stroke-width="1.5"/><text x="{cx}" y="{}" font-size="{}" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text></g>"##,
                escape(&t.variant().side(p.side).name),
                escape(name),
                CELL * 2 / 5,
                cy + 6,
                if letter.len() > 1 { 14 } else { 18 },
                escape(&letter)
            );
        }
        let Some(Some(m)) = marks.map(|m| m[sq.index()]) else {
            continue;
        };
        match m {
            Marker::Both => {
                let _ = writeln!(
                    out,
                    r##"<circle cx="{cx}" cy="{cy}" r="7" fill="#1a7f37" fill-opacity="0.85"/>"##
                );
            }
            Marker::MoveOnly => {
                let _ = writeln!(
                    out,
                    r##"<circle cx="{cx}" cy="{cy}" r="7" fill="none" stroke="#1a7f37" stroke-width="3"/>"##
                );
            }
            Marker::CaptureOnly => {
                let d = 8;
                let _ = writeln!(
                    out,
                    r##"<path d="M{} {} L{} {} M{} {} L{} {}" stroke="#c62828" stroke-width="4" stroke-linecap="round"/>"##,
                    cx - d,
                    cy - d,
                    cx + d,
                    cy + d,
                    cx + d,
                    cy - d,
                    cx - d,
                    cy + d
                );
            }
            Marker::Shot => {
                let _ = writeln!(
                    out,
                    r##"<circle cx="{cx}" cy="{cy}" r="18" fill="none" stroke="#c62828" stroke-width="3" stroke-dasharray="7 3"/>"##
                );
            }
        }
    }
    out.push_str("</svg>\n");
    out
}

/// A move diagram as SVG: the pieces on `pieces` and the squares they can reach.
pub fn move_diagram_svg(pos: &Position, pieces: &[Square], mode: DiagramMode) -> String {
    let marks = diagram_markers(pos, pieces, mode);
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
    render(pos, Some(&marks), &title)
}

/// The position as SVG, zones with a glyph tinted.
pub fn board_svg(pos: &Position) -> String {
    render(pos, None, pos.tables().variant().name())
}
