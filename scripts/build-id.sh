#!/usr/bin/env bash
# Writes web/pkg/build-id.js, which web/sw.js imports: a new build gets a new id, so browsers
# install a new service worker and drop the old build's cache. The id is a hash of the build's
# files, its books and the page files the service worker keeps (a page-only or lesson-only change
# must reach players too); the file also lists the books.
set -euo pipefail
cd "$(dirname "$0")/../web"
shopt -s nullglob
books=(pkg/lessons/*.json pkg/practice/*.json)
files=(pkg/*.wasm pkg/*.js pkg/fonts/*.ttf "${books[@]}" index.html ai-worker.js manifest.webmanifest icons/*.png)
kept=()
for f in "${files[@]}"; do [[ -f $f && $f != pkg/build-id.js ]] && kept+=("$f"); done
[[ -f pkg/stoneyard_bg.wasm ]] || { echo "build-id: web/pkg/stoneyard_bg.wasm is missing" >&2; exit 1; }
id=$(printf '%s\n' "${kept[@]}" | LC_ALL=C sort | xargs -d '\n' sha256sum | sha256sum | cut -c1-16)
{
  echo "self.STONEYARD_BUILD = \"$id\";"
  # The lesson and practice books written by `stoneyard lessons --export`: every game's, whatever
  # games the registry lists (sw.js keeps them for offline play).
  printf 'self.STONEYARD_BOOKS = ['
  for book in "${books[@]}"; do printf '"./%s",' "$book"; done
  echo '];'
} > pkg/build-id.js
echo "web/pkg/build-id.js: $id (${#kept[@]} files)"
