"""Engine benchmark: full 6-handed hands per second, pokerhouse against PokerKit.

    python bench/engine.py            # the full run (a minute or two)
    python bench/engine.py --quick    # a short run
    python bench/engine.py --profile  # where our engine spends its time (cProfile)

Both engines play the same games with the same random policy: when a bet
is to be called, fold 12% of the time; raise (the smallest legal bet, raise
or completion) 15% of the time; otherwise check, call or bring in. Every
hand is dealt from a freshly shuffled deck and played to the end, showdown
and pot awards included, through each engine's public, checked interface.

* 3x4 Poker, no-limit, ante 1, minimum bet 2, stacks 200: ours is
  ``games.new_hand("3x4")``; PokerKit's is its own ``State`` with four
  streets (3 hole cards, then 2, 1 and 1 board cards, a burn before each),
  antes, no blinds, no-limit, ``StandardHighHand``.
* Razz, ante 1, bring-in 2, limits 5/10, stacks 200: ours is
  ``games.new_hand("razz")``; PokerKit's is ``FixedLimitRazz``.

Beside the bare engine, ``pokerhouse table+bots`` is the path of
``pokerhouse simulate GAME --bots random``: a :class:`~pokerhouse.table.Table`
driven through its one door (``Table.apply``), each decision taken by
:class:`~pokerhouse.bots.RandomBot` from the seat's view, busted seats
topped up between hands, the table keeping the last events as ``simulate``'s
does (``LOG_SIZE``). It folds and raises as often as the policy above
(its raises are sized at random). Teen Patti has no PokerKit peer: its
table path is measured against our bare engine with the same policy.

The contenders run in interleaved rounds and each keeps its best round,
timed in CPU seconds of this process, so a busy machine slows them all
alike. Printed: hands per second, decisions per
hand (the two engines should make about as many), and our speed as a
multiple of PokerKit's, per hand and per decision (the table's bots size
their raises at random, so at no-limit 3x4 their hands hold fewer decisions).
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

from rich.console import Console
from rich.table import Table

from pokerhouse.bots import RandomBot
from pokerhouse.cards import Deck
from pokerhouse.cli.simulate import LOG_SIZE as SIMULATE_LOG_SIZE
from pokerhouse.engine import Action, ActionKind, Hand
from pokerhouse.games import new_hand
from pokerhouse.games.razz import RazzSpec
from pokerhouse.games.teen_patti import TeenPattiSpec
from pokerhouse.games.three_by_four import ThreeByFourSpec
from pokerhouse.table import AddChips, SitTogether, TableLimits
from pokerhouse.table import Table as PokerTable

PLAYERS = 6
TABLE_PATH = "pokerhouse table+bots"
STACK = 200
FOLD, RAISE = 0.12, 0.27  # roll < FOLD folds (facing a bet), roll < RAISE raises
THREE_BY_FOUR = ThreeByFourSpec(ante=1, small_bet=2)
RAZZ = RazzSpec(ante=1, bring_in=2, small_bet=5, big_bet=10)
TEEN_PATTI = TeenPattiSpec(ante=1)
_SIZED = (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE)
_PASSIVE = (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN)


# ---------------------------------------------------------------- pokerhouse


def our_action(hand: Hand, rng: random.Random) -> Action:
    """The benchmark policy over our legal actions."""
    legal = hand.legal_actions()
    roll = rng.random()
    if roll < FOLD and (ActionKind.CALL in legal or ActionKind.LOOK in legal):
        return Action(ActionKind.FOLD)
    if roll < RAISE:
        for option in legal:
            if option.kind in _SIZED:
                return Action(option.kind, option.min_amount)
    for kind in _PASSIVE:
        if kind in legal:
            return Action(kind)
    option = legal.actions[-1]
    return Action(option.kind, option.min_amount)


def our_hands(game: str, spec: object, count: int, rng: random.Random) -> int:
    """Play ``count`` full hands; returns the decisions made."""
    decisions = 0
    for _ in range(count):
        hand = new_hand(game, [STACK] * PLAYERS, spec=spec, deck=Deck(rng))
        while not hand.is_over:
            hand.act(our_action(hand, rng))
            decisions += 1
        assert sum(hand.stacks) == STACK * PLAYERS
    return decisions


def table_hands(game: str, spec: object, count: int, rng: random.Random) -> int:
    """Play ``count`` hands at a table of random bots, as ``simulate`` does; the decisions."""
    table = PokerTable(
        game,
        seats=PLAYERS,
        spec=spec,
        limits=TableLimits(1, STACK),
        rng=rng,
        log_size=SIMULATE_LOG_SIZE,
    )
    table.apply(SitTogether(tuple((seat, f"bot{seat}", STACK) for seat in range(PLAYERS))))
    bots = [RandomBot(rng=random.Random(rng.getrandbits(32))) for _ in range(PLAYERS)]
    decisions = 0
    for _ in range(count):
        for seat in range(PLAYERS):
            info = table.seat(seat)
            if info is not None and info.busted:
                table.apply(AddChips(seat, STACK - info.stack))
        summary = table.play_hand(lambda seat, view: bots[seat].choose(view))
        decisions += len(summary.hand.actions)
    assert table.chips_conserved()
    return decisions


# ---------------------------------------------------------------- PokerKit


def pokerkit_games() -> dict[str, Callable[[], object]]:
    """PokerKit's two games, as factories of fresh 6-handed states."""
    from pokerkit import (
        Automation,
        BettingStructure,
        FixedLimitRazz,
        Opening,
        StandardHighHand,
        State,
        Street,
    )
    from pokerkit import (
        Deck as PokerKitDeck,
    )

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
    bet = THREE_BY_FOUR.small_bet
    streets = (
        Street(False, (False, False, False), 0, False, Opening.POSITION, bet, None),
        Street(True, (), 2, False, Opening.POSITION, bet, None),
        Street(True, (), 1, False, Opening.POSITION, bet, None),
        Street(True, (), 1, False, Opening.POSITION, bet, None),
    )

    def three_by_four() -> object:
        return State(
            automations,
            PokerKitDeck.STANDARD,
            (StandardHighHand,),
            streets,
            BettingStructure.NO_LIMIT,
            True,
            (THREE_BY_FOUR.ante,) * PLAYERS,
            (0,) * PLAYERS,
            0,
            (STACK,) * PLAYERS,
            PLAYERS,
        )

    razz = FixedLimitRazz(automations, True, RAZZ.ante, RAZZ.bring_in, RAZZ.small_bet, RAZZ.big_bet)

    def razz_state() -> object:
        return razz((STACK,) * PLAYERS, PLAYERS)

    return {"3x4": three_by_four, "razz": razz_state}


