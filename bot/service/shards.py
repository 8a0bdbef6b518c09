"""Which Discord shards this process runs (`GUPAI_SHARDS`, e.g. `0,1/4`).

A bot in more servers than one gateway connection may carry runs several shards, each a share
of the servers (Discord's rule: a server's shard is `(guild_id >> 22) % shard_count`). With
`GUPAI_SHARDS` each process runs its own shards through discord.py's `AutoShardedClient`, and
takes over only the games of its shards' servers when another process dies (`bot.service.workers`).
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_SHARDS = 4096


@dataclass(frozen=True, slots=True)
class Shards:
    ids: tuple[int, ...]
    count: int

    def holds(self, guild_id: int) -> bool:
        """Whether a server's events come to this process."""
        return (guild_id >> 22) % self.count in self.ids

    def __str__(self) -> str:
        return f"{','.join(map(str, self.ids))}/{self.count}"


def parse_shards(text: str) -> Shards | None:
    """`0,1/4` (shards 0 and 1 of 4), `2/4`, or empty for no sharding. Raises ValueError with a
    sentence a host can act on."""
    text = text.strip()
    if not text:
        return None
    ids_text, slash, count_text = text.partition("/")
    try:
        if not slash:
            raise ValueError
        count = int(count_text)
        ids = tuple(sorted({int(part) for part in ids_text.split(",") if part.strip()}))
    except ValueError:
        raise ValueError(f"GUPAI_SHARDS is written like 0,1/4 (these shards / of how many), "
                         f"not {text!r}") from None
    if not 1 <= count <= MAX_SHARDS:
        raise ValueError(f"GUPAI_SHARDS: the shard count must be 1 to {MAX_SHARDS}, not {count}")
    if not ids or any(not 0 <= i < count for i in ids):
        raise ValueError(f"GUPAI_SHARDS: each shard must be 0 to {count - 1}: {text!r}")
    return Shards(ids, count)
