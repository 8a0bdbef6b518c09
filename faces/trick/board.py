"""The Tien Gow table image: the trick on the felt, one slot per seat, drawn from a public view.

Rules source: docs/rules-book.md §2.8 (four players, eight tiles each; every seat follows the lead
with as many tiles, face up only when the play beats the highest so far, otherwise face down; the
trick goes to the highest face-up play and counts as many tricks as it had tiles per play; the
banker leads the first trick and is paid and pays at his multiplier).

A face-down play is drawn as backs even when the view names its tiles (a seat's own view does),
so the group's picture is the same whichever view it is drawn from and never shows a folded tile.
The slots sit under the seat boxes, column for column, so a play is read under its player.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from faces.trick.names import trick_names
from games.tiengow_deal import Play, TienGowView
from games.tiles import CHINESE
from rendering import sprites
from rendering.canvas import (
    BOARD_WIDTH,
    NAME_SIZE,
    PAD,
    SMALL_SIZE,
    TEXT_SIZE,
    Frame,
    SeatBox,
    SeatGrid,
    dashed_box,
    draw_seats,
    footer,
    footer_height,
    header,
    header_height,
    new_image,
    seat_columns,
    seat_grid,
    wrap,
)
from rendering.text import draw_text, fit, fit_name, font, printable, width
from rendering.theme import RGB, Theme, theme
from words.i18n import signed, tr

FAMILY = "chinese"
COLUMN_GAP = 12
"""The same gap as between the seat boxes, so each slot lines up under its seat."""
TILE_MAX = 150
"""Height of a tile in the trick when the play is short enough to leave it this big."""
TILE_GAP = 8
SLOT_PAD = 14
LABEL_HEIGHT = 62
"""Above each slot its player's name, on two lines if need be: the columns are narrow."""
LABEL_LINE = SMALL_SIZE + 3
CAPTION_HEIGHT = 44
FELT_MARGIN = 22
DIM = 0.72
"""Brightness of the finished trick shown while the next one has not been led: dimmed enough
to read as the past, not so much that its tiles cannot be checked."""
DASH = (14, 9)
SLOT_HEIGHT = TILE_MAX + 2 * SLOT_PAD
NAMES_LINES = 2
NAMES_HEIGHT = NAMES_LINES * (TEXT_SIZE + 6)
"""Under the slots: what the trick was led with and what holds it, by Tien Gow's names."""
FELT_ROOM = BOARD_WIDTH - 2 * PAD
"""The width of a sentence on the felt."""
NAME_LEAST, NAME_STEP = 60, 20
"""A name in the sentence under the trick is shortened step by step, to this width at the
least, until the sentence fits its lines."""
FELT_HEIGHT = 2 * FELT_MARGIN + LABEL_HEIGHT + SLOT_HEIGHT + CAPTION_HEIGHT + NAMES_HEIGHT
"""The felt keeps one height whatever it shows, so the picture does not jump between moves."""


@dataclass(frozen=True, slots=True)
class Shown:
    """What the felt shows: the current trick, or the last finished one while none is led."""

    plays: tuple[Play, ...]
    holder: int | None
    """Index in `plays` of the play holding (or having taken) the trick."""
    finished: bool


def shown_trick(view: TienGowView) -> Shown:
    """Between tricks the felt keeps the last one, so a player who looks away still sees who
    took it and with what, until the next lead replaces it."""
    if view.trick:
        return Shown(view.trick, view.best, False)
    if view.history:
        last = view.history[-1]
        holder = next(i for i, p in enumerate(last.plays) if p.seat == last.winner)
        return Shown(last.plays, holder, True)
    return Shown((), None, False)


def felt_line(view: TienGowView, frame: Frame) -> str:
    """The one sentence on the felt: who took the last trick and for how many tricks, or who
    leads the first one. A name too long for the felt is shortened, never the count."""
    lang = frame.lang
    shown = shown_trick(view)
    if shown.finished and shown.holder is not None:
        size = shown.plays[0].size
        return fit_name(lambda name: tr(lang, "img.taken", name=name, v=size),
                        _name(frame, shown.plays[shown.holder].seat), font(TEXT_SIZE),
                        FELT_ROOM)
    if not shown.plays:
        return fit_name(lambda name: tr(lang, "img.banker_leads", name=name),
                        _name(frame, view.banker), font(NAME_SIZE), FELT_ROOM)
    return ""


