//! `gunjin arena`: two players over side-swapped pairs of games from a fixed bank of
//! deployments; prints wins, draws and losses, the score with its 95% interval, the Elo
//! difference, an optional SPRT verdict, each player's think times, and the belief engine's
//! Brier score against a count-only baseline.
//!
//! Players: the levels `beginner`, `intermediate`, `advanced`, and the baselines `random`,
//! `greedy` and `omniscient`. The omniscient player sees the whole board and exists only here,
//! for measurement: the bot, the page and the server cannot ask for it. So does a level that is
//! told where some enemy kinds stand, e.g. `advanced+knows:general,mine` (what knowing them is
//! worth).
//!
//! `--deploy-a LEVEL` (or `--deploy-b`) lets a player arrange its pieces as that level does in
//! the page instead of taking the bank's: what the arrangement is worth, and the level as a
//! player meets it.

use std::io::{self, Write};
use std::time::Instant;

use gunjin::rand::{SeedableRng, rngs::SmallRng};
use gunjin::{BySide, Deployment, Game, Kind, Move, Ruleset, Side, Square, Status};
use gunjin_ai::{Belief, Budget, KindSet, Level, count_only_probability, level_belief};

use crate::bot::BotLevel;

/// Options of `gunjin arena`.
#[derive(Debug, Clone, clap::Args)]
pub struct ArenaArgs {
    /// First player: beginner, intermediate, advanced, random, greedy or omniscient; or a level
    /// told the enemy's pieces of some kinds, e.g. `advanced+knows:general,lieutenant_general`.
    #[arg(long)]
    pub a: String,
    /// Second player.
    #[arg(long)]
    pub b: String,
    /// Games to play (rounded up to whole side-swapped pairs), at most 100,000,000.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000_000))]
    pub games: u32,
    /// Seed of the deployment bank and of the players' choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Time budget per move in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub time_ms: u64,
    /// Node budget per move as well (makes the run reproducible when the time never binds).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Run a sequential probability ratio test of H0: elo = ELO0 against H1: elo = ELO1
    /// (alpha = beta = 0.05), e.g. `--sprt 0,100`. Stops early once decided.
    #[arg(long, value_parser = parse_sprt)]
    pub sprt: Option<(f64, f64)>,
    /// Measure the belief engine every this many plies (0: never).
    #[arg(long, default_value_t = 8)]
    pub brier_every: u32,
    /// Print one line per game.
    #[arg(long)]
    pub verbose: bool,
    /// Play only game N (as numbered by `--verbose`) and print every ply with both kinds, to
    /// study one game.
    #[arg(long, value_name = "N")]
    pub trace: Option<u32>,
    /// Print every ply of every game with both kinds, as `--trace` does for one game (for
    /// studying where a run's games are won and lost).
    #[arg(long)]
    pub plies: bool,
    /// Every this many plies, score the choice of each of `--regret-players` from the mover's
    /// view against a search that sees every kind (0: never). Far less noisy than the games'
    /// results: each position counts, and all players face the same positions.
    #[arg(long, default_value_t = 0)]
    pub regret_every: u32,
    /// The players whose choices `--regret-every` scores, comma-separated.
    #[arg(long, default_value = "advanced,intermediate,greedy")]
    pub regret_players: String,
    /// Player a arranges its pieces as this level does in the page (beginner, intermediate or
    /// advanced) instead of taking the bank's deployment: what the level's arrangement is worth.
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    pub deploy_a: Option<Level>,
    /// The same for player b.
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    pub deploy_b: Option<Level>,
    /// Print each game's line and, after it, both deployments (`deploy N sente SQ=KIND,… gote
    /// …`): the data the levels' arrangement table is fitted on.
    #[arg(long)]
    pub deployments: bool,
}

fn parse_level(s: &str) -> Result<Level, String> {
    Level::from_id(s)
        .ok_or_else(|| format!("unknown level {s:?}; known: beginner, intermediate, advanced"))
}

fn parse_sprt(s: &str) -> Result<(f64, f64), String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| "expected ELO0,ELO1".to_owned())?;
    let a: f64 = a.trim().parse().map_err(|e| format!("{e}"))?;
    let b: f64 = b.trim().parse().map_err(|e| format!("{e}"))?;
    if b <= a {
        return Err("ELO1 must be above ELO0".into());
    }
    Ok((a, b))
}

