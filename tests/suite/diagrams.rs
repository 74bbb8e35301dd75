//! Move diagrams of every piece of the seed games, pinned: each is the piece alone on the
//! board, its targets marked as the rule books draw them.

use rulebook::engine::{Piece, Position};
use rulebook::model::{PieceKind, Side, Tables};
use rulebook::render::{move_diagram, DiagramMode};

fn diagrams(file: &str, square_for: impl Fn(&str) -> &'static str) -> String {
    let path = format!("{}/definitions/{file}", env!("CARGO_MANIFEST_DIR"));
    let variant = rulebook::load(file, &std::fs::read_to_string(path).unwrap()).unwrap();
    let pos = Position::new(Tables::compile(&variant, &[]).unwrap());
    let g = variant.geometry();
    let mut out = String::new();
    for (k, piece) in variant.pieces().iter().enumerate() {
        let name = square_for(&piece.name);
        let sq = g.parse(name).unwrap();
        let alone = pos.alone(
            sq,
            Piece {
                side: Side(0),
                kind: PieceKind(k as u8),
            },
        );
        out.push_str(&format!("{} ({}) on {name}\n", piece.name, piece.letter));
        out.push_str(&move_diagram(&alone, &[sq], DiagramMode::Alone));
        out.push('\n');
    }
    out
}

#[test]
fn middle_xiangqi_pieces() {
    let text = diagrams("middle-xiangqi.variant", |name| match name {
        "General" | "Advisor" => "g2",
        "Ox" => "g4",
        "CrossedPawn" => "g7",
        _ => "g5",
    });
    insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("diagrams_middle_xiangqi", text);
    });
}

#[test]
fn delegating_chess_pieces() {
    let text = diagrams("delegating-chess.variant", |name| match name {
        "Pawn" => "d3",
        _ => "d6",
    });
    insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("diagrams_delegating_chess", text);
    });
}

/// The marks of a diagram of several pieces, as `square marker` lines.
fn marks_of(file: &str, pieces: &[(&str, &str)]) -> Vec<String> {
    let pos = crate::common::start(file);
    let t = pos.tables();
    let placed: Vec<_> = pieces
        .iter()
        .map(|&(letter, sq)| {
            let kind = t.variant().piece_by_letter(letter).unwrap();
            let sq = t.geometry().parse(sq).unwrap();
            (
                sq,
                Piece {
                    side: Side(0),
                    kind,
                },
            )
        })
        .collect();
    let shown = pos.only(&placed);
    let squares: Vec<_> = placed.iter().map(|&(sq, _)| sq).collect();
    rulebook::render::diagram_info(&shown, &squares, DiagramMode::Alone)
        .targets
        .iter()
        .map(|t| format!("{} {}", t.square, t.marker))
        .collect()
}

/// Several pieces in one diagram each move as if alone, but a square where a piece is drawn
/// is never marked, and a square one piece needs empty stays marked under another's target.
#[test]
fn several_pieces_keep_their_own_marks() {
    // The rook on a1 would reach a3, where the other rook is drawn.
    let rooks = marks_of("xiangqi.variant", &[("R", "a1"), ("R", "a3")]);
    assert!(!rooks.iter().any(|m| m.starts_with("a3 ")), "{rooks:?}");
    assert!(!rooks.iter().any(|m| m.starts_with("a1 ")), "{rooks:?}");
    // The horse on e5 needs d5 empty; the rook on a5 can go there.
    let horse_and_rook = marks_of("xiangqi.variant", &[("N", "e5"), ("R", "a5")]);
    assert!(horse_and_rook.contains(&"d5 both".to_string()));
    assert!(
        horse_and_rook.contains(&"d5 blocking".to_string()),
        "{horse_and_rook:?}"
    );
}

/// Gi-Qi-Game's bodyguard teleports next to its own king: drawn when the king is placed with
/// it, even where the king's own steps land; the king placed beside a bodyguard steps only
/// into the 3x3 blocks that hold one, and alone it is drawn as its path goes.
#[test]
fn moves_that_depend_on_other_pieces_follow_the_pieces_placed() {
    let guard = marks_of("gi-qi-game.variant", &[("G", "d3"), ("K", "e1")]);
    for teleport in ["d1", "f1", "f2"] {
        assert!(
            guard.contains(&format!("{teleport} teleport")),
            "{teleport}: {guard:?}"
        );
    }
    let king = marks_of("gi-qi-game.variant", &[("K", "c3"), ("G", "a1")]);
    // c3's block a1-c3 holds the bodyguard; d2, d3, d4, b4, c4 lie in blocks without one
    // (the bodyguard's own teleports next to the king are drawn too).
    let king_steps: Vec<&String> = king
        .iter()
        .filter(|m| ["b2", "c2", "b3", "d2", "d3", "d4", "b4", "c4"].contains(&&m[..2]))
        .filter(|m| m.ends_with(" both"))
        .collect();
    assert_eq!(king_steps, ["b2 both", "c2 both", "b3 both"], "{king:?}");
    let alone = marks_of("gi-qi-game.variant", &[("K", "e5")]);
    assert_eq!(alone.len(), 8, "{alone:?}");
}
