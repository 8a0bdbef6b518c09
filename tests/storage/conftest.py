"""Every storage test runs on both backends: `database` is where a fresh one is, the path of a
SQLite file (not there yet) or the URL of an empty PostgreSQL database (`postgres_url`)."""

from __future__ import annotations

from pathlib import Path

import pytest

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def database(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    if backend == "sqlite":
        return tmp_path / "chips.sqlite3"
    return str(request.getfixturevalue("postgres_url"))
