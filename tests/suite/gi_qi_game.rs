//! Gi-Qi-Game (`definitions/gi-qi-game.variant`) against its rulings: every piece's movement
//! before and after crossing the river compared with the Betza given for it, then each rule
//! the page states on a position built for it.

use crate::common;
use common::{sorted, targets};
use rulebook::engine::{notation, Piece, Position};
use rulebook::model::{Side, Tables};
use rulebook::render::{diagram_markers, DiagramMode};

fn load(text: &str, options: &[(&str, bool)]) -> Position {
    let variant = rulebook::load("test.variant", text).unwrap_or_else(|e| panic!("{e:?}"));
    let options: Vec<(String, bool)> = options.iter().map(|(o, v)| (o.to_string(), *v)).collect();
    Position::new(Tables::compile(&variant, &options).unwrap())
}

fn game(options: &[(&str, bool)]) -> Position {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/definitions/gi-qi-game.variant"
    );
    load(&std::fs::read_to_string(path).unwrap(), options)
}

/// A piece moving by `betza` alone, on the same board, for the expected squares.
fn reference(betza: &str) -> Position {
    load(
        &format!(
            "variant \"Reference\"\nboard 9 x 9\nsides first north, second south\n\
             piece King K royal\n  move step any\n\
             piece Test T\n  move betza \"{betza}\"\n\
             rules\n  checkmate\nsetup \"4k4/9/9/9/9/9/9/9/4K4\"\n"
        ),
        &[],
    )
}

/// The first side's piece `letter` alone on `square`.
fn alone(pos: &Position, letter: &str, square: &str) -> Position {
    let t = pos.tables();
    let kind = t.variant().piece_by_letter(letter).unwrap();
    let sq = t.geometry().parse(square).unwrap();
    pos.alone(
        sq,
        Piece {
            side: Side::FIRST,
            kind,
        },
    )
}

/// The piece on `sq` and its targets, `*` move or capture, `m` move only, `x` capture only.
fn picture(pos: &Position, sq: rulebook::model::Square) -> Vec<String> {
    let g = pos.tables().geometry();
    let marks = diagram_markers(pos, &[sq], DiagramMode::Alone);
    (0..9)
        .rev()
        .map(|rank| {
            (0..9)
                .map(|file| {
                    let s = g.square(file, rank).unwrap();
                    match marks[s.index()] {
                        _ if s == sq => 'o',
                        Some(m) => m.glyph(),
                        None => '.',
                    }
                })
                .collect()
        })
        .collect()
}

/// The rulings' Betza for each piece: not crossed, then crossed.
const BETZA: &[(&str, &str, &str)] = &[
    ("K", "K", "K"),
    ("G", "fFvW", "WfF"),
    ("+G", "FfW", "FfsW"),
    ("E", "fB", "fB"),
    ("+E", "mBcpB", "mBcpB"),
    ("H", "ffN", "fN"),
    ("L", "fR", "fsR"),
    ("+L", "mRcpR", "mRcpR"),
    ("R", "R", "R"),
    ("+R", "RF", "RF"),
    ("N", "N", "N"),
    ("+N", "NK", "NK"),
    ("B", "B", "B"),
    ("+B", "BW", "BW"),
    ("P", "fmWfcF", "fmWfcFsmW"),
    ("+P", "RN", "RN"),
    ("F", "fW", "fsW"),
    ("+F", "Q", "Q"),
    ("Y", "fmFfcW", "fmFfcWscW"),
    ("+Y", "BN", "BN"),
];

/// Squares of the first side and whether a piece there is crossed: its own half, a weak and a
/// strong river square, the enemy half (with `swap-river`, the river squares swap roles).
const SQUARES: [(&str, bool, bool); 4] = [
    ("e3", false, false),
    ("d5", false, true),
    ("e5", true, false),
    ("e7", true, true),
];

