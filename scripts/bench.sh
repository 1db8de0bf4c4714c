#!/usr/bin/env bash
# Reproduces every performance figure Stoneyard publishes and writes them as Markdown to
# docs/performance.md (also printed). Run through `make bench`.
#   engines + AI: release build without Bevy, one thread (and Hard's search on every core)
#   review:       a self-played game per game reviewed with five seeds on every core: the time of
#                 one review, how alike the seeds' labels are, how far a win chance moves
#   calibration:  each game's fit to the self-play data in data/calibration (Brier score)
#   frames:       headless app, largest boards, animations running (release build, as players get
#                 it; the build `make play` keeps warm)
#   start-up/RSS: the release game under Xvfb with Mesa's software Vulkan
#   web:          sizes of web/pkg (built by `make web`) when present
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET="${CARGO_TARGET_DIR:-target}"
OUT=docs/performance.md
SECONDS_PER_GAME="${BENCH_SECONDS:-3}"

cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)
cores=$(nproc)
mem=$(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)
rustc_v=$(rustc --version)

echo "== engines and AI (release, one thread, ${SECONDS_PER_GAME} s per game)" >&2
cargo build --release --no-default-features -q
engines=$("$TARGET/release/stoneyard" bench --game all --seconds "$SECONDS_PER_GAME")

echo "== the review: five seeds per game, every core" >&2
review=$("$TARGET/release/stoneyard" bench --review --game all --seeds 5)

echo "== calibration (data/calibration)" >&2
calibration=$("$TARGET/release/stoneyard" calibrate --game all --fit-only)

echo "== headless frames (largest boards, animations on)" >&2
cargo build --release --example frame_bench -q
frames=$("$TARGET/release/examples/frame_bench" 600)

echo "== start-up and memory under Xvfb" >&2
cargo build --release -q
startup="n/a"; rss="n/a"; wall="n/a"
if command -v Xvfb >/dev/null && command -v /usr/bin/time >/dev/null; then
  Xvfb :97 -screen 0 1280x800x24 >/dev/null 2>&1 & xvfb=$!
  sleep 1
  log=$(mktemp)
  # Each run starts from nothing saved, as a new player would.
  data=$(mktemp -d)
  if DISPLAY=:97 XDG_DATA_HOME="$data" XDG_CONFIG_HOME="$data" /usr/bin/time -v \
       "$TARGET/release/stoneyard" play --quit-after-title >"$log.out" 2>"$log"; then
    startup=$(sed -n 's/.*"startup_to_title_s":\([0-9.]*\).*/\1/p' "$log.out")
    rss=$(awk -F: '/Maximum resident set size/ {printf "%.0f MB", $2/1024}' "$log")
    wall=$(awk '/Elapsed \(wall clock\)/ {print $NF}' "$log")
  else
    echo "the game did not start under Xvfb; see $log" >&2
  fi
  kill "$xvfb" 2>/dev/null || true
  rm -rf "$data"
fi

wasm="n/a"; wasm_gz="n/a"; worker_gz="n/a"; wasm_build="not built (run make web)"
if [ -f web/pkg/stoneyard_bg.wasm ]; then
  wasm_build=$(cat web/pkg/BUILD 2>/dev/null || echo "unknown build")
  wasm=$(stat -c %s web/pkg/stoneyard_bg.wasm | awk '{printf "%.1f MB", $1/1e6}')
  wasm_gz=$(gzip -9 -c web/pkg/stoneyard_bg.wasm | wc -c | awk '{printf "%.2f MB", $1/1e6}')
  [ -f web/pkg/ai_worker_bg.wasm ] && worker_gz=$(gzip -9 -c web/pkg/ai_worker_bg.wasm | wc -c | awk '{printf "%.2f MB", $1/1e6}')
fi

