//! The belief engine: for every piece of one side (on the board or removed), the kinds it can
//! still be, from everything public; and sampling of full, consistent assignments ("worlds").
//!
//! Facts used: the setup rules (no mine or flag on an entrance, no flag on the back row), having
//! moved at all (not a mine or the flag), the shape of every move (two forward: tank, cavalry,
//! engineer or plane; two or more sideways or a long line: engineer; a jump or a river crossing
//! off a bridge: plane), every battle against a piece whose kind the observer knows (including
//! the flag fighting with the piece behind it), and the piece counts, removed pieces included.
//! Constraints are propagated until nothing changes; the counts are enforced exactly (a kind is
//! kept for a piece only if some complete assignment gives it that kind).
//!
//! Likelihoods (never facts) come from a prior over where each kind starts and, for the advanced
//! level, from the enemy's behaviour: pieces that advance, pieces that start battles, pieces
//! that let a known plane next to them be (a general, lieutenant general or major general would
//! have taken it), and pieces that stay put beside an empty square while others move (a mine or
//! the flag cannot go).

use gunjin::rand::{Rng, RngExt};
use gunjin::{Kind, Outcome, PlayerView, Ruleset, Side, Square, resolve_battle};

use crate::kindset::KindSet;
use crate::prior::Prior;
use crate::track::{PieceId, Tracked};

/// Pieces per side.
const N: usize = 23;

/// What one observer can know about the kinds of one side's pieces.
#[derive(Clone, Debug)]
pub struct Belief {
    side: Side,
    initial: [Square; N],
    current: [Option<Square>; N],
    domain: [KindSet; N],
    pairs: Vec<FlagPair>,
    prior: [[f32; 16]; N],
    exact: bool,
    /// Swaps tried on each drawn world to bring it to the prior's proportions (0: none).
    mixing: usize,
}

/// A battle against a tracked defender whose outcome depends on the tracked piece behind it
/// (if the defender is the flag).
#[derive(Clone, Copy, Debug)]
struct FlagPair {
    defender: usize,
    behind: usize,
    attacker: Kind,
    outcome: Outcome,
}

/// One tracked piece as the belief sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceBelief {
    /// The square it started on.
    pub initial: Square,
    /// Where it stands now, `None` once removed.
    pub square: Option<Square>,
    /// The kinds it can still be.
    pub kinds: KindSet,
}

impl Belief {
    /// What the viewer can know about the enemy's pieces.
    ///
    /// If the view's history cannot be followed (a hand-made view), only the counts and the
    /// squares are used, and [`Belief::is_exact`] is false.
    #[must_use]
    pub fn of_enemy(view: &PlayerView) -> Belief {
        match Tracked::from_view(view) {
            Ok(t) => Self::build(&t, view.side().opponent(), Some(&t.own_kinds), Prior::Rows),
            Err(_) => Self::from_squares(view),
        }
    }

    /// What the enemy can know about the viewer's pieces: the same engine, from the enemy's side
    /// (battles teach it only what holds whatever its own piece was).
    #[must_use]
    pub fn of_own(view: &PlayerView) -> Belief {
        match Tracked::from_view(view) {
            Ok(t) => Self::build(&t, view.side(), None, Prior::Rows),
            Err(_) => {
                let mut b = Self::from_squares(view);
                b.side = view.side();
                b
            }
        }
    }

    /// What the enemy would know about the viewer's pieces if the enemy's kinds (by tracker
    /// index) were `enemy_kinds`: used inside imagined worlds.
    pub(crate) fn of_viewer_given(t: &Tracked, enemy_kinds: &[Kind; N]) -> Belief {
        Self::build(t, t.side, Some(enemy_kinds), Prior::Rows)
    }

    /// [`Belief::of_enemy`] from an already followed history, weighted by `prior`.
    pub(crate) fn of_enemy_tracked(t: &Tracked, prior: Prior) -> Belief {
        Self::build(t, t.side.opponent(), Some(&t.own_kinds), prior)
    }

