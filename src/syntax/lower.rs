//! Pest pairs to syntax tree nodes: one function per grammar rule.
//!
//! Each function relies on the shape the grammar guarantees and says which guarantee in its
//! `expect` messages; a broken guarantee is a bug in this module, not in the input.

use pest::iterators::Pair;

use super::{
    ast::{self, Span, Spanned},
    Rule,
};

type P<'i> = Pair<'i, Rule>;

/// Where a pair was written, without the blanks and comments pest skips after a trailing
/// repetition: a rule such as `sides_decl` would otherwise end on the next line.
fn span(pair: &P<'_>) -> Span {
    let s = pair.as_span();
    let mut end = s.end();
    let mut current = pair.clone();
    while current.as_str().ends_with(char::is_whitespace) {
        match current.clone().into_inner().last() {
            Some(last) => {
                end = last.as_span().end();
                current = last;
            }
            None => {
                end = s.start() + pair.as_str().trim_end().len();
                break;
            }
        }
    }
    Span::new(s.start(), end.max(s.start()))
}

fn spanned_str(pair: &P<'_>) -> Spanned<String> {
    Spanned::new(pair.as_str().to_string(), span(pair))
}

fn next<'i>(pairs: &mut impl Iterator<Item = P<'i>>, what: &str) -> P<'i> {
    pairs
        .next()
        .unwrap_or_else(|| panic!("grammar: expected {what}"))
}

pub(super) fn file(pair: P<'_>) -> ast::File {
    debug_assert_eq!(pair.as_rule(), Rule::file);
    let whole = span(&pair);
    let old_forms = super::old::forms(pair.clone());
    let misplaced_guards = misplaced_guards(pair.clone());
    let items = pair
        .into_inner()
        .filter(|p| p.as_rule() != Rule::EOI)
        .map(item)
        .collect();
    ast::File {
        items,
        old_forms,
        misplaced_guards,
        span: whole,
    }
}

/// The zone, state and check guards written before something only options can guard.
fn misplaced_guards(pair: P<'_>) -> Vec<ast::MisplacedGuard> {
    let mut out = Vec::new();
    for p in pair.into_inner().flatten() {
        let guarded = match p.as_rule() {
            Rule::into_clause | Rule::within_clause => "a destination clause",
            Rule::promote_clause => "a promotion",
            Rule::teleport_clause => "a teleport",
            Rule::enter_clause => "an `enter` clause",
            Rule::castling_decl => "a castling",
            Rule::rule_line => "a rule",
            Rule::setup_decl => "a setup",
            Rule::teams_decl => "teams",
            _ => continue,
        };
        let prefixes = p
            .clone()
            .into_inner()
            .filter(|c| c.as_rule() == Rule::option_prefix);
        for guard in prefixes.flat_map(|c| c.into_inner()) {
            let kind = guard.clone().into_inner().next().map(|g| g.as_rule());
            if guard.as_rule() == Rule::guard && kind != Some(Rule::option_guard) {
                out.push(ast::MisplacedGuard {
                    span: span(&guard),
                    guarded,
                });
            }
        }
    }
    out
}

fn item(pair: P<'_>) -> ast::Item {
    match pair.as_rule() {
        Rule::variant_decl => ast::Item::Variant(variant_decl(pair)),
        Rule::board_decl => ast::Item::Board(board_decl(pair)),
        Rule::sides_decl => ast::Item::Sides(sides_decl(pair)),
        Rule::option_decl => ast::Item::Option(option_decl(pair)),
        Rule::zone_decl => ast::Item::Zone(zone_decl(pair)),
        Rule::partition_decl => ast::Item::Partition(partition_decl(pair)),
        Rule::line_decl => ast::Item::Line(partition_decl(pair)),
        Rule::holes_decl => {
            let whole = span(&pair);
            let mut parts = pair.into_inner();
            let keyword = span(&next(&mut parts, "kw_holes"));
            let expr = zone_expr(next(&mut parts, "zone_expr"));
            ast::Item::Holes(ast::HolesDecl {
                keyword,
                expr,
                span: whole,
            })
        }
        Rule::piece_decl => ast::Item::Piece(piece_decl(pair)),
        Rule::castling_decl => ast::Item::Castling(castling_decl(pair)),
        Rule::rules_decl => ast::Item::Rules(rules_decl(pair)),
        Rule::setup_decl => ast::Item::Setup(setup_decl(pair)),
        Rule::drawing_decl => ast::Item::Drawing(drawing_decl(pair)),
        Rule::teams_decl => ast::Item::Teams(teams_decl(pair)),
        Rule::without_decl => ast::Item::Without(without_decl(pair)),
        r => unreachable!("item: unexpected {r:?}"),
    }
}

fn string(pair: P<'_>) -> Spanned<String> {
    debug_assert_eq!(pair.as_rule(), Rule::string);
    let whole = span(&pair);
    let text = next(&mut pair.into_inner(), "string_text in string");
    Spanned::new(text.as_str().to_string(), whole)
}

fn variant_decl(pair: P<'_>) -> ast::VariantDecl {
    let whole = span(&pair);
    let mut parts = pair.into_inner();
    let keyword = span(&next(&mut parts, "kw_variant"));
    let name = string(next(&mut parts, "string after `variant`"));
    let mut parts = parts.peekable();
    let base = parts
        .next_if(|p| p.as_rule() == Rule::variant_base)
        .map(|p| string(next(&mut p.into_inner().skip(1), "string after `from`")));
    let known_as = parts.map(known_as).collect();
    ast::VariantDecl {
        keyword,
        name,
        base,
        known_as,
        span: whole,
    }
}

fn without_decl(pair: P<'_>) -> ast::WithoutDecl {
    let whole = span(&pair);
    let mut parts = pair.into_inner();
    let keyword = span(&next(&mut parts, "kw_without"));
    let parts = parts
        .filter(|p| p.as_rule() == Rule::without_part)
        .map(|part| {
            let whole = span(&part);
            let mut words = part.into_inner();
            let head = next(&mut words, "the kind of thing left out");
            let names = |words: pest::iterators::Pairs<'_, Rule>| {
                words.map(|w| spanned_str(&w)).collect::<Vec<_>>()
            };
            let node = match head.as_rule() {
                Rule::kw_piece => ast::WithoutPart::Pieces(names(words)),
                Rule::kw_zone => ast::WithoutPart::Zones(names(words)),
                Rule::kw_option => ast::WithoutPart::Options(names(words)),
                Rule::kw_line => ast::WithoutPart::Lines(names(words)),
                Rule::kw_partition => ast::WithoutPart::Partitions(names(words)),
                Rule::kw_castling => ast::WithoutPart::Castling,
                Rule::kw_holes => ast::WithoutPart::Holes,
                Rule::kw_rule => {
                    ast::WithoutPart::Rule(spanned_str(&next(&mut words, "rule_name")))
                }
                r => unreachable!("without: unexpected {r:?}"),
            };
            Spanned::new(node, whole)
        })
        .collect();
    ast::WithoutDecl {
        keyword,
        parts,
        span: whole,
    }
}

fn known_as(pair: P<'_>) -> ast::KnownAs {
    debug_assert_eq!(pair.as_rule(), Rule::known_as);
    let whole = span(&pair);
    let mut parts = pair.into_inner();
    next(&mut parts, "kw_known");
    next(&mut parts, "kw_as");
    let name = string(next(&mut parts, "string after `known as`"));
    next(&mut parts, "kw_in");
    let protocol = next(&mut parts, "protocol");
    let which = match next(&mut protocol.clone().into_inner(), "a protocol word").as_rule() {
        Rule::kw_xboard => ast::Protocol::XBoard,
        _ => ast::Protocol::Uci,
    };
    ast::KnownAs {
        name,
        protocol: Spanned::new(which, span(&protocol)),
        span: whole,
    }
}

