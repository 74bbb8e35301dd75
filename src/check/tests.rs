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
    let g = v.geometry;
    assert_eq!((g.width, g.height), (9, 10));
    let palace = &v.zones[v.zone_by_name("palace").unwrap().0 as usize];
    let expected: SquareSet = ["d8", "e8", "f8", "d9", "e9", "f9", "d10", "e10", "f10"]
        .iter()
        .map(|s| g.parse(s).unwrap())
        .collect();
    assert_eq!(palace.squares[1], expected);
    let horse = &v.pieces[v.piece_by_name("Horse").unwrap().index()];
    assert_eq!(horse.patterns.len(), 1);
    let legs = &horse.patterns[0].legs;
    assert_eq!(legs.len(), 2);
    assert_eq!(legs[0].kind, LegKind::Step);
    assert_eq!(
        legs[0].dirs,
        Dirs::Vectors(vec![(0, 1), (1, 0), (0, -1), (-1, 0)])
    );
    assert_eq!(legs[1].dirs, Dirs::Outward);
}
