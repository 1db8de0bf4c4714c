//! The command line (ARCHITECTURE.md §5): `play`, `referee`, `perft`, `bench`, `arena`, and (feature
//! `server`) `serve` and `loadtest`. No Bevy.

mod arena;
mod bench;
mod calibrate;
mod lessons;
pub mod referee;
mod review;
mod think;

use crate::games::GameKind;
use clap::{Args, Parser, Subcommand};
use std::process::ExitCode;

/// Stoneyard: Gravel, Red Stone, Throngs, Inchworm and Hidden Intention.
#[derive(Debug, Parser)]
#[command(name = "stoneyard", version = crate::version::version_text(), about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open the game window, optionally straight into a game.
    Play(PlayArgs),
    /// Apply moves to a position and print the result as one JSON object.
    Referee(RefereeArgs),
    /// Review a game record with the computer: one JSON line per turn (win chance before and
    /// after, the label, the computer's preferred decision and line).
    Review(ReviewArgs),
    /// Count the sequences of atomic decisions to a fixed depth.
    Perft(PerftArgs),
    /// Measure random playouts per second (one thread) and the Hard search's iterations per
    /// second (one thread and every core), or (--review) how fast and how sure a review is.
    Bench(BenchArgs),
    /// Play computer opponents against each other and estimate their Elo difference.
    Arena(ArenaArgs),
    /// The computer's next decision in a position, as the app's opponent takes it (the level's
    /// time limit, Hard on every core): one JSON line (decision, iterations, ms)
    Think(ThinkArgs),
    /// Fit how steeply each game's margins turn into win chances on self-played games, and report
    /// how well the computer's win chances match the results.
    Calibrate(CalibrateArgs),
    /// Check that every lesson and practice position still plays as written (assets/lessons,
    /// assets/practice), or find practice positions in the computer's self-play.
    Lessons(LessonsArgs),
    /// Run the online game server (and serve the browser build) until Ctrl-C.
    #[cfg(all(feature = "server", not(target_arch = "wasm32")))]
    Serve(ServeArgs),
    /// Drive many concurrent online games against a running server and report delivery times.
    #[cfg(all(feature = "server", not(target_arch = "wasm32")))]
    Loadtest(crate::online::loadtest::LoadtestArgs),
}

#[derive(Debug, Args)]
pub struct LessonsArgs {
    /// Replay every lesson through its engine and report each problem (exit status 1 if any).
    #[arg(long)]
    pub check: bool,
    /// The books to check (default: every file in the lessons and practice folders).
    pub files: Vec<std::path::PathBuf>,
    /// Print practice positions of this game met in self-play (a practice book, to stdout).
    #[arg(long, value_parser = parse_game, value_name = "GAME")]
    pub find: Option<crate::games::GameKind>,
    /// With --find: how many positions.
    #[arg(long, default_value_t = 40)]
    pub count: usize,
    /// With --find: the first self-play game's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// With --find: at most this many self-play games.
    #[arg(long, default_value_t = 200)]
    pub games: u64,
    /// Write every lesson and practice book as JSON into DIR/lessons and DIR/practice (what the
    /// browser fetches).
    #[arg(long, value_name = "DIR")]
    pub export: Option<std::path::PathBuf>,
    /// With --find: the game's options (default: its quick ones).
    #[arg(long = "option", value_name = "K=V", value_parser = parse_option)]
    pub options: Vec<(String, String)>,
}

