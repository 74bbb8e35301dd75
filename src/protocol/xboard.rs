//! XBoard/CECP.

use std::io::BufRead;

use super::Out;
use crate::model::Variant;

/// Answers CECP commands from `input` until `quit` or its end.
pub fn run(
    _variant: Variant,
    _options: Vec<(String, bool)>,
    _input: impl BufRead,
    _out: Out,
) -> Result<(), String> {
    Err("not yet".into())
}
