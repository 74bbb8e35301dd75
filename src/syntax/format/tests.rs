use super::*;

/// Lays `text` out, and checks that laying the result out again changes nothing.
fn fmt(text: &str) -> String {
    let once = format(text).unwrap_or_else(|e| panic!("{text:?} does not format: {e:?}"));
    let twice = format(&once).unwrap_or_else(|e| panic!("{once:?} does not format: {e:?}"));
    assert_eq!(twice, once, "formatting {text:?} twice");
    once
}

#[test]
fn tokens_are_spaced_as_the_shipped_definitions_write_them() {
    assert_eq!(
        fmt("zone  a=ranks 1 - 5 ,mirrored\nzone b = files a -c\tfile e , drawn \"+\"\n"),
        "zone a = ranks 1-5, mirrored\nzone b = files a-c file e, drawn \"+\"\n"
    );
    assert_eq!(
        fmt("piece N N\n  move leap ( 1 , 2 )|leap [ -1 , 2 ] , move-only\n"),
        "piece N N\n  move leap (1,2) | leap [-1,2], move-only\n"
    );
    assert_eq!(
        fmt("rules\n  if  drops :drops\n  when 1 King in centre wins \"hill  # not a comment\"\n"),
        "rules\n  if drops: drops\n  when 1 King in centre wins \"hill  # not a comment\"\n"
    );
    assert_eq!(
        fmt("zone a = ( a1 b1 ) except ( not c3 )\nboard 8x8\n"),
        "zone a = (a1 b1) except (not c3)\nboard 8 x 8\n"
    );
}

#[test]
fn clauses_are_indented_two_and_their_continuations_four() {
    assert_eq!(
        fmt("variant \"V\"\n known as \"v\" in xboard\npiece King K\nroyal\n      move step any\npromote to Queen\n in last-rank,\n      forced\n"),
        "variant \"V\"\n  known as \"v\" in xboard\npiece King K\n  royal\n  move step any\n  promote to Queen\n    in last-rank,\n    forced\n"
    );
    // A line going on with the declaration's first line is a part's line.
    assert_eq!(
        fmt("zone a = a1 b1\n        c1 d1, mirrored\nsides white north,\n black south\n"),
        "zone a = a1 b1\n  c1 d1, mirrored\nsides white north,\n  black south\n"
    );
    // Declarations written on one line get a line each.
    assert_eq!(
        fmt("board 8 x 8 sides white north, black south  # both\n"),
        "board 8 x 8\nsides white north, black south  # both\n"
    );
}

#[test]
fn alternatives_on_their_own_lines_line_up_with_the_first() {
    assert_eq!(
        fmt("piece G G\n  move in centre: step any\n | step orthogonal, move-only\n\t\t| leap (1,2)\n"),
        "piece G G\n  move in centre: step any\n     | step orthogonal, move-only\n     | leap (1,2)\n"
    );
    assert_eq!(
        fmt("partition halves = ranks 1-4\n | ranks 5-8\n"),
        "partition halves = ranks 1-4\n                 | ranks 5-8\n"
    );
}

#[test]
fn comments_and_blank_lines_are_kept_tidied() {
    let text = "\n\n# head  \n\n\n\nvariant \"V\"   # name\n\n\n  # before board\nboard 8 x 8\npiece K K\n# a clause's comment\n    move step any # step\n\n\n\n# tail\n\n\n";
    assert_eq!(
        fmt(text),
        "# head\n\nvariant \"V\"  # name\n\n# before board\nboard 8 x 8\npiece K K\n  # a clause's comment\n  move step any  # step\n\n# tail\n"
    );
}

#[test]
fn line_ends_tabs_and_the_last_newline_are_normalised() {
    assert_eq!(
        fmt("board 8 x 8\r\npiece K K\r\n\tmove step any\r\n\r\n\r\nrules\rcheckmate"),
        "board 8 x 8\npiece K K\n  move step any\n\nrules\n  checkmate\n"
    );
    assert_eq!(fmt(""), "");
    assert_eq!(fmt("\n\n  \n"), "");
    assert_eq!(fmt("# only a comment"), "# only a comment\n");
}

