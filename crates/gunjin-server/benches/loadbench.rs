//! Load benchmark of the online rooms (a command, not a timed test).
//!
//! Starts the rooms service in a child process (this binary with `serve`), then simulates N
//! rooms over loopback: each room is created and joined over HTTP, both players connect by
//! WebSocket, arrange random set-ups and play random legal moves with a think time between
//! plies, rematching when a game ends. Reports sustained rooms, the move round trip (send →
//! the mover's own `moved` event) p50/p99, moves per second, and server memory per room.
//!
//! ```text
//! ulimit -n 20000
//! cargo bench -p gunjin-server --bench loadbench -- --rooms 5000 --secs 30 --think-ms 1000
//! ```
//!
//! Options: `--rooms N` (default 500), `--secs S` measuring window after ramp-up (20),
//! `--think-ms T` mean pause before each ply (1000), `--ramp-concurrency C` (64),
//! `--server HOST:PORT` to load a server started elsewhere (then memory is not measured),
//! `--db-dir DIR` where the server's SQLite file goes (default: the temp dir), `--no-tick` to run
//! the server without its 5-second sweeper.
#![allow(clippy::unwrap_used, clippy::print_stdout)]

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use gunjin::rand::{Rng, RngExt, SeedableRng, rngs::SmallRng};
use gunjin::{Deployment, Side};
use gunjin_server::rooms::{self, RoomsConfig, RoomsState};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

struct Opts {
    rooms: usize,
    secs: u64,
    think_ms: u64,
    ramp: usize,
    server: Option<SocketAddr>,
    db_dir: Option<std::path::PathBuf>,
    no_tick: bool,
}

fn parse_opts(args: &[String]) -> Opts {
    let mut o = Opts {
        rooms: 500,
        secs: 20,
        think_ms: 1000,
        ramp: 64,
        server: None,
        db_dir: None,
        no_tick: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().expect("a value after the option").clone();
        match a.as_str() {
            "--rooms" => o.rooms = val().parse().unwrap(),
            "--secs" => o.secs = val().parse().unwrap(),
            "--think-ms" => o.think_ms = val().parse().unwrap(),
            "--ramp-concurrency" => o.ramp = val().parse().unwrap(),
            "--server" => o.server = Some(val().parse().unwrap()),
            "--db-dir" => o.db_dir = Some(val().into()),
            "--no-tick" => o.no_tick = true,
            "--bench" => {}
            other => panic!("unknown option {other}"),
        }
    }
    o
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("serve") {
        serve(&args[1], args.get(2).map(String::as_str) == Some("no-tick"));
        return;
    }
    let opts = parse_opts(&args);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(run(opts));
}

/// The server side: the rooms router alone, on a free port, printed on stdout.
fn serve(db: &str, no_tick: bool) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut config = RoomsConfig::new(db);
        config.creations_per_sec = 100_000;
        if no_tick {
            config.tick = None;
        }
        let state: RoomsState = RoomsState::open(config).unwrap();
        let watched = state.clone();
        tokio::spawn(async move {
            let mut last = (0, 0, 0);
            loop {
                tokio::time::sleep(Duration::from_secs(10)).await;
                let s = watched.store_stats();
                let now = (
                    s.commits.load(Ordering::Relaxed),
                    s.writes.load(Ordering::Relaxed),
                    s.commit_us.load(Ordering::Relaxed),
                );
                let commits = (now.0 - last.0).max(1);
                eprintln!(
                    "server store, last 10 s: {} commits, {} writes, {:.2} ms mean commit, {:.1} ms longest so far",
                    now.0 - last.0,
                    now.1 - last.1,
                    (now.2 - last.2) as f64 / commits as f64 / 1000.0,
                    s.max_commit_us.load(Ordering::Relaxed) as f64 / 1000.0
                );
                last = now;
            }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        println!("LISTENING {}", listener.local_addr().unwrap());
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(listener, rooms::router(state)).await.unwrap();
    });
}

