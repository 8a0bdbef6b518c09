"""Playout throughput: deals per second for every game, with random and heuristic players.

Run by hand (not a test): `.venv/bin/python benchmarks/playouts.py [--deals N]`.
Machines are shared and noisy, so compare the ratios within one run rather than absolute figures
across runs. The target: 10,000 deals of any game in seconds, not minutes.
"""

from __future__ import annotations

import argparse
import time

import games
from games.sim import simulate

CASES = [
    ("dragon", None, 4),
    ("dragon", "two-arm", 4),
    ("dragon", None, 2),
    ("cedeng", None, 4),
    ("tails", None, 3),
    ("tiengow", "modern", 4),
    ("tiengow", "pure", 4),
    ("tiengow", "streak", 4),
    ("tiengow", "early-death", 4),
    ("kapten", "culin", 2),
    ("kapten", "classical", 2),
    ("kaptaishap", "culin", 10),       # four sets: ⌈2n/5⌉
    ("kaptaishap", "classical", 10),
    ("threedozen", None, 4),
    ("threedozen", "forced-pickup", 4),
    ("domino", None, 2),
    ("domino", None, 4),
]


def rate(game: str, preset: str | None, players: int, strategy: str, deals: int) -> float:
    rules = games.get(game)
    options = rules.options(preset=preset)
    # Matches that end by themselves count as one game each; size the run in deals either way.
    per_game = 7 if rules.finite_match(options) else 1
    started = time.perf_counter()
    stats = simulate(rules, options, players, max(deals // per_game, 1), "bench", [strategy])
    return stats.deals / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3000)
    args = parser.parse_args()
    print(f"{'game':<24} {'players':>7} {'random/s':>10} {'heuristic/s':>12} {'ratio':>6} "
          f"{'10k deals (heur.)':>18}")
    for game, preset, players in CASES:
        rnd = rate(game, preset, players, "random", args.deals)
        heur = rate(game, preset, players, "heuristic", args.deals)
        name = game if preset is None else f"{game} {preset}"
        print(f"{name:<24} {players:>7} {rnd:>10,.0f} {heur:>12,.0f} {heur / rnd:>6.2f} "
              f"{10_000 / heur:>16.1f} s")


if __name__ == "__main__":
    main()
