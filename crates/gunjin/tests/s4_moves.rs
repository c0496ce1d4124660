//! §4 Moves: turn order, own pieces block, river and bridges, headquarters stop multi-square
//! moves, lines from the headquarters, the tank/cavalry 2-step, engineer and plane lines, and one
//! move per (from, to).

#![allow(clippy::unwrap_used)]

mod common;

use std::collections::HashSet;

use common::{dests, fixed_game, legal_dests, mv, names, pos, sq};
use gunjin::{Battle, IllegalMove, Kind, MoveError, Outcome, Piece, Position, Side};

#[test]
fn sente_moves_first_and_sides_alternate() {
    let mut game = fixed_game();
    assert_eq!(game.position().to_move(), Side::Sente);
    assert!(
        game.position()
            .legal_moves()
            .iter()
            .all(|m| m.from.row() <= 4)
    );
    game.play(mv("b4", "b5")).unwrap();
    assert_eq!(game.position().to_move(), Side::Gote);
    assert!(
        game.position().legal_moves().iter().all(|m| game
            .position()
            .piece_at(m.from)
            .unwrap()
            .side
            == Side::Gote)
    );
    // Sente may not move twice in a row.
    assert_eq!(
        game.play(mv("e4", "e5")),
        Err(MoveError::Illegal {
            mv: mv("e4", "e5"),
            reason: IllegalMove::NotYourPiece
        })
    );
}

#[test]
fn passing_is_not_a_move() {
    let mut p = pos("s:general@c3 g:general@c6", Side::Sente);
    let before = p.clone();
    assert!(p.play(mv("c3", "c3")).is_err());
    assert_eq!(p, before);
    assert!(p.legal_moves().iter().all(|m| m.from != m.to));
}

#[test]
fn a_piece_may_not_enter_a_square_of_its_own_side() {
    let mut p = pos("s:general@c3 s:major@c4 g:general@c6", Side::Sente);
    assert_eq!(dests(&p, "c3"), names("c2 b3 d3"));
    let before = p.clone();
    assert_eq!(
        p.play(mv("c3", "c4")),
        Err(MoveError::Illegal {
            mv: mv("c3", "c4"),
            reason: IllegalMove::Unreachable
        })
    );
    assert_eq!(p, before);
}

#[test]
fn illegal_moves_name_their_reason_and_change_nothing() {
    let mut p = pos("s:general@c3 s:mine@a1 g:general@c6", Side::Sente);
    let before = p.clone();
    let reason = |p: &mut gunjin::Position, from, to| match p.play(mv(from, to)) {
        Err(MoveError::Illegal { reason, .. }) => reason,
        other => panic!("{from}-{to}: {other:?}"),
    };
    assert_eq!(reason(&mut p, "d3", "d4"), IllegalMove::NoPiece);
    assert_eq!(reason(&mut p, "c6", "c5"), IllegalMove::NotYourPiece);
    assert_eq!(reason(&mut p, "a1", "a2"), IllegalMove::Immobile);
    assert_eq!(reason(&mut p, "c3", "c5"), IllegalMove::Unreachable);
    assert_eq!(p, before);
    assert!(!p.is_legal(mv("c3", "c5")));
    assert!(p.is_legal(mv("c3", "c4")));
}

#[test]
fn trying_to_move_an_enemy_piece_tells_nothing_of_its_kind() {
    // §7: the refusal of a move of the enemy's piece is the same for every kind; "it cannot
    // move" for an enemy mine or flag would name it.
    for kind in Kind::ALL {
        // Gote keeps a mobile piece besides, so the position is one a game can reach.
        let other = if kind == Kind::Major {
            "colonel"
        } else {
            "major"
        };
        let mut p = pos(
            &format!("s:general@c3 g:{}@a7 g:{other}@f8", kind.id()),
            Side::Sente,
        );
        let before = p.clone();
        match p.play(mv("a7", "a6")) {
            Err(MoveError::Illegal { reason, .. }) => {
                assert_eq!(reason, IllegalMove::NotYourPiece, "{kind:?}");
            }
            other => panic!("{kind:?}: {other:?}"),
        }
        assert_eq!(p, before);
    }
}

