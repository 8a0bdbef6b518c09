"""A finished deal played again from its seed and its moves, every move through the rules.

Rules source: docs/architecture.md §1.3 (a deal is a function of its options, players and seed) and
§1 invariant 2 (states are values): a deal's seed and the match it was dealt in deal it again, and
its moves, made in order by the seats that made them, give every position it passed through and its
outcome. Nothing is trusted: each move goes through `engine.play`, as a press at the table does, so
a move that was not the seat's turn, does not parse or is not legal where it stands is refused
(`IllegalMove`, naming it) instead of being shown.

A deal's moves are kept as one short text, the move codes the buttons already carry
(`Action.code`, at most `MAX_CODE_BYTES`): `"seat:code"` per move, separated by spaces, with
`":by"` added whenever the one moving that seat is not whoever moved it last (who made the move:
an id the caller gives meaning to, without spaces or colons). A deal of thirty moves by four
people is then about three hundred bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import MAX_CODE_BYTES, Event, GameError, Match, Rules, play

_FORBIDDEN = frozenset(" :")


@dataclass(frozen=True, slots=True)
class Move:
    """One move of a deal: the seat (an index), its code, and who made it."""

    seat: int
    code: str
    by: str = ""


@dataclass(frozen=True, slots=True)
class Step:
    """A position of the replayed deal and how it was reached (`move` None: the deal itself)."""

    state: Any
    move: Move | None
    events: tuple[Event, ...]


class BadMoves(GameError):
    """A deal's kept moves are not a list of moves at all (a garbled or edited text)."""


class IllegalMove(GameError):
    """A kept move the rules refuse where it stands: the deal cannot have been played so."""

    def __init__(self, number: int, move: Move, reason: str) -> None:
        self.number = number
        """The move's place in the deal, counted from 1."""
        self.move = move
        super().__init__(f"move {number} (seat {move.seat + 1}: {move.code}) is refused: "
                         f"{reason}")


def encode(moves: Iterable[Move]) -> str:
    """The compact text of `moves` (see the module's docstring)."""
    parts: list[str] = []
    last_by: dict[int, str] = {}
    for move in moves:
        check(move)
        text = f"{move.seat}:{move.code}"
        if last_by.get(move.seat) != move.by:
            text += f":{move.by}"
            last_by[move.seat] = move.by
        parts.append(text)
    return " ".join(parts)


def append(text: str, move: Move) -> str:
    """`text` with `move` added at its end (a deal's moves are kept as they are made)."""
    by = next((m.by for m in reversed(decode(text)) if m.seat == move.seat), None)
    check(move)
    added = f"{move.seat}:{move.code}" + ("" if by == move.by else f":{move.by}")
    return f"{text} {added}" if text else added


def decode(text: str) -> tuple[Move, ...]:
    """The moves a compact text holds; `BadMoves` for anything that is not such a text."""
    moves: list[Move] = []
    last_by: dict[int, str] = {}
    for number, part in enumerate(text.split(), 1):
        fields = part.split(":")
        if len(fields) not in (2, 3) or not fields[0].isdigit() or not fields[1]:
            raise BadMoves(f"move {number} ({part!r}) is not a seat and a move")
        seat = int(fields[0])
        if len(fields) == 3:
            last_by[seat] = fields[2]
        moves.append(Move(seat, fields[1], last_by.get(seat, "")))
    return tuple(moves)


def check(move: Move) -> None:
    if move.seat < 0 or not move.code or len(move.code.encode()) > MAX_CODE_BYTES:
        raise BadMoves(f"not a move: seat {move.seat}, {move.code!r}")
    if _FORBIDDEN & set(move.code) or _FORBIDDEN & set(move.by):
        raise BadMoves(f"a move's code or author holds a space or a colon: {move!r}")


def replay(rules: Rules[Any, Any], options: Any, players: int, seed: str, match: Match,
           moves: Sequence[Move]) -> list[Step]:
    """Every position of the deal `seed` deals in `match`, from the deal to the last move."""
    state = rules.new_deal(options, players, seed, match)
    steps = [Step(state, None, ())]
    for number, move in enumerate(moves, 1):
        if move.seat >= players:
            raise IllegalMove(number, move, f"there is no seat {move.seat + 1}")
        try:
            state, events = play(rules, state, move.seat, move.code)
        except GameError as exc:
            raise IllegalMove(number, move, str(exc)) from None
        steps.append(Step(state, move, events))
    return steps
