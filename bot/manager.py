"""The platform-neutral session layer: lobbies, seats, turns, timers, deals and matches.

DESIGN.md §4 and §1 invariants 6–8. Every request — a press, a command, a timer — takes the
session's `asyncio.Lock`, loads the session, checks it, moves the game only through the rules
core's `play`, saves with the version it loaded (a deal's settlement in the same transaction) and
hands the screens to the adapter while still holding the lock, so screens reach the adapter in
the order the game changed. A rejected request changes nothing and gets a short private answer.

One deadline per session says what happens next when nobody acts: the lobby closes, a computer
seat (or an absent player's seat) moves, a person's turn runs out, or the next deal starts. It is
stored with the session, so after a restart the timers are rebuilt from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

import games
from bot import payload, presenter
from bot.i18n import lang_of, tr
from bot.screens import Actor, HandUpdate, Place, Post, Reply, Screen
from bot.seating import Game, Seat, computer_label, seat_index, seats_of, with_seats
from games.engine import (
    Action,
    Event,
    GameError,
    InvalidOptions,
    NotYourTurn,
    StaleVersion,
    play,
    rng,
)
from games.players import make_player
from storage import (
    ChatSettings,
    Session,
    SessionExists,
    Settlement,
    StaleSave,
    Storage,
    StorageError,
)
from storage import Post as StoredPost
from storage.accounts import seats_of as settlement_seats

log = logging.getLogger(__name__)

Deliver = Callable[[Reply], Awaitable[None]]
IsAdmin = Callable[[], Awaitable[bool]]

MAX_STAKE = 1000
MIN_TURN, MAX_TURN = 10, 3600
MIN_LOBBY, MAX_LOBBY = 30, 86_400
MISSES_BEFORE_AWAY = 2


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


class SessionManager:
    def __init__(self, storage: Storage, platform: str, timing: Timing | None = None,
                 clock: Callable[[], float] = time.time, theme: str = "dark",
                 live_countdown: bool = False) -> None:
        """`live_countdown`: the platform shows a screen's countdown ticking by itself
        (Discord's timestamps), so the table is never edited just to count down."""
        self.storage = storage
        self.platform = platform
        self.timing = timing or Timing()
        self.clock = clock
        self.theme = theme
        self.live_countdown = live_countdown
        self.deliver: Deliver | None = None
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, Session] = {}
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._ticks: dict[int, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._settings: dict[int, ChatSettings] = {}
        self._closed = False

    # ----- life cycle ---------------------------------------------------------------------------

    async def restore(self) -> int:
        """Bring back every open game of this platform and re-arm its timers, and send the
        posts the last process saved but never saw delivered."""
        pending: dict[int, list[StoredPost]] = {}
        for post in await self.storage.sessions.pending_posts(self.platform):
            pending.setdefault(post.session_id, []).append(post)
        sessions = await self.storage.sessions.open_sessions(self.platform)
        for session in sessions:
            self._cache[session.id] = session
            self._arm(session, restoring=True)
            await self._refresh(session, pending.pop(session.id, []))
        for session_id, posts in pending.items():  # games that ended with a post on its way
            closed = await self.storage.sessions.get(session_id)
            if closed is not None:
                reply = self._reply(closed)
                reply.posts = await self._posts(closed, posts)
                reply.closed = True
                await self._deliver(reply)
        return len(sessions)

    async def _refresh(self, session: Session, posts: list[StoredPost]) -> None:
        """Show a restored game's table and the mover's hand again: whatever was still queued
        when the last process stopped reaches the chat now (the same version: buttons already
        on screen stay valid)."""
        async with self._lock(session.id):
            await self.language(session.chat_id)
            reply = self._reply(session)
            if session.status == "lobby":
                reply.table = await self._lobby_screen(session)
            else:
                state = Game.of(session).state(session)
                reply.table = await self._table_screen(session, state, _last(session))
                reply.hands = await self._hands(session, state, state, only_to_move=True)
            reply.posts = await self._posts(session, posts)
            await self._deliver(reply)

    async def delivered(self, key: int) -> None:
        """The chat has a kept post: it is not sent again after a restart."""
        try:
            await self.storage.sessions.delivered(key)
        except StorageError as exc:
            log.warning("post %s delivered, but not noted (it may come again): %s", key, exc)

    async def close(self) -> None:
        self._closed = True
        for handle in [*self._timers.values(), *self._ticks.values()]:
            handle.cancel()
        self._timers.clear()
        self._ticks.clear()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def idle(self) -> None:
        """Wait until no timer-driven work is running (tests and the console use it)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # ----- languages ----------------------------------------------------------------------------

    async def language(self, chat_id: int) -> str:
        return (await self.chat_settings(chat_id)).language or lang_of(None)

    async def chat_settings(self, chat_id: int) -> ChatSettings:
        """A chat's settings, cached; `forget_settings` after `/lang` or `/settings`."""
        if chat_id not in self._settings:
            self._settings[chat_id] = await self.storage.accounts.settings(chat_id)
        return self._settings[chat_id]

    def forget_settings(self, chat_id: int) -> None:
        self._settings.pop(chat_id, None)

    async def chat_of(self, place: Place, actor: Actor | None = None) -> tuple[int, str]:
        """The chat's id and language; its first user's client language becomes the chat's."""
        chat_id = await self.storage.accounts.chat(self.platform, place.chat, place.title)
        settings = await self.chat_settings(chat_id)
        if settings.language is None and actor is not None:
            settings = await self.storage.accounts.update_settings(
                chat_id, language=lang_of(actor.language))
            self._settings[chat_id] = settings
        return chat_id, settings.language or lang_of(None)

    async def user_of(self, actor: Actor) -> int:
        return await self.storage.accounts.user(self.platform, actor.platform_id, actor.name,
                                                actor.language)

    # ----- requests -----------------------------------------------------------------------------

    async def new_game(self, place: Place, actor: Actor, words: list[str]) -> Reply:
        """`/newgame GAME [PRESET] [STAKE] [option=value ...]`: a lobby with its creator seated."""
        try:
            chat_id, lang = await self.chat_of(place, actor)
        except StorageError as exc:
            return _storage_answer(exc, lang_of(actor.language))
        try:
            rules, preset, stake, values = await self._parse_new(chat_id, words)
        except Refusal as no:
            return Reply(answer=Screen(tr(lang, no.key, no.n, **no.fields)))
        except InvalidOptions as exc:
            return Reply(answer=Screen(tr(lang, "err.options", detail=str(exc))))
        try:
            user_id = await self.user_of(actor)
            game = Game(rules, rules.options(preset, **values), preset, values,
                        secrets.token_hex(8))
            await self._open_lobby(place, chat_id, game, [Seat(user_id, actor.name,
                                                                actor.platform_id)],
                                   stake, user_id, actor)
        except SessionExists:
            return Reply(answer=Screen(tr(lang, "err.game_exists")))
        except StorageError as exc:
            return _storage_answer(exc, lang)
        return Reply()

    async def _open_lobby(self, place: Place, chat_id: int, game: Game, seats: list[Seat],
                          stake: int, creator_id: int, actor: Actor) -> Session:
        """A new lobby in `place`, shown as a new message; the actor is told privately."""
        settings = await self.chat_settings(chat_id)
        lang = await self.language(chat_id)
        session = await self.storage.sessions.create(
            chat_id, game.rules.id, game.stored(), [s.to_json() for s in seats], stake=stake,
            creator_id=creator_id, topic=place.topic,
            deadline=self.clock() + settings.lobby_timeout)
        async with self._lock(session.id):
            session = session.but(messages={"place": {"chat": place.chat, "topic": place.topic,
                                                      "title": place.title}})
            session = await self._save(session, session.version)
            reply = self._reply(session)
            reply.table = await self._lobby_screen(session)
            reply.table_fresh = True
            reply.private.append((actor.platform_id, Screen(tr(lang, "lobby.joined_you",
                                                               game=presenter.title(game, lang)))))
            await self._deliver(reply)
        return session

    async def play_again(self, session_id: int, actor: Actor) -> Reply:
        """"Play again" on a match's end: a lobby in the same place with the same players
        (people and computers), options and stake, opened by the player who pressed."""
        lang = lang_of(actor.language)
        try:
            old = await self.storage.sessions.get(session_id)
            chat = None if old is None else await self.storage.db.read_one(
                "SELECT platform FROM chats WHERE id = ?", (old.chat_id,))
            if old is None or chat is None or chat["platform"] != self.platform:
                return _refused(lang, "err.forged")
            lang = await self.language(old.chat_id)
            if _open(old):
                return _refused(lang, "err.game_exists")
            index = seat_index(old, actor.platform_id)
            if index is None:
                return _refused(lang, "again.not_player")
            place = old.messages.get("place", {})
            previous = Game.of(old)
            game = Game(previous.rules, previous.options, previous.preset, previous.values,
                        secrets.token_hex(8))
            seats = [Seat(s.user_id, s.name, s.platform_id, computer=s.computer)
                     for s in seats_of(old)]
            await self._open_lobby(
                Place(str(place.get("chat", "")), str(place.get("topic", "")),
                      str(place.get("title", ""))),
                old.chat_id, game, seats, old.stake, seats[index].user_id, actor)
        except SessionExists:
            return _refused(lang, "err.game_exists")
        except StorageError as exc:
            return _storage_answer(exc, lang)
        return Reply(toast=tr(lang, "again.opened"))

    async def abandon(self, session_id: int) -> None:
        """The platform cannot show the game at all (its first message was refused): close
        it, so that the place is free for a game that can be shown. Settles nothing."""
        async with self._lock(session_id):
            session = await self._load(session_id)
            if session is None or not _open(session):
                return
            await self._save(_bump(session).but(status="abandoned", deadline=None),
                             session.version)

    async def _parse_new(self, chat_id: int, words: list[str]
                         ) -> tuple[Any, str | None, int, dict[str, Any]]:
        if not words:
            raise Refusal("err.newgame_usage", games=", ".join(games.GAMES))
        try:
            rules = games.get(words[0])
        except InvalidOptions:
            raise Refusal("err.unknown_game", name=words[0],
                          games=", ".join(games.GAMES)) from None
        settings = await self.chat_settings(chat_id)
        defaults = settings.defaults.get(rules.id, {})
        preset: str | None = defaults.get("preset")
        stake = int(defaults.get("stake", 1))
        pairs: dict[str, str] = {}
        for word in words[1:]:
            if "=" in word:
                key, _, value = word.partition("=")
                pairs[key.strip()] = value.strip()
            elif word.isascii() and word.isdigit() and word not in rules.presets:
                stake = int(word)
            elif word.lstrip("x×").isdigit() and word[0] in "x×":
                stake = int(word[1:])
            else:
                preset = word
        if not 1 <= stake <= MAX_STAKE:
            raise Refusal("err.stake", most=MAX_STAKE)
        options = rules.parse_options(preset, pairs)
        values = {k: getattr(options, k) for k in pairs}
        return rules, preset, stake, values

    async def join(self, place: Place, actor: Actor) -> Reply:
        """`/join` in the chat of a lobby."""
        return await self._in_place(place, actor, lambda s: self._join(s, actor))

    async def join_session(self, session_id: int, actor: Actor) -> Reply:
        """Joining through the deep link, from the private chat (the bot may now write there)."""
        return await self._in_session(session_id, actor, lambda s: self._join(s, actor))

    async def leave(self, place: Place, actor: Actor) -> Reply:
        return await self._in_place(place, actor, lambda s: self._leave(s, actor))

    async def stop(self, place: Place, actor: Actor, is_admin: IsAdmin) -> Reply:
        return await self._in_place(place, actor, lambda s: self._stop(s, actor, is_admin))

    async def show_hand(self, session_id: int, actor: Actor) -> Reply:
        """The player's hand again, as a new private message (after "Start me", "My tiles")."""
        return await self._in_session(session_id, actor, lambda s: self._show_hand(s, actor))

    async def press(self, actor: Actor, data: str) -> Reply:
        """A button. Forged, stale and foreign presses get a toast and change nothing."""
        lang = lang_of(actor.language)
        try:
            press = payload.decode(data)
        except payload.BadPayload:
            return Reply(toast=tr(lang, "err.forged"))
        if press.code == payload.AGAIN:
            return await self.play_again(press.session_id, actor)

        async def run(session: Session) -> Reply:
            return await self._press(session, actor, press)
        return await self._in_session(press.session_id, actor, run)

    async def remember(self, session_id: int, key: str, value: Any) -> None:
        """Keep a platform message id with the session ("table", or "hands/<user>" for one
        player's hand) without a version change, so the buttons on screen stay valid."""
        async with self._lock(session_id):
            session = await self._load(session_id)
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
                await self._save(session.but(messages=messages), session.version)

    async def session(self, session_id: int) -> Session | None:
        """The session as the layer last saved it (open sessions of this platform only)."""
        return await self._load(session_id)

    async def open_in(self, place: Place) -> Session | None:
        chat_id = await self.storage.accounts.chat(self.platform, place.chat, place.title)
        session = await self.storage.sessions.open_in(chat_id, place.topic)
        return None if session is None else self._cache.get(session.id, session)

    # ----- the request path ---------------------------------------------------------------------

    def _lock(self, session_id: int) -> asyncio.Lock:
        return self._locks.setdefault(session_id, asyncio.Lock())

    async def _in_place(self, place: Place, actor: Actor,
                        run: Callable[[Session], Awaitable[Reply]]) -> Reply:
        try:
            chat_id, lang = await self.chat_of(place, actor)
            session = await self.storage.sessions.open_in(chat_id, place.topic)
        except StorageError as exc:
            return _storage_answer(exc, lang_of(actor.language))
        if session is None:
            return Reply(toast=tr(lang, "err.no_game"), answer=Screen(tr(lang, "err.no_game")))
        return await self._in_session(session.id, actor, run)

    async def _in_session(self, session_id: int, actor: Actor,
                          run: Callable[[Session], Awaitable[Reply]]) -> Reply:
        lang = lang_of(actor.language)
        try:
            if session_id not in self._locks and not _open(await self._load(session_id)):
                # No lock is made for a session that is not open here (a forged id, say).
                return Reply(toast=tr(lang, "err.game_over"),
                             answer=Screen(tr(lang, "err.game_over")))
            async with self._lock(session_id):
                session = await self._load(session_id)
                if session is None or session.status not in ("lobby", "active"):
                    return Reply(toast=tr(lang, "err.game_over"),
                                 answer=Screen(tr(lang, "err.game_over")))
                lang = await self.language(session.chat_id)
                try:
                    return await run(session)
                except Refusal as no:
                    text = tr(lang, no.key, no.n, **no.fields)
                    return Reply(toast=text, answer=Screen(text))
                except StaleSave:
                    self._cache.pop(session_id, None)
                    return Reply(toast=tr(lang, "err.stale"))
        except StorageError as exc:
            return _storage_answer(exc, lang)

    async def _load(self, session_id: int) -> Session | None:
        if session_id in self._cache:
            return self._cache[session_id]
        session = await self.storage.sessions.get(session_id)
        if session is not None and session.status in ("lobby", "active"):
            chat = await self.storage.db.read_one(
                "SELECT platform FROM chats WHERE id = ?", (session.chat_id,))
            if chat is None or chat["platform"] != self.platform:
                return None
            self._cache[session_id] = session
        return session

    async def _save(self, session: Session, expected: int,
                    settlement: Settlement | None = None) -> Session:
        saved, _ = await self._save_posting(session, expected, settlement)
        return saved

    async def _save_posting(self, session: Session, expected: int,
                            settlement: Settlement | None = None,
                            posts: Sequence[dict[str, Any]] = ()) -> tuple[Session, list[int]]:
        """Save (with the deal's settlement and the posts to keep until delivered)."""
        saved, keys = await self.storage.sessions.save_posting(session, expected, settlement,
                                                               posts)
        if saved.status in ("lobby", "active"):
            self._cache[saved.id] = saved
        else:
            self._cache.pop(saved.id, None)
            self._locks.pop(saved.id, None)  # later requests find it closed without a lock
        self._arm(saved)
        return saved, keys

    async def _deliver(self, reply: Reply) -> None:
        if self.deliver is not None:
            try:
                await self.deliver(reply)
            except Exception:  # an adapter's failure must not undo a saved move
                log.exception("delivering session %s failed", reply.session_id)

    def _reply(self, session: Session) -> Reply:
        place = session.messages.get("place", {})
        return Reply(session_id=session.id,
                     place=Place(str(place.get("chat", "")), str(place.get("topic", "")),
                                 str(place.get("title", ""))))

    # ----- lobby --------------------------------------------------------------------------------

    async def _lobby_screen(self, session: Session) -> Screen:
        lang = await self.language(session.chat_id)
        return presenter.lobby(session, Game.of(session), seats_of(session), lang,
                               self._clock(session))

    def _clock(self, session: Session) -> presenter.Clock:
        return presenter.Clock(self.clock(), session.deadline)

    async def _lobby_changed(self, session: Session, seats: list[Seat], toast: str,
                             private: tuple[str, Screen] | None = None) -> Reply:
        """Save the lobby's new seats and show the lobby again."""
        lang = await self.language(session.chat_id)
        saved = await self._save(_bump(with_seats(session, seats)), session.version)
        reply = self._reply(saved)
        reply.table = await self._lobby_screen(saved)
        if private is not None:
            reply.private.append(private)
        await self._deliver(reply)
        return Reply(toast=tr(lang, toast))

    async def _join(self, session: Session, actor: Actor) -> Reply:
        lang = await self.language(session.chat_id)
        game = Game.of(session)
        if session.status != "lobby":
            if seat_index(session, actor.platform_id) is not None:
                return await self._show_hand(session, actor)
            raise Refusal("err.started")
        seats = seats_of(session)
        if seat_index(session, actor.platform_id) is not None:
            raise Refusal("err.already_in")
        if len(seats) >= game.rules.max_players:
            raise Refusal("err.full", most=game.rules.max_players)
        user_id = await self.user_of(actor)
        seats.append(Seat(user_id, actor.name, actor.platform_id))
        welcome = (actor.platform_id, Screen(tr(lang, "lobby.joined_you",
                                                game=presenter.title(game, lang))))
        return await self._lobby_changed(session, seats, "lobby.joined", welcome)

    async def _leave(self, session: Session, actor: Actor) -> Reply:
        lang = await self.language(session.chat_id)
        index = seat_index(session, actor.platform_id)
        if index is None:
            raise Refusal("err.not_in_game")
        seats = seats_of(session)
        if session.status == "active":
            if seats[index].away:
                raise Refusal("err.already_away")
            seats[index] = _but_seat(seats[index], away=True)
            return await self._seats_changed(session, seats, index, "table.left_game",
                                             actor.name)
        del seats[index]
        if not any(not s.computer for s in seats):
            session = await self._save(_bump(with_seats(session, seats)).but(
                status="abandoned", deadline=None), session.version)
            reply = self._reply(session)
            reply.table = Screen(tr(lang, "lobby.closed_empty"))
            reply.closed = True
            await self._deliver(reply)
            return Reply(toast=tr(lang, "lobby.left"))
        return await self._lobby_changed(session, seats, "lobby.left")

    async def _add_computer(self, session: Session, actor: Actor) -> Reply:
        lang = await self.language(session.chat_id)
        game = Game.of(session)
        seats = seats_of(session)
        if seat_index(session, actor.platform_id) is None:
            raise Refusal("err.not_in_game")
        if len(seats) >= game.rules.max_players:
            raise Refusal("err.full", most=game.rules.max_players)
        taken = {s.platform_id for s in seats if s.computer}
        number = next(n for n in range(1, 100) if computer_label(n) not in taken)
        label = computer_label(number)
        user_id = await self.storage.accounts.computer(label)
        seats.append(Seat(user_id, tr(lang, "computer.name", number=number), label,
                          computer=True))
        return await self._lobby_changed(session, seats, "lobby.added")

    async def _remove_computer(self, session: Session, actor: Actor) -> Reply:
        seats = seats_of(session)
        if seat_index(session, actor.platform_id) is None:
            raise Refusal("err.not_in_game")
        computers = [i for i, s in enumerate(seats) if s.computer]
        if not computers:
            raise Refusal("err.no_computer")
        del seats[computers[-1]]
        return await self._lobby_changed(session, seats, "lobby.removed")

    async def _start(self, session: Session, actor: Actor) -> Reply:
        lang = await self.language(session.chat_id)
        game = Game.of(session)
        seats = seats_of(session)
        index = seat_index(session, actor.platform_id)
        if index is None:
            raise Refusal("err.not_in_game")
        creator_seated = any(s.user_id == session.creator_id for s in seats)
        if creator_seated and seats[index].user_id != session.creator_id:
            raise Refusal("err.creator_starts")
        if len(seats) < game.rules.min_players:
            raise Refusal("lobby.need", game.rules.min_players - len(seats))
        if not creator_seated:  # who starts a game its opener left may also stop it
            session = session.but(creator_id=seats[index].user_id)
        match = game.rules.start_match(game.options, len(seats), game.seed)
        try:
            state = game.rules.new_deal(game.options, len(seats), game.deal_seed(match.deal),
                                        match)
        except InvalidOptions as exc:
            # Options that suit some tables but not this many players (too few sets).
            raise Refusal("err.options", detail=str(exc)) from None
        reply = self._reply(session)
        session = _bump(session).but(status="active", state=game.dumps(state),
                                     messages=_with_last(session, ()))
        session = await self._step(session, session.version - 1, game, seats, state, reply)
        reply.table_fresh = True
        reply.hands = await self._hands(session, None, state, fresh=True,
                                        ended=_ended(reply, lang))
        await self._deliver(reply)
        return Reply(toast=tr(lang, "lobby.started"))

    # ----- presses ------------------------------------------------------------------------------

    async def _press(self, session: Session, actor: Actor, press: payload.Press) -> Reply:
        lang = await self.language(session.chat_id)
        code = press.code
        if code == "!join":
            return await self._join(session, actor)
        if code == "!leave":
            return await self._leave(session, actor)
        if code == "!add":
            return await self._lobby_only(session, lambda: self._add_computer(session, actor))
        if code == "!remove":
            return await self._lobby_only(session, lambda: self._remove_computer(session, actor))
        if code == "!start":
            return await self._lobby_only(session, lambda: self._start(session, actor))
        if code == "!peek":
            return self._peek(session, actor, lang)
        if code == "!back":
            return await self._back(session, actor)
        if code == "!hand":
            return await self._show_hand(session, actor)
        if code.startswith("!tiles-"):
            return await self._by_tiles(session, actor, press, code.removeprefix("!tiles-"))
        if code == "!pick" or code.startswith("!pick-"):
            return await self._pick(session, actor, press, code.removeprefix("!pick").lstrip("-"))
        if press.control:
            raise Refusal("err.forged")
        return await self._move_press(session, actor, press)

    async def _lobby_only(self, session: Session, run: Callable[[], Awaitable[Reply]]) -> Reply:
        if session.status != "lobby":
            raise Refusal("err.started")
        return await run()

    def _peek(self, session: Session, actor: Actor, lang: str) -> Reply:
        index = seat_index(session, actor.platform_id)
        if index is None:
            raise Refusal("err.not_in_game")
        if session.status != "active" or session.state is None:
            raise Refusal("err.not_started")
        game = Game.of(session)
        return Reply(toast=presenter.peek(game, game.state(session), index, lang), alert=True)

    async def _move_press(self, session: Session, actor: Actor, press: payload.Press) -> Reply:
        index = seat_index(session, actor.platform_id)
        if index is None:
            raise Refusal("err.not_your_game")
        if session.status != "active" or session.state is None:
            raise Refusal("err.not_started")
        if press.version != session.version:
            raise Refusal("err.stale")
        seats = seats_of(session)
        if seats[index].away:
            raise Refusal("err.away")
        game = Game.of(session)
        state = game.state(session)
        seat = seats[index]
        if seat.misses:
            seats[index] = _but_seat(seat, misses=0)
        try:
            await self._apply(session, seats, game, state, index, press.code)
        except NotYourTurn:
            raise Refusal("err.not_your_turn") from None
        except StaleVersion:
            raise Refusal("err.stale") from None
        except GameError:
            raise Refusal("err.illegal") from None
        return Reply()

    async def _apply(self, session: Session, seats: list[Seat], game: Game, state: Any,
                     seat: int, action: Action | str) -> Session:
        """One move through the rules core, saved, with the deal's end handled."""
        rules = game.rules
        new_state, events = play(rules, state, seat, action, state.version)
        reply = self._reply(session)
        updated = _bump(with_seats(session, seats)).but(state=game.dumps(new_state),
                                                         messages=_with_last(session, events))
        saved = await self._step(updated, session.version, game, seats, new_state, reply)
        reply.hands = await self._hands(saved, state, new_state,
                                        ended=_ended(reply, await self.language(saved.chat_id)))
        await self._deliver(reply)
        return saved

    async def _step(self, session: Session, expected: int, game: Game, seats: list[Seat],
                    state: Any, reply: Reply) -> Session:
        """Save a state and show what follows it on the table: the next turn's deadline while
        the deal goes on; once it is over (after a move, or straight from the deal when a hand
        is dealt complete) its settlement and result post in the same save, and the next
        deal's pause or the match's end."""
        rules = game.rules
        outcome = rules.outcome(state)
        settlement: Settlement | None = None
        posts: list[dict[str, Any]] = []
        if outcome is None:
            session = session.but(deadline=self._deadline(session, seats, state))
        else:
            settlement = Settlement(
                session.id, state.match.deal, session.chat_id, session.game, outcome.reason,
                settlement_seats([s.user_id for s in seats], outcome.points, outcome.deltas,
                                 outcome.winners, session.stake))
            after = rules.next_match(state)
            everyone_away = all(s.automatic for s in seats)
            if after.over or everyone_away:
                session = session.but(status="finished", deadline=None)
                reply.closed = True
            else:
                session = session.but(deadline=self.clock() + self.timing.deal_pause)
            posts.append({"kind": "result", "state": session.state,
                          "seats": [s.to_json() for s in seats], "next_at": session.deadline})
            if everyone_away and not after.over:
                posts.append({"kind": "note", "key": "table.everyone_away"})
        saved, keys = await self._save_posting(session, expected, settlement, posts)
        reply.posts.extend(await self._posts(saved, [StoredPost(key, saved.id, body)
                                                     for key, body in zip(keys, posts,
                                                                          strict=True)]))
        reply.table = await self._table_screen(saved, state, _last(saved), closed=reply.closed)
        return saved

    async def _posts(self, session: Session, posts: Sequence[StoredPost]) -> list[Post]:
        """The screens of kept posts, built again from what was kept (after a restart too)."""
        lang = await self.language(session.chat_id)
        game = Game.of(session)
        built: list[Post] = []
        for post in posts:
            body = post.body
            if body.get("kind") == "result":
                state = game.rules.loads(body["state"])
                seats = [Seat.from_json(s) for s in body["seats"]]
                screen = presenter.result(session, game, seats, state, lang,
                                          game.rules.next_match(state),
                                          presenter.Clock(self.clock(), body.get("next_at")),
                                          self.theme)
            else:
                screen = Screen(tr(lang, str(body.get("key", "table.everyone_away"))))
            built.append(Post(screen, post.id))
        return built

    async def _back(self, session: Session, actor: Actor) -> Reply:
        lang = await self.language(session.chat_id)
        index = seat_index(session, actor.platform_id)
        if index is None:
            raise Refusal("err.not_in_game")
        seats = seats_of(session)
        if not seats[index].away and not seats[index].misses:
            raise Refusal("err.not_away")
        seats[index] = _but_seat(seats[index], away=False, misses=0)
        await self._seats_changed(session, seats, index, "table.back", actor.name)
        return Reply(toast=tr(lang, "hand.welcome_back"))

    async def _seats_changed(self, session: Session, seats: list[Seat], changed: int, key: str,
                             name: str) -> Reply:
        """Away flags changed: the deadline follows (a person gets a full turn, the computer
        moves soon), and the table and the player's hand are shown again."""
        lang = await self.language(session.chat_id)
        updated = with_seats(session, seats)
        state = Game.of(session).state(session)
        if state is not None and Game.of(session).rules.outcome(state) is None:
            updated = updated.but(deadline=self._deadline(updated, seats, state))
        # The version moves on: buttons drawn for the computer's turn are no longer valid.
        saved = await self._save(_bump(updated), session.version)
        reply = self._reply(saved)
        if state is not None:
            reply.table = await self._table_screen(saved, state, _last(saved))
            reply.hands = await self._hands(saved, state, state, only_to_move=True,
                                            also=changed)
        await self._deliver(reply)
        return Reply(toast=tr(lang, key, name=name))

    async def _show_hand(self, session: Session, actor: Actor) -> Reply:
        lang = await self.language(session.chat_id)
        index = seat_index(session, actor.platform_id)
        if index is None:
            raise Refusal("err.not_in_game")
        if session.status != "active" or session.state is None:
            raise Refusal("err.not_started")
        game = Game.of(session)
        reply = self._reply(session)
        reply.hands = [HandUpdate(actor.platform_id, await self._hand_screen(
            session, game.state(session), index), fresh=True)]
        await self._deliver(reply)
        return Reply(toast=tr(lang, "hand.sent"))

    async def _pick(self, session: Session, actor: Actor, press: payload.Press,
                    picked: str) -> Reply:
        """The first of two taps: show the moves of one tile (nothing changes in the game)."""
        index = _current_seat(session, actor, press)
        game = Game.of(session)
        view = game.rules.view(game.state(session), index)
        if picked and not presenter.picks(view, picked, await self.language(session.chat_id)):
            raise Refusal("err.forged")
        reply = self._reply(session)
        reply.hands = [HandUpdate(actor.platform_id, await self._hand_screen(
            session, Game.of(session).state(session), index, picked or None))]
        await self._deliver(reply)
        return Reply()

    async def _by_tiles(self, session: Session, actor: Actor, press: payload.Press,
                        letters: str) -> Reply:
        """A play chosen by its tiles (a multi-select): made at once when the tiles name one
        move; when they name several (beat or fold with the same tiles), those are shown."""
        index = _current_seat(session, actor, press)
        game = Game.of(session)
        view = game.rules.view(game.state(session), index)
        chosen = presenter.moves_by_letters(view, letters.split("-"))
        if not chosen:
            raise Refusal("err.no_such_play")
        if len(chosen) > 1:
            return await self._pick(session, actor, press, f"={letters}")
        code = chosen[0].code(game.rules.tileset(game.options))
        return await self._move_press(session, actor, payload.Press(press.session_id,
                                                                    press.version, code))

    async def _stop(self, session: Session, actor: Actor, is_admin: IsAdmin) -> Reply:
        lang = await self.language(session.chat_id)
        user_id = await self.user_of(actor)
        if user_id != session.creator_id and not await is_admin():
            raise Refusal("err.stop_rights")
        game = Game.of(session)
        state = game.state(session)
        between = state is not None and game.rules.outcome(state) is not None
        status = "finished" if between else "abandoned"
        saved = await self._save(_bump(session).but(status=status, deadline=None),
                                 session.version)
        reply = self._reply(saved)
        key = ("stop.lobby" if state is None else "stop.between" if between else "stop.mid_deal")
        said = tr(lang, key, name=actor.name)
        reply.table = Screen(said)
        reply.closed = True
        if state is not None:  # every hand says so, and keeps no button
            reply.hands = await self._hands(saved, state, state, fresh=False, ended=said,
                                            everyone=True)
        await self._deliver(reply)
        return Reply(toast=tr(lang, "stop.done"))

    # ----- timers -------------------------------------------------------------------------------

    def _deadline(self, session: Session, seats: list[Seat], state: Any) -> float:
        rules = games.get(session.game)
        mover = rules.to_move(state)
        if mover is not None and seats[mover].automatic:
            return self.clock() + self.timing.computer_delay
        return self.clock() + self._turn_timeout(session)

    def _turn_timeout(self, session: Session) -> float:
        """The chat's turn limit (its settings are cached by every request's `language`)."""
        return float(self._settings.get(session.chat_id, ChatSettings()).turn_timeout)

    def _arm(self, session: Session, restoring: bool = False) -> None:
        for handles in (self._timers, self._ticks):
            old = handles.pop(session.id, None)
            if old is not None:
                old.cancel()
        if self._closed or session.deadline is None or session.status not in ("lobby", "active"):
            return
        loop = asyncio.get_running_loop()
        delay = session.deadline - self.clock()
        if restoring:
            delay = max(delay, self.timing.restore_grace)
        deadline = session.deadline
        self._timers[session.id] = loop.call_later(
            max(0.0, delay), self._spawn, self._fire, session.id, deadline)
        tick = None if self.live_countdown else presenter.next_refresh(delay)
        if tick is not None and tick > 0.5 and self._needs_countdown(session):
            self._ticks[session.id] = loop.call_later(
                tick, self._spawn, self._tick, session.id, deadline)

    def _needs_countdown(self, session: Session) -> bool:
        if session.status == "lobby":
            return True
        if session.state is None:
            return False
        game = Game.of(session)
        state = game.state(session)
        mover = game.rules.to_move(state)
        return mover is not None and not seats_of(session)[mover].automatic

    def _spawn(self, work: Callable[[int, float], Coroutine[Any, Any, None]], session_id: int,
               deadline: float) -> None:
        """Start a timer's work; the coroutine is made only now, so a cancelled timer leaves
        nothing unawaited behind."""
        if self._closed:
            return
        task = asyncio.ensure_future(work(session_id, deadline))
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a timer failed", exc_info=task.exception())

    async def _tick(self, session_id: int, deadline: float) -> None:
        """Refresh the countdown shown on the table (and re-arm the next refresh)."""
        async with self._lock(session_id):
            session = await self._load(session_id)
            if session is None or session.deadline != deadline:
                return
            self._arm(session)
            reply = self._reply(session)
            if session.status == "lobby":
                reply.table = await self._lobby_screen(session)
            else:
                game = Game.of(session)
                state = game.state(session)
                reply.table = await self._table_screen(session, state, _last(session))
                reply.hands = await self._hands(session, state, state, only_to_move=True)
            await self._deliver(reply)

    async def _fire(self, session_id: int, deadline: float) -> None:
        try:
            async with self._lock(session_id):
                session = await self._load(session_id)
                if (session is None or session.deadline != deadline
                        or session.status not in ("lobby", "active")):
                    return
                await self._on_deadline(session)
        except StaleSave:
            # Another process saved first: follow its deadline rather than lose the timer.
            self._cache.pop(session_id, None)
            session = await self._load(session_id)
            if session is not None:
                self._arm(session)
        except StorageError:
            # The database is busy or gone: try again shortly rather than losing the turn.
            log.warning("session %s: storage failed at its deadline; retrying", session_id)
            if not self._closed:
                asyncio.get_running_loop().call_later(
                    2.0, self._spawn, self._fire, session_id, deadline)

    async def _on_deadline(self, session: Session) -> None:
        lang = await self.language(session.chat_id)
        if session.status == "lobby":
            saved = await self._save(_bump(session).but(status="abandoned", deadline=None),
                                     session.version)
            reply = self._reply(saved)
            reply.table = Screen(tr(lang, "lobby.timed_out"))
            reply.closed = True
            await self._deliver(reply)
            return
        game = Game.of(session)
        state = game.state(session)
        seats = seats_of(session)
        rules = game.rules
        if rules.outcome(state) is not None:
            await self._next_deal(session, game, seats, state)
            return
        mover = rules.to_move(state)
        assert mover is not None
        seat = seats[mover]
        notices: list[tuple[str, Screen]] = []
        if not seat.automatic:
            misses = seat.misses + 1
            away = misses >= MISSES_BEFORE_AWAY
            seats[mover] = _but_seat(seat, misses=misses, away=away)
            if away:
                notices.append((seat.platform_id, Screen(tr(lang, "hand.now_away"))))
        chooser = make_player(rules.id, "heuristic")
        # A turn can take several moves (take, pay for it, discard): for a person whose time
        # ran out the computer finishes the whole turn, so that counts as one missed turn, not
        # one per move. A computer's own moves keep their pace, one per deadline.
        while True:
            action = chooser.choose(rules.view(state, mover), _rng(game, state))
            session = await self._apply(session, seats, game, state, mover, action)
            state = game.state(session)
            if (seat.automatic or rules.outcome(state) is not None
                    or rules.to_move(state) != mover):
                break
        if notices:
            saved = self._cache.get(session.id, session)
            reply = self._reply(saved)
            reply.private.extend(notices)
            await self._deliver(reply)

    async def _next_deal(self, session: Session, game: Game, seats: list[Seat],
                         state: Any) -> None:
        rules = game.rules
        match = rules.next_match(state)
        new_state = rules.new_deal(game.options, len(seats), game.deal_seed(match.deal), match)
        reply = self._reply(session)
        updated = _bump(session).but(state=game.dumps(new_state),
                                     messages=_with_last(session, ()))
        saved = await self._step(updated, session.version, game, seats, new_state, reply)
        reply.hands = await self._hands(saved, None, new_state, fresh=True,
                                        ended=_ended(reply, await self.language(saved.chat_id)))
        await self._deliver(reply)

    # ----- screens ------------------------------------------------------------------------------

    async def _table_screen(self, session: Session, state: Any, events: Sequence[Event],
                            closed: bool = False) -> Screen:
        lang = await self.language(session.chat_id)
        return presenter.table(session, Game.of(session), seats_of(session), state, lang,
                               list(events), self._clock(session), self.theme, closed)

    async def _hand_screen(self, session: Session, state: Any, seat: int,
                           picked: str | None = None, ended: str = "") -> Screen:
        lang = await self.language(session.chat_id)
        return presenter.hand(session, Game.of(session), seats_of(session), state, seat, lang,
                              self._clock(session), picked, self.theme, ended)

    async def _hands(self, session: Session, before: Any, after: Any, fresh: bool = False,
                     only_to_move: bool = False, also: int | None = None, ended: str = "",
                     everyone: bool = False) -> list[HandUpdate]:
        """Private hands that changed: the tiles, whose turn it is, or the buttons' version
        (`also`: a seat whose own screen changed, e.g. its "I'm back" button went away;
        `everyone` when the game ended, `ended` saying how)."""
        rules = games.get(session.game)
        updates: list[HandUpdate] = []
        now_moving = rules.to_move(after)
        was_moving = None if before is None else rules.to_move(before)
        for index, seat in enumerate(seats_of(session)):
            if seat.computer:
                continue
            mine_now = now_moving == index
            if only_to_move and not mine_now and index != also:
                continue
            changed = (fresh or everyone or before is None or mine_now or was_moving == index
                       or rules.view(before, index).hand != rules.view(after, index).hand
                       or rules.outcome(after) is not None)
            if not changed:
                continue
            turn_starts = mine_now and was_moving != index and not seat.away and not ended
            updates.append(HandUpdate(seat.platform_id,
                                      await self._hand_screen(session, after, index,
                                                              ended=ended),
                                      fresh=fresh or turn_starts))
        return updates


def _current_seat(session: Session, actor: Actor, press: payload.Press) -> int:
    """The presser's seat, for a press that only shows a screen of the current version."""
    index = seat_index(session, actor.platform_id)
    if index is None:
        raise Refusal("err.not_your_game")
    if press.version != session.version or session.state is None:
        raise Refusal("err.stale")
    return index


def _open(session: Session | None) -> bool:
    return session is not None and session.status in ("lobby", "active")


def _bump(session: Session) -> Session:
    return session.but(version=session.version + 1)


def _but_seat(seat: Seat, **changes: Any) -> Seat:
    return dataclasses.replace(seat, **changes)


def _rng(game: Game, state: Any) -> random.Random:
    """The computer's tie-breaks, reproducible from the session's seed."""
    return rng(game.seed, f"computer/{state.match.deal}/{state.version}")


def _last(session: Session) -> tuple[Event, ...]:
    """What the last move did, kept with the session so that a countdown refresh, a restart or
    a player coming back shows it as the move itself did."""
    return tuple(Event(str(e["kind"]), e.get("seat"), tuple(e.get("tiles", ())), e.get("value"))
                 for e in session.messages.get("last", ()))


def _with_last(session: Session, events: Sequence[Event]) -> dict[str, Any]:
    last = [{"kind": e.kind, "seat": e.seat, "tiles": list(e.tiles), "value": e.value}
            for e in events]
    return {**session.messages, "last": last}


def _ended(reply: Reply, lang: str) -> str:
    """What a hand says once its match is over (and then it keeps no button)."""
    return tr(lang, "table.over") if reply.closed else ""


def _refused(lang: str, key: str) -> Reply:
    text = tr(lang, key)
    return Reply(toast=text, answer=Screen(text))


def _storage_answer(exc: StorageError, lang: str) -> Reply:
    text = tr(lang, "err.storage")
    log.warning("storage: %s", exc)
    return Reply(toast=text, answer=Screen(text))
