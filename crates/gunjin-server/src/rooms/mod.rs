//! Online rooms: play a friend by URL, with the server as referee.
//!
//! The page creates a room over HTTP, sends its URL to a friend, and both players then talk to
//! the room over a WebSocket. The server alone knows both set-ups; each player receives only
//! their own view and events. See `docs/protocol.md` for the wire protocol.
//!
//! Mounting (in the server's `main`):
//!
//! ```no_run
//! # async fn f() -> Result<(), Box<dyn std::error::Error>> {
//! use gunjin_server::rooms::{self, RoomsConfig, RoomsState};
//! let state: RoomsState = RoomsState::open(RoomsConfig::new("gunjin.sqlite3"))?;
//! let app = axum::Router::new().merge(rooms::router(state));
//! # Ok(()) }
//! ```
//!
//! One task owns each room, fed by a bounded queue; the registry below maps ids to those queues
//! behind a mutex that is never held across an `.await`.

mod clock;
mod game;
mod ids;
mod protocol;
mod rate;
mod room;
mod store;
mod ws;

use std::collections::HashMap;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};

pub use clock::{Clock, ManualClock, SystemClock};
pub use game::{Gunjin, GunjinDeployment, RefereeGame, Refusal, WireDeployment, WireMove};
pub use ids::{RandomError, RoomId, Token};
pub use protocol::{
    ClientMsg, CloseReason, ErrorCode, PhaseId, Presence, RematchState, RoomSync, Seat, ServerMsg,
    Who,
};
pub use room::RoomInfo;
pub use store::{StoreError, StoreStats};
pub use ws::router;

use room::{Cmd, Room};
use store::Store;

/// Settings of the room service. [`RoomsConfig::new`] gives the defaults.
#[derive(Clone, Debug)]
pub struct RoomsConfig {
    /// The SQLite file (created if missing).
    pub db_path: PathBuf,
    /// Origins allowed to open a room's WebSocket or call the room API, e.g.
    /// `https://gunjin.example`. Empty: only the server's own origin (the `Origin` header must
    /// name the `Host` the request was sent to). Requests without `Origin` (not from a browser)
    /// are allowed.
    pub allowed_origins: Vec<String>,
    /// The longest text frame the protocol accepts; longer ones get `too_large`.
    pub max_message: usize,
    /// The longest frame the socket reads at all; a longer one ends the connection (the socket
    /// layer drops it without a close code).
    pub max_frame: usize,
    /// Rate limit per connection, and again per seat over all its connections: burst size.
    pub rate_burst: u32,
    /// Rate limit per connection and per seat: sustained messages per second.
    pub rate_per_sec: u32,
    /// Queue length of each room's task.
    pub room_queue: usize,
    /// Queue length of each connection's writer; a client that falls this far behind is cut.
    pub conn_queue: usize,
    /// How many recent events per seat are kept for replay after a reconnection.
    pub replay_window: usize,
    /// How long the opponent must be away before the CPU offer.
    pub offer_after: Duration,
    /// A room vanishes after this long with nobody connected…
    pub idle_expiry: Duration,
    /// …or this long after its creation.
    pub max_age: Duration,
    /// How often the rooms check the clock (offers, expiry); `None`: never by themselves
    /// (tests call [`RoomsState::sweep`]).
    pub tick: Option<Duration>,
    /// How long a new connection may take to send `hello`.
    pub hello_timeout: Duration,
    /// How often the server pings each connection (WebSocket ping frames, which browsers answer
    /// by themselves, even in a background tab).
    pub ping_every: Duration,
    /// A connection that sends nothing (not even a pong) for this long is dropped and its seat
    /// counts as away: a phone that lost its signal closes nothing, and would otherwise stay
    /// "connected" for ever, holding off the CPU offer and the room's expiry.
    pub silence_limit: Duration,
    /// Room creations allowed per second, server-wide (bursts of `10 ×` this); more get
    /// `rate_limited` (HTTP 429). Keeps a flood from filling the disk.
    pub creations_per_sec: u32,
    /// Room creations allowed per minute from one client address (bursts of as many); more get
    /// `rate_limited`, so that one client cannot spend the server-wide allowance of everyone.
    /// An IPv6 client counts by its /64; a network (an IPv4 /24, an IPv6 /48) may create three
    /// times as many, so that many addresses of one network do not either.
    pub creations_per_address_per_min: u32,
    /// Lookups of rooms that do not exist (info, join, hello) allowed per minute from one client
    /// address (bursts of as many); more get `rate_limited` before the database is asked. A
    /// player mistypes a link now and then; a script asking for thousands would otherwise queue
    /// its lookups ahead of every room's writes on the one storage thread.
    pub lookup_misses_per_address_per_min: u32,
    /// Loopback clients count only towards the server-wide limit: behind a reverse proxy on the
    /// same machine that does not say who its clients are, every player is one loopback address.
    pub exempt_loopback: bool,
    /// The client's address is the last one in `X-Forwarded-For` (the one the proxy in front
    /// saw) where the header is present. Only behind a proxy that sets it: anyone else could
    /// name any address there.
    pub trust_forwarded_for: bool,
}

