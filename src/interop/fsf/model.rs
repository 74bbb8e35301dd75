//! Fairy-Stockfish's view of a variant: the settings its `variants.ini` keys set, with the
//! defaults of its `Variant` and its piece types, so that a section can be resolved exactly
//! as Fairy-Stockfish resolves it (inheritance, the order keys are applied in, letters that
//! replace pieces) before it is written as a Rulebook definition.

/// Files of Fairy-Stockfish's largest boards (a to l).
pub const FILE_NB: usize = 12;
/// Ranks of Fairy-Stockfish's largest boards (1 to 10).
pub const RANK_NB: usize = 10;

/// A set of squares, as Fairy-Stockfish's bitboards: bit `rank * 12 + file`, on its largest
/// board whatever the variant's size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bb(pub u128);

impl Bb {
    /// Every square of the largest board.
    pub const ALL: Bb = Bb((1u128 << (FILE_NB * RANK_NB)) - 1);
    /// No square.
    pub const EMPTY: Bb = Bb(0);

    /// The square at `file`, `rank` (from 0).
    pub fn square(file: usize, rank: usize) -> Bb {
        Bb(1u128 << (rank * FILE_NB + file))
    }

    /// A whole rank (from 0).
    pub fn rank(rank: usize) -> Bb {
        Bb(((1u128 << FILE_NB) - 1) << (rank * FILE_NB))
    }

    /// A whole file (from 0).
    pub fn file(file: usize) -> Bb {
        (0..RANK_NB).fold(Bb::EMPTY, |b, r| b | Bb::square(file, r))
    }

    /// Whether the square is in the set.
    pub fn has(self, file: usize, rank: usize) -> bool {
        file < FILE_NB && rank < RANK_NB && self.0 >> (rank * FILE_NB + file) & 1 != 0
    }

    /// The set limited to a board of `files` x `ranks`.
    /// The squares `up` ranks higher (lower when negative) on a board of `files` x `ranks`;
    /// squares pushed off it go.
    pub fn shifted_ranks(self, up: i32, files: usize, ranks: usize) -> Bb {
        self.on_board(files, ranks)
            .squares()
            .fold(Bb::EMPTY, |acc, (x, y)| {
                match usize::try_from(y as i32 + up) {
                    Ok(y) if y < ranks => acc | Bb::square(x, y),
                    _ => acc,
                }
            })
    }

    pub fn on_board(self, files: usize, ranks: usize) -> Bb {
        let mut out = Bb::EMPTY;
        for r in 0..ranks.min(RANK_NB) {
            for f in 0..files.min(FILE_NB) {
                if self.has(f, r) {
                    out = out | Bb::square(f, r);
                }
            }
        }
        out
    }

    /// The squares, rank by rank from the first.
    pub fn squares(self) -> impl Iterator<Item = (usize, usize)> {
        (0..RANK_NB)
            .flat_map(|r| (0..FILE_NB).map(move |f| (f, r)))
            .filter(move |&(f, r)| self.has(f, r))
    }

    /// Whether no square is in the set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set turned half round on a board of `files` x `ranks` (a1 becomes the far corner).
    pub fn rotated(self, files: usize, ranks: usize) -> Bb {
        self.on_board(files, ranks)
            .squares()
            .fold(Bb::EMPTY, |b, (f, r)| {
                b | Bb::square(files - 1 - f, ranks - 1 - r)
            })
    }

    /// The set reflected across the middle rank of a board of `files` x `ranks`.
    pub fn mirrored(self, files: usize, ranks: usize) -> Bb {
        self.on_board(files, ranks)
            .squares()
            .fold(Bb::EMPTY, |b, (f, r)| b | Bb::square(f, ranks - 1 - r))
    }
}

impl std::ops::BitOr for Bb {
    type Output = Bb;
    fn bitor(self, o: Bb) -> Bb {
        Bb(self.0 | o.0)
    }
}

impl std::ops::BitAnd for Bb {
    type Output = Bb;
    fn bitand(self, o: Bb) -> Bb {
        Bb(self.0 & o.0)
    }
}

impl std::ops::BitXor for Bb {
    type Output = Bb;
    fn bitxor(self, o: Bb) -> Bb {
        Bb(self.0 ^ o.0)
    }
}

