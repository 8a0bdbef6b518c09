"""Rendering cost: median milliseconds to compose and encode each image, and the share of it
that is PNG encoding (the floor: composing should cost little beside it).

Run by hand (not a test): `.venv/bin/python benchmarks/images.py [--repeat N]`.
Machines are shared and noisy; compare the ratios within one run. The aim: a full board in
tens of milliseconds, a hand in a few.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

import games
from bot.gallery import SAMPLE_NAMES
from faces import home_of
from faces.samples import sample_deal
from rendering import sprites
from rendering.canvas import Frame, encode
from rendering.hand import hand_image


def cases() -> list[tuple[str, Callable[[], Image.Image]]]:
    found: list[tuple[str, Callable[[], Image.Image]]] = []
    for game, preset, players in (("dragon", "one-arm", 4), ("domino", "100", 2)):
        rules = games.get(game)
        steps = sample_deal(rules, rules.options(preset), players, "bench")
        table = Frame(title=rules.title["uk"], names=SAMPLE_NAMES[:players], footer="—")
        middle = steps[len(steps) // 2].state
        seat = rules.to_move(middle)
        mid_view = rules.view(middle, None)
        full_view = rules.view(steps[-1].state, None)
        tiles = rules.tileset(rules.options(preset))
        full_line = tuple((t, tiles.a[t], tiles.b[t], 0) for t in range(tiles.size))
        full_view = dataclasses.replace(full_view, line=full_line)
        hand_view = rules.view(middle, seat)
        board: Any = home_of(mid_view).board
        found += [
            (f"{game} hand", lambda v=hand_view, t=table: hand_image(v, t)),
            (f"{game} mid-game board", lambda v=mid_view, t=table, b=board: b(v, t)),
            (f"{game} full board", lambda v=full_view, t=table, b=board: b(v, t)),
        ]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    print(f"{'image':<24}{'first ms':>10}{'compose ms':>12}{'encode ms':>11}{'total ms':>10}"
          f"{'encode share':>14}{'KB':>7}")
    for name, make in cases():
        sprites.face.cache_clear()
        sprites.back.cache_clear()
        started = time.perf_counter()
        encode(make())
        first = (time.perf_counter() - started) * 1000
        compose, encoding = [], []
        size = 0
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            image = make()
            t1 = time.perf_counter()
            size = len(encode(image))
            t2 = time.perf_counter()
            compose.append((t1 - t0) * 1000)
            encoding.append((t2 - t1) * 1000)
        c, e = statistics.median(compose), statistics.median(encoding)
        print(f"{name:<24}{first:>10.1f}{c:>12.1f}{e:>11.1f}{c + e:>10.1f}"
              f"{e / (c + e):>14.0%}{size / 1024:>7.0f}")


if __name__ == "__main__":
    main()
