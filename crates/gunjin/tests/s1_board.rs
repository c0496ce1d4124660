//! §1 Board: squares, camps, headquarters, river and bridges, forward.

#![allow(clippy::unwrap_used)]

mod common;

use common::{names, sq};
use gunjin::{Direction, Side, Square};

fn neighbour_names(name: &str) -> Vec<String> {
    let mut out: Vec<String> = sq(name).neighbours().map(|s| s.name().to_owned()).collect();
    out.sort();
    out
}

#[test]
fn board_has_46_squares_with_23_per_camp() {
    assert_eq!(Square::COUNT, 46);
    assert_eq!(Square::all().count(), 46);
    for side in Side::ALL {
        assert_eq!(Square::all().filter(|s| s.camp() == side).count(), 23);
        assert_eq!(gunjin::camp_squares(side).count(), gunjin::CAMP_SQUARES);
    }
    assert!(Square::from_index(45).is_some());
    assert!(Square::from_index(46).is_none());
}

#[test]
fn columns_a_to_f_rows_1_to_8_sente_rows_1_to_4() {
    for s in Square::all() {
        assert!((1..=8).contains(&s.row()));
        assert!(s.col() <= 5);
        let expected = if s.row() <= 4 {
            Side::Sente
        } else {
            Side::Gote
        };
        assert_eq!(s.camp(), expected, "{s}");
    }
    assert_eq!(sq("a1").col(), 0);
    assert_eq!(sq("f8").col(), 5);
    assert_eq!(sq("b3").row(), 3);
}

#[test]
fn every_name_round_trips_and_names_are_unique() {
    let all: Vec<&str> = Square::all().map(Square::name).collect();
    let mut unique = all.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), 46);
    for s in Square::all() {
        assert_eq!(Square::parse(s.name()), Some(s));
        assert_eq!(s.name().parse::<Square>(), Ok(s));
        assert_eq!(Square::from_index(s.index()), Some(s));
        assert_eq!(s.to_string(), s.name());
    }
    assert_eq!(all[0], "a1");
    assert_eq!(all[45], "f8");
}

#[test]
fn hq_is_one_square_named_cd1_and_cd8_with_aliases() {
    for alias in ["cd1", "c1", "d1"] {
        assert_eq!(Square::parse(alias), Some(Square::HQ_SENTE), "{alias}");
    }
    for alias in ["cd8", "c8", "d8"] {
        assert_eq!(Square::parse(alias), Some(Square::HQ_GOTE), "{alias}");
    }
    assert_eq!(Square::HQ_SENTE.name(), "cd1");
    assert_eq!(Square::HQ_GOTE.name(), "cd8");
    assert_eq!(Square::hq(Side::Sente), Square::HQ_SENTE);
    assert_eq!(Square::hq(Side::Gote), Square::HQ_GOTE);
    assert_eq!(Square::at(2, 1), Some(Square::HQ_SENTE));
    assert_eq!(Square::at(3, 1), Some(Square::HQ_SENTE));
    assert_eq!(Square::at(2, 8), Some(Square::HQ_GOTE));
    assert_eq!(Square::at(3, 8), Some(Square::HQ_GOTE));
    assert_eq!(Square::all().filter(|s| s.is_hq()).count(), 2);
    assert_eq!(Square::HQ_SENTE.camp(), Side::Sente);
    assert_eq!(Square::HQ_GOTE.camp(), Side::Gote);
}

#[test]
fn parse_rejects_names_that_are_not_squares() {
    for bad in [
        "", "a", "a0", "a9", "g1", "A1", "b33", "cd2", "dc1", "cd", "1a", " a1", "a1 ", "é1",
    ] {
        assert_eq!(Square::parse(bad), None, "{bad:?}");
        assert!(bad.parse::<Square>().is_err(), "{bad:?}");
    }
    assert_eq!(Square::at(6, 1), None);
    assert_eq!(Square::at(0, 0), None);
    assert_eq!(Square::at(0, 9), None);
}

#[test]
fn neighbours_of_cd1_are_b1_e1_c2_d2() {
    assert_eq!(neighbour_names("cd1"), names("b1 e1 c2 d2"));
}

