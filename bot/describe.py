"""A move in words, for the table's footer and the chat log, in Ukrainian and English.

Events carry only public facts (RULES.md §2.1: a face-down discard is never named), so the words
can be shown to everyone. Sentences are built as "Name: what happened" so that Ukrainian needs
no gendered verb forms; counts use the three Ukrainian plural forms.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import Event
from games.tiles import TileSet


def plural_uk(n: int, one: str, few: str, many: str) -> str:
    """1 плитка, 2 плитки, 5 плиток, 21 плитка, 11 плиток."""
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def tile_name(tiles: TileSet, tile: int, lang: str) -> str:
    """"[6:3]", followed by the Chinese tile's own name when it has one."""
    kind = tiles.kind(tile)
    name = kind.uk if lang == "uk" else kind.en
    return f"{kind.label} {name}" if name and name != kind.label else kind.label


def describe(event: Event, names: Sequence[str], tiles: TileSet, lang: str, ends: int = 1
             ) -> str:
    """`ends` is how many open ends the line has, so "left"/"right" is said only when it helps."""
    uk = lang == "uk"
    who = names[event.seat] if event.seat is not None and event.seat < len(names) else ""
    tile = tile_name(tiles, event.tiles[0], lang) if event.tiles else ""
    if event.kind == "lead":
        text = f"перша плитка {tile}" if uk else f"led {tile}"
    elif event.kind == "play":
        side = ""
        if ends == 2:
            side = (" ліворуч" if event.value == 0 else " праворуч") if uk else (
                " on the left" if event.value == 0 else " on the right")
        text = f"{tile}{side}" if uk else f"played {tile}{side}"
    elif event.kind == "drop":
        text = "кладе плитку лицем донизу" if uk else "laid a tile face down"
    elif event.kind == "draw":
        n = event.value or 0
        text = (f"бере з базару {n} {plural_uk(n, 'плитку', 'плитки', 'плиток')}" if uk
                else f"drew {n} tile{'s' if n != 1 else ''}")
    elif event.kind == "pass":
        text = "пас" if uk else "passed"
    elif event.kind == "end":
        return "Роздачу закінчено" if uk else "The deal is over"
    else:
        text = event.kind
    return f"{who}: {text}" if who else text
