//! How the server binary starts, or refuses to.

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
