"""The table image of the draw-and-discard games, drawn from a public view (never from a state).

Rules sources: docs/rules-book.md §2.6 (Kap Ten: one face-up discard row anyone may take from under
Culin's rules, the last discard only under the classical rules; a winning hand is an eye and
tens; the winner takes the pot), §2.7 (Kap Tai Shap: up to twenty players and several sets, so
a hundred discards and more) and §2.9 (Three Dozen: pairs laid out face up stay on the frame,
only the last discard may be taken, the first to hold three pairs wins).

The felt holds what everybody sees: the stock count and the pot, the discards oldest first
(wrapping and shrinking until they fit the picture), the tiles the player to move may take
framed in the "playable" green of the hand pictures (gold would clash with the newest discard,
which is ringed in the gold every board gives the tile just played; at the end of a deal the
gold ring is the last move's tile, in the pile or in the winning hand). Hands are only counted; the
finished deal lays out the winning hand. Nothing here reads a view's own hand, so a seat's view
and the public view give the same picture.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from faces.collect.winning import (
    FELT_MARGIN,
    PAIR_GAP,
    WIN_TILE,
    draw_panel,
    kap_worth,
    panel_height,
    win_height,
    winning_groups,
)
from games.kap_deal import KapView
from games.threedozen import PAIRS_TO_WIN
from games.threedozen_deal import ThreeDozenView
from games.tiles import TileSet
from rendering import sprites
from rendering.canvas import (
    BOARD_WIDTH,
    MAX_SIDE,
    NAME_LINES,
    PAD,
    SEAT_GAP,
    SEAT_INSET,
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
)
from rendering.text import draw_text, fit_name, font, width
from rendering.theme import RGB, Theme, theme
from words.i18n import signed, tr

View = KapView | ThreeDozenView

NARROW_BOX = 280
"""Below this width a box gives the leader the short badge, so the name keeps its room."""
INFO_HEIGHT = 66
"""The felt's first row: stock (its tile 24 px or more across), pot, reshuffles, and who may
take what."""
INFO_SECOND = 34
"""A second row for who may take what, when a long name leaves no room beside the facts."""
SWATCH = 26
TAKE_ROOM = BOARD_WIDTH - 2 * FELT_MARGIN - SWATCH - 12
"""The row of its own who may take gets: the felt's width less the swatch drawn before it."""
INFO_GAP = 12
"""Below the first row, so the frame of a discard in the top row stays clear of its words."""
PILE_MIN = 150
"""The discard area keeps at least this height, so the first discards do not jump the felt."""
PILE_TILE_MIN = 24
"""A discard's short side at the least, 12 px on a phone, before names give up their second
line."""
PILE_SIZES = {"chinese": tuple(range(110, 9, -5)), "western": tuple(range(96, 9, -4))}
"""Discard heights tried, largest first, until the whole pile fits the picture. A real pile
never needs a tile under 24 px across (a hundred and forty discards with twenty seats keep
Chinese tiles 60 px tall), but ten sets' every tile still fits, smaller."""
MELD_MAX = 84
MELD_GROUP_GAP = 14
DASH = (8, 6)


