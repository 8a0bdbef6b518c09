"""Random playouts of every game × preset × player count (DESIGN.md §9).

Each checks, after every move: tiles conserved, exact JSON round trip, action codes that decode
to the same move, illegal moves refused, no view that shows another seat's hidden tiles; and at
the end: zero-sum chips whose payments net to the deltas, termination, the same seed giving the
same game.
"""

import random

import pytest

from games import GAMES
from games.engine import MAX_CODE_BYTES, Action, IllegalAction, rng
from games.settlement import deltas_of


def player_counts(rules):
    """Every player count a game allows, or 2, 5, 10 and 20 for a game of up to twenty."""
    counts = range(rules.min_players, rules.max_players + 1)
    if len(counts) <= 4:
        return list(counts)
    return sorted({rules.min_players, 5, 10, rules.max_players})


CASES = [
    (rules.id, preset, players)
    for rules in GAMES.values()
    for preset in rules.presets
    for players in player_counts(rules)
]
SEEDS = 6
MAX_STEPS = 500


def tiles_of(state):
    """Every tile id the state holds, in any place."""
    found = [t for hand in state.hands for t in hand]
    found += [p[0] for p in getattr(state, "line", ())]
    found += [p[0] for p in getattr(state, "pile", ())]
    found += [t for seat in getattr(state, "melds", ()) for pair in seat for t in pair]
    plays = list(getattr(state, "trick", ()))
    plays += [p for trick in getattr(state, "history", ()) for p in trick.plays]
    found += [t for play in plays for t in play.tiles]
    for name in ("discards",):
        found += [t for seat in getattr(state, name, ()) for t in seat]
    for name in ("unused", "stock"):
        found += list(getattr(state, name, ()))
    return found


def hidden_slots(state, seat):
    """Names of the fields (and seats) that `seat` may not see."""
    slots = [("hands", s) for s in range(state.players) if s != seat]
    if hasattr(state, "discards"):
        slots += [("discards", s) for s in range(state.players) if s != seat]
    slots += [(name, None) for name in ("unused", "stock") if hasattr(state, name)]
    return slots


def reshuffle_hidden(state, seat, seed):
    """The same table as `seat` sees it, with every tile it cannot see dealt differently."""
    import dataclasses

    slots = hidden_slots(state, seat)

    def get_slot(name, s):
        value = getattr(state, name)
        return value if s is None else value[s]

    pool = [t for name, s in slots for t in get_slot(name, s)]
    random.Random(seed).shuffle(pool)
    changes = {}
    for name, s in slots:
        size = len(get_slot(name, s))
        chunk, pool = tuple(pool[:size]), pool[size:]
        if s is None:
            changes[name] = chunk
        else:
            seats = list(changes.get(name, getattr(state, name)))
            seats[s] = chunk
            changes[name] = tuple(seats)
    return dataclasses.replace(state, **changes)


def forged_actions(rules, state, seat):
    """Moves a button could carry that are mostly not legal now."""
    hand = state.hands[seat]
    others = [t for t in tiles_of(state) if t not in hand][:4]
    for verb in sorted(rules.verbs):
        for tile in list(hand[:3]) + others:
            for arg in (None, 0, 1, 3, 6):
                yield Action(verb, (tile,), arg)
        yield Action(verb, (), None)


def playout(rules, preset, players, seed, check=True):
    options = rules.options(preset=preset)
    match = rules.start_match(options, players, seed)
    state = rules.new_deal(options, players, seed, match)
    deck = sorted(tiles_of(state))
    chooser = rng(seed, "test")
    steps = 0
    while (seat := rules.to_move(state)) is not None:
        legal = rules.legal_actions(state)
        assert legal, "a seat to move always has a move"
        if check:
            assert sorted(tiles_of(state)) == deck
            assert rules.loads(rules.dumps(state)) == state
            view = rules.view(state, seat)
            assert view.legal == legal
            for action in legal:
                code = rules.encode(state, action)
                assert len(code.encode()) <= MAX_CODE_BYTES and ":" not in code
                assert rules.decode(state, code) == action
            for other in [None, *range(players)]:
                twin = reshuffle_hidden(state, other, seed + str(steps))
                assert rules.view(twin, other) == rules.view(state, other), (
                    f"view of seat {other} shows hidden tiles")
            if steps % 5 == 0:
                for action in forged_actions(rules, state, seat):
                    if action in legal:
                        continue
                    with pytest.raises(IllegalAction):
                        rules.apply(state, action)
        action = legal[chooser.randrange(len(legal))]
        state, events = rules.apply(state, action)
        assert all(e.kind for e in events)
        steps += 1
        assert steps < MAX_STEPS, "the deal did not end"
    result = rules.outcome(state)
    assert result is not None and sum(result.deltas) == 0
    assert deltas_of(players, result.payments) == result.deltas
    assert len(result.points) == players
    assert sorted(tiles_of(state)) == deck
    assert rules.loads(rules.dumps(state)) == state
    assert rules.next_match(state).deal == match.deal + 1
    return state


@pytest.mark.parametrize(("game", "preset", "players"), CASES)
def test_random_playouts(game, preset, players):
    rules = GAMES[game]
    for n in range(SEEDS):
        playout(rules, preset, players, f"{game}/{preset}/{n}")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_same_seed_same_game(game):
    rules = GAMES[game]
    preset = next(iter(rules.presets))
    for n in range(3):
        a = playout(rules, preset, rules.max_players, f"det{n}", check=False)
        b = playout(rules, preset, rules.max_players, f"det{n}", check=False)
        assert a == b
    c = playout(rules, preset, rules.max_players, "other", check=False)
    assert c != a


def test_reshuffling_hidden_tiles_would_reveal_a_leak():
    rules = GAMES["dragon"]
    state = rules.new_deal(rules.options(), 4, "leak")
    twin = reshuffle_hidden(state, 0, "x")
    assert twin.hands[0] == state.hands[0] and twin.hands[1:] != state.hands[1:]
    assert rules.view(twin, 0) == rules.view(state, 0)
    assert rules.view(twin, 1) != rules.view(state, 1)
