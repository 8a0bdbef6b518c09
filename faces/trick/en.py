"""Tien Gow's own words in English: its title (`game.tiengow`), its hints, refusals and lessons,
its table and pictures, its pairs by name, and its rules in short for `/rules GAME`
(`rules.tiengow`); added to the catalogue when the home is imported."""

from __future__ import annotations

from words.catalogue import Entry

TRICK: dict[str, Entry] = {
    # the games' titles
    "game.tiengow": "Tien Gow",
    # the terminal
    "console.trick": "Trick: {plays}",
    "console.last_trick": "Last trick, taken by {name}: {plays}",
    "console.trick_empty": "No tile played yet.",
    "console.tricks": ("{n} trick", "{n} tricks"),
    "refuse.tg_size": ("The trick was led with {n} tile: play {n} (you typed {typed}).",
                       "The trick was led with {n} tiles: play {n} (you typed {typed})."),
    "refuse.tg_too_many": "A lead has at most {most} tiles.",
    "refuse.tg_no_combo_mixed": "{tiles} is no lead: lead one tile, a pair (two identical "
                                "civil tiles, a military pair, the Supreme pair [4:2][2:1]) or "
                                "tiles of one family (Heaven–Nine, Earth–Eight, Man–Seven, "
                                "Harmony–Five).",
    "refuse.tg_no_combo": "{tiles} is no lead: lead one tile or a pair (two identical civil "
                          "tiles, a military pair, the Supreme pair [4:2][2:1]); mixed "
                          "combinations are off.",
    "teach.tg_lead_mixed": "A B 6:2 5:3   lead one tile, a pair or tiles of one family (type "
                           "ab)",
    "teach.tg_lead_pure": "A B 6:6 6:6   lead one tile or a pair (type ab)",
    "teach.tg_beat": "▲ A 6:6       follow face up: it beats the best play so far",
    "teach.tg_fold": "↓ A B         follow face down with as many tiles: any tiles, they "
                     "cannot win",
    "teach.tg_groups": "↓ A … / 2 tiles   a group of moves: choose it, then the move",
    "teach.tg_marks": "On the table ↓2 is a play of 2 tiles face down.",
    "teach.tg_goal": "Whoever takes the last trick wins the deal.",
    # the table, its pictures and its moves
    "table.banker": "Banker: {name} ×{multiplier}",
    "table.tricks": "Tricks: {tricks}",
    "hint.tg_lead": "Lead one tile, a pair or a combination; the others must answer with as "
                    "many tiles.",
    "hint.tg_follow": ("Play {n} tile: face up (▲) if it beats the trick, or face down (↓).",
                       "Play {n} tiles: face up (▲) if they beat the trick, or face down (↓)."),
    "hint.tg_dead": "Early death: with no trick yet you cannot win the last trick, so your tile "
                    "goes face down.",
    "group.tiles": ("{n} tile", "{n} tiles"),
    "group.beat": "▲ Beat",
    "tg.pair.66": "Heaven pair",
    "tg.pair.11": "Earth pair",
    "tg.pair.44": "Man pair",
    "tg.pair.31": "Harmony pair",
    "tg.pair.55": "Plum Flower pair",
    "tg.pair.33": "Long Three pair",
    "tg.pair.22": "Bench pair",
    "tg.pair.65": "Axe pair",
    "tg.pair.64": "Red-head Ten pair",
    "tg.pair.61": "Long-leg Seven pair",
    "tg.pair.51": "Copper-hammer Six pair",
    "img.tricks": "tricks: {v}",
    "img.banker": "banker ×{m}",
    "img.led": "led",
    "img.trick_led": "{name} led {play}",
    "img.trick_best": "{name} holds with {play}",
    "img.trick_took": "{name} took it with {play}",
    "img.holds": "holds the trick",
    "img.taken": "taken by {name} (+{v})",
    "img.banker_leads": "banker {name} leads",
    "img.tricks_column": "tricks",
    # /rules GAME: the rules in short, as `games/` plays them (RULES.md §2.8; decisions
    # D-02…D-18): plain text within `faces.MAX_RULES_CHARS`, with "• " bullets, no markup
    # characters, every preset and option as `/newgame` spells it
    "rules.tiengow": (
        "Tien Gow (天九, Heaven and Nine): a trick-taking game for 4 players with the Chinese "
        "set of 32 tiles, 8 each.\n"
        "\n"
        "• Ranks. Civil: [6:6] Heaven › [1:1] Earth › [4:4] Man › [3:1] Harmony › [5:5] › [3:3] "
        "› [2:2] › [6:5] › [6:4] › [6:1] › [5:1]. Military by pips: Nines [6:3] and [5:4] › "
        "Eights [6:2] and [5:3] › Sevens [5:2] and [4:3] › [4:2] › Fives [4:1] and [3:2] › "
        "[2:1]. Equal tiles never beat each other: the first one played wins.\n"
        "• The banker leads the first trick (drawn by lot in the first deal, then the last "
        "deal's winner); whoever takes a trick leads the next. Play goes round in turn.\n"
        "• A lead is one tile, a pair (two identical civil tiles; the military Nines, Eights, "
        "Sevens, Fives; the Supreme pair [4:2][2:1]) or a mixed combination of one family: "
        "Heaven with Nines, Earth with Eights, Man with Sevens, Harmony with Fives, of 2, 3 or 4 "
        "tiles. Nothing else may be led.\n"
        "• The others play as many tiles: face up if they beat the highest play of the trick (a "
        "higher tile of the same suit, a higher combination of the same kind and the same mix of "
        "civil and military tiles), or face down, any tiles. Beating is never compulsory. The "
        "Supreme pair cannot be beaten and beats nothing: it wins only when led.\n"
        "• A trick of k tiles counts as k tricks for its winner. Whoever takes the last trick "
        "wins the deal and becomes the banker.\n"
        "• Settlement with the winner: a player with no trick pays 5; the others pay 4 minus "
        "their tricks (more than 4: the winner pays them). Payments to or from the banker are "
        "multiplied by banker; a losing banker who took more than 4 tricks is paid without it. "
        "Everything is multiplied by unit.\n"
        "\n"
        "Presets:\n"
        "• modern: the default, mixed combinations allowed.\n"
        "• pure: pairs only, the historical game (mixed=off).\n"
        "• streak: the banker's multiplier grows while he keeps winning (streak=on).\n"
        "• early-death: the early death rule (early_death=on).\n"
        "\n"
        "Options (name=value):\n"
        "• mixed=on or off: the mixed family combinations.\n"
        "• streak=on or off: a banker who wins again plays the next deal at one more (×2, ×3, ×4 "
        "…) until someone else wins.\n"
        "• early_death=on or off: when the last trick is led with one tile, a player with no "
        "trick must lay his tile face down.\n"
        "• banker=2: the multiplier on the banker's payments.\n"
        "• unit=1: chips per point of every payment.\n"
        "• deals=0: deals in a match (0: until the table stops).\n"
        "Example: /newgame tiengow streak early_death=on"
    ),
}
