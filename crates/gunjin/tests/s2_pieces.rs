//! §2 Pieces: the table of kinds (ids, names, counts), the six officers, and each kind's way of
//! moving on an open board.

#![allow(clippy::unwrap_used)]

mod common;

use common::{dests, names, pos};
use gunjin::{Kind, Side};

/// The spec's table: id, ja, ko, count.
const TABLE: [(&str, &str, &str, u8); 16] = [
    ("general", "大将", "대장", 1),
    ("lieutenant_general", "中将", "중장", 1),
    ("major_general", "少将", "소장", 1),
    ("colonel", "大佐", "대령", 1),
    ("lieutenant_colonel", "中佐", "중령", 1),
    ("major", "少佐", "소령", 1),
    ("captain", "大尉", "대위", 2),
    ("lieutenant", "中尉", "중위", 2),
    ("second_lieutenant", "少尉", "소위", 2),
    ("cavalry", "騎兵", "기병", 1),
    ("engineer", "工兵", "공병", 2),
    ("tank", "タンク", "탱크", 2),
    ("plane", "飛行機", "비행기", 2),
    ("spy", "スパイ", "스파이", 1),
    ("mine", "地雷", "지뢰", 2),
    ("flag", "軍旗", "군기", 1),
];

#[test]
fn kinds_ids_names_and_counts_follow_the_table() {
    assert_eq!(Kind::ALL.len(), TABLE.len());
    for (kind, (id, ja, ko, count)) in Kind::ALL.into_iter().zip(TABLE) {
        assert_eq!(kind.id(), id);
        assert_eq!(kind.name_ja(), ja);
        assert_eq!(kind.name_ko(), ko);
        assert_eq!(kind.count(), count, "{id}");
        assert_eq!(Kind::from_id(id), Some(kind));
        assert_eq!(kind.to_string(), id);
        assert!(!kind.name_en().is_empty());
    }
    assert_eq!(Kind::from_id("General"), None);
    assert_eq!(Kind::from_id("大将"), None);
    assert_eq!(Kind::from_id(""), None);
}

#[test]
fn each_side_has_23_pieces() {
    let total: u32 = Kind::ALL.iter().map(|k| u32::from(k.count())).sum();
    assert_eq!(total, 23);
    assert_eq!(Kind::PIECES_PER_SIDE, 23);
}

#[test]
fn the_six_officers_general_to_major_can_occupy_and_no_others() {
    let officers: Vec<Kind> = Kind::ALL.into_iter().filter(|k| k.can_occupy()).collect();
    assert_eq!(
        officers,
        [
            Kind::General,
            Kind::LieutenantGeneral,
            Kind::MajorGeneral,
            Kind::Colonel,
            Kind::LieutenantColonel,
            Kind::Major
        ]
    );
}

#[test]
fn mine_and_flag_cannot_move_and_every_other_kind_can() {
    for k in Kind::ALL {
        assert_eq!(k.is_mobile(), !matches!(k, Kind::Mine | Kind::Flag), "{k}");
    }
    let p = pos("s:mine@c3 s:flag@d3 g:general@a8", Side::Sente);
    assert!(dests(&p, "c3").is_empty());
    assert!(dests(&p, "d3").is_empty());
}

#[test]
fn strength_order_general_first_spy_last() {
    let order = [
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
    for pair in order.windows(2) {
        assert!(pair[0].strength() > pair[1].strength(), "{pair:?}");
    }
    assert_eq!(Kind::Mine.strength(), None);
    assert_eq!(Kind::Flag.strength(), None);
}

#[test]
fn one_step_pieces_move_one_square_orthogonally() {
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
        "spy",
    ] {
        for (side, to_move) in [("s", Side::Sente), ("g", Side::Gote)] {
            let p = pos(&format!("{side}:{kind}@c3"), to_move);
            assert_eq!(dests(&p, "c3"), names("c2 c4 b3 d3"), "{side} {kind}");
        }
    }
}

#[test]
fn cavalry_and_tank_step_or_go_two_straight_forward() {
    for kind in ["cavalry", "tank"] {
        let p = pos(&format!("s:{kind}@c2"), Side::Sente);
        assert_eq!(dests(&p, "c2"), names("cd1 b2 d2 c3 c4"), "sente {kind}");
        let p = pos(&format!("g:{kind}@c7"), Side::Gote);
        assert_eq!(dests(&p, "c7"), names("cd8 b7 d7 c6 c5"), "gote {kind}");
        // Never two backward or sideways.
        let p = pos(&format!("s:{kind}@c6"), Side::Sente);
        assert_eq!(
            dests(&p, "c6"),
            names("c5 c7 b6 d6 cd8"),
            "sente {kind} near cd8"
        );
    }
}

#[test]
fn engineer_moves_any_distance_orthogonally() {
    let p = pos("s:engineer@c3", Side::Sente);
    // North stops at the river on column c; south enters the HQ and stops.
    assert_eq!(dests(&p, "c3"), names("c4 c2 cd1 a3 b3 d3 e3 f3"));
    let p = pos("s:engineer@b3", Side::Sente);
    assert_eq!(
        dests(&p, "b3"),
        names("b4 b5 b6 b7 b8 b2 b1 a3 c3 d3 e3 f3")
    );
}

#[test]
fn plane_flies_along_its_column_and_steps_one_sideways() {
    let p = pos("s:plane@a3", Side::Sente);
    assert_eq!(dests(&p, "a3"), names("a1 a2 a4 a5 a6 a7 a8 b3"));
    let p = pos("g:plane@f6", Side::Gote);
    assert_eq!(dests(&p, "f6"), names("f1 f2 f3 f4 f5 f7 f8 e6"));
}
