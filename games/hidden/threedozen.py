"""Deals for Three Dozen: the others' hands and the stock dealt anew from one seat's view.

Rules source: RULES.md §2.9 (pairs must be laid out, so no hand waiting for its turn holds one;
a discard that pairs with a hand is taken).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from games.dozen_pairs import is_pair
from games.engine import Action, hand_out, sample_seed
from games.hidden.chain import SLIP, TRIES, Chain, _turns_done, places
from games.threedozen_ai import STALE_RESHUFFLES
from games.tiles import WESTERN

if TYPE_CHECKING:
    from games.threedozen import ThreeDozen, ThreeDozenView

def _no_pair_hand(pool: list[int], size: int, rng: random.Random) -> list[int] | None:
    """`size` tiles out of `pool` (taken out of it) of which no two make a pair."""
    chosen: list[int] = []
    for _ in range(size):
        fits = [k for k, t in enumerate(pool) if not any(is_pair(t, c) for c in chosen)]
        if not fits:
            pool.extend(chosen)
            return None
        k = fits[rng.randrange(len(fits))]
        chosen.append(pool[k])
        pool[k] = pool[-1]
        pool.pop()
    return chosen


def threedozen_sample(rules: ThreeDozen, view: Any, rng: random.Random) -> Any:
    """A deal `rules` could have dealt, as `view`'s seat sees it (`ThreeDozen.redeal`)."""
    v = cast("ThreeDozenView", view)
    seat = cast(int, v.seat)
    known = set(v.hand)
    known.update(t for m in v.melds for pair in m for t in pair)
    known.update(t for t, _ in v.pile)
    base = [t for t in range(WESTERN.size) if t not in known]
    for attempt in range(TRIES + 1):
        pool = list(base)
        hands: list[tuple[int, ...]] = []
        ok = True
        for s, count in enumerate(v.hand_counts):
            if s == seat:
                hands.append(v.hand)
                continue
            # A hand waiting for its turn has laid out every pair it held (§2.9) — once it
            # has had a turn: a hand as dealt may hold pairs.
            got: list[int] | None
            if not _turns_done(v, s):
                got = [pool.pop(rng.randrange(len(pool))) for _ in range(count)]
            else:
                got = _no_pair_hand(pool, count, rng) if attempt < TRIES else None
            if got is None:
                if attempt < TRIES:
                    ok = False
                    break
                rng.shuffle(pool)
                got = [pool.pop() for _ in range(count)]
            hands.append(tuple(sorted(got)))
        if not ok:
            continue
        rng.shuffle(pool)
        if len(pool) != v.stock:
            raise ValueError("the view's counts do not add up to the unseen tiles")
        return rules.state_type(
            options=v.options, seed=sample_seed(rng), players=v.players, match=v.match,
            version=v.version, leader=v.leader, turn=seat, turns=v.turns, phase=v.phase,
            hands=tuple(hands), melds=v.melds, stock=tuple(pool), pile=v.pile,
            reshuffles=v.reshuffles, winner=None, source="")
    raise AssertionError("unreachable: the last attempt has no constraints")



DOZEN_BURN = 30
DOZEN_THIN = 6
"""Steps of Three Dozen's `Chain` before its first deal, and between two deals."""
PASSED = 0.1
"""Weight of a Three Dozen deal for each partner a seat held, in the deal, of a discard it let
lie (the heuristic, and most people, take a discard they can pair)."""



@dataclass(frozen=True, slots=True)
class _DozenSeen:
    """What the Three Dozen heuristic reads of a seat's view about to discard."""

    hand: tuple[int, ...]
    melds: tuple[tuple[tuple[int, int], ...], ...]
    pile: tuple[tuple[int, int], ...]
    reshuffles: int


def threedozen_likelihood(view: Any, state: Any, rater: Any) -> float:
    """How likely the table is with the hands `state` gives the others.

    No hand that has had a turn holds a pair (it would have laid it out). A seat's latest
    discard still on the table was chosen out of its hand of now and that tile: as likely as
    the heuristic (now and then, `SLIP`, otherwise) makes it. A seat that let the discard before
    its latest turn lie and drew instead (the heuristic takes every discard it can pair) held
    no partner of it then: its hand then was its hand of now and its discard, less the tile it
    drew, so one partner there may be the drawn tile, any more weigh `PASSED` each.
    """
    v = cast("ThreeDozenView", view)
    n = v.players
    weight = 1.0
    pile = v.pile
    for s in range(n):
        if s == v.seat or not _turns_done(v, s):
            continue
        hand = state.hands[s]
        if any(is_pair(a, b) for i, a in enumerate(hand) for b in hand[i + 1:]):
            return 0.0
        last = max((i for i, (_, who) in enumerate(pile) if who == s), default=None)
        # From `STALE_RESHUFFLES` on the heuristic discards at random: nothing to read then.
        if last is None or v.reshuffles >= STALE_RESHUFFLES:
            continue
        tile = pile[last][0]
        held = tuple(sorted((*hand, tile)))
        seen = _DozenSeen(held, v.melds, pile[:last], v.reshuffles)
        rate = rater(seen)
        legal = [Action("discard", (t,)) for t in held]
        scores = [rate(a) for a in legal]
        best = max(scores)
        ties = scores.count(best)
        if rate(Action("discard", (tile,))) == best:
            weight *= (1 - SLIP) / ties
        else:
            weight *= SLIP / max(len(scores) - ties, 1)
        if last and pile[last - 1][1] == (s - 1) % n:
            partners = sum(1 for t in held if is_pair(pile[last - 1][0], t))
            weight *= PASSED ** max(partners - 1, 0)
    return weight


def threedozen_chain(rules: ThreeDozen, view: Any, rater: Any, rng: random.Random) -> Chain:
    """`Chain` for Three Dozen, weighed by `threedozen_likelihood`: places are the other hands
    and the stock (shuffled anew for every deal handed out)."""
    v = cast("ThreeDozenView", view)
    start = threedozen_sample(rules, v, rng)
    seat = cast(int, v.seat)
    tiles, owners = places(start, seat)

    def build(chosen: list[int]) -> Any:
        hands, at = hand_out(v.hand_counts, seat, v.hand, chosen)
        stock = chosen[at:]
        rng.shuffle(stock)
        return rules.state_type(
            options=v.options, seed=start.seed, players=v.players, match=v.match,
            version=v.version, leader=v.leader, turn=seat, turns=v.turns, phase=v.phase,
            hands=hands, melds=v.melds, stock=tuple(stock), pile=v.pile,
            reshuffles=v.reshuffles, winner=None, source="")

    return Chain(tiles, owners, lambda i, t: True, build,
                 lambda state: threedozen_likelihood(v, state, rater), rng, DOZEN_BURN, DOZEN_THIN)
