"""A Discord server for end-to-end tests: the real adapter on a real `discord.Client`, HTTP
answered by `tests.support.fake_discord`, people acting through gateway-shaped interactions."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.discord.discord_adapter import DiscordBot
from bot.present.screens import Reply
from bot.session.manager import Timing
from bot.session.outbox import Budget
from storage import Storage
from tests.support.fake_discord import (
    DEFAULT_CHANNEL_ID,
    DEFAULT_GUILD_ID,
    EPHEMERAL,
    FakeDiscord,
    User,
    button,
    login,
    select,
    slash,
)
from tests.support.virtual_time import wall_clock

QUICK = Timing(computer_delay=0.02, deal_pause=0.05, restore_grace=0.0)
UNLIMITED = Budget(cap=None, spacing=0.0)
CHANNEL = DEFAULT_CHANNEL_ID
GUILD = DEFAULT_GUILD_ID
OLENA = User(101, "Олена", "uk")
BOB = User(102, "Bob", "en-US")
KIM = User(103, "Кім", "uk")
STRANGER = User(104, "Stranger", "en-US")
JSON = dict[str, Any]


class Server:
    """One bot process on one database, and what people on the server do with it."""

    def __init__(self, db: Path, timing: Timing | None = QUICK, fake: FakeDiscord | None = None,
                 channel_budget: Budget | None = UNLIMITED,
                 game_clock: Callable[[], float] | None = None) -> None:
        """`timing` and `channel_budget` None: the bot's own (a real pace); by default the
        quick ones of tests that look only at what is shown. The game clock is by default the
        test loop's (`virtual_time.wall_clock`)."""
        self.db = db
        self.timing = timing
        self.channel_budget = channel_budget
        self.game_clock = game_clock
        self.bot: DiscordBot | None = None
        self.storage: Storage | None = None
        self.fake = fake
        self.replies: list[Reply] = []
        """Everything the session layer asked the adapter to show, in order."""

    async def start(self) -> DiscordBot:
        self.storage = await Storage.open(self.db)
        self.bot = DiscordBot("fake-token", self.storage, timing=self.timing,
                              channel_budget=self.channel_budget,
                              game_clock=self.game_clock or wall_clock())
        deliver = self.bot.manager.deliver
        assert deliver is not None

        async def recording(reply: Reply) -> None:
            self.replies.append(reply)
            await deliver(reply)
        self.bot.manager.deliver = recording
        if self.fake is None:
            self.fake = FakeDiscord.install(self.bot.client)
        else:  # a restart: the same Discord, a new process
            old = self.fake
            self.fake = FakeDiscord.install(self.bot.client)
            self.fake.messages = old.messages
            self.fake._interactions = old._interactions
            self.fake.users, self.fake.channels = old.users, old.channels
        await login(self.bot.client)  # runs setup: templates, commands, open games
        await self.drain()
        return self.bot

    async def stop(self) -> None:
        if self.bot is not None:
            await self.bot.stop()
            self.bot = None
        if self.storage is not None:
            await self.storage.close()
            self.storage = None

    async def drain(self) -> None:
        assert self.bot is not None
        await self.bot.drain()

    # ----- what people do -----------------------------------------------------------------------

    async def act(self, payload: JSON) -> JSON:
        """Deliver an interaction as the gateway would and wait until its handler, and what it
        queued, are done. Returns the payload (its token identifies the answers)."""
        await self.act_now(payload)
        await self.drain()
        return payload

    async def act_now(self, payload: JSON) -> JSON:
        """Deliver an interaction and wait for its handler only: what it queued goes out at
        the bot's own pace while people go on."""
        assert self.bot is not None and self.fake is not None
        self.fake.register(payload)
        before = set(asyncio.all_tasks())
        self.bot.client._connection.parse_interaction_create(copy.deepcopy(payload))  # type: ignore[arg-type]
        handlers = [t for t in asyncio.all_tasks() - before
                    if t.get_name().startswith(("CommandTree", "discord-ui"))]
        if handlers:
            done, pending = await asyncio.wait(handlers, timeout=10)
            assert not pending, f"handlers still running: {pending}"
            for task in done:
                if task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
        return payload

    def button_of(self, user: User, message: JSON, ending: str) -> JSON:
        """`user` pressing the button of `message` whose custom id ends with `ending`."""
        custom = self.data(message, ending)
        return button(custom, user=user, message=message,
                      ephemeral_message=message.get("ephemeral", False))

    async def command(self, user: User, name: str, options: dict[str, Any] | None = None,
                      **where: Any) -> str:
        """A slash command; returns the text of its answer (an embed's description or content)."""
        payload = await self.act(slash(name, options or {}, user=user, **where))
        return self.answer_text(payload)

    async def press(self, user: User, message: JSON, custom_id: str) -> str:
        """A button on a message the fake shows; returns the ephemeral toast, if any."""
        assert custom_id in custom_ids(message), f"{custom_id} is not on {custom_ids(message)}"
        payload = await self.act(button(custom_id, user=user, message=message,
                                        ephemeral_message=message.get("ephemeral", False)))
        return self.answer_text(payload)

    async def choose(self, user: User, message: JSON, custom_id: str, values: list[str]) -> str:
        assert custom_id in custom_ids(message), f"{custom_id} is not on {custom_ids(message)}"
        payload = await self.act(select(custom_id, values, user=user, message=message,
                                        ephemeral_message=message.get("ephemeral", False)))
        return self.answer_text(payload)

    def answers(self, payload: JSON) -> list[JSON]:
        """The messages that answered one interaction (its reply, followups), oldest first."""
        assert self.fake is not None
        return sorted((m for m in self.fake.messages.values()
                       if m["interaction_token"] == payload["token"]), key=lambda m: int(m["id"]))

    def answer_text(self, payload: JSON) -> str:
        return "\n".join(text_of(m) for m in self.answers(payload))

    # ----- what people see ----------------------------------------------------------------------

    def channel(self) -> list[JSON]:
        assert self.fake is not None
        return self.fake.channel_messages(CHANNEL)

    def data(self, message: JSON, ending: str) -> str:
        found = [c for c in custom_ids(message) if c.endswith(ending)]
        assert found, f"no {ending} on {custom_ids(message)}"
        return found[0]

    def table(self) -> JSON:
        """The newest message with game buttons (the lobby or the table)."""
        for message in reversed(self.channel()):
            if any("!start" in c or "!peek" in c for c in custom_ids(message)):
                return message
        raise AssertionError([text_of(m) for m in self.channel()])

    def results(self) -> list[JSON]:
        return [m for m in self.channel() if attachment_names(m) == ["result.png"]]

    def hand(self, user: User) -> JSON | None:
        """The user's newest ephemeral hand."""
        assert self.fake is not None
        hands = [m for m in self.fake.ephemerals_for(user.id)
                 if "hand.png" in attachment_names(m)]
        return hands[-1] if hands else None

    async def my_tiles(self, user: User) -> JSON:
        """Press "My tiles" (on the table, or on the newest ping if the table is gone) and
        return the ephemeral hand it brings."""
        shown = next(m for m in reversed(self.channel())
                     if any(c.endswith("!hand") for c in custom_ids(m)))
        data = next(c for c in custom_ids(shown) if c.endswith("!hand"))
        await self.press(user, shown, data)
        hand = self.hand(user)
        assert hand is not None, "no hand shown"
        return hand

    async def wait_for(self, check: Callable[[], bool], timeout: float = 10.0) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not check():
            assert loop.time() < end, "timed out waiting"
            await asyncio.sleep(0.02)
            await self.drain()


def custom_ids(message: JSON) -> list[str]:
    found = []
    for row in message.get("components") or []:
        for component in row.get("components", []):
            if "custom_id" in component:
                found.append(component["custom_id"])
    return found


def components(message: JSON) -> list[JSON]:
    return [c for row in message.get("components") or [] for c in row.get("components", [])]


def text_of(message: JSON) -> str:
    parts = [message.get("content") or ""]
    parts += [e.get("description") or "" for e in message.get("embeds") or []]
    return "\n".join(p for p in parts if p)


def attachment_names(message: JSON) -> list[str]:
    return [a["filename"] for a in message.get("attachments") or []]


def is_ephemeral(message: JSON) -> bool:
    return bool(message.get("flags", 0) & EPHEMERAL) or bool(message.get("ephemeral"))
