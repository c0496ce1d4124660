//! Choosing a move from a view: sample worlds from the belief, search each, and pick the move
//! with the best value on average over the worlds.

use gunjin::rand::{RngExt, SeedableRng, rngs::SmallRng};
use gunjin::{
    Kind, Move, Outcome, Piece, PlayerView, Position, Ruleset, Side, Square, resolve_battle,
};

use crate::belief::{Belief, Reading};
use crate::budget::Budget;
use crate::kindset::KindSet;
use crate::prior::Prior;
use crate::search::{
    BASE_WEIGHTS, FULL_WEIGHTS, Known, LEVEL_WEIGHTS, Searcher, Tables, Weights, steps_from,
};
use crate::track::Tracked;

/// How strong the CPU plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// 初級: one ply over a couple of imagined worlds, with some randomness; answers a threat
    /// next to its HQ. Fast, plausible, beatable.
    Beginner,
    /// 中級: two plies (plus battles and HQ threats) over twelve imagined worlds, watching enemy
    /// officers near its HQ.
    Intermediate,
    /// 上級: three plies (plus battles and HQ threats) over as many imagined worlds as half the
    /// budget allows (up to 24), then four plies for the best few moves; its worlds follow its
    /// prior exactly among those that fit the facts; reads the enemy's behaviour (advancing
    /// pieces are likely officers, attackers likely strong, pieces that let a plane be unlikely
    /// to beat one); sees who wins a race for a headquarters; walks its spy to a general it has
    /// found and its general to officers it knows it beats; when ahead and the no-battle draw
    /// comes near, walks its pieces towards enemy pieces they beat.
    Advanced,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Beginner, Level::Intermediate, Level::Advanced];

    /// Stable id (`"beginner"`, `"intermediate"`, `"advanced"`).
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Intermediate => "intermediate",
            Level::Advanced => "advanced",
        }
    }

    /// Parses a stable id.
    #[must_use]
    pub fn from_id(id: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.id() == id)
    }

    fn plan(self) -> Plan {
        match self {
            Level::Beginner => Plan {
                worlds: 3,
                min_worlds: 1,
                depth: 1,
                deep_top: 0,
                deep_depth: 0,
                first_pass_share: 1.0,
                default_nodes: 20_000,
                time_share: 0.2,
                temperature: Some(30.0),
                blunder: 0.03,
                probe_bonus: 0,
                contact: 20,
                spy_hunt: 0,
                general_hunt: 0,
                unshuffle: 0,
                repetition: 0,
                spare_top_officers: false,
                spare_lost_battles: false,
                hq_check: true,
                battle_worth: false,
                shapes: false,
                reading: None,
                prior: Prior::Rows,
                mixing: 0,
                weights: BASE_WEIGHTS,
            },
            Level::Intermediate => Plan {
                worlds: 12,
                min_worlds: 1,
                depth: 2,
                deep_top: 0,
                deep_depth: 0,
                first_pass_share: 1.0,
                default_nodes: 300_000,
                time_share: 0.4,
                temperature: None,
                blunder: 0.0,
                probe_bonus: 0,
                contact: 20,
                spy_hunt: 0,
                general_hunt: 0,
                unshuffle: 0,
                repetition: 0,
                spare_top_officers: false,
                spare_lost_battles: true,
                hq_check: true,
                battle_worth: false,
                shapes: false,
                reading: None,
                prior: Prior::Rows,
                mixing: 0,
                weights: LEVEL_WEIGHTS,
            },
            Level::Advanced => Plan {
                worlds: 24,
                min_worlds: 2,
                depth: 3,
                deep_top: 4,
                deep_depth: 4,
                first_pass_share: 0.5,
                default_nodes: 3_000_000,
                time_share: 0.4,
                temperature: None,
                blunder: 0.0,
                probe_bonus: 30,
                contact: 20,
                spy_hunt: 40,
                general_hunt: 40,
                unshuffle: 20,
                repetition: 40,
                spare_top_officers: true,
                spare_lost_battles: false,
                hq_check: true,
                battle_worth: true,
                shapes: true,
                reading: Some(Reading {
                    advance: 1.5,
                    attack: 2.0,
                    spared: 0.15,
                    cap: 8,
                    idle: 1.04,
                    idle_cap: 40,
                    spy_approach: 8.0,
                }),
                prior: Prior::Measured,
                mixing: 2000,
                weights: FULL_WEIGHTS,
            },
        }
    }
}

impl core::fmt::Display for Level {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.id())
    }
}

/// How a level spends its effort.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    /// Worlds to search at most.
    worlds: usize,
    /// Worlds to finish at full depth before the time limit may stop the search.
    min_worlds: usize,
    depth: u8,
    /// After the first pass, the best this many moves are searched `deep_depth` plies deep
    /// over the same worlds (0: no second pass).
    deep_top: usize,
    deep_depth: u8,
    /// Share of the budget the first pass may use when there is a second pass.
    first_pass_share: f64,
    /// Node limit when the caller gives none.
    default_nodes: u64,
    /// Share of the time budget to use (the rest is headroom for slow machines).
    time_share: f64,
    /// Softmax temperature over the scores (None: always the best).
    temperature: Option<f64>,
    /// Chance of a random legal move.
    blunder: f64,
    /// Worth of probing an unknown piece with a cheap one (and cost of revealing a high
    /// officer), added at the root.
    probe_bonus: i32,
    /// Once the no-battle draw comes near and the side is ahead, worth of each step a piece takes
    /// towards an enemy piece it beats or wins by a trade (in the imagined worlds), added at the
    /// root; it grows as the draw comes closer, and the best such walk is searched deeper. The
    /// search alone sees a battle only a few steps away.
    contact: i32,
    /// Worth of each step the spy takes towards the enemy general once the belief knows for
    /// certain where it stands, added at the root (the search alone sees only a few steps).
    spy_hunt: i32,
    /// Worth of each step the general takes towards an enemy piece the belief knows to be a
    /// lieutenant general or major general (or possibly the general), added at the root: such a
    /// piece eats its way through the own lines until the general, which beats it, arrives.
    general_hunt: i32,
    /// Taken off, at the root, a quiet move that puts back the side's own last quiet move (the
    /// piece stepping back where it came from): among moves the search scores alike, a player
    /// would not shuffle one piece to and fro for dozens of plies.
    unshuffle: i32,
    /// While the side is ahead, taken off at the root for each time the board a quiet move
    /// leaves (which squares each side holds, the enemy to move) has already stood since the last
    /// battle: a side ahead otherwise walked the same few squares until the no-battle draw threw
    /// the game away (a general stepping between b7 and b8 through most of a 562-ply draw).
    repetition: i32,
    /// The general, lieutenant general and major general attack no enemy piece that may be a
    /// mine or the flag (one never seen to move) while another move is left, as the seed page
    /// advises: traded for a mine or a backed flag, they are worth more than their material.
    spare_top_officers: bool,
    /// Leaves out, at the root, every attack the belief already knows cannot win or trade (each
    /// kind the target can still be beats the attacker) while another move is left, unless the
    /// no-battle draw is near. A two-ply search values such a sacrifice at its material loss,
    /// and so prefers it whenever every other move looks worse at its horizon (the occupant of
    /// the own headquarters stepping out and back in, which it cannot see the end of).
    spare_lost_battles: bool,
    /// Whether the search answers threats to the own HQ beyond its depth.
    hq_check: bool,
    /// Below the root, a battle whose expected gain is positive by what the mover can know is
    /// searched too, not only one it is likely to win (a spy on a piece that may be the general).
    battle_worth: bool,
    /// What each side can know follows the shapes of the moves below the root.
    shapes: bool,
    /// How the enemy's behaviour weighs the imagined worlds (None: the facts and the prior only).
    reading: Option<Reading>,
    /// Where the imagined worlds' starting weights come from.
    prior: Prior,
    /// Swaps of two pieces' kinds tried on each drawn world, so that the worlds follow the prior
    /// among the assignments that fit every fact (piece by piece drawing alone leans off it).
    mixing: usize,
    weights: Weights,
}

