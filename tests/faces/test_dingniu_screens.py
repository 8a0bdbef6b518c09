"""What Ding Niu's home shows of its block (docs/rules-book.md §2.11.3, D-20…D-22): who made it, on
the table's caption, the terminal's board and the picture's seat box; the hint and the refusals
after a full block; the result labels."""

from __future__ import annotations

from typing import Any

import pytest

from faces import home
from faces.home import Typed
from faces.line import dingniu as dn_home
from rendering import Frame
from tests.games.test_dingniu import DN03, R, deal, drop_any, move
from words.i18n import tr

NAMES = ("Olena", "Bob", "Kim", "Sasha")
HOME = home("dingniu")


def blocked() -> Any:
    return move(move(deal(*DN03), "64"), "64", 0)


@pytest.mark.parametrize("lang", ["en", "uk"])
def test_the_caption_and_the_text_board_name_the_maker_of_the_suanzhang(lang: str) -> None:
    view = R.view(blocked(), None)
    said = tr(lang, "dn.full", name="Bob")
    assert HOME.caption(view, NAMES, 1, lang) == [said]
    assert said in HOME.text_board(view, NAMES, lang, None, 1)
    before = R.view(move(deal(*DN03), "64"), None)
    assert HOME.caption(before, NAMES, 1, lang) == []


def test_the_picture_marks_the_seat_that_blocked(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[dict[int, str]] = []

    def board(view: Any, frame: Frame, badges: dict[int, str] | None = None) -> Any:
        seen.append(badges or {})
        return None

    monkeypatch.setattr(dn_home, "connecting_board", board)
    frame = Frame(title="Ding Niu", names=NAMES, lang="en")
    HOME.board(R.view(blocked(), None), frame)
    HOME.board(R.view(move(deal(*DN03), "64"), None), frame)
    assert seen == [{1: tr("en", "img.dn_block")}, {}]


def test_after_a_full_block_only_doubles_are_played_and_the_table_says_so() -> None:
    view = R.view(blocked(), 2)
    assert HOME.hint(view, "en") == tr("en", "hint.dn_doubles")
    six_five = next(t for t in view.hand if view.tiles.label(t) == "[6:5]")
    assert HOME.teacher.refusal(view, Typed((six_five,)), "en") == tr(
        "en", "refuse.dn_doubles", tile="6:5")


def test_a_lead_nobody_else_could_answer_is_refused_in_words() -> None:
    hands = ("44 44 64 64 11 22", "66 66 65 65 61 61", "55 55 51 51 31 31", "63 62 33 33 22 11")
    view = R.view(deal(*hands, lead_rule=True), 0)
    fours = view.hand[0]
    assert view.tiles.label(fours) == "[4:4]"
    assert HOME.teacher.refusal(view, Typed((fours,)), "en") == tr(
        "en", "refuse.dn_lead", tile="4:4")


def test_the_result_labels_the_suanzhang() -> None:
    state = drop_any(drop_any(move(blocked(), "44", 0)))
    state = move(state, "44", 0)
    result = R.view(state, None).outcome
    assert result is not None
    assert [tr("en", f"label.{label}") for label in result.labels] == [
        "", tr("en", "label.suanzhang"), "", ""]
