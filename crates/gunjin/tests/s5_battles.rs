//! §5 Battles: the table of mobile pieces, the spy and the general, mines, the flag and the piece
//! behind it, and what is announced.

#![allow(clippy::unwrap_used)]

mod common;

use common::{mv, pos, sq};
use gunjin::{Battle, Kind, Outcome, Piece, Position, Ruleset, Side, resolve_battle};

const STD: Ruleset = Ruleset::STANDARD;

/// Strength order from the spec, strongest first.
const ORDER: [Kind; 14] = [
    Kind::General,
    Kind::LieutenantGeneral,
    Kind::MajorGeneral,
    Kind::Plane,
    Kind::Tank,
    Kind::Colonel,
    Kind::LieutenantColonel,
    Kind::Major,
    Kind::Captain,
    Kind::Lieutenant,
    Kind::SecondLieutenant,
    Kind::Cavalry,
    Kind::Engineer,
    Kind::Spy,
];

/// §5.1 written out independently of the engine.
fn expected_duel(a: Kind, d: Kind) -> Outcome {
    if a == d {
        return Outcome::Both;
    }
    match (a, d) {
        (Kind::Spy, Kind::General) => return Outcome::Attacker,
        (Kind::General, Kind::Spy) => return Outcome::Defender,
        _ => {}
    }
    let rank = |k| ORDER.iter().position(|&x| x == k).unwrap();
    if rank(a) < rank(d) {
        Outcome::Attacker
    } else {
        Outcome::Defender
    }
}

#[test]
fn full_table_of_mobile_pieces_stronger_wins_either_way() {
    for a in ORDER {
        for d in ORDER {
            assert_eq!(
                resolve_battle(a, d, None, &STD),
                expected_duel(a, d),
                "{a} attacks {d}"
            );
        }
    }
}

#[test]
fn same_kind_both_removed() {
    for k in ORDER {
        assert_eq!(resolve_battle(k, k, None, &STD), Outcome::Both, "{k}");
    }
}

#[test]
fn spy_beats_general_attacking_or_defending() {
    assert_eq!(
        resolve_battle(Kind::Spy, Kind::General, None, &STD),
        Outcome::Attacker
    );
    assert_eq!(
        resolve_battle(Kind::General, Kind::Spy, None, &STD),
        Outcome::Defender
    );
}

#[test]
fn spy_loses_to_every_other_mobile_piece_both_ways() {
    for k in ORDER
        .into_iter()
        .filter(|&k| k != Kind::General && k != Kind::Spy)
    {
        assert_eq!(
            resolve_battle(Kind::Spy, k, None, &STD),
            Outcome::Defender,
            "{k}"
        );
        assert_eq!(
            resolve_battle(k, Kind::Spy, None, &STD),
            Outcome::Attacker,
            "{k}"
        );
    }
}

#[test]
fn general_beats_every_other_mobile_piece_both_ways() {
    for k in ORDER
        .into_iter()
        .filter(|&k| k != Kind::General && k != Kind::Spy)
    {
        assert_eq!(
            resolve_battle(Kind::General, k, None, &STD),
            Outcome::Attacker
        );
        assert_eq!(
            resolve_battle(k, Kind::General, None, &STD),
            Outcome::Defender
        );
    }
}

#[test]
fn tank_beats_engineer_both_ways() {
    assert_eq!(
        resolve_battle(Kind::Tank, Kind::Engineer, None, &STD),
        Outcome::Attacker
    );
    assert_eq!(
        resolve_battle(Kind::Engineer, Kind::Tank, None, &STD),
        Outcome::Defender
    );
    // The variant of §9 turns it round.
    let variant = Ruleset {
        engineer_beats_tank: true,
        ..STD
    };
    assert_eq!(
        resolve_battle(Kind::Engineer, Kind::Tank, None, &variant),
        Outcome::Attacker
    );
}

#[test]
fn mine_loses_to_plane_and_engineer_and_takes_everything_else_with_it() {
    for a in ORDER {
        let want = if matches!(a, Kind::Plane | Kind::Engineer) {
            Outcome::Attacker
        } else {
            Outcome::Both
        };
        assert_eq!(resolve_battle(a, Kind::Mine, None, &STD), want, "{a}");
    }
}