#[cfg(all(feature = "server", not(target_arch = "wasm32")))]
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on (use 0.0.0.0:7878 to accept other machines).
    #[arg(long, default_value = "127.0.0.1:7878")]
    pub listen: std::net::SocketAddr,
    /// The store: sqlite://FILE (default: server.sqlite3 in the data directory) or
    /// postgres://USER:PASSWORD@HOST/DB (shared by several instances).
    #[arg(long, value_name = "URL")]
    pub database: Option<String>,
    /// Serve the browser build from this folder (what `make web` builds: web/).
    #[arg(long, value_name = "DIR")]
    pub web: Option<std::path::PathBuf>,
    /// Requests one connection may make per second (twice as many in a burst).
    #[arg(long, default_value_t = crate::online::server::REQUESTS_PER_SECOND)]
    pub max_requests_per_second: f64,
    /// Connections one address may have open at once.
    #[arg(long, default_value_t = crate::online::server::CONNECTIONS_PER_ADDRESS)]
    pub max_connections_per_address: usize,
    /// Invite codes one address may try per minute (as many at once).
    #[arg(long, default_value_t = crate::online::server::JOINS_PER_MINUTE)]
    pub max_joins_per_minute: f64,
    /// Names one address may register, and passwords or player keys it may try, per minute.
    #[arg(long, default_value_t = crate::online::server::SIGN_INS_PER_MINUTE)]
    pub max_sign_ins_per_minute: f64,
    /// Seconds quick play looks for an opponent before it offers a game against the computer.
    #[arg(long, default_value_t = crate::online::server::QUICK_PLAY_WAIT.as_secs_f64())]
    pub quick_play_wait: f64,
    /// Rated games two players may play against each other in 24 hours (the ones after change
    /// no rating).
    #[arg(long, default_value_t = crate::online::server::RATED_GAMES_PER_PAIR_PER_DAY)]
    pub max_rated_games_per_pair_per_day: u32,
    /// Sends players who give an e-mail address a daily digest of the games waiting for their
    /// move, through this SMTP server: `smtp://USER:PASSWORD@HOST:587?tls=required` (STARTTLS),
    /// `smtps://USER:PASSWORD@HOST:465` (TLS), or `smtp://127.0.0.1:25` (a relay on this machine,
    /// unencrypted).
    #[arg(long, requires_all = ["smtp_from", "public_url"])]
    pub smtp: Option<String>,
    /// The digest's sender, e.g. `"Stoneyard <games@example.org>"`.
    #[arg(long)]
    pub smtp_from: Option<String>,
    /// The address players reach this server at (`https://games.example.org`), for the digest's
    /// links.
    #[arg(long)]
    pub public_url: Option<String>,
    /// Seconds a client has to send its HTTP request (a connection that sends nothing is closed).
    #[arg(long, default_value_t = crate::online::server::HANDSHAKE_TIMEOUT.as_secs_f64())]
    pub handshake_timeout: f64,
    /// A reverse proxy in front of the server (repeatable): its connections are not limited per
    /// address, and its X-Forwarded-For header gives the client's address.
    #[arg(long, value_name = "IP")]
    pub trusted_proxy: Vec<std::net::IpAddr>,
    /// Runs the server's clock this many hours ahead of the machine's (for a demonstration or a
    /// test of correspondence clocks: restart a server with `--clock-ahead 24` and a day has
    /// passed in its games). Never on a server people play on.
    #[arg(long, value_name = "HOURS", default_value_t = 0.0)]
    pub clock_ahead: f64,
}

/// The game and its options, shared by every subcommand.
#[derive(Debug, Args, Clone)]
pub struct GameArgs {
    /// The game: gravel, red-stone, throngs, inchworm or hidden-intention.
    #[arg(long, value_parser = parse_game)]
    pub game: GameKind,
    /// A rules option as key=value (repeatable); see each game's rules for the keys.
    #[arg(long = "option", value_name = "K=V", value_parser = parse_option)]
    pub options: Vec<(String, String)>,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Start this game directly (otherwise the title screen opens).
    #[arg(long, value_parser = parse_game)]
    pub game: Option<GameKind>,
    #[arg(long = "option", value_name = "K=V", value_parser = parse_option)]
    pub options: Vec<(String, String)>,
    /// The opponent: human (same device), easy, medium or hard.
    #[arg(long, default_value = "human")]
    pub vs: String,
    /// Open a game record in the replay, ready to play on: JSON, the plain text export, or the
    /// rules' own record notation (with its tags, or the moves alone of the game given by --game).
    #[arg(long, value_name = "FILE")]
    pub load: Option<std::path::PathBuf>,
    /// The online game server for "Play online" this run (`ws://HOST:PORT/ws`, or `HOST:PORT`),
    /// over the one in the settings.
    #[arg(long, value_name = "URL")]
    pub server: Option<String>,
    /// Measure start-up: quit once the title screen has been drawn, printing the seconds since
    /// the process started (used by `make bench`).
    #[arg(long, hide = true)]
    pub quit_after_title: bool,
}

#[derive(Debug, Args)]
pub struct RefereeArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Start from this position text (default: the initial position).
    #[arg(long, conflicts_with = "position_file", allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Read the position text from a file.
    #[arg(long, value_name = "F")]
    pub position_file: Option<std::path::PathBuf>,
    /// Moves in the game-record notation, separated by ';' or newlines (or a record, as for
    /// --moves-file).
    #[arg(long, conflicts_with = "moves_file", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// Read the moves from a file: a move list, or a game record in any form (JSON, the plain text
    /// export, the rules' own record notation with or without its tags), whose own options and
    /// start position are used; options given with --option must agree with the record's.
    #[arg(long, value_name = "F")]
    pub moves_file: Option<std::path::PathBuf>,
    /// Also list every legal move of the final position, with their exact number in legal_count (a
    /// JSON number below 2^64, else its digits as a string)
    #[arg(long)]
    pub legal: bool,
}

