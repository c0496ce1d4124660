//! Fuzz-style properties of a room's WebSocket, over a real socket to a test server: client
//! frames that are random JSON, random bytes, oversized, or valid frames for the room's state
//! mangled at the JSON and at the byte level, in every phase (before `hello`, arranging, playing,
//! finished).
//!
//! - A frame the protocol cannot read gets exactly one `error` with the code the protocol names
//!   for it (`bad_json`, `bad_request`, `too_large`; `not_authenticated` or `already_authenticated`
//!   for a `hello` out of place).
//! - A readable request the room refuses gets exactly one `error` with a stable code. After it,
//!   and after a `ping`, a `sync` or an accepted no-op, the room is as it was: the next `sync`
//!   is identical to the one before, and the opponent received nothing.
//! - The connection stays usable: a `ping` after every frame is answered.
//!
//! The shared helper also checks every frame received: gapless versions and no enemy kind.
#![allow(clippy::unwrap_used)]
// proptest's runner takes an `Fn`, so the room lives in a `RefCell`; each case runs to its end
// in `block_on` on this one thread, so no other borrow can meet the one held across awaits.
#![allow(clippy::await_holding_refcell_ref)]

#[path = "../../../testing/json_mutation.rs"]
mod json_mutation;
mod rooms_support;

use std::cell::RefCell;
use std::net::SocketAddr;
use std::time::Duration;

use futures_util::SinkExt;
use gunjin::Side;
use gunjin::rand::{Rng, RngExt};
use gunjin_server::rooms::{ClientMsg, Gunjin, RoomsConfig};
use json_mutation::Mutation;
use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use rooms_support::*;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// Every error code of the protocol (`docs/protocol.md`).
const CODES: &[&str] = &[
    "bad_json",
    "bad_request",
    "too_large",
    "rate_limited",
    "not_authenticated",
    "already_authenticated",
    "bad_token",
    "no_room",
    "room_full",
    "room_closed",
    "invalid_setup",
    "not_arranging",
    "not_playing",
    "not_your_turn",
    "stale_version",
    "illegal_move",
    "not_finished",
    "not_offered",
];

/// The longest message the test server reads (the default).
const MAX_MESSAGE: usize = 4096;

fn config(dir: &tempdir::Dir) -> RoomsConfig {
    let mut c = test_config(dir);
    // The unauthenticated connection is kept for a whole property.
    c.hello_timeout = Duration::from_secs(600);
    assert_eq!(c.max_message, MAX_MESSAGE);
    c
}

// ---------------------------------------------------------------------------------------------
// Frames and their mutations.

/// A client frame: text, or bytes sent as a binary frame.
#[derive(Clone, Debug)]
enum Frame {
    Text(String),
    Binary(Vec<u8>),
}

/// Strings the protocol uses, and some that it almost does.
const WORDS: &[&str] = &[
    "t",
    "hello",
    "token",
    "since",
    "arrange",
    "setup",
    "unarrange",
    "move",
    "from",
    "to",
    "v",
    "resign",
    "rematch",
    "abandon",
    "sync",
    "ping",
    "a1",
    "b4",
    "cd1",
    "c1",
    "d8",
    "z9",
    "",
    "general",
    "flag",
    "mine",
    "dragon",
    "sente",
    "gote",
    "side",
    "pieces",
    "\u{0}",
    "é",
];

/// What a frame is made from: a template mangled by a plan, random JSON, random bytes, or a
/// message padded past the limit.
#[derive(Clone, Debug)]
enum Recipe {
    Mutated(usize, Vec<Mutation>),
    Json(Value),
    Bytes(Vec<u8>),
    Oversized(usize),
}

