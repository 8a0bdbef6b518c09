"""A long name is shortened before any note that explains a move or a score (docs/architecture.md
§7).

Each test draws the real picture with long names (thirty characters of Latin or Cyrillic, and
the gallery's sixty-four) at the size the bot sends it, records every line of text drawn, and
checks the line that carries the note: drawn in full, the name shortened with "…" where the
line has no room for all of it.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from PIL import ImageDraw

import faces
import games
from bot.commandline.gallery import SAMPLE_NAMES
from faces import pictures
from faces.collect import board as collecting
from faces.samples import Step
from faces.trick import board as tricks
from faces.trick.names import trick_names
from rendering import Frame, cards, sprites
from rendering.canvas import BOARD_WIDTH, MAX_SIDE, PAD, TEXT_SIZE, wrap
from rendering.text import font, width
from words.i18n import tr

LATIN = "Bartholomew Montgomery-Smithe"
CYRILLIC = "Олександра Володимирівна Квіт"
LONG_NAMES = [LATIN, CYRILLIC, SAMPLE_NAMES[3]]
"""Thirty characters with a seat number added, and the sixty-four the gallery promises."""
NAME_IDS = ["latin30", "cyrillic30", "gallery64"]
FELT_ROOM = BOARD_WIDTH - 2 * PAD
"""A sentence across the Tien Gow felt."""


def names(stem: str, players: int) -> tuple[str, ...]:
    return tuple(f"{stem}{seat + 1}" for seat in range(players))


def after_name(lang: str, key: str, **values: Any) -> str:
    """What a catalogue line says after its name: the part that must never be cut."""
    return tr(lang, key, name="\x00", **values).split("\x00", 1)[1]


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every line of text the pictures draw, as drawn."""
    seen: list[str] = []
    real = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        seen.append(str(text))
        real(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    yield seen


@cache
def sample(game: str, preset: str, players: int, phase: str) -> Any:
    """The public view of one of the gallery's positions (played once per test process)."""
    rules = games.get(game)
    steps: dict[str, Step] = faces.home(game).samples(
        rules, rules.options(preset), players, f"gallery/{game}/{preset}")
    return rules.view(steps[phase].state, None)


@pytest.mark.parametrize("stem", LONG_NAMES, ids=NAME_IDS)
@pytest.mark.parametrize("phase", ["opening", "middle", "end"])
def test_twenty_long_names_leave_the_felt_its_room(stem: str, phase: str) -> None:
    """Twenty names that each need two lines would push the discards off the picture: the
    names keep to one line, shortened, and the discards stay readable on a phone."""
    view = sample("kaptaishap", "classical", 20, phase)
    frame = Frame(title="Kap Tai Shap", names=names(stem, 20), lang="uk")
    pictures.board(view, frame)  # within the platform's limits, or it raises
    at = collecting.layout(view, frame)
    assert at.height <= MAX_SIDE
    assert min(sprites.tile_size(at.family, at.tile_h)) >= 24, "discards 12 px on a phone"


@pytest.mark.parametrize("lang", ["en", "uk"])
@pytest.mark.parametrize("stem", LONG_NAMES, ids=NAME_IDS)
@pytest.mark.parametrize("preset", ["classical", "culin"])
def test_a_long_name_leaves_may_take_whole(drawn: list[str], lang: str, stem: str,
                                           preset: str) -> None:
    """Who may take the framed discards: the name is what gives way, at twenty seats too."""
    view = sample("kaptaishap", preset, 20, "middle")
    assert view.takeable and view.to_move is not None
    frame = Frame(title="Kap Tai Shap", names=names(stem, 20), lang=lang)
    pictures.board(view, frame)
    label, _ = collecting.take_line(view, frame, "chinese")
    note = after_name(lang, "img.may_take")
    assert label in drawn
    assert label.endswith(note) and len(label) >= len(note) + 12
    assert width(label, font(TEXT_SIZE)) <= collecting.TAKE_ROOM
    whole = tr(lang, "img.may_take", name=frame.names[view.to_move])
    if width(whole, font(TEXT_SIZE)) > collecting.TAKE_ROOM:
        assert label.removesuffix(note).endswith("…")
    else:
        assert label == whole


def test_a_short_name_keeps_may_take_beside_the_facts() -> None:
    view = sample("kaptaishap", "culin", 20, "middle")
    frame = Frame(title="Kap Tai Shap", names=names("Ann", 20))
    assert collecting.take_line(view, frame, "chinese") == (
        f"Ann{view.to_move + 1} may take", False)


@pytest.mark.parametrize("lang", ["en", "uk"])
@pytest.mark.parametrize("stem", LONG_NAMES, ids=NAME_IDS)
@pytest.mark.parametrize("phase", ["taken", "end"])
def test_a_long_name_leaves_the_tricks_credit_whole(drawn: list[str], lang: str, stem: str,
                                                    phase: str) -> None:
    """"taken by … (+2)": the count of tricks the trick was worth stays on the felt."""
    view = sample("tiengow", "modern", 4, phase)
    shown = tricks.shown_trick(view)
    assert shown.finished and shown.holder is not None
    frame = Frame(title="Tien Gow", names=names(stem, 4), lang=lang)
    pictures.board(view, frame)
    line = tricks.felt_line(view, frame)
    note = after_name(lang, "img.taken", v=shown.plays[0].size)
    assert line in drawn
    assert line.endswith(note) and len(line) >= len(note) + 12
    assert width(line, font(TEXT_SIZE)) <= FELT_ROOM
    whole = tr(lang, "img.taken", name=frame.names[shown.plays[shown.holder].seat],
               v=shown.plays[0].size)
    if width(whole, font(TEXT_SIZE)) > FELT_ROOM:
        assert line.removesuffix(note).endswith("…")
    else:
        assert line == whole


@pytest.mark.parametrize("lang", ["en", "uk"])
@pytest.mark.parametrize("stem", LONG_NAMES, ids=NAME_IDS)
@pytest.mark.parametrize("phase", ["taken", "trick", "end"])
def test_long_names_leave_the_plays_named_under_the_trick(drawn: list[str], lang: str,
                                                          stem: str, phase: str) -> None:
    """"… led pair of Eights · … took it with Heaven": the plays' names stay whole within
    the felt's two lines; the names give way."""
    view = sample("tiengow", "modern", 4, phase)
    frame = Frame(title="Tien Gow", names=names(stem, 4), lang=lang)
    pictures.board(view, frame)
    said = trick_names(tricks.shown_trick(view).plays, lang, view.options.mixed)
    assert said is not None
    room = FELT_ROOM
    lines = wrap(tricks.names_line(view, frame), font(TEXT_SIZE), (room, room), 2)
    assert len(lines) <= 2 and all(line in drawn for line in lines)
    assert all(width(line, font(TEXT_SIZE)) <= room for line in lines)
    told = " ".join(lines)
    assert said.led in told and said.best in told
    assert not told.endswith("…")


NOTES = ("clean", "discard", "penalized", "stock", "deal")
"""The notes a result card gives a seat (catalogue keys `label.*`)."""


@pytest.mark.parametrize("lang", ["en", "uk"])
@pytest.mark.parametrize("stem", LONG_NAMES, ids=NAME_IDS)
@pytest.mark.parametrize(("game", "preset", "players"), [
    ("cedeng", "classic", 4), ("kapten", "culin", 2), ("kaptaishap", "classical", 20),
    ("tiengow", "modern", 4)])
def test_a_long_name_leaves_the_results_note_whole(drawn: list[str], lang: str, stem: str,
                                                   game: str, preset: str,
                                                   players: int) -> None:
    """"· clean" says why a +68 is a +68: on the result card the note follows the name whole,
    the name (on two lines at most) is what gives way."""
    view = sample(game, preset, players, "end")
    notes = tuple(tr(lang, f"label.{NOTES[s % len(NOTES)]}")
                  for s in range(players))
    frame = Frame(title="Result", names=names(stem, players), lang=lang, notes=notes)
    pictures.result(view, frame)
    for note in set(notes):
        ends = [t for t in drawn if t == note or t.endswith(f" · {note}")]
        assert len(ends) >= notes.count(note), note
    assert view.outcome is not None
    for s in range(players):
        won = s in view.outcome.winners
        size, lines = cards.name_lines(("★ " if won else "") + frame.names[s], notes[s],
                                       cards.NAME_ROOM, won)
        assert 1 <= len(lines) <= 2 and all(line in drawn for line in lines)
        assert lines[-1] == notes[s] or lines[-1].endswith(f" · {notes[s]}")
        assert all(width(line, font(size, won)) <= cards.NAME_ROOM for line in lines)
        assert lines[0].removeprefix("★ ")[:10] == frame.names[s][:10]
