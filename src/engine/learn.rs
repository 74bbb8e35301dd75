//! Piece values learned from the engine's own games, for a game nobody has played yet.
//!
//! The method: the engine plays the game against itself at a fixed depth, each game opened by
//! a few random moves so that no two are alike. Every position where the side to move is not
//! in check and the engine's move neither captures nor promotes (a quiet position, whose
//! material is not about to change) is kept with the game's result. A logistic model of the
//! result on the material difference (pieces of each kind on the board and in hand, first side
//! less second) and on who is to move is fitted to them by maximum likelihood: each kind's
//! weight is what one more of it does to the odds of winning. The weights are given in pawns
//! by scaling them so that the setup's material is worth what the values the engine played
//! with make it. The uncertainty is the 95% interval over resampled sets of games (bootstrap),
//! so the correlation between the positions of one game is counted.
//!
//! What it measures is worth in the engine's hands at that depth, with its own values: a piece
//! the engine misplays or trades badly comes out cheaper. Kinds that never differ between the
//! sides in the kept positions get no value.

use super::search::{Engine, Limits};
use super::zobrist::Rng;
use super::{Move, Position};
use crate::model::{PieceKind, Side, Verdict};

/// Random moves that open each game.
const OPENING_PLIES: usize = 4;
/// A game not over after this many plies counts as drawn.
const MAX_PLIES: usize = 400;
/// Resampled sets of games for the interval.
const RESAMPLES: usize = 200;
/// Transposition table of each playing engine, in MB.
const HASH_MB: usize = 16;

/// The learned value of one kind of piece.
#[derive(Clone, Debug, PartialEq)]
pub struct Learned {
    /// The piece's kind.
    pub kind: PieceKind,
    /// Royal pieces are not valued: losing them ends the game.
    pub royal: bool,
    /// The value in pawns, if the kind ever differed between the sides.
    pub value: Option<f64>,
    /// Half the 95% interval of `value`.
    pub margin: f64,
    /// The value the engine played with, in pawns.
    pub played: f64,
}

/// The whole estimate, with what it was learned from.
#[derive(Clone, Debug, PartialEq)]
pub struct Learning {
    /// One per kind, in the definition's order.
    pub pieces: Vec<Learned>,
    /// Games played.
    pub games: usize,
    /// Search depth of every move.
    pub depth: u32,
    /// Positions kept.
    pub positions: usize,
    /// Games won by the first side, by the second, and drawn (or unfinished).
    pub results: [usize; 3],
}

/// One game of self-play: per kept position, the material difference per feature (see
/// [`features`]); and the result for the first side.
struct Game {
    positions: Vec<Vec<i16>>,
    result: f64,
}

/// A kept position as the fit sees it: its features (the last a constant), the result, and
/// the game it comes from.
struct Row {
    x: Vec<f64>,
    y: f64,
    game: usize,
}