#[test]
fn neighbours_of_cd8_are_b8_e8_c7_d7() {
    assert_eq!(neighbour_names("cd8"), names("b8 e8 c7 d7"));
}

#[test]
fn squares_beside_the_hq_have_it_as_neighbour() {
    assert_eq!(neighbour_names("b1"), names("a1 cd1 b2"));
    assert_eq!(neighbour_names("e1"), names("cd1 f1 e2"));
    assert_eq!(neighbour_names("c2"), names("cd1 b2 d2 c3"));
    assert_eq!(neighbour_names("d2"), names("cd1 c2 e2 d3"));
    assert_eq!(neighbour_names("c7"), names("cd8 b7 d7 c6"));
    assert_eq!(neighbour_names("e8"), names("cd8 f8 e7"));
}

#[test]
fn river_separates_rows_4_and_5_except_at_the_bridges() {
    for col in ["a", "c", "d", "f"] {
        let four = format!("{col}4");
        let five = format!("{col}5");
        assert!(!neighbour_names(&four).contains(&five), "{four}");
        assert!(!neighbour_names(&five).contains(&four), "{five}");
    }
    assert_eq!(neighbour_names("a4"), names("a3 b4"));
    assert_eq!(neighbour_names("c4"), names("c3 b4 d4"));
}

#[test]
fn bridges_join_b4_b5_and_e4_e5() {
    assert_eq!(neighbour_names("b4"), names("b3 b5 a4 c4"));
    assert_eq!(neighbour_names("b5"), names("b4 b6 a5 c5"));
    assert_eq!(neighbour_names("e4"), names("e3 e5 d4 f4"));
    assert_eq!(neighbour_names("e5"), names("e4 e6 d5 f5"));
}

#[test]
fn neighbour_relation_is_symmetric_and_without_self() {
    for a in Square::all() {
        for b in a.neighbours() {
            assert_ne!(a, b);
            assert!(b.neighbours().any(|c| c == a), "{a} -> {b} but not back");
        }
    }
    let edges: usize = Square::all().map(|s| s.neighbours().count()).sum();
    // Per camp: rows 2-4 have 3 x 5 horizontal edges, row 1 has 4 (a1-b1, b1-cd1, cd1-e1, e1-f1);
    // vertical: 6 columns x 2 between rows 2-4, plus c2-cd1 and d2-cd1 and a, b, e, f to row 1.
    // That is 15 + 4 + 12 + 6 = 37 per camp, and 2 bridges: 76 edges, each counted twice.
    assert_eq!(edges, 2 * 76);
}

#[test]
fn entrances_are_b4_e4_for_sente_and_b5_e5_for_gote() {
    let of = |side| {
        let mut v: Vec<String> = Square::all()
            .filter(|s| s.is_entrance_of(side))
            .map(|s| s.name().to_owned())
            .collect();
        v.sort();
        v
    };
    assert_eq!(of(Side::Sente), names("b4 e4"));
    assert_eq!(of(Side::Gote), names("b5 e5"));
}

#[test]
fn forward_is_plus_row_for_sente_and_minus_row_for_gote() {
    assert_eq!(Direction::forward(Side::Sente), Direction::North);
    assert_eq!(Direction::forward(Side::Gote), Direction::South);
    assert_eq!(sq("b3").walk_rays(Direction::North)[0][0], sq("b4"));
    assert_eq!(sq("b6").walk_rays(Direction::South)[0][0], sq("b5"));
    assert_eq!(sq("a1").relative_row(Side::Sente), 1);
    assert_eq!(sq("a1").relative_row(Side::Gote), 8);
    assert_eq!(sq("f8").relative_row(Side::Gote), 1);
}

#[test]
fn behind_is_one_row_back_toward_the_own_side_and_cd_for_c2_d2_c7_d7() {
    assert_eq!(sq("c2").behind(Side::Sente), Some(Square::HQ_SENTE));
    assert_eq!(sq("d2").behind(Side::Sente), Some(Square::HQ_SENTE));
    assert_eq!(sq("c7").behind(Side::Gote), Some(Square::HQ_GOTE));
    assert_eq!(sq("d7").behind(Side::Gote), Some(Square::HQ_GOTE));
    assert_eq!(sq("b3").behind(Side::Sente), Some(sq("b2")));
    assert_eq!(sq("b6").behind(Side::Gote), Some(sq("b7")));
    assert_eq!(sq("a1").behind(Side::Sente), None);
    assert_eq!(sq("a8").behind(Side::Gote), None);
}

