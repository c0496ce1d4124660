//! The board in play: pieces, turn, counters, move generation and move application.

use arrayvec::ArrayVec;

use crate::battle::{Battle, Outcome, resolve_battle};
use crate::error::{IllegalMove, MoveError};
use crate::kind::Kind;
use crate::rules::Ruleset;
use crate::setup::Deployment;
use crate::side::{BySide, Side};
use crate::square::{Direction, Square};
use crate::status::{DrawReason, Status, WinReason};

/// Plies in a row without a battle that end the game in a draw (§6).
pub const NO_BATTLE_LIMIT: u16 = 100;

/// A piece: whose it is and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Piece {
    pub side: Side,
    pub kind: Kind,
}

/// A move: the square a piece leaves and the square it enters. Two paths to the same square are
/// one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(from = "(Square, Square)", into = "(Square, Square)")
)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl From<(Square, Square)> for Move {
    fn from((from, to): (Square, Square)) -> Self {
        Move { from, to }
    }
}

impl From<Move> for (Square, Square) {
    fn from(m: Move) -> Self {
        (m.from, m.to)
    }
}

impl core::fmt::Display for Move {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// Upper bound on the legal moves of one side (23 pieces, the widest reach each).
pub const MAX_MOVES: usize = 192;

/// The legal moves of a side, without allocation.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Where one piece can go, for the UI: empty squares and squares where it would attack.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Destinations {
    /// Empty squares the piece can enter.
    pub moves: Vec<Square>,
    /// Squares held by enemy pieces the piece can attack.
    pub attacks: Vec<Square>,
}

/// What happened when a move was played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The mover's piece, as it was before the move.
    pub mover: Piece,
    /// The defender, if the move started a battle.
    pub defender: Option<Piece>,
    /// The announced battle, if any.
    pub battle: Option<Battle>,
    /// The game's status after the move.
    pub status: Status,
}

/// A position: every piece on the board, the side to move, the no-battle counter, and the status.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: [Option<Piece>; Square::COUNT],
    /// Each side's squares holding a mobile piece, bit `i` for square index `i`: derived from
    /// `board`, kept so move generation visits only pieces that can move.
    mobile: BySide<u64>,
    to_move: Side,
    plies_without_battle: u16,
    status: Status,
    removed: BySide<[u8; 16]>,
    rules: Ruleset,
}

impl Position {
    /// The starting position of a game: both deployments on the board, sente to move.
    #[must_use]
    pub fn new(rules: Ruleset, deployments: &BySide<Deployment>) -> Position {
        let mut board = [None; Square::COUNT];
        for side in Side::ALL {
            for (sq, kind) in deployments[side].pieces() {
                board[sq.index()] = Some(Piece { side, kind });
            }
        }
        Self::from_board(rules, board, Side::Sente, 0)
    }

    /// A position from any arrangement of pieces (for analysis, tests and the CPU's imagined
    /// worlds). Pieces missing from the board count as removed. The status is computed as it
    /// would be after a move: no legal move for either side is a draw, none for the side to move
    /// a loss.
    ///
    /// # Errors
    /// [`crate::PositionError`] when a side has more pieces of a kind than the game has.
    pub fn from_pieces(
        rules: Ruleset,
        pieces: impl IntoIterator<Item = (Square, Piece)>,
        to_move: Side,
        plies_without_battle: u16,
    ) -> Result<Position, crate::PositionError> {
        let mut board = [None; Square::COUNT];
        for (sq, piece) in pieces {
            if board[sq.index()].is_some() {
                return Err(crate::PositionError::SquareTwice(sq));
            }
            board[sq.index()] = Some(piece);
        }
        let mut counts = BySide::<[u8; 16]>::default();
        for piece in board.iter().flatten() {
            counts[piece.side][piece.kind.index()] += 1;
            if counts[piece.side][piece.kind.index()] > piece.kind.count() {
                return Err(crate::PositionError::TooMany(piece.side, piece.kind));
            }
        }
        let mut pos = Self::from_board(rules, board, to_move, plies_without_battle);
        if plies_without_battle >= NO_BATTLE_LIMIT {
            pos.status = Status::Draw {
                reason: DrawReason::NoBattleLimit,
            };
        } else {
            pos.status = pos.no_moves_status();
        }
        Ok(pos)
    }

    fn from_board(
        rules: Ruleset,
        board: [Option<Piece>; Square::COUNT],
        to_move: Side,
        plies_without_battle: u16,
    ) -> Position {
        let mut removed = BySide::new_with(|_| Kind::ALL.map(Kind::count));
        for piece in board.iter().flatten() {
            removed[piece.side][piece.kind.index()] -= 1;
        }
        let mut mobile = BySide::<u64>::default();
        for (i, piece) in board.iter().enumerate() {
            if let Some(p) = piece
                && p.kind.is_mobile()
            {
                mobile[p.side] |= 1 << i;
            }
        }
        Position {
            board,
            mobile,
            to_move,
            plies_without_battle,
            status: Status::Ongoing,
            removed,
            rules,
        }
    }

