"""Where a simulation spends its time: each game that `benchmarks/versus_java.py` times
beside the seed author's simulator, played under cProfile, its busiest functions listed.

Run by hand (not a test): `.venv/bin/python benchmarks/sim_profile.py [--games N] [--only a,b]
[--top N] [--sort tottime|cumtime]`. It plays what `gupai sim GAME --strategy heuristic
--jobs 1` plays (the same options, seed and blocks, `games.sim.simulate`), in this process;
`--warm N` plays N other games first, unprofiled, to profile the rest of a long run.
The profiler's own cost falls on every call alike, so the figures say where the time goes,
not how long a run without it takes (`benchmarks/versus_java.py` times the whole process).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time
from typing import Any

import games
from games.sim import simulate

CASES: dict[str, tuple[str, int, dict[str, Any], str]] = {
    # name: game, players, options, strategy
    "kapten": ("kapten", 2, {"deal": "even"}, "heuristic"),
    "kaptaishap": ("kaptaishap", 10, {"sets": 4, "rules": "classical", "deal": "even"},
                   "heuristic"),
    "kaptaishap-culin": ("kaptaishap", 10, {"sets": 4}, "heuristic"),
    "dragon": ("dragon", 4, {}, "heuristic"),
    "dingniu": ("dingniu", 4, {}, "heuristic"),
    "tiengow-random": ("tiengow", 4, {}, "random"),
    "tiengow": ("tiengow", 4, {}, "heuristic"),
}
"""Kap Ten under Culin's rules dealt evenly, Kap Tai Shap with ten players and four sets (under
the classical rules dealt evenly, as the author plays it, and under Culin's), and the others at
their usual players and options, as `benchmarks/versus_java.py` plays them."""


def profile(name: str, count: int, seed: str, warm: int) -> tuple[pstats.Stats, float]:
    game, players, values, strategy = CASES[name]
    rules = games.get(game)
    options = rules.options(**values)
    if warm:
        simulate(rules, options, players, warm, f"{seed}/warm", [strategy])
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    simulate(rules, options, players, count, seed, [strategy])
    profiler.disable()
    return pstats.Stats(profiler), time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per case (default 1000)")
    parser.add_argument("--only", help=f"only these cases, comma-separated ({', '.join(CASES)})")
    parser.add_argument("--top", type=int, default=25, help="functions listed (default 25)")
    parser.add_argument("--sort", default="tottime", choices=("tottime", "cumtime"),
                        help="order: time in the function itself (default) or with its callees")
    parser.add_argument("--seed", default="gupai", help="the simulation's seed (default gupai)")
    parser.add_argument("--warm", type=int, default=0,
                        help="games played first, unprofiled, so that what the players remember "
                             "(`games.kap_ai`) is as in a long run (default 0)")
    args = parser.parse_args()
    names = args.only.split(",") if args.only else list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        parser.error(f"unknown case {', '.join(unknown)} (known: {', '.join(CASES)})")
    for name in names:
        stats, seconds = profile(name, args.games, args.seed, args.warm)
        out = io.StringIO()
        stats.stream = out  # type: ignore[attr-defined]
        stats.strip_dirs().sort_stats(args.sort).print_stats(args.top)
        print(f"== {name}: {args.games} games in {seconds:.2f} s under the profiler")
        print(out.getvalue().split("\n", 3)[-1].strip("\n"))
        print()


if __name__ == "__main__":
    main()
