"""The table pictures of the line games, drawn from a public view (never from a state).

Rules sources: docs/rules-book.md §2.1–§2.5 (connecting games: one line, the closed end of a one-arm
line, face-down discards counted at the end) and §3 (the draw game: doubles crosswise, the stock, a
match to 100 or 50). Whatever is hidden in the view stays hidden here: face-down discards are drawn
as backs until the view itself reveals them at the deal's end.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from games.connect_deal import ConnectView
from games.domino import DominoView
from games.tiles import TileSet
from rendering import sprites
from rendering.canvas import Frame, SeatBox
from rendering.line_board import Placement, line_board
from rendering.theme import theme
from words.i18n import signed, tr


def connecting_board(view: ConnectView[Any], frame: Frame,
                     badges: Mapping[int, str] | None = None) -> Image.Image:
    """The line, its ends and a box per seat; `badges` mark seats beyond the leader's (a game
    of the family saying who did something the line alone does not show)."""
    lang = frame.lang
    badges = badges or {}
    result = view.outcome
    seats = []
    for s in range(view.players):
        if result is not None:
            lines = [tr(lang, "img.total", v=result.points[s])]
        else:
            lines = [tr(lang, "img.hand", v=view.hand_counts[s]),
                     tr(lang, "img.face_down", v=view.discard_counts[s])]
        lines.append(_standing(view, s, frame))
        seats.append(SeatBox(
            name=_name(frame, s), lines=tuple(x for x in lines if x),
            badge=badges.get(s) or (tr(lang, "img.head") if s == view.leader else ""),
            to_move=view.to_move == s,
            winner=result is not None and s in result.winners,
            tiles=tuple(_faces(view.tiles, t) for t in view.discards[s]),
            backs=view.discard_counts[s],
        ))
    cross = [False] * len(view.line)
    right = tr(lang, "img.in_hands", v=sum(view.hand_counts))
    if view.match.deal:
        right = f"{tr(lang, 'img.deal', v=view.match.deal + 1)}   {right}"
    return line_board(view.line, cross, "chinese", sprites.CHINESE_RATIO, seats, True, frame,
                      theme(frame.theme), tr(lang, "img.empty_line"), right,
                      closed=view.closed is not None, arms=len(view.ends) or view.arms)


def domino_board(view: DominoView[Any], frame: Frame) -> Image.Image:
    lang = frame.lang
    ended = view.outcome is not None
    target = view.options.target
    scores = view.match.totals(view.outcome)[0] if view.outcome else view.match.scores
    seats = []
    for s in range(view.players):
        lines = [tr(lang, "img.hand", v=view.hand_counts[s]),
                 tr(lang, "img.score", v=scores[s], target=target)]
        seats.append(SeatBox(
            name=_name(frame, s), lines=tuple(lines),
            badge=tr(lang, "img.head") if s == view.leader else "",
            to_move=view.to_move == s,
            winner=ended and view.outcome is not None and s in view.outcome.winners,
            tiles=tuple(_faces(view.tiles, t) for t in view.revealed[s]) if ended else (),
        ))
    cross = [_is_double(p) for p in view.line]
    right = tr(lang, "img.stock", v=view.stock)
    if view.match.deal:
        right = f"{tr(lang, 'img.deal', v=view.match.deal + 1)}   {right}"
    return line_board(view.line, cross, "western", sprites.WESTERN_RATIO, seats, ended, frame,
                      theme(frame.theme), tr(lang, "img.empty_line"), right, closed=False,
                      arms=2)


def _standing(view: ConnectView[Any], seat: int, frame: Frame) -> str:
    """The running match figure worth showing: tally points, or chips won and lost so far (in
    the table's chips, as the captions and the pot count them)."""
    lang = frame.lang
    if view.options.settlement == "tally":
        return tr(lang, "img.score", v=view.match.scores[seat], target=view.options.target)
    if view.match.deal:
        return tr(lang, "img.match_chips", v=signed(view.match.chips[seat] * frame.stake))
    return ""


def _name(frame: Frame, seat: int) -> str:
    return frame.names[seat] if seat < len(frame.names) else f"#{seat + 1}"


def _faces(tiles: TileSet, tile: int) -> tuple[int, int]:
    return tiles.a[tile], tiles.b[tile]


def _is_double(placement: Placement) -> bool:
    return placement[1] == placement[2]
