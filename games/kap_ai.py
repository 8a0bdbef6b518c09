"""Heuristic play for Kap Ten and Kap Tai Shap, from one seat's view.

Rules source: docs/rules-book.md §2.6 (an eye and tens; `[4:2]` counts 3; Culin's turn: take any
face-up discard and pay for it with another, then draw and discard; the classical turn: the last
discard or the stock; D-10: a taken tile may not go straight back), §2.7 (several sets, so any two
identical tiles make an eye; ten tiles, four tens), §3 rows 15–20.

A hand is judged first by how many tiles it still lacks (`tens.missing`), then by how many tiles
that may still come would bring it one closer: the unseen ones (the stock and the other hands)
and, under Culin's rules, the face-up discards, which the player can take on his next turn — a
hand one tile short whose tile lies face up has nearly won. Every move is worth the hand it
leaves: a discard the hand without that tile, a take the best hand after paying for the tile, a
draw the hand as it is (the draw follows a take under Culin's rules as well, so the two compare
like with like).

`missing` depends only on how many tiles end in each digit and, per digit, whether a kind there
is held once or twice (an eye needs two identical tiles); a hand's *signature* packs those into
one integer, `missing` is worked out on it in a few operations (a test holds it equal to
`tens.missing`), and the analysis of a signature (what it lacks, which further tiles would help)
is remembered: every turn weighs dozens of hands, and across deals the same signatures recur.
A signature not met before is first put in a canonical form (`_canonical`: the pairs of digits
that make tens are interchangeable, so tens of thousands of signatures share a few thousand
forms), and a form not met before is analysed in one pass (`_analyse`): adding a tile changes
one digit's term of the tens, so the other terms are worked out once, not once per tile tried.

A view is read once per call (`rater`), and the hands a move would leave are weighed by changing
that one reading a tile at a time and back: a changed tile moves one digit of the signature and
one cell of the table of what may still come (`cells` in `rater`), so weighing a hand costs a few
operations, not a recount of the hand. Every worth is a whole number of tiles (a float with an
integral value), so sums come out the same in any order, and the scores are exactly those of
the plain formulation (`tests/games/kap_reference.py`, checked on thousands of positions).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, cast

from games import get
from games.engine import Action
from games.kap_deal import KapDealer, KapView
from games.tens import KINDS, digits
from games.tiles import CHINESE, chinese

WIN = 1e9
"""A take that completes the hand: nothing else compares."""
MISSING_WEIGHT = 1000.0
"""A tile fewer to find outweighs any number of ways to find one."""
PILE_WEIGHT = 10.0
"""Under Culin's rules a face-up tile that helps is counted this many times over an unseen one:
it can be taken next turn unless someone takes it first, while an unseen tile comes with the
next draw only once in dozens (4 and 20 measured within noise of 10)."""
DRAW_BIAS = 1e-6
"""When a take changes nothing, the player draws instead."""
RESHAPE_PLAYERS = 2
"""Up to this many players, a take that brings the hand no closer is still made under Culin's
rules when it leaves more ways to improve (the draw follows anyway). Measured: 1.7 % more Kap
Ten deals won (20,000 deals, about 3 standard errors); with four players no gain, at a sixth
more time. Under the classical rules a take replaces the draw, and such exchanges cost a fifth
of the deals."""
MEMO = 1 << 18
"""Signatures remembered, at most, per table of answers (about 25 MB when full); 4,000 deals of
ten-player Kap Tai Shap analyse some 70,000, Kap Ten far fewer."""

_COUNT_BITS = 4
_STATE_SHIFT = 10 * _COUNT_BITS


@cache
def _pairs(game: str) -> int:
    """The tens a winning hand of `game` holds besides its eye (`KapDealer.pairs`)."""
    return cast("KapDealer", get(game)).pairs


@cache
def _groups(four_two: int) -> tuple[tuple[int, ...], ...]:
    """The kinds ending in each digit."""
    d = digits(four_two)
    return tuple(tuple(k for k in range(KINDS) if d[k] == r) for r in range(10))


@cache
def _totals(sets: int) -> tuple[int, ...]:
    """Copies of each kind in `sets` sets: civil kinds twice per set, military once."""
    return tuple(sets * (2 if kind.civil else 1) for kind in CHINESE.kinds)


def _short(c: list[int], eyes: list[int], pairs: int) -> int:
    """`tens.missing` worked out from a signature: per digit the tile count `c` and the best
    eye there (`eyes`: 0 none, 1 half of one, 2 a whole one).

    The tens are matched by last digit (1 with 9, 2 with 8, 3 with 7, 4 with 6, fives and zeros
    among themselves); an eye changes only its own digit's term, so each eye tried costs a few
    operations instead of a recount.
    """
    # min() is spelt out: this runs hundreds of thousands of times in a simulation.
    c1, c2, c3, c4, c6, c7, c8, c9 = c[1], c[2], c[3], c[4], c[6], c[7], c[8], c[9]
    full = ((c[0] >> 1) + (c1 if c1 < c9 else c9) + (c2 if c2 < c8 else c8)
            + (c3 if c3 < c7 else c7) + (c4 if c4 < c6 else c6) + (c[5] >> 1))
    size = sum(c)
    if full >= pairs:
        best = 2
    else:
        lack = pairs - full
        spare = size - 2 * full
        best = 2 + 2 * lack - (spare if spare < lack else lack)
    for r in range(10):
        used = eyes[r]
        if not used:
            continue
        here = c[r]
        left = here - used
        if r == 0 or r == 5:
            rest = full - (here >> 1) + (left >> 1)
        else:
            mate = c[10 - r]
            rest = full - (here if here < mate else mate) + (left if left < mate else mate)
        need = 2 - used
        if rest < pairs:
            lack = pairs - rest
            spare = size - used - 2 * rest
            need += 2 * lack - (spare if spare < lack else lack)
        if need < best:
            best = need
            if not best:
                break
    return best


_GROUP = (0, 1, 2, 3, 4, 5, 4, 3, 2, 1)
"""The term of the tens each last digit belongs to: 0 and 5 pair among themselves, 1 with 9 …"""


def _analyse(c: list[int], eyes: list[int], pairs: int) -> tuple[int, int]:
    """`_short` of a signature, and which one more tile would lower it: bit 3r + u as in
    `_Signatures.analysis`. The same answers as `_short` on every signature one tile larger
    (a test holds them to `tens.missing`), worked out together.

    A tile ending in q changes only the term of q's digit pair (by `d`, 0 or 1) and what the
    eyes of that pair leave; every other eye's option is what it was with `d` more tens, so the
    best of those is found once per pair term and `d`.
    """
    c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 = c
    terms = [c0 >> 1, c1 if c1 < c9 else c9, c2 if c2 < c8 else c8, c3 if c3 < c7 else c7,
             c4 if c4 < c6 else c6, c5 >> 1]
    full = terms[0] + terms[1] + terms[2] + terms[3] + terms[4] + terms[5]
    size = c0 + c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8 + c9
    if full >= pairs:
        short = 2
    else:
        lack = pairs - full
        spare = size - 2 * full
        short = 2 + 2 * lack - (spare if spare < lack else lack)
    rows: list[tuple[int, int, int]] = []
    for r in range(10):
        used = eyes[r]
        if not used:
            continue
        g = _GROUP[r]
        left = c[r] - used
        if g == 0 or g == 5:
            kept = left >> 1
        else:
            mate = c[10 - r]
            kept = left if left < mate else mate
        rest = full - terms[g] + kept
        need = 2 - used
        if rest < pairs:
            lack = pairs - rest
            spare = size - used - 2 * rest
            need += 2 * lack - (spare if spare < lack else lack)
        if need < short:
            short = need
        rows.append((g, used, rest))
    if not short:
        return 0, 0
    # The best option of an eye in another pair term than the new tile's, once a tile has come
    # (`d` more tens): the best over all terms, and the best over the others for its own term.
    size1 = size + 1
    outside: list[tuple[int, int, int]] = []
    for d in (0, 1):
        first = second = 99
        first_g = -1
        for g, used, rest in rows:
            rest_d = rest + d
            need = 2 - used
            if rest_d < pairs:
                lack = pairs - rest_d
                spare = size1 - used - 2 * rest_d
                need += 2 * lack - (spare if spare < lack else lack)
            if g == first_g:
                if need < first:
                    first = need
            elif need < first:
                first, second, first_g = need, first, g
            elif need < second:
                second = need
        outside.append((first, first_g, second))
    helps = 0
    for q in range(10):
        g = _GROUP[q]
        cq = c[q] + 1
        if g == 0 or g == 5:
            term = cq >> 1
            mate = -1
        else:
            mate = c[10 - q]
            term = cq if cq < mate else mate
        full2 = full - terms[g] + term
        if full2 >= pairs:
            m = 2
        else:
            lack = pairs - full2
            spare = size1 - 2 * full2
            m = 2 + 2 * lack - (spare if spare < lack else lack)
        first, first_g, second = outside[full2 - full]
        other = second if first_g == g else first
        if other < m:
            m = other
        if mate >= 0:
            used = eyes[10 - q]
            if used:
                left = mate - used
                rest = full2 - term + (cq if cq < left else left)
                need = 2 - used
                if rest < pairs:
                    lack = pairs - rest
                    spare = size1 - used - 2 * rest
                    need += 2 * lack - (spare if spare < lack else lack)
                if need < m:
                    m = need
        held = eyes[q]
        # u = 0: a kind not held (the eye at q becomes half of one, or stays); u = 1, 2: a kind
        # held, so the eye at q is whole (the same signature for both).
        for u, after in ((0, held or 1), (1, 2)):
            if u and not held:
                break
            left = cq - after
            if mate < 0:
                rest = full2 - term + (left >> 1)
            else:
                rest = full2 - term + (left if left < mate else mate)
            need = 2 - after
            if rest < pairs:
                lack = pairs - rest
                spare = size1 - after - 2 * rest
                need += 2 * lack - (spare if spare < lack else lack)
            if (need if need < m else m) < short:
                helps |= 1 << (3 * q + u)
                if u and held == 2:
                    helps |= 1 << (3 * q + 2)
    return short, helps


def _canonical(key: int) -> tuple[int, tuple[int, ...]]:
    """The signature relabelled into a canonical form, and for each of its digits the digit of
    `key` it came from. The four pairs of digits that make tens (1–9, 2–8, 3–7, 4–6) are put in
    order, each with its larger digit first, and so are 0 and 5: `missing` and what would help
    depend on the digits only through these pairings."""
    field = [(key >> (_COUNT_BITS * r)) & 0xF | ((key >> (_STATE_SHIFT + 2 * r)) & 3) << 4
             for r in range(10)]
    pairs = []
    for r in (1, 2, 3, 4):
        a, b = field[r], field[10 - r]
        pairs.append((a, b, r, 10 - r) if a >= b else (b, a, 10 - r, r))
    pairs.sort(reverse=True)
    ends = (0, 5) if field[0] >= field[5] else (5, 0)
    digit_of = [ends[0], pairs[0][2], pairs[1][2], pairs[2][2], pairs[3][2], ends[1],
                pairs[3][3], pairs[2][3], pairs[1][3], pairs[0][3]]
    form = 0
    for d, r in enumerate(digit_of):
        f = field[r]
        form |= (f & 0xF) << (_COUNT_BITS * d) | (f >> 4) << (_STATE_SHIFT + 2 * d)
    return form, tuple(digit_of)


class _Signatures:
    """What `missing` says about the signatures met, for one game and one `[4:2]` value.

    A signature holds, per last digit r, the count of tiles ending in r (4 bits at 4r) and the
    best eye that digit offers (2 bits at 40 + 2r: 0 none, 1 a kind held once, 2 a kind held at
    least twice). That is all `missing` depends on: it tries one eye per kind held, and a full
    eye at a digit is never worse than half of one there (taking one more tile out of the tens
    costs them at most one tile), so the half eye only matters where no full one exists.
    """

    def __init__(self, pairs: int, four_two: int) -> None:
        self.pairs = pairs
        self.four_two = four_two
        self.groups = _groups(four_two)
        self.digit = digits(four_two)
        self._masks = tuple((0xF << (_COUNT_BITS * r)) | (3 << (_STATE_SHIFT + 2 * r))
                            for r in range(10))
        self._analysis: dict[int, int] = {}
        self.analysed = self._analysis
        """What `analysis` remembers, to look up without a call."""
        self._forms: dict[int, int] = {}
        """`analysis` of signatures in their canonical form (`_canonical`)."""
        self._short: dict[int, int] = {}
        self.shorts = self._short
        """What `missing` remembers, to look up without a call."""
        self.bits: dict[int, tuple[int, ...]] = {}
        self.info: dict[int, tuple[int, int, tuple[int, ...]]] = {}
        """`details` remembered, to look up without a call."""
        """The set bits of each `helps` met: the cells of what may still come (`rater`)
        they add up."""
        self.base = tuple(3 * d for d in self.digit)
        """Each kind's first cell in the table of what may still come (`rater`)."""

    def key(self, counts: list[int]) -> int:
        key = 0
        for r in range(10):
            key |= self._part(counts, r)
        return key

    def rekey(self, key: int, counts: list[int], kind: int) -> int:
        """The signature once the count of one kind has changed (only its digit moves)."""
        r = self.digit[kind]
        return (key & ~self._masks[r]) | self._part(counts, r)

    def _part(self, counts: list[int], r: int) -> int:
        total = 0
        best = 0
        for k in self.groups[r]:
            n = counts[k]
            if n:
                total += n
                if n > 1:
                    best = 2
                elif best == 0:
                    best = 1
        return (total << (_COUNT_BITS * r)) | (best << (_STATE_SHIFT + 2 * r)) if total else 0

    @staticmethod
    def decode(key: int) -> tuple[list[int], list[int]]:
        return ([(key >> (_COUNT_BITS * r)) & 0xF for r in range(10)],
                [(key >> (_STATE_SHIFT + 2 * r)) & 3 for r in range(10)])

    def missing(self, key: int) -> int:
        """What a hand with this signature lacks (`tens.missing` of any such hand)."""
        found = self._short.get(key)
        if found is None:
            found = _short(*self.decode(key), self.pairs)
            if len(self._short) >= MEMO:
                self._short.clear()
            self._short[key] = found
        return found

    def analysis(self, key: int) -> tuple[int, int]:
        """What the hand lacks, and which tiles would bring it one closer: bit 3r + u is set
        when one more tile ending in r helps, u telling that tile's kind apart (0: not held,
        1: held once, so it makes an eye, 2: held twice or more)."""
        found = self._analysis.get(key)
        if found is not None:
            return found & 0xF, found >> 4
        # The tens pair 1 with 9, 2 with 8, 3 with 7, 4 with 6 alike, and 0 and 5 each among
        # themselves: signatures that differ by such a relabelling of digits have the same
        # analysis, relabelled. Thousands of signatures share a few hundred such forms.
        form, digit_of = _canonical(key)
        found = self._forms.get(form)
        if found is None:
            short, helps = _analyse(*self.decode(form), self.pairs)
            found = short | helps << 4
            if len(self._forms) >= MEMO:
                self._forms.clear()
            self._forms[form] = found
        short, form_helps = found & 0xF, found >> 4
        helps = 0
        for d in range(10):
            bits = form_helps >> (3 * d) & 7
            if bits:
                helps |= bits << (3 * digit_of[d])
        if len(self._analysis) >= MEMO:
            self._analysis.clear()
        self._analysis[key] = short | helps << 4
        return short, helps

    def details(self, key: int) -> tuple[int, int, tuple[int, ...]]:
        """`analysis` of a signature, and the cells of what may still come that would
        bring it one closer (the bits of its `helps`, low first)."""
        short, helps = self.analysis(key)
        found = short, helps, self.cells(helps)
        if len(self.info) >= MEMO:
            self.info.clear()
        self.info[key] = found
        return found

    def cells(self, helps: int) -> tuple[int, ...]:
        """The bits set in `helps`, low first."""
        found = self.bits.get(helps)
        if found is None:
            found = tuple(i for i in range(30) if helps >> i & 1)
            if len(self.bits) >= MEMO:
                self.bits.clear()
            self.bits[helps] = found
        return found


