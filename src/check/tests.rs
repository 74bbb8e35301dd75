use super::*;
use crate::model::{Dirs, LegKind, SquareSet};

fn definition(name: &str) -> Variant {
    let text = std::fs::read_to_string(format!("definitions/{name}.variant")).unwrap();
    match load(name, &text) {
        Ok(v) => v,
        Err(e) => panic!("{e:?}"),
    }
}

#[test]
fn xiangqi_resolves() {
    let v = definition("xiangqi");
    let g = v.geometry();
    assert_eq!((g.width, g.height), (9, 10));
    let palace = &v.zones()[v.zone_by_name("palace").unwrap().index()];
    let expected: SquareSet = ["d8", "e8", "f8", "d9", "e9", "f9", "d10", "e10", "f10"]
        .iter()
        .map(|s| g.parse(s).unwrap())
        .collect();
    assert_eq!(palace.squares[1], expected);
    let horse = &v.pieces()[v.piece_by_name("Horse").unwrap().index()];
    assert_eq!(horse.patterns.len(), 1);
    let legs = &horse.patterns[0].legs;
    assert_eq!(legs.len(), 2);
    assert_eq!(legs[0].kind, LegKind::Step);
    assert_eq!(
        legs[0].arms[0].dirs,
        Dirs::Vectors(vec![(0, 1), (1, 0), (0, -1), (-1, 0)])
    );
    assert_eq!(legs[1].arms[0].dirs, Dirs::Outward);
}

#[test]
fn chess_castlings_and_promotions_resolve() {
    let v = definition("chess");
    let g = v.geometry();
    assert_eq!(v.rules().castlings.len(), 4);
    let black_short = &v.rules().castlings[1];
    assert_eq!(black_short.side, crate::model::Side::SECOND);
    assert_eq!(g.name(black_short.king_from).to_string(), "e8");
    assert_eq!(g.name(black_short.partner_to).to_string(), "f8");
    let pawn = &v.pieces()[v.piece_by_letter("P").unwrap().index()];
    assert_eq!(pawn.promotions[0].choices.len(), 4);
    assert!(pawn.promotions[0].forced);
    assert!(pawn.patterns[1].creates_en_passant && pawn.patterns[2].takes_en_passant);
    assert_eq!(v.setup().len(), 32);
    assert_eq!(v.rules().move_limit, Some(100));
}

#[test]
fn shogi_drops_and_likes_resolve() {
    let v = definition("shogi");
    assert!(v.rules().drops);
    let tokin = &v.pieces()[v.piece_by_letter("+P").unwrap().index()];
    let gold = &v.pieces()[v.piece_by_name("Gold").unwrap().index()];
    assert_eq!(tokin.patterns, gold.patterns);
    assert_eq!(tokin.demotes_to, v.piece_by_name("Pawn"));
    let pawn = &v.pieces()[v.piece_by_name("Pawn").unwrap().index()];
    assert_eq!(pawn.drops.max_per_file, Some(1));
    assert!(pawn.drops.no_mate);
    assert!(pawn.promotions[0].from_zone_too);
}

const TINY: &str = "variant \"Tiny\"\nboard 4 x 4\nsides white north, black south\n\
    piece King K royal\n  move step any\n  into ZONE\nrules\n  checkmate\n\
    setup\n  ...k\n  ....\n  ....\n  K...\n";

fn zone_sets(zones: &str) -> Vec<Vec<String>> {
    let text = format!("{zones}\n{}", TINY.replace("ZONE", "z"));
    let v = match load("tiny", &text) {
        Ok(v) => v,
        Err(e) => panic!("{e:?}"),
    };
    let g = v.geometry();
    let z = &v.zones()[v.zone_by_name("z").unwrap().index()];
    z.squares
        .iter()
        .map(|s| s.iter().map(|sq| g.name(sq).to_string()).collect())
        .collect()
}

#[test]
fn zone_sides_follow_the_symmetry() {
    assert_eq!(
        zone_sets("zone z = a1 b2, mirrored"),
        [["a1", "b2"], ["b3", "a4"]]
    );
    assert_eq!(
        zone_sets("zone z = a1 b2, rotated"),
        [["a1", "b2"], ["c3", "d4"]]
    );
    assert_eq!(zone_sets("zone z = a1 b2"), [["a1", "b2"], ["a1", "b2"]]);
    // A name in a zone without symmetry is read for each side separately.
    assert_eq!(
        zone_sets("zone h = a1, mirrored\nzone z = h b1"),
        [["a1", "b1"], ["b1", "a4"]]
    );
}

#[test]
fn problems_have_exact_messages() {
    let text = TINY.replace("ZONE", "palce");
    let err = load("tiny", &text).unwrap_err();
    let messages: Vec<String> = err.problems().iter().map(|p| p.to_string()).collect();
    assert_eq!(messages, ["cannot find zone `palce`"]);
    assert_eq!(err.to_string(), "`tiny` is not a valid definition: 1 error");
}

#[test]
fn warnings_do_not_refuse_a_definition() {
    let text = format!(
        "zone z = a1 d4\nzone spare = b1\n{}",
        TINY.replace("ZONE", "z")
    );
    assert!(load("tiny", &text).is_ok());
    let report = check_source("tiny", &text);
    assert!(!report.has_errors);
    let d = report.diagnostics.unwrap();
    assert_eq!(d.to_string(), "`tiny` has 1 warning");
    assert_eq!(d.problems()[0].to_string(), "zone `spare` is never used");
}

#[test]
fn limits_on_pieces_patterns_and_listed_problems() {
    // 52 distinct letters exist (`A`..`Z`, `+A`..`+Z`), so more pieces repeat letters.
    let letter = |i: u8| match i {
        0..=25 => ((b'A' + i) as char).to_string(),
        26..=51 => format!("+{}", (b'A' + i - 26) as char),
        _ => "A".to_string(),
    };
    let pieces: String = (0..150)
        .map(|i| format!("piece P{i} {}\n  move step any\n", letter(i)))
        .collect();
    let d = check_source("many", &format!("{TINY}{pieces}"))
        .diagnostics
        .unwrap();
    let codes: Vec<String> = d
        .problems()
        .iter()
        .filter_map(|p| miette::Diagnostic::code(p).map(|c| c.to_string()))
        .collect();
    assert!(codes.iter().any(|c| c == "rulebook::piece::too_many"));
    assert_eq!(codes.len(), crate::Diagnostics::MAX_LISTED + 1);
    assert_eq!(codes.last().unwrap(), "rulebook::file::too_many_problems");

    let leaps: Vec<String> = (0..1100)
        .map(|i| format!("step [{},{}]", i % 50 - 25, i / 50 + 1))
        .collect();
    let text = TINY.replace(
        "  into ZONE\n",
        &format!("  move {}\n", leaps.join("\n    | ")),
    );
    let err = load("leaps", &text).unwrap_err();
    assert_eq!(
        err.problems()[0].to_string(),
        "piece `King` has more than 1024 move patterns"
    );
}
