"""Heuristic play for Tien Gow, from one seat's view.

Rules source: docs/rules-book.md §2.8 (leads, beating "strictly higher, same category and
composition", face-down folds, k tricks for a k-tile trick, last trick wins the deal, the 5 / 4 −
tricks settlement, early death) and §1.1 (the civil and military orders).

Only the last trick wins the deal, so early on every tile is worth keeping in proportion to how
rarely the tiles not yet seen face up could beat it: most for the *reserve*, the single least
likely to be beaten, and more for tiles of a pair or mixed combination, which can take the last
trick as one play. A beat and a fold both spend the same number of tiles, so a beat is worth the
tricks it probably keeps against the seats still to play minus what its tiles were worth, and a
fold is worth minus what it throws away: the lowest sufficient beat, the weakest fold. Sure
winners are not cashed early; keeping them measured clearly better than leading them.

From `ENDGAME` tiles in hand on, a short look-ahead over the player's own tiles scores each move
by the chance of taking the last trick: lead a play that holds and keep the lead, or give it up
and beat the next lead back. Under early death a seat without a trick cannot beat a last single
lead: the player must take a trick before it, and need not fear trickless seats then.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any, cast

from games.engine import Action
from games.hierarchy import (
    CIVIL,
    CIVIL_PAIR,
    FAMILY,
    MILITARY_PAIR,
    MIXED,
    SUPREME,
    SUPREME_VALUES,
    VALUE,
    Combo,
    classify,
)
from games.tiengow_deal import TienGowView
from games.tiles import CHINESE

_ALL = range(CHINESE.size)
_CIVIL_IDS = tuple(t for t in _ALL if CIVIL[t])
_MILITARY_IDS = tuple(t for t in _ALL if not CIVIL[t])
_CIVIL_PAIRS = tuple((VALUE[a], a, b) for a, b in zip(_CIVIL_IDS[::2], _CIVIL_IDS[1::2],
                                                       strict=True))
"""(rank, id, id) of the eleven civil pairs: the two copies of each civil kind."""
_MILITARY_PAIRS = tuple(
    (v, *(t for t in _MILITARY_IDS if VALUE[t] == v)) for v in (9, 8, 7, 5)
)
_SUPREME = tuple(t for t in _MILITARY_IDS if VALUE[t] in SUPREME_VALUES)
_FAMILY_TILES = {
    f: (tuple(t for t in _CIVIL_IDS if FAMILY[t] == f),
        tuple(t for t in _MILITARY_IDS if FAMILY[t] == f))
    for f in (1, 2, 3, 4)
}
NO_TRICK_PAYS = 5
EVEN = 4
"""What a loser pays the winner: 5 without a trick, else 4 − tricks (docs/rules-book.md §2.8)."""
ENDGAME = 4
"""From this many tiles in hand on, moves are scored by the chance of taking the last trick
(three measured slightly worse, five no better, eight clearly worse: the look-ahead treats the
other hands roughly and expects single leads from them)."""
SHOWN = 0.5
"""About half of what the others play is shown face up, leaving the unseen pool."""
EPSILON = 1e-6
"""Keeps a beat of the last trick above a fold even when it will probably be beaten over."""
TIE = 1e-3
"""Orders tiles that are otherwise worth the same: the lowest is folded or led first."""


@dataclass(frozen=True)
class Weights:
    """The heuristic's knobs: worths in chips (what a settlement pays), and the look-ahead."""

    deal: float = 12.0
    """Roughly what taking the last trick is worth against losing it."""
    reserve: float = 6.0
    """Keeping the best single for the last trick, times its chance of holding."""
    strength: float = 1.5
    """Any other tile, times its chance of holding as a lead."""
    combo: float = 3.0
    """Per tile of a pair or combination in hand, times its chance of holding."""
    endgame: int = ENDGAME
    """Hand size from which the look-ahead takes over (1: only the last trick itself)."""


DEFAULT = Weights()


def _pays(taken: int) -> int:
    return NO_TRICK_PAYS if taken == 0 else EVEN - taken


