//! Rule sets: the standard rules and the variants some sources use (§9).

/// A rule set, chosen when a game is created and recorded with it.
///
/// [`Ruleset::STANDARD`] is this project's rules. The other fields switch single rules to the
/// variants found in other sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Ruleset {
    /// The engineer beats the tank (instead of the tank beating the engineer).
    pub engineer_beats_tank: bool,
    /// A mine stays after beating an attacker (instead of being used up).
    pub mine_persists: bool,
    /// A mine may stand in the headquarters.
    pub mine_in_hq: bool,
}

impl Ruleset {
    /// The standard rules (§1–§8).
    pub const STANDARD: Ruleset = Ruleset {
        engineer_beats_tank: false,
        mine_persists: false,
        mine_in_hq: true,
    };

    /// The stable id of a named rule set, if this is one.
    #[must_use]
    pub fn id(&self) -> Option<&'static str> {
        (*self == Self::STANDARD).then_some("standard")
    }

    /// The rule set with a stable id.
    #[must_use]
    pub fn from_id(id: &str) -> Option<Ruleset> {
        (id == "standard").then_some(Self::STANDARD)
    }
}

impl Default for Ruleset {
    fn default() -> Self {
        Self::STANDARD
    }
}
