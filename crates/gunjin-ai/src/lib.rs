//! CPU players for Gunjin Shogi that decide from a player's view only.
//!
//! The input of every decision is a [`gunjin::PlayerView`]: own pieces with kinds, enemy pieces
//! as squares, and the public history. No function of this crate takes a full game or a position
//! with real enemy kinds; the CPU imagines enemy kinds with its [`Belief`] engine.

mod belief;
mod kindset;
mod track;

pub use belief::{Belief, PieceBelief, count_only_probability};
pub use kindset::KindSet;
pub use track::{TrackError, Tracked};
