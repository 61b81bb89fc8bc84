"""The random bot: legal actions drawn with tunable odds, for every game.

On each decision it folds with probability ``fold`` (only when staying in
costs chips: it never folds a free check), raises with probability ``raise_``
and otherwise calls (checks, brings in, or makes the smallest bet where a
game has no call, as in Teen Patti). A raise's size is drawn uniformly
between the smallest allowed and about the pot, so the bot does not shove
every time it raises. Teen Patti's extra choices (look, show, sideshow) get
their own probabilities.

>>> import random
>>> from pokerhouse.games import new_hand
>>> hand = new_hand("3x4", [100, 100, 100], seed=4)
>>> bot = RandomBot(rng=random.Random(1))
>>> action = bot.choose(hand.view(hand.to_act))
>>> action.kind in hand.legal_actions()
True
"""

from __future__ import annotations

import random
from operator import attrgetter

from pokerhouse.bots.base import require_decision, seeded
from pokerhouse.engine.actions import Action, ActionKind, LegalAction, LegalActions
from pokerhouse.engine.hand import View
from pokerhouse.errors import InvalidSpec


class RandomBot:
    """Legal actions at random: fold ``fold``, raise ``raise_``, else call.

    ``look`` is the chance a blind Teen Patti player looks before acting,
    ``show`` the chance it pays for a show when one is offered, ``sideshow``
    the chance it asks for one, and ``accept`` the chance it accepts one.
    """

    name = "random"

    def __init__(
        self,
        fold: float = 0.12,
        raise_: float = 0.15,
        *,
        look: float = 0.3,
        show: float = 0.3,
        sideshow: float = 0.1,
        accept: float = 0.5,
        rng: random.Random | None = None,
    ) -> None:
        for label, value in (
            ("fold", fold),
            ("raise_", raise_),
            ("look", look),
            ("show", show),
            ("sideshow", sideshow),
            ("accept", accept),
        ):
            if not 0.0 <= value <= 1.0:
                raise InvalidSpec(
                    "bad_probability", f"{label} must be between 0 and 1, not {value}"
                )
        if fold + raise_ > 1.0:
            raise InvalidSpec("bad_probability", "fold + raise_ must not exceed 1")
        self.fold = fold
        self.raise_ = raise_
        self.look = look
        self.show = show
        self.sideshow = sideshow
        self.accept = accept
        self.rng = seeded(rng)

    def __repr__(self) -> str:
        return f"RandomBot(fold={self.fold}, raise_={self.raise_})"

    def choose(self, view: View) -> Action:
        """A random legal action for the seat to act."""
        legal = view.legal
        if view.seat is None or view.to_act != view.seat or not legal.actions:
            require_decision(view)  # raises: nothing to decide
        rng = self.rng
        # One set of the kinds on offer: asked about a dozen times a decision.
        kinds = set(map(_KIND_OF, legal.actions))
        if not kinds.isdisjoint(_EXTRAS):
            if _ACCEPT in kinds:
                return _ACCEPT_ACTION if rng.random() < self.accept else _DECLINE_ACTION
            if _SHOW_HAND in kinds:
                return _SHOW_HAND_ACTION
            if _LOOK in kinds and rng.random() < self.look:
                return _LOOK_ACTION
            if _SHOW in kinds and rng.random() < self.show:
                return _SHOW_ACTION
            if _SIDESHOW in kinds and rng.random() < self.sideshow:
                return _SIDESHOW_ACTION
        roll = rng.random()
        fold = self.fold
        if roll < fold:
            # A free check is never folded: the fold share checks instead.
            if _CHECK in kinds or _FOLD not in kinds:
                return _passive(legal, kinds)
            return _FOLD_ACTION
        if roll < fold + self.raise_:
            raised = self._raise(view, rng, kinds)
            if raised is not None:
                return raised
        return _passive(legal, kinds)

    def _raise(self, view: View, rng: random.Random, kinds: set[ActionKind]) -> Action | None:
        """A sized action above the smallest (bets, raises, completions, big Teen Patti bets).

        A bet is a raise unless it is the only way to stay in (Teen Patti's minimum bet).
        """
        passive = not kinds.isdisjoint(_PASSIVE_KINDS)
        options = [
            action
            for action in view.legal.actions
            if action.min_amount is not None
            and (action.kind is not _BET or passive or action.max_amount != action.min_amount)
        ]
        if not options:
            return None
        option = rng.choice(options)
        return Action(option.kind, _random_amount(option, view.pot, rng))


_KIND_OF = attrgetter("kind")
_ACCEPT, _DECLINE, _SHOW_HAND = ActionKind.ACCEPT, ActionKind.DECLINE, ActionKind.SHOW_HAND
_LOOK, _SHOW, _SIDESHOW = ActionKind.LOOK, ActionKind.SHOW, ActionKind.SIDESHOW
_CHECK, _CALL, _BRING_IN = ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN
_FOLD, _BET = ActionKind.FOLD, ActionKind.BET
#: Kinds only some decisions offer (Teen Patti's, a showdown's): looked at only when present.
_EXTRAS = frozenset({_ACCEPT, _SHOW_HAND, _LOOK, _SHOW, _SIDESHOW})
# Actions are frozen values: the unsized ones are made once.
_ACCEPT_ACTION, _DECLINE_ACTION = Action(_ACCEPT), Action(_DECLINE)
_SHOW_HAND_ACTION, _LOOK_ACTION = Action(_SHOW_HAND), Action(_LOOK)
_SHOW_ACTION, _SIDESHOW_ACTION = Action(_SHOW), Action(_SIDESHOW)
_FOLD_ACTION = Action(_FOLD)
_PASSIVE = tuple((kind, Action(kind)) for kind in (_CHECK, _CALL, _BRING_IN, _SHOW_HAND))
_PASSIVE_KINDS = frozenset({_CHECK, _CALL, _BRING_IN})


def _passive(legal: LegalActions, kinds: set[ActionKind]) -> Action:
    """:func:`~pokerhouse.bots.base.passive_action`, given the set of the kinds on offer."""
    for kind, action in _PASSIVE:
        if kind in kinds:
            return action
    # None of passive_action's kinds is on offer: what it does next, its smallest sized action.
    for option in legal.actions:
        if option.min_amount is not None:
            return Action(option.kind, option.min_amount)
    return Action(legal.actions[0].kind)


def _random_amount(option: LegalAction, pot: int, rng: random.Random) -> int:
    low, high = option.min_amount, option.max_amount
    assert low is not None and high is not None
    top = min(high, max(3 * low, low + pot))
    return rng.randint(low, top)
