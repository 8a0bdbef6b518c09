"""The request path every part of the session layer shares: lock, load, check, save, show.

DESIGN.md §4 and §1 invariants 6–8. Every request — a press, a command, a timer — takes the
session's `asyncio.Lock`, loads the session, checks it, changes it, saves it with the version it
loaded (a deal's settlement and the posts the chat is owed in the same transaction) and hands the
screens to the adapter while still holding the lock, so screens reach the adapter in the order
the game changed. A rejected request (`Refusal`) changes nothing and gets a short answer.

The chats' settings and languages are read here too, cached until a command changes them; this
is the one place the session layer reaches storage from, and adapters reach it through the
session layer.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot import presenter
from bot.i18n import lang_of, tr
from bot.screens import Actor, Place, Reply, Screen
from bot.seating import seat_index
from storage import (
    ChatSettings,
    Session,
    Settlement,
    StaleSave,
    Storage,
    StorageError,
)

log = logging.getLogger(__name__)

Deliver = Callable[[Reply], Awaitable[None]]
IsAdmin = Callable[[], Awaitable[bool]]
OPEN = ("lobby", "active")


@dataclass(frozen=True, slots=True)
class Timing:
    """Pauses that are the session layer's, not the chat's (turn and lobby limits are per chat)."""

    computer_delay: float = 1.5
    """A computer seat waits this long before moving, so people can follow the table."""
    deal_pause: float = 8.0
    """Between a deal's result and the next deal."""
    restore_grace: float = 1.0
    """After a restart, an overdue deadline fires this long after the timers are rebuilt."""


class Refusal(Exception):
    """A request that changes nothing; the message is the catalogue key of the answer."""

    def __init__(self, key: str, n: int | None = None, **fields: object) -> None:
        super().__init__(key)
        self.key = key
        self.n = n
        self.fields = fields


