//! §3 Setup (and the §8 fit check): legal deployments, every violation reported with piece,
//! square and rule, swapping, mirroring, and automatic arrangement.

#![allow(clippy::unwrap_used)]

mod common;

use std::collections::HashSet;

use common::{SENTE_FIXED, fixed_deployment, gote_fixed, sq};
use gunjin::rand::SeedableRng;
use gunjin::rand::rngs::SmallRng;
use gunjin::{
    BySide, Deployment, Game, Kind, Ruleset, Setup, SetupViolation, Side, Square, SwapError,
    placement_violation,
};

const STD: Ruleset = Ruleset::STANDARD;

/// The fixed sente setup with the kinds on two squares exchanged (no checks).
fn sente_with_swap(a: &str, b: &str) -> Setup {
    let mut setup = Setup::from_names(SENTE_FIXED.iter().copied());
    let (ia, ib) = (
        setup.pieces.iter().position(|&(s, _)| s == sq(a)).unwrap(),
        setup.pieces.iter().position(|&(s, _)| s == sq(b)).unwrap(),
    );
    let (ka, kb) = (setup.pieces[ia].1, setup.pieces[ib].1);
    setup.pieces[ia].1 = kb;
    setup.pieces[ib].1 = ka;
    setup
}

fn rule_ids(side: Side, setup: &Setup) -> Vec<&'static str> {
    let err = Deployment::new(side, setup, &STD).expect_err("setup must be rejected");
    assert_eq!(err.side, side);
    err.violations.iter().map(SetupViolation::rule_id).collect()
}

#[test]
fn a_full_legal_deployment_is_accepted_for_both_sides() {
    let sente = fixed_deployment(Side::Sente);
    let gote = fixed_deployment(Side::Gote);
    assert_eq!(sente.side(), Side::Sente);
    assert_eq!(gote.side(), Side::Gote);
    assert_eq!(sente.pieces().count(), 23);
    assert_eq!(sente.kind_at(sq("cd1")), Some(Kind::General));
    assert_eq!(gote.kind_at(sq("cd8")), Some(Kind::General));
    assert_eq!(sente.kind_at(sq("c5")), None);
    for side in Side::ALL {
        let d = fixed_deployment(side);
        for kind in Kind::ALL {
            assert_eq!(
                d.pieces().filter(|&(_, k)| k == kind).count(),
                usize::from(kind.count())
            );
        }
        assert!(d.pieces().all(|(s, _)| s.camp() == side));
        let again = Deployment::new(side, &d.to_setup(), &STD).unwrap();
        assert_eq!(again, d);
    }
}

#[test]
fn hq_aliases_are_accepted_in_a_setup() {
    let with_alias: Vec<(&str, &str)> = SENTE_FIXED
        .iter()
        .map(|&(s, k)| (if s == "cd1" { "d1" } else { s }, k))
        .collect();
    let d = Deployment::new(Side::Sente, &Setup::from_names(with_alias), &STD).unwrap();
    assert_eq!(d, fixed_deployment(Side::Sente));
}

#[test]
fn mine_may_not_stand_on_an_own_entrance() {
    // b4 holds a tank, a1 a mine.
    let setup = sente_with_swap("a1", "b4");
    let err = Deployment::new(Side::Sente, &setup, &STD).unwrap_err();
    assert_eq!(
        err.violations,
        [SetupViolation::MineOnEntrance { square: sq("b4") }]
    );
    let msg = err.to_string();
    assert!(
        msg.contains("mine") && msg.contains("b4") && msg.contains("entrance"),
        "{msg}"
    );
    // Gote's entrances are b5 and e5.
    assert_eq!(
        placement_violation(Side::Gote, sq("e5"), Kind::Mine, &STD),
        Some(SetupViolation::MineOnEntrance { square: sq("e5") })
    );
}

#[test]
fn flag_may_not_stand_on_an_own_entrance() {
    let setup = sente_with_swap("c2", "e4");
    let err = Deployment::new(Side::Sente, &setup, &STD).unwrap_err();
    assert_eq!(
        err.violations,
        [SetupViolation::FlagOnEntrance { square: sq("e4") }]
    );
    let msg = err.to_string();
    assert!(
        msg.contains("flag") && msg.contains("e4") && msg.contains("entrance"),
        "{msg}"
    );
}

