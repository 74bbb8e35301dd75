//! The canonical layout of a definition (`rulebook fmt`).
//!
//! The text is parsed with the grammar and written out again token by token. Every token
//! keeps its line (a token starts a line exactly where it started one), so only the blanks
//! between tokens change; comments and blank lines are read back from the gaps between tokens,
//! which hold nothing else since the grammar skips them. The layout follows the shape of the
//! parse tree, not the typed syntax tree, so that new keywords and declarations need nothing
//! here:
//!
//! - a top-level declaration starts unindented;
//! - a line that starts a part of it (a piece clause, a rule, `known as`), or that goes on with
//!   its first line, is indented two spaces; a line that goes on with a part begun on an
//!   earlier line, four; a line that opens with `|` puts the alternative after it under the
//!   first one of its list (`move` and its patterns, as the shipped Gala writes them);
//! - picture rows (setup boards, masks) are kept as written, two spaces in (a row indented
//!   more than the least indented row of its picture keeps the difference: it aligns columns);
//! - one space between tokens, none before `,` `:` `)` `]`, after `(` `[`, around the `-` of
//!   `ranks 1-5` or after the `,` of a vector (`(1,2)`);
//! - a comment on a line of its own at the indentation of the line it comes before, one at the
//!   end of a line two spaces after the last token (a mask row's cells end only so);
//! - at most one blank line in a row, none at the start or end, one newline at the end.
//!
//! The result is parsed again and its tree compared with the original's: a layout that would
//! read differently is refused, never written.

use pest::iterators::Pair;
use pest::Parser;

use super::parser::{Rule, VariantParser};
use super::Span;
use crate::diagnostics::DefinitionError;

/// One level of indentation.
const INDENT: usize = 2;

/// Tab stops, for comparing the indentation of a picture's rows (every eighth column, as
/// terminals and `expand` read a tab).
const TAB: usize = 8;

/// Lays a definition out in the canonical layout.
///
/// # Errors
/// The syntax errors `rulebook check` reports, when the text does not parse (nothing is laid
/// out then), or `rulebook::fmt::changes_meaning` if the layout would read differently from
/// the text (a fault of the formatter, guarded against rather than expected).
///
/// # Examples
/// ```
/// let messy = "variant   \"Tiny\"\nboard 3 x 3 # small\n\n\n\
///              sides white north ,black south\npiece King K royal\nmove step any\n";
/// let tidy = rulebook::syntax::format::format(messy).unwrap();
/// assert_eq!(
///     tidy,
///     "variant \"Tiny\"\nboard 3 x 3  # small\n\n\
///      sides white north, black south\npiece King K royal\n  move step any\n"
/// );
/// assert_eq!(rulebook::syntax::format::format(&tidy).unwrap(), tidy);
/// ```
pub fn format(text: &str) -> Result<String, Vec<DefinitionError>> {
    // Parsing through `parse` first gives the same diagnostics as `check`, with its recovery.
    super::parse(text)?;
    let file = parse_file(text).map_err(|e| vec![e])?;
    let tokens = tokens(file.clone(), text);
    let (formatted, offsets) = lay_out(text, &tokens);
    verify(file, &formatted, &tokens, &offsets).map_err(|e| vec![e])?;
    Ok(formatted)
}

/// Whether `text` is already in the canonical layout.
///
/// # Errors
/// As [`format`].
pub fn is_formatted(text: &str) -> Result<bool, Vec<DefinitionError>> {
    format(text).map(|f| f == text)
}

fn parse_file(text: &str) -> Result<Pair<'_, Rule>, DefinitionError> {
    match VariantParser::parse(Rule::file, text) {
        Ok(mut pairs) => pairs.next().ok_or_else(|| changes_meaning(Span::new(0, 0))),
        Err(e) => Err(super::syntax_error(text, &e)),
    }
}

fn changes_meaning(at: Span) -> DefinitionError {
    DefinitionError::FormatChangesMeaning { at: at.into() }
}

/// The two kinds of picture, read line by line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Picture {
    Mask,
    Setup,
}