fn word() -> impl Strategy<Value = String> {
    prop::sample::select(WORDS).prop_map(str::to_owned)
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        prop::num::f64::NORMAL.prop_map(Value::from),
        word().prop_map(Value::String),
        any::<String>().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((prop_oneof![word(), ".{0,6}"], inner), 0..5)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

fn recipe() -> impl Strategy<Value = Recipe> {
    let mutation = (
        prop_oneof![3 => 0u8..5, 1 => 5u8..10],
        any::<usize>(),
        any::<usize>(),
        json_value(),
    )
        .prop_map(|(op, a, b, value)| Mutation { op, a, b, value });
    prop_oneof![
        6 => (any::<usize>(), prop::collection::vec(mutation, 1..4))
            .prop_map(|(i, plan)| Recipe::Mutated(i, plan)),
        2 => json_value().prop_map(Recipe::Json),
        1 => prop::collection::vec(any::<u8>(), 0..64).prop_map(Recipe::Bytes),
        1 => (MAX_MESSAGE + 1..3 * MAX_MESSAGE).prop_map(Recipe::Oversized),
    ]
}

fn cook(recipe: &Recipe, templates: &[Value]) -> Frame {
    let bytes = match recipe {
        Recipe::Mutated(i, plan) => {
            json_mutation::mutate(&templates[i % templates.len()], plan, WORDS)
        }
        Recipe::Json(v) => v.to_string().into_bytes(),
        Recipe::Bytes(b) => b.clone(),
        Recipe::Oversized(len) => {
            let pad = "x".repeat(len.saturating_sub(20));
            json!({"t":"ping","pad":pad}).to_string().into_bytes()
        }
    };
    match String::from_utf8(bytes) {
        Ok(text) => Frame::Text(text),
        Err(e) => Frame::Binary(e.into_bytes()),
    }
}

/// What the protocol says about a frame before any room sees it.
#[derive(Debug, PartialEq)]
enum Reading {
    /// Refused at the edge with this code.
    Refused(&'static str),
    Ping,
    Sync,
    Hello(String),
    /// A request for the room.
    Request,
    /// An arrangement whose setup names a square twice: read with both entries, for the room to
    /// refuse as a fault of the setup; never taken.
    SetupNamingASquareTwice,
}

fn read(frame: &Frame) -> Reading {
    let text = match frame {
        Frame::Binary(_) => return Reading::Refused("bad_json"),
        Frame::Text(text) if text.len() > MAX_MESSAGE => return Reading::Refused("too_large"),
        Frame::Text(text) => text,
    };
    // Every message is an object: anything else is refused, as JSON of no message's shape or as
    // no JSON at all (a derived reader would take a message's fields in an array).
    if !text.trim_start().starts_with('{') {
        return Reading::Refused(
            if serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() {
                "bad_request"
            } else {
                "bad_json"
            },
        );
    }
    let parsed = serde_json::from_str::<ClientMsg<Gunjin>>(text);
    // A readable frame that names a key twice is refused: which of the two was meant? In an
    // arrangement's setup that is a fault of the setup, which the room's check names.
    if let Ok(msg) = &parsed
        && let Some(repeated) =
            gunjin::wire::repeated_key(&mut serde_json::Deserializer::from_str(text))
    {
        let arranging = matches!(msg, ClientMsg::Arrange { .. });
        return if arranging && repeated.is_in(&["setup"]) {
            Reading::SetupNamingASquareTwice
        } else {
            Reading::Refused("bad_request")
        };
    }
    match parsed {
        Ok(ClientMsg::Ping {}) => Reading::Ping,
        Ok(ClientMsg::Sync {}) => Reading::Sync,
        Ok(ClientMsg::Hello { token, .. }) => Reading::Hello(token),
        Ok(_) => Reading::Request,
        Err(e) => match e.classify() {
            // JSON by the grammar that no message holds (`1e999`): of the wrong shape.
            serde_json::error::Category::Syntax
                if serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() =>
            {
                Reading::Refused("bad_request")
            }
            serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
                Reading::Refused("bad_json")
            }
            _ => Reading::Refused("bad_request"),
        },
    }
}

fn describe(frame: &Frame) -> String {
    let text = match frame {
        Frame::Text(t) => t.clone(),
        Frame::Binary(b) => format!("binary {}", String::from_utf8_lossy(b)),
    };
    text.chars().take(300).collect()
}

// ---------------------------------------------------------------------------------------------
// Rooms in each phase.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Arranging,
    Playing,
    Finished,
}

impl Stage {
    fn phase(self) -> &'static str {
        match self {
            Stage::Arranging => "arranging",
            Stage::Playing => "playing",
            Stage::Finished => "finished",
        }
    }
}

