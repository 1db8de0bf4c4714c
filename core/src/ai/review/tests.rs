//! Tests of the review: planted blunders per game, determinism, saved reviews.

use super::*;
use crate::games::{DynGame, GameKind};
use crate::rules::{Outcome, Side, Status, ToMove, splitmix64_nth};
use crate::session::Match;

/// The seed of every review here; each game reviews at its own budget (`review_iterations`).
const SEED: u64 = 1;

/// Rules options as `key=value` pairs.
type Options<'a> = &'a [(&'a str, &'a str)];
/// A way to spoil a saved review's JSON.
type Spoil = fn(&mut serde_json::Value);

/// A game record built for a test: each record move is either the review's own preferred
/// decisions (what the review of the finished record will analyse at that point, with the same
/// budget and probe seed) or planted by the test.
struct Record {
    kind: GameKind,
    options: Vec<(String, String)>,
    start: Option<String>,
    decisions: Vec<String>,
    /// The reviewed turns (indexes) the test planted.
    planted: Vec<usize>,
    /// The jobs whose preferred decisions the other turns play, by turn.
    jobs: Vec<(usize, ProbeJob)>,
}

impl Record {
    fn new(slug: &str, options: Options, start: Option<&str>) -> Record {
        Record {
            kind: GameKind::from_slug(slug).expect("a game of the registry"),
            options: options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            start: start.map(str::to_string),
            decisions: Vec::new(),
            planted: Vec::new(),
            jobs: Vec::new(),
        }
    }

    fn settings(&self) -> ReviewSettings {
        ReviewSettings::default_for(self.kind, SEED)
    }

    fn game(&self) -> Match {
        let start = self.kind.open(&self.options, self.start.as_deref()).expect("the start opens");
        Match::load(start, self.decisions.iter().map(|d| (d.as_str(), 0))).expect("the record replays")
    }

    /// How many turns a review of the record so far judges.
    fn turns(&self) -> usize {
        match GameReview::plan(&self.game(), self.settings()) {
            Ok(review) => review.turns.len(),
            Err(ReviewError::Empty) => 0,
            Err(e) => panic!("the record cannot be planned: {e}"),
        }
    }

    /// The job the review of the finished record runs for turn `index` of `side`, which starts
    /// where `game` ends (the probe of a turn has the turn's index).
    fn job(&self, game: &Match, side: Side, index: usize) -> ProbeJob {
        ProbeJob {
            game: self.kind.slug().to_string(),
            options: game.start().option_pairs(),
            start: game.start_text().map(str::to_string),
            moves: game.decisions().map(str::to_string).collect(),
            side,
            played: Vec::new(),
            iterations: self.settings().iterations,
            seed: splitmix64_nth(SEED, index as u64),
        }
    }

    /// Plays one record move: `planted`'s side plays the given decisions, every other side to act
    /// plays the review's preferred decisions (in a simultaneous attempt, both sides' commitments).
    fn play_move(&mut self, planted: Option<(Side, &[&str])>) {
        let game = self.game();
        let sides = match game.position().to_move() {
            Some(ToMove::One(side)) => vec![side],
            Some(ToMove::Both) => Side::BOTH.to_vec(),
            None => panic!("the game is over after {:?}", self.decisions),
        };
        let first_turn = self.turns();
        let moves_before = game.record_moves().len();
        for (k, &side) in sides.iter().enumerate() {
            match planted {
                Some((planted_side, decisions)) if planted_side == side => {
                    self.planted.push(first_turn + k);
                    self.decisions.extend(decisions.iter().map(|d| d.to_string()));
                }
                _ => {
                    let job = self.job(&game, side, first_turn + k);
                    self.decisions.extend(job.run().expect("the job runs").best);
                    self.jobs.push((first_turn + k, job));
                }
            }
        }
        let after = self.game();
        assert!(
            after.record_moves().len() == moves_before + 1 && after.pending() == 0,
            "the decisions {:?} make one whole record move",
            &self.decisions[game.len()..]
        );
    }

    /// Plays `count` record moves of the review's own preferred decisions.
    fn play_preferred(&mut self, count: usize) {
        for _ in 0..count {
            self.play_move(None);
        }
    }

    /// Plays one record move in which `side` plays `decisions` (planted).
    fn plant(&mut self, side: Side, decisions: &[&str]) {
        self.play_move(Some((side, decisions)));
    }

    /// Plays `decisions`, a whole turn of one side that may make several record moves (Throngs'
    /// two parts), each a planted turn; returns the index of the last.
    fn plant_turn(&mut self, decisions: &[String]) -> usize {
        let mut planted = None;
        for decision in decisions {
            let moves_before = self.game().record_moves().len();
            let first_turn = self.turns();
            self.decisions.push(decision.clone());
            let after = self.game();
            if after.record_moves().len() > moves_before && after.pending() == 0 {
                self.planted.push(first_turn);
                planted = Some(first_turn);
            }
        }
        planted.expect("the decisions make whole record moves")
    }

    /// The record's review, every position analysed. The review's job for each turn of preferred
    /// decisions is the one that chose them (the turn's own decisions aside).
    fn review(&self) -> GameReview {
        let mut review = GameReview::plan(&self.game(), self.settings()).expect("the record can be reviewed");
        for (t, job) in &self.jobs {
            let turn = &review.turns[*t];
            assert_eq!(turn.probe, *t, "a turn's probe has the turn's index");
            let expected = ProbeJob { played: turn.played.clone(), ..job.clone() };
            assert_eq!(review.job(turn.probe), Some(expected), "turn {t}'s job");
        }
        review.complete(|_, _| {}).expect("every position is analysed");
        review
    }
}

