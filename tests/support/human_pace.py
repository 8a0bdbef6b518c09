"""Four people playing at a human pace on each platform, and what they see measured.

Each person looks at their screen a few times a second, as people do: when their tiles offer
moves they think two to five seconds (`THINK`, or the span a caller gives: people who answer at
once) and press one; on Discord, when a ping names them (their tiles are not open, or were
opened too long ago), they press its "My tiles" a second or two later. Nobody reads the code: a
ping that never comes leaves its player waiting, as it would.

What is measured, against the platform's fake (which keeps its limits: Discord's per-channel
rate limits, Telegram's 20 group messages a minute):

- table lag: for every change the session layer makes to the table, how long until the chat's
  table message shows it, or a later state (an edit that coalesced it away shows the newer);
- ping lateness: for every turn whose player must be told (Discord: a mention in the channel,
  when their hand is not live; Telegram: their hand sent anew in the private chat), how long
  until it arrives;
- channel calls a minute, and how many calls the platform refused for going too fast.

The same code runs on a virtual-time loop in the tests (minutes of play in seconds) and
on the real clock in `benchmarks/table_lag.py`.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from telegram import Update

from bot.discord.discord_messages import EMBED_LIMIT, shown_text
from bot.present.screens import Reply
from bot.telegram.telegram_adapter import TelegramBot
from bot.telegram.telegram_messages import CAPTION_LIMIT
from storage import Storage
from tests.support.discord_server import CHANNEL, Server, custom_ids
from tests.support.fake_discord import User as DiscordUser
from tests.support.fake_telegram import FakeTelegram
from tests.support.fake_telegram import User as TelegramUser
from tests.support.virtual_time import wall_clock

GAME = "tails"
THINK = (2.0, 5.0)
"""Seconds a person takes for a move."""
NOTICE = (0.5, 2.0)
"""Seconds a person takes to answer a ping."""
LOOK = 0.25
"""How often a person looks at their screen."""


@dataclass
class Report:
    platform: str
    minutes: float
    table_lags: list[float] = field(default_factory=list)
    ping_lateness: list[float] = field(default_factory=list)
    pings_missing: int = 0
    channel_calls: int = 0
    refused_too_fast: int = 0
    moves: int = 0
    problems: list[str] = field(default_factory=list)
    never_came: list[str] = field(default_factory=list)
    """Each notice that never arrived: whom it was for, and when it was due."""

    def lines(self) -> list[str]:
        def pct(values: list[float], q: float) -> str:
            if not values:
                return "—"
            ordered = sorted(values)
            return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))]:.2f}"
        return [
            f"{self.platform}: {self.minutes:.1f} min, {self.moves} moves, "
            f"{len(self.table_lags)} table changes",
            f"  table lag s: p50 {pct(self.table_lags, 0.5)}, p95 {pct(self.table_lags, 0.95)}, "
            f"max {pct(self.table_lags, 1.0)}",
            f"  ping lateness s: {len(self.ping_lateness)} pings, "
            f"p50 {pct(self.ping_lateness, 0.5)}, max {pct(self.ping_lateness, 1.0)}, "
            f"{self.pings_missing} never came",
            f"  channel calls a minute: {self.channel_calls / max(self.minutes, 1e-9):.1f}; "
            f"refused as too fast: {self.refused_too_fast}",
            *(f"  never came: {missing}" for missing in self.never_came),
        ]


def table_lags(changes: list[tuple[float, str]], writes: list[tuple[float, str]]
               ) -> list[float]:
    """For each change (time, text), the time until a write showed it or a later change."""
    lags: list[float] = []
    for i, (at, _) in enumerate(changes):
        later = {text for t, text in changes[i:]}
        shown = next((t for t, text in writes if t >= at and text in later), None)
        if shown is not None:
            lags.append(shown - at)
    return lags


def lateness(due: list[tuple[float, str]], arrived: list[tuple[float, str]]
             ) -> tuple[list[float], list[tuple[float, str]]]:
    """For each (time, user) due a notice, the time until one reached them; and those that
    never did."""
    found: list[float] = []
    missing: list[tuple[float, str]] = []
    for at, user in due:
        first = next((t for t, who in arrived if who == user and t >= at), None)
        if first is None:
            missing.append((at, user))
        else:
            found.append(first - at)
    return found, missing


def never_came(missing: list[tuple[float, str]], start: float, end: float,
               arrived: list[tuple[float, str]]) -> list[str]:
    """Each missing notice told so that a failure explains itself: when it was due, against
    the end of play, and the last notice its player did get."""
    told = []
    for at, user in missing:
        last = max((t for t, who in arrived if who == user), default=None)
        before = f"{last - start:.2f} s in" if last is not None else "never"
        side = "before" if at <= end else "after"
        told.append(f"{user}'s turn, due {at - start:.2f} s in ({abs(end - at):.2f} s {side} "
                    f"the end of play); their last notice came {before}")
    return told


class Pace:
    """When people act: a seeded generator of human delays, on the running loop's clock."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    async def think(self, span: tuple[float, float]) -> None:
        await asyncio.sleep(self.rng.uniform(*span))


