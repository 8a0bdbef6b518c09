"""The line games' own words in English (Dragon, Ce Deng, Tails, Ding Niu, Доміно): their titles
(`game.<id>`), the line and its open ends in the terminal, why a typed move is refused and what the
moves mean, their hints, buttons and picture labels (added to the catalogue when the home is
imported)."""

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
    # Ding Niu (RULES.md §2.11): its block, SuanZhang
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
}
