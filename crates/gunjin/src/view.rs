//! What one player may know (§7). While the game goes on, the view's type has no place for the
//! kind of an enemy piece: only squares. Kinds of both sides appear in [`Revealed`], which exists
//! only once the game is over.

use crate::game::{Game, Ply};
use crate::kind::Kind;
use crate::position::Piece;
use crate::side::{BySide, Side};
use crate::square::Square;
use crate::status::Status;

/// A player's view of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerView {
    side: Side,
    to_move: Side,
    plies_without_battle: u16,
    status: Status,
    own: Vec<(Square, Kind)>,
    enemy: Vec<Square>,
    removed_own: Vec<Kind>,
    removed_enemy_count: u8,
    history: Vec<Ply>,
    revealed: Option<Revealed>,
}

/// Everything, shown to both players after the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Revealed {
    pieces: Vec<(Square, Piece)>,
    removed: BySide<Vec<Kind>>,
}

impl Revealed {
    /// Every piece on the board with its kind, in square order.
    #[must_use]
    pub fn pieces(&self) -> &[(Square, Piece)] {
        &self.pieces
    }

    /// Each side's removed pieces by kind.
    #[must_use]
    pub fn removed(&self) -> &BySide<Vec<Kind>> {
        &self.removed
    }
}

/// A view that cannot be built from the given parts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    #[error("{0} is given twice")]
    SquareTwice(Square),
    #[error("an ongoing game's view cannot carry enemy kinds")]
    EnemyKindWhileOngoing,
    #[error("a finished game's view needs every kind revealed (missing on {0})")]
    KindMissingAfterEnd(Square),
    #[error("the viewer's own piece on {0} has no kind")]
    OwnKindMissing(Square),
}

/// The public parts of a view while the game goes on, e.g. as received over a wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicParts {
    pub side: Side,
    pub to_move: Side,
    pub plies_without_battle: u16,
    pub status: Status,
    pub own: Vec<(Square, Kind)>,
    pub enemy: Vec<Square>,
    pub removed_own: Vec<Kind>,
    pub removed_enemy_count: u8,
    pub history: Vec<Ply>,
}

impl PlayerView {
    pub(crate) fn of(game: &Game, side: Side) -> PlayerView {
        let pos = game.position();
        let own = pos
            .pieces()
            .filter(|(_, p)| p.side == side)
            .map(|(sq, p)| (sq, p.kind))
            .collect();
        let enemy = pos
            .pieces()
            .filter(|(_, p)| p.side != side)
            .map(|(sq, _)| sq)
            .collect();
        let removed_enemy_count = pos.removed_counts(side.opponent()).iter().sum();
        let revealed = (!pos.status().is_ongoing()).then(|| Revealed {
            pieces: pos.pieces().collect(),
            removed: BySide::new_with(|s| pos.removed(s)),
        });
        PlayerView {
            side,
            to_move: pos.to_move(),
            plies_without_battle: pos.plies_without_battle(),
            status: pos.status(),
            own,
            enemy,
            removed_own: game.removal_order(side).to_vec(),
            removed_enemy_count,
            history: game.history().to_vec(),
            revealed,
        }
    }

    /// A view of an ongoing game from its public parts (for a program handed a view from
    /// outside, such as a bot). No enemy kind can be given.
    ///
    /// # Errors
    /// [`ViewError::SquareTwice`] if a square is listed twice.
    pub fn from_public(parts: PublicParts) -> Result<PlayerView, ViewError> {
        let mut seen = [false; Square::COUNT];
        for sq in parts
            .own
            .iter()
            .map(|&(sq, _)| sq)
            .chain(parts.enemy.iter().copied())
        {
            if std::mem::replace(&mut seen[sq.index()], true) {
                return Err(ViewError::SquareTwice(sq));
            }
        }
        let mut own = parts.own;
        own.sort_unstable();
        let mut enemy = parts.enemy;
        enemy.sort_unstable();
        Ok(PlayerView {
            side: parts.side,
            to_move: parts.to_move,
            plies_without_battle: parts.plies_without_battle,
            status: parts.status,
            own,
            enemy,
            removed_own: parts.removed_own,
            removed_enemy_count: parts.removed_enemy_count,
            history: parts.history,
            revealed: None,
        })
    }

    /// Attaches the full board of a finished game (used when rebuilding a view from the wire).
    ///
    /// # Errors
    /// [`ViewError::EnemyKindWhileOngoing`] if the game is still on.
    pub fn with_revealed(
        mut self,
        pieces: Vec<(Square, Piece)>,
        removed: BySide<Vec<Kind>>,
    ) -> Result<PlayerView, ViewError> {
        if self.status.is_ongoing() {
            return Err(ViewError::EnemyKindWhileOngoing);
        }
        self.revealed = Some(Revealed { pieces, removed });
        Ok(self)
    }

    /// Whose view this is.
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The side to move.
    #[must_use]
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Plies since the last battle.
    #[must_use]
    pub fn plies_without_battle(&self) -> u16 {
        self.plies_without_battle
    }

    /// The game's status.
    #[must_use]
    pub fn status(&self) -> Status {
        self.status
    }

    /// Own pieces with their kinds, in square order.
    #[must_use]
    pub fn own(&self) -> &[(Square, Kind)] {
        &self.own
    }

    /// Squares of enemy pieces, in square order, without kinds.
    #[must_use]
    pub fn enemy(&self) -> &[Square] {
        &self.enemy
    }

    /// Own removed pieces by kind, in the order they were removed: the n-th entry is the own
    /// piece removed in the n-th battle that cost the viewer a piece. (A player knows which of
    /// its pieces fought where; a bot handed only the view needs this to rebuild it.)
    #[must_use]
    pub fn removed_own(&self) -> &[Kind] {
        &self.removed_own
    }

    /// How many enemy pieces have been removed.
    #[must_use]
    pub fn removed_enemy_count(&self) -> u8 {
        self.removed_enemy_count
    }

    /// Every ply of the game: moves and announced battles.
    #[must_use]
    pub fn history(&self) -> &[Ply] {
        &self.history
    }

    /// Every piece of both sides, once the game is over; `None` while it goes on.
    #[must_use]
    pub fn revealed(&self) -> Option<&Revealed> {
        self.revealed.as_ref()
    }

    /// Own kind on a square, if one of the viewer's pieces stands there.
    #[must_use]
    pub fn own_at(&self, sq: Square) -> Option<Kind> {
        self.own
            .binary_search_by_key(&sq, |&(s, _)| s)
            .ok()
            .map(|i| self.own[i].1)
    }

    /// Whether an enemy piece stands on `sq`.
    #[must_use]
    pub fn enemy_at(&self, sq: Square) -> bool {
        self.enemy.binary_search(&sq).is_ok()
    }
}
