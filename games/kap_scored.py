"""The Kap table the simulator plays on: it keeps each seat's reading of the deal as the moves
change it, and makes the heuristic's choice itself.

Rules source: docs/rules-book.md §2.6 (an eye and tens; Culin's turn: take any face-up discard
and pay for it with another; the classical turn: the last discard or the stock; D-10: a taken
tile may not go straight back), §2.7 (several sets, ten tiles, four tens).

The heuristic (`games.kap_ai.rater`) reads a seat's hand and the face-up pile afresh at every
move: counts per kind, the hand's signature, and the table of what may still come (`cells`).
Yet a move changes little of it: a draw only the drawer's hand; a discard the discarder's hand
and, for everyone, one face-up tile; a take the same the other way round. So this table keeps
the reading of every seat it has chosen for and changes it move by move (`play`), and
`scored_move` rates the moves from it exactly as the rater does from a view and picks among
them as `ScoredPlayer.choose` does, drawing as much from the seat's generator: the same move,
figure for figure (every worth is a whole number of tiles, so sums kept up move by move equal
sums made afresh; `tests/games/test_kap_scored.py` holds the two together move for move).

Readings are built only once a choice is asked of the table, and a copy starts without them:
a strong player's playout (`games.search`, on a copy) builds those of the seats it chooses for
at their first turn, and a table nobody chooses on pays nothing for them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

from games import kap_ai
from games.engine import Action
from games.kap_ai import DRAW_BIAS, MISSING_WEIGHT, RESHAPE_PLAYERS, TAKES, WIN
from games.kap_signatures import _COUNT_BITS, _STATE_SHIFT
from games.kap_table import KapTable, KapTableRules
from games.tens import KINDS

Candidate = tuple[int, int, int, float, tuple[int, ...]]
"""A discard that pays for a taken tile, as weighing the hand it leaves needs it
(`_fewest_missing`)."""
_STATE = (0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2)
"""A kind's column in its digit's cells by how many of it a hand holds: none, one, more."""
_ONE = tuple(1 << (_COUNT_BITS * r) for r in range(10))
"""Per last digit, one tile more in a signature's count of tiles ending in it."""
_EYE = tuple(tuple(e << (_STATE_SHIFT + 2 * r) for e in range(4)) for r in range(10))
"""Per last digit, its eye state (0 none, 1 half, 2 whole; 3 the field's mask) in place."""


@cache
def _candidates(game: str, four_two: int, culin: bool, sets: int
                ) -> dict[tuple[int, int], list[Candidate]]:
    """Per hand (its counts per kind as one number) and tile taken (the digit of a kind the hand
    lacks, else 10 + its kind), the discards after the take that leave the fewest tiles
    missing, as weighing them needs them (`_fewest_missing`): what `kap_ai.rater` remembers
    per hand and kind, kept here per multiset of kinds (identical tiles weigh alike)."""
    return {}


