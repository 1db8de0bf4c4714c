//! Property tests: arbitrary bytes and mutated valid inputs fed to every parser a player's file or
//! text can reach. None may panic; each answers with a value or a typed error.

use crate::random_play;

use proptest::prelude::*;
use stoneyard::games::{GameKind, open};
use stoneyard::rules::Side;
use stoneyard::save::{GameRecord, Player, RecordedMove, Settings, Store};

/// A random legal game of `kind` as a record (decisions chosen with a fixed seed).
fn sample_record(kind: GameKind, decisions: usize, seed: u64) -> GameRecord {
    let start = open(kind, &[], None).unwrap();
    let mut record = GameRecord::new(start.as_ref(), [Player::Human, Player::Computer("easy".into())], seed, 1);
    record.moves = random_play::random_decisions(start.as_ref(), decisions, seed)
        .into_iter()
        .map(|decision| RecordedMove { decision, at_ms: 0 })
        .collect();
    record
}

/// Every way a record text gets read.
fn read_every_way(text: &str) {
    if let Ok(record) = GameRecord::from_json(text) {
        let _ = record.replay(None);
    }
    let _ = GameRecord::from_text(text);
    let _ = GameRecord::from_spec_text(text);
    let _ = GameRecord::from_file_text(text);
    // As `--load`/`--moves-file` read it, with the game named: headerless moves, each game.
    for kind in GameKind::all() {
        let _ = stoneyard::save::read_record(text, Some(kind), &[]);
    }
    let _ = serde_json::from_str::<Settings>(text);
    // A settings file with these contents: read, kept aside when damaged, saved over.
    let mut store = Store::memory();
    store.write("settings.json", text).unwrap();
    let (settings, _) = store.load_settings();
    store.save_settings(&settings).unwrap();
}