fn board_decl(pair: P<'_>) -> ast::BoardDecl {
    let whole = span(&pair);
    let mut parts = pair.into_inner();
    let keyword = span(&next(&mut parts, "kw_board"));
    let width = spanned_str(&next(&mut parts, "width"));
    next(&mut parts, "kw_x");
    let height = spanned_str(&next(&mut parts, "height"));
    ast::BoardDecl {
        keyword,
        width,
        height,
        span: whole,
    }
}

fn drawing_decl(pair: P<'_>) -> ast::DrawingDecl {
    let whole = span(&pair);
    let mut parts = pair.into_inner();
    let keyword = span(&next(&mut parts, "kw_drawing"));
    let style_pair = next(&mut parts, "board_style");
    let style_span = span(&style_pair);
    let style = match next(&mut style_pair.into_inner(), "style word").as_rule() {
        Rule::kw_grid => ast::BoardStyle::Grid,
        Rule::kw_points => ast::BoardStyle::Points,
        _ => ast::BoardStyle::Checkered,
    };
    let mut rivers = Vec::new();
    let mut diagonals = Vec::new();
    for extra in parts {
        let mark = next(&mut extra.into_inner().skip(1), "drawing mark");
        match mark.as_rule() {
            Rule::river_mark => {
                let number = mark
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::number)
                    .expect("grammar: a river names its rank");
                rivers.push(spanned_str(&number));
            }
            _ => {
                let name = mark
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::ident)
                    .expect("grammar: diagonals name a zone");
                diagonals.push(spanned_str(&name));
            }
        }
    }
    ast::DrawingDecl {
        keyword,
        style: Spanned::new(style, style_span),
        rivers,
        diagonals,
        span: whole,
    }
}

fn sides_decl(pair: P<'_>) -> ast::SidesDecl {
    let whole = span(&pair);
    let mut parts = pair.into_inner();
    let keyword = span(&next(&mut parts, "kw_sides"));
    let sides = parts
        .filter(|p| p.as_rule() == Rule::side)
        .map(side)
        .collect();
    ast::SidesDecl {
        keyword,
        sides,
        span: whole,
    }
}

fn teams_decl(pair: P<'_>) -> ast::TeamsDecl {
    let whole = span(&pair);
    let mut guards = Vec::new();
    let mut keyword = whole;
    let mut teams = Vec::new();
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::option_prefix => guards.extend(guards_in(part)),
            Rule::kw_teams => keyword = span(&part),
            Rule::team => teams.push(part.into_inner().map(|p| spanned_str(&p)).collect()),
            _ => {}
        }
    }
    ast::TeamsDecl {
        guards,
        keyword,
        teams,
        span: whole,
    }
}

fn side(pair: P<'_>) -> ast::SideDecl {
    debug_assert_eq!(pair.as_rule(), Rule::side);
    let whole = span(&pair);
    let mut parts = pair.into_inner();
    let name = spanned_str(&next(&mut parts, "side name"));
    let facing = compass(next(&mut parts, "compass"));
    ast::SideDecl {
        name,
        facing,
        span: whole,
    }
}

fn compass(pair: P<'_>) -> Spanned<ast::Compass> {
    let whole = span(&pair);
    let word = next(&mut pair.into_inner(), "compass keyword");
    let dir = match word.as_rule() {
        Rule::kw_north => ast::Compass::North,
        Rule::kw_south => ast::Compass::South,
        Rule::kw_east => ast::Compass::East,
        Rule::kw_west => ast::Compass::West,
        r => unreachable!("compass: unexpected {r:?}"),
    };
    Spanned::new(dir, whole)
}

fn option_decl(pair: P<'_>) -> ast::OptionDecl {
    let whole = span(&pair);
    let mut parts = pair.into_inner();
    next(&mut parts, "kw_option");
    let name = spanned_str(&next(&mut parts, "option name"));
    let on_off = next(&mut parts, "on_off");
    let on_span = span(&on_off);
    let on = next(&mut on_off.into_inner(), "kw_on or kw_off").as_rule() == Rule::kw_on;
    let description = parts.next().map(string);
    ast::OptionDecl {
        name,
        default: Spanned::new(on, on_span),
        description,
        span: whole,
    }
}

fn symmetry(pair: P<'_>) -> Spanned<ast::Symmetry> {
    debug_assert_eq!(pair.as_rule(), Rule::symmetry);
    let word = next(&mut pair.into_inner().skip(1), "kw_mirrored or kw_rotated");
    let kind = match word.as_rule() {
        Rule::kw_mirrored => ast::Symmetry::Mirrored,
        Rule::kw_rotated => ast::Symmetry::Rotated,
        r => unreachable!("symmetry: unexpected {r:?}"),
    };
    Spanned::new(kind, span(&word))
}

fn partition_decl(pair: P<'_>) -> ast::PartitionDecl {
    let whole = span(&pair);
    let mut parts = pair.into_inner();
    next(&mut parts, "kw_partition or kw_line");
    let name = spanned_str(&next(&mut parts, "partition or line name"));
    ast::PartitionDecl {
        name,
        parts: parts
            .filter(|p| p.as_rule() == Rule::zone_expr)
            .map(zone_expr)
            .collect(),
        span: whole,
    }
}

fn zone_decl(pair: P<'_>) -> ast::ZoneDecl {
    let whole = span(&pair);
    let mut parts = pair.into_inner();
    next(&mut parts, "kw_zone");
    let name = spanned_str(&next(&mut parts, "zone name"));
    next(&mut parts, "equals");
    let expr = zone_expr(next(&mut parts, "zone_expr"));
    let mut symmetry_part = None;
    let mut side_sets = Vec::new();
    let mut drawn = None;
    for part in parts {
        match part.as_rule() {
            Rule::symmetry => symmetry_part = Some(symmetry(part)),
            Rule::side_set => {
                let mut inner = part.into_inner();
                next(&mut inner, "comma");
                next(&mut inner, "kw_for");
                let side = spanned_str(&next(&mut inner, "side name"));
                side_sets.push((side, zone_expr(next(&mut inner, "zone_expr"))));
            }
            Rule::drawn => {
                let mut inner = part.into_inner();
                next(&mut inner, "comma");
                next(&mut inner, "kw_drawn");
                let text = next(&mut inner, "string");
                let s = span(&text);
                let body = text
                    .into_inner()
                    .next()
                    .map(|t| t.as_str().to_string())
                    .unwrap_or_default();
                drawn = Some(Spanned::new(body, s));
            }
            r => unreachable!("zone_decl: unexpected {r:?}"),
        }
    }
    ast::ZoneDecl {
        name,
        expr,
        symmetry: symmetry_part,
        side_sets,
        drawn,
        span: whole,
    }
}

fn zone_expr(pair: P<'_>) -> ast::ZoneExpr {
    debug_assert_eq!(pair.as_rule(), Rule::zone_expr);
    let whole = span(&pair);
    let mut parts = pair.into_inner();
    let first = zone_union(next(&mut parts, "zone_union"));
    let mut rest = Vec::new();
    while let Some(op) = parts.next() {
        let op_span = span(&op);
        let kind = match next(&mut op.into_inner(), "operator keyword").as_rule() {
            Rule::kw_and => ast::ZoneOp::And,
            Rule::kw_except => ast::ZoneOp::Except,
            r => unreachable!("zone_expr: unexpected operator {r:?}"),
        };
        let operand = zone_union(next(&mut parts, "zone_union after operator"));
        rest.push((Spanned::new(kind, op_span), operand));
    }
    ast::ZoneExpr {
        first,
        rest,
        span: whole,
    }
}

fn zone_union(pair: P<'_>) -> ast::ZoneUnion {
    debug_assert_eq!(pair.as_rule(), Rule::zone_union);
    let whole = span(&pair);
    let factors = pair.into_inner().map(zone_factor).collect();
    ast::ZoneUnion {
        factors,
        span: whole,
    }
}

