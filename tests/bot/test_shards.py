"""`GUPAI_SHARDS`: which Discord shards a process runs, handed to discord.py's sharding."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.discord_adapter import DiscordBot
from bot.shards import Shards, parse_shards
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
