"""`gupai replay DEAL`: a finished deal stepped through in the terminal, from a database.

docs/architecture.md §5 (Console) and §1.3. The deal is played again from its seed and its kept
moves (`bot.deals.deal_check`: every move through the rules, and the result and chips checked
against those stored), then shown a step at a time as the chat showed it (`bot.deals.replay_steps`):
the move in the chat's words, the board in text, every hand face up since the deal is over. Enter
goes on, p goes back, f and l go to the first and last step, a plays on to the end at a chosen
speed, q quits. A deal that was tampered with is refused before anything is shown, naming the move;
a deal kept without its moves says so.

The loop takes its input as an async line source and writes to any text stream, as `gupai play`
does, so tests drive it in-process and through a real terminal.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import TextIO

from bot.console.console_input import LineSource, StdinLines
from bot.deals.deal_check import DealRefused, Replayed, check
from bot.deals.replay_steps import result_lines, shown, title
from storage.backends import open_database
from storage.moves import Moves
from words.i18n import tr

SPEED = 1.0
"""Seconds a move when playing on, unless one is typed (`a 0.5`)."""
FASTEST, SLOWEST = 0.0, 60.0

Sleep = Callable[[float], Awaitable[None]]


async def load(target: str, deal_id: int, lang: str = "en") -> Replayed:
    """The deal `deal_id` in the database `target`, replayed and checked; `DealRefused`
    saying why it cannot be (no such deal, no moves kept, a move or a figure refused)."""
    db = await open_database(target)
    try:
        deal = await Moves(db).deal(deal_id)
    finally:
        await db.close()
    if deal is None:
        raise DealRefused(tr(lang, "replay.no_deal", deal=deal_id, db=db.path))
    return check(deal)


class Viewer:
    """One replayed deal on a text stream, at a step."""

    def __init__(self, done: Replayed, lang: str, out: TextIO) -> None:
        self.done = done
        self.lang = lang
        self.out = out
        self.at = 0
        self.last = len(done.steps) - 1

    def say(self, *lines: str) -> None:
        self.out.write("".join(f"{line}\n" for line in lines))
        self.out.flush()

    def show(self) -> None:
        step = shown(self.done, self.at, self.lang)
        self.say("", f"── {step.heading}")
        if step.said:
            self.say(step.said)
        self.say(*step.board)
        self.say(*(f"  {name}: {text}" for name, _, text in step.hands))
        if self.at == self.last:
            self.say(tr(self.lang, "replay.end"), tr(self.lang, "replay.result"),
                     *(f"  {line}" for line in result_lines(self.done, self.lang)))

    def go(self, to: int) -> None:
        self.at = max(0, min(self.last, to))
        self.show()

    async def play_on(self, seconds: float, sleep: Sleep) -> None:
        while self.at < self.last:
            await sleep(seconds)
            self.go(self.at + 1)

    async def answer(self, line: str, sleep: Sleep) -> bool:
        """Act on one typed line; False when the viewer should stop."""
        word, _, rest = line.strip().lower().partition(" ")
        if word in ("", "n", "next"):
            if self.at == self.last:
                return False
            self.go(self.at + 1)
        elif word in ("p", "prev", "previous", "b", "back"):
            self.go(self.at - 1)
        elif word in ("f", "first"):
            self.go(0)
        elif word in ("l", "last"):
            self.go(self.last)
        elif word in ("a", "auto", "play") and (speed := _speed(rest)) is not None:
            await self.play_on(speed, sleep)
        elif word in ("q", "quit"):
            return False
        else:
            self.say(tr(self.lang, "replay.unclear", text=line.strip()))
        return True


def _speed(text: str) -> float | None:
    if not text.strip():
        return SPEED
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        return None
    return value if FASTEST <= value <= SLOWEST else None


async def replay(target: str, deal_id: int, lang: str, lines: LineSource, out: TextIO,
                 sleep: Sleep = asyncio.sleep, echo: bool = False) -> int:
    """Step through deal `deal_id`: 0 once the reader quits or reaches the end, 1 when the
    deal is refused."""
    try:
        done = await load(target, deal_id, lang)
    except DealRefused as exc:
        out.write(f"gupai: {exc}\n")
        out.flush()
        return 1
    viewer = Viewer(done, lang, out)
    viewer.say(title(done, lang))
    viewer.show()
    while True:
        out.write(tr(lang, "replay.prompt"))
        out.flush()
        line = await lines()
        if line is None:
            viewer.say("")
            return 0
        if echo:
            viewer.say(line)
        if not await viewer.answer(line, sleep):
            return 0


def run(target: str, deal_id: int, lang: str, stdin: TextIO | None = None,
        out: TextIO | None = None) -> int:
    """`gupai replay` on the terminal (or on piped input, which is echoed)."""
    source = sys.stdin if stdin is None else stdin
    stream = sys.stdout if out is None else out
    try:
        return asyncio.run(replay(target, deal_id, lang, StdinLines(source), stream,
                                  echo=not source.isatty()))
    except KeyboardInterrupt:
        stream.write("\n")
        return 130

