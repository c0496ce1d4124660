//! Deployments (駒の並べ方, §3): a raw setup that may break the rules, the validated deployment,
//! swapping two pieces, mirroring, and automatic arrangement.

use rand::{Rng, RngExt, SeedableRng, rngs::SmallRng};

use crate::kind::Kind;
use crate::rules::Ruleset;
use crate::side::Side;
use crate::square::Square;

/// Squares in one camp.
pub const CAMP_SQUARES: usize = 23;

/// A raw deployment as a player or a file gives it: squares and kinds, possibly illegal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// Every piece placed. Parse problems found before this point (an unknown square name, say)
    /// travel in `unparsed` so they are reported with the rest.
    pub pieces: Vec<(Square, Kind)>,
    /// Names that did not parse, reported as violations.
    pub unparsed: Vec<SetupViolation>,
}

impl Setup {
    /// A setup from square and kind names, e.g. `("a1", "general")`. Names that do not parse are
    /// kept and reported by [`Deployment::new`].
    pub fn from_names<'a>(entries: impl IntoIterator<Item = (&'a str, &'a str)>) -> Setup {
        let mut setup = Setup::default();
        for (sq, kind) in entries {
            match (Square::parse(sq), Kind::from_id(kind)) {
                (Some(s), Some(k)) => setup.pieces.push((s, k)),
                (None, _) => setup.unparsed.push(SetupViolation::UnknownSquare {
                    name: sq.to_owned(),
                    kind: kind.to_owned(),
                }),
                (Some(s), None) => setup.unparsed.push(SetupViolation::UnknownKind {
                    square: s,
                    name: kind.to_owned(),
                }),
            }
        }
        setup
    }
}

/// A square as a message names it: the headquarters with both its spellings, so a setup that
/// wrote `c1` or `d1` finds its square in the message.
fn spelled(square: &Square) -> String {
    if square.is_hq() {
        let row = square.row();
        format!("{square} (the headquarters, c{row}/d{row})")
    } else {
        square.to_string()
    }
}

/// " (placed on a1, b2)" for the squares a kind was placed on ("" for none).
fn placed_on(squares: &[Square]) -> String {
    if squares.is_empty() {
        return String::new();
    }
    let names: Vec<String> = squares.iter().map(spelled).collect();
    format!(" (placed on {})", names.join(", "))
}

/// One broken rule of a deployment: the piece, the square and the rule.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum SetupViolation {
    #[error("{kind:?} on {name:?}: {name:?} is not a square of the board")]
    UnknownSquare { name: String, kind: String },
    #[error("{name:?} on {} is not a kind of piece", spelled(.square))]
    UnknownKind { square: Square, name: String },
    #[error("{kind} on {}: the square is outside {side}'s camp", spelled(.square))]
    OutsideCamp {
        side: Side,
        square: Square,
        kind: Kind,
    },
    #[error("{} is given more than one piece ({first}, then {second}): one piece per square", spelled(.square))]
    SquareTwice {
        square: Square,
        first: Kind,
        second: Kind,
    },
    #[error("{} is left empty: every square of the camp holds a piece", spelled(.square))]
    EmptySquare { square: Square },
    /// `squares`: where the kind was placed, in the order given (none when it was left out).
    #[error("{kind}: {found} placed, the game has {expected}{}", placed_on(.squares))]
    WrongCount {
        kind: Kind,
        expected: u8,
        found: u8,
        squares: Vec<Square>,
    },
    #[error("mine on {}: a mine may not stand on an entrance", spelled(.square))]
    MineOnEntrance { square: Square },
    #[error("flag on {}: the flag may not stand on an entrance", spelled(.square))]
    FlagOnEntrance { square: Square },
    #[error("flag on {}: the flag may not stand on the back row", spelled(.square))]
    FlagOnBackRow { square: Square },
    #[error("mine on {}: these rules allow no mine in the headquarters", spelled(.square))]
    MineInHq { square: Square },
}

impl SetupViolation {
    /// A stable id of the broken rule, for messages in the UI's language.
    #[must_use]
    pub fn rule_id(&self) -> &'static str {
        match self {
            SetupViolation::UnknownSquare { .. } => "unknown_square",
            SetupViolation::UnknownKind { .. } => "unknown_kind",
            SetupViolation::OutsideCamp { .. } => "outside_camp",
            SetupViolation::SquareTwice { .. } => "square_twice",
            SetupViolation::EmptySquare { .. } => "empty_square",
            SetupViolation::WrongCount { .. } => "wrong_count",
            SetupViolation::MineOnEntrance { .. } => "mine_on_entrance",
            SetupViolation::FlagOnEntrance { .. } => "flag_on_entrance",
            SetupViolation::FlagOnBackRow { .. } => "flag_on_back_row",
            SetupViolation::MineInHq { .. } => "mine_in_hq",
        }
    }
}

