//! The clock the engine polls for its time budgets.
//!
//! Native builds read the operating system's monotonic clock. In a web page (WebAssembly
//! without an operating system, where the standard library has no clock and panics when
//! asked) the page lends its own: the module imports `env.rulebook_now_ms`, a function of no
//! arguments returning milliseconds as a float (the page passes `performance.now`).

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use host::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod host {
    use std::time::Duration;

    #[link(wasm_import_module = "env")]
    extern "C" {
        fn rulebook_now_ms() -> f64;
    }

    /// A moment, in the page's milliseconds.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        pub fn now() -> Instant {
            // SAFETY: the import takes nothing and returns a number; the page provides it.
            Instant(unsafe { rulebook_now_ms() })
        }

        pub fn elapsed(&self) -> Duration {
            Duration::from_secs_f64(((Instant::now().0 - self.0) / 1000.0).max(0.0))
        }
    }

    impl std::ops::Add<Duration> for Instant {
        type Output = Instant;

        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d.as_secs_f64() * 1000.0)
        }
    }
}
