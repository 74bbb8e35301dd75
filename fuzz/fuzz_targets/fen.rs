//! A FEN read for one of the shipped games (the first byte picks it): refused in one line,
//! or accepted and then checked ([`rulebook_fuzz::check_position`]: FEN round trip, every
//! legal move printed, read back, played and undone), drawn, and counted two plies deep.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((game, text)) = rulebook_fuzz::pick(data) else {
        return;
    };
    match game.start().with_fen(&text) {
        Err(e) => assert!(
            !e.to_string().contains('\n'),
            "a FEN refusal is one line: {e}"
        ),
        Ok(mut pos) => {
            rulebook_fuzz::check_position(&pos);
            rulebook_fuzz::render_position(&pos);
            if pos.legal_moves().len() <= 80 {
                let _ = rulebook::engine::perft(&mut pos, 2);
            }
        }
    }
});
