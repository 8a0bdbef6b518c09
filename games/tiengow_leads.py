"""The plays a Tien Gow hand may lead, and its choices of tiles to follow with.

Rules source: docs/rules-book.md §2.8 (leads of one to four tiles: singles, pairs and the mixed
combinations) and §1.1 (which tiles make a pair or a combination). Identical tiles are
interchangeable, so each choice names one copy per kind. Apart from the rules
(`games.tiengow`), which ask at every turn of every simulated deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement

from games.hierarchy import Combo, classify
from games.tiles import CHINESE

_ALL = tuple(range(CHINESE.size))
_KIND = CHINESE.kind_of


def _distinct_choices(hand: Sequence[int], size: int) -> list[tuple[int, ...]]:
    """Every way to take `size` tiles from `hand`, one per multiset of kinds (lowest ids)."""
    seen: dict[tuple[int, ...], tuple[int, ...]] = {}
    kind = _KIND.__getitem__
    for chosen in combinations(hand, size):
        seen.setdefault(tuple(map(kind, chosen)), chosen)
    return list(seen.values())


def lead_choices(hand: Sequence[int], mixed: bool) -> list[tuple[tuple[int, ...], Combo]]:
    """Every play that may be led from `hand`: singles, pairs, then the mixed combinations."""
    found: list[tuple[tuple[int, ...], Combo]] = []
    for size in (1, 2, 3, 4):
        for tiles in _distinct_choices(hand, size):
            combo = classify(tiles, mixed)
            if combo is not None:
                found.append((tiles, combo))
    return found


@cache
def _groups_of_kinds(mixed: bool) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every group of two to four tiles that may be led, by kinds: (kind, copies) pairs."""
    by_kind: dict[int, list[int]] = {}
    for t in _ALL:
        by_kind.setdefault(_KIND[t], []).append(t)
    found: list[tuple[tuple[int, int], ...]] = []
    for size in (2, 3, 4):
        for kinds in combinations_with_replacement(sorted(by_kind), size):
            need = {k: kinds.count(k) for k in kinds}
            if any(n > len(by_kind[k]) for k, n in need.items()):
                continue
            tiles = tuple(t for k, n in need.items() for t in by_kind[k][:n])
            if classify(tiles, mixed) is not None:
                found.append(tuple(need.items()))
    return tuple(found)


@cache
def _groups_from(mixed: bool) -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...]:
    """`_groups_of_kinds` by their first kind (only a hand holding it can lead them)."""
    by_first: list[list[tuple[tuple[int, int], ...]]] = [[] for _ in CHINESE.kinds]
    for group in _groups_of_kinds(mixed):
        by_first[group[0][0]].append(group)
    return tuple(tuple(groups) for groups in by_first)


def _leads(hand: Sequence[int], mixed: bool) -> list[tuple[int, ...]]:
    """`lead_choices`' tiles for a hand in id order (as dealt), found from the few groups of
    kinds that may be led rather than from every combination of the hand: the same plays in
    the same order (each group by its lowest ids, in the order combinations meet them)."""
    copies: dict[int, list[int]] = {}
    for t in hand:
        copies.setdefault(_KIND[t], []).append(t)
    singles = [(held[0],) for held in copies.values()]
    found: list[tuple[int, ...]] = []
    groups_from = _groups_from(mixed)
    for first in copies:
        for group in groups_from[first]:
            tiles: list[int] = []
            for kind, n in group:
                held = copies.get(kind)
                if held is None or len(held) < n:
                    break
                tiles += held[:n]
            else:
                found.append(tuple(sorted(tiles)))
    found.sort(key=lambda tiles: (len(tiles), tiles))
    return singles + found
