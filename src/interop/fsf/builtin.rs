//! Fairy-Stockfish's built-in variants that a section may inherit from (`[name:template]`),
//! written as the INI keys that give their settings, read from its `src/variant.cpp`, so that
//! inheritance from a built-in works as inheritance from a section does.
//!
//! Each entry names the variant it is built on (`None`: Fairy-Stockfish's chess defaults).
//! Two settings have no key and are set apart: Xiangqi's king, which moves as a wazir (written
//! here as a king with its own moves, `k:W`), and Ataxx's drops from a supply that never runs
//! out.

use super::diagnostics::IniError;
use super::ini;
use super::keys;
use super::model::Config;

/// A built-in variant: name, the variant it is built on, and its keys.
#[derive(Debug)]
pub struct Builtin {
    /// Its name.
    pub name: &'static str,
    /// The variant it starts from; `None`: Fairy-Stockfish's defaults (chess).
    pub parent: Option<&'static str>,
    /// Its settings, as INI keys over the parent's.
    pub keys: &'static str,
}

/// The built-in variants templates may name.
pub const BUILTINS: &[Builtin] = &[
    Builtin { name: "chess", parent: None, keys: "" },
    Builtin { name: "normal", parent: None, keys: "" },
    Builtin {
        name: "nocastle",
        parent: Some("chess"),
        keys: "startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\ncastling = false",
    },
    Builtin { name: "fischerandom", parent: Some("chess"), keys: "chess960 = true" },
    Builtin {
        name: "torpedo",
        parent: None,
        keys: "doubleStepRegionWhite = *1 *2 *3 *4 *5 *6 *7 *8 *9 *10\ndoubleStepRegionBlack = *1 *2 *3 *4 *5 *6 *7 *8 *9 *10",
    },
    Builtin {
        name: "makruk",
        parent: None,
        keys: "bishop = -\nqueen = -\nsilver = s\nfers = m\n\
               startFen = rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1\n\
               promotionRegionWhite = *6 *7 *8\npromotionRegionBlack = *3 *2 *1\n\
               promotionPieceTypes = m\ndoubleStep = false\ncastling = false\nnMoveRule = 0\n\
               countingRule = makruk",
    },
    Builtin {
        name: "kingofthehill",
        parent: None,
        keys: "flagPiece = k\nflagRegion = d4 e4 d5 e5",
    },
    Builtin {
        name: "racingkings",
        parent: None,
        keys: "startFen = 8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1\nflagPiece = k\n\
               flagRegionWhite = *8\nflagRegionBlack = *8\nflagMove = true\ncastling = false\n\
               checking = false",
    },
    Builtin {
        name: "giveaway",
        parent: None,
        keys: "king = -\ncommoner = k\ncastlingKingPiece = k\npromotionPieceTypes = kqrbn\n\
               stalemateValue = win\nextinctionValue = win\nextinctionPieceTypes = *\n\
               mustCapture = true",
    },
    Builtin {
        name: "antichess",
        parent: Some("giveaway"),
        keys: "startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\ncastling = false",
    },
    Builtin {
        name: "extinction",
        parent: None,
        keys: "king = -\ncommoner = k\ncastlingKingPiece = k\npromotionPieceTypes = kqrbn\n\
               extinctionValue = loss\nextinctionPieceTypes = kqrbnp",
    },
    Builtin {
        name: "nocheckatomic",
        parent: None,
        keys: "king = -\ncommoner = k\ncastlingKingPiece = k\nextinctionValue = loss\n\
               extinctionPieceTypes = k\nblastOnCapture = true",
    },
    Builtin {
        name: "atomic",
        parent: Some("nocheckatomic"),
        keys: "extinctionPseudoRoyal = true",
    },
    Builtin {
        name: "3check",
        parent: None,
        keys: "startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1\n\
               checkCounting = true",
    },
    Builtin {
        name: "crazyhouse",
        parent: None,
        keys: "startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1\n\
               pieceDrops = true\ncapturesToHand = true",
    },
    Builtin {
        name: "pocketknight",
        parent: None,
        keys: "startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1\n\
               pieceDrops = true\ncapturesToHand = false",
    },
    Builtin {
        name: "placement",
        parent: None,
        keys: "startFen = 8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1\n\
               mustDrop = true\npieceDrops = true\ncapturesToHand = false\n\
               dropRegionWhite = *1\ndropRegionBlack = *8\ndropOppositeColoredBishop = true\n\
               castlingDroppedPiece = true",
    },
    Builtin {
        name: "minishogi",
        parent: None,
        keys: MINISHOGI_BASE_AND_VALUES,
    },
    Builtin {
        name: "gorogoro",
        parent: None,
        keys: GOROGORO,
    },
    Builtin { name: "shogi", parent: None, keys: SHOGI },
    Builtin {
        name: "losalamos",
        parent: None,
        keys: "maxRank = 6\nmaxFile = 6\nbishop = -\n\
               startFen = rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1\n\
               promotionRegionWhite = *6\npromotionRegionBlack = *1\npromotionPieceTypes = qrn\n\
               doubleStep = false\ncastling = false",
    },
    Builtin {
        name: "gardner",
        parent: None,
        keys: "maxRank = 5\nmaxFile = 5\nstartFen = rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1\n\
               promotionRegionWhite = *5\npromotionRegionBlack = *1\ndoubleStep = false\n\
               castling = false",
    },
    Builtin {
        name: "breakthrough",
        parent: None,
        keys: "pawn = -\nknight = -\nbishop = -\nrook = -\nqueen = -\nking = -\n\
               breakthrough = p\n\
               startFen = pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w 0 1\n\
               doubleStep = false\ncastling = false\nstalemateValue = loss\nflagPiece = p\n\
               flagRegionWhite = *8\nflagRegionBlack = *1",
    },
    Builtin {
        name: "ataxx",
        parent: None,
        keys: "maxRank = 7\nmaxFile = 7\npawn = -\nknight = -\nbishop = -\nrook = -\nqueen = -\n\
               king = -\ncustomPiece1 = p:mDmNmA\nstartFen = P5p/7/7/7/7/7/p5P w 0 1\n\
               pieceDrops = true\ndoubleStep = false\ncastling = false\nimmobilityIllegal = false\n\
               stalemateValue = loss\nstalematePieceCount = true\npassOnStalemate = true\n\
               enclosingDrop = ataxx\nflipEnclosedPieces = ataxx\nmaterialCounting = unweighted\n\
               adjudicateFullBoard = true\nnMoveRule = 0",
    },
    Builtin {
        name: "flipersi",
        parent: None,
        keys: "pawn = -\nknight = -\nbishop = -\nrook = -\nqueen = -\nking = -\nimmobile = p\n\
               startFen = 8/8/8/8/8/8/8/8[PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPpppppppppppppppppppppppppppppppp] w 0 1\n\
               pieceDrops = true\ndoubleStep = false\ncastling = false\nimmobilityIllegal = false\n\
               stalemateValue = loss\nstalematePieceCount = true\npassOnStalemate = false\n\
               enclosingDrop = reversi\nenclosingDropStart = d4 e4 d5 e5\n\
               flipEnclosedPieces = reversi\nmaterialCounting = unweighted\nadjudicateFullBoard = true",
    },
    Builtin {
        name: "flipello",
        parent: Some("flipersi"),
        keys: "startFen = 8/8/8/3pP3/3Pp3/8/8/8[PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPpppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp] w 0 1\n\
               passOnStalemate = true",
    },
    Builtin {
        name: "amazons",
        parent: None,
        keys: "maxRank = 10\nmaxFile = 10\npawn = -\nknight = -\nbishop = -\nrook = -\nqueen = -\n\
               king = -\ncustomPiece1 = q:mQ\n\
               startFen = 3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3 w - - 0 1\n\
               stalemateValue = loss\nwallingRule = arrow",
    },
    Builtin {
        name: "snailtrail",
        parent: None,
        keys: "maxRank = 7\nmaxFile = 7\npawn = -\nknight = -\nbishop = -\nrook = -\nqueen = -\n\
               king = -\ncustomPiece1 = p:mK\nstartFen = 6p/7/7/7/7/7/P6 w - - 0 1\n\
               stalemateValue = loss\nwallingRule = past",
    },
    Builtin {
        name: "capablanca",
        parent: None,
        keys: "maxRank = 8\nmaxFile = 10\ncastlingKingsideFile = i\ncastlingQueensideFile = c\n\
               archbishop = a\nchancellor = c\n\
               startFen = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1\n\
               promotionPieceTypes = acqrbn",
    },
    Builtin {
        name: "janus",
        parent: None,
        keys: "maxRank = 8\nmaxFile = 10\ncastlingKingsideFile = i\ncastlingQueensideFile = b\n\
               archbishop = j\n\
               startFen = rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq - 0 1\n\
               promotionPieceTypes = jqrbn",
    },
    Builtin {
        name: "grand",
        parent: None,
        keys: "maxRank = 10\nmaxFile = 10\narchbishop = a\nchancellor = c\n\
               startFen = r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1\n\
               promotionPieceTypes = acqrbn\npromotionRegionWhite = *8 *9 *10\n\
               promotionRegionBlack = *3 *2 *1\npromotionLimit = a:1 c:1 q:1 r:2 b:2 n:2\n\
               mandatoryPawnPromotion = false\nimmobilityIllegal = true\n\
               doubleStepRegionWhite = *3\ndoubleStepRegionBlack = *8\ncastling = false",
    },
    Builtin {
        name: "minixiangqi",
        parent: None,
        keys: "maxRank = 7\nmaxFile = 7\npawn = -\nknight = -\nbishop = -\nqueen = -\n\
               rook = r\nhorse = n\nking = k:W\ncannon = c\nsoldier = p\n\
               startFen = rcnkncr/p1ppp1p/7/7/7/P1PPP1P/RCNKNCR w - - 0 1\n\
               mobilityRegionWhiteKing = c1 d1 e1 c2 d2 e2 c3 d3 e3\n\
               mobilityRegionBlackKing = c5 d5 e5 c6 d6 e6 c7 d7 e7\n\
               doubleStep = false\ncastling = false\nstalemateValue = loss\n\
               perpetualCheckIllegal = true\nflyingGeneral = true",
    },
    Builtin {
        name: "xiangqi",
        parent: Some("minixiangqi"),
        keys: XIANGQI,
    },
    Builtin {
        name: "janggi",
        parent: Some("xiangqi"),
        keys: "chasingRule = none\nfers = -\ncannon = -\nelephant = -\nwazir = a\n\
               janggiCannon = c\njanggiElephant = b\n\
               startFen = rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1\n\
               mobilityRegionWhiteWazir = d1 e1 f1 d2 e2 f2 d3 e3 f3\n\
               mobilityRegionBlackWazir = d8 e8 f8 d9 e9 f9 d10 e10 f10\n\
               soldierPromotionRank = 1\nflyingGeneral = false\nbikjangRule = true\n\
               materialCounting = janggi\ndiagonalLines = d1 f1 e2 d3 f3 d8 f8 e9 d10 f10\n\
               pass = true\nnFoldValue = draw\nperpetualCheckIllegal = true",
    },
];

