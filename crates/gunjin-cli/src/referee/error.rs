//! The referee's errors, each with the stable `code` of §10.

use gunjin::MoveError;

use crate::json_text::LineRefusal;

/// Why a request was refused. Nothing changes when a request is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RefereeError {
    /// The line is not JSON.
    #[error("not JSON: {0}")]
    BadJson(String),
    /// JSON of the wrong shape: a missing or mistyped field, or a side or ruleset that names
    /// nothing.
    #[error("{0}")]
    BadRequest(String),
    /// A `cmd` the referee does not know.
    #[error("unknown command {0:?}; known: new, legal_moves, move, board, view, resign")]
    UnknownCmd(String),
    /// A setup that breaks the rules; the message lists every violation of both sides.
    #[error("{0}")]
    InvalidSetup(String),
    /// A move the side to move cannot make.
    #[error("{0}")]
    IllegalMove(MoveError),
    /// A move naming a square the board does not have: illegal too.
    #[error("{0}")]
    NoSuchSquare(String),
    /// A move or a resignation after the end of the game.
    #[error("the game is over")]
    GameOver,
    /// A game command before any `new`.
    #[error("no game: send a \"new\" request first")]
    NoGame,
}

impl RefereeError {
    /// The stable code of the error on the wire.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            RefereeError::BadJson(_) => "bad_json",
            RefereeError::BadRequest(_) => "bad_request",
            RefereeError::UnknownCmd(_) => "unknown_cmd",
            RefereeError::InvalidSetup(_) => "invalid_setup",
            RefereeError::IllegalMove(_) | RefereeError::NoSuchSquare(_) => "illegal_move",
            RefereeError::GameOver => "game_over",
            RefereeError::NoGame => "no_game",
        }
    }
}

impl From<MoveError> for RefereeError {
    fn from(e: MoveError) -> Self {
        match e {
            MoveError::GameOver => RefereeError::GameOver,
            illegal @ MoveError::Illegal { .. } => RefereeError::IllegalMove(illegal),
        }
    }
}

impl From<LineRefusal> for RefereeError {
    fn from(r: LineRefusal) -> Self {
        match r {
            LineRefusal::NotJson(why) => RefereeError::BadJson(why),
            LineRefusal::WrongShape(why) => RefereeError::BadRequest(why),
        }
    }
}