/// Every rule a setup broke.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid setup for {side}: {}", join(.violations))]
pub struct SetupError {
    pub side: Side,
    pub violations: Vec<SetupViolation>,
}

fn join(v: &[SetupViolation]) -> String {
    v.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Why a swap of two squares was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SwapError {
    #[error("{square} is not in {side}'s camp")]
    OutsideCamp { side: Side, square: Square },
    #[error("{0}")]
    Refused(SetupViolation),
}

/// The rule `kind` would break on `square` of `side`'s camp, if any (the entrance, back-row and
/// headquarters rules; not the counts).
#[must_use]
pub fn placement_violation(
    side: Side,
    square: Square,
    kind: Kind,
    rules: &Ruleset,
) -> Option<SetupViolation> {
    if square.camp() != side {
        return Some(SetupViolation::OutsideCamp { side, square, kind });
    }
    match kind {
        Kind::Mine if square.is_entrance_of(side) => {
            Some(SetupViolation::MineOnEntrance { square })
        }
        Kind::Mine if square.is_hq() && !rules.mine_in_hq => {
            Some(SetupViolation::MineInHq { square })
        }
        Kind::Flag if square.is_entrance_of(side) => {
            Some(SetupViolation::FlagOnEntrance { square })
        }
        Kind::Flag if square.relative_row(side) == 1 => {
            Some(SetupViolation::FlagOnBackRow { square })
        }
        _ => None,
    }
}

/// The squares of `side`'s camp, in square order.
pub fn camp_squares(side: Side) -> impl Iterator<Item = Square> + Clone {
    Square::all().filter(move |sq| sq.camp() == side)
}

fn slot(side: Side, sq: Square) -> Option<usize> {
    (sq.camp() == side).then(|| match side {
        Side::Sente => sq.index(),
        Side::Gote => sq.index() - CAMP_SQUARES,
    })
}

/// A legal deployment of one side: every camp square holds one of its 23 pieces.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deployment {
    side: Side,
    rules: Ruleset,
    kinds: [Kind; CAMP_SQUARES],
}

impl Deployment {
    /// Validates a raw setup.
    ///
    /// # Errors
    /// [`SetupError`] listing every broken rule, not only the first.
    ///
    /// ```
    /// use gunjin::{Deployment, Kind, Ruleset, Setup, Side, Square};
    /// let good = Deployment::auto(Side::Sente, 1);
    /// let mut raw = good.to_setup();
    /// raw.pieces.retain(|&(_, k)| k != Kind::Flag);
    /// let err = Deployment::new(Side::Sente, &raw, &Ruleset::STANDARD).unwrap_err();
    /// assert!(err.violations.len() >= 2); // the flag is missing and its square is empty
    /// ```
    pub fn new(side: Side, setup: &Setup, rules: &Ruleset) -> Result<Deployment, SetupError> {
        let mut violations = setup.unparsed.clone();
        let mut slots: [Option<Kind>; CAMP_SQUARES] = [None; CAMP_SQUARES];
        let mut counts = [0u8; 16];
        for &(square, kind) in &setup.pieces {
            counts[kind.index()] = counts[kind.index()].saturating_add(1);
            let Some(i) = slot(side, square) else {
                violations.push(SetupViolation::OutsideCamp { side, square, kind });
                continue;
            };
            if let Some(first) = slots[i] {
                violations.push(SetupViolation::SquareTwice {
                    square,
                    first,
                    second: kind,
                });
                continue;
            }
            slots[i] = Some(kind);
            violations.extend(placement_violation(side, square, kind, rules));
        }
        for (sq, kind) in camp_squares(side).zip(slots) {
            if kind.is_none() {
                violations.push(SetupViolation::EmptySquare { square: sq });
            }
        }
        for kind in Kind::ALL {
            if counts[kind.index()] != kind.count() {
                violations.push(SetupViolation::WrongCount {
                    kind,
                    expected: kind.count(),
                    found: counts[kind.index()],
                    squares: setup
                        .pieces
                        .iter()
                        .filter(|&&(_, k)| k == kind)
                        .map(|&(sq, _)| sq)
                        .collect(),
                });
            }
        }
        if !violations.is_empty() {
            return Err(SetupError { side, violations });
        }
        let kinds = slots.map(|k| k.unwrap_or(Kind::Mine));
        Ok(Deployment {
            side,
            rules: *rules,
            kinds,
        })
    }

    /// The side this deployment belongs to.
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The piece on a camp square.
    #[must_use]
    pub fn kind_at(&self, sq: Square) -> Option<Kind> {
        slot(self.side, sq).map(|i| self.kinds[i])
    }

