//! A player that sees the whole board: for measuring the others only. Behind the `omniscient`
//! feature, which the page and the server never enable.

use gunjin::{Move, Position};

pub use crate::player::choose_move_told;

use crate::budget::Budget;
use crate::kindset::KindSet;
use crate::search::{FULL_WEIGHTS, Known, Searcher, Tables};

/// The advanced search run on the true position (no sampling: it knows every kind).
#[must_use]
pub fn choose_move_seeing_all(position: &Position, budget: &Budget<'_>) -> Option<Move> {
    let moves = position.legal_moves();
    if moves.len() <= 1 {
        return moves.first().copied();
    }
    let tables = Tables::new();
    let mut budget = *budget;
    budget.max_nodes = Some(budget.nodes_for(3_000_000));
    let timer = budget.start();
    let mut search = Searcher::new(&tables, FULL_WEIGHTS, &budget, &timer, 0.4);
    // It knows every kind, so every battle's outcome is certain.
    let known = Known::from_squares(position.pieces().map(|(sq, p)| (sq, KindSet::only(p.kind))));
    let mut best = search.root_scores(position, &moves, 1, &known)?;
    for depth in 2..=4 {
        match search.root_scores(position, &moves, depth, &known) {
            Some(s) => best = s,
            None => break,
        }
    }
    let i = (0..moves.len()).max_by_key(|&i| best[i])?;
    Some(moves[i])
}

/// The value of each of `moves` in the true position, searched `depth` plies deep by the
/// advanced search with every kind known to both sides: an oracle to score other players'
/// choices against. `None` if the budget ran out.
#[must_use]
pub fn move_values_seeing_all(
    position: &Position,
    moves: &[Move],
    depth: u8,
    budget: &Budget<'_>,
) -> Option<Vec<i32>> {
    let tables = Tables::new();
    let timer = budget.start();
    let mut search = Searcher::new(&tables, FULL_WEIGHTS, budget, &timer, 1.0);
    search.hq_check = true;
    let known = Known::from_squares(position.pieces().map(|(sq, p)| (sq, KindSet::only(p.kind))));
    search.root_scores(position, moves, depth, &known)
}
