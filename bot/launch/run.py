"""`gupai run` and `gupai telegram`: start the platforms whose tokens are configured.

Settings come from the environment, and from a `.env` file in the working folder for anything the
environment does not set (`.env.example` documents every name). With no token at all, the bot
says exactly what to set and where, and points to `gupai play`, which needs none.

With `GUPAI_HTTP_PORT` set, the same process serves health, metrics and (with
`TELEGRAM_WEBHOOK_URL`) Telegram's webhook over HTTP (`bot.launch.http_server`), on the bots' loop.

A platform's library is loaded only when its platform starts (docs/architecture.md §5): each
costs some third of a start's processor time, which a bot of the other platform would pay for
nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import math
import signal
import sys
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bot.service.env_file import ENV_FILE
from bot.service.http_address import Address
from bot.service.shards import Shards, parse_shards
from bot.service.workers import LEASE, MAX_LEASE, MIN_LEASE
from bot.session.requests import Timing
from storage import Storage, StorageError

if TYPE_CHECKING:
    from bot.present.miniapp import MiniApp
    from bot.telegram.telegram_http import Webhook

log = logging.getLogger(__name__)

MAX_DELAY = 30.0
"""The longest pause before a computer's move that GUPAI_COMPUTER_DELAY may ask for."""


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
        "Set a token in the environment or in " f"{env} (copy .env.example and fill it in):",
        "",
        "    TELEGRAM_TOKEN=123456789:AA...   (from @BotFather, for Telegram)",
        "    DISCORD_TOKEN=MTIz...            (from the Discord developer portal: Applications,",
        "                                      your app, Bot, Reset Token)",
        "",
        "Either or both: with both, one process serves Telegram and Discord together.",
        "Optional: TELEGRAM_API_URL (a local Bot API server), GUPAI_DB (the SQLite file, default",
        "gupai.sqlite3, or a postgresql:// URL), GUPAI_GRANT (starting chips, default 1000);",
        ".env.example documents every setting.",
        "",
        "To play right now without a token or network, against computer players:",
        "",
        f"    {program()} play dragon",
    ])


def run(env: Mapping[str, str], out: TextIO = sys.stdout, folder: Path | None = None,
        only: str | None = None) -> int:
    """Start every platform whose token is set (`only`: just that one)."""
    folder = folder or Path.cwd()
    tokens = {name: env.get(f"{name.upper()}_TOKEN", "").strip()
              for name in ("telegram", "discord")}
    wanted = {name: token for name, token in tokens.items()
              if token and (only is None or name == only)}
    if not wanted:
        if only is not None and any(tokens.values()):
            print(f"{only.upper()}_TOKEN is not set.", file=out)
        print(no_token_help(folder), file=out)
        return 2
    try:
        serving = http_settings(env, wanted)
        sharing(env)
    except ValueError as exc:
        print(exc, file=out)
        return 2
    from bot.service.logs import configure_logging, hide
    configure_logging(env)
    if "telegram" in wanted:
        from bot.telegram.telegram_messages import guard_logs
        guard_logs(wanted["telegram"])
    if "discord" in wanted:
        hide(wanted["discord"])
    try:
        asyncio.run(_serve(wanted, env, out, *serving))
    except StorageError as exc:
        print(f"The database could not be opened: {exc}", file=out)
        return 1
    except KeyboardInterrupt:
        pass
    except Exception as exc:  # a platform that cannot start or lost its connection
        log.debug("stopped", exc_info=exc)
        print(start_failure(exc), file=out)
        return 1
    return 0


def start_failure(exc: BaseException) -> str:
    """Why a platform could not start, in one sentence a user can act on. Only the libraries
    the process has loaded are asked: an exception can be of a class a library defines only
    once it is loaded, and a Telegram bot that failed should not load discord.py to say so."""
    network: tuple[type[BaseException], ...] = (OSError,)
    if "discord" in sys.modules:
        import discord

        if isinstance(exc, discord.LoginFailure):
            return ("Discord refused DISCORD_TOKEN: copy it again from the developer portal "
                    "(Applications, your app, Bot, Reset Token).")
        if isinstance(exc, discord.PrivilegedIntentsRequired):
            return "Discord asks for an intent the bot does not use: please report this."
    if "telegram" in sys.modules:
        import telegram.error

        if isinstance(exc, telegram.error.InvalidToken):
            return "Telegram refused TELEGRAM_TOKEN: copy it again from @BotFather."
        network += (telegram.error.NetworkError,)
    if "aiohttp" in sys.modules:
        import aiohttp

        network += (aiohttp.ClientError,)
    if isinstance(exc, network):
        return f"The network failed, so the bot could not connect: {exc}"
    return f"The bot stopped: {type(exc).__name__}: {exc}"


def run_telegram(env: Mapping[str, str], out: TextIO = sys.stdout) -> int:
    return run(env, out, only="telegram")


def run_discord(env: Mapping[str, str], out: TextIO = sys.stdout) -> int:
    return run(env, out, only="discord")