#[test]
fn every_piece_moves_as_its_betza_before_and_after_crossing() {
    let mut pinned = String::new();
    for swap in [false, true] {
        let pos = game(&[("swap-river", swap)]);
        for &(letter, plain, crossed) in BETZA {
            let mut drawn: Vec<Vec<String>> = Vec::new();
            for &(square, is_crossed, is_crossed_swapped) in &SQUARES {
                let crossed_here = if swap { is_crossed_swapped } else { is_crossed };
                let betza = if crossed_here { crossed } else { plain };
                let want = reference(betza);
                let ours = alone(&pos, letter, square);
                let theirs = alone(&want, "T", square);
                let sq = pos.tables().geometry().parse(square).unwrap();
                assert_eq!(
                    diagram_markers(&ours, &[sq], DiagramMode::Alone),
                    diagram_markers(&theirs, &[sq], DiagramMode::Alone),
                    "{letter} on {square} (swap-river {swap}) should move as {betza}"
                );
                drawn.push(picture(&ours, sq));
            }
            if !swap {
                pinned.push_str(&format!(
                    "{letter}: {plain} / crossed {crossed}; `o` on e3, d5 (weak), e5 (strong), e7\n"
                ));
                for row in 0..9 {
                    let line: Vec<&str> = drawn.iter().map(|d| d[row].as_str()).collect();
                    pinned.push_str(&line.join("   "));
                    pinned.push('\n');
                }
                pinned.push('\n');
            }
        }
    }
    insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("gi_qi_game_pieces", pinned);
    });
}

#[test]
fn korean_cannons_hop_on_every_move() {
    let pos = game(&[("korean-cannons", true)]);
    for (letter, betza) in [("+L", "pR"), ("+E", "pB")] {
        let sq = pos.tables().geometry().parse("e5").unwrap();
        assert_eq!(
            diagram_markers(&alone(&pos, letter, "e5"), &[sq], DiagramMode::Alone),
            diagram_markers(
                &alone(&reference(betza), "T", "e5"),
                &[sq],
                DiagramMode::Alone
            ),
            "{letter} with korean-cannons should move as {betza}"
        );
    }
}

