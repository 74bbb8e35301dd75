//! The board's size, sides' directions and square names.

use crate::{
    diagnostics::DefinitionError,
    model::{Facing, Geometry, Square, MAX_FILES, MAX_RANKS},
    syntax::ast::{self, Spanned},
};

use super::Ctx;

/// A number as written, if it fits in `u32`.
pub(super) fn parse_u32(text: &str) -> Option<u32> {
    text.parse().ok()
}

/// A small number as written, if it fits in `u8`.
pub(super) fn parse_u8(text: &str) -> Option<u8> {
    text.parse().ok()
}

/// A small signed number as written, if it fits in `i8`.
pub(super) fn parse_i8(text: &str) -> Option<i8> {
    text.parse().ok()
}

/// The model's facing for a compass word.
pub(super) fn facing(c: ast::Compass) -> Facing {
    match c {
        ast::Compass::North => Facing::North,
        ast::Compass::South => Facing::South,
        ast::Compass::East => Facing::East,
        ast::Compass::West => Facing::West,
    }
}

impl Ctx {
    /// The board, if its size is valid.
    pub(super) fn board(&mut self, decl: &ast::BoardDecl) -> Option<Geometry> {
        let width = self.dimension(&decl.width, "files", MAX_FILES);
        let height = self.dimension(&decl.height, "ranks", MAX_RANKS);
        Some(Geometry::new(width?, height?))
    }

    fn dimension(&mut self, n: &ast::Number, dimension: &'static str, max: u8) -> Option<u8> {
        match parse_u8(&n.node) {
            Some(0) => {
                self.report(DefinitionError::BoardZero {
                    at: n.span.into(),
                    dimension,
                });
                None
            }
            Some(v) if v <= max => Some(v),
            _ => {
                self.report(DefinitionError::BoardTooLarge {
                    dimension,
                    size: n.node.clone(),
                    max,
                    at: n.span.into(),
                });
                None
            }
        }
    }

    fn last_file(g: Geometry) -> char {
        Geometry::file_char(i32::from(g.width) - 1)
    }

    /// A square name, if it is on the board; reports it otherwise.
    pub(super) fn square(&mut self, name: &Spanned<String>) -> Option<Square> {
        let g = self.geometry?;
        let sq = name.node.split_at_checked(1).and_then(|(file, rank)| {
            let file = i32::from(file.as_bytes()[0]) - i32::from(b'a');
            let rank = parse_u32(rank)?;
            let rank = i32::try_from(rank).ok()? - 1;
            g.square(file, rank)
        });
        if sq.is_none() {
            self.report(DefinitionError::OffBoard {
                name: name.node.clone(),
                last_file: Self::last_file(g),
                ranks: g.height,
                at: name.span.into(),
            });
        }
        sq
    }

    /// A rank number, counted from 0, if it is on the board; reports it otherwise.
    pub(super) fn rank(&mut self, n: &ast::Number) -> Option<i32> {
        let g = self.geometry?;
        match parse_u8(&n.node) {
            Some(r) if (1..=g.height).contains(&r) => Some(i32::from(r) - 1),
            _ => {
                self.report(DefinitionError::RankOffBoard {
                    rank: n.node.clone(),
                    ranks: g.height,
                    at: n.span.into(),
                });
                None
            }
        }
    }

    /// A file letter, counted from 0, if it is on the board; reports it otherwise.
    pub(super) fn file(&mut self, c: &Spanned<char>) -> Option<i32> {
        let g = self.geometry?;
        let file = c.node as i32 - 'a' as i32;
        if (0..i32::from(g.width)).contains(&file) {
            Some(file)
        } else {
            self.report(DefinitionError::FileOffBoard {
                file: c.node,
                last_file: Self::last_file(g),
                at: c.span.into(),
            });
            None
        }
    }
}
