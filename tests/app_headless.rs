//! The app driven headless by actions alone: menus, settings, screens.
#![cfg(feature = "app")]

mod common;

use common::{headless_app, press, screen};
use stoneyard::app::testing::Action::*;
use stoneyard::app::testing::Screen;
use stoneyard::app::testing::SetupChoice;
use stoneyard::app::testing::{CurrentSettings, SaveStore};
use stoneyard::games::GameKind;
use stoneyard::save::Theme;

#[test]
fn starts_on_the_title_screen() {
    let app = headless_app();
    assert_eq!(screen(&app), Screen::Title);
}

#[test]
fn keyboard_alone_reaches_each_games_setup_screen() {
    for (index, kind) in GameKind::all().enumerate() {
        let mut app = headless_app();
        let mut presses = vec![Down; index];
        presses.push(Select);
        press(&mut app, &presses);
        assert_eq!(screen(&app), Screen::Setup, "{kind}");
        assert_eq!(app.world().resource::<SetupChoice>().kind, kind);
        press(&mut app, &[Back]);
        assert_eq!(screen(&app), Screen::Title);
    }
}

#[test]
fn throngs_variants_wait_under_more_options_and_keep_their_values() {
    use stoneyard::app::testing::CurrentMatch;
    let mut app = headless_app();
    let index = GameKind::all().position(|k| k == GameKind::named("throngs")).unwrap();
    let mut presses = vec![Down; index];
    presses.push(Select);
    press(&mut app, &presses);
    let keys = |app: &bevy::prelude::App| {
        app.world().resource::<SetupChoice>().specs.iter().map(|s| s.key).collect::<Vec<_>>()
    };
    assert_eq!(keys(&app), ["board", "opening"], "the variants wait under More options");
    // "More options" (under the two options): the variants show, the focus on the first of them,
    // and Right steps it.
    press(&mut app, &[Down, Down, Select, Right]);
    assert_eq!(keys(&app), ["board", "opening", "pass_rule", "adjudication"]);
    let value = |app: &bevy::prelude::App| {
        let setup = app.world().resource::<SetupChoice>();
        setup.values.iter().find(|(k, _)| k == "pass_rule").map(|(_, v)| v.clone())
    };
    assert_eq!(value(&app).as_deref(), Some("legacy"));
    // "Fewer options" (under the four): hidden again, the value kept, the focus back on the row.
    press(&mut app, &[Down, Down, Select]);
    assert_eq!(keys(&app), ["board", "opening"]);
    assert_eq!(value(&app).as_deref(), Some("legacy"));
    let from_the_row = common::start_row(&app) - 2;
    press(&mut app, &[vec![Down; from_the_row], vec![Select]].concat());
    assert_eq!(screen(&app), Screen::Playing);
    let options = app.world().resource::<CurrentMatch>().position().option_pairs();
    assert!(options.contains(&("pass_rule".to_string(), "legacy".to_string())), "{options:?}");
}

#[test]
fn menu_focus_wraps_around() {
    let mut app = headless_app();
    // Up from the first item wraps to the last ones: Settings is second to last on native.
    press(&mut app, &[Up, Up, Select]);
    assert_eq!(screen(&app), Screen::Settings);
}

#[test]
fn settings_change_with_actions_and_are_saved() {
    let mut app = headless_app();
    press(&mut app, &[Up, Up, Select]);
    assert_eq!(screen(&app), Screen::Settings);
    // Rows: master, effects, music, mute, speed, theme, … ; go to theme and step right.
    press(&mut app, &[Down, Down, Down, Down, Down, Right]);
    assert_eq!(app.world().resource::<CurrentSettings>().0.theme, Theme::Night);
    let (saved, warning) = app.world_mut().resource_mut::<SaveStore>().0.load_settings();
    assert_eq!(warning, None);
    assert_eq!(saved.theme, Theme::Night);
    press(&mut app, &[Back]);
    assert_eq!(screen(&app), Screen::Title);
}

mod scripted_games {
    use super::common::{assert_projection_matches, headless_app, press, screen};
    use bevy::prelude::*;
    use stoneyard::app::testing::Action::{self, *};
    use stoneyard::app::testing::CurrentMatch;
    use stoneyard::app::testing::Screen;
    use stoneyard::app::testing::{AppSystems, EffectHappened};

    /// Every effect seen in the `Present` step, with the frame it arrived in.
    #[derive(Resource, Default)]
    struct Seen(Vec<(u32, String, usize)>);

    #[derive(Resource, Default)]
    struct Frame(u32);

    fn record(mut seen: ResMut<Seen>, mut frame: ResMut<Frame>, mut effects: MessageReader<EffectHappened>) {
        frame.0 += 1;
        for e in effects.read() {
            seen.0.push((frame.0, e.effect.kind_name().to_string(), e.decision));
        }
    }

    fn app_with_recorder() -> App {
        let mut app = headless_app();
        app.init_resource::<Seen>().init_resource::<Frame>();
        app.add_systems(Update, record.in_set(AppSystems::Present));
        app
    }

    /// From the title screen: choose the game at `title_index`, set the first option with
    /// `option_presses`, start.
    fn start_game(app: &mut App, title_index: usize, option_presses: &[Action], options: usize) {
        let mut presses = vec![Down; title_index];
        presses.push(Select);
        press(app, &presses);
        assert_eq!(screen(app), Screen::Setup);
        press(app, option_presses);
        // Past the option rows and the two player rows to "Start game".
        let mut to_start = vec![Down; options + 2];
        to_start.push(Select);
        press(app, &to_start);
        assert_eq!(screen(app), Screen::Playing);
    }

    #[test]
    fn red_stone_is_played_with_the_cursor_alone() {
        let mut app = app_with_recorder();
        // Size 11 → 5 with six presses of Left on the size row.
        start_game(&mut app, 1, &[Left; 6], 1);
        assert_eq!(app.world().resource::<CurrentMatch>().position().option_pairs(), vec![("size".into(), "5".into())]);
        assert_projection_matches(&mut app);
        // Black on C3 (a game starts with the cursor in the middle), White on D3, Black on E3.
        press(&mut app, &[Select]);
        press(&mut app, &[Right, Select]);
        press(&mut app, &[Right, Select]);
        let m = app.world().resource::<CurrentMatch>();
        assert_eq!(m.history(), vec!["C3", "D3", "E3"]);
        assert_projection_matches(&mut app);
        let seen = &app.world().resource::<Seen>().0;
        let placed: Vec<_> = seen.iter().filter(|(_, k, _)| k == "Placed").collect();
        assert_eq!(placed.len(), 3, "{seen:?}");
        // Each decision's effects arrive together, in one frame, in decision order.
        for d in 1..=3 {
            let frames: Vec<u32> = seen.iter().filter(|(_, _, n)| *n == d).map(|(f, _, _)| *f).collect();
            assert!(frames.windows(2).all(|w| w[0] == w[1]), "decision {d} spread over frames {frames:?}");
        }
        // Undo takes the last stone back off the board.
        press(&mut app, &[Undo]);
        assert_eq!(app.world().resource::<CurrentMatch>().len(), 2);
        assert_projection_matches(&mut app);
    }

    #[test]
    fn an_illegal_choice_changes_nothing() {
        let mut app = app_with_recorder();
        start_game(&mut app, 1, &[Left; 6], 1);
        press(&mut app, &[Select]);
        // C3 is occupied now: choosing it again offers nothing and plays nothing.
        press(&mut app, &[Select]);
        let m = app.world().resource::<CurrentMatch>();
        assert_eq!(m.history(), vec!["C3"]);
        assert!(m.message.is_some());
    }
}

mod against_the_computer {
    use super::common::{headless_app, press, screen};
    use stoneyard::app::testing::Action::*;
    use stoneyard::app::testing::CurrentMatch;
    use stoneyard::app::testing::Screen;
    use stoneyard::app::testing::{DragChosen, TurnBuilder};

    #[test]
    fn the_computer_answers_a_move_without_any_input() {
        let mut app = headless_app();
        // Red Stone, size 5, opponent: Easy (one step right on the opponent row), start.
        press(&mut app, &[Down, Select]);
        press(&mut app, &[Left, Left, Left, Left, Left, Left, Down, Down, Right, Down, Select]);
        assert_eq!(screen(&app), Screen::Playing);
        assert_eq!(app.world().resource::<CurrentMatch>().players[1], Some(stoneyard::ai::Level::Easy));
        press(&mut app, &[Select]);
        // The computer answers some frames later; give it frames until it has.
        for _ in 0..100 {
            if app.world().resource::<CurrentMatch>().len() >= 2 {
                break;
            }
            app.update();
        }
        let m = app.world().resource::<CurrentMatch>();
        assert_eq!(m.len(), 2, "the computer did not answer: {:?}", m.history());
        assert_eq!(m.decision(0), "C3", "the cursor starts in the middle of the board");
        // Whether the computer placed a stone or took the pie swap, the person's seat acts next.
        let acting = m.acting_side().expect("the game goes on");
        assert_eq!(m.player_of(acting), None, "the computer moved and still acts: {:?}", m.history());
        assert_eq!(m.seat_of(acting), 0);
    }

    #[test]
    fn the_person_cannot_make_the_computers_pie_choice_or_move() {
        let mut app = headless_app();
        // Red Stone, size 5, opponent: Hard (three steps right), start; the person places C3.
        press(&mut app, &[Down, Select]);
        press(&mut app, &[Left, Left, Left, Left, Left, Left, Down, Down, Right, Right, Right, Down, Select]);
        assert_eq!(app.world().resource::<CurrentMatch>().players[1], Some(stoneyard::ai::Level::Hard));
        press(&mut app, &[Select]);
        let m = app.world().resource::<CurrentMatch>();
        assert_eq!(m.len(), 1, "Hard answers in more than a frame");
        assert!(m.decisions_now().contains(&"swap".to_string()), "the pie choice is the computer's now");
        // Tab would list the spaceless choices (the swap) for the person to pick: not on the computer's turn.
        press(&mut app, &[CycleOption, Select]);
        app.world_mut().write_message(DragChosen { from: "C3".into(), to: "C4".into() });
        app.update();
        let m = app.world().resource::<CurrentMatch>();
        assert!(app.world().resource::<TurnBuilder>().choices.is_empty());
        assert_eq!(m.len(), 1, "the person decided for the computer: {:?}", m.history());
        assert_eq!(
            m.message.as_deref(),
            Some("The computer is thinking: your move comes after its reply."),
            "the press is answered"
        );
    }
}

mod computer_helpers {
    use super::common::{headless_app, press, screen};
    use stoneyard::app::testing::Action::*;
    use stoneyard::app::testing::CurrentMatch;
    use stoneyard::app::testing::Screen;
    use stoneyard::app::testing::{HintShown, Spectating};

    fn frames_until(app: &mut bevy::prelude::App, done: impl Fn(&bevy::prelude::App) -> bool) -> bool {
        for _ in 0..300 {
            if done(app) {
                return true;
            }
            app.update();
        }
        false
    }

    #[test]
    fn a_hint_names_a_legal_decision_for_the_person_and_plays_nothing() {
        let mut app = headless_app();
        // Red Stone, size 5, two people.
        press(&mut app, &[Down, Select]);
        press(&mut app, &[Left, Left, Left, Left, Left, Left, Down, Down, Down, Select]);
        assert_eq!(screen(&app), Screen::Playing);
        press(&mut app, &[Select, Suggest]);
        let found = frames_until(&mut app, |app| {
            app.world().resource::<HintShown>().current(app.world().resource::<CurrentMatch>()).is_some()
        });
        assert!(found, "no hint arrived");
        let m = app.world().resource::<CurrentMatch>();
        let hint = app.world().resource::<HintShown>().current(m).unwrap().to_string();
        assert!(m.decisions_now().contains(&hint), "{hint} is not legal");
        assert_eq!(m.len(), 1, "a hint must not play");
        // After the next decision the old hint is no longer shown.
        press(&mut app, &[Right, Select]);
        let m = app.world().resource::<CurrentMatch>();
        assert_eq!(app.world().resource::<HintShown>().current(m), None);
    }

    #[test]
    fn a_gravel_hint_is_the_whole_turn_with_what_it_achieves() {
        use bevy::prelude::*;
        use stoneyard::games::GameKind;
        let mut app = headless_app();
        let kind = GameKind::named("gravel");
        let mut current = CurrentMatch::new(kind.open(&kind.quick_pairs(), None).unwrap());
        current.players = [None, Some(stoneyard::ai::Level::Easy)];
        app.world_mut().insert_resource(current);
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
        app.update();
        press(&mut app, &[Suggest]);
        let found = frames_until(&mut app, |app| {
            app.world().resource::<HintShown>().current(app.world().resource::<CurrentMatch>()).is_some()
        });
        assert!(found, "no hint arrived");
        let shown = app.world().resource::<HintShown>().clone();
        let m = app.world().resource::<CurrentMatch>();
        assert_eq!(m.len(), 0, "a hint must not play");
        // Every action of the turn up to its end, each legal in turn, and a reason.
        assert!(shown.turn.len() >= 2, "{:?}", shown.turn);
        assert_eq!(shown.turn.last().map(String::as_str), Some("end"), "{:?}", shown.turn);
        assert_eq!(shown.suggestion.as_ref().map(|(_, d)| d), shown.turn.first());
        let mut position = m.position().clone_box();
        for d in &shown.turn {
            position.play_decision(d).unwrap_or_else(|e| panic!("{d} of {:?} does not play: {e}", shown.turn));
        }
        assert_ne!(position.to_move(), m.position().to_move(), "the turn passed to the other side");
        // A sentence for "Why:" (the first turn of a game takes, threatens and gains nothing).
        let reason = shown.reason.expect("a reason");
        assert!(reason.chars().next().unwrap().is_uppercase() && reason.ends_with('.'), "{reason}");
    }

    #[test]
    fn two_computers_play_on_at_the_chosen_pace_and_pause() {
        let mut app = headless_app();
        // Red Stone, size 5, Black and White both Easy.
        press(&mut app, &[Down, Select]);
        press(&mut app, &[Left, Left, Left, Left, Left, Left, Down, Right, Down, Right, Down, Select]);
        assert_eq!(app.world().resource::<CurrentMatch>().players.iter().flatten().count(), 2);
        app.world_mut().resource_mut::<Spectating>().pace = 0.0;
        assert!(frames_until(&mut app, |app| app.world().resource::<CurrentMatch>().len() >= 4));
        app.world_mut().resource_mut::<Spectating>().paused = true;
        // Let a search already under way land, then nothing more happens while paused.
        for _ in 0..stoneyard::app::testing::COMPUTER_FRAMES + 5 {
            app.update();
        }
        let paused_at = app.world().resource::<CurrentMatch>().len();
        for _ in 0..200 {
            app.update();
        }
        assert_eq!(app.world().resource::<CurrentMatch>().len(), paused_at);
        app.world_mut().resource_mut::<Spectating>().paused = false;
        assert!(frames_until(&mut app, |app| app.world().resource::<CurrentMatch>().len() > paused_at));
    }
}

mod seats_undo_and_resign {
    use stoneyard::ai::Level;
    use stoneyard::app::testing::CurrentMatch;
    use stoneyard::app::testing::MatchCommand;
    use stoneyard::games::{GameKind, open};
    use stoneyard::rules::Side;

    fn play(m: &mut CurrentMatch, decision: &str) {
        m.decide(decision).unwrap();
    }

    #[test]
    fn after_a_swap_the_seats_play_the_other_colours_and_undo_restores_them() {
        let game = open(GameKind::named("red-stone"), &[("size".into(), "5".into())], None).unwrap();
        let mut m = CurrentMatch::new(game);
        m.players = [None, Some(Level::Easy)];
        play(&mut m, "C3");
        assert_eq!(m.computer_to_act(), Some((Side::Second, Level::Easy)));
        play(&mut m, "swap");
        // White (now the person's seat) moves: the computer plays Black from here on.
        assert_eq!(m.acting_side(), Some(Side::Second));
        assert_eq!(m.computer_to_act(), None);
        assert_eq!(m.player_of(Side::First), Some(Level::Easy));
        play(&mut m, "A1");
        assert_eq!(m.computer_to_act(), Some((Side::First, Level::Easy)));
        m.apply(MatchCommand::Undo).unwrap();
        m.apply(MatchCommand::Undo).unwrap();
        assert!(!m.seats_swapped());
        assert_eq!(m.computer_to_act(), Some((Side::Second, Level::Easy)));
        m.apply(MatchCommand::Redo).unwrap();
        assert!(m.seats_swapped());
        assert_eq!(m.computer_to_act(), None);
    }