def names_line(view: TienGowView, frame: Frame) -> str:
    """The led combination and the one holding (or having taken) the trick, by name, on at
    most two lines of the felt: long names are shortened until it fits, the plays never."""
    shown = shown_trick(view)
    names = trick_names(shown.plays, frame.lang, view.options.mixed)
    if names is None:
        return ""
    face = font(TEXT_SIZE)

    def said(most: int) -> str:
        def who(seat: int) -> str:
            name = _name(frame, seat)
            return name if width(printable(name), face) <= most else fit(name, face, most)

        led = tr(frame.lang, "img.trick_led", name=who(names.leader), play=names.led)
        if names.holder == names.leader:
            return led
        key = "img.trick_took" if shown.finished else "img.trick_best"
        best = tr(frame.lang, key, name=who(names.holder), play=names.best)
        return f"{led} · {best}"

    for most in range(FELT_ROOM, NAME_LEAST, -NAME_STEP):
        line = said(most)
        if len(wrap(line, face, (FELT_ROOM, FELT_ROOM), NAMES_LINES + 1)) <= NAMES_LINES:
            return line
    return said(NAME_LEAST)


def tiengow_seats(view: TienGowView, frame: Frame) -> list[SeatBox]:
    """The seat boxes' contents, apart from the drawing so the words can be checked as text."""
    lang = frame.lang
    result = view.outcome
    seats = []
    for s in range(view.players):
        lines = [tr(lang, "img.tricks", v=view.tricks[s]),
                 tr(lang, "img.hand", v=view.hand_counts[s])]
        if view.match.deal:
            lines.append(tr(lang, "img.match_chips", v=signed(view.match.chips[s] * frame.stake)))
        seats.append(SeatBox(
            name=_name(frame, s), lines=tuple(lines),
            badge=tr(lang, "img.banker", m=view.multiplier) if s == view.banker else "",
            to_move=view.to_move == s,
            winner=result is not None and s in result.winners,
        ))
    return seats


def trick_area(view: TienGowView, frame: Frame) -> tuple[int, int]:
    """Top and bottom y of the slots, the only place a trick's tiles are drawn."""
    top = _felt_top(view, frame) + FELT_MARGIN + LABEL_HEIGHT
    return top, top + SLOT_HEIGHT


def _right(view: TienGowView, lang: str) -> str:
    right = tr(lang, "img.banker", m=view.multiplier)
    if view.match.deal:
        right = f"{tr(lang, 'img.deal', v=view.match.deal + 1)}   {right}"
    return right


def _grid(view: TienGowView, frame: Frame) -> SeatGrid:
    """The seat boxes two by two; the slots below name their players."""
    top = header_height(frame.title, _right(view, frame.lang), BOARD_WIDTH) + PAD
    return seat_grid(tiengow_seats(view, frame), top, seat_columns(view.players))


def _felt_top(view: TienGowView, frame: Frame) -> int:
    return _grid(view, frame).bottom + PAD