    /// Every square with its piece, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Kind)> + '_ {
        camp_squares(self.side).zip(self.kinds)
    }

    /// Back to a raw setup.
    #[must_use]
    pub fn to_setup(&self) -> Setup {
        Setup {
            pieces: self.pieces().collect(),
            unparsed: Vec::new(),
        }
    }

    /// The deployment with the pieces on `a` and `b` exchanged (the page's two-press swap).
    ///
    /// # Errors
    /// [`SwapError::OutsideCamp`] for a square outside the camp; [`SwapError::Refused`] with the
    /// broken rule when a mine or the flag would land where it may not stand. `self` is unchanged.
    pub fn swapped(&self, a: Square, b: Square) -> Result<Deployment, SwapError> {
        let side = self.side;
        let ia = slot(side, a).ok_or(SwapError::OutsideCamp { side, square: a })?;
        let ib = slot(side, b).ok_or(SwapError::OutsideCamp { side, square: b })?;
        let (ka, kb) = (self.kinds[ia], self.kinds[ib]);
        for (sq, kind) in [(b, ka), (a, kb)] {
            if let Some(v) = placement_violation(side, sq, kind, &self.rules) {
                return Err(SwapError::Refused(v));
            }
        }
        let mut next = self.clone();
        next.kinds.swap(ia, ib);
        Ok(next)
    }

    /// The deployment mirrored left to right (a↔f, b↔e, c↔d). Always legal: the entrances and
    /// the back row map onto themselves.
    #[must_use]
    pub fn mirrored(&self) -> Deployment {
        let mut next = self.clone();
        for (sq, kind) in self.pieces() {
            if let Some(i) = slot(self.side, sq.mirrored()) {
                next.kinds[i] = kind;
            }
        }
        next
    }

    /// The same arrangement for the other side, as its player sees it from their own end of the
    /// board (every piece on the [`Square::turned`] square). Every placement rule reads the same
    /// from both ends, so the result is legal too.
    #[must_use]
    pub fn turned(&self) -> Deployment {
        let side = self.side.opponent();
        let mut kinds = self.kinds;
        for (sq, kind) in self.pieces() {
            if let Some(i) = slot(side, sq.turned()) {
                kinds[i] = kind;
            }
        }
        Deployment {
            side,
            rules: self.rules,
            kinds,
        }
    }

    /// A sensible automatic arrangement (おまかせ) from a seed: the same seed gives the same
    /// deployment. See [`Deployment::auto_with`].
    #[must_use]
    pub fn auto(side: Side, seed: u64) -> Deployment {
        Self::auto_with(side, &Ruleset::STANDARD, &mut SmallRng::seed_from_u64(seed))
    }

    /// A sensible automatic arrangement drawn from `rng`: the headquarters holds the general, or
    /// a mine with the general next to it; the flag stands in front of a strong piece or a mine;
    /// high officers mostly stay back, cheap pieces and tanks go forward.
    pub fn auto_with<R: Rng + ?Sized>(side: Side, rules: &Ruleset, rng: &mut R) -> Deployment {
        let mut slots: [Option<Kind>; CAMP_SQUARES] = [None; CAMP_SQUARES];
        let mut left: Vec<Kind> = Kind::ALL
            .into_iter()
            .flat_map(|k| core::iter::repeat_n(k, k.count() as usize))
            .collect();
        let hq = Square::hq(side);
        let put = |slots: &mut [Option<Kind>; CAMP_SQUARES], left: &mut Vec<Kind>, sq, k| {
            if let (Some(i), Some(pos)) = (slot(side, sq), left.iter().position(|&x| x == k)) {
                slots[i] = Some(k);
                left.swap_remove(pos);
            }
        };
        let free = |slots: &[Option<Kind>; CAMP_SQUARES], sq: Square| {
            slot(side, sq).is_some_and(|i| slots[i].is_none())
        };

        // The headquarters: the general, or a mine with the general beside it.
        if rules.mine_in_hq && rng.random_bool(0.45) {
            put(&mut slots, &mut left, hq, Kind::Mine);
            let beside: Vec<Square> = hq.neighbours().collect();
            let sq = beside[rng.random_range(0..beside.len())];
            put(&mut slots, &mut left, sq, Kind::General);
        } else {
            put(&mut slots, &mut left, hq, Kind::General);
        }

        // The flag, with a mine or a strong piece right behind it.
        let flag_squares: Vec<(Square, u32)> = camp_squares(side)
            .filter(|&sq| placement_violation(side, sq, Kind::Flag, rules).is_none())
            .filter(|&sq| free(&slots, sq))
            .filter_map(|sq| {
                let behind = sq.behind(side)?;
                let guard_ok = match slot(side, behind).and_then(|i| slots[i]) {
                    None => true,
                    Some(k) => matches!(
                        k,
                        Kind::General | Kind::LieutenantGeneral | Kind::MajorGeneral | Kind::Mine
                    ),
                };
                let weight = match sq.relative_row(side) {
                    2 => 6,
                    3 => 2,
                    _ => 0,
                };
                (guard_ok && weight > 0).then_some((sq, weight))
            })
            .collect();
        if let Some(flag_sq) = weighted(rng, &flag_squares) {
            put(&mut slots, &mut left, flag_sq, Kind::Flag);
            if let Some(behind) = flag_sq.behind(side).filter(|&b| free(&slots, b)) {
                let guards: Vec<(Kind, u32)> = [
                    (Kind::Mine, 4),
                    (Kind::LieutenantGeneral, 3),
                    (Kind::MajorGeneral, 2),
                ]
                .into_iter()
                .filter(|(k, _)| left.contains(k))
                .filter(|&(k, _)| placement_violation(side, behind, k, rules).is_none())
                .collect();
                if let Some(guard) = weighted(rng, &guards) {
                    put(&mut slots, &mut left, behind, guard);
                }
            }
        }

        // Everything else, most particular pieces first, each drawn to the rows that suit it.
        left.sort_by_key(|&k| placement_order(k));
        let order = left.clone();
        for kind in order {
            let choices: Vec<(Square, u32)> = camp_squares(side)
                .filter(|&sq| free(&slots, sq))
                .filter(|&sq| placement_violation(side, sq, kind, rules).is_none())
                .map(|sq| (sq, row_weight(kind, sq, side)))
                .collect();
            if let Some(sq) = weighted(rng, &choices) {
                put(&mut slots, &mut left, sq, kind);
            }
        }

        // Every weight above is positive on every allowed square, so all slots are filled; the
        // fallback only guards the invariant.
        let kinds = slots.map(|k| k.unwrap_or(Kind::Captain));
        Deployment {
            side,
            rules: *rules,
            kinds,
        }
    }
}

