"""Screens built from views and events: the lobby, the table, a hand, a deal's result.

DESIGN.md §4 and §8. Everything shown comes from a public view (the table, the result) or the
seat's own view (a hand), never from a state, and every word from the catalogue. Buttons come only
from the view's legal moves (DESIGN.md §1 invariant 5); a hand with more moves than fit on a phone
is shown in two taps: first the tile, then what to do with it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import games
from bot import payload
from bot.describe import describe, pairs_text, tile_text
from bot.i18n import signed, tr
from bot.payload import AGAIN
from bot.screens import Button, Countdown, Keyboard, Picture, Screen, TileChoice, Tone, rows
from bot.seating import Game, Seat
from games.engine import Action, Event, Match, Outcome
from games.kap import KapTaiShapOptions, KapView
from games.threedozen import ThreeDozenView
from games.tiengow import TienGowView, dead
from games.tiles import TileSet
from rendering import Table, hand_labels
from storage import Session

MAX_MOVE_BUTTONS = 24
"""More legal moves than this are chosen in two taps (tile, then move)."""
COUNTDOWN_STEPS = (60, 30, 10)
"""Seconds left at which the table's countdown is refreshed; in between it is rounded up."""
_MARK = "\x00"


def title(game: Game, lang: str) -> str:
    name = game.rules.title.get(lang) or game.rules.title["en"]
    return f"{name} · {game.preset}" if game.preset else name


def names(seats: Sequence[Seat]) -> tuple[str, ...]:
    return tuple(s.name for s in seats)


def countdown(lang: str, seconds: float) -> str:
    """Time left rounded up to a step a reader can trust: whole minutes above five, half
    minutes above one, then the 60/30/10 s steps at which the table is refreshed."""
    left = max(0.0, seconds)
    if left > 5 * 60:
        return tr(lang, "time.minutes", math.ceil(left / 60))
    if left > COUNTDOWN_STEPS[0]:
        return tr(lang, "time.seconds", 30 * math.ceil(left / 30))
    if left <= COUNTDOWN_STEPS[-1]:
        return tr(lang, "time.seconds", max(1, math.ceil(left)))
    step = next((s for s in reversed(COUNTDOWN_STEPS) if left <= s), COUNTDOWN_STEPS[0])
    return tr(lang, "time.seconds", step)


def next_refresh(seconds_left: float) -> float | None:
    """Seconds until the countdown shown on the table would change, or None."""
    for step in COUNTDOWN_STEPS:
        if seconds_left > step:
            return seconds_left - step
    return None


@dataclass(frozen=True, slots=True)
class Clock:
    """When a screen is made and what its countdown counts to (None: no countdown)."""

    now: float
    deadline: float | None = None


