"""Four people at a human pace on each platform, on a virtual clock: what they see keeps up.

Five minutes of play on each platform, at a move every two to five seconds, against fakes that
keep each platform's limits. Every change of the table reaches the chat within five seconds, every
player who must be told that their turn began is told within five seconds, and the platform never
has to refuse a call for coming too fast.

Telegram's limits count messages a minute, and five minutes meet them five times over: a group
budget that holds the table back, at 12 calls a minute instead of 20 or with edits 6 s apart
instead of 4, fails within them. Discord's count calls a few seconds at a time: a channel budget
of one call in 6 s instead of 1 s fails within five minutes. Discord's 15-minute interaction
tokens do not run out at this pace, since every press brings a new one (a bot that believed they
last 16 minutes passed twenty minutes of play as well as five); a token that has run out is
checked in `tests/bot/test_discord_e2e.py` and `tests/bot/test_discord_watch.py`.
`benchmarks/table_lag.py` runs the same on the real clock.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import virtual_time
from tests.support.human_pace import Report, discord_table, telegram_table

DISCORD_MINUTES = 5
TELEGRAM_MINUTES = 5
LAG = 5.0
PER_MINUTE = 7.5
"""Moves, and changes of the table, a minute at least: four people at this pace make some 15."""


def check(report: Report, minutes: int) -> None:
    summary = "\n".join(report.lines())
    assert report.moves > PER_MINUTE * minutes, summary
    assert len(report.table_lags) > PER_MINUTE * minutes, summary
    assert max(report.table_lags) <= LAG, summary
    assert report.ping_lateness and max(report.ping_lateness) <= LAG, summary
    assert report.pings_missing == 0, summary
    assert report.refused_too_fast == 0, summary
    assert report.problems == [], summary


@pytest.mark.timeout(240)
def test_discord_keeps_up_with_four_people(tmp_path: Path) -> None:
    check(virtual_time.run(discord_table(tmp_path, DISCORD_MINUTES)), DISCORD_MINUTES)


@pytest.mark.timeout(240)
def test_telegram_keeps_up_with_four_people(tmp_path: Path) -> None:
    check(virtual_time.run(telegram_table(tmp_path, TELEGRAM_MINUTES)), TELEGRAM_MINUTES)
