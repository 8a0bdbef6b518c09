"""Chips, ledger, leaderboards and saved games in one SQLite file (DESIGN.md §6).

`Storage` is the bot's single handle: `accounts` (people, chats, chips, settlements),
`sessions` (saved games with optimistic versions) and `stats` (leaderboards, per-game figures).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from storage.accounts import DEFAULT_GRANT, Accounts, ChatSettings, SeatResult, Settlement
from storage.db import DEFAULT_PATH, Database, StorageBusy, StorageError, StorageUnavailable
from storage.sessions import Post, Session, SessionExists, Sessions, StaleSave
from storage.stats import DealSummary, GameStats, Standing, Stats

__all__ = [
    "ChatSettings", "DealSummary", "GameStats", "Post", "SeatResult", "Session", "SessionExists",
    "Settlement", "StaleSave", "Standing", "Storage", "StorageBusy", "StorageError",
    "StorageUnavailable",
]


class Storage:
    def __init__(self, db: Database, grant: int = DEFAULT_GRANT) -> None:
        self.db = db
        self.accounts = Accounts(db, grant)
        self.sessions = Sessions(db, self.accounts)
        self.stats = Stats(db)

    @classmethod
    async def open(cls, path: str | Path = DEFAULT_PATH, grant: int = DEFAULT_GRANT,
                   busy_timeout_ms: int | None = None) -> Storage:
        if busy_timeout_ms is None:
            return cls(await Database.open(path), grant)
        return cls(await Database.open(path, busy_timeout_ms=busy_timeout_ms), grant)

    @classmethod
    async def from_settings(cls, env: Mapping[str, str]) -> Storage:
        """Open the database the settings name: GUPAI_DB (path) and GUPAI_GRANT (chips)."""
        path = env.get("GUPAI_DB") or DEFAULT_PATH
        grant_text = env.get("GUPAI_GRANT") or str(DEFAULT_GRANT)
        if not grant_text.isdigit():
            raise StorageError(f"GUPAI_GRANT must be a whole number of chips, not {grant_text!r}")
        return await cls.open(Path(path).expanduser(), int(grant_text))

    async def close(self) -> None:
        await self.db.close()