class Requests:
    """The platform's sessions as the layer sees them: cached, locked, saved, shown."""

    def __init__(self, storage: Storage, platform: str, timing: Timing | None = None,
                 clock: Callable[[], float] = time.time, theme: str = "dark",
                 live_countdown: bool = False) -> None:
        self.storage = storage
        self.platform = platform
        self.timing = timing or Timing()
        self.clock = clock
        self.theme = theme
        self.live_countdown = live_countdown
        self.deliver: Deliver | None = None
        self.saved: Callable[[Session], None] = lambda session: None
        """Told of every save (the timers follow the session's new deadline)."""
        self.locks: dict[int, asyncio.Lock] = {}
        self.cache: dict[int, Session] = {}
        self.settings: dict[int, ChatSettings] = {}

    # ----- chats, people, languages -------------------------------------------------------------

    async def language(self, chat_id: int) -> str:
        return (await self.chat_settings(chat_id)).language or lang_of(None)

    async def chat_settings(self, chat_id: int) -> ChatSettings:
        """A chat's settings, cached; `forget_settings` after `/lang` or `/settings`."""
        if chat_id not in self.settings:
            self.settings[chat_id] = await self.storage.accounts.settings(chat_id)
        return self.settings[chat_id]

    def forget_settings(self, chat_id: int) -> None:
        self.settings.pop(chat_id, None)

    async def chat_of(self, place: Place, actor: Actor | None = None) -> tuple[int, str]:
        """The chat's id and language; its first user's client language becomes the chat's."""
        chat_id = await self.storage.accounts.chat(self.platform, place.chat, place.title)
        settings = await self.chat_settings(chat_id)
        if settings.language is None and actor is not None:
            settings = await self.storage.accounts.update_settings(
                chat_id, language=lang_of(actor.language))
            self.settings[chat_id] = settings
        return chat_id, settings.language or lang_of(None)

    async def user_of(self, actor: Actor) -> int:
        return await self.storage.accounts.user(self.platform, actor.platform_id, actor.name,
                                                actor.language)

    async def ours(self, session: Session) -> bool:
        """Whether the session is played on this platform."""
        return await self.storage.accounts.chat_platform(session.chat_id) == self.platform

    # ----- the request path ---------------------------------------------------------------------

    def lock(self, session_id: int) -> asyncio.Lock:
        return self.locks.setdefault(session_id, asyncio.Lock())

    async def in_place(self, place: Place, actor: Actor,
                       run: Callable[[Session], Awaitable[Reply]]) -> Reply:
        """`run` on the open session of a chat (a command typed there)."""
        try:
            chat_id, lang = await self.chat_of(place, actor)
            session = await self.storage.sessions.open_in(chat_id, place.topic)
        except StorageError as exc:
            return storage_answer(exc, lang_of(actor.language))
        if session is None:
            return refused(lang, "err.no_game")
        return await self.in_session(session.id, actor, run)

    async def in_session(self, session_id: int, actor: Actor,
                         run: Callable[[Session], Awaitable[Reply]]) -> Reply:
        """`run` on an open session under its lock; a refusal or a lost race becomes the
        answer, and nothing is changed."""
        lang = lang_of(actor.language)
        try:
            if session_id not in self.locks and not is_open(await self.load(session_id)):
                # No lock is made for a session that is not open here (a forged id, say).
                return refused(lang, "err.game_over")
            async with self.lock(session_id):
                session = await self.load(session_id)
                if not is_open(session):
                    return refused(lang, "err.game_over")
                assert session is not None
                lang = await self.language(session.chat_id)
                try:
                    return await run(session)
                except Refusal as no:
                    text = tr(lang, no.key, no.n, **no.fields)
                    return Reply(toast=text, answer=Screen(text))
                except StaleSave:
                    self.cache.pop(session_id, None)
                    return Reply(toast=tr(lang, "err.stale"))
        except StorageError as exc:
            return storage_answer(exc, lang)

    async def load(self, session_id: int) -> Session | None:
        """The session as last saved (an open one only if this platform plays it)."""
        if session_id in self.cache:
            return self.cache[session_id]
        session = await self.storage.sessions.get(session_id)
        if session is not None and session.status in OPEN:
            if not await self.ours(session):
                return None
            self.cache[session_id] = session
        return session

    async def save(self, session: Session, expected: int,
                   settlement: Settlement | None = None,
                   posts: Sequence[dict[str, Any]] = ()) -> tuple[Session, list[int]]:
        """Save if still at `expected` (with the deal's settlement and the posts to keep until
        delivered); returns the saved session and the posts' keys."""
        saved, keys = await self.storage.sessions.save_posting(session, expected, settlement,
                                                               posts)
        if saved.status in OPEN:
            self.cache[saved.id] = saved
        else:
            self.cache.pop(saved.id, None)
            self.locks.pop(saved.id, None)  # later requests find it closed without a lock
        self.saved(saved)
        return saved, keys

    async def show(self, reply: Reply) -> None:
        """Hand a reply to the adapter; an adapter's failure must not undo a saved move."""
        if self.deliver is not None:
            try:
                await self.deliver(reply)
            except Exception:
                log.exception("delivering session %s failed", reply.session_id)

    def reply(self, session: Session) -> Reply:
        """An empty reply addressed to the session's place."""
        place = session.messages.get("place", {})
        return Reply(session_id=session.id,
                     place=Place(str(place.get("chat", "")), str(place.get("topic", "")),
                                 str(place.get("title", ""))))

    def clock_of(self, session: Session) -> presenter.Clock:
        return presenter.Clock(self.clock(), session.deadline)

    async def remember(self, session_id: int, key: str, value: Any) -> None:
        """Keep a platform message id with the session ("table", or "hands/<user>" for one
        player's hand) without a version change, so the buttons on screen stay valid."""
        async with self.lock(session_id):
            session = await self.load(session_id)
            if session is None:
                return
            messages = dict(session.messages)
            outer, _, inner = key.partition("/")
            if inner:
                nested = dict(messages.get(outer, {}))
                nested[inner] = value
                messages[outer] = nested
            else:
                messages[outer] = value
            if messages != session.messages:
                await self.save(session.but(messages=messages), session.version)

    async def delivered(self, key: int) -> None:
        """The chat has a kept post: it is not sent again after a restart."""
        try:
            await self.storage.sessions.delivered(key)
        except StorageError as exc:
            log.warning("post %s delivered, but not noted (it may come again): %s", key, exc)


def seat_of(session: Session, actor: Actor, refusal: str = "err.not_in_game", *,
            started: bool = False) -> int:
    """The actor's seat, or the refusal someone without one gets; with `started`, only in a
    game under way."""
    index = seat_index(session, actor.platform_id)
    if index is None:
        raise Refusal(refusal)
    if started and (session.status != "active" or not session.dealt):
        raise Refusal("err.not_started")
    return index


def is_open(session: Session | None) -> bool:
    return session is not None and session.status in OPEN


def bump(session: Session) -> Session:
    """The next version: buttons drawn for the one before are stale."""
    return session.but(version=session.version + 1)


def refused(lang: str, key: str) -> Reply:
    text = tr(lang, key)
    return Reply(toast=text, answer=Screen(text))


def storage_answer(exc: StorageError, lang: str) -> Reply:
    text = tr(lang, "err.storage")
    log.warning("storage: %s", exc)
    return Reply(toast=text, answer=Screen(text))
