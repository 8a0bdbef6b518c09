"""Two processes writing to the same games and the same people's chips at once, on PostgreSQL,
where they do write at once (docs/architecture.md §6: processes must add up; `storage.locks`): each
version of a game is saved once, every deal and correction lands once, nobody's place in the
chat is shared, no setting or refill is decided on a stale read, nothing deadlocks, and the
books balance. And a write waits only for the writers of what it touches.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest

from storage import SeatResult, Settlement, Storage, StorageBusy, TableChips
from storage.locks import Held, Lock, LockOrderError
from tests.support.books import check_books
from tests.support.databases import query
from tests.support.same_games import SETTINGS, deal_deltas, setting_value

ROOT = Path(__file__).resolve().parents[2]
GRANT = 200
HELD = 50
"""Chips each regular player brings to a game at its start."""
EXTRA = 5
"""Chips a game's extra player brings each time they sit down."""
PLAN = {"target": 31, "deals": 15, "first_deal": 1000, "corrections": 25, "days": 12,
        "cut": 30, "floor": 100, "changes": 20, "toggles": 15}
LEFT = 30
"""Chips the corrected person has when the processes start."""


async def prepare(store: Storage, url: str) -> dict[str, Any]:
    """A chat with nine people in it and thirty not yet, and two games, each with three
    regular players (two of them in both) and the same extra player, at version 1."""
    accounts = store.accounts
    chat = await accounts.chat("telegram", "-1", "g")
    people = [await accounts.user("telegram", i, f"p{i}") for i in range(9)]
    for person in people:
        await accounts.balance(chat, person)
    newcomers = [await accounts.user("telegram", 100 + i, f"n{i}") for i in range(30)]
    games = []
    for topic, regulars in (("a", people[0:3]), ("b", [people[2], people[4], people[0]])):
        seated = [*regulars, people[3]]
        game = await store.sessions.create(chat, "dragon", {}, seated, status="active",
                                           topic=topic)
        await store.sessions.save(game.but(version=1), 0, chips=TableChips(
            frozenset(seated), (*((u, HELD) for u in regulars), (people[3], EXTRA))))
        games.append({"id": game.id, "regulars": regulars, "extra": people[3]})
    await accounts.adjust(chat, people[6], LEFT - GRANT, "start")
    await accounts.adjust(chat, people[7], PLAN["floor"] - GRANT, "start")  # (a cut: a refill)
    return {**PLAN, "url": url, "chat": chat, "games": games, "shared": [people[0], people[2]],
            "newcomers": newcomers, "corrected": people[6], "refilled": people[7],
            "listener": people[8]}


