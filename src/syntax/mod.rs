//! Text to typed syntax tree, with a byte span on every node.
//!
//! The grammar is `grammar/variant.pest`; no `pest` type leaves this module. The parser
//! reports the first syntax error only: later checks need a whole tree.
//!
//! Leniency: tabs count as blanks, CRLF line ends are accepted, and numbers of any length
//! parse here; the checker decides whether they are in range.

pub mod ast;
mod lower;
pub mod span;

use pest::{error::InputLocation, Parser};

pub use span::{Span, Spanned};

use crate::diagnostics::DefinitionError;

const _GRAMMAR: &str = include_str!("../../grammar/variant.pest");

/// Parentheses deeper than this are refused before parsing, so that no input can exhaust
/// the stack of the recursive descent.
pub const MAX_NESTING: usize = 32;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/variant.pest"]
struct VariantParser;

/// Parses a definition into its syntax tree.
///
/// # Errors
/// The first syntax error, as a diagnostic with a span into `text`.
pub fn parse(text: &str) -> Result<ast::File, DefinitionError> {
    prescan(text)?;
    let mut pairs = VariantParser::parse(Rule::file, text).map_err(|e| syntax_error(text, &e))?;
    let file = pairs
        .next()
        .expect("grammar: parsing `file` yields one pair");
    Ok(lower::file(file))
}

/// Finds what the grammar would report poorly or what could recurse too deeply: unclosed
/// strings and deeply nested parentheses.
fn prescan(text: &str) -> Result<(), DefinitionError> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                let open = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' && bytes[i] != b'\r'
                {
                    i += 1;
                }
                if i >= bytes.len() || bytes[i] != b'"' {
                    return Err(DefinitionError::UnterminatedString {
                        at: Span::new(open, open + 1).into(),
                    });
                }
            }
            b'(' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(DefinitionError::TooDeep {
                        limit: MAX_NESTING,
                        at: Span::new(i, i + 1).into(),
                    });
                }
            }
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// Turns a pest error into a diagnostic against the whole text.
fn syntax_error(text: &str, error: &pest::error::Error<Rule>) -> DefinitionError {
    let pos = match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((start, _)) => start,
    }
    .min(text.len());
    let expected = match &error.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => expected_list(positives),
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    let rest = &text[pos..];
    let skipped = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    let start = pos + skipped;
    let rest = &text[start..];
    let Some(first) = rest.chars().next() else {
        return DefinitionError::UnexpectedEnd {
            expected,
            at: Span::new(text.len(), text.len()).into(),
        };
    };
    let (found, len) = if first == '\n' || first == '\r' {
        ("end of line".to_string(), 0)
    } else if first.is_alphanumeric() || first == '_' || first == '+' {
        let len = rest
            .char_indices()
            .skip(1)
            .find(|(_, c)| !(c.is_alphanumeric() || *c == '-' || *c == '_'))
            .map_or(rest.len(), |(i, _)| i);
        (format!("`{}`", &rest[..len]), len)
    } else {
        (format!("`{first}`"), first.len_utf8())
    };
    DefinitionError::Unexpected {
        expected,
        found,
        at: Span::new(start, start + len).into(),
    }
}

/// What a rule stands for in an error message.
fn describe(rule: Rule) -> String {
    let name = format!("{rule:?}");
    if let Some(word) = name.strip_prefix("kw_") {
        return match rule {
            Rule::kw_x => "`x`".into(),
            _ => format!("`{}`", word.replace('_', "-")),
        };
    }
    match rule {
        Rule::EOI => "end of file",
        Rule::ident => "a name",
        Rule::number => "a number",
        Rule::int => "a whole number",
        Rule::decimal | Rule::bad_value => "a number",
        Rule::string => "a string in double quotes",
        Rule::square | Rule::lone_square => "a square such as `e4`",
        Rule::square_range => "a range such as `a1-c3`",
        Rule::file_letter => "a file letter",
        Rule::piece_letter => "a piece letter such as `N` or `+P`",
        Rule::promoted_letter | Rule::piece_ref => "a piece name or letter",
        Rule::mask_row | Rule::mask_cells => "an indented mask row",
        Rule::setup_row | Rule::setup_cells => "an indented setup row",
        Rule::zone_group => "`(`",
        Rule::symmetric_vector => "a leap such as `(1,2)`",
        Rule::exact_vector => "a vector such as `[1,2]`",
        Rule::modifier | Rule::symmetry | Rule::forced | Rule::perpetual => "`,`",
        Rule::guards => "`:`",
        _ => return format!("`{name}`"),
    }
    .to_string()
}

