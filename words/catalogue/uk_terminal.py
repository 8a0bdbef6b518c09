"""The terminal's words in Ukrainian (`gupai play`): the board and hand in text, the prompts,
why a typed move is refused (in the words of RULES.md) and what each game's moves mean. Written,
like the rest of the catalogue, so that no verb agrees with a player's gender."""

from __future__ import annotations

from words.catalogue.types import Entry

TERMINAL: dict[str, Entry] = {
    "console.discards": "Відкинуті: {tiles}",
    "console.discards_take": "Відкинуті (⤴ можна взяти): {tiles}",
    "console.discards_empty": "На столі немає відкинутих плиток.",
    "console.pairs": "пари {pairs}",
    "console.tiles": ("{n} плитка", "{n} плитки", "{n} плиток"),
    "console.score": "очки: {score}",
    "console.you": " (ви)",
    "console.hand": "Плитки: {tiles}",
    "console.moves": "Ходи:",
    "console.prompt": "Ваш хід (номер або літера; ? — довідка, q — вийти): ",
    "console.help": "Напишіть номер ходу або літери його плиток, як у списку (a чи A; дві "
                    "плитки — ab); відкинуту плитку, яку можна взяти (⤴), — її виглядом, у "
                    "будь-якому порядку (6:1 чи 1:6).\n"
                    "p (peek) покаже ваші плитки; q (quit) — вийти з-за столу, гру буде "
                    "збережено, і `gupai play` її продовжить (як і після Ctrl-C).\n"
                    "Якщо плитка має літеру h, p чи q, літера грає плитку: тоді пишіть help, "
                    "peek чи quit повністю.",
    "console.bad_number": "Ходу {text} немає: напишіть число від 1 до {most}.",
    "console.bad_choice": "«{text}» — не хід: напишіть число від 1 до {most}, літеру плитки "
                          "або ?, щоб побачити довідку.",
    "console.ambiguous": "«{text}» підходить до кількох ходів ({numbers}): напишіть номер.",
    "console.quitting": "Зупиняємо гру.",
    "console.eof": "Введення закінчилося: гру зупинено.",
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
    "console.standing": "{rank}. {name}: фішки {chips}, очки {points}",
    "console.no_deals": "Жодну роздачу не закінчено, тож фішки не рухалися.",
    "console.kept_in": "Фішки зберігаються в {db}.",
    "console.match_chips": "матч {chips}",
    "console.help_title": "{game} — що означають ходи:",
    "console.moves_with": "Ходи з {letters}: {moves}",
    "console.no_letter": "У вашій руці немає плитки {letter} (літери від A до {last}).",
    "console.drew": "Ви витягли {tiles}.",
    "console.next_deal": "Натисніть Enter, щоб почати наступну роздачу. ",
    "console.quit_confirm": "Вийти? Гру збережено. [y/N] ",
    "console.saved": "Гру збережено: `gupai play` продовжить її.",
    "console.go_on": "Гра триває.",
    "console.resume_other": "У вас є збережена гра «{game}» — продовжити її? [y/N] ",
    "console.resume_changed": "У вас є збережена гра «{game}» з іншими налаштуваннями "
                              "({saved}) — продовжити її? [y/N] ",
    "console.dropped": "Збережену гру «{game}» зупинено; фішки закінчених роздач лишаються.",
    "console.nothing_saved": "Немає збереженої гри, яку можна продовжити: назвіть гру, "
                             "наприклад `gupai play dragon` ({games}).",
    "console.players_n": ("{n} гравець", "{n} гравці", "{n} гравців"),
    "console.stake_n": "ставка ×{stake}",
    "console.level": "комп'ютери: {levels}",
    "refuse.not_in_hand": "У вашій руці немає [{face}].",
    "refuse.no_such_discard": "Серед відкинутих немає [{face}].",
    "refuse.take_first": "Відкинуту плитку можна взяти лише на початку ходу, замість або перед "
                         "тим, як тягнути нову.",
    "refuse.only_last": "Взяти можна лише останню відкинуту плитку: [{last}], а не [{face}].",
    "refuse.classical": "(класичні правила)",
    "refuse.one_discard": "Відкидають одну плитку: напишіть одну літеру.",
    "refuse.kap_first": "Спершу візьміть відкинуту плитку (⤴) або потягніть нову; потім "
                        "відкиньте.",
    "refuse.kap_taken": "[{tile}] щойно взято: її (чи таку саму) не можна одразу відкинути "
                        "назад. Відкиньте іншу плитку.",
    "refuse.td_no_partner": "[{face}] не дає пари з жодною вашою плиткою: відкинуту плитку "
                            "беруть лише тоді, коли її одразу викладають у парі.",
    "refuse.td_first": "Спершу візьміть останню відкинуту плитку (⤴) або потягніть нову.",
    "refuse.td_two": "Пара — це дві плитки: напишіть обидві літери (ab).",
    "refuse.td_not_pair": "[{first}] і [{second}] — не пара: пара — це два сусідні дублі або "
                          "дві плитки, що разом мають 12 точок.",
    "teach.kap_take_culin": "⤴ 6:6      взяти цю відкинуту плитку (напишіть 6:6): будь-яку "
                            "відкриту; потім відкиньте іншу й однаково тягніть нову",
    "teach.kap_take_classical": "⤴ 6:6      взяти останню відкинуту плитку (напишіть 6:6) "
                                "замість нової",
    "teach.discard": "A 6:6 ↓    відкинути цю плитку лицем догори (напишіть a)",
    "teach.draw_stock": "{button}   узяти верхню закриту плитку, потім відкинути одну",
    "teach.kap_marks": "⤴ серед відкинутих позначає плитки, які зараз можна взяти.",
    "teach.kap_goal": "Виграє рука з {tiles} плиток: «око» (дві однакові плитки) і {tens} пари "
                      "по 10 чи 20 точок; [4:2] рахується як {four_two}.",
    "teach.td_take": "⤴ 2:1 + A 6:3   взяти останню відкинуту плитку й одразу викласти її в "
                     "парі з A (напишіть 2:1)",
    "teach.td_meld": "A+B 3:3 4:4  викласти пару (напишіть ab): два сусідні дублі або 12 точок "
                     "разом",
    "teach.td_marks": "⤴ серед відкинутих позначає ту, яку зараз можна взяти.",
    "teach.td_goal": "Виграє той, хто раніше за всіх збере три пари.",
}
