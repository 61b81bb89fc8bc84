"""Bot classes of a user's own, for the arena's ``module:Class`` tests."""

from __future__ import annotations

import random

from pokerhouse.bots.base import passive_action, require_decision
from pokerhouse.engine.actions import Action, ActionKind
from pokerhouse.engine.hand import View


class CallingStation:
    """Never folds, never raises: the same action from the same view, every time."""

    name = "calling-station"

    def choose(self, view: View) -> Action:
        """Check, call, bring in or the smallest bet; accept a sideshow."""
        legal = require_decision(view)
        if ActionKind.ACCEPT in legal:
            return Action(ActionKind.ACCEPT)
        return passive_action(legal)


class SeededCaller(CallingStation):
    """A calling station built as the house bots are, with a seeded ``rng``."""

    name = "seeded-caller"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng


class NeedsArguments(CallingStation):
    """A constructor the arena cannot call: it wants an argument it does not give."""

    def __init__(self, aggression: float) -> None:
        self.aggression = aggression


class Nameless:
    """Chooses, but never says what it is."""

    def choose(self, view: View) -> Action:
        """Whatever is cheapest."""
        return passive_action(view.legal)


class Chooseless:
    """Has a name and nothing else."""

    name = "chooseless"


class Cheater(CallingStation):
    """Bets a chip more than anyone may."""

    name = "cheater"

    def choose(self, view: View) -> Action:
        """A bet of every chip behind it, and one more."""
        assert view.seat is not None
        return Action(ActionKind.BET, view.stacks[view.seat] + 1)


class Crasher(CallingStation):
    """Fails in its own code."""

    name = "crasher"

    def choose(self, view: View) -> Action:
        """Divide by zero."""
        return Action(ActionKind.CHECK, 1 // 0)


def not_a_class(view: View) -> Action:
    """A function, not a bot class."""
    return passive_action(view.legal)