/// A player in the arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    /// Decides from its view only.
    Fair(BotLevel),
    /// Sees every kind: measurement only.
    Omniscient,
    /// A level told where the enemy's pieces of these kinds stand: measurement only.
    Knows(Level, KindSet),
}

impl Player {
    fn parse(id: &str) -> Option<Player> {
        if id == "omniscient" {
            return Some(Player::Omniscient);
        }
        if let Some((level, kinds)) = id.split_once("+knows:") {
            let level = Level::from_id(level)?;
            let kinds = kinds
                .split(',')
                .map(Kind::from_id)
                .try_fold(KindSet::EMPTY, |set, k| Some(set.with(k?)))?;
            return Some(Player::Knows(level, kinds));
        }
        BotLevel::from_id(id).map(Player::Fair)
    }

    fn choose(self, game: &Game, budget: &Budget<'_>, seed: u64) -> Option<Move> {
        let side = game.position().to_move();
        match self {
            Player::Fair(level) => level.choose(&game.view(side), budget, seed),
            Player::Omniscient => {
                gunjin_ai::omniscient::choose_move_seeing_all(game.position(), budget)
            }
            Player::Knows(level, kinds) => {
                let told: Vec<(Square, Kind)> = game.deployments()[side.opponent()]
                    .pieces()
                    .filter(|&(_, kind)| kinds.contains(kind))
                    .collect();
                gunjin_ai::omniscient::choose_move_told(
                    &game.view(side),
                    level,
                    budget,
                    seed,
                    &told,
                )
            }
        }
    }
}

/// One deployment pair of the bank: the same for every run with the same seed.
fn bank(seed: u64, pair: u32) -> BySide<Deployment> {
    let mut rng =
        SmallRng::seed_from_u64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(pair));
    BySide::new_with(|side| Deployment::auto_with(side, &Ruleset::STANDARD, &mut rng))
}

/// The seed a player that arranges as a level does (`--deploy-a`) arranges pair `pair` with.
fn own_seed(seed: u64, pair: u32) -> u64 {
    seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ u64::from(pair)
}

/// An arrangement as `--deployments` prints it: `SQ=KIND,…` in board order.
fn listed(d: &Deployment) -> String {
    d.pieces()
        .map(|(sq, kind)| format!("{sq}={}", kind.id()))
        .collect::<Vec<_>>()
        .join(",")
}

#[derive(Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    think_ms: [Vec<f64>; 2],
    brier: f64,
    /// The same with the advanced level's reading of the enemy's behaviour.
    brier_read: f64,
    brier_base: f64,
    brier_n: u64,
    /// Probability given to the true kind of the enemy's general, lieutenant general and major
    /// general: plain, with the advanced level's reading, and how many were seen.
    top_plain: f64,
    top_read: f64,
    top_n: u64,
    /// Per regret player: the sum of its regrets and of the squared differences from the first
    /// player's, over `regret_n` positions.
    regret: Vec<f64>,
    regret_diff_sq: Vec<f64>,
    regret_n: u64,
    plies: u64,
}

