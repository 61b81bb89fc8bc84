"""The house's ``pro`` bots of the betting-round games (3x4 Poker, Razz).

Where the ``smart`` bots bet their equity against random holdings, never
bluff and size nothing, a pro bot:

- **reads its opponents' ranges**: its Monte Carlo deals are weighted by how
  strong each deal makes each opponent's hand, the more so the more that
  opponent has bet, raised or called in the hand (:mod:`.reads`), and the
  less so the more of their bets were shown to be bluffs;
- **bets for the money a bet makes**: for each size it may bet or raise it
  weighs what the pot brings when everyone folds (at the rate each opponent
  has folded to its bets) against what it wins or loses when called, and
  compares that with checking or calling. So it value-bets thinly against a
  player who calls everything and bluffs a player who folds too much,
  semi-bluffs a draw, sizes up a strong hand against callers and down
  where a small bet does the same work;
- **has a style** (:class:`~pokerhouse.bots.persona.Persona`): tight or
  loose moves what it plays and calls with, passive or aggressive how often
  it takes a bet that pays and how often it bluffs where the board or its up
  cards tell a strong story;
- **keeps to a CPU budget**: it measures the CPU its deals take and deals no
  more than fit in ``budget`` seconds a decision.

It sees only its seat's view. The host may tell it who sits where before
each hand (:meth:`ProBot.new_hand`) and show it each hand's last view
(:meth:`ProBot.hand_over`): that is how it learns who bluffs and who folds.

>>> import random
>>> from pokerhouse.games import new_hand
>>> hand = new_hand("3x4", [200, 200], seed=8)
>>> bot = ThreeByFourProBot(rng=random.Random(1))
>>> hand.act(bot.choose(hand.view(hand.to_act))) != ()
True
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from math import prod

import numpy as np
import numpy.typing as npt

from pokerhouse import evaluate
from pokerhouse.bots.base import (
    clamp_amount,
    live_opponents,
    passive_action,
    require_decision,
    seeded,
    to_call,
)
from pokerhouse.bots.equity import BatchEvaluator, pot_shares, showdown_values
from pokerhouse.bots.persona import Persona
from pokerhouse.bots.razz import seen_cards
from pokerhouse.bots.reads import Reads
from pokerhouse.cards import Card
from pokerhouse.engine.actions import SIZED_KINDS, Action, ActionKind, LegalAction
from pokerhouse.engine.hand import RoundView, View
from pokerhouse.errors import InvalidAction

#: Deals a decision samples at most, and at least (when the budget is tight).
MAX_SAMPLES = 400
MIN_SAMPLES = 60
#: CPU seconds a decision may take (the deals sized to fit, from what they have cost).
DEFAULT_BUDGET = 0.02
#: How sharply a bet narrows an opponent's range (per bet, before the bluffs seen).
RANGE_PER_BET = 1.2
#: Bets and raises tried, as shares of the pot after calling.
SIZES = (0.4, 0.7, 1.0, 1.5)
#: The share of its equity a hand keeps per opponent when it lets cards come free.
REALIZED = 0.93
#: Against players who fold this much more, a call says a stronger hand.
CALLER_SHIFT = 0.25


class ProBot(ABC):
    """A reading, sizing, bluffing bot of a betting-round game (see the module)."""

    name = "pro"
    #: The game's name, for errors.
    game = ""

    def __init__(
        self,
        rng: random.Random | None = None,
        *,
        persona: Persona | None = None,
        budget: float = DEFAULT_BUDGET,
    ) -> None:
        self.rng = seeded(rng)
        self._np_rng = np.random.default_rng(self.rng.getrandbits(64))
        self.persona = persona if persona is not None else Persona.draw(self.rng)
        self.reads = Reads()
        self.budget = budget
        #: CPU seconds one deal has cost (a running average), for the budget.
        self._per_sample: float | None = None

    # ------------------------------------------------------------ what the host tells

    def new_hand(self, players: Sequence[str]) -> None:
        """Who sits in each seat of the next hand (stable names across hands)."""
        self.reads.new_hand(players)

    def hand_over(self, view: View) -> None:
        """The hand's last view: who folded to its bets, what the bettors showed."""
        self.reads.hand_over(view, self._shown_strength)

    # ------------------------------------------------------------ deciding

    def choose(self, view: View) -> Action:
        """Bet, raise, call, check or fold: the most the bot expects to win."""
        legal = require_decision(view)
        if not isinstance(view, RoundView):
            raise InvalidAction("wrong_game", f"the {self.game} pro bot cannot play {view.game}")
        self.reads.seen(view)
        # Asked to show only when this hand cannot win a pot: keep it hidden.
        muck = ActionKind.SHOW_HAND in legal
        action = Action(ActionKind.MUCK) if muck else self._decide(view)
        self.reads.acted(view, action)
        return action

    def equity(self, view: RoundView) -> float:
        """The seat's share of the pot at showdown, each opponent's range read."""
        opponents = live_opponents(view)
        if not opponents:
            return 1.0
        samples = self._samples()
        began = time.thread_time()  # this thread's: other tables' bots think beside it
        values = self.deal_values(view, opponents, samples)
        self._spent(time.thread_time() - began, samples)
        shares = pot_shares(values)
        weights = np.ones(samples)
        for row, seat in enumerate(opponents, start=1):
            narrow = self._range_weight(seat)
            if narrow > 0:
                ranks = (np.argsort(np.argsort(values[row])) + 1) / samples
                weights *= ranks**narrow
        return float((shares * weights).sum() / weights.sum())

    def _decide(self, view: RoundView) -> Action:
        legal = view.legal
        assert view.seat is not None
        equity = self.equity(view)
        opponents = live_opponents(view)
        # An all-in opponent can neither fold nor pay more: no bet takes the pot from them.
        able = [seat for seat in opponents if not view.all_in[seat]]
        folds = [self.reads.fold_rate(seat) for seat in able]
        all_in = len(able) < len(opponents)
        sized = next((action for action in legal if action.kind in SIZED_KINDS), None)
        owe = to_call(view)
        passive = self._passive_value(view, equity, owe)
        best: tuple[float, Action] | None = None
        if sized is not None and (view.bets_and_raises < 2 or equity >= 0.75):
            best = self._best_size(view, sized, equity, folds, owe, all_in=all_in)
        persona = self.persona
        pot = max(1, view.pot)
        if best is not None:
            gain = (best[0] - passive) / pot
            # A passive style wants a clearer reason to put chips in, and takes it less often.
            if gain > 0.01 + 0.04 * (1 - persona.aggression) + 0.02 * persona.tightness:
                if self.rng.random() < 0.8 + 0.2 * persona.aggression:
                    return best[1]
            elif gain > -0.15 and self.rng.random() < self._story_bluff(view):
                return best[1]
        if ActionKind.BRING_IN in legal:
            return Action(ActionKind.BRING_IN)
        if owe == 0 and ActionKind.CHECK in legal:
            return Action.check()
        margin = 0.02 + 0.03 * persona.tightness
        if equity >= owe / (view.pot + owe) + margin or ActionKind.FOLD not in legal:
            return passive_action(legal)
        return Action.fold()

    def _passive_value(self, view: RoundView, equity: float, owe: int) -> float:
        """What checking (or calling, or folding if that is better) is worth.

        With cards to come a hand that lets others see them free or cheap does not
        keep all its equity: they catch up (more of them, the more there are).
        """
        kept = 1.0 if self.last_street(view) else REALIZED ** len(live_opponents(view))
        if owe == 0:
            return kept * equity * view.pot
        return max(0.0, kept * equity * (view.pot + owe) - owe)

    def _best_size(
        self,
        view: RoundView,
        sized: LegalAction,
        equity: float,
        folds: list[float],
        owe: int,
        *,
        all_in: bool = False,
    ) -> tuple[float, Action]:
        """The bet or raise worth the most, with what it is worth.

        Each opponent folds at their own rate (more to a bigger bet); when not
        all fold, the ones who call pay the bet and call with stronger hands
        the more readily they fold. ``folds`` are the rates of the opponents who
        can still bet; with one ``all_in`` besides, the pot is never taken at once.
        """
        assert view.seat is not None and sized.min_amount is not None
        assert sized.max_amount is not None
        mine = view.bets[view.seat]
        after_call = view.pot + owe
        amounts = {
            clamp_amount(sized, mine + owe + round(share * after_call)).amount for share in SIZES
        }
        best: tuple[float, Action] | None = None
        for amount in sorted(a for a in amounts if a is not None):
            put_in = amount - mine
            scale = 0.75 + 0.25 * put_in / max(1, after_call)
            each = [min(0.97, rate * scale) for rate in folds]
            fold = 0.0 if all_in or not each else prod(each)
            # Callers expected when not everyone folds (at least one of them, unless an
            # all-in player is there to be called anyway).
            paying = sum(1 - rate for rate in each)
            callers = paying if all_in else max(1.0, paying / max(1e-9, 1 - fold))
            called_equity = equity * (1 - CALLER_SHIFT * sum(each) / max(1, len(each)))
            called = called_equity * (view.pot + put_in + callers * (put_in - owe)) - put_in
            worth = fold * view.pot + (1 - fold) * called
            if self.persona.aggression > 0.5 and put_in > after_call:
                worth *= 1.0 + 0.05 * (self.persona.aggression - 0.5)
            if best is None or worth > best[0]:
                best = (worth, Action(sized.kind, amount))
        assert best is not None
        return best

    def _story_bluff(self, view: RoundView) -> float:
        """How often to bet anyway where the cards shown tell a strong story."""
        return (0.05 + 0.2 * self.persona.aggression) * self.story(view)

    def _range_weight(self, seat: int) -> float:
        """How far the opponent's bets and calls narrow their range toward strong hands."""
        reads = self.reads
        honesty = (1.0 - reads.bluff_rate(seat)) / 0.8
        return RANGE_PER_BET * reads.pressure(seat) * min(1.5, max(0.0, honesty))

    # ------------------------------------------------------------ the budget

    @property
    def samples(self) -> int:
        """The completions the next decision deals: as many as fit in the budget."""
        return self._samples()

    def _samples(self) -> int:
        per_sample = self._per_sample
        if per_sample is None or per_sample <= 0:
            return MAX_SAMPLES // 2
        return max(MIN_SAMPLES, min(MAX_SAMPLES, int(0.8 * self.budget / per_sample)))

    def _spent(self, seconds: float, samples: int) -> None:
        per_sample = seconds / samples
        old = self._per_sample
        self._per_sample = per_sample if old is None else 0.8 * old + 0.2 * per_sample

    # ------------------------------------------------------------ each game's part

    @abstractmethod
    def deal_values(
        self, view: RoundView, opponents: list[int], samples: int
    ) -> npt.NDArray[np.int64]:
        """Showdown values of random completions (row 0 the seat's, then each opponent's)."""

    @abstractmethod
    def last_street(self, view: RoundView) -> bool:
        """Whether no more cards are to come."""

    @abstractmethod
    def story(self, view: RoundView) -> float:
        """How strong a hand the seat's shown cards and the board suggest (0 to 1)."""

    @abstractmethod
    def _shown_strength(self, view: View, seat: int) -> float | None:
        """The share of hands the opponent's shown hand beats (``None``: not all seen)."""


