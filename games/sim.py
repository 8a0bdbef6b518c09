"""The simulator: many deals or matches between computer players, reduced to statistics.

Pure and deterministic (no clock, no printing): the same game, options, strategies and seed give
the same numbers on every machine. The command line (`gupai sim`) adds timing and the progress
bar. A "game" is one match when the options make matches end by themselves (a target score, a
number of deals), otherwise one deal of an open-ended match, so leads still pass as the rules say.
Deals are played on the fast path (`Rules.table`, `engine.Table`): the public engine's games,
move for move, without the checks a move from outside needs. A heuristic seat rates what the
table gives its rater to read (`Table.rater_view`), which rates every move as the view would,
or the table chooses for it (`scored_move`); where every seat is such a seat and the table
can, it plays the deal out in one loop (`play_scored`).

For games whose views count the player turns of a deal (`view.turns`, 1-based: a hand that wins
as dealt wins on turn 1) the simulator also records on which turn deals are won and by which
hand number (1 = the deal's first player, `view.leader`). Per absolute seat those wins mean
little when the winner leads the next deal; per hand number they show whether sitting late
helps, and the turn figures are what docs/rules-book.md §4 calibrates (Kap Ten, Kap Tai Shap).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import get
from games.engine import Action, InvalidOptions, Match, Rules, Table, rng
from games.heuristic import ScoredPlayer
from games.players import ComputerPlayer, make_player

MAX_TURNS_PER_DEAL = 10_000


@dataclass
class SimStats:
    game: str
    players: int
    strategies: tuple[str, ...]
    games: int = 0
    deals: int = 0
    turns: int = 0
    """Moves made, every one (a player turn may take several: a take, a discard, a draw)."""
    wins: list[int] = field(default_factory=list)
    no_winner: int = 0
    points: list[int] = field(default_factory=list)
    chips: list[int] = field(default_factory=list)
    redeals: int = 0
    voids: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    timed_deals: int = 0
    """Deals of a game whose views count turns; the turn figures below cover only these."""
    win_turns: dict[int, int] = field(default_factory=dict)
    """How many won deals were won on each turn."""
    hand_wins: list[int] = field(default_factory=list)
    """Won deals per hand number (index 0 = hand 1, the deal's first player)."""
    teams: tuple[int, ...] | None = None
    """The team of each seat where seats play in partnerships (`Rules.teams`): a game won by
    a team is then counted as won by each of its seats."""
    deal_wins: list[int] = field(default_factory=list)
    """Deals each seat was among the winners of (both partners, where seats play in teams)."""
    level_deals: int = 0
    """Deals nobody won (equal points)."""
    first_team_wins: int = 0
    """Deals won by the team of the deal's first player (the dealer), where seats play in
    teams."""
    top_gain: int = 0
    """Over all deals, the chips the deal's biggest gainer won (in a partnership game, the
    difference the losing team paid each winner)."""

    def add(self, other: SimStats) -> None:
        """Count `other`'s games too (a block played apart)."""
        self.games += other.games
        self.deals += other.deals
        self.turns += other.turns
        self.no_winner += other.no_winner
        self.redeals += other.redeals
        self.voids += other.voids
        self.timed_deals += other.timed_deals
        self.level_deals += other.level_deals
        self.first_team_wins += other.first_team_wins
        self.top_gain += other.top_gain
        for mine, theirs in ((self.wins, other.wins), (self.points, other.points),
                             (self.chips, other.chips), (self.hand_wins, other.hand_wins),
                             (self.deal_wins, other.deal_wins)):
            for i, value in enumerate(theirs):
                mine[i] += value
        for reason, n in other.reasons.items():
            self.reasons[reason] = self.reasons.get(reason, 0) + n
        for turn, n in other.win_turns.items():
            self.win_turns[turn] = self.win_turns.get(turn, 0) + n

    @property
    def won_deals(self) -> int:
        return sum(self.win_turns.values())

    def mean_win_turn(self) -> float | None:
        won = self.won_deals
        return sum(t * n for t, n in self.win_turns.items()) / won if won else None

    def median_win_turn(self) -> float | None:
        """The middle winning turn (the mean of the two middle ones for an even count)."""
        won = self.won_deals
        if not won:
            return None
        lower, upper = (won - 1) // 2, won // 2
        found: list[int] = []
        seen = 0
        for turn in sorted(self.win_turns):
            count = self.win_turns[turn]
            for rank in (lower, upper):
                if seen <= rank < seen + count:
                    found.append(turn)
            seen += count
        return sum(found) / 2

    def first_round_share(self) -> float | None:
        """Deals won within the first round (turn ≤ players), as a share of all timed deals."""
        if not self.timed_deals:
            return None
        early = sum(n for t, n in self.win_turns.items() if t <= self.players)
        return early / self.timed_deals

    def hand_win_share(self) -> list[float]:
        won = max(self.won_deals, 1)
        return [w / won for w in self.hand_wins]

    def turn_summary(self) -> dict[str, Any]:
        """The turn figures, or nothing for a game whose views do not count turns."""
        if not self.timed_deals:
            return {}
        mean = self.mean_win_turn()
        return {
            "won_deals": self.won_deals,
            "mean_win_turn": mean,
            "mean_win_round": None if mean is None else mean / self.players,
            "median_win_turn": self.median_win_turn(),
            "first_round_share": self.first_round_share(),
            "void_share": self.voids / self.deals,
            "hand_win_share": self.hand_win_share(),
            "win_turns": dict(sorted(self.win_turns.items())),
        }

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
        } | self.turn_summary() | self.team_summary()

    def team_summary(self) -> dict[str, Any]:
        """Where seats play in partnerships: each team's share of the games and of the deals
        won, the deals nobody won, the dealer's team's share and the mean difference paid."""
        if self.teams is None:
            return {}
        games, deals = max(self.games, 1), max(self.deals, 1)
        first = {team: self.teams.index(team) for team in sorted(set(self.teams))}
        return {
            "teams": list(self.teams),
            "team_win_rate": [self.wins[seat] / games for seat in first.values()],
            "team_deal_win_rate": [self.deal_wins[seat] / deals for seat in first.values()],
            "level_deal_share": self.level_deals / deals,
            "first_team_deal_share": self.first_team_wins / deals,
            "mean_difference": self.top_gain / deals,
        }


