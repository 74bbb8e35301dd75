//! The zone-driven constructs, each alone on a small purpose-made board: partitions and
//! `stay within`, directions per zone, `inward`, `into`, bent slides and hops, shots and
//! capture predicates, setups per option. Every target list was worked out by hand.

use crate::common;
use common::sorted;
use rulebook::engine::{notation, Position};
use rulebook::model::Tables;

fn compile(text: &str, options: &[&str]) -> Position {
    let variant = rulebook::load("test.variant", text).unwrap_or_else(|e| panic!("{e:?}"));
    let options: Vec<(String, bool)> = options.iter().map(|o| (o.to_string(), true)).collect();
    Position::new(Tables::compile(&variant, &options).unwrap())
}

/// The destinations of the legal moves from `from` in `fen`, sorted; every move once.
fn targets(start: &Position, fen: &str, from: &str) -> Vec<String> {
    let pos = start.with_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let g = pos.tables().geometry();
    let sq = g.parse(from).unwrap();
    let moves: Vec<_> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.from == sq)
        .collect();
    let mut out: Vec<String> = moves.iter().map(|m| g.name(m.to).to_string()).collect();
    out.sort();
    let n = out.len();
    out.dedup();
    assert_eq!(n, out.len(), "{fen}: a move from {from} listed twice");
    out
}

/// A 6x6 board: a lane across ranks 3-4, four quarters.
const QUARTERS: &str = r#"
variant "Quarters"
board 6 x 6
sides white north, black south
option wide off "the wide setup"

zone lane = ranks 3-4, drawn "="
zone field = not lane
partition quarters = a1-c3 | d1-f3 | a4-c6 | d4-f6

piece King K royal
  move step any
  stay within quarters

piece Walker W
  move step orthogonal in field, diagonal in lane

piece Climber C
  move step inward orthogonal

piece Diver D
  move step any, into lane

piece Avoider O
  move step any, not into lane

piece Jumper J
  move step orthogonal then step outward in field, same in lane

rules
  extinction

setup
  k.....
  ......
  ......
  ......
  ......
  .....K

if wide: setup
  k....k
  ......
  ......
  ......
  ......
  K....K
"#;

#[test]
fn stay_within_keeps_a_piece_in_its_part_even_across_a_corner() {
    let p = compile(QUARTERS, &[]);
    // From c3, the corner of its quarter: d4 touches it only diagonally, and is refused.
    assert_eq!(
        targets(&p, "k5/6/6/6/6/5K w - - 0 1", "f1"),
        sorted(&["e1", "e2", "f2"])
    );
    assert_eq!(
        targets(&p, "k5/6/6/2K3/6/6 w - - 0 1", "c3"),
        sorted(&["b2", "c2", "b3"])
    );
    // Another part is another prison: the same king on d4 stays in d4-f6.
    assert_eq!(
        targets(&p, "k5/6/3K2/6/6/6 w - - 0 1", "d4"),
        sorted(&["e4", "d5", "e5"])
    );
}

#[test]
fn directions_follow_the_zone_the_piece_stands_in() {
    let p = compile(QUARTERS, &[]);
    // b2 is in the field: orthogonal steps.
    assert_eq!(
        targets(&p, "k5/6/6/6/1W4/5K w - - 0 1", "b2"),
        sorted(&["b1", "a2", "c2", "b3"])
    );
    // c3 is in the lane: diagonal steps.
    assert_eq!(
        targets(&p, "k5/6/6/2W3/6/5K w - - 0 1", "c3"),
        sorted(&["b2", "d2", "b4", "d4"])
    );
}

