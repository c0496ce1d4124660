//! Search inside one imagined world (a full position whose enemy kinds were sampled), and the
//! evaluation it uses: material, officers' approach to the enemy headquarters, the headquarters'
//! safety.

use gunjin::rand::{RngExt, SeedableRng, rngs::SmallRng};
use gunjin::{
    Kind, Move, MoveList, Outcome, Piece, Position, Side, Square, Status, resolve_battle,
};

use crate::budget::{Budget, Timer};
use crate::kindset::KindSet;

/// Score of a won game (minus the plies it takes).
pub(crate) const WIN: i32 = 30_000;
const INF: i32 = 1_000_000;

/// Walking distances from every square to each side's target (the enemy headquarters).
pub(crate) struct Tables {
    /// `to_enemy_hq[side][sq]`: steps for `side`'s piece on `sq` to reach the opponent's HQ.
    to_enemy_hq: [[u8; Square::COUNT]; 2],
    /// Random keys whose exclusive-or names a position in the transposition table: one per
    /// piece on a square, per count of plies without battle, and one for gote to move.
    piece_keys: [[[u64; 16]; 2]; Square::COUNT],
    quiet_keys: [u64; 101],
    gote_key: u64,
}

impl Tables {
    pub(crate) fn new() -> Tables {
        // Indexed by `Side::index`, which follows `Side::ALL`.
        let to_enemy_hq = Side::ALL.map(|side| steps_from(Square::hq(side.opponent())));
        let mut rng = SmallRng::seed_from_u64(0x007a_6f62_7269_7374);
        let mut piece_keys = [[[0u64; 16]; 2]; Square::COUNT];
        for key in piece_keys.iter_mut().flatten().flatten() {
            *key = rng.random();
        }
        let mut quiet_keys = [0u64; 101];
        for key in &mut quiet_keys {
            *key = rng.random();
        }
        Tables {
            to_enemy_hq,
            piece_keys,
            quiet_keys,
            gote_key: rng.random(),
        }
    }

    fn piece_key(&self, sq: Square, piece: Piece) -> u64 {
        self.piece_keys[sq.index()][piece.side.index()][piece.kind.index()]
    }

    fn quiet_key(&self, pos: &Position) -> u64 {
        self.quiet_keys[usize::from(pos.plies_without_battle().min(100))]
    }

    fn turn_key(&self, pos: &Position) -> u64 {
        if pos.to_move() == Side::Gote {
            self.gote_key
        } else {
            0
        }
    }

    /// The key of a whole position.
    pub(crate) fn key(&self, pos: &Position) -> u64 {
        pos.pieces()
            .fold(self.quiet_key(pos) ^ self.turn_key(pos), |k, (sq, p)| {
                k ^ self.piece_key(sq, p)
            })
    }

    /// The key of `after`, reached from `before` (key `key`) by `mv`: only the two squares,
    /// the counter and the turn change.
    fn key_after(&self, key: u64, before: &Position, mv: Move, after: &Position) -> u64 {
        let mut k = key ^ self.quiet_key(before) ^ self.quiet_key(after);
        k ^= self.turn_key(before) ^ self.turn_key(after);
        for sq in [mv.from, mv.to] {
            if let Some(p) = before.piece_at(sq) {
                k ^= self.piece_key(sq, p);
            }
            if let Some(p) = after.piece_at(sq) {
                k ^= self.piece_key(sq, p);
            }
        }
        k
    }

    fn distance(&self, side: Side, sq: Square) -> i32 {
        i32::from(self.to_enemy_hq[side.index()][sq.index()].min(20))
    }
}

/// One-step moves from `from` to every square over an empty board (bridges only across the
/// river).
pub(crate) fn steps_from(from: Square) -> [u8; Square::COUNT] {
    // Steps are symmetric, so the way to `from` is the way from it.
    steps_within(from, 0, 0)
}

/// Material value of a piece.
pub(crate) fn value(kind: Kind, enemy_general_alive: bool) -> i32 {
    match kind {
        Kind::General => 1000,
        Kind::LieutenantGeneral => 800,
        Kind::MajorGeneral => 650,
        Kind::Plane => 600,
        Kind::Tank => 480,
        Kind::Colonel => 430,
        Kind::LieutenantColonel => 390,
        Kind::Major => 350,
        Kind::Captain => 240,
        Kind::Lieutenant => 200,
        Kind::SecondLieutenant => 170,
        Kind::Cavalry => 150,
        Kind::Engineer => 230,
        Kind::Spy => {
            if enemy_general_alive {
                380
            } else {
                40
            }
        }
        Kind::Mine => 220,
        Kind::Flag => 120,
    }
}

/// Evaluation weights; levels differ in how well they weigh the position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Weights {
    /// Per step closer to the enemy HQ, for an officer who can occupy.
    pub officer_advance: i32,
    /// Per step closer, for other mobile pieces.
    pub piece_advance: i32,
    /// An officer next to an empty enemy HQ.
    pub hq_threat: i32,
    /// Own HQ empty.
    pub hq_empty: i32,
    /// An officer near the enemy HQ that would beat its occupant: per (`NEAR_RADIUS` + 1 −
    /// distance)².
    pub hq_near: i32,
    /// Own HQ empty: per unit of enemy officers' closeness.
    pub hq_pressure: i32,
    /// Own HQ empty: per step the nearest own mobile piece is away from it (scaled by the
    /// enemy officers' closeness).
    pub hq_refill: i32,
    /// A won race for a headquarters: an officer that beats the HQ's occupant (or finds it
    /// empty) and that none of the defender's pieces able to stop it can meet in the HQ in time.
    /// Worth this much less `RACE_STEP` per move the officer still needs; the side whose officer
    /// arrives first gets it. The search sees only a few plies of a walk that takes ten.
    pub race: i32,
}

/// The greedy baseline's weights: material, approach, HQ basics.
pub(crate) const BASE_WEIGHTS: Weights = Weights {
    officer_advance: 14,
    piece_advance: 3,
    hq_threat: 600,
    hq_empty: 120,
    hq_near: 0,
    hq_pressure: 60,
    hq_refill: 0,
    race: 0,
};

/// The levels' weights: the baseline's plus officers closing in on an HQ they could take.
pub(crate) const LEVEL_WEIGHTS: Weights = Weights {
    hq_near: 15,
    ..BASE_WEIGHTS
};

