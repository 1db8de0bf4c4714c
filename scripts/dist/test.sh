#!/usr/bin/env bash
# `make dist-test`: each download of dist/ unpacked into an empty folder and run from another
# working directory, as a new user would (a fresh HOME): `--version`, one worked example of each
# game's rules through `referee`, and the window under Xvfb (Mesa's software Vulkan) to the title
# screen, screenshot in dist-test/; the .deb unpacked into a throwaway root (dpkg-deb -x); the
# Windows build under Wine, its window in Wine's virtual desktop (see test_windows for Wine 8's
# limits); the site's zip served by a plain static file server and one move of each game played in
# headless Chromium; the server's archive serving the site and its health check.
#   scripts/dist/test.sh [linux] [deb] [windows] [site] [server]     (default: all five)
set -euo pipefail
wanted=" ${*:-linux deb windows site server} "
cd "$(dirname "$0")/../.."
repo=$PWD
shots=$repo/dist-test
rm -rf "$shots" && mkdir -p "$shots"
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
version=$(awk -F'"' '/^version = /{print $2; exit}' Cargo.toml)
# The version the downloads are named with (the commit they were built from, not necessarily HEAD).
named=$(basename "$(ls dist/stoneyard-"$version"*-linux-x86_64.tar.gz 2>/dev/null | head -1)" -linux-x86_64.tar.gz)
named=${named#stoneyard-}
one() { # one PATTERN: the single file of dist/ matching it
  local found=(dist/$1)
  [[ ${#found[@]} -eq 1 && -f ${found[0]} ]] || { echo "dist-test: no dist/$1 (run make dist)" >&2; exit 1; }
  echo "$repo/${found[0]}"
}
# A display of its own for the windows.
display=:$((70 + RANDOM % 20))
Xvfb "$display" -screen 0 1280x720x24 -nolisten tcp >/dev/null 2>&1 &
pids+=($!)
sleep 2

# The colours of what the display shows (a black screen has one; the title, hundreds).
colours() { import -display "$display" -window root "$1" && convert "$1" -format %k info:; }

# window NAME COMMAND...: starts the game as a new user (fresh HOME) from an empty folder and waits
# for the title screen; leaves the screenshot in dist-test/NAME.png. Returns 1 if it never showed.
window() {
  local name=$1; shift
  local home="$work/home-$name" cwd="$work/cwd-$name"
  mkdir -p "$home" "$cwd"
  (cd "$cwd" && HOME=$home XDG_DATA_HOME= XDG_CONFIG_HOME= DISPLAY=$display WINEDEBUG=-all "$@" >"$shots/$name.log" 2>&1) &
  local game=$!
  local seen=0
  for _ in $(seq 1 90); do
    sleep 2
    kill -0 "$game" 2>/dev/null || break
    seen=$(colours "$shots/$name.png")
    ((seen > 300)) && break
  done
  sleep 3 && seen=$(colours "$shots/$name.png")
  pkill -P "$game" 2>/dev/null || true; kill "$game" 2>/dev/null || true; wait "$game" 2>/dev/null || true
  # Nothing may have been written into the working directory: the data folder is the platform's.
  if [[ -n $(ls -A "$cwd") ]]; then echo "dist-test: $name wrote into its working directory: $(ls -A "$cwd")" >&2; exit 1; fi
  echo "dist-test: $name: the window showed $seen colours (dist-test/$name.png)"
  ((seen > 300))
}

# checks NAME EXECUTABLE...: --version and the referee examples, from another folder.
checks() {
  local name=$1; shift
  mkdir -p "$work/elsewhere" && cd "$work/elsewhere"
  local said
  said=$("$@" --version | tr -d '\r' | tail -1) || { echo "dist-test: $name --version failed: $said" >&2; exit 1; }
  # What the files' names say: "0.1.0" for a tagged release, "0.1.0-1a2b3c4" otherwise.
  local want="stoneyard $version"
  [[ $named == "$version" ]] || want="stoneyard $version (commit ${named#"$version"-})"
  [[ $said == "$want" ]] || { echo "dist-test: $name --version said '$said', its file's name '$want'" >&2; exit 1; }
  echo "dist-test: $name --version: $said"
  python3 "$repo/scripts/dist/referee-check.py" "$@" | sed "s/^/dist-test: $name /"
  cd "$repo"
}

# The Linux archive.
test_linux() {
linux=$(one 'stoneyard-[0-9]*-linux-x86_64.tar.gz')
mkdir -p "$work/linux" && tar -C "$work/linux" -xzf "$linux"
game=$(echo "$work"/linux/stoneyard-[0-9]*/stoneyard)
for f in README.md LICENSE-MIT LICENSE-APACHE stoneyard.desktop stoneyard.png licences/fonts/UFL.txt; do
  [[ -f $(dirname "$game")/$f ]] || { echo "dist-test: the archive has no $f" >&2; exit 1; }
done
desktop-file-validate "$(dirname "$game")/stoneyard.desktop"
checks linux "$game"
window linux "$game"
}

# The Debian package, in a throwaway root.
test_deb() {
deb=$(one 'stoneyard_*_amd64.deb')
dpkg-deb -x "$deb" "$work/root"
for f in usr/bin/stoneyard usr/share/applications/stoneyard.desktop usr/share/icons/hicolor/512x512/apps/stoneyard.png usr/share/doc/stoneyard/LICENSE-MIT; do
  [[ -f $work/root/$f ]] || { echo "dist-test: the .deb does not install /$f" >&2; exit 1; }
done
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libasound2 libudev1 libc6 libxkbcommon0; do
  [[ $depends == *"$lib"* ]] || { echo "dist-test: the .deb does not depend on $lib: $depends" >&2; exit 1; }
done
echo "dist-test: deb depends on: $depends"
checks deb "$work/root/usr/bin/stoneyard"
window deb "$work/root/usr/bin/stoneyard"
}

# The Windows zip, under Wine.
test_windows() {
zip=$(one 'stoneyard-[0-9]*-windows-x86_64.zip')
mkdir -p "$work/windows" && unzip -q "$zip" -d "$work/windows"
exe=$(echo "$work"/windows/stoneyard-*/stoneyard.exe)
# A Windows GUI program: no console window opens behind the game (main.rs's windows_subsystem).
# (Read whole before matching: grep -q would stop early, and under pipefail objdump's broken pipe fails.)
headers=$(x86_64-w64-mingw32-objdump -p "$exe")
[[ $headers == *"(Windows GUI)"* ]] || { echo "dist-test: stoneyard.exe is not a GUI program (a console would open behind it)" >&2; exit 1; }
# The icon Explorer shows (build.rs puts it in with mingw-w64's windres).
[[ -n $(wrestool -l --type=group_icon "$exe") ]] || { echo "dist-test: stoneyard.exe has no icon" >&2; exit 1; }
export WINEPREFIX="$work/wine" WINEDEBUG=-all
wineboot --init >/dev/null 2>&1 || true
# Rust's standard library draws its random numbers from bcryptprimitives.dll (Windows 10 and later
# have it); Debian 12's Wine 8.0 does not, and the program would not even start. The throwaway
# Wine prefix gets a stand-in built from scripts/dist/wine-bcryptprimitives.c; nothing ships it.
system32="$WINEPREFIX/drive_c/windows/system32"
if [[ ! -f $system32/bcryptprimitives.dll ]]; then
  printf 'LIBRARY bcryptprimitives\nEXPORTS\n  ProcessPrng\n' > "$work/bcryptprimitives.def"
  x86_64-w64-mingw32-gcc -shared -O2 -o "$system32/bcryptprimitives.dll" \
    "$repo/scripts/dist/wine-bcryptprimitives.c" "$work/bcryptprimitives.def" -ladvapi32
  echo "dist-test: windows: $(wine --version) has no bcryptprimitives.dll; its prefix got the stand-in"
fi
checks windows wine "$exe"
# The window, in Wine's own virtual desktop with Vulkan (Wine hands it to Mesa's software driver).
# Both are Wine's limits, not Windows': outside a virtual desktop, Xvfb's display modes have no
# refresh rate and winit's monitor list asserts one; and wgpu's first choice on Windows, DirectX 12,
# goes through vkd3d, whose shader compiler in Wine 8 cannot build wgpu's compute shaders.
window windows env WGPU_BACKEND=vulkan wine explorer /desktop=stoneyard,1280x720 "$exe"
wineserver -k 2>/dev/null || true
echo "dist-test: windows: the title showed under Wine"
}

# The server's archive: the server started as a new user from an empty folder serves the site and
# answers its health check; its store goes to the data folder.
test_server() {
archive=$(one 'stoneyard-server-[0-9]*-linux-x86_64.tar.gz')
mkdir -p "$work/server" && tar -C "$work/server" -xzf "$archive"
local dir
dir=$(echo "$work"/server/stoneyard-server-*)
for f in stoneyard stoneyard.service HOSTING.md LICENSE-MIT web/index.html web/sw.js web/pkg/stoneyard_bg.wasm; do
  [[ -f $dir/$f ]] || { echo "dist-test: the server's archive has no $f" >&2; exit 1; }
done
checks server "$dir/stoneyard"
local home="$work/home-server" cwd="$work/cwd-server" port=$((19000 + RANDOM % 1000))
mkdir -p "$home" "$cwd"
(cd "$cwd" && HOME=$home XDG_DATA_HOME= exec "$dir/stoneyard" serve --listen "127.0.0.1:$port" --web "$dir/web" >"$shots/server.log" 2>&1) &
local server=$!
pids+=($server)
local up=""
for _ in $(seq 1 50); do
  up=$(curl -sf "http://127.0.0.1:$port/healthz" || true)
  [[ $up == ok ]] && break
  sleep 0.2
done
[[ $up == ok ]] || { echo "dist-test: the server never answered /healthz (dist-test/server.log)" >&2; exit 1; }
local page
page=$(curl -sf "http://127.0.0.1:$port/" || true)
[[ $page == *"<title>Stoneyard"* ]] || { echo "dist-test: the server does not serve the site's page" >&2; exit 1; }
curl -sf -o /dev/null "http://127.0.0.1:$port/pkg/stoneyard_bg.wasm" || { echo "dist-test: the server does not serve the game's WebAssembly" >&2; exit 1; }
kill "$server" && wait "$server" 2>/dev/null || true
[[ -z $(ls -A "$cwd") ]] || { echo "dist-test: the server wrote into its working directory: $(ls -A "$cwd")" >&2; exit 1; }
[[ -f $home/.local/share/stoneyard/server.sqlite3 ]] || { echo "dist-test: no store in the data folder: $(find "$home" -type f)" >&2; exit 1; }
echo "dist-test: server: served the site and /healthz from an empty folder; its store is in the data folder"
}

# The site, from a plain static file server.
test_site() {
site=$(one 'stoneyard-[0-9]*-web.zip')
mkdir -p "$work/site" && unzip -q "$site" -d "$work/site"
port=$((18000 + RANDOM % 1000))
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work/site" >/dev/null 2>&1 &
pids+=($!)
sleep 1
(cd tests/web && WEB_TEST_SHOTS="$shots" node dist-site.mjs "http://127.0.0.1:$port/")
}

for part in linux deb windows site server; do
  if [[ $wanted == *" $part "* ]]; then "test_$part"; fi
done
echo "dist-test: passed:$wanted"
