"""The finished deal of a draw-and-discard game on the felt: the winning hand in its groups
(Kap's eye, then its tens, each captioned; Three Dozen's three pairs), or why there is none.

Rules sources: docs/rules-book.md §2.6 (a Kap hand wins as an eye and tens; a ten counts 10 or 20;
`[4:2]` counts 3),
§2.7 (Kap Tai Shap: a void deal when the stock runs out) and §2.9 (Three Dozen: three pairs).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PIL import Image, ImageDraw

from games.kap_deal import KapView
from games.tens import values
from games.threedozen_deal import ThreeDozenView
from games.tiles import TileSet
from rendering import sprites
from rendering.canvas import (
    BOARD_WIDTH,
    NAME_SIZE,
    PAD,
    SMALL_SIZE,
    TEXT_SIZE,
    Frame,
    wrap,
)
from rendering.text import draw_text, font
from rendering.theme import RGB, Theme
from words.i18n import tr

View = KapView | ThreeDozenView

FELT_MARGIN = 18
WIN_TILE = {"chinese": (130, 100), "western": (110, 90)}
"""Height of the winning hand's tiles at most: with a few seats, and with many; a hand of many
groups is drawn smaller so that it fits across."""
WIN_TITLE = 40
WIN_CAPTION = 32
WIN_GAP = 40
"""Between the eye and the tens, and between two tens: wider than inside a group of two."""
PAIR_GAP = 6
VOID_HEIGHT = 64


class Panel(Protocol):
    """Where the board put the panel (the board's `Layout` is one)."""

    @property
    def family(self) -> str: ...
    @property
    def panel_top(self) -> int: ...
    @property
    def panel_h(self) -> int: ...
    @property
    def win_tile(self) -> int: ...


def winning_groups(view: View) -> tuple[tuple[int, ...], ...]:
    """The winner's hand as shown on the felt: Kap's eye first, then its tens; Three Dozen's
    three pairs. Empty while the deal goes on or when it was void."""
    result = view.outcome
    if result is None or not result.winners:
        return ()
    if isinstance(view, KapView):
        if view.winning is None:
            return ()
        eye, tens = view.winning
        return (eye, *tens)
    return tuple(view.melds[result.winners[0]])


def win_height(family: str, most: int, groups: int) -> int:
    """The largest tile height, up to `most`, at which `groups` pairs fit across the felt."""
    room = BOARD_WIDTH - 2 * FELT_MARGIN - 2 * PAD
    for height in range(most, 39, -2):
        w, _ = sprites.tile_size(family, height)
        if groups * (2 * w + PAIR_GAP) + max(0, groups - 1) * WIN_GAP <= room:
            return height
    return 40


def _win_title(view: View, frame: Frame) -> list[str]:
    """Who won and how, wrapped rather than cut: a long name takes a second line."""
    result = view.outcome
    if result is None or not result.winners:
        return []
    lang = frame.lang
    winner = result.winners[0]
    how = {"deal": tr(lang, "img.from_deal"), "discard": tr(lang, "img.from_discard"),
           "stock": tr(lang, "img.from_stock")}
    title = "★ " + tr(lang, "img.wins", name=_name(frame, winner))
    if result.labels and result.labels[winner] in how:
        title = f"{title} · {how[result.labels[winner]]}"
    room = BOARD_WIDTH - 2 * FELT_MARGIN - 2 * PAD
    return wrap(title, font(NAME_SIZE, bold=True), (room, room), 2)


def panel_height(view: View, frame: Frame, win_tile: int) -> int:
    if winning_groups(view):
        captions = WIN_CAPTION if isinstance(view, KapView) else 0
        extra = (len(_win_title(view, frame)) - 1) * (NAME_SIZE + 6)
        return WIN_TITLE + extra + win_tile + captions + 2 * PAD
    if view.outcome is not None and not view.outcome.winners:
        return VOID_HEIGHT
    return 0


def draw_panel(image: Image.Image, look: Theme, view: View, frame: Frame, at: Panel) -> None:
    """The finished deal: the winning hand laid out in its groups, or why there is none. The
    tile the last move took (a discard taken to win) is ringed in it, as the footer names it."""
    lang = frame.lang
    draw = ImageDraw.Draw(image)
    box = (FELT_MARGIN, at.panel_top, BOARD_WIDTH - FELT_MARGIN, at.panel_top + at.panel_h)
    groups = winning_groups(view)
    result = view.outcome
    if not groups or result is None:
        draw.rounded_rectangle(box, radius=16, fill=_shade(look.table, 0.8),
                               outline=look.muted, width=3)
        draw_text(draw, (BOARD_WIDTH // 2, at.panel_top + at.panel_h // 2),
                  tr(lang, "img.void_deal"),
                  TEXT_SIZE, look.text, room=box[2] - box[0] - 2 * PAD, anchor="mm")
        return
    draw.rounded_rectangle(box, radius=16, fill=_shade(look.table, 0.8), outline=look.gold,
                           width=5)
    lines = _win_title(view, frame)
    for row, line in enumerate(lines):
        draw_text(draw, (BOARD_WIDTH // 2, at.panel_top + PAD + WIN_TITLE // 2
                         + row * (NAME_SIZE + 6)), line, NAME_SIZE, look.gold, bold=True,
                  anchor="mm")
    tiles = view.tiles
    height = at.win_tile
    w, _ = sprites.tile_size(at.family, height)
    group_w = 2 * w + PAIR_GAP
    run = len(groups) * group_w + (len(groups) - 1) * WIN_GAP
    x = (BOARD_WIDTH - run) // 2
    y = at.panel_top + PAD + WIN_TITLE + (len(lines) - 1) * (NAME_SIZE + 6)
    last = set(frame.last)
    worth = kap_worth(view) if isinstance(view, KapView) else {}
    for index, group in enumerate(groups):
        for j, tile in enumerate(group):
            state: sprites.State = "last" if tile in last else "plain"
            sprite = sprites.face(at.family, tiles.a[tile], tiles.b[tile], height, look.name,
                                  state)
            image.paste(sprite, (x + j * (w + PAIR_GAP), y), sprite)
            if tile in worth:
                sprites.worth_badge(image, (x + j * (w + PAIR_GAP), y), w, worth[tile],
                                    look.name)
        words = group_caption(view, tiles, group, index, lang)
        if words:
            draw_text(draw, (x + group_w // 2, y + height + WIN_CAPTION // 2 + 2), words,
                      SMALL_SIZE, look.gold if index == 0 else look.muted, bold=index == 0,
                      anchor="mm")
        x += group_w + WIN_GAP


def kap_worth(view: KapView) -> dict[int, int]:
    """Tile id -> what it counts, for the tiles Kap counts other than by their pips: `[4:2]`
    counts 3 (docs/rules-book.md §2.6) unless the `four_two` option counts its pips."""
    worth = values(view.options.four_two)
    tiles = view.tiles
    return {t: worth[tiles.kind_of[t]] for t in range(tiles.size)
            if worth[tiles.kind_of[t]] != tiles.pips[t]}


def group_caption(view: View, tiles: TileSet, group: Sequence[int], index: int, lang: str) -> str:
    """Under Kap's eye its name, under each ten what it adds up to (10 or 20). A tile that
    counts other than its pips (`[4:2]` counts 3, docs/rules-book.md §2.6) would make the total
    disagree with the pips in sight, so such a ten spells its sum out: "3 + 7 = 10"."""
    if not isinstance(view, KapView):
        return ""
    if index == 0:
        return tr(lang, "img.eye")
    worth = values(view.options.four_two)
    counts = [worth[tiles.kind_of[t]] for t in group]
    total = str(sum(counts))
    if all(count == tiles.pips[t] for count, t in zip(counts, group, strict=True)):
        return total
    return " + ".join(map(str, counts)) + f" = {total}"


def _name(frame: Frame, seat: int) -> str:
    return frame.names[seat] if seat < len(frame.names) else f"#{seat + 1}"


def _shade(colour: RGB, t: float) -> RGB:
    return (min(255, round(colour[0] * t)), min(255, round(colour[1] * t)),
            min(255, round(colour[2] * t)))
