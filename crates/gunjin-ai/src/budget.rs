//! How long the CPU may think: a node budget, a time budget, or both. On wasm32 there is no
//! `std::time::Instant`; the caller passes a clock (e.g. `performance.now()`) instead.

/// A clock in milliseconds from any fixed origin.
pub type ClockFn<'a> = &'a dyn Fn() -> f64;

/// Limits on one decision. The CPU stops at whichever limit comes first; without any limit it
/// uses its level's own fixed amount of work.
#[derive(Clone, Copy)]
pub struct Budget<'a> {
    pub(crate) max_nodes: Option<u64>,
    pub(crate) time_ms: Option<f64>,
    pub(crate) clock: Clock<'a>,
}

#[derive(Clone, Copy)]
pub(crate) enum Clock<'a> {
    None,
    External(ClockFn<'a>),
    #[cfg(not(target_arch = "wasm32"))]
    Native,
}

impl core::fmt::Debug for Budget<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Budget")
            .field("max_nodes", &self.max_nodes)
            .field("time_ms", &self.time_ms)
            .finish_non_exhaustive()
    }
}

impl Budget<'static> {
    /// At most `nodes` searched positions (deterministic: the same view and seed give the same
    /// move on every machine).
    #[must_use]
    pub fn nodes(nodes: u64) -> Budget<'static> {
        Budget {
            max_nodes: Some(nodes),
            time_ms: None,
            clock: Clock::None,
        }
    }

    /// The level's own fixed amount of work, no clock.
    #[must_use]
    pub fn unlimited() -> Budget<'static> {
        Budget {
            max_nodes: None,
            time_ms: None,
            clock: Clock::None,
        }
    }

    /// At most `ms` milliseconds measured with the system clock (not on wasm32).
    #[cfg(not(target_arch = "wasm32"))]
    #[must_use]
    pub fn time_ms(ms: u64) -> Budget<'static> {
        Budget {
            max_nodes: None,
            time_ms: Some(ms as f64),
            clock: Clock::Native,
        }
    }
}

impl<'a> Budget<'a> {
    /// At most `ms` milliseconds as measured by `clock` (milliseconds from any fixed origin,
    /// such as `performance.now()` in a browser).
    #[must_use]
    pub fn with_clock(ms: f64, clock: ClockFn<'a>) -> Budget<'a> {
        Budget {
            max_nodes: None,
            time_ms: Some(ms),
            clock: Clock::External(clock),
        }
    }

    /// The same budget with a node limit as well.
    #[must_use]
    pub fn and_nodes(mut self, nodes: u64) -> Budget<'a> {
        self.max_nodes = Some(nodes);
        self
    }

    pub(crate) fn start(&self) -> Timer<'a> {
        Timer::new(self.clock)
    }
}

/// Measures elapsed time from the start of a decision.
pub(crate) struct Timer<'a> {
    clock: Clock<'a>,
    start_ms: f64,
    #[cfg(not(target_arch = "wasm32"))]
    start: std::time::Instant,
}

impl<'a> Timer<'a> {
    fn new(clock: Clock<'a>) -> Timer<'a> {
        let start_ms = match clock {
            Clock::External(f) => f(),
            _ => 0.0,
        };
        Timer {
            clock,
            start_ms,
            #[cfg(not(target_arch = "wasm32"))]
            start: std::time::Instant::now(),
        }
    }

    /// Milliseconds since the start; `None` without a clock.
    pub(crate) fn elapsed_ms(&self) -> Option<f64> {
        match self.clock {
            Clock::None => None,
            Clock::External(f) => Some(f() - self.start_ms),
            #[cfg(not(target_arch = "wasm32"))]
            Clock::Native => Some(self.start.elapsed().as_secs_f64() * 1000.0),
        }
    }
}
