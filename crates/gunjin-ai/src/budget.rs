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
    /// The time limit is a safety stop only: the work is set by nodes, so the answer does not
    /// depend on how busy the machine is (see [`Budget::steady_ms`]).
    pub(crate) time_stops_only: bool,
}

/// Nodes per millisecond of a [`Budget::steady_ms`]: a quarter or less of what the development
/// machine searches in a millisecond (a 1 s budget gives 800,000 nodes, which the advanced level
/// searched in 248 ms at p95), so that only a machine four times slower meets the clock.
pub const STEADY_NODES_PER_MS: u64 = 800;

/// A [`Budget::steady_ms`] search is stopped by the clock only past this multiple of its time,
/// and never before [`STEADY_CLOCK_FLOOR_MS`]: its nodes take a quarter of the time or less here,
/// but a machine running several searches at once (a test suite, a tournament) is easily ten
/// times slower than idle for a moment, and a stop at twice the time still changed one answer in
/// a few hundred on this 2-core machine under load (most at budgets of tens of milliseconds,
/// where a descheduled moment is the whole budget). The stop is a guard against a machine far
/// too slow for the work, not a limit the answer should meet.
pub const STEADY_CLOCK_STOP: f64 = 8.0;

/// The earliest a [`Budget::steady_ms`] search is stopped by the clock, whatever its time.
pub const STEADY_CLOCK_FLOOR_MS: f64 = 2000.0;

/// When the clock stops a [`Budget::steady_ms`] search of `ms` milliseconds.
pub(crate) fn steady_stop_ms(ms: f64) -> f64 {
    (ms * STEADY_CLOCK_STOP).max(STEADY_CLOCK_FLOOR_MS)
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
            time_stops_only: false,
        }
    }

    /// The level's own fixed amount of work, no clock.
    #[must_use]
    pub fn unlimited() -> Budget<'static> {
        Budget {
            max_nodes: None,
            time_ms: None,
            clock: Clock::None,
            time_stops_only: false,
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
            time_stops_only: false,
        }
    }

    /// `ms` milliseconds of thinking that give the same move for the same view and seed however
    /// busy the machine is: the work is [`STEADY_NODES_PER_MS`] nodes per millisecond (or the
    /// level's own amount, if less), and the system clock only stops a search that has taken
    /// [`STEADY_CLOCK_STOP`] times `ms` (at least [`STEADY_CLOCK_FLOOR_MS`]), on a machine some
    /// thirty times slower than this one.
    /// [`Budget::time_ms`] instead uses the time as it finds it, a share of it for each stage.
    #[cfg(not(target_arch = "wasm32"))]
    #[must_use]
    pub fn steady_ms(ms: u64) -> Budget<'static> {
        Budget {
            max_nodes: None,
            time_ms: Some(ms as f64),
            clock: Clock::Native,
            time_stops_only: true,
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
            time_stops_only: false,
        }
    }

    /// The same budget with a node limit as well.
    #[must_use]
    pub fn and_nodes(mut self, nodes: u64) -> Budget<'a> {
        self.max_nodes = Some(nodes);
        self
    }

    /// The node limit for a level whose own amount of work is `level_nodes`.
    pub(crate) fn nodes_for(&self, level_nodes: u64) -> u64 {
        match (self.max_nodes, self.time_ms) {
            (Some(n), _) => n,
            // At least one node per millisecond's worth, so a tiny budget still answers.
            (None, Some(ms)) if self.time_stops_only => level_nodes
                .min((ms as u64).saturating_mul(STEADY_NODES_PER_MS))
                .max(1),
            (None, _) => level_nodes,
        }
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