#[test]
fn flag_may_not_stand_on_the_back_row_hq_included() {
    let setup = sente_with_swap("c2", "a1");
    assert_eq!(
        Deployment::new(Side::Sente, &setup, &STD)
            .unwrap_err()
            .violations,
        [SetupViolation::FlagOnBackRow { square: sq("a1") }]
    );
    let setup = sente_with_swap("c2", "cd1");
    let err = Deployment::new(Side::Sente, &setup, &STD).unwrap_err();
    assert_eq!(
        err.violations,
        [SetupViolation::FlagOnBackRow { square: sq("cd1") }]
    );
    assert!(err.to_string().contains("back row"));
    for name in ["a8", "b8", "cd8", "e8", "f8"] {
        assert_eq!(
            placement_violation(Side::Gote, sq(name), Kind::Flag, &STD),
            Some(SetupViolation::FlagOnBackRow { square: sq(name) })
        );
    }
}

#[test]
fn mine_may_stand_in_the_hq() {
    let setup = sente_with_swap("a1", "cd1");
    let d = Deployment::new(Side::Sente, &setup, &STD).unwrap();
    assert_eq!(d.kind_at(sq("cd1")), Some(Kind::Mine));
    assert_eq!(
        placement_violation(Side::Gote, sq("cd8"), Kind::Mine, &STD),
        None
    );
}

#[test]
fn flag_has_16_legal_squares_and_each_mine_21() {
    for side in Side::ALL {
        let flag = gunjin::camp_squares(side)
            .filter(|&s| placement_violation(side, s, Kind::Flag, &STD).is_none())
            .count();
        let mine = gunjin::camp_squares(side)
            .filter(|&s| placement_violation(side, s, Kind::Mine, &STD).is_none())
            .count();
        assert_eq!((flag, mine), (16, 21), "{side}");
    }
    // Every other kind may stand anywhere in its camp and nowhere outside.
    for kind in Kind::ALL
        .into_iter()
        .filter(|k| !matches!(k, Kind::Mine | Kind::Flag))
    {
        for s in Square::all() {
            let v = placement_violation(Side::Sente, s, kind, &STD);
            assert_eq!(v.is_none(), s.camp() == Side::Sente, "{kind} {s}");
        }
    }
}

#[test]
fn every_violation_is_reported_not_only_the_first() {
    // Mine on b4 and e4 (two entrances), flag on a1 (back row), generals swapped in: the
    // swaps below keep the counts right, so exactly three placement violations remain.
    let mut setup = sente_with_swap("a1", "b4");
    let f1 = setup
        .pieces
        .iter()
        .position(|&(s, _)| s == sq("f1"))
        .unwrap();
    let e4 = setup
        .pieces
        .iter()
        .position(|&(s, _)| s == sq("e4"))
        .unwrap();
    setup.pieces[f1].1 = Kind::Tank;
    setup.pieces[e4].1 = Kind::Mine;
    let c2 = setup
        .pieces
        .iter()
        .position(|&(s, _)| s == sq("c2"))
        .unwrap();
    let a1 = setup
        .pieces
        .iter()
        .position(|&(s, _)| s == sq("a1"))
        .unwrap();
    setup.pieces[c2].1 = Kind::Tank; // a1 had the tank from b4
    setup.pieces[a1].1 = Kind::Flag;
    let err = Deployment::new(Side::Sente, &setup, &STD).unwrap_err();
    let mut got = err.violations.clone();
    got.sort_by_key(ToString::to_string);
    let mut want = vec![
        SetupViolation::MineOnEntrance { square: sq("b4") },
        SetupViolation::MineOnEntrance { square: sq("e4") },
        SetupViolation::FlagOnBackRow { square: sq("a1") },
    ];
    want.sort_by_key(ToString::to_string);
    assert_eq!(got, want);
    let msg = err.to_string();
    assert!(
        msg.contains("b4") && msg.contains("e4") && msg.contains("a1"),
        "{msg}"
    );
}

#[test]
fn missing_piece_reports_the_empty_square_and_the_wrong_count() {
    let mut setup = Setup::from_names(SENTE_FIXED.iter().copied());
    setup.pieces.retain(|&(_, k)| k != Kind::Spy);
    let err = Deployment::new(Side::Sente, &setup, &STD).unwrap_err();
    assert!(
        err.violations
            .contains(&SetupViolation::EmptySquare { square: sq("f2") })
    );
    assert!(err.violations.contains(&SetupViolation::WrongCount {
        kind: Kind::Spy,
        expected: 1,
        found: 0,
        squares: vec![],
    }));
    assert_eq!(err.violations.len(), 2);
}

