"""Razz: seven-card stud for the lowest A-5 hand, fixed limit, with a bring-in.

>>> from pokerhouse.cards import Deck
>>> deck = Deck.stacked("2c 3c 4c 5c 6c 7c Kd Ks 9h")
>>> hand = RazzHand(RazzSpec(ante=1, bring_in=2, small_bet=5, big_bet=10), [100] * 3, deck)
>>> hand.to_act, [str(a) for a in hand.legal_actions()]
(1, ['bring_in', 'complete 5'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pokerhouse import evaluate
from pokerhouse.cards import Card, Deck
from pokerhouse.engine.actions import Action, ActionKind, LegalAction, LegalActions
from pokerhouse.engine.betting import Limit
from pokerhouse.engine.events import ActionTaken, BoardDealt, DeckReshuffled
from pokerhouse.engine.rounds import RoundHand, Sized, Street
from pokerhouse.errors import InvalidSpec
from pokerhouse.games import checks

_FOLD = LegalAction(ActionKind.FOLD)
_COMPLETE = ActionKind.COMPLETE
#: Each card's rank as a low card: ace 1, two 2 ... king 13 (cards are 4 * rank + suit).
_LOW_RANK = tuple(((card >> 2) + 1) % 13 + 1 for card in range(52))
#: Each card's place in :func:`bring_in_key`'s order (king of spades highest).
_BRING_IN_ORDER = tuple(((card >> 2) + 1) % 13 * 4 + (card & 3) for card in range(52))


@dataclass(frozen=True, slots=True)
class RazzSpec:
    """Razz's four amounts and its raise cap.

    ``max_raises`` raises may follow the bet (the completion counts as the
    bet); with ``heads_up_uncapped`` there is no cap when only two players are
    left in the hand.
    """

    ante: int = 1
    bring_in: int = 2
    small_bet: int = 5
    big_bet: int = 10
    max_raises: int = 3
    heads_up_uncapped: bool = False

    def __post_init__(self) -> None:
        for name, minimum in (("ante", 0), ("bring_in", 1), ("small_bet", 1), ("max_raises", 0)):
            checks.whole(name, getattr(self, name), minimum=minimum)
        checks.whole("big_bet", self.big_bet, minimum=self.small_bet)
        if self.bring_in >= self.small_bet:
            raise InvalidSpec(
                "bad_spec",
                f"the bring-in ({self.bring_in}) must be smaller than the small bet "
                f"({self.small_bet})",
            )
        checks.flag("heads_up_uncapped", self.heads_up_uncapped)


def bring_in_key(card: Card) -> tuple[int, int]:
    """How high an up card is for the bring-in: king highest, ace lowest, then suit.

    >>> from pokerhouse.cards import parse_cards
    >>> kh, kd, ac = parse_cards("Kh Kd Ac")
    >>> bring_in_key(kh) > bring_in_key(kd) > bring_in_key(ac)
    True
    """
    return (card.rank + 1) % 13, card.suit


def low_board_key(cards: Sequence[Card]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Sort key of up cards as a low hand: smaller is better, pairs worse than none.

    >>> from pokerhouse.cards import parse_cards
    >>> low_board_key(parse_cards("Kc Qd")) < low_board_key(parse_cards("5c 5d"))
    True
    >>> low_board_key(parse_cards("8c 7d 4h 2s")) < low_board_key(parse_cards("8d 7c 5h As"))
    True
    """
    return _ranks_key([((card >> 2) + 1) % 13 + 1 for card in cards])  # ace 1 ... king 13


_SINGLES = tuple((1,) * count for count in range(8))


