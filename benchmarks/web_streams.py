"""What a thousand open web table pages cost one bot process, on SQLite and on PostgreSQL.

docs/architecture.md §6 and §11: an open page's event stream is told of saves (this process's at
once, another's through PostgreSQL's `LISTEN`/`NOTIFY`) and never reads the database while nothing
happens (`bot.web.web_streams`). The real `gupai telegram` process (`tests.support.bot_process`,
polling the fake Bot API) seats four people at each of enough games of dragon, each game in a group
chat of its own (the chat's turn time set to an hour, so that no timer fires meanwhile), and each
person opens the game's page four times (the most one person may hold), each page from its person's
address behind the proxy `GUPAI_HTTP_PROXIES` trusts. It prints:

- the bot's idle CPU (% of one core, utime + stime from /proc over the quiet window) with no
  page open and with every page open;
- memory per open page: (RSS with the pages - RSS without) / pages;
- the database's work while idle, on PostgreSQL: `pg_stat_database`'s xact_commit and
  tup_returned a second for the bot's database over the same windows (on SQLite the CPU
  figures stand for it; `tests/bot/test_web_streams.py` counts the web table's reads in the
  test's process and finds none in a minute of quiet);
- from a move pressed in the chat (through the fake Bot API, as `Group.play` does) until every
  page of that game has received the new version on its stream: p50/p95/max over the moves.

`--code PATH` runs the child on another checkout of the bot (the folder holding its `bot`
package), so that the same script measures the code before a change, e.g.
`git worktree add /tmp/before <commit>` and `--code /tmp/before`. Run by hand:

    .venv/bin/python benchmarks/web_streams.py [--pages 1000] [--quiet-seconds 30]
        [--moves 40] [--only sqlite|postgres] [--code PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
import psycopg

from bot.web.web_streams import PER_PERSON
from tests.support.bot_process import BotProcess
from tests.support.fake_telegram import FakeTelegram, User
from tests.support.miniapp import init_data
from tests.support.postgres import Cluster
from tests.support.telegram_group import TOKEN, Group, groups_on, moves_on
from tests.support.web_table import APP_NAME, free_port

ROOT = Path(__file__).resolve().parent.parent
SEATS = 4
OPENING = 8
"""Games opened at once."""
TURN = 3600
"""The chats' turn time: no turn runs out while the figures are taken."""
WAIT = 15.0
"""Seconds a move may take to reach its pages before it counts as missed."""
SETTLE = 12.0
"""Seconds of quiet before a window: PostgreSQL's backends report their statistics up to 10 s
late, and what opening the pages read must not count as idle."""


@dataclass
class Page:
    """One open page's event stream: each version it was told of, and when."""

    response: aiohttp.ClientResponse
    heard: list[tuple[float, int]] = field(default_factory=list)
    closed: str | None = None
    task: asyncio.Task[None] | None = None

    async def read(self) -> None:
        with contextlib.suppress(aiohttp.ClientError, asyncio.CancelledError):
            async for line in self.response.content:
                if line.startswith(b"data:"):
                    event = json.loads(line[5:])
                    if "version" in event:
                        self.heard.append((time.monotonic(), int(event["version"])))
                    else:
                        self.closed = str(event.get("closed"))
        if self.closed is None:
            self.closed = "ended"

    @property
    def version(self) -> int:
        return self.heard[-1][1] if self.heard else -1

    def told(self, after: int) -> float | None:
        """When it first heard of a version newer than `after`."""
        return next((at for at, version in self.heard if version > after), None)


@dataclass
class Table:
    """One game: its chat, its people and their pages."""

    group: Group
    people: tuple[User, ...]
    sid: int = 0
    pages: list[Page] = field(default_factory=list)
    pressed: set[str] = field(default_factory=set)


@dataclass
class Figures:
    cpu: float = math.nan
    rss: float = math.nan
    commits: float = math.nan
    returned: float = math.nan


def people_of(n: int) -> tuple[User, ...]:
    return tuple(User(3_000_000 + SEATS * n + i, f"P{n}.{i}", "uk" if i % 2 else "en")
                 for i in range(SEATS))


async def open_table(fake: FakeTelegram, db: Path, n: int) -> Table:
    """A game of four people in a chat of its own, whose turns last an hour."""
    people = people_of(n)
    group = Group(fake, db)
    group.chat = -1_007_000_000 - n
    for user in people:
        fake.start_bot(user)
    fake.set_chat(group.chat, title=f"Table {n}")
    fake.make_admin(group.chat, people[0])
    known = len(fake.messages(group.chat))
    group.say(people[0], f"/settings turn {TURN}")
    await fake.wait_for(lambda: len(fake.messages(group.chat)) > known, 60)
    table = Table(group, people)
    table.sid = await group.open_game("dragon", people, 0)
    return table


