//! `gunjin bench`: how fast the engine generates moves and plays random games to the end.
//!
//! Prints one JSON object on standard output. Every position and every game comes from fixed
//! seeds, so two runs measure the same work; only the times differ.

use std::hint::black_box;
use std::io::{self, Write};
use std::time::{Duration, Instant};

use gunjin::rand::rngs::SmallRng;
use gunjin::rand::{RngExt, SeedableRng};
use gunjin::{BySide, Deployment, Position, Ruleset, Side, Status};
use serde::Serialize;

/// Options of `gunjin bench`.
#[derive(Debug, Clone, clap::Args)]
pub struct BenchArgs {
    /// Seed of the deployments, the sampled games and the playouts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random games whose positions make the move-generation set.
    #[arg(long, default_value_t = 50)]
    pub sample_games: u32,
    /// At most this many positions are kept for move generation.
    #[arg(long, default_value_t = 50_000)]
    pub max_positions: usize,
    /// Passes of move generation over the whole position set.
    #[arg(long, default_value_t = 150)]
    pub rounds: u32,
    /// Random playouts from the start to the end of a game.
    #[arg(long, default_value_t = 6_000)]
    pub playouts: u32,
}

/// The figures printed by `gunjin bench`.
#[derive(Debug, Serialize)]
pub struct BenchReport {
    /// Legal-move lists generated per second over the sampled positions.
    pub movegen_positions_per_s: u64,
    /// Plies per second of random playouts (move generation, a random pick and the move), one
    /// thread.
    pub playout_plies_per_s: u64,
    /// Positions in the move-generation set.
    pub positions: usize,
    /// Random games the positions were sampled from.
    pub sample_games: u32,
    /// Passes over the position set.
    pub movegen_rounds: u32,
    /// Average number of legal moves in a sampled position.
    pub moves_per_position: f64,
    pub movegen_elapsed_s: f64,
    /// Playouts run, and their plies.
    pub playouts: u32,
    pub playout_plies: u64,
    pub plies_per_playout: f64,
    pub playout_elapsed_s: f64,
    /// How the playouts ended.
    pub playout_results: Results,
    pub seed: u64,
    /// `release` or `debug`: figures from a debug build mean little.
    pub build: &'static str,
}

/// Ends of the playouts.
#[derive(Debug, Default, Serialize)]
pub struct Results {
    pub sente_won: u32,
    pub gote_won: u32,
    pub drawn: u32,
}

/// Runs the benchmark and prints its report as one JSON line.
///
/// # Errors
/// Only an error writing to `out`.
pub fn run(args: &BenchArgs, out: &mut impl Write) -> io::Result<()> {
    let report = measure(args);
    serde_json::to_writer(&mut *out, &report)?;
    writeln!(out)?;
    out.flush()
}

/// Measures move generation and playouts as `args` says.
#[must_use]
pub fn measure(args: &BenchArgs) -> BenchReport {
    let positions = sample_positions(args);
    let (movegen_elapsed, moves) = time_movegen(&positions, args.rounds);
    let starts: Vec<Position> = (0..args.playouts)
        .map(|i| start_position(args.seed, u64::from(i) + 1_000_000))
        .collect();
    let (playout_elapsed, plies, results) = time_playouts(args.seed, &starts);

    let generated = positions.len() as f64 * f64::from(args.rounds);
    BenchReport {
        movegen_positions_per_s: whole(per_second(generated, movegen_elapsed)),
        playout_plies_per_s: whole(per_second(plies as f64, playout_elapsed)),
        positions: positions.len(),
        sample_games: args.sample_games,
        movegen_rounds: args.rounds,
        moves_per_position: round2(ratio(moves as f64, generated)),
        movegen_elapsed_s: round3(movegen_elapsed.as_secs_f64()),
        playouts: args.playouts,
        playout_plies: plies,
        plies_per_playout: round2(ratio(plies as f64, f64::from(args.playouts))),
        playout_elapsed_s: round3(playout_elapsed.as_secs_f64()),
        playout_results: results,
        seed: args.seed,
        build: if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
    }
}

