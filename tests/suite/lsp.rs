//! `rulebook lsp` as an editor drives it: the binary is started and spoken to in framed
//! JSON-RPC on its standard input and output, and its answers are pinned with snapshots.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

macro_rules! snap {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

const URI: &str = "file:///defs/test.variant";

/// A running server and the messages it sent that were not yet read.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications received while waiting for responses, in order.
    notifications: Vec<Value>,
}

/// Reads frames from the server on a thread of its own, so that a server that hangs fails the
/// test after a while instead of hanging it.
fn frames(mut out: impl BufRead + Send + 'static) -> Receiver<Value> {
    let (send, receive) = channel();
    std::thread::spawn(move || loop {
        let mut length = None;
        loop {
            let mut line = String::new();
            if out.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = Some(n.parse::<usize>().expect("a length"));
            }
        }
        let mut body = vec![0; length.expect("Content-Length")];
        out.read_exact(&mut body).expect("the whole body");
        if send
            .send(serde_json::from_slice(&body).expect("JSON"))
            .is_err()
        {
            return;
        }
    });
    receive
}

fn frame(message: &Value) -> Vec<u8> {
    let body = message.to_string();
    let mut bytes = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    bytes.extend(body.as_bytes());
    bytes
}

impl Session {
    /// A server, initialized.
    fn start() -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rulebook"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut session = Session {
            stdin: child.stdin.take(),
            child,
            incoming: frames(stdout),
            next_id: 1,
            notifications: Vec::new(),
        };
        let init = session.request("initialize", json!({ "capabilities": {} }));
        assert!(init["result"]["capabilities"].is_object(), "{init}");
        session.notify("initialized", json!({}));
        session
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("open");
        stdin.write_all(bytes).expect("the server reads");
        stdin.flush().expect("the server reads");
    }

    fn notify(&mut self, method: &str, params: Value) {
        let message = json!({ "jsonrpc": "2.0", "method": method, "params": params });
        self.send_bytes(&frame(&message));
    }

    fn next(&mut self) -> Value {
        self.incoming
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers within a minute")
    }

    /// The response to the next message with this id, notifications before it kept.
    fn response(&mut self, id: &Value) -> Value {
        loop {
            let message = self.next();
            if message.get("id") == Some(id) && message.get("method").is_none() {
                return message;
            }
            self.notifications.push(message);
        }
    }

    /// Sends a request and returns the whole response (`result` or `error`).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = json!(self.next_id);
        self.next_id += 1;
        let message = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        self.send_bytes(&frame(&message));
        self.response(&id)
    }

    /// The code actions at one place of `uri`, of the kind `only` if given.
    fn code_actions(&mut self, uri: &str, (line, column): (u32, u32), only: Option<&str>) -> Value {
        let at = json!({ "line": line, "character": column });
        let mut context = json!({ "diagnostics": [] });
        if let Some(kind) = only {
            context["only"] = json!([kind]);
        }
        self.request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": uri },
                "range": { "start": at, "end": at },
                "context": context,
            }),
        )
    }

    /// The next `publishDiagnostics` for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Value {
        if let Some(i) = self.notifications.iter().position(|n| {
            n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri
        }) {
            return self.notifications.remove(i)["params"].clone();
        }
        loop {
            let message = self.next();
            if message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == uri
            {
                return message["params"].clone();
            }
            self.notifications.push(message);
        }
    }

    fn open(&mut self, uri: &str, text: &str) -> Value {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": {
                "uri": uri, "languageId": "rulebook", "version": 1, "text": text
            }}),
        );
        self.diagnostics(uri)
    }

    fn change(&mut self, uri: &str, version: i32, text: &str) -> Value {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri, "version": version },
                "contentChanges": [{ "text": text }],
            }),
        );
        self.diagnostics(uri)
    }

    /// A request about a position of `URI`.
    fn at(&mut self, method: &str, line: u32, character: u32) -> Value {
        self.request(
            method,
            json!({
                "textDocument": { "uri": URI },
                "position": { "line": line, "character": character },
                "context": { "includeDeclaration": true },
            }),
        )
    }

    /// Shuts the server down as an editor does; its exit code and standard error.
    fn finish(mut self) -> (i32, String) {
        let done = self.request("shutdown", Value::Null);
        assert_eq!(done["result"], Value::Null, "{done}");
        self.notify("exit", Value::Null);
        self.stdin = None;
        let status = self.child.wait().expect("the server ends");
        let mut err = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            e.read_to_string(&mut err).expect("stderr");
        }
        (status.code().unwrap_or(-1), err)
    }
}

