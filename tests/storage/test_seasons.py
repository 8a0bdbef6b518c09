"""A chat's seasons (storage/seasons.py): which spans are seasons, what each counts, and that each
is written once, on both backends, on a clock the test sets."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from datetime import UTC, datetime

import pytest

from storage import SeatResult, Settlement, Storage, TableChips
from storage.seasons import MONTH, STALE, WEEK, Season, period_end, period_start


def at(text: str) -> float:
    """Seconds since the epoch of a UTC time written "2026-11-28 13:05"."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def store(database):
    s = await Storage.open(database, grant=1000)
    s.db.clock = Clock(at("2026-11-01 09:00"))
    yield s
    await s.close()


def clock(store: Storage) -> Clock:
    assert isinstance(store.db.clock, Clock)
    return store.db.clock


async def table(store: Storage, title: str, people: int = 3) -> tuple[int, list[int], int]:
    """A chat, its people (each with all their chips on one table) and the table's session."""
    chat = await store.accounts.chat("telegram", f"-100{title}", title)
    users = [await store.accounts.user("telegram", f"{title}{i}", f"{title} {i}")
             for i in range(people)]
    session = await store.sessions.create(chat, "dragon", {}, [], status="active")
    await store.sessions.save(session.but(version=1), 0, chips=TableChips(
        frozenset(users), tuple((u, 1000) for u in users)))
    return chat, users, session.id


async def deal(store: Storage, chat: int, session: int, no: int, when: float,
               deltas: dict[int, int]) -> None:
    clock(store).now = when
    await store.accounts.settle(Settlement(session, no, chat, "dragon", "out", tuple(
        SeatResult(user, 0, delta, delta > 0) for user, delta in deltas.items())))


def test_a_season_is_a_calendar_month_or_a_week_in_utc():
    assert period_start(MONTH, at("2026-11-15 12:00")) == at("2026-11-01 00:00")
    assert period_end(MONTH, at("2026-11-15 12:00")) == at("2026-12-01 00:00")
    assert period_end(MONTH, at("2026-12-31 23:59")) == at("2027-01-01 00:00")
    assert period_start(MONTH, at("2026-12-01 00:00")) == at("2026-12-01 00:00")
    # 2026-11-28 is a Saturday: its week began on Monday the 23rd.
    assert period_start(WEEK, at("2026-11-28 13:00")) == at("2026-11-23 00:00")
    assert period_end(WEEK, at("2026-11-28 13:00")) == at("2026-11-30 00:00")
    assert period_end(WEEK, at("2026-12-28 00:00")) == at("2027-01-04 00:00")


async def test_seasons_follow_the_months_and_a_quiet_month_is_no_season(store):
    chat, (olena, bob, kim), session = await table(store, "months")
    await deal(store, chat, session, 1, at("2026-11-10 10:00"), {olena: 30, bob: -30})
    await deal(store, chat, session, 2, at("2026-11-20 10:00"), {olena: -5, kim: 5})
    assert await store.seasons.due("telegram", at("2026-11-30 23:59")) == []
    assert await store.seasons.due("telegram", at("2026-12-01 00:00")) == [chat]
    posts = await store.seasons.close(chat, at("2026-12-01 00:00:05"), "me")
    assert len(posts) == 1
    body = (await store.db.read_one("SELECT body, owner FROM posts WHERE id = ?", posts))
    assert body is not None and json.loads(body[0]) == {"kind": "season", "season": 1}
    assert body[1] == "me"
    first = Season(1, at("2026-11-01 00:00"), at("2026-12-01 00:00"), True)
    assert await store.seasons.ended(chat) == [first]
    assert await store.seasons.close(chat, at("2026-12-01 00:00:06"), "other") == []
    # Nobody plays in December; January's first deal opens season 2, in January.
    await deal(store, chat, session, 3, at("2027-01-05 10:00"), {bob: 7, kim: -7})
    assert await store.seasons.due("telegram", at("2027-01-10 00:00")) == []
    now = await store.seasons.under_way(chat, MONTH, 0, at("2027-01-10 00:00"))
    assert now == Season(2, at("2027-01-01 00:00"), at("2027-02-01 00:00"), False)
    assert [(r.name, r.won, r.games) for r in await store.seasons.standings(chat, first)] == [
        ("months 0", 25, 2), ("months 2", 5, 1), ("months 1", -30, 1)]
    assert [(r.name, r.won, r.games) for r in await store.seasons.standings(chat, now)] == [
        ("months 1", 7, 1), ("months 2", -7, 1)]
    assert await store.seasons.deals(chat, first) == 2
    assert await store.seasons.players(chat, now) == 2
    # Balances do not follow seasons.
    assert (await store.accounts.wallet(chat, olena)).total == 1025
    mine = await store.seasons.of_person(chat, bob, now)
    assert [(p.season.number, p.rank, p.players, p.won, p.games) for p in mine] == [
        (2, 1, 2, 7, 1), (1, 3, 3, -30, 1)]


async def test_a_season_long_over_is_numbered_without_a_post(store):
    chat, (olena, bob, _), session = await table(store, "late")
    await deal(store, chat, session, 1, at("2026-11-10 10:00"), {olena: 3, bob: -3})
    assert await store.seasons.close(chat, at("2026-12-01 00:00") + STALE + 1, "me") == []
    assert [s.number for s in await store.seasons.ended(chat)] == [1]


