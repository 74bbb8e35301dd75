//! Square tables learned for one game (`rulebook tune`), kept in a file beside its definition
//! (`chess.tables` beside `chess.variant`) and added to the evaluation's own.
//!
//! The file is TOML: one table per piece, named as the definition names it, with a middle-game
//! and an ending term per square in centipawns, written rank by rank from the top as the board
//! is drawn, from the first side's point of view. Every other side reads them through the
//! symmetry that carries its setup onto the first side's ([`side_frames`]).

use super::{PieceKind, Square, Tables, Variant};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The largest term a table may hold, in centipawns (ten queens): anything larger is a
/// mistake in the file.
pub const MAX_TERM: i32 = 9_000;

/// Learned square tables, one per piece kind that has one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SquareTables {
    /// Per kind (the definition's order): the middle-game and ending terms per square, in
    /// the first side's frame.
    pieces: Vec<Option<[Vec<i32>; 2]>>,
    /// What the tables were learned from, as the file says.
    pub learned: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    learned: String,
    #[serde(default)]
    pieces: BTreeMap<String, RawPiece>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPiece {
    middle: Vec<Vec<i32>>,
    ending: Vec<Vec<i32>>,
}

impl SquareTables {
    /// Empty tables for `kinds` kinds of piece.
    pub fn new(kinds: usize, learned: String) -> SquareTables {
        SquareTables {
            pieces: vec![None; kinds],
            learned,
        }
    }

    /// The middle-game and ending terms of `kind` per square, if it has a table.
    pub fn get(&self, kind: PieceKind) -> Option<(&[i32], &[i32])> {
        self.pieces
            .get(kind.index())?
            .as_ref()
            .map(|[m, e]| (m.as_slice(), e.as_slice()))
    }

    /// Gives `kind` these terms per square.
    pub fn set(&mut self, kind: PieceKind, middle: Vec<i32>, ending: Vec<i32>) {
        self.pieces[kind.index()] = Some([middle, ending]);
    }

    /// Reads a tables file for `variant`; the error says what is wrong, in one line.
    pub fn parse(text: &str, variant: &Variant) -> Result<SquareTables, String> {
        let raw: RawFile = toml::from_str(text).map_err(|e| {
            // toml's messages may run over lines; a one-line error keeps them on one.
            let message = e.message().lines().collect::<Vec<_>>().join("; ");
            match e.span() {
                Some(span) => {
                    let line = text[..span.start.min(text.len())].lines().count().max(1);
                    format!("line {line}: {message}")
                }
                None => message,
            }
        })?;
        let g = variant.geometry();
        let (width, height) = (usize::from(g.width), usize::from(g.height));
        let mut tables = SquareTables::new(variant.pieces().len(), raw.learned);
        for (name, piece) in raw.pieces {
            let kind = variant
                .pieces()
                .iter()
                .position(|p| p.name.eq_ignore_ascii_case(&name))
                .map(PieceKind::nth)
                .ok_or_else(|| {
                    let names: Vec<&str> =
                        variant.pieces().iter().map(|p| p.name.as_str()).collect();
                    format!(
                        "`{name}` is not a piece of {}; its pieces are {}",
                        variant.name(),
                        names.join(", ")
                    )
                })?;
            let mut grids = [Vec::new(), Vec::new()];
            for (grid, (part, rows)) in grids
                .iter_mut()
                .zip([("middle", &piece.middle), ("ending", &piece.ending)])
            {
                if rows.len() != height || rows.iter().any(|r| r.len() != width) {
                    return Err(format!(
                        "`{name}`'s {part} table must have {height} rows of {width} terms, \
                         one per square, the top rank first"
                    ));
                }
                if let Some(v) = rows.iter().flatten().find(|v| v.abs() > MAX_TERM) {
                    return Err(format!(
                        "`{name}`'s {part} table holds {v}, more than {MAX_TERM} centipawns \
                         either way"
                    ));
                }
                *grid = vec![0; width * height];
                for (r, row) in rows.iter().enumerate() {
                    let rank = height - 1 - r;
                    grid[rank * width..(rank + 1) * width].copy_from_slice(row);
                }
            }
            let [middle, ending] = grids;
            tables.set(kind, middle, ending);
        }
        Ok(tables)
    }

