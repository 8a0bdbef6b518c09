"""`gupai verify`: deal a finished deal again from its seed, to check it was dealt fairly.

Rules source: docs/architecture.md §1.3 (a deal is a function of its options, players and seed) and
`games/seeds.py` (each deal's seed is derived from a table's secret; its fingerprint is shown
before the first move). A table names the seed once the deal is over; whoever doubts the tiles
runs this command with the seed and the fingerprint they saw. The fingerprint is checked first:
a seed that does not match it proves nothing, so nothing is dealt from it.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence

import games
from games import seeds
from games.engine import GameError
from games.tiles import TileSet


def verify(seed: str, fingerprint: str, game: str, players: int | None = None, leader: int = 1,
           preset: str | None = None, options: Mapping[str, str] | None = None) -> int:
    """Print the deal `seed` deals (status 0), or refuse a seed that does not match its
    fingerprint (status 1) before anything is dealt. An unknown game or a bad setting is a
    usage error: `GameError`, which the command line reports. `leader` counts seats from 1,
    as the table does."""
    if not seeds.matches(seed, fingerprint):
        if seeds.well_formed(fingerprint):
            reason = "does not match this seed, so the deal cannot be checked with it"
        else:
            reason = (f"is not a fingerprint (at least {seeds.MIN_FINGERPRINT_CHARS} hex "
                      "characters)")
        print(f"gupai: the fingerprint {fingerprint!r} {reason}", file=sys.stderr)
        return 1
    rules = games.get(game)
    chosen = rules.parse_options(preset, options or {})
    count = rules.default_players if players is None else players
    rules.check_players(count)
    if not 1 <= leader <= count:
        raise GameError(f"--leader must be a seat from 1 to {count}")
    hands, stock = seeds.deal_again(rules, chosen, count, seed, leader - 1)
    print(f"{rules.id}, {count} players, seat {leader} leads: the seed matches its fingerprint")
    for line in deal_lines(rules.tileset(chosen), hands, stock):
        print(line)
    return 0


def deal_lines(tiles: TileSet, hands: Sequence[Sequence[int]], stock: Sequence[int]
               ) -> list[str]:
    """One line per seat (counted from 1, as the table counts them) and one for the stock,
    each tile by its faces: identical tiles are interchangeable at the table, so a copy's id
    would say nothing a player can check."""
    lines = [f"seat {seat}: {faces(tiles, hand)}" for seat, hand in enumerate(hands, 1)]
    lines.append(f"stock: {faces(tiles, stock) if stock else '(none)'}")
    return lines


def faces(tiles: TileSet, shown: Sequence[int]) -> str:
    """"[6:6] [3:1] [5:2]": tiles by their faces, in the order given."""
    return " ".join(tiles.label(t) for t in shown)
