"""Playout throughput: deals per second for every game, through the public engine and on the fast
path, with random and heuristic players.

Run by hand (not a test): `.venv/bin/python benchmarks/playouts.py [--deals N] [--games a,b]`.
The public engine is what a move from a chat goes through (`view`, `apply` with its checks,
immutable states); the fast path is what `gupai sim` and search play on (`Rules.table`): the
same deals and the same moves (`tests/games/test_fast_path.py`). Machines are shared and noisy,
so compare the ratios within one run rather than absolute figures across runs. The target:
10,000 deals of any game in seconds, not minutes.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import games
from games.engine import Match, Rules, rng
from games.players import make_player
from games.sim import simulate


def cases() -> list[tuple[str, str | None, int]]:
    """Every game of `games.GAMES`: each preset (its default options when it has none) at its
    usual number of players, then its default options at its least and most players."""
    found: list[tuple[str, str | None, int]] = []
    for game, rules in games.GAMES.items():
        found += [(game, preset, rules.default_players) for preset in rules.presets or [None]]
        found += [(game, None, players) for players in
                  sorted({rules.min_players, rules.max_players} - {rules.default_players})]
    return found


def public(rules: Rules[Any, Any], options: Any, players: int, games_: int, seed: str,
           strategy: str) -> int:
    """`simulate`'s loop through the public engine, as the simulator played before the fast
    path: a view and a checked `apply` for every move. The number of deals played."""
    seats = [make_player(rules.id, strategy) for _ in range(players)]
    rngs = [rng(seed, f"player/{i}") for i in range(players)]
    finite = rules.finite_match(options)
    match: Match = rules.start_match(options, players, seed)
    deals = 0
    for game in range(games_):
        if finite:
            match = rules.start_match(options, players, f"{seed}/{game}")
        while True:
            state = rules.new_deal(options, players, f"{seed}/{game}/{match.deal}", match)
            while (seat := rules.to_move(state)) is not None:
                action = seats[seat].choose(rules.view(state, seat), rngs[seat])
                state, _ = rules.apply(state, action)
            rules.outcome(state)
            rules.view(state, None)
            deals += 1
            match = rules.next_match(state)
            if not finite or match.over:
                break
    return deals


def rate(game: str, preset: str | None, players: int, strategy: str, deals: int,
         fast: bool) -> float:
    rules = games.get(game)
    options = rules.options(preset=preset)
    # Matches that end by themselves count as one game each; size the run in deals either way.
    per_game = 7 if rules.finite_match(options) else 1
    count = max(deals // per_game, 1)
    started = time.perf_counter()
    if fast:
        played = simulate(rules, options, players, count, "bench", [strategy]).deals
    else:
        played = public(rules, options, players, count, "bench", strategy)
    return played / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per row (default 2000)")
    parser.add_argument("--games", help="only these games, comma-separated")
    args = parser.parse_args()
    chosen = set(args.games.split(",")) if args.games else None
    print(f"{'':<24} {'':>7} {'random, deals/s':^25} {'heuristic, deals/s':^25}")
    print(f"{'game':<24} {'players':>7} {'public':>8} {'fast':>8} {'×':>7} "
          f"{'public':>8} {'fast':>8} {'×':>7}")
    for game, preset, players in cases():
        if chosen is not None and game not in chosen:
            continue
        cells = []
        for strategy in ("random", "heuristic"):
            slow = rate(game, preset, players, strategy, args.deals, fast=False)
            quick = rate(game, preset, players, strategy, args.deals, fast=True)
            cells.append(f"{slow:>8,.0f} {quick:>8,.0f} {quick / slow:>7.2f}")
        name = game if preset is None else f"{game} {preset}"
        print(f"{name:<24} {players:>7} {' '.join(cells)}", flush=True)


if __name__ == "__main__":
    main()
