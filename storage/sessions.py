"""Saved games: one row per session, written after every accepted action.

docs/architecture.md §4 and §6. A save names the version it was made from and succeeds only if the
stored version is still that one (optimistic locking): a press on an old button, or a second
process, can never overwrite a newer state. A deal's settlement can ride in the same transaction as
the save that ends the deal, so the state and the chips never disagree, and so can the posts that
must reach the chat (the deal's result): they are kept until the platform has them. One open session
(lobby or active) per chat and topic; finished and abandoned sessions stay as history.

On PostgreSQL, where processes write at once, a save takes its session's lock (`storage.locks`)
and then the accounts of the people whose chips it moves: the version check itself needs no
lock (an `UPDATE … WHERE version = ?` waits for a concurrent one and then finds the version
gone), but the table's holds, which the save and the deal's settlement read and change, are
the session's. Saves of different games wait for each other only where they share a person.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from storage.accounts import Accounts, Settlement
from storage.changes import Changes
from storage.db import Connection, Database, IntegrityError, Row, StorageError
from storage.locks import Lock
from storage.tables import StaleSave, TableChips, Tables

OPEN = ("lobby", "active")
STATUSES = ("lobby", "active", "finished", "abandoned")


class SessionExists(StorageError):
    """The chat (or topic) already has an open session."""


@dataclass(frozen=True, slots=True)
class Session:
    id: int
    chat_id: int
    topic: str
    game: str
    options: dict[str, Any]
    seats: list[Any]
    """Whatever the session layer keeps per seat (user ids, computer labels, flags), as JSON."""
    stake: int
    creator_id: int | None
    status: str
    state: str | None
    """The rules core's `dumps` of the current deal, or None in the lobby."""
    version: int
    deadline: float | None
    messages: dict[str, Any] = field(default_factory=dict)
    """Platform message ids: the table message, private hand messages, and so on."""
    created_at: float = 0.0
    updated_at: float = 0.0

    def but(self, **changes: Any) -> Session:
        return dataclasses.replace(self, **changes)

    @property
    def dealt(self) -> bool:
        """A deal is stored: callers that only ask this never need to touch the state."""
        return self.state is not None