/// The review's turns as a table, for failure messages.
fn table(review: &GameReview) -> String {
    let mut text = String::new();
    for (t, turn) in review.turns.iter().enumerate() {
        let j = review.judgement(t);
        let (before, after, label, best) =
            j.map_or((f32::NAN, f32::NAN, "-", Vec::new()), |j| (j.win_before, j.win_after, j.label.name(), j.best));
        text += &format!(
            "\n  {t}: #{} {:?} {:?} {before:.3} -> {after:.3} {label} (best {best:?})",
            turn.number, turn.side, turn.played
        );
    }
    text
}

/// Reviews `record` and checks that its planted turn `blunder` is labelled a blunder with a better
/// decision shown, that every other planted turn is not, and that every turn of the review's own
/// preferred decisions is labelled best.
fn assert_blunder_exactly_at(record: &Record, blunder: usize) -> GameReview {
    assert!(record.planted.contains(&blunder), "the blunder is a planted turn");
    let review = record.review();
    assert!(review.is_complete());
    let table = table(&review);
    assert!(blunder < review.turns.len(), "{table}");
    for (t, turn) in review.turns.iter().enumerate() {
        let j = review.judgement(t).unwrap_or_else(|| panic!("turn {t} is judged:{table}"));
        assert!((0.0..=1.0).contains(&j.win_before) && (0.0..=1.0).contains(&j.win_after), "{table}");
        if t == blunder {
            assert_eq!(j.label, Label::Blunder, "turn {t} is the planted blunder:{table}");
            assert_ne!(j.best, turn.played, "the review shows a better decision than the blunder:{table}");
            assert!(!j.best.is_empty(), "{table}");
            assert!(j.win_before - j.win_after >= BEST, "{table}");
        } else if record.planted.contains(&t) {
            assert_ne!(j.label, Label::Blunder, "turn {t} is not the planted blunder:{table}");
        } else {
            assert_eq!(j.best, turn.played, "turn {t} is the review's own preferred turn:{table}");
            assert_eq!(j.label, Label::Best, "turn {t} is the review's own preferred turn:{table}");
        }
    }
    review
}

/// For a blunder of one side's turn: the opponent's refutation is shown, and it is the turn the
/// record played next, after which (within that side's turn) the game ended with its win.
fn assert_refuted_at_once(record: &Record, review: &GameReview, blunder: usize) {
    let table = table(review);
    let turn = &review.turns[blunder];
    let opponent = turn.side.opponent();
    let j = review.judgement(blunder).expect("judged");
    assert!(!turn.simultaneous);
    assert!(!j.reply.is_empty(), "the blunder's refutation is shown:{table}");
    assert_eq!(j.reply, review.turns[blunder + 1].played, "the refutation is what the record played:{table}");
    assert!(review.turns[blunder + 1..].iter().all(|t| t.side == opponent), "{table}");
    assert_eq!(record.game().position().status(), Status::Over(Outcome::Winner(opponent)), "{table}");
}

/// Every complete commitment `side` can seal in `position`, as its decisions.
fn commitments(position: &dyn DynGame, side: Side) -> Vec<Vec<String>> {
    let mut sealed = Vec::new();
    let mut open = vec![(position.clone_box(), Vec::new())];
    while let Some((at, made)) = open.pop() {
        let legal = at.legal_decisions(side);
        if legal.is_empty() {
            sealed.push(made);
            continue;
        }
        for decision in legal {
            let mut next = at.clone_box();
            next.play_decision(&decision).expect("a legal decision plays");
            let mut made = made.clone();
            made.push(decision);
            open.push((next, made));
        }
    }
    sealed
}

/// How an attempt of commitments `a` (side A) and `b` (side B) from `position` ends.
fn attempt(position: &dyn DynGame, a: &[String], b: &[String]) -> Status {
    let mut after = position.clone_box();
    for decision in a.iter().chain(b) {
        after.play_decision(decision).expect("a sealed commitment plays");
    }
    after.status()
}

// ------------------------------------------------------------------------------------------------
// Planted blunders

/// Gravel on 4×4 with a budget of 2 (P = 9): both sides have lost 2 pieces; Light's three
/// single pieces stand in corners, where Dark cannot win control in one turn. Dark plays its
/// preferred turn, then Light returns two of its corner pieces (`-a1,-a4`): it occupies one
/// space against 2 pieces lost, so the check after any Dark turn finds Light losing on territory
/// (rules §8.2, worked example 10). Dark's preferred reply ends the game.
fn gravel_record() -> (Record, usize) {
    let mut record =
        Record::new("gravel", &[("N", "4"), ("X", "2")], Some("4 2 L1..L1/..../.D1D1./L1..D1 D 4 4 2 2 5"));
    record.play_preferred(1);
    record.plant(Side::First, &["-a1", "-a4", "end"]);
    record.play_preferred(1);
    (record, 1)
}

#[test]
fn gravel_planted_blunder_is_found_exactly_there() {
    let (record, blunder) = gravel_record();
    let review = assert_blunder_exactly_at(&record, blunder);
    assert_refuted_at_once(&record, &review, blunder);
}

/// Red Stone on 5×5: all of White's stones are one group whose only liberties are its two eyes
/// A5 and C5, walled in by Black. After Black's preferred move White fills its own eye (`A5`),
/// leaving C5 as the last liberty: Black's red stone there removes every White stone and wins by
/// annihilation (rules §5). White stood badly already (the review gives it about 0.16), so the
/// label rests on the rule that handing the opponent a win at once is a blunder.
fn red_stone_record() -> (Record, usize) {
    let mut record = Record::new("red-stone", &[("size", "5")], Some(".O.OX/OOOOX/XXXXX/...../..... b"));
    record.play_preferred(1);
    record.plant(Side::Second, &["A5"]);
    record.play_preferred(1);
    (record, 1)
}

