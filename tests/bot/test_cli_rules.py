"""`gupai rules`: the games listed with no game, a game's rules in either language, and a clear
answer for a game nobody knows."""

from __future__ import annotations

import pytest

import games
from bot.cli import main
from faces import rules_text


def test_no_game_lists_every_game(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    listed = [line.split()[0] for line in out.splitlines() if line and not line.startswith("`")]
    assert listed == list(games.GAMES)


def test_the_list_speaks_ukrainian_when_asked(capsys):
    assert main(["rules", "--lang", "uk"]) == 0
    assert "Бій биків" in capsys.readouterr().out


@pytest.mark.parametrize("lang", ["en", "uk"])
def test_a_game_prints_its_rules(capsys, lang):
    assert main(["rules", "dingniu", "--lang", lang]) == 0
    assert capsys.readouterr().out == rules_text("dingniu", lang) + "\n"


def test_english_is_the_default_and_an_alias_works(capsys):
    alias = next(a for a in games.get("tiengow").aliases if a != "tiengow")
    assert main(["rules", alias]) == 0
    assert capsys.readouterr().out == rules_text("tiengow", "en") + "\n"


def test_an_unknown_game_is_answered_not_raised(capsys):
    assert main(["rules", "chess"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "unknown game 'chess'" in captured.err
    assert "dingniu" in captured.err


def test_the_command_offers_the_languages_the_rules_are_written_in():
    # Named twice so that the command line starts without loading the faces: the two must agree.
    from bot.commandline import cli_rules
    from faces import rules_docs

    assert cli_rules.LANGS == rules_docs.LANGS
