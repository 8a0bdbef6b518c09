"""The Deer Hunt table image: the partnerships and their red pips, the seats, the trick on the
felt and the record of the tricks taken, drawn from a public view.

Rules source: docs/rules-book.md §2.12 (partners opposite, team A = seats 0 and 2, team B = seats 1
and 3; one tile each to a trick, face up, the highest taking it; red pips the score, §1.4; deer
escaped, D-32/D-33). On a phone a player must see at once who plays with whom and how the hunt
stands, so the partnerships are marked by their colour everywhere (the score bar, the seat boxes'
edges, the names over the trick, the record of tricks) and named by their letter beside it, and
every count of red pips is written as a number, not left to the tiles' red dots. The seat boxes
stand two by two, so partners share a column under their team's score: team A on the left, team B on
the right.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from faces.home import team_name
from games.deerhunt_deal import DeerHuntView, Lay
from games.deerhunt_tiles import PLAYERS, RED, TEAM
from games.tiles import CHINESE
from rendering import sprites
from rendering.canvas import (
    BOARD_WIDTH,
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
    seat_grid,
)
from rendering.text import draw_text, fit, fit_name, font
from rendering.theme import RGB, Theme, theme
from words.i18n import signed, tr

FAMILY = "chinese"
GAP = 12
SCORE_HEIGHT = 84
"""The band of the two partnerships' red pips under the title."""
SCORE_SIZE = 44
LABEL_HEIGHT = 52
TILE_HEIGHT = 150
SLOT_PAD = 12
SLOT_HEIGHT = TILE_HEIGHT + 2 * SLOT_PAD
PIPS_HEIGHT = 34
"""Under each slot: the red pips its tile brings to the trick."""
LINE_HEIGHT = 40
FELT_MARGIN = 18
RECORD_HEIGHT = 64
"""The strip of the eight tricks: who took each and for how many red pips."""
FELT_HEIGHT = 2 * FELT_MARGIN + LABEL_HEIGHT + SLOT_HEIGHT + PIPS_HEIGHT + LINE_HEIGHT
DIM = 0.72
TRICKS = 8


@dataclass(frozen=True, slots=True)
class Shown:
    """What the felt shows: the trick being played, or the last one taken while none is led."""

    plays: tuple[Lay, ...]
    holder: int | None
    finished: bool
    escaped: bool = False
    red: int = 0


def shown_trick(view: DeerHuntView) -> Shown:
    if view.trick:
        return Shown(view.trick, view.best, False, red=sum(RED[lay.tile] for lay in view.trick))
    if view.history:
        last = view.history[-1]
        holder = next(i for i, lay in enumerate(last.plays) if lay.seat == last.winner)
        return Shown(last.plays, holder, True, last.escaped, last.red)
    return Shown((), None, False)


def _name(frame: Frame, seat: int) -> str:
    return frame.names[seat] if seat < len(frame.names) else f"#{seat + 1}"


def felt_line(view: DeerHuntView, frame: Frame) -> str:
    """The sentence under the trick: who holds it and the red pips on it, who took the last
    one and for how many (or that the deer escaped), or who leads the first."""
    lang = frame.lang
    shown = shown_trick(view)
    face = font(TEXT_SIZE, bold=True)
    room = BOARD_WIDTH - 2 * PAD
    if shown.holder is None:
        return fit_name(lambda name: tr(lang, "img.dh_leads", name=name),
                        _name(frame, view.dealer), face, room)
    seat = shown.plays[shown.holder].seat
    team = team_name(TEAM[seat], lang)
    if shown.escaped:
        key = "img.dh_escaped"
    elif shown.finished:
        key = "img.dh_taken"
    else:
        key = "img.dh_holds"
    return fit_name(lambda name: tr(lang, key, shown.red, name=name, team=team),
                    _name(frame, seat), face, room)


def deer_seats(view: DeerHuntView, frame: Frame) -> list[SeatBox]:
    """The seat boxes' contents: tiles left, the red pips of the tricks the seat took, its
    team's colour; the dealer's badge."""
    lang = frame.lang
    result = view.outcome
    taken = [0] * view.players
    for trick in view.history:
        if not trick.escaped:
            taken[trick.winner] += trick.red
    seats = []
    for s in range(view.players):
        lines = [tr(lang, "img.hand", v=view.hand_counts[s]), tr(lang, "img.dh_took", v=taken[s])]
        if view.match.deal:
            lines.append(tr(lang, "img.match_chips", v=signed(view.match.chips[s] * frame.stake)))
        seats.append(SeatBox(
            name=_name(frame, s), lines=tuple(lines),
            badge=tr(lang, "img.dh_dealer") if s == view.dealer else "",
            to_move=view.to_move == s, winner=result is not None and s in result.winners,
            team=TEAM[s]))
    return seats


