//! Completion: the definition's own names and letters, then the words of the language. The
//! editor filters them by what is typed; a keyword's explanation is sent only when the editor
//! asks for it (`completionItem/resolve`), so that a list of every keyword stays small.

use std::collections::HashSet;

use lsp_types::{CompletionItem, CompletionItemKind, Documentation, MarkupContent, MarkupKind};

use super::analysis::Document;
use super::grammar::grammar;
use super::symbols::Kind;

/// The declaration keywords a best-effort scan of broken text reads names after.
const DECLARING: [(&str, Kind); 5] = [
    ("piece", Kind::Piece),
    ("zone", Kind::Zone),
    ("partition", Kind::Partition),
    ("line", Kind::Line),
    ("option", Kind::Option),
];

/// The completions at byte `offset` of `doc`.
pub fn complete(doc: &Document, offset: usize) -> Vec<CompletionItem> {
    let path = doc.tree.path_at(offset);
    if path
        .first()
        .is_some_and(|&i| matches!(&*doc.tree.nodes[i].rule, "string" | "string_text"))
    {
        return Vec::new();
    }
    let mut seen = HashSet::new();
    let mut items = Vec::new();
    let mut name = |label: &str, kind: Kind, detail: String| {
        if seen.insert((label.to_string(), kind)) {
            items.push(CompletionItem {
                label: label.to_string(),
                kind: Some(item_kind(kind)),
                detail: Some(detail),
                sort_text: Some(format!("0{label}")),
                ..CompletionItem::default()
            });
        }
    };
    for d in &doc.symbols.declarations {
        name(&d.name, d.kind, d.kind.word().to_string());
        if let Some((letter, _)) = &d.letter {
            name(letter, d.kind, format!("letter of {}", d.name));
        }
    }
    // Declarations the tree leaves out because they do not parse (often the one being typed
    // next to) still name things.
    let text = doc.text.as_str();
    for skipped in &doc.tree.skipped {
        for line in text[skipped.start..skipped.end].lines() {
            let mut words = line.split_whitespace();
            let (Some(first), Some(second)) = (words.next(), words.next()) else {
                continue;
            };
            let Some(&(_, kind)) = DECLARING.iter().find(|(k, _)| *k == first) else {
                continue;
            };
            let valid = second.starts_with(|c: char| c.is_ascii_alphabetic())
                && second
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            if valid && !grammar().is_keyword(second) {
                name(second, kind, kind.word().to_string());
            }
        }
    }
    items.extend(grammar().keywords().map(|w| CompletionItem {
        label: w.to_string(),
        kind: Some(CompletionItemKind::KEYWORD),
        sort_text: Some(format!("1{w}")),
        data: Some(serde_json::json!({ "keyword": w })),
        ..CompletionItem::default()
    }));
    items
}

/// A keyword's item with its explanation.
pub fn resolve(mut item: CompletionItem) -> CompletionItem {
    let keyword = item
        .data
        .as_ref()
        .and_then(|d| d.get("keyword"))
        .and_then(serde_json::Value::as_str);
    if let Some(text) = keyword.and_then(|k| grammar().explain(k)) {
        item.documentation = Some(Documentation::MarkupContent(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }));
    }
    item
}

fn item_kind(kind: Kind) -> CompletionItemKind {
    match kind {
        Kind::Piece => CompletionItemKind::CLASS,
        Kind::Zone | Kind::Partition | Kind::Line => CompletionItemKind::VARIABLE,
        Kind::Option => CompletionItemKind::PROPERTY,
        Kind::Side => CompletionItemKind::ENUM_MEMBER,
    }
}