/// A room with both players connected; the host's frames are the ones mangled.
struct Fixture {
    room: String,
    host: Client,
    guest: Client,
    host_token: String,
    guest_token: String,
    /// The state as the host's last `sync` showed it.
    base: Value,
}

async fn send(client: &mut Client, frame: &Frame) {
    let msg = match frame {
        Frame::Text(t) => Message::Text(t.clone().into()),
        Frame::Binary(b) => Message::Binary(b.clone().into()),
    };
    client.ws.send(msg).await.unwrap();
}

/// Reads until the `n`-th `pong`; returns the other frames that came before it.
async fn until_pongs(client: &mut Client, n: usize) -> Vec<Value> {
    let mut seen = Vec::new();
    let mut pongs = 0;
    loop {
        let f = client.recv().await;
        if f["t"] == "pong" {
            pongs += 1;
            if pongs == n {
                return seen;
            }
            continue;
        }
        seen.push(f);
    }
}

/// Sends a ping and returns what arrived before its pong.
async fn drain(client: &mut Client) -> Vec<Value> {
    client.send(json!({"t":"ping"})).await;
    until_pongs(client, 1).await
}

async fn sync_of(client: &mut Client) -> Value {
    drain(client).await;
    client.send(json!({"t":"sync"})).await;
    let s = client.recv().await;
    assert_eq!(s["t"], "sync", "{s}");
    s
}

/// Plays up to `plies` random legal moves; stops early if the game ends.
async fn play_some(host: &mut Client, guest: &mut Client, rng: &mut impl Rng, plies: usize) {
    for _ in 0..plies {
        let host_turn = host.to_move == host.side;
        let (mover, other) = if host_turn {
            (&mut *host, &mut *guest)
        } else {
            (&mut *guest, &mut *host)
        };
        let legal = mover.legal.clone().expect("the side to move has moves");
        let (from, to) = legal[rng.random_range(0..legal.len())].clone();
        let v = mover.v;
        mover
            .send(json!({"t":"move","move":{"from":from,"to":to},"v":v}))
            .await;
        let a = mover.until("moved").await;
        other.until("moved").await;
        if a["status"]["state"] != "ongoing" {
            host.until("ended").await;
            guest.until("ended").await;
            return;
        }
    }
}

async fn fixture(addr: SocketAddr, stage: Stage, seed: u64) -> Fixture {
    let mut rng = rng(seed);
    let (room, host_token, guest_token, mut host, mut guest) = seated_pair(addr).await;
    match stage {
        Stage::Arranging => {
            if seed.is_multiple_of(2) {
                arrange(&mut host, rng.next_u64()).await;
                host.until("ready").await;
                guest.until("ready").await;
            }
        }
        Stage::Playing => {
            arrange_both(&mut host, &mut guest, &mut rng).await;
            let plies = rng.random_range(0..30);
            play_some(&mut host, &mut guest, &mut rng, plies).await;
        }
        Stage::Finished => {
            arrange_both(&mut host, &mut guest, &mut rng).await;
            let plies = rng.random_range(0..30);
            play_some(&mut host, &mut guest, &mut rng, plies).await;
            if !host.over {
                host.send(json!({"t":"resign"})).await;
                host.until("ended").await;
                guest.until("ended").await;
            }
        }
    }
    drain(&mut guest).await;
    let base = sync_of(&mut host).await;
    Fixture {
        room,
        host,
        guest,
        host_token,
        guest_token,
        base,
    }
}

/// Valid frames for the host in the room's state, to be mangled.
fn templates(fx: &Fixture, seed: u64) -> Vec<Value> {
    let v = fx.host.v;
    let side = fx.host.side.unwrap_or(Side::Sente);
    let mut t = vec![
        json!({"t":"hello","token":fx.host_token,"since":v}),
        json!({"t":"hello","token":fx.guest_token,"since":0}),
        json!({"t":"arrange","setup":setup_json(side, seed)}),
        json!({"t":"arrange","setup":setup_json(side.opponent(), seed)}),
        json!({"t":"unarrange"}),
        json!({"t":"move","move":{"from":"b4","to":"b5"},"v":v}),
        json!({"t":"resign"}),
        json!({"t":"rematch"}),
        json!({"t":"abandon"}),
        json!({"t":"sync"}),
        json!({"t":"ping"}),
    ];
    if let Some(legal) = &fx.host.legal {
        for (from, to) in legal.iter().take(3) {
            t.push(json!({"t":"move","move":{"from":from,"to":to},"v":v}));
        }
    }
    t
}

