"""The rules of the line games in short (Dragon, Ce Deng, Tails, Ding Niu and the Ukrainian
"ДОМІНО"), in Ukrainian and English, for `/rules GAME`.

The texts follow RULES.md §2.1 (the connecting games' common core), §2.2–§2.3 (Dragon, one and
two arms), §2.4 (Ce Deng), §2.5 (Tails), §2.11 (Ding Niu) and §2.10 ("ДОМІНО"), with decisions
D-02…D-26, and describe what `games/` actually does. They are plain text of at most 3000
characters, with "• " bullets and no markup characters.
"""

from __future__ import annotations


def _text(*lines: str) -> str:
    return "\n".join(lines)


_DRAGON_UK = _text(
    "З'єднай дракона (接龍, ДзєЛун): 2–4 гравці, китайський набір із 32 плиток.",
    "",
    "• Роздача: учотирьох по 8 плиток, утрьох по 10 (дві зайві лишаються закритими й не "
    "грають), удвох по 16. Базару немає.",
    "• У першій роздачі починає той, на кого впаде жереб. Він кладе будь-яку плитку. З одним "
    "рукавом він оголошує, який кінець відкритий, а другий кінець закритий до кінця роздачі; з "
    "двома рукавами відкриті обидва кінці.",
    "• Далі ходять по черзі. Хто має плитку з числом відкритого кінця, мусить її приєднати; її "
    "другий кінець стає новим відкритим (дубль число не змінює). Хто не може, кладе перед собою "
    "одну плитку на вибір лицем донизу й пасує; ця плитка в гру вже не повертається.",
    "• Роздача закінчується, коли всі плитки викладено або відкладено. Якщо жодна плитка на "
    "руках не підходить до відкритого кінця, гру зупиняють, а все, що лишилося на руках, "
    "рахується як відкладене.",
    "• Очки: сума цяток на відкладених плитках. Виграє найменша сума; за рівності виграє нижча "
    "рука (перша рука — той, хто почав роздачу, далі за чергою).",
    "• settlement=classic: кожні двоє гравців платять один одному різницю своїх очок. "
    "settlement=chips: переможець бере по 1 фішці з кожного. settlement=tally: після роздач "
    "фішки не рухаються, очки накопичуються, і коли чийсь підсумок сягне target (або після "
    "deals роздач), найменший підсумок бере по 1 фішці з кожного.",
    "",
    "Пресети:",
    "• one-arm: типовий, один рукав, класичний розрахунок.",
    "• two-arm: два відкриті кінці (arms=2).",
    "• dancing: два рукави і clean_bonus=on.",
    "• chips: по 1 фішці з кожного переможеного.",
    "• tally: підсумок очок до target.",
    "",
    "Опції (назва=значення):",
    "• arms=1 або 2: скільки відкритих кінців.",
    "• clean_bonus=on: якщо хтось виклав усі свої плитки, очки решти подвоюються.",
    "• settlement=classic, chips або tally: як рухаються фішки.",
    "• lead=winner або rotate: наступну роздачу починає переможець або наступна за чергою рука.",
    "• target=100: для tally, підсумок, на якому матч закінчується.",
    "• deals=0: скільки роздач у матчі (0 — без обмеження, доки гравці не зупиняться).",
    "Приклад: /newgame dragon two-arm deals=3",
)