/// The line and UTF-16 column of the `nth` occurrence of `needle` in `text`, plus `shift`
/// characters (ASCII texts only).
fn place(text: &str, needle: &str, nth: usize, shift: u32) -> (u32, u32) {
    let at = text.match_indices(needle).nth(nth).expect("in the text").0;
    let line = text[..at].matches('\n').count() as u32;
    let column = (at - text[..at].rfind('\n').map_or(0, |i| i + 1)) as u32;
    (line, column + shift)
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).expect("JSON")
}

const BROKEN: &str = "\
variant \"Test\"
board 3 x 3
sides white north, black south
zone camp = a1
zone spare = b2
zone camp = c3
piece King K royal
  move step any
piece Pawn P
  move in cmap: step forward
rules
  checkmate
setup
  k..
  ...
  KP.
";

#[test]
fn lsp_publishes_the_checkers_diagnostics_as_the_text_changes() {
    let mut s = Session::start();
    let first = s.open(URI, BROKEN);
    snap!("lsp_diagnostics_names", pretty(&first));
    // A syntax error after characters outside the BMP: columns count UTF-16 units.
    let second = s.change(URI, 2, "variant \"𝄞 Tiny\" known ass \"x\" in uci\n");
    let d = &second["diagnostics"][0];
    assert_eq!(second["version"], 2);
    assert_eq!(d["code"], "rulebook::syntax::unexpected", "{second}");
    assert_eq!(
        d["range"]["start"],
        json!({ "line": 0, "character": 24 }),
        "{second}"
    );
    assert_eq!(
        d["range"]["end"],
        json!({ "line": 0, "character": 27 }),
        "{second}"
    );
    // Warnings are published as warnings.
    let fixed = BROKEN
        .replace("zone camp = c3\n", "")
        .replace("cmap", "camp");
    let third = s.change(URI, 3, &fixed);
    let d = &third["diagnostics"][0];
    assert_eq!(d["code"], "rulebook::zone::unused", "{third}");
    assert_eq!(d["severity"], 2, "{third}");
    let clean_text = fixed.replace("zone spare = b2\n", "");
    let clean = s.change(URI, 4, &clean_text);
    assert_eq!(clean["diagnostics"], json!([]), "{clean}");
    // Changes of a range (incremental sync), several at once: applied in order.
    let (line, column) = place(&clean_text, "camp", 1, 0);
    s.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": URI, "version": 5 },
            "contentChanges": [
                { "range": { "start": { "line": line, "character": column },
                             "end": { "line": line, "character": column + 4 } },
                  "text": "campx" },
                { "range": { "start": { "line": line, "character": column },
                             "end": { "line": line, "character": column + 2 } },
                  "text": "" },
            ],
        }),
    );
    let incremental = s.diagnostics(URI);
    assert_eq!(incremental["version"], 5);
    let message = incremental["diagnostics"][0]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(
        message.starts_with("cannot find zone `mpx`"),
        "{incremental}"
    );
    s.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": URI } }),
    );
    assert_eq!(s.diagnostics(URI)["diagnostics"], json!([]));
    let (code, err) = s.finish();
    assert_eq!(code, 0, "{err}");
}

