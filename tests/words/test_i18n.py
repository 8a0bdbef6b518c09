"""The catalogue: both languages complete and consistent, plurals right, every key in use known."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from words.catalogue import CATALOGUE
from words.i18n import LANGS, lang_of, minus, plural_index, signed, tr

FORMS = {"uk": 3, "en": 2}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_both_languages_have_the_same_keys():
    uk, en = set(CATALOGUE["uk"]), set(CATALOGUE["en"])
    assert uk - en == set(), f"missing in English: {sorted(uk - en)}"
    assert en - uk == set(), f"missing in Ukrainian: {sorted(en - uk)}"


@pytest.mark.parametrize("key", sorted(CATALOGUE["en"]))
def test_entries_agree_in_shape_and_placeholders(key):
    entries = {lang: CATALOGUE[lang][key] for lang in LANGS}
    counted = {lang: isinstance(e, tuple) for lang, e in entries.items()}
    assert len(set(counted.values())) == 1, f"{key}: counted in one language only"
    placeholders = set()
    for lang, entry in entries.items():
        forms = entry if isinstance(entry, tuple) else (entry,)
        if isinstance(entry, tuple):
            assert len(forms) == FORMS[lang], f"{key}: {lang} needs {FORMS[lang]} plural forms"
        found = {frozenset(fields(f)) for f in forms}
        assert len(found) == 1, f"{key}: the {lang} forms use different placeholders"
        placeholders.add(found.pop())
    assert len(placeholders) == 1, f"{key}: placeholders differ between languages"


def used_keys() -> set[str]:
    """Every literal key passed to `tr` anywhere in the bot's code, and every key a refusal
    names (`Refusal("host.rights")`: translated when it is answered)."""
    keys: set[str] = set()
    for path in Path("bot").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", "")
            if name == "tr" and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
                keys.add(node.args[1].value)
            elif name == "Refusal" and node.args and isinstance(node.args[0], ast.Constant):
                keys.add(node.args[0].value)
    return keys


def test_every_key_the_code_uses_exists():
    missing = used_keys() - set(CATALOGUE["en"])
    assert not missing, f"keys used but not in the catalogue: {sorted(missing)}"
    assert len(used_keys()) > 50


def test_keys_made_from_game_data_exist():
    """Keys built at run time: outcome reasons, per-seat labels, move verbs, commands."""
    for key in ("reason.out", "reason.blocked", "reason.eight-doubles", "reason.domino",
                "label.clean", "label.penalized", "label.normal", "move.lead", "move.play",
                "move.drop", "move.pass", "btn.draw", "btn.pass"):
        assert key in CATALOGUE["en"], key
    from bot.adapter import CHAT_COMMANDS, GAME_COMMANDS
    for name in (*GAME_COMMANDS, *CHAT_COMMANDS):
        assert f"command.{name}" in CATALOGUE["en"]


@pytest.mark.parametrize(("n", "form"), [
    (0, 2), (1, 0), (2, 1), (4, 1), (5, 2), (11, 2), (12, 2), (14, 2), (21, 0), (22, 1),
    (25, 2), (101, 0), (111, 2), (1000, 2),
])
def test_ukrainian_plural_forms(n, form):
    assert plural_index("uk", n) == form


def test_plurals_in_sentences():
    assert tr("uk", "chips.balance", 1, name="Олена") == "Олена: 1 фішка"
    assert tr("uk", "chips.balance", 3, name="Олена") == "Олена: 3 фішки"
    assert tr("uk", "chips.balance", 11, name="Олена") == "Олена: 11 фішок"
    assert tr("uk", "chips.balance", 21, name="Олена") == "Олена: 21 фішка"
    assert tr("en", "chips.balance", 1, name="Bob") == "Bob: 1 chip"
    assert tr("en", "chips.balance", 0, name="Bob") == "Bob: 0 chips"
    assert tr("uk", "move.draw", 5) == "бере з базару 5 плиток"


def test_a_counted_entry_needs_a_number():
    with pytest.raises(ValueError):
        tr("en", "chips.balance", name="Bob")


def test_client_languages():
    assert lang_of("uk") == "uk"
    assert lang_of("en-GB") == "en"
    assert lang_of("de") == "en"
    assert lang_of(None) == "uk"
    assert signed(-5) == "−5" and signed(3) == "+3" and signed(0) == "0"
    assert minus(-5) == "−5" and minus(3) == "3" and minus(0) == "0"


def test_no_stray_braces():
    for lang in LANGS:
        for key, entry in CATALOGUE[lang].items():
            for form in entry if isinstance(entry, tuple) else (entry,):
                assert not re.search(r"\{[^a-z_}]", form), f"{lang} {key}"