_DRAGON_EN = _text(
    "Dragon (接龍, Jie Long): 2 to 4 players, the 32-tile Chinese set.",
    "",
    "• Deal: 8 tiles each for 4 players, 10 each for 3 (the 2 left over stay face down, out of "
    "play), 16 each for 2. There is no stock.",
    "• The first deal is led by lot. The leader lays any tile. With one arm he says which end is "
    "open, and the other end stays closed for the whole deal; with two arms both ends are open.",
    "• Then players take turns. If you hold a tile with the number of an open end, you must "
    "attach it; its other end becomes the new open end (a double keeps the number). If you "
    "cannot, you lay one tile of your choice face down in front of you and pass; it never comes "
    "back into play.",
    "• The deal ends when every tile is placed or laid down. If no tile in any hand fits an open "
    "end, play stops and the tiles still in hand count as laid down.",
    "• Score: the pips on your face-down tiles. Lowest wins; a tie goes to the lower hand (the "
    "leader is hand 1, then in turn order).",
    "• settlement=classic: every two players pay each other the difference of their scores. "
    "settlement=chips: the winner takes 1 chip from each other player. settlement=tally: no chips "
    "after a deal; scores add up, and when someone's total reaches target (or after the number "
    "of deals set by deals) the lowest total takes 1 chip from each.",
    "",
    "Presets:",
    "• one-arm: the default, one open end, classic settlement.",
    "• two-arm: both ends open (arms=2).",
    "• dancing: two arms and clean_bonus=on.",
    "• chips: 1 chip from each loser.",
    "• tally: running totals up to target.",
    "",
    "Options (name=value):",
    "• arms=1 or 2: how many open ends.",
    "• clean_bonus=on: if anyone places all his tiles, everyone else's score doubles.",
    "• settlement=classic, chips or tally: how chips move.",
    "• lead=winner or rotate: the next deal is led by the winner or by the next hand in turn.",
    "• target=100: tally only, the total that ends the match.",
    "• deals=0: deals in a match (0 means no limit, until the players stop).",
    "Example: /newgame dragon two-arm deals=3",
)

_CEDENG_UK = _text(
    "Косий цвях (斜釘, ЦеДенг): рівно 4 гравці, китайський набір із 32 плиток, по 8 плиток, "
    "базару немає, один рукав.",
    "",
    "• Якщо комусь здали сім чи більше дублів (про вісім див. eight_doubles), роздачу "
    "скасовують і здають знову з тією самою головою.",
    "• Гра як у З'єднай дракона з одним рукавом. Голова (перший гравець; у першій роздачі за "
    "жеребом) кладе будь-яку плитку й оголошує відкритий кінець. Хто має плитку під відкритий "
    "кінець, мусить її приєднати, інакше кладе одну плитку на вибір лицем донизу й пасує. Коли "
    "ніхто вже не може нічого приєднати, плитки на руках рахуються як відкладені.",
    "• Очки: сума цяток відкладених плиток; виграє найменша сума, за рівності нижча рука.",
    "• Після роздачі кожен гравець чистий, оштрафований або звичайний. Чистий виклав усі 8 "
    "плиток. Оштрафований: за penalty=7-8 голова відклав 7 плиток (зіграв лише першу) або хвіст "
    "(будь-хто інший) відклав усі 8; за penalty=6-7 голова відклав 6 і більше, хвіст 7 і більше.",
    "• settlement=classic: кожні двоє платять один одному різницю очок, помножену на 2 між "
    "чистим і звичайним або між оштрафованим і звичайним, на 4 між чистим і оштрафованим, на 1 "
    "при однаковому статусі. settlement=chips: переможець бере по 1 фішці з кожного, без "
    "множників. settlement=tally: очки накопичуються до target, тоді найменший підсумок бере по "
    "1 фішці з кожного.",
    "• eight_doubles=win: кому здали вісім дублів, той одразу виграє, а кожен інший платить йому "
    "подвійну суму цяток зі своєї руки.",
    "",
    "Пресети:",
    "• classic: типовий, голова-7-хвіст-8, класичний розрахунок із множниками.",
    "• strict: суворіше правило голова-6-хвіст-7 (penalty=6-7).",
    "• eight-win: вісім дублів виграють одразу, з подвійною оплатою (eight_doubles=win).",
    "• chips: по 1 фішці з кожного переможеного.",
    "",
    "Опції (назва=значення):",
    "• penalty=7-8 або 6-7: скільки відкладених плиток означає штраф для голови і для хвоста.",
    "• eight_doubles=redeal або win: вісім дублів у роздачі дають перездачу або перемогу.",
    "• settlement=classic, chips або tally: як рухаються фішки.",
    "• lead=winner або rotate: наступну роздачу починає переможець або наступна за чергою рука.",
    "• target=100: для tally, підсумок, на якому матч закінчується.",
    "• deals=0: скільки роздач у матчі (0 — без обмеження).",
    "Приклад: /newgame cedeng strict",
)