def pokerkit_hands(factory: Callable[[], object], count: int, rng: random.Random) -> int:
    """Play ``count`` full PokerKit hands with the same policy; returns the decisions."""
    decisions = 0
    for _ in range(count):
        state = factory()
        while state.status:  # type: ignore[attr-defined]
            _pokerkit_action(state, rng)
            decisions += 1
        assert sum(state.stacks) == STACK * PLAYERS  # type: ignore[attr-defined]
    return decisions


def _pokerkit_action(state: object, rng: random.Random) -> None:
    s = state  # PokerKit's State; untyped here to keep the import lazy
    roll = rng.random()
    if roll < FOLD and s.checking_or_calling_amount:  # type: ignore[attr-defined]
        s.fold()  # type: ignore[attr-defined]
    elif roll < RAISE and s.can_complete_bet_or_raise_to():  # type: ignore[attr-defined]
        s.complete_bet_or_raise_to()  # type: ignore[attr-defined]
    elif s.can_post_bring_in():  # type: ignore[attr-defined]
        s.post_bring_in()  # type: ignore[attr-defined]
    elif s.can_check_or_call():  # type: ignore[attr-defined]
        s.check_or_call()  # type: ignore[attr-defined]
    else:
        s.complete_bet_or_raise_to()  # type: ignore[attr-defined]


# ---------------------------------------------------------------- the race


@dataclass
class Contender:
    """One engine playing one game: ``count`` hands per round."""

    name: str
    game: str
    play: Callable[[int, random.Random], int]
    count: int
    best: float = float("inf")
    decisions: int = 0

    @property
    def rate(self) -> float:
        return self.count / self.best

    @property
    def decision_rate(self) -> float:
        return self.decisions / self.best


def warm_up() -> None:
    """Build the evaluators' tables (once per process) before any clock starts."""
    our_hands("3x4", THREE_BY_FOUR, 20, random.Random(0))
    our_hands("razz", RAZZ, 20, random.Random(0))
    our_hands("teen-patti", TEEN_PATTI, 20, random.Random(0))


