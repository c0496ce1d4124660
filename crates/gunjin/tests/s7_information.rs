//! §7 Information: a player's view holds its own kinds, enemy squares only, its own removed
//! pieces by kind and the enemy's by count, the whole history, and everything after the end.

#![allow(clippy::unwrap_used)]

mod common;

use common::{auto_game, fixed_deployment, fixed_game, mv, sq};
use gunjin::wire::WireView;
use gunjin::{BySide, Game, Kind, Outcome, PlayerView, Ruleset, Side, ViewError};
use serde_json::Value;

/// A short game from the fixed deployments with battles of every outcome. Gote's camp is sente's
/// turned round: b5 and e5 hold tanks, a5 a captain, c5 the cavalry.
fn game_with_battles() -> Game {
    let mut game = fixed_game();
    let plies = [
        ("b4", "b5", Some(Outcome::Both)),     // tank meets tank
        ("e5", "e4", Some(Outcome::Both)),     // tank meets tank
        ("a4", "b4", None),                    // sente captain onto the bridge end
        ("a5", "b5", None),                    // gote captain likewise
        ("b2", "b5", Some(Outcome::Attacker)), // plane flies over b3 and b4, beats the captain
        ("c5", "b5", Some(Outcome::Defender)), // cavalry loses to the plane
    ];
    for (from, to, outcome) in plies {
        let ply = game.play(mv(from, to)).unwrap();
        assert_eq!(ply.battle.map(|b| b.outcome), outcome, "{from}-{to}");
    }
    game
}

fn enemy_pieces_in_json(view: &Value, viewer: &str) -> Vec<Value> {
    view["pieces"]
        .as_object()
        .unwrap()
        .values()
        .filter(|p| p["side"] != viewer)
        .cloned()
        .collect()
}

#[test]
fn view_holds_own_pieces_with_kinds_and_enemy_squares_only() {
    let game = game_with_battles();
    let pos = game.position();
    for side in Side::ALL {
        let view = game.view(side);
        assert_eq!(view.side(), side);
        let own: Vec<_> = pos
            .pieces()
            .filter(|(_, p)| p.side == side)
            .map(|(s, p)| (s, p.kind))
            .collect();
        assert_eq!(view.own(), own.as_slice());
        let enemy: Vec<_> = pos
            .pieces()
            .filter(|(_, p)| p.side != side)
            .map(|(s, _)| s)
            .collect();
        assert_eq!(view.enemy(), enemy.as_slice());
        assert!(view.revealed().is_none());
        for &(s, k) in view.own() {
            assert_eq!(view.own_at(s), Some(k));
            assert!(!view.enemy_at(s));
        }
        for &s in view.enemy() {
            assert!(view.enemy_at(s));
            assert_eq!(view.own_at(s), None);
        }
        assert_eq!(view.to_move(), pos.to_move());
        assert_eq!(view.plies_without_battle(), pos.plies_without_battle());
        assert_eq!(view.status(), pos.status());
    }
}

#[test]
fn removed_pieces_own_by_kind_enemy_by_count() {
    let game = game_with_battles();
    let sente = game.view(Side::Sente);
    assert_eq!(sente.removed_own(), [Kind::Tank, Kind::Tank]);
    assert_eq!(sente.removed_enemy_count(), 4);
    let gote = game.view(Side::Gote);
    assert_eq!(
        gote.removed_own(),
        [Kind::Tank, Kind::Tank, Kind::Captain, Kind::Cavalry]
    );
    assert_eq!(gote.removed_enemy_count(), 2);
    let wire = serde_json::to_value(WireView::from(&sente)).unwrap();
    assert_eq!(
        wire["removed"],
        serde_json::json!({"own": ["tank", "tank"], "enemy_count": 4})
    );
    let wire = serde_json::to_value(WireView::from(&gote)).unwrap();
    assert_eq!(
        wire["removed"],
        serde_json::json!({"own": ["tank", "tank", "captain", "cavalry"], "enemy_count": 2})
    );
}