#[test]
fn inward_points_to_the_centre_for_either_side() {
    let p = compile(QUARTERS, &[]);
    // The centre lines run between files c and d and between ranks 3 and 4.
    assert_eq!(
        targets(&p, "k5/6/6/6/1C4/5K w - - 0 1", "b2"),
        sorted(&["c2", "b3"])
    );
    assert_eq!(
        targets(&p, "k5/4C1/6/6/6/5K w - - 0 1", "e5"),
        sorted(&["d5", "e4"])
    );
    // Inward is the board's, not the side's: black's climber on b2 goes the same way.
    assert_eq!(
        targets(&p, "k5/6/6/6/1c4/5K b - - 0 1", "b2"),
        sorted(&["c2", "b3"])
    );
}

#[test]
fn into_and_not_into_restrict_where_a_move_ends() {
    let p = compile(QUARTERS, &[]);
    assert_eq!(
        targets(&p, "k5/6/6/6/1D4/5K w - - 0 1", "b2"),
        sorted(&["a3", "b3", "c3"])
    );
    assert_eq!(
        targets(&p, "k5/6/6/6/1O4/5K w - - 0 1", "b2"),
        sorted(&["a1", "b1", "c1", "a2", "c2"])
    );
}

#[test]
fn a_later_leg_takes_its_directions_from_the_square_the_first_reached() {
    let p = compile(QUARTERS, &[]);
    // c2 up reaches c3 (lane): straight on to c4. Sideways reaches b2 or d2 (field): the two
    // outward diagonals. Down reaches c1 (field), whose outward diagonals leave the board.
    assert_eq!(
        targets(&p, "k5/6/6/6/2J3/5K w - - 0 1", "c2"),
        sorted(&["c4", "a1", "a3", "e1", "e3"])
    );
    // The first leg must end on an empty square.
    assert_eq!(
        targets(&p, "k5/6/6/2w3/2J3/5K w - - 0 1", "c2"),
        sorted(&["a1", "a3", "e1", "e3"])
    );
}

#[test]
fn a_setup_may_depend_on_an_option() {
    assert_eq!(compile(QUARTERS, &[]).fen(), "k5/6/6/6/6/5K w - - 0 1");
    assert_eq!(
        compile(QUARTERS, &["wide"]).fen(),
        "k4k/6/6/6/6/K4K w - - 0 1"
    );
}

/// A 7x7 board crossed by a one-rank lane: bent sliders turn on it and turn back after it.
const LANE: &str = r#"
variant "Lane"
board 7 x 7
sides white north, black south

zone lane = rank 4, drawn "="
zone field = not lane
partition halves = ranks 1-3 | ranks 4-7

piece King K royal
  move step any
  move slide orthogonal, shot, capturing royal
  stay within halves

piece Rook R
  move bent slide orthogonal in field, diagonal in lane

piece Cannon C
  move bent slide orthogonal in field, diagonal in lane, move-only
  move bent hop orthogonal in field, diagonal in lane, capture-only

piece Pawn P
  move step forward

piece Hunter H
  move slide diagonal, capturing Pawn

rules
  extinction

setup
  ...k...
  .......
  .......
  .......
  .......
  .......
  ...K...
"#;

#[test]
fn a_bent_slide_turns_either_way_once_then_reuses_its_directions() {
    let p = compile(LANE, &[]);
    // Up from d2: d3, then d4 on the lane, entered by the orthogonal step; there either
    // outward diagonal; back in the field at e5 or c5 the path reuses its field direction
    // (up), so f5 and g5 (a second outward turn) are not reached.
    assert_eq!(
        targets(&p, "k6/7/7/7/7/3R3/K6 w - - 0 1", "d2"),
        sorted(&[
            "d3", "d4", "e5", "e6", "e7", "c5", "c6", "c7", "d1", "e2", "f2", "g2", "c2", "b2",
            "a2",
        ])
    );
    // From the lane it starts diagonally and turns to either orthogonal part on leaving it.
    assert_eq!(
        targets(&p, "k6/7/7/3R3/7/7/K6 w - - 0 1", "d4"),
        sorted(&[
            "e5", "f5", "g5", "e6", "e7", "e3", "f3", "g3", "e2", "e1", "c5", "b5", "a5", "c6",
            "c7", "c3", "b3", "a3", "c2", "c1",
        ])
    );
}

