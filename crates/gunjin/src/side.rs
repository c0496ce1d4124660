//! The two players and a pair of values, one per player.

use core::ops::{Index, IndexMut};

/// A player. Sente (先手 / 선수) moves first and sets up on rows 1–4; gote (後手 / 후수) on rows 5–8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Side {
    Sente,
    Gote,
}

impl Side {
    /// Both sides, sente first.
    pub const ALL: [Side; 2] = [Side::Sente, Side::Gote];

    /// The other player.
    #[must_use]
    pub const fn opponent(self) -> Side {
        match self {
            Side::Sente => Side::Gote,
            Side::Gote => Side::Sente,
        }
    }

    /// The stable id used on the wire (`"sente"`, `"gote"`).
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Side::Sente => "sente",
            Side::Gote => "gote",
        }
    }

    /// Parses a stable id.
    #[must_use]
    pub fn from_id(id: &str) -> Option<Side> {
        match id {
            "sente" => Some(Side::Sente),
            "gote" => Some(Side::Gote),
            _ => None,
        }
    }

    /// 0 for sente, 1 for gote.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl core::fmt::Display for Side {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.id())
    }
}

/// One value per side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BySide<T> {
    pub sente: T,
    pub gote: T,
}

impl<T> BySide<T> {
    /// Builds both values from a function of the side.
    pub fn new_with(mut f: impl FnMut(Side) -> T) -> Self {
        BySide {
            sente: f(Side::Sente),
            gote: f(Side::Gote),
        }
    }
}

impl<T> Index<Side> for BySide<T> {
    type Output = T;
    fn index(&self, side: Side) -> &T {
        match side {
            Side::Sente => &self.sente,
            Side::Gote => &self.gote,
        }
    }
}

impl<T> IndexMut<Side> for BySide<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::Sente => &mut self.sente,
            Side::Gote => &mut self.gote,
        }
    }
}