fn zone_factor(pair: P<'_>) -> ast::ZoneFactor {
    debug_assert_eq!(pair.as_rule(), Rule::zone_factor);
    let whole = span(&pair);
    let mut negated = false;
    let mut term = None;
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::kw_not => negated = !negated,
            Rule::zone_term => term = Some(zone_term(part)),
            r => unreachable!("zone_factor: unexpected {r:?}"),
        }
    }
    ast::ZoneFactor {
        negated,
        term: term.expect("grammar: zone_factor ends with a zone_term"),
        span: whole,
    }
}

fn file_letter(pair: &P<'_>) -> Spanned<char> {
    let c = pair
        .as_str()
        .chars()
        .next()
        .expect("grammar: file_letter is one letter");
    Spanned::new(c, span(pair))
}

fn zone_term(pair: P<'_>) -> ast::ZoneTerm {
    debug_assert_eq!(pair.as_rule(), Rule::zone_term);
    let inner = next(&mut pair.into_inner(), "zone term alternative");
    let whole = span(&inner);
    match inner.as_rule() {
        Rule::zone_group => ast::ZoneTerm::Group(Box::new(zone_expr(next(
            &mut inner.into_inner().skip(1),
            "zone_expr in parentheses",
        )))),
        Rule::mask => ast::ZoneTerm::Mask(mask(inner)),
        Rule::square_range => {
            let mut parts = inner.into_inner();
            let from = spanned_str(&next(&mut parts, "first corner"));
            let to = spanned_str(&next(&mut parts, "second corner"));
            ast::ZoneTerm::Range { from, to }
        }
        Rule::lone_square => {
            ast::ZoneTerm::Square(spanned_str(&next(&mut inner.into_inner(), "square")))
        }
        Rule::rank_term => {
            let mut parts = inner.into_inner();
            next(&mut parts, "kw_rank");
            ast::ZoneTerm::Rank(spanned_str(&next(&mut parts, "rank number")))
        }
        Rule::ranks_term => {
            let mut parts = inner.into_inner();
            next(&mut parts, "kw_ranks");
            let a = spanned_str(&next(&mut parts, "first rank"));
            next(&mut parts, "dash");
            let b = spanned_str(&next(&mut parts, "last rank"));
            ast::ZoneTerm::Ranks(a, b)
        }
        Rule::file_term => {
            let mut parts = inner.into_inner();
            next(&mut parts, "kw_file");
            ast::ZoneTerm::File(file_letter(&next(&mut parts, "file letter")))
        }
        Rule::files_term => {
            let mut parts = inner.into_inner();
            next(&mut parts, "kw_files");
            let a = file_letter(&next(&mut parts, "first file"));
            next(&mut parts, "dash");
            let b = file_letter(&next(&mut parts, "last file"));
            ast::ZoneTerm::Files(a, b)
        }
        Rule::kw_all => ast::ZoneTerm::All(whole),
        Rule::kw_none => ast::ZoneTerm::None(whole),
        Rule::ident => ast::ZoneTerm::Name(spanned_str(&inner)),
        r => unreachable!("zone_term: unexpected {r:?}"),
    }
}

fn mask(pair: P<'_>) -> ast::Mask {
    debug_assert_eq!(pair.as_rule(), Rule::mask);
    let whole = span(&pair);
    let mut parts = pair.into_inner().peekable();
    let keyword = span(parts.peek().expect("grammar: mask starts with kw_mask"));
    let rows = parts
        .filter(|p| p.as_rule() == Rule::mask_row)
        .map(|row| {
            let cells = next(&mut row.into_inner(), "mask_cells in mask_row");
            let start = cells.as_span().start();
            let cells_span = span(&cells);
            let cells = cells
                .as_str()
                .char_indices()
                .filter(|(_, c)| *c != ' ')
                .map(|(i, c)| Spanned::new(c, Span::new(start + i, start + i + c.len_utf8())))
                .collect();
            ast::PictureRow {
                cells,
                span: cells_span,
            }
        })
        .collect();
    ast::Mask {
        keyword,
        rows,
        span: whole,
    }
}

fn piece_decl(pair: P<'_>) -> ast::PieceDecl {
    let whole = span(&pair);
    let mut parts = pair.into_inner();
    next(&mut parts, "kw_piece");
    let name = spanned_str(&next(&mut parts, "piece name"));
    let letter = spanned_str(&next(&mut parts, "piece letter"));
    let mut decl = ast::PieceDecl {
        name,
        letter,
        royal: None,
        value: None,
        clauses: Vec::new(),
        span: whole,
    };
    for part in parts {
        match part.as_rule() {
            Rule::royal => decl.royal = Some(span(&part)),
            Rule::piece_value => {
                let mut inner = part.into_inner();
                next(&mut inner, "kw_value");
                decl.value = Some(spanned_str(&next(&mut inner, "value")));
            }
            Rule::move_clause => decl.clauses.push(ast::PieceClause::Move(move_clause(part))),
            Rule::within_clause | Rule::stay_within_clause => {
                let whole = span(&part);
                let mut partition = None;
                let mut guards = Vec::new();
                for p in part.into_inner() {
                    match p.as_rule() {
                        Rule::ident => partition = Some(spanned_str(&p)),
                        Rule::option_prefix | Rule::suffix_guard => guards.extend(guards_in(p)),
                        _ => {}
                    }
                }
                decl.clauses.push(ast::PieceClause::Within {
                    partition: partition.expect("grammar: `within` names a partition"),
                    guards,
                    span: whole,
                });
            }
            Rule::stay_clause | Rule::never_clause | Rule::into_clause => {
                decl.clauses
                    .push(ast::PieceClause::Confine(confine_clause(part)));
            }
            Rule::promote_clause => decl
                .clauses
                .push(ast::PieceClause::Promote(promote_clause(part))),
            Rule::demote_clause => {
                let whole = span(&part);
                let mut inner = part.into_inner();
                next(&mut inner, "kw_demote");
                next(&mut inner, "kw_to");
                let target = piece_ref(next(&mut inner, "piece_ref"));
                decl.clauses.push(ast::PieceClause::Demote {
                    target,
                    span: whole,
                });
            }
            Rule::drop_clause => decl.clauses.push(ast::PieceClause::Drop(drop_clause(part))),
            Rule::resets_clause => decl
                .clauses
                .push(ast::PieceClause::ResetsClock(span(&part))),
            Rule::borrow_clause => decl.clauses.push(ast::PieceClause::Borrow(span(&part))),
            Rule::fen_only_clause => decl
                .clauses
                .push(ast::PieceClause::OnlyFromFen(span(&part))),
            Rule::unmoved_clause => {
                let whole = span(&part);
                let mut inner = part.into_inner();
                next(&mut inner, "kw_unmoved");
                let which = next(&mut inner, "unmoved clause kind");
                let clause = if which.as_rule() == Rule::unmoved_in_fen {
                    ast::PieceClause::UnmovedInFen(whole)
                } else {
                    let aimers = which
                        .into_inner()
                        .filter(|p| p.as_rule() == Rule::piece_ref)
                        .map(piece_ref)
                        .collect();
                    ast::PieceClause::UnmovedLostWhenAimed(aimers, whole)
                };
                decl.clauses.push(clause);
            }
            Rule::immune_clause => {
                let nearby = part
                    .clone()
                    .into_inner()
                    .any(|p| p.as_rule() == Rule::kw_nearby);
                decl.clauses
                    .push(ast::PieceClause::Immune(nearby, span(&part)));
            }
            Rule::teleport_clause => {
                let whole = span(&part);
                let mut anchors = Vec::new();
                let mut not_attacking = None;
                let mut from = None;
                let mut to = None;
                let mut guards = Vec::new();
                for p in part.into_inner() {
                    match p.as_rule() {
                        Rule::kw_teleport | Rule::kw_next | Rule::kw_to => {}
                        Rule::piece_ref => anchors.push(piece_ref(p)),
                        Rule::not_attacking => not_attacking = Some(span(&p)),
                        Rule::teleport_from => {
                            from = p
                                .into_inner()
                                .find(|q| q.as_rule() == Rule::ident)
                                .map(|q| spanned_str(&q));
                        }
                        Rule::ident => to = Some(spanned_str(&p)),
                        _ => guards.extend(guards_in(p)),
                    }
                }
                decl.clauses.push(ast::PieceClause::Teleport {
                    anchors,
                    from,
                    to,
                    not_attacking,
                    guards,
                    span: whole,
                });
            }
            Rule::enter_clause => {
                let whole = span(&part);
                let mut zone = None;
                let mut holding = Vec::new();
                let mut guards = Vec::new();
                for p in part.into_inner() {
                    match p.as_rule() {
                        Rule::kw_enter | Rule::kw_only | Rule::kw_when | Rule::kw_holding => {}
                        Rule::ident => zone = Some(spanned_str(&p)),
                        Rule::holding_ref => holding.push(holding_ref(p)),
                        _ => guards.extend(guards_in(p)),
                    }
                }
                decl.clauses.push(ast::PieceClause::Enter {
                    zone: zone.expect("grammar: `enter` names a zone"),
                    holding,
                    guards,
                    span: whole,
                });
            }
            r => unreachable!("piece_decl: unexpected {r:?}"),
        }
    }
    decl
}

