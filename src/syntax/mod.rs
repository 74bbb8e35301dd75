//! Text to typed syntax tree, with a byte span on every node.
//!
//! The grammar is `grammar/variant.pest`; no `pest` type leaves this module. After a syntax
//! error the parser recovers at the next declaration (a line that starts, unindented, with a
//! declaration keyword), so one run reports every broken declaration; later checks need a
//! whole tree and run only when there is none.
//!
//! Leniency: tabs count as blanks, CRLF line ends are accepted, and numbers of any length
//! parse here; the checker decides whether they are in range.

pub mod ast;
mod betza;
pub mod format;
mod lower;
mod old;
mod similar;
pub mod span;
pub mod tree;

pub(crate) use similar::similar;

use pest::{error::InputLocation, Parser};

pub use span::{Span, Spanned};

pub(crate) use betza::read as read_betza;
pub use old::upgrade;

use crate::diagnostics::DefinitionError;

const _GRAMMAR: &str = include_str!("../../grammar/variant.pest");

/// Parentheses deeper than this are refused before parsing, so that no input can exhaust
/// the stack of the recursive descent.
pub const MAX_NESTING: usize = 32;

/// The longest line, in characters: far beyond any real definition (a 26-file setup row with
/// promoted letters is under 100), and short enough that every report and picture of the
/// file stays within what a formatter can lay out.
pub const MAX_LINE: usize = 4_000;

/// The longest word (a name, a letter, a setup row), in characters: names end up in headings,
/// legends and aligned columns.
pub const MAX_WORD: usize = 100;

/// The generated parser, kept private so that its `Rule` type stays inside this module.
mod parser {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/variant.pest"]
    pub(super) struct VariantParser;
}

use parser::{Rule, VariantParser};

/// The most syntax errors reported in one run; after that many, the rest of the file is
/// unlikely to be worth reading as a definition.
pub const MAX_SYNTAX_ERRORS: usize = 50;

/// The words that start a top-level declaration.
const DECLARATION_KEYWORDS: [&str; 15] = [
    "variant",
    "board",
    "sides",
    "holes",
    "option",
    "zone",
    "partition",
    "line",
    "piece",
    "castling",
    "rules",
    "setup",
    "drawing",
    "without",
    "teams",
];

/// Parses a definition into its syntax tree.
///
/// # Errors
/// Every syntax error, each as a diagnostic with a span into `text`: after an error, the
/// broken declaration is skipped and parsing resumes at the next one.
pub fn parse(text: &str) -> Result<ast::File, Vec<DefinitionError>> {
    prescan(text).map_err(|e| vec![e])?;
    let mut errors = Vec::new();
    // Skipped declarations are blanked out rather than cut, so that every span stays a span
    // into `text`.
    let mut work = text.to_string();
    // Whether the last skip blanked everything to the end: the file then ends early because
    // of the skip, which is no new error.
    let mut skipped_to_end = false;
    loop {
        let error = match VariantParser::parse(Rule::file, &work) {
            Ok(mut pairs) if errors.is_empty() => {
                let file = pairs
                    .next()
                    .expect("grammar: parsing `file` yields one pair");
                return Ok(lower::file(file));
            }
            Ok(_) => return Err(errors),
            Err(e) => e,
        };
        let at = match error.location {
            InputLocation::Pos(p) => p,
            InputLocation::Span((start, _)) => start,
        };
        if skipped_to_end && work[at.min(work.len())..].trim().is_empty() {
            return Err(errors);
        }
        errors.push(syntax_error(&work, &error));
        if errors.len() >= MAX_SYNTAX_ERRORS {
            return Err(errors);
        }
        match skip_declaration(&mut work, at) {
            Some(end) => skipped_to_end = work[end..].trim().is_empty(),
            None => return Err(errors),
        }
    }
}

