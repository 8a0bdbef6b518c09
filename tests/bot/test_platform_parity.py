"""Both platforms show the same game: one scripted match through the Telegram adapter and the
Discord adapter, each on its real library and fake server, and the neutral screens the session layer
hands to each adapter are identical (docs/architecture.md §1 invariant 8: only the adapter differs).
"""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path
from typing import Any

import pytest

import bot.session.lobby
import bot.session.manager
import bot.telegram.telegram_http
from bot.present.screens import HandUpdate, Reply, Screen
from bot.session.outbox import Budget
from tests.support.discord_server import Server
from tests.support.fake_discord import User as DiscordUser
from tests.support.fake_telegram import FakeTelegram
from tests.support.fake_telegram import User as TelegramUser
from tests.support.telegram_group import GROUP, QUICK, Group

pytestmark = pytest.mark.timeout(120)

NOW = 1_800_000_000.0
PEOPLE = ((101, "Олена", "uk"), (102, "Bob", "en"))
Neutral = tuple[Any, ...]


def asked_for(reply: Reply) -> bool:
    """A hand shown again on request ("My tiles"): when it is asked for, relative to the
    computer's timed moves, is the test's timing, not the game's, so it is left out."""
    return reply.table is None and not reply.posts and len(reply.hands) == 1 \
        and reply.hands[0].fresh


def neutral(reply: Reply) -> Neutral:
    """What a reply shows, without where (chat ids differ between platforms)."""
    return (reply.table, reply.table_fresh,
            tuple((h.user, h.screen, h.fresh) for h in reply.hands),
            tuple(reply.posts), tuple(reply.private), reply.closed)


def first_move(replies: list[Reply], user: str) -> str | None:
    """The first move button of the newest hand the session layer made for `user`."""
    hands: list[HandUpdate] = [h for r in replies for h in r.hands if h.user == user]
    if not hands:
        return None
    screen: Screen = hands[-1].screen
    return next((b.data for row in screen.keyboard for b in row
                 if b.data and "!" not in b.data), None)


def record(manager: bot.session.manager.SessionManager, into: list[Reply]) -> None:
    deliver = manager.deliver
    assert deliver is not None

    async def recording(reply: Reply) -> None:
        into.append(reply)
        await deliver(reply)
    manager.deliver = recording
    manager.clock = lambda: NOW  # the same countdowns on both sides


async def play_telegram(tmp_path: Path, words: str) -> list[Reply]:
    replies: list[Reply] = []
    people = [TelegramUser(i, n, lang) for i, n, lang in PEOPLE]
    async with FakeTelegram(group_limit=None) as fake:
        for user in people:
            fake.start_bot(user)
        fake.set_chat(GROUP, title="Parity")
        # No group budget: the screens, not the pace, are compared.
        table = Group(fake, tmp_path / "telegram.sqlite3", QUICK, Budget(cap=None, spacing=0.0))
        running = await table.start()
        limiter = running.app.bot.rate_limiter
        assert limiter is not None and limiter._base_limiter is None \
            and not limiter._group_max_rate, "no rate limit: the screens, not the pace"
        # Both offer Watch (Telegram's opens its Mini App, which is not served here: the
        # neutral screens are what is compared).
        running.manager.requests.watching = True
        record(running.manager, replies)
        try:
            table.say(people[0], f"/newgame {words}")
            await fake.wait_for(table._has_lobby)
            link = table.join_link()
            table.say(people[1], f"/start {link}", chat=people[1].id)
            await fake.wait_for(lambda: "Bob" in table.lobby().content)
            await running.drain()
            await table.answer_to(table.press(people[0], table.lobby(),
                                              table.data(table.lobby(), "!add")))
            await running.drain()
            await table.answer_to(table.press(people[0], table.lobby(),
                                              table.data(table.lobby(), "!start")))
            await running.drain()
            for user in people:  # "My tiles": the hand again, as Discord's players ask for it
                table.say(user, f"/start h_{link.removeprefix('j_')}", chat=user.id)
                await fake.wait_for(lambda u=user: table.hand(u) is not None)
                await running.drain()

            async def press(user: TelegramUser, data: str) -> None:
                # The hand the session layer just handed over may still be on its way (a
                # computer's timer can fire after the drain): the move must reach the chat.
                await fake.wait_for(lambda: (hand := table.hand(user)) is not None
                                    and data in hand.button_data())
                hand = table.hand(user)
                assert hand is not None and data in hand.button_data()
                await table.answer_to(table.press(user, hand, data))

            await drive(replies, running.drain, people, press,
                        lambda: table.status(1))
        finally:
            await table.stop()
    return replies


async def play_discord(tmp_path: Path, words: str) -> list[Reply]:
    people = [DiscordUser(i, n, "uk" if lang == "uk" else "en-US") for i, n, lang in PEOPLE]
    server = Server(tmp_path / "discord.sqlite3", QUICK)
    running = await server.start()  # `server.replies` records what the adapter is given
    running.manager.clock = lambda: NOW
    game, *rest = words.split()
    try:
        await server.command(people[0], "newgame", {"game": game, "options": " ".join(rest)})
        await server.press(people[1], server.table(), server.data(server.table(), "!join"))
        await server.press(people[0], server.table(), server.data(server.table(), "!add"))
        await server.press(people[0], server.table(), server.data(server.table(), "!start"))
        for user in people:
            await server.my_tiles(user)

        async def press(user: DiscordUser, data: str) -> None:
            hand = server.hand(user)
            assert hand is not None
            assert await server.press(user, hand, data) == ""

        async def status() -> str:
            assert server.storage is not None
            session = await server.storage.sessions.get(1)
            assert session is not None
            return session.status

        await drive(server.replies, server.drain, people, press, status)
    finally:
        await server.stop()
    return server.replies


async def drive(replies: list[Reply], drain: Any, people: list[Any], press: Any,
                status: Any) -> None:
    """Whoever has a move plays the first one their newest hand offers, until the game ends."""
    for _ in range(400):
        await drain()
        if await status() != "active":
            return
        for user in people:
            data = first_move(replies, str(user.id))
            if data is not None:
                await press(user, data)
                break
        else:
            await asyncio.sleep(0.03)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("words", ["threedozen deals=1", "dragon deals=1"])
async def test_both_platforms_get_the_same_screens(tmp_path: Path, monkeypatch: Any,
                                                   words: str) -> None:
    monkeypatch.setattr(bot.session.lobby.secrets, "token_hex", lambda n=8: "5eed" * n)
    # Telegram's own pace (20 group messages a minute) is tested elsewhere; here only the
    # screens matter.
    limits = functools.partial(bot.telegram.telegram_http.FloodLimits, overall_max_rate=0,
                               group_max_rate=0)
    monkeypatch.setattr(bot.telegram.telegram_http, "FloodLimits", limits)
    telegram = await play_telegram(tmp_path, words)
    discord = await play_discord(tmp_path, words)
    assert len(telegram) > 5
    assert any(r.posts for r in telegram)  # the deal's result was reached
    left = [neutral(r) for r in telegram if not asked_for(r)]
    right = [neutral(r) for r in discord if not asked_for(r)]
    for index, (a, b) in enumerate(zip(left, right, strict=False)):
        assert a == b, f"screen {index} differs:\n{a}\n{b}"
    assert len(left) == len(right)
