//! The edge: HTTP endpoints to create, inspect and join rooms, and the WebSocket each seat
//! plays through. Frames are checked (origin, size, rate) and parsed here, once; rooms only see
//! typed messages.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{ConnectInfo, Path, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{Extension, Router};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{Notify, mpsc, oneshot};

use super::game::RefereeGame;
use super::ids::RoomId;
use super::protocol::{ClientMsg, ErrorCode, Seat, ServerMsg, parse_client};
use super::rate::{Admission, MessageRate};
use super::room::{Cmd, ConnHandle, Out, encode};
use super::{RoomError, RoomsConfig, RoomsState};

/// The room routes, ready to merge into the server's router:
///
/// - `POST /api/rooms` → `201 {"room","seat":"host","token"}`
/// - `GET /api/rooms/{id}` → `{"room","state":"open"|"full"|"closed"}`
/// - `POST /api/rooms/{id}/join` → `{"room","seat":"guest","token"}`
/// - `GET /ws/rooms/{id}` → the WebSocket (see `docs/protocol.md`)
pub fn router<G: RefereeGame>(state: RoomsState<G>) -> Router {
    Router::new()
        .route("/api/rooms", post(create::<G>).fallback(wrong_method))
        .route("/api/rooms/{id}", get(info::<G>).fallback(wrong_method))
        .route(
            "/api/rooms/{id}/join",
            post(join::<G>).fallback(wrong_method),
        )
        .route("/ws/rooms/{id}", get(socket::<G>))
        // The API answers in JSON everywhere, not with the page's fallback (`/api/{*rest}` does
        // not match an empty rest: `/api` and `/api/` are named on their own).
        .route("/api", any(no_endpoint))
        .route("/api/", any(no_endpoint))
        .route("/api/{*rest}", any(no_endpoint))
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            same_origin::<G>,
        ))
        .layer(middleware::map_response(never_stored))
        .with_state(state)
}

/// A room's answers are of the moment, and a seat's carries its secret token: no cache (a
/// browser's, a proxy's) keeps them.
async fn never_stored(mut response: Response) -> Response {
    response.headers_mut().insert(
        axum::http::header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    response
}

/// Turns a request from a page of a foreign origin away before any room route sees it.
async fn same_origin<G: RefereeGame>(
    State(state): State<RoomsState<G>>,
    request: Request,
    next: Next,
) -> Response {
    if origin_allowed(state.config(), request.headers()) {
        next.run(request).await
    } else {
        forbidden()
    }
}

async fn wrong_method() -> Response {
    http_error(
        ErrorCode::MethodNotAllowed,
        "this endpoint does not take that method",
    )
}

async fn no_endpoint() -> Response {
    http_error(ErrorCode::NotFound, "no such endpoint")
}

fn http_error(code: ErrorCode, message: &str) -> Response {
    let status = StatusCode::from_u16(code.http_status()).unwrap_or(StatusCode::BAD_REQUEST);
    let body = serde_json::json!({ "error": { "code": code, "message": message } });
    (status, axum::Json(body)).into_response()
}

/// The answer to a request a room could not serve. `per_minute` is the limit that applies to
/// the request when it is refused as too many: its `Retry-After` is the time the limit takes to
/// allow one more.
fn room_error(RoomError(code): RoomError, per_minute: u32) -> Response {
    let message = match code {
        ErrorCode::NoRoom => "no such room (it may have expired)",
        ErrorCode::RoomFull => "both seats of this room are taken",
        ErrorCode::RoomClosed => "this room is closed",
        ErrorCode::RateLimited => "too many requests; try again shortly",
        _ => "the server failed",
    };
    let mut response = http_error(code, message);
    if code == ErrorCode::RateLimited {
        let seconds = 60_u32.div_ceil(per_minute.max(1)).max(1);
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, axum::http::HeaderValue::from(seconds));
    }
    response
}

/// The client's address as [`client_address`] finds it in a request.
fn requester(
    config: &RoomsConfig,
    headers: &HeaderMap,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
) -> Option<IpAddr> {
    let peer = peer.map(|Extension(ConnectInfo(addr))| addr.ip());
    client_address(config, headers, peer)
}

