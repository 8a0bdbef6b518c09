"""What the games' own ways of dealing the unseen tiles share: the constraint retries, the
reading of the others' moves as the heuristic's (`SLIP`), and the Metropolis `Chain` that draws
deals in proportion to how likely they make the moves seen (`Rules.deals`).

Rules source: none of its own; each game's module names its docs/rules-book.md section.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

TRIES = 40
"""Attempts at a deal that meets every constraint before the constraints are dropped."""
SLIP = 0.1
"""How often a seat is taken to play other than the heuristic would, when weighing a deal by
the moves the seats made in it (`connect_likelihood`)."""


def places(start: Any, seat: int) -> tuple[list[int], list[int]]:
    """A `Chain`'s places in a sampled deal `start`: the tiles of the others' hands, then the
    stock, with their owners (the seat, or -1 for the stock)."""
    tiles: list[int] = []
    owners: list[int] = []
    for s, hand in enumerate(start.hands):
        if s != seat:
            tiles += hand
            owners += [s] * len(hand)
    tiles += start.stock
    owners += [-1] * len(start.stock)
    return tiles, owners


class Chain:
    """Deals drawn in proportion to how likely they make the moves seen: a Metropolis chain
    over the unseen tiles.

    The unseen tiles sit in places, each with an owner (a hand, one face-down discard, the
    stock…). A step swaps the tiles of two places with different owners, if each may hold the
    other's tile, and keeps the swap with the ratio of the weights (`weigh` of the deal
    `build` makes). Between two deals handed out it takes `thin` steps, after `burn` at the
    start; a call hands out the current deal. The list `tiles` it is given is kept as the
    current deal's tiles, place by place (rejected swaps are undone).
    """

    def __init__(self, tiles: list[int], owners: list[int],
                 allowed: Callable[[int, int], bool], build: Callable[[list[int]], Any],
                 weigh: Callable[[Any], float], rng: random.Random, burn: int,
                 thin: int) -> None:
        self._tiles = tiles
        self._owners = owners
        self._allowed = allowed
        self._build = build
        self._weigh = weigh
        self._rng = rng
        self._thin = thin
        self._state = build(tiles)
        self._weight = weigh(self._state)
        self._walk(burn)

    def __call__(self) -> Any:
        self._walk(self._thin)
        return self._state

    def _walk(self, steps: int) -> None:
        tiles, owners, allowed, rng = self._tiles, self._owners, self._allowed, self._rng
        size = len(tiles)
        if size < 2 or len(set(owners)) < 2:
            return
        for i, j in swaps(rng, size, steps):
            if owners[i] == owners[j]:
                continue  # the same deal
            a, b = tiles[i], tiles[j]
            if not (allowed(i, b) and allowed(j, a)):
                continue
            tiles[i], tiles[j] = b, a
            state = self._build(tiles)
            weight = self._weigh(state)
            if weight >= self._weight or rng.random() * self._weight < weight:
                self._state, self._weight = state, weight
            else:
                tiles[i], tiles[j] = a, b


def swaps(rng: random.Random, size: int, steps: int) -> Iterator[tuple[int, int]]:
    """The two places of each of a chain's `steps` steps among `size`, drawn as
    `rng.randrange(size)` and then another of `rng.randrange(size - 1)` draw, draw for draw (as
    `engine.shuffle` draws), without two method calls a draw: a step is mostly its draws."""
    getrandbits = rng.getrandbits
    bits_i, bits_j = size.bit_length(), (size - 1).bit_length()
    for _ in range(steps):
        i = getrandbits(bits_i)
        while i >= size:
            i = getrandbits(bits_i)
        j = getrandbits(bits_j)
        while j >= size - 1:
            j = getrandbits(bits_j)
        yield i, j + (j >= i)


def _turns_done(view: Any, seat: int) -> int:
    """Turns `seat` has finished in this deal: turns go round from the leader, and the one
    under way (`view.turns`, 1-based) is the viewer's."""
    n: int = view.players
    leader: int = view.leader
    turns: int = view.turns
    return sum(1 for k in range(turns - 1) if (leader + k) % n == seat)
