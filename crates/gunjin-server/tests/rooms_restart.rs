//! kill -9 of the real `gunjin-server` process mid-arrangement and mid-game: restarted on the
//! same SQLite file, both players reconnect and finish.
#![allow(clippy::unwrap_used)]

mod rooms_support;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use gunjin::Side;
use rooms_support::*;
use serde_json::json;

fn spawn_server(db: &Path) -> (Child, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gunjin-server"))
        .args(["--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    let addr = lines.find_map(|line| {
        let line = line.ok()?;
        let rest = line.strip_prefix("listening on http://")?;
        rest.trim_end_matches('/').parse().ok()
    });
    // Keep draining so the server never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    match addr {
        Some(addr) => (child, addr),
        None => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the server process did not start");
        }
    }
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

/// The seats' tokens of a room.
struct Seats {
    room: String,
    host: String,
    guest: String,
    /// The server the game started on.
    addr: SocketAddr,
}

/// A server on `db` again, and both players back in their seats on it.
async fn restart(
    db: &Path,
    seats: &Seats,
    host: &Client,
    guest: &Client,
) -> (Child, Client, Client) {
    let (child, addr) = spawn_server(db);
    let host = reconnect(addr, &seats.room, &seats.host, host).await;
    let guest = reconnect(addr, &seats.room, &seats.guest, guest).await;
    (child, host, guest)
}

/// A new server on `db` with a game started in a new room.
async fn game_started(db: &Path) -> (Child, Seats, Client, Client) {
    let (child, addr) = spawn_server(db);
    let (room, host_token, guest_token, mut host, mut guest) = seated_pair(addr).await;
    arrange(&mut host, 1).await;
    arrange(&mut guest, 2).await;
    host.until("started").await;
    guest.until("started").await;
    let seats = Seats {
        room,
        host: host_token,
        guest: guest_token,
        addr,
    };
    (child, seats, host, guest)
}

#[tokio::test]
async fn kill_9_mid_game_then_both_resume_and_finish() {
    let dir = tempdir::Dir::new("restart");
    let db = dir.path().join("rooms.sqlite3");
    let (child, addr) = spawn_server(&db);
    let (room, host_token, guest_token, mut host, mut guest) = seated_pair(addr).await;

    // The host confirms a set-up, then the server dies.
    arrange(&mut host, 1).await;
    host.until("ready").await;
    guest.until("ready").await;
    kill_9(child);
    // The database keeps digests of the seat tokens, never the tokens.
    let stored: Vec<u8> = ["rooms.sqlite3", "rooms.sqlite3-wal"]
        .iter()
        .filter_map(|f| std::fs::read(dir.path().join(f)).ok())
        .flatten()
        .collect();
    let holds = |needle: &str| stored.windows(needle.len()).any(|w| w == needle.as_bytes());
    assert!(holds("sha256:"), "the seats are stored");
    assert!(
        !holds(&host_token) && !holds(&guest_token),
        "a token reached the database"
    );

    let seats = Seats {
        room,
        host: host_token,
        guest: guest_token,
        addr,
    };
    let (child, mut host, mut guest) = restart(&db, &seats, &host, &guest).await;
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
    plies(&mut host, &mut guest, 12).await;
    host.send(json!({"t":"sync"})).await;
    let before = host.until("sync").await;
    kill_9(child);

    let (child, mut host, mut guest) = restart(&db, &seats, &host, &guest).await;
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
    // The game goes on and ends (the real server's rate limit allows a short burst only, so the
    // game ends by resignation after a few more plies).
    plies(&mut host, &mut guest, 6).await;
    guest.send(json!({"t":"resign"})).await;
    let (he, ge) = (host.until("ended").await, guest.until("ended").await);
    assert_eq!(
        he["status"],
        json!({"state":"won","winner":"sente","reason":"resignation"})
    );
    assert_eq!(he["view"]["history"].as_array().unwrap().len(), 18);
    assert_eq!(ge["status"], he["status"]);
    kill_9(child);
}

