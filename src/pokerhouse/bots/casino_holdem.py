"""The Casino Hold'em bot: best play, as the exact analysis finds it.

A box's one decision (call twice the ante, or fold and lose it) has an exact
answer: :func:`pokerhouse.analysis.casino_holdem.advise` counts all 1,070,190
ways the turn, river and dealer's cards can fall. No short rule gets close to
it (suits and board texture move the answer for the weakest hands, which is
why published guides give none), so the bot plays the exact answer:

- from the best-play table the exact analysis computes over all 25,989,600
  deals (one call-or-fold bit per flop class and two-card hand), shipped in
  ``bots/data/casino_holdem_best_play.npz`` and regenerated with
  ``pokerhouse analyze casino-holdem --exact --save-strategy FILE``: a
  decision is one table lookup;
- from :func:`advise` itself (about 50 ms a decision) where the table does
  not apply: another Ante pay table, or a max payout small enough to cap a
  win.

The bot sees only its view: its two cards, the flop, its ante and the
table's max payout (the pay table is not on the view; pass ``ante_pays``
when it is not the default).

>>> import random
>>> from pokerhouse.cards import Deck
>>> from pokerhouse.games import new_hand
>>> hand = new_hand("casino-holdem", [100], deck=Deck.stacked("7c Kd 2d 9d  As Kh 9s"))
>>> str(CasinoHoldemBot().choose(hand.view(0)))  # 7-2 on an A-K-9 flop
'fold'
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from pokerhouse.bots.base import require_decision, seeded
from pokerhouse.engine.actions import Action, ActionKind
from pokerhouse.engine.hand import View
from pokerhouse.errors import InvalidAction
from pokerhouse.games.casino_holdem.paytables import AntePays
from pokerhouse.games.casino_holdem.view import CasinoHoldemView

if TYPE_CHECKING:
    from pokerhouse.analysis.casino_holdem import StrategyTable

#: The shipped best-play table (default Ante pay table, no payout cap).
BEST_PLAY_FILE = "casino_holdem_best_play.npz"


@cache
def best_play_table() -> StrategyTable | None:
    """Best play for the default pay table, loaded once from the package data.

    ``None`` when the file is not installed: the bot then asks :func:`advise`.
    """
    from pokerhouse.analysis.casino_holdem import StrategyTable
    from pokerhouse.errors import InvalidSpec

    try:
        with resources.as_file(
            resources.files("pokerhouse.bots") / "data" / BEST_PLAY_FILE
        ) as path:
            return StrategyTable.load(path)
    except (InvalidSpec, OSError):
        return None


def largest_win(ante_pays: AntePays) -> int:
    """The most a box can win on Ante plus Call, in antes (a royal flush and the call).

    >>> largest_win(AntePays())
    102
    """
    return max(ante_pays.as_tuple()) + 2


class CasinoHoldemBot:
    """Calls or folds exactly as best play does (see the module notes)."""

    name = "smart"

    def __init__(
        self,
        rng: random.Random | None = None,
        *,
        ante_pays: AntePays | None = None,
        exact: bool = False,
    ) -> None:
        # Best play is deterministic; the RNG is kept for the common bot interface.
        self.rng = seeded(rng)
        self.ante_pays = ante_pays if ante_pays is not None else AntePays()
        #: Ask :func:`advise` every time instead of reading the table.
        self.exact = exact

    def choose(self, view: View) -> Action:
        """Call when calling is worth more than the ante folding loses."""
        legal = require_decision(view)
        if ActionKind.CALL not in legal:
            return Action.fold()
        return Action.call() if self.calls(view) else Action.fold()

    def calls(self, view: View) -> bool:
        """Whether best play calls with this view's two cards and flop."""
        assert view.seat is not None
        hole = [card for card in view.my_cards if card is not None]
        flop = list(view.board[:3])
        if not isinstance(view, CasinoHoldemView):
            raise InvalidAction("wrong_game", f"the Casino Hold'em bot cannot play {view.game}")
        ante = view.antes[view.seat]
        max_payout = view.max_payout
        capped = max_payout < largest_win(self.ante_pays) * ante
        table = None if self.exact or capped or self.ante_pays != AntePays() else best_play_table()
        if table is None:
            # Imported here: the analysis package is heavy and only this path needs it.
            from pokerhouse.analysis.casino_holdem import advise

            cap = Fraction(max_payout, ante) if capped else None
            return advise(hole, flop, self.ante_pays, max_payout=cap).action == "call"
        return table(hole, flop)
