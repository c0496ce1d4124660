//! Deployments per level: the beginner takes the engine's automatic arrangement; stronger
//! levels draw many and keep the one a careful player would prefer.

use gunjin::rand::{SeedableRng, rngs::SmallRng};
use gunjin::{Deployment, Kind, Ruleset, Side, Square};

use crate::player::Level;

/// The CPU's deployment for `side` at `level`; the same seed gives the same deployment. Always
/// legal.
///
/// ```
/// use gunjin::Side;
/// use gunjin_ai::{choose_deployment, Level};
/// let d = choose_deployment(Side::Gote, Level::Advanced, 7);
/// assert_eq!(d.side(), Side::Gote);
/// ```
#[must_use]
pub fn choose_deployment(side: Side, level: Level, seed: u64) -> Deployment {
    let candidates = match level {
        Level::Beginner => return Deployment::auto(side, seed),
        Level::Intermediate => 8,
        Level::Advanced => 48,
    };
    let mut rng = SmallRng::seed_from_u64(seed ^ 0x6465_706c_6f79);
    let mut best = Deployment::auto_with(side, &Ruleset::STANDARD, &mut rng);
    let mut best_score = score(&best);
    for _ in 1..candidates {
        let d = Deployment::auto_with(side, &Ruleset::STANDARD, &mut rng);
        let s = score(&d);
        if s > best_score {
            best = d;
            best_score = s;
        }
    }
    best
}

/// How much a careful player likes a deployment.
fn score(d: &Deployment) -> i32 {
    let side = d.side();
    let kind = |sq: Option<Square>| sq.and_then(|s| d.kind_at(s));
    let mut s = 0;
    for (sq, k) in d.pieces() {
        let row = sq.relative_row(side);
        match k {
            Kind::Flag => {
                // The flag fights with the piece behind it: a mine or a high officer there.
                s += match kind(sq.behind(side)) {
                    Some(Kind::Mine) => 30,
                    Some(Kind::General | Kind::LieutenantGeneral) => 25,
                    Some(Kind::MajorGeneral | Kind::Plane | Kind::Tank) => 15,
                    _ => -20,
                };
                if row == 2 {
                    s += 5;
                }
            }
            Kind::General => {
                // Kept back, away from the enemy spy, and not on an entrance.
                s += if sq.is_hq() {
                    20
                } else {
                    10 - 5 * i32::from(row)
                };
            }
            // The spy near the middle, ready for the enemy general coming through a bridge.
            Kind::Spy if row == 2 || row == 3 => s += 8,
            Kind::Tank | Kind::Cavalry | Kind::Captain | Kind::Lieutenant
                if sq.is_entrance_of(side) =>
            {
                s += 12;
            }
            Kind::Mine => {
                // Mines guard the headquarters and the squares behind the entrances.
                if sq.is_hq() {
                    s += 15;
                }
                if row == 3 && (sq.col() == 1 || sq.col() == 4) {
                    s += 10;
                }
            }
            Kind::Plane if row == 1 || row == 2 => s += 4,
            _ => {}
        }
    }
    // The headquarters must not be easy to enter: its neighbours should be solid.
    let hq = Square::hq(side);
    for n in hq.neighbours() {
        if matches!(
            d.kind_at(n),
            Some(Kind::Mine | Kind::LieutenantGeneral | Kind::MajorGeneral | Kind::General)
        ) {
            s += 6;
        }
    }
    s
}
