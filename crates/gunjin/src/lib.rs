//! The rules of Gunjin Shogi (軍人将棋 / 군인장기), the refereed hidden-piece war game.
//!
//! Pure and deterministic: no I/O, no global state, no set-up step. The same code runs in the
//! server, the CPU players and the browser (through WebAssembly).
//!
//! - [`Square`], [`Side`], [`Kind`]: the board and the pieces (§1–§2 of the spec).
//! - [`Setup`] → [`Deployment`]: a raw arrangement checked against the setup rules (§3).
//! - [`Position`]: moves and battles (§4–§6); [`Game`] adds the history and the record.
//! - [`PlayerView`]: what one player may know (§7).
//!
//! Panic policy: no function panics on any input; bad input is an `Err` that changes nothing.

mod battle;
mod error;
mod game;
mod kind;
mod position;
mod record;
mod rules;
mod setup;
mod side;
mod square;
mod status;
mod view;
#[cfg(feature = "serde")]
pub mod wire;

pub use battle::{Battle, Outcome, resolve_battle};
pub use error::{IllegalMove, MoveError, ParseSquareError, PositionError, WrongSide};
pub use game::{Game, Ply};
pub use kind::Kind;
pub use position::{
    Destinations, MAX_MOVES, Move, MoveList, NO_BATTLE_LIMIT, Piece, Played, Position,
};
pub use record::{GameRecord, ReplayError};
pub use rules::Ruleset;
pub use setup::{
    CAMP_SQUARES, Deployment, Setup, SetupError, SetupViolation, SwapError, camp_squares,
    placement_violation, row_preference,
};
pub use side::{BySide, Side};
pub use square::{Direction, Square};
pub use status::{DrawReason, Status, WinReason};
pub use view::{PlayerView, PublicParts, Revealed, ViewError};

/// Re-exported so callers can seed the engine's random choices without naming another crate.
pub use rand;
