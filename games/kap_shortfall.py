"""What a Kap hand's signature lacks (`games.kap_signatures`), read off a few small tables instead
of worked out digit by digit: a hand the heuristic has not met before is weighed at every move.

Rules source: docs/rules-book.md §2.6 and §2.7 (an eye and tens; tens pair the last digits 1
with 9, 2 with 8, 3 with 7, 4 with 6, fives and zeros among themselves).

`kap_signatures._short` adds up the tens each pair of digits makes (`full`) and the tiles
(`size`), then tries an eye at every digit that offers one: such an eye uses one or two of its
digit's tiles and costs its pair of digits none, one or two tens, and what it then lacks
depends on nothing else. So each pair of digits is summed up once and for all, per what the
signature holds at its two digits (`_PAIRED`; `_ALONE` for 0 and 5): its tens, its tiles, and
how many eyes of each kind (`_OPTIONS`) it offers, packed into one number that adds up over the
pairs without carrying. The sum says everything `_short` asks, and what it lacks is remembered
per sum (`shortfall`). A signature no hand can have (an eye at a digit with too few tiles) is
left to `_short`.
"""

from __future__ import annotations

_OPTIONS = ((1, 0), (1, 1), (2, 0), (2, 1), (2, 2))
"""An eye tried at a digit: the tiles of the digit it uses (half of one, 1, or a whole one,
2), and the tens of its pair of digits it costs."""
_TILES = 8
"""Where the tiles of a pair of digits begin in its packed figures (`_pack`); the tens at 0."""
_EYES = 16
"""Where the counts of eyes begin, four bits for each of `_OPTIONS`."""
_ODD = 1 << 40
"""A signature no hand can have, in a packed sum: `_short` is asked instead."""


def _eye(used: int, cost: int) -> int:
    """One eye of that kind, packed."""
    return 1 << (_EYES + 4 * _OPTIONS.index((used, cost))) if (used, cost) in _OPTIONS else _ODD


def _pack_alone(field: int) -> int:
    """Digit 0 or 5, from its field (count | eye << 4): its tens among themselves, its tiles,
    its eye."""
    count, used = field & 15, field >> 4
    if count < used or used > 2:
        return _ODD
    tens = count >> 1
    return tens | count << _TILES | (_eye(used, tens - ((count - used) >> 1)) if used else 0)


def _pack(fields: int) -> int:
    """A pair of digits r and 10 - r making tens, from their two fields (r's in the low six
    bits): its tens, its tiles, its eyes."""
    here, there = fields & 63, fields >> 6
    count, used = here & 15, here >> 4
    mate, mate_used = there & 15, there >> 4
    if count < used or mate < mate_used or used > 2 or mate_used > 2:
        return _ODD
    tens = min(count, mate)
    packed = tens | (count + mate) << _TILES
    if used:
        packed += _eye(used, tens - min(count - used, mate))
    if mate_used:
        packed += _eye(mate_used, tens - min(mate - mate_used, count))
    return packed


_ALONE = tuple(_pack_alone(f) for f in range(64))
_PAIRED = tuple(_pack(f) for f in range(64 * 64))


def packed(key: int) -> int:
    """The signature's pairs of digits summed up (the module's docstring): the field of digit r
    is its count (4 bits at 4r) with its eye (2 bits at 40 + 2r) above it."""
    a, p = _ALONE, _PAIRED
    return (a[key & 15 | key >> 36 & 48] + a[key >> 20 & 15 | key >> 46 & 48]
            + p[key >> 4 & 15 | key >> 38 & 48 | (key >> 36 & 15 | key >> 54 & 48) << 6]
            + p[key >> 8 & 15 | key >> 40 & 48 | (key >> 32 & 15 | key >> 52 & 48) << 6]
            + p[key >> 12 & 15 | key >> 42 & 48 | (key >> 28 & 15 | key >> 50 & 48) << 6]
            + p[key >> 16 & 15 | key >> 44 & 48 | (key >> 24 & 15 | key >> 48 & 48) << 6])


def shortfall(total: int, pairs: int) -> int:
    """What a hand lacks, from its packed sum (`packed`, not `_ODD`): `_short`'s steps on the
    tens, the tiles and the eyes it offers."""
    full = total & 255
    size = total >> _TILES & 255
    best = 2 + tens_short(pairs, full, size)
    for o, (used, cost) in enumerate(_OPTIONS):
        if total >> (_EYES + 4 * o) & 15:
            need = 2 - used + tens_short(pairs, full - cost, size - used)
            if need < best:
                best = need
    return best


def tens_short(pairs: int, tens: int, tiles: int) -> int:
    """The tiles a hand lacks for `pairs` tens when `tens` are made from its `tiles` tiles
    (the eye's set aside): two for each ten missing, less one for each spare tile that may
    start one (at most one a ten)."""
    if tens >= pairs:
        return 0
    lack = pairs - tens
    spare = tiles - 2 * tens
    return 2 * lack - (spare if spare < lack else lack)
