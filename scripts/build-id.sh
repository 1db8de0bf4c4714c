#!/usr/bin/env bash
# Writes web/pkg/build-id.js, which web/sw.js imports: a new build gets a new id, so browsers
# install a new service worker and drop the old build's cache. The id is a hash of the build's
# files and of the page files the service worker keeps (a page-only change must reach players too).
set -euo pipefail
cd "$(dirname "$0")/../web"
shopt -s nullglob
files=(pkg/*.wasm pkg/*.js pkg/fonts/*.ttf index.html ai-worker.js manifest.webmanifest icons/*.png)
kept=()
for f in "${files[@]}"; do [[ -f $f && $f != pkg/build-id.js ]] && kept+=("$f"); done
[[ -f pkg/stoneyard_bg.wasm ]] || { echo "build-id: web/pkg/stoneyard_bg.wasm is missing" >&2; exit 1; }
id=$(printf '%s\n' "${kept[@]}" | LC_ALL=C sort | xargs -d '\n' sha256sum | sha256sum | cut -c1-16)
echo "self.STONEYARD_BUILD = \"$id\";" > pkg/build-id.js
echo "web/pkg/build-id.js: $id (${#kept[@]} files)"
