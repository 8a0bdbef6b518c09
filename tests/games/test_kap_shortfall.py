"""What a Kap signature lacks, read off the tables of pairs of digits (`games.kap_shortfall`), is
what `kap_signatures._short` works out digit by digit, on every signature a hand can have; one
no hand can have is left to `_short`."""

from __future__ import annotations

import random

from games.kap_shortfall import _ODD, packed, shortfall
from games.kap_signatures import _COUNT_BITS, _STATE_SHIFT, _short, signatures


def _key(counts: list[int], eyes: list[int]) -> int:
    return (sum(c << (_COUNT_BITS * r) for r, c in enumerate(counts))
            + sum(e << (_STATE_SHIFT + 2 * r) for r, e in enumerate(eyes)))


def test_the_tables_lack_what_short_lacks():
    rnd = random.Random("shortfall")
    for pairs in (3, 4):
        for _ in range(20000):
            counts = [rnd.choice((0, 0, 0, 1, 1, 2, 3, rnd.randint(0, 15))) for _ in range(10)]
            eyes = [rnd.randint(0, min(c, 2)) if c else 0 for c in counts]
            total = packed(_key(counts, eyes))
            assert total < _ODD
            assert shortfall(total, pairs) == _short(counts, eyes, pairs), (counts, eyes)


def test_a_signature_no_hand_has_is_left_to_short():
    sig = signatures(4, 3)
    counts = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    for eyes in ([2] + [0] * 9, [3] + [0] * 9):
        key = _key(counts, eyes)
        assert packed(key) >= _ODD
        assert sig.missing(key) == _short(counts, eyes, 4)
