"""The tile sheet: every face of both sets, named, as a reference a player can read on a phone.

Rules source: docs/rules-book.md §1.1 (the Chinese set: 11 civil faces twice each, 10 military faces
once each, the military faces pairing by value into Nines, Eights, Sevens and Fives, and `[4:2]`
with `[2:1]` forming the Supreme pair 至尊; each face's Chinese, English and Ukrainian names) and
§1.2 (the double-six set, one of each: the book names its tiles by their pips, `[0:0]…[6:6]`,
and calls out the seven doubles, so the sheet does the same).

The civil faces stand in one column, each drawn twice because the set holds it twice; the
military faces in the other, two to a row as they pair, so the sheet itself shows which faces
come twice and which only once. Every Chinese face carries its three names: the Chinese one in
the bundled subset of Noto Sans CJK (DejaVu has no Chinese glyphs; `rendering/fonts/
LICENSE-NotoSansCJK`), the English and Ukrainian ones from the catalogue, the sheet's own
language first and larger, the other after it. The double-six tiles come as a row of the seven
doubles, called so, then the other 21, each tile with its pips written under it. Sizes are
chosen for a phone that shows the sheet 400 px wide: text at least 8 px tall and tiles at least
12 px across there (`PIPS_SIZE`, `TILE_HEIGHT` and `WIDTH` below), and the sheet within a
picture's longest side (`rendering.canvas.MAX_SIDE`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

import games
from faces.trick.names import CIVIL_ZH, MILITARY_ZH, SUPREME_ZH, ZH, ZH_ALSO
from games.tiles import CHINESE, Kind
from rendering import sprites
from rendering.text import font
from rendering.theme import Theme, theme
from words.i18n import tr

WIDTH = 960
"""A phone shows the sheet at 400 px: everything below is drawn 2.4 times what it needs there."""
PAD = 16
COLUMN = (WIDTH - 3 * PAD) // 2
TILE_HEIGHT = 84
"""Chinese tiles are 1:2.5, so 33 px across: 14 px on the phone."""
WESTERN_HEIGHT = 64
TILE_GAP = 6
TITLE_SIZE = 30
HEAD_SIZE = 24
FACE_SIZE = 24
ZH_SIZE = 28
NAME_SIZE = 24
"""A face's name in the sheet's language: 10 px on the phone, larger than the other one's."""
MIN_TEXT = 22
"""The smallest text on the sheet but the pips under the double-six tiles: 9.2 px on the
phone."""
PIPS_SIZE = 20
"""The pips written under each double-six tile: 8.3 px on the phone, leaving a gap between
eleven labels to a row."""
WESTERN_CELL = 41
"""One double-six tile and its pips written under it ("6:5" is wider than the tile): eleven
to a row of the column."""
LINE_GAP = 4
ROW_GAP = 10
CJK_FONT = "NotoSansCJKtc-TileNames.otf"

Piece = tuple[str, ImageFont.FreeTypeFont]
"""A run of text in one font; a line mixes DejaVu and the Chinese font."""


@cache
def cjk_font(size: int) -> ImageFont.FreeTypeFont:
    path = resources.files("rendering") / "fonts" / CJK_FONT
    with resources.as_file(path) as real:
        return ImageFont.truetype(str(real), size)


def zh_name(kind: Kind) -> str:
    """"和牌/鵝牌": a face's Chinese name, and its other common name when it has one."""
    face = (kind.hi, kind.lo)
    return "/".join(n for n in (ZH[face], ZH_ALSO.get(face, "")) if n)


def kind_of(hi: int, lo: int) -> Kind:
    return CHINESE.kind(CHINESE.one(f"{hi}{lo}"))


class Sheet:
    """A column cursor over the sheet being drawn."""

    def __init__(self, image: Image.Image, look: Theme) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.look = look

    def line(self, x: int, y: int, pieces: Sequence[Piece], fill: tuple[int, int, int]
             ) -> int:
        """Draw the pieces side by side on one baseline; return the line's height."""
        height = round(max(face.size for _, face in pieces))
        base = y + round(height * 0.85)
        for text, face in pieces:
            self.draw.text((x, base), text, font=face, fill=fill, anchor="ls")
            x += round(face.getlength(text))
        return height + LINE_GAP

    def wrapped(self, x: int, y: int, text: str, size: int, room: int,
                fill: tuple[int, int, int], bold: bool = False, lead: Piece | None = None
                ) -> int:
        """Text broken into lines of at most `room` px, after `lead` (a Chinese heading
        mark) on the first line; return the height used."""
        face = font(size, bold)
        indent = round(lead[1].getlength(lead[0])) if lead else 0
        lines: list[str] = []
        for word in text.split():
            if lines and face.getlength(f"{lines[-1]} {word}") <= room - indent:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        used = 0
        for i, text_line in enumerate(lines):
            pieces = [lead, (text_line, face)] if lead and i == 0 else [(text_line, face)]
            used += self.line(x + (indent if lead and i else 0), y + used, pieces, fill)
        return used

    def tiles(self, x: int, y: int, faces: Sequence[tuple[int, int]]) -> int:
        """Chinese faces side by side; return the x after them."""
        for hi, lo in faces:
            sprite = sprites.face("chinese", hi, lo, TILE_HEIGHT, self.look.name)
            self.image.paste(sprite, (x, y), sprite)
            x += sprite.width + TILE_GAP
        return x


