"""How the terminal draws cards and the table: rich markup, one colour per suit.

Hearts and diamonds are red, spades and clubs in the terminal's own
foreground colour (readable on a dark or a light background), every card in
bold. The four-colour deck (``play --four-colour``) tells all four suits
apart: clubs green, diamonds blue, hearts red, spades the foreground.

>>> from pokerhouse.cards import parse_cards
>>> two = CardPainter()
>>> [two.card(card) for card in parse_cards("Ah 7c")]
['[bold red]Ah[/]', '[bold]7c[/]']
>>> four = CardPainter(four_colour=True)
>>> four.cards(parse_cards("7c Kd")), four.card(None)
('[bold green]7c[/] [bold blue]Kd[/]', '[dim]??[/]')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich import box
from rich.markup import escape
from rich.table import Table as RichTable

from pokerhouse.cards import Card
from pokerhouse.engine.hand import RoundView, View
from pokerhouse.games.casino_holdem import CasinoHoldemView
from pokerhouse.games.teen_patti import TeenPattiView

#: Suit colours (clubs, diamonds, hearts, spades); ``""`` is the terminal's foreground.
TWO_COLOURS = ("", "red", "red", "")
FOUR_COLOURS = ("green", "blue", "red", "")


@dataclass(frozen=True, slots=True)
class CardPainter:
    """Cards in rich markup, in the two-colour deck or (``four_colour``) the four-colour one."""

    four_colour: bool = False

    def card(self, card: Card | None) -> str:
        """One card in markup; a card the reader may not see is ``??``."""
        if card is None:
            return "[dim]??[/]"
        colour = (FOUR_COLOURS if self.four_colour else TWO_COLOURS)[card.suit]
        style = f"bold {colour}" if colour else "bold"
        return f"[{style}]{card}[/]"

    def cards(self, cards: Sequence[Card | None]) -> str:
        """Several cards in markup, space-separated (``-`` for none).

        >>> CardPainter().cards(())
        '-'
        """
        return " ".join(self.card(card) for card in cards) or "-"

    def own_cards(self, cards: Sequence[Card | None], face_up: Sequence[bool] | None) -> str:
        """A player's own cards; where some are face up (stud), the face-down ones in brackets.

        >>> from pokerhouse.cards import parse_cards
        >>> CardPainter().own_cards(parse_cards("5h 7c Kd"), [False, False, True])
        '([bold red]5h[/] [bold]7c[/]) [bold red]Kd[/]'
        """
        if not face_up or len(face_up) != len(cards) or not any(face_up):
            return self.cards(cards)
        parts: list[str] = []
        hidden: list[str] = []
        for card, up in zip(cards, face_up, strict=True):
            if up:
                if hidden:
                    parts.append("(" + " ".join(hidden) + ")")
                    hidden = []
                parts.append(self.card(card))
            else:
                hidden.append(self.card(card))
        if hidden:
            parts.append("(" + " ".join(hidden) + ")")
        return " ".join(parts)


def caption(view: View, deck: CardPainter) -> str:
    """The line over the table: the street, the board, the pot and the game's own facts.

    Casino Hold'em has no pot (every box plays the dealer): the dealer's cards instead.
    """
    parts = []
    if view.street:
        parts.append(view.street.capitalize())
    if view.board:
        parts.append(f"Board {deck.cards(view.board)}")
    if isinstance(view, CasinoHoldemView):
        parts.append(f"Dealer {deck.cards(view.dealer_cards)}")
    else:
        parts.append(f"Pot {view.pot:,}")
    if isinstance(view, TeenPattiView):
        stake = view.stake
        parts.append(f"Stake {stake:,} (blind bets ≥{stake:,}, seen bets ≥{2 * stake:,})")
    return "   ".join(parts)


def draw_table(
    view: View, names: Sequence[str], *, dealer: int | None = None, deck: CardPainter | None = None
) -> RichTable:
    """The table as ``view``'s seat sees it: one row a seat, in the hand's seat order.

    ``names`` are the players by hand seat; ``dealer`` is the hand seat of
    the button (``None`` at a banked game). The player to act is marked
    ``→``, the button ``(D)``; every column has a heading.
    """
    deck = deck if deck is not None else CardPainter()
    banked = isinstance(view, CasinoHoldemView)
    grid = RichTable(title=caption(view, deck), title_justify="left", box=box.ROUNDED)
    grid.add_column("Box" if banked else "Player")
    grid.add_column("Stack", justify="right")
    if isinstance(view, CasinoHoldemView):
        grid.add_column("Ante", justify="right")
        grid.add_column("Bonus", justify="right")
    else:
        grid.add_column("Bet", justify="right")
    grid.add_column("Cards")
    statuses = [_status(view, seat) for seat in range(len(view.cards))]
    if any(statuses):
        grid.add_column("Status")
    face_up = view.face_up if isinstance(view, RoundView) else None
    for seat, cards in enumerate(view.cards):
        name = escape(names[seat]) + (" (D)" if seat == dealer else "")
        if seat == view.seat:
            name = f"[bold]{name}[/]"
        row = [("→ " if seat == view.to_act else "  ") + name, f"{view.stacks[seat]:,}"]
        if isinstance(view, CasinoHoldemView):
            row += [
                f"{view.antes[seat]:,}",
                f"{view.bonuses[seat]:,}" if view.bonuses[seat] else "-",
            ]
        else:
            row.append(f"{view.bets[seat]:,}")
        if seat == view.seat:
            row.append(deck.own_cards(cards, face_up[seat] if face_up is not None else None))
        else:
            row.append(deck.cards(cards))
        if any(statuses):
            row.append(statuses[seat])
        grid.add_row(*row)
    return grid


def _status(view: View, seat: int) -> str:
    """Folded, blind or seen (Teen Patti), called (Casino Hold'em), all-in."""
    status = []
    if view.folded[seat]:
        status.append("folded")
    elif isinstance(view, TeenPattiView):
        status.append("seen" if view.seen[seat] else "blind")
    elif isinstance(view, CasinoHoldemView) and view.called[seat]:
        status.append("called")
    if view.all_in[seat] and not view.folded[seat]:
        status.append("all-in")
    return ", ".join(status)
