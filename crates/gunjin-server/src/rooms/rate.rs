//! Token buckets: the message rate of a connection and of a seat, and the room creations of the
//! server, of each client address and of each network.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::time::Instant;

/// Up to `cap` at once, refilled at `per_sec`.
#[derive(Clone, Debug)]
pub(crate) struct TokenBucket {
    tokens: f64,
    cap: f64,
    per_sec: f64,
    last: Instant,
}

impl TokenBucket {
    /// A full bucket.
    pub(crate) fn new(cap: f64, per_sec: f64, now: Instant) -> TokenBucket {
        TokenBucket {
            tokens: cap,
            cap,
            per_sec,
            last: now,
        }
    }

    fn refill(&mut self, now: Instant) {
        // Requests read the clock before they take the lock, so their instants may come in out
        // of order: time never runs back (the span since `last` would be refilled twice).
        if now <= self.last {
            return;
        }
        let dt = now.duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + dt * self.per_sec).min(self.cap);
        self.last = now;
    }

    /// Gives back a token taken for a request that turned out not to count.
    fn give_back(&mut self) {
        self.tokens = (self.tokens + 1.0).min(self.cap);
    }

    /// Takes one token if there is one.
    pub(crate) fn take(&mut self, now: Instant) -> bool {
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whether a token is there to take (the bucket refilled to now).
    fn has_token(&mut self, now: Instant) -> bool {
        self.refill(now);
        self.tokens >= 1.0
    }

    /// Whether it has refilled to its cap, remembering nothing a new bucket would not.
    fn refilled_to_cap(&mut self, now: Instant) -> bool {
        self.refill(now);
        self.tokens >= self.cap
    }
}

/// A sender's message allowance (a connection's, a seat's), and whether the run of messages it
/// is dropping now has been told so: only the first dropped in a run is answered (an answer to
/// each filled the connection's queue faster than it drained, and the next reply then found it
/// full and cut the client as slow).
pub(crate) struct MessageRate {
    bucket: TokenBucket,
    told: bool,
}

/// What becomes of one message under a [`MessageRate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Admission {
    Admitted,
    /// Dropped, and the first of its run: tell the sender.
    DroppedFirst,
    /// Dropped, as the sender has been told.
    Dropped,
}

impl MessageRate {
    pub(crate) fn new(burst: u32, per_sec: u32, now: Instant) -> MessageRate {
        MessageRate {
            bucket: TokenBucket::new(f64::from(burst), f64::from(per_sec), now),
            told: false,
        }
    }

    /// Counts one message.
    pub(crate) fn admit(&mut self, now: Instant) -> Admission {
        if self.bucket.take(now) {
            self.told = false;
            Admission::Admitted
        } else if self.told {
            Admission::Dropped
        } else {
            self.told = true;
            Admission::DroppedFirst
        }
    }

    /// Takes a token for a request refused on its own terms when there is none (a `hello`),
    /// leaving the run's telling as it was.
    pub(crate) fn take(&mut self, now: Instant) -> bool {
        self.bucket.take(now)
    }
}

/// One bucket per client address, for at most `MAX_TRACKED` addresses. Past that, buckets that
/// have refilled to their cap are forgotten (at most once a second: forgetting walks them all);
/// if none has, new addresses share one overflow bucket, so the map, and the time a request
/// spends under its lock, stay bounded whatever number of addresses a client holds.
pub(crate) struct PerAddress {
    buckets: HashMap<IpAddr, TokenBucket>,
    overflow: TokenBucket,
    cap: f64,
    per_sec: f64,
    exempt_loopback: bool,
    grouping: Grouping,
    last_pruned: Option<Instant>,
}

/// What one bucket counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Grouping {
    /// A client: an IPv4 address, an IPv6 /64 (which one machine usually holds whole).
    Client,
    /// A network: an IPv4 /24, an IPv6 /48 (a home is given a /56 or a /48, so a client that
    /// goes from /64 to /64 of its own stays in one).
    Network,
}

const MAX_TRACKED: usize = 10_000;

impl PerAddress {
    pub(crate) fn new(cap: f64, per_sec: f64, exempt_loopback: bool, now: Instant) -> PerAddress {
        Self::grouped(Grouping::Client, cap, per_sec, exempt_loopback, now)
    }