/// Plays `games` games of `start`'s game at `depth`, from `seed`, on `threads` threads, and
/// learns every piece's value from them. Games of more than two sides are refused.
pub fn learn(
    start: &Position,
    games: usize,
    depth: u32,
    seed: u64,
    threads: usize,
) -> Result<Learning, String> {
    let t = start.tables();
    if t.sides() != 2 {
        return Err(format!(
            "values from self-play need a game of two sides; this one has {}",
            t.sides()
        ));
    }
    let kinds = t.kinds();
    let engine_values: Vec<i32> = {
        let engine = Engine::new(start, 1);
        (0..kinds)
            .map(|k| engine.piece_value(PieceKind::nth(k)))
            .collect()
    };
    let played: Vec<Game> = play_games(
        start,
        (games, threads),
        depth,
        seed,
        |_| (),
        |(), pos| features(pos, kinds),
    )
    .into_iter()
    .map(|(positions, result)| Game { positions, result })
    .collect();
    let results = tally(played.iter().map(|g| g.result));
    // Features: one per kind that ever differs, then the side to move.
    let seen: Vec<usize> = (0..kinds)
        .filter(|&k| {
            !t.royal(PieceKind::nth(k))
                && played.iter().any(|g| g.positions.iter().any(|f| f[k] != 0))
        })
        .collect();
    let rows: Vec<Row> = played
        .iter()
        .enumerate()
        .flat_map(|(game, g)| {
            let seen = &seen;
            g.positions.iter().map(move |f| {
                let mut x: Vec<f64> = seen.iter().map(|&k| f64::from(f[k])).collect();
                x.push(f64::from(f[kinds]));
                x.push(1.0);
                Row {
                    x,
                    y: g.result,
                    game,
                }
            })
        })
        .collect();
    let full = fit(&rows, &vec![1.0; games], None);
    // The setup's material for the first side, by the engine's values and by the weights.
    let mut setup_count = vec![0.0; kinds];
    for p in t.setup() {
        if p.side == Side::FIRST {
            setup_count[p.piece.index()] += 1.0;
        }
    }
    for (k, count) in setup_count.iter_mut().enumerate() {
        *count += f64::from(start.in_hand(Side::FIRST, PieceKind::nth(k)));
    }
    let played_total: f64 = (0..kinds)
        .filter(|&k| !t.royal(PieceKind::nth(k)))
        .map(|k| setup_count[k] * f64::from(engine_values[k]) / 100.0)
        .sum();
    let scale = |w: &[f64]| -> Option<f64> {
        let total: f64 = seen.iter().zip(w).map(|(&k, w)| setup_count[k] * w).sum();
        (total > 0.0).then(|| played_total / total)
    };
    let full_scale = scale(&full).unwrap_or(0.0);
    // Resample whole games, so that positions of one game stay together: a game drawn n
    // times weighs n times in the refit.
    let mut rng = Rng::new(seed ^ 0xB007_5742);
    let mut draws: Vec<Vec<f64>> = vec![Vec::with_capacity(RESAMPLES); seen.len()];
    let mut times = vec![0.0; games];
    for _ in 0..RESAMPLES {
        times.fill(0.0);
        for _ in 0..games {
            times[(rng.next() % games as u64) as usize] += 1.0;
        }
        let w = fit(&rows, &times, Some(&full));
        if let Some(s) = scale(&w) {
            for (i, d) in draws.iter_mut().enumerate() {
                d.push(w[i] * s);
            }
        }
    }
    let pieces = (0..kinds)
        .map(|k| {
            let kind = PieceKind::nth(k);
            let royal = t.royal(kind);
            let slot = seen.iter().position(|&s| s == k);
            let (value, margin) = match slot {
                Some(i) if !royal && full_scale > 0.0 => {
                    let d = &mut draws[i];
                    d.sort_by(f64::total_cmp);
                    let margin = if d.len() >= 2 {
                        let lo = d[d.len() * 25 / 1000];
                        let hi = d[(d.len() * 975 / 1000).min(d.len() - 1)];
                        (hi - lo) / 2.0
                    } else {
                        f64::NAN
                    };
                    (Some(full[i] * full_scale), margin)
                }
                _ => (None, 0.0),
            };
            Learned {
                kind,
                royal,
                value,
                margin,
                played: f64::from(engine_values[k]) / 100.0,
            }
        })
        .collect();
    Ok(Learning {
        pieces,
        games,
        depth,
        positions: rows.len(),
        results,
    })
}

/// Games `0..games` of self-play from `start` at `depth` (from `seed`), on `threads` threads,
/// in game order: per game, what `kept` makes of each quiet
/// position with its thread's own state (`init` builds one from the start), and the result
/// for the first side.
pub(super) fn play_games<S, T: Send>(
    start: &Position,
    (games, threads): (usize, usize),
    depth: u32,
    seed: u64,
    init: impl Fn(&Position) -> S + Sync,
    kept: impl Fn(&S, &Position) -> T + Sync,
) -> Vec<(Vec<T>, f64)> {
    let threads = threads.clamp(1, games.max(1));
    let (init, kept) = (&init, &kept);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|w| {
                // Positions cache what they work out and are not shared between threads.
                let start = start.clone();
                scope.spawn(move || {
                    let mut engine = Engine::new(&start, HASH_MB);
                    let state = init(&start);
                    let mut done = Vec::new();
                    for g in (w..games).step_by(threads) {
                        engine.clear();
                        let mut found = Vec::new();
                        let result = self_play(&start, &mut engine, depth, seed, g, &mut |pos| {
                            found.push(kept(&state, pos));
                        });
                        done.push((g, (found, result)));
                    }
                    done
                })
            })
            .collect();
        let mut all: Vec<(usize, (Vec<T>, f64))> = workers
            .into_iter()
            .flat_map(|w| w.join().expect("a self-play worker panicked"))
            .collect();
        all.sort_by_key(|(g, _)| *g);
        all.into_iter().map(|(_, game)| game).collect()
    })
}