fn at(fen: &str) -> Position {
    game(&[])
        .with_fen(fen)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn heavy_cavalry_reaches_sixteen_squares_and_is_blocked_on_its_way() {
    let pos = game(&[]);
    let sq = pos.tables().geometry().parse("e5").unwrap();
    let marks = diagram_markers(&alone(&pos, "+H", "e5"), &[sq], DiagramMode::Alone);
    assert_eq!(marks.iter().flatten().filter(|m| m.is_target()).count(), 16);
    // The orthogonal square blocks both its diagonals; the first diagonal square blocks the
    // second; the last may be captured.
    let fen = "1k7/9/9/2p1P4/4+H4/9/9/9/7K1[] w - - 0 1";
    assert_eq!(
        targets(&at(fen), "e5"),
        sorted(&["d3", "c2", "f3", "g2", "g6", "h7", "g4", "h3", "c6", "c4", "b3"])
    );
}

#[test]
fn teleports_land_next_to_the_king_where_they_do_not_attack_it() {
    // First king on e2 (own half): a copper bodyguard lands beside it or diagonally in front;
    // a silver warrior beside it or straight in front.
    let copper = at("1k7/9/9/9/9/9/9/4K4/G8[] w - - 0 1");
    assert_eq!(
        targets(&copper, "a1"),
        sorted(&["a2", "b2", "d2", "f2", "d3", "f3"])
    );
    let silver = at("1k7/9/9/9/9/9/9/4K4/+G8[] w - - 0 1");
    assert_eq!(
        targets(&silver, "a1"),
        sorted(&["a2", "b2", "d2", "f2", "e3"])
    );
    // First king on e7 (crossed): a gold bodyguard lands only diagonally in front of it, a
    // drunk-elephant warrior only straight in front. The moves into the last three ranks may
    // promote.
    let gold = at("1k7/9/4K4/9/9/9/9/9/G8[] w - - 0 1");
    assert_eq!(targets(&gold, "a1"), sorted(&["a2", "b2", "d8", "f8"]));
    let drunk = at("1k7/9/4K4/9/9/9/9/9/+G8[] w - - 0 1");
    assert_eq!(targets(&drunk, "a1"), sorted(&["a2", "b2", "e8"]));
    let promotions = gold
        .legal_moves()
        .into_iter()
        .filter(|m| gold.tables().geometry().name(m.to).to_string() == "d8")
        .count();
    assert_eq!(promotions, 2, "d8 with and without promotion");
    // A teleport that lands where a step lands is one move.
    let near = at("1k7/9/9/9/9/9/9/4K4/3G5[] w - - 0 1");
    let moves = near.legal_moves();
    let mut seen = std::collections::HashSet::new();
    assert!(moves.iter().all(|m| seen.insert(*m)), "a move listed twice");
    assert!(targets(&near, "d1").contains(&"d2".to_string()));
}

#[test]
fn a_king_steps_only_into_a_block_holding_its_bodyguard_or_warrior() {
    // Bodyguard in the a1-c3 block only: from d2 the king may go to c1, c2, c3 only.
    assert_eq!(
        targets(&at("1k7/9/9/9/9/9/9/3K5/G8[] w - - 0 1"), "d2"),
        sorted(&["c1", "c2", "c3"])
    );
    // A warrior counts too, and one in the king's own block opens the block.
    assert_eq!(
        targets(&at("1k7/9/9/9/9/9/9/3K5/G4+G3[] w - - 0 1"), "d2"),
        sorted(&["c1", "c2", "c3", "d1", "e1", "d3", "e3", "e2"])
    );
    // Without one the king cannot move at all.
    assert_eq!(
        targets(&at("1k7/9/9/9/9/9/9/3K5/9[] w - - 0 1"), "d2"),
        Vec::<String>::new()
    );
}

#[test]
fn kings_may_not_face_along_files_ranks_or_diagonals() {
    // Second king on e3: e1 faces it along the file, e2 next to it, d2 along a diagonal;
    // c1 and c2 lie in a block without a bodyguard.
    let pos = at("9/9/9/9/9/9/4k4/9/3K1G3[] w - - 0 1");
    assert_eq!(targets(&pos, "d1"), Vec::<String>::new());
    // Second king on g3: only e1 (the diagonal e1-f2-g3) is refused.
    let pos = at("9/9/9/9/9/9/6k2/9/3K1G3[] w - - 0 1");
    assert_eq!(targets(&pos, "d1"), sorted(&["d2", "e2"]));
}

#[test]
fn drops_follow_their_restrictions_and_freedoms() {
    // An elephant and a horse in hand may not be dropped on the last rank; a peasant may go on
    // a file that holds a peasant already.
    let pos = at("k8/3g5/9/9/9/9/3P5/9/4K4[EHP] w - - 0 1");
    let g = pos.tables().geometry();
    let drops: Vec<(String, String)> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.is_drop())
        .map(|m| {
            (
                pos.tables().variant().piece(m.piece).letter.to_string(),
                g.name(m.to).to_string(),
            )
        })
        .collect();
    for letter in ["E", "H"] {
        assert!(drops.iter().any(|(l, _)| l == letter));
        assert!(
            !drops.iter().any(|(l, s)| l == letter && s.ends_with('9')),
            "{letter} dropped on the last rank"
        );
    }
    assert!(drops.iter().any(|(l, s)| l == "P" && s == "d4"));
    assert!(drops.iter().any(|(l, s)| l == "P" && s.ends_with('9')));
    // Without drops, nothing goes to hand.
    let no_drops = game(&[("drops", false)])
        .with_fen("k8/3g5/9/9/9/9/3P5/9/4K4 w - - 0 1")
        .unwrap();
    assert!(!no_drops.legal_moves().iter().any(|m| m.is_drop()));
}

#[test]
fn a_peasant_drop_may_mate() {
    // The second king has no bodyguard: it cannot step, so a peasant dropped on d8 mates.
    let pos = at("4k4/9/9/9/9/9/9/9/K8[P] w - - 0 1");
    let drop = notation::parse_move(&pos, "P@d8").expect("the mating drop is legal");
    let mut after = pos.clone();
    after.play(drop);
    assert!(after.legal_moves().is_empty());
    let outcome = after.outcome().expect("mate ends the game");
    assert_eq!(outcome.winner(), Some(Side::FIRST));
}