class ScoredKapTable(KapTable):
    """A Kap table (`KapTable`) that keeps a reading for the heuristic (the module's docstring)
    of every seat it has chosen for: per seat its counts per kind, their signature, the kinds
    held once and twice or more per digit, and the cells of what may still come; for everyone,
    per kind, the copies still to come as a seat holding none of it counts them (`pool`:
    face-up ones weighed as the rules of taking make them), and those cells (`empty`)."""

    __slots__ = ("_cells", "_context", "_counts", "_empty", "_keys", "_mults", "_ones",
                 "_pool", "_read", "_twos", "_up")

    def __init__(self, rules: KapTableRules, state: Any) -> None:
        super().__init__(rules, state)
        self._context: tuple[Any, ...] | None = None
        """What the readings are weighed with (`kap_ai._context`), once one is built; None in
        a copy too (`KapTable.copy`), whose readings are built afresh if asked for."""

    @classmethod
    def scores_as(cls, rater: Callable[[Any], Callable[[Action], float]]) -> bool:
        """Whether `scored_move` chooses as the heuristic player with `rater` does."""
        return rater is kap_ai.rater

    # ----- the readings ----------------------------------------------------------------------

    def _start(self) -> tuple[Any, ...]:
        """What every reading shares, from the pile as it is; no seat read yet."""
        options = self.options
        culin = self._culin
        sets = self.sets if self.sets > 1 else 1
        context = kap_ai._context(self.rules.id, options.four_two, culin, sets)
        sig, digit, kind_of, totals, empty, weight, _ = context
        up = weight - 1.0
        pool = list(totals)
        cells = list(empty)
        for t, _ in self.pile:
            k = kind_of[t]
            pool[k] += up
            cells[3 * digit[k]] += up
        self._pool, self._empty, self._up = pool, cells, up
        players = self.players
        self._counts: list[list[int] | None] = [None] * players
        self._cells: list[list[float]] = [[] for _ in range(players)]
        self._keys, self._mults = [0] * players, [0] * players
        self._ones: list[list[int]] = [[] for _ in range(players)]
        self._twos: list[list[int]] = [[] for _ in range(players)]
        self._read: list[int] = []
        """The seats read so far."""
        shared = self._context = (*context, _candidates(self.rules.id, options.four_two, culin,
                                                        sets),
                                  culin and players <= RESHAPE_PLAYERS, sig.info)
        return shared

    def _build(self, seat: int, digit: tuple[int, ...], kind_of: tuple[int, ...]) -> None:
        """The seat's reading, from its hand and the pile as they are (`kap_ai.rater`'s)."""
        pool = self._pool
        counts = [0] * KINDS
        for t in self.hands[seat]:
            counts[kind_of[t]] += 1
        ones = [0] * 10
        twos = [0] * 10
        cells = list(self._empty)
        key = mult = 0
        last = -1
        for t in self.hands[seat]:
            k = kind_of[t]
            if k == last:
                continue
            last = k
            n = counts[k]
            r = digit[k]
            cells[3 * r] -= pool[k]
            cells[3 * r + _STATE[n]] += pool[k] - n
            key += n << (_COUNT_BITS * r)
            mult += n << (4 * k)
            if n == 1:
                ones[r] += 1
            else:
                twos[r] += 1
        for r in range(10):
            if twos[r] or ones[r]:
                key |= (2 if twos[r] else 1) << (_STATE_SHIFT + 2 * r)
        self._counts[seat] = counts
        self._keys[seat] = key
        self._mults[seat] = mult
        self._ones[seat] = ones
        self._twos[seat] = twos
        self._cells[seat] = cells
        self._read.append(seat)

    def _hand(self, seat: int, k: int, change: int, digit: tuple[int, ...]) -> None:
        """One tile of kind `k` more (`change` 1) or fewer (-1) in a read seat's hand."""
        counts = self._counts[seat]
        assert counts is not None
        n = counts[k]
        m = n + change
        counts[k] = m
        r = digit[k]
        a = self._pool[k] - n
        cells = self._cells[seat]
        cells[3 * r + _STATE[n]] -= a
        cells[3 * r + _STATE[m]] += a - change
        ones, twos = self._ones[seat], self._twos[seat]
        if n == 1:
            ones[r] -= 1
        elif n:
            twos[r] -= 1
        if m == 1:
            ones[r] += 1
        elif m:
            twos[r] += 1
        at = _STATE_SHIFT + 2 * r
        self._keys[seat] = (((self._keys[seat] + (change << (_COUNT_BITS * r))) & ~(3 << at))
                            | ((2 if twos[r] else 1 if ones[r] else 0) << at))
        self._mults[seat] += change << (4 * k)

    def _face_up(self, k: int, change: int, digit: tuple[int, ...]) -> None:
        """One face-up tile of kind `k` more (`change` 1) or fewer (-1), for every reading."""
        up = self._up * change
        self._pool[k] += up
        base = 3 * digit[k]
        self._empty[base] += up
        counts, cells = self._counts, self._cells
        for seat in self._read:
            cells[seat][base + _STATE[counts[seat][k]]] += up  # type: ignore[index]

    def play(self, action: Action) -> None:
        context = self._context
        if context is not None:
            digit, kind_of = context[1], context[2]
            seat = self.turn
            read = self._counts[seat] is not None
            verb = action.verb
            if verb == "take":
                k = kind_of[action.tiles[0]]
                self._face_up(k, -1, digit)
                if read:
                    self._hand(seat, k, 1, digit)
            elif verb == "draw":
                if read:
                    self._hand(seat, kind_of[self.stock[self.at]], 1, digit)
            else:
                k = kind_of[action.tiles[0]]
                if read:
                    self._hand(seat, k, -1, digit)
                self._face_up(k, 1, digit)
                if read and self.phase == "swap":
                    self._hand(seat, kind_of[self.stock[self.at]], 1, digit)
        KapTable.play(self, action)

    # ----- the choice ------------------------------------------------------------------------

    def scored_move(self, seat: int, rng: random.Random) -> Action:
        """The seat to move's choice as the heuristic player makes it (`scores_as`): its moves
        rated from the seat's reading as `kap_ai.rater` rates them from its view, then the
        best, ties broken by the same draw from the same generator (`ScoredPlayer.choose`)."""
        legal = self.legal()
        if len(legal) == 1:
            return legal[0]
        context = self._context
        if context is None:
            context = self._start()
        if self._counts[seat] is None:
            self._build(seat, context[1], context[2])
        scores = self._scores(seat, legal, context)
        top = max(scores)
        if scores.count(top) == 1:
            return legal[scores.index(top)]
        best = [action for action, score in zip(legal, scores, strict=True) if score == top]
        return best[rng.randrange(len(best))]

    def _scores(self, seat: int, legal: tuple[Action, ...], context: tuple[Any, ...]
                ) -> list[float]:
        """`kap_ai.rater`'s worth of every legal move, in order, from the seat's reading (the
        rater's steps, on the reading kept here instead of one made from the view; its
        `value_without` spelt out where it is asked)."""
        sig, digit, kind_of, _, _, weight, _, takes, reshape, info = context
        counts = self._counts[seat]
        assert counts is not None
        cells = self._cells[seat]
        pool = self._pool
        key = self._keys[seat]
        scores: list[float] = []
        if self.phase == "open":
            found = info.get(key)
            if found is None:
                found = sig.details(key)
            short, helps, bits = found
            outs = 0.0
            for i in bits:
                outs += cells[i]
            draw = outs - MISSING_WEIGHT * short + DRAW_BIAS
            mult = self._mults[seat]
            minus: list[tuple[int, int, int]] | None = None
            for action in legal:
                if action.verb != "take":
                    scores.append(draw)
                    continue
                p = kind_of[action.tiles[0]]
                n = counts[p]
                r = digit[p]
                old = n if n < 2 else 2
                wanted = helps >> (3 * r + old) & 1
                if wanted and short == 1:
                    scores.append(WIN)
                    continue
                if not (wanted or reshape):
                    scores.append(float("-inf"))
                    continue
                # A kind not held is taken into the same hand as any other ending in the same
                # digit, and leaves the same discards: remembered per digit.
                known = (mult, r if n == 0 else 10 + p)
                candidates = takes.get(known)
                if candidates is None:
                    if minus is None:
                        minus = _less_one(digit, kind_of, self.hands[seat], counts, key,
                                          self._ones[seat], self._twos[seat])
                    candidates = _fewest_missing(sig, digit, minus, counts, key,
                                                 self._ones[seat], self._twos[seat], p)
                    if len(takes) >= TAKES:
                        takes.clear()
                    takes[known] = candidates
                a = pool[p] - n
                new = 3 * r + (2 if n else 1)
                cells[3 * r + old] -= a
                cells[new] += a - weight
                best = float("-inf")
                for d, m, change, after_short, after_bits in candidates:
                    value = 0.0
                    for i in after_bits:
                        value += cells[i]
                    if change:
                        value += change * (pool[d] - m)
                    value -= after_short
                    if value > best:
                        best = value
                scores.append(best)
                cells[new] -= a - weight
                cells[3 * r + old] += a
            return scores
        shorts = sig.shorts
        ones, twos = self._ones[seat], self._twos[seat]
        # Only the discards that leave the fewest tiles missing are worth telling apart: the
        # others are worth what they lack, the fewest their hand's `value_without`.
        fewest = 99
        least: list[tuple[int, int, int]] = []
        for i, action in enumerate(legal):
            d = kind_of[action.tiles[0]]
            r = digit[d]
            n = counts[d]
            eye = _EYE[r]
            after = (key - _ONE[r]) & ~eye[3]
            if twos[r] > (n == 2):
                after |= eye[2]
            elif ones[r] + (n == 2) - (n == 1):
                after |= eye[1]
            s = shorts.get(after)
            if s is None:
                s = sig.missing(after)
            scores.append(-MISSING_WEIGHT * s)
            if s < fewest:
                fewest, least = s, [(i, d, after)]
            elif s == fewest:
                least.append((i, d, after))
        for i, d, after in least:
            found = info.get(after)
            if found is None:
                found = sig.details(after)
            short, helps, bits = found
            value = 0.0
            for b in bits:
                value += cells[b]
            n = counts[d]
            if n <= 2:
                b = 3 * digit[d] + n
                if helps >> b & 1:
                    value -= pool[d] - n
                if helps >> (b - 1) & 1:
                    value += pool[d] - n
            scores[i] = value - MISSING_WEIGHT * short
        return scores