/// Whether a browser page of this origin may use the room API.
fn origin_allowed(config: &RoomsConfig, headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    if !config.allowed_origins.is_empty() {
        return config.allowed_origins.iter().any(|o| o == origin);
    }
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let authority = origin.split_once("://").map(|(_, rest)| rest);
    matches!((authority, host), (Some(a), Some(h)) if a.eq_ignore_ascii_case(h))
}

/// Who is asking: the peer, or behind a trusted proxy the last address of `X-Forwarded-For`
/// (the one the proxy saw; earlier entries are the client's own say). `None` when neither is
/// known (a router served without connect info): only the server-wide limits apply then.
fn client_address(
    config: &RoomsConfig,
    headers: &HeaderMap,
    peer: Option<IpAddr>,
) -> Option<IpAddr> {
    if config.trust_forwarded_for {
        let last = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .rfind(|v| !v.is_empty());
        if let Some(address) = last.and_then(|v| v.parse::<IpAddr>().ok()) {
            return Some(address);
        }
    }
    peer
}

fn forbidden() -> Response {
    http_error(
        ErrorCode::ForbiddenOrigin,
        "requests from this origin are not allowed",
    )
}

async fn create<G: RefereeGame>(
    State(state): State<RoomsState<G>>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
) -> Response {
    let from = requester(state.config(), &headers, peer);
    match state.create_for(from).await {
        Ok((id, token)) => (
            StatusCode::CREATED,
            axum::Json(serde_json::json!({
                "room": id.as_str(), "seat": Seat::Host, "token": token.expose()
            })),
        )
            .into_response(),
        Err(e) => room_error(e, state.config().creations_per_address_per_min),
    }
}

async fn info<G: RefereeGame>(
    State(state): State<RoomsState<G>>,
    Path(id): Path<String>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
) -> Response {
    let misses = state.config().lookup_misses_per_address_per_min;
    let Some(id) = RoomId::parse(&id) else {
        return room_error(RoomError(ErrorCode::NoRoom), misses);
    };
    let from = requester(state.config(), &headers, peer);
    match state.info_from(&id, from).await {
        Ok(info) => {
            axum::Json(serde_json::json!({ "room": id.as_str(), "state": info })).into_response()
        }
        Err(e) => room_error(e, misses),
    }
}

async fn join<G: RefereeGame>(
    State(state): State<RoomsState<G>>,
    Path(id): Path<String>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
) -> Response {
    let misses = state.config().lookup_misses_per_address_per_min;
    let Some(id) = RoomId::parse(&id) else {
        return room_error(RoomError(ErrorCode::NoRoom), misses);
    };
    let from = requester(state.config(), &headers, peer);
    match state.join_from(&id, from).await {
        Ok(token) => axum::Json(serde_json::json!({
            "room": id.as_str(), "seat": Seat::Guest, "token": token.expose()
        }))
        .into_response(),
        Err(e) => room_error(e, misses),
    }
}

async fn socket<G: RefereeGame>(
    State(state): State<RoomsState<G>>,
    Path(id): Path<String>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let from = requester(state.config(), &headers, peer);
    let max = state.config().max_frame;
    // Small buffers: messages are short, and thousands of sockets stay open.
    ws.max_message_size(max)
        .max_frame_size(max)
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .on_upgrade(move |socket| {
            let visit = Visit {
                room: RoomId::parse(&id),
                from,
            };
            connection(state, visit, socket)
        })
}

/// Why a `hello` was turned away, in words that fit its code.
fn attach_refusal(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::RateLimited => {
            "too many messages from this seat; say hello again once the rate falls"
        }
        ErrorCode::Internal => "the room could not be stored; connect again",
        _ => "this token holds no seat in this room",
    }
}

/// An error told at the socket's edge: the room's own error message, so a client comparing
/// frames finds one shape (keys `t`, `code`, `message`).
fn error_text<G: RefereeGame>(code: ErrorCode, message: &str) -> Utf8Bytes {
    encode(&ServerMsg::<G>::Error {
        code,
        message: message.to_owned(),
        details: None,
    })
}

type Auth<G> = Option<(mpsc::Sender<Cmd<G>>, Seat)>;

/// Which room a socket was opened for (`None`: a malformed id) and by whom.
struct Visit {
    room: Option<RoomId>,
    from: Option<IpAddr>,
}

