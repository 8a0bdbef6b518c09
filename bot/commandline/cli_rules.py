"""`gupai rules`: a game's rules for players in the terminal, in English or Ukrainian.

The text is the one `/rules` sends in a chat and `docs/rules/` holds (`faces.rules_text`), so a
player without a chat can read the rules before `gupai play`. Source: docs/architecture.md §2.
"""

from __future__ import annotations

import argparse
from typing import Any

import games

LANGS = ("en", "uk")
"""The languages the rules are written in (`faces.rules_docs.LANGS`), named here so that
building the command line loads none of the pictures' modules `faces` brings."""


def add_rules_parser(sub: Any) -> None:
    """Add `rules` to the command line's subcommands (`sub` is argparse's subparsers action)."""
    rules = sub.add_parser(
        "rules", help="print a game's rules (no game: list the games)",
        description="Print the rules of GAME (an id or any alias) as /rules sends them in a "
                    "chat; with no GAME, list the games and their names.")
    rules.add_argument("game", nargs="?", help=f"one of: {', '.join(games.GAMES)}")
    rules.add_argument("--lang", choices=LANGS, default="en", help="the language (default en)")
    rules.set_defaults(func=cmd_rules)


def cmd_rules(args: argparse.Namespace) -> int:
    from faces import rules_text
    from faces.presets import game_title

    if args.game is None:
        for game in games.GAMES:
            print(f"{game}  {game_title(game, None, args.lang)}")
        print("\n`gupai rules GAME` prints a game's rules (`--lang uk`: in Ukrainian).")
        return 0
    # An unknown game raises GameError, which the command line answers with the known ids.
    print(rules_text(games.get(args.game).id, args.lang))
    return 0
