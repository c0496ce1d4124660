//! The JSON shapes of §10: views, setups and pieces as they travel between programs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::game::Ply;
use crate::kind::Kind;
use crate::position::Piece;
use crate::side::{BySide, Side};
use crate::square::Square;
use crate::status::Status;
use crate::view::{PlayerView, PublicParts, ViewError};

/// A piece on the wire: the kind is absent for an enemy piece while the game goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WirePiece {
    pub side: Side,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<Kind>,
}

/// Removed pieces on the wire: §10 gives the enemy's by count only, even after the end (its
/// kinds then follow from the revealed board: every kind's count less those still standing).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireRemoved {
    pub own: Vec<Kind>,
    pub enemy_count: u8,
}

/// A player's view as JSON (§10 `view`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireView {
    pub side: Side,
    pub to_move: Side,
    pub plies_without_battle: u16,
    pub status: Status,
    pub pieces: BTreeMap<Square, WirePiece>,
    pub removed: WireRemoved,
    pub history: Vec<Ply>,
}

impl From<&PlayerView> for WireView {
    fn from(view: &PlayerView) -> Self {
        let mut pieces = BTreeMap::new();
        if let Some(revealed) = view.revealed() {
            for &(sq, p) in revealed.pieces() {
                pieces.insert(
                    sq,
                    WirePiece {
                        side: p.side,
                        kind: Some(p.kind),
                    },
                );
            }
        } else {
            for &(sq, kind) in view.own() {
                pieces.insert(
                    sq,
                    WirePiece {
                        side: view.side(),
                        kind: Some(kind),
                    },
                );
            }
            for &sq in view.enemy() {
                pieces.insert(
                    sq,
                    WirePiece {
                        side: view.side().opponent(),
                        kind: None,
                    },
                );
            }
        }
        WireView {
            side: view.side(),
            to_move: view.to_move(),
            plies_without_battle: view.plies_without_battle(),
            status: view.status(),
            pieces,
            removed: WireRemoved {
                own: view.removed_own().to_vec(),
                enemy_count: view.removed_enemy_count(),
            },
            history: view.history().to_vec(),
        }
    }
}

impl TryFrom<WireView> for PlayerView {
    type Error = ViewError;

    fn try_from(wire: WireView) -> Result<Self, ViewError> {
        let side = wire.side;
        let mut own = Vec::new();
        let mut enemy = Vec::new();
        let mut all = Vec::new();
        for (&sq, p) in &wire.pieces {
            match (p.side == side, p.kind) {
                (true, Some(kind)) => own.push((sq, kind)),
                (true, None) => return Err(ViewError::KindMissingAfterEnd(sq)),
                (false, kind) => {
                    if kind.is_some() && wire.status.is_ongoing() {
                        return Err(ViewError::EnemyKindWhileOngoing);
                    }
                    enemy.push(sq);
                }
            }
            if !wire.status.is_ongoing() {
                let kind = p.kind.ok_or(ViewError::KindMissingAfterEnd(sq))?;
                all.push((sq, Piece { side: p.side, kind }));
            }
        }
        let view = PlayerView::from_public(PublicParts {
            side,
            to_move: wire.to_move,
            plies_without_battle: wire.plies_without_battle,
            status: wire.status,
            own,
            enemy,
            removed_own: wire.removed.own.clone(),
            removed_enemy_count: wire.removed.enemy_count,
            history: wire.history,
        })?;
        if wire.status.is_ongoing() {
            return Ok(view);
        }
        let mut removed = BySide::<Vec<Kind>>::default();
        removed[side.opponent()] = removed_kinds(&all, side.opponent());
        removed[side] = wire.removed.own;
        view.with_revealed(all, removed)
    }
}

/// The kinds `side` has lost, in kind order, from a revealed board: each kind's count less the
/// pieces of that kind still standing.
fn removed_kinds(pieces: &[(Square, Piece)], side: Side) -> Vec<Kind> {
    Kind::ALL
        .into_iter()
        .flat_map(|kind| {
            let standing = pieces
                .iter()
                .filter(|(_, p)| p.side == side && p.kind == kind)
                .count();
            let lost = usize::from(kind.count()).saturating_sub(standing);
            core::iter::repeat_n(kind, lost)
        })
        .collect()
}

/// One side's setup as JSON: square name → kind id.
pub type WireSetup = BTreeMap<String, String>;

impl crate::setup::Setup {
    /// A setup from its JSON map (square name → kind id).
    #[must_use]
    pub fn from_wire(wire: &WireSetup) -> Self {
        Self::from_names(wire.iter().map(|(s, k)| (s.as_str(), k.as_str())))
    }
}

impl crate::setup::Deployment {
    /// The deployment as its JSON map.
    #[must_use]
    pub fn to_wire(&self) -> BTreeMap<Square, Kind> {
        self.pieces().collect()
    }
}
