"""The terminal's words in English (`gupai play`): the board and hand in text, the prompts,
why a typed move is refused (in the words of RULES.md) and what each game's moves mean."""

from __future__ import annotations

from words.catalogue.types import Entry

TERMINAL: dict[str, Entry] = {
    "console.discards": "Discards: {tiles}",
    "console.discards_take": "Discards (⤴ may be taken): {tiles}",
    "console.discards_empty": "No discards on the table.",
    "console.pairs": "pairs {pairs}",
    "console.tiles": ("{n} tile", "{n} tiles"),
    "console.score": "score {score}",
    "console.you": " (you)",
    "console.hand": "Tiles: {tiles}",
    "console.moves": "Moves:",
    "console.prompt": "Your move (number or letter; ? help, q quit): ",
    "console.help": "Type a move's number, or its tiles' letters as in the list (a or A; two "
                    "tiles: ab); a discard to take (⤴) by its face, either way round (6:1 or "
                    "1:6).\n"
                    "p (peek) shows your tiles; q (quit) leaves the table with the game saved, "
                    "and `gupai play` goes on with it (Ctrl-C too).\n"
                    "When a tile's letter is h, p or q, the letter plays the tile: type help, "
                    "peek or quit in full.",
    "console.bad_number": "There is no move {text}: type a number from 1 to {most}.",
    "console.bad_choice": "“{text}” is not one of the moves: type a number from 1 to {most}, "
                          "a tile's letter, or ? for help.",
    "console.ambiguous": "“{text}” fits more than one move ({numbers}): type the number.",
    "console.quitting": "Stopping the game.",
    "console.eof": "The input has ended: stopping the game.",
    "console.interrupted": "Interrupted. The game is saved: run the same command to go on.",
    "console.resumed": "An unfinished game of {game} was found in {db}: it goes on (--new "
                       "starts a new one).",
    "console.players": "{game} is played by {span} players.",
    "console.picture": "Picture: {path}",
    "console.no_pictures": "The pictures could not be written: {detail}",
    "console.practice": "A practice table: the computers play for no chips, so none of yours "
                        "move.",
    "console.standings": "Final standings (the match's own count of chips and points; at a "
                         "practice table none of your chips move):",
    "console.standing": "{rank}. {name}: chips {chips}, points {points}",
    "console.no_deals": "No deal was finished, so no chips moved.",
    "console.kept_in": "Chips are kept in {db}.",
    "console.match_chips": "match {chips}",
    "console.help_title": "{game} — what the moves mean:",
    "console.moves_with": "Moves with {letters}: {moves}",
    "console.no_letter": "There is no tile {letter} in your hand (letters A to {last}).",
    "console.drew": "You drew {tiles}.",
    "console.next_deal": "Press Enter for the next deal. ",
    "console.quit_confirm": "Quit? The game is saved. [y/N] ",
    "console.saved": "The game is saved: `gupai play` goes on with it.",
    "console.go_on": "The game goes on.",
    "console.resume_other": "You have a saved {game} game — resume it? [y/N] ",
    "console.resume_changed": "You have a saved {game} game with other settings ({saved}) — "
                              "resume it? [y/N] ",
    "console.dropped": "The saved {game} game is stopped; its finished deals keep their chips.",
    "console.nothing_saved": "There is no saved game to resume: name one, e.g. `gupai play "
                             "dragon` ({games}).",
    "console.players_n": ("{n} player", "{n} players"),
    "console.stake_n": "stake ×{stake}",
    "console.level": "computers: {levels}",
    "refuse.not_in_hand": "There is no [{face}] in your hand.",
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
}
