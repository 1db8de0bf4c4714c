#!/usr/bin/env bash
# `make dist`: every download of this version into dist/, each step timed into
# dist/BUILD-TIMES.txt and each file's size into dist/SIZES.txt:
#   stoneyard-V-linux-x86_64.tar.gz    the game for Linux, with a .desktop entry and an icon
#   stoneyard_V_amd64.deb              the same as a Debian package (cargo-deb; V with "+git" before the commit)
#   stoneyard-V-windows-x86_64.zip     the game for Windows (x86_64-pc-windows-gnu, mingw-w64)
#   stoneyard-V-web.zip                the browser site, for any static host
#   stoneyard-server-V-linux-x86_64.tar.gz   the game server (no window), the site, a systemd unit
# V is Cargo.toml's version, plus "-" and the commit unless the commit is a tagged release.
# The executables carry their fonts, lessons and practice positions inside, so they run from any
# folder; release builds, stripped.
set -euo pipefail
cd "$(dirname "$0")/../.."
target="${CARGO_TARGET_DIR:-$PWD/target}"
version=$(awk -F'"' '/^version = /{print $2; exit}' Cargo.toml)
commit=$(git rev-parse --short=7 HEAD)
if git describe --tags --exact-match HEAD >/dev/null 2>&1; then v="$version"; deb_version="$version"
else v="$version-$commit"; deb_version="$version+git$commit"; fi
rm -rf dist && mkdir -p dist
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
times=dist/BUILD-TIMES.txt
step() { # step NAME COMMAND...: runs and times a step
  local name=$1; shift
  local start=$SECONDS
  echo "== dist: $name"
  "$@"
  printf '%-44s %5d s\n' "$name" $((SECONDS - start)) | tee -a "$times"
}
licences() { # licences DIR: the project's licences and the fonts', and the documentation README links to
  cp LICENSE-MIT LICENSE-APACHE "$1/"
  cp -r docs "$1/"
  mkdir -p "$1/licences/fonts" && cp assets/fonts/*.txt "$1/licences/fonts/"
}

linux() {
  cargo build --release --bin stoneyard
  local dir="$stage/stoneyard-$v"
  mkdir -p "$dir"
  strip -o "$dir/stoneyard" "$target/release/stoneyard"
  cp README.md packaging/stoneyard.desktop "$dir/"
  cp web/icons/icon-512.png "$dir/stoneyard.png"
  licences "$dir"
  tar -C "$stage" -czf "dist/stoneyard-$v-linux-x86_64.tar.gz" "stoneyard-$v"
}

deb() {
  # The release executable just built (cargo-deb strips it); the package's dependencies from
  # dpkg-shlibdeps ($auto) and the ones Cargo.toml names.
  cargo deb --no-build --deb-version "$deb_version" --output "dist/"
}

windows() {
  # The game only (no server): Windows players host nothing; mingw-w64's gcc links it.
  cargo build --release --target x86_64-pc-windows-gnu --no-default-features --features app --bin stoneyard
  local dir="$stage/stoneyard-$v-windows"
  mkdir -p "$dir"
  x86_64-w64-mingw32-strip -o "$dir/stoneyard.exe" "$target/x86_64-pc-windows-gnu/release/stoneyard.exe"
  cp README.md "$dir/"
  licences "$dir"
  (cd "$stage" && zip -qr9 "$OLDPWD/dist/stoneyard-$v-windows-x86_64.zip" "stoneyard-$v-windows")
}

site() {
  make --no-print-directory web
  # What `make web` built: the page, the game's and the computer's WebAssembly, fonts, lessons,
  # the web manifest, the icons and the service worker. Files at the top of the zip: a static
  # host serves the folder it is unpacked into.
  (cd web && zip -qr9 "$OLDPWD/dist/stoneyard-$v-web.zip" index.html ai-worker.js manifest.webmanifest sw.js icons pkg)
}

server() {
  # The server alone, no Bevy (it serves the site with --web).
  cargo build --release --no-default-features --features server --bin stoneyard
  local dir="$stage/stoneyard-server-$v"
  mkdir -p "$dir/web"
  strip -o "$dir/stoneyard" "$target/release/stoneyard"
  cp packaging/stoneyard.service packaging/HOSTING.md "$dir/"
  (cd web && cp -r index.html ai-worker.js manifest.webmanifest sw.js icons pkg "$dir/web/")
  licences "$dir"
  tar -C "$stage" -czf "dist/stoneyard-server-$v-linux-x86_64.tar.gz" "stoneyard-server-$v"
}

: > "$times"
step "Linux x86_64 (release build, tar.gz)" linux
step "Debian package (cargo-deb)" deb
step "Windows x86_64 (release cross-build, zip)" windows
step "browser site (make web, zip)" site
step "server (release build without Bevy, tar.gz)" server
(cd dist && for f in *.tar.gz *.deb *.zip; do printf '%-52s %10d bytes\n' "$f" "$(stat -c %s "$f")"; done) | tee dist/SIZES.txt
echo "dist: $(ls dist | wc -l) files in dist/ for $v"
