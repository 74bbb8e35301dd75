//! Moves written in Betza notation behave exactly like the same moves written as legs: Chess
//! and Xiangqi with Betza pieces reach the published perft counts.

mod common;
use rulebook::engine::{perft, Position};

fn fixture(name: &str) -> Position {
    common::start_of(&format!("tests/fixtures/valid/pieces/{name}"))
}

#[test]
fn chess_in_betza_counts_like_chess() {
    assert_eq!(perft(&mut fixture("betza_chess.variant"), 4), 197_281);
    let kiwipete = fixture("betza_chess.variant")
        .with_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
        .unwrap();
    assert_eq!(perft(&mut kiwipete.clone(), 3), 97_862);
}

#[test]
fn xiangqi_in_betza_counts_like_xiangqi() {
    assert_eq!(perft(&mut fixture("betza_xiangqi.variant"), 3), 79_666);
}