#[test]
fn promotion_is_optional_unless_the_piece_would_be_stuck() {
    let choices = |fen: &str, from: &str, to: &str| -> Vec<String> {
        let pos = at(fen);
        let g = pos.tables().geometry();
        let mut v: Vec<String> = pos
            .legal_moves()
            .iter()
            .filter(|m| g.name(m.from).to_string() == from && g.name(m.to).to_string() == to)
            .map(|m| notation::coord(&pos, m))
            .collect();
        v.sort();
        v
    };
    // An elephant on the last rank has no move: it must promote. On rank 7 it may.
    let fen = "1k7/9/9/9/9/2E6/9/9/4K4[] w - - 0 1";
    assert_eq!(choices(fen, "c4", "g8"), ["c4g8", "c4g8+"]);
    let fen = "1k7/9/9/9/9/9/9/9/E3K4[] w - - 0 1";
    assert_eq!(choices(fen, "a1", "c3"), ["a1c3"]);
    let fen = "9/1k7/9/9/2E6/9/9/9/4K4[] w - - 0 1";
    assert_eq!(choices(fen, "c5", "g9"), ["c5g9+"]);
    // A lance on the last rank may still move sideways (crossed): not forced.
    let fen = "1k7/9/9/9/9/9/9/8L/4K4[] w - - 0 1";
    assert_eq!(choices(fen, "i2", "i9"), ["i2i9", "i2i9+"]);
    // A horse reaching rank 9 must promote; on rank 8 (crossed) it keeps its wide jumps.
    let fen = "1k7/9/9/9/4H4/9/9/9/4K4[] w - - 0 1";
    assert_eq!(choices(fen, "e5", "d7"), ["e5d7", "e5d7+"]);
    let fen = "1k7/9/4H4/9/9/9/9/9/4K4[] w - - 0 1";
    assert_eq!(choices(fen, "e7", "d9"), ["e7d9+"]);
    // Without drops a peasant may also become a warrior.
    let pos = game(&[("drops", false)])
        .with_fen("1k7/9/4P4/9/9/9/9/9/4K4 w - - 0 1")
        .unwrap();
    let g = pos.tables().geometry();
    let mut results: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| g.name(m.from).to_string() == "e7" && g.name(m.to).to_string() == "e8")
        .map(|m| match m.promotion {
            Some(k) => pos.tables().variant().piece(k).name.clone(),
            None => "-".to_string(),
        })
        .collect();
    results.sort();
    assert_eq!(results, ["-", "Marshal", "Warrior"]);
    // With drops, only its own promotion.
    assert_eq!(
        choices("1k7/9/4P4/9/9/9/9/9/4K4[] w - - 0 1", "e7", "e8"),
        ["e7e8", "e7e8+"]
    );
}