    /// Weighs the sampling towards what the enemy's behaviour suggests: pieces that keep
    /// advancing are more likely officers who can take a headquarters, pieces that start battles
    /// are more likely strong ones, and pieces that let a plane next to them be (its flight
    /// showed it is a plane) are unlikely to be the general, lieutenant general or major general,
    /// who take a plane for certain, and pieces that never move though they could are likelier
    /// mines or the flag (without it the belief, counting only what the rules allow, put the
    /// flag among the removed pieces half as often again as it was). This changes no fact, only
    /// how likely each allowed kind is.
    pub(crate) fn read_behaviour(&mut self, t: &Tracked, reading: Reading) {
        let s = self.side.index();
        for i in 0..N {
            let advances = i32::from(t.advances[s][i].min(reading.cap));
            let attacks = i32::from(t.attacks[s][i].min(reading.cap));
            let spared = i32::from(t.spared_planes[s][i].min(reading.cap));
            let idle = i32::from(t.idle[s][i].min(reading.idle_cap));
            for k in Kind::ALL {
                let mut w = 1.0f32;
                if k.can_occupy() {
                    w *= reading.advance.powi(advances);
                }
                if is_strong(k) {
                    w *= reading.attack.powi(attacks);
                }
                if beats_plane(k) {
                    w *= reading.spared.powi(spared);
                }
                if !k.is_mobile() {
                    w *= reading.idle.powi(idle);
                }
                self.prior[i][k.index()] *= w;
            }
        }
    }

    /// Reads the last enemy move (see [`Reading::spy_approach`]): the piece that has just stepped
    /// next to the own general, when the general has shown itself by winning a battle (so the
    /// enemy may know it), is `factor` times likelier the spy.
    pub(crate) fn read_spy_approach(&mut self, view: &PlayerView, factor: f32) {
        let me = view.side();
        let Some(general) = view
            .own()
            .iter()
            .find(|&&(_, k)| k == Kind::General)
            .map(|&(sq, _)| sq)
        else {
            return;
        };
        let Some(last) = view.history().last() else {
            return;
        };
        if last.side == me || last.battle.is_some() || !general.neighbours().any(|n| n == last.to) {
            return;
        }
        // Back along the general's path: did it win a battle where it went or stood?
        let mut at = general;
        let mut shown = false;
        for ply in view.history().iter().rev() {
            if ply.to != at {
                continue;
            }
            let outcome = ply.battle.map(|b| b.outcome);
            if ply.side == me {
                shown |= outcome == Some(Outcome::Attacker);
                at = ply.from;
            } else {
                shown |= outcome == Some(Outcome::Defender);
            }
        }
        if !shown {
            return;
        }
        if let Some(i) = self.index_at(last.to) {
            self.prior[i][Kind::Spy.index()] *= factor;
        }
    }

    /// Draws each world, then tries `steps` swaps of two pieces' kinds on it (see
    /// [`Belief::sample`]).
    pub(crate) fn set_mixing(&mut self, steps: usize) {
        self.mixing = steps;
    }