fn holding_ref(pair: P<'_>) -> ast::HoldingRef {
    debug_assert_eq!(pair.as_rule(), Rule::holding_ref);
    let mut owner = ast::Owner::Friendly;
    let mut piece = None;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::kw_enemy => owner = ast::Owner::Enemy,
            Rule::kw_any => owner = ast::Owner::Any,
            _ => piece = Some(piece_ref(p)),
        }
    }
    ast::HoldingRef {
        owner,
        piece: piece.expect("grammar: a holding_ref names a piece"),
    }
}

fn piece_ref(pair: P<'_>) -> ast::PieceRef {
    debug_assert_eq!(pair.as_rule(), Rule::piece_ref);
    spanned_str(&pair)
}

/// The option guards of an `option_prefix` (`if A unless B:`) or a `suffix_guard`.
fn guards_in(pair: P<'_>) -> Vec<ast::OptionGuard> {
    debug_assert!(matches!(
        pair.as_rule(),
        Rule::option_prefix | Rule::suffix_guard
    ));
    let end = pair.as_span().end();
    let mut guards: Vec<ast::OptionGuard> = pair
        .into_inner()
        .flatten()
        .filter(|p| p.as_rule() == Rule::option_guard)
        .map(option_guard)
        .collect();
    // A prefix's last guard is reported with its colon, as `if OPTION:` is written.
    if let Some(last) = guards.last_mut() {
        last.span.end = last.span.end.max(end);
    }
    guards
}

fn option_guard(pair: P<'_>) -> ast::OptionGuard {
    debug_assert_eq!(pair.as_rule(), Rule::option_guard);
    let whole = span(&pair);
    let mut parts = pair.into_inner();
    let when_on = next(&mut parts, "kw_if or kw_unless").as_rule() == Rule::kw_if;
    let option = spanned_str(&next(&mut parts, "option name"));
    ast::OptionGuard {
        when_on,
        option,
        span: whole,
    }
}

fn move_clause(pair: P<'_>) -> ast::MoveClause {
    let whole = span(&pair);
    let patterns = pair
        .into_inner()
        .filter(|p| p.as_rule() == Rule::pattern)
        .map(pattern)
        .collect();
    ast::MoveClause {
        patterns,
        span: whole,
    }
}

fn pattern(pair: P<'_>) -> ast::Pattern {
    let whole = span(&pair);
    let mut guards = Vec::new();
    let mut body = None;
    let mut modifiers = Vec::new();
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::guards => {
                guards = part
                    .into_inner()
                    .filter(|p| p.as_rule() == Rule::guard)
                    .map(guard)
                    .collect();
            }
            Rule::like => {
                let mut inner = part.into_inner();
                next(&mut inner, "kw_like");
                body = Some(ast::PatternBody::Like(piece_ref(next(
                    &mut inner,
                    "piece_ref",
                ))));
            }
            Rule::betza => {
                let mut inner = part.into_inner();
                next(&mut inner, "kw_betza");
                let string = next(&mut inner, "string");
                let text = string
                    .into_inner()
                    .next()
                    .expect("grammar: a string holds its text");
                let text = Spanned::new(text.as_str().to_string(), span(&text));
                body = Some(ast::PatternBody::Betza(ast::Betza {
                    atoms: super::betza::read(&text.node, text.span),
                    text,
                }));
            }
            Rule::path => body = Some(ast::PatternBody::Path(path(part))),
            Rule::modifier => modifiers.push(modifier(part)),
            r => unreachable!("pattern: unexpected {r:?}"),
        }
    }
    ast::Pattern {
        guards,
        body: body.expect("grammar: a pattern has a path or `like`"),
        modifiers,
        span: whole,
    }
}

fn guard(pair: P<'_>) -> ast::Guard {
    debug_assert_eq!(pair.as_rule(), Rule::guard);
    let inner = next(&mut pair.into_inner(), "zone_guard or option_guard");
    match inner.as_rule() {
        Rule::zone_guard => {
            let whole = span(&inner);
            let mut parts = inner.into_inner();
            let inside = next(&mut parts, "kw_in or kw_outside").as_rule() == Rule::kw_in;
            let zone = spanned_str(&next(&mut parts, "zone name"));
            ast::Guard::Zone {
                inside,
                zone,
                span: whole,
            }
        }
        Rule::option_guard => ast::Guard::Option(option_guard(inner)),
        Rule::check_guard => {
            let whole = span(&inner);
            let in_check = !inner.into_inner().any(|p| p.as_rule() == Rule::kw_not);
            ast::Guard::Check {
                in_check,
                span: whole,
            }
        }
        Rule::state_guard => {
            let word = next(&mut inner.into_inner(), "kw_unmoved or kw_moved");
            ast::Guard::State {
                unmoved: word.as_rule() == Rule::kw_unmoved,
                span: span(&word),
            }
        }
        r => unreachable!("guard: unexpected {r:?}"),
    }
}

fn path(pair: P<'_>) -> Vec<ast::Leg> {
    pair.into_inner()
        .filter(|p| p.as_rule() == Rule::leg)
        .map(leg)
        .collect()
}

fn leg(pair: P<'_>) -> ast::Leg {
    let whole = span(&pair);
    let mut bent = None;
    let mut word = None;
    let mut arms = Vec::new();
    let mut up_to = None;
    let mut just_beyond = None;
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::bent => bent = Some(span(&part)),
            Rule::leg_kind => {
                let kind_span = span(&part);
                let w = match next(&mut part.into_inner(), "leg keyword").as_rule() {
                    Rule::kw_step => ast::LegWord::Step,
                    Rule::kw_leap => ast::LegWord::Leap,
                    Rule::kw_slide => ast::LegWord::Slide,
                    Rule::kw_hop => ast::LegWord::Hop,
                    r => unreachable!("leg: unexpected {r:?}"),
                };
                word = Some(Spanned::new(w, kind_span));
            }
            Rule::arm | Rule::more_arm => arms.push(arm(part)),
            Rule::up_to => {
                let up_span = span(&part);
                let number = part
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::number)
                    .expect("grammar: up_to ends with a number");
                up_to = Some((spanned_str(&number), up_span));
            }
            Rule::just_beyond => just_beyond = Some(span(&part)),
            r => unreachable!("leg: unexpected {r:?}"),
        }
    }
    ast::Leg {
        bent,
        word: word.expect("grammar: a leg has a kind"),
        arms,
        up_to,
        just_beyond,
        span: whole,
    }
}

