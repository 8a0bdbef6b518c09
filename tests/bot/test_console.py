"""`gupai play`: a person against computer seats in the terminal, through the session layer.

The console loop takes an async line source and a text stream, so whole games run in-process
with scripted answers; one test runs the real command with piped stdin.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from bot.console import play
from bot.console_input import EMPTY, Unclear, choose
from bot.console_options import PlayOptions
from bot.screens import Button
from tests.support.helpers import read
from tests.support.session_helpers import balances

pytestmark = pytest.mark.timeout(60)

ROOT = Path(__file__).resolve().parents[2]


def options(tmp_path: Path, **changes: object) -> PlayOptions:
    base = PlayOptions(game="dragon", players=3, options=("deals=1",), lang="en",
                       name="Tester", player_id="tester", out=tmp_path / "pics",
                       db=str(tmp_path / "x.sqlite3"), computer_delay=0.0, deal_pause=0.0)
    return dataclasses.replace(base, **changes)


class Script:
    """Answers prompts: the scripted lines first, then `then(transcript)` for every later one."""

    def __init__(self, lines: list[str | None], then: Callable[[str], str | None]) -> None:
        self.lines = list(lines)
        self.then = then
        self.out = io.StringIO()
        self.asked = 0

    async def __call__(self) -> str | None:
        self.asked += 1
        if self.lines:
            return self.lines.pop(0)
        # A script that keeps typing what the console refuses would loop forever: end the
        # input instead, so the test fails on its transcript rather than by a timeout.
        assert self.asked < MAX_ANSWERS, self.out.getvalue()[-3000:]
        return self.then(self.out.getvalue()[-6000:])


MAX_ANSWERS = 3000


def first_move(_: str) -> str:
    return "1"


def first_letter(transcript: str) -> str:
    """The first move listed, typed as its tile letter(s) (lower case, with `<` or `>` for the
    end) when that names it alone, as a player would; else its number."""
    listing = [(int(n), label) for n, label in re.findall(r"^\s+(\d+)\. (.*)$", transcript, re.M)]
    start = max(i for i, (n, _) in enumerate(listing) if n == 1)
    moves = [read(label, f"move-{n}") for n, label in listing[start:]]
    assert moves[0].move is not None
    letters = "".join(moves[0].move.letters).lower()
    typed = letters + moves[0].move.end
    return typed if letters and choose(typed, moves) == moves[0] else "1"


async def run(tmp_path: Path, script: Script, **changes: object) -> tuple[int, str]:
    code = await asyncio.wait_for(
        play(options(tmp_path, **changes), script, script.out, echo=True), 30)
    return code, script.out.getvalue()




def settled(db: Path) -> tuple[int, dict[str, int], int]:
    """Deals settled, each user's net settlement, and the chips that changed hands."""
    with sqlite3.connect(db) as conn:
        deals = conn.execute("SELECT COUNT(*) FROM deals").fetchone()[0]
        rows = conn.execute(
            "SELECT u.name, SUM(l.amount), SUM(ABS(l.amount)) FROM ledger l "
            "JOIN users u ON u.id = l.user_id WHERE l.kind = 'settlement' "
            "GROUP BY u.name").fetchall()
    return deals, {name: net for name, net, _ in rows}, sum(moved for _, _, moved in rows)


# ----- whole games ------------------------------------------------------------------------------

async def test_a_game_is_played_to_its_end(tmp_path):
    script = Script([], first_move)
    code, text = await run(tmp_path, script)
    assert code == 0
    assert "Traceback" not in text
    assert "Deal 1 is over" in text and "The match is over" in text
    assert "Final standings" in text and "Chips are kept in" in text
    assert re.search(r"^Line: \[\d:\d\]", text, re.M)
    assert "▶ Tester" in text and "(you)" in text
    assert script.asked >= 3
    for name in ("table.png", "hand.png", "result-1.png"):
        path = tmp_path / "pics" / name
        assert f"Picture: {path}" in text
        with Image.open(path) as image:
            image.verify()
    assert not list((tmp_path / "pics").glob("*.part"))
    chips, granted = balances(tmp_path / "x.sqlite3", "console")
    assert granted == 1000 and set(chips) == {"Tester", "computer-1", "computer-2"}
    assert sum(chips.values()) == granted  # settlements are zero-sum
    deals, net, moved = settled(tmp_path / "x.sqlite3")
    assert deals == 1 and set(net) == set(chips) and sum(net.values()) == 0
    assert moved > 0 or "Tester: 0" in text  # (a deal where nobody pays is possible, but rare)
    assert chips["Tester"] == 1000 + net["Tester"]
    assert f"Tester: {chips['Tester']} chips" in text


async def test_letters_choose_moves_and_chips_carry_over(tmp_path):
    code, text = await run(tmp_path, Script([], first_letter))
    assert code == 0 and "Deal 1 is over" in text
    # A second run in Ukrainian, on the same file: the chips go on from where they were.
    code, text = await run(tmp_path, Script([], first_move), lang="uk", players=2)
    assert code == 0 and "Роздачу 1 закінчено" in text and "Ряд:" in text
    chips, granted = balances(tmp_path / "x.sqlite3", "console")
    assert granted == 1000 and sum(chips.values()) == granted
    deals, net, _ = settled(tmp_path / "x.sqlite3")
    assert deals == 2 and chips["Tester"] == 1000 + net["Tester"]


async def test_bad_input_is_explained_and_the_game_goes_on(tmp_path):
    script = Script(["zzz", "99", "", "help", "p"], first_move)
    code, text = await run(tmp_path, script)
    assert code == 0
    assert "“zzz” is not one of the moves" in text
    assert "There is no move 99" in text
    assert "Type a move's number" in text  # the help
    assert "Your tiles: A" in text  # the peek
    assert "Deal 1 is over" in text and "Traceback" not in text