#[test]
fn view_holds_the_full_history_for_both_sides() {
    let game = game_with_battles();
    for side in Side::ALL {
        let view = game.view(side);
        assert_eq!(view.history(), game.history());
        assert_eq!(view.history().len(), 6);
        assert_eq!(view.history()[0].side, Side::Sente);
        assert_eq!(view.history()[1].side, Side::Gote);
        assert_eq!(view.history()[0].battle.unwrap().square, sq("b5"));
    }
}

#[test]
fn wire_view_gives_enemy_pieces_without_kind_while_the_game_is_on() {
    let game = game_with_battles();
    for (side, id) in [(Side::Sente, "sente"), (Side::Gote, "gote")] {
        let json = serde_json::to_value(WireView::from(&game.view(side))).unwrap();
        let enemies = enemy_pieces_in_json(&json, id);
        assert_eq!(enemies.len(), game.view(side).enemy().len());
        for p in enemies {
            assert_eq!(p, serde_json::json!({"side": side.opponent().id()}));
        }
        for p in json["pieces"].as_object().unwrap().values() {
            if p["side"] == id {
                assert!(p["kind"].is_string());
            }
        }
        assert!(json["removed"].get("enemy").is_none());
        assert_eq!(json["status"], serde_json::json!({"state": "ongoing"}));
    }
}

#[test]
fn view_is_the_same_whatever_the_enemy_kinds_are() {
    // Gote rearranges two pieces; sente's view (and its JSON) cannot tell.
    let gote = fixed_deployment(Side::Gote);
    let other = gote.swapped(sq("cd8"), sq("a7")).unwrap();
    let mk = |g| {
        Game::new(
            Ruleset::STANDARD,
            BySide {
                sente: fixed_deployment(Side::Sente),
                gote: g,
            },
        )
        .unwrap()
    };
    let (mut a, mut b) = (mk(gote), mk(other));
    assert_eq!(a.view(Side::Sente), b.view(Side::Sente));
    for m in [mv("b4", "b5"), mv("e5", "e4")] {
        a.play(m).unwrap();
        b.play(m).unwrap();
    }
    assert_eq!(a.view(Side::Sente), b.view(Side::Sente));
    assert_eq!(
        serde_json::to_string(&WireView::from(&a.view(Side::Sente))).unwrap(),
        serde_json::to_string(&WireView::from(&b.view(Side::Sente))).unwrap()
    );
    assert_ne!(a.view(Side::Gote), b.view(Side::Gote));
}

#[test]
fn everything_is_revealed_after_the_end() {
    let mut game = game_with_battles();
    game.resign(Side::Sente).unwrap();
    let pos = game.position();
    for (side, id) in [(Side::Sente, "sente"), (Side::Gote, "gote")] {
        let view = game.view(side);
        let revealed = view.revealed().unwrap();
        let all: Vec<_> = pos.pieces().collect();
        assert_eq!(revealed.pieces(), all.as_slice());
        assert_eq!(revealed.removed().sente, [Kind::Tank, Kind::Tank]);
        assert_eq!(
            revealed.removed().gote,
            [Kind::Captain, Kind::Cavalry, Kind::Tank, Kind::Tank]
        );
        let json = serde_json::to_value(WireView::from(&view)).unwrap();
        for p in json["pieces"].as_object().unwrap().values() {
            assert!(p["kind"].is_string(), "{p}");
        }
        assert_eq!(enemy_pieces_in_json(&json, id).len(), view.enemy().len());
        // §10 keeps the enemy's removals a count; their kinds follow from the revealed board.
        let enemy_removed = if side == Side::Sente { 4 } else { 2 };
        assert_eq!(json["removed"]["enemy_count"], enemy_removed);
        assert!(json["removed"].get("enemy").is_none());
        let wire: WireView = serde_json::from_value(json.clone()).unwrap();
        let back = PlayerView::try_from(wire).unwrap();
        let mut derived = back.revealed().unwrap().removed()[side.opponent()].clone();
        let mut truth = revealed.removed()[side.opponent()].clone();
        derived.sort();
        truth.sort();
        assert_eq!(
            derived, truth,
            "{id}: the enemy's removed kinds from the board"
        );
        assert_eq!(
            json["status"],
            serde_json::json!({"state": "won", "winner": "gote", "reason": "resignation"})
        );
    }
}