/// The greedy baseline's plan: one ply over eight worlds, always the best by its evaluation.
pub(crate) const GREEDY: Plan = Plan {
    worlds: 8,
    min_worlds: 1,
    depth: 1,
    deep_top: 0,
    deep_depth: 0,
    first_pass_share: 1.0,
    default_nodes: 100_000,
    time_share: 0.4,
    temperature: None,
    blunder: 0.0,
    probe_bonus: 0,
    contact: 0,
    spy_hunt: 0,
    general_hunt: 0,
    unshuffle: 0,
    repetition: 0,
    spare_top_officers: false,
    spare_lost_battles: false,
    hq_check: false,
    battle_worth: false,
    shapes: false,
    reading: None,
    prior: Prior::Rows,
    mixing: 0,
    weights: BASE_WEIGHTS,
};

/// Chooses a move for the viewer from its view alone, or `None` if it is not the viewer's turn
/// or the game is over.
///
/// The same view, level, budget (without a clock, or a steady one) and seed give the same move:
/// the enemy's hidden kinds cannot change it, since they are not in the view.
///
/// ```
/// use gunjin::{BySide, Deployment, Game, Ruleset, Side};
/// use gunjin_ai::{choose_move, Budget, Level};
/// let game = Game::new(Ruleset::STANDARD, BySide::new_with(|s| Deployment::auto(s, 3))).unwrap();
/// let view = game.view(Side::Sente);
/// let mv = choose_move(&view, Level::Beginner, &Budget::nodes(5_000), 1).unwrap();
/// assert!(game.position().is_legal(mv));
/// ```
#[must_use]
pub fn choose_move(
    view: &PlayerView,
    level: Level,
    budget: &Budget<'_>,
    seed: u64,
) -> Option<Move> {
    decide(view, &level.plan(), budget, seed ^ level_salt(level))
}

/// The level's move when it is also told the true kind of some enemy pieces, each named by the
/// square it started on: for measuring what knowing those kinds is worth (arena only, behind
/// the `omniscient` feature: the page and the server never build it, and the bot's messages
/// cannot ask for it).
#[cfg(feature = "omniscient")]
#[must_use]
pub fn choose_move_told(
    view: &PlayerView,
    level: Level,
    budget: &Budget<'_>,
    seed: u64,
    told: &[(Square, Kind)],
) -> Option<Move> {
    decide_told(view, &level.plan(), budget, seed ^ level_salt(level), told)
}

/// Builds once what the level's decisions share (the measured prior of the advanced level), so
/// that its first move takes no longer than the others. Calling it is optional.
pub fn prepare(level: Level) {
    level.plan().prior.prepare();
}

/// A uniformly random legal move (a baseline for the arena).
#[must_use]
pub fn random_move(view: &PlayerView, seed: u64) -> Option<Move> {
    let setting = Setting::new(view)?;
    let (pos, _) = setting.world(&mut SmallRng::seed_from_u64(seed))?;
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let mut rng = SmallRng::seed_from_u64(seed);
    Some(moves[rng.random_range(0..moves.len())])
}

/// One ply over a few worlds of its own belief, always the best by the evaluation (a baseline
/// for the arena).
#[must_use]
pub fn greedy_move(view: &PlayerView, budget: &Budget<'_>, seed: u64) -> Option<Move> {
    decide(view, &GREEDY, budget, seed ^ 0x6772_6565_6479)
}

fn level_salt(level: Level) -> u64 {
    match level {
        Level::Beginner => 0x6265_6769,
        Level::Intermediate => 0x696e_7465,
        Level::Advanced => 0x6164_7661,
    }
}

/// The viewer's pieces and a sampled enemy, as a position.
fn world_position(view: &PlayerView, belief: &Belief, kinds: &[Kind; 23]) -> Option<Position> {
    let me = view.side();
    let own = view
        .own()
        .iter()
        .map(|&(sq, kind)| (sq, Piece { side: me, kind }));
    let enemy = belief.pieces().zip(kinds).filter_map(|(p, &kind)| {
        p.square.map(|sq| {
            (
                sq,
                Piece {
                    side: me.opponent(),
                    kind,
                },
            )
        })
    });
    Position::from_pieces(
        Ruleset::STANDARD,
        own.chain(enemy),
        view.to_move(),
        view.plies_without_battle(),
    )
    .ok()
}

/// What the viewer believes of the enemy's kinds: the facts, weighted by `prior` and (if given)
/// by the enemy's behaviour, its worlds drawn with `mixing` swaps each (see [`Belief::sample`]).
fn read_enemy(
    view: &PlayerView,
    tracked: Option<&Tracked>,
    reading: Option<Reading>,
    prior: Prior,
    mixing: usize,
) -> Belief {
    match tracked {
        Some(t) => {
            let mut b = Belief::of_enemy_tracked(t, prior);
            if let Some(r) = reading {
                b.read_behaviour(t, r);
                if r.spy_approach != 1.0 {
                    b.read_spy_approach(view, r.spy_approach);
                }
            }
            b.set_mixing(mixing);
            b
        }
        None => Belief::of_enemy(view),
    }
}

/// The belief `level` decides from, of the enemy of the view's side: the facts weighted by the
/// level's prior and (advanced) its reading of the enemy's behaviour. For measuring how well it
/// names the enemy's kinds.
#[must_use]
pub fn level_belief(view: &PlayerView, level: Level) -> Belief {
    let plan = level.plan();
    read_enemy(
        view,
        Tracked::from_view(view).ok().as_ref(),
        plan.reading,
        plan.prior,
        plan.mixing,
    )
}

/// Everything one decision needs from the view.
struct Setting<'v> {
    view: &'v PlayerView,
    tracked: Option<Tracked>,
    belief: Belief,
}

impl<'v> Setting<'v> {
    fn new(view: &'v PlayerView) -> Option<Setting<'v>> {
        Self::reading(view, None, Prior::Rows, 0, &[])
    }

    /// `told`: enemy kinds handed over from outside the view (measurement only; empty for
    /// every real player).
    fn reading(
        view: &'v PlayerView,
        reading: Option<Reading>,
        prior: Prior,
        mixing: usize,
        told: &[(Square, Kind)],
    ) -> Option<Setting<'v>> {
        if !view.status().is_ongoing() || view.to_move() != view.side() {
            return None;
        }
        let tracked = Tracked::from_view(view).ok();
        let belief = read_enemy(view, tracked.as_ref(), reading, prior, mixing);
        let belief = told.iter().fold(belief, |b, &(initial, kind)| {
            b.assume(initial, kind).unwrap_or(b)
        });
        Some(Setting {
            view,
            tracked,
            belief,
        })
    }

