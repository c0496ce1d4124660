//! An arrangement carried to the other side ("前回の並べ方" after the sides changed): every piece
//! lands where the other player sees the same place from their own end, and the result is legal.
#![allow(clippy::unwrap_used)]

mod common;

use common::{fixed_deployment, sq};
use gunjin::{Deployment, Ruleset, Side, Square};

#[test]
fn squares_turn_half_round() {
    for (a, b) in [
        ("a1", "f8"),
        ("f1", "a8"),
        ("b4", "e5"),
        ("e4", "b5"),
        ("cd1", "cd8"),
        ("c3", "d6"),
    ] {
        assert_eq!(sq(a).turned(), sq(b), "{a}");
        assert_eq!(sq(b).turned(), sq(a), "{b}");
    }
    for s in Square::all() {
        assert_eq!(s.turned().turned(), s);
        assert_ne!(s.turned().camp(), s.camp(), "{s} changes camp");
    }
}

#[test]
fn a_turned_deployment_is_legal_and_keeps_every_piece_in_its_place() {
    for side in Side::ALL {
        for d in [
            fixed_deployment(side),
            Deployment::auto(side, 3),
            Deployment::auto(side, 11),
        ] {
            let t = d.turned();
            assert_eq!(t.side(), side.opponent());
            for (s, k) in d.pieces() {
                assert_eq!(t.kind_at(s.turned()), Some(k), "{k} from {s}");
            }
            assert_eq!(
                Deployment::new(t.side(), &t.to_setup(), &Ruleset::STANDARD),
                Ok(t.clone()),
                "the rules hold from the other end"
            );
            assert_eq!(t.turned(), d);
        }
    }
}
