//! Every request at every place of texts the checker refuses: nothing may panic.

use std::path::Path;

use super::*;

/// The definitions of `dir` (recursively), the refused ones of the test fixtures first.
fn texts(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            texts(&path, out);
        } else if path.extension().is_some_and(|e| e == "variant") {
            out.push(std::fs::read_to_string(&path).unwrap_or_default());
        }
    }
}

#[test]
fn nothing_at_any_place_of_a_refused_text_panics() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    texts(&root.join("tests/fixtures/invalid"), &mut all);
    assert!(all.len() > 50, "the fixtures are there");
    let uri: Uri = "file:///t.variant".parse().expect("a URI");
    for text in &all {
        // Each text, and each text cut short halfway, as it is while being typed.
        let half = text.floor_char_boundary(text.len() / 2);
        for text in [text.as_str(), &text[..half]] {
            let doc = Document::new("t.variant", text.to_string(), None);
            for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
                let _ = hover::hover(&doc, offset);
                let _ = completion::complete(&doc, offset);
                // Between `\r` and `\n` is no position of its own.
                if !text[..offset].ends_with('\r') {
                    assert_eq!(doc.text.offset(doc.text.position(offset)), offset);
                }
            }
            let everything = lsp_types::Range::new(
                lsp_types::Position::new(0, 0),
                lsp_types::Position::new(u32::MAX, 0),
            );
            let params = CodeActionParams {
                text_document: lsp_types::TextDocumentIdentifier::new(uri.clone()),
                range: everything,
                context: lsp_types::CodeActionContext::default(),
                work_done_progress_params: Default::default(),
                partial_result_params: Default::default(),
            };
            let _ = code_actions(&doc, &params);
            for problem in doc.problems() {
                let _ = diagnostic(&doc, &uri, problem);
            }
        }
    }
}
