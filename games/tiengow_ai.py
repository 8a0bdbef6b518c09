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

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any, cast

from games.engine import Action
from games.hierarchy import CIVIL, VALUE, classify
from games.tiengow_deal import TienGowView
from games.tiengow_odds import (
    ABOVE,
    BIT,
    CIVIL_PAIRS,
    FAMILY_TILES,
    MILITARY_PAIRS,
    SUPREME_TILES,
    Odds,
    bits,
)

NO_TRICK_PAYS = 5
EVEN = 4
"""What a loser pays the winner: 5 without a trick, else 4 − tricks (docs/rules-book.md §2.8)."""
ENDGAME = 4
"""From this many tiles in hand on, moves are scored by the chance of taking the last trick
(three measured slightly worse, five no better, eight clearly worse: the look-ahead treats the
other hands roughly and expects single leads from them)."""
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


def rater(view: Any, weights: Weights = DEFAULT) -> Callable[[Action], float]:
    """Scores for `view.legal`, derived once per turn (see the module docstring)."""
    v = cast("TienGowView", view)
    seat = cast(int, v.seat)
    mixed = v.options.mixed
    hand = v.hand
    n = len(hand)
    odds = Odds(v, bits(hand))
    n_unseen = odds.n_unseen
    survival = odds.survival
    others = tuple(s for s in range(v.players) if s != seat)
    next_seat = others[:1]
    taken = v.tricks[seat]
    early_death = v.options.early_death
    # Who could still beat a last single lead: under early death, nobody trickless.
    last_seats = tuple(s for s in others if v.tricks[s] > 0) if early_death else others
    gains = [float(_pays(taken) - _pays(taken + k)) for k in range(n + 1)]
    """What taking a trick of k tiles now saves in the settlement."""
    keep: dict[int, float] = {}
    if n > weights.endgame:
        keep = _keep(odds, hand, mixed, others, weights)

    def final_lead(tiles: tuple[int, ...]) -> float:
        """Chance that `tiles`, led as the last trick, are not beaten."""
        if classify(tiles, mixed) is None:
            return 0.0
        k = len(tiles)
        return survival(tiles, last_seats if k == 1 else others, k)

    # The look-ahead, remembered per hand left: under early death, also by whether the player
    # still lacks a trick (`bare`), the only way the tricks taken so far matter to it.
    lead_memo: tuple[dict[tuple[int, ...], float], ...] = ({}, {})
    follow_memo: tuple[dict[tuple[int, ...], float], ...] = ({}, {})

    def end_lead(rest: tuple[int, ...], bare: bool) -> float:
        """Chance of taking the last trick when leading with `rest` left."""
        if len(rest) == 1:
            return final_lead(rest)
        memo = lead_memo[bare]
        found = memo.get(rest)
        if found is not None:
            return found
        best = final_lead(rest)
        held = len(rest)
        for tiles, left in _splits(rest, mixed):
            hold = survival(tiles, others, held)
            best = max(best, hold * end_lead(left, False) + (1 - hold) * end_follow(left, bare))
        memo[rest] = best
        return best

    def end_follow(rest: tuple[int, ...], bare: bool) -> float:
        """The same when someone else leads the next trick (taken as a single)."""
        if len(rest) == 1:
            # A lone tile takes a last trick someone else leads with a lower tile of its suit.
            return 0.0 if bare else odds.below(rest[0]) / n_unseen
        memo = follow_memo[bare]
        found = memo.get(rest)
        if found is not None:
            return found
        best = 0.0
        held = len(rest)
        whole = classify(rest, mixed)
        if whole is not None:
            # The next leader may lead his whole hand as one play, lower than ours.
            best = odds.lower(whole) / max(comb(n_unseen, held), 1)
        base = best
        for x, left in _leaves(rest):
            # The chance of beating and keeping a single led at the next trick (its suit,
            # lower), against one seat after us on average.
            take = odds.below(x) / n_unseen * survival((x,), next_seat, held)
            best = max(best, base + take * end_lead(left, False)
                       + (1 - take) * end_follow(left, bare))
        memo[rest] = best
        return best

    bare_now = early_death and taken == 0

    def endgame(tiles: tuple[int, ...], hold: float) -> float:
        """The deal's worth after playing `tiles` with chance `hold` of taking the trick."""
        rest = tuple(t for t in hand if t not in tiles)
        win = hold * end_lead(rest, False) + (1 - hold) * end_follow(rest, bare_now)
        return weights.deal * win + hold * gains[len(tiles)]

    trick = v.trick
    if not trick:
        def rate_lead(action: Action) -> float:
            tiles = action.tiles
            k = len(tiles)
            if k == n:
                return weights.deal * final_lead(tiles)
            hold = survival(tiles, others)
            if n <= weights.endgame:
                return endgame(tiles, hold)
            return hold * gains[k] - sum([keep[t] for t in tiles])

        return rate_lead

    size = trick[0].size
    later = tuple(s for s in others if all(p.seat != s for p in trick))

    def rate_follow(action: Action) -> float:
        tiles = action.tiles
        beat = action.verb == "beat"
        if not beat:
            hold = 0.0
        else:
            hold = survival(tiles, later)
            if size == n:
                # Beating the last trick is never worse than folding, even when it will not
                # hold; the highest beat is the hardest to beat over.
                combo = classify(tiles, mixed)
                assert combo is not None
                return (weights.deal + gains[size]) * hold + EPSILON * (1 + combo.rank)
        if size == n:
            return 0.0
        if n <= weights.endgame:
            return endgame(tiles, hold)
        value = -sum([keep[t] for t in tiles])
        if beat:
            value += hold * gains[size]
        return value

    return rate_follow


