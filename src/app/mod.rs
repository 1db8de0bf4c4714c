//! The Bevy game: window, menus, board, input, sound. The rules live in `crate::games`; this layer
//! only presents them and turns player input into their moves.
//!
//! # Shape
//!
//! This root owns the global ordering ([`AppSystems`]) and wires every plugin. Below it are two
//! kinds of module:
//!
//! - **Vocabulary** that features share, with no systems of their own beyond keeping themselves
//!   up to date: `screen` (which screen shows), `settings` (the player's settings and the store),
//!   `input` (actions and key bindings), `match_state` (the game being played), `playing` (the
//!   messages and state the playing screen's features exchange), `ui` (egui widgets and menu
//!   focus), `page_spinner` (the busy spinner, drawn by the page in the browser), `frame_pacing`
//!   (in the browser, frames wait for the renderer; it says when the renderer lags and how long
//!   it took over each frame), `render_scale` (in the browser, a renderer too slow for every
//!   pixel draws fewer), `labels`
//!   (decisions and spaces in words), `theme` (colours), `lesson_state` (the lessons' books, the
//!   lesson on the board and the commands about lessons).
//! - **Features**, each one plugin that joins the root's sets and talks to the others only
//!   through the vocabulary: `menus`, `turn` (ordered rule resolution), `board`, `hud`,
//!   `computer`, `replay`, `handover` (hot-seat secrecy), `autosave`, `online` (playing over
//!   the network), `lesson` (lessons read and played against their script), `audio`, `fonts`,
//!   `third_party`. No feature imports another, except that the
//!   online screen reuses the setup screen's option rows (`menus::SetupChoice`).
//!
//! Tests and benchmarks drive the app through [`testing`], the one public module.

mod audio;
mod autosave;
mod board;
#[cfg(target_arch = "wasm32")]
mod browser_engine;
mod computer;
mod fonts;
mod frame_pacing;
mod handover;
mod hud;
mod input;
mod labels;
mod lesson;
mod lesson_state;
mod match_state;
mod menus;
mod online;
mod page_spinner;
mod playing;
mod render_scale;
mod replay;
mod review_state;
mod screen;
mod settings;
pub mod testing;
mod theme;
mod third_party;
mod timeline;
mod turn;
mod ui;
#[cfg(target_arch = "wasm32")]
mod web_files;

#[cfg(not(target_arch = "wasm32"))]
use crate::cli::PlayArgs;
use crate::games::GameKind;
use bevy::prelude::*;
use screen::Screen;
use std::process::ExitCode;

/// How the window opens: the title screen, or straight into a game's setup.
#[derive(Clone, Debug, Default, Resource)]
pub struct Launch {
    pub game: Option<GameKind>,
    pub options: Vec<(String, String)>,
    /// The computer's level when playing against it (it takes the second side).
    pub opponent: Option<crate::ai::Level>,
    /// A game record to open in the replay (`--load FILE`).
    pub load: Option<crate::save::GameRecord>,
    /// Quit once the title screen has been drawn (start-up measurement).
    pub quit_after_title: bool,
    /// The online game server's socket address for this run (over the settings' one).
    pub server: Option<String>,
}

impl Launch {
    /// From `stoneyard play …`; refuses what this build cannot honour yet.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn from_args(args: &PlayArgs) -> Result<Launch, String> {
        let opponent = match args.vs.as_str() {
            "human" => None,
            "easy" => Some(crate::ai::Level::Easy),
            "medium" => Some(crate::ai::Level::Medium),
            "hard" => Some(crate::ai::Level::Hard),
            other => return Err(format!("--vs {other}: the opponent is one of human, easy, medium, hard")),
        };
        let load = match &args.load {
            // Any form of record, checked against the game and options named beside it.
            Some(path) => {
                Some(crate::save::read_record_file(path, args.game, &args.options).map_err(|e| format!("--load {e}"))?)
            }
            None => None,
        };
        Ok(Launch {
            game: args.game,
            options: args.options.clone(),
            opponent,
            load,
            quit_after_title: args.quit_after_title,
            server: match &args.server {
                Some(typed) => Some(online::address::complete_server(typed).map_err(|e| format!("--server: {e}"))?),
                None => None,
            },
        })
    }
}

/// The global order of our `Update` systems, one frame from input to presentation. Features join
/// a set; only this file orders them. When adding a variant, place it in `configure_sets` below.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSystems {
    /// Raw input becomes `ActionPressed` messages.
    RecordInput,
    /// Menu screens react to actions and change state.
    Menus,
    /// A new match asked for (`NewMatch`) takes the board.
    NewMatch,
    /// The playing screen turns actions, clicks, drags, the computer and the replay controls into
    /// at most one `DecisionChosen` a frame.
    Choose,
    /// The chosen decision is checked against the legal ones of the acting side.
    Intent,
    /// Rules phase 1: the decision itself (`Rules::place`).
    Place,
    /// Rules phase 2: what the placement captured.
    CaptureSweep,
    /// Rules phase 3: later rounds of removals.
    Cascade,
    /// Rules phase 4: the end of the game and whose decision is next.
    EndCheck,
    /// Board entities follow the position.
    Project,
    /// Animation, sound, panels' state.
    Present,
}

