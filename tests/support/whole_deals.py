"""A deal of heuristic seats played out at once on a fast table (`play_scored`) held against
the same deal played move by move (`scored_move`, `play`): the tests of each table that plays
a deal in one loop ask the same (docs/architecture.md §3, `Table`)."""

from __future__ import annotations

from typing import Any

from games.engine import Rules, rng


def played_alike(rules: Rules[Any, Any], options: Any, players: int, deals: int,
                 kind: type) -> None:
    """Play `deals` deals of `rules` both ways on tables of `kind`: the same moves, the same
    state at the end, and as much drawn from each seat's generator."""
    match = rules.start_match(options, players, "whole")
    for deal in range(deals):
        state = rules.new_deal(options, players, f"whole/{deal}", match)
        at_once, by_move = rules.table(state), rules.table(state)
        assert type(at_once) is kind and type(by_move) is kind
        rngs = [rng("whole", f"{deal}/{i}") for i in range(players)]
        twins = [rng("whole", f"{deal}/{i}") for i in range(players)]
        moves = at_once.play_scored(twins)  # type: ignore[attr-defined]
        made = 0
        while (seat := by_move.to_move()) is not None:
            by_move.play(by_move.scored_move(seat, rngs[seat]))  # type: ignore[attr-defined]
            made += 1
        assert moves == made, f"deal {deal}: moves differ"
        assert at_once.state() == by_move.state(), f"deal {deal}: states differ"
        assert at_once.to_move() is None and at_once.legal() == ()
        assert [t.getstate() for t in twins] == [g.getstate() for g in rngs]
        match = rules.next_match(at_once.state())
        if match.over:
            match = rules.start_match(options, players, f"whole/{deal}")
