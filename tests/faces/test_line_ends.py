"""The two open ends of a two-arm Dragon or ДОМІНО line: the picture marks each with its open
number where the line really ends (a line wrapped to a phone-wide picture snakes, so an end can
stand on the left of a leftward row), and the buttons, captions and terminal help name the ends
by the same numbers (docs/architecture.md §7: the picture and the words must agree)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import pytest
from PIL import Image, ImageDraw

import faces
import games
from bot.commandline.gallery import SAMPLE_NAMES
from bot.present.keyboards import letters_of
from faces import home_of
from faces.home import Typed
from faces.line.teach import end_refusal
from faces.moves import tile_text
from faces.samples import sample_deal
from rendering import Frame
from tests.support.screens import taught
from words.catalogue import CATALOGUE
from words.i18n import tr

TWO_ARMS = [("dragon", "two-arm"), ("domino", "100")]
SEEDS = 12


@dataclass
class Drawn:
    """What one board drew: every pasted picture's box, in order, and every round badge's
    centre with the text written at that centre."""

    pasted: list[tuple[int, int, int, int]] = field(default_factory=list)
    badges: list[tuple[float, float, str]] = field(default_factory=list)


def _drawn(monkeypatch: pytest.MonkeyPatch, view: Any) -> Drawn:
    drawn = Drawn()
    circles: list[tuple[float, float]] = []
    texts: list[tuple[float, float, str]] = []
    paste, ellipse, text = Image.Image.paste, ImageDraw.ImageDraw.ellipse, ImageDraw.ImageDraw.text

    def spy_paste(self: Image.Image, im: Any, box: Any = None, *args: Any, **kw: Any) -> None:
        if isinstance(im, Image.Image) and isinstance(box, tuple) and len(box) == 2:
            drawn.pasted.append((box[0], box[1], box[0] + im.width, box[1] + im.height))
        paste(self, im, box, *args, **kw)

    def spy_ellipse(self: ImageDraw.ImageDraw, xy: Any, *args: Any, **kw: Any) -> None:
        x0, y0, x1, y1 = xy
        circles.append(((x0 + x1) / 2, (y0 + y1) / 2))
        ellipse(self, xy, *args, **kw)

    def spy_text(self: ImageDraw.ImageDraw, xy: Any, words: Any, *args: Any, **kw: Any) -> None:
        texts.append((xy[0], xy[1], str(words)))
        text(self, xy, words, *args, **kw)

    monkeypatch.setattr(Image.Image, "paste", spy_paste)
    monkeypatch.setattr(ImageDraw.ImageDraw, "ellipse", spy_ellipse)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy_text)
    try:
        # Drawn as `faces.pictures.board` draws it; its encoding (which draws nothing, and
        # was most of this test's time) is checked in tests/rendering.
        home_of(view).board(view, Frame(title="Test", names=SAMPLE_NAMES[:view.players]))
    finally:
        monkeypatch.undo()
    drawn.badges = [(x, y, words) for x, y, words in texts if (x, y) in circles]
    return drawn


def _centre(box: tuple[int, int, int, int]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _positions(game: str, preset: str) -> list[Any]:
    """Public views of two-arm lines of every length these seeds reach, shortest first."""
    rules = games.get(game)
    views = []
    for k in range(SEEDS):
        for step in sample_deal(rules, rules.options(preset), 2, f"ends/{k}"):
            view = rules.view(step.state, None)
            if len(view.ends) == 2 and len(view.line) >= 2 and view.outcome is None:
                views.append(view)
    return sorted(views, key=lambda v: len(v.line))


def _distance(point: tuple[float, float, str], box: tuple[int, int, int, int]) -> float:
    """How far a badge's centre is from a tile (0 inside it)."""
    x, y, _ = point
    dx = max(box[0] - x, 0, x - box[2])
    dy = max(box[1] - y, 0, y - box[3])
    return math.hypot(dx, dy)


CHECKED = 60
"""About how many lines are drawn, spread over all their lengths."""
NEAR = 48
"""A badge beside a tile has its centre within this many pixels of the tile (a tile is 120
or so long on these pictures: a badge one tile too far is not beside it)."""


