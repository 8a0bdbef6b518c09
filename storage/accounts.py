"""People, chats, chip balances and the ledger: every chip movement goes through here.

DESIGN.md §1.7 and §6: chips move only through settlements the rules core computed (zero-sum
per deal), applied in one `BEGIN IMMEDIATE` transaction and exactly once per deal: the deal's
row is keyed by (session, deal number) and each ledger row by (chat, user, kind, ref), so a
second application finds the deal already there and changes nothing. Balances may go below zero.
A player's first appearance in a chat grants the starting chips, once, as a ledger row too.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from storage.db import Database, StorageError

COMPUTER = "computer"
"""The platform of computer seats: they hold balances like anyone, but are not on leaderboards."""
DEFAULT_GRANT = 1000
TURN_TIMEOUT = 90
LOBBY_TIMEOUT = 600
DEFAULT_LEVEL = "normal"
"""The level a chat's computer players play at until its admins choose another."""


@dataclass(frozen=True, slots=True)
class ChatSettings:
    """Per-chat preferences; unknown keys in the stored JSON are kept but ignored."""

    language: str | None = None
    turn_timeout: int = TURN_TIMEOUT
    """Seconds a person has for a move before the computer moves for them."""
    lobby_timeout: int = LOBBY_TIMEOUT
    defaults: dict[str, Any] = field(default_factory=dict)
    """Default preset and stake per game id: {"dragon": {"preset": "two-arm", "stake": 2}}."""
    mentions: bool = True
    """Whether the chat may be pinged for a player whose private hand is not open."""
    level: str = DEFAULT_LEVEL
    """The level of a computer added without naming one (`/settings level`); the session
    layer knows which levels there are."""