#[test]
fn with_the_mine_persists_variant_a_mine_stays_after_beating_its_attacker() {
    // §9: the mine is not used up; planes and engineers still clear it.
    let variant = Ruleset {
        mine_persists: true,
        ..STD
    };
    for a in ORDER {
        let want = if matches!(a, Kind::Plane | Kind::Engineer) {
            Outcome::Attacker
        } else {
            Outcome::Defender
        };
        assert_eq!(resolve_battle(a, Kind::Mine, None, &variant), want, "{a}");
        // A mine behind the flag fights the same way for it.
        assert_eq!(
            resolve_battle(a, Kind::Flag, Some(Kind::Mine), &variant),
            want,
            "{a} against the flag"
        );
    }
}

#[test]
fn flag_with_nothing_behind_loses_to_every_attacker() {
    for a in ORDER {
        assert_eq!(
            resolve_battle(a, Kind::Flag, None, &STD),
            Outcome::Attacker,
            "{a}"
        );
    }
}

#[test]
fn flag_fights_with_the_strength_of_the_mobile_piece_behind() {
    for a in ORDER {
        for b in ORDER {
            assert_eq!(
                resolve_battle(a, Kind::Flag, Some(b), &STD),
                expected_duel(a, b),
                "{a} attacks the flag guarded by {b}"
            );
        }
    }
}

#[test]
fn flag_with_a_mine_behind_fights_like_a_mine() {
    for a in ORDER {
        let want = if matches!(a, Kind::Plane | Kind::Engineer) {
            Outcome::Attacker
        } else {
            Outcome::Both
        };
        assert_eq!(resolve_battle(a, Kind::Flag, Some(Kind::Mine), &STD), want);
    }
}

/// Pieces `side` lost between two positions, in kind order.
fn lost(before: &Position, after: &Position, side: Side) -> Vec<Kind> {
    let (b, a) = (before.removed_counts(side), after.removed_counts(side));
    Kind::ALL
        .into_iter()
        .flat_map(|k| std::iter::repeat_n(k, usize::from(a[k.index()] - b[k.index()])))
        .collect()
}

fn kind_at(p: &Position, name: &str) -> Option<(Side, Kind)> {
    p.piece_at(sq(name))
        .map(|Piece { side, kind }| (side, kind))
}

#[test]
fn attacker_wins_removes_the_defender_and_moves_in() {
    let mut p = pos("s:colonel@c4 g:general@a8 g:major@d4", Side::Sente);
    let start = p.clone();
    let played = p.play(mv("c4", "d4")).unwrap();
    assert_eq!(
        played.battle,
        Some(Battle {
            square: sq("d4"),
            outcome: Outcome::Attacker
        })
    );
    assert_eq!(kind_at(&p, "d4"), Some((Side::Sente, Kind::Colonel)));
    assert_eq!(kind_at(&p, "c4"), None);
    assert_eq!(lost(&start, &p, Side::Gote), [Kind::Major]);
    assert!(lost(&start, &p, Side::Sente).is_empty());
}

#[test]
fn defender_wins_removes_the_attacker_only() {
    let mut p = pos("s:major@c4 g:general@a8 g:colonel@d4", Side::Sente);
    let start = p.clone();
    p.play(mv("c4", "d4")).unwrap();
    assert_eq!(kind_at(&p, "d4"), Some((Side::Gote, Kind::Colonel)));
    assert_eq!(kind_at(&p, "c4"), None);
    assert_eq!(lost(&start, &p, Side::Sente), [Kind::Major]);
    assert!(lost(&start, &p, Side::Gote).is_empty());
}

#[test]
fn same_kind_on_the_board_empties_the_square() {
    let mut p = pos("s:tank@c4 s:general@a1 g:general@a8 g:tank@d4", Side::Sente);
    let start = p.clone();
    let played = p.play(mv("c4", "d4")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Both);
    assert_eq!(kind_at(&p, "d4"), None);
    assert_eq!(kind_at(&p, "c4"), None);
    assert_eq!(lost(&start, &p, Side::Sente), [Kind::Tank]);
    assert_eq!(lost(&start, &p, Side::Gote), [Kind::Tank]);
}