def _keep(odds: Odds, hand: tuple[int, ...], mixed: bool, others: tuple[int, ...],
          weights: Weights) -> dict[int, float]:
    """What keeping each tile of `hand` is worth, before the look-ahead takes over."""
    unseen = odds.unseen
    reach = odds.reach(others, 1, None)
    # A single's chance of holding, as `Odds.survival` works it out.
    strength = {}
    for t in hand:
        threats = (unseen & ABOVE[t]).bit_count()
        strength[t] = 1.0 if threats == 0 else (1.0 - reach) ** threats
    reserve = max(hand, key=lambda t: (strength[t], VALUE[t], CIVIL[t]))
    bonus = dict.fromkeys(hand, 0.0)
    for tiles in _groups(bits(hand), mixed):
        if classify(tiles, mixed) is None:
            continue
        worth = weights.combo * odds.survival(tiles, others)
        for t in tiles:
            bonus[t] = max(bonus[t], worth)
    # The tile value only orders otherwise equal tiles: fold the lowest.
    keep = {t: weights.strength * strength[t] + bonus[t] + TIE * VALUE[t] for t in hand}
    keep[reserve] += weights.reserve * strength[reserve]
    return keep


_SPLITS: dict[tuple[tuple[int, ...], bool], tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]]
_SPLITS = {}
_LEAVES: dict[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...]] = {}
MEMO = 1 << 16
"""Hands remembered, at most, by the look-ahead's tables of what a hand may lead and leave."""


def _splits(rest: tuple[int, ...], mixed: bool
            ) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every play `rest` may lead short of all of it, in the order of its combinations, with
    the tiles it leaves. The same few hands come back in every deal's last tricks."""
    key = (rest, mixed)
    found = _SPLITS.get(key)
    if found is None:
        splits = []
        for k in range(1, len(rest)):
            for tiles in combinations(rest, k):
                if classify(tiles, mixed) is not None:
                    splits.append((tiles, tuple(t for t in rest if t not in tiles)))
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


_PAIRS = tuple(((a, b), BIT[a] | BIT[b]) for _, a, b in (*CIVIL_PAIRS, *MILITARY_PAIRS))
_SUPREME = bits(SUPREME_TILES)
_FAMILIES = tuple((civil, military, bits(civil), bits(military))
                  for civil, military in FAMILY_TILES.values())


def _groups(hand: int, mixed: bool) -> list[tuple[int, ...]]:
    """The pairs and the largest mixed combination per family the hand (as bits) holds."""
    found: list[tuple[int, ...]] = [pair for pair, both in _PAIRS if hand & both == both]
    if hand & _SUPREME == _SUPREME:
        found.append(SUPREME_TILES)
    if mixed:
        for civil, military, civil_bits, military_bits in _FAMILIES:
            if hand & civil_bits and hand & military_bits:
                found.append((*(t for t in civil if hand & BIT[t]),
                              *(t for t in military if hand & BIT[t])))
    return found
