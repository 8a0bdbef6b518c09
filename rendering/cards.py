"""The deal-result card and the leaderboard card, from rows the caller has put into words.

The result card shows each seat's points in the game's own terms, the chips it won or paid and
the match standing after the deal (the home of the game says what the points count and how they
are written); the winner's row is gold. The leaderboard shows balances as they are, below zero
included (docs/architecture.md §6). The words come from the catalogue.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from PIL import Image, ImageDraw

from rendering import sprites
from rendering.canvas import (
    HEADER_HEIGHT,
    MAX_SIDE,
    NAME_SIZE,
    PAD,
    TEXT_SIZE,
    Frame,
    header,
    header_height,
    new_image,
    team_edge,
    wrap,
)
from rendering.text import draw_text, fit, font, printable, width
from rendering.theme import Theme, theme
from words.i18n import signed, tr

CARD_WIDTH = 800
NAME_ROOM = CARD_WIDTH - 330 - 2 * PAD - 120
"""The name column of a result row: up to the points, less the widest points written."""
ROW_HEIGHT = 58
"""A row's height while the card fits the platform limit; twenty seats squeeze it a little."""
COLUMNS_HEIGHT = 48


class Standing(Protocol):
    """One leaderboard row (storage's `Standing` is one)."""

    @property
    def rank(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def balance(self) -> int: ...
    @property
    def games(self) -> int: ...


class ResultRow(NamedTuple):
    """One seat's row on the result card."""

    won: bool
    name: str
    points: str
    """As the game writes them."""
    chips: int | None
    """Won or paid (None: played for nothing)."""
    match: str
    """The match after the deal."""
    note: str = ""
    """What explains the points (clean, with a discard): drawn whole after the name, which is
    shortened for it."""
    team: int | None = None
    """The partnership the seat played for, marked by its colour (None: for itself)."""


def result_card(rows: Sequence[ResultRow], columns: tuple[str, str, str, str], frame: Frame,
                tiles: Sequence[Sequence[tuple[int, int]]] = (), family: str = "chinese",
                worth: Sequence[Sequence[int | None]] = ()) -> Image.Image:
    """One row per seat under the four column heads (player, points, chips, match). `tiles`
    gives, per row, the faces the deal revealed for that seat (its face-down discards, the hand
    left over, the winning hand), drawn under the row's words so the points can be checked;
    `worth`, per row and tile, what a tile counts where that is not its pips (else None)."""
    look = theme(frame.theme)
    head = header_height(frame.title, "", CARD_WIDTH)
    shown = [tuple(tiles[i]) if i < len(tiles) else () for i in range(len(rows))]
    band, tile_hs = tile_rows([len(t) for t in shown], family, head)
    heights = [band + (h + TILE_ROW_GAP if h else 0) for h in tile_hs]
    image = new_image((CARD_WIDTH, head + PAD + COLUMNS_HEIGHT + sum(heights) + PAD), look.table)
    draw = ImageDraw.Draw(image)
    header(draw, look, frame.title, "", CARD_WIDTH)
    xs = _columns(draw, look, columns, head=head)
    top = head + PAD + COLUMNS_HEIGHT
    for i, (won, name, points, delta, total, note, team) in enumerate(rows):
        _band(draw, look, (top, top + heights[i]), won, i)
        if team is not None:
            team_edge(draw, look, team, (PAD, top + 3, heights[i] - 6))
        y = top + band // 2
        _name(draw, (xs[0], y), ("★ " if won else "") + name, look.gold if won else look.text,
              NAME_ROOM, won, note)
        draw_text(draw, (xs[1], y), points, NAME_SIZE, look.text, anchor="rm")
        if delta is None:
            draw_text(draw, (xs[2], y), "—", NAME_SIZE, look.muted, anchor="rm")
        else:
            colour = look.good if delta > 0 else look.bad if delta < 0 else look.muted
            draw_text(draw, (xs[2], y), signed(delta), NAME_SIZE, colour, bold=True,
                      anchor="rm")
        draw_text(draw, (xs[3], y), total, NAME_SIZE, look.muted, anchor="rm")
        if shown[i]:
            _tile_row(image, look, shown[i], family, (xs[0], top + band - 4), tile_hs[i],
                      worth[i] if i < len(worth) else ())
        top += heights[i]
    return image


REVEALED_MOST = {"chinese": 110, "western": 88}
"""Height of a revealed tile on a result row where the card has room: 44 px across, 22 on a
phone, so the pips the points count can be counted there."""
REVEALED_LEAST = {"chinese": 64, "western": 52}
"""The height a row of revealed tiles keeps at the least (25-26 px across, 12 or more on a
phone): a longer row overlaps its tiles instead."""
TILE_ROW_GAP = 10
TILE_ROOM = CARD_WIDTH - 4 * PAD
"""A row of revealed tiles, from the name's column to the card's inner edge."""
TILE_STEP = 4
BAND_LEAST = 50
"""The words' band keeps this height at the least, two smaller lines of a long name."""


def tile_rows(counts: Sequence[int], family: str, head: int) -> tuple[int, list[int]]:
    """The words' band of every row and each row's tile height (0: no tiles). Tiles take the
    largest height at which the card stays within the platform's limit with every band
    readable, and a row with more tiles than it holds side by side a smaller one, down to
    `REVEALED_LEAST` (then they overlap)."""
    least, most = REVEALED_LEAST[family], REVEALED_MOST[family]

    def rows_at(card: int) -> tuple[int, list[int]]:
        heights = [_row_tile_height(family, n, least, card) for n in counts]
        room = MAX_SIDE - head - 2 * PAD - COLUMNS_HEIGHT - sum(
            h + TILE_ROW_GAP for h in heights if h)
        return min(ROW_HEIGHT, room // max(1, len(counts))), heights

    for card in range(most, least, -2):
        band, heights = rows_at(card)
        if band >= BAND_LEAST:
            return band, heights
    return rows_at(least)


def _row_tile_height(family: str, count: int, least: int, most: int) -> int:
    """The largest height up to `most` at which `count` tiles fit the row side by side."""
    if not count:
        return 0
    for height in range(most, least - 1, -2):
        w, _ = sprites.tile_size(family, height)
        if count * (w + TILE_STEP) - TILE_STEP <= TILE_ROOM:
            return height
    return least


def _tile_row(image: Image.Image, look: Theme, faces: Sequence[tuple[int, int]], family: str,
              at: tuple[int, int], height: int, worth: Sequence[int | None] = ()) -> None:
    """Faces side by side, overlapping a little when there are more than the row holds."""
    w, _ = sprites.tile_size(family, height)
    room = CARD_WIDTH - 2 * PAD - at[0]
    step = min(w + TILE_STEP, (room - w) // max(1, len(faces) - 1)) if len(faces) > 1 else w
    for i, (first, second) in enumerate(faces):
        sprite = sprites.face(family, first, second, height, look.name)
        image.paste(sprite, (at[0] + i * step, at[1]), sprite)
        value = worth[i] if i < len(worth) else None
        if value is not None:
            sprites.worth_badge(image, (at[0] + i * step, at[1]), w, value, look.name)


def _band(draw: ImageDraw.ImageDraw, look: Theme, span: tuple[int, int], highlight: bool,
          index: int) -> None:
    fill = look.panel_hi if highlight else look.panel if index % 2 == 0 else _lift(look.panel)
    draw.rounded_rectangle((PAD, span[0] + 3, CARD_WIDTH - PAD, span[1] - 3), radius=10,
                           fill=fill, outline=look.gold if highlight else None,
                           width=3 if highlight else 0)


def leaderboard_card(rows: Sequence[Standing], frame: Frame, won: bool = False
                     ) -> Image.Image:
    """One page of a leaderboard. `won`: a season's, whose chips are those won in it, a gain
    with its sign as a loss has one."""
    lang = frame.lang
    look = theme(frame.theme)
    image = new_image((CARD_WIDTH, _card_height(max(1, len(rows)))), look.table)
    draw = ImageDraw.Draw(image)
    header(draw, look, frame.title, "", CARD_WIDTH)
    columns = tuple(tr(lang, key) for key in ("img.rank", "img.player",
                                            "img.won" if won else "img.balance", "img.games"))
    xs = _columns(draw, look, columns, leaderboard=True)
    if not rows:
        draw_text(draw, (CARD_WIDTH // 2, _row(draw, look, 0, False, 1)), tr(lang, "img.nobody"),
                  TEXT_SIZE, look.muted, anchor="mm")
    for i, row in enumerate(rows):
        y = _row(draw, look, i, row.rank == 1, len(rows))
        draw_text(draw, (xs[0], y), str(row.rank), NAME_SIZE, look.gold if row.rank == 1
                  else look.muted, bold=True, anchor="lm")
        _name(draw, (xs[1], y), row.name, look.text, xs[2] - xs[1] - 130, False)
        colour = look.bad if row.balance < 0 else look.good if won and row.balance > 0 \
            else look.text
        shown = signed(row.balance) if row.balance < 0 or won else str(row.balance)
        draw_text(draw, (xs[2], y), shown, NAME_SIZE, colour, bold=True, anchor="rm")
        draw_text(draw, (xs[3], y), str(row.games), NAME_SIZE, look.muted, anchor="rm")
    return image


def _name(draw: ImageDraw.ImageDraw, at: tuple[int, int], name: str, colour: tuple[int, int, int],
          room: int, bold: bool, note: str = "") -> None:
    x, y = at
    size, lines = name_lines(name, note, room, bold)
    if size == NAME_SIZE:
        draw_text(draw, (x, y), lines[0], NAME_SIZE, colour, bold=bold, anchor="lm")
        return
    top = y - (len(lines) * (TEXT_SIZE + 2)) // 2
    for i, line in enumerate(lines):
        draw_text(draw, (x, top + i * (TEXT_SIZE + 2)), line, TEXT_SIZE, colour, bold=bold)


def name_lines(name: str, note: str, room: int, bold: bool) -> tuple[int, list[str]]:
    """A name and its note as a row draws them: (text size, lines). One line when both fit,
    else two smaller lines; a name too long even for those is shortened (the note explains the
    points, so it is never cut), and a note with no room left beside the name gets the second
    line to itself."""
    name = printable(name)
    tail = f" · {note}" if note else ""
    if width(name + tail, font(NAME_SIZE, bold)) <= room:
        return NAME_SIZE, [name + tail]
    face = font(TEXT_SIZE, bold)
    lines = wrap(name, face, (room, room - width(tail, face)), 2)
    if width(lines[-1] + tail, face) <= room:
        lines[-1] += tail
    elif len(lines) == 1:
        lines.append(note)
    else:  # the name's first line took less than the room, the second more than it leaves
        lines[-1] = fit(lines[-1], face, room - width(tail, face)) + tail
    return TEXT_SIZE, lines


def _card_height(rows: int) -> int:
    return HEADER_HEIGHT + PAD + COLUMNS_HEIGHT + rows * _row_height(rows) + PAD


def _row_height(rows: int) -> int:
    room = MAX_SIDE - HEADER_HEIGHT - 2 * PAD - COLUMNS_HEIGHT
    return min(ROW_HEIGHT, room // max(1, rows))


def _columns(draw: ImageDraw.ImageDraw, look: Theme, names: Sequence[str],
             leaderboard: bool = False, head: int = HEADER_HEIGHT) -> tuple[int, int, int, int]:
    """Column x positions (first two left-aligned, the rest right-aligned) and their heads."""
    if leaderboard:
        xs = (PAD * 2, PAD * 2 + 60, CARD_WIDTH - 180, CARD_WIDTH - PAD * 2)
        anchors = ("lm", "lm", "rm", "rm")
    else:
        xs = (PAD * 2, CARD_WIDTH - 330, CARD_WIDTH - 180, CARD_WIDTH - PAD * 2)
        anchors = ("lm", "rm", "rm", "rm")
    y = head + PAD + COLUMNS_HEIGHT // 2
    for x, name, anchor in zip(xs, names, anchors, strict=True):
        draw_text(draw, (x, y), name, TEXT_SIZE - 2, look.muted, anchor=anchor)
    return xs


def _row(draw: ImageDraw.ImageDraw, look: Theme, index: int, highlight: bool, rows: int
         ) -> int:
    """Draw a row's band and return the y of its middle."""
    row_h = _row_height(rows)
    top = HEADER_HEIGHT + PAD + COLUMNS_HEIGHT + index * row_h
    _band(draw, look, (top, top + row_h), highlight, index)
    return top + row_h // 2


def _lift(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    return (colour[0] + 8, colour[1] + 8, colour[2] + 8)
