"""`gupai play`: one person against computer seats in a terminal, with no token and no network.

DESIGN.md §5 (Console): anyone can try the games without a chat platform, and the terminal goes
through the very session layer the chat adapters use (platform "console"): the lobby is filled by
pressing its "Add computer" and "Start" buttons, every move is a button press, computer moves and
deal pauses come from the manager's own timers, and chips are settled into a SQLite file, so they
persist from run to run. The adapter only translates: a screen becomes printed text (with the
board drawn as text too) and PNG files, a typed line becomes a press.

The loop takes its input as an async line source and writes to any text stream, so tests drive a
whole game in-process with scripted answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from typing import Any, TextIO

import games
from bot import payload, presenter
from bot.console_input import (
    EMPTY,
    LineSource,
    StdinLines,
    Unclear,
    buttons_of,
    choose,
)
from bot.console_options import PlayOptions
from bot.console_text import (
    PictureFiles,
    board_lines,
    hand_faces,
    hand_line,
    move_lines,
    standings,
)
from bot.i18n import tr
from bot.manager import MAX_TURN, SessionManager, Timing
from bot.screens import Actor, Button, Keyboard, Picture, Place, Reply, Screen
from bot.seating import Game
from storage import Storage

PLATFORM = "console"
CHAT_PREFIX = "terminal:"
"""Each player's console games live in a chat of their own (`terminal:<login>`), so two people
sharing a database file never find each other's unfinished game."""

# ----- the console ------------------------------------------------------------------------------

