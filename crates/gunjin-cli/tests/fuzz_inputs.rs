//! Fuzz-style properties of `gunjin referee` and `gunjin bot`, driven over their real pipes as an
//! outside program would, with random bytes, random JSON values and mutated valid requests.
//!
//! - Every line gets exactly one answer: one JSON object with a boolean `ok`; a refusal is
//!   `{"ok":false,"error":{"code","message"}}` with one of the documented codes.
//! - The referee: after a refused request (and after any `board`, `view` or `legal_moves`) the
//!   answers to `board`, both `view`s and `legal_moves` are byte-identical to those before.
//! - The bot is stateless: the same `go` gets the same answer, byte for byte, after any garbage.
//!   A view that does not hold together gets `bad_view` (`bad_request` for a wrong shape); a view
//!   the referee really gave gets a legal move, or `no_move` when it is not the viewer's turn.
//! - Neither program dies: each ends cleanly when its input closes. Every answer is awaited with
//!   a time limit, so a hang fails the test instead of stalling it.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

#[path = "../../../testing/json_mutation.rs"]
mod json_mutation;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use gunjin::rand::rngs::SmallRng;
use gunjin::rand::{RngExt, SeedableRng};
use gunjin::wire::WireView;
use gunjin::{BySide, Deployment, Game, Kind, Move, Ruleset, Setup, Side, Square};
use json_mutation::Mutation;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// The longest wait for one answer: far above any answer here (the bot's searches are capped by
/// small node budgets), so only a hang reaches it.
const ANSWER_WAIT: Duration = Duration::from_secs(60);

const REFEREE_CODES: &[&str] = &[
    "bad_json",
    "bad_request",
    "unknown_cmd",
    "invalid_setup",
    "illegal_move",
    "game_over",
    "no_game",
];

const BOT_CODES: &[&str] = &[
    "bad_json",
    "bad_request",
    "unknown_cmd",
    "bad_view",
    "no_move",
];

/// The referee requests whose answers together are the whole observable state.
const SNAPSHOT: [&str; 4] = [
    r#"{"cmd":"board"}"#,
    r#"{"cmd":"view","side":"sente"}"#,
    r#"{"cmd":"view","side":"gote"}"#,
    r#"{"cmd":"legal_moves"}"#,
];

// ---------------------------------------------------------------------------------------------
// A running program and its pipes.

/// A `gunjin` subcommand with its stdin, and its stdout read line by line on a thread (so a hang
/// is a time-out here, and a large batch of requests cannot block on a full pipe).
struct Program {
    name: &'static str,
    child: Child,
    stdin: Option<ChildStdin>,
    answers: Receiver<Vec<u8>>,
}

