"""Leaderboards and statistics, read from balances, tables and finished deals.

A person's chips are their balance plus what they have on tables (a game in progress does not
drop them down the leaderboard). The leaderboard orders by chips, then by who joined the chat
first, then by user id: a total order, so equal chips never swap places between two pages or two
calls. Computers are left out. "Deals" are the deals a person played for chips (not practice, not
a seat the computer played for nothing); a refunded deal no longer counts. The second ranking,
by chips won per deal, takes only people with enough deals that luck has had its say.

A person's history is read from the ledger, where every chip movement is a row: the running sum
of its amounts, leaving out chips moved between their balance and a table, is what they had
after each movement. Where their chips came from (the starting grant, refills, winnings) is kept
apart, so winnings are never confused with chips given away.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.accounts import COMPUTER
from storage.db import Database

HISTORY_POINTS = 400
"""The most chip movements a history gives: a phone-wide chart shows no more apart."""
_HELD = ("(SELECT COALESCE(SUM(h.amount), 0) FROM holds h WHERE h.chat_id = b.chat_id "
         "AND h.user_id = b.user_id)")
_CHIPS = f"(b.balance + {_HELD})"
_ORDER = "chips DESC, b.joined ASC, b.user_id ASC"
_PEOPLE = "JOIN users u ON u.id = b.user_id AND u.platform != ?"
_DEALS = ("FROM deal_seats s JOIN deals d ON d.id = s.deal_id WHERE s.user_id = b.user_id "
          "AND d.chat_id = b.chat_id AND d.refunded = 0 AND s.staked = 1")


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    user_id: int
    name: str
    balance: int
    """Chips: in hand and on tables."""
    games: int
    """Deals played for chips."""
    won: int = 0
    """Chips won (or lost) over those deals."""

    @property
    def per_deal(self) -> float:
        return self.won / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class Sources:
    """Where a person's chips in a chat came from."""

    granted: int
    refilled: int
    won: int
    """Settlements, net."""
    adjusted: int


@dataclass(frozen=True, slots=True)
class GameStats:
    game: str
    played: int
    won: int
    net: int


@dataclass(frozen=True, slots=True)
class DealSummary:
    deal_id: int
    session_id: int
    deal_no: int
    game: str
    reason: str
    at: float
    seats: tuple[tuple[str, int, int, bool], ...]
    """(name, points, chips, won) per seat."""
    computers: tuple[bool, ...] = ()
    """Per seat, whether a computer held it (its name is then its label, "computer-1")."""


@dataclass(frozen=True, slots=True)
class BalancePoint:
    deals: int
    """Deals settled for the player in the chat up to this movement (a refunded one included:
    it was settled, then paid back)."""
    balance: int


