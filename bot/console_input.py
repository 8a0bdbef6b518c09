"""What a line typed in the console means, and where the lines come from.

DESIGN.md §5 (Console). A move is chosen by its number, its label, its tile letters (with `<` or
`>` for an end of the line), a tile's face, or a word's start; the choice reads the buttons'
structured data (`Button.move`: letters, faces, end), never their label text. Lines are read by
a daemon thread so that the computer players' timers keep running while the player thinks.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from bot.screens import Button, Keyboard

LineSource = Callable[[], Awaitable[str | None]]
"""Gives the next typed line without its newline, or None when the input has ended."""

QUIT_WORDS = frozenset({"q", "quit", "exit"})
HELP_WORDS = frozenset({"h", "help", "?"})
PEEK_WORDS = frozenset({"p", "peek"})
_FACE = re.compile(r"\d:\d")
"""A tile's face as typed ("6:6")."""
_ARROWS = {"◀": "<", "▶": ">"}


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
