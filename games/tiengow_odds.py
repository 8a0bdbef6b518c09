"""The odds one Tien Gow seat works out from its view: the tiles it has not seen, how many plays
among them could beat a play of its own, and the chance that another hand holds one.

Rules source: docs/rules-book.md §2.8 (a play is beaten only by a strictly higher play of the same
category and composition, the Supreme pair by none; the four mixed families) and §1.1 (the civil
and military orders).

Its one reader is the player (`games.tiengow_ai`), which asks these questions thousands of times
a deal.
Sets of tiles are the bits of one int, bit t for tile t, and whatever depends on a tile or a play
alone is worked out once, at import or the first time the play is met: what a view adds is then
a few bit counts, where walking the tiles for every question cost the player most of its time.
"""

from __future__ import annotations

from collections.abc import Iterable
from math import comb

from games.hierarchy import (
    CIVIL,
    CIVIL_PAIR,
    FAMILY,
    MILITARY_PAIR,
    MIXED,
    SUPREME,
    SUPREME_VALUES,
    VALUE,
    Combo,
    classify,
)
from games.tiles import CHINESE

_ALL = range(CHINESE.size)
BIT = tuple(1 << t for t in _ALL)
FULL = (1 << CHINESE.size) - 1
SHOWN = 0.5
"""About half of what the others play is shown face up, leaving the unseen pool."""


def bits(tiles: Iterable[int]) -> int:
    """The set of `tiles` as bits."""
    found = 0
    for t in tiles:
        found |= BIT[t]
    return found


_CIVIL_IDS = tuple(t for t in _ALL if CIVIL[t])
_MILITARY_IDS = tuple(t for t in _ALL if not CIVIL[t])
CIVIL_PAIRS = tuple((VALUE[a], a, b) for a, b in zip(_CIVIL_IDS[::2], _CIVIL_IDS[1::2],
                                                      strict=True))
"""(rank, id, id) of the eleven civil pairs: the two copies of each civil kind."""
MILITARY_PAIRS = tuple(
    (v, *(t for t in _MILITARY_IDS if VALUE[t] == v)) for v in (9, 8, 7, 5)
)
SUPREME_TILES = tuple(t for t in _MILITARY_IDS if VALUE[t] in SUPREME_VALUES)
FAMILY_TILES = {
    f: (tuple(t for t in _CIVIL_IDS if FAMILY[t] == f),
        tuple(t for t in _MILITARY_IDS if FAMILY[t] == f))
    for f in (1, 2, 3, 4)
}
_FAMILY_BITS = {f: (bits(civil), bits(military)) for f, (civil, military) in FAMILY_TILES.items()}
_PAIR_BITS = {CIVIL_PAIR: tuple((r, BIT[a] | BIT[b]) for r, a, b in CIVIL_PAIRS),
              MILITARY_PAIR: tuple((r, BIT[a] | BIT[b]) for r, a, b in MILITARY_PAIRS)}
ABOVE = tuple(bits(u for u in _ALL if CIVIL[u] == CIVIL[t] and VALUE[u] > VALUE[t])
              for t in _ALL)
"""Per tile, the tiles that beat it as a single: its suit, a higher value."""
BELOW = tuple(bits(u for u in _ALL if CIVIL[u] == CIVIL[t] and 0 < VALUE[u] < VALUE[t])
              for t in _ALL)
"""Per tile, the tiles it beats as a single."""

Threat = tuple[int, tuple[int, ...], tuple[tuple[int, int, int, int], ...]]
"""Which unseen plays beat a play: each unseen tile of the first set (a single's betters), each
pair of the second whose tiles are both unseen (a higher pair), and each family (civil tiles,
how many, military tiles, how many) whose counts the unseen tiles fill (a higher mixed play)."""
_THREATS: dict[tuple[int, ...], Threat] = {}
"""The threat of each play met so far, by its tiles (a few hundred plays at most)."""


def threat_of(combo: Combo) -> Threat:
    """A play of two tiles or more's threat (a single's is its `ABOVE`)."""
    cat, rank = combo.category, combo.rank
    if cat == SUPREME:
        return 0, (), ()
    if cat in _PAIR_BITS:
        return 0, tuple(pair for r, pair in _PAIR_BITS[cat] if r > rank), ()
    assert cat == MIXED
    return 0, (), tuple((civil, combo.civil, military, combo.military)
                        for f, (civil, military) in _FAMILY_BITS.items() if f > rank)


Lower = tuple[tuple[int, ...], tuple[tuple[int, int, int, int], ...]]
"""The plays of a play's shape that it beats: each lower pair, as bits, and each lower family
(civil tiles, how many, military tiles, how many), whose tiles may be chosen in several ways."""
_LOWER: dict[Combo, Lower] = {}


