"""The table as the terminal draws it: borders, a heading on every column, readable suits."""

from __future__ import annotations

import io

from rich.console import Console

from pokerhouse.cards import parse_cards
from pokerhouse.cli.drawing import CardPainter, draw_table
from pokerhouse.engine import Action
from pokerhouse.games import new_hand


def rendered(renderable: object, colour: bool = False) -> str:
    out = io.StringIO()
    console = Console(
        file=out, width=100, force_terminal=colour, color_system="standard" if colour else None
    )
    console.print(renderable)
    return out.getvalue()


def test_the_table_has_a_border_top_and_bottom_and_every_column_a_heading() -> None:
    hand = new_hand("3x4", [200, 200, 200], seed=7)
    hand.act(Action.bet(10))
    lines = rendered(draw_table(hand.view(1), ["Ann", "You", "Bob"], dealer=2)).splitlines()
    box = [line for line in lines if line.startswith(("╭", "│", "├", "╰"))]
    assert box[0].startswith("╭") and box[-1].startswith("╰")
    heading = box[1]
    cells = [cell.strip() for cell in heading.strip("│").split("│")]
    assert cells == ["Player", "Stack", "Bet", "Cards"]
    assert all(cells)
    text = "\n".join(lines)
    assert "→ You" in text and "Bob (D)" in text and "Pot 13" in text


def test_a_status_column_comes_with_its_heading() -> None:
    hand = new_hand("teen-patti", [100, 100], seed=1)
    text = rendered(draw_table(hand.view(0), ["You", "Bob"]))
    assert "Status" in text and "blind" in text


def test_casino_holdem_shows_antes_and_bonuses_and_no_pot() -> None:
    hand = new_hand("casino-holdem", [100, 100], seed=1, antes=[5, 2], bonuses=[5, 0])
    text = rendered(draw_table(hand.view(0), ["You", "Ada"]))
    assert "Pot" not in text
    assert "Ante" in text and "Bonus" in text and "Dealer ?? ??" in text


def test_spades_and_clubs_are_in_the_terminals_own_colour_not_white() -> None:
    deck = CardPainter()
    assert deck.card(parse_cards("As")[0]) == "[bold]As[/]"
    assert deck.card(parse_cards("7c")[0]) == "[bold]7c[/]"
    assert deck.card(parse_cards("Kh")[0]) == "[bold red]Kh[/]"
    ansi = rendered(deck.cards(parse_cards("As 7c")), colour=True)
    assert "\x1b[1mAs" in ansi and "37m" not in ansi and "97m" not in ansi


def test_the_four_colour_deck_tells_every_suit_apart() -> None:
    deck = CardPainter(four_colour=True)
    marks = [deck.card(card) for card in parse_cards("Ac Ad Ah As")]
    assert marks == ["[bold green]Ac[/]", "[bold blue]Ad[/]", "[bold red]Ah[/]", "[bold]As[/]"]


def test_your_stud_cards_show_which_are_face_down() -> None:
    cards = parse_cards("5h 7c Kd")
    assert (
        CardPainter().own_cards(cards, [False, False, True])
        == "([bold red]5h[/] [bold]7c[/]) [bold red]Kd[/]"
    )
