"""How Teen Patti's own events read: a look, a new stake, a sideshow.

>>> from pokerhouse.games.narration import Speaker, narrate_hand_event
>>> narrate_hand_event(StakeRaised(stake=4), Speaker(["Ann", "Bob"]))
'The stake rises to 4 (blind bets at least 4, seen bets at least 8)'
"""

from __future__ import annotations

from pokerhouse.games.narration import Speaker, cards_text, narrates
from pokerhouse.games.teen_patti.events import CardsLooked, SideshowCompared, StakeRaised


@narrates(CardsLooked)
def _looked(event: CardsLooked, speaker: Speaker) -> str:
    if event.cards and all(card is not None for card in event.cards):
        shown = cards_text(event.cards)
        return speaker.says(
            event.seat, f"looks at their cards: {shown}", f"look at your cards: {shown}"
        )
    return speaker.says(event.seat, "looks at their cards", "look at your cards")


@narrates(StakeRaised)
def _stake(event: StakeRaised, speaker: Speaker) -> str:
    stake = event.stake
    return (
        f"The stake rises to {stake} (blind bets at least {stake}, seen bets at least {2 * stake})"
    )


@narrates(SideshowCompared)
def _sideshow(event: SideshowCompared, speaker: Speaker) -> str:
    shown = ""
    if all(card is not None for card in event.asker_cards + event.target_cards):
        shown = f" ({cards_text(event.asker_cards)} against {cards_text(event.target_cards)})"
    both = f"{speaker.name(event.asker)} and {speaker.name(event.target)}"
    loser = speaker.says(event.loser, "folds", "fold")
    return f"{both} compare hands{shown}: {loser}"