#[test]
fn wire_view_round_trips_to_the_same_view() {
    let mut game = auto_game(11);
    for _ in 0..30 {
        let Some(&m) = game.position().legal_moves().first() else {
            break;
        };
        game.play(m).unwrap();
    }
    for side in Side::ALL {
        let view = game.view(side);
        let text = serde_json::to_string(&WireView::from(&view)).unwrap();
        let back: WireView = serde_json::from_str(&text).unwrap();
        assert_eq!(PlayerView::try_from(back).unwrap(), view);
    }
    game.resign(Side::Gote).unwrap();
    for side in Side::ALL {
        let view = game.view(side);
        let text = serde_json::to_string(&WireView::from(&view)).unwrap();
        let back: WireView = serde_json::from_str(&text).unwrap();
        let rebuilt = PlayerView::try_from(back).unwrap();
        assert_eq!(
            rebuilt.revealed().unwrap().pieces(),
            view.revealed().unwrap().pieces()
        );
        assert_eq!(rebuilt.own(), view.own());
        assert_eq!(rebuilt.enemy(), view.enemy());
    }
}

#[test]
fn a_wire_view_with_an_enemy_kind_while_the_game_is_on_is_refused() {
    let game = fixed_game();
    let mut wire = WireView::from(&game.view(Side::Sente));
    let enemy_square = game.view(Side::Sente).enemy()[0];
    wire.pieces.get_mut(&enemy_square).unwrap().kind = Some(Kind::General);
    assert_eq!(
        PlayerView::try_from(wire),
        Err(ViewError::EnemyKindWhileOngoing)
    );
}

#[test]
fn a_fresh_game_view_has_23_own_kinds_and_23_enemy_squares() {
    let game = fixed_game();
    let view = game.view(Side::Gote);
    assert_eq!(view.own().len(), 23);
    assert_eq!(view.enemy().len(), 23);
    assert!(view.enemy().iter().all(|s| s.row() <= 4));
    assert!(view.removed_own().is_empty());
    assert_eq!(view.removed_enemy_count(), 0);
    assert!(view.history().is_empty());
}

#[test]
fn the_shape_of_a_move_tells_which_kinds_could_have_made_it() {
    let p = common::pos(
        "s:plane@a2 s:engineer@b2 s:tank@c3 s:cavalry@d3 s:major@e3 s:general@cd1 g:major@a6 g:captain@f6",
        Side::Sente,
    );
    let could = |from: &str, to: &str| -> Vec<Kind> {
        Kind::ALL
            .into_iter()
            .filter(|&k| p.could_move_as(common::mv(from, to), k))
            .collect()
    };
    // A flight over the river off a bridge: only a plane.
    assert_eq!(could("a2", "a6"), vec![Kind::Plane]);
    // A slide of three squares sideways: only an engineer.
    assert_eq!(could("b2", "e2"), vec![Kind::Engineer]);
    // Two squares forward across the river off a bridge: a plane again.
    assert_eq!(could("c3", "c5"), vec![Kind::Plane]);
    assert_eq!(
        could("d3", "d4"),
        Kind::ALL
            .into_iter()
            .filter(|k| k.is_mobile())
            .collect::<Vec<_>>()
    );
    // Two squares forward over a bridge: the 2-step, an engineer's line or a flight.
    assert_eq!(
        could("e3", "e5"),
        vec![Kind::Cavalry, Kind::Engineer, Kind::Tank, Kind::Plane]
    );
    // No piece on the square: nothing could.
    assert_eq!(could("f2", "f3"), Vec::<Kind>::new());
}
