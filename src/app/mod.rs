//! The Bevy game: window, menus, input, sound. The rules live in `crate::games`; this layer only
//! presents them and turns player input into their moves.

pub mod ai_player;
mod audio;
pub mod board;
mod fonts;
pub mod hud;
pub mod input;
pub mod key_bindings;
pub mod labels;
pub mod match_state;
pub mod menus;
#[cfg(target_arch = "wasm32")]
mod page_mirror;
pub mod record_export;
pub mod replay;
pub mod rules_help;
mod rules_window;
pub mod save_io;
pub mod screen;
pub mod secrecy;
pub mod settings_io;
mod sound_files;
pub mod theme;
mod third_party;
pub mod turn;
#[cfg(target_arch = "wasm32")]
mod web_files;

use crate::cli::PlayArgs;
use crate::games::GameKind;
use bevy::prelude::*;
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
}

impl Launch {
    /// From `stoneyard play …`; refuses what this build cannot honour yet.
    pub fn from_args(args: &PlayArgs) -> Result<Launch, String> {
        let opponent = match args.vs.as_str() {
            "human" => None,
            "easy" => Some(crate::ai::Level::Easy),
            "medium" => Some(crate::ai::Level::Medium),
            "hard" => Some(crate::ai::Level::Hard),
            other => return Err(format!("--vs {other}: the opponent is one of human, easy, medium, hard")),
        };
        let load = match &args.load {
            Some(path) => Some(read_record(path)?),
            None => None,
        };
        Ok(Launch {
            game: args.game,
            options: args.options.clone(),
            opponent,
            load,
            quit_after_title: args.quit_after_title,
        })
    }
}

/// A record file, as JSON or as the plain text export.
fn read_record(path: &std::path::Path) -> Result<crate::save::GameRecord, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("--load {}: {e}", path.display()))?;
    let record =
        crate::save::GameRecord::from_file_text(&text).map_err(|e| format!("--load {}: {e}", path.display()))?;
    // Replaying checks every move now, so a bad file is reported before the window opens.
    record.replay(None).map_err(|e| format!("--load {}: {e}", path.display()))?;
    Ok(record)
}

/// Global ordering of our `Update` systems. Features join a set; only this file orders them.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSystems {
    /// Raw input becomes `ActionPressed` messages.
    RecordInput,
    /// Screens react to actions and change state.
    Update,
}

/// Everything but rendering, windowing, sound and the input devices: states, messages, menu logic,
/// settings. The headless tests run exactly this on `MinimalPlugins`.
pub fn core_plugin(app: &mut App) {
    app.configure_sets(Update, (AppSystems::RecordInput, AppSystems::Update).chain());
    app.add_plugins((
        screen::plugin,
        input::plugin,
        settings_io::plugin,
        key_bindings::plugin,
        menus::plugin,
        turn::plugin,
        board::plugin,
        hud::plugin,
        rules_window::plugin,
        fonts::plugin,
        save_io::plugin,
        secrecy::plugin,
        ai_player::plugin,
        replay::plugin,
        record_export::plugin,
    ));
}

/// The full game: default plugins with our window, the third-party plugins, presentation.
pub fn app_plugin(app: &mut App) {
    app.add_plugins(
        DefaultPlugins
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
    app.add_plugins((third_party::plugin, core_plugin, theme::plugin));
    app.add_systems(Startup, spawn_camera);
    app.add_systems(Last, quit_after_title.run_if(|l: Option<Res<Launch>>| l.is_some_and(|l| l.quit_after_title)));
    #[cfg(target_arch = "wasm32")]
    app.add_plugins(page_mirror::plugin);
}

/// When the process started (for the start-up measurement).
static STARTED: std::sync::OnceLock<web_time::Instant> = std::sync::OnceLock::new();

/// Quits a few frames after the title screen is up: by then its first frame has been presented.
fn quit_after_title(screen: Res<State<screen::Screen>>, mut frames: Local<u32>, mut exit: MessageWriter<AppExit>) {
    if *screen.get() != screen::Screen::Title {
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
    commands.spawn((Name::new("Camera"), Camera2d));
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
    app.insert_resource(launch);
    app.add_plugins(app_plugin);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
