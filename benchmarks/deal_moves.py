"""Bytes each deal keeps to be replayed (`storage.moves`): deals of every game played through
the session layer by two people and computer seats, each as the bot keeps it.

Run by hand (not a test): `.venv/bin/python benchmarks/deal_moves.py [--deals N]`. For every
game (`games.GAMES`) a match of about N deals is played at its usual table; each settled
deal's seed, setup and moves are measured as stored (their text columns, all ASCII), and the
moves alone per move. The figures are sizes, not times: the machine's noise does not touch
them.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from games import replay
from tests.support.helpers import short_match
from tests.support.session_helpers import BOB, OLENA, close, lobby, manager, play_out


async def measured(game: str, deals: int, folder: Path) -> list[tuple[int, int, int]]:
    """(bytes kept, moves, bytes of the moves' text) per settled deal of one match."""
    rules = games.get(game)
    m, rec = await manager(folder / f"{game}.sqlite3")
    try:
        sid = await lobby(m, rec, [game, *short_match(rules, deals)], [OLENA, BOB],
                          computers=max(0, rules.default_players - 2))
        await play_out(m, rec, [OLENA, BOB], limit=600)
        found = []
        for number in range(deals * 10):
            deal_id = await m.storage.moves.deal_of(sid, number)
            if deal_id is None:
                break
            deal = await m.storage.moves.deal(deal_id)
            assert deal is not None and deal.moves is not None
            kept = deal.moves
            found.append((kept.size(), len(replay.decode(kept.moves)), len(kept.moves)))
        return found
    finally:
        await close(m)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=5)
    args = parser.parse_args()
    print(f"{'game':<12}{'deals':>6}{'moves/deal':>12}{'bytes/deal':>12}{'most':>7}"
          f"{'bytes/move':>12}")
    every: list[tuple[int, int, int]] = []
    with tempfile.TemporaryDirectory() as folder:
        for game in games.GAMES:
            found = await measured(game, args.deals, Path(folder))
            every += found
            print(f"{game:<12}{len(found):>6}{statistics.median(f[1] for f in found):>12.0f}"
                  f"{statistics.median(f[0] for f in found):>12.0f}"
                  f"{max(f[0] for f in found):>7}"
                  f"{sum(f[2] for f in found) / max(1, sum(f[1] for f in found)):>12.1f}")
    print(f"{'all':<12}{len(every):>6}{statistics.median(f[1] for f in every):>12.0f}"
          f"{statistics.median(f[0] for f in every):>12.0f}{max(f[0] for f in every):>7}"
          f"{sum(f[2] for f in every) / sum(f[1] for f in every):>12.1f}")


if __name__ == "__main__":
    asyncio.run(main())
