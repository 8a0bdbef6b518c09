"""A player's chip history, read from the ledger for the /stats card (storage/stats.py)."""

from __future__ import annotations

import pytest

from storage import SeatResult, Settlement, Storage, TableChips


@pytest.fixture
async def store(database):
    s = await Storage.open(database, grant=1000)
    yield s
    await s.close()


async def setup(store: Storage, chat_title: str = "group") -> tuple[int, int, int, int]:
    chat = await store.accounts.chat("telegram", f"-100{chat_title}", chat_title)
    me = await store.accounts.user("telegram", 1, "me")
    other = await store.accounts.user("telegram", 2, "other")
    session = await store.sessions.create(chat, "dragon", {}, [], status="active")
    return chat, me, other, session.id


async def bring(store: Storage, session_id: int, users: list[int], amount: int) -> None:
    session = await store.sessions.get(session_id)
    assert session is not None
    await store.sessions.save(session.but(version=session.version + 1), session.version,
                              chips=TableChips(frozenset(users), tuple((u, amount) for u in users)))


async def deal(store: Storage, session: int, no: int, chat: int, me: int, other: int,
               mine: int, game: str = "dragon") -> None:
    await store.accounts.settle(Settlement(session, no, chat, game, "out", (
        SeatResult(me, 0, mine, mine > 0), SeatResult(other, 0, -mine, mine < 0))))


async def test_the_history_is_the_balance_after_each_movement(store):
    chat, me, other, session = await setup(store)
    await bring(store, session, [me, other], 500)  # not a step: the chips are still theirs
    for no, mine in enumerate((40, -90, 15), start=1):
        await deal(store, session, no, chat, me, other, mine)
    await store.accounts.adjust(chat, me, 100, "gift")
    history = [(p.deals, p.balance) for p in await store.stats.history(chat, me)]
    assert history == [(0, 1000), (1, 1040), (2, 950), (3, 965), (3, 1065)]
    assert history[-1][1] == (await store.accounts.wallet(chat, me)).total
    # The other player's and another chat's movements are not in it.
    other_chat, *_ = await setup(store, "elsewhere")
    await store.accounts.balance(other_chat, me)
    assert [(p.deals, p.balance) for p in await store.stats.history(chat, me)] == history


async def test_the_history_keeps_its_last_movements(store):
    chat, me, other, session = await setup(store)
    await bring(store, session, [me, other], 500)
    for no in range(1, 11):
        await deal(store, session, no, chat, me, other, no)
    last = await store.stats.history(chat, me, limit=4)
    assert [(p.deals, p.balance) for p in last] == [
        (7, 1000 + sum(range(1, 8))), (8, 1000 + sum(range(1, 9))),
        (9, 1000 + sum(range(1, 10))), (10, 1000 + sum(range(1, 11)))]


async def test_without_a_grant_the_history_starts_at_zero(database):
    store = await Storage.open(database, grant=0)
    try:
        chat, me, other, session = await setup(store)
        for person in (me, other):
            await store.accounts.adjust(chat, person, 20, "gift")
        await bring(store, session, [me, other], 20)
        await deal(store, session, 1, chat, me, other, -7)
        assert [(p.deals, p.balance) for p in await store.stats.history(chat, me)] == [
            (0, 0), (0, 20), (1, 13)]
    finally:
        await store.close()


async def test_a_stranger_has_no_history(store):
    chat, me, _, _ = await setup(store)
    assert await store.stats.history(chat, me) == []