class Console:
    """The terminal adapter: screens from the manager in, presses out."""

    def __init__(self, manager: SessionManager, options: PlayOptions, lines: LineSource,
                 out: TextIO, echo: bool = False) -> None:
        self.m = manager
        self.opts = options
        self.lines = lines
        self.out = out
        self.echo = echo
        self.lang = options.lang
        self.actor = Actor(options.player_id, options.name, options.lang)
        self.place = Place(CHAT_PREFIX + options.player_id, "", "Console")
        self.queue: asyncio.Queue[Reply] = asyncio.Queue()
        self.session_id: int | None = None
        self.chat_id = 0
        self.table: Screen | None = None
        """The latest table screen with a board picture."""
        self.hand: Screen | None = None
        self.keyboard: Keyboard = ()
        self.shown: Keyboard | None = None
        """The move list last printed, so it is printed again only when it changes."""
        self.deal: int | None = None
        self.stake = 1
        """The session's stake, which turns a pot counted in antes into chips."""
        self.last_result: Any = None
        self.closed = False
        self.stopping = False
        self.files = PictureFiles(options.out)
        self._line: asyncio.Future[str | None] | None = None
        self.said = 0
        """Lines printed so far: the prompt is repeated when something was printed after it."""
        self._prompted = -1
        manager.deliver = self.deliver

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()
        self.said += 1

    async def deliver(self, reply: Reply) -> None:
        """Called by the manager under the session's lock: only queue, never wait."""
        if reply.place is not None and reply.place.chat != self.place.chat:
            return
        if self.session_id is not None and reply.session_id not in (None, self.session_id):
            return
        self.queue.put_nowait(reply)

    # ----- the whole run ------------------------------------------------------------------------

    async def run(self) -> int:
        try:
            self.chat_id, _ = await self.m.chat_of(self.place, self.actor)
            await self.m.update_settings(self.chat_id, turn_timeout=MAX_TURN,
                                         language=self.lang)
            if not await self._resume() and not await self._create():
                return 2
            await self._learn_stake()
            await self._play()
            await self._finish()
            return 0
        finally:
            if self._line is not None:
                self._line.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await self._line
            self.files.close()

    async def _resume(self) -> bool:
        """Continue a game an earlier run left open (Ctrl-C, a closed terminal), unless asked
        for a new one; a lobby left open is closed."""
        session = await self.m.open_in(self.place)
        if session is None:
            return False
        if session.status == "active" and not self.opts.new:
            self.session_id = session.id
            game = presenter.title(Game.of(session), self.lang)
            self.say(tr(self.lang, "console.resumed", game=game, db=self.opts.db))
            await self.m.restore()
            reply = await self.m.show_hand(session.id, self.actor)
            if reply.answer is not None:
                self.say(reply.answer.text)
            return True
        await self.m.stop(self.place, self.actor, _yes)
        while not self.queue.empty():
            self.queue.get_nowait()
        return False

    async def _create(self) -> bool:
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
                await self.m.stop(self.place, self.actor, _yes)
                return False
            if code == payload.START:
                self.say(pressed.toast)
                return True
            lobby = self._lobby() or lobby
        return False

    async def _learn_stake(self) -> None:
        session = (None if self.session_id is None
                   else await self.m.stored(self.session_id))
        if session is not None:
            self.stake = session.stake

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

    # ----- the game loop ------------------------------------------------------------------------

    async def _play(self) -> None:
        while not self.closed:
            if self.queue.empty() and self.keyboard and not self.stopping:
                await self._ask()
            else:
                batch = [await self.queue.get()]
                while not self.queue.empty():
                    batch.append(self.queue.get_nowait())
                await self._show(batch)

    async def _ask(self) -> None:
        """Print the moves (when they changed) and wait for a line or for a new screen."""
        if self.shown != self.keyboard:
            self._print_turn()
            self.shown = self.keyboard
        if self._line is None or self._prompted != self.said:
            self.out.write(tr(self.lang, "console.prompt"))
            self.out.flush()
            self._prompted = self.said
        if self._line is None:
            self._line = asyncio.ensure_future(self.lines())
        screen = asyncio.ensure_future(self.queue.get())
        waiting: set[asyncio.Future[Any]] = {self._line, screen}
        try:
            done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not screen.done():
                screen.cancel()
        if screen in done and not screen.cancelled():
            # Something happened meanwhile (a timer, a countdown): show it; the read goes on.
            batch = [screen.result()]
            while not self.queue.empty():
                batch.append(self.queue.get_nowait())
            await self._show(batch)
            return
        with contextlib.suppress(asyncio.CancelledError):
            await screen
        line = self._line.result()
        self._line = None
        if self.echo and line is not None:
            self.say(line)
        await self._answer(line)

    async def _answer(self, line: str | None) -> None:
        if line is None:
            self.say("")
            self.say(tr(self.lang, "console.eof"))
            await self._stop()
            return
        moves = buttons_of(self.keyboard)
        choice = choose(line, moves, self._hand_faces())
        if isinstance(choice, Unclear):
            if choice is not EMPTY:
                self.say(tr(self.lang, choice.key, None, **choice.fields))
            return
        if choice == "quit":
            self.say(tr(self.lang, "console.quitting"))
            await self._stop()
        elif choice == "help":
            self.say(tr(self.lang, "console.help"))
            self._print_moves()
        elif choice == "peek":
            await self._peek()
        elif isinstance(choice, Button):
            reply = await self.m.press(self.actor, choice.data)
            self._say_answer(reply)

    def _hand_faces(self) -> dict[str, str]:
        if self.hand is None or self.hand.picture is None:
            return {}
        return hand_faces(self.hand.picture.view)

    async def _stop(self) -> None:
        self.stopping = True
        reply = await self.m.stop(self.place, self.actor, _yes)
        if reply.answer is not None:
            self.say(reply.answer.text)
            self.closed = True

    async def _peek(self) -> None:
        peek = None
        if self.table is not None:
            peek = next((b.data for b in buttons_of(self.table.keyboard)
                         if b.data.endswith(payload.PEEK)), None)
        if peek is None:
            if self.hand is not None and self.hand.picture is not None:
                self.say(hand_line(self.hand.picture.view, self.lang))
            return
        self._say_answer(await self.m.press(self.actor, peek))

    def _say_answer(self, reply: Reply) -> None:
        text = reply.toast or (reply.answer.text if reply.answer is not None else "")
        if text:
            self.say(text)

    def _print_turn(self) -> None:
        """The board, the hand and the moves. The table's caption is not repeated: its title
        was printed when the deal began and its last move just above."""
        self.say("")
        if self.table is not None and self.table.picture is not None:
            self._print_board(self.table.picture)
        elif self.hand is not None and self.hand.picture is not None:
            self._print_board(self.hand.picture)
        if self.hand is not None:
            self.say(self.hand.text)
            if self.hand.picture is not None:
                self.say(hand_line(self.hand.picture.view, self.lang))
        self._print_moves()

    def _print_board(self, picture: Picture) -> None:
        me = self._my_seat(picture)
        for line in board_lines(picture.view, picture.frame.names, self.lang, me, self.stake):
            self.say(line)

    def _my_seat(self, picture: Picture) -> int | None:
        if self.hand is not None and self.hand.picture is not None:
            seat: int | None = self.hand.picture.view.seat
            return seat
        names = picture.frame.names
        return names.index(self.opts.name) if self.opts.name in names else None

    def _print_moves(self) -> None:
        for line in move_lines(self.keyboard, self.lang):
            self.say(line)

    # ----- screens ------------------------------------------------------------------------------

    async def _show(self, batch: list[Reply]) -> None:
        """Print a batch of replies in order. Every result card is drawn where it comes; of the
        table and the hand only the newest of the batch (a fast table is not drawn move by
        move)."""
        pictures: dict[str, Picture] = {}
        for reply in batch:
            if reply.session_id is not None:
                self.session_id = reply.session_id
            if reply.table is not None:
                self._show_table(reply.table)
                if reply.table.picture is not None:
                    pictures["table"] = reply.table.picture
            for update in reply.hands:
                if update.user != self.actor.platform_id:
                    continue
                self.hand = update.screen
                self.keyboard = update.screen.keyboard
                if update.screen.picture is not None:
                    pictures["hand"] = update.screen.picture
            for post in reply.posts:
                shown = post.screen
                self.say("")
                self.say(shown.text)
                if shown.picture is not None and shown.picture.kind == "result":
                    view = shown.picture.view
                    self.last_result = view
                    await self._draw({f"result-{view.match.deal + 1}": shown.picture})
                if post.key is not None:
                    await self.m.delivered(post.key)
            for user, screen in reply.private:
                if user == self.actor.platform_id:
                    self.say(screen.text)
            if reply.closed:
                self.closed = True
        await self._draw(pictures)

    def _show_table(self, table: Screen) -> None:
        picture = table.picture
        if picture is None:
            # A table without a board: the game was stopped or the lobby closed.
            self.say("")
            self.say(table.text)
            return
        self.table = table
        view = picture.view
        if view.outcome is not None:
            # The deal's end: the last move and the board; the result post says the rest.
            if picture.frame.footer:
                self.say(f"  {picture.frame.footer}")
            self.say("")
            self._print_board(picture)
            return
        if view.match.deal != self.deal:
            self.deal = view.match.deal
            self.say("")
            self.say(table.text.splitlines()[0])
        if picture.frame.footer:
            self.say(f"  {picture.frame.footer}")

    async def _draw(self, pictures: dict[str, Picture]) -> None:
        try:
            for path in await self.files.write(pictures):
                self.say(tr(self.lang, "console.picture", path=str(path)))
        except OSError as exc:
            self.say(tr(self.lang, "console.no_pictures", detail=str(exc)))

    # ----- the end ------------------------------------------------------------------------------

    async def _finish(self) -> None:
        self.say("")
        view = self.last_result
        session = (None if self.session_id is None
                   else await self.m.stored(self.session_id))
        if view is None or session is None:
            self.say(tr(self.lang, "console.no_deals"))
        else:
            for line in standings(view, self._names(), session.stake, self.lang):
                self.say(line)
        balance = await self.m.balance(self.place, self.actor)
        self.say(tr(self.lang, "chips.balance", balance, name=self.opts.name))
        self.say(tr(self.lang, "console.kept_in", db=self.opts.db))

    def _names(self) -> tuple[str, ...]:
        for screen in (self.table, self.hand):
            if screen is not None and screen.picture is not None:
                return screen.picture.frame.names
        return ()


async def _yes() -> bool:
    """The console's player may always stop their own table."""
    return True


async def play(options: PlayOptions, lines: LineSource, out: TextIO,
               echo: bool = False) -> int:
    """Play one game; 0 when the session ended, 2 when it could not start."""
    storage = await Storage.open(options.db)
    manager = SessionManager(storage, PLATFORM,
                             Timing(computer_delay=options.computer_delay,
                                    deal_pause=options.deal_pause))
    try:
        return await Console(manager, options, lines, out, echo).run()
    finally:
        await manager.close()
        await storage.close()


def run(options: PlayOptions, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    """`gupai play` on the terminal (or on piped input, which is echoed)."""
    source = sys.stdin if stdin is None else stdin
    stream = sys.stdout if out is None else out
    echo = not source.isatty()
    try:
        return asyncio.run(play(options, StdinLines(source), stream, echo))
    except KeyboardInterrupt:
        stream.write("\n" + tr(options.lang, "console.interrupted") + "\n")
        stream.flush()
        return 130
