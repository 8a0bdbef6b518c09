"""How `gupai play` finds its table: the game an earlier run left open, resumed (asked first
when it is another game, or other settings, than the one named), or a new one whose lobby is
filled with computer players and started through the same buttons a chat has.

docs/architecture.md §5 (Console). A saved game the player declines is stopped as `/stop` stops one:
its finished deals keep their chips and the unfinished deal settles nothing.
"""

from __future__ import annotations

import asyncio
import time

import games
from bot.console.console_input import Terminal, buttons_of
from bot.console.console_options import PlayOptions, shown_value
from bot.present import payload, presenter
from bot.present.screens import Actor, Place, Reply, Screen
from bot.session.manager import MAX_STAKE, MAX_TURN, SessionManager
from bot.session.seating import Game, seats_of
from games.engine import GameError
from games.players import LEVELS, offered
from storage import Session
from storage.accounts import DEFAULT_LEVEL
from words.i18n import tr

CHAT_PREFIX = "terminal:"
"""Each player's console games live in a chat of their own (`terminal:<login>`), so two people
sharing a database file never find each other's unfinished game."""


def asked_other(options: PlayOptions, session: Session, lang: str) -> str:
    """The question to ask before resuming `session` when it is not what `options` ask for
    (another game; or players, stake, computers' level, preset or options named that differ);
    "" when it is, or when no game was named. Options that are not valid raise GameError."""
    if not options.game:
        return ""
    rules = games.get(options.game)
    saved = Game.of(session)
    title = presenter.title(saved, lang)
    if rules.id != saved.rules.id:
        return tr(lang, "console.resume_other", game=title)
    pairs = dict(word.partition("=")[::2] for word in options.options)
    levels = {s.plays_at for s in seats_of(session) if s.computer}
    changed = (
        (options.players is not None and options.players != len(session.seats))
        or (options.stake is not None and options.stake != session.stake)
        or (options.level is not None and bool(levels)
            and levels != {offered(rules, options.level)})
        or ((options.preset is not None or bool(pairs))
            and rules.parse_options(options.preset, pairs) != saved.options))
    if not changed:
        return ""
    settings = [*([saved.preset] if saved.preset else []),
                *(f"{k}={shown_value(v)}" for k, v in saved.values.items()),
                tr(lang, "console.players_n", len(session.seats)),
                tr(lang, "console.stake_n", stake=session.stake),
                *([tr(lang, "console.level", levels=", ".join(
                    tr(lang, f"level.{level}") for level in LEVELS if level in levels))]
                  if options.level is not None and levels else [])]
    return tr(lang, "console.resume_changed", game=title, saved=", ".join(settings))


async def yes_to_stop() -> bool:
    """The console's player may always stop their own table."""
    return True


