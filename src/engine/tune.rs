//! Square tables learned from the engine's own games (`rulebook tune`).
//!
//! The method is the one of [`super::learn`], with squares instead of material: the engine
//! plays the game against itself at a fixed depth from openings of a few random moves, and
//! keeps its quiet positions with each game's result. The score of a kept position is its
//! evaluation (with whatever tables it already has) plus, for every piece on the board, a
//! middle-game and an ending term for its kind and square, mixed by how far the position has
//! come towards the ending, as the evaluation mixes them. Each term is the sum of one for the
//! piece's rank, one for its file and one for the square itself: a few thousand positions
//! place a piece on a given rank or file often, on a given square seldom, so the square's own
//! share is held near zero by a ridge while the rank's and file's are not. The terms are fitted
//! so that the logistic of the score predicts the results (by maximum likelihood, the scale
//! fitted first to the evaluation alone). The ridge's strength is picked among a few (and
//! square shares left out altogether) by how well each fit predicts games held out of it;
//! the last fit uses every game. One table serves every side, read through the turn or
//! mirror that carries its setup onto the first side's ([`side_frames`]).
//!
//! What the tables learn is what helps this engine win its own games at that depth: they
//! correct its evaluation where its games show it wrong, no more.

use super::learn::{play_games, tally};
use super::search::Evaluator;
use super::Position;
use crate::model::{side_frames, PieceKind, SquareTables, MAX_TERM};

/// Every how many games one is held out to pick the ridge.
const HOLD_OUT: usize = 5;
/// Ridge strengths tried for the squares' own shares: what a squared pawn costs against the
/// whole log-likelihood (a share seen in a few dozen positions stays small); `None` leaves
/// them out.
const RIDGES: [Option<f64>; 5] = [Some(16.0), Some(64.0), Some(256.0), Some(1024.0), None];
/// The ridge of the ranks' and files' shares, which only keeps a rank or file no piece of a
/// kind ever stood on at zero.
const LINE_RIDGE: f64 = 1.0;
/// Steps of each fit.
const STEPS: usize = 500;

/// A kept position as the fit sees it.
struct Sample {
    /// Per piece on the board: its term's index (kind, square in the first side's frame)
    /// and +1 for the first side's pieces, -1 for the second's.
    pieces: Vec<(u32, f32)>,
    /// How far towards the ending, 0 to 1.
    ending: f32,
    /// The evaluation for the first side, in centipawns.
    score: f32,
}

/// One game's kept positions and its result for the first side.
struct Game {
    samples: Vec<Sample>,
    result: f32,
}

/// What `rulebook tune` found.
#[derive(Debug)]
pub struct Tuning {
    /// The tables: those the game had, corrected.
    pub tables: SquareTables,
    /// Positions kept.
    pub positions: usize,
    /// Games won by the first side, by the second, and drawn (or unfinished).
    pub results: [usize; 3],
    /// Mean log loss of the held-out games' positions, by the evaluation alone and with the
    /// corrections fitted on the other games (at the chosen ridge).
    pub held_out: (f64, f64),
    /// The chosen ridge of the squares' own shares (`None`: left out).
    pub ridge: Option<f64>,
}