/// Games won by the first side, by the second, and drawn (or unfinished), from each game's
/// result for the first side.
pub(super) fn tally(results: impl Iterator<Item = f64>) -> [usize; 3] {
    let mut tally = [0; 3];
    for r in results {
        tally[match r {
            r if r > 0.5 => 0,
            r if r < 0.5 => 1,
            _ => 2,
        }] += 1;
    }
    tally
}

/// Plays game number `game` of self-play from `start` at `depth`, its first plies random (by
/// `seed` and `game`), handing every quiet position to `keep`: one where the side to move is
/// not in check and the engine's move neither captures nor promotes, so that its material is
/// not about to change. The result is the first side's: 1 for a win, 0 for a loss, 1/2 for a
/// draw or a game still going after `MAX_PLIES`.
pub(super) fn self_play(
    start: &Position,
    engine: &mut Engine,
    depth: u32,
    seed: u64,
    game: usize,
    keep: &mut dyn FnMut(&Position),
) -> f64 {
    let mut rng = Rng::new(seed.wrapping_mul(0x100_0000_01B3) ^ game as u64);
    let mut pos = start.clone();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut moves: Vec<Move> = Vec::new();
    let outcome = loop {
        if let Some(o) = pos.outcome() {
            break Some(o);
        }
        if pos.ply() >= MAX_PLIES {
            break None;
        }
        let m = if pos.ply() < OPENING_PLIES {
            moves.clear();
            pos.legal_moves_into(&mut moves);
            moves[(rng.next() % moves.len() as u64) as usize]
        } else {
            let Some(m) = engine.search(&pos, &limits, &mut |_| {}).0 else {
                break None;
            };
            if !pos.in_check() && !super::notation::is_capture(&pos, &m) && m.promotion.is_none() {
                keep(&pos);
            }
            m
        };
        pos.play(m);
    };
    match outcome.map(|o| o.result(Side::FIRST)) {
        Some(Verdict::Win) => 1.0,
        Some(Verdict::Loss) => 0.0,
        _ => 0.5,
    }
}

/// Per kind, the first side's pieces (board and hand) less the second's; then +1 with the
/// first side to move, -1 with the second.
fn features(pos: &Position, kinds: usize) -> Vec<i16> {
    let mut f = vec![0i16; kinds + 1];
    for (s, list) in pos.plist.iter().enumerate() {
        let sign = if s == 0 { 1 } else { -1 };
        for &sq in list {
            f[pos.cell_kind(pos.board[sq as usize]).index()] += sign;
        }
        for (k, count) in f.iter_mut().enumerate().take(kinds) {
            let n = pos.in_hand(Side::nth(s), PieceKind::nth(k));
            *count += sign * i16::try_from(n).unwrap_or(i16::MAX);
        }
    }
    f[kinds] = if pos.side_to_move() == Side::FIRST {
        1
    } else {
        -1
    };
    f
}

/// The weights of the logistic model of the result on the features (the last one of each row
/// a constant), each row counted as often as `times` says for its game, by Newton's method
/// from `from` (or zero), slightly ridged so that a feature that never varies leaves the
/// system solvable.
fn fit(rows: &[Row], times: &[f64], from: Option<&[f64]>) -> Vec<f64> {
    let n = rows.first().map_or(0, |r| r.x.len());
    let mut w = from.map_or_else(|| vec![0.0; n], <[f64]>::to_vec);
    for _ in 0..25 {
        let mut grad = vec![0.0; n];
        let mut hess = vec![vec![0.0; n]; n];
        for Row { x, y, game } in rows {
            let times = times[*game];
            if times == 0.0 {
                continue;
            }
            let z: f64 = x.iter().zip(&w).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            let v = times * p * (1.0 - p);
            for i in 0..n {
                grad[i] += times * (y - p) * x[i];
                for j in 0..=i {
                    hess[i][j] += v * x[i] * x[j];
                }
            }
        }
        for i in 0..n {
            grad[i] -= 1e-3 * w[i];
            hess[i][i] += 1e-3;
            let lower = hess[i][..i].to_vec();
            for (j, v) in lower.into_iter().enumerate() {
                hess[j][i] = v;
            }
        }
        let Some(step) = solve(hess, grad) else {
            break;
        };
        let size: f64 = step.iter().map(|s| s.abs()).fold(0.0, f64::max);
        for (w, s) in w.iter_mut().zip(&step) {
            *w += s;
        }
        if size < 1e-7 {
            break;
        }
    }
    w
}

