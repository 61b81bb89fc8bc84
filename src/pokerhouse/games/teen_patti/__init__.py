"""3 Card Poker (Teen Patti): blind and seen play, shows, sideshows.

>>> from pokerhouse.cards import Deck
>>> import random
>>> hand = TeenPattiHand(TeenPattiSpec(ante=2), [50, 50, 50], Deck(random.Random(4)))
>>> hand.to_act, hand.stake, [str(a) for a in hand.legal_actions()]
(0, 2, ['fold', 'look', 'bet 2-48'])
"""

from pokerhouse.games.teen_patti.events import CardsLooked, SideshowCompared, StakeRaised
from pokerhouse.games.teen_patti.hand import TeenPattiHand
from pokerhouse.games.teen_patti.pots import teen_patti_pots
from pokerhouse.games.teen_patti.spec import TeenPattiSpec

__all__ = [
    "CardsLooked",
    "SideshowCompared",
    "StakeRaised",
    "TeenPattiHand",
    "TeenPattiSpec",
    "teen_patti_pots",
]