impl RoomsConfig {
    /// The defaults, with the database at `db_path`.
    pub fn new(db_path: impl Into<PathBuf>) -> RoomsConfig {
        RoomsConfig {
            db_path: db_path.into(),
            allowed_origins: Vec::new(),
            max_message: 4096,
            max_frame: 64 * 1024,
            rate_burst: 30,
            rate_per_sec: 10,
            room_queue: 64,
            conn_queue: 256,
            replay_window: 32,
            offer_after: Duration::from_secs(120),
            idle_expiry: Duration::from_secs(30 * 60),
            max_age: Duration::from_secs(24 * 60 * 60),
            tick: Some(Duration::from_secs(5)),
            hello_timeout: Duration::from_secs(15),
            ping_every: Duration::from_secs(20),
            silence_limit: Duration::from_secs(60),
            creations_per_sec: 10,
            creations_per_address_per_min: 20,
            lookup_misses_per_address_per_min: 60,
            exempt_loopback: true,
            trust_forwarded_for: false,
        }
    }
}

/// Why the room service could not start.
#[derive(Debug, thiserror::Error)]
pub enum RoomsError {
    #[error(transparent)]
    Store(#[from] StoreError),
}

pub(crate) struct Shared<G: RefereeGame> {
    store: Store,
    clock: Arc<dyn Clock>,
    config: RoomsConfig,
    rooms: Mutex<HashMap<RoomId, mpsc::Sender<Cmd<G>>>>,
    next_conn: AtomicU64,
    /// Creation allowance, server-wide.
    creations: Mutex<rate::TokenBucket>,
    /// Creation allowance of each client address.
    creations_by_address: Mutex<rate::PerAddress>,
    /// Creation allowance of each network (`NETWORK_SHARE` clients' worth).
    creations_by_network: Mutex<rate::PerAddress>,
    /// Allowance of each client address for looking up rooms that do not exist.
    misses_by_address: Mutex<rate::PerAddress>,
    /// Set when the server stops; every connection holds a receiver until it has closed.
    going_away: watch::Sender<bool>,
}

impl<G: RefereeGame> Shared<G> {
    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<RoomId, mpsc::Sender<Cmd<G>>>> {
        self.rooms.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Removes a room from the registry (it is vanishing).
    pub(crate) fn forget(&self, id: &RoomId) {
        self.rooms().remove(id);
    }
}

/// The room service: the registry of live rooms, the store and the clock. Cheap to clone.
pub struct RoomsState<G: RefereeGame = Gunjin> {
    shared: Arc<Shared<G>>,
}

impl<G: RefereeGame> Clone for RoomsState<G> {
    fn clone(&self) -> Self {
        RoomsState {
            shared: Arc::clone(&self.shared),
        }
    }
}

/// How many clients' creation allowance one network (an IPv4 /24, an IPv6 /48) has together: a
/// client holding many addresses of its own network (a home's /56 holds 256 /64s) had spent the
/// server-wide allowance of everyone, while a household or an office still gets rooms enough.
const NETWORK_SHARE: f64 = 3.0;

/// A room could not be reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("room error: {}", .0.id())]
pub struct RoomError(pub ErrorCode);

impl<G: RefereeGame> RoomsState<G> {
    /// Opens the store and, if `config.tick` is set, starts the sweeper (call inside a Tokio
    /// runtime).
    ///
    /// # Errors
    /// [`RoomsError`] if the database cannot be opened.
    pub fn open(config: RoomsConfig) -> Result<RoomsState<G>, RoomsError> {
        Self::open_with_clock(config, Arc::new(SystemClock))
    }