/// The advanced level's weights: also keeps a piece ready to step back into an empty own HQ,
/// and sees who wins a race for a headquarters (to walk an unstoppable officer home, and to be
/// home in time to stop one).
pub(crate) const FULL_WEIGHTS: Weights = Weights {
    officer_advance: 14,
    piece_advance: 3,
    hq_threat: 600,
    hq_empty: 120,
    hq_near: 15,
    hq_pressure: 60,
    hq_refill: 40,
    race: 1500,
};

/// How far from the enemy HQ an officer that would beat its occupant starts to count as a threat.
const NEAR_RADIUS: i32 = 5;

/// The position's value for `side`.
pub(crate) fn evaluate(pos: &Position, side: Side, tables: &Tables, w: &Weights) -> i32 {
    match pos.status() {
        Status::Ongoing => {}
        Status::Won { winner, .. } => return if winner == side { WIN } else { -WIN },
        Status::Draw { .. } => return 0,
    }
    let mut general_alive = [false; 2];
    for (_, p) in pos.pieces() {
        if p.kind == Kind::General {
            general_alive[p.side.index()] = true;
        }
    }
    let mut score = [0i32; 2];
    let mut officers = [0i32; 2];
    // How close each side's officers are to the enemy HQ (for the defence term below).
    let mut pressure = [0i32; 2];
    for (sq, p) in pos.pieces() {
        let s = p.side.index();
        let enemy_general = general_alive[1 - s];
        let mut v = value(p.kind, enemy_general);
        if p.kind.is_mobile() {
            let d = tables.distance(p.side, sq);
            if p.kind.can_occupy() {
                officers[s] += 1;
                pressure[s] += (7 - d).max(0);
                v += (12 - d).max(0) * w.officer_advance;
                // Close to an enemy HQ it could take: a threat the enemy must answer.
                if d <= NEAR_RADIUS {
                    let beats = match pos.piece_at(Square::hq(p.side.opponent())) {
                        None => true,
                        Some(occ) => {
                            resolve_battle(p.kind, occ.kind, None, pos.rules()) == Outcome::Attacker
                        }
                    };
                    if beats {
                        v += (NEAR_RADIUS + 1 - d) * (NEAR_RADIUS + 1 - d) * w.hq_near;
                    }
                }
            } else {
                v += (12 - d).max(0) * w.piece_advance;
            }
        }
        score[s] += v;
    }
    for s in 0..2 {
        if officers[s] == 0 {
            score[s] -= 1500;
        }
        // An empty HQ invites the enemy officers in; someone should be ready to step back in.
        // With no enemy officer left nobody can occupy it, and the pieces are free to leave.
        let side_s = if s == 0 { Side::Sente } else { Side::Gote };
        if pos.piece_at(Square::hq(side_s)).is_none() && officers[1 - s] > 0 {
            score[s] -= w.hq_empty + pressure[1 - s] * w.hq_pressure;
            if w.hq_refill > 0 {
                let nearest = pos
                    .pieces()
                    .filter(|(_, p)| p.side == side_s && p.kind.is_mobile())
                    .map(|(sq, _)| tables.distance(side_s.opponent(), sq))
                    .min()
                    .unwrap_or(8);
                score[s] -= (nearest - 1).max(0) * w.hq_refill * (1 + pressure[1 - s]) / 4;
            }
        }
    }
    // An officer of the side to move next to the empty enemy HQ wins at once; one of the side
    // that just moved is a threat the mover must answer.
    let mover = pos.to_move();
    for (s, bonus) in [(mover, w.hq_threat * 5), (mover.opponent(), w.hq_threat)] {
        let hq = Square::hq(s.opponent());
        if pos.piece_at(hq).is_none()
            && hq.neighbours().any(|n| {
                pos.piece_at(n)
                    .is_some_and(|p| p.side == s && p.kind.can_occupy())
            })
        {
            score[s.index()] += bonus;
        }
    }
    if w.race != 0
        && let Some((winner, moves)) = race_winner(pos, tables)
    {
        score[winner.index()] += (w.race * (RACE_FAR - RACE_STEP * moves) / RACE_FAR).max(0);
    }
    let me = side.index();
    // The no-battle draw comes closer with every quiet ply: an advantage shrinks with it, so the
    // side ahead seeks battles and the side behind does not.
    let raw = score[me] - score[1 - me];
    raw * (130 - i32::from(pos.plies_without_battle().min(100))) / 130
}

/// A won race is worth `Weights::race` less this share of `RACE_FAR` per move the runner still
/// needs: nothing from `RACE_FAR / RACE_STEP` moves on.
const RACE_STEP: i32 = 100;
const RACE_FAR: i32 = 1500;

/// Whether a piece of kind `guard` stops an officer of kind `runner`: it beats or trades with it,
/// attacking or attacked.
fn stops(guard: Kind, runner: Kind, pos: &Position) -> bool {
    matches!(
        resolve_battle(guard, runner, None, pos.rules()),
        Outcome::Attacker | Outcome::Both
    ) || matches!(
        resolve_battle(runner, guard, None, pos.rules()),
        Outcome::Defender | Outcome::Both
    )
}

