"""Seasons through the session layer, on the virtual clock set a little before a month ends: the
season's end is posted once, with its podium, also after a restart and when the process that
wrote the post stopped before the chat had it; `/top`, `/top all`, `/top season N`, `/stats`
and `/settings season` answer as docs/playing.md says, and what they cannot take gets one clear
sentence (docs/playing.md, `bot.deals.seasons`, `bot.deals.leaderboards`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from bot.present.screens import Reply, Screen
from bot.session.commands import Commands
from bot.session.manager import SessionManager, Timing
from tests.support.session_helpers import (
    BOB,
    OLENA,
    PLACE,
    Recorder,
    anyone,
    close,
    lobby,
    manager,
    nobody,
    play_out,
)
from words.i18n import tr

QUICK = Timing(computer_delay=0.0, deal_pause=0.01, restore_grace=0.0, lease=3.0)
MONTH_END = datetime(2027, 2, 1, tzinfo=UTC).timestamp()


def month_end_clock(before: float) -> Callable[[], float]:
    """Seconds since the epoch on the test's loop, `before` seconds short of February."""
    loop = asyncio.get_running_loop()
    base = MONTH_END - before - loop.time()
    return lambda: base + loop.time()


async def started(path: Path, clock: Callable[[], float]) -> tuple[SessionManager, Recorder]:
    """A manager on the month's clock whose posts reach the chat (and are noted delivered, as an
    adapter notes them), joined to the processes sharing the database."""
    m, rec = await manager(path, QUICK)
    m.storage.db.clock = clock
    m.clock = clock

    async def deliver(reply: Reply) -> None:
        await rec(reply)
        for post in reply.posts:
            if post.key is not None:
                await m.delivered(post.key)
    m.deliver = deliver
    await m.restore()
    return m, rec


def podiums(rec: Recorder) -> list[Screen]:
    return [p for p in rec.posts if p.picture is not None and p.picture.kind == "podium"]


async def command(m: SessionManager, name: str, *words: str) -> str:
    reply = await Commands(m).run(name, PLACE, OLENA, list(words), anyone)
    assert reply.answer is not None
    return reply.answer.text


async def test_a_season_ends_with_one_podium_and_the_board_starts_again(tmp_path):
    clock = month_end_clock(600)
    m, rec = await started(tmp_path / "db", clock)
    try:
        await lobby(m, rec, ["dragon", "deals=2"], [OLENA, BOB])
        await play_out(m, rec, [OLENA, BOB])
        chat_id, _ = await m.chat_of(PLACE)
        balances = await m.storage.accounts.balances(chat_id, [await m.user_of(OLENA),
                                                               await m.user_of(BOB)])
        now = await command(m, "top")
        assert now.startswith(tr("uk", "top.season_title", number=1, span="січень 2027",
                                 page=1))
        assert "01.02.2027 00:00" in now
        assert not podiums(rec)
        await asyncio.sleep(MONTH_END - clock() + 10)  # past midnight, a few sweeps
        [podium] = podiums(rec)
        assert podium.text.startswith(tr("uk", "season.over", number=1, span="січень 2027"))
        assert "🥇" in podium.text and "🥈" in podium.text and "🥉" not in podium.text
        assert podium.picture is not None and len(podium.picture.rows) == 2
        assert len(podium.picture.render()) > 1000
        # The new season starts from zero; the chips stay; season 1 is still there.
        assert (await command(m, "top")).startswith(tr(
            "uk", "top.season_empty", number=2, span="лютий 2027"))
        first = await command(m, "top", "season", "1")
        assert first.startswith(tr("uk", "top.season_over_title", number=1,
                                   span="січень 2027", page=1))
        assert await m.storage.accounts.balances(chat_id, list(balances)) == balances
        everyone = await command(m, "top", "all")
        assert everyone.startswith(tr("uk", "top.title", page=1))
        stats = await command(m, "stats")
        assert tr("uk", "stats.seasons") in stats and "сезон 1 (січень 2027)" in stats
    finally:
        await close(m)
    # A restart writes nothing again and posts nothing again.
    m, rec = await started(tmp_path / "db", clock)
    try:
        await asyncio.sleep(30)
        assert not podiums(rec)
        assert len(await m.storage.seasons.ended(chat_id)) == 1
    finally:
        await close(m)


