"""Hand signatures for the Kap heuristic: what a hand of Kap Ten or Kap Tai Shap lacks, and which
one more tile would bring it closer, worked out on a few integers and remembered.

Rules source: docs/rules-book.md §2.6 and §2.7 (an eye and tens; with several sets any two
identical tiles make an eye).

Apart from the heuristic (`games.kap_ai`) so that the deals the strong player imagines
(`games.hidden.kap`), which the rules import before the heuristic can be, read hands the same
way.

`missing` depends only on how many tiles end in each digit and, per digit, whether a kind there
is held once or twice (an eye needs two identical tiles); a hand's *signature* packs those into
one integer, `missing` is worked out on it in a few operations (a test holds it equal to
`tens.missing`), and the analysis of a signature (what it lacks, which further tiles would help)
is remembered: every turn weighs dozens of hands, and across deals the same signatures recur.
A signature not met before is first put in a canonical form (`_canonical`: the pairs of digits
that make tens are interchangeable, so tens of thousands of signatures share a few thousand
forms), and a form not met before is analysed in one pass (`_analyse`): adding a tile changes
one digit's term of the tens, so the other terms are worked out once, not once per tile tried.
"""

from __future__ import annotations

from functools import cache

from games.kap_shortfall import _ODD, packed, shortfall, tens_short
from games.tens import KINDS, digits

MEMO = 1 << 18
"""Signatures remembered, at most, per table of answers (about 25 MB when full); 4,000 deals of
ten-player Kap Tai Shap analyse some 70,000, Kap Ten far fewer."""

_COUNT_BITS = 4
_STATE_SHIFT = 10 * _COUNT_BITS


@cache
def _groups(four_two: int) -> tuple[tuple[int, ...], ...]:
    """The kinds ending in each digit."""
    d = digits(four_two)
    return tuple(tuple(k for k in range(KINDS) if d[k] == r) for r in range(10))


def _short(c: list[int], eyes: list[int], pairs: int) -> int:
    """`tens.missing` worked out from a signature: per digit the tile count `c` and the best
    eye there (`eyes`: 0 none, 1 half of one, 2 a whole one).

    The tens are matched by last digit (1 with 9, 2 with 8, 3 with 7, 4 with 6, fives and zeros
    among themselves); an eye changes only its own digit's term, so each eye tried costs a few
    operations instead of a recount.
    """
    # min() is spelt out, as `kap_shortfall` spells it.
    c1, c2, c3, c4, c6, c7, c8, c9 = c[1], c[2], c[3], c[4], c[6], c[7], c[8], c[9]
    full = ((c[0] >> 1) + (c1 if c1 < c9 else c9) + (c2 if c2 < c8 else c8)
            + (c3 if c3 < c7 else c7) + (c4 if c4 < c6 else c6) + (c[5] >> 1))
    size = sum(c)
    best = 2 + tens_short(pairs, full, size)
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
        need = 2 - used + tens_short(pairs, rest, size - used)
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
    depend on the digits only through these pairings. Spelt out digit by digit (a digit's
    field: its count, its eye above it), with each field put in its new place by a table
    (`_PLACE`): every new signature is put in this form."""
    f0 = key & 15 | key >> 36 & 48
    f1 = key >> 4 & 15 | key >> 38 & 48
    f2 = key >> 8 & 15 | key >> 40 & 48
    f3 = key >> 12 & 15 | key >> 42 & 48
    f4 = key >> 16 & 15 | key >> 44 & 48
    f5 = key >> 20 & 15 | key >> 46 & 48
    f6 = key >> 24 & 15 | key >> 48 & 48
    f7 = key >> 28 & 15 | key >> 50 & 48
    f8 = key >> 32 & 15 | key >> 52 & 48
    f9 = key >> 36 & 15 | key >> 54 & 48
    pairs = [(f1, f9, 1, 9) if f1 >= f9 else (f9, f1, 9, 1),
             (f2, f8, 2, 8) if f2 >= f8 else (f8, f2, 8, 2),
             (f3, f7, 3, 7) if f3 >= f7 else (f7, f3, 7, 3),
             (f4, f6, 4, 6) if f4 >= f6 else (f6, f4, 6, 4)]
    pairs.sort(reverse=True)
    (a1, b1, r1, m1), (a2, b2, r2, m2), (a3, b3, r3, m3), (a4, b4, r4, m4) = pairs
    if f0 >= f5:
        e0, e5, z0, z5 = f0, f5, 0, 5
    else:
        e0, e5, z0, z5 = f5, f0, 5, 0
    p0, p1, p2, p3, p4, p5, p6, p7, p8, p9 = _PLACE
    form = (p0[e0] | p1[a1] | p2[a2] | p3[a3] | p4[a4] | p5[e5] | p6[b4] | p7[b3] | p8[b2]
            | p9[b1])
    return form, (z0, r1, r2, r3, r4, z5, m4, m3, m2, m1)


_PLACE = tuple(tuple((f & 0xF) << (_COUNT_BITS * d) | (f >> 4) << (_STATE_SHIFT + 2 * d)
                     for f in range(64)) for d in range(10))
"""Per digit of a signature, a field (count | eye << 4) in its place."""


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
        self._sums: dict[int, int] = {}
        """What `missing` found per signature summed up (`kap_shortfall.packed`): a few
        hundred sums between them cover every signature met."""
        self._short: dict[int, int] = {}
        self.shorts = self._short
        """What `missing` remembers, to look up without a call."""
        self.bits: dict[int, tuple[int, ...]] = {}
        self.info: dict[int, tuple[int, int, tuple[int, ...]]] = {}
        """`details` remembered, to look up without a call."""
        """The set bits of each `helps` met: the cells of what may still come (`kap_ai.rater`)
        they add up."""
        self.base = tuple(3 * d for d in self.digit)
        """Each kind's first cell in the table of what may still come (`kap_ai.rater`)."""

    def key(self, counts: list[int]) -> int:
        """The signature of a hand with `counts` tiles of each kind: one pass over the kinds,
        then the eye each digit offers (a kind held twice makes a whole one)."""
        key = 0
        held = 0
        twice = 0
        digit = self.digit
        for k, n in enumerate(counts):
            if n:
                r = digit[k]
                key += n << (_COUNT_BITS * r)
                held |= 1 << r
                if n > 1:
                    twice |= 1 << r
        for r in range(10):
            if held >> r & 1:
                key |= (2 if twice >> r & 1 else 1) << (_STATE_SHIFT + 2 * r)
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
            total = packed(key)
            if total >= _ODD:
                found = _short(*self.decode(key), self.pairs)
            else:
                found = self._sums.get(total)
                if found is None:
                    found = self._sums[total] = shortfall(total, self.pairs)
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
        short, h = found & 0xF, found >> 4
        s0, s1, s2, s3, s4, s5, s6, s7, s8, s9 = digit_of
        helps = ((h & 7) << 3 * s0 | (h >> 3 & 7) << 3 * s1 | (h >> 6 & 7) << 3 * s2
                 | (h >> 9 & 7) << 3 * s3 | (h >> 12 & 7) << 3 * s4 | (h >> 15 & 7) << 3 * s5
                 | (h >> 18 & 7) << 3 * s6 | (h >> 21 & 7) << 3 * s7 | (h >> 24 & 7) << 3 * s8
                 | (h >> 27 & 7) << 3 * s9)
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

