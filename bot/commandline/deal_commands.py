"""`gupai verify` and `gupai replay`: a deal checked, or stepped through, from its seed and moves.

docs/architecture.md §1.3. `gupai verify SEED FINGERPRINT GAME` deals a deal again from the seed the
table named once it was over (`bot.commandline.verify`); `gupai verify DEAL` checks a whole deal
kept in a database: dealt again from its seed, every kept move through the rules, the result and the
chips that moved confirmed (`bot.deals.deal_check`). `gupai replay DEAL` shows that deal step by
step in the terminal (`bot.commandline.deal_replay`). The database is GUPAI_DB's (from the
environment or .env, as `gupai run` reads it) unless `--db` names one, such as `gupai play`'s file.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import games
from bot.console.console_options import default_lang
from games.engine import GameError

# The storage and the event loop are imported by the commands that use them, so that the
# command line's other commands (`gupai sim`) do not load them.


def add(sub: Any, option_pairs: Any) -> None:
    """The two subcommands on `gupai`'s parser (`option_pairs` reads `--option`s)."""
    verify = sub.add_parser(
        "verify", help="check a deal: its seed against its fingerprint, or a whole kept deal",
        description="With SEED FINGERPRINT GAME: check that SEED has the FINGERPRINT shown "
                    "while its deal was played, then deal GAME from it and print every seat's "
                    "hand and the stock in the order it would be drawn (give the players, "
                    "leader, preset and options the table named with the seed). With DEAL "
                    "alone, a deal's number in the database: deal it again from its kept "
                    "seed, replay every kept move through the rules, and confirm the result "
                    "and the chips that moved (exit 1, naming the move or the figure, when "
                    "they do not check out).")
    verify.add_argument("seed", help="the deal's seed, named once the deal is over; or a "
                                     "deal's number in the database")
    verify.add_argument("fingerprint", nargs="?",
                        help="the fingerprint shown while the deal was played")
    verify.add_argument("game", nargs="?", help=f"one of: {', '.join(games.GAMES)}")
    verify.add_argument("--players", type=int,
                        help="number of players (default: the game's usual)")
    verify.add_argument("--leader", type=int, default=1,
                        help="the seat that led the deal, counted from 1 (default 1)")
    verify.add_argument("--preset", help="a named set of options (see `gupai games`)")
    verify.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="set one option; repeatable")
    verify.add_argument("--db", help="with DEAL: the database (default: GUPAI_DB)")
    verify.set_defaults(func=lambda args: cmd_verify(args, option_pairs))
    replay = sub.add_parser(
        "replay", help="step through a finished deal in the terminal, every hand face up",
        description="Replay deal DEAL (its number in the database) from its seed and its kept "
                    "moves, every move through the rules, and show it a step at a time: the "
                    "move as the chat named it, the board, every hand face up. Enter goes on, "
                    "p back, f and l to the first and last step, a plays on (a 0.5: a move "
                    "every half second), q quits.")
    replay.add_argument("deal", type=int, help="the deal's number in the database")
    replay.add_argument("--db", help="the database (default: GUPAI_DB)")
    replay.add_argument("--lang", choices=("uk", "en"),
                        help="language (default: uk if the system's locale is Ukrainian, "
                             "else en)")
    replay.set_defaults(func=cmd_replay)


def database(args: argparse.Namespace) -> str:
    if args.db:
        return str(args.db)
    from bot.service.env_file import settings
    from storage.db import DEFAULT_PATH

    return settings().get("GUPAI_DB", "").strip() or DEFAULT_PATH


def cmd_verify(args: argparse.Namespace, option_pairs: Any) -> int:
    if args.fingerprint is None:
        if not args.seed.isdigit():
            raise GameError("give SEED FINGERPRINT GAME, or a deal's number alone")
        return verify_deal(database(args), int(args.seed))
    if args.game is None:
        raise GameError("give the GAME after the seed and the fingerprint")
    from bot.commandline.verify import verify

    return verify(args.seed, args.fingerprint, args.game, args.players, args.leader,
                  args.preset, option_pairs(args.option))


def verify_deal(target: str, deal_id: int) -> int:
    """Check a kept deal end to end: 0 and what was checked, or 1 and why it is refused."""
    import asyncio

    from bot.commandline.deal_replay import load
    from bot.deals.deal_check import DealRefused, report
    from storage import StorageError

    try:
        done = asyncio.run(load(target, deal_id))
    except (DealRefused, StorageError) as exc:
        print(f"gupai: {exc}", file=sys.stderr)
        return 1
    print("\n".join(report(done)))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from bot.commandline.deal_replay import run
    from storage import StorageError

    try:
        return run(database(args), args.deal, args.lang or default_lang())
    except StorageError as exc:
        print(f"gupai: {exc}", file=sys.stderr)
        return 2