#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// The game record: JSON, the plain text export, the rules' own record notation (with its
    /// tags, or the moves alone of the game given by --game), or a plain move list of the game
    /// given by --game as `stoneyard referee --moves-file` reads it (one move per line or
    /// ';'-separated, in the rules' notation).
    #[arg(long, value_name = "RECORD")]
    pub moves_file: std::path::PathBuf,
    /// The game, when the record does not name it.
    #[arg(long, value_parser = parse_game)]
    pub game: Option<GameKind>,
    /// A rules option as key=value (repeatable), when the record does not give them.
    #[arg(long = "option", value_name = "K=V", value_parser = parse_option)]
    pub options: Vec<(String, String)>,
    /// Search iterations per position (default: the game's review budget, as in the app).
    #[arg(long, value_name = "ITERATIONS")]
    pub budget: Option<u64>,
    /// The seed of the computer's random choices (the same seed gives the same review).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Positions analysed at once, one thread each (default: every core). The review does not
    /// depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
}

#[derive(Debug, Args)]
pub struct PerftArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Depth in atomic decisions.
    #[arg(long)]
    pub depth: u32,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// A game slug, or "all".
    #[arg(long, default_value = "all")]
    pub game: String,
    #[arg(long = "option", value_name = "K=V", value_parser = parse_option)]
    pub options: Vec<(String, String)>,
    /// Seconds of playouts per game.
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Measure the review instead: a game the computer plays at Easy against itself (from the
    /// seed), reviewed on every core with --seeds seeds: the time of one review, how many turns
    /// every seed labels alike and how far a position's win chance moves between seeds.
    #[arg(long)]
    pub review: bool,
    /// Seeds the game is reviewed with (--review).
    #[arg(long, default_value_t = 5)]
    pub seeds: usize,
    /// Iterations a reviewed position (--review; default: the game's review budget).
    #[arg(long)]
    pub budget: Option<u64>,
    /// Also write each reviewed game's record to DIR/<game>.json (--review), to review the same
    /// games elsewhere (the browser's review times).
    #[arg(long, value_name = "DIR")]
    pub records: Option<std::path::PathBuf>,
}

#[derive(Debug, Args)]
pub struct CalibrateArgs {
    /// A game slug, or "all".
    #[arg(long, default_value = "all")]
    pub game: String,
    /// Self-played games per game (each from its own seed).
    #[arg(long, default_value_t = 40)]
    pub games: u32,
    /// Uniformly random decisions each game opens with, so that the level's games differ.
    #[arg(long, default_value_t = 6)]
    pub opening: usize,
    /// The level that plays them after the opening.
    #[arg(long, default_value = "medium")]
    pub level: crate::ai::Level,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at the same time (default: every core). The data do not depend on it.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// A game still going after this many decisions is left out.
    #[arg(long, default_value_t = 1_000)]
    pub longest: usize,
    /// Keep the positions before every Nth decision only (long games' data stay small).
    #[arg(long, default_value_t = 1)]
    pub every: u32,
    /// Where each game's data go, as <game>.csv.
    #[arg(long, default_value = "data/calibration")]
    pub out: std::path::PathBuf,
    /// Fit the data already in --out instead of playing new games.
    #[arg(long)]
    pub fit_only: bool,
    /// Also review every game (the review's budget) and report how well the win chances the
    /// review shows match the results.
    #[arg(long)]
    pub review: bool,
}

#[derive(Debug, Args)]
pub struct ThinkArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The position, in the game's position text.
    #[arg(long)]
    pub position: String,
    /// The side that decides: as the position text writes it (b), as the game names it (Black),
    /// or first or second.
    #[arg(long)]
    pub side: String,
    /// The side's decisions already made on top of the position, `;`-separated (a commitment
    /// under way, which a position text does not show).
    #[arg(long, default_value = "")]
    pub then: String,
    /// random, easy, medium or hard.
    #[arg(long, default_value = "hard")]
    pub level: String,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

#[derive(Debug, Args)]
pub struct ArenaArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Player A: a level (random, easy, medium, hard) on its iterations, alphabeta:NODES
    /// (sequential games), timed:LEVEL (the app's opponent: its time limit, Hard on every core) or
    /// external:LEVEL:PROGRAM (another Stoneyard program's `think`, e.g. an older build).
    #[arg(long)]
    pub a: String,
    /// Player B, as A.
    #[arg(long)]
    pub b: String,
    /// Number of games (sides alternate game by game).
    #[arg(long)]
    pub games: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at the same time, one thread each (the result does not depend on it).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Print no line per finished game on stderr.
    #[arg(long)]
    pub quiet: bool,
}

