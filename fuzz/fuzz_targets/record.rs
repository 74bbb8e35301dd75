//! A game record replayed as `rulebook replay` replays it, in one of the shipped games (the
//! first byte picks it), from its start or from the position of a first line `[FEN "..."]`.
//! A record that replays is described and its position checked
//! ([`rulebook_fuzz::check_position`]); its moves written back in SAN must replay to the same
//! position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rulebook::engine::record;

fuzz_target!(|data: &[u8]| {
    let Some((game, text)) = rulebook_fuzz::pick(data) else {
        return;
    };
    let (start, rest) = rulebook_fuzz::start_and_rest(game, &text);
    let _ = record::tokens(rest);
    match record::replay(&start, rest) {
        Err(e) => {
            let _ = e.to_string();
        }
        Ok(r) => {
            if let Some(o) = &r.outcome {
                let _ = record::describe(&r.position, o);
            }
            rulebook_fuzz::check_position(&r.position);
            let sans: Vec<&str> = r.plies.iter().map(|p| p.san.as_str()).collect();
            let again = record::replay(&start, &sans.join(" "))
                .unwrap_or_else(|e| panic!("the record written back in SAN does not replay: {e}"));
            assert_eq!(
                again.position.fen(),
                r.position.fen(),
                "SAN replay reaches another position"
            );
        }
    }
});