    /// The tables as a file [`SquareTables::parse`] reads back, columns aligned so that each
    /// table looks like the board.
    pub fn write(&self, variant: &Variant) -> String {
        use std::fmt::Write;
        let g = variant.geometry();
        let (width, height) = (usize::from(g.width), usize::from(g.height));
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# Square tables of {}, in centipawns, added to the evaluation's own: per piece a",
            variant.name()
        );
        let _ = writeln!(
            out,
            "# middle-game and an ending term per square, the top rank first, from the first"
        );
        let _ = writeln!(
            out,
            "# side's point of view (the other sides read them turned or mirrored as their setup is)."
        );
        let _ = writeln!(out, "learned = {:?}", self.learned);
        for (k, piece) in self.pieces.iter().enumerate() {
            let Some(grids) = piece else { continue };
            let name = &variant.pieces()[k].name;
            let key = if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                name.clone()
            } else {
                format!("{name:?}")
            };
            let _ = writeln!(out, "\n[pieces.{key}]");
            for (part, grid) in ["middle", "ending"].iter().zip(grids) {
                let cell = grid.iter().map(|v| v.to_string().len()).max().unwrap_or(1);
                let _ = writeln!(out, "{part} = [");
                for rank in (0..height).rev() {
                    let row: Vec<String> = grid[rank * width..(rank + 1) * width]
                        .iter()
                        .map(|v| format!("{v:>cell$}"))
                        .collect();
                    let _ = writeln!(out, "  [{}],", row.join(", "));
                }
                let _ = writeln!(out, "]");
            }
        }
        out
    }
}

