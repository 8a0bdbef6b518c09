"""A finished deal replayed in English: `gupai replay` in the terminal and the web table's replay
(`bot.commandline.deal_replay`, `bot.deals.replay_steps`), and the result post's button that opens
it."""

from __future__ import annotations

from words.catalogue.types import Entry

REPLAY: dict[str, Entry] = {
    "btn.replay": "▶ Replay",
    "replay.title": "Deal {deal}: {game}, deal {number} of its game, {moves} moves. The deal "
                    "is over, so every hand is face up.",
    "replay.step_deal": "The deal, as dealt (then {last} moves)",
    "replay.step": "Move {step} of {last}: {name}",
    "replay.step_for": "Move {step} of {last}: {name} (the computer, while they were away)",
    "replay.result": "The result, as stored and checked:",
    "replay.result_seat": "{name}: {points} points, chips {chips}",
    "replay.won": ", won",
    "replay.prompt": "Enter next · p back · f first · l last · a play on (a 0.5: a move "
                     "every 0.5 s) · q quit: ",
    "replay.unclear": "“{text}” is not a step: Enter, p, f, l, a or q.",
    "replay.no_deal": "There is no deal {deal} in {db}.",
    "replay.end": "The end of the deal.",
    "web.replay_first": "« First",
    "web.replay_previous": "◀ Back",
    "web.replay_next": "Next ▶",
    "web.replay_last": "Last »",
    "web.replay_play": "▶ Play",
    "web.replay_pause": "❚❚ Pause",
    "web.replay_speed": "Seconds a move",
    "web.replay_hands": "Every hand, face up",
    "web.no_replay": "This deal cannot be replayed.",
}
