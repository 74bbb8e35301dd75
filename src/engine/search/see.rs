//! Static exchange evaluation: what a capture wins once every piece that can take on its
//! square has done so, least valuable first, each side free to stop. Attacks are the
//! definition's own (riders, lame steppers, hoppers, target rules), read from the board as
//! the exchange changes it, so a rider behind the first capturer, or a hopper whose screen
//! is taken, joins in its turn.

use super::eval::Evaluator;
use crate::engine::mv::{Move, MoveKind};
use crate::engine::position::{Position, WALL};
use crate::model::{Side, Square};

/// The longest exchange followed.
const MAX_SWAPS: usize = 32;

/// The material `m` wins for its mover after the exchange on its square, in centipawns
/// (negative: it loses material). Moves that are not plain captures (en passant, shots,
/// promotions, drops) count what they take at once. A plain move to an empty square, with
/// two sides, takes nothing and may lose its piece there (no more than 0); with more sides
/// it counts 0.
pub(super) fn see(eval: &Evaluator, p: &mut Position, m: &Move) -> i32 {
    let value = |p: &Position, c: u8| -> i32 { eval.capture_value(p.cell_kind(c)) };
    let sq = m.to;
    let victim = p.board[sq.index()];
    if victim == WALL {
        return 0;
    }
    let prize = if victim == 0 { 0 } else { value(p, victim) };
    if !exchanges(m) {
        return prize;
    }
    let mover = p.board[m.from.index()];
    let mover_side = p.cell_side(mover);
    let defender = if victim != 0 {
        p.cell_side(victim)
    } else if p.tables().sides() == 2 {
        p.next_side(mover_side)
    } else {
        return 0;
    };
    // What each capture of the exchange takes, in order; the mover's first.
    let mut taken = [0i32; MAX_SWAPS];
    taken[0] = prize;
    let mut n = 1;
    // The squares changed, with what stood there, to put back.
    let mut saved: [(u16, u8); MAX_SWAPS + 1] = [(0, 0); MAX_SWAPS + 1];
    saved[0] = (sq.raw(), victim);
    saved[1] = (m.from.raw(), mover);
    p.board[sq.index()] = mover;
    p.board[m.from.index()] = 0;
    let mut standing = value(p, mover);
    // The two sides of the exchange take turns, whatever other sides there are.
    let sides = [defender, mover_side];
    while n < MAX_SWAPS {
        let side = sides[(n - 1) % 2];
        let Some((from, worth)) = least_attacker(p, side, sq, &value) else {
            break;
        };
        taken[n] = standing;
        saved[n + 1] = (from.raw(), p.board[from.index()]);
        p.board[sq.index()] = p.board[from.index()];
        p.board[from.index()] = 0;
        standing = worth;
        n += 1;
    }
    for &(s, c) in saved[..=n].iter().rev() {
        p.board[s as usize] = c;
    }
    // Each capture wins what it takes less what the next one, if its side makes it, wins.
    let mut after = 0;
    for &t in taken[..n].iter().rev() {
        after = t - after.max(0);
    }
    after
}

/// Whether `m` loses more than `margin` in the exchange on its square: [`see`]'s answer
/// below `-margin`, found without following the exchange where what the move takes, and
/// what it risks (its own piece), settle it either way.
pub(super) fn loses_more_than(eval: &Evaluator, p: &mut Position, m: &Move, margin: i32) -> bool {
    let victim = p.board[m.to.index()];
    let prize = match victim {
        WALL => return 0 < -margin,
        0 => 0,
        c => eval.capture_value(p.cell_kind(c)),
    };
    if prize < -margin {
        return true;
    }
    if !exchanges(m) {
        return false;
    }
    let risked = eval.capture_value(p.cell_kind(p.board[m.from.index()]));
    if prize - risked >= -margin {
        return false;
    }
    see(eval, p, m) < -margin
}

/// Whether `m` starts an exchange on its square: a plain move of a piece from another
/// square. En passant, shots, promotions and drops count only what they take.
fn exchanges(m: &Move) -> bool {
    m.kind == MoveKind::Normal && m.promotion.is_none() && m.from != m.to
}