/// Plays `n` plies (the first legal move each time), checking both players see each.
async fn plies(host: &mut Client, guest: &mut Client, n: usize) {
    for _ in 0..n {
        let host_turn = host.to_move == host.side;
        let (mover, other) = if host_turn {
            (&mut *host, &mut *guest)
        } else {
            (&mut *guest, &mut *host)
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
}

#[tokio::test]
async fn a_move_the_store_could_not_take_is_told_to_nobody_and_the_room_goes_on_as_stored() {
    let dir = tempdir::Dir::new("locked");
    let db = dir.path().join("rooms.sqlite3");
    let (child, seats, mut host, mut guest) = game_started(&db).await;
    plies(&mut host, &mut guest, 1).await;

    // Another program holds the database's write lock past the server's 5 s patience: the move
    // cannot be stored, so nobody is told it (a battle's outcome seen and then lost in a crash
    // would let its mover play again knowing it); both connections close instead.
    let lock = rusqlite::Connection::open(&db).unwrap();
    lock.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let (mover, other) = if host.to_move == host.side {
        (&mut host, &mut guest)
    } else {
        (&mut guest, &mut host)
    };
    let (from, to) = mover.legal.clone().unwrap()[0].clone();
    let v = mover.v;
    let seen = (mover.frames.len(), other.frames.len());
    mover
        .send(json!({"t":"move","move":{"from":from,"to":to},"v":v}))
        .await;
    let wait = std::time::Duration::from_secs(20);
    assert!(
        mover.closed_within(wait).await,
        "the mover's connection closes"
    );
    assert!(
        other.closed_within(wait).await,
        "the other's connection closes"
    );
    for frame in mover.frames[seen.0..].iter().chain(&other.frames[seen.1..]) {
        assert_ne!(frame["t"], "moved", "a move not stored was told: {frame}");
    }
    lock.execute_batch("COMMIT").unwrap();
    drop(lock);

    // Back on the same server, the room is as stored: one ply, the same player to move.
    let mut host = reconnect(seats.addr, &seats.room, &seats.host, &host).await;
    let mut guest = reconnect(seats.addr, &seats.room, &seats.guest, &guest).await;
    host.send(json!({"t":"sync"})).await;
    let sync = host.until("sync").await;
    assert_eq!(sync["room"]["view"]["history"].as_array().unwrap().len(), 1);
    // And it goes on: the move played again is stored, and survives a kill.
    plies(&mut host, &mut guest, 1).await;
    host.send(json!({"t":"sync"})).await;
    let before = host.until("sync").await;
    kill_9(child);
    let (child, mut host, _guest) = restart(&db, &seats, &host, &guest).await;
    host.send(json!({"t":"sync"})).await;
    let after = host.until("sync").await;
    assert_eq!(
        after["room"]["view"]["history"].as_array().unwrap().len(),
        2
    );
    assert_eq!(before["room"]["view"], after["room"]["view"]);
    kill_9(child);
}

/// The frame that ends a connection: its close code, or `None` if it ended without one.
async fn close_code(client: &mut Client) -> Option<u16> {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    loop {
        let next = tokio::time::timeout(std::time::Duration::from_secs(10), client.ws.next())
            .await
            .expect("the connection stayed open");
        match next {
            Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
            Some(Ok(_)) => {}
            None | Some(Err(_)) => return None,
        }
    }
}

#[cfg(unix)]
#[tokio::test]
async fn sigterm_closes_the_sockets_as_going_away_and_the_game_resumes_on_the_next_server() {
    let dir = tempdir::Dir::new("sigterm");
    let db = dir.path().join("rooms.sqlite3");
    let (mut child, seats, mut host, mut guest) = game_started(&db).await;
    plies(&mut host, &mut guest, 4).await;
    // A client that sent half a request and then nothing: it must not hold the stop.
    let mut stalled = tokio::net::TcpStream::connect(seats.addr).await.unwrap();
    tokio::io::AsyncWriteExt::write_all(&mut stalled, b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();

    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    // Both pages are told the server is going away (1001), not cut off.
    assert_eq!(close_code(&mut host).await, Some(1001));
    assert_eq!(close_code(&mut guest).await, Some(1001));
    // …and the process ends by itself, cleanly, soon after.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the server did not stop"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert!(status.success(), "{status}");

    let (child, mut host, mut guest) = restart(&db, &seats, &host, &guest).await;
    host.send(json!({"t":"sync"})).await;
    let after = host.until("sync").await;
    assert_eq!(
        after["room"]["view"]["history"].as_array().unwrap().len(),
        4
    );
    plies(&mut host, &mut guest, 1).await;
    kill_9(child);
}
