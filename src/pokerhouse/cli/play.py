"""``pokerhouse play GAME``: sit at a table in the terminal against bots.

You are seat 0; bots fill the other seats. Your cards, the board, the pot,
the stacks and whose turn it is are drawn with rich; type an action when it
is your turn: ``f`` fold, ``k`` check, ``c`` call (or check when nothing is
owed), ``b 20`` bet, ``r 60`` raise to, ``l`` look, ``s`` show, ``a`` all-in,
``?`` for help, ``q`` to quit. Reads plain stdin, so a script or a test can
drive it; quitting at any prompt (``q``, end of input, Ctrl-C) prints a
session summary and exits 0.

>>> parser = build_parser()
>>> args = parser.parse_args(["3x4", "--players", "3", "--seed", "7"])
>>> args.game, args.players, args.stack, args.seed
('3x4', 3, 200, 7)
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from pokerhouse.bots import Bot
from pokerhouse.bots import get as get_bot
from pokerhouse.cards import Card
from pokerhouse.engine.actions import Action, ActionKind, LegalActions
from pokerhouse.engine.events import PotAwarded, for_seat
from pokerhouse.engine.hand import Hand, RoundView, View
from pokerhouse.errors import InvalidSpec, PokerError
from pokerhouse.games import get_game
from pokerhouse.games.casino_holdem import CasinoHoldemView
from pokerhouse.games.teen_patti import TeenPattiView
from pokerhouse.table import (
    Act,
    AddChips,
    Logged,
    SeatDrawCard,
    SetWager,
    SitTogether,
    StartHand,
    Table,
    TableHandEnded,
    TableHandStarted,
    TableLimits,
)
from pokerhouse.table.narrate import narrate

#: Names the bots sit under, in seat order after you.
BOT_NAMES = ("Ada", "Boris", "Chen", "Dara", "Emil", "Fay", "Gus", "Hana", "Ivo")
YOU = "You"
QUIT_WORDS = frozenset({"q", "quit", "exit"})
HELP_WORDS = frozenset({"?", "h", "help"})
#: Extra one-letter shortcuts on top of :meth:`Action.parse`'s own (f, k, x, c, b, r).
SHORTCUTS = {"l": "look", "s": "show", "ss": "sideshow", "y": "accept", "n": "decline"}


class Quit(Exception):
    """The player asked to leave (q, end of input or Ctrl-C)."""


def card_markup(card: Card | None) -> str:
    """A card in rich markup: hearts and diamonds red, a hidden card ``??``.

    >>> card_markup(Card.parse("Ah")), card_markup(None)
    ('[bold red]Ah[/]', '[dim]??[/]')
    """
    if card is None:
        return "[dim]??[/]"
    colour = "red" if card.suit in (1, 2) else "white"
    return f"[bold {colour}]{card}[/]"


def cards_markup(cards: Sequence[Card | None]) -> str:
    """Several cards in rich markup, space-separated (``-`` for none)."""
    return " ".join(card_markup(card) for card in cards) or "-"


def legal_text(legal: LegalActions) -> str:
    """The legal actions as a prompt hint: ``fold | call | raise 20-200``."""
    return " | ".join(str(action) for action in legal)


def parse_input(text: str, legal: LegalActions) -> Action:
    """Read a typed action, with the terminal's shortcuts.

    ``c`` checks when nothing is owed (and brings in when that is the cheap
    way in); ``a`` (all-in) is the largest sized action on offer.

    >>> from pokerhouse.engine import LegalAction
    >>> legal = LegalActions((LegalAction(ActionKind.FOLD), LegalAction(ActionKind.CHECK),
    ...                       LegalAction(ActionKind.BET, 2, 150)))
    >>> str(parse_input("c", legal)), str(parse_input("a", legal)), str(parse_input("b 20", legal))
    ('check', 'bet 150', 'bet 20')
    """
    words = text.strip().lower().split()
    if words and words[0] in SHORTCUTS:
        words[0] = SHORTCUTS[words[0]]
    if words == ["c"] and ActionKind.CALL not in legal:
        for kind in (ActionKind.CHECK, ActionKind.BRING_IN):
            if kind in legal:
                return Action(kind)
    if words and words[0] in ("a", "allin", "all-in", "shove") and len(words) == 1:
        sized = [a for a in legal if a.max_amount is not None]
        if sized:
            top = max(sized, key=lambda a: a.max_amount or 0)
            return Action(top.kind, top.max_amount)
    return Action.parse(" ".join(words))


def _own_cards(cards: Sequence[Card | None], face_up: Sequence[bool] | None) -> str:
    """Your cards; where some are face up (stud), the face-down ones in brackets.

    >>> _own_cards(tuple(Card.parse(c) for c in ("5h", "7c", "Kd")), [False, False, True])
    '([bold red]5h[/] [bold white]7c[/]) [bold red]Kd[/]'
    """
    if not face_up or len(face_up) != len(cards) or not any(face_up):
        return cards_markup(cards)
    parts: list[str] = []
    hidden: list[str] = []
    for card, up in zip(cards, face_up, strict=True):
        if up:
            if hidden:
                parts.append("(" + " ".join(hidden) + ")")
                hidden = []
            parts.append(card_markup(card))
        else:
            hidden.append(card_markup(card))
    if hidden:
        parts.append("(" + " ".join(hidden) + ")")
    return " ".join(parts)


@dataclass
class Session:
    """One terminal session: the table, your seat, the bots and the running totals."""

    table: Table
    bots: dict[int, Bot]
    console: Console
    read: Callable[[str], str]
    you: int = 0
    rebuy_to: int = 0
    hands: int = 0
    your_rebuys: int = 0
    bot_rebuys: int = 0
    names: dict[int, str] = field(default_factory=dict)

    # ------------------------------------------------------------ input

    def ask(self, prompt: str) -> str:
        """One line from the player; :class:`Quit` on q, end of input or Ctrl-C."""
        try:
            line = self.read(prompt)
        except (EOFError, KeyboardInterrupt):
            raise Quit from None
        if line.strip().lower() in QUIT_WORDS:
            raise Quit
        return line

    # ------------------------------------------------------------ the game loop

    def play(self) -> None:
        """Hand after hand until the player quits."""
        while True:
            self.refill()
            self.play_hand()
            answer = self.ask("[dim]Enter for the next hand, q to quit:[/] ")
            while answer.strip():
                self.console.print("Press Enter to deal the next hand, or type q to quit.")
                answer = self.ask("[dim]Enter for the next hand, q to quit:[/] ")

    def refill(self) -> None:
        """Rebuy busted bots; offer you a rebuy when you are broke."""
        for seat, bot in self.bots.items():
            info = self.table.seat(seat)
            if info is not None and info.busted:
                self.table.apply(AddChips(seat, self.rebuy_to - info.stack))
                self.bot_rebuys += 1
                self.console.print(
                    f"{self.names[seat]} ({bot.name} bot) tops up to {self.rebuy_to}."
                )
        mine = self.table.seat(self.you)
        if mine is not None and mine.busted:
            self.ask(f"You are out of chips. Enter to rebuy to {self.rebuy_to}, q to quit: ")
            self.table.apply(AddChips(self.you, self.rebuy_to - mine.stack))
            self.your_rebuys += 1

    def play_hand(self) -> None:
        """Deal one hand, play it out (asking you on your turns) and sum it up."""
        table = self.table
        button = (
            "" if table.button is None or table.banked else f", {self.names[table.button]} deals"
        )
        self.console.rule(f"Hand #{table.hands_played + 1} of {table.info.title}{button}")
        self.print_events(table.apply(StartHand()))
        hand = table.last_hand
        assert hand is not None
        names = [self.names[seat] for seat in table.hand_seats]
        while table.hand is not None:
            seat = table.to_act()
            assert seat is not None
            if seat == self.you:
                self.print_events(self.your_turn(names))
            else:
                action = self.bots[seat].choose(table.view(seat))
                self.print_events(table.apply(Act(seat, action)))
        summary = table.last_summary(hand)
        self.hands += 1
        self.console.print(self.summary_line(summary.number, hand, names, summary.net))

    def print_events(self, step: Sequence[Logged]) -> None:
        """Print a step's events as you may see them."""
        for logged in step:
            event = for_seat(logged.event, self.you)
            if event is None or isinstance(event, TableHandStarted | TableHandEnded):
                continue
            line = narrate(event, self.names, self.you)
            if line is not None:
                self.console.print(escape(line))

    def your_turn(self, names: Sequence[str]) -> tuple[Logged, ...]:
        """Show the table and ask until a legal action is typed; the events it caused."""
        view = self.table.view(self.you)
        self.console.print(self.render(view, names))
        while True:
            text = self.ask(f"[bold]Your move[/] ({escape(legal_text(view.legal))}): ")
            if not text.strip() or text.strip().lower() in HELP_WORDS:
                self.console.print(self.help_text(view.legal))
                continue
            try:
                action = parse_input(text, view.legal)
                return self.table.apply(Act(self.you, action))
            except PokerError as error:
                self.console.print(f"[red]✗ {escape(str(error))}[/] [dim]({error.code})[/]")

    # ------------------------------------------------------------ rendering

    def render(self, view: View, names: Sequence[str]) -> RichTable:
        """The table as you see it: seats, stacks, bets, cards, board and pot."""
        table = self.table
        grid = RichTable(title=self.caption(view), show_edge=False, pad_edge=False)
        for column in ("", "Player", "Stack", "Bet", "Cards", ""):
            grid.add_column(column)
        seen = view.seen if isinstance(view, TeenPattiView) else None
        face_up = view.face_up if isinstance(view, RoundView) else None
        for index, cards in enumerate(view.cards):
            seat = table.hand_seats[index] if index < len(table.hand_seats) else index
            marks = ("D " if seat == table.button and not table.banked else "") + (
                "→" if view.to_act == index else ""
            )
            status = []
            if view.folded[index]:
                status.append("folded")
            if seen is not None and not view.folded[index]:
                status.append("seen" if seen[index] else "blind")
            if view.all_in[index]:
                status.append("all-in")
            name = names[index]
            grid.add_row(
                marks,
                f"[bold]{escape(name)}[/]" if index == view.seat else escape(name),
                str(view.stacks[index]),
                str(view.bets[index]),
                _own_cards(cards, face_up[index] if face_up is not None else None)
                if index == view.seat
                else cards_markup(cards),
                ", ".join(status),
            )
        return grid

    def caption(self, view: View) -> str:
        """Board, pot and the game's own facts (Teen Patti's stake) in one line."""
        parts = []
        if view.street:
            parts.append(view.street.capitalize())
        if view.board:
            parts.append(f"Board {cards_markup(view.board)}")
        parts.append(f"Pot {view.pot}")
        if isinstance(view, TeenPattiView):
            stake = view.stake
            parts.append(f"Stake {stake} (blind ≥{stake}, seen ≥{2 * stake})")
        if isinstance(view, CasinoHoldemView):
            parts.append(f"Dealer {cards_markup(view.dealer_cards)}")
        return "   ".join(parts)

    def help_text(self, legal: LegalActions) -> str:
        """What you may type now."""
        return (
            f"Allowed: {escape(legal_text(legal))}.\n"
            "Type f (fold), k (check), c (call), b N (bet), r N (raise to N), a (all-in), "
            "l (look), s (show), or q to quit."
        )

    def summary_line(
        self, number: int, hand: Hand, names: Sequence[str], net: Mapping[int, int]
    ) -> str:
        """One line for a finished hand: who won what, and where you stand."""
        if self.table.banked:
            # Boxes play the house, not each other: each box's result.
            others = [seat for seat in net if seat != self.you]
            won = ", ".join(f"{escape(self.names[seat])} {net[seat]:+d}" for seat in others)
        else:
            winners: dict[str, int] = {}
            for event in hand.events:
                if isinstance(event, PotAwarded):
                    for seat, share in zip(event.winners, event.shares, strict=True):
                        winners[names[seat]] = winners.get(names[seat], 0) + share
            won = ", ".join(f"{escape(name)} wins {amount}" for name, amount in winners.items())
        mine = self.table.seat(self.you)
        yours = net.get(self.you)
        you = (
            f"you {yours:+d}, stack {mine.stack}"
            if mine is not None and yours is not None
            else "you sat out"
        )
        house = ""
        if self.table.banked:
            house = f"; house {self.table.house:+d} overall"
        return f"[bold]Hand #{number}:[/] {won or 'no other player'}; {you}{house}"

    def session_summary(self) -> str:
        """The closing lines: hands played and your result."""
        mine = self.table.seat(self.you)
        if mine is None:
            return f"Session over after {self.hands} hands."
        # After an abandoned hand the seat's record still holds its stack at that deal.
        rebuys = f" after {self.your_rebuys} rebuys" if self.your_rebuys else ""
        return (
            f"Session over: {self.hands} hands played; you {mine.net:+d} "
            f"(stack {mine.stack}{rebuys}); bots rebought {self.bot_rebuys} times."
        )


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """The ``play`` arguments (on ``parser``, or a new one)."""
    parser = parser if parser is not None else argparse.ArgumentParser(prog="pokerhouse play")
    parser.add_argument("game", help="3x4, razz, teen-patti or casino-holdem")
    parser.add_argument("--players", type=int, default=4, help="seats, you included (default 4)")
    parser.add_argument("--stack", type=int, default=200, help="chips each player buys in for")
    parser.add_argument("--seed", type=int, default=None, help="seed the cards and the bots")
    parser.add_argument(
        "--bots", default="smart", help="bot kind for the other seats: smart or random"
    )
    parser.add_argument(
        "--ante", type=int, default=None, help="Casino Hold'em: your ante (default the minimum)"
    )
    parser.add_argument(
        "--bonus", type=int, default=0, help="Casino Hold'em: your AA Bonus bet (default none)"
    )
    return parser