#[test]
fn piece_outside_the_camp_square_twice_and_extra_piece_are_reported() {
    let mut setup = Setup::from_names(SENTE_FIXED.iter().copied());
    setup.pieces.push((sq("c5"), Kind::General));
    setup.pieces.push((sq("a1"), Kind::Mine));
    let ids = rule_ids(Side::Sente, &setup);
    assert!(ids.contains(&"outside_camp"), "{ids:?}");
    assert!(ids.contains(&"square_twice"), "{ids:?}");
    assert!(ids.contains(&"wrong_count"), "{ids:?}");
    // The fixed sente setup is outside gote's camp on every square.
    let setup = Setup::from_names(SENTE_FIXED.iter().copied());
    let ids = rule_ids(Side::Gote, &setup);
    assert_eq!(ids.iter().filter(|&&i| i == "outside_camp").count(), 23);
    assert_eq!(ids.iter().filter(|&&i| i == "empty_square").count(), 23);
}

#[test]
fn unknown_square_and_kind_names_are_reported_with_the_rest() {
    let mut entries: Vec<(&str, &str)> = SENTE_FIXED.to_vec();
    entries[0] = ("z9", "mine");
    entries[1] = ("b1", "emperor");
    let err = Deployment::new(Side::Sente, &Setup::from_names(entries), &STD).unwrap_err();
    let ids: Vec<&str> = err.violations.iter().map(SetupViolation::rule_id).collect();
    assert!(ids.contains(&"unknown_square"));
    assert!(ids.contains(&"unknown_kind"));
    assert!(ids.contains(&"empty_square"));
    assert!(ids.contains(&"wrong_count"));
    let msg = err.to_string();
    assert!(msg.contains("z9") && msg.contains("emperor"), "{msg}");
}

/// The fixed setup of `side` with the kinds on two squares exchanged (no checks).
fn fixed_with_swap(side: Side, a: &str, b: &str) -> Setup {
    let mut setup = fixed_deployment(side).to_setup();
    let (ia, ib) = (
        setup.pieces.iter().position(|&(s, _)| s == sq(a)).unwrap(),
        setup.pieces.iter().position(|&(s, _)| s == sq(b)).unwrap(),
    );
    let (ka, kb) = (setup.pieces[ia].1, setup.pieces[ib].1);
    setup.pieces[ia].1 = kb;
    setup.pieces[ib].1 = ka;
    setup
}

/// The one violation with `rule_id` among those `setup` breaks, and the whole error message.
fn violation(
    side: Side,
    setup: &Setup,
    rules: &Ruleset,
    rule_id: &str,
) -> (SetupViolation, String) {
    let err = Deployment::new(side, setup, rules).expect_err("setup must be rejected");
    let found: Vec<&SetupViolation> = err
        .violations
        .iter()
        .filter(|v| v.rule_id() == rule_id)
        .collect();
    assert_eq!(found.len(), 1, "{rule_id} in {:?}", err.violations);
    (found[0].clone(), err.to_string())
}

