"""PHH, the TOML poker hand-history standard of the PokerKit project, for Razz (``FR``).

A PHH file names the variant, the antes (one per seat), the bring-in, the
small and big bets, the starting stacks and a list of actions:
``d dh p1 7c3hKc`` (deal to player 1: down, down, up on third street, one up
card on fourth to sixth, one down card on seventh), ``p1 pb`` (bring-in),
``p1 cbr 300`` (complete, bet or raise to 300), ``p1 cc`` (check or call),
``p1 f`` (fold), ``p1 sm 7c3h...`` (show) and ``p1 sm`` (muck).

Seats: PHH player ``p1`` is our seat 0, the first seat left of the dealer,
``p2`` seat 1, and so on. Stud has no button to post blinds, but the order
still matters: cards are dealt from ``p1`` on and equal up cards or boards are
broken in favour of the lowest player number, exactly as for our seats.

Reading a PHH file (:mod:`pokerhouse.history.phh_reader`), replaying it
through our engine (:mod:`~pokerhouse.history.phh_replay`) and writing one
(:mod:`~pokerhouse.history.phh_writer`) are modules of their own; their
names are importable from here.

>>> from pokerhouse.games import new_hand
>>> from pokerhouse.engine import Action
>>> hand = new_hand("razz", [100, 100], seed=4)
>>> while not hand.is_over:
...     _ = hand.act(Action(hand.legal_actions().kinds[0]))
>>> text = to_phh(hand)
>>> text.splitlines()[0]
"variant = 'FR'"
>>> replay_phh(text).stacks == hand.stacks
True
"""

from __future__ import annotations

from pokerhouse.history.phh_reader import (
    RAZZ,
    VARIANTS,
    PhhAction,
    PhhHand,
    parse_phh_cards,
    read_phh,
)
from pokerhouse.history.phh_replay import replay_phh
from pokerhouse.history.phh_writer import to_phh

__all__ = [
    "RAZZ",
    "VARIANTS",
    "PhhAction",
    "PhhHand",
    "parse_phh_cards",
    "read_phh",
    "replay_phh",
    "to_phh",
]
