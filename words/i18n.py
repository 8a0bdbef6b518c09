"""Every user-facing sentence, in Ukrainian and English (docs/architecture.md §8).

A chat's language is chosen per chat (`/lang` in the group), by default from the client language
of whoever started the chat's first game; it is the language of what the chat sees. What one
person alone sees (their hand, notes, answers to their presses) is in their own: the one they
chose with `/lang` in the private chat, else their client's (`bot.session.requests` decides which).

An entry is either one string or, where a number is counted, its plural forms: three for
Ukrainian (1 фішка, 2 фішки, 5 фішок), two for English. Placeholders are `str.format` fields;
`tests/words/test_i18n.py` fails when a key, a form or a placeholder is missing in either language.
"""

from __future__ import annotations

from words.catalogue import CATALOGUE, Entry

LANGS = ("uk", "en")
DEFAULT_LANG = "uk"


def lang_of(code: str | None) -> str:
    """A client language code ("uk", "en-GB", None) as one of ours; Ukrainian by default."""
    if code and code.split("-")[0].lower() in LANGS:
        return code.split("-")[0].lower()
    return DEFAULT_LANG if not code else "en"


def plural_index(lang: str, n: int) -> int:
    """Which plural form: Ukrainian 1 / 2–4 / 5–20 (21 is like 1, 11–14 like 5); English 1 / n."""
    if lang == "uk":
        if n % 10 == 1 and n % 100 != 11:
            return 0
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return 1
        return 2
    return 0 if n == 1 else 1


def tr(lang: str, key: str, n: int | None = None, /, **fields: object) -> str:
    table = CATALOGUE.get(lang) or CATALOGUE["en"]
    entry: Entry = table[key]
    if isinstance(entry, tuple):
        if n is None:
            raise ValueError(f"{key} is counted: give n")
        entry = entry[min(plural_index(lang, abs(n)), len(entry) - 1)]
    return entry.format(n=n, **fields)


def signed(n: int) -> str:
    """Chip changes with an explicit sign and a real minus (−5, +3, 0)."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def minus(n: int) -> str:
    """A score with the real minus the pictures print, so text and picture read alike."""
    return f"−{-n}" if n < 0 else str(n)
