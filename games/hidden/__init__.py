"""Deals a seat cannot tell from the real one: its own view with every unseen tile dealt anew.

Rules sources: RULES.md §2.1 (connecting games: a face-down discard is made only by a player who
cannot attach, D-02, so it tells which numbers that hand lacked), §2.4–§2.5 (decks of Ce Deng and
Tails), §2.6–§2.7 (Kap: the stock and the other hands), §2.8 (Tien Gow: face-down follows),
§2.9 (Three Dozen: pairs must be laid out, so no hand waiting for its turn holds one), §2.10
(Доміно: the other hands and the stock).

The strong player (`games.search`) judges a move by playing it out in such deals. A deal is
built from one seat's view and nothing else, so the player cannot peek: every tile the view
does not show is in a pool, and the pool is dealt to the places the view says hold unseen tiles
(other hands by their counts, the stock, face-down discards and follows), keeping what the view
implies — a connecting-game player who discarded face down held none of the open numbers then,
a Three Dozen hand holds no pair. When those constraints cannot all be met (a rare tangle) the
pool is dealt without them rather than not at all.
"""

from __future__ import annotations

from games.hidden.chain import Chain, Dealer, Sampler
from games.hidden.connecting import (
    connect_chain,
    connect_clues,
    connect_likelihood,
    connect_orders,
    connect_sample,
)
from games.hidden.kap import kap_chain, kap_likelihood, kap_sample
from games.hidden.threedozen import threedozen_chain, threedozen_likelihood, threedozen_sample
from games.hidden.uniform import domino_sample, tiengow_sample

__all__ = [
    "DEALERS",
    "SAMPLERS",
    "Chain",
    "Dealer",
    "Sampler",
    "connect_clues",
    "connect_likelihood",
    "connect_orders",
    "kap_likelihood",
    "threedozen_likelihood",
]

DEALERS: dict[str, Dealer] = {
    "dragon": connect_chain,
    "cedeng": connect_chain,
    "tails": connect_chain,
    "kapten": kap_chain,
    "kaptaishap": kap_chain,
    "threedozen": threedozen_chain,
}

SAMPLERS: dict[str, Sampler] = {
    "dragon": connect_sample,
    "cedeng": connect_sample,
    "tails": connect_sample,
    "domino": domino_sample,
    "kapten": kap_sample,
    "kaptaishap": kap_sample,
    "threedozen": threedozen_sample,
    "tiengow": tiengow_sample,
}