async def test_quit_stops_the_game_and_moves_no_chips(tmp_path):
    code, text = await run(tmp_path, Script(["q"], first_move))
    assert code == 0
    assert "Stopping the game." in text
    assert "Tester stopped the game" in text
    assert "No deal was finished" in text and "Tester: 1000 chips" in text
    with sqlite3.connect(tmp_path / "x.sqlite3") as conn:
        assert conn.execute("SELECT status FROM sessions").fetchall() == [("abandoned",)]


async def test_the_end_of_input_stops_cleanly(tmp_path):
    code, text = await run(tmp_path, Script(["1", None], first_move))
    assert code == 0
    assert "The input has ended" in text and "Tester stopped the game" in text


async def test_an_interrupted_game_goes_on_at_the_next_run(tmp_path):
    prompted = asyncio.Event()

    async def wait_forever() -> str | None:
        prompted.set()
        await asyncio.Event().wait()
        return None

    async def interrupt() -> None:
        """A run stopped while the player thinks (Ctrl-C cancels the main task)."""
        prompted.clear()
        task = asyncio.ensure_future(play(options(tmp_path), wait_forever, io.StringIO()))
        await asyncio.wait_for(prompted.wait(), 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    await interrupt()
    code, text = await run(tmp_path, Script([], first_move), game="tails")
    assert code == 0
    assert "An unfinished game of Dragon" in text and "Deal 1 is over" in text
    await interrupt()
    code, text = await run(tmp_path, Script(["q"], first_move), new=True, game="tails")
    assert code == 0 and "An unfinished game" not in text and "Tails · deal 1" in text
    with sqlite3.connect(tmp_path / "x.sqlite3") as conn:
        statuses = conn.execute("SELECT game, status FROM sessions ORDER BY id").fetchall()
    assert statuses == [("dragon", "finished"), ("dragon", "abandoned"), ("tails", "abandoned")]


async def test_a_table_of_the_wrong_size_is_refused(tmp_path):
    code, text = await run(tmp_path, Script([], first_move), game="cedeng", players=3)
    assert code == 2 and "cedeng is played by 4 players" in text
    code, text = await run(tmp_path, Script([], first_move), options=("arms=7",))
    assert code == 2 and "options don't work" in text


# ----- reading a choice -------------------------------------------------------------------------

MOVES = [read("◀ A 6:1", "g:1:1:a0"), read("A 6:1 ▶", "g:1:1:a1"),
         read("B 6:0 ▶", "g:1:1:b"), read("H 4:4", "g:1:1:h"),
         read("C 3:3 D 2:2", "g:1:1:cd"), read("Draw", "g:1:1:draw")]


@pytest.mark.parametrize(("typed", "data"), [
    ("1", "g:1:1:a0"), (" 6 ", "g:1:1:draw"), ("b", "g:1:1:b"), ("B", "g:1:1:b"),
    ("a<", "g:1:1:a0"), ("<a", "g:1:1:a0"), ("A>", "g:1:1:a1"), ("a ▶", "g:1:1:a1"),
    ("cd", "g:1:1:cd"), ("h", "g:1:1:h"), ("draw", "g:1:1:draw"), ("dr", "g:1:1:draw"),
    ("a 6:1 ▶", "g:1:1:a1"),
])
def test_a_typed_move(typed, data):
    choice = choose(typed, MOVES)
    assert isinstance(choice, Button) and choice.data == data


@pytest.mark.parametrize(("typed", "meaning"), [
    ("q", "quit"), ("QUIT", "quit"), ("help", "help"), ("?", "help"), ("p", "peek"),
    ("peek", "peek"),
])
def test_a_typed_command(typed, meaning):
    assert choose(typed, MOVES) == meaning


def test_what_is_not_understood():
    assert choose("   ", MOVES) is EMPTY
    assert choose("0", MOVES) == Unclear("console.bad_number", {"text": "0", "most": 6})
    assert choose("a", MOVES) == Unclear("console.ambiguous", {"text": "a", "numbers": "1, 2"})
    assert choose("zzz", MOVES) == Unclear("console.bad_choice", {"text": "zzz", "most": 6})
    assert choose("d", MOVES) == Unclear("console.bad_choice", {"text": "d", "most": 6})


# ----- the command ------------------------------------------------------------------------------

def piped(folder: Path, *args: str, answers: int) -> str:
    """Run `gupai play` as a terminal user would, answering "1" to every question; the
    console's own output, which must end cleanly and without a traceback."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("GUPAI_CONSOLE_DB", None)
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", *args, "--fast", "--lang", "en",
         "--name", "Piped"],
        input="1\n" * answers, capture_output=True, text=True, cwd=folder, env=env,
        timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    return done.stdout


def test_the_command_with_piped_input(tmp_path):
    out = piped(tmp_path, "dragon", "--players", "3", "--option", "deals=1", "--out", "pics",
                answers=40)
    assert "Deal 1 is over" in out and "Piped: " in out
    assert (tmp_path / "gupai-console.sqlite3").exists()  # the default file
    assert (tmp_path / "pics" / "result-1.png").exists()


def test_a_kap_match_from_piped_input_scores_with_a_real_minus(tmp_path):
    out = piped(tmp_path, "kapten", "--preset", "culin", "--option", "deals=1", answers=200)
    standings = out.split("Final standings")[1].splitlines()[1:3]
    assert all(line.startswith(("1. ", "2. ")) for line in standings), standings
    assert not re.search(r"-\d", "\n".join(standings)), standings