    /// The piece on a square.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Every piece on the board, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|sq| self.board[sq.index()].map(|p| (sq, p)))
    }

    /// The side whose turn it is.
    #[must_use]
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Plies played since the last battle.
    #[must_use]
    pub fn plies_without_battle(&self) -> u16 {
        self.plies_without_battle
    }

    /// Whether the game goes on, and if not, how it ended.
    #[must_use]
    pub fn status(&self) -> Status {
        self.status
    }

    /// The rule set.
    #[must_use]
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// How many pieces of each kind (indexed by [`Kind::index`]) `side` has lost.
    #[must_use]
    pub fn removed_counts(&self, side: Side) -> [u8; 16] {
        self.removed[side]
    }

    /// `side`'s removed pieces, one entry per piece, in [`Kind::ALL`] order.
    #[must_use]
    pub fn removed(&self, side: Side) -> Vec<Kind> {
        Kind::ALL
            .into_iter()
            .flat_map(|k| core::iter::repeat_n(k, self.removed[side][k.index()] as usize))
            .collect()
    }

    /// Every legal move of the side to move; empty once the game is over. Pieces come in square
    /// order; each piece's moves in a fixed order (lines north, south, east, west; a plane's
    /// flights before its side steps; a tank's or cavalry's steps before its 2-step).
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.status.is_ongoing() {
            self.moves_of(self.to_move, &mut list);
        }
        list
    }

    /// Appends every move `side` could make if it were its turn, in the order of
    /// [`Position::legal_moves`]. An empty [`MoveList`] always has room ([`MAX_MOVES`] bounds the
    /// moves of one side); moves that do not fit in a list already partly filled are left out.
    pub fn moves_of(&self, side: Side, out: &mut MoveList) {
        for (from, piece) in self.mobile_pieces(side) {
            if self.any_destination(from, piece, |to| out.try_push(Move { from, to }).is_err()) {
                return;
            }
        }
    }

    /// `side`'s mobile pieces in square order.
    #[inline]
    fn mobile_pieces(&self, side: Side) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let mut bits = self.mobile[side];
        core::iter::from_fn(move || {
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let (Some(&sq), Some(&Some(piece))) = (Square::ALL.get(i), self.board.get(i)) {
                    return Some((sq, piece));
                }
            }
            None
        })
    }

    /// Puts `piece` on the square at `index`, keeping the mobile-piece sets in step.
    #[inline]
    fn set(&mut self, index: usize, piece: Option<Piece>) {
        if let Some(old) = self.board[index] {
            self.mobile[old.side] &= !(1 << index);
        }
        if let Some(new) = piece
            && new.kind.is_mobile()
        {
            self.mobile[new.side] |= 1 << index;
        }
        self.board[index] = piece;
    }

    /// Whether `side` would have at least one legal move if it were its turn.
    #[must_use]
    pub fn has_move(&self, side: Side) -> bool {
        self.mobile_pieces(side)
            .any(|(from, piece)| self.any_destination(from, piece, |_| true))
    }

    /// Where the piece on `from` can go, told apart into empty squares and attacks. Empty when
    /// there is no piece or the game is over. Answers for either side's piece, whoever is to move.
    #[must_use]
    pub fn destinations(&self, from: Square) -> Destinations {
        let mut out = Destinations::default();
        if let (Some(piece), true) = (self.board[from.index()], self.status.is_ongoing()) {
            self.any_destination(from, piece, |to| {
                if self.board[to.index()].is_some() {
                    out.attacks.push(to);
                } else {
                    out.moves.push(to);
                }
                false
            });
        }
        out
    }

    /// Calls `f` once per square the piece on `from` can enter (§4), in a fixed order: lines
    /// north, south, east, west (flights before side steps for the plane, steps before the
    /// 2-step for the tank and the cavalry). Stops as soon as `f` returns `true` and then returns
    /// `true`.
    #[inline]
    fn any_destination(
        &self,
        from: Square,
        piece: Piece,
        mut f: impl FnMut(Square) -> bool,
    ) -> bool {
        let side = piece.side;
        let board = &self.board;
        let free = |sq: Square| match board[sq.index()] {
            Some(q) => q.side != side,
            None => true,
        };
        match piece.kind {
            Kind::Mine | Kind::Flag => false,
            Kind::Engineer => {
                for d in Direction::ALL {
                    for ray in from.walk_rays(d) {
                        for &sq in *ray {
                            match board[sq.index()] {
                                None => {
                                    if f(sq) {
                                        return true;
                                    }
                                }
                                Some(q) => {
                                    if q.side != side && f(sq) {
                                        return true;
                                    }
                                    break;
                                }
                            }
                        }
                    }
                }
                false
            }
            Kind::Plane => {
                for d in [Direction::North, Direction::South] {
                    for ray in from.fly_rays(d) {
                        for &sq in *ray {
                            if free(sq) && f(sq) {
                                return true;
                            }
                        }
                    }
                }
                from.side_steps().iter().any(|&sq| free(sq) && f(sq))
            }
            Kind::Tank | Kind::Cavalry => {
                if from.steps().iter().any(|&sq| free(sq) && f(sq)) {
                    return true;
                }
                for ray in from.walk_rays(Direction::forward(side)) {
                    if let [first, second, ..] = ray
                        && board[first.index()].is_none()
                        && free(*second)
                        && f(*second)
                    {
                        return true;
                    }
                }
                false
            }
            _ => from.steps().iter().any(|&sq| free(sq) && f(sq)),
        }
    }

    /// Whether the piece on `mv.from`, were it a `kind` of its side, could make `mv` on this
    /// board: what the shape of a move tells the opponent (§7: every move is public). `false`
    /// without a piece there.
    #[must_use]
    pub fn could_move_as(&self, mv: Move, kind: Kind) -> bool {
        match self.board[mv.from.index()] {
            Some(p) => {
                self.any_destination(mv.from, Piece { side: p.side, kind }, |to| to == mv.to)
            }
            None => false,
        }
    }

    /// Whether `mv` is legal now.
    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    fn check(&self, mv: Move) -> Result<Piece, MoveError> {
        if !self.status.is_ongoing() {
            return Err(MoveError::GameOver);
        }
        let illegal = |reason| Err(MoveError::Illegal { mv, reason });
        let Some(piece) = self.board[mv.from.index()] else {
            return illegal(IllegalMove::NoPiece);
        };
        if piece.side != self.to_move {
            return illegal(IllegalMove::NotYourPiece);
        }
        if !piece.kind.is_mobile() {
            return illegal(IllegalMove::Immobile);
        }
        if !self.any_destination(mv.from, piece, |to| to == mv.to) {
            return illegal(IllegalMove::Unreachable);
        }
        Ok(piece)
    }

    /// Plays a move: resolves any battle, updates the counters and the status (§4–§6).
    ///
    /// # Errors
    /// [`MoveError::GameOver`] after the end, [`MoveError::Illegal`] for a move the side to move
    /// cannot make. The position is unchanged on error.
    pub fn play(&mut self, mv: Move) -> Result<Played, MoveError> {
        let mover = self.check(mv)?;
        Ok(self.apply(mv, mover))
    }

    fn apply(&mut self, mv: Move, mover: Piece) -> Played {
        let (from, to) = (mv.from.index(), mv.to.index());
        let defender = self.board[to];
        self.set(from, None);
        let battle = defender.map(|def| {
            let behind = mv
                .to
                .behind(def.side)
                .and_then(|b| self.board[b.index()])
                .filter(|b| b.side == def.side)
                .map(|b| b.kind);
            let outcome = resolve_battle(mover.kind, def.kind, behind, &self.rules);
            match outcome {
                Outcome::Attacker => {
                    self.removed[def.side][def.kind.index()] += 1;
                    self.set(to, Some(mover));
                }
                Outcome::Defender => {
                    self.removed[mover.side][mover.kind.index()] += 1;
                }
                Outcome::Both => {
                    self.removed[def.side][def.kind.index()] += 1;
                    self.removed[mover.side][mover.kind.index()] += 1;
                    self.set(to, None);
                }
            }
            Battle {
                square: mv.to,
                outcome,
            }
        });
        if battle.is_some() {
            self.plies_without_battle = 0;
        } else {
            self.set(to, Some(mover));
            self.plies_without_battle += 1;
        }
        self.to_move = mover.side.opponent();
        self.status = if mv.to == Square::hq(mover.side.opponent())
            && self.board[to] == Some(mover)
            && mover.kind.can_occupy()
        {
            Status::Won {
                winner: mover.side,
                reason: WinReason::Occupation,
            }
        } else if self.plies_without_battle >= NO_BATTLE_LIMIT {
            Status::Draw {
                reason: DrawReason::NoBattleLimit,
            }
        } else {
            self.no_moves_status()
        };
        Played {
            mover,
            defender,
            battle,
            status: self.status,
        }
    }

    fn no_moves_status(&self) -> Status {
        if self.has_move(self.to_move) {
            Status::Ongoing
        } else if self.has_move(self.to_move.opponent()) {
            Status::Won {
                winner: self.to_move.opponent(),
                reason: WinReason::NoMoves,
            }
        } else {
            Status::Draw {
                reason: DrawReason::NoMoves,
            }
        }
    }

    /// `side` resigns. Either side may resign at any time, on its turn or not.
    ///
    /// # Errors
    /// [`MoveError::GameOver`] if the game has already ended; nothing changes then.
    pub fn resign(&mut self, side: Side) -> Result<Status, MoveError> {
        if !self.status.is_ongoing() {
            return Err(MoveError::GameOver);
        }
        self.status = Status::Won {
            winner: side.opponent(),
            reason: WinReason::Resignation,
        };
        Ok(self.status)
    }
}