class Lines:
    """A screen's text line by line, and where in it the time left is shown."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.countdown: Countdown | None = None

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)

    def add_timed(self, lang: str, key: str, clock: Clock, **fields: object) -> None:
        """A line with `{left}` filled in with the time until `clock.deadline`."""
        deadline = clock.deadline if clock.deadline is not None else clock.now
        shown = countdown(lang, deadline - clock.now)
        before, _, after = tr(lang, key, left=_MARK, **fields).partition(_MARK)
        start = sum(len(line) + 1 for line in self.lines) + len(before)
        self.countdown = Countdown(deadline, start, start + len(shown))
        self.lines.append(before + shown + after)

    def screen(self, picture: Picture | None = None, keyboard: Keyboard = (),
               choice: TileChoice | None = None) -> Screen:
        return Screen("\n".join(self.lines), picture, keyboard, choice, self.countdown)


# ----- lobby ------------------------------------------------------------------------------------

def lobby(session: Session, game: Game, seats: Sequence[Seat], lang: str, clock: Clock
          ) -> Screen:
    rules = game.rules
    span = (str(rules.min_players) if rules.min_players == rules.max_players
            else f"{rules.min_players}–{rules.max_players}")
    lines = Lines(tr(lang, "lobby.title", game=title(game, lang), stake=session.stake))
    options = _options_line(game, lang)
    if options:
        lines.add(options)
    lines.add(tr(lang, "lobby.players", span=span))
    lines.add(*(f"{i + 1}. {s.name}" for i, s in enumerate(seats)))
    missing = rules.min_players - len(seats)
    if missing > 0:
        lines.add(tr(lang, "lobby.need", missing))
    lines.add_timed(lang, "lobby.closes", clock)
    version = session.version

    def button(key: str, code: str, tone: Tone = "") -> Button:
        return Button(tr(lang, key), payload.encode(session.id, version, code), tone=tone)

    start = (button("btn.start", "!start", "main") if missing <= 0 else
             Button(tr(lang, "btn.start_need", missing),
                    payload.encode(session.id, version, "!start"), tone="main", enabled=False))
    keyboard: Keyboard = (
        (Button(tr(lang, "btn.join"), link=("join", session.id), tone="go"),
         button("btn.leave", "!leave", "stop")),
        (button("btn.add", "!add"), button("btn.remove", "!remove")),
        (start,),
    )
    return lines.screen(keyboard=keyboard)


def _options_line(game: Game, lang: str) -> str:
    """The options that differ from the preset's, so a table shows what it is playing."""
    if not game.values:
        return ""
    return tr(lang, "lobby.options", options=", ".join(f"{k}={_value(v)}"
                                                      for k, v in sorted(game.values.items())))


def _value(v: Any) -> str:
    return ("on" if v else "off") if isinstance(v, bool) else str(v)


# ----- the table --------------------------------------------------------------------------------

def table(session: Session, game: Game, seats: Sequence[Seat], state: Any, lang: str,
          events: Sequence[Event], clock: Clock, theme: str = "dark", closed: bool = False
          ) -> Screen:
    """The group's one table message: the board picture, whose turn, the countdown, buttons.
    `events` are the last move's, shown until the next move; a `closed` table (the match is
    over) keeps the board and loses its buttons."""
    rules = game.rules
    view = rules.view(state, None)
    tiles = rules.tileset(game.options)
    ends = len(view.ends) if hasattr(view, "ends") else 1
    # One move can say several things (a Tien Gow follow, then who took the trick): all of it.
    last = [e for e in events if e.kind != "end"]
    footer = " · ".join(describe(e, names(seats), tiles, lang, ends) for e in last)
    picture = Picture("board", Table(
        title=title(game, lang), names=names(seats), footer=footer, lang=lang, theme=theme,
        last=tuple(t for e in last for t in e.tiles), stake=session.stake), view)
    lines = Lines(tr(lang, "table.title", game=title(game, lang), deal=view.match.deal + 1,
                     stake=session.stake))
    outcome: Outcome | None = rules.outcome(state)
    if outcome is None and view.to_move is not None:
        mover = seats[view.to_move]
        if mover.automatic:
            key = "table.thinking" if mover.computer else "table.away_move"
            lines.add(tr(lang, key, name=mover.name))
        else:
            lines.add_timed(lang, "table.to_move", clock, name=mover.name)
    elif outcome is not None:
        lines.add(deal_summary(seats, outcome, lang))
    if footer:
        lines.add(footer)
    lines.add(*family(view).caption(view, names(seats), session.stake, lang))
    away = [s.name for s in seats if s.away]
    if away and not closed:
        lines.add(tr(lang, "table.away", names=", ".join(away)))
    if closed:
        lines.add(tr(lang, "table.over"))
        return lines.screen(picture)
    code = payload.encode
    keyboard: list[tuple[Button, ...]] = [(
        Button(tr(lang, "btn.peek"), code(session.id, session.version, "!peek")),
        Button(tr(lang, "btn.my_tiles"), link=("hand", session.id), tone="main"),
    )]
    if away:
        keyboard.append((Button(tr(lang, "btn.back"),
                                code(session.id, session.version, "!back")),))
    return lines.screen(picture, tuple(keyboard))


