//! Piece letters: one ASCII letter, with a `+` before it or a `~` after it for a promoted
//! piece (`N`, `+P`, `Q~`).

use std::fmt;

/// What a letter carries besides its base letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// The letter alone (`N`).
    None,
    /// A `+` before it, Shogi's promoted side of a piece (`+P`), which moves say as `+`.
    Plus,
    /// A `~` after it, Fairy-Stockfish's mark of a promoted piece (`Q~`), which promotions
    /// name by the letter alone.
    Tilde,
}

/// The letter a piece kind is written with.
///
/// Only [`Letter::parse`] makes one, so every letter is one the grammar admits, and it is
/// kept uppercase: case belongs to the side a piece is written for, not to its kind, and
/// lookups by letter need not care which case they were given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Letter {
    /// The base letter, uppercase ASCII.
    base: u8,
    /// The `+` or `~` around it, if any.
    mark: Mark,
}

impl Letter {
    /// The letter `text` spells in either case, if it is one: an ASCII letter, alone, after
    /// a `+` or before a `~`.
    pub const fn parse(text: &str) -> Option<Letter> {
        let (base, mark) = match text.as_bytes() {
            [base] => (*base, Mark::None),
            [b'+', base] => (*base, Mark::Plus),
            [base, b'~'] => (*base, Mark::Tilde),
            _ => return None,
        };
        if base.is_ascii_alphabetic() {
            Some(Letter {
                base: base.to_ascii_uppercase(),
                mark,
            })
        } else {
            None
        }
    }

    /// The base letter, uppercase (`P` of `+P`): the one character a plain picture or a
    /// protocol that knows no marks can show.
    pub fn base(self) -> char {
        char::from(self.base)
    }

    /// What marks it.
    pub fn mark(self) -> Mark {
        self.mark
    }

    /// The base letter alone: the piece a marked one is the promoted form of (`P` of `+P`).
    pub fn unmarked(self) -> Letter {
        Letter {
            mark: Mark::None,
            ..self
        }
    }

    /// The letter a promotion to this piece is written with: a `~` piece is the piece it
    /// marks, promoted (`e7e8q` and `e8=Q` make a `Q~`), while `+P` is a piece of its own.
    pub fn without_tilde(self) -> Letter {
        match self.mark {
            Mark::Tilde => self.unmarked(),
            _ => self,
        }
    }

    /// Whether `text` spells this letter, in either case: records and commands write the
    /// second side's pieces in lowercase.
    pub fn matches(self, text: &str) -> bool {
        Letter::parse(text) == Some(self)
    }

    /// How many characters it is written with, for columns that must fit every letter.
    pub fn width(self) -> usize {
        match self.mark {
            Mark::None => 1,
            Mark::Plus | Mark::Tilde => 2,
        }
    }

    /// The letter as the second of two sides writes it (`n`, `+p`, `q~`); [`Display`]
    /// writes the first side's form, uppercase.
    ///
    /// [`Display`]: fmt::Display
    pub fn lowercase(self) -> Lowercase {
        Lowercase(self)
    }

    /// Writes the letter in one case, padded as `f` asks (`{:>3}` lines up a column of
    /// letters).
    fn write(self, f: &mut fmt::Formatter<'_>, lowercase: bool) -> fmt::Result {
        let base = if lowercase {
            self.base.to_ascii_lowercase()
        } else {
            self.base
        };
        let bytes = match self.mark {
            Mark::None => [base, 0],
            Mark::Plus => [b'+', base],
            Mark::Tilde => [base, b'~'],
        };
        let text = std::str::from_utf8(&bytes[..self.width()]).map_err(|_| fmt::Error)?;
        f.pad(text)
    }
}

impl fmt::Display for Letter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, false)
    }
}

/// A letter written in lowercase, from [`Letter::lowercase`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lowercase(Letter);

impl fmt::Display for Lowercase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write(f, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letter(text: &str) -> Letter {
        Letter::parse(text).unwrap_or_else(|| panic!("`{text}` is a letter"))
    }

    #[test]
    fn letters_are_read_in_either_case_and_kept_uppercase() {
        for (text, base, mark) in [
            ("N", 'N', Mark::None),
            ("n", 'N', Mark::None),
            ("+P", 'P', Mark::Plus),
            ("+p", 'P', Mark::Plus),
            ("Q~", 'Q', Mark::Tilde),
            ("q~", 'Q', Mark::Tilde),
        ] {
            let l = letter(text);
            assert_eq!((l.base(), l.mark()), (base, mark), "{text}");
        }
        assert_eq!(letter("n"), letter("N"));
        assert_ne!(letter("N"), letter("+N"));
        assert_ne!(letter("N"), letter("N~"));
    }

    #[test]
    fn anything_else_is_refused() {
        for text in [
            "", "PP", "+", "~", "~Q", "1", "+1", "1~", "+Q~", "++Q", "Q~~", "+ ", "é", "Nf3",
        ] {
            assert_eq!(Letter::parse(text), None, "{text:?}");
        }
    }

    #[test]
    fn written_uppercase_for_the_first_side_and_lowercase_for_the_second() {
        for (text, upper, lower) in [("n", "N", "n"), ("+p", "+P", "+p"), ("Q~", "Q~", "q~")] {
            let l = letter(text);
            assert_eq!(l.to_string(), upper);
            assert_eq!(l.lowercase().to_string(), lower);
            assert_eq!(l.width(), upper.len());
        }
        assert_eq!(
            format!("{:>3}|{:<3}|", letter("+B"), letter("k").lowercase()),
            " +B|k  |"
        );
    }

    #[test]
    fn matching_ignores_case_but_not_marks() {
        let l = letter("+P");
        assert!(l.matches("+P") && l.matches("+p"));
        assert!(!l.matches("P") && !l.matches("P~") && !l.matches("+P~") && !l.matches(""));
    }

    #[test]
    fn marks_come_off() {
        assert_eq!(letter("+P").unmarked(), letter("P"));
        assert_eq!(letter("Q~").unmarked(), letter("Q"));
        assert_eq!(letter("Q~").without_tilde(), letter("Q"));
        assert_eq!(letter("+P").without_tilde(), letter("+P"));
        assert_eq!(letter("N").without_tilde(), letter("N"));
    }
}
