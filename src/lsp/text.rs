//! A document's text and the conversions between its byte offsets, which every span of the
//! checker is, and LSP positions: a line and a column counted in UTF-16 code units.

use lsp_types::{Position, Range};

use crate::syntax::Span;

/// A document's text, with where each of its lines starts.
#[derive(Clone, Debug, Default)]
pub struct Text {
    text: String,
    /// The byte offset of each line's first character; the first is 0.
    starts: Vec<usize>,
}

impl Text {
    /// Indexes `text`.
    pub fn new(text: String) -> Text {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Text { text, starts }
    }

    /// The whole text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The position of byte `offset`; past the end, the end, and inside a character, the
    /// character's start.
    pub fn position(&self, offset: usize) -> Position {
        let offset = self.text.floor_char_boundary(offset.min(self.text.len()));
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let column = self.text[self.starts[line]..offset].encode_utf16().count();
        Position::new(to_u32(line), to_u32(column))
    }

    /// The byte offset of `position`. A client may send any numbers: a line past the last is
    /// the end of the text, a column past the end of its line the line's end, and a column
    /// inside a character (half of a surrogate pair) that character's start.
    pub fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return self.text.len();
        };
        let line = self.text[start..].split('\n').next().unwrap_or("");
        let line = line.strip_suffix('\r').unwrap_or(line);
        let mut units = 0usize;
        for (i, c) in line.char_indices() {
            units += c.len_utf16();
            if units > position.character as usize {
                return start + i;
            }
        }
        start + line.len()
    }

    /// The range of `span`.
    pub fn range(&self, span: Span) -> Range {
        Range::new(self.position(span.start), self.position(span.end))
    }

    /// The span of `range`, its ends in order.
    pub fn span(&self, range: Range) -> Span {
        let (a, b) = (self.offset(range.start), self.offset(range.end));
        Span::new(a.min(b), a.max(b))
    }

    /// The text with `replacement` in place of `range` (a client's incremental change).
    pub fn edited(&self, range: Range, replacement: &str) -> String {
        let span = self.span(range);
        let mut text = String::with_capacity(self.text.len() + replacement.len());
        text.push_str(&self.text[..span.start]);
        text.push_str(replacement);
        text.push_str(&self.text[span.end..]);
        text
    }

    /// The word (a name, keyword or letter, `+` and `~` marks included) that `offset` is in
    /// or just after.
    pub fn word_at(&self, offset: usize) -> Option<Span> {
        let offset = self.text.floor_char_boundary(offset.min(self.text.len()));
        let word = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+' | '~');
        let start = self.text[..offset]
            .char_indices()
            .rev()
            .take_while(|&(_, c)| word(c))
            .last()
            .map_or(offset, |(i, _)| i);
        let end = self.text[offset..]
            .char_indices()
            .find(|&(_, c)| !word(c))
            .map_or(self.text.len(), |(i, _)| offset + i);
        (start < end).then(|| Span::new(start, end))
    }
}

/// LSP numbers are 32 bits; a document longer than that is clamped, never a panic.
fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        // `é` is 2 bytes and 1 unit, `𝄞` 4 bytes and 2 units.
        let text = Text::new("ab\né𝄞x\r\nlast".to_string());
        assert_eq!(text.position(0), Position::new(0, 0));
        assert_eq!(text.position(3), Position::new(1, 0));
        assert_eq!(text.position(5), Position::new(1, 1));
        assert_eq!(text.position(9), Position::new(1, 3));
        assert_eq!(text.position(6), Position::new(1, 1), "inside `𝄞`");
        assert_eq!(text.position(1_000), Position::new(2, 4));
        assert_eq!(text.offset(Position::new(1, 3)), 9);
        assert_eq!(
            text.offset(Position::new(1, 2)),
            5,
            "inside the surrogate pair"
        );
        assert_eq!(text.offset(Position::new(1, 99)), 10, "before the CRLF");
        assert_eq!(text.offset(Position::new(7, 0)), text.as_str().len());
        assert_eq!(text.offset(Position::new(u32::MAX, u32::MAX)), 16);
    }

    #[test]
    fn incremental_edits_apply_at_their_range() {
        let text = Text::new("piece Knight N\n".to_string());
        let range = Range::new(Position::new(0, 6), Position::new(0, 12));
        assert_eq!(text.edited(range, "Horse"), "piece Horse N\n");
        let reversed = Range::new(Position::new(0, 12), Position::new(0, 6));
        assert_eq!(text.edited(reversed, "Horse"), "piece Horse N\n");
    }

    #[test]
    fn words_take_letters_with_their_marks() {
        let text = Text::new("promote to +P Q~ in camp".to_string());
        let word = |at| text.word_at(at).map(|s| &text.as_str()[s.start..s.end]);
        assert_eq!(word(12), Some("+P"));
        assert_eq!(word(16), Some("Q~"));
        assert_eq!(word(10), Some("to"));
        assert_eq!(word(0), Some("promote"));
    }
}