    /// [`RoomsState::open`] with a chosen clock (tests use a [`ManualClock`]).
    ///
    /// # Errors
    /// [`RoomsError`] if the database cannot be opened.
    pub fn open_with_clock(
        config: RoomsConfig,
        clock: Arc<dyn Clock>,
    ) -> Result<RoomsState<G>, RoomsError> {
        let store = Store::open(&config.db_path, clock.now_ms())?;
        let tick = config.tick;
        let per_sec = f64::from(config.creations_per_sec);
        let per_address = f64::from(config.creations_per_address_per_min);
        let now = std::time::Instant::now();
        let creations_by_address =
            rate::PerAddress::new(per_address, per_address / 60.0, config.exempt_loopback, now);
        let per_network = per_address * NETWORK_SHARE;
        let creations_by_network = rate::PerAddress::grouped(
            rate::Grouping::Network,
            per_network,
            per_network / 60.0,
            config.exempt_loopback,
            now,
        );
        let misses = f64::from(config.lookup_misses_per_address_per_min);
        let misses_by_address =
            rate::PerAddress::new(misses, misses / 60.0, config.exempt_loopback, now);
        let state = RoomsState {
            shared: Arc::new(Shared {
                store,
                clock,
                config,
                rooms: Mutex::new(HashMap::new()),
                next_conn: AtomicU64::new(1),
                creations: Mutex::new(rate::TokenBucket::new(per_sec * 10.0, per_sec, now)),
                creations_by_address: Mutex::new(creations_by_address),
                creations_by_network: Mutex::new(creations_by_network),
                misses_by_address: Mutex::new(misses_by_address),
                going_away: watch::Sender::new(false),
            }),
        };
        if let Some(every) = tick {
            let weak = Arc::downgrade(&state.shared);
            tokio::spawn(async move {
                let mut interval = tokio::time::interval(every);
                interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                loop {
                    interval.tick().await;
                    let Some(shared) = weak.upgrade() else {
                        break;
                    };
                    RoomsState { shared }.sweep_inner(false).await;
                }
            });
        }
        Ok(state)
    }

    /// The configuration in force.
    #[must_use]
    pub fn config(&self) -> &RoomsConfig {
        &self.shared.config
    }

    /// Runs one sweep now and waits until every live room has looked at the clock: CPU offers
    /// are sent, expired rooms vanish (in memory and in the database).
    pub async fn sweep(&self) {
        self.sweep_inner(true).await;
    }

    async fn sweep_inner(&self, wait: bool) {
        let rooms: Vec<(RoomId, mpsc::Sender<Cmd<G>>)> = self
            .shared
            .rooms()
            .iter()
            .map(|(id, tx)| (id.clone(), tx.clone()))
            .collect();
        let mut waits = Vec::new();
        for (_, tx) in &rooms {
            if wait {
                let (done, rx) = oneshot::channel();
                if tx.send(Cmd::Tick { done: Some(done) }).await.is_ok() {
                    waits.push(rx);
                }
            } else {
                let _ = tx.try_send(Cmd::Tick { done: None });
            }
        }
        for rx in waits {
            let _ = rx.await;
        }
        // Stored rooms that are not loaded (e.g. after a restart) expire in the database.
        let cfg = &self.shared.config;
        let now = self.shared.clock.now_ms();
        let created_before = now.saturating_sub(ms(cfg.max_age));
        let empty_before = now.saturating_sub(ms(cfg.idle_expiry));
        match self
            .shared
            .store
            .expired(created_before, empty_before)
            .await
        {
            Ok(ids) => {
                let writes: Vec<_> = {
                    let live = self.shared.rooms();
                    ids.into_iter()
                        .filter(|id| RoomId::parse(id).is_none_or(|id| !live.contains_key(&id)))
                        .map(|id| store::Write::Delete { id })
                        .collect()
                };
                if let Err(e) = self.shared.store.write(writes).await {
                    tracing::error!(error = %e, "rooms: expiry sweep failed");
                }
            }
            Err(e) => tracing::error!(error = %e, "rooms: expiry sweep failed"),
        }
    }