/// The moves `side`'s fastest officer needs to take the enemy HQ when no enemy piece that stops
/// it can reach that HQ first (stepping in before it; an occupant it beats must step out first),
/// ignoring interceptions on the way. Mines and flags wall their own side in, an own piece in the
/// way must step aside first, and the runner walks round the enemy's mines.
fn race_time(pos: &Position, side: Side, tables: &Tables) -> Option<i32> {
    let enemy = side.opponent();
    let hq = Square::hq(enemy);
    let occupant = pos.piece_at(hq).filter(|p| p.side == enemy);
    let takes = |kind: Kind| {
        kind.can_occupy()
            && occupant.is_none_or(|occ| {
                resolve_battle(kind, occ.kind, None, pos.rules()) == Outcome::Attacker
            })
    };
    // No officer near enough for a race worth anything: nothing to walk.
    let worth = |d: i32| RACE_STEP * d < RACE_FAR;
    if !pos
        .pieces()
        .any(|(sq, p)| p.side == side && takes(p.kind) && worth(tables.distance(side, sq)))
    {
        return None;
    }
    let mut walls = [0u64; 2];
    let mut crowd = [0u64; 2];
    for (sq, p) in pos.pieces() {
        let bit = 1u64 << sq.index();
        if p.kind.is_mobile() {
            crowd[p.side.index()] |= bit;
        } else {
            walls[p.side.index()] |= bit;
        }
        if p.kind == Kind::Mine {
            walls[side.index()] |= bit;
        }
    }
    let not_hq = !(1u64 << hq.index());
    let to_hq_runner = steps_within(hq, walls[side.index()], crowd[side.index()]);
    let to_hq_guard = steps_within(
        hq,
        walls[enemy.index()] & not_hq,
        crowd[enemy.index()] & not_hq,
    );
    // The enemy's own moves before the officer's last one.
    let enemy_first = pos.to_move() == enemy;
    let vacate = i32::from(occupant.is_some());
    pos.pieces()
        .filter(|(_, p)| p.side == side && takes(p.kind))
        .map(|(sq, p)| (i32::from(to_hq_runner[sq.index()]), p.kind))
        .filter(|&(t, runner)| {
            let spare = if enemy_first { t } else { t - 1 };
            worth(t)
                && !pos.pieces().any(|(g_sq, g)| {
                    g.side == enemy
                        && g.kind.is_mobile()
                        && i32::from(to_hq_guard[g_sq.index()]) + vacate <= spare
                        && stops(g.kind, runner, pos)
                })
        })
        .map(|(t, _)| t)
        .min()
}

/// The neighbours of each square, as bits of square indices.
fn neighbour_bits() -> &'static [u64; Square::COUNT] {
    static BITS: std::sync::OnceLock<[u64; Square::COUNT]> = std::sync::OnceLock::new();
    BITS.get_or_init(|| {
        let mut bits = [0u64; Square::COUNT];
        for sq in Square::all() {
            bits[sq.index()] = sq.neighbours().fold(0, |b, n| b | 1u64 << n.index());
        }
        bits
    })
}

/// Moves from every square to `to`, one orthogonal step at a time (bridges only across the
/// river), never through a square of `walls`, and a move more through each square of `crowd`
/// (an own piece that must step aside first); `u8::MAX` where no way leads.
fn steps_within(to: Square, walls: u64, crowd: u64) -> [u8; Square::COUNT] {
    let neighbours = neighbour_bits();
    let mut dist = [u8::MAX; Square::COUNT];
    dist[to.index()] = 0;
    // Squares by their distance so far (costs are one or two: a bucket queue).
    let mut buckets = [0u64; 2 * Square::COUNT + 2];
    buckets[0] = 1u64 << to.index();
    for d in 0..buckets.len() {
        let mut open = buckets[d];
        while open != 0 {
            let i = open.trailing_zeros() as usize;
            open &= open - 1;
            let bit = 1u64 << i;
            if usize::from(dist[i]) != d || (i != to.index() && walls & bit != 0) {
                continue;
            }
            // Stepping onto square i from a neighbour means first clearing it, if crowded.
            let cost = d + 1 + usize::from(i != to.index() && crowd & bit != 0);
            let mut next = neighbours[i];
            while next != 0 {
                let n = next.trailing_zeros() as usize;
                next &= next - 1;
                if cost < usize::from(dist[n]) && cost < buckets.len() {
                    dist[n] = cost as u8;
                    buckets[cost] |= 1u64 << n;
                }
            }
        }
    }
    dist
}

/// The side that wins a race for a headquarters, and the moves its officer needs.
fn race_winner(pos: &Position, tables: &Tables) -> Option<(Side, i32)> {
    let mover = pos.to_move();
    let other = mover.opponent();
    match (race_time(pos, mover, tables), race_time(pos, other, tables)) {
        (Some(a), Some(b)) if a <= b => Some((mover, a)),
        (_, Some(b)) => Some((other, b)),
        (Some(a), None) => Some((mover, a)),
        (None, None) => None,
    }
}

/// A search in one world with a shared node and time budget.
pub(crate) struct Searcher<'b, 't> {
    pub tables: &'t Tables,
    pub weights: Weights,
    pub nodes: u64,
    max_nodes: u64,
    time_ms: Option<f64>,
    /// Whether the time limit only stops the search, taking no part in how it shares its work.
    time_stops_only: bool,
    timer: &'t Timer<'b>,
    pub aborted: bool,
    qdepth: u8,
    /// Answer an enemy officer next to the own HQ in the quiescence search instead of standing
    /// pat (like a check extension in chess).
    pub hq_check: bool,
    /// Below the root, a side also starts a battle whose expected material gain, by what it can
    /// know, is positive (a spy on a piece that may be the general), not only one it is likely
    /// to win.
    pub battle_worth: bool,
    /// What each side can know follows the shapes of the moves made below the root.
    pub shapes: bool,
    /// Quiet moves that cut the search off, two per ply: tried early at the same ply elsewhere.
    killers: [[Option<Move>; 2]; MAX_PLY],
    /// How often each quiet move (from, to) cut the search off, weighted by depth.
    history: Box<[[u32; Square::COUNT]; Square::COUNT]>,
    /// Values found so far, by position key (one entry per slot, the latest kept). Empty until
    /// the first search two plies deep needs it: one-ply levels never pay for it.
    table: Vec<Entry>,
}

/// Slots in the transposition table (a power of two).
const TABLE_SLOTS: usize = 1 << 16;

/// What the transposition table remembers of one searched position.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    value: i32,
    depth: u8,
    bound: Bound,
    best: Option<Move>,
}

/// How a remembered value relates to the true one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Exact,
    /// The true value is at least this (the search was cut off above).
    Lower,
    /// The true value is at most this (no move reached alpha).
    Upper,
}

/// Plies below the root that keep killer moves.
const MAX_PLY: usize = 24;

impl<'b, 't> Searcher<'b, 't> {
    pub(crate) fn new(
        tables: &'t Tables,
        weights: Weights,
        budget: &Budget<'b>,
        timer: &'t Timer<'b>,
        time_share: f64,
    ) -> Searcher<'b, 't> {
        Searcher {
            tables,
            weights,
            nodes: 0,
            max_nodes: budget.max_nodes.unwrap_or(u64::MAX),
            time_ms: if budget.time_stops_only {
                budget.time_ms.map(crate::budget::steady_stop_ms)
            } else {
                budget.time_ms.map(|t| t * time_share)
            },
            time_stops_only: budget.time_stops_only,
            timer,
            aborted: false,
            qdepth: 3,
            hq_check: false,
            battle_worth: false,
            shapes: false,
            killers: [[None; 2]; MAX_PLY],
            history: Box::new([[0; Square::COUNT]; Square::COUNT]),
            table: Vec::new(),
        }
    }

