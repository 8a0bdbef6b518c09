"""Saved games, told as they happen: what an open page follows instead of asking the database
(docs/architecture.md §6: a change another process must hear of travels by `LISTEN`/`NOTIFY`, not by
polling).

Every save (`Sessions.save_posting`) tells `Changes` once its transaction has committed, so
the pages this process serves hear of its own saves at once. Saves by other processes sharing
the database arrive through the backend: on PostgreSQL a trigger on `sessions` notifies
`SAVED` with `"<session>:<version>"` at each commit (schema migration 6), and one connection
per process listens; on SQLite, whose file has no such channel, one look per process at
`PRAGMA data_version` (whether another connection has committed since; no table is read) runs
only while another process shares the file. Whenever notices may have been lost (the listening
connection dropped, another process wrote to the SQLite file), the followers are told that
anything may have changed (`None`) and read what they follow once.

A follower is a plain callable, called on the event loop; it must not block.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import NamedTuple

log = logging.getLogger(__name__)

SAVED = "gupai_saved"
"""The PostgreSQL notification channel of saved games."""


class Saved(NamedTuple):
    session_id: int
    version: int

    @classmethod
    def parse(cls, payload: str) -> Saved | None:
        """A notification's payload, `"<session>:<version>"`; None for anything else."""
        session, _, version = payload.partition(":")
        if not (session.isdigit() and version.isdigit()):
            return None
        return cls(int(session), int(version))


Follower = Callable[[Saved | None], None]
"""Told of one save, or (None) that any game may have changed."""


class Changes:
    """The followers of saved games in one process, and what tells them."""

    def __init__(self) -> None:
        self._followers: list[Follower] = []
        self.started: Callable[[], None] | None = None
        """Set by the backend: called when the first follower arrives, so that nothing
        listens in a process nobody follows a game in (the command line, the simulator)."""

    @property
    def followed(self) -> bool:
        return bool(self._followers)

    def follow(self, follower: Follower) -> Callable[[], None]:
        """Tell `follower` of every save from now on; returns what stops it."""
        self._followers.append(follower)
        if len(self._followers) == 1 and self.started is not None:
            self.started()

        def stop() -> None:
            if follower in self._followers:
                self._followers.remove(follower)
        return stop

    def saved(self, session_id: int, version: int) -> None:
        self._tell(Saved(session_id, version))

    def missed(self) -> None:
        """Saves may have gone untold: every follower looks again."""
        self._tell(None)

    def _tell(self, change: Saved | None) -> None:
        for follower in list(self._followers):
            try:
                follower(change)
            except Exception:
                log.exception("a follower of saved games failed")
