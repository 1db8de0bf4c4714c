#!/usr/bin/env bash
# The online server's load figures (docs/performance-figures.md): a release `stoneyard serve` and
# `stoneyard loadtest` on this machine, over loopback.
#   scripts/loadtest.sh [GAMES] [SECONDS] [kill]   one instance with SQLite; with "kill", the server
#                                                  is SIGKILLed halfway and restarted
#   POSTGRES=1 scripts/loadtest.sh [GAMES] [SECONDS] [kill]
#                                                  two instances sharing a throwaway PostgreSQL
#                                                  (scripts/with-postgres.sh), a player on each
# SPECTATORS, FOLLOWERS and POSTERS (default 1000, 200, 20) set the spectators, the lobby's
# followers and the players who keep posting and withdrawing challenges; CLOCK (say 5+3) plays every
# table's games on a live clock and reports how far the devices' clocks are from the server's.
# A benchmark, not a test: it prints the figures (and exits non-zero if a decision was lost).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-1000}
seconds=${2:-60}
kill_halfway=${3:-}
if [ -n "${POSTGRES:-}" ] && [ -z "${STONEYARD_TEST_POSTGRES:-}" ]; then
  STONEYARD_PG_FSYNC=on exec bash scripts/with-postgres.sh "$0" "$@"
fi
cargo build --release --no-default-features --features server -q
bin="${CARGO_TARGET_DIR:-target}/release/stoneyard"
work=$(mktemp -d /tmp/stoneyard-load.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
database=${STONEYARD_TEST_POSTGRES:-sqlite://$work/games.sqlite3}
port=$(free_port)
serve() { # port
  # Every player of the load test connects from this machine's one address: the per-address
  # limits (connections, invite codes tried, names registered and signed in) are raised for it.
  "$bin" serve --listen "127.0.0.1:$1" --database "$database" \
    --max-connections-per-address 100000 --max-joins-per-minute 1000000 \
    --max-sign-ins-per-minute 1000000 >>"$work/serve-$1.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$1/healthz" >/dev/null && return; sleep 0.1; done
  echo "the server on port $1 did not start"; cat "$work/serve-$1.log"; exit 1
}
serve "$port"
second=()
if [ -n "${STONEYARD_TEST_POSTGRES:-}" ]; then
  port2=$(free_port)
  serve "$port2"
  second=(--second-server "ws://127.0.0.1:$port2/ws")
fi
echo "store: ${database%%://*}, $games games, $seconds s, $(nproc) cores"
"$bin" loadtest --server "ws://127.0.0.1:$port/ws" "${second[@]}" --games "$games" --seconds "$seconds" \
  --think-ms 2000 --ramp 20 --spectators "${SPECTATORS:-1000}" --lobby-followers "${FOLLOWERS:-200}" \
  --posters "${POSTERS:-20}" ${CLOCK:+--clock "$CLOCK"} &
load=$!
if [ "$kill_halfway" = kill ]; then
  sleep $((seconds / 2 + 10))
  echo "SIGKILL to the server on port $port, restarting it"
  kill -9 "${pids[0]}"
  wait "${pids[0]}" 2>/dev/null || true
  serve "$port"
fi
status=0
wait "$load" || status=$?
# What the servers complained of (store errors, a lost LISTEN connection), if anything.
for log in "$work"/serve-*.log; do
  complaints=$(grep -v '^stoneyard serve: \(listening\|up to\|stopping\)' "$log" || true)
  if [ -n "$complaints" ]; then
    echo "$(basename "$log"): $(echo "$complaints" | wc -l) lines, the first:"
    echo "$complaints" | head -5
  fi
done
exit "$status"