# ----- Discord ----------------------------------------------------------------------------------

DISCORD_PEOPLE = (DiscordUser(101, "Олена", "uk"), DiscordUser(102, "Bob", "en-US"),
                  DiscordUser(103, "Кім", "uk"), DiscordUser(104, "Ann", "en-US"))


async def discord_table(folder: Path, minutes: float, seed: int = 1,
                        think: tuple[float, float] = THINK) -> Report:
    loop = asyncio.get_running_loop()
    server = Server(folder / "discord.sqlite3", timing=None, channel_budget=None,
                    game_clock=wall_clock())
    bot = await server.start()
    fake = server.fake
    assert fake is not None
    changes: list[tuple[float, str]] = []
    due: list[tuple[float, str]] = []
    deliver = bot.deliver

    async def watching(reply: Reply) -> None:
        now = loop.time()
        if reply.table is not None:
            changes.append((now, shown_text(reply.table, EMBED_LIMIT)))
        for update in reply.hands:
            hand = bot.hands.get((reply.session_id or 0, update.user))
            # (a player whose own press started their turn sees it on the hand they pressed)
            if update.fresh and update.screen.keyboard and update.user not in bot._opening \
                    and (hand is None or not bot._live(hand)):
                due.append((now, update.user))
        await deliver(reply)
    bot.manager.deliver = watching
    report = Report("discord", minutes)
    pace = Pace(seed)
    start = loop.time()
    try:
        await server.command(DISCORD_PEOPLE[0], "newgame", {"game": GAME})
        for user in DISCORD_PEOPLE[1:]:
            await server.press(user, server.table(), server.data(server.table(), "!join"))
        await server.press(DISCORD_PEOPLE[0], server.table(),
                           server.data(server.table(), "!start"))
        end = loop.time() + minutes * 60

        async def person(user: DiscordUser) -> None:
            answered: set[str] = set()
            played: set[str] = set()
            while loop.time() < end:
                await asyncio.sleep(LOOK)
                ping = next((m for m in reversed(server.channel())
                             if f"<@{user.id}>" in (m.get("content") or "")), None)
                if ping is not None and ping["id"] not in answered:
                    answered.add(ping["id"])
                    await pace.think(NOTICE)
                    await server.act_now(server.button_of(user, ping, "!hand"))
                    continue
                hand = server.hand(user)
                moves = [c for c in custom_ids(hand) if "!" not in c] if hand else []
                if moves and moves[0] not in played:
                    played.add(moves[0])
                    await pace.think(think)
                    hand = server.hand(user)
                    if hand is not None and moves[0] in custom_ids(hand):
                        await server.act_now(server.button_of(user, hand, moves[0]))
                        report.moves += 1
                elif user is DISCORD_PEOPLE[0] and await again(server):
                    # The match is over: its first player plays again with the same people.
                    await pace.think(NOTICE)
                    await server.act_now(server.button_of(user, server.results()[-1], "!again"))
                    await server.drain()
                    await server.act_now(server.button_of(user, server.table(), "!start"))

        await asyncio.gather(*(person(u) for u in DISCORD_PEOPLE))
        await bot.drain()
    finally:
        report.minutes = (loop.time() - start) / 60
        await server.stop()
    prefix = f"/channels/{CHANNEL}/messages"
    writes = [(c.at, ((c.json or {}).get("embeds") or [{}])[0].get("description", ""))
              for c in fake.calls if c.path.startswith(prefix) and c.status < 300
              and c.method in ("POST", "PATCH") and isinstance(c.json, dict)]
    report.table_lags = table_lags(changes, writes)
    arrived = [(c.at, user) for c in fake.calls
               if c.method == "POST" and c.path == prefix and c.status < 300
               and isinstance(c.json, dict)
               for user in _mentioned(c.json.get("content") or "")]
    report.ping_lateness, missing = lateness(due, arrived)
    report.pings_missing = len(missing)
    report.never_came = never_came(missing, start, end, arrived)
    report.channel_calls = len(fake.channel_calls(CHANNEL))
    report.refused_too_fast = len(fake.limited)
    report.problems = list(fake.problems)
    return report


async def again(server: Server) -> bool:
    """The match is over (its table has no buttons left) and nothing is open yet."""
    assert server.storage is not None
    sessions = await server.storage.sessions.open_sessions()
    return not sessions


def _mentioned(content: str) -> list[str]:
    return [part.split(">")[0] for part in content.split("<@")[1:]]


