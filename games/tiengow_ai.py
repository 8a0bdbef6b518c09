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

The odds themselves (the unseen tiles, what could beat a play, where it may be) are worked out
in `games.tiengow_odds`. The player is asked at almost every turn of every simulated deal, so
what it works out per view is kept small: lists and bits indexed by tile, tables made once per
tile, play or hand, and the look-ahead's single-tile chances once per hand size.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any, cast

from games.engine import Action
from games.hierarchy import CIVIL, VALUE, Combo, classify
from games.tiengow_deal import TienGowView
from games.tiengow_odds import (
    ABOVE,
    BELOW,
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
    options = v.options
    mixed = options.mixed
    hand = v.hand
    n = len(hand)
    held = 0
    for t in hand:
        held |= BIT[t]
    odds = Odds(v, held)
    survival = odds.survival
    players = v.players
    others = _OTHERS.get((players, seat)) or _others(players, seat)
    tricks = v.tricks
    taken = tricks[seat]
    gains = _GAINS[taken]  # what taking a trick of k tiles now saves in the settlement
    # Who could still beat a last single lead: under early death, nobody trickless.
    last_seats = (tuple(s for s in others if tricks[s] > 0) if options.early_death
                  else others)
    bare = options.early_death and taken == 0
    keep: dict[int, float] = {}
    strength: list[float] = []
    if n > weights.endgame:
        keep, strength = _keep(odds, hand, held, mixed, others, weights)
    ahead: list[_LookAhead] = []  # once a move asks for it (none does on the last trick)

    def endgame(tiles: tuple[int, ...], hold: float) -> float:
        """The deal's worth after playing `tiles` with chance `hold` of taking the trick."""
        if not ahead:
            ahead.append(_LookAhead(odds, hand, mixed, others, last_seats))
        look = ahead[0]
        rest = tuple(t for t in hand if t not in tiles)
        win = hold * look.lead(rest) + (1 - hold) * look.follow(rest, bare)
        return weights.deal * win + hold * gains[len(tiles)]

    trick = v.trick
    if not trick and n > weights.endgame and n > MOST:
        single = dict(zip(hand, strength, strict=False))
        gain = gains[1]

        def rate_early_lead(action: Action) -> float:
            """`rate_lead` before the look-ahead and the last tricks; a single holds with its
            strength, which is `Odds.survival` against the others."""
            tiles = action.tiles
            if len(tiles) == 1:
                t = tiles[0]
                return single[t] * gain - keep[t]
            return survival(tiles, others) * gains[len(tiles)] - sum([keep[t] for t in tiles])

        return rate_early_lead

    if not trick:
        def rate_lead(action: Action) -> float:
            tiles = action.tiles
            k = len(tiles)
            if k == n:
                # The last trick: `_LookAhead`'s chance of it holding.
                if classify(tiles, mixed) is None:
                    return 0.0
                return weights.deal * survival(tiles, last_seats if k == 1 else others, k)
            hold = survival(tiles, others)
            if n <= weights.endgame:
                return endgame(tiles, hold)
            return hold * gains[k] - sum([keep[t] for t in tiles])

        return rate_lead

    size = trick[0].size
    # The seats still to play, from who led: turns go by increasing seat (D-18).
    lead_seat = trick[0].seat
    later = _LATER.get((players, seat, lead_seat))
    if later is None:
        played = {p.seat for p in trick}
        later = _LATER[players, seat, lead_seat] = tuple(s for s in others if s not in played)
    if size < n and n > weights.endgame:
        gain = gains[size]

        def rate_early(action: Action) -> float:
            """`rate_follow` before the look-ahead: what the tiles were worth, and for a beat
            the tricks it probably keeps (minus one tile's worth is minus the sum of one)."""
            tiles = action.tiles
            if action.verb != "beat":
                return -keep[tiles[0]] if size == 1 else -sum([keep[t] for t in tiles])
            return -sum([keep[t] for t in tiles]) + survival(tiles, later) * gain

        return rate_early

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
        # Before the look-ahead, `rate_early` scores the moves.
        return endgame(tiles, hold)

    return rate_follow


MOST = 4
"""The most tiles a play may have (docs/rules-book.md §2.8)."""
_GAINS = tuple(tuple(float(_pays(taken) - _pays(taken + k)) for k in range(9))
               for taken in range(9))
"""What taking a trick of k tiles saves a seat that has taken `taken`, by taken and k."""
_OTHERS: dict[tuple[int, int], tuple[int, ...]] = {}
_LATER: dict[tuple[int, int, int], tuple[int, ...]] = {}


def _others(players: int, seat: int) -> tuple[int, ...]:
    """The seats other than `seat`, in order (remembered: every view asks)."""
    found = _OTHERS[players, seat] = tuple(s for s in range(players) if s != seat)
    return found


class _LookAhead:
    """The chance of taking the last trick with the tiles `rest` of `hand` left, leading
    (`lead`) and when someone else leads the next trick (`follow`, taken as a single), under
    early death when the player still lacks a trick (`bare`: then a lone tile cannot take the
    last trick). Remembered per tiles left; a lead never leaves the player bare. What a single
    tile's chances are with so many tiles held is worked out once per tile (x ** 0 is 1.0, as
    `Odds.survival` answers for a tile nothing beats).

    An object rather than two closures calling each other: closures that do make a cycle for
    every view, which only the garbage collector frees, and collecting them cost about 5%."""

    __slots__ = ("above", "chance", "follows", "hand", "holds", "leads", "mixed", "odds",
                 "others", "takes")

    def __init__(self, odds: Odds, hand: tuple[int, ...], mixed: bool, others: tuple[int, ...],
                 last_seats: tuple[int, ...]) -> None:
        self.odds, self.hand, self.mixed, self.others = odds, hand, mixed, others
        unseen, n_unseen = odds.unseen, odds.n_unseen
        leads: dict[tuple[int, ...], float] = {}
        follows: tuple[dict[tuple[int, ...], float], ...] = ({}, {})
        above: dict[int, int] = {}
        chance: dict[int, float] = {}
        for t in hand:
            single = (t,)
            above[t] = (unseen & ABOVE[t]).bit_count()
            leads[single] = odds.survival(single, last_seats, 1)
            # A lone tile takes a last trick someone else leads with a lower tile of its suit.
            chance[t] = follows[False][single] = (unseen & BELOW[t]).bit_count() / n_unseen
            follows[True][single] = 0.0
        self.leads, self.follows, self.above, self.chance = leads, follows, above, chance
        self.holds: dict[int, dict[int, float]] = {}
        """A single's chance of holding when led, by the tiles held and the tile."""
        self.takes: dict[int, dict[int, float]] = {}
        """The chance of beating and keeping a single led at the next trick (its suit, lower),
        against one seat after us on average: by the tiles held and the tile."""

    def lead(self, rest: tuple[int, ...], bare: bool = False) -> float:
        leads = self.leads
        found = leads.get(rest)
        if found is not None:
            return found
        odds, others = self.odds, self.others
        held = len(rest)
        whole, leaves, splits = _shape(rest, self.mixed)
        best = 0.0 if whole is None else odds.survival(rest, others, held)
        after = self.follows[False]
        hold_of = self.holds.get(held)
        if hold_of is None:
            m = 1.0 - odds.reach(others, 1, held)
            above = self.above
            hold_of = self.holds[held] = {t: m ** above[t] for t in self.hand}
        for x, left in leaves:
            hold = hold_of[x]
            then = leads.get(left)
            if then is None:
                then = self.lead(left)
            lost = after.get(left)
            if lost is None:
                lost = self.follow(left, False)
            value = hold * then + (1 - hold) * lost
            if value > best:
                best = value
        for tiles, left in splits:
            count = odds.threats(tiles)
            hold = 1.0 if count == 0 else (1.0 - odds.reach(others, len(tiles), held)) ** count
            then = leads.get(left)
            if then is None:
                then = self.lead(left)
            lost = after.get(left)
            if lost is None:
                lost = self.follow(left, False)
            value = hold * then + (1 - hold) * lost
            if value > best:
                best = value
        leads[rest] = best
        return best

    def follow(self, rest: tuple[int, ...], bare: bool) -> float:
        memo = self.follows[bare]
        found = memo.get(rest)
        if found is not None:
            return found
        odds = self.odds
        best = 0.0
        held = len(rest)
        whole, leaves, _ = _shape(rest, self.mixed)
        if whole is not None:
            # The next leader may lead his whole hand as one play, lower than ours.
            best = odds.lower(whole) / max(comb(odds.n_unseen, held), 1)
        base = best
        take_of = self.takes.get(held)
        if take_of is None:
            m = 1.0 - odds.reach(self.others[:1], 1, held)
            above, chance = self.above, self.chance
            take_of = self.takes[held] = {t: chance[t] * m ** above[t] for t in self.hand}
        leads = self.leads
        for x, left in leaves:
            take = take_of[x]
            then = leads.get(left)
            if then is None:
                then = self.lead(left)
            lost = memo.get(left)
            if lost is None:
                lost = self.follow(left, bare)
            value = base + take * then + (1 - take) * lost
            if value > best:
                best = value
        memo[rest] = best
        return best


def _keep(odds: Odds, hand: tuple[int, ...], held: int, mixed: bool, others: tuple[int, ...],
          weights: Weights) -> tuple[dict[int, float], list[float]]:
    """What keeping each tile of `hand` is worth, before the look-ahead takes over: a single's
    chance of holding (as `Odds.survival` works it out: x ** 0 is 1.0), the best of its
    groups', and the most for the reserve; and that chance of holding, tile by tile."""
    unseen = odds.unseen
    miss = 1.0 - odds.reach(others, 1, None)
    strength = [miss ** (unseen & ABOVE[t]).bit_count() for t in hand]
    # The reserve: the strongest single, then the highest (the first of equals).
    best = max(strength)
    i = strength.index(best)
    reserve = hand[i]
    if strength.count(best) > 1:
        for j in range(i + 1, len(hand)):
            if strength[j] == best and _ORDER[hand[j]] > _ORDER[reserve]:
                reserve = hand[j]
    bonus: dict[int, float] = {}
    groups = _groups(held, mixed)
    if groups:
        # 1 − `Odds.reach` of `others` by the size of a play, once asked.
        misses = [1.0, 1.0, 1.0, 1.0, 1.0]
        for tiles in groups:
            size = len(tiles)
            if size > 2 and classify(tiles, mixed) is None:  # two tiles always may be led
                continue
            # As `Odds.survival` works it out.
            threats = odds.threats(tiles)
            if threats == 0:
                worth = weights.combo * 1.0
            else:
                if misses[size] == 1.0:
                    misses[size] = 1.0 - odds.reach(others, size, None)
                worth = weights.combo * misses[size] ** threats
            for t in tiles:
                if worth > bonus.get(t, 0.0):
                    bonus[t] = worth
    # The tile value only orders otherwise equal tiles: fold the lowest. (Adding no bonus is
    # adding 0.0, which changes no sum here.)
    w = weights.strength
    if bonus:
        keep = {t: w * s + bonus.get(t, 0.0) + _TIE[t]
                for t, s in zip(hand, strength, strict=False)}
    else:
        keep = {t: w * s + _TIE[t] for t, s in zip(hand, strength, strict=False)}
    keep[reserve] += weights.reserve * best
    return keep, strength


_ORDER = tuple(2 * VALUE[t] + CIVIL[t] for t in range(len(VALUE)))
"""Orders tiles by value, then civil over military, as the reserve is chosen among equals."""
_TIE = tuple(TIE * VALUE[t] for t in range(len(VALUE)))


Shape = tuple[Combo | None, tuple[tuple[int, tuple[int, ...]], ...],
              tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]]
