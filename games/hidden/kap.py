"""Deals for Kap Ten and Kap Tai Shap: the others' hands and the stock dealt anew from one seat's
view, weighed by how likely the others' face-up discards make them.

Rules sources: docs/rules-book.md §2.6–§2.7 (the stock and the other hands; Culin's rules let a
player take any face-up tile, so a tile left face up did not complete the hand of a seat that had a
turn with it there; a face-up tile a seat took is in its hand until it is discarded again, so every
deal gives it back to that seat: `KapView.took`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, cast

from games.engine import Action, hand_out, sample_seed, shuffle
from games.hidden.chain import SLIP, _turns_done, places, swaps
from games.kap_deal import KapDealer, KapSeen, KapState, KapView
from games.kap_signatures import signatures
from games.tens import KINDS, wins

KAP_BURN = 200
KAP_THIN = 20
"""Steps of Kap's `Chain` before its first deal, and between two deals. Measured on Kap Ten
(300 deals between normal players, 30 deals sampled per discard): how well the sampled deals
foretell which of the player's tiles would complete a hand of the others (the Brier score;
0.0778 for the base rate alone) went from 0.087 at 30 and 6 steps to 0.084 at 100 and 12 and
0.080 at 200 and 20; 1,000 and 100 give 0.0785: short chains sampled the deals they started
from, a uniform draw, which foretells worse than the base rate (0.102)."""


def kap_sample(rules: KapDealer, view: Any, rng: random.Random) -> Any:
    """A deal `rules` could have dealt, as `view`'s seat sees it (`KapRules.redeal`): the
    tiles it cannot see dealt anew, uniformly, to the other hands and the stock, every hand
    keeping the face-up tiles it was seen to take."""
    v = cast("KapView", view)
    seat = cast(int, v.seat)
    kind = v.tiles.kind_of
    held = _held(v)
    known = set(v.hand)
    known.update(t for t, _ in v.pile)
    known.update(t for tiles in held for t in tiles)
    pool = [t for t in range(32 * v.sets) if t not in known]
    shuffle(rng, pool)
    hands, at = hand_out(v.hand_counts, seat, v.hand, pool, key=lambda t: (kind[t], t),
                         held=held)
    stock = tuple(pool[at:])
    if len(stock) != v.stock:
        raise ValueError("the view's counts do not add up to the unseen tiles")
    return _state(rules, v, sample_seed(rng), hands, stock)


def _held(v: KapView) -> tuple[tuple[int, ...], ...]:
    """The tiles each other seat is seen to hold (the face-up discards it took), none for the
    view's own seat, whose hand is known whole."""
    return tuple(() if s == v.seat else tiles for s, tiles in enumerate(v.took))


def _state(rules: KapDealer, v: KapView, seed: str, hands: tuple[tuple[int, ...], ...],
           stock: tuple[int, ...]) -> KapState:
    """`v`'s table with these hands and this stock, its seat to move."""
    state: KapState = rules.state_type(
        options=v.options, seed=seed, players=v.players, match=v.match,
        version=v.version, sets=v.sets, leader=v.leader, turn=cast(int, v.seat),
        turns=v.turns, phase=v.phase, taken=v.taken, hands=hands, stock=stock, pile=v.pile,
        done="", winner=None, source="",
        took=tuple((t, s) for s, tiles in enumerate(v.took) for t in tiles))
    return state


KAP_ORDER = 3.0
"""How strongly a Kap hand that has had turns is taken to be nearly complete: a deal is weighed
by e^(−KAP_ORDER · tiles missing) (half that after one turn). Measured between heuristic
players: after a couple of turns five hands in six of Kap Ten lack a single tile, against one
in seven of hands dealt at random from the unseen tiles; the factor fits those odds."""
NOT_TAKEN = 0.2
"""Weight of a Kap deal for each face-up tile that would have completed a seat's hand at its
last turn, had that hand been its hand of now (it may have changed by the tile it drew)."""
TEMPER = 0.5
"""Weight (as a power) of a Kap seat's earlier discards, read against its hand of now: the hand
then was not quite the hand now."""