fn error_code(frames: &[Value]) -> Option<&str> {
    match frames {
        [f] if f["t"] == "error" => {
            assert!(f["message"].is_string(), "{f}");
            f["code"].as_str()
        }
        _ => None,
    }
}

/// Sends one frame from the host and checks the answer and, unless the room accepted a change,
/// that nothing changed.
async fn host_case(fx: &mut Fixture, frame: &Frame) -> Result<(), TestCaseError> {
    let reading = read(frame);
    send(&mut fx.host, frame).await;
    fx.host.send(json!({"t":"ping"})).await;
    let pongs = if reading == Reading::Ping { 2 } else { 1 };
    let mut frames = until_pongs(&mut fx.host, pongs).await;
    if reading == Reading::Ping {
        prop_assert_eq!(frames.len(), 0, "ping: {:?}", frames);
    }
    let what = describe(frame);
    let changed = match &reading {
        Reading::Refused(code) => {
            prop_assert_eq!(error_code(&frames), Some(*code), "{} → {:?}", what, frames);
            false
        }
        Reading::Hello(_) => {
            let got = error_code(&frames);
            prop_assert_eq!(
                got,
                Some("already_authenticated"),
                "{} → {:?}",
                what,
                frames
            );
            false
        }
        Reading::Ping => false,
        Reading::Sync => {
            prop_assert_eq!(frames.len(), 1, "{} → {:?}", what, frames);
            let s = frames.pop().unwrap();
            prop_assert_eq!(&s["t"], "sync");
            prop_assert_eq!(&s["room"], &fx.base["room"], "{}", what);
            prop_assert_eq!(&s["v"], &fx.base["v"], "{}", what);
            false
        }
        Reading::SetupNamingASquareTwice => {
            let code = error_code(&frames);
            prop_assert!(
                code.is_some_and(|c| CODES.contains(&c)),
                "{} → {:?}",
                what,
                frames
            );
            false
        }
        Reading::Request => match error_code(&frames) {
            Some(code) => {
                prop_assert!(CODES.contains(&code), "{} → unknown code {}", what, code);
                false
            }
            // An accepted no-op (a second `rematch`) answers nothing and changes nothing.
            None => !frames.is_empty(),
        },
    };
    if changed {
        // Accepted: the new state is the baseline from now on.
        drain(&mut fx.guest).await;
        fx.base = sync_of(&mut fx.host).await;
        return Ok(());
    }
    let to_guest = drain(&mut fx.guest).await;
    prop_assert!(
        to_guest.is_empty(),
        "{} sent {:?} to the opponent",
        what,
        to_guest
    );
    let after = sync_of(&mut fx.host).await;
    prop_assert_eq!(&after, &fx.base, "{} changed the room", what);
    Ok(())
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    })
}

/// Runs `cases` host frames against a room kept in `stage` (a new room whenever an accepted
/// frame moved it on to another phase).
fn fuzz_stage(stage: Stage, cases: u32) {
    let rt = runtime();
    let dir = tempdir::Dir::new("fuzz");
    let server = rt.block_on(start(config(&dir), None));
    let addr = server.addr;
    let fx = RefCell::new(rt.block_on(fixture(addr, stage, 1)));
    let result = runner(cases).run(&(any::<u64>(), recipe()), |(seed, recipe)| {
        rt.block_on(async {
            let mut fx = fx.borrow_mut();
            if fx.base["room"]["phase"] != stage.phase() {
                *fx = fixture(addr, stage, seed).await;
            }
            let frame = cook(&recipe, &templates(&fx, seed));
            host_case(&mut fx, &frame).await
        })
    });
    if let Err(e) = result {
        panic!("{stage:?}: {e}");
    }
}

