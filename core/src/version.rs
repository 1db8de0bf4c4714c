//! Which build this is: Cargo.toml's version, and the commit it was built from unless that commit
//! is a tagged release (build.rs finds both), for `stoneyard --version` and the title screen.

/// The release version, from Cargo.toml.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The commit this build comes from (empty when it was built without git or `STONEYARD_COMMIT`).
pub const COMMIT: &str = env!("STONEYARD_COMMIT");

/// Whether the commit is a tagged release (then the version alone names it).
pub const TAGGED: bool = !env!("STONEYARD_TAGGED").is_empty();

/// "0.1.0" for a tagged release, "0.1.0 (commit 1a2b3c4)" otherwise.
pub fn version_text() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| version_text_of(VERSION, COMMIT, TAGGED))
}

fn version_text_of(version: &str, commit: &str, tagged: bool) -> String {
    if tagged || commit.is_empty() { version.to_string() } else { format!("{version} (commit {commit})") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_untagged_build_names_its_commit_and_a_release_only_its_version() {
        assert_eq!(version_text_of("0.1.0", "1a2b3c4", false), "0.1.0 (commit 1a2b3c4)");
        assert_eq!(version_text_of("0.1.0", "1a2b3c4", true), "0.1.0");
        assert_eq!(version_text_of("0.1.0", "", false), "0.1.0");
    }

    #[test]
    fn this_build_knows_its_commit() {
        // The tests run from the git checkout, so build.rs found the commit.
        assert_eq!(COMMIT.len(), 7, "{COMMIT:?}");
        assert!(COMMIT.chars().all(|c| c.is_ascii_hexdigit()));
        assert!(version_text().starts_with(VERSION));
    }
}