#[test]
fn a_move_onto_an_empty_square_moves_the_piece_and_passes_the_turn() {
    let mut p = pos("s:general@c3 g:general@c6", Side::Sente);
    let played = p.play(mv("c3", "c4")).unwrap();
    assert_eq!(played.battle, None);
    assert_eq!(played.defender, None);
    assert!(p.piece_at(sq("c3")).is_none());
    assert_eq!(p.piece_at(sq("c4")), Some(played.mover));
    assert_eq!(p.to_move(), Side::Gote);
    assert_eq!(p.plies_without_battle(), 1);
}

#[test]
fn no_piece_crosses_the_river_off_the_bridges_except_the_plane() {
    for kind in [
        "general", "major", "spy", "cavalry", "tank", "engineer", "captain",
    ] {
        for col in ["a", "c", "d", "f"] {
            let from = format!("{col}4");
            let p = pos(&format!("s:{kind}@{from} g:general@a8"), Side::Sente);
            assert!(
                dests(&p, &from)
                    .iter()
                    .all(|d| d.ends_with(['1', '2', '3', '4'])),
                "{kind} on {from}: {:?}",
                dests(&p, &from)
            );
        }
    }
    let p = pos("s:plane@a4 g:general@f8", Side::Sente);
    assert!(dests(&p, "a4").contains(&"a5".to_owned()));
}

#[test]
fn no_gote_piece_crosses_the_river_off_the_bridges_except_the_plane() {
    for kind in [
        "general",
        "lieutenant_general",
        "major_general",
        "colonel",
        "lieutenant_colonel",
        "major",
        "captain",
        "lieutenant",
        "second_lieutenant",
        "cavalry",
        "engineer",
        "tank",
        "spy",
    ] {
        for col in ["a", "c", "d", "f"] {
            let from = format!("{col}5");
            let p = pos(&format!("g:{kind}@{from} s:general@a1"), Side::Gote);
            let d = dests(&p, &from);
            assert!(!d.is_empty(), "gote {kind} on {from} can move");
            assert!(
                d.iter().all(|d| d.ends_with(['5', '6', '7', '8'])),
                "gote {kind} on {from}: {d:?}"
            );
            assert_eq!(legal_dests(&p, &from), d, "gote {kind} on {from}");
        }
    }
    // The plane flies over the river from any column; it lands on a4 and beyond.
    for col in ["a", "c", "d", "f"] {
        let from = format!("{col}5");
        let p = pos(&format!("g:plane@{from} s:general@b1"), Side::Gote);
        let d = legal_dests(&p, &from);
        assert!(
            d.contains(&format!("{col}4")),
            "gote plane on {from}: {d:?}"
        );
    }
}

#[test]
fn pieces_cross_the_river_over_the_bridges() {
    let p = pos("s:general@b4 s:major@e4 g:general@a8", Side::Sente);
    assert!(dests(&p, "b4").contains(&"b5".to_owned()));
    assert!(dests(&p, "e4").contains(&"e5".to_owned()));
    let p = pos("g:general@b5 s:general@a1", Side::Gote);
    assert_eq!(dests(&p, "b5"), names("b4 b6 a5 c5"));
}

#[test]
fn engineer_stops_on_entering_the_own_hq() {
    // Along row 1 the engineer enters cd1 and may not go on to e1 and f1.
    let p = pos("s:engineer@a1 g:general@a8", Side::Sente);
    assert_eq!(dests(&p, "a1"), names("b1 cd1 a2 a3 a4"));
    let p = pos("s:engineer@f1 g:general@a8", Side::Sente);
    assert_eq!(dests(&p, "f1"), names("e1 cd1 f2 f3 f4"));
}

