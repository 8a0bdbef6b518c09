"""The rules of the draw-and-discard games in short (Kap Ten, Kap Tai Shap, Three Dozen),
in Ukrainian and English, for `/rules GAME`.

The texts follow RULES.md §2.6–§2.7 (Kap Ten, Kap Tai
Shap) and §2.9 (Three Dozen), with decisions D-02…D-18, and describe what
`games/` actually does. They are plain text of at most 3000 characters, with "• " bullets and
no markup characters.
"""

from __future__ import annotations


def _text(*lines: str) -> str:
    return "\n".join(lines)


_KAP_CHOICES_UK = (
    "",
    "Пресети:",
    "• culin: типовий, правила Куліна.",
    "• classical: класичні правила (rules=classical).",
    "",
    "Опції (назва=значення):",
    "• rules=culin або classical: як минає хід.",
    "• ante=1: скільки фішок кожен кладе в банк.",
    "• four_two=3 або 6: скільки важить [4:2] у десятці: 3 (як у Куліна) або свої 6 цяток.",
    "• deal=seed або even: seed — першому гравцеві на плитку більше, і він починає з "
    "відкидання; even — усім порівну, а перший хід — потягнути й відкинути, як роздає "
    "симулятор автора правил.",
)

_KAPTEN_UK = _text(
    "Тягни десятки (夾十, Kap Shap): рівно 2 гравці, китайський набір із 32 плиток.",
    "",
    "• Роздача: першому гравцеві (у першій роздачі його визначає жереб) 8 плиток, другому 7; "
    "решта 17 лицем донизу — базар.",
    "• Ціна плитки — сума цяток, але [4:2] рахується як 3 (four_two). Виграшна рука з 8 плиток: "
    "око (дві однакові плитки) і три десятки — пари, що разом мають 10 або 20. Вона виграє тієї "
    "ж миті, коли зібрана: одразу з роздачі, після взятої відкинутої плитки чи після плитки з "
    "базару. Розкладати руку не треба: це робить гра.",
    "• Правила Куліна (типові): за свій хід можна взяти будь-яку відкриту відкинуту плитку, "
    "навіть власну, і тоді відкинути іншу (не таку саму). Потім обов'язково тягнете плитку з "
    "базару й "
    "відкидаєте одну. Тож за хід можна взяти дві плитки. Перший хід першого гравця: відкинути, "
    "потягнути, відкинути.",
    "• Класичні правила: за хід або берете останню відкинуту плитку, або тягнете з базару, і "
    "відкидаєте одну (не щойно взяту й не таку саму). Перший хід першого гравця: лише відкинути "
    "плитку.",
    "• Якщо на початку ходу базар порожній, роздачу анульовано: внески повертаються.",
    "• Кожен кладе в банк ante фішок, переможець забирає банк. Наступну роздачу починає "
    "переможець, після анульованої — той самий гравець.",
    *_KAP_CHOICES_UK,
    "• deals=0: кількість роздач у матчі (0: доки стіл не зупинять).",
    "Приклад: /newgame kapten classical deals=3",
)

_KAP_CHOICES_EN = (
    "",
    "Presets:",
    "• culin: the default, Culin's rules.",
    "• classical: the classical rules (rules=classical).",
    "",
    "Options (name=value):",
    "• rules=culin or classical: how a turn goes.",
    "• ante=1: chips each player puts into the pot.",
    "• four_two=3 or 6: what [4:2] counts in a ten: 3 (as Culin has it) or its own 6 pips.",
    "• deal=seed or even: seed gives the first player one tile more and he opens with a "
    "discard; even deals everyone alike and the first turn is a draw and a discard, as the "
    "rules author's simulator deals.",
)

