"""The strong player's choices, pinned: the same positions and generators give these moves.

A change that only moves code (where a game keeps its search budget, how it deals the unseen
tiles again, how a playout is scored) must leave every choice as it was; a change meant to
make the strong level play differently updates these moves on purpose. The positions come
from matches between normal players, a few moves apart and deals carried into the match, at
each game's least, usual and most players and at each of its presets.

`PINNED` is per-game data a test over `games.GAMES` cannot derive: the moves this code chose.
A new game adds its own line (`python -m tests.games.test_strong_moves` prints them).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from games import GAMES
from games.players import make_player

POSITIONS = 4
EVERY = 7


def cases(game: str) -> Iterator[tuple[str | None, int]]:
    """(preset, players): the game's options at its least, usual and most players, then each
    preset at the usual number."""
    rules = GAMES[game]
    for players in sorted({rules.min_players, rules.default_players, rules.max_players}):
        yield None, players
    for preset in rules.presets:
        yield preset, rules.default_players


def strong_moves(game: str, preset: str | None, players: int) -> str:
    """The strong player's move codes, space-separated, at `POSITIONS` positions of a match
    between normal players (every `EVERY`th move with a choice)."""
    rules = GAMES[game]
    options = rules.options(preset)
    normal = make_player(game, "normal")
    strong = make_player(game, "strong")
    seed = f"pin/{game}/{preset}/{players}"
    match = rules.start_match(options, players, seed)
    chosen: list[str] = []
    deal, moves = 0, 0
    while len(chosen) < POSITIONS:
        state = rules.new_deal(options, players, f"{seed}/{deal}", match)
        rng = random.Random(deal)
        while (seat := rules.to_move(state)) is not None and len(chosen) < POSITIONS:
            view = rules.view(state, seat)
            if len(view.legal) > 1:
                moves += 1
                if moves % EVERY == 0:
                    chosen.append(rules.encode(state, strong.choose(view, random.Random(moves))))
            state, _ = rules.apply(state, normal.choose(view, rng))
        if rules.to_move(state) is None:
            match = rules.next_match(state)
            if match.over:
                match = rules.start_match(options, players, f"{seed}/{deal}")
        deal += 1
    return " ".join(chosen)


PINNED: dict[str, dict[str, str]] = {
    "dragon": {
        "None/2": "play.62a@0 play.43a@0 drop.42a play.65a@0",
        "None/4": "drop.31a lead.66a@6 drop.11b play.63a@0",
        "one-arm/4": "drop.31a play.44a@0 play.44a@0 drop.21a",
        "two-arm/4": "play.33a@1 play.51a@0 lead.66b play.44b@1",
        "dancing/4": "play.65b@1 drop.44a play.66b@0 drop.11b",
        "chips/4": "drop.33b play.65a@0 play.61a@0 play.33a@0",
        "tally/4": "play.51a@0 drop.11b play.51b@0 drop.41a",
    },
    "cedeng": {
        "None/4": "play.33b@0 drop.64a play.63a@0 drop.41a",
        "classic/4": "play.65a@0 play.44a@0 play.55a@0 play.43a@0",
        "strict/4": "play.54a@0 drop.22b play.64a@0 drop.11b",
        "eight-win/4": "play.65a@0 play.41a@0 play.63a@0 drop.41a",
        "chips/4": "play.61b@0 drop.51b play.62a@0 play.43a@0",
    },
    "tails": {
        "None/2": "play.64b@0 drop.31b play.61b@0 lead.63a@3",
        "None/4": "play.66a@0 play.66b@0 lead.32a@2 drop.52a",
        "chips/4": "play.33a@0 play.55b@0 play.51a@0 play.32a@0",
        "points/4": "play.62a@0 play.61b@0 drop.11a drop.22a",
    },
    "dingniu": {
        "None/4": "play.61a@0 play.65a@0 drop.11a play.31b@0",
        "standard/4": "play.31a@0 lead.33b drop.11b drop.44b",
        "beginner/4": "play.31b@0 play.33b@0 play.22b@1 play.64a@0",
        "zhwiki/4": "play.64a@1 play.44a@0 play.64b@0 drop.33a",
    },
    "kapten": {
        "None/2": "discard.55a draw take.61a discard.63a",
        "culin/2": "discard.42a discard.65a discard.52a discard.61a",
        "classical/2": "discard.55b take.44b discard.41a draw",
    },
    "kaptaishap": {
        "None/2": "discard.63a discard.61a discard.42a discard.31b",
        "None/6": "draw take.44a discard.54b discard.43b",
        "None/20": "discard.54f discard.43g discard.33g discard.55c",
        "culin/6": "discard.32c draw discard.54c discard.63b",
        "classical/6": "discard.33a take.61a discard.44a draw",
    },
    "tiengow": {
        "None/4": "fold.42a fold.65a lead.55a beat.44b",
        "modern/4": "fold.33b fold.62a lead.62a fold.51a",
        "pure/4": "fold.61b beat.44b lead.52a.43a fold.33a",
        "streak/4": "fold.65b fold.51b lead.55a.55b fold.44a",
        "early-death/4": "beat.33a beat.62a lead.32a fold.65b",
    },
    "deerhunt": {
        "None/4": "play.61b play.44a play.52a play.31a",
        "deerhunt/4": "play.52a play.43a play.41a play.64a",
        "fair/4": "play.33a play.43a play.53a play.54a",
    },
    "threedozen": {
        "None/2": "discard.50a discard.60a meld.60a.42a discard.22a",
        "None/4": "meld.55a.11a discard.60a discard.41a discard.65a",
        "None/5": "meld.42a.33a discard.65a discard.10a discard.65a",
        "standard/4": "discard.60a discard.31a discard.00a discard.50a",
        "forced-pickup/4": "discard.62a discard.63a discard.31a discard.50a",
    },
    "domino": {
        "None/2": "play.40a@0 play.40a@1 play.63a@1 play.41a@1",
        "None/4": "play.20a@1 play.54a@1 play.65a@1 play.22a@0",
        "100/2": "play.63a@0 play.53a@0 play.44a@0 play.22a@0",
        "50/2": "play.43a@0 play.22a@0 play.20a@1 play.20a@0",
        "one-draw/2": "play.50a@0 play.30a@0 play.42a@0 play.63a@0",
        "stake/2": "play.52a@1 play.22a@0 play.51a@0 play.42a@1",
    },
}


@pytest.mark.parametrize("game", GAMES)
def test_the_strong_player_chooses_as_pinned(game):
    found = {f"{preset}/{players}": strong_moves(game, preset, players)
             for preset, players in cases(game)}
    assert found == PINNED.get(game), f"{game!r}: {found!r}"


if __name__ == "__main__":
    for game in GAMES:
        print(f"    {game!r}: {{")
        for preset, players in cases(game):
            print(f"        {f'{preset}/{players}'!r}: {strong_moves(game, preset, players)!r},")
        print("    },")
