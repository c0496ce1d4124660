//! Build and test orchestration.
//!
//! - `cargo xtask run [--addr 127.0.0.1:8080]`: builds the engine to WebAssembly, the page and the
//!   server (with the page embedded), starts the server and prints its URL.
//! - `cargo xtask test`: runs every test: Rust, the page's size budget (fails above it), the
//!   page's unit tests, the browser end-to-end tests in Chromium.
//!
//! Both install what is missing: the wasm32 target (rustup), the npm packages of the committed
//! lockfile (`npm ci`), and Debian's Chromium for the browser tests (`apt-get`).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const WASM_TARGET: &str = "wasm32-unknown-unknown";
const DEFAULT_ADDR: &str = "127.0.0.1:8080";
const CHROMIUM: &str = "/usr/bin/chromium";
/// Oldest binaryen whose `wasm-opt` keeps wasm-bindgen's reference-types output working.
const MIN_WASM_OPT: u32 = 117;

type Result<T> = std::result::Result<T, String>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.first().map(String::as_str) {
        Some("run") => parse_addr(&args[1..]).and_then(|addr| run(&addr)),
        Some("test") => test(),
        Some("build") => build_all().map(|_| ()),
        _ => Err(
            "usage: cargo xtask run [--addr HOST:PORT] | cargo xtask test | cargo xtask build"
                .to_owned(),
        ),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn parse_addr(args: &[String]) -> Result<String> {
    let mut addr = DEFAULT_ADDR.to_owned();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--addr" => addr = it.next().ok_or("--addr needs HOST:PORT")?.clone(),
            other => match other.strip_prefix("--addr=") {
                Some(v) => addr = v.to_owned(),
                None => return Err(format!("unknown argument {other:?}")),
            },
        }
    }
    Ok(addr)
}

fn root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .map_or(manifest.clone(), Path::to_path_buf)
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from)
}

fn web_dir() -> PathBuf {
    root().join("web")
}

fn step(name: &str) {
    println!("\n==> {name}");
}

/// Runs a command to completion; fails with its name when it fails.
fn exec(cmd: &mut Command) -> Result<()> {
    let shown = format!("{cmd:?}");
    let status = cmd
        .status()
        .map_err(|e| format!("could not start {shown}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{shown} failed ({status})"))
    }
}

fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()));
    cmd.current_dir(root());
    cmd
}

fn ensure_wasm_target() -> Result<()> {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .current_dir(root())
        .output()
        .map_err(|e| format!("rustup is needed to add the {WASM_TARGET} target: {e}"))?;
    if String::from_utf8_lossy(&installed.stdout)
        .lines()
        .any(|l| l.trim() == WASM_TARGET)
    {
        return Ok(());
    }
    step(&format!("installing the {WASM_TARGET} target"));
    exec(
        Command::new("rustup")
            .args(["target", "add", WASM_TARGET])
            .current_dir(root()),
    )
}

/// One WebAssembly build of `gunjin-wasm`: its cargo features and where its JS glue goes.
struct WasmBuild {
    what: &'static str,
    /// `--no-default-features` plus these features.
    features: &'static str,
    /// Folder under `web/src/`.
    dir: &'static str,
}

/// The page loads the engine alone (small: it is on the way to a playable board); the CPU's Web
/// Worker loads its own build with the CPU player, only when a CPU game starts.
const WASM_BUILDS: [WasmBuild; 2] = [
    WasmBuild {
        what: "the engine (page)",
        features: "",
        dir: "wasm",
    },
    WasmBuild {
        what: "the engine with the CPU (CPU worker)",
        features: "cpu",
        dir: "wasm-cpu",
    },
];

/// Builds the engine facade to wasm, twice (see [`WASM_BUILDS`]), and writes the JS glue to
/// `web/src/wasm/` and `web/src/wasm-cpu/`.
fn build_wasm() -> Result<()> {
    ensure_wasm_target()?;
    ensure_npm_packages()?; // binaryen's wasm-opt is one of them

    for build in &WASM_BUILDS {
        build_one_wasm(build)?;
    }
    Ok(())
}

fn build_one_wasm(build: &WasmBuild) -> Result<()> {
    step(&format!("building {} for WebAssembly", build.what));
    // Small and fast to download: optimized for size, whole-program (only this wasm build; the
    // workspace's release profile stays as it is).
    exec(cargo().args([
        "build",
        "--package",
        "gunjin-wasm",
        "--lib",
        "--release",
        "--target",
        WASM_TARGET,
        "--no-default-features",
        "--features",
        build.features,
        "--config",
        "profile.release.opt-level=\"s\"",
        "--config",
        "profile.release.lto=true",
        "--config",
        "profile.release.codegen-units=1",
    ]))?;
    let input = target_dir()
        .join(WASM_TARGET)
        .join("release")
        .join("gunjin_wasm.wasm");
    let out = web_dir().join("src").join(build.dir);
    step(&format!(
        "generating the wasm glue in web/src/{}",
        build.dir
    ));
    let mut bindgen = wasm_bindgen_cli_support::Bindgen::new();
    bindgen
        .input_path(&input)
        .web(true)
        .map_err(|e| format!("wasm-bindgen: {e}"))?
        .omit_default_module_path(false)
        .typescript(true);
    bindgen
        .generate(&out)
        .map_err(|e| format!("wasm-bindgen on {}: {e}", input.display()))?;
    optimize_wasm(&out.join("gunjin_wasm_bg.wasm"));
    Ok(())
}

/// The `wasm-opt` to use: the one pinned in the page's npm packages (`binaryen`), else one on
/// the `PATH`.
fn wasm_opt() -> PathBuf {
    let pinned = web_dir().join("node_modules").join(".bin").join("wasm-opt");
    if pinned.exists() {
        pinned
    } else {
        PathBuf::from("wasm-opt")
    }
}