/// `a x = b` by Gaussian elimination with partial pivoting (`None` if `a` is singular).
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() < 1e-12 {
            return None;
        }
        a.swap(c, p);
        b.swap(c, p);
        let pivot = a[c].clone();
        for r in c + 1..n {
            let f = a[r][c] / pivot[c];
            for (x, p) in a[r][c..].iter_mut().zip(&pivot[c..]) {
                *x -= f * p;
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|k| a[r][k] * x[k]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    Some(x)
}

/// The learned values as a table, with the values the engine played with and those the
/// definition gives beside them.
pub fn table(start: &Position, found: &Learning) -> String {
    use std::fmt::Write;
    let v = start.tables().variant();
    let mut out = String::new();
    let [first, second, drawn] = found.results;
    let _ = writeln!(
        out,
        "{}: piece values from {} games of self-play at depth {} ({} quiet positions; \
         {first} won by the first side, {second} by the second, {drawn} drawn or unfinished)",
        v.name(),
        found.games,
        found.depth,
        found.positions,
    );
    let _ = writeln!(
        out,
        "(in pawns, scaled so that the setup's material is worth what the values played with \
         make it; 95% interval over resampled games)"
    );
    let width = super::values::name_width(v, found.pieces.iter().map(|e| e.kind));
    let _ = writeln!(
        out,
        "{:width$}  {:>6}  {:>13}  {:>6}  {:>6}",
        "piece", "letter", "estimate", "played", "given"
    );
    for e in &found.pieces {
        let def = v.piece(e.kind);
        let letter = def.letter.to_string();
        let given = super::values::given(def);
        let (estimate, played) = if e.royal {
            ("royal".to_string(), "-".to_string())
        } else {
            let estimate = match e.value {
                Some(x) => format!("{x:.2} ± {:.2}", e.margin),
                None => "no estimate".to_string(),
            };
            (estimate, format!("{:.2}", e.played))
        };
        let _ = writeln!(
            out,
            "{:width$}  {letter:>6}  {estimate:>13}  {played:>6}  {given:>6}",
            def.name
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results drawn from a known logistic model give its weights back.
    #[test]
    fn the_fit_recovers_a_known_model() {
        let truth = [0.8, -0.3, 0.1];
        let mut rng = Rng::new(11);
        let unit = |rng: &mut Rng| (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
        let rows: Vec<Row> = (0..40_000)
            .map(|i| {
                let x = vec![
                    (rng.next() % 5) as f64 - 2.0,
                    (rng.next() % 5) as f64 - 2.0,
                    1.0,
                ];
                let z: f64 = x.iter().zip(&truth).map(|(a, b)| a * b).sum();
                let won = unit(&mut rng) < 1.0 / (1.0 + (-z).exp());
                Row {
                    x,
                    y: if won { 1.0 } else { 0.0 },
                    game: i,
                }
            })
            .collect();
        let w = fit(&rows, &vec![1.0; rows.len()], None);
        for (got, want) in w.iter().zip(&truth) {
            assert!((got - want).abs() < 0.05, "{w:?} against {truth:?}");
        }
    }

    #[test]
    fn gaussian_elimination_solves_and_refuses_a_singular_system() {
        let x = solve(vec![vec![0.0, 2.0], vec![1.0, 1.0]], vec![4.0, 3.0]).unwrap();
        assert!(
            (x[0] - 1.0).abs() < 1e-12 && (x[1] - 2.0).abs() < 1e-12,
            "{x:?}"
        );
        assert!(solve(vec![vec![1.0, 2.0], vec![2.0, 4.0]], vec![1.0, 2.0]).is_none());
    }
}
