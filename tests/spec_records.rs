//! The game records the specs print (`shared/rules/<game>.md`), copied here verbatim, read by every
//! reader a player meets: `stoneyard referee --moves-file`, the import dialog and the browser's
//! upload (`GameRecord::from_file_text`) and `stoneyard play --load` (`save::read_record_file`),
//! each replayed to the result the spec states; and what the Record window writes, read back by all,
//! moves of many decisions included (a Throngs pie offer of any size, a Gravel turn of nine actions).

use crate::random_play;

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;
use stoneyard::games::throngs::Board;
use stoneyard::games::{DynGame, GameKind, open};
use stoneyard::save::{GameRecord, Player, RecordedMove, read_record_file};

/// Inchworm §10.4 (test E18), as the spec prints it.
const INCHWORM_RECORD: &str = r#"[Game "Inchworm"] [Topology "flat"] [Pieces "25/25"] [Target "60"] [PrisonerDrops "off"] [QuietLimit "200"]
1. Da1 Db1 2. Dh8 Da2 {W+1} 3. R Dd4 *
"#;
/// E18's position after ply 6.
const INCHWORM_AFTER: &str =
    ".......B1/......../......../......../...W1..../......../W1......./.W1...... b 24 22 0 0 0 1 2";
/// docs/playing.md's example ("Records in and out"): the same record without its tags, four plies.
const INCHWORM_BARE: &str = "1. Da1 Db1 2. Dh8 Da2 *";
/// E18's position after ply 4.
const INCHWORM_BARE_AFTER: &str =
    ".......B1/......../......../......../......../......../W1......./.W1...... b 23 23 0 1 0 1 0";

/// Gravel §9.3, as the spec prints it.
const GRAVEL_RECORD: &str = "[Gravel N=8 X=4 layout=squares turn_limit=200]
1. +d4*2,+e5,+d5 ; +e4,+f5*2
";
/// Worked out by hand from §9.1: Light placed 4 (d4 ×2, e5, d5; pool 33 − 4 = 29), Dark 3 (e4,
/// f5 ×2; 30); game turn 2, Light to move.
const GRAVEL_AFTER: &str =
    "8 4 ......../......../......../...L1L1D2../...L2D1.../......../......../........ L 29 30 0 0 2";

/// Hidden Intention §8.3, as the spec prints it, up to its `...` (the spec elides the rest of the
/// game and its closing `[Result]` tag, so this record is a game under way).
const HIDDEN_INTENTION_RECORD: &str = r#"[Game "Hidden Intention"]
[White "name of A"]
[Black "name of B"]
1.1 Qd4 | Re5
2.1 Pc6 | Xc6 {burn c6}
2.2 Pc5 | Bf6
"#;
/// After the record: the burned attempt 2.1 placed nothing, 2.2 placed Pc5 and Bf6; turn 3, its
/// first attempt. A spent its queen and a pawn, B its rook and a bishop.
const HIDDEN_INTENTION_AFTER: &str = "Qd4 Pc5 ; Re5 Bf6 ; P7R2B2N1Q0 P8R1B1N1Q1 ; 2 2 ; - ; 3.1";

/// Red Stone §6.3, as the spec prints it (its game is also S13).
const RED_STONE_RECORD: &str = "game: red-stone
size: 5
p1: Alice
p2: Bob
moves: 1. C3 2. swap 3. A1 4. B1 5. A2 6. B2 7. A3 8. B3 9. A4 10. B4 11. A5 12. B5*
result: B+ annihilation
";
/// S13's final board; Black (`b`) won.
const RED_STONE_AFTER: &str = ".R.../.X.../.XX../.X.../.X... w";

/// Throngs §5, as the spec prints it.
const THRONGS_RECORD: &str = r#"[Game "Throngs"] [Board "T93"] [Opening "standard"] [PassRule "progress"]
1B +k10 +j9>i8
1W +c4 pass
2B k9>j9 pass
"#;
/// From the standard start (B:k9, W:b3,b6): Black added k10 and j9 (which travelled to i8), then
/// moved k9 to j9; White added c4. White's first part of turn 2 is next, after one pass.
const THRONGS_AFTER: &str = "T93 W1 B:i8,j9,k10 W:b3,b6,c4 idle=3,2 passrun=1 turn=2";

/// A spec record, the game it is of, and what replaying it gives.
struct SpecRecord {
    slug: &'static str,
    text: &'static str,
    position: &'static str,
    /// The referee's `status`: `"ongoing"` or `{"winner":"b"}`.
    status: &'static str,
}

