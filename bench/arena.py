"""Arena benchmark: hands per second of random bots in ``pokerhouse arena``, beside PokerKit.

    python bench/arena.py            # the full run (about a minute)
    python bench/arena.py --quick    # a short run
    python bench/arena.py --profile  # where the arena's path spends its time (cProfile)

The arena's path is :func:`pokerhouse.arena.play_match` with every bot
``random`` (:class:`~pokerhouse.bots.RandomBot`: facing a bet it folds 12% of
the time, raises 15% of the time to a size drawn between the smallest raise
and about the pot, otherwise checks, calls or brings in), every deal played
once per rotation of the seats, each hand dealt from a duplicate deck and
decided from the seats' views, results and intervals kept: what the command
does, without the printing. Stacks 200; the games' default stakes.

PokerKit plays the same kind of hands with the same policy (same fold and
raise shares, raises sized the same way), each from a freshly shuffled deck:

* **3x4 Poker** has no PokerKit game. The closest is PokerKit's own ``State``
  built to 3x4's shape: no-limit, antes of 1, minimum bet 2, no blinds, three
  hole cards, then 2, 1 and 1 board cards (a burn before each), best five of
  the player's cards and the board by ``StandardHighHand``, four betting
  rounds (``bench/engine.py`` races the bare engines on the same game).
* **Razz**: ``pokerkit.FixedLimitRazz``, ante 1, bring-in 2, limits 5/10.

Both at six players and heads-up. The contenders run in interleaved rounds,
timed in CPU seconds of this process (one core), and each keeps its best
round, so a busy machine slows them all alike. Printed: hands per second,
decisions per hand, and the arena's speed as a multiple of PokerKit's.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any

from rich.console import Console
from rich.table import Table

from pokerhouse.arena import PlayedHand, play_match
from pokerhouse.bots import RandomBot
from pokerhouse.games.razz import RazzSpec
from pokerhouse.games.three_by_four import ThreeByFourSpec

STACK = 200
THREE_BY_FOUR = ThreeByFourSpec()
RAZZ = RazzSpec()
#: The random bot's shares: the PokerKit policy folds and raises as often.
FOLD, RAISE = RandomBot().fold, RandomBot().raise_
ARENA = "pokerhouse arena"
PEERS = {"3x4": "PokerKit State, 3x4's shape", "razz": "PokerKit FixedLimitRazz"}
TARGET = 1000  # hands per second per core, for 3x4 and Razz


# ---------------------------------------------------------------- pokerhouse


def arena_hands(game: str, players: int, deals: int, seed: int) -> tuple[int, int]:
    """Play ``deals`` duplicate deals of random bots; the hands and the decisions made."""
    decisions = 0

    def count(played: PlayedHand) -> None:
        nonlocal decisions
        decisions += len(played.hand.actions)

    result = play_match(
        game, ["random"] * players, hands=deals, seed=seed, stack=STACK, on_hand=count
    )
    assert sum(bot.net for bot in result.bots) == 0
    return result.hands, decisions


# ---------------------------------------------------------------- PokerKit


def pokerkit_factory(game: str, players: int) -> Callable[[], Any]:
    """A factory of fresh PokerKit states of ``game`` for ``players``."""
    from pokerkit import (
        Automation,
        BettingStructure,
        FixedLimitRazz,
        Opening,
        StandardHighHand,
        State,
        Street,
    )
    from pokerkit import Deck as PokerKitDeck

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.RUNOUT_COUNT_SELECTION,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    if game == "razz":
        razz = FixedLimitRazz(
            automations, True, RAZZ.ante, RAZZ.bring_in, RAZZ.small_bet, RAZZ.big_bet
        )
        return lambda: razz((STACK,) * players, players)
    bet = THREE_BY_FOUR.small_bet
    streets = (
        Street(False, (False, False, False), 0, False, Opening.POSITION, bet, None),
        Street(True, (), 2, False, Opening.POSITION, bet, None),
        Street(True, (), 1, False, Opening.POSITION, bet, None),
        Street(True, (), 1, False, Opening.POSITION, bet, None),
    )
    return lambda: State(
        automations,
        PokerKitDeck.STANDARD,
        (StandardHighHand,),
        streets,
        BettingStructure.NO_LIMIT,
        True,
        (THREE_BY_FOUR.ante,) * players,
        (0,) * players,
        0,
        (STACK,) * players,
        players,
    )


def pokerkit_hands(game: str, players: int, count: int, seed: int) -> tuple[int, int]:
    """Play ``count`` PokerKit hands with the random bot's policy; the hands and decisions."""
    factory = pokerkit_factory(game, players)
    rng = random.Random(seed)
    random.seed(seed)  # PokerKit shuffles with the global random
    decisions = 0
    for _ in range(count):
        state = factory()
        while state.status:
            pokerkit_action(state, rng)
            decisions += 1
        assert sum(state.stacks) == STACK * players
    return count, decisions


