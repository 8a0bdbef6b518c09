"""What a deal of Kap Ten and Kap Tai Shap holds: its options, its state, and what one seat sees.

Apart from the rules (`games.kap`) so that the computer players (`games.kap_ai`) and the deals
they imagine (`games.hidden.kap`) read a deal without importing the rules that call on them.
Rules source: docs/rules-book.md §2.6 and §2.7.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from games.engine import Match, View, option

MAX_SETS = 10
"""Kap Tai Shap's sets are numbered into one id space, so a tile keeps its id and its button code
whatever the number of sets; ten sets give copy letters a…t, within the alphabet."""


Laid = tuple[tuple[int, int], tuple[tuple[int, int], ...]]
"""A winning hand laid out: the eye, then the tens."""


@dataclass(frozen=True)
class KapOptions:
    rules: str = option("culin", "culin: take any face-up discard (and discard another), then "
                        "always draw and discard; classical: take the last discard or draw, "
                        "then discard", ("culin", "classical"))
    ante: int = option(1, "chips each player puts into the pot; the winner takes it",
                       lo=1, hi=100)
    four_two: int = option(3, "what [4:2] counts in a ten: 3 (Culin, the seed) or its 6 pips",
                           (3, 6))
    deal: str = option("seed", "seed: the first player is dealt one tile more and opens with a "
                       "discard; even: everyone is dealt alike and the first player opens by "
                       "drawing, as the seed author's simulator deals", ("seed", "even"))
    deals: int = option(0, "deals in a match (0: until the table stops)", lo=0, hi=1000)


@dataclass(frozen=True)
class KapTaiShapOptions(KapOptions):
    sets: int = option(0, "sets shuffled together (0: about two per five players, ⌈2n/5⌉)",
                       lo=0, hi=MAX_SETS)


@dataclass(frozen=True, slots=True)
class KapState:
    options: KapOptions
    seed: str
    players: int
    match: Match
    version: int
    sets: int
    leader: int
    turn: int
    turns: int
    """Player turns begun in this deal, the current one included (1-based)."""
    phase: str
    """"open" (take or draw), "swap" (the discard before the draw: after a take under Culin's
    rules, and the first player's first turn), "discard" (the turn's last discard), "" at the
    end."""
    taken: int | None
    """The tile just taken from the discards: neither it nor an identical copy may go straight
    back (D-10)."""
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    """Face down; drawn from the front, so a scripted stock lists tiles in the order drawn."""
    pile: tuple[tuple[int, int], ...]
    """Face-up discards, oldest first, as (tile, seat that discarded it)."""
    done: str
    """"" while in play, "won" or "void"."""
    winner: int | None
    source: str
    """How the winning hand was completed: "deal", "discard" or "stock"."""
    took: tuple[tuple[int, int], ...] = ()
    """Face-up discards taken and not shown since, oldest first, as (tile, seat that took it):
    everyone saw each go into that hand, and until it is discarded again it is still there."""


@dataclass(frozen=True, slots=True, kw_only=True)
class KapView(View[KapOptions]):
    sets: int
    leader: int
    turns: int
    phase: str
    taken: int | None
    stock: int
    pile: tuple[tuple[int, int], ...]
    took: tuple[tuple[int, ...], ...]
    """Per seat, the face-up discards it took and still holds (everyone saw it take them, and
    nobody has seen them since), in the order taken."""
    takeable: tuple[int, ...]
    """Pile tiles the player to move may take now (the rule set decides which)."""
    pot: int
    winning: Laid | None
    """The winner's hand laid out as eye and tens, once the deal is won."""


class KapSeen(NamedTuple):
    """What the Kap heuristic (`games.kap_ai.rater`) reads of the view of the seat to move,
    built far more cheaply than the view (a tuple, not a frozen class that sets its fields one
    by one): the strong player's playouts and imagined deals ask the heuristic at every move."""

    game: str
    options: Any
    players: int
    sets: int
    seat: int
    hand: tuple[int, ...]
    pile: tuple[tuple[int, int], ...]
    phase: str
    legal: tuple[Any, ...]


class KapDealer(Protocol):
    """What the computer players and the deals they imagine ask of Kap's rules
    (`games.kap.KapRules`), named here so that they need not import the rules."""

    @property
    def pairs(self) -> int:
        """The tens a winning hand holds besides its eye."""
        ...

    @property
    def state_type(self) -> type[Any]: ...

    def _wins(self, options: KapOptions, hand: Sequence[int]) -> bool: ...
