//! `rulebook lsp`: a language server for definitions, over standard input and output.
//!
//! It checks each open document as it changes and publishes the checker's diagnostics, and
//! answers hovers, completions, go-to-definition, references and quick fixes. Requests are
//! answered one at a time, in the order they came (every answer is quick next to typing); a
//! changed text is checked when no message is waiting or a request needs it, so a burst of
//! changes costs one check.
//!
//! Nothing a client sends stops the server but `exit`: a malformed message gets an error
//! response, positions out of range are clamped, and a request whose handling panics (a bug)
//! gets an internal error while the server goes on.

mod analysis;
mod completion;
mod fixes;
mod grammar;
mod hover;
mod symbols;
mod text;
mod transport;

use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;

use lsp_server::{ErrorCode, Message, Notification, Request, Response};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOptions, CodeActionOrCommand, CodeActionParams,
    CodeActionProviderCapability, CompletionItem, CompletionOptions, CompletionResponse,
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, DidChangeTextDocumentParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, DocumentFormattingParams,
    GotoDefinitionResponse, Hover, HoverContents, HoverProviderCapability, InitializeResult,
    Location, MarkupContent, MarkupKind, NumberOrString, OneOf, PublishDiagnosticsParams,
    ServerCapabilities, ServerInfo, TextDocumentPositionParams, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextEdit, Uri, WorkspaceEdit,
};
use miette::{Diagnostic as _, Severity};

use crate::diagnostics::DefinitionError;
use crate::syntax::Span;

pub use analysis::Document;
pub use fixes::{fix, Fix};

/// Runs the server on standard input and output until the client says `exit` or closes the
/// input. Whether it ended as the protocol asks: `shutdown`, then `exit`.
///
/// # Errors
/// When standard input or output fails.
pub fn run_stdio() -> io::Result<bool> {
    let stdout = io::stdout();
    run(io::BufReader::new(io::stdin()), stdout.lock())
}

/// Runs the server on `input` and `output`; see [`run_stdio`].
///
/// Messages are read on a thread of their own, so that the server sees every message that
/// arrived while it was checking a document: a text that changed again meanwhile is checked
/// once, in its latest version, however long one check of a large definition takes.
///
/// # Errors
/// When `input` or `output` fails.
pub fn run(mut input: impl BufRead + Send + 'static, output: impl Write) -> io::Result<bool> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || loop {
        let next = transport::read(&mut input);
        let last = match &next {
            Ok(transport::Incoming::Message(Message::Notification(n))) => n.method == "exit",
            Ok(transport::Incoming::End) | Err(_) => true,
            Ok(_) => false,
        };
        if send.send(next).is_err() || last {
            return;
        }
    });
    let mut server = Server {
        output,
        documents: HashMap::new(),
        pending: HashMap::new(),
        initialized: false,
        shut_down: false,
    };
    loop {
        let next = match receive.try_recv() {
            Ok(next) => next,
            Err(mpsc::TryRecvError::Empty) => {
                // Nothing waiting: the moment to check the texts that changed.
                server.check_pending()?;
                match receive.recv() {
                    Ok(next) => next,
                    Err(mpsc::RecvError) => return Ok(false),
                }
            }
            Err(mpsc::TryRecvError::Disconnected) => return Ok(false),
        };
        match next? {
            transport::Incoming::End => return Ok(false),
            transport::Incoming::Malformed { code, message, id } => {
                transport::write_error(&mut server.output, id, code, &message)?;
            }
            transport::Incoming::Message(Message::Request(request)) => {
                // A request is answered from the text as it is now.
                server.check_pending()?;
                server.request(request)?;
            }
            transport::Incoming::Message(Message::Notification(n)) if n.method == "exit" => {
                return Ok(server.shut_down);
            }
            transport::Incoming::Message(Message::Notification(n)) => server.notification(n)?,
            // The server sends no requests, so no response is awaited.
            transport::Incoming::Message(Message::Response(_)) => {}
        }
    }
}

/// The formatter `textDocument/formatting` uses: the whole text formatted, or `None` to leave
/// it as it is. There is none yet; returning one here advertises formatting and answers the
/// requests.
fn formatter() -> Option<fn(&str) -> Option<String>> {
    Some(|text| crate::syntax::format::format(text).ok())
}

