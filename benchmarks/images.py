"""Rendering cost and weight, today's encoding beside each destination's.

For every game of `games.GAMES` (its home's gallery positions at its default options): a hand,
a mid-game and a full board (and, laid in a line, the whole set on the line): the milliseconds
to compose the picture, then, per encoding, to encode it, the total, the KB, the ratios of time
and bytes to today's (RGB PNG at zlib level 3, kept as "lossless") and how close the decoded
picture stays to the drawn one (`rendering.encoding.fidelity`: mean, 99th percentile and
largest channel error over text, pip and outline pixels).

`--candidates` measures the encodings that were considered, on the mid-game boards: RGB PNG at
other zlib levels and strategies, palette PNG from a fixed palette of the theme's colours and
from the picture's own colours, JPEG and WebP.

Run by hand (not a test): `.venv/bin/python benchmarks/images.py [--repeat N] [--candidates]`.
Machines are shared and noisy: every figure is the fastest of N runs (the one least disturbed),
the encodings of one picture taking turns within each run; compare the ratios within one run.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import itertools
import time
from collections.abc import Callable
from functools import cache
from typing import Any

from PIL import Image

import games
from bot.commandline.gallery import SAMPLE_NAMES
from faces import home_of
from faces.home import Home
from faces.presets import game_title
from rendering import sprites
from rendering.canvas import Frame, encode
from rendering.encoding import DESTINATIONS, Encoding, encode_as, fidelity
from rendering.hand import hand_image
from rendering.theme import THEMES, Theme

Make = Callable[[], Image.Image]


def _cases(game: str) -> list[tuple[str, Make]]:
    """A game at its default options and players, from its home's gallery positions (`mid`
    the middle one, else the one before the end): the hand of the seat to move there, that
    board and the board at the end; for a game laid in a line, also the whole set on the line
    (the widest board it can draw)."""
    rules = games.GAMES[game]
    options = rules.options()
    players = rules.default_players
    probe = rules.view(rules.new_deal(options, players, "bench"), None)
    home: Home[Any] = home_of(probe)
    samples = home.samples(rules, options, players, "bench")
    phases = list(samples)
    mid = samples["middle" if "middle" in samples else phases[-2]].state
    end = samples[phases[-1]].state
    table = Frame(title=game_title(rules.id, None, "uk"), names=SAMPLE_NAMES[:players], footer="—")
    mid_view, end_view = rules.view(mid, None), rules.view(end, None)
    hand_view = rules.view(mid, rules.to_move(mid))
    found: list[tuple[str, Make]] = [
        (f"{game} hand", lambda v=hand_view, t=table: hand_image(v, t)),
        (f"{game} mid-game board", lambda v=mid_view, t=table, b=home.board: b(v, t)),
        (f"{game} full board", lambda v=end_view, t=table, b=home.board: b(v, t)),
    ]
    if "line" in {f.name for f in dataclasses.fields(end_view)}:
        tiles = rules.tileset(options)
        whole = dataclasses.replace(end_view, line=tuple((t, tiles.a[t], tiles.b[t], 0)
                                                         for t in range(tiles.size)))
        found.append((f"{game} whole line", lambda v=whole, t=table, b=home.board: b(v, t)))
    return found


def cases() -> list[tuple[str, Make]]:
    return [case for game in games.GAMES for case in _cases(game)]


def _timed(work: Callable[[], Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    done = work()
    return done, (time.perf_counter() - started) * 1000


def destinations(repeat: int) -> None:
    """Per picture, today's encoding, then each destination's beside it."""
    print(f"{'picture':<28}{'to':<10}{'compose':>8}{'encode':>8}{'total':>8}{'KB':>7}"
          f"{'time':>7}{'bytes':>7}   edge error mean/p99/max")
    today = "lossless"
    for name, make in cases():
        sprites.face.cache_clear()
        sprites.back.cache_clear()
        make()  # the first drawing fills the sprite caches
        compose: list[float] = []
        spent: dict[str, list[float]] = {to: [] for to in DESTINATIONS}
        size: dict[str, int] = {}
        for _ in range(repeat):
            image, ms = _timed(make)
            compose.append(ms)
            for to in DESTINATIONS:
                data, ms = _timed(lambda i=image, t=to: encode(i, t))
                spent[to].append(ms)
                size[to] = len(data)
        drawn = make()
        c = min(compose)
        base_total = c + min(spent[today])
        for to in DESTINATIONS:
            e = min(spent[to])
            kept = fidelity(drawn, encode(drawn, to))
            head = (f"{name:<28}{'today':<10}{c:>8.1f}" if to == today else
                    f"{'':<28}{to:<10}{'':>8}")
            ratios = ("" if to == today else
                      f"{(c + e) / base_total:>6.2f}×{size[to] / size[today]:>6.2f}×")
            print(f"{head}{e:>8.1f}{c + e:>8.1f}{size[to] / 1024:>7.1f}{ratios:<14}"
                  f"   {kept.edge_mean:.1f}/{kept.edge_p99}/{kept.edge_max}")
    print("time: compose + encode against today's; bytes: against today's; "
          "edge error: 0-255 per channel")


# ----- the candidates -------------------------------------------------------------------------


def _png(level: int, strategy: int = -1) -> Callable[[Image.Image], bytes]:
    def run(image: Image.Image) -> bytes:
        out = io.BytesIO()
        image.save(out, "PNG", compress_level=level, compress_type=strategy)
        return out.getvalue()
    return run


def _lossy(kind: str, **options: Any) -> Callable[[Image.Image], bytes]:
    def run(image: Image.Image) -> bytes:
        out = io.BytesIO()
        image.save(out, kind, **options)
        return out.getvalue()
    return run


def _own(every: int, level: int = 3, exact: int = 16) -> Callable[[Image.Image], bytes]:
    """The picture's own palette, chosen from every `every`-th pixel each way."""
    def run(image: Image.Image) -> bytes:
        pixels = max(1, image.width * image.height // every ** 2)
        return encode_as(image, Encoding(pixels, level, exact=exact))
    return run


def _mix(a: tuple[int, ...], b: tuple[int, ...], t: float) -> tuple[int, int, int]:
    r, g, bl = (round(x + (y - x) * t) for x, y in zip(a, b, strict=True))
    return (r, g, bl)


@cache
def _theme_palette(name: str) -> Image.Image:
    """The theme's colours and 7 shades between every two of them, thinned to 256 by taking
    each time the shade farthest from those kept (the fixed-palette candidate)."""
    look: Theme = THEMES[name]
    kept = list(dict.fromkeys(
        getattr(look, f.name) for f in dataclasses.fields(look) if f.name != "name"))
    shades = {_mix(a, b, i / 8) for a, b in itertools.combinations(kept, 2) for i in range(1, 8)}
    gap = {s: min(sum((p - q) ** 2 for p, q in zip(s, k, strict=True)) for k in kept)
           for s in shades - set(kept)}
    while len(kept) < 256 and gap:
        far = max(gap, key=lambda s: (gap[s], s))
        kept.append(far)
        del gap[far]
        for s in gap:
            gap[s] = min(gap[s], sum((p - q) ** 2 for p, q in zip(s, far, strict=True)))
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for colour in kept for v in colour])
    return palette