def tiengow_board(view: TienGowView, frame: Frame) -> Image.Image:
    look, lang = theme(frame.theme), frame.lang
    grid = _grid(view, frame)
    felt_top = grid.bottom + PAD
    felt_h = FELT_HEIGHT
    height = felt_top + felt_h + footer_height(frame.footer, BOARD_WIDTH)
    image = new_image((BOARD_WIDTH, height), look.table)
    draw = ImageDraw.Draw(image)
    header(draw, look, frame.title, _right(view, lang), BOARD_WIDTH)
    draw.rectangle((0, grid.top - PAD, BOARD_WIDTH, grid.bottom + PAD // 2),
                   fill=_shade(look.table, 0.78))
    draw_seats(image, look, tiengow_seats(view, frame), grid, FAMILY)
    shown = shown_trick(view)
    line = felt_line(view, frame)
    if shown.plays:
        _draw_trick(image, look, view, frame, shown, felt_top + FELT_MARGIN, lang)
        bottom = felt_top + felt_h - FELT_MARGIN - NAMES_HEIGHT
        if shown.finished:
            draw_text(draw, (BOARD_WIDTH // 2, bottom - CAPTION_HEIGHT // 2), line, TEXT_SIZE,
                      look.text, room=FELT_ROOM, anchor="mm")
        said = wrap(names_line(view, frame), font(TEXT_SIZE), (FELT_ROOM, FELT_ROOM),
                    NAMES_LINES)
        for row, words in enumerate(said):
            draw_text(draw, (BOARD_WIDTH // 2, bottom + 4 + row * (TEXT_SIZE + 6)), words,
                      TEXT_SIZE, _shade(look.text, DIM if shown.finished else 1.0), anchor="ma")
    else:
        draw_text(draw, (BOARD_WIDTH // 2, felt_top + felt_h // 2), line, NAME_SIZE, look.text,
                  room=FELT_ROOM, anchor="mm")
    footer(draw, look, frame.footer, felt_top + felt_h, BOARD_WIDTH)
    return image


def _draw_trick(image: Image.Image, look: Theme, view: TienGowView, frame: Frame, shown: Shown,
                top: int, lang: str) -> None:
    draw = ImageDraw.Draw(image)
    column_w = (BOARD_WIDTH - 2 * PAD - COLUMN_GAP * (view.players - 1)) // view.players
    size = shown.plays[0].size
    tile_h = _tile_height(size, column_w - 2 * SLOT_PAD)
    tile_w, _ = sprites.tile_size(FAMILY, tile_h)
    run = size * tile_w + (size - 1) * TILE_GAP
    by_seat = {p.seat: i for i, p in enumerate(shown.plays)}
    last = set(frame.last) if not shown.finished else set()
    fade = DIM if shown.finished else 1.0
    slot_top, slot_bottom = trick_area(view, frame)
    slot_h = slot_bottom - slot_top
    for seat in range(view.players):
        x = PAD + seat * (column_w + COLUMN_GAP)
        index = by_seat.get(seat)
        holds = index is not None and index == shown.holder
        label_colour = look.gold if holds else look.muted
        label = wrap(_name(frame, seat), font(SMALL_SIZE, bold=holds), (column_w - 8,) * 2, 2)
        label_top = top + 2
        for row, words in enumerate(label):
            draw_text(draw, (x + column_w // 2, label_top + row * LABEL_LINE), words, SMALL_SIZE,
                      _shade(label_colour, fade), bold=holds, anchor="ma")
        box = (x, slot_top, x + column_w, slot_top + slot_h)
        tiles_x = x + (column_w - run) // 2
        tiles_y = slot_top + (slot_h - tile_h) // 2
        if index is None:
            edge = look.accent if view.to_move == seat else _shade(look.muted, 0.8)
            dashed_box(draw, box, edge, 3, DASH)
            for i in range(size):
                tx = tiles_x + i * (tile_w + TILE_GAP)
                draw.rounded_rectangle((tx, tiles_y, tx + tile_w, tiles_y + tile_h),
                                       radius=tile_w // 6, outline=_shade(look.table, 1.35),
                                       width=2)
            continue
        draw.rounded_rectangle(box, radius=16, fill=_shade(look.table, 0.8),
                               outline=_shade(look.gold, fade) if holds else None,
                               width=5 if holds else 0)
        play = shown.plays[index]
        for i in range(play.size):
            if play.up:
                tile = play.tiles[i]
                state: sprites.State = "last" if tile in last else "plain"
                sprite = sprites.face(FAMILY, CHINESE.a[tile], CHINESE.b[tile], tile_h,
                                      look.name, state)
            else:
                sprite = sprites.back(FAMILY, tile_h, look.name)
            if fade < 1:
                sprite = _dimmed(sprite, fade)
            image.paste(sprite, (tiles_x + i * (tile_w + TILE_GAP), tiles_y), sprite)
        if index == 0:
            _lead_tag(draw, look, (x + column_w // 2, slot_top), tr(lang, "img.led"), fade)
        if holds and not shown.finished:
            draw_text(draw, (x + column_w // 2, slot_top + slot_h + CAPTION_HEIGHT // 2),
                      tr(lang, "img.holds"), SMALL_SIZE, look.gold, room=column_w, bold=True,
                      anchor="mm")


def _lead_tag(draw: ImageDraw.ImageDraw, look: Theme, at: tuple[int, int], text: str,
              fade: float) -> None:
    """A tag on the top edge of the slot whose play led the trick: the play the others had to
    match in size and beat."""
    face = font(SMALL_SIZE, bold=True)
    w = int(face.getlength(text)) + 16
    x, y = at
    draw.rounded_rectangle((x - w // 2, y - 13, x + w // 2, y + 13), radius=9,
                           fill=_shade(look.accent, fade))
    draw.text((x, y), text, font=face, fill=look.panel, anchor="mm")


def _tile_height(size: int, room: int) -> int:
    """The largest tile height, up to `TILE_MAX`, at which `size` portrait tiles fit `room`."""
    fit_w = (room - (size - 1) * TILE_GAP) // size
    return min(TILE_MAX, int(fit_w * sprites.CHINESE_RATIO))


_DIMMED: dict[tuple[int, float], tuple[Image.Image, Image.Image]] = {}
"""(id of a cached sprite, factor) -> (that sprite, kept so its id stays its own; dimmed)."""


def _dimmed(sprite: Image.Image, factor: float) -> Image.Image:
    """A sprite darkened; the sprites themselves are cached, so each is dimmed once."""
    key = (id(sprite), factor)
    kept = _DIMMED.get(key)
    if kept is not None and kept[0] is sprite:
        return kept[1]
    red, green, blue, alpha = sprite.split()
    scale = _scale(factor)
    dimmed = Image.merge("RGBA", (red.point(scale), green.point(scale), blue.point(scale), alpha))
    if len(_DIMMED) >= 256:
        _DIMMED.clear()
    _DIMMED[key] = (sprite, dimmed)
    return dimmed


@lru_cache(maxsize=8)
def _scale(factor: float) -> list[int]:
    return [round(v * factor) for v in range(256)]


def _name(frame: Frame, seat: int) -> str:
    return frame.names[seat] if seat < len(frame.names) else f"#{seat + 1}"


def _shade(colour: RGB, t: float) -> RGB:
    return (min(255, round(colour[0] * t)), min(255, round(colour[1] * t)),
            min(255, round(colour[2] * t)))
