//! The browser build's folder as `serve --web DIR` serves it: plain files and folders inside it
//! only. Hidden files (`/.env`, `/.git/…`) and anything reached through a symbolic link (which
//! could point outside the folder) answer 404, as a missing file does.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::response::{IntoResponse, Response};
use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tower::ServiceExt;
use tower::util::BoxCloneSyncService;
use tower_http::services::ServeDir;

/// The folder of the browser build.
#[derive(Clone)]
pub struct WebRoot {
    dir: Arc<PathBuf>,
    files: ServeDir,
}

impl WebRoot {
    /// The folder `dir`, which must hold the build's `index.html`.
    pub fn open(dir: &Path) -> Result<WebRoot, String> {
        if !dir.join("index.html").is_file() {
            return Err(format!("{} has no index.html (build it with `make web`)", dir.display()));
        }
        Ok(WebRoot { dir: Arc::new(dir.to_path_buf()), files: ServeDir::new(dir) })
    }

    /// Whether a request's path names a plain file or folder inside the root, reached without a
    /// symbolic link or a hidden name (`.` first) on the way.
    fn allows(&self, path: &str) -> bool {
        let decoded = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
        let mut at = self.dir.as_ref().clone();
        for part in decoded.split('/').filter(|p| !p.is_empty()) {
            if part.starts_with('.') || part.contains('\\') {
                return false;
            }
            at.push(part);
            match std::fs::symlink_metadata(&at) {
                Ok(meta) if meta.file_type().is_symlink() => return false,
                Ok(_) => {}
                Err(_) => return true, // missing: ServeDir answers 404 itself
            }
        }
        // A folder is answered with its index.html, which must not be a link either.
        if at.is_dir() {
            return std::fs::symlink_metadata(at.join("index.html")).is_ok_and(|m| !m.file_type().is_symlink());
        }
        true
    }

    /// The service that answers requests for the folder's files.
    pub fn service(self) -> BoxCloneSyncService<Request<Body>, Response, Infallible> {
        BoxCloneSyncService::new(tower::service_fn(move |request: Request<Body>| {
            let root = self.clone();
            async move {
                if !root.allows(request.uri().path()) {
                    return Ok((StatusCode::NOT_FOUND, "Not Found").into_response());
                }
                Ok(root.files.oneshot(request).await.into_response())
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_names_and_links_are_refused_plain_files_allowed() {
        let dir = std::env::temp_dir().join(format!("stoneyard-web-root-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("pkg")).unwrap();
        std::fs::write(dir.join("index.html"), "<html>").unwrap();
        std::fs::write(dir.join("pkg/game.js"), "//").unwrap();
        std::fs::write(dir.join(".env"), "SECRET=1").unwrap();
        let outside = std::env::temp_dir().join(format!("stoneyard-web-outside-{}", std::process::id()));
        std::fs::create_dir_all(&outside).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&outside, dir.join("out")).unwrap();
            std::os::unix::fs::symlink(dir.join("index.html"), dir.join("link.html")).unwrap();
        }
        let root = WebRoot::open(&dir).unwrap();
        assert!(root.allows("/"));
        assert!(root.allows("/index.html"));
        assert!(root.allows("/pkg/game.js"));
        assert!(root.allows("/missing.js"));
        assert!(!root.allows("/.env"));
        assert!(!root.allows("/%2Eenv"));
        assert!(!root.allows("/pkg/../.env"));
        #[cfg(unix)]
        {
            assert!(!root.allows("/out"));
            assert!(!root.allows("/out/anything"));
            assert!(!root.allows("/link.html"));
        }
        assert!(WebRoot::open(&outside).is_err(), "a folder without index.html is not a build");
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::remove_dir_all(&outside);
    }
}