fn placement_order(kind: Kind) -> u8 {
    match kind {
        Kind::Mine => 0,
        Kind::Flag => 1,
        Kind::General => 2,
        Kind::LieutenantGeneral | Kind::MajorGeneral => 3,
        Kind::Spy => 4,
        Kind::Tank | Kind::Plane => 5,
        _ => 6,
    }
}

/// How strongly automatic arrangement draws `kind` to a row of its camp, counted from the back
/// (1) to the front (4); 0 outside that range. The CPU's prior over enemy deployments reads the
/// same table, so the two agree on what a usual arrangement looks like.
#[must_use]
pub const fn row_preference(kind: Kind, relative_row: u8) -> u32 {
    let by_row: [u32; 4] = match kind {
        Kind::Mine => [6, 6, 4, 1],
        Kind::Flag => [0, 6, 2, 1],
        Kind::General => [8, 6, 2, 1],
        Kind::LieutenantGeneral | Kind::MajorGeneral => [4, 6, 4, 1],
        Kind::Colonel | Kind::LieutenantColonel | Kind::Major => [3, 4, 4, 2],
        Kind::Captain | Kind::Lieutenant | Kind::SecondLieutenant => [1, 3, 4, 6],
        Kind::Cavalry => [1, 2, 4, 6],
        Kind::Engineer => [2, 3, 3, 4],
        Kind::Tank => [1, 2, 5, 6],
        Kind::Plane => [4, 4, 3, 2],
        Kind::Spy => [4, 5, 3, 1],
    };
    match relative_row {
        1..=4 => by_row[relative_row as usize - 1],
        _ => 0,
    }
}

/// How much a piece likes a square, by row counted from the back (1) to the front (4).
fn row_weight(kind: Kind, sq: Square, side: Side) -> u32 {
    let preference = row_preference(kind, sq.relative_row(side));
    let entrance_bonus = if sq.is_entrance_of(side)
        && matches!(
            kind,
            Kind::Tank | Kind::Captain | Kind::Lieutenant | Kind::Cavalry
        ) {
        3
    } else {
        1
    };
    preference.max(1) * entrance_bonus
}

fn weighted<T: Copy, R: Rng + ?Sized>(rng: &mut R, items: &[(T, u32)]) -> Option<T> {
    let total: u32 = items.iter().map(|&(_, w)| w).sum();
    if total == 0 {
        return None;
    }
    let mut pick = rng.random_range(0..total);
    for &(item, w) in items {
        if pick < w {
            return Some(item);
        }
        pick -= w;
    }
    None
}
