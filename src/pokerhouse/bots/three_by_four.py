"""The 3x4 Poker bot: Monte Carlo equity against random holdings, then pot odds.

Each decision deals the unseen cards a few hundred times (three hole cards
to every live opponent, the rest of the four-card board) and scores all the
seven-card hands in one batch with :func:`pokerhouse.evaluate.high_batch`.

>>> import random
>>> from pokerhouse.games import new_hand
>>> hand = new_hand("3x4", [100, 100, 100], seed=8)
>>> bot = ThreeByFourBot(rng=random.Random(3))
>>> 0.0 <= bot.equity(hand.view(hand.to_act)) <= 1.0
True
"""

from __future__ import annotations

from pokerhouse import evaluate
from pokerhouse.bots.base import live_opponents
from pokerhouse.bots.equity import monte_carlo_equity
from pokerhouse.bots.equity_bot import EquityBot
from pokerhouse.engine.hand import View


class ThreeByFourBot(EquityBot):
    """Equity-driven 3x4 Poker: its 7-card hand against random opponents' holdings."""

    def equity(self, view: View) -> float:
        """Share of the pot at showdown against every live opponent, by simulation."""
        mine = [card for card in view.my_cards if card is not None]
        opponents = [() for _ in live_opponents(view)]
        return monte_carlo_equity(
            mine,
            opponents,
            view.board,
            hole_total=3,
            board_total=4,
            evaluate_batch=evaluate.high_batch,
            samples=self.samples,
            rng=self._np_rng,
        )
