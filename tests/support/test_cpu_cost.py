"""The suite's processor-time count (`tests.support.cpu_cost`) finds a test's own work and the
work of a process it started, and names the test."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytest_plugins = ["pytester"]

BURNING = '''
import subprocess, sys, time

def burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass

def test_busy():
    burn(0.3)

def test_starts_a_busy_process():
    subprocess.run([sys.executable, "-c",
                    "import time\\nend = time.process_time() + 0.3\\n"
                    "while time.process_time() < end: pass"], check=True)

def test_idle():
    time.sleep(0.05)
'''


def test_the_costliest_tests_are_named_with_their_seconds(pytester: pytest.Pytester,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makepyfile(test_burning=BURNING)
    result = pytester.runpytest_subprocess("-p", "tests.support.cpu_cost", "-n", "0",
                                           "--cpu-top", "2")
    result.assert_outcomes(passed=3)
    lines = result.stdout.lines
    at = lines.index(next(line for line in lines if "processor seconds" in line))
    top = [line.split() for line in lines[at + 1:] if "test_burning.py::" in line]
    assert len(top) == 2, lines[at:]
    named = {row[-1].split("::")[1]: (float(row[0]), float(row[1].strip("("))) for row in top}
    assert set(named) == {"test_busy", "test_starts_a_busy_process"}
    assert named["test_busy"][0] >= 0.25 and named["test_busy"][1] < 0.1
    assert named["test_starts_a_busy_process"][1] >= 0.25
