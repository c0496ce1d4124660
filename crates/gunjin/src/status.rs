//! Whether a game goes on, and how it ended (§6).

use crate::side::Side;

/// The state of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "state", rename_all = "snake_case"))]
pub enum Status {
    Ongoing,
    Won { winner: Side, reason: WinReason },
    Draw { reason: DrawReason },
}

impl Status {
    /// Whether moves can still be played.
    #[must_use]
    pub const fn is_ongoing(self) -> bool {
        matches!(self, Status::Ongoing)
    }

    /// The winner, if the game was won.
    #[must_use]
    pub const fn winner(self) -> Option<Side> {
        match self {
            Status::Won { winner, .. } => Some(winner),
            _ => None,
        }
    }
}

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum WinReason {
    /// One of the six officers entered the enemy headquarters (占領).
    Occupation,
    /// The loser had no legal move on its turn.
    NoMoves,
    /// The loser resigned (投了).
    Resignation,
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DrawReason {
    /// 100 plies in a row without a battle.
    NoBattleLimit,
    /// Neither side had a legal move.
    NoMoves,
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::*;
    use serde_json::json;

    /// The referee protocol (§10) spells every ending exactly so.
    #[test]
    fn every_status_serialises_as_the_protocol_spells_it() {
        let cases = [
            (Status::Ongoing, json!({"state":"ongoing"})),
            (
                Status::Won {
                    winner: Side::Sente,
                    reason: WinReason::Occupation,
                },
                json!({"state":"won","winner":"sente","reason":"occupation"}),
            ),
            (
                Status::Won {
                    winner: Side::Gote,
                    reason: WinReason::NoMoves,
                },
                json!({"state":"won","winner":"gote","reason":"no_moves"}),
            ),
            (
                Status::Won {
                    winner: Side::Sente,
                    reason: WinReason::Resignation,
                },
                json!({"state":"won","winner":"sente","reason":"resignation"}),
            ),
            (
                Status::Draw {
                    reason: DrawReason::NoBattleLimit,
                },
                json!({"state":"draw","reason":"no_battle_limit"}),
            ),
            (
                Status::Draw {
                    reason: DrawReason::NoMoves,
                },
                json!({"state":"draw","reason":"no_moves"}),
            ),
        ];
        for (status, spelled) in cases {
            assert_eq!(serde_json::to_value(status).unwrap(), spelled, "{status:?}");
            assert_eq!(serde_json::from_value::<Status>(spelled).unwrap(), status);
        }
    }
}
