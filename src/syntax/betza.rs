//! Reading Betza's funny notation for piece moves (`fmWfcF`, `mRcpR`, `ffN`, `nN`, `R4`) into
//! atoms, so that authors can write movement the way chess-variant pages describe it.
//!
//! An atom is one letter (`W F D N A H C Z G K R B Q`), possibly written twice (`NN`, its rider)
//! and followed by a range (`R4`). Before it come modifiers: `m` (move only) or `c` (capture
//! only), `p` (hop over a screen), `n` (lame), and the directions `f b l r s v`. This module
//! only reads the letters; what they mean (which vectors, which legs) is the checker's
//! (`check::betza`).

use super::ast::{BetzaAtom, BetzaError};
use super::span::{Span, Spanned};

/// The atom letters this reader knows.
const ATOMS: &str = "WFDNAHCZGKRBQ";
/// The atoms that are one leap, and so have a rider written by doubling them.
const LEAPERS: &str = "WFDNAHCZG";

/// Reads `text`, which the definition holds at `at`, into atoms.
///
/// # Errors
/// The first letter that cannot be read: an unknown modifier or atom, modifiers without an
/// atom, both `m` and `c` on one atom, or an empty text.
pub(crate) fn read(text: &str, at: Span) -> Result<Vec<BetzaAtom>, BetzaError> {
    // The error's span is the offending character, clipped to the text.
    let error = |offset: usize, why: String| {
        let start = at.start + offset;
        BetzaError {
            why,
            at: Span::new(start, (start + 1).min(at.end.max(start))),
        }
    };
    if text.is_empty() {
        return Err(error(0, "the notation is empty".into()));
    }
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let abs = |i: usize| -> usize { at.start + chars.get(i).map_or(text.len(), |c| c.0) };
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        let mut atom = BetzaAtom {
            move_only: None,
            hop: None,
            just_beyond: false,
            lame: None,
            dirs: String::new(),
            letter: Spanned::new(' ', Span::new(0, 0)),
            doubled: false,
            range: None,
            span: Span::new(0, 0),
        };
        while let Some(&(offset, c)) = chars.get(i).filter(|(_, c)| c.is_ascii_lowercase()) {
            let here = Span::new(abs(i), abs(i + 1));
            match c {
                'f' | 'b' | 'l' | 'r' | 's' | 'v' => atom.dirs.push(c),
                'm' | 'c' => {
                    let move_only = c == 'm';
                    if atom.move_only.as_ref().is_some_and(|m| m.node != move_only) {
                        return Err(error(
                            offset,
                            "`m` and `c` on one atom leave it no move".into(),
                        ));
                    }
                    atom.move_only = Some(Spanned::new(move_only, here));
                }
                'p' => atom.hop = Some(here),
                'g' => {
                    atom.hop = Some(here);
                    atom.just_beyond = true;
                }
                'n' => atom.lame = Some(here),
                _ => {
                    return Err(error(
                        offset,
                        format!("`{c}` is not a Betza modifier this reader knows"),
                    ))
                }
            }
            i += 1;
        }
        let Some(&(offset, letter)) = chars.get(i) else {
            return Err(error(
                chars[start].0,
                "modifiers without an atom after them".into(),
            ));
        };
        if !ATOMS.contains(letter) {
            return Err(error(
                offset,
                format!("`{letter}` is not a Betza atom this reader knows"),
            ));
        }
        atom.letter = Spanned::new(letter, Span::new(abs(i), abs(i + 1)));
        i += 1;
        if LEAPERS.contains(letter) && chars.get(i).map(|c| c.1) == Some(letter) {
            atom.doubled = true;
            i += 1;
        }
        let digits = i;
        while chars.get(i).is_some_and(|c| c.1.is_ascii_digit()) {
            i += 1;
        }
        if i > digits {
            let written: String = chars[digits..i].iter().map(|c| c.1).collect();
            atom.range = Some(Spanned::new(written, Span::new(abs(digits), abs(i))));
        }
        atom.span = Span::new(abs(start), abs(i));
        out.push(atom);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_at(text: &str, at: usize) -> Result<Vec<BetzaAtom>, BetzaError> {
        read(text, Span::new(at, at + text.len()))
    }

    #[test]
    fn atoms_with_their_letters_and_spans() {
        let atoms = read_at("fmWcpR4NN", 10).unwrap();
        assert_eq!(atoms.len(), 3);
        assert_eq!(atoms[0].dirs, "f");
        assert_eq!(atoms[0].move_only.as_ref().map(|m| m.node), Some(true));
        assert_eq!(atoms[0].letter, Spanned::new('W', Span::new(12, 13)));
        assert_eq!(atoms[0].span, Span::new(10, 13));
        assert!(atoms[1].hop.is_some());
        assert_eq!(atoms[1].move_only.as_ref().map(|m| m.node), Some(false));
        assert_eq!(
            atoms[1].range,
            Some(Spanned::new("4".to_string(), Span::new(16, 17)))
        );
        assert!(atoms[2].doubled);
        assert_eq!(atoms[2].span, Span::new(17, 19));
        let lame = read_at("nN", 0).unwrap();
        assert!(lame[0].lame.is_some() && !lame[0].doubled);
    }

    #[test]
    fn letters_it_cannot_read_point_at_themselves() {
        let offset = |text: &str| read_at(text, 100).unwrap_err().at.start - 100;
        assert_eq!(offset("fX"), 1);
        assert_eq!(offset("mcW"), 1);
        assert_eq!(offset("fm"), 0);
        assert_eq!(offset("Wq"), 1);
        assert_eq!(read_at("", 7).unwrap_err().at, Span::new(7, 7));
        // Ranges are read as written; the checker decides whether they are in range.
        assert!(read_at("R99", 0).is_ok());
    }
}
