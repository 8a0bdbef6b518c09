"""A season's podium picture (rendering/podium.py): the winner on the middle step, the second on
the left, the third on the right, each step under its medal's colour; fewer than three players
leave the missing steps' felt bare. The phone-size checks of every gallery picture measure it
too (tests/rendering/test_phone_sizes.py)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from faces import pictures
from rendering import Frame
from rendering.canvas import MAX_SIDE, PAD
from rendering.cards import CARD_WIDTH
from rendering.podium import GAP, STEP_HEIGHTS
from rendering.theme import THEMES
from storage.stats import Standing

LOOK = THEMES["dark"]


def _podium(players: int, lang: str = "en") -> Image.Image:
    rows = [Standing(i + 1, i, f"Player {i}" if i else "Щ" * 64, 300 - 200 * i, 5 + i,
                     300 - 200 * i) for i in range(players)]
    data = pictures.podium(rows, Frame(title="Season 3 · November 2026", names=(), lang=lang,
                                       footer="3 played · 12 deals"))
    return Image.open(io.BytesIO(data)).convert("RGB")


def _band(image: Image.Image, slot: int, place: int) -> tuple[int, int, int]:
    """The colour of the band on top of the step in `slot` (0 left, 1 middle, 2 right), for
    the step of `place` (0: first)."""
    column = (CARD_WIDTH - 2 * PAD - 2 * GAP) // 3
    x = PAD + slot * (column + GAP) + column // 2
    bottom = image.height - 1
    # the footer's panel, then the felt under the steps
    y = next(y for y in range(bottom, 0, -1) if image.getpixel((x, y)) == LOOK.table)
    step_bottom = y - PAD + 1
    pixel = image.getpixel((x, step_bottom - STEP_HEIGHTS[place] + 12))
    assert isinstance(pixel, tuple)
    return pixel[0], pixel[1], pixel[2]


@pytest.mark.parametrize("lang", ["en", "uk"])
def test_the_winner_stands_in_the_middle_the_second_left_the_third_right(lang):
    image = _podium(3, lang)
    assert image.width == CARD_WIDTH and image.height <= MAX_SIDE
    assert _band(image, 1, 0) == LOOK.medals[0]
    assert _band(image, 0, 1) == LOOK.medals[1]
    assert _band(image, 2, 2) == LOOK.medals[2]


def test_with_fewer_than_three_the_missing_steps_are_bare_felt():
    two = _podium(2)
    assert _band(two, 1, 0) == LOOK.medals[0] and _band(two, 0, 1) == LOOK.medals[1]
    assert _band(two, 2, 2) == LOOK.table
    one = _podium(1)
    assert _band(one, 1, 0) == LOOK.medals[0]
    assert _band(one, 0, 1) == LOOK.table and _band(one, 2, 2) == LOOK.table