def _less_one(digit: tuple[int, ...], kind_of: tuple[int, ...], hand: list[int],
              counts: list[int], key: int, ones: list[int], twos: list[int]
              ) -> list[tuple[int, int, int]]:
    """Per kind held, in kind order: the kind, its digit, and the signature `key` of the hand
    with one tile of it fewer (`kap_ai.rater`'s `minus`)."""
    minus = []
    last = -1
    for t in hand:
        d = kind_of[t]
        if d == last:
            continue
        last = d
        m = counts[d]
        q = digit[d]
        eye = _EYE[q]
        o, w = ones[q], twos[q]
        if m == 1:
            o -= 1
        elif m == 2:
            w -= 1
            o += 1
        minus.append((d, q, (key - _ONE[q]) & ~eye[3] | eye[2 if w else 1 if o else 0]))
    return minus


def _fewest_missing(sig: Any, digit: tuple[int, ...], minus: list[tuple[int, int, int]],
                    counts: list[int], key: int, ones: list[int], twos: list[int], p: int
                    ) -> list[Candidate]:
    """The discards that pay for a tile of kind `p` taken and leave the fewest tiles missing
    (`kap_ai.rater`'s candidates: the hand's least useful tile but one of kind p, D-10), each
    as what weighing the hand it leaves needs: its kind, the copies of it held, how its copies
    still to come move (`value_without`: -1, 0 or 1), `MISSING_WEIGHT` times what that hand
    lacks, and the cells it adds up. A discard ending in another digit than the taken tile
    changes the hand less that tile (`minus`) only where the take does."""
    r = digit[p]
    n = counts[p]
    ones_r, twos_r = ones[r], twos[r]
    if n == 0:
        ones_r += 1
    elif n == 1:
        ones_r -= 1
        twos_r += 1
    eye = _EYE[r]
    taken = (key + _ONE[r]) & ~eye[3] | eye[2 if twos_r else 1]
    moved = taken - key
    shorts = sig.shorts
    best_short = 99
    fewest: list[tuple[int, int]] = []
    for d, q, less in minus:
        if q != r:
            after = less + moved
        elif d == p:
            continue
        else:
            # The taken hand less one tile of kind d, at the taken tile's own digit.
            m = counts[d]
            o, w = ones_r, twos_r
            if m == 1:
                o -= 1
            elif m == 2:
                w -= 1
                o += 1
            after = (taken - _ONE[r]) & ~eye[3] | eye[2 if w else 1 if o else 0]
        s = shorts.get(after)
        if s is None:
            s = sig.missing(after)
        if s < best_short:
            best_short, fewest = s, [(d, after)]
        elif s == best_short:
            fewest.append((d, after))
    candidates: list[Candidate] = []
    for d, after in fewest:
        found = sig.info.get(after)
        if found is None:
            found = sig.details(after)
        short, helps, bits = found
        m = counts[d]
        change = 0
        if m <= 2:
            b = 3 * digit[d] + m
            change = (helps >> (b - 1) & 1) - (helps >> b & 1)
        candidates.append((d, m, change, MISSING_WEIGHT * short, bits))
    return candidates
