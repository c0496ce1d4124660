//! Search inside one imagined world (a full position whose enemy kinds were sampled), and the
//! evaluation it uses: material, officers' approach to the enemy headquarters, the headquarters'
//! safety.

use gunjin::{Kind, Move, MoveList, Outcome, Position, Side, Square, Status, resolve_battle};

use crate::budget::{Budget, Timer};

/// Score of a won game (minus the plies it takes).
pub(crate) const WIN: i32 = 30_000;
const INF: i32 = 1_000_000;

/// Walking distances from every square to each side's target (the enemy headquarters).
pub(crate) struct Tables {
    /// `to_enemy_hq[side][sq]`: steps for `side`'s piece on `sq` to reach the opponent's HQ.
    to_enemy_hq: [[u8; Square::COUNT]; 2],
}

impl Tables {
    pub(crate) fn new() -> Tables {
        let mut to_enemy_hq = [[u8::MAX; Square::COUNT]; 2];
        for side in Side::ALL {
            let target = Square::hq(side.opponent());
            let dist = &mut to_enemy_hq[side.index()];
            dist[target.index()] = 0;
            let mut frontier = vec![target];
            let mut d = 0u8;
            while !frontier.is_empty() {
                d += 1;
                let mut next = Vec::new();
                for sq in frontier {
                    for n in sq.neighbours() {
                        if dist[n.index()] == u8::MAX {
                            dist[n.index()] = d;
                            next.push(n);
                        }
                    }
                }
                frontier = next;
            }
        }
        Tables { to_enemy_hq }
    }

    fn distance(&self, side: Side, sq: Square) -> i32 {
        i32::from(self.to_enemy_hq[side.index()][sq.index()].min(20))
    }
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
}

pub(crate) const FULL_WEIGHTS: Weights = Weights {
    officer_advance: 14,
    piece_advance: 3,
    hq_threat: 600,
};

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
    for (sq, p) in pos.pieces() {
        let s = p.side.index();
        let enemy_general = general_alive[1 - s];
        let mut v = value(p.kind, enemy_general);
        if p.kind.is_mobile() {
            let d = tables.distance(p.side, sq);
            if p.kind.can_occupy() {
                officers[s] += 1;
                v += (12 - d).max(0) * w.officer_advance;
                if d == 1 && pos.piece_at(Square::hq(p.side.opponent())).is_none() {
                    v += w.hq_threat;
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
    }
    let me = side.index();
    score[me] - score[1 - me]
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
}

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
        }
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
    ) -> Option<Vec<i32>> {
        let mut out = Vec::with_capacity(moves.len());
        for &mv in moves {
            let mut child = pos.clone();
            if child.play(mv).is_err() {
                out.push(-INF);
                continue;
            }
            let v = -self.negamax(&child, depth.saturating_sub(1), -INF, INF, 1);
            if self.aborted {
                return None;
            }
            out.push(v);
        }
        Some(out)
    }

    fn negamax(&mut self, pos: &Position, depth: u8, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let side = pos.to_move();
        if !pos.status().is_ongoing() {
            return terminal(pos, side, ply);
        }
        if depth == 0 {
            return self.quiesce(pos, alpha, beta, ply, self.qdepth);
        }
        let moves = ordered(pos);
        let mut best = -INF;
        for mv in moves {
            let mut child = pos.clone();
            if child.play(mv).is_err() {
                continue;
            }
            let v = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                break;
            }
        }
        if best == -INF {
            evaluate(pos, side, self.tables, &self.weights)
        } else {
            best
        }
    }

    /// Battles and entries into the enemy HQ only, with the option to stand pat.
    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: i32, left: u8) -> i32 {
        self.nodes += 1;
        let side = pos.to_move();
        if !pos.status().is_ongoing() {
            return terminal(pos, side, ply);
        }
        let stand = evaluate(pos, side, self.tables, &self.weights);
        if left == 0 || stand >= beta || self.out_of_budget() {
            return stand;
        }
        alpha = alpha.max(stand);
        let enemy_hq = Square::hq(side.opponent());
        let mut best = stand;
        for mv in pos.legal_moves() {
            if pos.piece_at(mv.to).is_none() && mv.to != enemy_hq {
                continue;
            }
            let mut child = pos.clone();
            if child.play(mv).is_err() {
                continue;
            }
            let v = -self.quiesce(&child, -beta, -alpha, ply + 1, left - 1);
            if self.aborted {
                return best;
            }
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

fn terminal(pos: &Position, side: Side, ply: i32) -> i32 {
    match pos.status() {
        Status::Won { winner, .. } if winner == side => WIN - ply,
        Status::Won { .. } => -WIN + ply,
        _ => 0,
    }
}

/// Legal moves: HQ entries, then winning battles (richest prey first), even trades, quiet moves
/// (forward first) and losing battles last.
fn ordered(pos: &Position) -> MoveList {
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
        let fwd = i32::from(mv.to.relative_row(side)) - i32::from(mv.from.relative_row(side));
        -fwd
    };
    moves.sort_by_key(key);
    moves
}
