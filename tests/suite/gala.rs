//! Gala (`definitions/gala.variant`) against its seed and rulings: each test quotes the
//! sentence it proves and checks it on a position built for it. Positions are written as
//! piece lists; white's Galas stand out of the way unless the test is about them.

use crate::common;
use common::{sorted, targets};
use rulebook::engine::{notation, record, Piece, Position};
use rulebook::model::{Side, Tables};
use rulebook::render::{move_diagram, DiagramMode};

fn game(options: &[&str]) -> Position {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/definitions/gala.variant");
    let text = std::fs::read_to_string(path).unwrap();
    let variant = rulebook::load("gala.variant", &text).unwrap_or_else(|e| panic!("{e:?}"));
    let options: Vec<(String, bool)> = options.iter().map(|o| (o.to_string(), true)).collect();
    Position::new(Tables::compile(&variant, &options).unwrap())
}

/// A FEN from `(letter, square)` pairs, `white` to move or not.
fn fen(pieces: &[(&str, &str)], white: bool) -> String {
    let mut board = vec![vec![String::new(); 10]; 10];
    for (letter, sq) in pieces {
        let file = (sq.as_bytes()[0] - b'a') as usize;
        let rank: usize = sq[1..].parse().unwrap();
        board[rank - 1][file] = letter.to_string();
    }
    let rows: Vec<String> = (0..10)
        .rev()
        .map(|r| {
            let mut row = String::new();
            let mut empty = 0;
            for cell in &board[r] {
                if cell.is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        row += &empty.to_string();
                        empty = 0;
                    }
                    row += cell;
                }
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            row
        })
        .collect();
    format!(
        "{} {} - - 0 1",
        rows.join("/"),
        if white { "w" } else { "b" }
    )
}

/// Both sides' Galas, far from where the tests play.
const GALAS: [(&str, &str); 4] = [("G", "i10"), ("G", "j10"), ("g", "i1"), ("g", "j1")];