impl std::ops::Not for Bb {
    type Output = Bb;
    fn not(self) -> Bb {
        Bb(!self.0 & Bb::ALL.0)
    }
}

/// A piece type, numbered as Fairy-Stockfish numbers them (`PAWN` is 1, `KING` 63).
pub type PieceType = u8;

/// Pawn.
pub const PAWN: PieceType = 1;
/// Fers (Makruk's met).
pub const FERS: PieceType = 6;
/// Fairy-Stockfish's bishop.
pub const BISHOP: PieceType = 3;
/// Shogi pawn.
pub const SHOGI_PAWN: PieceType = 19;
/// The immobile piece.
pub const IMMOBILE: PieceType = 26;
/// Janggi cannon.
pub const JANGGI_CANNON: PieceType = 28;
/// Xiangqi soldier.
pub const SOLDIER: PieceType = 29;
/// Janggi elephant.
pub const JANGGI_ELEPHANT: PieceType = 32;
/// Commoner (a king that is not royal).
pub const COMMONER: PieceType = 35;
/// The first custom piece (`customPiece1`).
pub const CUSTOM_1: PieceType = 37;
/// How many custom pieces a variant may define.
pub const CUSTOM_COUNT: usize = 25;
/// The slot of a king with its own moves (`king = k:BETZA`).
pub const CUSTOM_ROYAL: PieceType = 62;
/// King.
pub const KING: PieceType = 63;

/// The predefined piece types: number, key name, Betza, value in pawns (from Fairy-Stockfish's
/// middle-game values, a pawn 126).
pub const PREDEFINED: &[(PieceType, &str, &str, f32)] = &[
    (1, "pawn", "fmWfceF", 1.0),
    (2, "knight", "N", 3.0),
    (3, "bishop", "B", 3.25),
    (4, "rook", "R", 5.0),
    (5, "queen", "Q", 9.0),
    (6, "fers", "F", 1.5),
    (7, "alfil", "A", 1.25),
    (8, "fersAlfil", "FA", 2.5),
    (9, "silver", "FfW", 2.5),
    (10, "aiwok", "RNF", 9.0),
    (11, "bers", "RF", 7.0),
    (12, "archbishop", "BN", 8.5),
    (13, "chancellor", "RN", 9.0),
    (14, "amazon", "QN", 11.0),
    (15, "knibis", "mNcB", 4.5),
    (16, "biskni", "mBcN", 3.0),
    (17, "kniroo", "mNcR", 4.0),
    (18, "rookni", "mRcN", 3.25),
    (19, "shogiPawn", "fW", 0.75),
    (20, "lance", "fR", 3.0),
    (21, "shogiKnight", "fN", 3.25),
    (22, "gold", "WfF", 5.75),
    (23, "dragonHorse", "BW", 12.25),
    (24, "clobber", "cW", 2.5),
    (25, "breakthrough", "fmWfF", 2.5),
    (26, "immobile", "", 0.5),
    (27, "cannon", "mRcpR", 6.25),
    (28, "janggiCannon", "pR", 6.25),
    (29, "soldier", "fsW", 1.5),
    (30, "horse", "nN", 4.0),
    (31, "elephant", "nA", 2.5),
    (32, "janggiElephant", "nZ", 2.75),
    (33, "banner", "RcpRnN", 27.0),
    (34, "wazir", "W", 3.25),
    (35, "commoner", "K", 5.5),
    (36, "centaur", "KN", 14.25),
];

/// The key a piece type is defined by (`knight`, `customPiece3`, `king`).
pub fn piece_key(pt: PieceType) -> String {
    match pt {
        KING => "king".into(),
        CUSTOM_ROYAL => "king".into(),
        p if p >= CUSTOM_1 => format!("customPiece{}", p - CUSTOM_1 + 1),
        p => PREDEFINED
            .iter()
            .find(|d| d.0 == p)
            .map_or_else(String::new, |d| d.1.to_string()),
    }
}

/// The piece type a key defines.
pub fn piece_type_of_key(key: &str) -> Option<PieceType> {
    if key == "king" {
        return Some(KING);
    }
    if let Some(n) = key.strip_prefix("customPiece") {
        let n: usize = n.parse().ok()?;
        return (1..=CUSTOM_COUNT)
            .contains(&n)
            .then(|| CUSTOM_1 + (n - 1) as u8);
    }
    PREDEFINED.iter().find(|d| d.1 == key).map(|d| d.0)
}

