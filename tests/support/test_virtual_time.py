"""The virtual-time loop: timers jump ahead; work outside the loop keeps the clock to real time."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import aiosqlite

from tests.support import virtual_time


def test_an_hour_of_sleeping_takes_no_real_time() -> None:
    async def main() -> tuple[float, list[str]]:
        loop = asyncio.get_running_loop()
        start = loop.time()
        order: list[str] = []

        async def sleeper(name: str, seconds: float) -> None:
            await asyncio.sleep(seconds)
            order.append(name)
        await asyncio.gather(sleeper("late", 3600), sleeper("early", 5), sleeper("mid", 60))
        return loop.time() - start, order

    real = time.monotonic()
    elapsed, order = virtual_time.run(main())
    assert elapsed == 3600
    assert order == ["early", "mid", "late"]
    assert time.monotonic() - real < 2


def test_a_worker_thread_keeps_the_clock_from_jumping() -> None:
    """The clock moves as the real one while a worker thread runs, not to the next timer."""
    async def main() -> tuple[float, float]:
        loop = asyncio.get_running_loop()
        timer = asyncio.ensure_future(asyncio.sleep(10))
        start = loop.time()
        await asyncio.to_thread(time.sleep, 0.2)  # real work, while a timer is pending
        during = loop.time() - start
        await timer
        return during, loop.time() - start

    during, total = virtual_time.run(main())
    assert 0.1 <= during < 2
    assert total == 10


def test_a_database_query_keeps_the_clock_from_jumping(tmp_path: Path) -> None:
    async def main() -> float:
        loop = asyncio.get_running_loop()
        timer = asyncio.ensure_future(asyncio.sleep(30))
        start = loop.time()
        async with aiosqlite.connect(tmp_path / "t.sqlite3") as db:
            await db.execute("CREATE TABLE t (x)")
            for i in range(50):
                await db.execute("INSERT INTO t VALUES (?)", (i,))
            await db.commit()
        during = loop.time() - start
        timer.cancel()
        return during

    assert virtual_time.run(main()) < 5


def test_outside_work_is_waited_for_in_real_time() -> None:
    async def main() -> tuple[float, bool]:
        loop = asyncio.get_running_loop()
        assert isinstance(loop, virtual_time.VirtualLoop)
        future: asyncio.Future[bool] = loop.create_future()

        def work() -> None:
            time.sleep(0.1)
            loop.call_soon_threadsafe(future.set_result, True)
        timer = asyncio.ensure_future(asyncio.sleep(5))
        start = loop.time()
        with loop.outside():
            threading.Thread(target=work).start()
            value = await future
        during = loop.time() - start
        timer.cancel()
        return during, value

    during, value = virtual_time.run(main())
    assert value and 0.05 <= during < 2
