//! UCI, as Fairy-Stockfish speaks it: `UCI_Variant` names the definition, squares are
//! coordinate notation with ranks from 1 (multi-digit where needed: `h10`), drops `P@e5`, and
//! `go perft N` lists each move's count and ends with `Nodes searched: N`.

use std::io::BufRead;
use std::time::Duration;

use super::{say, variant_name, Out, Session};
use crate::engine::search::{Clock, Limits, Report, Score, Style};
use crate::engine::{notation, perft_divide, Position};
use crate::model::Variant;

/// Answers UCI commands from `input` until `quit` or its end.
pub fn run(variant: Variant, options: Vec<(String, bool)>, input: impl BufRead, out: Out) {
    let slug = variant_name(&variant, crate::model::Protocol::Uci);
    let mut s = match Session::new(variant, options) {
        Ok(s) => s,
        Err(e) => {
            say(&out, &format!("info string error: {e}"));
            return;
        }
    };
    for line in input.lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { continue };
        match cmd {
            "uci" => {
                say(
                    &out,
                    &format!("id name Rulebook {}", env!("CARGO_PKG_VERSION")),
                );
                say(&out, "id author the Rulebook authors");
                say(
                    &out,
                    &format!("option name UCI_Variant type combo default {slug} var {slug}"),
                );
                say(&out, "option name Hash type spin default 16 min 1 max 4096");
                say(
                    &out,
                    "option name Engine type combo default full var full var basic",
                );
                for o in s.variant.options() {
                    let on = s
                        .options
                        .iter()
                        .rev()
                        .find(|(n, _)| *n == o.name)
                        .map_or(o.default, |(_, v)| *v);
                    say(
                        &out,
                        &format!("option name {} type check default {on}", o.name),
                    );
                }
                say(&out, "uciok");
            }
            "isready" => say(&out, "readyok"),
            "ucinewgame" => {
                s.halt();
                s.engine.lock().expect("engine lock").clear();
                s.pos = s.start.clone();
            }
            "setoption" => set_option(&mut s, &words[1..], &slug, &out),
            "position" => {
                // A running search has its own copy of the position.
                if let Err(e) = set_position(&mut s, &words[1..]) {
                    say(&out, &format!("info string error: {e}"));
                }
            }
            "go" => go(&mut s, &words[1..], &out),
            "stop" => s.halt(),
            "d" => say(&out, &format!("Fen: {}", s.pos.fen())),
            "quit" => break,
            _ => say(&out, &format!("info string unknown command: {line}")),
        }
    }
    s.halt();
}

fn set_option(s: &mut Session, words: &[&str], slug: &str, out: &Out) {
    // setoption name NAME [value VALUE]; names may have spaces.
    let text = words.join(" ");
    let Some(rest) = text.strip_prefix("name ") else {
        say(out, "info string error: setoption needs `name`");
        return;
    };
    let (name, value) = match rest.split_once(" value ") {
        Some((n, v)) => (n.trim(), v.trim()),
        None => (rest.trim(), ""),
    };
    match name {
        "UCI_Variant" => {
            if value != slug {
                say(
                    out,
                    &format!("info string error: this engine plays `{slug}`, not `{value}`"),
                );
            }
        }
        "Hash" => match value.parse::<usize>() {
            Ok(mb) => s.set_hash(mb),
            Err(_) => say(
                out,
                &format!("info string error: Hash `{value}` is not a number"),
            ),
        },
        "Engine" => match value {
            "full" => s.set_style(Style::Full),
            "basic" => s.set_style(Style::Basic),
            _ => say(
                out,
                &format!("info string error: Engine is `full` or `basic`, not `{value}`"),
            ),
        },
        _ if s.variant.options().iter().any(|o| o.name == name) => {
            let on = matches!(value, "true" | "on" | "1" | "yes");
            s.options.retain(|(n, _)| n != name);
            s.options.push((name.to_string(), on));
            if let Err(e) = s.recompile() {
                say(out, &format!("info string error: {e}"));
            }
        }
        _ => say(out, &format!("info string error: no option `{name}`")),
    }
}

