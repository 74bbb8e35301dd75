//! Properties every position of every shipped definition keeps, checked along random games.

use crate::common;

use rulebook::engine::{notation, Position};
use rulebook::model::Tables;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn definitions() -> Vec<(String, Position)> {
    let mut out = Vec::new();
    for path in common::definition_paths() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        // By its path, so that a base it names is found beside it.
        let variant = rulebook::load(&path.display().to_string(), &text)
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        out.push((
            name.clone(),
            Position::new(Tables::compile(&variant, &[]).unwrap()),
        ));
        // Each option flipped on its own: options change setups and moves.
        for o in variant.options() {
            let flipped = [(o.name.clone(), !o.default)];
            out.push((
                format!(
                    "{name} with {}={}",
                    o.name,
                    if o.default { "off" } else { "on" }
                ),
                Position::new(Tables::compile(&variant, &flipped).unwrap()),
            ));
        }
    }
    out
}

#[test]
fn random_games_keep_every_invariant() {
    for (name, start) in definitions() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        for game in 0..4 {
            let mut pos = start.clone();
            for ply in 0..100 {
                let at = format!("{name} game {game} ply {ply} {}", pos.fen());
                // FEN round trip.
                let again = pos
                    .with_fen(&pos.fen())
                    .unwrap_or_else(|e| panic!("{at}: {e}"));
                assert_eq!(again.fen(), pos.fen(), "{at}");
                assert_eq!(
                    again.hash(),
                    pos.hash(),
                    "{at}: hash differs after a FEN round trip"
                );
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                for m in &moves {
                    // Every move prints and reads back, in both notations.
                    let c = notation::coord(&pos, m);
                    assert_eq!(
                        notation::parse_move(&pos, &c).as_ref(),
                        Ok(m),
                        "{at}: coordinate {c}"
                    );
                    let s = notation::san(&pos, m);
                    assert_eq!(
                        notation::parse_move(&pos, &s).as_ref(),
                        Ok(m),
                        "{at}: san {s}"
                    );
                }
                let mover = pos.side_to_move();
                if pos.tables().rules().checkmate {
                    // Legality skips the trial of moves that cannot expose a royal: none may.
                    for &m in &moves {
                        let c = notation::coord(&pos, &m);
                        pos.play(m);
                        assert!(
                            pos.outcome().is_some() || !pos.royal_exposed(mover),
                            "{at}: the legal move {c} left a royal exposed"
                        );
                        pos.undo_move();
                    }
                }
                let m = moves[(rng.next() % moves.len() as u64) as usize];
                let before = pos.fen();
                let hash = pos.hash();
                pos.play(m);
                if pos.tables().rules().checkmate {
                    assert!(
                        !pos.royal_exposed(mover),
                        "{at}: a legal move left a royal exposed"
                    );
                }
                pos.undo_move();
                assert_eq!(pos.fen(), before, "{at}: undo did not restore");
                assert_eq!(pos.hash(), hash, "{at}: undo did not restore the hash");
                pos.play(m);
            }
        }
    }
}

#[test]
fn edited_fens_are_refused_or_handled() {
    const PIECES: &[u8] = b"KkQqRrBbNnPpGgSsLlCcAaOoIiHhEeMm+~[]/-0123456789 wb";
    for (name, start) in definitions() {
        let mut rng = Rng(0x0bad_f00d_dead_beef);
        let fen = start.fen();
        for _ in 0..400 {
            let mut bytes = fen.clone().into_bytes();
            for _ in 0..1 + rng.next() % 3 {
                let at = (rng.next() % (bytes.len() as u64 + 1)) as usize;
                match rng.next() % 3 {
                    0 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    1 if at < bytes.len() => {
                        bytes[at] = PIECES[(rng.next() % PIECES.len() as u64) as usize]
                    }
                    _ => bytes.insert(at, PIECES[(rng.next() % PIECES.len() as u64) as usize]),
                }
            }
            let text = String::from_utf8_lossy(&bytes).into_owned();
            // A refusal is one line; an accepted position must survive move generation.
            match start.with_fen(&text) {
                Err(e) => assert!(!e.to_string().contains('\n'), "{name}: {text}"),
                Ok(mut pos) => {
                    let _ = rulebook::engine::perft(&mut pos, 2);
                    let _ = pos.outcome();
                    assert_eq!(
                        pos.with_fen(&pos.fen()).map(|p| p.fen()),
                        Ok(pos.fen()),
                        "{name}: {text}"
                    );
                }
            }
        }
    }
}
