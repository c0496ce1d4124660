//! Two WebSocket clients over a real socket: whole games, rematches, reconnection, the leak
//! check over many random games, and every error code a client can provoke here.
#![allow(clippy::unwrap_used)]

mod rooms_support;

use std::time::Duration;

use futures_util::SinkExt;

use gunjin::Side;
use rooms_support::*;
use serde_json::{Value, json};

/// The host hears of a friend's arrival as `joined` (seated, not yet here), then `connected`:
/// never "away" first, which its page would show as a friend who left before arriving.
#[tokio::test]
async fn a_joining_friend_is_announced_as_joined_then_connected() {
    let dir = tempdir::Dir::new("join-order");
    let server = start(test_config(&dir), None).await;
    let (room, host_token) = create(server.addr).await;
    let mut host = Client::connect(server.addr, &room).await;
    host.hello(&host_token, 0).await;
    assert_eq!(host.until("presence").await["opponent"], "none");
    let guest_token = join(server.addr, &room).await;
    let mut guest = Client::connect(server.addr, &room).await;
    guest.hello(&guest_token, 0).await;
    let mut seen = Vec::new();
    loop {
        let f = host.recv().await;
        let t = f["t"].as_str().unwrap_or_default().to_owned();
        let what = if t == "presence" {
            format!("presence:{}", f["opponent"].as_str().unwrap_or_default())
        } else {
            t
        };
        let done = what == "presence:connected";
        seen.push(what);
        if done {
            break;
        }
    }
    assert_eq!(seen, ["joined", "presence:connected"]);
}

