"""3x4 Poker: ante, three hole cards, four community cards (2 + 1 + 1), four rounds.

>>> import random
>>> from pokerhouse.cards import Deck
>>> hand = ThreeByFourHand(ThreeByFourSpec(ante=1, small_bet=2), [100, 100, 100],
...                        Deck(random.Random(1)))
>>> hand.to_act, hand.pot_total, hand.street.name
(0, 3, 'hole')
>>> [str(a) for a in hand.legal_actions()]
['fold', 'check', 'bet 2-99']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pokerhouse import evaluate
from pokerhouse.cards import Deck
from pokerhouse.engine.betting import Limit
from pokerhouse.engine.rounds import RoundHand, Street
from pokerhouse.errors import InvalidSpec
from pokerhouse.games import checks


@dataclass(frozen=True, slots=True)
class ThreeByFourSpec:
    """Table settings for 3x4 Poker.

    ``small_bet`` is the minimum opening bet in no-limit and pot-limit, and
    the bet of the first two rounds in fixed-limit; ``big_bet`` (default twice
    the small bet) is the fixed-limit bet of the last two rounds. ``max_raises``
    caps raises after the bet in fixed-limit.
    """

    ante: int = 1
    small_bet: int = 2
    big_bet: int | None = None
    limit: Limit = Limit.NO_LIMIT
    max_raises: int = 3

    def __post_init__(self) -> None:
        object.__setattr__(self, "limit", checks.limit(self.limit))
        checks.whole("ante", self.ante, minimum=0)
        checks.whole("small_bet", self.small_bet, minimum=1)
        if self.big_bet is not None:
            checks.whole("big_bet", self.big_bet, minimum=self.small_bet)
        checks.whole("max_raises", self.max_raises, minimum=0)

    @property
    def big(self) -> int:
        """The fixed-limit bet of the turn and river."""
        return self.big_bet if self.big_bet is not None else 2 * self.small_bet


class ThreeByFourHand(RoundHand):
    """One hand of 3x4 Poker; seat 0 is the first seat left of the button."""

    game = "3x4"
    min_players = 2
    max_players = 10
    streets = (
        Street("hole", down=3),
        Street("flop", board=2, burn=True),
        Street("turn", board=1, burn=True, big_bet=True),
        Street("river", board=1, burn=True, big_bet=True),
    )

    def __init__(
        self,
        spec: ThreeByFourSpec,
        stacks: Sequence[int],
        deck: Deck | None = None,
        *,
        always_show: Iterable[int] = frozenset(),
        manual_showdown: bool = False,
    ) -> None:
        if not isinstance(spec, ThreeByFourSpec):
            raise InvalidSpec("bad_spec", f"{self.game} needs a ThreeByFourSpec, not {spec!r}")
        super().__init__(
            stacks,
            deck if deck is not None else Deck(),
            ante=spec.ante,
            limit=spec.limit,
            always_show=always_show,
            manual_showdown=manual_showdown,
        )
        self.spec = spec
        self._start()

    def _bet_size(self) -> int:
        street = self.street
        if self.limit is Limit.FIXED_LIMIT and street is not None and street.big_bet:
            return self.spec.big
        return self.spec.small_bet

    def _max_raises(self) -> int | None:
        # Fixed-limit: one bet and ``max_raises`` raises per round.
        return self.spec.max_raises + 1 if self.limit is Limit.FIXED_LIMIT else None

    def _first_to_act(self) -> int:
        return 0

    def _hand_value(self, seat: int) -> int:
        return evaluate.high_value(self.cards[seat] + self.board)

    def _describe(self, seat: int) -> str:
        # The showdown has the value already; the description follows from it alone.
        value = self._values.get(seat)
        return evaluate.high_description(value if value is not None else self._hand_value(seat))
