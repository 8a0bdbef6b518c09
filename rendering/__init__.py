"""Pillow's toolkit for the bot's pictures (docs/architecture.md §7): tile sprites, text in the
bundled font, themes, the frame every board shares (header, seat boxes, footer, PNG encoding), the
snake a line of tiles is laid along, a player's lettered hand, and the result and leaderboard cards.

What a game's board looks like is its home's (`faces/`), drawn with these parts; nothing here
knows a game. A hand is drawn only from a seat's own view, and only a view (never a state) is
ever drawn.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rendering.canvas import Frame, SeatBox, encode
    from rendering.cards import ResultRow, Standing, leaderboard_card, result_card
    from rendering.hand import hand_image, hand_labels

__all__ = ["Frame", "ResultRow", "SeatBox", "Standing", "encode", "hand_image", "hand_labels",
           "leaderboard_card", "result_card"]

_HOMES = {"Frame": "canvas", "SeatBox": "canvas", "encode": "canvas", "ResultRow": "cards",
          "Standing": "cards", "leaderboard_card": "cards", "result_card": "cards",
          "hand_image": "hand", "hand_labels": "hand"}
"""Where each of the names above is kept. They are imported when first asked for, so that a
reader of one light module (the themes' names, `rendering.theme`) does not load Pillow."""


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'rendering' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"rendering.{home}"), name)
    globals()[name] = value
    return value
