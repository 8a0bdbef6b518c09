"""Ding Niu's SuanZhangs: how often each computer level makes one, and how often it pays.

Rules source: docs/rules-book.md §2.11.3 and §2.11.6; decisions D-20 (what a block is), D-21 (a
forced block is no SuanZhang) and D-23 (a SuanZhang succeeds when its maker wins; else he pays 12).

Run by hand (not a test): `.venv/bin/python benchmarks/dingniu_blocks.py [--deals N]
[--strong-deals N] [--levels easy,normal,strong] [--others connecting] [--preset P]
[--seed S]`. As
`benchmarks/levels.py` does, one seat (seat 0) plays at the level measured and the other three
at the normal level, deal after deal of one match (the winner leads the next) as `gupai sim`
plays it, on the same deal seeds for every level. For seat 0 it counts the turns on which a
SuanZhang was within reach (an attachment that blocks, and another that does not) and how
many it took, the forced blocks, the SuanZhangs made and how many succeeded or failed, and
its chips per deal; the three seats beside it are counted together for comparison.
With `--others connecting` those three play the connecting games' heuristic instead
(`games.connecting_ai`: Ding Niu's normal level before it weighed a SuanZhang), which shows
what the weighing is worth.
Shares carry Wilson's 95 % interval, means the normal approximation's. The strong seat's every
move is timed (wall clock: the machine is shared and noisy).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games import connecting_ai
from games.dingniu import DingNiu, DingNiuState, block_of
from games.engine import Action, rng
from games.heuristic import ScoredPlayer
from games.players import make_player
from games.tiles import CHINESE

SEATS = 4


@dataclass
class Counts:
    """What one group of seats did over the deals."""

    seats: int
    chances: int = 0
    """Turns with a SuanZhang within reach: one attachment blocks, another does not."""
    taken: int = 0
    forced: int = 0
    made: int = 0
    succeeded: int = 0
    failed: int = 0
    chips: list[int] = field(default_factory=list)
    """Chips per seat and deal."""


def blocks(view: Any, action: Action) -> bool:
    """Whether `action` would make the deal's block, read from the line as the rules read it
    (`games.dingniu.block_of`): the rules' own test, written from a view."""
    if action.verb != "play" or view.block or CHINESE.double[action.tiles[0]]:
        return False
    tile = action.tiles[0]
    a, b = CHINESE.a[tile], CHINESE.b[tile]
    ends = list(view.ends)
    arm = action.arg or 0
    end = ends[arm]
    ends[arm] = b if a == end else a
    line = (*view.line, (tile, end, end, view.seat))
    return bool(block_of(line, tuple(ends), view.options.smothered))


def recorded(choose: Callable[[Any, random.Random], Action], counts: Counts,
             times: list[float] | None) -> Callable[[Any, random.Random], Action]:
    """`choose`, counting the SuanZhangs it had within reach and took (and timing it)."""

    def wrapped(view: Any, seat_rng: random.Random) -> Action:
        started = time.perf_counter()
        action = choose(view, seat_rng)
        if times is not None:
            times.append(time.perf_counter() - started)
        if view.options.suanzhang and not view.block:
            blocking = [blocks(view, a) for a in view.legal]
            if any(blocking) and not all(blocking):
                counts.chances += 1
                counts.taken += blocking[view.legal.index(action)]
        return action

    return wrapped


def play(level: str, deals: int, preset: str | None, seed: str, others: str = "normal"
         ) -> tuple[Counts, Counts, list[float]]:
    """Seat 0 at `level`, three seats at `others`; what each group did, and seat 0's move
    times."""
    rules = DingNiu()
    options = rules.options(preset)
    measured, beside = Counts(1), Counts(SEATS - 1)
    times: list[float] = []
    group = [measured, *[beside] * (SEATS - 1)]
    other = (ScoredPlayer(connecting_ai.rater) if others == "connecting"
             else make_player("dingniu", others))
    choosers = [recorded(make_player("dingniu", level).choose if s == 0 else other.choose,
                         group[s], times if s == 0 and level == "strong" else None)
                for s in range(SEATS)]
    seat_rngs = [rng(seed, f"player/{s}") for s in range(SEATS)]
    match = rules.start_match(options, SEATS, seed)
    for deal in range(deals):
        table = rules.table(rules.new_deal(options, SEATS, f"{seed}/{deal}/{match.deal}",
                                           match))
        while (seat := table.to_move()) is not None:
            table.play(choosers[seat](table.view(seat), seat_rngs[seat]))
        state: DingNiuState = table.state()
        result = rules.outcome(state)
        assert result is not None
        for s in range(SEATS):
            group[s].chips.append(result.deltas[s])
        if state.blocker is not None:
            counts = group[state.blocker]
            if not rules.suanzhang(state):
                counts.forced += 1
            else:
                counts.made += 1
                label = result.labels[state.blocker]
                counts.succeeded += label == "suanzhang"
                counts.failed += label == "suanzhang_failed"
        match = rules.next_match(state, result)
    return measured, beside, times


def wilson(hits: int, n: int) -> str:
    """A share with Wilson's 95 % interval, in per cent."""
    if not n:
        return "–"
    z = 1.96
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{100 * p:.1f} % ({100 * (centre - half):.1f}–{100 * (centre + half):.1f})"


def mean_interval(values: list[int]) -> str:
    n = len(values)
    mean = sum(values) / n
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / max(n - 1, 1))
    half = 1.96 * spread / math.sqrt(n)
    return f"{mean:+.3f} ({mean - half:+.3f}…{mean + half:+.3f})"


def report(name: str, deals: int, counts: Counts) -> None:
    per = deals * counts.seats
    print(f"{name:<22} {deals:>6} {counts.chances:>7} {wilson(counts.taken, counts.chances):>22}"
          f" {counts.forced:>6} {counts.made:>5} {100 * counts.made / per:>7.2f}"
          f" {counts.succeeded:>5} {counts.failed:>5}"
          f" {wilson(counts.succeeded, counts.made):>22} {mean_interval(counts.chips):>26}",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--strong-deals", type=int, default=300)
    parser.add_argument("--levels", default="easy,normal,strong")
    parser.add_argument("--others", default="normal", choices=("normal", "connecting"))
    parser.add_argument("--preset")
    parser.add_argument("--seed", default="blocks")
    args = parser.parse_args()
    print(f"{'seats':<22} {'deals':>6} {'chances':>7} {'taken (95 %)':>22} {'forced':>6}"
          f" {'made':>5} {'% deals':>7} {'won':>5} {'lost':>5} {'success (95 %)':>22}"
          f" {'chips/deal (95 %)':>26}")
    for level in args.levels.split(","):
        deals = args.strong_deals if level == "strong" else args.deals
        started = time.perf_counter()
        measured, others, times = play(level, deals, args.preset, args.seed, args.others)
        report(f"{level} (seat 0)", deals, measured)
        report(f"{args.others} (seats 1-3)", deals, others)
        moves = f", {1000 * sum(times) / len(times):.1f} ms a move over {len(times)}" \
            if times else ""
        print(f"  {time.perf_counter() - started:.0f} s{moves}", flush=True)


if __name__ == "__main__":
    main()
