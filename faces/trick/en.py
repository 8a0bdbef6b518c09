"""The trick games' own words in English: Tien Gow's title (`game.tiengow`), its hints, refusals
and lessons, its table and pictures, its pairs by name, and its rules in short for `/rules GAME`
(`rules.tiengow`); then Deer Hunt's (`game.deerhunt`, `rules.deerhunt`: its presets, table,
pictures and lessons); added to the catalogue when the home is imported."""

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
    # /rules GAME: the rules in short, as `games/` plays them (docs/rules-book.md §2.8; decisions
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
    # Deer Hunt (docs/rules-book.md §2.12): its title, presets, table, pictures, lessons, /rules
    "game.deerhunt": "Deer Hunt",
    "preset.deerhunt": "plain deal",
    "preset.fair": "fair deal",
    "reason.red-pips": "more red pips",
    "reason.level": "equal red pips",
    "dh.red": ("{n} red pip", "{n} red pips"),
    "dh.red_short": "{n} red",
    # the table, its pictures and its moves
    "hint.dh_lead": "Lead any tile: the highest tile takes the trick and its red pips.",
    "hint.dh_follow": ("Any tile may follow: {team} holds the trick with {tile}, {n} "
                       "red pip on it.",
                       "Any tile may follow: {team} holds the trick with {tile}, {n} "
                       "red pips on it."),
    "table.dh_score": "Red pips: {a} · {b}",
    "table.dh_team": "{team} ({names}) {red}",
    "table.dh_trick": "Trick {n} of 8 · dealer: {name}",
    "move.dh_trick": ("takes the trick: {n} red pip for {team}",
                      "takes the trick: {n} red pips for {team}"),
    "move.dh_escaped": ("The deer escaped: {n} red pip goes to nobody; {name} leads",
                        "The deer escaped: {n} red pips go to nobody; {name} leads"),
    "img.dh_leads": "{name} deals and leads",
    "img.dh_holds": ("{name} ({team}) holds it · {n} red pip",
                     "{name} ({team}) holds it · {n} red pips"),
    "img.dh_taken": ("taken by {name} ({team}): +{n} red pip",
                     "taken by {name} ({team}): +{n} red pips"),
    "img.dh_escaped": ("the deer escaped ({n} red pip): {name} leads",
                       "the deer escaped ({n} red pips): {name} leads"),
    "img.dh_took": "took: {v} red",
    "img.dh_dealer": "dealer",
    "img.dh_deal": "deal {deal}/{deals}",
    "img.dh_trick": "trick {n}/8",
    "img.dh_red_word": "red pips",
    "img.dh_tile_red": ("+{n} red", "+{n} red"),
    "img.dh_points": "red pips",
    "img.dh_partner": "{team}: you and {name}",
    # the terminal
    "console.dh_score": ("{team} ({names}): {n} red pip", "{team} ({names}): {n} red pips"),
    "refuse.dh_one": "One tile a trick: type one letter.",
    "teach.dh_play": "A 6:4 · 4 red   play this tile (type a); any tile may follow any lead",
    "teach.dh_rank": "The highest tile takes the trick: the higher end first, then the lower "
                     "([6:1] beats [5:5]); of two identical tiles the one played first.",
    "teach.dh_red": "Red pips are the 1s and the 4s, and 6 on [6:6]: 64 in the set. Your "
                    "team's red pips are its score; fewer pays the difference.",
    "teach.dh_partners": "Partners sit opposite: seats 1 and 3 are team A, 2 and 4 team B.",
    # /rules GAME: the rules in short, as `games/` plays them (docs/rules-book.md §2.12; D-27…D-34)
    "rules.deerhunt": (
        "Deer Hunt (鹿狩り, 中原逐鹿): a Japanese trick-taking game for 4 players in two "
        "partnerships with the Chinese set of 32 tiles, 8 each.\n"
        "\n"
        "• Partners sit opposite: seats 1 and 3 are team A, seats 2 and 4 team B.\n"
        "• Ranks are numerical: the higher end first, then the lower one: [6:6] › [6:5] › "
        "[6:4] › … › [6:1] › [5:5] › [5:4] › … › [2:1] › [1:1]. Civil and military play no "
        "part.\n"
        "• The dealer leads the first trick; the deal passes to the next player each deal. "
        "Every player in turn plays any one tile: there is no obligation. The highest tile "
        "takes the trick (of two identical tiles, the one played first), and its taker leads "
        "the next. Eight tricks a deal.\n"
        "• Red pips are the score: the 1s and the 4s are red, and [6:6] counts 6; the set "
        "holds 64. After the eighth trick the team with fewer red pips pays the difference: "
        "each of its players pays it to one opponent, so each player's net is the team's.\n"
        "• A session is 4 deals (everyone deals once) or 8; the team with more red pips over "
        "the session wins it, equal totals are a draw.\n"
        "• Not offered: the one-source Tien Gow style and Texas 42 style, which leave too "
        "many rules unsaid.\n"
        "\n"
        "Presets:\n"
        "• deerhunt: the default, a plain deal.\n"
        "• fair: the fair deal (deal=fair).\n"
        "\n"
        "Options (name=value):\n"
        "• deal=plain, fair or fair-extended: plain deals 8 each at random; fair gives each "
        "team one [6:6]; fair-extended one each of [6:6] [6:5] [6:4] [4:4].\n"
        "• deer_escaped=on or off: a trick whose four tiles all bear red pips ([6:6] counts) "
        "goes to nobody, and whoever played its highest tile leads next.\n"
        "• deals=4: deals in a session (8: everyone deals twice; 1 to 16).\n"
        "• tie=draw or last: a tied session is a draw, or won by the team that won the last "
        "deal.\n"
        "Example: /newgame deerhunt fair deer_escaped=on"
    ),
}
