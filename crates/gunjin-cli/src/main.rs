//! The `gunjin` command: the JSON-lines referee (§10 of the rules) and the engine's benchmark.
//!
//! Each subcommand lives in its own module; `main` only parses the arguments and dispatches.

use std::io::{self, BufWriter};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod arena;
mod bench;
mod bot;
mod json_text;
mod referee;

/// Gunjin Shogi (軍人将棋) from the command line.
#[derive(Debug, Parser)]
#[command(name = "gunjin", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Referee games over JSON lines: one request per line on stdin, one response per line on
    /// stdout (spec §10).
    Referee,
    /// Measure move generation and random playouts; prints one JSON object.
    Bench(bench::BenchArgs),
    /// The CPU player over JSON lines, stateless: one request per line on stdin, one answer per
    /// line on stdout.
    ///
    /// {"cmd":"setup","side":"sente","level":"advanced","seed":7} answers an arrangement;
    /// {"cmd":"go","view":VIEW,"level":"advanced","seed":7,"time_ms":1000} answers a move, VIEW
    /// being the referee's view of the side to move. Levels: beginner, intermediate, advanced,
    /// random, greedy. In `go`, "time_ms" is turned into an amount of work (800 searched
    /// positions a millisecond), so the same view and seed get the same move however busy the
    /// machine is; "nodes" sets that amount itself instead. Without
    /// either the level does its own fixed amount of work.
    #[command(verbatim_doc_comment)]
    Bot,
    /// Two players over side-swapped pairs of games; prints score, Elo and think times.
    Arena(arena::ArenaArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Referee => referee::run(io::stdin().lock(), BufWriter::new(io::stdout().lock())),
        Command::Bench(args) => bench::run(&args, &mut io::stdout().lock()),
        Command::Bot => bot::run(io::stdin().lock(), BufWriter::new(io::stdout().lock())),
        Command::Arena(args) => arena::run(&args, &mut io::stdout().lock()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed stdout means the reader is gone: nothing left to answer.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gunjin: {e}");
            ExitCode::FAILURE
        }
    }
}
