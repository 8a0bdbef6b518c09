"""How a picture is written for where it goes: the bytes of a board, a hand or a card.

docs/architecture.md §7 (opaque RGB drawn, at most 1280 px on the long side). Telegram turns every
photo into a JPEG of its own (at most 1280 px), so what we upload is only ever seen through that
JPEG; Discord and the terminal show the file as sent. The pictures are flat colour plus anti-aliased
text and pips: one or two thousand colours, of which a dozen cover almost every pixel.

Measured side by side on every family's boards (`benchmarks/images.py --candidates`): JPEG is
as heavy as today's PNG at 4:2:0 and already blurs text there (and Telegram would blur it a
second time); WebP is slower than today's PNG, lossy it smears the letters, lossless it is
heavier; other zlib levels and strategies save at most an eighth of the bytes, at up to
several times the time; a palette of the theme's colours misses the shades the boards mix
from them. A palette PNG of the picture's own colours is a third of the bytes in a third to a
half of the time (one byte a pixel to deflate instead of three), with text and pips within a
few levels of what was drawn. Telegram, Discord and the terminal all keep it: for Telegram,
its own JPEG changes every edge far more than the palette does; for Discord and the terminal,
the file shown is that close to what was drawn. A palette chosen from more of the pixels only
lowers the rare worst pixel, for a third more time. So today the three take the same
encoding; each call site still says where its picture goes, so that what one platform keeps
is decided here, in one line of `ENCODINGS`.

How the palette is made:

- Pillow's fast octree over about `sample` pixels evenly spread (every 4th each way on a
  board, all of a small picture: a sample keeps the mix of colours and costs a fraction of
  the whole), then the most common colours put in exactly, so the felt and the panels keep
  the theme's own colours rather than the octree's means of them;
- every pixel takes its nearest palette colour, without dithering (dots around letters read
  as noise). Pillow measures "nearest" from the low corner of a 4×4×4 cell of colours, so the
  palette it searches is shifted down by `SHIFT`, about half a cell, and the real one is put
  back afterwards (of two common colours closer than a cell, only the commoner is put in
  exactly: the cell cannot tell them apart);
- zlib level 3: level 6 saves a fifth of the bytes for a third more time, level 1 no time.

"lossless" keeps the RGB PNG, pixel for pixel what was drawn (the gallery, and tests that
read exact colours). Every encoding gives the same bytes for the same picture in any process.
"""

from __future__ import annotations

import heapq
import io
import math
from dataclasses import dataclass
from typing import Literal, get_args

from PIL import Image, ImageChops

Destination = Literal["lossless", "telegram", "discord", "console"]
DESTINATIONS: tuple[Destination, ...] = get_args(Destination)


@dataclass(frozen=True, slots=True)
class Encoding:
    sample: int
    """The palette is chosen from about this many pixels, evenly spread (every 2nd, 3rd or
    4th each way on a board; all of a small picture); 0 writes RGB, no palette."""
    level: int = 3
    """zlib level."""
    colours: int = 256
    exact: int = 16
    """How many of the most common colours go into the palette exactly (the octree chooses
    the others)."""


PALETTE = Encoding(50_000)

ENCODINGS: dict[Destination, Encoding] = {
    "lossless": Encoding(0),
    "telegram": PALETTE,
    "discord": PALETTE,
    "console": PALETTE,
}

CELL = 4
"""Pillow finds a pixel's palette colour by cells of 4×4×4 colours."""
SHIFT = 1
"""How far the searched palette sits below the real one, per channel (see the module's note)."""
_SHIFTED = bytes(max(0, value - SHIFT) for value in range(256))
COUNTED_SAMPLE = 4
"""The most common colours are counted on every 4th pixel each way: flat areas are all there."""


def destination(name: str) -> Destination:
    """`name` as a destination, or a ValueError that lists them."""
    for known in DESTINATIONS:
        if name == known:
            return known
    raise ValueError(f"unknown destination {name!r}; one of {', '.join(DESTINATIONS)}")


def encode_as(image: Image.Image, how: Encoding) -> bytes:
    out = io.BytesIO()
    if how.sample <= 0:
        image.save(out, "PNG", compress_level=how.level)
    else:
        paletted(image, how).save(out, "PNG", compress_level=how.level)
    return out.getvalue()