#[test]
fn red_stone_planted_blunder_is_found_exactly_there() {
    let (record, blunder) = red_stone_record();
    let review = assert_blunder_exactly_at(&record, blunder);
    assert_refuted_at_once(&record, &review, blunder);
    assert_eq!(review.turns[blunder + 1].played, ["C5*"]);
}

/// Throngs on R63, nearly full: Black (29 stones) trails White (30) by one but holds the only
/// four empty sites, where White has no power, so Black's placements win the count. Black passes
/// both parts of its turn instead; White then passes both of its parts, which ends the game
/// (two fully passed turns in a row, rules §6.1) with White ahead. Passing the first part costs
/// nothing (the second can still place); passing the second hands White the game.
fn throngs_record() -> (Record, usize) {
    let black = "e7,e8,e9,f2,f3,f4,f5,f6,f7,f8,f9,g3,g4,g5,g6,g7,g8,g9,g10,h4,h5,h6,h7,h8,h9,h10,i6,i7,i8";
    let white = "a3,a4,a5,b2,b3,b4,b5,b6,b7,c1,c2,c3,c4,c5,c6,c7,c8,d1,d2,d3,d4,d5,d6,d7,d8,e2,e3,e4,e5,e6";
    let position = format!("R63 B1 B:{black} W:{white} idle=0,0 passrun=0 turn=20");
    let mut record = Record::new("throngs", &[("board", "R63")], Some(&position));
    record.plant(Side::First, &["pass"]);
    record.plant(Side::First, &["pass"]);
    record.play_preferred(2);
    (record, 1)
}

#[test]
fn throngs_planted_blunder_is_found_exactly_there() {
    let (record, blunder) = throngs_record();
    let review = assert_blunder_exactly_at(&record, blunder);
    assert_refuted_at_once(&record, &review, blunder);
    assert_eq!(review.turns[blunder + 1].played, ["pass"]);
}

/// Inchworm to 10 points at 4–4: each side has a 6-stone group in a corner with two eyes, walled
/// in by the other side (Black's eyes a1 and c1, White's f8 and h8). Black, to move, fills its
/// own eye (`Da1`): White's drop on c1 takes the last liberty and captures the 7 stones, 11 points
/// ≥ 10 (the dropped stone dies too, Black 5), and White wins (rules §7–8).
fn inchworm_record() -> (Record, usize) {
    let ranks = [
        "...B1W1.W1.",
        "...B1W1W1W1W1",
        "...B1B1B1B1B1",
        "........",
        "........",
        "W1W1W1W1W1...",
        "B1B1B1B1W1...",
        ".B1.B1W1...",
    ];
    let position = format!("{} b 12 12 0 0 4 4", ranks.join("/"));
    let mut record = Record::new("inchworm", &[("target", "10")], Some(&position));
    record.plant(Side::First, &["Da1"]);
    record.play_preferred(1);
    (record, 0)
}

#[test]
fn inchworm_planted_blunder_is_found_exactly_there() {
    let (record, blunder) = inchworm_record();
    let review = assert_blunder_exactly_at(&record, blunder);
    assert_refuted_at_once(&record, &review, blunder);
    assert_eq!(review.turns[blunder + 1].played, ["Dc1"]);
}

/// Hidden Intention, the last turn (the board of worked example 12): A has a bishop and one swap
/// left, B a pawn and no swap. A's commitment `f2<>e4 Be2` swaps its knight and pawn: the cascade
/// costs A so much that it loses the count whatever B places, while the review's choice wins it
/// whatever B places (unless B names the same square and burns it).
const HIDDEN_LAST_TURN: &str =
    "Rb2 Nf2/ne Qd3 Xc4 Pe4 ; Pd5 Xf5 Qe6 Nc7/sw Rg7 ; P0R0B1N0Q0 P1R0B0N0Q0 ; 1 0 ; - ; 14.1";

#[test]
fn hidden_intention_planted_blunder_is_found_exactly_there() {
    let blunder = ["A:f2<>e4", "A:B", "A:e2"];
    let mut record = Record::new("hidden-intention", &[], Some(HIDDEN_LAST_TURN));
    record.plant(Side::First, &blunder);
    let review = assert_blunder_exactly_at(&record, 0);
    let table = table(&review);
    assert_eq!(review.turns.len(), 2, "one attempt, a turn per side:{table}");
    assert!(review.turns.iter().all(|t| t.simultaneous && t.number == 1), "{table}");
    assert_eq!(record.game().position().status(), Status::Over(Outcome::Winner(Side::Second)));
    let judgement = review.judgement(0).expect("judged");
    assert!(judgement.reply.is_empty(), "a commitment has no known reply");
    // Played out whole against the opponent's likely answers, not judged by its first decisions.
    assert!(judgement.win_after < 0.1, "a commitment that loses to every answer:{table}");
    let analysis = review.analyses[review.turns[0].probe].as_ref().expect("analysed");
    assert_eq!(analysis.played_win, Some(judgement.win_after), "judged by the value of the commitment played");
    // The rules agree: the blunder loses against every commitment of B, the preferred one wins
    // against every commitment of B that does not burn its square.
    let start = GameKind::from_slug("hidden-intention").unwrap().open(&[], Some(HIDDEN_LAST_TURN)).unwrap();
    let replies = commitments(start.as_ref(), Side::Second);
    assert!(replies.len() > 20);
    for reply in &replies {
        let lost = attempt(start.as_ref(), &review.turns[0].played, reply);
        assert_eq!(lost, Status::Over(Outcome::Winner(Side::Second)), "{blunder:?} against {reply:?}");
        let won = attempt(start.as_ref(), &judgement.best, reply);
        assert!(
            matches!(won, Status::Over(Outcome::Winner(Side::First)) | Status::Ongoing),
            "{:?} against {reply:?}: {won:?}",
            judgement.best
        );
    }
}

