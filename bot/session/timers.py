"""What happens when nobody acts: one deadline per session, and the countdown on the table.

docs/architecture.md §4. A session's deadline says what comes next: the lobby closes, a computer
seat moves at its level (an absent player's seat, at the usual level), a person's turn runs out (two
in a row, and the computer plays for them until they are back), or the next deal starts. It is
stored with the session, so after a restart the timers are rebuilt from the database. Where a
platform cannot show a countdown that counts by itself, the table is refreshed at the 60-, 30- and
10-second steps. Where several processes share the database, a deadline is acted on only by the
process holding the game's lease (`bot.service.workers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
from collections.abc import Callable, Coroutine
from typing import Any

from bot.present import presenter
from bot.present.screens import Screen
from bot.service.logs import about_session
from bot.session.lobby import Lobby
from bot.session.requests import Requests, is_open, log_chat
from bot.session.seating import Game, seats_of
from bot.session.turns import Turns, last
from games.engine import rng
from games.players import make_player
from storage import Session, StaleSave, StorageError
from words.i18n import tr

log = logging.getLogger(__name__)

MISSES_BEFORE_AWAY = 2
RETRY = 2.0
"""Seconds before a deadline the database could not serve is tried again."""
THINKING = frozenset({"strong"})
"""Levels whose choice is a search (up to ~200 ms of CPU): made in a worker thread, so the
event loop keeps answering while they think. The others choose in well under a millisecond."""


class Timers:
    def __init__(self, requests: Requests, turns: Turns, lobby: Lobby) -> None:
        self.r = requests
        self.turns = turns
        self.lobby = lobby
        self.deadlines: dict[int, asyncio.TimerHandle] = {}
        self.ticks: dict[int, asyncio.TimerHandle] = {}
        """The next countdown refresh of each session."""
        self.tasks: set[asyncio.Task[None]] = set()
        self.closed = False

    def arm(self, session: Session, restoring: bool = False) -> None:
        """Follow the session's deadline (after every save, and after a restart)."""
        for handles in (self.deadlines, self.ticks):
            old = handles.pop(session.id, None)
            if old is not None:
                old.cancel()
        if self.closed or session.deadline is None or not is_open(session):
            return
        loop = asyncio.get_running_loop()
        delay = session.deadline - self.r.clock()
        if restoring:
            delay = max(delay, self.r.timing.restore_grace)
        deadline = session.deadline
        self.deadlines[session.id] = loop.call_later(
            max(0.0, delay), self._spawn, self.fire, session.id, deadline)
        tick = None if self.r.live_countdown else presenter.next_refresh(delay)
        if tick is not None and tick > 0.5 and self._counted_down(session):
            self.ticks[session.id] = loop.call_later(
                tick, self._spawn, self.tick, session.id, deadline)

    async def close(self) -> None:
        self.closed = True
        for handle in [*self.deadlines.values(), *self.ticks.values()]:
            handle.cancel()
        self.deadlines.clear()
        self.ticks.clear()
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def idle(self) -> None:
        """Wait until no timer-driven work is running (tests and the console use it)."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)

    def _counted_down(self, session: Session) -> bool:
        """A person is waited for (a lobby, or a person's turn): the countdown is shown."""
        if session.status == "lobby":
            return True
        if session.state is None:
            return False
        game = Game.of(session)
        mover = game.rules.to_move(game.state(session))
        return mover is not None and not seats_of(session)[mover].automatic

    def _spawn(self, work: Callable[[int, float], Coroutine[Any, Any, None]], session_id: int,
               deadline: float) -> None:
        """Start a timer's work; the coroutine is made only now, so a cancelled timer leaves
        nothing unawaited behind."""
        if self.closed:
            return
        task = asyncio.ensure_future(work(session_id, deadline))
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a timer failed", exc_info=task.exception())

    @about_session
    async def tick(self, session_id: int, deadline: float) -> None:
        """Refresh the countdown shown on the table (and re-arm the next refresh)."""
        async with self.r.lock(session_id):
            session = await self.r.current(session_id)
            if session is None or session.deadline != deadline \
                    or not await self.r.worker.holds(session_id):
                return
            log_chat(session)
            self.arm(session)
            reply = self.r.reply(session)
            if session.status == "lobby":
                reply.table = await self.lobby.screen(session)
            else:
                state = Game.of(session).state(session)
                reply.table = await self.turns.table_screen(session, state, last(session))
                reply.hands = await self.turns.hands(session, state, state, only_to_move=True)
            await self.r.show(reply)

    @about_session
    async def fire(self, session_id: int, deadline: float) -> None:
        try:
            async with self.r.lock(session_id):
                session = await self.r.current(session_id)
                if session is None or session.deadline != deadline or not is_open(session):
                    return
                if not await self.r.worker.holds(session_id):
                    return  # another process runs this game's timers
                log_chat(session)
                await self.due(session)
        except StaleSave:
            # Another process saved first: follow its deadline rather than lose the timer.
            self.r.cache.pop(session_id, None)
            session = await self.r.load(session_id)
            if session is not None:
                self.arm(session)
        except StorageError:
            # The database is busy or gone: try again shortly rather than losing the turn.
            log.warning("session %s: storage failed at its deadline; retrying", session_id)
            if not self.closed:
                asyncio.get_running_loop().call_later(
                    RETRY, self._spawn, self.fire, session_id, deadline)

    async def due(self, session: Session) -> None:
        """The session's deadline has come (under its lock)."""
        if session.status == "lobby":
            await self.lobby.timed_out(session)
            return
        game = Game.of(session)
        state = game.state(session)
        seats = seats_of(session)
        rules = game.rules
        if rules.outcome(state) is not None:
            await self.turns.next_deal(session, game, seats, state)
            return
        mover = rules.to_move(state)
        assert mover is not None
        seat = seats[mover]
        notices: list[tuple[str, Screen]] = []
        if not seat.automatic:
            misses = seat.misses + 1
            away = misses >= MISSES_BEFORE_AWAY
            seats[mover] = dataclasses.replace(seat, misses=misses, away=away)
            if away:  # told in the player's own language
                lang = (await self.r.seat_languages(session))[mover]
                notices.append((seat.platform_id, Screen(tr(lang, "hand.now_away"))))
        level = seat.plays_at
        chooser = make_player(rules.id, level)
        # A turn can take several moves (take, pay for it, discard): for a person whose time
        # ran out the computer finishes the whole turn, so that counts as one missed turn, not
        # one per move. A computer's own moves keep their pace, one per deadline.
        while True:
            view, choice_rng = rules.view(state, mover), _rng(game, state)
            if level in THINKING:  # other tables and buttons are served while it thinks
                action = await asyncio.to_thread(chooser.choose, view, choice_rng)
            else:
                action = chooser.choose(view, choice_rng)
            session = await self.turns.apply(session, seats, game, state, mover, action)
            state = game.state(session)
            if (seat.automatic or rules.outcome(state) is not None
                    or rules.to_move(state) != mover):
                break
        if notices:
            reply = self.r.reply(self.r.cache.get(session.id, session))
            reply.private.extend(notices)
            await self.r.show(reply)


def _rng(game: Game, state: Any) -> random.Random:
    """The computer's tie-breaks, reproducible from the session's seed."""
    return rng(game.seed, f"computer/{state.match.deal}/{state.version}")
