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
