//! Serving the built page: embedded in the binary (feature `embed`) or from a folder on disk.
//!
//! Paths without a file extension that match no file get `index.html`, so links into the page
//! (a room URL, say) open the app; a missing file (`/assets/old.js`, anything under `/assets/`)
//! and any hidden path (`/.vite/…`) are a 404. The page's build
//! leaves a brotli (`.br`) and a gzip (`.gz`) copy beside each large file; the copy the browser
//! accepts is sent, so a visitor downloads about a third of the bytes and the server compresses
//! nothing per request. Hashed files under `/assets/` are cached for good, the rest revalidated,
//! and every page response carries the security headers below.

use std::borrow::Cow;
use std::path::PathBuf;

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

/// Where the page's files come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WebSource {
    /// The copy of `web/dist` compiled into the binary (feature `embed`).
    Embedded,
    /// A folder holding the built page, e.g. `web/dist`.
    Dir(PathBuf),
}

/// Whether this binary carries the page inside it.
#[must_use]
pub const fn has_embedded_page() -> bool {
    cfg!(feature = "embed")
}

/// What the page may load: its own scripts, styles and wasm only (no inline script or style,
/// nothing from other hosts), the room socket of its own server, and no framing by other sites
/// (a room page holds a seat). `'unsafe-eval'` stands beside `'wasm-unsafe-eval'` for Safari
/// before 16 (iOS 15 phones), which knows only the former and would refuse to compile the
/// engine's wasm; the page itself never `eval`s, and an injected script could not run anyway.
/// `connect-src` names `ws:`/`wss:` because browsers that predate CSP 3 do not count a socket to
/// the page's own host as `'self'`.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' \
    'wasm-unsafe-eval' 'unsafe-eval'; style-src 'self'; img-src 'self' data:; \
    connect-src 'self' ws: wss:; worker-src 'self'; object-src 'none'; base-uri 'none'; \
    form-action 'self'; frame-ancestors 'none'";

/// Hashed build output: its name changes with its content, so a copy never goes stale.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// Routes for the page and `/healthz`. Merge other routers (rooms) beside it: their routes win
/// over the page's catch-all, and the headers here stay the page's.
pub fn router(source: WebSource) -> Router {
    page_router(match source {
        WebSource::Dir(dir) => Files::Dir(dir),
        WebSource::Embedded if has_embedded_page() => Files::Stored(embedded_file),
        WebSource::Embedded => Files::Missing,
    })
}

/// What the page's routes serve from.
enum Files {
    Dir(PathBuf),
    Stored(Lookup),
    /// Built without the page and given no folder: a note saying how to get it.
    Missing,
}

fn page_router(files: Files) -> Router {
    let health = Router::new().route("/healthz", get(|| async { "ok" }));
    let page = match files {
        Files::Dir(dir) => {
            let index = ServeFile::new(dir.join("index.html"))
                .precompressed_br()
                .precompressed_gzip();
            let shell = get(move |req: Request| app_shell(index.clone(), req));
            let files = ServeDir::new(&dir)
                .precompressed_br()
                .precompressed_gzip()
                .fallback(shell);
            health.fallback_service(files)
        }
        Files::Stored(lookup) => {
            health.fallback(get(move |headers: HeaderMap, uri: Uri| async move {
                serve_stored(lookup, &headers, uri.path())
            }))
        }
        Files::Missing => health.fallback(get(no_page)),
    };
    page.layer(middleware::from_fn(page_headers))
}

/// Whether `path` is one of the site's page routes (a room's link, say), which all get the app's
/// `index.html`: not a file name (no extension) and not under `/assets/`, where only the build's
/// files live (a missing one there is a 404, never the page under a file's name).
fn is_page_route(path: &str) -> bool {
    !names_a_file(path) && !path.trim_start_matches('/').starts_with("assets/")
}

/// Whether `path` is never served: a segment starting with a dot (`/.vite/manifest.json`; the
/// file server decodes the path, so a dot written `%2e` is one too), or longer than any file name
/// may be (255 bytes; asked of the folder, it was an error, 500, not a missing file).
fn never_served(path: &str) -> bool {
    path.split('/').any(|segment| {
        segment.starts_with('.')
            || segment
                .get(..3)
                .is_some_and(|start| start.eq_ignore_ascii_case("%2e"))
            || segment.len() > 255
    })
}