#[test]
fn picture_rows_are_kept_and_reindented() {
    assert_eq!(
        fmt("setup   # start\n        rnbk\n\n\n        # a comment between rows\n\tpppp\n          ..PP\n        [Nn]\n"),
        "setup  # start\n  rnbk\n\n  # a comment between rows\n  pppp\n    ..PP\n  [Nn]\n"
    );
    // Side-tagged cells aligned by extra spaces keep their columns.
    assert_eq!(
        fmt("setup\n   rK  -\n    - rQ\n"),
        "setup\n  rK  -\n   - rQ\n"
    );
    assert_eq!(
        fmt("zone z = mask   # corners\n\n    X..X  # top\n    .##.\n    X..X\nzone y = a1\n"),
        "zone z = mask  # corners\n\n  X..X  # top\n  .##.\n  X..X\nzone y = a1\n"
    );
}

#[test]
fn a_line_after_a_mask_is_not_made_a_row() {
    // Unindented, these lines end the mask; indented, they would be rows of it.
    assert_eq!(
        fmt("zone z = mask\n  X.\n  .X\n, mirrored\n"),
        "zone z = mask\n  X.\n  .X\n, mirrored\n"
    );
    assert_eq!(
        fmt("zone z = mask\n  X.\n  .X\n# the union\n  rank 1\n"),
        "zone z = mask\n  X.\n  .X\n# the union\n  rank 1\n"
    );
    assert_eq!(
        fmt("zone z = mask\n  X.\n  .X\nrank 1\n"),
        "zone z = mask\n  X.\n  .X\nrank 1\n"
    );
    // After a blank line, or on a line that starts with a word that ends a picture, the usual
    // indentation is safe.
    assert_eq!(
        fmt("zone z = mask\n  X.\n  .X\n\n, mirrored\n"),
        "zone z = mask\n  X.\n  .X\n\n  , mirrored\n"
    );
    assert_eq!(
        fmt("zone z = mask\n  X.\n  .X\nexcept a1\n"),
        "zone z = mask\n  X.\n  .X\n  except a1\n"
    );
    // Indented, this line is no row only because of its double blanks, which go.
    assert_eq!(
        fmt("zone z = mask\n  x x\n  x except  x\n"),
        "zone z = mask\n  x x\nx except x\n"
    );
    // An indented `#` line after a row is a row, not a comment.
    assert_eq!(
        fmt("zone z = mask\n  X.\n    # .\nzone y = a1\n"),
        "zone z = mask\n  X.\n    # .\nzone y = a1\n"
    );
}

#[test]
fn syntax_errors_are_the_checkers() {
    let text = "board 8 x\nsides white north, black south\npiece K K\n  move stride any\n";
    let errors = format(text).unwrap_err();
    let expected = crate::syntax::parse(text).unwrap_err();
    assert_eq!(errors.len(), 2);
    assert_eq!(format!("{errors:?}"), format!("{expected:?}"));
}

#[test]
fn a_layout_that_reads_differently_is_refused() {
    let text = "zone z = mask\n  X.\n, mirrored\n";
    let file = parse_file(text).unwrap();
    let tokens = tokens(file.clone(), text);
    let offsets: Vec<usize> = tokens.iter().map(|t| t.start).collect();
    // Indented, `, mirrored` is a row of the mask.
    let wrong = "zone z = mask\n  X.\n  , mirrored\n";
    let error = verify(file.clone(), wrong, &tokens, &offsets).unwrap_err();
    assert!(matches!(
        error,
        DefinitionError::FormatChangesMeaning { .. }
    ));
    assert!(verify(
        file.clone(),
        "zone z = mask\n X.\n, mirrored",
        &tokens,
        &offsets
    )
    .is_ok());
    assert!(verify(file, "zone z = mask X.\n", &tokens, &offsets).is_err());
}

#[test]
fn strings_names_and_letters_are_kept_exactly() {
    let text = "variant \"Odd  \t spacing\"\npiece Promoted_Silver +S value -1.5\n  move like Q~\n";
    assert_eq!(fmt(text), text);
}
