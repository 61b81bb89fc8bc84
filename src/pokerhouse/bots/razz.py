"""The Razz bot: its low draw against the opponents' up cards, by simulation.

Razz is a game of visible cards: every up card on the table is one fewer
low card to draw, and an opponent's board says how good their hand can be.
The bot deals the unseen cards a few hundred times, keeping every seen card
where it is (its own cards, each live opponent's up cards, folded players'
up cards out of the deck), scores the A-5 lows in one batch with
:func:`pokerhouse.evaluate.low_batch`, and bets its equity against the pot odds.

>>> import random
>>> from pokerhouse.games import new_hand
>>> hand = new_hand("razz", [100, 100, 100], seed=8)
>>> bot = RazzBot(rng=random.Random(3))
>>> 0.0 <= bot.equity(hand.view(hand.to_act)) <= 1.0
True
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerhouse import evaluate
from pokerhouse.bots.base import live_opponents
from pokerhouse.bots.equity import monte_carlo_equity
from pokerhouse.bots.equity_bot import EquityBot
from pokerhouse.cards import Card
from pokerhouse.engine.hand import View


class RazzBot(EquityBot):
    """Board-aware Razz: its own draw against every live opponent's up cards."""

    def equity(self, view: View) -> float:
        """Share of the pot at showdown, dead cards and opponents' boards counted."""
        mine, opponents, dead = seen_cards(view, live_opponents(view))
        # A short deck's community card (rare) counts for everyone.
        board = view.board
        return monte_carlo_equity(
            mine,
            opponents,
            board,
            hole_total=7 - len(board),
            board_total=len(board),
            evaluate_batch=evaluate.low_batch,
            samples=self.samples,
            rng=self._np_rng,
            dead=dead,
        )


def seen_cards(
    view: View, opponents: Sequence[int]
) -> tuple[list[Card], list[tuple[Card, ...]], list[Card]]:
    """What a Razz seat sees: its own cards, each of ``opponents``' up cards, and the
    folded players' up cards (out of the deck)."""
    assert view.seat is not None
    mine = [card for card in view.my_cards if card is not None]
    shown = [tuple(card for card in view.cards[seat] if card is not None) for seat in opponents]
    dead = [
        card
        for seat, folded in enumerate(view.folded)
        if folded and seat != view.seat
        for card in view.cards[seat]
        if card is not None
    ]
    return mine, shown, dead
