//! The integration tests, one binary: each module was a test file of its own, and sharing one
//! binary means the library is linked once after an edit, not once per file.

mod api;
mod betza;
mod chu_shogi;
mod cli;
mod common;
mod constructs;
mod deep;
mod diagnostics;
mod diagrams;
mod fen;
mod fmt;
mod fsf;
mod gala;
mod gala_four;
mod gallery;
mod gi_qi_game;
mod inherit;
mod invariants;
mod language;
mod limits;
mod load;
mod lsp;
mod outcome;
mod perft;
mod protocols;
mod replay;
mod robustness;
mod search;
mod search_limits;
mod seed_diagrams;
mod sides;
mod values;
mod zone_constructs;