/// Parses a definition whose spans start at `offset`: a base, whose spans share one space of
/// offsets with the definition built on it.
///
/// # Errors
/// As [`parse`], with spans from `offset`.
pub fn parse_at(text: &str, offset: usize) -> Result<ast::File, Vec<DefinitionError>> {
    if offset == 0 {
        return parse(text);
    }
    // Blank lines before the text move every span and leave lines and pictures as they were.
    let mut padded = "\n".repeat(offset);
    padded.push_str(text);
    parse(&padded)
}

/// Byte offsets of the lines that start with an unindented declaration keyword, and of those
/// whose first word is only similar to one (a misspelt keyword still ends the declaration
/// before it).
fn declaration_starts(text: &str) -> (Vec<usize>, Vec<usize>) {
    let (mut exact, mut likely) = (Vec::new(), Vec::new());
    let mut line = 0;
    for piece in text.split_inclusive('\n') {
        let word_len = piece
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(piece.len());
        let word = &piece[..word_len];
        if DECLARATION_KEYWORDS.contains(&word) {
            exact.push(line);
            likely.push(line);
        } else if word_len > 0 && similar(word, DECLARATION_KEYWORDS.iter().copied()).is_some() {
            likely.push(line);
        }
        line += piece.len();
    }
    (exact, likely)
}

/// Blanks the declaration that holds the syntax error found at `at`, so that the next parse
/// goes on after it. Returns where the blanked text ends, or `None` when nothing is left to
/// skip.
fn skip_declaration(work: &mut String, at: usize) -> Option<usize> {
    let len = work.len();
    let rest = &work[at.min(len)..];
    let p = at.min(len) + (rest.len() - rest.trim_start().len());
    if p >= len {
        return None;
    }
    let (starts, boundaries) = declaration_starts(work);
    let line_start = work[..p].rfind('\n').map_or(0, |i| i + 1);
    let next = |after: usize| {
        boundaries
            .iter()
            .copied()
            .find(|&s| s > after)
            .unwrap_or(len)
    };
    let previous = |upto: usize| starts.iter().copied().rfind(|&s| s < upto);
    let (from, to) = if starts.contains(&p) {
        // A declaration keyword where the grammar wanted more: the one before is unfinished.
        (previous(p).unwrap_or(0), p)
    } else if p == line_start {
        // An unindented word that starts no declaration (a misspelt keyword): skip its lines.
        (p, next(p))
    } else {
        (previous(p + 1).unwrap_or(line_start), next(p))
    };
    if blank(work, from, to) {
        Some(to)
    } else if blank(work, line_start, next(p)) {
        Some(next(p))
    } else {
        None
    }
}

/// Replaces `work[from..to]` by blanks, keeping line ends; whether anything changed.
fn blank(work: &mut String, from: usize, to: usize) -> bool {
    let region = &work[from..to];
    if region.chars().all(char::is_whitespace) {
        return false;
    }
    let blanked: String = region
        .chars()
        .map(|c| {
            if c == '\n' || c == '\r' {
                c.to_string()
            } else {
                " ".repeat(c.len_utf8())
            }
        })
        .collect();
    work.replace_range(from..to, &blanked);
    true
}