async def open_pages(client: aiohttp.ClientSession, base: str, table: Table, n: int) -> None:
    for i, user in enumerate(table.people):
        headers = {"Authorization": f"tma {init_data(user, TOKEN)}",
                   "X-Forwarded-For": f"10.{n >> 8 & 255}.{n & 255}.{i + 1}"}
        for _ in range(PER_PERSON):
            response = await client.get(f"{base}api/events?session={table.sid}",
                                        headers=headers)
            if response.status != 200:
                raise RuntimeError(f"a page was refused: {response.status} "
                                   f"{await response.text()}")
            page = Page(response)
            page.task = asyncio.ensure_future(page.read())
            table.pages.append(page)


async def until(check: Any, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            return False
        await asyncio.sleep(0.02)
    return True


async def move(fake: FakeTelegram, table: Table) -> float | None:
    """One move pressed in the chat; the seconds until its game's every page was told of it
    (None: some page was not told within `WAIT`)."""
    def mover() -> tuple[User, Any, str, bool] | None:
        for user in table.people:
            hand = table.group.hand(user)
            moves, groups = moves_on(hand), groups_on(hand)
            if moves and moves[0] not in table.pressed:
                return user, hand, moves[0], True
            if groups and groups[0] not in table.pressed:
                return user, hand, groups[0], False
        return None
    for _ in range(2):  # a move may take two taps: its tile's group, then the move
        if not await until(lambda: mover() is not None, WAIT):
            raise RuntimeError(f"nobody has a move in game {table.sid}")
        found = mover()
        assert found is not None
        user, hand, data, final = found
        table.pressed.add(data)
        before = max(page.version for page in table.pages)
        pressed = time.monotonic()
        update = table.group.press(user, hand, data, chat=user.id)
        if not final:
            await table.group.answer_to(update)
            continue
        if not await until(functools.partial(all_told, table.pages, before), WAIT):
            return None
        return max(p.told(before) or math.inf for p in table.pages) - pressed
    raise RuntimeError("a tile's group offered no move")


def all_told(pages: list[Page], after: int) -> bool:
    return all(page.told(after) is not None for page in pages)


def pg_activity(admin: str, name: str) -> tuple[int, int]:
    with psycopg.connect(admin, autocommit=True) as conn:
        row = conn.execute("SELECT xact_commit, tup_returned FROM pg_stat_database "
                           "WHERE datname = %s", (name,)).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


async def quiet(bot: BotProcess, seconds: float, admin: str | None, name: str) -> Figures:
    """The bot's CPU, RSS and database work over `seconds` of quiet."""
    await asyncio.sleep(SETTLE)
    cpu, began = bot.cpu_seconds(), time.monotonic()
    activity = pg_activity(admin, name) if admin else None
    await asyncio.sleep(seconds)
    span = time.monotonic() - began
    figures = Figures(cpu=(bot.cpu_seconds() - cpu) / span, rss=bot.rss_mb())
    if admin and activity:
        commits, returned = pg_activity(admin, name)
        figures.commits = (commits - activity[0]) / span
        figures.returned = (returned - activity[1]) / span
    return figures


async def measure(backend: str, args: argparse.Namespace, folder: Path) -> list[str]:
    cluster = Cluster.start() if backend == "postgres" else None
    tasks: list[asyncio.Task[None]] = []
    try:
        db = folder / f"{backend}.sqlite3"
        target = cluster.create_database() if cluster else str(db)
        name = target.rsplit("/", 1)[1]
        games = math.ceil(args.pages / (SEATS * PER_PERSON))
        port = free_port()
        base = f"http://127.0.0.1:{port}/app/"
        env = {"GUPAI_HTTP_PORT": str(port), "TELEGRAM_MINIAPP_URL": base,
               "TELEGRAM_MINIAPP_NAME": APP_NAME, "GUPAI_HTTP_PROXIES": "127.0.0.1",
               "GUPAI_WEB_STREAMS": str(games * SEATS * PER_PERSON), "GUPAI_DB": target,
               "PYTHONPATH": str(args.code)}
        with FakeTelegram(clock=time.monotonic) as fake:
            bot = BotProcess(fake, db, env, log=folder / f"{backend}.log")
            try:
                bot.start()
                await bot.running(60)
                tables: list[Table] = []
                for first in range(0, games, OPENING):
                    tables += await asyncio.gather(*(open_table(fake, db, n) for n in range(
                        first, min(games, first + OPENING))))
                await fake.wait_idle(quiet=3.0, timeout=300)
                admin = cluster.url if cluster else None
                idle = await quiet(bot, args.quiet_seconds, admin, name)
                timeout = aiohttp.ClientTimeout(total=None, sock_read=None, sock_connect=30)
                async with aiohttp.ClientSession(
                        connector=aiohttp.TCPConnector(limit=0), timeout=timeout) as client:
                    for first in range(0, games, OPENING):
                        await asyncio.gather(*(open_pages(client, base, tables[n], n)
                                               for n in range(first, min(games,
                                                                         first + OPENING))))
                    pages = [p for t in tables for p in t.pages]
                    tasks = [p.task for p in pages if p.task is not None]
                    await until(lambda: all(p.heard for p in pages), 60)
                    await fake.wait_idle(quiet=3.0, timeout=120)
                    following = await quiet(bot, args.quiet_seconds, admin, name)
                    lags: list[float] = []
                    missed = 0
                    for m in range(args.moves):
                        took = await move(fake, tables[m % len(tables)])
                        if took is None:
                            missed += 1
                        else:
                            lags.append(took)
                        await asyncio.sleep(0.2)
                    dropped = sum(1 for p in pages if p.closed is not None)
                code, _ = bot.stop()
            finally:
                if bot.child is not None:
                    bot.stop()
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
        return report(backend, args, len(pages), games, idle, following, lags, missed,
                      dropped, code)
    finally:
        if cluster is not None:
            cluster.stop()


def pct(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(backend: str, args: argparse.Namespace, pages: int, games: int, idle: Figures,
           following: Figures, lags: list[float], missed: int, dropped: int, code: int
           ) -> list[str]:
    lines = [f"{'SQLite' if backend == 'sqlite' else 'PostgreSQL'}: {pages} pages open on "
             f"{games} games of {SEATS} people, {PER_PERSON} pages each",
             f"  idle bot CPU ({args.quiet_seconds:g} s): {idle.cpu:.1%} of a core with no "
             f"page open, {following.cpu:.1%} with {pages}",
             f"  RSS: {idle.rss:.0f} MB with no page, {following.rss:.0f} MB with {pages}: "
             f"{(following.rss - idle.rss) * 1024 / pages:.1f} KB a page"]
    if backend == "postgres":
        lines.append(f"  database while idle, a second: xact_commit {idle.commits:.1f} and "
                     f"tup_returned {idle.returned:.0f} with no page, {following.commits:.1f} "
                     f"and {following.returned:.0f} with {pages}")
    lines.append(f"  a move in the chat to every page of its game: p50 "
                 f"{pct(lags, 0.5) * 1000:.0f} ms, p95 {pct(lags, 0.95) * 1000:.0f} ms, max "
                 f"{pct(lags, 1.0) * 1000:.0f} ms over {len(lags)} moves"
                 f"{f', {missed} not told within {WAIT:g} s' if missed else ''}")
    if dropped or code:
        lines.append(f"  pages whose stream ended before the stop: {dropped}; the bot's exit "
                     f"status {code}")
    return lines


def described(code: Path) -> str:
    """The checkout's commit, and where the child's `bot` package comes from (as it is
    started: PYTHONPATH, and a working folder of no package)."""
    done = subprocess.run(["git", "-C", str(code), "log", "-1", "--format=%h %s"],
                          capture_output=True, text=True, check=False)
    with tempfile.TemporaryDirectory() as empty:
        found = subprocess.run([sys.executable, "-c", "import bot; print(bot.__file__)"],
                               capture_output=True, text=True, check=True, cwd=empty,
                               env={**os.environ, "PYTHONPATH": str(code)})
    return f"{done.stdout.strip()[:72]} (the child's bot: {found.stdout.strip()})"


async def run(args: argparse.Namespace) -> None:
    print(f"code: {described(args.code)}", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        for backend in ("sqlite", "postgres"):
            if args.only in (None, backend):
                print("\n".join(await measure(backend, args, Path(folder))), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=1000,
                        help="event streams to open (default 1000)")
    parser.add_argument("--quiet-seconds", type=float, default=30.0,
                        help="seconds of each quiet window (default 30)")
    parser.add_argument("--moves", type=int, default=40,
                        help="moves timed from the chat to the pages (default 40)")
    parser.add_argument("--only", choices=("sqlite", "postgres"),
                        help="measure one backend only")
    parser.add_argument("--code", type=Path, default=ROOT,
                        help="the folder whose bot package the child runs (default: this one)")
    args = parser.parse_args()
    args.code = args.code.resolve()
    began = time.monotonic()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(args))
    print(f"(ran {time.monotonic() - began:.0f} s)")


if __name__ == "__main__":
    main()
