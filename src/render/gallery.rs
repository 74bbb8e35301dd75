//! A diagram gallery: every piece of a variant drawn alone, from the centre and from each
//! zone where its movement differs, with a web page that shows them next to the board map
//! and each piece's declaration, ready to upload with its SVG files.

use std::fmt::Write;

use super::diagram::{diagram_markers, DiagramMode, Marker};
use super::svg::{board_svg, escape, move_diagram_svg};
use crate::engine::{Piece, Position};
use crate::model::{Geometry, PieceKind, Side, Square, SquareSet};

/// The most diagrams drawn for one piece.
pub const MAX_PER_PIECE: usize = 4;

/// One diagram of a gallery.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GalleryDiagram {
    /// The file name it is written to (`knight-e4.svg`).
    pub file: String,
    /// The square the piece stands on.
    pub square: String,
    /// Why this square was drawn (`centre`, `in palace`, `outside own-half`).
    pub caption: String,
    /// The SVG picture.
    pub svg: String,
}

/// One piece of a gallery and its diagrams.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GalleryPiece {
    /// Its name.
    pub name: String,
    /// Its letter.
    pub letter: String,
    /// Its declaration as written in the definition.
    pub declaration: String,
    /// Its diagrams.
    pub diagrams: Vec<GalleryDiagram>,
}

/// A whole gallery: the board map, every piece's diagrams and the page that shows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gallery {
    /// The board map with the start position (`board.svg`).
    pub board_svg: String,
    /// The pieces, in declaration order.
    pub pieces: Vec<GalleryPiece>,
    /// The page (`index.html`).
    pub index_html: String,
}

/// The square of `set` nearest the board's centre (ties: the lowest rank, then file).
fn most_central(g: Geometry, set: SquareSet) -> Option<Square> {
    // Twice the distance, to stay in whole numbers on boards of even size.
    let (cf, cr) = (g.width as i32 - 1, g.height as i32 - 1);
    set.iter().min_by_key(|&sq| {
        let (df, dr) = (2 * g.file(sq) - cf, 2 * g.rank(sq) - cr);
        (df * df + dr * dr, g.rank(sq), g.file(sq))
    })
}

/// Whether the diagrams of a piece on `a` and on `b` agree wherever both can be read: on every
/// offset that is on the board from both squares. Diagrams that differ only where one of them
/// runs off the board's edge show the same movement.
fn same_movement(
    g: Geometry,
    (a, marks_a): (Square, &[Option<Marker>]),
    (b, marks_b): (Square, &[Option<Marker>]),
) -> bool {
    let (fa, ra, fb, rb) = (g.file(a), g.rank(a), g.file(b), g.rank(b));
    g.squares().all(|sq| {
        let (df, dr) = (g.file(sq) - fa, g.rank(sq) - ra);
        match g.square(fb + df, rb + dr) {
            Some(other) => marks_a[sq.index()] == marks_b[other.index()],
            None => true,
        }
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

fn file_stem(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

/// The diagrams of `kind` of the first side: from the centre, then from the most central
/// square in and outside each zone, wherever the diagram shows something new (pieces that
/// cannot move from the centre start from where they can).
fn piece_diagrams(pos: &Position, kind: PieceKind) -> Vec<GalleryDiagram> {
    let t = pos.tables();
    let g = t.geometry();
    let piece = Piece {
        side: Side(0),
        kind,
    };
    let all = SquareSet::EMPTY.complement(g.len());
    let mut candidates: Vec<(Square, String)> = Vec::new();
    if let Some(c) = most_central(g, all) {
        candidates.push((c, "centre".to_string()));
    }
    for z in t.variant().zones() {
        let inside = z.squares[0];
        let outside = inside.complement(g.len());
        if let Some(sq) = most_central(g, inside) {
            candidates.push((sq, format!("in {}", z.name)));
        }
        if let Some(sq) = most_central(g, outside) {
            candidates.push((sq, format!("outside {}", z.name)));
        }
    }
    let stem = file_stem(&t.variant().piece(kind).name);
    // The diagrams drawn so far: a square whose diagram differs from one of them only where
    // the board's edge cuts one off is not drawn again.
    let mut drawn: Vec<(Square, Vec<Option<Marker>>)> = Vec::new();
    let mut out = Vec::new();
    for (sq, caption) in candidates {
        if out.len() == MAX_PER_PIECE {
            break;
        }
        let alone = pos.alone(sq, piece);
        let marks = diagram_markers(&alone, &[sq], DiagramMode::Alone);
        if !marks.iter().flatten().any(|m| m.is_target()) {
            continue;
        }
        if drawn
            .iter()
            .any(|(d, m)| same_movement(g, (sq, &marks), (*d, m)))
        {
            continue;
        }
        drawn.push((sq, marks));
        let name = g.name(sq).to_string();
        out.push(GalleryDiagram {
            file: format!("{stem}-{name}.svg"),
            square: name,
            caption,
            svg: move_diagram_svg(&alone, &[sq], DiagramMode::Alone),
        });
    }
    out
}

/// The gallery of the variant of `pos` (its start position drawn in the board map);
/// `source` is the definition's text, quoted for each piece.
pub fn gallery(pos: &Position, source: &str) -> Gallery {
    let t = pos.tables();
    let v = t.variant();
    let pieces: Vec<GalleryPiece> = (0..v.pieces().len())
        .map(|i| {
            let kind = PieceKind(i as u8);
            let def = v.piece(kind);
            GalleryPiece {
                name: def.name.clone(),
                letter: def.letter.clone(),
                declaration: declaration(source, &def.name),
                diagrams: piece_diagrams(pos, kind),
            }
        })
        .collect();
    let mut html = String::new();
    let title = escape(v.name());
    let _ = write!(
        html,
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}: pieces and moves</title>
<style>
body {{ font-family: sans-serif; margin: 1.5em; color: #222; }}
.piece {{ border-top: 1px solid #ccc; padding-top: 0.5em; margin-top: 1em; }}
.diagrams {{ display: flex; flex-wrap: wrap; gap: 1em; }}
figure {{ margin: 0; }}
figcaption {{ text-align: center; font-size: 0.9em; }}
img {{ max-width: 100%; }}
.diagrams img {{ width: 320px; }}
pre {{ background: #f6f6f6; padding: 0.5em; }}
</style>
</head>
<body>
<h1>{title}</h1>
<h2>Board and start position</h2>
<img src="board.svg" alt="{title}: the board, its zones and the start position">
"#
    );
    for p in &pieces {
        let name = escape(&p.name);
        let _ = write!(
            html,
            "<section class=\"piece\">\n<h2>{name} ({})</h2>\n<pre>{}</pre>\n<div class=\"diagrams\">\n",
            escape(&p.letter),
            escape(&p.declaration)
        );
        if p.diagrams.is_empty() {
            html.push_str("<p>It has no move of its own.</p>\n");
        }
        for d in &p.diagrams {
            let _ = writeln!(
                html,
                "<figure><img src=\"{}\" alt=\"{name} on {}\"><figcaption>{name} on {} ({})</figcaption></figure>",
                d.file,
                d.square,
                d.square,
                escape(&d.caption)
            );
        }
        html.push_str("</div>\n</section>\n");
    }
    html.push_str("</body>\n</html>\n");
    Gallery {
        board_svg: board_svg(pos),
        pieces,
        index_html: html,
    }
}