_KAPTEN_EN = _text(
    "Kap Ten (夾十, Kap Shap): exactly 2 players, the 32-tile Chinese set.",
    "",
    "• Deal: 8 tiles to the first player (drawn by lot in the first deal), 7 to the other; "
    "the other 17 lie face down as the stock.",
    "• A tile is worth its pips, but [4:2] counts 3 (four_two). A winning hand of 8 tiles is an "
    "eye (two identical tiles) and three tens: pairs worth 10 or 20 together. It wins the "
    "moment it is held: straight from the deal, after taking a discard or after a draw. Nobody "
    "has to lay it out: the game does.",
    "• Culin's rules (the default): on your turn you may take any face-up discard, your own "
    "too, and then discard another tile (not an identical one). Then you must draw from the stock "
    "and discard one "
    "tile. So a turn can bring two tiles. The first player's first turn is discard, draw, "
    "discard.",
    "• Classical rules: each turn you either take the last discard or draw from the stock, "
    "then discard one tile (neither the one just taken nor an identical one). The first player's "
    "first turn is a "
    "single discard.",
    "• If the stock is empty when a turn begins, the deal is void and the antes go back.",
    "• Everyone puts ante chips into the pot; the winner takes it. The winner leads the next "
    "deal; after a void deal the same player leads again.",
    *_KAP_CHOICES_EN,
    "• deals=0: deals in a match (0: until the table stops).",
    "Example: /newgame kapten classical deals=3",
)

_KAPTAISHAP_UK = _text(
    "Тягни багато десяток (夾大十, Kap Tai Shap): 2–20 гравців, кілька китайських наборів по "
    "32 плитки, перетасованих разом.",
    "",
    "• Усе як у Тягни десятки, крім цього. Наборів типово приблизно два на п'ятьох гравців "
    "(10 гравців › 4 набори, 20 › 8; sets). Першому гравцеві 10 плиток, решті по 9; решта — "
    "базар.",
    "• Виграшна рука з 10 плиток: око (дві однакові плитки, тепер і військові) і чотири "
    "десятки — пари, що разом мають 10 або 20; [4:2] рахується як 3 (four_two). Рука виграє "
    "тієї ж миті, коли зібрана: з роздачі, після взятої відкинутої плитки чи після плитки з "
    "базару.",
    "• Правила Куліна (типові): за хід можна взяти будь-яку відкриту відкинуту плитку, навіть "
    "власну, і відкинути іншу (не таку саму); потім обов'язково тягнете з базару й відкидаєте "
    "одну. Перший "
    "хід першого гравця: відкинути, потягнути, відкинути. З багатьма гравцями так роздача "
    "часто кінчається ще в першому колі.",
    "• Класичні правила (радять для великого столу): за хід або берете останню відкинуту "
    "плитку, або тягнете з базару, і відкидаєте одну (не щойно взяту й не таку саму). Перший хід: "
    "лише "
    "відкинути.",
    "• Якщо на початку ходу базар порожній, роздачу анульовано: внески повертаються.",
    "• Кожен кладе в банк ante фішок, переможець забирає банк і починає наступну роздачу.",
    *_KAP_CHOICES_UK,
    "• sets=0: скільки наборів (0: два на п'ятьох гравців, з округленням угору; наборів має "
    "вистачити на базар).",
    "• deals=0: кількість роздач у матчі (0: доки стіл не зупинять).",
    "Приклад: /newgame kaptaishap classical sets=4",
)

_KAPTAISHAP_EN = _text(
    "Kap Tai Shap (夾大十): 2 to 20 players, several 32-tile Chinese sets shuffled together.",
    "",
    "• As Kap Ten, except as follows. There are about two sets per five players (10 players › "
    "4 sets, 20 › 8; sets). The first player gets 10 tiles, everyone else 9; the rest is the "
    "stock.",
    "• A winning hand of 10 tiles is an eye (two identical tiles, now military ones too) and "
    "four tens: pairs worth 10 or 20 together; [4:2] counts 3 (four_two). It wins the moment "
    "it is held: from the deal, after taking a discard or after a draw.",
    "• Culin's rules (the default): on your turn you may take any face-up discard, your own "
    "too, and discard another tile (not an identical one); then you must draw from the stock and "
    "discard one. The "
    "first player's first turn is discard, draw, discard. With many players a deal often ends "
    "within the first round.",
    "• Classical rules (advised for a big table): each turn you either take the last discard "
    "or draw from the stock, then discard one tile (neither the one just taken nor an identical "
    "one). The first turn is "
    "a single discard.",
    "• If the stock is empty when a turn begins, the deal is void and the antes go back.",
    "• Everyone puts ante chips into the pot; the winner takes it and leads the next deal.",
    *_KAP_CHOICES_EN,
    "• sets=0: how many sets (0: two per five players, rounded up; there must be enough for a "
    "stock).",
    "• deals=0: deals in a match (0: until the table stops).",
    "Example: /newgame kaptaishap classical sets=4",
)

