"""A game's spec as JSON fields and back, converted by the types of the spec's fields.

A history keeps its hand's spec as plain JSON (enums as their values, tuples
and sets as lists, nested dataclasses as objects); :func:`spec_from_dict`
rebuilds the spec from it, checking each value against its field's type and
raising :class:`~pokerhouse.errors.HistoryError` for one that does not fit.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from enum import Enum
from typing import Any

from pokerhouse.errors import HistoryError, PokerError


def spec_to_dict(spec: object) -> dict[str, Any]:
    """A spec dataclass as JSON-ready fields (enums as values, tuples as lists).

    >>> from pokerhouse.games.three_by_four import ThreeByFourSpec
    >>> spec_to_dict(ThreeByFourSpec(ante=2))["limit"]
    'no-limit'
    """
    if not dataclasses.is_dataclass(spec) or isinstance(spec, type):
        raise TypeError(f"a spec must be a dataclass instance, not {spec!r}")
    return {f.name: _json_value(getattr(spec, f.name)) for f in dataclasses.fields(spec)}


def _json_value(value: object) -> Any:
    if isinstance(value, Enum):
        return _json_value(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return spec_to_dict(value)
    if isinstance(value, Mapping):
        return {str(_json_value(key)): _json_value(item) for key, item in value.items()}
    if isinstance(value, list | tuple | frozenset | set):
        items = [_json_value(item) for item in value]
        return sorted(items) if isinstance(value, frozenset | set) else items
    return value


def spec_from_dict(spec_type: type[Any], data: Mapping[str, Any]) -> Any:
    """Rebuild a spec from :func:`spec_to_dict` output, converting by the field types.

    >>> from pokerhouse.games.razz import RazzSpec
    >>> spec_from_dict(RazzSpec, {"ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8})
    RazzSpec(ante=1, bring_in=2, small_bet=4, big_bet=8, max_raises=3, heads_up_uncapped=False)
    """
    hints = typing.get_type_hints(spec_type)
    known = {f.name for f in dataclasses.fields(spec_type)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise HistoryError(
            "bad_spec", f"spec: unknown field {', '.join(unknown)} for {spec_type.__name__}"
        )
    kwargs = {}
    for name, value in data.items():
        try:
            kwargs[name] = _from_json(value, hints[name])
        except (TypeError, ValueError, KeyError) as error:
            raise HistoryError("bad_spec", f"spec field {name!r}: {error}") from None
    try:
        return spec_type(**kwargs)
    except (PokerError, TypeError, ValueError) as error:
        raise HistoryError("bad_spec", f"spec: {error}") from None


def _from_json(value: Any, hint: Any) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        errors = []
        for option in (arg for arg in args if arg is not type(None)):
            try:
                return _from_json(value, option)
            except (TypeError, ValueError, KeyError) as error:
                errors.append(str(error))
        raise ValueError("; ".join(errors) or f"unexpected {value!r}")
    if origin in (tuple, list, frozenset, set):
        if not isinstance(value, list):
            raise ValueError(f"expected a list, got {value!r}")
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            return tuple(_from_json(item, args[0]) for item in value)
        if origin is tuple and args:
            return tuple(_from_json(item, arg) for item, arg in zip(value, args, strict=True))
        item_hint = args[0] if args else Any
        return origin(_from_json(item, item_hint) for item in value)
    if origin is not None and isinstance(origin, type) and issubclass(origin, Mapping):
        if not isinstance(value, dict):
            raise ValueError(f"expected an object, got {value!r}")
        key_hint, item_hint = args if args else (Any, Any)
        return {
            _from_json(_key(key, key_hint), key_hint): _from_json(item, item_hint)
            for key, item in value.items()
        }
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(value, dict):
            raise ValueError(f"expected an object, got {value!r}")
        return spec_from_dict(hint, value)
    if hint is bool:
        if not isinstance(value, bool):
            raise ValueError(f"expected true or false, got {value!r}")
        return value
    if hint is int:
        if type(value) is not int:
            raise ValueError(f"expected a whole number, got {value!r}")
        return value
    if hint is float:
        if type(value) not in (int, float):
            raise ValueError(f"expected a number, got {value!r}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise ValueError(f"expected text, got {value!r}")
        return value
    return value


def _key(key: str, hint: Any) -> Any:
    """JSON object keys are text; an int-keyed mapping gets its ints back."""
    if hint is int:
        try:
            return int(key)
        except ValueError:
            raise ValueError(f"expected a whole-number key, got {key!r}") from None
    return key