def _against_random(
    cards: Sequence[Card],
    board: Sequence[Card],
    *,
    hole_total: int,
    board_total: int,
    evaluate_batch: BatchEvaluator,
    rng: np.random.Generator,
) -> float:
    values = showdown_values(
        cards, [()], board, hole_total=hole_total, board_total=board_total,
        evaluate_batch=evaluate_batch, samples=200, rng=rng,
    )  # fmt: skip
    return float(pot_shares(values).mean())


class ThreeByFourProBot(ProBot):
    """3x4 Poker: three hole cards, a four-card board, no-limit or pot-limit sizing."""

    game = "3x4"

    def deal_values(
        self, view: RoundView, opponents: list[int], samples: int
    ) -> npt.NDArray[np.int64]:
        mine = [card for card in view.my_cards if card is not None]
        return showdown_values(
            mine, [() for _ in opponents], view.board, hole_total=3, board_total=4,
            evaluate_batch=evaluate.high_batch, samples=samples, rng=self._np_rng,
        )  # fmt: skip

    def last_street(self, view: RoundView) -> bool:
        """The river: the board's four cards are out."""
        return len(view.board) >= 4

    def story(self, view: RoundView) -> float:
        """A board of three of a suit, three in a row or a pair frightens: bluff there."""
        board = view.board
        if len(board) < 2:
            return 0.3
        suits = [card & 3 for card in board]
        ranks = sorted({card >> 2 for card in board})
        flushy = max(suits.count(suit) for suit in set(suits)) >= 3
        paired = len(ranks) < len(board)
        connected = any(ranks[i + 2] - ranks[i] <= 4 for i in range(len(ranks) - 2))
        return min(1.0, 0.3 + 0.35 * (flushy + paired + connected))

    def _shown_strength(self, view: View, seat: int) -> float | None:
        cards = view.cards[seat]
        if len(cards) != 3 or None in cards or len(view.board) != 4:
            return None
        return _against_random(
            [card for card in cards if card is not None], view.board, hole_total=3,
            board_total=4, evaluate_batch=evaluate.high_batch, rng=self._np_rng,
        )  # fmt: skip