_THREEDOZEN_UK = _text(
    "Три дюжини: 2–5 гравців, європейський набір дубль-шість із 28 плиток.",
    "",
    "• Роздача: по 5 плиток, першому гравцеві 6; решта лицем донизу — базар. Першого гравця "
    "в першій роздачі визначає жереб, далі починає попередній переможець.",
    "• Пара — це два сусідні дублі ([0:0][1:1] … [5:5][6:6]) або дві плитки, що разом мають 12 "
    "очок: [3:3] складає пару з [4:4], [2:2], [6:0], [5:1] і [4:2].",
    "• Перший хід першого гравця: викласти всі свої пари відкрито й відкинути одну плитку.",
    "• Далі за хід: або взяти останню плитку, відкинуту попереднім гравцем, — лише якщо вона "
    "одразу складає пару з вашою плиткою, і цю пару ви відразу викладаєте, — або потягнути з "
    "базару. Потім викладаєте пари (обов'язково; яку саме — ваш вибір) і відкидаєте одну "
    "плитку. Викладені пари лишаються на столі.",
    "• Хто раніше за всіх має три пари з усіх своїх 6 плиток (викладених і на руці), виграє "
    "тієї ж миті.",
    "• Коли треба тягнути, а базар порожній, усі відкинуті плитки перетасовують у новий базар.",
    "• Кожен ставить stake фішок. Перемога з плиткою з базару (або з роздачі) забирає всі "
    "ставки; перемога з плиткою, відкинутою попереднім гравцем, забирає лише його ставку, інші "
    "ставки повертаються.",
    "",
    "Пресети:",
    "• standard: типовий, брати відкинуту плитку не обов'язково.",
    "• forced-pickup: якщо відкинута плитка складає вам пару, її треба взяти (pickup=forced).",
    "",
    "Опції (назва=значення):",
    "• pickup=optional або forced: чи обов'язково брати відкинуту плитку, що складає пару.",
    "• stake=1: скільки фішок ставить кожен гравець.",
    "• deals=0: кількість роздач у матчі (0: доки стіл не зупинять).",
    "Приклад: /newgame threedozen forced-pickup deals=5",
)

_THREEDOZEN_EN = _text(
    "Three Dozen: 2 to 5 players, the 28-tile Western double-six set.",
    "",
    "• Deal: 5 tiles each, 6 to the first player; the rest lies face down as the stock. The "
    "first deal is led by lot, later deals by the last winner.",
    "• A pair is two neighbouring doubles ([0:0][1:1] … [5:5][6:6]) or two tiles with 12 pips "
    "together: [3:3] pairs with [4:4], [2:2], [6:0], [5:1] and [4:2].",
    "• The first player's first turn: lay out all his pairs face up and discard one tile.",
    "• Each later turn: either take the last tile the previous player discarded, only if it "
    "makes a pair with a tile of yours, and lay that pair out at once, or draw from the "
    "stock. Then lay out pairs (compulsory; which pair is your choice) and discard one tile. "
    "Pairs laid out stay on the table.",
    "• The first player whose 6 tiles (laid out and in hand) make three pairs wins at that "
    "moment.",
    "• When a draw is due and the stock is empty, all the discards are shuffled into a new "
    "stock.",
    "• Everyone stakes stake chips. A win with a tile from the stock (or from the deal) takes "
    "every stake; a win with the previous player's discard takes only that player's stake, "
    "and the other stakes go back.",
    "",
    "Presets:",
    "• standard: the default, taking the discard is optional.",
    "• forced-pickup: a discard that makes you a pair must be taken (pickup=forced).",
    "",
    "Options (name=value):",
    "• pickup=optional or forced: whether a discard that pairs must be taken.",
    "• stake=1: chips each player stakes.",
    "• deals=0: deals in a match (0: until the table stops).",
    "Example: /newgame threedozen forced-pickup deals=5",
)

TEXTS: dict[str, dict[str, str]] = {
    "kapten": {"uk": _KAPTEN_UK, "en": _KAPTEN_EN},
    "kaptaishap": {"uk": _KAPTAISHAP_UK, "en": _KAPTAISHAP_EN},
    "threedozen": {"uk": _THREEDOZEN_UK, "en": _THREEDOZEN_EN},
}
