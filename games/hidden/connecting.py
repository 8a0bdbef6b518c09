"""Deals for the connecting games (Dragon, Ce Deng, Tails): the others' hands, their face-down
discards and the unused tiles dealt anew from one seat's view.

Rules sources: docs/rules-book.md §2.1 (a face-down discard is made only by a player who cannot
attach, D-02, so it tells which numbers that hand lacked), §2.4–§2.5 (decks of Ce Deng and Tails).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, cast

from games.connect_deal import ConnectDealer, ConnectView
from games.engine import Action, sample_seed
from games.hidden.chain import SLIP, TRIES, Chain
from games.tiles import CHINESE

BURN = 30
THIN = 6
"""Steps of a connecting game's `Chain` before its first deal, and between two deals."""
LIGHT_TRIES = 4
"""Attempts at reading every seat's discards as its lightest tiles."""
DRAWS = 100
"""Whole deals of one seat's unseen tiles drawn, at most, before its discards are no longer
read as its lightest tiles."""
TIMELINE_NODES = 4000
"""Work allowed for ordering a two-arm line's placements; beyond it no discard is read."""
TIMELINES = 16
"""Orders of play listed, at most, before a two-arm line is given up as unreadable."""

_CA = CHINESE.a
_CB = CHINESE.b
_CKIND = CHINESE.kind_of
_CPIPS = CHINESE.pips


Turn = tuple[int, int, tuple[int, ...], int]
"""One move of a connecting game as the view implies it: (seat, tile laid or -1 for a face-down
discard, the open numbers before it, the move's argument: the open end of a one-arm lead, the
arm of a play, -1 for none)."""


@lru_cache(maxsize=8)
def connect_orders(view: ConnectView[Any]) -> list[list[Turn]]:
    """Every order of play the view allows, move by move.

    Turns go round from the leader and every turn lays a tile or discards one. A player who
    discarded could not attach, and hands only shrink, so he cannot attach to the same open
    numbers later either: in a one-arm line the next tile laid is therefore by the first seat in
    turn whose tile it is, and everyone before him discarded — one order. A two-arm line records
    only which side each tile went to, and now and then two orders fit it; they are all
    returned (none when there are too many to list, or when the line cannot be read).
    """
    line, n, leader = view.line, view.players, view.leader
    if not line:
        return [[]] if view.version == 0 else []
    if view.arms == 2:
        return _two_arm_orders(view)
    if line[0][3] != leader:
        return []
    turns: list[Turn] = [(leader, line[0][0], (), line[0][2])]
    ends = (line[0][2],)
    nxt = 1
    for g in range(1, view.version):
        seat = (leader + g) % n
        if nxt < len(line) and line[nxt][3] == seat and line[nxt][1] == ends[0]:
            turns.append((seat, line[nxt][0], ends, 0))
            ends = (line[nxt][2],)
            nxt += 1
        else:
            turns.append((seat, -1, ends, -1))
    ok = nxt == len(line) and all(
        sum(1 for s, t, _, _ in turns if s == seat and t < 0) == view.discard_counts[seat]
        for seat in range(n))
    return [turns] if ok else []


def _two_arm_orders(view: ConnectView[Any]) -> list[list[Turn]]:
    line, n, leader, moves = view.line, view.players, view.leader, view.version
    counts = list(view.discard_counts)
    budget = [TIMELINE_NODES]
    found: list[list[Turn]] = []
    turns: list[Turn] = []
    dropped = [0] * n

    def walk(g: int, lo: int, hi: int, ends: tuple[int, int]) -> bool:
        """False once the work or the number of orders runs over."""
        budget[0] -= 1
        if budget[0] < 0 or len(found) > TIMELINES:
            return False
        if g == moves:
            if lo == 0 and hi == len(line) - 1 and dropped == counts:
                found.append(list(turns))
            return True
        seat = (leader + g) % n
        placed = False
        for side in (0, 1):
            at = lo - 1 if side == 0 else hi + 1
            if not 0 <= at < len(line) or line[at][3] != seat:
                continue
            tile, left, right, _ = line[at]
            if (right if side == 0 else left) != ends[side]:
                continue
            placed = True
            turns.append((seat, tile, ends, side))
            ok = walk(g + 1, *((at, hi, (left, ends[1])) if side == 0
                               else (lo, at, (ends[0], right))))
            turns.pop()
            if not ok:
                return False
        if placed or dropped[seat] >= counts[seat]:
            return True
        turns.append((seat, -1, ends, -1))
        dropped[seat] += 1
        ok = walk(g + 1, lo, hi, ends)
        turns.pop()
        dropped[seat] -= 1
        return ok

    for i, (tile, left, right, seat) in enumerate(line):
        if seat != leader:
            continue
        turns.append((seat, tile, (), -1))
        ok = walk(1, i, i, (left, right))
        turns.pop()
        if not ok:
            return []
    return found


