//! Build script: gives the crate the commit it is built from (`STONEYARD_COMMIT`, from git or
//! from the environment when building from an archive without `.git`) and whether that commit
//! is a tagged release, so `stoneyard --version` and the title screen can say which build runs;
//! and, for Windows, the executable's icon and version details.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string()).filter(|s| !s.is_empty())
}

fn main() {
    println!("cargo:rerun-if-env-changed=STONEYARD_COMMIT");
    println!("cargo:rerun-if-env-changed=STONEYARD_TAGGED");
    // A new commit or tag moves these files (a worktree keeps HEAD apart from the shared refs).
    for path in
        [git(&["rev-parse", "--git-path", "HEAD"]), git(&["rev-parse", "--git-common-dir"])].into_iter().flatten()
    {
        let path = std::path::Path::new(&path);
        if path.ends_with("HEAD") {
            println!("cargo:rerun-if-changed={}", path.display());
        } else {
            for inner in ["refs/heads", "refs/tags", "packed-refs"] {
                if path.join(inner).exists() {
                    println!("cargo:rerun-if-changed={}", path.join(inner).display());
                }
            }
        }
    }
    let commit = std::env::var("STONEYARD_COMMIT")
        .ok()
        .filter(|c| !c.is_empty())
        .or_else(|| git(&["rev-parse", "--short=7", "HEAD"]))
        .unwrap_or_default();
    let tagged = std::env::var("STONEYARD_TAGGED")
        .ok()
        .map(|t| t == "1")
        .unwrap_or_else(|| git(&["describe", "--tags", "--exact-match", "HEAD"]).is_some());
    println!("cargo:rustc-env=STONEYARD_COMMIT={commit}");
    println!("cargo:rustc-env=STONEYARD_TAGGED={}", if tagged { "1" } else { "" });
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("windows") {
        windows_resource();
    }
}

/// The icon Explorer and the taskbar show for stoneyard.exe, and its file details. A build without
/// a resource compiler still runs, without the icon (`make dist-test` checks the download has it).
fn windows_resource() {
    let icon = concat!(env!("CARGO_MANIFEST_DIR"), "/packaging/stoneyard.ico");
    println!("cargo:rerun-if-changed={icon}");
    let mut resource = winresource::WindowsResource::new();
    resource.set_icon(icon).set("ProductName", "Stoneyard").set("FileDescription", "Stoneyard");
    if let Err(error) = resource.compile() {
        println!("cargo:warning=stoneyard.exe gets no icon: the resource compiler failed: {error}");
    }
}
