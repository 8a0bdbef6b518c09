"""The bot's pictures as PNG bytes: a game's board, a hand, a deal's result, the leaderboard.

DESIGN.md §7: each picture is drawn from a view (or plain rows for the leaderboard) by the home
of the view's game, with the words the caller has translated in its `Frame`; anything but a view
is refused (`home_of` raises TypeError), so nothing hidden can reach a picture by mistake.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from faces import home_of
from games.engine import View
from rendering import Frame, Standing, encode, leaderboard_card


def board(view: View[Any], frame: Frame) -> bytes:
    """The group's table picture."""
    return encode(home_of(view).board(view, frame))


def hand(view: View[Any], frame: Frame) -> bytes:
    """One seat's own tiles, lettered like the buttons; the view must be that seat's view."""
    drawn = home_of(view)
    if view.seat is None:
        raise ValueError("a hand is drawn from a seat's own view")
    return encode(drawn.hand(view, frame))


def result(view: View[Any], frame: Frame) -> bytes:
    """The deal-result card of a finished deal."""
    return encode(home_of(view).result(view, frame))


def leaderboard(rows: Sequence[Standing], frame: Frame) -> bytes:
    return encode(leaderboard_card(rows, frame))
