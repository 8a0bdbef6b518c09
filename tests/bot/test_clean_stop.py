"""A clean stop, as `docker stop` and systemd ask for it: SIGTERM to the real bot process in the
middle of a deal, at the settlement, and with posts queued behind a 429. The process exits 0
within 10 s; after a restart the game goes on, and every post the group was owed reaches it
exactly once (docs/architecture.md §6: posts are kept in the database until the platform has them).
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.present.screens import Place, Post, Reply, Screen
from tests.support.bot_process import ProcessGroup
from tests.support.fake_telegram import FakeTelegram
from tests.support.telegram_group import BOB, GROUP, KIM, OLENA, Group

STOP_WITHIN = 10.0
GRACE = 3.0
"""Seconds a stop gives queued messages (`TelegramAdapter.stop`)."""
PEOPLE = (OLENA, BOB, KIM)


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        for user in PEOPLE:
            fake.start_bot(user)
        fake.set_chat(GROUP, title="Доміно по п'ятницях")
        yield fake


def group_posts(server: FakeTelegram) -> list[str]:
    """What the bot posted in the group, in order: one entry per message it sent there (the
    table's later edits are not new posts)."""
    sent = [c for c in server.calls() if c.method in ("sendMessage", "sendPhoto")
            and str(c.params.get("chat_id")) == str(GROUP) and c.ok]
    return [c.caption for c in sent]


def twice(posts: list[str]) -> list[str]:
    return [text for text, n in collections.Counter(posts).items() if n > 1]


async def results(group: ProcessGroup, sid: int) -> int:
    assert group.storage is not None
    rows = await group.storage.db.read("SELECT COUNT(*) FROM deals WHERE session_id = ?", (sid,))
    return int(rows[0][0])


async def owed(group: ProcessGroup) -> int:
    assert group.storage is not None
    rows = await group.storage.db.read("SELECT COUNT(*) FROM posts")
    return int(rows[0][0])


async def all_delivered(group: ProcessGroup, timeout: float = 15.0) -> None:
    """Wait until the group has every post it was owed (none is left in the database)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while await owed(group):
        assert loop.time() < end, f"{await owed(group)} posts never delivered"
        await asyncio.sleep(0.05)


@pytest.mark.real_time
async def test_sigterm_in_the_middle_of_a_deal(server: FakeTelegram, tmp_path: Path) -> None:
    group = ProcessGroup(server, tmp_path / "bot.sqlite3")
    try:
        await group.launch()
        sid = await group.open_game("dragon deals=1", PEOPLE, computers=0)
        await group.play(sid, PEOPLE, until=3)
        code, took = group.terminate()
        assert code == 0, group.process.output
        # The table's edit waiting out its spacing goes at once: the stop needs no grace.
        assert took < GRACE
        assert "Traceback" not in group.process.output
        assert await group.status(sid) == "active"
        before = group_posts(server)
        await group.launch()
        await group.play(sid, PEOPLE)
        assert await group.status(sid) == "finished"
        assert await results(group, sid) == 1
        await all_delivered(group)
        assert len(group_posts(server)) > len(before)
        assert twice(group_posts(server)) == []
    finally:
        await group.close()


@pytest.mark.real_time
async def test_sigterm_at_the_settlement(server: FakeTelegram, tmp_path: Path) -> None:
    """The last move and the signal arrive together: the deal is settled exactly once and its
    result is posted exactly once, before the stop or after the restart."""
    group = ProcessGroup(server, tmp_path / "bot.sqlite3")
    try:
        await group.launch()
        sid = await group.open_game("dragon deals=1", PEOPLE, computers=0)
        await play_to_the_last_move(group, sid)
        press_next_moves(group)
        await asyncio.sleep(0.05)
        code, took = group.terminate()
        assert code == 0, group.process.output
        assert took < STOP_WITHIN
        await group.launch()
        if await group.status(sid) == "active":
            await group.play(sid, PEOPLE)
        assert await group.status(sid) == "finished"
        assert await results(group, sid) == 1
        await all_delivered(group)
        await asyncio.sleep(0.5)
        assert twice(group_posts(server)) == []
    finally:
        await group.close()


async def play_to_the_last_move(group: ProcessGroup, sid: int) -> None:
    """Play until a person is one tile from going out."""

    async def last_move_next() -> bool:
        return await _one_tile_left(group, sid)

    await group.play(sid, PEOPLE, done=last_move_next)


def press_next_moves(group: ProcessGroup) -> None:
    """Everybody presses their next move: the one that ends the deal is among them."""
    for user in PEOPLE:
        moves, hand = group.moves(user), group.hand(user)
        if moves and hand is not None:
            group.press(user, hand, moves[0])


async def _one_tile_left(group: ProcessGroup, sid: int) -> bool:
    """Someone is one tile from going out: their next move may end the deal."""
    assert group.storage is not None
    session = await group.storage.sessions.get(sid)
    assert session is not None and session.state is not None
    from bot.session.seating import Game
    game = Game.of(session)
    state = game.state(session)
    counts = [len(game.rules.view(state, seat).hand) for seat in range(len(PEOPLE))]
    return min(counts) <= 1


@pytest.mark.real_time
async def test_sigterm_with_posts_queued_behind_a_429(server: FakeTelegram, tmp_path: Path
                                                      ) -> None:
    """Telegram holds the group's posts back for a minute: the stop does not wait for it,
    keeps what it owes and posts it, once, after the restart."""
    group = ProcessGroup(server, tmp_path / "bot.sqlite3")
    try:
        await group.launch()
        sid = await group.open_game("dragon deals=1", PEOPLE, computers=0)
        await play_to_the_last_move(group, sid)
        for method in ("sendMessage", "sendPhoto"):  # a minute's flood wait from now on
            server.fail_next(method, 429, retry_after=60, count=1000, chat_id=GROUP)
        press_next_moves(group)
        await group.play(sid, PEOPLE)
        assert await group.status(sid) == "finished"
        await server.wait_for(lambda: any(not c.ok for c in server.calls("sendPhoto"))
                              or any(not c.ok for c in server.calls("sendMessage")))
        assert await owed(group) > 0
        code, took = group.terminate()
        assert code == 0, group.process.output
        assert took < STOP_WITHIN
        assert await owed(group) > 0, "what the group is owed is kept for the next start"
        server.clear_faults()
        before = group_posts(server)
        await group.launch()
        await all_delivered(group)
        assert len(group_posts(server)) > len(before)
        assert twice(group_posts(server)) == []
    finally:
        await group.close()


async def test_one_grace_for_every_chat_held_back(server: FakeTelegram, tmp_path: Path) -> None:
    """Three chats whose posts flood control holds back: the stop gives them one grace in all,
    not one each after the other (which would take the process past its 10 s)."""
    group = Group(server, tmp_path / "db")
    bot = await group.start()
    chats = (GROUP, GROUP - 1, GROUP - 2)
    try:
        for chat in chats:
            server.fail_next("sendMessage", 429, retry_after=60, count=100, chat_id=chat)
        for sid, chat in enumerate(chats, 1):
            await bot.deliver(Reply(session_id=sid, place=Place(str(chat)),
                                    posts=[Post(Screen(f"result {sid}"))]))
        await server.wait_for(lambda: len([c for c in server.calls("sendMessage")
                                           if not c.ok]) >= len(chats))
        loop = asyncio.get_running_loop()
        began = loop.time()
        await bot.settle(3.0)
        assert loop.time() - began < 3.5
    finally:
        await group.stop()