/// A token: a leaf of the parse tree, or a node written as one piece (a string with its
/// quotes, a range `d1-f3`).
#[derive(Debug)]
struct Token<'t> {
    text: &'t str,
    rule: Rule,
    start: usize,
    end: usize,
    /// The first token of the top-level declaration this one belongs to.
    declaration: usize,
    /// The first token of the part of that declaration (its child in the tree) this one is in.
    part: usize,
    /// For a `|` between alternatives, the first token of the first alternative.
    first_alternative: Option<usize>,
    /// For a row of a picture, which kind of picture.
    row: Option<Picture>,
}

/// The tokens of the tree under `file`, in order.
fn tokens<'t>(file: Pair<'t, Rule>, text: &'t str) -> Vec<Token<'t>> {
    let mut out = Vec::new();
    walk(file, 0, text, &mut out);
    out
}

/// Appends the tokens of `pair`, found `level` steps below the whole file.
fn walk<'t>(pair: Pair<'t, Rule>, level: usize, text: &'t str, out: &mut Vec<Token<'t>>) {
    let first = out.len();
    let children: Vec<Pair<'t, Rule>> = pair.clone().into_inner().collect();
    if children.is_empty() || literal_between(&pair, &children, text) {
        let span = pair.as_span();
        if span.start() < span.end() {
            let rule = pair.as_rule();
            out.push(Token {
                text: span.as_str(),
                rule,
                start: span.start(),
                end: span.end(),
                declaration: first,
                part: first,
                first_alternative: None,
                row: match rule {
                    Rule::mask_cells => Some(Picture::Mask),
                    Rule::setup_cells => Some(Picture::Setup),
                    _ => None,
                },
            });
        }
    } else {
        let mut previous = None;
        let mut first_alternative = None;
        for child in children {
            let at = out.len();
            let bar = child.as_rule() == Rule::bar;
            if bar && first_alternative.is_none() {
                first_alternative = previous;
            }
            walk(child, level + 1, text, out);
            if bar {
                if let Some(t) = out.get_mut(at) {
                    t.first_alternative = first_alternative;
                }
            }
            if out.len() > at {
                previous = Some(at);
            }
        }
    }
    match level {
        1 => out[first..].iter_mut().for_each(|t| t.declaration = first),
        2 => out[first..].iter_mut().for_each(|t| t.part = first),
        _ => {}
    }
}

/// Whether the text of `pair` outside its children holds more than blanks and comments: the
/// quotes of a string, the `-` of a range. Such a node is written as it stands.
fn literal_between(pair: &Pair<'_, Rule>, children: &[Pair<'_, Rule>], text: &str) -> bool {
    let mut at = pair.as_span().start();
    for child in children {
        let span = child.as_span();
        if holds_literal(&text[at..span.start()]) {
            return true;
        }
        at = span.end();
    }
    holds_literal(&text[at..pair.as_span().end()])
}

fn holds_literal(gap: &str) -> bool {
    let mut comment = false;
    for c in gap.chars() {
        match c {
            '\n' | '\r' => comment = false,
            _ if comment => {}
            '#' => comment = true,
            ' ' | '\t' => {}
            _ => return true,
        }
    }
    false
}

/// What lies between two tokens.
#[derive(Debug, Default)]
struct Gap<'t> {
    /// A comment at the end of the earlier token's line.
    trailing: Option<&'t str>,
    /// The whole lines between the tokens: a comment, or `None` for a blank line.
    lines: Vec<Option<&'t str>>,
    /// Whether the later token starts a line.
    newline: bool,
    /// The blanks before the later token, on its line.
    indent: &'t str,
}

/// Reads a gap; `at_start` when no token comes before it, `at_end` when none comes after.
fn gap(text: &str, at_start: bool, at_end: bool) -> Gap<'_> {
    let segments = split_lines(text);
    let last = segments.len() - 1;
    let mut gap = Gap {
        newline: last > 0,
        ..Gap::default()
    };
    for (k, segment) in segments.into_iter().enumerate() {
        if k == last && !at_end {
            gap.indent = segment;
        } else if k == 0 && !at_start {
            gap.trailing = comment(segment);
        } else {
            gap.lines.push(comment(segment));
        }
    }
    gap
}

/// The lines of `text`, split at every line end the grammar knows (`\n`, `\r\n`, `\r`),
/// without their ends; one more than there are line ends.
/// The comment on a line of a gap, if there is one (the rest of the line is blanks).
fn comment(line: &str) -> Option<&str> {
    line.find('#').map(|i| line[i..].trim_end())
}

