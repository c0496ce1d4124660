//! Helpers for the room tests: a server on a real socket (port 0), a tiny HTTP client, a
//! WebSocket client that records every frame, random games and the leak check.
#![allow(dead_code, clippy::unwrap_used, clippy::missing_panics_doc)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::serve::ListenerExt;
use futures_util::{SinkExt, StreamExt};
use gunjin::rand::{Rng, RngExt, SeedableRng, rngs::SmallRng};
use gunjin::{Deployment, Kind, Side};
use gunjin_server::rooms::{self, Clock, RoomsConfig, RoomsState};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

pub struct Server {
    pub addr: SocketAddr,
    pub state: RoomsState,
    pub task: tokio::task::JoinHandle<()>,
}

/// A config for tests: a fresh database in `dir`, no background ticks, a generous rate limit.
pub fn test_config(dir: &tempdir::Dir) -> RoomsConfig {
    let mut c = RoomsConfig::new(dir.path().join("rooms.sqlite3"));
    c.tick = None;
    c.rate_burst = 10_000;
    c.rate_per_sec = 10_000;
    c
}

pub async fn start(config: RoomsConfig, clock: Option<Arc<dyn Clock>>) -> Server {
    let state = match clock {
        Some(clock) => RoomsState::open_with_clock(config, clock).unwrap(),
        None => RoomsState::open(config).unwrap(),
    };
    start_with(state).await
}

pub async fn start_with(state: RoomsState) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = rooms::router(state.clone());
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let task = tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
        .unwrap();
    });
    Server { addr, state, task }
}

/// A minimal HTTP/1.1 request; returns the status and the JSON body.
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    origin: Option<&str>,
) -> (u16, Value) {
    let s = TcpStream::connect(addr).await.unwrap();
    http_on(s, addr, method, path, origin).await
}

/// [`http`] from the client address `from` (another loopback address, say 127.0.0.2).
pub async fn http_from(
    from: std::net::IpAddr,
    addr: SocketAddr,
    method: &str,
    path: &str,
) -> (u16, Value) {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    let s = socket.connect(addr).await.unwrap();
    http_on(s, addr, method, path, None).await
}

