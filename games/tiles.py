"""The two tile sets: the Chinese 32-tile set and the Western double-six set.

Rules source: docs/rules-book.md §1.1 (Chinese set: civil/military suits, ranks, names) and §1.2
(double-six).

States hold tile *ids* (small ints), never kinds, because the Chinese set has identical duplicate
tiles and some games shuffle several sets together: an id says which copy, a kind says what it
is. Every per-id fact the rules need on a hot path (ends, pips, doubles) is a precomputed tuple
indexed by id, so the games never build objects while playing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True, slots=True)
class Kind:
    """One face of a tile. `rank` is the single-tile comparison value (docs/rules-book.md §2.8
    recipe)."""

    hi: int
    lo: int
    civil: bool
    rank: int
    uk: str
    en: str
    zh: str

    @property
    def pips(self) -> int:
        return self.hi + self.lo

    @property
    def is_double(self) -> bool:
        return self.hi == self.lo

    @property
    def label(self) -> str:
        return f"[{self.hi}:{self.lo}]"


# Civil kinds in rank order (highest first), then military by pip total (docs/rules-book.md §1.1
# table).
_CHINESE_KINDS: tuple[Kind, ...] = (
    Kind(6, 6, True, 11, "Небо", "Heaven", "天"),
    Kind(1, 1, True, 10, "Земля", "Earth", "地"),
    Kind(4, 4, True, 9, "Людина", "Man", "人"),
    Kind(3, 1, True, 8, "Гармонія", "Harmony", "和"),
    Kind(5, 5, True, 7, "Квіти сливи", "Plum flower", "梅花"),
    Kind(3, 3, True, 6, "Довгі трійки", "Long threes", "長三"),
    Kind(2, 2, True, 5, "Лавка", "Bench", "板凳"),
    Kind(6, 5, True, 4, "Сокира", "Axe", "斧頭"),
    Kind(6, 4, True, 3, "Червоноголова десятка", "Red head ten", "紅頭十"),
    Kind(6, 1, True, 2, "Довгонога семірка", "Long leg seven", "高腳七"),
    Kind(5, 1, True, 1, "Червономолоткова шестірка", "Red mallet six", "銅錘六"),
    Kind(6, 3, False, 9, "Дев'ятка", "Nine", "雜九"),
    Kind(5, 4, False, 9, "Дев'ятка", "Nine", "雜九"),
    Kind(6, 2, False, 8, "Вісімка", "Eight", "雜八"),
    Kind(5, 3, False, 8, "Вісімка", "Eight", "雜八"),
    Kind(5, 2, False, 7, "Сімка", "Seven", "雜七"),
    Kind(4, 3, False, 7, "Сімка", "Seven", "雜七"),
    Kind(4, 2, False, 6, "Шістка (Найвища пара)", "Six (Supreme)", "二四"),
    Kind(4, 1, False, 5, "П'ятірка", "Five", "雜五"),
    Kind(3, 2, False, 5, "П'ятірка", "Five", "雜五"),
    Kind(2, 1, False, 3, "Трійка (Найвища пара)", "Three (Supreme)", "丁三"),
)

_WESTERN_KINDS: tuple[Kind, ...] = tuple(
    Kind(hi, lo, False, hi + lo, f"[{hi}:{lo}]", f"[{hi}:{lo}]", f"[{hi}:{lo}]")
    for hi in range(6, -1, -1)
    for lo in range(hi, -1, -1)
)

_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True, slots=True)
class TileSet:
    """A concrete deck: which kind and which copy every tile id is.

    Tokens (`"63a"`, `"66b"`) name a tile in action codes: the two ends, high first, and a copy
    letter, so that a code says exactly which of two identical tiles was played.
    """

    name: str
    kinds: tuple[Kind, ...]
    kind_of: tuple[int, ...]
    copy_of: tuple[int, ...]
    a: tuple[int, ...]
    b: tuple[int, ...]
    pips: tuple[int, ...]
    double: tuple[bool, ...]

    @property
    def size(self) -> int:
        return len(self.kind_of)

    def kind(self, tile: int) -> Kind:
        return self.kinds[self.kind_of[tile]]

    def token(self, tile: int) -> str:
        kind = self.kind(tile)
        return f"{kind.hi}{kind.lo}{_LETTERS[self.copy_of[tile]]}"

    def parse(self, token: str) -> int | None:
        """The id a token names in this set, or None for anything malformed or absent."""
        return _token_index(self).get(token)

    def number_counts(self, tiles: Iterable[int]) -> list[int]:
        """How many of `tiles` show each number 0–6 (a double counts once)."""
        counts = [0] * 7
        a, b = self.a, self.b
        for t in tiles:
            counts[a[t]] += 1
            if b[t] != a[t]:
                counts[b[t]] += 1
        return counts

    def showing(self, tiles: Iterable[int], number: int) -> int:
        """How many of `tiles` show `number` on either end."""
        return sum(1 for t in tiles if self.a[t] == number or self.b[t] == number)

    def label(self, tile: int) -> str:
        return self.kind(tile).label

    def ids_of(self, hi: int, lo: int) -> tuple[int, ...]:
        """Every copy of the kind [hi:lo] (either order), lowest id first."""
        hi, lo = max(hi, lo), min(hi, lo)
        return tuple(t for t in range(self.size) if (self.a[t], self.b[t]) == (hi, lo))

    def one(self, spec: str) -> int:
        """The first copy of a kind written "63" or "[6:3]" (tests and scripts)."""
        digits = [int(c) for c in spec if c.isdigit()]
        if len(digits) != 2:
            raise ValueError(f"not a tile: {spec!r}")
        ids = self.ids_of(digits[0], digits[1])
        if not ids:
            raise ValueError(f"no tile {spec!r} in the {self.name} set")
        return ids[0]


@cache
def _token_index(tiles: TileSet) -> dict[str, int]:
    return {tiles.token(t): t for t in range(tiles.size)}


def _build(name: str, kinds: tuple[Kind, ...], kind_ids: list[int], copies: list[int]) -> TileSet:
    return TileSet(
        name=name,
        kinds=kinds,
        kind_of=tuple(kind_ids),
        copy_of=tuple(copies),
        a=tuple(kinds[k].hi for k in kind_ids),
        b=tuple(kinds[k].lo for k in kind_ids),
        pips=tuple(kinds[k].pips for k in kind_ids),
        double=tuple(kinds[k].is_double for k in kind_ids),
    )


@cache
def chinese(sets: int = 1) -> TileSet:
    """`sets` Chinese sets shuffled together: each civil kind twice per set, military once."""
    if sets < 1:
        raise ValueError("at least one set")
    kind_ids: list[int] = []
    copies: list[int] = []
    for s in range(sets):
        for k, kind in enumerate(_CHINESE_KINDS):
            per_set = 2 if kind.civil else 1
            for c in range(per_set):
                kind_ids.append(k)
                copies.append(s * per_set + c)
    return _build("chinese" if sets == 1 else f"chinese×{sets}", _CHINESE_KINDS, kind_ids, copies)


WESTERN: TileSet = _build(
    "double-six", _WESTERN_KINDS, list(range(len(_WESTERN_KINDS))), [0] * len(_WESTERN_KINDS)
)
CHINESE: TileSet = chinese(1)
