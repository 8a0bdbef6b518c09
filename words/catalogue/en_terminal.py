"""The terminal's words in English (`gupai play`) that every game shares: the hand in text, the
prompts, starting, saving and ending a game. Each game's board in text, why a typed move is
refused and what its moves mean are its home's (`faces/line/en.py` and the others)."""

from __future__ import annotations

from words.catalogue.types import Entry

TERMINAL: dict[str, Entry] = {
    "console.tiles": ("{n} tile", "{n} tiles"),
    "console.score": "score {score}",
    "console.you": " (you)",
    "console.hand": "Tiles: {tiles}",
    "console.moves": "Moves:",
    "console.prompt": "Your move (number or letter; ? help, q quit): ",
    "console.help": "Type a move's number, or its tiles' letters as in the list (a or A; two "
                    "tiles: ab){take}.\n"
                    "p (peek) shows your tiles; q (quit) leaves the table with the game saved, "
                    "and `gupai play` goes on with it (Ctrl-C and Ctrl-D too).\n"
                    "When a tile's letter is h, p or q, the letter plays the tile: type help, "
                    "peek or quit in full.",
    "console.help_take": "; a discard to take (⤴) by its face, either way round (6:1 or 1:6)",
    "console.bad_number": "There is no move {text}: type a number from 1 to {most}.",
    "console.bad_choice": "“{text}” is not one of the moves: type a number from 1 to {most}, "
                          "a tile's letter, or ? for help.",
    "console.ambiguous": "“{text}” fits more than one move ({numbers}): type the number.",
    "console.quitting": "Stopping the game.",
    "console.eof": "The input has ended. The game is saved: `gupai play` goes on with it.",
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
    "console.standings_so_far": "Standings so far; the game is saved and `gupai play` goes "
                                "on with it (the match's own count of chips and points; at a "
                                "practice table none of your chips move):",
    "console.standing": "{rank}. {name}: chips {chips}, points {points}",
    "console.no_deals": "No deal was finished, so no chips moved.",
    "console.kept_in": "Chips are kept in {db}.",
    "console.match_chips": "match {chips}",
    "console.help_title": "{game} — what the moves mean:",
    "console.moves_with": "Moves with {letters}: {moves}",
    "console.no_letter": "There is no tile {letter} in your hand (letters A to {last}).",
    "console.no_such_tile": "There is no such tile as [{face}] in this game's set.",
    "console.drew": "You drew {tiles}.",
    "console.next_deal": "Press Enter for the next deal. ",
    "console.quit_confirm": "Quit? The game is saved. [y/N] ",
    "console.saved": "The game is saved: `gupai play` goes on with it.",
    "console.go_on": "The game goes on.",
    "console.resume_other": "You have a saved {game} game — resume it? [Y/n] ",
    "console.resume_changed": "You have a saved {game} game with other settings ({saved}) — "
                              "resume it? [Y/n] ",
    "console.dropped": "The saved {game} game is stopped; its finished deals keep their chips.",
    "console.nothing_saved": "There is no saved game to resume: name one, e.g. `gupai play "
                             "dragon` ({games}).",
    "console.players_n": ("{n} player", "{n} players"),
    "console.stake_n": "stake ×{stake}",
    "console.level": "computers: {levels}",
    "refuse.not_in_hand": "There is no [{face}] in your hand.",
}