    #[test]
    fn undo_against_the_computer_takes_back_its_reply_too() {
        let game = open(GameKind::named("red-stone"), &[("size".into(), "5".into())], None).unwrap();
        let mut m = CurrentMatch::new(game);
        m.players = [None, Some(Level::Easy)];
        play(&mut m, "C3");
        play(&mut m, "A1");
        play(&mut m, "E5");
        play(&mut m, "A2");
        m.apply(MatchCommand::UndoToPerson).unwrap();
        assert_eq!(m.history(), vec!["C3", "A1"]);
        assert_eq!(m.computer_to_act(), None);
        m.apply(MatchCommand::UndoToPerson).unwrap();
        assert!(m.is_empty());
    }

    #[test]
    fn a_resignation_ends_the_match_for_the_person_and_undo_takes_it_back() {
        let game = open(GameKind::named("red-stone"), &[("size".into(), "5".into())], None).unwrap();
        let mut m = CurrentMatch::new(game);
        m.players = [None, Some(Level::Easy)];
        play(&mut m, "C3");
        // The computer is to act, yet the person (Black) is the one who may resign.
        assert_eq!(m.resigning_side(), Some(Side::First));
        m.apply(MatchCommand::Resign(Side::First)).unwrap();
        assert!(m.is_over());
        assert_eq!(m.computer_to_act(), None);
        assert_eq!(m.outcome_text(), "Black resigns: White wins");
        assert_eq!(m.resigning_side(), None);
        m.apply(MatchCommand::UndoToPerson).unwrap();
        assert!(!m.is_over());
        assert_eq!(m.history(), vec!["C3"]);
    }

    #[test]
    fn choosing_black_in_the_throngs_pie_gives_the_chooser_black() {
        let game = open(GameKind::named("throngs"), &[("opening".into(), "pie".into())], None).unwrap();
        let mut m = CurrentMatch::new(game);
        m.players = [Some(Level::Easy), None];
        // The offer is made by seat 0 (the computer) one stone at a time.
        while m.position().to_move() == Some(stoneyard::rules::ToMove::One(Side::First)) && m.len() < 8 {
            let d = m.decisions_now()[0].clone();
            play(&mut m, &d);
        }
        let choose_black = m.decisions_now().into_iter().find(|d| d.contains("Black")).expect("choose Black offered");
        play(&mut m, &choose_black);
        assert!(m.seats_swapped());
        // Black moves first after the pie; the person in seat 1 chose Black.
        assert_eq!(m.acting_side(), Some(Side::First));
        assert_eq!(m.computer_to_act(), None);
    }
}

/// Every game played for a stretch through input actions alone: a "robot" turns each randomly
/// chosen legal decision into the presses a keyboard player would make (cursor to the space,
/// choose, pick from the choice list, Tab for decisions that name no space), and after every
/// decision the board entities must match the engine's position.
mod every_game_by_actions {
    use super::common::{assert_projection_matches, headless_app, press};
    use bevy::prelude::*;
    use stoneyard::app::testing::Action::{self, *};
    use stoneyard::app::testing::CurrentMatch;
    use stoneyard::app::testing::Secrecy;
    use stoneyard::app::testing::{BoardCursor, BoardState, Choice, TurnBuilder, cursor_step};
    use stoneyard::games::GameKind;
    use stoneyard::rules::{cells_in_token, pick_index, seeded};

    /// Moves the cursor to `target` by arrow presses: the shortest sequence of arrows, found
    /// through where each arrow goes from each space (`cursor_step`, the app's own stepping).
    fn cursor_to(app: &mut App, target: &str) {
        let view = app.world().resource::<BoardState>().view.clone().expect("board view");
        let from = app.world().resource::<BoardCursor>().index;
        let goal = view.cells.iter().position(|c| c.name == target).expect("target on board");
        let arrows = [(Right, Vec2::X), (Left, -Vec2::X), (Up, Vec2::Y), (Down, -Vec2::Y)];
        // Breadth-first from the cursor: the arrow that first reached each space, and from where.
        let mut came: Vec<Option<(usize, Action)>> = vec![None; view.cells.len()];
        let mut queue = std::collections::VecDeque::from([from]);
        let mut seen = vec![false; view.cells.len()];
        seen[from] = true;
        while let Some(at) = queue.pop_front() {
            for (action, dir) in arrows {
                if let Some(next) = cursor_step(&view, at, dir)
                    && !seen[next]
                {
                    seen[next] = true;
                    came[next] = Some((at, action));
                    queue.push_back(next);
                }
            }
        }
        let mut path = Vec::new();
        let mut at = goal;
        while at != from {
            let (before, action) = came[at].unwrap_or_else(|| panic!("the arrows cannot reach {target}"));
            path.push(action);
            at = before;
        }
        path.reverse();
        press(app, &path);
        let now = app.world().resource::<BoardCursor>().index;
        assert_eq!(view.cells[now].name, target, "the cursor did not reach {target}");
    }

    #[test]
    fn a_space_where_nothing_can_be_done_says_why() {
        // A two-person Throngs game at its usual options: Black to place first; White's stone on
        // b3 is out of Black's reach (a capture needs power 2 there).
        let mut app = headless_app();
        let kind = GameKind::named("throngs");
        super::common::start_by_keys(&mut app, kind, &[]);
        cursor_to(&mut app, "b3");
        press(&mut app, &[Select]);
        let m = app.world().resource::<CurrentMatch>();
        assert!(m.is_empty(), "nothing was played");
        let message = m.message.clone().unwrap_or_default();
        assert!(message.starts_with("Nothing to do at b3: capturing b3 needs power 2 or more"), "{message}");
    }

    fn pick_choice(app: &mut App, wanted: &Choice) -> bool {
        let choices = app.world().resource::<TurnBuilder>().choices.clone();
        let Some(i) = choices.iter().position(|c| c == wanted) else { return false };
        let mut keys = vec![Down; i];
        keys.push(Select);
        press(app, &keys);
        true
    }

    /// Makes `decision` with presses only.
    pub(super) fn play_by_keys(app: &mut App, decision: &str) {
        if app.world().resource::<Secrecy>().handover.is_some() {
            press(app, &[Select]);
        }
        let cells: Vec<String> = cells_in_token(decision).into_iter().map(str::to_string).collect();
        let wanted = Choice::Decision(decision.to_string());
        if cells.is_empty() {
            press(app, &[Action::CycleOption]);
            assert!(pick_choice(app, &wanted), "{decision} not offered under Tab");
            return;
        }
        cursor_to(app, &cells[0]);
        let before = app.world().resource::<CurrentMatch>().len();
        press(app, &[Select]);
        if app.world().resource::<CurrentMatch>().len() > before {
            return;
        }
        if pick_choice(app, &wanted) {
            return;
        }
        if !app.world().resource::<TurnBuilder>().choices.is_empty() {
            assert!(
                pick_choice(app, &Choice::StartFrom(cells[0].clone())),
                "{decision}: no way to start at {}",
                cells[0]
            );
        }
        assert_eq!(app.world().resource::<TurnBuilder>().start.as_deref(), Some(cells[0].as_str()), "{decision}");
        cursor_to(app, &cells[1]);
        press(app, &[Select]);
        if app.world().resource::<CurrentMatch>().len() == before {
            assert!(pick_choice(app, &wanted), "{decision} not offered at {}", cells[1]);
        }
    }

    fn play_game(kind: GameKind, decisions: usize) {
        play_game_with(kind, &[], decisions);
    }

    /// Plays with these options (set on the setup screen) for at most `decisions` decisions;
    /// returns whether the game ended.
    fn play_game_with(kind: GameKind, options: &[(&str, &str)], decisions: usize) -> bool {
        let mut app = headless_app();
        super::common::start_by_keys(&mut app, kind, options);
        let mut rng = seeded(GameKind::all().position(|k| k == kind).unwrap() as u64);
        for _ in 0..decisions {
            let m = app.world().resource::<CurrentMatch>();
            if m.position().status().is_over() {
                break;
            }
            let before = m.len();
            let legal = m.decisions_now();
            let d = legal[pick_index(&mut rng, legal.len())].clone();
            play_by_keys(&mut app, &d);
            // A losing end of a Gravel turn waits for the player's word: E gives it.
            while app.world().resource::<stoneyard::app::testing::TurnWarning>().pending.is_some() {
                press(&mut app, &[Confirm]);
            }
            let m = app.world().resource::<CurrentMatch>();
            assert!(m.len() > before, "{kind}: decision {d} was not played ({:?})", m.message);
            assert_eq!(m.decision(before), d, "{kind}");
            // Only a decision that was the single one left may follow by itself (Gravel's "end").
            assert!(m.len() <= before + 2, "{kind}: {:?}", &m.history()[before..]);
            assert_projection_matches(&mut app);
        }
        let m = app.world().resource::<CurrentMatch>();
        if m.is_over() {
            // The end shows as the end: nothing more can be chosen.
            assert!(m.decisions_now().is_empty() || m.acting_side().is_none(), "{kind}");
        }
        m.is_over()
    }

    /// Whole games, played to their end by keyboard actions alone (small boards and targets so
    /// that random play ends quickly).
    #[test]
    fn every_game_is_played_to_its_end_by_keys() {
        for kind in GameKind::all() {
            assert!(play_game_with(kind, kind.quick_options, 3000), "{kind} did not end within 3000 decisions");
        }
    }

    /// Everything the screen shows of the game, as text: the board view the entities were built
    /// from, the move list and the choice list.
    fn shown_text(app: &App) -> String {
        let view = app.world().resource::<BoardState>().view.clone();
        let moves = app.world().resource::<stoneyard::app::testing::MoveList>().texts();
        let choices = app.world().resource::<TurnBuilder>().choices.clone();
        let cursor = app.world().resource::<BoardCursor>().index;
        format!("{view:?} {moves:?} {choices:?} cursor at {cursor}")
    }

    /// Hot-seat Hidden Intention: once A has sealed a commitment, nothing the app shows (board
    /// entities, the view they come from, the move list, the choice list) holds any of it, for the
    /// hand-over screen or for B; B is offered exactly what B would be offered had A chosen
    /// otherwise. Both commitments appear together once B seals.
    #[test]
    fn a_sealed_commitment_cannot_be_read_from_the_other_players_view() {
        let mut app = headless_app();
        super::common::start_by_keys(&mut app, GameKind::named("hidden-intention"), &[]);
        let before_stones = stoneyard::app::testing::shown_pieces(&mut app);
        let before_text = shown_text(&app);
        let b_offers_before = {
            let m = app.world().resource::<CurrentMatch>();
            m.position().legal_decisions(stoneyard::rules::Side::Second)
        };
        // A writes a queen on d4, decision by decision, with the keyboard.
        for decision in ["A:Q", "A:d4"] {
            let offered = app.world().resource::<CurrentMatch>().decisions_now();
            assert!(offered.iter().any(|d| d == decision), "{decision} not in {offered:?}");
            play_by_keys(&mut app, decision);
        }
        assert_eq!(app.world().resource::<CurrentMatch>().history(), ["A:Q", "A:d4"]);
        assert_eq!(app.world().resource::<Secrecy>().handover, Some(stoneyard::rules::Side::Second));
        let check = |app: &mut App, moment: &str| {
            assert_eq!(
                stoneyard::app::testing::shown_pieces(app),
                before_stones,
                "{moment}: a piece of A's commitment is shown"
            );
            let text = shown_text(app);
            // Everything as before A chose (the cursor is back in the middle, not on A's square).
            assert_eq!(text, before_text, "{moment}: the screen changed");
            let m = app.world().resource::<CurrentMatch>();
            assert_eq!(m.position().legal_decisions(stoneyard::rules::Side::Second), b_offers_before, "{moment}");
        };
        check(&mut app, "on the hand-over screen");
        press(&mut app, &[Select]);
        assert_eq!(app.world().resource::<Secrecy>().handover, None);
        check(&mut app, "after B takes the device");
        // B writes a rook on e5: the attempt resolves and both figures appear at once.
        for decision in ["B:R", "B:e5"] {
            play_by_keys(&mut app, decision);
        }
        let shown = stoneyard::app::testing::shown_pieces(&mut app);
        let names: Vec<String> = {
            let view = app.world().resource::<BoardState>().view.clone().unwrap();
            shown
                .iter()
                .map(|(cell, piece)| {
                    let stoneyard::rules::PieceShape::Figure { figure, .. } = piece.shape else { panic!("{piece:?}") };
                    format!("{}{}", figure.letter(), view.cells[*cell as usize].name)
                })
                .collect()
        };
        assert_eq!(names, ["Qd4", "Re5"]);
        let moves = app.world().resource::<stoneyard::app::testing::MoveList>().texts();
        assert!(moves.len() == 1 && moves[0].ends_with("Qd4|Re5"), "{moves:?}");
        assert_projection_matches(&mut app);
    }

    /// Every game on its default board, thirty decisions by keys.
    #[test]
    fn every_game_on_its_default_board() {
        for kind in GameKind::all() {
            play_game(kind, 30);
        }
    }
}

mod animations {
    use super::common::{assert_projection_matches, headless_app, press};
    use stoneyard::app::testing::Action::*;
    use stoneyard::app::testing::CurrentMatch;
    use stoneyard::app::testing::CurrentSettings;
    use stoneyard::app::testing::DecisionChosen;
    use stoneyard::app::testing::{BoardAnimating, shown_pieces};
    use stoneyard::save::AnimationSpeed;

    /// The stones on the board after a scripted Red Stone game with a capture, at `speed`.
    fn final_stones(speed: AnimationSpeed) -> Vec<(u16, stoneyard::rules::PieceView)> {
        let mut app = headless_app();
        app.world_mut().resource_mut::<CurrentSettings>().0.animation_speed = speed;
        press(&mut app, &[Down, Select]);
        press(&mut app, &[Left, Left, Left, Left, Left, Left, Down, Down, Down, Select]);
        for d in ["A1", "A2", "C3", "B2", "B1*", "D4", "E5"] {
            app.world_mut().write_message(DecisionChosen(d.to_string()));
            app.update();
            // Let the animations run out on their own (no press), as a player who waits.
            for _ in 0..600 {
                if !app.world().resource::<BoardAnimating>().0 {
                    break;
                }
                app.update();
            }
        }
        assert_eq!(app.world().resource::<CurrentMatch>().len(), 7);
        assert_projection_matches(&mut app);
        shown_pieces(&mut app)
    }

    #[test]
    fn animations_on_or_off_end_with_the_same_board() {
        let off = final_stones(AnimationSpeed::Off);
        assert_eq!(off, final_stones(AnimationSpeed::Fast));
        // The capture happened: A1 is empty, a red stone stands on B1.
        assert!(off.iter().all(|s| s.0 != 0), "{off:?}");
    }

    #[test]
    fn a_new_stone_drops_in_and_a_press_skips_to_the_end_and_acts() {
        let mut app = headless_app();
        press(&mut app, &[Down, Select]);
        press(&mut app, &[Left, Left, Left, Left, Left, Left, Down, Down, Down, Select]);
        app.world_mut().resource_mut::<CurrentSettings>().0.animation_speed = AnimationSpeed::Slow;
        press(&mut app, &[Select]);
        assert!(app.world().resource::<BoardAnimating>().0, "the placed stone animates");
        // A press finishes the animation and does what it asks: the cursor steps right and the
        // next stone is placed there, without a press lost to the animation.
        press(&mut app, &[Right]);
        assert!(!app.world().resource::<BoardAnimating>().0, "the animation ended");
        press(&mut app, &[Select]);
        assert_eq!(app.world().resource::<CurrentMatch>().len(), 2);
        assert!(app.world().resource::<BoardAnimating>().0, "the second stone animates");
        let cursor = |app: &bevy::prelude::App| app.world().resource::<stoneyard::app::testing::BoardCursor>().index;
        let before = cursor(&app);
        press(&mut app, &[Right]);
        assert_ne!(cursor(&app), before, "the press mid-animation moved the cursor");
        assert!(!app.world().resource::<BoardAnimating>().0);
        press(&mut app, &[Select]);
        assert_eq!(app.world().resource::<CurrentMatch>().len(), 3);
    }
}

