"""What the internet can make the bot's HTTP server do (docs/architecture.md §11,
`bot.service.http_guard`): a flood of refusals is counted but writes a few lines a minute, malformed
requests and bodies get a 400 without a traceback or a quote of what was sent, slow clients are cut
off, rates are limited per address and per person, and nothing refused changes a game or the chips.

The server runs in the test's process with the Telegram bot, on the virtual clock, so a client
that takes a minute to send its headers costs no real time.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.launch.http_server import HEADERS, HttpServer
from bot.service.http_guard import LINES_PER_MINUTE, PACE, PAUSE, WAITING
from bot.telegram.telegram_http import SECRET_HEADER, Webhook
from bot.web.webapp import PER_ADDRESS, PER_ADDRESS_FILES, PER_PERSON, PREFIX, WebApp
from tests.support.fake_telegram import FakeTelegram, User
from tests.support.miniapp import init_data
from tests.support.scrape import sample
from tests.support.telegram_group import BOB, OLENA, TOKEN, Group
from tests.support.web_table import GAME_AND_BOOKS
from words.i18n import lang_of, tr

SECRET = "test-webhook-secret"
FLOOD = 400


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        for person in (OLENA, BOB):
            fake.start_bot(person)
        yield fake


@pytest.fixture
async def http(group: Group) -> AsyncIterator[HttpServer]:
    """The bot's HTTP server with its webhook and web table, trusting loopback as its proxy
    (so each test can speak from addresses of its own)."""
    assert group.bot is not None and group.storage is not None
    served = HttpServer(group.storage, group.bot.metrics.metrics, port=0,
                        proxies=(ipaddress.ip_network("127.0.0.1/32"),))
    group.bot.webhook = Webhook.of("https://bot.test/telegram/hook", TOKEN, SECRET)
    served.take_webhook(group.bot)
    served.take_webapp(WebApp(group.bot.manager, TOKEN, 3600.0, clock=time.time))
    await served.start()
    yield served
    await served.stop()


def books(db: Path) -> list[list[tuple[Any, ...]]]:
    with sqlite3.connect(db) as conn:
        return [conn.execute(sql).fetchall() for sql in GAME_AND_BOOKS]


async def request(http: HttpServer, method: str, path: str, *, user: User | None = None,
                  data: str | None = None, body: bytes | None = None, address: str = "10.0.0.1",
                  headers: dict[str, str] | None = None,
                  client: aiohttp.ClientSession | None = None
                  ) -> tuple[int, str, dict[str, str]]:
    """One request, as if from `address` (through the trusted proxy)."""
    if client is None:
        async with aiohttp.ClientSession() as own:
            return await request(http, method, path, user=user, data=data, body=body,
                                 address=address, headers=headers, client=own)
    sent = {"X-Forwarded-For": address, **(headers or {})}
    if user is not None or data is not None:
        sent["Authorization"] = f"tma {data if data is not None else init_data(user, TOKEN)}"
    async with client.request(method, http.url + path, headers=sent, data=body) as answer:
        return answer.status, await answer.text(), dict(answer.headers)


async def scrape(http: HttpServer) -> str:
    async with aiohttp.ClientSession() as client, client.get(f"{http.url}/metrics") as answer:
        return await answer.text()


def lines_of(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.INFO
            and r.name.startswith(("bot.", "aiohttp"))]


async def test_a_flood_of_forged_requests_is_counted_in_a_few_lines(
        group: Group, http: HttpServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    sid = await group.open_game("dragon", (OLENA, BOB), 0)
    before = books(group.db)
    forged = init_data(OLENA, TOKEN, forge=True)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=16)) as client:
        answers = await asyncio.gather(*(
            request(http, "POST", f"{PREFIX}/api/press", data=forged, client=client,
                    address=f"10.1.{i // 250}.{i % 250}",
                    body=json.dumps({"data": f"g:{sid}:1:x"}).encode())
            for i in range(FLOOD)), *(
            request(http, "POST", "/telegram/hook", headers={SECRET_HEADER: "wrong"},
                    body=b'{"update_id": 1}', client=client) for _ in range(FLOOD)))
    assert [a[0] for a in answers] == [401] * FLOOD + [403] * FLOOD
    text = await scrape(http)
    assert sample(text, "gupai_http_refusals_total", reason="init_data") == FLOOD
    assert sample(text, "gupai_http_refusals_total", reason="webhook_secret") == FLOOD
    written = lines_of(caplog)
    assert len(written) <= LINES_PER_MINUTE, [r.getMessage() for r in written]
    assert not any(r.exc_info for r in written)
    assert books(group.db) == before
    caplog.clear()
    await asyncio.sleep(61)  # a new minute: lines again, saying how many were left out
    await request(http, "GET", f"{PREFIX}/api/table?session={sid}", data=forged)
    again = lines_of(caplog)
    assert len(again) == 1 and "more refused since the last line" in again[0].getMessage()


async def test_malformed_requests_get_400_without_a_traceback_or_a_quote(
        group: Group, http: HttpServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    sid = await group.open_game("dragon", (OLENA, BOB), 0)
    before = books(group.db)
    name = "Оленка-з-довгим-іменем"
    huge = init_data(User(9001, name, "uk"), TOKEN) + "&" + "&".join(
        f"f{i}=v" for i in range(3000))
    status, _, _ = await request(http, "GET", f"{PREFIX}/api/table?session={sid}", data=huge)
    assert status == 400
    reader, writer = await asyncio.open_connection("127.0.0.1", http.port)
    writer.write(b"GET /app/ HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n")
    await writer.drain()
    assert b" 400 " in (await reader.read(100)).split(b"\r\n")[0]
    writer.close()
    for path, headers, user, depth in ((f"{PREFIX}/api/press", {}, OLENA, 2000),
                                       (f"{PREFIX}/api/join", {}, BOB, 2000),
                                       ("/telegram/hook", {SECRET_HEADER: SECRET}, None, 10_000)):
        for body in (b"[" * depth + b"]" * depth, b'{"a":' * (depth // 3),
                     b"\xff\xfe not json", b'"a string"', b"[1, 2]",
                     b'{"data": 5, "session": true}',
                     b'{"data": "' + b"x" * 300 + b'", "session": -1}'):
            status, text, _ = await request(http, "POST", path, user=user, body=body,
                                            headers=headers)
            assert status == 400, (path, body[:20], status, text)
    status, _, _ = await request(http, "POST", f"{PREFIX}/api/press", user=OLENA,
                                 body=b'{"data": "' + b"x" * 100_000 + b'"}')
    assert status == 413
    assert books(group.db) == before
    logged = "\n".join(r.getMessage() + str(r.exc_info or "") for r in caplog.records)
    assert name not in logged and "f2999" not in logged and "Broken header" not in logged
    assert not any(r.exc_info for r in caplog.records if r.name.startswith("aiohttp"))
    text = await scrape(http)
    assert sample(text, "gupai_http_refusals_total", reason="malformed") >= 2 + 2 * 7 + 3
    assert sample(text, "gupai_http_refusals_total", reason="not_an_update") >= 3


async def test_slow_clients_are_cut_off(group: Group, http: HttpServer) -> None:
    """Headers a byte a second, and a body that never comes: both closed, the first within
    `HEADERS` seconds, the second answered 408."""
    slow = []
    for _ in range(20):
        reader, writer = await asyncio.open_connection("127.0.0.1", http.port)
        slow.append((reader, writer))
    loop = asyncio.get_running_loop()
    started = loop.time()

    async def drip(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> float:
        for byte in b"GET /healthz HTTP/1.1\r\nX-Slow: " + b"a" * 200:
            if writer.is_closing() or reader.at_eof():
                break
            writer.write(bytes([byte]))
            try:
                await writer.drain()
            except ConnectionError:
                break
            await asyncio.sleep(1)
            if reader.at_eof():
                break
        with_eof = await reader.read()
        assert with_eof == b""
        writer.close()
        return loop.time() - started
    cut = await asyncio.gather(*(drip(r, w) for r, w in slow))
    assert max(cut) <= HEADERS + 2, cut
    reader, writer = await asyncio.open_connection("127.0.0.1", http.port)
    writer.write(b"POST /app/api/press HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.9.9.9\r\n"
                 b"Authorization: tma " + init_data(OLENA, TOKEN).encode()
                 + b"\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"da")
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(200), 30)
    assert b" 408 " in answer.split(b"\r\n")[0], answer
    writer.close()


async def test_rates_are_limited_per_address_and_per_person(group: Group,
                                                             http: HttpServer) -> None:
    sid = await group.open_game("dragon", (OLENA, BOB), 0)
    answers = [await request(http, "GET", f"{PREFIX}/api/table?session={sid}", user=OLENA,
                             address=f"10.2.0.{i % 200}") for i in range(int(PER_PERSON[1]) + 5)]
    limited = [a for a in answers if a[0] == 429]
    assert limited and all(a[0] in (200, 429) for a in answers)
    assert all(int(a[2]["Retry-After"]) >= 1 for a in limited)
    assert json.loads(limited[0][1])["error"] == tr(lang_of(OLENA.language_code),
                                                     "web.slow_down")
    await asyncio.sleep(5)  # the bucket fills again
    assert (await request(http, "GET", f"{PREFIX}/api/table?session={sid}", user=OLENA,
                          address="10.2.1.1"))[0] == 200
    statuses = [(await request(http, "GET", f"{PREFIX}/api/table?session={sid}", user=person,
                               address="10.3.0.1"))[0]
                for _ in range(int(PER_ADDRESS[1]) // 2 + 5) for person in (OLENA, BOB)]
    assert 429 in statuses and statuses.count(200) >= int(PER_ADDRESS[1]) - 2
    text = await scrape(http)
    assert sample(text, "gupai_http_refusals_total", reason="rate_person") >= 1
    assert sample(text, "gupai_http_refusals_total", reason="rate_address") >= 1


async def test_a_page_loads_whole_while_its_address_waits_for_the_api(group: Group,
                                                                      http: HttpServer) -> None:
    """A page opened while its address's API budget is spent (a household moving quickly
    between tables) still gets its files, whose script shows the API's wait as a note: a
    refused script would leave the page blank. The files have a limit of their own."""
    sid = await group.open_game("dragon", (OLENA, BOB), 0)
    async with aiohttp.ClientSession() as client:
        statuses = [(await request(http, "GET", f"{PREFIX}/api/table?session={sid}",
                                   user=person, address="10.4.0.1", client=client))[0]
                    for _ in range(int(PER_ADDRESS[1]) // 2 + 5) for person in (OLENA, BOB)]
        assert 429 in statuses
        for name in ("", "app.js", "app.css", "tile/chinese/6-6.png"):
            async with client.get(f"{http.url}{PREFIX}/{name}",
                                  headers={"X-Forwarded-For": "10.4.0.1"}) as answer:
                assert answer.status == 200, name
        taken, status = 0, 200
        while status == 200 and taken < PER_ADDRESS_FILES[1] * 2:
            status, _, headers = await request(http, "GET", f"{PREFIX}/app.js",
                                               address="10.4.0.2", client=client)
            taken += status == 200
        assert status == 429 and int(headers["Retry-After"]) >= 1
        assert taken >= PER_ADDRESS_FILES[1] - 1
    text = await scrape(http)
    assert sample(text, "gupai_http_refusals_total", reason="rate_address_files") >= 1


async def test_refusals_are_answered_late_and_answers_at_once(group: Group,
                                                              http: HttpServer) -> None:
    """A flood that waits for its answers gets one a second per connection; a person does
    not wait for theirs."""
    sid = await group.open_game("dragon", (OLENA, BOB), 0)
    loop = asyncio.get_running_loop()

    async def timed(game: int = sid, **how: Any) -> tuple[int, float]:
        began = loop.time()
        status, _, _ = await request(http, "GET", f"{PREFIX}/api/table?session={game}", **how)
        return status, loop.time() - began
    forged = init_data(OLENA, TOKEN, forge=True)
    # ("late" by `PAUSE` less a microsecond: the event loop runs a timer up to its clock's
    # resolution early, and the times summed carry a rounding error)
    status, took = await timed(data=forged)
    assert status == 401 and took >= PAUSE - 1e-6
    status, took = await timed(user=OLENA)
    assert status == 200 and took < PAUSE / 2
    status, took = await timed(user=OLENA, game=999)
    assert status == 404 and took >= PAUSE - 1e-6
    # However many connections a flood opens, refusals are answered in turn, `PACE` a
    # second; past `WAITING` at once, a refused connection is dropped unanswered.
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as client:
        began = loop.time()
        answers = await asyncio.gather(*(
            timed(data=forged, client=client, address=f"10.5.{i // 200}.{i % 200}")
            for i in range(int(2 * PACE))))
    assert {a[0] for a in answers} == {401}
    assert loop.time() - began >= PAUSE + 2 - 2 / PACE
    http.guard.paused = WAITING  # (as if that many waited)
    with pytest.raises(aiohttp.ClientError):
        await request(http, "GET", f"{PREFIX}/api/table?session={sid}", data=forged)
    assert sample(await scrape(http), "gupai_http_refusals_total", reason="dropped") >= 1
