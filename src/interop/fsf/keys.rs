//! The keys of a `variants.ini` section, read into a [`Config`] in the order Fairy-Stockfish
//! applies them (board size, pieces, aliases such as `pawnTypes`, then every rule key), each
//! value checked against its type, every problem reported with the key's or value's place.

use std::collections::HashMap;

use crate::syntax::Span;

use super::betza;
use super::diagnostics::IniError;
use super::ini::{Entry, Section};
use super::model::*;

/// The keys Fairy-Stockfish reads besides the piece keys and mobility regions.
pub const RULE_KEYS: &[&str] = &[
    "maxRank",
    "maxFile",
    "pieceValueMg",
    "pieceValueEg",
    "promotionRank",
    "doubleStepRank",
    "doubleStepRankMin",
    "whiteFlag",
    "blackFlag",
    "castlingRookPiece",
    "whiteDropRegion",
    "blackDropRegion",
    "dropOnTop",
    "pawnTypes",
    "variantTemplate",
    "pieceToCharTable",
    "pocketSize",
    "chess960",
    "twoBoards",
    "startFen",
    "promotionRegionWhite",
    "promotionRegionBlack",
    "promotionPawnTypes",
    "promotionPawnTypesWhite",
    "promotionPawnTypesBlack",
    "promotionPieceTypes",
    "promotionPieceTypesWhite",
    "promotionPieceTypesBlack",
    "sittuyinPromotion",
    "promotionLimit",
    "promotedPieceType",
    "piecePromotionOnCapture",
    "mandatoryPawnPromotion",
    "mandatoryPiecePromotion",
    "pieceDemotion",
    "blastOnCapture",
    "blastImmuneTypes",
    "mutuallyImmuneTypes",
    "petrifyOnCaptureTypes",
    "petrifyBlastPieces",
    "doubleStep",
    "doubleStepRegionWhite",
    "doubleStepRegionBlack",
    "tripleStepRegionWhite",
    "tripleStepRegionBlack",
    "enPassantRegion",
    "enPassantRegionWhite",
    "enPassantRegionBlack",
    "enPassantTypes",
    "enPassantTypesWhite",
    "enPassantTypesBlack",
    "castling",
    "castlingDroppedPiece",
    "castlingKingsideFile",
    "castlingQueensideFile",
    "castlingRank",
    "castlingKingFile",
    "castlingKingPiece",
    "castlingKingPieceWhite",
    "castlingKingPieceBlack",
    "castlingRookKingsideFile",
    "castlingRookQueensideFile",
    "castlingRookPieces",
    "castlingRookPiecesWhite",
    "castlingRookPiecesBlack",
    "oppositeCastling",
    "checking",
    "dropChecks",
    "mustCapture",
    "mustDrop",
    "mustDropType",
    "pieceDrops",
    "dropLoop",
    "capturesToHand",
    "firstRankPawnDrops",
    "promotionZonePawnDrops",
    "enclosingDrop",
    "enclosingDropStart",
    "dropRegionWhite",
    "dropRegionBlack",
    "sittuyinRookDrop",
    "dropOppositeColoredBishop",
    "dropPromoted",
    "dropNoDoubled",
    "dropNoDoubledCount",
    "immobilityIllegal",
    "gating",
    "wallingRule",
    "wallingRegionWhite",
    "wallingRegionBlack",
    "wallingRegion",
    "wallOrMove",
    "seirawanGating",
    "cambodianMoves",
    "diagonalLines",
    "pass",
    "passWhite",
    "passBlack",
    "passOnStalemate",
    "passOnStalemateWhite",
    "passOnStalemateBlack",
    "makpongRule",
    "flyingGeneral",
    "soldierPromotionRank",
    "flipEnclosedPieces",
    "nMoveRuleTypes",
    "nMoveRuleTypesWhite",
    "nMoveRuleTypesBlack",
    "nMoveRule",
    "nFoldRule",
    "nFoldValue",
    "nFoldValueAbsolute",
    "perpetualCheckIllegal",
    "moveRepetitionIllegal",
    "chasingRule",
    "stalemateValue",
    "stalematePieceCount",
    "checkmateValue",
    "shogiPawnDropMateIllegal",
    "shatarMateRule",
    "bikjangRule",
    "extinctionValue",
    "extinctionClaim",
    "extinctionPseudoRoyal",
    "dupleCheck",
    "extinctionPieceTypes",
    "extinctionPieceCount",
    "extinctionOpponentPieceCount",
    "flagPiece",
    "flagPieceWhite",
    "flagPieceBlack",
    "flagRegion",
    "flagRegionWhite",
    "flagRegionBlack",
    "flagPieceCount",
    "flagPieceBlockedWin",
    "flagMove",
    "flagPieceSafe",
    "checkCounting",
    "connectN",
    "connectPieceTypes",
    "connectHorizontal",
    "connectVertical",
    "connectDiagonal",
    "connectRegion1White",
    "connectRegion2White",
    "connectRegion1Black",
    "connectRegion2Black",
    "connectNxN",
    "collinearN",
    "connectValue",
    "materialCounting",
    "adjudicateFullBoard",
    "countingRule",
    "castlingWins",
];

