"""Moves in words."""

from __future__ import annotations

from bot.describe import describe, tile_name
from games.engine import Event
from games.tiles import CHINESE, WESTERN


def test_moves_in_words():
    names = ("Олена", "Bob")
    nine = CHINESE.one("63")
    assert tile_name(CHINESE, nine, "uk") == "[6:3] Дев'ятка"
    assert tile_name(WESTERN, WESTERN.one("63"), "en") == "[6:3]"
    assert describe(Event("play", 1, (nine,), 0), names, CHINESE, "en", ends=2) == \
        "Bob: played [6:3] Nine on the left"
    assert describe(Event("play", 0, (nine,), 0), names, CHINESE, "uk") == "Олена: [6:3] Дев'ятка"
    assert describe(Event("drop", 0), names, CHINESE, "uk") == "Олена: кладе плитку лицем донизу"
    assert describe(Event("draw", 1, (), 3), names, WESTERN, "uk") == \
        "Bob: бере з базару 3 плитки"
    assert describe(Event("draw", 1, (), 1), names, WESTERN, "en") == "Bob: drew 1 tile"
    assert describe(Event("end"), names, WESTERN, "en") == "The deal is over"
