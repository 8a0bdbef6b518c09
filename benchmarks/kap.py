"""Kap Ten and Kap Tai Shap playouts: deals per second with heuristic players, and how long
10,000 ten-player Kap Tai Shap deals take (the aim: well under a minute on one core).

Run by hand (not a test): `.venv/bin/python benchmarks/kap.py [--deals N] [--big N]`.
Machines are shared and noisy, so read the ratios printed by one run rather than comparing
absolute figures across runs. The heuristic remembers the hand signatures it has analysed
(`games/kap_ai.py`); every measurement here starts from an empty memory, so the figures include
the warm-up a fresh `gupai sim` process pays.
"""

from __future__ import annotations

import argparse
import time

import games
from games import kap_ai
from games.sim import SimStats, simulate

CASES = [
    # game, preset, players, options
    ("kapten", "culin", 2, {}),
    ("kapten", "classical", 2, {}),
    ("kaptaishap", "culin", 10, {"sets": 4}),
    ("kaptaishap", "classical", 10, {"sets": 4}),
]


def run(game: str, preset: str, players: int, extra: dict[str, int], strategy: str,
        deals: int, seed: str = "bench") -> tuple[SimStats, float]:
    rules = games.get(game)
    options = rules.options(preset=preset, **extra)
    kap_ai.signatures.cache_clear()
    started = time.perf_counter()
    stats = simulate(rules, options, players, deals, seed, [strategy])
    return stats, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per row (default 2000)")
    parser.add_argument("--big", type=int, default=10_000,
                        help="deals in the long Kap Tai Shap run (default 10000)")
    args = parser.parse_args()

    print(f"{'game':<22} {'players':>7} {'random/s':>9} {'heuristic/s':>12} {'heur/rand':>10} "
          f"{'÷ first':>8} {'mean turn':>10}")
    first: float | None = None
    for game, preset, players, extra in CASES:
        rnd, rnd_s = run(game, preset, players, extra, "random", args.deals)
        heur, heur_s = run(game, preset, players, extra, "heuristic", args.deals)
        rnd_rate, heur_rate = rnd.deals / rnd_s, heur.deals / heur_s
        first = first or heur_rate
        print(f"{game + ' ' + preset:<22} {players:>7} {rnd_rate:>9,.0f} {heur_rate:>12,.0f} "
              f"{heur_rate / rnd_rate:>10.2f} {heur_rate / first:>8.2f} "
              f"{heur.mean_win_turn() or 0:>10.2f}")

    print()
    for preset in ("culin", "classical"):
        stats, seconds = run("kaptaishap", preset, 10, {"sets": 4}, "heuristic", args.big,
                             seed="bench-big")
        print(f"{stats.deals:,} Kap Tai Shap deals ({preset}, 10 players, 4 sets, heuristic): "
              f"{seconds:.1f} s, {stats.deals / seconds:,.0f} deals/s, "
              f"{stats.turns / seconds:,.0f} moves/s")


if __name__ == "__main__":
    main()
