//! The start position.

use std::collections::HashSet;

use crate::{
    diagnostics::DefinitionError,
    model::{Geometry, PieceKind, Placement, Side},
    syntax::{ast, Spanned},
};

use super::Ctx;

impl Ctx {
    /// The start position, the pieces in hand, and whether it is complete and valid.
    pub(super) fn setup(&mut self, decl: &ast::SetupDecl) -> (Vec<Placement>, Hand, bool) {
        let errors_before = self.error_count();
        let tagged;
        let decl = if self.tags_sides() {
            tagged = self.with_side_tags(decl);
            &tagged
        } else {
            decl
        };
        let mut hand_cells = decl.hand.as_ref().map(hand_cells).unwrap_or_default();
        if self.tags_sides() {
            hand_cells = self.join_side_tags(hand_cells);
        }
        if let Some(hand) = &decl.hand {
            if hand_cells.len() > crate::model::MAX_IN_HANDS {
                self.report(DefinitionError::SetupHandTooLarge {
                    count: hand_cells.len(),
                    limit: crate::model::MAX_IN_HANDS,
                    at: hand.span.into(),
                });
            }
        }
        let cells = decl.rows.iter().flat_map(|r| r.cells.iter());
        self.setup_letters(cells.chain(hand_cells.iter()));
        let Some(g) = self.geometry else {
            return (Vec::new(), Vec::new(), false);
        };
        self.setup_shape(decl, g);
        if self.error_count() != errors_before {
            return (Vec::new(), Vec::new(), false);
        }
        let hand = hand_cells
            .iter()
            .filter_map(|c| match &c.node {
                ast::SetupCell::Piece(letter) => {
                    let (side, kind) = self.setup_piece(letter);
                    Some((side, kind?))
                }
                _ => None,
            })
            .collect();
        let placements = self.placements(decl, g);
        let ok = self.error_count() == errors_before;
        (placements, hand, ok)
    }

    /// The setup with each side's initial joined to the piece after it (`rK`), for a game of
    /// more than two sides.
    fn with_side_tags(&mut self, decl: &ast::SetupDecl) -> ast::SetupDecl {
        let mut out = decl.clone();
        for row in &mut out.rows {
            row.cells = self.join_side_tags(std::mem::take(&mut row.cells));
        }
        out
    }

    /// Cells with each side's initial joined to the piece right after it; a piece without an
    /// initial, or an initial without a piece, is reported and left out.
    fn join_side_tags(
        &mut self,
        cells: Vec<Spanned<ast::SetupCell>>,
    ) -> Vec<Spanned<ast::SetupCell>> {
        let mut out = Vec::new();
        let mut cells = cells.into_iter().peekable();
        while let Some(cell) = cells.next() {
            let ast::SetupCell::Piece(tag) = &cell.node else {
                out.push(cell);
                continue;
            };
            let initial = tag.chars().next().filter(|c| self.side_tags.contains(c));
            let next = cells.peek().filter(|n| n.span.start == cell.span.end);
            match (initial, tag.len(), next.map(|n| &n.node)) {
                (Some(t), 1, Some(ast::SetupCell::Piece(letter)))
                    if !letter.chars().any(|c| c.is_ascii_lowercase()) =>
                {
                    let letter = format!("{t}{letter}");
                    let end = next.map_or(cell.span.end, |n| n.span.end);
                    cells.next();
                    out.push(Spanned::new(
                        ast::SetupCell::Piece(letter),
                        crate::syntax::Span::new(cell.span.start, end),
                    ));
                }
                _ => {
                    let first = self.side_tags[0];
                    self.report(DefinitionError::SetupSideInitial {
                        cell: tag.clone(),
                        tags: self
                            .side_tags
                            .iter()
                            .map(|t| format!("`{t}`"))
                            .collect::<Vec<_>>()
                            .join(", "),
                        example: format!("{first}K"),
                        at: cell.span.into(),
                    });
                    // The square is still taken, so that the row keeps its width.
                    out.push(Spanned::new(ast::SetupCell::Empty(Some(1)), cell.span));
                }
            }
        }
        out
    }

