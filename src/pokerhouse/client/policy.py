"""A bot's answer to a :class:`~pokerhouse.client.decision.Decision`, made safe to send.

A client bot is any object with ``decide(decision)`` returning an engine
:class:`~pokerhouse.engine.Action` or an action dict as the wire carries it
(``{"kind": "raise", "amount": 40}``); a house bot (``choose(view)``) is
adapted by :func:`decider`, fed the decision's exact engine view. Whatever
comes back is checked against the decision's legal actions before it is
sent: an answer the engine would refuse (or a bot that raised) is replaced
by the room's own default for the seat (check when free, muck, decline,
post the bring-in, else fold), so a broken bot never loops on refusals.

>>> from pokerhouse.engine import Action, ActionKind, LegalAction, LegalActions
>>> legal = LegalActions((LegalAction(ActionKind.FOLD), LegalAction(ActionKind.CHECK)))
>>> checked({"kind": "check"}, legal)
{'kind': 'check'}
>>> checked(Action.bet(5), legal)
Traceback (most recent call last):
...
pokerhouse.errors.IllegalAction: no bet is possible now (allowed: fold, check)
>>> default_action(legal)
{'kind': 'check'}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pokerhouse.client.decision import Decision
from pokerhouse.engine.actions import Action, ActionKind, LegalActions
from pokerhouse.errors import InvalidAction, InvalidSpec

#: What a bot may answer: an engine action or the wire's action dict.
Answer = Action | Mapping[str, Any]
Decider = Callable[[Decision], Answer]

#: The room's choice for a seat whose time ran out, in order of preference.
_DEFAULTS = (
    ActionKind.CHECK,
    ActionKind.MUCK,
    ActionKind.DECLINE,
    ActionKind.BRING_IN,
    ActionKind.FOLD,
)


def decider(bot: object) -> Decider:
    """``bot.decide``, or a house bot's ``choose`` fed the decision's view.

    ``InvalidSpec`` ``not_a_bot`` for an object with neither method.
    """
    decide = getattr(bot, "decide", None)
    if callable(decide):
        return decide  # type: ignore[no-any-return]
    choose = getattr(bot, "choose", None)
    if callable(choose):
        return lambda decision: choose(decision.view())
    raise InvalidSpec("not_a_bot", f"{bot!r} has neither decide(decision) nor choose(view)")


def checked(answer: object, legal: LegalActions) -> dict[str, Any]:
    """``answer`` as the wire's action dict, once the engine's ``legal.check`` takes it."""
    action = _as_action(answer)
    legal.check(action)
    wire: dict[str, Any] = {"kind": action.kind.value}
    if action.amount is not None:
        wire["amount"] = action.amount
    return wire


def default_action(legal: LegalActions) -> dict[str, Any]:
    """The room's default for the seat (what its clock would do)."""
    for kind in _DEFAULTS:
        if kind in legal:
            return {"kind": kind.value}
    first = legal.actions[0]
    return {"kind": first.kind.value, "amount": first.min_amount}


def _as_action(answer: object) -> Action:
    if isinstance(answer, Action):
        return answer
    if isinstance(answer, Mapping):
        extra = set(answer) - {"kind", "amount"}
        if extra or "kind" not in answer:
            raise InvalidAction(
                "bad_answer", f"an action dict has a kind and maybe an amount, not {dict(answer)}"
            )
        try:
            kind = ActionKind(answer["kind"])
        except ValueError:
            raise InvalidAction("unknown_action", f"unknown action {answer['kind']!r}") from None
        return Action(kind, answer.get("amount"))
    raise InvalidAction("bad_answer", f"a bot answers with an Action or a dict, not {answer!r}")