_SHAPES: dict[tuple[tuple[int, ...], bool], Shape] = {}
MEMO = 1 << 16
"""Hands remembered, at most, by the look-ahead's table of what a hand may lead and leave."""


def _shape(rest: tuple[int, ...], mixed: bool) -> Shape:
    """What the look-ahead asks of the tiles `rest`: the play all of them make (None: they may
    not be led together); each tile with the tiles it leaves, in order; and every play of two
    tiles or more short of all of them, in the order of its combinations, with the tiles it
    leaves. The same few hands come back in every deal's last tricks."""
    key = (rest, mixed)
    found = _SHAPES.get(key)
    if found is None:
        leaves = tuple((x, tuple(t for t in rest if t != x)) for x in rest)
        splits = []
        for k in range(2, len(rest)):
            for tiles in combinations(rest, k):
                if classify(tiles, mixed) is not None:
                    splits.append((tiles, tuple(t for t in rest if t not in tiles)))
        if len(_SHAPES) >= MEMO:
            _SHAPES.clear()
        found = _SHAPES[key] = (classify(rest, mixed), leaves, tuple(splits))
    return found


_PAIRED = tuple((a, b) for _, a, b in (*CIVIL_PAIRS, *MILITARY_PAIRS, (0, *SUPREME_TILES)))
_NEXT_TO = {BIT[a]: (a, b) for a, b in _PAIRED if b == a + 1 and a % 2 == 0}
"""The pairs whose tiles are an even id and the next, by the lower tile's bit: most of them."""
_NEXT_LOW = sum(_NEXT_TO)
_APART = tuple(((a, b), BIT[a] | BIT[b]) for a, b in _PAIRED if BIT[a] not in _NEXT_TO)
def _family_plays(civil: tuple[int, ...], military: tuple[int, ...]
                  ) -> tuple[int, dict[int, tuple[int, ...]]]:
    """A family's tiles as bits, and the play the tiles of it in a hand make (the civil ones,
    then the military ones), by those tiles as bits: made once rather than at every turn."""
    plays = {}
    for k in range(2, len(civil) + len(military) + 1):
        for tiles in combinations((*civil, *military), k):
            if any(CIVIL[t] for t in tiles) and not all(CIVIL[t] for t in tiles):
                plays[bits(tiles)] = tiles
    return bits(civil) | bits(military), plays


_FAMILIES = tuple(_family_plays(civil, military) for civil, military in FAMILY_TILES.values())


def _groups(held: int, mixed: bool) -> list[tuple[int, ...]]:
    """The pairs and the largest mixed combination per family a hand (as bits) holds, in any
    order."""
    found: list[tuple[int, ...]] = [pair for pair, both in _APART if held & both == both]
    # A pair of neighbours shows as a bit of the hand whose next bit is also held.
    low = held & (held >> 1) & _NEXT_LOW
    while low:
        bit = low & -low
        found.append(_NEXT_TO[bit])
        low ^= bit
    if mixed:
        for family, plays in _FAMILIES:
            play = plays.get(held & family)
            if play is not None:
                found.append(play)
    return found