    /// The share of the budget spent so far (the larger of nodes and time), 0.0 to 1.0+.
    pub(crate) fn spent(&self) -> f64 {
        let by_nodes = if self.max_nodes == u64::MAX {
            0.0
        } else {
            self.nodes as f64 / self.max_nodes as f64
        };
        let by_time = match (self.time_ms, self.timer.elapsed_ms()) {
            _ if self.time_stops_only => 0.0,
            (Some(limit), Some(el)) if limit > 0.0 => el / limit,
            _ => 0.0,
        };
        by_nodes.max(by_time)
    }

    /// Whether the budget is spent.
    pub(crate) fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.max_nodes {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(256)
            && let (Some(limit), Some(el)) = (self.time_ms, self.timer.elapsed_ms())
            && el >= limit
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The value of each root move for the side to move, searched `depth` plies deep. `None` if
    /// the budget ran out before every move was scored.
    pub(crate) fn root_scores(
        &mut self,
        pos: &Position,
        moves: &[Move],
        depth: u8,
        known: &Known,
    ) -> Option<Vec<i32>> {
        let mut out = Vec::with_capacity(moves.len());
        let key = self.tables.key(pos);
        for &mv in moves {
            let mut child = pos.clone();
            if child.play(mv).is_err() {
                out.push(-INF);
                continue;
            }
            let next = known.after(pos, mv, &child, self.shapes);
            let child_key = self.tables.key_after(key, pos, mv, &child);
            let v = -self.negamax(
                &child,
                child_key,
                depth.saturating_sub(1),
                -INF,
                INF,
                1,
                &next,
            );
            if self.aborted {
                return None;
            }
            out.push(v);
        }
        Some(out)
    }

    // The position's key travels with it so that each move updates it instead of rehashing.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        key: u64,
        depth: u8,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        known: &Known,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let side = pos.to_move();
        if !pos.status().is_ongoing() {
            return terminal(pos, side, ply);
        }
        if depth == 0 {
            return self.quiesce(pos, alpha, beta, ply, self.qdepth, known);
        }
        if self.table.is_empty() {
            self.table = vec![Entry::default(); TABLE_SLOTS];
        }
        let entry = self.table[(key as usize) & (TABLE_SLOTS - 1)];
        let mut remembered = None;
        if entry.key == key {
            remembered = entry.best;
            if entry.depth >= depth {
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => entry.value >= beta,
                    Bound::Upper => entry.value <= alpha,
                };
                if usable {
                    return entry.value;
                }
            }
        }
        let alpha_before = alpha;
        let slot = usize::try_from(ply).unwrap_or(0).min(MAX_PLY - 1);
        let mut moves = ordered(pos, &self.killers[slot], &self.history);
        if let Some(first) = remembered
            && let Some(at) = moves.iter().position(|&m| m == first)
        {
            moves[..=at].rotate_right(1);
        }
        let mut best = -INF;
        let mut best_move = None;
        for mv in moves {
            if !known.fair(pos, mv, self.battle_worth) {
                continue;
            }
            let mut child = pos.clone();
            if child.play(mv).is_err() {
                continue;
            }
            let next = known.after(pos, mv, &child, self.shapes);
            let child_key = self.tables.key_after(key, pos, mv, &child);
            let v = -self.negamax(&child, child_key, depth - 1, -beta, -alpha, ply + 1, &next);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                if pos.piece_at(mv.to).is_none() {
                    let k = &mut self.killers[slot];
                    if k[0] != Some(mv) {
                        k[1] = k[0];
                        k[0] = Some(mv);
                    }
                    let h = &mut self.history[mv.from.index()][mv.to.index()];
                    *h = h.saturating_add(u32::from(depth) * u32::from(depth));
                }
                break;
            }
        }
        if best == -INF {
            best = evaluate(pos, side, self.tables, &self.weights);
        }
        let bound = if best <= alpha_before {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table[(key as usize) & (TABLE_SLOTS - 1)] = Entry {
            key,
            value: best,
            depth,
            bound,
            best: best_move,
        };
        best
    }

    /// Battles and entries into the enemy HQ only, with the option to stand pat.
    fn quiesce(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        left: u8,
        known: &Known,
    ) -> i32 {
        self.nodes += 1;
        let side = pos.to_move();
        if !pos.status().is_ongoing() {
            return terminal(pos, side, ply);
        }
        let stand = evaluate(pos, side, self.tables, &self.weights);
        let in_danger = self.hq_check && left > 0 && hq_in_danger(pos, side);
        if self.out_of_budget() || (!in_danger && (left == 0 || stand >= beta)) {
            return stand;
        }
        let enemy_hq = Square::hq(side.opponent());
        // In danger, standing pat is no answer: every move is searched and the best one counts.
        let mut best = if in_danger { -INF } else { stand };
        if !in_danger {
            alpha = alpha.max(stand);
        }
        for mv in pos.legal_moves() {
            let quiet = pos.piece_at(mv.to).is_none() && mv.to != enemy_hq;
            if (quiet && !in_danger) || !known.fair(pos, mv, self.battle_worth) {
                continue;
            }
            let mut child = pos.clone();
            if child.play(mv).is_err() {
                continue;
            }
            let next = known.after(pos, mv, &child, self.shapes);
            let v = -self.quiesce(&child, -beta, -alpha, ply + 1, left - 1, &next);
            if self.aborted {
                return best;
            }
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        if best == -INF { stand } else { best }
    }
}

/// Whether an enemy officer next to `side`'s HQ would take it with its next move.
fn hq_in_danger(pos: &Position, side: Side) -> bool {
    let hq = Square::hq(side);
    let occupant = pos.piece_at(hq);
    hq.neighbours().any(|n| {
        pos.piece_at(n).is_some_and(|p| {
            p.side != side
                && p.kind.can_occupy()
                && occupant.is_none_or(|o| {
                    resolve_battle(p.kind, o.kind, None, pos.rules()) == Outcome::Attacker
                })
        })
    })
}

