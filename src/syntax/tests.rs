use pest::{consumes_to, fails_with, parses_to};

use super::*;

fn ok(text: &str) -> ast::File {
    match parse(text) {
        Ok(f) => f,
        Err(e) => panic!("{e:?}"),
    }
}

fn err(text: &str) -> String {
    match parse(text) {
        Ok(_) => panic!("expected a syntax error in {text:?}"),
        Err(e) => e[0].to_string(),
    }
}

fn zone_expr(text: &str) -> ast::ZoneExpr {
    let file = ok(text);
    match file.items.into_iter().next() {
        Some(ast::Item::Zone(z)) => z.expr,
        other => panic!("expected a zone, got {other:?}"),
    }
}

fn only_term(expr: &ast::ZoneExpr) -> &ast::ZoneTerm {
    assert!(expr.rest.is_empty());
    assert_eq!(expr.first.factors.len(), 1);
    &expr.first.factors[0].term
}

fn setup_rows(text: &str) -> Vec<Vec<ast::SetupCell>> {
    let file = ok(text);
    let setup = file
        .items
        .into_iter()
        .find_map(|i| match i {
            ast::Item::Setup(s) => Some(s),
            _ => None,
        })
        .expect("a setup");
    setup
        .rows
        .into_iter()
        .map(|r| r.cells.into_iter().map(|c| c.node).collect())
        .collect()
}

#[test]
fn shipped_definitions_parse() {
    for name in ["chess", "xiangqi", "shogi"] {
        let text = std::fs::read_to_string(format!("definitions/{name}.variant")).unwrap();
        ok(&text);
    }
}

#[test]
fn square_tokens() {
    parses_to! {
        parser: VariantParser,
        input: "z26",
        rule: Rule::lone_square,
        tokens: [lone_square(0, 3, [square(0, 3)])]
    };
    parses_to! {
        parser: VariantParser,
        input: "a1-c10",
        rule: Rule::square_range,
        tokens: [square_range(0, 6, [square(0, 2), square(3, 6)])]
    };
    fails_with! {
        parser: VariantParser,
        input: "e4x",
        rule: Rule::lone_square,
        positives: vec![Rule::lone_square],
        negatives: vec![],
        pos: 0
    };
}

#[test]
fn squares_are_not_names() {
    parses_to! {
        parser: VariantParser,
        input: "e4-zone",
        rule: Rule::ident,
        tokens: [ident(0, 7)]
    };
    assert!(VariantParser::parse(Rule::ident, "e4").is_err());
    assert!(VariantParser::parse(Rule::ident, "z26").is_err());
    assert!(VariantParser::parse(Rule::ident, "Z26").is_ok());
}

#[test]
fn keywords_need_a_word_boundary() {
    assert!(VariantParser::parse(Rule::kw_move, "move-only").is_err());
    assert!(VariantParser::parse(Rule::kw_move_only, "move-only").is_ok());
    assert!(VariantParser::parse(Rule::ident, "moves").is_ok());
    assert!(VariantParser::parse(Rule::ident, "move").is_err());
    assert!(VariantParser::parse(Rule::ident, "pawn-rank").is_ok());
}

#[test]
fn big_squares_and_ranges_in_zones() {
    let e = zone_expr("zone z = z26");
    assert!(matches!(only_term(&e), ast::ZoneTerm::Square(s) if s.node == "z26"));
    let e = zone_expr("zone z = d1-f3");
    match only_term(&e) {
        ast::ZoneTerm::Range { from, to } => {
            assert_eq!((from.node.as_str(), to.node.as_str()), ("d1", "f3"));
            assert_eq!((from.span, to.span), (Span::new(9, 11), Span::new(12, 14)));
        }
        t => panic!("{t:?}"),
    }
    let e = zone_expr("zone z = ranks 7-9 files a - c");
    assert_eq!(e.first.factors.len(), 2);
}

#[test]
fn zone_operators_are_flat_and_left_to_right() {
    let e = zone_expr("zone z = a1 b1 except b1 and not not not (a1 c1)");
    assert_eq!(e.first.factors.len(), 2);
    let ops: Vec<ast::ZoneOp> = e.rest.iter().map(|(op, _)| op.node).collect();
    assert_eq!(ops, [ast::ZoneOp::Except, ast::ZoneOp::And]);
    let last = &e.rest[1].1.factors[0];
    assert!(last.negated, "three `not`s negate once");
    assert!(matches!(last.term, ast::ZoneTerm::Group(_)));
}

