"""Pictures encoded for where they go (rendering.encoding): under half the bytes of the drawn
RGB PNG, text and pips as crisp as drawn, the theme's colours exact, the same bytes in every
process, and the drawn pixels themselves by default."""

from __future__ import annotations

import functools
import io
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageFilter

import faces
import games
import rendering
from bot.commandline.gallery import SAMPLE_NAMES
from faces import home_of, pictures
from faces.samples import sample_deal
from faces.tile_sheet import tile_sheet
from rendering.encoding import DESTINATIONS, Fidelity, _neighbours, fidelity
from rendering.theme import THEMES
from storage.stats import Standing

ROOT = Path(__file__).resolve().parents[2]
SENT = [to for to in DESTINATIONS if to != "lossless"]

EDGE_MEAN = 3.5
EDGE_P99 = 20
MEAN = 1.0
"""Crisp: over text, pip and outline pixels the mean channel error stays under 3.5 levels of
255 and 99% of them within 20; over the whole picture the mean stays under one level (flat
areas stay flat). A JPEG at quality 90 already fails this; the palette PNGs stay near half."""


def _crisp(kept: Fidelity) -> bool:
    return kept.edge_mean <= EDGE_MEAN and kept.edge_p99 <= EDGE_P99 and kept.mean <= MEAN


def _frame(players: int, theme: str = "dark", lang: str = "en") -> rendering.Frame:
    return rendering.Frame(title="Тест · Test", names=SAMPLE_NAMES[:players], footer="—",
                           theme=theme, lang=lang)


@functools.cache
def _deal(game: str, preset: str, players: int) -> list[Any]:
    """A sample deal, played once for every picture taken from it."""
    rules = games.get(game)
    return sample_deal(rules, rules.options(preset), players, "enc")


def _step(game: str, preset: str, players: int, where: float) -> tuple[Any, Any]:
    steps = _deal(game, preset, players)
    return games.get(game), steps[min(len(steps) - 1, int(len(steps) * where))].state


Picture = tuple[Callable[[], Image.Image], Callable[[str], bytes]]
"""How a picture is drawn (RGB), and how `faces.pictures` encodes it for a destination."""


def _board(game: str, preset: str, players: int, where: float, theme: str = "dark"
           ) -> Picture:
    rules, state = _step(game, preset, players, where)
    view, frame = rules.view(state, None), _frame(players, theme)
    return (lambda: home_of(view).board(view, frame),
            lambda to: pictures.board(view, frame, to))


def _hand(game: str, preset: str, players: int) -> Picture:
    rules, state = _step(game, preset, players, 0.4)
    view, frame = rules.view(state, rules.to_move(state)), _frame(players)
    return (lambda: home_of(view).hand(view, frame),
            lambda to: pictures.hand(view, frame, to))


def _result(game: str, preset: str, players: int) -> Picture:
    rules, state = _step(game, preset, players, 1.0)
    view, frame = rules.view(state, None), _frame(players, lang="uk")
    return (lambda: home_of(view).result(view, frame),
            lambda to: pictures.result(view, frame, to))


def _leaderboard() -> Picture:
    rows = [Standing(i + 1, i + 1, name, 1000 - 97 * i, 9 + i)
            for i, name in enumerate(SAMPLE_NAMES[:8])]
    frame = rendering.Frame(title="Leaderboard", names=())
    return (lambda: rendering.leaderboard_card(rows, frame),
            lambda to: pictures.leaderboard(rows, frame, to))


def _sheet(theme: str) -> Picture:
    return (lambda: tile_sheet(theme, "uk"),
            lambda to: rendering.encode(tile_sheet(theme, "uk"), to))


def _game_pictures(game: str) -> dict[str, Callable[[], Picture]]:
    """A game at the first table its home's gallery draws: the board in the middle of a deal,
    the board at its end (on the ivory theme), the hand of the seat to move and the result."""
    _, preset, players = next(v for v in faces.home(game).variants if v[0] == game)
    return {
        f"{game} mid-game board": lambda: _board(game, preset, players, 0.5),
        f"{game} full board, ivory": lambda: _board(game, preset, players, 1.0, "ivory"),
        f"{game} hand": lambda: _hand(game, preset, players),
        f"{game} result card": lambda: _result(game, preset, players),
    }


PICTURES: dict[str, Callable[[], Picture]] = {
    **{name: make for game in games.GAMES for name, make in _game_pictures(game).items()},
    "leaderboard": _leaderboard,
    "tile sheet": lambda: _sheet("ivory"),
}


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_every_destination_keeps_text_and_pips_crisp_in_under_half_the_bytes(name):
    draw, encoded = PICTURES[name]()
    drawn = draw()
    today = rendering.encode(drawn, "lossless")
    kept_by_bytes: dict[bytes, Fidelity] = {}  # destinations encoded alike are measured once
    for to in SENT:
        data = encoded(to)
        picture = Image.open(io.BytesIO(data))
        assert picture.format == "PNG" and picture.size == drawn.size, to
        assert len(data) <= len(today) / 2, (to, len(data), len(today))
        if data not in kept_by_bytes:
            kept_by_bytes[data] = fidelity(drawn, data)
        assert _crisp(kept_by_bytes[data]), (to, kept_by_bytes[data])