/// What each side can know about the kind of the piece on each square: for the viewer's pieces,
/// what the enemy can know; for the enemy's, what the viewer knows. Below the root, a side only
/// starts a battle whose outcome it can be sure of, one it is likely to win, one for the enemy HQ
/// or (where the searcher asks for it) one worth its risk in expectation: searching the imagined
/// world must not let either side pick its battles by kinds it cannot see.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Known {
    kinds: [KindSet; Square::COUNT],
}

impl Known {
    /// Nothing known about anybody.
    pub(crate) fn nothing() -> Known {
        Known {
            kinds: [KindSet::ALL; Square::COUNT],
        }
    }

    /// From the kinds each piece on the board can be, as its opponent sees it.
    pub(crate) fn from_squares(kinds: impl IntoIterator<Item = (Square, KindSet)>) -> Known {
        let mut k = Known::nothing();
        for (sq, set) in kinds {
            k.kinds[sq.index()] = set;
        }
        k
    }

    /// Whether the mover can start this move knowing what it leads to; with `worth`, also a
    /// battle whose material gain summed over the kinds it cannot rule out is positive.
    fn fair(&self, pos: &Position, mv: Move, worth: bool) -> bool {
        let Some(def) = pos.piece_at(mv.to) else {
            return true;
        };
        if mv.to.is_hq() {
            return true;
        }
        let Some(att) = pos.piece_at(mv.from) else {
            return false;
        };
        let behind = mv
            .to
            .behind(def.side)
            .and_then(|b| pos.piece_at(b))
            .filter(|b| b.side == def.side)
            .map(|b| b.kind);
        // Sure of the outcome, or likely enough to win that a sensible player would try.
        let set = self.kinds[mv.to.index()];
        let (mut wins, mut total) = (0u32, 0u32);
        let mut first = None;
        let mut same = true;
        let mut gain = 0i32;
        let lost = if worth { value(att.kind, true) } else { 0 };
        for k in set.iter() {
            let o = resolve_battle(att.kind, k, behind, pos.rules());
            total += 1;
            wins += u32::from(o == Outcome::Attacker);
            // Summed only when asked for: this runs for every battle the search meets.
            if worth {
                gain += match o {
                    Outcome::Attacker => value(k, true),
                    Outcome::Defender => -lost,
                    Outcome::Both => value(k, true) - lost,
                };
            }
            match first {
                None => first = Some(o),
                Some(f) => same &= f == o,
            }
        }
        same || wins * 10 >= total * 6 || (worth && gain > 0)
    }

    /// After `mv` took `before` to `after`: the mover carries what is known about it, and with
    /// `shapes` also what the move's shape showed (a flight marks a plane, a long sideways slide
    /// an engineer: public at once, as the belief engine reads the real history).
    fn after(&self, before: &Position, mv: Move, after: &Position, shapes: bool) -> Known {
        let mut next = *self;
        let mover = before.piece_at(mv.from);
        if after.piece_at(mv.to).is_some() && after.piece_at(mv.to) == mover {
            let mut kinds = self.kinds[mv.from.index()];
            if shapes && !mv.from.neighbours().any(|n| n == mv.to) {
                let shown = shape_kinds(before, mv).and(kinds);
                if !shown.is_empty() {
                    kinds = shown;
                }
            }
            next.kinds[mv.to.index()] = kinds;
        }
        next.kinds[mv.from.index()] = KindSet::ALL;
        next
    }
}

/// The kinds that could have made `mv`, a move longer than one step, on `before`'s board.
fn shape_kinds(before: &Position, mv: Move) -> KindSet {
    let mut kinds = KindSet::EMPTY;
    for (probe, shows) in [
        (Kind::Tank, KindSet::of(&[Kind::Tank, Kind::Cavalry])),
        (Kind::Engineer, KindSet::only(Kind::Engineer)),
        (Kind::Plane, KindSet::only(Kind::Plane)),
    ] {
        if before.could_move_as(mv, probe) {
            kinds = kinds.union(shows);
        }
    }
    kinds
}

fn terminal(pos: &Position, side: Side, ply: i32) -> i32 {
    match pos.status() {
        Status::Won { winner, .. } if winner == side => WIN - ply,
        Status::Won { .. } => -WIN + ply,
        _ => 0,
    }
}

