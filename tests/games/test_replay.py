"""A deal played again from its seed and its kept moves (`games.replay`)."""

import random

import pytest

from games import GAMES, replay
from games.engine import Match
from games.replay import BadMoves, IllegalMove, Move


def played(rules, seed, rnd):
    """A random deal of `rules` at its usual table: the start, its moves and the last state."""
    options = rules.options()
    players = rules.default_players
    match = Match.start(players, rnd.randrange(players))
    state = start = rules.new_deal(options, players, seed, match)
    moves = []
    while rules.to_move(state) is not None:
        seat = rules.to_move(state)
        action = rnd.choice(rules.legal_actions(state))
        moves.append(Move(seat, rules.encode(state, action), f"{seat + 10}"))
        state, _ = rules.apply(state, action)
    return options, players, match, start, moves, state


@pytest.mark.parametrize("game", list(GAMES))
def test_the_kept_moves_reach_the_same_end(game):
    rules = GAMES[game]
    rnd = random.Random(f"replay/{game}")
    for n in range(3):
        options, players, match, start, moves, end = played(rules, f"seed-{game}-{n}", rnd)
        text = replay.encode(moves)
        assert replay.decode(text) == tuple(moves)
        steps = replay.replay(rules, options, players, f"seed-{game}-{n}", match,
                              replay.decode(text))
        assert steps[0].state == start and steps[0].move is None
        assert [s.move for s in steps[1:]] == moves
        assert steps[-1].state == end
        assert rules.outcome(steps[-1].state) == rules.outcome(end)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_changed_move_is_refused_by_its_number(game):
    rules = GAMES[game]
    rnd = random.Random(f"tamper/{game}")
    options, players, match, _, moves, _ = played(rules, f"tamper-{game}", rnd)
    at = len(moves) // 2
    other = next(m for m in moves if m.code != moves[at].code)
    changed = [*moves[:at], Move(moves[at].seat, other.code), *moves[at + 1:]]
    wrong_seat = [*moves[:at], Move((moves[at].seat + 1) % players, moves[at].code),
                  *moves[at + 1:]]
    for tampered in (changed, wrong_seat):
        with pytest.raises(IllegalMove) as refused:
            replay.replay(rules, options, players, f"tamper-{game}", match, tampered)
        # (another legal move may stand in for it: then a later one is refused)
        assert refused.value.number >= at + 1
        assert f"move {refused.value.number} (seat" in str(refused.value)


def test_who_moved_is_written_only_when_it_changes():
    moves = [Move(0, "play.63a@1", "7"), Move(1, "pass", "8"), Move(0, "play.11a", "7"),
             Move(1, "pass", "8a"), Move(0, "drop.22b", "7")]
    text = replay.encode(moves)
    assert text == "0:play.63a@1:7 1:pass:8 0:play.11a 1:pass:8a 0:drop.22b"
    assert replay.decode(text) == tuple(moves)
    grown = ""
    for move in moves:
        grown = replay.append(grown, move)
    assert grown == text


@pytest.mark.parametrize("text", ["0", "x:play", "0:play:1:2", "-1:play", "0:"])
def test_a_garbled_text_is_refused(text):
    with pytest.raises(BadMoves):
        replay.decode(text)


def test_a_code_that_would_garble_the_text_is_refused():
    with pytest.raises(BadMoves):
        replay.encode([Move(0, "play a")])
    with pytest.raises(BadMoves):
        replay.encode([Move(0, "play", "by:me")])
