"""Chips, ledger, leaderboards and saved games in one SQLite file, or in PostgreSQL when
several processes share them (docs/architecture.md §6).

`Storage` is the bot's single handle: `accounts` (people, chats, chips, settlements),
`tables` (the chips people brought to games), `sessions` (saved games with optimistic versions),
`stats` (leaderboards, per-game figures), `seasons` (a chat's seasons and their tables),
`workers` (the processes sharing the database and the games' leases) and `moves` (finished
deals' moves, to replay them); `changes` tells whoever follows them of every game saved, by
this process or another (`storage.changes`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from storage.accounts import (
    DEFAULT_GRANT,
    Accounts,
    ChatSettings,
    SeatResult,
    Settlement,
    Wallet,
)
from storage.backends import open_database
from storage.changes import Changes, Saved
from storage.db import (
    DEFAULT_PATH,
    Database,
    StorageBusy,
    StorageError,
    StorageUnavailable,
    is_postgres,
)
from storage.moves import Moves
from storage.seasons import PersonSeason, Season, Seasons
from storage.sessions import Post, Session, SessionExists, Sessions
from storage.stats import DealSummary, GameStats, Standing, Stats
from storage.tables import StaleSave, TableChips, Tables
from storage.workers import WorkerRow, Workers

__all__ = [
    "Changes", "ChatSettings", "DealSummary", "GameStats", "PersonSeason", "Post", "Saved",
    "Season", "SeatResult", "Session", "SessionExists", "Settlement", "StaleSave", "Standing",
    "Storage", "StorageBusy", "StorageError", "StorageUnavailable", "TableChips", "Wallet",
    "WorkerRow",
]


class Storage:
    def __init__(self, db: Database, grant: int = DEFAULT_GRANT) -> None:
        self.db = db
        self.changes = Changes()
        db.listen(self.changes)
        self.accounts = Accounts(db, grant)
        self.tables = Tables(db, self.accounts)
        self.sessions = Sessions(db, self.accounts, self.tables, self.changes)
        self.stats = Stats(db)
        self.seasons = Seasons(db)
        self.workers = Workers(db)
        self.moves = Moves(db)

    @classmethod
    async def open(cls, target: str | Path = DEFAULT_PATH, grant: int = DEFAULT_GRANT,
                   busy_timeout_ms: int | None = None) -> Storage:
        """The storage in `target`: a SQLite file's path, or a `postgresql://` URL."""
        if busy_timeout_ms is None:
            return cls(await open_database(target), grant)
        return cls(await open_database(target, busy_timeout_ms=busy_timeout_ms), grant)

    @classmethod
    async def from_settings(cls, env: Mapping[str, str]) -> Storage:
        """Open the database the settings name: GUPAI_DB (a SQLite file's path, or a
        `postgresql://user:password@host:5432/name` URL) and GUPAI_GRANT (chips)."""
        target = (env.get("GUPAI_DB") or "").strip() or DEFAULT_PATH
        grant_text = env.get("GUPAI_GRANT") or str(DEFAULT_GRANT)
        if not grant_text.isdigit():
            raise StorageError(f"GUPAI_GRANT must be a whole number of chips, not {grant_text!r}")
        if is_postgres(target):
            return await cls.open(target, int(grant_text))
        return await cls.open(Path(target).expanduser(), int(grant_text))

    async def close(self) -> None:
        await self.db.close()