async fn http_on(
    mut s: TcpStream,
    addr: SocketAddr,
    method: &str,
    path: &str,
    origin: Option<&str>,
) -> (u16, Value) {
    let origin = origin
        .map(|o| format!("Origin: {o}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{origin}Content-Length: 0\r\nConnection: close\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8(buf).unwrap();
    let status: u16 = text[9..12].parse().unwrap();
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// The status line and headers of the answer to `method path`, lower-cased.
pub async fn http_head(addr: SocketAddr, method: &str, path: &str) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8_lossy(&buf).to_lowercase();
    text.split_once("\r\n\r\n")
        .map_or(text.clone(), |(head, _)| head.to_owned())
}

/// Creates a room; returns (room id, host token).
pub async fn create(addr: SocketAddr) -> (String, String) {
    let (status, body) = http(addr, "POST", "/api/rooms", None).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["seat"], "host");
    (
        body["room"].as_str().unwrap().to_owned(),
        body["token"].as_str().unwrap().to_owned(),
    )
}

/// Joins a room; returns the guest token.
pub async fn join(addr: SocketAddr, room: &str) -> String {
    let (status, body) = http(addr, "POST", &format!("/api/rooms/{room}/join"), None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["seat"], "guest");
    body["token"].as_str().unwrap().to_owned()
}

const VERSIONED: [&str; 8] = [
    "joined",
    "arranging",
    "ready",
    "started",
    "moved",
    "ended",
    "rematch",
    "closed",
];

/// A player's WebSocket: every received frame is kept and checked as it arrives.
pub struct Client {
    pub ws: Ws,
    pub frames: Vec<Value>,
    /// The latest version held.
    pub v: u64,
    /// This player's side in the current game, once known.
    pub side: Option<Side>,
    /// Whether the current game has ended (enemy kinds may then appear).
    pub over: bool,
    /// The legal moves from the latest event, if it is this player's turn.
    pub legal: Option<Vec<(String, String)>>,
    pub to_move: Option<Side>,
    /// Enemy-kind checks performed.
    pub checked: usize,
}

impl Client {
    pub async fn connect(addr: SocketAddr, room: &str) -> Client {
        Self::connect_with(addr, room, None).await.unwrap()
    }

    pub async fn connect_with(
        addr: SocketAddr,
        room: &str,
        origin: Option<&str>,
    ) -> Result<Client, tokio_tungstenite::tungstenite::Error> {
        let mut req = format!("ws://{addr}/ws/rooms/{room}")
            .into_client_request()
            .unwrap();
        if let Some(o) = origin {
            req.headers_mut().insert("origin", o.parse().unwrap());
        }
        let (ws, _) = tokio_tungstenite::connect_async_with_config(req, None, true).await?;
        Ok(Client {
            ws,
            frames: Vec::new(),
            v: 0,
            side: None,
            over: false,
            legal: None,
            to_move: None,
            checked: 0,
        })
    }

    pub async fn send(&mut self, msg: Value) {
        self.send_text(msg.to_string()).await;
    }

    pub async fn send_text(&mut self, text: String) {
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    pub async fn hello(&mut self, token: &str, since: u64) {
        self.send(json!({"t": "hello", "token": token, "since": since}))
            .await;
    }

    /// The next text frame, parsed and checked (versions, leaks); panics after 10 s.
    pub async fn recv(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(10), self.ws.next())
                .await
                .expect("no frame within 10 s")
                .expect("the connection ended")
                .expect("a WebSocket error");
            let text = match msg {
                Message::Text(t) => t.to_string(),
                Message::Close(_) => panic!("closed by the server"),
                _ => continue,
            };
            let frame: Value = serde_json::from_str(&text).expect("a frame that is not JSON");
            self.absorb(&frame);
            self.frames.push(frame.clone());
            return frame;
        }
    }

    /// Whether the server closes the connection within `wait` (text frames meanwhile are kept).
    pub async fn closed_within(&mut self, wait: Duration) -> bool {
        // One deadline for the whole wait: the server's pings would restart a wait per frame.
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            match tokio::time::timeout_at(deadline, self.ws.next()).await {
                Err(_) => return false,
                Ok(None | Some(Err(_)) | Some(Ok(Message::Close(_)))) => return true,
                Ok(Some(Ok(Message::Text(t)))) => {
                    let frame: Value = serde_json::from_str(&t).unwrap();
                    self.absorb(&frame);
                    self.frames.push(frame);
                }
                Ok(Some(Ok(_))) => {}
            }
        }
    }

    /// Receives until a frame of type `t` arrives; returns it.
    pub async fn until(&mut self, t: &str) -> Value {
        loop {
            let f = self.recv().await;
            if f["t"] == t {
                return f;
            }
        }
    }

    /// The next frame, which must be an error with `code`.
    pub async fn expect_error(&mut self, code: &str) -> Value {
        let f = self.recv().await;
        assert_eq!(f["t"], "error", "expected error {code}, got {f}");
        assert_eq!(f["code"], code, "{f}");
        f
    }

    fn absorb(&mut self, f: &Value) {
        let t = f["t"].as_str().unwrap_or_default();
        if VERSIONED.contains(&t) {
            let v = f["v"].as_u64().expect("a versioned event without v");
            assert_eq!(v, self.v + 1, "versions must be gapless: {f}");
            self.v = v;
        } else if t == "sync" {
            self.v = f["v"].as_u64().unwrap();
        }
        match t {
            "arranging" | "started" => {
                self.side = Some(parse_side(&f["side"]));
                self.over = false;
            }
            "sync" => {
                self.side = Some(parse_side(&f["room"]["side"]));
                self.over = matches!(f["room"]["phase"].as_str(), Some("finished" | "closed"));
            }
            _ => {}
        }
        if t == "ended" {
            self.over = true;
        }
        if matches!(t, "started" | "moved" | "sync") {
            self.legal = legal_of(f.get("legal").or_else(|| f["room"].get("legal")));
        }
        if t == "moved" {
            self.to_move = Some(parse_side(&f["to_move"]));
        }
        if t == "started" {
            self.to_move = Some(parse_side(&f["view"]["to_move"]));
        }
        if !self.over
            && t != "ended"
            && let Some(side) = self.side
        {
            check_no_enemy_kind(f, side);
            self.checked += 1;
        }
    }
}

fn legal_of(v: Option<&Value>) -> Option<Vec<(String, String)>> {
    let list = v?.as_array()?;
    Some(
        list.iter()
            .map(|m| {
                (
                    m[0].as_str().unwrap().to_owned(),
                    m[1].as_str().unwrap().to_owned(),
                )
            })
            .collect(),
    )
}

pub fn parse_side(v: &Value) -> Side {
    Side::from_id(v.as_str().expect("a side")).expect("a side id")
}

fn is_kind(s: &str) -> bool {
    Kind::ALL.iter().any(|k| k.id() == s)
}

