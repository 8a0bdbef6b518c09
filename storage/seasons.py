"""A chat's seasons: the leaderboard from a season's start to its end, and the seasons so far.

Seasons (docs/playing.md) on docs/architecture.md §6, where the ledger is the one record of every
chip. A chat plays in seasons of a calendar month (UTC) unless its admins choose a week (from Monday
00:00 UTC) or none (`/settings season week|month|off`). Nothing is counted twice: a season is a span
of time, and what it counts, each person's chips won and deals played in it, is read from the
ledger's settlement rows between its start and its end. Balances do not follow seasons.

Which span is a season follows from three things only: the last season that ended (its row in
`seasons`), the chat's setting and when it last changed, and the ledger. The season under way
starts where the last one ended (or where the setting last changed, if later), and no earlier
than the start of the week or month of its first deal: a month nobody played in is no season
and takes no number. It ends where that week or month ends; a change of the setting ends it at
that moment. So every process, before and after a restart, finds the same seasons. The season
that ended is written once, by whichever process writes it first, under the chat's lock and
with its number as the row's key, in the transaction that keeps its podium post (`posts`,
delivered and handed on like every kept post: `storage.workers`). A season that ended more
than `STALE` ago when it is written (a bot that was down for weeks, a chat's earlier months
when seasons first came) is numbered without a post: its news is old.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from storage.accounts import DEFAULT_SEASON, SEASONS
from storage.db import Connection, Database, Row
from storage.locks import Lock
from storage.stats import Standing

WEEK, MONTH, OFF = "week", "month", "off"
PERIODS = SEASONS
"""What `/settings season` takes: (WEEK, MONTH, OFF)."""
STALE = 7 * 86_400.0
"""Seconds after its end past which a season is written without a podium post."""
POST_KIND = "season"
"""The `kind` of a kept post that shows a season's podium."""

Query = Callable[[str, Sequence[Any]], Awaitable[Iterable[Row]]]
_IN = ("FROM ledger l WHERE l.chat_id = ? AND l.kind = 'settlement' AND l.at >= ? "
       "AND l.at < ?")
"""A season's settlement rows: (chat, start, end)."""
_PER_PERSON = ("SELECT l.user_id, u.name, b.joined, SUM(l.amount) AS won, COUNT(*) AS games "
               "FROM ledger l JOIN users u ON u.id = l.user_id JOIN balances b ON "
               "b.chat_id = l.chat_id AND b.user_id = l.user_id WHERE l.chat_id = ? AND "
               "l.kind = 'settlement' AND l.at >= ? AND l.at < ? "
               "GROUP BY l.user_id, u.name, b.joined")
"""Each person's chips won and deals played in a season: (chat, start, end)."""


