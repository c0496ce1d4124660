//! The two headline figures, measured over a fixed workload: legal-move lists per second over
//! positions from random games, and random-playout plies per second, one thread.
//!
//! `cargo bench -p gunjin --bench figures` prints them against wall time and against the thread's
//! own CPU time (from `/proc/thread-self/schedstat` where it exists), since the machine this
//! project builds on is often shared: CPU time is the figure a quiet machine would show.
//! Targets: ≥ 3,000,000 lists/s and ≥ 1,000,000 plies/s.

use std::hint::black_box;
use std::time::Instant;

use gunjin::rand::rngs::SmallRng;
use gunjin::rand::{RngExt, SeedableRng};
use gunjin::{BySide, Deployment, Position, Ruleset, Side};

fn start(seed: u64) -> Position {
    let deployments = BySide::new_with(|side: Side| {
        Deployment::auto(side, seed.wrapping_mul(2).wrapping_add(side.index() as u64))
    });
    Position::new(Ruleset::STANDARD, &deployments)
}

/// Nanoseconds this thread has run on a CPU, if the system says.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

struct Clock {
    wall: Instant,
    cpu: Option<u64>,
}

impl Clock {
    fn start() -> Clock {
        Clock {
            wall: Instant::now(),
            cpu: thread_cpu_ns(),
        }
    }

    /// (wall seconds, CPU seconds if known).
    fn stop(&self) -> (f64, Option<f64>) {
        let wall = self.wall.elapsed().as_secs_f64();
        let cpu = match (self.cpu, thread_cpu_ns()) {
            (Some(a), Some(b)) if b > a => Some((b - a) as f64 / 1e9),
            _ => None,
        };
        (wall, cpu)
    }
}

fn report(name: &str, work: u64, (wall, cpu): (f64, Option<f64>)) {
    let per_cpu = cpu.map_or_else(
        || "unknown".to_owned(),
        |c| format!("{:.0}", work as f64 / c),
    );
    println!(
        "{name}: {work} in {wall:.3} s wall = {:.0}/s wall, {per_cpu}/s CPU",
        work as f64 / wall
    );
}

fn main() {
    // Criterion-style flags (`--bench`) are passed by cargo; nothing to parse.
    let mut positions = Vec::new();
    for seed in 0..50u64 {
        let mut pos = start(seed);
        let mut rng = SmallRng::seed_from_u64(seed);
        while pos.status().is_ongoing() {
            positions.push(pos.clone());
            let moves = pos.legal_moves();
            let _ = pos.play(moves[rng.random_range(0..moves.len())]);
        }
    }
    let moves: usize = positions.iter().map(|p| p.legal_moves().len()).sum();
    println!(
        "{} positions from 50 random games, {:.1} legal moves on average",
        positions.len(),
        moves as f64 / positions.len() as f64
    );

    let rounds = 200u64;
    let clock = Clock::start();
    let mut total = 0usize;
    for _ in 0..rounds {
        for p in &positions {
            total += black_box(p).legal_moves().len();
        }
    }
    black_box(total);
    report(
        "legal-move lists",
        rounds * positions.len() as u64,
        clock.stop(),
    );

    let starts: Vec<Position> = (0..100).map(start).collect();
    let mut rng = SmallRng::seed_from_u64(7);
    let clock = Clock::start();
    let mut plies = 0u64;
    for round in 0..40 {
        for s in &starts {
            let mut pos = black_box(s).clone();
            while pos.status().is_ongoing() {
                let moves = pos.legal_moves();
                let _ = pos.play(moves[rng.random_range(0..moves.len())]);
                plies += 1;
            }
        }
        black_box(round);
    }
    report("playout plies", plies, clock.stop());
}
