"""One round of Casino Hold'em: up to seven boxes against the dealer.

Each box bets an Ante (and optionally an AA Bonus); every box and the dealer
get two cards face down, then a three-card flop. The bonuses are settled at
once, then each box in seat order folds (losing its ante) or calls with
exactly twice its ante. The turn and river follow together, the dealer shows,
qualifies with a pair of fours or better, and each calling box is settled.

A box whose chips after the bonus cannot cover the call may only fold.

>>> from pokerhouse.cards import Deck
>>> from pokerhouse.engine.actions import Action
>>> # Box: Ah 9c; dealer: Kd 9d; flop Ac Kh 2s; turn and river 3h 7d.
>>> deck = Deck.stacked("Ah Kd 9c 9d  Ac Kh 2s  3h 7d")
>>> hand = CasinoHoldemHand(CasinoHoldemSpec(), [100], deck, antes=[10], bonuses=[5])
>>> hand.stacks, hand.to_act, [str(a) for a in hand.legal_actions()]  # bonus won 7:1
((125,), 0, ['fold', 'call'])
>>> _ = hand.act(Action.call())  # aces beat the dealer's kings: ante 1:1, call 1:1
>>> hand.results(), hand.house_result
((65,), -65)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pokerhouse import evaluate
from pokerhouse.cards import Card, Deck
from pokerhouse.engine.actions import Action, ActionKind, LegalAction, LegalActions
from pokerhouse.engine.events import (
    DEALER,
    ActionTaken,
    AntePosted,
    BoardDealt,
    CardsDealt,
    HandMucked,
    HandShown,
    HandStarted,
    StreetStarted,
)
from pokerhouse.engine.hand import NO_ACTIONS, Hand
from pokerhouse.engine.visibility import Holding, shown_to
from pokerhouse.errors import IllegalAction, InvalidAction, InvalidSpec
from pokerhouse.games.casino_holdem.events import (
    BonusPosted,
    BonusSettled,
    BoxSettled,
    DealerQualified,
    HouseSettled,
)
from pokerhouse.games.casino_holdem.paytables import (
    BonusCategory,
    ante_category,
    bonus_category,
    dealer_qualifies,
)
from pokerhouse.games.casino_holdem.spec import CasinoHoldemSpec
from pokerhouse.games.casino_holdem.view import CasinoHoldemView

_FOLD = LegalAction(ActionKind.FOLD)
_CALL = LegalAction(ActionKind.CALL)


@dataclass(frozen=True, slots=True)
class CallOrFold(LegalActions):
    """A box's choice after the flop; a call is exactly ``call_amount`` (twice the ante).

    >>> legal = CallOrFold((_FOLD, _CALL), call_amount=20, stack=90)
    >>> legal.check(Action.call()), legal.check(Action(ActionKind.CALL, 20)).amount
    (Action(kind=<ActionKind.CALL: 'call'>, amount=None), 20)
    >>> legal.check(Action(ActionKind.CALL, 30))
    Traceback (most recent call last):
    ...
    pokerhouse.errors.IllegalAction: a call is exactly twice the ante: 20, not 30
    """

    call_amount: int = 0
    stack: int = 0

    def check(self, action: object) -> Action:
        if (
            isinstance(action, Action)
            and isinstance(action.kind, ActionKind)
            and action.kind not in (ActionKind.FOLD, ActionKind.CALL)
        ):
            raise IllegalAction(
                "action_not_allowed",
                f"a box may only fold or call (twice its ante), not {action.kind.value}",
            )
        if isinstance(action, Action) and action.kind is ActionKind.CALL:
            if ActionKind.CALL not in self:
                raise IllegalAction(
                    "cannot_afford_call",
                    f"the call is {self.call_amount} and this box has {self.stack}: "
                    "it can only fold",
                )
            amount = action.amount
            if type(amount) is int and amount != self.call_amount:
                raise IllegalAction(
                    "wrong_call_amount",
                    f"a call is exactly twice the ante: {self.call_amount}, not {amount}",
                )
        return LegalActions.check(self, action)


class CasinoHoldemHand(Hand):
    """One round of Casino Hold'em: ``CasinoHoldemHand(spec, stacks, deck, antes=, bonuses=)``.

    ``stacks`` are the chips of each box's player (1 to 7 boxes); ``antes``
    (default: the table minimum each) and ``bonuses`` (default: none) are
    the bets each box makes before the deal. :meth:`setup` returns them so a
    history can re-create the round. Box ``s`` is seat ``s``; the dealer is
    seat ``-1`` in events.
    """

    game = "casino-holdem"
    min_players = 1
    max_players = 7

    def __init__(
        self,
        spec: CasinoHoldemSpec,
        stacks: Sequence[int],
        deck: Deck | None = None,
        *,
        antes: Sequence[int] | None = None,
        bonuses: Sequence[int] | None = None,
    ) -> None:
        super().__init__(stacks)
        if not isinstance(spec, CasinoHoldemSpec):
            raise InvalidSpec("bad_spec", "a Casino Hold'em hand needs a CasinoHoldemSpec")
        n = self.players
        self.spec = spec
        self.deck = deck if deck is not None else Deck()
        self.antes: tuple[int, ...] = _bets("antes", antes, [spec.min_ante] * n, n)
        self.bonuses: tuple[int, ...] = _bets("bonuses", bonuses, [0] * n, n)
        self._check_bets()
        self.cards: list[tuple[Card, ...]] = [() for _ in range(n)]
        self.dealer_cards: tuple[Card, ...] = ()
        self.board: list[Card] = []
        self.street: str | None = None
        self.called = [False] * n
        self.revealed = [False] * n
        self.dealer_shown = False
        # Nobody sees the dealer's cards until they are shown.
        self._dealer_held = Holding(frozenset())
        self.dealer_qualifies: bool | None = None
        # ``contributed`` is what each box has on the layout (ante, call and an
        # unsettled bonus).
        self._house = 0
        self._start()

    def _check_bets(self) -> None:
        spec = self.spec
        for seat, (ante, bonus, stack) in enumerate(
            zip(self.antes, self.bonuses, self.starting_stacks, strict=True)
        ):
            if ante < spec.min_ante:
                raise InvalidSpec(
                    "ante_below_minimum",
                    f"box {seat}: ante {ante} is below the table minimum of {spec.min_ante}",
                )
            if ante > spec.max_ante:
                raise InvalidSpec(
                    "ante_above_maximum",
                    f"box {seat}: ante {ante} is above the table maximum of {spec.max_ante}",
                )
            if bonus and bonus > ante:
                raise InvalidSpec(
                    "bonus_above_ante",
                    f"box {seat}: bonus {bonus} is above its ante of {ante}",
                )
            if bonus and bonus < spec.bonus_minimum:
                raise InvalidSpec(
                    "bonus_below_minimum",
                    f"box {seat}: bonus {bonus} is below the minimum of {spec.bonus_minimum}",
                )
            if ante + bonus > stack:
                raise InvalidSpec(
                    "stack_too_small",
                    f"box {seat}: ante {ante} and bonus {bonus} need {ante + bonus} chips, "
                    f"the box has {stack}",
                )

    # ---------------------------------------------------------------- queries

    def setup(self) -> dict[str, Any]:
        return {"antes": list(self.antes), "bonuses": list(self.bonuses)}

    @property
    def house_result(self) -> int:
        """The house's result for the round: what the boxes lost minus what they won."""
        if not self.is_over:
            raise IllegalAction("hand_not_over", "the round is not over yet")
        return self._house

    def call_amount(self, seat: int) -> int:
        """What box ``seat`` must put in to call: twice its ante."""
        return 2 * self.antes[seat]

    def legal_actions(self) -> LegalActions:
        seat = self.to_act
        if seat is None or self.is_over:
            return NO_ACTIONS
        need = self.call_amount(seat)
        stack = self._stacks[seat]
        actions = (_FOLD, _CALL) if stack >= need else (_FOLD,)
        return CallOrFold(actions, stack_limit=stack, call_amount=need, stack=stack)

    def _own_cards(self, seat: int) -> tuple[tuple[Card | None, ...], tuple[Card, ...]]:
        return shown_to(self._held[seat], seat), tuple(self.board)

    def _view(self, seat: int | None) -> CasinoHoldemView:
        cards = self._cards_for(seat)
        dealer = shown_to(self._dealer_held, seat)
        on_table = tuple(self.contributed)
        return CasinoHoldemView(
            self.game,
            seat,
            self.street,
            tuple(self._stacks),
            on_table,
            on_table,
            cards,
            tuple(self.board),
            tuple(self.folded),
            tuple(self.all_in),
            self.to_act,
            self._legal_for(seat),
            self.is_over,
            self.antes,
            self.bonuses,
            tuple(self.called),
            dealer,
            self.dealer_qualifies,
            self.call_amount(seat) if seat is not None else None,
            self.spec.max_payout,
            self._house if self.is_over else None,
        )

    # ---------------------------------------------------------------- flow

    def _start(self) -> None:
        """Take the bets, deal, settle the bonuses and stop at the first box's decision."""
        self._emit(HandStarted(game=self.game, stacks=self.starting_stacks))
        boxes = range(self.players)
        for seat in boxes:
            self._put_in(seat, self.antes[seat])
            self._emit(AntePosted(seat=seat, amount=self.antes[seat]))
            if self.bonuses[seat]:
                self._put_in(seat, self.bonuses[seat])
                self._emit(BonusPosted(seat=seat, amount=self.bonuses[seat]))
        self.street = "hole"
        # One card at a time, clockwise from the first box, the dealer last.
        for _ in range(2):
            for seat in boxes:
                self.cards[seat] += (self.deck.deal(seat),)
            self.dealer_cards += (self.deck.deal(DEALER),)
        held = self._held
        for seat in boxes:
            self._hold(seat, held[seat].dealt(self.cards[seat], (False, False)))
            self._emit(CardsDealt(seat=seat, cards=self.cards[seat], face_up=(False, False)))
        self._dealer_held = self._dealer_held.dealt(self.dealer_cards, (False, False))
        self._emit(
            CardsDealt(
                seat=DEALER, cards=self.dealer_cards, face_up=(False, False), owner_sees=False
            )
        )
        self.street = "flop"
        self._emit(StreetStarted(street="flop"))
        flop = self.deck.deal_many(3)
        self.board.extend(flop)
        self._emit(BoardDealt(cards=flop))
        for seat in boxes:
            if self.bonuses[seat]:
                self._settle_bonus(seat)
        self.to_act = 0

    def _settle_bonus(self, seat: int) -> None:
        """Pay or take the AA Bonus on the box's two cards and the flop."""
        stake = self.bonuses[seat]
        five = self.cards[seat] + tuple(self.board)
        category = bonus_category(evaluate.high_value(five))
        self.contributed[seat] -= stake
        if category is BonusCategory.LOSES:
            self._house += stake
            self._emit(BonusSettled(seat=seat, stake=stake, won=False, paid=0))
            return
        paid = stake * self.spec.bonus_pays.odds(category)
        self._stacks[seat] += stake + paid
        self.all_in[seat] = False
        self._house -= paid
        self._emit(
            BonusSettled(
                seat=seat,
                stake=stake,
                won=True,
                paid=paid,
                description=evaluate.high(five).description,
            )
        )

    def _apply(self, action: Action) -> None:
        seat = self.to_act
        assert seat is not None
        ante = self.antes[seat]
        if action.kind is ActionKind.FOLD:
            self.folded[seat] = True
            self.contributed[seat] -= ante
            self._house += ante
            self._emit(ActionTaken(seat=seat, action=action, added=0, total=ante))
            self._emit(BoxSettled(seat=seat, outcome="folded", ante=-ante, call=0, net=-ante))
        elif action.kind is ActionKind.CALL:
            self.called[seat] = True
            self._put_in(seat, self.call_amount(seat))
            self._emit(
                ActionTaken(
                    seat=seat,
                    action=Action.call(),
                    added=self.call_amount(seat),
                    total=ante + self.call_amount(seat),
                    all_in=self.all_in[seat],
                )
            )
        else:  # pragma: no cover - CallOrFold.check lets nothing else through
            raise InvalidAction("unknown_action", f"{action} is not a Casino Hold'em action")
        self.to_act = seat + 1 if seat + 1 < self.players else None
        if self.to_act is None:
            self._showdown()

    def _showdown(self) -> None:
        """Turn and river, the dealer shows and qualifies (or not), each calling box is settled."""
        if not any(self.called):
            # Nobody is left to play against: the dealer's cards go back unseen.
            self._emit(HandMucked(seat=DEALER))
            self._finish()
            return
        self.street = "showdown"
        self._emit(StreetStarted(street="showdown"))
        rest = self.deck.deal_many(2)
        self.board.extend(rest)
        self._emit(BoardDealt(cards=rest))
        dealer_seven = self.dealer_cards + tuple(self.board)
        dealer_value = evaluate.high_value(dealer_seven)
        self.dealer_shown = True
        self._dealer_held = self._dealer_held.shown()
        description = evaluate.high(dealer_seven).description
        self._emit(HandShown(seat=DEALER, cards=self.dealer_cards, description=description))
        self.dealer_qualifies = dealer_qualifies(dealer_value)
        self._emit(DealerQualified(qualifies=self.dealer_qualifies, description=description))
        for seat in range(self.players):
            if self.called[seat]:
                self._settle_box(seat, dealer_value)
        self._finish()

    def _settle_box(self, seat: int, dealer_value: int) -> None:
        seven = self.cards[seat] + tuple(self.board)
        value = evaluate.high_value(seven)
        self.revealed[seat] = True
        self._hold(seat, self._held[seat].shown())
        self._emit(
            HandShown(
                seat=seat, cards=self.cards[seat], description=evaluate.high(seven).description
            )
        )
        ante = self.antes[seat]
        call = self.call_amount(seat)
        ante_win = ante * self.spec.ante_pays.odds(ante_category(value))
        if not self.dealer_qualifies:
            outcome, ante_result, call_result = "dealer_not_qualified", ante_win, 0
        elif value > dealer_value:
            outcome, ante_result, call_result = "won", ante_win, call
        elif value == dealer_value:
            outcome, ante_result, call_result = "stand_off", 0, 0
        else:
            outcome, ante_result, call_result = "lost", -ante, -call
        self.contributed[seat] -= ante + call
        if outcome == "lost":
            self._house += ante + call
            net, capped = -(ante + call), 0
        else:
            winnings = ante_result + call_result
            net = min(winnings, self.spec.max_payout)
            capped = winnings - net
            self._stacks[seat] += ante + call + net
            self.all_in[seat] = self._stacks[seat] == 0
            self._house -= net
        self._emit(
            BoxSettled(
                seat=seat,
                outcome=outcome,
                ante=ante_result,
                call=call_result,
                capped=capped,
                net=net,
            )
        )

    def _before_end(self) -> None:
        self._emit(HouseSettled(result=self._house))


def _bets(
    name: str, given: Sequence[int] | None, default: list[int], boxes: int
) -> tuple[int, ...]:
    values = list(default if given is None else given)
    if len(values) != boxes:
        raise InvalidSpec(
            "bad_setup", f"{name} needs one amount for each of the {boxes} boxes, got {len(values)}"
        )
    for value in values:
        if type(value) is not int or value < 0:
            raise InvalidSpec("bad_setup", f"{name}: {value!r} is not a whole number of chips")
    return tuple(values)