#[test]
fn spy_takes_the_general_on_the_board_attacking_and_defending() {
    let mut p = pos("s:spy@c4 s:major@a1 g:general@d4 g:major@a8", Side::Sente);
    p.play(mv("c4", "d4")).unwrap();
    assert_eq!(kind_at(&p, "d4"), Some((Side::Sente, Kind::Spy)));
    let mut p = pos("s:general@c4 s:major@a1 g:spy@d4 g:major@a8", Side::Sente);
    let start = p.clone();
    p.play(mv("c4", "d4")).unwrap();
    assert_eq!(kind_at(&p, "d4"), Some((Side::Gote, Kind::Spy)));
    assert_eq!(lost(&start, &p, Side::Sente), [Kind::General]);
}

#[test]
fn mine_is_used_up_by_an_engineer_or_plane_which_enters() {
    for attacker in ["engineer", "plane"] {
        let mut p = pos(
            &format!("s:{attacker}@d2 s:general@a1 g:mine@d4 g:general@a8"),
            Side::Sente,
        );
        let start = p.clone();
        let played = p.play(mv("d2", "d4")).unwrap();
        assert_eq!(played.battle.unwrap().outcome, Outcome::Attacker);
        assert_eq!(kind_at(&p, "d4").unwrap().0, Side::Sente);
        assert_eq!(lost(&start, &p, Side::Gote), [Kind::Mine]);
    }
}

#[test]
fn mine_takes_any_other_attacker_with_it_and_is_used_up() {
    let mut p = pos(
        "s:general@d3 s:major@c4 s:spy@a1 g:mine@d4 g:general@a8",
        Side::Sente,
    );
    let start = p.clone();
    let played = p.play(mv("d3", "d4")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Both);
    assert_eq!(kind_at(&p, "d4"), None);
    assert_eq!(lost(&start, &p, Side::Sente), [Kind::General]);
    assert_eq!(lost(&start, &p, Side::Gote), [Kind::Mine]);
    // The mine is gone: the next piece walks in without a battle.
    p.play(mv("a8", "b8")).unwrap();
    let played = p.play(mv("c4", "d4")).unwrap();
    assert_eq!(played.battle, None);
    assert_eq!(kind_at(&p, "d4"), Some((Side::Sente, Kind::Major)));
}

#[test]
fn flag_guarded_by_a_stronger_piece_wins_and_the_guard_stays() {
    let mut p = pos(
        "s:flag@c3 s:general@c2 g:lieutenant_general@c4 g:major@a8",
        Side::Gote,
    );
    let start = p.clone();
    let played = p.play(mv("c4", "c3")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Defender);
    assert_eq!(kind_at(&p, "c3"), Some((Side::Sente, Kind::Flag)));
    assert_eq!(kind_at(&p, "c2"), Some((Side::Sente, Kind::General)));
    assert_eq!(lost(&start, &p, Side::Gote), [Kind::LieutenantGeneral]);
    assert!(lost(&start, &p, Side::Sente).is_empty());
}

#[test]
fn flag_guarded_by_a_weaker_piece_falls_and_the_guard_stays() {
    let mut p = pos("s:flag@c3 s:spy@c2 g:major@d3 g:lieutenant@a8", Side::Gote);
    let start = p.clone();
    let played = p.play(mv("d3", "c3")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Attacker);
    assert_eq!(kind_at(&p, "c3"), Some((Side::Gote, Kind::Major)));
    assert_eq!(kind_at(&p, "c2"), Some((Side::Sente, Kind::Spy)));
    assert_eq!(lost(&start, &p, Side::Sente), [Kind::Flag]);
}