@pytest.mark.parametrize(("game", "preset"), TWO_ARMS)
def test_each_open_end_carries_its_number_where_the_line_ends(monkeypatch, game, preset):
    """On a line on one row, and on snaking lines whose last tile is followed leftwards and
    rightwards (the next tile's way, a turn included): the first end's number stands left of
    the first tile, and the last end's number just past the last tile, on no tile and on the
    side away from the tile before it, whatever way its row runs."""
    seen = set()
    positions = _positions(game, preset)
    for view in positions[::max(1, len(positions) // CHECKED)]:
        drawn = _drawn(monkeypatch, view)
        tiles = drawn.pasted[-len(view.line):]
        assert len(drawn.badges) == 2, drawn.badges
        first, last, before = tiles[0], tiles[-1], tiles[-2]
        start = next(b for b in drawn.badges
                     if b[0] < first[0] and first[1] <= b[1] <= first[3]
                     and _distance(b, first) <= NEAR)
        end = next(b for b in drawn.badges if b is not start)
        assert all(_distance(end, tile) > 0 for tile in tiles)
        assert _distance(end, last) <= NEAR < _distance(end, before), (end, last, before)
        # The numbers are the open ends: the first tile's outer face, the last tile's.
        assert (start[2], end[2]) == (str(view.ends[0]), str(view.ends[1]))
        assert start[2] == str(view.line[0][1]) and end[2] == str(view.line[-1][2])
        seen.add((last[1] > first[3], end[0] < last[0]))
    assert (True, True) in seen, "no snaking line ends going leftwards"
    assert seen >= {(True, True), (True, False), (False, False)}, seen


def test_a_one_arm_line_has_no_numbered_badges(monkeypatch):
    """One open end keeps the stop bar and the arrow: its buttons choose no end."""
    rules = games.get("dragon")
    steps = sample_deal(rules, rules.options("one-arm"), 2, "ends")
    view = next(v for v in (rules.view(s.state, None) for s in steps) if len(v.line) > 3)
    assert _drawn(monkeypatch, view).badges == []


def _seat_views(game: str, preset: str) -> list[tuple[Any, Any]]:
    """(the mover's view, the public view) where some tile can go to either of two ends."""
    rules = games.get(game)
    found = []
    for k in range(SEEDS):
        for step in sample_deal(rules, rules.options(preset), 2, f"ends/{k}"):
            state = step.state
            view = rules.view(state, None)
            if len(view.ends) != 2 or view.to_move is None:
                continue
            mine = rules.view(state, view.to_move)
            plays = [a for a in mine.legal if a.verb == "play"]
            if len({a.arg for a in plays}) == 2 and view.ends[0] != view.ends[1]:
                found.append((mine, view, state))
    return found


@pytest.mark.parametrize(("game", "preset"), TWO_ARMS)
@pytest.mark.parametrize("lang", ["en", "uk"])
def test_buttons_and_captions_name_the_ends_by_the_pictures_numbers(monkeypatch, game, preset,
                                                                   lang):
    home = faces.home(game)
    rules = games.get(game)
    mine, public, state = _seat_views(game, preset)[0]
    badges = {b[2] for b in _drawn(monkeypatch, public).badges}
    letters = letters_of(mine)
    for action in (a for a in mine.legal if a.verb == "play"):
        end = public.ends[action.arg]
        assert str(end) in badges
        move = f"{letters[action.tiles[0]]} {tile_text(mine.tiles, action.tiles[0])}"
        label = home.label(action, letters, mine, lang)
        assert label == tr(lang, "btn.on_end", move=move, end=end)
        assert home.end(action, mine) == str(end)
        assert not set(label) & set("◀▶<>")
        # What the move did, said after it with the number its end showed before it.
        after, events = rules.apply(state, action)
        said = home.footer(events, rules.view(after, None), SAMPLE_NAMES, lang)
        tile = rules.tileset(public.options).label(action.tiles[0])
        assert tr(lang, "move.play_on", tile=tile, end=end) in said, said


@pytest.mark.parametrize(("game", "preset"), TWO_ARMS)
@pytest.mark.parametrize("lang", ["en", "uk"])
def test_the_terminal_help_and_refusals_name_the_ends_as_the_picture_does(game, preset, lang):
    mine, _public, _state = _seat_views(game, preset)[0]
    help_lines = faces.home(game).teacher.help(mine, lang)
    said = " ".join(help_lines)
    for word in ("◀", "▶", "left", "right", "лів", "прав", "a<", "a>"):
        assert word not in said, (word, said)
    # The help's example is a button as the buttons write it, and says how to type it.
    example = tr(lang, "btn.on_end", move="A 6:4", end=4)
    assert any(line.startswith(example) and "a4" in line for line in help_lines), help_lines
    # A tile typed for an end it does not fit is refused by that end's number.
    tiles = mine.tiles
    ends = mine.ends
    tile = next(t for t in range(tiles.size)
                if (tiles.a[t] == ends[0]) != (tiles.b[t] == ends[0])
                and ends[1] not in (tiles.a[t], tiles.b[t]))
    why = end_refusal(tiles, ends, Typed((tile,), "", str(ends[1])), lang)
    assert why == tr(lang, "refuse.not_end", tile=tile_text(tiles, tile), end=ends[1])
    missing = next(n for n in range(7) if n not in ends)
    why = end_refusal(tiles, ends, Typed((tile,), "", str(missing)), lang)
    assert str(missing) in why and "left" not in why and "right" not in why


@pytest.mark.parametrize(("game", "preset", "players", "marks", "absent"), [
    ("dragon", "two-arm", 2, ["A 6:4 on 4", "(type a4)", "A 6:4 ↓"],
     ["▲", "⤴", "→", "◀", "▶", "left", "right"]),
    ("cedeng", "classic", 4, ["A 6:4 →4", "A 6:4 ↓"], ["◀", "▲", "⤴", " on 4"]),
    ("domino", "100", 2, ["highest double", "Draw ", "Pass ", "A 6:4 on 4"],
     ["↓", "▲", "⤴", "◀", "▶", "left", "right"]),
])
def test_the_terminal_help_explains_each_line_game_own_moves_and_marks(game, preset, players,
                                                                     marks, absent):
    shown = "\n".join(taught(game, preset, players))
    for mark in marks:
        assert mark in shown, (mark, shown)
    for mark in absent:
        assert mark not in shown, (mark, shown)


def test_no_catalogue_word_calls_a_line_end_left_or_right():
    """Every key about the ends of a line, in both languages."""
    for lang, words in CATALOGUE.items():
        for key, text in words.items():
            if key.startswith(("teach.", "refuse.", "move.play", "btn.on_end")):
                flat = text if isinstance(text, str) else " ".join(text)
                for word in ("left end", "right end", "лівого", "правого", "◀", "▶"):
                    assert word not in flat, (lang, key, flat)


def test_a_tile_that_fits_both_ends_alike_is_one_button() -> None:
    """Both ends show 4: [6:4] fits either, and the two moves read alike ("on 4"), so the
    chat's keyboard and the web table offer one of them, not two buttons no one can tell
    apart."""
    from bot.present.keyboards import moves_keyboard
    from bot.present.screens import Screen
    from bot.web.web_table import hand_json
    from games.tiles import CHINESE
    from storage import Session

    rules = games.get("dragon")
    options = rules.options(None, arms=2)

    def tile(*face: int) -> int:
        return next(t for t in range(CHINESE.size)
                    if sorted((CHINESE.a[t], CHINESE.b[t])) == sorted(face))
    state = rules.deal_from(options, [[tile(4, 4), tile(5, 1)], [tile(6, 4), tile(3, 1)]])
    (lead,) = [a for a in rules.legal_actions(state) if a.tiles == (tile(4, 4),)]
    state, _ = rules.apply(state, lead)
    view = rules.view(state, 1)
    assert sum(1 for a in view.legal if a.tiles == (tile(6, 4),)) == 2
    session = Session(7, 1, "", "dragon", {}, [], 1, None, "active", None, 123456, None)
    for lang in ("en", "uk"):
        buttons = [b for row in moves_keyboard(session, view, lang) for b in row
                   if b.move is not None and b.move.faces == (tile_text(CHINESE, tile(6, 4)),)]
        assert len(buttons) == 1, [b.label for b in buttons]
        hand = hand_json(session, view, Screen("Tiles"), lang, False, "dark", 0.0)
        assert [m["label"] for m in hand["moves"]] == [buttons[0].label]
