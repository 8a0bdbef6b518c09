"""What both chat platforms do alike with the session layer's screens and their users' commands.

docs/architecture.md §5 and §1 invariant 8. A game shows a table in its chat and a hand to each
player. Each is a `Slot`: the newest screen waits in an `Outbox`, which coalesces a burst of moves
into one edit and keeps the platform's pace. A slot's life is the same on every platform: loaded
from the message ids the session keeps, filled by `deliver`, shown by the platform, remembered with
the session, its replaced messages deleted (all in one call where the platform can), and forgotten
once the game's last screen is on it. A slot may keep the messages it replaced a while (a hand's
earlier turns, each already showing no buttons), so that a turn's new message does not cost a
deletion too; they go together later, at the latest with the game's end. A kept post is acknowledged
once the chat has it, or refuses it for good. Commands are routed here too: the four game commands
go to the session layer, the rest to `Commands`, and the ones that need a group are refused
elsewhere with one sentence.

What is truly a platform's own stays in its adapter: how a screen becomes a message, how a hand
reaches its player, which errors mean "try again later".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from bot.present.screens import Actor, Picture, Place, Post, Reply, Screen, Target
from bot.session.commands import Commands
from bot.session.manager import SessionManager
from bot.session.outbox import Budget, Outbox, Pace
from bot.session.requests import IsAdmin
from words.i18n import tr

log = logging.getLogger(__name__)

GAME_COMMANDS = ("newgame", "join", "leave", "stop", "kick", "skip")
CHAT_COMMANDS = ("games", "rules", "chips", "top", "stats", "notify", "lang", "settings", "help")
GROUP_ONLY = ("newgame", "join", "leave", "stop", "kick", "skip", "chips", "top", "stats",
              "notify")
"""Commands about a group's game or chips: refused in a private chat."""

Job = Callable[[], Awaitable[None]]
TABLE_FIRST = 10.0
"""Seconds a new deal's hands wait for its table to be on screen, at most (a table that cannot
be shown must not keep the tiles from their players)."""


@dataclass(slots=True)
class Showing:
    """Something a game keeps on screen, and the newest screen waiting to be shown on it."""

    screen: Screen | None = None
    fresh: bool = False
    """The next screen must be a new message (it notifies: a new deal, the player's turn)."""
    closing: bool = False
    """The game has ended: forget this once its last screen is shown."""
    not_before: asyncio.Event | None = None
    """Set once the table of the deal this shows is on screen: until then it waits."""

    async def table_first(self) -> None:
        """Wait (a while, at most) for the table of a new deal to be on screen."""
        shown = self.not_before
        if shown is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(shown.wait(), TABLE_FIRST)
            if self.not_before is shown:
                self.not_before = None


@dataclass(slots=True)
class Slot(Showing):
    """A message shown in place in one chat: a game's table, a player's hand."""

    where: int = 0
    """The chat (or channel) the message is in."""
    thread: int | None = None
    message_id: int | None = None
    picture: Picture | None = None
    """The picture now shown, so a text-only change does not upload it again."""
    retired: list[int] = field(default_factory=list)
    """Messages this one replaced, deleted once the new one is remembered."""
    kept: list[int] = field(default_factory=list)
    """Messages this one replaced that may stay until they are retired together (remembered
    with the session, so a restart still deletes them)."""
    replacing: bool = False
    """A new message is being sent for it; until it is, `message_id` is the old one."""
    waiting: list[asyncio.Event] = field(default_factory=list)
    """Set once the next screen is shown: the hands of a new deal wait for its table."""

    def anew(self, screen: Screen) -> bool:
        """Whether showing `screen` takes a new message rather than an edit."""
        return self.fresh or self.message_id is None

    def stored(self) -> dict[str, Any]:
        """What the session keeps of the message, to find it again after a restart."""
        if self.kept:
            return {"id": self.message_id, "kept": list(self.kept)}
        return {"id": self.message_id}

    def load(self, stored: dict[str, Any]) -> None:
        self.message_id = stored.get("id")
        kept = stored.get("kept")
        self.kept = [int(k) for k in kept if isinstance(k, int)] if isinstance(kept, list) else []

    def retire_kept(self) -> None:
        """The kept messages go with the next deletion."""
        self.retired.extend(self.kept)
        self.kept.clear()


TableT = TypeVar("TableT", bound=Slot)
HandT = TypeVar("HandT", bound=Showing)