#[test]
fn lsp_hovers_explain_names_and_keywords() {
    let text = std::fs::read_to_string(format!(
        "{}/definitions/xiangqi.variant",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("xiangqi");
    let mut s = Session::start();
    s.open(URI, &text);
    let mut shown = String::new();
    for (what, needle, nth, shift) in [
        ("piece name in its declaration", "Horse", 0, 2),
        ("piece letter in the setup", "RNBAKABNR", 0, 1),
        ("zone in a clause", "own-half", 1, 3),
        ("side", "red", 1, 1),
        ("keyword `step`", "step", 0, 1),
        ("keyword `outside` in a guard", "outside", 0, 0),
        ("keyword `into` in a clause", "into palace", 0, 1),
    ] {
        let (line, column) = place(&text, needle, nth, shift);
        let hover = s.at("textDocument/hover", line, column);
        let value = hover["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_else(|| panic!("{what}: {hover}"));
        shown.push_str(&format!(
            "==== {what} ({line}:{column}, range {})\n{value}\n",
            hover["result"]["range"]
        ));
    }
    snap!("lsp_hover_xiangqi", shown);
    // A comment and a blank line have nothing to say.
    assert_eq!(s.at("textDocument/hover", 0, 3)["result"], Value::Null);
    assert_eq!(s.at("textDocument/hover", 9, 0)["result"], Value::Null);
    let (code, err) = s.finish();
    assert_eq!(code, 0, "{err}");
}

#[test]
fn lsp_hover_on_an_option_and_while_the_text_is_broken() {
    let text = "\
variant \"Test\"
board 3 x 3
sides white north, black south
option quick off \"kings leap\"
piece King K royal
  move step any
  move if quick: leap (2,0)
rules
  checkmate
setup
  k..
  ...
  K..
";
    let mut s = Session::start();
    s.open(URI, text);
    let (line, column) = place(text, "quick", 1, 1);
    let hover = s.at("textDocument/hover", line, column);
    let value = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(value.contains("**quick** — option"), "{hover}");
    assert!(value.contains("Off by default. kings leap"), "{hover}");
    // Halfway through an edit the piece is still described, from the last valid text.
    let broken = text.replace("rules\n", "rules\n  checkmate wins loses\n");
    let diagnostics = s.change(URI, 2, &broken);
    assert_ne!(diagnostics["diagnostics"], json!([]));
    let (line, column) = place(&broken, "King", 0, 1);
    let hover = s.at("textDocument/hover", line, column);
    let value = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(value.contains("Betza: `K`"), "{hover}");
    assert!(
        value.contains("As of the last version without errors"),
        "{hover}"
    );
    // A keyword of the broken declaration is still explained.
    let (line, column) = place(&broken, "checkmate", 0, 2);
    let hover = s.at("textDocument/hover", line, column);
    let value = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(value.contains("`checkmate [wins|loses|draws]"), "{hover}");
    let (code, err) = s.finish();
    assert_eq!(code, 0, "{err}");
}

#[test]
fn lsp_completes_keywords_and_the_definitions_names() {
    let mut s = Session::start();
    // The last piece is unfinished: its name still completes.
    let text = format!("{BROKEN}piece Wazir W value\n");
    s.open(URI, &text);
    let (line, column) = place(&text, "cmap", 0, 2);
    let answer = s.at("textDocument/completion", line, column);
    let items = answer["result"].as_array().expect("a list");
    let names: Vec<String> = items
        .iter()
        .filter(|i| i["kind"] != 14)
        .map(|i| {
            format!(
                "{} ({})",
                i["label"].as_str().unwrap(),
                i["detail"].as_str().unwrap()
            )
        })
        .collect();
    snap!("lsp_completion_names", names.join("\n"));
    let keywords: Vec<&str> = items
        .iter()
        .filter(|i| i["kind"] == 14)
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    for k in [
        "variant",
        "piece",
        "move",
        "forward-diagonal",
        "checkmate",
        "teams",
        "setup",
    ] {
        assert!(keywords.contains(&k), "{k} in {keywords:?}");
    }
    let step = items
        .iter()
        .find(|i| i["label"] == "step")
        .expect("step")
        .clone();
    let resolved = s.request("completionItem/resolve", step);
    let doc = resolved["result"]["documentation"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(doc.contains("`step DIRS`"), "{resolved}");
    // Inside a string nothing is offered.
    let inside = s.at("textDocument/completion", 0, 10);
    assert_eq!(inside["result"], json!([]), "{inside}");
    let (code, err) = s.finish();
    assert_eq!(code, 0, "{err}");
}

#[test]
fn lsp_goes_to_definitions_and_finds_references() {
    let text = BROKEN.replace("cmap", "camp");
    let mut s = Session::start();
    s.open(URI, &text);
    // `camp` in the pattern: its first declaration.
    let (line, column) = place(&text, "camp", 2, 1);
    let definition = s.at("textDocument/definition", line, column);
    assert_eq!(
        definition["result"],
        json!({ "uri": URI, "range": {
            "start": { "line": 3, "character": 5 }, "end": { "line": 3, "character": 9 }
        }}),
        "{definition}"
    );
    // `K` in the setup is the King.
    let (line, column) = place(&text, "KP.", 0, 0);
    let definition = s.at("textDocument/definition", line, column);
    assert_eq!(
        definition["result"]["range"]["start"],
        json!({ "line": 6, "character": 6 })
    );
    // The Pawn: its name, its letter and the setup's `P`.
    let (line, column) = place(&text, "Pawn", 0, 0);
    let references = s.at("textDocument/references", line, column);
    snap!("lsp_references_pawn", pretty(&references["result"]));
    let without = s.request(
        "textDocument/references",
        json!({
            "textDocument": { "uri": URI },
            "position": { "line": line, "character": column },
            "context": { "includeDeclaration": false },
        }),
    );
    assert_eq!(
        without["result"].as_array().map(Vec::len),
        Some(1),
        "{without}"
    );
    // A keyword names nothing.
    let nothing = s.at("textDocument/definition", 7, 3);
    assert_eq!(nothing["result"], Value::Null);
    let (code, err) = s.finish();
    assert_eq!(code, 0, "{err}");
}

#[test]
fn lsp_offers_quick_fixes_for_misspellings() {
    let mut s = Session::start();
    s.open(URI, BROKEN);
    let (line, column) = place(BROKEN, "cmap", 0, 0);
    let actions = s.code_actions(URI, (line, column), None);
    snap!("lsp_code_action_misspelt_zone", pretty(&actions["result"]));
    // Elsewhere, or for other kinds of action, none.
    let none = s.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": URI },
            "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 1 } },
            "context": { "diagnostics": [] },
        }),
    );
    assert_eq!(none["result"], json!([]), "{none}");
    let refactor = s.code_actions(URI, (line, column), Some("refactor"));
    assert_eq!(refactor["result"], json!([]), "{refactor}");
    let (code, err) = s.finish();
    assert_eq!(code, 0, "{err}");
}

#[test]
fn lsp_formats_a_document_that_parses_and_leaves_a_broken_one() {
    let mut s = Session::start();
    let messy = "variant   \"Tiny\"\nboard 3 x 3\nsides white north,black south\npiece King K royal\n      move step any\nrules\n  checkmate\nsetup\n  ..k\n  ...\n  K..\n";
    s.open(URI, messy);
    let options = json!({ "tabSize": 2, "insertSpaces": true });
    let answer = s.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": URI }, "options": options }),
    );
    let expected = rulebook::syntax::format::format(messy).unwrap();
    assert_ne!(expected, messy);
    assert_eq!(
        answer["result"][0]["newText"],
        expected.as_str(),
        "{answer}"
    );
    s.change(URI, 2, BROKEN);
    let answer = s.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": URI }, "options": options }),
    );
    assert!(
        answer["result"].is_null() || answer["result"] == json!([]),
        "{answer}"
    );
    let (code, err) = s.finish();
    assert_eq!(code, 0, "{err}");
}