const SPEC_RECORDS: [SpecRecord; 6] = [
    SpecRecord { slug: "inchworm", text: INCHWORM_RECORD, position: INCHWORM_AFTER, status: "\"ongoing\"" },
    SpecRecord { slug: "inchworm", text: INCHWORM_BARE, position: INCHWORM_BARE_AFTER, status: "\"ongoing\"" },
    SpecRecord { slug: "gravel", text: GRAVEL_RECORD, position: GRAVEL_AFTER, status: "\"ongoing\"" },
    SpecRecord {
        slug: "hidden-intention",
        text: HIDDEN_INTENTION_RECORD,
        position: HIDDEN_INTENTION_AFTER,
        status: "\"ongoing\"",
    },
    SpecRecord { slug: "red-stone", text: RED_STONE_RECORD, position: RED_STONE_AFTER, status: r#"{"winner":"b"}"# },
    SpecRecord { slug: "throngs", text: THRONGS_RECORD, position: THRONGS_AFTER, status: "\"ongoing\"" },
];

/// A file holding `text`, unique to this test and call.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stoneyard-spec-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `stoneyard referee` with `args`: its JSON on stdout (on success) or its message on stderr.
fn referee(args: &[&str]) -> Result<Value, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_stoneyard")).arg("referee").args(args).output().unwrap();
    if out.status.success() {
        Ok(serde_json::from_slice(&out.stdout).unwrap())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout))
    }
}