/// Runs the arena and prints its report.
///
/// # Errors
/// An unknown player name, or an I/O error on `out`.
pub fn run(args: &ArenaArgs, out: &mut impl Write) -> io::Result<()> {
    let bad = |id: &str| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "unknown player {id:?}; known: beginner, intermediate, advanced, random, greedy, omniscient, or LEVEL+knows:KIND,KIND…"
            ),
        )
    };
    let a = Player::parse(&args.a).ok_or_else(|| bad(&args.a))?;
    let b = Player::parse(&args.b).ok_or_else(|| bad(&args.b))?;
    let judged: Vec<(String, Player)> = if args.regret_every > 0 {
        args.regret_players
            .split(',')
            .map(|id| {
                Player::parse(id)
                    .map(|p| (id.to_owned(), p))
                    .ok_or_else(|| bad(id))
            })
            .collect::<io::Result<_>>()?
    } else {
        Vec::new()
    };
    let mut budget = Budget::time_ms(args.time_ms);
    if let Some(n) = args.nodes {
        budget = budget.and_nodes(n);
    }
    // Built before the clock runs, as the page builds them while the player arranges.
    for level in Level::ALL {
        gunjin_ai::prepare(level);
    }
    let pairs = args.games.div_ceil(2).max(1);
    if let Some(n) = args.trace
        && !(1..=pairs * 2).contains(&n)
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "--trace {n}: a run of {} games numbers them 1 to {}",
                pairs * 2,
                pairs * 2
            ),
        ));
    }
    let mut t = Tally {
        regret: vec![0.0; judged.len()],
        regret_diff_sq: vec![0.0; judged.len()],
        ..Tally::default()
    };
    let mut verdict = None;
    'games: for pair in 0..pairs {
        let bank_pair = bank(args.seed, pair);
        for swap in [false, true] {
            let number = pair * 2 + u32::from(swap) + 1;
            if args.trace.is_some_and(|n| n != number) {
                continue;
            }
            let (sente, gote) = if swap { (b, a) } else { (a, b) };
            let a_side = if swap { Side::Gote } else { Side::Sente };
            let mut deployments = bank_pair.clone();
            for (side, level) in [(a_side, args.deploy_a), (a_side.opponent(), args.deploy_b)] {
                if let Some(level) = level {
                    deployments[side] =
                        gunjin_ai::choose_deployment(side, level, own_seed(args.seed, pair));
                }
            }
            let game_seed = args.seed ^ (u64::from(pair) << 20) ^ u64::from(swap);
            let (status, plies, left) = play_one(
                &deployments,
                BySide { sente, gote },
                &budget,
                game_seed,
                args.brier_every,
                (args.regret_every, &judged),
                swap,
                &mut t,
                (args.trace.is_some() || args.plies).then_some(&mut *out),
            );
            t.plies += plies;
            match status.winner() {
                Some(w) if w == a_side => t.wins += 1,
                Some(_) => t.losses += 1,
                None => t.draws += 1,
            }
            if args.verbose || args.deployments || args.trace.is_some() || args.plies {
                writeln!(
                    out,
                    "game {}: {} as {} vs {} — {} after {} plies; left: {}",
                    number,
                    args.a,
                    a_side,
                    args.b,
                    ending(status),
                    plies,
                    left
                )?;
            }
            if args.deployments {
                writeln!(
                    out,
                    "deploy {number} sente {} gote {}",
                    listed(&deployments.sente),
                    listed(&deployments.gote)
                )?;
            }
            if let Some((e0, e1)) = args.sprt
                && let Some(v) = sprt(&t, e0, e1)
            {
                verdict = Some(v);
                break 'games;
            }
        }
    }
    report(args, &t, verdict, out)
}

/// Plays one game; records think times (index 0 for player a) and Brier scores, and writes each
/// ply to `trace`. Returns the end, the plies played and the pieces left on the board.
#[allow(clippy::too_many_arguments)]
fn play_one(
    deployments: &BySide<Deployment>,
    players: BySide<Player>,
    budget: &Budget<'_>,
    seed: u64,
    brier_every: u32,
    (regret_every, judged): (u32, &[(String, Player)]),
    swapped: bool,
    t: &mut Tally,
    mut trace: Option<&mut dyn Write>,
) -> (Status, u64, String) {
    let Ok(mut game) = Game::new(Ruleset::STANDARD, deployments.clone()) else {
        return (
            Status::Draw {
                reason: gunjin::DrawReason::NoMoves,
            },
            0,
            String::new(),
        );
    };
    let mut ply = 0u64;
    while game.status().is_ongoing() && ply < 20_000 {
        let side = game.position().to_move();
        if brier_every > 0 && ply.is_multiple_of(u64::from(brier_every)) {
            measure_belief(&game, side, seed ^ ply, t);
        }
        if regret_every > 0 && ply.is_multiple_of(u64::from(regret_every)) {
            measure_regret(&game, judged, budget, seed ^ ply, t);
        }
        let who = usize::from((side == Side::Gote) != swapped);
        let start = Instant::now();
        let mv = players[side].choose(&game, budget, seed.wrapping_mul(31).wrapping_add(ply));
        t.think_ms[who].push(start.elapsed().as_secs_f64() * 1000.0);
        let Some(mv) = mv else {
            break;
        };
        if let Some(out) = trace.as_deref_mut() {
            let _ = writeln!(out, "{}", describe_ply(game.position(), ply, mv));
        }
        if game.play(mv).is_err() {
            // A player that answers an illegal move loses at once.
            let _ = game.resign(side);
            break;
        }
        ply += 1;
    }
    (game.status(), ply, pieces_left(game.position()))
}

