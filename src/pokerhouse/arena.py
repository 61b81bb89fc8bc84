"""The arena: bots play a match of duplicate deals, ranked per 100 hands with 95% intervals.

Poker's luck swamps skill over a few thousand hands, so the arena plays
**duplicate**: every deal (a shuffled deck order, with the seed of any later
reshuffle) is played once per rotation of the seats, N rotations for N bots.
In rotation ``r`` bot ``i`` sits in seat ``(i + r) % N``, and each seat is
dealt the same cards in every rotation however the others play (its cards
are kept for it: :class:`~pokerhouse.duplicate.DuplicateDeck`; so are the
board and the burns), so every bot holds every seat's cards once, in that
seat's position. A bot that won only because it held the best cards
gives it all back when another bot holds them.

Every hand is a fresh hand of the pure engine (:mod:`pokerhouse.games`'s
hand types, no table, no server): each seat starts with ``stack`` chips and
nothing is carried from one hand to the next, so a bust costs one hand only.
There is no rake, so at the pool games the bots' nets sum to zero; at Casino
Hold'em (players against the house) each bot plays its own box against the
dealer, every box at the table minimum ante and no bonus, and in the
rotations every bot plays every box of a deal against the same dealer cards
and board: the bots' nets and the house's result sum to zero.

**A sample** is a deal with all its rotations: a bot's sample is the sum of
its nets over the N hands it played of that deal. The interval is the normal
approximation over the deals' samples (:func:`pokerhouse.intervals.per_100_of_sums`),
reported per 100 hands. The cards' luck cancels within a sample, so the
interval is narrower than the same number of independent hands would give.

>>> result = play_match("razz", ["random", "random"], hands=30, seed=1)
>>> result.deals, result.rotations, [bot.hands for bot in result.bots]
(30, 2, [60, 60])
>>> sum(bot.net for bot in result.bots) + result.house
0
>>> all(bot.interval[0] <= bot.per_100 <= bot.interval[1] for bot in result.bots)
True
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pokerhouse.bots.base import Bot
from pokerhouse.bots.base import hand_over as tell_hand_over
from pokerhouse.bots.base import new_hand as tell_new_hand
from pokerhouse.bots.loading import load_bot
from pokerhouse.cards import Card, Deck
from pokerhouse.duplicate import DuplicateDeck
from pokerhouse.engine.hand import Hand
from pokerhouse.errors import IllegalAction, InvalidSpec, PokerError
from pokerhouse.games import GameInfo, get_game
from pokerhouse.games.casino_holdem import CasinoHoldemHand
from pokerhouse.intervals import per_100_of_sums

__all__ = [
    "ArenaDeal",
    "ArenaResult",
    "BotResult",
    "PlayedHand",
    "play_match",
]

#: Each seat's chips at the start of every hand, unless told otherwise.
DEFAULT_STACK = 200

#: The most cards each game deals a seat: kept for the seat, so that a fold
#: elsewhere never moves them (a game not named here deals from the top).
SEAT_CARDS = {"3x4": 3, "razz": 7, "teen-patti": 3, "casino-holdem": 2}

#: Bits of a deal's reshuffle seed (what a table draws: it fits a signed 64-bit column).
_SEED_BITS = 62
#: What a bot is told at a hand's start (the seats' names) or end (its last view).
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ArenaDeal:
    """One deal: the deck, top card first, and the seed of any reshuffle (Razz's seventh street).

    ``number`` counts the deals of a match from 1.
    """

    number: int
    order: tuple[Card, ...]
    seed: int

    def deck(self, players: int, per_seat: int) -> DuplicateDeck:
        """A fresh deck of this deal for ``players`` seats, ``per_seat`` cards kept for each:
        every seat is dealt the same cards in every rotation (:mod:`pokerhouse.duplicate`)."""
        return DuplicateDeck(
            self.order, players=players, per_seat=per_seat, rng=random.Random(self.seed)
        )


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One hand of the match: its deal, its rotation and who sat where.

    ``seats[s]`` is the index (in the match's list of bots) of the bot in
    seat ``s``; ``net[s]`` is seat ``s``'s result; ``house`` the house's
    (Casino Hold'em; 0 elsewhere). ``hand`` is the finished engine hand,
    events and all.
    """

    deal: ArenaDeal
    rotation: int
    seats: tuple[int, ...]
    net: tuple[int, ...]
    house: int
    hand: Hand = field(repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class BotResult:
    """One bot's match: what it won in all, per 100 hands, the 95% interval of that."""

    index: int
    spec: str
    name: str
    hands: int
    net: int
    per_100: float
    interval: tuple[float, float]
    #: CPU seconds its decisions took: the mean, the 99th percentile and the most.
    #: (Not compared: the same match on another machine or a busier one takes other time.)
    cpu: tuple[float, float, float] = field(default=(0.0, 0.0, 0.0), compare=False)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (``bot`` counts from 1, as the command line names the bots)."""
        return {
            "bot": self.index + 1,
            "spec": self.spec,
            "name": self.name,
            "hands": self.hands,
            "net": self.net,
            "per_100": round(self.per_100, 3),
            "ci95": [round(self.interval[0], 3), round(self.interval[1], 3)],
            "decision_cpu_ms": {
                "mean": round(1000 * self.cpu[0], 3),
                "p99": round(1000 * self.cpu[1], 3),
                "max": round(1000 * self.cpu[2], 3),
            },
        }


@dataclass(frozen=True, slots=True)
class ArenaResult:
    """A finished match: the game, the deals and rotations, each bot's result, the time taken."""

    game: str
    deals: int
    rotations: int
    stack: int
    seed: int | None
    seconds: float
    bots: tuple[BotResult, ...]
    house: int

    @property
    def hands(self) -> int:
        """Hands dealt in all: every deal once per rotation."""
        return self.deals * self.rotations

    @property
    def hands_per_second(self) -> float:
        """Throughput, bots' thinking included."""
        return self.hands / self.seconds if self.seconds > 0 else float("inf")

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: the match's facts and each bot's result."""
        return {
            "game": self.game,
            "deals": self.deals,
            "rotations": self.rotations,
            "hands": self.hands,
            "stack": self.stack,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands_per_second, 1),
            "house": self.house,
            "bots": [bot.as_dict() for bot in self.bots],
        }

    def to_json(self) -> str:
        """:meth:`as_dict` as indented JSON text."""
        return json.dumps(self.as_dict(), indent=2)


def play_match(
    game: str,
    bots: Sequence[str | Bot],
    *,
    hands: int,
    seed: int | None = None,
    stack: int = DEFAULT_STACK,
    options: Mapping[str, Any] | None = None,
    on_hand: Callable[[PlayedHand], None] | None = None,
) -> ArenaResult:
    """Play ``hands`` duplicate deals of ``game`` between ``bots``; rank them.

    Each of ``bots`` is a spec (``random``, ``smart``, ``module:Class``, see
    :func:`~pokerhouse.bots.loading.load_bot`) or a bot itself. ``seed``
    fixes the deals (the same deals whichever bots play them) and every
    bot's random choices; ``options`` are the game's spec options (its
    defaults otherwise). ``on_hand`` is called with every hand played, in
    order: a deal's rotations one after another.
    """
    info = get_game(game)
    _check_match(info, bots, hands, stack)
    spec = info.spec(**dict(options or {}))
    if info.banked:
        needed = spec.stake_needed(spec.min_ante, 0)
        if stack < needed:
            raise InvalidSpec(
                "bad_stack",
                f"a stack of {stack} is too small: a box at the minimum ante of "
                f"{spec.min_ante} needs {needed} chips (the ante and the call of twice it)",
            )
    rng = random.Random(seed)
    # The dealer's draws first: one seed deals the same deals whoever plays them.
    dealer = _fork(rng)
    bot_rngs = [_fork(rng) for _ in bots]
    players = [
        bot if not isinstance(bot, str) else load_bot(bot, info.name, rng=bot_rng)
        for bot, bot_rng in zip(bots, bot_rngs, strict=True)
    ]
    specs = [bot if isinstance(bot, str) else _class_spec(bot) for bot in bots]
    count = len(players)
    rotations = [tuple((seat - turn) % count for seat in range(count)) for turn in range(count)]
    stacks = [stack] * count
    per_seat = SEAT_CARDS.get(info.name, 0)
    totals = [0] * count
    squares = [0] * count
    house = 0
    #: Each bot's decisions' CPU seconds, by the bot's index.
    cpu: list[list[float]] = [[] for _ in players]
    start = time.perf_counter()
    for number in range(1, hands + 1):
        deal = ArenaDeal(number, Deck(dealer).order(), dealer.getrandbits(_SEED_BITS))
        sample = [0] * count
        for turn, seats in enumerate(rotations):
            hand = info.hand_type(spec, stacks, deal.deck(count, per_seat))
            seated = [players[index] for index in seats]
            names = [f"bot {index + 1}" for index in seats]
            for seat, bot in enumerate(seated):
                _tell(specs[seats[seat]], seats[seat], tell_new_hand, bot, names)
            _play_out(hand, seated, specs, seats, cpu)
            for seat, bot in enumerate(seated):
                _tell(specs[seats[seat]], seats[seat], tell_hand_over, bot, hand.view(seat))
            net = hand.results()
            for seat, index in enumerate(seats):
                sample[index] += net[seat]
            banked = hand.house_result if isinstance(hand, CasinoHoldemHand) else 0
            house += banked
            if on_hand is not None:
                on_hand(PlayedHand(deal, turn, seats, net, banked, hand))
        for index, value in enumerate(sample):
            totals[index] += value
            squares[index] += value * value
    seconds = time.perf_counter() - start
    results = []
    for index, player in enumerate(players):
        mean, interval = per_100_of_sums(
            hands, totals[index], squares[index], hands_per_sample=count
        )
        results.append(
            BotResult(
                index=index,
                spec=specs[index],
                name=str(player.name),
                hands=hands * count,
                net=totals[index],
                per_100=mean,
                interval=interval,
                cpu=_cpu_figures(cpu[index]),
            )
        )
    return ArenaResult(info.name, hands, count, stack, seed, seconds, tuple(results), house)


def _check_match(info: GameInfo, bots: Sequence[object], hands: int, stack: int) -> None:
    """Refuse a match that cannot be played, before anything is dealt."""
    if not 2 <= len(bots) <= info.max_players:
        raise InvalidSpec(
            "bot_count",
            f"an arena match of {info.title} takes 2 to {info.max_players} bots, not {len(bots)}",
        )
    if type(hands) is not int or hands < 1:
        raise InvalidSpec("bad_count", f"the number of hands must be at least 1, not {hands}")
    if type(stack) is not int or stack < 1:
        raise InvalidSpec("bad_stack", f"the stack must be at least 1 chip, not {stack}")


def _tell(spec: str, index: int, tell: Callable[[Bot, T], None], bot: Bot, what: T) -> None:
    """Tell a bot of a hand's start or end; a failure names the bot."""
    try:
        tell(bot, what)
    except Exception as error:  # a user's bot class failing in its own code
        raise IllegalAction(
            "bot_failed", f"bot {index + 1} ({spec}) failed: {type(error).__name__}: {error}"
        ) from error


def _cpu_figures(seconds: list[float]) -> tuple[float, float, float]:
    """The mean, 99th percentile and most of a bot's decisions' CPU seconds."""
    if not seconds:
        return (0.0, 0.0, 0.0)
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (sum(ordered) / len(ordered), p99, ordered[-1])


def _play_out(
    hand: Hand,
    seated: list[Bot],
    specs: list[str],
    seats: tuple[int, ...],
    cpu: list[list[float]],
) -> None:
    """Ask the bot in each seat for its decisions until the hand is over, timing each.

    A bot's failure is reported as a :class:`~pokerhouse.errors.PokerError`
    naming the bot, so a broken bot class ends the match with a clear error.
    """
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        try:
            view = hand.view(seat)
            began = time.process_time()
            action = seated[seat].choose(view)
            cpu[seats[seat]].append(time.process_time() - began)
            hand.act(action)
        except PokerError as error:
            raise IllegalAction(
                error.code, f"bot {seats[seat] + 1} ({specs[seats[seat]]}): {error}"
            ) from error
        except Exception as error:  # a user's bot class failing in its own code
            raise IllegalAction(
                "bot_failed",
                f"bot {seats[seat] + 1} ({specs[seats[seat]]}) failed: "
                f"{type(error).__name__}: {error}",
            ) from error


def _fork(rng: random.Random) -> random.Random:
    """A new generator seeded from ``rng``: each bot's and the dealer's draws stay apart."""
    return random.Random(rng.getrandbits(64))


def _class_spec(bot: Bot) -> str:
    """How a bot given as an object is named in the results: ``module:Class``."""
    kind = type(bot)
    return f"{kind.__module__}:{kind.__qualname__}"