BLOCK = 250
"""Games per block. Each block starts its own match and seat generators from the seed and its
number, so blocks can be played apart, in any number of processes (`jobs`), and a run gives
the same figures however many play it."""


Block = tuple[str, Any, int, str, tuple[str, ...], int, int]
"""One block of games to play apart: game, options, players, seed, strategies, first, count."""
Runner = Callable[[Sequence[Block]], Iterable["SimStats"]]
"""Plays blocks somewhere (other processes: `bot.commandline.sim_workers`) and yields each one's
figures as it is done, in any order."""


class Interrupted(Exception):
    """The run was stopped (Ctrl-C): `stats` holds the games played to the end before it."""

    def __init__(self, stats: SimStats) -> None:
        super().__init__(f"stopped after {stats.games} games")
        self.stats = stats


def simulate(rules: Rules[Any, Any], options: Any, players: int, games: int, seed: str,
             strategies: Sequence[str],
             progress: Callable[[int], None] | None = None,
             runner: Runner | None = None) -> SimStats:
    """Play `games` games; `strategies` has one entry per seat (or one for every seat).

    With a `runner` the blocks are played where it plays them (in several processes, say:
    the whole process then uses every core, as the JVM behind the seed author's simulator
    does); without one, here, one after the other. A KeyboardInterrupt becomes `Interrupted`
    with the games played to the end so far."""
    rules.check_players(players)
    if len(strategies) == 1:
        strategies = list(strategies) * players
    if len(strategies) != players:
        raise InvalidOptions(f"{len(strategies)} strategies for {players} players")
    for strategy in set(strategies):
        make_player(rules.id, strategy)
    stats = _empty(rules.id, players, tuple(strategies), rules.teams(players))
    blocks = [(first, min(BLOCK, games - first)) for first in range(0, games, BLOCK)]
    try:
        if runner is None or len(blocks) == 1:
            for first, count in blocks:
                played = _empty(rules.id, players, stats.strategies, stats.teams)
                _play_block(rules, options, seed, first, count, played,
                            _after(progress, stats.games))
                stats.add(played)
            return stats
        for part in runner([(rules.id, options, players, seed, stats.strategies, first,
                             count) for first, count in blocks]):
            stats.add(part)
            if progress is not None:
                progress(stats.games)
    except KeyboardInterrupt:
        raise Interrupted(stats) from None
    return stats


def _after(progress: Callable[[int], None] | None, before: int
           ) -> Callable[[int], None] | None:
    """`progress`, told the games of a block after the `before` already played."""
    if progress is None:
        return None
    told = progress
    return lambda done: told(before + done)


def _empty(game: str, players: int, strategies: tuple[str, ...],
           teams: tuple[int, ...] | None) -> SimStats:
    return SimStats(game, players, strategies, wins=[0] * players, points=[0] * players,
                    chips=[0] * players, hand_wins=[0] * players, teams=teams,
                    deal_wins=[0] * players)


def play_block(task: Block) -> SimStats:
    """One block, wherever a runner plays it."""
    game, options, players, seed, strategies, first, count = task
    rules = get(game)
    stats = _empty(game, players, strategies, rules.teams(players))
    _play_block(rules, options, seed, first, count, stats, None)
    return stats