    /// One imagined world: the position and what each side can know in it.
    fn world(&self, rng: &mut SmallRng) -> Option<(Position, Known)> {
        let kinds = self.belief.sample(rng)?;
        let pos = world_position(self.view, &self.belief, &kinds)?;
        let enemy = self
            .belief
            .pieces()
            .filter_map(|p| p.square.map(|sq| (sq, p.kinds)));
        let known = match &self.tracked {
            Some(t) => {
                let about_me = Belief::of_viewer_given(t, &kinds);
                let mine: Vec<(Square, KindSet)> = about_me
                    .pieces()
                    .filter_map(|p| p.square.map(|sq| (sq, p.kinds)))
                    .collect();
                Known::from_squares(enemy.chain(mine))
            }
            None => Known::from_squares(enemy),
        };
        Some((pos, known))
    }
}

pub(crate) fn decide(
    view: &PlayerView,
    plan: &Plan,
    budget: &Budget<'_>,
    seed: u64,
) -> Option<Move> {
    decide_told(view, plan, budget, seed, &[])
}

fn decide_told(
    view: &PlayerView,
    plan: &Plan,
    budget: &Budget<'_>,
    seed: u64,
    told: &[(Square, Kind)],
) -> Option<Move> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let setting = Setting::reading(view, plan.reading, plan.prior, plan.mixing, told)?;
    let first = setting.world(&mut rng)?;
    let mut moves = first.0.legal_moves();
    if moves.is_empty() {
        return None;
    }
    if moves.len() == 1 {
        return Some(moves[0]);
    }
    if plan.spare_top_officers {
        spare_top_officers(view, &setting.belief, &mut moves);
    }
    if plan.spare_lost_battles && view.plies_without_battle() < LOST_BATTLES_UNTIL {
        spare_lost_battles(view, &setting.belief, &mut moves);
    }
    if plan.blunder > 0.0 && rng.random_bool(plan.blunder) {
        return Some(moves[rng.random_range(0..moves.len())]);
    }
    let tables = Tables::new();
    let mut budget = *budget;
    budget.max_nodes = Some(budget.nodes_for(plan.default_nodes));
    let timer = budget.start();
    let mut search = Searcher::new(&tables, plan.weights, &budget, &timer, plan.time_share);
    search.hq_check = plan.hq_check;
    search.battle_worth = plan.battle_worth;
    search.shapes = plan.shapes;
    let mut total = vec![0i64; moves.len()];
    let mut worlds: Vec<(Position, Known)> = Vec::new();

    // A shallow pass on the first world, so there is always an answer.
    let shallow = search.root_scores(&first.0, &moves, 1, &first.1);
    let mut next = Some(first);
    for n in 0..plan.worlds {
        let pos = match next.take() {
            Some(p) => p,
            None => match setting.world(&mut rng) {
                Some(p) => p,
                None => break,
            },
        };
        if n >= plan.min_worlds
            && (search.out_of_budget() || search.spent() >= plan.first_pass_share)
        {
            break;
        }
        match search.root_scores(&pos.0, &moves, plan.depth, &pos.1) {
            Some(scores) => {
                for (t, s) in total.iter_mut().zip(scores) {
                    *t += i64::from(s);
                }
                worlds.push(pos);
            }
            None => break,
        }
    }
    // Near the no-battle draw: each move's walk towards contact, the same for both passes.
    let walks = if plan.contact == 0 {
        None
    } else {
        contact_walks(
            view.side(),
            view.plies_without_battle(),
            &worlds,
            &moves,
            plan.contact,
        )
    };
    let mut scores: Vec<f64> = if worlds.is_empty() {
        match shallow {
            Some(s) => s.into_iter().map(f64::from).collect(),
            None => return Some(moves[rng.random_range(0..moves.len())]),
        }
    } else {
        total
            .iter()
            .map(|&t| t as f64 / worlds.len() as f64)
            .collect()
    };

    // Second pass: the best few moves, deeper, over the same worlds.
    if plan.deep_top > 1 && !worlds.is_empty() {
        let mut order: Vec<usize> = (0..moves.len()).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        order.truncate(plan.deep_top);
        // Near the no-battle draw, the best walk towards contact is searched deeper too, or the
        // walk's term (added after this pass) could never lift it.
        if let Some(walk) = walks.as_deref().filter(|_| ahead(&scores))
            && let Some(i) = best_walk(&scores, walk).filter(|i| !order.contains(i))
        {
            order.push(i);
        }
        let top: Vec<Move> = order.iter().map(|&i| moves[i]).collect();
        let mut deep_total = vec![0i64; top.len()];
        let mut done = 0usize;
        for pos in &worlds {
            match search.root_scores(&pos.0, &top, plan.deep_depth, &pos.1) {
                Some(s) => {
                    for (t, v) in deep_total.iter_mut().zip(s) {
                        *t += i64::from(v);
                    }
                    done += 1;
                }
                None => break,
            }
        }
        // Enough worlds searched deeply to trust: the deep values decide among the top moves.
        if done * 2 >= worlds.len().min(8) && done > 0 {
            let mut deep_scores = vec![f64::NEG_INFINITY; moves.len()];
            for (&i, &t) in order.iter().zip(&deep_total) {
                deep_scores[i] = t as f64 / done as f64;
            }
            scores = deep_scores;
        }
    }
    add_root_terms(
        view,
        plan,
        &setting.belief,
        walks.as_deref(),
        &moves,
        &mut scores,
    );
    Some(pick(&moves, &scores, plan.temperature, &mut rng))
}

/// The move that is best once `walk` (the walks towards contact near the draw) is added to
/// `scores`, if the walk is what makes it so.
fn best_walk(scores: &[f64], walk: &[f64]) -> Option<usize> {
    (0..scores.len())
        .max_by(|&a, &b| (scores[a] + walk[a]).total_cmp(&(scores[b] + walk[b])))
        .filter(|&i| walk[i] > 0.0)
}

/// Adds to each move's score what the root weighs beyond the search: probing and concealment,
/// walks longer than the search looks, and the habits a player would notice (shuffling,
/// repeating, drifting into the no-battle draw).
fn add_root_terms(
    view: &PlayerView,
    plan: &Plan,
    belief: &Belief,
    walks: Option<&[f64]>,
    moves: &[Move],
    scores: &mut [f64],
) {
    if plan.probe_bonus != 0 {
        for (mv, score) in moves.iter().zip(scores.iter_mut()) {
            *score += f64::from(information_bonus(view, belief, *mv, plan.probe_bonus));
        }
    }
    // Walks longer than the search looks: the spy to a general known for certain, the general
    // to the officers it beats.
    let hunts = [
        (Kind::Spy, plan.spy_hunt, spy_prey(belief)),
        (Kind::General, plan.general_hunt, general_prey(belief)),
    ];
    for (hunter, unit, prey) in hunts {
        if unit == 0 || prey.is_empty() {
            continue;
        }
        let to_prey: Vec<[u8; Square::COUNT]> = prey.into_iter().map(steps_from).collect();
        for (mv, score) in moves.iter().zip(scores.iter_mut()) {
            *score += f64::from(hunt_bonus(view, hunter, &to_prey, *mv, unit));
        }
    }
    if plan.unshuffle != 0 {
        for (mv, score) in moves.iter().zip(scores.iter_mut()) {
            if puts_back_last_move(view, *mv) {
                *score -= f64::from(plan.unshuffle);
            }
        }
    }
    if plan.repetition != 0 && ahead(scores) {
        let seen = boards_since_battle(view);
        for (mv, score) in moves.iter().zip(scores.iter_mut()) {
            let again = times_seen_after(view, &seen, *mv);
            *score -= f64::from(plan.repetition) * f64::from(again);
        }
    }
    if let Some(walk) = walks.filter(|_| ahead(scores)) {
        for (score, b) in scores.iter_mut().zip(walk) {
            *score += b;
        }
    }
}