async def test_changing_the_setting_ends_the_season_under_way_there(store):
    chat, (olena, bob, _), session = await table(store, "switch")
    await deal(store, chat, session, 1, at("2026-11-03 10:00"), {olena: 4, bob: -4})
    cut = at("2026-11-10 12:00")
    posts = await store.seasons.close(chat, cut, "me", cut=True,
                                      settings={"season": WEEK, "season_since": cut})
    assert len(posts) == 1
    settings = await store.accounts.settings(chat)
    assert (settings.season, settings.season_since) == (WEEK, cut)
    assert await store.seasons.ended(chat) == [
        Season(1, at("2026-11-01 00:00"), cut, True)]
    # The week's season starts at the change and ends with its week.
    await deal(store, chat, session, 2, at("2026-11-11 10:00"), {olena: -1, bob: 1})
    now = await store.seasons.under_way(chat, WEEK, cut, at("2026-11-12 00:00"))
    assert now == Season(2, cut, at("2026-11-16 00:00"), False)
    # A change with nobody playing since the last one ends nothing.
    again = at("2026-11-20 00:00")
    await store.seasons.close(chat, again, "me", cut=True,
                              settings={"season": MONTH, "season_since": again})
    assert [s.number for s in await store.seasons.ended(chat)] == [1, 2]
    assert await store.seasons.close(chat, at("2026-11-25 00:00"), "me", cut=True) == []


async def test_with_seasons_off_nothing_ends(store):
    chat, (olena, bob, _), session = await table(store, "off")
    await store.accounts.update_settings(chat, season="off")
    await deal(store, chat, session, 1, at("2026-11-03 10:00"), {olena: 4, bob: -4})
    assert await store.seasons.due("telegram", at("2027-03-01 00:00")) == []
    assert await store.seasons.close(chat, at("2027-03-01 00:00"), "me") == []
    assert await store.seasons.under_way(chat, "off", 0, at("2027-03-01 00:00")) is None


async def test_two_processes_closing_at_once_write_the_season_once(store, database):
    chat, (olena, bob, _), session = await table(store, "race")
    await deal(store, chat, session, 1, at("2026-11-03 10:00"), {olena: 4, bob: -4})
    others = [await Storage.open(database) for _ in range(2)]
    try:
        now = at("2026-12-01 00:00:01")
        found = await asyncio.gather(*(s.seasons.close(chat, now, f"p{i}")
                                       for i, s in enumerate([store, *others])))
    finally:
        for other in others:
            await other.close()
    assert sum(len(posts) for posts in found) == 1
    assert [s.number for s in await store.seasons.ended(chat)] == [1]


@pytest.mark.parametrize("period", [WEEK, MONTH])
async def test_each_seasons_table_is_the_ledgers_sums_between_its_start_and_end(store, period):
    """Property-style, over random deals at random times: whenever the seasons are written
    (along the way, or all at the end), they are the same; each season's table is exactly the
    sums of the deals settled in it, in order; every deal is in one season."""
    rng = random.Random(f"seasons/{period}")
    for example in range(6):
        start = at("2026-10-20 00:00") + rng.uniform(0, 40 * 86_400)
        span = rng.choice([2, 20, 90]) * 86_400
        times = sorted(start + rng.uniform(0, span) for _ in range(rng.randint(1, 25)))
        times = [t + i for i, t in enumerate(times)]  # (no two deals at one moment)
        chats = []
        for name in ("along", "after"):
            chat, users, session = await table(store, f"{period}{example}{name}", 4)
            await store.accounts.update_settings(chat, season=period)
            chats.append((chat, users, session))
        deals: list[tuple[float, dict[int, int]]] = []
        for no, when in enumerate(times, start=1):
            seats = rng.sample(range(4), rng.randint(2, 4))
            amounts = [rng.randint(-20, 20) for _ in seats[1:]]
            deltas = dict(zip(seats, [-sum(amounts), *amounts], strict=True))
            deals.append((when, deltas))
            for chat, users, session in chats:
                await deal(store, chat, session, no, when,
                           {users[i]: d for i, d in deltas.items()})
            if rng.random() < 0.3:  # a sweep before the next deal, in the first chat only
                later = times[no] if no < len(times) else when + 1
                await store.seasons.close(chats[0][0], rng.uniform(when, later))
        end = times[-1] + 1
        for chat, _, _ in chats:
            await store.seasons.close(chat, end)
        ended = [await store.seasons.ended(chat) for chat, _, _ in chats]
        assert ended[0] == ended[1]
        chat, users, _ = chats[1]
        current = await store.seasons.under_way(chat, period, 0, end)
        assert current is not None
        seasons = [*ended[1], current]
        assert [s.number for s in seasons] == list(range(1, len(seasons) + 1))
        for earlier, later in itertools.pairwise(seasons):
            assert earlier.ends <= later.starts
        for when, _ in deals:
            assert sum(s.starts <= when < s.ends for s in seasons) == 1
        for season in seasons:
            won = {i: 0 for i in range(4)}
            games = {i: 0 for i in range(4)}
            for when, deltas in deals:
                if season.starts <= when < season.ends:
                    for i, d in deltas.items():
                        won[i] += d
                        games[i] += 1
            expected = sorted(((users[i], won[i], games[i]) for i in range(4) if games[i]),
                              key=lambda row: (-row[1], row[0]))
            rows = await store.seasons.standings(chat, season, limit=10)
            assert [(r.user_id, r.won, r.games) for r in rows] == expected
            assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
            assert await store.seasons.players(chat, season) == len(expected)