field() { sed -n "s/.*\"$1\":\([0-9.e+-]*\).*/\1/p"; }
{
  echo "# Stoneyard performance"
  echo
  echo "Measured $(date -u +%Y-%m-%d) on: $cpu, $cores cores, $mem, $(uname -sr), $rustc_v."
  echo "Reproduce with \`make bench\` (script: \`scripts/bench.sh\`)."
  echo
  echo "## Engines and AI (release, one thread)"
  echo
  echo "| Game | Random playouts/s | Plies per playout | Legal decisions per state | MCTS iterations/s (Hard) | Hard on every core |"
  echo "|---|---:|---:|---:|---:|---:|"
  while read -r line; do
    game=$(echo "$line" | sed -n 's/.*"game":"\([^"]*\)".*/\1/p')
    printf '| %s | %.0f | %.0f | %.1f | %.0f | %.0f |\n' "$game" \
      "$(echo "$line" | field playouts_per_s)" "$(echo "$line" | field plies_per_playout)" \
      "$(echo "$line" | field legal_per_state)" "$(echo "$line" | field ai_iterations_per_s)" \
      "$(echo "$line" | field ai_iterations_per_s_all_cores)"
  done <<< "$engines"
  echo
  echo "## The review (a game the computer played at Easy against itself, five seeds, every core)"
  echo
  echo "| Game | Decisions | Turns | Iterations a position | One review (s) | Turns labelled alike | Marked alike | Win chance sd (mean / max) |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  while read -r line; do
    game=$(echo "$line" | sed -n 's/.*"game":"\([^"]*\)".*/\1/p')
    printf '| %s | %s | %s | %s | %s | %.1f%% | %.1f%% | %s / %s |\n' "$game" "$(echo "$line" | field decisions)" \
      "$(echo "$line" | field turns)" "$(echo "$line" | field iterations)" "$(echo "$line" | field review_seconds)" \
      "$(echo "$line" | field label_agreement | awk '{print $1 * 100}')" \
      "$(echo "$line" | field mark_agreement | awk '{print $1 * 100}')" \
      "$(echo "$line" | field win_sd_mean)" "$(echo "$line" | field win_sd_max)"
  done <<< "$review"
  echo
  echo "## Calibration (the evaluation's win chances against self-play results, data/calibration)"
  echo
  echo "| Game | Positions | Games | Sharpness | First-side edge | Tempo | Brier |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  while read -r line; do
    game=$(echo "$line" | sed -n 's/.*"game":"\([^"]*\)".*/\1/p')
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$game" "$(echo "$line" | field positions)" \
      "$(echo "$line" | field games)" "$(echo "$line" | field current_sharpness)" \
      "$(echo "$line" | field current_first_side_edge)" "$(echo "$line" | field current_tempo)" \
      "$(echo "$line" | sed -n 's/.*"current":{"bins":[^}]*"brier":\([0-9.]*\)}.*/\1/p')"
  done <<< "$calibration"
  echo
  echo "## Frames of our systems (headless, largest board, a decision every 4 frames, animations on)"
  echo
  echo "| Game | Frames | Mean ms/frame | p99 ms/frame | Max ms |"
  echo "|---|---:|---:|---:|---:|"
  while read -r line; do
    game=$(echo "$line" | sed -n 's/.*"game":"\([^"]*\)".*/\1/p')
    printf '| %s | %s | %s | %s | %s |\n' "$game" "$(echo "$line" | field frames)" \
      "$(echo "$line" | field mean_ms)" "$(echo "$line" | field p99_ms)" "$(echo "$line" | field max_ms)"
  done <<< "$frames"
  echo
  echo "## Start-up, memory, web"
  echo
  echo "| Figure | Value |"
  echo "|---|---|"
  echo "| Start-up to the first drawn title screen (in-process, Xvfb + software Vulkan, release build) | ${startup} s |"
  echo "| Whole run to title and exit (wall clock) | ${wall} |"
  echo "| Peak memory (max RSS) | ${rss} |"
  echo "| Web .wasm in web/pkg (${wasm_build}) | ${wasm} |"
  echo "| Web .wasm gzipped | ${wasm_gz} |"
  echo "| The computer's worker .wasm gzipped (same build) | ${worker_gz} |"
} > "$OUT"
cat "$OUT"
