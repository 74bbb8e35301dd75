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
                side: Side::FIRST,
                kind: PieceKind::from_index(k).unwrap(),
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
                    side: Side::FIRST,
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

/// Text boards show promoted pieces by their whole letter (`+B`), the pieces in hand, walls
/// and rivers; on a terminal, colour for the sides and the last move, never when piped.
#[test]
fn text_boards_show_promoted_pieces_hands_walls_and_rivers() {
    use rulebook::render::{position_diagram, position_text, TextStyle};
    let shogi = crate::common::start("shogi.variant")
        .with_fen("lnsgkgsnl/1r5+B1/pppppp+Ppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL[PPBp] w - - 0 1")
        .unwrap();
    let text = position_diagram(&shogi);
    assert!(text.contains("8  .  r  .  .  .  .  . +B  .\n"), "{text}");
    assert!(text.contains("7  p  p  p  p  p  p +P  p  p\n"), "{text}");
    assert!(
        text.contains("sente in hand: Bishop (B), Pawn (P) x2\ngote in hand: Pawn (p)\n"),
        "{text}"
    );
    // The river between Xiangqi's fifth and sixth ranks, Gala's walls on the castles' edges.
    let xiangqi = position_diagram(&crate::common::start("xiangqi.variant"));
    assert!(
        xiangqi.contains(" 6 .........\n   ~~~~~~~~~\n 5 ........."),
        "{xiangqi}"
    );
    let gala = position_diagram(&crate::common::start("gala.variant"));
    assert!(
        gala.contains("   -- -- -- --       -- -- -- --\n"),
        "{gala}"
    );
    assert!(
        gala.contains(" 4  P  .  .  .| :  :| .  .  .  P\n"),
        "{gala}"
    );
    // Colour: red's pieces red, the last move's squares shaded; none without a terminal.
    let mut moved = crate::common::start("xiangqi.variant");
    let m = rulebook::engine::notation::parse_move(&moved, "h3e3").unwrap();
    moved.play(m);
    let coloured = position_text(&moved, TextStyle { colour: true });
    assert!(coloured.contains("\u{1b}[1m\u{1b}[31mR"), "{coloured:?}");
    assert!(coloured.contains("\u{1b}[100m"), "{coloured:?}");
    assert!(!position_text(&moved, TextStyle::default()).contains('\u{1b}'));
}

/// Xiangqi's SVG: red's pieces on red discs, each palace tinted in its side's colour and only
/// inside the palace lines, the legend's swatch tinted as the board is; pieces in hand drawn
/// under a Shogi board.
#[test]
fn svg_colours_follow_the_sides_and_hands_are_drawn() {
    let svg = rulebook::render::board_svg(&crate::common::start("xiangqi.variant"));
    assert!(
        svg.contains(
            r##"<title>red Chariot on a1</title><circle cx="44" cy="404" r="16" fill="#c62828""##
        ),
        "{svg}"
    );
    // The palace d1-f3: its points run from d to f, so the tint spans two cells, not three.
    let palace = svg
        .lines()
        .find(|l| l.contains("<title>palace (red)</title>"))
        .unwrap();
    assert!(palace.starts_with(r##"<g fill="#ef9a9a" fill-opacity="0.45">"##));
    let xs: Vec<i32> = palace
        .split("<rect x=\"")
        .skip(1)
        .map(|r| r.split('"').next().unwrap().parse().unwrap())
        .collect();
    let widths: Vec<i32> = palace
        .split("width=\"")
        .skip(1)
        .map(|r| r.split('"').next().unwrap().parse().unwrap())
        .collect();
    let left = xs.iter().min().unwrap();
    let right = xs.iter().zip(&widths).map(|(x, w)| x + w).max().unwrap();
    assert_eq!(right - left, 80, "{palace}");
    assert!(svg.contains(r##"<rect x="25" y="451" width="14" height="14" fill="#f4dcab"/><rect x="25" y="451" width="14" height="14" fill="#ef9a9a" fill-opacity="0.45" stroke="#777777"/><text x="46" y="462" font-size="12">zone palace (red)"##), "{svg}");
    let shogi = crate::common::start("shogi.variant")
        .with_fen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[PPp] w - - 0 1")
        .unwrap();
    let svg = rulebook::render::board_svg(&shogi);
    assert!(svg.contains("<title>sente in hand</title>"), "{svg}");
    assert!(svg.contains(">x2</text>"), "{svg}");
}