/// Every key name Fairy-Stockfish knows, for did-you-mean help.
pub fn all_keys() -> Vec<String> {
    let mut keys: Vec<String> = RULE_KEYS.iter().map(|k| k.to_string()).collect();
    for pt in piece_key_types() {
        let name = piece_key(pt);
        for color in ["White", "Black"] {
            keys.push(format!("mobilityRegion{color}{}", capitalized(&name)));
        }
        keys.push(name);
    }
    keys
}

/// The piece types a key can define, in Fairy-Stockfish's order.
fn piece_key_types() -> impl Iterator<Item = PieceType> {
    (1..64u8).filter(|&pt| pt != CUSTOM_ROYAL && (pt <= 36 || pt >= CUSTOM_1))
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

/// Reads a section's keys over `cfg` (a copy of its template, or Fairy-Stockfish's defaults
/// with no pieces for a section without one). Problems are pushed to `problems`; the section
/// should be refused if any is an error.
pub fn apply(cfg: &mut Config, section: &Section, problems: &mut Vec<IniError>) {
    let mut keys: HashMap<&str, &Entry> = HashMap::new();
    for e in &section.entries {
        if let Some(old) = keys.insert(e.key.node.as_str(), e) {
            problems.push(IniError::RepeatedKey {
                key: e.key.node.clone(),
                again: e.key.span.into(),
                first: old.key.span.into(),
            });
        }
    }
    let mut r = Reader {
        keys,
        used: Vec::new(),
        problems,
    };
    r.read_all(cfg);
    let known = all_keys();
    for e in &section.entries {
        if !r.used.contains(&e.key.node.as_str()) && !known.contains(&e.key.node) {
            let help = crate::syntax::similar(&e.key.node, known.iter().map(String::as_str))
                .map_or_else(
                    || "Fairy-Stockfish's keys are listed at the top of its `variants.ini`".into(),
                    |s| format!("did you mean `{s}`?"),
                );
            r.problems.push(IniError::UnknownKey {
                key: e.key.node.clone(),
                at: e.key.span.into(),
                help,
            });
        }
    }
}

struct Reader<'a> {
    keys: HashMap<&'a str, &'a Entry>,
    used: Vec<&'a str>,
    problems: &'a mut Vec<IniError>,
}

/// Why a value was refused: what the key takes.
type Expected = &'static str;