/// Directions with their zone: `orthogonal`, `inward diagonal`, `, same in road`.
fn arm(pair: P<'_>) -> ast::Arm {
    let mut whole = span(&pair);
    let mut inward = None;
    let mut dirs = Vec::new();
    let mut zone = None;
    for part in pair.into_inner() {
        match part.as_rule() {
            // The comma before a further arm is not part of it.
            Rule::comma => whole.start = span(&part).end,
            Rule::dirs => {
                whole.start = whole.start.max(span(&part).start);
                for d in part.into_inner() {
                    match d.as_rule() {
                        Rule::inward => inward = Some(span(&d)),
                        _ => dirs.push(dir(d)),
                    }
                }
            }
            Rule::arm_zone => {
                let mut inner = part.into_inner();
                next(&mut inner, "kw_in");
                zone = Some(spanned_str(&next(&mut inner, "zone name")));
            }
            r => unreachable!("arm: unexpected {r:?}"),
        }
    }
    ast::Arm {
        inward,
        dirs,
        zone,
        span: whole,
    }
}

fn dir(pair: P<'_>) -> ast::Dir {
    debug_assert_eq!(pair.as_rule(), Rule::dir);
    let inner = next(&mut pair.into_inner(), "dir alternative");
    let whole = span(&inner);
    match inner.as_rule() {
        Rule::named_dir => {
            let word = match next(&mut inner.into_inner(), "direction keyword").as_rule() {
                Rule::kw_orthogonal => ast::NamedDir::Orthogonal,
                Rule::kw_diagonal => ast::NamedDir::Diagonal,
                Rule::kw_any => ast::NamedDir::Any,
                Rule::kw_forward => ast::NamedDir::Forward,
                Rule::kw_backward => ast::NamedDir::Backward,
                Rule::kw_left => ast::NamedDir::Left,
                Rule::kw_right => ast::NamedDir::Right,
                Rule::kw_sideways => ast::NamedDir::Sideways,
                Rule::kw_forward_diagonal => ast::NamedDir::ForwardDiagonal,
                Rule::kw_backward_diagonal => ast::NamedDir::BackwardDiagonal,
                Rule::kw_same => ast::NamedDir::Same,
                Rule::kw_outward => ast::NamedDir::Outward,
                Rule::kw_reverse => ast::NamedDir::Reverse,
                r => unreachable!("dir: unexpected {r:?}"),
            };
            ast::Dir::Named(Spanned::new(word, whole))
        }
        Rule::symmetric_vector | Rule::exact_vector => {
            let exact = inner.as_rule() == Rule::exact_vector;
            let mut parts = inner.into_inner().filter(|p| p.as_rule() == Rule::int);
            let a = spanned_str(&next(&mut parts, "first coordinate"));
            let b = spanned_str(&next(&mut parts, "second coordinate"));
            if exact {
                ast::Dir::Exact {
                    x: a,
                    y: b,
                    span: whole,
                }
            } else {
                ast::Dir::Symmetric { a, b, span: whole }
            }
        }
        r => unreachable!("dir: unexpected {r:?}"),
    }
}

fn modifier(pair: P<'_>) -> Spanned<ast::Modifier> {
    debug_assert_eq!(pair.as_rule(), Rule::modifier);
    let inner = next(&mut pair.into_inner().skip(1), "modifier word");
    let kind = match inner.as_rule() {
        Rule::kw_move_only => ast::Modifier::MoveOnly,
        Rule::kw_capture_only => ast::Modifier::CaptureOnly,
        Rule::creates_ep => ast::Modifier::CreatesEnPassant,
        Rule::takes_ep => ast::Modifier::TakesEnPassant {
            unpromoted: inner
                .clone()
                .into_inner()
                .any(|p| p.as_rule() == Rule::ep_unpromoted),
        },
        Rule::kw_shot => ast::Modifier::Shot,
        Rule::capturing => {
            let whole = span(&inner);
            let mut parts = inner.into_inner().peekable();
            let negated = parts.next_if(|p| p.as_rule() == Rule::kw_not).is_some();
            next(&mut parts, "kw_capturing");
            let mut first = next(&mut parts, "enemy, royal or piece_ref");
            let enemy = first.as_rule() == Rule::kw_enemy;
            if enemy {
                first = next(&mut parts, "royal or piece_ref");
            }
            let capturing = if first.as_rule() == Rule::kw_royal {
                ast::Capturing::Royal
            } else if first.as_rule() == Rule::kw_checker {
                ast::Capturing::Checker
            } else {
                let pieces = std::iter::once(first).chain(parts).map(piece_ref).collect();
                if negated {
                    ast::Capturing::AllBut(pieces)
                } else {
                    ast::Capturing::Pieces(pieces)
                }
            };
            return Spanned::new(ast::Modifier::Capturing(capturing, enemy), whole);
        }
        Rule::on_the_way => {
            let whole = span(&inner);
            let mut except = false;
            let mut pieces = Vec::new();
            for p in inner.into_inner() {
                match p.as_rule() {
                    Rule::kw_except => except = true,
                    Rule::piece_ref => pieces.push(piece_ref(p)),
                    _ => {}
                }
            }
            return Spanned::new(ast::Modifier::OnTheWay { except, pieces }, whole);
        }
        Rule::not_protected => {
            let whole = span(&inner);
            let mut afar = false;
            let mut pieces = Vec::new();
            for p in inner.into_inner() {
                match p.as_rule() {
                    Rule::kw_afar => afar = true,
                    Rule::piece_ref => pieces.push(piece_ref(p)),
                    _ => {}
                }
            }
            return Spanned::new(ast::Modifier::NotProtected { pieces, afar }, whole);
        }
        Rule::screens => {
            let whole = span(&inner);
            let mut allowed = true;
            let mut pieces = Vec::new();
            for p in inner.into_inner() {
                match p.as_rule() {
                    Rule::kw_not => allowed = false,
                    Rule::piece_ref => pieces.push(piece_ref(p)),
                    _ => {}
                }
            }
            return Spanned::new(ast::Modifier::Screens { allowed, pieces }, whole);
        }
        Rule::avoiding | Rule::through => {
            let whole = span(&inner);
            let zone = inner
                .into_inner()
                .find(|p| p.as_rule() == Rule::ident)
                .map(|p| spanned_str(&p))
                .expect("grammar: `avoiding` names a zone");
            return Spanned::new(ast::Modifier::Avoiding(zone), whole);
        }
        Rule::continuing => {
            let whole = span(&inner);
            let line = inner
                .into_inner()
                .find(|p| p.as_rule() == Rule::ident)
                .map(|p| spanned_str(&p))
                .expect("grammar: `continuing after crossing` names a line");
            return Spanned::new(ast::Modifier::Continuing(line), whole);
        }
        Rule::crossing => {
            let whole = span(&inner);
            let mut line = None;
            let mut limit = ast::CrossingLimit::AtLeastOnce;
            for part in inner.into_inner() {
                match part.as_rule() {
                    Rule::kw_not => limit = ast::CrossingLimit::Never,
                    Rule::kw_crossing => {}
                    Rule::up_to => {
                        let phrase = span(&part);
                        let n = part
                            .into_inner()
                            .find(|p| p.as_rule() == Rule::number)
                            .expect("grammar: `up to` has a number");
                        limit = ast::CrossingLimit::UpTo(spanned_str(&n), phrase);
                    }
                    _ => line = Some(spanned_str(&part)),
                }
            }
            let line = line.expect("grammar: `crossing` names a line");
            return Spanned::new(ast::Modifier::Crossing { line, limit }, whole);
        }
        Rule::along => {
            let whole = span(&inner);
            let mut line = None;
            let mut ahead = false;
            for part in inner.into_inner() {
                match part.as_rule() {
                    Rule::ident => line = Some(spanned_str(&part)),
                    Rule::kw_ahead => ahead = true,
                    _ => {}
                }
            }
            let line = line.expect("grammar: `move-only along` names a line");
            return Spanned::new(ast::Modifier::Along { line, ahead }, whole);
        }
        Rule::into => {
            let whole = span(&inner);
            let mut inside = true;
            let mut zone = None;
            let mut holding = Vec::new();
            for part in inner.into_inner() {
                match part.as_rule() {
                    Rule::kw_not => inside = false,
                    Rule::kw_into | Rule::kw_holding => {}
                    Rule::holding_ref => holding.push(holding_ref(part)),
                    _ => zone = Some(spanned_str(&part)),
                }
            }
            let zone = zone.expect("grammar: `into` names a zone");
            return Spanned::new(
                ast::Modifier::Into {
                    inside,
                    zone,
                    holding,
                },
                whole,
            );
        }
        r => unreachable!("modifier: unexpected {r:?}"),
    };
    Spanned::new(kind, span(&inner))
}

