"""A variant reuses its parent through narrow hooks (who can play, how a deal ends, the
scores), keeps its own state fields through every move and has options of its own.

The variant here is the Western block game written on the draw game's rules (docs/rules-book.md
§2.10 without the stock: tiles not dealt stay out, a player who cannot lay a tile passes); it is a
test's own game, never offered.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, ClassVar

import pytest

from games.connect_deal import ConnectState
from games.connecting import ConnectTable
from games.domino import DominoOptions, DominoRules, DominoState
from games.dragon import Dragon, DragonOptions
from games.engine import Action, InvalidOptions, StateTable, option
from games.tiles import CHINESE


@dataclasses.dataclass(frozen=True)
class BlockOptions(DominoOptions):
    own_pips: bool = option(False, "a block scores the others' pips less the winner's own")


@dataclasses.dataclass(frozen=True, slots=True)
class BlockState(DominoState[BlockOptions]):
    boneyard: tuple[int, ...] = ()
    """Tiles not dealt: out of the deal, never drawn."""


class Block(DominoRules[BlockState, BlockOptions]):
    id: ClassVar[str] = "block-test"
    options_type: ClassVar[type[Any]] = BlockOptions
    state_type: ClassVar[type[Any]] = BlockState

    def new_deal(self, options: BlockOptions, players: int, seed: str,
                 match: Any = None) -> BlockState:
        state = super().new_deal(options, players, seed, match)
        return dataclasses.replace(state, stock=(), boneyard=state.stock)

    def unable(self, state: BlockState) -> Action:
        return Action("pass")

    def deal_score(self, state: BlockState, winner: int, pips: tuple[int, ...]) -> int:
        score = sum(pips)
        return score - 2 * pips[winner] if state.options.own_pips else score


def play_out(rules: Block, state: BlockState, seed: str) -> tuple[BlockState, list[str]]:
    pick = random.Random(seed)
    verbs = []
    while rules.to_move(state) is not None:
        action = pick.choice(rules.legal_actions(state))
        verbs.append(action.verb)
        state, _ = rules.step(state, action)
        assert isinstance(state, BlockState)
    return state, verbs


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_block_variant_plays_whole_deals_through_the_hooks(players: int) -> None:
    rules = Block()
    passes = 0
    for n in range(20):
        state = rules.new_deal(rules.options(), players, f"block/{n}")
        boneyard = state.boneyard
        assert boneyard and not state.stock
        end, verbs = play_out(rules, state, f"moves/{n}")
        assert "draw" not in verbs
        assert end.boneyard == boneyard, "the variant's own field survives every move"
        assert end.done in ("domino", "blocked")
        result = rules.outcome(end)
        assert result is not None
        if end.done == "blocked":
            assert not any(rules.fits(end, t) for h in end.hands for t in h)
        passes += verbs.count("pass")
    assert passes, "a player who cannot lay a tile passes instead of drawing"


def test_a_variant_scores_through_its_own_option() -> None:
    rules = Block()
    hands = [[0], [1, 2]]  # tile ids of the double-six set, blank-blank first
    state = rules.deal_from(rules.options(own_pips=True), hands)
    state = dataclasses.replace(state, done="blocked")
    pips = tuple(sum(rules.tileset(state.options).pips[t] for t in h) for h in hands)
    winner = rules.deal_winner(state, pips)
    assert winner == 0
    result = rules.outcome(state)
    assert result is not None
    assert result.points[0] == sum(pips) - 2 * pips[0]
    plain = dataclasses.replace(state, options=rules.options())
    plain_result = rules.outcome(plain)
    assert plain_result is not None and plain_result.points[0] == sum(pips)


def test_a_variants_options_are_checked_as_its_own() -> None:
    rules = Block()
    assert rules.parse_options(None, {"own_pips": "yes"}).own_pips is True
    with pytest.raises(InvalidOptions):
        rules.parse_options(None, {"arms": "2"})


class OnlyDoublesOnDoubles(Dragon):
    """Dragon where a double may follow only a double (a test's own variant)."""

    def may_attach(self, state: ConnectState[DragonOptions], tile: int) -> bool:
        last = state.line[-1] if state.line else None
        return not CHINESE.double[tile] or last is None or last[1] == last[2]


def test_a_connecting_variant_that_changes_who_plays_is_never_wrong_on_the_fast_path() -> None:
    plain, variant = Dragon(), OnlyDoublesOnDoubles()
    state = plain.new_deal(plain.options(), 4, "fast")
    assert isinstance(plain.table(state), ConnectTable)
    assert isinstance(variant.table(state), StateTable)
    for n in range(10):
        state = variant.new_deal(variant.options(arms=2), 4, f"fast/{n}")
        table = variant.table(state)
        pick = random.Random(n)
        while table.to_move() is not None:
            assert table.legal() == variant.legal_actions(table.state())
            action = pick.choice(table.legal())
            state, _ = variant.apply(state, action)
            table.play(action)
            assert table.state() == state