fn rss_kb(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// (steal, total) jiffies of the whole machine: time the hypervisor gave to others.
fn steal_total() -> Option<(u64, u64)> {
    let s = std::fs::read_to_string("/proc/stat").ok()?;
    let line = s.lines().next()?;
    let v: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .filter_map(|x| x.parse().ok())
        .collect();
    Some((*v.get(7)?, v.iter().take(8).sum()))
}

/// User + system CPU time of a process, in clock ticks (100 per second here).
fn cpu_ticks(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = s.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
}

async fn spawn_server(db: &std::path::Path, no_tick: bool) -> (Child, SocketAddr) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .arg("serve")
        .arg(db)
        .args(no_tick.then_some("no-tick"))
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let addr = tokio::task::spawn_blocking(move || {
        use std::io::BufRead;
        let mut lines = std::io::BufReader::new(stdout).lines();
        let addr = lines.find_map(|l| l.ok()?.strip_prefix("LISTENING ")?.parse().ok());
        // Keep draining so the server never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        addr
    })
    .await
    .unwrap();
    match addr {
        Some(addr) => (child, addr),
        None => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the server did not start");
        }
    }
}

async fn http(addr: SocketAddr, method: &str, path: &str) -> Result<Value, String> {
    let mut s = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    s.write_all(req.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&buf);
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    serde_json::from_str(body).map_err(|e| format!("{e}: {text}"))
}

struct Player {
    ws: Ws,
    v: u64,
    side: Side,
    legal: Option<Vec<(String, String)>>,
    to_move: Side,
}

impl Player {
    async fn connect(addr: SocketAddr, room: &str, token: &str) -> Result<Player, String> {
        let config = WebSocketConfig::default()
            .read_buffer_size(4 * 1024)
            .write_buffer_size(0);
        let (ws, _) = tokio_tungstenite::connect_async_with_config(
            format!("ws://{addr}/ws/rooms/{room}"),
            Some(config),
            true,
        )
        .await
        .map_err(|e| e.to_string())?;
        let mut p = Player {
            ws,
            v: 0,
            side: Side::Sente,
            legal: None,
            to_move: Side::Sente,
        };
        p.send(json!({"t":"hello","token":token,"since":0})).await?;
        p.until("sync").await?;
        Ok(p)
    }

    async fn send(&mut self, msg: Value) -> Result<(), String> {
        self.ws
            .send(Message::Text(msg.to_string().into()))
            .await
            .map_err(|e| e.to_string())
    }

    async fn next(&mut self) -> Result<Frame, String> {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(60), self.ws.next())
                .await
                .map_err(|_| "no frame for 60 s".to_owned())?
                .ok_or("closed")?
                .map_err(|e| e.to_string())?;
            let Message::Text(t) = m else { continue };
            let f: Frame = serde_json::from_str(&t).map_err(|e| format!("{e}: {t}"))?;
            if let Some(v) = f.v {
                self.v = v;
            }
            match f.t.as_str() {
                "arranging" | "started" => self.side = f.side.unwrap_or(self.side),
                "sync" => self.side = f.room.as_ref().map_or(self.side, |r| r.side),
                "error" => return Err(format!("error frame {t}")),
                _ => {}
            }
            if f.t == "started" || f.t == "moved" {
                self.legal.clone_from(&f.legal);
            }
            if f.t == "moved" {
                self.to_move = f.to_move.unwrap_or(self.to_move);
            }
            if f.t == "started" {
                self.to_move = Side::Sente;
            }
            return Ok(f);
        }
    }

    async fn until(&mut self, t: &str) -> Result<Frame, String> {
        loop {
            let f = self.next().await?;
            if f.t == t {
                return Ok(f);
            }
        }
    }

    async fn arrange(&mut self, seed: u64) -> Result<(), String> {
        let setup = serde_json::to_value(Deployment::auto(self.side, seed).to_wire()).unwrap();
        self.send(json!({"t":"arrange","setup":setup})).await
    }
}

/// The parts of a server frame the simulated players use (the rest is skipped unparsed).
#[derive(serde::Deserialize)]
struct Frame {
    t: String,
    v: Option<u64>,
    side: Option<Side>,
    to_move: Option<Side>,
    legal: Option<Vec<(String, String)>>,
    status: Option<StatusState>,
    room: Option<RoomSide>,
}

#[derive(serde::Deserialize)]
struct StatusState {
    state: String,
}

#[derive(serde::Deserialize)]
struct RoomSide {
    side: Side,
}

struct Shared {
    start: Instant,
    /// Moves slower than 100 ms, by second since the start.
    slow: Vec<AtomicU64>,
    measuring: AtomicBool,
    stop: AtomicBool,
    moves: AtomicU64,
    games: AtomicU64,
}