#[test]
fn every_placement_violation_message_names_the_piece_the_square_and_the_rule() {
    let no_mine_in_hq = Ruleset {
        mine_in_hq: false,
        ..STD
    };
    // The gote spy (on a7 in the fixed setup) put on c4 instead, a square of sente's camp.
    let mut spy_outside = fixed_deployment(Side::Gote).to_setup();
    let spy = spy_outside
        .pieces
        .iter()
        .position(|&(_, k)| k == Kind::Spy)
        .unwrap();
    spy_outside.pieces[spy].0 = sq("c4");
    let mut emperor: Vec<(&str, &str)> = SENTE_FIXED.to_vec();
    emperor[1] = ("b1", "emperor");
    let emperor = Setup::from_names(emperor);

    // (side, setup, rules, rule id, [piece, square, words of the rule])
    let cases: Vec<(Side, Setup, Ruleset, &str, [&str; 3])> = vec![
        (
            Side::Sente,
            emperor,
            STD,
            "unknown_kind",
            ["\"emperor\"", "b1", "is not a kind of piece"],
        ),
        (
            Side::Gote,
            spy_outside,
            STD,
            "outside_camp",
            ["spy", "c4", "outside gote's camp"],
        ),
        (
            Side::Sente,
            sente_with_swap("a1", "b4"),
            STD,
            "mine_on_entrance",
            ["mine", "b4", "may not stand on an entrance"],
        ),
        (
            Side::Gote,
            fixed_with_swap(Side::Gote, "f8", "e5"),
            STD,
            "mine_on_entrance",
            ["mine", "e5", "may not stand on an entrance"],
        ),
        (
            Side::Sente,
            sente_with_swap("c2", "e4"),
            STD,
            "flag_on_entrance",
            ["flag", "e4", "may not stand on an entrance"],
        ),
        (
            Side::Gote,
            fixed_with_swap(Side::Gote, "d7", "b5"),
            STD,
            "flag_on_entrance",
            ["flag", "b5", "may not stand on an entrance"],
        ),
        (
            Side::Sente,
            sente_with_swap("c2", "cd1"),
            STD,
            "flag_on_back_row",
            ["flag", "cd1", "may not stand on the back row"],
        ),
        (
            Side::Gote,
            fixed_with_swap(Side::Gote, "d7", "a8"),
            STD,
            "flag_on_back_row",
            ["flag", "a8", "may not stand on the back row"],
        ),
        (
            Side::Sente,
            sente_with_swap("a1", "cd1"),
            no_mine_in_hq,
            "mine_in_hq",
            ["mine", "cd1", "no mine in the headquarters"],
        ),
    ];
    for (side, setup, rules, rule_id, parts) in cases {
        let (v, whole) = violation(side, &setup, &rules, rule_id);
        let msg = v.to_string();
        for part in parts {
            assert!(msg.contains(part), "{rule_id}: {part:?} not in {msg:?}");
        }
        assert!(whole.contains(&msg), "{whole}");
        assert!(
            whole.contains(&format!("invalid setup for {side}")),
            "{whole}"
        );
    }
}

#[test]
fn violations_without_a_placed_piece_name_what_they_have() {
    // A square name that names nothing: the piece, the name and the rule.
    let mut entries: Vec<(&str, &str)> = SENTE_FIXED.to_vec();
    entries[0] = ("z9", "mine");
    let (v, _) = violation(
        Side::Sente,
        &Setup::from_names(entries),
        &STD,
        "unknown_square",
    );
    assert_eq!(
        v.to_string(),
        "\"mine\" on \"z9\": \"z9\" is not a square of the board"
    );

    // Two pieces on one square: both pieces, the square and the rule.
    let mut twice = Setup::from_names(SENTE_FIXED.iter().copied());
    twice.pieces.push((sq("e3"), Kind::Spy));
    let (v, _) = violation(Side::Sente, &twice, &STD, "square_twice");
    let first = SENTE_FIXED
        .iter()
        .find(|&&(s, _)| s == "e3")
        .map(|&(_, k)| k)
        .expect("the fixed deployment fills e3");
    assert_eq!(
        v.to_string(),
        format!("e3 is given more than one piece ({first}, then spy): one piece per square")
    );

    // A square left empty: the square and the rule.
    let mut missing = Setup::from_names(SENTE_FIXED.iter().copied());
    missing.pieces.retain(|&(s, _)| s != sq("d4"));
    let (v, _) = violation(Side::Sente, &missing, &STD, "empty_square");
    assert_eq!(
        v.to_string(),
        "d4 is left empty: every square of the camp holds a piece"
    );

    // A wrong count: the kind, the count found and the count the game has.
    let (v, _) = violation(Side::Sente, &missing, &STD, "wrong_count");
    assert_eq!(v.to_string(), "cavalry: 0 placed, the game has 1");

    // Too many: the squares of every one placed, after the words a missing kind has too.
    let mut extra = Setup::from_names(SENTE_FIXED.iter().copied());
    for piece in &mut extra.pieces {
        if piece.0 == sq("e3") || piece.0 == sq("f4") {
            piece.1 = Kind::General;
        }
    }
    let err = Deployment::new(Side::Sente, &extra, &STD).unwrap_err();
    let generals: Vec<String> = err
        .violations
        .iter()
        .filter(|v| {
            matches!(
                v,
                SetupViolation::WrongCount {
                    kind: Kind::General,
                    ..
                }
            )
        })
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        generals,
        ["general: 3 placed, the game has 1 (placed on cd1 (the headquarters, c1/d1), e3, f4)"]
    );
}

