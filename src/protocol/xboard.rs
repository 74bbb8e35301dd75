//! XBoard/CECP, protocol version 2. The engine announces its variant by the definition's name
//! and, on `new` or `variant`, sends the board size, holdings and start position with `setup`,
//! so that XBoard can play a game it does not know. Squares are XBoard's: on a board of
//! exactly ten ranks they are numbered from 0 (`h2e2` is Xiangqi's cannon move h3-e3), as
//! XBoard itself and Fairy-Stockfish number them; otherwise from 1. XBoard holds at most 16
//! files and 16 ranks: larger boards are refused.
//!
//! On sixteen ranks XBoard reads a move from the sixteenth rank as a drop (it keeps a rank as
//! one character, `'1' + rank - 1`, and the sixteenth is `@`, its drop mark): such boards are
//! numbered from 0 too, which XBoard does when started with `-rankOffset 1`. Moves that show
//! XBoard counting from 1 there (a sixteenth rank, a drop in a game without drops, a move
//! legal only one rank lower) are answered with a `tellusererror` that says so.

use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::xboard_pieces::PieceMap;
use super::{say, variant_name, Out, Session};
use crate::engine::search::{Clock, Limits, Report, Score, Style};
use crate::engine::{Move, Position, Reason};
use crate::model::{Geometry, Side, Verdict};

/// Answers CECP commands from `input` until `quit` or its end.
///
/// Input is read on its own thread, so that commands reach the engine while it thinks: `?`
/// makes it move at once; `force`, `new`, `undo` and the like stop the search and drop its
/// move; `ping` while thinking is answered after the move, and what follows it waits for the
/// move too, as the protocol orders. At the end of the input a running search is finished.
pub fn run(
    variant: crate::model::Variant,
    options: Vec<(String, bool)>,
    input: impl BufRead + Send + 'static,
    out: Out,
) -> Result<(), String> {
    let slug = variant_name(&variant, crate::model::Protocol::XBoard);
    let s = Session::new(variant, options)?;
    let g = s.start.tables().geometry();
    if g.width > 16 || g.height > 16 {
        return Err(format!(
            "XBoard holds at most 16 files and 16 ranks; this board has {} x {}",
            g.width, g.height
        ));
    }
    let (tx, rx) = mpsc::channel();
    let lines = tx.clone();
    std::thread::spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if lines.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = lines.send(Event::End);
    });
    let pieces = Arc::new(PieceMap::new(&s.start, &slug));
    let mut x = Cecp {
        s,
        out,
        slug,
        pieces,
        tx,
        force: false,
        engine_side: Some(Side::SECOND),
        post: false,
        clock: None,
        moves_per_session: 0,
        increment: Duration::ZERO,
        fixed_time: None,
        depth: None,
        searching: None,
        generation: 0,
        result: Arc::default(),
        pongs: Vec::new(),
        queue: VecDeque::new(),
        told_rank_offset: false,
        against_engine: false,
    };
    let mut ended = false;
    loop {
        let event = match x.queue.pop_front() {
            Some(line) if x.searching.is_none() => Event::Line(line),
            Some(line) => {
                x.queue.push_front(line);
                rx.recv().map_err(|e| e.to_string())?
            }
            None if ended && x.searching.is_none() => break,
            None => rx.recv().map_err(|e| e.to_string())?,
        };
        match event {
            Event::Line(line) => {
                if !x.line(line.trim()) {
                    break;
                }
            }
            Event::Moved => x.moved(),
            Event::End => ended = true,
        }
    }
    x.s.halt();
    Ok(())
}

/// A search's number and its move (`None` without a legal one).
type Finished = (u64, Option<Move>);

enum Event {
    Line(String),
    /// A search ended; its move waits in [`Cecp::result`].
    Moved,
    End,
}

/// A CECP session: the game, the engine, and what XBoard has set.
struct Cecp {
    s: Session,
    out: Out,
    slug: String,
    /// The pieces in XBoard's terms.
    pieces: Arc<PieceMap>,
    tx: Sender<Event>,
    force: bool,
    engine_side: Option<Side>,
    post: bool,
    clock: Option<Duration>,
    moves_per_session: u32,
    increment: Duration,
    fixed_time: Option<Duration>,
    depth: Option<u32>,
    /// The search whose move is wanted, if one runs.
    searching: Option<u64>,
    generation: u64,
    /// Where a search leaves its move, with the search's number.
    result: Arc<Mutex<Option<Finished>>>,
    /// `ping`s received while thinking, answered after the move.
    pongs: Vec<String>,
    /// Lines received after such a `ping`, read after the move.
    queue: VecDeque<String>,
    /// Whether XBoard has been told, this game, to number a sixteen-rank board from 0.
    told_rank_offset: bool,
    /// Whether the opponent is an engine (XBoard sent `computer` this game): XBoard then tests
    /// claims against its own rules.
    against_engine: bool,
}