#[test]
fn spy_takes_a_flag_guarded_by_the_general_and_the_general_stays() {
    let mut p = pos("s:flag@c3 s:general@c2 g:spy@b3 g:major@a8", Side::Gote);
    let start = p.clone();
    p.play(mv("b3", "c3")).unwrap();
    assert_eq!(kind_at(&p, "c3"), Some((Side::Gote, Kind::Spy)));
    assert_eq!(kind_at(&p, "c2"), Some((Side::Sente, Kind::General)));
    assert_eq!(lost(&start, &p, Side::Sente), [Kind::Flag]);
}

#[test]
fn flag_guard_of_the_attackers_kind_removes_flag_and_attacker_not_the_guard() {
    let mut p = pos(
        "s:flag@e3 s:colonel@e2 s:spy@a1 g:colonel@e4 g:major@a8",
        Side::Gote,
    );
    let start = p.clone();
    let played = p.play(mv("e4", "e3")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Both);
    assert_eq!(kind_at(&p, "e3"), None);
    assert_eq!(kind_at(&p, "e2"), Some((Side::Sente, Kind::Colonel)));
    assert_eq!(lost(&start, &p, Side::Sente), [Kind::Flag]);
    assert_eq!(lost(&start, &p, Side::Gote), [Kind::Colonel]);
}

#[test]
fn flag_with_a_mine_behind_the_mine_stays_and_is_not_used_up() {
    let mut p = pos(
        "s:flag@a3 s:mine@a2 s:spy@f1 g:tank@a4 g:general@f8",
        Side::Gote,
    );
    let start = p.clone();
    let played = p.play(mv("a4", "a3")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Both);
    assert_eq!(kind_at(&p, "a3"), None);
    assert_eq!(kind_at(&p, "a2"), Some((Side::Sente, Kind::Mine)));
    assert_eq!(lost(&start, &p, Side::Sente), [Kind::Flag]);
    assert_eq!(lost(&start, &p, Side::Gote), [Kind::Tank]);

    let mut p = pos(
        "s:flag@a3 s:mine@a2 s:spy@f1 g:engineer@a4 g:general@f8",
        Side::Gote,
    );
    let start = p.clone();
    let played = p.play(mv("a4", "a3")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Attacker);
    assert_eq!(kind_at(&p, "a3"), Some((Side::Gote, Kind::Engineer)));
    assert_eq!(kind_at(&p, "a2"), Some((Side::Sente, Kind::Mine)));
    assert_eq!(lost(&start, &p, Side::Sente), [Kind::Flag]);
}

#[test]
fn flag_with_nothing_behind_falls_even_to_the_spy() {
    let mut p = pos("s:flag@b3 s:general@a1 g:spy@b4 g:major@a8", Side::Gote);
    let played = p.play(mv("b4", "b3")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Attacker);
    assert_eq!(kind_at(&p, "b3"), Some((Side::Gote, Kind::Spy)));
}

#[test]
fn flag_with_an_enemy_piece_behind_falls() {
    // A gote general stands behind the sente flag: it does not guard it.
    let mut p = pos(
        "s:flag@c3 s:major@a1 g:general@c2 g:spy@d3 g:major@a8",
        Side::Gote,
    );
    let played = p.play(mv("d3", "c3")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Attacker);
    assert_eq!(kind_at(&p, "c3"), Some((Side::Gote, Kind::Spy)));
}

#[test]
fn flag_in_front_of_the_headquarters_with_an_enemy_piece_in_it_falls() {
    // Sente's flag on c2: the piece behind it is the one in cd1, here a gote major general
    // that has walked in. It guards nothing of sente's: gote's spy takes the flag.
    let mut p = pos(
        "s:flag@c2 s:major@a1 g:major_general@cd1 g:spy@c3 g:major@a8",
        Side::Gote,
    );
    let played = p.play(mv("c3", "c2")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Attacker);
    assert_eq!(kind_at(&p, "c2"), Some((Side::Gote, Kind::Spy)));
    assert_eq!(kind_at(&p, "cd1"), Some((Side::Gote, Kind::MajorGeneral)));
    // The same on gote's side: sente's general in cd8 does not back gote's flag on d7.
    let mut p = pos(
        "g:flag@d7 g:major@a8 s:general@cd8 s:spy@d6 s:major@a1",
        Side::Sente,
    );
    let played = p.play(mv("d6", "d7")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Attacker);
    assert_eq!(kind_at(&p, "d7"), Some((Side::Sente, Kind::Spy)));
}

