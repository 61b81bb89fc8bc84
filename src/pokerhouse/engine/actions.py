"""Actions a seat can take, and the legal-action set that checks them.

An :class:`Action` is a frozen value: a kind and, for sized actions, an
amount. In the betting-round games (3x4 Poker, Razz) the amount of a bet,
raise or completion is the seat's total bet in the round *after* the action
("raise to"); in Teen Patti it is the chips put in by that bet.

>>> Action.parse("raise 120")
Action(kind=<ActionKind.RAISE: 'raise'>, amount=120)
>>> str(Action.bet(40))
'bet 40'
>>> legal = LegalActions((LegalAction(ActionKind.CHECK), LegalAction(ActionKind.BET, 10, 500)))
>>> legal.check(Action.bet(5))
Traceback (most recent call last):
...
pokerhouse.errors.IllegalAction: bet of 5 is below the minimum of 10
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from pokerhouse.engine.frozen import quick_init
from pokerhouse.errors import IllegalAction, InvalidAction


class ActionKind(StrEnum):
    """Every kind of action any game knows; each game allows a subset."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    BRING_IN = "bring_in"
    COMPLETE = "complete"
    SHOW_HAND = "show_hand"
    MUCK = "muck"
    LOOK = "look"
    SHOW = "show"
    SIDESHOW = "sideshow"
    ACCEPT = "accept"
    DECLINE = "decline"


#: Kinds that carry an amount.
SIZED_KINDS = frozenset({ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE})

_ALIASES = {
    "f": ActionKind.FOLD,
    "x": ActionKind.CHECK,
    "k": ActionKind.CHECK,
    "c": ActionKind.CALL,
    "b": ActionKind.BET,
    "r": ActionKind.RAISE,
    "bring-in": ActionKind.BRING_IN,
    "bringin": ActionKind.BRING_IN,
    "show-hand": ActionKind.SHOW_HAND,
}


def parse_amount(text: str) -> int:
    """Read an amount of chips typed by a person: a whole number above 0.

    >>> parse_amount("40")
    40
    >>> parse_amount("-5")
    Traceback (most recent call last):
    ...
    pokerhouse.errors.InvalidAction: amount -5 must be positive: a whole number of chips above 0
    >>> parse_amount("lots")
    Traceback (most recent call last):
    ...
    pokerhouse.errors.InvalidAction: amount 'lots' is not a whole number of chips
    """
    word = text.strip()
    digits = word[1:] if word.startswith("-") else word
    try:
        # isdigit() keeps out the signs and underscores int() would take; int()
        # still refuses some digits ("²") and numbers past its digit limit.
        amount = int(digits) if digits.isdigit() else None
    except ValueError:
        amount = None
    if amount is None:
        raise InvalidAction("bad_amount", f"amount {text!r} is not a whole number of chips")
    if word.startswith("-") and amount:
        raise InvalidAction(
            "bad_amount", f"amount {word} must be positive: a whole number of chips above 0"
        )
    return amount


@quick_init
@dataclass(frozen=True, slots=True)
class Action:
    """One decision: a kind and, for bets and raises, an amount."""

    kind: ActionKind
    amount: int | None = None

    @staticmethod
    def fold() -> Action:
        """Give up the hand."""
        return Action(ActionKind.FOLD)

    @staticmethod
    def check() -> Action:
        """Pass when nothing is owed."""
        return Action(ActionKind.CHECK)

    @staticmethod
    def call() -> Action:
        """Match the current bet (or whatever the stack allows)."""
        return Action(ActionKind.CALL)

    @staticmethod
    def bet(amount: int) -> Action:
        """Open the betting (to ``amount``); in Teen Patti, put in ``amount``."""
        return Action(ActionKind.BET, amount)

    @staticmethod
    def raise_to(amount: int) -> Action:
        """Raise to a total bet of ``amount`` in this round."""
        return Action(ActionKind.RAISE, amount)

    @staticmethod
    def parse(text: str) -> Action:
        """Read an action typed by a person: ``"fold"``, ``"call"``, ``"bet 40"``, ``"r 120"``.

        >>> Action.parse("Check")
        Action(kind=<ActionKind.CHECK: 'check'>, amount=None)
        >>> Action.parse("bet lots")
        Traceback (most recent call last):
        ...
        pokerhouse.errors.InvalidAction: amount 'lots' is not a whole number of chips
        """
        words = text.strip().lower().split()
        if not words:
            raise InvalidAction("empty_action", "no action given")
        name = words[0].replace("-", "_")
        kind = _ALIASES.get(words[0])
        if kind is None:
            try:
                kind = ActionKind(name)
            except ValueError:
                known = ", ".join(k.value for k in ActionKind)
                raise InvalidAction(
                    "unknown_action", f"unknown action {words[0]!r} (known: {known})"
                ) from None
        if len(words) > 2:
            raise InvalidAction("malformed_action", f"too many words in action {text!r}")
        if len(words) == 1:
            return Action(kind)
        amount = parse_amount(words[1])
        return Action(kind, amount)

    def __str__(self) -> str:
        return self.kind.value if self.amount is None else f"{self.kind.value} {self.amount}"


