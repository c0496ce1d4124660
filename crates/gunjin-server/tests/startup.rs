//! How the server binary starts, or refuses to, and what it does with a slow client.
#![allow(clippy::unwrap_used)]

use std::process::Command;

#[test]
fn a_page_folder_without_the_page_is_refused_at_once() {
    let out = Command::new(env!("CARGO_BIN_EXE_gunjin-server"))
        .args([
            "--addr",
            "127.0.0.1:0",
            "--web-dir",
            "/nonexistent/gunjin-page",
            "--db",
        ])
        .arg(std::env::temp_dir().join("gunjin-startup-never-opened.sqlite3"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("--web-dir /nonexistent/gunjin-page: no index.html"),
        "{said}"
    );
}

/// A server on a free port with a header timeout of `secs`; its address.
fn spawn_with_header_timeout(secs: &str, db: &std::path::Path) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_gunjin-server"))
        .args(["--addr", "127.0.0.1:0", "--header-timeout", secs, "--db"])
        .arg(db)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let addr = std::io::BufReader::new(stdout)
        .lines()
        .find_map(|line| {
            let line = line.ok()?;
            Some(
                line.strip_prefix("listening on http://")?
                    .trim_end_matches('/')
                    .to_owned(),
            )
        })
        .expect("the server said where it listens");
    (child, addr)
}

#[test]
fn a_connection_that_sends_half_a_request_or_nothing_is_closed() {
    use std::io::{Read, Write};
    let db = std::env::temp_dir().join(format!(
        "gunjin-header-timeout-{}.sqlite3",
        std::process::id()
    ));
    let (mut child, addr) = spawn_with_header_timeout("1", &db);
    let mut half = std::net::TcpStream::connect(&addr).unwrap();
    half.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    let mut silent = std::net::TcpStream::connect(&addr).unwrap();
    for stream in [&mut half, &mut silent] {
        // Closed by the server (end of stream, or a 408), well before this read gives up.
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(20)))
            .unwrap();
        let mut got = Vec::new();
        let read = stream.read_to_end(&mut got);
        assert!(read.is_ok(), "the connection stayed open: {read:?}");
    }
    // A whole request is answered as ever.
    let mut whole = std::net::TcpStream::connect(&addr).unwrap();
    whole
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    whole.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    child.kill().unwrap();
    let _ = child.wait();
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}
