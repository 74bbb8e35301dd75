//! The `rulebook` command line.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use rulebook::engine::{notation, perft, perft_divide_each, record, search, Position};
use rulebook::model::Side;
use rulebook::model::{Tables, Variant};
use rulebook::render::{
    board_map, board_svg, diagram_info, move_diagram, move_diagram_svg, plain_diagram,
    plain_position, position_text, DiagramMode, TextStyle,
};

/// Rulebook: play, check and draw chess variants written in a text definition language.
#[derive(Parser, Debug)]
#[command(name = "rulebook", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check definition files and report every problem found.
    Check {
        /// Definition files (`*.variant`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
        format: CheckFormat,
        /// Also play random games and report a side left with nothing to move, a game that
        /// may never end, or an internal error, with the moves that lead there.
        #[arg(long)]
        deep: bool,
        /// `--deep`: how many games.
        #[arg(long, default_value_t = 200, requires = "deep")]
        games: u32,
        /// `--deep`: the most plies of a game.
        #[arg(long, default_value_t = 400, requires = "deep")]
        plies: u32,
        /// `--deep`: the most seconds for all games of a file.
        #[arg(long, default_value_t = 10.0, requires = "deep")]
        seconds: f64,
        /// `--deep`: the seed of the random moves (the same seed plays the same games).
        #[arg(long, default_value_t = 1, requires = "deep")]
        seed: u64,
    },
    /// Lay definition files out in the canonical layout, keeping every comment.
    ///
    /// Only blanks change: indentation, the spaces between words, blank lines and line ends.
    /// Everything written stays, in its order: comments, strings and the rows of setup and
    /// mask pictures included. A file that does not parse is reported as `check` reports it
    /// and left as it is.
    Fmt {
        /// Definition files (`*.variant`), rewritten in place when their layout changes; `-`
        /// reads standard input and writes the result on standard output.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write nothing: list the files whose layout would change, and exit with 1 if there
        /// is one.
        #[arg(long)]
        check: bool,
        /// Also rewrite the language's first-edition forms (`stay in`, `never enter`, `leap`,
        /// guards after a clause...) as the second edition writes them.
        #[arg(long)]
        upgrade: bool,
    },
    /// Count the leaf nodes of the legal move tree (move generation test).
    Perft {
        /// Definition file.
        file: PathBuf,
        /// Depth in plies.
        depth: u32,
        #[command(flatten)]
        position: PositionArgs,
        /// Print the count below each legal first move.
        #[arg(long)]
        divide: bool,
    },
    /// List the legal moves, one per line in coordinate notation.
    Moves {
        /// Definition file.
        file: PathBuf,
        #[command(flatten)]
        position: PositionArgs,
        /// Also print each move in algebraic notation.
        #[arg(long)]
        san: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = MovesFormat::Text)]
        format: MovesFormat,
    },
    /// Draw a move diagram: the board with its zones, a piece and the squares it can reach.
    ///
    /// Repeat `--piece` and `--at` to draw several pieces in one diagram, as rule books do:
    /// the n-th `--piece` stands on the n-th `--at`. Without `--fen` the pieces stand alone on
    /// an empty board and the diagram shows how they move; with `--fen` it shows their legal
    /// moves in that position. `--all --out DIR` draws every piece and writes a gallery page.
    Diagram {
        /// Definition file.
        file: PathBuf,
        /// The piece, by letter or name (lowercase letter: the second side's piece).
        #[arg(long)]
        piece: Vec<String>,
        /// The square it stands on.
        #[arg(long)]
        at: Vec<String>,
        /// Whose piece it is (side name), when the letter's case should not decide.
        #[arg(long)]
        side: Option<String>,
        /// Draw every piece (from the centre and from each zone where its movement changes)
        /// as SVG files in `--out`, with a page `index.html` that shows them.
        #[arg(long, requires = "out", conflicts_with_all = ["piece", "at", "fen"])]
        all: bool,
        /// The directory `--all` writes to (created if needed).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        position: PositionArgs,
    },
    /// Replay a game record move by move and report the result.
    Replay {
        /// Definition file.
        file: PathBuf,
        /// The record: a file, or `-` for standard input.
        game: String,
        #[command(flatten)]
        position: PositionArgs,
    },
    /// Play a game in the terminal, against the built-in engine or another person.
    Play {
        /// Definition file.
        file: PathBuf,
        /// The sides the engine plays: a side name, `first`, `second`, several joined by `,`
        /// (`red,yellow`), `all`, or `none` for people only.
        #[arg(long, default_value = "second")]
        computer: String,
        /// How many plies the engine looks ahead.
        #[arg(long, default_value_t = 3)]
        depth: u32,
        #[command(flatten)]
        position: PositionArgs,
    },
    /// Speak UCI on standard input and output, playing this definition (for GUIs such as
    /// Cute Chess, or any UCI tool).
    Uci {
        /// Definition file.
        file: PathBuf,
        /// Set a variant option: `NAME`, `NAME=on` or `NAME=off`. Repeatable.
        #[arg(long = "option", value_name = "NAME[=on|off]")]
        options: Vec<String>,
    },
    /// Speak XBoard/CECP (protocol 2) on standard input and output, playing this definition
    /// (for XBoard and WinBoard; the board size, holdings, start position and the pieces' moves
    /// in Betza are sent to the GUI).
    Xboard {
        /// Definition file.
        file: PathBuf,
        /// Set a variant option: `NAME`, `NAME=on` or `NAME=off`. Repeatable.
        #[arg(long = "option", value_name = "NAME[=on|off]")]
        options: Vec<String>,
    },
    /// Measure speed: perft and search nodes per second on the shipped games (or the files
    /// given).
    Bench {
        /// Definition files (default: Chess, Xiangqi and Shogi from `definitions/`).
        files: Vec<PathBuf>,
        /// Perft depth.
        #[arg(long, default_value_t = 4)]
        perft_depth: u32,
        /// Search depth.
        #[arg(long, default_value_t = 6)]
        search_depth: u32,
    },
    /// Estimate every piece's value for a new game, from its mobility on random boards (in
    /// pawns: a piece as mobile as a knight is worth 3), or from the engine's games against
    /// itself with `--self-play`, with a 95% interval
    Values {
        /// The definition file.
        file: PathBuf,
        /// Random boards per piece (the mobility method).
        #[arg(long, default_value_t = 4000)]
        samples: usize,
        /// Learn the values from this many games of the engine against itself instead: a
        /// logistic model of the results on the material of quiet positions.
        #[arg(long, value_name = "GAMES")]
        self_play: Option<usize>,
        /// Search depth of every move of the self-play games.
        #[arg(long, default_value_t = 3, requires = "self_play")]
        depth: u32,
        /// Seed of the random boards, or of the self-play games' random openings (the same seed
        /// gives the same figures).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Set a variant option: `NAME`, `NAME=on` or `NAME=off`. Repeatable.
        #[arg(long = "option", value_name = "NAME[=on|off]")]
        options: Vec<String>,
    },
    /// Learn square tables for a game from the engine's games against itself
    ///
    /// Plays the games, fits a middle-game and an ending term per piece and square to their
    /// results, and writes the tables to standard output (a summary goes to standard error).
    /// Saved as `NAME.tables` beside `NAME.variant`, they are read with the definition and
    /// added to the evaluation; tuning again with them in place refines them.
    Tune {
        /// The definition file.
        file: PathBuf,
        /// Games of self-play.
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// Search depth of every move.
        #[arg(long, default_value_t = 4)]
        depth: u32,
        /// Seed of the games' random openings (the same seed gives the same tables).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Set a variant option: `NAME`, `NAME=on` or `NAME=off`. Repeatable.
        #[arg(long = "option", value_name = "NAME[=on|off]")]
        options: Vec<String>,
    },
    /// Read variants from another program's format and write them as definitions.
    #[command(subcommand)]
    Import(ImportFormat),
    /// Write a definition in another program's format.
    #[command(subcommand)]
    Export(ExportFormat),
    /// Serve the Language Server Protocol on standard input and output, for editors.
    ///
    /// Diagnostics as you type, hovers (keywords; pieces with their moves and a move diagram;
    /// zones, options and sides), completion, go to definition, references and quick fixes for
    /// definition files. The editor starts `rulebook lsp` itself: the README shows the settings
    /// for VS Code and Neovim.
    Lsp,
    /// Show the zone map and the start position (or `--fen`).
    Board {
        /// Definition file.
        file: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = BoardFormat::Text)]
        format: BoardFormat,
        #[command(flatten)]
        position: PositionArgs,
    },
}

