//! The engine protocols GUIs speak: UCI ([`uci`]) and XBoard/CECP ([`xboard`]). Both play any
//! definition with the search of [`crate::engine::search`]; the search runs on its own thread
//! so that `stop` (UCI) and `?` (XBoard) reach it while it thinks.

pub mod uci;
pub mod xboard;
mod xboard_pieces;
mod xboard_types;

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::engine::search::{Engine, Limits, Report, Style};
use crate::engine::{Move, Position};
use crate::model::{Protocol, Tables, Variant};

/// Where replies go: standard output for the binary, a buffer in tests.
pub type Out = Arc<Mutex<Box<dyn Write + Send>>>;

/// Writes one line and flushes it: a GUI waits for whole lines.
pub(crate) fn say(out: &Out, line: &str) {
    let mut o = out.lock().expect("output lock");
    let _ = writeln!(o, "{line}");
    let _ = o.flush();
}

/// The name `protocol` gives the variant: the one the definition gives it (`known as "normal"
/// in xboard`), else [`variant_slug`].
pub fn variant_name(variant: &Variant, protocol: Protocol) -> String {
    match variant.known_as(protocol) {
        Some(name) => name.to_string(),
        None => variant_slug(variant),
    }
}

/// The definition's name in lowercase, words joined by `-` (`Middle Xiangqi` is
/// `middle-xiangqi`): what protocols call a variant the definition names for none.
pub fn variant_slug(variant: &Variant) -> String {
    let mut out = String::new();
    for word in variant
        .name()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(&word.to_ascii_lowercase());
    }
    if out.is_empty() {
        "variant".into()
    } else {
        out
    }
}

/// What both protocols keep: the definition, the options set, the game so far and the engine.
pub(crate) struct Session {
    pub variant: Variant,
    pub options: Vec<(String, bool)>,
    pub start: Position,
    pub pos: Position,
    pub engine: Arc<Mutex<Engine>>,
    pub stop: Arc<AtomicBool>,
    /// Set by [`Session::halt`]: a search told to run until stopped waits for it before it
    /// reports its move.
    pub halted: Arc<AtomicBool>,
    pub hash_mb: usize,
    pub thinking: Option<JoinHandle<()>>,
}

impl Session {
    pub fn new(variant: Variant, options: Vec<(String, bool)>) -> Result<Session, String> {
        let tables = Tables::compile(&variant, &options).map_err(|e| e.to_string())?;
        let start = Position::new(tables);
        let engine = Engine::new(&start, 16);
        let stop = engine.stop_flag();
        Ok(Session {
            variant,
            options,
            pos: start.clone(),
            start,
            engine: Arc::new(Mutex::new(engine)),
            stop,
            halted: Arc::default(),
            hash_mb: 16,
            thinking: None,
        })
    }

    /// Compiles the definition again after an option changed; the game restarts.
    pub fn recompile(&mut self) -> Result<(), String> {
        self.halt();
        let tables = Tables::compile(&self.variant, &self.options).map_err(|e| e.to_string())?;
        self.start = Position::new(tables);
        self.pos = self.start.clone();
        let style = self.engine.lock().expect("engine lock").style;
        let mut engine = Engine::new(&self.start, self.hash_mb);
        engine.style = style;
        self.stop = engine.stop_flag();
        self.engine = Arc::new(Mutex::new(engine));
        Ok(())
    }

    /// Stops a running search and waits for its thread (which still reports its move).
    pub fn halt(&mut self) {
        if self.thinking.is_some() {
            self.stop.store(true, Ordering::Relaxed);
        }
        self.halted.store(true, Ordering::Relaxed);
        self.wait();
    }

    /// Waits for a running search to end by itself.
    pub fn wait(&mut self) {
        if let Some(h) = self.thinking.take() {
            let _ = h.join();
        }
    }

    /// Starts a search of the current position on its own thread, after stopping one that
    /// still runs; `report` gets each iteration, `done` the move (`None` without a legal one)
    /// and the last report.
    pub fn think(
        &mut self,
        limits: Limits,
        report: impl FnMut(&Report) + Send + 'static,
        done: impl FnOnce(Option<Move>, &Report) + Send + 'static,
    ) {
        self.halt();
        self.stop.store(false, Ordering::Relaxed);
        self.halted.store(false, Ordering::Relaxed);
        let engine = Arc::clone(&self.engine);
        let pos = self.pos.clone();
        let mut report = report;
        self.thinking = Some(std::thread::spawn(move || {
            let mut e = engine.lock().expect("engine lock");
            let (best, last) = e.search(&pos, &limits, &mut report);
            done(best, &last);
        }));
    }

    pub fn set_style(&mut self, style: Style) {
        // An option set while the engine thinks ends the search first (a search told to run
        // until stopped would otherwise never end).
        self.halt();
        self.engine.lock().expect("engine lock").style = style;
    }

    pub fn set_hash(&mut self, mb: usize) {
        self.halt();
        self.hash_mb = mb;
        self.engine.lock().expect("engine lock").set_hash(mb);
    }
}