fn confine_clause(pair: P<'_>) -> ast::ConfineClause {
    let whole = span(&pair);
    let mut inside = pair.as_rule() != Rule::never_clause;
    let mut zone = None;
    let mut guards = Vec::new();
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::kw_not => inside = false,
            Rule::ident => zone = Some(spanned_str(&p)),
            Rule::option_prefix | Rule::suffix_guard => guards.extend(guards_in(p)),
            _ => {}
        }
    }
    let zone = zone.expect("grammar: a confinement names a zone");
    ast::ConfineClause {
        inside,
        zone,
        guards,
        span: whole,
    }
}

fn promote_clause(pair: P<'_>) -> ast::PromoteClause {
    let whole = span(&pair);
    let mut clause = ast::PromoteClause {
        choices: Vec::new(),
        or_from: None,
        zone: Spanned::new(String::new(), whole),
        forced: None,
        when_capturing: None,
        only_captured: None,
        at_most: None,
        never_forced: None,
        when_entering: None,
        in_place: None,
        not_attacking: None,
        when_last: None,
        guards: Vec::new(),
        span: whole,
    };
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::kw_promote | Rule::kw_to | Rule::kw_in => {}
            Rule::piece_ref => clause.choices.push(piece_ref(part)),
            Rule::or_from => clause.or_from = Some(span(&part)),
            Rule::ident => clause.zone = spanned_str(&part),
            Rule::forced => clause.forced = Some(span(&part)),
            Rule::never_forced => clause.never_forced = Some(span(&part)),
            Rule::when_entering => {
                let at = span(&part);
                clause.when_entering = Some(at);
                if part.into_inner().any(|p| p.as_rule() == Rule::kw_capturing) {
                    clause.when_capturing = Some(at);
                }
            }
            Rule::when_capturing => clause.when_capturing = Some(span(&part)),
            Rule::only_captured => clause.only_captured = Some(span(&part)),
            Rule::at_most => {
                clause.at_most = part
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::number)
                    .map(|n| spanned_str(&n));
            }
            Rule::in_place => clause.in_place = Some(span(&part)),
            Rule::not_attacking => clause.not_attacking = Some(span(&part)),
            Rule::when_last => clause.when_last = Some(span(&part)),
            Rule::option_prefix | Rule::suffix_guard => clause.guards.extend(guards_in(part)),
            r => unreachable!("promote_clause: unexpected {r:?}"),
        }
    }
    clause
}

fn drop_clause(pair: P<'_>) -> ast::DropClause {
    let whole = span(&pair);
    let mut parts = pair.into_inner();
    next(&mut parts, "kw_drop");
    let inner = next(&mut parts, "drop restriction");
    let rule = inner.as_rule();
    if rule == Rule::drop_as {
        let kinds = inner
            .into_inner()
            .filter(|p| p.as_rule() == Rule::piece_ref)
            .map(piece_ref)
            .collect();
        return ast::DropClause {
            kind: ast::DropKind::AlsoAs(kinds),
            span: whole,
        };
    }
    let check = inner
        .clone()
        .into_inner()
        .any(|p| p.as_rule() == Rule::kw_check);
    let zone = inner
        .clone()
        .into_inner()
        .find(|p| p.as_rule() == Rule::ident);
    let negated = inner
        .clone()
        .into_inner()
        .any(|p| p.as_rule() == Rule::kw_not);
    let last = inner.into_inner().nth(1);
    let kind = match rule {
        Rule::drop_into => {
            let zone = spanned_str(&zone.clone().expect("grammar: drop_into names a zone"));
            if negated {
                ast::DropKind::Outside(zone)
            } else {
                ast::DropKind::In(zone)
            }
        }
        Rule::drop_in => {
            ast::DropKind::In(spanned_str(&last.expect("grammar: drop_in names a zone")))
        }
        Rule::drop_outside => ast::DropKind::Outside(spanned_str(
            &last.expect("grammar: drop_outside names a zone"),
        )),
        Rule::drop_max => {
            ast::DropKind::MaxPerFile(spanned_str(&last.expect("grammar: drop_max has a number")))
        }
        Rule::drop_no_mate if check => ast::DropKind::NoCheck,
        Rule::drop_no_mate => ast::DropKind::NoMate,
        Rule::drop_stuck => ast::DropKind::EvenWhereStuck,
        Rule::drop_compulsory => ast::DropKind::Compulsory,
        Rule::drop_flipping => ast::DropKind::Flipping,
        Rule::drop_next_to_own => ast::DropKind::NextToOwn,
        Rule::drop_unlimited => ast::DropKind::Unlimited,
        Rule::drop_both_colours => ast::DropKind::BothColours,
        Rule::drop_unmoved => ast::DropKind::Unmoved,
        Rule::drop_on_top => ast::DropKind::OnTop,
        Rule::drop_apart => ast::DropKind::Apart,
        Rule::drop_from_edge => ast::DropKind::FromEdge,
        Rule::drop_first_in => ast::DropKind::FirstIn(spanned_str(
            &zone.expect("grammar: drop_first_in names a zone"),
        )),
        r => unreachable!("drop_clause: unexpected {r:?}"),
    };
    ast::DropClause { kind, span: whole }
}

fn castling_decl(pair: P<'_>) -> ast::CastlingDecl {
    let whole = span(&pair);
    let mut guards = Vec::new();
    let mut refs = Vec::new();
    // Per piece: where it starts (if written) and where it ends.
    let mut froms: Vec<Option<Spanned<String>>> = Vec::new();
    let mut tos = Vec::new();
    let mut sym = None;
    let mut side = None;
    let mut wins = false;
    let lone = |p: P<'_>| spanned_str(&next(&mut p.into_inner(), "square in lone_square"));
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::option_prefix => guards.extend(guards_in(part)),
            Rule::castling_side => {
                side = Some(spanned_str(&next(
                    &mut part.into_inner().skip(2),
                    "side name in castling_side",
                )))
            }
            Rule::piece_ref => {
                refs.push(piece_ref(part));
                froms.push(None);
            }
            Rule::castling_from => {
                let square = next(&mut part.into_inner(), "lone_square in castling_from");
                *froms.last_mut().expect("grammar: a start follows a piece") = Some(lone(square));
            }
            Rule::lone_square => tos.push(lone(part)),
            Rule::symmetry => sym = Some(symmetry(part)),
            Rule::castling_wins => wins = true,
            Rule::kw_castling | Rule::kw_to | Rule::kw_with => {}
            r => unreachable!("castling_decl: unexpected {r:?}"),
        }
    }
    let mut refs = refs.into_iter();
    let mut froms = froms.into_iter();
    let mut tos = tos.into_iter();
    let king = refs.next().expect("grammar: castling names a king");
    let king_from = froms.next().flatten();
    let king_to = tos.next().expect("grammar: the king has a destination");
    let partner = refs.next().expect("grammar: castling names a partner");
    let partner_from = froms.next().flatten();
    let partner_to = tos.next().expect("grammar: the partner has a destination");
    ast::CastlingDecl {
        guards,
        king,
        king_from,
        king_to,
        partner,
        partner_from,
        partner_to,
        symmetry: sym,
        side,
        wins,
        span: whole,
    }
}