/// Per side, per square: the square that plays its part for the first side, by the turn
/// (and mirror, where needed) that carries the side's setup onto the first side's; the
/// first side's own is each square itself. `None` when some side's setup is no turned or
/// mirrored copy of the first side's, so that one table cannot serve every side.
pub fn side_frames(t: &Tables) -> Option<Vec<Vec<Square>>> {
    let v = t.variant();
    let g = t.geometry();
    let first = v.sides()[0].facing;
    let setup = t.setup();
    let mut frames = Vec::with_capacity(t.sides());
    for (s, def) in v.sides().iter().enumerate() {
        let side = super::Side::nth(s);
        let frame = [false, true].into_iter().find_map(|mirror| {
            let frame: Option<Vec<Square>> = g
                .squares()
                .map(|sq| g.turned(sq, def.facing, first, mirror))
                .collect();
            let frame = frame?;
            let mut mine: Vec<(u16, usize)> = setup
                .iter()
                .filter(|p| p.side == side)
                .map(|p| (frame[p.square.index()].raw(), p.piece.index()))
                .collect();
            let mut theirs: Vec<(u16, usize)> = setup
                .iter()
                .filter(|p| p.side == super::Side::FIRST)
                .map(|p| (p.square.raw(), p.piece.index()))
                .collect();
            mine.sort_unstable();
            theirs.sort_unstable();
            (mine == theirs).then_some(frame)
        })?;
        frames.push(frame);
    }
    Some(frames)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped(file: &str) -> Tables {
        let text = std::fs::read_to_string(format!("definitions/{file}")).unwrap();
        Tables::compile(&crate::load(file, &text).unwrap(), &[]).unwrap()
    }

    fn square(t: &Tables, name: &str) -> Square {
        let g = t.geometry();
        g.squares()
            .find(|&s| g.name(s).to_string() == name)
            .unwrap()
    }

    #[test]
    fn written_tables_read_back_the_same() {
        let t = shipped("chess.variant");
        let v = t.variant();
        let mut tables = SquareTables::new(v.pieces().len(), "a \"test\"".into());
        let knight = v.piece_by_name("Knight").unwrap();
        let middle: Vec<i32> = (0..64).map(|i| i * 3 - 90).collect();
        let ending: Vec<i32> = (0..64).map(|i| 64 - i * i).collect();
        tables.set(knight, middle.clone(), ending.clone());
        let text = tables.write(v);
        let back = SquareTables::parse(&text, v).unwrap();
        assert_eq!(back, tables);
        assert_eq!(back.get(knight), Some((&middle[..], &ending[..])));
        assert_eq!(back.get(v.piece_by_name("Queen").unwrap()), None);
        // The top rank comes first, as the board is drawn: h8's term ends the first row.
        let first_row = text.lines().find(|l| l.starts_with("  [")).unwrap();
        assert!(first_row.trim_end().ends_with(&format!("{}],", middle[63])));
    }

    #[test]
    fn a_bad_file_is_refused_in_one_line() {
        let t = shipped("chess.variant");
        let v = t.variant();
        let row = format!("[{}]", ["0"; 8].join(", "));
        let grid = |rows: usize| format!("[{}]", vec![row.as_str(); rows].join(", "));
        let cases = [
            (
                format!("[pieces.Dragon]\nmiddle = {0}\nending = {0}\n", grid(8)),
                "`Dragon` is not a piece of Chess; its pieces are King, Queen",
            ),
            (
                format!(
                    "[pieces.Knight]\nmiddle = {}\nending = {}\n",
                    grid(7),
                    grid(8)
                ),
                "`Knight`'s middle table must have 8 rows of 8 terms",
            ),
            (
                format!("[pieces.pawn]\nmiddle = {0}\nending = {0}\n", grid(8))
                    .replacen("[0,", "[12000,", 1),
                "holds 12000, more than 9000 centipawns",
            ),
            ("learned = \"x\"\n[pieces.Knight\n".to_string(), "line 2:"),
            ("colour = 3\n".to_string(), "unknown field `colour`"),
        ];
        for (text, expected) in cases {
            let err = SquareTables::parse(&text, v).unwrap_err();
            assert!(err.contains(expected), "{err}");
            assert!(!err.contains('\n'), "{err}");
        }
    }

    #[test]
    fn each_side_reads_the_first_sides_table_through_its_setup() {
        // Chess mirrors across the middle rank (the kings face each other on the e-file),
        // Shogi turns half way round (each side's rook stands on its own right).
        let chess = shipped("chess.variant");
        let frames = side_frames(&chess).unwrap();
        for (black, white) in [("e8", "e1"), ("a7", "a2"), ("d8", "d1")] {
            assert_eq!(
                frames[1][square(&chess, black).index()],
                square(&chess, white)
            );
            assert_eq!(
                frames[0][square(&chess, white).index()],
                square(&chess, white)
            );
        }
        let shogi = shipped("shogi.variant");
        let frames = side_frames(&shogi).unwrap();
        assert_eq!(
            frames[1][square(&shogi, "b8").index()],
            square(&shogi, "h2")
        );
        // Every side's setup lands on the first side's, piece for piece, in each shipped game
        // of this kind.
        for file in [
            "chess.variant",
            "xiangqi.variant",
            "shogi.variant",
            "gala-xiangqi-four.variant",
        ] {
            let t = shipped(file);
            let frames = side_frames(&t).unwrap();
            for p in t.setup() {
                let at = frames[p.side.index()][p.square.index()];
                assert!(
                    t.setup().iter().any(|q| q.side == super::super::Side::FIRST
                        && q.square == at
                        && q.piece == p.piece),
                    "{file}"
                );
            }
        }
        // A setup no turn or mirror carries onto the other's has no frames.
        let text = "variant \"Lopsided\"\nboard 4 x 4\nsides white north, black south\n\
                    piece King K royal\n  move step any\npiece Rook R\n  move slide orthogonal\n\
                    rules\n  checkmate\nsetup \"k3/4/4/KR2\"\n";
        let t = Tables::compile(&crate::load("l.variant", text).unwrap(), &[]).unwrap();
        assert!(side_frames(&t).is_none());
    }
}