# ----- Telegram ---------------------------------------------------------------------------------

GROUP = -1003000
TELEGRAM_PEOPLE = (TelegramUser(201, "Олена", "uk"), TelegramUser(202, "Bob", "en"),
                   TelegramUser(203, "Кім", "uk"), TelegramUser(204, "Ann", "en"))
TABLE_CALLS = ("sendPhoto", "sendMessage", "editMessageMedia", "editMessageCaption",
               "editMessageText")


async def telegram_table(folder: Path, minutes: float, seed: int = 1,
                         think: tuple[float, float] = THINK) -> Report:
    loop = asyncio.get_running_loop()
    report = Report("telegram", minutes)
    pace = Pace(seed)
    with FakeTelegram(clock=loop.time) as fake:
        for user in TELEGRAM_PEOPLE:
            fake.start_bot(user)
        fake.set_chat(GROUP, title="Human pace")
        storage = await Storage.open(folder / "telegram.sqlite3")
        bot = TelegramBot("123456:PACE", storage, api_url=fake.url, clock=wall_clock())
        changes: list[tuple[float, str]] = []
        due: list[tuple[float, str]] = []
        deliver = bot.deliver

        async def watching(reply: Reply) -> None:
            now = loop.time()
            if reply.table is not None:
                changes.append((now, reply.table.text[:CAPTION_LIMIT]))
            for update in reply.hands:
                if update.fresh and update.screen.keyboard:
                    due.append((now, update.user))
            await deliver(reply)
        bot.manager.deliver = watching
        await bot.start(polling=False)

        async def hand_over() -> None:
            for raw in fake.take_updates():
                await bot.app.update_queue.put(Update.de_json(raw, bot.app.bot))
            await asyncio.sleep(0)

        async def act(step: Callable[[], Any]) -> None:
            step()
            await hand_over()

        start = loop.time()
        try:
            first = TELEGRAM_PEOPLE[0]
            await act(lambda: fake.send_text(first, GROUP, f"/newgame {GAME}"))
            await _until(lambda: _lobby(fake) is not None)
            for user in TELEGRAM_PEOPLE[1:]:
                await act(lambda u=user: fake.send_text(u, u.id, "/start j_1"))
            await _until(lambda: (_lobby(fake) or _Nothing).content.count("\n") >= 6)
            lobby = _lobby(fake)
            assert lobby is not None
            start_data = next(d for d in lobby.button_data() if d.endswith("!start"))
            await act(lambda: fake.press(first, GROUP, lobby.message_id, start_data))
            end = loop.time() + minutes * 60

            async def person(user: TelegramUser) -> None:
                played: set[str] = set()
                while loop.time() < end:
                    await asyncio.sleep(LOOK)
                    hand = fake.latest(user.id, photo=True)
                    moves = [d for d in hand.button_data() if "!" not in d] if hand else []
                    if not moves or moves[0] in played:
                        continue
                    played.add(moves[0])
                    await pace.think(think)
                    now = fake.latest(user.id, photo=True)
                    if now and moves[0] in now.button_data():
                        await act(lambda m=now, d=moves[0], u=user: fake.press(
                            u, u.id, m.message_id, d))
                        report.moves += 1

            await asyncio.gather(*(person(u) for u in TELEGRAM_PEOPLE))
            # A press made just before the end may still be on the bot's queue, or its handler
            # still waiting for the database: what it makes the bot send is queued only once it
            # is handled, and `drain` waits only for what is queued.
            await bot.app.update_queue.join()
            await bot.drain()
        finally:
            report.minutes = (loop.time() - start) / 60
            await bot.stop()
            await storage.close()
        writes = [(c.at, c.caption) for c in fake.group_calls(GROUP)
                  if c.ok and c.method in TABLE_CALLS]
        report.table_lags = table_lags(changes, writes)
        arrived = [(c.at, str(c.chat_id)) for c in fake.calls("sendPhoto")
                   if c.ok and c.chat_id is not None and c.chat_id > 0]
        report.ping_lateness, missing = lateness(due, arrived)
        report.pings_missing = len(missing)
        report.never_came = never_came(missing, start, end, arrived)
        report.channel_calls = len([c for c in fake.group_calls(GROUP) if c.ok])
        report.refused_too_fast = len([c for c in fake.calls() if not c.ok
                                       and (c.error or "").startswith("Too Many Requests")])
    return report


class _Nothing:
    content = ""


def _lobby(fake: FakeTelegram) -> Any:
    for message in reversed(fake.messages(GROUP)):
        if any(d.endswith("!start") for d in message.button_data()):
            return message
    return None


async def _until(check: Callable[[], bool], limit: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while not check():
        assert loop.time() < end, "timed out waiting"
        await asyncio.sleep(0.1)