impl<'a> Reader<'a> {
    fn entry(&mut self, key: &str) -> Option<&'a Entry> {
        let (&k, &e) = self.keys.get_key_value(key)?;
        self.used.push(k);
        Some(e)
    }

    fn bad(&mut self, e: &Entry, expected: &str, help: Option<String>) {
        self.problems.push(IniError::BadValue {
            key: e.key.node.clone(),
            value: e.value.node.clone(),
            at: e.value.span.into(),
            expected: expected.into(),
            help,
        });
    }

    /// Reads `key` with `parse` into `target`, reporting a bad value.
    fn typed<T>(
        &mut self,
        key: &str,
        target: &mut T,
        parse: fn(&str) -> Result<T, Expected>,
    ) -> bool {
        let Some(e) = self.entry(key) else {
            return false;
        };
        match parse(&e.value.node) {
            Ok(v) => {
                *target = v;
                true
            }
            Err(expected) => {
                self.bad(e, expected, None);
                false
            }
        }
    }

    fn bool(&mut self, key: &str, target: &mut bool) -> bool {
        self.typed(key, target, parse_bool)
    }

    fn int(&mut self, key: &str, target: &mut i64) -> bool {
        self.typed(key, target, parse_int)
    }

    fn bb(&mut self, key: &str, target: &mut Bb) -> bool {
        self.typed(key, target, parse_bitboard)
    }

    fn value(&mut self, key: &str, target: &mut Value) -> bool {
        self.typed(key, target, parse_value)
    }

    fn word(
        &mut self,
        key: &str,
        target: &mut String,
        words: &'static [&'static str],
        expected: Expected,
    ) {
        let Some(e) = self.entry(key) else {
            return;
        };
        if words.contains(&e.value.node.as_str()) {
            *target = e.value.node.clone();
        } else {
            self.bad(e, expected, Some(format!("one of {}", words.join(", "))));
        }
    }

    fn file(&mut self, key: &str, target: &mut usize) -> bool {
        self.typed(key, target, parse_file)
    }

    fn rank(&mut self, key: &str, target: &mut usize) -> bool {
        self.typed(key, target, parse_rank)
    }

    /// The piece letters of a value, each with its span; `*` as piece 0 (every piece). Stops
    /// at `-`, as Fairy-Stockfish does. An unknown letter is reported.
    fn letters(&mut self, cfg: &Config, e: &Entry) -> Option<Vec<PieceType>> {
        let mut out = Vec::new();
        for (i, c) in e.value.node.char_indices() {
            if c.is_whitespace() {
                continue;
            }
            if c == '-' {
                break;
            }
            if c == '*' {
                out.push(0);
                continue;
            }
            match cfg.piece_with_letter(c) {
                Some(pt) => out.push(pt),
                None => {
                    let start = e.value.span.start + i;
                    self.problems.push(IniError::UnknownPiece {
                        letter: c,
                        at: Span::new(start, start + c.len_utf8()).into(),
                        key: e.key.node.clone(),
                        help: format!("the pieces of this variant are {}", cfg.letters_list()),
                    });
                    return None;
                }
            }
        }
        Some(out)
    }

    /// A piece set for both sides (`KEY`), then for each side (`KEYWhite`, `KEYBlack`), which
    /// overrides it.
    fn piece_sets(&mut self, cfg: &Config, key: &str, target: &mut [PieceSet; 2]) {
        let mut both = 0;
        if self.piece_set(cfg, key, &mut both) {
            *target = [both, both];
        }
        for (c, colour) in ["White", "Black"].iter().enumerate() {
            self.piece_set(cfg, &format!("{key}{colour}"), &mut target[c]);
        }
    }

    fn piece_set(&mut self, cfg: &Config, key: &str, target: &mut PieceSet) -> bool {
        let Some(e) = self.entry(key) else {
            return false;
        };
        match self.letters(cfg, e) {
            Some(pts) => {
                *target = pts.iter().fold(0, |s, &pt| s | bit(pt));
                true
            }
            None => false,
        }
    }

    fn piece_type(&mut self, cfg: &Config, key: &str, target: &mut PieceType) -> bool {
        let Some(e) = self.entry(key) else {
            return false;
        };
        match self.letters(cfg, e) {
            Some(pts) => {
                *target = pts.last().copied().unwrap_or(0);
                true
            }
            None => false,
        }
    }

    /// `letter:number` pairs (`pieceValueMg`, `promotionLimit`).
    fn letter_numbers(&mut self, cfg: &Config, key: &str) -> Option<Vec<(PieceType, i64)>> {
        let e = self.entry(key)?;
        let mut out = Vec::new();
        for token in e.value.node.split_whitespace() {
            let ok = token.split_once(':').and_then(|(l, n)| {
                let mut cs = l.chars();
                let c = cs.next().filter(|_| cs.next().is_none())?;
                Some((c, n.parse::<i64>().ok()?))
            });
            let Some((c, n)) = ok else {
                self.bad(
                    e,
                    "letter:number pairs",
                    Some("for example `q:1 r:2`".into()),
                );
                return None;
            };
            match cfg.piece_with_letter(c) {
                Some(pt) => out.push((pt, n)),
                None => {
                    let offset = token.as_ptr() as usize - e.value.node.as_ptr() as usize;
                    let start = e.value.span.start + offset;
                    self.problems.push(IniError::UnknownPiece {
                        letter: c,
                        at: Span::new(start, start + 1).into(),
                        key: e.key.node.clone(),
                        help: format!("the pieces of this variant are {}", cfg.letters_list()),
                    });
                    return None;
                }
            }
        }
        Some(out)
    }

    fn read_all(&mut self, v: &mut Config) {
        let mut int = 0i64;
        let mut rank = 0usize;
        if self.typed("maxRank", &mut rank, parse_rank) {
            v.max_rank = rank + 1;
        }
        let mut file = 0usize;
        if self.typed("maxFile", &mut file, parse_file) {
            v.max_file = file + 1;
        }
        // Piece types, in Fairy-Stockfish's order.
        for pt in piece_key_types() {
            let name = piece_key(pt);
            if let Some(e) = self.entry(&name) {
                self.piece(v, pt, e);
            }
            for (c, color) in ["White", "Black"].iter().enumerate() {
                let key = format!("mobilityRegion{color}{}", capitalized(&name));
                let mut b = Bb::EMPTY;
                if self.bb(&key, &mut b) {
                    v.mobility_region[c][pt as usize] = Some(b);
                }
            }
        }
        for key in ["pieceValueMg", "pieceValueEg"] {
            if let Some(values) = self.letter_numbers(v, key) {
                if key == "pieceValueMg" {
                    v.piece_values = values;
                }
            }
        }
        // Keys Fairy-Stockfish still reads under their old names.
        if self.rank("promotionRank", &mut rank) {
            v.promotion_region = [zone(0, rank, v.max_rank), zone(1, rank, v.max_rank)];
        }
        let (mut ds_rank, mut ds_min) = (1usize, 1usize);
        let a = self.rank("doubleStepRank", &mut ds_rank);
        let b = self.rank("doubleStepRankMin", &mut ds_min);
        if a || b {
            for c in 0..2 {
                let low = zone(c, ds_min, v.max_rank);
                let high = zone(c, ds_rank + 1, v.max_rank);
                v.double_step_region[c] = low & !high;
            }
        }
        self.bb("whiteFlag", &mut v.flag_region[0]);
        self.bb("blackFlag", &mut v.flag_region[1]);
        let mut set = 0;
        if self.piece_set(v, "castlingRookPiece", &mut set) {
            v.castling_rook_pieces = [set, set];
        }
        self.bb("whiteDropRegion", &mut v.drop_region[0]);
        self.bb("blackDropRegion", &mut v.drop_region[1]);
        let mut on_top = false;
        if self.bool("dropOnTop", &mut on_top) && on_top {
            v.enclosing_drop = "top".into();
        }
        // Aliases.
        if let Some(e) = self.entry("pawnTypes") {
            if let Some(pts) = self.letters(v, e) {
                let set = pts.iter().fold(0, |s, &pt| s | bit(pt));
                let last = pts.last().copied().unwrap_or(0);
                v.main_promotion_pawn_type = [last, last];
                v.promotion_pawn_types = [set, set];
                v.en_passant_types = [set, set];
                v.n_move_rule_types = [set, set];
            }
        }
        self.typed("variantTemplate", &mut v.variant_template, |s| {
            Ok(s.to_string())
        });
        let mut text = String::new();
        self.typed("pieceToCharTable", &mut text, |s| Ok(s.to_string()));
        self.int("pocketSize", &mut int);
        self.bool("chess960", &mut v.chess960);
        self.bool("twoBoards", &mut v.two_boards);
        self.typed("startFen", &mut v.start_fen, |s| Ok(s.to_string()));
        self.bb("promotionRegionWhite", &mut v.promotion_region[0]);
        self.bb("promotionRegionBlack", &mut v.promotion_region[1]);
        for (key, sides) in [
            ("promotionPawnTypes", &[0usize, 1][..]),
            ("promotionPawnTypesWhite", &[0][..]),
            ("promotionPawnTypesBlack", &[1][..]),
        ] {
            if let Some(e) = self.entry(key) {
                if let Some(pts) = self.letters(v, e) {
                    for &c in sides {
                        v.main_promotion_pawn_type[c] = pts.last().copied().unwrap_or(0);
                        v.promotion_pawn_types[c] = pts.iter().fold(0, |s, &pt| s | bit(pt));
                    }
                }
            }
        }
        let mut sets = v.promotion_piece_types;
        self.piece_sets(v, "promotionPieceTypes", &mut sets);
        v.promotion_piece_types = sets;
        self.bool("sittuyinPromotion", &mut v.sittuyin_promotion);
        if let Some(limits) = self.letter_numbers(v, "promotionLimit") {
            for (pt, n) in limits {
                v.promotion_limit[pt as usize] = n.max(0) as u32;
            }
        }
        if let Some(e) = self.entry("promotedPieceType") {
            self.promoted_types(v, e);
        }
        self.bool("piecePromotionOnCapture", &mut v.piece_promotion_on_capture);
        self.bool("mandatoryPawnPromotion", &mut v.mandatory_pawn_promotion);
        self.bool("mandatoryPiecePromotion", &mut v.mandatory_piece_promotion);
        self.bool("pieceDemotion", &mut v.piece_demotion);
        self.bool("blastOnCapture", &mut v.blast_on_capture);
        let mut s = v.blast_immune_types;
        self.piece_set(v, "blastImmuneTypes", &mut s);
        v.blast_immune_types = s;
        let mut s = v.mutually_immune_types;
        self.piece_set(v, "mutuallyImmuneTypes", &mut s);
        v.mutually_immune_types = s;
        let mut s = v.petrify_on_capture_types;
        self.piece_set(v, "petrifyOnCaptureTypes", &mut s);
        v.petrify_on_capture_types = s;
        self.bool("petrifyBlastPieces", &mut v.petrify_blast_pieces);
        self.bool("doubleStep", &mut v.double_step);
        self.bb("doubleStepRegionWhite", &mut v.double_step_region[0]);
        self.bb("doubleStepRegionBlack", &mut v.double_step_region[1]);
        self.bb("tripleStepRegionWhite", &mut v.triple_step_region[0]);
        self.bb("tripleStepRegionBlack", &mut v.triple_step_region[1]);
        let mut b = Bb::EMPTY;
        if self.bb("enPassantRegion", &mut b) {
            v.en_passant_region = [b, b];
        }
        self.bb("enPassantRegionWhite", &mut v.en_passant_region[0]);
        self.bb("enPassantRegionBlack", &mut v.en_passant_region[1]);
        let mut sets = v.en_passant_types;
        self.piece_sets(v, "enPassantTypes", &mut sets);
        v.en_passant_types = sets;
        self.bool("castling", &mut v.castling);
        self.bool("castlingDroppedPiece", &mut v.castling_dropped_piece);
        self.file("castlingKingsideFile", &mut v.castling_kingside_file);
        self.file("castlingQueensideFile", &mut v.castling_queenside_file);
        self.rank("castlingRank", &mut v.castling_rank);
        self.file("castlingKingFile", &mut v.castling_king_file);
        let mut pt = 0;
        if self.piece_type(v, "castlingKingPiece", &mut pt) {
            v.castling_king_piece = [pt, pt];
        }
        for (c, key) in ["castlingKingPieceWhite", "castlingKingPieceBlack"]
            .iter()
            .enumerate()
        {
            let mut pt = v.castling_king_piece[c];
            self.piece_type(v, key, &mut pt);
            v.castling_king_piece[c] = pt;
        }
        self.file(
            "castlingRookKingsideFile",
            &mut v.castling_rook_kingside_file,
        );
        self.file(
            "castlingRookQueensideFile",
            &mut v.castling_rook_queenside_file,
        );
        let mut sets = v.castling_rook_pieces;
        self.piece_sets(v, "castlingRookPieces", &mut sets);
        v.castling_rook_pieces = sets;
        self.bool("oppositeCastling", &mut v.opposite_castling);
        self.bool("checking", &mut v.checking);
        self.bool("dropChecks", &mut v.drop_checks);
        self.bool("mustCapture", &mut v.must_capture);
        self.bool("mustDrop", &mut v.must_drop);
        let mut pt = v.must_drop_type;
        self.piece_type(v, "mustDropType", &mut pt);
        v.must_drop_type = pt;
        self.bool("pieceDrops", &mut v.piece_drops);
        self.bool("dropLoop", &mut v.drop_loop);
        self.bool("capturesToHand", &mut v.captures_to_hand);
        self.bool("firstRankPawnDrops", &mut v.first_rank_pawn_drops);
        self.bool("promotionZonePawnDrops", &mut v.promotion_zone_pawn_drops);
        const ENCLOSING: &[&str] = &[
            "reversi",
            "ataxx",
            "quadwrangle",
            "snort",
            "anyside",
            "top",
            "none",
        ];
        self.word(
            "enclosingDrop",
            &mut v.enclosing_drop,
            ENCLOSING,
            "an enclosing rule",
        );
        self.bb("enclosingDropStart", &mut v.enclosing_drop_start);
        self.bb("dropRegionWhite", &mut v.drop_region[0]);
        self.bb("dropRegionBlack", &mut v.drop_region[1]);
        self.bool("sittuyinRookDrop", &mut v.sittuyin_rook_drop);
        self.bool(
            "dropOppositeColoredBishop",
            &mut v.drop_opposite_colored_bishop,
        );
        self.bool("dropPromoted", &mut v.drop_promoted);
        let mut pt = v.drop_no_doubled;
        self.piece_type(v, "dropNoDoubled", &mut pt);
        v.drop_no_doubled = pt;
        self.int("dropNoDoubledCount", &mut v.drop_no_doubled_count);
        self.bool("immobilityIllegal", &mut v.immobility_illegal);
        self.bool("gating", &mut v.gating);
        const WALLING: &[&str] = &["arrow", "duck", "edge", "past", "static", "none"];
        self.word(
            "wallingRule",
            &mut v.walling_rule,
            WALLING,
            "a walling rule",
        );
        self.bb("wallingRegionWhite", &mut v.walling_region[0]);
        self.bb("wallingRegionBlack", &mut v.walling_region[1]);
        let mut b = Bb::EMPTY;
        if self.bb("wallingRegion", &mut b) {
            v.walling_region = [b, b];
        }
        self.bool("wallOrMove", &mut v.wall_or_move);
        self.bool("seirawanGating", &mut v.seirawan_gating);
        self.bool("cambodianMoves", &mut v.cambodian_moves);
        self.bb("diagonalLines", &mut v.diagonal_lines);
        let mut flag = false;
        if self.bool("pass", &mut flag) {
            v.pass = [flag, flag];
        }
        self.bool("passWhite", &mut v.pass[0]);
        self.bool("passBlack", &mut v.pass[1]);
        if self.bool("passOnStalemate", &mut flag) {
            v.pass_on_stalemate = [flag, flag];
        }
        self.bool("passOnStalemateWhite", &mut v.pass_on_stalemate[0]);
        self.bool("passOnStalemateBlack", &mut v.pass_on_stalemate[1]);
        self.bool("makpongRule", &mut v.makpong_rule);
        self.bool("flyingGeneral", &mut v.flying_general);
        self.rank("soldierPromotionRank", &mut v.soldier_promotion_rank);
        self.word(
            "flipEnclosedPieces",
            &mut v.flip_enclosed_pieces,
            ENCLOSING,
            "an enclosing rule",
        );
        let mut sets = v.n_move_rule_types;
        self.piece_sets(v, "nMoveRuleTypes", &mut sets);
        v.n_move_rule_types = sets;
        self.int("nMoveRule", &mut v.n_move_rule);
        self.int("nFoldRule", &mut v.n_fold_rule);
        self.value("nFoldValue", &mut v.n_fold_value);
        self.bool("nFoldValueAbsolute", &mut v.n_fold_value_absolute);
        self.bool("perpetualCheckIllegal", &mut v.perpetual_check_illegal);
        self.bool("moveRepetitionIllegal", &mut v.move_repetition_illegal);
        self.word(
            "chasingRule",
            &mut v.chasing_rule,
            &["axf", "none"],
            "a chasing rule",
        );
        self.value("stalemateValue", &mut v.stalemate_value);
        self.bool("stalematePieceCount", &mut v.stalemate_piece_count);
        self.value("checkmateValue", &mut v.checkmate_value);
        self.bool(
            "shogiPawnDropMateIllegal",
            &mut v.shogi_pawn_drop_mate_illegal,
        );
        self.bool("shatarMateRule", &mut v.shatar_mate_rule);
        self.bool("bikjangRule", &mut v.bikjang_rule);
        self.value("extinctionValue", &mut v.extinction_value);
        self.bool("extinctionClaim", &mut v.extinction_claim);
        self.bool("extinctionPseudoRoyal", &mut v.extinction_pseudo_royal);
        self.bool("dupleCheck", &mut v.duple_check);
        let mut s = v.extinction_piece_types;
        self.piece_set(v, "extinctionPieceTypes", &mut s);
        v.extinction_piece_types = s;
        self.int("extinctionPieceCount", &mut v.extinction_piece_count);
        self.int(
            "extinctionOpponentPieceCount",
            &mut v.extinction_opponent_piece_count,
        );
        let mut pt = 0;
        if self.piece_type(v, "flagPiece", &mut pt) {
            v.flag_piece = [pt, pt];
        }
        for (c, key) in ["flagPieceWhite", "flagPieceBlack"].iter().enumerate() {
            let mut pt = v.flag_piece[c];
            self.piece_type(v, key, &mut pt);
            v.flag_piece[c] = pt;
        }
        let mut b = Bb::EMPTY;
        if self.bb("flagRegion", &mut b) {
            v.flag_region = [b, b];
        }
        self.bb("flagRegionWhite", &mut v.flag_region[0]);
        self.bb("flagRegionBlack", &mut v.flag_region[1]);
        self.int("flagPieceCount", &mut v.flag_piece_count);
        self.bool("flagPieceBlockedWin", &mut v.flag_piece_blocked_win);
        self.bool("flagMove", &mut v.flag_move);
        self.bool("flagPieceSafe", &mut v.flag_piece_safe);
        self.bool("checkCounting", &mut v.check_counting);
        self.int("connectN", &mut v.connect_n);
        let mut s = v.connect_piece_types;
        self.piece_set(v, "connectPieceTypes", &mut s);
        v.connect_piece_types = s;
        self.bool("connectHorizontal", &mut v.connect_horizontal);
        self.bool("connectVertical", &mut v.connect_vertical);
        self.bool("connectDiagonal", &mut v.connect_diagonal);
        self.bb("connectRegion1White", &mut v.connect_region1[0]);
        self.bb("connectRegion2White", &mut v.connect_region2[0]);
        self.bb("connectRegion1Black", &mut v.connect_region1[1]);
        self.bb("connectRegion2Black", &mut v.connect_region2[1]);
        self.int("connectNxN", &mut v.connect_nxn);
        self.int("collinearN", &mut v.collinear_n);
        self.value("connectValue", &mut v.connect_value);
        self.word(
            "materialCounting",
            &mut v.material_counting,
            &[
                "janggi",
                "unweighted",
                "whitedrawodds",
                "blackdrawodds",
                "none",
            ],
            "a material counting rule",
        );
        self.adjudicate(v);
        self.word(
            "countingRule",
            &mut v.counting_rule,
            &["makruk", "asean", "none"],
            "a counting rule",
        );
        if let Some(e) = self.entry("castlingWins") {
            if e.value.node.chars().all(|c| "KQkq- ".contains(c)) {
                v.castling_wins = e.value.node.replace(['-', ' '], "");
            } else {
                self.bad(
                    e,
                    "castling rights",
                    Some("letters among `KQkq`, or `-`".into()),
                );
            }
        }
    }

    fn adjudicate(&mut self, v: &mut Config) {
        self.bool("adjudicateFullBoard", &mut v.adjudicate_full_board);
    }

    /// A piece key: `x` (the letter), `x:BETZA` (a custom piece or king with its moves) or
    /// `-` (no such piece).
    fn piece(&mut self, v: &mut Config, pt: PieceType, e: &Entry) {
        let value = &e.value.node;
        let Some(first) = value.chars().next() else {
            return;
        };
        if !first.is_ascii_alphabetic() {
            if first != '-' {
                self.bad(e, "a letter, `letter:betza` or `-`", None);
                return;
            }
            v.remove_piece(pt);
            if pt == KING {
                v.custom_king = false;
            }
            return;
        }
        let custom = (CUSTOM_1..KING).contains(&pt);
        let rest = &value[1..];
        if !rest.is_empty() && !rest.starts_with(':') {
            self.bad(
                e,
                "a letter, `letter:betza` or `-`",
                Some("write the letter, a colon, then the moves in Betza: `a:mQcN`".into()),
            );
            return;
        }
        let betza_text = rest.strip_prefix(':').unwrap_or("");
        if (custom || pt == KING) && !rest.is_empty() {
            let at = e.value.span.start + 2;
            if let Err((offset, why, help)) = betza::check(betza_text) {
                let start = at + offset;
                let end = (start + 1).min(e.value.span.end.max(start));
                self.problems.push(IniError::BadBetza {
                    why,
                    at: Span::new(start, end).into(),
                    help,
                });
                return;
            }
        } else if custom {
            self.bad(
                e,
                "a letter and the moves in Betza",
                Some("a custom piece needs its moves: `a:mQcN`".into()),
            );
            return;
        } else if !rest.is_empty() {
            self.bad(
                e,
                "a letter or `-`",
                Some(format!(
                    "`{}` moves as Fairy-Stockfish defines it; for other moves use a `customPiece`",
                    e.key.node
                )),
            );
            return;
        }
        v.add_piece(pt, first);
        if custom {
            v.custom_betza[(pt - CUSTOM_1) as usize] = betza_text.to_string();
            if betza_text.contains('e') {
                for c in 0..2 {
                    v.en_passant_types[c] |= bit(pt);
                }
            }
        } else if pt == KING {
            if rest.is_empty() {
                v.custom_king = false;
            } else {
                v.custom_betza[(CUSTOM_ROYAL - CUSTOM_1) as usize] = betza_text.to_string();
                v.custom_king = true;
            }
        }
    }

    /// `promotedPieceType = p:g s:g`: what each piece promotes to, Shogi style.
    fn promoted_types(&mut self, v: &mut Config, e: &Entry) {
        for token in e.value.node.split_whitespace() {
            let offset = token.as_ptr() as usize - e.value.node.as_ptr() as usize;
            let Some((a, b)) = token.split_once(':') else {
                self.bad(
                    e,
                    "letter:letter pairs",
                    Some("for example `p:g s:g`".into()),
                );
                return;
            };
            let one = |s: &str| {
                let mut cs = s.chars();
                cs.next().filter(|_| cs.next().is_none())
            };
            let (Some(a), Some(b)) = (one(a), one(b)) else {
                self.bad(
                    e,
                    "letter:letter pairs",
                    Some("for example `p:g s:g`".into()),
                );
                return;
            };
            let mut find = |c: char, off: usize| -> Option<PieceType> {
                if c == '-' {
                    return Some(0);
                }
                let found = v.piece_with_letter(c);
                if found.is_none() {
                    let start = e.value.span.start + offset + off;
                    self.problems.push(IniError::UnknownPiece {
                        letter: c,
                        at: Span::new(start, start + 1).into(),
                        key: e.key.node.clone(),
                        help: format!("the pieces of this variant are {}", v.letters_list()),
                    });
                }
                found
            };
            let Some(from) = find(a, 0) else { return };
            let Some(to) = find(b, 2) else { return };
            v.promoted_piece_type[from as usize] = to;
        }
    }
}