/// Legal moves: HQ entries, then winning battles (richest prey first), the killer moves, even
/// trades, quiet moves (most often cutting off first, then forward first) and losing battles
/// last.
fn ordered(
    pos: &Position,
    killers: &[Option<Move>; 2],
    history: &[[u32; Square::COUNT]; Square::COUNT],
) -> MoveList {
    let mut moves = pos.legal_moves();
    let side = pos.to_move();
    let enemy_hq = Square::hq(side.opponent());
    let key = |mv: &Move| -> i32 {
        if mv.to == enemy_hq {
            return -10_000;
        }
        if let (Some(def), Some(att)) = (pos.piece_at(mv.to), pos.piece_at(mv.from)) {
            let behind = mv
                .to
                .behind(def.side)
                .and_then(|b| pos.piece_at(b))
                .filter(|b| b.side == def.side)
                .map(|b| b.kind);
            return match resolve_battle(att.kind, def.kind, behind, pos.rules()) {
                Outcome::Attacker => -5000 - value(def.kind, true),
                Outcome::Both => -1000 - value(def.kind, true) + value(att.kind, true),
                Outcome::Defender => 5000 + value(att.kind, true),
            };
        }
        if killers.contains(&Some(*mv)) {
            return -4000;
        }
        let fwd = i32::from(mv.to.relative_row(side)) - i32::from(mv.from.relative_row(side));
        let cut_offs = history[mv.from.index()][mv.to.index()].min(900) as i32;
        -cut_offs * 4 - fwd
    };
    moves.sort_by_key(key);
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use gunjin::Ruleset;

    fn sq(name: &str) -> Square {
        Square::parse(name).expect("a square of the board")
    }

    fn piece(side: Side, kind: Kind) -> Piece {
        Piece { side, kind }
    }

    /// Sente to move; a captain holds sente's HQ and a gote major stands two steps away, free to
    /// step next to the HQ and take it on the following move.
    fn major_two_steps_from_a_weak_hq() -> Position {
        Position::from_pieces(
            Ruleset::STANDARD,
            [
                (sq("cd1"), piece(Side::Sente, Kind::Captain)),
                (sq("f4"), piece(Side::Sente, Kind::Cavalry)),
                (sq("a1"), piece(Side::Sente, Kind::Colonel)),
                (sq("c3"), piece(Side::Gote, Kind::Major)),
                (sq("f8"), piece(Side::Gote, Kind::General)),
            ],
            Side::Sente,
            0,
        )
        .expect("a legal arrangement")
    }

    fn score_of_quiet_move(hq_check: bool) -> i32 {
        let pos = major_two_steps_from_a_weak_hq();
        let tables = Tables::new();
        let budget = Budget::nodes(200_000);
        let timer = budget.start();
        let mut search = Searcher::new(&tables, LEVEL_WEIGHTS, &budget, &timer, 1.0);
        search.hq_check = hq_check;
        let known = Known::from_squares(pos.pieces().map(|(s, p)| (s, KindSet::only(p.kind))));
        let quiet = Move {
            from: sq("f4"),
            to: sq("f3"),
        };
        assert!(pos.is_legal(quiet));
        search
            .root_scores(&pos, &[quiet], 2, &known)
            .expect("within budget")[0]
    }

    #[test]
    fn a_battle_worth_its_risk_is_searched_though_it_is_not_likely_won() {
        // Gote's spy across the bridge from a sente piece that gote knows to be the general or a
        // colonel: it wins only against the general, so it is not likely to win, but the general
        // is worth far more than the spy.
        let pos = Position::from_pieces(
            Ruleset::STANDARD,
            [
                (sq("b4"), piece(Side::Sente, Kind::General)),
                (sq("a1"), piece(Side::Sente, Kind::Major)),
                (sq("b5"), piece(Side::Gote, Kind::Spy)),
                (sq("f8"), piece(Side::Gote, Kind::Captain)),
            ],
            Side::Gote,
            0,
        )
        .expect("a legal arrangement");
        let attack = Move {
            from: sq("b5"),
            to: sq("b4"),
        };
        assert!(pos.is_legal(attack));
        let maybe_general = Known::from_squares([
            (sq("b4"), KindSet::of(&[Kind::General, Kind::Colonel])),
            (sq("b5"), KindSet::only(Kind::Spy)),
        ]);
        assert!(!maybe_general.fair(&pos, attack, false));
        assert!(maybe_general.fair(&pos, attack, true));
        // Among four kinds it could be, the general alone is not worth the spy's likely loss.
        let one_in_four = Known::from_squares([(
            sq("b4"),
            KindSet::of(&[Kind::General, Kind::Colonel, Kind::Major, Kind::Captain]),
        )]);
        assert!(!one_in_four.fair(&pos, attack, true));
    }

    #[test]
    fn the_hq_check_sees_a_threat_one_move_beyond_the_depth() {
        // Two plies end with the major next to the HQ and sente to move: standing pat hides
        // the loss, answering the threat shows it.
        let blind = score_of_quiet_move(false);
        let seeing = score_of_quiet_move(true);
        assert!(blind > -WIN / 2, "without the check: {blind}");
        assert!(seeing < -WIN / 2, "with the check: {seeing}");
    }

    #[test]
    fn steps_follow_the_board_and_its_bridges() {
        assert_eq!(steps_from(sq("a1"))[sq("a1").index()], 0);
        assert_eq!(steps_from(sq("b1"))[sq("a1").index()], 1);
        assert_eq!(steps_from(sq("cd1"))[sq("b1").index()], 1);
        // Across the river only over a bridge: a4 to a5 goes round by b4-b5.
        assert_eq!(steps_from(sq("a5"))[sq("a4").index()], 3);
        assert_eq!(steps_from(sq("c5"))[sq("c4").index()], 3);
        assert_eq!(steps_from(sq("cd8"))[sq("cd1").index()], 9);
    }

    #[test]
    fn an_empty_hq_costs_nothing_once_the_enemy_has_no_officer_to_occupy_it() {
        // Sente's general steps out of its HQ towards gote's, which only an engineer defends.
        let with_enemy = |kind: Kind| {
            Position::from_pieces(
                Ruleset::STANDARD,
                [
                    (sq("d2"), piece(Side::Sente, Kind::General)),
                    (sq("a1"), piece(Side::Sente, Kind::Captain)),
                    (sq("f6"), piece(Side::Gote, kind)),
                    (sq("a8"), piece(Side::Gote, Kind::Engineer)),
                ],
                Side::Gote,
                0,
            )
            .expect("a legal arrangement")
        };
        let tables = Tables::new();
        let held = |kind: Kind| {
            let pos = with_enemy(kind);
            let mut pieces: Vec<(Square, Piece)> = pos.pieces().collect();
            pieces.retain(|&(s, _)| s != sq("d2"));
            pieces.push((sq("cd1"), piece(Side::Sente, Kind::General)));
            let in_hq = Position::from_pieces(Ruleset::STANDARD, pieces, Side::Gote, 0)
                .expect("a legal arrangement");
            evaluate(&pos, Side::Sente, &tables, &FULL_WEIGHTS)
                - evaluate(&in_hq, Side::Sente, &tables, &FULL_WEIGHTS)
        };
        // Against a major the step out costs (the HQ stands empty); against a lone tank it
        // gains (the general is a step closer to the enemy HQ).
        assert!(held(Kind::Major) < 0, "{}", held(Kind::Major));
        assert!(held(Kind::Tank) > 0, "{}", held(Kind::Tank));
    }

    #[test]
    fn danger_needs_an_officer_next_to_the_hq_that_beats_its_occupant() {
        let pos = |occupant: Kind, attacker: Kind, at: &str| {
            Position::from_pieces(
                Ruleset::STANDARD,
                [
                    (sq("cd1"), piece(Side::Sente, occupant)),
                    (sq("a1"), piece(Side::Sente, Kind::Colonel)),
                    (sq(at), piece(Side::Gote, attacker)),
                    (sq("f8"), piece(Side::Gote, Kind::Captain)),
                ],
                Side::Sente,
                0,
            )
            .expect("a legal arrangement")
        };
        assert!(hq_in_danger(
            &pos(Kind::Captain, Kind::Major, "c2"),
            Side::Sente
        ));
        assert!(hq_in_danger(
            &pos(Kind::Captain, Kind::Major, "e1"),
            Side::Sente
        ));
        // Two steps away, beaten by the occupant, or unable to occupy: no danger yet.
        assert!(!hq_in_danger(
            &pos(Kind::Captain, Kind::Major, "c3"),
            Side::Sente
        ));
        assert!(!hq_in_danger(
            &pos(Kind::General, Kind::Major, "c2"),
            Side::Sente
        ));
        assert!(!hq_in_danger(
            &pos(Kind::Captain, Kind::Tank, "c2"),
            Side::Sente
        ));
        assert!(!hq_in_danger(
            &pos(Kind::Mine, Kind::Major, "d2"),
            Side::Sente
        ));
    }

    /// Plain minimax over the same tree the search walks (same depth, same battles and HQ
    /// answers below it, same fairness), without any pruning or memory.
    fn minimax(s: &Searcher<'_, '_>, pos: &Position, depth: u8, ply: i32, known: &Known) -> i32 {
        let side = pos.to_move();
        if !pos.status().is_ongoing() {
            return terminal(pos, side, ply);
        }
        let quiescent = depth == 0;
        let left = if quiescent { 3 } else { depth };
        minimax_q(s, pos, quiescent, left, ply, known)
    }

    fn minimax_q(
        s: &Searcher<'_, '_>,
        pos: &Position,
        quiescent: bool,
        left: u8,
        ply: i32,
        known: &Known,
    ) -> i32 {
        let side = pos.to_move();
        if !pos.status().is_ongoing() {
            return terminal(pos, side, ply);
        }
        let stand = evaluate(pos, side, s.tables, &s.weights);
        let in_danger = quiescent && s.hq_check && left > 0 && hq_in_danger(pos, side);
        if quiescent && !in_danger && left == 0 {
            return stand;
        }
        let enemy_hq = Square::hq(side.opponent());
        let mut best = if quiescent && !in_danger { stand } else { -INF };
        for mv in pos.legal_moves() {
            let quiet = pos.piece_at(mv.to).is_none() && mv.to != enemy_hq;
            if (quiescent && quiet && !in_danger) || !known.fair(pos, mv, s.battle_worth) {
                continue;
            }
            let mut child = pos.clone();
            child.play(mv).expect("a legal move");
            let next = known.after(pos, mv, &child, s.shapes);
            let v = if quiescent {
                -minimax_q(s, &child, true, left - 1, ply + 1, &next)
            } else {
                -minimax(s, &child, left - 1, ply + 1, &next)
            };
            best = best.max(v);
        }
        if best == -INF { stand } else { best }
    }

    /// Small random positions: a few pieces a side anywhere on the board, sente to move.
    fn small_positions(count: usize) -> Vec<Position> {
        let mut rng = SmallRng::seed_from_u64(11);
        let mut out = Vec::new();
        while out.len() < count {
            let mut squares: Vec<Square> =
                (0..Square::COUNT).filter_map(Square::from_index).collect();
            let mut pieces = Vec::new();
            for side in Side::ALL {
                for _ in 0..3 {
                    let at = squares.swap_remove(rng.random_range(0..squares.len()));
                    let kind = Kind::ALL[rng.random_range(0..Kind::ALL.len())];
                    pieces.push((at, piece(side, kind)));
                }
            }
            if let Ok(pos) = Position::from_pieces(Ruleset::STANDARD, pieces, Side::Sente, 0)
                && pos.status().is_ongoing()
                && pos.legal_moves().len() > 3
            {
                out.push(pos);
            }
        }
        out
    }

    #[test]
    fn pruning_killers_and_the_table_keep_the_exact_root_values() {
        let tables = Tables::new();
        let budget = Budget::unlimited();
        let timer = budget.start();
        for pos in small_positions(8) {
            let known = Known::from_squares(pos.pieces().map(|(s, p)| (s, KindSet::only(p.kind))));
            let moves = pos.legal_moves();
            let mut search = Searcher::new(&tables, LEVEL_WEIGHTS, &budget, &timer, 1.0);
            search.hq_check = true;
            for depth in [2, 4] {
                let fast = search
                    .root_scores(&pos, &moves, depth, &known)
                    .expect("no budget limit");
                let slow: Vec<i32> = moves
                    .iter()
                    .map(|&mv| {
                        let mut child = pos.clone();
                        child.play(mv).expect("a legal move");
                        -minimax(
                            &search,
                            &child,
                            depth - 1,
                            1,
                            &known.after(&pos, mv, &child, search.shapes),
                        )
                    })
                    .collect();
                assert_eq!(fast, slow, "depth {depth}\n{pos:?}");
            }
        }
    }

    #[test]
    fn a_slide_sideways_shows_an_engineer_to_the_enemy_below_the_root() {
        let before = super::race_tests::position(&[
            ("a3", Side::Sente, Kind::Engineer),
            ("cd1", Side::Sente, Kind::General),
            ("e4", Side::Gote, Kind::Captain),
            ("cd8", Side::Gote, Kind::General),
        ]);
        let slide = Move {
            from: sq("a3"),
            to: sq("e3"),
        };
        let mut after = before.clone();
        after.play(slide).expect("a legal slide");
        // Gote knows nothing of the piece but that it moves.
        let known = Known::from_squares([(sq("a3"), KindSet::MOBILE)]);
        let strike = Move {
            from: sq("e4"),
            to: sq("e3"),
        };
        // Without the shape a captain would not gamble on an unknown piece; with it the slide
        // has shown an engineer, which the captain beats for certain.
        assert!(
            !known
                .after(&before, slide, &after, false)
                .fair(&after, strike, false)
        );
        let shown = known.after(&before, slide, &after, true);
        assert_eq!(shown.kinds[sq("e3").index()], KindSet::only(Kind::Engineer));
        assert!(shown.fair(&after, strike, false));
        // A single step shows nothing.
        let step = Move {
            from: sq("a3"),
            to: sq("b3"),
        };
        let mut stepped = before.clone();
        stepped.play(step).expect("a legal step");
        assert_eq!(
            known.after(&before, step, &stepped, true).kinds[sq("b3").index()],
            KindSet::MOBILE
        );
    }
}