LANGS = ("uk", "en")
"""The languages every Chinese face is named in."""


Names = Mapping[str, Sequence[str]]
"""Language -> a face's names in it, in parts a line may break between but never inside (a
name like "Supreme pair" stays whole)."""


def _named_row(sheet: Sheet, x: int, y: int, faces: Sequence[tuple[int, int]],
               first: Sequence[Piece], names: Names, lang: str, right: int) -> int:
    """Tiles, then lines beside them up to `right`: faces and Chinese name, the names in the
    sheet's language (larger, in the text colour: the reader's own words lead), then the other
    language's."""
    look = sheet.look
    text_x = sheet.tiles(x, y, faces) + TILE_GAP * 2
    used = sheet.line(text_x, y, first, look.text)
    others = [code for code in LANGS if code != lang]
    for code, size, fill in [(lang, NAME_SIZE, look.text),
                             *((code, MIN_TEXT, look.muted) for code in others)]:
        face = font(size)
        lines: list[str] = []
        for part in names[code]:
            if lines and face.getlength(f"{lines[-1]} {part}") <= right - text_x:
                lines[-1] = f"{lines[-1]} {part}"
            else:
                lines.append(part)
        for line in lines:
            used += sheet.line(text_x, y + used, [(line, face)], fill)
    return max(TILE_HEIGHT, used) + ROW_GAP


def _heading(sheet: Sheet, x: int, y: int, mark: str, text: str) -> int:
    """A column's heading after its Chinese mark (文 civil, 武 military), wrapped to the
    column."""
    lead = (mark + " ", cjk_font(HEAD_SIZE + 2))
    return sheet.wrapped(x, y, text, HEAD_SIZE, COLUMN, sheet.look.gold, True, lead) + ROW_GAP


def _civil(sheet: Sheet, x: int, y: int, lang: str) -> int:
    y += _heading(sheet, x, y, CIVIL_ZH, tr(lang, "sheet.civil"))
    for kind in (k for k in CHINESE.kinds if k.civil):
        face = (kind.hi, kind.lo)
        first = [(f"{kind.label} {tr(lang, 'sheet.twice')}  ", font(FACE_SIZE, True)),
                 (zh_name(kind), cjk_font(ZH_SIZE))]
        names = {code: (tr(code, f"tile.{kind.hi}{kind.lo}"),) for code in LANGS}
        y += _named_row(sheet, x, y, (face, face), first, names, lang, x + COLUMN)
    return y


MILITARY_PAIRS: tuple[tuple[tuple[int, int], tuple[int, int], int], ...] = (
    ((6, 3), (5, 4), 9), ((6, 2), (5, 3), 8), ((5, 2), (4, 3), 7), ((4, 1), (3, 2), 5))
"""The military faces two by two as they pair (docs/rules-book.md §1.1): equal pips, different
faces."""


def _military(sheet: Sheet, x: int, y: int, lang: str) -> int:
    y += _heading(sheet, x, y, MILITARY_ZH, tr(lang, "sheet.military"))
    bold = font(FACE_SIZE, True)
    for a, b, value in MILITARY_PAIRS:
        kind = kind_of(*a)
        first = [(f"{kind.label} {kind_of(*b).label}  ", bold), (ZH[a], cjk_font(ZH_SIZE))]
        names = {code: (f"{tr(code, f'tile.{a[0]}{a[1]}')} ·", tr(code, f"tg.mpair.{value}"))
                 for code in LANGS}
        y += _named_row(sheet, x, y, (a, b), first, names, lang, x + COLUMN)
    # The Supreme pair: the Six and the Three, each named, and the pair's own name 至尊.
    zh = cjk_font(ZH_SIZE)
    first = [(f"{kind_of(4, 2).label} ", bold), (ZH[(4, 2)] + "  ", zh),
             (f"{kind_of(2, 1).label} ", bold), (ZH[(2, 1)] + "  ", zh), (SUPREME_ZH, zh)]
    names = {code: (f"{tr(code, 'tile.42')} · {tr(code, 'tile.21')}:", tr(code, "tg.supreme"))
             for code in LANGS}
    return y + _named_row(sheet, x, y, ((4, 2), (2, 1)), first, names, lang, x + COLUMN)


