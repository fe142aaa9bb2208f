"""The look shared by every board picture: sizes, colours and the shipped fonts.

Fonts come from `fonts/` inside the package (DejaVu, see its licence file), never
from the system, so the pixels do not depend on the machine.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from PIL import ImageColor, ImageFont

CELL = 48  # pixels per square in the final image
SUPERSAMPLE = 4  # shapes are drawn this many times larger, then scaled down (smooth edges)
MARGIN = 22  # room for the coordinates around the board

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSansCondensed-Bold.ttf"

Colour = tuple[int, int, int]

BACKGROUND: Colour = (246, 244, 238)
FLOOR: Colour = (206, 208, 204)
FLOOR_EDGE: Colour = (170, 173, 168)
FLOOR_SHINE: Colour = (222, 224, 220)
INK: Colour = (34, 36, 40)
WALL: Colour = (52, 54, 60)
FENCE: Colour = (250, 200, 30)
FENCE_SPARK: Colour = (40, 40, 40)
PIT: Colour = (18, 18, 22)
PIT_RIM: Colour = (92, 88, 84)
STEEL: Colour = (128, 134, 142)
STEEL_LIGHT: Colour = (176, 182, 190)
STEEL_DARK: Colour = (80, 84, 92)
WOOD: Colour = (150, 100, 52)
WOOD_DARK: Colour = (100, 64, 30)
BELT: Colour = (236, 196, 74)
BELT_ARROW: Colour = (120, 86, 10)
EXPRESS: Colour = (70, 130, 210)
EXPRESS_ARROW: Colour = (240, 248, 255)
LASER_TURRET: Colour = (40, 90, 200)
BLASER_TURRET: Colour = (200, 30, 30)
BEAM: Colour = (240, 30, 30)
ON_GREEN: Colour = (40, 210, 70)
OFF_RED: Colour = (200, 40, 40)
PRESSURE: Colour = (30, 150, 60)
TOGGLE: Colour = (190, 40, 40)
WRENCH_BG: Colour = (60, 160, 80)
ARMOURY_BG: Colour = (190, 50, 50)
COMPUTER_BG: Colour = (40, 90, 190)
GEAR_RIGHT: Colour = (50, 160, 70)   # clockwise, as on the RoboRally boards
GEAR_LEFT: Colour = (200, 60, 50)    # counter-clockwise
GEAR_HALF: Colour = (130, 70, 180)
CRUSHER: Colour = (110, 110, 118)
FLAG: Colour = (230, 40, 40)
START: Colour = (70, 80, 96)
DIM: Colour = (150, 150, 150)

# Owner colours, given to owners in name order (see `owner_colours`).
OWNER_PALETTE: tuple[Colour, ...] = (
    (30, 110, 230), (230, 120, 20), (150, 60, 200), (20, 160, 150),
    (220, 50, 130), (110, 150, 20), (120, 80, 40), (90, 90, 100),
)

# Teleporter colours that are not CSS colour names.
EXTRA_COLOURS: dict[str, Colour] = {"amber": (255, 176, 0), "jade": (0, 168, 107), "ruby": (200, 16, 70)}


@lru_cache(maxsize=64)
@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu face at `size` pixels (loaded once per size: reading the file is the slow part)."""
    return ImageFont.truetype(str(FONT_DIR / (BOLD if bold else REGULAR)), size)


def named_colour(name: str) -> Colour:
    """A teleporter's colour word as RGB; unknown words get a fixed colour from their hash."""
    word = str(name).strip().lower()
    if word in EXTRA_COLOURS:
        return EXTRA_COLOURS[word]
    try:
        return ImageColor.getrgb(word)[:3]
    except ValueError:
        digest = hashlib.blake2b(word.encode(), digest_size=3).digest()
        return tuple(64 + b * 3 // 4 for b in digest)  # type: ignore[return-value]


def owner_colours(owners: list[str]) -> dict[str, Colour]:
    """Each owner's colour: owners sorted by name take the palette in order (then it repeats)."""
    return {owner: OWNER_PALETTE[i % len(OWNER_PALETTE)] for i, owner in enumerate(sorted(set(owners)))}


def shade(colour: Colour, factor: float) -> Colour:
    """Darker (< 1) or lighter (> 1) version of a colour."""
    if factor <= 1:
        return tuple(int(c * factor) for c in colour)  # type: ignore[return-value]
    return tuple(int(c + (255 - c) * (factor - 1)) for c in colour)  # type: ignore[return-value]


def fit_lines(text: str, font: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """`text` broken at spaces into lines no wider than `width` pixels in `font` (a longer word stays whole)."""
    lines: list[str] = []
    for word in text.split():
        if lines and font.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]
