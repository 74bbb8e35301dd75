//! Hovers: what the word under the cursor is. A name gets what it names (a piece its moves in
//! words and Betza and a move diagram, a zone its squares, an option its default, a side its
//! place in the turn order); a keyword the grammar's and the manual's explanation of the
//! construct it stands in.

use std::fmt::Write as _;

use crate::engine::{Piece, Position};
use crate::model::{Geometry, PieceKind, Side, Square, Tables, Variant};
use crate::render::{move_diagram, piece_prose, squares_words, standing_squares, DiagramMode};
use crate::syntax::Span;

use super::analysis::Document;
use super::grammar::grammar;
use super::symbols::{Declaration, Kind};

/// The hover at byte `offset` of `doc`: markdown, and the span it is about.
pub fn hover(doc: &Document, offset: usize) -> Option<(String, Span)> {
    if let Some(o) = doc.symbols.at(offset) {
        if let Some(target) = o.target {
            let d = &doc.symbols.declarations[target];
            return Some((name_hover(doc, d), o.span));
        }
    }
    let text = doc.text.as_str();
    let path = doc.tree.path_at(offset);
    if let Some(&kw) = path
        .first()
        .filter(|&&i| doc.tree.nodes[i].rule.starts_with("kw_"))
    {
        let span = doc.tree.nodes[kw].span;
        let rules: Vec<&str> = path
            .iter()
            .map(|&i| doc.tree.nodes[i].rule.as_str())
            .collect();
        return grammar()
            .explain_in(&text[span.start..span.end], &rules)
            .map(|h| (h, span));
    }
    // A keyword of a declaration that does not parse, and so is not in the tree (a word in a
    // comment or a string is no keyword).
    let skipped = doc
        .tree
        .skipped
        .iter()
        .any(|s| s.start <= offset && offset <= s.end);
    let span = doc.text.word_at(offset)?;
    let word = &text[span.start..span.end];
    if !skipped || !grammar().is_keyword(word) {
        return None;
    }
    grammar().explain(word).map(|h| (h, span))
}

/// The first line of a declaration, as written, and its line number.
fn written(doc: &Document, d: &Declaration) -> String {
    let text = doc.text.as_str();
    let line_start = text[..d.item.start].rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].lines().next().unwrap_or("").trim_end();
    let number = doc.text.position(d.item.start).line + 1;
    format!("```rulebook\n{line}\n```\nline {number}")
}

fn name_hover(doc: &Document, d: &Declaration) -> String {
    let mut out = format!("**{}** — {}", d.name, d.kind.word());
    if let Some((letter, _)) = &d.letter {
        let _ = write!(out, " `{letter}`");
    }
    out.push_str("\n\n");
    out.push_str(&written(doc, d));
    let Some((variant, current)) = doc.variant() else {
        out.push_str("\n\n*The definition has errors: fix them to see more.*");
        return out;
    };
    let more = match d.kind {
        Kind::Piece => variant.piece_by_name(&d.name).map(|k| piece(variant, k)),
        Kind::Zone => zone(variant, &d.name),
        Kind::Option => option(variant, &d.name),
        Kind::Side => side(variant, &d.name),
        Kind::Partition | Kind::Line => None,
    };
    if let Some(more) = more {
        out.push_str("\n\n---\n\n");
        out.push_str(&more);
        if !current {
            out.push_str("\n\n*As of the last version without errors.*");
        }
    }
    out
}

fn piece(variant: &Variant, kind: PieceKind) -> String {
    let Ok(tables) = Tables::compile(variant, &[]) else {
        return String::new();
    };
    let mut out = piece_prose(&tables, kind).sentences().join(" ");
    if let Some((square, diagram)) = diagram(tables, kind) {
        let _ = write!(
            out,
            "\n\nAlone on {square}, with the default options:\n\n```text\n{}\n```",
            diagram.trim_end()
        );
    }
    out
}

/// The squares from the board's centre outward (ties: the lowest rank, then file).
fn centrality(g: Geometry, sq: Square) -> (i32, i32, i32) {
    let (cf, cr) = (i32::from(g.width) - 1, i32::from(g.height) - 1);
    let (df, dr) = (2 * g.file(sq) - cf, 2 * g.rank(sq) - cr);
    (df * df + dr * dr, g.rank(sq), g.file(sq))
}

/// The piece's move diagram, standing on the most central square where the first side's piece
/// of that kind can ever stand (any square of the board for a piece that never stands).
fn diagram(tables: Tables, kind: PieceKind) -> Option<(String, String)> {
    let g = tables.geometry();
    let side = Side::FIRST;
    let standing = standing_squares(&tables, side);
    let can: Vec<Square> = match standing.get(kind.index()) {
        Some(set) if !set.is_empty() => set.iter().collect(),
        _ => g.squares().filter(|&sq| !g.is_hole(sq)).collect(),
    };
    let sq = can.into_iter().min_by_key(|&sq| centrality(g, sq))?;
    let pos = Position::new(tables).only(&[(sq, Piece { side, kind })]);
    let name = g.name(sq).to_string();
    Some((name, move_diagram(&pos, &[sq], DiagramMode::Alone)))
}

fn zone(variant: &Variant, name: &str) -> Option<String> {
    let z = variant.zone_by_name(name)?;
    let g = variant.geometry();
    let sets = &variant.zones()[z.index()].squares;
    if sets.windows(2).all(|w| w[0] == w[1]) {
        let set = sets.first()?;
        return Some(format!("{} squares: {}.", set.len(), squares_words(g, set)));
    }
    let lines: Vec<String> = sets
        .iter()
        .zip(variant.sides())
        .map(|(set, s)| {
            format!(
                "- for {}: {} squares, {}",
                s.name,
                set.len(),
                squares_words(g, set)
            )
        })
        .collect();
    Some(lines.join("\n"))
}

fn option(variant: &Variant, name: &str) -> Option<String> {
    let o = &variant.options()[variant.option_by_name(name)?.index()];
    let mut out = format!("{} by default.", if o.default { "On" } else { "Off" });
    if !o.description.is_empty() {
        let _ = write!(out, " {}", o.description);
    }
    Some(out)
}

fn side(variant: &Variant, name: &str) -> Option<String> {
    let sides = variant.sides();
    let i = sides.iter().position(|s| s.name == name)?;
    let facing = format!("{:?}", sides[i].facing).to_lowercase();
    Some(format!(
        "Side {} of {} in turn order; its forward is {facing}.",
        i + 1,
        sides.len()
    ))
}