fn split_lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            b'\r' => {
                out.push(&text[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&text[start..]);
    out
}

/// The width of an indentation, tabs taken to the next tab stop.
fn width(indent: &str) -> usize {
    indent.chars().fold(0, |w, c| match c {
        '\t' => (w / TAB + 1) * TAB,
        _ => w + 1,
    })
}

/// The text laid out, and where each token starts in it.
fn lay_out(text: &str, tokens: &[Token<'_>]) -> (String, Vec<usize>) {
    let n = tokens.len();
    let gaps: Vec<Gap<'_>> = (0..=n)
        .map(|i| {
            let from = if i == 0 { 0 } else { tokens[i - 1].end };
            let to = tokens.get(i).map_or(text.len(), |t| t.start);
            gap(&text[from..to], i == 0, i == n)
        })
        .collect();
    // Every declaration starts a line, even one written after another on the same line.
    let starts_line = |i: usize| i == 0 || gaps[i].newline || tokens[i].declaration == i;
    // The line each token is on, counted in lines that hold tokens: a part that begins on its
    // declaration's first line goes on with that line rather than starting a line of its own.
    let mut line = Vec::with_capacity(n);
    for i in 0..n {
        line.push(match i {
            0 => 0,
            _ => line[i - 1] + usize::from(starts_line(i)),
        });
    }
    let rows = row_indents(tokens, &gaps);

    let mut out = String::with_capacity(text.len());
    let mut offsets = vec![0; n];
    let mut columns = vec![0usize; n];
    // Brackets open in the current declaration: a `,` inside them is a vector's (`(1,2)`).
    let mut depth = 0usize;
    // Whether the last line written is a mask row: the next line must not read as one.
    let mut after_mask = false;
    let mut i = 0;
    while i < n {
        let end = (i + 1..n).find(|&j| starts_line(j)).unwrap_or(n);
        // The line's text after its indentation, and where each of its tokens starts in it.
        let mut content = String::new();
        let mut starts = Vec::with_capacity(end - i);
        for k in i..end {
            if k > i {
                content.push_str(separator(&tokens[k - 1], &tokens[k], depth));
            }
            if tokens[k].declaration == k {
                depth = 0;
            }
            match tokens[k].rule {
                Rule::open_paren | Rule::open_bracket => depth += 1,
                Rule::close_paren | Rule::close_bracket => depth = depth.saturating_sub(1),
                _ => {}
            }
            starts.push(content.len());
            content.push_str(tokens[k].text);
        }
        if let Some(comment) = gaps[end].trailing {
            content.push_str("  ");
            content.push_str(comment);
        }

        let token = &tokens[i];
        let indent = if let Some(extra) = rows[i] {
            INDENT + extra
        } else if token.declaration == i {
            0
        } else {
            let continues = token.part != i && line[token.part] != line[token.declaration];
            let base = INDENT * if continues { 2 } else { 1 };
            match token.first_alternative {
                Some(a) => columns[a].saturating_sub(2).max(base),
                None => base,
            }
        };
        write_lines(&mut out, &gaps[i].lines, indent, &mut after_mask);
        // Right after a mask, a line that would read as one more row of it stays unindented
        // (where it must have been, or its blanks kept it from reading as a row).
        let indent = if after_mask && rows[i].is_none() && reads_as_mask_row(indent, &content) {
            0
        } else {
            indent
        };
        push_spaces(&mut out, indent);
        for (k, start) in (i..end).zip(starts) {
            offsets[k] = out.len() + start;
            columns[k] = indent + content[..start].chars().count();
        }
        out.push_str(&content);
        out.push('\n');
        after_mask = tokens[end - 1].row == Some(Picture::Mask);
        i = end;
    }
    // After the last token: comments, unindented, and no blank line at the end.
    let last = &gaps[n];
    let lines = last
        .lines
        .iter()
        .rposition(Option::is_some)
        .map_or(0, |k| k + 1);
    write_lines(&mut out, &last.lines[..lines], 0, &mut after_mask);
    (out, offsets)
}

/// Whether a line with this indentation and text would be read as a row of a mask above it.
fn reads_as_mask_row(indent: usize, content: &str) -> bool {
    indent > 0 && {
        let line = format!("{}{content}\n", " ".repeat(indent));
        VariantParser::parse(Rule::mask_row, &line).is_ok()
    }
}

fn push_spaces(out: &mut String, n: usize) {
    for _ in 0..n {
        out.push(' ');
    }
}

/// Writes the comment lines and blank lines of a gap, each blank run as one blank line and
/// none at the start of the file.
fn write_lines(out: &mut String, lines: &[Option<&str>], indent: usize, after_mask: &mut bool) {
    let mut blank = false;
    for line in lines {
        match line {
            None => blank = true,
            Some(comment) => {
                if blank && !out.is_empty() {
                    out.push('\n');
                    *after_mask = false;
                }
                blank = false;
                // Right after a mask row, an indented comment would be a row (`#` is a cell).
                push_spaces(out, if *after_mask { 0 } else { indent });
                out.push_str(comment);
                out.push('\n');
                *after_mask = false;
            }
        }
    }
    if blank && !out.is_empty() {
        out.push('\n');
        *after_mask = false;
    }
}

/// The indentation of each picture row beyond the least indented row of its picture.
fn row_indents(tokens: &[Token<'_>], gaps: &[Gap<'_>]) -> Vec<Option<usize>> {
    let mut out = vec![None; tokens.len()];
    let mut i = 0;
    while i < tokens.len() {
        let Some(kind) = tokens[i].row else {
            i += 1;
            continue;
        };
        let end = (i..tokens.len())
            .find(|&j| tokens[j].row != Some(kind))
            .unwrap_or(tokens.len());
        let least = (i..end).map(|j| width(gaps[j].indent)).min().unwrap_or(0);
        for (j, slot) in out.iter_mut().enumerate().take(end).skip(i) {
            *slot = Some(width(gaps[j].indent) - least);
        }
        i = end;
    }
    out
}

/// The blanks between two tokens on one line.
fn separator(previous: &Token<'_>, next: &Token<'_>, depth: usize) -> &'static str {
    match (previous.rule, next.rule) {
        (_, Rule::comma | Rule::colon | Rule::close_paren | Rule::close_bracket)
        | (Rule::open_paren | Rule::open_bracket, _)
        | (Rule::dash, _)
        | (_, Rule::dash) => "",
        (Rule::comma, _) if depth > 0 => "",
        _ => " ",
    }
}

/// One node of a parse tree, as far as meaning goes: its rule, its depth and, for a leaf, its
/// text.
type Node<'t> = (Rule, usize, Option<&'t str>, usize);