class Opening:
    """What the console knows of its table from the start: the manager, the player, the chat
    and the replies queued for it."""

    def __init__(self, manager: SessionManager, options: PlayOptions, term: Terminal) -> None:
        self.m = manager
        self.opts = options
        self.term = term
        self.say = term.say
        self.lang = options.lang
        self.actor = Actor(options.player_id, options.name, options.lang)
        self.place = Place(CHAT_PREFIX + options.player_id, "", "Console")
        self.queue: asyncio.Queue[Reply] = asyncio.Queue()
        self.session_id: int | None = None
        self.chat_id = 0
        self.stake = 1
        """The session's stake, which turns a pot counted in antes into chips."""
        self.folder = ""
        """The session's own folder for its pictures (`dingniu-3-20261129-004212`: the game, the
        session's number and when it began), so that no game's pictures overwrite or mix with
        another's, even one kept in another database file."""
        manager.deliver = self.deliver

    async def deliver(self, reply: Reply) -> None:
        """Called by the manager under the session's lock: only queue, never wait."""
        if reply.place is not None and reply.place.chat != self.place.chat:
            return
        if self.session_id is not None and reply.session_id not in (None, self.session_id):
            return
        self.queue.put_nowait(reply)

    async def open(self) -> bool:
        """The table to play at, resumed or new; False when none can be played (said why)."""
        self.chat_id, _ = await self.m.chat_of(self.place, self.actor)
        # A new table's computers come by its plain "add a computer", at the chat's level.
        await self.m.update_settings(self.chat_id, turn_timeout=MAX_TURN, language=self.lang,
                                     level=self.opts.level or DEFAULT_LEVEL,
                                     max_stake=MAX_STAKE)
        resumed = await self._resume()
        if resumed is None or (not resumed and not await self._create()):
            return False
        await self._learn_session()
        return True

    async def _resume(self) -> bool | None:
        """Continue a game an earlier run left open (q, Ctrl-C, a closed terminal), unless
        asked for a new one; a saved game of another game, or with other settings than those
        asked for, is resumed unless the player says no (Enter resumes: a saved game is never
        lost to a key pressed by habit), else stopped (its finished deals keep their chips; the
        unfinished one settles nothing). A lobby left open is closed.
        None when the settings asked for cannot be played."""
        session = await self.m.open_in(self.place)
        if session is None:
            return False
        if session.status == "active" and not self.opts.new:
            game = presenter.title(Game.of(session), self.lang)
            try:
                question = asked_other(self.opts, session, self.lang)
            except GameError as exc:
                self.say(tr(self.lang, "err.options", detail=str(exc)))
                return None
            if question and not await self.term.yes(question, default=True):
                await self.m.stop(self.place, self.actor, yes_to_stop)
                self._drain()
                self.say(tr(self.lang, "console.dropped", game=game))
                return False
            self.session_id = session.id
            self.say(tr(self.lang, "console.resumed", game=game, db=self.opts.db))
            await self.m.restore()
            reply = await self.m.show_hand(session.id, self.actor)
            if reply.answer is not None:
                self.say(reply.answer.text)
            return True
        await self.m.stop(self.place, self.actor, yes_to_stop)
        self._drain()
        return False

    def _drain(self) -> None:
        while not self.queue.empty():
            self.queue.get_nowait()

    async def _create(self) -> bool:
        if not self.opts.game:
            self.say(tr(self.lang, "console.nothing_saved", games=", ".join(games.GAMES)))
            return False
        rules = games.get(self.opts.game)
        players = self.opts.players or rules.default_players
        if not rules.min_players <= players <= rules.max_players:
            span = (str(rules.min_players) if rules.min_players == rules.max_players
                    else f"{rules.min_players}–{rules.max_players}")
            self.say(tr(self.lang, "console.players", game=rules.id, span=span))
            return False
        words = [rules.id]
        if self.opts.preset:
            words.append(self.opts.preset)
        if self.opts.stake is not None:
            words.append(f"x{self.opts.stake}")
        words += list(self.opts.options)
        reply = await self.m.new_game(self.place, self.actor, words)
        if reply.answer is not None:
            self.say(reply.answer.text)
            return False
        lobby = self._lobby()
        if lobby is None:
            return False
        for code in [payload.ADD] * (players - 1) + [payload.START]:
            data = next((b.data for b in buttons_of(lobby.keyboard) if b.data.endswith(code)),
                        None)
            pressed = Reply() if data is None else await self.m.press(self.actor, data)
            if data is None or pressed.answer is not None:
                if pressed.answer is not None:
                    self.say(pressed.answer.text)
                await self.m.stop(self.place, self.actor, yes_to_stop)
                return False
            if code == payload.START:
                self.say(pressed.toast)
                self.say(tr(self.lang, "console.practice"))
                return True
            lobby = self._lobby() or lobby
        return False

    async def _learn_session(self) -> None:
        session = (None if self.session_id is None
                   else await self.m.stored(self.session_id))
        if session is not None:
            self.stake = session.stake
            began = time.strftime("%Y%m%d-%H%M%S", time.localtime(session.created_at))
            self.folder = f"{session.game}-{session.id}-{began}"

    def _lobby(self) -> Screen | None:
        """The newest lobby screen among the queued replies (the lobby is not printed)."""
        lobby: Screen | None = None
        while not self.queue.empty():
            reply = self.queue.get_nowait()
            if reply.session_id is not None:
                self.session_id = reply.session_id
            if reply.table is not None:
                lobby = reply.table
        return lobby
