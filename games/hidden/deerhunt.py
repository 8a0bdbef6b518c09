"""Deals for Deer Hunt after a fair deal: the other three hands dealt anew from one seat's view,
each partnership still holding exactly one copy of each key face.

Rules sources: docs/rules-book.md §2.12.5 and D-31 (the fair deal: both copies of `[6:6]`, or of
`[6:6] [6:5] [6:4] [4:4]`, set aside, the rest split in halves, one copy of each added to each half,
a half to each partnership, split between its players at random), §2.12.3 (every tile is played face
up, so the table shows which partnership played which copy).

The seat knows its own hand and every tile played; of each key face its partnership holds
exactly one copy, so when neither the seat nor its partner has shown one the partner holds one
of the copies not seen, and every other unseen copy is an opponent's. Given that, the deal made
every split of the other tiles between the partner and the opponents, and between the two
opponents, alike: they are dealt uniformly. A partner's hand is as hidden as an opponent's:
nothing but the rule of the deal is read about it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from games.deerhunt_deal import DeerDealer, DeerHuntState, DeerHuntView
from games.deerhunt_tiles import PLACE, PLAYERS, TEAM, best_of, key_tiles, partner
from games.engine import sample_seed


def fair_redeal(rules: DeerDealer, view: Any, rng: random.Random) -> DeerHuntState:
    """A deal the fair deal could have dealt, as `view`'s seat sees it (`DeerHunt.redeal`)."""
    v = cast("DeerHuntView", view)
    seat = cast(int, v.seat)
    mate = partner(seat)
    played = [*(lay for trick in v.history for lay in trick.plays), *v.trick]
    shown = set(v.hand) | {lay.tile for lay in played}
    ours = set(v.hand) | {lay.tile for lay in played if TEAM[lay.seat] == TEAM[seat]}
    owed: list[int] = []
    """Key copies the partner must hold."""
    theirs: list[int] = []
    """Key copies the opponents hold, unseen."""
    keys = key_tiles(v.options.deal)
    for pair in keys:
        unseen = [t for t in pair if t not in shown]
        if not ours & set(pair):
            if not unseen:
                raise ValueError("a partnership holds no copy of a key face")
            rng.shuffle(unseen)
            owed.append(unseen.pop())
        theirs += unseen
    keyed = {t for pair in keys for t in pair}
    rest = [t for t in range(v.tiles.size) if t not in shown and t not in keyed]
    rng.shuffle(rest)
    counts = v.hand_counts
    fill = counts[mate] - len(owed)
    if fill < 0:
        raise ValueError("the partner holds fewer tiles than the key faces it must")
    others = theirs + rest[fill:]
    rng.shuffle(others)
    hands: list[tuple[int, ...]] = [()] * PLAYERS
    hands[seat] = v.hand
    hands[mate] = tuple(sorted(owed + rest[:fill], key=PLACE.__getitem__))
    at = 0
    for s in range(PLAYERS):
        if TEAM[s] != TEAM[seat]:
            hands[s] = tuple(sorted(others[at:at + counts[s]], key=PLACE.__getitem__))
            at += counts[s]
    if at != len(others):
        raise ValueError("the view's counts do not add up to the unseen tiles")
    return rules.rebuilt(view, tuple(hands), (), sample_seed(rng))


@dataclass(frozen=True, slots=True)
class _Seen:
    """What the Deer Hunt heuristic reads of a seat's view, rebuilt for a moment already
    played: its hand then, the tricks and the trick as they stood."""

    options: Any
    tiles: Any
    seat: int
    hand: tuple[int, ...]
    hand_counts: tuple[int, ...]
    history: tuple[Any, ...]
    trick: tuple[Any, ...]
    best: int | None


CHOICES = 4
"""Deals dealt anew for each one played out: the one kept is drawn by how likely each makes
the plays the table saw."""
TEMPER = 2.0
"""How sharply a play is read, in red pips: a seat is taken to play each tile with a weight of
e^(rating / TEMPER), the heuristic's ratings being worths in red pips, so a play rated a few
pips below the best is still met now and then (people are not the heuristic)."""
READ = 3
"""Tricks read, the latest ones (the one being played counts): older ones tell less of the
hands of now, and each costs a rating per deal."""


def deer_deals(rules: DeerDealer, view: Any, rater: Any, rng: random.Random
               ) -> Callable[[], DeerHuntState]:
    """Deals consistent with `view` (`DeerHunt.deals`), each drawn from `CHOICES` re-deals in
    proportion to how likely the other seats' latest plays were had they held what it gives
    them and played as the heuristic rates, softly (`TEMPER`)."""
    v = cast("DeerHuntView", view)
    seat = cast(int, v.seat)
    tricks = [*((t.plays, i) for i, t in enumerate(v.history)), (v.trick, len(v.history))]
    moments = [(k, i) for plays, k in tricks[-READ:] for i, lay in enumerate(plays)
               if lay.seat != seat]
    if not moments:
        return lambda: rules.redeal(view, rng)

    def likelihood(state: DeerHuntState) -> float:
        weight = 1.0
        for k, i in moments:
            weight *= _chance(v, state, k, i, rater)
        return weight

    def deal() -> DeerHuntState:
        drawn = [rules.redeal(view, rng) for _ in range(CHOICES)]
        weights = [likelihood(state) for state in drawn]
        total = sum(weights)
        if total <= 0:
            return drawn[0]
        return rng.choices(drawn, weights)[0]

    return deal


def _chance(v: Any, state: DeerHuntState, k: int, i: int, rater: Any) -> float:
    """How likely the `i`-th play of trick `k` was, from the hand `state` gives its seat."""
    trick = v.history[k].plays if k < len(v.history) else v.trick
    lay = trick[i]
    later = [*trick[i:], *(p for t in v.history[k + 1:] for p in t.plays)]
    if k < len(v.history):
        later += list(v.trick)
    back = [p.tile for p in later if p.seat == lay.seat]
    hand = tuple(sorted((*state.hands[lay.seat], *back), key=PLACE.__getitem__))
    counts = list(v.hand_counts)
    for p in later:
        counts[p.seat] += 1
    before = trick[:i]
    seen = _Seen(v.options, v.tiles, lay.seat, hand, tuple(counts), v.history[:k], before,
                 best_of([p.tile for p in before]) if before else None)
    rate = rater(seen)
    kinds = v.tiles.kind_of
    scores: dict[int, float] = {}
    for t in hand:
        scores.setdefault(kinds[t], rate(_Play(t)))
    top = max(scores.values())
    weights = {kind: math.exp((score - top) / TEMPER) for kind, score in scores.items()}
    return weights[kinds[lay.tile]] / sum(weights.values())


@dataclass(frozen=True, slots=True)
class _Play:
    """A play as the rater reads it (its one tile)."""

    tile: int

    @property
    def tiles(self) -> tuple[int, ...]:
        return (self.tile,)