/// Everything but rendering, windowing, sound and the input devices: states, messages, menu logic,
/// settings, the board's entities. The headless tests run exactly this on `MinimalPlugins`.
pub fn core_plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (
            AppSystems::RecordInput,
            AppSystems::Menus,
            AppSystems::NewMatch,
            AppSystems::Choose,
            AppSystems::Intent,
            AppSystems::Place,
            AppSystems::CaptureSweep,
            AppSystems::Cascade,
            AppSystems::EndCheck,
            AppSystems::Project,
            AppSystems::Present,
        )
            .chain(),
    );
    // The playing screen's steps run only while a game is on the board.
    app.configure_sets(
        Update,
        (
            AppSystems::Choose,
            AppSystems::Intent,
            AppSystems::Place,
            AppSystems::CaptureSweep,
            AppSystems::Cascade,
            AppSystems::EndCheck,
            AppSystems::Project,
            AppSystems::Present,
        )
            .run_if(in_state(Screen::Playing).and_then(resource_exists::<match_state::CurrentMatch>)),
    );
    // Vocabulary first: the resources and messages every feature may read.
    app.add_plugins((
        screen::plugin,
        settings::plugin,
        input::plugin,
        playing::plugin,
        timeline::plugin,
        lesson_state::plugin,
        review_state::plugin,
        ui::plugin,
        page_spinner::plugin,
    ));
    app.add_plugins((
        menus::plugin,
        turn::plugin,
        board::plugin,
        hud::plugin,
        fonts::plugin,
        autosave::plugin,
        handover::plugin,
        computer::plugin,
        replay::plugin,
        online::plugin,
    ));
    app.add_plugins(lesson::plugin);
    app.add_systems(Update, drop_stale_input.run_if(state_changed::<Screen>).before(AppSystems::RecordInput));
}

/// Presses made for the screen that just closed must not act on the new one: a screen's input
/// system that did not run while it was closed would otherwise read them late.
fn drop_stale_input(
    mut actions: ResMut<Messages<input::ActionPressed>>,
    mut clicks: ResMut<Messages<ui::MenuClicked>>,
    (mut cells, mut drags): (ResMut<Messages<playing::CellChosen>>, ResMut<Messages<playing::DragChosen>>),
) {
    actions.clear();
    clicks.clear();
    cells.clear();
    drags.clear();
}

/// The full game: default plugins with our window, the third-party plugins, presentation.
pub fn app_plugin(app: &mut App) {
    // In the browser, the same plugins without Bevy's log filter (`browser_engine`).
    #[cfg(not(target_arch = "wasm32"))]
    let engine = DefaultPlugins;
    #[cfg(target_arch = "wasm32")]
    let engine = browser_engine::BrowserPlugins;
    app.add_plugins(
        engine
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "Stoneyard".into(),
                    // The browser page provides this canvas (web/index.html); native ignores it.
                    canvas: Some("#bevy".into()),
                    fit_canvas_to_parent: true,
                    prevent_default_event_handling: true,
                    ..default()
                }),
                ..default()
            })
            .set(AssetPlugin { meta_check: bevy::asset::AssetMetaCheck::Never, ..default() }),
    );
    app.add_plugins((
        third_party::plugin,
        input::devices_plugin,
        audio::plugin,
        core_plugin,
        theme::plugin,
        frame_pacing::plugin,
        render_scale::plugin,
    ));
    app.add_systems(Startup, spawn_camera);
    app.add_systems(Last, quit_after_title.run_if(|l: Option<Res<Launch>>| l.is_some_and(|l| l.quit_after_title)));
}

/// When the process started (for the start-up measurement).
static STARTED: std::sync::OnceLock<web_time::Instant> = std::sync::OnceLock::new();

/// Quits a few frames after the title screen is up: by then its first frame has been presented.
fn quit_after_title(screen: Res<State<Screen>>, mut frames: Local<u32>, mut exit: MessageWriter<AppExit>) {
    if *screen.get() != Screen::Title {
        return;
    }
    *frames += 1;
    if *frames == 3 {
        let seconds = STARTED.get().map(|t| t.elapsed().as_secs_f64()).unwrap_or(0.0);
        println!("{{\"startup_to_title_s\":{seconds:.3}}}");
        exit.write(AppExit::Success);
    }
}

fn spawn_camera(mut commands: Commands) {
    // In the browser, WebGL2's 4× multisampling costs a multisampled target and a resolve every
    // frame: it halved the frame rate under Chromium's software renderer, and a phone's dense
    // screen shows no jagged edges without it (stones and marks are drawn with soft edges).
    let msaa = if cfg!(target_arch = "wasm32") { Msaa::Off } else { Msaa::default() };
    commands.spawn((Name::new("Camera"), Camera2d, msaa));
}

/// Opens the window and runs until the player quits.
pub fn run(launch: Launch) -> ExitCode {
    STARTED.get_or_init(web_time::Instant::now);
    #[cfg(all(unix, not(target_os = "macos"), not(target_arch = "wasm32")))]
    if ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"].iter().all(|v| std::env::var_os(v).is_none()) {
        eprintln!("stoneyard: no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset).");
        eprintln!("Run it from a desktop session; the command-line tools (stoneyard --help) need none.");
        return ExitCode::FAILURE;
    }
    let mut app = App::new();
    let measuring = launch.quit_after_title;
    app.insert_resource(launch);
    app.add_plugins(app_plugin);
    if measuring {
        // The start-up measurement counts frames: an idle title would wait for the reactive
        // timeout between them.
        app.insert_resource(bevy::winit::WinitSettings::continuous());
    }
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
