"""`gupai play`: one person against computer seats in a terminal, with no token and no network.

docs/architecture.md §5 (Console): anyone can try the games without a chat platform, and the
terminal goes through the very session layer the chat adapters use (platform "console"): the lobby
is filled by pressing its add-a-computer button at the chat's level (`--level`, kept as the console
chat's setting) and its "Start" button, every move is a button press, computer moves and deal pauses
come from the manager's own timers, and chips are settled into a SQLite file, so they persist from
run to run. The adapter only translates: a screen becomes printed text (with the board drawn as text
too) and PNG files, a typed line becomes a press.

The loop takes its input as an async line source and writes to any text stream, so tests drive a
whole game in-process with scripted answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from typing import Any, TextIO

from bot.console.console_input import (
    EMPTY,
    LineSource,
    StdinLines,
    Terminal,
    Unclear,
    buttons_of,
    choose,
    hand_letters,
)
from bot.console.console_options import PlayOptions
from bot.console.console_start import Opening
from bot.console.console_text import (
    PictureFiles,
    board_lines,
    drawn,
    hand_faces,
    hand_line,
    help_lines,
    move_lines,
    refusal,
    standings,
    untimed,
)
from bot.present import payload
from bot.present.screens import Button, Keyboard, Picture, Reply, Screen
from bot.session.manager import SessionManager, Timing
from games.engine import View
from storage import Storage
from words.i18n import tr

PLATFORM = "console"

# ----- the console ------------------------------------------------------------------------------

class Console(Opening):
    """The terminal adapter: screens from the manager in, presses out."""

    def __init__(self, manager: SessionManager, options: PlayOptions, lines: LineSource,
                 out: TextIO, echo: bool = False) -> None:
        super().__init__(manager, options, Terminal(lines, out, echo))
        self.table: Screen | None = None
        """The latest table screen with a board picture."""
        self.hand: Screen | None = None
        self.keyboard: Keyboard = ()
        self.shown: Keyboard | None = None
        """The move list last printed, so it is printed again only when it changes."""
        self.deal: int | None = None
        self.last_result: Any = None
        self.closed = False
        self.files = PictureFiles(options.out)
        self.hold = False
        """A deal has just ended: its board stays until the player presses Enter."""
        self.held: list[Reply] = []
        """What came after a deal's end, shown once the player has pressed Enter."""
        self.before: View[Any] | None = None
        """The player's own view when they last moved, to name the tiles a draw brought."""

    # ----- the whole run ------------------------------------------------------------------------

    async def run(self) -> int:
        try:
            if not await self.open():
                return 2
            self.files.folder = self.opts.out / self.folder
            await self._play()
            await self._finish()
            return 0
        finally:
            await self.term.close()
            self.files.close()

    # ----- the game loop ------------------------------------------------------------------------

    async def _play(self) -> None:
        while not self.closed:
            if self.hold:
                self.hold = False
                self.term.prompt(tr(self.lang, "console.next_deal"))
                if await self.term.read() is None:
                    await self._answer(None)
                elif self.held:
                    batch, self.held = self.held, []
                    await self._show(batch)
            elif self.queue.empty() and self.keyboard:
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
        self.term.prompt(tr(self.lang, "console.prompt"))
        screen = asyncio.ensure_future(self.queue.get())
        waiting: set[asyncio.Future[Any]] = {self.term.pending(), screen}
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
        await self._answer(self.term.take())

    async def _answer(self, line: str | None) -> None:
        if line is None:
            # Ctrl-D leaves the table as q does: the game is saved, not stopped.
            self.say("")
            self.say(tr(self.lang, "console.eof"))
            self.closed = True
            return
        moves = buttons_of(self.keyboard)
        choice = choose(line, moves, self._hand_faces())
        if isinstance(choice, Unclear):
            if choice is not EMPTY:
                await self._explain(line, choice)
            return
        if choice == "quit":
            if await self.term.yes(tr(self.lang, "console.quit_confirm")):
                self.say(tr(self.lang, "console.saved"))
                self.closed = True
            else:
                self.say(tr(self.lang, "console.go_on"))
        elif choice == "help":
            for text in help_lines(self._own(), self.lang):
                self.say(text)
            self._print_moves()
        elif choice == "peek":
            await self._peek()
        elif isinstance(choice, Button):
            await self._move(choice.data, choice.move is not None and choice.move.verb == "take")

    async def _move(self, data: str, taking: bool = False, quiet: bool = False) -> bool:
        """Press a move; whether it was made (a refusal is said unless `quiet`). A move that
        takes a discard draws nothing."""
        self.before = None if taking else self._own()
        reply = await self.m.press(self.actor, data)
        if reply.answer is not None:
            self.before = None
        if not quiet or reply.answer is None:
            self._say_answer(reply)
        return reply.answer is None

    async def _explain(self, line: str, unclear: Unclear) -> None:
        """Typed text that names no move on the list: the tiles it names are played when the
        moves come in groups (a Tien Gow follow), else the rules say why they are no move."""
        view = self._own()
        if unclear.key == "console.bad_choice" and view is not None:
            choice = self.hand.choice if self.hand is not None else None
            letters = [x.upper() for x in hand_letters(line)]
            if (choice is not None and choice.least <= len(letters) <= choice.most
                    and await self._move(f"{choice.data}-{'-'.join(sorted(letters))}",
                                         quiet=True)):
                return
            why = refusal(line, view, buttons_of(self.keyboard), self.lang)
            if why:
                self.say(why)
                return
        self.say(tr(self.lang, unclear.key, None, **unclear.fields))

    def _own(self) -> View[Any] | None:
        """The player's own view, as their hand screen last showed it."""
        if self.hand is None or self.hand.picture is None:
            return None
        view: View[Any] = self.hand.picture.view
        return view

    def _hand_faces(self) -> dict[str, str]:
        view = self._own()
        return {} if view is None else hand_faces(view)

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
        for index, reply in enumerate(batch):
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
                    if self.before is not None:
                        said = drawn(self.before, update.screen.picture.view, self.lang)
                        self.before = None
                        if said:
                            self.say(f"  {said}")
            for post in reply.posts:
                shown = post.screen
                self.say("")
                self.say(untimed(shown) if self.opts.wait else shown.text)
                if shown.picture is not None and shown.picture.kind == "result":
                    view = shown.picture.view
                    self.last_result = view
                    self.hold = self.opts.wait
                    await self._draw({f"result-{view.match.deal + 1}": shown.picture})
                if post.key is not None:
                    await self.m.delivered(post.key)
            for user, screen in reply.private:
                if user == self.actor.platform_id:
                    self.say(screen.text)
            if reply.closed:
                self.closed = True
            self.hold = self.hold and not self.closed
            if self.hold:
                self.held = batch[index + 1:]
                break
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
        if not self.opts.pictures:
            return
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
            for line in standings(view, self._names(), session.stake, self.lang,
                                  over=session.status != "active"):
                self.say(line)
        balance = await self.m.balance(self.place, self.actor)
        self.say(tr(self.lang, "chips.balance", balance, name=self.opts.name))
        self.say(tr(self.lang, "console.kept_in", db=self.opts.db))

    def _names(self) -> tuple[str, ...]:
        for screen in (self.table, self.hand):
            if screen is not None and screen.picture is not None:
                return screen.picture.frame.names
        return ()


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
