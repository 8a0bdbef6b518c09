"""Every game's settlement as payments between seats, over random play (docs/architecture.md §1 inv.
7).

Random matches of every game, preset and player count, and of the options that decide when and how
much chips move (the shortest match, the lowest target, a larger ante or stake): every outcome's
payments are positive, netted once per pair, and sum to its deltas; outside the pairwise settlement
(docs/rules-book.md §2.1 point 8, every pair settles) each payment has a winner on one side; and
`worst_loss`, where a game can say it, bounds every seat's loss and is reached.
"""

import dataclasses

import pytest

from games import GAMES
from games.engine import InvalidOptions, rng
from games.settlement import deltas_of
from tests.games.test_playouts import player_counts

DEALS = 120
"""Deals played per variant and player count (matches follow one another): enough to reach
every line and branch of the settlements that 200 did, the rarest a Ding Niu SuanZhang that
missed the strict rule, and every game's worst loss."""


def variants(rules):
    """(preset, overrides) pairs: every preset alone, with its shortest match, and with each
    other ranged whole-number option (an ante, a stake, a multiplier) at a larger value."""
    fields = {f.name: f for f in dataclasses.fields(rules.options_type)}
    short = {}
    if "deals" in fields:
        short["deals"] = 2
    if "target" in fields:
        meta = fields["target"].metadata
        short["target"] = min(meta["choices"]) if meta["choices"] else meta["lo"]
    ranged = {name: min(f.default + 2, f.metadata["hi"]) for name, f in fields.items()
              if name not in short and type(f.default) is int and f.metadata["hi"] is not None}
    found = []
    for preset in rules.presets:
        found.append((preset, {}))
        if short:
            found.append((preset, short))
        found += [(preset, {name: value}) for name, value in ranged.items()]
    return found


CASES = [(rules.id, preset, overrides) for rules in GAMES.values()
         for preset, overrides in variants(rules)]


def outcomes(rules, options, players, seed):
    """The outcomes of `DEALS` random deals, played as matches one after another."""
    chooser = rng(seed, "choices")
    match = rules.start_match(options, players, seed)
    for deal in range(DEALS):
        state = rules.new_deal(options, players, f"{seed}/{deal}", match)
        table = rules.table(state)
        while table.to_move() is not None:
            legal = table.legal()
            table.play(legal[chooser.randrange(len(legal))])
        result = table.outcome()
        yield result
        match = rules.next_match(table.state(), result)
        if match.over:
            match = rules.start_match(options, players, f"{seed}/{deal}/next")


def check_payments(result, players, pairwise, tally, teams=None):
    payments = result.payments
    assert all(p.amount > 0 and p.payer != p.payee for p in payments)
    assert all(0 <= p.payer < players and 0 <= p.payee < players for p in payments)
    assert deltas_of(players, payments) == result.deltas
    assert list(payments) == sorted(payments, key=lambda p: (p.payer, p.payee))
    pairs = [frozenset((p.payer, p.payee)) for p in payments]
    assert len(pairs) == len(set(pairs)), "one payment per pair of seats"
    if payments and teams is not None:
        # Partnerships (`Rules.teams`): a seat of the losing team pays one of the winning team.
        assert all(teams[p.payer] != teams[p.payee] and p.payee in result.winners
                   for p in payments), f"{result}: a payment within a team, or to a loser"
    elif payments and not pairwise:
        # One seat collects (or, in Tien Gow, pays a loser it owes): the deal's winner, or at
        # the end of a tally match the lowest total (§2.1 point 9).
        hubs = set.intersection(*({p.payer, p.payee} for p in payments))
        assert hubs, f"{result}: a payment between two losers"
        if not tally:
            assert hubs & set(result.winners), f"{result}: losers pay only the winner"


@pytest.mark.parametrize(("game", "preset", "overrides"), CASES)
def test_payments_and_worst_loss(game, preset, overrides):
    rules = GAMES[game]
    options = rules.options(preset, **overrides)
    # The classic settlement of the connecting games settles every pair (§2.1 point 8).
    pairwise = getattr(options, "settlement", None) == "classic"
    tally = getattr(options, "settlement", None) == "tally"
    bounds = set()
    deepest = 0
    for players in player_counts(rules):
        try:
            rules.new_deal(options, players, "size")
        except InvalidOptions:
            continue  # too few sets for so many players, say
        worst = rules.worst_loss(options, players)
        bounds.add(worst)
        for result in outcomes(rules, options, players, f"{game}/{preset}/{overrides}"):
            check_payments(result, players, pairwise, tally, rules.teams(players))
            if worst is not None:
                assert max(-d for d in result.deltas) <= worst, (players, result)
                deepest = max(deepest, *(-d for d in result.deltas))
    if bounds != {None}:
        assert None not in bounds, "a game that can say it says it for every player count"
        assert deepest == max(bounds), "the bound is exact: some seat loses that much"


def choice_variants(rules):
    """Every preset alone and with each one option set to each of its choices."""
    for preset in rules.presets:
        yield rules.options(preset)
        for name, _, _, choices in rules.describe_options():
            for value in choices:
                yield rules.options(preset, **{name: value})


def test_worst_loss_is_said_only_where_it_is_exact():
    said = 0
    for rules in GAMES.values():
        for options in choice_variants(rules):
            worst = rules.worst_loss(options, rules.default_players)
            said += worst is not None
            # Differences of points (§2.1 point 8, §2.5 "points"), an eight-doubles hand paid
            # double (§2.4), the pips left in hand (§2.10): only a whole deal bounds them.
            if (getattr(options, "settlement", None) in ("classic", "points")
                    or getattr(options, "eight_doubles", None) == "win"
                    or getattr(options, "chips", None) == "pips"):
                assert worst is None, options
            for name in ("ante", "stake"):
                if worst is not None and hasattr(options, name):
                    assert worst == getattr(options, name)
                    more = dataclasses.replace(options, **{name: 7})
                    assert rules.worst_loss(more, rules.default_players) == 7
    assert said
