//! The engine's move generator against a plain reference written from §4 with the public line
//! tables: the same moves in the same order, in positions from random games and arbitrary ones.
//! (The order matters to callers that pick moves by index with a seeded generator.)

#![allow(clippy::unwrap_used)]

use gunjin::rand::rngs::SmallRng;
use gunjin::rand::{RngExt, SeedableRng};
use gunjin::{
    BySide, Deployment, Direction, DrawReason, Kind, Move, NO_BATTLE_LIMIT, Piece, Position,
    Ruleset, Side, Square, Status, WinReason,
};
use proptest::prelude::*;

/// §4 written plainly: every destination of the piece on `from`, in the engine's documented
/// order (square by square; per piece north, south, east, west; flights before side steps).
fn reference_moves(p: &Position, side: Side) -> Vec<Move> {
    let mut out = Vec::new();
    for from in Square::all() {
        let Some(piece) = p.piece_at(from) else {
            continue;
        };
        if piece.side != side {
            continue;
        }
        let free = |sq: Square| p.piece_at(sq).is_none_or(|q| q.side != side);
        let mut push = |to: Square| out.push(Move { from, to });
        let steps = |dirs: &[Direction], push: &mut dyn FnMut(Square)| {
            for &d in dirs {
                for ray in from.walk_rays(d) {
                    if free(ray[0]) {
                        push(ray[0]);
                    }
                }
            }
        };
        match piece.kind {
            Kind::Mine | Kind::Flag => {}
            Kind::Engineer => {
                for d in Direction::ALL {
                    for ray in from.walk_rays(d) {
                        for &sq in *ray {
                            match p.piece_at(sq) {
                                None => push(sq),
                                Some(q) => {
                                    if q.side != side {
                                        push(sq);
                                    }
                                    break;
                                }
                            }
                        }
                    }
                }
            }
            Kind::Plane => {
                for d in [Direction::North, Direction::South] {
                    for ray in from.fly_rays(d) {
                        for &sq in *ray {
                            if free(sq) {
                                push(sq);
                            }
                        }
                    }
                }
                steps(&[Direction::East, Direction::West], &mut push);
            }
            Kind::Tank | Kind::Cavalry => {
                steps(&Direction::ALL, &mut push);
                for ray in from.walk_rays(Direction::forward(side)) {
                    if ray.len() >= 2 && p.piece_at(ray[0]).is_none() && free(ray[1]) {
                        push(ray[1]);
                    }
                }
            }
            _ => steps(&Direction::ALL, &mut push),
        }
    }
    out
}

/// §6 written plainly: the status after `m` took `before` to `after`.
fn reference_status(before: &Position, m: Move, after: &Position) -> Status {
    let mover = before.piece_at(m.from).unwrap();
    if m.to == Square::hq(mover.side.opponent())
        && after.piece_at(m.to) == Some(mover)
        && mover.kind.can_occupy()
    {
        return Status::Won {
            winner: mover.side,
            reason: WinReason::Occupation,
        };
    }
    if after.plies_without_battle() >= NO_BATTLE_LIMIT {
        return Status::Draw {
            reason: DrawReason::NoBattleLimit,
        };
    }
    let next = after.to_move();
    if !reference_moves(after, next).is_empty() {
        Status::Ongoing
    } else if !reference_moves(after, next.opponent()).is_empty() {
        Status::Won {
            winner: next.opponent(),
            reason: WinReason::NoMoves,
        }
    } else {
        Status::Draw {
            reason: DrawReason::NoMoves,
        }
    }
}

/// Plays `m` and checks the result against the reference.
fn play_checked(p: &Position, m: Move) -> Position {
    let mut q = p.clone();
    let played = q.play(m).unwrap();
    assert_eq!(played.status, reference_status(p, m, &q), "{m} in {p:?}");
    assert_eq!(q.to_move(), p.to_move().opponent());
    let battle = p.piece_at(m.to).is_some();
    let expected_count = if battle {
        0
    } else {
        p.plies_without_battle() + 1
    };
    assert_eq!(q.plies_without_battle(), expected_count);
    q
}

fn check(p: &Position) {
    let engine: Vec<Move> = p.legal_moves().to_vec();
    let expected = if p.status().is_ongoing() {
        reference_moves(p, p.to_move())
    } else {
        Vec::new()
    };
    assert_eq!(engine, expected, "{p:?}");
    if p.status().is_ongoing() {
        for side in Side::ALL {
            let mut list = gunjin::MoveList::new();
            p.moves_of(side, &mut list);
            assert_eq!(list.to_vec(), reference_moves(p, side));
            assert_eq!(p.has_move(side), !list.is_empty());
        }
    }
}

#[test]
fn move_generation_matches_the_reference_over_random_games() {
    for seed in 0..40u64 {
        let deployments =
            BySide::new_with(|side| Deployment::auto(side, seed * 3 + side.index() as u64));
        let mut pos = Position::new(Ruleset::STANDARD, &deployments);
        let mut rng = SmallRng::seed_from_u64(seed);
        while pos.status().is_ongoing() {
            check(&pos);
            let moves = pos.legal_moves();
            pos = play_checked(&pos, moves[rng.random_range(0..moves.len())]);
        }
        check(&pos);
    }
}

proptest! {
    #[test]
    fn move_generation_matches_the_reference_in_arbitrary_positions(
        placed in proptest::collection::vec((0usize..46, any::<bool>(), 0usize..16), 0..46),
        gote_to_move in any::<bool>(),
    ) {
        let pieces = placed.into_iter().map(|(s, g, k)| {
            (Square::from_index(s).unwrap(), Piece { side: if g { Side::Gote } else { Side::Sente }, kind: Kind::ALL[k] })
        });
        let to_move = if gote_to_move { Side::Gote } else { Side::Sente };
        if let Ok(p) = Position::from_pieces(Ruleset::STANDARD, pieces, to_move, 0) {
            check(&p);
            for m in p.legal_moves() {
                check(&play_checked(&p, m));
            }
        }
    }
}

#[test]
fn moves_of_never_overflows_a_partly_filled_list() {
    let deployments = BySide::new_with(|side| Deployment::auto(side, 1));
    let pos = Position::new(Ruleset::STANDARD, &deployments);
    let mut list = gunjin::MoveList::new();
    for _ in 0..gunjin::MAX_MOVES - 3 {
        list.push(Move {
            from: Square::HQ_SENTE,
            to: Square::HQ_GOTE,
        });
    }
    pos.moves_of(Side::Sente, &mut list);
    assert!(list.is_full());
    let all = pos.legal_moves();
    assert!(all.len() > 3);
    assert_eq!(&list[gunjin::MAX_MOVES - 3..], &all[..3]);
}