    /// Whether the belief used the whole history (false for a view whose history did not fit).
    #[must_use]
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    /// The side whose pieces this belief is about.
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }

    /// Every tracked piece: where it started, where it is, what it can be.
    pub fn pieces(&self) -> impl Iterator<Item = PieceBelief> + '_ {
        (0..N).map(|i| PieceBelief {
            initial: self.initial[i],
            square: self.current[i],
            kinds: self.domain[i],
        })
    }

    /// The kinds the piece on `sq` can be, if a tracked piece stands there.
    #[must_use]
    pub fn kinds_at(&self, sq: Square) -> Option<KindSet> {
        self.index_at(sq).map(|i| self.domain[i])
    }

    /// The tracked piece standing on `sq`, if any.
    fn index_at(&self, sq: Square) -> Option<usize> {
        (0..N).find(|&i| self.current[i] == Some(sq))
    }

    /// The belief with one more fact: the piece that started on `initial` is a `kind`. `None`
    /// if that contradicts what is known.
    #[must_use]
    pub fn assume(&self, initial: Square, kind: Kind) -> Option<Belief> {
        let i = (0..N).find(|&i| self.initial[i] == initial)?;
        let mut next = self.clone();
        next.domain[i] = next.domain[i].and(KindSet::only(kind));
        if next.domain[i].is_empty() || !next.propagate() {
            return None;
        }
        Some(next)
    }

    fn build(t: &Tracked, side: Side, observer_kinds: Option<&[Kind; N]>, prior: Prior) -> Belief {
        let s = side.index();
        let mut belief = Belief {
            side,
            initial: t.initial[s],
            current: t.current[s],
            domain: [KindSet::ALL; N],
            pairs: Vec::new(),
            prior: [[1.0; 16]; N],
            exact: true,
            mixing: 0,
        };
        for i in 0..N {
            belief.domain[i] = setup_allows(side, t.initial[s][i]).and(t.moves_allow[s][i]);
            belief.prior[i] = prior.weights(side, t.initial[s][i]);
        }
        let unary_only = belief.domain;
        let observer = |id: PieceId| observer_kinds.map(|k| k[id.1 as usize]);
        for b in &t.battles {
            if b.attacker.0 == side {
                let i = b.attacker.1 as usize;
                if let Some(def) = observer(b.defender) {
                    let behind = b.behind.and_then(observer);
                    belief.keep(i, |k| resolve(k, def, behind) == b.outcome);
                }
            } else {
                let i = b.defender.1 as usize;
                match (observer(b.attacker), b.behind) {
                    (Some(att), Some(behind)) => belief.pairs.push(FlagPair {
                        defender: i,
                        behind: behind.1 as usize,
                        attacker: att,
                        outcome: b.outcome,
                    }),
                    (Some(att), None) => belief.keep(i, |k| resolve(att, k, None) == b.outcome),
                    (None, _) => {
                        // Whatever attacked: a mine never survives an attack.
                        if b.outcome == Outcome::Defender {
                            belief.keep(i, |k| k != Kind::Mine);
                        }
                    }
                }
            }
        }
        if !belief.propagate() {
            // The history contradicts itself (should not happen with a real game): fall back to
            // what does not depend on battles.
            belief.domain = unary_only;
            belief.pairs.clear();
            belief.exact = false;
            if !belief.propagate() {
                belief.domain = [KindSet::ALL; N];
            }
        }
        belief
    }

    /// A belief from the squares alone: the enemy pieces on the board and as many removed ones as
    /// the view counts, every kind possible.
    fn from_squares(view: &PlayerView) -> Belief {
        let side = view.side().opponent();
        let mut current = [None; N];
        for (slot, &sq) in current.iter_mut().zip(view.enemy()) {
            *slot = Some(sq);
        }
        Belief {
            side,
            initial: current.map(|c| c.unwrap_or(Square::hq(side))),
            current,
            domain: [KindSet::ALL; N],
            pairs: Vec::new(),
            prior: [[1.0; 16]; N],
            exact: false,
            mixing: 0,
        }
    }

    fn keep(&mut self, i: usize, f: impl Fn(Kind) -> bool) {
        self.domain[i] = self.domain[i].iter().filter(|&k| f(k)).collect();
    }

    /// Runs every constraint until nothing changes. False on a contradiction.
    fn propagate(&mut self) -> bool {
        propagate(&mut self.domain, &self.pairs)
    }

    /// Draws one full assignment consistent with every fact, weighted by the prior: the kind of
    /// every tracked piece (removed ones included), by index. `None` only if the belief is
    /// contradictory.
    ///
    /// Kinds are first drawn piece by piece, which leans off the prior (a piece drawn early
    /// takes a kind the ones drawn later would have liked more); with mixing set, swaps of two
    /// pieces' kinds taken with the Metropolis chance then bring the world to the prior's
    /// proportions among the assignments that fit every fact.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<[Kind; N]> {
        let world = self.draw(rng)?;
        Some(if self.mixing > 0 {
            self.mix(world, self.mixing, rng)
        } else {
            world
        })
    }

    fn draw<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<[Kind; N]> {
        // Fast path: pick kinds piece by piece within what the counts leave, start again on a
        // dead end. Exact sets make dead ends rare.
        for _attempt in 0..24 {
            if let Some(world) = self.try_fast(rng)
                && self.pairs_hold(&world)
            {
                return Some(world);
            }
        }
        for _attempt in 0..8 {
            if let Some(world) = self.try_sample(rng)
                && self.pairs_hold(&world)
            {
                return Some(world);
            }
        }
        self.try_sample(rng)
    }

    /// `steps` proposals of swapping two pieces' kinds, each taken with the Metropolis chance
    /// (the ratio of the prior weights after and before): the swaps keep the counts, so the
    /// worlds drawn come to follow the prior among the assignments that fit every fact.
    fn mix<R: Rng + ?Sized>(&self, mut world: [Kind; N], steps: usize, rng: &mut R) -> [Kind; N] {
        let w = |i: usize, k: Kind| self.prior[i][k.index()].max(1e-6);
        // Pieces whose kind is known for certain never swap.
        let mut open = [0usize; N];
        let mut n = 0;
        for i in 0..N {
            if self.domain[i].len() > 1 {
                open[n] = i;
                n += 1;
            }
        }
        if n < 2 {
            return world;
        }
        for _ in 0..steps {
            let i = open[rng.random_range(0..n)];
            let j = open[rng.random_range(0..n)];
            let (a, b) = (world[i], world[j]);
            if a == b || !self.domain[i].contains(b) || !self.domain[j].contains(a) {
                continue;
            }
            let ratio = (w(i, b) * w(j, a)) / (w(i, a) * w(j, b));
            if ratio < 1.0 && rng.random_range(0.0..1.0f32) >= ratio {
                continue;
            }
            world[i] = b;
            world[j] = a;
            if !self.pairs.is_empty() && !self.pairs_hold(&world) {
                world[i] = a;
                world[j] = b;
            }
        }
        world
    }

    fn try_fast<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<[Kind; N]> {
        let mut left: [u8; 16] = Kind::ALL.map(Kind::count);
        let mut order: [usize; N] = core::array::from_fn(|i| i);
        for i in (1..N).rev() {
            let j = rng.random_range(0..=i);
            order.swap(i, j);
        }
        order.sort_by_key(|&i| self.domain[i].len());
        let mut world = [Kind::Mine; N];
        let mut options: Vec<(Kind, f32)> = Vec::with_capacity(16);
        for &i in &order {
            options.clear();
            options.extend(
                self.domain[i]
                    .iter()
                    .filter(|k| left[k.index()] > 0)
                    .map(|k| (k, self.prior[i][k.index()] * f32::from(left[k.index()]))),
            );
            let k = weighted(rng, &options)?;
            left[k.index()] -= 1;
            world[i] = k;
        }
        Some(world)
    }

    fn try_sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<[Kind; N]> {
        let mut dom = self.domain;
        let mut order: Vec<usize> = (0..N).filter(|&i| self.current[i].is_some()).collect();
        // Shuffle, then most constrained first, so forced pieces settle early.
        for i in (1..order.len()).rev() {
            let j = rng.random_range(0..=i);
            order.swap(i, j);
        }
        order.sort_by_key(|&i| dom[i].len());
        for &i in &order {
            loop {
                let options: Vec<(Kind, f32)> = dom[i]
                    .iter()
                    .map(|k| (k, self.prior[i][k.index()]))
                    .collect();
                let k = weighted(rng, &options)?;
                let mut next = dom;
                next[i] = KindSet::only(k);
                if propagate(&mut next, &self.pairs) {
                    dom = next;
                    break;
                }
                dom[i] = dom[i].without(k);
                if dom[i].is_empty() {
                    return None;
                }
            }
        }
        let assign = matching(&dom)?;
        Some(assign.map(|k| Kind::ALL[k as usize]))
    }

    fn pairs_hold(&self, world: &[Kind; N]) -> bool {
        self.pairs
            .iter()
            .all(|p| resolve(p.attacker, world[p.defender], Some(world[p.behind])) == p.outcome)
    }

    /// Estimated probability of each kind for each tracked piece, from `samples` worlds.
    pub fn marginals<R: Rng + ?Sized>(&self, samples: usize, rng: &mut R) -> [[f32; 16]; N] {
        let mut out = [[0.0f32; 16]; N];
        let mut got = 0usize;
        for _ in 0..samples {
            if let Some(world) = self.sample(rng) {
                got += 1;
                for (i, k) in world.iter().enumerate() {
                    out[i][k.index()] += 1.0;
                }
            }
        }
        if got > 0 {
            for row in &mut out {
                for p in row.iter_mut() {
                    *p /= got as f32;
                }
            }
        }
        out
    }
}