def deal_summary(seats: Sequence[Seat], outcome: Outcome, lang: str) -> str:
    winners = ", ".join(seats[w].name for w in outcome.winners) or tr(lang, "result.nobody")
    reason = tr(lang, f"reason.{outcome.reason}")
    return tr(lang, "result.line", winners=winners, reason=reason)


def result(session: Session, game: Game, seats: Sequence[Seat], state: Any, lang: str,
           after: Match, clock: Clock, theme: str = "dark") -> Screen:
    """The deal's result card, posted as a new message: it is news, not a table update. At the
    match's end it offers to play again with the same players."""
    rules = game.rules
    view = rules.view(state, None)
    outcome: Outcome = view.outcome
    notes = tuple(tr(lang, f"label.{label}") for label in outcome.labels)
    picture = Picture("result", Table(title=title(game, lang), names=names(seats), lang=lang,
                                      theme=theme, notes=notes), view)
    lines = Lines(tr(lang, "result.title", deal=view.match.deal + 1),
                  deal_summary(seats, outcome, lang))
    for seat, delta in zip(seats, outcome.deltas, strict=True):
        lines.add(tr(lang, "result.chips", name=seat.name, chips=signed(delta * session.stake)))
    if after.over:
        winner = seats[after.winner].name if after.winner is not None else ""
        lines.add(tr(lang, "result.match_over", name=winner))
    elif clock.deadline is not None:
        lines.add_timed(lang, "result.next", clock)
    if clock.deadline is not None:
        return lines.screen(picture)
    again = Button(tr(lang, "btn.again"), payload.encode(session.id, 0, AGAIN), tone="main")
    return lines.screen(picture, ((again,),))


# ----- a hand -----------------------------------------------------------------------------------

def hand(session: Session, game: Game, seats: Sequence[Seat], state: Any, seat: int, lang: str,
         clock: Clock, picked: str | None = None, theme: str = "dark", ended: str = ""
         ) -> Screen:
    """A player's private hand: the picture and, on their turn, one button per legal move.
    Once the deal is over it shows the result and the player's chips; `ended` says why the game
    is over (stopped, or the match ended), and then no button is left."""
    rules = game.rules
    view = rules.view(state, seat)
    labels = hand_labels(len(view.hand))
    lines = Lines(tr(lang, "hand.title", game=title(game, lang), deal=view.match.deal + 1))
    me = seats[seat]
    keyboard: Keyboard = ()
    choice: TileChoice | None = None
    outcome: Outcome | None = rules.outcome(state)
    mine = view.to_move == seat and outcome is None
    if outcome is not None:
        lines.add(deal_summary(seats, outcome, lang),
                  tr(lang, "hand.chips", chips=signed(outcome.deltas[seat] * session.stake)))
    if ended:
        lines.add(ended)
    elif me.away:
        lines.add(tr(lang, "hand.away"))
        keyboard = ((Button(tr(lang, "btn.back"),
                            payload.encode(session.id, session.version, "!back"), tone="main"),),)
    elif mine:
        lines.add_timed(lang, "hand.your_turn", clock)
        hint = _hint(view, lang)
        if hint:
            lines.add(hint)
        keyboard = moves_keyboard(session, game, view, labels, lang, picked)
        choice = tile_choice(session, game, view, labels, lang)
    elif view.to_move is not None and outcome is None:
        lines.add(tr(lang, "hand.waiting", name=seats[view.to_move].name))
    picture = Picture("hand", Table(title=title(game, lang), names=names(seats), lang=lang,
                                    theme=theme), view)
    return lines.screen(picture, keyboard, choice)


def tile_choice(session: Session, game: Game, view: Any, labels: Sequence[str], lang: str
                ) -> TileChoice | None:
    """When the moves are grouped (two taps), a platform with a multi-select lets the player
    pick a play's tiles at once instead; only where every move names its tiles."""
    legal: tuple[Action, ...] = view.legal
    if len(legal) <= MAX_MOVE_BUTTONS or not all(a.tiles for a in legal):
        return None
    tiles = game.rules.tileset(game.options)
    sizes = [len(a.tiles) for a in legal]
    return TileChoice(tr(lang, "hand.choose_tiles"),
                      tuple((labels[i], tile_text(tiles, t)) for i, t in enumerate(view.hand)),
                      min(sizes), max(sizes),
                      payload.encode(session.id, session.version, "!tiles"))


