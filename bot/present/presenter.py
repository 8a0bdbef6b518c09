"""Screens built from views and events: the lobby, the table, a hand, a deal's result.

docs/architecture.md §4 and §8. Everything shown comes from a public view (the table, the result) or
the seat's own view (a hand), never from a state (a test reads this package's code to make sure),
and every word from the catalogue, in the language the caller gives: the chat's for what the chat
sees, the player's own for their hand. What differs from game to game (captions, hints, the words of
the last move) comes from the home of the view's game (`faces`); the move buttons are
`bot.present.keyboards`'.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.present import payload
from bot.present.keyboards import moves_keyboard, tile_choice
from bot.present.payload import ADD as ADD_COMPUTER
from bot.present.payload import AGAIN, BACK, LEAVE, PEEK, REMOVE, START
from bot.present.screens import Button, Countdown, Keyboard, Picture, Screen, TileChoice, Tone
from bot.session.seating import Game, Seat, computer_name
from bot.session.stakes import Paid
from faces import home_of
from faces.home import team_name
from faces.moves import tile_text
from faces.presets import game_title
from games import seeds
from games.engine import Event, Match, Outcome, View
from rendering import Frame, hand_labels
from storage import Session
from storage.accounts import DEFAULT_LEVEL
from words.i18n import signed, tr

COUNTDOWN_STEPS = (60, 30, 10)
"""Seconds left at which the table's countdown is refreshed; in between it is rounded up."""
_MARK = "\x00"


def title(game: Game, lang: str) -> str:
    """A session's game's title and its preset, both in `lang` (`faces.presets.game_title`)."""
    return game_title(game.rules.id, game.preset, lang)


def names(seats: Sequence[Seat]) -> tuple[str, ...]:
    return tuple(s.name for s in seats)


def in_language(seats: Sequence[Seat], lang: str) -> list[Seat]:
    """The seats with the computers named in the screen's language: their names were given
    in the chat's, and a player's hand may be in another."""
    shown = []
    for seat in seats:
        name = computer_name(seat.platform_id, lang) if seat.computer else seat.name
        shown.append(seat if name in (seat.name, seat.platform_id)
                     else dataclasses.replace(seat, name=name))
    return shown


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

def lobby(session: Session, game: Game, seats: Sequence[Seat], lang: str, clock: Clock,
          level: str = DEFAULT_LEVEL, buy_in: int = 0, app: bool = False) -> Screen:
    """The lobby: who sits (each computer with its level), what each person brings to the
    table (`buy_in`; 0: a practice table, where nothing is at stake) and its buttons. A
    computer is added at a level by one tap, one button a level in one row; the chat's own
    level (`level`) is the plain "add a computer" (`!add`), the others name theirs
    (`!add-strong`). Only the levels the game offers have a button (`Rules.levels`), and
    `level` is one of them. With `app`, a button opens the game's web table."""
    seats = in_language(seats, lang)
    rules = game.rules
    span = (str(rules.min_players) if rules.min_players == rules.max_players
            else f"{rules.min_players}–{rules.max_players}")
    lines = Lines(tr(lang, "lobby.title", game=title(game, lang), stake=session.stake))
    options = _options_line(game, lang)
    if options:
        lines.add(options)
    lines.add(tr(lang, "lobby.players", span=span))
    teams = rules.teams(max(len(seats), rules.min_players))
    lines.add(*(f"{i + 1}. {seat_line(s, lang)}"
                + (f" · {team_name(teams[i], lang)}" if teams and i < len(teams) else "")
                for i, s in enumerate(seats)))
    lines.add(*partners(teams, lang))
    missing = rules.min_players - len(seats)
    if missing > 0:
        lines.add(tr(lang, "lobby.need", missing))
    lines.add(tr(lang, "lobby.buy_in", buy_in) if buy_in else tr(lang, "lobby.practice"))
    lines.add(*host_line(session, seats, lang))
    lines.add_timed(lang, "lobby.closes", clock)
    version = session.version

    def button(key: str, code: str, tone: Tone = "") -> Button:
        return Button(tr(lang, key), payload.encode(session.id, version, code), tone=tone)

    start = (button("btn.start", START, "main") if missing <= 0 else
             Button(tr(lang, "btn.start_need", missing),
                    payload.encode(session.id, version, START), tone="main", enabled=False))
    keyboard: Keyboard = (
        (Button(tr(lang, "btn.join"), link=("join", session.id), tone="go"),
         button("btn.leave", LEAVE, "stop")),
        tuple(button(f"btn.add_{each}",
                     ADD_COMPUTER if each == level else f"{ADD_COMPUTER}-{each}")
              for each in rules.levels),
        (button("btn.remove", REMOVE),),
        (start,),
        *web_table(session, lang, app),
    )
    return lines.screen(keyboard=keyboard)