#[tokio::test]
async fn a_full_game_then_a_rematch_with_sides_swapped() {
    let dir = tempdir::Dir::new("full");
    let server = start(test_config(&dir), None).await;
    let (room, _, _, mut host, mut guest) = seated_pair(server.addr).await;
    assert_eq!(host.side, Some(Side::Sente));
    assert_eq!(guest.side, Some(Side::Gote));
    let mut rng = rng(1);

    arrange(&mut host, 11).await;
    let ready = host.until("ready").await;
    assert_eq!(
        (ready["who"].clone(), ready["ready"].clone()),
        (json!("you"), json!(true))
    );
    let ready = guest.until("ready").await;
    assert_eq!(ready["who"], "opponent");
    arrange(&mut guest, 12).await;
    let hs = host.until("started").await;
    let gs = guest.until("started").await;
    assert_eq!(hs["view"]["side"], "sente");
    assert!(
        hs["legal"].as_array().is_some_and(|l| !l.is_empty()),
        "sente moves first: {hs}"
    );
    assert!(gs.get("legal").is_none());
    // In the referee's order (§10): by from, then to, as square names.
    let names: Vec<(String, String)> = serde_json::from_value(hs["legal"].clone()).unwrap();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    // Each sees 46 pieces: own with kinds, enemy without.
    assert_eq!(gs["view"]["pieces"].as_object().unwrap().len(), 46);

    let (he, ge) = play_out(&mut host, &mut guest, &mut rng).await;
    assert_ne!(he["status"]["state"], "ongoing");
    assert_eq!(he["status"], ge["status"]);
    // The end reveals everything: every piece on the board carries a kind.
    for p in he["view"]["pieces"].as_object().unwrap().values() {
        assert!(p.get("kind").is_some(), "{p}");
    }
    assert!(host.checked > 20 && guest.checked > 20);
    // …and both set-ups, as each side arranged them, so the game can be replayed from the start.
    for ended in [&he, &ge] {
        assert_eq!(
            ended["setups"]["sente"]["pieces"],
            setup_json(Side::Sente, 11)
        );
        assert_eq!(
            ended["setups"]["gote"]["pieces"],
            setup_json(Side::Gote, 12)
        );
    }
    host.send(json!({"t":"sync"})).await;
    let synced = host.until("sync").await;
    assert_eq!(synced["room"]["setups"], he["setups"]);

    // A move after the end is refused; a rematch needs both.
    let v = host.v;
    host.send(json!({"t":"move","move":{"from":"a1","to":"a2"},"v":v}))
        .await;
    host.expect_error("not_playing").await;
    host.send(json!({"t":"rematch"})).await;
    assert_eq!(host.until("rematch").await["who"], "you");
    assert_eq!(guest.until("rematch").await["who"], "opponent");
    // Asking twice changes nothing and tells nobody anything.
    let seen = (host.frames.len(), guest.frames.len());
    host.send(json!({"t":"rematch"})).await;
    host.send(json!({"t":"sync"})).await;
    assert_eq!(
        host.recv().await["t"],
        "sync",
        "nothing before the sync's answer"
    );
    guest.send(json!({"t":"rematch"})).await;
    let ha = host.until("arranging").await;
    let ga = guest.until("arranging").await;
    let told = |c: &Client, from: usize| -> Vec<String> {
        c.frames[from..]
            .iter()
            .map(|f| f["t"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    assert_eq!(told(&host, seen.0), ["sync", "arranging"]);
    assert_eq!(told(&guest, seen.1), ["arranging"]);
    assert_eq!(
        (ha["game"].clone(), ha["side"].clone()),
        (json!(2), json!("gote"))
    );
    assert_eq!(ga["side"], "sente");
    arrange_both(&mut host, &mut guest, &mut rng).await;
    play_out(&mut host, &mut guest, &mut rng).await;

    // The room says it is full to a third visitor.
    let (status, body) = http(
        server.addr,
        "POST",
        &format!("/api/rooms/{room}/join"),
        None,
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (409, json!("room_full"))
    );
    let (status, body) = http(server.addr, "GET", &format!("/api/rooms/{room}"), None).await;
    assert_eq!((status, body["state"].clone()), (200, json!("full")));
}

#[tokio::test]
async fn the_rooms_answers_are_never_stored_by_a_cache() {
    let dir = tempdir::Dir::new("nostore");
    let server = start(test_config(&dir), None).await;
    // A seat's answer carries its token; the others are of the moment.
    for (method, path) in [
        ("POST", "/api/rooms".to_owned()),
        ("GET", "/api/rooms/AAAAAAAAAAAAAAAAAAAAAA".to_owned()),
        ("GET", "/api/nothing".to_owned()),
    ] {
        let head = http_head(server.addr, method, &path).await;
        assert!(
            head.contains("\r\ncache-control: no-store"),
            "{method} {path}: {head}"
        );
    }
}

#[tokio::test]
async fn resigning_ends_the_game_on_either_turn() {
    let dir = tempdir::Dir::new("resign");
    let server = start(test_config(&dir), None).await;
    let (_, _, _, mut host, mut guest) = seated_pair(server.addr).await;
    let mut rng = rng(2);
    arrange_both(&mut host, &mut guest, &mut rng).await;
    // Gote resigns while sente is to move.
    guest.send(json!({"t":"resign"})).await;
    let e = host.until("ended").await;
    assert_eq!(
        e["status"],
        json!({"state":"won","winner":"sente","reason":"resignation"})
    );
    guest.until("ended").await;
}

/// Four games (with rematches, so both seats play both sides) and a resync, every frame
/// checked; returns (games, frames checked).
async fn leak_room(addr: std::net::SocketAddr, seed: u64) -> (usize, usize) {
    let (_, _, _, mut host, mut guest) = seated_pair(addr).await;
    let mut rng = rng(seed);
    let mut games = 0;
    for game in 0..4 {
        if game > 0 {
            host.send(json!({"t":"rematch"})).await;
            guest.send(json!({"t":"rematch"})).await;
            host.until("arranging").await;
            guest.until("arranging").await;
        }
        arrange_both(&mut host, &mut guest, &mut rng).await;
        play_out(&mut host, &mut guest, &mut rng).await;
        games += 1;
    }
    // A resync mid-way through the next game is checked as well.
    host.send(json!({"t":"rematch"})).await;
    guest.send(json!({"t":"rematch"})).await;
    host.until("arranging").await;
    guest.until("arranging").await;
    arrange_both(&mut host, &mut guest, &mut rng).await;
    host.send(json!({"t":"sync"})).await;
    let s = host.until("sync").await;
    assert_eq!(s["room"]["phase"], "playing");
    guest.send(json!({"t":"sync"})).await;
    guest.until("sync").await;
    (games, host.checked + guest.checked)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_enemy_kind_in_any_frame_over_many_random_games() {
    let dir = tempdir::Dir::new("leak");
    let server = start(test_config(&dir), None).await;
    let rooms: Vec<_> = (0..3u64)
        .map(|i| tokio::spawn(leak_room(server.addr, 100 + i)))
        .collect();
    let (mut games, mut frames) = (0, 0);
    for r in rooms {
        let (g, f) = r.await.unwrap();
        games += g;
        frames += f;
    }
    assert_eq!(games, 12);
    assert!(frames > 500, "only {frames} frames checked");
}

#[tokio::test]
async fn the_leak_check_catches_an_enemy_kind() {
    let frame = json!({"t":"started","v":3,"game":1,"side":"gote","view":{"side":"gote",
        "pieces":{"a1":{"side":"sente","kind":"spy"}},"removed":{"own":[],"enemy_count":0}}});
    let caught = std::panic::catch_unwind(|| check_no_enemy_kind(&frame, Side::Gote));
    assert!(caught.is_err());
    let fine = json!({"t":"started","v":3,"game":1,"side":"gote","view":{"side":"gote",
        "pieces":{"a1":{"side":"sente"},"a8":{"side":"gote","kind":"spy"}},
        "removed":{"own":["tank"],"enemy_count":0}}});
    check_no_enemy_kind(&fine, Side::Gote);
}

#[tokio::test]
async fn reconnecting_replays_missed_events_or_resyncs() {
    let dir = tempdir::Dir::new("reconnect");
    let mut config = test_config(&dir);
    config.replay_window = 6;
    let server = start(config, None).await;
    let (room, host_token, guest_token, mut host, mut guest) = seated_pair(server.addr).await;
    let mut rng = rng(3);
    arrange_both(&mut host, &mut guest, &mut rng).await;

    // The guest's tab closes; sente moves; gote comes back with its last version.
    let since = guest.v;
    drop(guest);
    assert_eq!(host.until("presence").await["opponent"], "away");
    let legal = host.legal.clone().unwrap();
    let (from, to) = legal[0].clone();
    let v = host.v;
    host.send(json!({"t":"move","move":{"from":from,"to":to},"v":v}))
        .await;
    host.until("moved").await;

    let mut guest = Client::connect(server.addr, &room).await;
    guest.v = since;
    guest.side = Some(Side::Gote);
    guest.hello(&guest_token, since).await;
    let w = guest.recv().await;
    assert_eq!(w["t"], "welcome", "{w}");
    assert_eq!(w["seat"], "guest");
    assert_eq!(w["v"], since + 1);
    let m = guest.recv().await;
    assert_eq!(m["t"], "moved");
    assert_eq!(m["v"], since + 1);
    assert!(m.get("legal").is_some(), "gote is to move now");
    assert_eq!(guest.until("presence").await["opponent"], "connected");
    assert_eq!(host.until("presence").await["opponent"], "connected");

    // A stale version is refused and changes nothing.
    let legal = guest.legal.clone().unwrap();
    let (from, to) = legal[0].clone();
    let stale = guest.v - 1;
    guest
        .send(json!({"t":"move","move":{"from":from,"to":to},"v":stale}))
        .await;
    let e = guest.expect_error("stale_version").await;
    assert_eq!(e["details"]["v"], guest.v);

    // Far behind the replay window: a full sync instead.
    for _ in 0..4 {
        let (g, h) = (&mut guest, &mut host);
        let (from, to) = g.legal.clone().unwrap()[0].clone();
        let v = g.v;
        g.send(json!({"t":"move","move":{"from":from,"to":to},"v":v}))
            .await;
        g.until("moved").await;
        h.until("moved").await;
        let (from, to) = h.legal.clone().unwrap()[0].clone();
        let v = h.v;
        h.send(json!({"t":"move","move":{"from":from,"to":to},"v":v}))
            .await;
        h.until("moved").await;
        g.until("moved").await;
    }
    let host_frames = host.frames.len();
    let mut again = Client::connect(server.addr, &room).await;
    again.hello(&guest_token, since).await;
    let s = again.recv().await;
    assert_eq!(s["t"], "sync", "{s}");
    assert_eq!(s["v"], guest.v);
    assert_eq!(s["room"]["phase"], "playing");
    assert_eq!(s["room"]["view"]["history"].as_array().unwrap().len(), 9);
    // The older connection of the same seat is told why (so a second tab does not take the seat
    // back on its own), then closed.
    assert!(guest.closed_within(Duration::from_secs(5)).await);
    let last = guest.frames.last().unwrap();
    assert_eq!(
        (last["t"].as_str(), last["code"].as_str()),
        (Some("error"), Some("replaced")),
        "{last}"
    );
    // The opponent is not told of it: the seat was connected before and after.
    let (from, to) = again.legal.clone().unwrap()[0].clone();
    let v = again.v;
    again
        .send(json!({"t":"move","move":{"from":from,"to":to},"v":v}))
        .await;
    host.until("moved").await;
    let told: Vec<&Value> = host.frames[host_frames..]
        .iter()
        .filter(|f| f["t"] == "presence")
        .collect();
    assert!(told.is_empty(), "{told:?}");

    // A refresh of the host's page with no version: a sync.
    let mut host2 = Client::connect(server.addr, &room).await;
    host2.hello(&host_token, 0).await;
    let s = host2.recv().await;
    assert_eq!(
        (s["t"].clone(), s["room"]["seat"].clone()),
        (json!("sync"), json!("host"))
    );
}

#[tokio::test]
async fn every_error_code_and_the_connection_stays_usable() {
    let dir = tempdir::Dir::new("errors");
    let server = start(test_config(&dir), None).await;
    let addr = server.addr;
    let (room, host_token) = create(addr).await;
    let mut host = Client::connect(addr, &room).await;

    host.send_text("not json".into()).await;
    host.expect_error("bad_json").await;
    host.ws
        .send(tokio_tungstenite::tungstenite::Message::Binary(
            vec![1, 2].into(),
        ))
        .await
        .unwrap();
    host.expect_error("bad_json").await;
    host.send(json!({"t":"dance"})).await;
    host.expect_error("bad_request").await;
    host.send(json!({"t":"hello"})).await;
    host.expect_error("bad_request").await;
    host.send(json!({"t":"ping","extra":1})).await;
    host.expect_error("bad_request").await;
    host.send_text(format!(
        "{{\"t\":\"ping\",\"pad\":\"{}\"}}",
        "x".repeat(5000)
    ))
    .await;
    host.expect_error("too_large").await;
    host.send(json!({"t":"ping"})).await;
    host.expect_error("not_authenticated").await;
    host.hello("not-the-token", 0).await;
    host.expect_error("bad_token").await;
    host.hello(&host_token, 0).await;
    assert_eq!(host.recv().await["t"], "sync");
    assert_eq!(host.recv().await["opponent"], "none");
    host.hello(&host_token, 0).await;
    host.expect_error("already_authenticated").await;
    host.send(json!({"t":"ping"})).await;
    assert_eq!(host.recv().await["t"], "pong");

    // Wrong room: an unknown id, and a real room's token used on another room.
    let mut lost = Client::connect(addr, "AAAAAAAAAAAAAAAAAAAAAA").await;
    lost.hello(&host_token, 0).await;
    lost.expect_error("no_room").await;
    let mut bad_id = Client::connect(addr, "nope").await;
    bad_id.hello(&host_token, 0).await;
    bad_id.expect_error("no_room").await;
    let (other_room, _) = create(addr).await;
    let mut other = Client::connect(addr, &other_room).await;
    other.hello(&host_token, 0).await;
    other.expect_error("bad_token").await;
    let (status, body) = http(addr, "POST", "/api/rooms/AAAAAAAAAAAAAAAAAAAAAA/join", None).await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (404, json!("no_room"))
    );

    // Game-level refusals.
    host.send(json!({"t":"move","move":{"from":"a3","to":"a4"},"v":1}))
        .await;
    host.expect_error("not_playing").await;
    host.send(json!({"t":"resign"})).await;
    host.expect_error("not_playing").await;
    host.send(json!({"t":"rematch"})).await;
    host.expect_error("not_finished").await;
    host.send(json!({"t":"arrange","setup":{"a1":"general"}}))
        .await;
    let e = host.expect_error("invalid_setup").await;
    assert!(!e["details"]["violations"].as_array().unwrap().is_empty());
    // A gote set-up offered by sente.
    host.send(json!({"t":"arrange","setup":setup_json(Side::Gote, 1)}))
        .await;
    host.expect_error("invalid_setup").await;

    let guest_token = join(addr, &room).await;
    let mut guest = Client::connect(addr, &room).await;
    guest.hello(&guest_token, 0).await;
    guest.until("presence").await;
    while host.until("presence").await["opponent"] != "connected" {}
    // With both present there is no CPU offer to take.
    host.send(json!({"t":"abandon"})).await;
    host.expect_error("not_offered").await;
    guest.send(json!({"t":"abandon"})).await;
    guest.expect_error("not_offered").await;
    let mut rng = rng(9);
    arrange_both(&mut host, &mut guest, &mut rng).await;
    host.send(json!({"t":"arrange","setup":setup_json(Side::Sente, 2)}))
        .await;
    host.expect_error("not_arranging").await;
    host.send(json!({"t":"unarrange"})).await;
    host.expect_error("not_arranging").await;
    let v = guest.v;
    guest
        .send(json!({"t":"move","move":{"from":"a6","to":"a5"},"v":v}))
        .await;
    guest.expect_error("not_your_turn").await;
    let v = host.v;
    host.send(json!({"t":"move","move":{"from":"a1","to":"a5"},"v":v}))
        .await;
    host.expect_error("illegal_move").await;
    host.send(json!({"t":"move","move":{"from":"z9","to":"a5"},"v":v}))
        .await;
    host.expect_error("bad_request").await;
    // After all that, the game goes on.
    play_out(&mut host, &mut guest, &mut rng).await;
    // Over, the game is not said to have started.
    host.send(json!({"t":"arrange","setup":setup_json(Side::Sente, 2)}))
        .await;
    let e = host.expect_error("not_arranging").await;
    assert!(e["message"].as_str().unwrap().contains("over"), "{e}");
}

#[tokio::test]
async fn the_host_may_stop_waiting_for_a_friend_and_the_link_then_says_so() {
    let dir = tempdir::Dir::new("withdraw");
    let server = start(test_config(&dir), None).await;
    let addr = server.addr;
    let (room, host_token) = create(addr).await;
    let mut host = Client::connect(addr, &room).await;
    host.hello(&host_token, 0).await;
    host.until("presence").await;
    host.send(json!({"t":"abandon"})).await;
    assert_eq!(host.until("closed").await["reason"], "abandoned");

    let (status, body) = http(addr, "POST", &format!("/api/rooms/{room}/join"), None).await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (410, json!("room_closed"))
    );
    let (status, body) = http(addr, "GET", &format!("/api/rooms/{room}"), None).await;
    assert_eq!((status, body["state"].clone()), (200, json!("closed")));
    let mut host = Client::connect(addr, &room).await;
    host.hello(&host_token, 0).await;
    let s = host.until("sync").await;
    assert_eq!(
        (s["room"]["phase"].clone(), s["room"]["closed"].clone()),
        (json!("closed"), json!("abandoned"))
    );
}

#[tokio::test]
async fn unarrange_withdraws_and_the_game_waits_for_both() {
    let dir = tempdir::Dir::new("unarrange");
    let server = start(test_config(&dir), None).await;
    let (room, host_token) = create(server.addr).await;
    let mut host = Client::connect(server.addr, &room).await;
    host.hello(&host_token, 0).await;
    host.until("presence").await;
    // The host arranges before the friend comes.
    arrange(&mut host, 5).await;
    host.until("ready").await;
    host.send(json!({"t":"unarrange"})).await;
    assert_eq!(host.until("ready").await["ready"], false);
    arrange(&mut host, 6).await;
    host.until("ready").await;
    let guest_token = join(server.addr, &room).await;
    host.until("joined").await;
    let mut guest = Client::connect(server.addr, &room).await;
    guest.hello(&guest_token, 0).await;
    let s = guest.until("sync").await;
    assert_eq!(s["room"]["opponent_ready"], true);
    assert_eq!(s["room"]["you_ready"], false);
    arrange(&mut guest, 7).await;
    host.until("started").await;
    guest.until("started").await;
}

#[tokio::test]
async fn rate_limit_drops_messages_but_keeps_the_connection() {
    let dir = tempdir::Dir::new("rate");
    let mut config = test_config(&dir);
    config.rate_burst = 5;
    // Slow enough that only a stall of a second inside a burst sent at once lets a refill
    // through: the counts below hold on a loaded machine (an answer to each dropped message
    // had given sixteen rate_limited answers here).
    config.rate_per_sec = 1;
    let server = start(config, None).await;
    let (room, token) = create(server.addr).await;
    let mut c = Client::connect(server.addr, &room).await;
    c.hello(&token, 0).await;
    c.until("presence").await;
    // Everything the server sends for a burst, until it falls silent.
    let answers = |c: &Client, from: usize, t: &str, code: &str| {
        c.frames[from..]
            .iter()
            .filter(|f| f["t"] == t && (code.is_empty() || f["code"] == code))
            .count()
    };
    let from = c.frames.len();
    for _ in 0..20 {
        c.send(json!({"t":"ping"})).await;
    }
    assert!(!c.closed_within(Duration::from_millis(800)).await);
    let (pongs, limited) = (
        answers(&c, from, "pong", ""),
        answers(&c, from, "error", "rate_limited"),
    );
    // The burst is answered; of the run dropped after it, only the first message is (an answer
    // to each filled the connection's queue).
    assert!(
        (4..=7).contains(&pongs),
        "{pongs} pongs (the hello took one of the five)"
    );
    assert!((1..=2).contains(&limited), "{limited} rate_limited answers");
    tokio::time::sleep(Duration::from_millis(1200)).await;
    c.send(json!({"t":"ping"})).await;
    assert_eq!(c.until("pong").await["t"], "pong");

    // Binary frames count too: each would otherwise get its bad_json answer.
    tokio::time::sleep(Duration::from_millis(3000)).await;
    let from = c.frames.len();
    for _ in 0..20 {
        c.ws.send(tokio_tungstenite::tungstenite::Message::Binary(
            vec![1].into(),
        ))
        .await
        .unwrap();
    }
    assert!(!c.closed_within(Duration::from_millis(800)).await);
    let (bad, limited) = (
        answers(&c, from, "error", "bad_json"),
        answers(&c, from, "error", "rate_limited"),
    );
    assert!((3..=6).contains(&bad), "{bad} bad_json answers");
    assert!((1..=2).contains(&limited), "{limited} rate_limited answers");

    // A flood far past the queue's length: the connection stays, and answers once the rate falls.
    for _ in 0..3000 {
        c.send(json!({"t":"ping"})).await;
    }
    assert!(!c.closed_within(Duration::from_millis(800)).await);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    c.send(json!({"t":"ping"})).await;
    assert_eq!(c.until("pong").await["t"], "pong");
}

#[tokio::test]
async fn reconnecting_again_and_again_does_not_renew_a_seats_rate() {
    let dir = tempdir::Dir::new("rate-seat");
    let mut config = test_config(&dir);
    config.rate_burst = 5;
    config.rate_per_sec = 1;
    let server = start(config, None).await;
    let (room, token) = create(server.addr).await;
    // Connection after connection of the same seat, each saying hello and asking for the whole
    // room four times: a fresh allowance for each would answer all of them (25).
    let mut answered = 0;
    let mut limited = 0;
    for _ in 0..5 {
        let mut c = Client::connect(server.addr, &room).await;
        c.hello(&token, 0).await;
        for _ in 0..4 {
            c.send(json!({"t":"sync"})).await;
        }
        let _ = c.closed_within(Duration::from_millis(300)).await;
        answered += c.frames.iter().filter(|f| f["t"] == "sync").count();
        limited += c
            .frames
            .iter()
            .filter(|f| f["t"] == "error" && f["code"] == "rate_limited")
            .count();
    }
    // The seat's five, and a refill or two on a slow machine.
    assert!(answered <= 8, "{answered} syncs answered");
    assert!(limited >= 1, "the seat is told it is over its rate");
    // The rate falls, and the seat is answered again.
    tokio::time::sleep(Duration::from_millis(2200)).await;
    let mut c = Client::connect(server.addr, &room).await;
    c.hello(&token, 0).await;
    assert_eq!(c.until("sync").await["t"], "sync");
}

#[tokio::test]
async fn foreign_origins_are_refused() {
    let dir = tempdir::Dir::new("origin");
    let server = start(test_config(&dir), None).await;
    let (room, token) = create(server.addr).await;
    let err = Client::connect_with(server.addr, &room, Some("https://evil.example")).await;
    match err {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
            assert_eq!(resp.status().as_u16(), 403);
        }
        other => panic!("expected a 403, got {:?}", other.map(|_| ())),
    }
    let own = format!("http://{}", server.addr);
    let mut ok = Client::connect_with(server.addr, &room, Some(&own))
        .await
        .unwrap();
    ok.hello(&token, 0).await;
    assert_eq!(ok.recv().await["t"], "sync");
    // Every room route turns the foreign page away, before looking at the room.
    for (method, path) in [
        ("POST", "/api/rooms".to_owned()),
        ("GET", format!("/api/rooms/{room}")),
        ("POST", format!("/api/rooms/{room}/join")),
    ] {
        let (status, body) = http(server.addr, method, &path, Some("https://evil.example")).await;
        assert_eq!(
            (status, body["error"]["code"].clone()),
            (403, json!("forbidden_origin")),
            "{method} {path}"
        );
    }
    let (status, body) = http(
        server.addr,
        "GET",
        &format!("/api/rooms/{room}"),
        Some(&own),
    )
    .await;
    assert_eq!((status, body["state"].clone()), (200, json!("open")));
}

#[tokio::test]
async fn a_huge_frame_closes_only_that_connection() {
    let dir = tempdir::Dir::new("huge");
    let server = start(test_config(&dir), None).await;
    let (room, token) = create(server.addr).await;
    let mut c = Client::connect(server.addr, &room).await;
    c.send_text("x".repeat(100 * 1024)).await;
    assert!(c.closed_within(Duration::from_secs(5)).await);
    let mut c = Client::connect(server.addr, &room).await;
    c.hello(&token, 0).await;
    assert_eq!(c.recv().await["t"], "sync");
}

#[tokio::test]
async fn a_silent_connection_is_closed_after_the_hello_timeout() {
    let dir = tempdir::Dir::new("hello");
    let mut config = test_config(&dir);
    config.hello_timeout = Duration::from_millis(300);
    let server = start(config, None).await;
    let (room, _) = create(server.addr).await;
    let mut c = Client::connect(server.addr, &room).await;
    c.expect_error("not_authenticated").await;
    assert!(c.closed_within(Duration::from_secs(5)).await);
}

#[tokio::test]
async fn a_connection_that_goes_silent_is_dropped_and_its_seat_counts_as_away() {
    let dir = tempdir::Dir::new("silent");
    let mut config = test_config(&dir);
    config.ping_every = Duration::from_millis(100);
    config.silence_limit = Duration::from_millis(1500);
    let server = start(config, None).await;
    let (_room, _host_token, _guest_token, mut host, mut guest) = seated_pair(server.addr).await;
    let mut rng = rng(9);
    arrange_both(&mut host, &mut guest, &mut rng).await;

    // The guest's network dies without a close: its client reads nothing, so it answers none
    // of the server's pings. The host reads (and so answers them) without sending anything.
    // (No timing is asserted: this machine is too noisy for it.)
    assert_eq!(host.until("presence").await["opponent"], "away");
    // Kept: an idle player whose client answers the pings, twice the limit later.
    tokio::time::timeout(Duration::from_millis(3000), host.recv())
        .await
        .expect_err("nothing more for the host");
    host.send(json!({"t":"ping"})).await;
    assert_eq!(host.recv().await["t"], "pong");
    assert!(guest.closed_within(Duration::from_secs(5)).await);
}

#[tokio::test]
async fn room_creation_is_rate_limited_server_wide() {
    let dir = tempdir::Dir::new("creations");
    let mut config = test_config(&dir);
    config.creations_per_sec = 1;
    let server = start(config, None).await;
    // A burst of ten, then one a second: thirty quick tries meet a refusal.
    let mut refused = None;
    for i in 0..30 {
        let (status, body) = http(server.addr, "POST", "/api/rooms", None).await;
        if status != 201 {
            refused = Some((i, status, body["error"]["code"].clone()));
            break;
        }
    }
    let (i, status, code) = refused.expect("a refusal");
    assert!(i >= 10, "the burst allows ten");
    assert_eq!((status, code), (429, json!("rate_limited")));
}

#[tokio::test]
async fn one_address_cannot_spend_the_room_creations_of_everyone() {
    let dir = tempdir::Dir::new("creations-by-address");
    let mut config = test_config(&dir);
    config.creations_per_address_per_min = 3;
    config.exempt_loopback = false;
    let server = start(config, None).await;
    let one: std::net::IpAddr = "127.0.0.1".parse().unwrap();
    let other: std::net::IpAddr = "127.0.0.2".parse().unwrap();
    for _ in 0..3 {
        assert_eq!(
            http_from(one, server.addr, "POST", "/api/rooms").await.0,
            201
        );
    }
    let (status, body) = http_from(one, server.addr, "POST", "/api/rooms").await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (429, json!("rate_limited"))
    );
    // Another client still creates rooms.
    assert_eq!(
        http_from(other, server.addr, "POST", "/api/rooms").await.0,
        201
    );
}