/// Whether `mv` steps the piece the side moved last, without a battle, back where it came from.
fn puts_back_last_move(view: &PlayerView, mv: Move) -> bool {
    view.history()
        .iter()
        .rev()
        .find(|ply| ply.side == view.side())
        .is_some_and(|ply| ply.battle.is_none() && ply.from == mv.to && ply.to == mv.from)
}

/// Which squares each side holds (by square index, viewer first) and who is to move: what a
/// repetition is judged by.
type Board = (u64, u64, Side);

fn mask(squares: impl Iterator<Item = Square>) -> u64 {
    squares.fold(0, |m, sq| m | 1 << sq.index())
}

/// Every board that has stood since the last battle, the current one first: the plies since
/// then are all quiet, so each is undone by stepping its piece back.
fn boards_since_battle(view: &PlayerView) -> Vec<Board> {
    let me = view.side();
    let mut own = mask(view.own().iter().map(|&(sq, _)| sq));
    let mut enemy = mask(view.enemy().iter().copied());
    let mut boards = vec![(own, enemy, view.to_move())];
    let quiet = usize::from(view.plies_without_battle());
    for ply in view.history().iter().rev().take(quiet) {
        let (from, to) = (1u64 << ply.from.index(), 1u64 << ply.to.index());
        let held = if ply.side == me { &mut own } else { &mut enemy };
        *held = (*held & !to) | from;
        boards.push((own, enemy, ply.side));
    }
    boards
}

/// How often the board `mv` leaves has stood in `seen`, as [`boards_since_battle`] gives them
/// (the current board first); 0 for a battle, which changes the board.
fn times_seen_after(view: &PlayerView, seen: &[Board], mv: Move) -> u32 {
    let Some(&(own, enemy, _)) = seen.first() else {
        return 0;
    };
    if view.enemy_at(mv.to) {
        return 0;
    }
    let own = (own & !(1 << mv.from.index())) | 1 << mv.to.index();
    let after = (own, enemy, view.side().opponent());
    let times = seen.iter().filter(|&&b| b == after).count();
    u32::try_from(times).unwrap_or(u32::MAX)
}

/// Quiet plies after which a side ahead starts walking towards battles.
const CONTACT_FROM: u16 = 40;

/// Whether the best of `scores` says the side is ahead.
fn ahead(scores: &[f64]) -> bool {
    scores.iter().copied().fold(f64::NEG_INFINITY, f64::max) > 0.0
}

/// For each of `me`'s moves, when the no-battle draw comes near (`quiet` plies without battle,
/// from `CONTACT_FROM` on; `None` before, or without worlds), to be added while the side is
/// [`ahead`]: `unit` (more as the draw comes closer) for each step the moving piece comes closer to the nearest enemy piece it beats
/// (or trades with, when that is the enemy's last piece that moves and another own one moves
/// on), on average over the worlds. A draw throws a won game away; the search alone sees battles
/// only a few steps ahead.
fn contact_walks(
    me: Side,
    quiet: u16,
    worlds: &[(Position, Known)],
    moves: &[Move],
    unit: i32,
) -> Option<Vec<f64>> {
    let (first, _) = worlds.first()?;
    if quiet < CONTACT_FROM {
        return None;
    }
    let mut bonus = vec![0.0f64; moves.len()];
    // The worlds differ only in the enemy's kinds, not in where its pieces stand.
    let enemy_steps: Vec<(Square, [u8; Square::COUNT])> = first
        .pieces()
        .filter(|(sq, p)| p.side != me && !sq.is_hq())
        .map(|(sq, _)| (sq, steps_from(sq)))
        .collect();
    for (pos, _) in worlds {
        // Trading the enemy's last piece that moves, while one of the own still moves, wins.
        let mobile = |side: Side| {
            pos.pieces()
                .filter(|(_, p)| p.side == side && p.kind.is_mobile())
                .count()
        };
        let trade_wins = mobile(me.opponent()) == 1 && mobile(me) >= 2;
        for (b, mv) in bonus.iter_mut().zip(moves) {
            let Some(att) = pos.piece_at(mv.from) else {
                continue;
            };
            let nearest = |at: Square| {
                enemy_steps
                    .iter()
                    .filter(|(sq, _)| {
                        pos.piece_at(*sq).is_some_and(|def| {
                            match resolve_battle(att.kind, def.kind, None, pos.rules()) {
                                Outcome::Attacker => true,
                                Outcome::Both => trade_wins && def.kind.is_mobile(),
                                Outcome::Defender => false,
                            }
                        })
                    })
                    .map(|(_, steps)| i32::from(steps[at.index()]))
                    .min()
            };
            if let (Some(before), Some(after)) = (nearest(mv.from), nearest(mv.to)) {
                *b += f64::from(before - after);
            }
        }
    }
    let urgency = 1.0 + f64::from(quiet - CONTACT_FROM) / 20.0;
    let scale = f64::from(unit) * urgency / worlds.len() as f64;
    bonus.iter_mut().for_each(|b| *b *= scale);
    Some(bonus)
}

/// The enemy general's square once the belief knows it for certain: the spy beats it.
fn spy_prey(belief: &Belief) -> Vec<Square> {
    belief
        .pieces()
        .filter(|p| p.kinds == KindSet::only(Kind::General))
        .filter_map(|p| p.square)
        .collect()
}

/// The enemy pieces the own general should go for: those the belief knows to be a lieutenant
/// general or a major general, or possibly the general too (whom it ties with). Such a piece eats
/// its way through the own lines until something that beats it arrives.
fn general_prey(belief: &Belief) -> Vec<Square> {
    let big = KindSet::only(Kind::General)
        .with(Kind::LieutenantGeneral)
        .with(Kind::MajorGeneral);
    belief
        .pieces()
        .filter(|p| p.kinds.and(big) == p.kinds && p.kinds != KindSet::only(Kind::General))
        .filter_map(|p| p.square)
        .collect()
}

/// Quiet plies from which the top officers may attack pieces that may be mines or the flag
/// again: near the no-battle draw such an attack is often the only way left to win (a lone
/// lieutenant general had shuffled beside a never-moved headquarters until the draw).
const SPARE_TOP_OFFICERS_UNTIL: u16 = 60;

