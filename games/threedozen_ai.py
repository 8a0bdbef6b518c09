"""Heuristic play for Three Dozen, from one seat's view.

Rules source: docs/rules-book.md §2.9 (pairs: consecutive doubles or twelve pips; the last discard
may be taken only to lay a pair with it at once; three pairs win; a win on the predecessor's discard
takes only his stake, one from the stock takes every stake), §3 row 28 and D-15 (taking it is
optional; laid pairs stay laid).

A tile is worth the partners it may still meet: those not yet laid out in anyone's pairs, not
face up among the discards and not in the player's own hand. So the player takes the discard
whenever it pairs (a pair now beats a draw that pairs only sometimes), pairing it with the tile
that has the fewest partners left; lays the pair that leaves the most pairable hand; and
discards the tile with the fewest live partners, which is also the tile the next player is
least likely to pair and take.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from games.dozen_pairs import PARTNERS, hand_pairs
from games.engine import Action
from games.threedozen_deal import ThreeDozenView
from games.tiles import WESTERN

WIN = 1e9
PAIR_WEIGHT = 100.0
"""A pair laid (or still layable in hand) outweighs any number of live partners."""
STALE_RESHUFFLES = 3
"""After this many reshuffles the player discards at random. The rules have no end without a
winner (§2.9, D-15), and players who each keep the last live partner of another's tile, while
only dead tiles go round, would play forever (measured: 6 % of deals between four heuristic
players, 0 with random ones); a random discard sooner or later hands a partner on."""


def _live(view: ThreeDozenView) -> dict[int, int]:
    """Per tile of the hand, how many of its partners may still turn up. (Only the hand's
    tiles are ever rated: counting every tile of the set took a third of a playout.)"""
    seen = [False] * WESTERN.size
    for seat in view.melds:
        for pair in seat:
            for t in pair:
                seen[t] = True
    for t, _ in view.pile:
        seen[t] = True
    for t in view.hand:
        seen[t] = True
    return {t: sum(1 for p in PARTNERS[t] if not seen[p]) for t in view.hand}


def _pairable(hand: Sequence[int]) -> int:
    """How many disjoint pairs the tiles still hold (a hand has at most six tiles)."""
    pairs = hand_pairs(hand)
    if not pairs:
        return 0
    best = 0
    for a, b in pairs:
        rest = [t for t in hand if t not in (a, b)]
        best = max(best, 1 + _pairable(rest))
    return best


def rater(view: Any) -> Callable[[Action], float]:
    v = cast("ThreeDozenView", view)
    live = _live(v)
    hand = v.hand

    def leave(rest: Sequence[int]) -> float:
        return PAIR_WEIGHT * _pairable(rest) + sum(live[t] for t in rest)

    def rate(action: Action) -> float:
        verb = action.verb
        if verb == "take":
            rest = [t for t in hand if t != action.tiles[1]]
            if 2 * _pairable(rest) == len(rest):
                return WIN  # the third pair: the game ends on this take
            return PAIR_WEIGHT + leave(rest)
        if verb == "draw":
            return leave(hand)
        if verb == "meld":
            rest = [t for t in hand if t not in action.tiles]
            return leave(rest)
        if v.reshuffles >= STALE_RESHUFFLES:
            return 0.0
        (tile,) = action.tiles
        return -float(live[tile])

    return rate