impl Cecp {
    fn say(&self, line: &str) {
        say(&self.out, line);
    }

    /// Handles one line; `false` on `quit`.
    fn line(&mut self, line: &str) -> bool {
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        if self.searching.is_some() {
            match cmd {
                "?" => {
                    self.s.halt();
                    self.moved();
                    return true;
                }
                // The GUI is closing: nothing it queued behind a `ping` matters any more.
                "quit" => return false,
                _ if !self.pongs.is_empty() => {
                    self.queue.push_back(line.to_string());
                    return true;
                }
                "ping" => {
                    self.pongs.push(rest.to_string());
                    return true;
                }
                "force" | "new" | "result" | "undo" | "remove" | "setboard" | "variant" | "go"
                | "playother" | "usermove" | "white" | "black" | "option" => {
                    self.searching = None;
                    self.s.halt();
                }
                "time" | "otim" | "post" | "nopost" | "level" | "st" | "sd" | "easy" | "hard"
                | "random" | "computer" | "name" | "rating" | "ics" | "accepted" | "rejected"
                | "draw" | "hint" | "bk" | "" => {}
                // A move in protocol 1's bare form.
                _ => {
                    self.searching = None;
                    self.s.halt();
                }
            }
        }
        match cmd {
            "" | "xboard" | "accepted" | "rejected" | "random" | "hard" | "easy" | "name"
            | "rating" | "ics" | "draw" | "hint" | "bk" | "otim" | "white" | "black" => {}
            "computer" => self.against_engine = true,
            "nopost" => self.post = false,
            "post" => self.post = true,
            "protover" => {
                self.say(&format!(
                    "feature ping=1 setboard=1 usermove=1 time=1 draw=0 sigint=0 sigterm=0 \
                     reuse=1 analyze=0 colors=0 name=0 memory=0 smp=0 \
                     myname=\"Rulebook {}\" variants=\"{}\" \
                     option=\"Engine -combo *full /// basic\"",
                    env!("CARGO_PKG_VERSION"),
                    self.slug
                ));
                self.say("feature done=1");
            }
            "new" => {
                self.s.pos = self.s.start.clone();
                self.s.engine.lock().expect("engine lock").clear();
                self.force = false;
                self.engine_side = Some(self.s.pos.next_side(self.s.pos.side_to_move()));
                self.depth = None;
                self.told_rank_offset = false;
                self.against_engine = false;
                self.send_setup();
            }
            "variant" => {
                if rest != self.slug {
                    self.say(&format!("Error (unknown variant): {rest}"));
                } else {
                    self.send_setup();
                }
            }
            "force" => self.force = true,
            "go" => {
                self.force = false;
                self.engine_side = Some(self.s.pos.side_to_move());
                self.think();
            }
            "playother" => {
                self.force = false;
                self.engine_side = Some(self.s.pos.next_side(self.s.pos.side_to_move()));
            }
            "usermove" => self.user_move(rest),
            "?" => {}
            "undo" | "remove" => {
                let n = if cmd == "undo" { 1 } else { 2 };
                for _ in 0..n {
                    if self.s.pos.ply() > 0 {
                        self.s.pos.undo_move();
                    }
                }
            }
            "setboard" => match self
                .s
                .start
                .with_fen(&self.pieces.fen_in(self.s.start.tables(), rest))
            {
                Ok(p) => self.s.pos = p,
                Err(e) => self.say(&format!("tellusererror Illegal position: {e}")),
            },
            "time" => {
                self.clock = rest
                    .parse::<u64>()
                    .ok()
                    .map(|cs| Duration::from_millis(cs.saturating_mul(10)))
            }
            "level" => {
                // level MPS BASE INC, BASE in minutes or minutes:seconds.
                let f: Vec<&str> = rest.split_whitespace().collect();
                if let [mps, _base, inc] = f.as_slice() {
                    self.moves_per_session = mps.parse().unwrap_or(0);
                    self.increment = seconds(inc).unwrap_or(Duration::ZERO);
                    self.fixed_time = None;
                }
            }
            "st" => self.fixed_time = seconds(rest),
            "sd" => self.depth = rest.parse().ok(),
            "ping" => self.say(&format!("pong {rest}")),
            "result" => self.force = true,
            "option" => match rest.split_once('=') {
                Some(("Engine", "full")) => self.s.set_style(Style::Full),
                Some(("Engine", "basic")) => self.s.set_style(Style::Basic),
                _ => self.say(&format!("Error (unknown option): {rest}")),
            },
            "quit" => return false,
            _ => {
                // Protocol 1 sends moves bare.
                if self.parse_move(line).is_some() {
                    self.user_move(line);
                } else {
                    self.say(&format!("Error (unknown command): {line}"));
                }
            }
        }
        true
    }