/// One ply with both kinds, e.g. `12 sente tank b3-b5 x gote major: Attacker`.
fn describe_ply(pos: &gunjin::Position, ply: u64, mv: Move) -> String {
    let kind = |sq: Square| pos.piece_at(sq).map_or("?", |p| p.kind.id());
    let mut line = format!(
        "{ply} {} {} {}-{}",
        pos.to_move(),
        kind(mv.from),
        mv.from,
        mv.to
    );
    if let Some(def) = pos.piece_at(mv.to) {
        let mut after = pos.clone();
        let outcome = after
            .play(mv)
            .ok()
            .and_then(|p| p.battle)
            .map_or_else(|| "illegal".to_owned(), |b| wire_name(&b.outcome));
        line.push_str(&format!(" x {} {}: {outcome}", def.side, def.kind.id()));
    }
    line
}

/// How a game ended, in the referee protocol's words: `sente won (occupation)`, `draw
/// (no_battle_limit)`.
fn ending(status: Status) -> String {
    match status {
        Status::Ongoing => "ongoing".to_owned(),
        Status::Won { winner, reason } => format!("{winner} won ({})", wire_name(&reason)),
        Status::Draw { reason } => format!("draw ({})", wire_name(&reason)),
    }
}

/// A unit enum's name as the referee protocol spells it (`no_battle_limit`, `attacker`).
fn wire_name(value: &impl serde::Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name,
        _ => "?".to_owned(),
    }
}

/// The kinds each side still has on the board, as `sente: general, tank / gote: …`.
fn pieces_left(pos: &gunjin::Position) -> String {
    let side = |s: Side| {
        let kinds: Vec<&str> = pos
            .pieces()
            .filter(|(_, p)| p.side == s)
            .map(|(_, p)| p.kind.id())
            .collect();
        format!("{s}: {}", kinds.join(", "))
    };
    format!("{} / {}", side(Side::Sente), side(Side::Gote))
}

/// Brier score of the belief engine's kind probabilities for every enemy piece on the board,
/// and of the count-only baseline, from `side`'s view.
fn measure_belief(game: &Game, side: Side, seed: u64, t: &mut Tally) {
    let view = game.view(side);
    let plain = Belief::of_enemy(&view);
    let read = level_belief(&view, Level::Advanced);
    let mut rng = SmallRng::seed_from_u64(seed);
    let plain_marginals = plain.marginals(24, &mut rng);
    let read_marginals = read.marginals(24, &mut rng);
    let top = KindSet::of(&[Kind::General, Kind::LieutenantGeneral, Kind::MajorGeneral]);
    for (i, p) in plain.pieces().enumerate() {
        let Some(sq) = p.square else { continue };
        let Some(truth) = game.position().piece_at(sq) else {
            continue;
        };
        let (mut b, mut r, mut base) = (0.0, 0.0, 0.0);
        for k in Kind::ALL {
            let y = if k == truth.kind { 1.0 } else { 0.0 };
            b += (f64::from(plain_marginals[i][k.index()]) - y).powi(2);
            r += (f64::from(read_marginals[i][k.index()]) - y).powi(2);
            base += (f64::from(count_only_probability(k)) - y).powi(2);
        }
        t.brier += b;
        t.brier_read += r;
        t.brier_base += base;
        t.brier_n += 1;
        if top.contains(truth.kind) {
            t.top_plain += f64::from(plain_marginals[i][truth.kind.index()]);
            t.top_read += f64::from(read_marginals[i][truth.kind.index()]);
            t.top_n += 1;
        }
    }
}

/// Regret is capped so that one lost or won game in a search's eyes does not drown the rest.
const REGRET_CAP: i32 = 3000;