/// The formats `import` reads.
#[derive(Subcommand, Debug)]
enum ImportFormat {
    /// Fairy-Stockfish's `variants.ini`: one definition per section, and a report of what was
    /// imported exactly, with approximations, or refused (and why).
    Fsf {
        /// The INI file.
        file: PathBuf,
        /// Import only this section (repeatable); default: every section.
        #[arg(long = "variant", value_name = "NAME")]
        variants: Vec<String>,
        /// Where to write the definitions (`NAME.variant`) and `report.txt`; created if needed.
        #[arg(long, value_name = "DIR", default_value = ".")]
        out: PathBuf,
        /// How the report is written on standard output.
        #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
        format: ReportFormat,
    },
}

/// The formats `export` writes.
#[derive(Subcommand, Debug)]
enum ExportFormat {
    /// A Fairy-Stockfish `variants.ini` section (on standard output), or the list of what
    /// Fairy-Stockfish cannot play in the definition.
    Fsf {
        /// Definition file.
        file: PathBuf,
        /// Set a variant option before writing: `NAME`, `NAME=on` or `NAME=off`. Repeatable.
        #[arg(long = "option", value_name = "NAME[=on|off]")]
        options: Vec<String>,
    },
}

/// How `import` reports.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ReportFormat {
    /// One line per section, then the totals.
    Text,
    /// One JSON object: every section with its outcome.
    Json,
}

/// How a move diagram is written.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// One character per square, with coordinates and a legend.
    Text,
    /// One character per square and nothing else, every target `*`, as printed rule books draw.
    Plain,
    /// A picture for web pages.
    Svg,
    /// The marked squares, for other programs.
    Json,
}

/// How `check` reports.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum CheckFormat {
    /// Reports with the source quoted, on stderr; `FILE: ok` on stdout for good files.
    Text,
    /// One JSON object per file on stdout: its name, whether it is valid, every diagnostic.
    Json,
}

/// How a board map is written.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum BoardFormat {
    /// The zones and the position, a cell per square (as wide as the longest piece letter).
    Text,
    /// The position as a picture, zones with a glyph tinted.
    Svg,
}

/// How a move list is written.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum MovesFormat {
    /// One move per line in coordinate notation.
    Text,
    /// An array of move objects (coordinate and algebraic notation, piece, squares, kind).
    Json,
}

#[derive(clap::Args, Debug)]
struct PositionArgs {
    /// Start from this FEN instead of the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Play these moves first (any notation, separated by spaces), from the start position or
    /// the `--fen` position.
    #[arg(long, value_name = "MOVES")]
    moves: Option<String>,
    /// Set a variant option: `NAME`, `NAME=on` or `NAME=off`. Repeatable.
    #[arg(long = "option", value_name = "NAME[=on|off]")]
    options: Vec<String>,
}

/// A failure reported as one line (definition problems are printed before, in full).
struct Failure(String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure(e.to_string())
    }
}

fn read(path: &Path) -> Result<String, Failure> {
    std::fs::read_to_string(path)
        .map_err(|e| Failure(format!("cannot read `{}`: {e}", path.display())))
}

thread_local! {
    /// Whether failures are reported as JSON (the command's `--format json`).
    static JSON_ERRORS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The diagnostics of a definition that failed to load, for a JSON failure.
    static FAILED_REPORT: std::cell::RefCell<Option<serde_json::Value>> =
        const { std::cell::RefCell::new(None) };
}

fn load(path: &Path) -> Result<Variant, Failure> {
    let text = read(path)?;
    let name = path.display().to_string();
    let variant = rulebook::load(&name, &text).map_err(|d| {
        if JSON_ERRORS.get() {
            FAILED_REPORT.set(json_report(&d).ok());
        } else {
            eprintln!("{:?}", miette::Report::new(d));
        }
        Failure(format!("`{name}` is not a valid definition"))
    })?;
    with_square_tables(variant, path)
}

/// The variant with the square tables of the `.tables` file beside its definition, if there
/// is one.
fn with_square_tables(variant: Variant, path: &Path) -> Result<Variant, Failure> {
    let file = path.with_extension("tables");
    if path.extension().is_some_and(|e| e == "tables") || !file.is_file() {
        return Ok(variant);
    }
    let shown = file.display();
    let tables = rulebook::model::SquareTables::parse(&read(&file)?, &variant)
        .map_err(|e| Failure(format!("`{shown}`: {e}")))?;
    let compiled = Tables::compile(&variant, &[])?;
    if rulebook::model::side_frames(&compiled).is_none() {
        return Err(Failure(format!(
            "`{shown}`: square tables need every side's setup to be a turned or mirrored copy \
             of the first side's, and {}'s is not",
            variant.name()
        )));
    }
    Ok(variant.with_square_tables(tables))
}

