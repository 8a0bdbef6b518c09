"""A Telegram group for end-to-end tests: the real python-telegram-bot `Application` against
the fake Bot API server (`tests.support.fake_telegram`), people acting through injected updates:
commands in the group, deep links in private chats, presses on the buttons the bot really sent.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.present.screens import Reply, Screen
from bot.session.manager import Timing
from bot.session.outbox import Budget
from bot.telegram.telegram_adapter import TelegramBot
from storage import Storage
from tests.support.fake_telegram import FakeTelegram, SentMessage, User
from tests.support.virtual_time import wall_clock

TOKEN = "123456:TEST-TOKEN-never-real"
GROUP = -1001000
OLENA = User(101, "Олена", "uk")
BOB = User(102, "Bob", "en")
KIM = User(103, "Кім", "uk")
STRANGER = User(104, "Stranger", "en")
PEOPLE = (OLENA, BOB, KIM)
QUICK = Timing(computer_delay=0.02, deal_pause=0.05, restore_grace=0.0)
POLL = 0.05
"""Seconds between two looks for new updates."""
LOOK = 0.25
"""The longest a person waiting in `Group.play` goes without looking at their screen again
when the bot has shown nothing new (what it shows wakes them at once)."""


class Group:
    """One bot process on one database, and what the people in the group do with it."""

    def __init__(self, server: FakeTelegram, db: Path, timing: Timing = QUICK,
                 budget: Budget | None = None, polling: bool = False) -> None:
        """`polling`: the bot fetches its updates by its own long poll (on the real clock)."""
        self.server = server
        self.chat = GROUP
        """The group's chat id (a test may play in several groups)."""
        self.polling = polling
        self.db = db
        self.timing = timing
        self.budget = budget or Budget()
        self.bot: TelegramBot | None = None
        self.storage: Storage | None = None
        self._pump: asyncio.Future[None] | None = None
        self._offset = 0
        self.tables: dict[int, list[Screen]] = {}
        """Every table screen the session layer asked the adapter to show, per session: what
        the group must end up seeing, whatever the outbox coalesced on the way."""

    async def start(self) -> TelegramBot:
        self.storage = await Storage.open(self.db)
        self.bot = TelegramBot(TOKEN, self.storage, api_url=self.server.url, timing=self.timing,
                               group_budget=self.budget, poll_timeout=1, clock=wall_clock())
        deliver = self.bot.manager.deliver
        assert deliver is not None

        async def recording(reply: Reply) -> None:
            if reply.session_id is not None and reply.table is not None:
                self.tables.setdefault(reply.session_id, []).append(reply.table)
            await deliver(reply)
        self.bot.manager.deliver = recording
        await self.bot.start(polling=self.polling)
        if not self.polling:
            self._pump = asyncio.ensure_future(self._hand_over(self.bot))
        return self.bot

    async def _hand_over(self, bot: TelegramBot) -> None:
        """Fetch the server's updates for the bot as its long poll would, but only when there
        are some, and on the test's clock (a long poll waits on the real one)."""
        try:
            while True:
                if self.server.pending_updates():
                    for update in await bot.app.bot.get_updates(offset=self._offset, timeout=0):
                        self._offset = update.update_id + 1
                        await bot.app.update_queue.put(update)
                await asyncio.sleep(POLL)
        finally:
            if self._offset:  # confirm what was fetched, as a stopping poll does
                await bot.app.bot.get_updates(offset=self._offset, timeout=0, limit=1)

    async def stop(self) -> None:
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump
            self._pump = None
        if self.bot is not None:
            await self.bot.stop()
            self.bot = None
        if self.storage is not None:
            await self.storage.close()
            self.storage = None

    # ----- what people do -------------------------------------------------------------------

    def say(self, user: User, text: str, chat: int | None = None, reply_to: int | None = None
            ) -> int:
        """`reply_to`: what `say` returned for the message this one replies to. Returns the
        update_id, which a later reply can name."""
        return self.server.send_text(user, self.chat if chat is None else chat, text,
                                     reply_to=reply_to)

    def press(self, user: User, message: SentMessage, data: str, chat: int | None = None
              ) -> int:
        return self.server.press(user, message.chat_id if chat is None else chat,
                                 message.message_id, data, check_button=False)

    def lobby(self) -> SentMessage:
        for message in reversed(self.server.messages(self.chat)):
            if any("!start" in (d or "") for d in message.button_data()):
                return message
        raise AssertionError(self.server.summary())

    def data(self, message: SentMessage, ending: str) -> str:
        found = [d for d in message.button_data() if d and d.endswith(ending)]
        assert found, f"no {ending} on {message.content!r}"
        return found[0]

    def join_link(self) -> str:
        for row in self.lobby().reply_markup["inline_keyboard"]:
            for button in row:
                if "url" in button and "start=j_" in button["url"]:
                    return button["url"].split("start=")[1]
        raise AssertionError("no join link")

    def hand(self, user: User) -> SentMessage | None:
        return self.server.latest(user.id, photo=True)

    def moves(self, user: User) -> list[str]:
        return moves_on(self.hand(user))

    def groups(self, user: User) -> list[str]:
        """First-tap buttons, when a hand has too many moves for one screen."""
        return groups_on(self.hand(user))

    async def answer_to(self, update_id: int) -> str:
        query = f"cq{update_id}"
        await self.server.wait_for(lambda: any(a.callback_query_id == query
                                               for a in self.server.answers()))
        return next(a.text or "" for a in self.server.answers()
                    if a.callback_query_id == query)

    async def open_game(self, words: str, people: tuple[User, ...], computers: int) -> int:
        self.say(people[0], f"/newgame {words}")
        await self.server.wait_for(lambda: self._has_lobby())
        link = self.join_link()
        for user in people[1:]:
            self.say(user, f"/start {link}", chat=user.id)
        await self.server.wait_for(lambda: self.lobby().content.count("\n") >= 2 + len(people))
        for _ in range(computers):
            await self.answer_to(self.press(people[0], self.lobby(),
                                            self.data(self.lobby(), "!add")))
        answer = await self.answer_to(self.press(people[0], self.lobby(),
                                                 self.data(self.lobby(), "!start")))
        assert answer in ("Гру почато!", "The game begins!"), answer
        return int(link.removeprefix("j_"))

    def _has_lobby(self) -> bool:
        try:
            self.lobby()
        except AssertionError:
            return False
        return True

    async def play(self, sid: int, people: tuple[User, ...], limit: float = 120,
                   until: int | None = None,
                   done: Callable[[], Awaitable[bool]] | None = None,
                   think: Callable[[], Awaitable[None]] | None = None) -> int:
        """Everybody presses their first move when they have one (through its group when the
        moves come in two taps), after `think()` if given (at a person's pace), until the game
        ends, `until` presses were made or `done()` says so; returns the presses made."""
        pressed = 0
        seen: set[str] = set()

        async def loop() -> None:
            nonlocal pressed
            while True:
                made = self.server.made()  # (before looking: a call meanwhile wakes the wait)
                if await self.status(sid) != "active":
                    return
                if until is not None and pressed >= until:
                    return
                if done is not None and await done():
                    return
                acted = False
                for user in people:
                    hand = self.hand(user)
                    moves, groups = moves_on(hand), groups_on(hand)
                    if not moves and groups and hand is not None and groups[0] not in seen:
                        seen.add(groups[0])
                        if think is not None:
                            await think()
                        await self.answer_to(self.press(user, hand, groups[0]))
                        pressed += 1
                        acted = True
                    elif moves and hand is not None and moves[0] not in seen:
                        seen.add(moves[0])
                        if think is not None:
                            await think()
                        await self.answer_to(self.press(user, hand, moves[0]))
                        pressed += 1
                        acted = True
                if not acted:
                    await self.server.next_call(made, LOOK)
        await asyncio.wait_for(loop(), limit)
        return pressed

    async def quiet(self, seconds: float) -> None:
        """Nobody writes for `seconds` (a night, say): the bot's timers run as ever, but no
        update is looked for meanwhile, so the virtual clock goes straight to the bot's next
        timer instead of stepping through a look every `POLL`."""
        assert self.bot is not None and self._pump is not None
        self._pump.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._pump
        await asyncio.sleep(seconds)
        self._pump = asyncio.ensure_future(self._hand_over(self.bot))

    async def status(self, sid: int) -> str:
        assert self.storage is not None
        session = await self.storage.sessions.get(sid)
        assert session is not None
        return session.status


def moves_on(hand: SentMessage | None) -> list[str]:
    """The move buttons on a hand."""
    return [] if hand is None else [d for d in hand.button_data() if d and "!" not in d]


def groups_on(hand: SentMessage | None) -> list[str]:
    """The first-tap buttons on a hand whose moves come in two taps."""
    return [] if hand is None else [d for d in hand.button_data() if d and "!pick-" in d]