/// Plays `games` games of `start`'s game at `depth` from `seed` on `threads` threads, and fits
/// square tables to them. Games of more than two sides, or whose sides' setups are not copies
/// of one another, are refused.
pub fn tune(
    start: &Position,
    games: usize,
    depth: u32,
    seed: u64,
    threads: usize,
) -> Result<Tuning, String> {
    let t = start.tables();
    if t.sides() != 2 {
        return Err(format!(
            "square tables from self-play need a game of two sides; this one has {}",
            t.sides()
        ));
    }
    let frames = side_frames(t).ok_or_else(|| {
        "the second side's setup is no turned or mirrored copy of the first side's, so one \
         table cannot serve both"
            .to_string()
    })?;
    let squares = t.geometry().len();
    let kinds = t.kinds();
    let played: Vec<Game> = play_games(
        start,
        (games, threads),
        depth,
        seed,
        Evaluator::new,
        |eval, pos| sample(pos, eval, &frames, squares),
    )
    .into_iter()
    .map(|(samples, result)| Game {
        samples,
        #[allow(clippy::cast_possible_truncation)]
        result: result as f32,
    })
    .collect();
    let results = tally(played.iter().map(|g| f64::from(g.result)));
    let positions = played.iter().map(|g| g.samples.len()).sum();
    if positions == 0 {
        return Err("the games kept no quiet position to learn from".into());
    }
    let all: Vec<(&Sample, f32)> = played
        .iter()
        .flat_map(|g| g.samples.iter().map(move |s| (s, g.result)))
        .collect();
    let scale = fit_scale(&all);
    let split = |held: bool| -> Vec<(&Sample, f32)> {
        played
            .iter()
            .enumerate()
            .filter(|(i, _)| (i % HOLD_OUT == HOLD_OUT - 1) == held)
            .flat_map(|(_, g)| g.samples.iter().map(move |s| (s, g.result)))
            .collect()
    };
    let (train, test) = (split(false), split(true));
    let layout = Layout::new(t.geometry(), kinds);
    let base_loss = loss(&test, &vec![0.0; layout.terms()], &layout, scale);
    let mut best = (f64::INFINITY, RIDGES[0]);
    if !test.is_empty() && !train.is_empty() {
        for ridge in RIDGES {
            let theta = fit(&train, &layout, scale, ridge);
            let l = loss(&test, &theta, &layout, scale);
            if l < best.0 {
                best = (l, ridge);
            }
        }
    } else {
        best.0 = base_loss;
    }
    let theta = fit(&all, &layout, scale, best.1);
    let old = t.variant().square_tables();
    let mut tables = SquareTables::new(kinds, String::new());
    for k in 0..kinds {
        let kind = PieceKind::nth(k);
        let old = old.and_then(|o| o.get(kind));
        let part = |p: usize| -> Vec<i32> {
            (0..squares)
                .map(|sq| {
                    #[allow(clippy::cast_possible_truncation)]
                    let learned = layout.term(&theta, p, k * squares + sq).round() as i32;
                    let before = old.map_or(0, |(m, e)| [m, e][p][sq]);
                    (before + learned).clamp(-MAX_TERM, MAX_TERM)
                })
                .collect()
        };
        let (middle, ending) = (part(0), part(1));
        if middle.iter().chain(&ending).any(|&v| v != 0) {
            tables.set(kind, middle, ending);
        }
    }
    Ok(Tuning {
        tables,
        positions,
        results,
        held_out: (base_loss, best.0),
        ridge: best.1,
    })
}

