//! Time-driven behaviour with a hand-moved clock: the CPU offer after the opponent has been away
//! for two minutes, and rooms vanishing 30 minutes after everyone left or 24 hours after creation.
#![allow(clippy::unwrap_used)]

mod rooms_support;

use std::sync::Arc;
use std::time::Duration;

use gunjin_server::rooms::{Clock, ManualClock, RoomsState};
use rooms_support::*;
use serde_json::json;

const START: u64 = 1_800_000_000_000;

fn clock() -> Arc<ManualClock> {
    Arc::new(ManualClock::new(START))
}

/// The next frame after a `ping` is its `pong`: nothing else was queued.
async fn nothing_pending(c: &mut Client) {
    c.send(json!({"t":"ping"})).await;
    let f = c.recv().await;
    assert_eq!(f["t"], "pong", "unexpected {f}");
}

#[tokio::test]
async fn the_cpu_offer_comes_after_two_minutes_away_and_closes_the_room() {
    let dir = tempdir::Dir::new("offer");
    let clock = clock();
    let server = start(test_config(&dir), Some(clock.clone() as Arc<dyn Clock>)).await;
    let (room, host_token, guest_token, mut host, mut guest) = seated_pair(server.addr).await;
    let mut rng = rng(4);
    arrange_both(&mut host, &mut guest, &mut rng).await;

    drop(guest);
    assert_eq!(host.until("presence").await["opponent"], "away");
    clock.advance(Duration::from_secs(119));
    server.state.sweep().await;
    nothing_pending(&mut host).await;
    host.send(json!({"t":"abandon"})).await;
    host.expect_error("not_offered").await;

    // The friend comes back in time, and leaves again: the two minutes start over.
    let mut guest = Client::connect(server.addr, &room).await;
    guest.hello(&guest_token, 0).await;
    guest.until("presence").await;
    assert_eq!(host.until("presence").await["opponent"], "connected");
    clock.advance(Duration::from_secs(300));
    server.state.sweep().await;
    nothing_pending(&mut host).await;
    drop(guest);
    host.until("presence").await;
    clock.advance(Duration::from_secs(100));
    server.state.sweep().await;
    nothing_pending(&mut host).await;
    clock.advance(Duration::from_secs(21));
    server.state.sweep().await;
    let offer = host.recv().await;
    assert_eq!(
        (offer["t"].as_str(), offer["away_s"].as_u64()),
        (Some("cpu_offer"), Some(121)),
        "{offer}: how long the friend has been away"
    );
    // Once only.
    server.state.sweep().await;
    nothing_pending(&mut host).await;

    // A refresh 25 minutes later shows the offer again, saying how long by now; the game waits
    // meanwhile.
    clock.advance(Duration::from_secs(25 * 60));
    let mut host = Client::connect(server.addr, &room).await;
    host.hello(&host_token, 0).await;
    let s = host.until("sync").await;
    assert_eq!(s["room"]["cpu_offer"], true);
    assert_eq!(
        s["room"]["cpu_offer_after_s"], 120,
        "the page says how long"
    );
    assert_eq!(s["room"]["phase"], "playing");
    assert_eq!(host.until("cpu_offer").await["away_s"], 121 + 25 * 60);

    host.send(json!({"t":"abandon"})).await;
    assert_eq!(host.until("closed").await["reason"], "abandoned");

    // The absent friend learns it on return; nothing more can be played.
    let mut guest = Client::connect(server.addr, &room).await;
    guest.hello(&guest_token, 0).await;
    let s = guest.until("sync").await;
    assert_eq!(
        (s["room"]["phase"].clone(), s["room"]["closed"].clone()),
        (json!("closed"), json!("abandoned"))
    );
    guest.until("presence").await;
    guest.send(json!({"t":"resign"})).await;
    guest.expect_error("room_closed").await;
    guest
        .send(json!({"t":"move","move":{"from":"a6","to":"a5"},"v":1}))
        .await;
    guest.expect_error("room_closed").await;
    let (status, body) = http(server.addr, "GET", &format!("/api/rooms/{room}"), None).await;
    assert_eq!((status, body["state"].clone()), (200, json!("closed")));
    let (status, body) = http(
        server.addr,
        "POST",
        &format!("/api/rooms/{room}/join"),
        None,
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (410, json!("room_closed"))
    );
}

