//! Shared test helpers: run the referee test vectors (`tests/cases/<game>.json`, copied from
//! `../shared/rules/cases/`) through the same code path as `stoneyard referee`.
#![allow(dead_code)]

pub mod conformance;

use serde_json::Value;
use std::collections::BTreeSet;
use stoneyard::cli::referee::referee;
use stoneyard::games::{self, GameKind};

/// Runs one case of a vectors file; returns the list of mismatches (empty = pass).
pub fn run_case(kind: GameKind, case: &Value) -> Vec<String> {
    let options: Vec<(String, String)> = case["options"]
        .as_object()
        .map(|o| o.iter().map(|(k, v)| (k.clone(), v.as_str().map(str::to_string).unwrap_or(v.to_string()))).collect())
        .unwrap_or_default();
    let position = case["position"].as_str().filter(|p| !p.is_empty());
    let moves: Vec<String> = case["moves"]
        .as_array()
        .map(|a| a.iter().filter_map(|m| m.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    let expect = &case["expect"];
    let want_legal = expect.as_object().is_some_and(|o| o.keys().any(|k| k.starts_with("legal")));
    let game = match games::open(kind, &options, position) {
        Ok(g) => g,
        Err(e) => return vec![format!("could not open the game: {e}")],
    };
    let (out, _) = referee(game, &moves.join(";"), want_legal);
    check(&out, expect)
}

fn check(out: &Value, expect: &Value) -> Vec<String> {
    let mut errs = Vec::new();
    let mut want = |key: &str, got: &Value, expected: &Value| {
        if got != expected {
            errs.push(format!("{key}: expected {expected}, got {got}"));
        }
    };
    if let Some(ok) = expect.get("ok") {
        want("ok", &out["ok"], ok);
        if ok == false {
            if let Some(i) = expect.get("move_index") {
                want("move_index", &out["move_index"], i);
            }
        }
    }
    for key in ["position", "to_move", "status", "legal_count", "legal"] {
        if let Some(e) = expect.get(key) {
            want(key, out.get(key).unwrap_or(&Value::Null), e);
        }
    }
    for (key, must_have) in [("legal_includes", true), ("legal_excludes", false)] {
        let Some(e) = expect.get(key) else { continue };
        let per_side: Vec<(Option<&str>, &Value)> = match e {
            Value::Object(m) => m.iter().map(|(k, v)| (Some(k.as_str()), v)).collect(),
            other => vec![(None, other)],
        };
        for (side, tokens) in per_side {
            let have: BTreeSet<&str> = match side {
                Some(s) => out["legal"][s].as_array(),
                None => out["legal"].as_array(),
            }
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
            for t in tokens.as_array().into_iter().flatten().filter_map(Value::as_str) {
                if must_have && !have.contains(t) {
                    errs.push(format!("{key}{side:?}: '{t}' not legal"));
                }
                if !must_have && have.contains(t) {
                    errs.push(format!("{key}{side:?}: '{t}' is legal"));
                }
            }
        }
    }
    if let Some(kinds) = expect.get("effects_include").and_then(Value::as_array) {
        let got: BTreeSet<String> = out["effects"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| e["kind"].as_str().map(str::to_string))
            .collect();
        for k in kinds.iter().filter_map(Value::as_str) {
            if !got.contains(k) {
                errs.push(format!("effects_include: no {k} effect in {got:?}"));
            }
        }
    }
    errs
}

/// Loads `tests/cases/<slug>.json`.
pub fn load_cases(kind: GameKind) -> Value {
    let path = format!("{}/tests/cases/{}.json", env!("CARGO_MANIFEST_DIR"), kind.slug());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path} is not JSON: {e}"))
}

/// Runs one case by id and panics with every mismatch (for one `#[test]` per worked example).
pub fn assert_case(kind: GameKind, id: &str) {
    let file = load_cases(kind);
    let case = file["cases"]
        .as_array()
        .and_then(|cases| cases.iter().find(|c| c["id"] == id))
        .unwrap_or_else(|| panic!("no case '{id}' in {}.json", kind.slug()));
    let errs = run_case(kind, case);
    assert!(errs.is_empty(), "case {id} ({}):\n  {}", case["title"], errs.join("\n  "));
}

/// Runs every case of the game's file and panics listing all failures.
pub fn assert_all_cases(kind: GameKind) {
    let file = load_cases(kind);
    let mut failures = Vec::new();
    let cases = file["cases"].as_array().expect("cases array");
    for case in cases {
        let errs = run_case(kind, case);
        if !errs.is_empty() {
            failures.push(format!("{} ({}): {}", case["id"], case["title"], errs.join("; ")));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases fail:\n{}", failures.len(), cases.len(), failures.join("\n"));
}