    /// Tells XBoard the board, the start position and the pieces' moves.
    fn send_setup(&self) {
        for line in self.pieces.setup(&self.s.start) {
            self.say(&line);
        }
    }

    /// Reads a move in XBoard's squares and letters, checked against the legal moves.
    fn parse_move(&self, text: &str) -> Option<Move> {
        let g = self.s.pos.tables().geometry();
        self.pieces.parse(&self.s.pos, &from_xboard(g, text))
    }

    fn user_move(&mut self, text: &str) {
        if self.s.pos.outcome().is_some() && !self.force {
            // The game is over, and the other side plays on: say how it ended.
            self.announce(false, true);
            return;
        }
        let Some(m) = self.parse_move(text) else {
            if self.counts_from_one(text) && !self.told_rank_offset {
                self.told_rank_offset = true;
                self.say(&format!(
                    "tellusererror XBoard numbers the ranks of this {}-rank board from 1 \
                     (it sent {text}); start it with -rankOffset 1",
                    self.s.pos.tables().geometry().height
                ));
            }
            self.say(&format!("Illegal move: {text}"));
            return;
        };
        self.s.pos.play(m);
        if self.s.pos.outcome().is_some() {
            if !self.force {
                self.announce(false, false);
            }
            return;
        }
        if !self.force && self.engine_side == Some(self.s.pos.side_to_move()) {
            self.think();
        }
    }

    /// Whether a move Rulebook cannot read shows XBoard numbering the ranks of a board it
    /// should number from 0 (sixteen ranks) from 1: it names the sixteenth rank, drops in a
    /// game without drops, or is legal read one rank lower.
    fn counts_from_one(&self, text: &str) -> bool {
        let g = self.s.pos.tables().geometry();
        if g.height != 16 {
            return false;
        }
        let mut high = false;
        let lower = map_squares(text, |sq| {
            let rank: u32 = sq[1..].parse().unwrap_or(0);
            high |= rank >= 16;
            format!("{}{}", &sq[..1], rank.saturating_sub(1))
        });
        let drop = text.contains('@') && !self.s.pos.tables().rules().drops;
        high || drop || self.parse_move(&lower).is_some()
    }

    /// Starts a search under XBoard's limits; its move comes back as an event.
    fn think(&mut self) {
        if self.s.pos.outcome().is_some() {
            self.announce(false, true);
            return;
        }
        let mut limits = Limits {
            depth: self.depth,
            ..Default::default()
        };
        if let Some(t) = self.fixed_time {
            // XBoard's clock counts the exact time per move, pipes and all: aim short of it.
            let margin = (t / 10).max(Duration::from_millis(30));
            limits.movetime = Some(t.saturating_sub(margin).max(Duration::from_millis(10)));
        } else if let Some(time) = self.clock {
            let played = self.s.pos.fullmove_number().saturating_sub(1);
            let mps = self.moves_per_session;
            let moves_to_go = (mps > 0).then(|| mps - played % mps);
            limits.clock = Some(Clock {
                time,
                increment: self.increment,
                moves_to_go,
            });
        } else if self.depth.is_none() {
            limits.movetime = Some(Duration::from_secs(5));
        }
        self.generation += 1;
        let generation = self.generation;
        self.searching = Some(generation);
        let post = self.post;
        let pos = self.s.pos.clone();
        let out = Arc::clone(&self.out);
        let tx = self.tx.clone();
        let result = Arc::clone(&self.result);
        let pieces = Arc::clone(&self.pieces);
        self.s.think(
            limits,
            move |r| {
                if post {
                    say(&out, &thinking_line(&pieces, &pos, r));
                }
            },
            move |best, _| {
                *result.lock().expect("result lock") = Some((generation, best));
                let _ = tx.send(Event::Moved);
            },
        );
    }

    /// Plays the move of the search wanted, if it has ended; a dropped search's move is
    /// ignored.
    fn moved(&mut self) {
        let Some((generation, best)) = self.result.lock().expect("result lock").take() else {
            return;
        };
        if self.searching != Some(generation) {
            return;
        }
        self.searching = None;
        self.s.wait();
        if let Some(m) = best {
            let g = self.s.pos.tables().geometry();
            let text = to_xboard(g, &self.pieces.move_text(&self.s.pos, &m));
            self.say(&format!("move {text}"));
            self.s.pos.play(m);
            if self.s.pos.outcome().is_some() {
                self.announce(true, false);
            }
        }
        for n in std::mem::take(&mut self.pongs) {
            self.say(&format!("pong {n}"));
        }
    }
}