    /// Buckets counting `grouping`'s addresses together.
    pub(crate) fn grouped(
        grouping: Grouping,
        cap: f64,
        per_sec: f64,
        exempt_loopback: bool,
        now: Instant,
    ) -> PerAddress {
        PerAddress {
            buckets: HashMap::new(),
            overflow: TokenBucket::new(cap, per_sec, now),
            cap,
            per_sec,
            exempt_loopback,
            grouping,
            last_pruned: None,
        }
    }

    /// Whether `address` may take a token now, without taking it (nor starting to track it).
    pub(crate) fn allows(&mut self, address: IpAddr, now: Instant) -> bool {
        let Some(key) = key_of(address, self.exempt_loopback, self.grouping) else {
            return true;
        };
        if let Some(bucket) = self.buckets.get_mut(&key) {
            return bucket.has_token(now);
        }
        self.buckets.len() < MAX_TRACKED || self.overflow.has_token(now)
    }

    /// Takes a token from `address`'s bucket; true for an address not counted (loopback when
    /// exempt).
    pub(crate) fn take(&mut self, address: IpAddr, now: Instant) -> bool {
        let Some(key) = key_of(address, self.exempt_loopback, self.grouping) else {
            return true;
        };
        if let Some(bucket) = self.buckets.get_mut(&key) {
            return bucket.take(now);
        }
        if self.buckets.len() >= MAX_TRACKED {
            self.prune(now);
        }
        if self.buckets.len() >= MAX_TRACKED {
            return self.overflow.take(now);
        }
        let mut bucket = TokenBucket::new(self.cap, self.per_sec, now);
        let taken = bucket.take(now);
        self.buckets.insert(key, bucket);
        taken
    }

    /// Gives back a token [`PerAddress::take`] took from `address` (to its bucket, or to the
    /// shared one if it has none).
    pub(crate) fn give_back(&mut self, address: IpAddr) {
        let Some(key) = key_of(address, self.exempt_loopback, self.grouping) else {
            return;
        };
        match self.buckets.get_mut(&key) {
            Some(bucket) => bucket.give_back(),
            None => self.overflow.give_back(),
        }
    }

    fn prune(&mut self, now: Instant) {
        if self
            .last_pruned
            .is_some_and(|at| now.saturating_duration_since(at).as_secs_f64() < 1.0)
        {
            return;
        }
        self.last_pruned = Some(now);
        self.buckets
            .retain(|_, bucket| !bucket.refilled_to_cap(now));
    }
}

