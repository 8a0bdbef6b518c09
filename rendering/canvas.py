"""The parts every table image shares: the header, the seat boxes, the footer and PNG encoding.

DESIGN.md §7: opaque RGB, at most 1280 px on the long side. Text sizes are chosen for a phone,
where a 1280 px wide picture is shown at about the screen's width: nothing smaller than 22 px.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from rendering import sprites
from rendering.text import draw_text, fit, font, width
from rendering.theme import RGB, Theme

MAX_SIDE = 1280
BOARD_WIDTH = 1280
PAD = 16
TITLE_SIZE = 34
NAME_SIZE = 28
TEXT_SIZE = 24
SMALL_SIZE = 20
HEADER_HEIGHT = 64
FOOTER_HEIGHT = 58
PNG_LEVEL = 3
"""zlib level: the images are flat colour, so level 3 is nearly as small as 6 and much faster."""


@dataclass(frozen=True, slots=True)
class Frame:
    """What a board needs besides the view: words the caller has already translated."""

    title: str
    names: tuple[str, ...]
    footer: str = ""
    lang: str = "en"
    theme: str = "dark"
    last: tuple[int, ...] = ()
    """Tiles just played, outlined in gold."""
    notes: tuple[str, ...] = ()
    """One short note per seat for the deal-result card (clean, penalized, ...)."""
    stake: int = 1
    """Chips per unit at this table, so a pot is drawn in the chips the caption names."""


@dataclass(slots=True)
class SeatBox:
    """One seat box: name, up to two lines of facts, optional tiles, and how it stands out."""

    name: str
    lines: tuple[str, ...]
    badge: str = ""
    to_move: bool = False
    winner: bool = False
    tiles: tuple[tuple[int, int], ...] = ()
    """(first, second) faces to show, or an empty tuple."""
    backs: int = 0
    """Face-down tiles to show when `tiles` is empty."""


def encode(image: Image.Image) -> bytes:
    assert image.mode == "RGB" and max(image.size) <= MAX_SIDE, image.size
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=PNG_LEVEL)
    return out.getvalue()


def header(draw: ImageDraw.ImageDraw, look: Theme, title: str, right: str, width_: int) -> None:
    draw.rectangle((0, 0, width_, HEADER_HEIGHT), fill=look.panel)
    right_w = width(right, font(TEXT_SIZE)) if right else 0
    draw_text(draw, (PAD, HEADER_HEIGHT // 2), title, TITLE_SIZE, look.text,
              room=width_ - 3 * PAD - right_w, bold=True, anchor="lm")
    if right:
        draw_text(draw, (width_ - PAD, HEADER_HEIGHT // 2), right, TEXT_SIZE, look.muted,
                  anchor="rm")


def footer(draw: ImageDraw.ImageDraw, look: Theme, text: str, top: int, width_: int) -> None:
    draw.rectangle((0, top, width_, top + FOOTER_HEIGHT), fill=look.panel)
    if text:
        draw_text(draw, (PAD, top + FOOTER_HEIGHT // 2), text, TEXT_SIZE + 2, look.text,
                  room=width_ - 2 * PAD, anchor="lm")


LINE_GAP = 6
"""Between two rows of facts in a seat box."""
SEAT_GAP = 12
"""Between two seat boxes."""
SEAT_INSET = 14
"""From a seat box's edge to its text and tiles."""


def seat_box_height(with_tiles: bool, mini: int, rows: int = 1) -> int:
    facts = rows * TEXT_SIZE + (rows - 1) * LINE_GAP
    return 12 + NAME_SIZE + 10 + facts + 10 + (mini + 12 if with_tiles else 0)


def seat_boxes(image: Image.Image, look: Theme, seats: Sequence[SeatBox], top: int, family: str,
               with_tiles: bool, mini: int, rows: int = 1) -> int:
    """SeatBox boxes in one row below the header; returns the y just below them.

    With `rows` above one, facts that would not fit beside each other move to the next row
    instead of being cut off (four seats leave a box under 300 px).
    """
    count = len(seats)
    box_w = (image.width - PAD * 2 - SEAT_GAP * (count - 1)) // count
    for i, seat in enumerate(seats):
        seat_box(image, look, seat, (PAD + i * (box_w + SEAT_GAP), top), box_w, family,
                 with_tiles, mini, rows)
    return top + seat_box_height(with_tiles, mini, rows)


