//! Property tests over random games and arbitrary input: pieces are conserved, legal moves apply,
//! illegal moves change nothing, views never hold enemy kinds before the end, records round-trip,
//! automatic arrangements are legal, and nothing panics.

#![allow(clippy::unwrap_used)]

use gunjin::rand::rngs::SmallRng;
use gunjin::rand::{RngExt, SeedableRng};
use gunjin::wire::WireView;
use gunjin::{
    BySide, Deployment, Game, GameRecord, Kind, Move, MoveError, Piece, PlayerView, Position,
    Ruleset, Setup, Side, Square,
};
use proptest::prelude::*;

const STD: Ruleset = Ruleset::STANDARD;

fn square(i: usize) -> Square {
    Square::from_index(i % Square::COUNT).unwrap()
}

fn new_game(seed_sente: u64, seed_gote: u64) -> Game {
    let deployments = BySide {
        sente: Deployment::auto_with(Side::Sente, &STD, &mut SmallRng::seed_from_u64(seed_sente)),
        gote: Deployment::auto_with(Side::Gote, &STD, &mut SmallRng::seed_from_u64(seed_gote)),
    };
    Game::new(STD, deployments).unwrap()
}

/// Every piece is on the board or removed: per side and per kind.
fn assert_conserved(p: &Position) {
    for side in Side::ALL {
        let mut on_board = [0u8; 16];
        for (_, piece) in p.pieces().filter(|(_, q)| q.side == side) {
            on_board[piece.kind.index()] += 1;
        }
        let removed = p.removed_counts(side);
        for kind in Kind::ALL {
            assert_eq!(
                on_board[kind.index()] + removed[kind.index()],
                kind.count(),
                "{side} {kind}"
            );
        }
        assert_eq!(
            on_board.iter().map(|&n| usize::from(n)).sum::<usize>() + p.removed(side).len(),
            23
        );
    }
}

/// The view's JSON carries no enemy kind while the game is on, and every kind after.
fn assert_view_hides_enemy_kinds(game: &Game) {
    for side in Side::ALL {
        let view = game.view(side);
        let json = serde_json::to_value(WireView::from(&view)).unwrap();
        let ongoing = game.status().is_ongoing();
        assert_eq!(view.revealed().is_none(), ongoing);
        for (name, piece) in json["pieces"].as_object().unwrap() {
            let enemy = piece["side"] != side.id();
            if enemy && ongoing {
                assert_eq!(
                    piece,
                    &serde_json::json!({"side": side.opponent().id()}),
                    "{name}"
                );
            } else {
                assert!(piece["kind"].is_string(), "{name}");
            }
        }
        assert!(
            json["removed"].get("enemy").is_none(),
            "§10: enemy removals by count only"
        );
        let enemy_kinds_in_view = view.enemy().len();
        assert_eq!(
            enemy_kinds_in_view,
            game.position()
                .pieces()
                .filter(|(_, p)| p.side != side)
                .count()
        );
    }
}

