//! The diagram gallery of every shipped game: every piece drawn, with a readable name, only
//! on squares it can stand on, from each region where its rules differ (named in the caption
//! only where they change its moves), with the piece its moves depend on, no diagram twice;
//! the rules and pieces in words; the page laid out for reading; the gallery's diagrams and
//! prose pinned as text, JSON and SVG.

use crate::common;

use rulebook::engine::{Piece, Position};
use rulebook::model::{Side, Square};
use rulebook::render::{
    diagram_info, diagram_markers, gallery, move_diagram, standing_squares, DiagramMode, Gallery,
    GalleryDiagram, Marker,
};

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

fn gallery_of(game: &str) -> (Position, Gallery) {
    let pos = common::start(&format!("{game}.variant"));
    let g = gallery(&pos, &source(game));
    (pos, g)
}

/// The gallery with some options set.
fn gallery_with(game: &str, options: &[(&str, bool)]) -> (Position, Gallery) {
    let text = source(game);
    let variant = rulebook::load("test.variant", &text).unwrap();
    let options: Vec<(String, bool)> = options.iter().map(|(o, v)| (o.to_string(), *v)).collect();
    let pos = Position::new(rulebook::model::Tables::compile(&variant, &options).unwrap());
    let g = gallery(&pos, &text);
    (pos, g)
}

/// The position a diagram draws: its pieces on an otherwise empty board.
fn drawn(pos: &Position, d: &GalleryDiagram) -> Position {
    pos.only(&d.pieces)
}

/// The marks of a diagram, by square.
fn marks(pos: &Position, d: &GalleryDiagram) -> Vec<Option<Marker>> {
    diagram_markers(&drawn(pos, d), &[d.pieces[0].0], DiagramMode::Alone)
}

fn captions(g: &Gallery, piece: &str) -> Vec<String> {
    g.pieces
        .iter()
        .find(|p| p.name == piece)
        .unwrap_or_else(|| panic!("no {piece}"))
        .diagrams
        .iter()
        .map(|d| d.caption.clone())
        .collect()
}

