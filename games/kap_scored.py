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
from collections.abc import Callable, Sequence
from typing import Any

from games import kap_ai
from games.engine import Action
from games.kap_ai import DRAW_BIAS, MISSING_WEIGHT, RESHAPE_PLAYERS, TAKES
from games.kap_signatures import _COUNT_BITS, _STATE_SHIFT
from games.kap_table import _DISCARD, KapTable, KapTableRules
from games.kap_takes import _EYE, _ONE, Candidate, _candidates, _fewest_missing, _less_one
from games.tens import KINDS

_STATE = (0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2)
"""A kind's column in its digit's cells by how many of it a hand holds: none, one, more."""


class ScoredKapTable(KapTable):
    """A Kap table (`KapTable`) that keeps a reading for the heuristic (the module's docstring)
    of every seat it has chosen for: per seat its counts per kind, their signature, the kinds
    held once and twice or more per digit, and the cells of what may still come; for everyone,
    per kind, the copies still to come as a seat holding none of it counts them (`pool`:
    face-up ones weighed as the rules of taking make them), and those cells (`empty`)."""

    __slots__ = ("_cells", "_context", "_counts", "_empty", "_keys", "_mults", "_ones",
                 "_pool", "_read", "_twos", "_up", "_whole", "_whole_hand")

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
        self._whole = sum(totals)
        self._whole_hand = 2 * sig.pairs + 2
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

    def _won(self, seat: int, hand: list[int]) -> bool:
        """A read seat's hand of an eye and all its tens lacks nothing, and its signature says
        so in one look (`missing`, `tests/games/test_kap_scored.py`)."""
        context = self._context
        if context is None or self._counts[seat] is None or len(hand) != self._whole_hand:
            return KapTable._won(self, seat, hand)
        sig = context[0]
        key = self._keys[seat]
        short: int | None = sig.shorts.get(key)
        if short is None:
            short = sig.missing(key)
        return short == 0

    # ----- the choice ------------------------------------------------------------------------

    def play_scored(self, rngs: Sequence[random.Random]) -> int:
        """Play the deal to its end, every seat choosing as the heuristic player does
        (`scores_as`) from its own generator in `rngs`; the moves made. Every turn draws, and a
        deal whose stock has run out is void (D-09), so a deal ends within three moves a tile
        of the stock."""
        moves = 0
        choose, play = self.scored_move, self.play
        while not self.done:
            seat = self.turn
            play(choose(seat, rngs[seat]))
            moves += 1
        return moves

    def scored_move(self, seat: int, rng: random.Random) -> Action:
        """The seat to move's choice as the heuristic player makes it (`scores_as`): its moves
        rated from the seat's reading as `kap_ai.rater` rates them from its view, then the
        best, ties broken by the same draw from the same generator (`ScoredPlayer.choose`)."""
        if self.phase != "open":
            return self._discard_move(seat, rng)
        legal = self.legal()
        if len(legal) == 1:
            return legal[0]
        context = self._reading(seat)
        best = self._open_best(seat, legal, context)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]

    def _reading(self, seat: int) -> tuple[Any, ...]:
        """What every reading shares, the seat's own reading built if it was not yet."""
        context = self._context
        if context is None:
            context = self._start()
        if self._counts[seat] is None:
            self._build(seat, context[1], context[2])
        return context

    def _discard_move(self, seat: int, rng: random.Random) -> Action:
        """`scored_move` for a discard, weighed on the tiles that may go (`KapTable._discards`)
        rather than on the moves: the discards are most of the moves, and each asks only a
        tile's kind."""
        tiles = self._discards(self.hands[seat], self.taken)
        if len(tiles) < 2:
            # None: the hand holds only the kind just taken, and its moves say which copy goes.
            return _DISCARD[tiles[0]] if tiles else self.legal()[0]
        context = self._reading(seat)
        best = self._discard_best(seat, tiles, context)
        return _DISCARD[best[0] if len(best) == 1 else best[rng.randrange(len(best))]]

    def _open_best(self, seat: int, legal: tuple[Action, ...], context: tuple[Any, ...]
                   ) -> list[Action]:
        """The takes or the draw `kap_ai.rater` rates highest from the seat's reading, in
        their order among the moves (the rater's steps, on the reading kept here).

        A take the rater rates minus infinity (one that brings the hand no closer, where such
        takes are not made) is never the best: the draw is always worth a finite amount. So
        where no take is worth weighing, the draw is the choice without being weighed, and a
        take that completes the hand (`WIN`) outranks every move that does not.

        A move is worth `MISSING_WEIGHT` times less for every tile its hand lacks, plus the
        tiles still to come that would help it: at most all of them (`_unseen`). While those
        number fewer than `MISSING_WEIGHT`, a hand that lacks fewer tiles is worth more
        whatever may come, so only the moves whose hands lack the fewest are added up (a lone
        such take is the choice). A take that does not bring the hand closer leaves a hand
        lacking no fewer tiles than the draw's (a tile more never makes a hand lack more,
        `tests/games/test_kap_scored.py`): it is weighed only where no take that does leaves
        one lacking fewer."""
        sig, digit, kind_of, _, _, weight, _, takes, reshape, info = context
        counts = self._counts[seat]
        assert counts is not None
        key = self._keys[seat]
        found = info.get(key)
        if found is None:
            found = sig.details(key)
        short, helps, bits = found
        wanted_takes: list[tuple[int, int, int, int]] = []
        other_takes: list[tuple[int, int, int, int]] = []
        wins: list[Action] = []
        for i, action in enumerate(legal):
            if action.verb != "take":
                continue
            p = kind_of[action.tiles[0]]
            n = counts[p]
            r = digit[p]
            if helps >> (3 * r + (n if n < 2 else 2)) & 1:
                if short == 1:
                    wins.append(action)
                else:
                    wanted_takes.append((i, p, n, r))
            elif reshape:
                other_takes.append((i, p, n, r))
        if wins:
            return wins
        if not (wanted_takes or other_takes):
            return [action for action in legal if action.verb != "take"]
        mult = self._mults[seat]
        minus: list[tuple[int, int, int]] = []
        weighed: list[tuple[int, int, int, int, list[Candidate]]] = []
        bounded = self._unseen(seat) < MISSING_WEIGHT - 1
        drawn = lack = MISSING_WEIGHT * short
        for group in (wanted_takes, other_takes):
            if lack < drawn and bounded:
                break
            for i, p, n, r in group:
                # A kind not held is taken into the same hand as any other ending in the
                # same digit, and leaves the same discards: remembered per digit.
                known = (mult, r if n == 0 else 10 + p)
                candidates = takes.get(known)
                if candidates is None:
                    if not minus:
                        minus = _less_one(digit, kind_of, self.hands[seat], counts, key,
                                          self._ones[seat], self._twos[seat])
                    candidates = _fewest_missing(sig, digit, minus, counts, key,
                                                 self._ones[seat], self._twos[seat], p)
                    if len(takes) >= TAKES:
                        takes.clear()
                    takes[known] = candidates
                if candidates:
                    weighed.append((i, p, n, r, candidates))
                    if candidates[0][3] < lack:
                        lack = candidates[0][3]
        if bounded:
            weighed = [w for w in weighed if w[4][0][3] == lack]
            if len(weighed) == 1 and lack < drawn:
                return [legal[weighed[0][0]]]
        else:
            lack = drawn
        cells = self._cells[seat]
        cell = cells.__getitem__
        pool = self._pool
        scores: dict[int, float] = {}
        for i, p, n, r, candidates in weighed:
            a = pool[p] - n
            old = 3 * r + (n if n < 2 else 2)
            new = 3 * r + (2 if n else 1)
            cells[old] -= a
            cells[new] += a - weight
            best = float("-inf")
            # Every worth is a whole number of tiles: sums come out the same in any order.
            for d, m, change, after_short, after_bits in candidates:
                value = sum(map(cell, after_bits)) - after_short
                if change:
                    value += change * (pool[d] - m)
                if value > best:
                    best = value
            scores[i] = best
            cells[new] -= a - weight
            cells[old] += a
        if lack == drawn:
            draw = sum(map(cell, bits)) - drawn + DRAW_BIAS
            for i, action in enumerate(legal):
                if action.verb != "take":
                    scores[i] = draw
        top = max(scores.values())
        return [legal[i] for i in sorted(scores) if scores[i] == top]

    def _unseen(self, seat: int) -> float:
        """The tiles still to come as the seat's reading counts them, face-up ones weighed:
        the sum of its cells, and more than any move's tiles that would help."""
        return self._whole + self._up * len(self.pile) - len(self.hands[seat])

    def _discard_best(self, seat: int, tiles: list[int], context: tuple[Any, ...]
                      ) -> list[int]:
        """The discards (of `tiles`, one per kind) `kap_ai.rater` rates highest from the seat's
        reading, in their order among the moves (its `value_without` spelt out where it is
        asked)."""
        sig, digit, kind_of, _, _, _, _, takes, _, info = context
        counts = self._counts[seat]
        assert counts is not None
        taken = self.taken
        if taken is not None:
            # The discard that pays for a take: those that leave the fewest tiles missing
            # were found when the take was weighed (`_open_best`), and the best discard is
            # among them (the others are worth only what they lack).
            p = kind_of[taken]
            n = counts[p] - 1
            candidates = takes.get((self._mults[seat] - (1 << 4 * p),
                                    digit[p] if n == 0 else 10 + p))
            if candidates:
                return self._paying(seat, tiles, kind_of, candidates)
        key = self._keys[seat]
        shorts = sig.shorts
        ones, twos = self._ones[seat], self._twos[seat]
        # Only the discards that leave the fewest tiles missing are worth telling apart: the
        # others are worth only minus what they lack, the fewest their hand's `value_without`,
        # at least that (what may come is never less than nothing). So the best is among the
        # fewest, and a lone one is the choice without being weighed.
        fewest = 99
        least: list[tuple[int, int, int]] = []
        for i, t in enumerate(tiles):
            d = kind_of[t]
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
            if s < fewest:
                fewest, least = s, [(i, d, after)]
            elif s == fewest:
                least.append((i, d, after))
        if len(least) == 1:
            return [tiles[least[0][0]]]
        cell = self._cells[seat].__getitem__
        pool = self._pool
        values: list[float] = []
        for _, d, after in least:
            found = info.get(after)
            if found is None:
                found = sig.details(after)
            short, helps, bits = found
            value = sum(map(cell, bits))
            n = counts[d]
            if n <= 2:
                b = 3 * digit[d] + n
                if helps >> b & 1:
                    value -= pool[d] - n
                if helps >> (b - 1) & 1:
                    value += pool[d] - n
            values.append(value - MISSING_WEIGHT * short)
        top = max(values)
        return [tiles[i] for (i, _, _), value in zip(least, values, strict=True)
                if value == top]

    def _paying(self, seat: int, tiles: list[int], kind_of: tuple[int, ...],
                candidates: list[Candidate]) -> list[int]:
        """The discards `_discard_best` would choose to pay for the tile just taken, from those
        that leave the fewest tiles missing (`candidates`, in the order of the moves): each is
        worth what may come for the hand it leaves, at least nothing, while the rest are worth
        only minus what they lack (`MISSING_WEIGHT` for each tile): a lone one is the choice."""
        if len(candidates) == 1:
            lone = candidates[0][0]
            return [t for t in tiles if kind_of[t] == lone]
        cell = self._cells[seat].__getitem__
        pool = self._pool
        values: dict[int, float] = {}
        for d, m, change, after_short, after_bits in candidates:
            value = sum(map(cell, after_bits)) - after_short
            if change:
                value += change * (pool[d] - m)
            values[d] = value
        top = max(values.values())
        return [t for t in tiles if values.get(kind_of[t]) == top]