def low_rank(card: Card) -> int:
    """A card's rank in A-5 low: ace 1, then 2 to king 13."""
    rank = int(card) >> 2
    return 1 if rank == 12 else rank + 2


class RazzProBot(ProBot):
    """Razz: seven-card stud low, every up card counted, fixed-limit betting."""

    game = "razz"

    def deal_values(
        self, view: RoundView, opponents: list[int], samples: int
    ) -> npt.NDArray[np.int64]:
        mine, shown, dead = seen_cards(view, opponents)
        board = view.board  # a short deck's community card, rarely
        return showdown_values(
            mine, shown, board, hole_total=7 - len(board), board_total=len(board),
            evaluate_batch=evaluate.low_batch, samples=samples, rng=self._np_rng, dead=dead,
        )  # fmt: skip

    def last_street(self, view: RoundView) -> bool:
        """Seventh street: every card is out."""
        assert view.seat is not None
        return len(view.cards[view.seat]) + len(view.board) >= 7

    def story(self, view: RoundView) -> float:
        """Low, unpaired up cards look like a made low: a bet from them is believed."""
        assert view.seat is not None
        up = [
            low_rank(card)
            for card, face_up in zip(view.cards[view.seat], view.face_up[view.seat], strict=True)
            if face_up and card is not None
        ]
        if not up:
            return 0.0
        good = [rank for rank in set(up) if rank <= 6]
        return len(good) / len(up) if len(set(up)) == len(up) else 0.2 * len(good) / len(up)

    def _shown_strength(self, view: View, seat: int) -> float | None:
        cards = view.cards[seat]
        if None in cards or len(cards) + len(view.board) < 7:
            return None
        known = [card for card in cards if card is not None]
        return _against_random(
            known, view.board, hole_total=len(known), board_total=len(view.board),
            evaluate_batch=evaluate.low_batch, rng=self._np_rng,
        )  # fmt: skip
