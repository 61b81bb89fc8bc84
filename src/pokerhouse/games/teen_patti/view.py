"""What one seat of a Teen Patti hand may know: the common view and the game's own facts.

>>> import random
>>> from pokerhouse.cards import Deck
>>> from pokerhouse.games.teen_patti.hand import TeenPattiHand
>>> from pokerhouse.games.teen_patti.spec import TeenPattiSpec
>>> view = TeenPattiHand(TeenPattiSpec(ante=5), [100, 100], Deck(random.Random(2))).view(0)
>>> view.stake, view.blind_min, view.seen_min, view.seen
(5, 5, 10, (False, False))
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerhouse.engine.hand import View
from pokerhouse.engine.pots import Pot
from pokerhouse.games.teen_patti.pots import teen_patti_pots


@dataclass(slots=True)
class TeenPattiView(View):
    """A Teen Patti view. ``bets`` are what each seat has put in over the whole hand.

    ``stake`` is the current stake (``blind_min``, the least a blind bet;
    ``seen_min``, twice it, the least a seen bet); ``seen[s]`` whether seat
    ``s`` has looked; ``limit`` the betting limit's name; ``show_cost`` and
    ``sideshow_cost`` what a show or a sideshow costs the seat to act, ``None``
    when it may not ask for one; ``sideshow`` ``(asker, target)`` while a
    sideshow waits for its answer; ``bets_made[s]`` the bets seat ``s`` has
    made this hand and ``bets_since_seen[s]`` those since it looked.
    """

    stake: int
    seen: tuple[bool, ...]
    limit: str
    show_cost: int | None
    sideshow_cost: int | None
    sideshow: tuple[int, int] | None
    bets_made: tuple[int, ...]
    bets_since_seen: tuple[int, ...]

    @property
    def blind_min(self) -> int:
        """The least a blind player bets: the stake."""
        return self.stake

    @property
    def seen_min(self) -> int:
        """The least a seen player bets: twice the stake."""
        return 2 * self.stake

    @property
    def pots(self) -> tuple[Pot, ...]:
        live = [not folded for folded in self.folded]
        return tuple(teen_patti_pots(self.contributed, live, self.all_in))
