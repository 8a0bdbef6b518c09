"""Computer-player levels: how often one strong (or easy) seat among normal seats wins, and how
long the strong player thinks per move.

Run by hand (not a test): `.venv/bin/python benchmarks/levels.py [--games N] [--only GAME,…]
[--level strong|easy] [--setup one|pair]`. Every game of `games.GAMES` is played at its default
options and its usual number of players (at most `MOST`: Kap Tai Shap at 4), exactly as `gupai
sim GAME --strategy strong,normal,…` plays it (the same `simulate`), with the strong seat's
every move timed. The 95 % interval of the share of wins is the normal approximation. The
targets: at least 1.3× the fair share of wins in 3–4 player games, at least 60 % in
2-player games, and within 200 ms a move. The machine is shared and noisy: the move times are
wall-clock times of this process, and beside them the processor time the moves took (what the
search costs on an idle machine).

A game played in partnerships (`Rules.teams`) is measured in its two set-ups (the levels' rule
for Deer Hunt): `pair`, the level on both seats of team 0 against normal seats, which must win
at least 60 % of the deals; and `one`, the level on seat 0 with a normal partner against two
normal seats, which must win more than half. A match of several deals counts as several deals
here (their winners, a deal nobody won counting against), and the mean difference is the chips
the level's team won a deal.
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
from games.sim import SimStats, simulate

MOST = 4
"""Players at most: the issue's margins are stated for 2-player and 3–4 player games, so a game
usually played by more (Kap Tai Shap) is played by four."""


def timing(cls: type[Any], times: list[float], cpu: list[float]) -> Callable[[], None]:
    """Time every choice of the players of `cls` (wall clock and this thread's processor
    time); returns what undoes it."""
    original = cls.choose

    def choose(self: Any, view: Any, rng: random.Random) -> Action:
        started, used = time.perf_counter(), time.thread_time()
        action: Action = original(self, view, rng)
        times.append(time.perf_counter() - started)
        cpu.append(time.thread_time() - used)
        return action

    cls.choose = choose

    def undo() -> None:
        cls.choose = original

    return undo


def interval(share: float, n: int) -> tuple[float, float]:
    half = 1.96 * math.sqrt(share * (1 - share) / max(n, 1))
    return share - half, share + half


def timed(game: str, level: str, players: int, games_: int, seed: str, strategies: list[str]
          ) -> tuple[SimStats, list[float], list[float]]:
    rules = games.get(game)
    times: list[float] = []
    cpu: list[float] = []
    undo = timing(type(make_player(game, level)), times, cpu)
    try:
        stats = simulate(rules, rules.options(), players, games_, seed, strategies)
    finally:
        undo()
    return stats, times or [0.0], cpu or [0.0]


def ms(times: list[float]) -> str:
    return f"{1000 * sum(times) / len(times):>8.1f} {1000 * max(times):>7.1f}"


def partnership(game: str, level: str, setup: str, games_: int, seed: str) -> None:
    """One set-up of a partnership game: the level's team's share of the deals."""
    rules = games.get(game)
    n = rules.default_players
    teams = rules.teams(n)
    assert teams is not None
    strategies = ([level if teams[s] == teams[0] else "normal" for s in range(n)]
                  if setup == "pair" else [level] + ["normal"] * (n - 1))
    stats, times, cpu = timed(game, level, n, games_, seed, strategies)
    share = stats.deal_wins[0] / stats.deals
    low, high = interval(share, stats.deals)
    level_deals = stats.level_deals / stats.deals
    difference = stats.chips[0] / stats.deals
    print(f"{game:<12} {setup:>5} {stats.deals:>6} {100 * share:>6.1f} "
          f"{100 * low:>5.1f}–{100 * high:<5.1f} {100 * level_deals:>6.1f} "
          f"{difference:>+7.2f} {ms(times)} {1000 * sum(cpu) / len(cpu):>7.1f} "
          f"{1000 * max(cpu):>7.1f} {len(times):>6}",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", help="comma-separated game ids")
    parser.add_argument("--level", default="strong", choices=("strong", "easy"))
    parser.add_argument("--seed", default="levels")
    parser.add_argument("--setup", choices=("one", "pair"),
                        help="a partnership game's set-up (default: both)")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    chosen = [(game, rules) for game, rules in games.GAMES.items()
              if not only or game in only]
    alone = [(g, r) for g, r in chosen if r.teams(r.default_players) is None]
    paired = [(g, r) for g, r in chosen if r.teams(r.default_players) is not None]
    if alone:
        print(f"{'game':<12} {'players':>7} {'games':>6} {'deals':>6} {'win %':>6} "
              f"{'fair':>5} {'×fair':>6} {'95 % interval':>13} {'mean ms':>8} {'max ms':>7} "
              f"{'cpu ms':>7} {'cpu max':>7} {'moves':>6}")
    for game, rules in alone:
        n = max(min(rules.default_players, MOST), rules.min_players)
        stats, times, cpu = timed(game, args.level, n, args.games, args.seed,
                                  [args.level] + ["normal"] * (n - 1))
        share = stats.wins[0] / stats.games
        low, high = interval(share, stats.games)
        if n != 2:
            low, high = low * n, high * n
        said = (f"{100 * low:.1f}–{100 * high:.1f} %" if n == 2 else f"{low:.2f}–{high:.2f}×")
        print(f"{game:<12} {n:>7} {stats.games:>6} {stats.deals:>6} {100 * share:>6.1f} "
              f"{100 / n:>5.1f} {share * n:>6.2f} {said:>13} {ms(times)} "
              f"{1000 * sum(cpu) / len(cpu):>7.1f} {1000 * max(cpu):>7.1f} {len(times):>6}",
              flush=True)
    if paired:
        print(f"{'game':<12} {'setup':>5} {'deals':>6} {'win %':>6} {'95 % interval':>11} "
              f"{'level %':>6} {'diff':>7} {'mean ms':>8} {'max ms':>7} {'cpu ms':>7} "
              f"{'cpu max':>7} {'moves':>6}")
    for game, _ in paired:
        for setup in [args.setup] if args.setup else ["pair", "one"]:
            partnership(game, args.level, setup, args.games, args.seed)


if __name__ == "__main__":
    main()
