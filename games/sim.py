"""The simulator: many deals or matches between computer players, reduced to statistics.

Pure and deterministic (no clock, no printing): the same game, options, strategies and seed give
the same numbers on every machine. The command line (`gupai sim`) adds timing and the progress
bar. A "game" is one match when the options make matches end by themselves (a target score, a
number of deals), otherwise one deal of an open-ended match, so leads still pass as the rules say.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine import InvalidOptions, Match, Rules, rng
from games.players import make_player

MAX_TURNS_PER_DEAL = 10_000


@dataclass
class SimStats:
    game: str
    players: int
    strategies: tuple[str, ...]
    games: int = 0
    deals: int = 0
    turns: int = 0
    wins: list[int] = field(default_factory=list)
    no_winner: int = 0
    points: list[int] = field(default_factory=list)
    chips: list[int] = field(default_factory=list)
    redeals: int = 0
    voids: int = 0
    reasons: dict[str, int] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        games = max(self.games, 1)
        deals = max(self.deals, 1)
        return {
            "game": self.game,
            "players": self.players,
            "strategies": list(self.strategies),
            "games": self.games,
            "deals": self.deals,
            "win_rate": [w / games for w in self.wins],
            "no_winner": self.no_winner,
            "mean_points_per_deal": [p / deals for p in self.points],
            "mean_chips_per_game": [c / games for c in self.chips],
            "mean_turns_per_deal": self.turns / deals,
            "redeals": self.redeals,
            "voids": self.voids,
            "endings": dict(sorted(self.reasons.items())),
        }


def simulate(rules: Rules[Any, Any], options: Any, players: int, games: int, seed: str,
             strategies: Sequence[str],
             progress: Callable[[int], None] | None = None) -> SimStats:
    """Play `games` games; `strategies` has one entry per seat (or one for every seat)."""
    rules.check_players(players)
    if len(strategies) == 1:
        strategies = list(strategies) * players
    if len(strategies) != players:
        raise InvalidOptions(f"{len(strategies)} strategies for {players} players")
    seats = [make_player(rules.id, s) for s in strategies]
    seat_rngs = [rng(seed, f"player/{i}") for i in range(players)]
    stats = SimStats(rules.id, players, tuple(strategies), wins=[0] * players,
                     points=[0] * players, chips=[0] * players)
    finite = rules.finite_match(options)
    match: Match = rules.start_match(options, players, seed)
    for game in range(games):
        if finite:
            match = rules.start_match(options, players, f"{seed}/{game}")
        while True:
            state = rules.new_deal(options, players, f"{seed}/{game}/{match.deal}", match)
            turns = 0
            while (seat := rules.to_move(state)) is not None:
                action = seats[seat].choose(rules.view(state, seat), seat_rngs[seat])
                state, _ = rules.apply(state, action)
                turns += 1
                if turns > MAX_TURNS_PER_DEAL:
                    raise RuntimeError(f"{rules.id}: a deal did not end (seed {seed}/{game})")
            result = rules.outcome(state)
            assert result is not None
            stats.deals += 1
            stats.turns += turns
            stats.redeals += getattr(state, "redeals", 0)
            stats.reasons[result.reason] = stats.reasons.get(result.reason, 0) + 1
            if result.reason == "void":
                stats.voids += 1
            for s in range(players):
                stats.points[s] += result.points[s]
                stats.chips[s] += result.deltas[s]
            match = rules.next_match(state)
            if not finite or match.over:
                break
        winner = match.winner if finite else (result.winners[0] if result.winners else None)
        if winner is None:
            stats.no_winner += 1
        else:
            stats.wins[winner] += 1
        stats.games += 1
        if progress is not None:
            progress(game + 1)
    return stats
