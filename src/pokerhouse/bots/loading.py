"""A bot from its spec string: ``random``, ``smart`` or ``module:Class``.

``random`` and ``smart`` are the house bots (:func:`pokerhouse.bots.get`;
``smart`` is the game's own). ``module:Class`` imports ``module`` and makes
a ``Class``: with the keyword ``rng`` (a seeded :class:`random.Random`, as
the house bots take it) when its constructor accepts one, otherwise with no
arguments. What it makes must be a :class:`~pokerhouse.bots.base.Bot`: a
``name`` and a ``choose(view)`` method.

>>> import random
>>> load_bot("smart", "razz", rng=random.Random(1)).name
'smart'
>>> type(load_bot("pokerhouse.bots:RandomBot", "3x4")).__name__
'RandomBot'
>>> try:
...     load_bot("pokerhouse.bots:get_game", "3x4")
... except InvalidSpec as error:
...     print(error, f"[{error.code}]")
module pokerhouse.bots has no get_game [bot_not_found]
"""

from __future__ import annotations

import importlib
import inspect
import random
from typing import Any

from pokerhouse.bots.base import Bot
from pokerhouse.bots.registry import BOT_NAMES
from pokerhouse.bots.registry import get as get_house_bot
from pokerhouse.errors import InvalidSpec


def load_bot(spec: str, game: str, *, rng: random.Random | None = None) -> Bot:
    """A new bot for ``game`` from ``spec`` (see the module's docstring).

    Errors (:class:`~pokerhouse.errors.InvalidSpec`, by code):
    ``unknown_bot`` (a name that is neither a house bot nor ``module:Class``),
    ``bot_not_importable`` (the module fails to import), ``bot_not_found``
    (it has no such attribute), ``not_a_bot`` (the attribute is not a class
    whose instances choose actions), ``bot_failed`` (its constructor raised).
    """
    text = spec.strip()
    if ":" not in text:
        if text.lower() not in BOT_NAMES:
            raise InvalidSpec(
                "unknown_bot",
                f"unknown bot {spec!r} (bots: {', '.join(BOT_NAMES)}, or module:Class)",
            )
        return get_house_bot(text, game=game, rng=rng)
    module_name, _, attribute = text.partition(":")
    module_name, attribute = module_name.strip(), attribute.strip()
    if not module_name or not attribute:
        raise InvalidSpec("unknown_bot", f"{spec!r} is not module:Class")
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # any failure of a user's module: a syntax error as well
        raise InvalidSpec(
            "bot_not_importable",
            f"cannot import {module_name} for bot {spec!r}: {type(error).__name__}: {error}",
        ) from None
    factory: Any = module
    for part in attribute.split("."):
        if not hasattr(factory, part):
            raise InvalidSpec("bot_not_found", f"module {module_name} has no {attribute}")
        factory = getattr(factory, part)
    if not inspect.isclass(factory):
        raise InvalidSpec("not_a_bot", f"{spec} is not a class")
    if not callable(getattr(factory, "choose", None)):
        raise InvalidSpec("not_a_bot", f"{spec} has no choose(view) method: it is no bot")
    make: Any = factory  # a class of the user's: its constructor is checked by calling it
    try:
        bot = make(rng=rng) if _takes_rng(make) else make()
    except Exception as error:
        raise InvalidSpec(
            "bot_failed", f"{spec}() failed: {type(error).__name__}: {error}"
        ) from None
    if not isinstance(bot, Bot):
        raise InvalidSpec("not_a_bot", f"a {spec} has no name: a bot says what it is")
    return bot


def _takes_rng(factory: type[Any]) -> bool:
    """Whether ``factory(rng=...)`` is a call its signature accepts."""
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature: call it bare
        return False
    return any(
        (parameter.name == "rng" and parameter.kind is not parameter.POSITIONAL_ONLY)
        or parameter.kind is parameter.VAR_KEYWORD
        for parameter in parameters
    )
