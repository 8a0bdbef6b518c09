"""The simulator beside the seed author's Java one, measured whole process
(start-up and printing included), both sides in turn on the same processors in one run.

Run by hand (not a test): `.venv/bin/python benchmarks/versus_java.py [--java 'COMMAND']
[--deals 4000,20000] [--rounds 3] [--cpus 0] [--jobs 1] [--only kapten,…]`. The author's
simulator is built by hand and is never part of this repository; `--java` names the command
that plays it, to which this adds the case's name (`kapten`, `kaptaishap`, `dragon`,
`dingniu`, `tiengow`) and the number of deals, for example
`--java 'java -cp /tmp/navpil/classes:/tmp/driver Sim'` with a small class `Sim` that runs the
author's own `RunManySimulations` (or Ding Niu's loop) that many deals. Without `--java` it
prints this project's figures alone.

The sides take turns (this project, the author's, this project, …) under `taskset -c CPUS`, so
a machine whose speed drifts slows both alike; each figure is the median of `--rounds` runs and
each ratio the median of the ratios of the runs taken side by side, of the wall-clock seconds
and of the processor seconds (user and system, what a busy machine disturbs least). A ratio above
1 means this project is faster. The last line sets the Tien Gow heuristic's cost against the
game with random players (the issue's target: at most 2×).
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CASES: dict[str, tuple[str, list[str], str | None]] = {
    # name: title, this project's `gupai sim` arguments, the author's case (None: he has none)
    "kapten": ("Kap Ten, Culin, even deal",
               ["kapten", "--option", "deal=even", "--strategy", "heuristic"], "kapten"),
    # The author's Kap Tai Shap (his `main`) takes the last discard or draws, and draws nothing
    # after a take: this project's classical rules, dealt evenly as he deals. The Culin rules
    # (this project's default) are timed on this side alone.
    "kaptaishap": ("Kap Tai Shap, 10 players, 4 sets, classical",
                   ["kaptaishap", "--players", "10", "--sets", "4", "--option", "rules=classical",
                    "--option", "deal=even", "--strategy", "heuristic"], "kaptaishap"),
    "kaptaishap-culin": ("Kap Tai Shap, 10 players, 4 sets, Culin",
                         ["kaptaishap", "--players", "10", "--sets", "4", "--strategy",
                          "heuristic"], None),
    "dragon": ("Dragon, 4 players", ["dragon", "--strategy", "heuristic"], "dragon"),
    "dingniu": ("Ding Niu", ["dingniu", "--strategy", "heuristic"], "dingniu"),
    "tiengow-random": ("Tien Gow, random players", ["tiengow", "--strategy", "random"],
                       "tiengow"),
    "tiengow": ("Tien Gow, this project's heuristic", ["tiengow", "--strategy", "heuristic"],
                None),
}
"""The games as `benchmarks/sim_profile.py` profiles them."""


def timed(command: list[str]) -> tuple[float, float]:
    """Wall and processor seconds (the children's user and system time) of one whole run."""
    before = os.times()
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          check=False)
    wall = time.perf_counter() - started
    after = os.times()
    if done.returncode:
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-3:]
        sys.exit(f"{shlex.join(command)} failed ({done.returncode}): {' / '.join(tail)}")
    cpu = (after.children_user - before.children_user
           + after.children_system - before.children_system)
    return wall, cpu


def ours(args: list[str], deals: int, jobs: int, pin: list[str]) -> list[str]:
    return [*pin, sys.executable, "-m", "bot.cli", "sim", *args, "--games", str(deals),
            "--seed", "versus", "--jobs", str(jobs)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--java", help="the command that plays the author's simulator, given "
                                       "a case's name and a number of deals")
    parser.add_argument("--deals", default="4000,20000",
                        help="deal counts, comma-separated (default 4000,20000)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each side (default 3)")
    parser.add_argument("--cpus", default="0",
                        help="processors both sides are pinned to, as taskset -c takes them "
                             "(default 0; empty: not pinned)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="this project's worker processes (default 1)")
    parser.add_argument("--only", help=f"only these cases, comma-separated ({', '.join(CASES)})")
    args = parser.parse_args()
    names = args.only.split(",") if args.only else list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        parser.error(f"unknown case {', '.join(unknown)} (known: {', '.join(CASES)})")
    pin: list[str] = []
    if args.cpus:
        if not shutil.which("taskset"):
            parser.error("taskset is not installed: give --cpus '' to run unpinned")
        pin = ["taskset", "-c", args.cpus]
    java = shlex.split(args.java) if args.java else None
    counts = [int(n) for n in args.deals.split(",")]
    print(f"pinned to {args.cpus or 'nothing'}; this project with --jobs {args.jobs}; "
          f"median of {args.rounds} runs; ratio = author's seconds / this project's")
    medians: dict[tuple[str, int], float] = {}
    for name in names:
        title, sim, theirs = CASES[name]
        for deals in counts:
            walls: list[float] = []
            cpus: list[float] = []
            ratios: list[float] = []
            java_walls: list[float] = []
            java_cpus: list[float] = []
            cpu_ratios: list[float] = []
            for _ in range(args.rounds):
                wall, cpu = timed(ours(sim, deals, args.jobs, pin))
                walls.append(wall)
                cpus.append(cpu)
                if java and theirs:
                    java_wall, java_cpu = timed([*pin, *java, theirs, str(deals)])
                    java_walls.append(java_wall)
                    java_cpus.append(java_cpu)
                    ratios.append(java_wall / wall)
                    cpu_ratios.append(java_cpu / cpu)
            medians[name, deals] = statistics.median(cpus)
            line = (f"{title:<44} {deals:>6} deals: {statistics.median(walls):7.2f} s "
                    f"({statistics.median(cpus):6.2f} s processor)")
            if ratios:
                line += (f"  author {statistics.median(java_walls):7.2f} s "
                         f"({statistics.median(java_cpus):6.2f} s processor)  "
                         f"ratio {statistics.median(ratios):.2f}× "
                         f"({statistics.median(cpu_ratios):.2f}× processor)")
            print(line, flush=True)
    for deals in counts:
        if ("tiengow", deals) in medians and ("tiengow-random", deals) in medians:
            print(f"Tien Gow heuristic / random players (processor seconds), {deals} deals: "
                  f"{medians['tiengow', deals] / medians['tiengow-random', deals]:.2f}×")


if __name__ == "__main__":
    main()
