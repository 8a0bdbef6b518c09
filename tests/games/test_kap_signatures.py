"""A Kap signature's canonical form (`games.kap_signatures._canonical`), spelt out digit by digit,
is the plain one: the pairs of digits that make tens in order, each with its larger field
first, and so are 0 and 5; and what a signature lacks and which tiles would help, read through
its form, are what they are for the signature itself (`_analyse` on it, unrelabelled)."""

from __future__ import annotations

import random

from games.kap_signatures import (
    _COUNT_BITS,
    _STATE_SHIFT,
    _analyse,
    _canonical,
    _Signatures,
)


def _plain(key: int) -> tuple[int, tuple[int, ...]]:
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


def test_the_canonical_form_is_the_plain_one():
    rnd = random.Random("canonical")
    for _ in range(20000):
        key = rnd.getrandbits(60)
        assert _canonical(key) == _plain(key), key


def test_a_signature_read_through_its_form_is_read_as_itself():
    rnd = random.Random("forms")
    for pairs in (3, 4):
        sig = _Signatures(pairs, 3)
        for _ in range(3000):
            counts = [rnd.choice((0, 0, 1, 1, 2, 3)) for _ in range(10)]
            eyes = [rnd.randint(0, min(c, 2)) if c else 0 for c in counts]
            key = (sum(c << (_COUNT_BITS * r) for r, c in enumerate(counts))
                   + sum(e << (_STATE_SHIFT + 2 * r) for r, e in enumerate(eyes)))
            assert sig.analysis(key) == _analyse(counts, eyes, pairs), (counts, eyes)