mod replays {
    use super::common::{assert_projection_matches, headless_app, press, screen};
    use bevy::prelude::*;
    use stoneyard::app::testing::Action::*;
    use stoneyard::app::testing::CurrentMatch;
    use stoneyard::app::testing::SaveStore;
    use stoneyard::app::testing::Screen;
    use stoneyard::app::testing::{Replay, ReplayStep};

    /// A hot-seat Red Stone game of four decisions, then opened as a replay on the board.
    fn replay_of_four_moves() -> App {
        let mut app = headless_app();
        press(&mut app, &[Down, Select]);
        press(&mut app, &[Left, Left, Left, Left, Left, Left, Down, Down, Down, Select]);
        press(&mut app, &[Select, Right, Select, Right, Select, Up, Select]);
        let record = app.world().resource::<CurrentMatch>().record();
        assert_eq!(record.moves.len(), 4);
        let (current, replay) = Replay::open(&record).unwrap();
        app.world_mut().insert_resource(current);
        app.world_mut().insert_resource(replay);
        app.update();
        app
    }

    fn at(app: &App) -> usize {
        app.world().resource::<CurrentMatch>().len()
    }

    #[test]
    fn keys_step_through_the_game_and_the_board_follows() {
        let mut app = replay_of_four_moves();
        assert_eq!(at(&app), 4);
        press(&mut app, &[Left, Left]);
        assert_eq!(at(&app), 2);
        assert_projection_matches(&mut app);
        press(&mut app, &[Up]);
        assert_eq!(at(&app), 0);
        press(&mut app, &[Right]);
        assert_eq!(at(&app), 1);
        assert_eq!(app.world().resource::<CurrentMatch>().history(), vec!["C3"]);
        press(&mut app, &[Down]);
        assert_eq!(at(&app), 4);
        // Select starts and stops auto-play; it never plays a stone in a replay.
        press(&mut app, &[Up, Select]);
        assert!(app.world().resource::<Replay>().auto);
        press(&mut app, &[Select]);
        assert!(!app.world().resource::<Replay>().auto);
        assert_eq!(at(&app), 0, "a second of auto-play has not passed");
        assert_eq!(app.world().resource::<CurrentMatch>().redo_len(), 4);
    }

    #[test]
    fn a_replay_steps_move_by_move_as_the_record_numbers_them() {
        use stoneyard::app::testing::MoveList;
        use stoneyard::games::GameKind;
        // A hot-seat Gravel game of three whole turns (each several decisions).
        let kind = GameKind::named("gravel");
        let mut m = CurrentMatch::new(kind.open(&kind.quick_pairs(), None).unwrap());
        let makers = |m: &CurrentMatch| (0..m.len()).filter_map(|i| m.maker(i)).collect::<Vec<_>>();
        while makers(&m).iter().filter(|s| Some(**s) != makers(&m).first().copied()).count() < 2 || m.len() < 8 {
            let d = m.decisions_now().iter().find(|d| d.as_str() != "pass").unwrap().clone();
            m.decide(&d).unwrap();
        }
        let record = m.record();
        let lines = MoveList::of(m.start(), &m.history()).lines;
        assert!(lines.len() < record.moves.len(), "a numbered move holds several decisions");
        assert_eq!(stoneyard::save::numbered_move_count(&record), lines.len(), "the saves list counts the same");
        let mut app = super::common::headless_app();
        let (current, replay) = Replay::open(&record).unwrap();
        app.world_mut().insert_resource(current);
        app.world_mut().insert_resource(replay);
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
        app.update();
        press(&mut app, &[Up, Right]);
        assert_eq!(at(&app), lines[0].end, "one step is one numbered move");
        press(&mut app, &[Right]);
        assert_eq!(at(&app), lines[1].end);
        press(&mut app, &[Left]);
        assert_eq!(at(&app), lines[0].end);
    }

    #[test]
    fn jump_and_auto_play_reach_the_end() {
        let mut app = replay_of_four_moves();
        app.world_mut().write_message(ReplayStep::To(1));
        app.update();
        assert_eq!(at(&app), 1);
        app.world_mut().resource_mut::<Replay>().pace = 0.01;
        app.world_mut().write_message(ReplayStep::ToggleAuto);
        for _ in 0..200 {
            app.update();
            if !app.world().resource::<Replay>().auto {
                break;
            }
        }
        assert_eq!(at(&app), 4);
        assert!(!app.world().resource::<Replay>().auto, "auto-play stops at the end");
    }

    #[test]
    fn playing_on_starts_a_match_from_the_shown_position_and_a_replay_never_autosaves() {
        let mut app = replay_of_four_moves();
        let kept = |app: &App| {
            let store = &app.world().resource::<SaveStore>().0;
            stoneyard::save::list_games(store).unwrap().0.iter().map(|g| g.moves).collect::<Vec<_>>()
        };
        let before = kept(&app);
        assert_eq!(before, [4], "the hot-seat game is kept, the replay is not a second one");
        press(&mut app, &[Left, Left]);
        assert_eq!(kept(&app), before, "stepping back in a replay changes no game in progress");
        app.world_mut().write_message(ReplayStep::PlayOn([None, None]));
        app.update();
        assert!(!app.world().resource::<Replay>().active);
        let m = app.world().resource::<CurrentMatch>();
        assert_eq!(m.history(), vec!["C3", "D3"]);
        assert!(!m.can_redo());
        // Now it is a game: a choice plays.
        press(&mut app, &[Right, Select]);
        assert_eq!(at(&app), 3);
        assert_eq!(screen(&app), Screen::Playing);
    }

    #[test]
    fn a_new_match_takes_the_board_in_the_frame_it_is_sent_and_a_reseat_changes_who_plays() {
        use stoneyard::ai::Level;
        use stoneyard::app::testing::{MatchCommand, NewMatch};
        let mut app = replay_of_four_moves();
        let replayed = app.world().resource::<CurrentMatch>().session.version().0;
        assert_eq!(app.world().resource::<CurrentMatch>().players, [None, None], "nobody plays a replay");
        // Played on from the replay, the recorded players sit again (here: nobody asked for).
        app.world_mut().write_message(MatchCommand::Reseat([None, Some(Level::Easy)]));
        app.update();
        assert_eq!(app.world().resource::<CurrentMatch>().players, [None, Some(Level::Easy)]);
        // "Play again": a new match of the same start, the same players, the next seed.
        let mut again = CurrentMatch::new(app.world().resource::<CurrentMatch>().start().clone_box());
        again.players = [Some(Level::Easy), None];
        app.world_mut().write_message(NewMatch(Box::new(again)));
        app.update();
        let m = app.world().resource::<CurrentMatch>();
        assert_ne!(m.session.version().0, replayed);
        assert_eq!((m.len(), m.players), (0, [Some(Level::Easy), None]));
    }

    #[test]
    fn leaving_a_replay_brings_back_the_game_in_progress() {
        let mut app = replay_of_four_moves();
        press(&mut app, &[Up]);
        press(&mut app, &[Back]);
        assert_eq!(screen(&app), Screen::Title);
        // The kept hot-seat game (four moves) is the one to continue, not the replay.
        press(&mut app, &[Select]);
        assert_eq!(screen(&app), Screen::Continue);
        press(&mut app, &[Select]);
        assert_eq!(screen(&app), Screen::Playing);
        assert_eq!(at(&app), 4);
        assert!(!app.world().resource::<Replay>().active);
    }
}

mod saved_games {
    use super::common::{headless_app, press, screen};
    use stoneyard::app::testing::Action::*;
    use stoneyard::app::testing::CurrentMatch;
    use stoneyard::app::testing::Replay;
    use stoneyard::app::testing::SaveStore;
    use stoneyard::app::testing::SavesList;
    use stoneyard::app::testing::Screen;
    use stoneyard::games::GameKind;

    /// The title's "Saved games" item: after "Continue" (when a game is in progress), the games, "Learn" and
    /// "Play online".
    fn open_saves(app: &mut bevy::prelude::App) {
        press(app, &[Back]);
        assert_eq!(screen(app), Screen::Title);
        // Continue, the games, Learn, Play online, Saved games.
        let mut keys = vec![Down; 3 + GameKind::all().count()];
        keys.push(Select);
        press(app, &keys);
        assert_eq!(screen(app), Screen::Saves);
    }

    #[test]
    fn a_named_save_continues_with_its_moves_and_can_be_deleted_by_keys() {
        let mut app = headless_app();
        press(&mut app, &[Down, Select]);
        press(&mut app, &[Left, Left, Left, Left, Left, Left, Down, Down, Down, Select]);
        press(&mut app, &[Select, Right, Select, Right, Select]);
        let record = app.world().resource::<CurrentMatch>().record();
        stoneyard::save::save_named(&mut app.world_mut().resource_mut::<SaveStore>().0, "Three moves", &record)
            .unwrap();
        open_saves(&mut app);
        assert_eq!(app.world().resource::<SavesList>().entries.len(), 1);
        press(&mut app, &[Select]);
        assert_eq!(screen(&app), Screen::Playing);
        assert!(!app.world().resource::<Replay>().active, "an unfinished save continues as a game");
        assert_eq!(app.world().resource::<CurrentMatch>().history(), vec!["C3", "D3", "E3"]);
        // The side panel lists the moves in the game's record notation.
        let lines = &app.world().resource::<stoneyard::app::testing::MoveList>().texts();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].ends_with("Black  C3") && lines[1].ends_with("White  D3"), "{lines:?}");
        // In words (the list's default), each with the side that made it.
        let words = &app.world().resource::<stoneyard::app::testing::MoveList>().words();
        assert_eq!(words[..2], ["1. Black: placed a stone on C3", "2. White: placed a stone on D3"], "{words:?}");
        // Delete it: Tab asks, Select confirms.
        open_saves(&mut app);
        press(&mut app, &[CycleOption]);
        assert_eq!(app.world().resource::<SavesList>().confirm_delete, Some(0));
        press(&mut app, &[Select]);
        assert!(app.world().resource::<SavesList>().entries.is_empty());
        assert!(stoneyard::save::list_saves(&app.world().resource::<SaveStore>().0).unwrap().0.is_empty());
    }
}

mod dragging {
    use super::common::{headless_app, press};
    use stoneyard::app::testing::Action::*;
    use stoneyard::app::testing::CurrentMatch;
    use stoneyard::app::testing::DecisionChosen;
    use stoneyard::app::testing::DragChosen;

    #[test]
    fn dropping_a_piece_on_another_space_plays_the_move_between_them() {
        let mut app = headless_app();
        // Gravel (first game), default options, two people.
        press(&mut app, &[Select]);
        let mut keys = vec![Down; super::common::start_row(&app)];
        keys.push(Select);
        press(&mut app, &keys);
        // Two placements of the first turn, then a drag from one stack onto the other.
        let placements: Vec<String> = app
            .world()
            .resource::<CurrentMatch>()
            .decisions_now()
            .into_iter()
            .filter(|d| d.starts_with('+'))
            .take(2)
            .collect();
        for d in &placements {
            app.world_mut().write_message(DecisionChosen(d.clone()));
            app.update();
        }
        let (a, b) = (placements[0][1..].to_string(), placements[1][1..].to_string());
        let wanted = format!("{a}>{b}");
        assert!(app.world().resource::<CurrentMatch>().decisions_now().contains(&wanted), "{wanted} is legal");
        app.world_mut().write_message(DragChosen { from: a.clone(), to: b.clone() });
        app.update();
        app.update();
        assert_eq!(app.world().resource::<CurrentMatch>().history().last(), Some(&wanted));
        // A drop where no move goes says so and plays nothing.
        let before = app.world().resource::<CurrentMatch>().len();
        app.world_mut().write_message(DragChosen { from: b.clone(), to: b.clone() + "x" });
        app.update();
        let m = app.world().resource::<CurrentMatch>();
        assert_eq!(m.len(), before);
        assert!(m.message.as_deref().is_some_and(|t| t.starts_with("No move goes")), "{:?}", m.message);
    }

    #[test]
    fn dragging_a_throngs_stone_plays_the_part_whose_start_and_end_are_two_decisions() {
        use stoneyard::games::GameKind;
        let mut app = headless_app();
        super::common::start_by_keys(&mut app, GameKind::named("throngs"), &[("board", "R63")]);
        // The first part may move Black's stone one step (rules §4.2 C, the referee's `c5>d5`): a
        // start `c5>`, then the end `>d5`, as two decisions.
        let m = app.world().resource::<CurrentMatch>();
        assert!(m.decisions_now().iter().any(|d| d == "c5>"), "c5 starts a part: {:?}", m.decisions_now());
        app.world_mut().write_message(DragChosen { from: "c5".into(), to: "d5".into() });
        for _ in 0..3 {
            app.update();
        }
        let m = app.world().resource::<CurrentMatch>();
        assert_eq!(m.message, None);
        let board = m.position().board_view();
        let owner = |name: &str| board.cell_named(name).and_then(|c| c.piece.as_ref()).map(|p| p.owner);
        assert_eq!(owner("c5"), None, "the stone left c5");
        assert!(owner("d5").is_some(), "and stands on d5");
    }
}

mod key_rebinding {
    use super::common::{headless_app, key, press, screen};
    use bevy::prelude::KeyCode;
    use stoneyard::app::testing::Action::{self, *};
    use stoneyard::app::testing::Screen;
    use stoneyard::app::testing::{BINDABLE, KeyBindings};
    use stoneyard::app::testing::{CurrentSettings, SaveStore};

    /// Settings, then down to the row of `action` (after the nine option rows).
    fn focus_key_row(app: &mut bevy::prelude::App, action: Action) {
        press(app, &[Up, Up, Select]);
        assert_eq!(screen(app), Screen::Settings);
        let row = 9 + BINDABLE.iter().position(|a| *a == action).unwrap();
        press(app, &vec![Down; row]);
    }

    #[test]
    fn a_key_pressed_after_choosing_an_action_becomes_its_key_and_is_saved() {
        let mut app = headless_app();
        focus_key_row(&mut app, Undo);
        press(&mut app, &[Select]);
        key(&mut app, KeyCode::KeyU);
        assert_eq!(app.world().resource::<KeyBindings>().keys_of(Undo), vec![KeyCode::KeyU]);
        let (saved, _) = app.world_mut().resource_mut::<SaveStore>().0.load_settings();
        assert_eq!(saved.key_bindings, app.world().resource::<CurrentSettings>().0.key_bindings);
        assert_eq!(saved.key_bindings.len(), 1);
        // The new key now works as the action: U on the settings screen does nothing visible, so
        // check through the title: Escape still leaves (Back kept its keys).
        key(&mut app, KeyCode::Escape);
        assert_eq!(screen(&app), Screen::Title);
    }

    #[test]
    fn escape_keeps_the_old_key_and_a_rebound_key_drives_the_menus() {
        let mut app = headless_app();
        focus_key_row(&mut app, Down);
        press(&mut app, &[Select]);
        key(&mut app, KeyCode::Escape);
        assert_eq!(app.world().resource::<KeyBindings>().keys_of(Down), vec![KeyCode::ArrowDown, KeyCode::KeyS]);
        assert_eq!(screen(&app), Screen::Settings, "Escape only cancelled the rebinding");
        // Give "Choose" the key C, then leave and use C to open the first game's setup.
        press(&mut app, &[Down, Down, Down]); // from Down's row to Select's row
        press(&mut app, &[Select]);
        key(&mut app, KeyCode::KeyC);
        assert_eq!(app.world().resource::<KeyBindings>().keys_of(Select), vec![KeyCode::KeyC]);
        key(&mut app, KeyCode::Escape);
        assert_eq!(screen(&app), Screen::Title);
        key(&mut app, KeyCode::Enter);
        assert_eq!(screen(&app), Screen::Title, "Enter is no longer a key of Choose");
        key(&mut app, KeyCode::KeyC);
        assert_eq!(screen(&app), Screen::Setup);
    }
}

mod importing_records {
    use super::common::{headless_app, press, screen};
    use stoneyard::app::testing::Action::*;
    use stoneyard::app::testing::CurrentMatch;
    use stoneyard::app::testing::Replay;
    use stoneyard::app::testing::SaveStore;
    use stoneyard::app::testing::Screen;
    use stoneyard::app::testing::{ImportRecord, SavesList};
    use stoneyard::games::GameKind;

    /// The title's "Saved games" item: after the games, "Learn" and "Play online".
    fn open_saves(app: &mut bevy::prelude::App) {
        let mut keys = vec![Down; 2 + GameKind::all().count()];
        keys.push(Select);
        press(app, &keys);
        assert_eq!(screen(app), Screen::Saves);
    }