def paletted(image: Image.Image, how: Encoding) -> Image.Image:
    """`image` in at most `how.colours` colours of its own, each pixel its nearest colour."""
    chosen = _sample(image, _every(image, how.sample)).quantize(
        how.colours - how.exact, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    real = chosen.getpalette() or [0, 0, 0]
    if how.exact:
        _put_exact(real, chosen, _sample(image, COUNTED_SAMPLE), how.exact)
    searched = Image.new("P", (1, 1))
    searched.putpalette(bytes(real).translate(_SHIFTED))
    out = image.quantize(palette=searched, dither=Image.Dither.NONE)
    out.putpalette(real)
    return out


def _every(image: Image.Image, pixels: int) -> int:
    """Every how-many-th pixel each way makes a sample of at least `pixels` (1 to 4)."""
    return max(1, min(4, math.isqrt(image.width * image.height // pixels)))


def _sample(image: Image.Image, every: int) -> Image.Image:
    if every <= 1:
        return image
    size = (max(1, image.width // every), max(1, image.height // every))
    return image.resize(size, Image.Resampling.NEAREST)


def _put_exact(real: list[int], chosen: Image.Image, counted: Image.Image, most: int) -> None:
    """Put each of the `most` commonest colours in exactly: in place of the octree's colour
    nearest it (the octree gives the mean of what it grouped, a shade or two off the theme's),
    or after the others when a commoner colour has taken that place already (the text's white
    and the pips' white share one octree colour)."""
    colours = counted.getcolors(4096)
    if not colours:
        return  # more colours than a board ever has: keep the octree's means
    common = [colour for _, colour in heapq.nlargest(most, colours) if isinstance(colour, tuple)]
    probe = Image.new("RGB", (len(common), 1))
    probe.putdata(common)
    slots = probe.quantize(palette=chosen, dither=Image.Dither.NONE).tobytes()
    taken: set[int] = set()
    put: list[tuple[int, ...]] = []
    for colour, slot in zip(common, slots, strict=True):
        if any(max(abs(a - b) for a, b in zip(colour, other, strict=True)) < CELL
               for other in put):
            continue  # a shade of a commoner colour: Pillow could not tell them apart
        put.append(colour)
        if slot in taken or 3 * slot + 3 > len(real):
            real.extend(colour)
        else:
            taken.add(slot)
            real[3 * slot:3 * slot + 3] = colour


@dataclass(frozen=True, slots=True)
class Fidelity:
    """How far an encoded picture's pixels are from the drawn ones (largest channel
    difference, 0-255): over the edge pixels (text, pips, outlines: where the drawn picture
    changes within a pixel's 3×3 neighbours) and over all of them."""

    edge_mean: float
    edge_p99: int
    edge_max: int
    mean: float


EDGE_CONTRAST = 24
"""A pixel is an edge pixel when the grey levels of its 3×3 neighbours span more than this."""


def fidelity(drawn: Image.Image, encoded: bytes) -> Fidelity:
    """Decode `encoded` and compare it with `drawn`, the RGB picture it was made from."""
    back = Image.open(io.BytesIO(encoded)).convert("RGB")
    if back.size != drawn.size:
        raise ValueError(f"encoded {back.size} is not the drawn {drawn.size}")
    spread = ImageChops.subtract(*_neighbours(drawn.convert("L")))
    edges = spread.point(lambda v: 255 if v > EDGE_CONTRAST else 0)
    red, green, blue = ImageChops.difference(drawn.convert("RGB"), back).split()
    worst = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    at_edges = worst.histogram(mask=edges)
    everywhere = worst.histogram()
    return Fidelity(_mean(at_edges), _percentile(at_edges, 0.99),
                    max((v for v, n in enumerate(at_edges) if n), default=0), _mean(everywhere))


def _neighbours(grey: Image.Image) -> tuple[Image.Image, Image.Image]:
    """The highest and the lowest grey level among each pixel's 3×3 neighbours, the picture's
    edge rows and columns repeated beyond it: what Pillow's `MaxFilter(3)` and `MinFilter(3)`
    give, taken as the extremes of three columns and then of three rows (a handful of passes
    over the picture, where the rank filters sorted nine values at every pixel)."""
    w, h = grey.size
    padded = Image.new("L", (w + 2, h + 2))
    padded.paste(grey, (1, 1))
    padded.paste(grey.crop((0, 0, w, 1)), (1, 0))
    padded.paste(grey.crop((0, h - 1, w, h)), (1, h + 1))
    padded.paste(padded.crop((1, 0, 2, h + 2)), (0, 0))
    padded.paste(padded.crop((w, 0, w + 1, h + 2)), (w + 1, 0))
    columns = [padded.crop((dx, 0, dx + w, h + 2)) for dx in range(3)]
    extremes = []
    for pick in (ImageChops.lighter, ImageChops.darker):
        across = pick(pick(columns[0], columns[1]), columns[2])
        rows = [across.crop((0, dy, w, dy + h)) for dy in range(3)]
        extremes.append(pick(pick(rows[0], rows[1]), rows[2]))
    return extremes[0], extremes[1]


def _mean(histogram: list[int]) -> float:
    total = sum(histogram)
    return sum(v * n for v, n in enumerate(histogram)) / total if total else 0.0


def _percentile(histogram: list[int], share: float) -> int:
    total, seen = sum(histogram), 0
    for value, count in enumerate(histogram):
        seen += count
        if seen >= share * total:
            return value
    return 0
