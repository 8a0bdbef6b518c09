"""The web table's event streams (`bot.web.web_streams`): told of every save, never reading the
database while nothing changes, capped per person and in total (the oldest closed first, told
why, and counted), and ended as soon as their page goes.

In the test's process, on the virtual clock: a minute of quiet costs no real time.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.launch.http_server import HttpServer
from bot.web.web_streams import PER_PERSON
from bot.web.webapp import PREFIX, WebApp
from tests.support.fake_telegram import FakeTelegram, User
from tests.support.miniapp import init_data
from tests.support.scrape import sample
from tests.support.telegram_group import BOB, OLENA, TOKEN, Group
from words.i18n import tr

TOTAL = 6
WEB = {"webapp.py", "web_streams.py", "web_table.py"}


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        for person in (OLENA, BOB):
            fake.start_bot(person)
        yield fake


@pytest.fixture
async def http(group: Group) -> AsyncIterator[HttpServer]:
    assert group.bot is not None and group.storage is not None
    served = HttpServer(group.storage, group.bot.metrics.metrics, port=0)
    served.take_webapp(WebApp(group.bot.manager, TOKEN, 3600.0, clock=time.time,
                              streams=TOTAL))
    await served.start()
    yield served
    await served.stop()


class Page:
    """One open page's event stream: the events it has received."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response
        self.events: list[dict[str, Any]] = []
        self.ended = asyncio.Event()
        self.task = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        try:
            async for line in self.response.content:
                if line.startswith(b"data:"):
                    self.events.append(json.loads(line[5:]))
        except (aiohttp.ClientError, asyncio.CancelledError):
            pass
        finally:
            self.ended.set()

    async def wait_for(self, wanted: dict[str, Any]) -> None:
        async with asyncio.timeout(30):
            while wanted not in self.events:
                await asyncio.sleep(0.05)


async def open_page(stack: AsyncExitStack, http: HttpServer, user: User, session: int,
                    address: str = "127.0.0.1") -> Page:
    client = await stack.enter_async_context(aiohttp.ClientSession())
    response = await client.get(f"{http.url}{PREFIX}/api/events?session={session}",
                                headers={"Authorization": f"tma {init_data(user, TOKEN)}"})
    assert response.status == 200
    page = Page(response)
    await page.wait_for({"version": page.events[0]["version"]} if page.events else
                        await _first(page))
    return page


async def _first(page: Page) -> dict[str, Any]:
    async with asyncio.timeout(30):
        while not page.events:
            await asyncio.sleep(0.05)
    return page.events[0]


async def a_lobby(group: Group) -> int:
    """A lobby anyone may look at."""
    group.say(OLENA, "/newgame dragon")
    await group.server.wait_for(group._has_lobby)
    return int(group.join_link().removeprefix("j_"))


def counting_reads(group: Group) -> Counter[str]:
    """The reads the web table's code makes from now on (its handlers and streams), by SQL;
    the session layer's own (its timers, the workers' sweep) are not counted."""
    assert group.storage is not None
    seen: Counter[str] = Counter()
    read = group.storage.db.read

    async def counted(sql: str, params: Iterable[Any] = ()) -> Any:
        if any(Path(frame.filename).name in WEB for frame in inspect.stack(0)):
            seen[sql] += 1
        return await read(sql, params)
    group.storage.db.read = counted  # type: ignore[method-assign]
    return seen


async def test_pages_are_told_of_saves_and_read_nothing_while_idle(group: Group,
                                                                   http: HttpServer) -> None:
    sid = await group.open_game("dragon", (OLENA, BOB), 0)
    reads = counting_reads(group)
    async with AsyncExitStack() as stack:
        pages = [await open_page(stack, http, person, sid)
                 for person in (OLENA, BOB) for _ in range(2)]
        opened = sum(reads.values())
        reads.clear()
        await group.quiet(60)
        assert not reads, f"a minute of quiet with pages open: {reads}"
        version = pages[0].events[-1]["version"]
        await group.play(sid, (OLENA, BOB), until=1)
        for page in pages:
            await page.wait_for({"version": version + 1})
    assert opened <= 4 * 6, "opening a page reads its table once, not again and again"