fn parse_options(args: &[String]) -> Result<Vec<(String, bool)>, Failure> {
    args.iter()
        .map(|a| match a.split_once('=') {
            None => Ok((a.clone(), true)),
            Some((n, "on" | "true" | "yes")) => Ok((n.to_string(), true)),
            Some((n, "off" | "false" | "no")) => Ok((n.to_string(), false)),
            Some((_, v)) => Err(Failure(format!("option value `{v}` must be `on` or `off`"))),
        })
        .collect()
}

fn position(file: &Path, args: &PositionArgs) -> Result<Position, Failure> {
    let variant = load(file)?;
    let tables = Tables::compile(&variant, &parse_options(&args.options)?)?;
    let start = Position::new(tables);
    let mut pos = match &args.fen {
        Some(fen) => start.with_fen(fen)?,
        None => start,
    };
    let line = args.moves.iter().flat_map(|m| m.split_whitespace());
    notation::play_line(&mut pos, line).map_err(|e| Failure(format!("--moves, {e}")))?;
    Ok(pos)
}

/// The start position of `file` with the variant `options` set.
fn start_position(file: &Path, options: Vec<String>) -> Result<Position, Failure> {
    position(
        file,
        &PositionArgs {
            fen: None,
            moves: None,
            options,
        },
    )
}

