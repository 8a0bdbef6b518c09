"""`gupai verify DEAL` and `gupai replay DEAL` on a deal played with `gupai play`."""

from __future__ import annotations

import io
import os
import pty
import re
import select
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.cli import main
from bot.commandline.deal_replay import replay
from games import replay as moves_text

pytestmark = pytest.mark.timeout(90)

ROOT = Path(__file__).resolve().parents[2]


def env() -> dict[str, str]:
    base = {**os.environ, "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"}
    base.pop("GUPAI_CONSOLE_DB", None)
    base.pop("GUPAI_DB", None)
    return base


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A database holding one dragon deal, played in the terminal as a new user would."""
    folder = tmp_path_factory.mktemp("played")
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "dragon", "--players", "3", "--option",
         "deals=1", "--fast", "--lang", "en", "--name", "Piped"],
        input="1\n" * 40, capture_output=True, text=True, cwd=folder, env=env(), timeout=60,
        check=False)
    assert done.returncode == 0, done.stderr
    return folder / "gupai-console.sqlite3"


def copy(db: Path, tmp_path: Path) -> Path:
    target = tmp_path / "copy.sqlite3"
    with sqlite3.connect(db) as source, sqlite3.connect(target) as dest:
        source.backup(dest)
    return target


def kept_moves(db: Path) -> str:
    with sqlite3.connect(db) as conn:
        return str(conn.execute("SELECT moves FROM deals WHERE id = 1").fetchone()[0])


def test_verify_checks_a_whole_kept_deal(played, capsys):
    assert main(["verify", "1", "--db", str(played)]) == 0
    out = capsys.readouterr().out
    moves = len(moves_text.decode(kept_moves(played)))
    assert f"{moves} moves replayed through the rules, every one legal in turn" in out
    assert "seat 1 (Piped): " in out and "Computer 1" in out
    assert out.strip().endswith("the deal checks out")


def test_verify_refuses_a_tampered_move_naming_it(played, tmp_path, capsys):
    db = copy(played, tmp_path)
    moves = list(moves_text.decode(kept_moves(db)))
    first = moves[0]
    # The first move played again at the second: that tile has left the hand.
    moves[1] = moves_text.Move(moves[1].seat, first.code, moves[1].by)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE deals SET moves = ? WHERE id = 1",
                     (moves_text.encode(moves),))
    assert main(["verify", "1", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert re.search(rf"deal 1 is refused: move 2 \(seat {moves[1].seat + 1}: "
                     rf"{re.escape(first.code)}\) is refused", err), err


def test_verify_says_when_a_deal_kept_no_moves(played, tmp_path, capsys):
    db = copy(played, tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE deals SET seed = NULL, setup = NULL, moves = NULL")
    assert main(["verify", "1", "--db", str(db)]) == 1
    assert "was played before deals kept their moves" in capsys.readouterr().err
    assert main(["verify", "7", "--db", str(db)]) == 1
    assert "There is no deal 7" in capsys.readouterr().err


def test_verify_still_takes_a_seed_and_asks_for_what_is_missing(capsys):
    assert main(["verify", "not-a-number"]) == 2
    assert "give SEED FINGERPRINT GAME" in capsys.readouterr().err
    assert main(["verify", "abc", "0123456789abcdef"]) == 2
    assert "give the GAME" in capsys.readouterr().err


class Lines:
    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)

    async def __call__(self) -> str | None:
        return self.lines.pop(0) if self.lines else None


async def test_replay_steps_forward_and_back_and_plays_on(played):
    steps = len(moves_text.decode(kept_moves(played)))
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    out = io.StringIO()
    status = await replay(str(played), 1, "en", Lines("", "", "p", "l", "f", "a 0.25", "huh",
                                                      "q"), out, sleep)
    text = out.getvalue()
    headings = re.findall(r"^── (.*)$", text, re.M)
    assert status == 0
    assert headings[0] == f"The deal, as dealt (then {steps} moves)"
    assert headings[1].startswith(f"Move 1 of {steps}: ")
    assert headings[2].startswith(f"Move 2 of {steps}: ")
    assert headings[3] == headings[1]
    assert headings[4].startswith(f"Move {steps} of {steps}: ")
    assert headings[5] == headings[0]
    # Played on from the deal to the end, a move every quarter second.
    assert [h.split(":")[0] for h in headings[6:]] == [f"Move {n} of {steps}"
                                                       for n in range(1, steps + 1)]
    assert len(headings) == 6 + steps and slept == [0.25] * steps
    assert text.count("The result, as stored and checked:") == 2
    assert "“huh” is not a step" in text
    # Every hand face up: three seats, each with its tiles.
    assert len(re.findall(r"^  (Piped|Computer \d): \d:\d", text, re.M)) >= 3


def test_replay_in_a_terminal(played):
    """`gupai replay` in a real terminal (a pseudo-terminal, as tmux gives one): keys typed,
    the screen read back."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, on the terminal
        os.chdir(ROOT)
        os.execve(sys.executable, [sys.executable, "-m", "bot.cli", "replay", "1", "--db",
                                   str(played), "--lang", "en"], env())
    screen = ""

    def read_until(text: str) -> str:
        nonlocal screen
        deadline = time.monotonic() + 30
        while text not in screen:
            assert time.monotonic() < deadline, screen[-2000:]
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                screen += os.read(fd, 65536).decode(errors="replace")
        return screen

    try:
        read_until("q quit: ")
        assert "The deal, as dealt" in screen
        os.write(fd, b"\r")
        read_until("── Move 1 of ")
        os.write(fd, b"p\r")
        screen = ""
        read_until("── The deal, as dealt")
        os.write(fd, b"l\r")
        read_until("The result, as stored and checked:")
        os.write(fd, b"q\r")
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert "Traceback" not in screen
    finally:
        os.close(fd)