class _Table:
    """What one seat can infer from its view: the tiles it has not seen and where they may be."""

    def __init__(self, view: TienGowView) -> None:
        self.view = view
        self.seat = cast(int, view.seat)
        self.mixed = view.options.mixed
        known = [False] * CHINESE.size
        for t in view.hand:
            known[t] = True
        for trick in view.history:
            for play in trick.plays:
                for t in play.tiles:
                    known[t] = True
        for play in view.trick:
            for t in play.tiles:
                known[t] = True
        self.unseen = [not k for k in known]
        self.n_unseen = max(sum(self.unseen), 1)
        # Unseen tiles above each value, per suit: above[CIVIL][v] counts civil values > v.
        counts = ([0] * 13, [0] * 13)
        for t in _ALL:
            if self.unseen[t]:
                counts[CIVIL[t]][VALUE[t]] += 1
        self.above = ([0] * 13, [0] * 13)
        for suit in (0, 1):
            for value in range(11, -1, -1):
                self.above[suit][value] = self.above[suit][value + 1] + counts[suit][value + 1]
        self._threats: dict[tuple[str, int, int, int], int] = {}
        self._reach: dict[tuple[tuple[int, ...], int, int | None], float] = {}
        self._survival: dict[tuple[Any, ...], float] = {}

    def threats(self, combo: Combo) -> int:
        """How many unseen plays could beat `combo` (each needs all its tiles in one hand)."""
        key = (combo.category, combo.civil, combo.military, combo.rank)
        found = self._threats.get(key)
        if found is not None:
            return found
        u = self.unseen
        cat, rank = combo.category, combo.rank
        if cat == SUPREME:
            found = 0
        elif combo.civil + combo.military == 1:
            found = self.above[combo.civil][rank]
        elif cat == CIVIL_PAIR:
            found = sum(1 for r, a, b in _CIVIL_PAIRS if r > rank and u[a] and u[b])
        elif cat == MILITARY_PAIR:
            found = sum(1 for r, a, b in _MILITARY_PAIRS if r > rank and u[a] and u[b])
        else:
            assert cat == MIXED
            found = 0
            for f in range(rank + 1, 5):
                civil, military = _FAMILY_TILES[f]
                if (sum(u[t] for t in civil) >= combo.civil
                        and sum(u[t] for t in military) >= combo.military):
                    found += 1
        self._threats[key] = found
        return found

    def lower(self, combo: Combo) -> int:
        """How many unseen plays of `combo`'s shape it would beat (each choice of tiles)."""
        u = self.unseen
        cat, rank = combo.category, combo.rank
        if cat == CIVIL_PAIR:
            return sum(1 for r, a, b in _CIVIL_PAIRS if r < rank and u[a] and u[b])
        if cat == MILITARY_PAIR:
            return sum(1 for r, a, b in _MILITARY_PAIRS if r < rank and u[a] and u[b])
        if cat == MIXED:
            ways = 0
            for f in range(1, rank):
                civil, military = _FAMILY_TILES[f]
                ways += (comb(sum(u[t] for t in civil), combo.civil)
                         * comb(sum(u[t] for t in military), combo.military))
            return ways
        return 0

    def below(self, t: int) -> int:
        """Unseen tiles of `t`'s suit that `t` beats."""
        above = self.above[CIVIL[t]]
        return above[0] - above[VALUE[t] - 1]

    def reach(self, seats: tuple[int, ...], size: int, held: int | None) -> float:
        """Chance that a given unseen play of `size` tiles sits whole in one of `seats`' hands
        (holding `held` tiles each, later in the deal; now when None). Remembered for the
        view: the look-ahead asks the same few questions again and again."""
        key = (seats, size, held)
        found = self._reach.get(key)
        if found is not None:
            return found
        counts = self.view.hand_counts
        if held is None:
            found = min(sum((counts[s] / self.n_unseen) ** size for s in seats), 1.0)
        else:
            # Meanwhile about half the tiles the others play are shown and leave the unseen
            # pool.
            shown = sum(counts[s] - held for s in seats) * SHOWN
            share = held / max(self.n_unseen - shown, 1.0)
            found = min(len(seats) * share ** size, 1.0)
        self._reach[key] = found
        return found

    def survival(self, combo: Combo, seats: tuple[int, ...], size: int,
                 held: int | None = None) -> float:
        """Chance that none of `seats` can beat `combo` (remembered for the view)."""
        key = (combo.category, combo.civil, combo.military, combo.rank, seats, size, held)
        found = self._survival.get(key)
        if found is None:
            threats = self.threats(combo)
            found = 1.0 if threats == 0 else (1.0 - self.reach(seats, size, held)) ** threats
            self._survival[key] = found
        return found