async fn connection<G: RefereeGame>(state: RoomsState<G>, visit: Visit, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Out>(state.config().conn_queue);
    let closer = Arc::new(Notify::new());
    let conn_id = state.shared.next_conn.fetch_add(1, Ordering::Relaxed);
    // Subscribed before anything else, so a server stopping now waits for this connection too.
    let mut going_away = state.shared.going_away.subscribe();
    let ping_every = state.config().ping_every;
    let writer = async move {
        let mut ping =
            tokio::time::interval_at(tokio::time::Instant::now() + ping_every, ping_every);
        ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let out = tokio::select! {
                out = rx.recv() => out,
                _ = ping.tick() => {
                    if sink.send(Message::Ping(Default::default())).await.is_err() {
                        return;
                    }
                    continue;
                }
            };
            let Some(out) = out else { break };
            let sent = match out {
                Out::Text(text) => sink.send(Message::Text(text)).await,
                Out::GoingAway => {
                    let frame = CloseFrame {
                        code: close_code::AWAY,
                        reason: Utf8Bytes::from_static("the server is restarting"),
                    };
                    let _ = sink.send(Message::Close(Some(frame))).await;
                    return;
                }
            };
            if sent.is_err() {
                return;
            }
        }
        let _ = sink.close().await;
    };
    let mut writer = std::pin::pin!(writer);
    let mut auth: Auth<G> = None;
    let (writer_done, server_stopping) = {
        let reader = read_loop(&state, visit, &tx, conn_id, &closer, &mut stream, &mut auth);
        tokio::select! {
            () = &mut writer => (true, false),
            () = reader => (false, false),
            _ = going_away.wait_for(|away| *away) => (false, true),
        }
    };
    if let Some((room, seat)) = auth {
        let _ = room
            .send(Cmd::Detach {
                seat,
                conn: conn_id,
            })
            .await;
    }
    if server_stopping {
        let _ = tx.try_send(Out::GoingAway);
    }
    drop(tx);
    if !writer_done {
        // Flush what is queued (a last error, say), then close.
        let _ = tokio::time::timeout(Duration::from_secs(2), writer).await;
    }
}

