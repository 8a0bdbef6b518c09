"""Tien Gow's names: a tile by its rank name, a play by what Tien Gow calls it, in Ukrainian and
English; and the Chinese names of the set's tiles.

Rules source: docs/rules-book.md §1.1 (the tiles' names, the civil and military suits, the civil
pairs, the four Chinese military pairs and the Supreme pair 至尊) and §2.8 (the plays that may be
led: single tiles, pairs and the four mixed families Heaven–Nine, Earth–Eight, Man–Seven and
Harmony–Five, as two, three or four tiles).

These names belong to Tien Gow: the other games on the Chinese set call a tile by its face
only, so the line and collecting homes never ask here. A play is named from the game's own
classification (`games.hierarchy.classify`, the function the game compares plays with), so a
name can never disagree with what beats what; this module only puts words to a `Combo`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.hierarchy import CIVIL_PAIR, MILITARY_PAIR, MIXED, SUPREME, classify
from games.tiengow import best_index
from games.tiengow_deal import Play
from games.tiles import CHINESE, Kind
from words.i18n import tr

ZH: dict[tuple[int, int], str] = {
    (6, 6): "天牌", (1, 1): "地牌", (4, 4): "人牌", (3, 1): "和牌", (5, 5): "梅花",
    (3, 3): "長三", (2, 2): "板凳", (6, 5): "斧頭", (6, 4): "紅頭十", (6, 1): "高腳七",
    (5, 1): "銅錘六",
    (6, 3): "雜九", (5, 4): "雜九", (6, 2): "雜八", (5, 3): "雜八", (5, 2): "雜七",
    (4, 3): "雜七", (4, 2): "二四", (4, 1): "雜五", (3, 2): "雜五", (2, 1): "丁三",
}
"""Each face's Chinese name (docs/rules-book.md §1.1, ZH-TJ): the civil tiles by their own names,
the military ones as "mixed" (雜) nines, eights, sevens and fives, and the two halves of 至尊."""
ZH_ALSO: dict[tuple[int, int], str] = {(3, 1): "鵝牌"}
"""A second name in common use: Harmony is also the Goose."""
SUPREME_ZH = "至尊"
CIVIL_ZH = "文"
MILITARY_ZH = "武"


def kind_name(kind: Kind, lang: str) -> str:
    """"Heaven", "Nine": the name Tien Gow gives a face (both Nines are "Nine")."""
    return tr(lang, f"tile.{kind.hi}{kind.lo}")


def tile_words(tile: int, lang: str) -> str:
    """"[6:6] Heaven": a single tile as Tien Gow names it."""
    kind = CHINESE.kind(tile)
    return f"{kind.label} {kind_name(kind, lang)}"


def play_name(tiles: Sequence[int], lang: str, mixed: bool = True) -> str | None:
    """What Tien Gow calls a play of one to four tiles (ids of one Chinese set): "Heaven" for a
    single tile, "Heaven pair", "pair of Nines", "Supreme pair", or a mixed combination
    spelled out tile by tile, civil first ("Heaven–Heaven–Nine"). None when the tiles are no
    play that could be led (a face-down handful, or a mixed one with `mixed` off)."""
    combo = classify(tiles, mixed)
    if combo is None:
        return None
    kinds = [CHINESE.kind(t) for t in tiles]
    if len(kinds) == 1:
        return kind_name(kinds[0], lang)
    if combo.category == CIVIL_PAIR:
        return tr(lang, f"tg.pair.{kinds[0].hi}{kinds[0].lo}")
    if combo.category == MILITARY_PAIR:
        return tr(lang, f"tg.mpair.{combo.rank}")
    if combo.category == SUPREME:
        return tr(lang, "tg.supreme")
    assert combo.category == MIXED
    civil = next(k for k in kinds if k.civil)
    military = next(k for k in kinds if not k.civil)
    parts = [kind_name(civil, lang)] * combo.civil + [kind_name(military, lang)] * combo.military
    return "–".join(parts)


def play_words(tiles: Sequence[int], lang: str, mixed: bool = True) -> str:
    """A play shown face up, its faces and its name: "[6:6] Heaven", "[6:6] [6:3]
    Heaven–Nine"; faces only when the tiles have no name."""
    faces = " ".join(CHINESE.label(t) for t in tiles)
    name = play_name(tiles, lang, mixed)
    return f"{faces} {name}" if name else faces


@dataclass(frozen=True, slots=True)
class TrickNames:
    """Who led a trick and with what, and who holds it (or took it) and with what."""

    leader: int
    """The seat that led."""
    led: str
    holder: int
    """The seat whose play holds the trick so far, or took it once it is complete."""
    best: str
    """The holding play's name (the same as `led` while nobody has beaten the lead)."""


def trick_names(plays: Sequence[Play], lang: str, mixed: bool = True) -> TrickNames | None:
    """The names a table shows over a trick in progress or just taken: its leader and the led
    play, and the play holding it, as the game itself finds it (`best_index`). None for an
    empty trick."""
    if not plays or not plays[0].tiles:
        return None
    held = plays[best_index(plays, mixed)]
    led = play_name(plays[0].tiles, lang, mixed) or ""
    best = play_name(held.tiles, lang, mixed) or ""
    return TrickNames(plays[0].seat, led, held.seat, best)
