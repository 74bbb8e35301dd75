//! What Betza atoms mean: each atom read by the syntax (`crate::syntax::betza`) becomes
//! patterns of legs, so that authors can write movement the way chess-variant pages describe it.
//!
//! The atoms `W F D N A H C Z G` are one leap each; `K` is `WF`, `R` `WW`, `B` `FF`, `Q` `RB`; a
//! doubled leaper is its rider (`NN`), and a range limits a rider's distance (`R4`, `W2`). Before
//! an atom: `m` (move only), `c` (capture only), `p` (a rider that must hop exactly one screen,
//! as the Xiangqi cannon captures), `g` (the same, landing right after the screen: `gQ` is
//! the grasshopper), `n` (lame: `nN` steps orthogonally then outward as the
//! Xiangqi horse; `nA` and `nD` step twice), and directions relative to the mover: `f b l r`
//! (forward, backward, left, right), `s` (`lr`) and `v` (`fb`). Several direction groups unite
//! (`fsR`: forward and sideways). On diagonal atoms a pair such as `fl` is one diagonal; on
//! oblique atoms (`N C Z`) `ff`/`bb` are the two narrow jumps that way, `ll`/`rr` and `fs`/`bs`
//! the wide ones, and a pair such as `fl` the two jumps in that quarter.

use crate::model::betza::{all_vectors, groups, leap, selected};
use crate::model::{Dirs, Leg, LegKind, Mode};
use crate::syntax::{ast::BetzaAtom, Span};

/// One pattern read from Betza: its legs and its mode.
pub(super) type BetzaPattern = (Vec<Leg>, Mode);

/// Why atoms have no meaning: where, and what is wrong.
pub(super) type BetzaError = (Span, String);

/// One character of `span`, for pointing at a letter.
fn first_char(span: Span) -> Span {
    Span::new(span.start, (span.start + 1).min(span.end.max(span.start)))
}

/// The patterns the atoms stand for, in order.
pub(super) fn patterns(atoms: &[BetzaAtom]) -> Result<Vec<BetzaPattern>, BetzaError> {
    let mut out = Vec::new();
    for a in atoms {
        let here = first_char(a.span);
        let atom = a.letter.node;
        // Compound atoms stand for several simple ones.
        let (parts, mut rider): (Vec<char>, bool) = match atom {
            'K' => (vec!['W', 'F'], false),
            'R' => (vec!['W'], true),
            'B' => (vec!['F'], true),
            'Q' => (vec!['W', 'F'], true),
            a => (vec![a], false),
        };
        rider |= a.doubled;
        let mut max = None;
        if let Some(range) = &a.range {
            match range.node.parse::<u8>() {
                Ok(v) if (1..=26).contains(&v) => {
                    // `W2`: a leaper with a range is a short rider.
                    rider = true;
                    max = Some(v);
                }
                _ => {
                    return Err((
                        first_char(range.span),
                        format!("range `{}` must be from 1 to 26", range.node),
                    ))
                }
            }
        }
        if a.hop.is_some() && !rider {
            return Err((
                here,
                "`p` (hop over a screen) needs a rider such as `R` or `NN`".into(),
            ));
        }
        let mode = match a.move_only.as_ref().map(|m| m.node) {
            None => Mode::Both,
            Some(true) => Mode::MoveOnly,
            Some(false) => Mode::CaptureOnly,
        };
        for part in parts {
            let base = leap(part).expect("compound atoms are made of leapers");
            let diagonal = base.0 == base.1;
            let oblique = base.0 != base.1 && base.1 != 0;
            let mut vectors = all_vectors(base);
            if !a.dirs.is_empty() {
                let gs = groups(&a.dirs, diagonal, oblique);
                vectors.retain(|v| gs.iter().any(|g| selected(g, *v, oblique)));
                if vectors.is_empty() {
                    // A compound atom may leave one of its parts with no direction (`fK`'s
                    // `W` part keeps forward; `flK`'s keeps none): only its other part moves.
                    continue;
                }
            }
            let legs = if a.lame.is_some() {
                lame_legs(part, atom, &a.dirs, &vectors).map_err(|why| (here, why))?
            } else {
                let kind = match (rider, a.hop.is_some()) {
                    (false, _) => LegKind::Step,
                    (true, false) => LegKind::Slide { max },
                    (true, true) => LegKind::Hop {
                        max,
                        just_beyond: a.just_beyond,
                    },
                };
                vec![Leg::new(kind, Dirs::Vectors(vectors))]
            };
            out.push((legs, mode));
        }
    }
    Ok(out)
}