#[test]
fn an_empty_setup_reports_every_square_and_every_kind() {
    let err = Deployment::new(Side::Gote, &Setup::default(), &STD).unwrap_err();
    let ids: Vec<&str> = err.violations.iter().map(SetupViolation::rule_id).collect();
    assert_eq!(ids.iter().filter(|&&i| i == "empty_square").count(), 23);
    assert_eq!(ids.iter().filter(|&&i| i == "wrong_count").count(), 16);
}

#[test]
fn swap_exchanges_two_pieces_of_the_camp() {
    let d = fixed_deployment(Side::Sente);
    let s = d.swapped(sq("cd1"), sq("a4")).unwrap();
    assert_eq!(s.kind_at(sq("cd1")), Some(Kind::Captain));
    assert_eq!(s.kind_at(sq("a4")), Some(Kind::General));
    assert_eq!(
        d.kind_at(sq("cd1")),
        Some(Kind::General),
        "original unchanged"
    );
    // A mine into the HQ is fine.
    let s = d.swapped(sq("a1"), sq("cd1")).unwrap();
    assert_eq!(s.kind_at(sq("cd1")), Some(Kind::Mine));
}

#[test]
fn swap_that_breaks_a_rule_is_refused_with_the_reason() {
    let d = fixed_deployment(Side::Sente);
    assert_eq!(
        d.swapped(sq("a1"), sq("b4")),
        Err(SwapError::Refused(SetupViolation::MineOnEntrance {
            square: sq("b4")
        }))
    );
    assert_eq!(
        d.swapped(sq("e4"), sq("c2")),
        Err(SwapError::Refused(SetupViolation::FlagOnEntrance {
            square: sq("e4")
        }))
    );
    assert_eq!(
        d.swapped(sq("c2"), sq("f1")),
        Err(SwapError::Refused(SetupViolation::FlagOnBackRow {
            square: sq("f1")
        }))
    );
    assert_eq!(
        d.swapped(sq("a1"), sq("a5")),
        Err(SwapError::OutsideCamp {
            side: Side::Sente,
            square: sq("a5")
        })
    );
    let msg = d.swapped(sq("a1"), sq("b4")).unwrap_err().to_string();
    assert!(msg.contains("mine") && msg.contains("b4"), "{msg}");
}

#[test]
fn mirror_is_legal_and_mirrors_every_piece() {
    for side in Side::ALL {
        for d in [fixed_deployment(side), Deployment::auto(side, 7)] {
            let m = d.mirrored();
            for (s, k) in d.pieces() {
                assert_eq!(m.kind_at(s.mirrored()), Some(k));
            }
            assert_eq!(Deployment::new(side, &m.to_setup(), &STD), Ok(m.clone()));
            assert_eq!(m.mirrored(), d);
        }
    }
}

/// The checks an automatic deployment must pass: legal, HQ holds the general or a mine with
/// the general beside it, the flag has a strong piece or a mine right behind it.
fn assert_sensible(d: &Deployment) {
    let side = d.side();
    assert_eq!(
        Deployment::new(side, &d.to_setup(), &STD).as_ref(),
        Ok(d),
        "auto deployment must be legal"
    );
    let hq = Square::hq(side);
    match d.kind_at(hq) {
        Some(Kind::General) => {}
        Some(Kind::Mine) => assert!(
            hq.neighbours().any(|n| d.kind_at(n) == Some(Kind::General)),
            "mine in HQ needs the general beside it"
        ),
        other => panic!("HQ holds {other:?}"),
    }
    let (flag_sq, _) = d.pieces().find(|&(_, k)| k == Kind::Flag).unwrap();
    let behind = flag_sq.behind(side).and_then(|b| d.kind_at(b));
    assert!(
        matches!(
            behind,
            Some(Kind::General | Kind::LieutenantGeneral | Kind::MajorGeneral | Kind::Mine)
        ),
        "flag on {flag_sq} has {behind:?} behind"
    );
}

#[test]
fn auto_arrangement_is_legal_and_sensible_for_many_seeds() {
    for seed in 0..300 {
        for side in Side::ALL {
            assert_sensible(&Deployment::auto(side, seed));
        }
    }
}