class Adapter(ABC, Generic[TableT, HandT]):
    """A chat platform between the session layer and its users."""

    group_only: ClassVar[str] = "err.group_only"
    """The catalogue key that refuses a group's command in a private chat."""

    def __init__(self, manager: SessionManager) -> None:
        self.manager = manager
        manager.deliver = self.deliver
        self.commands = Commands(manager)
        self.outboxes: dict[int, Outbox] = {}
        self.pace: Pace | None = None
        """The calls of the whole bot, where its platform limits them (set before the first
        outbox is made)."""
        self.tables: dict[int, TableT] = {}
        self.hands: dict[tuple[int, str], HandT] = {}
        manager.metrics.watch_outboxes(self.waiting)

    # ----- what each platform supplies ----------------------------------------------------------

    @abstractmethod
    def where_of(self, place: Place) -> tuple[int, int | None] | None:
        """The chat (or channel) and thread a game's place shows it in; None when it has none."""

    @abstractmethod
    def retry_after(self, exc: BaseException) -> float | None:
        """Seconds to wait before trying again what the platform held back for now; None for
        a refusal that retrying cannot change."""

    @abstractmethod
    def new_table(self, where: int, thread: int | None) -> TableT: ...

    @abstractmethod
    async def show_table(self, sid: int, table: TableT) -> bool:
        """Put `table.screen` on screen; False when the game can no longer be shown at all
        (the platform has then given it up and forgotten its table)."""

    @abstractmethod
    async def send_post(self, chat: int, thread: int | None, screen: Screen) -> None:
        """A new message in the chat, within the chat's budget."""

    @abstractmethod
    async def delete(self, where: int, message_id: int) -> None:
        """Delete a message, quietly when it is already gone."""

    async def delete_all(self, where: int, message_ids: list[int], *, paced: bool) -> None:
        """Delete several messages of one chat (within the chat's budget when `paced`); one
        call each unless the platform deletes several at once."""
        for old in message_ids:
            if paced:
                async with self.box(where).sending():
                    await self.delete(where, old)
            else:
                await self.delete(where, old)

    @abstractmethod
    async def deliver_hands(self, sid: int, chat: int, thread: int | None,
                            reply: Reply) -> None:
        """Queue the reply's hand screens for their players."""

    @abstractmethod
    async def hand_of(self, sid: int, user: str) -> HandT:
        """What the platform keeps of a player's hand in a game (made on first use)."""

    @abstractmethod
    def note(self, sid: int, user: str, chat: int, thread: int | None,
             screen: Screen) -> None:
        """Queue a private note about the game for one player."""

    @abstractmethod
    def invite(self, user: str, screen: Screen) -> None:
        """Queue a private message to someone not at the table (a lobby they asked to hear
        of); dropped quietly when the platform does not let the bot write to them."""

    def is_refusal(self, exc: BaseException) -> bool:
        """An error with which the platform refused a message (not a bug in the bot)."""
        return False

    async def post_refused(self, sid: int, chat: int, exc: BaseException) -> None:
        """The chat refused a post for good (the bot was removed, a permission taken away)."""

    def game_closed(self, sid: int, chat: int) -> None:
        """The game has ended: whatever else the platform keeps for it can go."""

    # ----- outboxes -----------------------------------------------------------------------------

    def outbox(self, key: int, name: str, budget: Budget) -> Outbox:
        """The outbox `key` names, made on first use."""
        box = self.outboxes.get(key)
        if box is None:
            box = self.outboxes[key] = Outbox(name, budget, retry_after=self.retry_after,
                                              pace=self.pace)
        return box

    @abstractmethod
    def box(self, where: int) -> Outbox:
        """The outbox of a chat (or channel)."""

    def waiting(self) -> int:
        """Jobs waiting in all the outboxes (what `/metrics` shows)."""
        return sum(box.pending for box in list(self.outboxes.values()))

    async def drain(self) -> None:
        """Wait until every queued message has gone out (tests and shutdown)."""
        await self.manager.idle()
        for box in list(self.outboxes.values()):
            await box.drain()

    async def settle(self, grace: float) -> None:
        """Stop taking presses and timers, and give queued messages `grace` seconds to go out
        (everything is saved already: what is not shown now is shown after a restart); a
        table or hand waiting only for its spacing goes at once (`Outbox.drain`)."""
        await self.manager.close()
        # One grace for all the chats together: a chat held back by flood control must not
        # make the others wait their own grace after it (a stop has 10 s in all).
        boxes = list(self.outboxes.values())
        await asyncio.gather(*(box.drain(timeout=grace, hurry=True) for box in boxes))

    async def close_outboxes(self) -> None:
        for box in self.outboxes.values():
            await box.close()

    # ----- screens out --------------------------------------------------------------------------

    async def deliver(self, reply: Reply) -> None:
        """Queue a reply's effects; called by the session layer under the session's lock, so it
        only queues (the outboxes send in order, coalescing in-place updates)."""
        sid, place = reply.session_id, reply.place
        where = self.where_of(place) if sid is not None and place is not None else None
        if sid is None or where is None:
            return
        chat, thread = where
        box = self.box(chat)
        if reply.table is not None:
            table = await self.table_of(sid, chat, thread)
            table.screen = reply.table
            table.fresh = table.fresh or reply.table_fresh
            table.closing = reply.closed
            # A new table message (the lobby became a game) keeps its place before the results
            # posted after it; an edit in place, also of the message being sent right now,
            # waits its turn and coalesces.
            anew = table.anew(reply.table) and (table.fresh or not table.replacing)
            box.update(f"table:{sid}", lambda: self.flush_table(sid), in_order=anew)
            if reply.deal_starts:
                shown = asyncio.Event()
                table.waiting.append(shown)
                for update in reply.hands:
                    (await self.hand_of(sid, update.user)).not_before = shown
        for post in reply.posts:
            box.post(self.post_job(sid, chat, thread, post))
        await self.deliver_hands(sid, chat, thread, reply)
        for user, screen in reply.private:
            self.note(sid, user, chat, thread, screen)
        for user, screen in reply.invites:
            self.invite(user, screen)
        if reply.closed:
            for key, hand in self.hands.items():
                if key[0] == sid:
                    hand.closing = True
            self.game_closed(sid, chat)

    async def stored_message(self, sid: int, key: str) -> dict[str, Any]:
        """What the session keeps of one of its messages ("table", "hands/<user>")."""
        session = await self.manager.stored(sid)
        found: Any = session.messages if session is not None else {}
        for part in key.split("/"):
            found = found.get(part) if isinstance(found, dict) else None
        return found if isinstance(found, dict) else {}

    async def table_of(self, sid: int, chat: int, thread: int | None) -> TableT:
        if sid not in self.tables:
            table = self.new_table(chat, thread)
            table.load(await self.stored_message(sid, "table"))
            self.tables[sid] = table
        return self.tables[sid]

    async def flush_table(self, sid: int) -> None:
        table = self.tables.get(sid)
        if table is None or table.screen is None:
            return
        screen = table.screen
        # Only the hands waiting for this screen (or an earlier one) may go once it is shown: a
        # new deal dealt while it is being sent waits for the next flush, which shows its table.
        # (a passing failure raises, and the hands wait for the retry; one the platform gives
        # up on lets them go too)
        ready = len(table.waiting)
        can_show = await self.show_table(sid, table)
        if not can_show:  # (no table will be shown: none of the hands waits any longer)
            ready = len(table.waiting)
        waiting, table.waiting = table.waiting[:ready], table.waiting[ready:]
        for shown in waiting:
            shown.set()
        if not can_show:
            return
        if await self.shown(sid, "table", table, screen, paced=True):
            self.tables.pop(sid, None)

    async def shown(self, sid: int, key: str, slot: Slot, screen: Screen, *, paced: bool) -> bool:
        """After `screen` went on screen in `slot`: keep the message with the session, delete
        the ones it replaced (within the chat's budget when `paced`), and say whether the slot
        is done. Only once the game's last screen is shown: the game may have ended while an
        earlier one was being sent, and its final one is then still waiting in the outbox; the
        messages the slot kept go then too."""
        done = slot.closing and slot.screen is screen
        if done:
            slot.retire_kept()
        await self.manager.remember(sid, key, slot.stored())
        old, slot.retired = slot.retired, []
        if old:
            await self.delete_all(slot.where, old, paced=paced)
        return done

    def post_job(self, sid: int, chat: int, thread: int | None, post: Post) -> Job:
        """A new message in the chat; a kept one is reported delivered once the chat has it,
        or once the chat refuses it for good."""
        async def job() -> None:
            try:
                await self.send_post(chat, thread, post.screen)
            except Exception as exc:
                if self.retry_after(exc) is not None or not self.is_refusal(exc):
                    raise
                log.warning("%s refused a post: %s", self.box(chat).name, exc)
                await self.post_refused(sid, chat, exc)
            if post.key is not None:
                await self.manager.delivered(post.key)
        return job

    # ----- commands in --------------------------------------------------------------------------

    async def run_command(self, name: str, place: Place, actor: Actor, words: list[str],
                          is_admin: IsAdmin, *, private: bool, alone: bool | None = None,
                          target: Target | None = None) -> Reply:
        """One command, from a group (`private` False) or a private chat. A game command's
        short answer ("you joined") is its answer: in the actor's language when they `alone`
        see it (by default, in a private chat), else in the chat's. `target`: whom `/kick`
        names (by a reply or a user option; else the command's words name them)."""
        alone = private if alone is None else alone
        if private and name in GROUP_ONLY:
            lang = await self.manager.person_language(actor)
            return Reply(answer=Screen(tr(lang, self.group_only)))
        if name not in GAME_COMMANDS:
            return await self.commands.run(name, place, actor, words, is_admin, private)
        if name == "newgame":
            reply = await self.manager.new_game(place, actor, words, alone=alone)
        elif name == "join":
            reply = await self.manager.join(place, actor, alone=alone)
        elif name == "leave":
            reply = await self.manager.leave(place, actor, alone=alone)
        elif name == "kick":
            if target is None and not words:
                _, lang = await self.manager.chat_of(place, actor)
                if alone:
                    lang = await self.manager.person_language(actor, lang)
                return Reply(answer=Screen(tr(lang, "host.kick_usage")))
            reply = await self.manager.remove(place, actor, target or Target(name=" ".join(words)),
                                              is_admin, alone=alone)
        elif name == "skip":
            reply = await self.manager.skip(place, actor, is_admin, alone=alone)
        else:
            reply = await self.manager.stop(place, actor, is_admin, alone=alone)
        if reply.toast and reply.answer is None:
            reply.answer = Screen(reply.toast)
        return reply
