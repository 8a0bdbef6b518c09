"""The tile sheet: every face named in Chinese, English and Ukrainian, civil and military apart,
the civil faces twice, and everything readable on a phone."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from PIL import Image, ImageDraw

from faces import tile_sheet as sheet_module
from faces.tile_sheet import WIDTH, cjk_font, tile_sheet
from faces.trick.names import SUPREME_ZH, ZH, ZH_ALSO
from games.tiles import CHINESE
from rendering import sprites
from rendering.text import has_glyph
from words.i18n import tr

PHONE_WIDTH = 400


@dataclass
class Drawn:
    texts: list[tuple[int, str, float]] = field(default_factory=list)
    """(x, text, font size) of every run of text."""
    faces: list[tuple[str, int, int, str, bool, int]] = field(default_factory=list)
    """(family, hi, lo, state, horizontal, short side) of every face drawn."""
    backs: list[int] = field(default_factory=list)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Drawn:
    seen = Drawn()
    face, back, text = sprites.face, sprites.back, ImageDraw.ImageDraw.text

    def measured_face(family: str, hi: int, lo: int, height: int, theme_name: str = "dark",
                      state: str = "plain", horizontal: bool = False) -> Image.Image:
        seen.faces.append((family, hi, lo, state, horizontal,
                           min(sprites.tile_size(family, height))))
        return face(family, hi, lo, height, theme_name, state, horizontal=horizontal)

    def measured_back(family: str, height: int, *args: Any, **kwargs: Any) -> Image.Image:
        seen.backs.append(min(sprites.tile_size(family, height)))
        return back(family, height, *args, **kwargs)

    def measured_text(self: ImageDraw.ImageDraw, xy: Any, shown: Any, *args: Any,
                      **kwargs: Any) -> None:
        seen.texts.append((int(xy[0]), str(shown), float(kwargs["font"].size)))
        text(self, xy, shown, *args, **kwargs)

    monkeypatch.setattr(sprites, "face", measured_face)
    monkeypatch.setattr(sprites, "back", measured_back)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", measured_text)
    return seen


@pytest.mark.parametrize(("theme_name", "lang"), [("dark", "uk"), ("ivory", "en")])
def test_every_chinese_face_is_named_three_ways(drawn: Drawn, theme_name: str, lang: str):
    tile_sheet(theme_name, lang)
    runs = [t for _, t, _ in drawn.texts]
    shown = " ".join(runs)
    for kind in CHINESE.kinds:
        face = (kind.hi, kind.lo)
        assert kind.label in shown, kind.label
        assert ZH[face] in shown, (kind.label, ZH[face])
        for code in ("en", "uk"):
            name = tr(code, f"tile.{kind.hi}{kind.lo}")
            assert any(name in run for run in runs), (kind.label, code, name)
    assert ZH_ALSO[(3, 1)] in shown and SUPREME_ZH in shown
    for code in ("en", "uk"):
        assert any(tr(code, "tg.supreme") in run for run in runs)
        assert any(tr(code, "tg.mpair.9") in run for run in runs)
    assert tr(lang, "sheet.title") in shown


def test_civil_faces_come_twice_military_once_in_their_own_columns(drawn: Drawn):
    tile_sheet("dark", "en")
    portrait = [(hi, lo) for family, hi, lo, state, horizontal, _ in drawn.faces
                if family == "chinese" and state == "plain" and not horizontal]
    for kind in CHINESE.kinds:
        assert portrait.count((kind.hi, kind.lo)) == (2 if kind.civil else 1), kind.label
    assert len(portrait) == 32
    # Civil faces are named in the left column under the civil heading, military ones on the
    # right under theirs.
    x_of = {run: x for x, run, _ in drawn.texts}
    civil = next(run for run in x_of if tr("en", "sheet.civil") in run)
    military = next(run for run in x_of if tr("en", "sheet.military") in run)
    assert x_of[civil] < WIDTH / 2 < x_of[military]
    for kind in CHINESE.kinds:
        xs = [x for x, run, _ in drawn.texts if kind.label in run]
        assert xs and all((x < WIDTH / 2) == kind.civil for x in xs), kind.label
    assert any(f"{kind.label} ×2" in run for kind in CHINESE.kinds if kind.civil
               for run in x_of)


def test_the_sheet_reads_on_a_phone(drawn: Drawn):
    image = tile_sheet("dark", "uk")
    assert image.width == WIDTH and image.height < 2 * WIDTH
    scale = PHONE_WIDTH / image.width
    assert drawn.texts and drawn.faces and drawn.backs
    smallest_text = min(size for _, _, size in drawn.texts) * scale
    smallest_tile = min([short for *_, short in drawn.faces] + drawn.backs) * scale
    assert smallest_text >= 8, smallest_text
    assert smallest_tile >= 12, smallest_tile
    assert not [run for _, run, _ in drawn.texts if run.endswith("…")]


def test_the_bundled_font_draws_every_chinese_name():
    """DejaVu has no Chinese glyphs; the bundled subset has every one the sheet prints."""
    face = cjk_font(24)
    missing = bytes(face.getmask("\U0010fffd"))
    chars = {c for name in (*ZH.values(), *ZH_ALSO.values(), SUPREME_ZH, sheet_module.CIVIL_ZH,
                            sheet_module.MILITARY_ZH, "骨牌") for c in name if c != "/"}
    for char in sorted(chars):
        mask = face.getmask(char)
        assert mask.getbbox() is not None and bytes(mask) != missing, char
        assert not has_glyph(char), char


@dataclass
class Placed:
    """Where the sheet put things: every plain portrait double-six face's box, and every run
    of text with its anchor point and size."""

    western: dict[tuple[int, int], list[tuple[int, int, int, int]]] = field(default_factory=dict)
    texts: list[tuple[float, float, str, float]] = field(default_factory=list)


@pytest.fixture
def placed(monkeypatch: pytest.MonkeyPatch) -> Placed:
    seen = Placed()
    face, paste, text = sprites.face, Image.Image.paste, ImageDraw.ImageDraw.text
    named: dict[int, tuple[int, int]] = {}

    def spy_face(family: str, hi: int, lo: int, height: int, theme_name: str = "dark",
                 state: str = "plain", horizontal: bool = False) -> Image.Image:
        sprite = face(family, hi, lo, height, theme_name, state, horizontal=horizontal)
        if family == "western" and state == "plain" and not horizontal:
            named[id(sprite)] = (hi, lo)
        return sprite

    def spy_paste(self: Image.Image, im: Any, box: Any = None, *args: Any, **kw: Any) -> None:
        if isinstance(im, Image.Image) and id(im) in named:
            x, y = box
            seen.western.setdefault(named[id(im)], []).append(
                (x, y, x + im.width, y + im.height))
        paste(self, im, box, *args, **kw)

    def spy_text(self: ImageDraw.ImageDraw, xy: Any, shown: Any, *args: Any, **kw: Any) -> None:
        seen.texts.append((xy[0], xy[1], str(shown), float(kw["font"].size)))
        text(self, xy, shown, *args, **kw)

    monkeypatch.setattr(sprites, "face", spy_face)
    monkeypatch.setattr(Image.Image, "paste", spy_paste)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy_text)
    return seen


@pytest.mark.parametrize("lang", ["uk", "en"])
def test_every_double_six_tile_is_named_by_its_pips_and_the_doubles_are_called_so(
        placed: Placed, lang: str):
    """docs/rules-book.md §1.2 names the double-six tiles by their pips, [0:0] … [6:6], and counts
    its seven doubles: each tile has its pips written just under it, and the doubles stand in a row
    of their own with the catalogue's word for them beside it."""
    tile_sheet("dark", lang)
    assert len(placed.western) == 28
    for (hi, lo), boxes in placed.western.items():
        assert len(boxes) == 1, (hi, lo)
        x0, _, x1, bottom = boxes[0]
        under = [t for t in placed.texts if t[2] == f"{hi}:{lo}"
                 and x0 <= t[0] <= x1 and bottom <= t[1] <= bottom + 12]
        assert len(under) == 1, (hi, lo)
    doubles = [placed.western[(n, n)][0] for n in range(7)]
    top, bottom = min(b[1] for b in doubles), max(b[3] for b in doubles)
    assert all(b[1] == top for b in doubles)
    in_row = [face for face, (box,) in placed.western.items() if top <= box[1] < bottom]
    assert sorted(in_row) == [(n, n) for n in range(7)]
    word = [t for t in placed.texts if t[2] == tr(lang, "sheet.doubles")]
    assert len(word) == 1 and top <= word[0][1] <= bottom
    assert word[0][0] > max(b[2] for b in doubles)


@pytest.mark.parametrize(("lang", "other"), [("uk", "en"), ("en", "uk")])
def test_the_sheet_names_each_face_in_its_own_language_first_and_larger(
        placed: Placed, lang: str, other: str):
    tile_sheet("dark", lang)
    at = {t[2]: t for t in placed.texts}
    for kind in CHINESE.kinds:
        if not kind.civil:
            continue
        own = at[tr(lang, f"tile.{kind.hi}{kind.lo}")]
        theirs = at[tr(other, f"tile.{kind.hi}{kind.lo}")]
        assert own[0] == theirs[0] and own[1] < theirs[1], kind.label
        assert own[3] > theirs[3], kind.label
    # The military pairs and the Supreme pair too.
    for key in ("tg.mpair.9", "tg.supreme"):
        own = next(t for t in placed.texts if tr(lang, key) in t[2])
        theirs = next(t for t in placed.texts if tr(other, key) in t[2])
        assert own[1] < theirs[1] and own[3] > theirs[3], key
