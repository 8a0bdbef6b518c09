"""`gupai run`: settings from the environment and `.env`, and the advice when no token is set."""

from __future__ import annotations

import asyncio
import contextlib
import io
import socket
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.launch.run import run
from bot.service.env_file import read_env_file, settings


def test_the_environment_wins_over_the_env_file(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(
        "# comment\nTELEGRAM_TOKEN='from-file'\nexport GUPAI_DB=\"x.sqlite3\"\n\nnonsense\n",
        encoding="utf-8")
    assert read_env_file(tmp_path / ".env") == {"TELEGRAM_TOKEN": "from-file",
                                                "GUPAI_DB": "x.sqlite3"}
    merged = settings({"TELEGRAM_TOKEN": "from-env"}, tmp_path)
    assert merged["TELEGRAM_TOKEN"] == "from-env" and merged["GUPAI_DB"] == "x.sqlite3"
    assert read_env_file(tmp_path / "missing") == {}


def test_no_token_says_what_to_set_and_offers_play(tmp_path: Path) -> None:
    out = io.StringIO()
    assert run({}, out, tmp_path) == 2
    text = out.getvalue()
    assert "TELEGRAM_TOKEN" in text and str(tmp_path / ".env") in text
    assert "play dragon" in text


def test_a_platform_asked_for_by_name_needs_its_own_token(tmp_path: Path) -> None:
    out = io.StringIO()
    assert run({"TELEGRAM_TOKEN": "x"}, out, tmp_path, only="discord") == 2
    assert "DISCORD_TOKEN is not set" in out.getvalue()
    assert "play dragon" in out.getvalue()


async def test_both_tokens_start_both_platforms_on_one_database(tmp_path: Path,
                                                                monkeypatch) -> None:
    """`gupai run` with both tokens: one process, one storage, both adapters started and
    stopped; the Discord connection ending ends the process."""
    import bot.discord.discord_adapter
    import bot.telegram.telegram_adapter
    from bot.launch.run import _serve

    started: list[tuple[str, object]] = []
    stopped: list[str] = []

    class FakeTelegram:
        def __init__(self, token: str, storage: object, **_: object) -> None:
            self.storage = storage
            self.app = type("App", (), {"bot": type("Bot", (), {"username": "gupai_bot"})})()

        async def start(self) -> None:
            started.append(("telegram", self.storage))

        async def stop(self) -> None:
            stopped.append("telegram")

    class FakeDiscord:
        def __init__(self, token: str, storage: object, **_: object) -> None:
            self.storage = storage

        async def start(self) -> None:
            started.append(("discord", self.storage))

        async def stop(self) -> None:
            stopped.append("discord")

    monkeypatch.setattr(bot.telegram.telegram_adapter, "TelegramBot", FakeTelegram)
    monkeypatch.setattr(bot.discord.discord_adapter, "DiscordBot", FakeDiscord)
    out = io.StringIO()
    await asyncio.wait_for(_serve({"telegram": "t", "discord": "d"},
                                  {"GUPAI_DB": str(tmp_path / "x.sqlite3")}, out), 10)
    assert [name for name, _ in started] == ["telegram", "discord"]
    assert started[0][1] is started[1][1]
    assert stopped == ["discord", "telegram"]
    assert "@gupai_bot" in out.getvalue() and "Discord" in out.getvalue()


def test_the_command_line_without_a_token(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "bot.cli", "run"], cwd=tmp_path, env={
        **env, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "No bot token is configured" in done.stdout
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("failure, said", [
    ("login", "Discord refused DISCORD_TOKEN"),
    ("network", "The network failed"),
])
def test_a_platform_that_cannot_start_is_explained(tmp_path: Path, monkeypatch,
                                                   failure: str, said: str) -> None:
    import aiohttp
    import discord

    import bot.discord.discord_adapter

    class Refused:
        def __init__(self, token: str, storage: object, **_: object) -> None:
            pass

        async def start(self) -> None:
            if failure == "login":
                raise discord.LoginFailure("Improper token has been passed.")
            raise aiohttp.ClientConnectionError("Cannot connect to host discord.com:443")

        async def stop(self) -> None:
            pass

    monkeypatch.setattr(bot.discord.discord_adapter, "DiscordBot", Refused)
    out = io.StringIO()
    code = run({"DISCORD_TOKEN": "x", "GUPAI_DB": str(tmp_path / "x.sqlite3")}, out, tmp_path)
    assert code == 1
    assert said in out.getvalue() and "Traceback" not in out.getvalue()


@pytest.mark.parametrize("env, said", [
    ({"TELEGRAM_WEBHOOK_URL": "https://bot.example.com/telegram"}, "needs GUPAI_HTTP_PORT"),
    ({"GUPAI_HTTP_PORT": "http"}, "GUPAI_HTTP_PORT must be a port number"),
    ({"GUPAI_HTTP_PORT": "8080", "TELEGRAM_WEBHOOK_URL": "bot.example.com"},
     "must be an https:// URL"),
    ({"GUPAI_HTTP_PORT": "8080", "TELEGRAM_WEBHOOK_URL": "https://bot.example.com/metrics"},
     "must not end in /metrics"),
    ({"GUPAI_HTTP_PORT": "8080", "TELEGRAM_WEBHOOK_URL": "https://bot.example.com/tg",
      "TELEGRAM_WEBHOOK_SECRET": "not a secret!"}, "TELEGRAM_WEBHOOK_SECRET may hold only"),
    ({"TELEGRAM_MINIAPP_URL": "https://bot.example.com/app/", "TELEGRAM_MINIAPP_NAME": "table"},
     "TELEGRAM_MINIAPP_URL needs GUPAI_HTTP_PORT"),
    ({"GUPAI_HTTP_PORT": "8080", "TELEGRAM_MINIAPP_URL": "https://bot.example.com/app/"},
     "The Mini App needs TELEGRAM_MINIAPP_NAME too"),
    ({"GUPAI_HTTP_PORT": "8080", "TELEGRAM_MINIAPP_NAME": "table"},
     "The Mini App needs TELEGRAM_MINIAPP_URL too"),
    ({"GUPAI_HTTP_PORT": "8080", "TELEGRAM_MINIAPP_URL": "bot.example.com/app",
      "TELEGRAM_MINIAPP_NAME": "table"}, "must be an https:// address"),
    ({"GUPAI_HTTP_PORT": "8080", "TELEGRAM_MINIAPP_URL": "https://bot.example.com/app/",
      "TELEGRAM_MINIAPP_NAME": "my table"}, "TELEGRAM_MINIAPP_NAME must be"),
    ({"GUPAI_HTTP_PORT": "8080", "TELEGRAM_MINIAPP_URL": "https://bot.example.com/app/",
      "TELEGRAM_MINIAPP_NAME": "table", "GUPAI_MINIAPP_MAX_AGE": "5"},
     "GUPAI_MINIAPP_MAX_AGE must be"),
])
def test_http_settings_that_cannot_work_are_explained(tmp_path: Path, env: dict[str, str],
                                                      said: str) -> None:
    out = io.StringIO()
    assert run({"TELEGRAM_TOKEN": "1:x", **env}, out, tmp_path) == 2
    assert said in out.getvalue()


def test_a_webhook_from_its_url() -> None:
    from bot.telegram.telegram_http import Webhook, derived_secret

    hook = Webhook.of("https://bot.example.com", "1:token")
    assert (hook.url, hook.path) == ("https://bot.example.com/telegram", "/telegram")
    assert hook.secret == derived_secret("1:token") != derived_secret("2:token")
    assert len(hook.secret) == 64 and "token" not in hook.secret
    assert hook.allows(hook.secret) and not hook.allows(None) and not hook.allows("x")
    hook = Webhook.of("https://bot.example.com/tg/gupai/?a=1", "1:token", "my-Secret_1")
    assert (hook.url, hook.path, hook.secret) == (
        "https://bot.example.com/tg/gupai?a=1", "/tg/gupai", "my-Secret_1")


def test_a_bot_without_a_port_loads_no_http_server(tmp_path: Path) -> None:
    """Without GUPAI_HTTP_PORT there is no server, and a start does not load aiohttp for one
    (a third of a second of its processor time): reading the HTTP settings and loading the
    Telegram bot leave it out."""
    script = "\n".join([
        "import sys",
        "import bot.telegram.telegram_adapter",
        "from bot.launch.run import http_settings",
        "assert http_settings({}, {'telegram': '1:x'}) == (None, None, None)",
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'aiohttp'))"])
    # (in an empty folder: a `.env` in the project's would be read as settings)
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", done.stdout


def test_the_health_check_loads_neither_the_games_nor_the_bot(tmp_path: Path) -> None:
    """`gupai health`, the container's HEALTHCHECK every 30 seconds, reads the settings and
    asks the bot over HTTP: it loads none of what the bot itself runs on."""
    script = "\n".join([
        "import sys",
        "from bot.cli import main",
        "code = main(['health'])",
        "loaded = {m.split('.')[0] for m in sys.modules}",
        "print(code, sorted(loaded & {'games', 'faces', 'rendering', 'storage', 'words', "
        "'telegram', 'discord', 'aiohttp', 'PIL'}))"])
    # (in an empty folder: a `.env` in the project's would be read as settings)
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    said, last = done.stdout.strip().rsplit("\n", 1)
    assert "GUPAI_HTTP_PORT is not set" in said
    assert last == "1 []", last


def test_both_of_a_bots_http_clients_check_certificates_with_one_context() -> None:
    """Its requests and its updates are two HTTP clients: both verify Telegram's certificate,
    with the certificates read once for both."""
    import ssl

    from bot.telegram.telegram_http import application

    app = application("1:token", None, webhook=False, max_retries=0, answered=lambda _: None)
    contexts = [request._client._transport._pool._ssl_context  # type: ignore[attr-defined]
                for request in app.bot._request]  # type: ignore[attr-defined]
    assert len(contexts) == 2 and contexts[0] is contexts[1]
    assert contexts[0].verify_mode == ssl.CERT_REQUIRED and contexts[0].check_hostname


async def test_the_http_server_runs_beside_the_platforms(tmp_path: Path, monkeypatch) -> None:
    """With an address, `_serve` listens before the platforms start and stops first."""
    import bot.discord.discord_adapter
    import bot.telegram.telegram_adapter
    from bot.launch.run import _serve
    from bot.service.http_address import Address
    from tests.support.scrape import get

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    seen: list[tuple[int, str]] = []

    class FakeTelegram:
        def __init__(self, token: str, storage: object, **_: object) -> None:
            self.app = type("App", (), {"bot": type("Bot", (), {"username": "gupai_bot"})})()

        def health(self, silence: float) -> str | None:
            return None

        async def start(self) -> None:
            seen.append(await get(f"http://127.0.0.1:{port}/healthz"))

        async def stop(self) -> None:
            seen.append((0, "telegram stopped"))

    class FakeDiscord(FakeTelegram):
        def health(self) -> str | None:  # type: ignore[override]
            return "discord: not connected to the gateway"

        async def start(self) -> None:
            seen.append(await get(f"http://127.0.0.1:{port}/healthz"))

        async def stop(self) -> None:
            with contextlib.suppress(aiohttp.ClientError):
                seen.append(await get(f"http://127.0.0.1:{port}/healthz"))
            seen.append((0, "discord stopped"))

    monkeypatch.setattr(bot.telegram.telegram_adapter, "TelegramBot", FakeTelegram)
    monkeypatch.setattr(bot.discord.discord_adapter, "DiscordBot", FakeDiscord)
    out = io.StringIO()
    await asyncio.wait_for(_serve({"telegram": "t", "discord": "d"},
                                  {"GUPAI_DB": str(tmp_path / "x.sqlite3")}, out,
                                  Address("127.0.0.1", port)), 10)
    assert seen == [(503, "discord: not connected to the gateway\n"),
                    (503, "discord: not connected to the gateway\n"),
                    (0, "discord stopped"), (0, "telegram stopped")]
    assert f"http://127.0.0.1:{port}/healthz" in out.getvalue()


def test_the_computers_pause_is_a_setting() -> None:
    from bot.launch.run import sharing

    assert sharing({})[0].computer_delay == 1.5
    assert sharing({"GUPAI_COMPUTER_DELAY": "0.2"})[0].computer_delay == 0.2
    for wrong in ("-1", "abc", "31", "nan"):
        with pytest.raises(ValueError, match="GUPAI_COMPUTER_DELAY must be 0 to 30 seconds"):
            sharing({"GUPAI_COMPUTER_DELAY": wrong})
