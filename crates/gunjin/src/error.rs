//! Errors of the rules engine. Every error leaves the game exactly as it was.

use crate::kind::Kind;
use crate::position::Move;
use crate::side::Side;
use crate::square::Square;

/// A square name that does not name a square.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a square of the board")]
pub struct ParseSquareError(pub String);

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The game has ended; no more moves or resignations.
    #[error("the game is over")]
    GameOver,
    /// The side to move cannot make this move.
    #[error("illegal move {mv}: {reason}")]
    Illegal { mv: Move, reason: IllegalMove },
}

/// What makes a move illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("no piece on the starting square")]
    NoPiece,
    #[error("the piece belongs to the side not to move")]
    NotYourPiece,
    #[error("mines and the flag never move")]
    Immobile,
    #[error("the piece cannot reach that square")]
    Unreachable,
}

/// A board that cannot come from this game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("{0} holds two pieces")]
    SquareTwice(Square),
    #[error("{0} has more of {1} than the game has")]
    TooMany(Side, Kind),
}

/// A deployment handed to the wrong side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the {found} deployment was given as {expected}'s")]
pub struct WrongSide {
    pub expected: Side,
    pub found: Side,
}
