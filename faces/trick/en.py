"""Tien Gow's own words in English: its title (`game.tiengow`), its hints, refusals and lessons,
its table and pictures, its pairs by name (added to the catalogue when the home is imported)."""

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
}