def rater(view: Any, weights: Weights = DEFAULT) -> Callable[[Action], float]:
    """Scores for `view.legal`, derived once per turn (see the module docstring)."""
    v = cast("TienGowView", view)
    table = _Table(v)
    seat = table.seat
    mixed = table.mixed
    hand = v.hand
    n = len(hand)
    others = tuple(s for s in range(v.players) if s != seat)
    next_seat = others[:1]
    taken = v.tricks[seat]
    early_death = v.options.early_death
    # Who could still beat a last single lead: under early death, nobody trickless.
    last_seats = tuple(s for s in others if v.tricks[s] > 0) if early_death else others

    def single(t: int) -> Combo:
        combo = classify((t,), mixed)
        assert combo is not None
        return combo

    strength = {t: table.survival(single(t), others, 1) for t in hand}
    reserve = max(hand, key=lambda t: (strength[t], VALUE[t], CIVIL[t]))
    bonus = dict.fromkeys(hand, 0.0)
    for tiles in _groups(hand, mixed):
        combo = classify(tiles, mixed)
        if combo is None:
            continue
        worth = weights.combo * table.survival(combo, others, len(tiles))
        for t in tiles:
            bonus[t] = max(bonus[t], worth)
    # The tile value only orders otherwise equal tiles: fold the lowest.
    keep = {t: weights.strength * strength[t] + bonus[t] + TIE * VALUE[t] for t in hand}
    keep[reserve] += weights.reserve * strength[reserve]

    def trick_gain(size: int) -> float:
        return float(_pays(taken) - _pays(taken + size))

    def final_lead(tiles: tuple[int, ...]) -> float:
        """Chance that `tiles`, led as the last trick, are not beaten."""
        combo = classify(tiles, mixed)
        if combo is None:
            return 0.0
        return table.survival(combo, last_seats if len(tiles) == 1 else others, len(tiles),
                              len(tiles))

    def final_follow(t: int, tricks: int) -> float:
        """Chance a lone tile takes a last trick someone else leads: a lower tile of its suit."""
        if early_death and tricks == 0:
            return 0.0
        return table.below(t) / table.n_unseen

    def take_chance(t: int, n_left: int) -> float:
        """Chance of beating and keeping a single led at the next trick (its suit, lower),
        against one seat after us on average."""
        return table.below(t) / table.n_unseen * table.survival(single(t), next_seat, 1, n_left)

    lead_memo: dict[tuple[tuple[int, ...], int], float] = {}
    follow_memo: dict[tuple[tuple[int, ...], int], float] = {}

    def end_lead(rest: tuple[int, ...], tricks: int) -> float:
        """Chance of taking the last trick when leading with `rest` left."""
        if len(rest) == 1:
            return final_lead(rest)
        key = (rest, tricks)
        found = lead_memo.get(key)
        if found is not None:
            return found
        best = final_lead(rest)
        for k, combo, left in _splits(rest, mixed):
            hold = table.survival(combo, others, k, len(rest))
            best = max(best, hold * end_lead(left, tricks + k)
                       + (1 - hold) * end_follow(left, tricks))
        lead_memo[key] = best
        return best

    def end_follow(rest: tuple[int, ...], tricks: int) -> float:
        """The same when someone else leads the next trick (taken as a single)."""
        if len(rest) == 1:
            return final_follow(rest[0], tricks)
        key = (rest, tricks)
        found = follow_memo.get(key)
        if found is not None:
            return found
        best = 0.0
        whole = classify(rest, mixed)
        if whole is not None:
            # The next leader may lead his whole hand as one play, lower than ours.
            best = table.lower(whole) / max(comb(table.n_unseen, len(rest)), 1)
        base = best
        for x, left in _leaves(rest):
            take = take_chance(x, len(rest))
            best = max(best, base + take * end_lead(left, tricks + 1)
                       + (1 - take) * end_follow(left, tricks))
        follow_memo[key] = best
        return best

    def endgame(tiles: tuple[int, ...], hold: float) -> float:
        """The deal's worth after playing `tiles` with chance `hold` of taking the trick."""
        rest = tuple(t for t in hand if t not in tiles)
        k = len(tiles)
        win = hold * end_lead(rest, taken + k) + (1 - hold) * end_follow(rest, taken)
        return weights.deal * win + hold * trick_gain(k)

    trick = v.trick
    if not trick:
        def rate_lead(action: Action) -> float:
            tiles = action.tiles
            k = len(tiles)
            if k == n:
                return weights.deal * final_lead(tiles)
            combo = classify(tiles, mixed)
            assert combo is not None
            hold = table.survival(combo, others, k)
            if n <= weights.endgame:
                return endgame(tiles, hold)
            return hold * trick_gain(k) - sum(keep[t] for t in tiles)

        return rate_lead

    size = trick[0].size
    later = tuple(s for s in others if all(p.seat != s for p in trick))

    def rate_follow(action: Action) -> float:
        tiles = action.tiles
        beat = action.verb == "beat"
        if not beat:
            hold = 0.0
        else:
            combo = classify(tiles, mixed)
            assert combo is not None
            hold = table.survival(combo, later, size)
            if size == n:
                # Beating the last trick is never worse than folding, even when it will not
                # hold; the highest beat is the hardest to beat over.
                return (weights.deal + trick_gain(size)) * hold + EPSILON * (1 + combo.rank)
        if size == n:
            return 0.0
        if n <= weights.endgame:
            return endgame(tiles, hold)
        value = -sum(keep[t] for t in tiles)
        if beat:
            value += hold * trick_gain(size)
        return value

    return rate_follow


