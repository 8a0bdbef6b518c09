"""A fixture that fails a test when the code under test logs an error.

discord.py, python-telegram-bot and the outboxes only log what a handler or a delivery lets
escape, so an error logged while a test runs is a failure the test would otherwise never see.
Every phase is read (setup, the test itself, teardown): at teardown `caplog.records` holds
only the teardown's own records.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def no_errors_logged(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    yield
    errors = [r for when in ("setup", "call", "teardown") for r in caplog.get_records(when)
              if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