def seat_box(image: Image.Image, look: Theme, seat: SeatBox, at: tuple[int, int], box_w: int,
             family: str, with_tiles: bool, mini: int, rows: int = 1) -> None:
    """One seat box, on its own so a table of many seats can lay the boxes out in a grid."""
    draw = ImageDraw.Draw(image)
    x, top = at
    box_h = seat_box_height(with_tiles, mini, rows)
    fill = look.panel_hi if seat.to_move else look.panel
    outline = look.gold if seat.winner else look.accent if seat.to_move else None
    draw.rounded_rectangle((x, top, x + box_w, top + box_h), radius=14, fill=fill,
                           outline=outline, width=4 if outline else 0)
    inner = box_w - 2 * SEAT_INSET
    badge_w = 0
    if seat.badge:
        face = font(SMALL_SIZE, bold=True)
        label = fit(seat.badge, face, inner // 2)
        badge_w = width(label, face) + 18
        bx = x + box_w - SEAT_INSET - badge_w
        draw.rounded_rectangle((bx, top + 12, bx + badge_w, top + 12 + NAME_SIZE + 2),
                               radius=10, fill=look.gold)
        draw.text((bx + badge_w // 2, top + 13 + NAME_SIZE // 2), label, font=face,
                  fill=look.panel, anchor="mm")
    name = ("▶ " if seat.to_move else "★ " if seat.winner else "") + seat.name
    colour = look.gold if seat.winner else look.text
    draw_text(draw, (x + SEAT_INSET, top + 12), name, NAME_SIZE, colour,
              room=inner - badge_w - (8 if badge_w else 0), bold=True)
    line_y = top + 12 + NAME_SIZE + 10
    for row, text in enumerate(_wrap(seat.lines, inner, rows)):
        draw_text(draw, (x + SEAT_INSET, line_y + row * (TEXT_SIZE + LINE_GAP)), text, TEXT_SIZE,
                  look.muted, room=inner)
    if with_tiles:
        _mini_row(image, look, seat, (x + SEAT_INSET, seat_tiles_y(top, rows)), inner, mini, family)


def seat_tiles_y(top: int, rows: int = 1) -> int:
    """Where a seat box's row of tiles starts, for boards that draw that row themselves."""
    facts_h = rows * TEXT_SIZE + (rows - 1) * LINE_GAP
    return top + 12 + NAME_SIZE + 10 + facts_h + 12


def facts_fit(lines: Sequence[str], room: int) -> bool:
    """Whether a seat's facts fit side by side on one row of a box `room` px inside."""
    return len(_wrap(lines, room, len(lines) or 1)) <= 1


def _wrap(lines: Sequence[str], room: int, rows: int) -> list[str]:
    """Facts packed into at most `rows` rows, in order; the last row takes whatever is left."""
    face = font(TEXT_SIZE)
    packed: list[str] = []
    for fact in lines:
        if packed and (len(packed) == rows
                       or width(f"{packed[-1]}   {fact}", face) <= room):
            packed[-1] = f"{packed[-1]}   {fact}"
        else:
            packed.append(fact)
    return packed


def _mini_row(image: Image.Image, look: Theme, seat: SeatBox, at: tuple[int, int], room: int,
              height: int, family: str) -> None:
    count = len(seat.tiles) or seat.backs
    if not count:
        return
    w, _ = sprites.tile_size(family, height)
    step = min(w + 4, (room - w) // max(1, count - 1)) if count > 1 else w
    x, y = at
    for i in range(count):
        if seat.tiles:
            first, second = seat.tiles[i]
            sprite = sprites.face(family, first, second, height, look.name)
        else:
            sprite = sprites.back(family, height, look.name)
        image.paste(sprite, (x + i * step, y), sprite)


def dashed_box(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: RGB,
               line: int, dash: tuple[int, int]) -> None:
    """An empty place: Pillow has no dashed outline, so the four sides are drawn in dashes."""
    x0, y0, x1, y1 = box
    on, off = dash
    for a, b, fixed, horizontal in ((x0, x1, y0, True), (x0, x1, y1, True),
                                    (y0, y1, x0, False), (y0, y1, x1, False)):
        start = a
        while start < b:
            end = min(start + on, b)
            if horizontal:
                draw.line((start, fixed, end, fixed), fill=colour, width=line)
            else:
                draw.line((fixed, start, fixed, end), fill=colour, width=line)
            start = end + off


def new_image(size: tuple[int, int], colour: RGB) -> Image.Image:
    return Image.new("RGB", size, colour)
