//! How likely each kind is to start on each square before anything is seen: the weights the
//! belief engine samples its worlds by.

use std::sync::OnceLock;

use gunjin::rand::SeedableRng;
use gunjin::rand::rngs::SmallRng;
use gunjin::{Deployment, Kind, Ruleset, Side, Square};

/// Pieces per side.
const N: usize = 23;

/// Where a belief's starting weights come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Prior {
    /// By row from the back, from the preferences the automatic arrangement also uses, and a
    /// general or mine likelier in the headquarters.
    Rows,
    /// Measured square by square over many automatic arrangements, which follow the usual
    /// advice (the flag behind a mine or high officer, the general in or beside the
    /// headquarters, light officers at the entrances): it knows columns and neighbours too.
    Measured,
}

impl Prior {
    /// The weight of each kind (by index) for a piece of `side` that started on `sq`, as a ratio
    /// to the kind's share of the 23 pieces; never zero for a kind the setup rules allow.
    pub(crate) fn weights(self, side: Side, sq: Square) -> [f32; 16] {
        match self {
            Prior::Rows => by_row(side, sq),
            Prior::Measured => measured()[side.index() * Square::COUNT + sq.index()],
        }
    }

    /// Builds the prior's table now rather than on first use.
    pub(crate) fn prepare(self) {
        if self == Prior::Measured {
            measured();
        }
    }
}

fn by_row(side: Side, sq: Square) -> [f32; 16] {
    let row = sq.relative_row(side).clamp(1, 4);
    let mut out = [1.0f32; 16];
    for k in Kind::ALL {
        out[k.index()] = (gunjin::row_preference(k, row) as f32).max(0.2);
    }
    if sq.is_hq() {
        out[Kind::General.index()] *= 4.0;
        out[Kind::Mine.index()] *= 3.0;
    }
    out
}

/// Arrangements measured per side: enough that a kind's share on a square is within about
/// ±0.01 of its limit.
const MEASURED_ARRANGEMENTS: u32 = 8_000;

/// Added to every measured share, as a fraction of the kind's overall share, so that an
/// arrangement the automatic one never makes stays possible, only unlikely.
const SMOOTHING: f32 = 0.05;

/// The measured table, built on first use (a fixed seed: the same everywhere, also in wasm).
fn measured() -> &'static [[f32; 16]] {
    static TABLE: OnceLock<Vec<[f32; 16]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut counts = vec![[0u32; 16]; 2 * Square::COUNT];
        let mut rng = SmallRng::seed_from_u64(0x0070_7269_6f72);
        for side in Side::ALL {
            for _ in 0..MEASURED_ARRANGEMENTS {
                let d = Deployment::auto_with(side, &Ruleset::STANDARD, &mut rng);
                for (sq, k) in d.pieces() {
                    counts[side.index() * Square::COUNT + sq.index()][k.index()] += 1;
                }
            }
        }
        counts
            .iter()
            .map(|row| {
                let mut out = [0f32; 16];
                for k in Kind::ALL {
                    let share = f32::from(k.count()) / N as f32;
                    let seen = row[k.index()] as f32 / MEASURED_ARRANGEMENTS as f32;
                    out[k.index()] = (seen + SMOOTHING * share) / share;
                }
                out
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn camp(side: Side) -> impl Iterator<Item = Square> {
        Square::all().filter(move |s| s.relative_row(side) <= 4)
    }

    #[test]
    fn measured_prior_knows_the_usual_arrangement() {
        let hq = Prior::Measured.weights(Side::Sente, Square::hq(Side::Sente));
        assert!(
            hq[Kind::General.index()] > 2.0,
            "the general often holds the HQ: {hq:?}"
        );
        assert!(
            hq[Kind::Captain.index()] < 1.0,
            "a captain seldom does: {hq:?}"
        );
        for side in Side::ALL {
            let row_share = |row: u8, kind: Kind| -> f32 {
                camp(side)
                    .filter(|s| s.relative_row(side) == row)
                    .map(|s| Prior::Measured.weights(side, s)[kind.index()])
                    .sum()
            };
            assert!(
                row_share(4, Kind::Captain) > row_share(1, Kind::Captain),
                "{side}"
            );
            assert!(
                row_share(1, Kind::Mine) > row_share(4, Kind::Mine),
                "{side}"
            );
        }
    }

    #[test]
    fn every_kind_stays_possible_everywhere_in_the_camp() {
        for side in Side::ALL {
            for sq in camp(side) {
                let w = Prior::Measured.weights(side, sq);
                assert!(Kind::ALL.iter().all(|k| w[k.index()] > 0.0), "{sq}: {w:?}");
            }
        }
    }

    #[test]
    fn the_two_sides_measure_alike() {
        // Gote's arrangement is sente's turned half round; the measurements agree up to noise.
        for sq in camp(Side::Sente) {
            let a = Prior::Measured.weights(Side::Sente, sq);
            let b = Prior::Measured.weights(Side::Gote, sq.turned());
            for k in Kind::ALL {
                let (x, y) = (a[k.index()], b[k.index()]);
                assert!(
                    (x - y).abs() < 0.2 * x.max(y) + 0.15,
                    "{sq} {k}: {x} vs {y}"
                );
            }
        }
    }
}