#[test]
fn engineer_stops_on_entering_the_enemy_hq() {
    let p = pos("s:engineer@a8 g:general@f5", Side::Sente);
    assert_eq!(dests(&p, "a8"), names("b8 cd8 a7 a6 a5"));
    let p = pos("s:engineer@c5 g:general@f5", Side::Sente);
    assert_eq!(dests(&p, "c5"), names("c6 c7 cd8 a5 b5 d5 e5 f5"));
}

#[test]
fn engineer_attacks_a_piece_in_the_hq_and_stops_before_an_own_one() {
    let p = pos("s:engineer@a1 s:general@cd1 g:general@a8", Side::Sente);
    assert_eq!(dests(&p, "a1"), names("b1 a2 a3 a4"));
    let p = pos("s:engineer@b8 g:general@cd8", Side::Sente);
    assert_eq!(p.destinations(sq("b8")).attacks, [sq("cd8")]);
}

#[test]
fn plane_stops_on_entering_an_hq() {
    // From c3 south the plane enters cd1 and stops; north it enters cd8 and stops.
    let p = pos("s:plane@c3 g:general@a8", Side::Sente);
    assert_eq!(dests(&p, "c3"), names("c2 cd1 c4 c5 c6 c7 cd8 b3 d3"));
    let p = pos("s:plane@d6 g:general@a8", Side::Sente);
    assert_eq!(dests(&p, "d6"), names("cd1 d2 d3 d4 d5 d7 cd8 c6 e6"));
}

#[test]
fn tank_and_cavalry_two_step_enters_the_hq_but_never_passes_it() {
    for kind in ["tank", "cavalry"] {
        let p = pos(&format!("s:{kind}@c6 g:general@a5"), Side::Sente);
        assert!(dests(&p, "c6").contains(&"cd8".to_owned()), "{kind}");
        // Gote's forward from c2 is into cd1 and no further.
        let p = pos(&format!("g:{kind}@c2 s:general@a4"), Side::Gote);
        assert_eq!(dests(&p, "c2"), names("cd1 b2 d2 c3"), "{kind}");
        let p = pos(&format!("s:{kind}@c7 g:general@a5"), Side::Sente);
        assert_eq!(dests(&p, "c7"), names("c6 b7 d7 cd8"), "{kind}");
    }
}

#[test]
fn lines_from_the_hq_start_along_column_c_and_column_d() {
    let p = pos("s:engineer@cd1 g:general@a8", Side::Sente);
    assert_eq!(dests(&p, "cd1"), names("c2 c3 c4 d2 d3 d4 b1 a1 e1 f1"));
    let p = pos("g:engineer@cd8 s:general@a1", Side::Gote);
    assert_eq!(dests(&p, "cd8"), names("c7 c6 c5 d7 d6 d5 b8 a8 e8 f8"));
    // A sente engineer standing in the enemy HQ (it entered without winning).
    let p = pos("s:engineer@cd8 g:general@a5", Side::Sente);
    assert_eq!(dests(&p, "cd8"), names("c7 c6 c5 d7 d6 d5 b8 a8 e8 f8"));
}

#[test]
fn one_step_pieces_leave_the_hq_to_its_four_neighbours() {
    let p = pos("s:general@cd1 g:general@a8", Side::Sente);
    assert_eq!(dests(&p, "cd1"), names("b1 e1 c2 d2"));
    let p = pos("g:spy@cd8 s:general@a1", Side::Gote);
    assert_eq!(dests(&p, "cd8"), names("b8 e8 c7 d7"));
}

#[test]
fn sideways_from_the_hq_leads_to_b_and_e_and_on_along_the_row_for_an_engineer() {
    let p = pos(
        "s:engineer@cd1 s:mine@a1 g:major@f1 g:general@a8",
        Side::Sente,
    );
    let d = p.destinations(sq("cd1"));
    assert!(d.moves.contains(&sq("b1")) && !d.moves.contains(&sq("a1")));
    assert!(d.moves.contains(&sq("e1")));
    assert_eq!(d.attacks, [sq("f1")]);
}

