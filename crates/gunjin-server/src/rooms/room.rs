//! One room: a task owns its state and handles one command at a time from a bounded queue.
//!
//! Each state change is written to the store, and only once the write is committed are the
//! resulting events sent: whatever a player has seen survives a crash. Every event is made for
//! one seat from what that seat may know (the game's per-side view), numbered with that seat's
//! version, and kept in a short ring for replay after a reconnection.

use std::collections::VecDeque;
use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use gunjin::{BySide, Side};
use serde::{Deserialize, Serialize};
use tokio::sync::{Notify, mpsc, oneshot};

use super::game::{RefereeGame, Refusal};
use super::ids::{RoomId, SeatKey, Token};
use super::protocol::{
    ClientMsg, CloseReason, ErrorCode, PhaseId, Presence, RematchState, RoomSync, Seat, ServerMsg,
    Who,
};
use super::rate::{Admission, MessageRate};
use super::store::{StoredRoom, Write};
use super::{Shared, ms};

/// A frame for one connection's writer.
#[derive(Debug)]
pub(crate) enum Out {
    Text(Utf8Bytes),
    /// The server is stopping: close with 1001 ("going away"), so the page reconnects.
    GoingAway,
}

/// A live connection as the room knows it.
pub(crate) struct ConnHandle {
    pub id: u64,
    pub tx: mpsc::Sender<Out>,
    /// Notified to make the connection close (replaced by a newer one, too slow, room gone).
    pub closer: Arc<Notify>,
}

/// What a room can be asked.
pub(crate) enum Cmd<G: RefereeGame> {
    Join {
        reply: oneshot::Sender<Result<Token, ErrorCode>>,
    },
    Info {
        reply: oneshot::Sender<RoomInfo>,
    },
    Attach {
        token: String,
        since: u64,
        conn: ConnHandle,
        reply: oneshot::Sender<Result<Seat, ErrorCode>>,
    },
    Client {
        seat: Seat,
        conn: u64,
        msg: ClientMsg<G>,
    },
    Detach {
        seat: Seat,
        conn: u64,
    },
    Tick {
        done: Option<oneshot::Sender<()>>,
    },
}

/// Public facts about a room, for the page before it joins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RoomInfo {
    /// The guest seat is free.
    Open,
    /// Both seats are taken.
    Full,
    /// The room was closed.
    Closed,
}