#[tokio::test]
async fn many_addresses_of_one_network_cannot_spend_the_room_creations_of_everyone() {
    let dir = tempdir::Dir::new("creations-by-network");
    let mut config = test_config(&dir);
    config.creations_per_address_per_min = 2;
    config.exempt_loopback = false;
    let server = start(config, None).await;
    // One client going from address to address of one /24 (an IPv6 one from /64 to /64 of its
    // home's /56 alike; the test can only send from loopback): three clients' worth, then no more.
    let mut created = 0;
    for i in 1..=20u8 {
        let from = std::net::IpAddr::from([127, 0, 0, i]);
        if http_from(from, server.addr, "POST", "/api/rooms").await.0 == 201 {
            created += 1;
        }
    }
    assert_eq!(created, 6);
    // Everyone else still creates rooms.
    let other = std::net::IpAddr::from([127, 0, 1, 1]);
    assert_eq!(
        http_from(other, server.addr, "POST", "/api/rooms").await.0,
        201
    );
}

#[tokio::test]
async fn the_servers_own_accept_loop_tells_the_rooms_each_clients_address() {
    let dir = tempdir::Dir::new("creations-served");
    let mut config = test_config(&dir);
    config.creations_per_address_per_min = 1;
    config.exempt_loopback = false;
    let state: gunjin_server::rooms::RoomsState =
        gunjin_server::rooms::RoomsState::open(config).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = gunjin_server::rooms::router(state);
    let serving = tokio::spawn(gunjin_server::serve::serve(
        listener,
        app,
        Duration::from_secs(10),
        std::future::pending(),
    ));
    let one: std::net::IpAddr = "127.0.0.1".parse().unwrap();
    let other: std::net::IpAddr = "127.0.0.2".parse().unwrap();
    assert_eq!(http_from(one, addr, "POST", "/api/rooms").await.0, 201);
    assert_eq!(http_from(one, addr, "POST", "/api/rooms").await.0, 429);
    assert_eq!(http_from(other, addr, "POST", "/api/rooms").await.0, 201);
    serving.abort();
}

