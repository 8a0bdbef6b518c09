"""Every gallery picture, measured at the width a phone shows it (DESIGN.md §7).

A phone shows a picture about 400 px wide, so a picture wider than that is scaled down by
400 / width. At that scale every tile's short side must be at least 12 px and every line of
text at least 8 px tall (its font size), and no text a player needs may be cut: only a name
too long for two lines (the gallery's 64-character one) may end in an ellipsis, and then only
after showing a good part of itself on every line. The measures are taken from the drawing
itself (every tile sprite and every line of text drawn), so a new picture or a new label is
measured too.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot import gallery
from rendering import sprites

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
    face, back, text, save = (sprites.face, sprites.back, ImageDraw.ImageDraw.text,
                              Image.Image.save)

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
        rec.pictures.append((f"#{len(rec.pictures)}", self.width, rec.current))
        rec.current = Measured()
        save(self, *args, **kwargs)

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
