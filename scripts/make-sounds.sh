#!/usr/bin/env bash
# Renders Stoneyard's synthesised sounds (src/synth) and encodes them to the Ogg Vorbis files
# committed under assets/sounds/, plus the table that embeds them (src/app/sound_files.rs).
# Run it after changing src/synth; needs oggenc (Debian: vorbis-tools), installed if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v oggenc >/dev/null || { sudo=$([ "$(id -u)" = 0 ] || echo sudo); $sudo apt-get install -y -qq vorbis-tools; }
wav=$(mktemp -d)
trap 'rm -rf "$wav"' EXIT
cargo run -q --release --no-default-features --example make_sounds -- "$wav"
rm -f assets/sounds/*.ogg
for f in "$wav"/*.wav; do
  name=$(basename "$f" .wav)
  # Quality 3 (~80 kbit/s) is transparent for these simple tones; music at 1 keeps it small.
  quality=3; [ "$name" = music ] && quality=1
  # A fixed serial number makes the output reproducible (oggenc picks a random one otherwise).
  oggenc -Q -q "$quality" --serial 1 -o "assets/sounds/$name.ogg" "$f"
done
{
  echo "//! The committed sound files (assets/sounds, made by scripts/make-sounds.sh), embedded in"
  echo "//! the program so the desktop and the browser play them without fetching files. Generated."
  echo
  echo "/// Each sound: its file stem (\`Cue::file_stem\`, or \`music\`) and its Ogg Vorbis bytes."
  echo "pub const SOUND_FILES: &[(&str, &[u8])] = &["
  for f in assets/sounds/*.ogg; do
    name=$(basename "$f" .ogg)
    echo "    (\"$name\", include_bytes!(\"../../assets/sounds/$name.ogg\")),"
  done
  echo "];"
} > src/app/sound_files.rs
ls -l assets/sounds | tail -n +2 | awk '{s+=$5} END {print NR " files, " s " bytes"}'
