"""What Deer Hunt reads off a tile: its red pips, its place in the numerical ranking, and the
partnerships, shared by the rules, the computer player and the re-dealer of unseen tiles.

Rules source: docs/rules-book.md §1.4 (a tile's red value is the sum of its ends that are 1 or 4;
`[6:6]` counts 6, half its pips being red; the set holds 64), §2.12.1 (partners sit opposite: team A
is seats 0 and 2, team B seats 1 and 3, D-27), §2.12.2 (the higher end decides, then the lower end:
21 ranks, civil and military playing no part, D-30) and §2.12.5 (the key tiles of the fair deal,
D-31). Kept apart from `games.deerhunt` so that the computer player and the re-dealer, which that
module imports, need not import it back.
"""

from __future__ import annotations

from games.tiles import CHINESE

PLAYERS = 4
HAND = 8
TEAM = (0, 1, 0, 1)
"""The team of each seat: partners sit opposite (D-27)."""
TOTAL_RED = 64
RED_ENDS = (1, 4)
HEAVEN_RED = 6
"""`[6:6]`: half of its twelve pips are red (docs/rules-book.md §1.1)."""


def red_value(hi: int, lo: int) -> int:
    """The red pips of a face (§1.4)."""
    if (hi, lo) == (6, 6):
        return HEAVEN_RED
    return sum(end for end in (hi, lo) if end in RED_ENDS)


RED = tuple(red_value(CHINESE.a[t], CHINESE.b[t]) for t in range(CHINESE.size))
"""Red pips by tile id."""
RANK = tuple(8 * CHINESE.a[t] + CHINESE.b[t] for t in range(CHINESE.size))
"""Numerical rank by tile id: the higher end first, then the lower one (identical tiles rank
alike, and then the one played first wins)."""
BY_RANK = tuple(sorted(range(CHINESE.size), key=lambda t: (-RANK[t], t)))
"""Every tile, highest first (copies by id): the order a hand is kept and shown in."""
PLACE = tuple(BY_RANK.index(t) for t in range(CHINESE.size))
"""Each tile's place in `BY_RANK`: the sort key of a hand."""
KEYS: dict[str, tuple[tuple[int, int], ...]] = {
    "plain": (),
    "fair": ((6, 6),),
    "fair-extended": ((6, 6), (6, 5), (6, 4), (4, 4)),
}
"""The faces the fair deals give each partnership exactly one copy of (§2.12.5)."""


def key_tiles(deal: str) -> tuple[tuple[int, int], ...]:
    """The copies of each key face of `deal`, as pairs of ids (lowest first)."""
    found = []
    for hi, lo in KEYS[deal]:
        first, second = CHINESE.ids_of(hi, lo)
        found.append((first, second))
    return tuple(found)


def partner(seat: int) -> int:
    return (seat + 2) % PLAYERS


def best_of(tiles: tuple[int, ...] | list[int]) -> int:
    """The index of the tile that wins a trick played in this order: the highest rank, and of
    identical tiles the earlier (§2.12.3)."""
    best = 0
    for i in range(1, len(tiles)):
        if RANK[tiles[i]] > RANK[tiles[best]]:
            best = i
    return best


def escapes(tiles: tuple[int, ...] | list[int]) -> bool:
    """A trick whose every tile bears red pips (`[6:6]` counts, D-32): with deer escaped on,
    it goes to nobody (§2.12.6)."""
    return all(RED[t] for t in tiles)
