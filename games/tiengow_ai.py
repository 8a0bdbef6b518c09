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
in `games.tiengow_odds`, and what keeping each tile is worth early on in `games.tiengow_keep`.
The player is asked at almost every turn of every simulated deal, so what it works out per view
is kept small: lists and bits indexed by tile, tables made once per tile, play or hand, and the
look-ahead's tables once per turn, from one tile up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any

from games.engine import Action
from games.hierarchy import VALUE, Combo, classify
from games.tiengow_deal import Play
from games.tiengow_keep import worths
from games.tiengow_odds import (
    ABOVE,
    BELOW,
    BIT,
    FULL,
    Lower,
    Odds,
    bits,
    lower_of,
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
    """The score of each of `view.legal`, as `scores` works them out together."""
    return dict(zip(view.legal, scores(view, weights), strict=True)).__getitem__


def scores(view: Any, weights: Weights = DEFAULT) -> list[float]:
    """The scores of `view.legal`, in order (see the module docstring), worked out in one pass:
    what a turn derives from the view is shared by its moves, and scoring them in a loop here
    cost less than a call per move. Before the look-ahead, a turn asks no more of the view than
    its moves' worths need: most turns of a deal are such turns."""
    return scores_of(view.legal, view.hand, view.seat, view.players, view.options, view.tricks,
                     view.trick, view.seen, view.hand_counts, weights)


def scores_of(legal: tuple[Action, ...], hand: tuple[int, ...], seat: int, players: int,
              options: Any, tricks: Sequence[int], trick: Sequence[Play], seen: int,
              counts: tuple[int, ...], weights: Weights = DEFAULT) -> list[float]:
    """`scores` from the fields of the view it reads, as the fast table holds them
    (`TienGowTable.scored_move`): the seat to move's moves, hand, seat, the number of players,
    the options, each seat's tricks, the trick so far as everyone sees it, the tiles the seat
    has seen played (as bits) and each hand's size."""
    n = len(hand)
    held = 0
    for t in hand:
        held |= BIT[t]
    others = _OTHERS.get((players, seat)) or _others(players, seat)
    mixed: bool = options.mixed
    taken = tricks[seat]
    gains = _GAINS[taken]  # what taking a trick of k tiles now saves in the settlement
    keep: dict[int, float] = {}
    if n > weights.endgame:
        # What `Odds` works out first: the commonest turns need no more of it.
        unseen = FULL & ~(seen | held)
        n_unseen = max(unseen.bit_count(), 1)
        keep, strength = worths(unseen, counts, n_unseen, hand, held, mixed, others,
                                weights.strength, weights.reserve, weights.combo)
        worth = keep.__getitem__  # summed over a play's tiles: cheaper than a comprehension
        if not trick and n > MOST:
            # A single holds with its strength, which is `Odds.survival` against the others.
            gain = gains[1]
            found: list[float] = []
            add = found.append
            odds: Odds | None = None
            for action in legal:
                tiles = action.tiles
                if len(tiles) == 1:
                    t = tiles[0]
                    add(strength[t] * gain - keep[t])
                    continue
                if odds is None:
                    odds = Odds(seen, counts, held)
                add(odds.survival(tiles, others) * gains[len(tiles)] - sum(map(worth, tiles)))
            return found
    later: tuple[int, ...] = ()
    if trick:
        size = trick[0].size
        # The seats still to play, from who led: turns go by increasing seat (D-18).
        lead_seat = trick[0].seat
        seats = _LATER.get((players, seat, lead_seat))
        if seats is None:
            played = {p.seat for p in trick}
            seats = _LATER[players, seat, lead_seat] = tuple(s for s in others if s not in played)
        later = seats
        if size < n and n > weights.endgame:
            # Before the look-ahead: what the tiles were worth, and for a beat the tricks it
            # probably keeps.
            gain = gains[size]
            if size == 1:
                # The commonest turn of all. `Odds.survival` of a single against the seats
                # still to play (x ** 0 is 1.0), with 1 − `Odds.reach` summed as it sums
                # (x ** 1 is x).
                reach: float = 0  # as `sum` starts
                for s in later:
                    reach += counts[s] / n_unseen
                miss = 1.0 - (reach if reach < 1.0 else 1.0)
                found = []
                add = found.append
                for action in legal:
                    t = action.tiles[0]
                    if action.verb != "beat":
                        add(-keep[t])
                    else:
                        add(-keep[t] + miss ** (unseen & ABOVE[t]).bit_count() * gain)
                return found
            survival = Odds(seen, counts, held).survival
            return [-sum(map(worth, a.tiles)) if a.verb != "beat"
                    else -sum(map(worth, a.tiles)) + survival(a.tiles, later) * gain
                    for a in legal]
    odds = Odds(seen, counts, held)
    survival = odds.survival
    found = []
    # Who could still beat a last single lead: under early death, nobody trickless.
    last_seats = (tuple(s for s in others if tricks[s] > 0) if options.early_death
                  else others)
    bare = options.early_death and taken == 0
    # The look-ahead's tables, once a move asks for them (none does on the last trick): a
    # lead leaves at most all tiles but one, a follow all but the lead's.
    leads: dict[int, float] = {}
    follows: dict[int, float] = {}
    asked = False
    top = n - (trick[0].size if trick else 1)
    deal = weights.deal
    if not trick:
        for action in legal:
            tiles = action.tiles
            k = len(tiles)
            if k == n:
                # The last trick: its chance of holding, as `_ahead` works out a last lead.
                found.append(0.0 if classify(tiles, mixed) is None
                             else deal * survival(tiles, last_seats if k == 1 else others, k))
                continue
            hold = survival(tiles, others)
            if n > weights.endgame:
                found.append(hold * gains[k] - sum([keep[t] for t in tiles]))
                continue
            if not asked:
                leads, follows = _ahead(odds, hand, mixed, others, last_seats, top, bare, True)
                asked = True
            rest = held
            for t in tiles:
                rest ^= BIT[t]
            win = (follows[rest] if hold == 0.0
                   else hold * leads[rest] + (1 - hold) * follows[rest])
            found.append(deal * win + hold * gains[k])
        return found
    for action in legal:
        tiles = action.tiles
        if action.verb == "beat":
            hold = survival(tiles, later)
            if size == n:
                # Beating the last trick is never worse than folding, even when it will not
                # hold; the highest beat is the hardest to beat over.
                combo = classify(tiles, mixed)
                assert combo is not None
                found.append((deal + gains[size]) * hold + EPSILON * (1 + combo.rank))
                continue
        elif size == n:
            found.append(0.0)
            continue
        else:
            hold = 0.0
        if not asked:
            # Only a beat (and a lead) asks what leading with all the tiles left is worth.
            leading = any([a.verb == "beat" for a in legal])
            leads, follows = _ahead(odds, hand, mixed, others, last_seats, top, bare, leading)
            asked = True
        rest = held
        for t in tiles:
            rest ^= BIT[t]
        # A fold's win is its follow, as 0.0 * lead + (1 - 0.0) * follow is: no lead is asked.
        win = (follows[rest] if hold == 0.0
               else hold * leads[rest] + (1 - hold) * follows[rest])
        found.append(deal * win + hold * gains[size])
    return found


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


_IDS = range(len(VALUE))


def _ahead(odds: Odds, hand: tuple[int, ...], mixed: bool, others: tuple[int, ...],
           last_seats: tuple[int, ...], top: int, bare: bool, leading: bool
           ) -> tuple[dict[int, float], dict[int, float]]:
    """The chance of taking the last trick with the tiles `rest` of `hand` left, by `rest` as
    bits, for every `rest` of at most `top` tiles: leading (the first table) and when someone
    else leads the next trick (the second, taken as a single), under early death when the
    player still lacks a trick (`bare`: then a lone tile cannot take the last trick; a lead
    never leaves the player bare). Worked out from one tile up, so each choice of tiles is
    worked out once for all the moves of a turn and every smaller one is ready when asked:
    asking them recursively, in turn, cost about twice as much. What a single tile's chances
    are with so many tiles held is worked out once per tile (x ** 0 is 1.0, as
    `Odds.survival` answers for a tile nothing beats). Unless `leading`, leading with all
    `top` tiles is not worked out: no fold asks it. What the hand's choices of tiles are and
    what each may lead and leave comes from `_plan`, the same for every turn with that hand."""
    unseen, n_unseen = odds.unseen, odds.n_unseen
    survival, reach, ways_below = odds.survival, odds.reach, odds.ways
    leads: dict[int, float] = {}
    follows: dict[int, float] = {}
    bares: dict[int, float] = {}
    above: dict[int, int] = {}
    chance: dict[int, float] = {}
    # As `Odds.survival` works out a single led as the last trick.
    miss = 1.0 - reach(last_seats, 1, 1)
    for t in hand:
        bit = BIT[t]
        count = above[t] = (unseen & ABOVE[t]).bit_count()
        leads[bit] = 1.0 if count == 0 else miss ** count
        # A lone tile takes a last trick someone else leads with a lower tile of its suit.
        chance[t] = follows[bit] = (unseen & BELOW[t]).bit_count() / n_unseen
        bares[bit] = 0.0
    first = others[:1]
    pairs, levels = _plan(hand, mixed)
    # Filled per number of tiles held, in one pass over the tiles (x ** 0 is 1.0).
    hold_of: dict[int, float] = {}
    take_of: dict[int, float] = {}
    for held in range(2, top + 1):
        # A single's chance of holding when led, and of beating and keeping a single led at
        # the next trick (its suit, lower) against one seat after us on average.
        lead = leading or held < top
        m = 1.0 - reach(first, 1, held)
        if lead:
            hold_miss = 1.0 - reach(others, 1, held)
            for t in hand:
                count = above[t]
                hold_of[t] = hold_miss ** count
                take_of[t] = chance[t] * m ** count
        else:
            for t in hand:
                take_of[t] = chance[t] * m ** above[t]
        ways = max(comb(n_unseen, held), 1)
        if held == 2:
            # Two tiles leave one either way and hold no play short of both: written out.
            for pair, a, b, bit_a, bit_b, whole, low in pairs:
                key = bit_a | bit_b
                lead_a, follow_a = leads[bit_b], follows[bit_b]
                lead_b, follow_b = leads[bit_a], follows[bit_a]
                if lead:
                    hold = hold_of[a]
                    best = hold * lead_a + (1 - hold) * follow_a  # never below 0.0
                    if whole is not None:
                        value = survival(pair, others, 2)
                        if best > value:
                            value = best
                        best = value
                    hold = hold_of[b]
                    value = hold * lead_b + (1 - hold) * follow_b
                    if value > best:
                        best = value
                    leads[key] = best
                base = 0.0 if low is None else ways_below(low) / ways
                take = take_of[a]
                best = base + take * lead_a + (1 - take) * follow_a
                if base > best:
                    best = base
                take = take_of[b]
                value = base + take * lead_b + (1 - take) * follow_b
                if value > best:
                    best = value
                follows[key] = best
                if bare:
                    # A lone tile left bare takes nothing.
                    take = take_of[a]
                    best = base + take * lead_a
                    if base > best:
                        best = base
                    take = take_of[b]
                    value = base + take * lead_b
                    if value > best:
                        best = value
                    bares[key] = best
            continue
        split_hold: dict[tuple[int, ...], float] = {}
        for rest, key, whole, low, leaves, splits in levels[held - 3]:
            if lead:
                best = 0.0 if whole is None else survival(rest, others, held)
                for x, left in leaves:
                    hold = hold_of[x]
                    value = hold * leads[left] + (1 - hold) * follows[left]
                    if value > best:
                        best = value
                for tiles, left in splits:
                    # A play within several of the hands, held as long whichever it is in.
                    known = split_hold.get(tiles)
                    if known is None:
                        count = odds.threats(tiles)
                        known = split_hold[tiles] = (
                            1.0 if count == 0
                            else (1.0 - reach(others, len(tiles), held)) ** count)
                    hold = known
                    value = hold * leads[left] + (1 - hold) * follows[left]
                    if value > best:
                        best = value
                leads[key] = best
            # The next leader may lead his whole hand as one play, lower than ours. The best
            # chance of a hand that follows: what beating the next lead with the whole hand
            # is worth (`base`), or taking the trick with one tile `x` and leading the hand
            # it leaves, or else following on with it (under early death, lone tiles bare).
            base = 0.0 if low is None else ways_below(low) / ways
            best = base
            for x, left in leaves:
                take = take_of[x]
                value = base + take * leads[left] + (1 - take) * follows[left]
                if value > best:
                    best = value
            follows[key] = best
            if bare:
                best = base
                for x, left in leaves:
                    take = take_of[x]
                    value = base + take * leads[left] + (1 - take) * bares[left]
                    if value > best:
                        best = value
                bares[key] = best
    return leads, bares if bare else follows


Pair = tuple[tuple[int, int], int, int, int, int, Combo | None, Lower | None]
Rest = tuple[tuple[int, ...], int, Combo | None, Lower | None, tuple[tuple[int, int], ...],
             tuple[tuple[tuple[int, ...], int], ...]]
Plan = tuple[tuple[Pair, ...], tuple[tuple[Rest, ...], ...]]
_SHAPES: dict[tuple[tuple[int, ...], bool], Plan] = {}
_RESTS: dict[tuple[tuple[int, ...], bool], Rest] = {}
MEMO = 1 << 16
"""Hands (`_plan`), and choices of three tiles or more (`_rest`), remembered at most."""


def _plan(hand: tuple[int, ...], mixed: bool) -> Plan:
    """What the look-ahead asks of the choices of tiles of `hand`, in the order of their
    combinations: each two tiles (`_PAIRS`), then by number of tiles from three up each choice
    of that many (`_rest`). The same few hands come back in every deal's last tricks."""
    key = (hand, mixed)
    found = _SHAPES.get(key)
    if found is None:
        table = _PAIRS[mixed]
        pairs = tuple(table[a][b] for a, b in combinations(hand, 2))
        levels = tuple(tuple(_rest(rest, mixed) for rest in combinations(hand, held))
                       for held in range(3, len(hand)))
        if len(_SHAPES) >= MEMO:
            _SHAPES.clear()
        found = _SHAPES[key] = (pairs, levels)
    return found


def _rest(rest: tuple[int, ...], mixed: bool) -> Rest:
    """What the look-ahead asks of the tiles `rest`: them, as bits too; their play (None: none)
    and what it beats (`lower_of`); each tile with the tiles it leaves (as bits), in order; each
    play of two tiles or more short of all of them, in order, with the tiles it leaves."""
    key = (rest, mixed)
    found = _RESTS.get(key)
    if found is None:
        every = bits(rest)
        whole = classify(rest, mixed)
        leaves = tuple((x, every ^ BIT[x]) for x in rest)
        splits = []
        for k in range(2, len(rest)):
            for tiles in combinations(rest, k):
                if classify(tiles, mixed) is not None:
                    splits.append((tiles, every ^ bits(tiles)))
        if len(_RESTS) >= MEMO:
            _RESTS.clear()
        found = _RESTS[key] = (rest, every, whole, None if whole is None else lower_of(whole),
                               leaves, tuple(splits))
    return found


def _pair(a: int, b: int, mixed: bool) -> Pair:
    whole = classify((a, b), mixed) if a < b else None
    return (a, b), a, b, BIT[a], BIT[b], whole, None if whole is None else lower_of(whole)


_PAIRS = tuple(tuple(tuple(_pair(a, b, mixed) for b in _IDS) for a in _IDS)
               for mixed in (False, True))
"""What the look-ahead asks of two tiles (them, each as bits, their play and what it beats), by
whether mixed plays may be led and the tiles in order (out of order: no play): made once."""