impl Program {
    fn start(name: &'static str) -> Program {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gunjin"))
            .arg(name)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start gunjin");
        let stdin = child.stdin.take();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, answers) = mpsc::channel();
        std::thread::spawn(move || {
            loop {
                let mut line = Vec::new();
                match stdout.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Program {
            name,
            child,
            stdin,
            answers,
        }
    }

    /// Writes every line (a `\n` after each), then reads one answer per line.
    fn send_lines<L: AsRef<[u8]>>(&mut self, lines: &[L]) -> Vec<String> {
        let mut bytes = Vec::new();
        for line in lines {
            assert!(
                !line.as_ref().contains(&b'\n'),
                "a request line with a newline"
            );
            bytes.extend_from_slice(line.as_ref());
            bytes.push(b'\n');
        }
        let stdin = self.stdin.as_mut().unwrap();
        if let Err(e) = stdin.write_all(&bytes).and_then(|()| stdin.flush()) {
            panic!(
                "gunjin {} stopped reading ({e}): {:?}",
                self.name,
                self.child.try_wait()
            );
        }
        (0..lines.len()).map(|_| self.next_answer()).collect()
    }

    fn answer(&mut self, line: impl AsRef<[u8]>) -> String {
        self.send_lines(&[line]).pop().unwrap()
    }

    fn next_answer(&mut self) -> String {
        match self.answers.recv_timeout(ANSWER_WAIT) {
            Ok(line) => {
                assert_eq!(line.last(), Some(&b'\n'), "an answer cut short");
                let mut text = String::from_utf8(line).expect("an answer that is not UTF-8");
                text.pop();
                text
            }
            Err(RecvTimeoutError::Timeout) => {
                panic!(
                    "gunjin {}: no answer within {ANSWER_WAIT:?} (a hang?)",
                    self.name
                )
            }
            Err(RecvTimeoutError::Disconnected) => panic!(
                "gunjin {} closed its output (died?): {:?}",
                self.name,
                self.child.try_wait()
            ),
        }
    }

    /// Closes stdin: nothing more may come out, and the program must end with success.
    fn finish(mut self) {
        drop(self.stdin.take());
        match self.answers.recv_timeout(ANSWER_WAIT) {
            Err(RecvTimeoutError::Disconnected) => {}
            Ok(extra) => panic!(
                "gunjin {}: output after the last answer: {}",
                self.name,
                String::from_utf8_lossy(&extra)
            ),
            Err(RecvTimeoutError::Timeout) => panic!("gunjin {} does not end", self.name),
        }
        let status = self.child.wait().unwrap();
        assert!(
            status.success(),
            "gunjin {} exit status {status}",
            self.name
        );
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Checks the shape of one answer line and returns it parsed.
fn check_answer(text: &str, codes: &[&str], request: &[u8]) -> Value {
    let request = String::from_utf8_lossy(request);
    let value: Value = serde_json::from_str(text)
        .unwrap_or_else(|e| panic!("answer is not JSON ({e}): {text:?} to {request:?}"));
    let object = value
        .as_object()
        .unwrap_or_else(|| panic!("answer is not an object: {text} to {request:?}"));
    match object.get("ok") {
        Some(Value::Bool(true)) => {}
        Some(Value::Bool(false)) => {
            assert_eq!(object.len(), 2, "a refusal is ok and error only: {text}");
            let error = object["error"]
                .as_object()
                .unwrap_or_else(|| panic!("no error object: {text}"));
            assert_eq!(error.len(), 2, "error has code and message only: {text}");
            assert!(error["message"].is_string(), "{text}");
            let code = error["code"].as_str().unwrap_or_default();
            assert!(
                codes.contains(&code),
                "unknown code {code:?} in {text} to {request:?}"
            );
        }
        _ => panic!("no boolean ok: {text} to {request:?}"),
    }
    value
}

/// The error code of an answer, `"ok"` for a success.
fn code_of(answer: &Value) -> String {
    answer["error"]["code"].as_str().unwrap_or("ok").to_owned()
}

// ---------------------------------------------------------------------------------------------
// Strategies: garbage bytes, JSON values, request-shaped objects, mutation plans.

/// Strings that mean something somewhere in the protocol, and some that almost do.
const WORDS: &[&str] = &[
    "cmd",
    "new",
    "move",
    "board",
    "view",
    "resign",
    "legal_moves",
    "setup",
    "go",
    "ruleset",
    "standard",
    "side",
    "sente",
    "gote",
    "from",
    "to",
    "level",
    "seed",
    "nodes",
    "time_ms",
    "beginner",
    "random",
    "greedy",
    "a1",
    "b4",
    "b5",
    "cd1",
    "c1",
    "d8",
    "cd8",
    "f8",
    "z9",
    "a9",
    "g1",
    "",
    "general",
    "spy",
    "mine",
    "flag",
    "plane",
    "tank",
    "dragon",
    "pieces",
    "history",
    "removed",
    "own",
    "enemy_count",
    "status",
    "state",
    "ongoing",
    "won",
    "battle",
    "outcome",
    "attacker",
    "both",
    "kind",
    "to_move",
    "plies_without_battle",
    "\u{0}",
    "é",
    "\u{202e}",
];

const JSONISH: &[u8] = br#"{}[]":,.-+0123456789eE truefalsnulcmdboardview\/"#;

fn word() -> impl Strategy<Value = String> {
    prop::sample::select(WORDS).prop_map(str::to_owned)
}

/// One line of random bytes (no newline: the line is one request), often JSON-like.
fn garbage_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..100),
        prop::collection::vec(prop::sample::select(JSONISH), 0..100),
    ]
    .prop_map(|mut bytes| {
        for b in &mut bytes {
            if *b == b'\n' {
                *b = b' ';
            }
        }
        bytes
    })
}

fn json_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        prop::num::f64::NORMAL.prop_map(Value::from),
        word().prop_map(Value::String),
        "[a-z0-9]{0,6}".prop_map(Value::String),
        any::<String>().prop_map(Value::String),
    ]
}

/// Any JSON value, a few levels deep.
fn json_value() -> impl Strategy<Value = Value> {
    json_leaf().prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((prop_oneof![word(), ".{0,6}"], inner), 0..5)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// An object with a `cmd` (usually a known one) and fields with protocol names.
fn request_shaped() -> impl Strategy<Value = Value> {
    (
        prop_oneof![word(), ".{0,6}"],
        prop::collection::vec((word(), json_value()), 0..4),
    )
        .prop_map(|(cmd, fields)| {
            let mut object: Map<String, Value> = fields.into_iter().collect();
            object.insert("cmd".into(), Value::String(cmd));
            Value::Object(object)
        })
}

fn json_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![json_value(), request_shaped()].prop_map(|v| v.to_string().into_bytes())
}

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    prop::collection::vec(
        (
            prop_oneof![3 => 0u8..5, 1 => 5u8..10],
            any::<usize>(),
            any::<usize>(),
            json_value(),
        )
            .prop_map(|(op, a, b, value)| Mutation { op, a, b, value }),
        1..4,
    )
}

/// Applies the mutations to a request; never yields a newline.
fn mutate(request: &Value, plan: &[Mutation]) -> Vec<u8> {
    let mut bytes = json_mutation::mutate(request, plan, WORDS);
    for b in &mut bytes {
        if *b == b'\n' {
            *b = b' ';
        }
    }
    bytes
}

// ---------------------------------------------------------------------------------------------
// Games.