async fn open_room(addr: SocketAddr) -> Result<(Player, Player), String> {
    let created = http(addr, "POST", "/api/rooms").await?;
    let room = created["room"].as_str().ok_or("no room")?.to_owned();
    let host_token = created["token"].as_str().ok_or("no token")?.to_owned();
    let joined = http(addr, "POST", &format!("/api/rooms/{room}/join")).await?;
    let guest_token = joined["token"].as_str().ok_or("no token")?.to_owned();
    let host = Player::connect(addr, &room, &host_token).await?;
    let guest = Player::connect(addr, &room, &guest_token).await?;
    Ok((host, guest))
}

/// Plays games in one room until told to stop; returns the measured round trips (µs).
async fn play_room(
    mut host: Player,
    mut guest: Player,
    seed: u64,
    think_ms: u64,
    shared: Arc<Shared>,
) -> Result<Vec<u32>, String> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut rtts = Vec::new();
    'games: loop {
        host.arrange(rng.next_u64()).await?;
        guest.arrange(rng.next_u64()).await?;
        host.until("started").await?;
        guest.until("started").await?;
        loop {
            if shared.stop.load(Ordering::Relaxed) {
                break 'games;
            }
            let pause = think_ms / 2 + rng.random_range(0..=think_ms.max(1));
            tokio::time::sleep(Duration::from_millis(pause)).await;
            let host_turn = host.to_move == host.side;
            let (mover, other) = if host_turn {
                (&mut host, &mut guest)
            } else {
                (&mut guest, &mut host)
            };
            let legal = mover.legal.clone().ok_or("no legal moves")?;
            let (from, to) = legal[rng.random_range(0..legal.len())].clone();
            let v = mover.v;
            let t0 = Instant::now();
            mover
                .send(json!({"t":"move","move":{"from":from,"to":to},"v":v}))
                .await?;
            let m = mover.until("moved").await?;
            let rtt = t0.elapsed();
            other.until("moved").await?;
            if shared.measuring.load(Ordering::Relaxed) {
                let us = u32::try_from(rtt.as_micros()).unwrap_or(u32::MAX);
                rtts.push(us);
                if us > 100_000 {
                    let second = shared.start.elapsed().as_secs() as usize;
                    if let Some(slot) = shared.slow.get(second) {
                        slot.fetch_add(1, Ordering::Relaxed);
                    }
                }
                shared.moves.fetch_add(1, Ordering::Relaxed);
            }
            if m.status.is_some_and(|s| s.state != "ongoing") {
                host.until("ended").await?;
                guest.until("ended").await?;
                shared.games.fetch_add(1, Ordering::Relaxed);
                host.send(json!({"t":"rematch"})).await?;
                guest.send(json!({"t":"rematch"})).await?;
                host.until("arranging").await?;
                guest.until("arranging").await?;
                continue 'games;
            }
        }
    }
    Ok(rtts)
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

