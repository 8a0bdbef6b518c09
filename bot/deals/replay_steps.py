"""A replayed deal's steps as people are shown them: in the terminal and on the web table.

docs/architecture.md §1 invariants 4 and 5: what is shown comes from views, by the games' homes
(`faces/`), in the words the chat used. A replay shows a deal that is over, so every seat's hand is
shown face up, each from that seat's own view; the board is the group's picture from the public
view, its last move outlined as the table outlined it, and the events are named by the home's
footer, as the chat named them when the move was made.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.deals.deal_check import Replayed
from bot.present.screens import Picture
from bot.session.seating import computer_name
from faces import home_of
from faces.moves import tile_text
from faces.presets import game_title
from rendering.canvas import Frame
from rendering.sprites import family_of
from words.i18n import signed, tr

WORDS = ("first", "previous", "next", "last", "play", "pause", "speed", "hands")
"""The replay page's own words (catalogue keys `web.replay_<word>`)."""


@dataclass(frozen=True, slots=True)
class Shown:
    """One step as it is shown: what happened, the board, every hand face up."""

    number: int
    """0 for the deal, then the move's place in the deal."""
    heading: str
    said: str
    """The move's events as the chat named them ("" for the deal itself)."""
    board: tuple[str, ...]
    hands: tuple[tuple[str, tuple[int, ...], str], ...]
    """Per seat: the name, the tiles' ids and the tiles in text."""
    picture: Picture


def names(done: Replayed, lang: str) -> tuple[str, ...]:
    return tuple(computer_name(s.name, lang) if s.computer else s.name
                 for s in done.deal.seats)


def shown(done: Replayed, number: int, lang: str, theme: str = "dark") -> Shown:
    """Step `number` (0: the deal as dealt) of a replayed deal, in `lang`."""
    step = done.steps[number]
    rules = done.rules
    view = rules.view(step.state, None)
    home = home_of(view)
    who = names(done, lang)
    stake = int(done.moves.setup.get("stake", 1))
    said = home.footer(step.events, view, who, lang)
    last = len(done.steps) - 1
    if step.move is None:
        heading = tr(lang, "replay.step_deal", last=last)
    else:
        by = step.move.by
        key = "replay.step_for" if by.endswith("a") else "replay.step"
        heading = tr(lang, key, step=number, last=last, name=who[step.move.seat])
    hands = []
    for seat in range(len(who)):
        own = rules.view(step.state, seat)
        text = " ".join(tile_text(own.tiles, t) for t in own.hand) or "—"
        hands.append((who[seat], tuple(own.hand), text))
    frame = Frame(title=game_title(rules.id, None, lang), names=who, footer=said, lang=lang,
                  theme=theme, last=tuple(t for e in step.events for t in home.ringed(e)),
                  stake=stake)
    return Shown(number, heading, said, tuple(home.text_board(view, who, lang, None, stake)),
                 tuple(hands), Picture("board", frame, view))


def result_lines(done: Replayed, lang: str) -> list[str]:
    """The stored result, seat by seat: points and the chips that moved."""
    return [tr(lang, "replay.result_seat", name=name, points=s.points,
               chips=signed(s.delta) if s.staked else tr(lang, "result.no_chips"))
            + (tr(lang, "replay.won") if s.won else "")
            for s, name in zip(done.deal.seats, names(done, lang), strict=True)]


def title(done: Replayed, lang: str) -> str:
    deal = done.deal
    return tr(lang, "replay.title", deal=deal.id, game=game_title(done.rules.id, None, lang),
              number=deal.deal_no + 1, moves=len(done.steps) - 1)


def as_json(done: Replayed, lang: str) -> dict[str, Any]:
    """Every step for the web table's replay: the words, the hands' faces, the board's number
    (the page fetches each board picture by it)."""
    tiles = done.rules.tileset(done.options)
    steps = []
    for number in range(len(done.steps)):
        step = shown(done, number, lang)
        steps.append({"heading": step.heading, "said": step.said, "board": list(step.board),
                      "hands": [{"name": name, "tiles": [[tiles.a[t], tiles.b[t]] for t in ids],
                                 "text": text} for name, ids, text in step.hands]})
    words = {word: tr(lang, f"web.replay_{word}") for word in WORDS}
    words["result"] = tr(lang, "replay.result")
    return {"title": title(done, lang), "family": family_of(tiles), "steps": steps,
            "result": result_lines(done, lang), "words": words}
