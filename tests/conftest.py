"""Checks and clocks that apply to every test.

Every asynchronous test runs on a virtual-time loop (`tests.support.virtual_time`): its clock
jumps to the next timer whenever the loop only waits, so a turn timer, a rate limit or a person
thinking for seconds costs no real time, and worker threads, database queries and HTTP requests
still run on the real clock. A test that must watch real time pass is marked `real_time` and runs on
an ordinary loop (`pytest -m real_time` runs just those, `-m "not real_time"` all others).

`postgres_url` is a fresh, empty PostgreSQL database for one test, on a throwaway server each
test process starts on first use and stops at its end (`tests.support.postgres`), or on the
server GUPAI_TEST_POSTGRES names. Without PostgreSQL's server binaries a test that asks for
one fails, saying how to install them.
"""

from __future__ import annotations

import asyncio
import os
import ssl
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from typing import Any

import pytest

from bot.service import logs
from tests.support import postgres, virtual_time
from tests.support.fake_telegram import FakeTelegram
from tests.support.spread import spread
from tests.support.telegram_group import PEOPLE, STRANGER


def pytest_configure(config: pytest.Config) -> None:
    """Temporary folders in memory (`/dev/shm`, where there is one and TMPDIR names no other
    place), as for the PostgreSQL test servers: the tests' databases are thrown away anyway,
    and on a busy disk their writes, and removing an old run's two thousand files at the end
    of each run, took seconds."""
    memory = postgres.MEMORY
    if (config.option.basetemp is None and not os.environ.get("PYTEST_DEBUG_TEMPROOT")
            and not os.environ.get("TMPDIR") and memory.is_dir()
            and os.access(memory, os.W_OK)):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(memory)
    keep_bytecode(config)


def keep_bytecode(config: pytest.Config) -> None:
    """Compiled modules are kept (in `__pycache__`, which git ignores) even where
    PYTHONDONTWRITEBYTECODE says not to: without them every worker rewrote the asserts of every
    test module anew, and every bot process the tests start compiled the project again, some
    4 s of work each time. Set in the first process, so the workers and bot processes it
    starts inherit it."""
    if hasattr(config, "workerinput"):
        return
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto`: two workers more than the cores this process may use. Some thirty tests wait
    on the real clock for most of their time (a bot process, a browser, a stop's grace), and
    the extra workers keep the cores busy meanwhile. PYTEST_XDIST_AUTO_NUM_WORKERS still
    decides when it is set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # (not on Linux)
        cores = os.cpu_count() or 1
    return cores + 2


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under work stealing, the tests that wait on the real clock go early in every worker's
    share, so that no worker is left alone with them at the end (`tests.support.spread`)."""
    given = getattr(config, "workerinput", {})
    workers = int(given.get("workercount", 0))
    if workers > 1 and given.get("dist") == "worksteal":
        items[:] = spread(items, workers,
                          lambda item: item.get_closest_marker("real_time") is not None)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Tell each xdist worker how tests are handed out (a worker's own `dist` reads "no")."""
    node.workerinput["dist"] = node.config.getoption("dist")


def pytest_asyncio_loop_factories(config: pytest.Config, item: pytest.Item
                                  ) -> Mapping[str, Callable[[], asyncio.AbstractEventLoop]]:
    if item.get_closest_marker("real_time") is not None:
        return {"real": asyncio.new_event_loop}
    return {"virtual": virtual_time.VirtualLoop}


@pytest.fixture(autouse=True, scope="session")
def one_tls_context() -> Iterator[None]:
    """Every Telegram bot a test starts opens two HTTP clients, and each read the system's
    certificates anew (some 40 ms of work); the tests speak plain HTTP to 127.0.0.1 only, so
    every client shares the first context made with the default settings."""
    from httpx._transports import default

    make = default.create_ssl_context
    made: dict[bool, ssl.SSLContext] = {}

    def shared(verify: object = True, cert: object = None, trust_env: bool = True
               ) -> ssl.SSLContext:
        if verify is not True or cert is not None:
            return make(verify=verify, cert=cert, trust_env=trust_env)  # type: ignore[arg-type]
        if trust_env not in made:
            made[trust_env] = make(verify=verify, cert=cert, trust_env=trust_env)
        return made[trust_env]

    default.create_ssl_context = shared  # type: ignore[assignment]
    yield
    default.create_ssl_context = make


@pytest.fixture(autouse=True)
def secrets_hidden_by_this_test_only() -> Iterator[None]:
    """A bot hides its token from every log line of the process from then on; a test's token
    ("t", "x") must not stay hidden in the tests that run after it in the same worker, where
    it would cut every "t" out of their log lines."""
    hidden = set(logs._SECRETS)
    yield
    logs._SECRETS.clear()
    logs._SECRETS.update(hidden)


@pytest.fixture(autouse=True)
def threads_keep_the_clock() -> Iterator[None]:
    """Database queries and Telegram's HTTP requests count as work outside the loop."""
    with virtual_time.track_threads():
        yield


@pytest.fixture(autouse=True)
def no_thread_left_behind() -> Iterator[None]:
    """A database connection left open keeps a worker thread alive, and the test process would
    never exit; fail the test that leaked it instead."""
    before = set(threading.enumerate())
    yield
    for thread in set(threading.enumerate()) - before:
        if not thread.daemon:
            thread.join(timeout=2)
            assert not thread.is_alive(), f"a thread was left running: {thread.name}"


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[postgres.Server]:
    try:
        server = postgres.server()
    except postgres.ServerMissing as exc:
        missing = str(exc)
    else:
        yield server
        server.stop()
        return
    pytest.fail(missing, pytrace=False)


@pytest.fixture
def postgres_url(postgres_server: postgres.Server) -> Iterator[str]:
    url = postgres_server.create_database()
    yield url
    postgres_server.drop_database(url)


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    """The fake Bot API, with every simulated person having opened a private chat with the
    bot (so it may write to them); a module that needs another cast defines its own."""
    async with FakeTelegram() as fake:
        for user in (*PEOPLE, STRANGER):
            fake.start_bot(user)
        yield fake