def lower_of(combo: Combo) -> Lower:
    """The plays `combo` beats of its own shape (remembered: a few dozen plays have any)."""
    found = _LOWER.get(combo)
    if found is None:
        cat, rank = combo.category, combo.rank
        pairs: tuple[int, ...] = ()
        families: tuple[tuple[int, int, int, int], ...] = ()
        if cat in _PAIR_BITS:
            pairs = tuple(pair for r, pair in _PAIR_BITS[cat] if r < rank)
        elif cat == MIXED:
            families = tuple((civil, combo.civil, military, combo.military)
                             for f, (civil, military) in _FAMILY_BITS.items() if f < rank)
        found = _LOWER[combo] = (pairs, families)
    return found


Reach = dict[tuple[tuple[int, ...], int, int | None], float]
_REACH: dict[tuple[tuple[int, ...], int], Reach] = {}
"""`Odds.reach`'s answers by the hand counts and the unseen pool's size, then by its question:
few counts and pool sizes occur, so views share the answers, each found with one look-up."""
MEMO = 1 << 12
"""Counts and pool sizes `_REACH` remembers, at most (4000 deals met some 1,200, with three
answers each on average)."""


class Odds:
    """What one seat can infer from its view: the tiles it has not seen and where they may be.
    Remembers its answers: the look-ahead asks the same few questions again and again."""

    __slots__ = ("_reach", "_threats", "counts", "n_unseen", "unseen")

    def __init__(self, seen: int, counts: tuple[int, ...], hand: int) -> None:
        """`seen`: the tiles the seat has seen played, `counts` each hand's size, `hand` the
        seat's own tiles, the first and the last as bits."""
        self.unseen = FULL & ~(seen | hand)
        self.n_unseen = max(self.unseen.bit_count(), 1)
        self.counts = counts
        self._threats: dict[tuple[int, ...], int] = {}
        known = (counts, self.n_unseen)
        reach = _REACH.get(known)
        if reach is None:
            if len(_REACH) >= MEMO:
                _REACH.clear()
            reach = _REACH[known] = {}
        self._reach: Reach = reach

    def threats(self, tiles: tuple[int, ...]) -> int:
        """How many unseen plays could beat the play `tiles` (each needs all its tiles in one
        hand)."""
        if len(tiles) == 1:
            return (self.unseen & ABOVE[tiles[0]]).bit_count()
        found = self._threats.get(tiles)
        if found is None:
            threat = _THREATS.get(tiles)
            if threat is None:
                combo = classify(tiles)
                assert combo is not None
                threat = _THREATS[tiles] = threat_of(combo)
            u = self.unseen
            mask, pairs, families = threat
            found = (u & mask).bit_count()
            for p in pairs:
                if u & p == p:
                    found += 1
            for civil, c, military, m in families:
                if (u & civil).bit_count() >= c and (u & military).bit_count() >= m:
                    found += 1
            self._threats[tiles] = found
        return found

    def lower(self, combo: Combo) -> int:
        """How many unseen plays of `combo`'s shape it would beat (each choice of tiles)."""
        return self.ways(lower_of(combo))

    def ways(self, lower: Lower) -> int:
        """How many unseen plays there are among `lower` (`lower_of`), each choice of tiles."""
        u = self.unseen
        pairs, families = lower
        ways = 0
        for pair in pairs:
            if u & pair == pair:
                ways += 1
        for civil, c, military, m in families:
            ways += comb((u & civil).bit_count(), c) * comb((u & military).bit_count(), m)
        return ways

    def below(self, t: int) -> int:
        """Unseen tiles of `t`'s suit that `t` beats."""
        return (self.unseen & BELOW[t]).bit_count()

    def reach(self, seats: tuple[int, ...], size: int, held: int | None) -> float:
        """Chance that a given unseen play of `size` tiles sits whole in one of `seats`' hands
        (holding `held` tiles each, later in the deal; now when None)."""
        key = (seats, size, held)
        found = self._reach.get(key)
        if found is not None:
            return found
        counts = self.counts
        n_unseen = self.n_unseen
        if held is None:
            found = min(sum([(counts[s] / n_unseen) ** size for s in seats]), 1.0)
        else:
            # Meanwhile about half the tiles the others play are shown and leave the unseen
            # pool.
            shown = sum([counts[s] - held for s in seats]) * SHOWN
            share = held / max(n_unseen - shown, 1.0)
            found = min(len(seats) * share ** size, 1.0)
        self._reach[key] = found
        return found

    def survival(self, tiles: tuple[int, ...], seats: tuple[int, ...],
                 held: int | None = None) -> float:
        """Chance that none of `seats` can beat the play `tiles` (the remembered answers read
        here first: this is asked the most)."""
        size = len(tiles)
        if size == 1:
            threats = (self.unseen & ABOVE[tiles[0]]).bit_count()
        else:
            known = self._threats.get(tiles)
            threats = self.threats(tiles) if known is None else known
        if threats == 0:
            return 1.0
        reach = self._reach.get((seats, size, held))
        if reach is None:
            reach = self.reach(seats, size, held)
        return (1.0 - reach) ** threats