def _western(sheet: Sheet, x: int, y: int, lang: str) -> int:
    """The double-six set, each tile with its pips written under it: first the seven doubles,
    called so beside them, then the other 21 tiles in order."""
    look = sheet.look
    western = games.get("domino").tileset(games.get("domino").options())
    y += sheet.wrapped(x, y, tr(lang, "sheet.western"), HEAD_SIZE, COLUMN, look.gold, True)
    y += ROW_GAP // 2
    doubles = [k for k in western.kinds if k.hi == k.lo]
    others = [k for k in western.kinds if k.hi != k.lo]
    per_row = COLUMN // WESTERN_CELL
    rows = [doubles] + [others[i:i + per_row] for i in range(0, len(others), per_row)]
    label = font(PIPS_SIZE)
    for row in rows:
        tall = 0
        for i, kind in enumerate(row):
            sprite = sprites.face("western", kind.hi, kind.lo, WESTERN_HEIGHT, look.name)
            cell = x + i * WESTERN_CELL
            sheet.image.paste(sprite, (cell + (WESTERN_CELL - sprite.width) // 2, y), sprite)
            sheet.draw.text((cell + WESTERN_CELL // 2, y + sprite.height + LINE_GAP // 2),
                            f"{kind.hi}:{kind.lo}", font=label,
                            fill=look.gold if kind.hi == kind.lo else look.text, anchor="mt")
            tall = sprite.height
        if row is doubles:
            sheet.draw.text((x + len(row) * WESTERN_CELL + TILE_GAP, y + tall // 2),
                            tr(lang, "sheet.doubles"), font=font(MIN_TEXT), fill=look.gold,
                            anchor="lm")
        y += tall + LINE_GAP // 2 + PIPS_SIZE + ROW_GAP * 2 // 3
    return y + ROW_GAP // 3


def _backs_and_states(sheet: Sheet, x: int, y: int, lang: str) -> int:
    """The backs, and every highlight a board gives a tile."""
    look = sheet.look
    # The word and the backs on one row: the sheet must stay within a picture's longest side.
    words = tr(lang, "sheet.backs")
    sheet.draw.text((x, y + TILE_HEIGHT // 2), words, font=font(MIN_TEXT), fill=look.muted,
                    anchor="lm")
    at = x + round(font(MIN_TEXT).getlength(words)) + TILE_GAP * 2
    for family, height in (("chinese", TILE_HEIGHT), ("western", WESTERN_HEIGHT)):
        sprite = sprites.back(family, height, look.name)
        sheet.image.paste(sprite, (at, y + TILE_HEIGHT - sprite.height), sprite)
        at += sprite.width + TILE_GAP
    y += TILE_HEIGHT + ROW_GAP
    y += sheet.wrapped(x, y, tr(lang, "sheet.states"), MIN_TEXT, COLUMN, look.muted)
    for family, hi, lo, height in (("chinese", 6, 6, TILE_HEIGHT),
                                   ("western", 6, 3, WESTERN_HEIGHT)):
        at, tall = x, 0
        for state in sprites.STATES:
            sprite = sprites.face(family, hi, lo, height, look.name, state, horizontal=True)
            sheet.image.paste(sprite, (at, y), sprite)
            at, tall = at + sprite.width + TILE_GAP, sprite.height
        y += tall + TILE_GAP
    return y + ROW_GAP


def tile_sheet(theme_name: str, lang: str = "en") -> Image.Image:
    """Both sets on one portrait sheet, headings in `lang`, every Chinese face in Chinese,
    English and Ukrainian."""
    look = theme(theme_name)
    image = Image.new("RGB", (WIDTH, 2400), look.table)
    sheet = Sheet(image, look)
    top = PAD + sheet.line(PAD, PAD, [(tr(lang, "sheet.title") + "  ", font(TITLE_SIZE, True)),
                                      ("骨牌", cjk_font(TITLE_SIZE))], look.text) + ROW_GAP
    left = _civil(sheet, PAD, top, lang)
    right_x = PAD * 2 + COLUMN
    right = _military(sheet, right_x, top, lang)
    right = _western(sheet, right_x, right + ROW_GAP, lang)
    right = _backs_and_states(sheet, right_x, right, lang)
    return image.crop((0, 0, WIDTH, max(left, right) + PAD))
