//! UCI commands, one a line, sent to the engine playing one of the shipped games (the first
//! byte picks it). The input is rewritten by [`rulebook_fuzz::uci_input`] first so that no
//! search goes deeper than 2 plies or 1000 nodes, no `go perft` deeper than 1, no hash table is
//! larger than 16 MB and at most 3 `setoption` lines are read: the target looks
//! for panics and hangs in reading commands, not in searching.
#![no_main]

use std::sync::{Arc, Mutex};

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((game, text)) = rulebook_fuzz::pick(data) else {
        return;
    };
    let input = rulebook_fuzz::uci_input(&text);
    let out: rulebook::protocol::Out = Arc::new(Mutex::new(Box::new(std::io::sink())));
    rulebook::protocol::uci::run(
        game.variant.clone(),
        game.options.clone(),
        std::io::Cursor::new(input.into_bytes()),
        out,
    );
});