fn shape<'t>(pair: Pair<'t, Rule>, depth: usize, out: &mut Vec<Node<'t>>) {
    let mut inner = pair.clone().into_inner().peekable();
    let leaf = inner.peek().is_none();
    let start = pair.as_span().start();
    out.push((pair.as_rule(), depth, leaf.then(|| pair.as_str()), start));
    for child in inner {
        shape(child, depth + 1, out);
    }
}

/// Checks that the laid-out text parses to the same tree as the original.
fn verify(
    original: Pair<'_, Rule>,
    formatted: &str,
    tokens: &[Token<'_>],
    offsets: &[usize],
) -> Result<(), DefinitionError> {
    // A place in the laid-out text, as the span of the original token written there.
    let at = |offset: usize| {
        let i = offsets.partition_point(|&o| o <= offset).saturating_sub(1);
        tokens
            .get(i)
            .map_or(Span::new(0, 0), |t| Span::new(t.start, t.end))
    };
    if super::prescan(formatted).is_err() {
        return Err(changes_meaning(at(formatted.len())));
    }
    let again = match VariantParser::parse(Rule::file, formatted) {
        Ok(mut pairs) => pairs.next(),
        Err(e) => {
            let offset = match e.location {
                pest::error::InputLocation::Pos(p) => p,
                pest::error::InputLocation::Span((p, _)) => p,
            };
            return Err(changes_meaning(at(offset)));
        }
    };
    let Some(again) = again else {
        return Err(changes_meaning(Span::new(0, 0)));
    };
    let (mut before, mut after) = (Vec::new(), Vec::new());
    shape(original, 0, &mut before);
    shape(again, 0, &mut after);
    let same = |a: &Node<'_>, b: &Node<'_>| a.0 == b.0 && a.1 == b.1 && a.2 == b.2;
    match before.iter().zip(&after).position(|(a, b)| !same(a, b)) {
        Some(k) => Err(changes_meaning(at(after[k].3))),
        None if before.len() != after.len() => Err(changes_meaning(at(formatted.len()))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests;