/// Leaves out the moves of the general, lieutenant general and major general onto an enemy
/// piece that may be a mine or the flag, unless nothing else is left, or the piece holds the
/// enemy headquarters and another own officer stands beside it (whatever the attack meets there,
/// that officer walks in next; the search weighs it) or an enemy officer may be two steps from
/// taking the own ([`own_hq_threatened`]). Sparing them there had a won race for the
/// headquarters shuffled away while the enemy walked into the own. From
/// [`SPARE_TOP_OFFICERS_UNTIL`] quiet plies on, nothing is left out.
fn spare_top_officers(view: &PlayerView, belief: &Belief, moves: &mut gunjin::MoveList) {
    if view.plies_without_battle() >= SPARE_TOP_OFFICERS_UNTIL {
        return;
    }
    let enemy_hq = Square::hq(view.side().opponent());
    let follows_in = |from: Square| {
        enemy_hq
            .neighbours()
            .any(|sq| sq != from && view.own_at(sq).is_some_and(Kind::can_occupy))
    };
    let threatened = own_hq_threatened(view, belief);
    let risky = |m: &Move| {
        matches!(
            view.own_at(m.from),
            Some(Kind::General | Kind::LieutenantGeneral | Kind::MajorGeneral)
        ) && belief
            .kinds_at(m.to)
            .is_some_and(|ks| ks.contains(Kind::Mine) || ks.contains(Kind::Flag))
            && !(m.to == enemy_hq && (follows_in(m.from) || threatened))
    };
    if moves.iter().any(|m| !risky(m)) {
        moves.retain(|m| !risky(m));
    }
}

/// Whether an enemy piece that may take the own headquarters (one of the six officers who can
/// occupy, beating what holds it if anything does) stands within two steps of it: the race for
/// the headquarters is on.
fn own_hq_threatened(view: &PlayerView, belief: &Belief) -> bool {
    let hq = Square::hq(view.side());
    let occupant = view.own_at(hq);
    let takes_hq = |k: Kind| {
        k.can_occupy()
            && occupant
                .is_none_or(|o| resolve_battle(k, o, None, &Ruleset::STANDARD) == Outcome::Attacker)
    };
    let steps = steps_from(hq);
    belief.pieces().any(|p| {
        p.square
            .is_some_and(|sq| (1..=2).contains(&steps[sq.index()]))
            && p.kinds.iter().any(takes_hq)
    })
}

/// Quiet plies from which a battle that cannot be won may still be worth its piece: it resets
/// the no-battle count.
const LOST_BATTLES_UNTIL: u16 = 80;

/// Leaves out the attacks on an enemy piece that the belief knows beats the attacker whatever
/// kind it is (a piece that has beaten one as strong, a general found for certain), unless
/// nothing else is left. A flag fights with the piece behind it, so a piece that may be the
/// flag is never known to win.
fn spare_lost_battles(view: &PlayerView, belief: &Belief, moves: &mut gunjin::MoveList) {
    let lost = |m: &Move| {
        let (Some(att), Some(target)) = (view.own_at(m.from), belief.kinds_at(m.to)) else {
            return false;
        };
        !target.is_empty()
            && !target.contains(Kind::Flag)
            && target
                .iter()
                .all(|k| resolve_battle(att, k, None, &Ruleset::STANDARD) == Outcome::Defender)
    };
    if moves.iter().any(|m| !lost(m)) {
        moves.retain(|m| !lost(m));
    }
}

/// `unit` for each step the own `hunter` comes closer to the nearest of its prey (less for a step
/// away), by `to_prey`, the steps from each square to each prey.
fn hunt_bonus(
    view: &PlayerView,
    hunter: Kind,
    to_prey: &[[u8; Square::COUNT]],
    mv: Move,
    unit: i32,
) -> i32 {
    if view.own_at(mv.from) != Some(hunter) {
        return 0;
    }
    let nearest = |sq: Square| {
        to_prey
            .iter()
            .map(|d| i32::from(d[sq.index()]))
            .min()
            .unwrap_or(0)
    };
    (nearest(mv.from) - nearest(mv.to)) * unit
}

/// What a battle teaches and gives away: probing an unknown piece with a cheap one is worth a
/// little; showing a high officer's strength in a battle costs a little.
fn information_bonus(view: &PlayerView, belief: &Belief, mv: Move, unit: i32) -> i32 {
    let (Some(att), Some(target)) = (view.own_at(mv.from), belief.kinds_at(mv.to)) else {
        return 0;
    };
    if mv.to.is_hq() {
        return 0;
    }
    let unknown = target.len() >= 4;
    match att {
        Kind::General | Kind::LieutenantGeneral | Kind::MajorGeneral if target.len() >= 2 => -unit,
        _ if unknown && crate::search::value(att, true) <= 240 => unit,
        _ => 0,
    }
}

