"""The shared contract: `play`'s distinct refusals, action codes, options, JSON round trips."""

import dataclasses
import random

import pytest

from games import GAMES, get
from games.engine import (
    MAX_CODE_BYTES,
    Action,
    GameOver,
    IllegalAction,
    InvalidCode,
    InvalidOptions,
    NotYourTurn,
    Outcome,
    play,
    shuffle,
)
from games.tiles import CHINESE
from tests.support.helpers import ids

dragon = get("dragon")


@pytest.fixture
def opening():
    opts = dragon.options()
    return dragon.deal_from(opts, [ids(CHINESE, "31", "66"), ids(CHINESE, "63", "33")])


def test_play_accepts_a_good_move(opening):
    state, events = play(dragon, opening, 0, "lead.31a@3")
    assert state.version == 1 and state.ends == (3,)
    assert events[0].kind == "lead" and events[0].seat == 0


def test_play_refusals_are_distinct_and_change_nothing(opening):
    before = dragon.dumps(opening)
    with pytest.raises(NotYourTurn):
        play(dragon, opening, 1, "lead.63a@3")
    with pytest.raises(IllegalAction):
        play(dragon, opening, 0, "lead.31a@6")  # 6 is not an end of [3:1]
    with pytest.raises(IllegalAction):
        play(dragon, opening, 0, "lead.63a@3")  # not in this hand
    with pytest.raises(IllegalAction):
        play(dragon, opening, 0, "drop.31a")  # the leader must lead
    with pytest.raises(InvalidCode):
        play(dragon, opening, 0, "fly.31a")
    with pytest.raises(InvalidCode):
        play(dragon, opening, 0, "lead.99z@3")
    with pytest.raises(InvalidCode):
        play(dragon, opening, 0, "lead.31a@x")
    with pytest.raises(InvalidCode):
        play(dragon, opening, 0, "lead." + "31a." * 20)
    assert dragon.dumps(opening) == before
    over = dataclasses.replace(opening, done="out")
    with pytest.raises(GameOver):
        play(dragon, over, 0, "lead.31a@3")


def test_a_second_copy_of_a_tile_is_the_same_move_once(opening):
    state = dragon.deal_from(dragon.options(), [ids(CHINESE, "66", "66", "21"),
                                                ids(CHINESE, "63")])
    leads = dragon.legal_actions(state)
    assert len([a for a in leads if CHINESE.kind(a.tiles[0]).label == "[6:6]"]) == 1
    second = Action("lead", (ids(CHINESE, "66", "66")[1],), 6)
    with pytest.raises(IllegalAction):
        dragon.apply(state, second)


def test_action_codes_round_trip():
    state = dragon.new_deal(dragon.options(), 4, "codes")
    for action in dragon.legal_actions(state):
        code = dragon.encode(state, action)
        assert len(code.encode()) <= MAX_CODE_BYTES
        assert dragon.decode(state, code) == action


def test_outcome_refuses_chips_that_do_not_balance():
    with pytest.raises(ValueError):
        Outcome("out", (0, 0), (0,), (1, 0))


def test_options_presets_and_validation():
    assert dragon.options(preset="two-arm").arms == 2
    assert dragon.parse_options("two-arm", {"settlement": "chips"}).settlement == "chips"
    assert dragon.parse_options(None, {"clean_bonus": "on"}).clean_bonus is True
    for bad in ({"arms": 3}, {"colour": "red"}, {"target": 5}):
        with pytest.raises(InvalidOptions):
            dragon.options(**bad)
    with pytest.raises(InvalidOptions):
        dragon.options(preset="nope")
    with pytest.raises(InvalidOptions):
        dragon.parse_options(None, {"target": "many"})
    with pytest.raises(InvalidOptions):
        dragon.new_deal(dragon.options(), 5, "x")


def test_every_game_documents_its_options():
    for rules in GAMES.values():
        described = rules.describe_options()
        assert described and all(help_text for _, _, help_text, _ in described)
        for preset in rules.presets:
            rules.options(preset=preset)


def test_lookup_by_alias():
    assert get("接龍") is dragon and get(" Dragon ") is dragon
    with pytest.raises(InvalidOptions):
        get("chess")


def test_first_leader_is_drawn_by_lot_from_the_seed():
    leaders = {dragon.start_match(dragon.options(), 4, f"lot{n}").leader for n in range(40)}
    assert leaders == {0, 1, 2, 3}
    assert dragon.start_match(dragon.options(), 4, "same") == dragon.start_match(
        dragon.options(), 4, "same")


@pytest.mark.parametrize("size", [0, 1, 2, 3, 24, 32, 128, 320])
def test_shuffle_is_the_librarys_move_for_move(size):
    """Deals are shuffled by `engine.shuffle`: the library's order from the same generator, and
    the generator left where the library leaves it, so every seed deals what it always dealt."""
    for seed in range(60):
        ours, theirs = list(range(size)), list(range(size))
        mine, library = random.Random(f"deal/{seed}"), random.Random(f"deal/{seed}")
        shuffle(mine, ours)
        library.shuffle(theirs)
        assert ours == theirs
        assert mine.getrandbits(64) == library.getrandbits(64)