fn setup_value(deployment: &Deployment) -> Value {
    serde_json::to_value(deployment.to_wire()).unwrap()
}

fn new_request(seed: u64) -> Value {
    let d = BySide::new_with(|side| Deployment::auto(side, seed.wrapping_add(side.index() as u64)));
    json!({"cmd":"new","ruleset":"standard","setup":{"sente":setup_value(&d.sente),"gote":setup_value(&d.gote)}})
}

/// A game of random legal moves from random deployments: `plies` of them at most, stopping
/// early at the end (or, with `keep_on`, just before it). Battles are preferred with
/// `battles`, so games reach removed pieces and flag fights sooner.
fn random_game(seed: u64, plies: usize, battles: bool, keep_on: bool) -> Game {
    let mut rng = SmallRng::seed_from_u64(seed);
    let deployments =
        BySide::new_with(|side| Deployment::auto(side, rng.random::<u64>() ^ side.index() as u64));
    let mut game = Game::new(Ruleset::STANDARD, deployments).unwrap();
    for _ in 0..plies {
        if !game.status().is_ongoing() {
            break;
        }
        let pos = game.position();
        let moves = pos.legal_moves();
        let fights: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.to).is_some())
            .collect();
        let mv = if battles && !fights.is_empty() && rng.random_bool(0.6) {
            fights[rng.random_range(0..fights.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        };
        let mut next = game.clone();
        next.play(mv).unwrap();
        if keep_on && !next.status().is_ongoing() {
            break;
        }
        game = next;
    }
    game
}

fn view_value(game: &Game, side: Side) -> Value {
    serde_json::to_value(WireView::from(&game.view(side))).unwrap()
}

// ---------------------------------------------------------------------------------------------
// The referee.