fn at(options: &[&str], pieces: &[(&str, &str)], white: bool) -> Position {
    let text = fen(pieces, white);
    game(options)
        .with_fen(&text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The position with the Galas out of the way plus `pieces`, white to move.
fn with_galas(options: &[&str], pieces: &[(&str, &str)]) -> Position {
    let mut all: Vec<(&str, &str)> = GALAS.to_vec();
    all.extend_from_slice(pieces);
    at(options, &all, true)
}

fn play(pos: &Position, mv: &str) -> Position {
    let mut after = pos.clone();
    after.play(notation::parse_move(pos, mv).unwrap_or_else(|e| panic!("{mv}: {e}")));
    after
}

/// The result in words after the game ended, `None` while it goes on.
fn result(pos: &Position) -> Option<String> {
    pos.outcome().map(|o| record::describe(pos, &o))
}

#[test]
fn the_board_has_four_castles_walled_by_mounds_around_a_cross_and_its_holy_centre() {
    // "The four great corner fields, which are separated by lines, symbolize castles. The
    // lines are the walls, or mounds, of the castles."
    let pos = game(&[]);
    let v = pos.tables().variant();
    let size = |name: &str| {
        let z = v.zones().iter().find(|z| z.name == name).unwrap();
        z.squares[0].len()
    };
    assert_eq!((size("castle"), size("cross"), size("centre")), (64, 36, 4));
    let mounds = &v.lines()[0];
    // Ranks 4|5 and 6|7 on files a-d and g-j; files d|e and f|g on ranks 1-4 and 7-10.
    assert_eq!(mounds.north[0].len() + mounds.east[0].len(), 32);
    // The setup of the rulings: 20 pieces each, the rank-1 player first.
    assert_eq!(
        pos.fen(),
        "gkhp2pkhg/khp4pkh/hp6pk/p8p/10/10/P8P/KP6PH/HKP4PHK/GHKP2PHKG w - - 0 1"
    );
}

#[test]
fn from_the_start_only_kampas_and_three_horsas_can_move() {
    // "Kampa ('warrior') initially moves one step diagonally towards the centre"; "In its
    // first move the Horsa can only move one step."
    let pos = game(&[]);
    let moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| notation::coord(&pos, m))
        .collect();
    assert_eq!(
        sorted(&moves.iter().map(String::as_str).collect::<Vec<_>>()),
        sorted(&[
            "a4b5", "b3c4", "c2d3", "d1e2", "g1f2", "h2g3", "i3h4", "j4i5", "h1g2", "i2h3", "j3i4"
        ])
    );
}

#[test]
fn a_korna_slides_orthogonally_in_a_castle_and_diagonally_in_the_cross() {
    // "Korna ('berserk warrior') moves orthogonally outside the cross. Moves diagonally
    // inside."
    let pos = with_galas(&[], &[("K", "h8")]);
    assert_eq!(
        targets(&pos, "h8"),
        sorted(&["g8", "f8", "e9", "e7", "h9", "h10", "i8", "j8", "h7", "h6", "g5", "i5"])
    );
    let pos = with_galas(&[], &[("K", "b6")]);
    // In the cross, diagonal: a7 and c7 lie beyond a mound (crossed on the first step: it
    // may slide on orthogonally in the castle), d4 beyond one crossed on the second step (one
    // step more), a5 and c5 stay in the cross.
    assert_eq!(
        targets(&pos, "b6"),
        sorted(&[
            "a5", "c5", "d4", "d3", "c4", "a7", "a8", "a9", "a10", "b7", "c7", "d7", "c8", "c9",
            "c10",
        ])
    );
}

#[test]
fn a_korna_goes_on_after_crossing_a_slide_if_the_first_square_crossed_else_one_step() {
    // "If the Korna crosses the line with the first square he moves, he can move, in addition,
    // any number of free squares diagonally. Otherwise, when crossing the line, his additional
    // move is only one square diagonally."
    let pos = with_galas(&[], &[("K", "d3")]);
    assert_eq!(
        targets(&pos, "d3"),
        sorted(&[
            // West and south stay in the castle.
            "c3", "b3", "a3", "d2", "d1", // East: e3 on the first step, then slides.
            "e3", "f4", "g5", "h6", "f2", // North: d5 on the second step, then one step.
            "d4", "d5", "c6", "e4",
        ])
    );
    // "If you don't want to make the additional move, you must press the pass button": the
    // move may stop on the square beyond the line (e3, d5 above).
    // "Pieces may not cross two mound lines in one move": from e3 the diagonal to the
    // northeast stops before i7; from d5, c4 and e6 are not reached.
}

#[test]
fn a_capture_on_the_crossing_ends_the_move() {
    // "If capture occurs when crossing the line, there is no additional move."
    let pos = with_galas(&[], &[("K", "d3"), ("p", "e3")]);
    let t = targets(&pos, "d3");
    assert!(t.contains(&"e3".to_string()));
    assert!(
        !t.contains(&"f4".to_string()) && !t.contains(&"f2".to_string()),
        "{t:?}"
    );
}

#[test]
fn a_horsa_moves_diagonally_in_a_castle_and_orthogonally_in_the_cross_first_one_step() {
    // "Horsa ('horseman', or 'mounted warrior') moves diagonally outside the cross. Moves
    // orthogonally inside."; "Note! In its first move the Horsa can only move one step."
    let unmoved = with_galas(&[], &[("H", "h1")]);
    assert_eq!(targets(&unmoved, "h1"), sorted(&["g2", "i2"]));
    // Once it has moved it slides: back on h1, or on from g2 to i4 and across to j5.
    let moved = play(&play(&unmoved, "h1g2"), "j1j2");
    let t = targets(&moved, "g2");
    for sq in ["h1", "i4", "j5"] {
        assert!(t.contains(&sq.to_string()), "{sq} in {t:?}");
    }
    // Back on h1 it has still moved, and the FEN says so.
    let back = play(&play(&moved, "g2h1"), "j2j1");
    assert!(back.fen().ends_with(" moved:h1"), "{}", back.fen());
    let read = back.with_fen(&back.fen()).unwrap();
    assert_eq!(read.hash(), back.hash());
    assert!(targets(&read, "h1").contains(&"j3".to_string()));
    let moved = with_galas(&[], &[("H", "c3")]);
    assert_eq!(
        targets(&moved, "c3"),
        sorted(&["d4", "b4", "a5", "a6", "b5", "d2", "e1", "e2", "f1", "b2", "a1"])
    );
}

#[test]
fn after_crossing_inward_a_horsa_does_not_capture_along_the_mound() {
    // "when crossing the line inwards, the Horsa is not allowed to capture an adjacent piece
    // to the sides (i.e. any piece which is positioned alongside the line which is passed
    // over)... In both cases the Horsa can capture an adjacent piece which is orthogonally
    // 'forward'." From c4 the Horsa crosses d3-e2 heading south: e3 and e1 lie along the
    // mound, f2 forward.
    let pieces = [("H", "c4"), ("p", "e3"), ("p", "e1"), ("p", "f2")];
    let pos = with_galas(&[], &pieces);
    let t = targets(&pos, "c4");
    assert!(t.contains(&"f2".to_string()), "{t:?}");
    assert!(
        !t.contains(&"e3".to_string()) && !t.contains(&"e1".to_string()),
        "{t:?}"
    );
    // "There is an additional variant ('strong Horsas'), where the Horsa is still allowed to
    // capture a piece to the side if it's aligned with the movement direction": e1, the way
    // the step was heading; e3 still not.
    let pos = with_galas(&["strong-horsas"], &pieces);
    let t = targets(&pos, "c4");
    assert!(
        t.contains(&"e1".to_string()) && t.contains(&"f2".to_string()),
        "{t:?}"
    );
    assert!(!t.contains(&"e3".to_string()), "{t:?}");
    // Along the mound the continuation still moves (to empty squares), at any distance.
    let pos = with_galas(&[], &[("H", "c4")]);
    let t = targets(&pos, "c4");
    for sq in ["a5", "c5", "e1", "e3"] {
        assert!(t.contains(&sq.to_string()), "{sq} in {t:?}");
    }
}

#[test]
fn only_galas_and_kampas_enter_the_centre() {
    // "The centre, consisting of four squares, is an 'holy site', and only the Galas and the
    // Kampas are able to enter there."
    let pos = with_galas(&[], &[("K", "d6"), ("H", "e3"), ("G", "d4")]);
    // The Korna's diagonal from d6 stops before e5: nothing beyond it either.
    for (from, sq) in [("d6", "e5"), ("d6", "f4"), ("e3", "e5"), ("e3", "e6")] {
        assert!(
            !targets(&pos, from).contains(&sq.to_string()),
            "{from} {sq}"
        );
    }
    assert!(targets(&pos, "e3").contains(&"e4".to_string()));
    assert!(targets(&pos, "d4").contains(&"e5".to_string()));
}

#[test]
fn kampas_enter_the_centre_only_when_a_gala_or_an_enemy_kampa_is_there() {
    // "The Kampas can only enter if the centre is already occupied by a Gala, or by an enemy
    // Kampa."
    let empty = with_galas(&[], &[("P", "e4")]);
    assert_eq!(
        targets(&empty, "e4"),
        sorted(&["d3", "d4", "d5", "e3", "f3", "f4"])
    );
    for occupant in [("G", "f6"), ("g", "f6"), ("p", "f6")] {
        let pos = with_galas(&[], &[("P", "e4"), occupant]);
        let t = targets(&pos, "e4");
        assert!(t.contains(&"e5".to_string()), "{occupant:?}: {t:?}");
        assert!(t.contains(&"f5".to_string()), "{occupant:?}: {t:?}");
    }
    let own = with_galas(&[], &[("P", "e4"), ("P", "f6")]);
    assert!(!targets(&own, "e4").contains(&"e5".to_string()));
    // The centre is read before the move: a lone enemy Gala there may be captured.
    let lone = with_galas(&[], &[("P", "e4"), ("g", "e5")]);
    assert!(targets(&lone, "e4").contains(&"e5".to_string()));
    // A Kampa already in the centre moves on inside it.
    let inside = with_galas(&[], &[("P", "e5")]);
    assert!(targets(&inside, "e5").contains(&"f6".to_string()));
}

#[test]
fn a_promoted_kampa_steps_any_way_but_never_captures_across_a_mound() {
    // "After being promoted the Kampa can move and capture one step in all directions.";
    // "When passing the line, inwards or outwards, the Kampa cannot capture."
    let pos = with_galas(&[], &[("P", "e3"), ("k", "d3"), ("k", "d4"), ("k", "f4")]);
    assert_eq!(
        targets(&pos, "e3"),
        sorted(&["d2", "e2", "e4", "f2", "f3", "f4"])
    );
    // The restricted step captures unless it crosses.
    let pos = with_galas(&[], &[("P", "b3"), ("k", "c4"), ("P", "a4"), ("k", "b5")]);
    assert_eq!(targets(&pos, "b3"), sorted(&["c4"]));
    assert_eq!(targets(&pos, "a4"), Vec::<String>::new());
}

#[test]
fn a_kampa_never_enters_the_inner_part_of_its_own_castles() {
    // "But the Kampa is not allowed to enter the inner part of the friendly castles, because
    // this area is reserved for the higher classes."
    let pos = with_galas(&[], &[("P", "c3")]);
    assert_eq!(
        targets(&pos, "c3"),
        sorted(&["b3", "b4", "c2", "c4", "d2", "d3", "d4"])
    );
}

#[test]
fn a_kampa_on_its_sides_start_squares_is_restricted_again() {
    // "In variant (1), should the Kampa return to any of the initial squares of the friendly
    // Kampas, its movement capability is again restricted to the initial movement."
    let pos = with_galas(&[], &[("P", "b3")]);
    assert_eq!(targets(&pos, "b3"), sorted(&["c4"]));
    let pos = with_galas(&[], &[("P", "c4")]);
    assert_eq!(
        targets(&pos, "c4").len(),
        8,
        "promoted off the start squares"
    );
    // Black's restricted step heads for the centre too: southwest from its j10 castle.
    let black = at(
        &[],
        &[GALAS[0], GALAS[1], GALAS[2], GALAS[3], ("p", "i8")],
        false,
    );
    assert_eq!(targets(&black, "i8"), sorted(&["h7"]));
}

#[test]
fn weak_kampas_promote_on_entering_the_cross_and_are_restricted_again_in_their_castles() {
    // "(2) promotion occurs after passing the line to the cross"; "In variant (2), should it
    // return to any of the friendly castles its movement capability is again restricted to
    // the initial movement (excepting the square diagonally adjacent to the centre)."
    let pos = with_galas(&["weak-kampas"], &[("P", "c4")]);
    assert_eq!(targets(&pos, "c4"), sorted(&["d5"]));
    let after = play(&pos, "c4d5");
    let t = after.tables();
    let warrior = t.variant().piece_by_letter("+P").unwrap();
    let d5 = t.geometry().parse("d5").unwrap();
    assert_eq!(after.piece_at(d5).map(|p| p.kind), Some(warrior));
    let promoted = with_galas(&["weak-kampas"], &[("+P", "e3")]);
    let to_d4 = play(&promoted, "e3d4");
    let d4 = t.geometry().parse("d4").unwrap();
    assert_eq!(to_d4.piece_at(d4).map(|p| p.kind), Some(warrior));
    let to_d3 = play(&promoted, "e3d3");
    let d3 = t.geometry().parse("d3").unwrap();
    let kampa = t.variant().piece_by_letter("P").unwrap();
    assert_eq!(to_d3.piece_at(d3).map(|p| p.kind), Some(kampa));
}

#[test]
fn a_gala_steps_any_way_and_captures_except_inside_the_centre() {
    // "Gala ('king') can move a single step in any direction. The Gala loses the ability to
    // capture when positioned inside the centre."
    let pos = with_galas(&[], &[("G", "d4"), ("p", "e4"), ("p", "d5")]);
    assert_eq!(
        targets(&pos, "d4"),
        sorted(&["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"])
    );
    // In the centre: no capture, and "From inside the centre, it can move directly to any
    // empty square, other than the initial positions of the pieces."
    let pos = at(
        &[],
        &[
            ("G", "e5"),
            ("G", "j10"),
            ("g", "e6"),
            ("g", "j1"),
            ("p", "e4"),
        ],
        true,
    );
    let t = targets(&pos, "e5");
    assert!(!t.contains(&"e6".to_string()) && !t.contains(&"e4".to_string()));
    // 60 squares are not start squares; e5, e6 and e4 are taken.
    assert_eq!(t.len(), 57, "{t:?}");
    assert!(!t.contains(&"a1".to_string()) && t.contains(&"a5".to_string()));
}

#[test]
fn weak_galas_do_not_capture_when_stepping_into_the_centre() {
    // "(There is also a variant, 'weak Galas', where the Gala is not allowed to capture when
    // entering the centre.)"
    let pieces = [("G", "d4"), ("p", "e5")];
    assert!(targets(&with_galas(&[], &pieces), "d4").contains(&"e5".to_string()));
    assert!(!targets(&with_galas(&["weak-galas"], &pieces), "d4").contains(&"e5".to_string()));
}

#[test]
fn capturing_one_gala_wins_and_with_both_galas_both_must_go() {
    // "to capture both of the enemy Galas (kings). Alternatively, it's sufficient to capture
    // one of the Galas (preferable)."
    let pieces = [GALAS[0], GALAS[1], GALAS[2], GALAS[3], ("K", "i4")];
    let pos = at(&[], &pieces, true);
    let after = play(&pos, "i4i1");
    assert_eq!(
        result(&after).as_deref(),
        Some("a Gala captured, white wins")
    );
    let both = play(&at(&["both-galas"], &pieces, true), "i4i1");
    assert_eq!(result(&both), None);
    // No check: a Gala may be left attacked (black's j1 Gala stays next to the Korna).
    assert!(!both.legal_moves().is_empty());
}

#[test]
fn both_galas_in_the_centre_is_a_great_victory() {
    // "to move both Galas to the four central squares."; "Great victory: a player has
    // placed both Galas in the centre."
    let pos = at(
        &[],
        &[("G", "e5"), ("G", "g7"), ("g", "a1"), ("g", "j1")],
        true,
    );
    let after = play(&pos, "g7f6");
    assert_eq!(result(&after).as_deref(), Some("great victory, white wins"));
}

#[test]
fn one_gala_in_the_centre_and_both_enemy_galas_taken_is_a_minor_victory() {
    // "Minor victory: a player has placed one of his Galas in the centre and eliminated both
    // enemy Galas."
    let pos = at(
        &["both-galas"],
        &[("G", "e5"), ("G", "a10"), ("g", "j1"), ("K", "j4")],
        true,
    );
    let after = play(&pos, "j4j1");
    assert_eq!(result(&after).as_deref(), Some("minor victory, white wins"));
}

#[test]
fn one_gala_each_in_the_holy_centre_is_a_draw() {
    // "Draw occurs when both players have one Gala in the 'holy centre', and there are no
    // more Galas on the board."
    let pos = at(
        &["both-galas"],
        &[("G", "e5"), ("g", "g7"), ("P", "a4")],
        false,
    );
    let after = play(&pos, "g7f6");
    assert_eq!(
        result(&after).as_deref(),
        Some("one Gala each in the holy centre, draw")
    );
}

#[test]
fn with_lone_gala_loses_a_side_with_only_galas_left_loses() {
    // "(there is also a variant where lone Gala loses)"
    let pieces = [
        GALAS[0],
        GALAS[1],
        GALAS[2],
        GALAS[3],
        ("K", "b2"),
        ("p", "b4"),
    ];
    let after = play(&at(&["lone-gala-loses"], &pieces, true), "b2b4");
    assert_eq!(
        result(&after).as_deref(),
        Some("only Galas left, white wins")
    );
    let after = play(&at(&[], &pieces, true), "b2b4");
    assert_eq!(result(&after), None);
}

#[test]
fn a_side_with_no_legal_move_loses() {
    // Rulings: "A side with no legal move loses." Black's pieces in its j10 castle are all
    // blocked: the restricted Kampas on h7 and g8 would cross a mound onto a white piece.
    let pos = at(
        &["weak-kampas", "both-galas"],
        &[
            ("G", "a1"),
            ("G", "j1"),
            ("g", "j10"),
            ("h", "j9"),
            ("h", "i10"),
            ("k", "i9"),
            ("p", "i8"),
            ("p", "h9"),
            ("p", "h7"),
            ("p", "g8"),
            ("K", "g6"),
            ("K", "f7"),
        ],
        false,
    );
    assert!(pos.legal_moves().is_empty());
    assert_eq!(result(&pos).as_deref(), Some("stalemate, white wins"));
}

#[test]
fn every_piece_is_drawn_from_a_castle_a_mound_the_cross_and_the_centre() {
    let pos = game(&[]);
    let t = pos.tables();
    let g = t.geometry();
    let mut all = String::new();
    for letter in ["G", "K", "H", "P"] {
        let kind = t.variant().piece_by_letter(letter).unwrap();
        for square in ["b2", "d3", "e3", "f5"] {
            let sq = g.parse(square).unwrap();
            let alone = pos.alone(
                sq,
                Piece {
                    side: Side::FIRST,
                    kind,
                },
            );
            all += &format!("{letter} on {square}\n");
            all += &move_diagram(&alone, &[sq], DiagramMode::Alone);
            all += "\n";
        }
    }
    insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("gala_pieces", all);
    });
}
