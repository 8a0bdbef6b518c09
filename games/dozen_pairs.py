"""Three Dozen's pairs (docs/rules-book.md §2.9): two consecutive doubles of the Western double-six
set, or two tiles whose pips add up to twelve. The rules (`games.threedozen`), its computer player
(`games.threedozen_ai`) and its re-dealer (`games.hidden.threedozen`) all read pairs here.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.tiles import WESTERN

_A = WESTERN.a
_PIPS = WESTERN.pips
_DOUBLE = WESTERN.double
_ALL = tuple(range(WESTERN.size))


def is_pair(a: int, b: int) -> bool:
    """Two consecutive doubles, or two tiles whose pips add up to twelve (§2.9)."""
    if _PIPS[a] + _PIPS[b] == 12:
        return True
    return _DOUBLE[a] and _DOUBLE[b] and abs(_A[a] - _A[b]) == 1


PARTNERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(b for b in _ALL if b != a and is_pair(a, b)) for a in _ALL
)
"""Every tile's possible partners (TD-01: [3:3] pairs with [4:4] [2:2] [6:0] [5:1] [4:2])."""


def pairing(tiles: Sequence[int]) -> tuple[tuple[int, int], ...] | None:
    """The tiles split into pairs, or None if they cannot all be paired."""
    if not tiles:
        return ()
    first, rest = tiles[0], tuple(tiles[1:])
    for i, other in enumerate(rest):
        if is_pair(first, other):
            tail = pairing(rest[:i] + rest[i + 1:])
            if tail is not None:
                return ((first, other), *tail)
    return None


def hand_pairs(hand: Sequence[int]) -> list[tuple[int, int]]:
    """Every pair that could be laid out from the hand, lower id first."""
    return [(a, b) for i, a in enumerate(hand) for b in hand[i + 1:] if is_pair(a, b)]
