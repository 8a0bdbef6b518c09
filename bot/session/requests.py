"""The request path every part of the session layer shares: lock, load, check, save, show.

docs/architecture.md §4 and §1 invariants 6–8. Every request — a press, a command, a timer — takes
the session's `asyncio.Lock`, loads the session, checks it, changes it, saves it with the version it
loaded (a deal's settlement and the posts the chat is owed in the same transaction) and hands the
screens to the adapter while still holding the lock, so screens reach the adapter in the order the
game changed. A rejected request (`Refusal`) changes nothing and gets a short answer.

The chats' settings and languages are read here too, cached until a command changes them; this
is the one place the session layer reaches storage from, and adapters reach it through the
session layer.

Languages: what the chat sees (the table, the lobby, posts) is in the chat's language; what one
person alone sees (their hand, a note to them, the answer to their press) is in theirs: the one
they chose with `/lang` in the private chat, else their client's (as the platform last reported
it), else the chat's. People's languages are read from storage once per process and then kept
here, so a move costs no extra read; every request refreshes the client language of whoever
made it. A request's answer is in the language of whoever reads it: the presser's for a press or
an answer only they see, the chat's for a command answered in the chat.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from bot.present import presenter
from bot.present.screens import Actor, Place, Reply, Screen
from bot.service.logs import about_session, log_context, note
from bot.service.workers import LEASE, Worker
from bot.session.seating import seat_index, seats_of
from storage import (
    ChatSettings,
    Session,
    Settlement,
    StaleSave,
    Storage,
    StorageError,
    TableChips,
)
from storage.accounts import PersonLanguage
from words.i18n import lang_of, tr

log = logging.getLogger(__name__)

Deliver = Callable[[Reply], Awaitable[None]]
IsAdmin = Callable[[], Awaitable[bool]]
OPEN = ("lobby", "active")
PEOPLE_KEPT = 4096
"""People whose languages are kept in memory (the least recently seen are read again)."""

_ANSWERING: ContextVar[str | None] = ContextVar("answering", default=None)
"""The language the current request is answered in (set by `Requests.in_session`)."""


SAVE_ATTEMPTS = 3
"""Times a request is judged again when another process saved the game first."""


@dataclass(frozen=True, slots=True)
class Timing:
    """Pauses that are the session layer's, not the chat's (turn and lobby limits are per chat)."""

    computer_delay: float = 1.5
    """A computer seat waits this long before moving, so people can follow the table."""
    deal_pause: float = 8.0
    """Between a deal's result and the next deal."""
    restore_grace: float = 1.0
    """After a restart, an overdue deadline fires this long after the timers are rebuilt."""
    lease: float = LEASE
    """Seconds without a sign of life after which another process sharing the database takes
    this one's games over (`bot.service.workers`)."""


