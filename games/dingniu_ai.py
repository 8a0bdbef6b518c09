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
from collections.abc import Callable
from functools import cache
from typing import Any

from games import connecting_ai
from games.connect_deal import ConnectSeen
from games.dingniu_block import BIT, DECK, FAILED, PLACES, SINGLE_BITS, blocks, ends_after
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
    ends, smothered = view.ends, options.smothered
    kinds = {action: kind for action in view.legal
             if (kind := blocks(ends, rest, action, smothered))}
    if not kinds:
        return base
    others = [base(action) for action in view.legal if action not in kinds]
    if not others and not options.forced_counts:
        return base
    shown = view.full() if isinstance(view, ConnectSeen) else view
    worth = {action: win_chance(shown, action, kind) for action, kind in kinds.items()}
    if others:
        top = max(others)
        extra = {action: top + CHIP_WEIGHT * gain(p) for action, p in worth.items()}
    else:  # every block counts (the option), so the likeliest to win is the best
        extra = {action: CHIP_WEIGHT * WON * p for action, p in worth.items()}

    def rate(action: Action) -> float:
        value = extra.get(action)
        return base(action) if value is None else value

    return rate


def gain(p: float) -> float:
    """The chips a SuanZhang that wins with chance `p` brings over playing on (24p − 12
    against 6p − 2(1 − p): the module's docstring)."""
    block = WON * p - FAILED * (1 - p)
    plain = PLAIN_WON * p - PLAIN_LOST * (1 - p)
    return block - plain


def win_chance(view: Any, action: Action, kind: str) -> float:
    """The chance that the seat ranks first once `action` has made a `kind` block.

    Its own points are known: its discards and hand, less the matching doubles it will
    still play after a full block. Another seat's are the pips of as many unseen tiles as it
    holds (in hand and face down); each is taken to be the sum of that many tiles drawn from
    the unseen ones, approximately normal (exact at the lightest and heaviest sums possible),
    each seat's independent of the others'. The seat must have fewer points than each other
    seat, or as many as one that sits later in the deal's hand order (D-24); with `strict`,
    fewer than all."""
    options = view.options
    seat: int = view.seat
    tile = action.tiles[0]
    played = ends_after(view.ends, action) if kind == "full" and options.doubles_after else ()
    value = _values(played)
    hand = list(view.hand)
    hand.remove(tile)
    mine = sum([value[t] for t in hand]) + sum([_PIPS[t] for t in view.discards[seat]])
    known = 0
    for t in (*view.hand, *view.discards[seat]):
        known |= BIT[t]
    for placed in view.line:
        known |= BIT[placed[0]]
    unseen = sorted([value[t] for t in DECK if not known & BIT[t]])
    n = len(unseen)
    mean = sum(unseen) / n if n else 0.0
    spread = sum((v - mean) ** 2 for v in unseen) / n if n else 0.0
    order = hand_order(view.players, view.leader)
    place = order.index(seat)
    chance = 1.0
    for other in order:
        if other == seat:
            continue
        held = view.hand_counts[other] + view.discard_counts[other]
        need = mine + 1 if options.strict or order.index(other) < place else mine
        chance *= _at_least(unseen, held, need, mean, spread)
    return chance


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

