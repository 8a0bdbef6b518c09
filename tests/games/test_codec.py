"""Stored values come back exactly; a field added later with a default loads from older saves."""

import json
from dataclasses import dataclass

import pytest

from games import codec


@dataclass(frozen=True, slots=True)
class Before:
    seat: int
    tiles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class After:
    seat: int
    tiles: tuple[int, ...]
    record: tuple[tuple[int, int], ...] = ()


def test_a_value_round_trips():
    value = After(1, (3, 4), ((5, 0),))
    assert codec.loads(After, codec.dumps(value)) == value


def test_a_field_added_with_a_default_loads_from_an_older_save():
    saved = codec.dumps(Before(1, (3, 4)))
    assert codec.loads(After, saved) == After(1, (3, 4))


def test_a_missing_field_without_a_default_is_refused():
    with pytest.raises(ValueError, match="missing tiles"):
        codec.loads(After, json.dumps({"seat": 1}))