_CEDENG_EN = _text(
    "Ce Deng (斜釘, slanted nail): exactly 4 players, the 32-tile Chinese set, 8 tiles each, no "
    "stock, one arm.",
    "",
    "• If anyone is dealt seven or more doubles (for eight see eight_doubles), the deal is void "
    "and dealt again with the same head.",
    "• Play as in one-arm Dragon. The head (the first player; by lot in the first deal) lays any "
    "tile and says which end is open. If you hold a tile that fits the open end you must attach "
    "it; otherwise you lay one tile of your choice face down and pass. Once nobody can attach "
    "anything, the tiles still in hand count as laid down.",
    "• Score: the pips on your face-down tiles; lowest wins, a tie goes to the lower hand.",
    "• After the deal each player is clean, penalized or normal. Clean: placed all 8 tiles. "
    "Penalized: with penalty=7-8 the head laid down 7 tiles (played only his lead) or a tail "
    "(any other player) laid down all 8; with penalty=6-7 the head laid down 6 or more, a tail 7 "
    "or more.",
    "• settlement=classic: every two players pay each other the difference of their scores, "
    "times 2 between clean and normal or between penalized and normal, times 4 between clean and "
    "penalized, times 1 for equal status. settlement=chips: the winner takes 1 chip from each, "
    "no multipliers. settlement=tally: scores add up to target, then the lowest total takes 1 "
    "chip from each.",
    "• eight_doubles=win: a player dealt eight doubles wins at once, and each other player pays "
    "him twice the pips in his own hand.",
    "",
    "Presets:",
    "• classic: the default, head-7/tail-8, classic settlement with multipliers.",
    "• strict: the stricter head-6/tail-7 rule (penalty=6-7).",
    "• eight-win: eight dealt doubles win at once, paid double (eight_doubles=win).",
    "• chips: 1 chip from each loser.",
    "",
    "Options (name=value):",
    "• penalty=7-8 or 6-7: how many face-down tiles penalize the head and a tail.",
    "• eight_doubles=redeal or win: eight dealt doubles mean a redeal or a win.",
    "• settlement=classic, chips or tally: how chips move.",
    "• lead=winner or rotate: the next deal is led by the winner or by the next hand in turn.",
    "• target=100: tally only, the total that ends the match.",
    "• deals=0: deals in a match (0 means no limit).",
    "Example: /newgame cedeng strict",
)

_TAILS_UK = _text(
    "Хвости (꼬리붙이기, Коріпут-ігі, корейська гра): 2–4 гравці, один рукав, базару немає.",
    "",
    "• Набір: учотирьох усі 32 плитки, по 8. Утрьох і вдвох з набору забирають обидві копії "
    "дублів [3:3], [4:4], [5:5] і [6:6] (лишається 24 плитки): утрьох по 8, удвох по 12.",
    "• Гра як у З'єднай дракона з одним рукавом. Перший гравець (у першій роздачі за жеребом) "
    "кладе будь-яку плитку й оголошує відкритий кінець. Хто має плитку під відкритий кінець, "
    "мусить її приєднати, інакше кладе одну плитку на вибір лицем донизу й пасує. Роздача "
    "закінчується, коли всі плитки викладено або відкладено; якщо ніхто вже не може нічого "
    "приєднати, плитки на руках рахуються як відкладені.",
    "• Очки: сума цяток відкладених плиток; виграє найменша сума, за рівності нижча рука.",
    "• Платять переможцю не всі: гравець із найбільшими очками (якщо таких кілька — той із них, "
    "чия рука пізніша за чергою) і кожен інший, у кого понад 30 очок (рівно 30 не платить).",
    "• settlement=chips: кожен платник дає переможцю 1 фішку. settlement=points: кожен платник "
    "дає різницю між своїми очками й очками переможця. settlement=tally: після роздач фішки не "
    "рухаються, очки накопичуються, і коли чийсь підсумок сягне target (або після deals роздач), "
    "найменший підсумок бере по 1 фішці з кожного.",
    "",
    "Пресети:",
    "• chips: типовий, по 1 фішці з кожного платника.",
    "• points: платники віддають різницю очок (settlement=points).",
    "",
    "Опції (назва=значення):",
    "• settlement=chips, points або tally: як рухаються фішки.",
    "• lead=winner або rotate: наступну роздачу починає переможець або наступна за чергою рука.",
    "• target=100: для tally, підсумок, на якому матч закінчується.",
    "• deals=0: скільки роздач у матчі (0 — без обмеження).",
    "Приклад: /newgame tails points",
)