#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
struct Snapshot<G: RefereeGame> {
    tokens: [Option<SeatKey>; 2],
    game_no: u32,
    host_side: Side,
    phase: SnapPhase<G>,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case", bound = "")]
enum SnapPhase<G: RefereeGame> {
    Arranging {
        held: [Option<G::Deployment>; 2],
    },
    Playing {
        deployments: BySide<G::Deployment>,
    },
    Finished {
        deployments: BySide<G::Deployment>,
        resigned: Option<Side>,
        rematch: [bool; 2],
    },
    Closed {
        reason: CloseReason,
    },
}

/// Reads the game number out of a stored snapshot (for loading that game's plies).
pub(crate) fn snapshot_game_no(snapshot: &str) -> Option<u32> {
    #[derive(Deserialize)]
    struct GameNo {
        game_no: u32,
    }
    serde_json::from_str::<GameNo>(snapshot)
        .ok()
        .map(|g| g.game_no)
}

enum Phase<G: RefereeGame> {
    /// Held set-ups by seat.
    Arranging {
        held: [Option<G::Deployment>; 2],
    },
    Playing {
        game: G,
        plies: u32,
    },
    Finished {
        game: G,
        rematch: [bool; 2],
    },
    Closed {
        reason: CloseReason,
    },
}

/// Why a stored room could not be rebuilt.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RestoreError {
    #[error("snapshot: {0}")]
    Snapshot(#[from] serde_json::Error),
    #[error("game: {0}")]
    Game(String),
}

pub(crate) struct Room<G: RefereeGame> {
    id: RoomId,
    shared: Arc<Shared<G>>,
    created_at: u64,
    empty_since: Option<u64>,
    tokens: [Option<SeatKey>; 2],
    versions: [u64; 2],
    ring: [VecDeque<(u64, Utf8Bytes)>; 2],
    conns: [Option<ConnHandle>; 2],
    away_since: [Option<u64>; 2],
    offered: [bool; 2],
    game_no: u32,
    host_side: Side,
    started_with: Option<BySide<G::Deployment>>,
    phase: Phase<G>,
    outbox: Vec<(Seat, Utf8Bytes)>,
    writes: Vec<Write>,
    /// Each seat's message allowance, over all its connections: one connection's allowance
    /// alone let a client that reconnects again and again (each time a fresh burst) have
    /// thousands of syncs a second answered.
    seat_rate: [MessageRate; 2],
}

/// A fresh allowance for each seat.
fn seat_rates(config: &super::RoomsConfig) -> [MessageRate; 2] {
    let now = std::time::Instant::now();
    let rate = || MessageRate::new(config.rate_burst, config.rate_per_sec, now);
    [rate(), rate()]
}

pub(super) fn encode<G: RefereeGame>(msg: &ServerMsg<G>) -> Utf8Bytes {
    match serde_json::to_string(msg) {
        Ok(s) => Utf8Bytes::from(s),
        Err(e) => {
            tracing::error!(error = %e, "rooms: a message did not serialize");
            Utf8Bytes::from_static(r#"{"t":"error","code":"internal","message":"encoding"}"#)
        }
    }
}

fn refusal<G: RefereeGame>(r: Refusal) -> ServerMsg<G> {
    ServerMsg::Error {
        code: r.code,
        message: r.message,
        details: r.details,
    }
}

impl<G: RefereeGame> Room<G> {
    /// A new room with its host seated; nothing is stored yet (see [`Room::snapshot_write`]).
    pub(crate) fn new(id: RoomId, shared: Arc<Shared<G>>, host: &Token) -> Room<G> {
        let now = shared.clock.now_ms();
        let seat_rate = seat_rates(&shared.config);
        let mut room = Room {
            id,
            shared,
            seat_rate,
            created_at: now,
            empty_since: Some(now),
            tokens: [Some(SeatKey::of(host)), None],
            versions: [0, 0],
            ring: [VecDeque::new(), VecDeque::new()],
            conns: [None, None],
            away_since: [Some(now), None],
            offered: [false, false],
            game_no: 1,
            host_side: Side::Sente,
            started_with: None,
            phase: Phase::Arranging { held: [None, None] },
            outbox: Vec::new(),
            writes: Vec::new(),
        };
        let side = room.side_of(Seat::Host);
        room.emit(Seat::Host, |v| ServerMsg::Arranging { v, game: 1, side });
        room.outbox.clear();
        room.push_snapshot();
        room
    }

    /// Rebuilds a stored room, replaying the current game's moves through the rules.
    pub(crate) fn restore(
        id: RoomId,
        shared: Arc<Shared<G>>,
        stored: StoredRoom,
    ) -> Result<Room<G>, RestoreError> {
        let snap: Snapshot<G> = serde_json::from_str(&stored.snapshot)?;
        let replay = |deployments: &BySide<G::Deployment>| -> Result<(G, u32), RestoreError> {
            let mut game =
                G::start(deployments.clone()).map_err(|r| RestoreError::Game(r.message))?;
            for mv in &stored.plies {
                let mv: G::Move = serde_json::from_str(mv)?;
                game.play(mv).map_err(|r| RestoreError::Game(r.message))?;
            }
            let plies = u32::try_from(stored.plies.len()).unwrap_or(u32::MAX);
            Ok((game, plies))
        };
        let mut started_with = None;
        let mut versions = stored.versions;
        let phase = match snap.phase {
            SnapPhase::Arranging { held } => Phase::Arranging { held },
            SnapPhase::Playing { deployments } => {
                let (game, plies) = replay(&deployments)?;
                started_with = Some(deployments);
                if game.is_over() {
                    return Err(RestoreError::Game("a playing game is over".into()));
                }
                // One `moved` event per seat for each ply since the stored versions.
                for v in &mut versions {
                    *v += u64::from(plies);
                }
                Phase::Playing { game, plies }
            }
            SnapPhase::Finished {
                deployments,
                resigned,
                rematch,
            } => {
                let (mut game, _) = replay(&deployments)?;
                if let Some(side) = resigned
                    && !game.is_over()
                {
                    game.resign(side)
                        .map_err(|r| RestoreError::Game(r.message))?;
                }
                started_with = Some(deployments);
                Phase::Finished { game, rematch }
            }
            SnapPhase::Closed { reason } => Phase::Closed { reason },
        };
        let now = shared.clock.now_ms();
        let seated = |s: Seat| snap.tokens[s.index()].is_some().then_some(now);
        Ok(Room {
            id,
            created_at: stored.created_at,
            empty_since: Some(stored.empty_since.unwrap_or(now)),
            away_since: [seated(Seat::Host), seated(Seat::Guest)],
            tokens: snap.tokens,
            versions,
            ring: [VecDeque::new(), VecDeque::new()],
            conns: [None, None],
            offered: [false, false],
            game_no: snap.game_no,
            host_side: snap.host_side,
            started_with,
            phase,
            outbox: Vec::new(),
            writes: Vec::new(),
            seat_rate: seat_rates(&shared.config),
            shared,
        })
    }

    /// The writes that store the room as it is now (after [`Room::new`]).
    pub(crate) fn take_writes(&mut self) -> Vec<Write> {
        std::mem::take(&mut self.writes)
    }

    /// Whether the room should vanish at `now`.
    pub(crate) fn expired(&self, now: u64) -> bool {
        let cfg = &self.shared.config;
        let too_old = now >= self.created_at.saturating_add(ms(cfg.max_age));
        let idle = self.conns.iter().all(Option::is_none)
            && self
                .empty_since
                .is_some_and(|t| now >= t.saturating_add(ms(cfg.idle_expiry)));
        too_old || idle
    }

    /// Runs the room until it vanishes or every handle is dropped.
    pub(crate) async fn run(mut self, mut rx: mpsc::Receiver<Cmd<G>>, me: mpsc::Sender<Cmd<G>>) {
        drop(me);
        while let Some(cmd) = rx.recv().await {
            let keep = self.handle(cmd).await;
            if !keep {
                break;
            }
        }
    }

    fn side_of(&self, seat: Seat) -> Side {
        match seat {
            Seat::Host => self.host_side,
            Seat::Guest => self.host_side.opponent(),
        }
    }

    fn seated(&self, seat: Seat) -> bool {
        self.tokens[seat.index()].is_some()
    }

    /// Records a versioned event for `seat` (if seated); it is sent after the next commit.
    fn emit(&mut self, seat: Seat, make: impl FnOnce(u64) -> ServerMsg<G>) {
        if !self.seated(seat) {
            return;
        }
        let i = seat.index();
        self.versions[i] += 1;
        let v = self.versions[i];
        let text = encode(&make(v));
        let ring = &mut self.ring[i];
        ring.push_back((v, text.clone()));
        while ring.len() > self.shared.config.replay_window {
            ring.pop_front();
        }
        self.outbox.push((seat, text));
    }

    /// Sends an unversioned message to `seat`'s live connection now.
    fn reply(&mut self, seat: Seat, msg: &ServerMsg<G>) {
        self.send_text(seat, encode(msg));
    }

    fn send_text(&mut self, seat: Seat, text: Utf8Bytes) {
        let i = seat.index();
        let Some(conn) = &self.conns[i] else {
            return;
        };
        if let Err(e) = conn.tx.try_send(Out::Text(text)) {
            // Too slow (or gone): drop it; the client reconnects and resyncs.
            let why = match e {
                mpsc::error::TrySendError::Full(_) => "rooms: dropping a slow connection",
                mpsc::error::TrySendError::Closed(_) => "rooms: dropping a closed connection",
            };
            tracing::info!(room = self.id.short(), seat = seat.id(), "{why}");
            conn.closer.notify_one();
            self.conns[i] = None;
            self.went_away(seat);
        }
    }

    fn presence(&self, seat: Seat) -> Presence {
        if !self.seated(seat) {
            Presence::None
        } else if self.conns[seat.index()].is_some() {
            Presence::Connected
        } else {
            Presence::Away
        }
    }

    /// The offer to `seat`, saying how long its opponent has been away by now (a player coming
    /// back after half an hour is not told "2 minutes").
    fn cpu_offer(&self, seat: Seat, now: u64) -> ServerMsg<G> {
        let at_least = self.shared.config.offer_after.as_secs();
        let away_s = self.away_since[seat.other().index()].map_or(at_least, |since| {
            (now.saturating_sub(since) / 1000).max(at_least)
        });
        ServerMsg::CpuOffer { away_s }
    }

    fn offer_active(&self, seat: Seat, now: u64) -> bool {
        let other = seat.other();
        self.seated(other)
            && matches!(self.phase, Phase::Arranging { .. } | Phase::Playing { .. })
            && self.conns[other.index()].is_none()
            && self.away_since[other.index()]
                .is_some_and(|t| now >= t.saturating_add(ms(self.shared.config.offer_after)))
    }

    fn push_snapshot(&mut self) {
        let phase = match &self.phase {
            Phase::Arranging { held } => SnapPhase::Arranging { held: held.clone() },
            Phase::Playing { .. } | Phase::Finished { .. } => {
                let Some(deployments) = self.started_with.clone() else {
                    tracing::error!(room = self.id.short(), "rooms: a game without deployments");
                    return;
                };
                match &self.phase {
                    Phase::Finished { game, rematch } => SnapPhase::Finished {
                        deployments,
                        resigned: game.resigned(),
                        rematch: *rematch,
                    },
                    _ => SnapPhase::Playing { deployments },
                }
            }
            Phase::Closed { reason } => SnapPhase::Closed { reason: *reason },
        };
        let snap = Snapshot::<G> {
            tokens: self.tokens.clone(),
            game_no: self.game_no,
            host_side: self.host_side,
            phase,
        };
        match serde_json::to_string(&snap) {
            Ok(snapshot) => self.writes.push(Write::Room {
                id: self.id.as_str().to_owned(),
                game: G::ID,
                created_at: self.created_at,
                empty_since: self.empty_since,
                versions: self.versions,
                snapshot,
            }),
            Err(e) => tracing::error!(room = self.id.short(), error = %e, "rooms: snapshot failed"),
        }
    }

    /// Commits the pending writes, then sends the pending events; returns whether it could.
    ///
    /// A store that fails leaves the room ahead of what is stored, and nobody may be told what
    /// a crash would take back (a battle's outcome seen, then undone, would let its mover play
    /// again knowing it). So nothing is sent, every connection is closed and the room leaves
    /// memory: the players' reconnection loads it as last stored, and the page says a move
    /// that never arrived did not. The room's task must then end.
    async fn commit(&mut self) -> bool {
        let writes = std::mem::take(&mut self.writes);
        if let Err(e) = self.shared.store.write(writes).await {
            tracing::error!(room = self.id.short(), error = %e, "rooms: could not store a change; the room is loaded again from the store");
            self.outbox.clear();
            self.leave_memory();
            return false;
        }
        for (seat, text) in std::mem::take(&mut self.outbox) {
            self.send_text(seat, text);
        }
        true
    }

    /// Commits, then answers `result`, or `internal` if the store failed (the room then ends:
    /// see [`Room::commit`]). Returns whether the room goes on.
    async fn commit_and_answer<T>(
        &mut self,
        result: Result<T, ErrorCode>,
        reply: oneshot::Sender<Result<T, ErrorCode>>,
    ) -> bool {
        let stored = self.commit().await;
        let _ = reply.send(if stored {
            result
        } else {
            Err(ErrorCode::Internal)
        });
        stored
    }

    /// Closes every connection and takes the room out of the registry (its task then ends): the
    /// next visit finds what the store holds, or nothing.
    fn leave_memory(&self) {
        for conn in self.conns.iter().flatten() {
            conn.closer.notify_one();
        }
        self.shared.forget(&self.id);
    }

    async fn handle(&mut self, cmd: Cmd<G>) -> bool {
        let now = self.shared.clock.now_ms();
        match cmd {
            Cmd::Join { reply } => {
                let result = self.join(now);
                // A seat not stored is no seat: its token would be refused once reloaded.
                return self.commit_and_answer(result, reply).await;
            }
            Cmd::Info { reply } => {
                let info = if matches!(self.phase, Phase::Closed { .. }) {
                    RoomInfo::Closed
                } else if self.seated(Seat::Guest) {
                    RoomInfo::Full
                } else {
                    RoomInfo::Open
                };
                let _ = reply.send(info);
            }
            Cmd::Attach {
                token,
                since,
                conn,
                reply,
            } => {
                let result = self.attach(&token, since, conn, now);
                return self.commit_and_answer(result, reply).await;
            }
            Cmd::Client { seat, conn, msg } => {
                let current = self.conns[seat.index()]
                    .as_ref()
                    .is_some_and(|c| c.id == conn);
                if current {
                    match self.seat_rate[seat.index()].admit(std::time::Instant::now()) {
                        Admission::Admitted => {}
                        Admission::DroppedFirst => {
                            self.reply(
                                seat,
                                &refusal(Refusal::new(
                                    ErrorCode::RateLimited,
                                    "too many messages from this seat; this one and any more until the rate falls are dropped",
                                )),
                            );
                            return true;
                        }
                        Admission::Dropped => return true,
                    }
                    if let Err(r) = self.client(seat, msg, now) {
                        // Refusals come before any change: nothing was emitted or written.
                        debug_assert!(self.outbox.is_empty() && self.writes.is_empty());
                        self.reply(seat, &refusal(r));
                    }
                    return self.commit().await;
                }
            }
            Cmd::Detach { seat, conn } => {
                let current = self.conns[seat.index()]
                    .as_ref()
                    .is_some_and(|c| c.id == conn);
                if current {
                    self.conns[seat.index()] = None;
                    self.went_away(seat);
                    return self.commit().await;
                }
            }
            Cmd::Tick { done } => {
                let keep = self.tick(now).await;
                if let Some(done) = done {
                    let _ = done.send(());
                }
                return keep;
            }
        }
        true
    }

    fn went_away(&mut self, seat: Seat) {
        let now = self.shared.clock.now_ms();
        self.away_since[seat.index()] = Some(now);
        let other = seat.other();
        self.reply(
            other,
            &ServerMsg::Presence {
                opponent: Presence::Away,
            },
        );
        if self.conns.iter().all(Option::is_none) {
            self.empty_since = Some(now);
            self.writes.push(Write::EmptySince {
                id: self.id.as_str().to_owned(),
                at: Some(now),
            });
        }
    }

    fn join(&mut self, now: u64) -> Result<Token, ErrorCode> {
        if matches!(self.phase, Phase::Closed { .. }) {
            return Err(ErrorCode::RoomClosed);
        }
        if self.seated(Seat::Guest) {
            return Err(ErrorCode::RoomFull);
        }
        let token = Token::random().map_err(|e| {
            tracing::error!(error = %e, "rooms: no token");
            ErrorCode::Internal
        })?;
        self.tokens[Seat::Guest.index()] = Some(SeatKey::of(&token));
        self.away_since[Seat::Guest.index()] = Some(now);
        self.emit(Seat::Host, |v| ServerMsg::Joined { v });
        let (game, side) = (self.game_no, self.side_of(Seat::Guest));
        self.emit(Seat::Guest, |v| ServerMsg::Arranging { v, game, side });
        let host_ready =
            matches!(&self.phase, Phase::Arranging { held } if held[Seat::Host.index()].is_some());
        if host_ready {
            self.emit(Seat::Guest, |v| ServerMsg::Ready {
                v,
                who: Who::Opponent,
                ready: true,
            });
        }
        // `joined` itself tells the host the seat is taken and its player not yet here; a
        // `presence` sent now would reach the host before it (it goes out at once, `joined`
        // after the write), and read as a friend who left before arriving.
        tracing::info!(room = self.id.short(), "rooms: guest joined");
        self.push_snapshot();
        Ok(token)
    }

    fn attach(
        &mut self,
        token: &str,
        since: u64,
        conn: ConnHandle,
        now: u64,
    ) -> Result<Seat, ErrorCode> {
        let seat = Seat::ALL
            .into_iter()
            .find(|s| {
                self.tokens[s.index()]
                    .as_ref()
                    .is_some_and(|t| t.matches(token))
            })
            .ok_or(ErrorCode::BadToken)?;
        let i = seat.index();
        // A hello counts against the seat's rate: each one is answered in full (a sync).
        if !self.seat_rate[i].take(std::time::Instant::now()) {
            return Err(ErrorCode::RateLimited);
        }
        let old = self.conns[i].replace(conn);
        let was_connected = old.is_some();
        if let Some(old) = old {
            let told = ServerMsg::<G>::Error {
                code: ErrorCode::Replaced,
                message: "this seat was taken by a newer connection (another tab or device)".into(),
                details: None,
            };
            // Queued before the close, which flushes it; a full queue closes it without.
            let _ = old.tx.try_send(Out::Text(encode(&told)));
            old.closer.notify_one();
        }
        let v = self.versions[i];
        let ring = &self.ring[i];
        let covered = since == v
            || (since > 0
                && since < v
                && ring.front().is_some_and(|(first, _)| *first <= since + 1));
        if covered {
            self.reply(seat, &ServerMsg::Welcome { v, seat });
            let missed: Vec<Utf8Bytes> = self.ring[i]
                .iter()
                .filter(|(ver, _)| *ver > since)
                .map(|(_, t)| t.clone())
                .collect();
            for text in missed {
                self.send_text(seat, text);
            }
        } else {
            let room = self.sync(seat, now);
            self.reply(seat, &ServerMsg::Sync { v, room });
        }
        let other = seat.other();
        self.reply(
            seat,
            &ServerMsg::Presence {
                opponent: self.presence(other),
            },
        );
        self.away_since[i] = None;
        self.offered[other.index()] = false;
        // A second tab taking the seat over changes nothing the opponent could see.
        if !was_connected {
            self.reply(
                other,
                &ServerMsg::Presence {
                    opponent: Presence::Connected,
                },
            );
        }
        if self.empty_since.take().is_some() {
            self.writes.push(Write::EmptySince {
                id: self.id.as_str().to_owned(),
                at: None,
            });
        }
        if self.offer_active(seat, now) {
            self.offered[i] = true;
            self.reply(seat, &self.cpu_offer(seat, now));
        }
        Ok(seat)
    }

    fn sync(&self, seat: Seat, now: u64) -> RoomSync<G> {
        let side = self.side_of(seat);
        let other = seat.other();
        let mut sync = RoomSync {
            seat,
            phase: PhaseId::Arranging,
            game: self.game_no,
            side,
            opponent: self.presence(other),
            you_ready: false,
            opponent_ready: false,
            setup: None,
            view: None,
            setups: None,
            legal: None,
            rematch: RematchState::default(),
            closed: None,
            cpu_offer: self.offer_active(seat, now),
            cpu_offer_after_s: self.shared.config.offer_after.as_secs(),
        };
        match &self.phase {
            Phase::Arranging { held } => {
                sync.you_ready = held[seat.index()].is_some();
                sync.opponent_ready = held[other.index()].is_some();
                sync.setup.clone_from(&held[seat.index()]);
            }
            Phase::Playing { game, .. } => {
                sync.phase = PhaseId::Playing;
                sync.view = Some(game.view(side));
                sync.legal = game.legal(side);
            }
            Phase::Finished { game, rematch } => {
                sync.phase = PhaseId::Finished;
                sync.view = Some(game.view(side));
                sync.setups = game.revealed_setups();
                sync.rematch = RematchState {
                    you: rematch[seat.index()],
                    opponent: rematch[other.index()],
                };
            }
            Phase::Closed { reason } => {
                sync.phase = PhaseId::Closed;
                sync.closed = Some(*reason);
            }
        }
        sync
    }

    fn client(&mut self, seat: Seat, msg: ClientMsg<G>, now: u64) -> Result<(), Refusal> {
        let closed = || Refusal::new(ErrorCode::RoomClosed, "the room is closed");
        // Said of the phase the room is in: a finished game had been told it "has started".
        let not_arranging = |phase: &Phase<G>| match phase {
            Phase::Closed { .. } => closed(),
            Phase::Finished { .. } => Refusal::new(
                ErrorCode::NotArranging,
                "the game is over; arranging comes with a rematch",
            ),
            _ => Refusal::new(ErrorCode::NotArranging, "the game has already started"),
        };
        match msg {
            ClientMsg::Hello { .. } => Err(Refusal::new(
                ErrorCode::AlreadyAuthenticated,
                "this connection already holds a seat",
            )),
            ClientMsg::Ping {} => {
                self.reply(seat, &ServerMsg::Pong);
                Ok(())
            }
            ClientMsg::Sync {} => {
                let room = self.sync(seat, now);
                let v = self.versions[seat.index()];
                self.reply(seat, &ServerMsg::Sync { v, room });
                Ok(())
            }
            ClientMsg::Arrange { setup } => {
                let side = self.side_of(seat);
                let Phase::Arranging { held } = &mut self.phase else {
                    return Err(not_arranging(&self.phase));
                };
                held[seat.index()] = Some(G::validate(side, &setup)?);
                self.set_ready(seat, true);
                self.maybe_start();
                self.push_snapshot();
                Ok(())
            }
            ClientMsg::Unarrange {} => {
                let Phase::Arranging { held } = &mut self.phase else {
                    return Err(not_arranging(&self.phase));
                };
                // Nothing confirmed, nothing to withdraw: the friend is told nothing.
                if held[seat.index()].take().is_none() {
                    return Ok(());
                }
                self.set_ready(seat, false);
                self.push_snapshot();
                Ok(())
            }
            ClientMsg::Move { mv, v } => self.play(seat, mv, v),
            ClientMsg::Resign {} => {
                let side = self.side_of(seat);
                match &mut self.phase {
                    Phase::Playing { game, .. } => game.resign(side)?,
                    Phase::Closed { .. } => return Err(closed()),
                    _ => {
                        return Err(Refusal::new(
                            ErrorCode::NotPlaying,
                            "no game is being played",
                        ));
                    }
                }
                self.end_game();
                Ok(())
            }
            ClientMsg::Rematch {} => self.rematch(seat),
            ClientMsg::Abandon {} => {
                if matches!(self.phase, Phase::Closed { .. }) {
                    return Err(closed());
                }
                // The host still waiting for a friend may give up on the room too, so the link
                // they shared stops leading to a game nobody will play.
                let never_joined = seat == Seat::Host && !self.seated(Seat::Guest);
                if !never_joined && !self.offer_active(seat, now) {
                    return Err(Refusal::new(
                        ErrorCode::NotOffered,
                        "the opponent has not been away long enough",
                    ));
                }
                self.phase = Phase::Closed {
                    reason: CloseReason::Abandoned,
                };
                for s in Seat::ALL {
                    self.emit(s, |v| ServerMsg::Closed {
                        v,
                        reason: CloseReason::Abandoned,
                    });
                }
                tracing::info!(room = self.id.short(), "rooms: abandoned for the CPU");
                self.push_snapshot();
                Ok(())
            }
        }
    }

    fn set_ready(&mut self, seat: Seat, ready: bool) {
        self.emit(seat, |v| ServerMsg::Ready {
            v,
            who: Who::You,
            ready,
        });
        self.emit(seat.other(), |v| ServerMsg::Ready {
            v,
            who: Who::Opponent,
            ready,
        });
    }

    /// Starts the game if both seats hold a set-up. (Events were already emitted for the
    /// set-up, so a failure here is logged, not refused: the room stays arranging.)
    fn maybe_start(&mut self) {
        let Phase::Arranging { held } = &self.phase else {
            return;
        };
        let (Some(h), Some(g)) = (&held[0], &held[1]) else {
            return;
        };
        let (sente, gote) = if G::deployment_side(h) == Side::Sente {
            (h.clone(), g.clone())
        } else {
            (g.clone(), h.clone())
        };
        let deployments = BySide { sente, gote };
        let game = match G::start(deployments.clone()) {
            Ok(game) => game,
            Err(r) => {
                tracing::error!(
                    room = self.id.short(),
                    error = r.message,
                    "rooms: could not start"
                );
                return;
            }
        };
        self.started_with = Some(deployments);
        self.phase = Phase::Playing { game, plies: 0 };
        for seat in Seat::ALL {
            let side = self.side_of(seat);
            let game_no = self.game_no;
            let Phase::Playing { game, .. } = &self.phase else {
                break;
            };
            let (view, legal) = (game.view(side), game.legal(side));
            self.emit(seat, |v| ServerMsg::Started {
                v,
                game: game_no,
                side,
                view,
                legal,
            });
        }
        tracing::info!(
            room = self.id.short(),
            game = self.game_no,
            "rooms: game started"
        );
    }

    fn play(&mut self, seat: Seat, mv: G::Move, v: u64) -> Result<(), Refusal> {
        let side = self.side_of(seat);
        let sides = Seat::ALL.map(|s| self.side_of(s));
        let current = self.versions[seat.index()];
        let Phase::Playing { game, plies } = &mut self.phase else {
            return Err(match self.phase {
                Phase::Closed { .. } => Refusal::new(ErrorCode::RoomClosed, "the room is closed"),
                _ => Refusal::new(ErrorCode::NotPlaying, "no game is being played"),
            });
        };
        if game.to_move() != side {
            return Err(Refusal::new(
                ErrorCode::NotYourTurn,
                "it is the opponent's turn",
            ));
        }
        if v != current {
            return Err(Refusal {
                code: ErrorCode::StaleVersion,
                message: format!("you hold version {v}, the latest is {current}: sync first"),
                details: Some(serde_json::json!({ "v": current })),
            });
        }
        let ply = game.play(mv)?;
        let index = *plies;
        *plies += 1;
        let to_move = game.to_move();
        let over = game.is_over();
        let parts = sides.map(|side| (ply.clone(), game.status(), game.legal(side)));
        for (seat, (ply, status, legal)) in Seat::ALL.into_iter().zip(parts) {
            self.emit(seat, |v| ServerMsg::Moved {
                v,
                ply,
                to_move,
                status,
                legal,
            });
        }
        match serde_json::to_string(&mv) {
            Ok(mv) => self.writes.push(Write::Ply {
                id: self.id.as_str().to_owned(),
                game_no: self.game_no,
                index,
                mv,
            }),
            Err(e) => tracing::error!(error = %e, "rooms: a move did not serialize"),
        }
        if over {
            self.end_game();
        }
        Ok(())
    }

    fn end_game(&mut self) {
        let setups = match &self.phase {
            Phase::Playing { game, .. } | Phase::Finished { game, .. } => game.revealed_setups(),
            _ => None,
        };
        let Some(setups) = setups else {
            tracing::error!("rooms: asked to end a game that is not over");
            return;
        };
        let phase = std::mem::replace(
            &mut self.phase,
            Phase::Closed {
                reason: CloseReason::Expired,
            },
        );
        let game = match phase {
            Phase::Playing { game, .. } | Phase::Finished { game, .. } => game,
            other => {
                self.phase = other;
                return;
            }
        };
        for seat in Seat::ALL {
            let side = self.side_of(seat);
            let (status, view, setups) = (game.status(), game.view(side), setups.clone());
            self.emit(seat, |v| ServerMsg::Ended {
                v,
                status,
                view,
                setups,
            });
        }
        match serde_json::to_string(&game.record()) {
            Ok(record) => self.writes.push(Write::Record {
                id: self.id.as_str().to_owned(),
                game_no: self.game_no,
                record,
            }),
            Err(e) => tracing::error!(error = %e, "rooms: a record did not serialize"),
        }
        self.phase = Phase::Finished {
            game,
            rematch: [false, false],
        };
        tracing::info!(
            room = self.id.short(),
            game = self.game_no,
            "rooms: game ended"
        );
        self.push_snapshot();
    }

    fn rematch(&mut self, seat: Seat) -> Result<(), Refusal> {
        // Only a hand-edited database gets here; a wrapped number would mix two games' plies.
        let Some(next_game) = self.game_no.checked_add(1) else {
            return Err(Refusal::new(
                ErrorCode::Internal,
                "this room has no game number left",
            ));
        };
        let Phase::Finished { rematch, .. } = &mut self.phase else {
            return Err(match self.phase {
                Phase::Closed { .. } => Refusal::new(ErrorCode::RoomClosed, "the room is closed"),
                _ => Refusal::new(ErrorCode::NotFinished, "the game has not ended"),
            });
        };
        if rematch[seat.index()] {
            return Ok(());
        }
        rematch[seat.index()] = true;
        if rematch.iter().all(|r| *r) {
            self.game_no = next_game;
            self.host_side = self.host_side.opponent();
            self.started_with = None;
            self.phase = Phase::Arranging { held: [None, None] };
            for s in Seat::ALL {
                let (game, side) = (self.game_no, self.side_of(s));
                self.emit(s, |v| ServerMsg::Arranging { v, game, side });
            }
        } else {
            self.emit(seat, |v| ServerMsg::Rematch { v, who: Who::You });
            self.emit(seat.other(), |v| ServerMsg::Rematch {
                v,
                who: Who::Opponent,
            });
        }
        self.push_snapshot();
        Ok(())
    }

    async fn tick(&mut self, now: u64) -> bool {
        if self.expired(now) {
            for s in Seat::ALL {
                self.emit(s, |v| ServerMsg::Closed {
                    v,
                    reason: CloseReason::Expired,
                });
            }
            self.writes.push(Write::Delete {
                id: self.id.as_str().to_owned(),
            });
            self.commit().await;
            self.leave_memory();
            tracing::info!(room = self.id.short(), "rooms: expired");
            return false;
        }
        for seat in Seat::ALL {
            if !self.offered[seat.index()]
                && self.conns[seat.index()].is_some()
                && self.offer_active(seat, now)
            {
                self.offered[seat.index()] = true;
                self.reply(seat, &self.cpu_offer(seat, now));
            }
        }
        self.commit().await
    }
}