/// Small edits a damaged or hand-edited file shows: cut, a changed byte, a dropped or doubled line.
fn mutate(text: &str, kind: u8, at: usize, byte: u8) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let at = at % bytes.len().max(1);
    match kind % 4 {
        0 => bytes.truncate(at),
        1 => {
            if let Some(b) = bytes.get_mut(at) {
                *b = byte;
            }
        }
        2 => {
            let lines: Vec<&str> = text.lines().collect();
            let drop = at % lines.len().max(1);
            return lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != drop)
                .map(|(_, l)| *l)
                .collect::<Vec<_>>()
                .join("\n");
        }
        _ => {
            let lines: Vec<&str> = text.lines().collect();
            let twice = at % lines.len().max(1);
            let mut out: Vec<&str> = Vec::new();
            for (i, l) in lines.iter().enumerate() {
                out.push(l);
                if i == twice {
                    out.push(l);
                }
            }
            return out.join("\n");
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The fuzz budget `make test` spends: this many inputs per property (each input goes through
/// every parser it can reach: positions and moves of all five games, records in every form,
/// saves and settings). Fixed, so a run takes the same time and, seeded, tries the same inputs.
const FUZZ_CASES: u32 = 1000;

proptest! {
    #![proptest_config(ProptestConfig {
        cases: FUZZ_CASES,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5709_EA4D),
        ..ProptestConfig::default()
    })]

    #[test]
    fn arbitrary_text_never_panics_a_record_or_settings_parser(text in "\\PC{0,200}") {
        read_every_way(&text);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        read_every_way(&String::from_utf8_lossy(&bytes));
        // The bytes as a settings file on disk, UTF-8 or not.
        let dir = std::env::temp_dir().join(format!("stoneyard-fuzz-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("settings.json"), &bytes).unwrap();
        let (settings, _) = Store::Dir(dir.clone()).load_settings();
        prop_assert_eq!(settings, Store::Dir(dir.clone()).load_settings().0, "settings read twice differ");
    }

    #[test]
    fn arbitrary_positions_and_moves_never_panic_any_game(
        game in 0usize..5,
        position in "\\PC{0,120}",
        token in "\\PC{0,24}",
    ) {
        let kind = GameKind::all().nth(game).unwrap();
        let _ = open(kind, &[], Some(&position));
        let mut fresh = open(kind, &[], None).unwrap();
        let before = fresh.position_text();
        if fresh.play_decision(&token).is_err() {
            prop_assert_eq!(fresh.position_text(), before, "a refused decision changed the position");
        }
        let _ = fresh.play_token(&token);
    }

    #[test]
    fn mutated_records_are_read_or_refused_with_a_reason(
        game in 0usize..5,
        seed in 0u64..1000,
        kind in any::<u8>(),
        at in any::<usize>(),
        byte in any::<u8>(),
    ) {
        let record = sample_record(GameKind::all().nth(game).unwrap(), 12, seed);
        let spec = record.to_spec_text().unwrap_or_default();
        for text in [record.to_json(), record.to_text(), spec] {
            let damaged = mutate(&text, kind, at, byte);
            read_every_way(&damaged);
            // Whatever is accepted replays, or says which move is wrong.
            if let Ok(r) = GameRecord::from_json(&damaged)
                && let Err(e) = r.replay(None)
            {
                prop_assert!(!e.to_string().is_empty());
            }
        }
    }
}

#[test]
fn a_future_format_and_a_wrong_game_are_refused_clearly() {
    let record = sample_record(GameKind::named("gravel"), 6, 3);
    let future = record.to_json().replacen("\"format\": 1", "\"format\": 99", 1);
    let e = GameRecord::from_json(&future).unwrap_err().to_string();
    assert!(e.contains("99") || e.contains("newer"), "{e}");
    let wrong = record.to_json().replacen("\"gravel\"", "\"chess\"", 1);
    assert!(GameRecord::from_json(&wrong).is_err());
    // A move from another game is reported with its number.
    let mut other = record.clone();
    other.moves[2].decision = "swap".into();
    let e = other.replay(None).err().expect("a wrong move is refused").to_string();
    assert!(e.contains('3'), "{e}");
}

#[test]
fn records_of_every_game_round_trip_through_json_and_text() {
    for kind in GameKind::all() {
        for seed in 0..5 {
            let record = sample_record(kind, 40, seed);
            let end = record.replay(None).unwrap().position_text();
            let json = GameRecord::from_json(&record.to_json()).unwrap();
            assert_eq!(json, record, "{kind} seed {seed}");
            let text = GameRecord::from_text(&record.to_text()).unwrap();
            assert_eq!(text.replay(None).unwrap().position_text(), end, "{kind} seed {seed}");
        }
    }
}

/// The move list in the specs' record notation: the atomic decisions of random games grouped into
/// record moves, which replayed as record tokens reach the same position.
#[test]
fn atomic_decisions_group_into_record_moves_that_replay_to_the_same_position() {
    for kind in GameKind::all() {
        for seed in 0..6 {
            let record = sample_record(kind, 60 + seed as usize * 7, seed);
            let decisions: Vec<String> = record.moves.iter().map(|m| m.decision.clone()).collect();
            let start = open(kind, &[], None).unwrap();
            let grouped = start.record_tokens(&decisions).unwrap();
            let mut by_tokens = start.clone_box();
            let mut by_decisions = start.clone_box();
            let mut played = 0;
            for m in &grouped.moves {
                let t = &m.token;
                by_tokens.play_token(t).unwrap_or_else(|e| panic!("{kind} seed {seed}: token '{t}': {e}"));
                // Each move ends where its decisions end: the same position either way.
                for d in &decisions[played..m.end] {
                    by_decisions.play_decision(d).unwrap();
                }
                played = m.end;
                assert_eq!(by_tokens.position_text(), by_decisions.position_text(), "{kind} seed {seed} at '{t}'");
            }
            assert_eq!(played + grouped.pending, decisions.len(), "{kind} seed {seed}");
            assert!(grouped.moves.len() <= decisions.len(), "{kind}: a move is one decision or more");
        }
    }
}

#[test]
fn a_sealed_commitment_never_appears_in_the_move_list() {
    let start = open(GameKind::named("hidden-intention"), &[], None).unwrap();
    let mut game = start.clone_box();
    let mut decisions = Vec::new();
    // A seals a whole commitment; B has not chosen yet.
    while let Some(d) = game.legal_decisions(Side::First).first().cloned() {
        game.play_decision(&d).unwrap();
        decisions.push(d);
    }
    assert!(!decisions.is_empty());
    let grouped = start.record_tokens(&decisions).unwrap();
    assert!(grouped.moves.is_empty(), "{grouped:?}");
    assert_eq!(grouped.pending, decisions.len());
}

/// Records copied out in each game's own record notation read back to the same decisions and the
/// same final position (a move still under way at the end is not written, so it is not read).
#[test]
fn records_of_every_game_round_trip_through_the_rules_record_notation() {
    for kind in GameKind::all() {
        for seed in 0..4 {
            let record = sample_record(kind, 50 + seed as usize * 9, seed);
            let start = open(kind, &[], None).unwrap();
            let decisions: Vec<String> = record.moves.iter().map(|m| m.decision.clone()).collect();
            let pending = start.record_tokens(&decisions).unwrap().pending;
            let text = record.to_spec_text().unwrap_or_else(|e| panic!("{kind} seed {seed}: {e}"));
            let back = GameRecord::from_file_text(&text).unwrap_or_else(|e| panic!("{kind} seed {seed}: {e}\n{text}"));
            assert_eq!(back.game, kind);
            let mut whole = record.clone();
            whole.moves.truncate(record.moves.len() - pending);
            assert_eq!(
                back.replay(None).unwrap().position_text(),
                whole.replay(None).unwrap().position_text(),
                "{kind} seed {seed}\n{text}"
            );
            // Re-exporting gives the same text: nothing was lost or reinterpreted.
            let mut again = back.clone();
            again.players = record.players.clone();
            assert_eq!(again.to_spec_text().unwrap(), text, "{kind} seed {seed}");
        }
    }
}
