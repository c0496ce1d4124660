//! §6 End of the game: occupation, the no-battle draw, no moves, resignation, and nothing after
//! the end. Checked in that order.

#![allow(clippy::unwrap_used)]

mod common;

use common::{fixed_game, mv, pieces, pos, sq};
use gunjin::{
    DrawReason, MoveError, NO_BATTLE_LIMIT, Outcome, Position, Ruleset, Side, Status, WinReason,
};

fn won(winner: Side, reason: WinReason) -> Status {
    Status::Won { winner, reason }
}

fn pos_at(spec: &str, to_move: Side, plies: u16) -> Position {
    Position::from_pieces(Ruleset::STANDARD, pieces(spec), to_move, plies).unwrap()
}

const OFFICERS: [&str; 6] = [
    "general",
    "lieutenant_general",
    "major_general",
    "colonel",
    "lieutenant_colonel",
    "major",
];

const OTHERS: [&str; 8] = [
    "captain",
    "lieutenant",
    "second_lieutenant",
    "cavalry",
    "engineer",
    "tank",
    "plane",
    "spy",
];

#[test]
fn occupation_each_of_the_six_officers_entering_the_empty_enemy_hq_wins() {
    for kind in OFFICERS {
        let mut p = pos(&format!("s:{kind}@c7 g:general@a5"), Side::Sente);
        let played = p.play(mv("c7", "cd8")).unwrap();
        assert_eq!(
            played.status,
            won(Side::Sente, WinReason::Occupation),
            "{kind}"
        );
        assert_eq!(p.status(), played.status);
        let mut p = pos(&format!("g:{kind}@e1 s:general@a4"), Side::Gote);
        assert_eq!(
            p.play(mv("e1", "cd1")).unwrap().status,
            won(Side::Gote, WinReason::Occupation),
            "gote {kind}"
        );
    }
}

#[test]
fn occupation_by_winning_the_battle_in_the_enemy_hq() {
    let mut p = pos("s:general@d7 g:major@cd8 g:spy@a5", Side::Sente);
    let played = p.play(mv("d7", "cd8")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Attacker);
    assert_eq!(played.status, won(Side::Sente, WinReason::Occupation));
}

#[test]
fn no_occupation_when_the_officer_loses_or_ties_in_the_hq() {
    let mut p = pos("s:major@d7 g:mine@cd8 g:spy@a5 s:spy@a1", Side::Sente);
    assert_eq!(p.play(mv("d7", "cd8")).unwrap().status, Status::Ongoing);
    assert!(p.piece_at(sq("cd8")).is_none());
    let mut p = pos("s:colonel@d7 g:general@cd8 g:spy@a5 s:spy@a1", Side::Sente);
    assert_eq!(p.play(mv("d7", "cd8")).unwrap().status, Status::Ongoing);
    let mut p = pos("s:colonel@d7 g:colonel@cd8 g:spy@a5 s:spy@a1", Side::Sente);
    assert_eq!(p.play(mv("d7", "cd8")).unwrap().status, Status::Ongoing);
}

#[test]
fn other_pieces_enter_the_enemy_hq_without_winning() {
    for kind in OTHERS {
        let mut p = pos(&format!("s:{kind}@c7 g:general@a5"), Side::Sente);
        let played = p.play(mv("c7", "cd8")).unwrap();
        assert_eq!(played.status, Status::Ongoing, "{kind}");
        assert_eq!(p.piece_at(sq("cd8")).unwrap().side, Side::Sente);
    }
    // Even by winning the battle there.
    let mut p = pos("s:plane@c7 g:mine@cd8 g:general@a5", Side::Sente);
    let played = p.play(mv("c7", "cd8")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Attacker);
    assert_eq!(played.status, Status::Ongoing);
}

#[test]
fn entering_the_own_hq_does_not_win() {
    let mut p = pos("s:general@c2 g:general@a8", Side::Sente);
    assert_eq!(p.play(mv("c2", "cd1")).unwrap().status, Status::Ongoing);
}

#[test]
fn occupation_is_checked_before_the_no_battle_draw() {
    let mut p = pos_at("s:major@c7 g:general@a5", Side::Sente, NO_BATTLE_LIMIT - 1);
    assert_eq!(
        p.play(mv("c7", "cd8")).unwrap().status,
        won(Side::Sente, WinReason::Occupation)
    );
}

#[test]
fn occupation_is_checked_before_no_moves() {
    // Gote has only immobile pieces left once the major is in: still an occupation.
    let mut p = pos("s:major@c7 g:flag@a6 g:mine@a7", Side::Sente);
    assert_eq!(
        p.play(mv("c7", "cd8")).unwrap().status,
        won(Side::Sente, WinReason::Occupation)
    );
}