/// The address a client is counted by, as `grouping` says (an IPv4 address mapped into IPv6
/// counts as IPv4). `None` for loopback when it is exempt.
fn key_of(address: IpAddr, exempt_loopback: bool, grouping: Grouping) -> Option<IpAddr> {
    let address = match address {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(address, IpAddr::V4),
        v4 @ IpAddr::V4(_) => v4,
    };
    if exempt_loopback && address.is_loopback() {
        return None;
    }
    let (v4_bits, v6_bits) = match grouping {
        Grouping::Client => (32, 64),
        Grouping::Network => (24, 48),
    };
    Some(match address {
        // The bits past the prefix cleared (a shift by the whole width clears nothing).
        IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from(
            u128::from(v6) & !u128::MAX.checked_shr(v6_bits).unwrap_or(0),
        )),
        IpAddr::V4(v4) => IpAddr::V4(Ipv4Addr::from(
            u32::from(v4) & !u32::MAX.checked_shr(v4_bits).unwrap_or(0),
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_bucket_allows_its_cap_then_its_rate() {
        let t0 = Instant::now();
        let mut b = TokenBucket::new(3.0, 2.0, t0);
        assert!((0..3).all(|_| b.take(t0)));
        assert!(!b.take(t0));
        assert!(b.take(t0 + Duration::from_millis(500)));
        assert!(!b.take(t0 + Duration::from_millis(500)));
    }

    #[test]
    fn a_network_counts_its_ipv4_24_and_its_ipv6_48_together() {
        let t0 = Instant::now();
        let mut limits = PerAddress::grouped(Grouping::Network, 2.0, 0.1, false, t0);
        // Two /64s of one home's /56, then a third: one network.
        assert!(limits.take("2001:db8:aa00:1::1".parse().unwrap(), t0));
        assert!(limits.take("2001:db8:aa00:ff::1".parse().unwrap(), t0));
        assert!(!limits.take("2001:db8:aa00:7::9".parse().unwrap(), t0));
        assert!(
            limits.take("2001:db8:ab00::1".parse().unwrap(), t0),
            "another /48"
        );
        assert!(limits.take("198.51.100.1".parse().unwrap(), t0));
        assert!(limits.take("198.51.100.254".parse().unwrap(), t0));
        assert!(!limits.take("198.51.100.9".parse().unwrap(), t0), "one /24");
        assert!(
            limits.take("198.51.101.9".parse().unwrap(), t0),
            "another /24"
        );
    }

    #[test]
    fn each_address_has_its_own_allowance_and_ipv6_counts_by_its_64() {
        let t0 = Instant::now();
        let mut limits = PerAddress::new(2.0, 0.1, true, t0);
        let a: IpAddr = "203.0.113.7".parse().unwrap();
        let b: IpAddr = "203.0.113.8".parse().unwrap();
        assert!(limits.take(a, t0) && limits.take(a, t0));
        assert!(!limits.take(a, t0), "a's allowance is spent");
        // Mapped into IPv6, it is the same client.
        assert!(!limits.take("::ffff:203.0.113.7".parse().unwrap(), t0));
        assert!(limits.take(b, t0), "b is not held back by a");
        let v6a: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let v6b: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        assert!(limits.take(v6a, t0) && limits.take(v6b, t0));
        assert!(!limits.take(v6a, t0), "one /64 is one client");
        assert!(limits.take("2001:db8:1:3::1".parse().unwrap(), t0));
        // Loopback is exempt here: a proxy on the same machine makes every player one address.
        assert!((0..10).all(|_| limits.take("127.0.0.1".parse().unwrap(), t0)));
        let mut strict = PerAddress::new(1.0, 0.1, false, t0);
        assert!(strict.take("127.0.0.1".parse().unwrap(), t0));
        assert!(!strict.take("127.0.0.1".parse().unwrap(), t0));
    }

    #[test]
    fn asking_takes_nothing_and_tracks_nobody() {
        let t0 = Instant::now();
        let mut limits = PerAddress::new(1.0, 0.1, false, t0);
        let a: IpAddr = "203.0.113.7".parse().unwrap();
        assert!(limits.allows(a, t0) && limits.allows(a, t0));
        assert!(limits.buckets.is_empty());
        assert!(limits.take(a, t0));
        assert!(!limits.allows(a, t0));
    }

    fn fill(limits: &mut PerAddress, now: Instant) {
        for i in 0..MAX_TRACKED {
            let [_, b, c, d] = u32::try_from(i).unwrap().to_be_bytes();
            assert!(limits.take(IpAddr::from([10, b, c, d]), now));
        }
        assert_eq!(limits.buckets.len(), MAX_TRACKED);
    }

    #[test]
    fn full_buckets_are_forgotten_once_many_addresses_are_tracked() {
        let t0 = Instant::now();
        let mut limits = PerAddress::new(1.0, 1.0, false, t0);
        fill(&mut limits, t0);
        // A second later every bucket has refilled: a new address makes room by dropping them.
        assert!(limits.take("198.51.100.1".parse().unwrap(), t0 + Duration::from_secs(1)));
        assert_eq!(limits.buckets.len(), 1);
    }

    #[test]
    fn past_the_limit_new_addresses_share_one_bucket_and_the_map_stays_bounded() {
        let t0 = Instant::now();
        let mut limits = PerAddress::new(1.0, 0.1, false, t0);
        fill(&mut limits, t0);
        // Nothing has refilled: nothing can be forgotten, and the newcomers share the overflow.
        let later = t0 + Duration::from_millis(500);
        assert!(limits.allows("198.51.100.1".parse().unwrap(), later));
        assert!(limits.take("198.51.100.1".parse().unwrap(), later));
        assert!(!limits.take("198.51.100.2".parse().unwrap(), later));
        assert!(!limits.allows("198.51.100.3".parse().unwrap(), later));
        assert_eq!(limits.buckets.len(), MAX_TRACKED);
    }
}
