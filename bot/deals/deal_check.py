"""A kept deal played again through the rules, and checked end to end from its seed and moves.

docs/architecture.md §1.3 and §1.7; `games.replay` plays the moves, `storage.moves` keeps them.
Anyone with the database can check a deal: it is dealt again from its seed in the match it was dealt
in, every kept move goes through the rules as a press at the table would, and the outcome must be
the one stored — the reason, every seat's points and who won — and the chips that moved must be
those the settlement gives (`bot.session.stakes.settle`: the rules' payments between the seats at
stake, times the stake, covered by what each had on the table). A deal whose kept moves or setup
were changed in the database is refused, naming the move the rules refuse or the figure that
differs; a deal kept without its moves (played before they were kept) says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import games
from bot.session.seating import computer_name
from bot.session.stakes import Paid, settle
from games import codec, seeds
from games.engine import GameError, Match, Outcome, Rules
from games.replay import Step, decode, replay
from storage.moves import DealMoves, KeptDeal, KeptSeat


class DealRefused(Exception):
    """The deal cannot be replayed or does not check out; the message says why."""


@dataclass(frozen=True, slots=True)
class Replayed:
    """A kept deal played again: its rules and options, every position, and its outcome."""

    deal: KeptDeal
    moves: DealMoves
    rules: Rules[Any, Any]
    options: Any
    steps: list[Step]

    @property
    def outcome(self) -> Outcome | None:
        return self.rules.outcome(self.steps[-1].state)


def replayed(deal: KeptDeal) -> Replayed:
    """The deal played again from its seed and its kept moves; `DealRefused` when it has no
    moves, its setup cannot be read, or a move is refused by the rules."""
    kept = deal.moves
    if kept is None:
        raise DealRefused(f"deal {deal.id} was played before deals kept their moves, so it "
                          "cannot be replayed (only its result is kept)")
    try:
        rules = games.get(deal.game)
        setup = kept.setup
        options = rules.options(setup["preset"], **setup["values"])
        match = codec.from_jsonable(Match, setup["match"])
        players = int(setup["players"])
        rules.check_players(players)
        if match.players != players or len(deal.seats) != players:
            raise ValueError("the players do not add up")
        moves = decode(kept.moves)
    except (GameError, KeyError, TypeError, ValueError) as exc:
        raise DealRefused(f"deal {deal.id}'s kept setup cannot be read: {exc}") from None
    try:
        steps = replay(rules, options, players, kept.seed, match, moves)
    except GameError as exc:
        raise DealRefused(f"deal {deal.id} is refused: {exc}") from None
    return Replayed(deal, kept, rules, options, steps)


def check(deal: KeptDeal) -> Replayed:
    """The deal replayed, once its outcome and chips are found to be those stored;
    `DealRefused` naming what differs otherwise."""
    done = replayed(deal)
    outcome = done.outcome
    if outcome is None:
        raise DealRefused(f"deal {deal.id} is refused: its {len(done.steps) - 1} moves end "
                          "before the deal does")
    stored = deal.seats
    differ = []
    if outcome.reason != deal.reason:
        differ.append(f"it ends by {outcome.reason!r}, not {deal.reason!r}")
    if tuple(outcome.points) != tuple(s.points for s in stored):
        differ.append(f"the points are {list(outcome.points)}, not "
                      f"{[s.points for s in stored]}")
    if set(outcome.winners) != {s.seat for s in stored if s.won}:
        differ.append(f"seats {[w + 1 for w in outcome.winners]} win, not "
                      f"{[s.seat + 1 for s in stored if s.won]}")
    paid = chips(done, outcome)
    if paid.chips != tuple(s.delta for s in stored):
        differ.append(f"the chips that move are {list(paid.chips)}, not "
                      f"{[s.delta for s in stored]}")
    if differ:
        raise DealRefused(f"deal {deal.id} is refused: replayed, " + "; ".join(differ))
    return done


def chips(done: Replayed, outcome: Outcome) -> Paid:
    """The chips the replayed outcome moves, settled as the table settled them."""
    setup = done.moves.setup
    try:
        held = [int(h) for h in setup["held"]]
        stake = int(setup["stake"])
    except (KeyError, TypeError, ValueError) as exc:
        raise DealRefused(f"deal {done.deal.id}'s kept setup cannot be read: {exc}") from None
    if len(held) != len(done.deal.seats):
        raise DealRefused(f"deal {done.deal.id}'s kept setup names {len(held)} tables' chips")
    return settle(outcome.payments, [s.staked for s in done.deal.seats], held, stake)


def report(done: Replayed) -> list[str]:
    """What `gupai verify DEAL` prints of a deal that checks out."""
    deal, seed = done.deal, done.moves.seed
    moves = len(done.steps) - 1
    lines = [f"deal {deal.id}: {deal.game}, deal {deal.deal_no + 1} of game {deal.session_id}, "
             f"{len(deal.seats)} players",
             f"seed {seed}, fingerprint {seeds.fingerprint(seed)}: dealt again from the seed"]
    hands, stock = done.rules.dealt(done.steps[0].state)
    tiles = done.rules.tileset(done.options)
    lines += [f"seat {s + 1} ({name(deal.seats[s])}): "
              f"{' '.join(tiles.label(t) for t in hand)}" for s, hand in enumerate(hands)]
    lines.append(f"stock: {' '.join(tiles.label(t) for t in stock) or '(none)'}")
    lines.append(f"{moves} moves replayed through the rules, every one legal in turn")
    lines += [f"seat {s.seat + 1} ({name(s)}): {s.points} points, chips "
              f"{f'{s.delta:+d}' if s.staked else 'none (not at stake)'}"
              f"{', won' if s.won else ''}" for s in deal.seats]
    lines.append(f"the result ({deal.reason}) and the chips that moved are those stored: "
                 "the deal checks out")
    return lines


def name(seat: KeptSeat) -> str:
    """A seat's name as the command prints it (a computer's label as the chats name it)."""
    return computer_name(seat.name, "en") if seat.computer else seat.name
