"""Deals a seat cannot tell from the real one: its own view with every unseen tile dealt anew.

Rules sources: docs/rules-book.md §2.1 (connecting games: a face-down discard is made only by a
player who cannot attach, D-02, so it tells which numbers that hand lacked), §2.4–§2.5 (decks of Ce
Deng and Tails), §2.6–§2.7 (Kap: the stock and the other hands), §2.9 (Three Dozen: pairs must be
laid out, so no hand waiting for its turn holds one).

The strong player (`games.search`) judges a move by playing it out in such deals, which each
game makes (`Rules.redeal`, `Rules.deals`): uniformly by default (Tien Gow, Доміно), and with
the modules here where the public record tells more. A deal is built from one seat's view and
nothing else, so the player cannot peek: every tile the view
does not show is in a pool, and the pool is dealt to the places the view says hold unseen tiles
(other hands by their counts, the stock, face-down discards and follows), keeping what the view
implies — a connecting-game player who discarded face down held none of the open numbers then,
a Three Dozen hand holds no pair. When those constraints cannot all be met (a rare tangle) the
pool is dealt without them rather than not at all.
"""