def web_table(session: Session, lang: str, app: bool, watch: bool = False) -> Keyboard:
    """The row that opens the game's web table, where there is one (`app`), and with `watch`
    the Watch link next to it: anyone in the group may follow the game live."""
    row = []
    if app:
        row.append(Button(tr(lang, "btn.web_table"), link=("app", session.id), tone="main"))
    if watch:
        row.append(Button(tr(lang, "btn.watch"), link=("watch", session.id)))
    return (tuple(row),) if row else ()


def seat_line(seat: Seat, lang: str) -> str:
    """A seat as the lobby lists it: a computer with its level ("Computer 1 (strong)")."""
    if not seat.computer:
        return seat.name
    return f"{seat.name} ({tr(lang, f'level.{seat.plays_at}')})"


def members(teams: Sequence[int]) -> list[list[int]]:
    """The seats of each team, teams in order of their numbers."""
    found: dict[int, list[int]] = {}
    for seat, team in enumerate(teams):
        found.setdefault(team, []).append(seat)
    return [found[team] for team in sorted(found)]


def partners(teams: Sequence[int] | None, lang: str) -> list[str]:
    """Where a game is played in partnerships (`Rules.teams`), which seats play together:
    "Partners sit opposite: 1 & 3 against 2 & 4."."""
    if teams is None:
        return []
    said = tr(lang, "lobby.against").join(" & ".join(str(s + 1) for s in seats)
                                          for seats in members(teams))
    return [tr(lang, "lobby.partners", teams=said)]


def _options_line(game: Game, lang: str) -> str:
    """The options that differ from the preset's, so a table shows what it is playing."""
    if not game.values:
        return ""
    return tr(lang, "lobby.options", options=", ".join(f"{k}={_value(v)}"
                                                      for k, v in sorted(game.values.items())))


def _value(v: Any) -> str:
    return ("on" if v else "off") if isinstance(v, bool) else str(v)


# ----- the table --------------------------------------------------------------------------------

def table(session: Session, game: Game, seats: Sequence[Seat], view: View[Any], lang: str,
          events: Sequence[Event], clock: Clock, theme: str = "dark", closed: bool = False,
          app: bool = False, watch: bool = False) -> Screen:
    """The group's one table message from the public view: the board picture, whose turn, the
    countdown, buttons. `events` are the last move's, shown until the next move; a `closed`
    table (the match is over) keeps the board and loses its buttons. With `app`, a button
    opens the game's web table, and with `watch`, one lets anyone watch the game."""
    seats = in_language(seats, lang)
    home = home_of(view)
    footer = home.footer(events, view, names(seats), lang)
    picture = Picture("board", Frame(
        title=title(game, lang), names=names(seats), footer=footer, lang=lang, theme=theme,
        last=tuple(t for e in events for t in home.ringed(e)), stake=session.stake),
        view)
    lines = Lines(tr(lang, "table.title", game=title(game, lang), deal=view.match.deal + 1,
                     stake=session.stake))
    if view.outcome is None:
        lines.add(tr(lang, "table.fingerprint", fingerprint=fingerprint(game, view)))
    outcome = view.outcome
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
    lines.add(*home.caption(view, names(seats), session.stake, lang))
    if closed:
        lines.add(tr(lang, "table.over"))
        return lines.screen(picture)
    free = [s.name for s in seats if s.automatic]
    if free:
        lines.add(tr(lang, "table.free", names=", ".join(free)))
    lines.add(*host_line(session, seats, lang))
    code = payload.encode
    keyboard: list[tuple[Button, ...]] = [(
        Button(tr(lang, "btn.peek"), code(session.id, session.version, PEEK)),
        Button(tr(lang, "btn.my_tiles"), link=("hand", session.id), tone="main"),
    )]
    row: list[Button] = []
    if any(s.away and s.person for s in seats):
        row.append(Button(tr(lang, "btn.back"), code(session.id, session.version, BACK)))
    if free:
        row.append(Button(tr(lang, "btn.join"), link=("join", session.id), tone="go"))
    if row:
        keyboard.append(tuple(row))
    keyboard.extend(web_table(session, lang, app, watch))
    return lines.screen(picture, tuple(keyboard))


