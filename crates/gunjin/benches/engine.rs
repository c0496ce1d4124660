//! Engine speed: legal-move lists over positions from random games, and random playouts.
//!
//! Targets (release build, one thread): at least 3,000,000 legal-move lists per second and at
//! least 1,000,000 playout plies per second. Criterion reports the time per batch; the element
//! throughput it prints is lists/s and plies/s.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gunjin::rand::rngs::SmallRng;
use gunjin::rand::{RngExt, SeedableRng};
use gunjin::{BySide, Deployment, Position, Ruleset, Side};

fn start(seed: u64) -> Position {
    let deployments = BySide::new_with(|side: Side| {
        Deployment::auto(side, seed.wrapping_mul(2).wrapping_add(side.index() as u64))
    });
    Position::new(Ruleset::STANDARD, &deployments)
}

/// Every position of `games` random games from fixed seeds.
fn sample_positions(games: u64) -> Vec<Position> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut pos = start(seed);
        let mut rng = SmallRng::seed_from_u64(seed);
        while pos.status().is_ongoing() {
            out.push(pos.clone());
            let moves = pos.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())];
            let _ = pos.play(mv);
        }
    }
    out
}

/// One random game from the start to the end; returns the plies played.
fn playout(start: &Position, rng: &mut SmallRng) -> u64 {
    let mut pos = start.clone();
    let mut plies = 0;
    while pos.status().is_ongoing() {
        let moves = pos.legal_moves();
        let mv = moves[rng.random_range(0..moves.len())];
        let _ = pos.play(mv);
        plies += 1;
    }
    plies
}

fn movegen(c: &mut Criterion) {
    let positions = sample_positions(20);
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("legal_moves", |b| {
        b.iter(|| {
            let mut total = 0usize;
            for p in &positions {
                total += black_box(p).legal_moves().len();
            }
            black_box(total)
        });
    });
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let starts: Vec<Position> = (0..8).map(start).collect();
    // Plies in one batch of playouts, for the throughput figure.
    let mut rng = SmallRng::seed_from_u64(7);
    let plies: u64 = starts.iter().map(|s| playout(s, &mut rng)).sum();
    let mut group = c.benchmark_group("playout");
    group.throughput(Throughput::Elements(plies));
    group.bench_function("random_plies", |b| {
        b.iter(|| {
            // Same seed every batch: the same games, so the element count holds.
            let mut rng = SmallRng::seed_from_u64(7);
            let mut n = 0;
            for s in &starts {
                n += playout(black_box(s), &mut rng);
            }
            black_box(n)
        });
    });
    group.finish();
}

criterion_group!(benches, movegen, playouts);
criterion_main!(benches);