/// Finds what the grammar would report poorly or what could recurse too deeply or render too
/// wide: unclosed strings, deeply nested parentheses, overlong lines and words.
fn prescan(text: &str) -> Result<(), DefinitionError> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if let Some((at, c)) = line.char_indices().nth(MAX_LINE) {
            return Err(DefinitionError::LineTooLong {
                limit: MAX_LINE,
                at: Span::new(offset + at, offset + at + c.len_utf8()).into(),
            });
        }
        offset += line.len();
    }
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'+' | b'.' | b'*');
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
            b if word(b) => {
                let start = i;
                while i + 1 < bytes.len() && word(bytes[i + 1]) {
                    i += 1;
                }
                if i + 1 - start > MAX_WORD {
                    return Err(DefinitionError::WordTooLong {
                        limit: MAX_WORD,
                        at: Span::new(start, start + MAX_WORD).into(),
                    });
                }
            }
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
    let (expected, keywords) = match &error.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            (expected_list(positives), expected_keywords(positives))
        }
        pest::error::ErrorVariant::CustomError { message } => (message.clone(), Vec::new()),
    };
    let rest = &text[pos..];
    let skipped = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    let start = pos + skipped;
    let rest = &text[start..];
    let Some(first) = rest.chars().next() else {
        // Point at the last word, which is where the reader looks for what is missing.
        let trimmed = text.trim_end();
        let word_start = trimmed
            .char_indices()
            .rev()
            .find(|(_, c)| c.is_whitespace())
            .map_or(0, |(i, c)| i + c.len_utf8());
        return DefinitionError::UnexpectedEnd {
            expected,
            at: Span::new(word_start, trimmed.len()).into(),
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
    let word = &rest[..len];
    let is_word = !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    let is_keyword = is_word
        && word.starts_with(|c: char| c.is_ascii_lowercase())
        && VariantParser::parse(Rule::ident, word).is_err()
        && VariantParser::parse(Rule::lone_square, word).is_err();
    let help = if is_keyword && expected.contains("a name") {
        format!("`{word}` is a keyword and cannot be used as a name; choose another name")
    } else if matches!(
        word,
        "mirrored"
            | "rotated"
            | "move-only"
            | "capture-only"
            | "creates"
            | "takes"
            | "forced"
            | "perpetual"
    ) && expected.contains("`,`")
    {
        format!("put a `,` before `{word}`")
    } else if matches!(word, "step" | "leap" | "slide" | "hop")
        && keywords.iter().any(|k| k == "then")
    {
        "join the legs of one path with `then`, or start another pattern with `|`".to_string()
    } else {
        match similar(word, keywords.iter().map(String::as_str)) {
            Some(k) if is_word && k != word => {
                format!("there is a keyword with a similar name: `{k}`")
            }
            _ => "see docs/language.md for what may be written here".to_string(),
        }
    };
    DefinitionError::Unexpected {
        expected,
        found,
        help,
        at: Span::new(start, start + len).into(),
    }
}

/// What a rule stands for in an error message.
fn describe(rule: Rule) -> String {
    let name = format!("{rule:?}");
    if let Some(word) = name.strip_prefix("kw_") {
        return match rule {
            Rule::kw_up => "`up to`".into(),
            _ => format!("`{}`", word.replace('_', "-")),
        };
    }
    match rule {
        Rule::EOI => "end of file",
        Rule::ident => "a name",
        Rule::number | Rule::decimal | Rule::bad_value | Rule::piece_value => "a number",
        Rule::int => "a whole number",
        Rule::string | Rule::string_text => "a string in double quotes",
        Rule::square | Rule::lone_square => "a square such as `e4`",
        Rule::square_range => "a range such as `a1-c3`",
        Rule::file_letter => "a file letter",
        Rule::piece_letter => "a piece letter such as `N` or `+P`",
        Rule::promoted_letter | Rule::piece_ref => "a piece name or letter",
        Rule::mask | Rule::mask_row | Rule::mask_cells => "an indented mask row",
        Rule::setup_row | Rule::setup_cells => "an indented setup row",
        Rule::zone_expr | Rule::zone_union | Rule::zone_factor | Rule::zone_term => "a zone",
        Rule::zone_group | Rule::open_paren => "`(`",
        Rule::close_paren => "`)`",
        Rule::open_bracket => "`[`",
        Rule::close_bracket => "`]`",
        Rule::symmetric_vector => "a leap such as `(1,2)`",
        Rule::exact_vector => "a vector such as `[1,2]`",
        Rule::comma | Rule::modifier | Rule::symmetry | Rule::forced | Rule::perpetual => "`,`",
        Rule::colon | Rule::guards => "`:`",
        Rule::bar => "`|`",
        Rule::equals => "`=`",
        Rule::zone_op => "an operator (`and`, `except`)",
        Rule::dash => "`-`",
        Rule::up_to => "`up to`",
        Rule::just_beyond => "`just beyond`",
        Rule::royal => "`royal`",
        Rule::on_off => "`on` or `off`",
        Rule::compass => "a compass direction (`north`, `south`, `east`, `west`)",
        Rule::verdict => "`wins`, `loses` or `draws`",
        Rule::facing_line => "`files`, `ranks` or `diagonals`",
        Rule::side => "a side such as `white north`",
        Rule::or_from => "`or from`",
        Rule::creates_ep => "`creates en-passant`",
        Rule::takes_ep => "`takes en-passant`",
        Rule::option_prefix | Rule::option_guard => "`if` or `unless`",
        Rule::guard | Rule::zone_guard => "a guard (`in`, `outside`, `if`, `unless`)",
        Rule::pattern => "a pattern",
        Rule::like => "`like`",
        Rule::path | Rule::leg | Rule::leg_kind => "a leg (`step`, `leap`, `slide`, `hop`)",
        Rule::dir | Rule::dirs | Rule::named_dir => DIRECTION,
        Rule::rule_line | Rule::rule_kind => RULE,
        Rule::drop_in | Rule::drop_outside | Rule::drop_max | Rule::drop_no_mate => {
            "`in`, `outside`, `max`, `may not mate`, `even where stuck`, `also as` or `compulsory`"
        }
        Rule::checkmate_rule => "`checkmate`",
        Rule::extinction_rule => "`extinction`",
        Rule::stalemate_rule => "`stalemate`",
        Rule::side_set => "`, for SIDE`",
        Rule::eliminated_rule => "`eliminated`",
        Rule::shared_victory_rule => "`shared victory`",
        Rule::facing_rule => "`facing`",
        Rule::repetition_rule => "`repetition`",
        Rule::move_limit_rule => "`move-limit`",
        Rule::drops_rule => "`drops`",
        Rule::when_rule => "`when`",
        Rule::variant_decl => "`variant`",
        Rule::known_as => "`known as`",
        Rule::protocol => "`xboard` or `uci`",
        Rule::board_decl => "`board`",
        Rule::sides_decl => "`sides`",
        Rule::option_decl => "`option`",
        Rule::zone_decl => "`zone`",
        Rule::line_decl => "`line`",
        Rule::holes_decl => "`holes`",
        Rule::piece_decl => "`piece`",
        Rule::castling_decl => "`castling`",
        Rule::rules_decl => "`rules`",
        Rule::setup_decl | Rule::setup_fen | Rule::setup_picture => "`setup`",
        Rule::drawing_decl => "`drawing`",
        Rule::without_decl => "`without`",
        Rule::variant_base => "`from`",
        Rule::without_part => {
            "`piece`, `zone`, `option`, `line`, `partition`, `castling`, `holes` or `rule`"
        }
        Rule::rule_name => "a rule's name",
        Rule::teams_decl | Rule::team | Rule::kw_teams => "`teams`",
        Rule::board_style => "`checkered`, `grid` or `points`",
        Rule::drawing_extra | Rule::river_mark | Rule::diagonals_mark => {
            "`river after rank N` or `diagonals in ZONE`"
        }
        Rule::move_clause => "`move`",
        Rule::stay_clause | Rule::stay_within_clause => "`stay`",
        Rule::into_clause => "`into`",
        Rule::within_clause => "`within`",
        Rule::through => "`not through`",
        Rule::drop_into => "`into`",
        Rule::suffix_guard => "`if` or `unless`",
        Rule::never_clause => "`never`",
        Rule::promote_clause => "`promote`",
        Rule::demote_clause => "`demote`",
        Rule::drop_clause => "`drop`",
        Rule::resets_clause => "`resets`",
        Rule::unmoved_clause => "`unmoved noted in fen` or `unmoved lost when aimed by`",
        Rule::immune_clause => "`immune`",
        Rule::fen_only_clause => "`only from fen`",
        Rule::borrow_clause => "`borrow`",
        Rule::teleport_clause => "`teleport`",
        Rule::enter_clause => "`enter`",
        Rule::file => "a declaration",
        _ => return format!("`{name}`"),
    }
    .to_string()
}

const DIRECTION: &str = "a direction";
const RULE: &str = "a rule";

/// Words that, when three or more of them are expected, are summarised by one phrase.
const GROUPS: [(&str, &[&str]); 4] = [
    (
        "a piece clause",
        &[
            "`move`",
            "`into`",
            "`within`",
            "`stay`",
            "`never`",
            "`promote`",
            "`demote`",
            "`drop`",
            "`resets`",
            "`borrow`",
            "`teleport`",
            "`enter`",
            "`immune`",
            "`unmoved`",
            "`only`",
        ],
    ),
    (
        RULE,
        &[
            "`checkmate`",
            "`extinction`",
            "`stalemate`",
            "`eliminated`",
            "`shared victory`",
            "`facing`",
            "`repetition`",
            "`move-limit`",
            "`drops`",
            "`when`",
        ],
    ),
    (
        DIRECTION,
        &[
            "`orthogonal`",
            "`diagonal`",
            "`any`",
            "`forward-diagonal`",
            "`backward-diagonal`",
            "`forward`",
            "`backward`",
            "`left`",
            "`right`",
            "`sideways`",
            "`same`",
            "`outward`",
            "`inward`",
        ],
    ),
    (
        "a declaration",
        &[
            "`variant`",
            "`board`",
            "`sides`",
            "`holes`",
            "`option`",
            "`zone`",
            "`partition`",
            "`line`",
            "`piece`",
            "`castling`",
            "`rules`",
            "`setup`",
            "`drawing`",
            "`teams`",
            "`without`",
        ],
    ),
];

/// Keywords the grammar would have accepted, for spotting a misspelt one.
fn expected_keywords(positives: &[Rule]) -> Vec<String> {
    let words: Vec<String> = positives.iter().map(|r| describe(*r)).collect();
    let mut out: Vec<String> = Vec::new();
    for (phrase, members) in GROUPS {
        if words
            .iter()
            .any(|w| w == phrase || members.contains(&w.as_str()))
        {
            out.extend(members.iter().map(|m| m.trim_matches('`').to_string()));
        }
    }
    // Every backquoted word of every description, e.g. `wins` in "`wins`, `loses` or `draws`".
    for w in &words {
        for word in w.split('`').skip(1).step_by(2) {
            if !word.is_empty() && word.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
                out.push(word.to_string());
            }
        }
    }
    out
}