/// What the fit needs of a kept position.
fn sample(
    pos: &Position,
    eval: &Evaluator,
    frames: &[Vec<crate::model::Square>],
    squares: usize,
) -> Sample {
    let mut pieces = Vec::with_capacity(32);
    for (s, list) in pos.plist.iter().enumerate() {
        let sign = if s == 0 { 1.0 } else { -1.0 };
        for &sq in list {
            let kind = pos.cell_kind(pos.board[sq as usize]).index();
            let at = frames[s][sq as usize].index();
            let index = u32::try_from(kind * squares + at).expect("tables fit in memory");
            pieces.push((index, sign));
        }
    }
    let score = eval.evaluate(pos);
    let score = if pos.side_to_move().index() == 0 {
        score
    } else {
        -score
    };
    #[allow(clippy::cast_possible_truncation)]
    Sample {
        pieces,
        ending: eval.ending_share(pos) as f32,
        score: score as f32,
    }
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The logistic's scale per pawn that best predicts the results from the evaluation alone
/// (Newton's method on one variable).
fn fit_scale(rows: &[(&Sample, f32)]) -> f64 {
    let mut k = 1.0;
    for _ in 0..50 {
        let (mut g, mut h) = (0.0, 0.0);
        for (s, y) in rows {
            let x = f64::from(s.score) / 100.0;
            let p = sigmoid(k * x);
            g += (p - f64::from(*y)) * x;
            h += p * (1.0 - p) * x * x;
        }
        if h <= 0.0 {
            break;
        }
        let step = g / h;
        k = (k - step).clamp(0.01, 10.0);
        if step.abs() < 1e-6 {
            break;
        }
    }
    k
}

/// Where each share of a term lies among the fitted parameters: per part (middle game, then
/// ending), the squares' shares per (kind, square), then the ranks' per (kind, rank), then the
/// files' per (kind, file).
struct Layout {
    /// Per (kind, square) index: the indices of its rank's and its file's shares, within a part.
    lines: Vec<[u32; 2]>,
    /// Parameters per part.
    part: usize,
    /// The squares' shares per part: the first `cells` parameters.
    cells: usize,
    /// Squares and ranks of the board.
    squares: usize,
    height: usize,
}

impl Layout {
    fn new(g: crate::model::Geometry, kinds: usize) -> Layout {
        let (width, height) = (usize::from(g.width), usize::from(g.height));
        let squares = g.len();
        let cells = kinds * squares;
        let index = |i: usize| u32::try_from(i).expect("tables fit in memory");
        let lines = (0..cells)
            .map(|i| {
                let (k, sq) = (i / squares, i % squares);
                [
                    index(cells + k * height + sq / width),
                    index(cells + kinds * height + k * width + sq % width),
                ]
            })
            .collect();
        Layout {
            lines,
            part: cells + kinds * (height + width),
            cells,
            squares,
            height,
        }
    }

    /// Shifts each kind's terms in each part so that their mean over the squares its pieces
    /// stood on (weighted by `weight`, per part and (kind, square) index) is zero: the tables
    /// say where a piece stands well, not what it is worth, which is the values' business
    /// (left free, the ranks' shares drift into the material's scale).
    fn centre(&self, theta: &mut [f64], weight: &[Vec<f64>; 2]) {
        for (part, weight) in weight.iter().enumerate() {
            for k in 0..self.cells / self.squares {
                let cells = k * self.squares..(k + 1) * self.squares;
                let total: f64 = weight[cells.clone()].iter().sum();
                if total <= 0.0 {
                    continue;
                }
                let mean = cells
                    .map(|i| weight[i] * self.term(theta, part, i))
                    .sum::<f64>()
                    / total;
                let ranks = part * self.part + self.cells + k * self.height;
                for share in &mut theta[ranks..ranks + self.height] {
                    *share -= mean;
                }
            }
        }
    }

    /// Per kind and part, how each share moves the mean that [`Layout::centre`] keeps at
    /// zero (the squares' own shares only if `own`), and that vector's squared length.
    fn normals(&self, weight: &[Vec<f64>; 2], own: bool) -> Vec<(Vec<(usize, f64)>, f64)> {
        let mut out = Vec::new();
        for (part, weight) in weight.iter().enumerate() {
            let base = part * self.part;
            for k in 0..self.cells / self.squares {
                let cells = k * self.squares..(k + 1) * self.squares;
                let total: f64 = weight[cells.clone()].iter().sum();
                if total <= 0.0 {
                    continue;
                }
                let mut normal = std::collections::BTreeMap::new();
                for i in cells {
                    let w = weight[i] / total;
                    let [rank, file] = self.lines[i];
                    if own {
                        *normal.entry(base + i).or_insert(0.0) += w;
                    }
                    *normal.entry(base + rank as usize).or_insert(0.0) += w;
                    *normal.entry(base + file as usize).or_insert(0.0) += w;
                }
                let normal: Vec<(usize, f64)> = normal.into_iter().collect();
                let length = normal.iter().map(|(_, c)| c * c).sum();
                out.push((normal, length));
            }
        }
        out
    }

    /// Parameters in all.
    fn terms(&self) -> usize {
        2 * self.part
    }

    /// The whole term of (kind, square) index `i` in `part` (0 middle game, 1 ending).
    fn term(&self, theta: &[f64], part: usize, i: usize) -> f64 {
        let base = part * self.part;
        let [rank, file] = self.lines[i];
        theta[base + i] + theta[base + rank as usize] + theta[base + file as usize]
    }
}

/// The score of a sample with terms `theta`, in pawns.
fn score(s: &Sample, theta: &[f64], layout: &Layout) -> f64 {
    let e = f64::from(s.ending);
    let mut z = f64::from(s.score);
    for &(i, sign) in &s.pieces {
        let i = i as usize;
        z +=
            f64::from(sign) * ((1.0 - e) * layout.term(theta, 0, i) + e * layout.term(theta, 1, i));
    }
    z / 100.0
}

/// Mean log loss of the results of `rows` under terms `theta`.
fn loss(rows: &[(&Sample, f32)], theta: &[f64], layout: &Layout, scale: f64) -> f64 {
    let total: f64 = rows
        .iter()
        .map(|(s, y)| {
            let p = sigmoid(scale * score(s, theta, layout)).clamp(1e-9, 1.0 - 1e-9);
            let y = f64::from(*y);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    total / rows.len().max(1) as f64
}

/// Terms (in centipawns) that minimise the log loss of `rows` plus, per share, its ridge
/// times its square in pawns (`ridge` for the squares' own, which `None` leaves out), by
/// Adam's method on the whole set at every step.
fn fit(rows: &[(&Sample, f32)], layout: &Layout, scale: f64, ridge: Option<f64>) -> Vec<f64> {
    let terms = layout.terms();
    let n = rows.len().max(1) as f64;
    let mut theta = vec![0.0; terms];
    let (mut m, mut v) = (vec![0.0; terms], vec![0.0; terms]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-12);
    let mut grad = vec![0.0; terms];
    // How much each (kind, square) stood in the middle game and in the ending.
    let mut weight = [vec![0.0; layout.cells], vec![0.0; layout.cells]];
    for (s, _) in rows {
        let e = f64::from(s.ending);
        for &(i, _) in &s.pieces {
            weight[0][i as usize] += 1.0 - e;
            weight[1][i as usize] += e;
        }
    }
    let normals = layout.normals(&weight, ridge.is_some());
    for step in 1..=STEPS {
        grad.fill(0.0);
        for (s, y) in rows {
            let p = sigmoid(scale * score(s, &theta, layout));
            // d(loss)/d(term) per centipawn of the score.
            let d = (p - f64::from(*y)) * scale / 100.0;
            let e = f64::from(s.ending);
            for &(i, sign) in &s.pieces {
                let i = i as usize;
                let [rank, file] = layout.lines[i];
                for (part, weight) in [(0, 1.0 - e), (layout.part, e)] {
                    let g = d * f64::from(sign) * weight;
                    grad[part + i] += g;
                    grad[part + rank as usize] += g;
                    grad[part + file as usize] += g;
                }
            }
        }
        let frozen = |j: usize| ridge.is_none() && j % layout.part < layout.cells;
        for (j, g) in grad.iter_mut().enumerate() {
            let ridge = if j % layout.part < layout.cells {
                ridge.unwrap_or(0.0)
            } else {
                LINE_RIDGE
            };
            *g = if frozen(j) {
                0.0
            } else {
                (*g + 2.0 * ridge * theta[j] / (100.0 * 100.0)) / n
            };
        }
        // Only along the tables' mean staying zero: Adam scales each share's step by its
        // own, which would otherwise push against the centring without end.
        for (normal, length) in &normals {
            let along: f64 = normal.iter().map(|&(j, c)| c * grad[j]).sum::<f64>() / length;
            for &(j, c) in normal {
                grad[j] -= along * c;
            }
        }
        // Learning rate in centipawns, smaller towards the end.
        let rate = if step < STEPS * 3 / 4 { 2.0 } else { 0.5 };
        for j in (0..terms).filter(|&j| !frozen(j)) {
            let g = grad[j];
            m[j] = b1 * m[j] + (1.0 - b1) * g;
            v[j] = b2 * v[j] + (1.0 - b2) * g * g;
            #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
            let (mh, vh) = (
                m[j] / (1.0 - b1.powi(step as i32)),
                v[j] / (1.0 - b2.powi(step as i32)),
            );
            if vh > 0.0 {
                theta[j] -= rate * mh / (vh.sqrt() + eps);
            }
        }
        layout.centre(&mut theta, &weight);
    }
    theta
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::zobrist::Rng;

    /// Results drawn from a known model of a small board's terms are fitted back to them.
    #[test]
    fn the_fit_recovers_known_terms() {
        let mut rng = Rng::new(11);
        let unit = |rng: &mut Rng| (rng.next() % 1_000_000) as f64 / 1_000_000.0;
        // One kind on a board of 3 x 2: per square a middle-game and an ending term.
        let board = crate::model::Geometry::new(3, 2);
        let layout = Layout::new(board, 1);
        // Each part's terms add up to zero, as the fit keeps them: squares are equally
        // occupied.
        let truth = [
            [80.0, -50.0, 0.0, 10.0, -20.0, -20.0],
            [-20.0, 30.0, 0.0, 60.0, 0.0, -70.0],
        ];
        let scale = 1.2;
        let mut samples = Vec::new();
        let mut results = Vec::new();
        for _ in 0..40_000 {
            let pieces: Vec<(u32, f32)> = (0..6u32)
                .filter_map(|i| match rng.next() % 4 {
                    0 => Some((i, 1.0)),
                    1 => Some((i, -1.0)),
                    _ => None,
                })
                .collect();
            let ending = unit(&mut rng);
            let known: f64 = pieces
                .iter()
                .map(|&(i, sign)| {
                    let i = i as usize;
                    f64::from(sign) * ((1.0 - ending) * truth[0][i] + ending * truth[1][i])
                })
                .sum();
            let base = unit(&mut rng) * 400.0 - 200.0;
            let p = sigmoid(scale * (base + known) / 100.0);
            results.push(if unit(&mut rng) < p { 1.0 } else { 0.0 });
            #[allow(clippy::cast_possible_truncation)]
            samples.push(Sample {
                pieces,
                ending: ending as f32,
                score: base as f32,
            });
        }
        let rows: Vec<(&Sample, f32)> = samples.iter().zip(results).collect();
        let fitted_scale = fit_scale(&rows);
        let theta = fit(&rows, &layout, scale, Some(16.0));
        for (part, terms) in truth.iter().enumerate() {
            for (i, t) in terms.iter().enumerate() {
                let f = layout.term(&theta, part, i);
                assert!(
                    (t - f).abs() < 15.0,
                    "part {part}, square {i}: {t} against {f}"
                );
            }
        }
        // The scale fitted to the evaluation alone is smaller (the terms are noise to it)
        // but of the same order.
        assert!(
            (0.5..=scale + 0.1).contains(&fitted_scale),
            "{fitted_scale}"
        );
        // Fitted terms predict better than none, and better than ranks and files alone,
        // which cannot express these terms.
        let lines_only = fit(&rows, &layout, scale, None);
        let zero = vec![0.0; layout.terms()];
        assert!(loss(&rows, &theta, &layout, scale) < loss(&rows, &lines_only, &layout, scale));
        assert!(loss(&rows, &lines_only, &layout, scale) < loss(&rows, &zero, &layout, scale));
    }

    fn start(file: &str, text: Option<&str>) -> Position {
        let text = text.map_or_else(
            || std::fs::read_to_string(format!("definitions/{file}")).unwrap(),
            str::to_string,
        );
        let variant = crate::load(file, &text).unwrap();
        Position::new(crate::model::Tables::compile(&variant, &[]).unwrap())
    }

    #[test]
    fn games_the_tables_cannot_serve_are_refused() {
        let four = start("gala-xiangqi-four.variant", None);
        assert!(tune(&four, 2, 1, 1, 1).unwrap_err().contains("two sides"));
        let lopsided = start(
            "lopsided.variant",
            Some(
                "variant \"Lopsided\"\nboard 4 x 4\nsides white north, black south\n\
                 piece King K royal\n  move step any\npiece Rook R\n  move slide orthogonal\n\
                 rules\n  checkmate\nsetup \"k3/4/4/KR2\"\n",
            ),
        );
        assert!(tune(&lopsided, 2, 1, 1, 1)
            .unwrap_err()
            .contains("no turned or mirrored copy"));
    }

    /// A short run gives tables the file format carries, the same for the same seed.
    #[test]
    fn a_short_run_writes_tables_that_read_back() {
        let chess = start("chess.variant", None);
        let found = tune(&chess, 6, 1, 3, 2).unwrap();
        assert!(found.positions > 0);
        assert_eq!(found.results.iter().sum::<usize>(), 6);
        let v = chess.tables().variant();
        let back = SquareTables::parse(&found.tables.write(v), v).unwrap();
        assert_eq!(back, found.tables);
        assert!((0..v.pieces().len()).any(|k| back.get(PieceKind::nth(k)).is_some()));
        assert_eq!(tune(&chess, 6, 1, 3, 1).unwrap().tables, found.tables);
    }
}
