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
import os
import re
import sys
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import games
from bot import presenter
from bot.i18n import minus, signed, tr
from bot.manager import MAX_TURN, SessionManager, Timing
from bot.screens import Actor, Button, Keyboard, Picture, Place, Reply, Screen
from bot.seating import Game
from faces import home_of
from faces.moves import tile_text
from games.engine import View
from rendering import hand_labels
from storage import Storage

DEFAULT_DB = "gupai-console.sqlite3"
"""The console's own database in the working directory (not the bot's `GUPAI_DB`)."""
DB_ENV = "GUPAI_CONSOLE_DB"
DEFAULT_OUT = "gupai-play"
COMPUTER_DELAY = 0.6
DEAL_PAUSE = 2.0
PLATFORM = "console"
CHAT_PREFIX = "terminal:"
"""Each player's console games live in a chat of their own (`terminal:<login>`), so two people
sharing a database file never find each other's unfinished game."""

LineSource = Callable[[], Awaitable[str | None]]
"""Gives the next typed line without its newline, or None when the input has ended."""

QUIT = frozenset({"q", "quit", "exit"})
HELP = frozenset({"h", "help", "?"})
PEEK = frozenset({"p", "peek"})
_FACE = re.compile(r"\d:\d")
"""A tile's face as typed ("6:6")."""
_ARROWS = {"◀": "<", "▶": ">"}


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """What `gupai play` was asked for."""

    game: str
    players: int | None = None
    preset: str | None = None
    stake: int | None = None
    options: tuple[str, ...] = ()
    """`name=value` words passed to the new game as they are."""
    lang: str = "en"
    name: str = "Player"
    player_id: str = "player"
    out: Path = Path(DEFAULT_OUT)
    db: str = DEFAULT_DB
    computer_delay: float = COMPUTER_DELAY
    deal_pause: float = DEAL_PAUSE
    new: bool = False
    """Stop an unfinished game found in the database instead of resuming it."""


