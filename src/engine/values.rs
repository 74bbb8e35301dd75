//! Estimated piece values for a game nobody has played yet, from the definition alone.
//!
//! The method: a piece is worth about as much as the squares it can go to. Each piece of the
//! first side is put on a random square it can stand on (a square of the setup for its kind, or
//! one its own moves reach on an empty board), on a board filled at random: the fill density is
//! drawn uniformly between none and the setup's, each filler a random non-royal piece of the
//! setup, friend or enemy with even odds. Its distinct destinations there (moves and captures,
//! its own patterns, zones, confinements and hops included) are counted, and the mean over the
//! samples is turned into a value by the knight's rule: a piece that reaches on average as
//! many squares as a knight would on the same board, at the same densities, is worth 3 pawns.
//! The uncertainty given is the 95% interval of that mean from sampling alone; the method's
//! own error is larger (it misses what mobility does not show: forward-only pieces and pawns
//! are undervalued near promotion, colour-bound pieces overvalued, cooperation ignored).

use super::zobrist::Rng;
use super::{Piece, Position};
use crate::model::{PieceDef, PieceKind, Side, Square, Variant};

/// The estimate for one kind of piece.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The piece's kind.
    pub kind: PieceKind,
    /// Royal pieces are not valued: losing them ends the game.
    pub royal: bool,
    /// Mean number of distinct destinations on the sampled boards.
    pub mobility: f64,
    /// The value in pawns (3 = a knight's mobility).
    pub value: f64,
    /// Half the 95% interval of `value`, from sampling.
    pub margin: f64,
}

/// The whole estimate, with what it was measured against.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimates {
    /// One per kind, in the definition's order.
    pub pieces: Vec<Estimate>,
    /// A knight's mean number of destinations on the same boards.
    pub knight_mobility: f64,
    /// The setup's density, the highest fill sampled.
    pub density: f64,
    /// Samples per piece.
    pub samples: usize,
}

/// Estimates every piece's value in `start`'s game (its setup gives the fillers and the
/// density; the position itself does not matter) from `samples` random boards per piece,
/// drawn from `seed`.
pub fn estimate(start: &Position, samples: usize, seed: u64) -> Estimates {
    let t = start.tables();
    let g = t.geometry();
    let me = Side::nth(0);
    let playable: Vec<Square> = g.squares().filter(|&sq| !g.is_hole(sq)).collect();
    // The setup, not `start`'s placement: the estimate is the game's, whatever position the
    // caller holds.
    let occupied: Vec<(Square, Piece)> = t
        .setup()
        .iter()
        .map(|p| {
            (
                p.square,
                Piece {
                    side: p.side,
                    kind: p.piece,
                },
            )
        })
        .collect();
    let fillers: Vec<PieceKind> = occupied
        .iter()
        .map(|&(_, p)| p.kind)
        .filter(|&k| !t.royal(k))
        .collect();
    let density = occupied.len() as f64 / playable.len().max(1) as f64;
    let mut rng = Rng::new(seed);
    let mut pieces = Vec::new();
    for k in 0..t.kinds() {
        let kind = PieceKind::nth(k);
        if t.royal(kind) {
            pieces.push(Estimate {
                kind,
                royal: true,
                mobility: 0.0,
                value: 0.0,
                margin: 0.0,
            });
            continue;
        }
        let homes = standing_squares(start, kind, me, &occupied, &playable);
        let mut sum = 0.0;
        let mut sum_sq = 0.0;
        let mut moves = Vec::new();
        for _ in 0..samples {
            let from = homes[uniform(&mut rng, homes.len())];
            let fill = unit(&mut rng) * density;
            let mut placed = vec![(from, Piece { side: me, kind })];
            if !fillers.is_empty() {
                for &sq in &playable {
                    if sq != from && unit(&mut rng) < fill {
                        let side = Side::nth(uniform(&mut rng, t.sides()));
                        let kind = fillers[uniform(&mut rng, fillers.len())];
                        placed.push((sq, Piece { side, kind }));
                    }
                }
            }
            let p = start.only(&placed);
            moves.clear();
            p.piece_moves(from, &mut moves);
            let mut seen: Vec<Square> = Vec::new();
            for m in &moves {
                if m.from == from && !m.is_drop() && m.to != from && !seen.contains(&m.to) {
                    seen.push(m.to);
                }
            }
            let n = seen.len() as f64;
            sum += n;
            sum_sq += n * n;
        }
        let count = samples.max(1) as f64;
        let mean = sum / count;
        let variance = (sum_sq / count - mean * mean).max(0.0);
        pieces.push(Estimate {
            kind,
            royal: false,
            mobility: mean,
            value: mean,
            margin: 1.96 * (variance / count).sqrt(),
        });
    }
    let friends = (0..t.sides())
        .filter(|&s| t.partners(Side::nth(s), me))
        .count();
    let friendly = friends as f64 / t.sides() as f64;
    let knight_mobility = knight_mobility(start, &playable, density * friendly);
    let scale = if knight_mobility > 0.0 {
        3.0 / knight_mobility
    } else {
        0.0
    };
    for e in &mut pieces {
        e.value *= scale;
        e.margin *= scale;
    }
    Estimates {
        pieces,
        knight_mobility,
        density,
        samples,
    }
}

