"""What a started bot has loaded: its own platform's library and not the other's (a Telegram bot
no discord.py, a Discord bot no python-telegram-bot), and not what only a later command uses (the
charts of `/stats`). Every start pays for its imports in processor time, the container's and
each test's that starts a process; a platform's library is the largest part a bot of the other
platform would pay for nothing.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.bot_process import ROOT, BotProcess
from tests.support.fake_telegram import FakeTelegram

DISCORD = {"discord", "aiohttp"}
"""discord.py and the HTTP library under it (a Telegram bot's is httpx)."""
TELEGRAM = {"telegram", "httpx", "httpcore", "apscheduler"}
"""python-telegram-bot and the libraries under it."""
LATER = {"rendering.stats_card", "rendering.chart"}
"""The `/stats` card's drawing, loaded at the first card."""
OTHER_COMMANDS = {"bot.commandline.deal_commands", "bot.commandline.cli_rules", "bot.console"}
"""What only the `gupai` commands beside the bots load (through the parser)."""


def entry(command: str, before: str = "") -> str:
    """`gupai COMMAND` as the console script runs it, which prints at its exit the modules it
    loaded (`before`: Python run first)."""
    return "\n".join([
        "import atexit, sys",
        "atexit.register(lambda: print('loaded:', *sorted(sys.modules)))",
        before,
        "from bot.cli import main",
        f"sys.exit(main([{command!r}]))"])


def loaded(output: str) -> set[str]:
    """The modules `entry` printed, and the packages they are in."""
    lines = [line for line in output.splitlines() if line.startswith("loaded: ")]
    assert len(lines) == 1, output
    modules = set(lines[0].split()[1:])
    return modules | {module.split(".")[0] for module in modules}


@pytest.mark.real_time
async def test_a_polling_telegram_bot_loads_nothing_of_discord(tmp_path: Path) -> None:
    """Started, polling the fake Bot API, and stopped as a host stops it."""
    async with FakeTelegram() as server:
        process = BotProcess(server, tmp_path / "gupai.sqlite3", code=entry("telegram"))
        process.start()
        try:
            await process.running()
        finally:
            code, _ = process.stop()
    assert code == 0, process.output
    modules = loaded(process.output)
    assert {"telegram", "bot.telegram.telegram_adapter"} <= modules
    assert modules & (DISCORD | LATER | OTHER_COMMANDS) == set()


def test_a_telegram_bot_that_cannot_connect_says_so_without_discord(tmp_path: Path) -> None:
    """Explaining the failure asks only the libraries the bot has loaded."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(ROOT),
           "TELEGRAM_TOKEN": "123:abc", "TELEGRAM_API_URL": "http://127.0.0.1:9",
           "GUPAI_DB": str(tmp_path / "gupai.sqlite3")}
    done = subprocess.run([sys.executable, "-c", entry("telegram")], capture_output=True,
                          text=True, timeout=60, cwd=tmp_path, env=env)
    assert done.returncode == 1, done.stderr
    assert "The network failed" in done.stdout
    assert loaded(done.stdout) & DISCORD == set()


def test_a_discord_bot_loads_nothing_of_telegram(tmp_path: Path) -> None:
    """Logged in to the fake Discord (its commands synced and its games restored), then its
    connection ends, which ends the process."""
    login = "\n".join([
        "import bot.discord.discord_adapter as adapter",
        "from tests.support.fake_discord import login",
        "async def start(self):",
        "    await login(self.client)",
        "adapter.DiscordBot.start = start"])
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(ROOT),
           "DISCORD_TOKEN": "fake-token", "GUPAI_DB": str(tmp_path / "gupai.sqlite3")}
    done = subprocess.run([sys.executable, "-c", entry("discord", login)], capture_output=True,
                          text=True, timeout=60, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert "Discord bot is connecting" in done.stdout
    modules = loaded(done.stdout)
    assert {"discord", "bot.discord.discord_adapter"} <= modules
    assert modules & (TELEGRAM | LATER | OTHER_COMMANDS) == set()
