"""The fast path plays exactly the games of the public engine (docs/architecture.md §1,
`engine.Table`).

Hundreds of seeded deals per game of `games.GAMES`, shared among its presets and its least
and most players (at least 60 each), with random and heuristic players, are played twice in
step: once through the public engine (`view`, `step`, immutable states) and once on a table
(`Rules.table`: the game's own fast path, or its public step without the checks). At every
move the seat's view on the table must equal the public view: the same legal moves in the
same order, and, since a player chooses from its view and its generator alone, the same choice;
at the end of every deal the states, the outcomes and the next matches must be equal. Where a
game has a heuristic, what the table gives it to read in the view's stead (`rater_view`) must
rate every move alike, and where the table makes the heuristic's choice itself (`scored_move`,
what the simulator asks), it must be the player's choice. A short run of whole matches through
`simulate` is then held against a loop over the public engine, statistic for statistic.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import GAMES, get
from games.engine import Match, Rules, rng
from games.players import make_player
from games.sim import simulate

RANDOM_DEALS = 400
HEURISTIC_DEALS = 160
"""Deals a game is played through both paths with random players and with the heuristic,
shared among its cases (at least `LEAST` of them each). Random deals reach every line and
branch of the games' code at 400 that they did at 800; the heuristic's deals are the ones that
reach the rarest branches of its analysis, and keep their number."""
LEAST = (60, 25)


def cases() -> list[Any]:
    """(game, preset, players, deals with random players, deals with the heuristic) for every
    game of `games.GAMES`: each preset (its default options when it has none) at its usual
    number of players, then its default options at its least and most players."""
    found = []
    for game, rules in GAMES.items():
        settings: list[tuple[str | None, int]] = [
            (preset, rules.default_players) for preset in rules.presets or [None]]
        settings += [(None, players) for players in
                     sorted({rules.min_players, rules.max_players} - {rules.default_players})]
        for preset, players in settings:
            found.append(pytest.param(
                game, preset, players, max(RANDOM_DEALS // len(settings), LEAST[0]),
                max(HEURISTIC_DEALS // len(settings), LEAST[1]), id=f"{game}-{preset}-{players}"))
    return found


CASES = cases()


def lockstep(rules: Rules[Any, Any], options: Any, players: int, strategy: str, deals: int,
             seed: str) -> int:
    """Play `deals` deals through both paths in step; the number of moves compared."""
    seats = [make_player(rules.id, strategy) for _ in range(players)]
    rngs = [rng(seed, f"player/{i}") for i in range(players)]
    match: Match = rules.start_match(options, players, seed)
    rater = rules.rater() if strategy == "heuristic" else None
    moves = 0
    twin = random.Random()
    for deal in range(deals):
        state = rules.new_deal(options, players, f"{seed}/{deal}", match)
        table = rules.table(state)
        while (seat := rules.to_move(state)) is not None:
            assert table.to_move() == seat
            view = rules.view(state, seat)
            fast = table.view(seat)
            # Equal views hold equal legal moves, in the same order; and a player chooses from
            # its view and its generator alone: equal views, equal moves.
            assert fast == view, f"{rules.id} deal {deal} move {moves}: views differ"
            if rater is not None:
                # What the playouts give the heuristic instead of the view rates alike.
                seen, rate = table.rater_view(seat), rater(view)
                assert seen.legal == view.legal
                rate_seen = rater(seen)
                assert [rate_seen(a) for a in view.legal] == [rate(a) for a in view.legal]
            # Where the table makes the heuristic's choice itself (what the simulator asks),
            # it is the player's choice from the same generator, drawing as much from it.
            scores_as = getattr(table, "scores_as", None)
            own = rater is not None and scores_as is not None and scores_as(rater)
            if own:
                twin.setstate(rngs[seat].getstate())
                chosen = table.scored_move(seat, twin)
            action = seats[seat].choose(view, rngs[seat])
            if own:
                assert chosen == action, f"{rules.id} deal {deal} move {moves}: choices differ"
                assert twin.getstate() == rngs[seat].getstate()
            state, _ = rules.step(state, action)  # taken from the legal moves: `apply` less
            table.play(action)                    # its check
            moves += 1
        assert table.to_move() is None
        assert table.state() == state, f"{rules.id} deal {deal}: states differ"
        assert table.outcome() == rules.outcome(state)
        for seat in (None, *range(players)) if deal % 10 == 0 else (None,):
            assert table.view(seat) == rules.view(state, seat)
        match = rules.next_match(table.state())
        assert match == rules.next_match(state)
        if match.over:
            match = rules.start_match(options, players, f"{seed}/{deal}")
    return moves


@pytest.mark.parametrize(("game", "preset", "players", "random_deals", "heuristic_deals"),
                         CASES)
def test_the_fast_path_plays_the_public_engines_games(game, preset, players, random_deals,
                                                      heuristic_deals):
    rules = get(game)
    options = rules.options(preset=preset)
    for strategy, deals in (("random", random_deals), ("heuristic", heuristic_deals)):
        moves = lockstep(rules, options, players, strategy, deals, f"fast/{game}/{strategy}")
        assert moves > deals  # every deal was played, not just dealt


def test_every_game_and_preset_has_a_case():
    covered = {(game, preset) for game, preset, *_ in (case.values for case in CASES)}
    for rules in GAMES.values():
        assert (rules.id, None) in covered or any(
            (rules.id, preset) in covered for preset in rules.presets), rules.id


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_table_from_the_middle_of_a_deal_and_its_copy(game):
    """A table can start from any public state (search starts from a sampled one), and a copy
    moves on without disturbing the table it came from."""
    rules = get(game)
    options = rules.options()
    players = rules.default_players
    chooser = random.Random(game)
    for deal in range(30):
        state = rules.new_deal(options, players, f"mid/{deal}")
        for _ in range(chooser.randrange(12)):
            if rules.to_move(state) is None:
                break
            legal = rules.legal_actions(state)
            state, _ = rules.apply(state, legal[chooser.randrange(len(legal))])
        table = rules.table(state)
        assert table.state() == state
        twin = table.copy()
        public = state
        while rules.to_move(public) is not None:
            legal = rules.legal_actions(public)
            assert twin.legal() == legal
            action = legal[chooser.randrange(len(legal))]
            public, _ = rules.apply(public, action)
            twin.play(action)
        assert twin.state() == public and twin.outcome() == rules.outcome(public)
        assert table.state() == state, "the copy moved the table it came from"


def _public_sim(rules: Rules[Any, Any], options: Any, players: int, games: int, seed: str,
                strategy: str) -> tuple[list[int], list[int], int, int]:
    """What `simulate` counts, from a plain loop over the public engine."""
    seats = [make_player(rules.id, strategy) for _ in range(players)]
    rngs = [rng(seed, f"player/{i}") for i in range(players)]
    finite = rules.finite_match(options)
    match = rules.start_match(options, players, seed)
    wins, chips, deals, turns = [0] * players, [0] * players, 0, 0
    for game in range(games):
        if finite:
            match = rules.start_match(options, players, f"{seed}/{game}")
        while True:
            state = rules.new_deal(options, players, f"{seed}/{game}/{match.deal}", match)
            while (seat := rules.to_move(state)) is not None:
                action = seats[seat].choose(rules.view(state, seat), rngs[seat])
                state, _ = rules.apply(state, action)
                turns += 1
            result = rules.outcome(state)
            deals += 1
            chips = [c + d for c, d in zip(chips, result.deltas, strict=True)]
            match = rules.next_match(state)
            if not finite or match.over:
                break
        winner = match.winner if finite else (result.winners[0] if result.winners else None)
        if winner is not None:
            wins[winner] += 1
    return wins, chips, deals, turns


@pytest.mark.parametrize(("game", "preset", "players"), [
    ("dragon", "tally", 3),
    ("kapten", "culin", 2),
    ("tiengow", "streak", 4),
    ("domino", None, 2),
])
def test_simulate_counts_what_the_public_engine_plays(game, preset, players):
    rules = get(game)
    options = rules.options(preset=preset)
    stats = simulate(rules, options, players, 25, "both", ["heuristic"])
    wins, chips, deals, turns = _public_sim(rules, options, players, 25, "both", "heuristic")
    assert (stats.wins, stats.chips, stats.deals, stats.turns) == (wins, chips, deals, turns)


@pytest.mark.parametrize("mixed", [True, False])
def test_tien_gow_leads_from_groups_of_kinds_are_every_lead(mixed):
    """The fast path finds a hand's leads from the groups of kinds that may be led; the public
    engine tries every combination of the hand. Same plays, same order, for hands as dealt."""
    from games.tiengow import _leads, lead_choices

    chooser = random.Random(f"leads/{mixed}")
    for _ in range(3000):
        hand = tuple(sorted(chooser.sample(range(32), chooser.randint(1, 8))))
        assert _leads(hand, mixed) == [tiles for tiles, _ in lead_choices(hand, mixed)], hand


@pytest.mark.parametrize("game", ["dragon", "kapten", "tiengow"])
def test_a_lazy_view_is_a_view_until_the_next_move(game):
    """The seat to move gets a view that fills its fields when first read: it is an instance of
    the game's view class, equal to the public view and hashing alike, and once the table has
    moved on it refuses to be filled rather than show the later position."""
    from games.engine import GameError

    rules = get(game)
    state = rules.new_deal(rules.options(), rules.default_players, "lazy")
    table = rules.table(state)
    seat = rules.to_move(state)
    public = rules.view(state, seat)
    read = table.view(seat)
    assert isinstance(read, type(public)) and read == public and public == read
    assert hash(read) == hash(public) and read.hand == public.hand
    unread = table.view(seat)
    assert unread.legal == public.legal  # set when made: no fill
    table.play(unread.legal[0])
    with pytest.raises(GameError):
        _ = unread.hand
    assert read.hand == public.hand  # a view read in time keeps what it showed


def test_a_tien_gow_view_blanks_the_finished_tricks_only_when_they_are_read():
    """The finished tricks come late: a player that reads its hand and the tiles it has seen
    never has them blanked, yet read in time they show what the public view shows, each seat's
    own face-down tiles named, and read after the next move they refuse as any field does."""
    from games.engine import GameError

    rules = get("tiengow")
    table = rules.table(rules.new_deal(rules.options(), 4, "late"))
    for _ in range(5):
        table.play(table.legal()[-1])  # a fold whenever one may: face down
    seat = table.to_move()
    assert seat is not None
    public = rules.view(table.state(), seat)
    assert any(not p.up for t in public.history for p in t.plays)
    read = table.view(seat)
    assert read.hand == public.hand and read.seen == public.seen
    assert "history" not in vars(read)
    assert read.history == public.history and read == public
    late = table.view(seat)
    assert late.hand == public.hand
    table.play(late.legal[0])
    with pytest.raises(GameError):
        _ = late.history