def _ranks_key(ranks: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:func:`low_board_key` of cards given by their low ranks (ace 1 ... king 13)."""
    if len(set(ranks)) == len(ranks):
        # No pair (the common board): every group is one card, highest rank first.
        return _SINGLES[len(ranks)], tuple(sorted(ranks, reverse=True))
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    groups = sorted(counts.items(), key=lambda item: (-item[1], -item[0]))
    return tuple(count for _, count in groups), tuple(rank for rank, _ in groups)


class RazzHand(RoundHand):
    """One hand of Razz; seat 0 is the first seat left of the dealer."""

    game = "razz"
    min_players = 2
    max_players = 8
    streets = (
        Street("third", down=2, up=1),
        Street("fourth", up=1, burn=True),
        Street("fifth", up=1, burn=True, big_bet=True),
        Street("sixth", up=1, burn=True, big_bet=True),
        Street("seventh", down=1, burn=True, big_bet=True),
    )

    def __init__(
        self,
        spec: RazzSpec,
        stacks: Sequence[int],
        deck: Deck | None = None,
        *,
        always_show: Iterable[int] = frozenset(),
        manual_showdown: bool = False,
    ) -> None:
        if not isinstance(spec, RazzSpec):
            raise InvalidSpec("bad_spec", f"{self.game} needs a RazzSpec, not {spec!r}")
        super().__init__(
            stacks,
            deck if deck is not None else Deck(),
            ante=spec.ante,
            limit=Limit.FIXED_LIMIT,
            always_show=always_show,
            manual_showdown=manual_showdown,
        )
        self.spec = spec
        self.bring_in_seat: int | None = None
        self._openers: list[int] = []
        # Each seat's up cards by low rank (ace 1 ... king 13), as they are dealt.
        self._up_ranks: list[list[int]] = [[] for _ in stacks]
        self._start()

    # ------------------------------------------------------------ sizes and caps

    def _bet_size(self) -> int:
        street = self.street
        return self.spec.big_bet if street is not None and street.big_bet else self.spec.small_bet

    def _max_raises(self) -> int | None:
        if self.spec.heads_up_uncapped and len(self._live()) <= 2:
            return None
        return self.spec.max_raises + 1

    def _sized_action(self, seat: int, stack: int, to_call: int) -> Sized | None:
        # Past the completion (third street's bet below the small bet completes).
        if self.street_index != 0 or self.current_bet >= self.spec.small_bet:
            return RoundHand._sized_action(self, seat, stack, to_call)
        if stack <= to_call or not self.can_raise[seat] or not self._another_can_bet(seat):
            return None
        total = min(self.spec.small_bet, self.bets[seat] + stack)
        return (_COMPLETE, total, total)

    def _full_raise(self, kind: ActionKind) -> int:
        if kind is ActionKind.COMPLETE:
            # Completing to the small bet is the street's full bet.
            return self.spec.small_bet - self.current_bet
        return RoundHand._full_raise(self, kind)

    # ------------------------------------------------------------ who acts first

    def _open_street(self) -> bool:
        if self.street_index != 0:
            return True
        able = [seat for seat in range(self.players) if self._can_act(seat)]
        if len(able) < 2:
            return True
        # The highest up card by bring_in_key, read from a table of all 52 cards.
        cards = self.cards
        door = max(range(self.players), key=lambda seat: _BRING_IN_ORDER[cards[seat][2]])
        # A bring-in player all-in for the ante is skipped: the next seat brings in.
        seat = next(
            s % self.players for s in range(door, door + self.players) if s % self.players in able
        )
        self.bring_in_seat = seat
        self.to_act = seat
        self._openers.append(seat)
        return False

    def _first_to_act(self) -> int:
        live = self._live()
        if self.street_index == 4 and len(self._openers) >= 4 and self._openers[3] in live:
            first = self._openers[3]
        else:
            # The seat breaks ties between equal boards: the first clockwise.
            up_ranks = self._up_ranks
            first = min([(_ranks_key(up_ranks[seat]), seat) for seat in live])[1]
        self._openers.append(first)
        return first

    # ------------------------------------------------------------ the bring-in

    def _compute_legal(self) -> LegalActions:
        seat = self.to_act
        if seat is not None and seat == self.bring_in_seat and self._awaiting_bring_in():
            stack = self._stacks[seat]
            actions = [LegalAction(ActionKind.BRING_IN)]
            if stack > self.spec.bring_in:
                # With the bring-in or less behind, "completing" would be a short
                # bring-in that lets the others in for less than the full bring-in.
                complete = min(self.spec.small_bet, stack)
                actions.append(LegalAction(ActionKind.COMPLETE, complete, complete))
            return LegalActions(tuple(actions), stack_limit=stack)
        return RoundHand._compute_legal(self)

    def _bring_in_seat(self) -> int | None:
        # _awaiting_bring_in, inline: every view asks.
        if self.street_index == 0 and self.current_bet == 0 and not self.is_over:
            return self.bring_in_seat
        return None

    def _awaiting_bring_in(self) -> bool:
        return self.street_index == 0 and self.current_bet == 0 and not self.is_over

    def _apply(self, action: Action) -> None:
        seat = self.to_act
        if seat is not None and seat == self.bring_in_seat and self._awaiting_bring_in():
            self._legal = None
            self._start_third_street(seat, action)
            return
        RoundHand._apply(self, action)

    def _start_third_street(self, seat: int, action: Action) -> None:
        if action.kind is ActionKind.BRING_IN:
            amount = min(self.spec.bring_in, self._stacks[seat])
            self._put_in(seat, amount)
            # Others must enter for the full bring-in even if it was posted short.
            self.current_bet = self.spec.bring_in
            for other in range(self.players):
                if other != seat and self._can_act(other):
                    self.needs_action[other] = True
            self._emit(
                ActionTaken(
                    seat=seat, action=action, added=amount, total=amount, all_in=self.all_in[seat]
                )
            )
            self.needs_action[seat] = False
            self.can_raise[seat] = False
            self.bet_faced[seat] = self.current_bet
            self._after_action(seat)
        else:
            super()._apply(action)

    # ------------------------------------------------------------ dealing

    def _deal_street(self, street: Street) -> None:
        live = self.folded.count(False)
        if street.name != "seventh" or self.deck.remaining >= live + 1:
            RoundHand._deal_street(self, street)
            if street.up:
                # A street's up cards are dealt after its down cards: each live
                # seat's last ``street.up`` cards.
                up, cards, folded = street.up, self.cards, self.folded
                for seat, ranks in enumerate(self._up_ranks):
                    if not folded[seat]:
                        for card in cards[seat][-up:]:
                            ranks.append(_LOW_RANK[card])
            return
        # Short deck: burned cards go back into the stub; if that is still too
        # few, one community card face up plays for everybody.
        self.deck.reshuffle_burned()
        self._emit(DeckReshuffled())
        if self.deck.remaining >= live:
            super()._deal_street(Street(street.name, down=1, big_bet=True))
            return
        card = self.deck.deal()
        self._dealt = None
        self.board.append(card)
        self._emit(BoardDealt(cards=(card,)))

    # ------------------------------------------------------------ showdown

    def _hand_value(self, seat: int) -> int:
        return evaluate.low_value(self.cards[seat] + self.board)

    def _describe(self, seat: int) -> str:
        # The showdown has the value already; the description follows from it alone.
        value = self._values.get(seat)
        return evaluate.low_description(value if value is not None else self._hand_value(seat))
