"""The collecting games' own words in English (Kap Ten, Kap Tai Shap, Three Dozen): their titles
(`game.<id>`), the discards in the terminal, why a typed move is refused and what the moves mean,
their hints, buttons, table lines and picture labels (added to the catalogue when the home is
imported)."""

from __future__ import annotations

from words.catalogue import Entry

COLLECT: dict[str, Entry] = {
    # the games' titles
    "game.kapten": "Kap Ten",
    "game.kaptaishap": "Kap Tai Shap",
    "game.threedozen": "Three Dozen",
    # the terminal
    "console.discards": "Discards: {tiles}",
    "console.discards_take": "Discards (⤴ may be taken): {tiles}",
    "console.discards_empty": "No discards on the table.",
    "console.pairs": "pairs {pairs}",
    "refuse.no_such_discard": "There is no [{face}] among the discards.",
    "refuse.take_first": "A discard may be taken only at the start of your turn, instead of "
                         "or before the draw.",
    "refuse.only_last": "Only the last discard may be taken: [{last}], not [{face}].",
    "refuse.classical": "(classical rules)",
    "refuse.one_discard": "One tile per discard: type one letter.",
    "refuse.kap_first": "First take a discard (⤴) or draw from the stock; then discard.",
    "refuse.kap_taken": "[{tile}] was just taken: it (or its twin) may not go straight back. "
                        "Discard another tile.",
    "refuse.td_no_partner": "[{face}] pairs with none of your tiles: a discard is taken only to "
                            "lay it out at once as a pair.",
    "refuse.td_first": "First take the last discard (⤴) or draw from the stock.",
    "refuse.td_two": "A pair is two tiles: type both letters (ab).",
    "refuse.td_not_pair": "[{first}] and [{second}] are no pair: a pair is two neighbouring "
                          "doubles, or two tiles with 12 pips together.",
    "teach.kap_take_culin": "⤴ 6:6      take that discard (type 6:6): any face-up one; then "
                            "discard another tile and still draw",
    "teach.kap_take_classical": "⤴ 6:6      take the last discard (type 6:6) instead of drawing",
    "teach.discard": "A 6:6 ↓    discard that tile face up (type a)",
    "teach.draw_stock": "{button}   take the top tile of the stock, then discard",
    "teach.kap_marks": "⤴ among the discards marks the tiles you may take now.",
    "teach.kap_goal": "Win with {tiles} tiles: an eye (two identical tiles) and {tens} pairs "
                      "that make 10 or 20; [4:2] counts {four_two}.",
    "teach.td_take": "⤴ 2:1 + A 6:3   take the last discard and lay it out at once with A "
                     "(type 2:1)",
    "teach.td_meld": "A+B 3:3 4:4  lay out a pair (type ab): two neighbouring doubles, or 12 "
                     "pips together",
    "teach.td_marks": "⤴ among the discards marks the one you may take now.",
    "teach.td_goal": "The first to hold three pairs wins.",
    # the table, its pictures and its moves
    "btn.draw_stock": "Draw from the stock",
    "table.culin": "Culin's rules",
    "table.classical": "classical rules",
    "table.sets": ("{n} set", "{n} sets"),
    "table.turn": "turn {n}",
    "table.stock": ("{n} tile in the stock", "{n} tiles in the stock"),
    "table.pot": ("pot {n} chip", "pot {n} chips"),
    "table.reshuffles": ("reshuffled {n} time", "reshuffled {n} times"),
    "table.pairs": "Pairs laid out: {pairs}",
    "table.winning": "Winning hand of {name}: eye {eye} · tens {tens}",
    "hint.discard": "Discard one tile (↓) to end your turn.",
    "hint.kap_culin": "Take any face-up discard (⤴): you then discard another tile and still "
                      "draw. Or just draw from the stock.",
    "hint.kap_classical": "Take the last discard (⤴) or draw from the stock; then discard "
                          "a tile.",
    "hint.kap_swap": "Discard a tile unlike the one you took; then you draw from the "
                     "stock.",
    "hint.kap_first": "First turn: discard a tile; then you draw from the stock and discard "
                      "again.",
    "hint.kap_taken": "Discard a tile unlike the one you took.",
    "hint.kap_draw": "Nothing is face up yet: draw from the stock, then discard a tile.",
    "hint.td_open": "Take the last discard (⤴) only to lay it out at once with its partner, "
                    "or draw from the stock.",
    "hint.td_forced": "The last discard pairs with your tiles: take it and lay out the "
                      "pair.",
    "hint.td_draw": "The last discard pairs with none of your tiles: draw from the stock.",
    "hint.td_meld": "Lay out a pair (compulsory): two neighbouring doubles, or two tiles "
                    "with 12 pips together.",
    "tile.counts": "{tile} (counts {value})",
    "img.head_short": "1st",
    "img.turn": "turn {v}",
    "img.pot": "pot: {v}",
    "img.deck": "stock: {v}",
    "img.reshuffles": "reshuffled: {v}",
    "img.may_take": "{name} may take",
    "img.may_take_if_pairs": "{name} may take it if it pairs",
    "img.no_discards": "no discards yet",
    "img.eye": "eye",
    "img.wins": "{name} wins",
    "img.from_deal": "dealt complete",
    "img.from_discard": "with a discard",
    "img.from_stock": "from the stock",
    "img.void_deal": "void deal: the stock ran out, antes go back",
    "img.won_paid_column": "won / paid",
    "img.pairs_column": "pairs",
}