/// What the server tells the client it can do.
fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            resolve_provider: Some(true),
            ..CompletionOptions::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..CodeActionOptions::default()
        })),
        document_formatting_provider: formatter().map(|_| OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

struct Server<W> {
    output: W,
    /// The open documents as last checked.
    documents: HashMap<Uri, Document>,
    /// Texts of open documents that changed since they were last checked, with their
    /// versions.
    pending: HashMap<Uri, (text::Text, i32)>,
    /// Whether `initialize` was answered.
    initialized: bool,
    /// Whether `shutdown` was answered.
    shut_down: bool,
}

/// Why a request gets an error.
struct Failure(ErrorCode, String);

type Answer = Result<serde_json::Value, Failure>;

fn params<P: serde::de::DeserializeOwned>(value: serde_json::Value) -> Result<P, Failure> {
    serde_json::from_value(value).map_err(|e| Failure(ErrorCode::InvalidParams, e.to_string()))
}

fn json(value: impl serde::Serialize) -> Answer {
    serde_json::to_value(value).map_err(|e| Failure(ErrorCode::InternalError, e.to_string()))
}

/// What a panic says, for the error that reports it.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

impl<W: Write> Server<W> {
    fn send(&mut self, message: impl Into<Message>) -> io::Result<()> {
        transport::write(&mut self.output, message.into())
    }

    fn request(&mut self, request: Request) -> io::Result<()> {
        let id = request.id.clone();
        let answer = if request.method == "initialize" {
            if self.initialized {
                Err(Failure(
                    ErrorCode::InvalidRequest,
                    "already initialized".into(),
                ))
            } else {
                self.initialized = true;
                json(InitializeResult {
                    capabilities: capabilities(),
                    server_info: Some(ServerInfo {
                        name: "rulebook".into(),
                        version: Some(env!("CARGO_PKG_VERSION").into()),
                    }),
                })
            }
        } else if !self.initialized {
            Err(Failure(
                ErrorCode::ServerNotInitialized,
                "the server is not initialized".into(),
            ))
        } else if self.shut_down {
            Err(Failure(
                ErrorCode::InvalidRequest,
                "the server is shut down".into(),
            ))
        } else if request.method == "shutdown" {
            self.shut_down = true;
            Ok(serde_json::Value::Null)
        } else {
            let method = request.method.clone();
            catch_unwind(AssertUnwindSafe(|| self.answer(&method, request.params))).unwrap_or_else(
                |p| {
                    Err(Failure(
                        ErrorCode::InternalError,
                        format!("`{method}` failed: {}", panic_text(&*p)),
                    ))
                },
            )
        };
        self.send(match answer {
            Ok(value) => Response {
                id,
                response_result: Ok(value),
            },
            Err(Failure(code, message)) => Response::new_err(id, code as i32, message),
        })
    }

    fn document(&self, uri: &Uri) -> Result<&Document, Failure> {
        self.documents.get(uri).ok_or_else(|| {
            Failure(
                ErrorCode::InvalidParams,
                format!("`{}` is not open", uri.as_str()),
            )
        })
    }

    /// The answer to a request. Requests about a position read only the document and the
    /// position, so that a client's extra or malformed fields (a completion context, work
    /// done tokens) never cost it the answer.
    fn answer(&mut self, method: &str, value: serde_json::Value) -> Answer {
        match method {
            "textDocument/hover" => {
                let at: TextDocumentPositionParams = params(value)?;
                let doc = self.document(&at.text_document.uri)?;
                let offset = doc.text.offset(at.position);
                json(hover::hover(doc, offset).map(|(markdown, span)| Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: markdown,
                    }),
                    range: Some(doc.text.range(span)),
                }))
            }
            "textDocument/completion" => {
                let at: TextDocumentPositionParams = params(value)?;
                let doc = self.document(&at.text_document.uri)?;
                let offset = doc.text.offset(at.position);
                json(CompletionResponse::Array(completion::complete(doc, offset)))
            }
            "completionItem/resolve" => {
                let item: CompletionItem = params(value)?;
                json(completion::resolve(item))
            }
            "textDocument/definition" => {
                let at: TextDocumentPositionParams = params(value)?;
                let uri = at.text_document.uri;
                let doc = self.document(&uri)?;
                let offset = doc.text.offset(at.position);
                let target = doc.symbols.at(offset).and_then(|o| o.target);
                json(target.map(|t| {
                    let span = doc.symbols.declarations[t].span;
                    GotoDefinitionResponse::Scalar(Location::new(uri.clone(), doc.text.range(span)))
                }))
            }
            "textDocument/references" => {
                // Declarations are included unless the client says otherwise.
                let declarations = value
                    .pointer("/context/includeDeclaration")
                    .and_then(serde_json::Value::as_bool)
                    .unwrap_or(true);
                let at: TextDocumentPositionParams = params(value)?;
                let uri = at.text_document.uri;
                let doc = self.document(&uri)?;
                let offset = doc.text.offset(at.position);
                let Some(target) = doc.symbols.at(offset).and_then(|o| o.target) else {
                    return json(None::<Vec<Location>>);
                };
                let locations: Vec<Location> = doc
                    .symbols
                    .references(target)
                    .filter(|o| declarations || !o.declaration)
                    .map(|o| Location::new(uri.clone(), doc.text.range(o.span)))
                    .collect();
                json(Some(locations))
            }
            "textDocument/codeAction" => {
                let p: CodeActionParams = params(value)?;
                let doc = self.document(&p.text_document.uri)?;
                json(code_actions(doc, &p))
            }
            "textDocument/formatting" => {
                let p: DocumentFormattingParams = params(value)?;
                let doc = self.document(&p.text_document.uri)?;
                let text = doc.text.as_str();
                let formatted = formatter().and_then(|f| f(text)).filter(|f| f != text);
                json(formatted.map(|new_text| {
                    vec![TextEdit {
                        range: doc.text.range(Span::new(0, text.len())),
                        new_text,
                    }]
                }))
            }
            _ => Err(Failure(
                ErrorCode::MethodNotFound,
                format!("no method `{method}`"),
            )),
        }
    }

    fn notification(&mut self, n: Notification) -> io::Result<()> {
        if !self.initialized {
            return Ok(());
        }
        let method = n.method.clone();
        let closed = catch_unwind(AssertUnwindSafe(|| self.update(&n.method, n.params)));
        match closed {
            Ok(Some(uri)) => self.publish(uri, None),
            Ok(None) => Ok(()),
            Err(p) => self.log(&format!("`{method}` failed: {}", panic_text(&*p))),
        }
    }

    /// Tells the client's log what went wrong where no response can (a notification).
    fn log(&mut self, message: &str) -> io::Result<()> {
        self.send(Notification::new(
            "window/logMessage".into(),
            serde_json::json!({ "type": 1, "message": message }),
        ))
    }

    /// Applies a document notification to the texts waiting to be checked; a document closed,
    /// whose diagnostics must be taken away.
    fn update(&mut self, method: &str, value: serde_json::Value) -> Option<Uri> {
        match method {
            "textDocument/didOpen" => {
                let p: DidOpenTextDocumentParams = serde_json::from_value(value).ok()?;
                let item = p.text_document;
                self.documents.remove(&item.uri);
                let text = text::Text::new(item.text);
                self.pending.insert(item.uri, (text, item.version));
                None
            }
            "textDocument/didChange" => {
                let p: DidChangeTextDocumentParams = serde_json::from_value(value).ok()?;
                let uri = p.text_document.uri;
                let mut text = match self.pending.remove(&uri) {
                    Some((text, _)) => Some(text),
                    None => self.documents.get(&uri).map(|d| d.text.clone()),
                };
                for change in p.content_changes {
                    text = Some(match (change.range, text) {
                        (Some(range), Some(t)) => text::Text::new(t.edited(range, &change.text)),
                        // A whole new text (or a change to a document never opened, whose
                        // text the change must then be).
                        (_, _) => text::Text::new(change.text),
                    });
                }
                self.pending.insert(uri, (text?, p.text_document.version));
                None
            }
            "textDocument/didClose" => {
                let p: DidCloseTextDocumentParams = serde_json::from_value(value).ok()?;
                self.documents.remove(&p.text_document.uri);
                self.pending.remove(&p.text_document.uri);
                Some(p.text_document.uri)
            }
            _ => None,
        }
    }

    /// Checks the texts that changed and publishes their diagnostics.
    fn check_pending(&mut self) -> io::Result<()> {
        let pending: Vec<_> = self.pending.drain().collect();
        for (uri, (text, version)) in pending {
            let before = self.documents.remove(&uri);
            let name = file_name(uri.as_str());
            let text = text.as_str().to_string();
            match catch_unwind(AssertUnwindSafe(|| Document::new(&name, text, before))) {
                Ok(doc) => {
                    self.documents.insert(uri.clone(), doc);
                    self.publish(uri, Some(version))?;
                }
                Err(p) => self.log(&format!("checking `{name}` failed: {}", panic_text(&*p)))?,
            }
        }
        Ok(())
    }

    /// Sends the diagnostics of document `uri` (none once it is closed).
    fn publish(&mut self, uri: Uri, version: Option<i32>) -> io::Result<()> {
        let diagnostics = self
            .documents
            .get(&uri)
            .map(|doc| {
                doc.problems()
                    .iter()
                    .map(|p| diagnostic(doc, &uri, p))
                    .collect()
            })
            .unwrap_or_default();
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        };
        self.send(Notification::new(
            "textDocument/publishDiagnostics".into(),
            params,
        ))
    }
}

