//! Serves the app over HTTP/1.1 as `axum::serve` does, with the one limit it leaves out: a
//! connection has `header_read` to send a request's head, or it is closed. `axum::serve` sets no
//! timer, so hyper's own header timeout never ran, and a client sending half a request (or
//! nothing) held its connection, and a file handle, for ever.

use std::future::Future;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};
use tower::ServiceExt;

/// Accepts connections until `stop` resolves, then lets each finish the request it is answering
/// and returns once all have (the rooms' upgraded sockets are no longer connections here).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    header_read: Duration,
    stop: impl Future<Output = ()>,
) {
    let (stopping_tx, stopping) = watch::channel(false);
    // Each connection holds a sender; once all are dropped, `recv` says every one has ended.
    let (alive, mut all_ended) = mpsc::channel::<()>(1);
    let mut stop = std::pin::pin!(stop);
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of file handles, say: the next accept may work once some close.
                    tracing::warn!(error = %e, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        // Small WebSocket frames must leave at once (Nagle's delay would add tens of ms per move).
        let _ = tcp.set_nodelay(true);
        // The client's address, as `axum::serve` with connect info gives it: rooms are created
        // within a limit per address.
        let service =
            TowerToHyperService::new(app.clone().map_request(move |req: Request<Incoming>| {
                let mut req = req.map(Body::new);
                req.extensions_mut().insert(ConnectInfo(peer));
                req
            }));
        let mut stopping = stopping.clone();
        let alive = alive.clone();
        tokio::spawn(async move {
            let _alive = alive;
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_read);
            let conn = builder
                .serve_connection(TokioIo::new(tcp), service)
                .with_upgrades();
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => return,
                _ = stopping.wait_for(|stop| *stop) => conn.as_mut().graceful_shutdown(),
            }
            let _ = conn.await;
        });
    }
    let _ = stopping_tx.send(true);
    drop(alive);
    let _ = all_ended.recv().await;
}
