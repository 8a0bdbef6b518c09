"""The bot's pictures as PNG bytes: a game's board, a hand, a deal's result, the leaderboard,
a season's podium.

docs/architecture.md §7: each picture is drawn from a view (or plain rows for the leaderboard) by
the home of the view's game, with the words the caller has translated in its `Frame`; anything but a
view is refused (`home_of` raises TypeError), so nothing hidden can reach a picture by mistake. `to`
says where the picture goes ("telegram", "discord", "console"), which decides how it is encoded
(`rendering.encoding`); the default, "lossless", is exactly the pixels drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from faces import home_of
from games.engine import View
from rendering import Frame, Standing, encode, leaderboard_card
from rendering.encoding import Destination
from rendering.podium import podium_card


def board(view: View[Any], frame: Frame, to: Destination = "lossless") -> bytes:
    """The group's table picture."""
    return encode(home_of(view).board(view, frame), to)


def hand(view: View[Any], frame: Frame, to: Destination = "lossless") -> bytes:
    """One seat's own tiles, lettered like the buttons; the view must be that seat's view."""
    drawn = home_of(view)
    if view.seat is None:
        raise ValueError("a hand is drawn from a seat's own view")
    return encode(drawn.hand(view, frame), to)


def result(view: View[Any], frame: Frame, to: Destination = "lossless") -> bytes:
    """The deal-result card of a finished deal."""
    return encode(home_of(view).result(view, frame), to)


def leaderboard(rows: Sequence[Standing], frame: Frame, to: Destination = "lossless",
                won: bool = False) -> bytes:
    """A page of a leaderboard (`won`: a season's, by chips won in it)."""
    return encode(leaderboard_card(rows, frame, won), to)


def podium(rows: Sequence[Standing], frame: Frame, to: Destination = "lossless") -> bytes:
    """A season's first three, on the podium."""
    return encode(podium_card(rows, frame), to)