fn parse_game(s: &str) -> Result<GameKind, String> {
    s.parse()
}

/// The games a `--game` argument names: one slug, or every game for "all".
fn games_named(arg: &str) -> Result<Vec<GameKind>, String> {
    if arg == "all" { Ok(GameKind::all().collect()) } else { arg.parse().map(|k| vec![k]) }
}

fn parse_option(s: &str) -> Result<(String, String), String> {
    let (k, v) = s.split_once('=').ok_or_else(|| format!("'{s}' is not key=value"))?;
    if k.trim().is_empty() {
        return Err(format!("'{s}' has no key"));
    }
    Ok((k.trim().to_string(), v.trim().to_string()))
}

/// Prints a message for the user on stderr and returns exit status 2.
pub fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("stoneyard: {message}");
    ExitCode::from(2)
}

/// Runs a subcommand that does not need the window. `Play` is handled by the binary.
pub fn run(command: Command) -> ExitCode {
    match command {
        Command::Play(_) => fail("this build has no game window; rebuild with the default feature 'app'"),
        Command::Referee(args) => referee::run(args),
        Command::Review(args) => review::run(args),
        Command::Perft(args) => bench::run_perft(args),
        Command::Bench(args) => bench::run_bench(args),
        Command::Arena(args) => arena::run(args),
        Command::Think(args) => think::run(args),
        Command::Calibrate(args) => calibrate::run(args),
        Command::Lessons(args) => lessons::run(args),
        #[cfg(all(feature = "server", not(target_arch = "wasm32")))]
        Command::Serve(args) => {
            let database = match args.database {
                Some(url) => url,
                None => match crate::online::server::default_database() {
                    Ok(url) => url,
                    Err(e) => return fail(e),
                },
            };
            for (flag, value) in [
                ("--max-requests-per-second", args.max_requests_per_second),
                ("--max-joins-per-minute", args.max_joins_per_minute),
                ("--max-sign-ins-per-minute", args.max_sign_ins_per_minute),
                ("--quick-play-wait", args.quick_play_wait),
            ] {
                if !(value > 0.0 && value.is_finite()) {
                    return fail(format!("{flag} {value}: give a number above 0"));
                }
            }
            let options = crate::online::server::ServeOptions {
                listen: args.listen,
                database,
                web: args.web,
                requests_per_second: args.max_requests_per_second,
                handshake_timeout: match std::time::Duration::try_from_secs_f64(args.handshake_timeout) {
                    Ok(d) if !d.is_zero() => d,
                    _ => {
                        return fail(format!(
                            "--handshake-timeout {}: give a number of seconds above 0",
                            args.handshake_timeout
                        ));
                    }
                },
                max_connections_per_address: args.max_connections_per_address.max(1),
                joins_per_minute: args.max_joins_per_minute,
                sign_ins_per_minute: args.max_sign_ins_per_minute,
                quick_play_wait: std::time::Duration::from_secs_f64(args.quick_play_wait),
                rated_games_per_pair_per_day: args.max_rated_games_per_pair_per_day,
                trusted_proxies: args.trusted_proxy,
                clock: match args.clock_ahead {
                    0.0 => crate::online::server::ServerClock::System,
                    hours if hours > 0.0 && hours <= 24.0 * 366.0 => {
                        eprintln!("stoneyard serve: the server's clock runs {hours} hours ahead of this machine's");
                        crate::online::server::ServerClock::Ahead((hours * 3_600_000.0) as i64)
                    }
                    hours => return fail(format!("--clock-ahead {hours}: give a number of hours from 0 to 8784")),
                },
                smtp: match (args.smtp, args.smtp_from, args.public_url) {
                    (Some(url), Some(from), Some(public_url)) => {
                        if from.parse::<lettre::message::Mailbox>().is_err() {
                            return fail(format!(
                                "--smtp-from '{from}': give an address like 'Stoneyard <games@example.org>'"
                            ));
                        }
                        Some(crate::online::server::SmtpOptions { url, from, public_url })
                    }
                    _ => None,
                },
            };
            match crate::online::server::serve(options) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(e),
            }
        }
        #[cfg(all(feature = "server", not(target_arch = "wasm32")))]
        Command::Loadtest(args) => match crate::online::loadtest::run(args) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::from(1),
            Err(why) => fail(why),
        },
    }
}
