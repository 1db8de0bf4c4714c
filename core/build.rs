//! Build script: gives the crate the commit it is built from (`STONEYARD_COMMIT`, from git or
//! from the environment when building from an archive without `.git`) and whether that commit
//! is a tagged release, so `stoneyard --version` and the title screen can say which build runs.

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
}