def host_line(session: Session, seats: Sequence[Seat], lang: str) -> tuple[str, ...]:
    """Who runs the table (its creator, or whoever the role passed to), if they sit at it."""
    host = next((s for s in seats if s.person and s.user_id == session.creator_id), None)
    return () if host is None else (tr(lang, "table.host", name=host.name),)


def deal_summary(seats: Sequence[Seat], outcome: Outcome, lang: str) -> str:
    winners = ", ".join(seats[w].name for w in outcome.winners) or tr(lang, "result.nobody")
    reason = tr(lang, f"reason.{outcome.reason}")
    return tr(lang, "result.line", winners=winners, reason=reason)


def result(session: Session, game: Game, seats: Sequence[Seat], view: View[Any], lang: str,
           after: Match, clock: Clock, paid: Paid, theme: str = "dark", replay: str = ""
           ) -> Screen:
    """The deal's result card from the finished deal's public view, posted as a new message:
    it is news, not a table update. It says what each seat's chips did (`paid`: what moved
    once covered by the tables; a practice table moves none), who could not cover a deal, and
    the deal's seed, so anyone can check it against the fingerprint the table showed, and
    links to the deal's `replay` where there is one. At the match's end it offers to play
    again with the same players."""
    seats = in_language(seats, lang)
    outcome = view.outcome
    assert outcome is not None, "a result is shown for a finished deal"
    notes = tuple(tr(lang, f"label.{label}") for label in outcome.labels)
    chips = tuple(c if staked else None for c, staked in zip(paid.chips, paid.staked,
                                                             strict=True))
    picture = Picture("result", Frame(title=title(game, lang), names=names(seats), lang=lang,
                                      theme=theme, notes=notes, chips=chips), view)
    lines = Lines(tr(lang, "result.title", deal=view.match.deal + 1),
                  deal_summary(seats, outcome, lang))
    teams = game.rules.teams(view.players)
    if teams is not None:
        # A partnership game scores every seat with its team's points: one line a team.
        what = home_of(view).points_column(lang)
        for team, seated in enumerate(members(teams)):
            said = tr(lang, "result.team", team=team_name(team, lang), what=what,
                      names=", ".join(seats[s].name for s in seated),
                      points=outcome.points[seated[0]])
            lines.add(said[:1].upper() + said[1:])
    if paid.practice:
        lines.add(tr(lang, "result.practice"))
    else:
        # A big table shortens its names here, so that the seed and its check still fit a
        # caption (Telegram keeps 1024 characters of one).
        most = 40 if len(seats) <= 6 else 14
        nothing = tr(lang, "result.no_chips")
        lines.add(tr(lang, "result.chips", seats=" · ".join(
            f"{shortened(seat.name, most)} {signed(chips) if staked else nothing}"
            for seat, staked, chips in zip(seats, paid.staked, paid.chips, strict=True))))
        for seat, short, owed in zip(seats, paid.short, paid.owed, strict=True):
            if short:
                lines.add(tr(lang, "result.short", name=seat.name, paid=-owed - short,
                             owed=-owed))
    lines.add(tr(lang, "result.seed", seed=game.deal_seed(view.match.deal),
                 fingerprint=fingerprint(game, view)),
              tr(lang, "result.verify", command=verify_command(game, view)))
    if after.over:
        lines.add(match_over(seats, teams, after, lang))
    elif clock.deadline is not None:
        lines.add_timed(lang, "result.next", clock)
    watch: Keyboard = ((Button(tr(lang, "btn.replay"), url=replay),),) if replay else ()
    if clock.deadline is not None:
        return lines.screen(picture, watch)
    again = Button(tr(lang, "btn.again"), payload.encode(session.id, 0, AGAIN), tone="main")
    return lines.screen(picture, ((again,), *watch))