/// Whether the path's last segment names a file (has an extension) rather than a page route.
fn names_a_file(path: &str) -> bool {
    path.rsplit('/')
        .next()
        .is_some_and(|last| last.contains('.'))
}

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "not found",
    )
        .into_response()
}

/// A page route (no file of that name): the app's `index.html`.
async fn app_shell(index: ServeFile, req: Request) -> Response {
    if !is_page_route(req.uri().path()) {
        return not_found();
    }
    match index.oneshot(req).await {
        Ok(res) => res.map(Body::new),
        Err(never) => match never {},
    }
}

async fn page_headers(req: Request, next: Next) -> Response {
    let asset = req.uri().path().starts_with("/assets/");
    let mut res = if never_served(req.uri().path()) {
        not_found()
    } else {
        next.run(req).await
    };
    let not_modified = res.status() == StatusCode::NOT_MODIFIED;
    let cache = if asset && (res.status().is_success() || not_modified) {
        IMMUTABLE
    } else {
        "no-cache"
    };
    let headers = res.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    // A 304 carries the Vary its 200 would have (RFC 9110 §15.4.5); the folder's leaves it out.
    if not_modified && !headers.contains_key(header::VARY) {
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // A room's URL is its invitation: it must not travel to other sites in a Referer. Not
    // `no-referrer`: under it some browsers (Firefox) send `Origin: null` with the page's own
    // POST, which the rooms' origin check turns away.
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    res
}

/// The content codings of the page's precompressed copies, best first, with their suffixes.
const CODINGS: [(&str, &str); 2] = [("br", ".br"), ("gzip", ".gz")];

/// Which of [`CODINGS`] the request's `Accept-Encoding` takes (RFC 9110 §12.5.3): a coding
/// named with a weight above zero, or `*` when the coding is not named. An unreadable weight
/// counts as zero, so a doubtful coding is never sent.
#[must_use]
fn accepted_codings(headers: &HeaderMap) -> [bool; 2] {
    let mut named: [Option<bool>; 2] = [None, None];
    let mut any = None;
    for value in headers.get_all(header::ACCEPT_ENCODING) {
        let Ok(value) = value.to_str() else { continue };
        for item in value.split(',') {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or("").trim();
            let weight = parts
                .filter_map(|p| {
                    let (key, value) = p.split_once('=')?;
                    key.trim().eq_ignore_ascii_case("q").then(|| value.trim())
                })
                .next()
                .map_or(1.0, |q| q.parse::<f32>().unwrap_or(0.0));
            let takes = weight > 0.0;
            if name == "*" {
                any = Some(takes);
            } else if name.eq_ignore_ascii_case("x-gzip") {
                named[1] = Some(takes);
            } else if let Some(i) = CODINGS
                .iter()
                .position(|(c, _)| name.eq_ignore_ascii_case(c))
            {
                named[i] = Some(takes);
            }
        }
    }
    named.map(|n| n.or(any).unwrap_or(false))
}

/// One file of the built page, as the page embedded in the binary holds it.
#[derive(Debug)]
struct StoredFile {
    data: Cow<'static, [u8]>,
    mime: String,
    /// SHA-256 of `data`: the ETag's source.
    hash: [u8; 32],
}

/// Where [`serve_stored`] finds a file by its path in the build (`assets/index-abc.js`).
type Lookup = fn(&str) -> Option<StoredFile>;

#[cfg(feature = "embed")]
#[derive(rust_embed::Embed)]
#[folder = "../../web/dist/"]
struct Dist;

#[cfg(feature = "embed")]
fn embedded_file(path: &str) -> Option<StoredFile> {
    Dist::get(path).map(|file| StoredFile {
        mime: file.metadata.mimetype().to_owned(),
        hash: file.metadata.sha256_hash(),
        data: file.data,
    })
}

#[cfg(not(feature = "embed"))]
fn embedded_file(_path: &str) -> Option<StoredFile> {
    None
}

/// Answers a request for `uri_path` from the files `lookup` holds: the file, or the copy of it
/// the request's `Accept-Encoding` takes, with its type, an ETag (and 304 when it matches), and
/// `Vary` where copies exist; the app's `index.html` for page routes.
fn serve_stored(lookup: Lookup, headers: &HeaderMap, uri_path: &str) -> Response {
    let path = uri_path.trim_start_matches('/');
    let found = if path.is_empty() { None } else { lookup(path) };
    let (path, file) = match found {
        Some(file) => (path, file),
        None if path.is_empty() || is_page_route(uri_path) => match lookup("index.html") {
            Some(index) => ("index.html", index),
            None => return not_found(),
        },
        None => return not_found(),
    };
    let mime = file.mime;
    let accepted = accepted_codings(headers);
    let mut compressed = false;
    let mut sent = None;
    for ((coding, suffix), takes) in CODINGS.into_iter().zip(accepted) {
        let Some(copy) = lookup(&format!("{path}{suffix}")) else {
            continue;
        };
        compressed = true;
        if takes && sent.is_none() {
            sent = Some((Some(coding), copy.data, copy.hash));
        }
    }
    let (coding, body, hash) = sent.unwrap_or((None, file.data, file.hash));
    let etag = etag_of(&hash);
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| etag_matches(tags, &etag));
    let mut res = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        body.into_response()
    };
    let out = res.headers_mut();
    if let Ok(mime) = HeaderValue::from_str(&mime) {
        out.insert(header::CONTENT_TYPE, mime);
    }
    if let Ok(tag) = HeaderValue::from_str(&etag) {
        out.insert(header::ETAG, tag);
    }
    if let Some(coding) = coding {
        out.insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
    }
    if compressed {
        out.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    res
}