// ------------------------------------------------------------------------------------------------
// The computer's own choices

#[test]
fn the_reviews_own_preferred_turns_are_always_best() {
    // From each game's start (small boards), and for Hidden Intention two turns from the end, both
    // sides play the review's own preferred turns: each is labelled best, whatever the estimates
    // of the positions before and after it say.
    let mut records = Vec::new();
    let games: [(&str, Options, usize); 4] = [
        ("gravel", &[("N", "4"), ("X", "2")], 2),
        ("red-stone", &[("size", "5")], 3),
        ("throngs", &[("board", "R63")], 2),
        ("inchworm", &[], 2),
    ];
    for (slug, options, moves) in games {
        let mut record = Record::new(slug, options, None);
        record.play_preferred(moves);
        records.push(record);
    }
    records.push(hidden_intention_two_attempts());
    for record in records {
        let slug = record.kind.slug();
        let review = record.review();
        let table = table(&review);
        assert!(!review.turns.is_empty() && record.planted.is_empty(), "{slug}");
        for (t, turn) in review.turns.iter().enumerate() {
            let j = review.judgement(t).expect("judged");
            assert_eq!(j.best, turn.played, "{slug} turn {t}:{table}");
            assert_eq!(j.label, Label::Best, "{slug} turn {t}:{table}");
        }
        for side in Side::BOTH {
            let summary = review.summary(side);
            assert_eq!(summary.count(Label::Best), summary.counts.iter().sum::<usize>(), "{slug}:{table}");
            assert!(summary.key_moments.is_empty(), "{slug}:{table}");
        }
    }
}

// ------------------------------------------------------------------------------------------------
// Determinism and saved reviews

/// Hidden Intention two turns from the end (A: a pawn, a bishop and a swap; B: two pawns), both
/// attempts of the review's own commitments: simultaneous turns over more than one attempt.
fn hidden_intention_two_attempts() -> Record {
    let position = "Rb2 Nf2/ne Qd3 Xc4 Pe4 ; Pd5 Xf5 Qe6 Nc7/sw Rg7 ; P1R0B1N0Q0 P2R0B0N0Q0 ; 1 0 ; - ; 13.1";
    let mut record = Record::new("hidden-intention", &[], Some(position));
    record.play_preferred(2);
    record
}

#[test]
fn same_record_settings_and_seed_give_the_same_review() {
    for record in [red_stone_record().0, hidden_intention_two_attempts()] {
        let first = record.review();
        let second = record.review();
        assert_eq!(first.to_json(), second.to_json(), "{}", record.kind.slug());
        // The same jobs sent as JSON (as to the browser's worker) and run in another order.
        let mut by_jobs = GameReview::plan(&record.game(), record.settings()).unwrap();
        for index in (0..by_jobs.probes.len()).rev() {
            let job = ProbeJob::from_json(&by_jobs.job(index).unwrap().to_json()).expect("a job reads back");
            by_jobs.record(index, job.run().expect("the job runs")).unwrap();
        }
        assert_eq!(by_jobs.to_json(), first.to_json(), "{}", record.kind.slug());
    }
}

#[test]
fn a_saved_review_reloads_without_thinking_again() {
    let (record, _) = gravel_record();
    let review = record.review();
    let reloaded = GameReview::from_json(&review.to_json()).expect("a saved review reloads");
    assert_eq!(reloaded.next_probe(), None);
    assert!(reloaded.is_complete());
    assert_eq!(reloaded.progress(), (review.probes.len(), review.probes.len()));
    for t in 0..review.turns.len() {
        assert!(reloaded.judgement(t).is_some());
        assert_eq!(reloaded.judgement(t), review.judgement(t), "turn {t}");
    }
    for side in Side::BOTH {
        assert_eq!(reloaded.summary(side), review.summary(side));
    }
    assert_eq!(reloaded.first_side_curve(), review.first_side_curve());
    assert_eq!(reloaded, review);
    let mut again = reloaded;
    let mut thought = 0;
    again.complete(|_, _| thought += 1).unwrap();
    assert_eq!(thought, 0, "a complete review analyses nothing");
    assert_eq!(again, review);

    // A review saved half done goes on from the first position it lacks, to the same end.
    let mut partial = GameReview::plan(&record.game(), record.settings()).unwrap();
    assert_eq!(partial.judgement(0), None);
    partial.record(0, partial.job(0).unwrap().run().unwrap()).unwrap();
    assert_eq!(partial.judgement(0), None, "a turn waits for the position after it");
    let mut resumed = GameReview::from_json(&partial.to_json()).expect("a partial review reloads");
    assert_eq!(resumed.next_probe(), Some(1));
    assert_eq!(resumed.progress(), (1, review.probes.len()));
    resumed.complete(|_, _| thought += 1).unwrap();
    assert_eq!(thought, review.probes.len() - 1);
    assert_eq!(resumed.to_json(), review.to_json());
}

