//! The first edition's forms, still read for a release: each is found here with the text
//! that says the same in the second edition, which `check` offers as a fix and
//! `rulebook fmt --upgrade` writes.

use super::parser::Rule;
use super::{ast::OldForm, Span};

type P<'i> = pest::iterators::Pair<'i, Rule>;

/// Every old form in the parsed file `pair`, in order.
pub(super) fn forms(pair: P<'_>) -> Vec<OldForm> {
    let mut out = Vec::new();
    for p in pair.into_inner().flatten() {
        if let Some(form) = form(&p) {
            out.push(form);
        }
    }
    out
}

/// Where `p`'s own words are: a rule that ends in an optional part that was not written also
/// holds the blanks and comments after its last word, which a rewrite must keep.
fn span(p: &P<'_>) -> Span {
    let end = p
        .clone()
        .into_inner()
        .map(|c| c.as_span().end())
        .max()
        .unwrap_or(p.as_span().end());
    Span::new(p.as_span().start(), end)
}

/// The text of the first child of rule `rule`.
fn child<'i>(p: &P<'i>, rule: Rule) -> Option<P<'i>> {
    p.clone().into_inner().find(|c| c.as_rule() == rule)
}

/// A clause with its option guards before it, as the second edition writes it: the guards
/// already in front, then those that stood after the clause.
fn guarded(p: &P<'_>, body: &str) -> String {
    let guards: Vec<&str> = p
        .clone()
        .into_inner()
        .filter(|c| matches!(c.as_rule(), Rule::option_prefix | Rule::suffix_guard))
        .flat_map(|c| c.into_inner().flatten())
        .filter(|g| g.as_rule() == Rule::option_guard)
        .map(|g| g.as_str())
        .collect();
    if guards.is_empty() {
        body.to_string()
    } else {
        format!("{}: {body}", guards.join(" "))
    }
}

/// Where the clause's own words start: after its `if OPTION:` prefixes.
fn body_start(p: &P<'_>) -> usize {
    p.clone()
        .into_inner()
        .find(|c| c.as_rule() != Rule::option_prefix)
        .map_or(p.as_span().start(), |c| c.as_span().start())
}

/// Where the clause's own words end: before its trailing guards.
fn body_end(p: &P<'_>) -> usize {
    p.clone()
        .into_inner()
        .filter(|c| c.as_rule() != Rule::suffix_guard)
        .last()
        .map_or(p.as_span().end(), |c| c.as_span().end())
}

fn form(p: &P<'_>) -> Option<OldForm> {
    let name = |rule| {
        child(p, rule)
            .map(|c| c.as_str().to_string())
            .unwrap_or_default()
    };
    let (new, what) = match p.as_rule() {
        Rule::stay_clause => (
            guarded(p, &format!("into {}", name(Rule::ident))),
            "`stay in ZONE` is now `into ZONE`, with its guards before it",
        ),
        Rule::never_clause => (
            guarded(p, &format!("not into {}", name(Rule::ident))),
            "`never enter ZONE` is now `not into ZONE`, with its guards before it",
        ),
        Rule::stay_within_clause => (
            guarded(p, &format!("within {}", name(Rule::ident))),
            "`stay within PARTITION` is now `within PARTITION`, with its guards before it",
        ),
        Rule::promote_clause | Rule::teleport_clause | Rule::enter_clause
            if child(p, Rule::suffix_guard).is_some() =>
        {
            let text = p.get_input();
            let body = &text[body_start(p)..body_end(p)];
            (
                guarded(p, body),
                "guards stand before a clause: `if OPTION: CLAUSE`, not after it",
            )
        }
        Rule::avoiding => (
            format!("not through {}", name(Rule::ident)),
            "`avoiding ZONE` is now `not through ZONE`",
        ),
        Rule::drop_in => (
            format!("into {}", name(Rule::ident)),
            "`drop in ZONE` is now `drop into ZONE`",
        ),
        Rule::drop_outside => (
            format!("not into {}", name(Rule::ident)),
            "`drop outside ZONE` is now `drop not into ZONE`",
        ),
        Rule::kw_leap => (
            "step".to_string(),
            "`leap` is now `step`: the two always meant the same",
        ),
        _ => return None,
    };
    let at = span(p);
    Some(OldForm {
        span: at,
        old: p.get_input()[at.start..at.end].to_string(),
        new,
        what,
    })
}

/// `text` with every first-edition form written as the second edition writes it; the rest of
/// the text, comments and layout included, is kept.
///
/// # Errors
/// The syntax errors of `text`, which is then not rewritten.
pub fn upgrade(text: &str) -> Result<String, Vec<crate::diagnostics::DefinitionError>> {
    let mut text = text.to_string();
    // Old forms do not nest, so one round rewrites them all; a second finds none, and the
    // bound only guards against a rewrite that would bring one back.
    for _ in 0..4 {
        let forms = super::parse(&text)?.old_forms;
        if forms.is_empty() {
            break;
        }
        let mut end = usize::MAX;
        for form in forms.iter().rev() {
            if form.span.end <= end {
                text.replace_range(form.span.start..form.span.end, &form.new);
                end = form.span.start;
            }
        }
    }
    Ok(text)
}
