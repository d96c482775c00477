"""Draw the web client's home-screen icons (web/icon-*.png, web/apple-touch-icon.png) with
Pillow: a mine on the client's accent blue. Run once after changing the drawing (``.venv/bin/python
tools/make-icons.py``) and commit the PNGs: the client has no build step, so the icons are
files, and this script is how they were made.

Android asks for 192 and 512 px icons and a maskable one (its launcher cuts any shape out of
it, so the mine keeps to the middle 60%, inside the 80% circle every mask leaves); iOS takes a
180 px ``apple-touch-icon`` with no transparency (it rounds the corners itself).
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parents[1] / "web"  # at the top: the local stack serves only there
ACCENT = (31, 79, 184, 255)  # --accent in style.css
MINE = (22, 26, 32, 255)
SHINE = (255, 255, 255, 255)
SCALE = 4  # drawn at four times the size, then shrunk: smooth edges


def mine(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A sea mine: a round body, eight spikes, a white glint."""
    spike = r * 1.45
    width = max(2, round(r * 0.22))
    for k in range(8):
        a = k * math.pi / 4
        draw.line(
            [
                (cx - spike * math.cos(a), cy - spike * math.sin(a)),
                (cx + spike * math.cos(a), cy + spike * math.sin(a)),
            ],
            fill=MINE,
            width=width,
        )
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=MINE)
    g = r * 0.28
    gx, gy = cx - r * 0.35, cy - r * 0.35
    draw.ellipse([gx - g, gy - g, gx + g, gy + g], fill=SHINE)


def icon(size: int, *, maskable: bool, rounded: bool) -> Image.Image:
    big = size * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if rounded:
        draw.rounded_rectangle([0, 0, big - 1, big - 1], radius=big * 0.18, fill=ACCENT)
    else:
        draw.rectangle([0, 0, big, big], fill=ACCENT)
    # A mine's spikes reach 1.45 r from the centre: 0.3 of the side for a maskable icon (within
    # its safe circle), 0.42 otherwise.
    reach = 0.30 if maskable else 0.40
    mine(draw, big / 2, big / 2, big * reach / 1.45)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    made = {
        "icon-192.png": icon(192, maskable=False, rounded=True),
        "icon-512.png": icon(512, maskable=False, rounded=True),
        "icon-maskable-192.png": icon(192, maskable=True, rounded=False),
        "icon-maskable-512.png": icon(512, maskable=True, rounded=False),
        "apple-touch-icon.png": icon(180, maskable=True, rounded=False).convert("RGB"),
    }
    for name, image in made.items():
        image.save(OUT / name, optimize=True)
        print(OUT / name, image.size)


if __name__ == "__main__":
    main()