#[test]
fn tank_and_cavalry_from_the_hq_go_two_forward_along_c_or_d() {
    for kind in ["tank", "cavalry"] {
        let p = pos(&format!("s:{kind}@cd1 g:general@a8"), Side::Sente);
        assert_eq!(dests(&p, "cd1"), names("b1 e1 c2 d2 c3 d3"), "{kind}");
        let p = pos(&format!("s:{kind}@cd1 s:mine@c2 g:general@a8"), Side::Sente);
        assert_eq!(dests(&p, "cd1"), names("b1 e1 d2 d3"), "{kind}");
    }
}

#[test]
fn plane_in_the_hq_flies_along_c_or_d_and_reaches_the_far_hq_once() {
    let p = pos("s:plane@cd1 g:general@a8", Side::Sente);
    let expected = names("c2 c3 c4 c5 c6 c7 cd8 d2 d3 d4 d5 d6 d7 b1 e1");
    assert_eq!(dests(&p, "cd1"), expected);
    assert_eq!(legal_dests(&p, "cd1"), expected);
    assert_eq!(p.legal_moves().len(), 15, "the plane is sente's only piece");
}

#[test]
fn tank_and_cavalry_two_step_needs_the_middle_square_empty() {
    for kind in ["tank", "cavalry"] {
        let p = pos(&format!("s:{kind}@c2 s:major@c3 g:general@a8"), Side::Sente);
        assert_eq!(
            dests(&p, "c2"),
            names("cd1 b2 d2"),
            "own piece in the middle"
        );
        let p = pos(&format!("s:{kind}@c2 g:major@c3 g:general@a8"), Side::Sente);
        assert_eq!(
            dests(&p, "c2"),
            names("cd1 b2 d2 c3"),
            "enemy piece in the middle is attacked, not jumped"
        );
        let p = pos(&format!("s:{kind}@c2 g:major@c4 g:general@a8"), Side::Sente);
        assert_eq!(
            p.destinations(sq("c2")).attacks,
            [sq("c4")],
            "2-step attack"
        );
        let p = pos(&format!("s:{kind}@c2 s:major@c4 g:general@a8"), Side::Sente);
        assert_eq!(
            dests(&p, "c2"),
            names("cd1 b2 d2 c3"),
            "own piece at the end"
        );
    }
}

#[test]
fn tank_and_cavalry_two_step_may_cross_a_bridge() {
    for kind in ["tank", "cavalry"] {
        let p = pos(&format!("s:{kind}@b3 g:general@a8"), Side::Sente);
        assert_eq!(dests(&p, "b3"), names("b2 b4 b5 a3 c3"), "{kind} b3");
        let p = pos(&format!("s:{kind}@e4 g:general@a8"), Side::Sente);
        assert_eq!(dests(&p, "e4"), names("e3 e5 e6 d4 f4"), "{kind} e4");
        let p = pos(&format!("g:{kind}@b6 s:general@a1"), Side::Gote);
        assert_eq!(dests(&p, "b6"), names("b7 b5 b4 a6 c6"), "gote {kind} b6");
        let p = pos(&format!("s:{kind}@b3 s:spy@b4 g:general@a8"), Side::Sente);
        assert_eq!(dests(&p, "b3"), names("b2 a3 c3"), "{kind} bridge blocked");
    }
}

#[test]
fn tank_and_cavalry_two_step_does_not_cross_the_river_elsewhere() {
    for kind in ["tank", "cavalry"] {
        let p = pos(&format!("s:{kind}@a3 g:general@f8"), Side::Sente);
        assert_eq!(dests(&p, "a3"), names("a2 a4 b3"), "{kind} a3");
        let p = pos(&format!("s:{kind}@d4 g:general@f8"), Side::Sente);
        assert_eq!(dests(&p, "d4"), names("d3 c4 e4"), "{kind} d4");
        let p = pos(&format!("g:{kind}@c6 s:general@a1"), Side::Gote);
        assert_eq!(dests(&p, "c6"), names("c7 c5 b6 d6"), "gote {kind} c6");
    }
}

