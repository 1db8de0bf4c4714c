#!/usr/bin/env bash
# Keeps a persistent cargo target directory from filling the disk between CI runs (see .ci/run).
#
# Cargo never deletes old artifacts: every run on a fresh clone compiles the project's own crate,
# tests and examples again and leaves the previous ones behind, and incremental caches grow on top.
# Those are removed before each run (they would be rebuilt anyway); dependency builds, the part worth
# keeping, stay. If the directory is still too big, or the disk too full, it is emptied and the run
# starts cold, which is slower but always fits the disk.
set -euo pipefail

target="${1:?usage: prune-target.sh TARGET_DIR}"
max_target_gb="${STONEYARD_MAX_TARGET_GB:-30}"
min_free_gb="${STONEYARD_MIN_FREE_GB:-15}"
[ -d "$target" ] || exit 0

# The crate's own artifacts: the library, the binary, one binary per integration test, examples.
own_names=(stoneyard libstoneyard frame_bench make_sounds)
for test_file in tests/*.rs; do own_names+=("$(basename "$test_file" .rs)"); done
pattern=()
for name in "${own_names[@]}"; do pattern+=(-name "$name-*" -o); done
unset 'pattern[${#pattern[@]}-1]'
find "$target" -path '*/deps/*' \( "${pattern[@]}" \) -delete 2>/dev/null || true
find "$target" -mindepth 1 -maxdepth 3 -type d \( -name incremental -o -name examples \) \
  -prune -exec rm -rf {} + 2>/dev/null || true

target_gb=$(($(du -sk "$target" | cut -f1) / 1024 / 1024))
free_gb=$(($(df -Pk "$target" | awk 'NR == 2 {print $4}') / 1024 / 1024))
echo "target directory $target: ${target_gb} GB after pruning; ${free_gb} GB free on its disk"
if [ "$target_gb" -gt "$max_target_gb" ] || [ "$free_gb" -lt "$min_free_gb" ]; then
  echo "emptying it (limits: at most ${max_target_gb} GB, at least ${min_free_gb} GB free): this run builds cold"
  rm -rf "$target"
fi