@quick_init
@dataclass(frozen=True, slots=True)
class LegalAction:
    """One allowed kind, with the smallest and largest amount where it is sized."""

    kind: ActionKind
    min_amount: int | None = None
    max_amount: int | None = None

    def __str__(self) -> str:
        if self.min_amount is None:
            return self.kind.value
        if self.min_amount == self.max_amount:
            return f"{self.kind.value} {self.min_amount}"
        return f"{self.kind.value} {self.min_amount}-{self.max_amount}"


@quick_init
@dataclass(frozen=True, slots=True)
class LegalActions:
    """The actions one seat may take now; :meth:`check` validates a proposed one.

    ``stack_limit`` is the largest amount the seat can put to: an amount past it
    is reported as more than the seat has, not just more than the maximum.
    ``call_total``, where set, is the one amount a call may state (in the
    betting-round games, the seat's total bet after calling).

    >>> LegalActions((LegalAction(ActionKind.CALL),), call_total=40).check(Action.call())
    Action(kind=<ActionKind.CALL: 'call'>, amount=None)
    >>> LegalActions((LegalAction(ActionKind.CALL),), call_total=40).check(
    ...     Action(ActionKind.CALL, 30))
    Traceback (most recent call last):
    ...
    pokerhouse.errors.IllegalAction: a call here is to 40, not 30 (or give no amount)
    """

    actions: tuple[LegalAction, ...]
    stack_limit: int | None = None
    call_total: int | None = None

    def __iter__(self) -> Iterator[LegalAction]:
        return iter(self.actions)

    def __len__(self) -> int:
        return len(self.actions)

    def __contains__(self, kind: object) -> bool:
        # A plain loop: asked several times a decision, and any() over a generator costs more.
        for action in self.actions:  # noqa: SIM110
            if action.kind == kind:
                return True
        return False

    def get(self, kind: ActionKind) -> LegalAction | None:
        """The legal action of this kind, if any."""
        for action in self.actions:
            if action.kind == kind:
                return action
        return None

    @property
    def kinds(self) -> tuple[ActionKind, ...]:
        """The kinds allowed, in order."""
        return tuple(action.kind for action in self.actions)

    def check(self, action: object) -> Action:
        """Return ``action`` if it is legal; raise a specific error if not.

        A call may omit its amount; other sized actions must give one.
        """
        if type(action) is Action and action.amount is None:
            # The commonest case, said first: an unsized kind on offer unsized.
            kind = action.kind
            for offered in self.actions:
                if offered.kind is kind:
                    if offered.min_amount is None:
                        return action
                    break
        if not isinstance(action, Action):
            raise InvalidAction("not_an_action", f"{action!r} is not an Action")
        if not isinstance(action.kind, ActionKind):
            raise InvalidAction("unknown_action", f"unknown action kind {action.kind!r}")
        amount = action.amount
        if amount is not None and (type(amount) is not int):
            raise InvalidAction("bad_amount", f"amount {amount!r} is not a whole number of chips")
        legal = self.get(action.kind)
        if legal is None:
            raise self._not_allowed(action.kind)
        if legal.min_amount is None:
            if amount is None:
                return action
            if action.kind != ActionKind.CALL:
                raise InvalidAction(
                    "unexpected_amount", f"{action.kind.value} takes no amount (got {amount})"
                )
            if self.call_total is not None and amount != self.call_total:
                raise IllegalAction(
                    "wrong_call_amount",
                    f"a call here is to {self.call_total}, not {amount} (or give no amount)",
                )
            return action
        if amount is None:
            raise InvalidAction(
                "amount_required",
                f"{action.kind.value} needs an amount between {legal.min_amount} "
                f"and {legal.max_amount}",
            )
        if amount < legal.min_amount:
            raise IllegalAction(
                "amount_too_small",
                f"{action.kind.value} of {amount} is below the minimum of {legal.min_amount}",
            )
        assert legal.max_amount is not None
        if amount > legal.max_amount:
            if self.stack_limit is not None and amount > self.stack_limit:
                raise IllegalAction(
                    "amount_exceeds_stack",
                    f"{action.kind.value} of {amount} is more than the {self.stack_limit} "
                    "chips this seat can put in",
                )
            raise IllegalAction(
                "amount_too_large",
                f"{action.kind.value} of {amount} is above the maximum of {legal.max_amount}",
            )
        return action

    def _not_allowed(self, kind: ActionKind) -> IllegalAction:
        allowed = ", ".join(str(a) for a in self.actions) or "nothing"
        if kind == ActionKind.BET and ActionKind.RAISE in self:
            return IllegalAction(
                "raise_required", f"there is already a bet: raise instead (allowed: {allowed})"
            )
        if kind == ActionKind.RAISE and ActionKind.BET in self:
            return IllegalAction(
                "bet_required", f"there is no bet to raise: bet instead (allowed: {allowed})"
            )
        if kind == ActionKind.CHECK and ActionKind.CALL in self:
            return IllegalAction("cannot_check", f"there is a bet to call (allowed: {allowed})")
        if kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE):
            return IllegalAction(
                "raise_not_allowed", f"no {kind.value} is possible now (allowed: {allowed})"
            )
        return IllegalAction(
            "action_not_allowed", f"{kind.value} is not allowed now (allowed: {allowed})"
        )
