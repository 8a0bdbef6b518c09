"""Ding Niu's block read on sets of bits (`games.dingniu_block.blocked`) is the block the rule
describes, for every kind of line a deal can leave.

Rules source: docs/rules-book.md §2.11.3; decision D-20 (a block is read from the line alone:
full when no non-double off the line shows an open number, smothered when one shows a 4 or a 5
that no path over the non-doubles off the line joins to an open number).
"""

from __future__ import annotations

import random
from collections import Counter

from games.dingniu_block import BIT, SINGLE_BITS, SINGLES, blocked
from games.tiles import CHINESE


def block_as_the_rule_reads(off: list[int], ends: tuple[int, ...], smothered: bool) -> str:
    """The rule, tile by tile: the numbers joined to an open end by the non-doubles `off`
    the line, grown one tile at a time."""
    if not any(CHINESE.a[t] in ends or CHINESE.b[t] in ends for t in off):
        return "full"
    if not smothered:
        return ""
    joined = set(ends)
    grew = True
    while grew:
        grew = False
        for t in off:
            numbers = {CHINESE.a[t], CHINESE.b[t]}
            if numbers & joined and not numbers <= joined:
                joined |= numbers
                grew = True
    shown = {n for t in off for n in (CHINESE.a[t], CHINESE.b[t])}
    return "smothered" if any(n in shown and n not in joined for n in (4, 5)) else ""


def test_the_block_is_the_one_the_rule_describes() -> None:
    rng = random.Random("dingniu-block")
    seen: Counter[str] = Counter()
    for _ in range(3000):
        off = sorted(rng.sample(SINGLES, rng.randint(0, len(SINGLES))))
        rest = SINGLE_BITS
        for t in SINGLES:
            if t not in off:
                rest &= ~BIT[t]
        ends = tuple(rng.randint(1, 6) for _ in range(rng.choice((1, 2))))
        smothered = rng.random() < 0.8
        kind = blocked.__wrapped__(rest, ends, smothered)
        assert kind == block_as_the_rule_reads(off, ends, smothered), (off, ends, smothered)
        assert blocked(rest, ends, smothered) == kind
        seen[kind] += 1
    # Every answer was met, each many times.
    assert min(seen[kind] for kind in ("", "full", "smothered")) > 30, seen
