"""The web table's open event streams: told when their game is saved, and capped
(docs/architecture.md §6 and §11: pages are told, not polling; everything the internet can reach has
limits).

Each open page holds one stream. A stream never reads the database while nothing changes: it
sleeps until `storage.changes` tells of a save of its game (this process's at once, another's
through the database's channel) and then sends the new version, which the page fetches. When
saves may have gone untold (the channel was down), one read of the versions of every followed
game sets them right; and a stream just opened reads its game's version once more, since a save
made while its page was being let in (after its game was read for it) was told to no stream
of that page.

Streams are capped per person (`PER_PERSON`: a phone and a computer, and a tab left open) and
in total (`GUPAI_WEB_STREAMS`). Over a cap the oldest stream is closed first, told why (the page
stops following, or tries again much later), and counted in `gupai_web_streams_closed{reason}`.
A spectator's stream (docs/hosting.md, watching) is capped alike, and counts towards how many
watch its game: the people with a spectator's stream open, each once, told to every page of the
game when it changes.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry, Counter, Gauge

from bot.present.miniapp import TOTAL
from storage import Saved, Storage, StorageError

log = logging.getLogger(__name__)

PER_PERSON = 4
"""Streams one person may hold open at once."""
ELSEWHERE = "elsewhere"
"""Closed for a newer stream of the same person's: the page stops following."""
CROWDED = "crowded"
"""Closed for a newer stream of someone else's: the page tries again later."""
STOPPING = "stopping"


@dataclass(eq=False)
class Stream:
    """One open page's stream: the newest version of its game it has heard of."""

    person: str
    session_id: int
    version: int
    spectator: bool = False
    """The page of someone watching, not seated."""
    watching: int = 0
    """How many watch the game, as last told."""
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: str | None = None
    """Why the stream was closed (None: open)."""

    def tell(self, version: int) -> None:
        if version > self.version:
            self.version = version
            self.wake.set()

    def count(self, watching: int) -> None:
        if watching != self.watching:
            self.watching = watching
            self.wake.set()

    def close(self, reason: str) -> None:
        if self.closed is None:
            self.closed = reason
            self.wake.set()


class Streams:
    """Every open stream of this process, oldest first."""

    def __init__(self, storage: Storage, registry: CollectorRegistry | None = None,
                 total: int = TOTAL, per_person: int = PER_PERSON) -> None:
        self.storage = storage
        self.total = total
        self.per_person = per_person
        self._order = itertools.count()
        self._open: OrderedDict[int, Stream] = OrderedDict()
        self._by_session: dict[int, set[Stream]] = {}
        self._by_person: dict[str, OrderedDict[int, Stream]] = {}
        self._keys: dict[Stream, int] = {}
        self._stop_following: Callable[[], None] | None = None
        self._looking: asyncio.Task[None] | None = None
        registry = registry if registry is not None else CollectorRegistry()
        self.gauge = Gauge("gupai_web_streams", "Event streams open (web table pages following "
                           "a game)", registry=registry)
        self.gauge.set_function(lambda: len(self._open))
        self.evicted = Counter("gupai_web_streams_closed",
                               "Event streams closed to make room for newer ones, by reason",
                               ["reason"], registry=registry)

    def __len__(self) -> int:
        return len(self._open)

    def watching(self, session_id: int) -> int:
        """How many people watch the game: each with a spectator's stream open counts once."""
        return len({s.person for s in self._by_session.get(session_id, ()) if s.spectator})

    def _recount(self, session_id: int) -> None:
        watching = self.watching(session_id)
        for stream in self._by_session.get(session_id, ()):
            stream.count(watching)

    def open(self, person: str, session_id: int, version: int, spectator: bool = False
             ) -> Stream:
        """A new stream (`spectator`: of someone watching); the oldest of the person's, then
        of all, closed if over a cap."""
        if self._stop_following is None:
            self._stop_following = self.storage.changes.follow(self.saved)
        stream = Stream(person, session_id, version, spectator)
        key = next(self._order)
        self._keys[stream] = key
        self._open[key] = stream
        self._by_session.setdefault(session_id, set()).add(stream)
        mine = self._by_person.setdefault(person, OrderedDict())
        mine[key] = stream
        while len(mine) > self.per_person:
            self._evict(next(iter(mine.values())), ELSEWHERE)
        while len(self._open) > self.total:
            self._evict(next(iter(self._open.values())), CROWDED)
        if stream.closed is None:
            self._recount(session_id)
        return stream

    def close(self, stream: Stream) -> None:
        """The stream's page has gone (or it was closed): forget it."""
        key = self._keys.pop(stream, None)
        if key is None:
            return
        self._open.pop(key, None)
        followers = self._by_session.get(stream.session_id)
        if followers is not None:
            followers.discard(stream)
            if not followers:
                del self._by_session[stream.session_id]
            elif stream.spectator:
                self._recount(stream.session_id)
        mine = self._by_person.get(stream.person)
        if mine is not None:
            mine.pop(key, None)
            if not mine:
                del self._by_person[stream.person]
        if not self._open and self._stop_following is not None:
            self._stop_following()
            self._stop_following = None

    def stop(self) -> None:
        """Close every stream, so the server can stop at once."""
        for stream in list(self._open.values()):
            stream.close(STOPPING)
            self.close(stream)
        if self._looking is not None:
            self._looking.cancel()

    def _evict(self, stream: Stream, reason: str) -> None:
        stream.close(reason)
        self.close(stream)
        self.evicted.labels(reason).inc()

    # ----- told of saves ------------------------------------------------------------------------

    def saved(self, change: Saved | None) -> None:
        if change is None:
            if self._looking is None or self._looking.done():
                self._looking = asyncio.get_running_loop().create_task(self._look())
            return
        for stream in self._by_session.get(change.session_id, ()):
            stream.tell(change.version)

    async def caught_up(self, stream: Stream) -> None:
        """Tell a stream just opened of the saves made since its game was read for it: one read
        of the game's version, now that the stream hears of saves (see the module's note)."""
        try:
            versions = await self.storage.sessions.versions([stream.session_id])
        except StorageError as exc:
            log.warning("web table: game %s's version could not be read: %s",
                        stream.session_id, exc)
            return
        stream.tell(versions.get(stream.session_id, stream.version))

    async def _look(self) -> None:
        """Saves may have gone untold: read the versions of every followed game, once."""
        ids = sorted(self._by_session)
        if not ids:
            return
        try:
            versions = await self.storage.sessions.versions(ids)
        except StorageError as exc:
            log.warning("web table: the followed games' versions could not be read: %s", exc)
            return
        for session_id, version in versions.items():
            for stream in self._by_session.get(session_id, ()):
                stream.tell(version)
