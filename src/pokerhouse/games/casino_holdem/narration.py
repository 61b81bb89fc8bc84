"""How Casino Hold'em's own events read: the bonus, the dealer, each box, the house.

>>> from pokerhouse.games.narration import Speaker, narrate_hand_event
>>> event = BoxSettled(seat=0, outcome="won", ante=10, call=20, net=30)
>>> narrate_hand_event(event, Speaker(["Ann"], you=0))
'You beat the dealer: +30'
"""

from __future__ import annotations

from pokerhouse.games.casino_holdem.events import (
    BonusPosted,
    BonusResult,
    BonusSettled,
    BoxSettled,
    DealerQualified,
    HouseSettled,
)
from pokerhouse.games.narration import Speaker, in_sentence, narrates

#: How each outcome of a box reads: (third person, second person).
OUTCOME_WORDS = {
    "folded": ("loses the ante", "lose the ante"),
    "dealer_not_qualified": (
        "is paid on the ante (the dealer does not qualify)",
        "are paid on the ante (the dealer does not qualify)",
    ),
    "won": ("beats the dealer", "beat the dealer"),
    "stand_off": ("ties the dealer: stand-off", "tie the dealer: stand-off"),
    "lost": ("loses to the dealer", "lose to the dealer"),
}


@narrates(BonusPosted)
def _bonus_posted(event: BonusPosted, speaker: Speaker) -> str:
    return speaker.says(
        event.seat, f"bets {event.amount} on the AA Bonus", f"bet {event.amount} on the AA Bonus"
    )


@narrates(BonusSettled)
def _bonus_settled(event: BonusSettled, speaker: Speaker) -> str:
    if event.won:
        with_hand = f" with {in_sentence(event.description)}" if event.description else ""
        won = f"{event.paid} on the AA Bonus{with_hand}"
        return speaker.says(event.seat, f"wins {won}", f"win {won}")
    lost = f"the AA Bonus of {event.stake}"
    return speaker.says(event.seat, f"loses {lost}", f"lose {lost}")


@narrates(BonusResult)
def _bonus_result(event: BonusResult, speaker: Speaker) -> str:
    if event.net > 0:
        won = f"{event.net} on the AA Bonus"
        return speaker.says(event.seat, f"wins {won}", f"win {won}")
    lost = f"the AA Bonus of {event.stake}"
    return speaker.says(event.seat, f"loses {lost}", f"lose {lost}")


@narrates(DealerQualified)
def _qualified(event: DealerQualified, speaker: Speaker) -> str:
    verdict = "qualifies" if event.qualifies else "does not qualify"
    return f"The dealer {verdict}" + (f" ({event.description})" if event.description else "")


@narrates(BoxSettled)
def _box(event: BoxSettled, speaker: Speaker) -> str:
    third, second = OUTCOME_WORDS.get(event.outcome, (event.outcome, event.outcome))
    cap = f", {event.capped} over the max payout not paid" if event.capped else ""
    return speaker.says(event.seat, third, second) + f": {event.net:+d}{cap}"


@narrates(HouseSettled)
def _house(event: HouseSettled, speaker: Speaker) -> str:
    return f"House result: {event.result:+d}"
