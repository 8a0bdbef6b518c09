"""Moves in words."""

from __future__ import annotations

from faces.moves import describe, faces_of
from faces.trick.names import play_words, tile_words
from games.engine import Event
from games.tiles import CHINESE, WESTERN


def tien_gow(lang):
    """Tien Gow's words for tiles, as its home gives them to `describe`."""
    return lambda tiles: play_words(tiles, lang)


def test_moves_in_words():
    names = ("Олена", "Bob")
    nine = CHINESE.one("63")
    assert tile_words(nine, "uk") == "[6:3] Дев'ятка"
    assert faces_of(WESTERN)((WESTERN.one("63"),)) == "[6:3]"
    # A line game names a Chinese tile by its face: the rank names are Tien Gow's.
    assert describe(Event("play", 1, (nine,), 0), names, CHINESE, "en", on=3) == \
        "Bob: played [6:3] on the 3 end"
    assert describe(Event("play", 1, (nine,), 0), names, CHINESE, "uk", on=6) == \
        "Bob: [6:3] до кінця 6"
    assert describe(Event("play", 0, (nine,), 0), names, CHINESE, "uk") == "Олена: [6:3]"
    assert describe(Event("drop", 0), names, CHINESE, "uk") == "Олена: кладе плитку лицем донизу"
    assert describe(Event("draw", 1, (), 3), names, WESTERN, "uk") == \
        "Bob: бере з базару 3 плитки"
    assert describe(Event("draw", 1, (), 1), names, WESTERN, "en") == "Bob: drew 1 tile"
    assert describe(Event("end"), names, WESTERN, "en") == "The deal is over"


def test_tien_gow_moves_in_words():
    names = ("Олена", "Bob")
    pair = (CHINESE.one("62"), CHINESE.one("53"))
    assert describe(Event("lead", 1, pair, 2), names, CHINESE, "en", named=tien_gow("en")) == \
        "Bob: led [6:2] [5:3] pair of Eights"
    assert describe(Event("beat", 0, (CHINESE.one("66"),), 1), names, CHINESE, "uk",
                    named=tien_gow("uk")) == "Олена: б'є: [6:6] Небо"
    # A face-down follow names no tile, only how many.
    assert describe(Event("fold", 1, (), 3), names, CHINESE, "en") == \
        "Bob: laid 3 tiles face down"
    assert describe(Event("fold", 0, (), 5), names, CHINESE, "uk") == \
        "Олена: кладе 5 плиток лицем донизу"
    assert describe(Event("trick", 0, (), 2), names, CHINESE, "uk") == "Олена: бере взятку (+2)"
