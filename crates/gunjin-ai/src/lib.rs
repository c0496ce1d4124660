//! CPU players for Gunjin Shogi that decide from a player's view only.
//!
//! The input of every decision is a [`gunjin::PlayerView`]: own pieces with kinds, enemy pieces
//! as squares, and the public history. No function of this crate takes a full game or a position
//! with real enemy kinds (except the measuring-only players behind the `omniscient` feature); the
//! CPU imagines enemy kinds with its [`Belief`] engine and searches those imagined worlds.
//!
//! - [`choose_move`]`(view, level, budget, seed)` and [`choose_deployment`]`(side, level, seed)`.
//! - [`Budget`]: a node limit, a time limit with the system clock, or a time limit with a clock
//!   the caller passes (wasm32 has no system clock; pass `performance.now()`).
//! - [`Belief`]: the kinds each piece can still be, and sampled consistent worlds.

mod belief;
mod budget;
mod deploy;
mod kindset;
#[cfg(feature = "omniscient")]
pub mod omniscient;
mod player;
mod prior;
mod search;
mod track;

pub use belief::{Belief, PieceBelief, count_only_probability};
pub use budget::{Budget, ClockFn};
pub use deploy::choose_deployment;
pub use kindset::KindSet;
pub use player::{Level, choose_move, greedy_move, level_belief, prepare, random_move};
pub use track::{TrackError, Tracked};

/// A game between two automatic deployments drawn from `seed` (a different one for each side),
/// for the unit tests that walk random games.
#[cfg(test)]
pub(crate) fn auto_game(seed: u64) -> gunjin::Game {
    gunjin::Game::new(
        gunjin::Ruleset::STANDARD,
        gunjin::BySide::new_with(|s| gunjin::Deployment::auto(s, seed * 2 + s.index() as u64)),
    )
    .expect("two automatic deployments make a game")
}