async fn run(opts: Opts) {
    let dir = opts
        .db_dir
        .clone()
        .unwrap_or_else(std::env::temp_dir)
        .join(format!("gunjin-loadbench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (child, addr) = match opts.server {
        Some(addr) => (None, addr),
        None => {
            let (c, a) = spawn_server(&dir.join("rooms.sqlite3"), opts.no_tick).await;
            (Some(c), a)
        }
    };
    let pid = child.as_ref().map(Child::id);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let base_rss = pid.and_then(rss_kb);
    println!(
        "loadbench: {} rooms ({} sockets), think {} ms, window {} s, server {addr}",
        opts.rooms,
        opts.rooms * 2,
        opts.think_ms,
        opts.secs
    );

    let shared = Arc::new(Shared {
        start: Instant::now(),
        slow: (0..3600).map(|_| AtomicU64::new(0)).collect(),
        measuring: AtomicBool::new(false),
        stop: AtomicBool::new(false),
        moves: AtomicU64::new(0),
        games: AtomicU64::new(0),
    });
    let ramp_start = Instant::now();
    let sem = Arc::new(tokio::sync::Semaphore::new(opts.ramp));
    let mut tasks = Vec::with_capacity(opts.rooms);
    let (opened_tx, mut opened_rx) = tokio::sync::mpsc::unbounded_channel::<bool>();
    for i in 0..opts.rooms {
        let sem = Arc::clone(&sem);
        let shared = Arc::clone(&shared);
        let opened = opened_tx.clone();
        let think = opts.think_ms;
        tasks.push(tokio::spawn(async move {
            let permit = sem.acquire_owned().await.unwrap();
            let pair = open_room(addr).await;
            drop(permit);
            let _ = opened.send(pair.is_ok());
            drop(opened);
            let (host, guest) = pair.map_err(|e| format!("opening: {e}"))?;
            play_room(host, guest, i as u64, think, shared).await
        }));
    }
    drop(opened_tx);
    let mut opened = 0;
    let mut failed_open = 0;
    for _ in 0..opts.rooms {
        let Some(ok) = opened_rx.recv().await else {
            break;
        };
        if ok {
            opened += 1;
        } else {
            failed_open += 1;
        }
    }
    let ramp = ramp_start.elapsed();
    println!(
        "ramp-up: {opened} rooms open, {failed_open} failed, in {:.1} s",
        ramp.as_secs_f64()
    );
    // Let the first games start before measuring.
    tokio::time::sleep(Duration::from_millis(opts.think_ms * 2 + 500)).await;
    let ramp_rss = pid.and_then(rss_kb);
    let cpu0 = pid.and_then(cpu_ticks);
    let me = std::process::id();
    let own0 = cpu_ticks(me);
    let steal0 = steal_total();
    let t0 = Instant::now();
    shared.measuring.store(true, Ordering::Relaxed);
    tokio::time::sleep(Duration::from_secs(opts.secs)).await;
    shared.measuring.store(false, Ordering::Relaxed);
    let window = t0.elapsed().as_secs_f64();
    let cpu1 = pid.and_then(cpu_ticks);
    let own1 = cpu_ticks(me);
    let steal1 = steal_total();
    let end_rss = pid.and_then(rss_kb);
    shared.stop.store(true, Ordering::Relaxed);

    let mut rtts = Vec::new();
    let mut sustained = 0;
    let mut errors: Vec<String> = Vec::new();
    for t in tasks {
        match tokio::time::timeout(Duration::from_secs(opts.think_ms / 1000 + 120), t).await {
            Ok(Ok(Ok(r))) => {
                sustained += 1;
                rtts.extend(r);
            }
            Ok(Ok(Err(e))) => errors.push(e),
            Ok(Err(e)) => errors.push(e.to_string()),
            Err(_) => errors.push("did not stop".into()),
        }
    }
    rtts.sort_unstable();
    let moves = shared.moves.load(Ordering::Relaxed);
    println!(
        "sustained rooms: {sustained} of {} ({} errors)",
        opts.rooms,
        errors.len()
    );
    for e in errors.iter().take(5) {
        println!("  error: {e}");
    }
    println!(
        "moves measured: {moves} in {window:.1} s = {:.0} moves/s; games finished: {}",
        moves as f64 / window,
        shared.games.load(Ordering::Relaxed)
    );
    println!(
        "move round trip: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&rtts, 0.5),
        percentile(&rtts, 0.9),
        percentile(&rtts, 0.99),
        percentile(&rtts, 1.0)
    );
    if let (Some(base), Some(ramp), Some(end)) = (base_rss, ramp_rss, end_rss) {
        let per_room = (end.max(ramp) - base) as f64 / opts.rooms.max(1) as f64;
        println!(
            "server RSS: {:.1} MB idle, {:.1} MB after ramp-up, {:.1} MB at the end: {per_room:.1} KB per room",
            base as f64 / 1024.0,
            ramp as f64 / 1024.0,
            end as f64 / 1024.0
        );
    }
    if let (Some(a), Some(b)) = (cpu0, cpu1) {
        println!(
            "server CPU during the window: {:.0}% of one core",
            (b - a) as f64 / window
        );
    }
    if let (Some(a), Some(b)) = (own0, own1) {
        println!(
            "load generator CPU during the window: {:.0}% of one core",
            (b - a) as f64 / window
        );
    }
    if let (Some(a), Some(b)) = (steal0, steal1) {
        let total = (b.1 - a.1).max(1) as f64;
        println!(
            "CPU stolen by the hypervisor: {:.1}%",
            (b.0 - a.0) as f64 * 100.0 / total
        );
    }
    let slow: Vec<String> = shared
        .slow
        .iter()
        .enumerate()
        .filter(|(_, n)| n.load(Ordering::Relaxed) > 0)
        .map(|(s, n)| format!("{s}s:{}", n.load(Ordering::Relaxed)))
        .collect();
    if !slow.is_empty() {
        println!(
            "moves over 100 ms, by second since start: {}",
            slow.join(" ")
        );
    }
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!(
            "machine load average (1, 5, 15 min): {}",
            load.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    if let Some(mut c) = child {
        let _ = c.kill();
        let _ = c.wait();
    }
    let _ = std::fs::remove_dir_all(&dir);
}