fn rules_decl(pair: P<'_>) -> ast::RulesDecl {
    let whole = span(&pair);
    let mut parts = pair.into_inner();
    let keyword = span(&next(&mut parts, "kw_rules"));
    let lines = parts.map(rule_line).collect();
    ast::RulesDecl {
        keyword,
        lines,
        span: whole,
    }
}

fn verdict(pair: P<'_>) -> Spanned<ast::Verdict> {
    debug_assert_eq!(pair.as_rule(), Rule::verdict);
    let whole = span(&pair);
    let v = match next(&mut pair.into_inner(), "verdict keyword").as_rule() {
        Rule::kw_wins => ast::Verdict::Wins,
        Rule::kw_loses => ast::Verdict::Loses,
        Rule::kw_draws => ast::Verdict::Draws,
        r => unreachable!("verdict: unexpected {r:?}"),
    };
    Spanned::new(v, whole)
}

fn rule_line(pair: P<'_>) -> ast::RuleLine {
    debug_assert_eq!(pair.as_rule(), Rule::rule_line);
    let whole = span(&pair);
    let mut guards = Vec::new();
    let mut found = None;
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::option_prefix => guards.extend(guards_in(part)),
            Rule::rule_kind => found = Some((span(&part), rule(part))),
            r => unreachable!("rule_line: unexpected {r:?}"),
        }
    }
    let (rule_span, rule) = found.expect("grammar: a rule line ends with a rule");
    ast::RuleLine {
        guards,
        rule,
        rule_span,
        span: whole,
    }
}

fn rule(pair: P<'_>) -> ast::Rule {
    let inner = next(&mut pair.into_inner(), "rule alternative");
    let rule = inner.as_rule();
    let inner_rules: Vec<Rule> = inner.clone().into_inner().map(|p| p.as_rule()).collect();
    let mut parts = inner.into_inner();
    // The rule's first word: its keyword, or the side of `SIDE moves first`.
    let head = next(&mut parts, "rule keyword");
    match rule {
        Rule::checkmate_rule => {
            let mut v = None;
            let mut guard = ast::RoyalGuard::Every;
            for p in parts {
                match p.as_rule() {
                    Rule::verdict => v = Some(verdict(p)),
                    Rule::last_royal => guard = ast::RoyalGuard::Last,
                    Rule::all_royals_attacked => guard = ast::RoyalGuard::All,
                    r => unreachable!("checkmate_rule: unexpected {r:?}"),
                }
            }
            ast::Rule::Checkmate(v, guard)
        }
        Rule::must_capture_rule => ast::Rule::MustCapture,
        Rule::must_drop_rule => ast::Rule::MustDrop,
        Rule::explode_rule => ast::Rule::Explosions,
        Rule::walls_rule => ast::Rule::LeaveWalls,
        Rule::passing_rule => ast::Rule::Passing(inner_has(&inner_rules, Rule::kw_stuck)),
        Rule::flip_rule => ast::Rule::Flip(
            inner_has(&inner_rules, Rule::kw_adjacent),
            inner_has(&inner_rules, Rule::flip_drops_near),
        ),
        Rule::full_board_rule => ast::Rule::FullBoard,
        Rule::connect_rule => {
            let parts: Vec<_> = parts.collect();
            let mut numbers = parts
                .iter()
                .filter(|p| p.as_rule() == Rule::number)
                .map(spanned_str);
            let count = numbers.next().expect("grammar: `connect` has a count");
            let block = numbers.next();
            let gaps = parts.iter().any(|p| p.as_rule() == Rule::with_gaps);
            let pieces = parts
                .iter()
                .filter(|p| p.as_rule() == Rule::piece_ref)
                .cloned()
                .map(piece_ref)
                .collect();
            let lines = parts
                .iter()
                .filter(|p| p.as_rule() == Rule::facing_line)
                .map(|line| {
                    let whole = span(line);
                    let l = match next(&mut line.clone().into_inner(), "line keyword").as_rule() {
                        Rule::kw_files => ast::FacingLine::Files,
                        Rule::kw_ranks => ast::FacingLine::Ranks,
                        Rule::kw_diagonals => ast::FacingLine::Diagonals,
                        r => unreachable!("connect_rule: unexpected {r:?}"),
                    };
                    Spanned::new(l, whole)
                })
                .collect();
            let verdict_pair = parts
                .iter()
                .find(|p| p.as_rule() == Rule::verdict)
                .cloned()
                .expect("grammar: `connect` has a verdict");
            ast::Rule::Connect {
                count,
                block,
                gaps,
                pieces,
                lines,
                verdict: verdict(verdict_pair),
            }
        }
        Rule::counter_strike_rule => ast::Rule::CounterStrike(
            parts
                .filter(|p| p.as_rule() == Rule::piece_ref)
                .map(piece_ref)
                .collect(),
        ),
        Rule::petrify_rule => ast::Rule::Petrify(
            parts
                .filter(|p| p.as_rule() == Rule::piece_ref)
                .map(piece_ref)
                .collect(),
        ),
        Rule::wall_placing_rule => ast::Rule::PlaceWalls {
            moving: inner_has(&inner_rules, Rule::kw_the),
            zone: parts
                .find(|p| p.as_rule() == Rule::ident)
                .map(|p| spanned_str(&p)),
            reach: inner_has(&inner_rules, Rule::kw_reach),
        },
        Rule::gating_rule => ast::Rule::Gating(
            parts
                .find(|p| p.as_rule() == Rule::ident)
                .map(|p| spanned_str(&p))
                .expect("grammar: gating names a zone"),
        ),
        Rule::counting_rule if inner_has(&inner_rules, Rule::kw_for) => {
            let win = inner_has(&inner_rules, Rule::kw_win);
            let side = parts
                .find(|p| p.as_rule() == Rule::ident)
                .map(|p| spanned_str(&p))
                .expect("grammar: a side");
            ast::Rule::DrawOdds(win, side)
        }
        Rule::counting_rule => {
            let bonus = parts.find(|p| p.as_rule() == Rule::ident).map(|side| {
                let n = parts.find(|p| p.as_rule() == Rule::decimal);
                (
                    spanned_str(&side),
                    spanned_str(&n.expect("grammar: a number")),
                )
            });
            ast::Rule::Counting(bonus)
        }
        Rule::mating_drops_rule => ast::Rule::MatingDropsLose,
        Rule::checks_rule => {
            let first = next(&mut parts, "check count or kw_forbidden");
            if first.as_rule() == Rule::kw_forbidden {
                ast::Rule::ChecksForbidden
            } else {
                ast::Rule::Checks(spanned_str(&first), verdict(next(&mut parts, "verdict")))
            }
        }
        Rule::extinction_rule => ast::Rule::Extinction,
        Rule::stalemate_rule => {
            let v = next(&mut parts, "verdict or kw_passes");
            if v.as_rule() == Rule::kw_passes {
                ast::Rule::StalematePasses
            } else {
                let by_count = parts.next().is_some();
                ast::Rule::Stalemate(verdict(v), by_count)
            }
        }
        Rule::shared_victory_rule => ast::Rule::SharedVictory,
        Rule::eliminated_rule => {
            next(&mut parts, "kw_pieces");
            ast::Rule::Eliminated(match next(&mut parts, "what becomes of them").as_rule() {
                Rule::kw_play => crate::model::Elimination::PlayOn,
                Rule::kw_removed => crate::model::Elimination::Removed,
                Rule::kw_frozen => crate::model::Elimination::Frozen,
                r => unreachable!("eliminated_rule: unexpected {r:?}"),
            })
        }
        Rule::facing_rule => {
            let parts: Vec<_> = parts.collect();
            let draws = parts.iter().any(|p| p.as_rule() == Rule::kw_draws);
            ast::Rule::Facing(
                parts
                    .into_iter()
                    .filter(|p| p.as_rule() == Rule::facing_line)
                    .map(|line| {
                        let whole = span(&line);
                        let l = match next(&mut line.into_inner(), "facing keyword").as_rule() {
                            Rule::kw_files => ast::FacingLine::Files,
                            Rule::kw_ranks => ast::FacingLine::Ranks,
                            Rule::kw_diagonals => ast::FacingLine::Diagonals,
                            r => unreachable!("facing_rule: unexpected {r:?}"),
                        };
                        Spanned::new(l, whole)
                    })
                    .collect(),
                draws,
            )
        }
        Rule::repetition_rule => {
            let count = spanned_str(&next(&mut parts, "repetition count"));
            let verdict = verdict(next(&mut parts, "verdict"));
            let mut side = None;
            let mut perpetual_check_loses = None;
            for p in parts {
                match p.as_rule() {
                    Rule::for_side => {
                        side = p
                            .into_inner()
                            .find(|x| x.as_rule() == Rule::ident)
                            .map(|x| spanned_str(&x));
                    }
                    _ => perpetual_check_loses = Some(span(&p)),
                }
            }
            ast::Rule::Repetition {
                count,
                verdict,
                perpetual_check_loses,
                side,
            }
        }
        Rule::first_rule => ast::Rule::FirstSide(spanned_str(&head)),
        Rule::opposite_castling_rule => ast::Rule::OppositeCastling,
        Rule::move_limit_rule => ast::Rule::MoveLimit(spanned_str(&next(&mut parts, "limit"))),
        Rule::drops_rule => ast::Rule::Drops {
            without_captures: parts.next().is_some(),
        },
        Rule::when_rule => {
            let mut terms = Vec::new();
            let mut found = None;
            let mut name = None;
            let mut asks = crate::model::Asks::Both;
            let mut answerable = false;
            for part in parts {
                match part.as_rule() {
                    Rule::count_term => terms.push(count_term(part)),
                    Rule::when_answer => answerable = true,
                    Rule::when_asks => {
                        asks = if part.into_inner().any(|p| p.as_rule() == Rule::kw_just) {
                            crate::model::Asks::JustMoved
                        } else {
                            crate::model::Asks::ToMove
                        }
                    }
                    Rule::verdict => found = Some(verdict(part)),
                    Rule::string => {
                        let text = part
                            .into_inner()
                            .next()
                            .map(|t| spanned_str(&t))
                            .expect("grammar: a string has its text");
                        name = Some(text);
                    }
                    _ => {}
                }
            }
            ast::Rule::When {
                terms,
                verdict: found.expect("grammar: `when` ends with a verdict"),
                name,
                asks,
                answerable,
            }
        }
        r => unreachable!("rule: unexpected {r:?}"),
    }
}

