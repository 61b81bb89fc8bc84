"""The Teen Patti bot: cheap blind bets while the stake is low, then play the cards.

Teen Patti's prices favour a blind player (half what a seen one pays), so
the bot bets blind while the stake is small against its chips, and looks
once the stake grows, the pot is worth fighting for heads-up, or it has put
in enough blind. Seen, it knows its hand's strength: the share of all 22,100
three-card hands it beats (ties half), raised to the power of the number of
opponents, is its chance of holding the best hand. It raises with a strong
hand, pays for a show when that price is right and the hand is middling,
bets the minimum when the pot odds say so, and folds otherwise.

>>> import random
>>> from pokerhouse.cards import parse_cards
>>> hand_strength(parse_cards("As Ad Ah")) > 0.9999
True
>>> hand_strength(parse_cards("5c 3d 2h")) < 0.01
True
>>> from pokerhouse.games import new_hand
>>> hand = new_hand("teen-patti", [100, 100, 100], seed=2)
>>> str(TeenPattiBot(rng=random.Random(1)).choose(hand.view(hand.to_act)))
'bet 1'
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Sequence
from functools import cache

from pokerhouse import evaluate
from pokerhouse.bots.base import clamp_amount, live_opponents, require_decision, seeded
from pokerhouse.cards import FULL_DECK, Card
from pokerhouse.engine.actions import Action, ActionKind, LegalAction
from pokerhouse.engine.hand import View
from pokerhouse.errors import InvalidAction
from pokerhouse.games.teen_patti.view import TeenPattiView

#: Look once the blind stake exceeds this share of the chips behind.
LOOK_STAKE_SHARE = 0.04
#: Look after this many blind bets of its own in a hand.
BLIND_TURNS = 2
#: Chance of holding the best hand at which a seen player raises.
RAISE_AT = 0.62
#: Extra chance of winning asked beyond the pot odds before paying a minimum.
CALL_MARGIN = 0.04
#: After this many seen minimum bets, a hand worth playing doubles the stake instead:
#: with three players or more nobody can ask for a show, so someone has to give way.
ESCALATE_AFTER = 3
ESCALATE_AT = 0.3


@cache
def _all_values() -> tuple[int, ...]:
    """Every three-card hand's value, sorted (built once: 22,100 hands)."""
    return tuple(
        sorted(evaluate.teen_patti_value(cards) for cards in itertools.combinations(FULL_DECK, 3))
    )


def hand_strength(cards: Sequence[Card]) -> float:
    """The share of all three-card hands that ``cards`` beat, ties counting half."""
    values = _all_values()
    value = evaluate.teen_patti_value(cards)
    below = bisect.bisect_left(values, value)
    equal = bisect.bisect_right(values, value) - below
    # The hand itself is one of the equal ones; leave it out.
    return (below + (equal - 1) / 2) / (len(values) - 1)


class TeenPattiBot:
    """Stake- and hand-aware Teen Patti: when to look, raise, pay for a show or fold."""

    name = "smart"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = seeded(rng)

    def choose(self, view: View) -> Action:
        """Decide from the stake, the pot, the players left and (once seen) the cards."""
        legal = require_decision(view)
        if not isinstance(view, TeenPattiView):
            raise InvalidAction("wrong_game", f"the Teen Patti bot cannot play {view.game}")
        assert view.seat is not None
        cards = [card for card in view.my_cards if card is not None]
        if ActionKind.ACCEPT in legal:
            accept = len(cards) == 3 and hand_strength(cards) >= 0.6
            return Action(ActionKind.ACCEPT if accept else ActionKind.DECLINE)
        bet = legal.get(ActionKind.BET)
        if ActionKind.LOOK in legal:
            if bet is None or self._should_look(view, bet):
                return Action(ActionKind.LOOK)
            return Action(ActionKind.BET, bet.min_amount)
        if len(cards) != 3 or bet is None:
            return Action.fold()
        return self._seen(view, cards, bet)

    def _should_look(self, view: TeenPattiView, bet: LegalAction) -> bool:
        assert view.seat is not None and bet.min_amount is not None
        stack = view.stacks[view.seat]
        if len(live_opponents(view)) == 1:
            # Heads-up the hand is about to be decided: know what is at stake.
            return True
        if bet.min_amount >= stack or bet.min_amount > LOOK_STAKE_SHARE * stack:
            return True
        return view.bets_made[view.seat] >= BLIND_TURNS

    def _seen(self, view: TeenPattiView, cards: Sequence[Card], bet: LegalAction) -> Action:
        assert view.seat is not None and bet.min_amount is not None
        legal = view.legal
        seat = view.seat
        opponents = len(live_opponents(view))
        strength = hand_strength(cards)
        best = strength**opponents
        price = bet.min_amount
        can_raise = bet.max_amount != bet.min_amount
        if best >= RAISE_AT and can_raise:
            return clamp_amount(bet, price + view.pot // 2)
        show = view.show_cost
        if ActionKind.SHOW in legal and show is not None:
            if best >= show / (view.pot + show) + CALL_MARGIN:
                return Action(ActionKind.SHOW)
            return Action.fold()
        if ActionKind.SIDESHOW in legal and opponents >= 2 and strength >= 0.7:
            return Action(ActionKind.SIDESHOW)
        # What a hand is worth risking: everything for a near-lock, little for a weak one.
        put_in = view.bets[seat]
        budget = (view.stacks[seat] + put_in) * best**2
        if put_in + price > budget and price < view.stacks[seat]:
            return Action.fold()
        if best < price / (view.pot + price) + CALL_MARGIN:
            return Action.fold()
        if can_raise and best >= ESCALATE_AT and view.bets_since_seen[seat] >= ESCALATE_AFTER:
            return clamp_amount(bet, 2 * price)
        return Action(ActionKind.BET, price)