#[test]
fn auto_with_any_rng_is_legal_and_sensible() {
    let mut rng = SmallRng::seed_from_u64(99);
    for _ in 0..100 {
        for side in Side::ALL {
            assert_sensible(&Deployment::auto_with(side, &STD, &mut rng));
        }
    }
}

#[test]
fn auto_arrangement_sometimes_puts_a_mine_in_the_hq() {
    let kinds: HashSet<Option<Kind>> = (0..100)
        .map(|seed| Deployment::auto(Side::Sente, seed).kind_at(Square::HQ_SENTE))
        .collect();
    assert!(kinds.contains(&Some(Kind::General)));
    assert!(kinds.contains(&Some(Kind::Mine)));
}

#[test]
fn auto_arrangement_is_repeatable_and_varies_with_the_seed() {
    assert_eq!(
        Deployment::auto(Side::Gote, 5),
        Deployment::auto(Side::Gote, 5)
    );
    let distinct: HashSet<Deployment> = (0..50)
        .map(|seed| Deployment::auto(Side::Gote, seed))
        .collect();
    assert!(
        distinct.len() >= 45,
        "only {} distinct of 50",
        distinct.len()
    );
}

#[test]
fn game_refuses_a_deployment_given_to_the_wrong_side() {
    let err = Game::new(
        STD,
        BySide {
            sente: fixed_deployment(Side::Gote),
            gote: fixed_deployment(Side::Gote),
        },
    )
    .unwrap_err();
    assert_eq!(err.expected, Side::Sente);
    assert_eq!(err.found, Side::Gote);
}

#[test]
fn the_gote_fixture_is_the_sente_one_turned_round() {
    let g = gote_fixed();
    assert!(g.iter().any(|(s, k)| s == "cd8" && *k == "general"));
    assert!(g.iter().any(|(s, k)| s == "d7" && *k == "flag"));
    assert_eq!(
        fixed_deployment(Side::Gote).kind_at(sq("d7")),
        Some(Kind::Flag)
    );
}

#[test]
fn c1_and_d1_name_the_same_hq_square_so_both_is_a_square_given_twice() {
    let mut entries: Vec<(&str, &str)> = SENTE_FIXED
        .iter()
        .map(|&(s, k)| (if s == "cd1" { "c1" } else { s }, k))
        .collect();
    // Move the a1 mine onto "d1": the HQ gets two pieces and a1 is left empty.
    entries[0] = ("d1", "mine");
    let err = Deployment::new(Side::Sente, &Setup::from_names(entries), &STD).unwrap_err();
    assert!(err.violations.iter().any(|v| matches!(
        v,
        SetupViolation::SquareTwice { square, .. } if *square == sq("cd1")
    )));
    assert!(
        err.violations
            .contains(&SetupViolation::EmptySquare { square: sq("a1") })
    );
}

#[test]
fn a_deployment_round_trips_through_its_wire_map() {
    for side in Side::ALL {
        let d = Deployment::auto(side, 3);
        let wire: gunjin::wire::WireSetup = d
            .to_wire()
            .into_iter()
            .map(|(s, k)| (s.name().to_owned(), k.id().to_owned()))
            .collect();
        let json = serde_json::to_string(&wire).unwrap();
        let back: gunjin::wire::WireSetup = serde_json::from_str(&json).unwrap();
        assert_eq!(Deployment::new(side, &Setup::from_wire(&back), &STD), Ok(d));
    }
}

#[test]
fn a_setup_that_names_the_hq_c1_or_d1_finds_that_spelling_in_the_message() {
    for alias in ["c1", "d1"] {
        // The flag (on c2 in the fixed setup) written into the HQ under one of its spellings.
        let entries = SENTE_FIXED.iter().map(|&(square, kind)| match square {
            "cd1" => (alias, "flag"),
            "c2" => ("c2", "general"),
            _ => (square, kind),
        });
        let err = Deployment::new(Side::Sente, &Setup::from_names(entries), &STD).unwrap_err();
        assert_eq!(
            err.violations,
            [SetupViolation::FlagOnBackRow { square: sq("cd1") }]
        );
        let msg = err.to_string();
        for part in ["flag", "cd1", alias, "back row"] {
            assert!(msg.contains(part), "{part:?} not in {msg:?}");
        }
    }
}