/// Scores each judged player's choice in the current position against a four-ply search that
/// sees every kind: how much less its move is worth than the best one.
fn measure_regret(
    game: &Game,
    judged: &[(String, Player)],
    budget: &Budget<'_>,
    seed: u64,
    t: &mut Tally,
) {
    let moves = game.position().legal_moves();
    if moves.len() < 2 {
        return;
    }
    let oracle = Budget::nodes(3_000_000);
    let Some(values) =
        gunjin_ai::omniscient::move_values_seeing_all(game.position(), &moves, 4, &oracle)
    else {
        return;
    };
    let best = values.iter().copied().max().unwrap_or(0);
    let regrets: Vec<f64> = judged
        .iter()
        .map(|(_, player)| {
            let chosen = player.choose(game, budget, seed);
            let value = moves
                .iter()
                .position(|&m| Some(m) == chosen)
                .map_or(best - REGRET_CAP, |i| values[i]);
            f64::from((best - value).min(REGRET_CAP))
        })
        .collect();
    for (i, r) in regrets.iter().enumerate() {
        t.regret[i] += r;
        t.regret_diff_sq[i] += (r - regrets[0]).powi(2);
    }
    t.regret_n += 1;
}

fn games(t: &Tally) -> f64 {
    f64::from(t.wins + t.draws + t.losses)
}

/// Mean score of player a and the standard error of the mean.
fn score(t: &Tally) -> (f64, f64) {
    let n = games(t).max(1.0);
    let s = (f64::from(t.wins) + 0.5 * f64::from(t.draws)) / n;
    let sq = (f64::from(t.wins) + 0.25 * f64::from(t.draws)) / n;
    let var = (sq - s * s).max(0.0);
    (s, (var / n).sqrt())
}

/// The 95% interval of the score: Wilson's score interval carried over to a game with draws.
///
/// The normal interval `s ± 1.96·se` collapses to a point when every game ends alike (4 wins in
/// 4 games gave 1.000–1.000). Wilson's interval instead keeps every mean `p` whose per-game
/// variance, `p(1 − p) − d/4` at the draw share `d`, puts `s` within 1.96 standard errors; for
/// many games it agrees with the normal interval. The draw share is counted as if one more game
/// had been decided, since at a share of 1 (every game drawn) only `p = 1/2` would be left.
fn score_interval(t: &Tally) -> (f64, f64) {
    let n = games(t);
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let (s, _) = score(t);
    let d = f64::from(t.draws) / (n + 1.0);
    let k = 1.96f64.powi(2) / n;
    // (s − p)² = k·(p − p² − d/4), a quadratic in p whose roots bracket s.
    let (a, b, c) = (1.0 + k, -(2.0 * s + k), s * s + k * d / 4.0);
    let root = (b * b - 4.0 * a * c).max(0.0).sqrt();
    (
        ((-b - root) / (2.0 * a)).clamp(0.0, 1.0),
        ((-b + root) / (2.0 * a)).clamp(0.0, 1.0),
    )
}

