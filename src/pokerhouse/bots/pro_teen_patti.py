"""The house's ``pro`` Teen Patti bot: reads, raises for what a raise makes, bluffs blind.

Teen Patti has no betting rounds: a bet raises the stake or keeps it, and
every player still in pays at least the stake (twice it once seen) on each
turn until one is left or two show. So the bot weighs each choice by what
it brings now:

- its **chance of the best hand**: blind, one in (players + what the seen
  opponents' bets say); seen, the share of hands its three cards beat raised
  to a power for each opponent, the higher the more that opponent has bet
  since looking (:mod:`.reads`), the lower the more of their bets were
  shown to be bluffs;
- **a raise** wins the pot at once at the rate the others have folded to its
  raises and makes everyone who stays pay more next turn; **the minimum**
  keeps it in cheaply; **a show** (heads-up) settles it for its price;
  **folding** costs nothing more. It takes the best of these, with its
  style (:class:`~pokerhouse.bots.persona.Persona`) deciding how much of a
  reason it wants to raise, how long it plays blind and how often it bluffs.

>>> import random
>>> from pokerhouse.games import new_hand
>>> hand = new_hand("teen-patti", [100, 100, 100], seed=2)
>>> bot = TeenPattiProBot(rng=random.Random(1))
>>> hand.act(bot.choose(hand.view(hand.to_act))) != ()
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import prod

from pokerhouse.bots.base import clamp_amount, live_opponents, require_decision, seeded
from pokerhouse.bots.persona import Persona
from pokerhouse.bots.reads import Reads
from pokerhouse.bots.teen_patti import hand_strength
from pokerhouse.engine.actions import Action, ActionKind, LegalAction
from pokerhouse.engine.hand import View
from pokerhouse.errors import InvalidAction
from pokerhouse.games.teen_patti.view import TeenPattiView

#: How sharply a seen opponent's bets narrow their range (per bet since looking).
RANGE_PER_BET = 0.9
#: Raises tried, as multiples of the least bet.
RAISES = (2, 3)
#: With three players or more a hand goes on: what continuing costs, beyond this bet.
MULTIWAY_COST = 0.5


class TeenPattiProBot:
    """Stake-, range- and fold-aware Teen Patti (see the module's docstring)."""

    name = "pro"

    def __init__(self, rng: random.Random | None = None, *, persona: Persona | None = None) -> None:
        self.rng = seeded(rng)
        self.persona = persona if persona is not None else Persona.draw(self.rng)
        self.reads = Reads()

    def new_hand(self, players: Sequence[str]) -> None:
        """Who sits in each seat of the next hand (stable names across hands)."""
        self.reads.new_hand(players)

    def hand_over(self, view: View) -> None:
        """The hand's last view: who folded to its raises, what the bettors showed."""
        self.reads.hand_over(view, _shown_strength)

    def choose(self, view: View) -> Action:
        """Look, bet, raise, show, sideshow or fold: the most the bot expects to win."""
        require_decision(view)
        if not isinstance(view, TeenPattiView):
            raise InvalidAction("wrong_game", f"the Teen Patti pro bot cannot play {view.game}")
        self.reads.seen(view)
        action = self._decide(view)
        self.reads.acted(view, action)
        return action

    # ------------------------------------------------------------ deciding

    def chance(self, view: TeenPattiView) -> float:
        """The chance of holding the best hand against every live opponent's range."""
        assert view.seat is not None
        opponents = live_opponents(view)
        cards = [card for card in view.my_cards if card is not None]
        if len(cards) == 3:
            strength = hand_strength(cards)
            return float(prod(strength ** (self._narrow(view, seat) + 1) for seat in opponents))
        # Blind: a random hand against ranges each (narrow + 1) times as choosy.
        return 1.0 / (1.0 + sum(self._narrow(view, seat) + 1 for seat in opponents))

    def _narrow(self, view: TeenPattiView, seat: int) -> float:
        if not view.seen[seat]:
            return 0.0
        honesty = (1.0 - self.reads.bluff_rate(seat)) / 0.8
        return RANGE_PER_BET * self.reads.pressure(seat) * min(1.5, max(0.0, honesty))

    def _decide(self, view: TeenPattiView) -> Action:
        legal = view.legal
        assert view.seat is not None
        seat = view.seat
        persona = self.persona
        if ActionKind.ACCEPT in legal:
            asker = view.sideshow[0] if view.sideshow is not None else None
            cards = [card for card in view.my_cards if card is not None]
            strength = hand_strength(cards) if len(cards) == 3 else 0.5
            narrow = self._narrow(view, asker) if asker is not None else 0.0
            accept = strength ** (narrow + 1) >= 0.55 + 0.05 * persona.tightness
            return Action(ActionKind.ACCEPT if accept else ActionKind.DECLINE)
        bet = legal.get(ActionKind.BET)
        blind = not view.seen[seat]
        if ActionKind.LOOK in legal and (bet is None or self._looks(view, bet)):
            return Action(ActionKind.LOOK)
        chance = self.chance(view)
        choices: list[tuple[float, Action]] = [(0.0, Action.fold())]
        if bet is not None:
            choices.extend(self._bets(view, bet, chance, blind))
        show = view.show_cost
        if ActionKind.SHOW in legal and show is not None:
            choices.append((chance * (view.pot + show) - show, Action(ActionKind.SHOW)))
        if ActionKind.SIDESHOW in legal and view.sideshow_cost is not None:
            cost = view.sideshow_cost
            choices.append((chance * (view.pot + cost) - cost * 0.9, Action(ActionKind.SIDESHOW)))
        action = max(choices, key=lambda choice: choice[0])[1]
        if ActionKind.FOLD not in legal and action.kind is ActionKind.FOLD:
            return max(choices[1:], key=lambda choice: choice[0])[1]
        if action.kind is ActionKind.FOLD and blind and bet is not None:
            # Folding blind throws away a hand never seen: look first if that is allowed.
            return Action(ActionKind.LOOK) if ActionKind.LOOK in legal else action
        return action

    def _bets(
        self, view: TeenPattiView, bet: LegalAction, chance: float, blind: bool
    ) -> list[tuple[float, Action]]:
        """The least bet and a few raises, each with what it is worth now."""
        assert bet.min_amount is not None and view.seat is not None
        least = bet.min_amount
        opponents = live_opponents(view)
        # An all-in opponent can neither fold nor pay more: a raise takes nothing at once.
        able = [seat for seat in opponents if not view.all_in[seat]]
        folds = prod(self.reads.fold_rate(seat) for seat in able) if able == opponents else 0.0
        later = 0.0 if len(opponents) == 1 else MULTIWAY_COST
        persona = self.persona
        found: list[tuple[float, Action]] = []
        amounts = [least, *(least * times for times in RAISES)]
        for amount in amounts:
            action = clamp_amount(bet, amount)
            assert action.amount is not None
            put_in = action.amount
            stake = max(view.stake, put_in if blind else put_in // 2)
            their_next = sum(stake if not view.seen[seat] else 2 * stake for seat in able)
            raised = stake > view.stake
            fold = min(0.95, folds * (1.0 + 0.1 * (put_in / least - 2))) if raised else 0.0
            called = chance * (1.0 - 0.3 * fold) * (view.pot + put_in + their_next)
            worth = fold * view.pot + (1 - fold) * (called - put_in * (1 + later))
            if raised:
                # A passive style wants a clearer reason to raise; an aggressive one less.
                worth -= view.pot * (0.04 + 0.06 * (1 - persona.aggression))
            found.append((worth, action))
        return found

    def _looks(self, view: TeenPattiView, bet: LegalAction) -> bool:
        """Whether to look now rather than bet blind once more."""
        assert view.seat is not None and bet.min_amount is not None
        seat = view.seat
        stack = view.stacks[seat]
        opponents = live_opponents(view)
        persona = self.persona
        if bet.min_amount >= stack or bet.min_amount > (0.03 + 0.02 * persona.aggression) * stack:
            return True
        if any(self.reads.pressure(other) >= 1 for other in opponents if view.seen[other]):
            return True  # a seen player is pushing: know what it is worth
        blind_turns = 1 + round(2 * persona.aggression - persona.tightness)
        return view.bets_made[seat] >= max(1, blind_turns)


def _shown_strength(view: View, seat: int) -> float | None:
    cards = view.cards[seat]
    if len(cards) != 3 or None in cards:
        return None
    return hand_strength([card for card in cards if card is not None])
