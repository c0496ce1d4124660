//! The JSON shapes of §10: views, setups and pieces as they travel between programs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::game::Ply;
use crate::kind::Kind;
use crate::position::{Move, Piece, Position};
use crate::side::{BySide, Side};
use crate::square::Square;
use crate::status::Status;
use crate::view::{PlayerView, PublicParts, ViewError};

/// The legal moves of the side to move in §10's order: by from, then to, as square names
/// (`legal_moves` of the referee, `legal` of the rooms).
#[must_use]
pub fn legal_moves_by_name(position: &Position) -> Vec<Move> {
    let mut moves = position.legal_moves().to_vec();
    moves.sort_unstable_by_key(|mv| (mv.from.name(), mv.to.name()));
    moves
}

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
                (true, None) => return Err(ViewError::OwnKindMissing(sq)),
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

/// The first key that appears twice in one object of the text `de` reads (at any depth), if
/// any, e.g. `repeated_key(&mut serde_json::Deserializer::from_str(text))`. Meant for a text the
/// parser has accepted: in one it cannot read, this reports only what it met before the fault
/// (judging that is the parser's job). JSON parsers keep one of two equal keys silently, so a
/// setup naming a square twice would be read as one of its two meanings: the edges refuse such
/// a text instead.
#[must_use]
pub fn repeated_key<'de, D: serde::Deserializer<'de>>(de: D) -> Option<RepeatedKey> {
    let mut found = None;
    let mut path = Vec::new();
    // An error is either the repeated key (recorded in `found`) or a text that cannot be read.
    let _ = serde::de::DeserializeSeed::deserialize(
        UniqueKeys {
            found: &mut found,
            path: &mut path,
        },
        de,
    );
    found
}

/// A key named twice in one object; says so in the words every edge answers with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepeatedKey {
    pub key: String,
    /// Where the object holding it is: the keys leading to it from the outermost object, an
    /// array's element by its index (`["setup", "sente"]`; empty for the outermost object).
    pub path: Vec<String>,
}

impl RepeatedKey {
    /// Whether the object naming the key twice is the one at `path`.
    #[must_use]
    pub fn is_in(&self, path: &[&str]) -> bool {
        self.path
            .iter()
            .map(String::as_str)
            .eq(path.iter().copied())
    }
}

impl core::fmt::Display for RepeatedKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "the key {:?} appears twice in one object", self.key)
    }
}

/// Walks a JSON value, recording the first key repeated within one object and where it is.
/// `path` is a stack: the keys leading to the value being walked.
struct UniqueKeys<'a> {
    found: &'a mut Option<RepeatedKey>,
    path: &'a mut Vec<String>,
}

impl UniqueKeys<'_> {
    /// Walks the value under `step` with `walk`, then gives `step` back.
    fn inside<T>(&mut self, step: String, walk: impl FnOnce(UniqueKeys<'_>) -> T) -> (T, String) {
        self.path.push(step);
        let walked = walk(UniqueKeys {
            found: &mut *self.found,
            path: &mut *self.path,
        });
        let step = self.path.pop().unwrap_or_default();
        (walked, step)
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for UniqueKeys<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for UniqueKeys<'_> {
    type Value = ();

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        for index in 0usize.. {
            let (element, _) = self.inside(index.to_string(), |u| seq.next_element_seed(u));
            if element?.is_none() {
                break;
            }
        }
        Ok(())
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if seen.contains(&key) {
                *self.found = Some(RepeatedKey {
                    key,
                    path: self.path.clone(),
                });
                return Err(serde::de::Error::custom("a key repeated in one object"));
            }
            let (value, key) = self.inside(key, |u| map.next_value_seed(u));
            value?;
            seen.insert(key);
        }
        Ok(())
    }
}

/// One side's setup as JSON: square name → kind id.
pub type WireSetup = BTreeMap<String, String>;

/// One side's setup as a request wrote it: (square name, kind id) in order, a square named twice
/// kept twice. Read into a map, the second would silently replace the first; kept, the setup's
/// check names both pieces like any other violation (§3).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WireSetupEntries(pub Vec<(String, String)>);

impl WireSetupEntries {
    /// The entries as (square name, kind id) pairs, in the request's order.
    pub fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(s, k)| (s.as_str(), k.as_str()))
    }
}

impl<'de> Deserialize<'de> for WireSetupEntries {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = WireSetupEntries;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of square names to kind ids")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<WireSetupEntries, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<String, String>()? {
                    entries.push(entry);
                }
                Ok(WireSetupEntries(entries))
            }
        }
        deserializer.deserialize_map(Entries)
    }
}

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

#[cfg(test)]
mod tests {
    fn repeated_key(text: &str) -> Option<String> {
        super::repeated_key(&mut serde_json::Deserializer::from_str(text)).map(|r| r.key)
    }

    #[test]
    fn a_key_repeated_in_one_object_is_found_at_any_depth() {
        assert_eq!(
            repeated_key(r#"{"a1":"flag","a2":"mine","a1":"mine"}"#).as_deref(),
            Some("a1")
        );
        assert_eq!(
            repeated_key(r#"{"cmd":"board","cmd":"legal_moves"}"#).as_deref(),
            Some("cmd")
        );
        assert_eq!(
            repeated_key(r#"{"setup":{"sente":{"b2":"tank"},"gote":[{"x":1,"y":{"z":0,"z":0}}]}}"#)
                .as_deref(),
            Some("z")
        );
        // The same key written with an escape is the same key.
        assert_eq!(
            repeated_key(r#"{"a1":1,"\u00611":2}"#).as_deref(),
            Some("a1")
        );
    }

    #[test]
    fn a_repeat_says_which_object_holds_it() {
        let found = |text: &str| {
            super::repeated_key(&mut serde_json::Deserializer::from_str(text)).map(|r| r.path)
        };
        assert_eq!(
            found(
                r#"{"cmd":"new","setup":{"sente":{"a1":"flag"},"gote":{"a8":"mine","a8":"spy"}}}"#
            ),
            Some(vec!["setup".to_owned(), "gote".to_owned()])
        );
        assert_eq!(found(r#"{"cmd":"board","cmd":"view"}"#), Some(vec![]));
        assert_eq!(
            found(r#"{"a":[{"k":1},{"k":1,"k":2}]}"#),
            Some(vec!["a".to_owned(), "1".to_owned()])
        );
        let repeat = super::repeated_key(&mut serde_json::Deserializer::from_str(
            r#"{"setup":{"a1":"mine","a1":"flag"}}"#,
        ));
        assert!(repeat.as_ref().is_some_and(|r| r.is_in(&["setup"])));
        assert!(
            !repeat
                .as_ref()
                .is_some_and(|r| r.is_in(&["setup", "sente"]))
        );
        assert!(!repeat.is_some_and(|r| r.is_in(&[])));
    }

    #[test]
    fn equal_keys_in_different_objects_and_non_json_are_not_repeats() {
        for text in [
            r#"{"sente":{"a1":"mine"},"gote":{"a1":"mine"}}"#,
            r#"[{"k":1},{"k":2}]"#,
            r#"{"a":[1,2.5,-3,true,null,"s"],"b":{}}"#,
            "not json",
            r#"{"a":1,"#,
            "",
        ] {
            assert_eq!(repeated_key(text), None, "{text}");
        }
    }
}