/// A game result as a key gives it, for the side to move (or the side concerned).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// `win`.
    Win,
    /// `loss`.
    Loss,
    /// `draw`.
    Draw,
    /// `none`: the rule does not apply.
    None,
}

/// A piece set: bit `pt` per piece type, bit 0 for `*` (every piece).
pub type PieceSet = u64;

/// Bit of one piece type.
pub fn bit(pt: PieceType) -> PieceSet {
    1u64 << pt
}

/// Everything a variant's keys say, as Fairy-Stockfish holds it (its `Variant` struct), by
/// side where it has a value per side (white first).
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub max_rank: usize,
    pub max_file: usize,
    pub chess960: bool,
    pub two_boards: bool,
    /// Letter (uppercase) of each piece type, by number; `None`: not in the game.
    pub letters: [Option<char>; 64],
    /// Betza of each custom piece (and of the custom royal, slot 62).
    pub custom_betza: [String; 26],
    /// The king moves as the custom royal (`king = k:BETZA`).
    pub custom_king: bool,
    pub start_fen: String,
    pub mobility_region: [[Option<Bb>; 64]; 2],
    pub promotion_region: [Bb; 2],
    pub main_promotion_pawn_type: [PieceType; 2],
    pub promotion_pawn_types: [PieceSet; 2],
    pub promotion_piece_types: [PieceSet; 2],
    pub sittuyin_promotion: bool,
    pub promotion_limit: [u32; 64],
    pub promoted_piece_type: [PieceType; 64],
    pub piece_promotion_on_capture: bool,
    pub mandatory_pawn_promotion: bool,
    pub mandatory_piece_promotion: bool,
    pub piece_demotion: bool,
    pub blast_on_capture: bool,
    pub blast_immune_types: PieceSet,
    pub mutually_immune_types: PieceSet,
    pub petrify_on_capture_types: PieceSet,
    pub petrify_blast_pieces: bool,
    pub double_step: bool,
    pub double_step_region: [Bb; 2],
    pub triple_step_region: [Bb; 2],
    pub en_passant_region: [Bb; 2],
    pub en_passant_types: [PieceSet; 2],
    pub castling: bool,
    pub castling_dropped_piece: bool,
    pub castling_kingside_file: usize,
    pub castling_queenside_file: usize,
    pub castling_rank: usize,
    pub castling_king_file: usize,
    pub castling_king_piece: [PieceType; 2],
    pub castling_rook_kingside_file: usize,
    pub castling_rook_queenside_file: usize,
    pub castling_rook_pieces: [PieceSet; 2],
    pub opposite_castling: bool,
    pub checking: bool,
    pub drop_checks: bool,
    pub must_capture: bool,
    pub must_drop: bool,
    pub must_drop_type: PieceType,
    pub piece_drops: bool,
    pub drop_loop: bool,
    pub captures_to_hand: bool,
    pub first_rank_pawn_drops: bool,
    pub promotion_zone_pawn_drops: bool,
    pub enclosing_drop: String,
    pub enclosing_drop_start: Bb,
    pub drop_region: [Bb; 2],
    pub sittuyin_rook_drop: bool,
    pub drop_opposite_colored_bishop: bool,
    pub drop_promoted: bool,
    pub drop_no_doubled: PieceType,
    pub drop_no_doubled_count: i64,
    pub immobility_illegal: bool,
    pub gating: bool,
    pub walling_rule: String,
    pub walling_region: [Bb; 2],
    pub wall_or_move: bool,
    pub seirawan_gating: bool,
    pub cambodian_moves: bool,
    pub diagonal_lines: Bb,
    pub pass: [bool; 2],
    pub pass_on_stalemate: [bool; 2],
    pub makpong_rule: bool,
    pub flying_general: bool,
    pub soldier_promotion_rank: usize,
    pub flip_enclosed_pieces: String,
    pub n_move_rule_types: [PieceSet; 2],
    pub n_move_rule: i64,
    pub n_fold_rule: i64,
    pub n_fold_value: Value,
    pub n_fold_value_absolute: bool,
    pub perpetual_check_illegal: bool,
    pub move_repetition_illegal: bool,
    pub chasing_rule: String,
    pub stalemate_value: Value,
    pub stalemate_piece_count: bool,
    pub checkmate_value: Value,
    pub shogi_pawn_drop_mate_illegal: bool,
    pub shatar_mate_rule: bool,
    pub bikjang_rule: bool,
    pub extinction_value: Value,
    pub extinction_claim: bool,
    pub extinction_pseudo_royal: bool,
    pub duple_check: bool,
    pub extinction_piece_types: PieceSet,
    pub extinction_piece_count: i64,
    pub extinction_opponent_piece_count: i64,
    pub flag_piece: [PieceType; 2],
    pub flag_region: [Bb; 2],
    pub flag_piece_count: i64,
    pub flag_piece_blocked_win: bool,
    pub flag_move: bool,
    pub flag_piece_safe: bool,
    pub check_counting: bool,
    pub connect_n: i64,
    pub connect_piece_types: PieceSet,
    pub connect_horizontal: bool,
    pub connect_vertical: bool,
    pub connect_diagonal: bool,
    pub connect_region1: [Bb; 2],
    pub connect_region2: [Bb; 2],
    pub connect_nxn: i64,
    pub collinear_n: i64,
    pub connect_value: Value,
    pub material_counting: String,
    pub adjudicate_full_board: bool,
    pub counting_rule: String,
    pub castling_wins: String,
    /// Piece values a section set (`pieceValueMg`), in Fairy-Stockfish's units.
    pub piece_values: Vec<(PieceType, i64)>,
    /// Which keys of the walk from the built-in root to this section were given, by name:
    /// what the importer reads to name its sources.
    pub variant_template: String,
    /// Drops from a supply that never runs out (Ataxx; no key sets it).
    pub free_drops: bool,
}

