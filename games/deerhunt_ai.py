"""Heuristic play for Deer Hunt, from one seat's view, for its partnership.

Rules source: docs/rules-book.md §2.12 (any tile to any trick, the highest rank wins and of
identical tiles the earlier, the winner leads; the red pips a partnership takes are its score, §1.4)
and D-32 (deer escaped).

A tile is worth what it brings to its team in this trick against what it would bring later.
In this trick: its red pips and those already on the table, plus about the average unseen
tile's for each seat still to play (an opponent adds them when the trick is likely lost, the
partner when it is likely won), counted for the team with the chance that the team takes the
trick and against it with the chance that the opponents do. That chance follows the seats still
to play: an opponent beats the best tile when he holds a higher one, the partner when the
opponents hold the trick; who holds what is not known, so each seat holds each unseen tile in
proportion to its hand. Later: a tile keeps, for the tricks to come, its chance of standing
against both opponents times the red pips an average trick still holds. So a normal seat
throws its low tiles (with red pips, where the trick is safe) on its partner's winning trick,
takes a trick worth taking with the lowest tile that is likely to hold, and throws a low tile
without red pips where the opponents hold it.

The strong level (`games.search`) plays these ratings out in deals dealt anew from the view,
scoring each for the partnership (`Rules.teams`) by the red pips it won or lost.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from games.deerhunt_deal import DeerHuntView
from games.deerhunt_tiles import BY_RANK, PLAYERS, RANK, RED, TEAM, TOTAL_RED, escapes
from games.engine import LEVELS as LEVELS
from games.engine import Action, Budget

BUDGET = Budget(candidates=3, work=2000, most=32, chips=1.0, sure=0.5, ties=True)
"""The strong player's search (`games.search`): each playout scored by the deal won and the red
pips' difference (a quarter of it, per seat: a deal's chips are its difference), the
heuristic's three best tiles played out, a tie among them settled by the playouts, another
tile played where it did better by half a standard error. Measured between a strong and a
normal pair over 120 deals each: the common budget won 52 % of the deals (+4.7 red pips a
deal), eight candidates 56 % (+3.7), these settings 60 % (+6.8), and with the deals weighed by
the plays seen (`DeerHunt.deals`) 63 % (+8.0). Those weighed deals cost as much as the
playouts once the playouts are short, hence at most 32 of them: some 145 ms of processor time
a move on the two-core machine."""


@dataclass(frozen=True)
class Weights:
    keep: float = 2.5
    """A tile kept, per red pip an average later trick holds, times its chance of standing."""
    later: float = 1.0
    """The red pips each seat still to play is expected to add, in average unseen tiles."""
    tie: float = 1e-3
    """Orders otherwise equal tiles: the lowest goes first."""


DEFAULT = Weights()


NEGATED = tuple(-rank for rank in RANK)
_CLEAR: dict[tuple[int, int, int], float] = {}
"""`clear(n, above, held)`, remembered: the same few numbers come back in every playout."""


def clear(n: int, above: int, held: int) -> float:
    """The chance that a hand of `held` tiles dealt from `n` unseen ones holds none of
    `above` given ones."""
    key = (n, above, held)
    found = _CLEAR.get(key)
    if found is None:
        found = 1.0
        for i in range(min(held, n)):
            found *= max(n - above - i, 0) / (n - i)
        _CLEAR[key] = found
    return found


def rater(view: Any, weights: Weights = DEFAULT) -> Callable[[Action], float]:
    """Scores for `view.legal`, derived once per turn (see the module docstring)."""
    v = cast("DeerHuntView", view)
    seat = cast(int, v.seat)
    team = TEAM[seat]
    history = v.history
    trick_now = v.trick
    known = set(v.hand)
    known.update([lay.tile for trick in history for lay in trick.plays])
    known.update([lay.tile for lay in trick_now])
    left = TOTAL_RED - sum([trick.red for trick in history])
    # The unseen tiles' ranks, negated so that they ascend: how many unseen tiles rank above
    # a tile is how many of these lie below its negated rank.
    lower = [NEGATED[t] for t in BY_RANK if t not in known]
    n = len(lower)
    mean_red = sum([RED[t] for t in BY_RANK if t not in known]) / n if n else 0.0
    counts = v.hand_counts
    done = len(trick_now)
    later = [(seat + i) % PLAYERS for i in range(1, PLAYERS - done)]
    on_table = sum(RED[lay.tile] for lay in trick_now)
    if trick_now:
        best = trick_now[cast(int, v.best)]
        best_rank, holder_ours = RANK[best.tile], TEAM[best.seat] == team
    else:
        best_rank, holder_ours = -1, True
    tricks_left = max(len(v.hand), 1)
    # What an average trick to come holds, counted with the red still unplayed in this one.
    per_trick = (left - on_table) / tricks_left

    # What a seat still to play does to the team's chance, in playing order: the chance that
    # it holds no unseen tile above a rank (`clear`, looked up here: every playout asks), and
    # whether it is an opponent.
    seats_after = [(counts[s], TEAM[s] != team) for s in later]
    against = [counts[s] for s in range(PLAYERS) if TEAM[s] != team]
    chances: dict[tuple[bool, int], float] = {}

    def chance(ours: bool, above: int) -> float:
        """Chance that the team takes the trick once the seats still to play have played,
        `above` unseen tiles ranking above the best tile."""
        key = (ours, above)
        p = chances.get(key)
        if p is None:
            p = 1.0 if ours else 0.0
            for held, opponent in seats_after:
                none = _CLEAR.get((n, above, held))
                beaten = 1.0 - (clear(n, above, held) if none is None else none)
                p = p * (1.0 - beaten) if opponent else p + (1.0 - p) * beaten
            chances[key] = p
        return p

    last = not later
    deer = v.options.deer_escaped
    keeps = len(v.hand) > 1
    best_above = bisect_left(lower, -best_rank)
    later_ours = [TEAM[s] == team for s in later]
    later_weight = weights.later
    keep = weights.keep
    tie = weights.tie

    def rate(action: Action) -> float:
        t = action.tiles[0]
        rank = RANK[t]
        above = bisect_left(lower, -rank)
        p = chance(True, above) if rank > best_rank else chance(holder_ours, best_above)
        pips: float = on_table + RED[t]
        if last and deer and escapes([lay.tile for lay in trick_now] + [t]):
            pips = 0
        else:
            added = 0.0
            for ours in later_ours:
                added += mean_red * (p if ours else 1.0 - p)
            pips += later_weight * added
        value = (2.0 * p - 1.0) * pips
        if keeps:
            standing = 1.0
            for held in against:
                none = _CLEAR.get((n, above, held))
                standing *= clear(n, above, held) if none is None else none
            value -= keep * standing * per_trick
        return value - tie * rank

    return rate