const MINISHOGI_BASE_AND_VALUES: &str = concat!(
    "pawn = -\nknight = -\nbishop = -\nrook = -\nqueen = -\nking = -\n",
    "maxRank = 5\nmaxFile = 5\nshogiPawn = p\nsilver = s\ngold = g\nbishop = b\ndragonHorse = h\n",
    "rook = r\nbers = d\nking = k\nstartFen = rbsgk/4p/5/P4/KGSBR[-] w 0 1\npieceDrops = true\n",
    "capturesToHand = true\npromotionRegionWhite = *5\npromotionRegionBlack = *1\n",
    "doubleStep = false\ncastling = false\npromotedPieceType = p:g s:g b:h r:d\n",
    "dropNoDoubled = p\nimmobilityIllegal = true\nshogiPawnDropMateIllegal = true\n",
    "stalemateValue = loss\nnFoldRule = 4\nnMoveRule = 0\nperpetualCheckIllegal = true\n",
    "nFoldValue = loss\nnFoldValueAbsolute = true\n"
);

const GOROGORO: &str = concat!(
    "pawn = -\nknight = -\nbishop = -\nrook = -\nqueen = -\nking = -\n",
    "maxRank = 6\nmaxFile = 5\nshogiPawn = p\nsilver = s\ngold = g\nbishop = b\ndragonHorse = h\n",
    "rook = r\nbers = d\nking = k\nstartFen = sgkgs/5/1ppp1/1PPP1/5/SGKGS[-] w 0 1\n",
    "pieceDrops = true\ncapturesToHand = true\npromotionRegionWhite = *5 *6\n",
    "promotionRegionBlack = *2 *1\ndoubleStep = false\ncastling = false\n",
    "promotedPieceType = p:g s:g b:h r:d\ndropNoDoubled = p\nimmobilityIllegal = true\n",
    "shogiPawnDropMateIllegal = true\nstalemateValue = loss\nnFoldRule = 4\nnMoveRule = 0\n",
    "perpetualCheckIllegal = true\n"
);

