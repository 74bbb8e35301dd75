//! The diagram gallery of every shipped game: every piece drawn, the page complete, and the
//! gallery's diagrams pinned as text and JSON (and one SVG per game).

use crate::common;

use rulebook::render::{diagram_info, gallery, move_diagram, DiagramMode};

const GAMES: [&str; 8] = [
    "chess",
    "xiangqi",
    "shogi",
    "middle-xiangqi",
    "delegating-chess",
    "gi-qi-game",
    "gala-xiangqi",
    "gala",
];

fn source(game: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/definitions/{game}.variant",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn every_piece_of_every_game_is_in_its_gallery() {
    for game in GAMES {
        let pos = common::start(&format!("{game}.variant"));
        let g = gallery(&pos, &source(game));
        assert_eq!(g.pieces.len(), pos.tables().variant().pieces().len());
        assert!(g.board_svg.starts_with("<svg"), "{game}");
        assert!(g.index_html.contains(r#"<img src="board.svg""#), "{game}");
        for p in &g.pieces {
            assert!(!p.diagrams.is_empty(), "{game}: {} has no diagram", p.name);
            assert!(
                p.declaration.starts_with(&format!("piece {} ", p.name)),
                "{game}: {} is quoted as {:?}",
                p.name,
                p.declaration
            );
            assert!(
                g.index_html.contains(&format!("<h2>{} (", p.name)),
                "{game}"
            );
            for d in &p.diagrams {
                assert!(d.svg.starts_with("<svg") && d.svg.trim_end().ends_with("</svg>"));
                assert!(
                    g.index_html.contains(&format!(r#"<img src="{}""#, d.file)),
                    "{game}: the page shows {}",
                    d.file
                );
            }
        }
    }
}

#[test]
fn a_zone_that_changes_a_piece_gets_its_own_diagram() {
    // The soldier gains its sideways steps across the river, the pawn its double step on its
    // first rank; a bishop is drawn once however many zones the board has.
    let squares = |game: &str, piece: &str| -> Vec<String> {
        let pos = common::start(&format!("{game}.variant"));
        let g = gallery(&pos, &source(game));
        let p = g.pieces.iter().find(|p| p.name == piece).unwrap();
        p.diagrams
            .iter()
            .map(|d| format!("{} {}", d.square, d.caption))
            .collect()
    };
    assert_eq!(
        squares("xiangqi", "Soldier"),
        ["e5 centre", "e6 outside own-half"]
    );
    assert_eq!(squares("chess", "Pawn"), ["d4 centre", "d2 in pawn-rank"]);
    assert_eq!(squares("chess", "Bishop"), ["d4 centre"]);
    // The general cannot leave its palace: drawn from inside it.
    assert_eq!(squares("xiangqi", "General"), ["e3 in palace"]);
}

#[test]
fn gallery_diagrams_as_text_json_and_svg() {
    let mut text = String::new();
    let mut json = Vec::new();
    let mut svgs = String::new();
    for game in GAMES {
        let pos = common::start(&format!("{game}.variant"));
        let g = gallery(&pos, &source(game));
        let geometry = pos.tables().geometry();
        text.push_str(&format!("# {game}\n"));
        for p in &g.pieces {
            for d in &p.diagrams {
                let sq = geometry.parse(&d.square).unwrap();
                let kind = pos.tables().variant().piece_by_name(&p.name).unwrap();
                let alone = pos.alone(
                    sq,
                    rulebook::engine::Piece {
                        side: rulebook::model::Side(0),
                        kind,
                    },
                );
                text.push_str(&format!("{} on {} ({})\n", p.name, d.square, d.caption));
                text.push_str(&move_diagram(&alone, &[sq], DiagramMode::Alone));
                text.push('\n');
                if json.len() < GAMES.len()
                    && json.iter().all(|j: &rulebook::render::DiagramInfo| {
                        j.variant != pos.tables().variant().name()
                    })
                {
                    json.push(diagram_info(&alone, &[sq], DiagramMode::Alone));
                }
            }
        }
        let first = &g.pieces[0].diagrams[0];
        svgs.push_str(&format!("<!-- {game}: {} -->\n{}", first.file, first.svg));
    }
    insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("gallery_text", text);
        insta::assert_snapshot!("gallery_json", serde_json::to_string_pretty(&json).unwrap());
        insta::assert_snapshot!("gallery_svg_first_pieces", svgs);
    });
}
