//! XBoard/CECP, protocol version 2. The engine announces its variant by the definition's name
//! and, on `new` or `variant`, sends the board size, holdings and start position with `setup`,
//! so that XBoard can play a game it does not know. Squares are XBoard's: on a board of
//! exactly ten ranks they are numbered from 0 (`h2e2` is Xiangqi's cannon move h3-e3), as
//! XBoard itself and Fairy-Stockfish number them; otherwise from 1. XBoard holds at most 16
//! files and 16 ranks: larger boards are refused.

use std::io::BufRead;
use std::time::Duration;

use super::{say, variant_slug, Out, Session};
use crate::engine::search::{Clock, Limits, Report, Score, Style};
use crate::engine::{notation, Move, Position};
use crate::model::{Geometry, Side, Verdict};

/// XBoard's own order of piece types, whose letters the `setup` command maps.
const XBOARD_PIECES: &str = "PNBRQFEACWMOHIJGDVLSUK";

/// Answers CECP commands from `input` until `quit` or its end.
pub fn run(
    variant: crate::model::Variant,
    options: Vec<(String, bool)>,
    input: impl BufRead,
    out: Out,
) -> Result<(), String> {
    let slug = variant_slug(&variant);
    let mut s = Session::new(variant, options)?;
    let g = s.start.tables().geometry();
    if g.width > 16 || g.height > 16 {
        return Err(format!(
            "XBoard holds at most 16 files and 16 ranks; this board has {} x {}",
            g.width, g.height
        ));
    }
    let mut x = State {
        force: false,
        engine_side: Some(Side(1)),
        post: false,
        clock: None,
        moves_per_session: 0,
        increment: Duration::ZERO,
        fixed_time: None,
        depth: None,
    };
    for line in input.lines() {
        let Ok(line) = line else { break };
        let line = line.trim();
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match cmd {
            "" | "xboard" | "accepted" | "rejected" | "random" | "hard" | "easy" | "computer"
            | "name" | "rating" | "ics" | "draw" | "hint" | "bk" | "otim" | "white" | "black" => {}
            "nopost" => x.post = false,
            "post" => x.post = true,
            "protover" => {
                say(
                    &out,
                    &format!(
                        "feature ping=1 setboard=1 usermove=1 time=1 draw=0 sigint=0 sigterm=0 \
                         reuse=1 analyze=0 colors=0 name=0 memory=0 smp=0 \
                         myname=\"Rulebook {}\" variants=\"{slug}\" \
                         option=\"Engine -combo *full /// basic\"",
                        env!("CARGO_PKG_VERSION")
                    ),
                );
                say(&out, "feature done=1");
            }
            "new" => {
                s.halt();
                s.pos = s.start.clone();
                s.engine.lock().expect("engine lock").clear();
                x.force = false;
                x.engine_side = Some(s.pos.next_side(s.pos.side_to_move()));
                x.depth = None;
                send_setup(&s, &out);
            }
            "variant" => {
                if rest != slug {
                    say(&out, &format!("Error (unknown variant): {rest}"));
                } else {
                    send_setup(&s, &out);
                }
            }
            "force" => {
                s.halt();
                x.force = true;
            }
            "go" => {
                s.halt();
                x.force = false;
                x.engine_side = Some(s.pos.side_to_move());
                think(&mut s, &mut x, &out);
            }
            "playother" => {
                s.halt();
                x.force = false;
                x.engine_side = Some(s.pos.next_side(s.pos.side_to_move()));
            }
            "usermove" => user_move(&mut s, &mut x, rest, &out),
            "?" => s.halt(),
            "undo" | "remove" => {
                s.halt();
                let n = if cmd == "undo" { 1 } else { 2 };
                for _ in 0..n {
                    if s.pos.ply() > 0 {
                        s.pos.undo_move();
                    }
                }
            }
            "setboard" => {
                s.halt();
                match s.start.with_fen(&from_xboard(g, rest)) {
                    Ok(p) => s.pos = p,
                    Err(e) => say(&out, &format!("tellusererror Illegal position: {e}")),
                }
            }
            "time" => {
                x.clock = rest
                    .parse::<u64>()
                    .ok()
                    .map(|cs| Duration::from_millis(cs * 10))
            }
            "level" => {
                // level MPS BASE INC, BASE in minutes or minutes:seconds.
                let f: Vec<&str> = rest.split_whitespace().collect();
                if let [mps, _base, inc] = f.as_slice() {
                    x.moves_per_session = mps.parse().unwrap_or(0);
                    let inc: f64 = inc.parse().unwrap_or(0.0);
                    x.increment = Duration::from_secs_f64(inc.max(0.0));
                    x.fixed_time = None;
                }
            }
            "st" => {
                x.fixed_time = rest
                    .parse::<f64>()
                    .ok()
                    .map(|t| Duration::from_secs_f64(t.max(0.0)))
            }
            "sd" => x.depth = rest.parse().ok(),
            "ping" => {
                s.wait();
                say(&out, &format!("pong {rest}"));
            }
            "result" => {
                s.halt();
                x.force = true;
            }
            "option" => match rest.split_once('=') {
                Some(("Engine", "full")) => s.set_style(Style::Full),
                Some(("Engine", "basic")) => s.set_style(Style::Basic),
                _ => say(&out, &format!("Error (unknown option): {rest}")),
            },
            "quit" => break,
            _ => {
                // Protocol 1 sends moves bare.
                if parse_move(&s.pos, line).is_some() {
                    user_move(&mut s, &mut x, line, &out);
                } else {
                    say(&out, &format!("Error (unknown command): {line}"));
                }
            }
        }
    }
    s.halt();
    Ok(())
}