fn resolve(attacker: Kind, defender: Kind, behind: Option<Kind>) -> Outcome {
    resolve_battle(attacker, defender, behind, &Ruleset::STANDARD)
}

/// The kinds the setup rules allow on a square.
fn setup_allows(side: Side, sq: Square) -> KindSet {
    let mut set = KindSet::ALL;
    if sq.is_entrance_of(side) {
        set = set.without(Kind::Mine).without(Kind::Flag);
    }
    if sq.relative_row(side) == 1 {
        set = set.without(Kind::Flag);
    }
    set
}

/// How much the behaviour of a piece counts (each factor per observed act, up to `cap` acts).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reading {
    pub advance: f32,
    pub attack: f32,
    /// For each time the piece let an enemy plane next to it be.
    pub spared: f32,
    pub cap: u8,
    /// For each ply the piece stayed put while it could have moved (a mine or the flag).
    pub idle: f32,
    /// Idle plies counted at most.
    pub idle_cap: u8,
    /// For the enemy piece that has just stepped next to the own general once the general has
    /// shown itself by winning a battle: the spy, the one piece that beats it, walks up to it
    /// (1.0: not read).
    pub spy_approach: f32,
}

/// Kinds that take a plane for certain.
fn beats_plane(k: Kind) -> bool {
    matches!(
        k,
        Kind::General | Kind::LieutenantGeneral | Kind::MajorGeneral
    )
}

/// Kinds that win most battles they start.
fn is_strong(k: Kind) -> bool {
    matches!(
        k,
        Kind::General | Kind::LieutenantGeneral | Kind::MajorGeneral | Kind::Plane | Kind::Tank
    )
}

