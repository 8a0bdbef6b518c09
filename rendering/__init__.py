"""Pillow images of tiles, tables, hands and the leaderboard, from public views (DESIGN.md §7).

The functions here are the whole interface: each takes a view (or plain rows for the
leaderboard) and the words the caller has translated, and returns PNG bytes. Anything that is
not a view, a state above all, is refused with a TypeError, so nothing hidden can reach a
picture by mistake.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.connecting import ConnectView
from games.domino import DominoView
from games.kap import KapView
from games.threedozen import ThreeDozenView
from games.tiengow import TienGowView
from rendering.boards import connecting_board, domino_board
from rendering.canvas import Table, encode
from rendering.cards import Standing, leaderboard_card, result_card
from rendering.collecting import kap_board, threedozen_board
from rendering.hand import hand_image, hand_labels
from rendering.tricks import tiengow_board

__all__ = ["Standing", "Table", "board", "hand", "hand_labels", "leaderboard", "result"]

VIEWS = (ConnectView, DominoView, TienGowView, KapView, ThreeDozenView)


def board(view: Any, table: Table) -> bytes:
    """The group's table picture."""
    _check(view)
    if isinstance(view, ConnectView):
        return encode(connecting_board(view, table))
    if isinstance(view, TienGowView):
        return encode(tiengow_board(view, table))
    if isinstance(view, KapView):
        return encode(kap_board(view, table))
    if isinstance(view, ThreeDozenView):
        return encode(threedozen_board(view, table))
    return encode(domino_board(view, table))


def hand(view: Any, table: Table) -> bytes:
    """One seat's own tiles, lettered like the buttons; the view must be that seat's view."""
    _check(view)
    if view.seat is None:
        raise ValueError("a hand is drawn from a seat's own view")
    return encode(hand_image(view, table))


def result(view: Any, table: Table) -> bytes:
    """The deal-result card of a finished deal."""
    _check(view)
    return encode(result_card(view, table))


def leaderboard(rows: Sequence[Standing], table: Table) -> bytes:
    return encode(leaderboard_card(rows, table))


def _check(view: Any) -> None:
    if not isinstance(view, VIEWS):
        raise TypeError(f"images are drawn from a view, not from {type(view).__name__}")
