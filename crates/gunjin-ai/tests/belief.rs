//! The belief engine against the truth of real games: it never rules out a piece's real kind,
//! every kind it keeps has a complete world that replays the public history exactly, and small
//! hand-made cases come out exact.

use gunjin::rand::{RngExt, SeedableRng, rngs::SmallRng};
use gunjin::{BySide, Deployment, Game, Kind, Move, Ruleset, Setup, Side, Square};
use gunjin_ai::{Belief, KindSet};

fn sq(name: &str) -> Square {
    Square::parse(name).expect("square")
}

/// A random game of up to `plies` plies.
fn random_game(seed: u64, plies: usize) -> Game {
    let deployments =
        BySide::new_with(|side| Deployment::auto(side, seed * 7 + side.index() as u64));
    let mut game = Game::new(Ruleset::STANDARD, deployments).expect("game");
    let mut rng = SmallRng::seed_from_u64(seed);
    while game.status().is_ongoing() && game.history().len() < plies {
        let moves = game.position().legal_moves();
        let mv = moves[rng.random_range(0..moves.len())];
        game.play(mv).expect("legal");
    }
    game
}

/// Whether an imagined enemy deployment, with the viewer's real one, replays the view's
/// history with the same battles and reaches the same view.
fn replays(game: &Game, viewer: Side, world: &[(Square, Kind)]) -> bool {
    let enemy = viewer.opponent();
    let setup = Setup {
        pieces: world.to_vec(),
        unparsed: Vec::new(),
    };
    let Ok(dep) = Deployment::new(enemy, &setup, &Ruleset::STANDARD) else {
        return false;
    };
    let mut deployments = game.deployments().clone();
    deployments[enemy] = dep;
    let mut imagined = Game::new(Ruleset::STANDARD, deployments).expect("sides");
    for ply in game.history() {
        match imagined.play(ply.mv()) {
            Ok(p) if p == *ply => {}
            _ => return false,
        }
    }
    if !game.status().is_ongoing() {
        return true;
    }
    imagined.view(viewer) == game.view(viewer)
}

fn world_of(belief: &Belief, kinds: &[Kind; 23]) -> Vec<(Square, Kind)> {
    belief
        .pieces()
        .zip(kinds)
        .map(|(p, &k)| (p.initial, k))
        .collect()
}

#[test]
fn never_rules_out_the_true_kind() {
    for seed in 0..40u64 {
        let game = random_game(seed, 20 + (seed as usize * 13) % 220);
        for viewer in Side::ALL {
            let view = game.view(viewer);
            let truth = &game.deployments()[viewer.opponent()];
            let belief = Belief::of_enemy(&view);
            assert!(belief.is_exact(), "seed {seed}: history not followed");
            for p in belief.pieces() {
                let kind = truth.kind_at(p.initial).expect("camp square");
                assert!(
                    p.kinds.contains(kind),
                    "seed {seed}: {kind} on {} ruled out",
                    p.initial
                );
                if let Some(now) = p.square {
                    assert_eq!(game.position().piece_at(now).map(|q| q.kind), Some(kind));
                }
            }
            // What the opponent can know about the viewer is also never wrong.
            let own = Belief::of_own(&view);
            let mine = &game.deployments()[viewer];
            for p in own.pieces() {
                let kind = mine.kind_at(p.initial).expect("camp square");
                assert!(p.kinds.contains(kind), "seed {seed}: own {kind} ruled out");
            }
        }
    }
}

#[test]
fn sampled_worlds_replay_the_history() {
    let mut rng = SmallRng::seed_from_u64(5);
    for seed in 100..120u64 {
        let game = random_game(seed, 40 + (seed as usize * 17) % 200);
        for viewer in Side::ALL {
            let belief = Belief::of_enemy(&game.view(viewer));
            for _ in 0..3 {
                let kinds = belief.sample(&mut rng).expect("a world");
                assert!(
                    replays(&game, viewer, &world_of(&belief, &kinds)),
                    "seed {seed}: a sampled world contradicts the history"
                );
            }
        }
    }
}

/// Every kind the belief keeps for a piece has a world that replays the history: together with
/// `never_rules_out_the_true_kind` (any consistent world is the truth of some game) the sets are
/// exact.
#[test]
fn every_kept_kind_has_a_witness_world() {
    let mut rng = SmallRng::seed_from_u64(9);
    for seed in [3u64, 11, 27, 58] {
        let game = random_game(seed, 150);
        let viewer = Side::Sente;
        let belief = Belief::of_enemy(&game.view(viewer));
        for p in belief.pieces() {
            for kind in p.kinds.iter() {
                let forced = belief
                    .assume(p.initial, kind)
                    .unwrap_or_else(|| panic!("seed {seed}: {kind} on {} has no world", p.initial));
                let kinds = forced.sample(&mut rng).expect("a world");
                assert!(
                    replays(&game, viewer, &world_of(&forced, &kinds)),
                    "seed {seed}: witness for {kind} on {} fails",
                    p.initial
                );
            }
        }
    }
}

/// A deployment with the pieces on the named squares set as given (by swaps from an automatic
/// one; the first seed from `seed` on where every swap is legal).
fn arranged(side: Side, seed: u64, wants: &[(&str, Kind)]) -> Deployment {
    (seed..seed + 200)
        .find_map(|s| try_arranged(side, s, wants))
        .expect("some seed allows the arrangement")
}