/// Declaration keywords; when all of them are expected, one phrase says so.
const ITEM_KEYWORDS: [Rule; 9] = [
    Rule::kw_variant,
    Rule::kw_board,
    Rule::kw_sides,
    Rule::kw_option,
    Rule::kw_zone,
    Rule::kw_piece,
    Rule::kw_castling,
    Rule::kw_rules,
    Rule::kw_setup,
];

/// Piece clause keywords, summarised the same way.
const CLAUSE_KEYWORDS: [Rule; 7] = [
    Rule::kw_move,
    Rule::kw_stay,
    Rule::kw_never,
    Rule::kw_promote,
    Rule::kw_demote,
    Rule::kw_drop,
    Rule::kw_resets,
];

/// Rule keywords, summarised the same way.
const RULE_KEYWORDS: [Rule; 7] = [
    Rule::kw_checkmate,
    Rule::kw_extinction,
    Rule::kw_stalemate,
    Rule::kw_facing,
    Rule::kw_repetition,
    Rule::kw_move_limit,
    Rule::kw_drops,
];

/// Direction keywords, summarised the same way.
const DIR_KEYWORDS: [Rule; 12] = [
    Rule::kw_orthogonal,
    Rule::kw_diagonal,
    Rule::kw_any,
    Rule::kw_forward_diagonal,
    Rule::kw_backward_diagonal,
    Rule::kw_forward,
    Rule::kw_backward,
    Rule::kw_left,
    Rule::kw_right,
    Rule::kw_sideways,
    Rule::kw_same,
    Rule::kw_outward,
];

fn expected_list(positives: &[Rule]) -> String {
    let mut rules: Vec<Rule> = positives.to_vec();
    let mut phrases: Vec<String> = Vec::new();
    let groups: [(&[Rule], &str); 4] = [
        (&CLAUSE_KEYWORDS, "a piece clause (`move`, `promote`, ...)"),
        (&RULE_KEYWORDS, "a rule (`checkmate`, `stalemate`, ...)"),
        (
            &DIR_KEYWORDS,
            "a direction (`orthogonal`, `forward`, `(1,2)`, ...)",
        ),
        (&ITEM_KEYWORDS, "a declaration (`piece`, `zone`, ...)"),
    ];
    for (group, phrase) in groups {
        if group.iter().filter(|r| rules.contains(r)).count() >= 3 {
            rules.retain(|r| !group.contains(r));
            phrases.push(phrase.to_string());
        }
    }
    // With every declaration expected, the end of the file is expected too; say it once.
    if phrases.iter().any(|p| p.starts_with("a declaration")) {
        rules.retain(|r| *r != Rule::EOI);
    }
    let mut words: Vec<String> = rules.into_iter().map(describe).collect();
    words.extend(phrases);
    let mut seen = Vec::new();
    words.retain(|w| {
        if seen.contains(w) {
            false
        } else {
            seen.push(w.clone());
            true
        }
    });
    match words.len() {
        0 => "something else".to_string(),
        1 => words.remove(0),
        n => {
            let last = words.pop().expect("n >= 2");
            let list = words.join(", ");
            if n > 2 {
                format!("one of {list} or {last}")
            } else {
                format!("{list} or {last}")
            }
        }
    }
}

#[cfg(test)]
mod tests;