#[cfg(test)]
pub(crate) mod race_tests {
    use super::*;
    use gunjin::Ruleset;

    /// The pieces on the named squares, sente to move, no quiet plies (for other modules' tests
    /// too).
    pub(crate) fn position(pieces: &[(&str, Side, Kind)]) -> Position {
        Position::from_pieces(
            Ruleset::STANDARD,
            pieces.iter().map(|&(name, side, kind)| {
                let sq = Square::parse(name).expect("a square of the board");
                (sq, Piece { side, kind })
            }),
            Side::Sente,
            0,
        )
        .expect("a legal arrangement")
    }

    #[test]
    fn the_race_term_pulls_the_runner_home() {
        // Sente's lieutenant general on `at`, nothing of gote's able to stop it.
        let runner_on = |at: &str| {
            position(&[
                ("cd1", Side::Sente, Kind::Captain),
                (at, Side::Sente, Kind::LieutenantGeneral),
                ("cd8", Side::Gote, Kind::Captain),
                ("a7", Side::Gote, Kind::Tank),
            ])
        };
        let (far, near) = (runner_on("c3"), runner_on("c6"));
        let tables = Tables::new();
        let with = |pos: &Position| evaluate(pos, Side::Sente, &tables, &FULL_WEIGHTS);
        let without = |pos: &Position| {
            let w = Weights {
                race: 0,
                ..FULL_WEIGHTS
            };
            evaluate(pos, Side::Sente, &tables, &w)
        };
        let gain = |pos: &Position| with(pos) - without(pos);
        assert!(gain(&far) > 0, "a runner is worth something from afar");
        assert!(gain(&near) > gain(&far), "and more the closer it is");
        // A mine in gote's HQ stops it (the officer and the mine would both be removed).
        let mined = position(&[
            ("cd1", Side::Sente, Kind::Captain),
            ("c6", Side::Sente, Kind::LieutenantGeneral),
            ("cd8", Side::Gote, Kind::Mine),
            ("a7", Side::Gote, Kind::Tank),
        ]);
        assert_eq!(gain(&mined), 0);
    }