async def run_both(plan: Path) -> list[dict[str, Any]]:
    """The two processes of `tests.support.same_games`, started together; what each did."""
    children = [await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.support.same_games", str(plan), str(index), cwd=ROOT,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE) for index in range(2)]
    try:
        for child in children:
            assert child.stdout is not None
            ready = await asyncio.wait_for(child.stdout.readline(), 60)
            assert ready == b"ready\n", (ready, await child.stderr.read() if child.stderr else b"")
        done = await asyncio.wait_for(asyncio.gather(
            *(child.communicate(b"go\n") for child in children)), 120)
    finally:
        for child in children:
            if child.returncode is None:
                child.kill()
                await child.wait()
    for child, (_, err) in zip(children, done, strict=True):
        assert child.returncode == 0, err.decode()
    return [json.loads(out) for out, _ in done]


def expected_holds(plan: dict[str, Any], game: dict[str, Any]) -> dict[int, int]:
    """The chips on a game's table once every version up to the target was saved once, and
    every deal settled once: the saves' story played again."""
    regulars, extra = game["regulars"], game["extra"]
    held = dict.fromkeys(regulars, HELD)
    seated = True
    for version in range(2, plan["target"] + 1):
        if seated and version % 3 == 0:
            seated = False
        elif not seated:
            seated = True
        else:
            for user in plan["shared"]:
                held[user] += 1
        for user, delta in zip(regulars, deal_deltas(version, (2, -1, -1)), strict=True):
            held[user] += delta
    for k in range(plan["deals"]):
        for user, delta in zip(regulars, deal_deltas(k, (1, 1, -2)), strict=True):
            held[user] += delta
    return {**held, extra: EXTRA} if seated else held


@pytest.mark.real_time
async def test_two_processes_pressing_the_same_games_lose_no_update(postgres_url, tmp_path):
    store = await Storage.open(postgres_url, grant=GRANT)
    try:
        plan = await prepare(store, postgres_url)
        (tmp_path / "plan.json").write_text(json.dumps(plan))
        results = await run_both(tmp_path / "plan.json")
        chat, target = plan["chat"], plan["target"]
        for g, game in enumerate(plan["games"]):
            won = [result["won"][g] for result in results]
            assert sorted(won[0] + won[1]) == list(range(2, target + 1))  # each version once
            saved = await store.sessions.get(game["id"])
            assert saved is not None and saved.version == target
            assert saved.options["log"] == [f"{0 if v in won[0] else 1}:{v}"
                                            for v in range(2, target + 1)]
            assert sum(result["settled"][g] for result in results) == plan["deals"]
            assert query(postgres_url, "SELECT COUNT(*) FROM deals WHERE session_id = ?",
                         (game["id"],))[0][0] == target - 1 + plan["deals"]
            assert await store.tables.held(game["id"]) == expected_holds(plan, game)
        joined = query(postgres_url, "SELECT joined FROM balances WHERE chat_id = ? "
                       "ORDER BY joined", (chat,))
        assert [j for (j,) in joined] == list(range(1, 9 + len(plan["newcomers"]) + 1))
        grants = dict(query(postgres_url, "SELECT user_id, COUNT(*) FROM ledger WHERE "
                            "kind = 'grant' GROUP BY user_id"))
        assert all(grants[u] == 1 for u in plan["newcomers"])
        assert sum(result["corrected"] for result in results) == LEFT
        assert await store.accounts.balance(chat, plan["corrected"]) == 0
        # Each day's refill brought the person exactly to the floor from what they had then.
        had, refills = 0, 0
        for kind, amount in query(postgres_url, "SELECT kind, amount FROM ledger WHERE "
                                  "user_id = ? ORDER BY id", (plan["refilled"],)):
            if kind == "refill":
                assert had + amount == plan["floor"]
                refills += 1
            had += amount
        assert refills == plan["days"]
        settings = await store.accounts.settings(chat)
        for index, names in enumerate(SETTINGS):
            for n, name in enumerate(names):
                assert getattr(settings, name) == setting_value(index, n, plan["changes"] - 1)
        toggled = [t for result in results for t in result["toggled"]]
        assert toggled.count(True) == toggled.count(False) == plan["toggles"]
        assert await store.accounts.listeners(chat) == []
    finally:
        await store.close()
    check_books(postgres_url)


async def test_a_write_waits_only_for_the_writers_of_what_it_touches(postgres_url):
    """Another process holding one game's lock stops a settlement of that game (until the
    busy timeout) and no other."""
    store = await Storage.open(postgres_url, grant=100, busy_timeout_ms=200)
    try:
        chat = await store.accounts.chat("telegram", "-1", "g")
        users = [await store.accounts.user("telegram", i, f"p{i}") for i in range(2)]
        games = []
        for topic in ("a", "b"):
            game = await store.sessions.create(chat, "dragon", {}, users, topic=topic)
            await store.sessions.save(game.but(version=1), 0, chips=TableChips(
                frozenset(users), tuple((u, 10) for u in users)))
            games.append(game.id)
        with psycopg.connect(postgres_url, autocommit=True) as other:
            other.execute("BEGIN")
            other.execute(f"SELECT pg_advisory_xact_lock({Lock.session(games[0]).key})")
            with pytest.raises(StorageBusy):
                await store.accounts.settle(deal(games[0], chat, users))
            assert await store.accounts.settle(deal(games[1], chat, users))
            assert await store.accounts.wallet(chat, users[0])
            other.execute("ROLLBACK")
        assert await store.accounts.settle(deal(games[0], chat, users))
    finally:
        await store.close()


def deal(game: int, chat: int, users: list[int]) -> Settlement:
    return Settlement(game, 1, chat, "dragon", "out", (
        SeatResult(users[0], 0, 1, True), SeatResult(users[1], 0, -1, False)))


def test_locks_are_taken_in_one_order():
    held = Held()
    assert held.add([Lock.account(1, 9), Lock.session(7), Lock.account(1, 2)]) == [
        Lock.session(7), Lock.account(1, 2), Lock.account(1, 9)]
    assert held.add([Lock.session(7), Lock.members(1)]) == [Lock.members(1)]  # (held: again)
    with pytest.raises(LockOrderError):
        held.add([Lock.account(1, 10)])
    assert Lock.account(1, 2).key == Lock.account(1, 2).key != Lock.account(2, 1).key
