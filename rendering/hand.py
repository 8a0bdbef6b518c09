"""A player's own hand, each tile lettered like its button, the playable ones outlined.

The letters come from `hand_labels`, which the bot's buttons use as well, so "B" on a button is
always the tile above "B" in the picture. Duplicate Chinese tiles are interchangeable, so every copy
of a playable kind is marked, not only the copy the move names. In Tien Gow (docs/rules-book.md
§2.8) every tile can follow face down, so only tiles that can be played face up are marked there.

In the draw-and-discard games (docs/rules-book.md §2.6, §2.7, §2.9) a turn may begin with a choice
on the table (take a discard or draw): then no tile of the hand is dimmed, and only a hand tile a
take would lay out with the discard is marked. The tile the view names as just taken from the
discards is ringed in gold and labelled, because it may not go straight back (D-10).
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from games.engine import Action, View
from rendering import sprites
from rendering.canvas import PAD, Frame, new_image
from rendering.text import draw_text, font
from rendering.theme import theme
from words.i18n import tr

TILE_HEIGHT = {"chinese": 200, "western": 160}
PER_ROW = 12
LABEL_SIZE = 32
MIN_WIDTH = 420
FACE_DOWN = frozenset({"fold"})
"""Verbs that lay tiles face down: any tile of the hand can go, so none is singled out."""
FROM_TABLE = frozenset({"take"})
"""Verbs that take a tile from the table: while one is offered the choice is there, not in the
hand, so no tile of the hand is dimmed."""
NOTE_SIZE = 22


def hand_labels(count: int) -> tuple[str, ...]:
    """A, B, … Z, then A2, B2, … for very large hands."""
    letters = string.ascii_uppercase
    return tuple(letters[i % 26] + ("" if i < 26 else str(i // 26 + 1)) for i in range(count))


def hand_image(view: View[Any], frame: Frame, pending: int | None = None,
               taken: int | None = None, worth: Mapping[int, int] | None = None
               ) -> Image.Image:
    """One seat's own tiles (the view must be that seat's): `pending` is a tile that must be
    played now (shown selected), `taken` one just taken from the table (ringed, labelled);
    `worth` gives what a tile counts where that is not its pips (marked on the tile)."""
    worth = worth or {}
    if view.seat is None:
        raise ValueError("a hand is drawn from a seat's own view")
    tiles = view.tiles
    family = sprites.family_of(tiles)
    look = theme(frame.theme)
    hand: tuple[int, ...] = view.hand
    legal: tuple[Action, ...] = view.legal
    # A face-down play (Tien Gow's fold) may take any tile, so it marks nothing: only tiles
    # that can be shown face up are outlined, and no tile is ever dimmed.
    foldable = any(action.verb in FACE_DOWN for action in legal)
    choosing = any(action.verb in FROM_TABLE for action in legal)
    held = set(hand)
    legal_kinds = {tiles.kind_of[t] for action in legal if action.verb not in FACE_DOWN
                   for t in action.tiles if t in held}
    height = TILE_HEIGHT[family]
    w, _ = sprites.tile_size(family, height)
    gap = 16
    rows = max(1, -(-len(hand) // PER_ROW))
    per_row = max(1, -(-len(hand) // rows))
    note = NOTE_SIZE + 8 if taken in held else 0
    row_h = height + 12 + LABEL_SIZE + 16 + note
    run = per_row * (w + gap) - gap
    size = (max(MIN_WIDTH, run + 2 * PAD), rows * row_h + PAD)
    left = (size[0] - run) // 2
    image = new_image(size, look.panel)
    draw = ImageDraw.Draw(image)
    face = font(LABEL_SIZE, bold=True)
    if not hand:
        return image
    for i, (tile, label) in enumerate(zip(hand, hand_labels(len(hand)), strict=True)):
        state: sprites.State = "plain"
        if tile == pending:
            state = "selected"
        elif tile == taken:
            state = "last"
        elif tiles.kind_of[tile] in legal_kinds:
            state = "playable"
        elif legal and not foldable and not choosing:
            state = "dim"
        row, col = divmod(i, per_row)
        x = left + col * (w + gap)
        y = PAD + row * row_h
        sprite = sprites.face(family, tiles.a[tile], tiles.b[tile], height, look.name, state)
        image.paste(sprite, (x, y), sprite)
        if tile in worth:
            sprites.worth_badge(image, (x, y), w, worth[tile], look.name)
        colour = look.good if state in ("playable", "selected") else (
            look.muted if state == "dim" else look.gold if state == "last" else look.text)
        draw.text((x + w // 2, y + height + 12), label, font=face, fill=colour, anchor="mt")
        if state == "last":
            draw_text(draw, (x + w // 2, y + height + 12 + LABEL_SIZE + 6),
                      tr(frame.lang, "img.taken_tile"), NOTE_SIZE, look.gold, room=w + gap,
                      anchor="mt")
    return image
