"""Deals for Three Dozen: the others' hands and the stock dealt anew from one seat's view.

Rules source: docs/rules-book.md §2.9 (pairs must be laid out, so no hand waiting for its turn holds
one; a discard that pairs with a hand is taken), D-15 (a draw from an empty stock first shuffles
every discard into a new stock: from then on the stock holds only tiles everyone saw face up,
`ThreeDozenView.restocked`, and every other tile nobody has seen since is in a hand).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from games.dozen_pairs import is_pair
from games.engine import Action, Rules, hand_out, sample_seed, shuffle
from games.hidden.chain import SLIP, TRIES, Chain, _turns_done, places
from games.threedozen_ai import STALE_RESHUFFLES
from games.threedozen_deal import ThreeDozenOptions, ThreeDozenState, ThreeDozenView
from games.tiles import WESTERN

Dealer = Rules[ThreeDozenState, ThreeDozenOptions]
"""What a re-deal needs of Three Dozen's rules: its state's type."""


def _no_pair_hand(pool: list[int], size: int, rng: random.Random, chosen: Sequence[int] = ()
                  ) -> list[int] | None:
    """`size` tiles out of `pool` (taken out of it) of which no two, nor one and a tile of
    `chosen`, make a pair."""
    picked: list[int] = []
    for _ in range(size):
        fits = [k for k, t in enumerate(pool)
                if not any(is_pair(t, c) for c in chosen) and not any(
                    is_pair(t, c) for c in picked)]
        if not fits:
            pool.extend(picked)
            return None
        k = fits[rng.randrange(len(fits))]
        picked.append(pool[k])
        pool[k] = pool[-1]
        pool.pop()
    return picked


def threedozen_sample(rules: Dealer, view: Any, rng: random.Random) -> Any:
    """A deal `rules` could have dealt, as `view`'s seat sees it (`ThreeDozen.redeal`): the
    tiles it cannot see dealt anew to the other hands and the stock. Since a reshuffle the
    stock holds only reshuffled tiles and each hand as many of them as the table saw it keep
    (`restocked_held`); a hand that has had a turn holds no pair."""
    v = cast("ThreeDozenView", view)
    seat = cast(int, v.seat)
    known = set(v.hand)
    known.update(t for m in v.melds for pair in m for t in pair)
    known.update(t for t, _ in v.pile)
    restocked = set(v.restocked)
    base = [t for t in range(WESTERN.size) if t not in known]
    fresh_base = [t for t in base if t in restocked]
    old_base = [t for t in base if t not in restocked]
    held = v.restocked_held if restocked else (0,) * v.players
    if restocked and len(fresh_base) - sum(
            n for s, n in enumerate(held) if s != seat) != v.stock:
        raise ValueError("the view's counts do not add up to the reshuffled tiles")
    for attempt in range(TRIES + 1):
        # Before any reshuffle every unseen tile is of one kind ("old"), stock included.
        fresh, old = list(fresh_base), list(old_base)
        hands: list[tuple[int, ...]] = []
        ok = True
        for s, count in enumerate(v.hand_counts):
            if s == seat:
                hands.append(v.hand)
                continue
            mine = held[s]
            # A hand waiting for its turn has laid out every pair it held (§2.9) — once it
            # has had a turn: a hand as dealt may hold pairs.
            if _turns_done(v, s) and attempt < TRIES:
                first = _no_pair_hand(fresh, mine, rng)
                rest = None if first is None else _no_pair_hand(old, count - mine, rng, first)
                if first is None or rest is None:
                    ok = False
                    break
                got = first + rest
            else:
                got = [fresh.pop(rng.randrange(len(fresh))) for _ in range(mine)]
                got += [old.pop(rng.randrange(len(old))) for _ in range(count - mine)]
            hands.append(tuple(sorted(got)))
        if not ok:
            continue
        stock = fresh if restocked else old
        if restocked and old:
            raise ValueError("the view's counts do not add up to the unseen tiles")
        shuffle(rng, stock)
        if len(stock) != v.stock:
            raise ValueError("the view's counts do not add up to the unseen tiles")
        return _state(rules, v, sample_seed(rng), tuple(hands), tuple(stock))
    raise AssertionError("unreachable: the last attempt has no constraints")


def _state(rules: Dealer, v: ThreeDozenView, seed: str, hands: tuple[tuple[int, ...], ...],
           stock: tuple[int, ...]) -> ThreeDozenState:
    """`v`'s table with these hands and this stock, its seat to move."""
    state: ThreeDozenState = rules.state_type(
        options=v.options, seed=seed, players=v.players, match=v.match, version=v.version,
        leader=v.leader, turn=cast(int, v.seat), turns=v.turns, phase=v.phase, hands=hands,
        melds=v.melds, stock=stock, pile=v.pile, reshuffles=v.reshuffles, winner=None,
        source="", restocked=v.restocked, restocked_held=v.restocked_held)
    return state



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


def threedozen_chain(rules: Dealer, view: Any, rater: Any, rng: random.Random) -> Chain:
    """`Chain` for Three Dozen, weighed by `threedozen_likelihood`: places are the other hands
    and the stock (shuffled anew for every deal handed out). Since a reshuffle a step swaps a
    reshuffled tile only for another: the stock holds nothing else, and each hand keeps as
    many as it holds."""
    v = cast("ThreeDozenView", view)
    start = threedozen_sample(rules, v, rng)
    seat = cast(int, v.seat)
    tiles, owners = places(start, seat)
    restocked = frozenset(v.restocked)
    fresh = [t in restocked for t in tiles]

    def build(chosen: list[int]) -> Any:
        hands, at = hand_out(v.hand_counts, seat, v.hand, chosen)
        stock = chosen[at:]
        shuffle(rng, stock)
        return _state(rules, v, start.seed, hands, tuple(stock))

    def allowed(place: int, tile: int) -> bool:
        return (tile in restocked) == fresh[place]

    return Chain(tiles, owners, allowed, build,
                 lambda state: threedozen_likelihood(v, state, rater), rng, DOZEN_BURN, DOZEN_THIN)
