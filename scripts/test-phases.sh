#!/usr/bin/env bash
# `make test`: every phase in order, each timed; the wall time of each is printed at the end.
#
# The table comes last (also when a phase fails, which then ends the run) so that every CI log says
# where its time went. Each phase is a Makefile target that runs by itself too.
set -uo pipefail
cd "$(dirname "$0")/.."

phases=(
  "installs|web-test-deps"
  "lint|lint"
  "pure tests|test-rules"
  "PostgreSQL|test-postgres"
  "app tests|test-app"
  "browser build|web-test-build"
  "browser test|web-test-run"
)

format_seconds() {
  local s=$1
  if [ "$s" -ge 60 ]; then printf '%d min %02d s' $((s / 60)) $((s % 60)); else printf '%d s' "$s"; fi
}

rows=()
status=0
started=$(date +%s)
for phase in "${phases[@]}"; do
  name=${phase%%|*}
  target=${phase#*|}
  echo "== make test: $name (make $target)"
  t0=$(date +%s)
  make --no-print-directory "$target"
  code=$?
  rows+=("$(printf '%-14s %10s' "$name" "$(format_seconds $(($(date +%s) - t0)))")$([ $code -ne 0 ] && echo '   FAILED')")
  if [ $code -ne 0 ]; then
    status=$code
    break
  fi
done

echo
echo "== make test: wall time per phase"
printf '%s\n' "${rows[@]}"
printf '%-14s %10s\n' "total" "$(format_seconds $(($(date +%s) - started)))"
[ $status -eq 0 ] && echo "make test: passed" || echo "make test: FAILED"
exit $status
