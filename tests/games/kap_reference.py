"""The Kap heuristic in its plain formulation: the reference `games/kap_ai.py` is held to.

`kap_ai` weighs hands by changing one reading of the view a tile at a time and analyses new
signatures in one pass; this module is the straightforward version it was derived from: every
hand weighed from its counts afresh, every signature one tile larger analysed by `_short`
itself. Both must score every legal move of every position exactly alike
(`tests/games/test_kap_reference.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from games.engine import Action
from games.kap_ai import (
    _COUNT_BITS,
    _STATE_SHIFT,
    DRAW_BIAS,
    MISSING_WEIGHT,
    PILE_WEIGHT,
    RESHAPE_PLAYERS,
    WIN,
    _pairs,
)
from games.tens import KINDS, digits
from games.tiles import CHINESE, chinese


@cache
def _groups(four_two: int) -> tuple[tuple[int, ...], ...]:
    """The kinds ending in each digit."""
    d = digits(four_two)
    return tuple(tuple(k for k in range(KINDS) if d[k] == r) for r in range(10))


@cache
def _totals(sets: int) -> tuple[int, ...]:
    """Copies of each kind in `sets` sets: civil kinds twice per set, military once."""
    return tuple(sets * (2 if kind.civil else 1) for kind in CHINESE.kinds)


def _short(c: list[int], eyes: list[int], pairs: int) -> int:
    """`tens.missing` worked out from a signature: per digit the tile count `c` and the best
    eye there (`eyes`: 0 none, 1 half of one, 2 a whole one).

    The tens are matched by last digit (1 with 9, 2 with 8, 3 with 7, 4 with 6, fives and zeros
    among themselves); an eye changes only its own digit's term, so each eye tried costs a few
    operations instead of a recount.
    """
    # min() is spelt out: this runs hundreds of thousands of times in a simulation.
    c1, c2, c3, c4, c6, c7, c8, c9 = c[1], c[2], c[3], c[4], c[6], c[7], c[8], c[9]
    full = ((c[0] >> 1) + (c1 if c1 < c9 else c9) + (c2 if c2 < c8 else c8)
            + (c3 if c3 < c7 else c7) + (c4 if c4 < c6 else c6) + (c[5] >> 1))
    size = sum(c)
    if full >= pairs:
        best = 2
    else:
        lack = pairs - full
        spare = size - 2 * full
        best = 2 + 2 * lack - (spare if spare < lack else lack)
    for r in range(10):
        used = eyes[r]
        if not used:
            continue
        here = c[r]
        left = here - used
        if r == 0 or r == 5:
            rest = full - (here >> 1) + (left >> 1)
        else:
            mate = c[10 - r]
            rest = full - (here if here < mate else mate) + (left if left < mate else mate)
        need = 2 - used
        if rest < pairs:
            lack = pairs - rest
            spare = size - used - 2 * rest
            need += 2 * lack - (spare if spare < lack else lack)
        if need < best:
            best = need
            if not best:
                break
    return best


class _Signatures:
    """What `missing` says about the signatures met, for one game and one `[4:2]` value.

    A signature holds, per last digit r, the count of tiles ending in r (4 bits at 4r) and the
    best eye that digit offers (2 bits at 40 + 2r: 0 none, 1 a kind held once, 2 a kind held at
    least twice). That is all `missing` depends on: it tries one eye per kind held, and a full
    eye at a digit is never worse than half of one there (taking one more tile out of the tens
    costs them at most one tile), so the half eye only matters where no full one exists.
    """

    def __init__(self, pairs: int, four_two: int) -> None:
        self.pairs = pairs
        self.four_two = four_two
        self.groups = _groups(four_two)
        self.digit = digits(four_two)
        self._masks = tuple((0xF << (_COUNT_BITS * r)) | (3 << (_STATE_SHIFT + 2 * r))
                            for r in range(10))
        self._analysis: dict[int, int] = {}
        self._short: dict[int, int] = {}

    def key(self, counts: list[int]) -> int:
        key = 0
        for r in range(10):
            key |= self._part(counts, r)
        return key

    def rekey(self, key: int, counts: list[int], kind: int) -> int:
        """The signature once the count of one kind has changed (only its digit moves)."""
        r = self.digit[kind]
        return (key & ~self._masks[r]) | self._part(counts, r)

    def _part(self, counts: list[int], r: int) -> int:
        total = 0
        best = 0
        for k in self.groups[r]:
            n = counts[k]
            if n:
                total += n
                if n > 1:
                    best = 2
                elif best == 0:
                    best = 1
        return (total << (_COUNT_BITS * r)) | (best << (_STATE_SHIFT + 2 * r)) if total else 0

    @staticmethod
    def decode(key: int) -> tuple[list[int], list[int]]:
        return ([(key >> (_COUNT_BITS * r)) & 0xF for r in range(10)],
                [(key >> (_STATE_SHIFT + 2 * r)) & 3 for r in range(10)])

    def missing(self, key: int) -> int:
        """What a hand with this signature lacks (`tens.missing` of any such hand)."""
        found = self._short.get(key)
        if found is None:
            found = _short(*self.decode(key), self.pairs)
            self._short[key] = found
        return found

    def analysis(self, key: int) -> tuple[int, int]:
        """What the hand lacks, and which tiles would bring it one closer: bit 3r + u is set
        when one more tile ending in r helps, u telling that tile's kind apart (0: not held,
        1: held once, so it makes an eye, 2: held twice or more)."""
        found = self._analysis.get(key)
        if found is not None:
            return found & 0xF, found >> 4
        c, eyes = self.decode(key)
        pairs = self.pairs
        short = _short(c, eyes, pairs)
        helps = 0
        if short:
            for r in range(10):
                best = eyes[r]
                c[r] += 1
                # u = 0: a kind not held (at best half an eye); 1: a kind held once (an eye);
                # 2: a kind held twice already (the eye there stays what it was).
                for u, after in ((0, best or 1), (1, 2), (2, 2)):
                    if (u == 1 and not best) or (u == 2 and best != 2):
                        continue
                    eyes[r] = after
                    if _short(c, eyes, pairs) < short:
                        helps |= 1 << (3 * r + u)
                eyes[r] = best
                c[r] -= 1
        self._analysis[key] = short | helps << 4
        return short, helps


@cache
def signatures(pairs: int, four_two: int) -> _Signatures:
    return _Signatures(pairs, four_two)


def _helpful(sig: _Signatures, counts: list[int], helps: int) -> list[int]:
    """The kinds one more of which would help a hand with these counts."""
    digit = sig.digit
    out = []
    for k in range(KINDS):
        n = counts[k]
        if helps >> (3 * digit[k] + (n if n < 2 else 2)) & 1:
            out.append(k)
    return out


class _Table:
    """One view, read once: the hand as counts per kind, and what may still come."""

    def __init__(self, view: Any) -> None:
        opts = view.options
        self.sig = signatures(_pairs(view.game), opts.four_two)
        kind_of = chinese(max(view.sets, 1)).kind_of
        self.kind_of = kind_of
        counts = [0] * KINDS
        for t in view.hand:
            counts[kind_of[t]] += 1
        self.counts = counts
        pile = [0] * KINDS
        for t, _ in view.pile:
            pile[kind_of[t]] += 1
        weight = self.pile_weight = PILE_WEIGHT if opts.rules == "culin" else 0.0
        # Copies not in this hand nor face up: in the stock or in the other hands.
        self.avail = [total - n - up + weight * up
                      for total, n, up in zip(_totals(view.sets), counts, pile, strict=True)]

    def value(self, counts: list[int], key: int) -> float:
        """A hand waiting for its next tile: fewer missing first, then more ways to improve."""
        short, helps = self.sig.analysis(key)
        avail = self.avail
        outs = 0.0
        for group in self.sig.groups:
            bits = helps & 7
            helps >>= 3
            if bits:
                for k in group:
                    n = counts[k]
                    if bits >> (n if n < 2 else 2) & 1:
                        outs += avail[k]
        return outs - MISSING_WEIGHT * short

    def best_discard(self, counts: list[int], key: int, keep: int | None = None) -> float:
        """The value of the hand (with signature `key`) after its least useful tile goes; no
        tile of `keep`, the kind just taken, may go (D-10)."""
        sig = self.sig
        best_short = 99
        candidates: list[tuple[int, int]] = []
        for d in range(KINDS):
            n = counts[d]
            if not n or d == keep:
                continue
            counts[d] = n - 1
            after = sig.rekey(key, counts, d)
            counts[d] = n
            short = sig.missing(after)
            if short < best_short:
                best_short, candidates = short, [(d, after)]
            elif short == best_short:
                candidates.append((d, after))
        best = float("-inf")
        for d, after in candidates:
            counts[d] -= 1
            value = self.value(counts, after)
            counts[d] += 1
            if value > best:
                best = value
        return best


def rater(view: Any) -> Callable[[Action], float]:
    v = view
    table = _Table(v)
    sig = table.sig
    counts = table.counts
    key = sig.key(counts)
    kind_of = table.kind_of
    # Scores per kind (one legal move per kind and verb): cheaper than hashing every move.
    by_kind = [float("-inf")] * KINDS
    draw = float("-inf")
    if v.phase == "open":
        short, helps = sig.analysis(key)
        wanted = _helpful(sig, counts, helps)
        draw = table.value(counts, key) + DRAW_BIAS
        reshape = v.options.rules == "culin" and v.players <= RESHAPE_PLAYERS
        for action in v.legal:
            if action.verb != "take":
                continue
            p = kind_of[action.tiles[0]]
            if p in wanted and short == 1:
                by_kind[p] = WIN
            elif p in wanted or reshape:
                counts[p] += 1
                table.avail[p] -= table.pile_weight
                by_kind[p] = table.best_discard(counts, sig.rekey(key, counts, p), keep=p)
                table.avail[p] += table.pile_weight
                counts[p] -= 1
    else:
        # Only the discards that leave the fewest tiles missing are worth telling apart.
        after: list[tuple[int, int, int]] = []
        for action in v.legal:
            d = kind_of[action.tiles[0]]
            counts[d] -= 1
            k = sig.rekey(key, counts, d)
            counts[d] += 1
            after.append((sig.missing(k), d, k))
        fewest = min(after)[0]
        for short, d, k in after:
            if short > fewest:
                by_kind[d] = -MISSING_WEIGHT * short
            else:
                counts[d] -= 1
                by_kind[d] = table.value(counts, k)
                counts[d] += 1

    def rate(action: Action) -> float:
        return draw if action.verb == "draw" else by_kind[kind_of[action.tiles[0]]]

    return rate
