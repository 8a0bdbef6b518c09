"""The catalogue: one entry per key in each language (see `words/i18n.py`), a module per language.

Ukrainian sentences are written so that no verb has to agree with a player's gender ("Олена:
пас", "Хід: Олена"), and every count uses the three plural forms. What several games share (the
lobby, chips, the terminal's prompts, the tiles' names) is kept here; a home in `faces/` keeps
its own games' keys (hints, lessons, captions, picture labels) and adds them with `add` when it
is imported, since the homes sit above this package. `tests/words/test_i18n.py` finds a key one
language lacks, in the catalogue as the homes complete it.
"""

from __future__ import annotations

from collections.abc import Mapping

from words.catalogue import (
    en_replay,
    en_seasons,
    en_tables,
    en_terminal,
    en_web,
    uk_replay,
    uk_seasons,
    uk_tables,
    uk_terminal,
    uk_web,
)
from words.catalogue.en import EN
from words.catalogue.types import Entry
from words.catalogue.uk import UK

_PARTS = {"en": (EN, en_terminal.TERMINAL, en_tables.TABLES, en_web.WEB, en_replay.REPLAY,
                 en_seasons.SEASONS),
          "uk": (UK, uk_terminal.TERMINAL, uk_tables.TABLES, uk_web.WEB, uk_replay.REPLAY,
                 uk_seasons.SEASONS)}
CATALOGUE: dict[str, dict[str, Entry]] = {
    lang: {k: v for part in parts for k, v in part.items()} for lang, parts in _PARTS.items()}
"""Each language's sentences; the terminal's own (`gupai play`), those of chips, tables and
their hosts, the web table's, a replayed deal's and the seasons' are kept in modules of their own
per language."""
assert all(len(CATALOGUE[lang]) == sum(map(len, parts)) for lang, parts in _PARTS.items()), \
    "a key is in two parts of one language"


def add(part: Mapping[str, Mapping[str, Entry]]) -> None:
    """A home's own keys, in every language: refused whole when a language is missing or a key
    is already the catalogue's, so two homes never quietly say one key differently."""
    if set(part) != set(CATALOGUE):
        raise ValueError(f"a home's keys come in {sorted(CATALOGUE)}, not {sorted(part)}")
    for lang, entries in part.items():
        if taken := CATALOGUE[lang].keys() & entries.keys():
            raise ValueError(f"keys the catalogue already has: {sorted(taken)}")
    for lang, entries in part.items():
        CATALOGUE[lang].update(entries)


__all__ = ["CATALOGUE", "Entry", "add"]