#[test]
fn a_damaged_saved_review_is_refused() {
    let (record, _) = red_stone_record();
    let mut review = GameReview::plan(&record.game(), record.settings()).unwrap();
    review.record(0, review.job(0).unwrap().run().unwrap()).unwrap();
    let text = review.to_json();
    assert!(GameReview::from_json(&text).is_ok());
    for bad in ["", "{", "null", "[]", "{}", "\"review\"", "{\"settings\":{\"iterations\":1,\"seed\":1}}"] {
        assert!(GameReview::from_json(bad).is_err(), "{bad:?}");
    }
    for cut in (0..text.len()).step_by(5).filter(|&c| text.is_char_boundary(c)) {
        assert!(GameReview::from_json(&text[..cut]).is_err(), "cut at {cut}");
    }
    // Well-formed JSON whose parts do not fit together.
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let damage: [(&str, Spoil); 8] = [
        ("an analysis missing", |v| {
            v["analyses"].as_array_mut().unwrap().pop();
        }),
        ("a turn's position out of range", |v| v["turns"][0]["probe"] = 99.into()),
        ("a turn's next position out of range", |v| v["turns"][0]["next_probe"] = 99.into()),
        ("a position past the decisions", |v| v["probes"][1]["prefix"] = 99.into()),
        ("a position of no turn", |v| v["probes"][0]["turn"] = 99.into()),
        ("an analysis of the other side", |v| v["analyses"][0]["side"] = "Second".into()),
        ("a decision that is not text", |v| v["decisions"][0] = 7.into()),
        ("text in place of a number", |v| v["settings"]["iterations"] = "many".into()),
    ];
    for (what, spoil) in damage {
        let mut damaged = value.clone();
        spoil(&mut damaged);
        assert!(GameReview::from_json(&damaged.to_string()).is_err(), "{what} is refused");
    }
}

// ------------------------------------------------------------------------------------------------
// Summaries

#[test]
fn a_summary_counts_each_sides_turns_and_keeps_its_worst_moments() {
    // Red Stone on 5×5: Black plays the review's own moves; White plays fixed picks from its
    // legal moves, red stones where it has any (a spread of poor ones: most remove nothing of
    // Black's and cost White the stone's tempo).
    let mut record = Record::new("red-stone", &[("size", "5")], None);
    for _ in 0..12 {
        let game = record.game();
        if game.is_over() {
            break;
        }
        match game.position().to_move() {
            Some(ToMove::One(Side::Second)) => {
                let mut legal = game.position().legal_decisions(Side::Second);
                if legal.iter().any(|d| d.ends_with('*')) {
                    legal.retain(|d| d.ends_with('*'));
                }
                let pick = legal[(23_757 + 31 * game.record_moves().len()) % legal.len()].clone();
                record.plant(Side::Second, &[pick.as_str()]);
            }
            _ => record.play_preferred(1),
        }
    }
    let partial = GameReview::plan(&record.game(), record.settings()).unwrap();
    for side in Side::BOTH {
        assert_eq!(partial.summary(side), SideSummary::default(), "nothing judged yet");
    }
    let review = record.review();
    let table = table(&review);
    for side in Side::BOTH {
        let summary = review.summary(side);
        let judged: Vec<(usize, Judgement)> = (0..review.turns.len())
            .filter(|&t| review.turns[t].side == side)
            .map(|t| (t, review.judgement(t).expect("judged")))
            .collect();
        assert_eq!(summary.counts.iter().sum::<usize>(), judged.len(), "{side:?}:{table}");
        for label in Label::ALL {
            assert_eq!(summary.count(label), judged.iter().filter(|(_, j)| j.label == label).count(), "{label:?}");
        }
        let accuracy = summary.accuracy.expect("turns were judged");
        assert!((0.0..=100.0).contains(&accuracy), "{accuracy}");
        let mean = judged.iter().map(|(_, j)| j.accuracy()).sum::<f32>() / judged.len() as f32;
        assert!((accuracy - mean).abs() < 1e-3, "{accuracy} {mean}");
        let poor: Vec<&(usize, Judgement)> = judged.iter().filter(|(_, j)| j.label >= Label::Inaccuracy).collect();
        assert_eq!(summary.key_moments.len(), poor.len().min(KEY_MOMENTS), "{side:?}:{table}");
        assert!(summary.key_moments.windows(2).all(|w| w[0] < w[1]), "in game order");
        let mut least = f32::INFINITY;
        for &t in &summary.key_moments {
            assert_eq!(review.turns[t].side, side);
            let j = review.judgement(t).unwrap();
            assert!(j.label >= Label::Inaccuracy, "{side:?} turn {t}:{table}");
            least = least.min(j.drop());
        }
        for (t, j) in poor {
            assert!(summary.key_moments.contains(t) || j.drop() <= least, "turn {t} is among the largest drops");
        }
    }
    let black = review.summary(Side::First);
    let white = review.summary(Side::Second);
    assert_eq!(black.count(Label::Best), black.counts.iter().sum::<usize>(), "{table}");
    let white_poor: usize = [Label::Inaccuracy, Label::Mistake, Label::Blunder].iter().map(|&l| white.count(l)).sum();
    assert!(white_poor >= 2, "White's red stones are poor turns:{table}");
    assert_eq!(white.key_moments.len(), white_poor.min(KEY_MOMENTS));
    assert!(black.accuracy.unwrap() > white.accuracy.unwrap());
    let mut both = white.key_moments.clone();
    both.extend(&black.key_moments);
    both.sort_unstable();
    assert_eq!(review.key_moments(), both);
}

