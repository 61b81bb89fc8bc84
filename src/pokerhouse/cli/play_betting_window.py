"""Casino Hold'em in the terminal: the betting window before each deal, pay tables, hints.

Before each deal you may keep or change your box's ante and AA Bonus
(``ante N``, ``bonus N``); ``pays`` prints the table's pay tables, and at the
flop ``hint`` asks the advisor for the exact values of calling and folding.
"""

from __future__ import annotations

from fractions import Fraction

from rich.markup import escape

from pokerhouse.cli.play_prompts import HELP_WORDS, PAYS_WORDS, Prompts
from pokerhouse.engine.hand import View
from pokerhouse.errors import InvalidAction, InvalidSpec, PokerError
from pokerhouse.games.casino_holdem import CasinoHoldemSpec
from pokerhouse.table import SetWager, Table


class BettingWindow(Prompts):
    """Casino Hold'em's betting window, pay tables and hints; mixed into the session."""

    table: Table
    you: int

    def betting_window(self) -> None:
        """Before each deal: your ante and AA Bonus, to keep or change; Enter deals."""
        spec: CasinoHoldemSpec = self.table.spec
        notice = True
        while True:
            box = self.table.seat(self.you)
            assert box is not None
            bonus = f"AA Bonus {box.bonus:,}" if box.bonus else "no AA Bonus"
            prompt = (
                f"Your box: ante {box.ante:,}, {bonus} (stack {box.stack:,}). "
                "[dim]Enter to deal; ante N, bonus N, pays, ? or q:[/] "
            )
            if box.busted and notice:
                self.console.print(self.short_box(box.stack, box.needs))
                notice = False
            words = self.ask(prompt).strip().lower().split()
            if not words:
                if box.busted:
                    self.console.print(self.short_box(box.stack, box.needs))
                    continue
                return
            if words[0] in HELP_WORDS:
                self.console.print(escape(self.window_help()))
            elif words[0] in PAYS_WORDS:
                self.console.print(escape(self.pay_tables()))
            elif words[0] in ("ante", "a", "bonus", "b") and len(words) == 2:
                try:
                    amount = _amount(words[1])
                    ante, bonus_bet = (
                        (amount, box.bonus) if words[0] in ("ante", "a") else (box.ante, amount)
                    )
                    self.set_wager(spec, ante, bonus_bet, box.stack)
                except PokerError as error:
                    self.refuse(error)
            else:
                self.console.print(escape(self.window_help()))

    @staticmethod
    def short_box(stack: int, needs: int) -> str:
        """Why the box cannot be dealt in: its bets need more than the stack."""
        return (
            f"[red]✗ your stack of {stack:,} does not cover your box: its ante, the call of "
            f"twice the ante and the bonus need {needs:,}. Lower your bets (ante N, bonus N).[/]"
        )

    def set_wager(self, spec: CasinoHoldemSpec, ante: int, bonus: int, stack: int) -> None:
        """Set your box's bets, if the table allows them and your stack covers them."""
        spec.check_wager(ante, bonus)
        needs = spec.stake_needed(ante, bonus)
        if needs > stack:
            raise InvalidSpec(
                "bad_wager",
                f"an ante of {ante:,} and a bonus of {bonus:,} need {needs:,} chips "
                f"(with the call of {2 * ante:,}); your stack is {stack:,}",
            )
        self.table.apply(SetWager(self.you, ante, bonus))

    def window_help(self) -> str:
        """What the betting window takes."""
        spec: CasinoHoldemSpec = self.table.spec
        return "\n".join(
            [
                "Before each deal you may change your bets:",
                f"  ante N   your ante, from {spec.min_ante:,} to {spec.max_ante:,}",
                f"  bonus N  your AA Bonus: 0 for none, or from {spec.bonus_minimum:,} up to "
                "your ante",
                "  pays     the pay tables",
                "  Enter    deal with these bets; q leaves the table",
                "After the flop you call (twice your ante) or fold; type hint there for the "
                "advisor's exact values (as pokerhouse advise casino-holdem HOLE FLOP does).",
            ]
        )

    def pay_tables(self) -> str:
        """The table's pay tables and limits, in words."""
        spec: CasinoHoldemSpec = self.table.spec
        flat = spec.bonus_pays.flat_odds
        bonus = (
            f"{flat}:1 on every winning hand" if flat is not None else spec.bonus_pays.describe()
        )
        return "\n".join(
            [
                "Pay tables at this table:",
                "  Ante, paid when you beat a qualifying dealer or the dealer does not qualify:",
                f"    {spec.ante_pays.describe()}",
                "  Call: 1:1 when you beat a qualifying dealer (a pair of fours or better); "
                "returned when the dealer does not qualify",
                f"  AA Bonus, settled at the flop on a pair of aces or better: {bonus}",
                f"  A box wins at most {spec.max_payout:,} on Ante and Call in one round.",
            ]
        )

    def hint(self, view: View) -> str:
        """The advisor's exact values of calling and folding for your box now."""
        from pokerhouse.analysis.casino_holdem import advise  # numpy: only when asked

        cards = [card for card in view.my_cards if card is not None]
        if len(cards) != 2 or len(view.board) != 3:
            return "The advisor speaks after the flop, when you decide."
        spec: CasinoHoldemSpec = self.table.spec
        box = self.table.seat(self.you)
        assert box is not None
        advice = advise(
            cards,
            view.board,
            spec.ante_pays,
            max_payout=Fraction(spec.max_payout, box.ante),
            bonus_pays=spec.bonus_pays,
        )
        better = "calling gains" if advice.action == "call" else "folding saves"
        hole = " ".join(map(str, cards))
        flop = " ".join(map(str, view.board))
        return (
            f"Advisor: calling is worth {float(advice.call_ev):+.4f} antes, folding -1: "
            f"best {advice.action.upper()} ({better} {abs(float(advice.margin)):.4f} antes).\n"
            f'  The same from the command line: pokerhouse advise casino-holdem "{hole}" "{flop}"'
        )


def _amount(text: str) -> int:
    """A typed amount of chips (0 allowed, for no bonus)."""
    if not text.isdigit():
        raise InvalidAction("bad_amount", f"amount {text!r} is not a whole number of chips")
    return int(text)