#[test]
fn every_piece_of_every_game_is_in_its_gallery() {
    for game in GAMES {
        let (pos, g) = gallery_of(game);
        assert_eq!(g.pieces.len(), pos.tables().variant().pieces().len());
        assert!(g.board_svg.starts_with("<svg"), "{game}");
        assert!(g.index_html.contains(r#"<img src="board.svg""#), "{game}");
        let can = standing_squares(pos.tables(), Side::FIRST);
        for (i, p) in g.pieces.iter().enumerate() {
            // A piece the rules in force never bring into play has no diagram.
            assert_eq!(
                p.diagrams.is_empty(),
                can[i].is_empty(),
                "{game}: {} has no diagram",
                p.name
            );
            assert!(
                p.declaration.starts_with(&format!("piece {} ", p.name)),
                "{game}: {} is quoted as {:?}",
                p.name,
                p.declaration
            );
            assert!(
                g.index_html
                    .contains(&format!("<h3>{}<span", p.display_name)),
                "{game}: {}",
                p.display_name
            );
            for d in &p.diagrams {
                assert!(d.svg.starts_with("<svg") && d.svg.trim_end().ends_with("</svg>"));
                assert!(
                    g.index_html.contains(&format!(r#"<img src="{}""#, d.file)),
                    "{game}: the page shows {}",
                    d.file
                );
                assert!(
                    g.index_html
                        .contains(&format!("<figcaption>{}</figcaption>", d.caption)),
                    "{game}: {}",
                    d.caption
                );
            }
        }
    }
}

#[test]
fn pieces_are_named_in_words() {
    let (_, g) = gallery_of("gi-qi-game");
    let names: Vec<&str> = g.pieces.iter().map(|p| p.display_name.as_str()).collect();
    for name in ["Heavy cavalry", "Dragon rook", "Foot soldier", "King"] {
        assert!(names.contains(&name), "{names:?}");
    }
    // The code names stay only in the quoted declarations.
    let mut outside = String::new();
    for (i, part) in g.index_html.split("<pre>").enumerate() {
        outside.push_str(if i == 0 {
            part
        } else {
            part.split_once("</pre>").map_or("", |(_, rest)| rest)
        });
    }
    for code in ["HeavyCavalry", "DragonRook", "FootSoldier"] {
        assert!(!outside.contains(code), "{code} is shown as a name");
    }
    assert_eq!(
        captions(&g, "HeavyCavalry"),
        ["Heavy cavalry on e5".to_string()]
    );
    assert!(g
        .index_html
        .contains("<h3>Heavy cavalry<span class=\"letter\">+H</span></h3>"));
    let (_, g) = gallery_of("middle-xiangqi");
    assert!(g.pieces.iter().any(|p| p.display_name == "Crossed pawn"));
}

#[test]
fn captions_name_only_the_zones_that_change_the_piece() {
    let (_, g) = gallery_of("gala-xiangqi");
    assert_eq!(
        captions(&g, "Rook"),
        ["Rook on g7, in the castle", "Rook on h8, in the road"]
    );
    assert_eq!(captions(&g, "King"), ["King on h7"]);
    for p in &g.pieces {
        for d in &p.diagrams {
            // The quadrants only confine; the near and far zones and the strip belong to the
            // option `shared-border`, which is off.
            for word in ["quadrants", "near", "far", "strip", "centre"] {
                assert!(!d.caption.contains(word), "{}", d.caption);
            }
        }
    }
    assert_eq!(
        captions(&g, "Pawn"),
        [
            "Pawn on g5, in its own castles",
            "Pawn on h5, in its own road",
            "Pawn on i7, in the hostile road",
            "Pawn on j7, in the hostile castles"
        ]
    );
    // With the option on, its zones are the ones that matter.
    let (_, g) = gallery_with("gala-xiangqi", &[("shared-border", true)]);
    let pawn = captions(&g, "Pawn").join("; ");
    assert!(pawn.contains("in the strip"), "{pawn}");
    assert!(!pawn.contains("own castles"), "{pawn}");
    // The river is drawn but changes nothing: the crossed zone does.
    let (_, g) = gallery_of("gi-qi-game");
    assert_eq!(
        captions(&g, "Lance"),
        [
            "Lance on e3, outside the crossed zone",
            "Lance on e5, in the crossed zone"
        ]
    );
    for p in &g.pieces {
        for d in &p.diagrams {
            assert!(!d.caption.contains("river") && !d.caption.contains("strong"));
        }
    }
    let (_, g) = gallery_of("xiangqi");
    assert_eq!(
        captions(&g, "Soldier"),
        [
            "Soldier on e5, in its own half",
            "Soldier on e6, outside its own half"
        ]
    );
    // The general cannot leave its palace, which changes nothing else: no zone named.
    assert_eq!(captions(&g, "General"), ["General on e2"]);
    let (_, g) = gallery_of("chess");
    assert_eq!(captions(&g, "Bishop"), ["Bishop on d4"]);
    assert_eq!(
        captions(&g, "Pawn"),
        ["Pawn on d4", "Pawn on d2, in the pawn rank"]
    );
}

#[test]
fn pieces_are_drawn_only_where_they_can_stand() {
    for game in GAMES {
        let (pos, g) = gallery_of(game);
        let t = pos.tables();
        let can = standing_squares(t, Side::FIRST);
        for (i, p) in g.pieces.iter().enumerate() {
            for d in &p.diagrams {
                let (sq, piece) = d.pieces[0];
                assert_eq!(piece.kind.index(), i);
                assert!(
                    can[i].contains(sq),
                    "{game}: {} on {}, where it never stands",
                    p.name,
                    d.square
                );
            }
        }
    }
    // Gala's Korna never enters the holy centre.
    let (pos, g) = gallery_of("gala");
    let t = pos.tables();
    let centre: Vec<Square> = ["e5", "f5", "e6", "f6"]
        .iter()
        .map(|s| t.geometry().parse(s).unwrap())
        .collect();
    let korna = t.variant().piece_by_name("Korna").unwrap();
    let can = standing_squares(t, Side::FIRST);
    assert!(centre.iter().all(|&sq| !can[korna.index()].contains(sq)));
    for name in ["Korna", "Horsa"] {
        for d in &g.pieces.iter().find(|p| p.name == name).unwrap().diagrams {
            assert!(!centre.contains(&d.pieces[0].0), "{}", d.caption);
        }
    }
    // The Gala goes there, and jumps out of it.
    assert_eq!(captions(&g, "Gala")[0], "Gala on e5, in the centre");
    // A chess pawn never stands on its first or last rank.
    let pos = common::start("chess.variant");
    let t = pos.tables();
    let pawn = t.variant().piece_by_name("Pawn").unwrap();
    let queen = t.variant().piece_by_name("Queen").unwrap();
    let can = standing_squares(t, Side::FIRST);
    assert_eq!(can[pawn.index()].len(), 48);
    assert!(can[pawn.index()]
        .iter()
        .all(|sq| (1..7).contains(&t.geometry().rank(sq))));
    // A promoted queen stands on the last rank.
    assert!(can[queen.index()].contains(t.geometry().parse("a8").unwrap()));
}

#[test]
fn the_bodyguards_teleport_is_drawn_next_to_its_king() {
    let (pos, g) = gallery_of("gi-qi-game");
    let t = pos.tables();
    let king = t.variant().piece_by_name("King").unwrap();
    for name in ["Bodyguard", "Warrior"] {
        let p = g.pieces.iter().find(|p| p.name == name).unwrap();
        for d in &p.diagrams {
            assert_eq!(d.pieces.len(), 2, "{}", d.caption);
            let (at, companion) = d.pieces[1];
            assert_eq!(companion.kind, king);
            assert_eq!(t.geometry().name(at).to_string(), "e1");
            assert!(d.caption.ends_with("with its king on e1"), "{}", d.caption);
            let m = marks(&pos, d);
            let teleports: Vec<String> = t
                .geometry()
                .squares()
                .filter(|sq| m[sq.index()] == Some(Marker::Teleport))
                .map(|sq| t.geometry().name(sq).to_string())
                .collect();
            // Next to the king, not where its own moves would reach the king: a bodyguard
            // on e2 would step back onto e1, a warrior on d2 or f2 diagonally.
            let expected = if name == "Bodyguard" {
                ["d1", "f1", "d2", "f2"].as_slice()
            } else {
                ["d1", "f1", "e2"].as_slice()
            };
            assert_eq!(teleports, expected, "{}", d.caption);
            assert!(d.svg.contains(r#"class="marker teleport""#));
        }
    }
}

#[test]
fn the_kings_diagram_shows_its_bodyguard_rule() {
    let (pos, g) = gallery_of("gi-qi-game");
    let t = pos.tables();
    let geo = t.geometry();
    let bodyguard = t.variant().piece_by_name("Bodyguard").unwrap();
    let d = &g.pieces.iter().find(|p| p.name == "King").unwrap().diagrams[0];
    assert_eq!(d.pieces.len(), 2, "{}", d.caption);
    let (guard_at, guard) = d.pieces[1];
    assert_eq!(guard.kind, bodyguard);
    assert_eq!(guard.side, Side::FIRST);
    assert!(d.caption.contains("with its bodyguard on"), "{}", d.caption);
    let block = |sq: Square| (geo.file(sq) / 3, geo.rank(sq) / 3);
    let m = marks(&pos, d);
    let targets: Vec<Square> = geo.squares().filter(|sq| m[sq.index()].is_some()).collect();
    // Some steps, but only into the block that holds the bodyguard.
    assert!(!targets.is_empty() && targets.len() < 8, "{targets:?}");
    assert!(targets.iter().all(|&sq| block(sq) == block(guard_at)));
    // Alone, the king would step anywhere around.
    let alone = pos.alone(d.pieces[0].0, d.pieces[0].1);
    let free = diagram_markers(&alone, &[d.pieces[0].0], DiagramMode::Alone);
    assert_eq!(free.iter().flatten().count(), 8);
}

/// The zones that hold `sq` for the first side, by index.
fn zones_at(pos: &Position, sq: Square) -> Vec<usize> {
    let zones = pos.tables().variant().zones();
    (0..zones.len())
        .filter(|&i| zones[i].squares[0].contains(sq))
        .collect()
}

/// For each zone, the zone that is its mirror image left to right for the first side.
fn mirror_zones(pos: &Position) -> Vec<Option<usize>> {
    let g = pos.tables().geometry();
    let zones = pos.tables().variant().zones();
    let image = |i: usize| -> Vec<Square> {
        let mut v: Vec<Square> = zones[i].squares[0]
            .iter()
            .map(|sq| {
                g.square(g.width as i32 - 1 - g.file(sq), g.rank(sq))
                    .unwrap()
            })
            .collect();
        v.sort();
        v
    };
    (0..zones.len())
        .map(|i| {
            (0..zones.len()).find(|&j| zones[j].squares[0].iter().collect::<Vec<_>>() == image(i))
        })
        .collect()
}

/// Whether two diagrams of a piece show the same movement, moved and perhaps mirrored left to
/// right: the same marks and pieces wherever both are on the board, each mark on a square of
/// the same zones (their mirror images, mirrored).
fn same_movement(pos: &Position, a: &GalleryDiagram, b: &GalleryDiagram, mirror: bool) -> bool {
    let g = pos.tables().geometry();
    let cells = |d: &GalleryDiagram| -> Vec<Option<String>> {
        let p = drawn(pos, d);
        marks(pos, d)
            .iter()
            .enumerate()
            .map(
                |(i, m)| match p.piece_at(Square::from_index(i).expect("a square")) {
                    Some(piece) => Some(format!("{piece:?}")),
                    None => m.map(|m| format!("{m:?}")),
                },
            )
            .collect()
    };
    let images = mirror_zones(pos);
    let (ca, cb) = (cells(a), cells(b));
    let (sa, sb) = (a.pieces[0].0, b.pieces[0].0);
    let flip = if mirror { -1 } else { 1 };
    g.squares().all(|sq| {
        let (df, dr) = (g.file(sq) - g.file(sa), g.rank(sq) - g.rank(sa));
        let Some(other) = g.square(g.file(sb) + flip * df, g.rank(sb) + dr) else {
            return true;
        };
        if ca[sq.index()] != cb[other.index()] {
            return false;
        }
        if ca[sq.index()].is_none() || drawn(pos, a).piece_at(sq).is_some() {
            return true;
        }
        let mut here: Vec<Option<usize>> = zones_at(pos, sq)
            .into_iter()
            .map(|z| if mirror { images[z] } else { Some(z) })
            .collect();
        here.sort();
        let there: Vec<Option<usize>> = zones_at(pos, other).into_iter().map(Some).collect();
        here == there
    })
}

#[test]
fn no_diagram_repeats_another_moved_or_mirrored() {
    for game in GAMES {
        let (pos, g) = gallery_of(game);
        for p in &g.pieces {
            for (i, a) in p.diagrams.iter().enumerate() {
                for b in &p.diagrams[..i] {
                    for mirror in [false, true] {
                        assert!(
                            !same_movement(&pos, a, b, mirror),
                            "{game}: {} repeats {}",
                            a.caption,
                            b.caption
                        );
                    }
                }
            }
        }
    }
    // Gala's Kampa: one castle of the two, which mirror each other.
    let (_, g) = gallery_of("gala");
    assert_eq!(
        captions(&g, "Kampa"),
        [
            "Kampa on c2, in the kampa start, in the west castle",
            "Kampa on e5, outside the kampa start, in the centre",
            "Kampa on e4, outside the kampa start",
            "Kampa on d4, outside the kampa start, in the west castle"
        ]
    );
}

#[test]
fn the_page_states_the_rules_in_words() {
    let (_, g) = gallery_of("gi-qi-game");
    let html = &g.index_html;
    for words in [
        "Gi-Qi-Game is played by two sides, first and second, on a board of 9 files and 9 ranks.",
        "A side in check that has no legal move is checkmated and loses.",
        "A side that is not in check but has no legal move is stalemated and loses.",
        "A move that recreates a position that occurred before loses for the side that made it.",
        "may not face each other along a file, rank or diagonal",
        "A captured piece goes to the captor&#39;s hand",
        "bodyguard to warrior",
        "<code>swap-river</code>",
    ] {
        let words = words.replace("&#39;", "'");
        assert!(html.contains(&words), "{words}");
    }
    let bodyguard = g.pieces.iter().find(|p| p.name == "Bodyguard").unwrap();
    let text = bodyguard.prose.sentences().join(" ");
    for words in [
        "Outside the crossed zone, it steps one square forward, backward or diagonally forward.",
        "In the crossed zone, it steps one square orthogonally or diagonally forward.",
        "(a teleport)",
        "It may promote to a warrior on a move that ends in or starts from the promotion zone",
        "Betza (approximate: it has no words for some of its rules): `fFvW` outside the \
         crossed zone and `WfF` in the crossed zone.",
    ] {
        assert!(text.contains(words), "{words}\n{text}");
    }
    assert!(html.contains("<code>fFvW</code>"));

    let (_, g) = gallery_of("gala-xiangqi");
    let html = &g.index_html;
    for words in [
        "There is no check",
        "A side that has lost all its royal pieces (kings, generals and advisors) loses.",
        "The third occurrence of the same position draws the game.",
        "turning where the zones meet (a bent slide)",
        "It never leaves its part of the quadrants",
    ] {
        assert!(html.contains(words), "{words}");
    }
    let (_, g) = gallery_of("gala");
    assert!(g
        .index_html
        .contains("A side with exactly two galas in the centre wins (“great victory”)."));
    let (_, g) = gallery_of("chess");
    assert!(g
        .index_html
        .contains("It must promote to a queen, rook, bishop or knight"));
}

#[test]
fn large_boards_keep_their_cells_legible() {
    // A cell is drawn 40 px wide: the page never lays a diagram out narrower than 32 px a
    // cell, so a 16x16 board's diagram takes the page's width.
    for game in ["gala-xiangqi", "chess"] {
        let (pos, g) = gallery_of(game);
        let files = pos.tables().geometry().width as u32;
        let min: u32 = g
            .index_html
            .split_once("minmax(min(100%, ")
            .and_then(|(_, rest)| rest.split_once("px"))
            .map(|(n, _)| n.parse().unwrap())
            .unwrap();
        assert!(min >= files * 32, "{game}: {min}");
        assert!(!g.index_html.contains("width: 320px"));
    }
}

#[test]
fn gallery_diagrams_and_prose_as_text_json_and_svg() {
    let mut text = String::new();
    let mut prose = String::new();
    let mut json = Vec::new();
    let mut svgs = String::new();
    for game in GAMES {
        let (pos, g) = gallery_of(game);
        text.push_str(&format!("# {game}\n"));
        prose.push_str(&format!("# {game}\n"));
        for section in [
            &g.game.overview,
            &g.game.ending,
            &g.game.play,
            &g.game.promotions,
            &g.game.drops,
        ] {
            for s in section {
                prose.push_str(&format!("- {s}\n"));
            }
        }
        for o in &g.game.options {
            prose.push_str(&format!(
                "- option {} {}{}: {}\n",
                o.name,
                o.setting,
                if o.default { " (default)" } else { "" },
                o.description
            ));
        }
        for place in &g.game.places {
            prose.push_str(&format!("- {}: {}\n", place.name, place.squares));
        }
        for p in &g.pieces {
            prose.push_str(&format!("## {} ({})\n", p.display_name, p.letter));
            for s in p.prose.sentences() {
                prose.push_str(&format!("{s}\n"));
            }
            for d in &p.diagrams {
                let here = drawn(&pos, d);
                let sq = d.pieces[0].0;
                text.push_str(&format!("{}\n", d.caption));
                text.push_str(&move_diagram(&here, &[sq], DiagramMode::Alone));
                text.push('\n');
                if json.iter().all(|j: &rulebook::render::DiagramInfo| {
                    j.variant != pos.tables().variant().name()
                }) {
                    json.push(diagram_info(&here, &[sq], DiagramMode::Alone));
                }
            }
        }
        let first = &g.pieces[0].diagrams[0];
        svgs.push_str(&format!("<!-- {game}: {} -->\n{}", first.file, first.svg));
    }
    insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("gallery_text", text);
        insta::assert_snapshot!("gallery_prose", prose);
        insta::assert_snapshot!("gallery_json", serde_json::to_string_pretty(&json).unwrap());
        insta::assert_snapshot!("gallery_svg_first_pieces", svgs);
    });
}

#[test]
fn every_diagram_is_the_first_sides() {
    for game in GAMES {
        let (_, g) = gallery_of(game);
        for p in &g.pieces {
            for d in &p.diagrams {
                let Piece { side, .. } = d.pieces[0].1;
                assert_eq!(side, Side::FIRST);
            }
        }
    }
}
