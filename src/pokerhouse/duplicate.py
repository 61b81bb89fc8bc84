"""The deck of a duplicate deal: each seat gets its own cards, whatever the others do.

A plain deck deals from the top round the live seats, so a fold moves every
later card along: in Razz the seat after a folder gets the folder's next
card. For a deal to be played again with the seats rotated (the arena,
:mod:`pokerhouse.arena`), each seat's cards must not depend on the play. A
:class:`DuplicateDeck` cuts the deal's order into a reserve per seat (the
first ``per_seat`` cards for seat 0, the next for seat 1, ...) and a common
stub after them: a seat is dealt from its own reserve, and everything else
(the board, burns, the dealer's cards, a seat whose reserve is spent) from
the stub. Burns and the board come off the stub in the same order however
the seats play, so they are the same too.

Only when a game needs more cards than the deck holds (Razz at seven or
eight seats, where the reserves are cut shorter and the short-deck rule
reshuffles the burns) can the last cards depend on the play; a stub run dry
takes from the reserves of seats no longer dealt to, so nothing fails.

>>> order = Deck(random.Random(4)).order()
>>> deck = DuplicateDeck(order, players=3, per_seat=2)
>>> [deck.deal(2), deck.deal(0), deck.deal(2)] == [order[4], order[0], order[5]]
True
>>> deck.deal() == order[6], deck.remaining  # the stub starts after the reserves
(True, 48)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pokerhouse.cards import FULL_DECK, Card, Deck, RandomSource, check_cards
from pokerhouse.errors import InvalidCards

#: Cards a duplicate deal keeps for the board and burns however many seats there are.
STUB_AT_LEAST = 4


class DuplicateDeck(Deck):
    """A deck in ``order`` (top first, all 52 cards) with ``per_seat`` cards kept for each seat.

    ``per_seat`` is cut down so that :data:`STUB_AT_LEAST` cards are left
    for the stub. ``rng`` shuffles the stub when burned cards go back into it.
    """

    __slots__ = ("_reserves", "_stub")

    def __init__(
        self,
        order: Sequence[int],
        *,
        players: int,
        per_seat: int,
        rng: RandomSource | None = None,
    ) -> None:
        # Checked without making a Card per card: a match deals one order many times.
        check_cards(order, (len(FULL_DECK),))
        cards = [FULL_DECK[card] for card in order]
        super().__init__(rng if rng is not None else random.Random(0), shuffle=False)
        per_seat = max(0, min(per_seat, (len(cards) - STUB_AT_LEAST) // max(players, 1)))
        # Each list's top is its end, so a deal is a pop().
        self._reserves = [
            list(reversed(cards[seat * per_seat : (seat + 1) * per_seat]))
            for seat in range(players)
        ]
        self._stub = list(reversed(cards[players * per_seat :]))

    def __len__(self) -> int:
        return self.remaining

    @property
    def remaining(self) -> int:
        """Every card not yet dealt or burned: the reserves and the stub."""
        return len(self._stub) + sum(len(reserve) for reserve in self._reserves)

    def order(self) -> tuple[Card, ...]:
        """The undealt cards: each seat's reserve in seat order, then the stub (a secret)."""
        kept = [card for reserve in self._reserves for card in reversed(reserve)]
        return tuple(kept + list(reversed(self._stub)))

    def deal(self, seat: int | None = None) -> Card:
        """``seat``'s next card from its reserve; the stub's top for anything else."""
        reserves = self._reserves
        if seat is not None and 0 <= seat < len(reserves) and reserves[seat]:
            return reserves[seat].pop()
        if self._stub:
            return self._stub.pop()
        for reserve in reserves:
            if reserve:
                return reserve.pop()
        raise InvalidCards("deck_empty", "the deck is empty")

    def burn(self) -> None:
        """Burn the stub's top card (kept for a reshuffle)."""
        self._burned.append(self.deal())

    def reshuffle_burned(self) -> None:
        """Shuffle the burned cards into the stub (Razz's short-deck rule)."""
        cards = self._stub + self._burned
        self._burned = []
        self._rng.shuffle(cards)
        self._stub = cards
