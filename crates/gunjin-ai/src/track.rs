//! Rebuilds the game's public history from a player's view: which piece (named by the square it
//! started on) made each move and fought each battle, and the kind of every piece of the viewer.
//!
//! All 23 squares of each camp hold a piece at the start, so every piece is followed from its
//! first square through every ply. Nothing here needs an enemy kind.

use gunjin::{
    Kind, Move, Outcome, Piece, PlayerView, Position, Ruleset, Side, Square, camp_squares,
};

use crate::kindset::KindSet;

/// A piece's name inside the tracker: its side and the index of its first square in its camp.
pub type PieceId = (Side, u8);

/// One battle as both players saw it, with the pieces it involved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BattleFact {
    pub attacker: PieceId,
    pub defender: PieceId,
    /// The defender's friendly piece directly behind it at the time, if any (it fights for a
    /// flag).
    pub behind: Option<PieceId>,
    pub outcome: Outcome,
}

/// What the public history says, piece by piece.
#[derive(Clone, Debug)]
pub struct Tracked {
    /// The viewer.
    pub side: Side,
    /// First square of each piece, by side and index.
    pub initial: [[Square; 23]; 2],
    /// Current square of each piece (`None` once removed).
    pub current: [[Option<Square>; 23]; 2],
    /// Kinds a piece can be judging by the shapes of its moves alone (the mobile kinds once it
    /// moved at all).
    pub moves_allow: [[KindSet; 23]; 2],
    /// Whether the piece has moved.
    pub moved: [[bool; 23]; 2],
    /// Moves that took the piece forward (towards the enemy's back row).
    pub advances: [[u8; 23]; 2],
    /// Battles the piece started.
    pub attacks: [[u8; 23]; 2],
    /// Times the piece stood next to an enemy plane (known by the shape of its moves) and its
    /// side let the plane be: a general, lieutenant general or major general beats a plane for
    /// certain, and any player would take it.
    pub spared_planes: [[u8; 23]; 2],
    /// Plies of its own side in which the piece had not moved yet, had an empty square next to
    /// it, and another piece moved: a player moves a piece that can move sooner or later, so a
    /// piece that stays put while it could go is likelier a mine or the flag.
    pub idle: [[u8; 23]; 2],
    /// Every battle, in order.
    pub battles: Vec<BattleFact>,
    /// The viewer's kind of each of its pieces.
    pub own_kinds: [Kind; 23],
}

/// Why a view's history could not be followed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrackError {
    #[error("ply {0}: no piece of the mover on the square it leaves")]
    NoMover(usize),
    #[error("ply {0}: the announced battle does not match the squares")]
    BattleMismatch(usize),
    #[error("the history does not lead to the view's board")]
    BoardMismatch,
    #[error("the view's removed pieces do not match the battles in the history")]
    RemovedMismatch,
}

