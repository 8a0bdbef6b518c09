"""A long name is shortened before any note that explains a move or a score (DESIGN.md §7).

Each test draws the real picture with long names (thirty characters of Latin or Cyrillic, and
the gallery's sixty-four) at the size the bot sends it and checks the line that carries the
note: drawn in full, the name shortened with "…" where the line has no room for all of it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

import faces
import games
from bot.gallery import SAMPLE_NAMES
from faces import pictures
from faces.collect import board as collecting
from faces.samples import Step
from rendering import Frame, sprites
from rendering.canvas import MAX_SIDE

LATIN = "Bartholomew Montgomery-Smithe"
CYRILLIC = "Олександра Володимирівна Квіт"
LONG_NAMES = [LATIN, CYRILLIC, SAMPLE_NAMES[3]]
"""Thirty characters with a seat number added, and the sixty-four the gallery promises."""
NAME_IDS = ["latin30", "cyrillic30", "gallery64"]


def names(stem: str, players: int) -> tuple[str, ...]:
    return tuple(f"{stem}{seat + 1}" for seat in range(players))


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