/// Plays a random game, checking the invariants at every ply. Returns the finished game (or
/// the game after `max_plies`).
fn random_game(seed_sente: u64, seed_gote: u64, seed_moves: u64, max_plies: usize) -> Game {
    let mut game = new_game(seed_sente, seed_gote);
    let mut rng = SmallRng::seed_from_u64(seed_moves);
    while game.status().is_ongoing() && game.history().len() < max_plies {
        let pos = game.position().clone();
        assert_conserved(&pos);
        let moves = pos.legal_moves();
        assert!(!moves.is_empty(), "an ongoing game has a move to play");
        // Every legal move applies.
        for &m in &moves {
            let mut copy = pos.clone();
            let played = copy.play(m).unwrap();
            assert_eq!(played.mover, pos.piece_at(m.from).unwrap());
            assert_eq!(played.battle.is_some(), pos.piece_at(m.to).is_some());
            assert_conserved(&copy);
        }
        // Random (from, to) pairs that are not legal are refused and change nothing.
        for _ in 0..8 {
            let m = Move {
                from: square(rng.random_range(0..Square::COUNT)),
                to: square(rng.random_range(0..Square::COUNT)),
            };
            if moves.contains(&m) {
                continue;
            }
            let mut copy = pos.clone();
            assert!(matches!(copy.play(m), Err(MoveError::Illegal { .. })));
            assert_eq!(copy, pos);
            if game.history().len().is_multiple_of(16) {
                let mut g = game.clone();
                assert!(g.play(m).is_err());
                assert_eq!(g, game);
            }
        }
        let m = moves[rng.random_range(0..moves.len())];
        let ply = game.play(m).unwrap();
        // Views are checked often, and always around battles.
        if ply.battle.is_some() || game.history().len().is_multiple_of(8) {
            assert_view_hides_enemy_kinds(&game);
        }
    }
    assert_view_hides_enemy_kinds(&game);
    assert_conserved(game.position());
    game
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_rule_invariant(
        seed_sente in any::<u64>(),
        seed_gote in any::<u64>(),
        seed_moves in any::<u64>(),
    ) {
        let game = random_game(seed_sente, seed_gote, seed_moves, 300);
        if !game.status().is_ongoing() {
            let mut after = game.clone();
            prop_assert_eq!(after.play(Move { from: Square::HQ_SENTE, to: Square::HQ_GOTE }),
                Err(MoveError::GameOver));
            prop_assert!(after.position().legal_moves().is_empty());
        }
    }

    #[test]
    fn records_round_trip_through_json_and_replay_to_the_same_game(
        seed_sente in any::<u64>(),
        seed_gote in any::<u64>(),
        seed_moves in any::<u64>(),
        plies in 0usize..300,
        resign in proptest::option::of(any::<bool>()),
    ) {
        let mut game = new_game(seed_sente, seed_gote);
        let mut rng = SmallRng::seed_from_u64(seed_moves);
        while game.status().is_ongoing() && game.history().len() < plies {
            let moves = game.position().legal_moves();
            game.play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
        if let Some(sente) = resign
            && game.status().is_ongoing()
        {
            game.resign(if sente { Side::Sente } else { Side::Gote }).unwrap();
        }
        let record = game.record();
        let text = serde_json::to_string(&record).unwrap();
        let back: GameRecord = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(&back, &record);
        let replayed = back.replay().unwrap();
        prop_assert_eq!(&replayed, &game);
        prop_assert_eq!(replayed.position(), game.position());
        for side in Side::ALL {
            prop_assert_eq!(replayed.view(side), game.view(side));
        }
    }

    #[test]
    fn a_tampered_record_is_refused_without_panic(
        seed in any::<u64>(),
        plies in 1usize..120,
        index in any::<prop::sample::Index>(),
        to in 0usize..46,
    ) {
        let game = random_game_quick(seed, plies);
        let mut record = game.record();
        if record.plies.is_empty() {
            return Ok(());
        }
        let i = index.index(record.plies.len());
        record.plies[i].to = square(to);
        // Either the replay refuses the record, or the record is a true game: replaying it
        // gives a game whose own record is the same.
        if let Ok(replayed) = record.replay() {
            prop_assert_eq!(replayed.record(), record);
        }
    }

    #[test]
    fn auto_arrangement_is_always_legal(seed in any::<u64>(), gote in any::<bool>()) {
        let side = if gote { Side::Gote } else { Side::Sente };
        let d = Deployment::auto_with(side, &STD, &mut SmallRng::seed_from_u64(seed));
        prop_assert_eq!(Deployment::new(side, &d.to_setup(), &STD), Ok(d.clone()));
        let m = d.mirrored();
        prop_assert_eq!(Deployment::new(side, &m.to_setup(), &STD), Ok(m));
    }

    #[test]
    fn swaps_are_legal_or_refused_never_panic(
        seed in any::<u64>(),
        a in 0usize..46,
        b in 0usize..46,
    ) {
        let d = Deployment::auto(Side::Sente, seed);
        let (sa, sb) = (square(a), square(b));
        match d.swapped(sa, sb) {
            Ok(s) => {
                prop_assert_eq!(Deployment::new(Side::Sente, &s.to_setup(), &STD), Ok(s.clone()));
                prop_assert_eq!(s.kind_at(sa), d.kind_at(sb));
                prop_assert_eq!(s.kind_at(sb), d.kind_at(sa));
            }
            Err(gunjin::SwapError::OutsideCamp { square, .. }) => {
                prop_assert!(square.camp() != Side::Sente);
            }
            Err(gunjin::SwapError::Refused(v)) => {
                let (ka, kb) = (d.kind_at(sa).unwrap(), d.kind_at(sb).unwrap());
                let found = [(sb, ka), (sa, kb)]
                    .into_iter()
                    .any(|(sq, k)| gunjin::placement_violation(Side::Sente, sq, k, &STD) == Some(v.clone()));
                prop_assert!(found, "{v}");
            }
        }
    }

    #[test]
    fn arbitrary_setups_never_panic_and_only_legal_ones_pass(
        entries in proptest::collection::vec((0usize..60, 0usize..18), 0..40),
        gote in any::<bool>(),
    ) {
        let side = if gote { Side::Gote } else { Side::Sente };
        let mut setup = Setup::default();
        for (s, k) in entries {
            if let (Some(sq), Some(&kind)) = (Square::from_index(s), Kind::ALL.get(k)) {
                setup.pieces.push((sq, kind));
            }
        }
        match Deployment::new(side, &setup, &STD) {
            Ok(d) => {
                prop_assert_eq!(d.pieces().count(), 23);
                for (sq, kind) in d.pieces() {
                    prop_assert!(gunjin::placement_violation(side, sq, kind, &STD).is_none());
                }
            }
            Err(e) => prop_assert!(!e.violations.is_empty()),
        }
    }

    #[test]
    fn arbitrary_names_never_panic(name in ".{0,6}", kind in ".{0,20}") {
        let parsed = Square::parse(&name);
        if let Some(s) = parsed {
            prop_assert!(s.name() == name || ["c1", "d1", "c8", "d8"].contains(&name.as_str()));
        }
        let setup = Setup::from_names([(name.as_str(), kind.as_str())]);
        prop_assert!(Deployment::new(Side::Sente, &setup, &STD).is_err());
    }

    #[test]
    fn arbitrary_square_indices_never_panic(i in any::<usize>(), col in any::<u8>(), row in any::<u8>()) {
        prop_assert_eq!(Square::from_index(i).is_some(), i < 46);
        if let Some(s) = Square::at(col, row) {
            prop_assert!(col <= 5 && (1..=8).contains(&row));
            prop_assert_eq!(s.row(), row);
        }
    }

    #[test]
    fn arbitrary_positions_never_panic_and_keep_invariants(
        placed in proptest::collection::vec((0usize..46, any::<bool>(), 0usize..16), 0..46),
        gote_to_move in any::<bool>(),
        plies in 0u16..120,
        tries in proptest::collection::vec((0usize..46, 0usize..46), 1..30),
    ) {
        let pieces = placed.into_iter().map(|(s, g, k)| {
            (square(s), Piece { side: if g { Side::Gote } else { Side::Sente }, kind: Kind::ALL[k] })
        });
        let to_move = if gote_to_move { Side::Gote } else { Side::Sente };
        let Ok(mut p) = Position::from_pieces(STD, pieces, to_move, plies) else {
            return Ok(());
        };
        assert_conserved(&p);
        for (a, b) in tries {
            let m = Move { from: square(a), to: square(b) };
            let legal = p.legal_moves();
            let before = p.clone();
            match p.play(m) {
                Ok(_) => prop_assert!(legal.contains(&m)),
                Err(_) => {
                    prop_assert!(!legal.contains(&m));
                    prop_assert_eq!(&p, &before);
                }
            }
            assert_conserved(&p);
            let _ = p.destinations(square(a));
        }
    }

    #[test]
    fn arbitrary_json_never_panics_as_a_view_or_record(text in ".{0,200}") {
        if let Ok(wire) = serde_json::from_str::<WireView>(&text) {
            let _ = PlayerView::try_from(wire);
        }
        if let Ok(record) = serde_json::from_str::<GameRecord>(&text) {
            let _ = record.replay();
        }
    }
}

fn random_game_quick(seed: u64, plies: usize) -> Game {
    let mut game = new_game(seed, seed ^ 0x5eed);
    let mut rng = SmallRng::seed_from_u64(seed);
    while game.status().is_ongoing() && game.history().len() < plies {
        let moves = game.position().legal_moves();
        game.play(moves[rng.random_range(0..moves.len())]).unwrap();
    }
    game
}

#[test]
fn a_wire_view_of_a_random_game_with_enemy_kinds_is_refused_while_on() {
    let game = random_game_quick(3, 40);
    assert!(game.status().is_ongoing());
    let mut wire = WireView::from(&game.view(Side::Gote));
    let &s = game.view(Side::Gote).enemy().first().unwrap();
    wire.pieces.get_mut(&s).unwrap().kind = Some(Kind::Spy);
    assert!(PlayerView::try_from(wire).is_err());
}
