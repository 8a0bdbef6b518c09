"""The bundled font and the text helpers every image uses.

Pillow's built-in bitmap font has no Cyrillic, so DejaVu Sans (licence in `fonts/LICENSE`) ships
with the package. Player names can hold any script or emoji; a character the font lacks would
come out as an empty box, so `printable` swaps it for a neutral mark instead, and `fit` shortens
a name with an ellipsis so a 64-character name never pushes a layout apart (`fit_name` shortens
the name inside a sentence, so the sentence's own words stay whole).
"""

from __future__ import annotations

import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from PIL import ImageDraw, ImageFont

FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
MISSING_MARK = "◆"
_PROBE_MISSING = "\U0010fffd"
"""A private-use code point no font draws: its image is the font's "missing glyph" box."""


GLYPH_LINES = 1024
"""How many rendered lines of text each size and weight of the font keeps."""


class _Face(ImageFont.FreeTypeFont):
    """The font, keeping the glyphs of the lines it has rendered: a game's pictures write the
    same names, facts and labels again and again, and FreeType's rendering of them was most of
    the work of drawing a board. `ImageDraw.text` still lays out and blends each line as it
    would; only the line's coverage mask, the same for the same arguments, is reused."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._keep()

    def __setstate__(self, state: list[Any]) -> None:
        super().__setstate__(state)
        self._keep()

    def _keep(self) -> None:
        self._lines: OrderedDict[tuple[Any, ...], tuple[Any, tuple[int, int]]] = OrderedDict()
        self._lock = threading.Lock()

    def getmask2(self, text: str | bytes, mode: str = "", direction: str | None = None,
                 features: list[str] | None = None, language: str | None = None,
                 stroke_width: float = 0, anchor: str | None = None, ink: int = 0,
                 start: tuple[float, float] | None = None, *args: Any, **kwargs: Any
                 ) -> tuple[Any, tuple[int, int]]:
        if mode == "RGBA" or args or features or not isinstance(text, str):
            # (the mask of colour glyphs carries the ink; none is drawn here)
            return super().getmask2(text, mode, direction, features, language, stroke_width,
                                    anchor, ink, start, *args, **kwargs)
        key = (text, mode, direction, language, stroke_width, anchor, start,
               tuple(sorted(kwargs.items())))
        with self._lock:
            kept = self._lines.get(key)
            if kept is not None:
                self._lines.move_to_end(key)
                return kept
        made = super().getmask2(text, mode, direction, features, language, stroke_width,
                                anchor, ink, start, **kwargs)
        with self._lock:
            self._lines[key] = made
            if len(self._lines) > GLYPH_LINES:
                self._lines.popitem(last=False)
        return made


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    path = resources.files("rendering") / "fonts" / FONT_FILES[bold]
    with resources.as_file(path) as real:
        return _Face(str(real), size)


@cache
def _missing_box() -> bytes:
    return bytes(font(20).getmask(_PROBE_MISSING))


@cache
def has_glyph(char: str) -> bool:
    return bytes(font(20).getmask(char)) != _missing_box()


@lru_cache(maxsize=4096)
def printable(text: str) -> str:
    """Control characters dropped, characters the font cannot draw shown as one mark."""
    out: list[str] = []
    for char in text:
        category = unicodedata.category(char)
        if char in "\n\r\t":
            out.append(" ")
        elif category in ("Cc", "Cs", "Co", "Cn", "Cf"):
            continue  # controls, joiners, variation selectors
        elif category in ("Mn", "Me") and (not out or out[-1] == MISSING_MARK):
            continue  # a mark on a character already shown as missing
        elif char.isspace() or has_glyph(char):
            out.append(char)
        elif not out or out[-1] != MISSING_MARK:
            out.append(MISSING_MARK)
    return "".join(out).strip()


@lru_cache(maxsize=16384)
def width(text: str, face: ImageFont.FreeTypeFont) -> int:
    """Measured once per text and font: layouts measure the same names and facts many times
    (to wrap, to fit, to size the boxes) on every picture."""
    return int(face.getlength(text))


def fit(text: str, face: ImageFont.FreeTypeFont, room: int) -> str:
    """`text` made printable and cut with an ellipsis to at most `room` pixels."""
    text = printable(text)
    if width(text, face) <= room:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if width(text[:mid].rstrip() + "…", face) <= room:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…" if lo else ""


def fit_name(line: Callable[[str], str], name: str, face: ImageFont.FreeTypeFont, room: int
             ) -> str:
    """`line(name)` in at most `room` pixels, the name cut with an ellipsis as far as needed:
    the rest of the line is what explains a score or a move, so it is never the part cut."""
    if width(printable(line(name)), face) <= room:
        return line(name)
    name = printable(name)
    lo, hi = 0, len(name)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if width(line(name[:mid].rstrip() + "…"), face) <= room:
            lo = mid
        else:
            hi = mid - 1
    return line(name[:lo].rstrip() + "…")


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, size: int,
              fill: tuple[int, int, int], room: int | None = None, bold: bool = False,
              anchor: str = "la") -> int:
    """Draw one line (shortened to `room` px when given) and return its width."""
    face = font(size, bold)
    shown = fit(text, face, room) if room is not None else printable(text)
    draw.text(xy, shown, font=face, fill=fill, anchor=anchor)
    return width(shown, face)