#[test]
fn masks_are_read_line_by_line() {
    let e = zone_expr("zone z = mask   # a comment after the keyword\n  x.\n  .X\nzone y = a1");
    match only_term(&e) {
        ast::ZoneTerm::Mask(m) => {
            let rows: Vec<String> = m
                .rows
                .iter()
                .map(|r| r.cells.iter().map(|c| c.node).collect())
                .collect();
            assert_eq!(rows, ["x.", ".X"]);
        }
        t => panic!("{t:?}"),
    }
    // Single spaces separate cells; `#` is a cell, and a comment needs two blanks before it.
    let e = zone_expr("zone z = mask\n  x # .  # comment\n\tx x x\n");
    match only_term(&e) {
        ast::ZoneTerm::Mask(m) => {
            assert_eq!(m.rows[0].cells.len(), 3);
            assert_eq!(m.rows[1].cells.len(), 3);
        }
        t => panic!("{t:?}"),
    }
}

#[test]
fn a_picture_ends_at_an_indented_keyword() {
    let file = ok("zone z = mask\n  x.\n  .x\n  and rank 1\n");
    let ast::Item::Zone(z) = &file.items[0] else {
        panic!()
    };
    assert_eq!(z.expr.rest.len(), 1);
}

#[test]
fn setups_with_multi_digit_runs_and_promoted_pieces() {
    let rows = setup_rows("setup\n  k 10 +r\n  12\n  =-_.+P\n");
    use ast::SetupCell::{Empty, Piece};
    assert_eq!(
        rows,
        vec![
            vec![Piece("k".into()), Empty(Some(10)), Piece("+r".into())],
            vec![Empty(Some(12))],
            vec![
                Empty(Some(1)),
                Empty(Some(1)),
                Empty(Some(1)),
                Empty(Some(1)),
                Piece("+P".into())
            ],
        ]
    );
}

#[test]
fn setup_rows_may_be_separated_by_comment_lines() {
    let rows = setup_rows("setup\n  k.\n  # the middle\n\n  ..\n  .K  # white\npiece K K\n");
    assert_eq!(rows.len(), 3);
}

#[test]
fn fen_setups_split_on_slashes_with_spans() {
    let text = "setup \"2k/3/K2\"";
    let file = ok(text);
    let ast::Item::Setup(s) = &file.items[0] else {
        panic!()
    };
    assert_eq!(s.form, ast::SetupForm::Fen);
    assert_eq!(s.rows.len(), 3);
    let k = &s.rows[2].cells[0];
    assert_eq!(&text[k.span.start..k.span.end], "K");
    let big = setup_rows("setup \"99999999999999999999\"");
    assert_eq!(big, vec![vec![ast::SetupCell::Empty(None)]]);
}

#[test]
fn comments_and_crlf_are_blanks() {
    let text = "variant \"A\" # name\r\nboard 8x8 # no spaces needed around x\r\n# only a comment\r\nsetup\r\n  k.\r\n  .K\r\n";
    let file = ok(text);
    assert_eq!(file.items.len(), 3);
    assert_eq!(setup_rows(text).len(), 2);
}

#[test]
fn spans_end_at_the_last_token() {
    let text = "sides white north, black south   # comment\n\npiece K K\n";
    let file = ok(text);
    let ast::Item::Sides(s) = &file.items[0] else {
        panic!()
    };
    assert_eq!(
        &text[s.span.start..s.span.end],
        "sides white north, black south"
    );
}

#[test]
fn syntax_errors_name_what_was_expected() {
    assert_eq!(
        err("board 8 x"),
        "unexpected end of file, expected a number"
    );
    assert_eq!(err("zone rank = a1"), "expected a name, found `rank`");
    assert_eq!(
        err("piece P P\n  move step forwards"),
        "expected a direction, found `forwards`"
    );
    assert_eq!(err("variant \"x"), "unterminated string");
    assert_eq!(
        err(&format!("zone z = {}a1", "(".repeat(40))),
        "parentheses nest too deeply"
    );
}
