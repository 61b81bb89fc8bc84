"""Casino Hold'em: boxes against the house dealer, Ante and Call, the AA Bonus.

>>> from pokerhouse.cards import Deck
>>> import random
>>> hand = CasinoHoldemHand(CasinoHoldemSpec(), [100, 100], Deck(random.Random(2)), antes=[5, 10])
>>> hand.to_act, [str(a) for a in hand.legal_actions()], hand.call_amount(1)
(0, ['fold', 'call'], 20)
"""

from pokerhouse.engine.events import DEALER

# Registers how this game's own events read (a side effect of the import).
from pokerhouse.games.casino_holdem import narration as _narration  # noqa: F401
from pokerhouse.games.casino_holdem.events import (
    BonusPosted,
    BonusResult,
    BonusSettled,
    BoxSettled,
    DealerQualified,
    HouseSettled,
)
from pokerhouse.games.casino_holdem.hand import CallOrFold, CasinoHoldemHand
from pokerhouse.games.casino_holdem.paytables import (
    AnteCategory,
    AntePays,
    BonusCategory,
    BonusPays,
    ante_category,
    bonus_category,
    dealer_qualifies,
)
from pokerhouse.games.casino_holdem.spec import CasinoHoldemSpec
from pokerhouse.games.casino_holdem.view import CasinoHoldemView

__all__ = [
    "DEALER",
    "AnteCategory",
    "AntePays",
    "BonusCategory",
    "BonusPays",
    "BonusPosted",
    "BonusResult",
    "BonusSettled",
    "BoxSettled",
    "CallOrFold",
    "CasinoHoldemHand",
    "CasinoHoldemSpec",
    "CasinoHoldemView",
    "DealerQualified",
    "HouseSettled",
    "ante_category",
    "bonus_category",
    "dealer_qualifies",
]
