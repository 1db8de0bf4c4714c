//! The `stoneyard` binary: a subcommand runs on the command line; none opens the game window.

use std::process::ExitCode;

/// In the browser there is no command line: the page opens the game.
#[cfg(all(target_arch = "wasm32", feature = "app"))]
fn main() -> ExitCode {
    stoneyard::app::run(stoneyard::app::Launch::default())
}

#[cfg(not(all(target_arch = "wasm32", feature = "app")))]
fn main() -> ExitCode {
    use clap::Parser;
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
