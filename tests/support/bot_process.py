"""The real `gupai telegram` process against the fake Bot API: started and stopped as a host
would (a signal, not a method call), with the group's people acting through the fake as in
`tests.support.telegram_group`. The test reads the process's database through a `Storage` of
its own on the same file, as a second process would. A benchmark run by hand gives it a log
file and reads its CPU and memory from /proc.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

from storage import Storage
from tests.support.fake_telegram import FakeTelegram
from tests.support.telegram_group import TOKEN, Group

ROOT = Path(__file__).resolve().parents[2]


def cpu_seconds(pid: int) -> float:
    """User and system CPU process `pid` has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class BotProcess:
    """One `python -m bot.cli telegram` child on `db`, polling `server`."""

    def __init__(self, server: FakeTelegram, db: Path, env: Mapping[str, str] | None = None,
                 command: str = "telegram", log: Path | None = None,
                 code: str | None = None) -> None:
        """`log`: the file its output goes to instead of a pipe (a long run's output would
        fill a pipe nobody reads, and block the bot), in a session of its own, so that Ctrl-C
        reaches only its parent, which then stops it. `code`: Python the child runs instead
        of `-m bot.cli COMMAND` (to look into the process, around its own call of
        `bot.cli.main`)."""
        self.server = server
        self.log = log
        self.db = db
        self.command = command
        self.code = code
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(db.parent),
            "PYTHONPATH": str(ROOT),
            "TELEGRAM_TOKEN": TOKEN,
            "TELEGRAM_API_URL": server.url,
            "GUPAI_DB": str(db),
            **(env or {}),
        }
        self.child: subprocess.Popen[str] | None = None
        self.output = ""

    def start(self) -> None:
        command = ([sys.executable, "-m", "bot.cli", self.command] if self.code is None
                   else [sys.executable, "-c", self.code])
        if self.log is None:
            self.child = subprocess.Popen(command, cwd=self.db.parent, env=self.env,
                                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                          text=True)
            return
        with self.log.open("wb") as out:
            self.child = subprocess.Popen(command, cwd=self.db.parent, env=self.env,
                                          stdout=out, stderr=subprocess.STDOUT, text=True,
                                          start_new_session=True)

    @property
    def pid(self) -> int:
        assert self.child is not None
        return self.child.pid

    def cpu_seconds(self) -> float:
        """User and system CPU the process has used so far (Linux /proc)."""
        return cpu_seconds(self.pid)

    def rss_mb(self) -> float:
        """Its resident memory now, in MiB (VmRSS)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise LookupError("no VmRSS")

    async def running(self, timeout: float = 30.0) -> None:
        """Wait until the bot takes updates: polls for them, or has set its webhook (it has
        restored its games by then)."""
        if self.env.get("TELEGRAM_WEBHOOK_URL"):
            def taken() -> int:
                return len(self.server.calls("setWebhook"))
        else:
            taken = self.server.polls_begun
        polls = taken()
        deadline = time.monotonic() + timeout
        while taken() <= polls:
            assert self.child is not None
            if self.child.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the bot did not start: {self.finish()}")
            await asyncio.sleep(0.05)

    def stop(self, sig: signal.Signals = signal.SIGTERM, timeout: float = 30.0
             ) -> tuple[int, float]:
        """Send `sig` and wait: the exit status and the seconds the process took to exit."""
        assert self.child is not None
        sent = time.monotonic()
        self.child.send_signal(sig)
        try:
            code = self.child.wait(timeout)
        except subprocess.TimeoutExpired:
            self.child.kill()
            code = self.child.wait()
        took = time.monotonic() - sent
        self.finish()
        return code, took

    def finish(self) -> str:
        """What the process printed (it has exited, or is killed now)."""
        if self.child is not None:
            if self.child.poll() is None:
                self.child.kill()
            out, _ = self.child.communicate()
            self.output += out or ""
            self.child = None
        return self.output


FAST_HANDS = ("import sys; from bot.telegram import telegram_adapter; "
              "telegram_adapter.HAND_SPACING = 0.05; from bot.cli import main; "
              "sys.exit(main(['telegram']))")
"""`gupai telegram` whose hands are edited at most every 0.05 s instead of every
`HAND_SPACING`: people pressing at once, as in these tests, would otherwise wait that long
before each move (the bots the tests run in their own process keep `HAND_SPACING`, on the
virtual clock, where it costs no time)."""


class ProcessGroup(Group):
    """A `Group` whose bot is a real child process (`FAST_HANDS`); `status` reads the shared
    database."""

    def __init__(self, server: FakeTelegram, db: Path, env: Mapping[str, str] | None = None
                 ) -> None:
        super().__init__(server, db)
        self.process = BotProcess(server, db, env, code=FAST_HANDS)

    async def launch(self) -> None:
        self.process.start()
        await self.process.running()
        if self.storage is None:
            self.storage = await Storage.open(self.db)

    async def close(self) -> None:
        self.process.finish()
        if self.storage is not None:
            await self.storage.close()
            self.storage = None

    def terminate(self, sig: signal.Signals = signal.SIGTERM) -> tuple[int, float]:
        return self.process.stop(sig)
