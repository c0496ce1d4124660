//! The 46 squares, their names and the lines pieces move along.
//!
//! Columns `a`–`f` run left to right as sente sees the board; rows `1`–`8` from sente's back row.
//! Each back row's middle two squares are one headquarters square (`cd1`, `cd8`). The river lies
//! between rows 4 and 5 and is crossed on foot only by the bridges on columns b and e.

use crate::side::Side;

/// One of the 46 squares of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// A compass direction on the board as sente sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Toward row 8.
    North = 0,
    /// Toward row 1.
    South = 1,
    /// Toward column f.
    East = 2,
    /// Toward column a.
    West = 3,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::South,
        Direction::East,
        Direction::West,
    ];

    /// The direction a side calls forward (toward the opponent's camp).
    #[must_use]
    pub const fn forward(side: Side) -> Direction {
        match side {
            Side::Sente => Direction::North,
            Side::Gote => Direction::South,
        }
    }
}

impl Square {
    /// Number of squares on the board.
    pub const COUNT: usize = 46;
    /// Sente's headquarters (総司令部), `cd1`.
    pub const HQ_SENTE: Square = Square(2);
    /// Gote's headquarters, `cd8`.
    pub const HQ_GOTE: Square = Square(43);

    /// The square at `index` (0..46), in reading order from `a1`.
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < Self::COUNT {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// Position in reading order from `a1` (0..46).
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Every square by index.
    pub(crate) const ALL: [Square; Square::COUNT] = {
        let mut out = [Square(0); Square::COUNT];
        let mut i = 0;
        while i < Square::COUNT {
            out[i] = Square(i as u8);
            i += 1;
        }
        out
    };

    /// Every square, `a1` first.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator + Clone {
        (0..Self::COUNT as u8).map(Square)
    }

    /// The square at column `col` (0 = a … 5 = f) and row `row` (1..=8). Columns c and d of rows 1
    /// and 8 are the headquarters.
    #[must_use]
    pub const fn at(col: u8, row: u8) -> Option<Square> {
        if col > 5 || row < 1 || row > 8 {
            return None;
        }
        Some(Square(index_of(col as i8, row as i8)))
    }

    /// Row, 1..=8.
    #[must_use]
    pub const fn row(self) -> u8 {
        COORDS[self.0 as usize].1 as u8
    }

    /// Column 0..=5 (a..f). For a headquarters this is column c (2).
    #[must_use]
    pub const fn col(self) -> u8 {
        COORDS[self.0 as usize].0 as u8
    }

    /// Whether this is a headquarters square.
    #[must_use]
    pub const fn is_hq(self) -> bool {
        self.0 == Self::HQ_SENTE.0 || self.0 == Self::HQ_GOTE.0
    }

    /// The headquarters of `side`.
    #[must_use]
    pub const fn hq(side: Side) -> Square {
        match side {
            Side::Sente => Self::HQ_SENTE,
            Side::Gote => Self::HQ_GOTE,
        }
    }

    /// Whose camp this square is in.
    #[must_use]
    pub const fn camp(self) -> Side {
        if self.row() <= 4 {
            Side::Sente
        } else {
            Side::Gote
        }
    }

    /// Row counted from `side`'s back row: 1 (back row) to 8 (the enemy's back row).
    #[must_use]
    pub const fn relative_row(self, side: Side) -> u8 {
        match side {
            Side::Sente => self.row(),
            Side::Gote => 9 - self.row(),
        }
    }

    /// Whether this is one of `side`'s entrances (突入口): the bridge ends in its camp.
    #[must_use]
    pub const fn is_entrance_of(self, side: Side) -> bool {
        let c = self.col();
        (c == 1 || c == 4) && self.relative_row(side) == 4
    }

    /// Mirror image left–right (a↔f, b↔e, c↔d; the headquarters stays).
    #[must_use]
    pub const fn mirrored(self) -> Square {
        if self.is_hq() {
            return self;
        }
        Square(index_of(5 - self.col() as i8, self.row() as i8))
    }

    /// The same square seen from the other side of the board (turned half round: a1↔f8,
    /// b4↔e5, cd1↔cd8): where the other player keeps what this player keeps here.
    #[must_use]
    pub const fn turned(self) -> Square {
        if self.0 == Self::HQ_SENTE.0 {
            return Self::HQ_GOTE;
        }
        if self.0 == Self::HQ_GOTE.0 {
            return Self::HQ_SENTE;
        }
        Square(index_of(5 - self.col() as i8, 9 - self.row() as i8))
    }

    /// The square directly behind this one from `side`'s point of view (one row toward its own
    /// back row, same column), if any. Behind `c2` and `d2` is `cd1`.
    #[must_use]
    pub const fn behind(self, side: Side) -> Option<Square> {
        let row = self.row() as i8;
        let back = match side {
            Side::Sente => row - 1,
            Side::Gote => row + 1,
        };
        if back < 1 || back > 8 || self.is_hq() {
            return None;
        }
        Some(Square(index_of(self.col() as i8, back)))
    }

    /// The canonical name, e.g. `"b3"` or `"cd1"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }

    /// Parses a name. Accepts `c1`/`d1` and `c8`/`d8` for the headquarters besides `cd1`/`cd8`.
    #[must_use]
    pub fn parse(name: &str) -> Option<Square> {
        match name {
            "cd1" | "c1" | "d1" => return Some(Self::HQ_SENTE),
            "cd8" | "c8" | "d8" => return Some(Self::HQ_GOTE),
            _ => {}
        }
        let mut chars = name.chars();
        let col = chars.next()?;
        let row = chars.next()?;
        if chars.next().is_some() || !('a'..='f').contains(&col) || !('1'..='8').contains(&row) {
            return None;
        }
        Square::at(col as u8 - b'a', row as u8 - b'0')
    }

    /// Neighbour squares one step away (river crossing only over a bridge).
    pub fn neighbours(self) -> impl Iterator<Item = Square> {
        Direction::ALL.into_iter().flat_map(move |d| {
            self.walk_rays(d)
                .iter()
                .filter_map(|ray| ray.first().copied())
        })
    }

    /// Lines a walking piece follows from here in direction `d`: each line in order, ending at the
    /// river (except over a bridge), the board's edge, or on entering a headquarters. A
    /// headquarters has two lines northward or southward (along column c and column d).
    #[must_use]
    pub fn walk_rays(self, d: Direction) -> &'static [&'static [Square]] {
        RAYS[self.0 as usize].walk[d as usize].as_slice()
    }

    /// Lines a plane follows from here in direction `d` (north or south): over the river and every
    /// piece, ending on entering a headquarters. East and west give no lines.
    #[must_use]
    pub fn fly_rays(self, d: Direction) -> &'static [&'static [Square]] {
        RAYS[self.0 as usize].fly[d as usize].as_slice()
    }

    /// The first square of every walking line from here, in the order of [`Direction::ALL`] and
    /// then of [`Square::walk_rays`]: the squares one step away, as the move generator visits
    /// them.
    #[inline]
    pub(crate) fn steps(self) -> &'static [Square] {
        let s = &STEPS[self.0 as usize];
        s.squares.split_at(s.len as usize).0
    }

    /// The squares one step east and west, in that order.
    #[inline]
    pub(crate) fn side_steps(self) -> &'static [Square] {
        let s = &SIDE_STEPS[self.0 as usize];
        s.squares.split_at(s.len as usize).0
    }
}

impl core::fmt::Display for Square {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for Square {
    type Err = crate::error::ParseSquareError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Square::parse(s).ok_or_else(|| crate::error::ParseSquareError(s.into()))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Square::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("unknown square {s:?}")))
    }
}

const fn index_of(col: i8, row: i8) -> u8 {
    match row {
        1 => [0, 1, 2, 2, 3, 4][col as usize],
        8 => [41, 42, 43, 43, 44, 45][col as usize],
        _ => 5 + (row as u8 - 2) * 6 + col as u8,
    }
}

const COORDS: [(i8, i8); Square::COUNT] = {
    let mut out = [(0i8, 0i8); Square::COUNT];
    let mut row = 1;
    while row <= 8 {
        let mut col = 0;
        while col < 6 {
            let i = index_of(col, row) as usize;
            // The headquarters keeps column c as its coordinate.
            if !((row == 1 || row == 8) && col == 3) {
                out[i] = (col, row);
            }
            col += 1;
        }
        row += 1;
    }
    out
};

const NAMES: [&str; Square::COUNT] = [
    "a1", "b1", "cd1", "e1", "f1", //
    "a2", "b2", "c2", "d2", "e2", "f2", //
    "a3", "b3", "c3", "d3", "e3", "f3", //
    "a4", "b4", "c4", "d4", "e4", "f4", //
    "a5", "b5", "c5", "d5", "e5", "f5", //
    "a6", "b6", "c6", "d6", "e6", "f6", //
    "a7", "b7", "c7", "d7", "e7", "f7", //
    "a8", "b8", "cd8", "e8", "f8",
];

/// The squares one step away from one square, in generation order.
struct StepList {
    len: u8,
    squares: [Square; 4],
}

const fn push_step(list: &mut StepList, next: Option<(i8, i8)>) {
    if let Some((c, r)) = next {
        list.squares[list.len as usize] = Square(index_of(c, r));
        list.len += 1;
    }
}

/// Builds the one-step lists: `dirs` chooses which directions (north, south, east, west) count.
const fn build_steps(dirs: [bool; 4]) -> [StepList; Square::COUNT] {
    let mut out = [const {
        StepList {
            len: 0,
            squares: [Square(0); 4],
        }
    }; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        let (col, row) = COORDS[i];
        let is_hq = i == Square::HQ_SENTE.0 as usize || i == Square::HQ_GOTE.0 as usize;
        let mut dir = 0;
        while dir < 4 {
            if dirs[dir] {
                if is_hq && dir < 2 {
                    // Lines north or south from a headquarters start along column c, then d.
                    push_step(&mut out[i], step(2, row, dir, false));
                    push_step(&mut out[i], step(3, row, dir, false));
                } else {
                    push_step(&mut out[i], step(col, row, dir, false));
                }
            }
            dir += 1;
        }
        i += 1;
    }
    out
}