async fn read_loop<G: RefereeGame>(
    state: &RoomsState<G>,
    visit: Visit,
    tx: &mpsc::Sender<Out>,
    conn_id: u64,
    closer: &Arc<Notify>,
    stream: &mut futures_util::stream::SplitStream<WebSocket>,
    auth: &mut Auth<G>,
) {
    let config = state.config();
    // The reader does not yield while frames are waiting: see `MessageRate` on answering only
    // the first message dropped in a run.
    let mut rate = MessageRate::new(config.rate_burst, config.rate_per_sec, Instant::now());
    let hello_deadline = tokio::time::Instant::now() + config.hello_timeout;
    let mut heard = tokio::time::Instant::now();
    let say = |code: ErrorCode, message: &str| {
        let _ = tx.try_send(Out::Text(error_text::<G>(code, message)));
    };
    loop {
        let next = tokio::select! {
            () = closer.notified() => return,
            () = tokio::time::sleep_until(hello_deadline), if auth.is_none() => {
                say(ErrorCode::NotAuthenticated, "no hello in time");
                return;
            }
            () = tokio::time::sleep_until(heard + config.silence_limit) => {
                tracing::info!(conn = conn_id, "rooms: dropping a silent connection");
                return;
            }
            m = stream.next() => m,
        };
        heard = tokio::time::Instant::now();
        let Some(Ok(frame)) = next else {
            return;
        };
        if matches!(frame, Message::Close(_)) {
            return;
        }
        if matches!(frame, Message::Ping(_) | Message::Pong(_)) {
            continue;
        }
        // Every message a client sends counts towards its rate, binary ones too: each is
        // answered.
        match rate.admit(Instant::now()) {
            Admission::Admitted => {}
            Admission::DroppedFirst => {
                say(
                    ErrorCode::RateLimited,
                    "too many messages; this one and any more until the rate falls are dropped",
                );
                continue;
            }
            Admission::Dropped => continue,
        }
        let Message::Text(text) = frame else {
            say(ErrorCode::BadJson, "frames must be JSON text");
            continue;
        };
        if text.as_str().len() > config.max_message {
            say(ErrorCode::TooLarge, "the message is too long");
            continue;
        }
        let msg = match parse_client::<G>(text.as_str()) {
            Ok(msg) => msg,
            Err((code, message)) => {
                say(code, &message);
                continue;
            }
        };
        match (auth.as_ref(), msg) {
            (None, ClientMsg::Hello { token, since }) => {
                let Some(id) = &visit.room else {
                    say(ErrorCode::NoRoom, "no such room");
                    continue;
                };
                let room = match state.room(id, visit.from).await {
                    Ok(room) => room,
                    Err(RoomError(ErrorCode::RateLimited)) => {
                        say(
                            ErrorCode::RateLimited,
                            "too many rooms that do not exist were asked for; try again shortly",
                        );
                        continue;
                    }
                    Err(RoomError(code)) => {
                        say(code, "no such room (it may have expired)");
                        continue;
                    }
                };
                let (reply, answer) = oneshot::channel();
                let conn = ConnHandle {
                    id: conn_id,
                    tx: tx.clone(),
                    closer: Arc::clone(closer),
                };
                let cmd = Cmd::Attach {
                    token,
                    since,
                    conn,
                    reply,
                };
                if room.send(cmd).await.is_err() {
                    say(ErrorCode::NoRoom, "the room is gone");
                    continue;
                }
                match answer.await {
                    Ok(Ok(seat)) => *auth = Some((room, seat)),
                    Ok(Err(code)) => say(code, attach_refusal(code)),
                    Err(_) => say(ErrorCode::NoRoom, "the room is gone"),
                }
            }
            (None, _) => say(ErrorCode::NotAuthenticated, "send hello first"),
            (Some((room, seat)), msg) => {
                let cmd = Cmd::Client {
                    seat: *seat,
                    conn: conn_id,
                    msg,
                };
                if room.send(cmd).await.is_err() {
                    say(ErrorCode::NoRoom, "the room is gone");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_hello_says_why_in_words_that_fit_its_code() {
        assert!(attach_refusal(ErrorCode::RateLimited).contains("too many messages"));
        assert!(attach_refusal(ErrorCode::Internal).contains("could not be stored"));
        assert!(attach_refusal(ErrorCode::BadToken).contains("no seat"));
    }

    #[test]
    fn an_error_at_the_sockets_edge_has_the_rooms_key_order() {
        assert_eq!(
            error_text::<crate::rooms::game::Gunjin>(
                ErrorCode::BadJson,
                "frames must be JSON text"
            )
            .as_str(),
            r#"{"t":"error","code":"bad_json","message":"frames must be JSON text"}"#
        );
        let room: super::super::protocol::ServerMsg<crate::rooms::game::Gunjin> =
            super::super::protocol::ServerMsg::Error {
                code: ErrorCode::NotYourTurn,
                message: "wait".into(),
                details: None,
            };
        assert_eq!(
            serde_json::to_string(&room).unwrap_or_default(),
            r#"{"t":"error","code":"not_your_turn","message":"wait"}"#
        );
    }

    fn headers(forwarded: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in forwarded {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    }

    #[test]
    fn the_forwarded_address_counts_only_behind_a_trusted_proxy() {
        let peer: IpAddr = "10.0.0.2".parse().unwrap();
        let mut config = RoomsConfig::new("unused.sqlite3");
        let sent = headers(&["198.51.100.9, 203.0.113.5"]);
        assert_eq!(client_address(&config, &sent, Some(peer)), Some(peer));
        config.trust_forwarded_for = true;
        // The last entry is the one the proxy saw; the first is whatever the client wrote.
        assert_eq!(
            client_address(&config, &sent, Some(peer)),
            "203.0.113.5".parse().ok()
        );
        let two = headers(&["198.51.100.9", "2001:db8::7"]);
        assert_eq!(
            client_address(&config, &two, Some(peer)),
            "2001:db8::7".parse().ok()
        );
        // Nothing usable there: the peer.
        for bad in [&[][..], &["unknown"], &["203.0.113.5, "], &[" , "]] {
            let expected = if bad == ["203.0.113.5, "] {
                "203.0.113.5".parse().ok()
            } else {
                Some(peer)
            };
            assert_eq!(
                client_address(&config, &headers(bad), Some(peer)),
                expected,
                "{bad:?}"
            );
        }
        assert_eq!(client_address(&config, &headers(&[]), None), None);
    }
}