def _play_block(rules: Rules[Any, Any], options: Any, seed: str, first: int, count: int,
                stats: SimStats, progress: Callable[[int], None] | None) -> None:
    """Games `first` to `first + count - 1`, added to `stats`. The first block keeps the
    seed's own names, so a run of one block is what it always was."""
    players = stats.players
    block = "" if first == 0 else f"/block/{first // BLOCK}"
    seats = [make_player(rules.id, s) for s in stats.strategies]
    seat_rngs = [rng(seed, f"player/{i}{block}") for i in range(players)]
    deal_players: dict[type, DealPlayer] = {}
    """How the seats play a deal out, per kind of table (a game's rules hand out one kind)."""
    finite = rules.finite_match(options)
    match: Match = rules.start_match(options, players, seed + block)
    for game in range(first, first + count):
        if finite:
            match = rules.start_match(options, players, f"{seed}/{game}")
        while True:
            table = rules.table(rules.new_deal(options, players, f"{seed}/{game}/{match.deal}",
                                               match))
            play_deal = deal_players.get(type(table))
            if play_deal is None:
                play_deal = deal_players[type(table)] = _deal_player(seats, type(table),
                                                                     seat_rngs)
            turns = play_deal(table)
            if turns > MAX_TURNS_PER_DEAL:
                raise RuntimeError(f"{rules.id}: a deal did not end (seed {seed}/{game})")
            state = table.state()
            result = rules.outcome(state)
            assert result is not None
            stats.deals += 1
            stats.turns += turns
            stats.redeals += getattr(state, "redeals", 0)
            stats.reasons[result.reason] = stats.reasons.get(result.reason, 0) + 1
            if result.reason == "void":
                stats.voids += 1
            _record_turns(stats, state, result.winners)
            _record_winners(stats, match.leader, result.winners, result.deltas)
            for s in range(players):
                stats.points[s] += result.points[s]
                stats.chips[s] += result.deltas[s]
            match = rules.next_match(state, result)
            if not finite or match.over:
                break
        winner = match.winner if finite else (result.winners[0] if result.winners else None)
        if winner is None:
            stats.no_winner += 1
        elif stats.teams is None:
            stats.wins[winner] += 1
        else:
            for seat, team in enumerate(stats.teams):
                stats.wins[seat] += team == stats.teams[winner]
        stats.games += 1
        if progress is not None:
            progress(stats.games)


Mover = Callable[[Table[Any], int, random.Random], Action]
"""How a seat chooses on a fast table: the table, the seat to move, the seat's generator."""


DealPlayer = Callable[[Table[Any]], int]
"""Plays a deal on a table to its end and says how many moves it took (stopping after one more
than `MAX_TURNS_PER_DEAL`, for a deal that would not end)."""


def _deal_player(seats: Sequence[ComputerPlayer], kind: type[Table[Any]],
                 rngs: Sequence[random.Random]) -> DealPlayer:
    """How `seats`, each with its generator in `rngs`, play a deal out on a table of `kind`:
    move by move, each seat choosing as `_mover` says, unless every seat chooses on the table
    itself (`scored_move`) and the table plays such a deal out in one loop (`play_scored`:
    a heuristic seat's turn chosen and played in one go)."""
    movers = [_mover(p, kind) for p in seats]
    whole: Callable[[Table[Any], Sequence[random.Random]], int] | None = getattr(
        kind, "play_scored", None)
    scored = getattr(kind, "scored_move", None)
    if whole is not None and scored is not None and all(m is scored for m in movers):
        play_scored = whole
        return lambda table: play_scored(table, rngs)

    def play_deal(table: Table[Any]) -> int:
        to_move, play = table.to_move, table.play
        turns = 0
        while (seat := to_move()) is not None:
            play(movers[seat](table, seat, rngs[seat]))
            turns += 1
            if turns > MAX_TURNS_PER_DEAL:
                break
        return turns

    return play_deal


def _mover(player: ComputerPlayer, kind: type[Table[Any]]) -> Mover:
    """How `player` chooses on a table of `kind`. The heuristic (a `ScoredPlayer`) chooses on
    the table itself where the table rates as the player's rater does (`scored_move`), else
    from what the table gives it to read (`ScoredPlayer.choose_on`); any other player chooses
    from the seat's view."""
    if isinstance(player, ScoredPlayer):
        return player.mover_on(kind)
    choose = player.choose
    return lambda table, seat, rng: choose(table.view(seat), rng)


def _record_winners(stats: SimStats, first: int, winners: Sequence[int],
                    deltas: Sequence[int]) -> None:
    """Who won a finished deal, the deal's first player being `first`."""
    for seat in winners:
        stats.deal_wins[seat] += 1
    if not winners:
        stats.level_deals += 1
    elif stats.teams is not None and stats.teams[winners[0]] == stats.teams[first]:
        stats.first_team_wins += 1
    stats.top_gain += max(deltas)


def _record_turns(stats: SimStats, state: Any, winners: Sequence[int]) -> None:
    """The winning turn and hand number of a finished deal, if the game counts turns (its
    views show `turns` and `leader` as the state holds them)."""
    turns: int | None = getattr(state, "turns", None)
    if turns is None:
        return
    stats.timed_deals += 1
    if not winners:
        return
    stats.win_turns[turns] = stats.win_turns.get(turns, 0) + 1
    leader: int = getattr(state, "leader", 0)
    stats.hand_wins[(winners[0] - leader) % stats.players] += 1
