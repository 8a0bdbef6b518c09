"""Fixtures the Telegram tests share: a started bot in front of the module's fake server.

Each test module keeps its own `server` fixture (the people who opened the bot, the group's
title); `group` starts the bot on whichever `server` the requesting module defines.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.support.fake_telegram import FakeTelegram
from tests.support.telegram_group import Group


@pytest.fixture
async def group(server: FakeTelegram, tmp_path: Path) -> AsyncIterator[Group]:
    t = Group(server, tmp_path / "gupai.sqlite3")
    await t.start()
    yield t
    await t.stop()
