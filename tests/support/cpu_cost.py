"""What each test costs in processor time, for making the suite cheaper where it counts.

`pytest --durations` gives wall-clock seconds, which on a machine running two workers a core
say as much about the neighbours as about the test, and miss the bot processes, browsers and
servers a test starts. This plugin counts the processor seconds of the test's own process and
of the child processes it waited for, phase by phase, and ends the run with the totals by
folder and the costliest tests:

    .venv/bin/python -m pytest -p tests.support.cpu_cost [--cpu-top 30]

Under `pytest-xdist` each worker counts its own tests and the report carries the figures to
the process that prints them. A server a worker keeps for all its tests (PostgreSQL) is counted
nowhere: only what has ended by a test's end is.
"""

from __future__ import annotations

import resource
from collections import Counter
from typing import Any

import pytest

START = pytest.StashKey[tuple[float, float]]()
KEY = "cpu seconds"


def _cpu() -> tuple[float, float]:
    """Processor seconds (user and system) of this process, and of its children waited for."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-top", type=int, default=20,
                     help="how many of the costliest tests to list (tests.support.cpu_cost)")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    item.stash[START] = _cpu()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    now = _cpu()
    own, children = item.stash.get(START, now)
    item.stash[START] = now
    # The phases share the item's list of properties: each names its own.
    report.user_properties.append((f"{KEY} {call.when}", (now[0] - own, now[1] - children)))


class Totals:
    def __init__(self) -> None:
        self.own: Counter[str] = Counter()
        self.children: Counter[str] = Counter()

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        for name, value in report.user_properties:
            if name == f"{KEY} {report.when}":
                own, children = value
                self.own[report.nodeid] += own
                self.children[report.nodeid] += children

    @pytest.hookimpl
    def pytest_terminal_summary(self, terminalreporter: Any, config: pytest.Config) -> None:
        if not self.own:
            return
        cost = self.own + self.children
        write = terminalreporter.write_line
        terminalreporter.section("processor seconds")
        write(f"{sum(self.own.values()):8.1f} in the tests' processes, "
              f"{sum(self.children.values()):.1f} in processes they started, "
              f"{len(self.own)} tests")
        folders: Counter[str] = Counter()
        for nodeid, seconds in cost.items():
            folders[nodeid.split("::")[0].rsplit("/", 1)[0]] += seconds
        for folder, seconds in folders.most_common():
            write(f"{seconds:8.1f}  {folder}/")
        write("")
        for nodeid, seconds in cost.most_common(config.getoption("--cpu-top")):
            write(f"{seconds:8.1f}  ({self.children[nodeid]:.1f} in children)  {nodeid}")


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(Totals(), "cpu_cost_totals")
