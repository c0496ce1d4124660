//! The measuring-only player that is told some enemy kinds (arena only, `omniscient` feature):
//! told nothing it is the level itself; told the kinds, it plays on them.
#![cfg(feature = "omniscient")]

use gunjin::rand::{RngExt, SeedableRng, rngs::SmallRng};
use gunjin::{BySide, Deployment, Game, Kind, Ruleset, Square};
use gunjin_ai::omniscient::choose_move_told;
use gunjin_ai::{Budget, Level, choose_move};

/// Positions after some random plies from automatic deployments, with the side to move.
fn positions() -> Vec<Game> {
    let mut out = Vec::new();
    for seed in 0..16u64 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let deployments =
            BySide::new_with(|side| Deployment::auto_with(side, &Ruleset::STANDARD, &mut rng));
        let mut game = Game::new(Ruleset::STANDARD, deployments).expect("game");
        for _ in 0..rng.random_range(10..40) {
            let moves = game.position().legal_moves();
            if moves.is_empty() || !game.status().is_ongoing() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            game.play(mv).expect("legal");
        }
        if game.status().is_ongoing() {
            out.push(game);
        }
    }
    out
}

#[test]
fn told_nothing_it_is_the_level_and_told_everything_it_plays_on_the_truth() {
    let budget = Budget::nodes(20_000);
    let mut changed = 0;
    let games = positions();
    assert!(games.len() >= 10);
    for (i, game) in games.iter().enumerate() {
        let side = game.position().to_move();
        let view = game.view(side);
        let seed = i as u64;
        let plain = choose_move(&view, Level::Intermediate, &budget, seed);
        assert_eq!(
            choose_move_told(&view, Level::Intermediate, &budget, seed, &[]),
            plain
        );
        let everything: Vec<(Square, Kind)> =
            game.deployments()[side.opponent()].pieces().collect();
        let told = choose_move_told(&view, Level::Intermediate, &budget, seed, &everything)
            .expect("a move");
        assert!(game.position().is_legal(told));
        changed += usize::from(Some(told) != plain);
    }
    // Knowing every kind must change some decisions, or the telling never reached the belief.
    assert!(
        changed >= 2,
        "only {changed} of {} moves changed",
        games.len()
    );
}
