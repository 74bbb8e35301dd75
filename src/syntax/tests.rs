use super::*;

fn ok(text: &str) -> ast::File {
    match parse(text) {
        Ok(f) => f,
        Err(e) => panic!("{e:?}"),
    }
}

#[test]
fn shipped_definitions_parse() {
    for name in ["chess", "xiangqi", "shogi"] {
        let text = std::fs::read_to_string(format!("definitions/{name}.variant")).unwrap();
        ok(&text);
    }
}
