//! The record of a whole game (棋譜): deployments, plies, result. Replaying it rebuilds the game.

use std::collections::BTreeMap;

use crate::error::{MoveError, WrongSide};
use crate::game::{Game, Ply};
use crate::kind::Kind;
use crate::rules::Ruleset;
use crate::setup::{Deployment, Setup, SetupError};
use crate::side::{BySide, Side};
use crate::square::Square;
use crate::status::Status;

/// Everything needed to rebuild a game, and what it led to.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameRecord {
    pub ruleset: Ruleset,
    pub deployments: BySide<BTreeMap<Square, Kind>>,
    pub plies: Vec<Ply>,
    pub resigned: Option<Side>,
    pub status: Status,
}

/// Why a record does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    WrongSide(#[from] WrongSide),
    #[error("ply {index}: {error}")]
    Move { index: usize, error: MoveError },
    #[error("ply {index}: the recorded battle or side differs from the replayed one")]
    PlyMismatch { index: usize },
    #[error("the recorded result differs from the replayed one")]
    StatusMismatch,
}

impl Game {
    /// The record of this game.
    #[must_use]
    pub fn record(&self) -> GameRecord {
        GameRecord {
            ruleset: *self.position().rules(),
            deployments: BySide::new_with(|s| self.deployments()[s].pieces().collect()),
            plies: self.history().to_vec(),
            resigned: self.resigned(),
            status: self.status(),
        }
    }
}

impl GameRecord {
    /// Replays the record, checking every announced battle and the result.
    ///
    /// # Errors
    /// [`ReplayError`] naming the first point where the record and the rules disagree.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        let deployments = BySide::new_with(|side| {
            let setup = Setup {
                pieces: self.deployments[side]
                    .iter()
                    .map(|(&s, &k)| (s, k))
                    .collect(),
                unparsed: Vec::new(),
            };
            Deployment::new(side, &setup, &self.ruleset)
        });
        let deployments = BySide {
            sente: deployments.sente?,
            gote: deployments.gote?,
        };
        let mut game = Game::new(self.ruleset, deployments)?;
        for (index, recorded) in self.plies.iter().enumerate() {
            let ply = game
                .play(recorded.mv())
                .map_err(|error| ReplayError::Move { index, error })?;
            if ply != *recorded {
                return Err(ReplayError::PlyMismatch { index });
            }
        }
        if let Some(side) = self.resigned {
            game.resign(side).map_err(|error| ReplayError::Move {
                index: self.plies.len(),
                error,
            })?;
        }
        if game.status() != self.status {
            return Err(ReplayError::StatusMismatch);
        }
        Ok(game)
    }
}