#[test]
fn a_bent_slide_stops_at_the_first_piece_on_its_branch() {
    let p = compile(LANE, &[]);
    // An enemy on e6 is taken and ends that branch; the other branch goes on.
    assert_eq!(
        targets(&p, "k6/4p2/7/7/7/3R3/K6 w - - 0 1", "d2"),
        sorted(&[
            "d3", "d4", "e5", "e6", "c5", "c6", "c7", "d1", "e2", "f2", "g2", "c2", "b2", "a2",
        ])
    );
    // A piece on the shared part blocks both branches.
    assert_eq!(
        targets(&p, "k6/7/7/3P3/7/3R3/K6 w - - 0 1", "d2"),
        sorted(&["d3", "d1", "e2", "f2", "g2", "c2", "b2", "a2"])
    );
}

#[test]
fn a_bent_hop_finds_its_screen_before_on_or_after_the_bend() {
    let p = compile(LANE, &[]);
    let captures = |fen: &str| -> Vec<String> {
        let pos = p.with_fen(fen).unwrap();
        let g = pos.tables().geometry();
        let mut out: Vec<String> = pos
            .legal_moves()
            .iter()
            .filter(|m| g.name(m.from).to_string() == "d2" && pos.piece_at(m.to).is_some())
            .map(|m| g.name(m.to).to_string())
            .collect();
        out.sort();
        out
    };
    // Screen before the bend (d3): both branches beyond it capture.
    assert_eq!(
        captures("k1p4/4p2/7/7/3P3/3C3/K6 w - - 0 1"),
        sorted(&["c7", "e6"])
    );
    // Screen on the bend square (d4).
    assert_eq!(
        captures("k6/2p4/4p2/3P3/7/3C3/K6 w - - 0 1"),
        sorted(&["c6", "e5"])
    );
    // Screen after the bend (e5): only that branch has one; c6 alone is a screen with
    // nothing behind it.
    assert_eq!(
        captures("k3p2/2p4/4P2/7/7/3C3/K6 w - - 0 1"),
        sorted(&["e7"])
    );
}

#[test]
fn a_shot_captures_a_royal_without_moving() {
    let p = compile(LANE, &[]);
    let pos = p.with_fen("3k3/7/7/7/7/7/p2K3 w - - 0 1").unwrap();
    let g = pos.tables().geometry();
    let shots: Vec<_> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.is_shot())
        .collect();
    // Up the d-file to the king on d7, past the halves the king may not leave; the pawn on
    // a1 is not royal.
    assert_eq!(shots.len(), 1);
    let shot = shots[0];
    assert_eq!(
        (g.name(shot.from).to_string(), g.name(shot.to).to_string()),
        ("d1".to_string(), "d7".to_string())
    );
    assert_eq!(notation::coord(&pos, &shot), "d1d7d1");
    assert_eq!(notation::san(&pos, &shot), "K@xd7");
    assert_eq!(notation::parse_move(&pos, "d1d7d1"), Ok(shot));
    assert_eq!(notation::parse_move(&pos, "K@xd7"), Ok(shot));
    // The shooter stays; the royal is gone and with it the game.
    let mut after = pos.clone();
    after.play(shot);
    assert_eq!(after.fen(), "7/7/7/7/7/7/p2K3 b - - 0 1");
    assert!(after.outcome().is_some_and(|o| o.winner().is_some()));
    after.undo_move();
    assert_eq!(after.fen(), pos.fen());
    // The first piece met blocks the line.
    let blocked = p.with_fen("3k3/7/7/3P3/7/7/p2K3 w - - 0 1").unwrap();
    assert!(!blocked.legal_moves().iter().any(|m| m.is_shot()));
}