def test_lossless_is_the_default_and_exactly_what_was_drawn():
    rules, state = _step("dragon", "one-arm", 4, 0.5)
    view = rules.view(state, None)
    data = pictures.board(view, _frame(4))
    assert data == pictures.board(view, _frame(4), "lossless")
    picture = Image.open(io.BytesIO(data))
    assert picture.mode == "RGB"
    assert picture.tobytes() == home_of(view).board(view, _frame(4)).tobytes()


def _blurred(drawn: Image.Image) -> dict[str, bytes]:
    def save(image: Image.Image, kind: str, **options: Any) -> bytes:
        out = io.BytesIO()
        image.save(out, kind, **options)
        return out.getvalue()
    return {
        "JPEG q85 4:2:0": save(drawn, "JPEG", quality=85, subsampling=2),
        "JPEG q90 4:4:4": save(drawn, "JPEG", quality=90, subsampling=0),
        "blurred by 0.8 px": save(drawn.filter(ImageFilter.GaussianBlur(0.8)), "PNG"),
        "16 colours": save(drawn.quantize(16, method=Image.Quantize.FASTOCTREE,
                                          dither=Image.Dither.NONE), "PNG"),
        "WebP q90": save(drawn, "WEBP", quality=90),
    }


@pytest.mark.parametrize("name", ["dragon mid-game board", "tiengow hand"])
def test_the_crispness_bar_refuses_blurred_pictures(name):
    drawn = PICTURES[name]()[0]()
    assert _crisp(fidelity(drawn, rendering.encode(drawn, "telegram")))
    for how, data in _blurred(drawn).items():
        assert not _crisp(fidelity(drawn, data)), how


@pytest.mark.parametrize("to", SENT)
@pytest.mark.parametrize("theme", sorted(THEMES))
def test_the_felt_and_panels_keep_the_themes_own_colours(to, theme):
    draw, encoded = _board("dragon", "two-arm", 2, 0.5, theme)
    drawn = draw()
    back = Image.open(io.BytesIO(encoded(to))).convert("RGB")
    look = THEMES[theme]
    counts = dict((colour, n) for n, colour in drawn.getcolors(1 << 16) or [])
    assert counts[look.table] > 0 and counts[look.panel] > 0
    for colour in (look.table, look.panel, look.panel_hi, look.text):
        both = ImageChops.multiply(_exactly(drawn, colour), _exactly(back, colour))
        kept = both.histogram()[255]
        assert kept == counts[colour], (colour, kept, counts[colour])


def _exactly(image: Image.Image, colour: tuple[int, int, int]) -> Image.Image:
    """255 where `image` is `colour` exactly, 0 elsewhere (counted by Pillow, not pixel by
    pixel in Python: the board has half a million pixels)."""
    red, green, blue = (band.point([255 if v == c else 0 for v in range(256)])
                        for band, c in zip(image.split(), colour, strict=True))
    return ImageChops.multiply(ImageChops.multiply(red, green), blue)


def test_same_view_gives_the_same_bytes_for_telegram_in_another_process():
    rules, state = _step("tiengow", "modern", 4, 0.5)
    first = pictures.board(rules.view(state, None), _frame(4), "telegram")
    script = (
        "import sys, games, rendering\n"
        "from bot.commandline.gallery import SAMPLE_NAMES; from faces.samples import sample_deal\n"
        "from faces import pictures\n"
        "r = games.get('tiengow'); s = sample_deal(r, r.options('modern'), 4, 'enc')\n"
        "v = r.view(s[int(len(s) * 0.5)].state, None)\n"
        "f = rendering.Frame(title='Тест · Test', names=SAMPLE_NAMES[:4], footer='—')\n"
        "sys.stdout.buffer.write(pictures.board(v, f, 'telegram'))\n"
    )
    other = subprocess.run([sys.executable, "-c", script], capture_output=True, check=True,
                           cwd=ROOT, env={"PYTHONHASHSEED": "321", "PATH": ""}).stdout
    assert other == first


@pytest.mark.parametrize("size", [(1, 1), (3, 700), (800, 2), (64, 64)])
def test_small_flat_and_thin_pictures_encode_exactly(size):
    flat = Image.new("RGB", size, (23, 67, 48))
    flat.paste((250, 196, 60), (0, 0, max(1, size[0] // 2), max(1, size[1] // 2)))
    for to in SENT:
        back = Image.open(io.BytesIO(rendering.encode(flat, to))).convert("RGB")
        assert back.tobytes() == flat.tobytes(), to


def test_an_unknown_destination_is_refused_by_name():
    with pytest.raises(ValueError, match="telegram, discord, console"):
        rendering.encode(Image.new("RGB", (4, 4)), "fax")


@pytest.mark.parametrize("size", [(1, 1), (1, 7), (9, 1), (2, 3), (40, 31)])
def test_the_grey_extremes_around_each_pixel_are_pillows_rank_filters(size) -> None:
    """The crispness bar finds a picture's edges from each pixel's 3×3 grey high and low
    (`_neighbours`): the same as Pillow's `MaxFilter(3)` and `MinFilter(3)`, edges included."""
    draw = random.Random(str(size))
    grey = Image.frombytes("L", size, bytes(draw.randrange(256) for _ in range(size[0] * size[1])))
    high, low = _neighbours(grey)
    assert high.tobytes() == grey.filter(ImageFilter.MaxFilter(3)).tobytes()
    assert low.tobytes() == grey.filter(ImageFilter.MinFilter(3)).tobytes()