#[test]
fn no_battle_draw_after_100_plies_without_a_battle() {
    let mut p = pos("s:general@c3 g:general@c6", Side::Sente);
    let shuffle = [
        mv("c3", "c2"),
        mv("c6", "c7"),
        mv("c2", "c3"),
        mv("c7", "c6"),
    ];
    for i in 0..usize::from(NO_BATTLE_LIMIT) - 1 {
        let played = p.play(shuffle[i % 4]).unwrap();
        assert_eq!(played.status, Status::Ongoing, "ply {}", i + 1);
    }
    assert_eq!(p.plies_without_battle(), NO_BATTLE_LIMIT - 1);
    let played = p.play(shuffle[(NO_BATTLE_LIMIT as usize - 1) % 4]).unwrap();
    assert_eq!(
        played.status,
        Status::Draw {
            reason: DrawReason::NoBattleLimit
        }
    );
    assert_eq!(p.plies_without_battle(), NO_BATTLE_LIMIT);
    assert_eq!(NO_BATTLE_LIMIT, 100);
}

#[test]
fn the_no_battle_draw_is_checked_before_no_moves() {
    // Gote's general on a8 is walled in by its own mines: after any sente move gote has no
    // legal move. On the 100th ply without a battle the no-battle draw comes first (§6: 2
    // before 3), on any earlier ply gote loses for want of a move.
    let spec = "s:major@f1 g:general@a8 g:mine@a7 g:mine@b8";
    let mut p = pos_at(spec, Side::Sente, NO_BATTLE_LIMIT - 2);
    let played = p.play(mv("f1", "f2")).unwrap();
    assert_eq!(played.battle, None);
    assert_eq!(played.status, won(Side::Sente, WinReason::NoMoves));

    let mut p = pos_at(spec, Side::Sente, NO_BATTLE_LIMIT - 1);
    assert_eq!(p.status(), Status::Ongoing);
    let played = p.play(mv("f1", "f2")).unwrap();
    assert_eq!(played.battle, None);
    assert_eq!(p.plies_without_battle(), NO_BATTLE_LIMIT);
    assert!(!p.has_move(Side::Gote), "gote is still without a move");
    assert_eq!(
        played.status,
        Status::Draw {
            reason: DrawReason::NoBattleLimit
        }
    );
    assert_eq!(p.status(), played.status);
    assert!(p.legal_moves().is_empty());
}

#[test]
fn any_battle_resets_the_no_battle_count() {
    for (spec, outcome) in [
        (
            "s:general@c3 g:major@c4 g:spy@a8 s:spy@a1",
            Outcome::Attacker,
        ),
        (
            "s:major@c3 g:general@c4 g:spy@a8 s:spy@a1",
            Outcome::Defender,
        ),
        ("s:major@c3 g:major@c4 g:spy@a8 s:spy@a1", Outcome::Both),
        ("s:major@c3 g:mine@c4 g:spy@a8 s:spy@a1", Outcome::Both),
    ] {
        let mut p = pos_at(spec, Side::Sente, NO_BATTLE_LIMIT - 1);
        let played = p.play(mv("c3", "c4")).unwrap();
        assert_eq!(played.battle.unwrap().outcome, outcome);
        assert_eq!(p.plies_without_battle(), 0, "{spec}");
        assert_eq!(p.status(), Status::Ongoing);
    }
}

#[test]
fn entering_an_hq_without_battle_counts_as_a_ply() {
    let mut p = pos_at("s:tank@c7 g:general@a5", Side::Sente, NO_BATTLE_LIMIT - 1);
    assert_eq!(
        p.play(mv("c7", "cd8")).unwrap().status,
        Status::Draw {
            reason: DrawReason::NoBattleLimit
        }
    );
    let mut p = pos_at("s:tank@c7 g:general@a5", Side::Sente, 5);
    p.play(mv("c7", "cd8")).unwrap();
    assert_eq!(p.plies_without_battle(), 6);
}

#[test]
fn a_position_given_at_the_limit_is_drawn() {
    let p = pos_at("s:general@c3 g:general@c6", Side::Sente, NO_BATTLE_LIMIT);
    assert_eq!(
        p.status(),
        Status::Draw {
            reason: DrawReason::NoBattleLimit
        }
    );
}

#[test]
fn no_moves_for_either_side_is_a_draw() {
    let mut p = pos("s:major@c3 s:flag@a2 g:major@c4 g:mine@a7", Side::Sente);
    let played = p.play(mv("c3", "c4")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Both);
    assert_eq!(
        played.status,
        Status::Draw {
            reason: DrawReason::NoMoves
        }
    );
}