_TAILS_EN = _text(
    "Tails (꼬리붙이기, Kkori-but-igi, a Korean game): 2 to 4 players, one arm, no stock.",
    "",
    "• Deck: 4 players use all 32 tiles, 8 each. For 3 or 2 players both copies of the doubles "
    "[3:3], [4:4], [5:5] and [6:6] are taken out (24 tiles left): 8 each for 3, 12 each for 2.",
    "• Play as in one-arm Dragon. The first player (by lot in the first deal) lays any tile and "
    "says which end is open. If you hold a tile that fits the open end you must attach it; "
    "otherwise you lay one tile of your choice face down and pass. The deal ends when every tile "
    "is placed or laid down; once nobody can attach anything, the tiles still in hand count as "
    "laid down.",
    "• Score: the pips on your face-down tiles; lowest wins, a tie goes to the lower hand.",
    "• Not everyone pays the winner: only the player with the highest score (on a tie, the "
    "latest hand among them) and everyone else with more than 30 (exactly 30 does not pay).",
    "• settlement=chips: each payer gives the winner 1 chip. settlement=points: each payer gives "
    "the difference between his score and the winner's. settlement=tally: no chips after a "
    "deal; scores add up, and when someone's total reaches target (or after the number of deals "
    "set by deals) the lowest total takes 1 chip from each.",
    "",
    "Presets:",
    "• chips: the default, 1 chip from each payer.",
    "• points: payers pay the difference of scores (settlement=points).",
    "",
    "Options (name=value):",
    "• settlement=chips, points or tally: how chips move.",
    "• lead=winner or rotate: the next deal is led by the winner or by the next hand in turn.",
    "• target=100: tally only, the total that ends the match.",
    "• deals=0: deals in a match (0 means no limit).",
    "Example: /newgame tails points",
)

_DOMINO_UK = _text(
    "Доміно (українська гра з базаром): 2–4 гравці, європейський набір дубль-шість із 28 "
    "плиток; порожня половинка — 0 балів.",
    "",
    "• Роздача: удвох по 7 плиток, утрьох і вчотирьох по 5; решта плиток лицем донизу — це "
    "базар.",
    "• Починає той, у кого найбільший дубль, і саме цим дублем (спершу питають [6:6], потім "
    "[5:5] і так далі). Якщо дублів немає ні в кого, плитки перемішують і здають знову. Так у "
    "кожній роздачі.",
    "• Ланцюжок має два кінці; плитку приставляють так, щоб числа на дотичних половинках "
    "збігалися. Дубль стоїть у ланцюжку й нових гілок не відкриває.",
    "• Хто може походити, мусить ходити. Хто не може: за draw=until бере з базару, доки не "
    "витягне плитку, що підходить, лишає собі все витягнуте й одразу кладе цю плитку (якщо базар "
    "скінчився, хід переходить далі); за draw=one бере одну плитку: якщо вона підходить — кладе, "
    "якщо ні — лишає собі, і хід переходить далі. Базар порожній: пас.",
    "• Роздача закінчується, коли хтось кладе останню плитку: він отримує суму балів на руках "
    "усіх інших. Якщо базар порожній і ніхто не може походити (риба), виграє той, у кого "
    "найменше балів на руках, і отримує суму балів усіх рук разом зі своєю; якщо найменше у "
    "кількох, ніхто нічого не отримує.",
    "• Матч виграє той, чий рахунок першим сягне target.",
    "• chips=pips: після кожної роздачі кожен переможений платить переможцю стільки фішок, "
    "скільки балів лишилося в нього на руках. chips=stake: після роздач фішки не рухаються, а "
    "переможець матчу бере по stake фішок з кожного.",
    "",
    "Пресети:",
    "• 100: типовий, гра до 100 балів.",
    "• 50: коротка гра до 50 (target=50).",
    "• one-draw: брати з базару лише одну плитку (draw=one).",
    "• stake: гра на ставку (chips=stake).",
    "",
    "Опції (назва=значення):",
    "• target=100 або 50: рахунок, що виграє матч.",
    "• draw=until або one: брати з базару до підхожої плитки чи лише одну.",
    "• chips=pips або stake: платити бали з руки після кожної роздачі чи ставку в кінці матчу.",
    "• stake=1: скільки фішок кожен платить переможцю матчу.",
    "Приклад: /newgame domino stake stake=5",
)

