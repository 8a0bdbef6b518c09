"""Exact JSON round trips for the rules core's frozen dataclasses (docs/architecture.md §1,
invariant 2).

States are stored as JSON and must come back equal to what was saved, so decoding follows the
dataclass type hints: JSON lists become the tuples the annotations name, nested dataclasses are
rebuilt, and a field whose concrete type only the game knows (a state's `options`) is supplied by
the caller. A field with a default may be missing (a value saved before the field was added): it
then takes its default; any other missing field is refused.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")


def to_jsonable(value: object) -> Any:
    names = _names(type(value))
    if names is not None:
        return {name: to_jsonable(getattr(value, name)) for name in names}
    if isinstance(value, tuple | list):
        return [to_jsonable(v) for v in value]
    return value


_NAMES: dict[type, tuple[str, ...] | None] = {}


def _names(cls: type) -> tuple[str, ...] | None:
    """A dataclass's field names (None for any other class): looked up once per class, as
    every state is encoded on every save."""
    if cls not in _NAMES:
        _NAMES[cls] = (tuple(f.name for f in dataclasses.fields(cls))
                       if dataclasses.is_dataclass(cls) else None)
    return _NAMES[cls]


def dumps(value: object) -> str:
    return json.dumps(to_jsonable(value), ensure_ascii=False, separators=(",", ":"))


def from_jsonable(tp: Any, data: Any, overrides: dict[str, type] | None = None) -> Any:
    """Rebuild a value of type `tp`; `overrides` names field types a generic class cannot."""
    return _decoder(tp, tuple(sorted((overrides or {}).items())))(data)


Decoder = Callable[[Any], Any]


@cache
def _decoder(tp: Any, overrides: tuple[tuple[str, type], ...] = ()) -> Decoder:
    """A function that rebuilds a value of type `tp` from JSON, made once per type: the type
    hints are read when the decoder is made, not for every value decoded."""
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _dataclass_decoder(tp, dict(overrides))
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])

            def many(data: Any) -> Any:
                if not isinstance(data, list):
                    raise ValueError("expected a list")
                return tuple(item(v) for v in data)
            return many
        items = tuple(_decoder(a) for a in args)

        def fixed(data: Any) -> Any:
            if not isinstance(data, list):
                raise ValueError("expected a list")
            if len(items) != len(data):
                raise ValueError("tuple of the wrong length")
            return tuple(f(v) for f, v in zip(items, data, strict=True))
        return fixed
    if origin in (typing.Union, types.UnionType):
        inner = _decoder(next(a for a in args if a is not type(None)))
        optional = type(None) in args

        def either(data: Any) -> Any:
            return None if data is None and optional else inner(data)
        return either
    if tp in (int, str, bool):
        def plain(data: Any) -> Any:
            if type(data) is not tp:
                raise ValueError(f"expected {tp.__name__}, got {data!r}")
            return data
        return plain
    raise TypeError(f"cannot decode {tp!r}")


def _dataclass_decoder(tp: type, overrides: dict[str, type]) -> Decoder:
    hints = typing.get_type_hints(tp)
    fields = tuple((f.name, _decoder(overrides.get(f.name, hints[f.name])),
                    f.default is not dataclasses.MISSING)
                   for f in dataclasses.fields(tp))
    name = tp.__name__

    def build(data: Any) -> Any:
        if not isinstance(data, dict):
            raise ValueError(f"{name}: expected an object")
        kwargs = {}
        for field, decode, optional in fields:
            if field not in data:
                if optional:
                    continue  # added with a default after the value was saved: the default
                raise ValueError(f"{name}: missing {field}")
            kwargs[field] = decode(data[field])
        return tp(**kwargs)
    return build


def loads(tp: type[T], text: str, overrides: dict[str, type] | None = None) -> T:
    result: T = from_jsonable(tp, json.loads(text), overrides)
    return result
