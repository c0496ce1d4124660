//! The sixteen kinds of piece, their names, counts and strength.

/// A kind of piece (兵種). Every side has the same 23 pieces; see [`Kind::count`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Kind {
    /// 大将 / 대장. Beaten only by the spy (and tied by the other general).
    General,
    /// 中将 / 중장.
    LieutenantGeneral,
    /// 少将 / 소장.
    MajorGeneral,
    /// 大佐 / 대령.
    Colonel,
    /// 中佐 / 중령.
    LieutenantColonel,
    /// 少佐 / 소령.
    Major,
    /// 大尉 / 대위.
    Captain,
    /// 中尉 / 중위.
    Lieutenant,
    /// 少尉 / 소위.
    SecondLieutenant,
    /// 騎兵 / 기병. Steps, or two squares straight forward.
    Cavalry,
    /// 工兵 / 공병. Any distance orthogonally; beats a mine.
    Engineer,
    /// タンク / 탱크. Steps, or two squares straight forward.
    Tank,
    /// 飛行機 / 비행기. Flies along its column over everything; one step sideways; beats a mine.
    Plane,
    /// スパイ / 스파이. Beats the general, loses to everything else.
    Spy,
    /// 地雷 / 지뢰. Never moves; takes an attacker with it unless it is a plane or an engineer.
    Mine,
    /// 軍旗 / 군기. Never moves; fights with the strength of the friendly piece behind it.
    Flag,
}

impl Kind {
    /// Every kind, in the order of the spec's table.
    pub const ALL: [Kind; 16] = [
        Kind::General,
        Kind::LieutenantGeneral,
        Kind::MajorGeneral,
        Kind::Colonel,
        Kind::LieutenantColonel,
        Kind::Major,
        Kind::Captain,
        Kind::Lieutenant,
        Kind::SecondLieutenant,
        Kind::Cavalry,
        Kind::Engineer,
        Kind::Tank,
        Kind::Plane,
        Kind::Spy,
        Kind::Mine,
        Kind::Flag,
    ];

    /// Pieces of each side in total.
    pub const PIECES_PER_SIDE: usize = 23;

    /// How many of this kind each side has.
    #[must_use]
    pub const fn count(self) -> u8 {
        match self {
            Kind::Captain
            | Kind::Lieutenant
            | Kind::SecondLieutenant
            | Kind::Engineer
            | Kind::Tank
            | Kind::Plane
            | Kind::Mine => 2,
            _ => 1,
        }
    }

    /// Position in [`Kind::ALL`].
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Stable id used on the wire, e.g. `"lieutenant_general"`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Kind::General => "general",
            Kind::LieutenantGeneral => "lieutenant_general",
            Kind::MajorGeneral => "major_general",
            Kind::Colonel => "colonel",
            Kind::LieutenantColonel => "lieutenant_colonel",
            Kind::Major => "major",
            Kind::Captain => "captain",
            Kind::Lieutenant => "lieutenant",
            Kind::SecondLieutenant => "second_lieutenant",
            Kind::Cavalry => "cavalry",
            Kind::Engineer => "engineer",
            Kind::Tank => "tank",
            Kind::Plane => "plane",
            Kind::Spy => "spy",
            Kind::Mine => "mine",
            Kind::Flag => "flag",
        }
    }

    /// Parses a stable id.
    #[must_use]
    pub fn from_id(id: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// Japanese name.
    #[must_use]
    pub const fn name_ja(self) -> &'static str {
        match self {
            Kind::General => "大将",
            Kind::LieutenantGeneral => "中将",
            Kind::MajorGeneral => "少将",
            Kind::Colonel => "大佐",
            Kind::LieutenantColonel => "中佐",
            Kind::Major => "少佐",
            Kind::Captain => "大尉",
            Kind::Lieutenant => "中尉",
            Kind::SecondLieutenant => "少尉",
            Kind::Cavalry => "騎兵",
            Kind::Engineer => "工兵",
            Kind::Tank => "タンク",
            Kind::Plane => "飛行機",
            Kind::Spy => "スパイ",
            Kind::Mine => "地雷",
            Kind::Flag => "軍旗",
        }
    }

    /// Korean name.
    #[must_use]
    pub const fn name_ko(self) -> &'static str {
        match self {
            Kind::General => "대장",
            Kind::LieutenantGeneral => "중장",
            Kind::MajorGeneral => "소장",
            Kind::Colonel => "대령",
            Kind::LieutenantColonel => "중령",
            Kind::Major => "소령",
            Kind::Captain => "대위",
            Kind::Lieutenant => "중위",
            Kind::SecondLieutenant => "소위",
            Kind::Cavalry => "기병",
            Kind::Engineer => "공병",
            Kind::Tank => "탱크",
            Kind::Plane => "비행기",
            Kind::Spy => "스파이",
            Kind::Mine => "지뢰",
            Kind::Flag => "군기",
        }
    }

    /// English name.
    #[must_use]
    pub const fn name_en(self) -> &'static str {
        match self {
            Kind::General => "general",
            Kind::LieutenantGeneral => "lieutenant general",
            Kind::MajorGeneral => "major general",
            Kind::Colonel => "colonel",
            Kind::LieutenantColonel => "lieutenant colonel",
            Kind::Major => "major",
            Kind::Captain => "captain",
            Kind::Lieutenant => "lieutenant",
            Kind::SecondLieutenant => "second lieutenant",
            Kind::Cavalry => "cavalry",
            Kind::Engineer => "engineer",
            Kind::Tank => "tank",
            Kind::Plane => "plane",
            Kind::Spy => "spy",
            Kind::Mine => "mine",
            Kind::Flag => "flag",
        }
    }

    /// Whether the piece can ever move (everything but the mine and the flag).
    #[must_use]
    pub const fn is_mobile(self) -> bool {
        !matches!(self, Kind::Mine | Kind::Flag)
    }

    /// The six officers whose entry into the enemy HQ wins the game (占領).
    #[must_use]
    pub const fn can_occupy(self) -> bool {
        matches!(
            self,
            Kind::General
                | Kind::LieutenantGeneral
                | Kind::MajorGeneral
                | Kind::Colonel
                | Kind::LieutenantColonel
                | Kind::Major
        )
    }

    /// Battle strength of a mobile piece: higher wins. `None` for the mine and the flag, which
    /// fight by their own rules.
    #[must_use]
    pub const fn strength(self) -> Option<u8> {
        Some(match self {
            Kind::General => 14,
            Kind::LieutenantGeneral => 13,
            Kind::MajorGeneral => 12,
            Kind::Plane => 11,
            Kind::Tank => 10,
            Kind::Colonel => 9,
            Kind::LieutenantColonel => 8,
            Kind::Major => 7,
            Kind::Captain => 6,
            Kind::Lieutenant => 5,
            Kind::SecondLieutenant => 4,
            Kind::Cavalry => 3,
            Kind::Engineer => 2,
            Kind::Spy => 1,
            Kind::Mine | Kind::Flag => return None,
        })
    }
}

impl core::fmt::Display for Kind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.id())
    }
}