/// The ranks from `rank` (from 0, relative to side `c`) to the far end, for side `c`.
fn zone(c: usize, rank: usize, max_rank: usize) -> Bb {
    (0..max_rank)
        .filter(|&r| {
            let relative = if c == 0 { r } else { max_rank - 1 - r };
            relative >= rank
        })
        .fold(Bb::EMPTY, |b, r| b | Bb::rank(r))
}

fn parse_bool(s: &str) -> Result<bool, Expected> {
    match s {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err("`true` or `false`"),
    }
}

fn parse_int(s: &str) -> Result<i64, Expected> {
    s.parse().map_err(|_| "a whole number")
}

fn parse_rank(s: &str) -> Result<usize, Expected> {
    match s.parse::<usize>() {
        Ok(n) if (1..=RANK_NB).contains(&n) => Ok(n - 1),
        _ => Err("a rank from 1 to 10"),
    }
}

fn parse_file(s: &str) -> Result<usize, Expected> {
    const E: Expected = "a file, `a` to `l` or 1 to 12";
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        return match s.parse::<usize>() {
            Ok(n) if (1..=FILE_NB).contains(&n) => Ok(n - 1),
            _ => Err(E),
        };
    }
    let mut cs = s.chars();
    match (cs.next(), cs.next()) {
        (Some(c @ 'a'..='l'), None) => Ok(c as usize - 'a' as usize),
        _ => Err(E),
    }
}