class Stats:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def top(self, chat_id: int, limit: int = 10, offset: int = 0) -> list[Standing]:
        rows = await self.db.read(
            f"SELECT b.user_id, u.name, {_CHIPS} AS chips, (SELECT COUNT(*) {_DEALS}) AS games "
            f"FROM balances b {_PEOPLE} WHERE b.chat_id = ? ORDER BY {_ORDER} LIMIT ? OFFSET ?",
            (COMPUTER, chat_id, limit, offset))
        return [Standing(offset + i + 1, r["user_id"], r["name"], r["chips"], r["games"])
                for i, r in enumerate(rows)]

    async def players(self, chat_id: int) -> int:
        """How many people are on the chat's leaderboard (for paging)."""
        row = await self.db.read_one(
            f"SELECT COUNT(*) FROM balances b {_PEOPLE} WHERE b.chat_id = ?", (COMPUTER, chat_id))
        return int(row[0]) if row else 0

    async def rank(self, chat_id: int, user_id: int) -> Standing | None:
        """The user's own line of the leaderboard, or None if they never played here."""
        row = await self.db.read_one(
            f"SELECT {_CHIPS} AS chips, b.joined, u.name, u.platform, "
            f"(SELECT COUNT(*) {_DEALS}) AS games FROM balances b "
            "JOIN users u ON u.id = b.user_id WHERE b.chat_id = ? AND b.user_id = ?",
            (chat_id, user_id))
        if row is None or row["platform"] == COMPUTER:
            return None
        ahead = await self.db.read_one(
            f"SELECT COUNT(*) FROM balances b {_PEOPLE} WHERE b.chat_id = ? AND ("
            f"{_CHIPS} > ? OR ({_CHIPS} = ? AND (b.joined < ? OR "
            f"(b.joined = ? AND b.user_id < ?))))",
            (COMPUTER, chat_id, row["chips"], row["chips"], row["joined"], row["joined"],
             user_id))
        return Standing(int(ahead[0]) + 1 if ahead else 1, user_id, row["name"],
                        row["chips"], row["games"])

    async def per_deal(self, chat_id: int, min_deals: int, limit: int = 10, offset: int = 0
                       ) -> list[Standing]:
        """People with at least `min_deals` deals at stake, by chips won per deal (then by
        more deals, then by who joined first)."""
        rows = await self.db.read(
            f"SELECT user_id, name, chips, games, won FROM (SELECT b.user_id, b.joined, u.name, "
            f"{_CHIPS} AS chips, (SELECT COUNT(*) {_DEALS}) AS games, "
            f"(SELECT COALESCE(SUM(s.delta), 0) {_DEALS}) AS won FROM balances b {_PEOPLE} "
            "WHERE b.chat_id = ?) AS ranked WHERE games >= ? "
            "ORDER BY won * 1.0 / games DESC, games DESC, joined, user_id "
            "LIMIT ? OFFSET ?", (COMPUTER, chat_id, max(1, min_deals), limit, offset))
        return [Standing(offset + i + 1, r["user_id"], r["name"], r["chips"], r["games"],
                         r["won"]) for i, r in enumerate(rows)]

    async def ranked(self, chat_id: int, min_deals: int) -> int:
        """How many people `per_deal` ranks (for paging)."""
        row = await self.db.read_one(
            f"SELECT COUNT(*) FROM balances b {_PEOPLE} WHERE b.chat_id = ? AND "
            f"(SELECT COUNT(*) {_DEALS}) >= ?", (COMPUTER, chat_id, max(1, min_deals)))
        return int(row[0]) if row else 0

    async def sources(self, chat_id: int, user_id: int) -> Sources:
        """The person's chips in the chat by where they came from."""
        rows = await self.db.read(
            "SELECT kind, COALESCE(SUM(amount), 0) AS total FROM ledger WHERE chat_id = ? "
            "AND user_id = ? GROUP BY kind", (chat_id, user_id))
        by = {r["kind"]: int(r["total"]) for r in rows}
        return Sources(by.get("grant", 0), by.get("refill", 0),
                       by.get("settlement", 0) + by.get("refund", 0), by.get("adjustment", 0))

    async def games(self, chat_id: int, user_id: int) -> list[GameStats]:
        """Deals played for chips and won, and net chips, per game, in this chat."""
        rows = await self.db.read(
            "SELECT d.game, COUNT(*) AS played, SUM(s.won) AS won, SUM(s.delta) AS net "
            "FROM deal_seats s JOIN deals d ON d.id = s.deal_id "
            "WHERE d.chat_id = ? AND s.user_id = ? AND d.refunded = 0 AND s.staked = 1 "
            "GROUP BY d.game ORDER BY played DESC, d.game", (chat_id, user_id))
        return [GameStats(r["game"], r["played"], r["won"], r["net"]) for r in rows]

    async def history(self, chat_id: int, user_id: int, limit: int = HISTORY_POINTS
                      ) -> list[BalancePoint]:
        """The person's chips (on tables included) after each of the last `limit` chip
        movements in this chat, oldest first. A history that begins with anything but the
        starting grant (a chat whose grant is 0 has none) starts at 0, so its first step shows
        too. Empty for a player never seen here."""
        rows = await self.db.read(
            "SELECT deals, balance, first FROM (SELECT id, "
            "SUM(CASE WHEN kind = 'settlement' THEN 1 ELSE 0 END) OVER w AS deals, "
            "SUM(amount) OVER w AS balance, "
            "CASE WHEN ROW_NUMBER() OVER w = 1 AND kind <> 'grant' THEN 1 ELSE 0 END AS first "
            "FROM ledger WHERE chat_id = ? AND user_id = ? AND kind NOT IN ('hold', 'return') "
            "WINDOW w AS (ORDER BY id ROWS UNBOUNDED PRECEDING)) AS moves ORDER BY id DESC LIMIT ?",
            (chat_id, user_id, limit))
        points = [BalancePoint(r["deals"], r["balance"]) for r in reversed(rows)]
        if rows and rows[-1]["first"]:
            points.insert(0, BalancePoint(0, 0))
        return points

    async def recent_deals(self, chat_id: int, limit: int = 10, offset: int = 0
                           ) -> list[DealSummary]:
        deals = await self.db.read(
            "SELECT id, session_id, deal_no, game, reason, at FROM deals "
            "WHERE chat_id = ? AND refunded = 0 ORDER BY id DESC LIMIT ? OFFSET ?",
            (chat_id, limit, offset))
        found = []
        for d in deals:
            seats = await self.db.read(
                "SELECT u.name, u.platform, s.points, s.delta, s.won FROM deal_seats s "
                "JOIN users u ON u.id = s.user_id WHERE s.deal_id = ? ORDER BY s.seat",
                (d["id"],))
            found.append(DealSummary(
                d["id"], d["session_id"], d["deal_no"], d["game"], d["reason"], d["at"],
                tuple((s["name"], s["points"], s["delta"], bool(s["won"])) for s in seats),
                tuple(s["platform"] == COMPUTER for s in seats)))
        return found
