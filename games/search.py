"""The strong computer player: every candidate move played out in deals sampled from its view.

Rules sources: each game's section of docs/rules-book.md for what a deal pays (§2.1–§2.5 connecting
games, §2.6–§2.7 Kap, §2.8 Tien Gow, §2.9 Three Dozen, §2.10 Доміно); each game says how its
unseen tiles are dealt again (`Rules.deals`, `games.hidden`).

The player never sees a state. From its own view it deals the tiles it cannot see anew (as
the game says, `Rules.deals`), plays each of the best few moves the game's heuristic rates (the
`normal` level) in that deal, finishes the deal with the heuristic on every seat, and scores how
it went for itself; the heuristic's own choice is played unless another move did better by more
than chance would explain. Every candidate meets the same sampled deals and the same generators
(common random numbers), so the comparison between moves is much sharper than the noise of
single playouts. Where a game asks (`Budget.ties`), moves the heuristic rates alike are all its
choice, and the one that did best among them is the one the others must beat.

The work is counted, not timed: samples are drawn until the playouts have made a game's number
of moves (at least a few samples, at most a cap), so the same view and the same generator give
the same move on any machine, however busy. Where a game asks (`Budget.look`), the search looks
at its playouts every few samples: a move that could no longer plausibly be played is played
out no more, and once one move is left the search ends, so the samples go where they may still
change the choice (Kap Ten's moves are told apart only over many deals, yet many of its
choices are plain after a few dozen). Each game's numbers (`Rules.budget`) are chosen to stay
within 200 ms a move on a two-core machine (`benchmarks/levels.py` measures it).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games import get
from games.engine import Action, Budget, Match, Outcome, Rater, Rules, Table
from games.heuristic import ScoredPlayer

DECISIVE = 1e8
"""A rating this high is a move that wins on the spot (the collecting games' heuristics rate a
completed hand 1e9): no search can improve on it."""
ROLLOUT_CAP = 2000
"""Moves after which a playout is abandoned as a deal without a winner (a safety net)."""


def _deal_score(rules: Rules[Any, Any], chips: float) -> Callable[[Any, Outcome, int], float]:
    """How good a finished playout was for `seat`: the deal won (by its team, where seats
    play in partnerships: `Rules.teams`), plus a little for each chip;
    or, where a match is played to a target score (`Rules.match_target`, Доміно), the points
    the deal brings towards the target against the best of the others, and reaching the
    target is the win."""

    def score(state: Any, result: Outcome, seat: int) -> float:
        target = rules.match_target(rules.state_options(state))
        if target is not None:
            match: Match = state.match
            totals = [m + p for m, p in zip(match.scores, result.points, strict=True)]
            best_other = max(t for s, t in enumerate(totals) if s != seat)
            value = (result.points[seat] - max(p for s, p in enumerate(result.points)
                                               if s != seat)) / target
            if totals[seat] >= target and totals[seat] > best_other:
                value += 1.0
            elif best_other >= target:
                value -= 1.0
            return value
        players: int = state.players
        side = rules.teams(players) or range(players)
        won = 1.0 if result.winners and side[result.winners[0]] == side[seat] else 0.0
        return won + chips * result.deltas[seat] / players

    return score


class SearchPlayer:
    """Plays out the heuristic's best few moves in deals sampled from its own view."""

    name = "strong"

    def __init__(self, rules: Rules[Any, Any], rater: Rater, budget: Budget) -> None:
        self._rules = rules
        self._rater = rater
        self._budget = budget
        self._policy = ScoredPlayer(rater, rules.scorer())
        self._movers: dict[type, Callable[[Table[Any], int, random.Random], Action]] = {}
        """How the heuristic chooses in a playout, per kind of table (`ScoredPlayer.mover_on`)."""
        self._score = _deal_score(rules, budget.chips)

    def candidates(self, view: Any) -> list[Action]:
        """The legal moves worth playing out, best-rated first (ties in legal order)."""
        return self._rated(view)[0]

    def _rated(self, view: Any) -> tuple[list[Action], int]:
        """`candidates`, and how many of them the heuristic rates as high as the first."""
        legal: tuple[Action, ...] = view.legal
        rate = self._rater(view)
        rated = sorted(((rate(a), i) for i, a in enumerate(legal)), key=lambda r: (-r[0], r[1]))
        if rated[0][0] >= DECISIVE:
            return [legal[rated[0][1]]], 1
        chosen = rated[:self._budget.candidates]
        tied = sum(1 for r, _ in chosen if r == chosen[0][0])
        return [legal[i] for _, i in chosen], tied

    def choose(self, view: Any, rng: random.Random) -> Action:
        legal: tuple[Action, ...] = view.legal
        if len(legal) == 1:
            return legal[0]
        moves, tied = self._rated(view)
        if len(moves) == 1:
            return moves[0]
        seat: int = view.seat
        budget = self._budget
        group = tied if budget.ties else 1
        seed = rng.getrandbits(64)
        values: list[list[float]] = [[] for _ in moves]
        spent = [0] * len(moves)
        live = list(range(len(moves)))
        made = 0
        samples = 0
        deals = self._rules.deals(view, self._rater, random.Random(seed))
        while samples < budget.most and (samples < budget.least or made < budget.work):
            state = deals()
            table = self._rules.table(state)
            table.legal()
            roll = seed + samples + 1
            made += budget.deal
            for j in live:
                value, steps = self._playout(table, state, moves[j], seat, roll)
                values[j].append(value)
                spent[j] += steps
                made += steps
            samples += 1
            if budget.look and samples % budget.look == 0:
                # The samples the budget still leaves, at what one has cost the moves left.
                each = budget.deal + sum(spent[j] for j in live) / samples
                last = min(budget.most, samples + max(budget.work - made, 0) / max(each, 1))
                live = self._race(values, live, group, last)
                if len(live) == 1:
                    break
        kept = [values[j] for j in live]
        return moves[live[self._pick(kept, sum(1 for j in live if j < group))]]

    def _race(self, values: list[list[float]], live: list[int], group: int, last: float
              ) -> list[int]:
        """The moves of `live` still worth playing out: those that could yet be played after
        `last` samples (`Budget.plausible`). The first `group` are the heuristic's choice, the
        best of them so far the move the others must beat."""
        n = len(values[live[0]])
        ref = max((j for j in live if j < group), key=lambda j: (sum(values[j]), -j))
        allow = self._budget.plausible
        kept = []
        for j in live:
            if j != ref:
                diffs = [a - b for a, b in zip(values[j], values[ref], strict=True)]
                mean = sum(diffs) / n
                error = (sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1)) ** 0.5
                need = 0.0 if j < group else self._budget.sure * error / last ** 0.5
                if mean + allow * error / n ** 0.5 < need:
                    continue
            kept.append(j)
        return kept

    def _pick(self, values: list[list[float]], tied: int = 1) -> int:
        """The candidate to play: the heuristic's own choice unless another did better over
        the same deals by more than chance would explain (`Budget.sure` standard errors of
        the paired differences). The heuristic's choice is the first candidate, or, when the
        first `tied` are rated alike, the one of them that did best."""
        n = len(values[0])
        ref = max(range(tied), key=lambda j: (sum(values[j]), -j))
        best, best_gain = ref, 0.0
        for j in range(tied, len(values)):
            diffs = [a - b for a, b in zip(values[j], values[ref], strict=True)]
            mean = sum(diffs) / n
            if mean <= best_gain:
                continue
            spread = sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1)
            if mean > self._budget.sure * (spread / n) ** 0.5:
                best, best_gain = j, mean
        return best

    def _playout(self, table: Table[Any], start: Any, move: Action, seat: int, roll: int
                 ) -> tuple[float, int]:
        """The deal after `move` on a copy of `table`, finished by the heuristic on every
        seat: its worth to `seat` and the moves it took. `start` is the sampled deal, for
        what stays fixed through it (the options, the match)."""
        rng = random.Random(roll)
        table = table.copy()
        choose = self._movers.get(type(table))
        if choose is None:
            choose = self._movers[type(table)] = self._policy.mover_on(type(table))
        table.play(move)
        steps = 1
        to_move, play = table.to_move, table.play
        while (mover := to_move()) is not None:
            if steps >= ROLLOUT_CAP:
                return 0.0, steps
            play(choose(table, mover, rng))
            steps += 1
        result = table.outcome()
        assert result is not None
        return self._score(start, result, seat), steps


def search_player(game: str, budget: Budget | None = None) -> SearchPlayer:
    """The strong player of `game`, thinking as hard as its budget says (the game's own,
    `Rules.budget`, by default)."""
    rules = get(game)
    rater = rules.rater()
    if rater is None:
        raise ValueError(f"no strong player for {game}")
    return SearchPlayer(rules, rater, budget or rules.budget)