#[tokio::test]
async fn one_address_asking_for_missing_rooms_is_refused_before_the_database() {
    let dir = tempdir::Dir::new("lookup-misses");
    let mut config = test_config(&dir);
    config.lookup_misses_per_address_per_min = 3;
    config.exempt_loopback = false;
    let server = start(config, None).await;
    let addr = server.addr;
    let (room, host_token) = create(addr).await;
    let missing = format!("/api/rooms/{}", "A".repeat(22));
    let one: std::net::IpAddr = "127.0.0.1".parse().unwrap();
    let other: std::net::IpAddr = "127.0.0.2".parse().unwrap();
    for path in [missing.clone(), format!("{missing}/join"), missing.clone()] {
        let method = if path.ends_with("/join") {
            "POST"
        } else {
            "GET"
        };
        let (status, body) = http_from(one, addr, method, &path).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (404, Some("no_room"))
        );
    }
    let loads = || {
        server
            .state
            .store_stats()
            .loads
            .load(std::sync::atomic::Ordering::Relaxed)
    };
    let looked_up = loads();
    let (status, body) = http_from(one, addr, "GET", &missing).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (429, Some("rate_limited"))
    );
    assert_eq!(loads(), looked_up, "refused before the database was asked");
    let head = http_head(addr, "GET", &missing).await;
    assert!(head.starts_with("http/1.1 429"), "{head}");
    assert!(head.contains("retry-after: 20"), "{head}");
    // The same client's socket is refused too, before any lookup.
    let mut c = Client::connect(addr, &"A".repeat(22)).await;
    c.hello("x".repeat(43).as_str(), 0).await;
    c.expect_error("rate_limited").await;
    // A live room still answers that client, and other clients still learn a room is missing.
    let (status, body) = http_from(one, addr, "GET", &format!("/api/rooms/{room}")).await;
    assert_eq!((status, body["state"].as_str()), (200, Some("open")));
    let mut host = Client::connect(addr, &room).await;
    host.hello(&host_token, 0).await;
    host.until("presence").await;
    let (status, body) = http_from(other, addr, "GET", &missing).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (404, Some("no_room"))
    );
}