def moves_by_letters(view: Any, letters: Sequence[str]) -> list[Action]:
    """The legal moves that play exactly the hand tiles with these letters, in any order."""
    labels = hand_labels(len(view.hand))
    by_tile = {t: labels[i] for i, t in enumerate(view.hand)}
    wanted = sorted(letters)
    legal: tuple[Action, ...] = view.legal
    return [a for a in legal if a.tiles and sorted(by_tile.get(t, "?") for t in a.tiles) == wanted]


def picks(view: Any, picked: str, lang: str) -> bool:
    """Whether a first tap's key names one of the hand's groups of moves ("=A-B": the moves
    of those tiles), as `moves_keyboard` made them."""
    if picked.startswith("="):
        return bool(moves_by_letters(view, picked[1:].split("-")))
    legal: tuple[Action, ...] = view.legal
    if len(legal) <= MAX_MOVE_BUTTONS:
        return False
    labels = hand_labels(len(view.hand))
    by_tile = {t: labels[i] for i, t in enumerate(view.hand)}
    return picked in family(view).groups(legal, by_tile, lang)


def _hint(view: Any, lang: str) -> str:
    return family(view).hint(view, lang)


Groups = dict[str, tuple[str, list[Action]]]
"""Group key (sent back as `!pick-KEY`) -> the group button's label and its moves."""


def moves_keyboard(session: Session, game: Game, view: Any, labels: Sequence[str], lang: str,
                   picked: str | None = None) -> Keyboard:
    """One button per legal move; more than `MAX_MOVE_BUTTONS` are grouped so that every move
    is at most two taps away and no screen holds more than `MAX_MOVE_BUTTONS` moves."""
    tiles = game.rules.tileset(game.options)
    legal: tuple[Action, ...] = view.legal
    by_tile = {t: labels[i] for i, t in enumerate(view.hand)}
    words = family(view)

    def move(action: Action) -> Button:
        return Button(move_label(action, by_tile, view, tiles, lang),
                      payload.encode(session.id, session.version, action.code(tiles)))

    def laid_out(actions: Sequence[Action]) -> Keyboard:
        if not words.fitted:
            return rows([move(a) for a in actions], 3)
        # A word ("Draw from the stock") gets a row of its own, so the tiles keep their width.
        placed = [move(a) for a in actions if a.tiles]
        said = [move(a) for a in actions if not a.tiles]
        return (*rows(placed, _per_row(placed)), *rows(said, 1))

    if picked and picked.startswith("="):
        chosen = moves_by_letters(view, picked[1:].split("-"))
        back = Button(tr(lang, "btn.back_to_tiles"),
                      payload.encode(session.id, session.version, "!pick"))
        return (*laid_out(chosen), (back,))
    if len(legal) <= MAX_MOVE_BUTTONS:
        return laid_out(legal)
    groups = words.groups(legal, by_tile, lang)
    if picked and picked in groups:
        back = Button(tr(lang, "btn.back_to_tiles"),
                      payload.encode(session.id, session.version, "!pick"))
        return (*laid_out(groups[picked][1]), (back,))
    buttons = [Button(label if len(acts) > 1 else move_label(acts[0], by_tile, view, tiles, lang),
                      payload.encode(session.id, session.version,
                                     f"!pick-{key}" if len(acts) > 1 else acts[0].code(tiles)))
               for key, (label, acts) in groups.items()]
    return rows(buttons, _per_row(buttons) if words.fitted else 4)


