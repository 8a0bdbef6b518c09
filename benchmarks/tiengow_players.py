"""Tien Gow computer players against each other: share of deals won and chips per deal.

Run by hand (not a test): `.venv/bin/python benchmarks/tiengow_players.py [--deals N]`.
One seat plays the strategy under test, the other three the opponents; the test seat takes each
of the four places in turn (a quarter of the deals each), so who deals first does not favour it.
With four players the baseline is 25% of the deals. "plain" is the heuristic reduced to single
tricks (no reserve, no combinations, no look-ahead), to show what those parts add.
"""

from __future__ import annotations

import argparse
import functools
import time
from collections.abc import Callable

import games
from games.engine import rng
from games.players import ComputerPlayer, RandomPlayer, ScoredPlayer
from games.sim import simulate
from games.tiengow_ai import Weights, rater

PLAYERS = 4
PLAIN = Weights(reserve=0.0, combo=0.0, endgame=1)
PRESETS = ("modern", "pure", "streak", "early-death")


def rotated(preset: str, hero: str, others: str, deals: int) -> tuple[float, float]:
    """`games.sim.simulate` with `hero` in each seat in turn: (win rate, chips per deal)."""
    rules = games.get("tiengow")
    options = rules.options(preset=preset)
    wins = chips = played = 0
    for seat in range(PLAYERS):
        strategies = [hero if s == seat else others for s in range(PLAYERS)]
        stats = simulate(rules, options, PLAYERS, deals // PLAYERS, f"table/{preset}/{seat}",
                         strategies)
        wins += stats.wins[seat]
        chips += stats.chips[seat]
        played += stats.deals
    return wins / played, chips / played


def duel(preset: str, hero: Callable[[], ComputerPlayer], others: Callable[[], ComputerPlayer],
         deals: int) -> tuple[float, float]:
    """The same for players `simulate` cannot name (a variant of the heuristic)."""
    rules = games.get("tiengow")
    options = rules.options(preset=preset)
    wins = chips = played = 0
    for seat in range(PLAYERS):
        seed = f"duel/{preset}/{seat}"
        seats = [hero() if s == seat else others() for s in range(PLAYERS)]
        rngs = [rng(seed, f"player/{s}") for s in range(PLAYERS)]
        match = rules.start_match(options, PLAYERS, seed)
        for deal in range(deals // PLAYERS):
            state = rules.new_deal(options, PLAYERS, f"{seed}/{deal}", match)
            while (mover := rules.to_move(state)) is not None:
                action = seats[mover].choose(rules.view(state, mover), rngs[mover])
                state, _ = rules.apply(state, action)
            result = rules.outcome(state)
            assert result is not None
            wins += result.winners[0] == seat
            chips += result.deltas[seat]
            played += 1
            match = rules.next_match(state)
    return wins / played, chips / played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    args = parser.parse_args()
    heuristic = functools.partial(ScoredPlayer, rater)
    plain = functools.partial(ScoredPlayer, functools.partial(rater, weights=PLAIN))
    rows: list[tuple[str, Callable[[str], tuple[float, float]]]] = [
        ("random vs 3 random", lambda p: rotated(p, "random", "random", args.deals)),
        ("heuristic vs 3 random", lambda p: rotated(p, "heuristic", "random", args.deals)),
        ("plain vs 3 random", lambda p: duel(p, plain, RandomPlayer, args.deals)),
        ("heuristic vs 3 plain", lambda p: duel(p, heuristic, plain, args.deals)),
        ("heuristic vs 3 heuristic", lambda p: rotated(p, "heuristic", "heuristic", args.deals)),
    ]
    print(f"{args.deals} deals per cell; win = share of deals won (baseline 25%), "
          "chips = mean chips per deal")
    print(f"{'':<26}" + "".join(f"{p:>20}" for p in PRESETS))
    for name, run in rows:
        started = time.perf_counter()
        cells = [run(p) for p in PRESETS]
        print(f"{name:<26}" + "".join(f"{w:>11.1%} {c:>+7.2f}" for w, c in cells)
              + f"   ({time.perf_counter() - started:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