def period_start(period: str, at: float) -> float:
    """The start of the week (Monday 00:00 UTC) or calendar month (UTC) that `at` is in."""
    day = datetime.fromtimestamp(at, UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    if period == WEEK:
        return (day - timedelta(days=day.weekday())).timestamp()
    return day.replace(day=1).timestamp()


def period_end(period: str, at: float) -> float:
    """The end of the week or month that `at` is in: the next one's start."""
    start = datetime.fromtimestamp(period_start(period, at), UTC)
    if period == WEEK:
        return (start + timedelta(days=7)).timestamp()
    if start.month == 12:
        return start.replace(year=start.year + 1, month=1).timestamp()
    return start.replace(month=start.month + 1).timestamp()


def chat_period(settings: str | dict[str, Any]) -> tuple[str, float]:
    """A chat's season setting and when it last changed, from its stored settings."""
    stored = json.loads(settings) if isinstance(settings, str) else settings
    period = str(stored.get("season", DEFAULT_SEASON))
    return (period if period in PERIODS else DEFAULT_SEASON), float(stored.get("season_since", 0))


@dataclass(frozen=True, slots=True)
class Season:
    number: int
    starts: float
    ends: float
    """When it ends (or ended): a deal settled at `ends` is the next season's."""
    ended: bool
    """Its row is written: it is over, and its podium was posted (or was too old to)."""


@dataclass(frozen=True, slots=True)
class PersonSeason:
    """One person's figures in one season of a chat."""

    season: Season
    rank: int
    players: int
    won: int
    games: int


@dataclass(frozen=True, slots=True)
class _Open:
    """What the season under way follows from."""

    number: int
    """The number it takes."""
    lower: float
    """Nothing settled before this is its."""
    first: float | None
    """When its first deal was settled (None: nobody has played in it yet)."""

    def span(self, period: str) -> tuple[float, float] | None:
        if self.first is None:
            return None
        starts = max(self.lower, period_start(period, self.first))
        return starts, period_end(period, starts)


async def _open(query: Query, chat_id: int, since: float) -> _Open:
    last = list(await query("SELECT number, ends FROM seasons WHERE chat_id = ? "
                            "ORDER BY number DESC LIMIT 1", (chat_id,)))
    number, lower = (int(last[0][0]), float(last[0][1])) if last else (0, 0.0)
    lower = max(lower, since)
    return _Open(number + 1, lower, await _first(query, chat_id, lower))


async def _first(query: Query, chat_id: int, lower: float) -> float | None:
    rows = list(await query("SELECT MIN(at) FROM ledger WHERE chat_id = ? AND "
                            "kind = 'settlement' AND at >= ?", (chat_id, lower)))
    return None if not rows or rows[0][0] is None else float(rows[0][0])


class Seasons:
    def __init__(self, db: Database) -> None:
        self.db = db

    # ----- which seasons there are --------------------------------------------------------------

    async def ended(self, chat_id: int) -> list[Season]:
        """The chat's seasons that are over, by number."""
        rows = await self.db.read("SELECT number, starts, ends FROM seasons WHERE chat_id = ? "
                                  "ORDER BY number", (chat_id,))
        return [Season(int(r[0]), float(r[1]), float(r[2]), True) for r in rows]

    async def under_way(self, chat_id: int, period: str, since: float, now: float
                        ) -> Season | None:
        """The season under way at `now` (None with seasons off). One whose end has passed
        but which is not written yet (it will be within a sweep) is over already: the next
        one is under way."""
        if period not in (WEEK, MONTH):
            return None
        found = await _open(self.db.read, chat_id, since)
        span = found.span(period)
        if span is not None and span[1] <= now:
            return Season(found.number + 1, max(span[1], period_start(period, now)),
                          period_end(period, now), False)
        if span is None:
            starts = max(found.lower, period_start(period, now))
            span = starts, period_end(period, starts)
        return Season(found.number, span[0], span[1], False)

    async def season(self, chat_id: int, number: int, period: str, since: float, now: float
                     ) -> Season | None:
        """Season `number`, over or under way; None if there is none."""
        row = await self.db.read_one("SELECT starts, ends FROM seasons WHERE chat_id = ? AND "
                                     "number = ?", (chat_id, number))
        if row is not None:
            return Season(number, float(row[0]), float(row[1]), True)
        current = await self.under_way(chat_id, period, since, now)
        return current if current is not None and current.number == number else None

    # ----- what a season counts -----------------------------------------------------------------

    async def standings(self, chat_id: int, season: Season, limit: int = 10, offset: int = 0
                        ) -> list[Standing]:
        """One page of the season's table: the people who played in it by chips won in it,
        then by who joined the chat first (a total order, as the all-time table's). A row's
        `balance` and `won` are both what was won in the season."""
        rows = await self.db.read(
            f"{_PER_PERSON} ORDER BY won DESC, b.joined, l.user_id LIMIT ? OFFSET ?",
            (chat_id, season.starts, season.ends, limit, offset))
        return [Standing(offset + i + 1, int(r["user_id"]), r["name"], int(r["won"]),
                         int(r["games"]), int(r["won"])) for i, r in enumerate(rows)]

    async def players(self, chat_id: int, season: Season) -> int:
        row = await self.db.read_one(f"SELECT COUNT(DISTINCT l.user_id) {_IN}",
                                     (chat_id, season.starts, season.ends))
        return int(row[0]) if row else 0

    async def deals(self, chat_id: int, season: Season) -> int:
        """Deals played for chips in the season."""
        row = await self.db.read_one(f"SELECT COUNT(DISTINCT l.ref) {_IN}",
                                     (chat_id, season.starts, season.ends))
        return int(row[0]) if row else 0

    async def per_deal(self, chat_id: int, season: Season, min_deals: int, limit: int = 10,
                       offset: int = 0) -> list[Standing]:
        """People with at least `min_deals` deals in the season, by chips won per deal (then
        by more deals, then by who joined first)."""
        rows = await self.db.read(
            f"SELECT user_id, name, won, games FROM ({_PER_PERSON}) AS ranked WHERE games >= ? "
            "ORDER BY won * 1.0 / games DESC, games DESC, joined, user_id LIMIT ? OFFSET ?",
            (chat_id, season.starts, season.ends, max(1, min_deals), limit, offset))
        return [Standing(offset + i + 1, int(r["user_id"]), r["name"], int(r["won"]),
                         int(r["games"]), int(r["won"])) for i, r in enumerate(rows)]

    async def ranked(self, chat_id: int, season: Season, min_deals: int) -> int:
        """How many people `per_deal` ranks (for paging)."""
        row = await self.db.read_one(
            f"SELECT COUNT(*) FROM (SELECT l.user_id {_IN} GROUP BY l.user_id "
            "HAVING COUNT(*) >= ?) AS ranked",
            (chat_id, season.starts, season.ends, max(1, min_deals)))
        return int(row[0]) if row else 0

    async def of_person(self, chat_id: int, user_id: int, current: Season | None,
                        limit: int = 5) -> list[PersonSeason]:
        """The person's place, chips won and deals in the last `limit` seasons they played
        in (the one under way first, if they have played in it)."""
        rows = await self.db.read(
            "SELECT s.number, s.starts, s.ends FROM seasons s WHERE s.chat_id = ? AND EXISTS "
            "(SELECT 1 FROM ledger l WHERE l.chat_id = s.chat_id AND l.user_id = ? AND "
            "l.kind = 'settlement' AND l.at >= s.starts AND l.at < s.ends) "
            "ORDER BY s.number DESC LIMIT ?", (chat_id, user_id, limit))
        seasons = [Season(int(r[0]), float(r[1]), float(r[2]), True) for r in rows]
        found = []
        for season in ([current] if current is not None else []) + seasons:
            line = await self._place(chat_id, user_id, season)
            if line is not None:
                found.append(line)
        return found[:limit]

    async def _place(self, chat_id: int, user_id: int, season: Season) -> PersonSeason | None:
        mine = await self.db.read_one(
            f"SELECT won, games, joined FROM ({_PER_PERSON}) AS people WHERE user_id = ?",
            (chat_id, season.starts, season.ends, user_id))
        if mine is None:
            return None
        won, joined = int(mine["won"]), int(mine["joined"])
        ahead = await self.db.read_one(
            f"SELECT COUNT(*) FROM ({_PER_PERSON}) AS people WHERE won > ? OR (won = ? AND "
            "(joined < ? OR (joined = ? AND user_id < ?)))",
            (chat_id, season.starts, season.ends, won, won, joined, joined, user_id))
        return PersonSeason(season, int(ahead[0]) + 1 if ahead else 1,
                            await self.players(chat_id, season), won, int(mine["games"]))

    # ----- ending seasons -----------------------------------------------------------------------

    async def due(self, platform: str, now: float) -> list[int]:
        """The chats of `platform` whose season under way has reached its end, not yet
        written: one query for all of them (a sweep asks every few seconds)."""
        rows = await self.db.read(
            "SELECT c.id, c.settings, x.ends, (SELECT MIN(l.at) FROM ledger l WHERE "
            "l.chat_id = c.id AND l.kind = 'settlement' AND l.at >= COALESCE(x.ends, 0)) "
            "AS first FROM chats c LEFT JOIN (SELECT chat_id, MAX(ends) AS ends FROM seasons "
            "GROUP BY chat_id) AS x ON x.chat_id = c.id WHERE c.platform = ?", (platform,))
        found = []
        for row in rows:
            period, since = chat_period(row["settings"])
            if row["first"] is None or period not in (WEEK, MONTH):
                continue
            lower = max(float(row["ends"] or 0.0), since)
            first = float(row["first"])
            if first < lower:  # (the setting changed after it: only deals since count)
                found_first = await _first(self.db.read, int(row["id"]), lower)
                if found_first is None:
                    continue
                first = found_first
            span = _Open(0, lower, first).span(period)
            if span is not None and span[1] <= now:
                found.append(int(row["id"]))
        return found

    async def close(self, chat_id: int, now: float, owner: str | None = None, *,
                    cut: bool = False, settings: dict[str, Any] | None = None) -> list[int]:
        """Write the chat's seasons that ended by `now` (`cut`: and end the one under way now,
        if anyone played in it), each with its podium post, owned by `owner` (the process that
        delivers it); then store `settings` (a change of the season setting), all in one
        transaction under the chat's lock. Returns the posts' ids, oldest first; a season
        another process wrote first is not written again."""
        posts: list[int] = []
        async with self.db.write(Lock.chat(chat_id)) as conn:
            rows = list(await conn.execute_fetchall("SELECT settings FROM chats WHERE id = ?",
                                                    (chat_id,)))
            if not rows:
                return posts
            stored = json.loads(rows[0][0])
            period, since = chat_period(stored)
            while period in (WEEK, MONTH):
                found = await _open(conn.execute_fetchall, chat_id, since)
                span = found.span(period)
                if span is None or found.first is None or found.first >= now:
                    break
                starts, ends = span
                if ends > now and not cut:
                    break
                ends = min(ends, now)
                posts += await self._write(conn, chat_id, Season(found.number, starts, ends,
                                                                 True), now, owner)
                if ends == now:
                    break
            if settings:
                stored.update(settings)
                await conn.execute("UPDATE chats SET settings = ? WHERE id = ?",
                                   (json.dumps(stored, sort_keys=True), chat_id))
        return posts

    async def _write(self, conn: Connection, chat_id: int, season: Season, now: float,
                     owner: str | None) -> list[int]:
        """The season's row and, unless its news is old, its podium post, kept with the chat's
        latest game (where the chat plays now: a Discord channel, a Telegram topic)."""
        cursor = await conn.execute(
            "INSERT INTO seasons (chat_id, number, starts, ends) VALUES (?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING RETURNING number",
            (chat_id, season.number, season.starts, season.ends))
        written = await cursor.fetchone()
        await cursor.close()
        if written is None or season.ends < now - STALE:
            return []
        rows = list(await conn.execute_fetchall(
            "SELECT id FROM sessions WHERE chat_id = ? ORDER BY id DESC LIMIT 1", (chat_id,)))
        if not rows:
            return []
        body = json.dumps({"kind": POST_KIND, "season": season.number}, sort_keys=True)
        cursor = await conn.execute(
            "INSERT INTO posts (session_id, body, created_at, owner) VALUES (?, ?, ?, ?) "
            "RETURNING id", (int(rows[0][0]), body, now, owner))
        post = await cursor.fetchone()
        await cursor.close()
        return [] if post is None else [int(post[0])]
