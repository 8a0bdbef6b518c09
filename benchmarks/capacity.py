"""How many human-paced Telegram groups one bot holds before Telegram's global ~30 calls a second.

Telegram lets a bot make about 30 calls a second in all (the library's
`AIORateLimiter` keeps to it), whatever the per-group limits: past that, every call waits its
turn and the tables fall behind. This adds groups of four people, each thinking two to five
seconds before a move (as `tests/support/human_pace.py`), to one bot on the real clock, in
steps, and for each step prints the calls a second Telegram sees, the megabytes a minute
uploaded, the table lag (from a change of a game to its group's table showing it) p50/p95, how
late turn notices were, the share of moves whose player saw their hand after it within 4 s,
the moves a minute per group and the bot's CPU. A step holds its groups when the table p95 is
at most 4 s and the people keep their pace (at the limit, notices wait and every game slows
down). It stops at the first step that does not hold, or after two steps at the global limit,
and says how many groups it held.

The bot runs in its own process against the fake Bot API server on 127.0.0.1 (the same fake as
the tests: per-group limits kept, file_ids for uploaded photos), so the people and the fake's
HTTP threads do not share its interpreter. Run by hand:

    .venv/bin/python benchmarks/capacity.py [--start 10] [--step 10] [--dwell 60] [--most 120]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import multiprocessing
import os
import random
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.fake_telegram import FakeTelegram, SentMessage, User

GAME = "tails"
THINK = (2.0, 5.0)
"""Seconds a person takes for a move."""
LOOK = 0.25
"""How often a person looks at their private chat."""
GLOBAL = 30.0
"""Telegram's calls a second for one bot, all chats together."""
LAG_TARGET = 4.0
SLOWER = 0.9
"""A step whose moves a minute per group fall below this share of the first step's is one
where the people wait for the bot: it no longer holds them."""
WARMUP = 15.0
"""Seconds after a step's groups start before its figures count (lobbies, joins, first deal)."""
TOKEN = "123456:CAPACITY"
TABLE_CALLS = ("sendPhoto", "sendMessage", "editMessageMedia", "editMessageCaption",
               "editMessageText")


# ----- the bot, in its own process ---------------------------------------------------------------

def serve(api_url: str, db: str, log: str, ready: Any, stop: Any) -> None:
    asyncio.run(_serve(api_url, Path(db), Path(log), ready, stop))


async def _serve(api_url: str, db: Path, log_path: Path, ready: Any, stop: Any) -> None:
    """The bot, polling the fake; every table change and every turn that must be told is
    written to `log_path` with the time it was made (the machine's monotonic clock, which the
    fake stamps its calls with too)."""
    from bot.present.screens import Reply
    from bot.telegram.telegram_adapter import TelegramBot
    from bot.telegram.telegram_messages import CAPTION_LIMIT
    from storage import Storage

    storage = await Storage.open(db)
    bot = TelegramBot(TOKEN, storage, api_url=api_url, poll_timeout=1)
    deliver = bot.manager.deliver
    assert deliver is not None
    with log_path.open("a", encoding="utf-8") as log:
        async def watching(reply: Reply) -> None:
            now = time.monotonic()
            if reply.table is not None and reply.place is not None:
                log.write(json.dumps(["table", now, int(reply.place.chat),
                                      reply.table.text[:CAPTION_LIMIT]]) + "\n")
            for update in reply.hands:
                if update.fresh and any(b.move for row in update.screen.keyboard for b in row):
                    log.write(json.dumps(["due", now, int(update.user)]) + "\n")
            await deliver(reply)
        bot.manager.deliver = watching
        await bot.start(polling=True)
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.2)
            log.flush()
        await bot.stop()
    await storage.close()


