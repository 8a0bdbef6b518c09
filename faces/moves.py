"""A move in words, for the table's footer and the terminal, in Ukrainian and English; and a
tile's short name, for buttons, alerts and captions.

Events carry only public facts (docs/rules-book.md §2.1 and §2.8: a face-down discard or a face-down
follow is never named; §2.6 and §2.9: a tile drawn from the stock is never named), so the words
can be shown to everyone. Sentences are built as "Name: what happened" so that Ukrainian needs
no gendered verb forms; the words themselves live in the catalogue (`words/catalogue/`).

What a tile is called depends on the game (issue: Tien Gow's "Supreme" and "Heaven" mean
nothing in Dragon, and in Kap `[4:2]` counts 3, not its six pips), so a sentence names tiles
through a `Namer` its game's home gives; without one a tile is its face, "[6:3]".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.engine import Event
from games.tiles import TileSet
from words.i18n import tr


def tile_text(tiles: TileSet, tile: int) -> str:
    """"6:4", the short form buttons and alerts use."""
    return tiles.kind(tile).label.strip("[]")


Namer = Callable[[Sequence[int]], str]
"""Tiles shown together (one tile, or a play of several) in the words of their game."""


def faces_of(tiles: TileSet) -> Namer:
    """"[6:3]", "[6:2] [5:3]": tiles by their faces alone, the name every game agrees on."""
    return lambda shown: " ".join(tiles.label(t) for t in shown)


def pairs_text(tiles: TileSet, pairs: Sequence[int]) -> str:
    """"[3:3][4:4] [6:0][5:1]": tiles two by two, each pair written as one word."""
    return " ".join(tiles.label(pairs[i]) + tiles.label(pairs[i + 1])
                    for i in range(0, len(pairs) - 1, 2))


Said = Callable[[Event, TileSet, str, Namer], str]


def _named(key: str) -> Said:
    """A move that names its one tile (or its tiles, when several are shown at once)."""
    def words(event: Event, tiles: TileSet, lang: str, named: Namer) -> str:
        return tr(lang, key, tile=named(event.tiles) if event.tiles else "")
    return words


def _counted(key: str) -> Said:
    return lambda event, tiles, lang, named: tr(lang, key, event.value or 0)


def _plain(key: str) -> Said:
    return lambda event, tiles, lang, named: tr(lang, key)


def _draw(event: Event, tiles: TileSet, lang: str, named: Namer) -> str:
    """A draw counts its tiles where the game says how many (ДОМІНО draws until one fits);
    a collecting game's single hidden draw says only that it happened."""
    if event.value is None:
        return tr(lang, "move.draw_hidden")
    return tr(lang, "move.draw", event.value)


def _take(event: Event, tiles: TileSet, lang: str, named: Namer) -> str:
    """Kap takes one tile into the hand; Three Dozen takes one to lay it out with its partner."""
    tile = named(event.tiles[:1])
    if len(event.tiles) == 1:
        return tr(lang, "move.take", tile=tile)
    return tr(lang, "move.take_pair", tile=tile, pair=pairs_text(tiles, event.tiles))


def _meld(event: Event, tiles: TileSet, lang: str, named: Namer) -> str:
    return tr(lang, "move.meld", len(event.tiles) // 2, tiles=pairs_text(tiles, event.tiles))


SAID: dict[str, Said] = {
    "lead": _named("move.lead"),
    "play": _named("move.play"),
    "drop": _named("move.drop"),
    "pass": _named("move.pass"),
    "beat": _named("move.beat"),
    "discard": _named("move.discard"),
    "draw": _draw,
    "fold": _counted("move.fold"),
    "trick": _counted("move.trick"),
    "reshuffle": _counted("move.reshuffle"),
    "take": _take,
    "meld": _meld,
    "win": _plain("move.win"),
    "void": _plain("move.void"),
}
"""Event kind -> its words; a kind missing here is shown as its bare name."""


def describe(event: Event, names: Sequence[str], tiles: TileSet, lang: str,
             on: int | None = None, named: Namer | None = None) -> str:
    """`on` is the open number a play at one of two open ends went to: the picture marks each
    end with its number (a wrapped line has no left and right), so the words name it so, and
    only when there was a choice; `named` says tiles in their game's words (their faces when
    not given)."""
    named = named or faces_of(tiles)
    if event.kind == "end":
        # Said once for the table, whoever the game names as the deal's winner.
        return tr(lang, "move.end")
    who = names[event.seat] if event.seat is not None and event.seat < len(names) else ""
    if event.kind == "play" and on is not None:
        text = tr(lang, "move.play_on", tile=named(event.tiles), end=on)
    elif event.kind in SAID:
        text = SAID[event.kind](event, tiles, lang, named)
    else:
        text = event.kind
    return f"{who}: {text}" if who else text