fn run(cli: Cli) -> Result<ExitCode, Failure> {
    match cli.command {
        Command::Check {
            files,
            format,
            deep,
            games,
            plies,
            seconds,
            seed,
        } => {
            let deep = deep.then(|| rulebook::engine::deep::DeepLimits {
                games,
                plies,
                time: std::time::Duration::from_secs_f64(seconds.clamp(0.0, 86_400.0)),
                seed,
            });
            check(&files, format, deep)
        }
        Command::Fmt {
            files,
            check,
            upgrade,
        } => fmt(&files, check, upgrade),
        Command::Perft {
            file,
            depth,
            position: args,
            divide,
        } => perft_command(&position(&file, &args)?, depth, divide),
        Command::Moves {
            file,
            position: args,
            san,
            format,
        } => moves(&position(&file, &args)?, san, format),
        Command::Diagram {
            file,
            piece,
            at,
            side,
            all,
            out,
            format,
            position: args,
        } => {
            let pos = position(&file, &args)?;
            if let (true, Some(dir)) = (all, &out) {
                return write_gallery(&pos, &with_bases(&file)?, dir);
            }
            if piece.is_empty() && at.is_empty() {
                eprintln!(
                    "note: no `--piece`, so this is the whole board; `--piece P --at SQUARE` \
                     draws a piece's moves, `--all --out DIR` every piece's"
                );
                return board_picture(&pos, format);
            }
            if piece.len() != at.len() {
                return Err(Failure(format!(
                    "`diagram` needs one `--at` for each `--piece` (got {} and {})",
                    piece.len(),
                    at.len()
                )));
            }
            let request = DiagramRequest {
                pieces: piece
                    .iter()
                    .zip(&at)
                    .map(|(p, a)| (p.as_str(), a.as_str()))
                    .collect(),
                side: side.as_deref(),
                in_position: args.fen.is_some(),
            };
            diagram(&pos, &request, format)
        }
        Command::Replay {
            file,
            game,
            position: args,
        } => replay(&position(&file, &args)?, &game),
        Command::Play {
            file,
            computer,
            depth,
            position: args,
        } => play(position(&file, &args)?, &computer, depth),
        Command::Uci { file, options } => {
            let (variant, options) = engine_setup(&file, &options)?;
            let out = stdout_replies();
            rulebook::protocol::uci::run(variant, options, std::io::stdin().lock(), out);
            Ok(ExitCode::SUCCESS)
        }
        Command::Xboard { file, options } => {
            let (variant, options) = engine_setup(&file, &options)?;
            let out = stdout_replies();
            let input = std::io::BufReader::new(std::io::stdin());
            rulebook::protocol::xboard::run(variant, options, input, out)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench {
            files,
            perft_depth,
            search_depth,
        } => bench(&files, perft_depth, search_depth),
        Command::Values {
            file,
            samples,
            self_play,
            depth,
            seed,
            options,
        } => values(&file, samples, self_play.map(|g| (g, depth)), seed, options),
        Command::Tune {
            file,
            games,
            depth,
            seed,
            options,
        } => tune(&file, games, depth, seed, options),
        Command::Import(ImportFormat::Fsf {
            file,
            variants,
            out,
            format,
        }) => import_fsf(&file, &variants, &out, format),
        Command::Export(ExportFormat::Fsf { file, options }) => export_fsf(&file, &options),
        Command::Lsp => {
            let clean = rulebook::lsp::run_stdio()?;
            // As the protocol asks: 0 after `shutdown` then `exit`, 1 otherwise.
            Ok(if clean {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::Board {
            file,
            format,
            position: args,
        } => {
            let pos = position(&file, &args)?;
            match format {
                BoardFormat::Text => print!("{}", board_map(&pos)),
                BoardFormat::Svg => print!("{}", board_svg(&pos)),
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `import fsf`: each section of a Fairy-Stockfish INI file as a definition in `out`, and the
/// report on standard output (and in `out/report.txt`).
fn import_fsf(
    file: &Path,
    selected: &[String],
    out: &Path,
    format: ReportFormat,
) -> Result<ExitCode, Failure> {
    use rulebook::interop::fsf::{self, Outcome};
    let text = read(file)?;
    let name = file.display().to_string();
    let result = fsf::import(&name, &text, selected);
    let errors = result.diagnostics.has_errors();
    let (sections, diagnostics) = (result.sections, result.diagnostics);
    if !diagnostics.problems().is_empty() {
        eprintln!("{:?}", miette::Report::new(diagnostics));
    }
    for wanted in selected {
        if !sections.iter().any(|s| &s.name == wanted) {
            return Err(Failure(format!("`{name}` has no section `[{wanted}]`")));
        }
    }
    std::fs::create_dir_all(out)
        .map_err(|e| Failure(format!("cannot create `{}`: {e}", out.display())))?;
    let mut report = String::new();
    let mut json = Vec::new();
    let (mut exact, mut approx, mut refused, mut invalid) = (0, 0, 0, 0);
    for s in &sections {
        let title = match &s.template {
            Some(t) => format!("[{}:{}]", s.name, t),
            None => format!("[{}]", s.name),
        };
        match &s.outcome {
            Outcome::Imported(w) => {
                let path = out.join(format!("{}.variant", s.name));
                std::fs::write(&path, &w.text)
                    .map_err(|e| Failure(format!("cannot write `{}`: {e}", path.display())))?;
                if w.approximations.is_empty() {
                    exact += 1;
                    report.push_str(&format!("{title}: imported\n"));
                } else {
                    approx += 1;
                    report.push_str(&format!("{title}: imported with approximations\n"));
                    for a in &w.approximations {
                        report.push_str(&format!("    approximation: {a}\n"));
                    }
                }
                json.push(serde_json::json!({
                    "section": s.name, "template": s.template,
                    "outcome": if w.approximations.is_empty() { "imported" } else { "approximated" },
                    "file": path.display().to_string(), "approximations": w.approximations,
                }));
            }
            Outcome::Refused(reasons) => {
                refused += 1;
                report.push_str(&format!("{title}: refused\n"));
                for r in reasons {
                    let value = if r.value.is_empty() {
                        String::new()
                    } else {
                        format!(" = {}", r.value)
                    };
                    report.push_str(&format!("    {}{value}: {}\n", r.key, r.reason));
                }
                json.push(serde_json::json!({
                    "section": s.name, "template": s.template, "outcome": "refused",
                    "reasons": reasons.iter().map(|r| serde_json::json!({
                        "key": r.key, "value": r.value, "reason": r.reason, "construct": r.construct,
                    })).collect::<Vec<_>>(),
                }));
            }
            Outcome::Invalid(why) => {
                invalid += 1;
                report.push_str(&format!("{title}: not read: {why}\n"));
                json.push(serde_json::json!({
                    "section": s.name, "template": s.template, "outcome": "invalid", "reason": why,
                }));
            }
        }
    }
    let total = sections.len();
    report.push_str(&format!(
        "{total} sections: {exact} imported exactly, {approx} with approximations, {refused} refused{}\n",
        if invalid > 0 { format!(", {invalid} not read (errors above)") } else { String::new() }
    ));
    let report_path = out.join("report.txt");
    std::fs::write(&report_path, &report)
        .map_err(|e| Failure(format!("cannot write `{}`: {e}", report_path.display())))?;
    match format {
        ReportFormat::Text => print!("{report}"),
        ReportFormat::Json => println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "file": name, "sections": json,
                "imported": exact, "approximated": approx, "refused": refused, "invalid": invalid,
            }))?
        ),
    }
    Ok(if errors {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `export fsf`: the definition as a Fairy-Stockfish INI section, or why it cannot be one.
fn export_fsf(file: &Path, options: &[String]) -> Result<ExitCode, Failure> {
    let variant = load(file)?;
    let options = parse_options(options)?;
    match rulebook::interop::fsf::export::export_with(&variant, &options) {
        Ok(text) => {
            print!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        Err(lacks) => {
            eprintln!(
                "error: Fairy-Stockfish cannot play `{}` as defined:",
                file.display()
            );
            for l in &lacks {
                eprintln!("  - {l}");
            }
            Ok(ExitCode::from(1))
        }
    }
}

/// `check`: every file's diagnostics, as text on stderr or one JSON object per file.
/// `fmt`: each file in the canonical layout, in place or (with `--check`) only listed.
fn fmt(files: &[PathBuf], check: bool, upgrade: bool) -> Result<ExitCode, Failure> {
    use std::io::{Read, Write};
    let (mut failed, mut unformatted) = (false, false);
    for file in files {
        let stdin = file.as_os_str() == "-";
        let name = if stdin {
            "<stdin>".to_string()
        } else {
            file.display().to_string()
        };
        let text = if stdin {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map(|_| text)
                .map_err(|e| Failure(format!("cannot read standard input: {e}")))
        } else {
            read(file)
        };
        let text = match text {
            Ok(text) => text,
            Err(Failure(message)) => {
                // One unreadable file does not stop the others.
                failed = true;
                eprintln!("error: {message}");
                continue;
            }
        };
        let formatted = match if upgrade {
            rulebook::syntax::upgrade(&text).and_then(|t| rulebook::syntax::format::format(&t))
        } else {
            rulebook::syntax::format::format(&text)
        } {
            Ok(formatted) => formatted,
            Err(problems) => {
                failed = true;
                let d = rulebook::Diagnostics::new(&name, &text, problems);
                eprintln!("{:?}", miette::Report::new(d));
                continue;
            }
        };
        let changed = formatted != text;
        if check {
            if changed {
                unformatted = true;
                println!("{name}");
            }
        } else if stdin {
            let mut out = std::io::stdout().lock();
            out.write_all(formatted.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| Failure(format!("cannot write standard output: {e}")))?;
        } else if changed {
            if let Err(e) = std::fs::write(file, &formatted) {
                failed = true;
                eprintln!("error: cannot write `{name}`: {e}");
            }
        }
    }
    Ok(if failed || unformatted {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn check(
    files: &[PathBuf],
    format: CheckFormat,
    deep: Option<rulebook::engine::deep::DeepLimits>,
) -> Result<ExitCode, Failure> {
    let mut failed = false;
    for file in files {
        let name = file.display().to_string();
        let text = match read(file) {
            Ok(text) => text,
            Err(Failure(message)) => {
                // One unreadable file does not stop the others.
                failed = true;
                if format == CheckFormat::Json {
                    println!(
                        "{}",
                        serde_json::json!({"file": name, "valid": false, "error": message})
                    );
                } else {
                    eprintln!("error: {message}");
                }
                continue;
            }
        };
        let report = rulebook::check_source(&name, &text);
        failed |= report.has_errors;
        // A tables file beside the definition is read with it, so it is checked with it.
        let tables_error = report
            .variant
            .clone()
            .and_then(|v| with_square_tables(v, file).err())
            .map(|Failure(message)| message);
        failed |= tables_error.is_some();
        let deep_report = match (&report.variant, deep) {
            (Some(variant), Some(limits)) => {
                let tables = Tables::compile(variant, &[])?;
                let bar = progress(&format!("{name}: random games"), u64::from(limits.games));
                let r =
                    rulebook::engine::deep::deep_check_with(&Position::new(tables), limits, |r| {
                        bar.set_position(u64::from(r.games))
                    });
                bar.finish_and_clear();
                failed |= r.findings.iter().any(|f| f.kind.is_internal());
                Some(r)
            }
            _ => None,
        };
        if format == CheckFormat::Json {
            let diagnostics = match &report.diagnostics {
                Some(d) => json_report(d)?,
                None => serde_json::Value::Null,
            };
            let valid = !report.has_errors && tables_error.is_none();
            let mut object =
                serde_json::json!({"file": name, "valid": valid, "report": diagnostics});
            if let Some(message) = &tables_error {
                object["tables"] = serde_json::json!({"error": message});
            }
            if let Some(r) = &deep_report {
                object["deep"] = serde_json::json!({
                    "games": r.games,
                    "plies": r.plies,
                    "decided": r.decided,
                    "findings": r.findings.iter().map(|f| serde_json::json!({
                        "code": f.kind.code(),
                        "severity": if f.kind.is_internal() { "error" } else { "warning" },
                        "problem": f.kind.to_string(),
                        "internal": f.kind.is_internal(),
                        "moves": f.moves,
                        "fen": f.fen,
                    })).collect::<Vec<_>>(),
                });
            }
            println!("{object}");
            continue;
        }
        if let Some(d) = report.diagnostics {
            eprintln!("{:?}", miette::Report::new(d));
        }
        if let Some(message) = &tables_error {
            eprintln!("error: {message}");
        } else if !report.has_errors {
            println!("{name}: ok");
        }
        if let Some(r) = &deep_report {
            print_deep(&name, r);
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `check --deep` as text: what was played, then each finding as a warning (a property of
/// the definition) or an error (a fault of the interpreter) with its code, the position and
/// the last moves that led there (`--format json` lists them all).
fn print_deep(name: &str, r: &rulebook::engine::deep::DeepReport) {
    const LAST_MOVES: usize = 12;
    let errors = r.findings.iter().filter(|f| f.kind.is_internal()).count();
    let warnings = r.findings.len() - errors;
    let count = |n: usize, what: &str| match n {
        0 => None,
        1 => Some(format!("1 {what}")),
        n => Some(format!("{n} {what}s")),
    };
    let found: Vec<String> = [count(errors, "error"), count(warnings, "warning")]
        .into_iter()
        .flatten()
        .collect();
    println!(
        "{name}: {} random games, {} plies, {} ended by a rule: {}",
        r.games,
        r.plies,
        r.decided,
        if found.is_empty() {
            "nothing found".to_string()
        } else {
            found.join(", ")
        }
    );
    for f in &r.findings {
        let severity = if f.kind.is_internal() {
            "error"
        } else {
            "warning"
        };
        println!("{severity}[{}]: {}", f.kind.code(), f.kind);
        println!("  help: {}", f.kind.help());
        println!("  position after {} plies: {}", f.moves.len(), f.fen);
        if !f.moves.is_empty() {
            let from = f.moves.len().saturating_sub(LAST_MOVES);
            println!(
                "  {}: {}",
                if from == 0 {
                    "moves from the start".to_string()
                } else {
                    format!("last {LAST_MOVES} moves (all of them with --format json)")
                },
                f.moves[from..].join(" ")
            );
        }
    }
}

/// The diagnostics as JSON, every span with its line and column.
fn json_report(d: &rulebook::Diagnostics) -> Result<serde_json::Value, Failure> {
    d.to_json()
        .map_err(|e| Failure(format!("cannot write the report: {e}")))
}

/// `perft`: the count (or the count under each first move), then time and speed on stderr,
/// with a progress bar over the first moves while a terminal watches.
fn perft_command(pos: &Position, depth: u32, divide: bool) -> Result<ExitCode, Failure> {
    let mut pos = pos.clone();
    let start = Instant::now();
    let nodes = if divide || depth >= 2 {
        let bar = progress("perft", 0);
        let mut total = 0;
        let shown = pos.clone();
        perft_divide_each(&mut pos, depth, |m, n, moves| {
            bar.set_length(moves as u64);
            if divide {
                bar.suspend(|| println!("{}: {}", notation::coord(&shown, &m), n));
            }
            total += n;
            bar.inc(1);
        });
        bar.finish_and_clear();
        if divide {
            println!();
        }
        total
    } else {
        perft(&mut pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("Nodes searched: {nodes}");
    eprintln!(
        "time: {:.3} s, {:.0} nodes/s",
        secs,
        nodes as f64 / secs.max(1e-9)
    );
    Ok(ExitCode::SUCCESS)
}

/// A progress bar on standard error, drawn only while it is a terminal.
fn progress(what: &str, len: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {elapsed}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(what.to_string());
    bar
}

/// `moves`: the legal moves, one per line or as JSON; none where the game has ended by
/// repetition, as perft counts.
fn moves(pos: &Position, san: bool, format: MovesFormat) -> Result<ExitCode, Failure> {
    let legal = if pos.repeated_to_end() {
        Vec::new()
    } else {
        pos.legal_moves()
    };
    if format == MovesFormat::Json {
        let moves: Vec<notation::MoveInfo> =
            legal.iter().map(|m| notation::move_info(pos, m)).collect();
        println!("{}", serde_json::to_string_pretty(&moves)?);
        return Ok(ExitCode::SUCCESS);
    }
    for m in legal {
        if san {
            println!("{} {}", notation::coord(pos, &m), notation::san(pos, &m));
        } else {
            println!("{}", notation::coord(pos, &m));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `diagram` without a piece: the board map.
fn board_picture(pos: &Position, format: Format) -> Result<ExitCode, Failure> {
    match format {
        Format::Text => print!("{}", board_map(pos)),
        Format::Plain => print!("{}", plain_position(pos)),
        Format::Svg => print!("{}", board_svg(pos)),
        Format::Json => {
            return Err(Failure(
                "`diagram --format json` needs `--piece` and `--at`".into(),
            ))
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `diagram --all --out DIR`: the gallery's SVG files and its page.
/// The text of a definition followed by its bases' texts, nearest first: where the gallery
/// finds the declaration it quotes for each piece, the file's own before an inherited one.
fn with_bases(path: &Path) -> Result<String, Failure> {
    use rulebook::check::Bases;
    let mut text = read(path)?;
    let mut name = path.display().to_string();
    let mut last = text.clone();
    for _ in 0..rulebook::check::MAX_BASES {
        let base = rulebook::syntax::parse(&last).ok().and_then(|f| {
            f.items.iter().find_map(|i| match i {
                rulebook::syntax::ast::Item::Variant(v) => v.base.clone(),
                _ => None,
            })
        });
        // The definition loaded, so every base it names can be read.
        let Some(Ok(base)) = base.map(|b| rulebook::check::Files.read(&b.node, &name)) else {
            break;
        };
        text.push('\n');
        text.push_str(&base.text);
        name = base.name;
        last = base.text;
    }
    Ok(text)
}

fn write_gallery(pos: &Position, source: &str, dir: &Path) -> Result<ExitCode, Failure> {
    let g = rulebook::render::gallery(pos, source);
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text)
            .map_err(|e| Failure(format!("cannot write `{}`: {e}", path.display())))
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure(format!("cannot create `{}`: {e}", dir.display())))?;
    write("board.svg", &g.board_svg)?;
    let mut count = 0;
    for p in &g.pieces {
        for d in &p.diagrams {
            write(&d.file, &d.svg)?;
            count += 1;
        }
    }
    write("index.html", &g.index_html)?;
    println!(
        "{}: {} diagrams of {} pieces, board.svg and index.html",
        dir.display(),
        count,
        g.pieces.len()
    );
    Ok(ExitCode::SUCCESS)
}

/// What `diagram --piece P --at SQ ...` asks for.
struct DiagramRequest<'a> {
    /// Each piece and the square it stands on.
    pieces: Vec<(&'a str, &'a str)>,
    side: Option<&'a str>,
    /// A FEN was given: the pieces' legal moves there, not their movement alone.
    in_position: bool,
}

/// `diagram --piece P --at SQ ...`: the pieces alone on the board, or in the given position.
fn diagram(
    pos: &Position,
    request: &DiagramRequest<'_>,
    format: Format,
) -> Result<ExitCode, Failure> {
    let t = pos.tables();
    let g = t.geometry();
    let mut placed = Vec::with_capacity(request.pieces.len());
    for &(piece, at) in &request.pieces {
        let sq = g.parse(at).ok_or_else(|| {
            Failure(format!(
                "`{at}` is not a square of this {}x{} board",
                g.width, g.height
            ))
        })?;
        if g.is_hole(sq) {
            return Err(Failure(format!("`{at}` is a hole of this board")));
        }
        let (kind, mut who) = match rulebook::engine::fen::piece_from_letter(pos, piece) {
            Some(p) => (p.kind, p.side),
            None => match t.variant().piece_by_name(piece) {
                Some(k) => (k, Side::FIRST),
                None => return Err(Failure(format!("this variant has no piece `{piece}`"))),
            },
        };
        if let Some(s) = request.side {
            who = side_named(pos, s)?.ok_or_else(|| Failure("`--side` needs a side".into()))?;
        }
        if placed.iter().any(|&(s, _)| s == sq) {
            return Err(Failure(format!("two pieces asked for on {at}")));
        }
        if request.in_position
            && pos.piece_at(sq) != Some(rulebook::engine::Piece { side: who, kind })
        {
            return Err(Failure(format!(
                "no {} of {} on {at} in this position",
                t.variant().piece(kind).name,
                t.variant().side(who).name
            )));
        }
        placed.push((sq, rulebook::engine::Piece { side: who, kind }));
    }
    let squares: Vec<_> = placed.iter().map(|&(sq, _)| sq).collect();
    let (shown, mode) = if request.in_position {
        (pos.clone(), DiagramMode::InPosition)
    } else {
        (pos.only(&placed), DiagramMode::Alone)
    };
    match format {
        Format::Text => print!("{}", move_diagram(&shown, &squares, mode)),
        Format::Plain => print!("{}", plain_diagram(&shown, &squares, mode)),
        Format::Svg => print!("{}", move_diagram_svg(&shown, &squares, mode)),
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&diagram_info(&shown, &squares, mode))?
        ),
    }
    Ok(ExitCode::SUCCESS)
}

/// `replay`: every ply in both notations, then the result.
fn replay(pos: &Position, game: &str) -> Result<ExitCode, Failure> {
    let record = if game == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)?;
        s
    } else {
        read(Path::new(game))?
    };
    let r = record::replay(pos, &record)?;
    let mut p = pos.clone();
    for ply in &r.plies {
        println!("{}", ply_line(&p, &ply.san, &ply.coord));
        p.play(ply.mv);
    }
    match &r.outcome {
        Some(o) => println!("result: {}", record::describe(&r.position, o)),
        None => println!(
            "result: the game goes on, {} to move",
            r.position
                .tables()
                .variant()
                .side(r.position.side_to_move())
                .name
        ),
    }
    Ok(ExitCode::SUCCESS)
}

/// A usage error on one line: its first paragraph joined, and where to read more.
fn one_line(rendered: &str) -> String {
    let first: Vec<&str> = rendered
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    format!("{} (see --help)", first.join(" "))
}

/// The side named `name`: a side's name, `first`/`second` (and `white`/`black` where no side
/// has that name, in a two-sided game), or `none`.
fn side_named(pos: &Position, name: &str) -> Result<Option<Side>, Failure> {
    let sides = pos.tables().variant().sides();
    if let Some(i) = sides.iter().position(|s| s.name == name) {
        return Ok(Side::from_index(i));
    }
    match name {
        "none" => Ok(None),
        "first" => Ok(Some(Side::FIRST)),
        "second" => Ok(Some(Side::SECOND)),
        "white" if sides.len() == 2 => Ok(Some(Side::FIRST)),
        "black" if sides.len() == 2 => Ok(Some(Side::SECOND)),
        _ => {
            let names: Vec<&str> = sides.iter().map(|s| s.name.as_str()).collect();
            Err(Failure(format!(
                "no side `{name}`: use {}, `first`, `second`, or `none`",
                names.join(", ")
            )))
        }
    }
}

/// The terminal game: the board after every move, moves read in any notation, the engine's
/// replies, and the result.
/// The definition and options of an engine protocol, checked before the GUI is answered.
fn engine_setup(
    file: &Path,
    options: &[String],
) -> Result<(Variant, Vec<(String, bool)>), Failure> {
    let variant = load(file)?;
    let options = parse_options(options)?;
    Tables::compile(&variant, &options)?;
    Ok((variant, options))
}

/// Standard output as a protocol's reply channel.
fn stdout_replies() -> rulebook::protocol::Out {
    std::sync::Arc::new(std::sync::Mutex::new(Box::new(std::io::stdout())))
}

/// Past these, a self-play run would take days or exhaust memory.
const MAX_GAMES: usize = 1_000_000;
const MAX_SELF_PLAY_DEPTH: u32 = 20;

fn self_play_limits(games: usize, depth: u32, flag: &str) -> Result<(), Failure> {
    if !(1..=MAX_GAMES).contains(&games) {
        return Err(Failure(format!(
            "{flag} must be between 1 and {MAX_GAMES} games"
        )));
    }
    if !(1..=MAX_SELF_PLAY_DEPTH).contains(&depth) {
        return Err(Failure(format!(
            "--depth must be between 1 and {MAX_SELF_PLAY_DEPTH}"
        )));
    }
    Ok(())
}

fn tune(
    file: &Path,
    games: usize,
    depth: u32,
    seed: u64,
    options: Vec<String>,
) -> Result<ExitCode, Failure> {
    self_play_limits(games, depth, "--games")?;
    let pos = start_position(file, options)?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut found =
        rulebook::engine::tune::tune(&pos, games, depth, seed, threads).map_err(Failure)?;
    let [first, second, drawn] = found.results;
    let summary = format!(
        "{games} games of self-play at depth {depth} from seed {seed}: {first} won by the \
         first side, {second} by the second, {drawn} drawn or unfinished; {} quiet positions; \
         log loss of held-out games {:.4} by the evaluation alone, {:.4} with the tables \
         ({})",
        found.positions,
        found.held_out.0,
        found.held_out.1,
        match found.ridge {
            Some(r) => format!("squares' own shares at ridge {r}"),
            None => "ranks and files only".into(),
        }
    );
    eprintln!("{summary}");
    found.tables.learned = summary;
    print!("{}", found.tables.write(pos.tables().variant()));
    Ok(ExitCode::SUCCESS)
}

/// `rulebook values`: estimated piece values, from mobility or from `self_play` (games, depth).
fn values(
    file: &Path,
    samples: usize,
    self_play: Option<(usize, u32)>,
    seed: u64,
    options: Vec<String>,
) -> Result<ExitCode, Failure> {
    if samples == 0 {
        return Err(Failure("--samples must be at least 1".into()));
    }
    let pos = start_position(file, options)?;
    if let Some((games, depth)) = self_play {
        self_play_limits(games, depth, "--self-play")?;
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let found =
            rulebook::engine::learn::learn(&pos, games, depth, seed, threads).map_err(Failure)?;
        print!("{}", rulebook::engine::learn::table(&pos, &found));
        return Ok(ExitCode::SUCCESS);
    }
    let found = rulebook::engine::values::estimate(&pos, samples, seed);
    print!("{}", rulebook::engine::values::table(&pos, &found));
    Ok(ExitCode::SUCCESS)
}

fn bench(files: &[PathBuf], perft_depth: u32, search_depth: u32) -> Result<ExitCode, Failure> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("definitions");
    let files: Vec<PathBuf> = if files.is_empty() {
        ["chess", "xiangqi", "shogi"]
            .iter()
            .map(|n| root.join(format!("{n}.variant")))
            .collect()
    } else {
        files.to_vec()
    };
    let (mut perft_nodes, mut perft_time) = (0u64, 0f64);
    let (mut search_nodes, mut search_time) = (0u64, 0f64);
    let bar = progress("bench", 2 * files.len() as u64);
    for file in &files {
        let pos = position(
            file,
            &PositionArgs {
                fen: None,
                moves: None,
                options: Vec::new(),
            },
        )?;
        let name = file.file_stem().map_or("?".into(), |s| s.to_string_lossy());
        let mut p = pos.clone();
        let t = Instant::now();
        let n = perft(&mut p, perft_depth);
        let secs = t.elapsed().as_secs_f64();
        perft_nodes += n;
        perft_time += secs;
        bar.inc(1);
        bar.suspend(|| {
            println!(
                "{name:<12} perft {perft_depth}: {n:>12} nodes {secs:>8.3} s {:>12.0} nodes/s",
                n as f64 / secs.max(1e-9)
            )
        });
        let mut engine = search::Engine::new(&pos, 16);
        let limits = search::Limits {
            depth: Some(search_depth),
            ..Default::default()
        };
        let t = Instant::now();
        let (best, last) = engine.search(&pos, &limits, &mut |_| {});
        let secs = t.elapsed().as_secs_f64();
        search_nodes += last.nodes;
        search_time += secs;
        bar.inc(1);
        bar.suspend(|| {
            println!(
                "{name:<12} search {search_depth}: {:>11} nodes {secs:>8.3} s {:>12.0} nodes/s  best {}",
                last.nodes,
                last.nodes as f64 / secs.max(1e-9),
                best.map_or("-".into(), |m| notation::coord(&pos, &m))
            )
        });
    }
    bar.finish_and_clear();
    println!(
        "total perft: {perft_nodes} nodes {perft_time:.3} s {:.0} nodes/s",
        perft_nodes as f64 / perft_time.max(1e-9)
    );
    println!(
        "total search: {search_nodes} nodes {search_time:.3} s {:.0} nodes/s",
        search_nodes as f64 / search_time.max(1e-9)
    );
    Ok(ExitCode::SUCCESS)
}

fn play(mut pos: Position, computer: &str, depth: u32) -> Result<ExitCode, Failure> {
    let engine: Vec<Side> = match computer {
        "all" => Side::all(pos.tables().sides()).collect(),
        list => {
            let mut sides = Vec::new();
            for name in list.split(',').map(str::trim) {
                sides.extend(side_named(&pos, name)?);
            }
            sides
        }
    };
    // More than two sides: the paranoid search of the full engine, to the same depth.
    let mut full = (pos.tables().sides() > 2).then(|| search::Engine::new(&pos, 16));
    let stdin = std::io::stdin();
    let mut history: Vec<String> = Vec::new();
    let style = TextStyle {
        colour: anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never,
    };
    let share = if pos.tables().rules().shared_victory {
        ", `share` (offer the last other player in the running to share the victory)"
    } else {
        ""
    };
    println!(
        "commands: a move ({}), `moves`, `undo`, `fen`{share}, `quit`",
        move_examples(&pos)
    );
    loop {
        let name = pos.tables().variant().side(pos.side_to_move()).name.clone();
        if let Some(o) = pos.outcome() {
            print!("{}", position_text(&pos, style));
            println!("result: {}", record::describe(&pos, &o));
            return Ok(ExitCode::SUCCESS);
        }
        if engine.contains(&pos.side_to_move()) {
            let best = match &mut full {
                Some(e) => {
                    let limits = search::Limits {
                        depth: Some(depth),
                        nodes: Some(2_000_000),
                        ..Default::default()
                    };
                    e.search(&pos, &limits, &mut |_| {}).0
                }
                None => search::best_move(&pos, depth, 2_000_000).best,
            };
            let Some(m) = best else {
                return Err(Failure("the engine found no move".into()));
            };
            let text = notation::san(&pos, &m);
            println!("{} {} plays {}", ply_number(&pos), name, text);
            pos.play(m);
            history.push(text);
            continue;
        }
        print!("{}", position_text(&pos, style));
        let players = rulebook::render::players(&pos);
        if !players.is_empty() {
            let labels: Vec<String> = players.iter().map(|p| p.label()).collect();
            println!("players: {}", labels.join("; "));
        }
        println!(
            "{} {} to move{}",
            ply_number(&pos),
            name,
            if pos.in_check() { " (check)" } else { "" }
        );
        let mut line = String::new();
        if stdin.read_line(&mut line)? == 0 {
            return Ok(ExitCode::SUCCESS);
        }
        match line.trim() {
            "" => {}
            "quit" | "exit" => return Ok(ExitCode::SUCCESS),
            "fen" => println!("{}", pos.fen()),
            "share" => {
                if let Some(o) = offer_to_share(&pos, &engine, &stdin)? {
                    print!("{}", position_text(&pos, style));
                    println!("result: {}", record::describe(&pos, &o));
                    return Ok(ExitCode::SUCCESS);
                }
            }
            "moves" => {
                let list: Vec<String> = pos
                    .legal_moves()
                    .iter()
                    .map(|m| notation::san(&pos, m))
                    .collect();
                print!("{}", wrapped(&list, terminal_width()));
            }
            "undo" => {
                // Take back the engine's replies too, so that it is a person's turn again.
                while !history.is_empty() {
                    pos.undo_move();
                    history.pop();
                    if !engine.contains(&pos.side_to_move()) {
                        break;
                    }
                }
            }
            text => match notation::parse_move(&pos, text) {
                Ok(m) => {
                    history.push(notation::san(&pos, &m));
                    pos.play(m);
                }
                Err(notation::ParseMoveError::Illegal { why, .. }) => println!(
                    "`{text}` cannot be played: {}",
                    record::why_not_legal(&pos, text, &why)
                ),
                Err(e) => println!("{e} (try `moves`: {})", move_examples(&pos)),
            },
        }
    }
}

/// `share` in `play`: the side to move offers the other player still in the running to share
/// the victory; a person answers `accept` (anything else plays on), the engine plays on.
/// Returns the shared result when accepted.
fn offer_to_share(
    pos: &Position,
    engine: &[Side],
    stdin: &std::io::Stdin,
) -> Result<Option<rulebook::engine::Outcome>, Failure> {
    let v = pos.tables().variant();
    let me = pos.side_to_move();
    let Some((a, b)) = pos.may_share_victory().filter(|&(a, b)| me == a || me == b) else {
        let why = if pos.tables().rules().shared_victory {
            "only one of the last two players in the running may offer, and only then"
        } else {
            "this game has no shared victory"
        };
        println!("no offer to share the victory: {why}");
        return Ok(None);
    };
    let other = if me == a { b } else { a };
    let (mine, theirs) = (&v.side(me).name, &v.side(other).name);
    if engine.contains(&other) {
        println!("{theirs} declines to share the victory with {mine} and plays on");
        return Ok(None);
    }
    println!("{theirs}: share the victory with {mine}? (`accept`, or anything else to play on)");
    let mut line = String::new();
    stdin.read_line(&mut line)?;
    if line.trim() != "accept" {
        println!("{theirs} plays on");
        return Ok(None);
    }
    Ok(Some(rulebook::engine::Outcome::shared(
        me,
        other,
        pos.tables().sides(),
    )))
}

/// Moves of this position as examples of what `play` reads: one in coordinate and one in
/// algebraic notation, and a drop where one is legal.
fn move_examples(pos: &Position) -> String {
    let legal = pos.legal_moves();
    let mut out = Vec::new();
    if let Some(m) = legal.iter().find(|m| !m.is_drop()) {
        out.push(notation::coord(pos, m));
        out.push(notation::san(pos, m));
    }
    if let Some(m) = legal.iter().find(|m| m.is_drop()) {
        out.push(notation::coord(pos, m));
    }
    out.dedup();
    if out.is_empty() {
        "none is legal here".to_string()
    } else {
        out.join(", ")
    }
}

/// The width of the terminal, or 80 when the output is not one.
fn terminal_width() -> usize {
    terminal_size::terminal_size().map_or(80, |(w, _)| usize::from(w.0).max(20))
}

/// Words joined by spaces, in lines no wider than `width` (a word is never broken).
fn wrapped(words: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(w);
    }
    if !line.is_empty() || out.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// `12.` or `12...` for the side to move.
fn ply_number(pos: &Position) -> String {
    let dots = if pos.side_to_move().index() == 0 {
        "."
    } else {
        "..."
    };
    format!("{}{}", pos.fullmove_number(), dots)
}

/// One replayed ply: `12... Hxe4 (e6e4)`, numbered from the position's move number.
fn ply_line(pos: &Position, san: &str, coord: &str) -> String {
    let dots = if pos.side_to_move().index() == 0 {
        "."
    } else {
        "..."
    };
    format!("{}{} {} ({})", pos.fullmove_number(), dots, san, coord)
}

/// Lets a closed standard output end the program quietly, as it ends other command-line
/// tools (`rulebook moves ... | head`): Rust ignores SIGPIPE, so `print!` would panic.
#[cfg(unix)]
fn quiet_on_closed_pipe() {
    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    const SIGPIPE: i32 = 13;
    const SIG_DFL: usize = 0;
    // SAFETY: restores the default disposition of one signal before any thread starts.
    unsafe {
        signal(SIGPIPE, SIG_DFL);
    }
}

#[cfg(not(unix))]
fn quiet_on_closed_pipe() {}

fn main() -> ExitCode {
    quiet_on_closed_pipe();
    // `check --deep` catches panics and reports them with the moves that lead there.
    if std::env::args().any(|a| a == "--deep") {
        std::panic::set_hook(Box::new(|_| {}));
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // `rulebook` alone: the help is the most useful answer.
            let _ = e.print();
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("{}", one_line(&e.render().to_string()));
            return ExitCode::from(2);
        }
    };
    let json = matches!(
        cli.command,
        Command::Moves {
            format: MovesFormat::Json,
            ..
        } | Command::Diagram {
            format: Format::Json,
            ..
        }
    );
    JSON_ERRORS.set(json);
    match run(cli) {
        Ok(code) => code,
        Err(Failure(msg)) if json => {
            let report = FAILED_REPORT.take();
            println!("{}", serde_json::json!({"error": msg, "report": report}));
            ExitCode::from(2)
        }
        Err(Failure(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
