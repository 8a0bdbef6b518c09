"""A line of tiles on the felt between the seat boxes and the footer: the picture every line
game draws (its seats and words come from its home).

Rules source: docs/rules-book.md §2.1 (one line, one or two open ends, the closed end of a one-arm
line) and §3 (the draw game lays doubles crosswise).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from rendering import sprites
from rendering.canvas import (
    BOARD_WIDTH,
    MAX_SIDE,
    PAD,
    TEXT_SIZE,
    Frame,
    SeatBox,
    draw_seats,
    footer,
    footer_height,
    header,
    header_height,
    new_image,
    seat_columns,
    seat_grid,
)
from rendering.line import Slot, Snake, best_fit
from rendering.text import draw_text, font
from rendering.theme import Theme

FELT_MIN = 160
FELT_MAX = 900
MINI_TILE = {"chinese": 64, "western": 52}
"""Face-down discards in a seat box: 25-26 px across, 12 or more on a phone."""
MINI_TILE_END = {"chinese": 80, "western": 64}
"""Revealed discards are drawn larger than backs: their pips are counted."""
LINE_SIZES = tuple(range(130, 59, -4))
"""Tile lengths tried for the line, largest first; the shortest keeps a tile 24 px across."""

BADGE_RADIUS = 18
"""The open-number badges at the ends of a two-arm line: 9 px at a phone's width."""

Placement = tuple[int, int, int, int]
"""(tile, left face, right face, seat) as the line games' views hold their line."""


def line_board(line: tuple[Placement, ...], cross: list[bool], family: str, ratio: float,
               seats: list[SeatBox], with_tiles: bool, table: Frame, look: Theme, empty: str,
               right: str, closed: bool, arms: int) -> Image.Image:
    """The board of a line game: `cross` marks the doubles laid crosswise, `empty` is said on
    the felt before the first tile, `right` is the header's right-hand words."""
    head = header_height(table.title, right, BOARD_WIDTH)
    mini = (MINI_TILE_END if any(seat.tiles for seat in seats) else MINI_TILE)[family]
    shown = with_tiles and any(seat.tiles or seat.backs for seat in seats)
    grid = seat_grid(seats, head + PAD, seat_columns(len(seats)), mini if shown else 0)
    felt_top = grid.bottom + PAD
    foot = footer_height(table.footer, BOARD_WIDTH)
    room = min(FELT_MAX, MAX_SIDE - felt_top - foot) - 2 * PAD
    snake = best_fit(cross, ratio, BOARD_WIDTH, room, PAD * 3, LINE_SIZES)
    felt_h = max(FELT_MIN, snake.height + 2 * PAD) if line else FELT_MIN
    height = felt_top + felt_h + foot
    image = new_image((BOARD_WIDTH, height), look.table)
    draw = ImageDraw.Draw(image)
    header(draw, look, table.title, right, BOARD_WIDTH)
    draw.rectangle((0, head, BOARD_WIDTH, grid.bottom + PAD // 2), fill=_shade(look.table, 0.78))
    draw_seats(image, look, seats, grid, family)
    if line:
        top = felt_top + (felt_h - snake.height) // 2
        _draw_line(image, look, line, snake, family, top, set(table.last), closed, arms)
    else:
        draw_text(draw, (BOARD_WIDTH // 2, felt_top + felt_h // 2), empty, TEXT_SIZE,
                  _shade(look.text, 0.7), anchor="mm")
    footer(draw, look, table.footer, felt_top + felt_h, BOARD_WIDTH)
    return image


def _draw_line(image: Image.Image, look: Theme, line: tuple[Placement, ...], snake: Snake,
               family: str, top: int, last: set[int], closed: bool, arms: int) -> None:
    long = snake.long
    for (tile, left, right, _seat), slot in zip(line, snake.slots, strict=False):
        state: sprites.State = "last" if tile in last else "plain"
        if slot.horizontal:
            first, second = (left, right) if slot.forward else (right, left)
            sprite = sprites.face(family, first, second, long, look.name, state, True)
        else:
            sprite = sprites.face(family, left, right, long, look.name, state)
        image.paste(sprite, (slot.x, top + slot.y), sprite)
    draw = ImageDraw.Draw(image)
    start = snake.slots[0]
    if closed:
        _closed_mark(draw, look, start, top)
        _open_mark(draw, look, snake.slots[len(line)], top, start=False)
    elif arms == 2:
        _end_badge(draw, look, start, top, line[0][1], start=True)
        _end_badge(draw, look, snake.slots[len(line)], top, line[-1][2], start=False)
    else:
        _open_mark(draw, look, snake.slots[len(line)], top, start=False)


def _end_badge(draw: ImageDraw.ImageDraw, look: Theme, slot: Slot, top: int, number: int,
               start: bool) -> None:
    """A round badge with the open number, where the line really ends: left of the first tile
    (the first row always runs rightwards), or in the slot the next tile at the other end
    would take, which is left of the last tile when a wrapped line ends on a leftward row.

    The badge shows a number, not an arrow, because an arrow at the end of a leftward row
    would point back into the line; the buttons and the words name an end by this number.
    """
    side = min(slot.w, slot.h)
    radius = min(BADGE_RADIUS, max(12, side // 2))
    cy = top + slot.y + slot.h // 2
    if start:
        cx = slot.x - 6 - radius
    else:
        # The slot is as long as a tile: the badge keeps to its side that touches the line.
        cx = slot.x + side // 2 if slot.forward else slot.x + slot.w - side // 2
    draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=look.accent,
                 outline=look.panel, width=2)
    draw.text((cx, cy), str(number), font=font(TEXT_SIZE, bold=True), fill=look.panel,
              anchor="mm")


def _open_mark(draw: ImageDraw.ImageDraw, look: Theme, slot: Slot, top: int, start: bool
               ) -> None:
    """An arrow pointing away from the line at an open end.

    The start mark sits left of the first tile; the end mark sits in the slot the next tile
    would take, pointing the way the line travels there.
    """
    size = max(10, min(slot.w, slot.h) // 3)
    cy = top + slot.y + slot.h // 2
    if start:
        base = slot.x - 6
        points = [(base, cy - size), (base, cy + size), (base - size, cy)]
    elif slot.turn:
        cx, y = slot.x + slot.w // 2, top + slot.y + 4
        points = [(cx - size, y), (cx + size, y), (cx, y + size)]
    elif slot.forward:
        base = slot.x + 2
        points = [(base, cy - size), (base, cy + size), (base + size, cy)]
    else:
        base = slot.x + slot.w - 2
        points = [(base, cy - size), (base, cy + size), (base - size, cy)]
    draw.polygon(points, fill=look.accent)


def _closed_mark(draw: ImageDraw.ImageDraw, look: Theme, slot: Slot, top: int) -> None:
    """A red stop bar against the closed end of a one-arm line."""
    thick = max(6, slot.h // 7)
    x = slot.x - thick - 6
    draw.rounded_rectangle((x, top + slot.y - 4, x + thick, top + slot.y + slot.h + 4),
                           radius=thick // 2, fill=look.bad)


def _shade(colour: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return (round(colour[0] * t), round(colour[1] * t), round(colour[2] * t))
