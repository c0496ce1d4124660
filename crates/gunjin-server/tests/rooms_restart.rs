//! kill -9 of a real server process mid-arrangement and mid-game: restarted on the same SQLite
//! file, both players reconnect and finish. The server process is this test binary run again
//! as `child_server` (an ignored test that serves until killed).
#![allow(clippy::unwrap_used)]

mod rooms_support;

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use gunjin::Side;
use gunjin_server::rooms::{self, RoomsConfig, RoomsState};
use rooms_support::*;
use serde_json::json;

const DB_VAR: &str = "GUNJIN_ROOMS_CHILD_DB";
const ADDR_VAR: &str = "GUNJIN_ROOMS_CHILD_ADDR";

/// Not a test: the server process for the restart test (runs only when started by it).
#[test]
#[ignore = "the restart test starts it as a server process"]
fn child_server() {
    let Ok(db) = std::env::var(DB_VAR) else {
        return;
    };
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async move {
        let mut config = RoomsConfig::new(db);
        config.rate_burst = 10_000;
        config.rate_per_sec = 10_000;
        let state: RoomsState = RoomsState::open(config).unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let file = std::env::var(ADDR_VAR).unwrap();
        std::fs::write(format!("{file}.tmp"), addr).unwrap();
        std::fs::rename(format!("{file}.tmp"), file).unwrap();
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(listener, rooms::router(state)).await.unwrap();
    });
}

fn spawn_server(db: &Path) -> (Child, SocketAddr) {
    let addr_file = db.with_extension("addr");
    let _ = std::fs::remove_file(&addr_file);
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["child_server", "--exact", "--ignored", "--test-threads=1"])
        .env(DB_VAR, db)
        .env(ADDR_VAR, &addr_file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    for _ in 0..600 {
        if let Ok(text) = std::fs::read_to_string(&addr_file) {
            return (child, text.parse().unwrap());
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("the server process did not start");
}

fn kill_9(mut child: Child) {
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
}

async fn reconnect(addr: SocketAddr, room: &str, token: &str, old: &Client) -> Client {
    let mut c = Client::connect(addr, room).await;
    c.v = old.v;
    c.hello(token, old.v).await;
    let w = c.until("welcome").await;
    assert_eq!(w["v"], old.v, "the version survives the restart");
    c.side = old.side;
    c.legal.clone_from(&old.legal);
    c.to_move = old.to_move;
    c.until("presence").await;
    c
}

#[tokio::test]
async fn kill_9_mid_game_then_both_resume_and_finish() {
    let dir = tempdir::Dir::new("restart");
    let db = dir.path().join("rooms.sqlite3");
    let (child, addr) = spawn_server(&db);
    let (room, host_token, guest_token, mut host, mut guest) = seated_pair(addr).await;
    let mut rng = rng(77);

    // The host confirms a set-up, then the server dies.
    arrange(&mut host, 1).await;
    host.until("ready").await;
    guest.until("ready").await;
    kill_9(child);

    let (child, addr) = spawn_server(&db);
    let mut host = reconnect(addr, &room, &host_token, &host).await;
    let mut guest = reconnect(addr, &room, &guest_token, &guest).await;
    guest.send(json!({"t":"sync"})).await;
    let s = guest.until("sync").await;
    assert_eq!(
        s["room"]["opponent_ready"], true,
        "the host's confirmation survived"
    );
    arrange(&mut guest, 2).await;
    host.until("started").await;
    guest.until("started").await;

    // Twelve plies, then the server dies again.
    for _ in 0..12 {
        let host_turn = host.to_move == host.side;
        let (mover, other) = if host_turn {
            (&mut host, &mut guest)
        } else {
            (&mut guest, &mut host)
        };
        let legal = mover.legal.clone().unwrap();
        let (from, to) = legal[0].clone();
        let v = mover.v;
        mover
            .send(json!({"t":"move","move":{"from":from,"to":to},"v":v}))
            .await;
        let m = mover.until("moved").await;
        other.until("moved").await;
        assert_eq!(m["status"]["state"], "ongoing");
    }
    host.send(json!({"t":"sync"})).await;
    let before = host.until("sync").await;
    kill_9(child);

    let (child, addr) = spawn_server(&db);
    let mut host = reconnect(addr, &room, &host_token, &host).await;
    let mut guest = reconnect(addr, &room, &guest_token, &guest).await;
    host.send(json!({"t":"sync"})).await;
    let after = host.until("sync").await;
    assert_eq!(
        before["room"]["view"], after["room"]["view"],
        "the same position after the restart"
    );
    assert_eq!(
        after["room"]["view"]["history"].as_array().unwrap().len(),
        12
    );
    assert_eq!(host.side, Some(Side::Sente));
    play_out(&mut host, &mut guest, &mut rng).await;
    kill_9(child);
}