def _tile_groups(legal: Sequence[Action], by_tile: dict[int, str], lang: str) -> Groups:
    """Moves grouped by the tile they lay: first the tile, then where it goes."""
    groups: Groups = {}
    for action in legal:
        key = "".join(by_tile.get(t, "?") for t in action.tiles) or action.verb
        groups.setdefault(key, (key, []))[1].append(action)
    return groups


def _trick_groups(legal: Sequence[Action], by_tile: dict[int, str], lang: str) -> Groups:
    """Tien Gow's grouping: leads by how many tiles they use; follows as the beating plays,
    then the face-down choices grouped by their first letters, as few letters as keep both
    screens within `MAX_MOVE_BUTTONS`. A hand of eight answering a lead of four has 70
    face-down choices: 21 groups of at most 15."""
    groups: Groups = {}
    if legal and legal[0].verb == "lead":
        for action in legal:
            size = len(action.tiles)
            groups.setdefault(str(size), (tr(lang, "group.tiles", size), []))[1].append(action)
        return groups
    beats = [a for a in legal if a.verb == "beat"]
    folds = [a for a in legal if a.verb == "fold"]
    if beats:
        groups["up"] = (tr(lang, "group.beat"), beats)
    size = len(folds[0].tiles) if folds else 0
    for prefix in range(size + 1):
        split: Groups = {}
        for action in folds:
            letters = [by_tile.get(t, "?") for t in action.tiles[:prefix]]
            key = "d" + "".join(letters)
            label = "↓ " + " ".join(letters) + " …" if letters else "↓ …"
            split.setdefault(key, (label, []))[1].append(action)
        if (max(len(acts) for _, acts in split.values()) <= MAX_MOVE_BUTTONS
                and len(split) + len(groups) <= MAX_MOVE_BUTTONS):
            break
    groups.update(split)
    return groups


def _per_row(buttons: Sequence[Button]) -> int:
    """As many buttons per row as their labels leave room for on a phone."""
    longest = max((len(b.label) for b in buttons), default=0)
    return 4 if longest <= 8 else 3 if longest <= 12 else 2 if longest <= 20 else 1


def move_label(action: Action, by_tile: dict[int, str], view: Any, tiles: TileSet, lang: str
               ) -> str:
    """A move's button: the hand letters match the hand picture, so a move is found by eye."""
    return family(view).label(action, by_tile, view, tiles, lang)


def _line_label(action: Action, by_tile: dict[int, str], view: Any, tiles: TileSet, lang: str
                ) -> str:
    """"A 6:4 →4" leads with an open end, "◀ A 6:4" / "A 6:4 ▶" chooses the end, "A 6:4 ↓"
    lays a tile face down; a move without tiles is a word ("Draw", "Pass")."""
    if not action.tiles:
        return tr(lang, f"btn.{action.verb}")
    parts = [f"{by_tile.get(t, '?')} {tile_text(tiles, t)}" for t in action.tiles]
    text = " ".join(parts)
    if action.verb == "lead" and action.arg is not None:
        return f"{text} →{action.arg}"
    if action.verb == "play" and len(getattr(view, "ends", ())) == 2:
        return f"◀ {text}" if action.arg == 0 else f"{text} ▶"
    if action.verb == "drop":
        return f"{text} ↓"
    return text


def _trick_label(action: Action, by_tile: dict[int, str], view: Any, tiles: TileSet, lang: str
                 ) -> str:
    """"A B 6:2 5:3" for a lead, "▲ A 6:6" for a beating follow, "↓ A B" face down (tile
    faces only while they fit: the letters match the hand picture)."""
    letters = " ".join(by_tile.get(t, "?") for t in action.tiles)
    faces = " ".join(tile_text(tiles, t) for t in action.tiles)
    if action.verb == "fold":
        return f"↓ {letters} {faces}" if len(action.tiles) <= 2 else f"↓ {letters}"
    mark = "▲ " if action.verb == "beat" else ""
    return f"{mark}{letters} {faces}"