#[test]
fn lsp_offers_the_second_edition_for_an_old_form_and_shows_a_base_s_problem_on_from() {
    let dir = std::env::temp_dir().join(format!("rulebook-lsp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chess = std::fs::canonicalize("definitions/chess.variant").unwrap();
    let base = dir.join("base.variant");
    std::fs::copy(&chess, &base).unwrap();
    let uri = format!("file://{}", dir.join("top.variant").display());
    let mut s = Session::start();
    // The base's pawn promotes to the queen this file leaves out; and an old form.
    let text = "variant \"Top\" from \"base.variant\"\nwithout piece Queen\npiece Knight N value 3\n  move leap (1,2)\n";
    let published = s.open(&uri, text);
    let diagnostics = published["diagnostics"].as_array().unwrap().clone();
    let in_base = diagnostics
        .iter()
        .find(|d| d["code"] == "rulebook::names::unknown_piece")
        .unwrap_or_else(|| panic!("{published}"));
    assert!(
        in_base["message"]
            .as_str()
            .unwrap()
            .starts_with(&format!("in the base `{}`, line ", base.display())),
        "{in_base}"
    );
    assert_eq!(
        in_base["range"]["start"],
        json!({ "line": 0, "character": 19 })
    );
    let (line, column) = (3, 7);
    let actions = s.code_actions(&uri, (line, column), None);
    let action = &actions["result"][0];
    assert_eq!(action["title"], "Write `step`", "{actions}");
    let edit = &action["edit"]["changes"][uri.as_str()][0];
    assert_eq!(edit["newText"], "step");
    assert_eq!(edit["range"]["start"], json!({ "line": 3, "character": 7 }));
    let (code, err) = s.finish();
    assert_eq!(code, 0, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn lsp_survives_garbage() {
    let mut s = Session::start();
    // Frames that are not messages: each gets an error, and the server reads on.
    s.send_bytes(b"Content-Length: 9\r\n\r\nnot json!");
    let error = s.next();
    assert_eq!(error["error"]["code"], -32700, "{error}");
    assert_eq!(error["id"], Value::Null);
    s.send_bytes(&frame(&json!({ "id": 77, "jsonrpc": "2.0" })));
    let error = s.next();
    assert_eq!(error["error"]["code"], -32600, "{error}");
    assert_eq!(error["id"], 77);
    // Unknown methods, unknown documents, bad parameters.
    let unknown = s.request("textDocument/unheardOf", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    let closed = s.at("textDocument/hover", 0, 0);
    assert_eq!(closed["error"]["code"], -32602, "{closed}");
    let bad = s.request("textDocument/hover", json!({ "position": "here" }));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    s.notify("textDocument/didChange", json!({ "nonsense": true }));
    s.notify("$/somethingElse", json!([1, 2]));
    // Documents no definition is like, and positions past their ends.
    let nested = format!("zone z = {}a1{}\n", "(".repeat(40), ")".repeat(40));
    let garbage = [
        "",
        "\u{0}\u{1}\u{7f}\r\r\n\t",
        "piece",
        "variant \"unclosed\npiece K K\n  move step",
        "piece 𝄞 K\n  move step any then then then\nzone = = =\nsetup\n  ???\n",
        &nested,
        "setup\n  kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\nrules\n  when 999999999999999999999 K wins\n",
        "board 99999999999999999999 x 0\nsides a north, a south, a east, a west, b north\n",
        &"x".repeat(5_000),
    ];
    for (version, text) in garbage.iter().enumerate() {
        s.change(URI, version as i32, text);
        let lines = text.lines().count() as u32 + 2;
        for line in 0..lines {
            for character in [0, 1, 2, 5, 9, 17, 400, u32::MAX] {
                for method in [
                    "textDocument/hover",
                    "textDocument/completion",
                    "textDocument/definition",
                    "textDocument/references",
                ] {
                    let answer = s.at(method, line, character);
                    assert!(
                        answer.get("error").is_none(),
                        "{method} {line}:{character} in {text:?}: {answer}"
                    );
                }
            }
        }
        let actions = s.request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": URI },
                "range": { "start": { "line": 0, "character": 0 }, "end": { "line": u32::MAX, "character": 0 } },
                "context": { "diagnostics": [] },
            }),
        );
        assert!(actions.get("error").is_none(), "{actions}");
    }
    // Requests after `shutdown` are refused, and `exit` then ends the server cleanly.
    let done = s.request("shutdown", Value::Null);
    assert_eq!(done["result"], Value::Null);
    let late = s.at("textDocument/hover", 0, 0);
    assert_eq!(late["error"]["code"], -32600, "{late}");
    s.notify("exit", Value::Null);
    s.stdin = None;
    let status = s.child.wait().expect("the server ends");
    let mut err = String::new();
    if let Some(mut e) = s.child.stderr.take() {
        e.read_to_string(&mut err).expect("stderr");
    }
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(status.code(), Some(0), "{err}");
}

#[test]
fn lsp_refuses_requests_before_initialize_and_exits_with_failure_without_shutdown() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut input = Vec::new();
    input.extend(frame(
        &json!({ "jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {} }),
    ));
    input.extend(frame(&json!({ "jsonrpc": "2.0", "method": "exit" })));
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(&input)
        .expect("the server reads");
    let out = child.wait_with_output().expect("the server ends");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(text.contains("\"code\":-32002"), "{text}");
    assert_eq!(out.status.code(), Some(1));
}