@cache
def signatures(pairs: int, four_two: int) -> _Signatures:
    return _Signatures(pairs, four_two)


@cache
def _context(game: str, four_two: int, culin: bool, sets: int
             ) -> tuple[_Signatures, tuple[int, ...], tuple[int, ...], tuple[float, ...],
                        tuple[float, ...], float]:
    """What a view of `game` is weighed with, whatever the position: its signatures, each
    kind's last digit, the tiles' kinds, every kind's copies in `sets` sets, the table of what
    may still come (`rater`) of an empty hand with nothing face up, and the weight of a
    face-up tile (under Culin's rules a face-up tile may be taken on the next turn)."""
    sig = signatures(_pairs(game), four_two)
    totals = tuple(float(n) for n in _totals(sets))
    cells = [0.0] * 30
    for k, base in enumerate(sig.base):
        cells[base] += totals[k]
    return (sig, sig.digit, chinese(sets).kind_of, totals, tuple(cells),
            PILE_WEIGHT if culin else 0.0)


def rater(view: Any) -> Callable[[Action], float]:
    """Every move's worth from one reading of the view (see the module's docstring).

    The reading: the hand as counts per kind and per digit (`ones`, `twos`: the kinds held
    once and at least twice ending in each digit), its signature, and the table of what may
    still come by cell (`cells[3r + u]`: the tiles still to come of the kinds ending in r held
    u times, 2 meaning twice or more; face-up ones under Culin's rules counted `PILE_WEIGHT`
    times, `avail` per kind). A hand one tile different changes only its tile's digit and
    cell, so each hand a move leaves is weighed from this reading in a few operations. It is
    all spelt out in one function, on local names: this runs for every move of a simulation.
    """
    v = cast("KapView", view)
    opts = v.options
    culin = opts.rules == "culin"
    sig, digit, kind_of, totals, empty, weight = _context(v.game, opts.four_two, culin,
                                                          v.sets if v.sets > 1 else 1)
    info = sig.info
    shorts = sig.shorts
    counts = [0] * KINDS
    held: list[int] = []
    for t in v.hand:
        k = kind_of[t]
        if counts[k]:
            counts[k] += 1
        else:
            counts[k] = 1
            held.append(k)
    avail = list(totals)
    cells = list(empty)
    ones = [0] * 10
    twos = [0] * 10
    key = 0
    seen = 0
    for k in held:
        n = counts[k]
        avail[k] -= n
        seen |= 1 << k
        r = digit[k]
        key += n << (_COUNT_BITS * r)
        if n == 1:
            ones[r] += 1
        else:
            twos[r] += 1
    for k in held:
        r = digit[k]
        key |= (2 if twos[r] else 1) << (_STATE_SHIFT + 2 * r)
    # Copies not in this hand nor face up (in the stock or in the other hands), and the face
    # up ones `weight` times: from the full set, less what the hand and the pile hold.
    up = weight - 1.0
    touched = list(held)
    for t, _ in v.pile:
        k = kind_of[t]
        if not seen >> k & 1:
            seen |= 1 << k
            touched.append(k)
        avail[k] += up
    for k in touched:
        n = counts[k]
        b = 3 * digit[k]
        cells[b] -= totals[k]
        cells[b + (n if n < 2 else 2)] += avail[k]

    def without(d: int, key: int, ones_r: int, twos_r: int) -> int:
        """The signature `key` with one tile of kind `d` fewer (`ones_r`, `twos_r`: the kinds
        held once and twice or more at its digit, in the hand `key` is of)."""
        n = counts[d]
        if n == 1:
            ones_r -= 1
        elif n == 2:
            twos_r -= 1
            ones_r += 1
        at = _STATE_SHIFT + 2 * digit[d]
        return (((key - (1 << (_COUNT_BITS * digit[d]))) & ~(3 << at))
                | ((2 if twos_r else 1 if ones_r else 0) << at))

    def value_without(d: int, after: int) -> float:
        """The hand with one tile of kind `d` fewer (signature `after`) waiting for its next
        tile: fewer missing first, then more ways to improve; the cells as they are, but
        that kind's tiles to come counted in the cell it moves to."""
        found = info.get(after)
        if found is None:
            found = sig.details(after)
        short, helps, bits = found
        outs = 0.0
        for i in bits:
            outs += cells[i]
        n = counts[d]
        if n <= 2:
            b = 3 * digit[d] + n
            if helps >> b & 1:
                outs -= avail[d]
            if helps >> (b - 1) & 1:
                outs += avail[d]
        return outs - MISSING_WEIGHT * short

    # Scores per kind (one legal move per kind and verb): cheaper than hashing every move.
    by_kind = [float("-inf")] * KINDS
    draw = float("-inf")
    if v.phase == "open":
        found = info.get(key)
        if found is None:
            found = sig.details(key)
        short, helps, bits = found
        outs = 0.0
        for i in bits:
            outs += cells[i]
        draw = outs - MISSING_WEIGHT * short + DRAW_BIAS
        reshape = culin and v.players <= RESHAPE_PLAYERS
        minus: dict[int, int] = {}
        for action in v.legal:
            if action.verb != "take":
                continue
            p = kind_of[action.tiles[0]]
            n = counts[p]
            r = digit[p]
            old = n if n < 2 else 2
            wanted = helps >> (3 * r + old) & 1
            if wanted and short == 1:
                by_kind[p] = WIN
                continue
            if not (wanted or reshape):
                continue
            if not minus:
                minus = {d: without(d, key, ones[digit[d]], twos[digit[d]]) for d in held}
            # The hand with the tile taken: one more of kind p, which is no longer to come.
            ones_r, twos_r = ones[r], twos[r]
            if n == 0:
                ones_r += 1
            elif n == 1:
                ones_r -= 1
                twos_r += 1
            at = _STATE_SHIFT + 2 * r
            taken = (((key + (1 << (_COUNT_BITS * r))) & ~(3 << at))
                     | ((2 if twos_r else 1) << at))
            moved = taken - key
            a = avail[p]
            new = 3 * r + (2 if n else 1)
            cells[3 * r + old] -= a
            cells[new] += a - weight
            avail[p] = a - weight
            # The discard that pays for it: its least useful tile but one of kind p (D-10).
            best_short = 99
            candidates: list[tuple[int, int]] = []
            for d in held:
                if d == p:
                    continue
                after = (without(d, taken, ones_r, twos_r) if digit[d] == r
                         else minus[d] + moved)
                s = shorts.get(after)
                if s is None:
                    s = sig.missing(after)
                if s < best_short:
                    best_short, candidates = s, [(d, after)]
                elif s == best_short:
                    candidates.append((d, after))
            best = float("-inf")
            for d, after in candidates:
                value = value_without(d, after)
                if value > best:
                    best = value
            by_kind[p] = best
            avail[p] = a
            cells[new] -= a - weight
            cells[3 * r + old] += a
    else:
        # Only the discards that leave the fewest tiles missing are worth telling apart.
        after_all: list[tuple[int, int, int]] = []
        fewest = 99
        for action in v.legal:
            d = kind_of[action.tiles[0]]
            r = digit[d]
            after = without(d, key, ones[r], twos[r])
            s = shorts.get(after)
            if s is None:
                s = sig.missing(after)
            if s < fewest:
                fewest = s
            after_all.append((s, d, after))
        for s, d, after in after_all:
            by_kind[d] = -MISSING_WEIGHT * s if s > fewest else value_without(d, after)

    def rate(action: Action) -> float:
        return draw if action.verb == "draw" else by_kind[kind_of[action.tiles[0]]]

    return rate
