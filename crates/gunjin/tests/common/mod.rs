//! Helpers shared by the rule tests: positions written as short strings, square names, and a
//! hand-written legal deployment.
#![allow(dead_code)]

use gunjin::{BySide, Deployment, Game, Kind, Move, Piece, Position, Ruleset, Setup, Side, Square};

/// A square by name; panics on a bad name (test input only).
pub fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("bad square {name:?}"))
}

/// A move by square names.
pub fn mv(from: &str, to: &str) -> Move {
    Move {
        from: sq(from),
        to: sq(to),
    }
}

/// Parses `"s:tank@b3 g:mine@b5"`: side (`s`/`g`), kind id, square.
pub fn pieces(spec: &str) -> Vec<(Square, Piece)> {
    spec.split_whitespace()
        .map(|tok| {
            let (side, rest) = tok.split_once(':').expect("side:kind@square");
            let (kind, square) = rest.split_once('@').expect("side:kind@square");
            let side = match side {
                "s" => Side::Sente,
                "g" => Side::Gote,
                other => panic!("bad side {other:?}"),
            };
            let kind = Kind::from_id(kind).unwrap_or_else(|| panic!("bad kind {kind:?}"));
            (sq(square), Piece { side, kind })
        })
        .collect()
}

/// A position from a piece string, with `to_move` to move and no plies without battle.
pub fn pos(spec: &str, to_move: Side) -> Position {
    Position::from_pieces(Ruleset::STANDARD, pieces(spec), to_move, 0).expect("valid position")
}

/// The names of the squares the piece on `from` can enter, sorted by name.
pub fn dests(p: &Position, from: &str) -> Vec<String> {
    let d = p.destinations(sq(from));
    let mut out: Vec<String> = d
        .moves
        .iter()
        .chain(d.attacks.iter())
        .map(|s| s.name().to_owned())
        .collect();
    out.sort();
    out
}

/// Sorted square names from a space-separated list.
pub fn names(list: &str) -> Vec<String> {
    let mut out: Vec<String> = list.split_whitespace().map(str::to_owned).collect();
    out.sort();
    out
}

/// The destinations of `from` among the legal moves of the side to move, sorted by name.
pub fn legal_dests(p: &Position, from: &str) -> Vec<String> {
    let from = sq(from);
    let mut out: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.from == from)
        .map(|m| m.to.name().to_owned())
        .collect();
    out.sort();
    out
}

/// A fixed legal sente deployment, written by hand (rows 1 to 4):
///
/// ```text
/// row 4: a4 captain    b4 tank      c4 lieutenant d4 cavalry   e4 tank       f4 captain
/// row 3: a3 engineer   b3 2nd lt    c3 lt colonel d3 major     e3 2nd lt     f3 engineer
/// row 2: a2 lieutenant b2 plane     c2 flag       d2 colonel   e2 plane      f2 spy
/// row 1: a1 mine       b1 lt gen    cd1 general                e1 maj gen    f1 mine
/// ```
pub const SENTE_FIXED: &[(&str, &str)] = &[
    ("a1", "mine"),
    ("b1", "lieutenant_general"),
    ("cd1", "general"),
    ("e1", "major_general"),
    ("f1", "mine"),
    ("a2", "lieutenant"),
    ("b2", "plane"),
    ("c2", "flag"),
    ("d2", "colonel"),
    ("e2", "plane"),
    ("f2", "spy"),
    ("a3", "engineer"),
    ("b3", "second_lieutenant"),
    ("c3", "lieutenant_colonel"),
    ("d3", "major"),
    ("e3", "second_lieutenant"),
    ("f3", "engineer"),
    ("a4", "captain"),
    ("b4", "tank"),
    ("c4", "lieutenant"),
    ("d4", "cavalry"),
    ("e4", "tank"),
    ("f4", "captain"),
];

/// [`SENTE_FIXED`] turned to gote's camp by rotating the board half a turn (a1 ↔ f8), so each
/// piece keeps its place as its owner sees it.
pub fn gote_fixed() -> Vec<(String, &'static str)> {
    SENTE_FIXED
        .iter()
        .map(|&(name, kind)| (rotate(name), kind))
        .collect()
}

/// The square a half turn of the board puts `name` on (a1 ↔ f8, cd1 ↔ cd8).
pub fn rotate(name: &str) -> String {
    if name == "cd1" {
        return "cd8".into();
    }
    if name == "cd8" {
        return "cd1".into();
    }
    let b = name.as_bytes();
    let col = (b'f' - (b[0] - b'a')) as char;
    let row = (b'9' - (b[1] - b'0')) as char;
    format!("{col}{row}")
}

/// The fixed deployment of `side`.
pub fn fixed_deployment(side: Side) -> Deployment {
    let setup = match side {
        Side::Sente => Setup::from_names(SENTE_FIXED.iter().copied()),
        Side::Gote => {
            let g = gote_fixed();
            Setup::from_names(g.iter().map(|(s, k)| (s.as_str(), *k)))
        }
    };
    Deployment::new(side, &setup, &Ruleset::STANDARD).expect("the fixed deployment is legal")
}

/// A new game from the fixed deployments.
pub fn fixed_game() -> Game {
    Game::new(Ruleset::STANDARD, BySide::new_with(fixed_deployment))
        .expect("deployments on their own sides")
}

/// A new game from seeded automatic deployments.
pub fn auto_game(seed: u64) -> Game {
    Game::new(
        Ruleset::STANDARD,
        BySide::new_with(|side| Deployment::auto(side, seed.wrapping_add(side.index() as u64))),
    )
    .expect("deployments on their own sides")
}
