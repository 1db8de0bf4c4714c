#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server (Debian's package) on loopback, exported as
# STONEYARD_TEST_POSTGRES; the server and its files are removed afterwards, whatever happens.
# Installs the package when it is missing. Usage: scripts/with-postgres.sh COMMAND [ARGS...]
# The tests run it without fsync (their data is thrown away); STONEYARD_PG_FSYNC=on for benchmarks.
set -euo pipefail
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "installing postgresql"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql
  # The package's own cluster is not needed; the test starts its own.
  $SUDO systemctl disable --now postgresql >/dev/null 2>&1 || true
fi
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
dir=$(mktemp -d /tmp/stoneyard-pg.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# initdb refuses to run as root: as root, the cluster belongs to the package's postgres user.
as_owner=()
if [ "$(id -u)" = 0 ]; then
  chown postgres "$dir"
  as_owner=(runuser -u postgres --)
fi
cleanup() {
  "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
"${as_owner[@]}" "$bin/initdb" -D "$dir/data" -A trust -U stoneyard >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log"; exit 1; }
"${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=${STONEYARD_PG_FSYNC:-off}" start >/dev/null
export STONEYARD_TEST_POSTGRES="postgres://stoneyard@127.0.0.1:$port/postgres"
echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
"$@"