def cpu_seconds(pid: int) -> float:
    """User and system CPU a process has used (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ----- the people --------------------------------------------------------------------------------

@dataclass
class Group:
    """One group chat and its four people."""

    n: int
    fake: FakeTelegram
    rng: random.Random
    moves: list[tuple[float, int]] = field(default_factory=list)
    """When each move was pressed, and by whom."""

    @property
    def chat(self) -> int:
        return -1_005_000_000 - self.n

    @property
    def people(self) -> list[User]:
        return [User(2_000_000 + 10 * self.n + i, f"P{self.n}.{i}", "uk" if i % 2 else "en")
                for i in range(4)]

    def lobby(self) -> SentMessage | None:
        message = self.fake.latest(self.chat)
        if message is not None and any(d.endswith("!start") for d in message.button_data()):
            return message
        return None

    async def open(self) -> None:
        first, *rest = self.people
        for user in self.people:
            self.fake.start_bot(user)
        self.fake.set_chat(self.chat, title=f"Table {self.n}")
        self.fake.send_text(first, self.chat, f"/newgame {GAME}")
        lobby = await until(self.lobby)
        link = next(b["url"] for row in (lobby.reply_markup or {})["inline_keyboard"]
                    for b in row if "start=j_" in b.get("url", ""))
        for user in rest:
            self.fake.send_text(user, user.id, f"/start {link.split('start=')[1]}")
        await until(lambda: (m := self.lobby()) is not None and all(
            u.first_name in (m.content or "") for u in self.people))
        await self.start_lobby()

    async def start_lobby(self) -> None:
        lobby = await until(self.lobby)
        data = next(d for d in lobby.button_data() if d.endswith("!start"))
        self.fake.press(self.people[0], self.chat, lobby.message_id, data, check_button=False)

    async def person(self, user: User, end: float) -> None:
        played: set[str] = set()
        while time.monotonic() < end:
            await asyncio.sleep(LOOK)
            hand = self.fake.latest(user.id, photo=True)
            moves = [d for d in hand.button_data() if "!" not in d] if hand else []
            if not moves or moves[0] in played:
                continue
            played.add(moves[0])
            await asyncio.sleep(self.rng.uniform(*THINK))
            now = self.fake.latest(user.id, photo=True)
            if now is not None and moves[0] in now.button_data():
                self.fake.press(user, user.id, now.message_id, moves[0], check_button=False)
                self.moves.append((time.monotonic(), user.id))

    async def again(self, end: float) -> None:
        """The match is over: its first player plays again with the same people."""
        pressed: set[int] = set()
        while time.monotonic() < end:
            await asyncio.sleep(1.0)
            last = self.fake.latest(self.chat)
            again = [d for d in last.button_data() if d.endswith("!again")] if last else []
            if last is None or not again or last.message_id in pressed:
                continue
            pressed.add(last.message_id)
            self.fake.press(self.people[0], self.chat, last.message_id, again[0],
                            check_button=False)
            await until(lambda result=last.message_id: (m := self.lobby()) is not None
                        and m.message_id > result)
            await self.start_lobby()

    async def play(self, end: float) -> None:
        try:
            await self.open()
        except TimeoutError:
            print(f"  group {self.n} never started", flush=True)
            return
        await asyncio.gather(*(self.person(u, end) for u in self.people), self.again(end))


async def until(check: Any, limit: float = 60.0) -> Any:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        await asyncio.sleep(0.1)
    raise TimeoutError


# ----- the figures -------------------------------------------------------------------------------

def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def lags(changes: list[tuple[float, str]], writes: list[tuple[float, str]], now: float
         ) -> list[float]:
    """For each change (time, text), the time until a write showed it or a later change; a
    change not shown yet counts until `now`."""
    found: list[float] = []
    for i, (at, _) in enumerate(changes):
        later = {text for _, text in changes[i:]}
        shown = next((t for t, text in writes if t >= at and text in later), now)
        found.append(shown - at)
    return found


@dataclass
class Step:
    groups: int
    start: float
    end: float = 0.0
    cpu: float = 0.0


def report(step: Step, fake: FakeTelegram, changes: dict[int, list[tuple[float, str]]],
           due: list[tuple[float, int]], groups: list[Group]) -> dict[str, Any]:
    since, until_ = step.start + WARMUP, step.end
    span = max(until_ - since, 1e-9)
    calls = [c for c in fake.calls() if c.chat_id is not None and since <= c.at < until_]
    private = [c for c in calls if c.chat_id is not None and c.chat_id > 0]
    writes: dict[int, list[tuple[float, str]]] = defaultdict(list)
    for c in fake.calls():
        if c.ok and c.chat_id is not None and c.chat_id < 0 and c.method in TABLE_CALLS:
            writes[c.chat_id].append((c.at, c.caption))
    table: list[float] = []
    for chat, made in changes.items():
        for lag, (at, _) in zip(lags(made, writes[chat], time.monotonic()), made,
                                 strict=True):
            if since <= at < until_:
                table.append(lag)
    arrived: dict[int, list[float]] = defaultdict(list)
    for c in fake.calls("sendPhoto"):
        if c.ok and c.chat_id is not None and c.chat_id > 0:
            arrived[c.chat_id].append(c.at)
    late = [next((t for t in arrived[user] if t >= at), until_) - at
            for at, user in due if since <= at < until_]
    shown: dict[int, list[float]] = defaultdict(list)
    for c in fake.calls():
        if c.ok and c.chat_id is not None and c.chat_id > 0 and c.method in TABLE_CALLS:
            shown[c.chat_id].append(c.at)
    pressed = [(t, user) for g in groups for t, user in g.moves if since <= t < until_]
    hands = [next((s for s in shown[user] if s > t), math.inf) - t <= LAG_TARGET
             for t, user in pressed]
    refused = sum(1 for c in calls if not c.ok and (c.error or "").startswith("Too Many"))
    return {
        "calls": len(calls) / span, "private": len(private) / span,
        "mb": fake.uploaded_bytes(since, until_) / 1e6 / (span / 60),
        "p50": pct(table, 0.5), "p95": pct(table, 0.95), "changes": len(table),
        "notice95": pct(late, 0.95), "moves": len(pressed) / step.groups / (span / 60),
        "per_move": len(calls) / max(len(pressed), 1), "refused": refused,
        "hands": sum(hands) / max(len(hands), 1),
        "by_method": {f"{'group' if chat < 0 else 'private'} {method}": n / max(len(pressed), 1)
                      for (chat, method), n in sorted(_by_method(calls).items())},
    }


def _by_method(calls: list[Any]) -> dict[tuple[int, str], int]:
    """Calls per kind of chat (-1 group, 1 private) and method."""
    found: dict[tuple[int, str], int] = defaultdict(int)
    for c in calls:
        found[(-1 if c.chat_id < 0 else 1, c.method)] += 1
    return found


def read_log(path: Path) -> tuple[dict[int, list[tuple[float, str]]], list[tuple[float, int]]]:
    changes: dict[int, list[tuple[float, str]]] = defaultdict(list)
    due: list[tuple[float, int]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        kind, at, *rest = json.loads(line)
        if kind == "table":
            changes[rest[0]].append((at, rest[1]))
        else:
            due.append((at, rest[0]))
    return changes, due


HEADER = (f"{'groups':>6} {'calls/s':>7} {'private':>7} {'calls/move':>10} {'MB/min':>7} "
          f"{'lag p50':>7} {'lag p95':>7} {'notice p95':>10} {'hand<=4s':>8} "
          f"{'moves/min':>9} {'bot CPU':>7}")


def line(step: Step, f: dict[str, Any]) -> str:
    return (f"{step.groups:>6} {f['calls']:>7.1f} {f['private']:>7.1f} {f['per_move']:>10.2f} "
            f"{f['mb']:>7.1f} {f['p50']:>7.2f} {f['p95']:>7.2f} {f['notice95']:>10.2f} "
            f"{f['hands']:>8.0%} {f['moves']:>9.1f} {step.cpu:>6.0%}")


async def run(start: int, step_size: int, dwell: float, most: int, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder, FakeTelegram(clock=time.monotonic) as fake:
        log = Path(folder) / "changes.jsonl"
        log.touch()
        spawn = multiprocessing.get_context("spawn")
        ready, stop = spawn.Event(), spawn.Event()
        process = spawn.Process(target=serve, args=(fake.url, str(Path(folder) / "bot.sqlite3"),
                                                    str(log), ready, stop), daemon=True)
        process.start()
        assert process.pid is not None
        await asyncio.to_thread(ready.wait, 60)
        groups: list[Group] = []
        tasks: list[asyncio.Task[None]] = []
        steps: list[Step] = []
        end = time.monotonic() + 24 * 3600
        print(HEADER, flush=True)
        held = at_limit = 0
        pace = limit = 0.0
        try:
            while len(groups) < most:
                target = start if not groups else len(groups) + step_size
                step = Step(target, time.monotonic(), cpu=cpu_seconds(process.pid))
                while len(groups) < target:
                    group = Group(len(groups), fake, random.Random(rng.random()))
                    groups.append(group)
                    tasks.append(asyncio.ensure_future(group.play(end)))
                    await asyncio.sleep(0.3)  # groups open one after another, as people come
                await asyncio.sleep(max(0.0, step.start + dwell - time.monotonic()))
                step.end = time.monotonic()
                step.cpu = (cpu_seconds(process.pid) - step.cpu) / (step.end - step.start)
                steps.append(step)
                changes, due = read_log(log)
                figures = report(step, fake, changes, due, groups)
                print(line(step, figures), flush=True)
                print("       per move: " + ", ".join(
                    f"{name} {n:.2f}" for name, n in figures["by_method"].items()), flush=True)
                pace = pace or figures["moves"]
                if figures["p95"] > LAG_TARGET or figures["moves"] < SLOWER * pace:
                    break  # the tables fall behind, or the people wait for the bot
                held = step.groups
                if figures["calls"] < 0.9 * GLOBAL:
                    limit = step.groups * GLOBAL / figures["calls"]
                at_limit = at_limit + 1 if figures["calls"] >= 0.97 * GLOBAL else 0
                if at_limit == 2:
                    break  # a second step at the limit: more groups only wait longer
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            stop.set()
            await asyncio.to_thread(process.join, 30)
            if process.is_alive():
                process.kill()
        refused = len([c for c in fake.calls() if not c.ok
                       and (c.error or "").startswith("Too Many")])
        print(f"held {held} groups with table lag p95 <= {LAG_TARGET:g} s and the people's "
              f"pace kept; {GLOBAL:g} calls/s reached at about {limit:.0f} groups by the calls a "
              f"group made below the limit ({len(fake.calls())} calls, {refused} refused as too "
              f"fast)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=10, help="groups in the first step")
    parser.add_argument("--step", type=int, default=10, help="groups added at each step")
    parser.add_argument("--dwell", type=float, default=60.0,
                        help="seconds each step runs (its first 15 are not counted)")
    parser.add_argument("--most", type=int, default=120, help="stop at this many groups")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    began = time.monotonic()
    asyncio.run(run(args.start, args.step, args.dwell, args.most, args.seed))
    print(f"(ran {time.monotonic() - began:.0f} s)")


if __name__ == "__main__":
    main()