def default_db(env: Mapping[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    return env.get(DB_ENV) or DEFAULT_DB


def default_lang(env: Mapping[str, str] | None = None) -> str:
    """Ukrainian when the terminal's locale is Ukrainian, English otherwise."""
    env = os.environ if env is None else env
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "uk" if value.lower().startswith("uk") else "en"
    return "en"


# ----- reading the player's choice --------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Unclear:
    """Typed text that names no move; `key` and `fields` are the catalogue's explanation."""

    key: str
    fields: dict[str, object] = field(default_factory=dict)


EMPTY = Unclear("")
"""An empty line: the prompt is simply shown again."""

Choice = Button | str | Unclear
"""A move's button, a command ("quit", "help", "peek"), or why the text was not understood."""


def tile_key(button: Button) -> str:
    """The hand letters a move button plays ("AB"; "" for a word such as Draw, or a discard
    taken from the table, which has no letter)."""
    return "".join(button.move.letters) if button.move is not None else ""


def faces(button: Button) -> str:
    """The tile faces a move button names ("6:6"): a discard to take has no letter."""
    return " ".join(button.move.faces) if button.move is not None else ""


def _end(button: Button) -> str:
    return button.move.end if button.move is not None else ""


def _squash(text: str) -> str:
    for arrow, mark in _ARROWS.items():
        text = text.replace(arrow, mark)
    return "".join(text.split()).casefold()


def choose(text: str, moves: Sequence[Button], hand: Mapping[str, str] | None = None
           ) -> Choice:
    """What a typed line means: a move's number, its full label, its tile letter(s) (with `<` or
    `>` for the left or right end when both fit), a tile's face ("6:6", for a discard to take),
    a command, or a word's start ("dr" → Draw). A tile letter wins over a one-letter command;
    the command's full word always works. `hand` (lower-case letter → face) lets the letter of
    a second identical tile choose the move its twin's letter labels: both play alike."""
    typed = text.strip()
    key = typed.casefold()
    if not key:
        return EMPTY
    if key.isascii() and key.isdigit():
        number = int(key)
        if 1 <= number <= len(moves):
            return moves[number - 1]
        return Unclear("console.bad_number", {"text": typed, "most": len(moves)})
    squashed = _squash(typed)
    exact = [b for b in moves if _squash(b.label) == squashed]
    if len(exact) == 1:
        return exact[0]
    letters, side = squashed, ""
    for mark in ("<", ">"):
        if letters.startswith(mark) or letters.endswith(mark):
            letters, side = letters.strip(mark), mark
    named = [i for i, b in enumerate(moves)
             if tile_key(b) and tile_key(b).casefold() == letters
             and (not side or _end(b) == side)]
    if not named and _FACE.fullmatch(squashed):
        named = [i for i, b in enumerate(moves) if faces(b) == squashed]
    if not named and hand:
        named = _twins(letters, moves, hand)
    if len(named) == 1:
        return moves[named[0]]
    if len(named) > 1:
        return Unclear("console.ambiguous", {
            "text": typed, "numbers": ", ".join(str(i + 1) for i in named)})
    for command, words in (("quit", QUIT), ("help", HELP), ("peek", PEEK)):
        if key in words:
            return command
    words_only = [b for b in moves if not tile_key(b)]
    started = [b for b in words_only if len(key) >= 2 and b.label.casefold().startswith(key)]
    if len(started) == 1:
        return started[0]
    return Unclear("console.bad_choice", {"text": typed, "most": len(moves)})


def _twins(letters: str, moves: Sequence[Button], hand: Mapping[str, str]) -> list[int]:
    """The moves whose lettered tiles show the faces of the typed hand letters."""
    typed = re.findall(r"[a-z]\d*", letters)
    if not typed or "".join(typed) != letters or not all(t in hand for t in typed):
        return []
    wanted = " ".join(hand[t] for t in typed)
    return [i for i, b in enumerate(moves) if tile_key(b) and faces(b) == wanted]


# ----- the board as text ------------------------------------------------------------------------

def board_lines(view: View[Any], names: Sequence[str], lang: str, me: int | None = None,
                stake: int = 1) -> list[str]:
    """The public part of a view in words, as its game's home writes it; works from a public
    view or a seat's own view; `stake` turns a pot counted in antes into chips."""
    return home_of(view).text_board(view, names, lang, me, stake)


def hand_line(view: View[Any], lang: str) -> str:
    """A seat's own tiles with the letters its buttons use: "A 6:6  B 5:4 …"."""
    return home_of(view).hand_text(view, lang)


def buttons_of(keyboard: Keyboard) -> list[Button]:
    """A keyboard's pressable buttons in reading order (links need a chat platform)."""
    return [b for row in keyboard for b in row if b.data]


# ----- input ------------------------------------------------------------------------------------

class StdinLines:
    """Lines from a text stream, read by a daemon thread so the event loop (and the computer
    players' timers) keep running while the player thinks, and so a read still waiting when the
    game ends never keeps the process alive. A read interrupted by a screen arriving is kept for
    the next call: nothing typed is lost."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._pending: asyncio.Future[str | None] | None = None

    async def __call__(self) -> str | None:
        if self._pending is None:
            loop = asyncio.get_running_loop()
            future: asyncio.Future[str | None] = loop.create_future()

            def read() -> None:
                try:
                    raw = self.stream.readline()
                except (OSError, ValueError, UnicodeDecodeError):
                    raw = ""
                line = raw.rstrip("\r\n") if raw else None
                with contextlib.suppress(RuntimeError):  # the loop has already closed
                    loop.call_soon_threadsafe(_settle, future, line)

            threading.Thread(target=read, name="gupai-stdin", daemon=True).start()
            self._pending = future
        line = await asyncio.shield(self._pending)
        self._pending = None
        return line


def _settle(future: asyncio.Future[str | None], line: str | None) -> None:
    if not future.done():
        future.set_result(line)


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
        self.written: set[Path] = set()
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gupai-png")
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
            self.pool.shutdown(wait=True)

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
        for code in ["!add"] * (players - 1) + ["!start"]:
            data = next((b.data for b in buttons_of(lobby.keyboard) if b.data.endswith(code)),
                        None)
            pressed = Reply() if data is None else await self.m.press(self.actor, data)
            if data is None or pressed.answer is not None:
                if pressed.answer is not None:
                    self.say(pressed.answer.text)
                await self.m.stop(self.place, self.actor, _yes)
                return False
            if code == "!start":
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
        """The hand's letters (lower case) and the faces they stand for."""
        if self.hand is None or self.hand.picture is None:
            return {}
        view = self.hand.picture.view
        labels = hand_labels(len(view.hand))
        return {labels[i].casefold(): tile_text(view.tiles, t) for i, t in enumerate(view.hand)}

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
                         if b.data.endswith("!peek")), None)
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
        self.say(tr(self.lang, "console.moves"))
        for number, button in enumerate(buttons_of(self.keyboard), start=1):
            self.say(f"  {number:>2}. {button.label}")

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
                    await self._draw([(self._path(f"result-{view.match.deal + 1}.png"),
                                       shown.picture)])
                if post.key is not None:
                    await self.m.delivered(post.key)
            for user, screen in reply.private:
                if user == self.actor.platform_id:
                    self.say(screen.text)
            if reply.closed:
                self.closed = True
        drawings = [(self._path(f"{name}.png"), picture) for name, picture in pictures.items()]
        await self._draw(drawings)

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

    def _path(self, name: str) -> Path:
        return self.opts.out / name

    async def _draw(self, drawings: list[tuple[Path, Picture]]) -> None:
        if not drawings:
            return
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self.pool, _write_all, drawings)
        except OSError as exc:
            self.say(tr(self.lang, "console.no_pictures", detail=str(exc)))
            return
        for path, _ in drawings:
            if path not in self.written:
                self.written.add(path)
                self.say(tr(self.lang, "console.picture", path=str(path)))

    # ----- the end ------------------------------------------------------------------------------

    async def _finish(self) -> None:
        self.say("")
        view = self.last_result
        session = (None if self.session_id is None
                   else await self.m.stored(self.session_id))
        if view is None or session is None:
            self.say(tr(self.lang, "console.no_deals"))
        else:
            names = self._names()
            scores, chips = view.match.totals(view.outcome)
            self.say(tr(self.lang, "console.standings"))
            order = sorted(range(len(chips)), key=lambda s: (-chips[s], -scores[s], s))
            for rank, seat in enumerate(order, start=1):
                self.say(tr(self.lang, "console.standing", rank=rank, name=names[seat],
                                chips=signed(chips[seat] * session.stake),
                                points=minus(scores[seat])))
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


def _write_all(drawings: list[tuple[Path, Picture]]) -> None:
    """Draw and write the pictures (in a worker thread); a file is replaced whole, so an image
    viewer watching it never shows half a picture."""
    for path, picture in drawings:
        data = picture.render()
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(path.name + ".part")
        part.write_bytes(data)
        part.replace(path)


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
