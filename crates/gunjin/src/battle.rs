//! Who wins when a piece enters a square held by an enemy piece (§5).

use crate::kind::Kind;
use crate::rules::Ruleset;
use crate::square::Square;

/// How a battle ended. This is all the referee announces, with the square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Outcome {
    /// The defender is removed and the attacker moves in.
    Attacker,
    /// The attacker is removed.
    Defender,
    /// Both are removed; the square becomes empty.
    Both,
}

impl Outcome {
    /// Stable id (`"attacker"`, `"defender"`, `"both"`).
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Outcome::Attacker => "attacker",
            Outcome::Defender => "defender",
            Outcome::Both => "both",
        }
    }
}

/// A battle as announced to both players: where, and how it ended. Never a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Battle {
    pub square: Square,
    pub outcome: Outcome,
}

/// Resolves a battle.
///
/// `behind` is the kind of the defender's friendly piece directly behind it, which only matters
/// when the defender is the flag (§5.3). Attackers are always mobile pieces; an immobile attacker
/// is answered as if it lost.
///
/// ```
/// use gunjin::{resolve_battle, Kind, Outcome, Ruleset};
/// let rules = Ruleset::STANDARD;
/// assert_eq!(resolve_battle(Kind::Spy, Kind::General, None, &rules), Outcome::Attacker);
/// assert_eq!(resolve_battle(Kind::Tank, Kind::Mine, None, &rules), Outcome::Both);
/// assert_eq!(resolve_battle(Kind::Major, Kind::Flag, Some(Kind::General), &rules), Outcome::Defender);
/// ```
#[must_use]
pub fn resolve_battle(
    attacker: Kind,
    defender: Kind,
    behind: Option<Kind>,
    rules: &Ruleset,
) -> Outcome {
    if !attacker.is_mobile() {
        return Outcome::Defender;
    }
    match defender {
        Kind::Mine => against_mine(attacker, rules),
        Kind::Flag => match behind {
            None | Some(Kind::Flag) => Outcome::Attacker,
            Some(Kind::Mine) => against_mine(attacker, rules),
            Some(guard) => duel(attacker, guard, rules),
        },
        _ => duel(attacker, defender, rules),
    }
}

fn against_mine(attacker: Kind, rules: &Ruleset) -> Outcome {
    match attacker {
        Kind::Plane | Kind::Engineer => Outcome::Attacker,
        _ if rules.mine_persists => Outcome::Defender,
        _ => Outcome::Both,
    }
}

/// Two mobile pieces.
fn duel(attacker: Kind, defender: Kind, rules: &Ruleset) -> Outcome {
    use Kind::{Engineer, General, Spy, Tank};
    if attacker == defender {
        return Outcome::Both;
    }
    match (attacker, defender) {
        (Spy, General) => return Outcome::Attacker,
        (General, Spy) => return Outcome::Defender,
        (Engineer, Tank) if rules.engineer_beats_tank => return Outcome::Attacker,
        (Tank, Engineer) if rules.engineer_beats_tank => return Outcome::Defender,
        _ => {}
    }
    let (Some(a), Some(d)) = (attacker.strength(), defender.strength()) else {
        return Outcome::Defender;
    };
    if a > d {
        Outcome::Attacker
    } else {
        Outcome::Defender
    }
}
