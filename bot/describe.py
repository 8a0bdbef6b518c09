"""A move in words, for the table's footer and the chat log, in Ukrainian and English.

Events carry only public facts (RULES.md §2.1 and §2.8: a face-down discard or a face-down
follow is never named), so the words can be shown to everyone. Sentences are built as "Name:
what happened" so that Ukrainian needs no gendered verb forms; the words themselves live in the
catalogue (`bot/catalogue.py`).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import tr
from games.engine import Event
from games.tiles import TileSet


def tile_text(tiles: TileSet, tile: int) -> str:
    """"6:4", the short form buttons and alerts use."""
    return tiles.kind(tile).label.strip("[]")


def tile_name(tiles: TileSet, tile: int, lang: str) -> str:
    """"[6:3]", followed by the Chinese tile's own name when it has one (as the seeds name it)."""
    kind = tiles.kind(tile)
    name = kind.uk if lang == "uk" else kind.en
    return f"{kind.label} {name}" if name and name != kind.label else kind.label


def describe(event: Event, names: Sequence[str], tiles: TileSet, lang: str, ends: int = 1
             ) -> str:
    """`ends` is how many open ends the line has, so "left"/"right" is said only when it helps."""
    who = names[event.seat] if event.seat is not None and event.seat < len(names) else ""
    if len(event.tiles) > 1:
        tile = " ".join(tiles.label(t) for t in event.tiles)
    else:
        tile = tile_name(tiles, event.tiles[0], lang) if event.tiles else ""
    if event.kind == "end":
        return tr(lang, "move.end")
    if event.kind == "play" and ends == 2:
        text = tr(lang, "move.play_left" if event.value == 0 else "move.play_right", tile=tile)
    elif event.kind in ("draw", "fold", "trick"):
        text = tr(lang, f"move.{event.kind}", event.value or 0)
    elif event.kind in ("lead", "play", "drop", "pass", "beat"):
        text = tr(lang, f"move.{event.kind}", tile=tile)
    else:
        text = event.kind
    return f"{who}: {text}" if who else text