    /// Closes every room connection with 1001 ("going away", so pages reconnect to the next
    /// server) and waits up to `limit` for them to finish; later connections are closed as they
    /// open. Call once the server has stopped accepting requests. Nothing needs saving: a room
    /// stores each change before it tells anyone. Returns whether every connection closed in time.
    pub async fn go_away(&self, limit: Duration) -> bool {
        self.shared.going_away.send_replace(true);
        tokio::time::timeout(limit, self.shared.going_away.closed())
            .await
            .is_ok()
    }

    /// The storage thread's counters.
    #[must_use]
    pub fn store_stats(&self) -> &StoreStats {
        self.shared.store.stats()
    }

    /// How many rooms are live in memory.
    #[must_use]
    pub fn live_rooms(&self) -> usize {
        self.shared.rooms().len()
    }

    /// How many rooms are stored.
    ///
    /// # Errors
    /// [`StoreError`] on a database failure.
    pub async fn stored_rooms(&self) -> Result<u64, StoreError> {
        self.shared.store.count().await
    }

    /// Whether a room may be created now for a client at `from` (unknown: only the server-wide
    /// limit applies).
    fn allow_creation(&self, from: Option<IpAddr>) -> bool {
        let now = std::time::Instant::now();
        // The address's allowance is asked first and spent last: a creation the server-wide
        // limit refuses neither costs the client a token nor starts tracking its address. (The
        // two locks are always taken in this order.)
        let mut by_address = self
            .shared
            .creations_by_address
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let mut by_network = self
            .shared
            .creations_by_network
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if from.is_some_and(|address| {
            !by_address.allows(address, now) || !by_network.allows(address, now)
        }) {
            return false;
        }
        let server_wide = self
            .shared
            .creations
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take(now);
        if server_wide && let Some(address) = from {
            by_address.take(address, now);
            by_network.take(address, now);
        }
        server_wide
    }

    /// Creates a room; the creator holds the host seat. Returns the id and the host's token.
    ///
    /// # Errors
    /// [`RoomError`] with `rate_limited` if rooms are being created too fast, `internal` if no
    /// id could be drawn or the room not stored.
    pub async fn create(&self) -> Result<(RoomId, Token), RoomError> {
        self.create_for(None).await
    }

    /// [`RoomsState::create`] for a client at `from`, which its own limit applies to too.
    ///
    /// # Errors
    /// As [`RoomsState::create`].
    pub async fn create_for(&self, from: Option<IpAddr>) -> Result<(RoomId, Token), RoomError> {
        if !self.allow_creation(from) {
            return Err(RoomError(ErrorCode::RateLimited));
        }
        let internal = |e: &dyn std::fmt::Display| {
            tracing::error!(error = %e, "rooms: could not create a room");
            RoomError(ErrorCode::Internal)
        };
        let id = RoomId::random().map_err(|e| internal(&e))?;
        let token = Token::random().map_err(|e| internal(&e))?;
        let mut room = Room::new(id.clone(), Arc::clone(&self.shared), &token);
        self.shared
            .store
            .write(room.take_writes())
            .await
            .map_err(|e| internal(&e))?;
        self.spawn(id.clone(), room);
        tracing::info!(room = id.short(), "rooms: created");
        Ok((id, token))
    }

    /// Starts `room`'s task, unless another request started the same room first: then that
    /// room's queue, and `false` (this copy is dropped).
    fn spawn(&self, id: RoomId, room: Room<G>) -> (mpsc::Sender<Cmd<G>>, bool) {
        let (tx, rx) = mpsc::channel(self.shared.config.room_queue);
        let mut rooms = self.shared.rooms();
        if let Some(existing) = rooms.get(&id)
            && !existing.is_closed()
        {
            return (existing.clone(), false);
        }
        rooms.insert(id, tx.clone());
        drop(rooms);
        tokio::spawn(room.run(rx, tx.clone()));
        (tx, true)
    }