_SPLITS: dict[tuple[tuple[int, ...], bool], tuple[tuple[int, Combo, tuple[int, ...]], ...]] = {}
_LEAVES: dict[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...]] = {}
MEMO = 1 << 16
"""Hands remembered, at most, by the look-ahead's tables of what a hand may lead and leave."""


def _splits(rest: tuple[int, ...], mixed: bool
            ) -> tuple[tuple[int, Combo, tuple[int, ...]], ...]:
    """Every play `rest` may lead short of all of it, in the order of its combinations: the
    number of tiles, the play, and the tiles it leaves. The same few hands come back in every
    deal's last tricks."""
    key = (rest, mixed)
    found = _SPLITS.get(key)
    if found is None:
        splits = []
        for k in range(1, len(rest)):
            for tiles in combinations(rest, k):
                combo = classify(tiles, mixed)
                if combo is not None:
                    splits.append((k, combo, tuple(t for t in rest if t not in tiles)))
        if len(_SPLITS) >= MEMO:
            _SPLITS.clear()
        found = _SPLITS[key] = tuple(splits)
    return found


def _leaves(rest: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Each tile of `rest` with the tiles it leaves, in order."""
    found = _LEAVES.get(rest)
    if found is None:
        if len(_LEAVES) >= MEMO:
            _LEAVES.clear()
        found = _LEAVES[rest] = tuple((x, tuple(t for t in rest if t != x)) for x in rest)
    return found


def _groups(hand: Sequence[int], mixed: bool) -> list[tuple[int, ...]]:
    """The pairs and the largest mixed combination per family the hand holds."""
    found: list[tuple[int, ...]] = []
    for _, a, b in _CIVIL_PAIRS:
        if a in hand and b in hand:
            found.append((a, b))
    for _, a, b in _MILITARY_PAIRS:
        if a in hand and b in hand:
            found.append((a, b))
    if all(t in hand for t in _SUPREME):
        found.append(_SUPREME)
    if mixed:
        for civil, military in _FAMILY_TILES.values():
            c = tuple(t for t in civil if t in hand)
            m = tuple(t for t in military if t in hand)
            if c and m:
                found.append((*c, *m))
    return found
