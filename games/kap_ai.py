"""Heuristic play for Kap Ten and Kap Tai Shap, from one seat's view.

Rules source: docs/rules-book.md §2.6 (an eye and tens; `[4:2]` counts 3; Culin's turn: take any
face-up discard and pay for it with another, then draw and discard; the classical turn: the last
discard or the stock; D-10: a taken tile may not go straight back), §2.7 (several sets, so any two
identical tiles make an eye; ten tiles, four tens), §3 rows 15–20.

A hand is judged first by how many tiles it still lacks (`tens.missing`), then by how many tiles
that may still come would bring it one closer: the unseen ones (the stock and the other hands)
and, under Culin's rules, the face-up discards, which the player can take on his next turn — a
hand one tile short whose tile lies face up has nearly won. Every move is worth the hand it
leaves: a discard the hand without that tile, a take the best hand after paying for the tile, a
draw the hand as it is (the draw follows a take under Culin's rules as well, so the two compare
like with like).

What a hand lacks, and which tiles would bring it closer, is read off its *signature*
(`games.kap_signatures`), worked out in a few operations and remembered.

A view is read once per call (`rater`), and the hands a move would leave are weighed by changing
that one reading a tile at a time and back: a changed tile moves one digit of the signature and
one cell of the table of what may still come (`cells` in `rater`), so weighing a hand costs a few
operations, not a recount of the hand. Every worth is a whole number of tiles (a float with an
integral value), so sums come out the same in any order, and the scores are exactly those of
the plain formulation (`tests/games/kap_reference.py`, checked on thousands of positions).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, cast

from games import get
from games.engine import Action
from games.kap_deal import KapDealer, KapView
from games.kap_signatures import (
    _COUNT_BITS,
    _STATE_SHIFT,
    _Signatures,
    signatures,
)
from games.tens import KINDS
from games.tiles import CHINESE, chinese

WIN = 1e9
"""A take that completes the hand: nothing else compares."""
MISSING_WEIGHT = 1000.0
"""A tile fewer to find outweighs any number of ways to find one."""
PILE_WEIGHT = 10.0
"""Under Culin's rules a face-up tile that helps is counted this many times over an unseen one:
it can be taken next turn unless someone takes it first, while an unseen tile comes with the
next draw only once in dozens (4 and 20 measured within noise of 10)."""
DRAW_BIAS = 1e-6
"""When a take changes nothing, the player draws instead."""
RESHAPE_PLAYERS = 2
"""Up to this many players, a take that brings the hand no closer is still made under Culin's
rules when it leaves more ways to improve (the draw follows anyway). Measured: 1.7 % more Kap
Ten deals won (20,000 deals, about 3 standard errors); with four players no gain, at a sixth
more time. Under the classical rules a take replaces the draw, and such exchanges cost a fifth
of the deals."""
TAKES = 1 << 15
"""Hands and kinds taken whose best discards are remembered, at most (about 10 MB when full):
a strong Kap Ten move meets some 4,000 new ones, and over half of its takes are met again."""


@cache
def _pairs(game: str) -> int:
    """The tens a winning hand of `game` holds besides its eye (`KapDealer.pairs`)."""
    return cast("KapDealer", get(game)).pairs


@cache
def _totals(sets: int) -> tuple[int, ...]:
    """Copies of each kind in `sets` sets: civil kinds twice per set, military once."""
    return tuple(sets * (2 if kind.civil else 1) for kind in CHINESE.kinds)


@cache
def _context(game: str, four_two: int, culin: bool, sets: int
             ) -> tuple[_Signatures, tuple[int, ...], tuple[int, ...], tuple[float, ...],
                        tuple[float, ...], float,
                        dict[tuple[tuple[int, ...], int], list[tuple[int, int]]]]:
    """What a view of `game` is weighed with, whatever the position: its signatures, each
    kind's last digit, the tiles' kinds, every kind's copies in `sets` sets, the table of what
    may still come (`rater`) of an empty hand with nothing face up, and the weight of a
    face-up tile (under Culin's rules a face-up tile may be taken on the next turn); and, per
    hand and kind taken, the discards after the take that leave the fewest tiles missing."""
    sig = signatures(_pairs(game), four_two)
    totals = tuple(float(n) for n in _totals(sets))
    cells = [0.0] * 30
    for k, base in enumerate(sig.base):
        cells[base] += totals[k]
    return (sig, sig.digit, chinese(sets).kind_of, totals, tuple(cells),
            PILE_WEIGHT if culin else 0.0, {})


def rater(view: Any) -> Callable[[Action], float]:
    """Every move's worth from one reading of the view (see the module's docstring).

    The reading: the hand as counts per kind and per digit (`ones`, `twos`: the kinds held
    once and at least twice ending in each digit), its signature, and the table of what may
    still come by cell (`cells[3r + u]`: the tiles still to come of the kinds ending in r held
    u times, 2 meaning twice or more; face-up ones under Culin's rules counted `PILE_WEIGHT`
    times, `avail` per kind). A hand one tile different changes only its tile's digit and
    cell, so each hand a move leaves is weighed from this reading in a few operations. It is
    all spelt out in one function, on local names: this runs for every move of a simulation.
    """
    v = cast("KapView", view)
    opts = v.options
    culin = opts.rules == "culin"
    sig, digit, kind_of, totals, empty, weight, takes = _context(
        v.game, opts.four_two, culin, v.sets if v.sets > 1 else 1)
    info = sig.info
    shorts = sig.shorts
    counts = [0] * KINDS
    held: list[int] = []
    for t in v.hand:
        k = kind_of[t]
        if counts[k]:
            counts[k] += 1
        else:
            counts[k] = 1
            held.append(k)
    avail = list(totals)
    cells = list(empty)
    ones = [0] * 10
    twos = [0] * 10
    key = 0
    for k in held:
        n = counts[k]
        avail[k] -= n
        r = digit[k]
        key += n << (_COUNT_BITS * r)
        if n == 1:
            ones[r] += 1
        else:
            twos[r] += 1
    # Copies not in this hand nor face up (in the stock or in the other hands), and the face
    # up ones `weight` times: from the full set, less what the hand and the pile hold. A kind
    # held moves its copies to come to the cell of its count; a face-up tile adds `weight` - 1
    # copies (or takes one away, when face-up tiles cannot be taken) to its kind's cell.
    for k in held:
        r = digit[k]
        key |= (2 if twos[r] else 1) << (_STATE_SHIFT + 2 * r)
        n = counts[k]
        b = 3 * r
        cells[b] -= totals[k]
        cells[b + (n if n < 2 else 2)] += avail[k]
    up = weight - 1.0
    for t, _ in v.pile:
        k = kind_of[t]
        avail[k] += up
        n = counts[k]
        cells[3 * digit[k] + (n if n < 2 else 2)] += up

    def without(d: int, key: int, ones_r: int, twos_r: int) -> int:
        """The signature `key` with one tile of kind `d` fewer (`ones_r`, `twos_r`: the kinds
        held once and twice or more at its digit, in the hand `key` is of)."""
        n = counts[d]
        if n == 1:
            ones_r -= 1
        elif n == 2:
            twos_r -= 1
            ones_r += 1
        at = _STATE_SHIFT + 2 * digit[d]
        return (((key - (1 << (_COUNT_BITS * digit[d]))) & ~(3 << at))
                | ((2 if twos_r else 1 if ones_r else 0) << at))

    def value_without(d: int, after: int) -> float:
        """The hand with one tile of kind `d` fewer (signature `after`) waiting for its next
        tile: fewer missing first, then more ways to improve; the cells as they are, but
        that kind's tiles to come counted in the cell it moves to."""
        found = info.get(after)
        if found is None:
            found = sig.details(after)
        short, helps, bits = found
        outs = 0.0
        for i in bits:
            outs += cells[i]
        n = counts[d]
        if n <= 2:
            b = 3 * digit[d] + n
            if helps >> b & 1:
                outs -= avail[d]
            if helps >> (b - 1) & 1:
                outs += avail[d]
        return outs - MISSING_WEIGHT * short

    # Scores per kind (one legal move per kind and verb): cheaper than hashing every move.
    by_kind = [float("-inf")] * KINDS
    draw = float("-inf")
    if v.phase == "open":
        found = info.get(key)
        if found is None:
            found = sig.details(key)
        short, helps, bits = found
        outs = 0.0
        for i in bits:
            outs += cells[i]
        draw = outs - MISSING_WEIGHT * short + DRAW_BIAS
        reshape = culin and v.players <= RESHAPE_PLAYERS
        minus: dict[int, int] = {}
        hand = v.hand
        for action in v.legal:
            if action.verb != "take":
                continue
            p = kind_of[action.tiles[0]]
            n = counts[p]
            r = digit[p]
            old = n if n < 2 else 2
            wanted = helps >> (3 * r + old) & 1
            if wanted and short == 1:
                by_kind[p] = WIN
                continue
            if not (wanted or reshape):
                continue
            a = avail[p]
            new = 3 * r + (2 if n else 1)
            cells[3 * r + old] -= a
            cells[new] += a - weight
            avail[p] = a - weight
            # The discard that pays for it: its least useful tile but one of kind p (D-10).
            # Which tiles leave the fewest missing depends on the hand alone: remembered.
            candidates = takes.get((hand, p))
            if candidates is None:
                if not minus:
                    minus = {d: without(d, key, ones[digit[d]], twos[digit[d]]) for d in held}
                # The hand with the tile taken: one more of kind p, no longer to come.
                ones_r, twos_r = ones[r], twos[r]
                if n == 0:
                    ones_r += 1
                elif n == 1:
                    ones_r -= 1
                    twos_r += 1
                at = _STATE_SHIFT + 2 * r
                taken = (((key + (1 << (_COUNT_BITS * r))) & ~(3 << at))
                         | ((2 if twos_r else 1) << at))
                moved = taken - key
                best_short = 99
                candidates = []
                for d in held:
                    if d == p:
                        continue
                    after = (without(d, taken, ones_r, twos_r) if digit[d] == r
                             else minus[d] + moved)
                    s = shorts.get(after)
                    if s is None:
                        s = sig.missing(after)
                    if s < best_short:
                        best_short, candidates = s, [(d, after)]
                    elif s == best_short:
                        candidates.append((d, after))
                if len(takes) >= TAKES:
                    takes.clear()
                takes[hand, p] = candidates
            best = float("-inf")
            for d, after in candidates:
                value = value_without(d, after)
                if value > best:
                    best = value
            by_kind[p] = best
            avail[p] = a
            cells[new] -= a - weight
            cells[3 * r + old] += a
    else:
        # Only the discards that leave the fewest tiles missing are worth telling apart.
        after_all: list[tuple[int, int, int]] = []
        fewest = 99
        for action in v.legal:
            d = kind_of[action.tiles[0]]
            r = digit[d]
            # `without(d, key, ones[r], twos[r])`, spelt out: every discard is weighed.
            n = counts[d]
            at = _STATE_SHIFT + 2 * r
            after = (key - (1 << (_COUNT_BITS * r))) & ~(3 << at)
            if twos[r] > (n == 2):
                after |= 2 << at
            elif ones[r] + (n == 2) - (n == 1):
                after |= 1 << at
            s = shorts.get(after)
            if s is None:
                s = sig.missing(after)
            if s < fewest:
                fewest = s
            after_all.append((s, d, after))
        for s, d, after in after_all:
            by_kind[d] = -MISSING_WEIGHT * s if s > fewest else value_without(d, after)

    def rate(action: Action) -> float:
        return draw if action.verb == "draw" else by_kind[kind_of[action.tiles[0]]]

    return rate
