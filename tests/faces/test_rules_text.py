"""The `/rules` summaries: both languages for every game, within one message, every preset and
option named as `/newgame` spells it, no markup, and examples that really parse."""

from __future__ import annotations

import dataclasses
import re

import pytest

import games
from faces import HOMES, rules_text
from faces import MAX_RULES_CHARS as MAX_CHARS
from words.catalogue import CATALOGUE

LANGS = ("uk", "en")
RULES_TEXT = {game: {lang: CATALOGUE[lang][f"rules.{game}"] for lang in LANGS
                     if f"rules.{game}" in CATALOGUE[lang]} for game in HOMES}
"""Each game's rules, as its home adds them to the catalogue (`rules.<id>`)."""
CASES = [(g, lang) for g in games.GAMES for lang in LANGS]


def option_names(game: str) -> list[str]:
    return [f.name for f in dataclasses.fields(games.get(game).options_type)]


def test_every_game_has_both_languages():
    assert set(RULES_TEXT) == set(games.GAMES)
    for game in games.GAMES:
        assert set(RULES_TEXT[game]) == set(LANGS)


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_length(game, lang):
    text = RULES_TEXT[game][lang]
    assert text.strip()
    assert len(text) <= MAX_CHARS == 3000


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_every_preset_is_listed(game, lang):
    text = RULES_TEXT[game][lang]
    for preset in games.get(game).presets:
        assert f"\n• {preset}: " in text, preset


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_every_option_and_choice_is_named(game, lang):
    text = RULES_TEXT[game][lang]
    for field in dataclasses.fields(games.get(game).options_type):
        assert f"{field.name}=" in text, field.name
        for choice in field.metadata["choices"]:
            word = ("on" if choice else "off") if isinstance(choice, bool) else str(choice)
            if word != "off":
                assert re.search(rf"\b{re.escape(word)}\b", text), (field.name, word)


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_plain_text(game, lang):
    text = RULES_TEXT[game][lang]
    for char in "<>*`#|":
        assert char not in text, char
    assert "](" not in text
    # Underscores belong only to option names such as clean_bonus.
    rest = text
    for name in sorted(option_names(game), key=len, reverse=True):
        rest = rest.replace(name, "")
    assert "_" not in rest


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_language_is_right(game, lang):
    text = RULES_TEXT[game][lang]
    cyrillic = re.search("[а-яіїєґА-ЯІЇЄҐ]", text)
    assert bool(cyrillic) == (lang == "uk")


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_the_example_command_is_accepted(game, lang):
    text = RULES_TEXT[game][lang]
    (example,) = re.findall(r"/newgame (.+)", text)
    name, *words = example.split()
    assert name == game
    rules = games.get(name)
    preset = next((w for w in words if "=" not in w), None)
    pairs = dict(w.split("=", 1) for w in words if "=" in w)
    rules.parse_options(preset, pairs)  # raises InvalidOptions if the text promised too much


def test_lookup():
    assert rules_text("dragon", "uk") == RULES_TEXT["dragon"]["uk"]
    assert rules_text("tails", "en") == RULES_TEXT["tails"]["en"]
    assert rules_text("cedeng", "de") == RULES_TEXT["cedeng"]["en"]
    assert rules_text("domino", "") == RULES_TEXT["domino"]["en"]
    assert rules_text("domino", "uk-UA") == RULES_TEXT["domino"]["uk"]
    assert rules_text("Дракон", "uk") == RULES_TEXT["dragon"]["uk"]
    assert rules_text("斜釘", "en") == RULES_TEXT["cedeng"]["en"]
    with pytest.raises(KeyError):
        rules_text("chess", "en")
    with pytest.raises(KeyError):
        rules_text("", "uk")
