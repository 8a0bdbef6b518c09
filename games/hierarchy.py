"""The Chinese tile and pair hierarchy as Tien Gow compares plays.

Rules source: docs/rules-book.md §1.1 (hierarchy, pairs, the Supreme pair, equal military tiles) and
§2.8 (the comparison-key recipe, the four mixed families, "equal never beats"). Kept apart from the
game so the comparison is one small table-driven function the tests can check against a second,
hand-written formulation.

A play is classified once into a `Combo`: a category, its civil and military counts, and a rank.
Two plays compare only when category and counts are equal; the Supreme pair never compares.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from games.tiles import CHINESE, TileSet

SINGLE_CIVIL = "civil"
SINGLE_MILITARY = "military"
CIVIL_PAIR = "civil-pair"
MILITARY_PAIR = "military-pair"
MIXED = "mixed"
SUPREME = "supreme"

MILITARY_PAIR_VALUES = (9, 8, 7, 5)
"""Nines, Eights, Sevens, Fives: the Chinese military pairs (the Six and Three form the Supreme)."""
SUPREME_VALUES = frozenset({6, 3})
FAMILIES: dict[tuple[int, int], int] = {(6, 6): 4, (1, 1): 3, (4, 4): 2, (3, 1): 1}
"""Civil kind of each mixed family and its rank: Heaven–Nine 4 … Harmony–Five 1."""
FAMILY_OF_MILITARY: dict[int, int] = {9: 4, 8: 3, 7: 2, 5: 1}
"""Military value of each family's military tiles, by family rank."""


@dataclass(frozen=True, slots=True)
class Combo:
    category: str
    civil: int
    military: int
    rank: int

    @property
    def shape(self) -> tuple[str, int, int]:
        """What two plays must share to be compared at all."""
        return (self.category, self.civil, self.military)


@dataclass(frozen=True, slots=True)
class _Facts:
    """Per tile id of a set: suit, single value, and mixed family (0: none)."""

    civil: tuple[bool, ...]
    value: tuple[int, ...]
    kind: tuple[int, ...]
    family: tuple[int, ...]


def _facts(tiles: TileSet) -> _Facts:
    family = []
    for t in range(tiles.size):
        kind = tiles.kind(t)
        if kind.civil:
            family.append(FAMILIES.get((kind.hi, kind.lo), 0))
        else:
            family.append(FAMILY_OF_MILITARY.get(kind.rank, 0))
    return _Facts(
        civil=tuple(tiles.kind(t).civil for t in range(tiles.size)),
        value=tuple(tiles.kind(t).rank for t in range(tiles.size)),
        kind=tiles.kind_of,
        family=tuple(family),
    )


_SET = _facts(CHINESE)
CIVIL = _SET.civil
VALUE = _SET.value
"""Single-tile value: civil Heaven 11 … Red mallet six 1; military = pips ([4:2] 6, [2:1] 3)."""
FAMILY = _SET.family


def classify(tiles: Sequence[int], mixed: bool = True) -> Combo | None:
    """The combo `tiles` (ids of one Chinese set) form, or None when they may not be led.

    `mixed=False` is the historical game: pairs only, no mixed families (docs/rules-book.md §2.8
    option). Remembered: a deal asks about the same few hundred groups of tiles again and again.
    """
    return _classify(tuple(tiles), mixed)


@cache
def _classify(tiles: tuple[int, ...], mixed: bool) -> Combo | None:
    n = len(tiles)
    if n == 1:
        t = tiles[0]
        return Combo(SINGLE_CIVIL if CIVIL[t] else SINGLE_MILITARY, int(CIVIL[t]),
                     int(not CIVIL[t]), VALUE[t])
    if not 2 <= n <= 4 or len(set(tiles)) != n:
        return None
    civil = [t for t in tiles if CIVIL[t]]
    military = [t for t in tiles if not CIVIL[t]]
    if n == 2:
        a, b = tiles
        if len(civil) == 2 and _SET.kind[a] == _SET.kind[b]:
            return Combo(CIVIL_PAIR, 2, 0, VALUE[a])
        if len(military) == 2:
            if VALUE[a] == VALUE[b] and VALUE[a] in MILITARY_PAIR_VALUES:
                return Combo(MILITARY_PAIR, 0, 2, VALUE[a])
            if {VALUE[a], VALUE[b]} == SUPREME_VALUES:
                return Combo(SUPREME, 0, 2, 0)
            return None
    if not mixed or not civil or not military or len(civil) > 2 or len(military) > 2:
        return None
    families = {FAMILY[t] for t in tiles}
    if len(families) != 1 or 0 in families:
        return None
    if len(civil) == 2 and _SET.kind[civil[0]] != _SET.kind[civil[1]]:
        return None
    if len(military) == 2 and _SET.kind[military[0]] == _SET.kind[military[1]]:
        return None
    return Combo(MIXED, len(civil), len(military), families.pop())


def beats(play: Combo, best: Combo) -> bool:
    """Whether `play`, face up, takes over from the highest play so far (strictly higher, same
    category and composition; the Supreme pair neither beats nor is beaten)."""
    return (play.category != SUPREME and best.category != SUPREME
            and play.shape == best.shape and play.rank > best.rank)
