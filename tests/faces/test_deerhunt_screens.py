"""What Deer Hunt's home shows (docs/rules-book.md §2.12): who plays with whom and each team's red
pips, on the caption, the terminal's board, the picture and the hand; the red pips of each tile on
its button and of each trick taken in the footer and the picture's record; an escaped deer."""

from __future__ import annotations

import pytest

from faces import home
from faces.trick import deer_board
from rendering import Frame
from rendering.theme import theme
from tests.games.test_deerhunt import DH_02, R, deal, lay, play_dh_02
from words.i18n import tr

NAMES = ("Ann", "Bob", "Carl", "Dana")
HOME = home("deerhunt")


def colours_of(image) -> set:
    return {colour for _, colour in image.getcolors(1 << 24)}


def frame(lang: str = "en", look: str = "dark") -> Frame:
    return Frame(title="Deer Hunt", names=NAMES, lang=lang, theme=look)


@pytest.mark.parametrize("lang", ["en", "uk"])
def test_the_caption_and_the_terminal_name_both_teams_with_their_red_pips(lang):
    state = lay(deal(*DH_02), "66", "32", "22", "22", "64", "65", "66", "62")
    view = R.view(state, None)
    assert state.red == (16, 0)
    score = HOME.caption(view, NAMES, 1, lang)[0]
    for words in ("Ann & Carl", "Bob & Dana", tr(lang, "team.0"), tr(lang, "team.1"), "16"):
        assert words in score
    board = "\n".join(HOME.text_board(view, NAMES, lang, 0, 1))
    assert tr(lang, "console.dh_score", 16, team=tr(lang, "team.name", team=tr(lang, "team.0")),
              names="Ann & Carl")[1:] in board
    assert tr(lang, "img.dh_took", v=10) in board  # Carl took the second trick, 10 red pips


def test_a_button_names_its_tile_and_red_pips_and_the_footer_the_trick():
    state = deal(*DH_02)
    view = R.view(state, 0)
    letters = {t: "ABCDEFGH"[i] for i, t in enumerate(view.hand)}
    labels = [HOME.label(a, letters, view, "en") for a in view.legal]
    assert labels[:3] == ["A 6:6 · 6 red", "B 6:4 · 4 red", "C 6:1 · 1 red"]
    assert "E 5:2" in labels
    before = lay(state, "66", "32", "22")
    moved, events = R.apply(before, next(a for a in R.legal_actions(before)
                                          if R.encode(before, a) == "play.22b"))
    said = HOME.footer(events, R.view(moved, None), NAMES, "en")
    assert said == "Dana: played [2:2] · Ann: takes the trick: 6 red pips for team A"


def test_an_escaped_deer_is_said_and_drawn_as_nobodys():
    state = deal("66 33", "64 22", "41 55", "11 65", dealer=1, deer_escaped=True)
    before = lay(state, "64", "41", "11")
    moved, events = R.apply(before, next(a for a in R.legal_actions(before)
                                          if R.encode(before, a) == "play.66a"))
    view = R.view(moved, None)
    assert HOME.footer(events, view, NAMES, "en").endswith(
        "The deer escaped: 17 red pips go to nobody; Ann leads")
    assert deer_board.felt_line(view, frame()) == tr("en", "img.dh_escaped", 17, name="Ann")


@pytest.mark.parametrize("look", ["dark", "ivory"])
def test_the_picture_marks_each_seat_with_its_team(look):
    state = lay(deal(*DH_02), "66", "32")
    view = R.view(state, None)
    seats = deer_board.deer_seats(view, frame(look=look))
    assert [s.team for s in seats] == [0, 1, 0, 1]
    assert seats[0].badge == tr("en", "img.dh_dealer")
    assert deer_board.felt_line(view, frame()) == tr("en", "img.dh_holds", 6, name="Ann",
                                                     team="team A")
    image = HOME.board(view, frame(look=look))
    colours = colours_of(image)
    assert set(theme(look).teams) <= colours


def test_the_hand_says_whom_its_holder_plays_with():
    state = deal(*DH_02)
    image = HOME.hand(R.view(state, 1), frame())
    band = {image.getpixel((x, y)) for x in range(image.width) for y in range(8, 48)}
    assert theme("dark").teams[1] in band


def test_the_result_names_the_red_pips_and_marks_the_teams():
    view = R.view(play_dh_02(), None)
    assert HOME.points_column("en") == "red pips"
    card = HOME.result(view, frame())
    assert set(theme("dark").teams) <= colours_of(card)