@dataclass(frozen=True, slots=True)
class Layout:
    """Where everything goes, apart from the drawing so tests can sample the picture."""

    family: str
    grid: SeatGrid
    meld: int
    """Height of a laid-out pair's tiles in a seat box (0: the game lays out none)."""
    seats_top: int
    felt_top: int
    info_h: int
    panel_top: int
    panel_h: int
    win_tile: int
    pile_top: int
    pile_h: int
    tile_h: int
    gap: int
    slots: tuple[tuple[int, int], ...]
    """Top-left corner of each discard, in pile order."""
    height: int

    @property
    def columns(self) -> int:
        return self.grid.columns

    @property
    def box_w(self) -> int:
        return self.grid.box_w

    @property
    def tile_w(self) -> int:
        return sprites.tile_size(self.family, self.tile_h)[0]

    def frame(self, index: int) -> tuple[int, int, int, int]:
        """The box of the "may be taken" frame round a discard: half the gap outside it, so the
        frames of two neighbours never touch."""
        x, y = self.slots[index]
        out = self.gap // 2 - 1
        return (x - out, y - out, x + self.tile_w + out - 1, y + self.tile_h + out - 1)

    @property
    def frame_width(self) -> int:
        return max(2, self.gap // 4)


def kap_board(view: KapView, frame: Frame) -> Image.Image:
    return _board(view, frame)


def threedozen_board(view: ThreeDozenView, frame: Frame) -> Image.Image:
    return _board(view, frame)


def layout(view: View, frame: Frame) -> Layout:
    """The seat boxes let long names wrap onto a second line, unless that leaves the discards
    too little room (twenty long names): then every name keeps to one line, shortened."""
    roomy = _layout(view, frame, NAME_LINES)
    if roomy.height <= MAX_SIDE and min(sprites.tile_size(roomy.family, roomy.tile_h)) >= (
            PILE_TILE_MIN):
        return roomy
    return _layout(view, frame, 1)


def _layout(view: View, frame: Frame, name_most: int) -> Layout:
    family = sprites.family_of(view.tiles)
    n = view.players
    columns = seat_columns(n)
    inner = box_width(columns) - 2 * SEAT_INSET
    meld = _meld_height(inner) if isinstance(view, ThreeDozenView) else 0
    seats_top = header_height(frame.title, header_right(view, frame.lang), BOARD_WIDTH) + PAD
    grid = seat_grid(seat_facts(view, frame), seats_top, columns, meld, name_most=name_most)
    felt_top = grid.bottom + PAD
    info_h = _info_height(view, frame, family)
    panel_top = felt_top + FELT_MARGIN + info_h + INFO_GAP
    groups = len(winning_groups(view))
    win_tile = win_height(family, WIN_TILE[family][0 if grid.rows <= 2 else 1], groups)
    panel_h = panel_height(view, frame, win_tile)
    pile_top = panel_top + (panel_h + FELT_MARGIN if panel_h else 0)
    foot = footer_height(frame.footer, BOARD_WIDTH)
    budget = MAX_SIDE - foot - FELT_MARGIN - pile_top
    tile_h, gap, slots, need = _fit_pile(len(view.pile), family, pile_top, budget)
    pile_h = max(min(PILE_MIN, budget), need) if view.pile else INFO_HEIGHT
    height = pile_top + pile_h + FELT_MARGIN + foot
    return Layout(family, grid, meld, seats_top, felt_top, info_h, panel_top, panel_h,
                  win_tile, pile_top, pile_h, tile_h, gap, slots, height)


def header_right(view: View, lang: str) -> str:
    right = tr(lang, "img.turn", v=view.turns)
    if view.match.deal:
        right = f"{tr(lang, 'img.deal', v=view.match.deal + 1)}   {right}"
    return right


def grid_columns(players: int) -> int:
    """SeatBox boxes per row (see `rendering.canvas.seat_columns`)."""
    return seat_columns(players)


def box_width(columns: int) -> int:
    return (BOARD_WIDTH - 2 * PAD - SEAT_GAP * (columns - 1)) // columns


def seat_facts(view: View, frame: Frame) -> list[SeatBox]:
    """The seat boxes' contents, apart from the drawing so the words can be checked as text."""
    lang = frame.lang
    narrow = box_width(grid_columns(view.players)) < NARROW_BOX
    result = view.outcome
    chips = view.match.totals(result)[1] if result is not None else view.match.chips
    seats = []
    for s in range(view.players):
        lines = [tr(lang, "img.hand", v=view.hand_counts[s])]
        if view.match.deal or result is not None:
            lines.append(tr(lang, "img.match_chips", v=signed(chips[s] * frame.stake)))
        seats.append(SeatBox(
            name=_name(frame, s), lines=tuple(lines),
            badge=(tr(lang, "img.head_short" if narrow else "img.head")
                   if s == view.leader else ""),
            to_move=view.to_move == s,
            winner=result is not None and s in result.winners,
        ))
    return seats


def _board(view: View, frame: Frame) -> Image.Image:
    look, lang = theme(frame.theme), frame.lang
    at = layout(view, frame)
    image = new_image((BOARD_WIDTH, at.height), look.table)
    draw = ImageDraw.Draw(image)
    header(draw, look, frame.title, header_right(view, lang), BOARD_WIDTH)
    draw.rectangle((0, at.seats_top - PAD, BOARD_WIDTH, at.felt_top - PAD // 2),
                   fill=_shade(look.table, 0.78))
    _seats(image, look, view, frame, at)
    _info(image, look, view, frame, at)
    if at.panel_h:
        draw_panel(image, look, view, frame, at)
    _pile(image, look, view, at, frame)
    footer(draw, look, frame.footer, at.height - footer_height(frame.footer, BOARD_WIDTH),
           BOARD_WIDTH)
    return image


# ----- seats -----------------------------------------------------------------------------------


def _seats(image: Image.Image, look: Theme, view: View, frame: Frame, at: Layout) -> None:
    draw_seats(image, look, seat_facts(view, frame), at.grid, at.family)
    if isinstance(view, ThreeDozenView):
        for s in range(view.players):
            spot = (at.grid.origin(s)[0] + SEAT_INSET, at.grid.tiles_y(s))
            _melds(image, look, view.tiles, view.melds[s], spot, at.meld, set(frame.last))


def _meld_height(room: int) -> int:
    """The largest pair height, up to `MELD_MAX`, at which three pairs fit a seat box."""
    for height in range(MELD_MAX, 19, -2):
        if _melds_width(height) <= room:
            return height
    return 20


def _melds_width(height: int) -> int:
    w, _ = sprites.tile_size("western", height)
    return PAIRS_TO_WIN * (2 * w + PAIR_GAP) + (PAIRS_TO_WIN - 1) * MELD_GROUP_GAP


def _melds(image: Image.Image, look: Theme, tiles: TileSet, melds: Sequence[tuple[int, int]],
           at: tuple[int, int], height: int, last: set[int]) -> None:
    """A seat's laid-out pairs two by two, with a faint outline for each pair still to come."""
    draw = ImageDraw.Draw(image)
    w, _ = sprites.tile_size("western", height)
    x, y = at
    for i in range(max(PAIRS_TO_WIN, len(melds))):
        for j in range(2):
            tx = x + j * (w + PAIR_GAP)
            if i < len(melds):
                tile = melds[i][j]
                state: sprites.State = "last" if tile in last else "plain"
                sprite = sprites.face("western", tiles.a[tile], tiles.b[tile], height, look.name,
                                      state)
                image.paste(sprite, (tx, y), sprite)
            else:
                dashed_box(draw, (tx, y, tx + w - 1, y + height - 1),
                           _shade(look.muted, 0.6), 2, DASH)
        x += 2 * w + PAIR_GAP + MELD_GROUP_GAP


# ----- the felt --------------------------------------------------------------------------------


def _info_facts(view: View, frame: Frame) -> str:
    facts = [tr(frame.lang, "img.deck", v=view.stock),
             tr(frame.lang, "img.pot", v=view.pot * frame.stake)]
    if isinstance(view, ThreeDozenView) and view.reshuffles:
        facts.append(tr(frame.lang, "img.reshuffles", v=view.reshuffles))
    return "   ".join(facts)


def take_line(view: View, frame: Frame, family: str) -> tuple[str, bool]:
    """Who may take the framed discards, as drawn, and whether the words take a row of their
    own under the facts. On that row a name too long for it is shortened, never "may take".

    Three Dozen's discard is taken only to be laid out in a pair at once (docs/rules-book.md §2.9),
    and whether it pairs with the next player's hidden tiles the picture cannot know: it says so
    rather than promise a take. With the forced pickup (`pickup=forced`) a discard that pairs must
    be taken, and the words say must, not may."""
    if not view.takeable or view.to_move is None:
        return "", False
    lang, name = frame.lang, _name(frame, view.to_move)
    key = "img.may_take"
    if isinstance(view, ThreeDozenView):
        forced = view.options.pickup == "forced"
        key = "img.must_take_if_pairs" if forced else "img.may_take_if_pairs"
    label = tr(lang, key, name=name)
    face = font(TEXT_SIZE)
    back_w, _ = sprites.tile_size(family, INFO_HEIGHT - 6)
    used = FELT_MARGIN + back_w + 10 + width(_info_facts(view, frame), face) + 40
    if used + width(label, face) + SWATCH + 12 <= BOARD_WIDTH - FELT_MARGIN:
        return label, False
    return fit_name(lambda shown: tr(lang, key, name=shown), name, face, TAKE_ROOM), True


def _info_height(view: View, frame: Frame, family: str) -> int:
    """The felt's first row, and a second when who may take does not fit beside the facts."""
    return INFO_HEIGHT + INFO_SECOND if take_line(view, frame, family)[1] else INFO_HEIGHT


def _info(image: Image.Image, look: Theme, view: View, frame: Frame, at: Layout) -> None:
    """Stock and pot on the left; who may take the framed discards on the right, or on a line
    of its own when a long name leaves no room beside them."""
    draw = ImageDraw.Draw(image)
    mid = at.felt_top + FELT_MARGIN + INFO_HEIGHT // 2
    back = sprites.back(at.family, INFO_HEIGHT - 6, look.name)
    x = FELT_MARGIN
    image.paste(back, (x, mid - back.height // 2), back)
    x += back.width + 10
    draw_text(draw, (x, mid), _info_facts(view, frame), TEXT_SIZE, look.text, anchor="lm")
    label, second = take_line(view, frame, at.family)
    if not label:
        return
    if second:
        mid += INFO_HEIGHT // 2 + INFO_SECOND // 2
    right = BOARD_WIDTH - FELT_MARGIN
    shown = draw_text(draw, (right, mid), label, TEXT_SIZE, look.good, room=TAKE_ROOM,
                      anchor="rm")
    sx = right - shown - 12 - SWATCH
    draw.rounded_rectangle((sx, mid - SWATCH // 2, sx + SWATCH, mid + SWATCH // 2), radius=5,
                           outline=look.good, width=4)


def _fit_pile(count: int, family: str, top: int, budget: int
              ) -> tuple[int, int, tuple[tuple[int, int], ...], int]:
    """The largest discard height at which the whole pile fits `budget` px, rows left to right,
    oldest first, the block centred; returns (height, gap, slots, height used)."""
    sizes = PILE_SIZES[family]
    room = BOARD_WIDTH - 2 * FELT_MARGIN
    for height in sizes:
        w, _ = sprites.tile_size(family, height)
        gap = max(8, w // 3)
        per_row = max(1, (room + gap) // (w + gap))
        rows = -(-count // per_row) if count else 0
        need = rows * height + max(0, rows - 1) * gap
        if need <= budget or height == sizes[-1]:
            break
    across = min(count, per_row)
    left = (BOARD_WIDTH - (across * (w + gap) - gap)) // 2
    slots = tuple((left + (i % per_row) * (w + gap), top + (i // per_row) * (height + gap))
                  for i in range(count))
    return height, gap, slots, need


def _pile(image: Image.Image, look: Theme, view: View, at: Layout, frame: Frame) -> None:
    """The discards, the newest ringed while the deal goes on. Once it is over the ring goes
    to the tiles the last move played, as the footer names them: a discard taken to win is in
    the winning hand, and the newest discard was not played by the winner."""
    draw = ImageDraw.Draw(image)
    if not view.pile:
        draw_text(draw, (BOARD_WIDTH // 2, at.pile_top + at.pile_h // 2),
                  tr(frame.lang, "img.no_discards"),
                  TEXT_SIZE, _shade(look.text, 0.7), anchor="mm")
        return
    tiles = view.tiles
    takeable = set(view.takeable)
    newest = len(view.pile) - 1
    over, last = view.outcome is not None, set(frame.last)
    worth = kap_worth(view) if isinstance(view, KapView) else {}
    for index, ((tile, _seat), (x, y)) in enumerate(zip(view.pile, at.slots, strict=True)):
        ringed = tile in last if over else index == newest
        state: sprites.State = "last" if ringed else "plain"
        sprite = sprites.face(at.family, tiles.a[tile], tiles.b[tile], at.tile_h, look.name,
                              state)
        image.paste(sprite, (x, y), sprite)
        if tile in worth:
            sprites.worth_badge(image, (x, y), at.tile_w, worth[tile], look.name)
        if tile in takeable:
            draw.rounded_rectangle(at.frame(index), radius=max(4, at.tile_w // 5),
                                   outline=look.good, width=at.frame_width)


def _name(frame: Frame, seat: int) -> str:
    return frame.names[seat] if seat < len(frame.names) else f"#{seat + 1}"


def _shade(colour: RGB, t: float) -> RGB:
    return (min(255, round(colour[0] * t)), min(255, round(colour[1] * t)),
            min(255, round(colour[2] * t)))