fn weighted<R: Rng + ?Sized>(rng: &mut R, items: &[(Kind, f32)]) -> Option<Kind> {
    let total: f32 = items.iter().map(|&(_, w)| w).sum();
    if items.is_empty() {
        return None;
    }
    if total <= 0.0 {
        return Some(items[rng.random_range(0..items.len())].0);
    }
    let mut pick = rng.random_range(0.0..total);
    for &(k, w) in items {
        if pick < w {
            return Some(k);
        }
        pick -= w;
    }
    items.last().map(|&(k, _)| k)
}

/// Propagates the flag pairs and the counts until nothing changes. False on a contradiction.
fn propagate(dom: &mut [KindSet; N], pairs: &[FlagPair]) -> bool {
    loop {
        let before = *dom;
        for p in pairs {
            let behind = dom[p.behind];
            dom[p.defender] = dom[p.defender]
                .iter()
                .filter(|&k| {
                    behind
                        .iter()
                        .any(|b| resolve(p.attacker, k, Some(b)) == p.outcome)
                })
                .collect();
            let defender = dom[p.defender];
            dom[p.behind] = dom[p.behind]
                .iter()
                .filter(|&b| {
                    defender
                        .iter()
                        .any(|k| resolve(p.attacker, k, Some(b)) == p.outcome)
                })
                .collect();
        }
        if dom.iter().any(|d| d.is_empty()) || !restrict_by_counts(dom) {
            return false;
        }
        if *dom == before {
            return true;
        }
    }
}

/// A complete assignment of kinds to the 23 pieces within their sets and the counts, as kind
/// indices; `None` if there is none.
fn matching(dom: &[KindSet; N]) -> Option<[u8; N]> {
    let cap: [u8; 16] = Kind::ALL.map(Kind::count);
    let mut assign = [u8::MAX; N];
    let mut load = [0u8; 16];
    for i in 0..N {
        let mut seen = 0u16;
        if !augment(i, dom, &cap, &mut assign, &mut load, &mut seen) {
            return None;
        }
    }
    Some(assign)
}

fn augment(
    i: usize,
    dom: &[KindSet; N],
    cap: &[u8; 16],
    assign: &mut [u8; N],
    load: &mut [u8; 16],
    seen: &mut u16,
) -> bool {
    for k in dom[i].iter() {
        let ki = k.index();
        if *seen & (1 << ki) != 0 {
            continue;
        }
        *seen |= 1 << ki;
        if load[ki] < cap[ki] {
            assign[i] = ki as u8;
            load[ki] += 1;
            return true;
        }
        for j in 0..N {
            if j != i && assign[j] as usize == ki && augment(j, dom, cap, assign, load, seen) {
                // j moved elsewhere, freeing one place of kind ki.
                load[ki] -= 1;
                assign[i] = ki as u8;
                load[ki] += 1;
                return true;
            }
        }
    }
    false
}

/// Keeps for each piece only the kinds some complete assignment gives it. False if no complete
/// assignment exists.
fn restrict_by_counts(dom: &mut [KindSet; N]) -> bool {
    let Some(assign) = matching(dom) else {
        return false;
    };
    for i in 0..N {
        // Kind graph without piece i: k → k' when some piece holding k could hold k' instead.
        let mut next = [0u16; 16];
        for j in 0..N {
            if j != i {
                next[assign[j] as usize] |= dom[j].bits();
            }
        }
        // Kinds from which a chain of such swaps reaches the place piece i frees.
        let mut reach = 1u16 << assign[i];
        loop {
            let mut grown = reach;
            for (k, &n) in next.iter().enumerate() {
                if n & reach != 0 {
                    grown |= 1 << k;
                }
            }
            if grown == reach {
                break;
            }
            reach = grown;
        }
        dom[i] = dom[i].and(KindSet::from_bits(reach));
    }
    true
}

