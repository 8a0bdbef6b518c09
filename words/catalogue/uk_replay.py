"""A finished deal replayed in Ukrainian: `gupai replay` in the terminal and the web table's
replay (`bot.commandline.deal_replay`, `bot.deals.replay_steps`), and the result post's button that
opens it."""

from __future__ import annotations

from words.catalogue.types import Entry

REPLAY: dict[str, Entry] = {
    "btn.replay": "▶ Переглянути",
    "replay.title": "Роздача {deal}: {game}, роздача {number} своєї гри, ходів: {moves}. "
                    "Роздачу закінчено, тож усі руки відкрито.",
    "replay.step_deal": "Роздача, як її роздали (далі ходів: {last})",
    "replay.step": "Хід {step} з {last}: {name}",
    "replay.step_for": "Хід {step} з {last}: {name} (за відсутності ходив комп'ютер)",
    "replay.result": "Результат, як його збережено й перевірено:",
    "replay.result_seat": "{name}: очок {points}, фішки {chips}",
    "replay.won": ", перемога",
    "replay.prompt": "Enter далі · p назад · f початок · l кінець · a грати далі (a 0.5: хід "
                     "що 0,5 с) · q вийти: ",
    "replay.unclear": "«{text}» — не крок: Enter, p, f, l, a або q.",
    "replay.no_deal": "Роздачі {deal} у {db} немає.",
    "replay.end": "Кінець роздачі.",
    "web.replay_first": "« Початок",
    "web.replay_previous": "◀ Назад",
    "web.replay_next": "Далі ▶",
    "web.replay_last": "Кінець »",
    "web.replay_play": "▶ Грати",
    "web.replay_pause": "❚❚ Пауза",
    "web.replay_speed": "Секунд на хід",
    "web.replay_hands": "Усі руки, відкрито",
    "web.no_replay": "Цю роздачу не переглянути.",
}
