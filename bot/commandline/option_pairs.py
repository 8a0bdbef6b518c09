"""`--option NAME=VALUE`, as every command that plays a game reads it (`gupai sim`, `gupai play`,
`gupai verify`, `gupai replay`).

Apart from the command line itself (`bot.cli`) and from `gupai sim`
(`bot.commandline.sim_command`), which both use it: loading it loads no game.
"""

from __future__ import annotations

from collections.abc import Sequence


def option_pairs(items: Sequence[str]) -> dict[str, str]:
    """`--option NAME=VALUE`s by name; GameError for one written otherwise."""
    from games.engine import GameError

    pairs: dict[str, str] = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq or not name:
            raise GameError(f"options are written name=value, not {item!r}")
        pairs[name.strip()] = value.strip()
    return pairs