#[test]
fn flag_guard_is_the_piece_behind_not_in_front() {
    // Gote's flag on c6: behind it (toward row 8) is c7. A gote general in front on c5 does not
    // count; a gote general on c7 does.
    let mut p = pos(
        "g:flag@c6 g:general@c5 g:spy@f8 s:major@b6 s:spy@a1",
        Side::Sente,
    );
    assert_eq!(
        p.play(mv("b6", "c6")).unwrap().battle.unwrap().outcome,
        Outcome::Attacker
    );
    let mut p = pos(
        "g:flag@c6 g:general@c7 g:spy@f8 s:major@b6 s:spy@a1",
        Side::Sente,
    );
    assert_eq!(
        p.play(mv("b6", "c6")).unwrap().battle.unwrap().outcome,
        Outcome::Defender
    );
}

#[test]
fn flag_on_c2_or_d2_is_guarded_by_the_piece_in_cd1() {
    for (flag, from) in [("c2", "b2"), ("d2", "e2")] {
        let mut p = pos(
            &format!("s:flag@{flag} s:general@cd1 g:lieutenant_general@{from} g:major@a8"),
            Side::Gote,
        );
        let played = p.play(mv(from, flag)).unwrap();
        assert_eq!(played.battle.unwrap().outcome, Outcome::Defender, "{flag}");
        assert_eq!(kind_at(&p, "cd1"), Some((Side::Sente, Kind::General)));
        assert_eq!(kind_at(&p, flag), Some((Side::Sente, Kind::Flag)));
    }
    // Gote's flag on c7/d7 is guarded from cd8.
    let mut p = pos(
        "g:flag@d7 g:mine@cd8 g:spy@f8 s:general@d6 s:spy@a1",
        Side::Sente,
    );
    let played = p.play(mv("d6", "d7")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Both);
    assert_eq!(kind_at(&p, "cd8"), Some((Side::Gote, Kind::Mine)));
}

#[test]
fn flag_on_c7_or_d7_is_guarded_by_a_mobile_piece_in_cd8() {
    for (flag, from) in [("c7", "b7"), ("d7", "e7")] {
        // Guarded by a colonel: a major falls to it, a lieutenant general takes only the flag.
        let mut p = pos(
            &format!("g:flag@{flag} g:colonel@cd8 g:spy@f8 s:major@{from} s:spy@a1"),
            Side::Sente,
        );
        let played = p.play(mv(from, flag)).unwrap();
        assert_eq!(played.battle.unwrap().outcome, Outcome::Defender, "{flag}");
        assert_eq!(kind_at(&p, flag), Some((Side::Gote, Kind::Flag)));
        assert_eq!(kind_at(&p, "cd8"), Some((Side::Gote, Kind::Colonel)));

        let mut p = pos(
            &format!("g:flag@{flag} g:colonel@cd8 g:spy@f8 s:lieutenant_general@{from} s:spy@a1"),
            Side::Sente,
        );
        let played = p.play(mv(from, flag)).unwrap();
        assert_eq!(played.battle.unwrap().outcome, Outcome::Attacker, "{flag}");
        assert_eq!(
            kind_at(&p, flag),
            Some((Side::Sente, Kind::LieutenantGeneral))
        );
        assert_eq!(kind_at(&p, "cd8"), Some((Side::Gote, Kind::Colonel)));
    }
}

