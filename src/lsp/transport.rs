//! Messages framed as the Language Server Protocol frames them: headers (`Content-Length`),
//! a blank line, then that many bytes of JSON.
//!
//! This reads the frames itself rather than through `lsp_server`'s reader, which stops the
//! server at the first malformed message: here a message that is not JSON, not JSON-RPC or
//! too long is answered with an error and the server reads on.

use std::io::{self, BufRead, Read, Write};

use lsp_server::{ErrorCode, Message};

/// The longest message read: far beyond any definition, and a bound on what a client can
/// make the server allocate.
pub const MAX_MESSAGE: usize = 64 << 20;

/// The longest header line read.
const MAX_HEADER: u64 = 4096;

/// What the client sent next.
#[derive(Debug)]
pub enum Incoming {
    /// A message.
    Message(Message),
    /// Something that is not one: the error to answer with, and the request id to answer to
    /// where one could be read.
    Malformed {
        /// The JSON-RPC error code.
        code: ErrorCode,
        /// Why.
        message: String,
        /// The id of the request, if the text had one.
        id: Option<serde_json::Value>,
    },
    /// The end of the input.
    End,
}

/// Reads the next frame.
///
/// # Errors
/// When the input cannot be read.
pub fn read(input: &mut impl BufRead) -> io::Result<Incoming> {
    let mut length: Option<Result<usize, String>> = None;
    let mut any = false;
    loop {
        let mut line = Vec::new();
        input
            .by_ref()
            .take(MAX_HEADER)
            .read_until(b'\n', &mut line)?;
        if line.is_empty() {
            return Ok(Incoming::End);
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if any {
                break;
            }
            // Blank lines between frames are tolerated.
            continue;
        }
        any = true;
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                let value = value.trim();
                length = Some(
                    value
                        .parse::<usize>()
                        .map_err(|_| format!("bad Content-Length `{value}`")),
                );
            }
        }
    }
    let length = match length {
        Some(Ok(n)) => n,
        Some(Err(message)) => return Ok(malformed(ErrorCode::ParseError, message, None)),
        None => {
            return Ok(malformed(
                ErrorCode::ParseError,
                "a message without Content-Length".into(),
                None,
            ))
        }
    };
    if length > MAX_MESSAGE {
        io::copy(&mut input.by_ref().take(length as u64), &mut io::sink())?;
        return Ok(malformed(
            ErrorCode::InvalidRequest,
            format!("a message of {length} bytes; at most {MAX_MESSAGE} are read"),
            None,
        ));
    }
    let mut body = vec![0; length];
    if let Err(e) = input.read_exact(&mut body) {
        return match e.kind() {
            io::ErrorKind::UnexpectedEof => Ok(Incoming::End),
            _ => Err(e),
        };
    }
    let value: serde_json::Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => {
            return Ok(malformed(
                ErrorCode::ParseError,
                format!("not JSON: {e}"),
                None,
            ))
        }
    };
    let id = value.get("id").cloned();
    match serde_json::from_value::<Message>(value) {
        Ok(message) => Ok(Incoming::Message(message)),
        Err(e) => Ok(malformed(
            ErrorCode::InvalidRequest,
            format!("not a JSON-RPC message: {e}"),
            id,
        )),
    }
}

fn malformed(code: ErrorCode, message: String, id: Option<serde_json::Value>) -> Incoming {
    Incoming::Malformed { code, message, id }
}

/// Writes `message` and flushes it.
///
/// # Errors
/// When the output cannot be written.
pub fn write(output: &mut impl Write, message: Message) -> io::Result<()> {
    message.write(output)?;
    output.flush()
}

/// Writes an error response to a message that could not be read, to its id if it had one
/// (`null` otherwise, as JSON-RPC answers a request it cannot identify).
///
/// # Errors
/// When the output cannot be written.
pub fn write_error(
    output: &mut impl Write,
    id: Option<serde_json::Value>,
    code: ErrorCode,
    message: &str,
) -> io::Result<()> {
    let text = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id.unwrap_or(serde_json::Value::Null),
        "error": { "code": code as i32, "message": message },
    })
    .to_string();
    write!(output, "Content-Length: {}\r\n\r\n{text}", text.len())?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &str) -> Vec<String> {
        let mut input = io::Cursor::new(input.as_bytes().to_vec());
        let mut out = Vec::new();
        loop {
            match read(&mut input).unwrap() {
                Incoming::End => return out,
                Incoming::Message(m) => {
                    out.push(format!("message {}", serde_json::to_string(&m).unwrap()))
                }
                Incoming::Malformed { code, id, .. } => out.push(format!("{code:?} {id:?}")),
            }
        }
    }

    #[test]
    fn malformed_frames_are_reported_and_reading_goes_on() {
        let frame = |body: &str| format!("Content-Length: {}\r\n\r\n{body}", body.len());
        let good = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let input = format!(
            "{}{}content-length: {}\n\n{good}Content-Length: 99999999999\r\n\r\nshort",
            frame("hello"),
            frame("{\"id\": 3}\n"),
            good.len()
        );
        assert_eq!(
            frames(&input),
            [
                "ParseError None".to_string(),
                "InvalidRequest Some(Number(3))".to_string(),
                r#"message {"method":"initialized","params":{}}"#.to_string(),
                "InvalidRequest None".to_string(),
            ]
        );
    }
}