_DOMINO_EN = _text(
    "Domino (the Ukrainian draw game): 2 to 4 players, the double-six set of 28 tiles; a blank "
    "counts 0.",
    "",
    "• Deal: 7 tiles each for 2 players, 5 each for 3 or 4; the rest lies face down as the "
    "stock.",
    "• Whoever holds the highest double opens with it ([6:6] is asked for first, then [5:5] and "
    "so on). If nobody holds a double, the tiles are shuffled and dealt again. This happens "
    "every deal.",
    "• The line has two ends; a tile goes where its number matches the end it touches. A double "
    "sits in the line and never opens new branches.",
    "• If you can play, you must. If you cannot: with draw=until you draw from the stock until a "
    "tile fits, keep everything drawn and play that tile at once (if the stock runs out, the "
    "turn passes); with draw=one you draw one tile, play it if it fits, otherwise keep it and "
    "the turn passes. Empty stock: pass.",
    "• The deal ends when someone lays his last tile: he scores the pips left in all other "
    "hands. If the stock is empty and nobody can play, the player with the fewest pips in hand "
    "wins and scores the pips of all hands, his own included; if two or more tie for fewest, "
    "nobody scores.",
    "• The match is won by the first score to reach target.",
    "• chips=pips: after every deal each loser pays the winner as many chips as the pips left in "
    "his own hand. chips=stake: no chips after a deal; the match winner takes stake chips from "
    "each other player.",
    "",
    "Presets:",
    "• 100: the default, play to 100.",
    "• 50: the short game to 50 (target=50).",
    "• one-draw: draw a single tile only (draw=one).",
    "• stake: play for a stake (chips=stake).",
    "",
    "Options (name=value):",
    "• target=100 or 50: the score that wins the match.",
    "• draw=until or one: draw until a tile fits, or one tile only.",
    "• chips=pips or stake: pay the pips in hand every deal, or a stake at the end of the match.",
    "• stake=1: chips each player pays the match winner.",
    "Example: /newgame domino stake stake=5",
)


_DINGNIU_UK = _text(
    "Бій биків (頂牛, Дін Ню): рівно 4 гравці, 24 плитки — китайський набір без військових "
    "плиток, крім [6:3] і [6:2]; 12 дублів.",
    "",
    "• Роздача: по 6 плиток кожному, базару немає. Першу роздачу починає жереб, далі — "
    "переможець (lead=rotate: наступна рука).",
    "• Перший кладе будь-яку плитку; обидва кінці відкриті. Хто має плитку з числом одного з "
    "кінців, мусить приєднати одну (плитку й кінець обирає сам); дубль число не змінює. Хто не "
    "може, кладе одну плитку лицем донизу й пасує.",
    "• Блок (рахується лише за плитками в ряду): жодна недубльна плитка поза рядом не має числа "
    "відкритого кінця (повний блок: кінці 1–1, 4–4, 5–5 або 2–3), або четвірку чи п'ятірку вже "
    "не приєднати ніколи (задушений блок). Хто блок зробив, маючи хід без блоку, робить "
    "Суаньчжан; без вибору це вимушений блок, він не рахується.",
    "• Після повного блоку грають лише підхожі дублі; після задушеного роздача закінчується.",
    "• Очки: цятки плиток лицем донизу й тих, що лишилися на руках. Виграє найменше очок, за "
    "рівності — нижча рука; місця 2–4 за очками, за рівності вище стоїть вища рука.",
    "• settlement=chips: переможець +6, друге місце −1, третє −2, четверте −3. Суаньчжан, "
    "автор якого виграв: усе подвоєно (+12, −2, −4, −6); інакше автор платить переможцю 12, "
    "решта нічого. settlement=tally: лише очки, до target, без фішок.",
    "",
    "Пресети:",
    "• standard: типовий, як вище.",
    "• beginner: suanzhang=off, settlement=tally.",
    "• zhwiki: lead_rule=on і strict=on.",
    "",
    "Опції (назва=значення):",
    "• suanzhang=on: блок дає Суаньчжан (off — звичайний дракон з двома кінцями).",
    "• smothered=on: задушений блок теж блок.",
    "• doubles_after=on: після повного блоку ще грають дублі (off — роздача закінчується).",
    "• forced_counts=on: вимушений блок теж Суаньчжан.",
    "• strict=on: Суаньчжан вдається лише зі строго найменшими очками.",
    "• lead_rule=on: не можна почати плиткою, до якої ніхто інший не приєднається.",
    "• settlement=chips або tally; lead=winner або rotate; target=100 для tally; deals=0 — "
    "скільки роздач у матчі (0 — без обмеження).",
    "Приклад: /newgame dingniu zhwiki deals=4",
)