#[test]
fn mangled_frames_while_arranging() {
    fuzz_stage(Stage::Arranging, 96);
}

#[test]
fn mangled_frames_while_playing() {
    fuzz_stage(Stage::Playing, 128);
}

#[test]
fn mangled_frames_after_the_end() {
    fuzz_stage(Stage::Finished, 64);
}

/// Before `hello`: every frame on a new connection to a seated room gets one error
/// (`not_authenticated` for a readable request, `bad_token` for a `hello` with a token of no
/// seat), the players hear nothing of it, and a `hello` with a real token works afterwards.
#[test]
fn mangled_frames_before_hello() {
    let rt = runtime();
    let dir = tempdir::Dir::new("fuzz-hello");
    let server = rt.block_on(start(config(&dir), None));
    let addr = server.addr;
    let fx = RefCell::new(rt.block_on(fixture(addr, Stage::Arranging, 2)));
    let room = fx.borrow().room.clone();
    let stranger = RefCell::new(rt.block_on(Client::connect(addr, &room)));
    let result = runner(96).run(&(any::<u64>(), recipe()), |(seed, recipe)| {
        rt.block_on(async {
            let mut fx = fx.borrow_mut();
            // Through the guard's target, so both seats can be borrowed at once.
            let fx = &mut *fx;
            let mut c = stranger.borrow_mut();
            let frame = cook(&recipe, &templates(fx, seed));
            let reading = read(&frame);
            if let Reading::Hello(token) = &reading
                && (*token == fx.host_token || *token == fx.guest_token)
            {
                // A real token takes its seat over from the player (tested elsewhere).
                return Ok(());
            }
            let what = describe(&frame);
            send(&mut c, &frame).await;
            c.send(json!({"t":"ping"})).await;
            let first = c.recv().await;
            let second = c.recv().await;
            let expected = match &reading {
                Reading::Refused(code) => *code,
                Reading::Hello(_) => "bad_token",
                _ => "not_authenticated",
            };
            prop_assert_eq!(&first["t"], "error", "{} → {}", what, first);
            prop_assert_eq!(&first["code"], expected, "{} → {}", what, first);
            // Still usable, and still not authenticated.
            prop_assert_eq!(&second["code"], "not_authenticated", "{}", second);
            for player in [&mut fx.host, &mut fx.guest] {
                let heard = drain(player).await;
                prop_assert!(heard.is_empty(), "{} reached a player: {:?}", what, heard);
            }
            let after = sync_of(&mut fx.host).await;
            prop_assert_eq!(&after, &fx.base, "{} changed the room", what);
            Ok(())
        })
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    rt.block_on(async {
        let mut c = stranger.borrow_mut();
        let token = fx.borrow().guest_token.clone();
        c.hello(&token, 0).await;
        let s = c.recv().await;
        assert_eq!(
            (s["t"].clone(), s["room"]["seat"].clone()),
            (json!("sync"), json!("guest"))
        );
    });
}

/// A frame over the socket's limit (64 KiB) closes the connection (1009, as documented), and
/// the room is as it was when the player comes back.
#[test]
fn a_frame_over_the_socket_limit_closes_the_connection_and_changes_nothing() {
    let rt = runtime();
    let dir = tempdir::Dir::new("fuzz-huge");
    let server = rt.block_on(start(config(&dir), None));
    rt.block_on(async {
        let mut fx = fixture(server.addr, Stage::Playing, 3).await;
        let room = fx.base["room"].clone();
        let huge = json!({"t":"ping","pad":"x".repeat(70 * 1024)}).to_string();
        let _ = fx.host.ws.send(Message::Text(huge.into())).await;
        assert!(fx.host.closed_within(Duration::from_secs(5)).await);
        let presence = fx.guest.until("presence").await;
        assert_eq!(presence["opponent"], "away");
        let mut back = Client::connect(server.addr, &fx.room).await;
        back.hello(&fx.host_token, 0).await;
        let s = back.recv().await;
        assert_eq!(s["t"], "sync", "{s}");
        assert_eq!(s["room"], room);
        assert_eq!(s["v"], fx.base["v"]);
    });
}
