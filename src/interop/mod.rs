//! Exchange with other programs' definition formats: Fairy-Stockfish's `variants.ini`, read
//! into Rulebook definitions and written from them ([`fsf`]).

pub mod fsf;
