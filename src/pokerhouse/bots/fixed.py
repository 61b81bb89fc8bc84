"""Two fixed strategies to measure bots against: the exploiter and the calling station.

Neither looks at its cards. Each stands for a kind of player a bot must
beat to be worth sitting with:

- the **exploiter** folds to every bet and raises every hand it may (the
  size of the pot, or the fixed bet): it takes every pot a timid bot gives
  up, and gives up every pot a bot contests. At Teen Patti it doubles the
  stake blind every turn and folds as soon as anyone else has raised it; it
  never pays for a show.
- the **calling station** calls everything and never bets or raises: it
  punishes bluffs and pays off value. At Teen Patti it bets the stake blind
  every turn, accepts every sideshow, and asks for a show once heads-up.

>>> from pokerhouse.games import new_hand
>>> hand = new_hand("3x4", [100, 100], seed=4)
>>> str(ExploiterBot().choose(hand.view(hand.to_act)))
'bet 2'
>>> str(StationBot().choose(hand.view(hand.to_act)))
'check'
"""

from __future__ import annotations

import random

from pokerhouse.bots.base import clamp_amount, passive_action, require_decision, sized_option
from pokerhouse.engine.actions import Action, ActionKind
from pokerhouse.engine.hand import View
from pokerhouse.games.teen_patti.view import TeenPattiView


class ExploiterBot:
    """Folds to every bet; bets the pot whenever nobody has bet."""

    name = "exploiter"

    def __init__(self, rng: random.Random | None = None) -> None:
        # No randomness: the parameter keeps the interface every bot shares.
        self.rng = rng
        #: Teen Patti: the stake its own last bet left, this hand.
        self._stake_left = 0

    def choose(self, view: View) -> Action:
        """Raise when unopposed, fold when opposed (see the module's docstring)."""
        legal = require_decision(view)
        if ActionKind.SHOW_HAND in legal:
            return Action(ActionKind.MUCK)
        if isinstance(view, TeenPattiView):
            return self._teen_patti(view)
        sized = sized_option(legal)
        if ActionKind.BRING_IN in legal or ActionKind.CHECK in legal:
            # Nobody has bet (a bring-in is forced, not a bet): bet the pot.
            if sized is not None:
                assert view.seat is not None
                return clamp_amount(sized, view.bets[view.seat] + view.pot)
            return passive_action(legal)
        if ActionKind.FOLD in legal:
            return Action.fold()
        return passive_action(legal)

    def _teen_patti(self, view: TeenPattiView) -> Action:
        legal = view.legal
        if ActionKind.ACCEPT in legal:
            return Action(ActionKind.DECLINE)
        assert view.seat is not None
        if view.bets_made[view.seat] == 0:
            # A new hand: the stake starts at the ante, which is all it has put in.
            self._stake_left = view.contributed[view.seat]
        bet = legal.get(ActionKind.BET)
        if view.stake > self._stake_left and ActionKind.FOLD in legal:
            return Action.fold()  # someone else raised the stake
        if bet is None:
            return Action.fold() if ActionKind.FOLD in legal else passive_action(legal)
        # A blind bet of twice the stake doubles it (a seen one would need four times).
        self._stake_left = 2 * view.stake
        return clamp_amount(bet, 2 * view.stake if not view.seen[view.seat] else 4 * view.stake)


class StationBot:
    """Calls everything, never bets or raises (see the module's docstring)."""

    name = "station"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng

    def choose(self, view: View) -> Action:
        """Check or call; at Teen Patti the stake blind, a show heads-up."""
        legal = require_decision(view)
        if ActionKind.SHOW_HAND in legal:
            return Action(ActionKind.SHOW_HAND)
        if ActionKind.ACCEPT in legal:
            return Action(ActionKind.ACCEPT)
        if ActionKind.SHOW in legal:
            return Action(ActionKind.SHOW)
        bet = legal.get(ActionKind.BET)
        if isinstance(view, TeenPattiView) and bet is not None:
            return Action(ActionKind.BET, bet.min_amount)
        return passive_action(legal)
