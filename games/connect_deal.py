"""What a deal of a connecting game holds (Dragon, Ce Deng, Tails): its options, its state, and
what one seat sees.

Apart from the rules (`games.connecting`) so that the computer players (`games.connecting_ai`)
and the deals they imagine (`games.hidden.connecting`) read a deal without importing the rules
that call on them. Rules source: docs/rules-book.md §2.1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from games.engine import Match, View, option, stale

Placement = tuple[int, int, int, int]
"""A tile on the line: (tile id, left number, right number, seat that laid it)."""


@dataclass(frozen=True)
class ConnectOptions:
    """Options every connecting game has; subclasses add their own."""

    settlement: str = option("classic", "how chips move after a deal",
                             ("classic", "chips", "tally"))
    lead: str = option("winner", "who leads the next deal: the winner, or the next hand in turn",
                       ("winner", "rotate"))
    target: int = option(100, "tally: the match ends when a player's total reaches this",
                         lo=10, hi=10_000)
    deals: int = option(0, "deals in a match (0: until the table stops)", lo=0, hi=1000)


CO = TypeVar("CO", bound=ConnectOptions)


@dataclass(frozen=True, slots=True)
class ConnectState(Generic[CO]):
    """A connecting deal. A variant that must remember more subclasses it with defaulted
    fields: every move rebuilds the state with `dataclasses.replace`, which keeps them."""

    options: CO
    seed: str
    players: int
    match: Match
    version: int
    leader: int
    turn: int
    hands: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    line: tuple[Placement, ...]
    ends: tuple[int, ...]
    closed: int | None
    unused: tuple[int, ...]
    redeals: int
    done: str
    """"" while in play; "out" (every tile placed), "blocked", or "eight" (eight doubles)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ConnectView(View[CO]):
    arms: int
    leader: int
    discard_counts: tuple[int, ...]
    discards: tuple[tuple[int, ...], ...]
    """The viewer's own discards; everyone's (with tiles left at a block) once the deal is over."""
    line: tuple[Placement, ...]
    ends: tuple[int, ...]
    closed: int | None
    unused: int
    redeals: int


class ConnectDealer(Protocol):
    """What the computer players and the deals they imagine ask of a connecting game's rules
    (`games.connecting.ConnectingRules`), named here so that they need not import the rules."""

    @property
    def state_type(self) -> type[Any]: ...

    def __hash__(self) -> int:
        """Rules are kept in caches by identity."""
        ...

    def deck(self, players: int) -> tuple[tuple[int, ...], int]:
        """The tiles a deal of `players` shuffles, and how many each hand is dealt."""
        ...


class ConnectSeen:
    """What the connecting games' heuristic reads of the seat to move's view, as a fast table
    gives it (`Table.rater_view`): the legal moves, the open ends and, as sets of bits kept up
    to date move by move, the tiles in the seat's hand (`held`), those it cannot see
    (`unseen`: not in its hand, on the line or among its own discards) and those on the line
    (`laid`). The heuristic would otherwise rebuild the hand and the line from the view at
    every move to count them (`games.connecting_ai`).

    Any other field of the view is read from the seat's full view (`Table.view`), made when
    first asked for, and only while the table has not moved on."""

    __slots__ = ("_full", "_table", "_version", "ends", "held", "laid", "legal", "options",
                 "seat", "unseen")

    def __init__(self, table: Any, seat: int, legal: tuple[Any, ...], ends: tuple[int, ...],
                 held: int, unseen: int, laid: int) -> None:
        self._table, self._version, self._full = table, table.version, None
        self.seat, self.legal, self.ends, self.options = seat, legal, ends, table.options
        self.held, self.unseen, self.laid = held, unseen, laid

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.full(), name)

    def full(self) -> Any:
        """The seat's full view (`Table.view`), for a reader of many of its other fields (each
        read through this object costs a failed lookup first)."""
        stale(self._version, self._table.version)
        full = self._full
        if full is None:
            full = self._full = self._table.view(self.seat)
        return full
