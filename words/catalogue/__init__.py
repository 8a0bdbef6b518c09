"""The catalogue: one entry per key in each language (see `words/i18n.py`), a module per language.

Ukrainian sentences are written so that no verb has to agree with a player's gender ("Олена:
пас", "Хід: Олена"), and every count uses the three plural forms. A new game adds its keys
(title, rules, captions, hints) to every language; `tests/words/test_i18n.py` finds a key one
language lacks.
"""

from __future__ import annotations

from words.catalogue import en_tables, en_terminal, en_web, uk_tables, uk_terminal, uk_web
from words.catalogue.en import EN
from words.catalogue.types import Entry
from words.catalogue.uk import UK

_PARTS = {"en": (EN, en_terminal.TERMINAL, en_tables.TABLES, en_web.WEB),
          "uk": (UK, uk_terminal.TERMINAL, uk_tables.TABLES, uk_web.WEB)}
CATALOGUE: dict[str, dict[str, Entry]] = {
    lang: {k: v for part in parts for k, v in part.items()} for lang, parts in _PARTS.items()}
"""Each language's sentences; the terminal's own (`gupai play`), those of chips, tables and
their hosts, and the web table's are kept in modules of their own per language."""
assert all(len(CATALOGUE[lang]) == sum(map(len, parts)) for lang, parts in _PARTS.items()), \
    "a key is in two parts of one language"

__all__ = ["CATALOGUE", "Entry"]