def http_settings(env: Mapping[str, str], tokens: Mapping[str, str]
                  ) -> tuple[Address | None, Webhook | None, MiniApp | None]:
    """Where the HTTP server listens (None: no server), Telegram's webhook (None: the bot
    polls) and its Mini App (None: no web table); ValueError with a sentence saying what to
    fix."""
    from bot.present.miniapp import MiniApp

    address = Address.of(env)
    miniapp = MiniApp.of(env) if "telegram" in tokens else None
    if miniapp is not None and address is None:
        raise ValueError("TELEGRAM_MINIAPP_URL needs GUPAI_HTTP_PORT: the port the bot serves "
                         "the web table on (behind the proxy the URL names).")
    url = env.get("TELEGRAM_WEBHOOK_URL", "").strip()
    if not url or "telegram" not in tokens:
        return address, None, miniapp
    if address is None:
        raise ValueError("TELEGRAM_WEBHOOK_URL needs GUPAI_HTTP_PORT: the port the bot takes "
                         "Telegram's updates on (behind the proxy the URL names).")
    from bot.telegram.telegram_http import Webhook  # python-telegram-bot: a Telegram bot's own

    return (address, Webhook.of(url, tokens["telegram"], env.get("TELEGRAM_WEBHOOK_SECRET")),
            miniapp)


def sharing(env: Mapping[str, str]) -> tuple[Timing, Shards | None]:
    """The session layer's pauses and how this process shares the database with others: the
    computer's pause before a move (GUPAI_COMPUTER_DELAY, seconds), the lease after which
    another process takes its games over (GUPAI_LEASE) and its Discord shards (GUPAI_SHARDS).
    ValueError with a sentence saying what to fix."""
    timing = Timing()
    lease = seconds(env, "GUPAI_LEASE", LEASE, MIN_LEASE, MAX_LEASE)
    delay = seconds(env, "GUPAI_COMPUTER_DELAY", timing.computer_delay, 0.0, MAX_DELAY)
    return (dataclasses.replace(timing, lease=lease, computer_delay=delay),
            parse_shards(env.get("GUPAI_SHARDS", "")))


def seconds(env: Mapping[str, str], name: str, default: float, least: float, most: float
            ) -> float:
    """A setting in seconds, `default` when empty; ValueError naming the range otherwise."""
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not least <= value <= most:
        raise ValueError(f"{name} must be {least:g} to {most:g} seconds, not {text!r}")
    return value


async def _serve(tokens: Mapping[str, str], env: Mapping[str, str], out: TextIO,
                 address: Address | None = None, webhook: Webhook | None = None,
                 miniapp: MiniApp | None = None) -> None:
    """One storage for every platform; runs until Ctrl+C (or SIGTERM), then stops them all.
    With an `address`, the HTTP server too (health, metrics, the `webhook` Telegram delivers
    to, and the `miniapp`'s web table), listening before any platform starts and stopped
    before them."""
    from bot.service.metrics import Metrics

    storage = await Storage.from_settings(env)
    timing, shards = sharing(env)
    metrics = Metrics()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    stoppers: list[Callable[[], Awaitable[None]]] = []
    connections: list[asyncio.Task[None]] = []
    try:
        if "telegram" in tokens:
            from bot.telegram.telegram_adapter import TelegramBot
            telegram = TelegramBot(tokens["telegram"], storage,
                                   api_url=env.get("TELEGRAM_API_URL") or None,
                                   metrics=metrics, webhook=webhook, timing=timing,
                                   miniapp=miniapp)
            stoppers.append(telegram.stop)
        if "discord" in tokens:
            from bot.discord.discord_adapter import DiscordBot
            discord_bot = DiscordBot(tokens["discord"], storage, metrics=metrics,
                                     timing=timing, shards=shards)
            stoppers.append(discord_bot.stop)
        if address is not None:
            from bot.launch.http_server import HttpServer
            server = HttpServer(storage, metrics, address.host, address.port,
                                proxies=address.proxies)
            if "telegram" in tokens:
                server.watch(functools.partial(telegram.health, server.silence))
                if webhook is not None:
                    server.take_webhook(telegram)
                if miniapp is not None:
                    from bot.telegram.telegram_members import in_chat
                    from bot.web.webapp import WebApp
                    server.take_webapp(WebApp(telegram.manager, tokens["telegram"],
                                              miniapp.max_age, streams=miniapp.streams,
                                              member=functools.partial(in_chat,
                                                                       telegram.app.bot)))
                    # Result posts link to a deal's replay there, on either platform.
                    telegram.manager.requests.replay_url = miniapp.url
            if "discord" in tokens:
                server.watch(discord_bot.health)
                if server.webapp is not None and miniapp is not None:
                    discord_bot.manager.requests.replay_url = miniapp.url
            stoppers.append(server.stop)
            await server.start()
            print(f"Health and metrics: {server.url}/healthz and {server.url}/metrics",
                  file=out)
            if server.webapp is not None and miniapp is not None:
                print(f"Web table: {server.url}/app/ (published at {miniapp.url})", file=out)
        if "telegram" in tokens:
            await telegram.start()
            how = f"updates at {webhook.url}" if webhook is not None else "polling"
            print(f"Telegram bot @{telegram.app.bot.username} is running ({how}).", file=out)
        if "discord" in tokens:
            connections.append(asyncio.ensure_future(discord_bot.start()))
            connections[-1].add_done_callback(lambda _: stop.set())
            print("Discord bot is connecting.", file=out)
        print("Ctrl+C stops it.", file=out)
        await stop.wait()
        for task in connections:
            if task.done() and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
    finally:
        for stopper in reversed(stoppers):
            with contextlib.suppress(Exception):
                await stopper()
        for task in connections:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await storage.close()
