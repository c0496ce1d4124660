//! Known values read from `testdata/`: positions with their hand-counted legal moves, and battle
//! outcomes (as a table and played on a board).

#![allow(clippy::unwrap_used)]

mod common;

use common::{mv, pieces, sq};
use gunjin::{Kind, Outcome, Position, Ruleset, Side, resolve_battle};
use serde_json::Value;

fn load(name: &str) -> Value {
    let path = format!("{}/testdata/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn side(v: &Value) -> Side {
    Side::from_id(v.as_str().unwrap()).unwrap()
}

fn kind(v: &Value) -> Kind {
    Kind::from_id(v.as_str().unwrap()).unwrap()
}

fn outcome(v: &Value) -> Outcome {
    serde_json::from_value(v.clone()).unwrap()
}

fn position(case: &Value) -> Position {
    Position::from_pieces(
        Ruleset::STANDARD,
        pieces(case["pieces"].as_str().unwrap()),
        side(&case["to_move"]),
        0,
    )
    .unwrap()
}

/// Moves as `[from, to]` name pairs sorted by from then to as strings (the referee's order).
fn sorted_names(p: &Position) -> Vec<[String; 2]> {
    let mut v: Vec<[String; 2]> = p
        .legal_moves()
        .iter()
        .map(|m| [m.from.name().to_owned(), m.to.name().to_owned()])
        .collect();
    v.sort();
    v
}

/// Move sequences of length `depth` (a game that ends earlier ends its sequence: it counts as
/// nothing).
fn perft(p: &Position, depth: usize) -> u64 {
    let moves = p.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| {
            let mut next = p.clone();
            next.play(m).unwrap();
            perft(&next, depth - 1)
        })
        .sum()
}

#[test]
fn known_positions_have_their_hand_counted_legal_moves() {
    let data = load("positions.json");
    let cases = data["positions"].as_array().unwrap();
    assert!(cases.len() >= 10);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let p = position(case);
        let count = case["legal_moves"].as_u64().unwrap() as usize;
        assert_eq!(p.legal_moves().len(), count, "{name}");
        if let Some(moves) = case.get("moves") {
            let want: Vec<[String; 2]> = serde_json::from_value(moves.clone()).unwrap();
            assert_eq!(sorted_names(&p), want, "{name}");
        }
        if let Some(perft_counts) = case.get("perft") {
            for (depth, want) in perft_counts.as_array().unwrap().iter().enumerate() {
                assert_eq!(
                    perft(&p, depth + 1),
                    want.as_u64().unwrap(),
                    "{name}: perft {}",
                    depth + 1
                );
            }
        }
        let status = case
            .get("status")
            .cloned()
            .unwrap_or(serde_json::json!({"state": "ongoing"}));
        assert_eq!(serde_json::to_value(p.status()).unwrap(), status, "{name}");
    }
}

#[test]
fn known_battles_resolve_as_listed() {
    let data = load("battles.json");
    let cases = data["battles"].as_array().unwrap();
    assert!(cases.len() >= 30);
    for case in cases {
        let behind = (!case["behind"].is_null()).then(|| kind(&case["behind"]));
        assert_eq!(
            resolve_battle(
                kind(&case["attacker"]),
                kind(&case["defender"]),
                behind,
                &Ruleset::STANDARD
            ),
            outcome(&case["outcome"]),
            "{case}"
        );
    }
}

#[test]
fn known_battles_on_the_board_leave_the_listed_board() {
    let data = load("battles.json");
    for case in data["plays"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let mut p = position(case);
        let [from, to] = [&case["move"][0], &case["move"][1]].map(|v| v.as_str().unwrap());
        let played = p.play(mv(from, to)).unwrap();
        let battle = played.battle.unwrap();
        assert_eq!(battle.square, sq(to), "{name}");
        assert_eq!(battle.outcome, outcome(&case["outcome"]), "{name}");
        let mut after: Vec<_> = pieces(case["after"].as_str().unwrap());
        after.sort_by_key(|&(s, _)| s);
        let now: Vec<_> = p.pieces().collect();
        assert_eq!(now, after, "{name}");
        if let Some(status) = case.get("status") {
            assert_eq!(&serde_json::to_value(p.status()).unwrap(), status, "{name}");
        }
    }
}