/// The count-only baseline: each kind in proportion to how many of it a side has.
#[must_use]
pub fn count_only_probability(kind: Kind) -> f32 {
    f32::from(kind.count()) / N as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    use gunjin::rand::{SeedableRng, rngs::SmallRng};
    use gunjin::{BySide, Deployment, Game, Ruleset};
    use std::collections::{HashMap, HashSet};

    /// The piece that steps next to a general that has shown itself is read as likelier the spy.
    #[test]
    fn a_piece_stepping_up_to_a_shown_general_is_likelier_the_spy() {
        use gunjin::rand::RngExt as _;
        let mut found = 0;
        for seed in 0..400u64 {
            if found >= 3 {
                break;
            }
            let mut game = crate::auto_game(seed);
            let mut rng = SmallRng::seed_from_u64(seed);
            while game.status().is_ongoing() && game.history().len() < 120 {
                let view = game.view(Side::Sente);
                if game.position().to_move() == Side::Sente {
                    let before = crate::level_belief(&view, crate::Level::Advanced);
                    let mut after = before.clone();
                    after.read_spy_approach(&view, 8.0);
                    if let Some(last) = view.history().last()
                        && (0..N).any(|i| after.prior[i] != before.prior[i])
                    {
                        // Only the piece that just moved, and only its spy weight.
                        let i = (0..N)
                            .find(|&i| after.prior[i] != before.prior[i])
                            .expect("changed");
                        assert_eq!(after.current[i], Some(last.to));
                        let general = view
                            .own()
                            .iter()
                            .find(|&&(_, k)| k == Kind::General)
                            .map(|&(sq, _)| sq)
                            .expect("the general stands");
                        assert!(general.neighbours().any(|n| n == last.to));
                        for k in Kind::ALL {
                            let ratio = after.prior[i][k.index()] / before.prior[i][k.index()];
                            let want = if k == Kind::Spy { 8.0 } else { 1.0 };
                            assert!(
                                before.prior[i][k.index()] == 0.0 || (ratio - want).abs() < 1e-3
                            );
                        }
                        found += 1;
                    }
                }
                let moves = game.position().legal_moves();
                game.play(moves[rng.random_range(0..moves.len())])
                    .expect("legal");
            }
        }
        assert!(
            found >= 3,
            "too few positions where a piece stepped up to a shown general: {found}"
        );
    }

    /// A reading that changes nothing: each test turns on the factor it is about.
    const NO_READING: Reading = Reading {
        advance: 1.0,
        attack: 1.0,
        spared: 1.0,
        cap: 8,
        idle: 1.0,
        idle_cap: 0,
        spy_approach: 1.0,
    };

    fn occupier_share(belief: &Belief, piece: usize) -> f32 {
        let m = belief.marginals(4000, &mut SmallRng::seed_from_u64(9));
        Kind::ALL
            .iter()
            .filter(|k| k.can_occupy())
            .map(|k| m[piece][k.index()])
            .sum()
    }

    #[test]
    fn behaviour_shifts_likelihoods_but_rules_nothing_out() {
        let game = Game::new(
            Ruleset::STANDARD,
            BySide::new_with(|s| Deployment::auto(s, 5)),
        )
        .expect("a game");
        let view = game.view(Side::Sente);
        let mut tracked = Tracked::from_view(&view).expect("the history fits");
        let plain = Belief::of_enemy_tracked(&tracked, Prior::Rows);
        // A front-row piece of gote that (as if) walked forward four times and attacked twice.
        let walker = (0..N)
            .find(|&i| tracked.initial[1][i].relative_row(Side::Gote) == 4)
            .expect("gote has a front row");
        tracked.advances[1][walker] = 4;
        tracked.attacks[1][walker] = 2;
        let mut read = Belief::of_enemy_tracked(&tracked, Prior::Rows);
        read.read_behaviour(
            &tracked,
            Reading {
                advance: 1.5,
                attack: 2.0,
                ..NO_READING
            },
        );
        for (a, b) in plain.pieces().zip(read.pieces()) {
            assert_eq!(a.kinds, b.kinds, "reading changes no fact");
        }
        let before = occupier_share(&plain, walker);
        let after = occupier_share(&read, walker);
        assert!(
            after > before + 0.15,
            "an advancing attacker looks like an officer: {before} → {after}"
        );
        // A piece that did nothing keeps its likelihoods (up to sampling noise).
        let idle = (0..N)
            .find(|&i| i != walker && tracked.initial[1][i].relative_row(Side::Gote) == 4)
            .expect("a second front-row piece");
        let (b, a) = (occupier_share(&plain, idle), occupier_share(&read, idle));
        assert!((a - b).abs() < 0.1, "idle piece: {b} → {a}");
    }

    fn top_officer_share(belief: &Belief, piece: usize) -> f32 {
        let m = belief.marginals(4000, &mut SmallRng::seed_from_u64(9));
        [Kind::General, Kind::LieutenantGeneral, Kind::MajorGeneral]
            .iter()
            .map(|k| m[piece][k.index()])
            .sum()
    }

    /// A game where sente's plane flew onto a gote piece and won, and gote then moved a piece
    /// far from it: the plane's new neighbours let it be.
    fn plane_spared() -> (Game, Square) {
        for seed in 0..200 {
            let mut game = crate::auto_game(seed);
            let flight = game.position().legal_moves().into_iter().find(|mv| {
                game.position().piece_at(mv.from).map(|p| p.kind) == Some(Kind::Plane)
                    && game.position().piece_at(mv.to).is_some()
                    && !mv.to.is_hq()
            });
            let Some(flight) = flight else { continue };
            match game.play(flight) {
                Ok(ply) if ply.battle.map(|b| b.outcome) == Some(Outcome::Attacker) => {}
                _ => continue,
            }
            let landed = flight.to;
            let quiet = game.position().legal_moves().into_iter().find(|mv| {
                game.position().piece_at(mv.to).is_none()
                    && !landed.neighbours().any(|n| n == mv.from)
            });
            let Some(quiet) = quiet else { continue };
            game.play(quiet).expect("legal");
            return (game, landed);
        }
        panic!("some arrangement lets a plane win its first flight");
    }

    #[test]
    fn pieces_that_let_a_known_plane_be_are_unlikely_to_beat_it() {
        let (game, landed) = plane_spared();
        let view = game.view(Side::Sente);
        let tracked = Tracked::from_view(&view).expect("the history fits");
        let neighbours: Vec<usize> = (0..N)
            .filter(|&i| {
                tracked.current[1][i].is_some_and(|sq| landed.neighbours().any(|n| n == sq))
            })
            .collect();
        assert!(
            !neighbours.is_empty(),
            "the plane landed among gote's pieces"
        );
        for i in 0..N {
            let expected = u8::from(neighbours.contains(&i));
            assert_eq!(tracked.spared_planes[1][i], expected, "gote piece {i}");
        }
        let reading = |spared| Reading {
            spared,
            ..NO_READING
        };
        let plain = Belief::of_enemy_tracked(&tracked, Prior::Measured);
        let mut read = plain.clone();
        read.read_behaviour(&tracked, reading(0.15));
        for (a, b) in plain.pieces().zip(read.pieces()) {
            assert_eq!(a.kinds, b.kinds, "reading changes no fact");
        }
        for &i in &neighbours {
            let (before, after) = (top_officer_share(&plain, i), top_officer_share(&read, i));
            assert!(
                after < before * 0.5,
                "piece {i} next to the plane: {before} → {after}"
            );
        }
    }

    /// A game of random moves, and for each piece (by starting square) the plies of its side in
    /// which it stood beside an empty square, had not moved yet, and another piece moved: counted
    /// here on the game's own positions, apart from the tracker.
    fn random_game_with_idle_counts(seed: u64) -> (Game, HashMap<Square, u8>) {
        let mut game = crate::auto_game(seed);
        let mut start_of: HashMap<Square, Square> =
            game.position().pieces().map(|(sq, _)| (sq, sq)).collect();
        let mut moved: HashSet<Square> = HashSet::new();
        let mut idle: HashMap<Square, u8> = HashMap::new();
        let mut rng = SmallRng::seed_from_u64(seed);
        for _ in 0..90 {
            let moves = game.position().legal_moves();
            if !game.status().is_ongoing() || moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            let mover = game.position().to_move();
            for (sq, p) in game.position().pieces() {
                let start = start_of[&sq];
                if p.side == mover
                    && sq != mv.from
                    && !moved.contains(&start)
                    && sq
                        .neighbours()
                        .any(|n| game.position().piece_at(n).is_none())
                {
                    *idle.entry(start).or_default() += 1;
                }
            }
            game.play(mv).expect("a legal move");
            let start = start_of.remove(&mv.from).expect("the mover was tracked");
            moved.insert(start);
            match game.position().piece_at(mv.to) {
                Some(p) if p.side == mover => {
                    start_of.insert(mv.to, start);
                }
                Some(_) => {}
                None => {
                    start_of.remove(&mv.to);
                }
            }
        }
        (game, idle)
    }

    #[test]
    fn pieces_that_stay_put_beside_an_empty_square_are_counted_idle() {
        for seed in 0..6 {
            let (game, idle) = random_game_with_idle_counts(seed);
            let tracked = Tracked::from_view(&game.view(Side::Sente)).expect("the history fits");
            for side in Side::ALL {
                for i in 0..N {
                    let start = tracked.initial[side.index()][i];
                    let expected = idle.get(&start).copied().unwrap_or(0);
                    assert_eq!(
                        tracked.idle[side.index()][i],
                        expected,
                        "seed {seed}, {side:?} piece from {start}"
                    );
                }
            }
            assert!(idle.values().any(|&n| n > 3), "seed {seed}: someone idled");
        }
    }

    #[test]
    fn a_piece_that_stays_put_while_it_could_move_is_likelier_a_mine_or_the_flag() {
        let (game, _) = random_game_with_idle_counts(2);
        let view = game.view(Side::Sente);
        let tracked = Tracked::from_view(&view).expect("the history fits");
        let plain = Belief::of_enemy_tracked(&tracked, Prior::Measured);
        let mut read = plain.clone();
        read.read_behaviour(
            &tracked,
            Reading {
                idle: 1.04,
                idle_cap: 40,
                ..NO_READING
            },
        );
        for (a, b) in plain.pieces().zip(read.pieces()) {
            assert_eq!(a.kinds, b.kinds, "reading changes no fact");
        }
        let immobile = |belief: &Belief, i: usize| {
            let m = belief.marginals(4000, &mut SmallRng::seed_from_u64(9));
            m[i][Kind::Mine.index()] + m[i][Kind::Flag.index()]
        };
        // The piece that stayed put longest with its kind still open (the reading weighs pieces
        // against each other: the six mines and the flag are shared out among them).
        let stayer = (0..N)
            .filter(|&i| tracked.current[1][i].is_some())
            .filter(|&i| (0.05..0.95).contains(&immobile(&plain, i)))
            .max_by_key(|&i| tracked.idle[1][i])
            .expect("gote has a piece that may be a mine");
        assert!(
            tracked.idle[1][stayer] >= 10,
            "it stayed put long enough to tell"
        );
        let (before, after) = (immobile(&plain, stayer), immobile(&read, stayer));
        let odds = |p: f32| p / (1.0 - p);
        assert!(
            odds(after) > 1.5 * odds(before),
            "piece {stayer} idle {} plies: {before} → {after}",
            tracked.idle[1][stayer]
        );
    }

    /// Every distinct way to give `kinds` (a multiset) to the pieces `free`, with its weight
    /// under the belief's prior.
    fn exact_marginals(belief: &Belief, free: &[usize], kinds: &[Kind]) -> Vec<[f64; 16]> {
        fn walk(
            belief: &Belief,
            free: &[usize],
            left: &mut Vec<Kind>,
            chosen: &mut Vec<Kind>,
            out: &mut Vec<[f64; 16]>,
            total: &mut f64,
        ) {
            if chosen.len() == free.len() {
                let w: f64 = free
                    .iter()
                    .zip(chosen.iter())
                    .map(|(&i, k)| f64::from(belief.prior[i][k.index()]))
                    .product();
                for (slot, k) in out.iter_mut().zip(chosen.iter()) {
                    slot[k.index()] += w;
                }
                *total += w;
                return;
            }
            let i = free[chosen.len()];
            let mut tried = KindSet::EMPTY;
            for n in 0..left.len() {
                let k = left[n];
                if tried.contains(k) || !belief.domain[i].contains(k) {
                    continue;
                }
                tried = tried.with(k);
                left.swap_remove(n);
                chosen.push(k);
                walk(belief, free, left, chosen, out, total);
                chosen.pop();
                left.push(k);
                let last = left.len() - 1;
                left.swap(n, last);
            }
        }
        let mut out = vec![[0.0; 16]; free.len()];
        let mut total = 0.0;
        walk(
            belief,
            free,
            &mut kinds.to_vec(),
            &mut Vec::new(),
            &mut out,
            &mut total,
        );
        for row in &mut out {
            row.iter_mut().for_each(|p| *p /= total);
        }
        out
    }

    #[test]
    fn mixed_worlds_follow_the_prior_among_the_assignments_that_fit() {
        let game = Game::new(
            Ruleset::STANDARD,
            BySide::new_with(|s| Deployment::auto(s, 11)),
        )
        .expect("a game");
        let view = game.view(Side::Sente);
        let tracked = Tracked::from_view(&view).expect("the history fits");
        let mut belief = Belief::of_enemy_tracked(&tracked, Prior::Measured);
        // Tell it the kinds of all but seven of gote's pieces: one from each row and the HQ,
        // so that the prior pulls the leftover kinds different ways.
        let gote = &game.deployments()[Side::Gote];
        let free: Vec<usize> = [0usize, 3, 6, 9, 12, 16, 20]
            .iter()
            .map(|&n| n.min(N - 1))
            .collect();
        let mut leftover = Vec::new();
        for i in 0..N {
            let kind = gote.kind_at(belief.initial[i]).expect("a full camp");
            if free.contains(&i) {
                leftover.push(kind);
            } else {
                belief = belief
                    .assume(belief.initial[i], kind)
                    .expect("the truth fits");
            }
        }
        let exact = exact_marginals(&belief, &free, &leftover);
        let error = |mixing: usize| {
            let mut b = belief.clone();
            b.set_mixing(mixing);
            let m = b.marginals(6000, &mut SmallRng::seed_from_u64(3));
            free.iter()
                .zip(&exact)
                .flat_map(|(&i, row)| {
                    Kind::ALL
                        .iter()
                        .map(move |k| (f64::from(m[i][k.index()]) - row[k.index()]).abs())
                })
                .fold(0.0f64, f64::max)
        };
        let (plain, mixed) = (error(0), error(400));
        assert!(mixed < 0.03, "mixed worlds within sampling noise: {mixed}");
        assert!(
            mixed < plain,
            "mixing brings them closer: {plain} → {mixed}"
        );
    }
}