def kap_likelihood(rules: KapDealer, view: Any, state: Any, rater: Any) -> float:
    """How likely the other seats' face-up discards were, had they held what `state` gives
    them and discarded as the heuristic does (now and then, `SLIP`, otherwise).

    Only a seat's hand of now is known in the deal, so each of its discards still on the table
    is read as a choice out of that hand and the discard, with the table as it was then: its
    latest discard exactly so, the earlier ones tempered (`TEMPER`). A hand that would have
    won with its latest discard still in it would not have discarded: impossible.
    """
    v = cast("KapView", view)
    weight = 1.0
    for s in range(v.players):
        if s != v.seat:
            weight *= kap_seat_likelihood(rules, v, s, state.hands[s], rater)
            if not weight:
                return 0.0
    return weight


def kap_seat_likelihood(rules: KapDealer, view: Any, s: int, hand: tuple[int, ...], rater: Any
                        ) -> float:
    """`kap_likelihood`'s factor for one seat holding `hand`: it depends on nothing else, so a
    chain step that moves tiles between one hand and the stock weighs that hand alone."""
    return _SeatReading(rules, cast("KapView", view), s, rater)(hand)


@cache
def _discards(size: int) -> tuple[Action, ...]:
    """One discard move per tile id of a set of `size` tiles, made once: the heuristic is asked
    about the same moves again and again."""
    return tuple(Action("discard", (t,)) for t in range(size))


class _SeatReading:
    """`kap_seat_likelihood` of one seat of one view, for any hand: what does not depend on the
    hand (the seat's turns, its discards and the table as it stood at each) is read once, as a
    chain weighs thousands of hands against the same view."""

    def __init__(self, rules: KapDealer, v: KapView, s: int, rater: Any) -> None:
        self.rules, self.v, self.s, self.rater = rules, v, s, rater
        self.kind = v.tiles.kind_of
        self.done = _turns_done(v, s)
        mine = [i for i, (_, who) in enumerate(v.pile) if who == s]
        self.left: set[int] = set()
        if mine and self.done:
            # Tiles face up when the seat's last turn began stayed there: had one completed
            # its hand it would have taken it and won (the hand then is read as the hand now).
            first = mine[-1]
            while first - 1 in mine:
                first -= 1
            self.left = {self.kind[t] for t, _ in v.pile[:first]}
        self.terms = [(v.pile[i][0], v.pile[:i], order == len(mine) - 1)
                      for order, i in enumerate(mine)]
        self.discards = _discards(v.tiles.size)
        self.sig = signatures(rules.pairs, v.options.four_two)
        self.order = [math.exp(-KAP_ORDER * min(self.done, 2) / 2 * short)
                      for short in range(2 * rules.pairs + 3)]
        """The factor of each number of tiles missing (`KAP_ORDER`)."""

    def _completes(self, counts: list[int], size: int, short: int, helps: int, k: int
                   ) -> bool:
        """Whether a hand (`counts` per kind, `size` tiles, its `short` and `helps` from its
        signature) wins with one more tile of kind `k`: it lacks that tile alone. A hand of
        another size than a winning one less a tile is asked the long way."""
        if size + 1 != 2 * self.rules.pairs + 2:
            kinds = [k for k, n in enumerate(counts) for _ in range(n)]
            return wins([*kinds, k], self.v.options.four_two)
        return short == 1 and bool(helps >> (3 * self.sig.digit[k] + min(counts[k], 2)) & 1)

    def __call__(self, hand: tuple[int, ...]) -> float:
        return self.rest(hand, self.head(hand))

    def head(self, hand: Sequence[int]) -> float:
        """The factor before the seat's discards are read (0.0 when its latest discard would
        have won), from the hand's kinds alone, in any order: a few operations."""
        kind = self.kind
        counts = [0] * KINDS
        for t in hand:
            counts[kind[t]] += 1
        size = len(hand)
        short, helps = self.sig.analysis(self.sig.key(counts))
        terms = self.terms
        if terms and self._completes(counts, size, short, helps, kind[terms[-1][0]]):
            return 0.0  # the latest discard would have won: asked first, it spares the rest
        weight = 1.0
        if self.done:
            weight *= self.order[short]
        for k in self.left:
            if self._completes(counts, size, short, helps, k):
                weight *= NOT_TAKEN
        return weight

    def most(self, weight: float) -> float:
        """At least what `rest` makes of `weight`: each discard read as the heuristic's one
        choice (the factors are multiplied in the same order, so rounding keeps it above)."""
        if weight:
            for _, _, last in self.terms:
                weight *= 1 - SLIP if last else (1 - SLIP) ** TEMPER
        return weight

    def rest(self, hand: tuple[int, ...], weight: float) -> float:
        """The factor, from `head`'s part of it and the seat's discards, each asked of the
        heuristic as a choice out of `hand` and the discard (one discard a kind: the heuristic
        tells kinds apart, not tiles, nor their order)."""
        if not weight:
            return weight
        v, kind, s, discards = self.v, self.kind, self.s, self.discards
        firsts: dict[int, int] = {}
        for t in hand:
            firsts.setdefault(kind[t], t)
        for tile, before, last in self.terms:
            mine = firsts if kind[tile] in firsts else {**firsts, kind[tile]: tile}
            legal = tuple([discards[t] for t in mine.values()])
            seen = KapSeen(v.game, v.options, v.players, v.sets, s, (*hand, tile), before,
                           "discard", legal)
            rate = self.rater(seen)
            scores = [rate(a) for a in legal]
            best = max(scores)
            ties = scores.count(best)
            if rate(discards[mine[kind[tile]]]) == best:
                p = (1 - SLIP) / ties
            else:
                p = SLIP / max(len(scores) - ties, 1)
            weight *= p if last else p ** TEMPER
        return weight


