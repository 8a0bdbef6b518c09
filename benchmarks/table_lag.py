"""Table lag and ping lateness of four people playing at a human pace, on the real clock.

`tests/bot/test_live_pace.py` plays five minutes on each platform on a virtual clock (and one on
Telegram with people who answer at once); this plays the same game (four people, a move every
two to five seconds unless `--think` says otherwise, Korean Tails) in real time against the
same fakes, which keep each platform's limits, so the time spent drawing pictures and in the
libraries counts too. For each platform it prints the table lag (from a change of the game
to the chat's table showing it) p50/p95/max, how late the turn notices were, and the channel calls
a minute. Run by hand:

    .venv/bin/python benchmarks/table_lag.py [--minutes 3] [--only discord|telegram]
        [--think 0.5 1.5]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.human_pace import THINK, Report, discord_table, telegram_table


async def run(minutes: float, only: str | None, think: tuple[float, float]) -> list[Report]:
    reports = []
    with tempfile.TemporaryDirectory() as folder:
        if only in (None, "discord"):
            reports.append(await discord_table(Path(folder), minutes, think=think))
        if only in (None, "telegram"):
            reports.append(await telegram_table(Path(folder), minutes, think=think))
    return reports


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0,
                        help="minutes of play per platform (default 3)")
    parser.add_argument("--only", choices=("discord", "telegram"),
                        help="measure one platform only")
    parser.add_argument("--think", type=float, nargs=2, default=THINK, metavar=("LOW", "HIGH"),
                        help=f"seconds a person takes for a move (default {THINK[0]:g} to "
                             f"{THINK[1]:g}; people who answer at once: 0.5 1.5)")
    args = parser.parse_args()
    start = time.monotonic()
    for report in asyncio.run(run(args.minutes, args.only, (args.think[0], args.think[1]))):
        print("\n".join(report.lines()))
    print(f"(ran {time.monotonic() - start:.0f} s)")


if __name__ == "__main__":
    main()