@dataclass(frozen=True, slots=True)
class PersonLanguage:
    """A person's languages as stored: the one they chose (`/lang` in the private chat) and
    their client's, as it was when they last typed a command or took a seat."""

    chosen: str | None = None
    client: str | None = None


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's line of a settlement: chips already multiplied by the session's stake."""

    user_id: int
    points: int
    delta: int
    won: bool


@dataclass(frozen=True, slots=True)
class Settlement:
    session_id: int
    deal_no: int
    chat_id: int
    game: str
    reason: str
    seats: tuple[SeatResult, ...]

    def __post_init__(self) -> None:
        if sum(s.delta for s in self.seats) != 0:
            raise ValueError(f"a settlement must be zero-sum: {[s.delta for s in self.seats]}")
        if len({s.user_id for s in self.seats}) != len(self.seats):
            raise ValueError("one user can hold only one seat in a deal")


class Accounts:
    def __init__(self, db: Database, grant: int = DEFAULT_GRANT) -> None:
        self.db = db
        self.grant = grant

    # ----- people and chats ------------------------------------------------------------------

    async def user(self, platform: str, platform_id: str | int, name: str,
                   language: str | None = None) -> int:
        """The user's id, creating the user or refreshing the name and language."""
        async with self.db.write() as conn:
            cursor = await conn.execute(
                "INSERT INTO users (platform, platform_id, name, language, created_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, platform_id) DO UPDATE SET "
                "name = excluded.name, language = COALESCE(excluded.language, users.language) "
                "RETURNING id",
                (platform, str(platform_id), name, language, self.db.clock()))
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0])

    async def choose_language(self, platform: str, platform_id: str | int, name: str,
                              language: str | None) -> int:
        """Keep the language a person chose for themselves (None: follow their client's)."""
        async with self.db.write() as conn:
            cursor = await conn.execute(
                "INSERT INTO users (platform, platform_id, name, chosen_language, created_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, platform_id) DO UPDATE SET "
                "name = excluded.name, chosen_language = excluded.chosen_language RETURNING id",
                (platform, str(platform_id), name, language, self.db.clock()))
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0])

    async def languages(self, platform: str, platform_ids: Sequence[str]
                        ) -> dict[str, PersonLanguage]:
        """The chosen and client languages of these people, in one read (people never seen
        are left out)."""
        if not platform_ids:
            return {}
        marks = ", ".join("?" * len(platform_ids))
        rows = await self.db.read(
            "SELECT platform_id, chosen_language, language FROM users "
            f"WHERE platform = ? AND platform_id IN ({marks})", (platform, *platform_ids))
        return {str(r["platform_id"]): PersonLanguage(r["chosen_language"], r["language"])
                for r in rows}

    async def computer(self, label: str) -> int:
        """The user id of a computer seat (one per label, e.g. "heuristic-2")."""
        return await self.user(COMPUTER, label, label)

    async def chat(self, platform: str, platform_id: str | int, title: str = "") -> int:
        async with self.db.write() as conn:
            cursor = await conn.execute(
                "INSERT INTO chats (platform, platform_id, title, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (platform, platform_id) DO UPDATE SET "
                "title = CASE WHEN excluded.title = '' THEN chats.title ELSE excluded.title END "
                "RETURNING id",
                (platform, str(platform_id), title, self.db.clock()))
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0])

    async def chat_platform(self, chat_id: int) -> str | None:
        """The platform a chat belongs to (None for a chat that does not exist)."""
        row = await self.db.read_one("SELECT platform FROM chats WHERE id = ?", (chat_id,))
        return None if row is None else str(row["platform"])

    async def settings(self, chat_id: int) -> ChatSettings:
        row = await self.db.read_one("SELECT language, settings FROM chats WHERE id = ?",
                                     (chat_id,))
        if row is None:
            raise StorageError(f"no chat {chat_id}")
        stored = json.loads(row["settings"])
        return ChatSettings(
            language=row["language"],
            turn_timeout=int(stored.get("turn_timeout", TURN_TIMEOUT)),
            lobby_timeout=int(stored.get("lobby_timeout", LOBBY_TIMEOUT)),
            defaults=dict(stored.get("defaults", {})),
            mentions=bool(stored.get("mentions", True)),
            level=str(stored.get("level", DEFAULT_LEVEL)),
        )

    async def update_settings(self, chat_id: int, **changes: Any) -> ChatSettings:
        """Change some settings (`language`, `turn_timeout`, `lobby_timeout`, `defaults`,
        `mentions`, `level`)."""
        allowed = {"language", "turn_timeout", "lobby_timeout", "defaults", "mentions", "level"}
        unknown = set(changes) - allowed
        if unknown:
            raise ValueError(f"unknown chat settings: {', '.join(sorted(unknown))}")
        async with self.db.write() as conn:
            rows = list(await conn.execute_fetchall(
                "SELECT settings FROM chats WHERE id = ?", (chat_id,)))
            if not rows:
                raise StorageError(f"no chat {chat_id}")
            stored = json.loads(rows[0][0])
            for key, value in changes.items():
                if key != "language":
                    stored[key] = value
            if "language" in changes:
                await conn.execute("UPDATE chats SET language = ? WHERE id = ?",
                                   (changes["language"], chat_id))
            await conn.execute("UPDATE chats SET settings = ? WHERE id = ?",
                               (json.dumps(stored, sort_keys=True), chat_id))
        return await self.settings(chat_id)

    # ----- chips -----------------------------------------------------------------------------

    async def balance(self, chat_id: int, user_id: int) -> int:
        """The balance, granting the starting chips on the user's first appearance in the chat."""
        async with self.db.write() as conn:
            await self._join(conn, chat_id, user_id)
            rows = list(await conn.execute_fetchall(
                "SELECT balance FROM balances WHERE chat_id = ? AND user_id = ?",
                (chat_id, user_id)))
        return int(rows[0][0])

    async def settle(self, settlement: Settlement) -> bool:
        """Apply a deal's settlement once; False (and nothing changed) if it was applied before."""
        async with self.db.write() as conn:
            return await self.apply_settlement(conn, settlement)

    async def apply_settlement(self, conn: aiosqlite.Connection, s: Settlement) -> bool:
        """The settlement inside a caller's transaction (a session save brings its own)."""
        cursor = await conn.execute(
            "INSERT INTO deals (session_id, deal_no, chat_id, game, reason, at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (session_id, deal_no) DO NOTHING "
            "RETURNING id",
            (s.session_id, s.deal_no, s.chat_id, s.game, s.reason, self.db.clock()))
        row = await cursor.fetchone()
        await cursor.close()
        if row is None:
            return False
        deal_id = int(row[0])
        users = [seat.user_id for seat in s.seats]
        await self._join_all(conn, s.chat_id, users)
        now, ref = self.db.clock(), f"deal:{deal_id}"
        # Batched: each statement is one hop to the database thread.
        await conn.executemany(
            "INSERT INTO deal_seats (deal_id, seat, user_id, points, delta, won) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(deal_id, i, r.user_id, r.points, r.delta, int(r.won)) for i, r in enumerate(s.seats)])
        await conn.executemany(
            "INSERT INTO ledger (chat_id, user_id, kind, ref, amount, note, at) "
            "VALUES (?, ?, 'settlement', ?, ?, '', ?)",
            [(s.chat_id, r.user_id, ref, r.delta, now) for r in s.seats])
        await conn.executemany(
            "UPDATE balances SET balance = balance + ? WHERE chat_id = ? AND user_id = ?",
            [(r.delta, s.chat_id, r.user_id) for r in s.seats])
        return True

    async def refund_deal(self, deal_id: int, note: str = "") -> bool:
        """Undo a settled deal's chip movements exactly once (an admin voiding a deal)."""
        async with self.db.write() as conn:
            rows = list(await conn.execute_fetchall(
                "SELECT d.chat_id, s.user_id, s.delta FROM deals d "
                "JOIN deal_seats s ON s.deal_id = d.id WHERE d.id = ? AND d.refunded = 0",
                (deal_id,)))
            if not rows:
                return False
            await conn.execute("UPDATE deals SET refunded = 1 WHERE id = ?", (deal_id,))
            for chat_id, user_id, delta in rows:
                await self._move(conn, chat_id, user_id, "refund", f"deal:{deal_id}", -delta,
                                 note)
        return True

    async def adjust(self, chat_id: int, user_id: int, amount: int, ref: str, note: str = ""
                     ) -> bool:
        """An admin's correction, applied once per `ref`."""
        async with self.db.write() as conn:
            return await self._move(conn, chat_id, user_id, "adjustment", ref, amount, note)

    async def _join_all(self, conn: aiosqlite.Connection, chat_id: int, users: Sequence[int]
                        ) -> None:
        """`_join` for several users, in one query when all of them are already members."""
        marks = ", ".join("?" * len(users))
        rows = await conn.execute_fetchall(
            f"SELECT user_id FROM balances WHERE chat_id = ? AND user_id IN ({marks})",
            (chat_id, *users))
        members = {int(r[0]) for r in rows}
        for user in users:
            if user not in members:
                await self._join(conn, chat_id, user)

    async def _join(self, conn: aiosqlite.Connection, chat_id: int, user_id: int) -> None:
        cursor = await conn.execute(
            "INSERT INTO balances (chat_id, user_id, balance, joined) VALUES (?, ?, 0, "
            "(SELECT COALESCE(MAX(joined), 0) + 1 FROM balances WHERE chat_id = ?)) "
            "ON CONFLICT DO NOTHING RETURNING user_id",
            (chat_id, user_id, chat_id))
        created = await cursor.fetchone()
        await cursor.close()
        if created is None:
            return
        rows = list(await conn.execute_fetchall("SELECT platform FROM users WHERE id = ?",
                                                (user_id,)))
        if rows and rows[0][0] != COMPUTER and self.grant:
            await self._move(conn, chat_id, user_id, "grant", "start", self.grant, "")

    async def _move(self, conn: aiosqlite.Connection, chat_id: int, user_id: int, kind: str,
                    ref: str, amount: int, note: str) -> bool:
        await self._join(conn, chat_id, user_id)
        cursor = await conn.execute(
            "INSERT INTO ledger (chat_id, user_id, kind, ref, amount, note, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
            (chat_id, user_id, kind, ref, amount, note, self.db.clock()))
        row = await cursor.fetchone()
        await cursor.close()
        if row is None:
            return False
        await conn.execute(
            "UPDATE balances SET balance = balance + ? WHERE chat_id = ? AND user_id = ?",
            (amount, chat_id, user_id))
        return True


def seat_results(user_ids: Sequence[int], points: Sequence[int], deltas: Sequence[int],
                 winners: Sequence[int], stake: int = 1) -> tuple[SeatResult, ...]:
    """A settlement's seat lines from an outcome's per-seat tuples, scaled by the stake."""
    return tuple(SeatResult(u, p, d * stake, s in winners)
                 for s, (u, p, d) in enumerate(zip(user_ids, points, deltas, strict=True)))