/// The file a `file:` URI names, so that a `from` clause finds its base beside it; other
/// URIs are names only.
fn file_name(uri: &str) -> String {
    let Some(path) = uri.strip_prefix("file://") else {
        return uri.to_string();
    };
    // Percent-escapes decoded byte by byte, then read as UTF-8, as URIs encode paths.
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Where a problem found in a base is shown in the file built on it: on the `from` clause that
/// names the base.
fn base_clause(text: &str) -> Span {
    crate::syntax::parse(text)
        .ok()
        .and_then(|f| {
            f.items.iter().find_map(|i| match i {
                crate::syntax::ast::Item::Variant(v) => v.base.as_ref().map(|b| b.span),
                _ => None,
            })
        })
        .unwrap_or_default()
}

/// A problem as the editor shows it: the checker's code, message and help (after the
/// message, where every editor shows it), and its other labels as related places.
fn diagnostic(doc: &Document, uri: &Uri, problem: &DefinitionError) -> Diagnostic {
    let mut span = fixes::primary_span(problem).unwrap_or_default();
    let mut message = problem.to_string();
    let sources = doc.report.diagnostics.as_ref().map(|d| d.sources());
    let in_base = |offset: usize| sources.is_some_and(|s| s.in_base(offset));
    if let Some(sources) = sources.filter(|_| in_base(span.start)) {
        let (name, text, local) = sources.locate(span.start);
        let line = text[..text.floor_char_boundary(local.min(text.len()))]
            .matches('\n')
            .count()
            + 1;
        message = format!("in the base `{name}`, line {line}: {message}");
        span = base_clause(doc.text.as_str());
    }
    if let Some(help) = problem.help() {
        message.push_str(&format!("\nhelp: {help}"));
    }
    let severity = match problem.severity() {
        Some(Severity::Warning) => DiagnosticSeverity::WARNING,
        Some(Severity::Advice) => DiagnosticSeverity::INFORMATION,
        Some(Severity::Error) | None => DiagnosticSeverity::ERROR,
    };
    let labels: Vec<miette::LabeledSpan> = problem.labels().into_iter().flatten().collect();
    // The label the range is (see `primary_span`) is the diagnostic itself; the others are
    // the places it relates to.
    let main = labels.iter().position(|l| l.primary()).unwrap_or(0);
    let related: Vec<DiagnosticRelatedInformation> = labels
        .iter()
        .enumerate()
        .filter(|&(i, l)| i != main && !in_base(l.offset()))
        .map(|(_, l)| DiagnosticRelatedInformation {
            location: Location::new(
                uri.clone(),
                doc.text.range(Span::new(l.offset(), l.offset() + l.len())),
            ),
            message: l.label().unwrap_or("related").to_string(),
        })
        .collect();
    Diagnostic {
        range: doc.text.range(span),
        severity: Some(severity),
        code: problem
            .code()
            .map(|c| NumberOrString::String(c.to_string())),
        source: Some("rulebook".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Diagnostic::default()
    }
}

/// The quick fixes for the problems in the range the client asks about.
fn code_actions(doc: &Document, p: &CodeActionParams) -> Vec<CodeActionOrCommand> {
    let wanted = p.context.only.as_ref().is_none_or(|only| {
        only.iter()
            .any(|k| CodeActionKind::QUICKFIX.as_str().starts_with(k.as_str()))
    });
    if !wanted {
        return Vec::new();
    }
    let asked = doc.text.span(p.range);
    let text = doc.text.as_str();
    doc.problems()
        .iter()
        .filter(|problem| {
            fixes::primary_span(problem)
                .is_some_and(|s| s.start <= asked.end && asked.start <= s.end)
        })
        .filter_map(|problem| {
            let fix = fixes::fix(problem, text)?;
            let edits = fix
                .edits
                .iter()
                .map(|(span, by)| TextEdit {
                    range: doc.text.range(*span),
                    new_text: by.clone(),
                })
                .collect();
            let uri = p.text_document.uri.clone();
            Some(CodeActionOrCommand::CodeAction(CodeAction {
                title: fix.title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic(doc, &uri, problem)]),
                edit: Some(WorkspaceEdit::new(HashMap::from([(uri, edits)]))),
                is_preferred: Some(true),
                ..CodeAction::default()
            }))
        })
        .collect()
}

#[cfg(test)]
mod tests;