    /// The pieces on the named squares with `to_move` to move.
    fn position_with(pieces: &[(&str, Side, Kind)], to_move: Side) -> Position {
        let pos = position(pieces);
        Position::from_pieces(
            Ruleset::STANDARD,
            pos.pieces().collect::<Vec<_>>(),
            to_move,
            0,
        )
        .expect("a legal arrangement")
    }

    fn bits(names: &[&str]) -> u64 {
        names.iter().fold(0, |b, n| {
            b | 1u64 << Square::parse(n).expect("a square").index()
        })
    }

    #[test]
    fn steps_go_round_walls_and_wait_for_own_pieces_to_step_aside() {
        let cd1 = Square::hq(Side::Sente);
        let at =
            |d: &[u8; Square::COUNT], name: &str| d[Square::parse(name).expect("a square").index()];
        let open = steps_within(cd1, 0, 0);
        assert_eq!(at(&open, "f1"), 2);
        assert_eq!(at(&open, "b2"), 2);
        let walled = steps_within(cd1, bits(&["e1", "f2"]), 0);
        assert_eq!(
            at(&walled, "f1"),
            u8::MAX,
            "boxed in by its own mine and flag"
        );
        assert_eq!(at(&walled, "e2"), 2);
        let crowded = steps_within(cd1, 0, bits(&["b1", "c2"]));
        assert_eq!(at(&crowded, "b2"), 3, "one of them must step aside first");
        assert_eq!(at(&crowded, "a1"), 3);
        assert_eq!(at(&crowded, "d3"), 2);
    }

    #[test]
    fn a_race_is_won_by_an_officer_nothing_can_stop_in_time() {
        let tables = Tables::new();
        // Sente's lieutenant general three moves from gote's HQ, which a captain holds.
        let with_gote_general_on = |at: &str| {
            position(&[
                ("cd1", Side::Sente, Kind::General),
                ("c5", Side::Sente, Kind::LieutenantGeneral),
                ("cd8", Side::Gote, Kind::Captain),
                (at, Side::Gote, Kind::General),
            ])
        };
        assert_eq!(
            race_winner(&with_gote_general_on("f5"), &tables),
            Some((Side::Sente, 3)),
            "gote's general is too far to step into its HQ in time"
        );
        assert_eq!(
            race_winner(&with_gote_general_on("d7"), &tables),
            None,
            "the captain steps out and the general in"
        );
    }

    #[test]
    fn a_guard_walled_in_by_its_own_mine_and_flag_cannot_come_back() {
        let tables = Tables::new();
        // Gote's lieutenant general three moves from sente's HQ, which a plane holds; sente's
        // lieutenant general, which would trade with it, waits on f1.
        let sente_hq_with = |mine: &str, flag: &str| {
            position(&[
                ("cd1", Side::Sente, Kind::Plane),
                ("f1", Side::Sente, Kind::LieutenantGeneral),
                (mine, Side::Sente, Kind::Mine),
                (flag, Side::Sente, Kind::Flag),
                ("d4", Side::Gote, Kind::LieutenantGeneral),
                ("cd8", Side::Gote, Kind::Mine),
            ])
        };
        assert_eq!(
            race_winner(&sente_hq_with("e1", "f2"), &tables),
            Some((Side::Gote, 3))
        );
        assert_eq!(race_winner(&sente_hq_with("a1", "a2"), &tables), None);
    }

    #[test]
    fn of_two_equal_races_the_side_to_move_wins() {
        let tables = Tables::new();
        let pieces = [
            ("cd1", Side::Sente, Kind::Captain),
            ("c5", Side::Sente, Kind::LieutenantGeneral),
            ("cd8", Side::Gote, Kind::Captain),
            ("d4", Side::Gote, Kind::LieutenantGeneral),
        ];
        for side in Side::ALL {
            assert_eq!(
                race_winner(&position_with(&pieces, side), &tables),
                Some((side, 3)),
                "{side} to move"
            );
        }
        // The term goes to the winner, and is worth more the closer the race is to its end.
        let pos = position_with(&pieces, Side::Sente);
        let w = Weights {
            race: 1500,
            ..FULL_WEIGHTS
        };
        let gain = evaluate(&pos, Side::Sente, &tables, &w)
            - evaluate(&pos, Side::Sente, &tables, &Weights { race: 0, ..w });
        assert_eq!(gain, 1500 * (RACE_FAR - 3 * RACE_STEP) / RACE_FAR);
    }
}