#[test]
fn mirror_swaps_columns_and_keeps_the_hq() {
    assert_eq!(sq("a1").mirrored(), sq("f1"));
    assert_eq!(sq("b4").mirrored(), sq("e4"));
    assert_eq!(sq("c3").mirrored(), sq("d3"));
    assert_eq!(Square::HQ_SENTE.mirrored(), Square::HQ_SENTE);
    assert_eq!(Square::HQ_GOTE.mirrored(), Square::HQ_GOTE);
    for s in Square::all() {
        assert_eq!(s.mirrored().mirrored(), s);
        assert_eq!(s.mirrored().row(), s.row());
    }
}

#[test]
fn lines_from_the_hq_start_along_column_c_and_column_d() {
    let north: Vec<Vec<&str>> = Square::HQ_SENTE
        .walk_rays(Direction::North)
        .iter()
        .map(|r| r.iter().map(|s| s.name()).collect())
        .collect();
    assert_eq!(north, vec![vec!["c2", "c3", "c4"], vec!["d2", "d3", "d4"]]);
    let south: Vec<Vec<&str>> = Square::HQ_GOTE
        .walk_rays(Direction::South)
        .iter()
        .map(|r| r.iter().map(|s| s.name()).collect())
        .collect();
    assert_eq!(south, vec![vec!["c7", "c6", "c5"], vec!["d7", "d6", "d5"]]);
    assert!(Square::HQ_SENTE.walk_rays(Direction::South).is_empty());
}

#[test]
fn lines_sideways_from_the_hq_lead_to_b_and_e() {
    let east: Vec<&str> = Square::HQ_SENTE.walk_rays(Direction::East)[0]
        .iter()
        .map(|s| s.name())
        .collect();
    let west: Vec<&str> = Square::HQ_SENTE.walk_rays(Direction::West)[0]
        .iter()
        .map(|s| s.name())
        .collect();
    assert_eq!(east, ["e1", "f1"]);
    assert_eq!(west, ["b1", "a1"]);
}

#[test]
fn every_line_ends_on_entering_an_hq() {
    for s in Square::all() {
        for d in Direction::ALL {
            for ray in s.walk_rays(d).iter().chain(s.fly_rays(d)) {
                for (i, step) in ray.iter().enumerate() {
                    if step.is_hq() {
                        assert_eq!(i + 1, ray.len(), "line from {s} passes {step}");
                    }
                }
            }
        }
    }
}

#[test]
fn flight_lines_cross_the_river_anywhere_but_walk_lines_only_on_bridges() {
    let fly: Vec<&str> = sq("a3").fly_rays(Direction::North)[0]
        .iter()
        .map(|s| s.name())
        .collect();
    assert_eq!(fly, ["a4", "a5", "a6", "a7", "a8"]);
    let walk: Vec<&str> = sq("a3").walk_rays(Direction::North)[0]
        .iter()
        .map(|s| s.name())
        .collect();
    assert_eq!(walk, ["a4"]);
    let bridge: Vec<&str> = sq("b3").walk_rays(Direction::North)[0]
        .iter()
        .map(|s| s.name())
        .collect();
    assert_eq!(bridge, ["b4", "b5", "b6", "b7", "b8"]);
    // From the HQ, both flights north reach cd8; that square is listed once.
    let flights: Vec<Vec<&str>> = Square::HQ_SENTE
        .fly_rays(Direction::North)
        .iter()
        .map(|r| r.iter().map(|s| s.name()).collect())
        .collect();
    assert_eq!(
        flights,
        vec![
            vec!["c2", "c3", "c4", "c5", "c6", "c7", "cd8"],
            vec!["d2", "d3", "d4", "d5", "d6", "d7"]
        ]
    );
    assert!(sq("c3").fly_rays(Direction::East).is_empty());
}
