"""`GUPAI_SHARDS`: which Discord shards a process runs, handed to discord.py's sharding."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.discord.discord_adapter import DiscordBot
from bot.service.shards import Shards, parse_shards
from storage import Storage


@pytest.mark.parametrize(("text", "shards"), [
    ("", None),
    ("0/1", Shards((0,), 1)),
    ("0,1/4", Shards((0, 1), 4)),
    (" 3, 2 /4", Shards((2, 3), 4)),
])
def test_shards_are_read_as_a_host_writes_them(text: str, shards: Shards | None) -> None:
    assert parse_shards(text) == shards


@pytest.mark.parametrize(("text", "said"), [
    ("0,1", "written like 0,1/4"),
    ("a/4", "written like 0,1/4"),
    ("4/4", "each shard must be 0 to 3"),
    ("/4", "each shard must be 0 to 3"),
    ("0/0", "the shard count must be 1 to"),
])
def test_a_wrong_shard_setting_says_how_to_write_it(text: str, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        parse_shards(text)


def test_a_server_belongs_to_the_shard_discord_sends_its_events_on() -> None:
    shards = Shards((0, 1), 4)
    # Discord's rule: (guild_id >> 22) % shard_count.
    assert shards.holds(0 << 22) and shards.holds(5 << 22)
    assert not shards.holds(2 << 22) and not shards.holds(7 << 22)


async def test_the_discord_client_runs_only_the_shards_it_is_given(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "x.sqlite3")
    try:
        bot = DiscordBot("t", storage, shards=Shards((0, 1), 4))
        assert isinstance(bot.client, discord.AutoShardedClient)
        assert bot.client.shard_ids == [0, 1] and bot.client.shard_count == 4
        alone = DiscordBot("t", storage)
        assert alone.client.shard_ids is None and alone.client.shard_count is None
    finally:
        await storage.close()


def test_the_lease_and_the_shards_are_read_from_the_settings() -> None:
    from bot.launch.run import sharing

    timing, shards = sharing({"GUPAI_LEASE": "5", "GUPAI_SHARDS": "1/2"})
    assert timing.lease == 5.0 and shards == Shards((1,), 2)
    timing, shards = sharing({})
    assert timing.lease == 15.0 and shards is None
    for wrong in ("0", "abc", "100000"):
        with pytest.raises(ValueError, match="GUPAI_LEASE must be 1 to 600 seconds"):
            sharing({"GUPAI_LEASE": wrong})


async def test_a_shard_process_takes_over_only_its_own_servers_games(tmp_path: Path) -> None:
    from bot.discord.discord_adapter import on_shards
    from storage import Session

    def game(guild: int) -> Session:
        return Session(id=1, chat_id=1, topic="", game="dragon", options={}, seats=[],
                       stake=1, creator_id=None, status="active", state=None, version=1,
                       deadline=None, messages={"place": {"chat": str(guild)}})

    shards = Shards((0, 1), 4)
    assert await on_shards(shards, game(5 << 22))
    assert not await on_shards(shards, game(6 << 22))
    storage = await Storage.open(tmp_path / "x.sqlite3")
    try:
        bot = DiscordBot("t", storage, shards=shards)
        mine = bot.manager.requests.worker.mine
        assert mine is not None and not await mine(game(6 << 22))
    finally:
        await storage.close()
