"""The parts every table image shares: the header, the seat boxes, the footer and PNG encoding.

docs/architecture.md §7: opaque RGB, at most 1280 px on the long side. Pictures are drawn for a
phone, which shows one about 400 px wide: boards are 800 px wide, no text is smaller than 18 px and
no text a player needs is cut (names, titles and the last move wrap instead).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from rendering import sprites
from rendering.encoding import ENCODINGS, Destination, destination, encode_as
from rendering.text import draw_text, fit, font, printable, width
from rendering.theme import RGB, Theme

MAX_SIDE = 1280
BOARD_WIDTH = 800
"""A phone shows a picture about 400 px wide: at half size every text below stays 9 px or more
and every tile (24 px or more on its short side here) 12 px or more."""
PAD = 16
TITLE_SIZE = 30
NAME_SIZE = 24
TEXT_SIZE = 20
SMALL_SIZE = 18
HEADER_HEIGHT = 60
FOOTER_HEIGHT = 58


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
    chips: tuple[int | None, ...] = ()
    """What each seat's chips did in the deal, as the result's words say it (None: the seat
    played for nothing); empty for a card that shows the rules' own chips."""


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
    team: int | None = None
    """The partnership the seat plays for (`Rules.teams`), marked by its colour down the
    box's edge; None where every seat plays for itself."""


def encode(image: Image.Image, to: Destination = "lossless") -> bytes:
    """The picture as PNG bytes for where it goes (`rendering.encoding`): a palette PNG for
    Telegram, Discord and the terminal, the drawn RGB pixels for "lossless"."""
    assert image.mode == "RGB" and max(image.size) <= MAX_SIDE, image.size
    return encode_as(image, ENCODINGS[destination(to)])


TITLE_GAP = 6


def _title_lines(title: str, right: str, width_: int) -> tuple[list[str], bool]:
    """The title's lines, and whether the right-hand words share its first line (else they get
    a line of their own under it)."""
    face = font(TITLE_SIZE, bold=True)
    beside = width_ - 3 * PAD - (width(right, font(TEXT_SIZE)) if right else 0)
    if width(printable(title), face) <= beside:
        return [printable(title)], True
    return wrap(printable(title), face, (width_ - 2 * PAD, width_ - 2 * PAD), 2), not right


def header_height(title: str, right: str, width_: int) -> int:
    lines, beside = _title_lines(title, right, width_)
    if len(lines) == 1 and beside:
        return HEADER_HEIGHT
    return 14 + len(lines) * (TITLE_SIZE + TITLE_GAP) + (0 if beside else TEXT_SIZE + 8) + 10


