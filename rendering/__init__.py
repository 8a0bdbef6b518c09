"""Pillow's toolkit for the bot's pictures (docs/architecture.md §7): tile sprites, text in the
bundled font, themes, the frame every board shares (header, seat boxes, footer, PNG encoding), the
snake a line of tiles is laid along, a player's lettered hand, and the result and leaderboard cards.

What a game's board looks like is its home's (`faces/`), drawn with these parts; nothing here
knows a game. A hand is drawn only from a seat's own view, and only a view (never a state) is
ever drawn.
"""

from __future__ import annotations

from rendering.canvas import Frame, SeatBox, encode
from rendering.cards import ResultRow, Standing, leaderboard_card, result_card
from rendering.hand import hand_image, hand_labels

__all__ = ["Frame", "ResultRow", "SeatBox", "Standing", "encode", "hand_image", "hand_labels",
           "leaderboard_card", "result_card"]
