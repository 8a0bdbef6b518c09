"""The catalogue: one entry per key in each language (see `bot/i18n.py`), a module per language.

Ukrainian sentences are written so that no verb has to agree with a player's gender ("Олена:
пас", "Хід: Олена"), and every count uses the three plural forms. A new game adds its keys
(title, rules, captions, hints) to every language; `tests/bot/test_i18n.py` finds a key one
language lacks.
"""

from __future__ import annotations

from bot.catalogue import en_terminal, uk_terminal
from bot.catalogue.en import EN
from bot.catalogue.types import Entry
from bot.catalogue.uk import UK

CATALOGUE: dict[str, dict[str, Entry]] = {"en": EN | en_terminal.TERMINAL,
                                          "uk": UK | uk_terminal.TERMINAL}
"""Each language's sentences; the terminal's own (`gupai play`) are kept in a module of their
own per language."""
assert not (EN.keys() & en_terminal.TERMINAL.keys() or UK.keys() & uk_terminal.TERMINAL.keys())

__all__ = ["CATALOGUE", "Entry"]