async def test_a_move_made_while_a_page_opens_its_stream_reaches_the_page(
        group: Group, http: HttpServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Olena moves while Bob's page is still opening its stream (after his game was read for
    it, before the stream heard of saves): the page is told of her move, not left a move
    behind until the next one."""
    sid = await group.open_game("dragon", (OLENA, BOB), 0)
    bot = group.bot
    assert bot is not None and group.storage is not None
    requests = bot.manager.requests
    saw = requests.saw
    opening: list[bool] = []

    async def saw_while_olena_moves(actor: Any) -> Any:
        found = await saw(actor)
        if actor.platform_id == str(BOB.id) and not opening:
            opening.append(True)
            await group.play(sid, (OLENA, BOB), until=1)
            await bot.drain()  # (and what the move saves after it, such as message ids)
        return found
    monkeypatch.setattr(requests, "saw", saw_while_olena_moves)
    before = await group.storage.sessions.get(sid)
    assert before is not None
    async with AsyncExitStack() as stack:
        await open_page(stack, http, OLENA, sid)  # (the streams already hear of saves)
        page = await open_page(stack, http, BOB, sid)
        assert opening, "the page was opened while Olena moved"
        after = await group.storage.sessions.get(sid)
        assert after is not None and after.version > before.version
        await page.wait_for({"version": after.version})


async def test_streams_are_capped_per_person_and_in_total(group: Group,
                                                          http: HttpServer) -> None:
    sid = await a_lobby(group)
    async with AsyncExitStack() as stack:
        mine = [await open_page(stack, http, OLENA, sid) for _ in range(PER_PERSON + 1)]
        await mine[0].wait_for({"closed": "elsewhere"})
        await asyncio.wait_for(mine[0].ended.wait(), 5)
        assert not any(p.ended.is_set() for p in mine[1:])
        others = [await open_page(stack, http, User(900 + i, f"Guest {i}", "en"), sid)
                  for i in range(TOTAL - PER_PERSON + 1)]
        await mine[1].wait_for({"closed": "crowded"})
        assert not any(p.ended.is_set() for p in [*mine[2:], *others])
        text = await (await (await stack.enter_async_context(aiohttp.ClientSession())).get(
            f"{http.url}/metrics")).text()
        assert sample(text, "gupai_web_streams") == TOTAL
        assert sample(text, "gupai_web_streams_closed_total", reason="elsewhere") == 1
        assert sample(text, "gupai_web_streams_closed_total", reason="crowded") == 1


async def test_a_stream_ends_as_soon_as_its_page_goes(group: Group, http: HttpServer) -> None:
    sid = await a_lobby(group)
    assert http.webapp is not None
    streams = http.webapp.streams
    async with AsyncExitStack() as stack:
        page = await open_page(stack, http, BOB, sid)
        assert len(streams) == 1
        page.response.close()
        async with asyncio.timeout(1):
            while len(streams):
                await asyncio.sleep(0.01)


async def test_pages_are_told_how_many_watch_and_spectators_are_capped_too(
        group: Group, http: HttpServer) -> None:
    """Each person with a spectator's stream open counts once, on every page of the game, and
    a spectator's streams are capped per person as anyone's."""
    sid = await group.open_game("dragon", (OLENA, BOB), 1)
    assert http.webapp is not None
    streams = http.webapp.streams
    guests = [User(950 + i, f"Guest {i}", "en") for i in range(2)]
    uk = User(960, "Гість", "uk")
    async with AsyncExitStack() as stack:
        player = await open_page(stack, http, OLENA, sid)
        first = await open_page(stack, http, guests[0], sid)
        await player.wait_for({"watching": tr("uk", "web.watching", 1)})
        again = await open_page(stack, http, guests[0], sid)  # the same person, twice
        assert streams.watching(sid) == 1
        await open_page(stack, http, guests[1], sid)
        ukrainian = await open_page(stack, http, uk, sid)
        for page, lang in ((player, "uk"), (first, "en"), (ukrainian, "uk")):
            await page.wait_for({"watching": tr(lang, "web.watching", 3)})
        again.response.close()
        first.response.close()
        await player.wait_for({"watching": tr("uk", "web.watching", 2)})
        more = [await open_page(stack, http, guests[1], sid) for _ in range(PER_PERSON)]
        assert not any(p.ended.is_set() for p in more)
        assert streams.watching(sid) == 2, "capped per person: the oldest went"
    async with asyncio.timeout(1):
        while len(streams):
            await asyncio.sleep(0.01)
    assert streams.watching(sid) == 0
