"""The table image of each game family, drawn from a public view (never from a state).

Rules sources: RULES.md §2.1–§2.5 (connecting games: one line, the closed end of a one-arm line,
face-down discards counted at the end) and §3 (the draw game: doubles crosswise, the stock, a
match to 100 or 50). Whatever is hidden in the view stays hidden here: face-down discards are
drawn as backs until the view itself reveals them at the deal's end.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from games.connecting import ConnectView
from games.domino import DominoView
from games.tiles import CHINESE, WESTERN, TileSet
from rendering import sprites
from rendering.canvas import (
    BOARD_WIDTH,
    FOOTER_HEIGHT,
    HEADER_HEIGHT,
    PAD,
    TEXT_SIZE,
    Seat,
    Table,
    footer,
    header,
    new_image,
    seat_box_height,
    seat_boxes,
)
from rendering.line import Slot, Snake, best_fit
from rendering.text import draw_text
from rendering.theme import Theme, theme
from rendering.words import Words, signed, words

FELT_MIN = 240
FELT_MAX = 720
MINI_TILE = 64
MINI_TILE_END = 84
"""Revealed discards are drawn larger than backs: their pips are counted."""
LINE_SIZES = tuple(range(150, 44, -6))
"""Tile lengths tried for the line, largest first."""

Placement = tuple[int, int, int, int]


def connecting_board(view: ConnectView, table: Table) -> Image.Image:
    look, say = theme(table.theme), words(table.lang)
    result = view.outcome
    seats = []
    for s in range(view.players):
        if result is not None:
            lines = [say.total.format(n=result.points[s])]
        else:
            lines = [say.hand.format(n=view.hand_counts[s]),
                     say.face_down.format(n=view.discard_counts[s])]
        lines.append(_standing(view, s, say))
        seats.append(Seat(
            name=_name(table, s), lines=tuple(x for x in lines if x),
            badge=say.head if s == view.leader else "",
            to_move=view.to_move == s,
            winner=result is not None and s in result.winners,
            tiles=tuple(_faces(CHINESE, t) for t in view.discards[s]),
            backs=view.discard_counts[s],
        ))
    cross = [False] * len(view.line)
    right = say.in_hands.format(n=sum(view.hand_counts))
    if view.match.deal:
        right = f"{say.deal.format(n=view.match.deal + 1)}   {right}"
    return _board(view.line, cross, "chinese", sprites.CHINESE_RATIO, seats, True, table, look,
                  say, right, closed=view.closed is not None, arms=len(view.ends) or view.arms)


def domino_board(view: DominoView, table: Table) -> Image.Image:
    look, say = theme(table.theme), words(table.lang)
    ended = view.outcome is not None
    target = view.options.target
    scores = view.match.totals(view.outcome)[0] if view.outcome else view.match.scores
    seats = []
    for s in range(view.players):
        lines = [say.hand.format(n=view.hand_counts[s]),
                 say.score.format(n=scores[s], target=target)]
        seats.append(Seat(
            name=_name(table, s), lines=tuple(lines),
            badge=say.head if s == view.leader else "",
            to_move=view.to_move == s,
            winner=ended and view.outcome is not None and s in view.outcome.winners,
            tiles=tuple(_faces(WESTERN, t) for t in view.revealed[s]) if ended else (),
        ))
    cross = [_is_double(p) for p in view.line]
    right = say.stock.format(n=view.stock)
    if view.match.deal:
        right = f"{say.deal.format(n=view.match.deal + 1)}   {right}"
    return _board(view.line, cross, "western", sprites.WESTERN_RATIO, seats, ended, table, look,
                  say, right, closed=False, arms=2)


def _board(line: tuple[Placement, ...], cross: list[bool], family: str, ratio: float,
           seats: list[Seat], with_tiles: bool, table: Table, look: Theme, say: Words,
           right: str, closed: bool, arms: int) -> Image.Image:
    seats_top = HEADER_HEIGHT + PAD
    mini = MINI_TILE_END if any(seat.tiles for seat in seats) else MINI_TILE
    seats_bottom = seats_top + seat_box_height(with_tiles, mini)
    snake = best_fit(cross, ratio, BOARD_WIDTH, FELT_MAX - 2 * PAD, PAD * 3, LINE_SIZES)
    felt_h = max(FELT_MIN, snake.height + 2 * PAD) if line else FELT_MIN
    felt_top = seats_bottom + PAD
    height = felt_top + felt_h + FOOTER_HEIGHT
    image = new_image((BOARD_WIDTH, height), look.table)
    draw = ImageDraw.Draw(image)
    header(draw, look, table.title, right, BOARD_WIDTH)
    draw.rectangle((0, HEADER_HEIGHT, BOARD_WIDTH, seats_bottom + PAD // 2),
                   fill=_shade(look.table, 0.78))
    seat_boxes(image, look, seats, seats_top, family, with_tiles, mini)
    if line:
        top = felt_top + (felt_h - snake.height) // 2
        _draw_line(image, look, line, snake, family, top, set(table.last), closed, arms)
    else:
        draw_text(draw, (BOARD_WIDTH // 2, felt_top + felt_h // 2), say.empty_line, TEXT_SIZE,
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
    elif arms == 2:
        _open_mark(draw, look, start, top, start=True)
    _open_mark(draw, look, snake.slots[len(line)], top, start=False)


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


def _standing(view: ConnectView, seat: int, say: Words) -> str:
    """The running match figure worth showing: tally points, or chips won and lost so far."""
    if view.options.settlement == "tally":
        return say.score.format(n=view.match.scores[seat], target=view.options.target)
    if view.match.deal:
        return say.chips.format(n=signed(view.match.chips[seat]))
    return ""


def _name(table: Table, seat: int) -> str:
    return table.names[seat] if seat < len(table.names) else f"#{seat + 1}"


def _faces(tiles: TileSet, tile: int) -> tuple[int, int]:
    return tiles.a[tile], tiles.b[tile]


def _is_double(placement: Placement) -> bool:
    return placement[1] == placement[2]


def _shade(colour: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return (round(colour[0] * t), round(colour[1] * t), round(colour[2] * t))