struct State {
    force: bool,
    engine_side: Option<Side>,
    post: bool,
    clock: Option<Duration>,
    moves_per_session: u32,
    increment: Duration,
    fixed_time: Option<Duration>,
    depth: Option<u32>,
}

/// `setup (PIECES) WxH+HOLDINGS_fairy FEN`: the board, the pieces' letters in XBoard's order
/// of piece types, and the start position.
fn send_setup(s: &Session, out: &Out) {
    let t = s.start.tables();
    let g = t.geometry();
    let mut slots: Vec<char> = vec!['.'; XBOARD_PIECES.len()];
    let mut spare: Vec<char> = Vec::new();
    let mut letters: Vec<char> = Vec::new();
    for def in t.variant().pieces() {
        let mut chars = def.letter.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            letters.push(c.to_ascii_uppercase());
        }
    }
    for &c in &letters {
        if let Some(i) = XBOARD_PIECES.find(c) {
            slots[i] = c;
        } else {
            spare.push(c);
        }
    }
    for c in spare {
        // A letter XBoard has no piece type for takes a free slot before the king's.
        if let Some(i) = slots[..slots.len() - 1].iter().position(|&x| x == '.') {
            slots[i] = c;
        }
    }
    let white: String = slots.iter().collect();
    let black = white.to_ascii_lowercase();
    let holdings = if t.rules().captures_to_hand || !t.setup_hand().is_empty() {
        letters.len()
    } else {
        0
    };
    let fen = s.start.fen();
    say(
        out,
        &format!(
            "setup ({white}{black}) {}x{}+{holdings}_fairy {fen}",
            g.width, g.height
        ),
    );
}

fn user_move(s: &mut Session, x: &mut State, text: &str, out: &Out) {
    s.halt();
    let Some(m) = parse_move(&s.pos, text) else {
        say(out, &format!("Illegal move: {text}"));
        return;
    };
    s.pos.play(m);
    if let Some(line) = game_over(&s.pos) {
        say(out, &line);
        return;
    }
    if !x.force && x.engine_side == Some(s.pos.side_to_move()) {
        think(s, x, out);
    }
}

/// Reads a move in XBoard's squares, checked against the legal moves.
fn parse_move(pos: &Position, text: &str) -> Option<Move> {
    let g = pos.tables().geometry();
    let ours = from_xboard(g, text);
    let m = notation::parse_coord(pos, &ours).ok()?;
    pos.legal_moves().contains(&m).then_some(m)
}

/// The game's result line (`1-0 {...}`), if the game is over.
fn game_over(pos: &Position) -> Option<String> {
    let o = pos.outcome()?;
    let score = if o.is_draw() {
        "1/2-1/2"
    } else if o.result(Side(0)) == Verdict::Win {
        "1-0"
    } else {
        "0-1"
    };
    Some(format!("{score} {{{}}}", o.reason))
}

fn think(s: &mut Session, x: &mut State, out: &Out) {
    if s.pos.outcome().is_some() {
        return;
    }
    let mut limits = Limits {
        depth: x.depth,
        ..Default::default()
    };
    if let Some(t) = x.fixed_time {
        limits.movetime = Some(t);
    } else if let Some(time) = x.clock {
        let played = s.pos.fullmove_number().saturating_sub(1);
        let moves_to_go =
            (x.moves_per_session > 0).then(|| x.moves_per_session - played % x.moves_per_session);
        limits.clock = Some(Clock {
            time,
            increment: x.increment,
            moves_to_go,
        });
    } else if x.depth.is_none() {
        limits.movetime = Some(Duration::from_secs(5));
    }
    // The search runs here: XBoard waits for the move, and commands sent meanwhile are read
    // after it (`?` has nothing to interrupt but a search within its time).
    let post = x.post;
    let pos = s.pos.clone();
    let (best, _) = {
        let mut e = s.engine.lock().expect("engine lock");
        e.search(&pos, &limits, &mut |r| {
            if post {
                say(out, &thinking_line(&pos, r));
            }
        })
    };
    if let Some(m) = best {
        let g = pos.tables().geometry();
        say(
            out,
            &format!("move {}", to_xboard(g, &notation::coord(&pos, &m))),
        );
        s.pos.play(m);
        if let Some(line) = game_over(&s.pos) {
            say(out, &line);
        }
    }
}

/// `DEPTH SCORE TIME NODES PV`, time in centiseconds, as XBoard reads thinking output.
fn thinking_line(pos: &Position, r: &Report) -> String {
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
        pv.push_str(&to_xboard(g, &notation::coord(&p, m)));
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
fn map_squares(text: &str, f: impl Fn(&str) -> String) -> String {
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

/// Whether XBoard numbers this board's ranks from 0.
fn zero_based(g: Geometry) -> bool {
    g.height == 10
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