/// The king's castling destinations from e1, sorted.
fn castlings(fen: &str) -> Vec<String> {
    let pos = at(fen);
    let g = pos.tables().geometry();
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| matches!(m.kind, rulebook::engine::MoveKind::Castle(_)))
        .map(|m| g.name(m.to).to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn castling_with_either_lance_two_or_three_squares() {
    assert_eq!(
        castlings("k8/9/9/9/9/9/9/9/L3K3L[] w KQ - 0 1"),
        ["b1", "c1", "g1", "h1"]
    );
    // The lance lands on the square the king passed last.
    let pos = at("k8/9/9/9/9/9/9/9/L3K3L[] w KQ - 0 1");
    for (mv, fen) in [
        ("e1c1", "k8/9/9/9/9/9/9/9/2KL4L[] b - - 1 1"),
        ("e1b1", "k8/9/9/9/9/9/9/9/1KL5L[] b - - 1 1"),
        ("e1g1", "k8/9/9/9/9/9/9/9/L4LK2[] b - - 1 1"),
        ("e1h1", "k8/9/9/9/9/9/9/9/L5LK1[] b - - 1 1"),
    ] {
        let mut p = pos.clone();
        p.play(notation::parse_move(&pos, mv).unwrap());
        assert_eq!(p.fen(), fen, "{mv}");
    }
}

#[test]
fn castling_is_refused_in_each_forbidden_case() {
    // Only one lance's rights left: the other side's castlings are gone.
    assert_eq!(
        castlings("k8/9/9/9/9/9/9/9/L3K3L[] w K - 0 1"),
        ["g1", "h1"]
    );
    // A piece between king and lance.
    assert_eq!(
        castlings("k8/9/9/9/9/9/9/9/LN2K3L[] w KQ - 0 1"),
        ["g1", "h1"]
    );
    // The king in check (a rook on the e-file).
    assert!(castlings("k3r4/9/9/9/9/9/9/9/L3K3L[] w KQ - 0 1").is_empty());
    // A passed square attacked (d1), or the landing square (c1: and b1, whose king passes it).
    assert_eq!(
        castlings("k2r5/9/9/9/9/9/9/9/L3K3L[] w KQ - 0 1"),
        ["g1", "h1"]
    );
    assert_eq!(
        castlings("k1r6/9/9/9/9/9/9/9/L3K3L[] w KQ - 0 1"),
        ["g1", "h1"]
    );
    // A passed square facing the other king (d1 sees d9 up the open file).
    assert_eq!(
        castlings("3k5/9/9/9/9/9/9/9/L3K3L[] w KQ - 0 1"),
        ["g1", "h1"]
    );
    // The landing square facing it (b1 sees b9).
    assert_eq!(
        castlings("1k7/9/9/9/9/9/9/9/L3K3L[] w KQ - 0 1"),
        ["c1", "g1", "h1"]
    );
}

#[test]
fn recreating_an_earlier_position_loses_for_its_maker() {
    let mut pos = game(&[]);
    for (i, mv) in ["e2d4", "e8d6", "d4e2", "d6e8"].iter().enumerate() {
        assert!(pos.outcome().is_none(), "over after {i} plies");
        let m = notation::parse_move(&pos, mv).unwrap();
        pos.play(m);
    }
    // The second side's last move brought back the start position: it loses.
    let outcome = pos.outcome().expect("the repetition ends the game");
    assert_eq!(outcome.winner(), Some(Side::FIRST));
}

#[test]
fn stalemating_the_opponent_wins() {
    // The second king has no bodyguard, so no move; it is not attacked.
    let pos = at("4k4/9/9/9/9/9/9/9/K8[] b - - 0 1");
    assert!(pos.legal_moves().is_empty());
    assert!(!pos.in_check());
    assert_eq!(pos.outcome().unwrap().winner(), Some(Side::FIRST));
}

#[test]
fn captured_promoted_pieces_go_to_hand_demoted() {
    let pos = at("k8/9/9/9/4+p4/9/9/9/4R2K1[] w - - 0 1");
    let mut after = pos.clone();
    after.play(notation::parse_move(&pos, "e1e5").unwrap());
    assert_eq!(after.fen(), "k8/9/9/9/4R4/9/9/9/7K1[P] b - - 0 1");
    // And come back as the unpromoted piece.
    let back = at("k8/9/9/9/4R4/9/9/9/7K1[P] w - - 0 1");
    assert!(back
        .legal_moves()
        .iter()
        .any(|m| m.is_drop() && back.tables().variant().piece(m.piece).name == "Peasant"));
}

#[test]
fn a_king_that_has_moved_no_longer_castles() {
    // No bodyguard needed for castling; the king steps out and back (beside its bodyguard).
    let mut pos = at("5k3/r8/9/9/9/9/9/5G3/L3K3L[] w KQ - 0 1");
    assert_eq!(castlings(&pos.fen()), ["b1", "c1", "g1", "h1"]);
    for mv in ["e1e2", "a8b8", "e2e1", "b8a8"] {
        let m = notation::parse_move(&pos, mv).unwrap();
        pos.play(m);
    }
    assert!(pos
        .legal_moves()
        .iter()
        .all(|m| !matches!(m.kind, rulebook::engine::MoveKind::Castle(_))));
}

#[test]
fn a_teleport_is_marked_as_such_in_a_position_diagram() {
    let pos = at("3k5/9/9/9/9/9/1G7/9/4K4[] w - - 0 1");
    let g = pos.tables().geometry();
    let sq = g.parse("b3").unwrap();
    let marks = diagram_markers(&pos, &[sq], DiagramMode::InPosition);
    let marked = |m: rulebook::render::Marker| -> Vec<String> {
        g.squares()
            .filter(|s| marks[s.index()] == Some(m))
            .map(|s| g.name(s).to_string())
            .collect()
    };
    // Next to the king, wherever its own moves from there would not reach the king (e2 would).
    assert_eq!(
        marked(rulebook::render::Marker::Teleport),
        ["d1", "f1", "d2", "f2"]
    );
    assert_eq!(
        marked(rulebook::render::Marker::Both),
        ["b2", "a4", "b4", "c4"]
    );
}