#[test]
fn capturing_names_what_a_pattern_may_take() {
    let p = compile(LANE, &[]);
    // The hunter takes pawns only: a rook on its line blocks it and stays.
    assert_eq!(
        targets(&p, "3k3/7/7/7/2r4/7/H2K3 w - - 0 1", "a1"),
        sorted(&["b2"])
    );
    assert_eq!(
        targets(&p, "3k3/7/7/7/2p4/7/H2K3 w - - 0 1", "a1"),
        sorted(&["b2", "c3"])
    );
}

/// A 6x6 board cut in two halves: a king that needs a guard where it steps, and two pieces
/// that jump next to their king.
const GUARDS: &str = r#"
variant "Guards"
board 6 x 6
sides white north, black south

partition halves = files a-c | files d-f

piece King K royal
  move step any, into halves holding Guard

piece Guard G
  move step forward
  teleport next to King, not attacking

piece Page A
  move step forward
  teleport next to King

rules
  checkmate

setup
  .....k
  ......
  ......
  ......
  ......
  K....G
"#;

#[test]
fn into_holding_needs_a_friendly_piece_in_the_destination_part() {
    let p = compile(GUARDS, &[]);
    // The guard stands in the d-f half: from c2 the king may step only into d1, d2, d3.
    assert_eq!(
        targets(&p, "5k/4G1/6/6/2K3/6 w - - 0 1", "c2"),
        sorted(&["d1", "d2", "d3"])
    );
    // From b2 every neighbour is in the a-c half, which holds no guard.
    assert_eq!(
        targets(&p, "5k/4G1/6/6/1K4/6 w - - 0 1", "b2"),
        Vec::<String>::new()
    );
    // An enemy guard does not count.
    assert_eq!(
        targets(&p, "5k/4g1/6/6/2K3/6 w - - 0 1", "c2"),
        Vec::<String>::new()
    );
}

#[test]
fn teleports_land_next_to_the_anchor_and_may_refuse_attacking_it() {
    let p = compile(GUARDS, &[]);
    // The guard on f6 has no step left; next to the king on c3 it may land anywhere empty
    // except c2, from where its forward step would reach the king.
    assert_eq!(
        targets(&p, "1k3G/6/6/2K3/6/6 w - - 0 1", "f6"),
        sorted(&["b2", "d2", "b3", "d3", "b4", "c4", "d4"])
    );
    // A page has no such limit; an occupied square is never a landing.
    assert_eq!(
        targets(&p, "1k3A/6/3g2/2K3/6/6 w - - 0 1", "f6"),
        sorted(&["b2", "c2", "d2", "b3", "d3", "b4", "c4"])
    );
}

/// A 10x10 board with walls round its four corner castles (the Gala board).
const WALLS: &str = r#"
variant "Walls"
board 10 x 10
sides white north, black south

zone cross = ranks 5-6 files e-f, drawn "+"
zone castle = a1-d4 g1-j4 a7-d10 g7-j10
zone centre = e5-f6
line mounds = castle | cross

piece Gala G royal
  move step any

piece Korna K
  move slide orthogonal, crossing mounds up to 1

piece Rider R
  move slide orthogonal, not crossing mounds

piece Stepper S
  move step any, not crossing mounds

piece Berserk B
  move slide orthogonal in castle, diagonal in cross, continuing after crossing mounds, avoiding centre

rules
  extinction

setup
  g.........
  ..........
  ..........
  ..........
  ..........
  ..........
  ..........
  ..........
  ..........
  .........G
"#;

#[test]
fn a_line_runs_between_two_sets_and_limits_crossings() {
    let p = compile(WALLS, &[]);
    let mounds = &p.tables().variant().lines()[0];
    // Between ranks 4|5 and 6|7 on files a-d and g-j, between files d|e and f|g on ranks
    // 1-4 and 7-10: 16 + 16 edges.
    assert_eq!(mounds.north[0].len() + mounds.east[0].len(), 32);
    // Once across, the slide stops before the second crossing.
    assert_eq!(
        targets(&p, "g9/10/10/10/10/10/10/10/10/K8G w - - 0 1", "a1"),
        sorted(&["a2", "a3", "a4", "a5", "a6", "b1", "c1", "d1", "e1", "f1"])
    );
    assert_eq!(
        targets(&p, "g9/10/10/10/10/10/10/10/1R8/9G w - - 0 1", "b2"),
        sorted(&["a2", "c2", "d2", "b1", "b3", "b4"])
    );
}

