"""The bot's HTTP server in one process with the bots (docs/architecture.md §11): `/healthz` answers
for the database and for every platform, `/metrics` is Prometheus's text format and its figures move
with what the bots do. The Telegram bot is the real `Application` against the fake Bot API, the
Discord bot the real client against the fake Discord, on the virtual clock.
"""

from __future__ import annotations

import asyncio
import functools
import io
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.launch.http_server import HttpServer
from bot.present.screens import Place, Post, Reply, Screen
from bot.service.health import health
from bot.service.metrics import Metrics
from bot.session.seating import Game, seats_of
from storage import Storage
from tests.support.discord_server import OLENA as DISCORD_OLENA
from tests.support.discord_server import Server
from tests.support.fake_telegram import FakeTelegram
from tests.support.scrape import get, sample
from tests.support.telegram_group import GROUP, OLENA, Group

ROOT = Path(__file__).resolve().parents[2]
SILENCE = 120.0
TELEGRAM = {"platform": "telegram"}
DISCORD = {"platform": "discord"}


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        fake.start_bot(OLENA)
        yield fake


@pytest.fixture
async def http(group: Group) -> AsyncIterator[HttpServer]:
    assert group.bot is not None and group.storage is not None
    served = HttpServer(group.storage, group.bot.metrics.metrics, port=0, silence=SILENCE)
    served.watch(functools.partial(group.bot.health, SILENCE))
    await served.start()
    yield served
    await served.stop()


async def scrape(http: HttpServer) -> str:
    status, text = await get(f"{http.url}/metrics")
    assert status == 200
    return text


async def test_healthy_then_telegram_unheard_then_the_database_gone(
        group: Group, http: HttpServer, tmp_path: Path) -> None:
    assert await get(f"{http.url}/healthz") == (200, "ok\n")
    await asyncio.sleep(SILENCE + 80)  # nobody writes, so the bot asks Telegram nothing
    status, text = await get(f"{http.url}/healthz")
    assert status == 503
    assert re.fullmatch(r"telegram: nothing heard for 2\d\d s\n", text), text
    group.say(OLENA, "/games")  # the bot answers: Telegram is heard again
    await group.server.wait_for_call("sendMessage")
    assert await get(f"{http.url}/healthz") == (200, "ok\n")

    other = await Storage.open(tmp_path / "gupai.sqlite3")  # (the server's own, closed now)
    http.storage = other
    await other.close()
    status, text = await get(f"{http.url}/healthz")
    assert status == 503 and text.startswith("database: "), text


async def test_telegram_figures_move_with_the_game(group: Group, http: HttpServer,
                                                   server: FakeTelegram) -> None:
    before = await scrape(http)
    assert sample(before, "gupai_open_games", **TELEGRAM) == 0
    assert sample(before, "gupai_presses_total", **TELEGRAM) == 0
    calls = sample(before, "gupai_api_calls_total", **TELEGRAM)
    assert calls == len(server.calls()) > 0  # getMe, the commands

    sid = await group.open_game("dragon deals=1", (OLENA,), computers=1)
    playing = await scrape(http)
    assert sample(playing, "gupai_open_games", **TELEGRAM) == 1
    assert sample(playing, "gupai_deals_total", **TELEGRAM, game="dragon") == 1
    assert sample(playing, "gupai_presses_total", **TELEGRAM) == 2  # add computer, start
    presses = 2 + await group.play(sid, (OLENA,))
    assert await group.status(sid) == "finished"
    await server.wait_idle()

    after = await scrape(http)
    assert sample(after, "gupai_presses_total", **TELEGRAM) == presses
    assert sample(after, "gupai_press_answer_seconds_count", **TELEGRAM) == presses
    assert sample(after, "gupai_press_answer_seconds_bucket", **TELEGRAM, le="+Inf") == presses
    assert sample(after, "gupai_moves_total", **TELEGRAM, game="dragon") > presses - 2
    assert sample(after, "gupai_settlements_total", **TELEGRAM, game="dragon") == 1
    assert sample(after, "gupai_open_games", **TELEGRAM) == 0
    assert sample(after, "gupai_api_calls_total", **TELEGRAM) == len(server.calls())
    assert sample(after, "gupai_api_rate_limited_total", **TELEGRAM) == 0


async def test_telegram_429s_and_the_outboxes_waiting(group: Group, http: HttpServer,
                                                      server: FakeTelegram) -> None:
    assert group.bot is not None
    server.fail_next("sendMessage", 429, retry_after=1, chat_id=GROUP)
    group.say(OLENA, "/games")
    await server.wait_for(lambda: any(c.ok for c in server.calls("sendMessage")))
    # The fake records a call as it answers; the bot counts it once the answer has reached it.
    await group.bot.drain()
    text = await scrape(http)
    assert sample(text, "gupai_api_rate_limited_total", **TELEGRAM) == 1
    assert [c.ok for c in server.calls("sendMessage")] == [False, True]  # (retried)
    assert sample(text, "gupai_api_calls_total", **TELEGRAM) == len(server.calls())

    server.hold("sendMessage")
    for n in range(3):
        await group.bot.deliver(Reply(session_id=1, place=Place(str(GROUP)),
                                      posts=[Post(Screen(f"result {n}"))]))
    await server.wait_for(lambda: server.held("sendMessage") == 1)
    assert sample(await scrape(http), "gupai_outbox_jobs", **TELEGRAM) == 2
    server.release("sendMessage")
    await group.bot.drain()
    assert sample(await scrape(http), "gupai_outbox_jobs", **TELEGRAM) == 0


