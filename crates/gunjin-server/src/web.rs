//! Serving the built page: embedded in the binary (feature `embed`) or from a folder on disk.
//!
//! Paths without a file extension that match no file get `index.html`, so links into the page
//! (a room URL, say) open the app.

use std::path::PathBuf;

use axum::Router;
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

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

/// Routes for the page and `/healthz`. Merge other routers (rooms) beside it: their routes win
/// over the page's catch-all.
pub fn router(source: WebSource) -> Router {
    let health = Router::new().route("/healthz", get(|| async { "ok" }));
    match source {
        WebSource::Dir(dir) => {
            let index = dir.join("index.html");
            let files = tower_http::services::ServeDir::new(&dir)
                .fallback(tower_http::services::ServeFile::new(index));
            health.fallback_service(files)
        }
        WebSource::Embedded => health.fallback(get(embedded)),
    }
}

#[cfg(feature = "embed")]
#[derive(rust_embed::Embed)]
#[folder = "../../web/dist/"]
struct Dist;

#[cfg(feature = "embed")]
async fn embedded(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    let file = Dist::get(path).or_else(|| {
        let last = path.rsplit('/').next().unwrap_or(path);
        (!last.contains('.'))
            .then(|| Dist::get("index.html"))
            .flatten()
    });
    match file {
        Some(file) => {
            let cache = if path.starts_with("assets/") {
                "public, max-age=31536000, immutable"
            } else {
                "no-cache"
            };
            (
                [
                    (header::CONTENT_TYPE, file.metadata.mimetype().to_owned()),
                    (header::CACHE_CONTROL, cache.to_owned()),
                ],
                file.data,
            )
                .into_response()
        }
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

#[cfg(not(feature = "embed"))]
async fn embedded(_uri: Uri) -> Response {
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
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;

    async fn get_path(app: Router, path: &str) -> (StatusCode, String) {
        let res = app
            .oneshot(Request::get(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        let status = res.status();
        let body = axum::body::to_bytes(res.into_body(), 1 << 20)
            .await
            .unwrap();
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    #[tokio::test]
    async fn serves_files_index_and_health_from_a_folder() {
        let dir = std::env::temp_dir().join(format!("gunjin-web-test-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("assets")).unwrap();
        std::fs::write(dir.join("index.html"), "<title>page</title>").unwrap();
        std::fs::write(dir.join("assets/app.js"), "console.log(1)").unwrap();
        let app = router(WebSource::Dir(dir.clone()));
        assert_eq!(
            get_path(app.clone(), "/healthz").await,
            (StatusCode::OK, "ok".into())
        );
        assert_eq!(get_path(app.clone(), "/").await.1, "<title>page</title>");
        assert_eq!(
            get_path(app.clone(), "/assets/app.js").await.1,
            "console.log(1)"
        );
        assert_eq!(get_path(app, "/room/abc").await.1, "<title>page</title>");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
