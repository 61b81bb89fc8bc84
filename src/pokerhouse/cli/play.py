"""``pokerhouse play GAME``: sit at a table in the terminal against bots.

You are table seat 0 (seat 1 to a player); bots fill the other seats. Each hand prints what you may
see as it happens, names your hand at every street, and on your turn draws
the table and offers the legal moves with what each costs. Each game has
its own words (:mod:`pokerhouse.cli.moves`); ``?`` lists them. At Casino
Hold'em a betting window before each deal sets your ante and AA Bonus;
``pays`` shows the pay tables and ``hint`` asks the advisor. Reads plain
stdin, so a script or a test can drive it; quitting at any prompt (``q``,
end of input, Ctrl-C) prints a session summary and exits 0. The table is
the only thing a session plays through.

>>> parser = build_parser()
>>> args = parser.parse_args(["3x4", "--players", "3", "--seed", "7"])
>>> args.game, args.players, args.stack, args.seed, args.four_colour
('3x4', 3, 200, 7, False)
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.markup import escape

from pokerhouse.bots import Bot
from pokerhouse.bots import get as get_bot
from pokerhouse.cards import Card
from pokerhouse.cli.drawing import Deck, draw_table
from pokerhouse.cli.moves import Moves
from pokerhouse.cli.output import console as new_console
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
    for_seat,
)
from pokerhouse.engine.hand import View
from pokerhouse.errors import InvalidAction, InvalidSpec, PokerError
from pokerhouse.games import get_game
from pokerhouse.games.casino_holdem import CasinoHoldemSpec
from pokerhouse.games.naming import hand_name
from pokerhouse.games.narration import in_sentence
from pokerhouse.games.teen_patti import CardsLooked, SideshowCompared
from pokerhouse.table import (
    Act,
    AddChips,
    Logged,
    PlayerBusted,
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
#: Your name in the hand histories ``--save`` writes, as hand histories name their owner.
HERO = "Hero"
QUIT_WORDS = frozenset({"q", "quit", "exit"})
HELP_WORDS = frozenset({"?", "h", "help"})
HINT_WORDS = frozenset({"hint", "advice", "advise"})
PAYS_WORDS = frozenset({"pays", "p", "paytable", "paytables"})

#: Events that deal or show cards: your hand is named once a run of them is over.
DEAL_EVENTS = (CardsDealt, BoardDealt, CardBurned, DeckReshuffled, StreetStarted, CardsLooked)


class Quit(Exception):
    """The player asked to leave (q, end of input or Ctrl-C)."""


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 hand``, ``2 hands``: a count and its noun.

    >>> plural(1, "hand"), plural(3, "hand"), plural(2, "box", "boxes")
    ('1 hand', '3 hands', '2 boxes')
    """
    return f"{count:,} {one if count == 1 else (many or one + 's')}"


def times(count: int) -> str:
    """``once``, ``twice``, ``3 times``.

    >>> times(1), times(2), times(5)
    ('once', 'twice', '5 times')
    """
    return {1: "once", 2: "twice"}.get(count, f"{count:,} times")


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
    deck: Deck = field(default_factory=Deck)
    histories: HistoryFolder | None = None
    saved: int = 0
    moves: Moves = field(init=False)
    now: HandSoFar = field(default_factory=HandSoFar)

    def __post_init__(self) -> None:
        self.moves = Moves(self.table.game, self.table.spec)

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

    def refuse(self, error: PokerError) -> None:
        """Print why an entry was refused, with its code."""
        self.console.print(f"[red]✗ {escape(str(error))}[/] [dim]({error.code})[/]")

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
            event = for_seat(logged.event, self.you)
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

    def your_turn(self, names: Sequence[str]) -> tuple[Logged, ...]:
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

    # ------------------------------------------------------------ Casino Hold'em

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
        "--ante",
        type=int,
        default=None,
        help="Casino Hold'em: your first ante (default the table minimum; change it between deals)",
    )
    parser.add_argument(
        "--bonus",
        type=int,
        default=0,
        help="Casino Hold'em: your first AA Bonus bet (default none; change it between deals)",
    )
    parser.add_argument(
        "--four-colour",
        "--four-color",
        dest="four_colour",
        action="store_true",
        help="a four-colour deck: clubs green, diamonds blue, hearts red, spades plain",
    )
    parser.add_argument(
        "--save",
        default=None,
        metavar="DIR",
        help="write every hand played into DIR (JSON, and PHH for Razz) for pokerhouse replay",
    )
    return parser


def register(subparsers: Any) -> None:
    """Add ``play`` to the command line."""
    parser = subparsers.add_parser(
        "play",
        help="play at a table in the terminal against bots",
        description=(
            "Play hands at a table against bots: you sit in seat 1. Type ? at any prompt "
            "for the words of the game."
        ),
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
    histories = HistoryFolder(args.save) if getattr(args, "save", None) else None
    rng = random.Random(args.seed)
    table = Table(
        info.name,
        seats=max(players, info.min_players),
        limits=TableLimits(min_buy_in=1, max_buy_in=args.stack),
        rng=random.Random(rng.getrandbits(64)),
    )
    if info.banked:
        spec: CasinoHoldemSpec = table.spec
        spec.check_wager(args.ante if args.ante is not None else spec.default_ante, args.bonus)
    names = {0: YOU, **{seat: BOT_NAMES[seat - 1] for seat in range(1, players)}}
    bots = {
        seat: get_bot(args.bots, game=info.name, rng=random.Random(rng.getrandbits(64)))
        for seat in range(1, players)
    }
    session = Session(
        table,
        bots,
        console,
        read,
        rebuy_to=args.stack,
        names=names,
        deck=Deck(four_colour=getattr(args, "four_colour", False)),
        histories=histories,
    )
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
    seats = plural(players, "seat")
    console.print(f"[bold]{info.title}[/]: {seats}, {args.stack:,} chips each.")
    if drawn:
        draw = ", ".join(f"{names[seat]} {session.deck.card(card)}" for seat, card in drawn.items())
        console.print(f"Seat draw for the button: {draw}.")
    if table.button is not None and not table.banked:
        taker = "You take" if table.button == 0 else f"{names[table.button]} takes"
        console.print(f"{taker} the button.")
    if table.banked:
        console.print(
            "Before each deal you may change your ante and AA Bonus; at the flop, type hint "
            "for the advisor's exact values, pays for the pay tables."
        )
    console.print("Type ? at any prompt for the words to type, q to leave.")
    return session


def run(args: argparse.Namespace) -> int:
    """Play until the player quits; always ends with a session summary and status 0.

    A reader of the output that goes away (``| head``) ends it quietly instead
    (:func:`pokerhouse.cli.main` gives the status).
    """
    console = new_console(highlight=False, soft_wrap=True)

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
