"""A game's title and a preset's name in the reader's language.

A game's title is its home's catalogue key `game.<id>` (`faces/line/en.py`, `uk.py`…): the rules
core knows a game by its id alone. Preset ids (`one-arm`, `culin`, `forced-pickup`) are what
`/newgame` takes and stay as they are in commands; what a table or a picture shows is the preset's
name from the catalogue (`preset.<id>`), so a Ukrainian board reads "· один рукав", not "· one-arm".
The presets themselves are the rules core's (`Rules.presets`, docs/rules-book.md §2 per game).
"""

from __future__ import annotations

from games import get
from words.catalogue import CATALOGUE
from words.i18n import tr


def preset_name(preset: str, lang: str) -> str:
    """The preset's name in `lang`; an id the catalogue does not know is shown as it is."""
    key = f"preset.{preset}"
    return tr(lang, key) if key in CATALOGUE["en"] else preset


def game_title(game: str, preset: str | None, lang: str) -> str:
    """"Dragon · one arm": the title of `game` (an id or any alias) in `lang` (English where
    the catalogue has no such language), then the preset's name when one was chosen. Every
    title a person sees comes from here."""
    name = tr(lang, f"game.{get(game).id}")
    return f"{name} · {preset_name(preset, lang)}" if preset else name
