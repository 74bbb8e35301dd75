//! The start position.

use std::collections::HashSet;

use crate::{
    diagnostics::DefinitionError,
    model::{PieceKind, Placement, Side},
    syntax::ast,
};

use super::Ctx;

impl Ctx {
    /// The start position, and whether it is complete and valid.
    pub(super) fn setup(&mut self, decl: &ast::SetupDecl) -> (Vec<Placement>, bool) {
        let errors_before = self.error_count();
        let mut unknown: HashSet<String> = HashSet::new();
        for cell in decl.rows.iter().flat_map(|r| r.cells.iter()) {
            match &cell.node {
                ast::SetupCell::Piece(letter) => {
                    let key = letter.to_uppercase();
                    if !self.pieces.letters.contains_key(&key) && unknown.insert(key) {
                        let mut letters: Vec<&String> = self.pieces.letters.keys().collect();
                        letters.sort();
                        let help = if letters.is_empty() {
                            "no piece is declared; declare one with `piece NAME LETTER`".to_string()
                        } else {
                            let list: Vec<String> =
                                letters.iter().map(|l| format!("`{l}`")).collect();
                            format!(
                                "the declared letters are {}; uppercase for the first side, lowercase for the second",
                                list.join(", ")
                            )
                        };
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
                ast::SetupCell::Empty(_) => {}
            }
        }
        let Some(g) = self.geometry else {
            return (Vec::new(), false);
        };
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
        if self.error_count() != errors_before {
            return (Vec::new(), false);
        }
        let mut placements = Vec::new();
        for (i, row) in decl.rows.iter().enumerate() {
            let rank = i32::from(g.height) - 1 - i as i32;
            let mut file = 0i32;
            for cell in &row.cells {
                match &cell.node {
                    ast::SetupCell::Empty(n) => {
                        file += n.map_or(0, |n| n as i32);
                    }
                    ast::SetupCell::Piece(letter) => {
                        let upper = letter.to_uppercase();
                        let side = if upper == *letter { Side(0) } else { Side(1) };
                        let piece = self.pieces.letters.get(&upper).copied();
                        if let (Some(piece), Some(square)) = (piece, g.square(file, rank)) {
                            placements.push(Placement {
                                square,
                                side,
                                piece: PieceKind(piece as u8),
                            });
                        }
                        file += 1;
                    }
                    ast::SetupCell::Bad(_) => file += 1,
                }
            }
        }
        (placements, true)
    }
}
