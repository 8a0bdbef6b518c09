"""Tile faces and backs, drawn by us, supersampled once and cached.

Rules source: docs/rules-book.md §1.1 (colour: pips of 1 and 4 red, `[6:6]` half red, the rest white
on dark tiles or dark on light ones; `[3:3]` laid out on its own; no centre bar on Chinese tiles)
and §1.2 (double-six tiles: die layouts and a centre bar). Chinese tiles are portrait 1:2.5; twos
sit side by side at the tile's end. Every sprite is drawn at `SUPERSAMPLE` times its size and scaled
down once, so pips stay round at phone sizes, and kept in an LRU cache: a board is just pastes of
cached sprites.

A sprite is named by the number on its first end (top when portrait, left when lying), the
number on its second end, the height of the portrait tile in pixels, the theme, the state and
the orientation; that is all a board needs to draw any placement.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw

from games.tiles import WESTERN, TileSet
from rendering.text import font
from rendering.theme import RGB, Theme, theme

SUPERSAMPLE = 4
CHINESE_RATIO = 2.5
WESTERN_RATIO = 2.0
PHONE_WIDTH, PHONE_TEXT = 400, 9
"""A phone shows a picture this wide; text must keep this height there to be read."""

State = Literal["plain", "playable", "last", "selected", "dim"]
STATES: tuple[State, ...] = ("plain", "playable", "last", "selected", "dim")

Pip = tuple[float, float, float, bool]
"""(x, y, radius, red): x and radius in tile widths, y in tile heights, from the top left."""

# One half of a Chinese tile, top half, in (x of inner width, y of half height) fractions.
# The bottom half is the same pattern turned by 180°, as on real tiles.
_CHINESE_HALF: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.3), (0.73, 0.3)),
    3: ((0.22, 0.22), (0.5, 0.5), (0.78, 0.78)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.22, 0.22), (0.78, 0.22), (0.5, 0.5), (0.22, 0.78), (0.78, 0.78)),
    6: ((0.27, 0.2), (0.27, 0.5), (0.27, 0.8), (0.73, 0.2), (0.73, 0.5), (0.73, 0.8)),
}
_WESTERN_HALF: dict[int, tuple[tuple[float, float], ...]] = {
    0: (),
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.22), (0.25, 0.5), (0.25, 0.78), (0.75, 0.22), (0.75, 0.5), (0.75, 0.78)),
}
_MARGIN = 0.12
"""Inner margin, in tile widths, between the tile's edge and its pips."""


def chinese_pips(first: int, second: int) -> tuple[Pip, ...]:
    """Where the pips of a portrait Chinese tile go and which are red (tests sample these)."""
    inner = 1 - 2 * _MARGIN
    height = CHINESE_RATIO
    half = (height - 2 * _MARGIN) / 2
    pips: list[Pip] = []
    if first == second == 3:
        # Long threes: one diagonal run from corner to corner.
        for i in range(6):
            t = i / 5
            x = _MARGIN + inner * (0.2 + 0.6 * t)
            y = _MARGIN + 2 * half * (0.08 + 0.84 * t)
            pips.append((x, y / height, 0.1, False))
        return tuple(pips)
    for end, number in enumerate((first, second)):
        for fx, fy in _CHINESE_HALF[number]:
            red = number in (1, 4) or (first == second == 6 and fx < 0.5)
            if end == 1:
                fx, fy = 1 - fx, 1 - fy
            x = _MARGIN + inner * fx
            y = _MARGIN + half * (end + fy)
            radius = 0.19 if number == 1 else 0.1
            pips.append((x, y / height, radius, red))
    return tuple(pips)


def western_pips(first: int, second: int) -> tuple[Pip, ...]:
    inner = 1 - 2 * _MARGIN
    pips: list[Pip] = []
    for end, number in enumerate((first, second)):
        for fx, fy in _WESTERN_HALF[number]:
            if end == 1:
                fx, fy = 1 - fx, 1 - fy
            x = _MARGIN + inner * fx
            y = end + _MARGIN + inner * fy
            pips.append((x, y / WESTERN_RATIO, 0.095, False))
    return tuple(pips)


def family_of(tiles: TileSet) -> str:
    """Which sprites a tile set is drawn with: "western" for double-six, else "chinese"."""
    return "western" if tiles.name == WESTERN.name else "chinese"


def tile_size(family: str, height: int, horizontal: bool = False) -> tuple[int, int]:
    ratio = CHINESE_RATIO if family == "chinese" else WESTERN_RATIO
    w, h = round(height / ratio), height
    return (h, w) if horizontal else (w, h)


@lru_cache(maxsize=4096)
def face(family: str, first: int, second: int, height: int, theme_name: str = "dark",
         state: State = "plain", horizontal: bool = False) -> Image.Image:
    """An RGBA tile face. `family` is "chinese" or "western". Callers must not modify it.

    A lying tile is its standing sprite turned, and a dimmed one its plain sprite veiled,
    pixel for pixel what drawing them anew gave: a line draws its doubles standing and the
    rest lying, so each look of a tile is drawn at four times its size once, not twice."""
    upright = _upright(family, first, second, height, theme_name, state)
    return upright.transpose(Image.Transpose.ROTATE_90) if horizontal else upright