const SHOGI: &str = concat!(
    "pawn = -\nknight = -\nbishop = -\nrook = -\nqueen = -\nking = -\n",
    "maxRank = 9\nmaxFile = 9\nshogiPawn = p\nsilver = s\ngold = g\nbishop = b\ndragonHorse = h\n",
    "rook = r\nbers = d\nking = k\nlance = l\nshogiKnight = n\n",
    "startFen = lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1\n",
    "pieceDrops = true\ncapturesToHand = true\npromotionRegionWhite = *7 *8 *9\n",
    "promotionRegionBlack = *3 *2 *1\ndoubleStep = false\ncastling = false\n",
    "promotedPieceType = p:g s:g b:h r:d l:g n:g\ndropNoDoubled = p\nimmobilityIllegal = true\n",
    "shogiPawnDropMateIllegal = true\nstalemateValue = loss\nnFoldRule = 4\nnMoveRule = 0\n",
    "perpetualCheckIllegal = true\n"
);

const XIANGQI: &str = concat!(
    "maxRank = 10\nmaxFile = 9\nelephant = b\nfers = a\n",
    "startFen = rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n",
    "mobilityRegionWhiteKing = d1 e1 f1 d2 e2 f2 d3 e3 f3\n",
    "mobilityRegionBlackKing = d8 e8 f8 d9 e9 f9 d10 e10 f10\n",
    "mobilityRegionWhiteFers = d1 e1 f1 d2 e2 f2 d3 e3 f3\n",
    "mobilityRegionBlackFers = d8 e8 f8 d9 e9 f9 d10 e10 f10\n",
    "mobilityRegionWhiteElephant = *1 *2 *3 *4 *5\n",
    "mobilityRegionBlackElephant = *6 *7 *8 *9 *10\n",
    "soldierPromotionRank = 6\nchasingRule = axf\n"
);

