//! `gunjin-server [--addr HOST:PORT] [--web-dir DIR] [--db FILE]`: serves the page (embedded in
//! the binary when built with the `embed` feature, else from `--web-dir`), `/healthz`, and the
//! online rooms (`/api/rooms…`, `/ws/rooms/{id}`) stored in the SQLite file `--db`.
//!
//! Prints `listening on http://HOST:PORT/` once the socket is bound (port 0 picks a free port,
//! which the tests use). Stops on Ctrl-C or SIGTERM: no new requests, the last ones answered,
//! then every room socket closed as "going away" (1001) so the pages reconnect to the next server.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use gunjin_server::rooms;
use gunjin_server::serve;
use gunjin_server::web::{self, WebSource};

const USAGE: &str = "usage: gunjin-server [--addr HOST:PORT] [--web-dir DIR] [--db FILE] \
                     [--cpu-offer-after SECONDS] [--header-timeout SECONDS] [--behind-proxy]";

/// How long a connection has to send a request's head (the default of `--header-timeout`).
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug)]
struct Args {
    addr: SocketAddr,
    web_dir: Option<PathBuf>,
    db: PathBuf,
    /// How long an opponent must be away before the CPU offer (default: the rooms' own).
    cpu_offer_after: Option<Duration>,
    /// How long a connection has to send a request's head before it is closed.
    header_timeout: Duration,
    /// A reverse proxy in front sets `X-Forwarded-For`: clients are told apart by it.
    behind_proxy: bool,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut addr = "127.0.0.1:8080".to_owned();
    let mut web_dir = None;
    let mut db = PathBuf::from("gunjin-rooms.sqlite3");
    let mut cpu_offer_after = None;
    let mut header_timeout = HEADER_TIMEOUT;
    let mut behind_proxy = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--addr" => addr = args.next().ok_or("--addr needs HOST:PORT")?,
            "--web-dir" => web_dir = Some(PathBuf::from(args.next().ok_or("--web-dir needs DIR")?)),
            "--db" => db = PathBuf::from(args.next().ok_or("--db needs FILE")?),
            "--cpu-offer-after" => cpu_offer_after = Some(seconds(&arg, args.next())?),
            "--header-timeout" => header_timeout = seconds(&arg, args.next())?,
            "--behind-proxy" => behind_proxy = true,
            "-h" | "--help" => return Err(USAGE.to_owned()),
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    let addr = addr.parse().map_err(|e| format!("--addr {addr:?}: {e}"))?;
    Ok(Args {
        addr,
        web_dir,
        db,
        cpu_offer_after,
        header_timeout,
        behind_proxy,
    })
}

/// The value of `flag`: a whole number of seconds, at least 1.
fn seconds(flag: &str, value: Option<String>) -> Result<Duration, String> {
    let secs = value.ok_or_else(|| format!("{flag} needs SECONDS"))?;
    match secs.parse::<u64>() {
        Ok(n) if n > 0 => Ok(Duration::from_secs(n)),
        _ => Err(format!(
            "{flag} {secs:?}: a whole number of seconds, at least 1"
        )),
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    // Operational logs go to stderr; stdout carries only the "listening on" line tests read.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(tracing::Level::INFO)
        .with_ansi(false)
        .init();
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let source = match args.web_dir {
        // A folder without the page would serve nothing but /healthz, which says all is well.
        Some(dir) if !dir.join("index.html").is_file() => {
            eprintln!(
                "--web-dir {}: no index.html there (build the page first)",
                dir.display()
            );
            return ExitCode::FAILURE;
        }
        Some(dir) => WebSource::Dir(dir),
        None if web::has_embedded_page() => WebSource::Embedded,
        None => {
            eprintln!(
                "warning: built without the embedded page and no --web-dir given; \
                 only /healthz will answer"
            );
            WebSource::Embedded
        }
    };
    let mut config = rooms::RoomsConfig::new(&args.db);
    if let Some(after) = args.cpu_offer_after {
        config.offer_after = after;
    }
    config.trust_forwarded_for = args.behind_proxy;
    let rooms = match rooms::RoomsState::<rooms::Gunjin>::open(config) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("cannot open the rooms database {}: {e}", args.db.display());
            return ExitCode::FAILURE;
        }
    };
    let app = web::router(source).merge(rooms::router(rooms.clone()));
    let listener = match tokio::net::TcpListener::bind(args.addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("cannot listen on {}: {e}", args.addr);
            return ExitCode::FAILURE;
        }
    };
    match listener.local_addr() {
        Ok(bound) => println!("listening on http://{bound}/"),
        Err(e) => eprintln!("bound, but the address is unknown: {e}"),
    }
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        stop_requested().await;
        let _ = stop_tx.send(true);
    });
    let stopped = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|stop| *stop).await;
    };
    let serving = serve::serve(listener, app, args.header_timeout, stopped(stop_rx.clone()));
    // A request that never finishes arriving (a client that sent half its headers) would hold the
    // stop for ever, and the rooms' sockets would not be told to go away before a service manager
    // kills the process: the requests in flight get a few seconds, no more.
    let late = async {
        stopped(stop_rx).await;
        tokio::time::sleep(REQUESTS_FINISH_WITHIN).await;
    };
    tokio::select! {
        () = serving => {}
        () = late => tracing::warn!("stopping: some requests were unfinished; they are dropped"),
    }
    // No new requests now, and the last ones have been answered; the rooms' sockets outlive
    // them, so they are told to go away, and the pages reconnect to the next server.
    if !rooms.go_away(SOCKETS_CLOSE_WITHIN).await {
        tracing::warn!("stopping: some sockets did not close in time");
    }
    tracing::info!("stopped");
    ExitCode::SUCCESS
}

/// How long a stopping server waits for the requests in flight to be answered.
const REQUESTS_FINISH_WITHIN: Duration = Duration::from_secs(3);

/// How long a stopping server waits for the rooms' sockets to close.
const SOCKETS_CLOSE_WITHIN: Duration = Duration::from_secs(5);

/// Ctrl-C, or SIGTERM (how service managers and container runtimes stop a process).
async fn stop_requested() {
    let interrupt = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::error!(error = %e, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut term) => {
                term.recv().await;
            }
            Err(e) => {
                tracing::error!(error = %e, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
    tracing::info!("stopping: no new requests; closing the rooms' sockets");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Args, String> {
        parse_args(args.iter().map(|a| (*a).to_owned()))
    }

    #[test]
    fn the_cpu_offer_delay_is_whole_seconds_from_one() {
        assert_eq!(parse(&[]).map(|a| a.cpu_offer_after), Ok(None));
        assert_eq!(
            parse(&["--cpu-offer-after", "3"]).map(|a| a.cpu_offer_after),
            Ok(Some(Duration::from_secs(3)))
        );
        for bad in [
            &["--cpu-offer-after", "0"][..],
            &["--cpu-offer-after", "soon"],
            &["--cpu-offer-after"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_header_timeout_is_whole_seconds_from_one() {
        assert_eq!(parse(&[]).map(|a| a.header_timeout), Ok(HEADER_TIMEOUT));
        assert_eq!(
            parse(&["--header-timeout", "2"]).map(|a| a.header_timeout),
            Ok(Duration::from_secs(2))
        );
        assert!(parse(&["--header-timeout", "0"]).is_err());
    }

    #[test]
    fn behind_a_proxy_only_when_told() {
        assert_eq!(parse(&[]).map(|a| a.behind_proxy), Ok(false));
        assert_eq!(parse(&["--behind-proxy"]).map(|a| a.behind_proxy), Ok(true));
    }
}
