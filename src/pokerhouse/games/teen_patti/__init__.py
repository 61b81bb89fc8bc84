"""3 Card Poker (Teen Patti): blind and seen play, shows, sideshows.

>>> from pokerhouse.cards import Deck
>>> import random
>>> hand = TeenPattiHand(TeenPattiSpec(ante=2), [50, 50, 50], Deck(random.Random(4)))
>>> hand.to_act, hand.stake, [str(a) for a in hand.legal_actions()]
(0, 2, ['fold', 'look', 'bet 2-48'])
"""

# Registers how this game's own events read (a side effect of the import).
from pokerhouse.games.teen_patti import narration as _narration  # noqa: F401
from pokerhouse.games.teen_patti.events import CardsLooked, SideshowCompared, StakeRaised
from pokerhouse.games.teen_patti.hand import TeenPattiHand
from pokerhouse.games.teen_patti.pots import teen_patti_pots
from pokerhouse.games.teen_patti.spec import TeenPattiSpec
from pokerhouse.games.teen_patti.view import TeenPattiView

__all__ = [
    "CardsLooked",
    "SideshowCompared",
    "StakeRaised",
    "TeenPattiHand",
    "TeenPattiSpec",
    "TeenPattiView",
    "teen_patti_pots",
]