class Sessions:
    def __init__(self, db: Database, accounts: Accounts, tables: Tables,
                 changes: Changes | None = None) -> None:
        self.db = db
        self.accounts = accounts
        self.tables = tables
        self.changes = changes if changes is not None else Changes()

    async def create(self, chat_id: int, game: str, options: dict[str, Any], seats: list[Any],
                     stake: int = 1, creator_id: int | None = None, topic: str = "",
                     status: str = "lobby", deadline: float | None = None,
                     owner: str | None = None) -> Session:
        """A new open session; `owner` (a `storage.workers` id) runs its timers."""
        if status not in OPEN:
            raise ValueError(f"a new session is open, not {status!r}")
        now = self.db.clock()
        try:
            async with self.db.write() as conn:
                cursor = await conn.execute(
                    "INSERT INTO sessions (chat_id, topic, game, options, seats, stake, creator_id,"
                    " status, state, version, deadline, messages, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, 0, ?, '{}', ?, ?) RETURNING id",
                    (chat_id, topic, game, _dump(options), _dump(seats), stake, creator_id,
                     status, deadline, now, now))
                row = await cursor.fetchone()
                await cursor.close()
                assert row is not None
                if owner is not None:
                    await _lease(conn, int(row[0]), owner)
        except IntegrityError as exc:
            if "one_open_session" in str(exc) or "UNIQUE" in str(exc):
                raise SessionExists("this chat already has a game; finish or stop it first") \
                    from exc
            raise
        assert row is not None
        loaded = await self.get(int(row[0]))
        assert loaded is not None
        return loaded

    async def get(self, session_id: int) -> Session | None:
        row = await self.db.read_one("SELECT * FROM sessions WHERE id = ?", (session_id,))
        return None if row is None else _session(row)

    async def open_in(self, chat_id: int, topic: str = "") -> Session | None:
        row = await self.db.read_one(
            "SELECT * FROM sessions WHERE chat_id = ? AND topic = ? AND status IN (?, ?)",
            (chat_id, topic, *OPEN))
        return None if row is None else _session(row)

    async def open_sessions(self, platform: str | None = None) -> list[Session]:
        """Every lobby and active game (of one platform's chats, if given), oldest first:
        what a restart must bring back."""
        if platform is None:
            rows = await self.db.read(
                "SELECT * FROM sessions WHERE status IN (?, ?) ORDER BY id", OPEN)
        else:
            rows = await self.db.read(
                "SELECT s.* FROM sessions s JOIN chats c ON c.id = s.chat_id "
                "WHERE s.status IN (?, ?) AND c.platform = ? ORDER BY s.id", (*OPEN, platform))
        return [_session(r) for r in rows]

    async def version(self, session_id: int) -> int | None:
        """The stored version alone: a cheap look at whether a cached copy is still current."""
        row = await self.db.read_one("SELECT version FROM sessions WHERE id = ?", (session_id,))
        return None if row is None else int(row[0])

    async def versions(self, session_ids: Sequence[int]) -> dict[int, int]:
        """The stored versions of these sessions, in one read (those that exist)."""
        if not session_ids:
            return {}
        marks = ", ".join("?" * len(session_ids))
        rows = await self.db.read(f"SELECT id, version FROM sessions WHERE id IN ({marks})",
                                  tuple(session_ids))
        return {int(r[0]): int(r[1]) for r in rows}

    async def history(self, chat_id: int, limit: int = 20, offset: int = 0) -> list[Session]:
        rows = await self.db.read(
            "SELECT * FROM sessions WHERE chat_id = ? AND status NOT IN (?, ?) "
            "ORDER BY id DESC LIMIT ? OFFSET ?", (chat_id, *OPEN, limit, offset))
        return [_session(r) for r in rows]

    async def save(self, session: Session, expected_version: int,
                   settlement: Settlement | None = None, chips: TableChips | None = None
                   ) -> Session:
        """Store `session` if the stored version is still `expected_version`.

        Raises StaleSave otherwise, with nothing written (the settlement included).
        """
        saved, _ = await self.save_posting(session, expected_version, settlement, chips=chips)
        return saved

    async def save_posting(self, session: Session, expected_version: int,
                           settlement: Settlement | None = None,
                           posts: Sequence[Mapping[str, Any]] = (),
                           chips: TableChips | None = None, owner: str | None = None
                           ) -> tuple[Session, list[int]]:
        """`save`, and in the same transaction settle the deal, move the table's chips and keep
        `posts` (what the chat must be shown) until `delivered`; returns the saved session and
        the posts' ids, in order. `owner` is the process that delivers the posts (its
        `storage.workers` id; None: whichever claims them)."""
        if session.status not in STATUSES:
            raise ValueError(f"unknown status {session.status!r}")
        now = self.db.clock()
        ids: list[int] = []
        locks = [Lock.session(session.id)]
        if settlement is not None:
            locks.append(Lock.session(settlement.session_id))
        async with self.db.write(*locks) as conn:
            cursor = await conn.execute(
                "UPDATE sessions SET seats = ?, options = ?, stake = ?, creator_id = ?, "
                "status = ?, state = ?, version = ?, deadline = ?, messages = ?, updated_at = ? "
                "WHERE id = ? AND version = ?",
                (_dump(session.seats), _dump(session.options), session.stake,
                 session.creator_id, session.status, session.state, session.version,
                 session.deadline, _dump(session.messages), now, session.id, expected_version))
            changed = cursor.rowcount
            await cursor.close()
            if changed != 1:
                raise StaleSave(
                    f"session {session.id} is no longer at version {expected_version}")
            closing = session.status not in OPEN
            keep = frozenset() if closing else None if chips is None else chips.keep
            await self.tables.lock_accounts(conn, session.id, session.chat_id, chips, keep)
            # (brought even by a save that closes: a one-deal match can end as it is dealt)
            await self.tables.bring(conn, session.id, session.chat_id, session.version, chips)
            if settlement is not None:
                await self.accounts.apply_settlement(conn, settlement)
            await self.tables.release(conn, session.id, session.chat_id, session.version, keep)
            # The process that saved a game last runs its timers (it armed the deadline just
            # saved); a closed game has none.
            if closing:
                await conn.execute("DELETE FROM leases WHERE session_id = ?", (session.id,))
            elif owner is not None:
                await _lease(conn, session.id, owner)
            for post in posts:
                cursor = await conn.execute(
                    "INSERT INTO posts (session_id, body, created_at, owner) VALUES (?, ?, ?, ?) "
                    "RETURNING id", (session.id, _dump(post), now, owner))
                row = await cursor.fetchone()
                await cursor.close()
                assert row is not None
                ids.append(int(row[0]))
        self.changes.saved(session.id, session.version)
        return session.but(updated_at=now), ids

    async def pending_posts(self, platform: str, owner: str | None = None) -> list[Post]:
        """The posts of this platform's chats not yet delivered (only those `owner` delivers,
        if given), oldest first."""
        mine = "" if owner is None else " AND p.owner = ?"
        rows = await self.db.read(
            "SELECT p.id, p.session_id, p.body FROM posts p JOIN sessions s ON s.id = "
            f"p.session_id JOIN chats c ON c.id = s.chat_id WHERE c.platform = ?{mine} "
            "ORDER BY p.id", (platform,) if owner is None else (platform, owner))
        return [Post(r["id"], r["session_id"], json.loads(r["body"])) for r in rows]

    async def delivered(self, post_id: int) -> None:
        """The chat has the post (or never can): it is not sent again."""
        async with self.db.write() as conn:
            await conn.execute("DELETE FROM posts WHERE id = ?", (post_id,))


@dataclass(frozen=True, slots=True)
class Post:
    """A post a chat must still be shown: what the session layer needs to build it again."""

    id: int
    session_id: int
    body: dict[str, Any]


async def _lease(conn: Connection, session_id: int, owner: str) -> None:
    await conn.execute(
        "INSERT INTO leases (session_id, owner) VALUES (?, ?) ON CONFLICT (session_id) "
        "DO UPDATE SET owner = excluded.owner", (session_id, owner))


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _session(row: Row) -> Session:
    return Session(
        id=row["id"], chat_id=row["chat_id"], topic=row["topic"], game=row["game"],
        options=json.loads(row["options"]), seats=json.loads(row["seats"]), stake=row["stake"],
        creator_id=row["creator_id"], status=row["status"], state=row["state"],
        version=row["version"], deadline=row["deadline"], messages=json.loads(row["messages"]),
        created_at=row["created_at"], updated_at=row["updated_at"],
    )