fn count_term(pair: P<'_>) -> ast::CountTerm {
    let whole = span(&pair);
    let mut count = None;
    let mut enemy = false;
    let mut pieces = Vec::new();
    let mut zone = None;
    let mut bound = crate::model::Bound::Exactly;
    let mut safe = false;
    let mut hand = false;
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::with_hand => hand = true,
            Rule::count_bound => {
                bound = if part.into_inner().any(|p| p.as_rule() == Rule::kw_least) {
                    crate::model::Bound::AtLeast
                } else {
                    crate::model::Bound::AtMost
                }
            }
            Rule::number => count = Some(spanned_str(&part)),
            Rule::kw_enemy => enemy = true,
            Rule::kw_safe => safe = true,
            Rule::piece_ref => pieces.push(piece_ref(part)),
            Rule::ident => zone = Some(spanned_str(&part)),
            _ => {}
        }
    }
    ast::CountTerm {
        bound,
        count: count.expect("grammar: a count term starts with a number"),
        enemy,
        safe,
        pieces,
        zone,
        hand,
        span: whole,
    }
}

fn setup_decl(pair: P<'_>) -> ast::SetupDecl {
    let whole = span(&pair);
    let mut guards = Vec::new();
    let mut inner = None;
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::option_prefix => guards.extend(guards_in(part)),
            _ => inner = Some(part),
        }
    }
    let inner = inner.expect("grammar: setup_fen or setup_picture");
    let rule = inner.as_rule();
    let mut parts = inner.into_inner();
    let keyword = span(&next(&mut parts, "kw_setup"));
    match rule {
        Rule::setup_fen => {
            let text = next(&mut parts, "string");
            // The text starts one byte after the opening quote.
            let start = text.as_span().start() + 1;
            let body = string(text);
            // `.../RNBQKBNR[Nn]`: the pieces in hand follow the board in brackets.
            let (board, hand) = match body.node.split_once('[') {
                Some((board, rest)) => {
                    let inner = rest.strip_suffix(']').unwrap_or(rest);
                    let at = start + board.len() + 1;
                    (
                        board,
                        Some(Spanned::new(
                            inner.to_string(),
                            Span::new(at, at + inner.len()),
                        )),
                    )
                }
                None => (body.node.as_str(), None),
            };
            let mut rows = Vec::new();
            let mut row_start = 0;
            for (i, row) in board.split('/').enumerate() {
                if i > 0 {
                    row_start += 1;
                }
                rows.push(setup_row(row, start + row_start, false));
                row_start += row.len();
            }
            ast::SetupDecl {
                guards,
                keyword,
                form: ast::SetupForm::Fen,
                rows,
                hand,
                span: whole,
            }
        }
        Rule::setup_picture => {
            let mut hand = None;
            let rows = parts
                .filter(|p| p.as_rule() == Rule::setup_row)
                .filter_map(|row| {
                    let cells = next(&mut row.into_inner(), "setup_cells in setup_row");
                    // A last row in brackets (`[Nn]`) lists the pieces in hand.
                    let text = cells.as_str();
                    if let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
                        let at = cells.as_span().start() + 1;
                        hand = Some(Spanned::new(
                            inner.to_string(),
                            Span::new(at, at + inner.len()),
                        ));
                        return None;
                    }
                    Some(setup_row(text, cells.as_span().start(), true))
                })
                .collect();
            ast::SetupDecl {
                guards,
                keyword,
                form: ast::SetupForm::Picture,
                rows,
                hand,
                span: whole,
            }
        }
        r => unreachable!("setup_decl: unexpected {r:?}"),
    }
}

/// Splits a setup row into cells; `start` is the byte offset of `text` in the file.
fn setup_row(text: &str, start: usize, spaces_separate: bool) -> ast::PictureRow<ast::SetupCell> {
    let mut cells = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let cell = |end: usize, node| Spanned::new(node, Span::new(start + i, start + end));
        match c {
            ' ' if spaces_separate => {}
            '.' | '-' | '=' | '_' => cells.push(cell(i + 1, ast::SetupCell::Empty(Some(1)))),
            '*' => cells.push(cell(i + 1, ast::SetupCell::Hole)),
            '0'..='9' => {
                let mut end = i + 1;
                while let Some((j, d)) = chars.peek().copied() {
                    if !d.is_ascii_digit() {
                        break;
                    }
                    end = j + 1;
                    chars.next();
                }
                let count = text[i..end].parse::<u32>().ok();
                if count == Some(0) {
                    cells.push(cell(end, ast::SetupCell::Bad('0')));
                } else {
                    cells.push(cell(end, ast::SetupCell::Empty(count)));
                }
            }
            '+' => match chars.peek().copied() {
                Some((j, l)) if l.is_ascii_alphabetic() => {
                    chars.next();
                    cells.push(cell(j + 1, ast::SetupCell::Piece(format!("+{l}"))));
                }
                _ => cells.push(cell(i + 1, ast::SetupCell::Bad('+'))),
            },
            c if c.is_ascii_alphabetic() => {
                cells.push(cell(i + 1, ast::SetupCell::Piece(c.to_string())));
            }
            c => cells.push(cell(i + c.len_utf8(), ast::SetupCell::Bad(c))),
        }
    }
    ast::PictureRow {
        cells,
        span: Span::new(start, start + text.len()),
    }
}

/// Whether a rule's parts include one of kind `r`.
fn inner_has(parts: &[Rule], r: Rule) -> bool {
    parts.contains(&r)
}