def header(draw: ImageDraw.ImageDraw, look: Theme, title: str, right: str, width_: int) -> int:
    """The title bar; a title too long to share its line with `right` wraps and puts `right`
    on a line of its own. Returns the bar's height."""
    lines, beside = _title_lines(title, right, width_)
    height = header_height(title, right, width_)
    draw.rectangle((0, 0, width_, height), fill=look.panel)
    if len(lines) == 1 and beside:
        draw_text(draw, (PAD, HEADER_HEIGHT // 2), lines[0], TITLE_SIZE, look.text, bold=True,
                  anchor="lm")
        if right:
            draw_text(draw, (width_ - PAD, HEADER_HEIGHT // 2), right, TEXT_SIZE, look.muted,
                      anchor="rm")
        return height
    y = 14
    for line in lines:
        draw_text(draw, (PAD, y), line, TITLE_SIZE, look.text, bold=True)
        y += TITLE_SIZE + TITLE_GAP
    if right:
        draw_text(draw, (PAD, y), right, TEXT_SIZE, look.muted, room=width_ - 2 * PAD)
    return height


FOOTER_LINES = 3
FOOTER_SIZE = TEXT_SIZE + 2


def _footer_lines(text: str, width_: int) -> list[str]:
    room = width_ - 2 * PAD
    return wrap(printable(text), font(FOOTER_SIZE), (room, room), FOOTER_LINES) if text else []


def footer_height(text: str, width_: int) -> int:
    lines = _footer_lines(text, width_)
    if len(lines) <= 1:
        return FOOTER_HEIGHT
    return 16 + len(lines) * (FOOTER_SIZE + LINE_GAP) - LINE_GAP + 16


def footer(draw: ImageDraw.ImageDraw, look: Theme, text: str, top: int, width_: int) -> None:
    """The last move in words, wrapped onto more lines rather than cut."""
    lines = _footer_lines(text, width_)
    draw.rectangle((0, top, width_, top + footer_height(text, width_)), fill=look.panel)
    if len(lines) == 1:
        draw_text(draw, (PAD, top + FOOTER_HEIGHT // 2), lines[0], FOOTER_SIZE, look.text,
                  anchor="lm")
        return
    for row, line in enumerate(lines):
        draw_text(draw, (PAD, top + 16 + row * (FOOTER_SIZE + LINE_GAP)), line, FOOTER_SIZE,
                  look.text)


LINE_GAP = 6
"""Between two rows of facts in a seat box."""
SEAT_GAP = 12
"""Between two seat boxes."""
SEAT_INSET = 14
"""From a seat box's edge to its text and tiles."""


NAME_LINES = 2
"""A name too long for one line of its box wraps to a second; only a longer one is shortened."""
NAME_GAP = 4
BADGE_ROOM = 90
"""What a badge leaves of its box's line: the start of the name, which wraps below it."""


@dataclass(frozen=True, slots=True)
class SeatGrid:
    """Seat boxes in rows of `columns`, each row as tall as its longest name needs (a wrapped
    name never pushes a neighbour out of line). An `inline` grid, for big tables, puts the facts
    beside the name instead of under it, so twenty seats leave room for the felt."""

    top: int
    columns: int
    box_w: int
    count: int
    name_rows: tuple[int, ...]
    """Lines of name in each row of boxes."""
    fact_rows: int
    mini: int
    """Height of the tiles under the facts (0: the boxes show no tiles)."""
    inline: bool = False
    left: int = PAD
    name_most: int = NAME_LINES
    """Lines a name may take: one where the boxes must leave the picture room for the felt."""

    def box_h(self, row: int = 0) -> int:
        names = self.name_rows[row] * NAME_SIZE + (self.name_rows[row] - 1) * NAME_GAP
        if self.inline:
            return 12 + names + 12
        facts = self.fact_rows * TEXT_SIZE + (self.fact_rows - 1) * LINE_GAP
        return 12 + names + 10 + facts + 10 + (self.mini + 12 if self.mini else 0)

    @property
    def rows(self) -> int:
        return -(-self.count // self.columns)

    @property
    def bottom(self) -> int:
        """The y just below the last row of boxes."""
        return self.top + sum(self.box_h(r) for r in range(self.rows)) + (self.rows - 1) * (
            self.gap)

    @property
    def gap(self) -> int:
        return SEAT_GAP // 2 if self.inline else SEAT_GAP

    @property
    def inner(self) -> int:
        return self.box_w - 2 * SEAT_INSET

    def origin(self, seat: int) -> tuple[int, int]:
        row, col = divmod(seat, self.columns)
        y = self.top + sum(self.box_h(r) + self.gap for r in range(row))
        return (self.left + col * (self.box_w + SEAT_GAP), y)

    def tiles_y(self, seat: int) -> int:
        """Where a box's row of tiles starts, for boards that draw that row themselves."""
        return self.origin(seat)[1] + self.box_h(seat // self.columns) - self.mini - 12


INLINE_FROM = 7
"""From this many seats the facts go beside the names, two boxes a row."""


def seat_columns(count: int) -> int:
    """Boxes a row on an 800 px board: up to three side by side, four as two rows of two, big
    tables two a row with their facts inline."""
    return count if count <= 3 else 2 if count == 4 or count >= INLINE_FROM else 3


def seat_grid(seats: Sequence[SeatBox], top: int, columns: int, mini: int = 0,
              room: int = BOARD_WIDTH, name_most: int = NAME_LINES) -> SeatGrid:
    """The grid for `seats` across `room` px, with `columns` boxes a row at most and a name on
    `name_most` lines at most."""
    columns = max(1, min(columns, len(seats)))
    inline = len(seats) >= INLINE_FROM and not mini
    box_w = (room - PAD * 2 - SEAT_GAP * (columns - 1)) // columns
    inner = box_w - 2 * SEAT_INSET
    lines = [len(name_lines(seat, inner, inline, name_most)) for seat in seats]
    name_rows = tuple(max(lines[r:r + columns]) for r in range(0, len(seats), columns))
    fact_rows = max((len(_wrap(seat.lines, inner, len(seat.lines) or 1)) for seat in seats),
                    default=1)
    return SeatGrid(top, columns, box_w, len(seats), name_rows, max(1, fact_rows), mini,
                    inline, name_most=name_most)


def draw_seats(image: Image.Image, look: Theme, seats: Sequence[SeatBox], grid: SeatGrid,
               family: str) -> None:
    for i, seat in enumerate(seats):
        seat_box(image, look, seat, grid, i, family)


def badge_width(seat: SeatBox, inner: int) -> int:
    if not seat.badge:
        return 0
    face = font(SMALL_SIZE, bold=True)
    return width(fit(seat.badge, face, inner - BADGE_ROOM), face) + 18


def inline_facts(seat: SeatBox) -> str:
    return "  ".join(seat.lines)


def name_lines(seat: SeatBox, inner: int, inline: bool = False, most: int = NAME_LINES
               ) -> list[str]:
    """The name with its mark, on one line beside the badge or wrapped onto a second. Inline,
    the facts share the name's line when they fit, else they take the line under it (an empty
    entry stands for that line). Held to one line (`most`), the name is shortened instead, so
    the facts beside it stay whole."""
    name = ("▶ " if seat.to_move else "★ " if seat.winner else "") + printable(seat.name)
    beside = badge_width(seat, inner)
    beside += 8 if beside else 0
    face = font(NAME_SIZE, bold=True)
    if inline and seat.lines:
        facts = width(inline_facts(seat), font(SMALL_SIZE)) + 10
        if width(name, face) <= inner - beside - facts:
            return [name]
        if most == 1:
            return [fit(name, face, inner - beside - facts)]
        return [*wrap(name, face, (inner - beside, inner), most), ""]
    return wrap(name, face, (inner - beside, inner), most)


def seat_box(image: Image.Image, look: Theme, seat: SeatBox, grid: SeatGrid, index: int,
             family: str) -> None:
    """One seat box: the name (wrapped if need be), its badge, its facts and its tiles."""
    draw = ImageDraw.Draw(image)
    x, top = grid.origin(index)
    box_w, box_h, inner = grid.box_w, grid.box_h(index // grid.columns), grid.inner
    fill = look.panel_hi if seat.to_move else look.panel
    outline = look.gold if seat.winner else look.accent if seat.to_move else None
    draw.rounded_rectangle((x, top, x + box_w, top + box_h), radius=14, fill=fill,
                           outline=outline, width=4 if outline else 0)
    if seat.team is not None:
        team_edge(draw, look, seat.team, (x, top, box_h))
    badge_w = badge_width(seat, inner)
    if seat.badge:
        face = font(SMALL_SIZE, bold=True)
        label = fit(seat.badge, face, inner - BADGE_ROOM)
        bx = x + box_w - SEAT_INSET - badge_w
        draw.rounded_rectangle((bx, top + 12, bx + badge_w, top + 12 + NAME_SIZE + 2),
                               radius=10, fill=look.gold)
        draw.text((bx + badge_w // 2, top + 13 + NAME_SIZE // 2), label, font=face,
                  fill=look.panel, anchor="mm")
    colour = look.gold if seat.winner else look.text
    names = name_lines(seat, inner, grid.inline, grid.name_most)
    for row, line in enumerate(names):
        draw_text(draw, (x + SEAT_INSET, top + 12 + row * (NAME_SIZE + NAME_GAP)), line,
                  NAME_SIZE, colour, bold=True)
    if grid.inline:
        if len(names) == 1:
            right = x + box_w - SEAT_INSET - (badge_w + 8 if badge_w else 0)
            draw_text(draw, (right, top + 12 + NAME_SIZE // 2 + 1), inline_facts(seat),
                      SMALL_SIZE, look.muted, anchor="rm")
        else:
            y = top + 12 + (len(names) - 1) * (NAME_SIZE + NAME_GAP) + NAME_SIZE // 2 + 1
            draw_text(draw, (x + SEAT_INSET, y), inline_facts(seat), SMALL_SIZE, look.muted,
                      anchor="lm")
        return
    line_y = top + 12 + grid.name_rows[index // grid.columns] * (NAME_SIZE + NAME_GAP) + 6
    for row, text in enumerate(_wrap(seat.lines, inner, grid.fact_rows)):
        draw_text(draw, (x + SEAT_INSET, line_y + row * (TEXT_SIZE + LINE_GAP)), text, TEXT_SIZE,
                  look.muted, room=inner)
    if grid.mini:
        _mini_row(image, look, seat, (x + SEAT_INSET, grid.tiles_y(index)), inner, grid.mini,
                  family)


TEAM_EDGE = 8
"""The width of a team's mark down a box's left edge: 4 px on a phone."""


def team_edge(draw: ImageDraw.ImageDraw, look: Theme, team: int, at: tuple[int, int, int]
              ) -> None:
    """A partnership's colour down the left edge of a box at (x, top, height)."""
    x, top, height = at
    draw.rounded_rectangle((x + 4, top + 10, x + 4 + TEAM_EDGE, top + height - 10),
                           radius=TEAM_EDGE // 2, fill=look.teams[team % len(look.teams)])


def wrap(text: str, face: ImageFont.FreeTypeFont, rooms: tuple[int, int], lines: int
         ) -> list[str]:
    """`text` in at most `lines` lines, the first `rooms[0]` px wide and the others
    `rooms[1]`: broken at a space or after a hyphen, inside a word only when it is longer than
    a line, and shortened with an ellipsis only when even that many lines cannot hold it."""
    out: list[str] = []
    rest = text.strip()
    while rest:
        room = rooms[0] if not out else rooms[1]
        if len(out) == lines - 1 or width(rest, face) <= room:
            out.append(fit(rest, face, room))
            break
        cut = _longest_prefix(rest, face, room)
        soft = max(rest.rfind(" ", 0, cut + 1), rest.rfind("-", 0, cut) + 1)
        if soft > 0:
            cut = soft
        elif room < rooms[1] and width(rest.split(" ")[0], face) <= rooms[1]:
            cut = 0  # the first word fits a whole line: start it there, not broken here
        out.append(rest[:cut].rstrip())
        rest = rest[cut:].strip()
    return out or [""]


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


def _longest_prefix(text: str, face: ImageFont.FreeTypeFont, room: int) -> int:
    lo, hi = 1, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if width(text[:mid], face) <= room:
            lo = mid
        else:
            hi = mid - 1
    return lo


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
