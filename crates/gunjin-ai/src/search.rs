//! Search inside one imagined world (a full position whose enemy kinds were sampled), and the
//! evaluation it uses: material, officers' approach to the enemy headquarters, the headquarters'
//! safety.

use gunjin::{Kind, Move, MoveList, Outcome, Position, Side, Square, Status, resolve_battle};

use crate::budget::{Budget, Timer};
use crate::kindset::KindSet;

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
};

/// The levels' weights: the baseline's plus officers closing in on an HQ they could take.
pub(crate) const LEVEL_WEIGHTS: Weights = Weights {
    hq_near: 15,
    ..BASE_WEIGHTS
};

/// The advanced level's weights: also keeps a piece ready to step back into an empty own HQ.
pub(crate) const FULL_WEIGHTS: Weights = Weights {
    officer_advance: 14,
    piece_advance: 3,
    hq_threat: 600,
    hq_empty: 120,
    hq_near: 15,
    hq_pressure: 60,
    hq_refill: 40,
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
        let side_s = if s == 0 { Side::Sente } else { Side::Gote };
        if pos.piece_at(Square::hq(side_s)).is_none() {
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
    let me = side.index();
    // The no-battle draw comes closer with every quiet ply: an advantage shrinks with it, so the
    // side ahead seeks battles and the side behind does not.
    let raw = score[me] - score[1 - me];
    raw * (130 - i32::from(pos.plies_without_battle().min(100))) / 130
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
            hq_check: false,
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
        for &mv in moves {
            let mut child = pos.clone();
            if child.play(mv).is_err() {
                out.push(-INF);
                continue;
            }
            let next = known.after(pos, mv, &child);
            let v = -self.negamax(&child, depth.saturating_sub(1), -INF, INF, 1, &next);
            if self.aborted {
                return None;
            }
            out.push(v);
        }
        Some(out)
    }

    fn negamax(
        &mut self,
        pos: &Position,
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
        let moves = ordered(pos);
        let mut best = -INF;
        for mv in moves {
            if !known.fair(pos, mv) {
                continue;
            }
            let mut child = pos.clone();
            if child.play(mv).is_err() {
                continue;
            }
            let next = known.after(pos, mv, &child);
            let v = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, &next);
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
            if (quiet && !in_danger) || !known.fair(pos, mv) {
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
/// starts a battle whose outcome it can be sure of (or one for the enemy HQ): searching the
/// imagined world must not let either side pick its battles by kinds it cannot see.
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

    /// Whether the mover can start this move knowing what it leads to.
    fn fair(&self, pos: &Position, mv: Move) -> bool {
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
        for k in set.iter() {
            let o = resolve_battle(att.kind, k, behind, pos.rules());
            total += 1;
            wins += u32::from(o == Outcome::Attacker);
            match first {
                None => first = Some(o),
                Some(f) => same &= f == o,
            }
        }
        same || wins * 10 >= total * 6
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

#[cfg(test)]
mod tests {
    use super::*;
    use gunjin::{Piece, Ruleset};

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
    fn the_hq_check_sees_a_threat_one_move_beyond_the_depth() {
        // Two plies end with the major next to the HQ and sente to move: standing pat hides
        // the loss, answering the threat shows it.
        let blind = score_of_quiet_move(false);
        let seeing = score_of_quiet_move(true);
        assert!(blind > -WIN / 2, "without the check: {blind}");
        assert!(seeing < -WIN / 2, "with the check: {seeing}");
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
}
