"""Real presses from the web table during a flood of what the internet may send, on loopback.

docs/architecture.md §11: everything the internet can reach has limits, and a flood of forged
requests never slows a real press (`bot.service.http_guard`, `bot.web.webapp`). The real `gupai
telegram` process (webhook mode, web table, `GUPAI_HTTP_PROXIES=127.0.0.1` as behind a reverse
proxy) serves a game of four people who play through the web API as the page does: each follows the
game's event stream, reads `GET /app/api/table` at each new version, and on their turn presses the
first move offered (`POST /app/api/press`) after a short thought. The game is played quietly, then
during a bounded flood from a process of its own (sharing no interpreter with the fake Bot API's
threads), from rotating `X-Forwarded-For` addresses: forged webhooks (wrong secret: 403), forged
presses (bad init data: 401), strangers' reads of the game (valid init data of someone not in the
group: 403), headers over 8 KB (400), JSON nested 10,000 deep to the webhook with the right secret
(400) and 2,000 deep to the press API with valid init data (400; 10,000 deep is over its 4 KB body
limit: 413), bodies over the limits (413), and slow connections sending their headers a byte a
second (cut off by the server).

For each phase it prints the real presses' round trip p50/p95/max, the bot's log growth (its
output goes to a file), RSS and CPU, the flood's requests a second and answers by kind, the
slow connections' fate and `gupai_http_refusals_total` by reason; then whether the targets
hold: no 500, the log growing by at most a few KB a minute, the presses' p95 under the flood
within 1.5 times the quiet one's. All it starts is stopped again, Ctrl-C included. By hand:

    .venv/bin/python benchmarks/flood.py [--quiet 30] [--flood 30] [--connections 32]
        [--slow 200] [--rate 0] [--think 0.3]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import multiprocessing
import os
import queue
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.telegram.telegram_http import SECRET_HEADER, derived_secret
from tests.support.bot_process import BotProcess
from tests.support.fake_telegram import FakeTelegram, User
from tests.support.miniapp import init_data
from tests.support.telegram_group import TOKEN, Group
from tests.support.web_table import APP_NAME, free_port

PLAYERS = (User(301, "Олена", "uk"), User(302, "Bob", "en"), User(303, "Кім", "uk"),
           User(304, "Dana", "en"))
HOOK = "/telegram/hook"
PRESS = "/app/api/press"
EXPECTED = {"forged webhook": 403, "forged press": 401, "stranger's read": 403,
            "headers over 8 KB": 400, "deep JSON webhook": 400, "deep JSON press": 400,
            "oversized press": 413, "oversized webhook": 413}
"""What each kind of request must be answered."""
STRANGERS = 5000
"""People the flood's valid init data names, in turn (one person's would only meet 429), none
of them in the game's group."""
STRANGER = 7_000_000
"""The first stranger's id."""
KB_A_MINUTE = 4.0
""""A few kilobytes a minute": the log's growth under the flood may be this much."""


# ----- the bot ------------------------------------------------------------------------------------

def loop_time(pid: int) -> tuple[float, float]:
    """Seconds the process's main thread (its event loop) has run on a CPU, and waited for one
    while it could run (on a busy machine, a loop busy all the time runs part of it)."""
    ran, waited, _ = Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()
    return int(ran) / 1e9, int(waited) / 1e9


def own_cpu() -> float:
    return sum(os.times()[:2])  # user and system


# ----- the flood, in its own process --------------------------------------------------------------

def address(i: int) -> str:
    return f"10.{(i >> 16) & 255}.{(i >> 8) & 255}.{i & 255}"


