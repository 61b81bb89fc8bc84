"""What one box of a Casino Hold'em round may know: the common view and the game's own facts.

>>> from pokerhouse.cards import Deck
>>> from pokerhouse.games.casino_holdem.hand import CasinoHoldemHand
>>> from pokerhouse.games.casino_holdem.spec import CasinoHoldemSpec
>>> deck = Deck.stacked("Ah Kd 9c 9d  Ac Kh 2s  3h 7d")
>>> view = CasinoHoldemHand(CasinoHoldemSpec(), [100], deck, antes=[10]).view(0)
>>> view.call_amount, view.dealer_cards, view.pots
(20, (None, None), ())
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerhouse.cards import Card
from pokerhouse.engine.hand import View
from pokerhouse.engine.pots import Pot


@dataclass(slots=True)
class CasinoHoldemView(View):
    """A Casino Hold'em view: boxes against the dealer, so there are no pots.

    ``bets`` (and ``contributed``) are the chips each box has on the layout;
    ``antes`` and ``bonuses`` each box's bets; ``called`` which boxes called;
    ``dealer_cards`` the dealer's two cards (``None`` until shown);
    ``dealer_qualifies`` whether the dealer qualified (``None`` before the
    showdown); ``call_amount`` what calling costs the viewing box (``None``
    for a spectator); ``max_payout`` the table's cap on a box's winnings;
    ``house_result`` the house's result once the round is over.
    """

    antes: tuple[int, ...]
    bonuses: tuple[int, ...]
    called: tuple[bool, ...]
    dealer_cards: tuple[Card | None, ...]
    dealer_qualifies: bool | None
    call_amount: int | None
    max_payout: int
    house_result: int | None

    @property
    def pots(self) -> tuple[Pot, ...]:
        return ()
