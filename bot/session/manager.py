"""The platform-neutral session layer's front door: what adapters ask, and where presses go.

docs/architecture.md §4 and §1 invariants 6–8. An adapter turns a command or a press into one call
here and shows the screens that come back. The work is done by the layer's parts, each in its
module: the request path (`bot.session.requests`: lock, load, save, show), the table's life
(`bot.session.lobby`), a game in play (`bot.session.turns`) and what happens when nobody acts
(`bot.session.timers`). A press's code is either a move of the game or one of the session layer's
own (`bot.present.payload`'s named controls), routed by `CONTROLS`.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.deals.seasons import SeasonKeeper
from bot.present import payload
from bot.present.screens import Actor, Place, Reply, Target
from bot.service.logs import log_context
from bot.service.metrics import Metrics, PlatformMetrics
from bot.session.hosting import Hosting
from bot.session.lobby import MAX_STAKE, Lobby
from bot.session.requests import Deliver, IsAdmin, Refusal, Requests, Timing
from bot.session.timers import Timers
from bot.session.turns import Turns
from storage import ChatSettings, Session, Storage, StorageError
from words.i18n import lang_of, tr

__all__ = ["MAX_LOBBY", "MAX_STAKE", "MAX_TURN", "MIN_LOBBY", "MIN_TURN", "IsAdmin",
           "SessionManager", "Timing"]

MIN_TURN, MAX_TURN = 10, 3600
MIN_LOBBY, MAX_LOBBY = 30, 86_400

Control = Callable[["SessionManager", Session, Actor, payload.Press], Awaitable[Reply]]


def _in_lobby(run: Callable[[Lobby, Session, Actor], Awaitable[Reply]]) -> Control:
    """A press that only a lobby takes (once the game started, it is refused)."""
    async def control(m: SessionManager, s: Session, a: Actor, p: payload.Press) -> Reply:
        if s.status != "lobby":
            raise Refusal("err.started")
        return await run(m.lobby, s, a)
    return control


async def _peek(m: SessionManager, s: Session, a: Actor, p: payload.Press) -> Reply:
    return await m.turns.peek(s, a)


CONTROLS: dict[str, Control] = {
    payload.JOIN: lambda m, s, a, p: m.hosting.join(s, a),
    payload.LEAVE: lambda m, s, a, p: m.hosting.leave(s, a),
    payload.ADD: _in_lobby(Lobby.add_computer),
    payload.REMOVE: _in_lobby(Lobby.remove_computer),
    payload.START: _in_lobby(Lobby.start),
    payload.PEEK: _peek,
    payload.BACK: lambda m, s, a, p: m.turns.back(s, a),
    payload.HAND: lambda m, s, a, p: m.turns.show_hand(s, a),
    payload.PICK: lambda m, s, a, p: m.turns.pick(s, a, p, ""),
}
"""The session layer's own presses (`!tiles-…`, `!pick-…` and `!add-…` carry an argument:
see `SessionManager._press`)."""


class SessionManager:
    requests: Requests
    turns: Turns
    lobby: Lobby
    timers: Timers
    hosting: Hosting
    seasons: SeasonKeeper

    def __init__(self, storage: Storage, platform: str, timing: Timing | None = None,
                 clock: Callable[[], float] = time.time, theme: str = "dark",
                 live_countdown: bool = False, metrics: PlatformMetrics | None = None) -> None:
        """`live_countdown`: the platform shows a screen's countdown ticking by itself
        (Discord's timestamps), so the table is never edited just to count down. `metrics`:
        where moves, deals and settlements are counted (by default, a registry of its own)."""
        self.requests = Requests(storage, platform, timing, clock, theme, live_countdown)
        self.metrics = metrics or Metrics().platform(platform)
        self.metrics.watch_games(self.open_games)
        self.turns = Turns(self.requests, self.metrics)
        self.lobby = Lobby(self.requests, self.turns)
        self.timers = Timers(self.requests, self.turns, self.lobby)
        self.hosting = Hosting(self.requests, self.turns, self.lobby, self.timers)
        self.seasons = SeasonKeeper(self.requests, self.turns)
        self.requests.worker.also.append(self.seasons.sweep)
        self.requests.saved = self.timers.arm

    # ----- what the adapters are given ----------------------------------------------------------

    @property
    def storage(self) -> Storage:
        return self.requests.storage

    @property
    def theme(self) -> str:
        return self.requests.theme

    @property
    def deliver(self) -> Deliver | None:
        return self.requests.deliver

    @deliver.setter
    def deliver(self, deliver: Deliver | None) -> None:
        self.requests.deliver = deliver

    @property
    def clock(self) -> Callable[[], float]:
        return self.requests.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.requests.clock = clock

    # ----- life cycle ---------------------------------------------------------------------------

    async def restore(self) -> int:
        """Join the processes sharing the database and take over the open games of this
        platform that no living process holds (after a restart: all of them), with the posts
        their processes saved but never saw delivered; returns how many games it took."""
        taken = 0

        async def take_over(sessions: list[Session], posts: set[int]) -> None:
            nonlocal taken
            taken += len(sessions)
            await self._take_over(sessions, posts)

        self.requests.worker.take_over = take_over
        await self.requests.worker.start()
        return taken

    async def _take_over(self, sessions: list[Session], wanted: set[int]) -> None:
        """Show these games again and re-arm their timers, and deliver the posts with these
        ids, which no living process delivers."""
        r = self.requests
        pending: dict[int, list[Any]] = {}
        for post in await r.storage.sessions.pending_posts(r.platform):
            if post.id in wanted:
                pending.setdefault(post.session_id, []).append(post)
        for session in sessions:
            r.cache[session.id] = session
            self.timers.arm(session, restoring=True)
            await r.language(session.chat_id)
            if session.status == "lobby":
                async with r.lock(session.id):
                    reply = r.reply(session)
                    reply.table = await self.lobby.screen(session)
                    await r.show(reply)
            else:
                await self.turns.refresh(session, pending.pop(session.id, []))
        for session_id, posts in pending.items():  # games held elsewhere, or ended
            held = await r.storage.sessions.get(session_id)
            if held is not None:
                reply = r.reply(held)
                reply.posts = await self.turns.posts(held, posts)
                reply.closed = held.status not in ("lobby", "active")
                await r.show(reply)

    async def close(self) -> None:
        await self.timers.close()
        await self.requests.worker.close()

    async def idle(self) -> None:
        """Wait until no timer-driven work is running (tests and the console use it)."""
        await self.timers.idle()

    # ----- chats and people ---------------------------------------------------------------------

    async def language(self, chat_id: int) -> str:
        return await self.requests.language(chat_id)

    async def chat_settings(self, chat_id: int) -> ChatSettings:
        return await self.requests.chat_settings(chat_id)

    def forget_settings(self, chat_id: int) -> None:
        self.requests.forget_settings(chat_id)

    async def chat_of(self, place: Place, actor: Actor | None = None) -> tuple[int, str]:
        return await self.requests.chat_of(place, actor)

    async def user_of(self, actor: Actor) -> int:
        return await self.requests.user_of(actor)

    async def update_settings(self, chat_id: int, **changes: Any) -> None:
        """Change a chat's settings (the commands' `/lang` and `/settings`)."""
        await self.storage.accounts.update_settings(chat_id, **changes)
        self.forget_settings(chat_id)

    async def person_language(self, actor: Actor, fallback: str | None = None) -> str:
        """The language of what the actor alone sees (their chosen one, else their client's,
        else `fallback`, the chat's where there is one). A database that cannot say leaves
        the client's: an answer in it beats no answer."""
        fallback = fallback or lang_of(actor.language)
        try:
            return await self.requests.person_language(actor, fallback)
        except StorageError:
            return fallback

    async def language_of(self, platform_id: str, chat_id: int) -> str:
        """The language of a note to one player about a game in `chat_id`."""
        return await self.requests.language_of(platform_id, chat_id)

    async def chosen_language(self, actor: Actor) -> str | None:
        """The language the actor chose for themselves, if they did."""
        return (await self.requests.person(actor.platform_id)).chosen

    async def choose_language(self, actor: Actor, language: str | None) -> None:
        """`/lang uk|en` in the private chat: the actor's hands and notes from now on."""
        await self.requests.choose_language(actor, language)

    # ----- requests -----------------------------------------------------------------------------

    # A command's `alone`: its answer is seen by the actor alone (Discord's ephemeral
    # answers), so it is in their language; else it is posted in the chat, in the chat's.

    async def new_game(self, place: Place, actor: Actor, words: list[str], *,
                       alone: bool = False) -> Reply:
        """`/newgame GAME [PRESET] [STAKE] [option=value ...]`: a lobby with its creator seated."""
        with log_context(chat=place.chat or None):
            return await self.lobby.new_game(place, actor, words, alone=alone)

    async def join(self, place: Place, actor: Actor, *, alone: bool = False) -> Reply:
        """`/join` in the chat of a lobby, or of a game with a seat the computer plays."""
        return await self.requests.in_place(place, actor, lambda s: self.hosting.join(s, actor),
                                            alone=alone)

    async def join_session(self, session_id: int, actor: Actor) -> Reply:
        """Joining through the deep link, from the private chat (the bot may now write there)."""
        return await self.requests.in_session(session_id, actor,
                                              lambda s: self.hosting.join(s, actor))

    async def leave(self, place: Place, actor: Actor, *, alone: bool = False) -> Reply:
        return await self.requests.in_place(place, actor,
                                            lambda s: self.hosting.leave(s, actor), alone=alone)

    async def remove(self, place: Place, actor: Actor, target: Target, is_admin: IsAdmin, *,
                     alone: bool = False) -> Reply:
        """`/kick`: the creator (or an admin) removes a player."""
        return await self.requests.in_place(
            place, actor, lambda s: self.hosting.remove(s, actor, target, is_admin),
            alone=alone)

    async def skip(self, place: Place, actor: Actor, is_admin: IsAdmin, *,
                   alone: bool = False) -> Reply:
        """`/skip`: the creator (or an admin) has the computer play the turn due now."""
        return await self.requests.in_place(
            place, actor, lambda s: self.hosting.skip(s, actor, is_admin), alone=alone)

    async def stop(self, place: Place, actor: Actor, is_admin: IsAdmin, *,
                   alone: bool = False) -> Reply:
        return await self.requests.in_place(
            place, actor, lambda s: self.lobby.stop(s, actor, is_admin), alone=alone)

    async def show_hand(self, session_id: int, actor: Actor) -> Reply:
        """The player's hand again, as a new private message (after "Start me", "My tiles")."""
        return await self.requests.in_session(session_id, actor,
                                              lambda s: self.turns.show_hand(s, actor))

    async def abandon(self, session_id: int) -> None:
        await self.lobby.abandon(session_id)

    async def press(self, actor: Actor, data: str) -> Reply:
        """A button. Forged, stale and foreign presses get a toast and change nothing."""
        try:
            press = payload.decode(data)
        except payload.BadPayload:
            return Reply(toast=tr(await self.person_language(actor), "err.forged"))
        if press.code == payload.AGAIN:
            return await self.lobby.play_again(press.session_id, actor)

        async def run(session: Session) -> Reply:
            return await self._press(session, actor, press)
        return await self.requests.in_session(press.session_id, actor, run)

    async def _press(self, session: Session, actor: Actor, press: payload.Press) -> Reply:
        code = press.code
        control = CONTROLS.get(code)
        if control is not None:
            return await control(self, session, actor, press)
        if code.startswith(f"{payload.TILES}-"):
            return await self.turns.by_tiles(session, actor, press,
                                             code.removeprefix(f"{payload.TILES}-"))
        if code.startswith(f"{payload.PICK}-"):
            return await self.turns.pick(session, actor, press,
                                         code.removeprefix(f"{payload.PICK}-"))
        if code.startswith(f"{payload.ADD}-"):
            if session.status != "lobby":
                raise Refusal("err.started")
            return await self.lobby.add_computer(session, actor,
                                                 code.removeprefix(f"{payload.ADD}-"))
        if press.control:
            raise Refusal("err.forged")
        return await self.turns.move_press(session, actor, press)

    # ----- what the adapters keep with a session ------------------------------------------------

    async def remember(self, session_id: int, key: str, value: Any) -> None:
        """Keep a platform message id with the session ("table", or "hands/<user>")."""
        await self.requests.remember(session_id, key, value)

    async def delivered(self, key: int) -> None:
        """The chat has a kept post: it is not sent again after a restart."""
        await self.requests.delivered(key)

    async def session(self, session_id: int) -> Session | None:
        """The session as the layer last saved it (an open one only if this platform's)."""
        return await self.requests.load(session_id)

    async def stored(self, session_id: int) -> Session | None:
        """The session as stored, open or not: the message ids an adapter kept with it, who
        started it, after it ended too."""
        return await self.storage.sessions.get(session_id)

    async def balance(self, place: Place, actor: Actor) -> int:
        """The actor's chips in the place's chat."""
        chat_id, _ = await self.chat_of(place, actor)
        return await self.storage.accounts.balance(chat_id, await self.user_of(actor))

    async def open_games(self) -> int:
        """Lobbies and games in play on this platform, in every process's keeping."""
        r = self.requests
        row = await r.storage.db.read_one(
            "SELECT COUNT(*) FROM sessions s JOIN chats c ON c.id = s.chat_id "
            "WHERE s.status IN (?, ?) AND c.platform = ?", ("lobby", "active", r.platform))
        return int(row[0]) if row is not None else 0

    async def open_in(self, place: Place) -> Session | None:
        r = self.requests
        chat_id = await r.storage.accounts.chat(r.platform, place.chat, place.title)
        session = await r.storage.sessions.open_in(chat_id, place.topic)
        return None if session is None else r.cache.get(session.id, session)
