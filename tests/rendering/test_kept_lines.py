"""The font keeps the lines of text it has rendered (`rendering.text`): what it hands back the
second time must be what a font keeping nothing renders for the same arguments, or a picture
would show one line's outline, anchor or offset under another's."""

from __future__ import annotations

import copy
import pickle

import pytest
from PIL import Image, ImageDraw, ImageFont

from rendering import text

WORDS = "Dragon 接龍 Доміно"
HOW: list[dict[str, object]] = [
    {},
    {"stroke_width": 2},
    {"anchor": "ms"},
    {"anchor": "lm", "stroke_width": 1},
    {"xy": (5.5, 20.25)},
]
"""The same words drawn every way the pictures draw text, so a key missing one of them would
hand one way's mask to another."""


def _drawn(font: ImageFont.FreeTypeFont, how: dict[str, object]) -> bytes:
    image = Image.new("L", (420, 60), 0)
    how = dict(how)
    xy = how.pop("xy", (5, 30))
    ImageDraw.Draw(image).text(xy, WORDS, font=font, fill=255, **how)  # type: ignore[arg-type]
    return image.tobytes()


@pytest.mark.parametrize("bold", [False, True])
def test_a_kept_line_is_what_a_font_keeping_nothing_draws(bold: bool) -> None:
    kept = text.font(17, bold)
    plain = ImageFont.truetype(kept.path, 17)
    for _ in range(2):  # the second round comes from what the first kept
        for how in HOW:
            assert _drawn(kept, how) == _drawn(plain, how), how


def test_a_font_keeps_at_most_its_bound_of_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text, "GLYPH_LINES", 3)
    face = text._Face(text.font(12).path, 12)
    for i in range(10):
        ImageDraw.Draw(Image.new("L", (80, 20))).text((0, 0), f"line {i}", font=face)
    assert len(face._lines) == 3


def test_a_copied_font_draws_as_the_original_and_keeps_its_own_lines() -> None:
    """A font goes through pickle and `copy` as Pillow's own do (a copy reads the font file
    anew), and the copy keeps lines of its own."""
    kept = text.font(17)
    for twin in (pickle.loads(pickle.dumps(kept)), copy.deepcopy(kept)):
        for _ in range(2):
            assert _drawn(twin, {}) == _drawn(kept, {})
        assert len(twin._lines) == 1
