//! XBoard (CECP) commands, one a line, sent to the engine playing one of the shipped games
//! (the first byte picks it). The input is rewritten by [`rulebook_fuzz::xboard_input`] first
//! so that every search stops at depth 2 or after about 10 ms: the target looks for panics and hangs in reading
//! commands, not in searching.
#![no_main]

use std::sync::{Arc, Mutex};

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((game, text)) = rulebook_fuzz::pick(data) else {
        return;
    };
    let input = rulebook_fuzz::xboard_input(&text);
    let out: rulebook::protocol::Out = Arc::new(Mutex::new(Box::new(std::io::sink())));
    // Boards larger than 16 x 16 are refused with an error: not a finding.
    let _ = rulebook::protocol::xboard::run(
        game.variant.clone(),
        game.options.clone(),
        std::io::Cursor::new(input.into_bytes()),
        out,
    );
});