    /// Reports letters no piece has and characters that are not cells, each letter once.
    fn setup_letters<'a>(&mut self, cells: impl Iterator<Item = &'a Spanned<ast::SetupCell>>) {
        let mut unknown: HashSet<String> = HashSet::new();
        for cell in cells {
            match &cell.node {
                ast::SetupCell::Piece(letter) => {
                    let key = if self.tags_sides() {
                        letter.chars().skip(1).collect()
                    } else {
                        letter.to_uppercase()
                    };
                    if self.piece_by_letter(&key).is_none() && unknown.insert(key) {
                        let help = self.declared_letters_help();
                        self.report(DefinitionError::SetupUnknownLetter {
                            letter: letter.clone(),
                            at: cell.span.into(),
                            help,
                        });
                    }
                }
                ast::SetupCell::Bad(c) => self.report(DefinitionError::SetupBadCell {
                    ch: *c,
                    at: cell.span.into(),
                }),
                ast::SetupCell::Empty(_) | ast::SetupCell::Hole => {}
            }
        }
    }

    /// The help for an unknown setup letter: the letters declared.
    fn declared_letters_help(&self) -> String {
        let mut letters: Vec<String> = self.pieces.letters.keys().map(|l| l.to_string()).collect();
        letters.sort();
        if letters.is_empty() {
            return "no piece is declared; declare one with `piece NAME LETTER`".to_string();
        }
        let list: Vec<String> = letters.iter().map(|l| format!("`{l}`")).collect();
        format!(
            "the declared letters are {}; uppercase for the first side, lowercase for the second",
            list.join(", ")
        )
    }

    /// Reports a setup with the wrong number of rows, or a row of the wrong width.
    fn setup_shape(&mut self, decl: &ast::SetupDecl, g: Geometry) {
        if decl.rows.len() != usize::from(g.height) {
            let at = match decl.form {
                ast::SetupForm::Picture => decl.keyword,
                ast::SetupForm::Fen => decl.span,
            };
            self.report(DefinitionError::SetupRowCount {
                rows: decl.rows.len(),
                height: g.height,
                at: at.into(),
            });
        }
        for row in &decl.rows {
            let squares: u64 = row
                .cells
                .iter()
                .map(|c| match c.node {
                    ast::SetupCell::Empty(n) => n.map_or(u64::MAX, u64::from),
                    _ => 1,
                })
                .fold(0u64, u64::saturating_add);
            if squares != u64::from(g.width) {
                let squares = if squares == u64::MAX {
                    "too many".to_string()
                } else {
                    squares.to_string()
                };
                self.report(DefinitionError::SetupRowWidth {
                    squares,
                    width: g.width,
                    at: row.span.into(),
                });
            }
        }
    }

    /// The side a setup letter's case names and the kind it is the letter of, if declared.
    fn setup_piece(&self, letter: &str) -> (Side, Option<PieceKind>) {
        if self.tags_sides() {
            let mut chars = letter.chars();
            let tag = chars.next();
            let side = self
                .side_tags
                .iter()
                .position(|&t| Some(t) == tag)
                .unwrap_or(0);
            let kind = self.piece_by_letter(chars.as_str()).map(PieceKind::nth);
            return (Side::nth(side), kind);
        }
        let upper = letter.to_uppercase();
        let side = if upper == *letter {
            Side::FIRST
        } else {
            Side::SECOND
        };
        let kind = self.piece_by_letter(letter).map(PieceKind::nth);
        (side, kind)
    }

    /// The pieces a well-shaped setup places, with `*` checked against the board's holes.
    fn placements(&mut self, decl: &ast::SetupDecl, g: Geometry) -> Vec<Placement> {
        let mut placements = Vec::new();
        // One row per rank, the top one first (a well-shaped setup has as many as the board).
        for (rank, row) in (0..i32::from(g.height)).rev().zip(&decl.rows) {
            let mut file = 0i32;
            for cell in &row.cells {
                match &cell.node {
                    ast::SetupCell::Empty(n) => {
                        file += n.map_or(0, |n| n as i32);
                    }
                    ast::SetupCell::Piece(letter) => {
                        let (side, piece) = self.setup_piece(letter);
                        let square = g.square(file, rank);
                        if let Some(sq) = square.filter(|&sq| g.is_hole(sq)) {
                            self.report(DefinitionError::SetupHole {
                                why: format!("a piece on {}, a hole", g.name(sq)),
                                at: cell.span.into(),
                            });
                        } else if let (Some(piece), Some(square)) = (piece, square) {
                            placements.push(Placement {
                                square,
                                side,
                                piece,
                            });
                        }
                        file += 1;
                    }
                    ast::SetupCell::Hole => {
                        if let Some(sq) = g.square(file, rank).filter(|&sq| !g.is_hole(sq)) {
                            self.report(DefinitionError::SetupHole {
                                why: format!("`*` on {}, which is not a hole", g.name(sq)),
                                at: cell.span.into(),
                            });
                        }
                        file += 1;
                    }
                    ast::SetupCell::Bad(_) => file += 1,
                }
            }
        }
        placements
    }
}

/// Pieces in hand at the start: their side and kind.
pub(crate) type Hand = Vec<(Side, PieceKind)>;

/// The letters of a hand (`Nn`, `Q~q`) as setup cells; `-` (an empty hand) is no cell.
fn hand_cells(
    hand: &crate::syntax::span::Spanned<String>,
) -> Vec<crate::syntax::span::Spanned<ast::SetupCell>> {
    let mut out = Vec::new();
    let chars: Vec<(usize, char)> = hand.node.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        let start = hand.span.start + at;
        let cell = |len: usize, node| {
            crate::syntax::span::Spanned::new(
                node,
                crate::syntax::span::Span::new(start, start + len),
            )
        };
        if c == '-' {
            i += 1;
        } else if c.is_ascii_alphabetic() {
            if chars.get(i + 1).is_some_and(|&(_, n)| n == '~') {
                out.push(cell(2, ast::SetupCell::Piece(format!("{c}~"))));
                i += 2;
            } else {
                out.push(cell(1, ast::SetupCell::Piece(c.to_string())));
                i += 1;
            }
        } else if c == '+'
            && chars
                .get(i + 1)
                .is_some_and(|&(_, n)| n.is_ascii_alphabetic())
        {
            let l = chars[i + 1].1;
            out.push(cell(2, ast::SetupCell::Piece(format!("+{l}"))));
            i += 2;
        } else {
            out.push(cell(c.len_utf8(), ast::SetupCell::Bad(c)));
            i += 1;
        }
    }
    out
}