impl Cecp {
    /// Tells XBoard the game is over, in a way it accepts. Against a person XBoard takes any
    /// claim; against an engine it tests claims of a win or a draw by its own rules (with
    /// `-testClaims`, Debian's default), which for a game it learnt from `setup` only
    /// approximate the real ones (Betza cannot say palaces or borrowed moves), and scores one
    /// it finds false as a loss. So there the engine claims its own loss (always accepted),
    /// a draw only in a game XBoard knows and for a reason it sees (repetition, move limit,
    /// stalemate), and otherwise offers the draw, which the other side's offer makes agreed;
    /// its own win it leaves to the loser to claim, or to XBoard to see, unless the other
    /// side plays on (`insisted`): then it says the result.
    fn announce(&mut self, we_moved: bool, insisted: bool) {
        let Some(o) = self.s.pos.outcome() else {
            return;
        };
        let stm = self.s.pos.side_to_move();
        let us = if we_moved {
            self.s.pos.previous_side(stm)
        } else {
            stm
        };
        let score = if o.is_draw() {
            "1/2-1/2"
        } else if o.result(Side::FIRST) == Verdict::Win {
            "1-0"
        } else {
            "0-1"
        };
        let claim = format!("{score} {{{}}}", o.reason);
        let seen = self.pieces.game().is_some()
            && matches!(
                o.reason,
                Reason::Repetition | Reason::MoveLimit | Reason::Stalemate
            );
        let line = match o.result(us) {
            _ if !self.against_engine || insisted => claim,
            Verdict::Loss => claim,
            Verdict::Draw if seen => claim,
            Verdict::Draw => "offer draw".to_string(),
            Verdict::Win => return,
        };
        self.say(&line);
    }
}

/// `DEPTH SCORE TIME NODES PV`, time in centiseconds, as XBoard reads thinking output.
fn thinking_line(pieces: &PieceMap, pos: &Position, r: &Report) -> String {
    let score = match r.score {
        Score::Centipawns(cp) => cp,
        Score::Mate(n) if n > 0 => 100_000 + n,
        Score::Mate(n) => -100_000 + n,
    };
    let g = pos.tables().geometry();
    let mut p = pos.clone();
    let mut pv = String::new();
    for m in &r.pv {
        pv.push(' ');
        pv.push_str(&to_xboard(g, &pieces.move_text(&p, m)));
        p.play(*m);
    }
    format!(
        "{} {score} {} {}{pv}",
        r.depth,
        r.elapsed.as_millis() / 10,
        r.nodes
    )
}

/// Rewrites every square of a coordinate move (a letter and digits) by `f`.
fn map_squares(text: &str, mut f: impl FnMut(&str) -> String) -> String {
    let b = text.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_lowercase() && i + 1 < b.len() && b[i + 1].is_ascii_digit() {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            out.push_str(&f(&text[i..j]));
            i = j;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// Whether XBoard numbers this board's ranks from 0: on ten ranks it does so itself, and on
/// sixteen it must be told to (`-rankOffset 1`), as it cannot read a move from the sixteenth
/// rank numbered from 1.
fn zero_based(g: Geometry) -> bool {
    g.height == 10 || g.height == 16
}

/// Rulebook's coordinate move in XBoard's squares.
pub fn to_xboard(g: Geometry, text: &str) -> String {
    if !zero_based(g) {
        return text.to_string();
    }
    map_squares(text, |sq| {
        let rank: u32 = sq[1..].parse().unwrap_or(1);
        format!("{}{}", &sq[..1], rank.saturating_sub(1))
    })
}

/// Reads a move as XBoard writes it in the game that started at `start` (its squares, and
/// the piece letters XBoard is told for that game), as `usermove` reads it: `None` unless it
/// is legal in `pos`. For tools and tests that check what the engine says.
pub fn read_move(start: &Position, pos: &Position, text: &str) -> Option<Move> {
    let name = variant_name(start.tables().variant(), crate::model::Protocol::XBoard);
    PieceMap::new(start, &name).parse(pos, &from_xboard(pos.tables().geometry(), text))
}

/// A time in seconds as XBoard writes it (`st 0.5`, a `level` increment), if it is one: a
/// negative time is none, and one beyond a year is a year (no float can overflow the clock).
fn seconds(text: &str) -> Option<Duration> {
    const YEAR: f64 = 365.0 * 86_400.0;
    let t: f64 = text.trim().parse().ok()?;
    t.is_finite()
        .then(|| Duration::from_secs_f64(t.clamp(0.0, YEAR)))
}

/// XBoard's move (or FEN: its squares are left alone) in Rulebook's squares.
pub fn from_xboard(g: Geometry, text: &str) -> String {
    if !zero_based(g) || text.contains('/') {
        return text.to_string();
    }
    map_squares(text, |sq| {
        let rank: u32 = sq[1..].parse().unwrap_or(0);
        format!("{}{}", &sq[..1], rank + 1)
    })
}
