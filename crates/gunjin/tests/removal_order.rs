//! A view lists the viewer's removed pieces in the order they were removed, so a program handed
//! only the view (a CPU player) knows which of its pieces fell in which battle.

use gunjin::rand::{RngExt, SeedableRng, rngs::SmallRng};
use gunjin::{BySide, Deployment, Game, Kind, Outcome, Ruleset, Side};

#[test]
fn removed_own_follows_the_battles_in_order() {
    for seed in 0..20u64 {
        let deployments =
            BySide::new_with(|side| Deployment::auto(side, seed * 2 + side.index() as u64));
        let mut game = Game::new(Ruleset::STANDARD, deployments).unwrap();
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut expected: BySide<Vec<Kind>> = BySide::default();
        while game.status().is_ongoing() && game.history().len() < 400 {
            let moves = game.position().legal_moves();
            let mv = moves[rng.random_range(0..moves.len())];
            let mover = game.position().piece_at(mv.from).unwrap();
            let defender = game.position().piece_at(mv.to);
            let ply = game.play(mv).unwrap();
            if let (Some(battle), Some(def)) = (ply.battle, defender) {
                if matches!(battle.outcome, Outcome::Defender | Outcome::Both) {
                    expected[mover.side].push(mover.kind);
                }
                if matches!(battle.outcome, Outcome::Attacker | Outcome::Both) {
                    expected[def.side].push(def.kind);
                }
            }
        }
        for side in Side::ALL {
            assert_eq!(game.view(side).removed_own(), expected[side].as_slice());
            let mut sorted = expected[side].clone();
            sorted.sort();
            assert_eq!(sorted, game.position().removed(side));
        }
    }
}
