#!/usr/bin/env bash
# Checks that the Bevy-free build of `make test` and the app's build compile every crate they share
# with the same features, so that the app's build reuses the other's instead of compiling the
# core crate (core/) and the server's whole stack again (Cargo.toml, "one build of the shared
# dependencies").
#
# Compares `cargo tree`'s features of every package in both builds, with their tests and
# dev-dependencies as `cargo test` resolves them, and prints each package whose features differ.
# Resolves only: nothing is built.
set -euo pipefail
cd "$(dirname "$0")/.."

features_of() {
  # One line per package and feature set: "name vX.Y.Z [a,b,c]".
  cargo tree --quiet "$@" --prefix none -f '{p} [{f}]' \
    | sed -e 's/ (\*)$//' -e 's/ (proc-macro)//' -e 's/ (\/[^)]*)//' | sort -u
}

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pure=(--workspace --no-default-features --features stoneyard/server)
app=(-p stoneyard)
# The crates compiled for the target (no build scripts, no proc-macros): one feature set each.
features_of "${pure[@]}" -e normal,dev,no-proc-macro >"$dir/pure-target"
features_of "${app[@]}" -e normal,dev,no-proc-macro >"$dir/app-target"
# Everything, build scripts and proc-macros too: their crates are compiled for the host, where the
# app's build may have a variant of a crate that the Bevy-free build does not need.
features_of "${pure[@]}" -e normal,build,dev >"$dir/pure-all"
features_of "${app[@]}" -e normal,build,dev >"$dir/app-all"

# For each package in both builds: on the target the feature sets must be equal; counting the
# host's crates too, every feature set the Bevy-free build compiles must be one the app's compiles.
drift=$(python3 - "$dir" <<'PYTHON'
import re, sys

def load(path):
    found = {}
    for line in open(path):
        m = re.match(r'^(\S+ v\S+) \[(.*)\]$', line.strip())
        # The game's crate and the worker's differ by design; the core must be shared like any other.
        if m and not m.group(1).startswith(('stoneyard v', 'stoneyard-ai-worker v')):
            found.setdefault(m.group(1), set()).add(m.group(2))
    return found

def show(sets):
    return ' '.join(f'[{s}]' for s in sorted(sets))

d = sys.argv[1]
pure_target, app_target = load(f'{d}/pure-target'), load(f'{d}/app-target')
pure_all, app_all = load(f'{d}/pure-all'), load(f'{d}/app-all')
for package in sorted(pure_all.keys() & app_all.keys()):
    if package in pure_target and package in app_target and pure_target[package] != app_target[package]:
        print(f'{package}: without Bevy {show(pure_target[package])}, with Bevy {show(app_target[package])}')
    elif not pure_all[package] <= app_all[package]:
        print(f'{package} (for build scripts and macros): without Bevy {show(pure_all[package])}, '
              f'with Bevy {show(app_all[package])}')
PYTHON
)
if [ -n "$drift" ]; then
  echo "check-shared-build: these crates are built with other features with Bevy than without, so"
  echo "make test would compile them (and every crate above them) twice; turn the missing features on"
  echo "in Cargo.toml's \"one build of the shared dependencies\":"
  echo "$drift"
  exit 1
fi
echo "check-shared-build: the Bevy-free build and the app's build share every common crate"