def race(contenders: list[Contender], rounds: int, seed: int) -> None:
    """Run each contender once per round, in turn; keep each one's best time."""
    warm_up()
    for contender in contenders:
        contender.play(2, random.Random(seed))
    for round_index in range(rounds):
        for index, contender in enumerate(contenders):
            rng = random.Random(seed + 1000 * round_index + index)
            random.seed(seed + round_index)  # PokerKit shuffles with the global random
            # CPU time of this process: on a shared machine, other processes'
            # time slices do not count against whoever happens to be running.
            start = time.process_time()
            decisions = contender.play(contender.count, rng)
            elapsed = time.process_time() - start
            if elapsed < contender.best:
                contender.best, contender.decisions = elapsed, decisions


def contenders(quick: bool) -> list[Contender]:
    ours_count, theirs_count = (400, 40) if quick else (4000, 300)
    peers = pokerkit_games()
    return [
        Contender(
            "pokerhouse",
            "3x4",
            lambda n, rng: our_hands("3x4", THREE_BY_FOUR, n, rng),
            ours_count,
        ),
        Contender(
            "PokerKit", "3x4", lambda n, rng: pokerkit_hands(peers["3x4"], n, rng), theirs_count
        ),
        Contender(
            TABLE_PATH,
            "3x4",
            lambda n, rng: table_hands("3x4", THREE_BY_FOUR, n, rng),
            ours_count,
        ),
        Contender("pokerhouse", "razz", lambda n, rng: our_hands("razz", RAZZ, n, rng), ours_count),
        Contender(
            "PokerKit", "razz", lambda n, rng: pokerkit_hands(peers["razz"], n, rng), theirs_count
        ),
        Contender(TABLE_PATH, "razz", lambda n, rng: table_hands("razz", RAZZ, n, rng), ours_count),
        Contender(
            "pokerhouse",
            "teen-patti",
            lambda n, rng: our_hands("teen-patti", TEEN_PATTI, n, rng),
            ours_count,
        ),
        Contender(
            TABLE_PATH,
            "teen-patti",
            lambda n, rng: table_hands("teen-patti", TEEN_PATTI, n, rng),
            ours_count,
        ),
    ]


def report(console: Console, field: list[Contender], rounds: int) -> None:
    table = Table(title=f"Full {PLAYERS}-handed hands, best of {rounds} rounds")
    columns = (
        "game",
        "engine",
        "hands",
        "hands/s",
        "decisions/hand",
        "× PokerKit",
        "× PokerKit per decision",
        "× bare",
    )
    for column in columns:
        table.add_column(column, justify="left" if column in ("game", "engine") else "right")
    by_game: dict[str, dict[str, Contender]] = {}
    for contender in field:
        by_game.setdefault(contender.game, {})[contender.name] = contender
    for game, entries in by_game.items():
        peer, bare = entries.get("PokerKit"), entries["pokerhouse"]
        for contender in entries.values():
            versus_peer = per_decision = ""
            if peer is not None and contender is not peer:
                versus_peer = f"{contender.rate / peer.rate:.1f}"
                # Decisions per second: the fair figure when a path makes fewer
                # decisions a hand (the table's bots size their raises at random).
                per_decision = f"{contender.decision_rate / peer.decision_rate:.1f}"
            versus_bare = (
                f"{contender.rate / bare.rate:.2f}" if contender.name == TABLE_PATH else ""
            )
            table.add_row(
                game,
                contender.name,
                str(contender.count),
                f"{contender.rate:,.0f}",
                f"{contender.decisions / contender.count:.1f}",
                versus_peer,
                per_decision,
                versus_bare,
            )
    console.print(table)


def profile(console: Console, hands: int) -> None:
    """cProfile our engine on both games; the top functions by own time."""
    warm_up()
    for game, spec in (("3x4", THREE_BY_FOUR), ("razz", RAZZ)):
        profiler = cProfile.Profile()
        profiler.enable()
        our_hands(game, spec, hands, random.Random(1))
        profiler.disable()
        console.rule(f"{game}: {hands} hands, top 15 by own time")
        pstats.Stats(profiler).strip_dirs().sort_stats("tottime").print_stats(15)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--rounds", type=int, default=None, help="rounds (default 3, quick 2)")
    parser.add_argument("--profile", action="store_true", help="cProfile our engine instead")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    console = Console()
    console.print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f}"
    )
    if args.profile:
        profile(console, 300 if args.quick else 2000)
        return 0
    rounds = args.rounds or (2 if args.quick else 3)
    field = contenders(args.quick)
    race(field, rounds, args.seed)
    report(console, field, rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
