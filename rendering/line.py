"""Where each tile of a line of play goes: a snake that wraps to fit the image.

Rules source: docs/rules-book.md §2.1 (one line, one or two open ends) and §3 (the draw game lays
doubles crosswise). Rows run left to right, then right to left, and so on; at each turn one tile
stands upright in the turn, its top half beside the row it leaves and its bottom half beside the row
it starts, so the chain of touching numbers is never broken. Rows are one tile-length apart, which
is exactly the room a crosswise double needs above and below its row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Slot:
    """One tile's box. `forward` is the direction of travel: rightwards, or down at a turn."""

    x: int
    y: int
    w: int
    h: int
    horizontal: bool
    forward: bool
    turn: bool


@dataclass(frozen=True, slots=True)
class Snake:
    slots: tuple[Slot, ...]
    """One per tile, then one more where the next tile would go (the open end's marker)."""
    height: int
    long: int


def snake(cross: Sequence[bool], long: int, short: int, width: int, margin: int, gap: int
          ) -> Snake:
    """Lay out `len(cross)` tiles (True: a double laid crosswise) in `width` pixels."""
    left, right = margin, width - margin
    count = len(cross) + 1
    crossing = [*cross, False]
    # One row if everything fits: centre it.
    widths = [short if c else long for c in cross] + [short]  # the end marker is narrow
    run = sum(widths) + gap * (count - 1)
    if run <= right - left:
        x = left + (right - left - run) // 2
        slots = []
        for c, w in zip(crossing, widths, strict=True):
            slots.append(_in_row(x, 0, w, long, short, c, forward=True))
            x += w + gap
        return Snake(tuple(slots), long, long)
    slots = []
    row, forward, x = 0, True, left
    for i, c in enumerate(crossing):
        w = short if c else long
        fits = x + w <= right - short - gap if forward else x - w >= left + short + gap
        if i == count - 1 and not fits:
            # The end marker needs no turn: it stands in the column kept free for one.
            slots.append(_in_row(x if forward else x - short, row, short, long, short, False,
                                 forward))
            break
        if fits:
            slots.append(_in_row(x if forward else x - w, row, w, long, short, c, forward))
            x = x + w + gap if forward else x - w - gap
            continue
        # The turn: an upright tile at the row's end, reaching into the next row.
        turn_x = x if forward else x - short
        top = row * long + (long - short) // 2 + short // 2
        slots.append(Slot(turn_x, top, short, long, False, True, True))
        row += 1
        forward = not forward
        x = turn_x - gap if not forward else turn_x + short + gap
    return Snake(tuple(slots), (row + 1) * long, long)


def _in_row(x: int, row: int, w: int, long: int, short: int, cross: bool, forward: bool
            ) -> Slot:
    top = row * long + (long - short) // 2
    if cross:
        return Slot(x, top - (long - short) // 2, short, long, False, forward, False)
    return Slot(x, top, w, short, True, forward, False)


def best_fit(cross: Sequence[bool], ratio: float, width: int, height: int, margin: int,
             sizes: Sequence[int]) -> Snake:
    """The largest tile length in `sizes` (largest first) whose snake fits `height`."""
    layout = None
    for long in sizes:
        short = round(long / ratio)
        layout = snake(cross, long, short, width, margin, max(2, short // 10))
        if layout.height <= height:
            return layout
    assert layout is not None
    return layout