/// How long a full review of a typical game takes at the default budget, per game: a game played
/// by the computer at Easy against itself on the default options (seeded), then reviewed. A
/// measurement for docs/performance-figures.md, not a check: `cargo test --release
/// --no-default-features --lib review_times -- --ignored --nocapture`.
#[test]
#[ignore = "a timing report (minutes), run by hand for docs/performance-figures.md"]
fn review_times() {
    use crate::ai::games::decide_timed;
    use crate::ai::{Level, Timing};
    for kind in GameKind::all() {
        let mut game = Match::open(kind, &[], None).unwrap();
        let mut n = 0u64;
        while !game.is_over() && n < 600 {
            let position = game.position().clone_box();
            let side = match position.to_move() {
                Some(ToMove::One(side)) => side,
                // Both commit: the first side's commitment, then the second's, each from the
                // public position (the second does not see the first's).
                Some(ToMove::Both) => {
                    if position.legal_decisions(Side::First).is_empty() {
                        Side::Second
                    } else {
                        Side::First
                    }
                }
                None => break,
            };
            let public = game.position_for(crate::session::Viewer::Seat(game.seat_of(side)));
            let d = decide_timed(public.as_ref(), side, Level::Easy, n, None, Timing::Reproducible).unwrap();
            let seat = game.seat_for(&d).unwrap();
            game.decide(seat, &d, 0).unwrap();
            n += 1;
        }
        let settings = ReviewSettings::default_for(kind, 1);
        let mut review = GameReview::plan(&game, settings).unwrap();
        let started = std::time::Instant::now();
        review.complete(|_, _| {}).unwrap();
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "review-time {kind}: {} decisions, {} turns, {} positions at {} iterations: {seconds:.1} s ({:.2} s a position)",
            game.len(),
            review.turns.len(),
            review.probes.len(),
            settings.iterations,
            seconds / review.probes.len() as f64
        );
    }
}

/// The review of Red Stone's spec game (5×5, 12 moves) as `tests/web/review-red-stone.json` holds
/// it: the browser test checks that the page's worker gives the same labels and graph, so the
/// same record, budget and seed give the same review natively and in the browser. After a change
/// to the search, `STONEYARD_WRITE_FIXTURES=1` writes the file again.
#[test]
fn the_spec_game_review_is_the_one_the_browser_test_expects() {
    let fixture_path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/web/review-red-stone.json");
    let kind = GameKind::from_slug("red-stone").unwrap();
    let options = [("size".to_string(), "5".to_string())];
    let moves = ["C3", "swap", "A1", "B1", "A2", "B2", "A3", "B3", "A4", "B4", "A5", "B5*"];
    let mut m = Match::open(kind, &options, None).unwrap();
    for d in moves {
        let seat = m.seat_for(d).unwrap();
        m.decide(seat, d, 0).unwrap();
    }
    // The app's review: the game's default budget, seed 1.
    let mut review = GameReview::plan(&m, ReviewSettings::default_for(kind, 1)).unwrap();
    review.complete(|_, _| {}).unwrap();
    let labels: Vec<&str> = (0..review.turns.len()).map(|t| review.judgement(t).unwrap().label.name()).collect();
    // As the page's state mirror writes them: thousandths.
    let graph: Vec<f64> =
        review.first_side_curve().iter().map(|v| f64::from((v.unwrap() * 1000.0).round()) / 1000.0).collect();
    let now = serde_json::json!({ "moves": moves, "labels": labels, "graph": graph });
    if std::env::var_os("STONEYARD_WRITE_FIXTURES").is_some() {
        std::fs::write(fixture_path, serde_json::to_string_pretty(&now).unwrap() + "\n").unwrap();
    }
    let kept: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(fixture_path).unwrap()).unwrap();
    assert_eq!(kept, now, "the review changed: write the fixture again (STONEYARD_WRITE_FIXTURES=1) if it should");
    assert_eq!(labels[10], "blunder", "A5 hands Black a red stone that takes every white stone");
}

// ------------------------------------------------------------------------------------------------
// Material blunders: a turn that lets the opponent take decisive material

/// How much `side` is ahead in what the game counts as material: pieces lost (Gravel), stones on
/// the board (Red Stone, Throngs), points (Inchworm).
fn material(position: &dyn DynGame, side: Side) -> i32 {
    use crate::games::{gravel, inchworm, red_stone, throngs};
    let any = position.as_any();
    let opponent = side.opponent();
    if let Some(p) = any.downcast_ref::<gravel::Position>() {
        return i32::from(p.lost(opponent)) - i32::from(p.lost(side));
    }
    if let Some(p) = any.downcast_ref::<red_stone::Position>() {
        return p.stone_count(side) as i32 - p.stone_count(opponent) as i32;
    }
    if let Some(p) = any.downcast_ref::<throngs::Position>() {
        return i32::from(p.stones_of(side)) - i32::from(p.stones_of(opponent));
    }
    if let Some(p) = any.downcast_ref::<inchworm::Position>() {
        return p.score(side) as i32 - p.score(opponent) as i32;
    }
    panic!("no material for {}", position.kind())
}

/// Every whole turn `side` can play from `position` (its decisions until the other side is to act
/// or the game ends), at most `limit` of them.
fn whole_turns(position: &dyn DynGame, side: Side, limit: usize) -> Vec<(Vec<String>, Box<dyn DynGame>)> {
    let mut turns = Vec::new();
    let mut open = vec![(position.clone_box(), Vec::new())];
    while let Some((at, made)) = open.pop() {
        if turns.len() >= limit {
            break;
        }
        if !made.is_empty() && at.to_move() != Some(ToMove::One(side)) {
            turns.push((made, at));
            continue;
        }
        for decision in at.legal_decisions(side) {
            let mut next = at.clone_box();
            next.play_decision(&decision).expect("a legal decision plays");
            let mut made = made.clone();
            made.push(decision);
            open.push((next, made));
        }
    }
    turns
}

/// The opponent's whole turn after which `side` stands worst in material, and that material.
fn opponents_best_take(position: &dyn DynGame, side: Side) -> (Vec<String>, i32) {
    if position.status() != Status::Ongoing {
        return (Vec::new(), material(position, side));
    }
    whole_turns(position, side.opponent(), 3_000)
        .into_iter()
        .map(|(turn, after)| (turn, material(after.as_ref(), side)))
        .min_by_key(|(_, m)| *m)
        .unwrap_or((Vec::new(), material(position, side)))
}

