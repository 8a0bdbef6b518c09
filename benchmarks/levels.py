"""Computer-player levels: how often one strong (or easy) seat among normal seats wins, and how
long the strong player thinks per move.

Run by hand (not a test): `.venv/bin/python benchmarks/levels.py [--games N] [--only GAME,…]
[--level strong|easy]`. Every game of `games.GAMES` is played at its default options and its
usual number of players (at most `MOST`: Kap Tai Shap at 4), exactly as `gupai sim GAME
--strategy strong,normal,…` plays it (the same `simulate`), with the strong seat's every move
timed. The 95 % interval of the share of wins is the normal approximation. The targets (issue
19): at least 1.3× the fair share of wins in 3–4 player games, at least 60 % in 2-player games,
and within 200 ms a move. The machine is shared and noisy: the move times are wall-clock times
of this process.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable
from typing import Any

import games
from games.engine import Action
from games.players import make_player
from games.sim import simulate

MOST = 4
"""Players at most: the issue's margins are stated for 2-player and 3–4 player games, so a game
usually played by more (Kap Tai Shap) is played by four."""


def timing(cls: type[Any], times: list[float]) -> Callable[[], None]:
    """Time every choice of the players of `cls`; returns what undoes it."""
    original = cls.choose

    def choose(self: Any, view: Any, rng: random.Random) -> Action:
        started = time.perf_counter()
        action: Action = original(self, view, rng)
        times.append(time.perf_counter() - started)
        return action

    cls.choose = choose

    def undo() -> None:
        cls.choose = original

    return undo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", help="comma-separated game ids")
    parser.add_argument("--level", default="strong", choices=("strong", "easy"))
    parser.add_argument("--seed", default="levels")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    print(f"{'game':<12} {'players':>7} {'games':>6} {'deals':>6} {'win %':>6} {'fair':>5} "
          f"{'×fair':>6} {'95 % interval':>13} {'mean ms':>8} {'max ms':>7} {'moves':>6}")
    for game, rules in games.GAMES.items():
        if only and game not in only:
            continue
        options = rules.options()
        n = max(min(rules.default_players, MOST), rules.min_players)
        times: list[float] = []
        undo = timing(type(make_player(game, args.level)), times)
        try:
            stats = simulate(rules, options, n, args.games, args.seed,
                             [args.level] + ["normal"] * (n - 1))
        finally:
            undo()
        share = stats.wins[0] / stats.games
        half = 1.96 * math.sqrt(share * (1 - share) / stats.games)
        low, high = (share - half, share + half) if n == 2 else ((share - half) * n,
                                                                  (share + half) * n)
        interval = (f"{100 * low:.1f}–{100 * high:.1f} %" if n == 2
                    else f"{low:.2f}–{high:.2f}×")
        moves = len(times)
        times = times or [0.0]
        print(f"{game:<12} {n:>7} {stats.games:>6} {stats.deals:>6} {100 * share:>6.1f} "
              f"{100 / n:>5.1f} {share * n:>6.2f} {interval:>13} "
              f"{1000 * sum(times) / len(times):>8.1f} {1000 * max(times):>7.1f} "
              f"{moves:>6}", flush=True)


if __name__ == "__main__":
    main()