    #[test]
    fn a_pasted_record_opens_in_the_replay_and_is_kept_as_a_save() {
        let mut app = headless_app();
        open_saves(&mut app);
        // "Open a game record…" is the row after the (empty) list.
        press(&mut app, &[Select]);
        assert!(app.world().resource::<SavesList>().import.is_some());
        let text = "game: red-stone\noption: size=5\n\nC3\nB2\nD4\n";
        app.world_mut().write_message(ImportRecord(text.to_string()));
        app.update(); // read, kept, opened
        app.update(); // the screen changes
        assert_eq!(screen(&app), Screen::Playing);
        assert!(app.world().resource::<Replay>().active);
        let current = app.world().resource::<CurrentMatch>();
        assert_eq!(current.len() + current.redo_len(), 3);
        let saves = stoneyard::save::list_saves(&app.world().resource::<SaveStore>().0).unwrap().0;
        assert_eq!(saves.len(), 1);
        assert_eq!(saves[0].name, "Imported Red Stone 1");
    }

    #[test]
    fn a_bad_record_is_refused_with_its_reason_and_changes_nothing() {
        let mut app = headless_app();
        open_saves(&mut app);
        press(&mut app, &[Select]);
        let text = "game: red-stone\noption: size=5\n\nC3\nC3\n";
        app.world_mut().write_message(ImportRecord(text.to_string()));
        press(&mut app, &[]);
        assert_eq!(screen(&app), Screen::Saves);
        let problem = app.world().resource::<SavesList>().import.as_ref().and_then(|p| p.problem.clone());
        assert!(problem.as_deref().is_some_and(|p| p.contains("move 2")), "{problem:?}");
        assert!(stoneyard::save::list_saves(&app.world().resource::<SaveStore>().0).unwrap().0.is_empty());
        press(&mut app, &[Back]);
        assert!(app.world().resource::<SavesList>().import.is_none(), "Esc closes the panel");
        assert_eq!(screen(&app), Screen::Saves);
    }
}

mod record_times {
    use stoneyard::app::testing::MatchCommand;
    use stoneyard::save::GameRecord;

    #[test]
    fn move_times_survive_opening_undo_redo_and_saving() {
        let mut record = GameRecord::from_text("game: red-stone\noption: size=5\n\nC3\nB2\nD4\n").unwrap();
        for (m, t) in record.moves.iter_mut().zip([1_500, 4_200, 9_000]) {
            m.at_ms = t;
        }
        let mut current = stoneyard::app::testing::CurrentMatch::from_record(&record).unwrap();
        for command in [MatchCommand::Undo, MatchCommand::Undo, MatchCommand::Redo, MatchCommand::Redo] {
            current.apply(command).unwrap();
        }
        let again = current.record();
        assert_eq!(again.moves.iter().map(|m| m.at_ms).collect::<Vec<_>>(), vec![1_500, 4_200, 9_000]);
        // A decision made now is stamped with the time since the match started.
        current.apply(MatchCommand::Undo).unwrap();
        current.decide("E5").unwrap();
        let times: Vec<u64> = current.session.played().iter().map(|p| p.at_ms).collect();
        assert!(times[2] > 9_000, "{times:?}");
    }
}

/// The app's ordered resolution systems (`Intent` → `Place` → `CaptureSweep` → `Cascade` →
/// `EndCheck`, one frame per decision) and the engines' composed `play` give the same positions
/// and the same effects, in the same order, over random games of every game of the registry.
mod systems_agree_with_play {
    use super::common::headless_app;
    use bevy::prelude::*;
    use stoneyard::app::testing::{AppSystems, CurrentMatch, DecisionChosen, EffectHappened};
    use stoneyard::games::GameKind;
    use stoneyard::rules::{Effect, pick_index, seeded};

    /// Every effect the app resolved, in order.
    #[derive(Resource, Default)]
    struct Resolved(Vec<Effect>);

    fn record(mut seen: ResMut<Resolved>, mut effects: MessageReader<EffectHappened>) {
        seen.0.extend(effects.read().map(|e| e.effect.clone()));
    }

    /// A two-person game of `kind` with `options`, on the board.
    fn start(kind: GameKind, options: &[(&str, &str)]) -> App {
        let mut app = headless_app();
        app.init_resource::<Resolved>();
        app.add_systems(Update, record.in_set(AppSystems::Present));
        super::common::start_by_keys(&mut app, kind, options);
        app
    }

    #[test]
    fn over_random_games_of_every_game() {
        for kind in GameKind::all() {
            for seed in 0..2 {
                let mut app = start(kind, kind.quick_options);
                let mut engine = app.world().resource::<CurrentMatch>().position().clone_box();
                let mut rng = seeded(seed);
                for n in 0..120 {
                    let legal = app.world().resource::<CurrentMatch>().decisions_now();
                    if legal.is_empty() {
                        break;
                    }
                    let d = legal[pick_index(&mut rng, legal.len())].clone();
                    app.world_mut().resource_mut::<Resolved>().0.clear();
                    app.world_mut().write_message(DecisionChosen(d.clone()));
                    app.update();
                    // A losing end of a Gravel turn waits for the player's word: given.
                    stoneyard::app::testing::confirm_warning(&mut app);
                    let expected = engine.play_decision(&d).unwrap_or_else(|e| panic!("{kind} {n}: {d}: {e}"));
                    let shown = app.world().resource::<CurrentMatch>();
                    assert_eq!(shown.len(), n + 1, "{kind} seed {seed}: {d} was not played");
                    assert_eq!(
                        shown.position().position_text(),
                        engine.position_text(),
                        "{kind} seed {seed} after {d}"
                    );
                    assert_eq!(app.world().resource::<Resolved>().0, expected, "{kind} seed {seed}: effects of {d}");
                }
            }
        }
    }
}

/// An idle frame (nothing pressed, nothing animating, nobody thinking) changes nothing: not the
/// match, not the board's state, and it spawns or despawns no entity — with the looks running.
mod idle_frames {
    use bevy::prelude::*;
    use stoneyard::app::testing::{BoardAnimating, BoardState, CurrentMatch, DecisionChosen, headless_app_with_looks};
    use stoneyard::games::GameKind;

    /// Whether the match and the board's state were marked changed, frame by frame.
    #[derive(Resource, Default)]
    struct Changes(Vec<(bool, bool)>);

    fn probe(current: Res<CurrentMatch>, board: Res<BoardState>, mut changes: ResMut<Changes>) {
        changes.0.push((current.is_changed(), board.is_changed()));
    }

    #[test]
    fn an_idle_frame_marks_nothing_changed_and_rebuilds_nothing() {
        for kind in GameKind::all() {
            let mut app = headless_app_with_looks();
            app.init_resource::<Changes>();
            app.add_systems(Last, probe.run_if(resource_exists::<CurrentMatch>));
            super::common::start_by_keys(&mut app, kind, &[]);
            // One decision, then let its animations end.
            let d = app.world().resource::<CurrentMatch>().decisions_now()[0].clone();
            app.world_mut().write_message(DecisionChosen(d));
            for _ in 0..400 {
                app.update();
                if !app.world().resource::<BoardAnimating>().0 {
                    break;
                }
            }
            for _ in 0..3 {
                app.update();
            }
            let entities = app.world().entities().len();
            app.world_mut().resource_mut::<Changes>().0.clear();
            for _ in 0..5 {
                app.update();
            }
            let changes = &app.world().resource::<Changes>().0;
            assert_eq!(changes.len(), 5, "{kind}");
            assert!(changes.iter().all(|&(m, b)| !m && !b), "{kind}: an idle frame changed {changes:?}");
            assert_eq!(app.world().entities().len(), entities, "{kind}: an idle frame spawned or despawned entities");
        }
    }
}

mod games_in_progress {
    use super::common::{headless_app, press, screen};
    use bevy::prelude::*;
    use stoneyard::app::testing::Action::*;
    use stoneyard::app::testing::MatchCommand;
    use stoneyard::app::testing::{CurrentMatch, DecisionChosen, GamesInProgress, SaveStore, Screen, Secrecy};
    use stoneyard::games::GameKind;
    use stoneyard::rules::ToMove;

    /// The title index of `kind`: after "Continue" when there are games in progress.
    fn title_index(app: &App, kind: GameKind) -> usize {
        let continues = usize::from(!app.world().resource::<GamesInProgress>().games.is_empty());
        continues + GameKind::all().position(|k| k == kind).unwrap()
    }

    /// Starts a hot-seat game of `kind` with its default options and plays two of its legal
    /// decisions, then goes back to the title.
    fn start_and_play_two(app: &mut App, kind: GameKind) -> Vec<String> {
        let mut keys = vec![Down; title_index(app, kind)];
        keys.push(Select);
        press(app, &keys);
        assert_eq!(screen(app), Screen::Setup);
        // "Start game" comes before the last two rows ("Learn", "Back"): Up from the first row wraps.
        press(app, &[Up, Up, Up, Select]);
        assert_eq!(screen(app), Screen::Playing, "{kind}");
        for _ in 0..2 {
            let decision = app.world().resource::<CurrentMatch>().decisions_now()[0].clone();
            app.world_mut().write_message(DecisionChosen(decision));
            app.update();
            app.update();
        }
        let history = app.world().resource::<CurrentMatch>().history();
        assert!(!history.is_empty(), "{kind}: a decision was played");
        back_to_title(app);
        history
    }

    /// Esc until the title shows (a hand-over screen first goes back to the board).
    fn back_to_title(app: &mut App) {
        for _ in 0..3 {
            if screen(app) != Screen::Title {
                press(app, &[Back]);
            }
        }
        assert_eq!(screen(app), Screen::Title);
    }

    #[test]
    fn starting_every_game_one_after_another_keeps_them_all_resumable() {
        let mut app = headless_app();
        let mut played = Vec::new();
        for kind in GameKind::all() {
            played.push((kind, start_and_play_two(&mut app, kind)));
        }
        let games = &app.world().resource::<GamesInProgress>().games;
        assert_eq!(games.len(), played.len(), "no game was discarded");
        // Last played first: the list is the games in reverse order of play.
        let listed: Vec<GameKind> = games.iter().map(|g| g.game).collect();
        let mut expected: Vec<GameKind> = played.iter().map(|(k, _)| *k).collect();
        expected.reverse();
        assert_eq!(listed, expected);
        // Each one continues where it was left, with its moves.
        for (i, (kind, history)) in expected.iter().zip(played.iter().rev().map(|(_, h)| h)).enumerate() {
            press(&mut app, &[Select]);
            assert_eq!(screen(&app), Screen::Continue);
            let mut keys = vec![Down; i];
            keys.push(Select);
            press(&mut app, &keys);
            assert_eq!(screen(&app), Screen::Playing);
            let current = app.world().resource::<CurrentMatch>();
            assert_eq!(current.position().kind(), *kind);
            assert_eq!(&current.history(), history, "{kind}");
            if current.position().to_move() == Some(ToMove::Both) {
                // Secret choices: whoever holds the device says who they are before the board shows.
                assert!(app.world().resource::<Secrecy>().handover.is_some(), "{kind}");
            }
            back_to_title(&mut app);
        }
    }

    #[test]
    fn a_game_in_progress_is_deleted_only_after_a_second_press_and_a_finished_one_is_never_offered() {
        let mut app = headless_app();
        start_and_play_two(&mut app, GameKind::named("red-stone"));
        start_and_play_two(&mut app, GameKind::named("inchworm"));
        press(&mut app, &[Select]);
        assert_eq!(screen(&app), Screen::Continue);
        press(&mut app, &[CycleOption]);
        assert_eq!(app.world().resource::<GamesInProgress>().confirm_delete, Some(0));
        press(&mut app, &[Back]);
        assert_eq!(app.world().resource::<GamesInProgress>().games.len(), 2, "Esc keeps it");
        press(&mut app, &[CycleOption, Select]);
        let games = &app.world().resource::<GamesInProgress>().games;
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].game, GameKind::named("red-stone"));
        // The Red Stone game ends by resignation: it leaves the list.
        press(&mut app, &[Select]);
        assert_eq!(screen(&app), Screen::Playing);
        let side = app.world().resource::<CurrentMatch>().resigning_side().unwrap();
        app.world_mut().write_message(MatchCommand::Resign(side));
        app.update();
        let store = &app.world().resource::<SaveStore>().0;
        assert!(stoneyard::save::list_games(store).unwrap().0.is_empty(), "a finished game is not a game in progress");
        back_to_title(&mut app);
        assert!(app.world().resource::<GamesInProgress>().games.is_empty());
    }
}

mod event_log {
    use super::common::headless_app;
    use bevy::prelude::*;
    use stoneyard::app::testing::MatchCommand;
    use stoneyard::app::testing::{CurrentMatch, DecisionChosen, EventLog, Screen, Secrecy};
    use stoneyard::games::GameKind;
    use stoneyard::save::token_decisions;

    /// A hot-seat match of `slug` from `position`, on the board.
    fn app_at(slug: &str, options: &[(&str, &str)], position: &str) -> App {
        let mut app = headless_app();
        let options: Vec<(String, String)> = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let game = GameKind::named(slug).open(&options, Some(position)).unwrap();
        app.world_mut().insert_resource(CurrentMatch::new(game));
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
        app.update();
        app
    }

    /// Plays the spec move `token` as the player's decisions, one per frame.
    fn play_token(app: &mut App, token: &str) {
        let decisions = token_decisions(app.world().resource::<CurrentMatch>().position(), token).unwrap();
        for d in decisions {
            // A hand-over screen in between is confirmed by the next player.
            app.world_mut().resource_mut::<Secrecy>().handover = None;
            app.world_mut().write_message(DecisionChosen(d));
            app.update();
        }
        app.update();
    }

    fn lines(app: &App) -> Vec<String> {
        app.world().resource::<EventLog>().lines.iter().map(|(_, l)| l.clone()).collect()
    }

    #[test]
    fn a_red_stone_capture_is_told_with_its_count_and_undo_takes_the_line_back() {
        let mut app = app_at("red-stone", &[("size", "5")], "..X../.XOX./.XO../..X../....O b");
        play_token(&mut app, "D3*");
        assert_eq!(lines(&app), ["Black's red stone on D3 captured 2 white stones"]);
        app.world_mut().write_message(MatchCommand::Undo);
        app.update();
        assert!(lines(&app).is_empty(), "the undone capture leaves the log");
    }

    #[test]
    fn a_burn_is_told_on_the_hand_over_screen_before_the_next_player_looks() {
        let mut app = app_at("hidden-intention", &[], "Qd4 ; Re5 ; P8R2B2N1Q0 P8R1B2N1Q1 ; 2 2 ; - ; 2.1");
        play_token(&mut app, "Pc6|Xc6");
        assert_eq!(lines(&app), ["c6 burned: both chose it"]);
        // The hand-over screen (shown to both) holds the lines of the decision just made.
        let history = app.world().resource::<CurrentMatch>().len();
        assert!(app.world().resource::<EventLog>().lines.iter().all(|(n, _)| *n == history));
    }
}

mod last_turn_marks {
    use super::common::headless_app;
    use bevy::prelude::*;
    use stoneyard::app::testing::{CurrentMatch, DecisionChosen, LastTurn, Screen, Secrecy};
    use stoneyard::games::GameKind;
    use stoneyard::rules::cells_in_token;

    /// Plays one whole turn of the side to move (decisions naming spaces first), one per frame;
    /// returns its decisions.
    fn play_a_turn(app: &mut App) -> Vec<String> {
        let mover = app.world().resource::<CurrentMatch>().acting_side();
        let mut played = Vec::new();
        while app.world().resource::<CurrentMatch>().acting_side() == mover && played.len() < 12 {
            let decisions = app.world().resource::<CurrentMatch>().decisions_now();
            let d = decisions.iter().find(|d| !cells_in_token(d).is_empty()).unwrap_or(&decisions[0]).clone();
            app.world_mut().write_message(DecisionChosen(d.clone()));
            app.update();
            played.push(d);
        }
        played
    }

    #[test]
    fn the_marks_cover_every_space_a_multi_part_turn_touched() {
        for slug in ["gravel", "throngs", "inchworm"] {
            let mut app = headless_app();
            let kind = GameKind::named(slug);
            let game = kind.open(&kind.quick_pairs(), None).unwrap();
            app.world_mut().insert_resource(CurrentMatch::new(game));
            app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
            app.update();
            play_a_turn(&mut app);
            let turn = play_a_turn(&mut app);
            let current = app.world().resource::<CurrentMatch>();
            let marks = LastTurn::of(current, app.world().resource::<Secrecy>());
            for d in &turn {
                for cell in cells_in_token(d) {
                    assert!(
                        marks.touched.iter().any(|t| t == cell),
                        "{slug}: {cell} of {turn:?} not in {:?}",
                        marks.touched
                    );
                }
            }
        }
    }
}