fn expected_list(positives: &[Rule]) -> String {
    let mut words: Vec<String> = Vec::new();
    for w in positives.iter().map(|r| describe(*r)) {
        if !words.contains(&w) {
            words.push(w);
        }
    }
    for (phrase, members) in GROUPS {
        if members
            .iter()
            .filter(|m| words.iter().any(|w| w == *m))
            .count()
            >= 3
        {
            let at = words
                .iter()
                .position(|w| members.contains(&w.as_str()))
                .unwrap_or(words.len());
            words.retain(|w| !members.contains(&w.as_str()));
            if !words.iter().any(|w| w == phrase) {
                words.insert(at.min(words.len()), phrase.to_string());
            }
        }
    }
    // `stalemate` takes a verdict or `passes`: one list of four words reads better.
    let verdicts = describe(Rule::verdict);
    if let (Some(v), Some(p)) = (
        words.iter().position(|w| *w == verdicts),
        words.iter().position(|w| w == "`passes`"),
    ) {
        words[v] = "`wins`, `loses`, `draws` or `passes`".to_string();
        words.remove(p);
    }
    // Where a declaration may start, so may the end of the file; saying so adds nothing.
    if words.iter().any(|w| w == "a declaration") {
        words.retain(|w| w != "end of file");
    }
    // Nearby possibilities first, the ones that end the current declaration last.
    let rank = |w: &String| match w.as_str() {
        DIRECTION => 0,
        "a piece clause" => 2,
        RULE => 3,
        "a declaration" => 4,
        _ => 1,
    };
    words.sort_by_key(rank);
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
