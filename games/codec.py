"""Exact JSON round trips for the rules core's frozen dataclasses (DESIGN.md §1, invariant 2).

States are stored as JSON and must come back equal to what was saved, so decoding follows the
dataclass type hints: JSON lists become the tuples the annotations name, nested dataclasses are
rebuilt, and a field whose concrete type only the game knows (a state's `options`) is supplied by
the caller.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")


def to_jsonable(value: object) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [to_jsonable(v) for v in value]
    return value


def dumps(value: object) -> str:
    return json.dumps(to_jsonable(value), ensure_ascii=False, separators=(",", ":"))


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_jsonable(tp: Any, data: Any, overrides: dict[str, type] | None = None) -> Any:
    """Rebuild a value of type `tp`; `overrides` names field types a generic class cannot."""
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        if not isinstance(data, dict):
            raise ValueError(f"{tp.__name__}: expected an object")
        hints = _hints(tp)
        kwargs = {}
        for field in dataclasses.fields(tp):
            if field.name not in data:
                raise ValueError(f"{tp.__name__}: missing {field.name}")
            ftype = (overrides or {}).get(field.name, hints[field.name])
            kwargs[field.name] = from_jsonable(ftype, data[field.name])
        return tp(**kwargs)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is tuple:
        if not isinstance(data, list):
            raise ValueError("expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_jsonable(args[0], v) for v in data)
        if len(args) != len(data):
            raise ValueError("tuple of the wrong length")
        return tuple(from_jsonable(a, v) for a, v in zip(args, data, strict=True))
    if origin in (typing.Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return from_jsonable(inner[0], data)
    if tp in (int, str, bool):
        if type(data) is not tp:
            raise ValueError(f"expected {tp.__name__}, got {data!r}")
        return data
    raise TypeError(f"cannot decode {tp!r}")


def loads(tp: type[T], text: str, overrides: dict[str, type] | None = None) -> T:
    result: T = from_jsonable(tp, json.loads(text), overrides)
    return result