def kap_chain(rules: KapDealer, view: Any, rater: Any, rng: random.Random
              ) -> Callable[[], Any]:
    """Deals for Kap from a `Chain` weighed by `kap_likelihood` (`_KapChain`, its steps made
    cheaper): places are the other hands and the stock. A deal handed out gets its stock,
    shuffled anew."""
    v = cast("KapView", view)
    start = kap_sample(rules, v, rng)
    seat = cast(int, v.seat)
    kind = v.tiles.kind_of
    order = [kind[t] * 1024 + t for t in range(v.tiles.size)]
    held = _held(v)
    fixed = {t for tiles in held for t in tiles}
    tiles, owners = places(start, seat)
    if fixed:  # a taken tile stays in its hand: it is no place the chain may move
        kept = [i for i, t in enumerate(tiles) if t not in fixed]
        tiles, owners = [tiles[i] for i in kept], [owners[i] for i in kept]
    in_hands = len(tiles) - len(start.stock)

    def build(chosen: list[int]) -> tuple[tuple[int, ...], ...]:
        return hand_out(v.hand_counts, seat, v.hand, chosen, key=order.__getitem__,
                        held=held)[0]

    readings = [(s, _SeatReading(rules, v, s, rater)) for s in range(v.players) if s != seat]
    chain = _KapChain(tiles, owners, held, readings, build, rng)

    def deal() -> KapState:
        chain.walk(KAP_THIN)
        stock = tiles[in_hands:]  # the chain keeps `tiles` as its current deal
        shuffle(rng, stock)
        return _state(rules, v, start.seed, build(tiles), tuple(stock))

    return deal


KEY_BITS = 8
"""Bits per kind of a hand's key in `_KapChain`: room for more copies of a kind than any
number of sets deals."""