mod forced_decisions {
    use super::common::{headless_app, press};
    use bevy::prelude::*;
    use stoneyard::app::testing::Action::Undo;
    use stoneyard::app::testing::{CurrentMatch, DecisionChosen, Screen};
    use stoneyard::games::GameKind;
    use stoneyard::rules::cells_in_token;

    #[test]
    fn a_gravel_turn_ends_by_itself_when_no_action_is_left_and_undo_takes_both_back() {
        let mut app = headless_app();
        let kind = GameKind::named("gravel");
        app.world_mut().insert_resource(CurrentMatch::new(kind.open(&kind.quick_pairs(), None).unwrap()));
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
        app.update();
        let first = app.world().resource::<CurrentMatch>().acting_side();
        let mut sent = 0;
        while app.world().resource::<CurrentMatch>().acting_side() == first {
            let decisions = app.world().resource::<CurrentMatch>().decisions_now();
            let action = decisions.iter().find(|d| !cells_in_token(d).is_empty()).expect("an action is left").clone();
            app.world_mut().write_message(DecisionChosen(action));
            app.update();
            app.update();
            // The end played for the player may lose at once: it waits for their word, given here.
            stoneyard::app::testing::confirm_warning(&mut app);
            sent += 1;
            assert!(sent < 20, "the turn ends");
        }
        let current = app.world().resource::<CurrentMatch>();
        assert_eq!(current.history().last().map(String::as_str), Some("end"), "{:?}", current.history());
        assert_eq!(current.len(), sent + 1, "only the end was played for the player");
        press(&mut app, &[Undo]);
        let current = app.world().resource::<CurrentMatch>();
        assert_eq!(current.len(), sent - 1, "undo takes back the end and the action that forced it");
        assert_eq!(current.acting_side(), first);
    }
}

/// Two players' apps against a real game server on loopback: create with a code, join with it,
/// play, resign, rematch, and the seats kept in the store.
#[cfg(feature = "server")]
mod online_play {
    use super::common::{assert_projection_matches, headless_app, press, screen};
    use bevy::prelude::*;
    use stoneyard::app::testing::Action::*;
    use stoneyard::app::testing::{
        CurrentMatch, CurrentSettings, DecisionChosen, KeptSeats, LobbyRow, OnlineLobby, OnlinePlayer, OnlineRequest,
        OnlineStatus, OpenGames, OpponentPresence, SaveStore, Screen, TurnNotice, YourTurn,
    };
    use stoneyard::games::GameKind;
    use stoneyard::online::protocol::SeatChoice;
    use stoneyard::online::server::Background;
    use stoneyard::rules::Side;

    fn scratch_database(name: &str) -> String {
        let dir = std::env::temp_dir().join(format!("stoneyard-app-online-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        format!("sqlite://{}", dir.join("games.sqlite3").display())
    }

    /// A player's app on the online screen, talking to `server`.
    fn player(server: &str) -> App {
        let mut app = headless_app();
        app.world_mut().resource_mut::<CurrentSettings>().0.online_server = server.to_string();
        // Moves animate as in the game: the opponent's wait for the last one to be shown.
        app.world_mut().resource_mut::<CurrentSettings>().0.animation_speed = stoneyard::save::AnimationSpeed::Normal;
        // The title's "Play online" comes after the five games and "Learn".
        let mut presses = vec![Down; GameKind::all().count() + 1];
        presses.push(Select);
        press(&mut app, &presses);
        assert_eq!(screen(&app), Screen::Online);
        app
    }

    /// Runs both apps' frames until `done` holds. The server answers on its own threads over
    /// real sockets, so this waits for the network (up to 30 s), yielding between frames.
    fn run_until(apps: &mut [&mut App], what: &str, done: impl Fn(&[&mut App]) -> bool) {
        let give_up = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while std::time::Instant::now() < give_up {
            for app in apps.iter_mut() {
                app.update();
            }
            if done(apps) {
                return;
            }
            std::thread::yield_now();
        }
        for app in apps.iter() {
            let lobby = app.world().resource::<OnlineLobby>();
            eprintln!(
                "state at the timeout: rows {:?} message {:?} focus {:?} player {:?}",
                lobby.shown_rows,
                lobby.message,
                app.world().resource::<stoneyard::app::testing::MenuFocus>().0,
                app.world().resource::<OnlinePlayer>()
            );
        }
        panic!("timed out waiting for: {what}");
    }

    /// Presses Down until row `index` of the online screen is focused, then Select.
    fn activate_row(app: &mut App, index: usize) {
        let mut presses = vec![Down; index];
        presses.push(Select);
        press(app, &presses);
    }

    /// Where `row` is on the online screen as `app` shows it now.
    fn row(app: &App, row: LobbyRow) -> usize {
        let rows = &app.world().resource::<OnlineLobby>().shown_rows;
        rows.iter().position(|r| *r == row).unwrap_or_else(|| panic!("no row {row:?} in {rows:?}"))
    }

    fn history(app: &App) -> Vec<String> {
        app.world().get_resource::<CurrentMatch>().map(|m| m.history()).unwrap_or_default()
    }

    #[test]
    fn two_apps_create_join_play_resign_and_rematch_on_a_real_server() {
        let server = Background::start(scratch_database("full"), None).unwrap();
        let url = server.socket_url();
        let mut a = player(&url);
        let mut b = player(&url);
        run_until(&mut [&mut a, &mut b], "both connected", |apps| {
            apps.iter().all(|app| app.world().resource::<stoneyard::app::testing::Connection>().is_open())
        });

        // A creates a Red Stone game, moving first, and gets a code.
        {
            let mut lobby = a.world_mut().resource_mut::<OnlineLobby>();
            lobby.create.select(GameKind::named("red-stone"), &[]);
            lobby.seat = SeatChoice::First;
        }
        a.update(); // the screen shows Red Stone's rows
        let create = row(&a, LobbyRow::Invite);
        activate_row(&mut a, create);
        run_until(&mut [&mut a, &mut b], "the invite code", |apps| {
            apps[0].world().resource::<OnlineLobby>().invite.is_some()
        });
        let code = a.world().resource::<OnlineLobby>().invite.clone().unwrap().code;
        // The token was kept before the code was shown.
        let seats = stoneyard::save::load_seats(&a.world().resource::<SaveStore>().0).unwrap();
        assert_eq!(seats.len(), 1);
        assert_eq!((seats[0].seat, seats[0].game), (Side::First, Some(GameKind::named("red-stone"))));
        assert_eq!(screen(&a), Screen::Online, "the creator waits on the invite");

        // B types the code and joins: both boards open.
        b.world_mut().resource_mut::<OnlineLobby>().join_code = code.to_lowercase();
        let join = row(&b, LobbyRow::Join);
        activate_row(&mut b, join);
        run_until(&mut [&mut a, &mut b], "both boards", |apps| {
            apps.iter().all(|app| screen(app) == Screen::Playing && app.world().contains_resource::<CurrentMatch>())
        });
        for app in [&a, &b] {
            let status = app.world().resource::<OnlineStatus>();
            assert!(status.active && status.connected);
        }
        run_until(&mut [&mut a, &mut b], "both see the other online", |apps| {
            apps.iter().all(|app| app.world().resource::<OnlineStatus>().opponent == OpponentPresence::Online)
        });
        assert_eq!(b.world().resource::<CurrentMatch>().remote, Some(Side::First));

        // A moves on the board; B's board plays it through the ordinary resolution.
        let first = a.world().resource::<CurrentMatch>().decisions_now()[0].clone();
        a.world_mut().write_message(DecisionChosen(first.clone()));
        run_until(&mut [&mut a, &mut b], "B sees A's move", |apps| history(apps[1]) == vec![first.clone()]);
        run_until(&mut [&mut a, &mut b], "A's move stored", |apps| {
            apps[0].world().resource::<OnlineStatus>().pending == 0
        });
        assert_projection_matches(&mut b);
        // B may not move for A, and A's board refuses A's input while B is to move.
        let a_again = a.world().resource::<CurrentMatch>();
        assert!(!a_again.person_plays(a_again.acting_side().unwrap()));
        let reply = b.world().resource::<CurrentMatch>().decisions_now()[0].clone();
        b.world_mut().write_message(DecisionChosen(reply.clone()));
        run_until(&mut [&mut a, &mut b], "A sees B's reply", |apps| history(apps[0]).len() == 2);
        assert_eq!(history(&a), history(&b));
        // And a second round, once the replies have been shown.
        run_until(&mut [&mut a, &mut b], "the boards at rest", |apps| {
            apps.iter().all(|app| !app.world().resource::<stoneyard::app::testing::BoardAnimating>().0)
        });
        let again = a.world().resource::<CurrentMatch>().decisions_now()[0].clone();
        a.world_mut().write_message(DecisionChosen(again));
        run_until(&mut [&mut a, &mut b], "B sees A's second move", |apps| history(apps[1]).len() == 3);
        run_until(&mut [&mut a, &mut b], "the boards at rest again", |apps| {
            apps.iter().all(|app| !app.world().resource::<stoneyard::app::testing::BoardAnimating>().0)
        });
        let reply = b.world().resource::<CurrentMatch>().decisions_now()[0].clone();
        b.world_mut().write_message(DecisionChosen(reply));
        run_until(&mut [&mut a, &mut b], "A sees B's second reply", |apps| history(apps[0]).len() == 4);
        assert_eq!(history(&a), history(&b));

        // B resigns; both boards end the game with A the winner.
        b.world_mut().write_message(OnlineRequest::Resign);
        run_until(&mut [&mut a, &mut b], "the resignation", |apps| {
            apps.iter().all(|app| app.world().resource::<CurrentMatch>().is_over())
        });
        // B resigned the colour it plays now (its reply may have been the pie swap).
        let current = a.world().resource::<CurrentMatch>();
        let b_colour = Side::BOTH.into_iter().find(|s| current.is_remote(*s));
        assert_eq!(current.resigned(), b_colour);

        // Both ask for a rematch: a new game with the seats swapped, kept and opened.
        a.world_mut().write_message(OnlineRequest::Rematch);
        run_until(&mut [&mut a, &mut b], "the offer reaches B", |apps| {
            apps[1].world().resource::<OnlineStatus>().rematch == stoneyard::app::testing::RematchOffer::ByOpponent
        });
        b.world_mut().write_message(OnlineRequest::Rematch);
        run_until(&mut [&mut a, &mut b], "the rematch boards", |apps| {
            apps.iter().all(|app| {
                let m = app.world().resource::<CurrentMatch>();
                !m.is_over() && m.is_empty() && app.world().resource::<KeptSeats>().seats.len() == 2
            })
        });
        assert_eq!(a.world().resource::<CurrentMatch>().remote, Some(Side::First), "A plays second now");

        // Back at the title, the online game leaves the board; "My online games" lists both seats.
        press(&mut a, &[Back]);
        let _ = screen(&a);
        // On the online screen again, the first game's invite card is gone: it was joined and ended
        // (it was up after the game was created, above).
        a.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Online);
        run_until(&mut [&mut a, &mut b], "the old invite card gone", |apps| {
            apps[0].world().resource::<OnlineLobby>().invite.is_none()
        });
        drop(server);
    }

    /// Chooses a name on the online screen by its row, as a player would.
    fn choose_name(apps: &mut [&mut App], who: usize, name: &str) {
        apps[who].world_mut().resource_mut::<OnlineLobby>().name_text = name.to_string();
        let at = row(apps[who], LobbyRow::Name);
        activate_row(apps[who], at);
        run_until(apps, "the name taken", |apps| apps[who].world().resource::<OnlinePlayer>().name() == Some(name));
    }

    #[test]
    fn strangers_find_each_other_through_the_open_list_and_a_third_watches_the_rated_game() {
        let server = Background::start(scratch_database("lobby"), None).unwrap();
        let url = server.socket_url();
        let (mut a, mut b, mut c) = (player(&url), player(&url), player(&url));
        let mut all = [&mut a, &mut b, &mut c];
        run_until(&mut all, "all connected", |apps| {
            apps.iter().all(|app| app.world().resource::<stoneyard::app::testing::Connection>().is_open())
        });
        choose_name(&mut all, 0, "Ada");
        choose_name(&mut all, 1, "Bob");
        // The key was kept before it was used: a restart signs in again as Ada.
        let kept = stoneyard::save::load_players(&all[0].world().resource::<SaveStore>().0).unwrap();
        assert_eq!((kept.len(), kept[0].name.as_str()), (1, "Ada"));

        // Ada posts a rated Red Stone challenge, moving first.
        {
            let mut lobby = all[0].world_mut().resource_mut::<OnlineLobby>();
            lobby.create.select(GameKind::named("red-stone"), &[]);
            lobby.seat = SeatChoice::First;
            lobby.rated = true;
        }
        all[0].update(); // the screen shows Red Stone's rows
        let post = row(all[0], LobbyRow::Post);
        activate_row(all[0], post);
        run_until(&mut all, "the challenge in Bo's open list", |apps| {
            apps[1].world().resource::<OpenGames>().challenges.iter().any(|c| c.by == "Ada" && c.rated)
        });
        assert!(all[0].world().resource::<OnlineLobby>().invite.as_ref().is_some_and(|i| i.challenge));
        // Cy, who has no name, sees it too.
        run_until(&mut all, "the challenge in Cy's list", |apps| {
            !apps[2].world().resource::<OpenGames>().challenges.is_empty()
        });

        // Bo accepts it from the list: both boards open at once.
        let accept = row(all[1], LobbyRow::Challenge(0));
        activate_row(all[1], accept);
        run_until(&mut all, "both boards", |apps| {
            apps[..2]
                .iter()
                .all(|app| screen(app) == Screen::Playing && app.world().contains_resource::<CurrentMatch>())
        });
        run_until(&mut all, "the challenge gone from Cy's list", |apps| {
            apps[2].world().resource::<OpenGames>().challenges.is_empty()
        });
        let names = all[0].world().resource::<OnlineStatus>().names.clone();
        assert_eq!(names, [Some("Ada".to_string()), Some("Bob".to_string())]);

        // Cy watches it from the games being played.
        run_until(&mut all, "the game in Cy's live list", |apps| {
            apps[2].world().resource::<OpenGames>().live.iter().any(|g| g.names == ["Ada", "Bob"])
        });
        let watch = row(all[2], LobbyRow::Live(0));
        activate_row(all[2], watch);
        run_until(&mut all, "Cy's board", |apps| {
            screen(apps[2]) == Screen::Playing
                && apps[2].world().get_resource::<CurrentMatch>().is_some_and(|m| m.watching)
        });
        run_until(&mut all, "the players see one watcher", |apps| {
            apps[..2].iter().all(|app| app.world().resource::<OnlineStatus>().watchers == 1)
        });
        // Cy decides nothing for either side.
        let watched = all[2].world().resource::<CurrentMatch>();
        assert!(Side::BOTH.iter().all(|s| !watched.person_plays(*s)));

        // Ada moves; Bo and Cy see it. Ada says hello.
        let first = all[0].world().resource::<CurrentMatch>().decisions_now()[0].clone();
        all[0].world_mut().write_message(DecisionChosen(first.clone()));
        all[0].world_mut().write_message(OnlineRequest::Say(stoneyard::online::directory::Phrase::Hello));
        run_until(&mut all, "Bo and Cy see Ada's move and hello", |apps| {
            apps[1..].iter().all(|app| {
                history(app) == vec![first.clone()]
                    && app.world().resource::<OnlineStatus>().said.iter().any(|(s, _)| *s == Side::First)
            })
        });

        // Bo answers: both sides have moved (a game left before that is aborted, unrated).
        let reply = all[1].world().resource::<CurrentMatch>().decisions_now()[0].clone();
        all[1].world_mut().write_message(DecisionChosen(reply.clone()));
        run_until(&mut all, "Ada and Cy see Bo's reply", |apps| {
            [0, 2].into_iter().all(|i| history(apps[i]) == vec![first.clone(), reply.clone()])
        });

        // Bo resigns: the rated game's changes reach both players and the watcher.
        all[1].world_mut().write_message(OnlineRequest::Resign);
        run_until(&mut all, "the rating changes", |apps| {
            apps.iter().all(|app| app.world().resource::<OnlineStatus>().rating_changes.len() == 2)
        });
        let changes = all[2].world().resource::<OnlineStatus>().rating_changes.clone();
        assert!(changes[0].after > changes[0].before && changes[1].after < changes[1].before, "{changes:?}");
        drop(server);
    }

    /// Puts the online screen's focus on row `index` (as the pointer's hover does).
    fn focus_row(app: &mut App, index: usize) {
        app.world_mut().resource_mut::<stoneyard::app::testing::MenuFocus>().0 = index;
    }

    /// The notices an app wrote (the test's stand-in for the desktop's notifier).
    #[derive(Resource, Default)]
    struct NoticesShown(Vec<TurnNotice>);

    fn keep_notices(app: &mut App) {
        app.init_resource::<NoticesShown>();
        app.add_systems(Last, |mut notices: MessageReader<TurnNotice>, mut shown: ResMut<NoticesShown>| {
            shown.0.extend(notices.read().cloned());
        });
    }

    /// The notices written since the last call.
    fn notices(app: &mut App) -> Vec<TurnNotice> {
        std::mem::take(&mut app.world_mut().resource_mut::<NoticesShown>().0)
    }

    #[test]
    fn a_timed_challenge_shows_both_clocks_and_tells_each_player_when_it_is_their_turn() {
        let server = Background::start(scratch_database("clocks"), None).unwrap();
        let url = server.socket_url();
        let (mut a, mut b) = (player(&url), player(&url));
        let mut all = [&mut a, &mut b];
        run_until(&mut all, "both connected", |apps| {
            apps.iter().all(|app| app.world().resource::<stoneyard::app::testing::Connection>().is_open())
        });
        choose_name(&mut all, 0, "Ada");
        choose_name(&mut all, 1, "Bob");
        for app in all.iter_mut() {
            keep_notices(app);
        }

        // Ada posts Red Stone at 3+2, moving first; the clock row steps from Untimed to 3+2.
        {
            let mut lobby = all[0].world_mut().resource_mut::<OnlineLobby>();
            lobby.create.select(GameKind::named("red-stone"), &[]);
            lobby.seat = SeatChoice::First;
        }
        all[0].update();
        let clock_row = row(all[0], LobbyRow::PostTime);
        focus_row(all[0], clock_row);
        press(all[0], &[Right]);
        assert_eq!(
            all[0].world().resource::<OnlineLobby>().time_control(),
            Some(stoneyard::online::directory::TimeControl::Live { base_seconds: 180, increment_seconds: 2 })
        );
        let post = row(all[0], LobbyRow::Post);
        focus_row(all[0], post);
        press(all[0], &[Select]);
        run_until(&mut all, "the timed challenge in Bob's list", |apps| {
            apps[1].world().resource::<OpenGames>().challenges.iter().any(|c| c.time_control.is_some())
        });
        let accept = row(all[1], LobbyRow::Challenge(0));
        activate_row(all[1], accept);

        // Both see both clocks: Ada's runs, Bob's stands at three minutes.
        run_until(&mut all, "both clocks", |apps| {
            apps.iter().all(|app| {
                app.world().resource::<OnlineStatus>().clock.as_ref().is_some_and(|c| c.running == [true, false])
            })
        });
        for app in all.iter() {
            let status = app.world().resource::<OnlineStatus>();
            assert!(status.clock_left(0).is_some_and(|left| left <= 180_000 && left > 170_000), "{status:?}");
            assert_eq!(status.clock_left(1), Some(180_000));
        }
        // It is Ada's turn: her title counts it, and (her window in the background: a headless app
        // has none) she is told; Bob is not.
        run_until(&mut all, "Ada's turn counted", |apps| apps[0].world().resource::<YourTurn>().games.len() == 1);
        let told = notices(all[0]);
        assert_eq!(told.len(), 1, "{told:?}");
        assert_eq!(told[0].body, "Your move in Red Stone against Bob");
        assert!(all[1].world().resource::<YourTurn>().games.is_empty());

        // Ada moves: Bob's clock runs and Bob is told; Ada's turn is no longer counted.
        let first = all[0].world().resource::<CurrentMatch>().decisions_now()[0].clone();
        all[0].world_mut().write_message(DecisionChosen(first));
        run_until(&mut all, "Bob's clock running and his turn counted", |apps| {
            apps[1].world().resource::<OnlineStatus>().clock.as_ref().is_some_and(|c| c.running == [false, true])
                && apps[1].world().resource::<YourTurn>().games.len() == 1
                && apps[0].world().resource::<YourTurn>().games.is_empty()
        });
        let told = notices(all[1]);
        assert_eq!(told.iter().map(|n| n.body.as_str()).collect::<Vec<_>>(), ["Your move in Red Stone against Ada"]);
        assert!(notices(all[0]).is_empty(), "no notice when the turn passes away");
        // Ada's clock stopped with the increment: more than she had when she moved.
        let status = all[1].world().resource::<OnlineStatus>();
        assert!(status.clock_left(0).is_some_and(|left| left > 180_000 - 10_000), "{status:?}");
        drop(server);
    }

    /// Posts `count` open Gravel challenges from throwaway names (a player may hold only
    /// `CHALLENGES_PER_PLAYER`), over the protocol as other players' apps would.
    fn post_challenges(url: &str, poster_name: &str, count: i64) {
        use stoneyard::online::client::Client;
        use stoneyard::online::protocol::{ClientMessage, ServerMessage};
        use stoneyard::online::server::CHALLENGES_PER_PLAYER;
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            // A follower of the lobby, to know when the server's list holds the last challenge.
            let mut follower = Client::connect(url).await.unwrap();
            let lobby = follower.request(&ClientMessage::WatchLobby {}).await;
            assert!(matches!(lobby, Ok(ServerMessage::Lobby { .. })), "{lobby:?}");
            let mut newest = String::new();
            let mut left = count;
            for poster in 0.. {
                if left == 0 {
                    break;
                }
                let mut client = Client::connect(url).await.unwrap();
                let named = client.request(&ClientMessage::Register { name: format!("{poster_name}{poster}") }).await;
                assert!(matches!(named, Ok(ServerMessage::SignedIn { .. })), "{named:?}");
                for _ in 0..left.min(CHALLENGES_PER_PLAYER) {
                    let challenge = ClientMessage::Challenge {
                        game: GameKind::named("gravel"),
                        options: vec![],
                        seat: SeatChoice::First,
                        rated: false,
                        time_control: None,
                        to: None,
                    };
                    let posted = client.request(&challenge).await;
                    let Ok(ServerMessage::Created { game_id, .. }) = posted else { panic!("{posted:?}") };
                    newest = game_id;
                    left -= 1;
                }
            }
            // The lobby lists the newest: a player who opens it now sees all of them settled.
            let listed = |m: &ServerMessage| matches!(m, ServerMessage::ChallengeAdded { challenge } if challenge.game_id == newest);
            follower.recv_until(listed).await.unwrap();
        });
    }

    #[test]
    fn a_crowded_lobby_lists_the_newest_challenges_and_pages_to_the_older_ones() {
        use stoneyard::online::directory::LISTED_CHALLENGES;
        use stoneyard::online::server::ServeOptions;
        let options = ServeOptions { sign_ins_per_minute: 1_000.0, ..ServeOptions::local(scratch_database("crowded")) };
        let server = Background::start_with(options).unwrap();
        let url = server.socket_url();
        let posted = LISTED_CHALLENGES + 7;
        post_challenges(&url, "Poster", posted);
        let mut app = player(&url);
        run_until(&mut [&mut app], "the newest challenges", |apps| {
            apps[0].world().resource::<OpenGames>().challenges.len() as i64 == LISTED_CHALLENGES
        });
        app.update(); // the rows follow the list
        // The list ends with "Older challenges"; selecting it brings the seven older ones.
        let older = row(&app, LobbyRow::OlderChallenges);
        assert_eq!(older, row(&app, LobbyRow::Challenge(LISTED_CHALLENGES as usize - 1)) + 1);
        focus_row(&mut app, older);
        press(&mut app, &[Select]);
        run_until(&mut [&mut app], "the older challenges", |apps| {
            apps[0].world().resource::<OpenGames>().shown_challenges().count() as i64 == posted
        });
        app.update();
        let games = app.world().resource::<OpenGames>();
        let shown: Vec<i64> = games.shown_challenges().map(|c| c.posted_ms).collect();
        assert!(shown.windows(2).all(|w| w[0] >= w[1]), "newest first");
        let mut ids: Vec<&str> = games.shown_challenges().map(|c| c.game_id.as_str()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len() as i64, posted, "each challenge once");
        // All are listed now: the row is gone, and the last challenge can be chosen.
        let rows = &app.world().resource::<OnlineLobby>().shown_rows;
        assert!(!rows.contains(&LobbyRow::OlderChallenges), "{rows:?}");
        assert!(rows.contains(&LobbyRow::Challenge(posted as usize - 1)), "{rows:?}");
        // A newer challenge pushes the oldest followed one onto the older ones: it stays in view.
        let before: Vec<String> = games.shown_challenges().map(|c| c.game_id.clone()).collect();
        post_challenges(&url, "Latecomer", 1);
        run_until(&mut [&mut app], "the latest challenge", |apps| {
            let games = apps[0].world().resource::<OpenGames>();
            games.shown_challenges().count() as i64 == posted + 1 && games.challenges.len() as i64 == LISTED_CHALLENGES
        });
        let games = app.world().resource::<OpenGames>();
        let shown: Vec<String> = games.shown_challenges().map(|c| c.game_id.clone()).collect();
        assert_eq!(shown[1..], before[..], "the newest first, then every one shown before, in order");
    }
}

