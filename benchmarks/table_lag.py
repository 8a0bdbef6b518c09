"""Table lag and ping lateness of four people playing at a human pace, on the real clock.

`tests/bot/test_live_pace.py` plays twenty minutes (eight on Telegram) on a virtual clock; this
plays the same game (four people, a move every two to five seconds, Korean Tails) in real time
against the same fakes, which keep each platform's limits, so the time spent drawing pictures and
in the libraries counts too. For each platform it prints the table lag (from a change of the game
to the chat's table showing it) p50/p95/max, how late the turn notices were, and the channel calls
a minute. Run by hand:

    .venv/bin/python benchmarks/table_lag.py [--minutes 3] [--only discord|telegram]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.human_pace import Report, discord_table, telegram_table


async def run(minutes: float, only: str | None) -> list[Report]:
    reports = []
    with tempfile.TemporaryDirectory() as folder:
        if only in (None, "discord"):
            reports.append(await discord_table(Path(folder), minutes))
        if only in (None, "telegram"):
            reports.append(await telegram_table(Path(folder), minutes))
    return reports


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0,
                        help="minutes of play per platform (default 3)")
    parser.add_argument("--only", choices=("discord", "telegram"),
                        help="measure one platform only")
    args = parser.parse_args()
    start = time.monotonic()
    for report in asyncio.run(run(args.minutes, args.only)):
        print("\n".join(report.lines()))
    print(f"(ran {time.monotonic() - start:.0f} s)")


if __name__ == "__main__":
    main()