/// The least valuable piece of `side` that attacks `sq` as the board stands, with its value.
fn least_attacker(
    p: &Position,
    side: Side,
    sq: Square,
    value: &impl Fn(&Position, u8) -> i32,
) -> Option<(Square, i32)> {
    let mut best: Option<(Square, i32)> = None;
    for &f in &p.plist[side.index()] {
        let c = p.board[f as usize];
        // A piece already drawn into the exchange has left its square.
        if f == sq.raw() || c == 0 || c == WALL || p.cell_side(c) != side {
            continue;
        }
        let v = value(p, c);
        if best.is_some_and(|(_, b)| b <= v) {
            continue;
        }
        let from = Square::at(f);
        if p.attacks_from(from, side, sq) {
            best = Some((from, v));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation::parse_move;
    use crate::engine::shipped_position as position;

    fn see_of(file: &str, fen: &str, mv: &str) -> i32 {
        let mut pos = position(file, fen);
        let eval = Evaluator::new(&pos);
        let m = parse_move(&pos, mv).unwrap();
        let before = pos.fen();
        let score = see(&eval, &mut pos, &m);
        assert_eq!(pos.fen(), before, "the exchange put every piece back");
        score
    }

    #[test]
    fn a_free_piece_is_won_whole() {
        assert_eq!(
            see_of("chess.variant", "4k3/8/8/4p3/8/8/8/4R1K1 w - - 0 1", "e1e5"),
            100
        );
    }

    #[test]
    fn a_defended_pawn_costs_the_rook_that_takes_it() {
        let fen = "4k3/8/3p4/4p3/8/8/8/4R1K1 w - - 0 1";
        assert_eq!(see_of("chess.variant", fen, "e1e5"), 100 - 500);
    }

    /// The rook behind the first one joins once the first has gone: the exchange is even
    /// after the pawn, which is won.
    #[test]
    fn a_rider_behind_the_capturer_joins_in() {
        let fen = "4k3/4r3/8/4p3/8/8/4R3/4R1K1 w - - 0 1";
        assert_eq!(see_of("chess.variant", fen, "e2e5"), 100);
    }

    /// A king may take back only what no one defends.
    #[test]
    fn a_king_takes_back_only_what_no_one_defends() {
        let fen = "4k3/5p2/8/7Q/2B5/8/8/4K3 w - - 0 1";
        assert_eq!(see_of("chess.variant", fen, "h5f7"), 100);
        let fen = "4k3/5p2/8/7Q/8/8/8/4K3 w - - 0 1";
        assert_eq!(see_of("chess.variant", fen, "h5f7"), 100 - 900);
    }

    /// A quiet move risks its piece where the enemy attacks the square: it loses what the
    /// exchange there costs, and nothing where the square is safe.
    #[test]
    fn a_quiet_move_loses_what_the_square_costs() {
        let fen = "4k3/8/3p4/8/8/8/8/4R1K1 w - - 0 1";
        assert_eq!(see_of("chess.variant", fen, "e1e5"), -500);
        assert_eq!(see_of("chess.variant", fen, "e1e4"), 0);
        // Defended by the king, a knight offered to a pawn still costs the knight for a pawn.
        let fen = "4k3/8/3p4/8/5K2/8/8/6N1 w - - 0 1";
        assert_eq!(see_of("chess.variant", fen, "g1e2"), 0);
        let fen = "4k3/8/3p4/8/2N2K2/8/8/8 w - - 0 1";
        assert_eq!(see_of("chess.variant", fen, "c4e5"), 100 - 300);
    }

    /// The shortcut answers as the whole exchange would, whatever the margin.
    #[test]
    fn the_shortcut_agrees_with_the_exchange() {
        let cases = [
            (
                "chess.variant",
                "4k3/8/3p4/4p3/8/8/8/4R1K1 w - - 0 1",
                "e1e5",
            ),
            ("chess.variant", "4k3/8/3p4/8/8/8/8/4R1K1 w - - 0 1", "e1e5"),
            ("chess.variant", "4k3/8/3p4/8/8/8/8/4R1K1 w - - 0 1", "e1e4"),
            ("chess.variant", "4k3/8/3p4/8/2N2K2/8/8/8 w - - 0 1", "c4e5"),
            ("chess.variant", "4k3/5p2/8/7Q/8/8/8/4K3 w - - 0 1", "h5f7"),
            ("chess.variant", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"),
            (
                "xiangqi.variant",
                "4k4/9/4c4/4p4/9/4n4/9/9/4R4/3K5 w - - 0 1",
                "e2e5",
            ),
        ];
        for (file, fen, mv) in cases {
            let mut pos = position(file, fen);
            let eval = Evaluator::new(&pos);
            let m = parse_move(&pos, mv).unwrap();
            let score = see(&eval, &mut pos, &m);
            for margin in [0, 50, 99, 100, 200, 299, 300, 500, 800, 1000] {
                assert_eq!(
                    loses_more_than(&eval, &mut pos, &m, margin),
                    score < -margin,
                    "{mv} in {fen}, margin {margin}"
                );
            }
        }
    }

    /// A cannon defends over its screen: the chariot that takes the horse is lost to it.
    #[test]
    fn a_hopper_defends_over_its_screen() {
        let fen = "4k4/9/4c4/4p4/9/4n4/9/9/4R4/3K5 w - - 0 1";
        assert_eq!(see_of("xiangqi.variant", fen, "e2e5"), 400 - 900);
        // Without the screen the cannon does not reach the horse.
        let fen = "4k4/9/4c4/9/9/4n4/9/9/4R4/3K5 w - - 0 1";
        assert_eq!(see_of("xiangqi.variant", fen, "e2e5"), 400);
    }
}