fn pick(moves: &[Move], scores: &[f64], temperature: Option<f64>, rng: &mut SmallRng) -> Move {
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    match temperature {
        Some(t) if t > 0.0 => {
            let weights: Vec<f64> = scores.iter().map(|s| ((s - best) / t).exp()).collect();
            let total: f64 = weights.iter().sum();
            let mut x = rng.random_range(0.0..total.max(f64::MIN_POSITIVE));
            for (mv, w) in moves.iter().zip(&weights) {
                if x < *w {
                    return *mv;
                }
                x -= w;
            }
            moves[moves.len() - 1]
        }
        _ => {
            // Among moves within a hair of the best, choose at random (seeded).
            let near: Vec<Move> = moves
                .iter()
                .zip(scores)
                .filter(|&(_, &s)| s >= best - 0.5)
                .map(|(m, _)| *m)
                .collect();
            near[rng.random_range(0..near.len())]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gunjin::{BySide, Deployment, Game, Side};

    /// Sente's view of a game where gote keeps its general in its HQ and sente's general stands
    /// off its back row (so it can step both ways).
    fn view_of_a_game() -> PlayerView {
        a_game().view(Side::Sente)
    }

    /// A game at its start: sente's general forward, gote's in its HQ.
    fn a_game() -> Game {
        let sente = (0..)
            .map(|seed| Deployment::auto(Side::Sente, seed))
            .find(|d| {
                Square::all().any(|sq| {
                    d.kind_at(sq) == Some(Kind::General) && sq.relative_row(Side::Sente) > 1
                })
            })
            .expect("some arrangement has the general forward");
        let gote = (0..)
            .map(|seed| Deployment::auto(Side::Gote, seed))
            .find(|d| d.kind_at(Square::hq(Side::Gote)) == Some(Kind::General))
            .expect("some arrangement keeps the general in the HQ");
        Game::new(
            Ruleset::STANDARD,
            BySide::new_with(|side| match side {
                Side::Sente => sente.clone(),
                Side::Gote => gote.clone(),
            }),
        )
        .expect("legal arrangements")
    }

    /// The hunter gets `unit` for a step towards `prey`, minus that for a step away, and every
    /// other piece nothing.
    fn assert_hunts(view: &PlayerView, hunter: Kind, prey: Square) {
        let to_prey = [steps_from(prey)];
        let own = |want: bool| {
            view.own()
                .iter()
                .find(|&&(_, k)| (k == hunter) == want)
                .map(|&(s, _)| s)
                .expect("sente has the piece")
        };
        let from = own(true);
        let before = to_prey[0][from.index()];
        let bonus = |from, to| hunt_bonus(view, hunter, &to_prey, Move { from, to }, 40);
        let towards = from
            .neighbours()
            .find(|&n| to_prey[0][n.index()] < before)
            .expect("some neighbour is closer");
        let away = from
            .neighbours()
            .find(|&n| to_prey[0][n.index()] > before)
            .expect("some neighbour is farther");
        assert_eq!(bonus(from, towards), 40, "{hunter} towards {prey}");
        assert_eq!(bonus(from, away), -40, "{hunter} away from {prey}");
        let other = own(false);
        let to = other.neighbours().next().expect("a neighbour");
        assert_eq!(bonus(other, to), 0, "a piece that is not the {hunter}");
    }

    /// Sente's general on c3 and lieutenant on a2; gote's captain on c6 and mine on f7.
    fn general_far_from_a_captain() -> Position {
        crate::search::race_tests::position(&[
            ("c3", Side::Sente, Kind::General),
            ("a2", Side::Sente, Kind::Lieutenant),
            ("c6", Side::Gote, Kind::Captain),
            ("f7", Side::Gote, Kind::Mine),
        ])
    }

    /// The boards counted from the view (undoing the quiet plies) are the boards the game truly
    /// went through since its last battle, counted after each move as the engine plays it.
    #[test]
    fn a_repetition_is_counted_on_the_boards_the_game_went_through() {
        use gunjin::rand::RngExt as _;
        let board_of = |pos: &Position, me: Side| -> Board {
            let held = |side: Side| {
                mask(
                    pos.pieces()
                        .filter(|(_, p)| p.side == side)
                        .map(|(sq, _)| sq),
                )
            };
            (held(me), held(me.opponent()), pos.to_move())
        };
        let mut repeated = 0;
        for seed in 0..12u64 {
            let mut game = crate::auto_game(seed);
            let mut rng = SmallRng::seed_from_u64(seed);
            // Every board since the last battle, as the engine's positions had it.
            let mut since_battle: Vec<Position> = vec![game.position().clone()];
            while game.status().is_ongoing() && game.history().len() < 120 {
                let pos = game.position().clone();
                let me = pos.to_move();
                let view = game.view(me);
                let seen = boards_since_battle(&view);
                let moves = pos.legal_moves();
                for &mv in &moves {
                    let mut after = pos.clone();
                    let played = after.play(mv).expect("legal");
                    let truth = if played.battle.is_some() {
                        0
                    } else {
                        since_battle
                            .iter()
                            .filter(|p| board_of(p, me) == board_of(&after, me))
                            .count()
                    };
                    let counted = times_seen_after(&view, &seen, mv);
                    assert_eq!(
                        counted as usize,
                        truth,
                        "seed {seed}, ply {}, {mv:?}",
                        game.history().len()
                    );
                    repeated += usize::from(truth >= 2);
                }
                // Mostly step the last quiet move back, so that boards come again.
                let back = game
                    .history()
                    .iter()
                    .rev()
                    .find(|p| p.side == me)
                    .filter(|p| p.battle.is_none())
                    .map(|p| Move {
                        from: p.to,
                        to: p.from,
                    })
                    .filter(|m| moves.contains(m));
                let mv = match back {
                    Some(m) if rng.random_bool(0.8) => m,
                    _ => moves[rng.random_range(0..moves.len())],
                };
                let played = game.play(mv).expect("legal");
                if played.battle.is_some() {
                    since_battle.clear();
                }
                since_battle.push(game.position().clone());
            }
        }
        assert!(repeated > 50, "{repeated}");
    }

    /// Near the draw the walk that comes out best with its term is searched deeper, whatever its
    /// place by the search's score alone; no walk, or one that still comes out behind, adds none.
    #[test]
    fn the_best_walk_towards_contact_is_searched_deeper() {
        let scores = [100.0, 90.0, 80.0, 70.0, 60.0];
        assert_eq!(best_walk(&scores, &[0.0, 0.0, 0.0, 0.0, 50.0]), Some(4));
        assert_eq!(best_walk(&scores, &[0.0; 5]), None);
        assert_eq!(best_walk(&scores, &[0.0, 0.0, 0.0, 0.0, 30.0]), None);
        assert_eq!(best_walk(&scores, &[5.0, 0.0, 0.0, 0.0, 0.0]), Some(0));
    }

    /// Near the draw a piece that only trades with the enemy's last moving piece still walks to
    /// it when another own piece moves on (the enemy is then left without a move and loses); not
    /// when the trade would leave neither side a move, nor while another enemy piece moves.
    #[test]
    fn near_the_draw_a_trade_that_wins_draws_the_piece_to_it() {
        let mv = |from, to| Move {
            from: Square::parse(from).expect("a square"),
            to: Square::parse(to).expect("a square"),
        };
        let towards = [mv("c3", "c4"), mv("c3", "c2")];
        // The two generals, and beside them one more piece of each side.
        let bonus = |own_other: Kind, enemy_other: Kind| {
            let pos = crate::search::race_tests::position(&[
                ("c3", Side::Sente, Kind::General),
                ("a2", Side::Sente, own_other),
                ("c6", Side::Gote, Kind::General),
                ("f7", Side::Gote, enemy_other),
            ]);
            let worlds = [(pos, Known::nothing())];
            contact_walks(Side::Sente, 70, &worlds, &towards, 20).expect("near the draw")
        };
        let with_engineer = bonus(Kind::Engineer, Kind::Mine);
        assert!(
            with_engineer[0] > 0.0 && with_engineer[1] < 0.0,
            "{with_engineer:?}"
        );
        let alone = bonus(Kind::Mine, Kind::Mine);
        assert_eq!(alone, vec![0.0, 0.0], "a trade that leaves no move draws");
        let two_left = bonus(Kind::Engineer, Kind::Spy);
        assert_eq!(two_left, vec![0.0, 0.0], "the spy would move on");
    }

    /// Only the step back of the piece the side moved last, without a battle, is a put-back.
    #[test]
    fn a_put_back_is_the_last_quiet_move_undone() {
        use gunjin::rand::RngExt as _;
        let mut checked = 0;
        for seed in 0..20u64 {
            let mut game = crate::auto_game(seed);
            let mut rng = SmallRng::seed_from_u64(seed);
            while game.status().is_ongoing() && game.history().len() < 60 {
                let moves = game.position().legal_moves();
                let mv = moves[rng.random_range(0..moves.len())];
                game.play(mv).expect("legal");
                let Some(last) = game.history().last().copied() else {
                    continue;
                };
                if !game.status().is_ongoing() {
                    break;
                }
                // The other side to move now: its own last ply is the one before.
                let view = game.view(game.position().to_move());
                let own_last = game
                    .history()
                    .iter()
                    .rev()
                    .find(|p| p.side == view.side())
                    .copied();
                let back = |p: &gunjin::Ply| Move {
                    from: p.to,
                    to: p.from,
                };
                // The mover's ply is never the side to move's own.
                assert!(last.side != view.side());
                if let Some(own) = own_last {
                    assert_eq!(puts_back_last_move(&view, back(&own)), own.battle.is_none());
                    assert!(!puts_back_last_move(&view, own.mv()));
                    checked += usize::from(own.battle.is_none());
                }
                assert!(
                    !puts_back_last_move(&view, back(&last))
                        || own_last.is_some_and(|o| back(&o) == back(&last))
                );
            }
        }
        assert!(checked > 100, "{checked}");
    }

    /// The seed page's advice: the top three officers hit no piece that may be a mine or the
    /// flag (never seen to move) while anything else can move; every other move stays.
    #[test]
    fn the_top_officers_spare_pieces_that_never_moved() {
        use gunjin::rand::RngExt as _;
        let top = [Kind::General, Kind::LieutenantGeneral, Kind::MajorGeneral];
        let mut spared = 0;
        let mut allowed = 0;
        for seed in 0..60u64 {
            let mut game = crate::auto_game(seed);
            let mut rng = SmallRng::seed_from_u64(seed);
            while game.status().is_ongoing() && game.history().len() < 80 {
                let moves = game.position().legal_moves();
                if game.position().to_move() == Side::Sente {
                    let view = game.view(Side::Sente);
                    let belief = level_belief(&view, Level::Advanced);
                    let mut kept = moves.clone();
                    spare_top_officers(&view, &belief, &mut kept);
                    let threatened = sente_hq_threatened(&view, &belief);
                    for m in &moves {
                        let officer = view.own_at(m.from).is_some_and(|k| top.contains(&k));
                        let may_be_still = belief
                            .kinds_at(m.to)
                            .is_some_and(|ks| ks.contains(Kind::Mine) || ks.contains(Kind::Flag));
                        // Into the enemy headquarters with another officer beside it to
                        // follow in, the attack stays for the search to weigh.
                        let hq = Square::hq(Side::Gote);
                        let followed = m.to == hq
                            && hq.neighbours().any(|sq| {
                                sq != m.from && view.own_at(sq).is_some_and(Kind::can_occupy)
                            });
                        // Or with an enemy officer two steps from taking sente's own.
                        let raced = m.to == hq && threatened;
                        let risky = officer && may_be_still && !followed && !raced;
                        assert_eq!(kept.contains(m), !risky || kept.len() == moves.len());
                        spared += usize::from(risky);
                        allowed += usize::from(
                            officer && belief.kinds_at(m.to).is_some() && !may_be_still,
                        );
                    }
                    assert!(!kept.is_empty());
                }
                game.play(moves[rng.random_range(0..moves.len())])
                    .expect("legal");
            }
        }
        assert!(
            spared >= 5 && allowed >= 5,
            "spared {spared}, allowed {allowed}"
        );
    }

    /// Whether a piece that may be an officer beating what holds sente's headquarters stands
    /// within two steps of it (the squares named by hand).
    fn sente_hq_threatened(view: &PlayerView, belief: &Belief) -> bool {
        let occupant = view.own_at(Square::hq(Side::Sente));
        ["a1", "b1", "e1", "f1", "b2", "c2", "d2", "e2", "c3", "d3"]
            .iter()
            .filter_map(|name| belief.kinds_at(Square::parse(name).expect("a square")))
            .any(|ks| {
                ks.iter().any(|k| {
                    k.can_occupy()
                        && occupant.is_none_or(|o| {
                            resolve_battle(k, o, None, &Ruleset::STANDARD) == Outcome::Attacker
                        })
                })
            })
    }

    /// With an enemy officer two steps from taking the own headquarters, the top officers may
    /// attack the enemy's, whatever it may hold: the race is on. Games where both sides mostly
    /// walk forward, so that the races come.
    #[test]
    fn the_top_officers_race_for_the_headquarters_when_the_own_is_threatened() {
        use gunjin::rand::RngExt as _;
        let top = [Kind::General, Kind::LieutenantGeneral, Kind::MajorGeneral];
        let hq = Square::hq(Side::Gote);
        let (mut races, mut spared) = (0, 0);
        for seed in 0..200u64 {
            let mut game = crate::auto_game(seed);
            let mut rng = SmallRng::seed_from_u64(seed);
            while game.status().is_ongoing() && game.history().len() < 200 {
                let moves = game.position().legal_moves();
                let mover = game.position().to_move();
                if mover == Side::Sente {
                    let view = game.view(Side::Sente);
                    let belief = level_belief(&view, Level::Advanced);
                    let mut kept = moves.clone();
                    spare_top_officers(&view, &belief, &mut kept);
                    let threatened = sente_hq_threatened(&view, &belief);
                    for m in moves.iter().filter(|m| {
                        m.to == hq
                            && view.own_at(m.from).is_some_and(|k| top.contains(&k))
                            && belief.kinds_at(hq).is_some_and(|ks| {
                                ks.contains(Kind::Mine) || ks.contains(Kind::Flag)
                            })
                            && !hq.neighbours().any(|sq| {
                                sq != m.from && view.own_at(sq).is_some_and(Kind::can_occupy)
                            })
                    }) {
                        if view.plies_without_battle() >= SPARE_TOP_OFFICERS_UNTIL
                            || kept.len() == moves.len()
                        {
                            continue;
                        }
                        assert_eq!(kept.contains(m), threatened, "seed {seed}: {m:?}");
                        races += usize::from(threatened);
                        spared += usize::from(!threatened);
                    }
                }
                // Mostly a step towards the enemy's back row.
                let forward: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.to.relative_row(mover) > m.from.relative_row(mover))
                    .collect();
                let pool = if !forward.is_empty() && rng.random_bool(0.7) {
                    &forward[..]
                } else {
                    &moves[..]
                };
                game.play(pool[rng.random_range(0..pool.len())])
                    .expect("legal");
            }
        }
        assert!(races >= 1 && spared >= 1, "races {races}, spared {spared}");
    }

    /// Near the no-battle draw the top officers may attack a piece that may be a mine or the
    /// flag: often nothing else can still win.
    #[test]
    fn near_the_no_battle_draw_the_top_officers_may_attack_still_pieces() {
        use gunjin::rand::RngExt as _;
        let top = [Kind::General, Kind::LieutenantGeneral, Kind::MajorGeneral];
        let mut lifted = 0;
        for seed in 0..40u64 {
            let mut game = crate::auto_game(seed);
            let mut rng = SmallRng::seed_from_u64(seed);
            while game.status().is_ongoing() && game.history().len() < 240 {
                let moves = game.position().legal_moves();
                let view = game.view(game.position().to_move());
                if view.plies_without_battle() >= SPARE_TOP_OFFICERS_UNTIL {
                    let belief = level_belief(&view, Level::Advanced);
                    let mut kept = moves.clone();
                    spare_top_officers(&view, &belief, &mut kept);
                    assert_eq!(kept.len(), moves.len());
                    lifted += usize::from(moves.iter().any(|m| {
                        view.own_at(m.from).is_some_and(|k| top.contains(&k))
                            && belief.kinds_at(m.to).is_some_and(|ks| {
                                ks.contains(Kind::Mine) || ks.contains(Kind::Flag)
                            })
                    }));
                }
                // After the opening, quiet moves only, so that the quiet plies add up.
                let quiet: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| game.position().piece_at(m.to).is_none())
                    .collect();
                let mv = if game.history().len() > 20 && !quiet.is_empty() {
                    quiet[rng.random_range(0..quiet.len())]
                } else {
                    moves[rng.random_range(0..moves.len())]
                };
                game.play(mv).expect("legal");
            }
        }
        assert!(lifted >= 3, "lifted {lifted}");
    }

    /// An attack the belief knows is lost (every kind the target can still be beats the
    /// attacker) is left out while any other move is left; a target that may be the flag, whose
    /// battle turns on the piece behind it, never counts as known.
    #[test]
    fn a_battle_known_to_be_lost_is_spared_while_anything_else_can_move() {
        use gunjin::rand::RngExt as _;
        let mut spared = 0;
        let mut attacks = 0;
        for seed in 0..60u64 {
            let mut game = crate::auto_game(seed);
            let mut rng = SmallRng::seed_from_u64(seed);
            while game.status().is_ongoing() && game.history().len() < 120 {
                let moves = game.position().legal_moves();
                if game.position().to_move() == Side::Sente {
                    let view = game.view(Side::Sente);
                    let belief = level_belief(&view, Level::Intermediate);
                    let mut kept = moves.clone();
                    spare_lost_battles(&view, &belief, &mut kept);
                    for m in &moves {
                        let (Some(att), Some(target)) =
                            (view.own_at(m.from), belief.kinds_at(m.to))
                        else {
                            assert!(kept.contains(m) || kept.len() < moves.len());
                            continue;
                        };
                        attacks += 1;
                        let lost = !target.contains(Kind::Flag)
                            && target.iter().all(|k| {
                                resolve_battle(att, k, None, &Ruleset::STANDARD)
                                    == Outcome::Defender
                            });
                        if lost {
                            // Every kind it may be beats the attacker, the truth included.
                            let truth = game.position().piece_at(m.to).expect("a piece").kind;
                            assert_eq!(
                                resolve_battle(att, truth, None, &Ruleset::STANDARD),
                                Outcome::Defender
                            );
                        }
                        assert_eq!(kept.contains(m), !lost || kept.len() == moves.len());
                        spared += usize::from(lost && kept.len() < moves.len());
                    }
                    assert!(!kept.is_empty());
                }
                game.play(moves[rng.random_range(0..moves.len())])
                    .expect("legal");
            }
        }
        assert!(spared >= 5, "spared {spared} of {attacks} attacks");
    }

    /// A steady budget's work is set by nodes alone: on a machine so busy that its clock passes
    /// the share a timed budget would stop at before the nodes are spent, it still answers as
    /// the node budget does.
    #[test]
    fn a_steady_budget_answers_alike_however_busy_the_machine() {
        let view = view_of_a_game();
        for seed in 0..3 {
            let now = std::cell::Cell::new(0.0);
            let busy = || {
                now.set(now.get() + 0.2);
                now.get()
            };
            let steady = crate::Budget {
                max_nodes: None,
                time_ms: Some(100.0),
                clock: crate::budget::Clock::External(&busy),
                time_stops_only: true,
            };
            let nodes = steady.nodes_for(Level::Advanced.plan().default_nodes);
            assert_eq!(nodes, 100 * crate::budget::STEADY_NODES_PER_MS);
            let answer = choose_move(&view, Level::Advanced, &steady, seed);
            let elapsed = now.get();
            assert!(
                // Past the 40 ms a timed budget's first stage would have stopped at.
                (50.0..100.0).contains(&elapsed),
                "the busy clock passed {elapsed} ms of 100"
            );
            assert_eq!(
                answer,
                choose_move(&view, Level::Advanced, &crate::Budget::nodes(nodes), seed)
            );
        }
    }

    /// The clock still stops a steady search on a machine far too slow for its nodes, late (not
    /// at the time itself, which a busy machine reaches), with a legal answer.
    #[test]
    fn a_steady_budget_stops_late_on_a_far_slower_machine() {
        let game = a_game();
        let view = game.view(Side::Sente);
        // A short budget at the two-second floor; a long one at eight times its time.
        for (seed, ms, stop, crawl) in [
            (0, 100.0, 2000.0, 20.0),
            (1, 100.0, 2000.0, 20.0),
            (2, 500.0, 4000.0, 40.0),
        ] {
            let now = std::cell::Cell::new(0.0);
            let crawling = || {
                now.set(now.get() + crawl);
                now.get()
            };
            let steady = crate::Budget {
                max_nodes: None,
                time_ms: Some(ms),
                clock: crate::budget::Clock::External(&crawling),
                time_stops_only: true,
            };
            let answer = choose_move(&view, Level::Advanced, &steady, seed).expect("a move");
            assert!(game.position().is_legal(answer), "{answer:?}");
            let elapsed = now.get();
            assert!(
                (stop..stop * 1.15).contains(&elapsed),
                "stopped with the crawling clock at {elapsed} ms of {ms}"
            );
        }
    }

    #[test]
    fn near_the_no_battle_draw_the_side_ahead_walks_towards_what_it_beats() {
        let pos = general_far_from_a_captain();
        let worlds = [(pos.clone(), Known::nothing())];
        let mv = |from, to| Move {
            from: Square::parse(from).expect("a square"),
            to: Square::parse(to).expect("a square"),
        };
        // Towards the captain, away from it, and the lieutenant (whom the captain beats) moving.
        let moves = [mv("c3", "c4"), mv("c3", "c2"), mv("a2", "a3")];
        let ahead = [100.0, 0.0, 0.0];
        // As the root adds them: only while ahead.
        let bonus = |quiet, scores: &[f64]| {
            contact_walks(Side::Sente, quiet, &worlds, &moves, 20)
                .filter(|_| super::ahead(scores))
                .unwrap_or_else(|| vec![0.0; moves.len()])
        };
        let near = bonus(60, &ahead);
        assert!(near[0] > 0.0 && near[1] < 0.0, "{near:?}");
        assert!(
            (near[0] + near[1]).abs() < 1e-9,
            "a step either way is worth the same"
        );
        assert_eq!(near[2], 0.0, "the lieutenant beats nothing in sight");
        let nearer = bonus(80, &ahead);
        assert!(
            nearer[0] > near[0],
            "more as the draw comes closer: {nearer:?}"
        );
        assert_eq!(
            bonus(CONTACT_FROM - 1, &ahead),
            vec![0.0; 3],
            "the draw is still far"
        );
        assert_eq!(
            bonus(60, &[0.0, -50.0, -10.0]),
            vec![0.0; 3],
            "not ahead: a draw is welcome"
        );
    }

    #[test]
    fn the_spy_is_drawn_towards_a_general_known_for_certain() {
        let view = view_of_a_game();
        let belief = Belief::of_enemy(&view);
        assert!(spy_prey(&belief).is_empty());
        let hq = Square::hq(Side::Gote);
        let told = belief
            .assume(hq, Kind::General)
            .expect("consistent with the view");
        assert_eq!(spy_prey(&told), vec![hq]);
        // The general ties with the general: no prey for it.
        assert!(general_prey(&told).is_empty());
        assert_hunts(&view, Kind::Spy, hq);
    }

    #[test]
    fn the_general_is_drawn_towards_the_officers_it_beats() {
        let view = view_of_a_game();
        let belief = Belief::of_enemy(&view);
        assert!(general_prey(&belief).is_empty());
        let hq = Square::hq(Side::Gote);
        for kind in [Kind::LieutenantGeneral, Kind::MajorGeneral] {
            let told = belief.assume(hq, kind).expect("a kind the HQ may hold");
            assert_eq!(general_prey(&told), vec![hq], "{kind}");
            assert!(spy_prey(&told).is_empty());
        }
        assert_hunts(&view, Kind::General, hq);
    }
}