def _right(view: DeerHuntView, lang: str) -> str:
    right = tr(lang, "img.dh_deal", deal=view.match.deal + 1, deals=view.options.deals)
    return f"{right}   {tr(lang, 'img.dh_trick', min(len(view.history) + 1, TRICKS))}"


def _layout(view: DeerHuntView, frame: Frame) -> tuple[int, SeatGrid]:
    """The score band's top and the seat grid under it."""
    top = header_height(frame.title, _right(view, frame.lang), BOARD_WIDTH)
    grid = seat_grid(deer_seats(view, frame), top + SCORE_HEIGHT + PAD, 2)
    return top, grid


def deerhunt_board(view: DeerHuntView, frame: Frame) -> Image.Image:
    look, lang = theme(frame.theme), frame.lang
    score_top, grid = _layout(view, frame)
    felt_top = grid.bottom + PAD
    record_top = felt_top + FELT_HEIGHT
    height = record_top + RECORD_HEIGHT + footer_height(frame.footer, BOARD_WIDTH)
    image = new_image((BOARD_WIDTH, height), look.table)
    draw = ImageDraw.Draw(image)
    header(draw, look, frame.title, _right(view, lang), BOARD_WIDTH)
    _score_band(draw, look, view, frame, score_top)
    draw.rectangle((0, grid.top - PAD // 2, BOARD_WIDTH, grid.bottom + PAD // 2),
                   fill=_shade(look.table, 0.78))
    draw_seats(image, look, deer_seats(view, frame), grid, FAMILY)
    shown = shown_trick(view)
    _draw_trick(image, look, view, frame, shown, felt_top + FELT_MARGIN)
    line_y = felt_top + FELT_HEIGHT - FELT_MARGIN - LINE_HEIGHT // 2
    colour = look.teams[TEAM[shown.plays[shown.holder].seat]] if shown.holder is not None \
        else look.text
    draw_text(draw, (BOARD_WIDTH // 2, line_y), felt_line(view, frame), TEXT_SIZE,
              look.muted if shown.escaped else colour, bold=True, anchor="mm")
    _record(draw, look, view, record_top, lang)
    footer(draw, look, frame.footer, record_top + RECORD_HEIGHT, BOARD_WIDTH)
    return image


def _score_band(draw: ImageDraw.ImageDraw, look: Theme, view: DeerHuntView, frame: Frame,
                top: int) -> None:
    """Each partnership in its colour, above its column of seat boxes (its players): its
    letter and its red pips so far in large figures (the running score of the deal)."""
    half = (BOARD_WIDTH - 2 * PAD - GAP) // 2
    for team in (0, 1):
        x = PAD + team * (half + GAP)
        box = (x, top + 10, x + half, top + SCORE_HEIGHT - 6)
        colour = look.teams[team]
        draw.rounded_rectangle(box, radius=14, fill=look.panel, outline=colour, width=4)
        figure = str(view.red[team])
        face = font(SCORE_SIZE, bold=True)
        figure_w = int(face.getlength(figure))
        middle = (box[1] + box[3]) // 2
        draw.text((box[2] - 16, middle), figure, font=face, fill=colour, anchor="rm")
        room = half - figure_w - 48
        draw_text(draw, (x + 16, middle - 13), team_name(team, frame.lang).upper(), TEXT_SIZE,
                  colour, room=room, bold=True, anchor="lm")
        draw_text(draw, (x + 16, middle + 14), tr(frame.lang, "img.dh_red_word"), SMALL_SIZE,
                  look.muted, room=room, anchor="lm")


def _draw_trick(image: Image.Image, look: Theme, view: DeerHuntView, frame: Frame,
                shown: Shown, top: int) -> None:
    draw = ImageDraw.Draw(image)
    column = (BOARD_WIDTH - 2 * PAD - GAP * (PLAYERS - 1)) // PLAYERS
    tile_w, tile_h = sprites.tile_size(FAMILY, TILE_HEIGHT)
    by_seat = {lay.seat: i for i, lay in enumerate(shown.plays)}
    fade = DIM if shown.finished else 1.0
    last = set(frame.last) if not shown.finished else set()
    slot_top = top + LABEL_HEIGHT
    for seat in range(PLAYERS):
        x = PAD + seat * (column + GAP)
        index = by_seat.get(seat)
        holds = index is not None and index == shown.holder
        colour = _shade(look.teams[TEAM[seat]], fade)
        name = fit(_name(frame, seat), font(SMALL_SIZE, bold=True), column - 8)
        draw_text(draw, (x + column // 2, top + 4), name, SMALL_SIZE, colour, bold=True,
                  anchor="ma")
        draw_text(draw, (x + column // 2, top + 4 + SMALL_SIZE + 4),
                  tr(frame.lang, f"team.{TEAM[seat]}"), SMALL_SIZE, colour, anchor="ma")
        box = (x, slot_top, x + column, slot_top + SLOT_HEIGHT)
        tx = x + (column - tile_w) // 2
        ty = slot_top + SLOT_PAD
        if index is None:
            edge = look.accent if view.to_move == seat else _shade(look.muted, 0.8)
            dashed_box(draw, box, edge, 3, (14, 9))
            draw.rounded_rectangle((tx, ty, tx + tile_w, ty + tile_h), radius=tile_w // 6,
                                   outline=_shade(look.table, 1.35), width=2)
            continue
        draw.rounded_rectangle(box, radius=16, fill=_shade(look.table, 0.8),
                               outline=_shade(look.gold, fade) if holds else None,
                               width=5 if holds else 0)
        tile = shown.plays[index].tile
        state: sprites.State = "last" if tile in last else "plain"
        sprite = sprites.face(FAMILY, CHINESE.a[tile], CHINESE.b[tile], TILE_HEIGHT, look.name,
                              state)
        if fade < 1:
            sprite = _dimmed(sprite, fade)
        image.paste(sprite, (tx, ty), sprite)
        red = RED[tile]
        said = tr(frame.lang, "img.dh_tile_red", red) if red else "—"
        draw_text(draw, (x + column // 2, slot_top + SLOT_HEIGHT + PIPS_HEIGHT // 2), said,
                  TEXT_SIZE, _shade(_pip_text(look) if red else look.muted, fade),
                  bold=bool(red), anchor="mm")


def _record(draw: ImageDraw.ImageDraw, look: Theme, view: DeerHuntView, top: int, lang: str
            ) -> None:
    """The eight tricks of the deal in a row: each taken one in its team's colour with its
    red pips, an escaped one crossed out, the rest empty."""
    draw.rectangle((0, top, BOARD_WIDTH, top + RECORD_HEIGHT), fill=_shade(look.table, 0.78))
    cell = (BOARD_WIDTH - 2 * PAD - 7 * 8) // TRICKS
    for n in range(TRICKS):
        x = PAD + n * (cell + 8)
        box = (x, top + 10, x + cell, top + RECORD_HEIGHT - 10)
        middle = ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)
        if n >= len(view.history):
            draw.rounded_rectangle(box, radius=10, outline=_shade(look.muted, 0.6), width=2)
            draw_text(draw, middle, str(n + 1), SMALL_SIZE, _shade(look.muted, 0.8),
                      anchor="mm")
            continue
        trick = view.history[n]
        if trick.escaped:
            draw.rounded_rectangle(box, radius=10, fill=look.panel, outline=look.muted,
                                   width=2)
            draw_text(draw, middle, f"✕{trick.red}", TEXT_SIZE, look.muted, bold=True,
                      anchor="mm")
            continue
        team = TEAM[trick.winner]
        draw.rounded_rectangle(box, radius=10, fill=look.teams[team])
        draw_text(draw, middle, f"{tr(lang, f'team.{team}')} {trick.red}", TEXT_SIZE,
                  look.panel, bold=True, anchor="mm")


def _pip_text(look: Theme) -> RGB:
    """Red pips written on the felt: the tiles' red, lifted towards the text's white to read
    on the dark green of both looks."""
    red, text = look.red, look.text
    return (round(red[0] + (text[0] - red[0]) * 0.3), round(red[1] + (text[1] - red[1]) * 0.3),
            round(red[2] + (text[2] - red[2]) * 0.3))


_DIMMED: dict[tuple[int, float], tuple[Image.Image, Image.Image]] = {}


def _dimmed(sprite: Image.Image, factor: float) -> Image.Image:
    key = (id(sprite), factor)
    kept = _DIMMED.get(key)
    if kept is not None and kept[0] is sprite:
        return kept[1]
    table = [round(v * factor) for v in range(256)]
    red, green, blue, alpha = sprite.split()
    dimmed = Image.merge("RGBA", (red.point(table), green.point(table), blue.point(table),
                                  alpha))
    if len(_DIMMED) >= 256:
        _DIMMED.clear()
    _DIMMED[key] = (sprite, dimmed)
    return dimmed


def _shade(colour: RGB, t: float) -> RGB:
    return (min(255, round(colour[0] * t)), min(255, round(colour[1] * t)),
            min(255, round(colour[2] * t)))