def _collect_label(action: Action, by_tile: dict[int, str], view: Any, tiles: TileSet,
                   lang: str) -> str:
    """"⤴ 6:6" takes from the discards (a pile tile has no hand letter; "⤴ 1:0 + C 6:5" also
    lays out its partner), "A 6:6 ↓" discards, "A+B 3:3 4:4" lays out a pair."""
    def lettered(tile: int) -> str:
        return f"{by_tile.get(tile, '?')} {tile_text(tiles, tile)}"

    if action.verb == "take":
        first, *partners = action.tiles
        return f"⤴ {tile_text(tiles, first)}" + "".join(f" + {lettered(t)}" for t in partners)
    if action.verb == "meld":
        letters = "+".join(by_tile.get(t, "?") for t in action.tiles)
        return f"{letters} " + " ".join(tile_text(tiles, t) for t in action.tiles)
    if action.verb == "discard":
        return " ".join(map(lettered, action.tiles)) + " ↓"
    return tr(lang, "btn.draw_stock")


# ----- hints and captions, per family -----------------------------------------------------------

def _line_hint(view: Any, lang: str) -> str:
    verbs = {a.verb for a in view.legal}
    if verbs == {"lead"} and any(a.arg is not None for a in view.legal):
        return tr(lang, "hint.lead_open_end")
    if verbs == {"drop"}:
        return tr(lang, "hint.drop")
    return ""


def _trick_hint(view: TienGowView, lang: str) -> str:
    if not view.trick:
        return tr(lang, "hint.tg_lead")
    lead = view.trick[0].size
    if view.seat is not None and dead(view.options, lead, len(view.hand), view.tricks[view.seat]):
        return tr(lang, "hint.tg_dead")
    return tr(lang, "hint.tg_follow", lead)


_KAP_OPEN = {"culin": "hint.kap_culin", "classical": "hint.kap_classical"}
_KAP_RULES = {"culin": "table.culin", "classical": "table.classical"}


def _kap_hint(view: KapView, lang: str) -> str:
    """The turn's step: under Culin's rules a take is paid for by a discard before the
    compulsory draw ("swap"), and the first player's first turn starts with that discard."""
    if view.phase == "open":
        # Nothing face up yet (the first turn of an even deal): the draw is the only move.
        return tr(lang, _KAP_OPEN[view.options.rules] if view.takeable else "hint.kap_draw")
    if view.phase == "swap":
        return tr(lang, "hint.kap_first" if view.taken is None else "hint.kap_swap")
    return tr(lang, "hint.discard" if view.taken is None else "hint.kap_taken")


def _three_dozen_hint(view: ThreeDozenView, lang: str) -> str:
    """Whether the last discard may (or must) be taken depends on the seat's own tiles, so the
    hint reads the legal moves rather than the pile."""
    if view.phase == "open":
        verbs = {a.verb for a in view.legal}
        if "take" not in verbs:
            return tr(lang, "hint.td_draw")
        return tr(lang, "hint.td_open" if "draw" in verbs else "hint.td_forced")
    if view.phase == "meld":
        return tr(lang, "hint.td_meld")
    return tr(lang, "hint.discard")


def _no_caption(view: Any, names: Sequence[str], stake: int, lang: str) -> list[str]:
    return []


def _trick_caption(view: TienGowView, names: Sequence[str], stake: int, lang: str
                   ) -> list[str]:
    """The banker and the tricks taken (words for those who read captions)."""
    tricks = " · ".join(f"{name} {n}" for name, n in zip(names, view.tricks, strict=True))
    return [tr(lang, "table.banker", name=names[view.banker], multiplier=view.multiplier),
            tr(lang, "table.tricks", tricks=tricks)]