@lru_cache(maxsize=4096)
def _upright(family: str, first: int, second: int, height: int, theme_name: str,
             state: State) -> Image.Image:
    if state == "dim":  # the plain slab and pips under a veil (`_body` rings no dim tile)
        return _finish_dim(_upright(family, first, second, height, theme_name, "plain"))
    look = theme(theme_name)
    chinese = family == "chinese"
    w, h = tile_size(family, height)
    big = Image.new("RGBA", (w * SUPERSAMPLE, h * SUPERSAMPLE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    unit = w * SUPERSAMPLE
    body = look.face if chinese else look.western_face
    _body(draw, big.size, body, look.edge, state, look)
    if chinese:
        pips = chinese_pips(first, second)
        ink = look.pip
    else:
        pips = western_pips(first, second)
        ink = look.western_pip
        y = big.size[1] // 2
        bar = max(1, unit // 28)
        draw.line((unit * 0.16, y, unit * 0.84, y), fill=_mix(body, ink, 0.6), width=bar * 2)
    for x, y_frac, radius, red in pips:
        cx, cy, r = x * unit, y_frac * big.size[1], radius * unit
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=look.red if red else ink)
    return _finish(big, (w, h), state, False)


@lru_cache(maxsize=256)
def back(family: str, height: int, theme_name: str = "dark", state: State = "plain",
         horizontal: bool = False) -> Image.Image:
    """A face-down tile."""
    look = theme(theme_name)
    w, h = tile_size(family, height)
    big = Image.new("RGBA", (w * SUPERSAMPLE, h * SUPERSAMPLE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    _body(draw, big.size, look.back, _mix(look.back, (0, 0, 0), 0.4), state, look)
    bw, bh = big.size
    inset = bw * 0.2
    draw.rounded_rectangle((inset, inset, bw - inset, bh - inset), radius=bw * 0.1,
                           outline=look.back_mark, width=max(1, bw // 22))
    cx, cy, r = bw / 2, bh / 2, bw * 0.16
    draw.polygon(((cx, cy - r * 1.6), (cx + r, cy), (cx, cy + r * 1.6), (cx - r, cy)),
                 fill=look.back_mark)
    return _finish(big, (w, h), state, horizontal)


def worth_badge(image: Image.Image, at: tuple[int, int], width: int, value: int,
                theme_name: str = "dark") -> None:
    """What a tile counts, where its game counts it other than its pips (Kap's `[4:2]` counts
    3): a gold disc with the number on the tile's upper corner, pasted over a tile `width` px
    wide at `at`. Every picture that draws such a tile marks it so, so the pips in sight
    never mislead a count. The number is never smaller than a phone can read once it shows
    the picture 400 px wide (8 px there, docs/architecture.md §7), even on a tile smaller
    than the disc."""
    look = theme(theme_name)
    size = max(round(width * 0.3), -(-image.width * PHONE_TEXT // PHONE_WIDTH))
    r = round(size * 0.8)
    cx, cy = at[0] + width - r + 2, at[1] + r - 2
    draw = ImageDraw.Draw(image)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=look.gold, outline=look.table,
                 width=max(1, r // 6))
    draw.text((cx, cy), str(value), font=font(size, bold=True), fill=look.table, anchor="mm")


def _body(draw: ImageDraw.ImageDraw, size: tuple[int, int], fill: RGB, edge: RGB, state: State,
          look: Theme) -> None:
    """The tile's slab: a thicker lower edge so it reads as an object on the felt, or a coloured
    ring when the tile is playable, just played or selected."""
    w, h = size
    radius = w * 0.16
    ring = {"playable": look.good, "last": look.gold, "selected": look.select}.get(state)
    pad = max(2, w // 11) if ring else max(1, w // 34)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=ring or edge)
    bottom = pad if ring else pad * 3
    draw.rounded_rectangle((pad, pad, w - 1 - pad, h - 1 - bottom), radius=radius - pad,
                           fill=fill)


def _finish(big: Image.Image, size: tuple[int, int], state: State, horizontal: bool
            ) -> Image.Image:
    small = big.resize(size, Image.Resampling.LANCZOS)
    if state == "dim":
        small = _finish_dim(small)
    if horizontal:
        small = small.transpose(Image.Transpose.ROTATE_90)
    return small


def _finish_dim(small: Image.Image) -> Image.Image:
    """A sprite under a dark veil, where the sprite is (not the felt around its corners)."""
    veil = Image.new("RGBA", small.size, (0, 0, 0, 120))
    return Image.alpha_composite(small, Image.composite(
        veil, Image.new("RGBA", small.size, (0, 0, 0, 0)), small.getchannel("A")))


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))
