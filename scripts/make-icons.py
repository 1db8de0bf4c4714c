#!/usr/bin/env python3
"""Draws the browser build's icons (web/icons/*.png): a wooden board with a 3x3 grid and a black,
a white and a red stone. Deterministic: the same Pillow gives the same files.

    python3 scripts/make-icons.py        (needs Pillow: apt install python3-pil, or pip install Pillow)
"""
from pathlib import Path

from PIL import Image, ImageDraw

WOOD = "#dec8a0"
GRAIN = "#c89a5a"
BLACK = "#281e14"
WHITE = "#fbf3e2"
RED = "#b02a1a"
# Drawn this many times larger, then scaled down: smooth edges without antialiasing support in ImageDraw.
SUPER = 4

OUT = Path(__file__).resolve().parent.parent / "web" / "icons"


def icon(size: int, maskable: bool) -> Image.Image:
    s = size * SUPER
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if maskable:
        # Full bleed: the launcher cuts its own shape out of the whole square.
        d.rectangle([0, 0, s, s], fill=WOOD)
        # Everything that matters inside the safe zone (a circle of 40% of the size around the centre).
        k = 0.74
    else:
        d.rounded_rectangle([0, 0, s - 1, s - 1], radius=round(0.18 * s), fill=WOOD, outline=GRAIN,
                            width=round(0.03 * s))
        k = 1.0
    c = s / 2
    step = 0.28 * s * k  # between grid lines
    line = max(SUPER, round(0.035 * s * k))
    radius = 0.115 * s * k
    points = [c - step, c, c + step]
    half = line / 2
    lo, hi = points[0] - half, points[2] + half  # square corners where the lines meet
    for p in points:
        d.rectangle([lo, p - half, hi, p + half], fill=GRAIN)
        d.rectangle([p - half, lo, p + half, hi], fill=GRAIN)
    # White top left, black in the middle, red bottom right: a diagonal that reads at 16 px too.
    for (x, y), colour in (((0, 0), WHITE), ((1, 1), BLACK), ((2, 2), RED)):
        cx, cy = points[x], points[y]
        # The white stone needs a dark rim to stand out from the light wood.
        rim = BLACK if colour == WHITE else None
        d.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], fill=colour, outline=rim,
                  width=round(0.018 * s * k) if rim else 0)
    return img.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in (("icon-192", 192, False), ("icon-512", 512, False),
                                 ("maskable-512", 512, True)):
        path = OUT / f"{name}.png"
        img = icon(size, maskable)
        if maskable:
            img = img.convert("RGB")  # no transparency: launchers show the whole square
        img.save(path, optimize=True)
        print(f"{path.relative_to(OUT.parent.parent)}: {size}x{size}, {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