/// Searches self-played games for turns that let the opponent take at least `swing` more
/// material than the mover's best turn allows, and prints each with the review's label (run by
/// hand to find the records of the material-blunder tests below).
#[test]
#[ignore = "a search for test records (minutes), run by hand"]
fn find_material_blunders() {
    use crate::ai::Level;
    use crate::ai::games::self_play;
    // GAME=slug [OPTION=key=value] [SWING=material] [LEVEL=easy]
    let wanted = std::env::var("GAME").unwrap_or_else(|_| "red-stone".to_string());
    let kind = GameKind::from_slug(&wanted).unwrap();
    let swing: i32 = std::env::var("SWING").ok().and_then(|s| s.parse().ok()).unwrap_or(3);
    let options: Vec<(String, String)> = std::env::var("OPTION")
        .ok()
        .and_then(|o| o.split_once('=').map(|(k, v)| vec![(k.to_string(), v.to_string())]))
        .unwrap_or_default();
    for seed in 1..=4u64 {
        let level = std::env::var("LEVEL").ok().and_then(|l| l.parse().ok()).unwrap_or(Level::Easy);
        let game = self_play(kind, &options, (6, level), seed, 300).unwrap();
        let mut position = game.start().clone_box();
        for (k, decision) in game.decisions().enumerate() {
            let at = position.clone_box();
            position.play_decision(decision).unwrap();
            let Some(ToMove::One(side)) = at.to_move() else { continue };
            if k % 3 != 0 || (k > 0 && game.position_before(k - 1).and_then(|p| p.to_move()) == Some(ToMove::One(side)))
            {
                continue;
            }
            let turns = whole_turns(at.as_ref(), side, 400);
            let outcomes: Vec<(Vec<String>, Vec<String>, i32)> = turns
                .into_iter()
                .filter(|(_, after)| after.status() == Status::Ongoing)
                .map(|(turn, after)| {
                    let (reply, left) = opponents_best_take(after.as_ref(), side);
                    (turn, reply, left)
                })
                .collect();
            let Some(best) = outcomes.iter().map(|o| o.2).max() else { continue };
            let Some((turn, reply, left)) = outcomes.iter().filter(|o| o.2 <= best - swing).min_by_key(|o| o.2) else {
                continue;
            };
            let better = outcomes.iter().find(|o| o.2 == best).unwrap();
            let start = at.position_text();
            let mut record = Record::new(kind.slug(), &[], Some(&start));
            record.options = options.clone();
            if record.game().position().status() != Status::Ongoing {
                continue;
            }
            let t = record.plant_turn(turn);
            if !reply.is_empty() {
                record.plant_turn(reply);
            }
            let mut review = GameReview::plan(&record.game(), ReviewSettings::default_for(kind, SEED)).unwrap();
            review.complete_on(2, |_, _| {}).unwrap();
            let Some(j) = review.judgement(t) else { continue };
            println!(
                "seed {seed} decision {k}: {start:?} {turn:?} (reply {reply:?}: material {left} vs {best} after {:?}) -> {} {:.3}->{:.3} best {:?}",
                better.0,
                j.label.name(),
                j.win_before,
                j.win_after,
                j.best
            );
        }
    }
}

/// A start position where the side to move can play `blunder` (a whole turn), after which the
/// opponent's best take leaves it at least `at_least` material worse off than after `better`.
/// Checks that claim with the engine, then reviews both records (the turn, then the opponent's
/// best take): the blunder is labelled a blunder with a better turn shown, and the review sees
/// `better` at least a blunder's drop better.
fn assert_material_blunder(
    slug: &str,
    options: Options,
    start: &str,
    blunder: &[&str],
    better: &[&str],
    at_least: i32,
) {
    let kind = GameKind::from_slug(slug).unwrap();
    let position = kind
        .open(&options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>(), Some(start))
        .unwrap();
    let Some(ToMove::One(side)) = position.to_move() else { panic!("one side is to move in {start}") };
    let play = |turn: &[&str]| {
        let mut after = position.clone_box();
        for d in turn {
            after.play_decision(d).unwrap_or_else(|e| panic!("{d} plays: {e:?}"));
        }
        assert_ne!(after.to_move(), Some(ToMove::One(side)), "{turn:?} is a whole turn");
        after
    };
    let (take, left_after_blunder) = opponents_best_take(play(blunder).as_ref(), side);
    let (better_take, left_after_better) = opponents_best_take(play(better).as_ref(), side);
    assert!(
        left_after_better - left_after_blunder >= at_least,
        "after {blunder:?} the opponent's {take:?} leaves {left_after_blunder}, after {better:?} its {better_take:?} leaves {left_after_better}"
    );
    let judged = |turn: &[&str], reply: &[String]| {
        let mut record = Record::new(slug, options, Some(start));
        let own: Vec<String> = turn.iter().map(|d| d.to_string()).collect();
        let t = record.plant_turn(&own);
        record.plant_turn(reply);
        let review = record.review();
        (review.judgement(t).expect("judged"), table(&review))
    };
    let (j, table) = judged(blunder, &take);
    assert_eq!(j.label, Label::Blunder, "{blunder:?} lets the opponent take {at_least}+ more:{table}");
    let blunder_text: Vec<String> = blunder.iter().map(|d| d.to_string()).collect();
    assert_ne!(j.best, blunder_text, "the review shows a better turn:{table}");
    let (g, better_table) = judged(better, &better_take);
    assert!(
        g.win_after - j.win_after >= BLUNDER,
        "the review sees {better:?} ({:.3}) a blunder's drop better than {blunder:?} ({:.3}):{better_table}",
        g.win_after,
        j.win_after
    );
}

