#!/usr/bin/env bash
# Rebuilds assets/fonts/*.ttf: egui's Ubuntu Light and Hack (from the epaint_default_fonts 0.36.2
# crate, fetched through cargo) cut down to the characters a player can meet in Stoneyard, renamed as their
# licences ask of modified versions. Needs fonttools (`pip install fonttools`); run by hand, the
# build only reads the results. The full fonts are 671 kB; the subsets about 130 kB.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A throwaway crate that depends on it, vendored: cargo fetches through the configured registry.
mkdir -p "$work/src" && touch "$work/src/lib.rs"
printf '[package]\nname = "fonts"\nversion = "0.0.0"\nedition = "2024"\n[dependencies]\nepaint_default_fonts = "=0.36.2"\n' >"$work/Cargo.toml"
(cd "$work" && cargo vendor --quiet vendor >/dev/null)
src="$work/vendor/epaint_default_fonts/fonts"
# ASCII, Latin-1 and Latin Extended-A (names typed for saves), general punctuation, super- and
# subscripts, the euro and trade mark signs, arrows, mathematical operators, geometric shapes.
unicodes="U+0020-007E,U+00A0-017F,U+2000-206F,U+2070-209F,U+20AC,U+2122,U+2190-21FF,U+2200-22FF,U+25A0-25FF"
subset() { # source file, output, family name[, characters]
  # Without hinting instructions: egui's rasterizer (skrifa) hints them itself.
  pyftsubset "$1" --unicodes="${4:-$unicodes}" --layout-features='*' --no-hinting --output-file="$2"
  python3 - "$2" "$3" <<'PY'
import sys
from fontTools.ttLib import TTFont
path, family = sys.argv[1], sys.argv[2]
font = TTFont(path, recalcTimestamp=False)
names = font["name"]
for record in list(names.names):
    if record.nameID in (1, 3, 4, 6, 16, 17, 18, 21, 22):
        names.removeNames(nameID=record.nameID)
postscript = family.replace(" ", "")
for name_id, value in ((1, family), (3, family + " 2026"), (4, family), (6, postscript)):
    names.setName(value, name_id, 3, 1, 0x409)
    names.setName(value, name_id, 1, 0, 0)
font.save(path)
PY
}
# The Ubuntu Font Licence asks a modified version that is not substantially changed to keep the
# name and add "derivative X"; the Bitstream Vera licence (Hack's base) asks for a name without
# "Bitstream" or "Vera".
subset "$src/Ubuntu-Light.ttf" assets/fonts/UbuntuLight-derivative-Stoneyard.ttf "Ubuntu Light derivative Stoneyard"
subset "$src/Hack-Regular.ttf" assets/fonts/Hack-Stoneyard.ttf "Hack Stoneyard"
# The chess figures of Hidden Intention: DejaVu Sans's twelve chess symbols (Debian's
# fonts-dejavu-core; Bitstream Vera licence, DejaVu's changes in the public domain).
dejavu=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
[ -f "$dejavu" ] || { echo "install fonts-dejavu-core for $dejavu" >&2; exit 1; }
subset "$dejavu" assets/fonts/ChessFigures-Stoneyard.ttf "Chess Figures Stoneyard" "U+2654-265F"
install -m 644 "$src/UFL.txt" assets/fonts/UFL.txt
install -m 644 "$src/Hack-Regular.txt" assets/fonts/Hack-LICENSE.txt
install -m 644 /usr/share/doc/fonts-dejavu-core/copyright assets/fonts/DejaVu-LICENSE.txt
ls -l assets/fonts
