"""Checks that apply to every test."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest


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