/// `position startpos|fen FEN... [moves M...]`.
fn set_position(s: &mut Session, words: &[&str]) -> Result<(), String> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let mut pos: Position = match setup.first() {
        Some(&"startpos") => s.start.clone(),
        Some(&"fen") => s
            .start
            .with_fen(&setup[1..].join(" "))
            .map_err(|e| e.to_string())?,
        _ => return Err("position needs `startpos` or `fen`".into()),
    };
    for text in moves {
        let m = notation::parse_coord(&pos, text).map_err(|e| format!("move `{text}`: {e}"))?;
        pos.play(m);
    }
    s.pos = pos;
    Ok(())
}

fn go(s: &mut Session, words: &[&str], out: &Out) {
    let mut limits = Limits::default();
    let mut clocks = [None::<u64>; 2];
    let mut incs = [0u64; 2];
    let mut moves_to_go = None;
    let mut infinite = false;
    let mut i = 0;
    let num = |i: usize| words.get(i + 1).and_then(|w| w.parse::<u64>().ok());
    // Depths and move counts past u32 mean as many as there can be.
    let num32 = |i: usize| num(i).map(|n| u32::try_from(n).unwrap_or(u32::MAX));
    while i < words.len() {
        match words[i] {
            "perft" => {
                let depth = num32(i).unwrap_or(1);
                s.halt();
                let mut pos = s.pos.clone();
                let mut total = 0;
                for (m, n) in perft_divide(&mut pos, depth) {
                    say(out, &format!("{}: {n}", notation::coord(&s.pos, &m)));
                    total += n;
                }
                say(out, "");
                say(out, &format!("Nodes searched: {total}"));
                return;
            }
            "depth" => limits.depth = num32(i),
            "nodes" => limits.nodes = num(i),
            "movetime" => limits.movetime = num(i).map(Duration::from_millis),
            "wtime" => clocks[0] = num(i),
            "btime" => clocks[1] = num(i),
            "winc" => incs[0] = num(i).unwrap_or(0),
            "binc" => incs[1] = num(i).unwrap_or(0),
            "movestogo" => moves_to_go = num32(i),
            "infinite" => infinite = true,
            _ => {}
        }
        i += 1;
    }
    let me = s.pos.side_to_move().index().min(1);
    if let Some(ms) = clocks[me] {
        limits.clock = Some(Clock {
            time: Duration::from_millis(ms),
            increment: Duration::from_millis(incs[me]),
            moves_to_go,
        });
    }
    let info_out = std::sync::Arc::clone(out);
    let done_out = std::sync::Arc::clone(out);
    let pos = s.pos.clone();
    let pos2 = s.pos.clone();
    let halted = std::sync::Arc::clone(&s.halted);
    s.think(
        limits,
        move |r| say(&info_out, &info_line(&pos, r)),
        move |best, _| {
            // `go infinite` reports its move only when told to stop, even if the search
            // ended (a mate found, the deepest depth reached).
            while infinite && !halted.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(2));
            }
            let text = best.map_or("(none)".to_string(), |m| notation::coord(&pos2, &m));
            say(&done_out, &format!("bestmove {text}"));
        },
    );
}

/// `info depth D score cp S nodes N nps R time T pv M...`.
fn info_line(pos: &Position, r: &Report) -> String {
    let score = match r.score {
        Score::Centipawns(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let mut line = format!(
        "info depth {} score {score} nodes {} nps {} time {} pv",
        r.depth,
        r.nodes,
        r.nps(),
        r.elapsed.as_millis()
    );
    let mut p = pos.clone();
    for m in &r.pv {
        line.push(' ');
        line.push_str(&notation::coord(&p, m));
        p.play(*m);
    }
    line
}
