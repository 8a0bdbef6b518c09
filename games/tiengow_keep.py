"""What keeping each tile of a Tien Gow hand is worth, early in a deal (`games.tiengow_ai`).

Rules source: docs/rules-book.md §2.8 (a play is beaten only by a strictly higher play of the
same category and composition; pairs and the mixed combinations) and §1.1 (the civil and
military orders, which pairs and combinations there are).

Only the last trick wins the deal, so a tile is worth keeping in proportion to how rarely the
tiles not yet seen could beat it, more for the reserve and for tiles of a pair or combination.
Asked at most turns of every simulated deal, so the pairs a hand holds, and the higher pairs
that could beat each, are bits found once at import rather than plays looked up at each turn.
"""

from __future__ import annotations

from itertools import combinations

from games.hierarchy import CIVIL, VALUE, classify
from games.tiengow_odds import (
    ABOVE,
    BIT,
    CIVIL_PAIRS,
    FAMILY_TILES,
    MILITARY_PAIRS,
    SUPREME_TILES,
    bits,
    threat_of,
)

TIE = 1e-3
"""Orders tiles that are otherwise worth the same: the lowest is folded or led first."""


def worths(unseen: int, counts: tuple[int, ...], n_unseen: int, hand: tuple[int, ...],
           held: int, mixed: bool, others: tuple[int, ...], strength: float, reserve: float,
           combo: float) -> tuple[dict[int, float], dict[int, float]]:
    """What keeping each tile of `hand` (`held` as bits) is worth, `unseen` being the tiles not
    seen yet (as bits, `n_unseen` of them as `Odds` counts them) and `counts` the hands' sizes:
    `strength` times a single's
    chance of holding (as `Odds.survival` works it out: x ** 0 is 1.0), plus `combo` times the
    best chance of holding of its groups, plus `reserve` times that chance for the reserve;
    and that chance of holding, by tile. The groups come first, so that one pass over
    the tiles does the rest: asked at most turns of a deal, passes cost as much as the sums."""
    # 1 − `Odds.reach` of a single, summed here as it sums (x ** 1 is x): its cache cost more.
    reach: float = 0  # as `sum` starts
    for s in others:
        reach += counts[s] / n_unseen
    miss = 1.0 - (reach if reach < 1.0 else 1.0)
    # The pairs held, each with the higher pairs that could beat it: neighbours' as a bit of
    # the unseen tiles whose next bit is also unseen, the others' tile by tile.
    bonus: dict[int, float] = {}
    low = held & (held >> 1) & _NEXT_LOW
    pairs = _NEXT_PAIRS.get(low)
    if pairs is None:
        pairs = _NEXT_PAIRS[low] = _next_pairs(low)
    for pair in _APART:
        if held & pair[2] == pair[2]:
            pairs = (*pairs, pair)
    if pairs:
        both = unseen & (unseen >> 1)
        pair_miss = 1.0  # 1 − `Odds.reach` of a pair, once asked
        for a, b, _, near, apart in pairs:
            count = (both & near).bit_count()
            for other in apart:
                if unseen & other == other:
                    count += 1
            if count == 0:
                worth = combo * 1.0
            else:
                if pair_miss == 1.0:
                    pair_miss = _miss(counts, n_unseen, others, 2)
                worth = combo * pair_miss ** count
            if worth > bonus.get(a, 0.0):
                bonus[a] = worth
            if worth > bonus.get(b, 0.0):
                bonus[b] = worth
    if mixed:
        # The largest mixed combination per family, with the families that could beat it.
        mine = held & _FAMILY_ALL
        groups = _HELD_FAMILIES.get(mine)
        if groups is None:
            if len(_HELD_FAMILIES) >= MEMO:
                _HELD_FAMILIES.clear()
            groups = _HELD_FAMILIES[mine] = tuple(
                found for family, plays in _FAMILIES
                if (found := plays.get(mine & family)) is not None)
        for tiles, families in groups:
            count = 0
            for civil, c, military, m in families:
                if (unseen & civil).bit_count() >= c and (unseen & military).bit_count() >= m:
                    count += 1
            worth = (combo * 1.0 if count == 0
                     else combo * _miss(counts, n_unseen, others, len(tiles)) ** count)
            for t in tiles:
                if worth > bonus.get(t, 0.0):
                    bonus[t] = worth
    # The tile value only orders otherwise equal tiles: fold the lowest (added after the bonus,
    # as the sums were written; adding no bonus is adding 0.0, which changes no sum here).
    chances: dict[int, float] = {}
    keep: dict[int, float] = {}
    # The reserve: the strongest single, then the highest (the first of equals).
    best = -1.0
    kept = hand[0]
    above, tie, order, extra = ABOVE, _TIE, _ORDER, bonus.get
    for t in hand:
        chance = miss ** (unseen & above[t]).bit_count()
        chances[t] = chance
        keep[t] = strength * chance + extra(t, 0.0) + tie[t]
        if chance > best:
            best = chance
            kept = t
        elif chance == best and order[t] > order[kept]:
            kept = t
    keep[kept] += reserve * best
    return keep, chances