class _KapChain:
    """Kap's `Chain`: the same steps, the same draws from the generator and the same deals, at
    a fraction of the cost. A step moves a tile between two hands or a hand and the stock, so
    only those hands are weighed, each factor remembered by the kinds the hand holds (a key
    changed a tile at a time; the heuristic does not tell identical tiles apart). A factor not
    yet known is bounded first from the hand's kinds (`_SeatReading.most`): a step the bound
    already rejects (its deal less likely than the current one by more than the chain's draw)
    never asks the heuristic. The hands are built only for a deal handed out."""

    def __init__(self, tiles: list[int], owners: list[int], held: tuple[tuple[int, ...], ...],
                 readings: list[tuple[int, _SeatReading]],
                 build: Callable[[list[int]], tuple[tuple[int, ...], ...]],
                 rng: random.Random) -> None:
        self.tiles, self.owners, self.held, self.rng = tiles, owners, held, rng
        self.readings = dict(readings)
        self.seats = [s for s, _ in readings]
        self.spots = {s: [i for i, o in enumerate(owners) if o == s] for s in self.seats}
        self.unit = [1 << (KEY_BITS * k) for k in readings[0][1].kind] if readings else []
        hands = build(tiles)
        self.keys = {s: sum(self.unit[t] for t in hands[s]) for s in self.seats}
        # Per seat and key: what `_entry` says.
        self.known: dict[tuple[int, int], list[float]] = {}
        self.factors = {s: self._exact(s, self.keys[s], hands[s]) for s in self.seats}
        self.weight = 1.0
        for s in self.seats:
            self.weight *= self.factors[s]
        self.walk(KAP_BURN)

    def _hand(self, s: int) -> tuple[int, ...]:
        """Seat `s`'s hand in the current deal, in no particular order."""
        tiles = self.tiles
        return (*self.held[s], *[tiles[i] for i in self.spots[s]])

    def _entry(self, s: int, key: int, hand: Sequence[int]) -> list[float]:
        """What is known of seat `s`'s factor for the hand of `key` (`hand`, in any order):
        [its bound, the factor or -1.0 until it is read, `_SeatReading.head`'s part]."""
        entry = self.known.get((s, key))
        if entry is None:
            reading = self.readings[s]
            head = reading.head(hand)
            entry = self.known[s, key] = [reading.most(head), -1.0 if head else 0.0, head]
        return entry

    def _exact(self, s: int, key: int, hand: tuple[int, ...] | None = None) -> float:
        """Seat `s`'s factor for the hand of `key` (its current hand unless `hand` is given),
        read from the heuristic the first time it is asked."""
        hand = hand or self._hand(s)
        entry = self._entry(s, key, hand)
        if entry[1] < 0:
            entry[1] = self.readings[s].rest(hand, entry[2])
        return entry[1]

    def walk(self, steps: int) -> None:
        tiles, owners, rng, unit, keys = self.tiles, self.owners, self.rng, self.unit, self.keys
        size = len(tiles)
        if size < 2 or len(set(owners)) < 2:
            return
        known, factors, seats = self.known, self.factors, self.seats
        for i, j in swaps(rng, size, steps):  # `Chain._walk`'s draws, draw for draw
            oi, oj = owners[i], owners[j]
            if oi == oj:
                continue  # the same deal
            a, b = tiles[i], tiles[j]
            tiles[i], tiles[j] = b, a
            moved: dict[int, int] = {}
            if oi >= 0:
                moved[oi] = keys[oi] - unit[a] + unit[b]
            if oj >= 0:
                moved[oj] = keys[oj] - unit[b] + unit[a]
            # The deal's weight if every factor not yet read is known; else its bound.
            sure = True
            bound = 1.0
            for s in seats:
                if s in moved:
                    entry = self._entry(s, moved[s], self._hand(s))
                    if entry[1] < 0:
                        sure = False
                        bound *= entry[0]
                    else:
                        bound *= entry[1]
                else:
                    bound *= factors[s]
            current = self.weight
            weight = bound
            if sure or bound >= current:
                if not sure:
                    weight = self._weigh(moved)
                accept = weight >= current or rng.random() * current < weight
            else:
                # Less likely than the current deal, whatever the heuristic says: `Chain`'s
                # draw is made; where it falls above the bound, the step is rejected unread.
                draw = rng.random() * current
                accept = draw < bound
                if accept:
                    weight = self._weigh(moved)
                    accept = draw < weight
            if accept:
                self.weight = weight
                for s, key in moved.items():
                    keys[s] = key
                    factors[s] = known[s, key][1]
            else:
                tiles[i], tiles[j] = a, b

    def _weigh(self, moved: dict[int, int]) -> float:
        """The weight of the deal the step makes (the tiles already swapped): the factors of
        the hands `moved` read where they are not yet known."""
        weight = 1.0
        for s in self.seats:
            weight *= self._exact(s, moved[s]) if s in moved else self.factors[s]
        return weight
