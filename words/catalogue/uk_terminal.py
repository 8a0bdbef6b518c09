"""The terminal's words in Ukrainian (`gupai play`) that every game shares: the hand in text,
the prompts, starting, saving and ending a game. Each game's board in text, why a typed move is
refused and what its moves mean are its home's (`faces/line/uk.py` and the others). Written,
like the rest of the catalogue, so that no verb agrees with a player's gender."""

from __future__ import annotations

from words.catalogue.types import Entry

TERMINAL: dict[str, Entry] = {
    "console.tiles": ("{n} плитка", "{n} плитки", "{n} плиток"),
    "console.score": "очки: {score}",
    "console.you": " (ви)",
    "console.hand": "Плитки: {tiles}",
    "console.moves": "Ходи:",
    "console.prompt": "Ваш хід (номер або літера; ? — довідка, q — вийти): ",
    "console.help": "Напишіть номер ходу або літери його плиток, як у списку (a чи A; дві "
                    "плитки — ab){take}.\n"
                    "p (peek) покаже ваші плитки; q (quit) — вийти з-за столу, гру буде "
                    "збережено, і `gupai play` її продовжить (як і після Ctrl-C чи Ctrl-D).\n"
                    "Якщо плитка має літеру h, p чи q, літера грає плитку: тоді пишіть help, "
                    "peek чи quit повністю.",
    "console.help_take": "; відкинуту плитку, яку можна взяти (⤴), — її виглядом, у "
                         "будь-якому порядку (6:1 чи 1:6)",
    "console.bad_number": "Ходу {text} немає: напишіть число від 1 до {most}.",
    "console.bad_choice": "«{text}» — не хід: напишіть число від 1 до {most}, літеру плитки "
                          "або ?, щоб побачити довідку.",
    "console.ambiguous": "«{text}» підходить до кількох ходів ({numbers}): напишіть номер.",
    "console.quitting": "Зупиняємо гру.",
    "console.eof": "Введення закінчилося. Гру збережено: `gupai play` продовжить її.",
    "console.interrupted": "Перервано. Гру збережено: запустіть ту саму команду, щоб грати далі.",
    "console.resumed": "У {db} знайдено незакінчену гру ({game}): вона триває (--new почне "
                       "нову).",
    "console.players": "Кількість гравців у {game}: {span}.",
    "console.picture": "Зображення: {path}",
    "console.no_pictures": "Не вдалося записати зображення: {detail}",
    "console.practice": "Тренувальний стіл: комп'ютери грають без фішок, тож ваші фішки не "
                        "рухаються.",
    "console.standings": "Підсумок (фішки й очки за рахунком цього матчу; за тренувальним "
                         "столом ваші фішки не рухаються):",
    "console.standings_so_far": "Рахунок на цю мить; гру збережено, і `gupai play` "
                                "продовжить її (фішки й очки за рахунком цього матчу; за "
                                "тренувальним столом ваші фішки не рухаються):",
    "console.standing": "{rank}. {name}: фішки {chips}, очки {points}",
    "console.no_deals": "Жодну роздачу не закінчено, тож фішки не рухалися.",
    "console.kept_in": "Фішки зберігаються в {db}.",
    "console.match_chips": "матч {chips}",
    "console.help_title": "{game} — що означають ходи:",
    "console.moves_with": "Ходи з {letters}: {moves}",
    "console.no_letter": "У вашій руці немає плитки {letter} (літери від A до {last}).",
    "console.no_such_tile": "Плитки [{face}] у наборі цієї гри немає.",
    "console.drew": "Ви витягли {tiles}.",
    "console.next_deal": "Натисніть Enter, щоб почати наступну роздачу. ",
    "console.quit_confirm": "Вийти? Гру збережено. [y/N] ",
    "console.saved": "Гру збережено: `gupai play` продовжить її.",
    "console.go_on": "Гра триває.",
    "console.resume_other": "У вас є збережена гра «{game}» — продовжити її? [Y/n] ",
    "console.resume_changed": "У вас є збережена гра «{game}» з іншими налаштуваннями "
                              "({saved}) — продовжити її? [Y/n] ",
    "console.dropped": "Збережену гру «{game}» зупинено; фішки закінчених роздач лишаються.",
    "console.nothing_saved": "Немає збереженої гри, яку можна продовжити: назвіть гру, "
                             "наприклад `gupai play dragon` ({games}).",
    "console.players_n": ("{n} гравець", "{n} гравці", "{n} гравців"),
    "console.stake_n": "ставка ×{stake}",
    "console.level": "комп'ютери: {levels}",
    "refuse.not_in_hand": "У вашій руці немає [{face}].",
}
