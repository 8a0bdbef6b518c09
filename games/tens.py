"""What makes a winning hand in Kap Ten and Kap Tai Shap: an eye and pairs of tens.

Rules source: docs/rules-book.md §2.6 (tile values, `[4:2]` counts 3; eye + three pairs), §2.7 (eye
+ four pairs; with several sets any two identical tiles make an eye), §3 row 16 (some pages count
`[4:2]` as 6: an option), examples KT-01…KT-03 in §5.

Two tiles make a ten exactly when their values add up to a multiple of ten (two tiles total at
most 24, so 10 or 20). That depends only on each value's last digit, so once an eye is set
aside the rest pairs up exactly when the tiles ending in 1 match those ending in 9 one for one,
2 match 8, 3 match 7, 4 match 6, and the fives and the zeros are each even in number. Trying
every eye and checking those counts is the "every eye, every pairing" search, done in a few
dozen steps: the test runs after every tile a player receives, millions of times in `gupai sim`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from games.tiles import CHINESE

KINDS = len(CHINESE.kinds)
_FOUR_TWO = next(k for k, kind in enumerate(CHINESE.kinds) if (kind.hi, kind.lo) == (4, 2))
_PARTNER = (0, 9, 8, 7, 6, 5, 4, 3, 2, 1)
"""The last digit that completes a ten with each last digit."""


@cache
def values(four_two: int = 3) -> tuple[int, ...]:
    """Each kind's value in tens: its pips, except `[4:2]`, which counts `four_two`."""
    return tuple(four_two if k == _FOUR_TWO else kind.pips for k, kind in enumerate(CHINESE.kinds))


@cache
def digits(four_two: int = 3) -> tuple[int, ...]:
    """Each kind's value modulo ten, the only thing a ten depends on."""
    return tuple(v % 10 for v in values(four_two))


def _tally(kinds: Sequence[int], d: Sequence[int]) -> tuple[list[int], dict[int, int]]:
    """How many kinds end in each digit, and how many of each kind there are."""
    counts = [0] * 10
    seen: dict[int, int] = {}
    for k in kinds:
        counts[d[k]] += 1
        seen[k] = seen.get(k, 0) + 1
    return counts, seen


def _balanced(c: list[int]) -> bool:
    return (c[1] == c[9] and c[2] == c[8] and c[3] == c[7] and c[4] == c[6]
            and not c[5] & 1 and not c[0] & 1)


def wins(kinds: Sequence[int], four_two: int = 3) -> bool:
    """Whether the kinds (an even number, eye + pairs) form a winning hand."""
    if len(kinds) < 2 or len(kinds) & 1:
        return False
    d = digits(four_two)
    counts, seen = _tally(kinds, d)
    tried = 0
    for k, n in seen.items():
        if n < 2:
            continue
        r = d[k]
        if tried & (1 << r):
            continue  # another eye with the same last digit leaves the same counts
        tried |= 1 << r
        counts[r] -= 2
        ok = _balanced(counts)
        counts[r] += 2
        if ok:
            return True
    return False


def layout(tiles: Sequence[int], kind_of: Sequence[int], four_two: int = 3
           ) -> tuple[tuple[int, int], tuple[tuple[int, int], ...]] | None:
    """A winning hand laid out as (eye, pairs) of tile ids, or None if the tiles do not win.

    The eye chosen is the highest-ranked one that works, so the same hand is always shown the
    same way; the pairs are matched by last digit.
    """
    if not wins([kind_of[t] for t in tiles], four_two):
        return None
    d = digits(four_two)
    by_kind: dict[int, list[int]] = {}
    for t in sorted(tiles):
        by_kind.setdefault(kind_of[t], []).append(t)
    for k in sorted(by_kind):
        if len(by_kind[k]) < 2:
            continue
        eye = (by_kind[k][0], by_kind[k][1])
        rest = [t for t in sorted(tiles) if t not in eye]
        by_digit: dict[int, list[int]] = {}
        for t in rest:
            by_digit.setdefault(d[kind_of[t]], []).append(t)
        if not _balanced([len(by_digit.get(r, ())) for r in range(10)]):
            continue
        pairs: list[tuple[int, int]] = []
        for r in range(10):
            mine = by_digit.get(r, [])
            if r in (0, 5):
                pairs += [(mine[i], mine[i + 1]) for i in range(0, len(mine), 2)]
            elif r < 5:
                pairs += list(zip(mine, by_digit.get(_PARTNER[r], []), strict=True))
        return eye, tuple(pairs)
    return None


def missing(kinds: Sequence[int], pairs: int, four_two: int = 3) -> int:
    """How many more tiles the kinds need to become an eye plus `pairs` tens, at best.

    Surplus tiles do not count against a hand; 0 means it already wins. The eye is tried on
    every kind held (or on no kind held), and the tens are matched greedily by last digit, which
    is optimal because tens never mix digits. Every kind is assumed still to come, so with one
    set a military tile counts as half an eye although its twin does not exist: a measure for
    computer players to compare hands by, not a promise that the hand can be completed.
    """
    d = digits(four_two)
    counts, seen = _tally(kinds, d)
    best = 2 + _pairs_missing(counts, len(kinds), pairs)
    for k, n in seen.items():
        r = d[k]
        used = 2 if n >= 2 else 1
        counts[r] -= used
        need = (2 - used) + _pairs_missing(counts, len(kinds) - used, pairs)
        counts[r] += used
        if need < best:
            best = need
            if best == 0:
                break
    return best


def _pairs_missing(c: list[int], size: int, pairs: int) -> int:
    full = (min(c[1], c[9]) + min(c[2], c[8]) + min(c[3], c[7]) + min(c[4], c[6])
            + c[5] // 2 + c[0] // 2)
    if full >= pairs:
        return 0
    short = pairs - full
    singles = size - 2 * full
    return 2 * short - min(singles, short)
