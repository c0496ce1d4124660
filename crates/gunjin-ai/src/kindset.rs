//! A set of piece kinds as a 16-bit mask.

use gunjin::Kind;

/// A set of [`Kind`]s: the kinds one hidden piece can still be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KindSet(u16);

impl KindSet {
    /// No kind at all (a contradiction).
    pub const EMPTY: KindSet = KindSet(0);
    /// Every kind.
    pub const ALL: KindSet = KindSet(0xffff);
    /// Every kind that can move (all but the mine and the flag).
    pub const MOBILE: KindSet = KindSet(0x3fff);

    /// The set holding only `kind`.
    #[must_use]
    pub const fn only(kind: Kind) -> KindSet {
        KindSet(1 << kind.index())
    }

    /// The set of the given kinds.
    #[must_use]
    pub fn of(kinds: &[Kind]) -> KindSet {
        kinds.iter().fold(KindSet::EMPTY, |s, &k| s.with(k))
    }

    /// The raw mask, bit [`Kind::index`] per kind.
    #[must_use]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Whether `kind` is in the set.
    #[must_use]
    pub const fn contains(self, kind: Kind) -> bool {
        self.0 & (1 << kind.index()) != 0
    }

    /// The set with `kind` added.
    #[must_use]
    pub const fn with(self, kind: Kind) -> KindSet {
        KindSet(self.0 | (1 << kind.index()))
    }

    /// The set without `kind`.
    #[must_use]
    pub const fn without(self, kind: Kind) -> KindSet {
        KindSet(self.0 & !(1 << kind.index()))
    }

    /// Kinds in both sets.
    #[must_use]
    pub const fn and(self, other: KindSet) -> KindSet {
        KindSet(self.0 & other.0)
    }

    /// Kinds in either set.
    #[must_use]
    pub const fn union(self, other: KindSet) -> KindSet {
        KindSet(self.0 | other.0)
    }

    /// The set of a raw mask (bit [`Kind::index`] per kind).
    #[must_use]
    pub const fn from_bits(bits: u16) -> KindSet {
        KindSet(bits)
    }

    /// Number of kinds in the set.
    #[must_use]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The single kind, if the set holds exactly one.
    #[must_use]
    pub fn single(self) -> Option<Kind> {
        if self.len() == 1 {
            Kind::ALL.get(self.0.trailing_zeros() as usize).copied()
        } else {
            None
        }
    }

    /// The kinds in [`Kind::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Kind> {
        Kind::ALL.into_iter().filter(move |&k| self.contains(k))
    }
}

impl FromIterator<Kind> for KindSet {
    fn from_iter<I: IntoIterator<Item = Kind>>(iter: I) -> Self {
        iter.into_iter().fold(KindSet::EMPTY, KindSet::with)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mobile_excludes_exactly_mine_and_flag() {
        let mobile: Vec<Kind> = KindSet::MOBILE.iter().collect();
        let expected: Vec<Kind> = Kind::ALL.into_iter().filter(|k| k.is_mobile()).collect();
        assert_eq!(mobile, expected);
        assert_eq!(KindSet::only(Kind::Spy).single(), Some(Kind::Spy));
        assert_eq!(KindSet::of(&[Kind::Spy, Kind::Tank]).single(), None);
    }
}