/// One timeline of effects: sounds, animations and flourishes of a decision on one clock.
mod timeline {
    use bevy::prelude::*;
    use stoneyard::app::testing::{
        CurrentMatch, DecisionChosen, Screen, Secrecy, Timeline, Tween, headless_app_with_looks,
    };
    use stoneyard::games::GameKind;
    use stoneyard::rules::{EffectKind, Side, pick_index, seeded};
    use stoneyard::session::Match;
    use stoneyard::synth::Cue;

    /// The first decision of seeded random games of `slug` whose effects `wanted` accepts: the
    /// match before it, and the decision.
    fn find(
        slug: &str,
        options: &[(String, String)],
        wanted: impl Fn(&[stoneyard::rules::Effect]) -> bool,
    ) -> (Match, String) {
        let kind = GameKind::named(slug);
        for seed in 0..400 {
            let mut m = Match::open(kind, options, None).unwrap();
            let mut rng = seeded(seed);
            while let Some(seat) = Side::BOTH.into_iter().find(|&s| !m.legal_for(s).is_empty()) {
                let legal = m.legal_for(seat);
                let d = legal[pick_index(&mut rng, legal.len())].clone();
                let before = m.clone();
                let decided = m.decide(seat, &d, 0).unwrap();
                let effects: Vec<_> = decided.effects.all().cloned().collect();
                if wanted(&effects) {
                    return (before, d);
                }
            }
        }
        panic!("no such decision in 400 games of {slug}");
    }

    /// An app with the board's looks at normal speed, showing `m`, after `decision` was chosen.
    fn decided(m: Match, decision: &str) -> App {
        let mut app = headless_app_with_looks();
        app.world_mut().insert_resource(CurrentMatch::of(m));
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
        app.update();
        app.update();
        app.world_mut().resource_mut::<Secrecy>().handover = None;
        app.world_mut().write_message(DecisionChosen(decision.to_string()));
        app.update();
        app
    }

    #[test]
    fn a_cascade_of_three_rounds_sounds_each_round_when_it_is_drawn() {
        let rounds = |effects: &[stoneyard::rules::Effect]| {
            let mut waves: Vec<u16> =
                effects.iter().filter(|e| matches!(e.kind, EffectKind::Removed { .. })).map(|e| e.wave).collect();
            waves.sort_unstable();
            waves.dedup();
            waves
        };
        let (m, decision) = find("hidden-intention", &[], |effects| rounds(effects).len() >= 3);
        let mut app = decided(m, &decision);
        let timeline = app.world().resource::<Timeline>().clone();
        let round_sounds: Vec<f32> = timeline.sounds.iter().filter(|s| s.cue == Cue::Cascade).map(|s| s.at).collect();
        let capture_sounds: Vec<f32> =
            timeline.sounds.iter().filter(|s| matches!(s.cue, Cue::Capture(_))).map(|s| s.at).collect();
        eprintln!(
            "rounds sound at {round_sounds:?} s, captures at {capture_sounds:?} s (wave starts {:?})",
            timeline.wave_starts
        );
        assert!(capture_sounds.len() >= 3, "{timeline:?}");
        assert!(capture_sounds.windows(2).all(|w| w[0] < w[1]), "distinct, increasing: {capture_sounds:?}");
        // Each round's pieces start lifting away when its sound plays.
        let mut starts: Vec<f32> =
            app.world_mut().query::<&Tween>().iter(app.world()).filter(|t| t.vanish).map(|t| t.start).collect();
        starts.sort_by(f32::total_cmp);
        starts.dedup();
        for at in &capture_sounds {
            assert!(starts.contains(at), "no piece leaves at {at} s: {starts:?}");
        }
        // The board is animating until the last round is drawn; a skip ends it, sounds included.
        assert!(app.world().resource::<stoneyard::app::testing::BoardAnimating>().0);
        app.world_mut().resource_mut::<Timeline>().skip();
        app.update();
        let timeline = app.world().resource::<Timeline>();
        assert!(!timeline.running(), "{timeline:?}");
        assert!(app.world_mut().query::<&Tween>().iter(app.world()).next().is_none(), "the animations ended");
    }

    /// Frames until every animation on the timeline has ended (at most five seconds of them).
    fn run_out(app: &mut App) {
        for _ in 0..300 {
            let timeline = app.world().resource::<Timeline>();
            if timeline.elapsed >= timeline.end {
                app.update();
                return;
            }
            app.update();
        }
        panic!("the animations never ended");
    }

    /// Frames until the timeline is `seconds` past the start of `wave`.
    fn run_to(app: &mut App, wave: u16, seconds: f32) {
        for _ in 0..300 {
            let timeline = app.world().resource::<Timeline>();
            if timeline.elapsed >= timeline.start_of(wave) + seconds {
                return;
            }
            app.update();
        }
        panic!("the timeline never got there");
    }

    #[test]
    fn a_moved_piece_is_seen_travelling_from_its_start_and_comes_to_rest_on_its_space() {
        use stoneyard::app::testing::{BoardState, Piece};
        let hop = |effects: &[stoneyard::rules::Effect]| {
            effects.iter().find_map(|e| match &e.kind {
                EffectKind::Hopped { path, .. } if path.len() >= 2 => Some(path.clone()),
                _ => None,
            })
        };
        let (m, decision) = find("throngs", &[], |effects| hop(effects).is_some());
        let mut after = m.clone();
        let seat = Side::BOTH.into_iter().find(|&s| !after.legal_for(s).is_empty()).unwrap();
        let effects: Vec<_> = after.decide(seat, &decision, 0).unwrap().effects.all().cloned().collect();
        let path = hop(&effects).unwrap();
        let (from, to) = (path[0], *path.last().unwrap());
        let mut app = decided(m, &decision);
        let board = app.world().resource::<BoardState>();
        let (start, end) = (board.cell_at(from).unwrap(), board.cell_at(to).unwrap());
        let piece_on = |app: &mut App, cell| {
            let mut q = app.world_mut().query::<(&Piece, &Transform)>();
            q.iter(app.world()).find(|(p, _)| p.cell == cell).map(|(_, t)| *t)
        };
        // As the move starts the stone is drawn where it set off.
        let wave = effects.iter().find(|e| matches!(e.kind, EffectKind::Hopped { .. })).unwrap().wave;
        run_to(&mut app, wave, 0.0);
        app.update();
        let set_off = piece_on(&mut app, to).expect("the stone on its new space");
        let drawn_at = end + set_off.translation.truncate();
        assert!(
            drawn_at.distance(start) < drawn_at.distance(end),
            "the stone on {to} starts at {drawn_at} (its start {start}, its end {end})"
        );
        run_out(&mut app);
        let rest = piece_on(&mut app, to).unwrap();
        assert_eq!((rest.translation.truncate(), rest.scale), (Vec2::ZERO, Vec3::ONE), "it rests on its space");
        assert!(app.world_mut().query::<&Tween>().iter(app.world()).next().is_none());
    }

