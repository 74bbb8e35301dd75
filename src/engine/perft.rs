//! Perft: counting the leaf nodes of the legal move tree, the standard test of move generation.

use super::mv::Move;
use super::position::Position;

/// Counts the legal move sequences of `depth` plies from `pos`.
///
/// The last ply is counted in bulk, without being played. A position where the repetition
/// rule ends the game has no moves, like one where the game is decided; move limits are not
/// applied, as is usual for perft. (A position read from a FEN has no history, so counts too
/// shallow for a repetition agree with programs that ignore the rule.)
///
/// # Examples
/// ```
/// let text = std::fs::read_to_string("definitions/chess.variant").unwrap();
/// let variant = rulebook::load("chess.variant", &text).unwrap();
/// let tables = rulebook::model::Tables::compile(&variant, &[]).unwrap();
/// let mut pos = rulebook::engine::Position::new(tables);
/// assert_eq!(rulebook::engine::perft(&mut pos, 3), 8902);
/// ```
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.repeated_to_end() {
        return 0;
    }
    let mut moves = Vec::with_capacity(64);
    pos.legal_moves_into(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for m in moves {
        pos.make_turn(m);
        nodes += perft(pos, depth - 1);
        pos.unmake();
    }
    nodes
}

/// Perft split by the first move: each legal move with the count below it.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut out = Vec::new();
    perft_divide_each(pos, depth, |m, n, _| out.push((m, n)));
    out
}

/// [`perft_divide`], handing each first move and its count to `each` as soon as it is
/// counted, with the number of first moves (for progress reports).
pub fn perft_divide_each(pos: &mut Position, depth: u32, mut each: impl FnMut(Move, u64, usize)) {
    let depth = depth.max(1);
    if pos.repeated_to_end() {
        return;
    }
    let moves = pos.legal_moves();
    for &m in &moves {
        pos.make_turn(m);
        let n = perft(pos, depth - 1);
        pos.unmake();
        each(m, n, moves.len());
    }
}
