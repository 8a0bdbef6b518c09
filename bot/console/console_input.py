"""What a line typed in the console means, and where the lines come from.

docs/architecture.md §5 (Console). A move is chosen by its number, its label, its tile letters
(followed by the open number of an end of the line: `a4`), a tile's face, or a word's start; the
choice reads the buttons' structured data (`Button.move`: letters, faces, end), never their label
text. Lines are read by a daemon thread so that the computer players' timers keep running while the
player thinks.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from bot.present.screens import Button, Keyboard

LineSource = Callable[[], Awaitable[str | None]]
"""Gives the next typed line without its newline, or None when the input has ended."""

QUIT_WORDS = frozenset({"q", "quit", "exit"})
HELP_WORDS = frozenset({"h", "help", "?"})
PEEK_WORDS = frozenset({"p", "peek"})
YES = frozenset({"y", "yes", "т", "так"})
_FACE = re.compile(r"\d:\d")
"""A tile's face as typed ("6:6")."""
_WITH_END = re.compile(r"([a-z]\d*|\d:\d)(?:on|на|@)?(\d)")
"""A tile's letter or face, then the open number of the end it goes to ("a4", "a on 4",
"6:4@4"): the picture marks each end of a line with its number."""


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


def same_face(typed: str, face: str) -> bool:
    """"1:2" names the tile written "2:1": a face may be typed either way round."""
    return typed in (face, ":".join(reversed(face.split(":"))))


def _named_face(face: str, button: Button) -> bool:
    """A move a typed face names: a move of that one tile, or a take of that discard (the
    discard is the first face a take names; its partner, if any, follows)."""
    if button.move is None or not button.move.faces:
        return False
    shown = button.move.faces
    return same_face(face, shown[0]) and (len(shown) == 1 or button.move.verb == "take")


def _alike(moves: Sequence[Button], named: list[int]) -> bool:
    """Moves that do the same thing (one discard of several identical ones on the table)."""
    first = moves[named[0]].move
    return all(moves[i].move == first for i in named)


def hand_letters(text: str) -> list[str]:
    """The hand letters a typed line names ("a", "A+B", "c d" → a / a, b / c, d), or [] when
    it is not written in letters."""
    squashed = _squash(text).replace("+", "")
    letters = re.findall(r"[a-z]\d*", squashed)
    return letters if letters and "".join(letters) == squashed else []


def split_end(text: str, letters: Collection[str] = ()) -> tuple[str, str]:
    """A typed line without the end it names, and that end's open number ("a4" → "a", "4");
    the end is "" when none is typed. A hand letter with a number of its own (`letters`, on a
    hand of more than 26 tiles) is that letter, not a letter and an end."""
    squashed = _squash(text)
    if squashed in letters or _FACE.fullmatch(squashed):
        return squashed, ""
    found = _WITH_END.fullmatch(squashed)
    return (found[1], found[2]) if found else (squashed, "")


def typed_face(text: str) -> str:
    """A tile's face as typed ("6:6"), or ""."""
    squashed = _squash(text)
    return squashed if _FACE.fullmatch(squashed) else ""


def _squash(text: str) -> str:
    return "".join(text.split()).casefold()


def choose(text: str, moves: Sequence[Button], hand: Mapping[str, str] | None = None
           ) -> Choice:
    """What a typed line means: a move's number, its full label, its tile letter(s) (with the
    open number of the end when two ends are open, "a4"), a tile's face ("6:6", for a discard
    to take), a command, or a word's start ("dr" → Draw). A tile letter wins over a one-letter
    command; the command's full word always works. `hand` (lower-case letter → face) lets the
    letter of a second identical tile choose the move its twin's letter labels: both play
    alike."""
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
    letters, side = split_end(squashed, {tile_key(b).casefold() for b in moves})
    named = [i for i, b in enumerate(moves)
             if tile_key(b) and tile_key(b).casefold() == letters]
    if not named and _FACE.fullmatch(letters):
        named = [i for i, b in enumerate(moves) if _named_face(letters, b)]
    if not named and hand:
        named = _twins(letters, moves, hand)
    # A side typed is a side asked for: a move at the other end is no answer to it.
    named = [i for i in named if not side or _end(moves[i]) == side]
    if len(named) == 1 or (named and _alike(moves, named)):
        return moves[named[0]]
    if len(named) > 1:
        return Unclear("console.ambiguous", {
            "text": typed, "numbers": ", ".join(str(i + 1) for i in named)})
    for command, words in (("quit", QUIT_WORDS), ("help", HELP_WORDS), ("peek", PEEK_WORDS)):
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


def buttons_of(keyboard: Keyboard) -> list[Button]:
    """A keyboard's pressable buttons in reading order (links need a chat platform)."""
    return [b for row in keyboard for b in row if b.data]


class Terminal:
    """The player's side of the table: lines out, counted so that a prompt is repeated only
    when something was printed after it, and lines in, echoed when they come from a pipe. A
    read that a screen interrupted stays pending for the next question: nothing typed is
    lost and nothing is read twice."""

    def __init__(self, lines: LineSource, out: TextIO, echo: bool) -> None:
        self.lines = lines
        self.out = out
        self.echo = echo
        self.said = 0
        self._prompted = -1
        self._line: asyncio.Future[str | None] | None = None

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()
        self.said += 1

    def prompt(self, text: str) -> None:
        """Write a prompt, unless it is still the last thing on the screen."""
        if self._line is None or self._prompted != self.said:
            self.out.write(text)
            self.out.flush()
            self._prompted = self.said

    def pending(self) -> asyncio.Future[str | None]:
        """The read under way (one is started if none is)."""
        if self._line is None:
            self._line = asyncio.ensure_future(self.lines())
        return self._line

    def take(self) -> str | None:
        """The line the finished read gave, echoed for piped input."""
        assert self._line is not None and self._line.done()
        line = self._line.result()
        self._line = None
        if self.echo and line is not None:
            self.say(line)
        return line

    async def read(self) -> str | None:
        await self.pending()
        return self.take()

    async def yes(self, question: str, default: bool = False) -> bool:
        """A yes-or-no question. An empty line gives `default`, as the question's capital
        letter shows ([Y/n] or [y/N]), and so does the end of the input: each question's
        default is the answer that loses nothing. Any other answer but yes is no."""
        self.out.write(question)
        self.out.flush()
        line = await self.read()
        answer = "" if line is None else line.strip().casefold()
        return default if not answer else answer in YES

    async def close(self) -> None:
        if self._line is not None:
            self._line.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._line


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
