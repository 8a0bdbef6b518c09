"""bot/ shows a game from views only (docs/architecture.md §1, invariant 4): a test reads its code.

The session layer runs the rules, so it holds states: it deals, applies moves, saves and loads
them (`turns`, `lobby`, `timers`, and `seating`, which keeps decoded states) and codes each move
in the state it was made in (`move_record`). The gallery plays its own sample deals to draw; the
deal check (`deal_check`) deals a finished deal again and replays its kept moves through the
rules, and a replay's steps (`replay_steps`) show each of its states, the deal being over.
Every other module of bot/ (the presenter, the keyboards, the adapters, the console, the
commands) is handed views and must never reach for a state: no state class imported, no rules
method that takes or makes a state called, no session's stored state read, no parameter that
takes one.
"""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"
HOLD_STATES = {"session/turns.py", "session/lobby.py", "session/timers.py", "session/seating.py",
               "commandline/gallery.py", "deals/deal_check.py", "deals/move_record.py",
               "deals/replay_steps.py"}
STATE_CALLS = {"apply", "new_deal", "next_match", "start_match", "legal_actions", "to_move",
               "view", "step", "check_legal"}
"""Rules methods that take or make a state (`view` makes a view *from* a state)."""


def state_reads(source: str) -> list[str]:
    """Where the code reaches for a game state, as "line: what"."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("games"):
            found += [f"{node.lineno}: imports {a.name}" for a in node.names
                      if a.name.endswith("State")]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            codec = node.func.attr in ("loads", "dumps") and not (
                isinstance(owner, ast.Name) and owner.id == "json")
            if node.func.attr in STATE_CALLS or codec:
                found.append(f"{node.lineno}: calls .{node.func.attr}()")
        elif isinstance(node, ast.Attribute) and node.attr == "state":
            found.append(f"{node.lineno}: reads .state")
        elif isinstance(node, ast.arg):
            names = {getattr(n, "id", getattr(n, "attr", ""))
                     for n in ast.walk(node.annotation)} if node.annotation else set()
            if node.arg == "state" or any(n.endswith("State") for n in names):
                found.append(f"{node.lineno}: takes {node.arg!r}")
    return found


def test_only_the_session_layer_holds_game_states() -> None:
    modules = sorted(BOT.rglob("*.py"))
    assert len(modules) > 20
    for path in modules:
        if path.relative_to(BOT).as_posix() in HOLD_STATES:
            continue
        reads = state_reads(path.read_text(encoding="utf-8"))
        assert not reads, f"{path.relative_to(BOT.parent)} reaches for a state: {reads}"


def test_the_session_layer_is_where_states_are_read() -> None:
    """The exemptions are real: each module named holds states (else it should not be named)."""
    for name in HOLD_STATES:
        assert state_reads((BOT / name).read_text(encoding="utf-8")), name


def test_the_check_finds_each_way_of_reaching_a_state() -> None:
    code = """
from games.kap_deal import KapState
import json
def show(state, other: KapState, session):
    text = session.state
    rules.loads(text)
    json.loads(text)
    return rules.view(other, 0)
"""
    reads = sorted(r.split(": ")[1] for r in state_reads(code))
    assert reads == sorted(["imports KapState", "takes 'state'", "takes 'other'",
                            "reads .state", "calls .loads()", "calls .view()"])