    #[test]
    fn captured_stones_fly_off_to_the_capturer_s_side_and_are_gone() {
        use stoneyard::app::testing::{BoardState, Vanishing};
        let options = [("size".to_string(), "5".to_string())];
        let captured = |effects: &[stoneyard::rules::Effect]| {
            effects.iter().any(|e| matches!(&e.kind, EffectKind::Captured { cells, .. } if cells.len() >= 2))
        };
        let (m, decision) = find("red-stone", &options, captured);
        let mut after = m.clone();
        let seat = Side::BOTH.into_iter().find(|&s| !after.legal_for(s).is_empty()).unwrap();
        let decided_effects = after.decide(seat, &decision, 0).unwrap().effects;
        let wave =
            decided_effects.all().filter(|e| matches!(e.kind, EffectKind::Captured { .. })).map(|e| e.wave).max();
        let mut app = decided(m, &decision);
        run_to(&mut app, wave.unwrap(), 0.15);
        let board = app.world().resource::<BoardState>();
        let half_width = board.tray(Side::First).unwrap().x;
        let mut q = app.world_mut().query::<(&Vanishing, &Transform)>();
        let flying: Vec<(u16, Transform)> = q.iter(app.world()).map(|(v, t)| (v.cell, *t)).collect();
        assert!(flying.len() >= 2, "{flying:?}");
        for (cell, t) in &flying {
            // Half way the prisoner is on its way right, to the trays beside the board, and smaller.
            assert!(t.translation.x > half_width * 0.05, "the stone from {cell} is at {:?}", t.translation);
            assert!(t.scale.x < 1.0 && t.scale.x > 0.4, "{:?}", t.scale);
        }
        run_out(&mut app);
        assert_eq!(app.world_mut().query::<&Vanishing>().iter(app.world()).count(), 0, "the prisoners are gone");
    }

    #[test]
    fn a_red_stone_capturing_several_groups_makes_one_capture_sound() {
        let options = [("size".to_string(), "5".to_string())];
        let groups = |effects: &[stoneyard::rules::Effect]| {
            effects.iter().filter(|e| matches!(e.kind, EffectKind::Captured { .. })).count()
        };
        let (m, decision) = find("red-stone", &options, |effects| groups(effects) >= 2);
        let app = decided(m, &decision);
        let timeline = app.world().resource::<Timeline>();
        let captures: Vec<_> = timeline.sounds.iter().filter(|s| matches!(s.cue, Cue::Capture(_))).collect();
        assert_eq!(captures.len(), 1, "{timeline:?}");
        assert!(matches!(captures[0].cue, Cue::Capture(n) if n >= 2), "{captures:?}");
    }
}

/// The app's work per decision does not grow with the game: the move list, the event log, the
/// record and the autosave are kept up one decision at a time.
mod work_per_decision {
    use super::common::headless_app;
    use bevy::ecs::schedule::SingleThreadedExecutor;
    use bevy::prelude::*;
    use stoneyard::app::testing::{CurrentMatch, DecisionChosen, EventLog, MoveList, Screen};
    use stoneyard::games::GameKind;
    use stoneyard::rules::{pick_index, plays_on_this_thread, seeded};
    use stoneyard::save::bytes_written_on_this_thread;
    use stoneyard::session::Match;

    #[test]
    fn engine_plays_per_decision_are_the_same_at_decision_10_and_3000_of_an_inchworm_game() {
        let mut app = headless_app();
        // Every system on this thread, so this thread's count of engine plays is the app's.
        app.edit_schedule(Update, |s| {
            s.set_executor(SingleThreadedExecutor::new());
        });
        app.edit_schedule(Last, |s| {
            s.set_executor(SingleThreadedExecutor::new());
        });
        // Captures never end it: the game runs as long as the test wants.
        let options = [("target".to_string(), "1000000".to_string())];
        let m = Match::open(GameKind::named("inchworm"), &options, None).unwrap();
        app.world_mut().insert_resource(CurrentMatch::of(m));
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
        app.update();
        let mut rng = seeded(30);
        let (mut plays, mut micros, mut saved) = (Vec::new(), Vec::new(), Vec::new());
        while app.world().resource::<CurrentMatch>().len() < 3_000 {
            let legal = app.world().resource::<CurrentMatch>().decisions_now();
            assert!(!legal.is_empty(), "the game stopped at {}", app.world().resource::<CurrentMatch>().len());
            let d = legal[pick_index(&mut rng, legal.len())].clone();
            let (before, started, written) =
                (plays_on_this_thread(), std::time::Instant::now(), bytes_written_on_this_thread());
            app.world_mut().write_message(DecisionChosen(d));
            app.update();
            micros.push(started.elapsed().as_micros() as u64);
            plays.push(plays_on_this_thread() - before);
            saved.push(bytes_written_on_this_thread() - written);
        }
        let n = app.world().resource::<CurrentMatch>().len();
        assert_eq!(app.world().resource::<MoveList>().decisions, n, "the move list keeps up");
        assert!(app.world().resource::<EventLog>().lines.iter().all(|(d, _)| *d <= n));
        let window = |v: &[u64], from: usize| v[from..from + 100].iter().sum::<u64>() as f64 / 100.0;
        let (early, late) = (window(&plays, 0), window(&plays, plays.len() - 100));
        eprintln!(
            "engine plays per decision: {early:.2} (decisions 1-100), {late:.2} (decisions {}-{}); \
             microseconds per decision (debug build): {:.0} and {:.0}",
            plays.len() - 99,
            plays.len(),
            window(&micros, 0),
            window(&micros, micros.len() - 100),
        );
        assert!(late <= early + 1.0, "the work per decision grew from {early} to {late} engine plays");
        // The autosave adds a line for the decision (its notation and time) and one for when it
        // was played: some bytes more at decision 3,000 for the longer times, not the record.
        let (saved_early, saved_late) = (window(&saved, 10), window(&saved, saved.len() - 100));
        eprintln!(
            "bytes the autosave writes per decision: {saved_early:.1} (decisions 11-110), {saved_late:.1} (the last 100)"
        );
        assert!(saved_early > 20.0, "the autosave wrote {saved_early} bytes a decision");
        assert!(saved_late <= saved_early + 8.0, "the autosave's writes grew from {saved_early} to {saved_late} bytes");
        // About one of them is the move list saying the new move in words (its decisions played
        // again from the position before them, for their effects).
        assert!(early <= 5.0, "{early} engine plays per decision");
    }
}

/// What a newcomer playtest found (#41): Gravel's danger marks and the warning before a losing end
/// of turn, "End turn" on one key, finished games kept in a history, Hidden Intention's names.
mod newcomer {
    use super::common::{headless_app, press, screen};
    use bevy::prelude::*;
    use stoneyard::ai::Level;
    use stoneyard::app::testing::Action::*;
    use stoneyard::app::testing::{
        BoardState, CurrentMatch, DecisionChosen, FinishedGames, MatchCommand, Replay, SaveStore, Screen, TurnWarning,
    };
    use stoneyard::games::GameKind;
    use stoneyard::rules::{HintMark, Side, Tone};

    /// A default Gravel game on the board, the person Light against the computer.
    fn gravel_against_the_computer() -> App {
        let mut app = headless_app();
        let kind = GameKind::named("gravel");
        let mut current = CurrentMatch::new(kind.open(&[], None).unwrap());
        current.players = [None, Some(Level::Easy)];
        app.world_mut().insert_resource(current);
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
        app.update();
        app
    }

    fn decide(app: &mut App, decision: &str) {
        app.world_mut().write_message(DecisionChosen(decision.to_string()));
        app.update();
    }

    fn danger_marks(app: &App) -> Vec<String> {
        let view = app.world().resource::<BoardState>().view.clone().expect("a board");
        view.cells.iter().filter(|c| c.marks.hint == Some(HintMark::Threatened)).map(|c| c.name.clone()).collect()
    }

    fn len(app: &App) -> usize {
        app.world().resource::<CurrentMatch>().len()
    }

    #[test]
    fn a_lone_gravel_stack_is_marked_and_ending_the_turn_warns_until_confirmed() {
        let mut app = gravel_against_the_computer();
        assert!(danger_marks(&app).is_empty(), "nothing of Light's is on the board yet");
        decide(&mut app, "+d4");
        decide(&mut app, "+d4");
        assert_eq!(danger_marks(&app), ["d4"], "Dark could remove the stack on d4 next turn");
        // One key ends the turn; this end would let Dark win at once, so it waits for a word.
        press(&mut app, &[Confirm]);
        let warning = app.world().resource::<TurnWarning>().pending.clone().expect("a warning");
        assert_eq!(warning.0, "end");
        assert!(warning.1.text.contains("d4") && warning.1.text.starts_with("If you end your turn now"));
        assert_eq!(len(&app), 2, "the turn has not ended");
        // Esc keeps playing; undo takes an action back; the warning came and went with no end.
        press(&mut app, &[Back]);
        assert_eq!(app.world().resource::<TurnWarning>().pending, None);
        assert_eq!(len(&app), 2);
        press(&mut app, &[Undo]);
        assert_eq!(len(&app), 1, "the second piece is taken back");
        // The same stack again, and this time the player ends the turn anyway.
        decide(&mut app, "+d4");
        press(&mut app, &[Confirm]);
        assert!(app.world().resource::<TurnWarning>().pending.is_some());
        press(&mut app, &[Confirm]);
        let current = app.world().resource::<CurrentMatch>();
        assert_eq!(current.history()[..3], ["+d4", "+d4", "end"], "confirmed, the turn ended");
        assert_eq!(app.world().resource::<TurnWarning>().pending, None);
    }

    #[test]
    fn a_safe_turn_that_spends_every_action_still_ends_by_itself() {
        let mut app = gravel_against_the_computer();
        // A 2×2 block: each piece can be taken, but no Dark turn wins at once (tests/rules_gravel.rs).
        for d in ["+d4", "+d5", "+e4", "+e5"] {
            decide(&mut app, d);
        }
        app.update(); // the end, played for the player
        let mut marked = danger_marks(&app);
        marked.sort();
        assert_eq!(marked, ["d4", "d5", "e4", "e5"], "the person's pieces, marked while the computer is to act");
        let current = app.world().resource::<CurrentMatch>();
        assert_eq!(current.history().get(4).map(String::as_str), Some("end"), "{:?}", current.history());
        assert_eq!(app.world().resource::<TurnWarning>().pending, None, "a safe end is not warned about");
    }

    #[test]
    fn a_safe_turn_with_actions_left_ends_on_one_key_and_the_computer_never_gets_warned() {
        let mut app = gravel_against_the_computer();
        decide(&mut app, "+d4");
        decide(&mut app, "+d5");
        let before = len(&app);
        assert!(app.world().resource::<CurrentMatch>().position().warning_before("end").is_none());
        press(&mut app, &[Confirm]);
        let current = app.world().resource::<CurrentMatch>();
        assert_eq!(current.history().get(before).map(String::as_str), Some("end"), "{:?}", current.history());
        // The computer (Dark) plays its whole turn without a warning held back for it.
        for _ in 0..200 {
            app.update();
        }
        let current = app.world().resource::<CurrentMatch>();
        assert_eq!(current.acting_side(), Some(Side::First), "the computer played and ended its turn");
        assert_eq!(app.world().resource::<TurnWarning>().pending, None);
    }

    #[test]
    fn a_finished_game_is_kept_in_the_history_and_opens_in_the_replay() {
        let mut app = gravel_against_the_computer();
        decide(&mut app, "+d4");
        app.world_mut().write_message(MatchCommand::Resign(Side::First));
        app.update();
        app.update();
        assert!(app.world().resource::<CurrentMatch>().is_over());
        let (kept, problems) = stoneyard::save::list_finished(&app.world().resource::<SaveStore>().0).unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(kept.len(), 1, "a resigned game is finished and kept");
        assert!(kept[0].result.starts_with("Dark wins"), "{}", kept[0].result);
        // Title → Saved games → Finished games, by keys: the game is listed and opens in the replay.
        press(&mut app, &[Back]);
        assert_eq!(screen(&app), Screen::Title);
        // No game is in progress (no Continue): the games, Learn, Play online, then Saved games.
        let mut keys = vec![Down; 2 + GameKind::all().count()];
        keys.push(Select);
        press(&mut app, &keys);
        assert_eq!(screen(&app), Screen::Saves);
        press(&mut app, &[Down, Select]);
        assert_eq!(screen(&app), Screen::History);
        assert_eq!(app.world().resource::<FinishedGames>().games.len(), 1);
        press(&mut app, &[Select]);
        assert_eq!(screen(&app), Screen::Playing);
        assert!(app.world().resource::<Replay>().active);
        let current = app.world().resource::<CurrentMatch>();
        assert_eq!(current.len() + current.redo_len(), 1, "its one decision");
        assert!(current.is_over(), "opened at its end: Light resigned");
        // Deleted from the list with a second press: the history is empty again.
        press(&mut app, &[Back]);
        // No game is in progress (no Continue): the games, Learn, Play online, then Saved games.
        let mut keys = vec![Down; 2 + GameKind::all().count()];
        keys.push(Select);
        press(&mut app, &keys);
        press(&mut app, &[Down, Select]);
        press(&mut app, &[CycleOption, Select]);
        assert!(app.world().resource::<FinishedGames>().games.is_empty());
        assert!(stoneyard::save::list_finished(&app.world().resource::<SaveStore>().0).unwrap().0.is_empty());
    }

    #[test]
    fn hidden_intentions_sides_are_named_and_coloured_as_its_record_tags_them() {
        let kind = GameKind::named("hidden-intention");
        // Spec §1: A is White with the light figures, B Black with the dark; the record's tags agree.
        assert_eq!(kind.side_name(Side::First), "White");
        assert_eq!(kind.tone(Side::First), Tone::Light);
        assert_eq!(kind.side_name(Side::Second), "Black");
        assert_eq!(kind.tone(Side::Second), Tone::Dark);
        // The person plays A (White) against the computer: the tags name them so.
        let mut current = CurrentMatch::new(kind.open(&[], None).unwrap());
        current.players = [None, Some(Level::Easy)];
        let text = current.record().to_spec_text().unwrap();
        assert!(text.lines().any(|l| l == "[White \"Human\"]"), "{text}");
        assert!(text.lines().any(|l| l.starts_with("[Black \"Computer")), "{text}");
    }
}

mod lessons_by_actions {
    use super::common::{headless_app, press, screen};
    use super::every_game_by_actions::play_by_keys;
    use bevy::prelude::*;
    use stoneyard::ai::Level;
    use stoneyard::app::testing::Action::*;
    use stoneyard::app::testing::{
        Answer, CurrentMatch, CurrentSettings, LearnChoice, LessonBooks, LessonRun, PracticeBooks, PracticeRun, Screen,
        Secrecy, as_newcomer,
    };
    use stoneyard::games::GameKind;
    use stoneyard::lessons::Standing;

    /// From the title, by presses: Learn, the game, the lesson with this id.
    fn open_lesson(app: &mut App, kind: GameKind, id: &str) {
        let learn = GameKind::all().count();
        let mut keys = vec![Down; learn];
        keys.push(Select);
        press(app, &keys);
        assert_eq!(screen(app), Screen::Learn);
        let game = GameKind::all().position(|k| k == kind).unwrap();
        let mut keys = vec![Down; game];
        keys.push(Select);
        press(app, &keys);
        let book = app.world().resource::<LessonBooks>().book(kind).cloned().expect("the book is read");
        let index = book.lessons.iter().position(|l| l.id == id).unwrap_or_else(|| panic!("no lesson {id}"));
        let mut keys = vec![Down; index];
        keys.push(Select);
        press(app, &keys);
        assert_eq!(screen(app), Screen::Playing, "{kind} {id}");
        let run = app.world().resource::<LessonRun>();
        assert_eq!((run.game, run.lesson.id.as_str(), run.standing.clone()), (kind, id, Standing::OnTheWay));
    }

    fn run(app: &App) -> LessonRun {
        app.world().resource::<LessonRun>().clone()
    }

