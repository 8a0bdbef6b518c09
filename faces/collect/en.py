"""The collecting games' own words in English (Kap Ten, Kap Tai Shap, Three Dozen): their titles
(`game.<id>`), the discards in the terminal, why a typed move is refused and what the moves mean,
their hints, buttons, table lines and picture labels, and their rules in short for `/rules GAME`
(`rules.<id>`); added to the catalogue when the home is imported."""

from __future__ import annotations

from words.catalogue import Entry

_KAP_PRESETS_OPTIONS = (
    "Presets:\n"
    "• culin: the default, Culin's rules.\n"
    "• classical: the classical rules (rules=classical).\n"
    "\n"
    "Options (name=value):\n"
    "• rules=culin or classical: how a turn goes.\n"
    "• ante=1: chips each player puts into the pot.\n"
    "• four_two=3 or 6: what [4:2] counts in a ten: 3 (as Culin has it) or its own 6 pips.\n"
    "• deal=seed or even: seed gives the first player one tile more and he opens with a "
    "discard; even deals everyone alike and the first turn is a draw and a discard, as the "
    "rules author's simulator deals.\n"
)
"""Kap Ten's and Kap Tai Shap's presets and the options they share, in their /rules texts."""


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
    "img.must_take_if_pairs": "{name} must take it if it pairs",
    "img.no_discards": "no discards yet",
    "img.eye": "eye",
    "img.wins": "{name} wins",
    "img.from_deal": "dealt complete",
    "img.from_discard": "with a discard",
    "img.from_stock": "from the stock",
    "img.void_deal": "void deal: the stock ran out, antes go back",
    "img.won_paid_column": "won / paid",
    "img.pairs_column": "pairs",
    # /rules GAME: the rules in short, as `games/` plays them (docs/rules-book.md §2.6–§2.7 Kap Ten
    # and Kap Tai Shap, §2.9 Three Dozen; decisions D-02…D-18): plain text within
    # `faces.MAX_RULES_CHARS`, with "• " bullets, no markup characters, every preset and option as
    # `/newgame` spells it
    "rules.kapten": (
        "Kap Ten (夾十, Kap Shap): exactly 2 players, the 32-tile Chinese set.\n"
        "\n"
        "• Deal: 8 tiles to the first player (drawn by lot in the first deal), 7 to the other; "
        "the other 17 lie face down as the stock.\n"
        "• A tile is worth its pips, but [4:2] counts 3 (four_two). A winning hand of 8 tiles is "
        "an eye (two identical tiles) and three tens: pairs worth 10 or 20 together. It wins the "
        "moment it is held: straight from the deal, after taking a discard or after a draw. "
        "Nobody has to lay it out: the game does.\n"
        "• Culin's rules (the default): on your turn you may take any face-up discard, your own "
        "too, and then discard another tile (not an identical one). Then you must draw from the "
        "stock and discard one tile. So a turn can bring two tiles. The first player's first "
        "turn is discard, draw, discard.\n"
        "• Classical rules: each turn you either take the last discard or draw from the stock, "
        "then discard one tile (neither the one just taken nor an identical one). The first "
        "player's first turn is a single discard.\n"
        "• If the stock is empty when a turn begins, the deal is void and the antes go back.\n"
        "• Everyone puts ante chips into the pot; the winner takes it. The winner leads the next "
        "deal; after a void deal the same player leads again.\n"
        "\n"
    ) + _KAP_PRESETS_OPTIONS + (
        "• deals=0: deals in a match (0: until the table stops).\n"
        "Example: /newgame kapten classical deals=3"
    ),
    "rules.kaptaishap": (
        "Kap Tai Shap (夾大十): 2 to 20 players, several 32-tile Chinese sets shuffled together.\n"
        "\n"
        "• As Kap Ten, except as follows. There are about two sets per five players (10 players "
        "› 4 sets, 20 › 8; sets). The first player gets 10 tiles, everyone else 9; the rest is "
        "the stock.\n"
        "• A winning hand of 10 tiles is an eye (two identical tiles, now military ones too) and "
        "four tens: pairs worth 10 or 20 together; [4:2] counts 3 (four_two). It wins the moment "
        "it is held: from the deal, after taking a discard or after a draw.\n"
        "• Culin's rules (the default): on your turn you may take any face-up discard, your own "
        "too, and discard another tile (not an identical one); then you must draw from the stock "
        "and discard one. The first player's first turn is discard, draw, discard. With many "
        "players a deal often ends within the first round.\n"
        "• Classical rules (advised for a big table): each turn you either take the last discard "
        "or draw from the stock, then discard one tile (neither the one just taken nor an "
        "identical one). The first turn is a single discard.\n"
        "• If the stock is empty when a turn begins, the deal is void and the antes go back.\n"
        "• Everyone puts ante chips into the pot; the winner takes it and leads the next deal.\n"
        "\n"
    ) + _KAP_PRESETS_OPTIONS + (
        "• sets=0: how many sets (0: two per five players, rounded up; there must be enough for "
        "a stock).\n"
        "• deals=0: deals in a match (0: until the table stops).\n"
        "Example: /newgame kaptaishap classical sets=4"
    ),
    "rules.threedozen": (
        "Three Dozen: 2 to 5 players, the 28-tile Western double-six set.\n"
        "\n"
        "• Deal: 5 tiles each, 6 to the first player; the rest lies face down as the stock. The "
        "first deal is led by lot, later deals by the last winner.\n"
        "• A pair is two neighbouring doubles ([0:0][1:1] … [5:5][6:6]) or two tiles with 12 "
        "pips together: [3:3] pairs with [4:4], [2:2], [6:0], [5:1] and [4:2].\n"
        "• The first player's first turn: lay out all his pairs face up and discard one tile.\n"
        "• Each later turn: either take the last tile the previous player discarded, only if it "
        "makes a pair with a tile of yours, and lay that pair out at once, or draw from the "
        "stock. Then lay out pairs (compulsory; which pair is your choice) and discard one tile. "
        "Pairs laid out stay on the table.\n"
        "• The first player whose 6 tiles (laid out and in hand) make three pairs wins at that "
        "moment.\n"
        "• When a draw is due and the stock is empty, all the discards are shuffled into a new "
        "stock.\n"
        "• Everyone stakes stake chips. A win with a tile from the stock (or from the deal) "
        "takes every stake; a win with the previous player's discard takes only that player's "
        "stake, and the other stakes go back.\n"
        "\n"
        "Presets:\n"
        "• standard: the default, taking the discard is optional.\n"
        "• forced-pickup: a discard that makes you a pair must be taken (pickup=forced).\n"
        "\n"
        "Options (name=value):\n"
        "• pickup=optional or forced: whether a discard that pairs must be taken.\n"
        "• stake=1: chips each player stakes.\n"
        "• deals=0: deals in a match (0: until the table stops).\n"
        "Example: /newgame threedozen forced-pickup deals=5"
    ),
}
