"""Deals played at a table keep their moves, and replay to the result and chips stored."""

from __future__ import annotations

import json

import pytest

import games
from bot.deals.deal_check import DealRefused, check, chips, replayed
from bot.deals.move_record import KEY
from games import replay
from tests.support.helpers import short_match
from tests.support.session_helpers import BOB, OLENA, PLACE, close, lobby, manager, play_out

pytestmark = pytest.mark.timeout(120)


async def played(m, rec, game: str, deals: int = 1) -> int:
    """A match of `game` by two people (and computers to fill its usual table) at stake 3."""
    rules = games.get(game)
    computers = max(0, rules.default_players - 2)
    sid = await lobby(m, rec, [game, *short_match(rules, deals), "3"], [OLENA, BOB],
                      computers=computers)
    await play_out(m, rec, [OLENA, BOB])
    return sid


async def deal_ids(m, sid: int) -> list[int]:
    rows = await m.storage.db.read(
        "SELECT id FROM deals WHERE session_id = ? ORDER BY deal_no", (sid,))
    return [int(r[0]) for r in rows]


@pytest.mark.parametrize("game", list(games.GAMES))
async def test_every_deal_replays_to_its_stored_result_and_chips(tmp_path, game):
    m, rec = await manager(tmp_path / "db")
    try:
        sid = await played(m, rec, game)
        ids = await deal_ids(m, sid)
        assert ids
        for deal_id in ids:
            deal = await m.storage.moves.deal(deal_id)
            assert deal is not None and deal.moves is not None
            done = check(deal)
            outcome = done.outcome
            assert outcome is not None
            assert list(outcome.points) == [s.points for s in deal.seats]
            assert list(chips(done, outcome).chips) == [s.delta for s in deal.seats]
            assert [m.seat for m in replay.decode(deal.moves.moves)] == [
                s.move.seat for s in done.steps[1:]]
        session = await m.storage.sessions.get(sid)
        rules = games.get(game)
        # The last deal replayed is the very state the table ended on.
        assert done.steps[-1].state == rules.loads(session.state)
    finally:
        await close(m)


async def test_who_made_each_move_is_kept(tmp_path):
    m, rec = await manager(tmp_path / "db")
    try:
        sid = await played(m, rec, "dragon")
        deal = await m.storage.moves.deal((await deal_ids(m, sid))[0])
        users = {s.seat: s.user_id for s in deal.seats}
        moves = replay.decode(deal.moves.moves)
        assert {mv.seat for mv in moves} == set(users)
        assert all(mv.by == str(users[mv.seat]) for mv in moves)
    finally:
        await close(m)


async def test_a_tampered_move_is_refused_naming_it(tmp_path):
    m, rec = await manager(tmp_path / "db")
    try:
        sid = await played(m, rec, "dragon")
        deal_id = (await deal_ids(m, sid))[0]
        deal = await m.storage.moves.deal(deal_id)
        moves = list(replay.decode(deal.moves.moves))
        at = 5
        swapped = next(mv for mv in moves[at + 1:] if mv.code != moves[at].code)
        moves[at] = replay.Move(moves[at].seat, swapped.code, moves[at].by)
        async with m.storage.db.write() as conn:
            await conn.execute("UPDATE deals SET moves = ? WHERE id = ?",
                               (replay.encode(moves), deal_id))
        with pytest.raises(DealRefused, match=rf"deal {deal_id} is refused: move {at + 1} "
                                              rf"\(seat {moves[at].seat + 1}: {swapped.code}\)"):
            check(await m.storage.moves.deal(deal_id))
    finally:
        await close(m)


async def test_changed_chips_or_points_are_refused(tmp_path):
    m, rec = await manager(tmp_path / "db")
    try:
        sid = await played(m, rec, "domino")
        deal_id = (await deal_ids(m, sid))[0]
        check(await m.storage.moves.deal(deal_id))
        async with m.storage.db.write() as conn:
            await conn.execute("UPDATE deal_seats SET delta = delta + 1 WHERE deal_id = ? "
                               "AND seat = 0", (deal_id,))
            await conn.execute("UPDATE deal_seats SET delta = delta - 1 WHERE deal_id = ? "
                               "AND seat = 1", (deal_id,))
        with pytest.raises(DealRefused, match="the chips that move are"):
            check(await m.storage.moves.deal(deal_id))
        async with m.storage.db.write() as conn:
            await conn.execute("UPDATE deal_seats SET points = points + 7 WHERE deal_id = ?",
                               (deal_id,))
        with pytest.raises(DealRefused, match="the points are"):
            check(await m.storage.moves.deal(deal_id))
        async with m.storage.db.write() as conn:
            await conn.execute("UPDATE deals SET setup = 'not a setup' WHERE id = ?",
                               (deal_id,))
        with pytest.raises(DealRefused, match="setup cannot be read"):
            check(await m.storage.moves.deal(deal_id))
    finally:
        await close(m)


async def test_a_game_begun_before_moves_were_kept_plays_on_and_says_so(tmp_path):
    m, rec = await manager(tmp_path / "db")
    rules = games.get("dragon")
    sid = await lobby(m, rec, ["dragon", *short_match(rules, 2)], [OLENA, BOB], computers=2)
    session = await m.open_in(PLACE)
    assert session is not None and KEY in session.messages
    await close(m)
    # The deal in play was dealt by a release that kept no moves; this one takes it over.
    m, rec = await manager(tmp_path / "db")
    try:
        async with m.storage.db.write() as conn:
            await conn.execute("UPDATE sessions SET messages = ? WHERE id = ?", (json.dumps(
                {k: v for k, v in session.messages.items() if k != KEY}), sid))
        assert await m.restore() == 1
        await play_out(m, rec, [OLENA, BOB])
        first, second = await deal_ids(m, sid)
        deal = await m.storage.moves.deal(first)
        assert deal is not None and deal.moves is None
        with pytest.raises(DealRefused, match="played before deals kept their moves"):
            replayed(deal)
        check(await m.storage.moves.deal(second))
    finally:
        await close(m)