#[test]
fn flag_on_c2_or_d2_with_a_mine_in_cd1_fights_like_the_mine_which_stays() {
    for (flag, from) in [("c2", "b2"), ("d2", "e2")] {
        // A colonel takes the flag with it; the mine behind is not used up.
        let mut p = pos(
            &format!("s:flag@{flag} s:mine@cd1 s:spy@f1 g:colonel@{from} g:major@a8"),
            Side::Gote,
        );
        let start = p.clone();
        let played = p.play(mv(from, flag)).unwrap();
        assert_eq!(played.battle.unwrap().outcome, Outcome::Both, "{flag}");
        assert_eq!(kind_at(&p, flag), None);
        assert_eq!(kind_at(&p, "cd1"), Some((Side::Sente, Kind::Mine)));
        assert_eq!(lost(&start, &p, Side::Sente), [Kind::Flag]);
        assert_eq!(lost(&start, &p, Side::Gote), [Kind::Colonel]);

        // A plane beats it: only the flag falls, and the plane stands on its square.
        let mut p = pos(
            &format!("s:flag@{flag} s:mine@cd1 s:spy@f1 g:plane@{from} g:major@a8"),
            Side::Gote,
        );
        let played = p.play(mv(from, flag)).unwrap();
        assert_eq!(played.battle.unwrap().outcome, Outcome::Attacker, "{flag}");
        assert_eq!(kind_at(&p, flag), Some((Side::Gote, Kind::Plane)));
        assert_eq!(kind_at(&p, "cd1"), Some((Side::Sente, Kind::Mine)));
    }
}

#[test]
fn announcement_carries_only_square_and_outcome() {
    let battle = Battle {
        square: sq("b5"),
        outcome: Outcome::Both,
    };
    let json = serde_json::to_value(battle).unwrap();
    assert_eq!(json, serde_json::json!({"square": "b5", "outcome": "both"}));
    for (o, id) in [
        (Outcome::Attacker, "attacker"),
        (Outcome::Defender, "defender"),
        (Outcome::Both, "both"),
    ] {
        assert_eq!(o.id(), id);
        assert_eq!(serde_json::to_value(o).unwrap(), serde_json::json!(id));
    }
}

#[test]
fn a_tie_a_mine_and_a_guarded_flag_are_announced_alike() {
    let cases = [
        "s:spy@a1 g:major@e4 g:general@f8 s:major@e3",
        "s:spy@a1 g:major@e4 g:general@f8 s:mine@e3",
        "s:spy@a1 g:major@e4 g:general@f8 s:flag@e3 s:mine@e2",
        "s:spy@a1 g:major@e4 g:general@f8 s:flag@e3 s:major@e2",
    ];
    let mut announced = Vec::new();
    for case in cases {
        let mut game_pos = pos(case, Side::Gote);
        let played = game_pos.play(mv("e4", "e3")).unwrap();
        announced.push(serde_json::to_string(&played.battle).unwrap());
    }
    assert!(announced.windows(2).all(|w| w[0] == w[1]), "{announced:?}");
    for text in &announced {
        for k in Kind::ALL {
            assert!(!text.contains(k.id()), "{text} names {k}");
        }
    }
}

#[test]
fn general_attacking_a_flag_guarded_by_the_spy_is_removed_and_the_spy_stays() {
    // The page's FAQ: the flag fights with the spy's strength, and the spy beats the general.
    let mut p = pos(
        "s:flag@d3 s:spy@d2 s:major@a1 g:general@d4 g:major@a8",
        Side::Gote,
    );
    let start = p.clone();
    let played = p.play(mv("d4", "d3")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Defender);
    assert_eq!(kind_at(&p, "d3"), Some((Side::Sente, Kind::Flag)));
    assert_eq!(kind_at(&p, "d2"), Some((Side::Sente, Kind::Spy)));
    assert_eq!(kind_at(&p, "d4"), None);
    assert_eq!(lost(&start, &p, Side::Gote), [Kind::General]);
    assert!(lost(&start, &p, Side::Sente).is_empty());
}

#[test]
fn two_generals_are_both_removed_on_the_board() {
    let mut p = pos("s:general@c3 s:spy@a1 g:general@c4 g:spy@a8", Side::Sente);
    let start = p.clone();
    let played = p.play(mv("c3", "c4")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Both);
    assert_eq!(kind_at(&p, "c4"), None);
    assert_eq!(lost(&start, &p, Side::Sente), [Kind::General]);
    assert_eq!(lost(&start, &p, Side::Gote), [Kind::General]);
}