/// The WebAssembly features Rust's wasm32 target emits, which browsers and Node have; `wasm-opt`
/// must not be allowed more (with `--all-features` it writes e.g. `stringref`, which they refuse).
const WASM_FEATURES: [&str; 6] = [
    "--enable-reference-types",
    "--enable-bulk-memory",
    "--enable-multivalue",
    "--enable-mutable-globals",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
];

/// Shrinks the wasm with `wasm-opt -Oz` (binaryen from the page's npm packages); the page works
/// without it.
fn optimize_wasm(file: &Path) {
    if std::env::var_os("GUNJIN_NO_WASM_OPT").is_some() {
        println!("(GUNJIN_NO_WASM_OPT set: keeping the unoptimized wasm)");
        return;
    }
    let tool = wasm_opt();
    let Ok(found) = Command::new(&tool).arg("--version").output() else {
        println!("(wasm-opt not found: keeping the unoptimized wasm)");
        return;
    };
    // Old binaryen (Debian's 108) mangles the reference-types table wasm-bindgen emits: the page
    // then fails to start. Only a recent one is used.
    let version = String::from_utf8_lossy(&found.stdout)
        .split_whitespace()
        .find_map(|w| w.parse::<u32>().ok())
        .unwrap_or(0);
    if !found.status.success() || version < MIN_WASM_OPT {
        println!("(wasm-opt {version} is older than {MIN_WASM_OPT}: keeping the unoptimized wasm)");
        return;
    }
    let before = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    let ok = Command::new(&tool)
        .arg("-Oz")
        .args(WASM_FEATURES)
        .arg(file)
        .arg("-o")
        .arg(file)
        .status()
        .is_ok_and(|s| s.success());
    let after = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    if ok {
        println!("wasm-opt {version}: {before} -> {after} bytes");
    } else {
        println!("(wasm-opt failed: keeping the unoptimized wasm)");
    }
}

/// `npm ci` when `node_modules` is missing or older than the lockfile.
fn ensure_npm_packages() -> Result<()> {
    let web = web_dir();
    let lock = web.join("package-lock.json");
    let installed = web.join("node_modules").join(".package-lock.json");
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let fresh = match (modified(&lock), modified(&installed)) {
        (Some(l), Some(i)) => i >= l,
        _ => false,
    };
    if fresh {
        return Ok(());
    }
    step("installing the page's npm packages (npm ci)");
    exec(
        Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&web),
    )
}

fn npx(bin: &str) -> Command {
    let mut cmd = Command::new(web_dir().join("node_modules").join(".bin").join(bin));
    cmd.current_dir(web_dir());
    cmd
}

fn build_page() -> Result<()> {
    ensure_npm_packages()?;
    step("type-checking the page");
    exec(npx("tsc").arg("--noEmit"))?;
    step("building the page (vite)");
    exec(npx("vite").args(["build", "--logLevel", "warn"]))
}

/// Builds the server with the page embedded; returns the binary.
fn build_server() -> Result<PathBuf> {
    step("building the server with the page embedded");
    exec(cargo().args([
        "build",
        "--package",
        "gunjin-server",
        "--features",
        "embed",
        "--bin",
        "gunjin-server",
    ]))?;
    Ok(target_dir()
        .join("debug")
        .join(format!("gunjin-server{}", std::env::consts::EXE_SUFFIX)))
}

fn build_all() -> Result<PathBuf> {
    build_wasm()?;
    build_page()?;
    build_server()
}

fn run(addr: &str) -> Result<()> {
    let server = build_all()?;
    step(&format!("starting the server: http://{addr}/"));
    println!("Open http://{addr}/ in a browser (Ctrl-C stops the server).");
    let db = target_dir().join("gunjin-rooms.sqlite3");
    println!("(online rooms are kept in {})", db.display());
    exec(
        Command::new(server)
            .args(["--addr", addr])
            .arg("--db")
            .arg(db),
    )
}

fn ensure_chromium() -> Result<()> {
    if Path::new(CHROMIUM).exists() {
        return Ok(());
    }
    step("installing Debian's chromium for the browser tests");
    let apt = |args: &[&str]| {
        exec(
            Command::new("apt-get")
                .args(args)
                .env("DEBIAN_FRONTEND", "noninteractive"),
        )
    };
    apt(&["update"])?;
    apt(&["install", "-y", "--no-install-recommends", "chromium"])
}

fn test() -> Result<()> {
    let mut failures = Vec::new();
    step("Rust tests (cargo test --workspace)");
    if let Err(e) = exec(cargo().args(["test", "--workspace"])) {
        failures.push(e);
    }
    build_wasm()?;
    build_page()?;
    step("size budget of the page (JS + wasm before the board is playable)");
    if let Err(e) = exec(
        Command::new("node")
            .arg("scripts/size-check.mjs")
            .current_dir(web_dir()),
    ) {
        failures.push(e);
    }
    step("page unit tests (vitest)");
    if let Err(e) = exec(npx("vitest").args(["run"])) {
        failures.push(e);
    }
    let server = build_server()?;
    ensure_chromium()?;
    step("browser end-to-end tests (node --test, Chromium)");
    if let Err(e) = exec(
        Command::new("node")
            .args(["--test", "--test-concurrency=1", "e2e/"])
            .current_dir(web_dir())
            .env("GUNJIN_SERVER", &server)
            .env("CHROMIUM", CHROMIUM),
    ) {
        failures.push(e);
    }
    if failures.is_empty() {
        println!("\nxtask test: all suites passed (Rust, vitest, browser e2e)");
        Ok(())
    } else {
        Err(format!(
            "{} suite(s) failed:\n  {}",
            failures.len(),
            failures.join("\n  ")
        ))
    }
}
