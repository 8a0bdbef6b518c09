"""Processes sharing one database: who is alive, who runs which game's timers, who delivers
which post (docs/architecture.md §6, schema migration 5).

A process registers a `workers` row under an id of its own and beats (refreshes `seen`) while
it lives. Which processes are dead is the caller's judgement (`rows()`, then `bury`); burying
or leaving deletes their rows and their leases and hands their undelivered posts back
(`owner` NULL). A lease says which process runs an open game's timers: `take` gives it to the
caller when nobody holds it or its holder has no `workers` row any more, in one statement, so
two processes taking the same game at once cannot both win. Each method is one transaction.

On PostgreSQL, where processes write at once, each of these is one statement on one row (which
`INSERT … ON CONFLICT` settles on the newest row) but for `bury` and `claim_posts`, which change
the rows of many processes' leases and posts: they take the registry's lock (`storage.locks`),
so two processes burying the same dead one, or claiming the same posts, take turns rather than
each locking some of the rows the other waits for.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from storage.db import Connection, Database
from storage.locks import Lock


@dataclass(frozen=True, slots=True)
class WorkerRow:
    """A process as its `workers` row has it."""

    id: str
    host: str
    pid: int
    platform: str
    seen: float
    """When it last beat (`Database.clock`)."""


class Workers:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def register(self, worker_id: str, host: str, pid: int, platform: str) -> None:
        """Join (or join again, as `worker_id`), seen now."""
        async with self.db.write() as conn:
            await conn.execute(
                "INSERT INTO workers (id, host, pid, platform, seen) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET host = excluded.host, pid = excluded.pid, "
                "platform = excluded.platform, seen = excluded.seen",
                (worker_id, host, pid, platform, self.db.clock()))

    async def beat(self, worker_id: str) -> bool:
        """Seen now. False when the row was gone: the others took this process for dead, so it
        holds no lease and must register again."""
        async with self.db.write() as conn:
            cursor = await conn.execute("UPDATE workers SET seen = ? WHERE id = ?",
                                        (self.db.clock(), worker_id))
            found = cursor.rowcount
            await cursor.close()
        return found == 1

    async def leave(self, worker_id: str) -> None:
        """Leave: the row and the leases go, and the posts it was delivering are anyone's."""
        await self.bury([worker_id])

    async def rows(self) -> list[WorkerRow]:
        """Every registered process, by id."""
        rows = await self.db.read("SELECT id, host, pid, platform, seen FROM workers ORDER BY id")
        return [WorkerRow(str(r["id"]), str(r["host"]), int(r["pid"]), str(r["platform"]),
                          float(r["seen"])) for r in rows]

    async def bury(self, worker_ids: Iterable[str]) -> None:
        """Forget these processes: their rows and leases go, their posts are anyone's."""
        dead = sorted(set(worker_ids))
        if not dead:
            return
        async with self.db.write(Lock.workers()) as conn:
            await _bury(conn, dead)

    async def take(self, session_id: int, worker_id: str) -> bool:
        """Take the game's lease if nobody holds it or its holder is gone; whether this process
        holds it now."""
        async with self.db.write() as conn:
            await conn.execute(
                "INSERT INTO leases (session_id, owner) VALUES (?, ?) ON CONFLICT (session_id) "
                "DO UPDATE SET owner = excluded.owner "
                "WHERE leases.owner NOT IN (SELECT id FROM workers)", (session_id, worker_id))
            rows = await conn.execute_fetchall("SELECT owner FROM leases WHERE session_id = ?",
                                               (session_id,))
        return bool(rows) and rows[0][0] == worker_id

    async def owner(self, session_id: int) -> str | None:
        """Who holds the game's lease (None: nobody)."""
        row = await self.db.read_one("SELECT owner FROM leases WHERE session_id = ?",
                                     (session_id,))
        return None if row is None else str(row[0])

    async def leases(self) -> dict[int, str]:
        """Every lease: the holder of each game that has one."""
        rows = await self.db.read("SELECT session_id, owner FROM leases")
        return {int(r[0]): str(r[1]) for r in rows}

    async def claim_posts(self, worker_id: str, platform: str) -> list[int]:
        """The undelivered posts of this platform's chats that nobody delivers (no owner, or
        one that is not a living process) become this process's; their ids, oldest first."""
        async with self.db.write(Lock.workers()) as conn:
            rows = await conn.execute_fetchall(
                "UPDATE posts SET owner = ? WHERE (owner IS NULL OR owner NOT IN "
                "(SELECT id FROM workers)) AND session_id IN "
                "(SELECT s.id FROM sessions s JOIN chats c ON c.id = s.chat_id "
                "WHERE c.platform = ?) RETURNING id", (worker_id, platform))
        return sorted(int(r[0]) for r in rows)


async def _bury(conn: Connection, dead: list[str]) -> None:
    marks = ", ".join("?" * len(dead))
    await conn.execute(f"DELETE FROM leases WHERE owner IN ({marks})", dead)
    await conn.execute(f"UPDATE posts SET owner = NULL WHERE owner IN ({marks})", dead)
    await conn.execute(f"DELETE FROM workers WHERE id IN ({marks})", dead)
