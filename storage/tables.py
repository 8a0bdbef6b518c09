"""Chips on tables: what each person brought to a game, and how it goes back.

docs/architecture.md §1.7 and §6 (table stakes). When a deal starts, each person at stake brings
chips from their balance to the table, as many as the session layer decided (never more than they
have: a balance that no longer covers them makes the save stale, and it is decided again): a `hold`
ledger row and a row of `holds`. A deal's settlement moves chips only between the holds of its
session (`Accounts.apply_settlement`), so nobody can lose more than they brought. What a person no
longer needs on the table (they left, were replaced, or the session closed) returns to their balance
as a `return` row. All of it happens inside the save of the session that changes, under its
optimistic version, so a chip is held, settled and returned exactly once, through kills and restarts
alike.

On PostgreSQL, where processes write at once, a session's holds change only under its lock
(`storage.locks`: a save of it, a settlement of its deal), so what `release` reads of them is
what it returns; and a save locks the accounts of everyone whose balance it changes
(`lock_accounts`) before it changes the first, in order, so two saves moving the chips of the
same people never wait for each other crosswise.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.accounts import Accounts
from storage.db import Connection, Database, IntegrityError, StorageError
from storage.locks import Lock


class StaleSave(StorageError):
    """The session (or a balance its save counted on) changed since it was loaded; the save
    was refused and nothing changed."""


@dataclass(frozen=True, slots=True)
class TableChips:
    """What a save does with the chips on its table: each person in `bring` moves that many
    chips from their balance to the table (before the deal's settlement, if the save brings
    one), then every hold of a person not in `keep` returns to their balance. A save that
    closes its session keeps nothing: what it brought is settled, then returned."""

    keep: frozenset[int]
    bring: tuple[tuple[int, int], ...] = ()


class Tables:
    def __init__(self, db: Database, accounts: Accounts) -> None:
        self.db = db
        self.accounts = accounts

    async def held(self, session_id: int) -> dict[int, int]:
        """The chips each person has on the session's table, by user id."""
        rows = await self.db.read("SELECT user_id, amount FROM holds WHERE session_id = ?",
                                  (session_id,))
        return {int(r["user_id"]): int(r["amount"]) for r in rows}

    async def lock_accounts(self, conn: Connection, session_id: int, chat_id: int,
                            chips: TableChips | None, keep: frozenset[int] | None) -> None:
        """Lock the accounts whose balances `bring` and `release` (given the same `chips` and
        `keep`) are about to change: those who bring chips, and those holding chips on the
        table who are not kept. Inside a save's transaction, under the session's lock."""
        users = {user for user, amount in chips.bring if amount > 0} if chips else set()
        if keep is not None:
            rows = await conn.execute_fetchall(
                "SELECT user_id FROM holds WHERE session_id = ?", (session_id,))
            users |= {int(r[0]) for r in rows} - keep
        await conn.lock(*(Lock.account(chat_id, user) for user in users))

    async def bring(self, conn: Connection, session_id: int, chat_id: int,
                    version: int, chips: TableChips | None) -> None:
        """The chips people bring, inside a session save's transaction (`version` is the saved
        version, which names the ledger rows: one save, one reference)."""
        if chips is None:
            return
        for user, amount in chips.bring:
            if amount <= 0:
                continue
            try:
                await self.accounts.book(conn, chat_id, user, "hold", _ref(session_id, version),
                                         -amount, "")
            except IntegrityError:
                raise StaleSave(f"user {user} no longer has {amount} chips to bring") from None
            await conn.execute(
                "INSERT INTO holds (session_id, user_id, chat_id, amount) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (session_id, user_id) DO UPDATE SET amount = holds.amount + "
                "excluded.amount", (session_id, user, chat_id, amount))

    async def release(self, conn: Connection, session_id: int, chat_id: int,
                      version: int, keep: frozenset[int] | None) -> None:
        """Return every hold of a person not in `keep` (None: keep them all)."""
        if keep is None:
            return
        rows = list(await conn.execute_fetchall(
            "SELECT user_id, amount FROM holds WHERE session_id = ?", (session_id,)))
        for user, amount in rows:
            if user in keep:
                continue
            await conn.execute("DELETE FROM holds WHERE session_id = ? AND user_id = ?",
                               (session_id, user))
            if amount:
                await self.accounts.book(conn, chat_id, int(user), "return",
                                         _ref(session_id, version), int(amount), "")


def _ref(session_id: int, version: int) -> str:
    return f"session:{session_id}/v{version}"