/// Whether a built-in variant of this name exists (whether this reader knows it or not).
pub fn is_builtin_name(name: &str) -> bool {
    BUILTINS.iter().any(|b| b.name == name) || OTHER_BUILTINS.contains(&name)
}

/// Fairy-Stockfish's other built-in variants: a template naming one is refused, as its
/// settings are not written here.
pub const OTHER_BUILTINS: &[&str] = &[
    "armageddon",
    "berolina",
    "pawnsideways",
    "pawnback",
    "legan",
    "fairy",
    "makpong",
    "cambodian",
    "karouk",
    "asean",
    "ai-wok",
    "shatranj",
    "chaturanga",
    "amazon",
    "georgian",
    "nightrider",
    "grasshopper",
    "hoppelpoppel",
    "newzealand",
    "knightmate",
    "misere",
    "losers",
    "suicide",
    "codrus",
    "kinglet",
    "threekings",
    "horde",
    "petrified",
    "atomar",
    "isolation",
    "isolation7x7",
    "fox-and-hounds",
    "duck",
    "joust",
    "5check",
    "loop",
    "chessgi",
    "bughouse",
    "koedem",
    "sittuyin",
    "seirawan",
    "shouse",
    "dragon",
    "paradigm",
    "mini",
    "kyotoshogi",
    "micro",
    "dobutsu",
    "judkins",
    "torishogi",
    "euroshogi",
    "almost",
    "sortofalmost",
    "chigorin",
    "perfect",
    "spartan",
    "shatar",
    "coregal",
    "clobber",
    "checkshogi",
    "shoshogi",
    "yarishogi",
    "okisakishogi",
    "capahouse",
    "caparandom",
    "gothic",
    "modern",
    "chancellor",
    "embassy",
    "centaur",
    "gustav3",
    "jesonmor",
    "courier",
    "opulent",
    "tencubed",
    "omicron",
    "troitzky",
    "wolf",
    "shako",
    "clobber10",
    "flipello10",
    "manchu",
    "supply",
    "janggitraditional",
    "janggimodern",
    "janggicasual",
];

/// The settings of a built-in variant, or `None` for a name this reader has no settings for.
pub fn config(name: &str) -> Option<Config> {
    let b = BUILTINS.iter().find(|b| b.name == name)?;
    let mut cfg = match b.parent {
        Some(p) => config(p)?,
        None => Config::default(),
    };
    let text = format!("[{}]\n{}\n", b.name, b.keys.replace("\\\n", "\n"));
    let (file, problems) = ini::parse(&text);
    debug_assert!(problems.is_empty(), "built-in {name}: {problems:?}");
    let mut problems: Vec<IniError> = Vec::new();
    keys::apply(&mut cfg, &file.sections[0], &mut problems);
    debug_assert!(
        problems.iter().all(IniError::is_warning),
        "built-in {name}: {problems:?}"
    );
    if name == "ataxx" {
        cfg.free_drops = true;
    }
    Some(cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_reads_without_problems() {
        for b in BUILTINS {
            assert!(config(b.name).is_some(), "{}", b.name);
        }
    }

    #[test]
    fn shogi_has_its_pieces_and_drops() {
        let cfg = config("shogi").unwrap();
        assert_eq!(cfg.max_file, 9);
        assert!(cfg.piece_drops && cfg.captures_to_hand);
        assert_eq!(cfg.piece_with_letter('l'), Some(20));
        assert_eq!(cfg.piece_with_letter('q'), None);
    }
}