class Refusal(Exception):
    """A request that changes nothing; the message is the catalogue key of the answer."""

    def __init__(self, key: str, n: int | None = None, **fields: object) -> None:
        super().__init__(key)
        self.key = key
        self.n = n
        self.fields = fields

    def reply(self, lang: str) -> Reply:
        """The refusal as its answer, in `lang`: a toast for a press, a sentence for a
        command."""
        text = tr(lang, self.key, self.n, **self.fields)
        return Reply(toast=text, answer=Screen(text))


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
        self.worker = Worker(storage, platform, self.timing.lease)
        """This process among those sharing the database: whose games' timers it runs."""
        self.saved: Callable[[Session], None] = lambda session: None
        """Told of every save (the timers follow the session's new deadline)."""
        self.web_table = False
        """Screens offer the game's web table (a Telegram Mini App is configured)."""
        self.watching = False
        """The group's table offers Watch: the web table's spectator's page, or a platform's
        own live table for one person (Discord's)."""
        self.replay_url = ""
        """Where the web table is published, for the result posts' links to a deal's replay
        (`bot.web.web_replay`; "" when there is none)."""
        self.locks: dict[int, asyncio.Lock] = {}
        self.cache: dict[int, Session] = {}
        self.settings: dict[int, ChatSettings] = {}
        self.people: OrderedDict[str, PersonLanguage] = OrderedDict()
        """This platform's people by platform id: the languages they chose and their
        clients report."""

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
        """The chat's id and language; its first user's client language becomes the chat's.
        The actor's client language is noted too (what they alone see follows it)."""
        chat_id = await self.storage.accounts.chat(self.platform, place.chat, place.title)
        if actor is not None:
            await self.saw(actor)
        settings = await self.chat_settings(chat_id)
        if settings.language is None and actor is not None:
            settings = await self.storage.accounts.update_settings(
                chat_id, language=lang_of(actor.language))
            self.settings[chat_id] = settings
        return chat_id, settings.language or lang_of(None)

    async def person(self, platform_id: str) -> PersonLanguage:
        """A person's languages (read from storage the first time only)."""
        await self.know(platform_id)
        return self.people.get(platform_id, PersonLanguage())

    async def know(self, *platform_ids: str) -> None:
        """Read the languages of the people not known yet, all in one read."""
        missing = [p for p in dict.fromkeys(platform_ids) if p not in self.people]
        if missing:
            found = await self.storage.accounts.languages(self.platform, missing)
            for platform_id in missing:
                self._keep(platform_id, found.get(platform_id, PersonLanguage()))

    def _keep(self, platform_id: str, person: PersonLanguage) -> None:
        self.people[platform_id] = person
        self.people.move_to_end(platform_id)
        while len(self.people) > PEOPLE_KEPT:
            self.people.popitem(last=False)

    async def saw(self, actor: Actor) -> PersonLanguage:
        """The actor's languages, their client's as this request reports it."""
        person = await self.person(actor.platform_id)
        if actor.language and actor.language != person.client:
            person = PersonLanguage(person.chosen, actor.language)
            self._keep(actor.platform_id, person)
        return person

    async def person_language(self, actor: Actor, fallback: str) -> str:
        """The language of what the actor alone sees; `fallback` (the chat's) when neither
        they nor their client ever said."""
        return own_language(await self.saw(actor), fallback)

    async def seat_languages(self, session: Session) -> list[str]:
        """The language of each seat's hand: its person's, the chat's for a computer."""
        chat = await self.language(session.chat_id)
        seats = seats_of(session)
        await self.know(*(s.platform_id for s in seats if not s.computer))
        return [chat if s.computer else own_language(self.people.get(s.platform_id), chat)
                for s in seats]

    async def language_of(self, platform_id: str, chat_id: int) -> str:
        """One person's language for a note about a game in `chat_id`."""
        return own_language(await self.person(platform_id), await self.language(chat_id))

    async def choose_language(self, actor: Actor, language: str | None) -> None:
        """The language the actor chose for themselves (`/lang` in the private chat)."""
        await self.storage.accounts.choose_language(self.platform, actor.platform_id,
                                                    actor.name, language)
        person = await self.person(actor.platform_id)
        self._keep(actor.platform_id, PersonLanguage(language, actor.language or person.client))

    def answering(self, fallback: str) -> str:
        """The language the current request is answered in (`fallback` outside a request)."""
        return _ANSWERING.get() or fallback

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
                       run: Callable[[Session], Awaitable[Reply]], *, alone: bool = False
                       ) -> Reply:
        """`run` on the open session of a chat (a command typed there); `alone`: its answer is
        seen by the actor alone (else by the chat)."""
        with log_context(chat=place.chat or None):
            try:
                chat_id, lang = await self.chat_of(place, actor)
                if alone:
                    lang = await self.person_language(actor, lang)
                session = await self.storage.sessions.open_in(chat_id, place.topic)
            except StorageError as exc:
                return storage_answer(exc, lang_of(actor.language))
            if session is None:
                return refused(lang, "err.no_game")
            return await self.in_session(session.id, actor, run, alone=alone)

    @about_session
    async def in_session(self, session_id: int, actor: Actor,
                         run: Callable[[Session], Awaitable[Reply]], *, alone: bool = True
                         ) -> Reply:
        """`run` on an open session under its lock; a refusal or a lost race becomes the
        answer, and nothing is changed. The answer is in the actor's language when they
        alone see it (a press, a private chat), else in the chat's."""
        lang = lang_of(actor.language)
        try:
            # (nothing is awaited before the lock that a request before it did not await: the
            # lock is taken in the order the requests came)
            if session_id not in self.locks and not is_open(await self.load(session_id)):
                # No lock is made for a session that is not open here (a forged id, say).
                return refused(await self.person_language(actor, lang), "err.game_over")
            async with self.lock(session_id):
                for attempt in range(SAVE_ATTEMPTS):
                    session = await self.current(session_id)
                    if not is_open(session):
                        return refused(await self.person_language(actor, lang),
                                       "err.game_over")
                    assert session is not None
                    log_chat(session)
                    lang = await self.language(session.chat_id)
                    if alone:
                        lang = await self.person_language(actor, lang)
                    answering = _ANSWERING.set(lang)
                    try:
                        return await run(session)
                    except Refusal as no:
                        return no.reply(lang)
                    except StaleSave:
                        # Another process saved the game between our read and our save: the
                        # request is judged again on what it saved (a press on a button that
                        # is now old is refused then).
                        self.cache.pop(session_id, None)
                        if attempt + 1 == SAVE_ATTEMPTS:
                            return Reply(toast=tr(lang, "err.stale"))
                    finally:
                        _ANSWERING.reset(answering)
                return Reply(toast=tr(lang, "err.stale"))
        except StorageError as exc:
            return storage_answer(exc, lang)

    async def current(self, session_id: int) -> Session | None:
        """The session as last saved by any process: the cached copy only if the stored
        version is still its version (another process sharing the database may have moved
        the game on)."""
        cached = self.cache.get(session_id)
        if cached is not None:
            if await self.storage.sessions.version(session_id) == cached.version:
                return cached
            self.cache.pop(session_id, None)
        return await self.load(session_id)

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
                   posts: Sequence[dict[str, Any]] = (), chips: TableChips | None = None
                   ) -> tuple[Session, list[int]]:
        """Save if still at `expected` (with the deal's settlement, what the table's chips do
        and the posts to keep until delivered); returns the saved session and the posts'
        keys."""
        saved, keys = await self.storage.sessions.save_posting(
            session, expected, settlement, posts, chips, owner=self.worker.id)
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
            chat = reply.place.chat if reply.place is not None else None
            with log_context(session=reply.session_id, chat=chat or None):
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


def own_language(person: PersonLanguage | None, fallback: str) -> str:
    """A person's language: the one they chose, else their client's, else `fallback`."""
    if person is None:
        return fallback
    return person.chosen or (lang_of(person.client) if person.client else fallback)


def log_chat(session: Session) -> None:
    """Lines logged for the rest of the request name the session's chat too (`bot.service.logs`)."""
    chat = session.messages.get("place", {}).get("chat")
    note(chat=str(chat) if chat not in (None, "") else None)


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