@pytest.fixture
async def discord_server(tmp_path: Path) -> AsyncIterator[Server]:
    running = Server(tmp_path / "discord.sqlite3")
    await running.start()
    yield running
    await running.stop()


async def waiting_for_a_person(server: Server) -> None:
    """Until the game waits for a person, and what the bot queued has gone out: no computer's
    move is due, so the calls the fake has seen are all the calls the bot has counted (a move
    due during a scrape would be counted by the fake after it)."""
    assert server.storage is not None
    while True:
        await server.drain()
        (session,) = await server.storage.sessions.open_sessions()
        game = Game.of(session)
        state = game.state(session)
        seat = None if state is None else game.rules.to_move(state)
        if seat is not None and not seats_of(session)[seat].automatic:
            return
        await asyncio.sleep(0.05)


async def test_discord_figures_and_health(discord_server: Server, monkeypatch) -> None:
    bot, fake = discord_server.bot, discord_server.fake
    assert bot is not None and fake is not None and discord_server.storage is not None
    served = HttpServer(discord_server.storage, bot.metrics.metrics, port=0)
    served.watch(bot.health)
    await served.start()
    try:
        assert await get(f"{served.url}/healthz") == (
            503, "discord: not connected to the gateway\n")
        client = type(bot.client)
        monkeypatch.setattr(bot.client, "is_ready", lambda: True)
        monkeypatch.setattr(client, "latencies", property(lambda self: [(0, 0.04)]))
        assert await get(f"{served.url}/healthz") == (200, "ok\n")
        monkeypatch.setattr(client, "latencies", property(lambda self: [(0, float("inf"))]))
        assert await get(f"{served.url}/healthz") == (
            503, "discord: shard 0 has no heartbeat answered\n")

        await discord_server.command(DISCORD_OLENA, "newgame", {"game": "dragon"})
        for ending in ("!add", "!start"):
            await discord_server.press(DISCORD_OLENA, discord_server.table(),
                                       discord_server.data(discord_server.table(), ending))
        await waiting_for_a_person(discord_server)
        text = await scrape(served)
        assert sample(text, "gupai_presses_total", **DISCORD) == 2
        assert sample(text, "gupai_press_answer_seconds_count", **DISCORD) == 2
        assert sample(text, "gupai_deals_total", **DISCORD, game="dragon") == 1
        assert sample(text, "gupai_open_games", **DISCORD) == 1
        assert sample(text, "gupai_api_calls_total", **DISCORD) == len(fake.calls)
        assert sample(text, "gupai_presses_total", **TELEGRAM) == 0

        channel = int(discord_server.table()["channel_id"])
        fake.fail_next("POST", f"/channels/{channel}/messages", 429, message="slow down")
        await bot.deliver(Reply(session_id=1, place=Place("555", str(channel)),
                                posts=[Post(Screen("a result"))]))
        await discord_server.drain()
        text = await scrape(served)
        assert sample(text, "gupai_api_rate_limited_total", **DISCORD) == 1
        assert sample(text, "gupai_api_calls_total", **DISCORD) == len(fake.calls)
    finally:
        await served.stop()


def run_health(env: dict[str, str], folder: Path) -> subprocess.CompletedProcess[str]:
    """`gupai health` as the container runs it."""
    return subprocess.run([sys.executable, "-m", "bot.cli", "health"], cwd=folder,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(folder),
                               "PYTHONPATH": str(ROOT), **env},
                          capture_output=True, text=True, timeout=60)


async def test_gupai_health_exits_0_when_well_and_1_otherwise(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "health.sqlite3")
    served = HttpServer(storage, Metrics(), port=0)
    reasons: list[str] = []
    served.watch(lambda: reasons[0] if reasons else None)
    await served.start()
    try:
        well = await asyncio.to_thread(run_health, {"GUPAI_HTTP_PORT": str(served.port)},
                                       tmp_path)
        assert (well.returncode, well.stdout) == (0, "ok\n"), well.stderr
        reasons.append("telegram: nothing heard for 300 s")
        out = io.StringIO()
        env = {"GUPAI_HTTP_PORT": str(served.port), "GUPAI_HTTP_HOST": "0.0.0.0"}
        assert await asyncio.to_thread(health, env, out) == 1
        assert out.getvalue() == "telegram: nothing heard for 300 s\n"
    finally:
        await served.stop()
        await storage.close()
    out = io.StringIO()
    assert await asyncio.to_thread(health, {"GUPAI_HTTP_PORT": str(served.port)}, out) == 1
    assert out.getvalue().startswith(f"Nothing answers at http://127.0.0.1:{served.port}/")
    unset = await asyncio.to_thread(run_health, {}, tmp_path)
    assert unset.returncode == 1 and "GUPAI_HTTP_PORT is not set" in unset.stdout
    assert "Traceback" not in unset.stderr