@dataclass(frozen=True)
class Clues:
    """What one seat's face-down discards tell about the tiles it has not shown."""

    barred: tuple[frozenset[int], ...]
    """Per discard, in order, the numbers it certainly does not show; last, the hand's."""
    caps: tuple[int, ...]
    """Per discard, the fewest pips of any tile the seat laid after it (99: none)."""


NO_CAP = 99


@lru_cache(maxsize=8)
def connect_clues(view: ConnectView[Any]) -> dict[int, Clues]:
    """Per seat, what every order of play the view allows agrees on.

    A discard lacks the numbers open when it was made and at every earlier discard of the same
    seat (it was in the hand then); the hand lacks those of all its discards. The caps serve
    the reading of discards as the lightest tile held (`connect_sample`): a tile laid later was
    in the hand at the discard.
    """
    orders = connect_orders(view)
    clues: dict[int, Clues] = {}
    for s in range(view.players):
        agreed: list[frozenset[int]] | None = None
        caps: list[int] | None = None
        for turns in orders:
            seen: set[int] = set()
            mine: list[frozenset[int]] = []
            cap: list[int] = []
            for g, (d, tile, ends, _) in enumerate(turns):
                if d != s or tile >= 0:
                    continue
                seen.update(ends)
                mine.append(frozenset(seen))
                later = [_CPIPS[t] for e, t, _, _ in turns[g + 1:] if e == s and t >= 0]
                cap.append(min(later, default=NO_CAP))
            mine.append(frozenset(seen))
            agreed = mine if agreed is None else [a & b for a, b in zip(agreed, mine,
                                                                        strict=True)]
            caps = cap if caps is None else [max(a, b) for a, b in zip(caps, cap, strict=True)]
        k = view.discard_counts[s]
        clues[s] = Clues(tuple(agreed or [frozenset()] * (k + 1)),
                         tuple(caps if caps is not None else [NO_CAP] * k))
    return clues


@cache
def _connect_deck(rules: ConnectDealer, players: int) -> tuple[int, ...]:
    return rules.deck(players)[0]


def _deal_seat(pool: list[int], clue: Clues, hand: int, lightest: bool, rng: random.Random
               ) -> tuple[list[int], list[int]] | None:
    """A seat's hand and discards, taken out of `pool`, none showing a number its clue bars;
    None (pool untouched) when no such deal turns up.

    With `lightest` the seat is read as a player who always discards his lightest tile (as
    the heuristic does, and most people): its discards are then the lightest of all the tiles
    it has not shown, in the order made, and none heavier than a tile it laid later. Such a
    deal is drawn whole and kept only if it fits, so every fitting deal is equally likely.
    """
    size = hand + len(clue.caps)
    if lightest:
        # Only tiles that could fill some place are drawn from (the draw stays uniform over
        # the deals that fit).
        places = [(clue.barred[-1], NO_CAP), *zip(clue.barred, clue.caps, strict=False)]
        able = [t for t in pool if any(_CPIPS[t] <= cap and _fits(t, banned)
                                       for banned, cap in places)]
        if len(able) < size:
            return None
        for _ in range(DRAWS):
            chosen = sorted(rng.sample(able, size), key=lambda t: (_CPIPS[t], rng.random()))
            discards, held = chosen[:len(clue.caps)], chosen[len(clue.caps):]
            if all(_fits(t, clue.barred[-1]) for t in held) and all(
                    _CPIPS[t] <= cap and _fits(t, banned)
                    for t, cap, banned in zip(discards, clue.caps, clue.barred, strict=False)):
                drawn = set(chosen)
                pool[:] = [t for t in pool if t not in drawn]
                return held, discards
        return None
    taken: list[int] = []

    def pick(banned: frozenset[int]) -> int | None:
        fits = [k for k, t in enumerate(pool) if _fits(t, banned)]
        if not fits:
            return None
        k = fits[rng.randrange(len(fits))]
        t = pool[k]
        pool[k] = pool[-1]
        pool.pop()
        taken.append(t)
        return t

    # The most constrained first: the hand, then the discards from the last.
    for banned in [clue.barred[-1]] * hand + list(reversed(clue.barred[:-1])):
        if pick(banned) is None:
            pool.extend(taken)
            return None
    return taken[:hand], taken[:hand - 1:-1] if hand else taken[::-1]


