"""Ding Niu's heuristic: the connecting games' (`games.connecting_ai`), taught what a block pays.

Rules source: docs/rules-book.md §2.11.3 (the block), §2.11.4–§2.11.6 (points, ranking, settlement);
decisions D-21 (a forced block settles normally), D-22 (after a full block only the matching
doubles are played), D-23 (a SuanZhang succeeds when its maker ranks first, strictly fewest
with the `strict` option, whatever his points, 0 too; else he pays 12) and D-24 (ties).

Why: the connecting heuristic prefers open ends that few unseen tiles match, which is how blocks
are made, and knew nothing of what one pays: about half of its SuanZhangs failed, each costing
12 chips. A block ends the deal (after a full one only the matching doubles are still played),
so the points it leaves are nearly known: this seat's own exactly, each other seat's as the
pips of as many unseen tiles as it holds, hand and face-down discards. The chance `p` that
this seat then ranks first is estimated from those sums (`win_chance`). A SuanZhang that wins
takes 2 × (1 + 2 + 3) = 12 chips and one that fails pays 12, 24p − 12 on average; playing on
is worth about what a plain deal pays a seat with the same chance, 6p − 2(1 − p). A SuanZhang
is rated above the best move that does not block by `CHIP_WEIGHT` times the difference,
16p − 10 chips: it is made when p is above 5/8, and the closer the call, the nearer the best
other move it stands (the strong level plays both out then, `games.search`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from games import connecting_ai
from games.connect_deal import ConnectSeen
from games.dingniu_block import (
    BIT,
    DECK,
    DECK_BITS,
    FAILED,
    PLACES,
    SINGLE_BITS,
    blocks,
    ends_after,
)
from games.engine import Action, hand_order
from games.tiles import CHINESE

_A, _DOUBLE, _PIPS = CHINESE.a, CHINESE.double, CHINESE.pips

WON = 2 * sum(PLACES)
"""What a SuanZhang that wins takes: every place's payment doubled."""
PLAIN_WON = sum(PLACES)
PLAIN_LOST = sum(PLACES) / len(PLACES)
"""What a plain deal brings its winner, and costs a loser on average."""
CHIP_WEIGHT = 1.0
"""Rating points per chip a SuanZhang is expected to bring more than playing on."""


def rater(view: Any) -> Callable[[Action], float]:
    """The connecting games' rating, but that a SuanZhang is rated by what it is expected to
    pay (see the module's docstring); a forced block settles normally and is rated as any
    move (D-21)."""
    base = connecting_ai.rater(view)
    options = view.options
    if isinstance(view, ConnectSeen):
        laid = view.laid
    else:
        laid = 0
        for placed in view.line:
            laid |= BIT[placed[0]]
    if not options.suanzhang or view.block or not laid or view.seat is None:
        return base
    rest = SINGLE_BITS & ~laid
    ends, smothered, legal = view.ends, options.smothered, view.legal
    kinds = [blocks(ends, rest, action, smothered) for action in legal]
    if not any(kinds):
        return base
    shown = view.full() if isinstance(view, ConnectSeen) else view
    rated = rerated([base(action) for action in legal], kinds,
                    lambda i: win_chance(shown, legal[i], kinds[i]), options.forced_counts)
    if rated is None:
        return base
    extra = {action: value for action, value, kind in zip(legal, rated, kinds, strict=True)
             if kind}

    def rate(action: Action) -> float:
        value = extra.get(action)
        return base(action) if value is None else value

    return rate


def rerated(rated: list[float], kinds: list[str], odds: Callable[[int], float],
            forced_counts: bool) -> list[float] | None:
    """The legal moves' ratings once those that make a block (`kinds`, per move: "" for a move
    that makes none) are rated by what their SuanZhang is expected to pay, the chance that the
    i-th move's block wins being `odds(i)`; None where the connecting games' `rated` stand (every
    move blocks, and a forced block counts only with `forced_counts`). Shared by the rater and
    by a table that rates its heuristic seat's moves itself (`games.dingniu_table`), so both
    rate alike, figure for figure."""
    others = [value for value, kind in zip(rated, kinds, strict=True) if not kind]
    if others:
        top = max(others)
        return [top + CHIP_WEIGHT * gain(odds(i)) if kind else value
                for i, (value, kind) in enumerate(zip(rated, kinds, strict=True))]
    if not forced_counts:
        return None
    # Every block counts (the option), so the likeliest to win is the best.
    return [CHIP_WEIGHT * WON * odds(i) for i in range(len(rated))]