def match_over(seats: Sequence[Seat], teams: Sequence[int] | None, after: Match, lang: str
               ) -> str:
    """Who won the match: a seat, or all of its team where seats play in partnerships; or
    nobody (a partnership session tied on points)."""
    if after.winner is None:
        return tr(lang, "result.match_drawn")
    if teams is None:
        return tr(lang, "result.match_over", name=seats[after.winner].name)
    team = teams[after.winner]
    return tr(lang, "result.match_team", team=team_name(team, lang), names=", ".join(
        seat.name for s, seat in enumerate(seats) if teams[s] == team))


def shortened(name: str, most: int) -> str:
    return name if len(name) <= most else name[:most - 1].rstrip() + "…"


def fingerprint(game: Game, view: View[Any]) -> str:
    """The fingerprint of the deal a view shows (SHA-256 of its seed, cut short)."""
    return seeds.fingerprint(game.deal_seed(view.match.deal))


def verify_command(game: Game, view: View[Any]) -> str:
    """The command that deals the view's deal again from its seed (`gupai verify`)."""
    seed = game.deal_seed(view.match.deal)
    # Written as the README's install leaves the command (in the project's .venv, not on
    # PATH), so that the line works when pasted.
    words = [".venv/bin/gupai verify", seed, seeds.fingerprint(seed), game.rules.id,
             f"--players {view.players}", f"--leader {view.match.leader + 1}"]
    if game.preset:
        words.append(f"--preset {game.preset}")
    words += [f"--option {k}={_value(v)}" for k, v in sorted(game.values.items())]
    return " ".join(words)


# ----- a hand -----------------------------------------------------------------------------------

def hand(session: Session, game: Game, seats: Sequence[Seat], view: View[Any], lang: str,
         clock: Clock, picked: str | None = None, theme: str = "dark", ended: str = "",
         app: bool = False) -> Screen:
    """A player's private hand from their own view: the picture and, on their turn, one button
    per legal move. Once the deal is over it shows the result and the player's chips; `ended`
    says why the game is over (stopped, or the match ended), and then no button is left. With
    `app`, a last button opens the game's web table while the game goes on."""
    seats = in_language(seats, lang)
    seat = view.seat
    assert seat is not None, "a hand is shown from its seat's own view"
    lines = Lines(tr(lang, "hand.title", game=title(game, lang), deal=view.match.deal + 1))
    keyboard: Keyboard = ()
    choice: TileChoice | None = None
    outcome = view.outcome
    if outcome is None:
        lines.add(tr(lang, "table.fingerprint", fingerprint=fingerprint(game, view)))
    else:
        lines.add(deal_summary(seats, outcome, lang))
        kept = session.messages.get("paid")
        paid = (Paid.from_json(kept) if kept
                else Paid.as_dealt(outcome.deltas, session.stake))
        lines.add(tr(lang, "hand.chips", chips=signed(paid.chips[seat])) if paid.staked[seat]
                  else tr(lang, "hand.no_chips"))
    if ended:
        lines.add(ended)
    elif seats[seat].away:
        lines.add(tr(lang, "hand.away"))
        keyboard = ((Button(tr(lang, "btn.back"),
                            payload.encode(session.id, session.version, BACK), tone="main"),),)
    elif view.to_move == seat and outcome is None:
        lines.add_timed(lang, "hand.your_turn", clock)
        hint = home_of(view).hint(view, lang)
        if hint:
            lines.add(hint)
        keyboard = moves_keyboard(session, view, lang, picked)
        choice = tile_choice(session, view, lang)
    elif view.to_move is not None and outcome is None:
        lines.add(tr(lang, "hand.waiting", name=seats[view.to_move].name))
    if not ended:
        keyboard = (*keyboard, *web_table(session, lang, app))
    picture = Picture("hand", Frame(title=title(game, lang), names=names(seats), lang=lang,
                                    theme=theme), view)
    return lines.screen(picture, keyboard, choice)


def peek(view: View[Any], lang: str) -> str:
    """The caller's tiles from their own view, as a private alert (≤ 200 characters,
    Telegram's limit)."""
    labels = hand_labels(len(view.hand))
    text = tr(lang, "peek.tiles", tiles=" · ".join(
        f"{labels[i]} {tile_text(view.tiles, t)}" for i, t in enumerate(view.hand)))
    if view.to_move == view.seat:
        text += "\n" + tr(lang, "peek.your_turn")
    return text[:200]