    /// The queue of a room, loading it from the database if it is not live. A client at `from`
    /// that has asked for too many rooms that do not exist is refused before the database is.
    pub(crate) async fn room(
        &self,
        id: &RoomId,
        from: Option<IpAddr>,
    ) -> Result<mpsc::Sender<Cmd<G>>, RoomError> {
        if let Some(tx) = self.shared.rooms().get(id) {
            // A closed queue means the room's task is gone (it cannot panic by design, but if it
            // ever did, the room is reloaded from the database rather than lost).
            if !tx.is_closed() {
                return Ok(tx.clone());
            }
        }
        let misses = || {
            self.shared
                .misses_by_address
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        };
        // Taken before the lookup and given back if the room is there: lookups sent all at once
        // would otherwise all find the token still there while the database answers the first.
        if let Some(address) = from
            && !misses().take(address, std::time::Instant::now())
        {
            return Err(RoomError(ErrorCode::RateLimited));
        }
        let loaded = self.load(id).await;
        if let Some(address) = from
            && !matches!(loaded, Err(RoomError(ErrorCode::NoRoom)))
        {
            misses().give_back(address);
        }
        loaded
    }

    /// Loads a room that is not live from the database and starts it.
    async fn load(&self, id: &RoomId) -> Result<mpsc::Sender<Cmd<G>>, RoomError> {
        let stored = self
            .shared
            .store
            .load(id.as_str(), room::snapshot_game_no)
            .await
            .map_err(|e| {
                tracing::error!(error = %e, "rooms: could not load a room");
                RoomError(ErrorCode::Internal)
            })?
            .ok_or(RoomError(ErrorCode::NoRoom))?;
        if stored.game != G::ID {
            return Err(RoomError(ErrorCode::NoRoom));
        }
        let room = Room::restore(id.clone(), Arc::clone(&self.shared), stored).map_err(|e| {
            tracing::error!(room = id.short(), error = %e, "rooms: could not restore a room");
            RoomError(ErrorCode::Internal)
        })?;
        if room.expired(self.shared.clock.now_ms()) {
            let _ = self
                .shared
                .store
                .write(vec![store::Write::Delete {
                    id: id.as_str().to_owned(),
                }])
                .await;
            return Err(RoomError(ErrorCode::NoRoom));
        }
        let (tx, started) = self.spawn(id.clone(), room);
        // Both players reconnecting after a restart load the room at once: one copy goes live.
        if started {
            tracing::info!(room = id.short(), "rooms: restored");
        }
        Ok(tx)
    }

    /// Takes the guest seat of a room. Returns the guest's token.
    ///
    /// # Errors
    /// [`RoomError`]: `no_room`, `room_full`, `room_closed` or `internal`.
    pub async fn join(&self, id: &RoomId) -> Result<Token, RoomError> {
        self.join_from(id, None).await
    }

    /// [`RoomsState::join`] for a client at `from`, whose lookups of missing rooms are limited.
    ///
    /// # Errors
    /// As [`RoomsState::join`], and `rate_limited`.
    pub async fn join_from(&self, id: &RoomId, from: Option<IpAddr>) -> Result<Token, RoomError> {
        let tx = self.room(id, from).await?;
        let (reply, rx) = oneshot::channel();
        tx.send(Cmd::Join { reply })
            .await
            .map_err(|_| RoomError(ErrorCode::NoRoom))?;
        rx.await
            .map_err(|_| RoomError(ErrorCode::NoRoom))?
            .map_err(RoomError)
    }

    /// Whether a room can be joined.
    ///
    /// # Errors
    /// [`RoomError`]: `no_room` or `internal`.
    pub async fn info(&self, id: &RoomId) -> Result<RoomInfo, RoomError> {
        self.info_from(id, None).await
    }

    /// [`RoomsState::info`] for a client at `from`, whose lookups of missing rooms are limited.
    ///
    /// # Errors
    /// As [`RoomsState::info`], and `rate_limited`.
    pub async fn info_from(
        &self,
        id: &RoomId,
        from: Option<IpAddr>,
    ) -> Result<RoomInfo, RoomError> {
        let tx = self.room(id, from).await?;
        let (reply, rx) = oneshot::channel();
        tx.send(Cmd::Info { reply })
            .await
            .map_err(|_| RoomError(ErrorCode::NoRoom))?;
        rx.await.map_err(|_| RoomError(ErrorCode::NoRoom))
    }
}

pub(crate) fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