#[tokio::test]
async fn a_friend_who_never_connects_also_triggers_the_offer() {
    let dir = tempdir::Dir::new("offer2");
    let clock = clock();
    let server = start(test_config(&dir), Some(clock.clone() as Arc<dyn Clock>)).await;
    let (room, host_token) = create(server.addr).await;
    let mut host = Client::connect(server.addr, &room).await;
    host.hello(&host_token, 0).await;
    host.until("presence").await;
    // Nobody has joined: no offer however long the host waits (the page offers the CPU itself).
    clock.advance(Duration::from_secs(600));
    server.state.sweep().await;
    nothing_pending(&mut host).await;
    // Joined over HTTP but never connected.
    join(server.addr, &room).await;
    host.until("joined").await;
    clock.advance(Duration::from_secs(121));
    server.state.sweep().await;
    assert_eq!(host.until("cpu_offer").await["t"], "cpu_offer");
}

#[tokio::test]
async fn rooms_vanish_30_minutes_after_everyone_left() {
    let dir = tempdir::Dir::new("idle");
    let clock = clock();
    let server = start(test_config(&dir), Some(clock.clone() as Arc<dyn Clock>)).await;
    let (room, token) = create(server.addr).await;
    let (kept, kept_token) = create(server.addr).await;
    let mut c = Client::connect(server.addr, &room).await;
    c.hello(&token, 0).await;
    c.until("presence").await;
    let mut stays = Client::connect(server.addr, &kept).await;
    stays.hello(&kept_token, 0).await;
    stays.until("presence").await;
    drop(c);
    // Let the server see the disconnection.
    tokio::time::sleep(Duration::from_millis(200)).await;
    clock.advance(Duration::from_secs(29 * 60));
    server.state.sweep().await;
    let (status, _) = http(server.addr, "GET", &format!("/api/rooms/{room}"), None).await;
    assert_eq!(status, 200);
    clock.advance(Duration::from_secs(2 * 60));
    server.state.sweep().await;
    let (status, body) = http(server.addr, "GET", &format!("/api/rooms/{room}"), None).await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (404, json!("no_room"))
    );
    let mut late = Client::connect(server.addr, &room).await;
    late.hello(&token, 0).await;
    late.expect_error("no_room").await;
    // The room with someone connected stays.
    nothing_pending(&mut stays).await;
    assert_eq!(server.state.live_rooms(), 1);
    assert_eq!(server.state.stored_rooms().await.unwrap(), 1);
}

#[tokio::test]
async fn rooms_vanish_24_hours_after_creation_even_in_use() {
    let dir = tempdir::Dir::new("age");
    let clock = clock();
    let server = start(test_config(&dir), Some(clock.clone() as Arc<dyn Clock>)).await;
    let (_, _, _, mut host, mut guest) = seated_pair(server.addr).await;
    clock.advance(Duration::from_secs(24 * 3600 - 1));
    server.state.sweep().await;
    nothing_pending(&mut host).await;
    clock.advance(Duration::from_secs(1));
    server.state.sweep().await;
    assert_eq!(host.until("closed").await["reason"], "expired");
    assert_eq!(guest.until("closed").await["reason"], "expired");
    assert!(host.closed_within(Duration::from_secs(5)).await);
    assert_eq!(server.state.live_rooms(), 0);
    assert_eq!(server.state.stored_rooms().await.unwrap(), 0);
}

#[tokio::test]
async fn stored_rooms_expire_without_being_loaded() {
    let dir = tempdir::Dir::new("stored");
    let clock = clock();
    let server = start(test_config(&dir), Some(clock.clone() as Arc<dyn Clock>)).await;
    let (room, _) = create(server.addr).await;
    // A second service on the same file, as after a restart: the room is only on disk.
    let later: RoomsState =
        RoomsState::open_with_clock(test_config_at(&dir), clock.clone() as Arc<dyn Clock>).unwrap();
    assert_eq!(later.live_rooms(), 0);
    assert_eq!(later.stored_rooms().await.unwrap(), 1);
    clock.advance(Duration::from_secs(31 * 60));
    later.sweep().await;
    assert_eq!(later.stored_rooms().await.unwrap(), 0);
    let _ = room;
}

fn test_config_at(dir: &tempdir::Dir) -> gunjin_server::rooms::RoomsConfig {
    test_config(dir)
}