_DINGNIU_EN = _text(
    "Ding Niu (頂牛, Bull Fight): exactly 4 players, 24 tiles: the Chinese set without its "
    "military tiles except [6:3] and [6:2]; 12 doubles.",
    "",
    "• Deal: 6 tiles each, no stock. The first deal is led by lot, later ones by the winner "
    "(lead=rotate: the next hand).",
    "• The leader lays any tile; both ends are open. A player holding a tile that matches "
    "either end must attach one (he chooses tile and end); a double leaves the number as it "
    "was. A player who cannot lays one tile face down and passes.",
    "• A block (read from the line alone): no non-double off the line shows an open number (a "
    "full block: ends 1-1, 4-4, 5-5 or 2-3), or no 4 or 5 can ever be attached again (a "
    "smothered block). Its maker had a move that did not block: that is SuanZhang; without a "
    "choice it is a forced block and does not count.",
    "• After a full block only matching doubles are played; a smothered block ends the deal.",
    "• Points: the pips laid face down and left in hand. Fewest wins, a tie to the lower hand; "
    "places 2 to 4 by points, a tie to the higher hand.",
    "• settlement=chips: the winner +6, 2nd -1, 3rd -2, 4th -3. A SuanZhang whose maker wins: "
    "all doubled (+12, -2, -4, -6); otherwise the maker pays the winner 12, the rest nothing. "
    "settlement=tally: points only, to target, no chips.",
    "",
    "Presets:",
    "• standard: the default, as above.",
    "• beginner: suanzhang=off, settlement=tally.",
    "• zhwiki: lead_rule=on and strict=on.",
    "",
    "Options (name=value):",
    "• suanzhang=on: a block is SuanZhang (off: plain two-arm Dragon).",
    "• smothered=on: a smothered block is a block too.",
    "• doubles_after=on: doubles are still played after a full block (off: the deal ends).",
    "• forced_counts=on: a forced block is SuanZhang too.",
    "• strict=on: SuanZhang succeeds only with strictly the fewest points.",
    "• lead_rule=on: no lead nobody else could ever attach to.",
    "• settlement=chips or tally; lead=winner or rotate; target=100 for tally; deals=0: deals "
    "in a match (0: no limit).",
    "Example: /newgame dingniu zhwiki deals=4",
)

TEXTS: dict[str, dict[str, str]] = {
    "dragon": {"uk": _DRAGON_UK, "en": _DRAGON_EN},
    "cedeng": {"uk": _CEDENG_UK, "en": _CEDENG_EN},
    "tails": {"uk": _TAILS_UK, "en": _TAILS_EN},
    "dingniu": {"uk": _DINGNIU_UK, "en": _DINGNIU_EN},
    "domino": {"uk": _DOMINO_UK, "en": _DOMINO_EN},
}
