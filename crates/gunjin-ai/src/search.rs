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
    let mut dist = [u8::MAX; Square::COUNT];
    dist[from.index()] = 0;
    let mut frontier = vec![from];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for sq in frontier {
            for n in sq.neighbours() {
                if dist[n.index()] == u8::MAX {
                    dist[n.index()] = dist[sq.index()] + 1;
                    next.push(n);
                }
            }
        }
        frontier = next;
    }
    dist
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
    /// Per step the side's nearest unstoppable runner (an officer no enemy mobile piece beats,
    /// that would take the enemy HQ from its occupant) is closer to that HQ than 14: the
    /// search alone sees too few plies to walk a won ending home, and shuffles instead.
    pub runner: i32,
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
    runner: 0,
};

/// The levels' weights: the baseline's plus officers closing in on an HQ they could take.
pub(crate) const LEVEL_WEIGHTS: Weights = Weights {
    hq_near: 15,
    ..BASE_WEIGHTS
};

/// The advanced level's weights: also keeps a piece ready to step back into an empty own HQ,
/// and walks an unstoppable officer home.
pub(crate) const FULL_WEIGHTS: Weights = Weights {
    officer_advance: 14,
    piece_advance: 3,
    hq_threat: 600,
    hq_empty: 120,
    hq_near: 15,
    hq_pressure: 60,
    hq_refill: 40,
    runner: 60,
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
    if w.runner != 0 {
        for s in Side::ALL {
            if let Some(d) = nearest_runner(pos, s, tables) {
                score[s.index()] += w.runner * (14 - d).max(0);
            }
        }
    }
    let me = side.index();
    // The no-battle draw comes closer with every quiet ply: an advantage shrinks with it, so the
    // side ahead seeks battles and the side behind does not.
    let raw = score[me] - score[1 - me];
    raw * (130 - i32::from(pos.plies_without_battle().min(100))) / 130
}

/// The distance to the enemy HQ of `side`'s nearest officer that no enemy mobile piece beats
/// and that beats the HQ's occupant (or finds it empty): nothing can stop it walking in.
fn nearest_runner(pos: &Position, side: Side, tables: &Tables) -> Option<i32> {
    let enemy_mobile: KindSet = pos
        .pieces()
        .filter(|(_, p)| p.side != side && p.kind.is_mobile())
        .map(|(_, p)| p.kind)
        .collect();
    let occupant = pos.piece_at(Square::hq(side.opponent()));
    let mut stoppable = [None::<bool>; 16];
    pos.pieces()
        .filter(|(_, p)| p.side == side && p.kind.can_occupy())
        .filter(|(_, p)| {
            let takes = occupant.is_none_or(|occ| {
                resolve_battle(p.kind, occ.kind, None, pos.rules()) == Outcome::Attacker
            });
            takes
                && !*stoppable[p.kind.index()].get_or_insert_with(|| {
                    enemy_mobile
                        .iter()
                        .any(|k| resolve_battle(k, p.kind, None, pos.rules()) == Outcome::Attacker)
                })
        })
        .map(|(sq, _)| tables.distance(side, sq))
        .min()
}

/// A search in one world with a shared node and time budget.
pub(crate) struct Searcher<'b, 't> {
    pub tables: &'t Tables,
    pub weights: Weights,
    pub nodes: u64,
    max_nodes: u64,
    time_ms: Option<f64>,
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
            time_ms: budget.time_ms.map(|t| t * time_share),
            timer,
            aborted: false,
            qdepth: 3,
            hq_check: false,
            battle_worth: false,
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
            let next = known.after(pos, mv, &child);
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
            let next = known.after(pos, mv, &child);
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
            let next = known.after(pos, mv, &child);
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

    /// After `mv` took `before` to `after`: the mover carries what is known about it.
    fn after(&self, before: &Position, mv: Move, after: &Position) -> Known {
        let mut next = *self;
        let mover = before.piece_at(mv.from);
        if after.piece_at(mv.to).is_some() && after.piece_at(mv.to) == mover {
            next.kinds[mv.to.index()] = self.kinds[mv.from.index()];
        }
        next.kinds[mv.from.index()] = KindSet::ALL;
        next
    }
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
            let next = known.after(pos, mv, &child);
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
                            &known.after(&pos, mv, &child),
                        )
                    })
                    .collect();
                assert_eq!(fast, slow, "depth {depth}\n{pos:?}");
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod runner_tests {
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
    fn an_officer_nothing_beats_is_a_runner() {
        // Sente's lieutenant general on c4: gote's mobile pieces are a captain and a tank,
        // neither of which beats it, and a captain holds gote's HQ.
        let pos = position(&[
            ("cd1", Side::Sente, Kind::Captain),
            ("c4", Side::Sente, Kind::LieutenantGeneral),
            ("cd8", Side::Gote, Kind::Captain),
            ("a7", Side::Gote, Kind::Tank),
        ]);
        let tables = Tables::new();
        let d = nearest_runner(&pos, Side::Sente, &tables);
        assert_eq!(
            d,
            Some(tables.distance(Side::Sente, Square::parse("c4").expect("sq")))
        );
        // Gote's captains are no runners: sente's lieutenant general beats them.
        assert_eq!(nearest_runner(&pos, Side::Gote, &tables), None);
    }

    #[test]
    fn a_piece_that_beats_it_or_a_mine_in_the_hq_stops_the_runner() {
        let tables = Tables::new();
        let spy = position(&[
            ("cd1", Side::Sente, Kind::Captain),
            ("c4", Side::Sente, Kind::General),
            ("cd8", Side::Gote, Kind::Captain),
            ("a7", Side::Gote, Kind::Spy),
        ]);
        assert_eq!(
            nearest_runner(&spy, Side::Sente, &tables),
            None,
            "the spy beats the general"
        );
        let mined = position(&[
            ("cd1", Side::Sente, Kind::Captain),
            ("c4", Side::Sente, Kind::LieutenantGeneral),
            ("cd8", Side::Gote, Kind::Mine),
            ("a7", Side::Gote, Kind::Tank),
        ]);
        assert_eq!(
            nearest_runner(&mined, Side::Sente, &tables),
            None,
            "a mine holds the HQ"
        );
    }

    #[test]
    fn the_runner_term_pulls_the_runner_home() {
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
                runner: 0,
                ..FULL_WEIGHTS
            };
            evaluate(pos, Side::Sente, &tables, &w)
        };
        let gain = |pos: &Position| with(pos) - without(pos);
        assert!(gain(&far) > 0, "a runner is worth something anywhere");
        assert!(gain(&near) > gain(&far), "and more the closer it is");
    }
}
