"""The collecting games' own words in Ukrainian (Kap Ten, Kap Tai Shap, Three Dozen): their titles
(`game.<id>`), the discards in the terminal, why a typed move is refused and what the moves mean,
their hints, buttons, table lines and picture labels (added to the catalogue when the home is
imported). Like the rest of the catalogue, no verb agrees with a player's gender, and counts have
three forms."""

from __future__ import annotations

from words.catalogue import Entry

COLLECT: dict[str, Entry] = {
    # the games' titles
    "game.kapten": "Тягни десятки",
    "game.kaptaishap": "Тягни багато десяток",
    "game.threedozen": "Три дюжини",
    # the terminal
    "console.discards": "Відкинуті: {tiles}",
    "console.discards_take": "Відкинуті (⤴ можна взяти): {tiles}",
    "console.discards_empty": "На столі немає відкинутих плиток.",
    "console.pairs": "пари {pairs}",
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
    # the table, its pictures and its moves
    "btn.draw_stock": "Тягнути з базару",
    "table.culin": "правила Куліна",
    "table.classical": "класичні правила",
    "table.sets": ("{n} набір", "{n} набори", "{n} наборів"),
    "table.turn": "хід {n}",
    "table.stock": ("на базарі {n} плитка", "на базарі {n} плитки", "на базарі {n} плиток"),
    "table.pot": ("у банку {n} фішка", "у банку {n} фішки", "у банку {n} фішок"),
    "table.reshuffles": ("перетасовано {n} раз", "перетасовано {n} рази",
                         "перетасовано {n} разів"),
    "table.pairs": "Викладені пари: {pairs}",
    "table.winning": "Виграшна рука — {name}: око {eye} · десятки {tens}",
    "hint.discard": "Відкиньте одну плитку (↓), щоб закінчити хід.",
    "hint.kap_culin": "Візьміть будь-яку відкриту плитку з відкинутих (⤴): тоді відкинете "
                      "іншу й однаково потягнете з базару. Або просто тягніть з базару.",
    "hint.kap_classical": "Візьміть останню відкинуту плитку (⤴) або тягніть з базару; "
                          "потім відкиньте плитку.",
    "hint.kap_swap": "Відкиньте плитку, не таку, як щойно взята; потім потягнете з базару.",
    "hint.kap_first": "Перший хід: відкиньте плитку, потім потягнете з базару й відкинете "
                      "ще одну.",
    "hint.kap_taken": "Відкиньте плитку, не таку, як щойно взята.",
    "hint.kap_draw": "Відкритих плиток ще немає: потягніть з базару, потім відкиньте плитку.",
    "hint.td_open": "Останню відкинуту плитку (⤴) можна взяти лише щоб одразу викласти "
                    "її в парі; інакше тягніть з базару.",
    "hint.td_forced": "Остання відкинута плитка дає вам пару: візьміть її й викладіть "
                      "пару.",
    "hint.td_draw": "Остання відкинута плитка не дає вам пари: тягніть з базару.",
    "hint.td_meld": "Викладіть пару (обов'язково): два сусідні дублі або дві плитки, що "
                    "разом мають 12 очок.",
    "tile.counts": "{tile} (рахується як {value})",
    "img.head_short": "1-й",
    "img.turn": "хід {v}",
    "img.pot": "банк: {v}",
    "img.deck": "базар: {v}",
    "img.reshuffles": "перетасовано: {v}",
    "img.may_take": "{name} може взяти",
    "img.may_take_if_pairs": "{name} може взяти, якщо складе пару",
    "img.no_discards": "відкинутих плиток ще немає",
    "img.eye": "око",
    "img.wins": "виграє {name}",
    "img.from_deal": "готова з роздачі",
    "img.from_discard": "з відкинутої",
    "img.from_stock": "з базару",
    "img.void_deal": "роздачу анульовано: базар скінчився, внески повертаються",
    "img.won_paid_column": "виграш / сплата",
    "img.pairs_column": "пари",
}
