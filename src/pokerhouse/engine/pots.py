"""Main and side pots, and how a pot is split.

Each player can win only the chips of the pots they contributed to: a pot is
formed at every all-in level. Chips that no remaining player can claim (put
in by players who all folded) join the highest pot a remaining player can
claim.

>>> pots = build_pots([100, 40, 100, 70], live=[True, True, True, False])
>>> [(pot.amount, pot.eligible) for pot in pots]
[(160, (0, 1, 2)), (150, (0, 2))]
>>> split_pot(10, winners=[2, 0])
[(0, 5), (2, 5)]
>>> split_pot(11, winners=[2, 0])
[(0, 6), (2, 5)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pokerhouse.engine.events import PotAwarded


@dataclass(frozen=True, slots=True)
class Pot:
    """An amount and the seats that may win it."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(contributions: Sequence[int], live: Sequence[bool]) -> list[Pot]:
    """Split everything put in this hand into a main pot and side pots.

    ``contributions[i]`` is all seat ``i`` put in (antes included, returned
    bets excluded); ``live[i]`` is false for a seat that folded. Levels are the
    distinct contributions of live seats, so an all-in seat caps the pot it can
    win and a folded seat's chips go to the pots they reach.
    """
    levels = sorted({c for c, alive in zip(contributions, live, strict=True) if alive and c > 0})
    if not levels:
        total = sum(contributions)
        alive_seats = tuple(seat for seat, alive in enumerate(live) if alive)
        return [Pot(total, alive_seats)] if total and alive_seats else []
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributions)
        eligible = tuple(
            seat
            for seat, (c, alive) in enumerate(zip(contributions, live, strict=True))
            if alive and c >= level
        )
        pots.append(Pot(amount, eligible))
        previous = level
    # Folded seats' chips above the top live level join the highest pot.
    excess = sum(c - previous for c in contributions if c > previous)
    if excess:
        top = pots[-1]
        pots[-1] = Pot(top.amount + excess, top.eligible)
    return merge_pots(pots)


def merge_pots(pots: list[Pot]) -> list[Pot]:
    """Adjacent pots with the same eligible seats are one pot."""
    merged: list[Pot] = []
    for pot in pots:
        if merged and merged[-1].eligible == pot.eligible:
            merged[-1] = Pot(merged[-1].amount + pot.amount, pot.eligible)
        elif pot.amount:
            merged.append(pot)
    return merged


def split_pot(amount: int, winners: Sequence[int]) -> list[tuple[int, int]]:
    """Shares of a pot among tied winners: ``[(seat, chips), ...]`` by seat.

    Seats are numbered clockwise from the first seat left of the button, so
    the odd chips go one at a time to the lowest seat numbers first.
    """
    if not winners:
        raise ValueError("a pot needs at least one winner")
    order = sorted(set(winners))
    share, odd = divmod(amount, len(order))
    return [(seat, share + (1 if index < odd else 0)) for index, seat in enumerate(order)]


def award_pot(
    index: int, amount: int, winners: Sequence[int], stacks: list[int], description: str = ""
) -> PotAwarded:
    """Split a pot among ``winners``, add the shares to ``stacks`` and return the event."""
    shares = split_pot(amount, winners)
    for seat, share in shares:
        stacks[seat] += share
    return PotAwarded(
        pot=index,
        amount=amount,
        winners=tuple(seat for seat, _ in shares),
        shares=tuple(share for _, share in shares),
        description=description,
    )
