//! The `stoneyard` binary: a subcommand runs on the command line; none opens the game window.
// On Windows the release game opens no console window behind it (a subcommand typed in a console
// prints there all the same: see `attach_to_console`).
#![cfg_attr(all(windows, not(debug_assertions)), windows_subsystem = "windows")]

use std::process::ExitCode;

/// In the browser there is no command line: the page opens the game.
#[cfg(all(target_arch = "wasm32", feature = "app"))]
fn main() -> ExitCode {
    stoneyard::app::run(stoneyard::app::Launch::default())
}

#[cfg(not(all(target_arch = "wasm32", feature = "app")))]
fn main() -> ExitCode {
    use clap::Parser;
    attach_to_console();
    let cli = stoneyard::cli::Cli::parse();
    match cli.command {
        #[cfg(feature = "app")]
        None => stoneyard::app::run(stoneyard::app::Launch::default()),
        #[cfg(feature = "app")]
        Some(stoneyard::cli::Command::Play(args)) => match stoneyard::app::Launch::from_args(&args) {
            Ok(launch) => stoneyard::app::run(launch),
            Err(e) => stoneyard::cli::fail(e),
        },
        #[cfg(not(feature = "app"))]
        None => stoneyard::cli::fail("this build has no game window; run a subcommand (see --help)"),
        Some(command) => stoneyard::cli::run(command),
    }
}

/// A program without a console of its own (the Windows release build) prints to the console it was
/// started from, when there is one and anything was asked on the command line.
#[cfg(windows)]
fn attach_to_console() {
    if std::env::args_os().len() > 1 {
        // SAFETY: a plain Win32 call with a constant argument; failing (no parent console) is fine.
        unsafe {
            windows_sys::Win32::System::Console::AttachConsole(
                windows_sys::Win32::System::Console::ATTACH_PARENT_PROCESS,
            );
        }
    }
}

#[cfg(not(any(windows, all(target_arch = "wasm32", feature = "app"))))]
fn attach_to_console() {}