#[test]
fn side_to_move_without_moves_loses_after_losing_every_mobile_piece() {
    let mut p = pos("s:spy@c3 s:flag@a2 g:general@c4 g:mine@a7", Side::Sente);
    assert_eq!(
        p.play(mv("c3", "c4")).unwrap().status,
        won(Side::Sente, WinReason::NoMoves)
    );
}

#[test]
fn side_to_move_whose_pieces_are_all_blocked_loses() {
    // Gote's general on a8 is walled in by its own mines.
    let mut p = pos("s:major@f1 g:general@a8 g:mine@a7 g:mine@b8", Side::Sente);
    assert_eq!(
        p.play(mv("f1", "f2")).unwrap().status,
        won(Side::Sente, WinReason::NoMoves)
    );
    // The same walled-in side to move from the start: it has lost already.
    let p = pos("s:major@f1 g:general@a8 g:mine@a7 g:mine@b8", Side::Gote);
    assert_eq!(p.status(), won(Side::Sente, WinReason::NoMoves));
    assert!(p.legal_moves().is_empty());
}

#[test]
fn either_side_may_resign_at_any_time() {
    for side in Side::ALL {
        for plies in 0..2 {
            let mut game = fixed_game();
            if plies == 1 {
                game.play(mv("b4", "b5")).unwrap();
            }
            let status = game.resign(side).unwrap();
            assert_eq!(status, won(side.opponent(), WinReason::Resignation));
            assert_eq!(game.status(), status);
            assert_eq!(game.resigned(), Some(side));
        }
    }
}

#[test]
fn nothing_can_be_played_or_resigned_after_the_end() {
    let mut game = fixed_game();
    game.resign(Side::Gote).unwrap();
    let before = game.clone();
    assert_eq!(game.play(mv("b4", "b5")), Err(MoveError::GameOver));
    assert_eq!(game.resign(Side::Sente), Err(MoveError::GameOver));
    assert_eq!(game.resign(Side::Gote), Err(MoveError::GameOver));
    assert_eq!(game, before);
    assert!(game.position().legal_moves().is_empty());
    assert_eq!(
        game.position().destinations(sq("b4")),
        gunjin::Destinations::default()
    );
    assert!(!game.position().is_legal(mv("b4", "b5")));

    let mut p = pos("s:major@c7 g:general@a5", Side::Sente);
    p.play(mv("c7", "cd8")).unwrap();
    let before = p.clone();
    assert_eq!(p.play(mv("a5", "a6")), Err(MoveError::GameOver));
    assert_eq!(p.resign(Side::Gote), Err(MoveError::GameOver));
    assert_eq!(p, before);
}

#[test]
fn taking_the_flag_or_the_general_does_not_end_the_game() {
    // The standard rules win by occupation only (taking the flag is a variant, §9); the page's
    // FAQ: losing the general is not a loss.
    let mut p = pos("s:major@c5 g:flag@c6 g:spy@f8 s:spy@a1", Side::Sente);
    let played = p.play(mv("c5", "c6")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Attacker);
    assert_eq!(played.status, Status::Ongoing);

    let mut p = pos("g:spy@c6 s:general@c5 s:major@a1 g:major@f8", Side::Gote);
    let played = p.play(mv("c6", "c5")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Attacker);
    assert_eq!(played.status, Status::Ongoing);
}

#[test]
fn losing_every_officer_does_not_end_the_game_while_moves_remain() {
    // Sente's last officer falls: sente can no longer occupy, but it still has a move.
    let mut p = pos(
        "s:major@c5 s:spy@a1 s:engineer@f1 g:general@c6 g:spy@f8",
        Side::Sente,
    );
    let played = p.play(mv("c5", "c6")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Defender);
    assert_eq!(played.status, Status::Ongoing);
    assert!(p.removed(Side::Sente).contains(&gunjin::Kind::Major));
}

#[test]
fn a_side_left_without_moves_loses_only_when_its_turn_comes() {
    // Sente's last mobile piece dies attacking; gote can still move, so the game goes on. After
    // gote's move sente is to move with no move: gote wins.
    let mut p = pos("s:major@c5 s:flag@a2 g:general@c6 g:spy@f8", Side::Sente);
    let played = p.play(mv("c5", "c6")).unwrap();
    assert_eq!(played.battle.unwrap().outcome, Outcome::Defender);
    assert_eq!(played.status, Status::Ongoing);
    assert!(!p.has_move(Side::Sente));
    assert_eq!(p.to_move(), Side::Gote);
    let played = p.play(mv("f8", "e8")).unwrap();
    assert_eq!(played.status, won(Side::Gote, WinReason::NoMoves));
    assert!(p.legal_moves().is_empty());
}