def _theme(level: int) -> Callable[[Image.Image], bytes]:
    def run(image: Image.Image) -> bytes:
        out = io.BytesIO()
        image.quantize(palette=_theme_palette("dark"), dither=Image.Dither.NONE).save(
            out, "PNG", compress_level=level)
        return out.getvalue()
    return run


CANDIDATES: dict[str, Callable[[Image.Image], bytes]] = {
    "RGB PNG z3 (today)": _png(3),
    "RGB PNG z1": _png(1),
    "RGB PNG z6": _png(6),
    "RGB PNG z9": _png(9),
    "RGB PNG z3 filtered": _png(3, 1),
    "RGB PNG z3 RLE": _png(3, 3),
    "theme palette z3": _theme(3),
    "own palette, all pixels z3": _own(1),
    "own palette, 1 in 4 z3": _own(2),
    "own palette, 1 in 4 z1": _own(2, 1),
    "own palette, 1 in 4 z6": _own(2, 6),
    "own palette, 1 in 16 z3 *": _own(4),
    "  the same, octree only": _own(4, exact=0),
    "JPEG q85 4:2:0": _lossy("JPEG", quality=85, subsampling=2),
    "JPEG q90 4:4:4": _lossy("JPEG", quality=90, subsampling=0),
    "JPEG q95 4:4:4": _lossy("JPEG", quality=95, subsampling=0),
    "WebP q90": _lossy("WEBP", quality=90, method=0),
    "WebP q95": _lossy("WEBP", quality=95, method=0),
    "WebP lossless m0": _lossy("WEBP", lossless=True, quality=0, method=0),
}


def candidates(repeat: int) -> None:
    """Every candidate on the mid-game boards (dark theme), against today's; * marks the one
    the destinations take (a board has 16 pixels or more for each one sampled)."""
    print(f"{'picture / encoding':<28}{'ms':>7}{'KB':>8}{'time':>7}{'bytes':>7}"
          "   edge error mean/p99/max   all-pixel mean")
    for name, make in cases():
        if "mid-game" not in name:
            continue
        drawn = make()
        print(f"{name} {drawn.size[0]}×{drawn.size[1]}")
        spent: dict[str, list[float]] = {c: [] for c in CANDIDATES}
        for _ in range(repeat):
            for label, run in CANDIDATES.items():
                spent[label].append(_timed(lambda r=run, d=drawn: r(d))[1])
        base_ms = min(spent["RGB PNG z3 (today)"])
        base_kb = len(CANDIDATES["RGB PNG z3 (today)"](drawn))
        for label, run in CANDIDATES.items():
            data = run(drawn)
            ms = min(spent[label])
            kept = fidelity(drawn, data)
            print(f"  {label:<26}{ms:>7.1f}{len(data) / 1024:>8.1f}{ms / base_ms:>6.2f}×"
                  f"{len(data) / base_kb:>6.2f}×   {kept.edge_mean:>5.1f}/{kept.edge_p99:>3}/"
                  f"{kept.edge_max:>3}{kept.mean:>22.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--candidates", action="store_true",
                        help="measure the encodings considered, on the mid-game boards")
    args = parser.parse_args()
    if args.candidates:
        candidates(max(1, args.repeat // 3))
    else:
        destinations(args.repeat)


if __name__ == "__main__":
    main()