async def test_a_podium_the_process_never_delivered_is_delivered_by_the_next(tmp_path):
    clock = month_end_clock(300)
    m, rec = await started(tmp_path / "db", clock)
    await lobby(m, rec, ["dragon", "deals=1"], [OLENA, BOB])
    await play_out(m, rec, [OLENA, BOB])

    async def lost(keys: list[int]) -> None:
        """The post is written, and the process stops before the chat has it."""
    m.seasons.post = lost  # type: ignore[method-assign]
    await asyncio.sleep(MONTH_END - clock() + 5)
    chat_id, _ = await m.chat_of(PLACE)
    assert await m.storage.seasons.ended(chat_id) and not podiums(rec)
    # It stops sweeping without a word to the others (as a process killed would): its row
    # stays until its lease runs out, and then the next process takes its post over.
    m.requests.worker.closed = True
    await m.timers.close()
    with_pid_alive = m.storage
    other, again = await started(tmp_path / "db", clock)
    try:
        await asyncio.sleep(QUICK.lease * 3)
        [podium] = podiums(again)
        assert podium.text.startswith(tr("uk", "season.over", number=1, span="січень 2027"))
        await asyncio.sleep(QUICK.lease * 3)
        assert len(podiums(again)) == 1
    finally:
        await close(other)
        await with_pid_alive.close()


async def test_changing_the_season_ends_the_one_under_way_and_bad_words_get_an_answer(
        tmp_path):
    clock = month_end_clock(20 * 86_400)
    m, rec = await started(tmp_path / "db", clock)
    try:
        await lobby(m, rec, ["dragon", "deals=1"], [OLENA, BOB])
        await play_out(m, rec, [OLENA, BOB])
        refused = await Commands(m).run("settings", PLACE, OLENA, ["season", "week"], nobody)
        assert refused.answer is not None
        assert refused.answer.text == tr("uk", "err.admins_only")
        for words in (["season"], ["season", "fortnight"], ["season", "week", "now"]):
            assert await command(m, "settings", *words) == tr("uk", "settings.bad_season")
        assert await command(m, "settings", "season", "month") == tr(
            "uk", "settings.season_same", kind=tr("uk", "season.kind_month"))
        changed = await command(m, "settings", "season", "week")
        assert changed == "\n".join([
            tr("uk", "settings.season_set", kind=tr("uk", "season.kind_week")),
            tr("uk", "settings.season_cut", number=1)])
        assert len(podiums(rec)) == 1
        assert "сезони: тиждень" in await command(m, "settings")
        # Season 2 runs from the change to the end of its week.
        assert (await command(m, "top")).startswith(tr("uk", "top.season_empty", number=2,
                                                       span="12.01 – 17.01.2027"))
        assert await command(m, "settings", "season", "off") == tr("uk",
                                                                   "settings.season_off")
        assert len(podiums(rec)) == 1  # nobody played in season 2: it takes no number
        assert (await command(m, "top")).startswith(tr("uk", "top.title", page=1))
        assert await command(m, "top", "season", "2") == tr("uk", "top.no_season", number=2,
                                                            seasons="1")
        for words in (["week"], ["all", "season", "1"], ["2", "3"], ["deal", "deal"]):
            assert await command(m, "top", *words) == tr("uk", "top.usage")
        assert (await command(m, "top", "season", "1", "deal")).startswith(tr(
            "uk", "top.per_deal_season_empty", number=1, least=10))
    finally:
        await close(m)
