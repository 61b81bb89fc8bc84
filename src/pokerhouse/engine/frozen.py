"""A quicker ``__init__`` for the frozen, slotted dataclasses made on every decision.

A frozen dataclass's own ``__init__`` sets each field through
``object.__setattr__``, looked up and called once per field, because its class
refuses plain assignment. :func:`quick_init` gives such a class an ``__init__``
that calls each slot's setter directly instead: the same parameters and
defaults, the same ``__post_init__``, the instance as frozen as before, and
about a third less time to build one (events, actions and legal actions are
made by the hundred in every hand).

>>> from dataclasses import FrozenInstanceError, dataclass
>>> @quick_init
... @dataclass(frozen=True, slots=True)
... class Chips:
...     seat: int
...     amount: int = 0
>>> Chips(2, amount=5), Chips(1) == Chips(seat=1, amount=0)
(Chips(seat=2, amount=5), True)
>>> try:
...     Chips(1).amount = 3
... except FrozenInstanceError:
...     print("still frozen")
still frozen
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

_C = TypeVar("_C", bound=type)


def quick_init(cls: _C) -> _C:
    """Replace the ``__init__`` of a frozen, slotted dataclass by a slot-setting one.

    A class whose fields need more than a plain value or default (a factory,
    keyword-only or init-less fields) keeps the one ``dataclass`` wrote.
    """
    params = cls.__dict__.get("__dataclass_params__")
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        return cls
    fields = dataclasses.fields(cls)
    names: dict[str, Any] = {}
    signature: list[str] = []
    body: list[str] = []
    for index, field in enumerate(fields):
        if (
            not field.init
            or field.kw_only
            or field.default_factory is not dataclasses.MISSING
            or not field.name.isidentifier()
        ):
            return cls
        setter = _slot_setter(cls, field.name)
        if setter is None:
            return cls
        names[f"_set{index}"] = setter
        if field.default is dataclasses.MISSING:
            signature.append(field.name)
        else:
            names[f"_default{index}"] = field.default
            signature.append(f"{field.name}=_default{index}")
        body.append(f"    _set{index}(self, {field.name})")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    source = f"def __init__(self, {', '.join(signature)}):\n" + ("\n".join(body) or "    pass")
    # The source is built from the class's own field names only.
    exec(source, names)
    init = names["__init__"]
    written = cls.__dict__["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = written.__doc__
    init.__annotations__ = dict(getattr(written, "__annotations__", {}))
    type.__setattr__(cls, "__init__", init)
    return cls


def _slot_setter(cls: type, name: str) -> Any:
    """The ``__set__`` of the slot ``name`` in ``cls`` or a base, ``None`` if none is a slot."""
    for klass in cls.__mro__:
        member = klass.__dict__.get(name)
        if member is not None:
            return member.__set__ if type(member).__name__ == "member_descriptor" else None
    return None