#[tokio::test]
async fn lookups_of_missing_rooms_sent_all_at_once_meet_the_limit_too() {
    let dir = tempdir::Dir::new("lookup-burst");
    let mut config = test_config(&dir);
    config.lookup_misses_per_address_per_min = 3;
    config.exempt_loopback = false;
    let server = start(config, None).await;
    let one: std::net::IpAddr = "127.0.0.1".parse().unwrap();
    let missing = format!("/api/rooms/{}", "B".repeat(22));
    let asked = (0..20).map(|_| http_from(one, server.addr, "GET", &missing));
    let answers = futures_util::future::join_all(asked).await;
    let found_missing = answers.iter().filter(|(status, _)| *status == 404).count();
    let refused = answers.iter().filter(|(status, _)| *status == 429).count();
    assert_eq!((found_missing, refused), (3, 17));
}

#[tokio::test]
async fn loopback_clients_share_only_the_server_wide_limit_by_default() {
    let dir = tempdir::Dir::new("creations-loopback");
    let mut config = test_config(&dir);
    config.creations_per_address_per_min = 3;
    let server = start(config, None).await;
    for _ in 0..10 {
        assert_eq!(http(server.addr, "POST", "/api/rooms", None).await.0, 201);
    }
}

#[tokio::test]
async fn the_api_answers_json_for_a_wrong_method_or_path() {
    let dir = tempdir::Dir::new("api-json");
    let server = start(test_config(&dir), None).await;
    let addr = server.addr;
    let (room, _) = create(addr).await;
    for (method, path, status, code) in [
        ("GET", "/api/rooms".to_owned(), 405, "method_not_allowed"),
        (
            "DELETE",
            format!("/api/rooms/{room}"),
            405,
            "method_not_allowed",
        ),
        (
            "GET",
            format!("/api/rooms/{room}/join"),
            405,
            "method_not_allowed",
        ),
        ("GET", "/api/rooms/".to_owned(), 404, "not_found"),
        ("GET", format!("/api/rooms/{room}/x"), 404, "not_found"),
        ("POST", "/api/nothing".to_owned(), 404, "not_found"),
        ("GET", "/api".to_owned(), 404, "not_found"),
        ("GET", "/api/".to_owned(), 404, "not_found"),
    ] {
        let (got, body) = http(addr, method, &path, None).await;
        assert_eq!(
            (got, body["error"]["code"].as_str()),
            (status, Some(code)),
            "{method} {path}: {body}"
        );
    }
    // The room is untouched and the real endpoints still answer.
    let (status, body) = http(addr, "GET", &format!("/api/rooms/{room}"), None).await;
    assert_eq!((status, body["state"].clone()), (200, json!("open")));
}

#[tokio::test]
async fn withdrawing_a_set_up_never_confirmed_tells_nobody_anything() {
    let dir = tempdir::Dir::new("unarrange");
    let server = start(test_config(&dir), None).await;
    let (_, _, _, mut host, mut guest) = seated_pair(server.addr).await;
    let v = (host.v, guest.v);
    host.send(json!({"t":"unarrange"})).await;
    host.send(json!({"t":"ping"})).await;
    assert_eq!(host.recv().await["t"], "pong", "no event for the host");
    guest.send(json!({"t":"ping"})).await;
    assert_eq!(
        guest.recv().await["t"],
        "pong",
        "no \"withdrew\" for the friend"
    );
    assert_eq!((host.v, guest.v), v);
    // A confirmed one is withdrawn as before: both are told.
    arrange(&mut host, 3).await;
    guest.until("ready").await;
    host.send(json!({"t":"unarrange"})).await;
    let told = guest.until("ready").await;
    assert_eq!(
        (told["who"].clone(), told["ready"].clone()),
        (json!("opponent"), json!(false))
    );
}
