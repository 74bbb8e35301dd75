//! Moves typed one after another (whitespace separated, in any notation `parse_move` reads)
//! in one of the shipped games (the first byte picks it), from its start or from the
//! position of a first line `[FEN "..."]`. Each move that reads is played; one that does not
//! is explained as `replay` explains it. The position reached is checked
//! ([`rulebook_fuzz::check_position_with`], without the notation round trips), and undoing every move must restore the start.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rulebook::engine::{notation, record};

fuzz_target!(|data: &[u8]| {
    let Some((game, text)) = rulebook_fuzz::pick(data) else {
        return;
    };
    let (mut pos, rest) = rulebook_fuzz::start_and_rest(game, &text);
    let start = pos.fen();
    let mut played = 0;
    for word in rest.split_whitespace().take(200) {
        let _ = notation::parse_coord(&pos, word);
        match notation::parse_move(&pos, word) {
            Ok(m) => {
                assert!(
                    pos.legal_moves().contains(&m),
                    "parse_move returned an illegal move"
                );
                let _ = notation::san(&pos, &m);
                let _ = notation::coord(&pos, &m);
                pos.play(m);
                played += 1;
            }
            Err(e) => {
                let _ = e.to_string();
                let _ = notation::explain_from_square(&pos, word);
                if let notation::ParseMoveError::Illegal { why, .. } = &e {
                    let _ = record::why_not_legal(&pos, word, why);
                }
            }
        }
    }
    rulebook_fuzz::check_position_with(&pos, false);
    for _ in 0..played {
        pos.undo_move();
    }
    assert_eq!(pos.fen(), start, "undoing every move restores the start");
});