    /// Plays the learner's decisions of the lesson's first solution by presses; the script plays
    /// the rest by itself (after its pause, frame by frame).
    fn follow_the_lesson(app: &mut App) {
        for _ in 0..40 {
            let lesson = run(app);
            if lesson.standing == Standing::Solved {
                return;
            }
            assert_eq!(lesson.standing, Standing::OnTheWay, "{}", lesson.lesson.id);
            // A lesson has one learner: the board never hides behind a hand-over screen.
            assert_eq!(app.world().resource::<Secrecy>().handover, None, "{}", lesson.lesson.id);
            let m = app.world().resource::<CurrentMatch>();
            let next = lesson.plan.lines[0][m.len()].clone();
            if m.acting_side().is_some_and(|side| m.person_plays(side)) {
                play_by_keys(app, &next);
            } else {
                let before = m.len();
                for _ in 0..60 {
                    app.update();
                }
                let m = app.world().resource::<CurrentMatch>();
                assert_eq!(m.history().get(before), Some(&next), "the script did not reply with {next}");
            }
        }
        panic!("the lesson {} was not solved", run(app).lesson.id);
    }

    #[test]
    fn one_lesson_of_each_game_is_solved_by_presses_and_ticked() {
        for (kind, id) in [
            (GameKind::named("gravel"), "control"),
            (GameKind::named("red-stone"), "atari-then-capture"),
            (GameKind::named("throngs"), "travel"),
            (GameKind::named("inchworm"), "collect"),
            (GameKind::named("hidden-intention"), "burn"),
        ] {
            let mut app = headless_app();
            open_lesson(&mut app, kind, id);
            follow_the_lesson(&mut app);
            let done = &app.world().resource::<CurrentSettings>().0.lessons_done;
            assert!(done.get(kind.slug()).is_some_and(|ids| ids.contains(id)), "{kind} {id}: {done:?}");
            // E goes on to the book's next lesson.
            press(&mut app, &[Confirm]);
            let next = run(&app);
            assert_ne!(next.lesson.id, id, "{kind}");
            assert!(app.world().resource::<CurrentMatch>().is_empty());
            // Esc leaves for the game's list of lessons (the board's press is the lesson's command
            // a frame later, the screen's change one more).
            press(&mut app, &[Back]);
            app.update();
            assert_eq!(screen(&app), Screen::Learn, "{kind}");
            assert_eq!(app.world().resource::<LearnChoice>().game, Some(kind));
            assert!(app.world().get_resource::<LessonRun>().is_none());
        }
    }

    #[test]
    fn a_wrong_move_is_played_explained_and_retried() {
        let mut app = headless_app();
        let gravel = GameKind::named("gravel");
        open_lesson(&mut app, gravel, "control");
        let first_match = app.world().resource::<CurrentMatch>().session.version().0;
        let wrong = run(&app).plan.wrong[0].clone();
        for (i, decision) in wrong.decisions.iter().enumerate() {
            // The turn's end follows by itself once no action is left.
            if app.world().resource::<CurrentMatch>().len() == i {
                play_by_keys(&mut app, decision);
            }
        }
        // Played with its real effects: two dark pieces left c3, one is still there.
        let m = app.world().resource::<CurrentMatch>();
        assert_eq!(m.history(), wrong.decisions);
        let view = m.position().board_view();
        let c3 = view.cells.iter().find(|c| c.name == "c3").unwrap();
        assert_eq!(c3.piece.map(|p| p.owner), Some(Some(stoneyard::rules::Side::Second)), "{c3:?}");
        let dark_lost =
            view.counters.iter().find(|c| c.side == Some(stoneyard::rules::Side::Second) && c.label == "lost");
        assert_eq!(dark_lost.map(|c| c.value.as_str()), Some("2"), "{:?}", view.counters);
        assert_eq!(run(&app).standing, Standing::Wrong(wrong.why.clone()));
        // Retry (E) starts the lesson again: a new match from the lesson's position.
        press(&mut app, &[Confirm]);
        let m = app.world().resource::<CurrentMatch>();
        assert!(m.is_empty());
        assert_ne!(m.session.version().0, first_match);
        assert_eq!(run(&app).standing, Standing::OnTheWay);
        assert!(!app.world().resource::<CurrentSettings>().0.lessons_done.contains_key("gravel"));
    }

    #[test]
    fn a_move_off_the_lesson_s_way_can_be_taken_back_and_hints_come_one_by_one() {
        let mut app = headless_app();
        open_lesson(&mut app, GameKind::named("gravel"), "control");
        // Q: the lesson's hint (not the computer's), then the next decision of its way.
        press(&mut app, &[Suggest]);
        assert_eq!(run(&app).hints_shown, 1);
        press(&mut app, &[Suggest]);
        let lesson = run(&app);
        assert_eq!(lesson.way_shown(&[]), Some(lesson.plan.lines[0][0].as_str()));
        play_by_keys(&mut app, "+b1");
        assert_eq!(run(&app).standing, Standing::Astray);
        press(&mut app, &[Undo]);
        assert!(app.world().resource::<CurrentMatch>().is_empty());
        assert_eq!(run(&app).standing, Standing::OnTheWay);
    }

    #[test]
    fn a_sealed_commitment_off_the_lesson_s_way_is_taken_back() {
        let mut app = headless_app();
        open_lesson(&mut app, GameKind::named("hidden-intention"), "burn");
        let lesson = run(&app);
        let legal = app.world().resource::<CurrentMatch>().session.legal_for(lesson.learner);
        let off = legal.into_iter().find(|d| lesson.plan.lines.iter().all(|line| line[0] != *d)).unwrap();
        play_by_keys(&mut app, &off);
        for _ in 0..60 {
            app.update();
        }
        assert_eq!(run(&app).standing, Standing::Astray);
        assert_eq!(app.world().resource::<Secrecy>().handover, None);
        // The script does not answer a commitment off its way: Undo takes the learner's back.
        press(&mut app, &[Undo]);
        assert!(app.world().resource::<CurrentMatch>().is_empty());
        assert_eq!(run(&app).standing, Standing::OnTheWay);
    }

    #[test]
    fn the_last_lesson_ends_with_a_game_against_the_easy_computer() {
        let mut app = headless_app();
        let gravel = GameKind::named("gravel");
        let last = app.world_mut().resource_mut::<LessonBooks>().0.len();
        assert_eq!(last, 0, "no book is read before it is wanted");
        open_lesson(&mut app, gravel, "chain");
        assert!(run(&app).is_last());
        follow_the_lesson(&mut app);
        press(&mut app, &[Confirm]);
        assert_eq!(screen(&app), Screen::Playing);
        assert!(app.world().get_resource::<LessonRun>().is_none());
        let m = app.world().resource::<CurrentMatch>();
        assert_eq!(m.players, [None, Some(Level::Easy)]);
        assert_eq!(m.scripted, None);
        assert!(m.is_empty());
    }

    #[test]
    fn a_newcomer_is_offered_a_game_s_lessons_on_first_choosing_it() {
        let mut app = headless_app();
        as_newcomer(&mut app);
        // The first game on the title: its setup opens with the focus on its lessons.
        press(&mut app, &[Select]);
        assert_eq!(screen(&app), Screen::Setup);
        press(&mut app, &[Select]);
        assert_eq!(screen(&app), Screen::Learn);
        let first = GameKind::all().next().unwrap();
        assert_eq!(*app.world().resource::<LearnChoice>(), LearnChoice { game: Some(first), from_setup: true });
        assert!(app.world().resource::<CurrentSettings>().0.lessons_offered.contains(first.slug()));
        // Back returns to the setup, now with the focus on its first row: the offer was made once.
        press(&mut app, &[Back]);
        assert_eq!(screen(&app), Screen::Setup);
        assert_eq!(app.world().resource::<stoneyard::app::testing::MenuFocus>().0, 0);
    }

    /// From the title, by presses: Learn, the game, its Practice row (after its lessons).
    fn open_practice(app: &mut App, kind: GameKind) {
        let mut keys = vec![Down; GameKind::all().count()];
        keys.push(Select);
        press(app, &keys);
        let mut keys = vec![Down; GameKind::all().position(|k| k == kind).unwrap()];
        keys.push(Select);
        press(app, &keys);
        let lessons = app.world().resource::<LessonBooks>().book(kind).expect("the lessons").lessons.len();
        let mut keys = vec![Down; lessons];
        keys.push(Select);
        press(app, &keys);
        assert_eq!(screen(app), Screen::Playing, "{kind}");
    }

    fn practice(app: &App) -> PracticeRun {
        app.world().resource::<PracticeRun>().clone()
    }

    #[test]
    fn a_practice_position_is_answered_right_then_wrong_and_the_streak_follows() {
        let mut app = headless_app();
        let red_stone = GameKind::named("red-stone");
        open_practice(&mut app, red_stone);
        let first = practice(&app);
        assert_eq!((first.index, first.answer.clone()), (0, Answer::Thinking));
        let book = app.world().resource::<PracticeBooks>().book(red_stone).cloned().unwrap();
        assert_eq!(first.practice, book.positions[0]);
        for decision in first.practice.solution.clone() {
            play_by_keys(&mut app, &decision);
        }
        assert_eq!(practice(&app).answer, Answer::Right);
        let settings = app.world().resource::<CurrentSettings>().0.clone();
        assert_eq!(settings.practice_streak.get("red-stone"), Some(&1));
        assert!(settings.practice_done["red-stone"].contains(&first.practice.id));
        // The computer answers the learner's turn on the board.
        let learner_made = app.world().resource::<CurrentMatch>().len();
        for _ in 0..30 {
            app.update();
        }
        assert!(app.world().resource::<CurrentMatch>().len() > learner_made, "the computer's answer");
        // E: the next position; a turn other than its solution is wrong and ends the streak.
        press(&mut app, &[Confirm]);
        let second = practice(&app);
        assert_eq!((second.index, second.answer.clone()), (1, Answer::Thinking));
        let m = app.world().resource::<CurrentMatch>();
        assert!(m.is_empty());
        let other = m.decisions_now().into_iter().find(|d| !second.practice.solution.contains(d)).unwrap();
        play_by_keys(&mut app, &other);
        assert_eq!(practice(&app).answer, Answer::Wrong);
        let settings = &app.world().resource::<CurrentSettings>().0;
        assert_eq!(
            (settings.practice_streak.get("red-stone"), settings.practice_best.get("red-stone")),
            (Some(&0), Some(&1))
        );
        // Esc: back to the game's lessons and practice.
        press(&mut app, &[Back]);
        app.update();
        assert_eq!(screen(&app), Screen::Learn);
        assert!(app.world().get_resource::<PracticeRun>().is_none());
    }

    /// Frames until the board waits for `learner`'s decisions (the computer seals first).
    fn wait_for_the_learner(app: &mut App, learner: stoneyard::rules::Side) {
        for _ in 0..300 {
            if app.world().resource::<CurrentMatch>().acting_side() == Some(learner) {
                return;
            }
            app.update();
        }
        panic!("the board never waited for {learner:?}");
    }

    #[test]
    fn a_secret_commitment_is_judged_once_sealed_whatever_the_computer_commits() {
        let mut app = headless_app();
        let hidden = GameKind::named("hidden-intention");
        open_practice(&mut app, hidden);
        let first = practice(&app);
        let learner = first.practice.learner.expect("Hidden Intention's practice names its learner");
        wait_for_the_learner(&mut app, learner);
        let (last, begun) = first.practice.solution.split_last().unwrap();
        for decision in begun {
            play_by_keys(&mut app, decision);
            assert_eq!(practice(&app).answer, Answer::Thinking, "judged before the commitment is sealed");
        }
        play_by_keys(&mut app, last);
        assert_eq!(practice(&app).answer, Answer::Right);
        assert_eq!(app.world().resource::<CurrentSettings>().0.practice_streak.get("hidden-intention"), Some(&1));
        // The computer commits for the other side and the attempt is revealed on the board.
        for _ in 0..60 {
            app.update();
        }
        let m = app.world().resource::<CurrentMatch>();
        assert!((0..m.len()).any(|i| m.maker(i) == Some(learner.opponent())), "the computer's commitment");
        // The next position, answered by another commitment: wrong.
        press(&mut app, &[Confirm]);
        let second = practice(&app);
        assert_eq!((second.index, second.answer.clone()), (1, Answer::Thinking));
        let side = second.practice.learner.unwrap();
        wait_for_the_learner(&mut app, side);
        let mut own = app.world().resource::<CurrentMatch>().start().clone_box();
        let mut made = Vec::new();
        while !own.legal_decisions(side).is_empty() {
            let legal = own.legal_decisions(side);
            let off_the_solution = legal.iter().find(|d| second.practice.solution.get(made.len()) != Some(*d));
            let decision = off_the_solution.unwrap_or(&legal[0]).clone();
            own.play_decision(&decision).unwrap();
            play_by_keys(&mut app, &decision);
            made.push(decision);
        }
        assert_ne!(made, second.practice.solution);
        assert_eq!(practice(&app).answer, Answer::Wrong);
    }
}

mod reviews {
    use bevy::prelude::*;
    use stoneyard::ai::review::Label;
    use stoneyard::app::testing::{AnalysisBoard, CurrentMatch, Replay, ReviewCommand, ReviewShown};

    /// Red Stone's spec record (5×5), White's last placement handing Black a red stone that
    /// captures everything, opened in the replay at its last move.
    fn replay_of_the_spec_game() -> App {
        stoneyard::app::testing::replay_of_the_red_stone_spec_game()
    }

    fn frames_until(app: &mut App, done: impl Fn(&App) -> bool) -> bool {
        for _ in 0..300 {
            if done(app) {
                return true;
            }
            app.update();
        }
        false
    }

    fn review_complete(app: &App) -> bool {
        app.world().resource::<ReviewShown>().review.as_ref().is_some_and(|r| r.is_complete())
    }

    #[test]
    fn a_review_fills_in_marks_the_blunder_and_reopens_without_thinking() {
        let mut app = replay_of_the_spec_game();
        app.world_mut().write_message(ReviewCommand::Start);
        app.update();
        let progress = app.world().resource::<ReviewShown>().review.as_ref().map(|r| r.progress());
        assert!(progress.is_some_and(|(done, total)| done < total), "it fills in as it goes: {progress:?}");
        assert!(frames_until(&mut app, review_complete), "the review completes");
        let shown = app.world().resource::<ReviewShown>().clone();
        assert!(!shown.reloaded);
        let review = shown.review.unwrap();
        let blunder = review.turns.iter().position(|t| t.text == "A5").unwrap();
        assert_eq!(review.judgement(blunder).unwrap().label, Label::Blunder);
        // Put away and asked for again: read back from the store, nothing left to think about.
        app.world_mut().write_message(ReviewCommand::Close);
        app.update();
        assert!(app.world().resource::<ReviewShown>().review.is_none());
        app.world_mut().write_message(ReviewCommand::Start);
        app.update();
        let again = app.world().resource::<ReviewShown>().clone();
        assert!(again.reloaded, "the finished review was kept with the game");
        assert_eq!(again.review.as_ref(), Some(&review));
    }

    #[test]
    fn the_analysis_board_plays_a_variation_and_gives_the_game_back_unchanged() {
        let mut app = replay_of_the_spec_game();
        let record = app.world().resource::<CurrentMatch>().record();
        app.world_mut().write_message(stoneyard::app::testing::ReplayStep::To(4));
        app.update();
        app.update();
        assert_eq!(app.world().resource::<CurrentMatch>().len(), 4);
        app.world_mut().write_message(ReviewCommand::Analyse);
        app.update();
        assert!(app.world().resource::<AnalysisBoard>().active);
        assert!(!app.world().resource::<Replay>().active, "the variation's moves are the player's");
        assert!(
            frames_until(&mut app, |app| app.world().resource::<AnalysisBoard>().at(4).is_some()),
            "the computer analyses the position"
        );
        // Another move than the game's (B1): the computer looks at the new position.
        app.world_mut().resource_mut::<CurrentMatch>().decide("C4").unwrap();
        assert!(frames_until(&mut app, |app| app.world().resource::<AnalysisBoard>().at(5).is_some()));
        assert_eq!(app.world().resource::<CurrentMatch>().history()[4], "C4");
        app.world_mut().write_message(ReviewCommand::BackToGame);
        app.update();
        assert!(!app.world().resource::<AnalysisBoard>().active);
        let back = app.world().resource::<CurrentMatch>();
        let whole: Vec<String> =
            back.history().into_iter().chain(back.session.redo_decisions().map(str::to_string)).collect();
        let recorded: Vec<String> = record.moves.iter().map(|m| m.decision.clone()).collect();
        assert_eq!(whole, recorded, "the game's own record is untouched");
        assert_eq!(back.len(), 4, "back where the analysis started");
        assert!(app.world().resource::<Replay>().active);
    }
}
