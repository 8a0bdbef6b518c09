"""Every gallery picture, measured at the width a phone shows it (docs/architecture.md §7).

A phone shows a picture about 400 px wide, so a picture wider than that is scaled down by
400 / width. At that scale every tile's short side must be at least 12 px and every line of
text at least 8 px tall (its font size), and no text a player needs may be cut: only a name
too long for two lines (the gallery's 64-character one) may end in an ellipsis, and then only
after showing a good part of itself on every line. The measures are taken from the drawing
itself (every tile sprite and every line of text drawn), so a new picture or a new label is
measured too.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

import faces
import games
from bot.commandline import gallery
from faces import pictures
from rendering import Frame, cards, sprites
from rendering.canvas import HEADER_HEIGHT, MAX_SIDE

PHONE_WIDTH = 400
MIN_TILE = 12
MIN_TEXT = 8
LONG_NAME = 32
"""A name longer than this may be shortened, where each of its lines shows `SHOWN` characters
or more of it."""
SHOWN = 12


@dataclass
class Measured:
    """What one picture drew: the short side of every tile, the size of every line of text."""

    tiles: list[tuple[float, str]] = field(default_factory=list)
    texts: list[tuple[float, str]] = field(default_factory=list)
    cut: list[str] = field(default_factory=list)


@dataclass
class Recorder:
    current: Measured = field(default_factory=Measured)
    pictures: list[tuple[str, int, Measured]] = field(default_factory=list)


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Iterator[Recorder]:
    rec = Recorder()
    face, back, text = sprites.face, sprites.back, ImageDraw.ImageDraw.text

    def measured_face(family: str, first: int, second: int, height: int, *args: Any,
                      **kwargs: Any) -> Image.Image:
        w, h = sprites.tile_size(family, height)
        rec.current.tiles.append((min(w, h), f"[{first}:{second}]"))
        return face(family, first, second, height, *args, **kwargs)

    def measured_back(family: str, height: int, *args: Any, **kwargs: Any) -> Image.Image:
        w, h = sprites.tile_size(family, height)
        rec.current.tiles.append((min(w, h), "back"))
        return back(family, height, *args, **kwargs)

    def measured_text(self: ImageDraw.ImageDraw, xy: Any, shown: Any, *args: Any,
                      **kwargs: Any) -> None:
        used = kwargs.get("font")
        size = getattr(used, "size", None)
        assert size is not None, f"text drawn without a sized font: {shown!r}"
        rec.current.texts.append((float(size), str(shown)))
        if str(shown).endswith("…"):
            rec.current.cut.append(str(shown))
        text(self, xy, shown, *args, **kwargs)

    def measured_save(self: Image.Image, *args: Any, **kwargs: Any) -> None:
        # A picture is measured as it is drawn; its bytes are not needed here (the gallery's
        # test in test_rendering.py encodes every picture and checks its file), and encoding
        # them was half of this test's time.
        rec.pictures.append((f"#{len(rec.pictures)}", self.width, rec.current))
        rec.current = Measured()

    monkeypatch.setattr(sprites, "face", measured_face)
    monkeypatch.setattr(sprites, "back", measured_back)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", measured_text)
    monkeypatch.setattr(Image.Image, "save", measured_save)
    yield rec


def allowed_cut(shown: str) -> bool:
    """A line may be cut only inside a name too long for two lines, after a good part of it."""
    stem = shown.removesuffix("…").strip()
    return any(len(name) > LONG_NAME and len(stem) >= SHOWN and stem[-SHOWN:] in name
               for name in gallery.SAMPLE_NAMES)


@pytest.mark.parametrize("lang", ["uk", "en"])
def test_every_picture_reads_on_a_phone(tmp_path: Path, recorder: Recorder, lang: str) -> None:
    written = gallery.render_gallery(tmp_path, lang=lang)
    assert len(written) == len(recorder.pictures) > 100
    problems: list[str] = []
    smallest_tile, smallest_text = float("inf"), float("inf")
    for path, (_, width, seen) in zip(written, recorder.pictures, strict=True):
        scale = min(1.0, PHONE_WIDTH / width)
        for short, what in seen.tiles:
            smallest_tile = min(smallest_tile, short * scale)
            if short * scale < MIN_TILE:
                problems.append(f"{path.name}: tile {what} {short * scale:.1f} px")
                break
        for size, what in seen.texts:
            smallest_text = min(smallest_text, size * scale)
            if size * scale < MIN_TEXT:
                problems.append(f"{path.name}: text {what!r} {size * scale:.1f} px")
                break
        problems += [f"{path.name}: cut {shown!r}" for shown in seen.cut if not allowed_cut(shown)]
    assert not problems, "\n".join(problems)
    assert smallest_tile >= MIN_TILE and smallest_text >= MIN_TEXT


REVEALED_ON_A_PHONE = 20
"""A revealed tile's width on a result card seen on a phone, where the card has room: the
pips its points count are counted there."""


VARIANTS = [pytest.param(game, preset, players, id=f"{game}-{preset}-{players}")
            for game in games.GAMES
            for shown, preset, players in faces.home(game).variants if shown == game]
"""Every table the gallery draws, game by game (each home names its own)."""


@pytest.mark.parametrize(("game", "preset", "players"), VARIANTS)
def test_result_cards_show_revealed_tiles_big_enough_to_count(
        monkeypatch: pytest.MonkeyPatch, game: str, preset: str, players: int) -> None:
    rules = games.get(game)
    steps = faces.home(game).samples(rules, rules.options(preset), players,
                                     f"gallery/{game}/{preset}")
    view = rules.view(steps["end"].state, None)
    widths: list[int] = []
    face = sprites.face

    def measured(family: str, first: int, second: int, height: int, *args: Any,
                 **kwargs: Any) -> Image.Image:
        widths.append(sprites.tile_size(family, height)[0])
        return face(family, first, second, height, *args, **kwargs)

    monkeypatch.setattr(sprites, "face", measured)
    card = Image.open(io.BytesIO(pictures.result(view, Frame(
        title="Result", names=gallery.SAMPLE_NAMES[:players]))))
    scale = PHONE_WIDTH / card.width
    home = faces.home(game)
    counts = [len(home.revealed(view, s)) for s in range(players)]
    # A card draws tiles exactly where its game turns some up at the end of a deal.
    assert bool(widths) == any(counts), (widths, counts)
    assert all(w * scale >= REVEALED_ON_A_PHONE for w in widths), sorted(set(widths))
    assert card.height <= MAX_SIDE
    band, heights = cards.tile_rows(counts, sprites.family_of(view.tiles), HEADER_HEIGHT)
    assert band >= cards.BAND_LEAST
    for count, height in zip(counts, heights, strict=True):
        w, _ = sprites.tile_size(sprites.family_of(view.tiles), height) if count else (0, 0)
        assert count * (w + cards.TILE_STEP) - cards.TILE_STEP <= cards.TILE_ROOM


def test_a_long_row_of_revealed_tiles_shrinks_alone() -> None:
    """Tiles grow where the row has room: a row too long for big tiles takes smaller ones (down
    to the least, then overlapping), its neighbours keep theirs; rows of tiles under many
    seats share the card's height, every band still readable."""
    most, least = cards.REVEALED_MOST["chinese"], cards.REVEALED_LEAST["chinese"]
    band, heights = cards.tile_rows([3, 20, 0, 40], "chinese", HEADER_HEIGHT)
    assert heights[0] == most and least < heights[1] < most and heights[2] == 0
    assert heights[3] == least and band == cards.ROW_HEIGHT
    band, heights = cards.tile_rows([2] * 8, "chinese", HEADER_HEIGHT)
    assert least < heights[0] < most and len(set(heights)) == 1
    assert band >= cards.BAND_LEAST
