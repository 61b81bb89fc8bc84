"""A terminal session at a table against bots: the loop of hands, and what you see of each.

:class:`Session` deals hand after hand, asks you on your turns (bots play
the other seats), prints each step's events as you may see them, names your
hand after each deal, and sums up every hand and the session. Its prompts
are :mod:`pokerhouse.cli.play_prompts`; Casino Hold'em's betting window is
:mod:`pokerhouse.cli.play_betting_window`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape

from pokerhouse.bots import Bot
from pokerhouse.bots.base import hand_over as tell_hand_over
from pokerhouse.bots.base import new_hand as tell_new_hand
from pokerhouse.cards import Card
from pokerhouse.cli.drawing import CardPainter, draw_table
from pokerhouse.cli.moves import Moves
from pokerhouse.cli.play_betting_window import BettingWindow
from pokerhouse.cli.play_prompts import HELP_WORDS, HINT_WORDS, PAYS_WORDS, plural, times
from pokerhouse.cli.saving import HistoryFolder
from pokerhouse.engine.actions import ActionKind
from pokerhouse.engine.events import (
    ActionTaken,
    BoardDealt,
    CardBurned,
    CardsDealt,
    DeckReshuffled,
    Event,
    HandShown,
    PotAwarded,
    StreetStarted,
)
from pokerhouse.engine.hand import View
from pokerhouse.engine.visibility import shown_to
from pokerhouse.errors import PokerError
from pokerhouse.games.naming import hand_name
from pokerhouse.games.narration import in_sentence
from pokerhouse.games.teen_patti import CardsLooked, SideshowCompared
from pokerhouse.table import (
    Act,
    AddChips,
    Logged,
    PlayerBusted,
    StartHand,
    Step,
    Table,
    TableHandEnded,
    TableHandStarted,
)
from pokerhouse.table.narrate import narrate

#: Your name in the hand histories ``--save`` writes, as hand histories name their owner.
HERO = "Hero"

#: Events that deal or show cards: your hand is named once a run of them is over.
DEAL_EVENTS = (CardsDealt, BoardDealt, CardBurned, DeckReshuffled, StreetStarted, CardsLooked)


@dataclass
class HandSoFar:
    """What you know of the hand being played: your cards, the board, whether you folded."""

    cards: list[Card] = field(default_factory=list)
    board: list[Card] = field(default_factory=list)
    folded: bool = False
    #: Cards changed since your hand was last named.
    changed: bool = False
    #: Chips each table seat won from the pots.
    won: dict[int, int] = field(default_factory=dict)


@dataclass
class Session(BettingWindow):
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
    deck: CardPainter = field(default_factory=CardPainter)
    histories: HistoryFolder | None = None
    saved: int = 0
    moves: Moves = field(init=False)
    now: HandSoFar = field(default_factory=HandSoFar)

    def __post_init__(self) -> None:
        self.moves = Moves(self.table.game, self.table.spec)

    # ------------------------------------------------------------ the game loop

    def play(self) -> None:
        """Hand after hand until the player quits."""
        while True:
            self.refill()
            if self.table.banked:
                self.betting_window()
            self.play_hand()
            if not self.table.banked:
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
                    f"{self.names[seat]} ({bot.name} bot) tops up to {self.rebuy_to:,}."
                )
        mine = self.table.seat(self.you)
        if mine is not None and mine.busted:
            spec = self.table.spec
            if self.table.banked and mine.stack >= spec.stake_needed(spec.min_ante, 0):
                # Enough for a smaller box: the betting window will say so.
                return
            self.ask(f"You are out of chips. Enter to rebuy to {self.rebuy_to:,}, q to quit: ")
            self.table.apply(AddChips(self.you, self.rebuy_to - mine.stack))
            self.your_rebuys += 1

    def play_hand(self) -> None:
        """Deal one hand, play it out (asking you on your turns) and sum it up."""
        table = self.table
        dealer = ""
        if table.button is not None and not table.banked:
            dealer = (
                ", you deal" if table.button == self.you else f", {self.names[table.button]} deals"
            )
        self.console.rule(f"Hand #{table.hands_played + 1} of {table.info.title}{dealer}")
        self.print_events(table.apply(StartHand()))
        hand = table.last_hand
        assert hand is not None
        names = [self.names[seat] for seat in table.hand_seats]
        for bot in self.bots.values():
            tell_new_hand(bot, names)
        while table.hand is not None:
            seat = table.to_act()
            assert seat is not None
            if seat == self.you:
                self.print_events(self.your_turn(names))
            else:
                action = self.bots[seat].choose(table.view(seat))
                self.print_events(table.apply(Act(seat, action)))
        for index, seat in enumerate(table.last_hand_seats):
            if seat in self.bots:
                tell_hand_over(self.bots[seat], hand.view(index))
        summary = table.last_summary(hand)
        self.hands += 1
        self.console.print(self.summary_line(summary.number, summary.net))
        if self.histories is not None and not summary.voided:
            # A history is read by others too, in the third person: "Hero", not "You".
            players = [HERO if s == self.you else self.names[s] for s in summary.seats]
            self.histories.save(hand, summary.number, players)
            self.saved += 1

    # ------------------------------------------------------------ what you see

    def print_events(self, step: Sequence[Logged]) -> None:
        """Print a step's events as you may see them, naming your hand after each deal."""
        for logged in step:
            event = shown_to(logged.event, self.you)
            if event is None or isinstance(event, TableHandEnded):
                continue
            if isinstance(event, TableHandStarted):
                self.now = HandSoFar()
                continue
            if not isinstance(event, DEAL_EVENTS):
                self.name_your_hand()
            if isinstance(event, PlayerBusted) and event.seat == self.you and self.table.banked:
                continue  # the betting window says what the box needs
            self.follow(event)
            line = narrate(event, self.names, self.you)
            if line is not None:
                self.console.print(escape(line))
        self.name_your_hand()

    def follow(self, event: Event) -> None:
        """Keep what ``event`` tells you about your hand."""
        now = self.now
        you = self.you
        match event:
            case CardsDealt(seat=seat, cards=cards) if seat == you:
                known = [card for card in cards if card is not None]
                now.cards += known
                now.changed = now.changed or bool(known)
            case CardsLooked(seat=seat, cards=cards) if seat == you:
                now.cards = [card for card in cards if card is not None]
                now.changed = True
            case BoardDealt(cards=cards):
                now.board += cards
                now.changed = True
            case HandShown(seat=seat, cards=cards) if seat == you:
                now.cards = list(cards)
            case ActionTaken(seat=seat, action=action) if seat == you:
                now.folded = now.folded or action.kind is ActionKind.FOLD
            case SideshowCompared(loser=loser) if loser == you:
                now.folded = True
            case PotAwarded(winners=winners, shares=shares):
                for seat, share in zip(winners, shares, strict=True):
                    now.won[seat] = now.won.get(seat, 0) + share

    def name_your_hand(self) -> None:
        """``You have: pair of fours``, when your cards or the board changed."""
        now = self.now
        if not now.changed:
            return
        now.changed = False
        if now.folded:
            return
        name = hand_name(self.table.game, now.cards, now.board)
        if name is not None:
            self.console.print(f"You have: {escape(in_sentence(name))}")

    def your_turn(self, names: Sequence[str]) -> Step:
        """Show the table and ask until a legal move is typed; the events it caused."""
        view = self.table.view(self.you)
        self.console.print(self.render(view, names))
        while True:
            text = self.ask(f"[bold]Your move[/] ({escape(self.moves.offers(view))}): ")
            word = text.strip().lower()
            if not word or word in HELP_WORDS:
                self.console.print(escape(self.moves.help(view)))
                continue
            if self.table.banked and word in HINT_WORDS:
                self.console.print(escape(self.hint(view)))
                continue
            if self.table.banked and word in PAYS_WORDS:
                self.console.print(escape(self.pay_tables()))
                continue
            try:
                action = self.moves.parse(text, view, names)
                return self.table.apply(Act(self.you, action))
            except PokerError as error:
                self.refuse(error)

    def render(self, view: View, names: Sequence[str]) -> Any:
        """The table as you see it: seats, stacks, bets, cards, board and pot."""
        table = self.table
        dealer = None
        if table.button is not None and not table.banked:
            dealer = table.hand_seat(table.button)
        return draw_table(view, names, dealer=dealer, deck=self.deck)

    def summary_line(self, number: int, net: Mapping[int, int]) -> str:
        """One line for a finished hand: who won what, and where you stand."""
        if self.table.banked:
            # Boxes play the house, not each other: each box's result.
            others = [seat for seat in net if seat != self.you]
            won = ", ".join(f"{escape(self.names[seat])} {net[seat]:+,d}" for seat in others)
        else:
            won = ", ".join(
                ("you win" if seat == self.you else f"{escape(self.names[seat])} wins")
                + f" {amount:,}"
                for seat, amount in self.now.won.items()
            )
            won = won[:1].upper() + won[1:]
        mine = self.table.seat(self.you)
        yours = net.get(self.you)
        you = (
            f"you {yours:+,d}, stack {mine.stack:,}"
            if mine is not None and yours is not None
            else "you sat out"
        )
        house = f"; house {self.table.house:+,d} overall" if self.table.banked else ""
        if not won and not self.table.banked:
            won = "no other player"
        return f"[bold]Hand #{number}:[/] " + "; ".join(filter(None, [won, you])) + house

    def session_summary(self) -> str:
        """The closing lines: hands played, your result, and where the hands were saved."""
        mine = self.table.seat(self.you)
        played = plural(self.hands, "hand")
        if mine is None:
            return f"Session over after {played}."
        rebuys = f" after {plural(self.your_rebuys, 'rebuy')}" if self.your_rebuys else ""
        bots = f"bots rebought {times(self.bot_rebuys)}" if self.bot_rebuys else "no bot rebought"
        line = (
            f"Session over: {played} played; you {mine.net:+,d} "
            f"(stack {mine.stack:,}{rebuys}); {bots}."
        )
        if self.histories is not None and self.saved:
            line += (
                f"\n{plural(self.saved, 'hand history', 'hand histories')} saved in "
                f"{self.histories.path} (pokerhouse replay FILE)."
            )
        return line