/// Starts a referee; with `plies`, a game from `seed` with up to that many random moves played
/// through the referee itself.
fn referee_at(seed: u64, plies: Option<usize>) -> Program {
    let mut p = Program::start("referee");
    let Some(plies) = plies else { return p };
    let mut rng = SmallRng::seed_from_u64(seed);
    let answer = p.answer(new_request(seed).to_string());
    assert_eq!(
        check_answer(&answer, REFEREE_CODES, b"new")["ok"],
        true,
        "{answer}"
    );
    for _ in 0..plies {
        let answer = p.answer(r#"{"cmd":"legal_moves"}"#);
        let legal = check_answer(&answer, REFEREE_CODES, b"legal_moves");
        let moves = legal["moves"].as_array().unwrap();
        if moves.is_empty() {
            break;
        }
        let mv = &moves[rng.random_range(0..moves.len())];
        let line = json!({"cmd":"move","from":mv[0],"to":mv[1]}).to_string();
        let answer = p.answer(&line);
        assert_eq!(
            check_answer(&answer, REFEREE_CODES, line.as_bytes())["ok"],
            true
        );
    }
    p
}

/// Sends every line, each followed by the snapshot requests, and checks: one well-formed answer
/// per line; the snapshot unchanged unless the line was an accepted `new`, `move` or `resign`.
/// Returns the answers to the lines.
fn referee_case(mut p: Program, lines: &[Vec<u8>]) -> Result<Vec<Value>, TestCaseError> {
    let mut answered = Vec::new();
    let mut before = p.send_lines(&SNAPSHOT);
    let mut batch: Vec<Vec<u8>> = Vec::new();
    for line in lines {
        batch.push(line.clone());
        batch.extend(SNAPSHOT.iter().map(|s| s.as_bytes().to_vec()));
    }
    let answers = p.send_lines(&batch);
    for (line, answers) in lines.iter().zip(answers.chunks(1 + SNAPSHOT.len())) {
        let answer = check_answer(&answers[0], REFEREE_CODES, line);
        answered.push(answer.clone());
        let after = answers[1..].to_vec();
        for (text, request) in after.iter().zip(SNAPSHOT) {
            check_answer(text, REFEREE_CODES, request.as_bytes());
        }
        let cmd = serde_json::from_slice::<Value>(line)
            .ok()
            .and_then(|v| v["cmd"].as_str().map(str::to_owned));
        let may_change =
            answer["ok"] == true && matches!(cmd.as_deref(), Some("new" | "move" | "resign"));
        if !may_change {
            prop_assert_eq!(
                &after,
                &before,
                "{:?} answered {} and changed the game",
                String::from_utf8_lossy(line),
                &answers[0]
            );
        }
        before = after;
    }
    p.finish();
    Ok(answered)
}

/// Valid requests for the referee's current state, to be mutated.
fn referee_templates(p: &mut Program, seed: u64) -> Vec<Value> {
    let mut templates = vec![
        new_request(seed ^ 0x5eed),
        json!({"cmd":"board"}),
        json!({"cmd":"legal_moves"}),
        json!({"cmd":"view","side":"sente"}),
        json!({"cmd":"view","side":"gote"}),
        json!({"cmd":"resign","side":"gote"}),
        json!({"cmd":"move","from":"b4","to":"b5"}),
    ];
    let legal: Value = serde_json::from_str(&p.answer(r#"{"cmd":"legal_moves"}"#)).unwrap();
    if let Some(moves) = legal["moves"].as_array() {
        for mv in moves.iter().take(3) {
            templates.push(json!({"cmd":"move","from":mv[0],"to":mv[1]}));
        }
    }
    templates
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random bytes, before any game and during one.
    #[test]
    fn the_referee_survives_random_bytes(
        seed in any::<u64>(),
        plies in prop::option::of(0usize..40),
        lines in prop::collection::vec(garbage_line(), 1..12),
    ) {
        referee_case(referee_at(seed, plies), &lines)?;
    }

    /// Random JSON values and objects shaped like requests (`cmd` and protocol field names).
    #[test]
    fn the_referee_survives_random_json(
        seed in any::<u64>(),
        plies in prop::option::of(0usize..40),
        lines in prop::collection::vec(json_line(), 1..12),
    ) {
        referee_case(referee_at(seed, plies), &lines)?;
    }

    /// Valid requests for the state at hand, mangled at the JSON and at the byte level.
    #[test]
    fn the_referee_survives_mutated_requests(
        seed in any::<u64>(),
        plies in prop::option::of(0usize..60),
        plans in prop::collection::vec((any::<usize>(), mutations()), 1..12),
    ) {
        let mut p = referee_at(seed, plies);
        let templates = referee_templates(&mut p, seed);
        let lines: Vec<Vec<u8>> = plans
            .iter()
            .map(|(i, plan)| mutate(&templates[i % templates.len()], plan))
            .collect();
        referee_case(p, &lines)?;
    }
}

/// Square names a setup may be edited to use: every square, the headquarters' aliases, and
/// names of no square.
fn setup_square(i: usize) -> String {
    let mut names: Vec<&str> = Square::all().map(Square::name).collect();
    names.extend(["c1", "d1", "c8", "d8", "z9", "a9", "", "A1"]);
    names[i % names.len()].to_owned()
}

/// Edits one side's setup the way a careless hand would: swaps two pieces, moves one (in the
/// camp, out of it, to a name of no square), drops one, renames a kind, adds one.
fn edit_setup(setup: &mut Map<String, Value>, op: u8, a: usize, b: usize) {
    let keys: Vec<String> = setup.keys().cloned().collect();
    let key = |i: usize| keys[i % keys.len()].clone();
    let kind = |i: usize| {
        if i.is_multiple_of(8) {
            WORDS[(i / 8) % WORDS.len()].to_owned()
        } else {
            Kind::ALL[(i / 8) % Kind::ALL.len()].id().to_owned()
        }
    };
    match op % 5 {
        _ if keys.is_empty() => {
            setup.insert(setup_square(a), json!(kind(b)));
        }
        0 => {
            let (first, second) = (key(a), key(b));
            let x = setup[&first].clone();
            let y = std::mem::replace(&mut setup[&second], x);
            setup[&first] = y;
        }
        1 => {
            let piece = setup.remove(&key(a)).unwrap();
            setup.insert(setup_square(b), piece);
        }
        2 => {
            setup.remove(&key(a));
        }
        3 => setup[&key(a)] = json!(kind(b)),
        _ => {
            setup.insert(setup_square(a), json!(kind(b)));
        }
    }
}

/// Whether the engine takes `setup` for `side` (the oracle for the referee's answer).
fn engine_accepts(side: Side, setup: &Map<String, Value>) -> bool {
    let wire: std::collections::BTreeMap<String, String> = setup
        .iter()
        .map(|(sq, kind)| (sq.clone(), kind.as_str().unwrap().to_owned()))
        .collect();
    Deployment::new(side, &Setup::from_wire(&wire), &Ruleset::STANDARD).is_ok()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Hand-edited setups: the referee starts a game exactly when the engine takes both setups,
    /// and otherwise answers `invalid_setup` and keeps the game it had (or none).
    #[test]
    fn edited_setups_are_judged_as_the_engine_judges_them(
        seed in any::<u64>(),
        plies in prop::option::of(0usize..20),
        edits in prop::collection::vec(
            prop::collection::vec((any::<bool>(), any::<u8>(), any::<usize>(), any::<usize>()), 0..4),
            1..6,
        ),
    ) {
        let mut expected = Vec::new();
        let lines: Vec<Vec<u8>> = edits
            .iter()
            .enumerate()
            .map(|(n, edits)| {
                let mut request = new_request(seed.wrapping_add(n as u64 * 2 + 1));
                for &(gote, op, a, b) in edits {
                    let side = if gote { "gote" } else { "sente" };
                    edit_setup(request["setup"][side].as_object_mut().unwrap(), op, a, b);
                }
                let accepted = Side::ALL.iter().all(|&side| {
                    engine_accepts(side, request["setup"][side.id()].as_object().unwrap())
                });
                expected.push(if accepted { "ok" } else { "invalid_setup" });
                request.to_string().into_bytes()
            })
            .collect();
        let answers = referee_case(referee_at(seed, plies), &lines)?;
        for ((answer, expected), line) in answers.iter().zip(expected).zip(&lines) {
            prop_assert_eq!(
                code_of(answer), expected,
                "{} → {}", String::from_utf8_lossy(line), answer
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    /// The same after a game has ended: every move and resignation is refused and nothing
    /// changes.
    #[test]
    fn a_finished_game_refuses_mutated_requests_and_stays_as_it_was(
        seed in any::<u64>(),
        plans in prop::collection::vec((any::<usize>(), mutations()), 1..12),
    ) {
        let mut p = referee_at(seed, Some(10));
        let answer = p.answer(r#"{"cmd":"resign","side":"sente"}"#);
        // (A random game may, rarely, be over already.)
        let code = code_of(&check_answer(&answer, REFEREE_CODES, b"resign"));
        prop_assert!(code == "ok" || code == "game_over", "{}", answer);
        let mut templates = referee_templates(&mut p, seed);
        templates.retain(|t| t["cmd"] != "new");
        let lines: Vec<Vec<u8>> = plans
            .iter()
            .map(|(i, plan)| mutate(&templates[i % templates.len()], plan))
            .collect();
        let answers = referee_case(p, &lines)?;
        for (answer, line) in answers.iter().zip(&lines) {
            let cmd = serde_json::from_slice::<Value>(line).ok().map(|v| v["cmd"].clone());
            if matches!(cmd, Some(Value::String(c)) if c == "move" || c == "resign") {
                prop_assert_ne!(code_of(answer), "ok", "{}", String::from_utf8_lossy(line));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The bot.

/// A `go` for `view` that searches little, so each answer is quick.
fn go_request(view: &Value, level: &str, seed: u64) -> Value {
    json!({"cmd":"go","view":view,"level":level,"seed":seed,"nodes":400})
}

const QUICK_LEVELS: [&str; 5] = ["random", "greedy", "beginner", "intermediate", "advanced"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// Garbage of every kind gets an error answer, and the same `go` is answered the same, byte
    /// for byte, before and after each line.
    #[test]
    fn the_bot_survives_garbage_and_stays_stateless(
        seed in any::<u64>(),
        plies in 0usize..80,
        lines in prop::collection::vec(prop_oneof![garbage_line(), json_line()], 1..10),
    ) {
        let game = random_game(seed, plies, true, true);
        let reference = go_request(&view_value(&game, game.position().to_move()), "beginner", seed)
            .to_string()
            .into_bytes();
        let mut p = Program::start("bot");
        let first = p.answer(&reference);
        prop_assert_eq!(code_of(&check_answer(&first, BOT_CODES, &reference)), "ok");
        let mut batch = Vec::new();
        for line in &lines {
            batch.push(line.clone());
            batch.push(reference.clone());
        }
        let answers = p.send_lines(&batch);
        for (line, pair) in lines.iter().zip(answers.chunks(2)) {
            check_answer(&pair[0], BOT_CODES, line);
            prop_assert_eq!(
                &pair[1], &first,
                "the same go answered differently after {:?}", String::from_utf8_lossy(line)
            );
        }
        p.finish();
    }

    /// Views the referee really gives (at any point of a game, either side, after the end too)
    /// get a legal move on the viewer's turn and `no_move` otherwise: never `bad_view`.
    #[test]
    fn real_views_get_legal_moves(
        seed in any::<u64>(),
        plies in 0usize..400,
        battles in any::<bool>(),
        level in prop::sample::select(QUICK_LEVELS.to_vec()),
    ) {
        let game = random_game(seed, plies, battles, false);
        let mut p = Program::start("bot");
        let requests: Vec<String> = Side::ALL
            .iter()
            .map(|&side| go_request(&view_value(&game, side), level, seed).to_string())
            .collect();
        let answers = p.send_lines(&requests);
        for ((side, answer), request) in Side::ALL.iter().zip(&answers).zip(&requests) {
            let answer = check_answer(answer, BOT_CODES, request.as_bytes());
            let on_move = game.status().is_ongoing() && game.position().to_move() == *side;
            if on_move {
                prop_assert_eq!(code_of(&answer), "ok", "{} after {} plies: {}", side, game.history().len(), answer);
                let mv: Move = serde_json::from_value(answer["move"].clone()).unwrap();
                prop_assert!(game.position().is_legal(mv), "illegal {:?}", mv);
            } else {
                prop_assert_eq!(code_of(&answer), "no_move", "{}: {}", side, answer);
            }
        }
        p.finish();
    }
}

/// One way to make an ongoing game's view not hold together, with the code it must get.
#[derive(Clone, Copy, Debug)]
enum Break {
    EnemyKind,
    DropOwn,
    DropEnemy,
    AddOwn,
    AddEnemy,
    ChangeOwnKind,
    MoveOwn,
    FlipToMove,
    QuietPlies,
    EnemyCount,
    RemovedOwnMore,
    RemovedOwnFewer,
    DropPly,
    AppendPly,
    PlySide,
    PlyBattle,
    StatusOver,
    FlipSide,
    NonSquarePiece,
    NonSquarePly,
    NoSuchKind,
    NoSuchSide,
}

const BREAKS: [Break; 22] = [
    Break::EnemyKind,
    Break::DropOwn,
    Break::DropEnemy,
    Break::AddOwn,
    Break::AddEnemy,
    Break::ChangeOwnKind,
    Break::MoveOwn,
    Break::FlipToMove,
    Break::QuietPlies,
    Break::EnemyCount,
    Break::RemovedOwnMore,
    Break::RemovedOwnFewer,
    Break::DropPly,
    Break::AppendPly,
    Break::PlySide,
    Break::PlyBattle,
    Break::StatusOver,
    Break::FlipSide,
    Break::NonSquarePiece,
    Break::NonSquarePly,
    Break::NoSuchKind,
    Break::NoSuchSide,
];

const NOT_SQUARES: [&str; 8] = ["z9", "a9", "g1", "a0", "", "cd2", "A1", "a10"];

/// Breaks `view` (an ongoing game's, as JSON) one way; returns the code the bot must answer.
#[allow(clippy::too_many_lines)]
fn break_view(view: &mut Value, how: Break, a: usize, b: usize) -> &'static str {
    let me = view["side"].as_str().unwrap().to_owned();
    let squares_of = |view: &Value, own: bool| -> Vec<String> {
        view["pieces"]
            .as_object()
            .unwrap()
            .iter()
            .filter(|(_, p)| (p["side"] == me.as_str()) == own)
            .map(|(sq, _)| sq.clone())
            .collect()
    };
    let own = squares_of(view, true);
    let enemy = squares_of(view, false);
    let empty: Vec<&str> = Square::all()
        .map(Square::name)
        .filter(|sq| view["pieces"].get(*sq).is_none())
        .collect();
    let history_len = view["history"].as_array().unwrap().len();
    let removed_own = view["removed"]["own"].as_array().unwrap().len();
    // Pieces to give a malformed square, kind or side: the viewer's own if it has any left.
    let named = if own.is_empty() { &enemy } else { &own };
    let kind = |i: usize| Kind::ALL[i % Kind::ALL.len()].id();
    let pieces = view["pieces"].as_object_mut().unwrap();
    match how {
        Break::EnemyKind if !enemy.is_empty() => {
            pieces[&enemy[a % enemy.len()]]["kind"] = json!(kind(b));
        }
        Break::DropOwn if !own.is_empty() => {
            pieces.remove(&own[a % own.len()]);
        }
        Break::DropEnemy if !enemy.is_empty() => {
            pieces.remove(&enemy[a % enemy.len()]);
        }
        Break::AddOwn if !empty.is_empty() => {
            pieces.insert(
                empty[a % empty.len()].to_owned(),
                json!({"side":me,"kind":kind(b)}),
            );
        }
        Break::AddEnemy if !empty.is_empty() => {
            let them = Side::from_id(&me).unwrap().opponent();
            pieces.insert(empty[a % empty.len()].to_owned(), json!({"side":them}));
        }
        Break::ChangeOwnKind if !own.is_empty() => {
            let piece = &mut pieces[&own[a % own.len()]];
            let was = Kind::from_id(piece["kind"].as_str().unwrap()).unwrap();
            piece["kind"] = json!(kind(was.index() + 1 + b % 15));
        }
        Break::MoveOwn if !empty.is_empty() && !own.is_empty() => {
            let piece = pieces.remove(&own[a % own.len()]).unwrap();
            pieces.insert(empty[b % empty.len()].to_owned(), piece);
        }
        Break::FlipToMove => {
            let to_move = Side::from_id(view["to_move"].as_str().unwrap()).unwrap();
            view["to_move"] = json!(to_move.opponent());
        }
        Break::QuietPlies => {
            let quiet = view["plies_without_battle"].as_u64().unwrap();
            view["plies_without_battle"] = json!((quiet + 1 + (b as u64) % 300) % 65_536);
        }
        Break::EnemyCount => {
            let count = view["removed"]["enemy_count"].as_u64().unwrap();
            view["removed"]["enemy_count"] = json!((count + 1 + (b as u64) % 255) % 256);
        }
        Break::RemovedOwnMore => {
            view["removed"]["own"]
                .as_array_mut()
                .unwrap()
                .push(json!(kind(b)));
        }
        Break::RemovedOwnFewer if removed_own > 0 => {
            view["removed"]["own"]
                .as_array_mut()
                .unwrap()
                .remove(a % removed_own);
        }
        Break::DropPly if history_len > 0 => {
            view["history"]
                .as_array_mut()
                .unwrap()
                .remove(a % history_len);
        }
        Break::PlySide if history_len > 0 => {
            let ply = &mut view["history"][a % history_len];
            let side = Side::from_id(ply["side"].as_str().unwrap()).unwrap();
            ply["side"] = json!(side.opponent());
        }
        Break::PlyBattle if history_len > 0 => {
            let ply = &mut view["history"][a % history_len];
            let outcomes = ["attacker", "defender", "both"];
            ply["battle"] = match ply["battle"]["outcome"].as_str() {
                Some(_) if b.is_multiple_of(4) => Value::Null,
                Some(was) => {
                    let others: Vec<_> = outcomes.iter().filter(|o| **o != was).collect();
                    json!({"square": ply["to"], "outcome": others[b % 2]})
                }
                None => json!({"square": ply["to"], "outcome": outcomes[b % 3]}),
            };
        }
        Break::StatusOver => {
            view["status"] = if b.is_multiple_of(2) {
                json!({"state":"won","winner":me,"reason":"occupation"})
            } else {
                json!({"state":"draw","reason":"no_battle_limit"})
            };
            // A finished view must show every enemy kind; with no enemy piece on the board
            // there is none to miss, and a finished game's view is only answered `no_move`.
            if enemy.is_empty() {
                return "no_move";
            }
        }
        Break::FlipSide => {
            let side = Side::from_id(&me).unwrap();
            view["side"] = json!(side.opponent());
        }
        Break::NonSquarePiece => {
            let piece = pieces.remove(&named[a % named.len()]).unwrap();
            pieces.insert(NOT_SQUARES[b % NOT_SQUARES.len()].to_owned(), piece);
            return "bad_request";
        }
        Break::NonSquarePly if history_len > 0 => {
            let field = if b.is_multiple_of(2) { "from" } else { "to" };
            view["history"][a % history_len][field] = json!(NOT_SQUARES[b % NOT_SQUARES.len()]);
            return "bad_request";
        }
        Break::NoSuchKind => {
            pieces[&named[a % named.len()]]["kind"] = json!("dragon");
            return "bad_request";
        }
        Break::NoSuchSide => {
            pieces[&named[a % named.len()]]["side"] = json!("red");
            return "bad_request";
        }
        // Nothing to drop or change in the history or removals yet: another break.
        Break::RemovedOwnFewer => return break_view(view, Break::RemovedOwnMore, a, b),
        Break::DropPly | Break::PlySide | Break::PlyBattle => {
            return break_view(view, Break::AppendPly, a, b);
        }
        Break::NonSquarePly => return break_view(view, Break::NonSquarePiece, a, b),
        // Before the first battle every square is taken: nowhere to add or move a piece to.
        // And a side may have lost its last piece on its own move: the game goes on until its
        // turn comes, so there is no own (or enemy) piece to drop, change or move.
        Break::AddOwn => return break_view(view, Break::ChangeOwnKind, a, b),
        Break::MoveOwn if own.is_empty() => return break_view(view, Break::AddOwn, a, b),
        Break::MoveOwn => return break_view(view, Break::ChangeOwnKind, a, b),
        Break::DropOwn | Break::ChangeOwnKind => return break_view(view, Break::AddOwn, a, b),
        Break::EnemyKind | Break::DropEnemy => return break_view(view, Break::AddEnemy, a, b),
        Break::AddEnemy => return break_view(view, Break::DropEnemy, a, b),
        Break::AppendPly => {
            let sq = |i: usize| Square::all().nth(i % Square::COUNT).unwrap().name();
            let ply = json!({"side": view["to_move"], "from": sq(a), "to": sq(b), "battle": null});
            view["history"].as_array_mut().unwrap().push(ply);
        }
    }
    "bad_view"
}

/// Sends `game`'s view for `viewer` whole and then broken by `how`: the first must be answered,
/// the second refused with the code the break calls for.
fn check_broken_view(
    game: &Game,
    viewer: Side,
    how: Break,
    a: usize,
    b: usize,
) -> Result<(), TestCaseError> {
    let view = view_value(game, viewer);
    let mut broken = view.clone();
    let expected = break_view(&mut broken, how, a, b);
    let good = go_request(&view, "random", a as u64).to_string();
    let bad = go_request(&broken, "random", a as u64).to_string();
    let mut p = Program::start("bot");
    let answers = p.send_lines(&[&good, &bad]);
    let good_answer = check_answer(&answers[0], BOT_CODES, good.as_bytes());
    let on_move = game.position().to_move() == viewer;
    prop_assert_eq!(
        code_of(&good_answer),
        if on_move { "ok" } else { "no_move" }
    );
    let bad_answer = check_answer(&answers[1], BOT_CODES, bad.as_bytes());
    prop_assert_eq!(
        code_of(&bad_answer),
        expected,
        "{:?} after {} plies: {}",
        how,
        game.history().len(),
        bad_answer
    );
    p.finish();
    Ok(())
}

/// Every break of `game`'s view for `viewer` is refused with its code.
fn check_every_break(game: &Game, viewer: Side) {
    for (i, how) in BREAKS.iter().enumerate() {
        check_broken_view(game, viewer, *how, i, 7 * i + 1).unwrap();
    }
}

/// At the start every square is taken; each break still finds something to break.
#[test]
fn views_of_the_full_opening_board_are_refused_when_broken() {
    let game = random_game(3, 0, false, true);
    for viewer in Side::ALL {
        check_every_break(&game, viewer);
    }
}

/// Sente lost its last piece on its own move: gote is to move and the game goes on until sente's
/// turn comes. Each break still finds something to break (found by the property test below).
#[test]
fn views_of_a_side_without_pieces_are_refused_when_broken() {
    let game = random_game(607_378_585_635_121_012, 177, true, true);
    assert!(game.status().is_ongoing());
    assert!(game.position().pieces().all(|(_, p)| p.side == Side::Gote));
    check_every_break(&game, Side::Sente);
}

/// The same with the sides turned: gote lost its last piece on its own move, and sente, the
/// viewer, is to move.
#[test]
fn views_of_an_enemy_without_pieces_are_refused_when_broken() {
    let game = random_game(12_190_716_971_495_949_666, 216, true, true);
    assert!(game.status().is_ongoing());
    assert!(game.position().pieces().all(|(_, p)| p.side == Side::Sente));
    check_every_break(&game, Side::Sente);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Each way of breaking a real, ongoing view is refused with its code (the unbroken view
    /// goes first and must be answered: the break alone makes the difference).
    #[test]
    fn views_that_do_not_hold_together_are_refused(
        seed in any::<u64>(),
        plies in 0usize..300,
        battles in any::<bool>(),
        viewer in prop::sample::select(Side::ALL.to_vec()),
        how in prop::sample::select(BREAKS.to_vec()),
        a in any::<usize>(),
        b in any::<usize>(),
    ) {
        let game = random_game(seed, plies, battles, true);
        prop_assume!(game.status().is_ongoing());
        check_broken_view(&game, viewer, how, a, b)?;
    }

    /// Any mangling of a real view is answered; an accepted one gets a move of one of the
    /// viewer's own pieces, to a square not holding another.
    #[test]
    fn mangled_views_are_answered(
        seed in any::<u64>(),
        plies in 0usize..200,
        viewer in prop::sample::select(Side::ALL.to_vec()),
        level in prop::sample::select(QUICK_LEVELS[..3].to_vec()),
        plans in prop::collection::vec(mutations(), 1..6),
    ) {
        let game = random_game(seed, plies, true, false);
        let view = view_value(&game, viewer);
        let lines: Vec<Vec<u8>> = plans
            .iter()
            .map(|plan| {
                let mut request = go_request(&view, level, seed);
                let view = std::mem::take(&mut request["view"]);
                let mangled = mutate(&view, plan);
                let mut line = br#"{"cmd":"go","level":""#.to_vec();
                line.extend_from_slice(level.as_bytes());
                line.extend_from_slice(br#"","nodes":400,"view":"#);
                line.extend_from_slice(&mangled);
                line.push(b'}');
                line
            })
            .collect();
        let mut p = Program::start("bot");
        let answers = p.send_lines(&lines);
        for (line, answer) in lines.iter().zip(&answers) {
            let answer = check_answer(answer, BOT_CODES, line);
            if answer["ok"] != true {
                continue;
            }
            let request: Value = serde_json::from_slice(line).unwrap();
            let side = request["view"]["side"].as_str().unwrap();
            let mut pieces = std::collections::BTreeMap::new();
            for (name, piece) in request["view"]["pieces"].as_object().unwrap() {
                pieces.insert(Square::parse(name).unwrap(), piece["side"].as_str().unwrap());
            }
            let mv: Move = serde_json::from_value(answer["move"].clone()).unwrap();
            prop_assert_eq!(pieces.get(&mv.from).copied(), Some(side), "{}", answer);
            prop_assert_ne!(pieces.get(&mv.to).copied(), Some(side), "{}", answer);
        }
        p.finish();
    }
}

/// A line longer than the limit (1 MiB) is refused whole (`bad_request`, or `bad_json` when what
/// was kept is already not JSON) without being held in memory, and the next line is answered: a
/// client cannot make the bot grow without bound.
#[test]
fn the_bot_refuses_an_overlong_line_and_reads_on() {
    let mut p = Program::start("bot");
    let mut long = vec![b' '; (1 << 20) + 10];
    long.extend_from_slice(br#"{"cmd":"setup","side":"sente","level":"beginner"}"#);
    let answers = p.send_lines(&[
        long,
        br#"{"cmd":"setup","side":"sente","level":"beginner"}"#.to_vec(),
    ]);
    let first = check_answer(&answers[0], BOT_CODES, b"(long)");
    assert_eq!(code_of(&first), "bad_request", "{first}");
    assert!(
        first["error"]["message"]
            .as_str()
            .unwrap()
            .contains("longer than")
    );
    let second = check_answer(&answers[1], BOT_CODES, b"setup");
    assert_eq!(second["ok"], true, "{second}");
    // What is kept of it is already not JSON: as for a short line, `bad_json`.
    let answers = p.send_lines(&[
        vec![b'x'; (1 << 20) + 10],
        br#"{"cmd":"setup","side":"sente","level":"beginner"}"#.to_vec(),
    ]);
    let first = check_answer(&answers[0], BOT_CODES, b"(long x)");
    assert_eq!(code_of(&first), "bad_json", "{first}");
    let second = check_answer(&answers[1], BOT_CODES, b"setup");
    assert_eq!(second["ok"], true, "{second}");
    p.finish();
}
