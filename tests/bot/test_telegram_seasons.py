"""A season's end in a Telegram group, through the real `Application` and the fake Bot API, on
the virtual clock set a little before a month ends: the podium comes once, as a photo with its
caption, also after a restart; `/top` then shows the new season and `/top season 1` the one
that ended, with its table as a picture (docs/playing.md)."""

from __future__ import annotations

from pathlib import Path

from tests.bot.test_seasons import MONTH_END, month_end_clock
from tests.support.fake_telegram import FakeTelegram, SentMessage
from tests.support.telegram_group import BOB, GROUP, OLENA, Group
from words.i18n import tr

OVER = tr("uk", "season.over", number=1, span="січень 2027")


async def started(server: FakeTelegram, db: Path, before: float) -> Group:
    group = Group(server, db)
    bot = await group.start()
    assert group.storage is not None
    group.storage.db.clock = bot.manager.clock = month_end_clock(before)
    return group


def podiums(server: FakeTelegram) -> list[SentMessage]:
    return [m for m in server.messages(GROUP) if m.has_photo and (m.caption or "")
            .startswith(OVER)]


async def test_the_group_gets_the_podium_once_and_top_shows_the_new_season(
        server: FakeTelegram, tmp_path: Path) -> None:
    db = tmp_path / "gupai.sqlite3"
    group = await started(server, db, 900)
    try:
        sid = await group.open_game("dragon deals=1", (OLENA, BOB), computers=0)
        await group.play(sid, (OLENA, BOB))
        assert group.storage is not None
        await group.quiet(MONTH_END - group.storage.db.clock() + 20)
        assert group.bot is not None
        await group.bot.drain()
        [podium] = podiums(server)
        assert "🥇" in (podium.caption or "") and "/top season 1" in (podium.caption or "")
        group.say(OLENA, "/top")
        await server.wait_for(lambda: (server.latest(GROUP).content or "").startswith(
            tr("uk", "top.season_empty", number=2, span="лютий 2027")))
        group.say(OLENA, "/top season 1")
        await server.wait_for(lambda: (server.latest(GROUP).caption or "").startswith(
            tr("uk", "top.season_over_title", number=1, span="січень 2027", page=1)))
        assert server.latest(GROUP).has_photo
    finally:
        await group.stop()
    group = await started(server, db, -60)  # a minute into the new season
    try:
        await group.quiet(30)
        assert group.bot is not None
        await group.bot.drain()
        assert len(podiums(server)) == 1
    finally:
        await group.stop()