impl Tracked {
    /// Follows every ply of the view's history from the full starting camps.
    ///
    /// # Errors
    /// [`TrackError`] when the history does not fit the board (a hand-made or corrupted view).
    pub fn from_view(view: &PlayerView) -> Result<Tracked, TrackError> {
        let mut initial = [[Square::HQ_SENTE; 23]; 2];
        let mut board: [Option<PieceId>; Square::COUNT] = [None; Square::COUNT];
        for side in Side::ALL {
            for (i, sq) in camp_squares(side).enumerate().take(23) {
                initial[side.index()][i] = sq;
                board[sq.index()] = Some((side, i as u8));
            }
        }
        let mut current = initial.map(|row| row.map(Some));
        let mut moves_allow = [[KindSet::ALL; 23]; 2];
        let mut moved = [[false; 23]; 2];
        let mut advances = [[0u8; 23]; 2];
        let mut attacks = [[0u8; 23]; 2];
        let mut spared_planes = [[0u8; 23]; 2];
        let mut idle = [[0u8; 23]; 2];
        let mut battles = Vec::new();
        let mut removed_own: Vec<u8> = Vec::new();

        for (n, ply) in view.history().iter().enumerate() {
            let mover = match board[ply.from.index()] {
                Some(id) if id.0 == ply.side => id,
                _ => return Err(TrackError::NoMover(n)),
            };
            let occupied = board.map(|p| p.map(|(s, _)| s));
            for sq in Square::all() {
                if let Some((s, i)) = board[sq.index()]
                    && s == ply.side
                    && sq != ply.from
                    && !moved[s.index()][i as usize]
                    && sq.neighbours().any(|n| board[n.index()].is_none())
                {
                    let still = &mut idle[s.index()][i as usize];
                    *still = still.saturating_add(1);
                }
            }
            let allow = kinds_making(&occupied, ply.side, ply.from, ply.to);
            let (ms, mi) = (mover.0.index(), mover.1 as usize);
            moves_allow[ms][mi] = moves_allow[ms][mi].and(allow);
            moved[ms][mi] = true;
            if ply.to.relative_row(ply.side) > ply.from.relative_row(ply.side) {
                advances[ms][mi] = advances[ms][mi].saturating_add(1);
            }
            // The mover's pieces next to an enemy plane that nobody attacks this ply.
            let plane_targets: Vec<Square> = Square::all()
                .filter(|&sq| {
                    sq != ply.to
                        && board[sq.index()].is_some_and(|(s, i)| {
                            s != ply.side
                                && moves_allow[s.index()][i as usize] == KindSet::only(Kind::Plane)
                        })
                })
                .collect();
            for plane in plane_targets {
                for n in plane.neighbours() {
                    if let Some((s, i)) = board[n.index()]
                        && s == ply.side
                    {
                        let spared = &mut spared_planes[s.index()][i as usize];
                        *spared = spared.saturating_add(1);
                    }
                }
            }
            board[ply.from.index()] = None;
            let target = board[ply.to.index()];
            match (ply.battle, target) {
                (None, None) => {
                    board[ply.to.index()] = Some(mover);
                    current[ms][mi] = Some(ply.to);
                }
                (Some(battle), Some(defender))
                    if defender.0 != ply.side && battle.square == ply.to =>
                {
                    let behind = ply
                        .to
                        .behind(defender.0)
                        .and_then(|b| board[b.index()])
                        .filter(|b| b.0 == defender.0);
                    attacks[ms][mi] = attacks[ms][mi].saturating_add(1);
                    battles.push(BattleFact {
                        attacker: mover,
                        defender,
                        behind,
                        outcome: battle.outcome,
                    });
                    let mut remove = |id: PieceId| {
                        current[id.0.index()][id.1 as usize] = None;
                        if id.0 == view.side() {
                            removed_own.push(id.1);
                        }
                    };
                    match battle.outcome {
                        Outcome::Attacker => {
                            remove(defender);
                            board[ply.to.index()] = Some(mover);
                            current[ms][mi] = Some(ply.to);
                        }
                        Outcome::Defender => remove(mover),
                        Outcome::Both => {
                            remove(mover);
                            remove(defender);
                            board[ply.to.index()] = None;
                        }
                    }
                }
                _ => return Err(TrackError::BattleMismatch(n)),
            }
        }

        // The board reached must be the view's board.
        let me = view.side();
        let mut own_kinds = [Kind::Mine; 23];
        let mut own_on_board = 0;
        for sq in Square::all() {
            match board[sq.index()] {
                Some((s, i)) if s == me => {
                    let kind = view.own_at(sq).ok_or(TrackError::BoardMismatch)?;
                    own_kinds[i as usize] = kind;
                    own_on_board += 1;
                }
                Some(_) => {
                    if !view.enemy_at(sq) {
                        return Err(TrackError::BoardMismatch);
                    }
                }
                None => {
                    if view.own_at(sq).is_some() || view.enemy_at(sq) {
                        return Err(TrackError::BoardMismatch);
                    }
                }
            }
        }
        if own_on_board != view.own().len() || removed_own.len() != view.removed_own().len() {
            return Err(TrackError::RemovedMismatch);
        }
        for (&i, &kind) in removed_own.iter().zip(view.removed_own()) {
            own_kinds[i as usize] = kind;
        }
        let mut counts = [0u8; 16];
        for k in own_kinds {
            counts[k.index()] += 1;
        }
        if Kind::ALL.iter().any(|k| counts[k.index()] != k.count()) {
            return Err(TrackError::RemovedMismatch);
        }
        Ok(Tracked {
            side: me,
            initial,
            current,
            moves_allow,
            moved,
            advances,
            attacks,
            spared_planes,
            idle,
            battles,
            own_kinds,
        })
    }
}

/// The kinds of `side` that could have moved `from` → `to` with the board occupied as given.
/// Single steps fit every mobile kind; longer moves are checked with the engine's own move rules.
fn kinds_making(
    occupied: &[Option<Side>; Square::COUNT],
    side: Side,
    from: Square,
    to: Square,
) -> KindSet {
    if from.neighbours().any(|n| n == to) {
        return KindSet::MOBILE;
    }
    let mut allowed = KindSet::EMPTY;
    for (probe, adds) in [
        (Kind::Tank, KindSet::of(&[Kind::Tank, Kind::Cavalry])),
        (Kind::Engineer, KindSet::only(Kind::Engineer)),
        (Kind::Plane, KindSet::only(Kind::Plane)),
    ] {
        if can_reach(occupied, side, probe, from, to) {
            allowed = allowed.union(adds);
        }
    }
    allowed
}

/// Whether a `kind` of `side` on `from` could enter `to` with this occupancy. Other pieces get
/// stand-in kinds: movement does not depend on them.
fn can_reach(
    occupied: &[Option<Side>; Square::COUNT],
    side: Side,
    kind: Kind,
    from: Square,
    to: Square,
) -> bool {
    let mut pools: [Vec<Kind>; 2] = [stand_ins(None), stand_ins(None)];
    pools[side.index()] = stand_ins(Some(kind));
    let mut pieces = Vec::with_capacity(Square::COUNT);
    for sq in Square::all() {
        let Some(s) = occupied[sq.index()] else {
            continue;
        };
        let k = if sq == from && s == side {
            kind
        } else {
            match pools[s.index()].pop() {
                Some(k) => k,
                None => return false,
            }
        };
        pieces.push((sq, Piece { side: s, kind: k }));
    }
    match Position::from_pieces(Ruleset::STANDARD, pieces, side, 0) {
        Ok(pos) => pos.is_legal(Move { from, to }),
        Err(_) => false,
    }
}

/// The 23 kinds of a side, less one `taken`.
fn stand_ins(taken: Option<Kind>) -> Vec<Kind> {
    let mut all: Vec<Kind> = Kind::ALL
        .into_iter()
        .flat_map(|k| core::iter::repeat_n(k, k.count() as usize))
        .collect();
    if let Some(t) = taken
        && let Some(i) = all.iter().position(|&k| k == t)
    {
        all.remove(i);
    }
    all
}