#[test]
fn a_diagonal_step_crosses_the_fewer_walls_of_its_two_detours() {
    let p = compile(WALLS, &[]);
    // From the castle corner d4: d5, e4 and e3, c5 cross one wall, and so does e5 (across
    // the corner where the walls meet).
    assert_eq!(
        targets(&p, "g9/10/10/10/10/10/3S6/10/10/9G w - - 0 1", "d4"),
        sorted(&["c3", "c4", "d3"])
    );
    // From e4 in the cross, d5 slips past the corner outside the castle: no wall; d3 and d4
    // are inside it.
    assert_eq!(
        targets(&p, "g9/10/10/10/10/10/4S5/10/10/9G w - - 0 1", "e4"),
        sorted(&["d5", "e3", "e5", "f3", "f4", "f5"])
    );
}

#[test]
fn lines_are_drawn_in_board_maps_and_diagrams() {
    let p = compile(WALLS, &[]);
    let map = rulebook::render::board_map(&p);
    assert!(map.contains("line mounds: 32 edges"), "{map}");
    let g = p.tables().geometry();
    let at = g.parse("a1").unwrap();
    let alone = p.alone(
        at,
        rulebook::engine::Piece {
            side: rulebook::model::Side::FIRST,
            kind: p.tables().variant().piece_by_letter("K").unwrap(),
        },
    );
    let diagram =
        rulebook::render::move_diagram(&alone, &[at], rulebook::render::DiagramMode::Alone);
    insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("lines_korna_a1", diagram);
    });
    let svg =
        rulebook::render::move_diagram_svg(&alone, &[at], rulebook::render::DiagramMode::Alone);
    let walls: usize = svg
        .split(r#"<g class="wall""#)
        .skip(1)
        .map(|group| {
            group
                .split("</g>")
                .next()
                .unwrap()
                .matches("<line ")
                .count()
        })
        .sum();
    assert_eq!(walls, 32);
    assert!(
        svg.contains(">line mounds</text>"),
        "the legend names the line"
    );
}

#[test]
fn a_slide_stops_beyond_a_line_and_may_go_on() {
    let p = compile(WALLS, &[]);
    // From b5 (the cross: diagonal). Toward c4 and a4 the first step crosses: the move may
    // end there or slide on orthogonally (the castle's directions), never back across. Toward
    // d7 the crossing is the second step: one more step only (d8, c7).
    assert_eq!(
        targets(&p, "g9/10/10/10/10/1B8/10/10/10/9G w - - 0 1", "b5"),
        sorted(&[
            "a1", "a2", "a3", "a4", "a6", "b4", "c1", "c2", "c3", "c4", "c6", "c7", "d4", "d7",
            "d8",
        ])
    );
    // From the castle corner d4, through d5 or e4, but never onto or through the centre
    // (e6, f5 and what lies beyond them).
    assert_eq!(
        targets(&p, "g9/10/10/10/10/10/3B6/10/10/9G w - - 0 1", "d4"),
        sorted(&["a4", "b4", "c4", "d1", "d2", "d3", "d5", "e4", "c6", "f3"])
    );
    // A capture on the crossing ends the move; the continuation may capture too.
    assert_eq!(
        targets(&p, "g9/10/10/10/10/3g6/3B6/10/10/9G w - - 0 1", "d4"),
        sorted(&["a4", "b4", "c4", "d1", "d2", "d3", "d5", "e4", "f3"])
    );
}
