//! Drives the real `gunjin referee` process over its pipes, as an outside program would (§10).

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use gunjin::rand::rngs::SmallRng;
use gunjin::rand::{RngExt, SeedableRng};
use gunjin::{BySide, Deployment, Game, Kind, Move, Ruleset, Side, Square};
use serde_json::{Value, json};

/// A running referee and its pipes.
struct Referee {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// `gunjin referee` started with all three pipes.
fn spawn_referee() -> Child {
    Command::new(env!("CARGO_BIN_EXE_gunjin"))
        .arg("referee")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start gunjin referee")
}

impl Referee {
    fn start() -> Referee {
        let mut child = spawn_referee();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Referee {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends one raw line and reads the one response line.
    fn raw(&mut self, line: &str) -> Value {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
        self.read()
    }

    fn read(&mut self) -> Value {
        let mut answer = String::new();
        let n = self.stdout.read_line(&mut answer).unwrap();
        assert!(n > 0, "the referee closed its output");
        assert!(answer.ends_with('\n'));
        let value: Value = serde_json::from_str(&answer)
            .unwrap_or_else(|e| panic!("not one JSON object per line ({e}): {answer:?}"));
        assert!(value["ok"].is_boolean(), "no ok field: {answer}");
        value
    }

    fn send(&mut self, request: &Value) -> Value {
        self.raw(&request.to_string())
    }

    /// Sends a request that must succeed.
    fn ok(&mut self, request: &Value) -> Value {
        let answer = self.send(request);
        assert_eq!(answer["ok"], true, "{request} → {answer}");
        answer
    }

    /// Sends a line that must be refused with `code`; returns the error message.
    fn refused(&mut self, line: &str, code: &str) -> String {
        let answer = self.raw(line);
        assert_eq!(answer["ok"], false, "{line} → {answer}");
        assert_eq!(answer["error"]["code"], code, "{line} → {answer}");
        let error = answer["error"].as_object().unwrap();
        assert_eq!(error.len(), 2, "error has only code and message: {answer}");
        assert_eq!(answer.as_object().unwrap().len(), 2, "{answer}");
        error["message"].as_str().unwrap().to_owned()
    }

    fn board(&mut self) -> Value {
        self.ok(&json!({"cmd":"board"}))
    }

    fn view(&mut self, side: &str) -> Value {
        self.ok(&json!({"cmd":"view","side":side}))
    }

    fn legal_moves(&mut self) -> Vec<(String, String)> {
        let answer = self.ok(&json!({"cmd":"legal_moves"}));
        answer["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                let pair = m.as_array().unwrap();
                assert_eq!(pair.len(), 2);
                (
                    pair[0].as_str().unwrap().to_owned(),
                    pair[1].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    }

    /// Closes stdin and checks the referee ends cleanly with nothing more on stdout.
    fn finish(mut self) {
        drop(self.stdin);
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.stdout, &mut rest).unwrap();
        assert_eq!(rest, "", "nothing after the last answer");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "referee exit status {status}");
    }
}

fn setup_of(deployments: &BySide<Deployment>) -> Value {
    json!({"sente": deployments.sente.to_wire(), "gote": deployments.gote.to_wire()})
}

fn auto_deployments(seed: u64) -> BySide<Deployment> {
    BySide::new_with(|side| Deployment::auto(side, seed * 2 + side.index() as u64))
}

fn new_request(deployments: &BySide<Deployment>) -> Value {
    json!({"cmd":"new","ruleset":"standard","setup":setup_of(deployments)})
}

/// A fixed, legal arrangement written out by hand: the plane on c2 can leave at once, so the
/// piece in the headquarters can move on sente's second turn.
fn hand_setup() -> BySide<BTreeMap<String, String>> {
    let sente = [
        ("a1", "mine"),
        ("b1", "captain"),
        ("cd1", "general"),
        ("e1", "mine"),
        ("f1", "lieutenant"),
        ("a2", "colonel"),
        ("b2", "flag"),
        ("c2", "plane"),
        ("d2", "major_general"),
        ("e2", "spy"),
        ("f2", "lieutenant_general"),
        ("a3", "engineer"),
        ("b3", "plane"),
        ("c3", "lieutenant_colonel"),
        ("d3", "major"),
        ("e3", "captain"),
        ("f3", "engineer"),
        ("a4", "second_lieutenant"),
        ("b4", "tank"),
        ("c4", "cavalry"),
        ("d4", "lieutenant"),
        ("e4", "tank"),
        ("f4", "second_lieutenant"),
    ];
    let flip = |sq: &str| -> String {
        if sq == "cd1" {
            return "cd8".to_owned();
        }
        let (col, row) = sq.split_at(1);
        format!("{col}{}", 9 - row.parse::<u8>().unwrap())
    };
    BySide {
        sente: sente
            .iter()
            .map(|&(s, k)| (s.to_owned(), k.to_owned()))
            .collect(),
        gote: sente
            .iter()
            .map(|&(s, k)| (flip(s), k.to_owned()))
            .collect(),
    }
}

fn hand_new(setup: &BySide<BTreeMap<String, String>>) -> Value {
    json!({"cmd":"new","ruleset":"standard","setup":{"sente":setup.sente,"gote":setup.gote}})
}

fn mv(from: &str, to: &str) -> Value {
    json!({"cmd":"move","from":from,"to":to})
}

/// Checks a view while the game goes on: own pieces with kinds, enemy pieces with the side only.
fn assert_view_hides_enemy_kinds(view: &Value, side: &str) {
    assert_eq!(view["side"], side);
    assert_eq!(view["status"]["state"], "ongoing");
    for (sq, piece) in view["pieces"].as_object().unwrap() {
        let piece = piece.as_object().unwrap();
        if piece["side"] == side {
            assert!(Kind::from_id(piece["kind"].as_str().unwrap()).is_some());
            assert_eq!(piece.len(), 2, "{sq}: {piece:?}");
        } else {
            assert_eq!(
                piece.len(),
                1,
                "{sq}: enemy piece carries more than its side"
            );
        }
    }
    let removed = view["removed"].as_object().unwrap();
    let keys: Vec<&str> = removed.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["enemy_count", "own"],
        "removed while ongoing: {removed:?}"
    );
}

/// The board as the engine's game says it should be, in the referee's JSON shape.
fn expected_board(game: &Game) -> Value {
    let pos = game.position();
    let pieces: serde_json::Map<String, Value> = pos
        .pieces()
        .map(|(sq, p)| {
            (
                sq.name().to_owned(),
                json!({"side": p.side.id(), "kind": p.kind.id()}),
            )
        })
        .collect();
    json!({
        "ok": true,
        "to_move": pos.to_move().id(),
        "plies_without_battle": pos.plies_without_battle(),
        "pieces": pieces,
        "status": serde_json::to_value(pos.status()).unwrap(),
    })
}

#[test]
fn random_games_run_to_the_end_in_step_with_the_engine() {
    let mut referee = Referee::start();
    let mut endings = Vec::new();
    for seed in 0..10u64 {
        let deployments = auto_deployments(seed);
        assert_eq!(referee.send(&new_request(&deployments)), json!({"ok":true}));
        let mut game = Game::new(Ruleset::STANDARD, deployments).unwrap();
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut plies = 0usize;
        loop {
            let legal = referee.legal_moves();
            let mut expected: Vec<(String, String)> = game
                .position()
                .legal_moves()
                .iter()
                .map(|m| (m.from.name().to_owned(), m.to.name().to_owned()))
                .collect();
            expected.sort();
            assert_eq!(
                legal, expected,
                "legal moves sorted by from then to as strings"
            );
            if !game.status().is_ongoing() {
                assert!(legal.is_empty());
                break;
            }
            if plies.is_multiple_of(37) {
                assert_eq!(referee.board(), expected_board(&game));
                for side in ["sente", "gote"] {
                    assert_view_hides_enemy_kinds(&referee.view(side), side);
                }
            }
            let (from, to) = &legal[rng.random_range(0..legal.len())];
            let answer = referee.ok(&mv(from, to));
            let ply = game
                .play(Move {
                    from: Square::parse(from).unwrap(),
                    to: Square::parse(to).unwrap(),
                })
                .unwrap();
            assert_eq!(
                answer,
                json!({"ok":true,"battle":ply.battle,"status":game.status()}),
                "move {from}-{to}"
            );
            plies += 1;
        }

        let status = referee.board()["status"].clone();
        assert_ne!(status["state"], "ongoing");
        assert_eq!(referee.board(), expected_board(&game));
        // After the end every piece of both sides shows its kind, in both views.
        let board_pieces = referee.board()["pieces"].clone();
        for side in ["sente", "gote"] {
            let view = referee.view(side);
            assert_eq!(view["status"], status);
            assert_eq!(
                view["pieces"], board_pieces,
                "{side}'s final view shows everything"
            );
            // §10: the enemy's removed pieces by count only, even now.
            let mut keys: Vec<&String> = view["removed"].as_object().unwrap().keys().collect();
            keys.sort();
            assert_eq!(keys, ["enemy_count", "own"]);
            let history = view["history"].as_array().unwrap();
            assert_eq!(history.len(), plies);
            assert_eq!(
                view["history"],
                serde_json::to_value(game.history()).unwrap()
            );
        }
        // Nothing more can be played or resigned.
        let board = referee.board();
        referee.refused(r#"{"cmd":"move","from":"a1","to":"a2"}"#, "game_over");
        referee.refused(r#"{"cmd":"resign","side":"gote"}"#, "game_over");
        assert_eq!(referee.board(), board);
        endings.push(status.to_string());
    }
    endings.sort();
    endings.dedup();
    assert!(
        endings.len() >= 2,
        "the games end in more than one way: {endings:?}"
    );
    referee.finish();
}

#[test]
fn every_error_code_is_answered_and_changes_nothing() {
    let mut referee = Referee::start();

    // Before any game.
    for line in [
        r#"{"cmd":"board"}"#,
        r#"{"cmd":"legal_moves"}"#,
        r#"{"cmd":"move","from":"b4","to":"b5"}"#,
        r#"{"cmd":"view","side":"sente"}"#,
        r#"{"cmd":"resign","side":"sente"}"#,
    ] {
        referee.refused(line, "no_game");
    }
    let message = referee.refused(
        r#"{"cmd":"new","setup":{"sente":{"a1":"flag"},"gote":{}}}"#,
        "invalid_setup",
    );
    assert!(message.contains("back row"), "{message}");
    referee.refused(r#"{"cmd":"board"}"#, "no_game");

    // A game with a few moves played, so the state has something to lose.
    let setup = hand_setup();
    referee.ok(&hand_new(&setup));
    referee.ok(&mv("b4", "b5"));
    referee.ok(&mv("a5", "b5"));
    let board = referee.board();
    let views = [referee.view("sente"), referee.view("gote")];
    let legal = referee.legal_moves();

    let mut bad_setup = setup.clone();
    bad_setup.sente.insert("b4".into(), "mine".into());
    bad_setup.sente.insert("b2".into(), "tank".into());
    bad_setup.gote.insert("b8".into(), "flag".into());
    bad_setup.gote.insert("c7".into(), "dragon".into());
    bad_setup.gote.insert("q9".into(), "spy".into());
    let bad_new = hand_new(&bad_setup).to_string();
    // The game's own setup with one square named a second time: which kind was meant?
    let twice =
        hand_new(&setup)
            .to_string()
            .replacen(r#""sente":{"#, r#""sente":{"a1":"flag","#, 1);
    assert!(setup.sente.contains_key("a1"));
    // The same without gote's setup is of the wrong shape first.
    let twice_and_no_gote = format!(
        r#"{{"cmd":"new","setup":{{"sente":{}}}}}"#,
        serde_json::to_string(&setup.sente).unwrap()
    )
    .replacen(r#""sente":{"#, r#""sente":{"a1":"flag","#, 1);
    // A key named twice outside the setup leaves the request's meaning open.
    let twice_in_the_request =
        hand_new(&setup)
            .to_string()
            .replacen(r#""cmd":"new""#, r#""cmd":"new","cmd":"new""#, 1);

    // serde reads a record from an array of its fields too: §10's setup is an object.
    let setups_as_array =
        serde_json::json!({"cmd":"new","setup":[setup.sente, setup.gote]}).to_string();
    let cases: &[(&str, &str)] = &[
        ("{\"cmd\":", "bad_json"),
        ("not json at all", "bad_json"),
        (r#"{"cmd":"board"}{"cmd":"board"}"#, "bad_json"),
        ("[]", "bad_request"),
        ("17", "bad_request"),
        ("{}", "bad_request"),
        (r#"{"cmd":1}"#, "bad_request"),
        (r#"{"cmd":"move"}"#, "bad_request"),
        (r#"{"cmd":"move","from":"b3"}"#, "bad_request"),
        (r#"{"cmd":"move","from":"b3","to":null}"#, "bad_request"),
        (r#"{"cmd":"move","from":"b3","to":"x0"}"#, "illegal_move"),
        (r#"{"cmd":"view"}"#, "bad_request"),
        (r#"{"cmd":"view","side":"both"}"#, "bad_request"),
        (r#"{"cmd":"resign","side":"everyone"}"#, "bad_request"),
        (r#"{"cmd":"resign"}"#, "bad_request"),
        (r#"{"cmd":"new"}"#, "bad_request"),
        (r#"{"cmd":"new","setup":{"sente":{}}}"#, "bad_request"),
        (
            r#"{"cmd":"new","ruleset":"house","setup":{"sente":{},"gote":{}}}"#,
            "bad_request",
        ),
        (&twice, "invalid_setup"),
        (&twice_and_no_gote, "bad_request"),
        (&setups_as_array, "bad_request"),
        (&twice_in_the_request, "bad_request"),
        (r#"{"cmd":"board","cmd":"legal_moves"}"#, "bad_request"),
        // JSON by the grammar, but no request holds such a value.
        (r#"{"cmd":"board","x":1e999}"#, "bad_request"),
        (r#"{"cmd":"board","x":"\ud800"}"#, "bad_request"),
        (r#"{"cmd":"board","x":"\q"}"#, "bad_json"),
        (r#"{"cmd":"castle"}"#, "unknown_cmd"),
        (r#"{"cmd":"BOARD"}"#, "unknown_cmd"),
        (&bad_new, "invalid_setup"),
        (r#"{"cmd":"move","from":"a3","to":"a3"}"#, "illegal_move"),
        (r#"{"cmd":"move","from":"a1","to":"a2"}"#, "illegal_move"),
        (r#"{"cmd":"move","from":"e1","to":"e2"}"#, "illegal_move"),
        (r#"{"cmd":"move","from":"c5","to":"c4"}"#, "illegal_move"),
        (r#"{"cmd":"move","from":"f4","to":"f5"}"#, "illegal_move"),
        (r#"{"cmd":"move","from":"b5","to":"b6"}"#, "illegal_move"),
    ];
    for &(line, code) in cases {
        let message = referee.refused(line, code);
        assert!(!message.is_empty(), "{line}");
        if line == twice {
            // §3: the piece, the square and the rule, as for any other violation (a1 holds a
            // mine in the setup; the flag named first is one flag too many).
            for part in [
                "sente",
                "a1 is given more than one piece (flag, then mine)",
                "flag: 2 placed",
            ] {
                assert!(message.contains(part), "{part} not in {message}");
            }
        } else if code == "invalid_setup" {
            for part in [
                "b4", "c7", "b8", "dragon", "q9", "entrance", "back row", "gote",
            ] {
                assert!(message.contains(part), "{part} not in {message}");
            }
        }
        assert_eq!(referee.board(), board, "board changed after {line}");
        assert_eq!(referee.view("sente"), views[0], "view changed after {line}");
        assert_eq!(referee.view("gote"), views[1], "view changed after {line}");
        assert_eq!(referee.legal_moves(), legal, "moves changed after {line}");
    }

    // Blank lines are not JSON: each gets its own bad_json answer and changes nothing.
    for blank in ["", "  ", "\r"] {
        referee.refused(blank, "bad_json");
    }
    assert_eq!(referee.board(), board);

    // After a resignation the game is over: moves and resignations are game_over.
    let resigned = referee.ok(&json!({"cmd":"resign","side":"gote"}));
    assert_eq!(
        resigned,
        json!({"ok":true,"status":{"state":"won","winner":"sente","reason":"resignation"}})
    );
    let board = referee.board();
    referee.refused(r#"{"cmd":"move","from":"b5","to":"b6"}"#, "game_over");
    referee.refused(r#"{"cmd":"resign","side":"sente"}"#, "game_over");
    referee.refused(r#"{"cmd":"resign","side":"gote"}"#, "game_over");
    assert_eq!(referee.board(), board);
    assert!(referee.legal_moves().is_empty());

    referee.finish();
}

#[test]
fn views_hide_enemy_kinds_until_the_end() {
    let mut referee = Referee::start();
    let setup = hand_setup();
    referee.ok(&hand_new(&setup));
    for side in ["sente", "gote"] {
        let view = referee.view(side);
        assert_view_hides_enemy_kinds(&view, side);
        assert_eq!(view["pieces"].as_object().unwrap().len(), 46);
        assert_eq!(view["history"], json!([]));
        assert_eq!(view["to_move"], "sente");
        assert_eq!(view["ok"], true);
    }

    // A battle: both tanks on the bridge meet and both are removed.
    let answer = referee.ok(&mv("b4", "b5"));
    assert_eq!(
        answer,
        json!({"ok":true,"battle":{"square":"b5","outcome":"both"},"status":{"state":"ongoing"}})
    );
    let gote = referee.view("gote");
    assert_view_hides_enemy_kinds(&gote, "gote");
    assert_eq!(gote["removed"], json!({"own":["tank"],"enemy_count":1}));
    assert_eq!(
        gote["history"],
        json!([{"side":"sente","from":"b4","to":"b5","battle":{"square":"b5","outcome":"both"}}])
    );
    assert_eq!(gote["to_move"], "gote");
    assert_eq!(gote["plies_without_battle"], 0);
    // Every enemy piece looks the same on the wire, whatever its kind.
    let enemy_pieces: Vec<&Value> = gote["pieces"]
        .as_object()
        .unwrap()
        .values()
        .filter(|p| p["side"] == "sente")
        .collect();
    assert_eq!(enemy_pieces.len(), 22);
    assert!(enemy_pieces.iter().all(|p| **p == json!({"side":"sente"})));

    referee.ok(&mv("a5", "b5"));
    let sente = referee.view("sente");
    assert_view_hides_enemy_kinds(&sente, "sente");
    assert_eq!(
        sente["history"][1],
        json!({"side":"gote","from":"a5","to":"b5","battle":null})
    );
    assert_eq!(sente["plies_without_battle"], 1);
    assert_eq!(sente["pieces"]["b5"], json!({"side":"gote"}));

    // Gote resigns while sente is to move; then every kind is shown to both.
    referee.ok(&json!({"cmd":"resign","side":"gote"}));
    let gote = referee.view("gote");
    assert_eq!(gote["status"]["winner"], "sente");
    assert_eq!(
        gote["pieces"]["cd1"],
        json!({"side":"sente","kind":"general"})
    );
    let sente = referee.view("sente");
    assert_eq!(
        sente["pieces"]["b5"],
        json!({"side":"gote","kind":"second_lieutenant"})
    );
    assert_eq!(sente["removed"], json!({"own": ["tank"], "enemy_count": 1}));
    assert_eq!(sente["pieces"], gote["pieces"]);
    referee.finish();
}

#[test]
fn a_move_of_an_enemy_piece_is_refused_alike_whatever_its_kind() {
    // §7: "it cannot move" for gote's mine or flag would tell sente what they are.
    let mut referee = Referee::start();
    referee.ok(&hand_new(&hand_setup()));
    let refusal = |referee: &mut Referee, from: &str, to: &str| {
        let line = mv(from, to).to_string();
        let message = referee.refused(&line, "illegal_move");
        message.replace(from, "FROM").replace(to, "TO")
    };
    // Gote's mine (a8), flag (b7), general (cd8) and second lieutenant (a5), on sente's turn.
    let general = refusal(&mut referee, "cd8", "c7");
    assert!(general.contains("FROM"), "{general}");
    assert_eq!(refusal(&mut referee, "a8", "a7"), general);
    assert_eq!(refusal(&mut referee, "b7", "b6"), general);
    assert_eq!(refusal(&mut referee, "a5", "a4"), general);
    referee.finish();
}

#[test]
fn attacker_and_defender_outcomes_are_answered_as_literal_json() {
    let mut referee = Referee::start();
    referee.ok(&hand_new(&hand_setup()));

    // Sente's plane flies from b3 over its own tank on b4 and beats gote's tank on b5.
    assert_eq!(
        referee.send(&mv("b3", "b5")),
        json!({"ok":true,"battle":{"square":"b5","outcome":"attacker"},"status":{"state":"ongoing"}})
    );
    // Gote's second lieutenant attacks the plane and loses.
    assert_eq!(
        referee.send(&mv("a5", "b5")),
        json!({"ok":true,"battle":{"square":"b5","outcome":"defender"},"status":{"state":"ongoing"}})
    );

    let board = referee.board();
    assert_eq!(
        board["pieces"]["b5"],
        json!({"side":"sente","kind":"plane"})
    );
    assert_eq!(board["pieces"]["b4"], json!({"side":"sente","kind":"tank"}));
    assert!(board["pieces"].get("b3").is_none());
    assert!(board["pieces"].get("a5").is_none());
    assert_eq!(board["plies_without_battle"], 0);
    let gote = referee.view("gote");
    assert_eq!(
        gote["history"],
        json!([
            {"side":"sente","from":"b3","to":"b5","battle":{"square":"b5","outcome":"attacker"}},
            {"side":"gote","from":"a5","to":"b5","battle":{"square":"b5","outcome":"defender"}},
        ])
    );
    assert_eq!(gote["removed"]["enemy_count"], 0);
    let mut own: Vec<&str> = gote["removed"]["own"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    own.sort_unstable();
    assert_eq!(own, ["second_lieutenant", "tank"]);
    referee.finish();
}

#[test]
fn a_scripted_game_ends_by_occupation() {
    let mut referee = Referee::start();
    // Sente's general starts on b4 (the tank goes to cd1); gote's HQ holds a captain (its
    // general goes to b8).
    let mut setup = hand_setup();
    setup.sente.insert("b4".into(), "general".into());
    setup.sente.insert("cd1".into(), "tank".into());
    setup.gote.insert("cd8".into(), "captain".into());
    setup.gote.insert("b8".into(), "general".into());
    referee.ok(&hand_new(&setup));

    let ongoing = json!({"state":"ongoing"});
    let attack = |square: &str| json!({"ok":true,"battle":{"square":square,"outcome":"attacker"},"status":ongoing});
    let quiet = json!({"ok":true,"battle":null,"status":ongoing});
    // The general fights its way b5 (tank), c5 (cavalry), c6 (lieutenant colonel), c7 (plane)
    // and into cd8 (captain); gote's plane meanwhile flies between b6 and b4 over it.
    let script = [
        ("b4", "b5", attack("b5")),
        ("b6", "b4", quiet.clone()),
        ("b5", "c5", attack("c5")),
        ("b4", "b6", quiet.clone()),
        ("c5", "c6", attack("c6")),
        ("b6", "b4", quiet.clone()),
        ("c6", "c7", attack("c7")),
        ("b4", "b6", quiet.clone()),
    ];
    for (from, to, answer) in script {
        assert_eq!(referee.send(&mv(from, to)), answer, "{from}-{to}");
    }
    let won = json!({"state":"won","winner":"sente","reason":"occupation"});
    assert_eq!(
        referee.send(&mv("c7", "cd8")),
        json!({"ok":true,"battle":{"square":"cd8","outcome":"attacker"},"status":won})
    );

    let board = referee.board();
    assert_eq!(board["status"], won);
    assert_eq!(
        board["pieces"]["cd8"],
        json!({"side":"sente","kind":"general"})
    );
    for side in ["sente", "gote"] {
        let view = referee.view(side);
        assert_eq!(view["status"], won, "{side}");
        assert_eq!(view["history"].as_array().unwrap().len(), 9, "{side}");
    }
    assert_eq!(
        referee.ok(&json!({"cmd":"legal_moves"})),
        json!({"ok":true,"side":"gote","moves":[]})
    );
    referee.refused(r#"{"cmd":"move","from":"b6","to":"b4"}"#, "game_over");
    referee.refused(r#"{"cmd":"resign","side":"gote"}"#, "game_over");
    assert_eq!(referee.board(), board);
    referee.finish();
}

#[test]
fn quiet_plies_count_up_a_battle_resets_and_the_100th_quiet_ply_draws() {
    let mut referee = Referee::start();
    referee.ok(&hand_new(&hand_setup()));
    let assert_count = |referee: &mut Referee, count: u64, context: &str| {
        assert_eq!(
            referee.board()["plies_without_battle"],
            count,
            "board {context}"
        );
        for side in ["sente", "gote"] {
            assert_eq!(
                referee.view(side)["plies_without_battle"],
                count,
                "{side}'s view {context}"
            );
        }
    };
    assert_count(&mut referee, 0, "at the start");

    // The tanks on the b bridge meet: both removed, b4 and b5 are free.
    assert_eq!(
        referee.send(&mv("b4", "b5")),
        json!({"ok":true,"battle":{"square":"b5","outcome":"both"},"status":{"state":"ongoing"}})
    );
    assert_count(&mut referee, 0, "after the first battle");

    // The second lieutenants on a4 and a5 step onto the bridge ends and back.
    let quiet = json!({"ok":true,"battle":null,"status":{"state":"ongoing"}});
    let gote_first = [("a5", "b5"), ("a4", "b4"), ("b5", "a5"), ("b4", "a4")];
    for (i, &(from, to)) in gote_first.iter().enumerate() {
        assert_eq!(referee.send(&mv(from, to)), quiet, "{from}-{to}");
        assert_count(&mut referee, i as u64 + 1, &format!("after {from}-{to}"));
    }

    // Any battle resets the count: the tanks on the e bridge meet.
    assert_eq!(
        referee.send(&mv("e5", "e4")),
        json!({"ok":true,"battle":{"square":"e4","outcome":"both"},"status":{"state":"ongoing"}})
    );
    assert_count(&mut referee, 0, "after the second battle");

    // Now 100 quiet plies, sente first: the 100th ends the game in a draw.
    let sente_first = [("a4", "b4"), ("a5", "b5"), ("b4", "a4"), ("b5", "a5")];
    for ply in 1..=99u64 {
        let (from, to) = sente_first[(ply as usize - 1) % 4];
        assert_eq!(referee.send(&mv(from, to)), quiet, "ply {ply}: {from}-{to}");
        assert_count(&mut referee, ply, &format!("after quiet ply {ply}"));
    }
    let draw = json!({"state":"draw","reason":"no_battle_limit"});
    assert_eq!(
        referee.send(&mv("b5", "a5")),
        json!({"ok":true,"battle":null,"status":draw})
    );
    let board = referee.board();
    assert_eq!(board["status"], draw);
    assert_eq!(board["plies_without_battle"], 100);
    assert_eq!(board["to_move"], "sente");
    for side in ["sente", "gote"] {
        let view = referee.view(side);
        assert_eq!(view["status"], draw, "{side}");
        assert_eq!(view["plies_without_battle"], 100, "{side}");
        assert_eq!(view["history"].as_array().unwrap().len(), 106, "{side}");
    }
    assert_eq!(
        referee.ok(&json!({"cmd":"legal_moves"})),
        json!({"ok":true,"side":"sente","moves":[]})
    );
    referee.refused(r#"{"cmd":"move","from":"a4","to":"b4"}"#, "game_over");
    assert_eq!(referee.board(), board);
    referee.finish();
}

#[test]
fn headquarters_aliases_work_in_setups_and_moves() {
    let mut referee = Referee::start();
    let mut setup = hand_setup();
    let general = setup.sente.remove("cd1").unwrap();
    setup.sente.insert("c1".into(), general);
    let general = setup.gote.remove("cd8").unwrap();
    setup.gote.insert("d8".into(), general);
    referee.ok(&hand_new(&setup));
    let board = referee.board();
    assert_eq!(
        board["pieces"]["cd1"],
        json!({"side":"sente","kind":"general"})
    );
    assert_eq!(
        board["pieces"]["cd8"],
        json!({"side":"gote","kind":"general"})
    );
    assert!(board["pieces"].get("c1").is_none());
    assert!(board["pieces"].get("d8").is_none());

    // The plane on c2 flies off; then the general leaves the HQ named as "d1".
    referee.ok(&mv("c2", "c5"));
    referee.ok(&mv("e5", "e4"));
    let legal = referee.legal_moves();
    assert!(legal.contains(&("cd1".into(), "c2".into())), "{legal:?}");
    assert!(
        !legal
            .iter()
            .any(|(f, t)| f == "c1" || f == "d1" || t == "c1")
    );
    referee.ok(&mv("d1", "c2"));
    let board = referee.board();
    assert!(board["pieces"].get("cd1").is_none());
    assert_eq!(
        board["pieces"]["c2"],
        json!({"side":"sente","kind":"general"})
    );
    referee.ok(&mv("b5", "b4"));
    // And back into the HQ, named "c1".
    referee.ok(&mv("c2", "c1"));
    let view = referee.view("gote");
    let history = view["history"].as_array().unwrap();
    assert_eq!(history[2]["from"], "cd1");
    assert_eq!(history[4]["to"], "cd1");
    assert_eq!(referee.board()["pieces"]["cd1"]["kind"], "general");

    // Naming the same HQ twice in one setup is a setup violation, not a silent overwrite.
    let mut twice = hand_setup();
    twice.sente.insert("d1".into(), "general".into());
    let message = referee.refused(&hand_new(&twice).to_string(), "invalid_setup");
    assert!(message.contains("cd1"), "{message}");
    referee.finish();
}

#[test]
fn a_new_game_replaces_the_current_one() {
    let mut referee = Referee::start();
    referee.ok(&hand_new(&hand_setup()));
    referee.ok(&mv("b4", "b5"));
    referee.ok(&json!({"cmd":"resign","side":"gote"}));
    let deployments = auto_deployments(11);
    referee.ok(&new_request(&deployments));
    let game = Game::new(Ruleset::STANDARD, deployments).unwrap();
    assert_eq!(referee.board(), expected_board(&game));
    assert_eq!(referee.view("sente")["history"], json!([]));
    assert_eq!(referee.board()["to_move"], Side::Sente.id());
    referee.finish();
}

#[test]
fn garbage_bytes_do_not_end_the_referee() {
    let mut referee = Referee::start();
    referee.stdin.write_all(b"\xff\xfe{\"cmd\"\n").unwrap();
    let answer = referee.read();
    assert_eq!(answer["error"]["code"], "bad_json");
    referee.stdin.write_all(b"\0\0\0\n").unwrap();
    assert_eq!(referee.read()["error"]["code"], "bad_json");
    referee.refused(r#"{"cmd":"board"}"#, "no_game");
    referee.finish();
}

#[test]
fn stdout_holds_one_answer_line_per_request_line_and_nothing_else() {
    let run = |input: &str| {
        let mut child = spawn_referee();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(run(""), "", "no request, no output");

    let requests = [
        json!({"cmd":"legal_moves"}).to_string(),
        hand_new(&hand_setup()).to_string(),
        json!({"cmd":"legal_moves"}).to_string(),
        "not json".to_owned(),
        mv("b4", "b5").to_string(),
        json!({"cmd":"board"}).to_string(),
        json!({"cmd":"view","side":"gote"}).to_string(),
        json!({"cmd":"resign","side":"sente"}).to_string(),
        mv("a5", "b5").to_string(),
    ];
    let stdout = run(&(requests.join("\n") + "\n"));
    let lines: Vec<&str> = stdout.split_terminator('\n').collect();
    assert_eq!(lines.len(), requests.len(), "{stdout}");
    assert!(stdout.ends_with('\n'));
    let codes: Vec<Value> = lines
        .iter()
        .map(|line| {
            let answer: Value = serde_json::from_str(line).unwrap();
            if answer["ok"] == true {
                Value::Bool(true)
            } else {
                answer["error"]["code"].clone()
            }
        })
        .collect();
    assert_eq!(
        codes,
        [
            json!("no_game"),
            json!(true),
            json!(true),
            json!("bad_json"),
            json!(true),
            json!(true),
            json!(true),
            json!(true),
            json!("game_over"),
        ]
    );
}
