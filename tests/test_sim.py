"""The simulator and the `gupai sim` command line."""

import json

import pytest

from bot.cli import main
from games import get
from games.engine import InvalidOptions
from games.sim import simulate


def test_simulation_is_deterministic_and_sums_up():
    rules = get("tails")
    a = simulate(rules, rules.options(), 3, 200, "same", ["heuristic", "random", "random"])
    b = simulate(rules, rules.options(), 3, 200, "same", ["heuristic", "random", "random"])
    assert a.summary() == b.summary()
    assert a.games == a.deals == 200
    assert sum(a.wins) + a.no_winner == 200
    assert sum(a.chips) == 0
    c = simulate(rules, rules.options(), 3, 200, "other", ["heuristic", "random", "random"])
    assert c.summary() != a.summary()


def test_matches_are_units_when_they_end_by_themselves():
    rules = get("domino")
    stats = simulate(rules, rules.options(preset="50"), 2, 20, "m", ["random"])
    assert stats.games == 20 and stats.deals > 20
    assert sum(stats.wins) == 20  # a match to 50 always has a winner
    tally = get("dragon")
    stats = simulate(tally, tally.options(deals=3), 4, 10, "t", ["random"])
    assert stats.deals == 30


def test_redeals_are_counted():
    rules = get("domino")
    stats = simulate(rules, rules.options(preset="50"), 2, 300, "r", ["random"])
    assert stats.redeals > 0  # 2 hands of 7 hold no double about once in 350 deals


def test_wrong_number_of_strategies():
    rules = get("dragon")
    with pytest.raises(InvalidOptions):
        simulate(rules, rules.options(), 4, 1, "x", ["random", "random"])


def test_cli_prints_statistics(capsys):
    assert main(["sim", "dragon", "--games", "50", "--seed", "cli"]) == 0
    out = capsys.readouterr().out
    assert "50 games (50 deals)" in out and "games/s" in out
    assert "mean deal length" in out and "heuristic" in out
    assert len([line for line in out.splitlines() if line.strip().startswith(("0 ", "3 "))]) == 2


def test_cli_json_is_deterministic(capsys):
    args = ["sim", "cedeng", "--games", "40", "--seed", "j", "--json",
            "--strategy", "heuristic,random,random,random", "--preset", "strict"]
    main(args)
    first = json.loads(capsys.readouterr().out)
    main(args)
    second = json.loads(capsys.readouterr().out)
    for timing in ("seconds", "games_per_second"):
        first.pop(timing)
        second.pop(timing)
    assert first == second
    assert first["options"]["penalty"] == "6-7"
    assert abs(sum(first["mean_chips_per_game"])) < 1e-9


@pytest.mark.parametrize("args", [
    ["sim", "chess"],
    ["sim", "dragon", "--players", "7"],
    ["sim", "cedeng", "--players", "3"],
    ["sim", "dragon", "--option", "arms=3"],
    ["sim", "dragon", "--option", "arms"],
    ["sim", "dragon", "--preset", "nope"],
    ["sim", "dragon", "--strategy", "genius"],
    ["sim", "dragon", "--games", "0"],
])
def test_cli_refuses_bad_input_clearly(args, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("gupai: ") and "Traceback" not in err


def test_cli_lists_games(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for game in ("dragon", "cedeng", "tails", "domino"):
        assert game in out
    assert "arms=1 [1|2]" in out and "clean_bonus=off [on|off]" in out


class FakeTerminal:
    def __init__(self, tty):
        self.tty = tty
        self.text = ""

    def isatty(self):
        return self.tty

    def write(self, text):
        self.text += text

    def flush(self):
        pass


def test_progress_bar_only_on_a_terminal_and_long_runs():
    from bot.cli import Progress

    term = FakeTerminal(True)
    bar = Progress(1000, term)
    for done in range(1, 1001):
        bar(done)
    assert "[###############...............] 500/1000" in term.text
    assert term.text.count("\r[") == 100
    quiet = FakeTerminal(False)
    Progress(1000, quiet)(500)
    short = FakeTerminal(True)
    Progress(10, short)(5)
    assert quiet.text == short.text == ""
