"""The per-chat outbox: order, coalescing, the budget, table edits ahead of posts, retries."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable

from bot.session.outbox import Budget, Outbox
from tests.support import virtual_time


class Flaky(Exception):
    """A failure the platform calls passing (flood control)."""


def passing(exc: BaseException) -> float | None:
    return 3.0 if isinstance(exc, Flaky) else None


Job = Callable[[], Awaitable[None]]


def recorder(box: Outbox, log: list[tuple[float, str]]) -> Callable[[str], Job]:
    def job(name: str) -> Job:
        async def run() -> None:
            async with box.sending():
                log.append((box.clock(), name))
        return run
    return job


def on_loop(body: Callable[[Outbox, list[tuple[float, str]]], Awaitable[None]],
            budget: Budget) -> list[tuple[float, str]]:
    async def main() -> list[tuple[float, str]]:
        loop = asyncio.get_running_loop()
        box = Outbox("test", budget, clock=loop.time, retry_after=passing)
        log: list[tuple[float, str]] = []
        await body(box, log)
        await box.drain(timeout=600)
        await box.close()
        start = log[0][0] if log else 0.0
        return [(round(t - start, 3), name) for t, name in log]
    return virtual_time.run(main())


def test_updates_coalesce_to_the_latest_and_keep_their_spacing() -> None:
    async def body(box: Outbox, log: list[tuple[float, str]]) -> None:
        job = recorder(box, log)
        for n in range(10):
            box.update("table", job(f"table {n}"))
            await asyncio.sleep(0.5)
    shown = on_loop(body, Budget(cap=None, spacing=2.0))
    assert shown[0] == (0.0, "table 0")
    assert shown[-1][1] == "table 9"
    assert len(shown) < 10
    gaps = [b[0] - a[0] for a, b in itertools.pairwise(shown)]
    assert all(gap >= 2.0 for gap in gaps), shown


def test_a_table_edit_is_never_held_behind_queued_posts() -> None:
    async def body(box: Outbox, log: list[tuple[float, str]]) -> None:
        job = recorder(box, log)
        box.update("table", job("table 0"))
        await asyncio.sleep(0)
        for n in range(6):
            box.post(job(f"post {n}"))
        box.update("table", job("table 1"))
    # Five calls per five seconds: once the budget allows a call again, the table goes first.
    shown = on_loop(body, Budget(cap=5, window=5.0, spacing=1.0))
    assert [name for _, name in shown] == [
        "table 0", "post 0", "post 1", "post 2", "post 3", "table 1", "post 4", "post 5"]
    assert dict((name, t) for t, name in shown)["table 1"] <= 5.1


def test_a_new_message_slot_keeps_its_place_among_the_posts() -> None:
    async def body(box: Outbox, log: list[tuple[float, str]]) -> None:
        job = recorder(box, log)
        box.post(job("lobby closed"))
        box.update("table", job("table sent anew"), in_order=True)
        box.post(job("result"))
    shown = on_loop(body, Budget(cap=None, spacing=0.0))
    assert [name for _, name in shown] == ["lobby closed", "table sent anew", "result"]


def test_the_budget_is_never_exceeded_in_any_window() -> None:
    async def body(box: Outbox, log: list[tuple[float, str]]) -> None:
        job = recorder(box, log)
        for n in range(45):
            box.post(job(f"post {n}"))
            if n % 3 == 0:
                box.update("table", job(f"table {n}"))
            await asyncio.sleep(0.3)
    shown = on_loop(body, Budget(cap=20, window=60.0, spacing=4.0))
    times = [t for t, _ in shown]
    for i, start in enumerate(times):
        assert sum(1 for t in times[i:] if t < start + 60.0) <= 20
    assert sum(1 for _, name in shown if name.startswith("post")) == 45


def test_a_passing_failure_is_retried_in_order_and_others_are_dropped() -> None:
    async def body(box: Outbox, log: list[tuple[float, str]]) -> None:
        job = recorder(box, log)
        failures = iter([Flaky(), Flaky()])

        async def flaky() -> None:
            error = next(failures, None)
            if error is not None:
                raise error
            await job("result")()

        async def broken() -> None:
            raise ValueError("the chat is gone")
        box.post(flaky)
        box.post(job("after the result"))
        box.post(broken)
        box.post(job("last"))
    shown = on_loop(body, Budget(cap=None, spacing=0.0))
    assert [name for _, name in shown] == ["result", "after the result", "last"]
    assert shown[0][0] == 0.0  # (the log starts at the first success)


def test_a_failed_update_gives_way_to_a_newer_one() -> None:
    async def body(box: Outbox, log: list[tuple[float, str]]) -> None:
        job = recorder(box, log)

        async def failing() -> None:
            box.update("table", job("table 2"))  # a newer table arrives meanwhile
            raise Flaky()
        box.update("table", failing)
    shown = on_loop(body, Budget(cap=None, spacing=0.0))
    assert [name for _, name in shown] == ["table 2"]


def test_a_stop_sends_the_latest_update_without_waiting_for_its_spacing() -> None:
    async def main(hurry: bool) -> list[str]:
        loop = asyncio.get_running_loop()
        box = Outbox("test", Budget(cap=None, spacing=4.0), clock=loop.time)
        log: list[tuple[float, str]] = []
        job = recorder(box, log)
        box.update("table", job("table 0"))
        await asyncio.sleep(0.5)
        box.update("table", job("table 1"))
        await box.drain(timeout=1.0, hurry=hurry)
        await box.close()
        return [name for _, name in log]
    assert virtual_time.run(main(hurry=False)) == ["table 0"]
    assert virtual_time.run(main(hurry=True)) == ["table 0", "table 1"]