def gain(p: float) -> float:
    """The chips a SuanZhang that wins with chance `p` brings over playing on (24p − 12
    against 6p − 2(1 − p): the module's docstring)."""
    block = WON * p - FAILED * (1 - p)
    plain = PLAIN_WON * p - PLAIN_LOST * (1 - p)
    return block - plain


def win_chance(view: Any, action: Action, kind: str) -> float:
    """The chance that the seat ranks first once `action` has made a `kind` block (`chance`,
    read from the seat's view)."""
    seat: int = view.seat
    known = 0
    for t in (*view.hand, *view.discards[seat]):
        known |= BIT[t]
    for placed in view.line:
        known |= BIT[placed[0]]
    held = [n + d for n, d in zip(view.hand_counts, view.discard_counts, strict=True)]
    return chance(view.options, seat, view.leader, view.ends, action, kind, view.hand,
                  view.discards[seat], DECK_BITS & ~known, held)


def chance(options: Any, seat: int, leader: int, ends: tuple[int, ...], action: Action,
           kind: str, hand: Sequence[int], discards: Sequence[int], unseen: int,
           held: Sequence[int]) -> float:
    """The chance that `seat` (with `hand` and its own `discards`, the deal led by `leader`)
    ranks first once `action` has made a `kind` block on a line with open `ends`, the tiles
    it cannot see being `unseen` (a set of bits) and each seat holding `held` tiles, in hand
    and face down.

    Its own points are known: its discards and hand, less the matching doubles it will
    still play after a full block. Another seat's are the pips of as many unseen tiles as it
    holds; each is taken to be the sum of that many tiles drawn from the unseen ones,
    approximately normal (exact at the lightest and heaviest sums possible), each seat's
    independent of the others'. The seat must have fewer points than each other seat, or as
    many as one that sits later in the deal's hand order (D-24); with `strict`, fewer than
    all."""
    tile = action.tiles[0]
    played = ends_after(ends, action) if kind == "full" and options.doubles_after else ()
    value = _values(played)
    mine = sum([value[t] for t in hand if t != tile]) + sum([_PIPS[t] for t in discards])
    pool = sorted([value[t] for t in DECK if unseen & BIT[t]])
    n = len(pool)
    mean = sum(pool) / n if n else 0.0
    spread = sum((v - mean) ** 2 for v in pool) / n if n else 0.0
    order = hand_order(len(held), leader)
    place = order.index(seat)
    found = 1.0
    for other in order:
        if other == seat:
            continue
        need = mine + 1 if options.strict or order.index(other) < place else mine
        found *= _at_least(pool, held[other], need, mean, spread)
    return found


@cache
def _values(played: tuple[int, ...]) -> tuple[int, ...]:
    """What each tile counts once the block is made: its pips, but 0 for a double still to
    be played on one of the numbers `played` (the open ends after a full block)."""
    return tuple(0 if _DOUBLE[t] and _A[t] in played else _PIPS[t] for t in range(CHINESE.size))


def _at_least(values: list[int], k: int, need: int, mean: float, spread: float) -> float:
    """The chance that `k` of the sorted `values`, drawn without replacement, add up to
    `need` or more: 1 or 0 where the lightest or heaviest `k` decide it, else the normal
    approximation (with the finite population's correction and half a pip of continuity)."""
    if sum(values[:k]) >= need:
        return 1.0
    if sum(values[len(values) - k:]) < need:
        return 0.0
    n = len(values)
    variance = k * spread * (n - k) / (n - 1) if n > 1 else 0.0
    if variance <= 0:
        return 1.0 if k * mean >= need else 0.0
    z = (need - 0.5 - k * mean) / math.sqrt(variance)
    return 0.5 * math.erfc(z / math.sqrt(2))

