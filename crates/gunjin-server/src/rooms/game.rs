//! The game a room referees, behind a small trait so another two-player game with hidden
//! set-ups (shogi, later) can reuse the whole room layer.
//!
//! The room layer never looks inside a game: it validates set-ups, plays moves and asks for
//! per-side views through this trait, and only ever sends what the trait hands it for one side.

use std::collections::BTreeMap;

use gunjin::wire::{WireSetupEntries, WireView};
use gunjin::{BySide, Deployment, Game, GameRecord, Kind, MoveError, Ruleset, Setup, Side, Square};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::protocol::ErrorCode;

/// A refusal from the game: a stable code, a readable message and optional details.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub code: ErrorCode,
    pub message: String,
    pub details: Option<serde_json::Value>,
}

impl Refusal {
    /// A refusal without details.
    #[must_use]
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
            details: None,
        }
    }
}

/// A two-player game with hidden set-ups, refereed by a room.
///
/// Contract: [`RefereeGame::view`], [`RefereeGame::legal`] and the deployment's serialization
/// hold only what that side may know; [`RefereeGame::Ply`] and [`RefereeGame::Status`] are public
/// to both sides. The room layer relies on it and sends nothing else about the game.
pub trait RefereeGame: Sized + Send + 'static {
    /// Stable id stored with each room.
    const ID: &'static str;
    /// A set-up as a client sends it (may be illegal).
    type Setup: DeserializeOwned + Send;
    /// A validated set-up of one side. It is shown only to its owner, and stored.
    type Deployment: Clone + Send + Serialize + DeserializeOwned + 'static;
    /// A move as a client sends it; stored per ply and replayed after a restart.
    type Move: Copy + Send + Serialize + DeserializeOwned;
    /// One ply as both players may see it.
    type Ply: Clone + Serialize;
    /// What one side may know of the game.
    type View: Serialize;
    /// The legal moves of the side to move.
    type Legal: Serialize;
    /// Whether the game goes on, and how it ended; public.
    type Status: Serialize;
    /// The full record, stored when a game ends.
    type Record: Serialize;

    /// Validates `side`'s set-up.
    ///
    /// # Errors
    /// A [`Refusal`] with [`ErrorCode::InvalidSetup`] naming what is wrong.
    fn validate(side: Side, setup: &Self::Setup) -> Result<Self::Deployment, Refusal>;
    /// The side a deployment belongs to.
    fn deployment_side(deployment: &Self::Deployment) -> Side;
    /// Starts a game from both deployments.
    ///
    /// # Errors
    /// A [`Refusal`] if the deployments do not fit together.
    fn start(deployments: BySide<Self::Deployment>) -> Result<Self, Refusal>;
    /// The side to move.
    fn to_move(&self) -> Side;
    /// Whether the game has ended.
    fn is_over(&self) -> bool;
    /// The public status.
    fn status(&self) -> Self::Status;
    /// Plays a move of the side to move.
    ///
    /// # Errors
    /// [`ErrorCode::IllegalMove`] or [`ErrorCode::NotPlaying`]; the game is unchanged then.
    fn play(&mut self, mv: Self::Move) -> Result<Self::Ply, Refusal>;
    /// `side` resigns.
    ///
    /// # Errors
    /// [`ErrorCode::NotPlaying`] if the game is over.
    fn resign(&mut self, side: Side) -> Result<(), Refusal>;
    /// The side that resigned, if any.
    fn resigned(&self) -> Option<Side>;
    /// What `side` may know (everything once the game is over).
    fn view(&self, side: Side) -> Self::View;
    /// The legal moves, if `side` is to move in a game that goes on.
    fn legal(&self, side: Side) -> Option<Self::Legal>;
    /// The record of the game.
    fn record(&self) -> Self::Record;
    /// Both sides' set-ups once the game is over (everything is revealed then, and the players
    /// may replay the game from its start); `None` while it goes on.
    fn revealed_setups(&self) -> Option<BySide<Self::Deployment>>;
}

/// Gunjin Shogi as refereed in rooms, standard rules.
#[derive(Clone, Debug)]
pub struct Gunjin(Game);

/// A validated gunjin deployment as stored and as shown to its owner:
/// `{"side":"sente","pieces":{"a1":"general",…}}`. Deserializing validates it again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "WireDeployment", into = "WireDeployment")]
pub struct GunjinDeployment(Deployment);

/// The stored shape of a [`GunjinDeployment`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WireDeployment {
    pub side: Side,
    pub pieces: BTreeMap<Square, Kind>,
}

impl TryFrom<WireDeployment> for GunjinDeployment {
    type Error = gunjin::SetupError;

    fn try_from(w: WireDeployment) -> Result<Self, Self::Error> {
        let setup = Setup {
            pieces: w.pieces.into_iter().collect(),
            unparsed: Vec::new(),
        };
        Deployment::new(w.side, &setup, &Ruleset::STANDARD).map(GunjinDeployment)
    }
}

impl From<GunjinDeployment> for WireDeployment {
    fn from(d: GunjinDeployment) -> Self {
        WireDeployment {
            side: d.0.side(),
            pieces: d.0.to_wire(),
        }
    }
}

impl GunjinDeployment {
    /// The engine's deployment.
    #[must_use]
    pub fn deployment(&self) -> &Deployment {
        &self.0
    }
}

/// A move on the wire: `{"from":"b3","to":"b4"}`, an object only (a derived reader would also
/// take `["b3","b4"]`, a second shape the protocol does not have).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "BTreeMap<String, Square>")]
pub struct WireMove {
    pub from: Square,
    pub to: Square,
}