fn parse_value(s: &str) -> Result<Value, Expected> {
    match s {
        "win" => Ok(Value::Win),
        "loss" => Ok(Value::Loss),
        "draw" => Ok(Value::Draw),
        "none" => Ok(Value::None),
        _ => Err("`win`, `loss`, `draw` or `none`"),
    }
}

/// Squares as Fairy-Stockfish writes them: `e4`, `*1` (a rank), `a*` (a file), `-` (none).
pub fn parse_bitboard(s: &str) -> Result<Bb, Expected> {
    const E: Expected = "squares (`e4`, `*1` for a rank, `a*` for a file)";
    let mut out = Bb::EMPTY;
    for token in s.split_whitespace() {
        if token == "-" {
            break;
        }
        let bytes = token.as_bytes();
        if let Some(rank) = token.strip_prefix('*') {
            match rank.parse::<usize>() {
                Ok(r) if (1..=RANK_NB).contains(&r) => out = out | Bb::rank(r - 1),
                _ => return Err(E),
            }
        } else if token.len() == 2 && bytes[1] == b'*' && bytes[0].is_ascii_alphabetic() {
            let f = (bytes[0].to_ascii_lowercase() - b'a') as usize;
            if f >= FILE_NB {
                return Err(E);
            }
            out = out | Bb::file(f);
        } else if token.len() > 1 && bytes[0].is_ascii_alphabetic() {
            let f = (bytes[0].to_ascii_lowercase() - b'a') as usize;
            match token[1..].parse::<usize>() {
                Ok(r) if (1..=RANK_NB).contains(&r) && f < FILE_NB => {
                    out = out | Bb::square(f, r - 1)
                }
                _ => return Err(E),
            }
        } else {
            return Err(E);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitboards_read_squares_ranks_and_files() {
        assert_eq!(parse_bitboard("*1").unwrap(), Bb::rank(0));
        assert_eq!(parse_bitboard("a*").unwrap(), Bb::file(0));
        assert_eq!(
            parse_bitboard("d4 e4 -").unwrap(),
            Bb::square(3, 3) | Bb::square(4, 3)
        );
        assert!(parse_bitboard("z9").is_err());
        assert!(parse_bitboard("4").is_err());
    }

    #[test]
    fn files_and_ranks() {
        assert_eq!(parse_file("d"), Ok(3));
        assert_eq!(parse_file("10"), Ok(9));
        assert!(parse_file("m").is_err());
        assert_eq!(parse_rank("10"), Ok(9));
        assert!(parse_rank("0").is_err());
    }
}