/// A strong validator from the sent bytes' hash (the copies differ, so do their tags).
fn etag_of(hash: &[u8; 32]) -> String {
    use std::fmt::Write;
    let mut tag = String::from("\"");
    for byte in &hash[..12] {
        let _ = write!(tag, "{byte:02x}");
    }
    tag.push('"');
    tag
}

/// `If-None-Match` against our tag, compared weakly as RFC 9110 §13.1.2 asks (a cache or CDN
/// may have weakened it to `W/"…"`).
fn etag_matches(if_none_match: &str, etag: &str) -> bool {
    if_none_match
        .split(',')
        .map(str::trim)
        .any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == etag)
}

async fn no_page() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "This server was built without the page. Run `cargo xtask run`, or start it with \
         --web-dir web/dist.",
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::Request;

    struct Answer {
        status: StatusCode,
        headers: HeaderMap,
        body: Vec<u8>,
    }

    impl Answer {
        fn header(&self, name: header::HeaderName) -> Option<&str> {
            self.headers.get(name).and_then(|v| v.to_str().ok())
        }
    }

    async fn fetch(app: &Router, path: &str, accept_encoding: Option<&str>) -> Answer {
        match accept_encoding {
            Some(codings) => fetch_with(app, path, &[(header::ACCEPT_ENCODING, codings)]).await,
            None => fetch_with(app, path, &[]).await,
        }
    }

    /// A built page in a fresh folder: `index.html`, a script with both copies beside it.
    fn page_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gunjin-web-{name}-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("assets")).unwrap();
        std::fs::write(dir.join("index.html"), "<title>page</title>").unwrap();
        std::fs::write(dir.join("assets/app.js"), "console.log(1)").unwrap();
        // The server trusts the build's copies; their bytes only need to be told apart here.
        std::fs::write(dir.join("assets/app.js.br"), "brotli bytes").unwrap();
        std::fs::write(dir.join("assets/app.js.gz"), "gzip bytes").unwrap();
        dir
    }

    #[tokio::test]
    async fn both_modes_send_the_copy_the_browser_accepts() {
        let dir = page_dir("codings");
        for app in [
            page_router(Files::Dir(dir.clone())),
            page_router(Files::Stored(stored)),
        ] {
            let cases = [
                (
                    Some("gzip, deflate, br, zstd"),
                    Some("br"),
                    &b"brotli bytes"[..],
                ),
                (Some("gzip"), Some("gzip"), &b"gzip bytes"[..]),
                (Some("br;q=0, gzip;q=0.5"), Some("gzip"), &b"gzip bytes"[..]),
                (Some("identity"), None, &b"console.log(1)"[..]),
                (None, None, &b"console.log(1)"[..]),
            ];
            for (accept, coding, body) in cases {
                let got = fetch(&app, "/assets/app.js", accept).await;
                assert_eq!(got.status, StatusCode::OK, "{accept:?}");
                assert_eq!(got.header(header::CONTENT_ENCODING), coding, "{accept:?}");
                assert_eq!(got.body, body, "{accept:?}");
                assert_eq!(got.header(header::CONTENT_TYPE), Some("text/javascript"));
                assert_eq!(got.header(header::VARY), Some("accept-encoding"));
                assert_eq!(got.header(header::CACHE_CONTROL), Some(IMMUTABLE));
            }
        }
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[tokio::test]
    async fn the_embedded_page_tags_each_copy_apart() {
        let app = page_router(Files::Stored(stored));
        let mut tags = Vec::new();
        for accept in ["br", "gzip", "gzip;q=0.5", "identity"] {
            let got = fetch(&app, "/assets/app.js", Some(accept)).await;
            tags.push(got.header(header::ETAG).unwrap_or("").to_owned());
        }
        // A cache never answers one coding with another's bytes.
        assert_ne!(tags[0], tags[1]);
        assert_eq!(tags[1], tags[2]);
        assert_ne!(tags[1], tags[3]);
        assert_ne!(tags[0], tags[3]);
    }

    #[tokio::test]
    async fn every_page_answer_carries_the_security_headers() {
        let dir = page_dir("security");
        let app = router(WebSource::Dir(dir.clone()));
        for path in ["/", "/room/abc", "/assets/app.js", "/assets/none.js"] {
            let got = fetch(&app, path, None).await;
            assert_eq!(
                got.header(header::CONTENT_SECURITY_POLICY),
                Some(CONTENT_SECURITY_POLICY),
                "{path}"
            );
            assert_eq!(got.header(header::X_CONTENT_TYPE_OPTIONS), Some("nosniff"));
            assert_eq!(got.header(header::REFERRER_POLICY), Some("same-origin"));
            assert_eq!(got.header(header::X_FRAME_OPTIONS), Some("DENY"));
        }
        assert!(CONTENT_SECURITY_POLICY.contains("frame-ancestors 'none'"));
        assert!(!CONTENT_SECURITY_POLICY.contains("unsafe-inline"));
        assert!(CONTENT_SECURITY_POLICY.contains("script-src 'self' 'wasm-unsafe-eval'"));
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// The page as the binary would embed it: an index, a script with both copies, a hidden file.
    fn stored(path: &str) -> Option<StoredFile> {
        let (data, mime): (&'static [u8], &str) = match path {
            "index.html" => (b"<title>page</title>", "text/html"),
            "assets/app.js" => (b"console.log(1)", "text/javascript"),
            "assets/app.js.br" => (b"brotli bytes", "application/octet-stream"),
            "assets/app.js.gz" => (b"gzip bytes", "application/gzip"),
            ".vite/manifest.json" => (b"{}", "application/json"),
            _ => return None,
        };
        // A stand-in for SHA-256 that differs per file, which is all an ETag needs.
        let mut hash = [0u8; 32];
        for (i, b) in data.iter().enumerate() {
            hash[i % 32] ^= b.wrapping_add(i as u8);
        }
        Some(StoredFile {
            data: Cow::Borrowed(data),
            mime: mime.to_owned(),
            hash,
        })
    }

    async fn fetch_with(
        app: &Router,
        path: &str,
        headers: &[(header::HeaderName, &str)],
    ) -> Answer {
        let mut req = Request::get(path);
        for (name, value) in headers {
            req = req.header(name, *value);
        }
        let res = app
            .clone()
            .oneshot(req.body(Body::empty()).unwrap())
            .await
            .unwrap();
        let (parts, body) = res.into_parts();
        let body = axum::body::to_bytes(body, 1 << 20).await.unwrap().to_vec();
        Answer {
            status: parts.status,
            headers: parts.headers,
            body,
        }
    }

    #[tokio::test]
    async fn the_embedded_page_answers_a_matching_tag_with_304_weak_or_strong() {
        let app = page_router(Files::Stored(stored));
        let first = fetch(&app, "/", Some("br")).await;
        assert_eq!(first.body, b"<title>page</title>");
        assert_eq!(first.header(header::CACHE_CONTROL), Some("no-cache"));
        let tag = first.header(header::ETAG).unwrap().to_owned();
        for sent in [
            tag.clone(),
            format!("W/{tag}"),
            format!("\"x\", {tag}"),
            "*".into(),
        ] {
            let again = fetch_with(&app, "/", &[(header::IF_NONE_MATCH, &sent)]).await;
            assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{sent}");
            assert!(again.body.is_empty());
            assert_eq!(again.header(header::ETAG), Some(tag.as_str()));
        }
        let other = fetch_with(&app, "/", &[(header::IF_NONE_MATCH, "\"other\"")]).await;
        assert_eq!(other.status, StatusCode::OK);
        // The gzip copy's tag does not validate the plain file.
        let gz = fetch(&app, "/assets/app.js", Some("gzip")).await;
        let gz_tag = gz.header(header::ETAG).unwrap().to_owned();
        let plain = fetch_with(&app, "/assets/app.js", &[(header::IF_NONE_MATCH, &gz_tag)]).await;
        assert_eq!(plain.status, StatusCode::OK);
    }

    #[tokio::test]
    async fn both_modes_route_pages_to_the_app_and_refuse_missing_assets_and_hidden_files() {
        let dir = page_dir("routes");
        std::fs::create_dir_all(dir.join(".vite")).unwrap();
        std::fs::write(dir.join(".vite/manifest.json"), "{}").unwrap();
        for app in [
            page_router(Files::Dir(dir.clone())),
            page_router(Files::Stored(stored)),
        ] {
            assert_eq!(fetch(&app, "/healthz", None).await.body, b"ok");
            assert_eq!(
                fetch(&app, "/assets/app.js", None).await.body,
                b"console.log(1)"
            );
            // Pages and misses are revalidated; only the hashed files are kept for good.
            let page = (StatusCode::OK, &b"<title>page</title>"[..]);
            let missing = (StatusCode::NOT_FOUND, &b"not found"[..]);
            let cases = [
                ("/", page),
                ("/room/abc", page),
                ("/?room=AAAAAAAAAAAAAAAAAAAAAA", page),
                ("/assets/nope", missing),
                ("/assets/", missing),
                ("/assets/old-123.js", missing),
                ("/.vite/manifest.json", missing),
                ("/a/.hidden", missing),
                ("/%2evite/manifest.json", missing),
                ("/%2Evite/manifest.json", missing),
            ];
            let long = format!("/{}", "a".repeat(256));
            let got = fetch(&app, &long, None).await;
            assert_eq!(got.status, StatusCode::NOT_FOUND, "a 256-byte segment");
            for (path, (status, body)) in cases {
                let got = fetch(&app, path, None).await;
                assert_eq!((got.status, got.body.as_slice()), (status, body), "{path}");
                assert_eq!(
                    got.header(header::CACHE_CONTROL),
                    Some("no-cache"),
                    "{path}"
                );
            }
        }
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[tokio::test]
    async fn a_304_from_the_folder_says_what_it_varies_on() {
        let dir = page_dir("vary");
        let app = page_router(Files::Dir(dir.clone()));
        let first = fetch(&app, "/assets/app.js", Some("br")).await;
        let since = first.header(header::LAST_MODIFIED).unwrap().to_owned();
        let again = fetch_with(
            &app,
            "/assets/app.js",
            &[
                (header::ACCEPT_ENCODING, "br"),
                (header::IF_MODIFIED_SINCE, &since),
            ],
        )
        .await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED);
        assert_eq!(again.header(header::VARY), Some("accept-encoding"));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[tokio::test]
    async fn a_server_without_the_page_says_how_to_get_it() {
        let app = page_router(Files::Missing);
        let got = fetch(&app, "/", None).await;
        assert_eq!(got.status, StatusCode::NOT_FOUND);
        assert!(String::from_utf8_lossy(&got.body).contains("cargo xtask run"));
        assert_eq!(fetch(&app, "/healthz", None).await.body, b"ok");
    }

    fn accept(value: &str) -> [bool; 2] {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_str(value).unwrap(),
        );
        accepted_codings(&headers)
    }

    #[test]
    fn reads_accept_encoding_with_weights_and_wildcards() {
        assert_eq!(accepted_codings(&HeaderMap::new()), [false, false]);
        assert_eq!(accept("gzip, deflate, br, zstd"), [true, true]);
        assert_eq!(accept("BR;Q=1.0"), [true, false]);
        assert_eq!(accept("x-gzip"), [false, true]);
        assert_eq!(accept("br;q=0, *"), [false, true]);
        assert_eq!(accept("*;q=0"), [false, false]);
        assert_eq!(accept("*;q=0.1, gzip;q=0"), [true, false]);
        assert_eq!(accept("br; q = 0.000"), [false, false]);
        // An unreadable weight does not count as a yes.
        assert_eq!(accept("br;q=lots, gzip"), [false, true]);
        assert_eq!(accept(" , ;;, identity"), [false, false]);
    }

    #[test]
    fn a_name_with_an_extension_is_a_file_and_other_paths_are_pages() {
        assert!(names_a_file("/assets/index-abc.js"));
        assert!(names_a_file("/favicon.ico"));
        assert!(!names_a_file("/room/abc"));
        assert!(!names_a_file("/"));
    }
}
