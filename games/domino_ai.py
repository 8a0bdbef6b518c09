"""Heuristic play for the Ukrainian draw game, from one seat's view.

Rules source: docs/rules-book.md §2.10 — the pips left in hand go to the winner (and, by default,
are paid in chips), so the heuristic sheds heavy tiles and doubles first (a double has only one
number to match later), keeps numbers it can follow, and leaves ends that the unseen tiles rarely
match.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engine import Action
from games.tiles import WESTERN

_A = WESTERN.a
_B = WESTERN.b
_PIPS = WESTERN.pips
_DOUBLE = WESTERN.double

DOUBLE_BONUS = 4.0
FOLLOW_WEIGHT = 2.0
UNSEEN_WEIGHT = 0.5


def rater(view: Any) -> Callable[[Action], float]:
    known = set(view.hand)
    known.update(p[0] for p in view.line)
    unseen = [t for t in range(WESTERN.size) if t not in known]
    unseen_on = WESTERN.number_counts(unseen)
    # How many tiles in hand show each number; a tile played leaves one fewer on its numbers.
    held_on = WESTERN.number_counts(view.hand)

    def rate(action: Action) -> float:
        if action.verb in ("draw", "pass"):
            return 0.0
        (tile,) = action.tiles
        a, b = _A[tile], _B[tile]
        if action.verb == "lead" or not view.ends:
            ends = [a, b]
        else:
            ends = list(view.ends)
            arm = action.arg or 0
            ends[arm] = b if a == ends[arm] else a
        value = float(_PIPS[tile]) + (DOUBLE_BONUS if _DOUBLE[tile] else 0.0)
        for number in set(ends):
            follow = held_on[number] - (a == number or b == number)
            value += FOLLOW_WEIGHT * (follow if follow < 2 else 2)
            value -= UNSEEN_WEIGHT * unseen_on[number]
        return value

    return rate