/// The legs of a lame leaper: steps whose squares must be empty. `nD`, `nH`, `nA`, `nG` step
/// two or three times the same way; `nN` and `nZ` step orthogonally, then once or twice along
/// an outward diagonal (the Xiangqi horse, the Janggi elephant).
fn lame_legs(part: char, atom: char, dirs: &str, vectors: &[(i8, i8)]) -> Result<Vec<Leg>, String> {
    match part {
        // Directions filter the final squares, which the legs cannot express exactly.
        'N' | 'Z' if !dirs.is_empty() => Err(format!(
            "directions on `n{part}` are not supported; write the legs with `then`"
        )),
        'N' | 'Z' => {
            let mut legs = vec![
                Leg::new(
                    LegKind::Step,
                    Dirs::Vectors(vec![(0, 1), (1, 0), (0, -1), (-1, 0)]),
                ),
                Leg::new(LegKind::Step, Dirs::Outward),
            ];
            if part == 'Z' {
                legs.push(Leg::new(LegKind::Step, Dirs::Same));
            }
            Ok(legs)
        }
        'A' | 'D' | 'G' | 'H' => {
            let unit: Vec<(i8, i8)> = vectors
                .iter()
                .map(|&(x, y)| (x.signum(), y.signum()))
                .collect();
            let mut legs = vec![
                Leg::new(LegKind::Step, Dirs::Vectors(unit)),
                Leg::new(LegKind::Step, Dirs::Same),
            ];
            if matches!(part, 'G' | 'H') {
                legs.push(Leg::new(LegKind::Step, Dirs::Same));
            }
            Ok(legs)
        }
        _ => Err(format!(
            "`n` (lame) is read for `N`, `Z`, `A`, `D`, `G` and `H`, not `{atom}`"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `text` as the syntax does, then gives it meaning; errors as offsets in the text.
    fn parse(text: &str) -> Result<Vec<BetzaPattern>, (usize, String)> {
        let atoms = crate::syntax::read_betza(text, Span::new(0, text.len()))
            .map_err(|e| (e.at.start, e.why))?;
        patterns(&atoms).map_err(|(span, why)| (span.start, why))
    }

    /// Each pattern's first-leg vectors (sorted), mode and leg kind.
    type Read = Vec<(Vec<(i8, i8)>, Mode, LegKind)>;

    fn vectors(text: &str) -> Read {
        parse(text)
            .unwrap()
            .into_iter()
            .map(|(legs, mode)| match &legs[0].arms[0].dirs {
                Dirs::Vectors(v) => {
                    let mut v = v.clone();
                    v.sort();
                    (v, mode, legs[0].kind)
                }
                _ => unreachable!(),
            })
            .collect()
    }

    #[test]
    fn directions_select_the_expected_vectors() {
        assert_eq!(vectors("fW")[0].0, vec![(0, 1)]);
        assert_eq!(vectors("vW")[0].0, vec![(0, -1), (0, 1)]);
        assert_eq!(vectors("fF")[0].0, vec![(-1, 1), (1, 1)]);
        assert_eq!(vectors("flF")[0].0, vec![(-1, 1)]);
        assert_eq!(vectors("ffN")[0].0, vec![(-1, 2), (1, 2)]);
        assert_eq!(vectors("fN")[0].0, vec![(-2, 1), (-1, 2), (1, 2), (2, 1)]);
        assert_eq!(vectors("fsR")[0].0, vec![(-1, 0), (0, 1), (1, 0)]);
        assert_eq!(vectors("N")[0].0.len(), 8);
    }

    #[test]
    fn modes_riders_and_hoppers() {
        let cannon = vectors("mRcpR");
        assert_eq!(cannon[0].1, Mode::MoveOnly);
        assert_eq!(cannon[0].2, LegKind::Slide { max: None });
        assert_eq!(cannon[1].1, Mode::CaptureOnly);
        assert_eq!(
            cannon[1].2,
            LegKind::Hop {
                max: None,
                just_beyond: false
            }
        );
        // `Q` is `RB`: two patterns, each a hop that lands just beyond.
        let grasshopper = vectors("gQ");
        assert_eq!(grasshopper.len(), 2);
        for pattern in &grasshopper {
            assert_eq!(
                pattern.2,
                LegKind::Hop {
                    max: None,
                    just_beyond: true
                }
            );
        }
        assert_eq!(vectors("NN")[0].2, LegKind::Slide { max: None });
        assert_eq!(vectors("R4")[0].2, LegKind::Slide { max: Some(4) });
        assert_eq!(vectors("Q").len(), 2);
        assert_eq!(
            vectors("fmWfcF").iter().map(|v| v.1).collect::<Vec<_>>(),
            vec![Mode::MoveOnly, Mode::CaptureOnly]
        );
    }

    #[test]
    fn lame_pieces_are_two_legs() {
        let horse = parse("nN").unwrap();
        assert_eq!(horse[0].0.len(), 2);
        assert_eq!(horse[0].0[1].arms[0].dirs, Dirs::Outward);
        let elephant = parse("nA").unwrap();
        assert_eq!(elephant[0].0[1].arms[0].dirs, Dirs::Same);
    }

    #[test]
    fn errors_point_at_the_problem() {
        assert_eq!(parse("fX").unwrap_err().0, 1);
        assert_eq!(parse("mcW").unwrap_err().0, 1);
        assert_eq!(parse("pN").unwrap_err().0, 0);
        assert_eq!(parse("fm").unwrap_err().0, 0);
        assert_eq!(parse("R99").unwrap_err().0, 1);
        assert!(parse("").is_err());
    }
}
