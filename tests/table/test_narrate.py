"""Table and hand events read as sentences, in the second person for the reader's own seat."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pokerhouse.cards import parse_cards
from pokerhouse.engine import Action
from pokerhouse.engine.events import ActionTaken, BetReturned, Event, PotAwarded
from pokerhouse.games.casino_holdem import BonusSettled
from pokerhouse.games.teen_patti import CardsLooked
from pokerhouse.table.events import (
    ChipsAdded,
    PlayerBusted,
    PlayerLeft,
    PlayerSat,
    SeatDrawCard,
    SittingOut,
)
from pokerhouse.table.narrate import narrate

NAMES = {0: "You", 1: "Chen"}

#: Each event for a seat and its player's name.
Make = Callable[[int, str], Event]


@pytest.mark.parametrize(
    ("make", "yours", "theirs"),
    [
        (
            lambda s, p: PotAwarded(pot=0, amount=4, winners=(s,), shares=(4,)),
            "You win 4 from the pot",
            "Chen wins 4 from the pot",
        ),
        (
            lambda s, p: BetReturned(seat=s, amount=74),
            "Your uncalled 74 is returned",
            "Chen's uncalled 74 is returned",
        ),
        (
            lambda s, p: CardsLooked(seat=s, cards=()),
            "You look at your cards",
            "Chen looks at their cards",
        ),
        (
            lambda s, p: ActionTaken(seat=s, action=Action.call(), added=20, total=60),
            "You call 20",
            "Chen calls 20",
        ),
        (
            lambda s, p: PlayerBusted(seat=s, player=p),
            "You are out of chips",
            "Chen is out of chips",
        ),
        (
            lambda s, p: PlayerSat(seat=s, player=p, chips=200),
            "You sit down in seat 1 with 200",
            "Chen sits down in seat 2 with 200",
        ),
        (
            lambda s, p: ChipsAdded(seat=s, player=p, amount=50, stack=200),
            "You add 50 chips (stack 200)",
            "Chen adds 50 chips (stack 200)",
        ),
        (
            lambda s, p: PlayerLeft(seat=s, player=p, chips=20),
            "You leave the table with 20",
            "Chen leaves the table with 20",
        ),
        (lambda s, p: SittingOut(seat=s, player=p, out=True), "You sit out", "Chen sits out"),
        (
            lambda s, p: SeatDrawCard(seat=s, player=p, card=parse_cards("Ah")[0]),
            "You draw Ah for the button",
            "Chen draws Ah for the button",
        ),
    ],
)
def test_you_and_they_agree_with_their_verbs(make: Make, yours: str, theirs: str) -> None:
    assert narrate(make(0, "You"), NAMES, you=0) == yours
    assert narrate(make(1, "Chen"), NAMES, you=0) == theirs


def test_a_hand_named_mid_sentence_is_in_lower_case() -> None:
    award = PotAwarded(pot=0, amount=4, winners=(1,), shares=(4,), description="Pair of aces")
    assert narrate(award, NAMES) == "Chen wins 4 from the pot with pair of aces"
    low = PotAwarded(pot=0, amount=4, winners=(1,), shares=(4,), description="8-6-4-2-A low")
    assert narrate(low, NAMES) == "Chen wins 4 from the pot with 8-6-4-2-A low"
    bonus = BonusSettled(seat=0, stake=5, won=True, paid=35, description="Two pair, aces and kings")
    assert (
        narrate(bonus, NAMES, you=0) == "You win 35 on the AA Bonus with two pair, aces and kings"
    )