def _miss(counts: tuple[int, ...], n_unseen: int, others: tuple[int, ...], size: int) -> float:
    """1 − `Odds.reach(others, size, None)`, summed as it sums: cheaper than its cache."""
    reach: float = 0  # as `sum` starts
    for s in others:
        reach += (counts[s] / n_unseen) ** size
    return 1.0 - (reach if reach < 1.0 else 1.0)


_ORDER = tuple(2 * VALUE[t] + CIVIL[t] for t in range(len(VALUE)))
"""Orders tiles by value, then civil over military, as the reserve is chosen among equals."""
_TIE = tuple(TIE * VALUE[t] for t in range(len(VALUE)))

Pair = tuple[int, int, int, int, tuple[int, ...]]
"""A pair's tiles, both as bits, and what could beat it: the bits of the lower tiles of the
higher pairs of neighbours, and the higher pairs of other tiles, each as bits."""


def _pair(a: int, b: int) -> Pair:
    combo = classify((a, b))
    assert combo is not None
    _, higher, _ = threat_of(combo)
    near = sum(pair & -pair for pair in higher if pair >> 1 & pair)
    return a, b, BIT[a] | BIT[b], near, tuple(pair for pair in higher if not pair >> 1 & pair)


_PAIRS = tuple(_pair(a, b) for _, a, b in (*CIVIL_PAIRS, *MILITARY_PAIRS, (0, *SUPREME_TILES)))
_NEXT_TO = {BIT[p[0]]: p for p in _PAIRS if p[1] == p[0] + 1 and p[0] % 2 == 0}
"""The pairs whose tiles are an even id and the next, by the lower tile's bit: most of them."""
_NEXT_LOW = sum(_NEXT_TO)
_APART = tuple(p for p in _PAIRS if BIT[p[0]] not in _NEXT_TO)
_NEXT_PAIRS: dict[int, tuple[Pair, ...]] = {}
"""The neighbours' pairs a hand holds, by the lower tiles' bits: some 1,500 sets at most (a hand
of eight holds four pairs at most), met again in every deal."""


def _next_pairs(low: int) -> tuple[Pair, ...]:
    """The neighbours' pairs whose lower tiles are the bits `low`, lowest first."""
    found = []
    while low:
        bit = low & -low
        found.append(_NEXT_TO[bit])
        low ^= bit
    return tuple(found)


Family = tuple[tuple[int, ...], tuple[tuple[int, int, int, int], ...]]
"""A mixed play's tiles, and the families whose unseen tiles could make a higher one (as
`games.tiengow_odds` counts its threats)."""


def _family_plays(civil: tuple[int, ...], military: tuple[int, ...]
                  ) -> tuple[int, dict[int, Family]]:
    """A family's tiles as bits, and the play the tiles of it in a hand make (the civil ones,
    then the military ones; none when they may not be led together), by those tiles as bits:
    made once rather than at every turn."""
    plays = {}
    for k in range(2, len(civil) + len(military) + 1):
        for tiles in combinations((*civil, *military), k):
            if any(CIVIL[t] for t in tiles) and not all(CIVIL[t] for t in tiles):
                combo = classify(tiles)
                if combo is not None:
                    mask, pairs, higher = threat_of(combo)
                    assert not mask and not pairs
                    plays[bits(tiles)] = (tiles, higher)
    return bits(civil) | bits(military), plays


_FAMILIES = tuple(_family_plays(civil, military) for civil, military in FAMILY_TILES.values())
_FAMILY_ALL = sum(family for family, _ in _FAMILIES)
_HELD_FAMILIES: dict[int, tuple[Family, ...]] = {}
"""The largest mixed combinations a hand holds, by its tiles of the families as bits: 4000
deals met some 7,000 of them at 64,000 turns."""
MEMO = 1 << 14
"""Hands `_HELD_FAMILIES` remembers, at most."""