def stock_line(view: KapView | ThreeDozenView, stake: int, lang: str) -> str:
    """A collecting game's state in one line: Kap's rule set (it decides which discards may be
    taken) and, in Kap Tai Shap, the sets shuffled together; the turn, the stock and the pot in
    chips (the view counts it in antes or stakes); Three Dozen's reshuffles so far."""
    facts: list[str] = []
    if isinstance(view, KapView):
        facts.append(tr(lang, _KAP_RULES[view.options.rules]))
        if isinstance(view.options, KapTaiShapOptions):
            facts.append(tr(lang, "table.sets", view.sets))
    facts += [tr(lang, "table.turn", view.turns), tr(lang, "table.stock", view.stock),
              tr(lang, "table.pot", view.pot * stake)]
    if isinstance(view, ThreeDozenView) and view.reshuffles:
        facts.append(tr(lang, "table.reshuffles", view.reshuffles))
    return " · ".join(facts)


def winning_line(view: KapView, names: Sequence[str], lang: str) -> str:
    """The winning hand laid out as eye and tens, once the deal is won ("" before)."""
    winners = view.outcome.winners if view.outcome is not None else ()
    if view.winning is None or not winners:
        return ""
    tiles = _tiles_of(view)
    eye, tens = view.winning
    return tr(lang, "table.winning", name=names[winners[0]], eye=pairs_text(tiles, eye),
              tens=pairs_text(tiles, [t for pair in tens for t in pair]))


def laid_pairs(view: ThreeDozenView, seat: int) -> str:
    """"[3:3][4:4] [6:0][5:1]": the pairs a seat has laid out, "" when none."""
    return pairs_text(_tiles_of(view), [t for pair in view.melds[seat] for t in pair])


def _kap_caption(view: KapView, names: Sequence[str], stake: int, lang: str) -> list[str]:
    """Besides the stock, the winning hand once the deal is won: the picture shows the tiles,
    the caption says how they pair."""
    won = winning_line(view, names, lang)
    return [stock_line(view, stake, lang), *([won] if won else [])]


def _three_dozen_caption(view: ThreeDozenView, names: Sequence[str], stake: int, lang: str
                         ) -> list[str]:
    """Besides the stock, the pairs every seat has laid out: they are public and tell who is
    close to winning."""
    laid = " · ".join(f"{name} {laid_pairs(view, seat) or '—'}"
                      for seat, name in enumerate(names))
    return [stock_line(view, stake, lang), tr(lang, "table.pairs", pairs=laid)]


def _tiles_of(view: Any) -> TileSet:
    return games.get(view.game).tileset(view.options)


# ----- the families -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Family:
    """What differs between families of games on screen: a move's button label, the hint under
    a hand, the lines under the table's title, and how moves too many for one screen are
    grouped. One entry per view type keeps `table`, `hand` and `moves_keyboard` free of
    per-game branches."""

    label: Callable[[Action, dict[int, str], Any, TileSet, str], str]
    hint: Callable[[Any, str], str]
    caption: Callable[[Any, Sequence[str], int, str], list[str]] = _no_caption
    groups: Callable[[Sequence[Action], dict[int, str], str], Groups] = _tile_groups
    fitted: bool = True
    """Buttons per row from their labels' length; the line games keep their fixed rows."""


LINE = Family(_line_label, _line_hint, fitted=False)
"""Dragon, Ce Deng, Tails and ДОМІНО: tiles laid on a line."""
FAMILIES: dict[type[Any], Family] = {
    TienGowView: Family(_trick_label, _trick_hint, _trick_caption, _trick_groups),
    KapView: Family(_collect_label, _kap_hint, _kap_caption),
    ThreeDozenView: Family(_collect_label, _three_dozen_hint, _three_dozen_caption),
}


def family(view: Any) -> Family:
    return FAMILIES.get(type(view), LINE)


def peek(game: Game, state: Any, seat: int, lang: str) -> str:
    """The caller's tiles as a private alert (≤ 200 characters, Telegram's limit)."""
    view = game.rules.view(state, seat)
    tiles = game.rules.tileset(game.options)
    labels = hand_labels(len(view.hand))
    text = tr(lang, "peek.tiles", tiles=" · ".join(
        f"{labels[i]} {tile_text(tiles, t)}" for i, t in enumerate(view.hand)))
    if view.to_move == seat:
        text += "\n" + tr(lang, "peek.your_turn")
    return text[:200]