impl Default for Config {
    /// Fairy-Stockfish's defaults: chess's pieces and rules on an 8x8 board.
    fn default() -> Config {
        let mut letters = [None; 64];
        for (pt, c) in [(1, 'P'), (2, 'N'), (3, 'B'), (4, 'R'), (5, 'Q'), (63, 'K')] {
            letters[pt] = Some(c);
        }
        let nbrq = bit(2) | bit(3) | bit(4) | bit(5);
        Config {
            max_rank: 8,
            max_file: 8,
            chess960: false,
            two_boards: false,
            letters,
            custom_betza: std::array::from_fn(|_| String::new()),
            custom_king: false,
            start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            mobility_region: [[None; 64]; 2],
            promotion_region: [Bb::rank(7), Bb::rank(0)],
            main_promotion_pawn_type: [PAWN, PAWN],
            promotion_pawn_types: [bit(PAWN), bit(PAWN)],
            promotion_piece_types: [nbrq, nbrq],
            sittuyin_promotion: false,
            promotion_limit: [0; 64],
            promoted_piece_type: [0; 64],
            piece_promotion_on_capture: false,
            mandatory_pawn_promotion: true,
            mandatory_piece_promotion: false,
            piece_demotion: false,
            blast_on_capture: false,
            blast_immune_types: 0,
            mutually_immune_types: 0,
            petrify_on_capture_types: 0,
            petrify_blast_pieces: false,
            double_step: true,
            double_step_region: [Bb::rank(1), Bb::rank(6)],
            triple_step_region: [Bb::EMPTY, Bb::EMPTY],
            en_passant_region: [Bb::ALL, Bb::ALL],
            en_passant_types: [bit(PAWN), bit(PAWN)],
            castling: true,
            castling_dropped_piece: false,
            castling_kingside_file: 6,
            castling_queenside_file: 2,
            castling_rank: 0,
            castling_king_file: 4,
            castling_king_piece: [KING, KING],
            castling_rook_kingside_file: FILE_NB - 1,
            castling_rook_queenside_file: 0,
            castling_rook_pieces: [bit(4), bit(4)],
            opposite_castling: false,
            checking: true,
            drop_checks: true,
            must_capture: false,
            must_drop: false,
            must_drop_type: 0,
            piece_drops: false,
            drop_loop: false,
            captures_to_hand: false,
            first_rank_pawn_drops: false,
            promotion_zone_pawn_drops: false,
            enclosing_drop: "none".into(),
            enclosing_drop_start: Bb::EMPTY,
            drop_region: [Bb::ALL, Bb::ALL],
            sittuyin_rook_drop: false,
            drop_opposite_colored_bishop: false,
            drop_promoted: false,
            drop_no_doubled: 0,
            drop_no_doubled_count: 1,
            immobility_illegal: false,
            gating: false,
            walling_rule: "none".into(),
            walling_region: [Bb::ALL, Bb::ALL],
            wall_or_move: false,
            seirawan_gating: false,
            cambodian_moves: false,
            diagonal_lines: Bb::EMPTY,
            pass: [false, false],
            pass_on_stalemate: [false, false],
            makpong_rule: false,
            flying_general: false,
            soldier_promotion_rank: 0,
            flip_enclosed_pieces: "none".into(),
            n_move_rule_types: [bit(PAWN), bit(PAWN)],
            n_move_rule: 50,
            n_fold_rule: 3,
            n_fold_value: Value::Draw,
            n_fold_value_absolute: false,
            perpetual_check_illegal: false,
            move_repetition_illegal: false,
            chasing_rule: "none".into(),
            stalemate_value: Value::Draw,
            stalemate_piece_count: false,
            checkmate_value: Value::Loss,
            shogi_pawn_drop_mate_illegal: false,
            shatar_mate_rule: false,
            bikjang_rule: false,
            extinction_value: Value::None,
            extinction_claim: false,
            extinction_pseudo_royal: false,
            duple_check: false,
            extinction_piece_types: 0,
            extinction_piece_count: 0,
            extinction_opponent_piece_count: 0,
            flag_piece: [0, 0],
            flag_region: [Bb::EMPTY, Bb::EMPTY],
            flag_piece_count: 1,
            flag_piece_blocked_win: false,
            flag_move: false,
            flag_piece_safe: false,
            check_counting: false,
            connect_n: 0,
            connect_piece_types: !0,
            connect_horizontal: true,
            connect_vertical: true,
            connect_diagonal: true,
            connect_region1: [Bb::EMPTY, Bb::EMPTY],
            connect_region2: [Bb::EMPTY, Bb::EMPTY],
            connect_nxn: 0,
            collinear_n: 0,
            connect_value: Value::Win,
            material_counting: "none".into(),
            adjudicate_full_board: false,
            counting_rule: "none".into(),
            castling_wins: String::new(),
            piece_values: Vec::new(),
            variant_template: "fairy".into(),
            free_drops: false,
        }
    }
}