def flood_process(base: str, sid: int, seconds: float, connections: int, slow: int,
                  rate: float, ready: Any, results: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops it
    results.put(asyncio.run(flood(base, sid, seconds, connections, slow, rate, ready)))


async def flood(base: str, sid: int, seconds: float, connections: int, slow: int,
                rate: float, ready: Any) -> dict[str, Any]:
    secret = {SECRET_HEADER: derived_secret(TOKEN), "Content-Type": "application/json"}
    strangers = [f"tma {init_data(User(STRANGER + i, f'S{i}', 'en'), TOKEN)}"
                 for i in range(STRANGERS)]
    forged = f"tma {init_data(PLAYERS[0], TOKEN, forge=True)}"
    press, update = json.dumps({"data": f"g:{sid}:1:x"}).encode(), b'{"update_id": 1}'
    deep_hook = b"[" * 10_000 + b"]" * 10_000
    deep_press = b"[" * 2_000 + b"]" * 2_000
    big_press = json.dumps({"data": "x" * 8192}).encode()
    big_update = b'{"update_id": 1, "x": "' + b"x" * (1 << 20) + b'"}'
    turn = itertools.count()

    def request(kind: str) -> tuple[str, str, dict[str, str], bytes | None]:
        n = next(turn)
        me = {"X-Forwarded-For": address(n % 65536)}
        who = {"Authorization": strangers[n % STRANGERS], **me}
        table = f"/app/api/table?session={sid}"
        return {"forged webhook": ("POST", HOOK, {SECRET_HEADER: "forged", **me}, update),
                "forged press": ("POST", PRESS, {"Authorization": forged, **me}, press),
                "stranger's read": ("GET", table, who, None),
                "headers over 8 KB": ("GET", table, {**who, "X-Fill": "a" * 9000}, None),
                "deep JSON webhook": ("POST", HOOK, {**secret, **me}, deep_hook),
                "deep JSON press": ("POST", PRESS, who, deep_press),
                "oversized press": ("POST", PRESS, who, big_press),
                "oversized webhook": ("POST", HOOK, {**secret, **me}, big_update)}[kind]

    counts: Counter[tuple[str, str]] = Counter()
    kinds = itertools.cycle(EXPECTED)
    slots = [time.monotonic()]
    ready.set()
    started, cpu = time.monotonic(), time.process_time()
    end = started + seconds

    async def paced() -> None:
        if rate > 0:
            slot = slots[0] = max(slots[0] + 1 / rate, time.monotonic())
            await asyncio.sleep(slot - time.monotonic())

    async def worker(client: aiohttp.ClientSession) -> None:
        while time.monotonic() < end:
            await paced()
            kind = next(kinds)
            method, path, headers, body = request(kind)
            try:
                async with client.request(method, base + path, headers=headers,
                                          data=body) as answer:
                    await answer.read()
                    counts[(kind, str(answer.status))] += 1
            except (aiohttp.ClientError, OSError) as exc:
                counts[(kind, type(exc).__name__)] += 1

    cuts: list[float] = []
    uncut = [0]
    host, port = base.removeprefix("http://").split(":")

    async def drip(n: int) -> None:
        while time.monotonic() < end:
            opened = time.monotonic()
            try:
                reader, writer = await asyncio.open_connection(host, int(port))
            except OSError:
                await asyncio.sleep(1)
                continue
            text = (f"GET /app/ HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: {address(n)}\r\n"
                    "X-Slow: ").encode() + b"a" * 100
            try:
                for byte in text:
                    writer.write(bytes([byte]))
                    await writer.drain()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(reader.read(1024), 1.0)
                        cuts.append(time.monotonic() - opened)  # closed, or answered
                        break
                    if time.monotonic() >= end:
                        uncut[0] += 1
                        break
            except ConnectionError:
                cuts.append(time.monotonic() - opened)
            finally:
                writer.close()

    timeout = aiohttp.ClientTimeout(total=30)
    connector = aiohttp.TCPConnector(limit=connections)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as client:
        await asyncio.gather(*(worker(client) for _ in range(connections)),
                             *(drip(60_000 + i) for i in range(slow)))
    ended, cpu = time.monotonic(), time.process_time() - cpu
    by_kind: dict[str, dict[str, int]] = {}
    for (kind, status), n in counts.items():
        by_kind.setdefault(kind, {})[status] = n
    return {"started": started, "ended": ended, "counts": by_kind, "cuts": sorted(cuts),
            "uncut": uncut[0], "cpu": cpu / (ended - started)}


# ----- the people ---------------------------------------------------------------------------------

Presses = list[tuple[float, float, int, str]]
"""Every real press: when it was sent, its round trip in seconds, its status and toast."""


def between(presses: Presses, start: float, end: float) -> list[float]:
    return [took for at, took, _, _ in presses if start <= at < end]


async def person(base: str, sid: int, user: User, address_: str, think: float,
                 presses: Presses) -> None:
    """Follow the game as the page does; on their turn, press the first move offered."""
    headers = {"Authorization": f"tma {init_data(user, TOKEN)}", "X-Forwarded-For": address_}
    changed = asyncio.Event()
    timeout = aiohttp.ClientTimeout(total=None, sock_read=None, sock_connect=10)
    async with aiohttp.ClientSession(base_url=base, headers=headers, timeout=timeout) as client:
        async def follow() -> None:
            while True:
                with contextlib.suppress(aiohttp.ClientError):
                    async with client.get(f"api/events?session={sid}") as stream:
                        async for line in stream.content:
                            if line.startswith(b"data:"):
                                changed.set()
                await asyncio.sleep(1)
        following = asyncio.ensure_future(follow())
        try:
            while True:
                await changed.wait()
                changed.clear()
                try:
                    async with client.get(f"api/table?session={sid}") as answer:
                        if answer.status != 200:
                            continue
                        hand = (await answer.json()).get("hand") or {}
                except aiohttp.ClientError:
                    continue
                if not hand.get("your_turn") or not hand.get("moves"):
                    continue
                await asyncio.sleep(think)
                sent = time.monotonic()
                async with client.post("api/press", json={"data": hand["moves"][0]["data"]}
                                       ) as answer:
                    body = await answer.text()
                took = time.monotonic() - sent
                toast = json.loads(body).get("toast", "") if answer.status == 200 else body
                presses.append((sent, took, answer.status, toast))
                changed.set()  # read the table again, as the page does after a press
        finally:
            following.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await following


# ----- the run ------------------------------------------------------------------------------------

@dataclass
class Phase:
    start: float
    cpu: float
    loop: tuple[float, float]
    here: float
    """This process's CPU: the fake Bot API's threads and the people."""
    log: int
    metrics: str
    end: float = 0.0
    rss: list[float] = field(default_factory=list)


async def scrape(url: str) -> str:
    async with aiohttp.ClientSession() as client, client.get(url + "/metrics") as answer:
        return await answer.text()


async def watch(bot: BotProcess, seconds: float, phase: Phase) -> None:
    """Sample the bot's RSS each second meanwhile."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        phase.rss.append(bot.rss_mb())
        await asyncio.sleep(min(1.0, max(0.0, end - time.monotonic())))


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(args: argparse.Namespace) -> None:
    spawn = multiprocessing.get_context("spawn")
    flooder: BaseProcess | None = None
    tasks: list[asyncio.Future[None]] = []
    with tempfile.TemporaryDirectory() as folder, FakeTelegram(clock=time.monotonic) as fake:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        base = f"{url}/app/"
        for user in PLAYERS:
            fake.start_bot(user)
        env = {"GUPAI_HTTP_PORT": str(port), "TELEGRAM_WEBHOOK_URL": url + HOOK,
               "TELEGRAM_MINIAPP_URL": base, "TELEGRAM_MINIAPP_NAME": APP_NAME,
               "GUPAI_HTTP_PROXIES": "127.0.0.1"}
        log = Path(folder) / "bot.log"
        bot = BotProcess(fake, Path(folder) / "bot.sqlite3", env, log=log)
        try:
            bot.start()
            await bot.running()
            print(f"bot process: pid {bot.pid}", flush=True)
            group = Group(fake, bot.db)
            sid = await group.open_game("dragon", PLAYERS, 0)
            for n in range(STRANGERS):  # not in the group: watching is for its members
                fake.set_member_status(group.chat, STRANGER + n, "left")
            presses: Presses = []
            tasks = [asyncio.ensure_future(person(base, sid, user, f"192.0.2.{i + 1}",
                                                  args.think, presses))
                     for i, user in enumerate(PLAYERS)]
            await asyncio.sleep(3.0)  # the first deal, and the pages following it

            async def begin() -> Phase:
                return Phase(time.monotonic(), bot.cpu_seconds(), loop_time(bot.pid),
                             own_cpu(), log.stat().st_size, await scrape(url))

            async def finish(phase: Phase) -> None:
                phase.end = time.monotonic()
                phase.cpu = (bot.cpu_seconds() - phase.cpu) / (phase.end - phase.start)
                phase.here = (own_cpu() - phase.here) / (phase.end - phase.start)
                ran, waited = loop_time(bot.pid)
                phase.loop = ((ran - phase.loop[0]) / (phase.end - phase.start),
                              (waited - phase.loop[1]) / (phase.end - phase.start))
                phase.log = log.stat().st_size - phase.log
                phase.metrics = await scrape(url)

            quiet = await begin()
            await watch(bot, args.quiet, quiet)
            await finish(quiet)
            ready, results = spawn.Event(), spawn.Queue()
            flooder = spawn.Process(target=flood_process, args=(
                url, sid, args.flood, args.connections, args.slow, args.rate, ready, results))
            flooder.start()
            while not ready.is_set():  # (no thread waits: Ctrl-C would wait for it)
                await asyncio.sleep(0.1)
            flooded = await begin()
            await watch(bot, args.flood, flooded)
            report = await figures_of(flooder, results)
            await finish(flooded)
            flooded.start, flooded.end = report["started"], report["ended"]
            print_report(args, presses, quiet, flooded, report, log)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if flooder is not None:
                flooder.join(1)
                if flooder.is_alive():  # stopped early: its connections go with it
                    flooder.kill()
                    flooder.join()
            if bot.child is not None:
                bot.stop()


async def figures_of(flooder: BaseProcess, results: Any) -> dict[str, Any]:
    """What the flood process sends when it is done."""
    while True:
        with contextlib.suppress(queue.Empty):
            return dict(results.get(timeout=0.01 if flooder.is_alive() else 5))
        if not flooder.is_alive():
            raise RuntimeError(f"the flood process ended ({flooder.exitcode}) without figures")
        await asyncio.sleep(0.2)


def print_report(args: argparse.Namespace, presses: Presses, quiet: Phase, flooded: Phase,
                 report: dict[str, Any], log: Path) -> None:
    print(f"bot: real gupai telegram process, webhook + web table; {len(PLAYERS)} people "
          f"pressing {args.think:g} s after their turn comes; flood: {args.connections} "
          f"connections{f' at {args.rate:g}/s' if args.rate else ', as fast as they go'}, "
          f"{args.slow} slow ones")
    times = [between(presses, p.start, p.end) for p in (quiet, flooded)]
    rows: list[tuple[str, Any]] = [
        ("presses", lambda p, t: f"{len(t)}"),
        ("press p50 ms", lambda p, t: f"{pct(t, 0.5) * 1000:.0f}"),
        ("press p95 ms", lambda p, t: f"{pct(t, 0.95) * 1000:.0f}"),
        ("press max ms", lambda p, t: f"{pct(t, 1.0) * 1000:.0f}"),
        ("log bytes", lambda p, t: f"{p.log:,}"),
        ("log bytes/minute", lambda p, t: f"{p.log / (p.end - p.start) * 60:,.0f}"),
        ("RSS MB (start → end)", lambda p, t: f"{p.rss[0]:.0f} → {p.rss[-1]:.0f}"),
        ("bot CPU (one core)", lambda p, t: f"{p.cpu:.0%}"),
        ("bot loop on a CPU", lambda p, t: f"{p.loop[0]:.0%}"),
        ("bot loop waiting one", lambda p, t: f"{p.loop[1]:.0%}"),
        ("fake API + people CPU", lambda p, t: f"{p.here:.0%}")]
    print(f"{'':<22}{'quiet':>12}{'flood':>12}")
    for name, shown in rows:
        print(f"{name:<22}{shown(quiet, times[0]):>12}{shown(flooded, times[1]):>12}")
    print(f"{'flood process CPU':<22}{'':>12}{report['cpu']:>12.0%}")
    span = report["ended"] - report["started"]
    print(f"\nflood: {span:.1f} s")
    print(f"{'kind':<20}{'req/s':>8}  answers")
    total = 0
    wrong: list[str] = []
    for kind, expected in EXPECTED.items():
        got = report["counts"].get(kind, {})
        n = sum(got.values())
        total += n
        print(f"{kind:<20}{n / span:>8.1f}  " + ", ".join(
            f"{status}: {count}" for status, count in sorted(got.items())))
        wrong += [f"{kind} {status}" for status in got if status != str(expected)]
    print(f"{'all':<20}{total / span:>8.1f}")
    cuts = report["cuts"]
    print(f"slow connections: {len(cuts)} cut off by the server after p50 {pct(cuts, 0.5):.1f} s"
          f" (max {pct(cuts, 1.0):.1f} s), {report['uncut']} still open when the flood ended")
    before, after = refusals(quiet.metrics), refusals(flooded.metrics)
    print("gupai_http_refusals_total during the flood: " + ", ".join(
        f"{reason} {n - before.get(reason, 0):,.0f}" for reason, n in sorted(after.items())))
    statuses = Counter(s for at, _, s, _ in presses if flooded.start <= at < flooded.end)
    toasts = Counter(t for at, _, _, t in presses if t and quiet.start <= at)
    print(f"real presses' answers during the flood: {dict(statuses)}; toasts: {dict(toasts)}")
    errors = sum(1 for line in log.read_text(errors="replace").splitlines()
                 if "Traceback" in line)
    ratio = pct(times[1], 0.95) / pct(times[0], 0.95)
    kb = flooded.log / 1024 / ((flooded.end - flooded.start) / 60)
    fives = sum(n for got in report["counts"].values() for s, n in got.items()
                if s.startswith("5"))
    print(f"\ntargets: no 500: {'yes' if not fives else f'NO ({fives})'}; log under the flood "
          f"{kb:.1f} KB/minute (<= {KB_A_MINUTE:g}): {'yes' if kb <= KB_A_MINUTE else 'NO'}; "
          f"press p95 flood/quiet {ratio:.2f} (<= 1.5): {'yes' if ratio <= 1.5 else 'NO'}")
    if wrong:
        print("unexpected answers: " + ", ".join(sorted(set(wrong))))
    print(f"tracebacks in the bot's log: {errors}")


def refusals(metrics: str) -> dict[str, float]:
    """`gupai_http_refusals_total` by reason."""
    return {found.labels["reason"]: found.value
            for family in text_string_to_metric_families(metrics) for found in family.samples
            if found.name == "gupai_http_refusals_total"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quiet", type=float, default=30.0,
                        help="seconds of play before the flood (default 30)")
    parser.add_argument("--flood", type=float, default=30.0,
                        help="seconds of flood (default 30)")
    parser.add_argument("--connections", type=int, default=32,
                        help="the flood's concurrent requests (default 32)")
    parser.add_argument("--slow", type=int, default=200,
                        help="slow connections sending a byte a second (default 200)")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="the flood's requests a second (default 0: as fast as it goes)")
    parser.add_argument("--think", type=float, default=0.3,
                        help="seconds a person waits on their turn before pressing")
    args = parser.parse_args()
    began = time.monotonic()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(args))
    print(f"(ran {time.monotonic() - began:.0f} s)")


if __name__ == "__main__":
    main()
