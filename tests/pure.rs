//! Every integration test of the Bevy-free layers, as one test crate: the rules of each game, the
//! computer, lessons, records, and the online server. One crate instead of one per file, so `make
//! test` links one test binary instead of eighteen and runs all their tests on every core at once
//! (`cargo test --test pure -- rules_gravel::` runs one file's).

mod random_play;
// The rules files' shared helpers are not ours to edit; their lints (an unused import, a
// collapsible `if`) should not fail this crate's clippy run.
#[allow(unused_imports, clippy::collapsible_if)]
mod support;

mod ai;
mod ai_games;
mod decision_descriptions;
mod hints;
mod lessons;
mod one_match;
mod parsers_fuzz;
mod rules_gravel;
mod rules_hidden_intention;
mod rules_inchworm;
mod rules_red_stone;
mod rules_throngs;
mod spec_records;

#[cfg(feature = "server")]
mod online_support;

#[cfg(feature = "server")]
mod online_clocks;
#[cfg(feature = "server")]
mod online_digest;
#[cfg(feature = "server")]
mod online_hardening;
#[cfg(feature = "server")]
mod online_lobby;
#[cfg(feature = "server")]
mod online_server;

/// A file under tests/ that no test crate names would silently never run (`autotests = false` in
/// Cargo.toml): each is a module here or a test crate of its own.
#[test]
fn every_test_file_is_built() {
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let this = std::fs::read_to_string(tests.join("pure.rs")).expect("tests/pure.rs");
    let manifest = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
        .expect("Cargo.toml");
    let mut unbuilt = Vec::new();
    for entry in std::fs::read_dir(&tests).expect("tests/") {
        let path = entry.expect("a file").path();
        let (Some(stem), Some("rs")) =
            (path.file_stem().and_then(|s| s.to_str()), path.extension().and_then(|e| e.to_str()))
        else {
            continue;
        };
        let named_here = this.lines().any(|line| line.trim() == format!("mod {stem};"));
        let own_crate = manifest.contains(&format!("path = \"tests/{stem}.rs\""));
        if !named_here && !own_crate {
            unbuilt.push(stem.to_string());
        }
    }
    assert_eq!(unbuilt, Vec::<String>::new(), "name these in tests/pure.rs or as a [[test]] in Cargo.toml");
}