fn referee_record(slug: &str, path: &std::path::Path, extra: &[&str]) -> Result<Value, String> {
    let mut args = vec!["--game", slug, "--moves-file", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    referee(&args)
}

/// What a record replays to, as the referee writes it: the position and the status.
fn outcome(game: &dyn DynGame) -> (String, String) {
    (game.position_text(), stoneyard::games::status_json(game).to_string())
}

#[test]
fn every_spec_record_is_read_by_every_reader_to_the_stated_result() {
    for (i, spec) in SPEC_RECORDS.iter().enumerate() {
        let kind = GameKind::named(spec.slug);
        let expected = (spec.position.to_string(), spec.status.to_string());
        let path = temp_file(&format!("spec-{i}.txt"), spec.text);

        // `stoneyard referee --game G --moves-file FILE`.
        let out = referee_record(spec.slug, &path, &[]).unwrap_or_else(|e| panic!("referee, {}: {e}", spec.slug));
        assert_eq!((out["position"].as_str().unwrap().to_string(), out["status"].to_string()), expected);

        // The import dialog and the browser's upload (both hand the text to `from_file_text`).
        // Without a header the text names no game, yet its moves are one game's only.
        let imported = GameRecord::from_file_text(spec.text).unwrap_or_else(|e| panic!("import, {}: {e}", spec.slug));
        assert_eq!(imported.game, kind);
        assert_eq!(outcome(imported.replay(None).unwrap().as_ref()), expected, "import, {}", spec.slug);

        // `stoneyard play --load FILE`, with and without `--game G`.
        for named in [None, Some(kind)] {
            let loaded = read_record_file(&path, named, &[]).unwrap_or_else(|e| panic!("--load, {}: {e}", spec.slug));
            assert_eq!(outcome(loaded.replay(None).unwrap().as_ref()), expected, "--load, {}", spec.slug);
        }
    }
}

#[test]
fn the_inchworm_record_replays_through_every_ply_of_e18() {
    // E18's table, one position per ply: each prefix of the record reads and reaches its row.
    let plies = ["Da1", "Db1", "Dh8", "Da2", "R", "Dd4"];
    let after = [
        "......../......../......../......../......../......../......../B1....... w 24 25 0 0 0 0 1",
        "......../......../......../......../......../......../......../B1W1...... b 24 24 0 0 0 0 2",
        ".......B1/......../......../......../......../......../......../B1W1...... w 23 24 0 0 0 0 3",
        INCHWORM_BARE_AFTER,
        ".......B1/......../......../......../......../......../W1......./.W1...... w 24 23 0 0 0 1 1",
        INCHWORM_AFTER,
    ];
    let record = GameRecord::from_file_text(INCHWORM_RECORD).unwrap();
    assert_eq!(record.moves.iter().map(|m| m.decision.as_str()).collect::<Vec<_>>(), plies);
    for (n, position) in after.iter().enumerate() {
        assert_eq!(record.replay(Some(n + 1)).unwrap().position_text(), *position, "after ply {}", n + 1);
    }
}

#[test]
fn tags_that_contradict_the_command_line_are_refused_with_both_values() {
    let path = temp_file("contradicted.txt", INCHWORM_RECORD);
    let err = referee_record("inchworm", &path, &["--option", "target=30"]).unwrap_err();
    assert!(err.contains("target=60") && err.contains("target=30"), "{err}");
    let err =
        read_record_file(&path, Some(GameKind::named("inchworm")), &[("target".into(), "30".into())]).unwrap_err();
    assert!(err.contains("target=60") && err.contains("target=30"), "{err}");
    // The options the tags name may also be given, when they agree.
    let out = referee_record("inchworm", &path, &["--option", "target=60"]).unwrap();
    assert_eq!(out["position"], INCHWORM_AFTER);

    let err = referee_record("gravel", &path, &[]).unwrap_err();
    assert!(err.contains("inchworm") && err.contains("gravel"), "{err}");
    let err = referee_record(
        "inchworm",
        &path,
        &["--position", "......../......../......../......../......../......../......../B1....... w 24 25 0 0 0 0 1"],
    )
    .unwrap_err();
    assert!(err.contains("--position"), "a record sets its own start: {err}");
}

#[test]
fn the_tags_set_the_options_and_the_start_and_a_bare_record_takes_the_command_lines() {
    // Handicap (E18): with Pieces 25/20 the start has 20 White stones.
    let handicap = "[Game \"Inchworm\"] [Pieces \"25/20\"]\n1. Da1 *";
    let path = temp_file("handicap.txt", handicap);
    let out = referee_record("inchworm", &path, &[]).unwrap();
    assert_eq!(
        out["position"],
        "......../......../......../......../......../......../......../B1....... w 24 20 0 0 0 0 1"
    );
    // Moves alone are played under the options given with them.
    let bare = temp_file("bare-red-stone.txt", "1. C3 2. swap 3. A1");
    let out = referee_record("red-stone", &bare, &["--option", "size=5"]).unwrap();
    assert_eq!(out["position"], after_tokens("red-stone", &[("size", "5")], &["C3", "swap", "A1"]));
    // A move list is still a move list.
    let out = referee(&["--game", "inchworm", "--moves", "Da1;Db1"]).unwrap();
    assert_eq!(out["position"], after_tokens("inchworm", &[], &["Da1", "Db1"]));
}

/// The position after `tokens`, played one by one on the engine.
fn after_tokens(slug: &str, options: &[(&str, &str)], tokens: &[&str]) -> String {
    let options: Vec<(String, String)> = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let mut game = open(GameKind::named(slug), &options, None).unwrap();
    for t in tokens {
        game.play_token(t).unwrap();
    }
    game.position_text()
}

/// A random game of `kind` under its quick options, cut to its last whole move (the record
/// notation has no way to write half a move).
fn random_record(kind: GameKind, decisions: usize, seed: u64) -> GameRecord {
    random_record_under(kind, &kind.quick_pairs(), decisions, seed)
}

/// [`random_record`] under the options `options`.
fn random_record_under(kind: GameKind, options: &[(String, String)], decisions: usize, seed: u64) -> GameRecord {
    let start = open(kind, options, None).unwrap_or_else(|e| panic!("{kind} {options:?}: {e}"));
    let mut moves = random_play::random_decisions(start.as_ref(), decisions, seed);
    let pending = start.record_tokens(&moves).unwrap().pending;
    moves.truncate(moves.len() - pending);
    let mut record = GameRecord::new(start.as_ref(), [Player::Human, Player::Computer("easy".into())], seed, 1);
    record.moves = moves.into_iter().map(|decision| RecordedMove { decision, at_ms: 0 }).collect();
    record
}

#[test]
fn what_the_record_window_writes_every_reader_reads() {
    for kind in GameKind::all() {
        for (decisions, seed) in [(12, 1), (60, 2), (400, 3)] {
            let record = random_record(kind, decisions, seed);
            let expected = outcome(record.replay(None).unwrap().as_ref());
            let shown = record.to_shown_text();
            assert!(
                GameKind::of_record_text(&shown) == Some(kind),
                "{kind}: the window writes the spec's notation:\n{shown}"
            );
            for (form, text) in [("spec", shown.clone()), ("json", record.to_json()), ("plain", record.to_text())] {
                let what = format!("{kind} seed {seed}, {form}:\n{text}");
                let imported = GameRecord::from_file_text(&text).unwrap_or_else(|e| panic!("import, {what}\n{e}"));
                assert_eq!(outcome(imported.replay(None).unwrap().as_ref()), expected, "import, {what}");
                let path = temp_file(&format!("{kind}-{seed}-{form}.txt"), &text);
                let loaded = read_record_file(&path, Some(kind), &kind.quick_pairs())
                    .unwrap_or_else(|e| panic!("--load, {what}\n{e}"));
                assert_eq!(outcome(loaded.replay(None).unwrap().as_ref()), expected, "--load, {what}");
                let out = referee_record(kind.slug(), &path, &[]).unwrap_or_else(|e| panic!("referee, {what}\n{e}"));
                assert_eq!(
                    (out["position"].as_str().unwrap().to_string(), out["status"].to_string()),
                    expected,
                    "referee, {what}"
                );
            }
        }
    }
}

/// Pairs of option keys and values, owned.
fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// The decisions of a record, in order.
fn decisions(record: &GameRecord) -> Vec<String> {
    record.moves.iter().map(|m| m.decision.clone()).collect()
}

/// The most decisions any one move of the record's notation stands for.
fn longest_move(record: &GameRecord) -> usize {
    let start = record.replay(Some(0)).unwrap();
    let grouped = start.record_tokens(&decisions(record)).unwrap();
    grouped.moves.iter().scan(0, |last, m| Some(m.end - std::mem::replace(last, m.end))).max().unwrap_or(0)
}

#[test]
fn a_throngs_record_of_any_pie_offer_reads_back_to_the_same_decisions() {
    // A pie offer is one record move of 2n + 1 decisions (225 for Torus-15's pie-112); searching
    // for a move's decisions gave up on offers from about six stones a colour.
    let throngs = GameKind::named("throngs");
    let mut boards = vec![Board::T93, Board::R63, Board::R87, Board::R153, Board::P156];
    boards.extend((Board::TORUS_MIN..=Board::TORUS_MAX).map(Board::Torus));
    for (i, board) in boards.into_iter().enumerate() {
        let max = board.pie_max();
        for n in [max / 2, max] {
            let adjudication = if i % 2 == 0 { "off" } else { "ludii" };
            let (name, opening) = (board.name(), format!("pie-{n}"));
            let options = pairs(&[("board", &name), ("opening", &opening), ("adjudication", adjudication)]);
            // The offer, the choice and a few parts.
            let offer = 2 * n as usize + 1;
            let record = random_record_under(throngs, &options, offer + 8, u64::from(n) + i as u64);
            let what = format!("{name} {opening} adjudication={adjudication}");
            assert_eq!(longest_move(&record), offer, "{what}: the offer is one move");
            // Parts follow the choice unless Appendix A's estimate ends the game there.
            let over_at_choice = record.replay(Some(offer + 1)).unwrap().status().is_over();
            assert!(record.moves.len() > offer + 1 || over_at_choice, "{what}: the choice and parts were played");
            let text = record.to_spec_text().unwrap_or_else(|e| panic!("{what}: {e}"));
            let read = GameRecord::from_spec_text(&text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
            assert_eq!(decisions(&read), decisions(&record), "{what}\n{text}");
            let expected = outcome(record.replay(None).unwrap().as_ref());
            assert_eq!(outcome(read.replay(None).unwrap().as_ref()), expected, "{what}");
            let path = temp_file(&format!("throngs-{name}-{opening}.txt"), &text);
            let out = referee_record("throngs", &path, &[]).unwrap_or_else(|e| panic!("referee, {what}: {e}"));
            assert_eq!((out["position"].as_str().unwrap().to_string(), out["status"].to_string()), expected, "{what}");
        }
    }
}

/// A random game whose record holds a move of many decisions.
struct LongMoves {
    slug: &'static str,
    options: [(&'static str, &'static str); 2],
    /// Random decisions played, and their seed.
    played: usize,
    seed: u64,
    /// Decisions in its longest move, at least.
    longest: usize,
}

#[test]
fn moves_of_many_decisions_in_every_game_read_back_to_the_same_decisions() {
    // A Gravel turn of nine actions and its end, an Inchworm distribution along a high stack:
    // more decisions than a search for them could try (it gave up, or found others).
    let cases = [
        LongMoves { slug: "gravel", options: [("N", "8"), ("X", "9")], played: 60, seed: 1, longest: 10 },
        LongMoves { slug: "gravel", options: [("N", "19"), ("X", "9")], played: 60, seed: 2, longest: 10 },
        LongMoves { slug: "gravel", options: [("N", "3"), ("X", "9")], played: 60, seed: 1, longest: 6 },
        LongMoves {
            slug: "inchworm",
            options: [("topology", "torus"), ("prisoner_drops", "on")],
            played: 400,
            seed: 2,
            longest: 13,
        },
    ];
    for case in cases {
        let record = random_record_under(GameKind::named(case.slug), &pairs(&case.options), case.played, case.seed);
        let what = format!("{} {:?} seed {}", case.slug, case.options, case.seed);
        assert!(longest_move(&record) >= case.longest, "{what}: a move of {} decisions was played", case.longest);
        let text = record.to_spec_text().unwrap_or_else(|e| panic!("{what}: {e}"));
        let read = GameRecord::from_spec_text(&text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
        assert_eq!(decisions(&read), decisions(&record), "{what}\n{text}");
    }
}
