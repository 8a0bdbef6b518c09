"""The line games' own words in English (Dragon, Ce Deng, Tails, Ding Niu, Доміно): their titles
(`game.<id>`), the line and its open ends in the terminal, why a typed move is refused and what the
moves mean, their hints, buttons and picture labels, and their rules in short for `/rules GAME`
(`rules.<id>`); added to the catalogue when the home is imported."""

from __future__ import annotations

from words.catalogue import Entry

LINE: dict[str, Entry] = {
    # the games' titles
    "game.dragon": "Dragon",
    "game.cedeng": "Ce Deng",
    "game.tails": "Tails",
    "game.dingniu": "Ding Niu",
    "game.domino": "Domino (Ukrainian draw game)",
    # the terminal
    "console.line": "Line: {tiles}",
    "console.line_empty": "The line is empty.",
    "console.ends": "open: {ends}",
    "console.closed_end": "closed: {end}",
    "console.stock": ("{n} tile in the stock", "{n} tiles in the stock"),
    "console.face_down": ("{n} face down", "{n} face down"),
    "console.my_face_down": "Face down: {tiles}",
    "console.pips_to": "pips {pips}/{target}",
    "console.points_to": "points {points}/{target}",
    "refuse.one_tile": "One tile per move: type one letter.",
    "refuse.fits_no_end": "[{tile}] fits neither open end ({ends}): touching ends must be equal.",
    "refuse.fits_not_end": "[{tile}] does not fit the open end ({ends}): touching ends must be "
                           "equal.",
    "refuse.not_end": "[{tile}] does not fit the {end} end: touching ends must be equal.",
    "refuse.no_such_end": "No open end is {end}: the open ends are {ends}.",
    "refuse.one_end": "The line has one open end ({end}): type the letter alone, with no end.",
    "refuse.closed": "The other end is closed for the whole deal.",
    "refuse.must_attach": "You hold a tile that fits, and it must be played: nothing goes face "
                          "down now.",
    "refuse.drop": "No tile of yours fits an open end, so one tile goes face down: type its "
                   "letter alone.",
    "refuse.domino_lead": "The highest double opens the line: [{tile}].",
    "refuse.pending": "The tile you just drew, [{tile}], fits and must be played now.",
    "refuse.then_draw": "No tile of yours fits: draw from the stock.",
    "refuse.then_pass": "No tile of yours fits and the stock is empty: pass.",
    "teach.lead_open": "A 6:4 →4   lead a tile; the number after → is the end that stays open "
                       "(type a, then the move's number if both are offered)",
    "teach.lead_both": "A 6:4      lead a tile; both of its ends stay open",
    "teach.attach_one": "A 6:4      attach a tile whose number matches the open end (type a)",
    "teach.attach_two": "A tile that fits must be played; touching ends are equal.",
    "teach.on_end": "A 6:4 on 4 attach at the open end 4, the number in a badge at each end of "
                    "the line on the picture (type a4)",
    "teach.drop": "A 6:4 ↓    no tile fits: lay one face down; its pips count against you",
    "teach.connect_goal": "The fewest pips laid face down win the deal.",
    "teach.domino_lead": "A 6:6      the highest double opens the line",
    "teach.domino_draw": "{button}   no tile fits: draw from the stock until one fits",
    "teach.domino_draw_one": "{button}   no tile fits: draw one tile from the stock",
    "teach.domino_pass": "{button}   no tile fits and the stock is empty",
    "teach.domino_goal": "The first out of tiles scores every hand's pips; the match goes to "
                         "{target}.",
    # the table, its pictures and its moves
    "btn.draw": "Draw",
    "btn.on_end": "{move} on {end}",
    "btn.pass": "Pass",
    "hint.lead_open_end": "Lead any tile; the number after → stays open, the other end is "
                          "closed.",
    "hint.drop": "No tile fits: lay one face down.",
    "img.face_down": "face down: {v}",
    "img.stock": "stock: {v}",
    "img.in_hands": "tiles in hands: {v}",
    "img.score": "score: {v}/{target}",
    "img.total": "total: {v}",
    "img.empty_line": "no tiles on the table yet",
    # Ding Niu (docs/rules-book.md §2.11): its block, SuanZhang
    "dn.full": "SuanZhang ({name}): the line is blocked; from now on only doubles are "
               "attached.",
    "dn.smothered": "SuanZhang ({name}): the line is smothered, and the deal ends.",
    "dn.forced": "Forced block ({name}): no other tile fitted, so it is no SuanZhang.",
    "hint.dn_doubles": "The line is blocked: only a double that fits may be played.",
    "refuse.dn_doubles": "[{tile}] fits, but after the block only doubles are attached.",
    "refuse.dn_lead": "Nobody else could ever attach to [{tile}]: lead another tile.",
    "teach.dn_block": "Block the line with a choice (SuanZhang): win the deal and every payment "
                      "doubles; lose it and you pay the winner 12.",
    "preset.beginner": "for beginners",
    "preset.zhwiki": "Chinese rules",
    "img.dn_block": "SuanZhang",
    "img.dn_forced": "forced block",
    "label.suanzhang": "SuanZhang",
    "label.suanzhang_failed": "SuanZhang failed",
    # /rules GAME: the rules in short, as `games/` plays them (docs/rules-book.md §2.1 the
    # connecting games' common core, §2.2–§2.3 Dragon, §2.4 Ce Deng, §2.5 Tails, §2.11 Ding Niu,
    # §2.10 "ДОМІНО"; decisions D-02…D-26): plain text within `faces.MAX_RULES_CHARS`, with "• "
    # bullets, no markup characters, every preset and option as `/newgame` spells it
    "rules.dragon": (
        "Dragon (接龍, Jie Long): 2 to 4 players, the 32-tile Chinese set.\n"
        "\n"
        "• Deal: 8 tiles each for 4 players, 10 each for 3 (the 2 left over stay face down, out "
        "of play), 16 each for 2. There is no stock.\n"
        "• The first deal is led by lot. The leader lays any tile. With one arm he says which "
        "end is open, and the other end stays closed for the whole deal; with two arms both ends "
        "are open.\n"
        "• Then players take turns. If you hold a tile with the number of an open end, you must "
        "attach it; its other end becomes the new open end (a double keeps the number). If you "
        "cannot, you lay one tile of your choice face down in front of you and pass; it never "
        "comes back into play.\n"
        "• The deal ends when every tile is placed or laid down. If no tile in any hand fits an "
        "open end, play stops and the tiles still in hand count as laid down.\n"
        "• Score: the pips on your face-down tiles. Lowest wins; a tie goes to the lower hand "
        "(the leader is hand 1, then in turn order).\n"
        "• settlement=classic: every two players pay each other the difference of their scores. "
        "settlement=chips: the winner takes 1 chip from each other player. settlement=tally: no "
        "chips after a deal; scores add up, and when someone's total reaches target (or after "
        "the number of deals set by deals) the lowest total takes 1 chip from each.\n"
        "\n"
        "Presets:\n"
        "• one-arm: the default, one open end, classic settlement.\n"
        "• two-arm: both ends open (arms=2).\n"
        "• dancing: two arms and clean_bonus=on.\n"
        "• chips: 1 chip from each loser.\n"
        "• tally: running totals up to target.\n"
        "\n"
        "Options (name=value):\n"
        "• arms=1 or 2: how many open ends.\n"
        "• clean_bonus=on: if anyone places all his tiles, everyone else's score doubles.\n"
        "• settlement=classic, chips or tally: how chips move.\n"
        "• lead=winner or rotate: the next deal is led by the winner or by the next hand in turn.\n"
        "• target=100: tally only, the total that ends the match.\n"
        "• deals=0: deals in a match (0 means no limit, until the players stop).\n"
        "Example: /newgame dragon two-arm deals=3"
    ),
    "rules.cedeng": (
        "Ce Deng (斜釘, slanted nail): exactly 4 players, the 32-tile Chinese set, 8 tiles each, "
        "no stock, one arm.\n"
        "\n"
        "• If anyone is dealt seven or more doubles (for eight see eight_doubles), the deal is "
        "void and dealt again with the same head.\n"
        "• Play as in one-arm Dragon. The head (the first player; by lot in the first deal) lays "
        "any tile and says which end is open. If you hold a tile that fits the open end you must "
        "attach it; otherwise you lay one tile of your choice face down and pass. Once nobody "
        "can attach anything, the tiles still in hand count as laid down.\n"
        "• Score: the pips on your face-down tiles; lowest wins, a tie goes to the lower hand.\n"
        "• After the deal each player is clean, penalized or normal. Clean: placed all 8 tiles. "
        "Penalized: with penalty=7-8 the head laid down 7 tiles (played only his lead) or a tail "
        "(any other player) laid down all 8; with penalty=6-7 the head laid down 6 or more, a "
        "tail 7 or more.\n"
        "• settlement=classic: every two players pay each other the difference of their scores, "
        "times 2 between clean and normal or between penalized and normal, times 4 between clean "
        "and penalized, times 1 for equal status. settlement=chips: the winner takes 1 chip from "
        "each, no multipliers. settlement=tally: scores add up to target, then the lowest total "
        "takes 1 chip from each.\n"
        "• eight_doubles=win: a player dealt eight doubles wins at once, and each other player "
        "pays him twice the pips in his own hand.\n"
        "\n"
        "Presets:\n"
        "• classic: the default, head-7/tail-8, classic settlement with multipliers.\n"
        "• strict: the stricter head-6/tail-7 rule (penalty=6-7).\n"
        "• eight-win: eight dealt doubles win at once, paid double (eight_doubles=win).\n"
        "• chips: 1 chip from each loser.\n"
        "\n"
        "Options (name=value):\n"
        "• penalty=7-8 or 6-7: how many face-down tiles penalize the head and a tail.\n"
        "• eight_doubles=redeal or win: eight dealt doubles mean a redeal or a win.\n"
        "• settlement=classic, chips or tally: how chips move.\n"
        "• lead=winner or rotate: the next deal is led by the winner or by the next hand in turn.\n"
        "• target=100: tally only, the total that ends the match.\n"
        "• deals=0: deals in a match (0 means no limit).\n"
        "Example: /newgame cedeng strict"
    ),
    "rules.tails": (
        "Tails (꼬리붙이기, Kkori-but-igi, a Korean game): 2 to 4 players, one arm, no stock.\n"
        "\n"
        "• Deck: 4 players use all 32 tiles, 8 each. For 3 or 2 players both copies of the "
        "doubles [3:3], [4:4], [5:5] and [6:6] are taken out (24 tiles left): 8 each for 3, 12 "
        "each for 2.\n"
        "• Play as in one-arm Dragon. The first player (by lot in the first deal) lays any tile "
        "and says which end is open. If you hold a tile that fits the open end you must attach "
        "it; otherwise you lay one tile of your choice face down and pass. The deal ends when "
        "every tile is placed or laid down; once nobody can attach anything, the tiles still in "
        "hand count as laid down.\n"
        "• Score: the pips on your face-down tiles; lowest wins, a tie goes to the lower hand.\n"
        "• Not everyone pays the winner: only the player with the highest score (on a tie, the "
        "latest hand among them) and everyone else with more than 30 (exactly 30 does not pay).\n"
        "• settlement=chips: each payer gives the winner 1 chip. settlement=points: each payer "
        "gives the difference between his score and the winner's. settlement=tally: no chips "
        "after a deal; scores add up, and when someone's total reaches target (or after the "
        "number of deals set by deals) the lowest total takes 1 chip from each.\n"
        "\n"
        "Presets:\n"
        "• chips: the default, 1 chip from each payer.\n"
        "• points: payers pay the difference of scores (settlement=points).\n"
        "\n"
        "Options (name=value):\n"
        "• settlement=chips, points or tally: how chips move.\n"
        "• lead=winner or rotate: the next deal is led by the winner or by the next hand in turn.\n"
        "• target=100: tally only, the total that ends the match.\n"
        "• deals=0: deals in a match (0 means no limit).\n"
        "Example: /newgame tails points"
    ),
    "rules.dingniu": (
        "Ding Niu (頂牛, Bull Fight): exactly 4 players, 24 tiles: the Chinese set without its "
        "military tiles except [6:3] and [6:2]; 12 doubles.\n"
        "\n"
        "• Deal: 6 tiles each, no stock. The first deal is led by lot, later ones by the winner "
        "(lead=rotate: the next hand).\n"
        "• The leader lays any tile; both ends are open. A player holding a tile that matches "
        "either end must attach one (he chooses tile and end); a double leaves the number as it "
        "was. A player who cannot lays one tile face down and passes.\n"
        "• A block (read from the line alone): no non-double off the line shows an open number "
        "(a full block: ends 1-1, 4-4, 5-5 or 2-3), or no 4 or 5 can ever be attached again (a "
        "smothered block). Its maker had a move that did not block: that is SuanZhang; without a "
        "choice it is a forced block and does not count.\n"
        "• After a full block only matching doubles are played; a smothered block ends the deal.\n"
        "• Points: the pips laid face down and left in hand. Fewest wins, a tie to the lower "
        "hand; places 2 to 4 by points, a tie to the higher hand.\n"
        "• settlement=chips: the winner +6, 2nd -1, 3rd -2, 4th -3. A SuanZhang whose maker "
        "wins: all doubled (+12, -2, -4, -6); otherwise the maker pays the winner 12, the rest "
        "nothing. settlement=tally: points only, to target, no chips.\n"
        "\n"
        "Presets:\n"
        "• standard: the default, as above.\n"
        "• beginner: suanzhang=off, settlement=tally.\n"
        "• zhwiki: lead_rule=on and strict=on.\n"
        "\n"
        "Options (name=value):\n"
        "• suanzhang=on: a block is SuanZhang (off: plain two-arm Dragon).\n"
        "• smothered=on: a smothered block is a block too.\n"
        "• doubles_after=on: doubles are still played after a full block (off: the deal ends).\n"
        "• forced_counts=on: a forced block is SuanZhang too.\n"
        "• strict=on: SuanZhang succeeds only with strictly the fewest points.\n"
        "• lead_rule=on: no lead nobody else could ever attach to.\n"
        "• settlement=chips or tally; lead=winner or rotate; target=100 for tally; deals=0: "
        "deals in a match (0: no limit).\n"
        "Example: /newgame dingniu zhwiki deals=4"
    ),
    "rules.domino": (
        "Domino (the Ukrainian draw game): 2 to 4 players, the double-six set of 28 tiles; a "
        "blank counts 0.\n"
        "\n"
        "• Deal: 7 tiles each for 2 players, 5 each for 3 or 4; the rest lies face down as the "
        "stock.\n"
        "• Whoever holds the highest double opens with it ([6:6] is asked for first, then [5:5] "
        "and so on). If nobody holds a double, the tiles are shuffled and dealt again. This "
        "happens every deal.\n"
        "• The line has two ends; a tile goes where its number matches the end it touches. A "
        "double sits in the line and never opens new branches.\n"
        "• If you can play, you must. If you cannot: with draw=until you draw from the stock "
        "until a tile fits, keep everything drawn and play that tile at once (if the stock runs "
        "out, the turn passes); with draw=one you draw one tile, play it if it fits, otherwise "
        "keep it and the turn passes. Empty stock: pass.\n"
        "• The deal ends when someone lays his last tile: he scores the pips left in all other "
        "hands. If the stock is empty and nobody can play, the player with the fewest pips in "
        "hand wins and scores the pips of all hands, his own included; if two or more tie for "
        "fewest, nobody scores.\n"
        "• The match is won by the first score to reach target.\n"
        "• chips=pips: after every deal each loser pays the winner as many chips as the pips "
        "left in his own hand. chips=stake: no chips after a deal; the match winner takes stake "
        "chips from each other player.\n"
        "\n"
        "Presets:\n"
        "• 100: the default, play to 100.\n"
        "• 50: the short game to 50 (target=50).\n"
        "• one-draw: draw a single tile only (draw=one).\n"
        "• stake: play for a stake (chips=stake).\n"
        "\n"
        "Options (name=value):\n"
        "• target=100 or 50: the score that wins the match.\n"
        "• draw=until or one: draw until a tile fits, or one tile only.\n"
        "• chips=pips or stake: pay the pips in hand every deal, or a stake at the end of the "
        "match.\n"
        "• stake=1: chips each player pays the match winner.\n"
        "Example: /newgame domino stake stake=5"
    ),
}