impl TryFrom<BTreeMap<String, Square>> for WireMove {
    type Error = String;

    fn try_from(mut fields: BTreeMap<String, Square>) -> Result<Self, String> {
        let from = fields.remove("from").ok_or("missing field `from`")?;
        let to = fields.remove("to").ok_or("missing field `to`")?;
        match fields.keys().next() {
            Some(extra) => Err(format!("unknown field `{extra}`, expected `from` and `to`")),
            None => Ok(WireMove { from, to }),
        }
    }
}

impl From<WireMove> for gunjin::Move {
    fn from(m: WireMove) -> Self {
        gunjin::Move {
            from: m.from,
            to: m.to,
        }
    }
}

#[cfg(test)]
impl Gunjin {
    /// The engine's game, both sides' pieces included: for tests only, so no code that answers
    /// a player can reach past the views.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.0
    }
}

fn move_refusal(e: MoveError) -> Refusal {
    match e {
        MoveError::GameOver => Refusal::new(ErrorCode::NotPlaying, "the game is over"),
        MoveError::Illegal { .. } => Refusal::new(ErrorCode::IllegalMove, e.to_string()),
    }
}

impl RefereeGame for Gunjin {
    const ID: &'static str = "gunjin";
    type Setup = WireSetupEntries;
    type Deployment = GunjinDeployment;
    type Move = WireMove;
    type Ply = gunjin::Ply;
    type View = WireView;
    type Legal = Vec<gunjin::Move>;
    type Status = gunjin::Status;
    type Record = GameRecord;

    fn validate(side: Side, setup: &WireSetupEntries) -> Result<GunjinDeployment, Refusal> {
        Deployment::new(side, &Setup::from_names(setup.pairs()), &Ruleset::STANDARD)
            .map(GunjinDeployment)
            .map_err(|e| {
                let violations: Vec<_> = e
                    .violations
                    .iter()
                    .map(|v| serde_json::json!({"rule": v.rule_id(), "message": v.to_string()}))
                    .collect();
                Refusal {
                    code: ErrorCode::InvalidSetup,
                    message: e.to_string(),
                    details: Some(serde_json::json!({ "violations": violations })),
                }
            })
    }

    fn deployment_side(d: &GunjinDeployment) -> Side {
        d.0.side()
    }

    fn start(deployments: BySide<GunjinDeployment>) -> Result<Gunjin, Refusal> {
        Game::new(
            Ruleset::STANDARD,
            BySide {
                sente: deployments.sente.0,
                gote: deployments.gote.0,
            },
        )
        .map(Gunjin)
        .map_err(|e| Refusal::new(ErrorCode::InvalidSetup, e.to_string()))
    }

    fn to_move(&self) -> Side {
        self.0.position().to_move()
    }

    fn is_over(&self) -> bool {
        !self.0.status().is_ongoing()
    }

    fn status(&self) -> gunjin::Status {
        self.0.status()
    }

    fn play(&mut self, mv: WireMove) -> Result<gunjin::Ply, Refusal> {
        self.0.play(mv.into()).map_err(move_refusal)
    }

    fn resign(&mut self, side: Side) -> Result<(), Refusal> {
        self.0.resign(side).map(|_| ()).map_err(move_refusal)
    }

    fn resigned(&self) -> Option<Side> {
        self.0.resigned()
    }

    fn view(&self, side: Side) -> WireView {
        WireView::from(&self.0.view(side))
    }

    fn legal(&self, side: Side) -> Option<Vec<gunjin::Move>> {
        let on = self.0.status().is_ongoing() && self.to_move() == side;
        on.then(|| gunjin::wire::legal_moves_by_name(self.0.position()))
    }

    fn record(&self) -> GameRecord {
        self.0.record()
    }

    fn revealed_setups(&self) -> Option<BySide<GunjinDeployment>> {
        if self.0.status().is_ongoing() {
            return None;
        }
        let d = self.0.deployments();
        Some(BySide {
            sente: GunjinDeployment(d.sente.clone()),
            gote: GunjinDeployment(d.gote.clone()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> Gunjin {
        let d = BySide::new_with(|side| GunjinDeployment(Deployment::auto(side, 5)));
        Gunjin::start(d).expect("two automatic deployments fit")
    }

    #[test]
    fn a_setup_naming_a_square_twice_is_refused_naming_both_pieces() {
        let mut entries: Vec<(String, String)> = Deployment::auto(Side::Sente, 5)
            .pieces()
            .map(|(square, kind)| (square.to_string(), kind.id().to_owned()))
            .collect();
        let (square, kind) = entries[0].clone();
        entries.insert(0, (square.clone(), "flag".to_owned()));
        let Err(refusal) = Gunjin::validate(Side::Sente, &WireSetupEntries(entries)) else {
            panic!("a square named twice was taken");
        };
        assert_eq!(refusal.code, ErrorCode::InvalidSetup);
        let named = format!("{square} is given more than one piece (flag, then {kind})");
        assert!(refusal.message.contains(&named), "{}", refusal.message);
    }

    #[test]
    fn the_setups_are_revealed_only_once_the_game_is_over() {
        let mut g = game();
        assert!(g.revealed_setups().is_none());
        g.resign(Side::Gote).expect("the game goes on");
        let setups = g.revealed_setups().expect("over now");
        assert_eq!(setups.sente.deployment(), &g.game().deployments().sente);
        assert_eq!(setups.gote.deployment(), &g.game().deployments().gote);
    }
}
