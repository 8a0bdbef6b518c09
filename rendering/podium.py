"""A season's podium: its first three by chips won in it, on steps, with their deals.

docs/architecture.md §7 and docs/playing.md (seasons): the picture the chat gets once when a season
ends. Drawn for a phone as every card is (800 px wide, read at about 400: no text under 18 px here,
so 9 there; a long name wraps to two lines, then is shortened), with the leaderboard card's look:
the title bar, the felt, the panels, gold for the winner. The winner stands in the middle on the
highest step, the second on the left, the third on the right, each under a medal of their place's
colour (`Theme.medals`); chips won are green, chips lost red, like a result's. The words come from
the caller (`Frame`: the title, the footer) and the catalogue.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from rendering.canvas import (
    NAME_SIZE,
    PAD,
    TEXT_SIZE,
    TITLE_SIZE,
    Frame,
    footer,
    footer_height,
    header,
    header_height,
    new_image,
    wrap,
)
from rendering.cards import CARD_WIDTH, Standing
from rendering.text import draw_text, font, printable
from rendering.theme import RGB, Theme, theme
from words.i18n import signed, tr

STEP_HEIGHTS = (150, 110, 86)
"""The steps of the first, second and third place."""
GAP = 14
"""Between two steps."""
MEDAL = 30
"""The medal's radius."""
NUMERAL_SIZE = 56
NAME_LINES = 2
LINE_GAP = 4
ORDER = (1, 0, 2)
"""The places from left to right: the second, the first, the third."""


def podium_card(rows: Sequence[Standing], frame: Frame) -> Image.Image:
    """The first three of `rows` (by rank) on the podium; `frame.footer` under it (how many
    played, what comes next)."""
    look = theme(frame.theme)
    places = list(rows[:3])
    column = (CARD_WIDTH - 2 * PAD - 2 * GAP) // 3
    room = column - 12
    names = [_name_lines(row.name, room) for row in places]
    stacks = [_stack_height(len(lines)) for lines in names]
    head = header_height(frame.title, "", CARD_WIDTH)
    tallest = max((STEP_HEIGHTS[i] + stacks[i] for i in range(len(places))), default=0)
    base = head + PAD + 10 + tallest
    bottom = base + PAD
    image = new_image((CARD_WIDTH, bottom + footer_height(frame.footer, CARD_WIDTH)), look.table)
    draw = ImageDraw.Draw(image)
    header(draw, look, frame.title, "", CARD_WIDTH)
    for slot, place in enumerate(ORDER):
        if place >= len(places):
            continue
        left = PAD + slot * (column + GAP)
        _step(draw, look, places[place], names[place], place, (left, left + column), base,
              frame.lang)
    if frame.footer:
        footer(draw, look, frame.footer, bottom, CARD_WIDTH)
    return image


def _name_lines(name: str, room: int) -> list[str]:
    return wrap(printable(name), font(NAME_SIZE, bold=True), (room, room), NAME_LINES)


def _stack_height(name_lines: int) -> int:
    """The medal, the name, the chips and the deals above a step."""
    names = name_lines * NAME_SIZE + (name_lines - 1) * LINE_GAP
    return 2 * MEDAL + 10 + names + 10 + TITLE_SIZE + 8 + TEXT_SIZE + 14


def _step(draw: ImageDraw.ImageDraw, look: Theme, row: Standing, names: list[str], place: int,
          span: tuple[int, int], base: int, lang: str) -> None:
    left, right = span
    middle = (left + right) // 2
    medal = look.medals[place]
    top = base - STEP_HEIGHTS[place]
    draw.rounded_rectangle((left, top, right, base), radius=12,
                           fill=look.panel_hi if place == 0 else look.panel,
                           outline=look.gold if place == 0 else None, width=3 if place == 0 else 0)
    draw.rectangle((left + 12, top + 8, right - 12, top + 16), fill=medal)
    draw_text(draw, (middle, top + 16 + (STEP_HEIGHTS[place] - 16) // 2), str(row.rank),
              NUMERAL_SIZE, medal, bold=True, anchor="mm")
    y = top - _stack_height(len(names)) + 4
    _medal(draw, look, (middle, y + MEDAL), medal, row.rank)
    y += 2 * MEDAL + 10
    colour = look.gold if place == 0 else look.text
    for line in names:
        draw_text(draw, (middle, y), line, NAME_SIZE, colour, bold=True, anchor="mt")
        y += NAME_SIZE + LINE_GAP
    y += 10 - LINE_GAP
    won = row.balance
    draw_text(draw, (middle, y), signed(won), TITLE_SIZE,
              look.good if won > 0 else look.bad if won < 0 else look.muted, bold=True,
              anchor="mt")
    y += TITLE_SIZE + 8
    draw_text(draw, (middle, y), tr(lang, "img.podium_deals", row.games), TEXT_SIZE, look.muted,
              anchor="mt")


def _medal(draw: ImageDraw.ImageDraw, look: Theme, centre: tuple[int, int], colour: RGB,
           rank: int) -> None:
    x, y = centre
    draw.ellipse((x - MEDAL, y - MEDAL, x + MEDAL, y + MEDAL), fill=colour,
                 outline=look.panel, width=3)
    draw_text(draw, (x, y + 1), str(rank), TITLE_SIZE, look.panel, bold=True, anchor="mm")