/// Fails if `frame` shows the kind of any piece of the side that is not `me`.
///
/// Own kinds may appear only in a piece object `{"side": me, "kind": …}`, in `removed.own`,
/// and in the player's own set-up (`{"side": me, "pieces": {…}}`). Everything else is scanned:
/// no string anywhere (value or key) may be a kind id.
pub fn check_no_enemy_kind(frame: &Value, me: Side) {
    fn strip(v: &Value, me: Side) -> Value {
        match v {
            Value::Object(map) => {
                let mine = map.get("side").and_then(Value::as_str) == Some(me.id());
                // A set-up of mine: exactly {"side": me, "pieces": {square: kind}}.
                let my_setup = mine && map.len() == 2 && map.contains_key("pieces");
                let mut out = serde_json::Map::new();
                for (k, val) in map {
                    if (mine && k == "kind") || (my_setup && k == "pieces") {
                        continue;
                    }
                    if k == "own" {
                        continue;
                    }
                    out.insert(k.clone(), strip(val, me));
                }
                Value::Object(out)
            }
            Value::Array(a) => Value::Array(a.iter().map(|x| strip(x, me)).collect()),
            other => other.clone(),
        }
    }
    fn scan(v: &Value, frame: &Value) {
        match v {
            Value::String(s) => assert!(!is_kind(s), "enemy kind {s:?} leaked in {frame}"),
            Value::Object(map) => {
                for (k, val) in map {
                    assert!(!is_kind(k), "enemy kind {k:?} leaked in {frame}");
                    scan(val, frame);
                }
            }
            Value::Array(a) => a.iter().for_each(|x| scan(x, frame)),
            _ => {}
        }
    }
    // The `removed.own` list must sit under a view of mine.
    if let Some(view) = frame.get("view").or_else(|| frame["room"].get("view")) {
        assert_eq!(view["side"], me.id(), "a view of the wrong side: {frame}");
        assert!(
            view["removed"].get("enemy").is_none(),
            "enemy removals by kind: {frame}"
        );
    }
    if frame["t"] == "moved" {
        let mut keys: Vec<&str> = frame
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        let allowed: &[&[&str]] = &[
            &["legal", "ply", "status", "t", "to_move", "v"],
            &["ply", "status", "t", "to_move", "v"],
        ];
        assert!(
            allowed.contains(&keys.as_slice()),
            "moved with keys {keys:?}"
        );
    }
    scan(&strip(frame, me), frame);
}

/// A random legal deployment as the `arrange` payload.
pub fn setup_json(side: Side, seed: u64) -> Value {
    serde_json::to_value(Deployment::auto(side, seed).to_wire()).unwrap()
}

pub async fn arrange(c: &mut Client, seed: u64) {
    let side = c.side.expect("side known before arranging");
    c.send(json!({"t": "arrange", "setup": setup_json(side, seed)}))
        .await;
}

/// Plays random legal moves until the game ends; returns the `ended` frames (host, guest).
pub async fn play_out(host: &mut Client, guest: &mut Client, rng: &mut SmallRng) -> (Value, Value) {
    loop {
        let host_turn = host.to_move == host.side;
        let (mover, other) = if host_turn {
            (&mut *host, &mut *guest)
        } else {
            (&mut *guest, &mut *host)
        };
        let legal = mover
            .legal
            .clone()
            .expect("the side to move has legal moves");
        let (from, to) = legal[rng.random_range(0..legal.len())].clone();
        let v = mover.v;
        mover
            .send(json!({"t": "move", "move": {"from": from, "to": to}, "v": v}))
            .await;
        let a = mover.until("moved").await;
        let b = other.until("moved").await;
        assert_eq!(a["ply"], b["ply"]);
        assert_eq!(a["ply"]["from"], from.as_str());
        if a["status"]["state"] != "ongoing" {
            let ha = host.until("ended").await;
            let gb = guest.until("ended").await;
            return (ha, gb);
        }
    }
}

/// Both players arrange with random seeds and wait for `started`.
pub async fn arrange_both(host: &mut Client, guest: &mut Client, rng: &mut SmallRng) {
    arrange(host, rng.next_u64()).await;
    arrange(guest, rng.next_u64()).await;
    host.until("started").await;
    guest.until("started").await;
}

pub fn rng(seed: u64) -> SmallRng {
    SmallRng::seed_from_u64(seed)
}

/// A room with both players connected and in the arranging phase.
pub async fn seated_pair(addr: SocketAddr) -> (String, String, String, Client, Client) {
    let (room, host_token) = create(addr).await;
    let mut host = Client::connect(addr, &room).await;
    host.hello(&host_token, 0).await;
    host.until("presence").await;
    let guest_token = join(addr, &room).await;
    let mut guest = Client::connect(addr, &room).await;
    guest.hello(&guest_token, 0).await;
    guest.until("presence").await;
    host.until("joined").await;
    loop {
        let f = host.until("presence").await;
        if f["opponent"] == "connected" {
            break;
        }
    }
    (room, host_token, guest_token, host, guest)
}

/// A temporary directory removed on drop (no extra crate).
pub mod tempdir {
    use std::path::{Path, PathBuf};

    pub struct Dir(PathBuf);

    impl Dir {
        pub fn new(tag: &str) -> Dir {
            let mut bytes = [0u8; 8];
            getrandom::fill(&mut bytes).unwrap();
            let name = format!("gunjin-rooms-{tag}-{}", u64::from_le_bytes(bytes));
            let path = std::env::temp_dir().join(name);
            std::fs::create_dir_all(&path).unwrap();
            Dir(path)
        }

        pub fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}
