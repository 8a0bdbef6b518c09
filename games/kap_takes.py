"""The discards that may pay for a taken Kap tile, found once per hand and kind taken: what the
Kap table the simulator plays on (`games.kap_scored`) weighs a take by.

Rules source: docs/rules-book.md §2.6 (Culin's turn: take any face-up discard and pay for it
with another; D-10: a taken tile may not go straight back), §2.7 (several sets).

Apart from the table so that its module holds the readings and the choice: these helpers work
on a reading's signature (`games.kap_signatures`) and counts, and say which discards leave the
fewest tiles missing after a take, as `kap_ai.rater` works them out from a view.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from games.kap_ai import MISSING_WEIGHT
from games.kap_signatures import _COUNT_BITS, _STATE_SHIFT

Candidate = tuple[int, int, int, float, tuple[int, ...]]
"""A discard that pays for a taken tile, as weighing the hand it leaves needs it
(`_fewest_missing`)."""
_ONE = tuple(1 << (_COUNT_BITS * r) for r in range(10))
"""Per last digit, one tile more in a signature's count of tiles ending in it."""
_EYE = tuple(tuple(e << (_STATE_SHIFT + 2 * r) for e in range(4)) for r in range(10))
"""Per last digit, its eye state (0 none, 1 half, 2 whole; 3 the field's mask) in place."""


@cache
def _candidates(game: str, four_two: int, culin: bool, sets: int
                ) -> dict[tuple[int, int], list[Candidate]]:
    """Per hand (its counts per kind as one number) and tile taken (the digit of a kind the hand
    lacks, else 10 + its kind), the discards after the take that leave the fewest tiles
    missing, as weighing them needs them (`_fewest_missing`): what `kap_ai.rater` remembers
    per hand and kind, kept here per multiset of kinds (identical tiles weigh alike)."""
    return {}


def _less_one(digit: tuple[int, ...], kind_of: tuple[int, ...], hand: list[int],
              counts: list[int], key: int, ones: list[int], twos: list[int]
              ) -> list[tuple[int, int, int]]:
    """Per kind held, in kind order: the kind, its digit, and the signature `key` of the hand
    with one tile of it fewer (`kap_ai.rater`'s `minus`)."""
    minus = []
    last = -1
    for t in hand:
        d = kind_of[t]
        if d == last:
            continue
        last = d
        m = counts[d]
        q = digit[d]
        eye = _EYE[q]
        o, w = ones[q], twos[q]
        if m == 1:
            o -= 1
        elif m == 2:
            w -= 1
            o += 1
        minus.append((d, q, (key - _ONE[q]) & ~eye[3] | eye[2 if w else 1 if o else 0]))
    return minus


def _fewest_missing(sig: Any, digit: tuple[int, ...], minus: list[tuple[int, int, int]],
                    counts: list[int], key: int, ones: list[int], twos: list[int], p: int
                    ) -> list[Candidate]:
    """The discards that pay for a tile of kind `p` taken and leave the fewest tiles missing
    (`kap_ai.rater`'s candidates: the hand's least useful tile but one of kind p, D-10), each
    as what weighing the hand it leaves needs: its kind, the copies of it held, how its copies
    still to come move (`value_without`: -1, 0 or 1), `MISSING_WEIGHT` times what that hand
    lacks, and the cells it adds up. A discard ending in another digit than the taken tile
    changes the hand less that tile (`minus`) only where the take does."""
    r = digit[p]
    n = counts[p]
    ones_r, twos_r = ones[r], twos[r]
    if n == 0:
        ones_r += 1
    elif n == 1:
        ones_r -= 1
        twos_r += 1
    eye = _EYE[r]
    taken = (key + _ONE[r]) & ~eye[3] | eye[2 if twos_r else 1]
    moved = taken - key
    shorts = sig.shorts
    best_short = 99
    fewest: list[tuple[int, int]] = []
    for d, q, less in minus:
        if q != r:
            after = less + moved
        elif d == p:
            continue
        else:
            # The taken hand less one tile of kind d, at the taken tile's own digit.
            m = counts[d]
            o, w = ones_r, twos_r
            if m == 1:
                o -= 1
            elif m == 2:
                w -= 1
                o += 1
            after = (taken - _ONE[r]) & ~eye[3] | eye[2 if w else 1 if o else 0]
        s = shorts.get(after)
        if s is None:
            s = sig.missing(after)
        if s < best_short:
            best_short, fewest = s, [(d, after)]
        elif s == best_short:
            fewest.append((d, after))
    candidates: list[Candidate] = []
    for d, after in fewest:
        found = sig.info.get(after)
        if found is None:
            found = sig.details(after)
        short, helps, bits = found
        m = counts[d]
        change = 0
        if m <= 2:
            b = 3 * digit[d] + m
            change = (helps >> (b - 1) & 1) - (helps >> b & 1)
        candidates.append((d, m, change, MISSING_WEIGHT * short, bits))
    return candidates