def pokerkit_action(state: Any, rng: random.Random) -> None:
    """The random bot's policy on a PokerKit state (raises sized up to about the pot)."""
    roll = rng.random()
    if roll < FOLD and state.checking_or_calling_amount:
        state.fold()
    elif roll < FOLD + RAISE and state.can_complete_bet_or_raise_to():
        low = state.min_completion_betting_or_raising_to_amount
        high = state.max_completion_betting_or_raising_to_amount
        state.complete_bet_or_raise_to(
            rng.randint(low, min(high, max(3 * low, low + state.total_pot_amount)))
        )
    elif state.can_post_bring_in():
        state.post_bring_in()
    elif state.can_check_or_call():
        state.check_or_call()
    else:
        state.complete_bet_or_raise_to()


# ---------------------------------------------------------------- the race


@dataclass
class Contender:
    """One path playing one game at one table size: ``count`` deals or hands per round."""

    name: str
    game: str
    players: int
    play: Callable[[int, int], tuple[int, int]]
    count: int
    best: float = float("inf")
    hands: int = 0
    decisions: int = 0

    @property
    def rate(self) -> float:
        """Hands per CPU second in the best round."""
        return self.hands / self.best


def race(field: list[Contender], rounds: int, seed: int) -> None:
    """Run each contender once per round, in turn; keep each one's best time."""
    for contender in field:  # warm up: the evaluators' tables, PokerKit's first use
        contender.play(2, seed)
    for round_index in range(rounds):
        for index, contender in enumerate(field):
            start = time.process_time()
            hands, decisions = contender.play(contender.count, seed + 1000 * round_index + index)
            elapsed = time.process_time() - start
            if elapsed < contender.best:
                contender.best, contender.hands, contender.decisions = elapsed, hands, decisions


def contenders(quick: bool) -> list[Contender]:
    """The arena and PokerKit at 3x4 and Razz, six-handed and heads-up."""
    hands, theirs = (600, 40) if quick else (6000, 300)
    field = []
    for game in ("3x4", "razz"):
        for players in (6, 2):
            field.append(
                Contender(
                    ARENA,
                    game,
                    players,
                    lambda n, seed, g=game, p=players: arena_hands(g, p, n, seed),
                    hands // players,
                )
            )
            field.append(
                Contender(
                    PEERS[game],
                    game,
                    players,
                    lambda n, seed, g=game, p=players: pokerkit_hands(g, p, n, seed),
                    theirs,
                )
            )
    return field


def report(console: Console, field: list[Contender], rounds: int) -> None:
    """The table of rates and ratios."""
    table = Table(title=f"Random bots, hands per CPU second (one core), best of {rounds} rounds")
    for column in ("game", "players", "path", "hands", "hands/s", "decisions/hand", "× PokerKit"):
        table.add_column(column, justify="left" if column in ("game", "path") else "right")
    for ours, peer in zip(field[::2], field[1::2], strict=True):
        for contender in (ours, peer):
            ratio = f"{ours.rate / peer.rate:.1f}" if contender is ours else ""
            table.add_row(
                contender.game,
                str(contender.players),
                contender.name,
                f"{contender.hands:,}",
                f"{contender.rate:,.0f}",
                f"{contender.decisions / contender.hands:.1f}",
                ratio,
            )
    console.print(table)
    slow = [ours for ours in field[::2] if ours.rate < TARGET]
    verdict = "met" if not slow else f"missed by {', '.join(c.game for c in slow)}"
    console.print(f"Target: at least {TARGET:,} arena hands/s per core at 3x4 and Razz: {verdict}.")
    console.print(
        "3x4 Poker has no PokerKit game: its peer is PokerKit's State built to 3x4's shape "
        "(no-limit, antes, 3 hole cards, boards of 2, 1 and 1)."
    )


def profile(console: Console, deals: int) -> None:
    """cProfile the arena's path, six random bots, at both games: the top functions."""
    for game in ("3x4", "razz"):
        arena_hands(game, 6, 10, 0)
        profiler = cProfile.Profile()
        profiler.enable()
        arena_hands(game, 6, deals, 1)
        profiler.disable()
        console.rule(f"{game}: {deals} deals of six random bots, top 20 by own time")
        pstats.Stats(profiler).strip_dirs().sort_stats("tottime").print_stats(20)


def main(argv: list[str] | None = None) -> int:
    """Race the arena against PokerKit (or profile it) and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--rounds", type=int, default=None, help="rounds (default 3, quick 2)")
    parser.add_argument("--profile", action="store_true", help="cProfile the arena instead")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    console = Console(width=max(Console().width, 110))
    console.print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f}; "
        f"PokerKit {version('pokerkit')}"
    )
    if args.profile:
        profile(console, 100 if args.quick else 500)
        return 0
    rounds = args.rounds or (2 if args.quick else 3)
    field = contenders(args.quick)
    race(field, rounds, args.seed)
    report(console, field, rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