def _fits(tile: int, banned: frozenset[int]) -> bool:
    return _CA[tile] not in banned and _CB[tile] not in banned


def connect_sample(rules: ConnectDealer, view: Any, rng: random.Random) -> Any:
    """A deal `rules` could have dealt, as `view`'s seat sees it (`ConnectingRules.redeal`)."""
    v = cast("ConnectView[Any]", view)
    seat = cast(int, v.seat)
    n = v.players
    known = set(v.hand)
    known.update(p[0] for p in v.line)
    known.update(v.discards[seat])
    base = [t for t in _connect_deck(rules, n) if t not in known]
    others = [s for s in range(n) if s != seat]
    if len(base) != v.unused + sum(v.hand_counts[s] + v.discard_counts[s] for s in others):
        raise ValueError("the view's counts do not add up to the unseen tiles")
    clues = connect_clues(v)
    # First as a table of players who discard their lightest tile, then only what the rules
    # imply, then nothing but the counts.
    for attempt in range(LIGHT_TRIES + TRIES + 1):
        lightest, ruled = attempt < LIGHT_TRIES, attempt < LIGHT_TRIES + TRIES
        pool = list(base)
        hands: list[list[int]] = [[] for _ in range(n)]
        discards: list[list[int]] = [[] for _ in range(n)]
        for s in others:
            clue = clues[s]
            if not ruled:
                clue = Clues((frozenset(),) * len(clue.barred), clue.caps)
            got = _deal_seat(pool, clue, v.hand_counts[s], lightest, rng)
            if got is None:
                break
            hands[s], discards[s] = got
        else:
            hands[seat] = list(v.hand)
            discards[seat] = list(v.discards[seat])
            ends = v.ends
            # The deal is not over, so some hand can still attach.
            if ruled and ends and not any(_CA[t] in ends or _CB[t] in ends
                                          for h in hands for t in h):
                continue
            return rules.state_type(
                options=v.options, seed=sample_seed(rng), players=n, match=v.match,
                version=v.version, leader=v.leader, turn=cast(int, v.to_move),
                hands=tuple(tuple(sorted(h, key=lambda t: (_CKIND[t], t))) for h in hands),
                discards=tuple(tuple(d) for d in discards), line=v.line, ends=ends,
                closed=v.closed, unused=tuple(sorted(pool)), redeals=v.redeals, done="")
    raise AssertionError("unreachable: the last attempt has no constraints")


@dataclass(frozen=True, slots=True)
class _Seen:
    """What the heuristic reads of a seat's view, rebuilt cheaply while a deal is replayed."""

    game: str
    players: int
    seat: int
    hand: tuple[int, ...]
    line: tuple[tuple[int], ...]
    discards: tuple[tuple[int, ...], ...]
    ends: tuple[int, ...]


