"""Settlements as payments between seats (`games/outcome.py`, `games/settlement.py`).

An outcome's payments are what the session layer keeps between people, so every way of making
one must end in the same netted, sorted form, and anything that does not balance is refused.
"""

import pytest

from games import codec
from games.engine import Outcome, Payment
from games.settlement import collect, deltas_of, pairwise

B = 1


def test_a_payment_is_positive_between_two_seats():
    assert Payment(0, 1, 3).amount == 3
    for bad in ((0, 1, 0), (0, 1, -2), (2, 2, 1)):
        with pytest.raises(ValueError):
            Payment(*bad)


def test_one_gainer_derives_the_payments_from_the_deltas():
    result = Outcome("three-pairs", (0, 3, 0), (B,), (-1, 2, -1), ("normal", "stock", "normal"))
    assert result.payments == (Payment(0, 1, 1), Payment(2, 1, 1))
    assert Outcome("x", (0, 0, 0), (), (0, 0, 0)).payments == ()


def test_derived_and_named_payments_compare_equal():
    derived = Outcome("three-pairs", (0, 3, 0), (B,), (-1, 2, -1))
    named = Outcome.paid("three-pairs", (0, 3, 0), (B,), [Payment(2, 1, 1), Payment(0, 1, 1)])
    assert derived == named and derived.deltas == named.deltas
    # Written twice, in both directions, or in any order: the same settlement.
    split = Outcome.paid("three-pairs", (0, 3, 0), (B,),
                         [Payment(0, 1, 3), Payment(1, 0, 2), Payment(2, 1, 1)])
    assert split == derived


def test_several_gainers_need_the_payments_named():
    with pytest.raises(ValueError, match="payments must be named"):
        Outcome("out", (2, 12, 34, 18), (0,), (58, 18, -70, -6))
    named = Outcome("out", (2, 12, 34, 18), (0,), (58, 18, -70, -6), (),
                    pairwise([2, 12, 34, 18]))
    assert named == Outcome.paid("out", (2, 12, 34, 18), (0,), pairwise([2, 12, 34, 18]))


def test_named_payments_must_net_to_the_deltas():
    with pytest.raises(ValueError, match="do not net"):
        Outcome("x", (0, 0, 0), (0,), (2, -1, -1), (), (Payment(1, 0, 1),))
    with pytest.raises(ValueError):
        Outcome("x", (0, 0), (0,), (1, -1), (), (Payment(1, 5, 1),))  # no seat 5
    with pytest.raises(ValueError):
        Outcome("out", (0, 0), (0,), (1, 0))  # chips that do not balance


def test_netting_keeps_one_payment_per_pair_sorted():
    result = Outcome.paid("x", (0,) * 4, (3,), [
        Payment(3, 0, 2), Payment(2, 3, 5), Payment(0, 3, 7), Payment(1, 3, 4),
        Payment(2, 1, 1), Payment(1, 2, 1)])
    assert result.payments == (Payment(0, 3, 5), Payment(1, 3, 4), Payment(2, 3, 5))
    assert result.deltas == (-5, -4, -5, 14)
    pairs = [frozenset((p.payer, p.payee)) for p in result.payments]
    assert len(pairs) == len(set(pairs))


def test_collect_pays_the_winner_and_the_winner_pays_a_negative_amount():
    # Tien Gow (docs/rules-book.md §2.8): a loser with more than four tricks is paid by the winner.
    paid = collect(4, 1, {0: -3, 2: 9, 3: 9})
    assert paid == (Payment(1, 0, 3), Payment(2, 1, 9), Payment(3, 1, 9))
    assert deltas_of(4, paid) == (3, 15, -9, -9)
    assert collect(3, 0, {1: 0, 2: 4}) == (Payment(2, 0, 4),)
    with pytest.raises(ValueError):
        collect(3, 0, {0: 1})


def test_pairwise_settles_every_pair_with_its_multiplier():
    assert pairwise([5, 5, 5]) == ()
    doubled = pairwise([0, 4, 10], lambda i, j: 2 if 0 in (i, j) else 1)
    assert doubled == (Payment(1, 0, 8), Payment(2, 0, 20), Payment(2, 1, 6))
    assert deltas_of(3, doubled) == (28, -2, -26)


def test_an_outcome_round_trips_through_json():
    result = Outcome.paid("last-trick", (0, 5, 0, 3), (1,), collect(4, 1, {0: -3, 2: 9, 3: 9}),
                          ("banker", "normal", "normal", "normal"))
    assert codec.loads(Outcome, codec.dumps(result)) == result