fn elo(s: f64) -> f64 {
    let s = s.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// An Elo difference in whole points, as printed: an even score is +0, never -0.
fn whole_elo(s: f64) -> i64 {
    // `elo` clamps the score, so the value is finite.
    elo(s).round() as i64
}

fn counted(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn expected(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The SPRT's verdict once the log-likelihood ratio leaves its bounds (normal approximation).
fn sprt(t: &Tally, e0: f64, e1: f64) -> Option<&'static str> {
    let n = games(t);
    if n < 10.0 {
        return None;
    }
    let (s, se) = score(t);
    let var = (se * se * n).max(1e-4);
    let (s0, s1) = (expected(e0), expected(e1));
    let llr = n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var);
    let bound = (0.95f64 / 0.05).ln();
    if llr >= bound {
        Some("H1 accepted")
    } else if llr <= -bound {
        Some("H0 accepted")
    } else {
        None
    }
}

fn percentile(v: &[f64], p: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let i = ((s.len() as f64 - 1.0) * p).round() as usize;
    s[i.min(s.len() - 1)]
}

fn report(
    args: &ArenaArgs,
    t: &Tally,
    verdict: Option<&str>,
    out: &mut impl Write,
) -> io::Result<()> {
    let n = games(t);
    let (s, _) = score(t);
    let (lo, hi) = score_interval(t);
    let build = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    writeln!(
        out,
        "arena: {} vs {}, {n} game{}, seed {}, {} ms per move{}, {build} build",
        args.a,
        args.b,
        if t.wins + t.draws + t.losses == 1 {
            ""
        } else {
            "s"
        },
        args.seed,
        args.time_ms,
        args.nodes
            .map(|x| format!(" / {x} nodes"))
            .unwrap_or_default()
    )?;
    writeln!(
        out,
        "{}: {}, {}, {} (mean {:.0} plies per game)",
        args.a,
        counted(t.wins, "win", "wins"),
        counted(t.draws, "draw", "draws"),
        counted(t.losses, "loss", "losses"),
        t.plies as f64 / n.max(1.0)
    )?;
    writeln!(out, "score {:.3} (95%: {:.3}–{:.3})", s, lo, hi)?;
    writeln!(
        out,
        "elo difference {:+} (95%: {:+} to {:+})",
        whole_elo(s),
        whole_elo(lo),
        whole_elo(hi)
    )?;
    if let Some((e0, e1)) = args.sprt {
        writeln!(
            out,
            "sprt elo0={e0} elo1={e1}: {}",
            verdict.unwrap_or("undecided")
        )?;
    }
    for (i, name) in [&args.a, &args.b].into_iter().enumerate() {
        // The same level on both sides: which line is which player.
        let name = if args.a == args.b {
            format!("{name} ({})", ["a", "b"][i])
        } else {
            name.clone()
        };
        let v = &t.think_ms[i];
        let mean = v.iter().sum::<f64>() / (v.len().max(1) as f64);
        writeln!(
            out,
            "think {name}: mean {mean:.1} ms, p95 {:.1} ms, max {:.1} ms over {} moves",
            percentile(v, 0.95),
            percentile(v, 1.0),
            v.len()
        )?;
    }
    if t.brier_n > 0 {
        let k = t.brier_n as f64;
        writeln!(
            out,
            "belief brier {:.3} (advanced's reading {:.3}) vs count-only {:.3} over {} piece observations",
            t.brier / k,
            t.brier_read / k,
            t.brier_base / k,
            t.brier_n
        )?;
    }
    if t.top_n > 0 {
        let k = t.top_n as f64;
        writeln!(
            out,
            "belief in the true kind of the three highest officers {:.3} (advanced's reading {:.3}) over {} observations",
            t.top_plain / k,
            t.top_read / k,
            t.top_n
        )?;
    }
    if t.regret_n > 0 {
        let n = t.regret_n as f64;
        let first = t.regret[0] / n;
        let parts: Vec<String> = args
            .regret_players
            .split(',')
            .zip(t.regret.iter().zip(&t.regret_diff_sq))
            .enumerate()
            .map(|(i, (id, (sum, diff_sq)))| {
                let mean = sum / n;
                if i == 0 {
                    format!("{id} {mean:.1}")
                } else {
                    let d = mean - first;
                    let se = ((diff_sq / n - d * d).max(0.0) / n).sqrt();
                    format!("{id} {mean:.1} ({d:+.1} ± {se:.1})")
                }
            })
            .collect();
        writeln!(
            out,
            "regret against a 4-ply search that sees every kind, over {} positions: {}",
            t.regret_n,
            parts.join(", ")
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_expected_score_are_inverse() {
        for e in [-300.0, -50.0, 0.0, 120.0] {
            assert!((elo(expected(e)) - e).abs() < 1e-6);
        }
        assert!(elo(0.8) > 200.0 && elo(0.8) < 260.0);
    }

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
            ..Tally::default()
        }
    }

    #[test]
    fn the_score_interval_never_collapses_and_matches_the_normal_one_for_many_games() {
        let (lo, hi) = score_interval(&tally(4, 0, 0));
        assert!((hi - 1.0).abs() < 1e-9, "{hi}");
        // Wilson's lower bound for 4 of 4: 1 / (1 + 1.96² / 4).
        assert!(
            (lo - 1.0 / (1.0 + 1.96f64.powi(2) / 4.0)).abs() < 1e-9,
            "{lo}"
        );
        let (lo, hi) = score_interval(&tally(0, 3, 0));
        assert!(lo < 0.5 && hi > 0.5 && lo > 0.0 && hi < 1.0, "{lo}–{hi}");
        let t = tally(168, 17, 15);
        let (s, se) = score(&t);
        let (lo, hi) = score_interval(&t);
        assert!(lo < s && s < hi);
        assert!(
            (lo - (s - 1.96 * se)).abs() < 0.01,
            "{lo} vs {}",
            s - 1.96 * se
        );
        assert!(
            (hi - (s + 1.96 * se)).abs() < 0.01,
            "{hi} vs {}",
            s + 1.96 * se
        );
    }

    #[test]
    fn a_level_can_be_told_kinds_for_measurement() {
        assert_eq!(
            Player::parse("advanced+knows:general,mine"),
            Some(Player::Knows(
                Level::Advanced,
                KindSet::only(Kind::General).with(Kind::Mine)
            ))
        );
        assert_eq!(Player::parse("advanced+knows:general,king"), None);
        assert_eq!(Player::parse("greedy+knows:general"), None);
        assert_eq!(Player::parse("advanced+knows:"), None);
    }

    #[test]
    fn the_pieces_left_name_each_side_s_kinds() {
        let mut deployments = BySide::new_with(|s| Deployment::auto(s, 5));
        let game = Game::new(Ruleset::STANDARD, deployments.clone()).expect("legal");
        let left = pieces_left(game.position());
        let (sente, gote) = left.split_once(" / ").expect("two sides");
        assert!(
            sente.starts_with("sente: ") && gote.starts_with("gote: "),
            "{left}"
        );
        assert_eq!(sente.matches("mine").count(), 2, "{left}");
        assert_eq!(gote.split(", ").count(), 23, "{left}");
        deployments.sente = Deployment::auto(Side::Sente, 6);
        let other = Game::new(Ruleset::STANDARD, deployments).expect("legal");
        assert_eq!(
            pieces_left(other.position()).split_once(" / ").map(|p| p.1),
            Some(gote)
        );
    }

    #[test]
    fn an_even_score_prints_plus_zero_and_counts_agree_with_their_nouns() {
        assert_eq!(whole_elo(0.5), 0);
        assert_eq!(format!("{:+}", whole_elo(0.5 - 1e-4)), "+0");
        assert!(whole_elo(0.75) > 0 && whole_elo(0.25) < 0);
        assert_eq!(counted(1, "win", "wins"), "1 win");
        assert_eq!(counted(0, "loss", "losses"), "0 losses");
    }

    /// The same level on both sides: each think line says which player it is.
    #[test]
    fn a_level_against_itself_tells_its_two_think_lines_apart() {
        let args = ArenaArgs {
            a: "beginner".into(),
            b: "beginner".into(),
            ..tiny_args()
        };
        let mut out = Vec::new();
        run(&args, &mut out).expect("runs");
        let text = String::from_utf8(out).expect("utf8");
        assert!(text.contains("think beginner (a):"), "{text}");
        assert!(text.contains("think beginner (b):"), "{text}");
    }

    /// Two quick games of the beginner against random.
    fn tiny_args() -> ArenaArgs {
        ArenaArgs {
            a: "beginner".into(),
            b: "random".into(),
            games: 2,
            seed: 3,
            time_ms: 1000,
            nodes: Some(500),
            sprt: Some((0.0, 100.0)),
            brier_every: 40,
            verbose: false,
            trace: None,
            plies: false,
            regret_every: 0,
            regret_players: "advanced,intermediate,greedy".into(),
            deploy_a: None,
            deploy_b: None,
            deployments: false,
        }
    }

    /// A game count whose pairs would not fit the count's type is refused when it is read.
    #[test]
    fn the_game_count_is_bounded() {
        #[derive(clap::Parser)]
        struct Line {
            #[command(flatten)]
            arena: ArenaArgs,
        }
        let parse = |games: &str| {
            <Line as clap::Parser>::try_parse_from([
                "arena", "--a", "random", "--b", "random", "--games", games,
            ])
            .map(|line| line.arena.games)
        };
        assert_eq!(parse("100000000").ok(), Some(100_000_000));
        for bad in ["0", "100000001", "4294967295"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn endings_and_battles_read_as_the_protocol_spells_them() {
        let won = Status::Won {
            winner: Side::Gote,
            reason: gunjin::WinReason::Occupation,
        };
        assert_eq!(ending(won), "gote won (occupation)");
        let drawn = Status::Draw {
            reason: gunjin::DrawReason::NoBattleLimit,
        };
        assert_eq!(ending(drawn), "draw (no_battle_limit)");
        assert_eq!(wire_name(&gunjin::Outcome::Defender), "defender");
    }

    #[test]
    fn a_tiny_arena_runs_and_reports() {
        let args = tiny_args();
        let mut out = Vec::new();
        run(&args, &mut out).expect("runs");
        let text = String::from_utf8(out).expect("utf8");
        assert!(text.contains("2 games"), "{text}");
        assert!(text.contains("think beginner"), "{text}");
        assert!(text.contains("belief brier"), "{text}");
        assert!(text.contains("advanced's reading"), "{text}");
        let traced = ArenaArgs {
            trace: Some(2),
            sprt: None,
            ..args.clone()
        };
        let mut out = Vec::new();
        run(&traced, &mut out).expect("runs");
        let text = String::from_utf8(out).expect("utf8");
        assert!(text.contains(", 1 game, "), "{text}");
        assert!(text.contains("game 2: beginner as gote"), "{text}");
        assert!(!text.contains("game 1:"), "{text}");
        assert!(text.lines().any(|l| l.starts_with("0 sente ")), "{text}");
        assert!(text.lines().any(|l| l.starts_with("1 gote ")), "{text}");
        // A game the run does not have is refused, not a run of none scored 0 at -1200 Elo.
        for n in [0, 3] {
            let outside = ArenaArgs {
                trace: Some(n),
                ..args.clone()
            };
            let error = run(&outside, &mut Vec::new()).expect_err("no such game");
            assert_eq!(error.kind(), io::ErrorKind::InvalidInput);
            assert!(error.to_string().contains("1 to 2"), "{error}");
        }
        let judged = ArenaArgs {
            regret_every: 50,
            regret_players: "intermediate,random".into(),
            sprt: None,
            ..args.clone()
        };
        let mut out = Vec::new();
        run(&judged, &mut out).expect("runs");
        let text = String::from_utf8(out).expect("utf8");
        let line = text
            .lines()
            .find(|l| l.starts_with("regret against"))
            .unwrap_or_else(|| panic!("{text}"));
        assert!(
            line.contains("intermediate ") && line.contains("random "),
            "{line}"
        );
        let every_ply = ArenaArgs {
            plies: true,
            sprt: None,
            ..args.clone()
        };
        let mut out = Vec::new();
        run(&every_ply, &mut out).expect("runs");
        let text = String::from_utf8(out).expect("utf8");
        assert!(text.contains("game 1: beginner as sente"), "{text}");
        assert!(text.contains("game 2: beginner as gote"), "{text}");
        assert_eq!(
            text.lines().filter(|l| l.starts_with("0 sente ")).count(),
            2,
            "both games from their first ply: {text}"
        );
        let bad = ArenaArgs {
            a: "peeker".into(),
            ..args
        };
        assert!(run(&bad, &mut Vec::new()).is_err());
    }

    /// The deployments a game line names: sente's and gote's, as `SQ=KIND` lists.
    fn deployments_of(text: &str, game: u32) -> (String, String) {
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix(&format!("deploy {game} sente ")))
            .unwrap_or_else(|| panic!("no deployments of game {game}: {text}"));
        let (sente, gote) = line.split_once(" gote ").expect("both sides");
        (sente.to_owned(), gote.to_owned())
    }

    #[test]
    fn a_player_may_arrange_its_pieces_as_a_level_does_instead_of_taking_the_bank() {
        let args = ArenaArgs {
            a: "random".into(),
            b: "random".into(),
            seed: 9,
            sprt: None,
            brier_every: 0,
            deployments: true,
            ..tiny_args()
        };
        let mut out = Vec::new();
        run(&args, &mut out).expect("runs");
        let banked = String::from_utf8(out).expect("utf8");
        let bank_pair = bank(9, 0);
        for game in [1, 2] {
            assert_eq!(
                deployments_of(&banked, game),
                (listed(&bank_pair.sente), listed(&bank_pair.gote))
            );
        }

        let own = ArenaArgs {
            deploy_a: Some(Level::Advanced),
            ..args
        };
        let mut out = Vec::new();
        run(&own, &mut out).expect("runs");
        let text = String::from_utf8(out).expect("utf8");
        let (sente, gote) = deployments_of(&text, 1);
        let (sente2, gote2) = deployments_of(&text, 2);
        // Player a is sente in game 1 and gote in game 2; player b keeps the bank's.
        let seed = own_seed(9, 0);
        let chosen = |side| listed(&gunjin_ai::choose_deployment(side, Level::Advanced, seed));
        assert_eq!(sente, chosen(Side::Sente));
        assert_ne!(sente, listed(&bank_pair.sente));
        assert_eq!(gote, listed(&bank_pair.gote));
        assert_eq!(sente2, listed(&bank_pair.sente));
        assert_eq!(gote2, chosen(Side::Gote));
    }
}
