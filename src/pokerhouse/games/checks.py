"""The checks every game's spec makes of its settings, in one place and one style.

Each raises :class:`~pokerhouse.errors.InvalidSpec` with code ``bad_spec``
(``bad_limit`` for a limit) and a message that names the setting.

>>> whole("ante", 0, minimum=1)
Traceback (most recent call last):
...
pokerhouse.errors.InvalidSpec: ante must be a whole number >= 1, not 0
>>> limit("pot-limit")
<Limit.POT_LIMIT: 'pot-limit'>
"""

from __future__ import annotations

from collections.abc import Iterable

from pokerhouse.engine.betting import Limit
from pokerhouse.errors import InvalidSpec


def whole(name: str, value: object, *, minimum: int) -> int:
    """``value`` if it is an int (not a bool) of at least ``minimum``."""
    if type(value) is not int or value < minimum:
        raise InvalidSpec("bad_spec", f"{name} must be a whole number >= {minimum}, not {value!r}")
    return value


def flag(name: str, value: object) -> bool:
    """``value`` if it is a bool: a string such as ``"no"`` would be truthy."""
    if type(value) is not bool:
        raise InvalidSpec("bad_spec", f"{name} must be true or false, not {value!r}")
    return value


def limit(value: object, allowed: Iterable[Limit] = tuple(Limit), game: str = "") -> Limit:
    """The :class:`Limit` named by ``value`` (a Limit or its text), if the game allows it."""
    options = tuple(allowed)
    known = ", ".join(option.value for option in options)
    if isinstance(value, Limit):
        chosen = value
    elif isinstance(value, str) and value in {option.value for option in Limit}:
        chosen = Limit(value)
    else:
        raise InvalidSpec("bad_limit", f"unknown limit {value!r} ({known})")
    if chosen not in options:
        ways = known.replace(", ", " or ")
        raise InvalidSpec("bad_limit", f"{game} is played {ways}, not {chosen.value}")
    return chosen
