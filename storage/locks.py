"""What a write transaction locks, and in which order (docs/architecture.md §6: processes must add
up).

On PostgreSQL several processes write at once, and a transaction that reads then writes locks
only what it touches (`storage.postgres_db` takes these as transaction-scoped advisory locks),
so writes to different games never wait for each other. SQLite has one writer at a time anyway
and takes none of them, but checks their order all the same. A lock names a thing rather than a
row, so it can be taken before the row exists (a person's first chips in a chat):

- `schema()`: the migrations, so that processes starting together migrate once;
- `workers()`: the registry of processes, for the writes that move many processes' leases and
  posts at once (`Workers.bury`, `Workers.claim_posts`);
- `session(id)`: a game: its row, the chips on its table (`holds`) and its deals;
- `chat(id)`: a chat's settings;
- `account(chat, user)`: a person's chips in a chat (their balance, what they bring to tables
  and get back, their refills and corrections) and their wish to hear of new lobbies;
- `members(chat)`: the chat's `joined` numbers, each the chat's largest so far plus one.

Deadlocks are prevented by order rather than retried: a transaction takes its locks in the
order of the kinds above, then of their ids, and never one that sorts below a lock it already
holds, so no two transactions can each hold what the other waits for. `Held` enforces that on
both backends: a lock out of order is a mistake in the storage code, raised at once by the
tests of either backend rather than found as a deadlock under load.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field


class LockOrderError(RuntimeError):
    """A transaction asked for a lock below one it holds (a mistake in the storage code)."""


@dataclass(frozen=True, order=True, slots=True)
class Lock:
    """One thing a transaction locks; `Lock`s sort in the order they must be taken."""

    rank: int
    kind: str
    ids: tuple[int, ...]
    key: int = field(init=False, compare=False, repr=False)
    """PostgreSQL's advisory lock key: 64 bits of a hash of the kind and ids, the same in
    every process. Two locks sharing a key (once in billions of pairs) are one lock: writes
    wait that need not, and nothing else."""

    def __post_init__(self) -> None:
        digest = hashlib.blake2b(f"{self.kind}:{self.ids}".encode(), digest_size=8).digest()
        object.__setattr__(self, "key", int.from_bytes(digest, "big", signed=True))

    @classmethod
    def schema(cls) -> Lock:
        return cls(0, "schema", ())

    @classmethod
    def workers(cls) -> Lock:
        return cls(1, "workers", ())

    @classmethod
    def session(cls, session_id: int) -> Lock:
        return cls(2, "session", (int(session_id),))

    @classmethod
    def chat(cls, chat_id: int) -> Lock:
        return cls(3, "chat", (int(chat_id),))

    @classmethod
    def account(cls, chat_id: int, user_id: int) -> Lock:
        return cls(4, "account", (int(chat_id), int(user_id)))

    @classmethod
    def members(cls, chat_id: int) -> Lock:
        return cls(5, "members", (int(chat_id),))


class Held:
    """The locks one transaction holds."""

    def __init__(self) -> None:
        self._held: set[Lock] = set()
        self._top: Lock | None = None

    def add(self, locks: Iterable[Lock]) -> list[Lock]:
        """Of `locks`, those not held yet, in the order to take them (now counted as held);
        LockOrderError, with nothing counted, if one sorts below a lock already held."""
        new = sorted(set(locks) - self._held)
        if new and self._top is not None and new[0] < self._top:
            raise LockOrderError(f"{new[0]} is taken after {self._top}: locks must be taken "
                                 "in order (storage.locks)")
        self._held.update(new)
        if new:
            self._top = new[-1]
        return new
