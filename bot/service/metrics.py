"""What the bot counts, for Prometheus (`GET /metrics`, served by `bot.launch.http_server`).

docs/architecture.md §11: Prometheus's text format through its client library. One `Metrics` per bot
process, on a `CollectorRegistry` of its own (never the library's global one), so several bots in
one test process each count their own; `_serve` makes it and hands it to every platform, and a
platform's parts count through its `PlatformMetrics`, which puts on the `platform` label.

Each figure is counted where every path to it passes, once: a press in the adapter that answers
it (and the time until the first answer), a move, a deal and a settlement in the session layer
once they are saved, an API call (and a 429) where the platform's library makes its HTTP
requests, so that the retries its rate limiting makes are counted too. Two gauges are computed
when scraped: the jobs waiting in the outboxes (a collector reads them) and the open games (read
from the database before the registry is rendered, as that read is asynchronous).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

ANSWER_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
"""Seconds from a press to its first answer (Discord wants one within 3)."""

Depth = Callable[[], int]
Count = Callable[[], Awaitable[int]]


class _Outboxes(Collector):
    """The jobs waiting in every outbox of each platform, read when scraped."""

    NAME = "gupai_outbox_jobs"
    HELP = "Messages and in-place updates waiting in the outboxes, all chats together"

    def __init__(self) -> None:
        self.depths: dict[str, Depth] = {}

    def _family(self) -> GaugeMetricFamily:
        return GaugeMetricFamily(self.NAME, self.HELP, labels=["platform"])

    def describe(self) -> Iterator[Metric]:
        yield self._family()

    def collect(self) -> Iterator[Metric]:
        family = self._family()
        for platform, depth in sorted(self.depths.items()):
            family.add_metric([platform], depth())
        yield family


class Metrics:
    """The instruments of one bot process, on its own registry."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        r = self.registry
        self.presses = Counter("gupai_presses", "Buttons pressed and selects chosen",
                               ["platform"], registry=r)
        self.moves = Counter("gupai_moves", "Moves applied and saved (people's and computers')",
                             ["platform", "game"], registry=r)
        self.deals = Counter("gupai_deals", "Deals dealt", ["platform", "game"], registry=r)
        self.settlements = Counter("gupai_settlements", "Deals settled (chips paid)",
                                   ["platform", "game"], registry=r)
        self.api_calls = Counter("gupai_api_calls",
                                 "HTTP requests made to the platform's API, retries included",
                                 ["platform"], registry=r)
        self.rate_limited = Counter("gupai_api_rate_limited",
                                    "API requests the platform answered 429 (flood control)",
                                    ["platform"], registry=r)
        self.press_answer = Histogram("gupai_press_answer_seconds",
                                      "Seconds from a press's arrival to its first answer",
                                      ["platform"], buckets=ANSWER_BUCKETS, registry=r)
        self.open_games = Gauge("gupai_open_games", "Lobbies and games in play",
                                ["platform"], registry=r)
        self._outboxes = _Outboxes()
        r.register(self._outboxes)
        self._games: dict[str, Count] = {}

    def platform(self, name: str) -> PlatformMetrics:
        return PlatformMetrics(self, name)

    async def refresh(self) -> None:
        """Read what is counted in the database (the open games), just before a scrape; a
        database that does not answer leaves the last figure."""
        for platform, count in sorted(self._games.items()):
            try:
                self.open_games.labels(platform).set(await count())
            except Exception as exc:
                log.warning("metrics: the open %s games could not be counted: %s",
                            platform, exc)

    async def exposition(self) -> bytes:
        """The registry in Prometheus's text format, gauges read now."""
        await self.refresh()
        return generate_latest(self.registry)


@dataclass(frozen=True, slots=True)
class PlatformMetrics:
    """`Metrics` as one platform counts into them."""

    metrics: Metrics
    platform: str

    def pressed(self) -> None:
        self.metrics.presses.labels(self.platform).inc()

    def answered(self, seconds: float) -> None:
        """A press had its first answer `seconds` after it arrived."""
        self.metrics.press_answer.labels(self.platform).observe(max(0.0, seconds))

    def moved(self, game: str) -> None:
        self.metrics.moves.labels(self.platform, game).inc()

    def dealt(self, game: str) -> None:
        self.metrics.deals.labels(self.platform, game).inc()

    def settled(self, game: str) -> None:
        self.metrics.settlements.labels(self.platform, game).inc()

    def called(self, status: int | None) -> None:
        """One HTTP request to the platform's API, and the status it was answered with (None:
        no answer at all)."""
        self.metrics.api_calls.labels(self.platform).inc()
        if status == 429:
            self.metrics.rate_limited.labels(self.platform).inc()

    def watch_outboxes(self, depth: Depth) -> None:
        """How many jobs the platform's outboxes hold, read at every scrape."""
        self.metrics._outboxes.depths[self.platform] = depth

    def watch_games(self, count: Count) -> None:
        """How many games the platform has open, read before every scrape."""
        self.metrics._games[self.platform] = count