fn try_arranged(side: Side, seed: u64, wants: &[(&str, Kind)]) -> Option<Deployment> {
    let mut dep = Deployment::auto(side, seed);
    for &(name, kind) in wants {
        let target = sq(name);
        if dep.kind_at(target) == Some(kind) {
            continue;
        }
        let from = dep
            .pieces()
            .find(|&(s, k)| k == kind && !wants.iter().any(|&(n, _)| sq(n) == s))
            .map(|(s, _)| s)?;
        dep = dep.swapped(from, target).ok()?;
    }
    wants
        .iter()
        .all(|&(n, k)| dep.kind_at(sq(n)) == Some(k))
        .then_some(dep)
}

fn play(game: &mut Game, from: &str, to: &str) {
    game.play(Move {
        from: sq(from),
        to: sq(to),
    })
    .expect("legal move");
}

#[test]
fn a_piece_that_beats_the_general_is_the_spy() {
    let sente = arranged(Side::Sente, 1, &[("b4", Kind::General), ("e4", Kind::Tank)]);
    let gote = arranged(Side::Gote, 2, &[("b5", Kind::Spy), ("e5", Kind::Captain)]);
    let mut game = Game::new(Ruleset::STANDARD, BySide { sente, gote }).expect("game");
    play(&mut game, "e4", "e5"); // tank beats captain
    play(&mut game, "b5", "b4"); // spy beats general
    let view = game.view(Side::Sente);
    let belief = Belief::of_enemy(&view);
    // The spy left b5 and now stands on b4.
    assert_eq!(belief.kinds_at(sq("b4")), Some(KindSet::only(Kind::Spy)));
    // Nobody else can be the spy.
    for p in belief.pieces().filter(|p| p.initial != sq("b5")) {
        assert!(
            !p.kinds.contains(Kind::Spy),
            "{} may still be the spy",
            p.initial
        );
    }
    // The piece the tank beat on e5 was weaker than a tank, or the engineer; not a mine (that
    // would have taken the tank with it) and not the flag (no flag on an entrance).
    let lost = belief.pieces().find(|p| p.initial == sq("e5")).expect("e5");
    assert_eq!(lost.square, None);
    let expected: KindSet = [
        Kind::Colonel,
        Kind::LieutenantColonel,
        Kind::Major,
        Kind::Captain,
        Kind::Lieutenant,
        Kind::SecondLieutenant,
        Kind::Cavalry,
        Kind::Engineer,
        Kind::Spy,
    ]
    .into_iter()
    .collect::<KindSet>()
    .without(Kind::Spy);
    assert_eq!(lost.kinds, expected);
    // Gote, on its side, learns that the general fell to its spy on b4.
    let about_sente = Belief::of_enemy(&game.view(Side::Gote));
    let b4 = about_sente
        .pieces()
        .find(|p| p.initial == sq("b4"))
        .expect("b4");
    assert_eq!(b4.kinds, KindSet::only(Kind::General));
}

#[test]
fn untouched_pieces_keep_the_setup_rules() {
    let game = random_game(1, 0);
    let belief = Belief::of_enemy(&game.view(Side::Sente));
    for p in belief.pieces() {
        let mut expected = KindSet::ALL;
        if p.initial.is_entrance_of(Side::Gote) {
            expected = expected.without(Kind::Mine).without(Kind::Flag);
        }
        if p.initial.relative_row(Side::Gote) == 1 {
            expected = expected.without(Kind::Flag);
        }
        assert_eq!(p.kinds, expected, "{}", p.initial);
    }
}

#[test]
fn a_flag_fights_with_the_piece_behind_it() {
    let sente = arranged(Side::Sente, 3, &[("c3", Kind::Plane)]);
    let gote = arranged(Side::Gote, 4, &[("c7", Kind::Flag), ("cd8", Kind::General)]);
    let mut game = Game::new(Ruleset::STANDARD, BySide { sente, gote }).expect("game");
    play(&mut game, "c3", "c7"); // the plane lands on the flag; the general behind wins for it
    assert_eq!(
        game.history()[0].battle.map(|b| b.outcome),
        Some(gunjin::Outcome::Defender)
    );
    let belief = Belief::of_enemy(&game.view(Side::Sente));
    let c7 = belief.kinds_at(sq("c7")).expect("c7");
    // Beats a plane when defending: the three highest officers, or the flag with one of them
    // behind it. Not a mine (a plane clears mines), not another plane (both would fall).
    let expected = KindSet::of(&[
        Kind::General,
        Kind::LieutenantGeneral,
        Kind::MajorGeneral,
        Kind::Flag,
    ]);
    assert_eq!(c7, expected);
    // Nothing is known of the headquarters yet: c7 may be an officer itself.
    assert_eq!(
        belief.kinds_at(sq("cd8")),
        Some(KindSet::ALL.without(Kind::Flag))
    );
    // But if c7 is the flag, the piece behind it must have beaten the plane.
    let if_flag = belief.assume(sq("c7"), Kind::Flag).expect("possible");
    assert_eq!(
        if_flag.kinds_at(sq("cd8")),
        Some(KindSet::of(&[
            Kind::General,
            Kind::LieutenantGeneral,
            Kind::MajorGeneral
        ]))
    );
    // And if the headquarters holds a mine, c7 cannot be the flag (a plane beats a mine).
    let if_mine = belief.assume(sq("cd8"), Kind::Mine).expect("possible");
    assert!(!if_mine.kinds_at(sq("c7")).expect("c7").contains(Kind::Flag));
}
