"""Kap's deals drawn from one seat's view (`games.hidden.kap`, docs/rules-book.md §2.6–§2.7):
its chain, made cheaper (`_KapChain`), draws the very deals of the plain `Chain` weighed by
`kap_likelihood` — the same steps, the same generator draws, the same hands and stocks — in
Kap Ten and in Kap Tai Shap, with face-up tiles taken and without."""

from __future__ import annotations

import random

import pytest

from games import get
from games.engine import hand_out, shuffle
from games.hidden.chain import Chain, places
from games.hidden.kap import (
    KAP_BURN,
    KAP_THIN,
    _held,
    _state,
    kap_likelihood,
    kap_sample,
)
from games.players import make_player


def plain_deals(rules, view, rater, rng):
    """Kap's deals from the plain `Chain`, every step building all hands and weighing them by
    `kap_likelihood` whole."""
    start = kap_sample(rules, view, rng)
    kind = view.tiles.kind_of
    held = _held(view)
    fixed = {t for tiles in held for t in tiles}
    tiles, owners = places(start, view.seat)
    kept = [i for i, t in enumerate(tiles) if t not in fixed]
    tiles, owners = [tiles[i] for i in kept], [owners[i] for i in kept]
    in_hands = len(tiles) - len(start.stock)

    def build(chosen):
        return _state(rules, view, start.seed,
                      hand_out(view.hand_counts, view.seat, view.hand, chosen,
                               key=lambda t: (kind[t], t), held=held)[0], ())

    chain = Chain(tiles, owners, lambda i, t: True, build,
                  lambda state: kap_likelihood(rules, view, state, rater), rng, KAP_BURN,
                  KAP_THIN)

    def deal():
        hands = chain().hands
        stock = tiles[in_hands:]
        shuffle(rng, stock)
        return _state(rules, view, start.seed, hands, tuple(stock))

    return deal


def views(game, players, count):
    """`count` views of seats with a choice, from games between normal players."""
    rules = get(game)
    normal = make_player(game, "normal")
    found = []
    deal = 0
    while len(found) < count:
        state = rules.new_deal(rules.options(), players, f"chain/{deal}")
        rng = random.Random(deal)
        while (seat := rules.to_move(state)) is not None and len(found) < count:
            view = rules.view(state, seat)
            if len(view.legal) > 1 and rng.random() < 0.3:
                found.append(view)
            state, _ = rules.apply(state, normal.choose(view, rng))
        deal += 1
    return found


@pytest.mark.parametrize(("game", "players"), [("kapten", 2), ("kaptaishap", 4)])
def test_the_cheaper_chain_draws_the_plain_chains_deals(game, players):
    rules = get(game)
    rater = rules.rater()
    taken = 0
    for n, view in enumerate(views(game, players, 12)):
        taken += any(view.took[s] for s in range(players) if s != view.seat)
        fast = rules.deals(view, rater, random.Random(n))
        plain = plain_deals(rules, view, rater, random.Random(n))
        for _ in range(6):
            assert fast() == plain()
    assert taken, "no view with a face-up tile taken by another seat"
