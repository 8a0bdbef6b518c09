"""Four people on each platform, on a virtual clock: what they see keeps up with their pace.

Against fakes that keep each platform's limits, every change of the table reaches the chat
within `LAG`, every player who must be told that their turn began is told within it, and the
platform never has to refuse a call for coming too fast. Each case catches its own faults:

- Human pace, five minutes on each platform at a move every two to five seconds. Telegram's
  limits count messages a minute, and five minutes meet them five times over: a group budget
  that holds the table back, at 12 calls a minute instead of 20 or with edits 6 s apart
  instead of 4, fails within them. Discord's count calls a few seconds at a time: a channel
  budget of one call in 6 s instead of 1 s fails within five minutes. Discord's 15-minute
  interaction tokens do not run out at this pace, since every press brings a new one (a bot
  that believed they last 16 minutes passed twenty minutes of play as well as five); a token
  that has run out is checked in `tests/bot/test_discord_e2e.py` and
  `tests/bot/test_discord_watch.py`. At this pace the table changes some 15 times a minute,
  below Telegram's 20 group calls, so this case cannot catch a group budget that holds the
  table back too little: with no cap at all, or with edits 2 s apart, it passes.
- People who answer at once, one minute on Telegram at a move every half second to a second
  and a half: the table changes some 50 times a minute, so it is the group budget that keeps
  the bot under Telegram's 20. With no cap, or with no cap and edits 2 s apart, Telegram
  refuses calls within the minute; with the cap kept and edits 2 s apart, the table falls
  some 20 s behind once the cap is spent. It catches the cap of 12 and the edits 6 s apart as
  well. Discord has no such case: its channel budget has no cap (discord.py waits by the
  limits Discord reports for each channel), and a channel outbox with no spacing at all, at
  this pace, was neither refused nor late, so the case would catch nothing of the budget.

`benchmarks/table_lag.py` runs the human pace on the real clock.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import virtual_time
from tests.support.human_pace import Report, discord_table, telegram_table

DISCORD_MINUTES = 5
TELEGRAM_MINUTES = 5
LAG = 5.0
"""Seconds until the latest table is in the chat. Telegram's group budget edits the table at
most every 4 s, and those 15 edits a minute leave 5 of its 20 calls for what is posted (a
deal's result, the next deal's table: the fast case makes at most 18 in any minute), so its cap
never holds the table back at these paces; a second more is for drawing and sending it. On
Discord the table is edited at most every second."""
PER_MINUTE = 7.5
"""Moves, and changes of the table, a minute at least: four people at this pace make some 15."""
FAST_MINUTES = 1
FAST_THINK = (0.5, 1.5)
"""Seconds a person who answers at once takes for a move."""
FAST_PER_MINUTE = 30.0
"""Moves, and changes of the table, a minute at least at the fast pace: four people make some
45, well over Telegram's 20 group calls a minute."""


def check(report: Report, minutes: int, per_minute: float = PER_MINUTE) -> None:
    summary = "\n".join(report.lines())
    # (a refused call is checked first: the wait it imposes slows the game and the table, and
    # it is the cause that a failure should name)
    assert report.refused_too_fast == 0, summary
    assert report.problems == [], summary
    assert report.moves > per_minute * minutes, summary
    assert len(report.table_lags) > per_minute * minutes, summary
    assert max(report.table_lags) <= LAG, summary
    assert report.ping_lateness and max(report.ping_lateness) <= LAG, summary
    assert report.pings_missing == 0, summary


@pytest.mark.timeout(240)
def test_discord_keeps_up_with_four_people(tmp_path: Path) -> None:
    check(virtual_time.run(discord_table(tmp_path, DISCORD_MINUTES)), DISCORD_MINUTES)


@pytest.mark.timeout(240)
def test_telegram_keeps_up_with_four_people(tmp_path: Path) -> None:
    check(virtual_time.run(telegram_table(tmp_path, TELEGRAM_MINUTES)), TELEGRAM_MINUTES)


@pytest.mark.timeout(240)
def test_telegram_keeps_within_its_limits_when_people_answer_at_once(tmp_path: Path) -> None:
    report = virtual_time.run(telegram_table(tmp_path, FAST_MINUTES, think=FAST_THINK))
    check(report, FAST_MINUTES, FAST_PER_MINUTE)
