//! CPU games: every move legal, every game ends, and the hidden enemy kinds never change a
//! decision (the CPU cannot peek).

use gunjin::rand::{RngExt, SeedableRng, rngs::SmallRng};
use gunjin::{BySide, Deployment, Game, Kind, Ruleset, Side, Square};
use gunjin_ai::{Budget, Level, choose_deployment, choose_move, greedy_move, random_move};

fn budget() -> Budget<'static> {
    Budget::nodes(3_000)
}

#[test]
fn cpu_games_are_legal_and_end() {
    for (seed, (a, b)) in [
        (Level::Beginner, Level::Intermediate),
        (Level::Advanced, Level::Beginner),
    ]
    .into_iter()
    .enumerate()
    {
        let seed = seed as u64;
        let deployments = BySide {
            sente: choose_deployment(Side::Sente, a, seed),
            gote: choose_deployment(Side::Gote, b, seed + 1),
        };
        let mut game = Game::new(Ruleset::STANDARD, deployments).expect("game");
        let mut ply = 0u64;
        while game.status().is_ongoing() {
            let side = game.position().to_move();
            let level = if side == Side::Sente { a } else { b };
            let mv = choose_move(&game.view(side), level, &budget(), seed * 1000 + ply)
                .expect("a move while the game goes on");
            assert!(game.position().is_legal(mv), "{level} chose illegal {mv}");
            game.play(mv).expect("legal");
            ply += 1;
            assert!(ply < 5_000, "the game did not end");
        }
        // Not on its turn, or after the end: no move.
        assert_eq!(choose_move(&game.view(Side::Sente), a, &budget(), 0), None);
    }
}

#[test]
fn baselines_play_legal_moves() {
    let deployments = BySide::new_with(|s| Deployment::auto(s, 4));
    let mut game = Game::new(Ruleset::STANDARD, deployments).expect("game");
    for ply in 0..200u64 {
        if !game.status().is_ongoing() {
            break;
        }
        let side = game.position().to_move();
        let view = game.view(side);
        let mv = if side == Side::Sente {
            random_move(&view, ply)
        } else {
            greedy_move(&view, &budget(), ply)
        }
        .expect("a move");
        game.play(mv).expect("legal");
    }
}

/// An enemy deployment with the kinds of some untouched pieces exchanged: the same view, other
/// hidden kinds.
fn reshuffled(game: &Game, viewer: Side, rng: &mut SmallRng) -> Option<Deployment> {
    let enemy = viewer.opponent();
    let touched: Vec<Square> = game
        .history()
        .iter()
        .flat_map(|p| [Some(p.from), Some(p.to), p.to.behind(enemy)])
        .flatten()
        .collect();
    let untouched: Vec<Square> = gunjin::camp_squares(enemy)
        .filter(|sq| !touched.contains(sq))
        .collect();
    let mut dep = game.deployments()[enemy].clone();
    let mut changed = false;
    for _ in 0..40 {
        let a = untouched[rng.random_range(0..untouched.len())];
        let b = untouched[rng.random_range(0..untouched.len())];
        if dep.kind_at(a) != dep.kind_at(b)
            && let Ok(next) = dep.swapped(a, b)
        {
            dep = next;
            changed = true;
        }
    }
    changed.then_some(dep)
}

#[test]
fn hidden_kinds_never_change_the_move() {
    let mut rng = SmallRng::seed_from_u64(77);
    let mut checked = 0;
    for seed in 0..12u64 {
        let deployments = BySide::new_with(|s| Deployment::auto(s, seed * 3 + s.index() as u64));
        let mut game = Game::new(Ruleset::STANDARD, deployments).expect("game");
        let plies = 2 + (seed as usize * 5) % 30;
        while game.status().is_ongoing() && game.history().len() < plies {
            let moves = game.position().legal_moves();
            game.play(moves[rng.random_range(0..moves.len())])
                .expect("legal");
        }
        if !game.status().is_ongoing() {
            continue;
        }
        let viewer = game.position().to_move();
        let Some(other_enemy) = reshuffled(&game, viewer, &mut rng) else {
            continue;
        };
        let mut deployments = game.deployments().clone();
        deployments[viewer.opponent()] = other_enemy;
        let mut twin = Game::new(Ruleset::STANDARD, deployments).expect("game");
        for p in game.history() {
            twin.play(p.mv()).expect("same moves are legal");
        }
        let (view, twin_view) = (game.view(viewer), twin.view(viewer));
        assert_eq!(view, twin_view, "the views must be identical");
        let hidden_differs = Square::all().any(|sq| {
            game.position().piece_at(sq).map(|p| p.kind)
                != twin.position().piece_at(sq).map(|p| p.kind)
        });
        assert!(hidden_differs);
        for level in Level::ALL {
            let a = choose_move(&view, level, &Budget::nodes(4_000), seed);
            let b = choose_move(&twin_view, level, &Budget::nodes(4_000), seed);
            assert_eq!(a, b, "{level} peeked (seed {seed})");
        }
        checked += 1;
    }
    assert!(checked >= 6, "too few positions checked: {checked}");
}

#[test]
fn deployments_are_legal_for_every_level() {
    for level in Level::ALL {
        for side in Side::ALL {
            for seed in 0..5 {
                let d = choose_deployment(side, level, seed);
                assert_eq!(d.side(), side);
                let again = Deployment::new(side, &d.to_setup(), &Ruleset::STANDARD);
                assert_eq!(again.as_ref(), Ok(&d));
                assert_eq!(d.pieces().filter(|&(_, k)| k == Kind::Flag).count(), 1);
            }
        }
    }
}