/// Red Stone 11×11, from a self-played game: Black's red stone on K10 lets White's red stone on
/// D10 remove 9 Black stones; Black's red stone on H10 leaves White nothing as good.
#[test]
fn red_stone_turn_that_hands_over_a_group_is_a_blunder() {
    let start = "..OXXXXOXXX/OO..OXO.O.X/.....OO...O/OOO.X.O.O.O/X.....O..../.OO..XOOXOX/...X.X...../X...X..X.X./X..XXX...X./OO.O.X...../..X.O....O. b";
    assert_material_blunder("red-stone", &[], start, &["K10*"], &["H10*"], 3);
}

/// Inchworm 8×8 to 60, from a self-played game: Black's drop on a1 fills its own group's last
/// liberty but one, and White's drop on c1 captures it (6 points to White); Black's drop on b4
/// leaves White nothing to take.
#[test]
fn inchworm_turn_that_hands_over_a_group_is_a_blunder() {
    let start = ".B1...W1../W1W1..B1B1B1W1/W1B1.W1B1W2B1./.W1B1..W1../W1.B1....W1/B1W1W2B1..../B1W1B1..W1B2W1/.B2..B1B1W1. b 5 6 0 1 0 1 12";
    assert_material_blunder("inchworm", &[], start, &["Da1"], &["Db4"], 5);
}

/// Gravel 5×5, from a self-played game: Dark's turn that ends with a piece put on b3 lets Light
/// remove 3 Dark pieces there at once; placing on d3 and a4 and removing from e3 instead leaves
/// Light nothing to remove.
#[test]
fn gravel_turn_that_hands_over_three_pieces_is_a_blunder() {
    let start = "5 4 ....D1/.L1L2.D1/.D1..L1/L2L1.../....D1 D 6 9 0 0 2";
    let blunder = ["-e5", "-e4", "e1>b3", "+b3", "end"];
    let better = ["+d3", "+a4", "xe3", "end"];
    assert_material_blunder("gravel", &[("N", "5")], start, &blunder, &better, 3);
}

/// Throngs T93, from a self-played game: White passes its first part, then moves a stone from k7
/// to k10, where Black captures it and the stones it leaves open (3 stones down); capturing l7
/// instead leaves Black nothing as good.
#[test]
fn throngs_turn_that_hands_over_three_stones_is_a_blunder() {
    let black = "a7,b7,b8,c7,c8,d8,d9,e8,e9,e10,e11,f8,f9,f10,f11,f12,g8,g9,g11,g12,h6,h7,h9,h11,i7,i9,i10,i11,j9,j11,k8,k9,k11,k12,l7,l11,l12";
    let white =
        "a1,a6,b2,b3,b4,b6,c2,c4,c5,c6,d2,d3,d4,d5,d7,e1,e2,e5,e7,f1,f2,f4,f7,g2,g3,g4,g5,g6,g7,h5,i6,j6,j7,k6,k7,l8";
    let start = format!("T93 W1 B:{black} W:{white} idle=1,1 passrun=0 turn=19");
    assert_material_blunder("throngs", &[], &start, &["pass", "k7>", ">k10"], &["pass", "xl7"], 3);
}

// ------------------------------------------------------------------------------------------------
// Threads and seeds

/// Red Stone's spec game (5×5, 12 moves), the browser test's.
fn spec_game() -> Match {
    let options = [("size".to_string(), "5".to_string())];
    let mut m = Match::open(GameKind::from_slug("red-stone").unwrap(), &options, None).unwrap();
    for d in ["C3", "swap", "A1", "B1", "A2", "B2", "A3", "B3", "A4", "B4", "A5", "B5*"] {
        let seat = m.seat_for(d).unwrap();
        m.decide(seat, d, 0).unwrap();
    }
    m
}

#[test]
fn a_review_on_several_threads_is_the_one_on_one() {
    let game = spec_game();
    let settings = ReviewSettings::default_for(game.kind(), SEED);
    let mut alone = GameReview::plan(&game, settings).unwrap();
    alone.complete(|_, _| {}).unwrap();
    let mut together = GameReview::plan(&game, settings).unwrap();
    let mut heard = Vec::new();
    together.complete_with(3, |review, index| heard.push((index, review.progress().0))).unwrap();
    assert_eq!(together, alone);
    assert_eq!(heard.len(), alone.probes.len(), "each position is heard of once");
    assert!(heard.iter().enumerate().all(|(k, &(_, done))| done == k + 1), "{heard:?}");
}

#[test]
fn reviews_with_other_seeds_mark_the_spec_game_alike() {
    let noise = seed_noise(&spec_game(), None, 3, 2).unwrap();
    assert_eq!((noise.seeds, noise.turns, noise.labels.len()), (3, 12, 3));
    assert_eq!(noise.mark_agreement(), 1.0, "{:?}", noise.labels);
    assert!(noise.mean_sd <= 0.02 && noise.max_sd <= 0.05, "{noise:?}");
    assert!(noise.labels.iter().all(|labels| labels[10] == Label::Blunder), "A5 is a blunder for every seed");
}

#[test]
fn hidden_intention_reviews_with_other_seeds_agree_on_win_chances() {
    // Both sides' commitments judged against the searches' mixed strategies (several searches
    // averaged): a position's win chance moved by 3 points between seeds when one search's best
    // commitment was played against one draw of the other side's.
    let kind = GameKind::from_slug("hidden-intention").unwrap();
    let game = crate::ai::games::self_play(kind, &[], (0, crate::ai::Level::Easy), 1, 36).unwrap();
    let noise = seed_noise(&game, None, 3, 2).unwrap();
    assert!(noise.turns >= 12, "{noise:?}");
    assert!(noise.mean_sd <= 0.01 && noise.max_sd <= 0.03, "{noise:?}");
}
