//! A whole game: both deployments, the position, and the public history.

use crate::battle::Battle;
use crate::error::{MoveError, WrongSide};
use crate::position::{Move, Position};
use crate::rules::Ruleset;
use crate::setup::Deployment;
use crate::side::{BySide, Side};
use crate::square::Square;
use crate::status::Status;
use crate::view::PlayerView;

/// One ply as both players saw it: who moved, from where to where, and the announced battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Ply {
    pub side: Side,
    pub from: Square,
    pub to: Square,
    pub battle: Option<Battle>,
}

impl Ply {
    /// The move of this ply.
    #[must_use]
    pub fn mv(&self) -> Move {
        Move {
            from: self.from,
            to: self.to,
        }
    }
}

/// A game in progress or finished.
///
/// ```
/// use gunjin::{BySide, Deployment, Game, Ruleset, Side};
/// let deployments = BySide::new_with(|side| Deployment::auto(side, 42));
/// let mut game = Game::new(Ruleset::STANDARD, deployments).unwrap();
/// let mv = game.position().legal_moves()[0];
/// let ply = game.play(mv).unwrap();
/// assert_eq!(ply.side, Side::Sente);
/// assert_eq!(game.view(Side::Gote).history().len(), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    deployments: BySide<Deployment>,
    position: Position,
    history: Vec<Ply>,
    /// Each side's removed pieces in the order they were removed.
    removal_order: BySide<Vec<crate::Kind>>,
    resigned: Option<Side>,
}

impl Game {
    /// A new game, sente to move.
    ///
    /// # Errors
    /// [`WrongSide`] if a deployment belongs to the other side.
    pub fn new(rules: Ruleset, deployments: BySide<Deployment>) -> Result<Game, WrongSide> {
        for side in Side::ALL {
            let found = deployments[side].side();
            if found != side {
                return Err(WrongSide {
                    expected: side,
                    found,
                });
            }
        }
        let position = Position::new(rules, &deployments);
        Ok(Game {
            deployments,
            position,
            history: Vec::new(),
            removal_order: BySide::default(),
            resigned: None,
        })
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The deployments the game started from.
    #[must_use]
    pub fn deployments(&self) -> &BySide<Deployment> {
        &self.deployments
    }

    /// Every ply so far.
    #[must_use]
    pub fn history(&self) -> &[Ply] {
        &self.history
    }

    /// `side`'s removed pieces in the order they were removed (each battle removes at most one
    /// piece of each side).
    #[must_use]
    pub fn removal_order(&self, side: Side) -> &[crate::Kind] {
        &self.removal_order[side]
    }

    /// The side that resigned, if the game ended that way.
    #[must_use]
    pub fn resigned(&self) -> Option<Side> {
        self.resigned
    }

    /// The game's status.
    #[must_use]
    pub fn status(&self) -> Status {
        self.position.status()
    }

    /// Plays a move of the side to move.
    ///
    /// # Errors
    /// [`MoveError`] for an illegal move or a finished game; the game is unchanged then.
    pub fn play(&mut self, mv: Move) -> Result<Ply, MoveError> {
        let played = self.position.play(mv)?;
        if let (Some(battle), Some(defender)) = (played.battle, played.defender) {
            use crate::battle::Outcome;
            if matches!(battle.outcome, Outcome::Defender | Outcome::Both) {
                self.removal_order[played.mover.side].push(played.mover.kind);
            }
            if matches!(battle.outcome, Outcome::Attacker | Outcome::Both) {
                self.removal_order[defender.side].push(defender.kind);
            }
        }
        let ply = Ply {
            side: played.mover.side,
            from: mv.from,
            to: mv.to,
            battle: played.battle,
        };
        self.history.push(ply);
        Ok(ply)
    }

    /// `side` resigns (投了), on its turn or the opponent's.
    ///
    /// # Errors
    /// [`MoveError::GameOver`] if the game has already ended.
    pub fn resign(&mut self, side: Side) -> Result<Status, MoveError> {
        let status = self.position.resign(side)?;
        self.resigned = Some(side);
        Ok(status)
    }

    /// What `side` may know (§7).
    #[must_use]
    pub fn view(&self, side: Side) -> PlayerView {
        PlayerView::of(self, side)
    }
}
