"""A deal's moves kept with its settlement, on both backends (`storage.moves`)."""

from __future__ import annotations

import pytest

import games
from bot.deals.deal_check import check
from storage import SeatResult, Settlement, Storage
from storage.moves import DealMoves
from tests.support.helpers import short_match
from tests.support.session_helpers import BOB, OLENA, close, lobby, manager, play_out

pytestmark = pytest.mark.timeout(120)

MOVES = DealMoves("0123456789abcdef0123456789abcdef",
                  {"preset": None, "values": {}, "players": 2, "held": [10, 10], "stake": 1,
                   "match": {"players": 2}}, "0:lead.65b@5:7 1:play.51a@0:8 0:drop.11a")


async def a_table(store: Storage) -> tuple[int, int, list[int]]:
    chat = await store.accounts.chat("telegram", "-100moves", "group")
    users = [await store.accounts.user("telegram", 1000 + i, f"player {i}") for i in range(2)]
    session = await store.sessions.create(chat, "dragon", {}, [], status="active")
    return chat, session.id, users


def settled(session: int, deal: int, chat: int, users: list[int],
            moves: DealMoves | None) -> Settlement:
    seats = tuple(SeatResult(u, 0, 0, i == 0, False) for i, u in enumerate(users))
    return Settlement(session, deal, chat, "dragon", "out", seats, moves)


async def test_moves_are_kept_with_the_deal_and_read_back(database):
    store = await Storage.open(database)
    try:
        chat, session, users = await a_table(store)
        assert await store.accounts.settle(settled(session, 0, chat, users, MOVES))
        # Settled again (a retried save): nothing more is written, nothing fails.
        assert not await store.accounts.settle(settled(session, 0, chat, users, MOVES))
        assert await store.accounts.settle(settled(session, 1, chat, users, None))
        first = await store.moves.deal_of(session, 0)
        second = await store.moves.deal_of(session, 1)
        assert first is not None and second is not None
        kept = await store.moves.deal(first)
        assert kept is not None and kept.moves == MOVES
        assert [s.name for s in kept.seats] == ["player 0", "player 1"]
        assert [s.won for s in kept.seats] == [True, False]
        older = await store.moves.deal(second)
        assert older is not None and older.moves is None
        assert await store.moves.deal(second + 100) is None
        assert await store.moves.sizes() == [MOVES.size()]
    finally:
        await store.close()


async def test_a_match_played_at_the_table_replays_on_either_backend(database):
    m, rec = await manager(database)
    try:
        rules = games.get("tiengow")
        sid = await lobby(m, rec, ["tiengow", *short_match(rules, 1), "2"], [OLENA, BOB],
                          computers=2)
        await play_out(m, rec, [OLENA, BOB])
        deal = await m.storage.moves.deal(await m.storage.moves.deal_of(sid, 0))
        assert deal is not None
        done = check(deal)
        assert len(done.steps) > 1
    finally:
        await close(m)