/// Where a piece of `kind` of `side` can stand: the setup's squares for it and every square
/// its moves reach from any square of an empty board (a piece kept in a zone is measured
/// there); every square for a piece neither placed nor reached (one that only arrives by
/// drop or promotion and stays put).
fn standing_squares(
    start: &Position,
    kind: PieceKind,
    side: Side,
    occupied: &[(Square, Piece)],
    playable: &[Square],
) -> Vec<Square> {
    let mut home: Vec<bool> = vec![false; start.tables().geometry().len()];
    for &(sq, p) in occupied {
        if p.kind == kind && p.side == side {
            home[sq.index()] = true;
        }
    }
    let mut moves = Vec::new();
    for &sq in playable {
        let alone = start.only(&[(sq, Piece { side, kind })]);
        moves.clear();
        alone.piece_moves(sq, &mut moves);
        for m in &moves {
            if !m.is_drop() && m.promotion.is_none() {
                home[m.to.index()] = true;
            }
        }
    }
    let squares: Vec<Square> = playable
        .iter()
        .copied()
        .filter(|sq| home[sq.index()])
        .collect();
    if squares.is_empty() {
        playable.to_vec()
    } else {
        squares
    }
}

/// A knight's expected number of destinations from a random square of the board, where each
/// target is taken by a friend with probability `friendly_density` times the fill's share of
/// it, the fill being uniform up to the full density (so half of it on average).
fn knight_mobility(start: &Position, playable: &[Square], friendly_density: f64) -> f64 {
    const JUMPS: [(i32, i32); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let g = start.tables().geometry();
    let targets: usize = playable
        .iter()
        .map(|&sq| {
            JUMPS
                .iter()
                .filter(|&&(dx, dy)| g.offset(sq, dx, dy).is_some())
                .count()
        })
        .sum();
    let mean_targets = targets as f64 / playable.len().max(1) as f64;
    mean_targets * (1.0 - friendly_density / 2.0)
}

/// A uniform draw in `0..n` (`n` > 0).
fn uniform(rng: &mut Rng, n: usize) -> usize {
    (rng.next() % n as u64) as usize
}

/// A uniform draw in `[0, 1)`.
fn unit(rng: &mut Rng) -> f64 {
    (rng.next() >> 11) as f64 / (1u64 << 53) as f64
}

/// The width of a table's first column: the longest of `kinds`' names, at least "piece".
pub(crate) fn name_width(v: &Variant, kinds: impl Iterator<Item = PieceKind>) -> usize {
    kinds
        .map(|k| v.piece(k).name.len())
        .max()
        .unwrap_or(5)
        .max(5)
}

/// The value the definition gives a piece, for a table's last column ("-" where it gives none).
pub(crate) fn given(def: &PieceDef) -> String {
    if def.value_given || def.royal {
        format!("{}", def.value)
    } else {
        "-".to_string()
    }
}

/// The estimates as a table, with the values the definition gives beside them.
pub fn table(start: &Position, found: &Estimates) -> String {
    use std::fmt::Write;
    let v = start.tables().variant();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: piece values from mobility on {} random boards per piece, filled up to {:.0}%",
        v.name(),
        found.samples,
        found.density * 100.0
    );
    let _ = writeln!(
        out,
        "(in pawns: a piece reaching as many squares as a knight, {:.2} here, is worth 3)",
        found.knight_mobility
    );
    let width = name_width(v, found.pieces.iter().map(|e| e.kind));
    let _ = writeln!(
        out,
        "{:width$}  {:>6}  {:>7}  {:>13}  {:>6}",
        "piece", "letter", "squares", "estimate", "given"
    );
    for e in &found.pieces {
        let def = v.piece(e.kind);
        let letter = def.letter.to_string();
        let given = given(def);
        if e.royal {
            let _ = writeln!(
                out,
                "{:width$}  {letter:>6}  {:>7}  {:>13}  {given:>6}",
                def.name, "-", "royal"
            );
        } else {
            let estimate = format!("{:.2} ± {:.2}", e.value, e.margin);
            let _ = writeln!(
                out,
                "{:width$}  {letter:>6}  {:>7.2}  {estimate:>13}  {given:>6}",
                def.name, e.mobility
            );
        }
    }
    out
}
