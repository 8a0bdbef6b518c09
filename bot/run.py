"""`gupai run` and `gupai telegram`: start the platforms whose tokens are configured.

Settings come from the environment, and from a `.env` file in the working folder for anything the
environment does not set (`.env.example` documents every name). With no token at all, the bot
says exactly what to set and where, and points to `gupai play`, which needs none.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from storage import Storage, StorageError

log = logging.getLogger(__name__)

ENV_FILE = ".env"


def read_env_file(path: Path) -> dict[str, str]:
    """KEY=VALUE lines; blank lines and # comments skipped, quotes around a value removed."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values


def settings(environ: Mapping[str, str] | None = None, folder: Path | None = None
             ) -> dict[str, str]:
    """The environment wins over `.env`."""
    merged = read_env_file((folder or Path.cwd()) / ENV_FILE)
    merged.update(os.environ if environ is None else environ)
    return merged


def program() -> str:
    """How the user started us (`.venv/bin/gupai`), so the advice can be pasted as it is."""
    path = Path(sys.argv[0]) if sys.argv and sys.argv[0] else Path("gupai")
    if path.name != "gupai":
        return "gupai"
    with contextlib.suppress(ValueError):
        return str(path.resolve().relative_to(Path.cwd()))
    return str(path)


def no_token_help(folder: Path) -> str:
    env = folder / ENV_FILE
    return "\n".join([
        "No bot token is configured, so no platform can start.",
        "",
        "To run the Telegram bot, get a token from @BotFather and set TELEGRAM_TOKEN, either in",
        f"the environment or in {env} (copy .env.example and fill it in):",
        "",
        "    TELEGRAM_TOKEN=123456789:AA...",
        "",
        "Optional: TELEGRAM_API_URL (a local Bot API server), GUPAI_DB (the SQLite file, default",
        "gupai.sqlite3), GUPAI_GRANT (starting chips, default 1000).",
        "",
        "To play right now without a token or network, against computer players:",
        "",
        f"    {program()} play dragon",
    ])


def run(env: Mapping[str, str], out: TextIO = sys.stdout, folder: Path | None = None) -> int:
    folder = folder or Path.cwd()
    telegram_token = env.get("TELEGRAM_TOKEN", "").strip()
    discord_token = env.get("DISCORD_TOKEN", "").strip()
    if not telegram_token and not discord_token:
        print(no_token_help(folder), file=out)
        return 2
    if discord_token and not telegram_token:
        print("DISCORD_TOKEN is set, but this release runs on Telegram only: set "
              f"TELEGRAM_TOKEN, or play in the terminal with `{program()} play dragon`.",
              file=out)
        return 2
    if discord_token:
        print("DISCORD_TOKEN is set but ignored: this release runs on Telegram only.", file=out)
    return run_telegram(env, out)


def run_telegram(env: Mapping[str, str], out: TextIO = sys.stdout) -> int:
    token = env.get("TELEGRAM_TOKEN", "").strip()
    if not token:
        print(no_token_help(Path.cwd()), file=out)
        return 2
    logging.basicConfig(level=env.get("GUPAI_LOG_LEVEL", "INFO").upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.telegram_adapter import guard_logs
    guard_logs(token)
    try:
        asyncio.run(_serve_telegram(token, env, out))
    except StorageError as exc:
        print(f"The database could not be opened: {exc}", file=out)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


async def _serve_telegram(token: str, env: Mapping[str, str], out: TextIO) -> None:
    from bot.telegram_adapter import TelegramBot

    storage = await Storage.from_settings(env)
    bot = TelegramBot(token, storage, api_url=env.get("TELEGRAM_API_URL") or None)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await bot.start()
        print(f"Telegram bot @{bot.app.bot.username} is running; Ctrl+C stops it.", file=out)
        await stop.wait()
    finally:
        await bot.stop()
        await storage.close()