#[test]
fn tank_and_cavalry_never_move_two_backward_or_sideways() {
    let p = pos("s:tank@c3 g:general@a8", Side::Sente);
    assert_eq!(dests(&p, "c3"), names("c2 c4 b3 d3"));
    let p = pos("g:cavalry@c6 s:general@a1", Side::Gote);
    assert_eq!(dests(&p, "c6"), names("c7 c5 b6 d6"));
}

#[test]
fn engineer_is_blocked_by_any_piece_and_may_end_on_an_enemy() {
    let p = pos("s:engineer@b2 s:spy@b4 g:general@a8", Side::Sente);
    assert_eq!(dests(&p, "b2"), names("b1 b3 a2 c2 d2 e2 f2"));
    let p = pos("s:engineer@b2 g:spy@b4 g:general@a8", Side::Sente);
    let d = p.destinations(sq("b2"));
    assert_eq!(d.attacks, [sq("b4")]);
    assert!(!d.moves.contains(&sq("b5")));
    let p = pos("s:engineer@a3 g:spy@d3 s:mine@b3 g:general@a8", Side::Sente);
    assert_eq!(dests(&p, "a3"), names("a1 a2 a4"));
}

#[test]
fn plane_jumps_pieces_of_both_sides_and_the_river() {
    let p = pos(
        "s:plane@a2 s:spy@a3 g:major@a4 s:mine@a6 g:captain@a7 g:general@f8",
        Side::Sente,
    );
    let d = p.destinations(sq("a2"));
    let mut moves: Vec<&str> = d.moves.iter().map(|s| s.name()).collect();
    moves.sort_unstable();
    let mut attacks: Vec<&str> = d.attacks.iter().map(|s| s.name()).collect();
    attacks.sort_unstable();
    assert_eq!(moves, ["a1", "a5", "a8", "b2"]);
    assert_eq!(attacks, ["a4", "a7"]);
}

/// Pieces `side` lost between two positions, in kind order.
fn lost(before: &Position, after: &Position, side: Side) -> Vec<Kind> {
    let (b, a) = (before.removed_counts(side), after.removed_counts(side));
    Kind::ALL
        .into_iter()
        .flat_map(|k| std::iter::repeat_n(k, usize::from(a[k.index()] - b[k.index()])))
        .collect()
}

#[test]
fn plane_over_an_enemy_onto_an_enemy_battles_only_the_destination() {
    // Flying b2 → b6 the plane passes a mine (which would take a general with it) and the
    // general (which would beat the plane): neither battles, only the captain on b6 does.
    let mut p = pos(
        "s:plane@b2 s:spy@a1 g:mine@b3 g:general@b4 g:captain@b6 g:major@f8",
        Side::Sente,
    );
    let start = p.clone();
    let played = p.play(mv("b2", "b6")).unwrap();
    assert_eq!(
        played.battle,
        Some(Battle {
            square: sq("b6"),
            outcome: Outcome::Attacker
        })
    );
    assert_eq!(
        played.defender,
        Some(Piece {
            side: Side::Gote,
            kind: Kind::Captain
        })
    );
    let at = |name: &str| p.piece_at(sq(name)).map(|pc| (pc.side, pc.kind));
    assert_eq!(at("b6"), Some((Side::Sente, Kind::Plane)));
    assert_eq!(
        at("b3"),
        Some((Side::Gote, Kind::Mine)),
        "jumped mine stays"
    );
    assert_eq!(
        at("b4"),
        Some((Side::Gote, Kind::General)),
        "jumped general stays"
    );
    assert_eq!(at("b2"), None);
    assert_eq!(lost(&start, &p, Side::Gote), [Kind::Captain]);
    assert!(lost(&start, &p, Side::Sente).is_empty());
    assert_eq!(p.plies_without_battle(), 0);

    // Losing at the destination removes the plane alone; the jumped pieces still stay.
    let mut p = pos(
        "s:plane@a2 s:spy@f1 g:captain@a4 g:mine@a5 g:general@a7 g:major@f8",
        Side::Sente,
    );
    let start = p.clone();
    let played = p.play(mv("a2", "a7")).unwrap();
    assert_eq!(
        played.battle,
        Some(Battle {
            square: sq("a7"),
            outcome: Outcome::Defender
        })
    );
    let at = |name: &str| p.piece_at(sq(name)).map(|pc| (pc.side, pc.kind));
    assert_eq!(at("a7"), Some((Side::Gote, Kind::General)));
    assert_eq!(at("a4"), Some((Side::Gote, Kind::Captain)));
    assert_eq!(at("a5"), Some((Side::Gote, Kind::Mine)));
    assert_eq!(at("a2"), None);
    assert_eq!(lost(&start, &p, Side::Sente), [Kind::Plane]);
    assert!(lost(&start, &p, Side::Gote).is_empty());
}