impl Config {
    /// The piece types in the game, in Fairy-Stockfish's order.
    pub fn piece_types(&self) -> impl Iterator<Item = PieceType> + '_ {
        (1..64u8).filter(|&pt| self.letters[pt as usize].is_some())
    }

    /// The piece type with this letter (either case).
    pub fn piece_with_letter(&self, c: char) -> Option<PieceType> {
        let up = c.to_ascii_uppercase();
        self.piece_types()
            .find(|&pt| self.letters[pt as usize] == Some(up))
    }

    /// Adds a piece type with a letter, taking the letter from any piece that had it.
    pub fn add_piece(&mut self, pt: PieceType, letter: char) {
        if let Some(old) = self.piece_with_letter(letter) {
            self.remove_piece(old);
        }
        self.letters[pt as usize] = Some(letter.to_ascii_uppercase());
    }

    /// Takes a piece type out of the game (and out of the promotion choices).
    pub fn remove_piece(&mut self, pt: PieceType) {
        self.letters[pt as usize] = None;
        for c in 0..2 {
            self.promotion_piece_types[c] &= !bit(pt);
        }
    }

    /// No pieces at all: where a section without a template starts.
    pub fn reset_pieces(&mut self) {
        self.letters = [None; 64];
        self.promotion_piece_types = [0, 0];
    }

    /// The Betza a piece type moves by.
    pub fn betza(&self, pt: PieceType) -> &str {
        if pt == KING && self.custom_king {
            return &self.custom_betza[(CUSTOM_ROYAL - CUSTOM_1) as usize];
        }
        if (CUSTOM_1..KING).contains(&pt) {
            return &self.custom_betza[(pt - CUSTOM_1) as usize];
        }
        if pt == KING {
            return "K";
        }
        PREDEFINED.iter().find(|d| d.0 == pt).map_or("", |d| d.2)
    }

    /// The letters of the pieces in the game, for messages.
    pub fn letters_list(&self) -> String {
        self.piece_types()
            .filter_map(|pt| self.letters[pt as usize])
            .map(|c| c.to_ascii_lowercase().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}