def connect_likelihood(view: Any, state: Any, rater: Any) -> float:
    """How likely the other seats' moves so far were, had they held what `state` gives them and
    played as the heuristic does (now and then, `SLIP`, something else).

    The deal is replayed from its start, each seat's tiles being its hand, its discards and the
    tiles it laid; at each of the others' moves the heuristic rates that seat's legal moves
    (one per kind of tile, as the rules list them) from what the seat saw then. A deal in which
    some earlier turn found no hand able to attach would have ended there: it is impossible.
    """
    v = cast("ConnectView[Any]", view)
    orders = connect_orders(v)
    if not orders:
        return 1.0
    turns = orders[0]
    n, seat, two = v.players, v.seat, v.arms == 2
    hands = [list(state.hands[s]) + list(state.discards[s]) for s in range(n)]
    for s, tile, _, _ in turns:
        if tile >= 0:
            hands[s].append(tile)
    for h in hands:
        h.sort(key=lambda t: (_CKIND[t], t))
    line: list[tuple[int]] = []
    discards: list[list[int]] = [[] for _ in range(n)]
    dropped = [0] * n
    weight = 1.0
    for s, tile, ends, arg in turns:
        verb = "lead" if not ends else "play" if tile >= 0 else "drop"
        if tile < 0:
            tile = state.discards[s][dropped[s]]
            dropped[s] += 1
        if ends and not any(_CA[t] in ends or _CB[t] in ends for h in hands for t in h):
            return 0.0  # the deal would have ended before the moves seen
        if s != seat:
            legal = _connect_legal(hands[s], ends, two)
            mine = [a for a in legal if a.verb == verb and _CKIND[a.tiles[0]] == _CKIND[tile]
                    and a.arg == (None if arg < 0 else arg)]
            own = tuple(discards[s])
            seen = _Seen(v.game, n, s, tuple(hands[s]), tuple(line),
                         (*((),) * s, own, *((),) * (n - s - 1)), ends)
            rate = rater(seen)
            scores = [rate(a) for a in legal]
            best = max(scores)
            ties = scores.count(best)
            if mine and rate(mine[0]) == best:
                weight *= (1 - SLIP) / ties
            elif len(scores) > ties:
                weight *= SLIP / (len(scores) - ties)
        hands[s].remove(tile)
        if verb == "drop":
            discards[s].append(tile)
        else:
            line.append((tile,))
    return weight


def _connect_legal(hand: list[int], ends: tuple[int, ...], two: bool) -> list[Any]:
    """The legal moves of a connecting game (`ConnectingRules.legal_actions`) for a hand."""
    kinds: dict[int, int] = {}
    for t in hand:
        kinds.setdefault(_CKIND[t], t)
    firsts = list(kinds.values())
    if not ends:
        if two:
            return [Action("lead", (t,)) for t in firsts]
        return [Action("lead", (t,), e) for t in firsts
                for e in ((_CA[t],) if _CA[t] == _CB[t] else (_CA[t], _CB[t]))]
    plays = [Action("play", (t,), arm) for t in firsts for arm, end in enumerate(ends)
             if _CA[t] == end or _CB[t] == end]
    return plays or [Action("drop", (t,)) for t in firsts]



def connect_chain(rules: ConnectDealer, view: Any, rater: Any, rng: random.Random
                  ) -> Chain:
    """`Chain` for a connecting game, weighed by `connect_likelihood`: places are each other
    seat's hand, each of its face-down discards, and the unused tiles; no place gets a number
    the rules bar there (`connect_clues`)."""
    v = cast("ConnectView[Any]", view)
    n = v.players
    seat = cast(int, v.seat)
    clues = connect_clues(v)
    start = connect_sample(rules, v, rng)
    seed = start.seed
    places: list[tuple[int, int]] = []
    """(seat, -1 for its hand or the discard's index); seat -1 holds the unused tiles."""
    banned: list[frozenset[int]] = []
    tiles: list[int] = []
    for s in range(n):
        if s == seat:
            continue
        for k, t in enumerate(start.discards[s]):
            places.append((s, k))
            banned.append(clues[s].barred[k])
            tiles.append(t)
        for t in start.hands[s]:
            places.append((s, -1))
            banned.append(clues[s].barred[-1])
            tiles.append(t)
    for t in start.unused:
        places.append((-1, -1))
        banned.append(frozenset())
        tiles.append(t)

    def build(chosen: list[int]) -> Any:
        hands: list[list[int]] = [[] for _ in range(n)]
        discards: list[list[int]] = [[] for _ in range(n)]
        unused: list[int] = []
        for (s, k), t in zip(places, chosen, strict=True):
            if s < 0:
                unused.append(t)
            elif k < 0:
                hands[s].append(t)
            else:
                discards[s].append(t)
        hands[seat] = list(v.hand)
        discards[seat] = list(v.discards[seat])
        return rules.state_type(
            options=v.options, seed=seed, players=n, match=v.match, version=v.version,
            leader=v.leader, turn=cast(int, v.to_move),
            hands=tuple(tuple(sorted(h, key=lambda t: (_CKIND[t], t))) for h in hands),
            discards=tuple(tuple(d) for d in discards), line=v.line, ends=v.ends,
            closed=v.closed, unused=tuple(sorted(unused)), redeals=v.redeals, done="")

    owners = [s * 100 + (99 if k < 0 else k) for s, k in places]
    return Chain(tiles, owners, lambda i, t: _fits(t, banned[i]), build,
                 lambda state: connect_likelihood(v, state, rater), rng, BURN, THIN)