/// The starting position of game `game` under `seed`: both sides deployed automatically.
fn start_position(seed: u64, game: u64) -> Position {
    let base = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ game.wrapping_mul(2);
    let deployments = BySide::new_with(|side| {
        Deployment::auto(side, base.wrapping_add(u64::from(side == Side::Gote)))
    });
    Position::new(Ruleset::STANDARD, &deployments)
}

/// Every ongoing position of `args.sample_games` random games, up to `args.max_positions`.
fn sample_positions(args: &BenchArgs) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(args.seed);
    let mut positions = Vec::new();
    for game in 0..args.sample_games {
        let mut pos = start_position(args.seed, u64::from(game));
        while pos.status().is_ongoing() && positions.len() < args.max_positions {
            positions.push(pos.clone());
            if !random_ply(&mut pos, &mut rng) {
                break;
            }
        }
    }
    positions
}

/// Plays one random legal move; `false` when there is none.
fn random_ply(pos: &mut Position, rng: &mut SmallRng) -> bool {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return false;
    }
    let mv = moves[rng.random_range(0..moves.len())];
    pos.play(mv).is_ok()
}

/// Generates the legal moves of every position `rounds` times; the time and the moves counted.
fn time_movegen(positions: &[Position], rounds: u32) -> (Duration, u64) {
    let mut moves = 0u64;
    let start = Instant::now();
    for _ in 0..rounds {
        for pos in positions {
            moves += black_box(black_box(pos).legal_moves()).len() as u64;
        }
    }
    (start.elapsed(), moves)
}

/// Plays every start position to its end with random moves; the time, the plies and the results.
fn time_playouts(seed: u64, starts: &[Position]) -> (Duration, u64, Results) {
    let mut rng = SmallRng::seed_from_u64(seed ^ 0x5EED);
    let mut plies = 0u64;
    let mut results = Results::default();
    let start = Instant::now();
    for start_pos in starts {
        let mut pos = start_pos.clone();
        while pos.status().is_ongoing() && random_ply(&mut pos, &mut rng) {
            plies += 1;
        }
        match black_box(pos.status()) {
            Status::Won {
                winner: Side::Sente,
                ..
            } => results.sente_won += 1,
            Status::Won {
                winner: Side::Gote, ..
            } => results.gote_won += 1,
            Status::Draw { .. } | Status::Ongoing => results.drawn += 1,
        }
    }
    (start.elapsed(), plies, results)
}

fn per_second(count: f64, elapsed: Duration) -> f64 {
    ratio(count, elapsed.as_secs_f64())
}

fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 { a / b } else { 0.0 }
}

fn whole(x: f64) -> u64 {
    // `as` saturates: a NaN or a negative rate (impossible here) becomes 0.
    x.round() as u64
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> BenchArgs {
        BenchArgs {
            seed: 7,
            sample_games: 3,
            max_positions: 200,
            rounds: 2,
            playouts: 3,
        }
    }

    #[test]
    fn sampled_positions_are_ongoing_capped_and_repeatable() {
        let args = small();
        let a = sample_positions(&args);
        assert_eq!(a.len(), 200);
        assert!(a.iter().all(|p| p.status().is_ongoing()));
        assert_eq!(a, sample_positions(&args));
    }

    #[test]
    fn every_playout_ends_and_the_work_is_the_same_each_run() {
        let args = small();
        let a = measure(&args);
        let b = measure(&args);
        let r = &a.playout_results;
        assert_eq!(r.sente_won + r.gote_won + r.drawn, 3);
        assert!(a.playout_plies > 0);
        assert_eq!(a.playout_plies, b.playout_plies);
        assert_eq!(a.positions, 200);
        assert_eq!(a.moves_per_position, b.moves_per_position);
        assert!(a.moves_per_position > 0.0);
    }
}
