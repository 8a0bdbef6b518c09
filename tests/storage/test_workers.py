"""Processes sharing one database (`storage.workers`), on both backends: who is alive, who runs
a game's timers, who delivers its posts."""

from __future__ import annotations

import asyncio

import pytest

from storage import Storage


@pytest.fixture
async def store(database):
    s = await Storage.open(database)
    yield s
    await s.close()


async def game(store: Storage, platform: str = "telegram", chat_id: str = "-1") -> int:
    chat = await store.accounts.chat(platform, chat_id, "g")
    session = await store.sessions.create(chat, "dragon", {}, [], status="active")
    return session.id


async def post(store: Storage, session_id: int, owner: str | None = None, n: int = 1
               ) -> list[int]:
    """Save the session once more with `n` posts for its chat."""
    session = await store.sessions.get(session_id)
    assert session is not None
    _, ids = await store.sessions.save_posting(
        session.but(version=session.version + 1), session.version,
        posts=[{"kind": "result", "n": i} for i in range(n)], owner=owner)
    return ids


async def test_processes_register_beat_and_leave(store):
    workers = store.workers
    await workers.register("a", "host-1", 101, "telegram")
    await workers.register("b", "host-2", 202, "discord")
    rows = await workers.rows()
    assert [(r.id, r.host, r.pid, r.platform) for r in rows] == [
        ("a", "host-1", 101, "telegram"), ("b", "host-2", 202, "discord")]
    assert all(isinstance(r.seen, float) for r in rows)
    assert await workers.beat("a")
    await workers.leave("a")
    assert [r.id for r in await workers.rows()] == ["b"]
    assert not await workers.beat("a")  # gone: it must register again
    await workers.register("b", "host-3", 303, "discord")  # joining again updates the row
    assert [(r.host, r.pid) for r in await workers.rows()] == [("host-3", 303)]


async def held(workers, worker_id):
    """The games whose lease this process holds."""
    return {game for game, owner in (await workers.leases()).items() if owner == worker_id}


async def test_a_lease_is_taken_over_only_from_the_dead(store):
    workers = store.workers
    first, second = await game(store), await game(store, chat_id="-2")
    for worker in ("a", "b"):
        await workers.register(worker, "h", 1, "telegram")
    assert await workers.take(first, "a")
    assert await workers.take(first, "a")  # holding it already
    assert not await workers.take(first, "b")  # refused while its owner lives
    assert await workers.owner(first) == "a" and await workers.owner(second) is None
    assert await workers.take(second, "b")
    assert await held(workers, "a") == {first} and await workers.leases() == {
        first: "a", second: "b"}
    await workers.bury(["a"])
    assert await workers.owner(first) is None and await held(workers, "a") == set()
    assert not await workers.beat("a")  # buried: it holds nothing and must register again
    assert await workers.take(first, "b")
    assert await held(workers, "b") == {first, second}
    closing = await store.sessions.get(first)  # the game closed: its lease goes with it
    await store.sessions.save(closing.but(status="finished", version=closing.version + 1),
                              closing.version)
    assert await held(workers, "b") == {second}
    await workers.bury([])  # nobody: nothing happens


async def test_the_lease_of_an_owner_with_no_row_is_anyones(store):
    session = await game(store)
    await store.workers.register("b", "h", 1, "telegram")
    async with store.db.write() as conn:  # a lease left by a process whose row is gone
        await conn.execute("INSERT INTO leases (session_id, owner) VALUES (?, 'ghost')",
                           (session,))
    assert await store.workers.take(session, "b")


async def test_two_processes_taking_one_game_at_once_never_both_win(database):
    stores = [await Storage.open(database) for _ in range(2)]
    try:
        sessions = [await game(stores[0], chat_id=f"-{i}") for i in range(20)]
        for i, s in enumerate(stores):
            await s.workers.register(f"w{i}", "h", i, "telegram")
        won = await asyncio.gather(*(s.workers.take(session, f"w{i}")
                                     for session in sessions for i, s in enumerate(stores)))
        assert all(a != b for a, b in zip(won[::2], won[1::2], strict=True))
        leases = await stores[1].workers.leases()
        assert sorted(leases) == sessions
    finally:
        for s in stores:
            await s.close()


async def test_posts_are_claimed_once_and_freed_by_their_owners_death(store):
    workers = store.workers
    here, elsewhere = await game(store), await game(store, "discord", "guild")
    for worker in ("a", "b"):
        await workers.register(worker, "h", 1, "telegram")
    free = await post(store, here, n=2)
    owned = await post(store, here, owner="b")
    await post(store, elsewhere)
    assert await workers.claim_posts("a", "telegram") == free
    assert await workers.claim_posts("b", "telegram") == []  # claimed once
    assert [p.id for p in await store.sessions.pending_posts("telegram", owner="a")] == free
    assert [p.id for p in await store.sessions.pending_posts("telegram", owner="b")] == owned
    assert [p.id for p in await store.sessions.pending_posts("telegram")] == free + owned
    await workers.bury(["a"])
    assert await workers.claim_posts("b", "telegram") == free
    await workers.leave("b")
    assert await workers.claim_posts("c", "telegram") == free + owned
    await store.sessions.delivered(free[0])
    assert [p.id for p in await store.sessions.pending_posts("telegram", owner="c")] == \
        free[1:] + owned
