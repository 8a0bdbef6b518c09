"""A preset's name in the reader's language, and a game's title with it.

Preset ids (`one-arm`, `culin`, `forced-pickup`) are what `/newgame` takes and stay as they
are in commands; what a table or a picture shows is the preset's name from the catalogue
(`preset.<id>`), so a Ukrainian board reads "· один рукав", not "· one-arm". The presets
themselves are the rules core's (`Rules.presets`, RULES.md §2 per game).
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
    """"Dragon · one arm": the game's title in `lang` (English where it has none), then the
    preset's name when one was chosen."""
    titles = get(game).title
    name = titles.get(lang) or titles["en"]
    return f"{name} · {preset_name(preset, lang)}" if preset else name