#[test]
fn plane_may_not_land_on_an_own_piece() {
    let p = pos(
        "s:plane@e3 s:mine@e7 s:spy@e1 s:major@d3 g:general@a8",
        Side::Sente,
    );
    assert_eq!(dests(&p, "e3"), names("e2 e4 e5 e6 e8 f3"));
}

#[test]
fn plane_steps_only_one_square_sideways() {
    let p = pos("s:plane@a5 g:general@f8", Side::Sente);
    let d = dests(&p, "a5");
    assert!(d.contains(&"b5".to_owned()) && !d.contains(&"c5".to_owned()));
    let p = pos("s:plane@b1 g:general@f8", Side::Sente);
    assert_eq!(dests(&p, "b1"), names("a1 cd1 b2 b3 b4 b5 b6 b7 b8"));
    let p = pos("s:plane@e2 g:major@d2 g:general@a8", Side::Sente);
    assert_eq!(p.destinations(sq("e2")).attacks, [sq("d2")]);
}

#[test]
fn a_move_is_identified_by_from_and_to_and_listed_once() {
    let p = pos(
        "s:plane@cd1 s:engineer@f1 g:plane@cd8 g:general@a5",
        Side::Sente,
    );
    let list = p.legal_moves();
    let unique: HashSet<_> = list.iter().collect();
    assert_eq!(unique.len(), list.len());
    // The two flights from cd1 both reach cd8: one move.
    assert_eq!(
        list.iter()
            .filter(|m| m.from == sq("cd1") && m.to == sq("cd8"))
            .count(),
        1
    );
}

#[test]
fn legal_moves_are_in_square_order_and_match_destinations() {
    let game = fixed_game();
    let p = game.position();
    let list = p.legal_moves();
    assert!(list.windows(2).all(|w| w[0] <= w[1]));
    for m in &list {
        let d = p.destinations(m.from);
        assert!(d.moves.contains(&m.to) || d.attacks.contains(&m.to), "{m}");
        assert!(p.is_legal(*m));
    }
    let total: usize = p
        .pieces()
        .filter(|(_, pc)| pc.side == Side::Sente)
        .map(|(s, _)| {
            let d = p.destinations(s);
            d.moves.len() + d.attacks.len()
        })
        .sum();
    assert_eq!(total, list.len());
}

#[test]
fn destinations_tell_empty_squares_from_attacks_for_either_side() {
    let p = pos("s:general@c3 g:major@c4 g:spy@b3 g:general@a8", Side::Sente);
    let mut d = p.destinations(sq("c3"));
    d.moves.sort_unstable();
    d.attacks.sort_unstable();
    assert_eq!(d.moves, [sq("c2"), sq("d3")]);
    assert_eq!(d.attacks, [sq("b3"), sq("c4")]);
    // The side not to move is answered too.
    let mut d = p.destinations(sq("c4"));
    d.moves.sort_unstable();
    assert_eq!(d.moves, [sq("b4"), sq("d4")]);
    assert_eq!(d.attacks, [sq("c3")]);
    assert_eq!(p.destinations(sq("f6")), gunjin::Destinations::default());
}
