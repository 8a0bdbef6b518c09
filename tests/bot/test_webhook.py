"""Telegram's webhook on the real `gupai telegram` process (docs/architecture.md §11): the fake Bot
API POSTs every update to the bot's own HTTP server on 127.0.0.1, with the secret the bot
registered. A request without it changes nothing; a whole game plays through deliveries alone (the
bot never polls); and the next start without the webhook removes it and polls again.
"""

from __future__ import annotations

import asyncio
import socket
import sqlite3
from pathlib import Path

import aiohttp
import pytest

from bot.telegram.telegram_http import SECRET_HEADER, derived_secret
from tests.support.bot_process import BotProcess, ProcessGroup
from tests.support.fake_telegram import FakeTelegram
from tests.support.scrape import get, sample
from tests.support.telegram_group import BOB, GROUP, KIM, OLENA, TOKEN

PEOPLE = (OLENA, BOB, KIM)



def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def owed(db: Path) -> int:
    """Posts the group is owed and does not have yet (a deal's result, say)."""
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM posts").fetchone()[0])


def dump(db: Path) -> list[str]:
    """Everything the database holds, as SQL, but the workers' heartbeats: a running process
    writes its own row every few seconds whatever arrives, so it is not something a request
    changed."""
    with sqlite3.connect(db) as conn:
        return [line for line in conn.iterdump() if not line.startswith('INSERT INTO "workers"')]


async def post(url: str, update: dict[str, object], headers: dict[str, str]) -> int:
    async with aiohttp.ClientSession() as session, \
            session.post(url, json=update, headers=headers) as answer:
        return answer.status


def forged_newgame(update_id: int) -> dict[str, object]:
    return {"update_id": update_id, "message": {
        "message_id": 1, "date": 1_800_000_000, "text": "/newgame dragon",
        "chat": {"id": GROUP, "type": "supergroup", "title": "Forged"},
        "from": OLENA.to_api(),
        "entities": [{"type": "bot_command", "offset": 0, "length": 8}]}}


@pytest.mark.real_time
async def test_a_game_through_the_webhook_then_polling_again(server: FakeTelegram,
                                                             tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    url = f"{base}/telegram/hook"
    db = tmp_path / "bot.sqlite3"
    group = ProcessGroup(server, db, {"GUPAI_HTTP_PORT": str(port),
                                      "TELEGRAM_WEBHOOK_URL": url})
    try:
        await group.launch()
        assert server.webhook() == {"url": url, "secret_token": derived_secret(TOKEN),
                                    "allowed_updates": ["message", "callback_query"]}
        assert server.calls("getUpdates") == []
        assert await get(f"{base}/healthz") == (200, "ok\n")

        before, calls = dump(db), len(server.calls())
        for headers in ({}, {SECRET_HEADER: "forged"},
                        {SECRET_HEADER: derived_secret(TOKEN)[:-1] + "x"}):
            assert await post(url, forged_newgame(90_000), headers) == 403
        await asyncio.sleep(0.5)
        assert len(server.calls()) == calls, server.summary()
        assert dump(db) == before

        sid = await group.open_game("dragon deals=1", PEOPLE, computers=0)
        presses = 1 + await group.play(sid, PEOPLE)  # (and the lobby's Start)
        assert await group.status(sid) == "finished"
        await server.wait_for(lambda: owed(db) == 0)
        deliveries = server.deliveries()
        assert deliveries and all(d.ok for d in deliveries)
        assert server.calls("getUpdates") == []

        status, text = await get(f"{base}/metrics")
        assert status == 200
        telegram = {"platform": "telegram"}
        assert sample(text, "gupai_presses_total", **telegram) >= presses
        assert sample(text, "gupai_moves_total", **telegram, game="dragon") > 0
        assert sample(text, "gupai_deals_total", **telegram, game="dragon") == 1
        assert sample(text, "gupai_settlements_total", **telegram, game="dragon") == 1
        assert sample(text, "gupai_api_calls_total", **telegram) > 0
        assert sample(text, "gupai_press_answer_seconds_count", **telegram) >= presses
        assert sample(text, "gupai_open_games", **telegram) == 0

        code, _ = group.terminate()
        assert code == 0 and "Traceback" not in group.process.output, group.process.output
        assert server.webhook() is not None, "a stop keeps the webhook for the next process"

        group.process = BotProcess(server, db)  # no webhook: polling
        group.process.start()
        await server.wait_for_call("deleteWebhook", timeout=30)
        assert server.webhook() is None
        after = len(server.calls())
        group.say(OLENA, "/games")  # (the long poll under way takes it at once)
        await server.wait_for_call("sendMessage", lambda c: c.chat_id == GROUP, timeout=30,
                                   after=after)
        assert all(c.ok for c in server.calls("getUpdates"))
        code, _ = group.terminate()
        assert code == 0 and "Traceback" not in group.process.output, group.process.output
    finally:
        await group.close()