static STEPS: [StepList; Square::COUNT] = build_steps([true; 4]);
static SIDE_STEPS: [StepList; Square::COUNT] = build_steps([false, false, true, true]);

/// Precomputed lines from one square.
struct SquareRays {
    walk: [RaySet; 4],
    fly: [RaySet; 4],
}

/// Up to two lines in one direction.
struct RaySet {
    len: usize,
    rays: [&'static [Square]; 2],
}

impl RaySet {
    fn as_slice(&self) -> &[&'static [Square]] {
        &self.rays[..self.len]
    }
}

/// Storage for the squares of every line, built at compile time.
#[derive(Clone, Copy)]
struct RayBuf {
    len: usize,
    squares: [Square; 7],
}

const fn step(col: i8, row: i8, dir: usize, fly: bool) -> Option<(i8, i8)> {
    match dir {
        0 => {
            if row == 8 || (row == 4 && !fly && col != 1 && col != 4) {
                None
            } else {
                Some((col, row + 1))
            }
        }
        1 => {
            if row == 1 || (row == 5 && !fly && col != 1 && col != 4) {
                None
            } else {
                Some((col, row - 1))
            }
        }
        2 => {
            if col == 5 || ((row == 1 || row == 8) && col == 2) {
                // Moving east from the headquarters starts from its column-d half.
                if col == 2 && (row == 1 || row == 8) {
                    Some((4, row))
                } else {
                    None
                }
            } else {
                Some((col + 1, row))
            }
        }
        _ => {
            if col == 0 {
                None
            } else {
                Some((col - 1, row))
            }
        }
    }
}

const fn trace(col: i8, row: i8, dir: usize, fly: bool) -> RayBuf {
    let mut buf = RayBuf {
        len: 0,
        squares: [Square(0); 7],
    };
    let (mut c, mut r) = (col, row);
    while let Some((nc, nr)) = step(c, r, dir, fly) {
        let sq = index_of(nc, nr);
        buf.squares[buf.len] = Square(sq);
        buf.len += 1;
        if sq == Square::HQ_SENTE.0 || sq == Square::HQ_GOTE.0 {
            break;
        }
        c = nc;
        r = nr;
    }
    buf
}

/// For each square, direction, and line (up to two): the line's squares.
static RAY_BUFS: [[[[RayBuf; 2]; 4]; 2]; Square::COUNT] = {
    let empty = RayBuf {
        len: 0,
        squares: [Square(0); 7],
    };
    let mut out = [[[[empty; 2]; 4]; 2]; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        let (col, row) = COORDS[i];
        let is_hq = i == Square::HQ_SENTE.0 as usize || i == Square::HQ_GOTE.0 as usize;
        let mut mode = 0;
        while mode < 2 {
            let fly = mode == 1;
            let mut dir = 0;
            while dir < 4 {
                if !(fly && dir >= 2) {
                    if is_hq && dir < 2 {
                        let first = trace(2, row, dir, fly);
                        let mut second = trace(3, row, dir, fly);
                        // Both halves of a flight can end in the far headquarters: one move.
                        if first.len > 0
                            && second.len > 0
                            && first.squares[first.len - 1].0 == second.squares[second.len - 1].0
                        {
                            second.len -= 1;
                        }
                        out[i][mode][dir][0] = first;
                        out[i][mode][dir][1] = second;
                    } else {
                        out[i][mode][dir][0] = trace(col, row, dir, fly);
                    }
                }
                dir += 1;
            }
            mode += 1;
        }
        i += 1;
    }
    out
};

static RAYS: [SquareRays; Square::COUNT] = {
    let mut out: [SquareRays; Square::COUNT] = [const {
        SquareRays {
            walk: [const {
                RaySet {
                    len: 0,
                    rays: [&[], &[]],
                }
            }; 4],
            fly: [const {
                RaySet {
                    len: 0,
                    rays: [&[], &[]],
                }
            }; 4],
        }
    }; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        let mut mode = 0;
        while mode < 2 {
            let mut dir = 0;
            while dir < 4 {
                let a: &'static RayBuf = &RAY_BUFS[i][mode][dir][0];
                let b: &'static RayBuf = &RAY_BUFS[i][mode][dir][1];
                let ra: &'static [Square] = a.squares.split_at(a.len).0;
                let rb: &'static [Square] = b.squares.split_at(b.len).0;
                let set = match (a.len > 0, b.len > 0) {
                    (true, true) => RaySet {
                        len: 2,
                        rays: [ra, rb],
                    },
                    (true, false) => RaySet {
                        len: 1,
                        rays: [ra, ra],
                    },
                    (false, true) => RaySet {
                        len: 1,
                        rays: [rb, rb],
                    },
                    (false, false) => RaySet {
                        len: 0,
                        rays: [ra, ra],
                    },
                };
                if mode == 0 {
                    out[i].walk[dir] = set;
                } else {
                    out[i].fly[dir] = set;
                }
                dir += 1;
            }
            mode += 1;
        }
        i += 1;
    }
    out
};