def register(subparsers: Any) -> None:
    """Add ``play`` to the command line."""
    parser = subparsers.add_parser(
        "play",
        help="play at a table in the terminal against bots",
        description="Play hands at a table against bots: you are seat 0.",
    )
    build_parser(parser)
    parser.set_defaults(handler=run)


def new_session(args: argparse.Namespace, console: Console, read: Callable[[str], str]) -> Session:
    """The table, the bots and the seat draw, from the command-line arguments."""
    info = get_game(args.game)
    players = args.players
    if not info.min_players <= players <= info.max_players or (info.banked and players < 1):
        raise InvalidSpec(
            "player_count",
            f"{info.title} takes {info.min_players} to {info.max_players} players, not {players}",
        )
    if args.stack < 1:
        raise InvalidSpec("bad_stack", f"--stack must be at least 1, not {args.stack}")
    if not info.banked and (args.ante is not None or args.bonus):
        raise InvalidSpec(
            "bad_option", f"--ante and --bonus are for Casino Hold'em, not {info.title}"
        )
    rng = random.Random(args.seed)
    table = Table(
        info.name,
        seats=max(players, info.min_players),
        limits=TableLimits(min_buy_in=1, max_buy_in=args.stack),
        rng=random.Random(rng.getrandbits(64)),
    )
    names = {0: YOU, **{seat: BOT_NAMES[seat - 1] for seat in range(1, players)}}
    bots = {
        seat: get_bot(args.bots, game=info.name, rng=random.Random(rng.getrandbits(64)))
        for seat in range(1, players)
    }
    session = Session(table, bots, console, read, rebuy_to=args.stack, names=names)
    step = table.apply(
        SitTogether(tuple((seat, names[seat], args.stack) for seat in range(players)))
    )
    drawn = {
        logged.event.seat: logged.event.card
        for logged in step
        if isinstance(logged.event, SeatDrawCard)
    }
    if table.banked:
        you = table.seat(0)
        assert you is not None
        table.apply(SetWager(0, args.ante if args.ante is not None else you.ante, args.bonus))
        # A box short of its ante, bonus and call would sit busted, with nothing to rebuy.
        for seat in table.occupied:
            box = table.seat(seat)
            if box is not None and box.busted:
                whose = "your box" if seat == 0 else f"{names[seat]}'s box"
                raise InvalidSpec(
                    "bad_stack",
                    f"--stack {args.stack} is too small: {whose} needs {box.needs} chips "
                    f"(ante {box.ante}, the call of {2 * box.ante}, bonus {box.bonus})",
                )
    console.print(f"[bold]{info.title}[/]: {players} seats, {args.stack} chips each.")
    if drawn:
        draw = ", ".join(f"{names[seat]} {card_markup(card)}" for seat, card in drawn.items())
        console.print(f"Seat draw for the button: {draw}.")
    if table.button is not None and not table.banked:
        taker = "You take" if table.button == 0 else f"{names[table.button]} takes"
        console.print(f"{taker} the button.")
    return session


def run(args: argparse.Namespace) -> int:
    """Play until the player quits; always ends with a session summary and status 0."""
    console = Console(highlight=False, soft_wrap=True)

    def read(prompt: str) -> str:
        return console.input(prompt)

    session = new_session(args, console, read)
    try:
        session.play()
    except Quit:
        pass
    except KeyboardInterrupt:
        pass
    console.print()
    if session.table.hand is not None:
        console.print(f"You left during hand #{session.table.hands_played + 1}: it is not counted.")
    console.print(session.session_summary())
    return 0
